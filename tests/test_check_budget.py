"""``run_suite(check_budget=)`` / ``crosscheck --check-budget``: one budget per check that covers
generation and shrinking (issue 29, item 1).

No verdict here depends on the machine's speed: the budget is measured on
``properties._run_check._clock``, which these tests replace by a clock that advances one second
each time it is read (once when the check starts, once before each example), so "the budget ran
out" means "after so many examples" on every machine.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import strategies as st

from properties import _run_check, _runner
from properties._cli import main
from properties._registry import get_suite
from properties._runner import CHECK_BUDGET_ENV, resolve_check_budget, run_suite
from properties._suite import Capabilities, Suite, check
from reference._arrays import FloatArray


@check(anchor="test: every drawn value is below 1000")
def check_below(impl: object, data: st.DataObject, caps: Capabilities) -> None:
    assert callable(impl)
    value = data.draw(st.integers(0, 10**6), label="value")
    out = impl(value)
    if out >= 1000:
        raise _runner.CheckFailure("impl(value)", measured=out, allowed="< 1000")


SUITE: Suite[object] = Suite(
    name="test.budget",
    protocol=object,
    checks=(check_below,),
    adapt=lambda f: f,
    description="a one-check suite for the budget tests",
)


def identity(value: int) -> int:
    """Fails the check for every value >= 1000 (shrinks to exactly 1000 given time)."""
    return value


def zero(value: int) -> int:
    """Passes the check."""
    return 0


@pytest.fixture
def counting_clock(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads = [0]

    def clock() -> float:
        reads[0] += 1
        return float(reads[0])

    monkeypatch.setattr(_run_check, "_clock", clock)
    return reads


def test_budget_stops_shrinking_and_reports_the_smallest_so_far(counting_clock: list[int]) -> None:
    report = run_suite(identity, SUITE, profile="smoke", check_budget=4.0, target="t:identity")
    (result,) = report.results
    assert result.status == "failed"
    assert "not fully shrunk: the check budget of 4 s ran out" in result.message
    assert "Draw 1 (value): " in result.message
    # the clock was read at the start and once before each example: 3 examples ran (read 2, 3,
    # 4), then the read 5 found the 4 s used up
    assert counting_clock[0] == 5
    drawn = int(result.message.split("Draw 1 (value): ")[1].split()[0])
    assert drawn >= 1000  # a real counterexample, not a passing input
    assert f"print(impl({drawn}))" in result.snippet
    assert "not fully shrunk: budget ran out" in report.format()


def test_without_budget_shrinking_reaches_the_minimum(counting_clock: list[int]) -> None:
    report = run_suite(identity, SUITE, profile="smoke", check_budget=None)
    (result,) = report.results
    assert result.status == "failed"
    assert "not fully shrunk" not in result.message
    assert "value=1000" in result.message or "(value): 1000" in result.message
    assert counting_clock[0] == 0  # no budget: the clock is never read


def test_budget_out_before_any_failure_is_incomplete_not_passed(counting_clock: list[int]) -> None:
    report = run_suite(zero, SUITE, profile="smoke", check_budget=3.0)
    (result,) = report.results
    assert result.status == "failed"
    assert "check below incomplete" in result.message
    assert "ran out after 2 examples of 25, none failing" in result.message
    assert "raise --check-budget" in result.message


def test_large_budget_changes_nothing(counting_clock: list[int]) -> None:
    assert run_suite(zero, SUITE, profile="smoke", check_budget=1e9).ok
    report = run_suite(identity, SUITE, profile="smoke", check_budget=1e9)
    assert "not fully shrunk" not in report.results[0].message


def test_auto_budget_follows_environment_then_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CHECK_BUDGET_ENV, "none")
    assert resolve_check_budget("auto", "smoke") is None
    monkeypatch.setenv(CHECK_BUDGET_ENV, "12.5")
    assert resolve_check_budget("auto", "smoke") == 12.5
    monkeypatch.delenv(CHECK_BUDGET_ENV)
    assert resolve_check_budget("auto", "smoke") == _runner.DEFAULT_CHECK_BUDGETS["smoke"]
    assert resolve_check_budget("auto", "thorough") is None
    monkeypatch.setenv(CHECK_BUDGET_ENV, "soon")
    with pytest.raises(ValueError, match="check_budget"):
        resolve_check_budget("auto", "smoke")


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan"), float("inf")])
def test_bad_budget_is_a_value_error_naming_it(bad: float) -> None:
    with pytest.raises(ValueError, match="check_budget"):
        run_suite(zero, SUITE, check_budget=bad)


def uniform(payoff: FloatArray) -> tuple[FloatArray, FloatArray]:
    """A game "solver" returning uniform strategies: wrong on most games."""
    m, n = np.shape(payoff)
    return np.full(m, 1.0 / m), np.full(n, 1.0 / n)


def test_cli_check_budget_fails_with_not_fully_shrunk(counting_clock: list[int]) -> None:
    out, err = io.StringIO(), io.StringIO()
    skip = [c for c in get_suite("games.solver").check_names() if c != "duality_gap"]
    argv = ["crosscheck", "games.solver", "tests.test_check_budget:uniform", "--profile", "smoke"]
    code = main([*argv, "--check-budget", "8", *(f"--skip={c}" for c in skip)], out=out, err=err)
    text = out.getvalue()
    assert code == 1, text
    assert "check budget 8s" in text
    assert "not fully shrunk: the check budget of 8 s ran out" in text
    assert "re-run the failing input (not fully shrunk: budget ran out):" in text
    assert "impl = resolve_name('tests.test_check_budget:uniform')" in text


@pytest.mark.parametrize("bad", ["-3", "0", "soon"])
def test_cli_bad_check_budget_is_a_usage_error(bad: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["crosscheck", "games.solver", "x:y", "--check-budget", bad], out=out, err=err) == 2


def sleeper(value: int) -> int:
    """Blocks far longer than any budget below (a C call: time.sleep)."""
    import time

    time.sleep(30.0)
    return 0


def test_budget_also_stops_a_running_example() -> None:
    # the budget (0.3 s) is 100 times shorter than the call: it fires inside the first example,
    # which --timeout (60 s) would not stop; no verdict here depends on the machine's speed
    report = run_suite(sleeper, SUITE, profile="smoke", check_budget=0.3, timeout=60.0)
    (result,) = report.results
    assert result.status == "failed"
    assert "check below incomplete" in result.message
    assert "ran out after 0 examples of 25" in result.message
    assert "timed out" not in result.message


def test_hypothesis_shrink_warning_becomes_one_line_of_ours() -> None:
    raw = (
        "WARNING: Hypothesis has spent more than five minutes working to shrink a failing test "
        "case, and stopped because it is making very slow progress.\n\nPLEASE REPORT THIS if you "
        "can provide a reproducing example"
    )
    line = _run_check._hypothesis_line([raw, "WARNING: something else"], [])
    assert "\n" not in line
    assert "PLEASE REPORT" not in line
    assert line.startswith("note: Hypothesis stopped shrinking after 5 minutes")
    assert line.endswith("(and 1 more); bound the check with --check-budget SECONDS")
    assert _run_check._hypothesis_line(["Trying example: ..."], []) == ""


def warns(value: int) -> int:
    import warnings

    warnings.warn("the target's own warning", UserWarning, stacklevel=1)
    return 0


def test_the_targets_own_warnings_are_not_swallowed() -> None:
    with pytest.warns(UserWarning, match="the target's own warning"):
        report = run_suite(warns, SUITE, profile="smoke", check_budget=None)
    assert report.ok
    assert "note:" not in report.results[0].message
