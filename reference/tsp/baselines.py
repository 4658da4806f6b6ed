"""Baseline decoders of spec 10 §3.5: greedy edge merge (B1), 2-opt (B2), Christofides (B4,
via networkx) and nearest neighbour (B5).

Part of :mod:`reference.tsp`.  B3 (heatmap-guided MCTS) lives in :mod:`reference.tsp.mcts`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import FloatArray, IntArray, readonly, require_int, require_positive
from reference._repr import summary_repr
from reference.tsp.base import _canonical, _length, as_distances, as_heatmap, as_tour

__all__ = [
    "TWO_OPT_MAX_ITERATIONS",
    "TWO_OPT_MIN_IMPROVEMENT",
    "TwoOptResult",
    "christofides",
    "christofides_networkx",
    "greedy_merge",
    "greedy_merge_order",
    "merge_in_order",
    "nearest_neighbour",
    "two_opt",
    "two_opt_core",
    "two_opt_deltas",
]

#: DIFUSCO's default number of 2-opt moves (``--two_opt_iterations 1000``).
TWO_OPT_MAX_ITERATIONS = 1000
#: DIFUSCO's improvement threshold: a move is taken only if ``Δ < -1e-6``.
TWO_OPT_MIN_IMPROVEMENT = 1e-6


# --------------------------------------------------------------------- B1 greedy edge merge
def greedy_merge_order(w: FloatArray, heat: FloatArray) -> IntArray:
    """Flat indices ``a*n + b`` of the ordered pairs in decreasing score ``S_ab / w_ab``.

    Internal helper shared with the torch fast path.  ``S = X + Xᵀ``; ``w_ab = 0`` with
    ``S_ab > 0`` scores ``+inf`` and ``0/0`` scores 0; the diagonal is dropped.  Stable sort
    (``np.argsort(-score.flatten(), kind="stable")``), as spec 10 §3.5 B1 step 2.
    """
    n = w.shape[0]
    s = heat + heat.T
    with np.errstate(divide="ignore", invalid="ignore"):
        score = np.where(s > 0.0, s / w, 0.0)
    order = np.argsort(-score.ravel(), kind="stable")
    off_diagonal = (order // n) != (order % n)
    out: IntArray = order[off_diagonal].astype(np.int64)
    return out


def merge_in_order(n: int, order: IntArray) -> IntArray:
    """Join path fragments along ``order`` (flat pair indices) and close the Hamiltonian path.

    Internal helper shared with the torch fast path: a pair ``(a, b)`` is taken iff ``a`` and
    ``b`` are endpoints (degree < 2) of different fragments (union-find); stops after
    ``n - 1`` joins, then closes the path.  Returns the tour in canonical form.
    """
    parent = list(range(n))
    degree = [0] * n
    nbrs: list[list[int]] = [[] for _ in range(n)]

    def find(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    joined = 0
    for flat in order.tolist():
        a, b = divmod(int(flat), n)
        if degree[a] >= 2 or degree[b] >= 2:
            continue
        ra, rb = find(a), find(b)
        if ra == rb:
            continue
        parent[ra] = rb
        degree[a] += 1
        degree[b] += 1
        nbrs[a].append(b)
        nbrs[b].append(a)
        joined += 1
        if joined == n - 1:
            break
    # walk the Hamiltonian path from one endpoint
    start = next(v for v in range(n) if degree[v] < 2)
    path = [start]
    prev, cur = -1, start
    while len(path) < n:
        nxt = next(u for u in nbrs[cur] if u != prev)
        path.append(nxt)
        prev, cur = cur, nxt
    return _canonical(np.array(path, dtype=np.int64))


def greedy_merge(D: ArrayLike, heatmap: ArrayLike) -> IntArray:
    """B1: greedy edge insertion guided by the heatmap (DIFUSCO/DIMES "greedy" decoding).

    Scores ``score_ab = S_ab / w_ab`` with ``S = X + Xᵀ``; scan the ordered pairs by
    decreasing score and add ``ab`` whenever ``a`` and ``b`` are endpoints of different path
    fragments; close the final Hamiltonian path.  Every pair is eventually scanned, so it
    always finishes.  No approximation guarantee.

    Complexity: ``O(n² log n)`` for the sort plus an ``O(n² α(n))`` scan.

    Args:
        D: ``(n, n)`` symmetric non-negative distances (metric not required).
        heatmap: ``(n, n)`` symmetric heatmap in ``[0, 1]``.

    Returns:
        The tour, canonical form.

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid distances or heatmap.

    Example:
        >>> from reference.tsp.base import distance_matrix, tour_indicator
        >>> D = distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1]])
        >>> greedy_merge(D, tour_indicator([0, 2, 1, 3])).tolist()
        [0, 2, 1, 3]

    References:
        Z. Sun, Y. Yang, "DIFUSCO: Graph-based Diffusion Solvers for Combinatorial
        Optimization", NeurIPS 2023, code ``difusco/utils/tsp_utils.py`` (``numpy_merge``);
        spec 10 §3.5 B1.  Variant: ties in the score keep row-major order (stable sort); a
        zero heatmap therefore merges in index order, not by distance.
    """
    w = as_distances("D", D, metric=False)
    heat = as_heatmap("heatmap", heatmap, w.shape[0])
    return merge_in_order(w.shape[0], greedy_merge_order(w, heat))


# ------------------------------------------------------------------------------ B2 2-opt
@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class TwoOptResult:
    """Outcome of :func:`two_opt`.

    Attributes:
        tour: the improved tour (read-only; ``tour[0]`` is the input's first city).
        length: its cost.
        iterations: number of 2-opt moves applied.
        converged: True when no move with ``Δ < -min_improvement`` is left.
        best_delta: the most negative ``Δ`` at the last evaluation (the stopping quantity).
    """

    tour: IntArray
    length: float
    iterations: int
    converged: bool
    best_delta: float


def two_opt_deltas(w: FloatArray, tour: IntArray) -> FloatArray:
    """``Δ_ij = w(t_i,t_j) + w(t_{i+1},t_{j+1}) - w(t_i,t_{i+1}) - w(t_j,t_{j+1})``, ``j >= i+2``.

    Internal helper (shared operation order with the torch fast path): an ``(n, n)`` matrix,
    zero outside ``j >= i + 2``.
    """
    t = tour
    t1 = np.roll(t, -1)
    delta = w[t[:, None], t[None, :]] + w[t1[:, None], t1[None, :]]
    delta = delta - w[t, t1][:, None]
    delta = delta - w[t, t1][None, :]
    out: FloatArray = np.triu(delta, 2)
    return out


def two_opt(
    D: ArrayLike,
    tour: ArrayLike,
    *,
    max_iter: int = TWO_OPT_MAX_ITERATIONS,
    min_improvement: float = TWO_OPT_MIN_IMPROVEMENT,
) -> TwoOptResult:
    """B2: best-improvement 2-opt (DIFUSCO ``batched_two_opt_torch``, float64 NumPy version).

    Repeat: compute ``Δ_ij`` for all ``0 <= i < j <= n-1`` with ``j >= i + 2`` (others 0),
    take the minimum (first in row-major order); if ``Δ < -min_improvement`` reverse
    ``t[i+1 .. j]``, else stop.  Never lengthens the tour; stops after ``max_iter``.

    Complexity: ``O(n²)`` per move.

    Args:
        D: ``(n, n)`` symmetric non-negative distances (metric not required).
        tour: initial permutation of ``range(n)``.
        max_iter: cap on the number of moves (DIFUSCO default 1000), ``>= 0``.
        min_improvement: a move must shorten the tour by more than this (DIFUSCO: 1e-6), ``>= 0``.
            Absolute, in distance units: ``D -> cD`` keeps the tours only when no move gains
            between ``min_improvement/c`` and ``min_improvement`` (0 makes 2-opt exactly
            scale-covariant; the default keeps DIFUSCO's behaviour).

    Returns:
        A :class:`TwoOptResult` (``converged=False`` when the cap stopped it).

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid distances or tour, negative ``max_iter`` or ``min_improvement``.

    Example:
        >>> from reference.tsp.base import distance_matrix
        >>> D = distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1]])
        >>> result = two_opt(D, [0, 1, 2, 3])
        >>> result.length, result.converged
        (4.0, True)

    References:
        G. A. Croes, "A method for solving traveling-salesman problems", Oper. Res. 6, 1958;
        DIFUSCO ``batched_two_opt_torch`` (spec 10 §3.5 B2).
    """
    w = as_distances("D", D, metric=False)
    t = as_tour("tour", tour, w.shape[0]).copy()
    cap = require_int("max_iter", max_iter, minimum=0)
    eps = require_positive("min_improvement", min_improvement, allow_zero=True)
    return two_opt_core(w, t, max_iter=cap, min_improvement=eps)


def two_opt_core(
    w: FloatArray, tour: IntArray, *, max_iter: int, min_improvement: float
) -> TwoOptResult:
    """Internal 2-opt loop on validated input (``tour`` is modified in place)."""
    t = tour
    cap, eps = max_iter, min_improvement
    n = t.shape[0]
    iterations = 0
    best = 0.0
    converged = False
    while True:
        delta = two_opt_deltas(w, t)
        flat = int(np.argmin(delta))
        best = float(delta.flat[flat])
        if best >= -eps:
            converged = True
            break
        if iterations >= cap:
            break
        i, j = divmod(flat, n)
        t[i + 1 : j + 1] = t[i + 1 : j + 1][::-1].copy()
        iterations += 1
    return TwoOptResult(
        tour=readonly(t),
        length=_length(w, t),
        iterations=iterations,
        converged=converged,
        best_delta=best,
    )


# --------------------------------------------------------------------- B4, B5 heatmap-free
def _euler_tour(n: int, edges: list[tuple[int, int]]) -> list[int]:
    """Hierholzer's Euler circuit of a connected even multigraph, from vertex 0."""
    adjacency: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for e, (a, b) in enumerate(edges):
        adjacency[a].append((b, e))
        adjacency[b].append((a, e))
    used = [False] * len(edges)
    stack, circuit = [0], []
    while stack:
        v = stack[-1]
        while adjacency[v] and used[adjacency[v][-1][1]]:
            adjacency[v].pop()
        if adjacency[v]:
            u, e = adjacency[v].pop()
            used[e] = True
            stack.append(u)
        else:
            circuit.append(stack.pop())
    return circuit[::-1]


