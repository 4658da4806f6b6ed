"""Reference α-divergence code against independent oracles (quadrature, Monte Carlo, closed forms)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from reference import divergence as dv


def _quadrature_divergence(m1: float, v1: float, m2: float, v2: float, alpha: float) -> float:
    p, q = stats.norm(m1, math.sqrt(v1)), stats.norm(m2, math.sqrt(v2))
    coefficient = integrate.quad(
        lambda x: p.pdf(x) ** alpha * q.pdf(x) ** (1 - alpha),
        -40,
        40,
        epsabs=1e-13,
        epsrel=1e-12,
        limit=400,
    )[0]
    return (1.0 - coefficient) / (alpha * (1.0 - alpha))


def test_spec_examples() -> None:
    # spec 13, G1 example 1 (d = 1): A = e^{-1/8}, D = 0.470012
    assert dv.alpha_divergence_gaussian([0.0], [[1.0]], [1.0], [[1.0]], 0.5) == pytest.approx(
        0.470012, abs=1e-6
    )
    # example 2 (d = 2): the spec prints 0.530302; 2-D quadrature and the closed form both give 0.5302952
    value = dv.alpha_divergence_gaussian([0, 0], np.eye(2), [1, 0], np.diag([2.0, 0.5]), 0.5)
    p = stats.multivariate_normal([0, 0], np.eye(2))
    q = stats.multivariate_normal([1, 0], np.diag([2.0, 0.5]))
    coefficient = integrate.dblquad(
        lambda y, x: math.sqrt(p.pdf([x, y]) * q.pdf([x, y])), -10, 10, -10, 10, epsabs=1e-11
    )[0]
    assert value == pytest.approx((1 - coefficient) / 0.25, abs=1e-8)
    assert value == pytest.approx(0.530295, abs=1e-6)


@settings(max_examples=15)
@given(
    m1=st.floats(-2, 2),
    m2=st.floats(-2, 2),
    v1=st.floats(0.3, 3),
    v2=st.floats(0.3, 3),
    alpha=st.floats(0.05, 0.95),
)
def test_closed_form_matches_quadrature(
    m1: float, m2: float, v1: float, v2: float, alpha: float
) -> None:
    want = _quadrature_divergence(m1, v1, m2, v2, alpha)
    got = dv.alpha_divergence_gaussian([m1], [[v1]], [m2], [[v2]], alpha)
    assert got == pytest.approx(want, rel=1e-8, abs=1e-10)


def test_same_covariance_formula_and_kl_limits() -> None:
    rng = np.random.default_rng(3)
    b = rng.standard_normal((3, 3))
    cov = b @ b.T + np.eye(3)
    mu1, mu2 = rng.standard_normal((2, 3))
    delta = mu1 - mu2
    for alpha in (0.2, 0.5, 0.8):
        g2 = (1 - math.exp(-0.5 * alpha * (1 - alpha) * delta @ np.linalg.solve(cov, delta))) / (
            alpha * (1 - alpha)
        )
        assert dv.alpha_divergence_gaussian(mu1, cov, mu2, cov, alpha) == pytest.approx(
            g2, rel=1e-12
        )
    s2 = np.diag([2.0, 0.5, 1.5])
    kl_pq = dv.kl_gaussian(mu1, cov, mu2, s2)
    kl_qp = dv.kl_gaussian(mu2, s2, mu1, cov)
    assert dv.alpha_divergence_gaussian(mu1, cov, mu2, s2, 1 - 1e-6) == pytest.approx(
        kl_pq, rel=1e-5
    )
    assert dv.alpha_divergence_gaussian(mu1, cov, mu2, s2, 1e-6) == pytest.approx(kl_qp, rel=1e-5)


def test_alpha_range_and_infinite_divergence() -> None:
    with pytest.raises(ValueError, match=r"alpha: expected a number in \(0, 1\)"):
        dv.alpha_divergence_gaussian([0.0], [[1.0]], [1.0], [[1.0]], 1.5)
    # outside (0, 1) only on request; Σ_α = 2·S2 - S1 is not PD here, so the divergence is infinite
    with pytest.raises(ValueError, match="divergence is infinite for this alpha"):
        dv.alpha_divergence_gaussian([0.0], [[4.0]], [0.0], [[1.0]], 2.0, allow_nonconcave=True)
    assert (
        dv.alpha_divergence_gaussian([0.0], [[1.0]], [0.5], [[1.0]], 2.0, allow_nonconcave=True) > 0
    )
    with pytest.raises(ValueError, match="alpha"):
        dv.alpha_divergence_gaussian([0.0], [[1.0]], [0.5], [[1.0]], 1.0, allow_nonconcave=True)
    with pytest.raises(ValueError, match="S1: expected a positive-definite covariance"):
        dv.alpha_divergence_gaussian(
            [0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]], [0.0, 0.0], np.eye(2), 0.5
        )
    with pytest.raises(ValueError, match="mu2: expected dimension 1"):
        dv.alpha_divergence_gaussian([0.0], [[1.0]], [0.0, 1.0], np.eye(2), 0.5)
    with pytest.raises(NotImplementedError, match="allow_nonconcave"):
        dv.estimate_alpha_divergence(
            np.zeros((4, 1)),
            np.ones((4, 1)),
            0.5,
            rng=np.random.default_rng(0),
            allow_nonconcave=True,
        )


def test_amari_conversion() -> None:
    assert dv.amari_to_alpha(-1 + 1e-12) == pytest.approx(1.0)
    for a in (0.1, 0.5, 0.9):
        assert dv.amari_to_alpha(dv.alpha_to_amari(a)) == pytest.approx(a)
        assert 4 / (1 - dv.alpha_to_amari(a) ** 2) == pytest.approx(1 / (a * (1 - a)))
    with pytest.raises(ValueError, match="alpha_amari"):
        dv.amari_to_alpha(1.0)


def test_rff_properties_and_reproducibility() -> None:
    feats = dv.make_rff(3, 500, sigma=0.7, rng=np.random.default_rng(11))
    assert np.linalg.norm(feats.omegas, axis=1).max() <= feats.omega_max
    assert feats.omega_max == pytest.approx(2 * math.sqrt(3) / 0.7)
    z = feats.transform(np.random.default_rng(1).standard_normal((50, 3)) * 5)
    assert np.linalg.norm(z, axis=1).max() <= math.sqrt(2) + 1e-12
    again = dv.make_rff(3, 500, sigma=0.7, rng=np.random.default_rng(11))
    np.testing.assert_array_equal(feats.omegas, again.omegas)
    np.testing.assert_array_equal(feats.offsets, again.offsets)


def test_rff_kernel_is_unbiased_for_truncated_gaussian_kernel() -> None:
    # spec 13, 5.5: E[k_D(x, x')] = k_Ω(x, x') for D = 1 features, d = 1; kernel by quadrature
    sigma, omega_max, dx = 1.0, 1.5, 0.8
    law = stats.norm(0.0, 1.0 / sigma)
    mass = law.cdf(omega_max) - law.cdf(-omega_max)
    kernel = (
        integrate.quad(lambda w: math.cos(w * dx) * law.pdf(w), -omega_max, omega_max)[0] / mass
    )
    feats = dv.make_rff(1, 20_000, sigma=sigma, omega_max=omega_max, rng=np.random.default_rng(5))
    # z_j(x) z_j(x') summed over D features is k_D; each term times D is one D = 1 draw
    single = (
        2.0
        * np.cos(feats.omegas[:, 0] * 0.3 + feats.offsets)
        * np.cos(feats.omegas[:, 0] * (0.3 + dx) + feats.offsets)
    )
    standard_error = single.std() / math.sqrt(single.size)
    assert abs(single.mean() - kernel) <= 4 * standard_error


def _zs(seed: int = 0, n: int = 60, width: int = 6) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    feats = dv.make_rff(2, width, sigma=1.0, rng=rng)
    return feats.transform(rng.standard_normal((n, 2))), feats.transform(
        rng.standard_normal((n, 2)) + 0.7
    )


def test_objective_zero_at_origin_and_concave() -> None:
    zx, zy = _zs()
    assert dv.alpha_objective(zx, zy, np.zeros(7), 0.3) == 0.0
    rng = np.random.default_rng(2)
    for _ in range(20):
        t1, t2 = rng.uniform(-2, 2, size=(2, 7))
        mid = dv.alpha_objective(zx, zy, (t1 + t2) / 2, 0.3)
        avg = (dv.alpha_objective(zx, zy, t1, 0.3) + dv.alpha_objective(zx, zy, t2, 0.3)) / 2
        assert mid >= avg - 1e-12
    assert (
        np.linalg.eigvalsh(dv.alpha_objective_hessian(zx, zy, rng.uniform(-1, 1, 7), 0.3)).max()
        <= 1e-12
    )


def test_gradient_matches_finite_differences() -> None:
    zx, zy = _zs(4)
    theta = np.random.default_rng(4).uniform(-0.5, 0.5, 7)
    grad = dv.alpha_objective_gradient(zx, zy, theta, 0.6)
    h = 1e-6
    numeric = [
        (
            dv.alpha_objective(zx, zy, theta + h * e, 0.6)
            - dv.alpha_objective(zx, zy, theta - h * e, 0.6)
        )
        / (2 * h)
        for e in np.eye(7)
    ]
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-9)


def test_profiled_value_is_shift_invariant_and_dominates() -> None:
    rng = np.random.default_rng(8)
    px, py = rng.standard_normal(30), rng.standard_normal(25)
    base = dv.profiled_value(px, py, 0.4)
    assert dv.profiled_value(px + 3.0, py + 3.0, 0.4) == pytest.approx(base, rel=1e-12)
    zx, zy = _zs(8)
    theta = rng.uniform(-1, 1, 7)
    phi_x, phi_y = zx @ theta[:-1] + theta[-1], zy @ theta[:-1] + theta[-1]
    assert dv.profiled_value(phi_x, phi_y, 0.4) >= dv.alpha_objective(zx, zy, theta, 0.4) - 1e-12


def test_armijo_full_batch_monotone_feasible_and_respects_max_iter() -> None:
    zx, zy = _zs(1, n=200, width=16)
    cfg = dv.ArmijoConfig(radius=1.5, max_iter=50, batch_size=None)
    fit = dv.armijo_ascent(zx, zy, 0.5, cfg)
    assert fit.iterations <= 50
    assert np.all(np.diff(fit.values) >= -1e-14)
    assert np.linalg.norm(fit.theta[:-1]) <= 1.5 * (1 + 1e-12)
    assert np.all(
        (fit.step_sizes >= cfg.max_step_size * cfg.backtrack**cfg.max_backtracks)
        & (fit.step_sizes <= cfg.max_step_size)
    )
    assert fit.value >= 0.0
    bigger = dv.armijo_ascent(
        zx, zy, 0.5, dv.ArmijoConfig(radius=3.0, max_iter=2000, batch_size=None)
    )
    smaller = dv.armijo_ascent(
        zx, zy, 0.5, dv.ArmijoConfig(radius=1.5, max_iter=2000, batch_size=None)
    )
    assert bigger.value >= smaller.value - 1e-10  # the value is non-decreasing in R (spec 5.4)


def test_minibatch_is_reproducible() -> None:
    zx, zy = _zs(3, n=100, width=8)
    cfg = dv.ArmijoConfig(max_iter=20, batch_size=16)
    a = dv.armijo_ascent(zx, zy, 0.5, cfg, rng=np.random.default_rng(9))
    b = dv.armijo_ascent(zx, zy, 0.5, cfg, rng=np.random.default_rng(9))
    np.testing.assert_array_equal(a.theta, b.theta)
    assert not a.converged
    with pytest.raises(ValueError, match="rng"):
        dv.armijo_ascent(zx, zy, 0.5, cfg)


def test_identical_samples_give_zero() -> None:
    x = np.random.default_rng(0).standard_normal((30, 2))
    est = dv.estimate_alpha_divergence(
        x,
        x[::-1],
        0.5,
        rng=np.random.default_rng(1),
        num_features=16,
        config=dv.ArmijoConfig(max_iter=100, batch_size=None),
        heldout=False,
    )
    assert abs(est.value) <= 1e-12  # rounding of the two means only


def test_knn_and_plugin_baselines() -> None:
    rng = np.random.default_rng(12)
    x = rng.standard_normal((3000, 1))
    y = rng.standard_normal((3000, 1)) + 1.0
    truth = 0.470012
    assert dv.plugin_gaussian_alpha_divergence(x, y, 0.5) == pytest.approx(truth, abs=0.03)
    assert dv.knn_alpha_divergence(x, y, 0.5) == pytest.approx(truth, abs=0.05)
    with pytest.raises(ValueError, match="k: expected"):
        dv.knn_alpha_divergence(x[:5], y, 0.5, k=5)


@pytest.mark.slow
def test_consistency_spec_size() -> None:
    # spec 13, 5.8: N(0,1) vs N(1,1), α = ½, n = m = 4000, D = 256, R = 5, full batch, T = 1500
    rng = np.random.default_rng(20)
    x = rng.standard_normal((4000, 1))
    y = rng.standard_normal((4000, 1)) + 1.0
    est = dv.estimate_alpha_divergence(
        x,
        y,
        0.5,
        rng=rng,
        num_features=256,
        config=dv.ArmijoConfig(radius=5.0, max_iter=1500, batch_size=None),
    )
    assert abs(est.value_heldout - 0.470012) <= 0.08
