"""Regression tests for the hard-input defects of issue 22 (games family).

Each test runs the instance from the issue on the reference and on the numpy fast path and
recomputes the stopping quantity (the duality gap of the returned pair) by plain numpy, so
``converged`` is judged against a number the solver did not report itself.

Before the fix (measured on this branch's parent, 09a3f13):

* 20x20 game, entries ``U[-1, 1] * 1e6``, ``tol=1e-9``: ``hybrid`` returned ``converged=True``
  with gap ``2.77e-4`` (the residual floor ``1e-14 * max|a_ij| = 1e-8`` was in payoff units and
  was reported as convergence); ``ssn`` likewise, gap ``9.4e-4``.
* ``[[5, 4], [0, 1e-9]]``: ``hybrid`` raised ``LinAlgError`` (reference) and
  ``ValueError: array must not contain infs or NaNs`` (fast path) from a singular Newton system.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from reference._arrays import FloatArray
from reference.games import EquilibriumResult, fast, hybrid, ssn
from reference.games.ssn import _solve

Solver = Callable[..., EquilibriumResult]

SCALED = np.random.default_rng(0).uniform(-1.0, 1.0, (20, 20)) * 1e6  # issue 22, defect 1
SINGULAR = np.array([[5.0, 4.0], [0.0, 1e-9]])  # issue 22, defect 3

NEWTON_SOLVERS: tuple[tuple[str, Solver, dict[str, Any]], ...] = (
    ("hybrid PSSN", hybrid, {"mode": "PSSN"}),
    ("hybrid HPSSN", hybrid, {"mode": "HPSSN"}),
    ("fast hybrid PSSN", fast.hybrid, {"mode": "PSSN"}),
    ("fast hybrid HPSSN", fast.hybrid, {"mode": "HPSSN"}),
    ("fast hybrid dense", fast.hybrid, {"linear_solver": "dense"}),
    ("ssn", ssn, {}),
    ("fast ssn", fast.ssn, {}),
    ("fast ssn dense", fast.ssn, {"linear_solver": "dense"}),
)
IDS = [name for name, _, _ in NEWTON_SOLVERS]


def _gap(a: FloatArray, x: FloatArray, y: FloatArray) -> float:
    """The duality gap recomputed here, independently of the solver's ``gap`` field."""
    return float(np.max(x @ a) - np.min(a @ y))


def _assert_honest(res: EquilibriumResult, a: FloatArray, tol: float) -> float:
    for v in (res.x, res.y):
        assert np.all(np.isfinite(v)), res
        assert abs(float(v.sum()) - 1.0) <= 1e-12, res
        assert float(v.min()) >= 0.0, res
    gap = _gap(a, res.x, res.y)
    assert res.converged == (gap <= tol), (res.converged, gap, tol)
    assert (res.stop_reason == "tol") == res.converged, res.stop_reason
    return gap


@pytest.mark.parametrize(("name", "solver", "kwargs"), NEWTON_SOLVERS, ids=IDS)
def test_scaled_game_converges_honestly(name: str, solver: Solver, kwargs: dict[str, Any]) -> None:
    """Defect 1: at ``max|a_ij| ~ 1e6`` a gap of 1e-9 (relative 1e-15) is reached and reported."""
    gap = _assert_honest(solver(SCALED, tol=1e-9, **kwargs), SCALED, 1e-9)
    assert gap <= 1e-9, f"{name}: gap {gap:.3e}"


@pytest.mark.parametrize(("name", "solver", "kwargs"), NEWTON_SOLVERS, ids=IDS)
def test_scaled_game_below_rounding_is_not_converged(
    name: str, solver: Solver, kwargs: dict[str, Any]
) -> None:
    """Defect 1, the other side: ``tol = 1e-14`` at scale 1e6 is below what float64 resolves
    (the gap's own rounding is ``~ 20 · 1e6 · 2^-52 = 4e-9``), so the run must end unconverged,
    and it does so at the residual floor, quickly, not by spinning to ``max_iter``."""
    res = solver(SCALED, tol=1e-14, **kwargs)
    gap = _assert_honest(res, SCALED, 1e-14)
    assert not res.converged
    assert gap > 1e-14
    assert res.stop_reason == "residual_floor", f"{name}: {res.stop_reason}"
    assert res.iterations < 1000


@pytest.mark.parametrize(("name", "solver", "kwargs"), NEWTON_SOLVERS, ids=IDS)
def test_singular_newton_system(name: str, solver: Solver, kwargs: dict[str, Any]) -> None:
    """Defect 3: ``[[5, 4], [0, 1e-9]]`` makes the Newton matrix singular (``μ`` below the
    rounding of ``1 + μ``); the least-squares fallback keeps the run finite.  The equilibrium
    is ``x = (0, 1)``, value ``1e-9``; ``tol = 1e-10`` is reached."""
    res = solver(SINGULAR, tol=1e-10, **kwargs)
    gap = _assert_honest(res, SINGULAR, 1e-10)
    assert res.converged, f"{name}: gap {gap:.3e}, {res.stop_reason}"
    np.testing.assert_array_equal(res.x, [0.0, 1.0])


def test_singular_newton_matrix_falls_back_to_least_squares() -> None:
    """The solve helper on an exactly singular and on a consistent system: finite, and exact
    where the system is solvable."""
    k = np.array([[1.0, 1.0], [1.0, 1.0]])
    d = _solve(k, np.array([2.0, 2.0]))
    np.testing.assert_allclose(d, [1.0, 1.0], rtol=0.0, atol=1e-14)  # min-norm solution
    d = _solve(k, np.array([1.0, -1.0]))  # inconsistent: least squares gives 0
    np.testing.assert_allclose(d, [0.0, 0.0], rtol=0.0, atol=1e-14)
    d = _solve(np.array([[2.0, 0.0], [0.0, 4.0]]), np.array([2.0, 2.0]))
    np.testing.assert_array_equal(d, [1.0, 0.5])
