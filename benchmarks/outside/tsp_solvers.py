"""networkx and elkai as TSP targets (``tsp.exact``, ``tsp.christofides``).

Conventions bridged: networkx returns a closed walk ``[v0, ..., v0]`` on a weighted complete
graph; elkai (LKH) returns ``[v0, ..., v0]`` as well.  Our suites take a permutation of
``range(n)`` (the closing edge implied) and, for exact solvers, the tour's length.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from benchmarks.outside._load import load
from reference._arrays import FloatArray, IntArray

__all__ = ["elkai_lkh", "networkx_christofides", "networkx_greedy", "tour_length"]


def tour_length(distances: FloatArray, tour: IntArray) -> float:
    """Length of the closed tour (the closing edge included)."""
    d = np.asarray(distances, dtype=np.float64)
    return float(sum(d[tour[i], tour[(i + 1) % len(tour)]] for i in range(len(tour))))


def _open(walk: list[int], n: int) -> IntArray:
    tour = list(walk[:-1]) if len(walk) == n + 1 and walk[0] == walk[-1] else list(walk)
    return np.asarray(tour, dtype=np.int64)


def _graph(distances: FloatArray) -> Any:
    nx = load("networkx")
    d = np.asarray(distances, dtype=np.float64)
    g = nx.Graph()
    n = d.shape[0]
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from((i, j, float(d[i, j])) for i in range(n) for j in range(i + 1, n))
    return g


def networkx_christofides(distances: FloatArray, /) -> IntArray:
    """``networkx.algorithms.approximation.christofides`` on the complete graph of ``D``."""
    approximation = load("networkx.algorithms.approximation")
    n = np.asarray(distances).shape[0]
    return _open(list(approximation.christofides(_graph(distances))), n)


def networkx_greedy(distances: FloatArray, /) -> IntArray:
    """``networkx.algorithms.approximation.greedy_tsp`` (nearest neighbour) from city 0."""
    approximation = load("networkx.algorithms.approximation")
    n = np.asarray(distances).shape[0]
    return _open(list(approximation.greedy_tsp(_graph(distances), source=0)), n)


def elkai_lkh(distances: FloatArray, /) -> tuple[float, IntArray]:
    """LKH through elkai (``DistanceMatrix(D).solve_tsp(runs=10)``), as an exact solver on small instances:
    ``(length of the returned tour, tour)``."""
    elkai = load("elkai")
    d = np.asarray(distances, dtype=np.float64)
    n = d.shape[0]
    tour = _open(list(elkai.DistanceMatrix(d.tolist()).solve_tsp(runs=10)), n)
    return tour_length(d, tour), tour
