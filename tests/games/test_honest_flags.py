"""``converged`` is honest on valid but numerically hard games (issue 22, part B).

For every iterative solver of the games family (reference and numpy fast path, and the
perturbation family's matrix-game solvers) on a sample of valid hard instances — scales
1e-8..1e8, exact and near ties, all-zero and all-equal matrices, 1 x n and n x 1, a 2 x 2
game whose Newton system is singular, rank one, near-duplicate rows — this checks:

* no exception (any exception fails the test), finite outputs on the simplices;
* ``converged == (gap(x, y) <= tol)`` with the gap recomputed here by plain numpy from the
  returned pair (for ``asymp_gda``, whose stated stopping quantity is the perturbed gap of two
  internal runs, ``converged == (stopping <= tol)`` and ``nash_conv`` is recomputed);
* ``stop_reason == "tol"`` iff ``converged``, and a documented value otherwise;
* runtime bounded through ``max_iter``: ``iterations <= max_iter``;
* the gap brackets the game value computed independently by ``scipy.optimize.linprog``:
  ``min_i (Ay)_i <= v <= max_j (xᵀA)_j`` up to the LP's tolerance.

``tol`` is absolute in the whole family; each instance is run with a reachable tolerance
(``1e-6 · max|a_ij|``) and with ``1e-12``, which is below rounding for the large scales.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from scipy.optimize import linprog

from reference import perturbation
from reference._arrays import FloatArray
from reference.games import STOP_REASONS, drs, fast, hybrid, prm_plus, rm_plus, ssn


def _instances() -> dict[str, FloatArray]:
    base = np.random.default_rng(1).uniform(-1.0, 1.0, (4, 5))
    out = {f"random 4x5 * {s:g}": base * s for s in (1e-8, 1e-4, 1.0, 1e4, 1e8)}
    near_dup = base.copy()
    near_dup[1] = near_dup[0] + 1e-13
    u, v = np.random.default_rng(2).uniform(-1.0, 1.0, (2, 4))
    out.update(
        {
            "all zero 3x3": np.zeros((3, 3)),
            "all equal 2x4": np.full((2, 4), 0.7),
            "1x5": np.array([[0.3, -1.0, 2.0, 2.0, 0.5]]),
            "5x1": np.array([[0.3], [-1.0], [2.0], [-1.0], [0.5]]),
            "singular newton 2x2": np.array([[5.0, 4.0], [0.0, 1e-9]]),
            "near tie 2x2": np.array([[1.0, 1.0 + 1e-12], [1.0, 1.0]]),
            "pennies * 1e8": np.array([[1.0, -1.0], [-1.0, 1.0]]) * 1e8,
            "rank one 4x4": np.outer(u, v),
            "near duplicate rows": near_dup,
        }
    )
    return out


INSTANCES = _instances()


@dataclass(frozen=True, slots=True)
class Solver:
    """A solver call with a bounded ``max_iter``; ``stopping`` names what ``tol`` bounds."""

    name: str
    fn: Callable[..., Any]
    max_iter: int
    kwargs: tuple[tuple[str, Any], ...] = ()
    stopping: str = "gap"  # "gap" (of the returned pair) or "perturbed" (asymp_gda)


SOLVERS = (
    Solver("rm_plus", rm_plus, 2000),
    Solver("prm_plus", prm_plus, 2000),
    Solver("prm_plus last", prm_plus, 2000, (("averaging", "last"),)),
    Solver("ssn", ssn, 100),
    Solver("fast.ssn", fast.ssn, 100),
    Solver("fast.ssn dense", fast.ssn, 100, (("linear_solver", "dense"),)),
    Solver("drs", drs, 500),
    Solver("fast.drs", fast.drs, 500),
    Solver("hybrid PSSN", hybrid, 3000),
    Solver("hybrid HPSSN", hybrid, 3000, (("mode", "HPSSN"),)),
    Solver("fast.hybrid PSSN", fast.hybrid, 3000),
    Solver("fast.hybrid HPSSN", fast.hybrid, 3000, (("mode", "HPSSN"),)),
    Solver("parameter_free", perturbation.parameter_free, 3000),
    Solver("asymp_gda", perturbation.asymp_gda, 3000, (("mu", 0.05),), "perturbed"),
)

PF_REASONS = ("tol", "max_iter", "mu_floor")


def _gap(a: FloatArray, x: FloatArray, y: FloatArray) -> float:
    return float(np.max(x @ a) - np.min(a @ y))


def _lp_value(a: FloatArray) -> float:
    """``min_x max_j (xᵀA)_j`` by scipy's HiGHS, independently of :mod:`reference.games`."""
    m, n = a.shape
    cost = np.zeros(m + 1)
    cost[-1] = 1.0
    res = linprog(
        cost,
        A_ub=np.hstack([a.T, -np.ones((n, 1))]),
        b_ub=np.zeros(n),
        A_eq=np.hstack([np.ones((1, m)), np.zeros((1, 1))]),
        b_eq=np.ones(1),
        bounds=[(0.0, None)] * m + [(None, None)],
        method="highs",
    )
    assert res.status == 0, res.message
    assert res.x is not None
    return float(res.x[-1])


def _simplex_point(v: FloatArray) -> None:
    assert np.all(np.isfinite(v)), v
    assert float(v.min()) >= 0.0, v
    assert abs(float(v.sum()) - 1.0) <= 1e-12, v


@pytest.mark.parametrize("solver", SOLVERS, ids=[s.name for s in SOLVERS])
@pytest.mark.parametrize("instance", list(INSTANCES), ids=list(INSTANCES))
def test_converged_is_honest(instance: str, solver: Solver) -> None:
    a = INSTANCES[instance]
    scale = float(np.max(np.abs(a)))
    value = _lp_value(a)
    for tol in (1e-6 * scale if scale > 0.0 else 1e-6, 1e-12):
        res = solver.fn(a, tol=tol, max_iter=solver.max_iter, **dict(solver.kwargs))
        where = f"{solver.name} on {instance}, tol={tol:g}"
        _simplex_point(np.asarray(res.x))
        _simplex_point(np.asarray(res.y))
        assert res.iterations <= solver.max_iter, where
        gap = _gap(a, res.x, res.y)
        assert np.isfinite(gap), where
        if solver.stopping == "gap":
            assert res.converged == (gap <= tol), f"{where}: converged={res.converged}, gap={gap}"
        else:  # asymp_gda: the perturbed gap of the two runs; NashConv is reported beside it
            assert np.isfinite(res.stopping), where
            assert res.converged == (res.stopping <= tol), where
            assert res.nash_conv == pytest.approx(gap, rel=1e-12, abs=1e-300), where
        assert (res.stop_reason == "tol") == res.converged, f"{where}: {res.stop_reason}"
        reasons = PF_REASONS if solver.name == "parameter_free" else STOP_REASONS
        assert res.stop_reason in reasons, where
        slack = 1e-7 * max(1.0, scale)  # HiGHS' default feasibility tolerance, in payoff units
        assert float(np.min(a @ res.y)) <= value + slack, where
        assert float(np.max(res.x @ a)) >= value - slack, where