def christofides(D: ArrayLike) -> IntArray:
    """Christofides' 1.5-approximation: MST, matching on its odd vertices, Euler, shortcut.

    1. ``T``: a minimum spanning tree of the complete graph (scipy's ``minimum_spanning_tree``).
    2. ``O``: the vertices of odd degree in ``T`` (an even number of them).
    3. ``M``: a minimum-weight perfect matching on ``O``
       (:func:`reference.tsp.matching.min_weight_perfect_matching`).
    4. An Euler circuit of the multigraph ``T ⊎ M`` (every degree even), shortcut to its
       first visits.

    Guarantee (metric ``D``): ``w(T) <= OPT`` and ``w(M) <= OPT / 2``, and shortcutting does
    not lengthen a walk, so the tour has length ``<= 1.5 OPT``.  Complexity ``O(n²)`` for the
    tree plus the matching's cost on ``|O| <= n`` vertices.

    Args:
        D: ``(n, n)`` metric distances, ``n >= 3``.

    Returns:
        The tour, canonical form.

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid or non-metric distances.

    Example:
        >>> from reference.tsp.base import distance_matrix
        >>> christofides(distance_matrix([[0, 0], [2, 0], [2, 1], [0, 1]])).tolist()
        [0, 1, 2, 3]

    References:
        N. Christofides, "Worst-case analysis of a new heuristic for the travelling salesman
        problem", CMU report 388, 1976.
    """
    from scipy.sparse.csgraph import minimum_spanning_tree

    from reference.tsp.matching import min_weight_perfect_matching

    w = as_distances("D", D)
    n = w.shape[0]
    # scipy drops zero entries as "no edge": shift the weights (every spanning tree has n - 1
    # edges, so the minimiser is unchanged)
    tree = minimum_spanning_tree(np.triu(w + 1.0, 1)).tocoo()
    edges = [(int(a), int(b)) for a, b in zip(tree.row, tree.col, strict=True)]
    degree = np.bincount(np.array(edges, dtype=np.int64).ravel(), minlength=n)
    odd = np.flatnonzero(degree % 2 == 1)
    pairs = min_weight_perfect_matching(w[np.ix_(odd, odd)])
    edges += [(int(odd[a]), int(odd[b])) for a, b in pairs]
    tour = list(dict.fromkeys(_euler_tour(n, edges)))
    return _canonical(np.array(tour, dtype=np.int64))


