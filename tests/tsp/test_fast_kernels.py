"""The compiled kernels of the TSP fast path (numba, optional) against its numpy code.

``reference.tsp.fast`` and ``reference.tsp.fast_matching`` call
:mod:`reference.tsp.fast_kernels` when numba is installed and keep their numpy code as the
fallback.  Both paths must return the same tours:

* with the kernels switched off, the numpy fallback still equals the reference decoder (the
  records of ``test_fast_vs_reference.py``, which otherwise run on the kernels when numba is
  installed);
* with numba installed, kernels on and off give bit-identical tours on the benchmark's
  instances (n = 200, heatmaps G1-G4, best-of-32), identical matchings on random weights with
  many odd cycles (checked against enumeration too), and the same Euler shortcut as the numpy
  Hierholzer on random connected even multigraphs.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from reference import tsp
from reference.tsp import fast, fast_kernels, fast_matching, fast_repair
from tests.tsp.test_fast_vs_reference import RECORDS, FastRecord, Instance

needs_numba = pytest.mark.skipif(not fast_kernels.AVAILABLE, reason="numba not installed")


@pytest.fixture
def kernels_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast_kernels, "ENABLED", False)
    assert not fast_kernels.use_kernels()


def _both(fn_name: str, *args: object, **kwargs: object) -> tuple[object, object]:
    """``fast.<fn_name>`` with the kernels off, then on (fresh ``rng`` via a factory)."""
    results = []
    for enabled in (False, True):
        fast_kernels.ENABLED = enabled
        try:
            call_kwargs = {
                key: (value() if callable(value) else value) for key, value in kwargs.items()
            }
            results.append(getattr(fast, fn_name)(*args, **call_kwargs))
        finally:
            fast_kernels.ENABLED = fast_kernels.AVAILABLE
    return results[0], results[1]


#: The decoders' records on the instances where the reference is cheap enough to rerun.
FALLBACK_CASES = [
    pytest.param(record, case, id=f"{record.name}-{case.id}")
    for record in RECORDS
    if record.name in ("repair_steps", "sampled_decode", "min_weight_perfect_matching")
    for case in record.instances
    if case.n >= 20
]


@pytest.mark.parametrize(("record", "case"), FALLBACK_CASES)
def test_numpy_fallback_equals_reference(
    kernels_off: None, record: FastRecord, case: Instance
) -> None:
    ref_args, ref_kwargs = record.make_args(case)
    fast_args, fast_kwargs = record.make_args(case)
    record.compare(
        record.reference(*ref_args, **ref_kwargs), record.fast(*fast_args, **fast_kwargs)
    )


def _benchmark_instance(index: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """An n = 200 instance with heatmap ``kind`` as in ``benchmarks.tsp_speed`` (seeds differ)."""
    rng = np.random.default_rng([20, 200, index])
    _, distances = tsp.euclidean_instance(200, rng=rng)
    tour = rng.permutation(200)
    heat = {
        "G1": lambda: tsp.perturbed_optimum(tour, sigma=0.3, rng=rng),
        "G2": lambda: tsp.edge_flips(tour, k=40, rng=rng),
        "G3": lambda: tsp.mixture_heatmap(tour, lam=0.4, rng=rng),
        "G4": lambda: tsp.soft_dist(distances, temperature=0.05),
    }[kind]()
    return distances, heat


@needs_numba
@pytest.mark.parametrize("kind", ["G1", "G2", "G3", "G4"])
@pytest.mark.parametrize("index", [0, 1])
def test_kernels_and_numpy_give_the_same_best_of_32_tour(kind: str, index: int) -> None:
    distances, heat = _benchmark_instance(index, kind)
    off, on = _both(
        "sampled_decode", distances, heat, k=32, rng=lambda: np.random.default_rng([index, 1])
    )
    assert isinstance(off, np.ndarray)
    assert isinstance(on, np.ndarray)
    assert sorted(on.tolist()) == list(range(200)), "not a tour"
    assert np.array_equal(off, on)


@needs_numba
def test_kernels_and_numpy_give_the_same_sweep() -> None:
    distances, heat = _benchmark_instance(2, "G3")
    off, on = _both("sweep_candidates", distances[:40, :40], heat[:40, :40])
    assert isinstance(off, tsp.SweepResult)
    assert isinstance(on, tsp.SweepResult)
    assert np.array_equal(off.costs, on.costs)
    assert np.array_equal(off.tour, on.tour)


def _odd_cycle_weights(k: int, rng: np.random.Generator) -> np.ndarray:
    """Points in tight clusters of three: the optimal cycle cover has many odd cycles."""
    centres = rng.uniform(size=(k // 3 + 1, 2))
    points = np.repeat(centres, 3, axis=0)[:k] + 0.01 * rng.normal(size=(k, 2))
    weights: np.ndarray = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(-1))
    return weights


@needs_numba
@pytest.mark.parametrize("seed", range(6))
def test_matching_kernels_and_numpy_agree(seed: int) -> None:
    rng = np.random.default_rng([20, seed])
    for k in (8, 10, 40, 90):
        w = _odd_cycle_weights(k, rng)
        _, _, _, leftovers, _ = fast_matching._assignment_start(w)
        results = []
        for enabled in (False, True):
            fast_kernels.ENABLED = enabled
            try:
                results.append(fast_matching.min_weight_perfect_matching(w))
            finally:
                fast_kernels.ENABLED = fast_kernels.AVAILABLE
        assert np.array_equal(results[0], results[1]), f"k={k}: kernels change the matching"
        if k <= fast_matching.ENUMERATION_MAX_K:
            assert np.array_equal(results[1], fast_matching.matching_by_enumeration(w))
        if k == 90:
            assert len(leftovers) >= 2, "the instance should need the blossom phase"


def _textbook_euler_shortcut(n: int, edges: np.ndarray) -> list[int]:
    """Recursive Hierholzer from 0, smallest ``(neighbour, edge id)`` first, then shortcut."""
    adjacency: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for e, (a, b) in enumerate(edges.tolist()):
        adjacency[a].append((b, e))
        adjacency[b].append((a, e))
    for arcs in adjacency:
        arcs.sort()
    used = [False] * edges.shape[0]
    circuit: list[int] = []

    def visit(v: int) -> None:
        for u, e in adjacency[v]:
            if not used[e]:
                used[e] = True
                visit(u)
        circuit.append(v)

    visit(0)
    return list(dict.fromkeys(reversed(circuit)))


@needs_numba
@pytest.mark.parametrize("seed", range(5))
def test_euler_kernel_matches_numpy_and_textbook(seed: int) -> None:
    rng = np.random.default_rng([20, 7, seed])
    n = int(rng.integers(3, 60))
    walks = [rng.permutation(n) for _ in range(int(rng.integers(1, 4)))]
    closed = [np.stack([w, np.roll(w, -1)], axis=1) for w in walks]
    extra = rng.integers(0, n, size=(int(rng.integers(0, 5)), 1))
    doubled = np.concatenate([extra, (extra + 1) % n], axis=1)
    edges = np.concatenate([*closed, doubled, doubled]).astype(np.int64)  # all degrees even
    edges = edges[rng.permutation(edges.shape[0])]
    kernel = fast_kernels.euler_shortcut(n, edges).tolist()
    fast_kernels.ENABLED = False
    try:
        numpy_path = fast_repair._euler_shortcut(n, edges).tolist()
    finally:
        fast_kernels.ENABLED = fast_kernels.AVAILABLE
    assert kernel == numpy_path == _textbook_euler_shortcut(n, edges)


@needs_numba
@pytest.mark.parametrize("seed", range(4))
def test_split_cycle_cover_kernel_matches_numpy(seed: int) -> None:
    rng = np.random.default_rng([20, 11, seed])
    w = _odd_cycle_weights(60, rng)
    cost = w.copy()
    np.fill_diagonal(cost, np.inf)
    fast_kernels.ENABLED = False
    try:
        _, succ, pairs, leftovers, cycles = fast_matching._assignment_start(w)
    finally:
        fast_kernels.ENABLED = fast_kernels.AVAILABLE
    matched, odd, offsets = fast_kernels.split_cycle_cover(w[np.arange(60), succ], succ)
    assert [tuple(p) for p in matched.tolist()] == pairs
    bounds = offsets.tolist()
    assert [odd.tolist()[a:b] for a, b in itertools.pairwise(bounds)] == cycles
    assert [c[0] for c in cycles] == leftovers
    assert len(cycles) >= 2, "the instance should have odd cycles"
