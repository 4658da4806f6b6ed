"""Shared pieces of the iterative zero-sum game solvers: the result record and validators.

Used by :mod:`reference.games.regret` (RM+ / PRM+), :mod:`reference.games.ssn`
(Douglas–Rachford residual and semi-smooth Newton) and
:mod:`reference.games.hybrid` (PRM+ -> SSN).  Everything public here is
re-exported by :mod:`reference.games`.

Convention (as in :mod:`reference.games`): ``A`` is ``(m, n)``; the row player
``x`` (simplex of R^m) minimises ``xᵀAy``; the column player ``y`` maximises.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reference._arrays import FloatArray, as_float_array, require_int, require_positive

__all__ = ["EquilibriumResult"]


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class EquilibriumResult:
    """What every iterative game solver of the library returns.

    Attributes:
        method: ``"RM+"``, ``"PRM+"``, ``"DRS"``, ``"SSN"``, ``"PSSN"`` or ``"HPSSN"``.
        x: ``(m,)`` float64, read-only: the row player's (minimiser's) strategy.
        y: ``(n,)`` float64, read-only: the column player's (maximiser's) strategy.
        gap: duality gap ``max_j (xᵀA)_j - min_i (Ay)_i`` of the returned pair.
        converged: the stopping test was met (gap <= tol, or for DRS/SSN also
            ``||R(u)|| <= tol_res``) before ``max_iter``; ``False`` is data, not an error.
        iterations: all iterations, ``first_order_iterations + newton_iterations``.
        first_order_iterations: RM+/PRM+/DRS iterations (one pair of mat-vecs each).
        newton_iterations: semi-smooth Newton iterations (one linear solve each).
        gap_history: ``(iterations + 1,)`` or shorter, read-only: the gap of the reported
            candidate after each iteration (entry 0 is the starting point when one exists).
        residual_history: read-only ``||R(u_k)||`` per DRS/Newton iterate (empty for RM+/PRM+).
        residual: final ``||R(u)||`` for DRS/SSN/hybrid runs that ended in the lifted
            space, ``None`` otherwise.
        u: ``(m + n,)`` read-only lifted point for DRS/SSN runs, ``None`` otherwise.
        ssn_runs: number of times the SSN phase was entered (hybrids; 1 for SSN; 0 else).
        safeguard_steps: Newton iterations whose line search failed and that took the
            projection/DRS safeguard instead.
        fallback: a PSSN run whose first SSN phase failed and that continued as HPSSN.
        wall_time: seconds spent in the solver.
    """

    method: str
    x: FloatArray
    y: FloatArray
    gap: float
    converged: bool
    iterations: int
    first_order_iterations: int
    newton_iterations: int
    gap_history: FloatArray
    residual_history: FloatArray
    residual: float | None = None
    u: FloatArray | None = None
    ssn_runs: int = 0
    safeguard_steps: int = 0
    fallback: bool = False
    wall_time: float = 0.0


def _payoff(value: object) -> FloatArray:
    """Validate a payoff matrix: 2-D, non-empty, real, finite; return a float64 copy."""
    return as_float_array("payoff", value, ndim=2)


def _tol(name: str, value: object) -> float:
    return require_positive(name, value)


def _max_iter(value: object) -> int:
    return require_int("max_iter", value, minimum=1)


def _gap(payoff: FloatArray, x: FloatArray, y: FloatArray) -> float:
    """Duality gap without validation (internal; callers pass simplex points)."""
    return float(np.max(x @ payoff) - np.min(payoff @ y))


def _uniform(size: int) -> FloatArray:
    return np.full(size, 1.0 / size)
