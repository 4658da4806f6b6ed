"""Exact minimum-weight perfect matching on a complete graph (the parity step of the repair).

Part of :mod:`reference.tsp`.  The spec (10, §3.1 step 3) names
``networkx.min_weight_matching`` (Edmonds' blossom algorithm); networkx is not a runtime
dependency, so we solve the same problem exactly with scipy:

1. **Assignment certificate.**  Solve the assignment problem on the ``k x k`` weight matrix
   with a forbidden diagonal (``scipy.optimize.linear_sum_assignment``).  Its optimum ``A`` is
   a minimum-cost cycle cover and ``A <= 2·w(M)`` for every perfect matching ``M`` (a matching
   is a cover by 2-cycles).  If every cycle of the cover has even length, taking the lighter
   of the two alternating edge sets of each cycle gives a perfect matching of weight
   ``<= A / 2``: it is optimal.  Exact (combinatorial; no tolerance).
2. **Odd cycle, small k** (``k <= ENUMERATION_MAX_K``): enumerate all ``(k-1)!!`` matchings.
3. **Odd cycle, larger k**: reduced-cost fixing, then an integer program.  Dual potentials
   ``(u, v)`` of the assignment (Bellman-Ford on the difference constraints
   ``v_j <= v_σ(i) + c_ij - c_iσ(i)``) give ``y = (u + v)/2``, a feasible dual of the
   fractional matching LP: ``y_a + y_b <= w_ab`` and ``Σ y = A/2 =: LB``.  For every perfect
   matching ``w(M) = LB + Σ_{e ∈ M} r_e`` with reduced costs ``r_ab = w_ab - y_a - y_b >= 0``.
   An incumbent ``U`` (the cycle cover with one vertex per odd cycle left out, leftovers
   matched greedily, improved by best two-edge exchanges) bounds the optimum, so an edge with
   ``r_e > U - LB`` is in no matching of weight ``<= U``: it is dropped (safety margin
   ``FIXING_RTOL·max(1, max w)`` for rounding).  The matching integer program
   ``min Σ w_e x_e`` s.t. ``Σ_{e ∋ v} x_e = 1``, ``x ∈ {0, 1}`` is solved on the surviving
   edges by HiGHS branch and bound (``scipy.optimize.milp``, relative gap 0; rerun without
   presolve if HiGHS reports a solve error, which its presolve occasionally does).  Its costs are
   rescaled to a maximum of 1e6, so HiGHS' absolute gap (1e-6) is at most 1e-12 of the
   largest weight: that is the error budget of this stage.

Tie-breaking: deterministic for a given input, but among several minimum-weight matchings no
particular one is promised.  Cross-checked against ``networkx.min_weight_matching`` and
enumeration in ``tests/test_reference_tsp.py``.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, linear_sum_assignment, milp
from scipy.sparse import csr_matrix

from reference._arrays import FloatArray, IntArray

__all__ = ["ENUMERATION_MAX_K", "FIXING_RTOL", "MIP_COST_SCALE", "min_weight_perfect_matching"]

#: The integer program's costs are rescaled so that the largest weight equals this value.
MIP_COST_SCALE = 1e6
#: Safety margin of the reduced-cost fixing, relative to ``max(1, max w)``.
FIXING_RTOL = 1e-9
#: Largest vertex count solved by enumerating all (k-1)!! perfect matchings (945 for 10).
ENUMERATION_MAX_K = 10


def min_weight_perfect_matching(w: FloatArray) -> IntArray:
    """Minimum-weight perfect matching of the complete graph with weights ``w`` (``k`` even).

    Internal helper: ``w`` must be a symmetric, finite, non-negative ``(k, k)`` float64 matrix
    with ``k`` even (callers validate).  Returns a ``(k/2, 2)`` array of local index pairs
    ``(i, j)`` with ``i < j``, rows sorted.

    Complexity: one ``O(k³)`` assignment; with odd cycles also ``O(k²)`` per Bellman-Ford
    round (at most ``k`` rounds) and an integer program on the edges that survive the
    reduced-cost fixing (exponential in the worst case, small in practice).

    Example:
        >>> w = np.array([[0, 1, 5, 5], [1, 0, 5, 5], [5, 5, 0, 1], [5, 5, 1, 0]], float)
        >>> min_weight_perfect_matching(w).tolist()
        [[0, 1], [2, 3]]
    """
    k = w.shape[0]
    if k == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if k == 2:
        return np.array([[0, 1]], dtype=np.int64)
    cost = w.copy()
    np.fill_diagonal(cost, np.inf)
    rows, cols = linear_sum_assignment(cost)
    succ = np.empty(k, dtype=np.int64)
    succ[rows] = cols
    pairs, leftovers = _split_cycle_cover(w, succ)
    if leftovers:
        if k <= ENUMERATION_MAX_K:
            pairs = _enumerate(w)
        else:
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


def _enumerate(w: FloatArray) -> list[tuple[int, int]]:
    """Exact by enumeration (small ``k``): the lightest matching, ties: lexicographically first."""
    table = _all_matchings(w.shape[0])
    weights = np.sum(w[table[:, :, 0], table[:, :, 1]], axis=1)
    best = table[int(np.argmin(weights))]
    return [(int(a), int(b)) for a, b in best.tolist()]


def _cycles(succ: IntArray) -> list[list[int]]:
    k = succ.shape[0]
    seen = np.zeros(k, dtype=bool)
    out: list[list[int]] = []
    for start in range(k):
        if seen[start]:
            continue
        cycle = [start]
        seen[start] = True
        v = int(succ[start])
        while v != start:
            cycle.append(v)
            seen[v] = True
            v = int(succ[v])
        out.append(cycle)
    return out


def _split_cycle_cover(w: FloatArray, succ: IntArray) -> tuple[list[tuple[int, int]], list[int]]:
    """Matching edges from the cycle cover; one vertex per odd cycle is left over.

    Even cycle: the lighter of its two alternating edge sets.  Odd cycle ``v_0 … v_{L-1}``:
    for each choice of the left-out vertex the rest is a path with one perfect matching;
    take the lightest (ties: first).
    """
    pairs: list[tuple[int, int]] = []
    leftovers: list[int] = []
    for cycle in _cycles(succ):
        size = len(cycle)
        options: list[tuple[float, list[tuple[int, int]], int]] = []
        if size % 2 == 0:
            for shift in (0, 1):
                chosen = [
                    (cycle[(i + shift) % size], cycle[(i + shift + 1) % size])
                    for i in range(0, size, 2)
                ]
                options.append((sum(float(w[a, b]) for a, b in chosen), chosen, -1))
        else:
            for out in range(size):
                path = [cycle[(out + 1 + i) % size] for i in range(size - 1)]
                chosen = [(path[i], path[i + 1]) for i in range(0, size - 1, 2)]
                options.append((sum(float(w[a, b]) for a, b in chosen), chosen, cycle[out]))
        _, chosen, left = min(options, key=lambda item: item[0])
        pairs.extend((min(a, b), max(a, b)) for a, b in chosen)
        if left >= 0:
            leftovers.append(left)
    return pairs, leftovers


def _potentials(cost: FloatArray, succ: IntArray) -> FloatArray:
    """Column potentials ``v`` with ``v_j <= v_σ(i) + c_ij - c_iσ(i)`` (Bellman-Ford from 0)."""
    k = cost.shape[0]
    rows = np.arange(k)
    slack = cost - cost[rows, succ][:, None]  # row i: edge σ(i) -> j
    v = np.zeros(k)
    for _ in range(k + 1):
        candidate = np.min(v[succ][:, None] + slack, axis=0)
        if bool(np.all(candidate >= v)):
            break
        v = np.minimum(v, candidate)
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
