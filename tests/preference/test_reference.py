"""Reference preference code against closed forms and the spec's stated facts and caveats."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special

from reference import preference as pf


def test_dpo_is_minus_log_sigmoid_and_stable() -> None:
    rng = np.random.default_rng(0)
    lw, ll, rw, rl = (-rng.uniform(0.1, 10.0, size=20) for _ in range(4))
    delta = (lw - rw) - (ll - rl)
    want = float(np.mean(-np.log(special.expit(0.5 * delta))))
    assert pf.dpo_loss(lw, ll, rw, rl, beta=0.5) == pytest.approx(want, rel=1e-12)
    assert pf.dpo_loss([0.0], [-2000.0], [0.0], [0.0], beta=1.0) == 0.0
    assert pf.dpo_loss([-2000.0], [0.0], [0.0], [0.0], beta=1.0) == pytest.approx(2000.0)


def test_margin_length_and_family_instances() -> None:
    args = ([-1.0, -2.0], [-2.0, -1.5], [-1.5, -1.5], [-1.5, -1.5])
    base = pf.dpo_loss(*args, beta=1.0)
    assert pf.dpo_loss(*args, beta=1.0, margin=0.0) == base
    assert pf.dpo_loss(*args, beta=1.0, margin=0.5) > base  # non-decreasing in γ (5.5)
    rdpo = pf.dpo_loss(*args, beta=1.0, length_w=[10, 3], length_l=[2, 2], length_coef=0.1)
    z = np.array(
        [-1.0 - 1.0 + 0.1 * 10 - 0.1 * 2, 0.5 + 0.1 * 3 - 0.1 * 2]
    )  # u_l - u_w with lengths
    z = np.array([(-2.0 + 1.5 - 0.2) - (-1.0 + 1.5 - 1.0), (-1.5 + 1.5 - 0.2) - (-2.0 + 1.5 - 0.3)])
    assert rdpo == pytest.approx(float(np.mean(np.logaddexp(0, z))), rel=1e-12)
    with pytest.raises(ValueError, match="length_w"):
        pf.dpo_loss(*args, length_coef=0.1)
    savage = pf.preference_loss([0.0, 1.0], [1.0, 0.0], pf.SAVAGE)
    assert 0.0 <= savage <= 1.0
    assert pf.preference_loss([0.0], [0.0], pf.hinge_psi(1.0)) == 1.0
    assert pf.preference_loss([0.0], [0.0], pf.ipo_psi(0.5)) == 1.0
    with pytest.raises(ValueError, match="margin"):
        pf.preference_loss([0.0], [0.0], margin=-1.0)
    assert pf.preference_loss(
        [0.0], [0.0], margin=-1.0, allow_negative_margin=True
    ) == pytest.approx(math.log1p(math.exp(-1.0)))


def test_psi_catalogue_monotonicity_and_symmetry() -> None:
    z = np.linspace(-30, 30, 2001)
    for psi in (pf.SOFTPLUS, pf.SAVAGE, pf.matsushita_canonical_psi(), pf.SIGMOID):
        assert psi.strictly_increasing
        assert np.all(np.diff(psi.fn(z)) > 0) or psi is pf.SAVAGE  # σ² saturates in float at -30
    for psi in (pf.SOFTPLUS, pf.matsushita_canonical_psi()):
        np.testing.assert_allclose(psi.fn(z) - psi.fn(-z), z, atol=1e-9)  # 5.3: ψ(z) - ψ(-z) = z
    zz = np.linspace(-1, 1, 101)
    brier = pf.brier_canonical_psi()
    np.testing.assert_allclose(brier.fn(zz) - brier.fn(-zz), zz, atol=1e-12)
    cdpo = pf.cdpo_psi(0.2)
    assert not cdpo.strictly_increasing
    assert cdpo.derivative(np.array(-5.0)) < 0  # decreasing where σ(z) < ε
    ipo = pf.ipo_psi(0.1)
    assert ipo.fn(np.array(-6.0)) > ipo.fn(np.array(-5.0))  # not monotone


def test_implied_links() -> None:
    z = np.linspace(-8, 8, 33)
    np.testing.assert_allclose(pf.implied_link(pf.SOFTPLUS)(z), special.expit(z), atol=1e-12)
    np.testing.assert_allclose(pf.implied_link(pf.SAVAGE)(z), special.expit(z), atol=1e-12)
    np.testing.assert_allclose(pf.implied_link(pf.SIGMOID)(z), 0.5, atol=1e-12)  # F_σ ≡ 1/2


def test_embedding_endpoint_caveat() -> None:
    sigmoid = lambda z: float(special.expit(z))  # noqa: E731
    with pytest.raises(ValueError, match="ell_0"):
        pf.embed_psi(lambda z: z, sigmoid, closed=True)
    with pytest.raises(ValueError, match="ell_1"):
        pf.embed_psi(math.exp, sigmoid, closed=True)
    open_loss = pf.embed_psi(lambda z: z, sigmoid)  # the open-interval loss exists
    assert open_loss.ell0(0.5) == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ValueError, match="psi"):
        pf.embed_psi(lambda z: -z, sigmoid)


def test_choice_models_and_axioms() -> None:
    u = np.array([0.3, -1.0, 2.0, 0.0])
    for link in (pf.btl_link(), pf.thurstone_link(0.5)):
        p = pf.choice_matrix(u, link)
        np.testing.assert_allclose(pf.abstention(p), 0.0, atol=1e-12)
        assert pf.is_bearable(p)
        assert len(pf.zero_abstention_graph(p)) == 6
    rk = pf.choice_matrix(u, pf.rao_kupper_link(2.0))
    assert np.all(pf.abstention(rk)[~np.eye(4, dtype=bool)] > 0)
    assert pf.zero_abstention_graph(rk) == []
    with pytest.raises(ValueError, match="theta"):
        pf.rao_kupper_link(0.5)
    # degenerate lotteries (y y)_α equal the atoms (5.13)
    m = pf.lottery_matrix(pf.choice_matrix(u, pf.btl_link()), 0.3)
    atoms = [i * 4 + i for i in range(4)]
    np.testing.assert_allclose(
        m[np.ix_(atoms, atoms)], pf.choice_matrix(u, pf.btl_link()), atol=1e-15
    )
    # the audit's cyclic control fails monotonicity and is not representable
    cyclic = np.array([[0.5, 0.75, 0.25], [0.25, 0.5, 0.75], [0.75, 0.25, 0.5]])
    assert pf.monotonicity_violation(cyclic) is not None
    assert not pf.representable(cyclic)[0]
    # Fechnerian atoms (P = F(u_a - u_b)) are monotone: the two premises add up to the conclusion
    assert pf.monotonicity_violation(pf.choice_matrix(u, pf.btl_link())) is None
    with pytest.raises(NotImplementedError, match="not recovered"):
        pf.local_choice_structure(m, 0.3)
    with pytest.raises(ValueError, match="P \\+ Pᵀ"):
        pf.abstention(np.array([[0.5, 0.9], [0.9, 0.5]]))


def test_optimal_policy_and_implicit_reward() -> None:
    ref = np.array([0.2, 0.3, 0.5])
    r = np.array([1.0, 0.0, -1.0])
    pi = pf.optimal_policy(r, ref, beta=0.5)
    np.testing.assert_allclose(pi, ref * np.exp(r / 0.5) / np.sum(ref * np.exp(r / 0.5)))
    reward = pf.implicit_reward(pi, ref, beta=0.5)
    assert np.ptp(reward - r) < 1e-12  # the implicit reward is r up to a context constant
    brier = pf.implicit_reward(np.array([0.3, 0.3, 0.4]), ref, beta=1.0, loss="brier")
    want = 2 * (np.array([0.3, 0.3, 0.4]) - ref) + (ref @ ref - 0.34)
    np.testing.assert_allclose(brier, want, atol=1e-12)
    with pytest.raises(ValueError, match="policy"):
        pf.implicit_reward(np.array([0.0, 0.5, 0.5]), ref)


def test_tabular_gradient_and_recovery() -> None:
    rng = np.random.default_rng(3)
    pairs = np.column_stack(
        [rng.integers(0, 3, 40), rng.integers(0, 4, 40), rng.integers(0, 4, 40)]
    )
    pairs = pairs[pairs[:, 1] != pairs[:, 2]]
    theta = rng.standard_normal((3, 4))
    log_ref = np.log(np.full((3, 4), 0.25))
    for psi in (pf.SOFTPLUS, pf.SAVAGE):
        _, grad = pf.tabular_loss_and_grad(theta, pairs, psi, beta=0.5, log_ref=log_ref)
        h = 1e-6
        numeric = np.zeros_like(theta)
        for idx in np.ndindex(theta.shape):
            e = np.zeros_like(theta)
            e[idx] = h
            up = pf.tabular_loss_and_grad(theta + e, pairs, psi, beta=0.5, log_ref=log_ref)[0]
            down = pf.tabular_loss_and_grad(theta - e, pairs, psi, beta=0.5, log_ref=log_ref)[0]
            numeric[idx] = (up - down) / (2 * h)
        np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-9)
    # noiseless BTL data on one context: the learned implicit reward orders the responses like u*
    truth = np.array([0.0, 1.0, 2.0, 3.0])
    rows = []
    for _ in range(400):
        a, b = rng.choice(4, size=2, replace=False)
        win = rng.random() < 1 / (1 + np.exp(-(truth[a] - truth[b])))
        rows.append((0, a, b) if win else (0, b, a))
    fit = pf.train_tabular_policy(
        np.array(rows), 1, 4, pf.SOFTPLUS, beta=1.0, steps=400, learning_rate=0.05
    )
    assert list(np.argsort(fit.rewards[0])) == [0, 1, 2, 3]
    assert fit.losses[-1] < fit.losses[0]
    with pytest.raises(ValueError, match="pairs"):
        pf.tabular_loss_and_grad(
            theta, np.array([[0, 9, 1]]), pf.SOFTPLUS, beta=0.5, log_ref=log_ref
        )
