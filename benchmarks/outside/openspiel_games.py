"""OpenSpiel (https://github.com/google-deepmind/open_spiel) as a ``games.solver`` target.

``open_spiel.python.algorithms.lp_solver.solve_zero_sum_matrix_game`` solves a two-player
matrix game whose row player maximises; our row player minimises ``xᵀAy``, so the game passed
is ``(-A, A)``.  The solver needs a cvxopt/ECOS backend (``pip install cvxopt ecos``).
"""

from __future__ import annotations

import numpy as np

from benchmarks.outside._load import load
from reference._arrays import FloatArray

__all__ = ["lp_solver"]


def lp_solver(payoff: FloatArray, /) -> tuple[FloatArray, FloatArray]:
    """The equilibrium from OpenSpiel's zero-sum LP solver."""
    pyspiel = load("pyspiel")
    lp = load("open_spiel.python.algorithms.lp_solver")
    a = np.asarray(payoff, dtype=np.float64)
    game = pyspiel.create_matrix_game((-a).tolist(), a.tolist())
    x, y, _, _ = lp.solve_zero_sum_matrix_game(game)
    return np.asarray(x, dtype=np.float64).ravel(), np.asarray(y, dtype=np.float64).ravel()
