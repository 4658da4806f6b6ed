"""nashpy (https://github.com/drvinceknight/Nashpy) as a ``games.solver`` target.

Convention bridged: in nashpy the row player *maximises* its payoff matrix; in our suites the
row player minimises ``xᵀAy``.  A zero-sum ``nashpy.Game(-A)`` (column payoffs ``A``) is our
game.  Each function returns the first equilibrium the method yields.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from benchmarks.outside._load import load
from reference._arrays import FloatArray

__all__ = ["lemke_howson", "linear_program", "support_enumeration", "vertex_enumeration"]


def _game(payoff: FloatArray) -> Any:
    return load("nashpy").Game(-np.asarray(payoff, dtype=np.float64))


def _pair(sigma: Any) -> tuple[FloatArray, FloatArray]:
    x, y = sigma
    return np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)


def support_enumeration(payoff: FloatArray, /) -> tuple[FloatArray, FloatArray]:
    """First equilibrium from ``Game.support_enumeration()`` (documented for non-degenerate games)."""
    return _pair(next(iter(_game(payoff).support_enumeration())))


def vertex_enumeration(payoff: FloatArray, /) -> tuple[FloatArray, FloatArray]:
    """First equilibrium from ``Game.vertex_enumeration()`` (documented for non-degenerate games)."""
    return _pair(next(iter(_game(payoff).vertex_enumeration())))


def lemke_howson(payoff: FloatArray, /) -> tuple[FloatArray, FloatArray]:
    """``Game.lemke_howson(initial_dropped_label=0)`` (documented for non-degenerate games)."""
    return _pair(_game(payoff).lemke_howson(initial_dropped_label=0))


def linear_program(payoff: FloatArray, /) -> tuple[FloatArray, FloatArray]:
    """``Game.linear_program()``: nashpy's LP for zero-sum games."""
    return _pair(_game(payoff).linear_program())
