"""The repair step and the threshold decoders with the ``ALG <= OPT + 2η`` guarantee.

Part of :mod:`reference.tsp`.  This is the *reference*: short, plain loops written to be read
beside spec 10 §3 (``shared/papers/10_tsp_heatmap_tours.md``).  The same functions, tuned for
speed (lazy Kruskal order, nested repairs shared across thresholds, cached matchings, a blossom
matching), live in :mod:`reference.tsp.fast` with the same names and signatures and return the
same tours (``tests/tsp/test_fast_vs_reference.py``).

**Provenance:** the paper's pseudo-code could not be read.  Everything here is the
(reconstruction) of spec 10 §3-§4: an algorithm family built from thresholding, a spanning
connection, a parity matching and shortcutting, which provably meets the abstract's headline
guarantee ``ALG <= OPT + 2η`` (proof in the spec, §4, checked in :mod:`proofs_numeric.tsp`).

Tie rules (shared with the fast path, they decide which tour is returned):

* Kruskal order: pairs ``i < j`` sorted by ``(w_ij, i, j)``.
* Euler circuit: Hierholzer from vertex 0, always leaving a vertex by the unused edge to its
  smallest neighbour.
* Sweep: the cheapest candidate, ties to the first (largest ``τ``); sampling: the earliest draw.

Notation map: ``w`` = ``D``, ``X`` = ``heatmap``, ``H_τ = {ij : X_ij >= τ}``, ``F`` = connecting
edges, ``O`` = odd-degree vertices of ``H ⊎ F``, ``M`` = minimum-weight perfect matching on ``O``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from reference._arrays import (
    FloatArray,
    IntArray,
    as_float_array,
    describe,
    readonly,
    require_generator,
    require_int,
    require_probability,
)
from reference._repr import summary_repr
from reference.tsp.base import _length, as_distances, as_heatmap
from reference.tsp.baselines import TWO_OPT_MAX_ITERATIONS, TWO_OPT_MIN_IMPROVEMENT, two_opt_core
from reference.tsp.matching import min_weight_perfect_matching

__all__ = [
    "RepairResult",
    "SweepResult",
    "expected_threshold_cost",
    "repair",
    "repair_steps",
    "sampled_decode",
    "sweep_candidates",
    "sweep_decode",
    "threshold_decode",
]


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class RepairResult:
    """Every intermediate object of :func:`repair_steps` (for the Lemma A checks).

    Attributes:
        tour: the Hamiltonian cycle (canonical: starts at 0; not re-oriented).
        cost: its length.
        heat_edges: ``H`` as ``(m, 2)`` pairs ``i < j`` (duplicates removed), sorted.
        connect_edges: ``F``, the spanning-tree edges joining the components of ``(V, H)``.
        odd_vertices: ``O``, the odd-degree vertices of ``H ⊎ F`` (sorted).
        matching_edges: ``M``, a minimum-weight perfect matching on ``O``.
        multigraph_weight: ``w(H) + w(F) + w(M)``, an upper bound on ``cost`` (shortcutting).
    """

    tour: IntArray
    cost: float
    heat_edges: IntArray
    connect_edges: IntArray
    odd_vertices: IntArray
    matching_edges: IntArray
    multigraph_weight: float


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class SweepResult:
    """All candidates of the threshold sweep.

    Attributes:
        thresholds: ``(m + 1,)`` candidate thresholds, ``+inf`` first, then the distinct
            positive heatmap values in decreasing order.
        costs: ``(m + 1,)`` cost of ``repair(H_τ)`` for each threshold.
        best_index: index of the returned candidate (cheapest; ties: the largest ``τ``).
        tour: the returned tour.
        cost: its cost.
    """

    thresholds: FloatArray
    costs: FloatArray
    best_index: int
    tour: IntArray
    cost: float


# ------------------------------------------------------------------- the repair, step by step
def _pairs_by_weight(w: FloatArray) -> list[tuple[int, int]]:
    """All pairs ``i < j`` sorted by ``(w_ij, i, j)`` (the Kruskal order)."""
    iu, ju = np.triu_indices(w.shape[0], 1)
    order = np.lexsort((ju, iu, w[iu, ju]))  # last key first: w, then i, then j
    return list(zip(iu[order].tolist(), ju[order].tolist(), strict=True))


def _find(parent: list[int], v: int) -> int:
    """Root of ``v`` in a union-find forest (with path halving)."""
    while parent[v] != v:
        parent[v] = parent[parent[v]]
        v = parent[v]
    return v


def _components(n: int, heat_edges: IntArray) -> IntArray:
    """Step 1: the connected component of every vertex of ``(V, H)``."""
    ones = np.ones(heat_edges.shape[0])
    graph = csr_matrix((ones, (heat_edges[:, 0], heat_edges[:, 1])), shape=(n, n))
    _, labels = connected_components(graph, directed=False)
    return np.asarray(labels, dtype=np.int64)


def _connect(w: FloatArray, labels: IntArray) -> IntArray:
    """Step 2: ``F``, Kruskal on the contracted graph (one node per component).

    Scanning every pair in ``(w, i, j)`` order and keeping those that join two different
    (merged) components is Kruskal on the contracted graph whose edge between two components
    is their cheapest pair.
    """
    parent = list(range(int(labels.max()) + 1))
    left = len(parent) - 1  # edges still needed
    chosen: list[tuple[int, int]] = []
    for i, j in _pairs_by_weight(w):
        if left == 0:
            break
        a, b = _find(parent, int(labels[i])), _find(parent, int(labels[j]))
        if a != b:
            parent[a] = b
            chosen.append((i, j))
            left -= 1
    return np.array(chosen, dtype=np.int64).reshape(-1, 2)


def _odd_vertices(n: int, edges: IntArray) -> IntArray:
    """Step 3a: ``O``, the vertices of odd degree in the multigraph ``edges``."""
    degree = np.bincount(edges.ravel(), minlength=n)
    return np.flatnonzero(degree % 2 == 1).astype(np.int64)


def _matching(w: FloatArray, odd: IntArray) -> IntArray:
    """Step 3b: ``M``, a minimum-weight perfect matching on ``O`` (global vertex pairs)."""
    local = min_weight_perfect_matching(w[np.ix_(odd, odd)])
    return odd[local].reshape(-1, 2)


def _euler_circuit(n: int, edges: IntArray) -> list[int]:
    """Step 4: Hierholzer's Euler circuit from vertex 0 (smallest neighbour first)."""
    adjacency: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for e, (a, b) in enumerate(edges.tolist()):
        adjacency[a].append((b, e))
        adjacency[b].append((a, e))
    for row in adjacency:
        row.sort(reverse=True)  # the smallest (neighbour, edge id) at the end: pop() takes it
    used = [False] * edges.shape[0]
    stack, circuit = [0], []
    while stack:
        v = stack[-1]
        while adjacency[v] and used[adjacency[v][-1][1]]:
            adjacency[v].pop()  # the other half of an edge already walked
        if adjacency[v]:
            u, e = adjacency[v].pop()
            used[e] = True
            stack.append(u)
        else:
            circuit.append(stack.pop())
    return circuit[::-1]


