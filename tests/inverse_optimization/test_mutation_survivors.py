"""Tests written for the mutants mutmut left alive in reference/inverse_optimization (issue 17,
point 8).

Each expected value comes from the spec's definitions (the adversary's round cap, the documented
field types, the configs' documented domains), never from the library's output.  The triage of
every survivor is in benchmarks/results/mutation_inverse_optimization.md.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference import inverse_optimization as io


@pytest.mark.parametrize("cap", [1, 2, 5])
def test_adaptive_adversary_stops_at_max_rounds(cap: int) -> None:
    """d = 4 has 6 pairs, so with a cap below 6 the adversary is stopped by the cap: it plays
    exactly ``cap`` rounds, each a mistake (mutant: ``mistakes <= cap`` plays one more)."""
    learner = io.OnlineLearner(dim=4, point="topological")
    assert io.adaptive_two_point_run(learner, max_rounds=cap) == cap


def test_adaptive_adversary_default_cap_is_every_pair() -> None:
    """Thm 3.1 tightness: with no cap the adversary forces d(d-1)/2 mistakes."""
    learner = io.OnlineLearner(dim=4, point="topological")
    assert io.adaptive_two_point_run(learner) == 4 * 3 // 2


def test_mistake_rounds_are_integer_indices() -> None:
    """``mistake_rounds`` is documented as an IntArray of 0-based round indices; with distinct
    weights a mistake is exactly a round of positive regret ``<w*, x_t - x̂_t>``."""
    w = np.array([0.1, 0.7, 0.3])
    families = [io.uniform_matroid(3, 1), io.uniform_matroid(3, 2)] * 3
    result = io.simulate(io.OnlineLearner(dim=3), families, w)
    assert result.mistake_rounds.dtype.kind == "i"
    best = [max(float(w @ x) for x in fam.enumerate()) for fam in families]
    # with distinct weights a round is a mistake iff its regret is positive
    assert result.mistake_rounds.tolist() == np.flatnonzero(result.regret > 1e-12).tolist()
    assert all(0.0 <= r <= b + 1e-12 for r, b in zip(result.regret, best, strict=True))


def test_one_dimensional_baselines_are_accepted() -> None:
    """``dim >= 1`` is the documented domain of OGD and the cutting-plane baseline."""
    ogd = io.OnlineGradientDescent(dim=1)
    cut = io.CuttingPlane(dim=1, points_per_dim=20)
    assert ogd.init().theta.shape == (1,)
    assert cut.init().theta.shape == (1,)


def test_cutting_plane_rejects_a_negative_seed() -> None:
    with pytest.raises(ValueError, match=r"^rng:"):
        io.CuttingPlane(dim=2, rng=-1)
    with pytest.raises(TypeError, match=r"^rng:"):
        io.CuttingPlane(dim=2, rng=1.5)  # type: ignore[arg-type]


def test_cutting_plane_int_seed_is_a_function_and_a_generator_is_drawn_from() -> None:
    """An int seed gives the same cloud on every ``init`` (the cloud of ``default_rng([s, 0])``);
    a Generator is drawn from, so a second ``init`` gives a fresh cloud, and two equal
    Generators give equal clouds."""
    seeded = io.CuttingPlane(dim=3, rng=4, points_per_dim=50)
    first, again = seeded.init().cloud, seeded.init().cloud
    np.testing.assert_array_equal(first, again)
    g = np.random.default_rng([4, 0]).standard_normal((150, 3))
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    assert np.all(np.linalg.norm(first, axis=1) <= 1.0 + 1e-12)
    # the directions of the seeded cloud are those of default_rng([4, 0])'s first draws
    np.testing.assert_allclose(first / np.linalg.norm(first, axis=1, keepdims=True), g)
    drawn = io.CuttingPlane(dim=3, rng=np.random.default_rng(9), points_per_dim=50)
    a, b = drawn.init().cloud, drawn.init().cloud
    assert not np.array_equal(a, b)
    twin = io.CuttingPlane(dim=3, rng=np.random.default_rng(9), points_per_dim=50)
    np.testing.assert_array_equal(twin.init().cloud, a)


def test_ogd_state_keeps_an_empty_cloud() -> None:
    """OGD has no cloud: its state carries a ``(0, d)`` array before and after an update."""
    ogd = io.OnlineGradientDescent(dim=2)
    family = io.uniform_matroid(2, 1)
    state = ogd.init()
    x_hat = ogd.recommend(state, family)
    observed = np.array([0, 1]) if x_hat.tolist() == [1, 0] else np.array([1, 0])
    after = ogd.update(state, family, x_hat, observed)
    assert isinstance(after.cloud, np.ndarray)
    assert after.cloud.shape == (0, 2)
    assert after.rounds == 1
