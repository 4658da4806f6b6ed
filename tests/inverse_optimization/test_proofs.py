"""Theorem checks of spec 18 hold on the reference, are tight where stated, and can fail."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_numeric import ProveProfile, all_theorems
from proofs_numeric import inverse_optimization as pr
from reference import inverse_optimization as io

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
    assert failing.measured == 21
    # a wrong lower-bound claim fails: E[mistakes] is d/4, not d/2
    lb, mean = pr.theorem_6_1(8, reps=60, rng=rng)
    assert lb.holds
    assert abs(mean - 2.0) < 0.8
    assert abs(mean - 4.0) > 0.1 * 8


def test_cheap_drivers_hold() -> None:
    assert len(all_theorems("inverse_optimization")) == 10
    for driver in (pr.prove_prop_2_4, pr.prove_key_lemma, pr.prove_lemma_5_1, pr.prove_d_log_d):
        result = driver(QUICK)
        assert result.holds, result


@pytest.mark.slow
def test_all_drivers_hold_quick() -> None:
    for entry in all_theorems("inverse_optimization"):
        result = entry.driver(QUICK)
        assert result.holds, (entry.name, result)
