"""quantecon's game-theory solvers (https://github.com/QuantEcon/QuantEcon.py) as
``games.solver`` targets.

Convention bridged as for nashpy: quantecon's players *maximise* their own payoff matrices
(player 0's indexed ``[own action, opponent action]``); our row player minimises ``xᵀAy``.  The
zero-sum game is ``NormalFormGame([Player(-A), Player(Aᵀ)])``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from benchmarks.outside._load import load
from reference._arrays import FloatArray

__all__ = ["lemke_howson", "support_enumeration", "vertex_enumeration"]


def _game(payoff: FloatArray) -> Any:
    gt = load("quantecon.game_theory")
    a = np.asarray(payoff, dtype=np.float64)
    return gt.NormalFormGame([gt.Player(-a), gt.Player(a.T.copy())])


def _pair(profile: Any) -> tuple[FloatArray, FloatArray]:
    x, y = profile
    return np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)


def lemke_howson(payoff: FloatArray, /) -> tuple[FloatArray, FloatArray]:
    """``quantecon.game_theory.lemke_howson(g)`` (initial label 0, lexicographic pivoting)."""
    return _pair(load("quantecon.game_theory").lemke_howson(_game(payoff)))


def support_enumeration(payoff: FloatArray, /) -> tuple[FloatArray, FloatArray]:
    """The first equilibrium of ``quantecon.game_theory.support_enumeration(g)`` (documented for
    non-degenerate games)."""
    return _pair(load("quantecon.game_theory").support_enumeration(_game(payoff))[0])


def vertex_enumeration(payoff: FloatArray, /) -> tuple[FloatArray, FloatArray]:
    """The first equilibrium of ``quantecon.game_theory.vertex_enumeration(g)``."""
    return _pair(load("quantecon.game_theory").vertex_enumeration(_game(payoff))[0])
