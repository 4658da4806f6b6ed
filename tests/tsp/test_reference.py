"""Reference TSP decoders: oracles, repair, sweep, baselines, generators and validation."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from properties.tsp import instances
from reference import tsp
from reference._arrays import FloatArray, IntArray
from reference.tsp import fast_matching, matching
from reference.tsp.base import _worst_triangle_violation
from reference.tsp.decode import _euler_circuit, _pairs_by_weight, _shortcut


def _euclid(n: int, seed: int) -> FloatArray:
    _, distances = tsp.euclidean_instance(n, rng=np.random.default_rng(seed))
    return distances


def _all_matchings_weight(w: FloatArray) -> float:
    k = w.shape[0]
    best = math.inf

    def rec(rest: list[int], acc: float) -> None:
        nonlocal best
        if not rest:
            best = min(best, acc)
            return
        a = rest[0]
        for idx in range(1, len(rest)):
            rec(rest[1:idx] + rest[idx + 1 :], acc + float(w[a, rest[idx]]))

    rec(list(range(k)), 0.0)
    return best


# ------------------------------------------------------------------------ exact oracles
@given(case=instances(min_n=3, max_n=8))
def test_held_karp_equals_brute_force(case: tuple[str, FloatArray]) -> None:
    _, distances = case
    length, tour = tsp.held_karp(distances)
    brute, brute_tour = tsp.brute_force_tsp(distances)
    assert length == pytest.approx(brute, abs=1e-12)
    assert tsp.tour_length(distances, tour) == pytest.approx(length, abs=1e-12)
    assert tsp.tour_length(distances, brute_tour) == pytest.approx(brute, abs=1e-12)
    assert np.array_equal(tsp.canonical_tour(tour), tour)


def test_held_karp_brute_force_by_permutations() -> None:
    distances = _euclid(7, 3)
    lengths = [
        tsp.tour_length(distances, np.array([0, *p])) for p in itertools.permutations(range(1, 7))
    ]
    assert tsp.held_karp(distances)[0] == pytest.approx(min(lengths), abs=1e-12)


def test_held_karp_largest_size_and_limits() -> None:
    distances = _euclid(13, 0)
    length, tour = tsp.held_karp(distances)
    assert tsp.is_tour(tour, 13)
    assert tsp.two_opt(distances, tour).length == pytest.approx(length)  # 2-opt cannot improve
    with pytest.raises(ValueError, match="n <= 13"):
        tsp.held_karp(_euclid(14, 0))
    with pytest.raises(ValueError, match="n <= 9"):
        tsp.brute_force_tsp(_euclid(10, 0))


# ---------------------------------------------------------------------------- matching
@pytest.mark.parametrize(
    "min_weight_perfect_matching",
    [matching.min_weight_perfect_matching, fast_matching.min_weight_perfect_matching],
    ids=["reference", "fast"],
)
@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), half=st.integers(1, 6), integer=st.booleans())
def test_matching_is_minimum(
    min_weight_perfect_matching: Callable[[FloatArray], IntArray],
    seed: int,
    half: int,
    integer: bool,
) -> None:
    """Enumeration (k <= 8) and the integer program (k = 10, 12) in the reference, the blossom
    algorithm in the fast path, against an independent recursive enumeration."""
    rng = np.random.default_rng(seed)
    k = 2 * half
    w = tsp.random_metric_instance(max(k, 3), rng=rng)[:k, :k]
    if integer:
        w = np.round(4 * w)
    pairs = min_weight_perfect_matching(w)
    assert sorted(pairs.ravel().tolist()) == list(range(k))
    weight = float(sum(w[a, b] for a, b in pairs))
    assert weight == pytest.approx(_all_matchings_weight(w), abs=1e-9)


def test_reference_matching_rejects_bad_weights() -> None:
    with pytest.raises(ValueError, match="k even"):
        matching.min_weight_perfect_matching(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="symmetric"):
        matching.min_weight_perfect_matching(np.triu(np.ones((4, 4)), 1))
    with pytest.raises(ValueError, match="non-negative"):
        matching.min_weight_perfect_matching(-np.ones((2, 2)))
    with pytest.raises(TypeError, match="w"):
        matching.min_weight_perfect_matching("ab")


def test_reference_pair_order_and_euler_circuit() -> None:
    """The reference's Kruskal order is (w, i, j); its Hierholzer takes the smallest
    neighbour first (the tie rules the fast path must share)."""
    w = np.array([[0, 2, 1, 2], [2, 0, 2, 1], [1, 2, 0, 2], [2, 1, 2, 0]], dtype=np.float64)
    assert _pairs_by_weight(w) == [(0, 2), (1, 3), (0, 1), (0, 3), (1, 2), (2, 3)]
    bowtie = np.array([[0, 1], [1, 2], [2, 0], [0, 3], [3, 4], [4, 0]])
    assert _shortcut(_euler_circuit(5, bowtie)).tolist() == [0, 1, 2, 3, 4]
    assert _euler_circuit(5, bowtie) == [0, 1, 2, 0, 3, 4, 0]


# ------------------------------------------------------------------------------ repair
@given(case=instances(min_n=3), data=st.data())
def test_repair_of_a_cycle_returns_it(case: tuple[str, FloatArray], data: st.DataObject) -> None:
    _, distances = case
    n = distances.shape[0]
    cycle = np.array(data.draw(st.permutations(range(n)), label="cycle"), dtype=np.int64)
    out = tsp.repair(distances, tsp.tour_edges(cycle))
    assert np.array_equal(tsp.canonical_tour(out), tsp.canonical_tour(cycle))


def test_repair_empty_is_christofides() -> None:
    pytest.importorskip("networkx")
    for seed in range(5):
        distances = _euclid(9, seed)
        opt, _ = tsp.held_karp(distances)
        ours = tsp.tour_length(distances, tsp.repair(distances, np.zeros((0, 2), dtype=int)))
        theirs = tsp.tour_length(distances, tsp.christofides_networkx(distances))
        assert ours <= 1.5 * opt + 1e-12
        assert theirs <= 1.5 * opt + 1e-12


def test_repair_steps_invariants() -> None:
    distances = _euclid(10, 1)
    edges = np.array([[0, 1], [1, 2], [2, 0], [3, 4], [5, 6], [5, 7], [5, 8]])
    steps = tsp.repair_steps(distances, edges)
    assert steps.connect_edges.shape[0] == 3  # 4 components -> 3 connecting edges
    assert steps.odd_vertices.shape[0] % 2 == 0
    assert steps.matching_edges.shape[0] == steps.odd_vertices.shape[0] // 2
    assert steps.cost <= steps.multigraph_weight + 1e-12
    assert steps.tour[0] == 0
    assert not steps.tour.flags.writeable


# ------------------------------------------------------------------------------ sweep
@given(case=instances(min_n=4, max_n=7), seed=st.integers(0, 2**32 - 1))
def test_sweep_is_the_minimum_over_thresholds(case: tuple[str, FloatArray], seed: int) -> None:
    _, distances = case
    rng = np.random.default_rng(seed)
    n = distances.shape[0]
    upper = np.triu(np.round(rng.uniform(size=(n, n)), 1), 1)
    heat = upper + upper.T
    sweep = tsp.sweep_candidates(distances, heat)
    cost = tsp.tour_length(distances, tsp.sweep_decode(distances, heat))
    assert cost == pytest.approx(sweep.cost)
    assert sweep.cost == float(np.min(sweep.costs))
    for tau in sweep.thresholds[1:]:
        decoded = tsp.threshold_decode(distances, heat, float(tau))
        assert cost <= tsp.tour_length(distances, decoded) + 1e-12
    empty = tsp.repair(distances, np.zeros((0, 2), dtype=int))
    assert cost <= tsp.tour_length(distances, empty) + 1e-12
    assert sweep.thresholds[0] == math.inf
    assert np.all(np.diff(sweep.thresholds[1:]) < 0)


@given(case=instances(min_n=4, max_n=7), seed=st.integers(0, 2**32 - 1))
def test_scaling_distances_keeps_the_tour(case: tuple[str, FloatArray], seed: int) -> None:
    _, distances = case
    heat = tsp.mixture_heatmap(
        np.random.default_rng(seed).permutation(distances.shape[0]),
        lam=0.5,
        rng=np.random.default_rng(seed),
    )
    for decode in (tsp.sweep_decode, tsp.greedy_merge, tsp.threshold_decode):
        assert np.array_equal(decode(distances, heat), decode(2.0 * distances, heat))


def test_expected_threshold_cost_matches_a_direct_sum() -> None:
    distances = _euclid(7, 4)
    heat = np.zeros((7, 7))
    heat[0, 1] = heat[1, 0] = 0.75
    heat[2, 3] = heat[3, 2] = 0.25
    c_inf = tsp.tour_length(distances, tsp.repair(distances, np.zeros((0, 2), dtype=int)))
    c_hi = tsp.tour_length(distances, tsp.threshold_decode(distances, heat, 0.75))
    c_lo = tsp.tour_length(distances, tsp.threshold_decode(distances, heat, 0.25))
    expected = 0.25 * c_inf + 0.5 * c_hi + 0.25 * c_lo
    assert tsp.expected_threshold_cost(distances, heat) == pytest.approx(expected, abs=1e-12)


def test_sampled_decode_no_better_than_the_sweep_and_reproducible() -> None:
    distances = _euclid(9, 5)
    heat = tsp.soft_dist(distances, temperature=0.1)
    best = tsp.tour_length(distances, tsp.sweep_decode(distances, heat))
    first = tsp.sampled_decode(distances, heat, k=6, rng=np.random.default_rng(1))
    again = tsp.sampled_decode(distances, heat, k=6, rng=np.random.default_rng(1))
    assert np.array_equal(first, again)
    assert tsp.tour_length(distances, first) >= best - 1e-12
    polished = tsp.sampled_decode(
        distances, heat, k=6, rng=np.random.default_rng(1), with_two_opt=True
    )
    assert tsp.tour_length(distances, polished) <= tsp.tour_length(distances, first) + 1e-12


@pytest.mark.parametrize("seed", range(20))
def test_triangle_violation_equals_brute_force_maximum(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 15))
    w = rng.random((n, n))
    w = np.triu(w, 1) + np.triu(w, 1).T  # symmetric, usually not metric
    brute = float(np.max(w[:, :, None] - w[:, None, :] - w[None, :, :].transpose(0, 2, 1)))
    assert _worst_triangle_violation(w) == pytest.approx(max(brute, 0.0), abs=1e-15)


# ------------------------------------------------------------------------------ baselines
def test_two_opt_result_and_cap() -> None:
    distances = _euclid(12, 2)
    start = np.arange(12)
    capped = tsp.two_opt(distances, start, max_iter=1)
    assert capped.iterations <= 1
    full = tsp.two_opt(distances, start)
    assert full.converged
    assert full.best_delta >= -1e-6
    assert full.length <= tsp.tour_length(distances, start)
    assert full.length == pytest.approx(tsp.tour_length(distances, full.tour))


def test_greedy_merge_heatmap_scaling_and_zero_distances() -> None:
    points = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    distances = tsp.distance_matrix(points)  # cities 0 and 1 coincide
    heat = tsp.mixture_heatmap([0, 1, 2, 3, 4], lam=0.3, rng=np.random.default_rng(0))
    tour = tsp.greedy_merge(distances, heat)
    assert tsp.is_tour(tour, 5)
    assert np.array_equal(tour, tsp.greedy_merge(distances, 0.5 * heat))


def test_nearest_neighbour_and_christofides() -> None:
    pytest.importorskip("networkx")
    distances = _euclid(10, 7)
    opt, _ = tsp.held_karp(distances)
    assert tsp.tour_length(distances, tsp.christofides_networkx(distances)) <= 1.5 * opt + 1e-12
    assert tsp.is_tour(tsp.nearest_neighbour(distances), 10)


# ----------------------------------------------------------------------------- generators
def test_edge_flips_controls_eta_exactly() -> None:
    distances = _euclid(9, 8)
    _, best = tsp.held_karp(distances)
    heat = tsp.edge_flips(best, k=3, rng=np.random.default_rng(0))
    star = {tuple(e) for e in tsp.tour_edges(best).tolist()}
    chosen = {(i, j) for i, j in zip(*np.nonzero(np.triu(heat, 1)), strict=True)}
    diff = star ^ {(int(i), int(j)) for i, j in chosen}
    assert len(diff) == 6
    assert tsp.eta(distances, heat, best) == pytest.approx(
        sum(distances[i, j] for i, j in diff), abs=1e-12
    )


@pytest.mark.parametrize("sigma", [0.0, 0.1, 0.4])
def test_generators_are_valid_heatmaps(sigma: float) -> None:
    distances = _euclid(8, 9)
    tour = np.random.default_rng(0).permutation(8)
    rng = np.random.default_rng(1)
    for heat in (
        tsp.perturbed_optimum(tour, sigma=sigma, rng=rng),
        tsp.mixture_heatmap(tour, lam=sigma, rng=rng),
        tsp.soft_dist(distances, temperature=sigma + 0.01),
        tsp.prepare_heatmap(rng.uniform(size=(8, 8)) * 3, symmetrize="mean", normalize="max"),
        tsp.prepare_heatmap(rng.uniform(size=(8, 8)), symmetrize="directed"),
    ):
        assert np.array_equal(heat, heat.T)
        assert float(heat.min()) >= 0.0
        assert float(heat.max()) <= 1.0
        assert np.all(np.diag(heat) == 0.0)
    assert np.array_equal(tsp.perturbed_optimum(tour, sigma=0.0, rng=rng), tsp.tour_indicator(tour))


# ------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    ("distances", "heat", "message"),
    [
        (np.ones((3, 4)), np.zeros((3, 4)), "square"),
        (np.zeros((2, 2)), np.zeros((2, 2)), "n >= 3"),
        (np.array([[0, 1, 1], [2, 0, 1], [1, 1, 0.0]]), np.zeros((3, 3)), "symmetric"),
        (np.array([[0, -1, 1], [-1, 0, 1], [1, 1, 0.0]]), np.zeros((3, 3)), "non-negative"),
        (np.array([[1, 1, 1], [1, 0, 1], [1, 1, 0.0]]), np.zeros((3, 3)), "zero diagonal"),
        (np.array([[0, 1, 5], [1, 0, 1], [5, 1, 0.0]]), np.zeros((3, 3)), "triangle"),
        (_euclid(4, 0), np.zeros((3, 3)), "heatmap"),
        (_euclid(4, 0), -np.ones((4, 4)), ">= 0"),
        (_euclid(4, 0), 2 * np.ones((4, 4)), "<= 1"),
        (_euclid(4, 0), np.triu(np.ones((4, 4)), 1), "symmetric heatmap"),
    ],
)
def test_decoders_reject_bad_input(distances: FloatArray, heat: FloatArray, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tsp.sweep_decode(distances, heat)


def test_tour_and_edge_validation() -> None:
    distances = _euclid(4, 0)
    with pytest.raises(ValueError, match="permutation"):
        tsp.tour_length(distances, [0, 1, 1, 2])
    with pytest.raises(TypeError, match="integer"):
        tsp.tour_length(distances, [0.5, 1, 2, 3])
    with pytest.raises(ValueError, match="range"):
        tsp.repair(distances, [[0, 7]])
    with pytest.raises(ValueError, match="loop"):
        tsp.repair(distances, [[1, 1]])
    with pytest.raises(ValueError, match="tau"):
        tsp.threshold_decode(distances, np.zeros((4, 4)), 0.0)
    assert not tsp.is_tour([0, 1, 2], 4)
    assert tsp.is_tour(np.array([3, 1, 0, 2]), 4)


# --------------------------------------------------------------------------------- MCTS (B3)
def test_mcts_is_seeded_and_budgeted() -> None:
    distances = _euclid(12, 3)
    heat = tsp.soft_dist(distances, temperature=0.1)
    config = tsp.MctsConfig(max_simulations=200)
    first = tsp.mcts_search(distances, heat, rng=np.random.default_rng(7), config=config)
    again = tsp.mcts_search(distances, heat, rng=np.random.default_rng(7), config=config)
    assert np.array_equal(first.tour, again.tour)
    assert first.simulations >= 200
    assert first.length == pytest.approx(tsp.tour_length(distances, first.tour))
    opt, _ = tsp.held_karp(distances)
    assert first.length >= opt - 1e-12
    zero = tsp.mcts_search(
        distances, heat, rng=np.random.default_rng(7), config=tsp.MctsConfig(max_simulations=0)
    )
    assert (zero.simulations, zero.restarts, zero.improvements) == (0, 1, 0)
    assert zero.length >= first.length - 1e-12  # the budget can only help here (same start)


def test_mcts_config_validation() -> None:
    with pytest.raises(ValueError, match="param_h"):
        tsp.MctsConfig(param_h=0)
    with pytest.raises(ValueError, match="alpha"):
        tsp.MctsConfig(alpha=-1.0)
    with pytest.raises(TypeError, match="max_simulations"):
        tsp.MctsConfig(max_simulations=1.5)  # type: ignore[arg-type]