def _shortcut(circuit: list[int]) -> IntArray:
    """Step 5: keep the first occurrence of every vertex."""
    return np.array(list(dict.fromkeys(circuit)), dtype=np.int64)


def _repair(w: FloatArray, heat_edges: IntArray) -> RepairResult:
    """Spec §3.1 steps 1-5 on validated input (``heat_edges``: distinct pairs ``i < j``)."""
    n = w.shape[0]
    connect = _connect(w, _components(n, heat_edges))  # §3.1 steps 1-2: F
    odd = _odd_vertices(n, np.concatenate([heat_edges, connect]))  # step 3: O of H ⊎ F
    matching = _matching(w, odd)  # step 3: M
    multigraph = np.concatenate([heat_edges, connect, matching])  # H ⊎ F ⊎ M
    tour = _shortcut(_euler_circuit(n, multigraph))  # steps 4-5
    return RepairResult(
        tour=readonly(tour),
        cost=_length(w, tour),
        heat_edges=readonly(heat_edges[np.lexsort((heat_edges[:, 1], heat_edges[:, 0]))]),
        connect_edges=readonly(connect),
        odd_vertices=readonly(odd),
        matching_edges=readonly(matching),
        multigraph_weight=float(np.sum(w[multigraph[:, 0], multigraph[:, 1]])),
    )


# ------------------------------------------------------------------------- shared small pieces
def _as_edges(name: str, value: object, n: int) -> IntArray:
    """Validate ``(m, 2)`` vertex pairs; return the distinct pairs as ``i < j``, sorted."""
    raw = as_float_array(name, value, min_size=0)
    if raw.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if raw.ndim != 2 or raw.shape[1] != 2:
        raise ValueError(f"{name}: expected an (m, 2) array of vertex pairs, got shape {raw.shape}")
    if not bool(np.all(raw == np.round(raw))):
        raise TypeError(f"{name}: expected integer vertex labels, got {describe(value)}")
    pairs = raw.astype(np.int64)
    if int(pairs.min()) < 0 or int(pairs.max()) >= n:
        raise ValueError(
            f"{name}: expected vertex labels in range({n}), got values in "
            f"[{int(pairs.min())}, {int(pairs.max())}]"
        )
    if bool(np.any(pairs[:, 0] == pairs[:, 1])):
        raise ValueError(f"{name}: expected pairs of distinct vertices, got a loop")
    lo = np.minimum(pairs[:, 0], pairs[:, 1])
    hi = np.maximum(pairs[:, 0], pairs[:, 1])
    return np.unique(np.stack([lo, hi], axis=1), axis=0).astype(np.int64)