def christofides_networkx(D: ArrayLike) -> IntArray:
    """B4: Christofides' algorithm as implemented by networkx (an independent 1.5-approximation).

    Needs the optional dependency ``networkx`` (installed by the ``dev`` extra); imported here,
    so :mod:`reference.tsp` imports without it.  Equals the ``τ = +∞`` candidate of the sweep
    (``repair(∅)``) up to tie-breaking.

    Complexity: ``O(n³)`` (networkx's blossom matching on the odd-degree vertices of the
    minimum spanning tree dominates), plus ``O(n²)`` Python work to build the complete graph.

    Args:
        D: ``(n, n)`` metric distances.

    Returns:
        The tour, canonical form.

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid or non-metric distances.
        ModuleNotFoundError: networkx is not installed.

    References:
        N. Christofides, "Worst-case analysis of a new heuristic for the travelling salesman
        problem", CMU report 388, 1976; ``networkx.algorithms.approximation.christofides``.
    """
    w = as_distances("D", D)
    import networkx as nx
    from networkx.algorithms.approximation import christofides

    n = w.shape[0]
    graph: nx.Graph[int] = nx.Graph()
    for i in range(n):
        for j in range(i + 1, n):
            graph.add_edge(i, j, weight=float(w[i, j]))
    cycle = christofides(graph, weight="weight")
    return _canonical(np.array(cycle[:-1], dtype=np.int64))


def nearest_neighbour(D: ArrayLike) -> IntArray:
    """B5: nearest-neighbour tour from city 0 (ties: smallest index). ``O(n²)``.

    Args:
        D: ``(n, n)`` symmetric non-negative distances.

    Returns:
        The tour, canonical form.

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid distances.

    Example:
        >>> from reference.tsp.base import distance_matrix
        >>> nearest_neighbour(distance_matrix([[0, 0], [3, 0], [1, 0], [2, 0]])).tolist()
        [0, 1, 3, 2]
    """
    w = as_distances("D", D, metric=False)
    n = w.shape[0]
    visited = np.zeros(n, dtype=bool)
    path = [0]
    visited[0] = True
    for _ in range(n - 1):
        row = np.where(visited, np.inf, w[path[-1]])
        nxt = int(np.argmin(row))
        path.append(nxt)
        visited[nxt] = True
    return _canonical(np.array(path, dtype=np.int64))
