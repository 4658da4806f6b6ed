"""Helpers shared by the hard-input rows of the matrix-game families (``games``,
``perturbation``) and the extensive-form family: a duality gap written again for the checks,
the ``tol`` a call was given, and random matrix games of awkward sizes."""

from __future__ import annotations

from typing import Any

import numpy as np

from properties._records import Args, StopRule

__all__ = ["gap_stop_rule", "matrix_game_gap", "shapes_game", "tol_of", "uniform_game"]

FloatArray = np.ndarray[Any, np.dtype[np.float64]]


def matrix_game_gap(payoff: object, x: object, y: object) -> float:
    """Duality gap ``max_j (xᵀA)_j - min_i (Ay)_i``, written again for the checks.

    Example:
        >>> matrix_game_gap([[0.0, 1.0], [1.0, 0.0]], [0.5, 0.5], [0.5, 0.5])
        0.0
    """
    a = np.asarray(payoff, dtype=np.float64)
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    column_values = [float(np.dot(xs, a[:, j])) for j in range(a.shape[1])]
    row_values = [float(np.dot(a[i, :], ys)) for i in range(a.shape[0])]
    return max(column_values) - min(row_values)


def tol_of(args: Args, default: float) -> float | None:
    value = args[1].get("tol", default)
    return None if value is None else float(value)


def gap_stop_rule(default_tol: float) -> StopRule:
    """``converged`` iff the recomputed gap of ``(x, y)`` is at most ``tol`` (absolute)."""

    def rule(args: Args, result: object) -> tuple[bool, float, float] | None:
        tol = tol_of(args, default_tol)
        if tol is None:
            return None
        gap = matrix_game_gap(args[0][0], getattr(result, "x"), getattr(result, "y"))  # noqa: B009
        return bool(getattr(result, "converged")), gap, tol  # noqa: B009

    return rule


def uniform_game(rng: np.random.Generator, m: int, n: int, scale: float = 1.0) -> FloatArray:
    return scale * rng.uniform(-1.0, 1.0, size=(m, n))


def shapes_game(rng: np.random.Generator) -> FloatArray:
    m, n = [(1, 1), (1, 7), (7, 1), (2, 2), (3, 3), (2, 40), (40, 2)][int(rng.integers(7))]
    return uniform_game(rng, m, n)
