"""Shared core of the TSP fast paths: nested threshold repairs (spec 10 §3.1-3.3).

Part of :mod:`reference.tsp` (used by :mod:`reference.tsp.fast` and the torch batch decoder
:mod:`reference.tsp.fast_torch`; the reference never imports it).  The pieces are described in
the docstring of :mod:`reference.tsp.fast`: the lazily sorted Kruskal order, the incremental
union-find and parities over nested threshold sets, the matching cache, the drawn-level
buckets and the Hierholzer shortcut (compiled in :mod:`reference.tsp.fast_kernels` when numba
is installed).

Notation map: ``w`` = ``D``, ``X`` = ``heatmap``, ``H_τ = {ij : X_ij >= τ}``, ``F`` = connecting
edges, ``O`` = odd-degree vertices of ``H ⊎ F``, ``M`` = minimum-weight perfect matching on ``O``.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from reference._arrays import FloatArray, IntArray, readonly
from reference.tsp import fast_kernels
from reference.tsp.base import _length
from reference.tsp.decode import RepairResult
from reference.tsp.fast_matching import _min_weight_perfect_matching

__all__: list[str] = []  # internal helpers only


class _UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))
        self.count = n

    def find(self, v: int) -> int:
        parent = self.parent
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    def union(self, a: int, b: int) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[max(ra, rb)] = min(ra, rb)
        self.count -= 1
        return True

    def labels(self) -> IntArray:
        return np.array([self.find(v) for v in range(len(self.parent))], dtype=np.int64)


class _KruskalOrder:
    """All pairs ``i < j`` in ``(w_ij, i, j)`` order (Kruskal order, spec §3.1 step 2), sorted
    lazily.

    Kruskal over the contracted graph usually stops within the cheapest few thousand pairs,
    so nothing is sorted until the first :meth:`take`, which sorts only the pairs with
    ``w_ij <= t`` (``t`` the ``PREFIX``-th smallest weight, ties included); the remaining pairs
    (all heavier than ``t``) are sorted only if a scan goes beyond them.  Both stages sort the
    row-major pair list stably by weight, so ties stay in ``(i, j)`` order.
    """

    PREFIX = 2048

    def __init__(self, w: FloatArray) -> None:
        self.w = w
        self.size = w.shape[0] * (w.shape[0] - 1) // 2
        self.pi = np.zeros(0, dtype=np.int64)
        self.pj = np.zeros(0, dtype=np.int64)
        self.stage = 0  # 0: nothing sorted, 1: the prefix, 2: everything
        self.threshold = math.inf

    def _sorted(self, iu: IntArray, ju: IntArray, values: FloatArray) -> None:
        order = np.argsort(values, kind="stable")
        self.pi = np.concatenate([self.pi, iu[order].astype(np.int64)])
        self.pj = np.concatenate([self.pj, ju[order].astype(np.int64)])

    def take(self, start: int, stop: int) -> tuple[IntArray, IntArray]:
        """Pairs ``start .. stop - 1`` of the order (fewer at the end)."""
        if self.stage == 2 or (self.stage == 1 and stop <= self.pi.shape[0]):
            return self.pi[start:stop], self.pj[start:stop]  # already sorted that far
        iu, ju = np.triu_indices(self.w.shape[0], 1)  # row-major, i.e. in (i, j) order
        if self.stage == 0:
            values = self.w[iu, ju]
            if self.size <= 2 * self.PREFIX:
                self._sorted(iu, ju, values)
                self.stage = 2
            else:
                self.threshold = float(np.partition(values, self.PREFIX)[self.PREFIX])
                head = np.flatnonzero(values <= self.threshold)
                self._sorted(iu[head], ju[head], values[head])
                self.stage = 1
        if self.stage == 1 and stop > self.pi.shape[0]:
            values = self.w[iu, ju]
            rest = np.flatnonzero(values > self.threshold)
            self._sorted(iu[rest], ju[rest], values[rest])
            self.stage = 2
        return self.pi[start:stop], self.pj[start:stop]


def _pairs_by_weight(w: FloatArray) -> tuple[IntArray, IntArray]:
    """All pairs ``i < j`` sorted by ``(w_ij, i, j)`` (the whole :class:`_KruskalOrder`)."""
    order = _KruskalOrder(w)
    return order.take(0, order.size)


def _connect(labels: IntArray, count: int, order: _KruskalOrder) -> list[tuple[int, int]]:
    """``F``: Kruskal over the cross-component pairs in ``(w, i, j)`` order (spec §3.1 step 2).

    Scanning all cross pairs in this order is Kruskal on the contracted graph whose edge
    between two components is their cheapest pair (ties by ``(w, i, j)``).
    """
    if count <= 1:
        return []
    uf = _UnionFind(int(labels.max()) + 1)
    out: list[tuple[int, int]] = []
    start, chunk = 0, 1024
    while start < order.size:  # scan the order in doubling chunks: it usually stops early
        a, b = order.take(start, start + chunk)
        la, lb = labels[a], labels[b]
        cross = la != lb
        for x, y, cx, cy in zip(
            a[cross].tolist(),
            b[cross].tolist(),
            la[cross].tolist(),
            lb[cross].tolist(),
            strict=True,
        ):
            if uf.union(cx, cy):
                out.append((x, y))
                if len(out) == count - 1:
                    return out
        start, chunk = start + chunk, 2 * chunk
    return out  # pragma: no cover - the complete graph always connects the components


def _stable_order(key: IntArray, bound: int) -> IntArray:
    """Stable argsort of non-negative integer keys ``< bound`` (16-bit keys when they fit:
    numpy's stable sort is then a linear-time radix sort)."""
    if bound <= 2**16:
        return np.argsort(key.astype(np.uint16), kind="stable")
    return np.argsort(key, kind="stable")


def _adjacency_stacks(n: int, edges: IntArray) -> tuple[list[list[int]], list[int]]:
    """Per-vertex stacks of half-edge ids, the smallest ``(neighbour, edge id)`` on top.

    Half-edge ``2e`` runs ``edges[e, 0] -> edges[e, 1]`` and ``2e + 1`` the other way (so the
    twin of ``h`` is ``h ^ 1``).  Returns the stacks (Python lists; ``pop()`` gives the next
    half-edge of the Hierholzer order) and the head vertex of every half-edge.
    """
    tail = edges.reshape(-1)
    head = edges[:, ::-1].reshape(-1)
    # half-edges are laid out in edge-id order, so a *stable* sort by the key (tail, head)
    # orders them by (tail, head, edge id); reversed, each vertex's block lists its
    # half-edges from the largest to the smallest (neighbour, edge id)
    order = _stable_order(tail * n + head, n * n)[::-1].tolist()
    stops = np.cumsum(np.bincount(tail, minlength=n)[::-1]).tolist()
    stacks: list[list[int]] = []
    start = 0
    for stop in stops:  # blocks come for vertices n-1, n-2, ..., 0
        stacks.append(order[start:stop])
        start = stop
    stacks.reverse()
    return stacks, head.tolist()


def _euler_shortcut(n: int, edges: IntArray) -> IntArray:
    """Hierholzer's Euler circuit from vertex 0, then keep first occurrences (spec §3.1 4-5).

    ``edges`` is the ``(m, 2)`` multigraph (row index = edge id).  At each vertex the unused
    edge with the smallest ``(neighbour, edge id)`` is taken first.  The circuit is the
    reversed order in which vertices are finished (popped); the shortcut keeps the first
    occurrence of each vertex in it.  Iterative, with one stack of half-edges per vertex: a
    used half-edge is dropped when it reaches the top (its twin is marked when the edge is
    walked), so the loop runs ``O(m)`` times.
    """
    m = edges.shape[0]
    if m == 0:
        return np.zeros(1, dtype=np.int64)
    if fast_kernels.use_kernels():
        return fast_kernels.euler_shortcut(n, edges)
    stacks, head = _adjacency_stacks(n, edges)
    used = bytearray(2 * m)
    path: list[int] = []  # vertices below the current one on the walk
    finished: list[int] = []
    v = 0
    while True:
        pending = stacks[v]
        while pending:
            h = pending.pop()
            if not used[h]:  # walk the edge h: v -> head[h]
                used[h ^ 1] = 1
                path.append(v)
                v = head[h]
                break
        else:  # v has no unused edge left: it is finished
            finished.append(v)
            if not path:
                break
            v = path.pop()
    finished.reverse()  # the Euler circuit
    return np.fromiter(dict.fromkeys(finished), dtype=np.int64, count=n)


def _pair_array(edges: list[tuple[int, int]]) -> IntArray:
    return np.array(edges, dtype=np.int64).reshape(-1, 2)


def _parity_multigraph(
    w: FloatArray,
    heat_edges: IntArray,
    labels: IntArray,
    count: int,
    parity: IntArray,
    order: _KruskalOrder,
    cache: dict[bytes, IntArray] | None,
) -> tuple[IntArray, IntArray, IntArray]:
    """Steps 2-3 of the repair: ``F``, the odd set ``O`` of ``H ⊎ F`` and the matching ``M``.

    ``cache`` maps an odd set to its (deterministic) matching, so that candidates with the
    same ``O`` share one matching computation.
    """
    connect = _pair_array(_connect(labels, count, order))
    odd_mask = parity.copy()
    np.bitwise_xor.at(odd_mask, connect.ravel(), 1)
    odd = np.flatnonzero(odd_mask).astype(np.int64)
    key = odd.tobytes()
    matching = cache.get(key) if cache is not None else None
    if matching is None:
        local = _min_weight_perfect_matching(w[np.ix_(odd, odd)])
        matching = odd[local].reshape(-1, 2)
        if cache is not None:
            cache[key] = matching
    return connect, odd, matching


def _repair_core(
    w: FloatArray,
    heat_edges: IntArray,
    labels: IntArray,
    count: int,
    parity: IntArray,
    order: _KruskalOrder,
) -> RepairResult:
    """Steps 2-5 of the repair given ``H`` (``(m, 2)``, ``i < j``), its component labels and
    degree parities, with every intermediate object."""
    n = w.shape[0]
    connect, odd, matching = _parity_multigraph(w, heat_edges, labels, count, parity, order, None)
    multigraph = np.concatenate([heat_edges, connect, matching])
    tour = _euler_shortcut(n, multigraph)
    weight = float(np.sum(w[multigraph[:, 0], multigraph[:, 1]]))
    rows = np.lexsort((heat_edges[:, 1], heat_edges[:, 0]))
    return RepairResult(
        tour=readonly(tour),
        cost=_length(w, tour),
        heat_edges=readonly(heat_edges[rows]),
        connect_edges=readonly(connect),
        odd_vertices=readonly(odd),
        matching_edges=readonly(np.array(matching, dtype=np.int64)),
        multigraph_weight=weight,
    )


def _repair_from_edges(
    w: FloatArray,
    heat_edges: IntArray,
    order: _KruskalOrder,
) -> RepairResult:
    n = w.shape[0]
    graph = csr_matrix(
        (np.ones(heat_edges.shape[0]), (heat_edges[:, 0], heat_edges[:, 1])), shape=(n, n)
    )
    count, labels = connected_components(graph, directed=False)
    parity = np.bincount(heat_edges.ravel(), minlength=n).astype(np.int64) % 2
    return _repair_core(w, heat_edges, labels.astype(np.int64), int(count), parity, order)


def _edges_by_heat(heat: FloatArray) -> tuple[IntArray, IntArray, FloatArray]:
    """Pairs ``i < j`` with ``X_ij > 0`` in decreasing heat order (ties: row-major)."""
    iu, ju = np.triu_indices(heat.shape[0], 1)
    values = heat[iu, ju]
    positive = values > 0.0
    iu, ju, values = iu[positive], ju[positive], values[positive]
    order = np.argsort(-values, kind="stable")
    return iu[order].astype(np.int64), ju[order].astype(np.int64), values[order]


def _edges_by_draw(heat: FloatArray, taus: FloatArray) -> tuple[IntArray, IntArray, list[int]]:
    """Pairs ``i < j`` ordered so that every ``H_τ``, ``τ`` in ``taus``, is a prefix.

    Only the drawn levels matter, so instead of sorting all heat values each pair gets the
    number ``b`` of distinct levels ``<= X_ij`` and pairs are ordered by decreasing ``b`` (a
    stable sort of small integers; row-major within a bucket).  ``H_τ`` for the ``q``-th
    smallest level is the set with ``b > q``.  The order inside a prefix differs from the
    heat order of :func:`_edges_by_heat`, which changes no tour: the union-find, the parities
    and the Euler circuit's vertex sequence depend only on the set ``H``.  Returns the pairs
    and ``|H_τ|`` for each draw.
    """
    iu, ju = np.triu_indices(heat.shape[0], 1)
    values = heat[iu, ju]
    levels = np.unique(taus)  # increasing, all > 0
    bucket = np.searchsorted(levels, values, side="right")  # number of levels <= X_ij
    order = _stable_order(levels.shape[0] - bucket, levels.shape[0] + 1)
    counts = np.bincount(bucket, minlength=levels.shape[0] + 1)
    size_at_level = np.cumsum(counts[::-1])[::-1][1:]  # |{b > q}| for q = 0..L-1
    sizes = size_at_level[np.searchsorted(levels, taus)].tolist()
    keep = order[: int(size_at_level[0])]  # pairs below every level are never used
    return iu[keep].astype(np.int64), ju[keep].astype(np.int64), sizes


def _add_edges(uf: _UnionFind, parity: IntArray, iu: IntArray, ju: IntArray) -> None:
    """Add the edges ``(iu[e], ju[e])`` to the union-find and flip the degree parities.

    Parities are flipped in one vectorised pass; the union-find is only updated while the
    graph is disconnected (once it is connected, unions change nothing).
    """
    parity ^= np.bincount(np.concatenate([iu, ju]), minlength=parity.shape[0]) % 2
    if uf.count > 1:
        for a, b in zip(iu.tolist(), ju.tolist(), strict=True):
            if uf.union(a, b) and uf.count == 1:
                break


def _nested_repairs(
    w: FloatArray, iu: IntArray, ju: IntArray, sizes: list[int]
) -> list[tuple[IntArray, float]]:
    """``(tour, cost)`` of ``repair(H)`` for the nested prefixes
    ``H = {(iu[e], ju[e]) : e < s}``, ``s`` in ``sizes`` (non-decreasing).

    Incremental form of spec §3.3: one union-find and parity vector grow edge by edge, ``F``
    is recomputed only while ``H`` is disconnected, and candidates with the same odd set share
    one matching.  Each tour is the one :func:`repair` returns for that ``H`` (same ``F``,
    ``O``, ``M`` and Euler circuit); only the intermediate objects of :class:`RepairResult`
    are not materialised.
    """
    n = w.shape[0]
    order = _KruskalOrder(w)  # sorted lazily, once some H is disconnected
    uf = _UnionFind(n)
    parity = np.zeros(n, dtype=np.int64)
    cache: dict[bytes, IntArray] = {}
    out: list[tuple[IntArray, float]] = []
    done = 0
    for size in sizes:
        if size > done:
            _add_edges(uf, parity, iu[done:size], ju[done:size])
            done = size
        edges = np.stack([iu[:size], ju[:size]], axis=1)
        labels = uf.labels() if uf.count > 1 else np.zeros(n, dtype=np.int64)
        connect, _, matching = _parity_multigraph(w, edges, labels, uf.count, parity, order, cache)
        tour = _euler_shortcut(n, np.concatenate([edges, connect, matching]))
        out.append((tour, _length(w, tour)))
    return out
