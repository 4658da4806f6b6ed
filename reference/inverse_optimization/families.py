"""M-convex action sets with exact oracles (spec 18 §3.4), re-exported by
:mod:`reference.inverse_optimization`.

An M-convex set ``X ⊂ Z^d`` (Murota; spec 18 Def. 2.3) is non-empty, finite, and for all
``x, y ∈ X`` and ``i`` with ``x(i) > y(i)`` there is ``j`` with ``x(j) < y(j)``,
``x - e_i + e_j ∈ X`` and ``y + e_i - e_j ∈ X``.  Every family here provides

* ``argmax(w)``: a maximizer of ``⟨w, x⟩`` by the greedy algorithm (exact), ties broken by
  the smaller coordinate index (our default);
* ``contains(x)``; ``exchange_arcs(x)``: ``E(X, x) = {(i, j) : i != j, x - e_i + e_j ∈ X}``
  (arc ``(i, j)`` reads "coordinate ``i`` is worth at least coordinate ``j``");
* ``enumerate()``: all points (small instances only);
* ``d``: the dimension.

References:
    T. Oki, S. Sakaue, "Finite and Corruption-Robust Regret Bounds in Online Inverse Linear
    Optimization under M-Convex Action Sets", ICML 2026, arXiv:2602.01682 (spec 18 §3.4);
    K. Murota, *Discrete Convex Analysis*, SIAM 2003 (M-convex sets, Thm 6.26).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import FloatArray, IntArray, as_float_array, require_int
from reference._repr import summary_repr

__all__ = [
    "BoxSum",
    "GraphicMatroid",
    "MConvexFamily",
    "PartitionMatroid",
    "TwoPointSet",
    "UniformMatroid",
    "as_weight",
    "box_sum",
    "brute_force_arcs",
    "graphic_matroid",
    "is_m_convex",
    "partition_matroid",
    "two_point_set",
    "uniform_matroid",
]

Arc = tuple[int, int]


class MConvexFamily(Protocol):
    """The oracles an M-convex action set provides (spec 18 §3.4)."""

    @property
    def d(self) -> int:
        """Dimension of the ambient space ``Z^d``."""
        ...

    def argmax(self, w: ArrayLike) -> IntArray:
        """A maximizer of ``⟨w, x⟩`` over the set (greedy, ties by smaller index)."""
        ...

    def contains(self, x: ArrayLike) -> bool:
        """Membership test."""
        ...

    def exchange_arcs(self, x: ArrayLike) -> frozenset[Arc]:
        """``{(i, j) : i != j, x - e_i + e_j ∈ X}`` for ``x`` in the set."""
        ...

    def enumerate(self) -> list[IntArray]:
        """All points of the set (small instances)."""
        ...


def as_weight(w: object, d: int) -> FloatArray:
    """Validate a weight vector ``w`` of length ``d`` (finite floats).

    Raises:
        TypeError: non-numeric input.
        ValueError: wrong shape, empty, or non-finite.
    """
    return as_float_array("w", w, shape=(d,))


def _order(w: FloatArray, items: Sequence[int]) -> list[int]:
    """``items`` by decreasing ``w``, ties by smaller index."""
    return sorted(items, key=lambda i: (-w[i], i))


def _as_point(x: object, d: int) -> IntArray | None:
    """``x`` as an integer vector of length ``d``, or ``None`` if it is not one."""
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError):
        return None
    if arr.shape != (d,) or arr.dtype.kind not in "biuf":
        return None
    if arr.dtype.kind == "f" and not bool(np.all(np.isfinite(arr) & (arr == np.round(arr)))):
        return None
    return arr.astype(np.int64)


def _require_member(family: MConvexFamily, x: object) -> IntArray:
    point = _as_point(x, family.d)
    if point is None:
        raise ValueError(
            f"x: expected an integer vector of length {family.d}, got {np.asarray(x).tolist()!r}"
        )
    if not family.contains(point):
        raise ValueError(f"x: expected a member of the action set, got {point.tolist()}")
    return point


def _ground(name: str, ground: Iterable[object], d: int) -> tuple[int, ...]:
    items = tuple(require_int(name, g, minimum=0, maximum=d - 1) for g in ground)
    if len(set(items)) != len(items):
        raise ValueError(f"{name}: expected distinct coordinates, got {list(items)}")
    return items


# ----------------------------------------------------------------------------- two-point sets
@dataclass(frozen=True, slots=True, kw_only=True)
class TwoPointSet:
    """``X = {e_i, e_j}`` (``i != j``): the simplest M-convex set.

    Attributes:
        dim: ``d``.
        i: first coordinate.
        j: second coordinate.
    """

    dim: int
    i: int
    j: int

    @property
    def d(self) -> int:
        """Dimension."""
        return self.dim

    def argmax(self, w: ArrayLike) -> IntArray:
        """``e_i`` if ``w(i) >= w(j)`` (ties: smaller index), else ``e_j``."""
        ww = as_weight(w, self.dim)
        first, _ = _order(ww, (self.i, self.j))
        x = np.zeros(self.dim, dtype=np.int64)
        x[first] = 1
        return x

    def contains(self, x: ArrayLike) -> bool:
        """``x ∈ {e_i, e_j}``."""
        point = _as_point(x, self.dim)
        if point is None:
            return False
        return any(np.array_equal(point, e) for e in self.enumerate())

    def exchange_arcs(self, x: ArrayLike) -> frozenset[Arc]:
        """``E(X, e_i) = {(i, j)}``, ``E(X, e_j) = {(j, i)}``."""
        point = _require_member(self, x)
        return frozenset({(self.i, self.j)} if point[self.i] == 1 else {(self.j, self.i)})

    def enumerate(self) -> list[IntArray]:
        """``[e_i, e_j]``."""
        eye = np.eye(self.dim, dtype=np.int64)
        return [eye[self.i], eye[self.j]]


def two_point_set(d: int, i: int, j: int) -> TwoPointSet:
    """The M-convex set ``{e_i, e_j}`` in ``Z^d``.

    Raises:
        TypeError: non-integer arguments.
        ValueError: ``d < 2``, indices out of range or equal.

    Example:
        >>> two_point_set(3, 0, 2).argmax([1.0, 5.0, 2.0]).tolist()
        [0, 0, 1]
    """
    dim = require_int("d", d, minimum=2)
    a = require_int("i", i, minimum=0, maximum=dim - 1)
    b = require_int("j", j, minimum=0, maximum=dim - 1)
    if a == b:
        raise ValueError(f"j: expected a coordinate different from i = {a}, got {b}")
    return TwoPointSet(dim=dim, i=a, j=b)


# ----------------------------------------------------------------------------- uniform matroids
@dataclass(frozen=True, slots=True, kw_only=True)
class UniformMatroid:
    """Bases of the uniform matroid of rank ``k`` on ``ground ⊆ [d]`` (0/1 vectors with
    exactly ``k`` ones, all inside ``ground``).

    Attributes:
        dim: ``d``.
        ground: the ground set ``S`` (sorted coordinates).
        k: the rank, ``1 <= k <= |S|``.
    """

    dim: int
    ground: tuple[int, ...]
    k: int

    @property
    def d(self) -> int:
        """Dimension."""
        return self.dim

    def argmax(self, w: ArrayLike) -> IntArray:
        """Top-``k`` of ``w`` on ``S`` (ties: smaller index)."""
        ww = as_weight(w, self.dim)
        x = np.zeros(self.dim, dtype=np.int64)
        x[_order(ww, self.ground)[: self.k]] = 1
        return x

    def contains(self, x: ArrayLike) -> bool:
        """0/1, support inside ``S``, exactly ``k`` ones."""
        point = _as_point(x, self.dim)
        if point is None or not bool(np.all((point == 0) | (point == 1))):
            return False
        outside = np.ones(self.dim, dtype=bool)
        outside[list(self.ground)] = False
        return int(point.sum()) == self.k and not bool(np.any(point[outside]))

    def exchange_arcs(self, x: ArrayLike) -> frozenset[Arc]:
        """``{(i, j) : x_i = 1, x_j = 0, j ∈ S}``."""
        point = _require_member(self, x)
        ones = [i for i in self.ground if point[i] == 1]
        zeros = [j for j in self.ground if point[j] == 0]
        return frozenset((i, j) for i in ones for j in zeros)

    def enumerate(self) -> list[IntArray]:
        """All ``C(|S|, k)`` bases."""
        out = []
        for subset in itertools.combinations(self.ground, self.k):
            x = np.zeros(self.dim, dtype=np.int64)
            x[list(subset)] = 1
            out.append(x)
        return out


def uniform_matroid(d: int, k: int, ground: Sequence[int] | None = None) -> UniformMatroid:
    """Bases of the rank-``k`` uniform matroid on ``ground`` (default: all of ``[d]``).

    Raises:
        TypeError: non-integer arguments.
        ValueError: ``d < 1``; ``k`` not in ``1..|ground|``; ground out of range or repeated.

    Example:
        >>> uniform_matroid(4, 2).argmax([0.1, 0.9, 0.5, 0.2]).tolist()
        [0, 1, 1, 0]
    """
    dim = require_int("d", d, minimum=1)
    items = _ground("ground", range(dim) if ground is None else ground, dim)
    if not items:
        raise ValueError("ground: expected at least one coordinate, got none")
    rank = require_int("k", k, minimum=1, maximum=len(items))
    return UniformMatroid(dim=dim, ground=tuple(sorted(items)), k=rank)


# ----------------------------------------------------------------------------- partition matroids
@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionMatroid:
    """Bases of a partition matroid: exactly ``k_g`` coordinates from each group ``G_g``.

    Attributes:
        dim: ``d``.
        groups: disjoint groups of coordinates.
        capacities: ``1 <= k_g <= |G_g|``.
    """

    dim: int
    groups: tuple[tuple[int, ...], ...]
    capacities: tuple[int, ...]

    @property
    def d(self) -> int:
        """Dimension."""
        return self.dim

    def argmax(self, w: ArrayLike) -> IntArray:
        """Top-``k_g`` of ``w`` in each group (ties: smaller index)."""
        ww = as_weight(w, self.dim)
        x = np.zeros(self.dim, dtype=np.int64)
        for group, cap in zip(self.groups, self.capacities, strict=True):
            x[_order(ww, group)[:cap]] = 1
        return x

    def contains(self, x: ArrayLike) -> bool:
        """0/1, support inside the groups, ``k_g`` ones per group."""
        point = _as_point(x, self.dim)
        if point is None or not bool(np.all((point == 0) | (point == 1))):
            return False
        used = [i for g in self.groups for i in g]
        outside = np.ones(self.dim, dtype=bool)
        outside[used] = False
        if bool(np.any(point[outside])):
            return False
        return all(
            int(point[list(g)].sum()) == cap
            for g, cap in zip(self.groups, self.capacities, strict=True)
        )

    def exchange_arcs(self, x: ArrayLike) -> frozenset[Arc]:
        """Arcs ``(i, j)`` with ``x_i = 1``, ``x_j = 0`` in the same group."""
        point = _require_member(self, x)
        arcs: set[Arc] = set()
        for group in self.groups:
            ones = [i for i in group if point[i] == 1]
            zeros = [j for j in group if point[j] == 0]
            arcs.update((i, j) for i in ones for j in zeros)
        return frozenset(arcs)

    def enumerate(self) -> list[IntArray]:
        """All bases (product of the groups' choices)."""
        choices = [
            list(itertools.combinations(g, c))
            for g, c in zip(self.groups, self.capacities, strict=True)
        ]
        out = []
        for combo in itertools.product(*choices):
            x = np.zeros(self.dim, dtype=np.int64)
            for part in combo:
                x[list(part)] = 1
            out.append(x)
        return out


def partition_matroid(
    d: int, groups: Sequence[Sequence[int]], capacities: Sequence[int]
) -> PartitionMatroid:
    """Bases of the partition matroid with the given groups and capacities.

    Raises:
        TypeError: non-integer arguments.
        ValueError: ``d < 1``; no groups; overlapping or out-of-range groups; a capacity not in
            ``1..|G_g|``; ``len(capacities) != len(groups)``.

    Example:
        >>> partition_matroid(4, [[0, 1], [2, 3]], [1, 1]).argmax([1, 2, 4, 3]).tolist()
        [0, 1, 1, 0]
    """
    dim = require_int("d", d, minimum=1)
    if len(groups) == 0:
        raise ValueError("groups: expected at least one group, got none")
    if len(capacities) != len(groups):
        raise ValueError(
            f"capacities: expected one capacity per group ({len(groups)}), got {len(capacities)}"
        )
    parsed = tuple(tuple(sorted(_ground("groups", g, dim))) for g in groups)
    flat = [i for g in parsed for i in g]
    if len(set(flat)) != len(flat):
        raise ValueError(f"groups: expected disjoint groups, got {[list(g) for g in parsed]}")
    caps = []
    for g, c in zip(parsed, capacities, strict=True):
        if not g:
            raise ValueError("groups: expected non-empty groups")
        caps.append(require_int("capacities", c, minimum=1, maximum=len(g)))
    return PartitionMatroid(dim=dim, groups=parsed, capacities=tuple(caps))


# ----------------------------------------------------------------------------- graphic matroids
def _find(parent: list[int], a: int) -> int:
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


@dataclass(frozen=True, slots=True, kw_only=True)
class GraphicMatroid:
    """Spanning trees of a connected multigraph; coordinate ``e`` = edge ``e``.

    Attributes:
        edges: ``((u, v), ...)``, one per coordinate (parallel edges and loops allowed).
        nodes: number of nodes (``1 + max endpoint``).
    """

    edges: tuple[tuple[int, int], ...]
    nodes: int

    @property
    def d(self) -> int:
        """Dimension = number of edges."""
        return len(self.edges)

    def argmax(self, w: ArrayLike) -> IntArray:
        """Kruskal on edges by decreasing ``w`` (ties: smaller index)."""
        ww = as_weight(w, self.d)
        parent = list(range(self.nodes))
        x = np.zeros(self.d, dtype=np.int64)
        for e in _order(ww, range(self.d)):
            u, v = self.edges[e]
            ru, rv = _find(parent, u), _find(parent, v)
            if ru != rv:
                parent[ru] = rv
                x[e] = 1
        return x

    def contains(self, x: ArrayLike) -> bool:
        """``x`` is the indicator of a spanning tree (``nodes - 1`` edges, acyclic)."""
        point = _as_point(x, self.d)
        if point is None or not bool(np.all((point == 0) | (point == 1))):
            return False
        if int(point.sum()) != self.nodes - 1:
            return False
        parent = list(range(self.nodes))
        for e in np.flatnonzero(point):
            u, v = self.edges[int(e)]
            ru, rv = _find(parent, u), _find(parent, v)
            if ru == rv:
                return False
            parent[ru] = rv
        return True

    def _tree_path(self, tree: list[int], start: int, goal: int) -> list[int]:
        adjacency: dict[int, list[tuple[int, int]]] = {n: [] for n in range(self.nodes)}
        for e in tree:
            u, v = self.edges[e]
            adjacency[u].append((v, e))
            adjacency[v].append((u, e))
        previous: dict[int, tuple[int, int] | None] = {start: None}
        stack = [start]
        while stack:
            node = stack.pop()
            for nxt, e in adjacency[node]:
                if nxt not in previous:
                    previous[nxt] = (node, e)
                    stack.append(nxt)
        path = []
        node = goal
        while previous[node] is not None:
            back = previous[node]
            assert back is not None
            node, e = back
            path.append(e)
        return path

    def exchange_arcs(self, x: ArrayLike) -> frozenset[Arc]:
        """``(i, j)`` for each non-tree edge ``j`` and tree edge ``i`` on its fundamental cycle."""
        point = _require_member(self, x)
        tree = [int(e) for e in np.flatnonzero(point)]
        arcs: set[Arc] = set()
        for j in np.flatnonzero(point == 0):
            u, v = self.edges[int(j)]
            if u == v:
                continue  # a loop is in no spanning tree
            arcs.update((i, int(j)) for i in self._tree_path(tree, u, v))
        return frozenset(arcs)

    def enumerate(self) -> list[IntArray]:
        """All spanning trees (brute force over edge subsets of size ``nodes - 1``)."""
        out = []
        for subset in itertools.combinations(range(self.d), self.nodes - 1):
            x = np.zeros(self.d, dtype=np.int64)
            x[list(subset)] = 1
            if self.contains(x):
                out.append(x)
        return out


def graphic_matroid(edges: Sequence[Sequence[int]]) -> GraphicMatroid:
    """Spanning trees of the connected multigraph with the given edge list.

    Args:
        edges: ``(d, 2)`` node pairs (non-negative integers); nodes are ``0..max``.

    Raises:
        TypeError: non-integer endpoints.
        ValueError: no edges, bad shape, negative nodes, or a disconnected graph.

    Example:
        >>> g = graphic_matroid([(0, 1), (1, 2), (0, 2)])
        >>> g.argmax([3.0, 1.0, 2.0]).tolist(), sorted(g.exchange_arcs([1, 0, 1]))
        ([1, 0, 1], [(0, 1), (2, 1)])
    """
    arr = as_float_array("edges", edges, ndim=2)
    if arr.shape[1] != 2:
        raise ValueError(f"edges: expected shape (d, 2), got {arr.shape}")
    if not bool(np.all(arr == np.round(arr))) or float(np.min(arr)) < 0:
        raise ValueError("edges: expected non-negative integer node labels")
    pairs = tuple((int(u), int(v)) for u, v in arr)
    nodes = 1 + max(max(p) for p in pairs)
    if nodes > len(pairs) + 1:  # a connected graph on N nodes has >= N - 1 edges
        raise ValueError(f"edges: expected a connected graph on nodes 0..{nodes - 1}")
    parent = list(range(nodes))
    for u, v in pairs:
        parent[_find(parent, u)] = _find(parent, v)
    if len({_find(parent, n) for n in range(nodes)}) != 1:
        raise ValueError(f"edges: expected a connected graph on nodes 0..{nodes - 1}")
    return GraphicMatroid(edges=pairs, nodes=nodes)


# ----------------------------------------------------------------------------- box with sum
@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class BoxSum:
    """``X = {x ∈ Z^d : l <= x <= u, Σx = k}`` (``Σl <= k <= Σu``), e.g. ``k·Δ``.

    Attributes:
        lower: ``l``, ``(d,)`` int64, read-only.
        upper: ``u``, ``(d,)`` int64, read-only.
        k: the coordinate sum.
    """

    lower: IntArray
    upper: IntArray
    k: int

    @property
    def d(self) -> int:
        """Dimension."""
        return int(self.lower.size)

    def argmax(self, w: ArrayLike) -> IntArray:
        """Start at ``l``; raise coordinates by decreasing ``w`` (ties: smaller index)."""
        ww = as_weight(w, self.d)
        x = self.lower.copy()
        remaining = self.k - int(self.lower.sum())
        for i in _order(ww, range(self.d)):
            step = min(int(self.upper[i] - x[i]), remaining)
            x[i] += step
            remaining -= step
        return x

    def contains(self, x: ArrayLike) -> bool:
        """Integer, inside the box, sum ``k``."""
        point = _as_point(x, self.d)
        if point is None:
            return False
        inside = bool(np.all(point >= self.lower) & np.all(point <= self.upper))
        return inside and int(point.sum()) == self.k

    def exchange_arcs(self, x: ArrayLike) -> frozenset[Arc]:
        """``(i, j)``, ``i != j``, with ``x_i > l_i`` and ``x_j < u_j``."""
        point = _require_member(self, x)
        down = np.flatnonzero(point > self.lower)
        up = np.flatnonzero(point < self.upper)
        return frozenset((int(i), int(j)) for i in down for j in up if i != j)

    def enumerate(self) -> list[IntArray]:
        """All points (product of the coordinate ranges, filtered by the sum)."""
        ranges = [range(int(a), int(b) + 1) for a, b in zip(self.lower, self.upper, strict=True)]
        return [np.array(p, dtype=np.int64) for p in itertools.product(*ranges) if sum(p) == self.k]


def box_sum(lower: ArrayLike, upper: ArrayLike, k: int) -> BoxSum:
    """The M-convex set ``{x ∈ Z^d : l <= x <= u, Σx = k}``.

    Raises:
        TypeError: non-numeric input.
        ValueError: shapes differ, non-integer or non-finite bounds, ``l > u``, or ``k``
            outside ``[Σl, Σu]``.

    Example:
        >>> box_sum([0, 0, 0], [2, 2, 2], 3).argmax([0.5, 0.9, 0.1]).tolist()
        [1, 2, 0]
    """
    low = as_float_array("lower", lower, ndim=1)
    up = as_float_array("upper", upper, shape=(low.size,))
    for name, arr in (("lower", low), ("upper", up)):
        if not bool(np.all(arr == np.round(arr))):
            raise ValueError(f"{name}: expected integer bounds, got {arr.tolist()}")
    if bool(np.any(low > up)):
        raise ValueError("upper: expected lower <= upper in every coordinate")
    total = require_int("k", k)
    if not int(low.sum()) <= total <= int(up.sum()):
        raise ValueError(
            f"k: expected an integer in [{int(low.sum())}, {int(up.sum())}], got {total}"
        )
    lo = low.astype(np.int64)
    hi = up.astype(np.int64)
    lo.setflags(write=False)
    hi.setflags(write=False)
    return BoxSum(lower=lo, upper=hi, k=total)


# ----------------------------------------------------------------------------- validators
def is_m_convex(points: ArrayLike) -> bool:
    """Brute-force test of the M-convex exchange axiom on a finite point set (``<= 300`` points).

    Args:
        points: ``(n, d)`` integer points (duplicates are ignored).

    Returns:
        True iff the set is non-empty and satisfies Def. 2.3.

    Raises:
        TypeError: non-numeric input.
        ValueError: not 2-D, empty, non-integer entries, or more than 300 points.

    Example:
        >>> is_m_convex([[1, 0], [0, 1]]), is_m_convex([[2, 0], [0, 2]])
        (True, False)
    """
    arr = as_float_array("points", points, ndim=2)
    if not bool(np.all(arr == np.round(arr))):
        raise ValueError("points: expected integer points")
    unique = {tuple(int(v) for v in row) for row in arr}
    if len(unique) > 300:
        raise ValueError(f"points: expected at most 300 points, got {len(unique)}")
    d = arr.shape[1]
    eye = np.eye(d, dtype=np.int64)
    for x_t in unique:
        for y_t in unique:
            x, y = np.array(x_t), np.array(y_t)
            for i in np.flatnonzero(x > y):
                ok = False
                for j in np.flatnonzero(x < y):
                    a = tuple(int(v) for v in x - eye[i] + eye[j])
                    b = tuple(int(v) for v in y + eye[i] - eye[j])
                    if a in unique and b in unique:
                        ok = True
                        break
                if not ok:
                    return False
    return True


def brute_force_arcs(points: Sequence[IntArray], x: IntArray) -> frozenset[Arc]:
    """``{(i, j) : i != j, x - e_i + e_j ∈ X}`` by enumeration (oracle for tests)."""
    members = {tuple(int(v) for v in p) for p in points}
    d = int(x.size)
    eye = np.eye(d, dtype=np.int64)
    return frozenset(
        (i, j)
        for i in range(d)
        for j in range(d)
        if i != j and tuple(int(v) for v in x - eye[i] + eye[j]) in members
    )
