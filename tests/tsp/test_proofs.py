"""Theorem checks of spec 10 (TSP with predictions): they hold, they can fail, they are tight."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, target
from hypothesis import strategies as st

from proofs_numeric import ProveProfile, all_theorems
from proofs_numeric.tsp import (
    GENERATORS,
    corollary_c,
    lemma_a,
    make_heatmap,
    proposition_e,
    prove_corollary_c,
    prove_held_karp_oracle,
    prove_lemma_a,
    prove_proposition_d,
    prove_proposition_e,
    prove_theorem_b,
    prove_theorem_b_approx,
    theorem_b,
    theorem_b_approx,
)
from properties.tsp import instances
from reference import tsp
from reference._arrays import FloatArray, IntArray


@given(
    case=instances(min_n=4, max_n=8),
    kind=st.sampled_from(GENERATORS),
    seed=st.integers(0, 2**32 - 1),
)
def test_guarantee_holds(case: tuple[str, FloatArray], kind: str, seed: int) -> None:
    _, distances = case
    opt, best = tsp.held_karp(distances)
    heat = make_heatmap(kind, distances, best, np.random.default_rng(seed))
    check = theorem_b(distances, heat, opt, best)
    extra = check.bound - opt
    target((check.measured - opt) / extra if extra > 0 else 0.0, label="(ALG - OPT) / 2η")
    assert check.holds, check
    assert theorem_b_approx(distances, heat, opt).holds
    assert proposition_e(distances, heat, opt, best).holds
    # the randomized variant is never better than the sweep in the best case, and its
    # expectation dominates the sweep's minimum
    assert tsp.expected_threshold_cost(distances, heat) >= check.measured - 1e-12


@given(case=instances(min_n=4, max_n=8), seed=st.integers(0, 2**32 - 1), tau=st.floats(0.05, 1.0))
def test_lemma_a_steps_hold(case: tuple[str, FloatArray], seed: int, tau: float) -> None:
    _, distances = case
    opt, best = tsp.held_karp(distances)
    heat = make_heatmap("G3", distances, best, np.random.default_rng(seed))
    iu, ju = np.nonzero(np.triu(heat >= tau, 1))
    for check in lemma_a(distances, np.stack([iu, ju], axis=1), opt, best):
        assert check.holds, check


def test_checks_fail_for_a_broken_decoder() -> None:
    def worst_tour(D: FloatArray, X: FloatArray) -> IntArray:
        n = D.shape[0]
        candidates = [np.array(p) for p in ([0, 2, 1, 3, 4, 5], list(range(n)))]
        return max(candidates, key=lambda t: tsp.tour_length(D, t))

    _, distances = tsp.euclidean_instance(6, rng=np.random.default_rng(3))
    opt, best = tsp.held_karp(distances)
    heat = tsp.tour_indicator(best)  # η = 0: the bound is OPT itself
    assert not theorem_b(distances, heat, opt, best, decoder=worst_tour).holds
    assert not corollary_c(distances, best, decoder=worst_tour).holds
    broken_approx = theorem_b_approx(
        distances, heat, opt, decoder=lambda d, x: np.array([0, 3, 1, 4, 2, 5])
    )
    assert broken_approx.measured > opt


def test_lemma_a_fails_with_a_wrong_optimum() -> None:
    """Violate the hypothesis (OPT understated tenfold): the final inequality must fail."""
    _, distances = tsp.euclidean_instance(8, rng=np.random.default_rng(0))
    opt, best = tsp.held_karp(distances)
    path = tsp.tour_edges(best)[1:]  # T* minus one edge: repair returns T*
    connect, matching, final = lemma_a(distances, path, 0.1 * opt, best)
    assert connect.holds
    assert matching.holds
    assert not final.holds
    assert final.measured == pytest.approx(opt)


def test_tightness_at_zero_error() -> None:
    """η = 0 (the optimal tour as heatmap): OPT + 2η = OPT is attained, ratio exactly 1."""
    for seed in range(5):
        _, distances = tsp.euclidean_instance(9, rng=np.random.default_rng(seed))
        opt, best = tsp.held_karp(distances)
        check = theorem_b(distances, tsp.tour_indicator(best), opt, best)
        assert check.holds
        assert check.ratio == pytest.approx(1.0, abs=1e-12)


DRIVERS = [
    prove_theorem_b,
    prove_theorem_b_approx,
    prove_lemma_a,
    prove_corollary_c,
    prove_proposition_d,
    prove_proposition_e,
    prove_held_karp_oracle,
]


@pytest.mark.parametrize("driver", DRIVERS, ids=[d.__name__ for d in DRIVERS])
def test_drivers_hold_on_quick(driver: object) -> None:
    assert callable(driver)
    result = driver(ProveProfile(name="quick", seed=7, instances=2))
    assert result.holds, result


def test_drivers_registered() -> None:
    names = {t.name for t in all_theorems("tsp")}
    assert names == {
        "tsp.opt_plus_two_eta",
        "tsp.one_and_a_half_opt",
        "tsp.lemma_a",
        "tsp.corollary_c",
        "tsp.proposition_d",
        "tsp.proposition_e",
        "tsp.held_karp_oracle",
        "tsp.repair",
        "tsp.sampled_decode",
        "tsp.sampled_replay",
        "tsp.two_opt_option",
    }


@pytest.mark.slow
def test_full_profile_guarantee() -> None:
    result = prove_theorem_b(ProveProfile.named("full"))
    assert result.holds, result
