"""Compiled kernels of the TSP fast path (optional: numba, the ``[fast]`` extra).

Part of :mod:`reference.tsp` (used by :mod:`reference.tsp.fast` and
:mod:`reference.tsp.fast_matching`).  When numba is installed, two inner loops of the fast
path run compiled; without it (or with :data:`ENABLED` set to ``False``) the fast path keeps
its numpy code, which returns the same tours.  Both kernels do exactly the arithmetic of the
numpy code they replace, in the same order, so results are bit-identical
(``tests/tsp/test_fast_kernels.py`` checks both paths against each other and the reference):

* :func:`euler_shortcut`: Hierholzer's Euler circuit from vertex 0, at each vertex the unused
  edge with the smallest ``(neighbour, edge id)`` first, then the first occurrence of each
  vertex (spec 10 §3.1 steps 4-5; the numpy version is ``reference.tsp.fast._euler_shortcut``).
* :func:`potentials`: the Bellman-Ford column potentials of the assignment warm start
  (``reference.tsp.fast_matching._potentials``), relaxing the same rows in the same rounds.
* :func:`blossom_step`: the dual part of one step of the blossom algorithm: labels of the
  vertices, the ``δ1`` / ``δ2`` / ``δ3`` search and the dual change (the numpy version is
  ``reference.tsp.fast_matching._Blossom._step``); the event itself stays in Python.
* :func:`certificate_terms`: the dual objective and the smallest reduced cost of the blossom
  algorithm's optimality certificate (``reference.tsp.fast_matching._Blossom._certify``).
* :func:`split_cycle_cover`: the warm-start matching read off the optimal cycle cover
  (``reference.tsp.fast_matching._split_cycle_cover``; its sums run left to right, where numpy
  sums cycles of 8 or more edges pairwise: on an exact tie of the two choices the start may
  differ, never the optimal matching the blossom algorithm returns from it).
* :func:`blossom_event`: the ``δ1`` / ``δ2`` search of one step of the blossom algorithm
  (``reference.tsp.fast_matching._Blossom._step``): the first minimum, row-major over the
  ``+`` rows, of the reduced costs ``(w_uv - Y_u) - Y_v`` to free columns and (halved) to
  ``+`` columns, pairs inside one top-level blossom excluded.

The kernels are plain loops over arrays (no validation: callers pass checked data).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import TypeVar, cast

import numpy as np

from reference._arrays import FloatArray, IntArray

__all__ = [
    "AVAILABLE",
    "ENABLED",
    "blossom_event",
    "blossom_step",
    "certificate_terms",
    "euler_shortcut",
    "potentials",
    "split_cycle_cover",
    "tight_pairs",
    "use_kernels",
]

_F = TypeVar("_F", bound=Callable[..., object])

_numba: ModuleType | None
try:
    _numba = importlib.import_module("numba")
except ImportError:  # pragma: no cover - depends on the environment
    _numba = None

#: numba is importable.
AVAILABLE: bool = _numba is not None
#: The fast path uses the compiled kernels (only when :data:`AVAILABLE`; tests flip this).
ENABLED: bool = AVAILABLE


def use_kernels() -> bool:
    """Whether the fast path should call the compiled kernels now."""
    return AVAILABLE and ENABLED


def _jit(function: _F) -> _F:
    if _numba is None:  # pragma: no cover - depends on the environment
        return function
    return cast(_F, _numba.njit(cache=True, nogil=True)(function))


@_jit
def _euler_shortcut_loop(n: int, tail: IntArray, head: IntArray) -> IntArray:
    m2 = tail.shape[0]
    # half-edges in (tail, head, id) order: counting sort by head, then stably by tail
    count = np.zeros(n + 1, dtype=np.int64)
    for h in range(m2):
        count[head[h] + 1] += 1
    for v in range(n):
        count[v + 1] += count[v]
    by_head = np.empty(m2, dtype=np.int64)
    for h in range(m2):
        by_head[count[head[h]]] = h
        count[head[h]] += 1
    start = np.zeros(n + 1, dtype=np.int64)
    for h in range(m2):
        start[tail[h] + 1] += 1
    for v in range(n):
        start[v + 1] += start[v]
    fill = start.copy()
    order = np.empty(m2, dtype=np.int64)
    for r in range(m2):
        h = by_head[r]
        order[fill[tail[h]]] = h
        fill[tail[h]] += 1
    ptr = start[:n].copy()
    used = np.zeros(m2, dtype=np.uint8)
    path = np.empty(m2 // 2 + 1, dtype=np.int64)
    depth = 0
    finished = np.empty(m2 // 2 + 1, dtype=np.int64)
    done = 0
    v = 0
    while True:
        walked = False
        while ptr[v] < start[v + 1]:
            h = order[ptr[v]]
            ptr[v] += 1
            if used[h] == 0:
                used[h ^ 1] = 1
                path[depth] = v
                depth += 1
                v = head[h]
                walked = True
                break
        if not walked:
            finished[done] = v
            done += 1
            if depth == 0:
                break
            depth -= 1
            v = path[depth]
    seen = np.zeros(n, dtype=np.uint8)
    tour = np.empty(n, dtype=np.int64)
    size = 0
    for r in range(done - 1, -1, -1):  # the circuit is the reversed finishing order
        x = finished[r]
        if seen[x] == 0:
            seen[x] = 1
            tour[size] = x
            size += 1
    return tour[:size]


def euler_shortcut(n: int, edges: IntArray) -> IntArray:
    """Compiled ``_euler_shortcut``: ``edges`` is the ``(m, 2)`` multigraph, ``m >= 1``.

    Half-edge ``2e`` runs ``edges[e, 0] -> edges[e, 1]``, ``2e + 1`` the other way.

    Example:
        >>> euler_shortcut(3, np.array([[0, 1], [1, 2], [2, 0]])).tolist()
        [0, 1, 2]
    """
    edges = np.ascontiguousarray(edges, dtype=np.int64)
    tail = np.ascontiguousarray(edges.reshape(-1))
    head = np.ascontiguousarray(edges[:, ::-1].reshape(-1))
    return _euler_shortcut_loop(n, tail, head)


@_jit
def _blossom_event_loop(
    cost: FloatArray,
    Y: FloatArray,
    plus: IntArray,
    free: IntArray,
    top: IntArray,
    mask: bool,
) -> tuple[float, int, int, int]:
    best = np.inf
    kind = 0
    u = -1
    v = -1
    # δ1: + rows against free columns, first minimum row-major
    for r in range(plus.shape[0]):
        a = plus[r]
        ya = Y[a]
        for c in range(free.shape[0]):
            b = free[c]
            value = (cost[a, b] - ya) - Y[b]
            if value < best:
                best, kind, u, v = value, 1, a, b
    s2 = np.inf
    u2 = -1
    v2 = -1
    for r in range(plus.shape[0]):
        a = plus[r]
        ya = Y[a]
        for c in range(plus.shape[0]):
            b = plus[c]
            if mask and top[a] == top[b]:
                continue
            value = (cost[a, b] - ya) - Y[b]
            if value < s2:
                s2, u2, v2 = value, a, b
    if s2 / 2.0 < best:
        best, kind, u, v = s2 / 2.0, 2, u2, v2
    return best, kind, u, v


def blossom_event(
    cost: FloatArray,
    Y: FloatArray,
    plus: IntArray,
    free: IntArray,
    top: IntArray,
    mask: bool,
) -> tuple[float, int, int, int]:
    """``(δ, kind, u, v)``: the smallest of ``δ1`` (kind 1) and ``δ2`` (kind 2), kind 0 if none.

    ``plus`` and ``free`` list the ``+`` and free vertices in increasing order; ``mask``
    excludes ``+`` pairs with the same ``top`` (set when a ``+`` blossom exists).

    Example:
        >>> cost = np.array([[np.inf, 1.0, 3.0], [1.0, np.inf, 2.0], [3.0, 2.0, np.inf]])
        >>> plus, free = np.array([0]), np.array([1, 2])
        >>> blossom_event(cost, np.zeros(3), plus, free, np.arange(3), False)
        (1.0, 1, 0, 1)
    """
    best, kind, u, v = _blossom_event_loop(cost, Y, plus, free, top, mask)
    return float(best), int(kind), int(u), int(v)


@_jit
def _tight_pairs_loop(
    cost: FloatArray, Y: FloatArray, plus: IntArray, free: IntArray
) -> tuple[IntArray, IntArray]:
    rows = np.empty(plus.shape[0] * free.shape[0], dtype=np.int64)
    cols = np.empty(plus.shape[0] * free.shape[0], dtype=np.int64)
    size = 0
    for r in range(plus.shape[0]):
        a = plus[r]
        ya = Y[a]
        for c in range(free.shape[0]):
            b = free[c]
            if (cost[a, b] - ya) - Y[b] <= 0.0:
                rows[size] = a
                cols[size] = b
                size += 1
    return rows[:size], cols[:size]


def tight_pairs(
    cost: FloatArray, Y: FloatArray, plus: IntArray, free: IntArray
) -> tuple[IntArray, IntArray]:
    """The ``(+ vertex, free vertex)`` pairs with reduced cost ``<= 0``, row-major.

    Example:
        >>> cost = np.array([[np.inf, 1.0, 3.0], [1.0, np.inf, 2.0], [3.0, 2.0, np.inf]])
        >>> rows, cols = tight_pairs(cost, np.full(3, 0.5), np.array([0]), np.array([1, 2]))
        >>> rows.tolist(), cols.tolist()
        ([0], [1])
    """
    return _tight_pairs_loop(cost, Y, plus, free)


@_jit
def _potentials_loop(slack: FloatArray, succ: IntArray, row_of: IntArray) -> FloatArray:
    k = slack.shape[0]
    v = np.zeros(k)
    active = np.arange(k)
    n_active = k
    candidate = np.empty(k)
    improved = np.empty(k, dtype=np.int64)
    for _ in range(k + 1):
        candidate[:] = np.inf
        for r in range(n_active):
            row = active[r]
            base = v[succ[row]]
            for j in range(k):
                value = base + slack[row, j]
                if value < candidate[j]:
                    candidate[j] = value
        count = 0
        for j in range(k):
            if candidate[j] < v[j]:
                improved[count] = j
                count += 1
        if count == 0:
            break
        for r in range(count):
            j = improved[r]
            v[j] = candidate[j]
            active[r] = row_of[j]
        n_active = count
    return v


def potentials(slack: FloatArray, succ: IntArray, row_of: IntArray) -> FloatArray:
    """Column potentials from the assignment slacks (``_potentials`` after its set-up).

    ``slack[i, j] = c_ij - c_iσ(i)`` (row ``i``: the edge ``σ(i) -> j``), ``succ = σ`` and
    ``row_of = σ^{-1}``.

    Example:
        >>> slack = np.array([[np.inf, 0.0], [0.0, np.inf]])
        >>> potentials(slack, np.array([1, 0]), np.array([1, 0])).tolist()
        [0.0, 0.0]
    """
    return _potentials_loop(slack, succ, row_of)


@_jit
def _blossom_step_loop(
    cost: FloatArray,
    Y: FloatArray,
    z: FloatArray,
    label: IntArray,
    top: IntArray,
    tops: IntArray,
) -> tuple[int, int, int, float, IntArray, IntArray]:
    k = top.shape[0]
    lab_v = np.empty(k, dtype=np.int64)
    n_plus = 0
    n_free = 0
    for x in range(k):
        lab_v[x] = label[top[x]]
        if lab_v[x] == 1:
            n_plus += 1
        elif lab_v[x] == 0:
            n_free += 1
    plus = np.empty(n_plus, dtype=np.int64)
    free = np.empty(n_free, dtype=np.int64)
    n_plus = 0
    n_free = 0
    for x in range(k):
        if lab_v[x] == 1:
            plus[n_plus] = x
            n_plus += 1
        elif lab_v[x] == 0:
            free[n_free] = x
            n_free += 1
    mask = False
    for t in range(tops.shape[0]):
        if label[tops[t]] == 1:
            mask = True
    best, kind, u, v = _blossom_event_loop(cost, Y, plus, free, top, mask)
    z3 = np.inf
    u3 = -1
    for t in range(tops.shape[0]):  # δ3: the first smallest z of a - blossom
        b = tops[t]
        if label[b] == 2 and z[b] < z3:
            z3, u3 = z[b], b
    if u3 >= 0 and z3 < best:
        best, kind, u = z3, 3, u3
    delta = max(best, 0.0) if kind != 0 else 0.0
    if delta > 0.0:
        for r in range(n_plus):
            Y[plus[r]] += delta
        for x in range(k):
            if lab_v[x] == 2:
                Y[x] -= delta
        for t in range(tops.shape[0]):
            b = tops[t]
            if label[b] == 1:
                z[b] += delta
            elif label[b] == 2:
                z[b] -= delta
    return kind, u, v, delta, plus, free


def blossom_step(
    cost: FloatArray,
    Y: FloatArray,
    z: FloatArray,
    label: IntArray,
    top: IntArray,
    tops: IntArray,
) -> tuple[int, int, int, float, IntArray, IntArray]:
    """One dual change of the blossom algorithm; ``Y`` and ``z`` are updated in place.

    ``label`` holds the node labels (0 free, 1 ``+``, 2 ``-``), ``top`` the top-level node of
    each vertex and ``tops`` the alive top-level blossoms.  Returns ``(kind, u, v, δ, plus,
    free)``: the event (1 grow ``u``-``v``, 2 ``+``-``+`` edge ``u``-``v``, 3 expand blossom
    ``u``, 0 none), the dual change applied and the ``+`` and free vertices before it.

    Example:
        >>> cost = np.array([[np.inf, 1.0, 3.0], [1.0, np.inf, 2.0], [3.0, 2.0, np.inf]])
        >>> Y, z = np.zeros(3), np.zeros(6)
        >>> label = np.array([1, 0, 0, 0, 0, 0])
        >>> kind, u, v, delta, plus, free = blossom_step(
        ...     cost, Y, z, label, np.arange(3), np.zeros(0, dtype=np.int64)
        ... )
        >>> (int(kind), int(u), int(v), float(delta)), Y.tolist()
        ((1, 0, 1, 1.0), [1.0, 0.0, 0.0])
    """
    return _blossom_step_loop(cost, Y, z, label, top, tops)


@_jit
def _certificate_loop(
    cost: FloatArray,
    Y: FloatArray,
    z: FloatArray,
    nodes: IntArray,
    members: IntArray,
    offsets: IntArray,
) -> tuple[float, float]:
    k = Y.shape[0]
    reduced = np.empty((k, k))
    for i in range(k):
        for j in range(k):
            reduced[i, j] = (cost[i, j] - Y[i]) - Y[j]
    dual = 0.0
    for i in range(k):  # np.sum's pairwise order is not needed: the sum is only compared
        dual += Y[i]
    for t in range(nodes.shape[0]):
        inside = members[offsets[t] : offsets[t + 1]]
        extra = 2.0 * z[nodes[t]]
        for a in inside:
            for b in inside:
                reduced[a, b] += extra
        dual -= (inside.shape[0] - 1) * z[nodes[t]]
    worst = np.inf
    for i in range(k):
        for j in range(k):
            if reduced[i, j] < worst:
                worst = reduced[i, j]
    return dual, worst


def certificate_terms(
    cost: FloatArray,
    Y: FloatArray,
    z: FloatArray,
    nodes: IntArray,
    members: IntArray,
    offsets: IntArray,
) -> tuple[float, float]:
    """``(dual objective, smallest reduced cost)`` of a blossom algorithm state.

    ``nodes`` are the alive blossoms with ``z != 0``; blossom ``nodes[t]`` has the vertices
    ``members[offsets[t]:offsets[t + 1]]``.  The dual objective is
    ``Σ_v Y_v - Σ_B (|B| - 1) z_B``; the reduced cost of ``uv`` is
    ``w_uv - Y_u - Y_v + Σ_{B ∋ u, v} 2 z_B`` (``+inf`` on the diagonal of ``cost``).

    Example:
        >>> cost = np.array([[np.inf, 1.0], [1.0, np.inf]])
        >>> empty = np.zeros(0, dtype=np.int64)
        >>> certificate_terms(cost, np.full(2, 0.5), np.zeros(4), empty, empty, np.zeros(1, dtype=np.int64))
        (1.0, 0.0)
    """
    dual, worst = _certificate_loop(cost, Y, z, nodes, members, offsets)
    return float(dual), float(worst)


@_jit
def _split_cycle_cover_loop(
    out_weight: FloatArray, succ: IntArray
) -> tuple[IntArray, IntArray, IntArray]:
    k = succ.shape[0]
    seen = np.zeros(k, dtype=np.uint8)
    cycle = np.empty(k, dtype=np.int64)
    pairs = np.empty((k // 2, 2), dtype=np.int64)
    n_pairs = 0
    odd = np.empty(k, dtype=np.int64)  # the odd cycles, each from its left-out vertex
    offsets = np.zeros(k + 1, dtype=np.int64)
    n_odd = 0
    for start in range(k):
        if seen[start]:
            continue
        size = 0
        v = start
        while True:
            cycle[size] = v
            size += 1
            seen[v] = 1
            v = succ[v]
            if v == start:
                break
        if size == 2:
            pairs[n_pairs, 0] = min(cycle[0], cycle[1])
            pairs[n_pairs, 1] = max(cycle[0], cycle[1])
            n_pairs += 1
            continue
        if size % 2 == 0:
            even_sum = 0.0
            odd_sum = 0.0
            for i in range(0, size, 2):
                even_sum += out_weight[cycle[i]]
            for i in range(1, size, 2):
                odd_sum += out_weight[cycle[i]]
            shift = 0 if even_sum <= odd_sum else 1
            for i in range(shift, size, 2):
                a, b = cycle[i], cycle[(i + 1) % size]
                pairs[n_pairs, 0] = min(a, b)
                pairs[n_pairs, 1] = max(a, b)
                n_pairs += 1
            continue
        left = 0
        best = np.inf
        for o in range(size):  # leaving out cycle[o]: edges from o + 1, o + 3, ..., o + size - 2
            total = 0.0
            for step in range(1, size - 1, 2):
                total += out_weight[cycle[(o + step) % size]]
            if total < best:
                best, left = total, o
        for step in range(1, size - 1, 2):
            i = (left + step) % size
            a, b = cycle[i], cycle[(i + 1) % size]
            pairs[n_pairs, 0] = min(a, b)
            pairs[n_pairs, 1] = max(a, b)
            n_pairs += 1
        base = offsets[n_odd]
        for i in range(size):
            odd[base + i] = cycle[(left + i) % size]
        offsets[n_odd + 1] = base + size
        n_odd += 1
    return pairs[:n_pairs], odd[: offsets[n_odd]], offsets[: n_odd + 1]


def split_cycle_cover(
    out_weight: FloatArray, succ: IntArray
) -> tuple[IntArray, IntArray, IntArray]:
    """Matched pairs of a cycle cover and its odd cycles (``_split_cycle_cover``).

    ``succ`` is the cover (``v -> succ[v]``), ``out_weight[v] = w(v, succ[v])``.  Returns the
    pairs ``(p, 2)`` (``i < j``), and the odd cycles concatenated, each starting at its
    left-out vertex, with their ``offsets`` (cycles in the order of their smallest vertex).

    Example:
        >>> succ = np.array([1, 2, 0, 4, 3])  # a triangle and a 2-cycle
        >>> pairs, odd, offsets = split_cycle_cover(np.array([1.0, 2.0, 3.0, 1.0, 1.0]), succ)
        >>> pairs.tolist(), odd.tolist(), offsets.tolist()
        ([[0, 1], [3, 4]], [2, 0, 1], [0, 3])
    """
    return _split_cycle_cover_loop(out_weight, succ)
