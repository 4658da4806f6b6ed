"""Counterfactual regret minimisation (CFR) and CFR+ on a sequence-form game.

Part of :mod:`reference.extensive` (conventions there: player 1, ``x``, minimises ``xᵀAy``).
Each player keeps one regret vector per information set.  In sequence form the
counterfactual values are read off the sequence losses ``ℓ = A y`` (player 1) or
``ℓ = -Aᵀ x`` (player 2, who maximises) by one bottom-up pass over the treeplex:
the value of infoset ``j`` under the behavioural strategy ``b_j`` is
``V_j = Σ_a b_j[a] (ℓ[(j, a)] + Σ_{j' below (j, a)} V_j')``; the instantaneous regret of
action ``a`` is ``V_j - (ℓ[(j, a)] + Σ_{j' below (j, a)} V_j')`` (a loss saved).

* :func:`cfr` (Zinkevich et al., 2007): simultaneous updates, regret matching on the
  cumulative regrets, uniform average of the realization plans.
* :func:`cfr_plus` (Tammelin et al., 2015): alternating updates, regret matching+ (the
  cumulative regrets clipped at zero every step), linearly weighted average (weight ``t``).

The averages converge to a Nash equilibrium; NashConv of the average is ``O(1/sqrt(T))``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reference._arrays import FloatArray, readonly, require_int
from reference._repr import summary_repr
from reference.extensive.plans import _nash_conv, _require_game, _to_plan
from reference.extensive.tree import SequenceFormGame, Treeplex

__all__ = ["CFRResult", "cfr", "cfr_plus"]


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class CFRResult:
    """Output of :func:`cfr` / :func:`cfr_plus`.

    Attributes:
        x: ``(n1,)`` average realization plan of player 1 (the minimiser).
        y: ``(n2,)`` average realization plan of player 2.
        nash_conv: NashConv of ``(x, y)``.
        iterations: ``T``.
    """

    x: FloatArray
    y: FloatArray
    nash_conv: float
    iterations: int


def _strategy(space: Treeplex, regrets: FloatArray) -> FloatArray:
    """Regret matching per infoset: ``b_j ∝ max(R_j, 0)``, uniform when that is zero."""
    b = np.ones(space.n_sequences)
    for s, k, _ in space.layout:
        positive = np.maximum(regrets[s : s + k], 0.0)
        total = float(positive.sum())
        b[s : s + k] = positive / total if total > 0.0 else 1.0 / k
    return b


def _regrets(space: Treeplex, b: FloatArray, loss: FloatArray) -> FloatArray:
    """Instantaneous counterfactual regrets of ``b`` against the sequence losses ``loss``."""
    below = np.zeros(space.n_sequences)  # Σ of the values of the infosets under each sequence
    regret = np.zeros(space.n_sequences)
    for s, k, p in reversed(space.layout):  # children before parents
        action_loss = loss[s : s + k] + below[s : s + k]
        value = float(b[s : s + k] @ action_loss)
        regret[s : s + k] = value - action_loss
        below[p] += value
    return regret


def _run(game: SequenceFormGame, iterations: int, plus: bool) -> CFRResult:
    a = np.asarray(game.payoff)
    xs, ys = game.x_space, game.y_space
    rx, ry = np.zeros(xs.n_sequences), np.zeros(ys.n_sequences)
    sum_x, sum_y = np.zeros(xs.n_sequences), np.zeros(ys.n_sequences)
    weights = 0.0
    for t in range(1, iterations + 1):
        bx = _strategy(xs, rx)
        by = _strategy(ys, ry)
        x_t = _to_plan(xs, bx)
        rx = rx + _regrets(xs, bx, a @ _to_plan(ys, by))
        if plus:  # alternation: player 2 answers player 1's new strategy
            rx = np.maximum(rx, 0.0)
            x_t = _to_plan(xs, _strategy(xs, rx))
        y_t = _to_plan(ys, by)
        ry = ry + _regrets(ys, by, -(a.T @ x_t))
        if plus:
            ry = np.maximum(ry, 0.0)
        weight = float(t) if plus else 1.0
        sum_x += weight * (x_t if plus else _to_plan(xs, bx))
        sum_y += weight * y_t
        weights += weight
    x, y = sum_x / weights, sum_y / weights
    return CFRResult(
        x=readonly(x), y=readonly(y), nash_conv=_nash_conv(game, x, y), iterations=iterations
    )


def cfr(game: SequenceFormGame, *, iterations: int = 1000) -> CFRResult:
    """Vanilla CFR: simultaneous regret matching, uniform averaging.

    Args:
        game: a :class:`SequenceFormGame`.
        iterations: ``T >= 1``.

    Returns:
        A :class:`CFRResult`: the average plans and their NashConv.

    Raises:
        TypeError: ``game`` is not a :class:`SequenceFormGame`; non-integer ``iterations``.
        ValueError: ``iterations < 1``.

    Example:
        >>> from reference.extensive import kuhn_poker
        >>> result = cfr(kuhn_poker(), iterations=200)
        >>> result.nash_conv < 0.05
        True

    References:
        M. Zinkevich, M. Johanson, M. Bowling, C. Piccione, "Regret minimization in games
        with incomplete information", NeurIPS 2007.
    """
    g = _require_game(game)
    steps = require_int("iterations", iterations, minimum=1)
    return _run(g, steps, plus=False)


def cfr_plus(game: SequenceFormGame, *, iterations: int = 1000) -> CFRResult:
    """CFR+: alternating updates, regret matching+, linear averaging (weight ``t``).

    Args:
        game: a :class:`SequenceFormGame`.
        iterations: ``T >= 1``.

    Returns:
        A :class:`CFRResult`: the average plans and their NashConv.

    Raises:
        TypeError: ``game`` is not a :class:`SequenceFormGame`; non-integer ``iterations``.
        ValueError: ``iterations < 1``.

    Example:
        >>> from reference.extensive import kuhn_poker
        >>> result = cfr_plus(kuhn_poker(), iterations=200)
        >>> result.nash_conv < 0.01
        True

    References:
        O. Tammelin, N. Burch, M. Johanson, M. Bowling, "Solving heads-up limit Texas
        hold'em", IJCAI 2015.
    """
    g = _require_game(game)
    steps = require_int("iterations", iterations, minimum=1)
    return _run(g, steps, plus=True)
