"""Spec 13 theorem checks: they hold on instances, and they can fail."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, target
from hypothesis import strategies as st
from numpy.typing import ArrayLike

from proofs_numeric import ProveProfile, all_theorems
from proofs_numeric import divergence as ad
from proofs_numeric._result import BoundCheck
from reference import divergence as dv


@settings(max_examples=10)
@given(alpha=st.floats(0.05, 0.95))
def test_v1_holds_on_grid(alpha: float) -> None:
    check = ad.v1_conjugate(alpha, np.linspace(-4.0, 0.9 / (1.0 - alpha), 6))
    assert check.holds, check


def test_v1_fails_for_wrong_alpha(monkeypatch: pytest.MonkeyPatch) -> None:
    # a conjugate computed with the wrong α must be caught
    real = dv.f_alpha_conjugate
    monkeypatch.setattr(dv, "f_alpha_conjugate", lambda t, a: real(t, min(0.95, a + 0.1)))
    assert not ad.v1_conjugate(0.5, np.linspace(-2.0, 1.5, 5)).holds


def test_v2_equality_and_strictness() -> None:
    check = ad.v2_log_ratio_bound(0.0, 1.0, 0.5)
    assert check.holds, check
    strict = ad.v2_strictness(0.0, 1.0, 0.5)
    assert strict.holds, strict
    # the optimal critic itself is not strictly below: the strictness check must not be vacuous
    at_optimum = BoundCheck(
        claim="",
        paper="",
        theorem="",
        measured=ad._gauss_j(1.0, 0.0, 0.0, 1.0, 0.5),
        bound=strict.bound,
        sense="<=",
    )
    assert not at_optimum.holds


@settings(max_examples=5)
@given(seed=st.integers(0, 10_000))
def test_v4_curvature_bound(seed: int) -> None:
    check = ad.v4_curvature(seed)
    target(check.bound / check.measured, label="bound / curvature")
    assert check.holds, check
    assert ad.v4_hessian_formula(seed).holds


def test_v3_and_v5_and_g3() -> None:
    v3 = ad.v3_profiled_value(1)
    assert v3.holds, v3
    rate = ad.v5_armijo_linear_rate(1)
    assert rate.holds, rate
    assert ad.v5_fit_quality(rate).holds
    assert ad.g3_kl_limit(2).holds


def test_v5_fails_without_convergence() -> None:
    stalled = ad.v5_armijo_linear_rate(1, iterations=3)
    assert not stalled.holds


def test_g3_fails_far_from_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    real = dv.alpha_divergence_gaussian

    def far(mu1: ArrayLike, s1: ArrayLike, mu2: ArrayLike, s2: ArrayLike, alpha: float) -> float:
        return real(mu1, s1, mu2, s2, 0.9)

    monkeypatch.setattr(dv, "alpha_divergence_gaussian", far)
    assert not ad.g3_kl_limit(2).holds


def test_registered_drivers_hold_in_quick_profile() -> None:
    entries = all_theorems("divergence", profile="quick")
    assert {e.name for e in entries} >= {"divergence.v1_conjugate", "divergence.v5_armijo_rate"}
    assert "divergence.rff_rate" not in {e.name for e in entries}
    for entry in entries:
        result = entry.driver(ProveProfile.named("quick"))
        assert result.holds, (entry.name, result)


@pytest.mark.slow
def test_rff_rate_full_profile() -> None:
    # spec 13 §4's settings (about 820 s of CPU): status row 29's D-rate
    check = ad.rff_rate_in_features(
        20260, n=4000, sizes=(16, 32, 64, 128, 256, 512), draws=10, proxy=4096, iterations=500
    )
    assert check.holds, check
