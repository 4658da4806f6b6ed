"""Hand-made broken game solvers: the games.solver suite must reject each one.

Importable (``tests.games.mutants:uniform``) so the CLI tests can target them.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from reference._arrays import FloatArray
from reference.games import solve_lp


def uniform(payoff: Any) -> tuple[FloatArray, FloatArray]:
    """Mutant 1: ignores the game, plays uniformly."""
    m, n = np.shape(payoff)
    return np.full(m, 1.0 / m), np.full(n, 1.0 / n)


def sign_error(payoff: Any) -> tuple[FloatArray, FloatArray]:
    """Mutant 2: solves the game with the players' roles mixed up (``-A``)."""
    sol = solve_lp(-np.asarray(payoff, dtype=np.float64))
    return np.array(sol.x), np.array(sol.y)


def unnormalised(payoff: Any) -> tuple[FloatArray, FloatArray]:
    """Mutant 3: the classic LP trick ``u = x / v`` on ``A + shift`` without dividing back."""
    a = np.asarray(payoff, dtype=np.float64)
    shift = 1.0 - float(a.min())
    sol = solve_lp(a + shift)
    value = sol.value
    return np.array(sol.x) / value, np.array(sol.y) / value


def nan_on_invalid(payoff: Any) -> tuple[FloatArray, FloatArray]:
    """Bad-input mutant: accepts NaN payoffs and returns NaN strategies silently."""
    a = np.asarray(payoff, dtype=np.float64)
    if a.ndim != 2 or a.size == 0:
        raise ValueError("payoff: expected a non-empty 2-D array")
    if not np.all(np.isfinite(a)):
        m, n = a.shape
        return np.full(m, np.nan), np.full(n, np.nan)
    sol = solve_lp(a)
    return np.array(sol.x), np.array(sol.y)


def gap_index_error(payoff: Any, x: Any, y: Any) -> float:
    """Bad-input mutant of duality_gap: no validation, so wrong shapes surface as IndexError."""
    a = np.asarray(payoff, dtype=np.float64)
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    return float(max(xs[i] * a[i, 0] for i in range(a.shape[0])) - min(a[:, 0] * ys[0]))


def gap_hangs_on_nan(payoff: Any, x: Any, y: Any) -> float:
    """Bad-input mutant of duality_gap: loops forever (here: sleeps past the timeout) on NaN."""
    a = np.asarray(payoff, dtype=np.float64)
    if a.ndim != 2 or a.size == 0:
        raise ValueError("payoff: bad shape")
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    if xs.ndim != 1 or ys.ndim != 1 or xs.size != a.shape[0] or ys.size != a.shape[1]:
        raise ValueError("x, y: bad shape")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(xs)) and np.all(np.isfinite(ys))):
        time.sleep(3.0)
    return float(np.max(xs @ a) - np.min(a @ ys))
