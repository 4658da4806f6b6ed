"""``run_suite(..., timeout=)`` and ``crosscheck --timeout``: a call that never returns fails its
check within the timeout, unshrunk, with the input and a re-run snippet (issue 18).

No verdict here depends on the machine's speed (issue 31): the mutants loop forever or sleep
far past the limit, so a slower machine only makes them later; the tests bound the elapsed time
by the mutant's own sleep (the limit cut it short) and from below by the limit itself."""

from __future__ import annotations

import io
import threading
import time

import numpy as np
import pytest

from properties import run_suite
from properties._cli import main
from properties._runner import SuiteReport
from reference._arrays import FloatArray

CALLS: list[tuple[int, ...]] = []
ONLY = ("strategies_on_simplices", "duality_gap")  # two checks keep the test short


def _uniform(payoff: FloatArray) -> tuple[FloatArray, FloatArray]:
    m, n = np.shape(payoff)
    return np.full(m, 1.0 / m), np.full(n, 1.0 / n)


def loops_forever_on_1x1(payoff: FloatArray) -> tuple[FloatArray, FloatArray]:
    """A solver with the reported defect: it never returns on the 1x1 game ``[[0.]]``."""
    CALLS.append(np.shape(payoff))
    if np.shape(payoff) == (1, 1):
        while True:
            pass
    return _uniform(payoff)


#: How long :func:`sleeps` blocks: far above the 0.3 s limit of the tests, so that finishing
#: before it proves the limit cut the call short, on however slow a machine.
SLEEP_S = 120.0


def sleeps(payoff: FloatArray) -> tuple[FloatArray, FloatArray]:
    """A solver that blocks in a C call (``time.sleep``) for longer than the timeout."""
    time.sleep(SLEEP_S)
    return _uniform(payoff)


def _skip_all_but(names: tuple[str, ...]) -> list[str]:
    from properties._registry import get_suite

    return [c for c in get_suite("games.solver").check_names() if c not in names]


def test_looping_solver_fails_within_timeout_without_shrinking() -> None:
    CALLS.clear()
    # the solver never returns on [[0.]]: reaching the asserts at all means the limit fired
    report = run_suite(loops_forever_on_1x1, "games.solver", skip=_skip_all_but(ONLY), timeout=0.5)
    failed = {r.name: r for r in report.failed}
    assert set(failed) == set(ONLY)
    for result in failed.values():
        assert result.seconds >= 0.5  # the limit waited its 0.5 s before failing the check
        assert "timed out" in result.message
        assert "--timeout 0.5" in result.message
        assert "Draw 1 (payoff A): array([[0.]])" in result.message
        assert "np.array([[0.0]], dtype='float64')" in result.snippet
    # one call per check: the timed-out input is neither replayed nor shrunk
    assert CALLS.count((1, 1)) == len(ONLY)


def test_sleeping_solver_fails_within_timeout() -> None:
    start = time.perf_counter()
    report = run_suite(sleeps, "games.solver", skip=_skip_all_but(ONLY[:1]), timeout=0.3)
    assert time.perf_counter() - start < SLEEP_S  # cut short: the sleep did not run out
    assert [r.name for r in report.failed] == [ONLY[0]]
    assert "no result within 0.3 s" in report.failed[0].message


def test_thread_fallback_off_the_main_thread() -> None:
    box: list[SuiteReport] = []
    worker = threading.Thread(
        target=lambda: box.append(
            run_suite(sleeps, "games.solver", skip=_skip_all_but(ONLY[:1]), timeout=0.3)
        )
    )
    start = time.perf_counter()
    worker.start()
    worker.join(SLEEP_S)
    assert not worker.is_alive()
    assert time.perf_counter() - start < SLEEP_S  # the worker did not wait for the sleep
    (report,) = box
    assert "left running" in report.failed[0].message


def test_cli_timeout_prints_progress_and_reproduction() -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["crosscheck", "games.solver", "tests.test_crosscheck_timeout:loops_forever_on_1x1"]
    for name in _skip_all_but(ONLY[:1]):
        argv += ["--skip", name]
    code = main([*argv, "--timeout", "0.5"], out=out, err=err)
    assert code == 1
    text = out.getvalue()
    assert "timeout 0.5s" in text
    assert "check strategies_on_simplices timed out" in text
    assert "re-run the failing input (not shrunk: it timed out):" in text
    assert "impl = resolve_name('tests.test_crosscheck_timeout:loops_forever_on_1x1')" in text
    assert "] games.solver strategies_on_simplices ..." in err.getvalue()
    assert "strategies_on_simplices failed" in err.getvalue()


def test_timeout_must_be_positive() -> None:

    with pytest.raises(ValueError, match="timeout"):
        run_suite(sleeps, "games.solver", timeout=0.0)
