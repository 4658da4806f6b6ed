"""Adapters that put outside implementations behind the library's call shapes, for
``verifiedref prove --with`` (docs/guides/theorem_checks.md, "On your implementation").

* :func:`nashpy_solve_lp` — nashpy's linear program for zero-sum games (``nashpy`` installed);
* :func:`networkx_christofides` — networkx's Christofides as a TSP "decoder" that ignores the
  heatmap (``networkx`` installed): it meets the 1.5·OPT bound but not ``OPT + 2η``.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from reference._arrays import FloatArray, IntArray
from reference.games import GameSolution

__all__ = ["nashpy_solve_lp", "networkx_christofides"]


def nashpy_solve_lp(payoff: Any) -> GameSolution:
    """``solve_lp``'s shape from ``nashpy.Game(-A).linear_program()`` (nashpy's row player
    maximises, ours minimises ``xᵀAy``)."""
    nashpy: Any = importlib.import_module("nashpy")  # optional, untyped: imported by name
    a = np.asarray(payoff, dtype=np.float64)
    x, y = nashpy.Game(-a).linear_program()
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    return GameSolution(x=x, y=y, value=float(np.max(x @ a)), dual_value=float(np.min(a @ y)))


def networkx_christofides(D: Any, heatmap: Any, *, with_two_opt: bool = False) -> IntArray:
    """``sweep_decode``'s shape from ``networkx.algorithms.approximation.christofides`` on the
    complete graph of ``D`` (the heatmap and ``with_two_opt`` are ignored)."""
    import networkx as nx

    del heatmap, with_two_opt
    w: FloatArray = np.asarray(D, dtype=np.float64)
    n = w.shape[0]
    graph: Any = nx.Graph()
    graph.add_weighted_edges_from((i, j, float(w[i, j])) for i in range(n) for j in range(i + 1, n))
    cycle = nx.algorithms.approximation.christofides(graph, weight="weight")
    return np.array(cycle[:-1], dtype=np.int64)
