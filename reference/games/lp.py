"""Two-player zero-sum matrix games: the LP oracle and the duality gap.

Convention (used throughout the library): the payoff matrix ``A`` has shape
``(m, n)``; the row player picks ``x`` in the simplex of R^m and *pays*
``xᵀAy``; the column player picks ``y`` in the simplex of R^n and *receives* it.
The value is

    v* = min_x max_y xᵀAy = max_y min_x xᵀAy      (von Neumann, 1928).

This module holds the independent oracle (linear programming through SciPy's
HiGHS) against which every iterative game solver in the library is judged, and
re-exports the iterative solvers of spec 01 (Yang, Gao, Lin, Kroer,
arXiv:2512.12910), implemented in :mod:`reference.games.regret` (RM+, PRM+),
:mod:`reference.games.ssn` (simplex projection, DRS residual, plain DRS,
regularised semi-smooth Newton) and :mod:`reference.games.hybrid` (PSSN, HPSSN).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import linprog

from reference._arrays import FloatArray, as_float_array, as_simplex_point, readonly
from reference._repr import summary_repr
from reference.games.base import _gap

__all__ = [
    "GameSolution",
    "best_response_values",
    "duality_gap",
    "solve_lp",
]


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class GameSolution:
    """An equilibrium computed by linear programming.

    Attributes:
        x: ``(m,)`` float64, read-only: the row player's (minimiser's) strategy.
        y: ``(n,)`` float64, read-only: the column player's (maximiser's) strategy.
        value: the optimal value of the row player's LP, ``min_x max_j (xᵀA)_j``.
        dual_value: the optimal value of the column player's LP, ``max_y min_i (Ay)_i``,
            solved as a separate LP (von Neumann: equal to ``value``).
    """

    x: FloatArray
    y: FloatArray
    value: float
    dual_value: float


def _solve_side(payoff: FloatArray) -> tuple[FloatArray, float]:
    """Solve ``min_{p in simplex} max_j (pᵀ payoff)_j`` by LP; return ``(p, value)``."""
    rows, cols = payoff.shape
    # variables (p_1..p_rows, t): minimise t s.t. payoffᵀp - t <= 0, sum p = 1, p >= 0.
    cost = np.zeros(rows + 1)
    cost[-1] = 1.0
    a_ub = np.hstack([payoff.T, -np.ones((cols, 1))])
    a_eq = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * rows + [(None, None)]
    result = linprog(
        cost,
        A_ub=a_ub,
        b_ub=np.zeros(cols),
        A_eq=a_eq,
        b_eq=np.ones(1),
        bounds=bounds,
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    if result.status != 0:  # pragma: no cover - a bounded feasible LP; HiGHS failing is a bug
        raise RuntimeError(f"HiGHS failed on a matrix-game LP: {result.message}")
    solution = np.asarray(result.x, dtype=np.float64)
    strategy = np.maximum(solution[:rows], 0.0)
    strategy /= strategy.sum()
    return strategy, float(solution[-1])


def solve_lp(payoff: ArrayLike) -> GameSolution:
    """Solve a zero-sum matrix game exactly (to LP tolerance) with two linear programs.

    The row player's LP is ``min t`` s.t. ``Aᵀx <= t·1``, ``1ᵀx = 1``, ``x >= 0``;
    the column player's LP is the same problem for ``-Aᵀ`` (``max w`` s.t.
    ``Ay >= w·1``).  Both are solved independently by HiGHS (dual simplex /
    IPM, feasibility tolerances 1e-10), so ``value - dual_value`` measures how
    well the minimax theorem is met numerically.

    Args:
        payoff: ``(m, n)`` real, finite matrix ``A`` with ``m, n >= 1``.

    Returns:
        A :class:`GameSolution` with read-only ``x`` ``(m,)`` and ``y`` ``(n,)``.

    Raises:
        TypeError: ``payoff`` is not a real numeric array.
        ValueError: ``payoff`` is not 2-D, is empty, or holds NaN/inf.

    Example:
        >>> sol = solve_lp([[1.0, -1.0], [-1.0, 1.0]])  # matching pennies
        >>> [round(float(v), 12) for v in sol.x], abs(round(sol.value, 12))
        ([0.5, 0.5], 0.0)

    References:
        J. von Neumann, "Zur Theorie der Gesellschaftsspiele", Math. Ann. 100 (1928);
        G. B. Dantzig, "A proof of the equivalence of the programming problem and the
        game problem" (1951) — the LP formulation used here.
    """
    matrix = as_float_array("payoff", payoff, ndim=2)
    x, value = _solve_side(matrix)
    y, neg_dual = _solve_side(-matrix.T)
    return GameSolution(x=readonly(x), y=readonly(y), value=value, dual_value=-neg_dual)


def best_response_values(payoff: ArrayLike, x: ArrayLike, y: ArrayLike) -> tuple[float, float]:
    """Return ``(max_j (xᵀA)_j, min_i (Ay)_i)``: the two best-response values.

    The first is what the column player gets by best-responding to ``x`` (an upper
    bound on the value), the second what the row player pays best-responding to
    ``y`` (a lower bound).  Shapes: ``payoff (m, n)``, ``x (m,)``, ``y (n,)``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, or ``x``/``y`` off the simplex (atol 1e-8).
    """
    matrix = as_float_array("payoff", payoff, ndim=2)
    rows, cols = matrix.shape
    xs = as_simplex_point("x", x, size=rows)
    ys = as_simplex_point("y", y, size=cols)
    return float(np.max(xs @ matrix)), float(np.min(matrix @ ys))


def duality_gap(payoff: ArrayLike, x: ArrayLike, y: ArrayLike) -> float:
    """Duality gap ``max_j (xᵀA)_j - min_i (Ay)_i`` of a strategy pair.

    It is ``>= 0`` for every pair of simplex points and ``0`` exactly at the
    equilibria; it is also NashConv (the sum of both players' exploitability).

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        x: ``(m,)`` point of the simplex (row player, minimiser).
        y: ``(n,)`` point of the simplex (column player, maximiser).

    Returns:
        The gap as a Python float.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, or ``x``/``y`` off the simplex (atol 1e-8).

    Example:
        >>> duality_gap([[1.0, -1.0], [-1.0, 1.0]], [1.0, 0.0], [0.5, 0.5])
        1.0
    """
    matrix = as_float_array("payoff", payoff, ndim=2)
    rows, cols = matrix.shape
    xs = as_simplex_point("x", x, size=rows)
    ys = as_simplex_point("y", y, size=cols)
    return _gap(matrix, xs, ys)
