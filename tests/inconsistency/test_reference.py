"""Unit tests of reference.inconsistency: derivatives by finite differences, IAM/SAM reductions,
label-freeness and determinism (spec 09 section 5)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import inconsistency as inc

SGD = inc.SGDConfig(learning_rate=0.1, momentum=0.9, weight_decay=1e-3)


def _setup(
    kind: inc.ModelKind, seed: int
) -> tuple[inc.SoftmaxModel, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    model = inc.SoftmaxModel(kind=kind, n_inputs=3, n_classes=3, n_hidden=4)
    return (
        model,
        inc.init_params(model, rng=rng),
        rng.standard_normal((7, 3)),
        rng.integers(0, 3, 7),
    )


def _fd(f: object, theta: np.ndarray, h: float = 1e-6) -> np.ndarray:
    assert callable(f)
    return np.array([(f(theta + h * e) - f(theta - h * e)) / (2 * h) for e in np.eye(theta.size)])


@pytest.mark.parametrize("kind", ["linear", "mlp"])
def test_derivatives_against_finite_differences(kind: inc.ModelKind) -> None:
    model, theta, x, y = _setup(kind, 0)
    delta = np.random.default_rng(1).standard_normal(model.n_params) * 0.1
    g = inc.batch_kl_gradient(model, theta, delta, x)
    fd = _fd(lambda d: inc.batch_kl(model, theta, d, x), delta)
    np.testing.assert_allclose(g, fd, atol=1e-8)
    ce = _fd(lambda t: inc.cross_entropy(model, t, x, y), theta)
    np.testing.assert_allclose(inc.cross_entropy_gradient(model, theta, x, y), ce, atol=1e-8)
    hess = _fd(lambda t: inc.cross_entropy_gradient(model, t, x, y), theta, 1e-5)
    np.testing.assert_allclose(
        inc.hessian_softmax(model, theta, x, y), 0.5 * (hess + hess.T), atol=1e-7
    )


@pytest.mark.parametrize("kind", ["linear", "mlp"])
def test_iam_d_gradient_matches_finite_differences(kind: inc.ModelKind) -> None:
    model, theta, x, y = _setup(kind, 2)
    xu = np.random.default_rng(3).standard_normal((5, 3))
    delta = np.random.default_rng(4).standard_normal(model.n_params) * 0.05
    _, grad = inc.iam_d_objective(model, theta, x, y, xu, delta, beta=0.7)
    fd = _fd(lambda t: inc.iam_d_objective(model, t, x, y, xu, delta, beta=0.7)[0], theta)
    np.testing.assert_allclose(grad, fd, rtol=1e-6, atol=1e-9)


def test_reductions_to_the_base_step() -> None:
    model, theta, x, y = _setup("mlp", 5)
    g = inc.cross_entropy_gradient(model, theta, x, y)
    base, _ = inc.sgd_step(theta, g, config=SGD)
    d = inc.iam_d(
        model,
        theta,
        x,
        y,
        x,
        rng=np.random.default_rng(0),
        config=inc.IAMConfig(beta=0.0),
        optimizer=SGD,
    )
    s = inc.iam_s(
        model,
        theta,
        x,
        y,
        rng=np.random.default_rng(0),
        config=inc.IAMConfig(rho=0.0),
        optimizer=SGD,
    )
    m = inc.sam(model, theta, x, y, config=inc.SAMConfig(rho=0.0), optimizer=SGD)
    a = inc.asam(model, theta, x, y, config=inc.SAMConfig(rho=0.0), optimizer=SGD)
    for result in (d, s, m, a):
        np.testing.assert_allclose(result.theta, base, rtol=0, atol=1e-15)
    total, _ = inc.iam_d_objective(model, theta, x, y, x, d.delta, beta=1.0)
    assert total >= inc.cross_entropy(model, theta, x, y)


def test_label_free_and_deterministic() -> None:
    model, theta, x, _ = _setup("mlp", 6)
    a = inc.local_inconsistency(model, theta, x, rho=0.05, rng=np.random.default_rng(9), steps=3)
    b = inc.local_inconsistency(model, theta, x, rho=0.05, rng=np.random.default_rng(9), steps=3)
    np.testing.assert_array_equal(a.delta, b.delta)
    np.testing.assert_array_equal(a.delta0, b.delta0)
    assert a.value == b.value
    y1 = np.array([0, 1, 2, 0, 1, 2, 0])
    s1 = inc.iam_s(
        model, theta, x, y1, rng=np.random.default_rng(9), config=inc.IAMConfig(), optimizer=SGD
    )
    s2 = inc.iam_s(
        model,
        theta,
        x,
        y1[::-1].copy(),
        rng=np.random.default_rng(9),
        config=inc.IAMConfig(),
        optimizer=SGD,
    )
    np.testing.assert_array_equal(s1.delta, s2.delta)  # δ* never sees the labels


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1))
def test_nonnegative_and_zero_at_zero(seed: int) -> None:
    rng = np.random.default_rng(seed)
    model = inc.SoftmaxModel(kind="mlp", n_inputs=2, n_classes=3, n_hidden=3)
    theta = rng.standard_normal(model.n_params)
    x = rng.standard_normal((4, 2))
    assert inc.batch_kl(model, theta, np.zeros(model.n_params), x) == 0.0
    assert inc.batch_kl(model, theta, rng.standard_normal(model.n_params), x) >= 0.0


def test_zero_gradient_is_flagged_and_rescaled() -> None:
    model = inc.SoftmaxModel(kind="linear", n_inputs=1, n_classes=2)
    theta = np.zeros(4)
    res = inc.inconsistency_ascent(
        model, theta, np.zeros((3, 1)), np.array([0.0, 0.0, 1.0, 1.0]), rho=0.2
    )
    # the only perturbation direction is the common bias shift, which changes nothing
    assert res.zero_gradient
    assert abs(float(np.linalg.norm(res.delta)) - 0.2) < 1e-12
    assert res.value == 0.0


def test_bad_inputs_named() -> None:
    model, theta, x, _ = _setup("linear", 7)
    with pytest.raises(ValueError, match="rho"):
        inc.local_inconsistency(model, theta, x, rho=0.0, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="targets"):
        inc.cross_entropy(model, theta, x, np.full((7, 3), 0.5))
    with pytest.raises(ValueError, match="beta"):
        inc.IAMConfig(beta=-1.0)
    with pytest.raises(ValueError, match="steps"):
        inc.IAMConfig(steps=0)
    with pytest.raises(ValueError, match="inputs"):
        inc.batch_kl(model, theta, theta, np.zeros((0, 3)))


# ---- IAM-DE (spec 09 A2 variant [code IAM_DE])


def test_iam_de_state_draws_and_reinitialisation() -> None:
    model = inc.SoftmaxModel(kind="mlp", n_inputs=3, n_classes=3, n_hidden=4)
    rng = np.random.default_rng(0)
    theta = inc.init_params(model, rng=rng)
    x, y, xu = rng.standard_normal((6, 3)), rng.integers(0, 3, size=6), rng.standard_normal((5, 3))
    sgd = inc.SGDConfig(learning_rate=0.1, momentum=0.0)
    cfg = inc.IAMDEConfig(rho=0.2, beta=1.0, noise_scale=0.1)
    # first step: sign drawn first, then δ = σ ξ / sqrt(P) (the code's order)
    twin = np.random.default_rng(1)
    sign = -1 if int(twin.integers(0, 2)) == 0 else 1
    start = (0.1 / np.sqrt(model.n_params)) * twin.standard_normal(model.n_params)
    first = inc.iam_de(
        model, theta, x, y, xu, rng=np.random.default_rng(1), config=cfg, optimizer=sgd
    )
    assert first.sign == sign
    np.testing.assert_array_equal(first.delta, sign * start)
    assert abs(float(np.linalg.norm(first.next_delta)) - 0.2) < 1e-12
    same = inc.iam_de_step(model, theta, x, y, xu, start, sign=sign, config=cfg, optimizer=sgd)
    np.testing.assert_array_equal(same.theta, first.theta)
    # β = 0: zero δ-gradient, the base step, and a fresh noise δ (the code's re-initialisation)
    flat = inc.IAMDEConfig(rho=0.2, beta=0.0)
    core = inc.iam_de_step(model, theta, x, y, xu, start, sign=1, config=flat, optimizer=sgd)
    assert core.zero_gradient
    assert not np.any(core.next_delta)
    np.testing.assert_allclose(
        core.theta, theta - 0.1 * inc.cross_entropy_gradient(model, theta, x, y), rtol=1e-14
    )
    redrawn = inc.iam_de(
        model,
        theta,
        x,
        y,
        xu,
        rng=np.random.default_rng(2),
        config=flat,
        optimizer=sgd,
        delta=start,
    )
    assert redrawn.zero_gradient
    assert 0.0 < float(np.linalg.norm(redrawn.next_delta)) < 0.5
    # EMA variant: μ δ + (1 - μ) ρ ĝ
    ema = inc.IAMDEConfig(rho=0.2, delta_ema=0.9)
    plain = inc.iam_de_step(model, theta, x, y, xu, start, sign=1, config=cfg, optimizer=sgd)
    mixed = inc.iam_de_step(model, theta, x, y, xu, start, sign=1, config=ema, optimizer=sgd)
    np.testing.assert_allclose(mixed.next_delta, 0.9 * start + 0.1 * plain.next_delta, rtol=1e-12)


def test_iam_de_config_validation() -> None:
    with pytest.raises(ValueError, match="rho"):
        inc.IAMDEConfig(rho=0.0)
    with pytest.raises(ValueError, match="delta_ema"):
        inc.IAMDEConfig(delta_ema=1.0)
    with pytest.raises(ValueError, match="beta"):
        inc.IAMDEConfig(beta=-1.0)