def _threshold_edges(heat: FloatArray, tau: float) -> IntArray:
    """``H_τ = {ij : i < j, X_ij >= τ}`` (row-major order)."""
    iu, ju = np.nonzero(np.triu(heat >= tau, 1))
    return np.stack([iu, ju], axis=1).astype(np.int64)


def _thresholds(heat: FloatArray) -> FloatArray:
    """``Θ``: ``+inf``, then the distinct positive values ``X_ij`` (``i < j``), decreasing."""
    values = heat[np.triu_indices(heat.shape[0], 1)]
    return np.concatenate([[math.inf], np.unique(values[values > 0.0])[::-1]])


def _polish(w: FloatArray, tour: IntArray, with_two_opt: bool) -> IntArray:
    """The optional 2-opt post-processing of spec §3.4 (DIFUSCO defaults)."""
    if not with_two_opt:
        return np.array(tour, dtype=np.int64)
    result = two_opt_core(
        w,
        np.array(tour, dtype=np.int64),
        max_iter=TWO_OPT_MAX_ITERATIONS,
        min_improvement=TWO_OPT_MIN_IMPROVEMENT,
    )
    return np.array(result.tour, dtype=np.int64)


# ------------------------------------------------------------------------------ public API
def repair_steps(D: ArrayLike, edges: ArrayLike) -> RepairResult:
    """Turn any edge set ``H`` into a tour and return every intermediate object.

    (Reconstruction, spec 10 §3.1.)  1. components of ``(V, H)``; 2. ``F`` = minimum
    spanning tree of the contracted graph (cheapest pair between components, Kruskal, ties by
    ``(w, i, j)``); 3. ``M`` = minimum-weight perfect matching on the odd-degree vertices of
    ``H ⊎ F``; 4. Euler circuit of the multigraph ``H ⊎ F ⊎ M`` (duplicates kept) from vertex
    0; 5. shortcut to first occurrences.  By the triangle inequality
    ``cost <= w(H) + w(F) + w(M)``, and Lemma A gives ``cost <= OPT + 2·w(H Δ T*)``.
    ``H = ∅`` is Christofides' algorithm.

    Complexity: the matching (an integer program, exponential worst case; enumeration for at
    most 8 odd vertices) plus ``O(n² log n)`` for the Kruskal order.

    Args:
        D: ``(n, n)`` metric distances (triangle inequality checked for ``n <= 200``).
        edges: ``(m, 2)`` integer vertex pairs (any degrees, possibly disconnected or empty;
            repeated pairs count once).

    Returns:
        A :class:`RepairResult`.

    Raises:
        TypeError: non-numeric input or non-integer labels.
        ValueError: invalid distances, or pairs out of range / loops.

    Example:
        >>> from reference.tsp.base import distance_matrix
        >>> D = distance_matrix([[0, 0], [1, 0], [1, 1], [0, 1]])
        >>> steps = repair_steps(D, [[0, 1], [2, 3]])
        >>> steps.connect_edges.tolist(), steps.cost
        ([[0, 3]], 4.0)

    References:
        Spec 10 §3.1 (reconstruction); Lemma A of spec §4.  H = ∅: N. Christofides (1976).
    """
    w = as_distances("D", D)
    return _repair(w, _as_edges("edges", edges, w.shape[0]))


def repair(D: ArrayLike, edges: ArrayLike) -> IntArray:
    """Turn any edge set into a tour: connect, fix parity, Euler circuit, shortcut.

    See :func:`repair_steps` for the steps, the guarantee and the arguments; this returns only
    the tour.  A Hamiltonian cycle ``H`` is returned unchanged (up to rotation/orientation).

    Args:
        D: ``(n, n)`` metric distances.
        edges: ``(m, 2)`` integer vertex pairs.

    Returns:
        The tour (starts at vertex 0).

    Raises:
        TypeError: non-numeric input or non-integer labels.
        ValueError: invalid distances, or pairs out of range / loops.

    Example:
        >>> from reference.tsp.base import distance_matrix
        >>> D = distance_matrix([[0, 0], [1, 0], [1, 1], [0, 1]])
        >>> repair(D, np.zeros((0, 2), dtype=int)).tolist()
        [0, 1, 2, 3]

    References:
        Spec 10 §3.1 (reconstruction).
    """
    return np.array(repair_steps(D, edges).tour, dtype=np.int64)


