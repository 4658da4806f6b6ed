"""Fast path of :mod:`reference.tsp.matching`: exact minimum-weight perfect matching.

Part of :mod:`reference.tsp` (used by :mod:`reference.tsp.fast`).  Same public name and
signature as the reference :func:`reference.tsp.matching.min_weight_perfect_matching` (an
integer program over the edge variables); the same matching whenever the optimum is unique.
The spec (10, §3.1 step 3) names ``networkx.min_weight_matching`` (Edmonds' blossom algorithm);
networkx is only an optional (dev) dependency, so we implement the same exact algorithm here,
warm-started so that it is fast on the matchings the repair produces:

1. **Assignment certificate.**  Solve the assignment problem on the ``k x k`` weight matrix
   with a forbidden diagonal (``scipy.optimize.linear_sum_assignment``).  Its optimum ``A`` is
   a minimum-cost cycle cover and ``A <= 2·w(M)`` for every perfect matching ``M`` (a matching
   is a cover by 2-cycles).  If every cycle of the cover has even length, taking the lighter
   of the two alternating edge sets of each cycle gives a perfect matching of weight
   ``<= A / 2``: it is optimal.  Exact (combinatorial; no tolerance).
2. **Odd cycles: Edmonds' primal-dual blossom algorithm** (minimum-weight perfect matching,
   J. Edmonds, "Maximum matching and a polyhedron with 0,1-vertices", J. Res. NBS 69B, 1965;
   the textbook form of Cook, Cunningham, Pulleyblank, Schrijver, *Combinatorial
   Optimization*, 1998, §5.3, several alternating trees with one common dual change ``δ``).
   Warm start: dual potentials ``(u, v)`` of the assignment (Bellman-Ford on the difference
   constraints ``v_j <= v_σ(i) + c_ij - c_iσ(i)``) give ``y = (u + v)/2``, feasible for the
   matching dual (``y_a + y_b <= w_ab``) with every cycle-cover edge tight; the cycle cover
   with one vertex per odd cycle left exposed is a matching of tight edges.  That is a valid
   start state of the blossom algorithm (no blossoms), so only ``(#odd cycles)/2``
   augmentations remain instead of ``k/2``.
3. **Certificate.**  On exit the primal weight ``w(M)`` and the dual objective
   ``Σ_v y_v + Σ_B z_B`` agree and all reduced costs are ``>= 0`` up to ``CERTIFICATE_RTOL·k``
   relative to ``max(1, max w)``; otherwise a ``RuntimeError`` is raised (a bug, never
   silently a heavier matching).  This is the error budget of the matching: rounding in the
   dual updates only (weights are never rescaled or rounded).

Why exactness matters: Lemma A (ii) of the spec needs ``w(M) <= w(J)`` for the unknown
``O``-join ``J = (H ∪ F) Δ T*``; only a minimum-weight matching is guaranteed to be that light,
so no approximate matching is used.

Tie-breaking: deterministic for a given input, but among several minimum-weight matchings no
particular one is promised.  Cross-checked against enumeration (:func:`matching_by_enumeration`),
the integer program :func:`matching_by_integer_program` (HiGHS, the previous stage of this
module, kept as an independent oracle) and ``networkx.min_weight_matching`` in
``tests/tsp/test_fast.py``, and against the reference integer program in
``tests/tsp/test_fast_vs_reference.py``.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import Bounds, LinearConstraint, linear_sum_assignment, milp
from scipy.sparse import csr_matrix

from reference._arrays import FloatArray, IntArray
from reference.tsp import fast_kernels
from reference.tsp.matching import as_matching_weights

__all__ = [
    "CERTIFICATE_RTOL",
    "ENUMERATION_MAX_K",
    "FIXING_RTOL",
    "MIP_COST_SCALE",
    "matching_by_enumeration",
    "matching_by_integer_program",
    "min_weight_perfect_matching",
]

#: Tolerance of the blossom algorithm's optimality certificate, per vertex, relative to
#: ``max(1, max w)`` (the check allows ``CERTIFICATE_RTOL·k·max(1, max w)``).
CERTIFICATE_RTOL = 1e-12
#: The integer program's costs are rescaled so that the largest weight equals this value.
MIP_COST_SCALE = 1e6
#: Safety margin of the reduced-cost fixing, relative to ``max(1, max w)``.
FIXING_RTOL = 1e-9
#: Largest vertex count accepted by :func:`matching_by_enumeration` ((k-1)!! = 945 for 10).
ENUMERATION_MAX_K = 10


def _assignment_start(
    w: FloatArray,
) -> tuple[FloatArray, IntArray, list[tuple[int, int]], list[int], list[list[int]]]:
    """Optimal assignment (2-factor relaxation, no self loops) split into matched pairs.

    Returns the cost matrix with an infinite diagonal, the successor array of the assignment,
    the pairs read off its cycles, one leftover vertex per odd cycle, and the odd cycles
    themselves in cycle order starting at their leftover vertex.
    """
    cost = w.copy()
    np.fill_diagonal(cost, np.inf)
    rows, cols = linear_sum_assignment(cost)
    succ = np.empty(w.shape[0], dtype=np.int64)
    succ[rows] = cols
    if fast_kernels.use_kernels():
        out_weight = w[np.arange(w.shape[0]), succ]
        matched, odd, offsets = fast_kernels.split_cycle_cover(out_weight, succ)
        bounds = offsets.tolist()
        odd_list = odd.tolist()
        odd_cycles = [odd_list[a:b] for a, b in itertools.pairwise(bounds)]
        pairs = [(int(a), int(b)) for a, b in matched.tolist()]
        return cost, succ, pairs, [c[0] for c in odd_cycles], odd_cycles
    pairs, leftovers, odd_cycles = _split_cycle_cover(w, succ)
    return cost, succ, pairs, leftovers, odd_cycles


def min_weight_perfect_matching(w: ArrayLike) -> IntArray:
    """Minimum-weight perfect matching of the complete graph with weights ``w`` (``k`` even).

    Args:
        w: ``(k, k)`` symmetric, finite, non-negative weights, ``k`` even (the diagonal is
            ignored).

    Returns:
        A ``(k/2, 2)`` array of vertex pairs ``(i, j)`` with ``i < j``, rows sorted.  Among
        several minimum-weight matchings no particular one is promised.

    Complexity: one ``O(k³)`` assignment and, with odd cycles, ``O(k)`` Bellman-Ford rounds of
    ``O(k²)`` plus the blossom algorithm: ``(#odd cycles)/2`` augmentations, each ``O(k)``
    events of ``O(k²)`` vectorised work (``O(k⁴)`` worst case in total, far less in practice).

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid weights.
        RuntimeError: the optimality certificate fails (a bug; never expected).

    Example:
        >>> w = np.array([[0, 1, 5, 5], [1, 0, 5, 5], [5, 5, 0, 1], [5, 5, 1, 0]], float)
        >>> min_weight_perfect_matching(w).tolist()
        [[0, 1], [2, 3]]
    """
    return _min_weight_perfect_matching(as_matching_weights("w", w))


def _min_weight_perfect_matching(w: FloatArray) -> IntArray:
    """:func:`min_weight_perfect_matching` on validated float64 weights (no checks)."""
    k = w.shape[0]
    if k == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if k == 2:
        return np.array([[0, 1]], dtype=np.int64)
    cost, succ, pairs, leftovers, odd_cycles = _assignment_start(w)
    if leftovers:
        v = _potentials(cost, succ)
        u = cost[np.arange(k), succ] - v[succ]
        mate = np.full(k, -1, dtype=np.int64)
        for a, b in pairs:
            mate[a], mate[b] = b, a
        pairs = _Blossom(w, mate, (u + v) / 2.0, odd_cycles).solve()
    return np.array(sorted(pairs), dtype=np.int64).reshape(-1, 2)


def matching_by_enumeration(w: FloatArray) -> IntArray:
    """Exact by enumerating all ``(k-1)!!`` perfect matchings (``k <= ENUMERATION_MAX_K``).

    Test oracle.  Ties: the lexicographically first lightest matching.

    Raises:
        ValueError: ``k`` odd or above :data:`ENUMERATION_MAX_K`.

    Example:
        >>> w = np.array([[0, 1, 5, 5], [1, 0, 5, 5], [5, 5, 0, 1], [5, 5, 1, 0]], float)
        >>> matching_by_enumeration(w).tolist()
        [[0, 1], [2, 3]]
    """
    k = w.shape[0]
    if k % 2 or k > ENUMERATION_MAX_K:
        raise ValueError(f"w: expected an even size <= {ENUMERATION_MAX_K}, got {k}")
    table = _all_matchings(k)
    if k == 0:
        return np.zeros((0, 2), dtype=np.int64)
    weights = np.sum(w[table[:, :, 0], table[:, :, 1]], axis=1)
    return np.array(table[int(np.argmin(weights))], dtype=np.int64)


def matching_by_integer_program(w: FloatArray) -> IntArray:
    """Exact by reduced-cost fixing and a HiGHS integer program (test oracle).

    The assignment duals ``y = (u + v)/2`` give ``LB = Σ y`` and reduced costs
    ``r_ab = w_ab - y_a - y_b >= 0`` with ``w(M) = LB + Σ_{e ∈ M} r_e``.  An incumbent ``U``
    (cycle cover, one vertex per odd cycle matched greedily, improved by two-edge exchanges)
    lets every edge with ``r_e > U - LB`` (plus ``FIXING_RTOL·max(1, max w)``) be dropped; the
    matching integer program on the rest is solved by ``scipy.optimize.milp`` (relative gap 0,
    costs rescaled to a maximum of ``MIP_COST_SCALE``: absolute error <= 1e-12 of ``max w``).

    Raises:
        RuntimeError: HiGHS fails (not expected: the incumbent is feasible).

    Example:
        >>> w = np.array([[0, 1, 5, 5], [1, 0, 5, 5], [5, 5, 0, 1], [5, 5, 1, 0]], float)
        >>> matching_by_integer_program(w).tolist()
        [[0, 1], [2, 3]]
    """
    k = w.shape[0]
    if k <= 2:
        return np.array([[0, 1]] if k == 2 else [], dtype=np.int64).reshape(-1, 2)
    cost, succ, pairs, leftovers, _ = _assignment_start(w)
    if leftovers:
        pairs = _fix_and_solve(w, cost, succ, pairs, leftovers)
    return np.array(sorted(pairs), dtype=np.int64).reshape(-1, 2)


@functools.cache
def _all_matchings(k: int) -> IntArray:
    """Every perfect matching of ``range(k)`` as a ``((k-1)!!, k/2, 2)`` array (lexicographic)."""
    if k == 0:
        return np.zeros((1, 0, 2), dtype=np.int64)
    out: list[list[tuple[int, int]]] = []

    def extend(rest: list[int], acc: list[tuple[int, int]]) -> None:
        if not rest:
            out.append(list(acc))
            return
        a = rest[0]
        for idx in range(1, len(rest)):
            extend(rest[1:idx] + rest[idx + 1 :], [*acc, (a, rest[idx])])

    extend(list(range(k)), [])
    return np.array(out, dtype=np.int64)


def _cycles(succ: IntArray) -> list[list[int]]:
    nxt = succ.tolist()
    seen = [False] * len(nxt)
    out: list[list[int]] = []
    for start in range(len(nxt)):
        if seen[start]:
            continue
        cycle = [start]
        seen[start] = True
        v = nxt[start]
        while v != start:
            cycle.append(v)
            seen[v] = True
            v = nxt[v]
        out.append(cycle)
    return out


def _split_cycle_cover(
    w: FloatArray, succ: IntArray
) -> tuple[list[tuple[int, int]], list[int], list[list[int]]]:
    """Matching edges from the cycle cover; one vertex per odd cycle is left over.

    Even cycle: the lighter of its two alternating edge sets (ties: the one with the first
    edge).  Odd cycle ``v_0 … v_{L-1}``: for each choice of the left-out vertex the rest is a
    path with one perfect matching; take the lightest (ties: first).  Also returns each odd
    cycle in cycle order starting at its left-out vertex.
    """
    out_weight = w[np.arange(w.shape[0]), succ]  # weight of the cover edge v -> succ(v)
    pairs: list[tuple[int, int]] = []
    leftovers: list[int] = []
    odd_cycles: list[list[int]] = []
    for cycle in _cycles(succ):
        size = len(cycle)
        if size == 2:
            pairs.append((min(cycle), max(cycle)))
            continue
        weights = out_weight[cycle]  # weights[i] = w(cycle[i], cycle[i + 1])
        if size % 2 == 0:
            shift = 0 if float(weights[0::2].sum()) <= float(weights[1::2].sum()) else 1
            pairs.extend(
                (min(cycle[i], cycle[(i + 1) % size]), max(cycle[i], cycle[(i + 1) % size]))
                for i in range(shift, size, 2)
            )
            continue
        # leaving out cycle[o] matches the edges that start at o + 1, o + 3, ..., o + L - 2
        starts = (np.arange(size)[:, None] + np.arange(1, size - 1, 2)[None, :]) % size
        left = int(np.argmin(weights[starts].sum(axis=1)))
        pairs.extend(
            (min(cycle[i], cycle[(i + 1) % size]), max(cycle[i], cycle[(i + 1) % size]))
            for i in starts[left].tolist()
        )
        leftovers.append(cycle[left])
        odd_cycles.append(cycle[left:] + cycle[:left])
    return pairs, leftovers, odd_cycles


def _potentials(cost: FloatArray, succ: IntArray) -> FloatArray:
    """Column potentials ``v`` with ``v_j <= v_σ(i) + c_ij - c_iσ(i)`` (Bellman-Ford from 0).

    Each round relaxes only the edges out of nodes whose potential dropped in the previous
    round (the first round relaxes all), which reaches the same fixed point.
    """
    k = cost.shape[0]
    rows = np.arange(k)
    slack = cost - cost[rows, succ][:, None]  # row i: edge σ(i) -> j
    row_of = np.empty(k, dtype=np.int64)
    row_of[succ] = rows  # the row whose edges leave node a is row_of[a]
    if fast_kernels.use_kernels():
        return fast_kernels.potentials(slack, succ, row_of)
    v = np.zeros(k)
    active = rows  # rows to relax: those whose tail node improved in the last round
    for _ in range(k + 1):  # no negative cycle (the assignment is optimal): <= k rounds
        candidate = np.min(v[succ[active]][:, None] + slack[active], axis=0)
        improved = np.flatnonzero(candidate < v)
        if improved.size == 0:
            break
        v[improved] = candidate[improved]
        active = row_of[improved]
    return v


def _improve(w: FloatArray, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Local search on a perfect matching: best exchange of two edges until none improves."""
    a = np.array([p[0] for p in pairs], dtype=np.int64)
    b = np.array([p[1] for p in pairs], dtype=np.int64)
    m = a.shape[0]
    current = w[a, b]
    for _ in range(10 * m):
        base = current[:, None] + current[None, :]
        cross = w[a[:, None], a[None, :]] + w[b[:, None], b[None, :]]  # (a_i a_j), (b_i b_j)
        twist = w[a[:, None], b[None, :]] + w[b[:, None], a[None, :]]  # (a_i b_j), (b_i a_j)
        gain_cross = np.triu(base - cross, 1)
        gain_twist = np.triu(base - twist, 1)
        best_cross = int(np.argmax(gain_cross))
        best_twist = int(np.argmax(gain_twist))
        g1 = float(gain_cross.flat[best_cross])
        g2 = float(gain_twist.flat[best_twist])
        if max(g1, g2) <= 0.0:
            break
        if g1 >= g2:
            i, j = divmod(best_cross, m)
            a[i], b[i], a[j], b[j] = a[i], a[j], b[i], b[j]
        else:
            i, j = divmod(best_twist, m)
            a[i], b[i], a[j], b[j] = a[i], b[j], b[i], a[j]
        current[i] = w[a[i], b[i]]
        current[j] = w[a[j], b[j]]
    return [(min(int(x), int(y)), max(int(x), int(y))) for x, y in zip(a, b, strict=True)]


class _Blossom:
    """Edmonds' blossom algorithm for a minimum-weight perfect matching, from a valid start.

    State (notation of Cook et al. §5.3): a matching ``mate`` of tight edges, vertex potentials
    and blossom duals ``z_B >= 0``, stored as ``Y_v = y_v + Σ_{B ∋ v} z_B`` so that the reduced
    cost of an edge between two different top-level nodes is ``w_uv - Y_u - Y_v``.  Node ids
    ``< k`` are vertices, ``>= k`` blossoms (children in cycle order, base child first;
    ``edges[i]`` joins ``children[i]`` to ``children[i + 1]`` as ``(vertex in i, vertex in
    i + 1)``; the edges at odd positions are matched).  Labels: 0 free, 1 outer (``+``),
    2 inner (``-``); ``labeledge[X] = (vertex in the parent, vertex in X)``.

    Each step takes the smallest of: ``δ1`` = reduced cost ``+``-free (grow), ``δ2`` = half
    the reduced cost ``+``-``+`` (shrink or augment), ``δ3`` = ``z_B`` of a ``-`` blossom
    (expand); moves the duals by ``max(δ, 0)`` (``+`` nodes up, ``-`` nodes down) and applies
    that event.
    """

    def __init__(
        self,
        w: FloatArray,
        mate: IntArray,
        y: FloatArray,
        cycles: list[list[int]] | None = None,
    ) -> None:
        k = w.shape[0]
        self.k = k
        self.w = w
        self.cost = w.copy()
        np.fill_diagonal(self.cost, np.inf)
        self.Y = y.astype(np.float64, copy=True)
        self.mate = mate.copy()
        size = 2 * k
        self.top = np.arange(k, dtype=np.int64)
        self.parent = np.full(size, -1, dtype=np.int64)
        self.base = np.full(size, -1, dtype=np.int64)
        self.base[:k] = np.arange(k)
        self.label = np.zeros(size, dtype=np.int8)
        self.labeledge: list[tuple[int, int] | None] = [None] * size
        self.z = np.zeros(size)
        self.alive = np.zeros(size, dtype=bool)
        self.children: dict[int, list[int]] = {}
        self.edges: dict[int, list[tuple[int, int]]] = {}
        self.members: dict[int, IntArray] = {}
        self.free_ids = list(range(size - 1, k - 1, -1))
        for cycle in cycles or []:
            if len(cycle) >= 3:
                self._cycle_blossom(cycle)
        self.tops = np.zeros(0, dtype=np.int64)  # alive top-level blossoms (cached)
        self._refresh_tops()

    def _refresh_tops(self) -> None:
        """Recompute the alive top-level blossoms (after a shrink or an expand)."""
        self.tops = np.flatnonzero(self.alive & (self.parent < 0))

    def _cycle_blossom(self, cycle: list[int]) -> None:
        """Start state: an odd cycle of tight edges around an exposed base ``cycle[0]`` whose
        other vertices are matched along it (``cycle[1]-cycle[2]``, ...) is a blossom with
        ``z = 0``; declaring it one at the start saves the steps that would shrink it."""
        node = self.free_ids.pop()
        size = len(cycle)
        self.children[node] = list(cycle)
        self.edges[node] = [(cycle[i], cycle[(i + 1) % size]) for i in range(size)]
        members = np.array(cycle, dtype=np.int64)
        self.members[node] = members
        self.parent[members] = node
        self.top[members] = node
        self.base[node] = cycle[0]
        self.alive[node] = True

    # ------------------------------------------------------------------------- helpers
    def _leaves(self, node: int) -> IntArray:
        return self.members[node] if node >= self.k else np.array([node], dtype=np.int64)

    def _child_of(self, blossom: int, vertex: int) -> int:
        node = vertex
        while int(self.parent[node]) != blossom:
            node = int(self.parent[node])
        return node

    def _path_to_root(self, node: int) -> list[int]:
        path = [node]
        edge = self.labeledge[node]
        while edge is not None:  # node is outer; edge = (vertex in its inner parent, base)
            inner = int(self.top[edge[0]])
            outer_edge = self.labeledge[inner]
            assert outer_edge is not None
            node = int(self.top[outer_edge[0]])
            path += [inner, node]
            edge = self.labeledge[node]
        return path

    # -------------------------------------------------------------------------- events
    def _grow(self, u: int, v: int) -> None:
        inner = int(self.top[v])
        self.label[inner] = 2
        self.labeledge[inner] = (u, v)
        b = int(self.base[inner])
        m = int(self.mate[b])
        outer = int(self.top[m])
        self.label[outer] = 1
        self.labeledge[outer] = (b, m)

    def _shrink(self, u: int, v: int, path_u: list[int], path_v: list[int]) -> None:
        common = set(path_v)
        stop = next(i for i, node in enumerate(path_u) if node in common)
        xs = path_u[: stop + 1]
        ys = path_v[: path_v.index(xs[-1]) + 1]
        children = xs[::-1] + ys[:-1]
        edges: list[tuple[int, int]] = []
        for i in range(len(xs) - 1, 0, -1):
            edge = self.labeledge[xs[i - 1]]
            assert edge is not None
            edges.append(edge)
        edges.append((u, v))
        for j in range(len(ys) - 1):
            edge = self.labeledge[ys[j]]
            assert edge is not None
            edges.append((edge[1], edge[0]))
        node = self.free_ids.pop()
        base_child = xs[-1]
        self.children[node] = children
        self.edges[node] = edges
        self.members[node] = np.concatenate([self._leaves(c) for c in children])
        for c in children:
            self.parent[c] = node
        self.top[self.members[node]] = node
        self.base[node] = self.base[base_child]
        self.label[node] = 1
        self.labeledge[node] = self.labeledge[base_child]
        self.z[node] = 0.0
        self.alive[node] = True
        self.parent[node] = -1
        self._refresh_tops()

    def _rotate(self, blossom: int, vertex: int) -> None:
        """Make ``vertex`` the base of ``blossom`` and re-match its children (recursive)."""
        child = self._child_of(blossom, vertex)
        if child >= self.k and int(self.base[child]) != vertex:
            self._rotate(child, vertex)
        children = self.children[blossom]
        edges = self.edges[blossom]
        size = len(children)
        i = children.index(child)
        for m in range((size - 1) // 2):
            idx = (i + 1 + 2 * m) % size
            a, b = edges[idx]
            self.mate[a], self.mate[b] = b, a
            ca, cb = children[idx], children[(idx + 1) % size]
            if ca >= self.k and int(self.base[ca]) != a:
                self._rotate(ca, a)
            if cb >= self.k and int(self.base[cb]) != b:
                self._rotate(cb, b)
        self.children[blossom] = children[i:] + children[:i]
        self.edges[blossom] = edges[i:] + edges[:i]
        self.base[blossom] = vertex

    def _augment(self, u: int, v: int) -> None:
        for node, x, partner in ((int(self.top[u]), u, v), (int(self.top[v]), v, u)):
            while True:
                if node >= self.k and int(self.base[node]) != x:
                    self._rotate(node, x)
                self.mate[x] = partner
                edge = self.labeledge[node]
                if edge is None:
                    break
                inner = int(self.top[edge[0]])
                inner_edge = self.labeledge[inner]
                assert inner_edge is not None
                p, q = inner_edge
                if inner >= self.k and int(self.base[inner]) != q:
                    self._rotate(inner, q)
                self.mate[q] = p
                node, x, partner = int(self.top[p]), p, q

    def _expand(self, blossom: int) -> None:
        entry = self.labeledge[blossom]
        assert entry is not None
        p, q = entry
        children = self.children.pop(blossom)
        edges = self.edges.pop(blossom)
        del self.members[blossom]
        size = len(children)
        j = children.index(self._child_of(blossom, q))
        for c in children:
            self.parent[c] = -1
            self.top[self._leaves(c)] = c
            self.label[c] = 0
            self.labeledge[c] = None
        self.label[children[j]] = 2
        self.labeledge[children[j]] = (p, q)
        step = -1 if j % 2 == 0 else 1
        prev = j
        for count in range(1, (j if step < 0 else size - j) + 1):
            cur = (prev + step) % size
            if step < 0:
                a, b = edges[cur]  # a in children[cur], b in children[prev]
                oriented = (b, a)
            else:
                oriented = edges[prev]  # (in prev, in cur)
            self.label[children[cur]] = 1 if count % 2 else 2
            self.labeledge[children[cur]] = oriented
            prev = cur
        self.alive[blossom] = False
        self.label[blossom] = 0
        self.labeledge[blossom] = None
        self.z[blossom] = 0.0
        self.base[blossom] = -1
        self.free_ids.append(blossom)
        self._refresh_tops()

    # ------------------------------------------------------------------------ main loop
    def solve(self) -> list[tuple[int, int]]:
        k = self.k
        cap = 50 * k * k + 100
        steps = 0
        while True:
            exposed = np.flatnonzero(self.mate < 0)
            if exposed.size == 0:
                break
            self.label[:] = 0
            self.labeledge = [None] * (2 * k)
            for v in exposed.tolist():
                self.label[self.top[v]] = 1
            while True:
                steps += 1
                if steps > cap:  # pragma: no cover - defensive
                    raise RuntimeError("blossom algorithm: step cap exceeded")
                if self._step():
                    break
        self._certify()
        return sorted(
            (min(a, int(self.mate[a])), max(a, int(self.mate[a])))
            for a in range(k)
            if a < int(self.mate[a])
        )

    def _step(self) -> bool:
        """One dual change and one event; ``True`` after an augmentation.

        The reduced costs of the ``+`` rows are formed once; the ``δ1`` and ``δ2`` candidates
        are their free and ``+`` columns, both in increasing vertex order, so the first
        minimum (row-major) is the same edge as on the full ``(+, all)`` block.  Pairs inside
        one top-level blossom are masked only when such a pair exists (otherwise the only
        ``+``-``+`` pairs with one top-level node are the diagonal, whose cost is ``+inf``).
        """
        if fast_kernels.use_kernels():
            return self._compiled_step()
        lab_v = self.label[self.top]
        plus = (lab_v == 1).nonzero()[0]
        free = (lab_v == 0).nonzero()[0]
        slack = self.cost.take(plus, axis=0)
        slack -= self.Y.take(plus)[:, None]
        slack -= self.Y
        best, kind, u, v = np.inf, 0, -1, -1
        s1 = slack.take(free, axis=1)
        if free.size:
            i1 = int(s1.argmin())
            value = float(s1.flat[i1])
            if value < best:
                row, col = divmod(i1, free.size)
                best, kind, u, v = value, 1, int(plus[row]), int(free[col])
        s2 = slack.take(plus, axis=1)
        tops = self.tops
        blossoms = tops.size > 0
        if blossoms:
            top_labels = self.label.take(tops)
            outer = tops[top_labels == 1]
            if outer.size:  # + vertices inside + blossoms: mask pairs within one blossom
                top_plus = self.top.take(plus)
                np.putmask(s2, top_plus[:, None] == top_plus, np.inf)
        i2 = int(s2.argmin())
        value = float(s2.flat[i2]) / 2.0
        if value < best:
            row, col = divmod(i2, plus.size)
            best, kind, u, v = value, 2, int(plus[row]), int(plus[col])
        inner = np.zeros(0, dtype=np.int64)
        if blossoms:
            inner = tops[top_labels == 2]
            if inner.size:
                inner_z = self.z.take(inner)
                i3 = int(inner_z.argmin())
                if float(inner_z[i3]) < best:
                    best, kind, u = float(inner_z[i3]), 3, int(inner[i3])
        if kind == 0:  # pragma: no cover - the complete graph always has a perfect matching
            raise RuntimeError("blossom algorithm: no perfect matching")
        delta = max(best, 0.0)
        if delta > 0.0:
            self.Y[plus] += delta
            self.Y[lab_v == 2] -= delta
            if blossoms:
                self.z[outer] += delta
                self.z[inner] -= delta
        tight: list[tuple[int, int]] | None = None
        if kind == 1 and delta == 0.0:
            rows, cols = np.nonzero(s1 <= 0.0)
            tight = list(zip(plus[rows].tolist(), free[cols].tolist(), strict=True))
        return self._apply_event(kind, u, v, tight)

    def _apply_event(self, kind: int, u: int, v: int, tight: list[tuple[int, int]] | None) -> bool:
        """The primal part of a step, after its dual change: expand (``kind`` 3), grow (1),
        augment or shrink (2); ``tight`` lists every tight ``+``-free pair ``(row, column)``
        of a zero-``δ`` grow, all grown in one step.  Whether the matching grew."""
        if kind == 3:
            self.z[u] = 0.0
            self._expand(u)
            return False
        if kind == 1:
            if tight is None:
                self._grow(u, v)
                return False
            for r, c in tight:
                if self.label[self.top[c]] == 0:
                    self._grow(r, c)
            return False
        path_u = self._path_to_root(int(self.top[u]))
        path_v = self._path_to_root(int(self.top[v]))
        if path_u[-1] != path_v[-1]:
            self._augment(u, v)
            return True
        self._shrink(u, v, path_u, path_v)
        return False

    def _compiled_step(self) -> bool:
        """:meth:`_step` with its dual part (labels, ``δ1`` / ``δ2`` / ``δ3``, dual change) and
        the tight ``+``-free pairs of a zero-``δ`` grow in :mod:`reference.tsp.fast_kernels`:
        the same arithmetic, the same first minima, hence the same events."""
        kind, u, v, delta, plus, free = fast_kernels._blossom_step_loop(
            self.cost, self.Y, self.z, self.label, self.top, self.tops
        )
        if kind == 0:  # pragma: no cover - the complete graph always has a perfect matching
            raise RuntimeError("blossom algorithm: no perfect matching")
        tight: list[tuple[int, int]] | None = None
        if kind == 1 and delta == 0.0:
            rows, cols = fast_kernels._tight_pairs_loop(self.cost, self.Y, plus, free)
            tight = list(zip(rows.tolist(), cols.tolist(), strict=True))
        return self._apply_event(int(kind), int(u), int(v), tight)

    def _certify(self) -> None:
        """Primal = dual and reduced costs >= 0 (up to ``CERTIFICATE_RTOL``), else raise."""
        k = self.k
        scale = max(1.0, float(self.w.max()))
        nodes = np.flatnonzero(self.alive & (self.z != 0.0))  # z = 0: no term
        if fast_kernels.use_kernels():
            inside_all = [self.members[node] for node in nodes.tolist()]
            sizes = [0, *(inside.shape[0] for inside in inside_all)]
            dual, worst = fast_kernels.certificate_terms(
                self.cost,
                self.Y,
                self.z,
                nodes.astype(np.int64),
                np.concatenate([np.zeros(0, dtype=np.int64), *inside_all]),
                np.cumsum(sizes).astype(np.int64),
            )
        else:
            reduced = self.cost - self.Y[:, None] - self.Y[None, :]
            dual = float(np.sum(self.Y))
            for node in nodes.tolist():
                inside = self.members[node]
                reduced[np.ix_(inside, inside)] += 2.0 * self.z[node]
                dual -= (inside.shape[0] - 1) * float(self.z[node])
            worst = float(np.min(reduced))
        primal = float(np.sum(self.w[np.arange(k), self.mate])) / 2.0
        z_min = float(np.min(self.z[self.alive])) if bool(self.alive.any()) else 0.0
        tol = CERTIFICATE_RTOL * scale * k
        if not (abs(primal - dual) <= tol and worst >= -tol and z_min >= -tol):
            raise RuntimeError(  # pragma: no cover - a bug, never expected
                f"blossom certificate failed: primal {primal!r}, dual {dual!r}, "
                f"min reduced cost {worst!r}, min z {z_min!r}"
            )


def _fix_and_solve(
    w: FloatArray,
    cost: FloatArray,
    succ: IntArray,
    pairs: list[tuple[int, int]],
    leftovers: list[int],
) -> list[tuple[int, int]]:
    k = w.shape[0]
    # incumbent: leftovers matched greedily, then improved by two-edge exchanges
    rest = sorted(leftovers)
    greedy = list(pairs)
    while rest:
        a = rest.pop(0)
        b = min(rest, key=lambda c: (float(w[a, c]), c))
        rest.remove(b)
        greedy.append((a, b))
    incumbent = _improve(w, greedy)
    upper = sum(float(w[a, b]) for a, b in incumbent)
    # reduced-cost fixing with the assignment duals
    v = _potentials(cost, succ)
    u = cost[np.arange(k), succ] - v[succ]
    y = (u + v) / 2.0
    lower = float(np.sum(y))
    iu, ju = np.triu_indices(k, 1)
    reduced = w[iu, ju] - y[iu] - y[ju]
    margin = FIXING_RTOL * max(1.0, float(w.max()))
    keep = reduced <= (upper - lower) + margin
    for a, b in incumbent:  # the incumbent always survives (defensive against rounding)
        keep[a * k - a * (a + 1) // 2 + (b - a - 1)] = True
    return _from_integer_program(w, iu[keep], ju[keep])


def _from_integer_program(w: FloatArray, iu: IntArray, ju: IntArray) -> list[tuple[int, int]]:
    k = w.shape[0]
    weights = w[iu, ju]
    top = float(weights.max()) if weights.size else 0.0
    cost = weights * (MIP_COST_SCALE / top) if top > 0.0 else weights
    m = iu.shape[0]
    edge_ids = np.arange(m)
    incidence = csr_matrix(
        (np.ones(2 * m), (np.concatenate([iu, ju]), np.concatenate([edge_ids, edge_ids]))),
        shape=(k, m),
    )
    result = None
    for presolve in (True, False):  # HiGHS' presolve occasionally ends in "Solve error"
        result = milp(
            cost,
            integrality=np.ones(m, dtype=np.int64),
            bounds=Bounds(0.0, 1.0),
            constraints=LinearConstraint(incidence, 1.0, 1.0),
            options={"mip_rel_gap": 0.0, "presolve": presolve},
        )
        if result.x is not None:
            break
    if result is None or result.x is None:  # pragma: no cover - the incumbent is feasible
        message = "no result" if result is None else result.message
        raise RuntimeError(f"matching integer program failed: {message}")
    chosen = np.flatnonzero(np.asarray(result.x) > 0.5)
    if chosen.shape[0] != k // 2:  # pragma: no cover - defensive
        raise RuntimeError("matching integer program returned a non-perfect matching")
    return [(int(iu[e]), int(ju[e])) for e in chosen]
