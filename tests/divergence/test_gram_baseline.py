"""Baseline B2 of spec 13 (Gram-matrix RKHS critic): whitening, representer identity, accuracy."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from reference import divergence as dv


def _gauss_gram(a: np.ndarray, b: np.ndarray, sigma: float) -> np.ndarray:
    return np.asarray(np.exp(-cdist(a, b, "sqeuclidean") / (2.0 * sigma**2)))


def test_whitened_features_reproduce_the_gram_matrix_on_the_anchors() -> None:
    """Rows f(u_l) = K^{-1/2} k(U, u_l) = K^{1/2} e_l, so F Fᵀ = K (up to the jitter)."""
    rng = np.random.default_rng(0)
    anchors = rng.standard_normal((40, 2))
    feats = dv.make_gram_features(anchors, sigma=1.3, jitter=1e-10)
    f = feats.transform(anchors)
    assert f.shape == (40, 40)
    np.testing.assert_allclose(f @ f.T, _gauss_gram(anchors, anchors, 1.3), atol=1e-6)


def test_feature_norm_is_at_most_one_off_the_anchors() -> None:
    """‖K^{-1/2} k(U, x)‖² = k(U,x)ᵀ K^{-1} k(U,x) <= k(x, x) = 1 (projection onto span k(U, ·))."""
    rng = np.random.default_rng(1)
    feats = dv.make_gram_features(rng.standard_normal((60, 3)), sigma=1.0)
    norms = np.linalg.norm(feats.transform(3.0 * rng.standard_normal((200, 3))), axis=1)
    assert float(norms.max()) <= 1.0 + 1e-6
    assert float(norms.max()) > 0.5  # points near anchors are well represented


def test_linear_critic_is_the_representer_critic_with_the_same_rkhs_norm() -> None:
    """vᵀ f(x) = Σ β_l k(u_l, x) with β = K^{-1/2} v, and βᵀ K β = ‖v‖²."""
    rng = np.random.default_rng(2)
    anchors = rng.standard_normal((30, 2))
    feats = dv.make_gram_features(anchors, sigma=0.9, jitter=1e-12)
    v = rng.standard_normal(30)
    beta = feats.whitening @ v
    x = rng.standard_normal((15, 2))
    gram = _gauss_gram(anchors, anchors, 0.9)
    np.testing.assert_allclose(feats.transform(x) @ v, _gauss_gram(x, anchors, 0.9) @ beta, atol=1e-8)
    assert float(beta @ gram @ beta) == pytest.approx(float(v @ v), rel=1e-5)


def test_gram_estimate_is_close_to_the_closed_form_in_one_dimension() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((800, 1))
    y = 1.0 + rng.standard_normal((800, 1))
    truth = dv.alpha_divergence_gaussian(np.zeros(1), np.eye(1), np.ones(1), np.eye(1), 0.5)
    est = dv.gram_alpha_divergence(
        x, y, 0.5, rng=np.random.default_rng(4),
        config=dv.ArmijoConfig(radius=3.0, max_iter=300, batch_size=256),
    )
    assert est.features.anchors.shape == (800, 1)
    assert float(np.linalg.norm(np.asarray(est.fit.theta)[:-1])) <= 3.0 * (1 + 1e-12)
    assert abs(est.value_heldout - truth) < 0.1
    assert est.value_heldout < truth + 0.1


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"sigma": 0.0}, "sigma"), ({"sigma": -1.0}, "sigma"), ({"jitter": 0.0}, "jitter")],
)
def test_bad_bandwidth_or_jitter_names_the_argument(kwargs: dict[str, float], name: str) -> None:
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal((10, 1)), rng.standard_normal((10, 1))
    with pytest.raises(ValueError, match=name):
        dv.gram_alpha_divergence(x, y, 0.5, rng=rng, **kwargs)  # type: ignore[arg-type]


def test_gram_estimate_rejects_alpha_outside_the_unit_interval_and_short_samples() -> None:
    rng = np.random.default_rng(6)
    x, y = rng.standard_normal((10, 1)), rng.standard_normal((10, 1))
    with pytest.raises(ValueError, match="alpha"):
        dv.gram_alpha_divergence(x, y, 1.5, rng=rng)
    with pytest.raises(ValueError, match="x, y"):
        dv.gram_alpha_divergence(x[:3], y, 0.5, rng=rng)
