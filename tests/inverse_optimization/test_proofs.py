"""Theorem checks of spec 18 hold on the reference, are tight where stated, and can fail."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_numeric import ProveProfile, all_theorems
from proofs_numeric import inverse_optimization as pr
from reference import inverse_optimization as io
from tests.inverse_optimization import mutants

QUICK = ProveProfile.named("quick")


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32 - 1), d=st.integers(3, 6))
def test_bounds_hold_on_random_instances(seed: int, d: int) -> None:
    rng = np.random.default_rng(seed)
    assert pr.theorem_3_1(rng, d, rounds=60).holds
    assert pr.theorem_4_2(rng, d, instances=1, rounds=60).holds
    assert pr.theorem_5_3(rng, d, 2, rounds=60).holds


def test_tightness_and_lemmas() -> None:
    rng = np.random.default_rng(0)
    for d in (3, 5, 7):
        tight = pr.theorem_3_1_tightness(d)
        assert tight.holds
        assert tight.ratio == 1.0
    lemma = pr.lemma_4_1(rng, 5, instances=2, rounds=40)
    assert lemma.holds, lemma
    assert lemma.measured > 0.3  # cuts are real, not vacuous
    assert pr.key_lemma(rng, instances=4, rounds=60).holds
    assert pr.lemma_5_1(rng, instances=4, rounds=60).holds
    assert pr.proposition_2_4(rng, instances=4, weights=30).holds


def test_rates() -> None:
    rng = np.random.default_rng(1)
    plateau = pr.plateau_against_ons(rng, 4, (50, 500))
    assert plateau.holds, plateau
    ons = plateau.params["ONS R_T"]
    assert isinstance(ons, tuple)
    assert ons[-1] >= ons[0]
    rate = pr.mistakes_vs_d_log_d(range(4, 9))
    assert rate.holds, rate


def test_checks_can_fail() -> None:
    rng = np.random.default_rng(2)
    # the topological learner violates the centroid bound M_d against the adaptive adversary
    forced = io.adaptive_two_point_run(io.OnlineLearner(dim=7, point="topological"))
    assert forced > io.mistake_bound(7)
    failing = pr.theorem_4_2(rng, 7, instances=1, rounds=20, point="topological")
    assert not failing.holds
    assert failing.params["most mistakes"] == 21
    assert failing.measured == pytest.approx(21 / 18)


def test_theorem_6_1_on_the_papers_instance_and_its_mutant() -> None:
    ok = pr.theorem_6_1((16, 64), reps=12, rng=np.random.default_rng(3), ons_max_d=16)
    assert ok.holds, ok
    wrong = pr.theorem_6_1(
        (16, 64),
        reps=12,
        rng=np.random.default_rng(3),
        ons_max_d=16,
        instance=mutants.lower_bound_one_coordinate,
    )
    assert not wrong.holds
    assert wrong.measured < 0.05  # a learner that learns pays O(1), not Ω(d)


def test_theorem_6_1_instance_follows_the_construction() -> None:
    d = 64
    w, sets = io.theorem_6_1_instance(d, rng=np.random.default_rng(4))
    k = 2  # ⌊√64/4⌋
    assert w.shape == (d + 1,)
    assert w[d] == 0.0
    assert np.linalg.norm(w) == pytest.approx(1.0, rel=1e-12)
    for i in (0, 17, d - 1):
        points = {tuple(int(v) for v in x) for x in sets[i].enumerate()}
        expected = set()
        for t in range(-k, k + 1):
            x = [0] * (d + 1)
            x[i], x[d] = t, -t
            expected.add(tuple(x))
        assert points == expected
        assert io.is_m_convex([np.array(x) for x in points])
    with pytest.raises(ValueError, match="d"):
        io.theorem_6_1_instance(15, rng=np.random.default_rng(0))


def test_cheap_drivers_hold() -> None:
    assert len(all_theorems("inverse_optimization")) == 11
    for driver in (
        pr.prove_prop_2_4,
        pr.prove_key_lemma,
        pr.prove_lemma_5_1,
        pr.prove_d_log_d,
        pr.prove_topological_point,
    ):
        result = driver(QUICK)
        assert result.holds, result


@pytest.mark.slow
def test_all_drivers_hold_quick() -> None:
    for entry in all_theorems("inverse_optimization"):
        result = entry.driver(QUICK)
        assert result.holds, (entry.name, result)
