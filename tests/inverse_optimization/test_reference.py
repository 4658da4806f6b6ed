"""Reference inverse optimization (spec 18): oracles, polytope, learners, baselines, bad input."""

from __future__ import annotations

import itertools
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference import inverse_optimization as io


@given(seed=st.integers(0, 2**32 - 1), d=st.integers(2, 6))
def test_families_are_m_convex_with_exact_oracles(seed: int, d: int) -> None:
    rng = np.random.default_rng(seed)
    family = io.random_family(d, rng=rng)
    points = family.enumerate()
    assert io.is_m_convex(np.array(points))
    w = rng.standard_normal(d)
    x = family.argmax(w)
    assert family.contains(x)
    assert float(w @ x) == pytest.approx(max(float(w @ p) for p in points))
    for p in points:
        assert family.exchange_arcs(p) == io.brute_force_arcs(points, p)


def test_graphic_matroid_matches_networkx() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        family = io.random_family(7, rng=rng, kind="graphic")
        assert isinstance(family, io.GraphicMatroid)
        w = rng.standard_normal(family.d)
        graph: nx.MultiGraph[int] = nx.MultiGraph()
        for e, (u, v) in enumerate(family.edges):
            graph.add_edge(u, v, key=e, weight=float(w[e]))
        tree = nx.maximum_spanning_tree(graph)
        best = sum(data["weight"] for _, _, data in tree.edges(data=True))
        assert float(w @ family.argmax(w)) == pytest.approx(best)


def test_centroid_dp_matches_brute_force() -> None:
    rng = np.random.default_rng(0)
    for d in range(1, 8):
        for _ in range(6):
            rel = np.triu(rng.random((d, d)) < 0.35, 1)
            perm = rng.permutation(d)
            rel = rel[perm][:, perm]
            c = io.centroid(rel)
            bc, count = io.brute_force_centroid(rel)
            np.testing.assert_allclose(c, bc, atol=1e-12)
            assert io.linear_extension_count(rel) == count
            assert c.sum() == pytest.approx(d / 2)
            closed, _ = io.closure_add(
                np.zeros((d, d), dtype=bool), [tuple(a) for a in np.argwhere(rel)]
            )
            for i, j in np.argwhere(closed):
                assert c[i] > c[j]  # interior: strict on every arc of the closure
    assert io.linear_extension_count(np.zeros((16, 16), dtype=bool)) == math.factorial(16)


def test_centroid_permutation_equivariance() -> None:
    rng = np.random.default_rng(1)
    d = 6
    rel = np.triu(rng.random((d, d)) < 0.4, 1)
    perm = rng.permutation(d)
    permuted = np.zeros_like(rel)
    for i, j in np.argwhere(rel):
        permuted[perm[i], perm[j]] = True
    np.testing.assert_allclose(io.centroid(permuted)[perm], io.centroid(rel), atol=1e-12)


def test_learners_and_theorem_bounds_on_random_runs() -> None:
    rng = np.random.default_rng(2)
    for d in (3, 5, 7):
        w = rng.standard_normal(d)
        fams = [io.random_family(d, rng=rng) for _ in range(150)]
        for point in ("centroid", "topological"):
            result = io.simulate(io.OnlineLearner(dim=d, point=point), fams, w)
            assert result.mistakes <= (
                io.mistake_bound(d) if point == "centroid" else d * (d - 1) // 2
            )
            assert result.cumulative[-1] <= result.scale * result.mistakes + 1e-12
            assert np.all(result.regret >= 0)
            assert result.restarts == 0
        for learner in (
            io.OnlineNewtonStep(dim=d),
            io.OnlineGradientDescent(dim=d, horizon=150),
            io.CuttingPlane(dim=d, rng=1, points_per_dim=500),
            io.FirstElement(dim=d),
        ):
            assert io.simulate(learner, fams, w).regret.shape == (150,)


def test_algorithm_1_rejects_and_algorithm_2_restarts() -> None:
    d = 4
    rng = np.random.default_rng(4)
    w = rng.standard_normal(d)
    fams = [io.random_family(d, rng=rng) for _ in range(80)]
    with pytest.raises(io.InconsistentFeedbackError):
        io.simulate(io.OnlineLearner(dim=d), fams, w, corrupted_rounds=range(0, 80, 3))
    result = io.simulate(io.RobustLearner(dim=d), fams, w, corrupted_rounds=[5, 40])
    assert result.restarts <= 2
    assert result.mistakes <= 3 * (io.mistake_bound(d) + 1) + 2
    randomised = io.simulate(
        io.RobustLearner(dim=d), fams, w, corrupted_rounds=[1, 2], corruption="random", rng=rng
    )
    assert randomised.restarts <= 2


def test_adaptive_adversary_is_tight_for_the_topological_point() -> None:
    for d in range(2, 8):
        assert (
            io.adaptive_two_point_run(io.OnlineLearner(dim=d, point="topological"))
            == d * (d - 1) // 2
        )
        assert io.adaptive_two_point_run(io.OnlineLearner(dim=d)) <= io.mistake_bound(d)


def test_two_dimensional_learner_errs_at_most_once() -> None:
    for w in ([0.0, 1.0], [1.0, 0.0]):
        result = io.simulate(io.OnlineLearner(dim=2), [io.two_point_set(2, 0, 1)] * 10, w)
        assert result.mistakes <= 1


def test_exact_centroid_refuses_beyond_its_limit() -> None:
    with pytest.raises(ValueError, match="exact centroid"):
        io.OnlineLearner(dim=io.EXACT_CENTROID_MAX_D + 1)
    with pytest.raises(ValueError, match="d <= 16"):
        io.centroid(np.zeros((17, 17), dtype=bool))


