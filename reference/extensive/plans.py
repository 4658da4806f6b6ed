"""Realization plans, best responses, NashConv and the sequence-form LP.

Part of :mod:`reference.extensive` (re-exported there): membership tests for the
realization-plan polytope ``E x = e, x >= 0``, behavioural <-> plan conversions, best-response
values by backward induction on the treeplex, NashConv, and the sequence-form LP oracle
(spec 19 §3.6).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import linprog

from reference._arrays import (
    FloatArray,
    as_float_array,
    describe,
    readonly,
)
from reference._repr import summary_repr
from reference.extensive.tree import PLAN_ATOL, SequenceFormGame, Treeplex


# ------------------------------------------------------------------------------ validation
def _require_game(game: object) -> SequenceFormGame:
    if not isinstance(game, SequenceFormGame):
        raise TypeError(f"game: expected a SequenceFormGame, got {describe(game)}")
    return game


def _require_space(space: object) -> Treeplex:
    if not isinstance(space, Treeplex):
        raise TypeError(f"space: expected a Treeplex, got {describe(space)}")
    return space


def _plan_residual(space: Treeplex, x: FloatArray) -> float:
    """``max |E x - e|`` without forming ``E``."""
    residual = abs(float(x[0]) - 1.0)
    if space.n_infosets:
        sums = np.add.reduceat(x[1:], space.start - 1)
        residual = max(residual, float(np.max(np.abs(sums - x[space.parent]))))
    return residual


def plan_violation(space: Treeplex, x: ArrayLike) -> float:
    """Largest violation of the realization-plan constraints: ``max(|Ex - e|_∞, -min x, 0)``.

    Args:
        space: a :class:`Treeplex`.
        x: ``(space.n_sequences,)`` vector.

    Returns:
        The violation (0 for a realization plan).

    Raises:
        TypeError: ``space`` is not a Treeplex, non-numeric ``x``.
        ValueError: wrong shape or non-finite ``x``.

    Example:
        >>> from reference.extensive import kuhn_poker
        >>> g = kuhn_poker()
        >>> plan_violation(g.x_space, behavioural_to_plan(g.x_space, uniform_behavioural(g.x_space)))
        0.0
    """
    sp_ = _require_space(space)
    vec = as_float_array("x", x, shape=(sp_.n_sequences,))
    return max(_plan_residual(sp_, vec), -float(np.min(vec)), 0.0)


def _require_plan(name: str, space: Treeplex, value: object) -> FloatArray:
    vec = as_float_array(name, value, shape=(space.n_sequences,))
    low = float(np.min(vec))
    if low < -PLAN_ATOL:
        raise ValueError(f"{name}: expected a realization plan (entries >= 0), got min {low!r}")
    residual = _plan_residual(space, vec)
    if residual > PLAN_ATOL:
        raise ValueError(
            f"{name}: expected a realization plan (E x = e within {PLAN_ATOL}), got residual "
            f"{residual!r}"
        )
    return np.maximum(vec, 0.0)


def _require_behavioural(name: str, space: Treeplex, value: object) -> FloatArray:
    vec = as_float_array(name, value, shape=(space.n_sequences,))
    if float(np.min(vec)) < -PLAN_ATOL:
        raise ValueError(f"{name}: expected behavioural probabilities >= 0, got {vec.min()!r}")
    sums = np.add.reduceat(vec[1:], space.start - 1) if space.n_infosets else np.zeros(0)
    if sums.size and float(np.max(np.abs(sums - 1.0))) > PLAN_ATOL:
        raise ValueError(
            f"{name}: expected each information set's probabilities to sum to 1, got sums "
            f"off by {float(np.max(np.abs(sums - 1.0)))!r}"
        )
    out = np.maximum(vec, 0.0)
    out[0] = 1.0
    return out


# ------------------------------------------------------------------------------ plans
def uniform_behavioural(space: Treeplex) -> FloatArray:
    """The uniform behavioural strategy as a vector over sequences (entry 0 is 1).

    Raises:
        TypeError: ``space`` is not a :class:`Treeplex`.
    """
    sp_ = _require_space(space)
    b = np.ones(sp_.n_sequences)
    for j in range(sp_.n_infosets):
        s, k = int(sp_.start[j]), int(sp_.size[j])
        b[s : s + k] = 1.0 / k
    return b


def _to_plan(space: Treeplex, b: FloatArray) -> FloatArray:
    bl = b.tolist()
    x = [1.0] * space.n_sequences
    for s, k, p in space.layout:  # top-down
        mass = x[p]
        for i in range(s, s + k):
            x[i] = mass * bl[i]
    return np.array(x)


def behavioural_to_plan(space: Treeplex, b: ArrayLike) -> FloatArray:
    """Realization plan of a behavioural strategy: ``x_(j,a) = x_{p_j}·b_j[a]``, ``x_∅ = 1``.

    Args:
        space: a :class:`Treeplex`.
        b: ``(n_sequences,)`` behavioural vector (each infoset's slice on its simplex).

    Returns:
        ``(n_sequences,)`` realization plan.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shape, non-finite, or slices off their simplices.
    """
    sp_ = _require_space(space)
    return _to_plan(sp_, _require_behavioural("b", sp_, b))


def _to_behavioural(space: Treeplex, x: FloatArray, fallback: FloatArray) -> FloatArray:
    b = fallback.copy()
    b[0] = 1.0
    for j in range(space.n_infosets):
        s, k = int(space.start[j]), int(space.size[j])
        mass = x[space.parent[j]]
        if mass > 0.0:
            local = np.maximum(x[s : s + k], 0.0)
            total = float(local.sum())
            if total > 0.0:
                b[s : s + k] = local / total
    return b


def plan_to_behavioural(space: Treeplex, x: ArrayLike) -> FloatArray:
    """Behavioural strategy ``b_j = x_j / x_{p_j}`` (uniform where ``x_{p_j} = 0``).

    Args:
        space: a :class:`Treeplex`.
        x: ``(n_sequences,)`` realization plan.

    Returns:
        ``(n_sequences,)`` behavioural vector.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shape, non-finite, or not a realization plan (atol 1e-8).
    """
    sp_ = _require_space(space)
    return _to_behavioural(sp_, _require_plan("x", sp_, x), uniform_behavioural(sp_))


# ------------------------------------------------------------------------------ best response
def _br_value(space: Treeplex, c: FloatArray, maximise: bool) -> float:
    acc = c.tolist()
    pick = max if maximise else min
    for s, k, p in reversed(space.layout):  # bottom-up
        acc[p] += pick(acc[s : s + k])
    return float(acc[0])


def best_response_value(space: Treeplex, c: ArrayLike, *, maximise: bool) -> float:
    """``min_{x∈X} cᵀx`` (or ``max``) by the bottom-up recursion ``V_j = min_a(c_(j,a) +
    Σ_{k child of (j,a)} V_k)`` (spec 19 §3.6).

    Args:
        space: a :class:`Treeplex`.
        c: ``(n_sequences,)`` linear cost.
        maximise: maximise instead of minimise.

    Returns:
        The optimal value.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shape or non-finite ``c``.
    """
    sp_ = _require_space(space)
    if not isinstance(maximise, bool):
        raise TypeError(f"maximise: expected a bool, got {describe(maximise)}")
    return _br_value(sp_, as_float_array("c", c, shape=(sp_.n_sequences,)), maximise)


def _nash_conv(game: SequenceFormGame, x: FloatArray, y: FloatArray) -> float:
    upper = _br_value(game.y_space, game.payoff.T @ x, True)  # g(x) = max_y xᵀAy
    lower = _br_value(game.x_space, game.payoff @ y, False)  # h(y) = min_x xᵀAy
    return upper - lower


def nash_conv(game: SequenceFormGame, x: ArrayLike, y: ArrayLike) -> float:
    """NashConv ``g(x) - h(y)`` of realization plans, by best response on the tree.

    ``g(x) = max_{y∈Y} xᵀAy`` and ``h(y) = min_{x∈X} xᵀAy`` are computed by the bottom-up
    recursion (spec 19 §3.6); NashConv is ``>= 0`` and ``0`` exactly at equilibria.  It
    equals the sum of both players' exploitabilities.

    Args:
        game: a :class:`SequenceFormGame`.
        x: ``(n1,)`` realization plan of player 1.
        y: ``(n2,)`` realization plan of player 2.

    Returns:
        NashConv as a float.

    Raises:
        TypeError: ``game`` is not a SequenceFormGame; non-numeric plans.
        ValueError: wrong shapes, non-finite, or not realization plans (atol 1e-8).

    Example:
        >>> from reference.extensive import kuhn_poker
        >>> g = kuhn_poker()
        >>> sol = solve_lp(g)
        >>> abs(nash_conv(g, sol.x, sol.y)) < 1e-8
        True
    """
    g = _require_game(game)
    xs = _require_plan("x", g.x_space, x)
    ys = _require_plan("y", g.y_space, y)
    return _nash_conv(g, xs, ys)


# ------------------------------------------------------------------------------ LP
@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class EFGSolution:
    """An equilibrium of a sequence-form game computed by linear programming.

    Attributes:
        x: ``(n1,)`` read-only realization plan of player 1.
        y: ``(n2,)`` read-only realization plan of player 2.
        value: the game value from player 1's view (``-min_x max_y xᵀAy``), from x's LP.
        dual_value: the same value from player 2's LP (equal to ``value`` by LP duality).
    """

    x: FloatArray
    y: FloatArray
    value: float
    dual_value: float


def _solve_side(a: FloatArray, mine: Treeplex, other: Treeplex) -> tuple[FloatArray, float]:
    """``min_x max_y xᵀAy`` as ``min fᵀv`` s.t. ``Aᵀx - Fᵀv <= 0, Ex = e, x >= 0``."""
    e_mat, e_rhs = mine.constraints()
    f_mat, f_rhs = other.constraints()
    n, k = mine.n_sequences, f_mat.shape[0]
    cost = np.concatenate([np.zeros(n), f_rhs])
    a_ub = np.hstack([a.T, -f_mat.T])
    a_eq = np.hstack([e_mat, np.zeros((e_mat.shape[0], k))])
    result = linprog(
        cost,
        A_ub=a_ub,
        b_ub=np.zeros(a.shape[1]),
        A_eq=a_eq,
        b_eq=e_rhs,
        bounds=[(0.0, None)] * n + [(None, None)] * k,
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    if result.status != 0 or result.x is None or result.fun is None:  # pragma: no cover
        raise RuntimeError(f"HiGHS failed on a sequence-form LP: {result.message}")
    x = np.maximum(np.asarray(result.x[:n], dtype=np.float64), 0.0)
    return x, float(result.fun)


def solve_lp(game: SequenceFormGame) -> EFGSolution:
    """Solve a sequence-form game exactly (to LP tolerance) with two linear programs.

    Player 1: ``min fᵀv`` s.t. ``Aᵀx - Fᵀv <= 0``, ``Ex = e``, ``x >= 0`` (``v`` free), whose
    value is ``v* = min_x max_y xᵀAy`` (spec 19 §4); player 2: the same LP for ``-Aᵀ`` with the
    treeplexes swapped.  Solved independently by HiGHS (tolerances 1e-10).

    Args:
        game: a :class:`SequenceFormGame`.

    Returns:
        An :class:`EFGSolution` with ``value = -v*`` (player 1's view).

    Raises:
        TypeError: ``game`` is not a SequenceFormGame.

    Example:
        >>> from reference.extensive import kuhn_poker
        >>> round(solve_lp(kuhn_poker()).value * 18, 9)
        -1.0

    References:
        Koller, Megiddo, von Stengel (1996); B. von Stengel, "Efficient computation of
        behavior strategies", Games and Economic Behavior 14 (1996).
    """
    g = _require_game(game)
    a = np.asarray(g.payoff)
    x, v_star = _solve_side(a, g.x_space, g.y_space)
    y, w = _solve_side(-a.T, g.y_space, g.x_space)
    return EFGSolution(x=readonly(x), y=readonly(y), value=-v_star, dual_value=w)
