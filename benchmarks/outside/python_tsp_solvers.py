"""python-tsp (https://github.com/fillipe-gsm/python-tsp) as ``tsp.exact`` and
``tsp.christofides`` targets.

python-tsp's solvers take a distance matrix and return ``(permutation, distance)``; the exact
ones are ``tsp.exact`` targets ``D -> (length, tour)``, the heuristics are run on
``tsp.christofides`` (a 1.5-approximation claim they do not make: the suite tells whether they
happen to meet it).
"""

from __future__ import annotations

import numpy as np

from benchmarks.outside._load import load
from reference._arrays import FloatArray, IntArray

__all__ = ["brute_force", "dynamic_programming", "local_search", "simulated_annealing"]


def dynamic_programming(distances: FloatArray, /) -> tuple[float, IntArray]:
    """``python_tsp.exact.solve_tsp_dynamic_programming(D)`` -> ``(length, tour)``."""
    tour, length = load("python_tsp.exact").solve_tsp_dynamic_programming(np.asarray(distances))
    return float(length), np.asarray(tour, dtype=np.int64)


def brute_force(distances: FloatArray, /) -> tuple[float, IntArray]:
    """``python_tsp.exact.solve_tsp_brute_force(D)`` -> ``(length, tour)``."""
    tour, length = load("python_tsp.exact").solve_tsp_brute_force(np.asarray(distances))
    return float(length), np.asarray(tour, dtype=np.int64)


def local_search(distances: FloatArray, /) -> IntArray:
    """``python_tsp.heuristics.solve_tsp_local_search(D)`` (2-opt style perturbations from a
    random start; its own default seedless start is replaced by ``x0 = 0..n-1`` so runs repeat)."""
    n = distances.shape[0]
    tour, _ = load("python_tsp.heuristics").solve_tsp_local_search(
        np.asarray(distances), x0=list(range(n))
    )
    return np.asarray(tour, dtype=np.int64)


def simulated_annealing(distances: FloatArray, /) -> IntArray:
    """``python_tsp.heuristics.solve_tsp_simulated_annealing(D)`` from ``x0 = 0..n-1``."""
    n = distances.shape[0]
    tour, _ = load("python_tsp.heuristics").solve_tsp_simulated_annealing(
        np.asarray(distances), x0=list(range(n))
    )
    return np.asarray(tour, dtype=np.int64)
