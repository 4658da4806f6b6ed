"""Theorem checks of specs 02 and 14: they hold on real runs, fail when broken, and are tight."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from proofs_numeric import ProveProfile
from proofs_numeric import optimizers as fw
from proofs_numeric import optimizers as sa
from proofs_numeric._registry import _REGISTRY
from reference import optimizers as ref

QUICK = ProveProfile.named("quick")


def test_drivers_registered_and_hold() -> None:
    # read the registry directly: all_theorems() imports every family (some may be mid-edit)
    entries = {n: e for n, e in _REGISTRY.items() if e.family == "optimizers"}
    expected = {
        "optimizers.lgi_range",
        "optimizers.lgi_affine",
        "optimizers.s_adam_reduction",
        "optimizers.s_adam_rescaling",
        "optimizers.lion_sfw",
        "optimizers.muon_sfw",
        "optimizers.lmo_optimality",
        "optimizers.sfw_feasibility",
        "optimizers.sfw_gap_rate",
        "optimizers.ns_spectral_identity",
    }
    assert expected <= set(entries)
    for name in sorted(expected):
        result = entries[name].driver(QUICK)
        assert result.holds, (name, result)


@pytest.mark.parametrize("seed", range(5))
def test_lgi_range_is_tight_near_the_edge(seed: int) -> None:
    # P1 is attained when the slopes have mean 0: f(x) = x with directions (+1, -1)
    check = sa.lgi_injected(0.0)
    assert check.holds
    assert check.measured == 2.0
    rng = np.random.default_rng(seed)
    theta = rng.normal(size=3)
    c = sa.lgi_range(
        lambda x: float(np.sum(np.abs(x))), theta, k=4, sigma=0.5, zeta=1e-6, seed=seed
    )
    assert c.holds
    assert c.measured <= c.bound


def test_lgi_affine_fails_for_a_non_affine_flat_function() -> None:
    # a wrong "affine" claim: |x| at its kink has rho = 0, far from 1
    rho = ref.lgi(
        lambda x: float(np.abs(x[0])),
        np.zeros(1),
        0.0,
        k=100,
        sigma=0.1,
        rng=np.random.default_rng(0),
    )
    assert rho < 1e-12
    assert sa.lgi_affine(k=1000, d=3, seed=1).holds


def test_s_adam_reduction_detects_damping() -> None:
    assert sa.s_adam_reduction(d=3, steps=10, seed=0).holds
    broken = sa.s_adam_reduction(d=3, steps=10, seed=0, k=3, lam=2.0)  # brake on: not AdamW
    assert not broken.holds


def test_lion_sfw_fails_with_a_wrong_radius(monkeypatch: pytest.MonkeyPatch) -> None:
    assert fw.lion_sfw_equivalence(d=4, steps=20, lr=0.1, wd=0.5, seed=0).holds
    original = ref.LionConfig.to_sfw

    def wrong(self: Any) -> Any:
        import dataclasses

        return dataclasses.replace(original(self), radius=2.0 / self.weight_decay)

    monkeypatch.setattr(ref.LionConfig, "to_sfw", wrong)
    assert not fw.lion_sfw_equivalence(d=4, steps=20, lr=0.1, wd=0.5, seed=0).holds


def test_muon_sfw_needs_mu_squared() -> None:
    assert fw.muon_sfw_equivalence(m=3, n=2, steps=10, lr=0.1, wd=1.0, nesterov=True, seed=0).holds
    cfg = ref.MuonConfig(learning_rate=0.1, weight_decay=1.0, exact_polar=True)
    import dataclasses

    from reference.optimizers.fw import make_sfw

    wrong = make_sfw(dataclasses.replace(cfg.to_sfw(), b1=0.95))  # beta1 = mu instead of mu^2
    rng = np.random.default_rng(0)
    grads = [rng.normal(size=(3, 2)) for _ in range(5)]
    a = fw._trajectory(
        ref.muon(learning_rate=0.1, weight_decay=1.0, exact_polar=True), np.zeros((3, 2)), grads
    )
    b = fw._trajectory(wrong, np.zeros((3, 2)), grads)
    assert float(np.max(np.abs(a[-1] - b[-1]))) > 1e-3


def test_gap_bound_is_informative_and_can_fail() -> None:
    ok = fw.sfw_gap_bound(d=4, steps=100, radius=1.0, seed=3, adaptive=False)
    assert ok.holds
    assert 0 < ok.ratio < 1
    assert ok.series["gap"][1][-1] >= 0
    # the enumeration oracle is exact: a random box QP minimum is below every feasible value
    rng = np.random.default_rng(0)
    q = rng.normal(size=(3, 3))
    q = q + q.T
    c = rng.normal(size=3)
    best = fw.box_qp_minimum(q, c, 1.0)
    pts = rng.uniform(-1, 1, size=(2000, 3))
    assert best <= float(np.min(0.5 * np.einsum("ij,jk,ik->i", pts, q, pts) + pts @ c)) + 1e-12


def test_feasibility_check_fails_for_an_oversized_step() -> None:
    assert fw.sfw_feasibility(d=3, steps=20, gamma=0.3, radius=1.0, seed=0).holds
    # with step_size > 1 the iterates overshoot: the constructor refuses it, the math breaks
    with pytest.raises(ValueError, match="step_size"):
        ref.sfw(step_size=1.5)


def test_ns_identity_fails_for_four_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    assert fw.ns_spectral_identity(m=4, n=3, seed=0).holds
    monkeypatch.setattr(fw, "newton_schulz", lambda u: ref.newton_schulz(u, steps=4))
    assert not fw.ns_spectral_identity(m=4, n=3, seed=0).holds


def test_s_adam_rescaling_recomputes_the_brake(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 17: alpha used to be read from the optimizer's own state, so an optimizer whose
    # rho is computed wrongly (population variance, ddof = 0, instead of spec 02's ddof = 1)
    # passed; alpha is now recomputed from the loss evaluations the optimizer made
    ok = sa.s_adam_rescaling(d=4, steps=30, seed=3, lam=2.0)
    assert ok.holds
    assert ok.measured < 1e-13

    def population_variance(**kw: Any) -> Any:
        return ref.s_adam(**{**kw, "ddof": 0})

    monkeypatch.setattr(sa, "s_adam", population_variance)
    wrong = sa.s_adam_rescaling(d=4, steps=30, seed=3, lam=2.0)
    assert not wrong.holds
    assert wrong.measured > 1e-2  # alpha off by exp(-lambda rho / 3): a visible step change


def test_lgi_range_bound_does_not_trust_mean_square(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 17: the bound was built from the result's own mean_square.  Mutant: slopes divided
    # by sigma twice (a finite difference scaled by 1/sigma^2); its mean_square is consistent
    # with its rho, so the old check passed, but zeta no longer damps small slopes
    def f(x: Any) -> float:
        return float(np.sum(np.asarray(x) ** 2))

    theta = np.full(3, 1e-3)
    ok = sa.lgi_range(f, theta, k=4, sigma=1e-3, zeta=1e-2, seed=0)
    assert ok.holds

    def scaled_twice(loss: Any, th: Any, base: float, *, sigma: float, **kw: Any) -> Any:
        return ref.lgi_details(lambda x: loss(x) / sigma, th, base / sigma, sigma=sigma, **kw)

    monkeypatch.setattr(sa, "lgi_details", scaled_twice)
    wrong = sa.lgi_range(f, theta, k=4, sigma=1e-3, zeta=1e-2, seed=0)
    assert not wrong.holds
    assert wrong.ratio > 10.0
