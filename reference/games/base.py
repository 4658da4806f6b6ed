"""Shared pieces of the zero-sum game solvers: the simplex projection, the duality gap,
the result record and validators.

The library's one simplex projection (:func:`project_simplex`, :func:`simplex_threshold`) and
one duality gap (``_gap``, public as :func:`reference.games.duality_gap`) live here; other
families (e.g. :mod:`reference.perturbation`) import them from :mod:`reference.games`.

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
from numpy.typing import ArrayLike

from reference._arrays import FloatArray, as_float_array, require_int, require_positive
from reference._repr import summary_repr

__all__ = ["STOP_REASONS", "EquilibriumResult", "project_simplex", "simplex_threshold"]

#: Why an iterative game solver stopped (:attr:`EquilibriumResult.stop_reason`): ``"tol"``
#: the returned pair's duality gap is at most ``tol`` (the only reason with
#: ``converged=True``); ``"max_iter"`` the iteration cap; ``"residual_floor"`` DRS/SSN/hybrid
#: only: ``||R(u)||`` reached the residual floor ``tol_res`` (the lifted point is a fixed point
#: to working precision) while the gap is still above ``tol``.
STOP_REASONS: tuple[str, ...] = ("tol", "max_iter", "residual_floor")


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class EquilibriumResult:
    """What every iterative game solver of the library returns.

    Attributes:
        method: ``"RM+"``, ``"PRM+"``, ``"DRS"``, ``"SSN"``, ``"PSSN"`` or ``"HPSSN"``.
        x: ``(m,)`` float64, read-only: the row player's (minimiser's) strategy.
        y: ``(n,)`` float64, read-only: the column player's (maximiser's) strategy.
        gap: duality gap ``max_j (xᵀA)_j - min_i (Ay)_i`` of the returned pair.
        converged: exactly ``gap <= tol``: the duality gap of the returned ``(x, y)``,
            recomputed at the end, is at most the absolute tolerance ``tol`` (payoff units,
            the one convention of the games family).  A secondary stop (residual floor,
            iteration cap) is never convergence: see ``stop_reason``.  ``False`` is data,
            not an error.
        stop_reason: why the solver stopped, one of :data:`STOP_REASONS`; ``"tol"`` iff
            ``converged``.
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
    stop_reason: str
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
    """Duality gap ``max_j (xᵀA)_j - min_i (Ay)_i`` without validation.

    The one implementation of the gap (NashConv) of a matrix game: the public
    :func:`reference.games.duality_gap` validates and calls it, as does
    :func:`reference.perturbation.nash_conv`.  Callers pass simplex points.
    """
    return float(np.max(x @ payoff) - np.min(payoff @ y))


# ------------------------------------------------------------------ simplex projection
def _threshold(v: FloatArray) -> float:
    """Algorithm P's threshold ``τ`` without validation (internal)."""
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - 1.0
    j = np.arange(1, v.size + 1)
    positive = np.nonzero(u - css / j > 0.0)[0]
    rho = int(positive[-1]) + 1 if positive.size else 1
    return float(css[rho - 1] / rho)


def _project(v: FloatArray) -> FloatArray:
    """Algorithm P without validation: ``Π(v) = max(v - τ, 0)`` (internal)."""
    if v.size == 1:  # Δ_1 = {1}: exact even where v - (v - 1) rounds
        return np.ones(1)
    out: FloatArray = np.maximum(v - _threshold(v), 0.0)
    return out


def project_simplex(v: ArrayLike) -> FloatArray:
    """Euclidean projection onto the probability simplex (Algorithm P).

    Sort ``v`` decreasingly into ``u``; ``ρ`` = the largest ``j`` with
    ``u_j - (Σ_{i<=j} u_i - 1)/j > 0``; ``τ = (Σ_{i<=ρ} u_i - 1)/ρ``
    (:func:`simplex_threshold`); ``Π(v) = max(v - τ, 0)``.  Cost ``O(k log k)``.

    Args:
        v: ``(k,)`` finite real vector, ``k >= 1``.

    Returns:
        A fresh ``(k,)`` float64 point of the simplex, ``Π(v)``.

    Raises:
        TypeError: non-numeric input.
        ValueError: not 1-D, empty or non-finite.

    Example:
        >>> project_simplex([0.5, 1.5, -1.0]).tolist()
        [0.0, 1.0, 0.0]

    References:
        Held, Wolfe, Crowder (1974); J. Duchi, S. Shalev-Shwartz, Y. Singer, T. Chandra,
        "Efficient projections onto the l1-ball for learning in high dimensions", ICML 2008,
        Fig. 1; Condat (2016); spec 01, Section 3.1 (Algorithm P).
    """
    return _project(as_float_array("v", v, ndim=1))


def simplex_threshold(v: ArrayLike) -> float:
    """The threshold ``τ`` of the simplex projection: ``Π(v) = max(v - τ, 0)``.

    ``τ = (Σ_{i<=ρ} u_i - 1)/ρ`` with ``u`` the decreasingly sorted ``v`` and ``ρ`` as in
    :func:`project_simplex`; the support of ``Π(v)`` is ``{i : v_i > τ}``.

    Args:
        v: ``(k,)`` finite real vector, ``k >= 1``.

    Returns:
        ``τ`` as a Python float.

    Raises:
        TypeError: non-numeric input.
        ValueError: not 1-D, empty or non-finite.

    Example:
        >>> simplex_threshold([0.5, 1.5, -1.0])
        0.5

    References:
        spec 01, Section 3.1 (Algorithm P).
    """
    return _threshold(as_float_array("v", v, ndim=1))


def _uniform(size: int) -> FloatArray:
    return np.full(size, 1.0 / size)
