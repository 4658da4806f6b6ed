"""Spec 07 checks hold, and can fail."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_numeric import ProveProfile, all_theorems
from proofs_numeric import preference as dn
from reference import preference as pf


def test_registered_checks_hold() -> None:
    for entry in all_theorems("preference", profile="quick"):
        result = entry.driver(ProveProfile.named("quick"))
        assert result.holds, (entry.name, result)


@settings(max_examples=5)
@given(seed=st.integers(0, 10_000))
def test_random_instances(seed: int) -> None:
    assert dn.t1_regret_is_bregman(seed, 20).holds
    assert dn.t5_representation(seed).holds
    assert dn.t8_optimal_policy(seed, "log").holds


def test_t2_asymmetric_control_breaks_symmetric_identity() -> None:
    shifted = pf.BinaryLoss(
        name="brier+constants",
        ell1=lambda q: (1 - q) ** 2 + 0.3,
        ell0=lambda q: q**2 - 0.1,
        link=lambda q: 2 * q - 1 - 0.4,
        inverse_link=lambda z: (1 + z + 0.4) / 2,
        conjugate=lambda z: ((1 + z + 0.4) / 2) ** 2 - 0.1,
        symmetric=False,
    )
    assert dn.t2_triptych(shifted, symmetric_identity=False).holds
    assert not dn.t2_triptych(shifted, symmetric_identity=True).holds


def test_t7_fails_for_negative_margin() -> None:
    assert not dn.t7_margin_rao_kupper(-0.5).holds


def test_t9_sigmoid_has_no_finite_minimiser() -> None:
    # ψ = σ: the risk at t·u* strictly decreases in t, so no finite minimiser recovers u* (spec T9)
    rng = np.random.default_rng(1)
    truth = rng.standard_normal(6)
    diffs = truth[:, None] - truth[None, :]
    p = 1 / (1 + np.exp(-diffs))
    iu = np.triu_indices(6, 1)

    def risk(u: np.ndarray) -> float:
        d = u[:, None] - u[None, :]
        return float(np.sum(p[iu] * pf.SIGMOID.fn(-d[iu]) + p.T[iu] * pf.SIGMOID.fn(d[iu])))

    values = [risk(t * truth) for t in (1, 2, 4, 8)]
    assert all(b < a for a, b in itertools.pairwise(values))
    assert not dn.t9_fisher_consistency(1, pf.SIGMOID).holds


@pytest.mark.parametrize("psi", ["softplus", "sigmoid2", "softplus2"])
@pytest.mark.parametrize("link", ["sigmoid", "probit"])
def test_t4_embeddings(psi: str, link: str) -> None:
    assert dn.t4_embedding(psi, link).holds


def test_t6_calls_the_library_lottery_matrix(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 17: the sympy factorisation never called lottery_matrix.  Mutant: the column
    # lottery weighs its second prize by alpha instead of 1 - alpha (a copy-paste slip)
    ok = dn.t6_no_atomic_abstention()
    assert ok.holds
    assert ok.measured == 0.0

    def wrong_weights(P: object, alpha: float) -> np.ndarray:
        m = np.asarray(P, dtype=np.float64)
        k = m.shape[0]
        a, b = alpha, 1.0 - alpha
        t = (
            a * a * m[:, None, :, None]
            + a * a * m[:, None, None, :]
            + b * a * m[None, :, :, None]
            + b * a * m[None, :, None, :]
        )
        return np.ascontiguousarray(t.reshape(k * k, k * k))

    monkeypatch.setattr(pf, "lottery_matrix", wrong_weights)
    wrong = dn.t6_no_atomic_abstention()
    assert not wrong.holds
    assert wrong.measured > 0.05


def test_t1_true_gradient_fails_for_an_improper_loss(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 17: regret == bregman_divergence (with G = -loss(q)) holds for ANY loss, so a log
    # loss that forgot its log (loss_i(q) = 1 - q_i, improper) passed t1_bregman.  The new part
    # differentiates the Bayes risk itself, which separates proper from improper losses
    ok = dn.t1_true_gradient(0, count=50)
    assert ok.holds
    assert ok.measured < 1e-8

    def forgot_the_log(q: object) -> np.ndarray:
        return 1.0 - np.asarray(q, dtype=np.float64)

    monkeypatch.setattr(pf, "multiclass_log_loss", forgot_the_log)
    assert dn.t1_regret_is_bregman(0, count=50).holds  # the old numeric part cannot tell
    wrong = dn.t1_true_gradient(0, count=50)
    assert not wrong.holds
    assert wrong.measured > 0.01
