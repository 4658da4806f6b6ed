"""``Capabilities(raises=...)`` / ``crosscheck --raises module:Class``: a library's own exception
class counts as rejecting bad input (issue 29 item 6)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from properties import Capabilities, run_suite
from properties._cli import main
from reference._arrays import FloatArray
from reference.games import solve_lp


class ProblemError(Exception):
    """A library's own "bad problem" error, not a ValueError (like qpsolvers' ProblemError)."""


def strict_solver(payoff: FloatArray) -> object:
    """Our LP solver behind a validation that raises ProblemError on bad payoffs."""
    a = np.asarray(payoff)
    if a.ndim != 2 or a.size == 0 or not np.all(np.isfinite(a)):
        raise ProblemError(f"payoff: bad matrix of shape {a.shape}")
    return solve_lp(a)


ONLY = ["rejects_invalid_input"]


def _skip() -> list[str]:
    from properties._registry import get_suite

    return [c for c in get_suite("games.solver").check_names() if c not in ONLY]


def test_undeclared_library_error_fails_the_rejection_check() -> None:
    caps = Capabilities(raises_on_invalid=True)
    report = run_suite(strict_solver, "games.solver", capabilities=caps, skip=_skip())
    (failed,) = report.failed
    assert "raised ProblemError" in failed.message
    assert "raises ValueError or TypeError" in failed.message


def test_declared_library_error_counts_as_rejection() -> None:
    caps = Capabilities(raises_on_invalid=True, raises=(ProblemError,))
    report = run_suite(strict_solver, "games.solver", capabilities=caps, skip=_skip())
    assert report.ok, report.format()
    # the declaration does not leak into the next run
    plain = run_suite(
        strict_solver,
        "games.solver",
        capabilities=Capabilities(raises_on_invalid=True),
        skip=_skip(),
    )
    assert not plain.ok


def lenient_solver(payoff: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Returns uniform strategies whatever it is given: never rejects anything."""
    m, n = (*np.shape(payoff), 1, 1)[:2]
    return np.full(max(m, 1), 1.0 / max(m, 1)), np.full(max(n, 1), 1.0 / max(n, 1))


def test_declared_error_still_fails_a_target_that_returns() -> None:
    caps = Capabilities(raises_on_invalid=True, raises=(ProblemError,))
    report = run_suite(lenient_solver, "games.solver", capabilities=caps, skip=_skip())
    (failed,) = report.failed
    assert "raises ValueError or TypeError or ProblemError" in failed.message


def test_raises_must_be_exception_classes() -> None:
    with pytest.raises(TypeError, match="raises"):
        Capabilities(raises=(int,))  # type: ignore[arg-type]


def test_cli_raises_option() -> None:
    argv = ["crosscheck", "games.solver", "tests.test_declared_raises:strict_solver"]
    flags = ["--capability", "raises_on_invalid", *(f"--skip={c}" for c in _skip())]
    out = io.StringIO()
    assert main([*argv, *flags], out=out, err=io.StringIO()) == 1
    out = io.StringIO()
    code = main(
        [*argv, *flags, "--raises", "tests.test_declared_raises:ProblemError"],
        out=out,
        err=io.StringIO(),
    )
    assert code == 0, out.getvalue()
    assert "rejections also ['ProblemError']" in out.getvalue()
    err = io.StringIO()
    assert main([*argv, "--raises", "builtins:len"], out=io.StringIO(), err=err) == 2
    assert "--raises: expected an Exception subclass" in err.getvalue()
