"""Hand-made broken sequence-form implementations for the extensive.* suites."""

from __future__ import annotations

from typing import Any

import numpy as np

from reference import extensive as efg
from reference._arrays import FloatArray
from reference.games import project_simplex


# ------------------------------------------------------------------------------ nash_conv
def _br(space: efg.Treeplex, c: FloatArray, maximise: bool, *, children: bool = True) -> float:
    acc = np.array(c, dtype=np.float64)
    pick = np.max if maximise else np.min
    total = float(acc[0])
    for s, k, p in reversed(space.layout):
        value = float(pick(acc[s : s + k]))
        if children:
            acc[p] += value
        else:
            total += value
    return float(acc[0]) if children else total


def only_player_2(game: efg.SequenceFormGame, x: Any, y: Any) -> float:
    """Mutant: only player 2's exploitability gain ``g(x) - xᵀAy``."""
    a = np.asarray(game.payoff)
    return _br(game.y_space, a.T @ x, True) - float(x @ a @ y)


def local_best_response(game: efg.SequenceFormGame, x: Any, y: Any) -> float:
    """Mutant: best responses ignore the values of child information sets."""
    a = np.asarray(game.payoff)
    return _br(game.y_space, a.T @ x, True, children=False) - _br(
        game.x_space, a @ y, False, children=False
    )


def swapped(game: efg.SequenceFormGame, x: Any, y: Any) -> float:
    """Mutant: ``h(y) - g(x)`` (min and max swapped)."""
    return -efg.nash_conv(game, x, y)


def offset(game: efg.SequenceFormGame, x: Any, y: Any) -> float:
    """Mutant: a constant 1e-3 added (never 0 at equilibrium)."""
    return efg.nash_conv(game, x, y) + 1e-3


# ------------------------------------------------------------------------------ solver
def uniform_solver(game: efg.SequenceFormGame) -> tuple[FloatArray, FloatArray]:
    """Mutant: plays the uniform behavioural strategies."""
    return (
        efg.behavioural_to_plan(game.x_space, efg.uniform_behavioural(game.x_space)),
        efg.behavioural_to_plan(game.y_space, efg.uniform_behavioural(game.y_space)),
    )


def behavioural_solver(game: efg.SequenceFormGame) -> tuple[FloatArray, FloatArray]:
    """Mutant: returns behavioural strategies instead of realization plans."""
    sol = efg.solve_lp(game)
    return (
        efg.plan_to_behavioural(game.x_space, sol.x),
        efg.plan_to_behavioural(game.y_space, sol.y),
    )


def sign_error_solver(game: efg.SequenceFormGame) -> tuple[FloatArray, FloatArray]:
    """Mutant: solves the game with the payoff sign flipped (player 1 maximises xᵀAy)."""
    flipped = efg.SequenceFormGame(
        name="flipped",
        payoff=-np.asarray(game.payoff),
        x_space=game.x_space,
        y_space=game.y_space,
        n_terminals=game.n_terminals,
    )
    sol = efg.solve_lp(flipped)
    return np.array(sol.x), np.array(sol.y)


# ------------------------------------------------------------------------------ prox
def _prox(
    space: efg.Treeplex,
    c: FloatArray,
    anchor: FloatArray,
    kappa: float,
    *,
    use_kappa: bool = True,
    children: bool = True,
    use_anchor: bool = True,
) -> FloatArray:
    acc = np.array(c, dtype=np.float64)
    b = np.array(anchor, dtype=np.float64)
    kap = kappa if use_kappa else 0.0
    for s, k, p in reversed(space.layout):
        hat = anchor[s : s + k] if use_anchor else np.zeros(k)
        local = project_simplex((hat - acc[s : s + k]) / (1.0 + kap))
        b[s : s + k] = local
        value = float(acc[s : s + k] @ local) + 0.5 * float((local - hat) @ (local - hat))
        if children:
            acc[p] += value + 0.5 * kap * float(local @ local)
    return efg.behavioural_to_plan(space, b)


def prox_ignores_kappa(space: Any, c: Any, anchor: Any, kappa: float = 0.0) -> FloatArray:
    """Mutant: the κ regularisation is dropped."""
    return _prox(space, c, anchor, kappa, use_kappa=False)


def prox_no_children(space: Any, c: Any, anchor: Any, kappa: float = 0.0) -> FloatArray:
    """Mutant: child information-set values are not propagated to the parent costs."""
    return _prox(space, c, anchor, kappa, children=False)


def prox_forgets_anchor(space: Any, c: Any, anchor: Any, kappa: float = 0.0) -> FloatArray:
    """Mutant: the local step projects ``-ĉ`` instead of ``b̂ - ĉ``."""
    return _prox(space, c, anchor, kappa, use_anchor=False)


def prox_behavioural(space: Any, c: Any, anchor: Any, kappa: float = 0.0) -> FloatArray:
    """Mutant: returns the behavioural vector instead of the realization plan."""
    _, b = efg.dilated_prox(space, c, anchor, kappa=kappa)
    return b
