"""Theorem checks of spec 19: they hold on instances, they can fail, and tightness is visible."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, example, given, settings, target
from hypothesis import strategies as st
from numpy.typing import ArrayLike

from proofs_numeric import ProveProfile, all_theorems
from proofs_numeric import perturbation as ap
from properties.strategies import seeds
from reference import perturbation as pert


def test_sharpness_constant_closed_form_and_sampling_upper_bound() -> None:
    assert ap.sharpness_constant(ap.CLOSED_FORM) == pytest.approx(math.sqrt(2), rel=1e-9)
    rng = np.random.default_rng(0)
    for _ in range(4):
        a = rng.standard_normal((3, 4))
        alpha = ap.sharpness_constant(a)
        sol_x = np.asarray(pert.perturbed_minimiser(a, mu=1e-6))
        value = float(np.max(sol_x @ a))
        # α is a valid sharpness constant: g(x) - v* >= α ||x - x*|| at random points
        for _ in range(200):
            x = rng.dirichlet(np.ones(3))
            assert float(np.max(x @ a)) - value >= alpha * np.linalg.norm(x - sol_x) - 1e-6


@settings(max_examples=5)
@given(seed=seeds(), fraction=st.floats(0.1, 0.95))
@example(seed=72688, fraction=0.25)  # alpha = 0.03: 6000 fixed steps stopped 1.5e-7 short
def test_corollary_3_2_holds_on_random_games(seed: int, fraction: float) -> None:
    a = np.random.default_rng(seed).standard_normal((3, 3))
    # The claim is about the limit; reaching it takes ~25 (mu + ||A||)/mu steps, so games with a
    # tiny sharpness constant (alpha -> 0, mu -> 0) are outside what one test can afford.
    assume(ap.sharpness_constant(a) >= 0.025)
    check = ap.corollary_3_2(a, fraction=fraction, iterations=6000)
    target(check.measured, label="distance to X*")
    assert check.holds, check


def test_corollary_3_2_budget_follows_the_linearised_rate() -> None:
    # found by Hypothesis (seed 346, fraction 1/2): 6 048 steps of the 1 - ημ heuristic left
    # the iterate 1.4e-7 from x* (atol 1e-7); the linearised step's radius asks 12 230
    a = np.random.default_rng(346).standard_normal((3, 3))
    check = ap.corollary_3_2(a, fraction=0.5, iterations=6000)
    assert check.params["iterations"] == 12_230
    assert check.holds, check


def test_corollary_3_2_fails_for_a_broken_algorithm() -> None:
    def symmetric(payoff: object, **kw: object) -> pert.GDAResult:
        mu = kw.pop("mu")
        return pert.symp_gda(payoff, mu=mu, **kw)  # type: ignore[arg-type]

    check = ap.corollary_3_2(ap.BRPS, fraction=0.9, iterations=6000, solver=symmetric)
    assert not check.holds


def test_threshold_is_loose_on_the_closed_form_game() -> None:
    check = ap.threshold_direction(ap.CLOSED_FORM)
    assert check.holds
    # the QP-based invariance test has tolerance 1e-6 in x, which moves μ* by ~1e-5 relative
    assert check.bound == pytest.approx(15.0, rel=1e-4)
    assert check.ratio == pytest.approx(math.sqrt(2) / 15, rel=1e-4)


def test_invariance_fails_above_the_empirical_threshold() -> None:
    # a violated hypothesis: μ = 16 > μ* = 15 leaves X*, the check reports it
    check = ap.corollary_3_2(ap.CLOSED_FORM, fraction=16 / math.sqrt(2), iterations=3000)
    assert not check.holds
    assert check.measured == pytest.approx(math.sqrt(2) * (0.5 - 1.5 / 16 - 0.4), rel=1e-6)


def test_distance_bound_holds_and_closed_form_tightness() -> None:
    check = ap.distance_bound(ap.CLOSED_FORM, mu=30.0, iterations=3000)
    assert check.holds
    assert check.measured == pytest.approx(0.05 * math.sqrt(2), rel=1e-6)


def test_rate_check_holds_and_fails_for_gda() -> None:
    a = np.random.default_rng(4).uniform(-1, 1, size=(10, 15))
    slope, r2 = ap.theorem_4_1_rate(a)
    assert slope.holds, slope
    assert r2.holds, r2
    assert -0.05 < slope.measured < -1e-3

    def plain_gda(payoff: object, **kw: object) -> pert.GDAResult:
        kw.pop("mu")
        return pert.gda(payoff, **kw)  # type: ignore[arg-type]

    bad_slope, _ = ap.theorem_4_1_rate(ap.BRPS, horizon=600, solver=plain_gda)
    assert not bad_slope.holds


def test_algorithm_1_checks() -> None:
    a = np.random.default_rng(2).uniform(-1, 1, size=(8, 12))
    done, slope = ap.algorithm_1_complexity(a, tolerances=(1e-2, 1e-5, 1e-8))
    assert done.holds, done
    assert slope.holds, slope
    assert slope.measured < 0.3


def test_brps_checks() -> None:
    inv, qp, shift = ap.brps_invariance(iterations=2500)
    assert inv.holds
    assert qp.holds
    assert shift.holds
    x_mu3 = qp.params["x"]
    assert isinstance(x_mu3, tuple)
    assert np.max(np.abs(np.array(x_mu3[0]) - [7 / 30, 17 / 30, 1 / 5])) <= 1e-6  # exact KKT


def test_brps_orientation_check_rejects_the_mirrored_game() -> None:
    inv, qp, shift = ap.brps_invariance(iterations=2500, payoff=-ap.BRPS)
    assert inv.holds  # same equilibrium and threshold ...
    assert qp.holds
    assert not shift.holds  # ... but above it the shift goes towards action 3


def test_drivers_registered() -> None:
    names = {t.name for t in all_theorems("perturbation")} | {
        t.name for t in all_theorems("extensive")
    }
    assert {
        "perturbation.closed_form",
        "perturbation.corollary_3_2",
        "perturbation.threshold_direction",
        "perturbation.distance_bound",
        "perturbation.theorem_4_1",
        "perturbation.algorithm_1",
        "perturbation.brps",
        "extensive.kuhn_value",
        "extensive.kuhn_asymp_dgda",
    } <= names
    quick = ProveProfile.named("quick")
    assert ap.prove_threshold_direction(quick).holds


def test_algorithm_1_recomputes_nash_conv(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 17: the termination check read the result's own nash_conv; a solver that returns
    # a stale y (the one from its eps = 1e-2 run) with the claimed NashConv passed
    a = np.random.default_rng(2).uniform(-1, 1, size=(8, 12))
    real = pert.parameter_free
    for eps in (1e-2, 1e-8):
        res = real(a, tol=eps)
        assert ap.pure_nash_conv(a, res.x, res.y) == pytest.approx(res.nash_conv, abs=1e-15)

    def stale_y(payoff: ArrayLike, *, tol: float, **kw: Any) -> pert.ParameterFreeResult:
        res = real(payoff, tol=tol, **kw)
        return dataclasses.replace(res, y=real(payoff, tol=1e-2, **kw).y)

    monkeypatch.setattr(pert, "parameter_free", stale_y)
    done, _ = ap.algorithm_1_complexity(a, tolerances=(1e-2, 1e-5, 1e-8))
    assert not done.holds
    assert done.measured > 10.0  # NashConv / eps of the stale pair at eps = 1e-5 and 1e-8


def test_theorem_4_1_measures_the_distance_to_the_true_perturbed_point() -> None:
    # issue 17: the rate was measured towards the method's own long-run limit, so SymP-GDA
    # (both players perturbed: linear convergence to a shifted point) passed with slope
    # -0.0133, R² 0.9997 on this game.  The target is now x^μ from the QP + exact KKT solve
    a = np.random.default_rng(4).uniform(-1, 1, size=(10, 15))
    target, polished = ap.perturbed_target(a, 0.05)
    assert polished
    limit = np.asarray(pert.asymp_gda_side(a, mu=0.05, max_iter=20_000, tol=None).x)
    assert float(np.linalg.norm(target - limit)) < 1e-12  # AsymP-GDA's limit is x^μ
    slope, r2 = ap.theorem_4_1_rate(a, solver=pert.symp_gda)
    assert not (slope.holds and r2.holds)
    assert slope.measured > -1e-3  # plateau at ||x_sym - x^μ||: no linear decrease
    assert r2.measured < 0.5


def test_step_recursion_is_exact_and_sees_the_projection() -> None:
    # issue 36: the replay agrees to rounding on a game whose large step clips entries to 0
    rng = np.random.default_rng(5)
    a = rng.standard_normal((5, 3))
    step_size = 3.0 / float(np.linalg.norm(a, 2))
    check = ap.step_recursion(a, mu=1.7, step_size=step_size, steps=3, rng=rng)
    assert check.holds
    assert check.measured <= 1e-14
    clipped = ap.project_onto_simplex(np.array([2.0, -1.0, 0.5]))
    np.testing.assert_allclose(clipped, [1.0, 0.0, 0.0])
    assert ap.project_onto_simplex(np.array([0.2, 0.3, 0.5])).tolist() == [0.2, 0.3, 0.5]


def test_step_recursion_rejects_a_simultaneous_update() -> None:
    from proofs_numeric import substituted

    a = np.random.default_rng(6).standard_normal((3, 4))
    target = "tests.perturbation.proof_mutants:simultaneous_side"
    with substituted({"reference.perturbation:asymp_gda_side": target}):
        check = ap.step_recursion(a, mu=0.5, step_size=0.3, steps=2, rng=np.random.default_rng(0))
    assert not check.holds