def threshold_decode(
    D: ArrayLike, heatmap: ArrayLike, tau: float = 0.5, *, with_two_opt: bool = False
) -> IntArray:
    """Decode at one threshold: ``repair(H_τ)`` with ``H_τ = {ij : X_ij >= τ}``.

    Guarantee (Proposition D of spec §4, reconstruction):
    ``cost <= OPT + 2·max(1/τ, 1/(1-τ))·η`` (``OPT + 4η`` at ``τ = 1/2``; ``OPT + 2η`` for a
    0/1 heatmap).  Optional 2-opt afterwards never increases the cost.

    Args:
        D: ``(n, n)`` metric distances.
        heatmap: ``(n, n)`` symmetric heatmap in ``[0, 1]``.
        tau: threshold ``τ ∈ (0, 1]`` (default ½, "round the heatmap").
        with_two_opt: apply 2-opt (DIFUSCO defaults) to the result.

    Returns:
        The tour.

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid distances, heatmap or ``τ``.

    Example:
        >>> from reference.tsp.base import distance_matrix, tour_indicator
        >>> D = distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1]])
        >>> threshold_decode(D, tour_indicator([0, 2, 1, 3])).tolist()
        [0, 2, 1, 3]

    References:
        Spec 10 §3.2 and Proposition D (reconstruction).
    """
    w = as_distances("D", D)
    heat = as_heatmap("heatmap", heatmap, w.shape[0])
    level = require_probability("tau", tau, open_low=True)
    return _polish(w, _repair(w, _threshold_edges(heat, level)).tour, with_two_opt)


def sweep_candidates(D: ArrayLike, heatmap: ArrayLike) -> SweepResult:
    """Run the full threshold sweep and return every candidate (see :func:`sweep_decode`).

    One :func:`repair` per threshold ``τ ∈ Θ``, ``+∞`` (``H = ∅``) first, then the distinct
    positive heatmap values in decreasing order.

    Args:
        D: ``(n, n)`` metric distances.
        heatmap: ``(n, n)`` symmetric heatmap in ``[0, 1]``.

    Returns:
        A :class:`SweepResult`.

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid distances or heatmap.

    Example:
        >>> from reference.tsp.base import distance_matrix
        >>> D = distance_matrix([[0, 0], [1, 0], [1, 1], [0, 1]])
        >>> X = np.array([[0, .5, 0, 0], [.5, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]])
        >>> sweep_candidates(D, X).thresholds.tolist()
        [inf, 1.0, 0.5]

    References:
        Spec 10 §3.3 (reconstruction).
    """
    w = as_distances("D", D)
    heat = as_heatmap("heatmap", heatmap, w.shape[0])
    thresholds = _thresholds(heat)
    results = [_repair(w, _threshold_edges(heat, float(tau))) for tau in thresholds]  # §3.3 l. 2
    costs = np.array([result.cost for result in results])
    best = int(np.argmin(costs))  # §3.3 l. 3; ties: the first, i.e. the largest τ
    return SweepResult(
        thresholds=readonly(thresholds),
        costs=readonly(costs),
        best_index=best,
        tour=results[best].tour,
        cost=results[best].cost,
    )


def sweep_decode(D: ArrayLike, heatmap: ArrayLike, *, with_two_opt: bool = False) -> IntArray:
    """Main decoder: the cheapest ``repair(H_τ)`` over *every* threshold (no cap).

    Candidates ``Θ = {+∞} ∪ {distinct positive X_ij}`` (``+∞`` gives ``H = ∅``, i.e.
    Christofides); return the cheapest tour, ties to the largest ``τ``.

    Guarantee (Theorem B of spec §4, reconstruction): ``cost <= OPT + 2η(X)`` and
    ``cost <= 1.5·OPT``.  Proof sketch: for ``τ ~ U(0, 1]``, ``P[ij ∈ H_τ] = X_ij``, so
    ``E[w(H_τ Δ T*)] = η(X, T*)``; by Lemma A and since a minimum is at most a mean, the best
    candidate costs ``<= OPT + 2η``.  The guarantee needs *all* thresholds: there is no cap.
    Optional 2-opt afterwards never increases the cost, so both bounds survive it.

    Complexity: ``|Θ| <= n(n-1)/2 + 1`` repairs (:mod:`reference.tsp.fast` shares work
    between them).

    Args:
        D: ``(n, n)`` metric distances.
        heatmap: ``(n, n)`` symmetric heatmap in ``[0, 1]``.
        with_two_opt: apply 2-opt (DIFUSCO defaults) to the returned tour.

    Returns:
        The tour.

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid distances or heatmap.

    Example:
        >>> from reference.tsp.base import distance_matrix, tour_indicator
        >>> D = distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1], [0.5, -1]])
        >>> X = tour_indicator([0, 4, 2, 1, 3])
        >>> sweep_decode(D, X).tolist()
        [0, 3, 1, 2, 4]

    References:
        Spec 10 §3.3 and Theorem B (reconstruction of Eliáš, Grandoni, Polak, Vercesi,
        ICML 2026: the abstract's ``(1 + 2η/OPT)`` guarantee).
    """
    w = as_distances("D", D)
    return _polish(w, sweep_candidates(w, heatmap).tour, with_two_opt)


