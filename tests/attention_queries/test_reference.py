"""Unit tests of reference.attention_queries."""

from __future__ import annotations

import numpy as np
import pytest

from reference import attention_queries as aq


def test_two_token_weight_is_a_sigmoid() -> None:
    rng = np.random.default_rng(0)
    W = rng.standard_normal((3, 3))
    X = rng.standard_normal((2, 3))
    alpha = aq.attention_weights(X, W)
    s = X @ W @ X[-1]
    assert alpha[0] == pytest.approx(1.0 / (1.0 + np.exp(-(s[0] - s[1]))), rel=1e-14)


def test_oracle_counts_and_noise_models() -> None:
    W, v = np.eye(2), np.array([1.0, -1.0])
    exact = aq.AttentionOracle(W, v)
    X = np.array([[1.0, 2.0], [0.5, 0.5]])
    f = exact(X)
    assert exact.queries == 1
    adv = aq.AttentionOracle(W, v, tau=0.1, noise="adversarial")
    assert adv(X) == pytest.approx(f - 0.1)
    assert adv(X[:1]) == pytest.approx(-1.0 + 0.1)
    uni = aq.AttentionOracle(W, v, tau=0.1, noise="uniform", rng=np.random.default_rng(0))
    assert abs(uni(X) - f) <= 0.1
    seq = aq.AttentionOracle(W, v, tau=0.1, noise=[1.0, -0.5])
    assert seq(X) == pytest.approx(f + 0.1)
    assert seq(X) == pytest.approx(f - 0.05)
    with pytest.raises(ValueError, match="rng"):
        aq.AttentionOracle(W, v, tau=0.1, noise="uniform")
    with pytest.raises(ValueError, match="tau"):
        aq.AttentionOracle(W, v, tau=-1.0)


def test_recover_exact_large_and_zero_value() -> None:
    rng = np.random.default_rng(1)
    d = 24
    W, v = rng.standard_normal((d, d)), rng.standard_normal(d)
    rec = aq.recover_exact(aq.AttentionOracle(W, v))
    assert rec.queries == d * d + d
    assert np.max(np.abs(rec.W - W)) < 1e-8 * (1 + np.max(np.abs(W)))
    with pytest.raises(aq.NotIdentifiableError, match="not identifiable"):
        aq.recover_exact(aq.AttentionOracle(W, np.zeros(d)))


def test_recover_exact_rescales_saturated_probes() -> None:
    W = np.array([[400.0, 0.0], [0.0, -400.0]])
    rec = aq.recover_exact(aq.AttentionOracle(W, np.array([1.0, 0.5])))
    assert rec.resamples > 0
    assert rec.queries > 6
    np.testing.assert_allclose(rec.W, W, rtol=1e-6, atol=1e-6)


def test_recover_noisy_validates_assumptions() -> None:
    oracle = aq.AttentionOracle(np.zeros((2, 2)), np.array([1.0, 0.01]))
    with pytest.raises(ValueError, match="mu"):
        aq.recover_noisy(oracle, 0.0, w_bound=1.0, mu=0.5)
    with pytest.raises(ValueError, match="tau"):
        aq.recover_noisy(oracle, 0.3, w_bound=1.0, mu=0.5)


def test_low_rank_warns_below_2rd() -> None:
    rng = np.random.default_rng(2)
    oracle = aq.AttentionOracle(
        np.outer(rng.standard_normal(4), rng.standard_normal(4)), np.ones(4)
    )
    with pytest.warns(aq.RecoveryNotGuaranteedWarning):
        aq.recover_low_rank(oracle, 1, 4, rng=rng, max_iter=10)


def test_witnesses_differ_but_agree() -> None:
    rng = np.random.default_rng(3)
    pairs = aq.multihead_witnesses(
        rng.standard_normal((2, 2)), rng.standard_normal(2), shift=np.ones(2), other_W=np.eye(2) * 7
    )
    for _, a, b in pairs:
        assert not (np.array_equal(a.Ws, b.Ws) and np.array_equal(a.vs, b.vs))
        X = rng.standard_normal((4, 2))
        assert aq.multihead_output(X, a.Ws, a.vs) == pytest.approx(
            aq.multihead_output(X, b.Ws, b.vs), abs=1e-12
        )


def test_passive_fit_is_only_approximate() -> None:
    rng = np.random.default_rng(4)
    W, v = rng.standard_normal((2, 2)), rng.standard_normal(2)
    fit = aq.passive_fit(aq.AttentionOracle(W, v), 30, rng=rng, max_iter=50)
    assert fit.queries == 30
    assert np.isfinite(fit.loss)
