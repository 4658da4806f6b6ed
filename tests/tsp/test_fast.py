"""The tuned internals of the fast path (``reference.tsp.fast``, ``reference.tsp.fast_matching``).

The lazy Kruskal order, the radix-sorted half-edge stacks of the Euler circuit, the drawn-level
buckets, the shared nested repairs and the warm-started blossom matching, each against a
straightforward oracle.  The public functions are compared with the reference in
``test_fast_vs_reference.py``.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import tsp
from reference._arrays import FloatArray
from reference.tsp import decode, fast, matching
from reference.tsp.fast_matching import (
    _Blossom,
    matching_by_enumeration,
    matching_by_integer_program,
    min_weight_perfect_matching,
)
from reference.tsp.fast_repair import (
    _edges_by_draw,
    _euler_shortcut,
    _KruskalOrder,
    _pairs_by_weight,
)


def _euclid(n: int, seed: int) -> FloatArray:
    _, distances = tsp.euclidean_instance(n, rng=np.random.default_rng(seed))
    return distances


def _weight(w: FloatArray, pairs: Any) -> float:
    return float(sum(w[a, b] for a, b in np.asarray(pairs).reshape(-1, 2).tolist()))


@pytest.mark.parametrize("k", [12, 24, 40])
def test_matching_agrees_with_networkx(k: int) -> None:
    nx = pytest.importorskip("networkx")
    for seed in range(3):
        w = _euclid(k, seed)
        graph = nx.Graph()
        for i in range(k):
            for j in range(i + 1, k):
                graph.add_edge(i, j, weight=float(w[i, j]))
        reference = sum(w[a, b] for a, b in nx.min_weight_matching(graph))
        ours = sum(w[a, b] for a, b in min_weight_perfect_matching(w))
        assert ours == pytest.approx(reference, abs=1e-9)


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), half=st.integers(1, 5), kind=st.integers(0, 2))
def test_blossom_cold_and_warm_match_enumeration(seed: int, half: int, kind: int) -> None:
    """Edmonds' blossom algorithm, warm-started (public path) and from scratch (y = row
    minimum / 2, empty matching: many blossoms), against enumeration; ``kind`` 2 is a 3x3 grid
    with many ties and coincident points (zero weights)."""
    rng = np.random.default_rng(seed)
    k = 2 * half
    size = max(k, 3)
    if kind == 0:
        w = tsp.random_metric_instance(size, rng=rng)[:k, :k]
    elif kind == 1:
        w = np.round(4 * tsp.euclidean_instance(size, rng=rng)[1][:k, :k])
    else:
        w = tsp.distance_matrix(rng.integers(0, 3, size=(size, 2)).astype(np.float64))[:k, :k]
    best = _weight(w, matching_by_enumeration(w))
    assert _weight(w, min_weight_perfect_matching(w)) == pytest.approx(best, abs=1e-9)
    cost = w.copy()
    np.fill_diagonal(cost, np.inf)
    cold = _Blossom(w, np.full(k, -1, dtype=np.int64), cost.min(axis=1) / 2.0).solve()
    assert sorted(v for pair in cold for v in pair) == list(range(k))
    assert _weight(w, cold) == pytest.approx(best, abs=1e-9)


@pytest.mark.parametrize("k", [30, 60, 90])
def test_blossom_agrees_with_integer_program(k: int) -> None:
    """Larger sizes (beyond enumeration): blossom = HiGHS integer programs (independent: the
    reduced-cost-fixed oracle here and the reference's plain one over all edges)."""
    for seed in range(2):
        w = _euclid(k, 100 + seed)
        ours = _weight(w, min_weight_perfect_matching(w))
        assert ours == pytest.approx(_weight(w, matching_by_integer_program(w)), abs=1e-9)
        assert ours == pytest.approx(_weight(w, matching.min_weight_perfect_matching(w)), abs=1e-9)


def _euler_shortcut_straightforward(n: int, edges: np.ndarray[Any, Any]) -> list[int]:
    """Textbook Hierholzer (adjacency scan with a used flag per edge), then first visits."""
    adjacency: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for e, (a, b) in enumerate(edges.tolist()):
        adjacency[a].append((b, e))
        adjacency[b].append((a, e))
    for row in adjacency:
        row.sort()
    used = [False] * edges.shape[0]
    stack, circuit = [0], []
    while stack:
        v = stack[-1]
        nxt = next(((u, e) for u, e in adjacency[v] if not used[e]), None)
        if nxt is None:
            circuit.append(stack.pop())
        else:
            used[nxt[1]] = True
            stack.append(nxt[0])
    return list(dict.fromkeys(circuit[::-1]))


@given(n=st.integers(3, 9), walks=st.lists(st.lists(st.integers(0, 8), min_size=2, max_size=7)))
def test_euler_shortcut_matches_textbook_hierholzer(n: int, walks: list[list[int]]) -> None:
    edges = [(v, (v + 1) % n) for v in range(n)]  # a spanning cycle keeps it connected
    for walk in walks:  # closed walks keep every degree even (repeated pairs = parallel edges)
        closed = [v % n for v in walk]
        edges += [(a, b) for a, b in itertools.pairwise([*closed, closed[0]]) if a != b]
    multigraph = np.array(edges, dtype=np.int64)
    expected = _euler_shortcut_straightforward(n, multigraph)
    assert _euler_shortcut(n, multigraph).tolist() == expected


@pytest.mark.parametrize("n", [255, 256, 257, 300])
def test_euler_shortcut_matches_textbook_hierholzer_on_both_sort_paths(n: int) -> None:
    """Up to n = 256 the half-edge keys fit in 16 bits (radix sort); above, a wider key."""
    rng = np.random.default_rng(n)
    edges = [(v, (v + 1) % n) for v in range(n)]
    for _ in range(40):  # closed walks with repeated pairs (parallel edges)
        walk = rng.integers(0, n, size=int(rng.integers(2, 12))).tolist()
        edges += [(a, b) for a, b in itertools.pairwise([*walk, walk[0]]) if a != b]
    edges += edges[: n // 3]  # parallel copies of path edges (parities fixed below)
    degree = np.bincount(np.array(edges).ravel(), minlength=n) % 2
    odd = np.flatnonzero(degree)
    edges += [(int(a), int(b)) for a, b in odd.reshape(-1, 2)]
    multigraph = np.array(edges, dtype=np.int64)
    assert not np.any(np.bincount(multigraph.ravel(), minlength=n) % 2)
    expected = _euler_shortcut_straightforward(n, multigraph)
    assert _euler_shortcut(n, multigraph).tolist() == expected


@pytest.mark.parametrize("seed", range(10))
def test_drawn_level_buckets_make_every_threshold_set_a_prefix(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 12))
    heat = np.round(rng.random((n, n)) * 4) / 4  # coarse values: many ties, zeros included
    heat = np.triu(heat, 1) + np.triu(heat, 1).T
    taus = np.concatenate([[0.25, 0.5, 1.0], 1.0 - rng.uniform(0.0, 1.0, size=5)])  # ties too
    iu, ju, sizes = _edges_by_draw(heat, taus)
    for tau, size in zip(taus.tolist(), sizes, strict=True):
        prefix = set(zip(iu[:size].tolist(), ju[:size].tolist(), strict=True))
        rows, cols = np.nonzero(np.triu(heat >= tau, 1))
        assert prefix == set(zip(rows.tolist(), cols.tolist(), strict=True))
        assert len(prefix) == size  # no pair twice


@pytest.mark.parametrize(("n", "prefix"), [(9, 2048), (9, 5), (30, 40), (30, 7)])
def test_kruskal_pair_order_breaks_ties_by_indices(
    n: int, prefix: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lazily sorted order (a small prefix first, the rest on demand) is ``(w, i, j)``."""
    monkeypatch.setattr(_KruskalOrder, "PREFIX", prefix)
    w = np.array(np.random.default_rng(n).integers(1, 4, size=(n, n)), dtype=np.float64)
    w = np.triu(w, 1) + np.triu(w, 1).T  # many ties among three weight values
    order = _KruskalOrder(w)
    first = order.take(0, 3)
    pi, pj = _pairs_by_weight(w)
    assert np.array_equal(first[0], pi[:3])
    assert np.array_equal(first[1], pj[:3])
    keys = list(zip(w[pi, pj].tolist(), pi.tolist(), pj.tolist(), strict=True))
    iu, ju = np.triu_indices(n, 1)
    assert keys == sorted(zip(w[iu, ju].tolist(), iu.tolist(), ju.tolist(), strict=True))
    chunks = [order.take(s, s + 11) for s in range(0, order.size, 11)]
    assert np.array_equal(np.concatenate([c[0] for c in chunks]), pi)
    assert np.array_equal(np.concatenate([c[1] for c in chunks]), pj)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("kind", ["soft", "noisy", "mixture", "coarse"])
def test_shared_work_equals_per_threshold_decoding(seed: int, kind: str) -> None:
    """The fast ``sampled_decode`` / sweep (nested repairs, shared matchings) return exactly what
    the reference's per-threshold ``threshold_decode`` (an independent oracle: no shared code
    beyond validation) gives for the same thresholds."""
    n = 14
    distances = _euclid(n, 100 + seed)
    rng = np.random.default_rng(seed)
    heat = {
        "soft": lambda: tsp.soft_dist(distances, temperature=0.05),
        "noisy": lambda: tsp.perturbed_optimum(rng.permutation(n), sigma=0.3, rng=rng),
        "mixture": lambda: tsp.mixture_heatmap(rng.permutation(n), lam=0.3, rng=rng),
        "coarse": lambda: np.round(tsp.perturbed_optimum(np.arange(n), sigma=0.4, rng=rng), 1),
    }[kind]()
    k = 12
    taus = 1.0 - np.random.default_rng([seed, 7]).uniform(0.0, 1.0, size=k)
    tours = [decode.threshold_decode(distances, heat, float(tau)) for tau in taus]
    costs = [tsp.tour_length(distances, t) for t in tours]
    expected = tours[int(np.argmin(costs))]  # ties: the earliest draw
    got = fast.sampled_decode(distances, heat, k=k, rng=np.random.default_rng([seed, 7]))
    assert np.array_equal(got, expected)
    sweep = fast.sweep_candidates(distances, heat)
    for tau, cost in zip(sweep.thresholds[1:], sweep.costs[1:], strict=True):
        decoded = decode.threshold_decode(distances, heat, float(tau))
        assert cost == tsp.tour_length(distances, decoded)