def test_gibbs_variant_beyond_the_exact_range() -> None:
    learner = io.OnlineLearner(dim=17, point="gibbs", sweeps=30, burn_in=10)
    state = learner.init()
    fam = io.uniform_matroid(17, 3)
    x = learner.recommend(state, fam)
    assert fam.contains(x)
    state = learner.update(state, fam, x, fam.argmax(np.arange(17.0)))
    for i, j in np.argwhere(state.closure):
        assert state.point[i] >= state.point[j]


def test_mistake_bound_values() -> None:
    assert [io.mistake_bound(d) for d in (2, 4, 5, 6, 8, 10, 12)] == [1, 6, 10, 14, 23, 32, 43]


def test_bad_input_messages() -> None:
    with pytest.raises(ValueError, match="d: expected an integer >= 1"):
        io.uniform_matroid(0, 1)
    with pytest.raises(ValueError, match="k: expected an integer <= 3"):
        io.uniform_matroid(3, 4)
    with pytest.raises(ValueError, match="groups: expected disjoint"):
        io.partition_matroid(4, [[0, 1], [1, 2]], [1, 1])
    with pytest.raises(ValueError, match="edges: expected a connected graph"):
        io.graphic_matroid([(0, 1), (2, 3)])
    with pytest.raises(ValueError, match="k: expected an integer in"):
        io.box_sum([0, 0], [1, 1], 3)
    with pytest.raises(ValueError, match="x: expected a member"):
        io.uniform_matroid(3, 1).exchange_arcs([1, 1, 0])
    with pytest.raises(ValueError, match="x: expected an integer vector"):
        io.uniform_matroid(3, 1).exchange_arcs([0.5, 0.5, 0])
    with pytest.raises(ValueError, match="family_sequence: expected T >= 1"):
        io.simulate(io.OnlineLearner(dim=2), [], [0.0, 1.0])
    with pytest.raises(ValueError, match="w_star"):
        io.simulate(io.OnlineLearner(dim=2), [io.two_point_set(2, 0, 1)], [np.nan, 1.0])
    with pytest.raises(ValueError, match="family_sequence: expected action sets in Z"):
        io.simulate(io.OnlineLearner(dim=3), [io.two_point_set(2, 0, 1)], [0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="rng"):
        io.simulate(
            io.RobustLearner(dim=2),
            [io.two_point_set(2, 0, 1)],
            [0.0, 1.0],
            corrupted_rounds=[0],
            corruption="random",
        )
    with pytest.raises(ValueError, match="closure: expected an acyclic"):
        io.centroid(np.array([[False, True], [True, False]]))
    with pytest.raises(ValueError, match="point"):
        io.OnlineLearner(dim=3, point="middle")  # type: ignore[arg-type]
    assert not io.is_m_convex([[2, 0], [0, 2]])
    assert io.is_m_convex([list(p) for p in itertools.permutations([1, 1, 0])])


def _height(closure: np.ndarray) -> list[int]:
    """Longest chain below each element (a "height" score, not the centroid)."""
    d = closure.shape[0]
    out = [0] * d
    for v in sorted(range(d), key=lambda u: int(closure[u].sum())):
        out[v] = max((out[u] + 1 for u in range(d) if closure[v, u]), default=0)
    return out


def test_learner_uses_the_centroid_not_a_height_score() -> None:
    # arcs 2 > 1 > 0 and 4 > 0, element 3 free: the centroid ranks 3 (1/2) above 1 (7/15),
    # the height score ranks 1 (one element below) above 3 (none)
    d = 5
    learner = io.OnlineLearner(dim=d)
    state = learner.init()
    for top, bottom in ((1, 0), (2, 1), (4, 0)):
        fam = io.two_point_set(d, top, bottom)
        x_hat = learner.recommend(state, fam)
        observed = np.zeros(d, dtype=np.int64)
        observed[top] = 1
        state = learner.update(state, fam, x_hat, observed)
    exact, count = io.brute_force_centroid(state.closure)
    # by hand: 3 orders of {2 > 1, 4} above 0, times 5 slots for the free 3 -> 15 extensions;
    # 1 sits at index 1, 2, 2 of the 4-order, so at mean index 2.2 of 5 after inserting 3:
    # centroid (5 - 2.2)/6 = 7/15; the free element sits at mean index 2: 1/2
    assert count == 15
    np.testing.assert_allclose(state.point, exact, rtol=0, atol=1e-15)
    np.testing.assert_allclose(exact[[1, 3]], [7 / 15, 1 / 2], rtol=0, atol=1e-15)
    height = _height(np.asarray(state.closure))
    assert height[1] > height[3]  # the height score would recommend e_1
    x = learner.recommend(state, io.two_point_set(d, 1, 3))
    assert x.tolist() == [0, 0, 0, 1, 0]


def test_exact_centroid_equals_enumeration() -> None:
    rng = np.random.default_rng(7)
    for d in (3, 5, 7, 8):
        closure = np.zeros((d, d), dtype=bool)
        for _ in range(d):
            i, j = (int(v) for v in rng.choice(d, 2, replace=False))
            if not closure[j, i]:
                closure, _ = io.closure_add(closure, [(i, j)])
        exact, count = io.brute_force_centroid(closure)
        assert io.linear_extension_count(closure) == count
        np.testing.assert_allclose(io.centroid(closure), exact, rtol=0, atol=1e-14)