def sampled_decode(
    D: ArrayLike,
    heatmap: ArrayLike,
    *,
    k: int,
    rng: np.random.Generator,
    with_two_opt: bool = False,
) -> IntArray:
    """Best of ``k`` random thresholds ``τ_1..τ_k ~ U(0, 1]`` (randomized variant, best-of-K).

    Returns the cheapest ``repair(H_τ)`` (ties: the earliest draw); each candidate is
    ``threshold_decode(D, heatmap, τ)``.  Guarantee in expectation (Proposition E,
    reconstruction): ``E[cost] <= OPT + 2η``.  Why the minimum keeps it:
    ``min_k cost(τ_k) <= cost(τ_1)`` pointwise, so ``E[min] <= E[cost(τ_1)] <= OPT + 2η`` —
    more draws can only help.  No deterministic guarantee: use :func:`sweep_decode` for that.

    Args:
        D: ``(n, n)`` metric distances.
        heatmap: ``(n, n)`` symmetric heatmap in ``[0, 1]``.
        k: number of thresholds, ``>= 1``.
        rng: the random generator (``τ = 1 - U[0, 1)``).
        with_two_opt: apply 2-opt (DIFUSCO defaults) to the returned tour.

    Returns:
        The tour.

    Raises:
        TypeError: non-numeric input or ``rng`` not a generator.
        ValueError: invalid distances or heatmap, ``k < 1``.

    Example:
        >>> from reference.tsp.base import distance_matrix, tour_indicator
        >>> D = distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1]])
        >>> X = tour_indicator([0, 2, 1, 3])
        >>> sampled_decode(D, X, k=4, rng=np.random.default_rng(0)).tolist()
        [0, 2, 1, 3]

    References:
        Spec 10 §3.3 (randomized variant) and Proposition E (reconstruction).
    """
    w = as_distances("D", D)
    heat = as_heatmap("heatmap", heatmap, w.shape[0])
    draws = require_int("k", k, minimum=1)
    require_generator("rng", rng)
    taus = 1.0 - rng.uniform(0.0, 1.0, size=draws)  # U(0, 1]
    results = [_repair(w, _threshold_edges(heat, float(tau))) for tau in taus]
    best = int(np.argmin([result.cost for result in results]))  # ties: the earliest draw
    return _polish(w, results[best].tour, with_two_opt)


def expected_threshold_cost(D: ArrayLike, heatmap: ArrayLike) -> float:
    """Exact ``E_τ[cost(repair(H_τ))]`` for ``τ ~ U(0, 1]`` (Proposition E, reconstruction).

    With the distinct positive values ``v_1 > … > v_m`` and ``v_{m+1} := 0``:
    ``E = (1 - v_1)·cost(H = ∅) + Σ_k (v_k - v_{k+1})·cost(H_{v_k})``.

    Args:
        D: ``(n, n)`` metric distances.
        heatmap: ``(n, n)`` symmetric heatmap in ``[0, 1]``.

    Returns:
        The expected cost (``<= OPT + 2η`` by Proposition E).

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid distances or heatmap.

    Example:
        >>> from reference.tsp.base import distance_matrix
        >>> D = distance_matrix([[0, 0], [1, 0], [1, 1], [0, 1]])
        >>> expected_threshold_cost(D, np.zeros((4, 4)))
        4.0

    References:
        Spec 10 §4, Proposition E (reconstruction).
    """
    sweep = sweep_candidates(D, heatmap)
    levels = np.concatenate([[1.0], sweep.thresholds[1:], [0.0]])
    return float(np.dot(levels[:-1] - levels[1:], sweep.costs))
