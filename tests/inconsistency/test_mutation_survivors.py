"""Tests written for the mutants mutmut left alive in reference/inconsistency (issue 36, item 6).

Every expected value is recomputed here from the documented formula with an independent
routine: logits from the documented parameter layout with explicit loops, derivatives by central
finite differences, KL and cross-entropy by their definitions, the optimizer steps by their
update rules.  Nothing is copied from the library's output.  The triage of every survivor is in
benchmarks/results/mutation_inconsistency.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest

from reference import inconsistency as inc
from reference._arrays import FloatArray as Array

Labels = npt.NDArray[np.int64]
SGD0 = inc.SGDConfig(learning_rate=0.1, momentum=0.0)


def _model(kind: inc.ModelKind, d: int = 3, c: int = 3, h: int = 4) -> inc.SoftmaxModel:
    return inc.SoftmaxModel(kind=kind, n_inputs=d, n_classes=c, n_hidden=h)


def _logits(model: inc.SoftmaxModel, theta: Array, x: Array) -> Array:
    """The documented layout, sliced by hand: row-major ``W`` (or ``W1, b1, W2``), then biases."""
    d, c, h = model.n_inputs, model.n_classes, model.n_hidden
    if model.kind == "linear":
        out: Array = x @ theta[: c * d].reshape(c, d).T + theta[c * d : c * d + c]
        return out
    w1 = theta[: h * d].reshape(h, d)
    b1 = theta[h * d : h * d + h]
    w2 = theta[h * d + h : h * d + h + c * h].reshape(c, h)
    b2 = theta[h * d + h + c * h :]
    assert b2.size == c
    out = np.tanh(x @ w1.T + b1) @ w2.T + b2
    return out


def _probs(z: Array) -> Array:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    out: Array = e / e.sum(axis=1, keepdims=True)
    return out


def _kl(model: inc.SoftmaxModel, theta: Array, delta: Array, x: Array) -> float:
    p = _probs(_logits(model, theta, x))
    q = _probs(_logits(model, theta + delta, x))
    return float(np.mean(np.sum(p * (np.log(p) - np.log(q)), axis=1)))


def _ce(model: inc.SoftmaxModel, theta: Array, x: Array, t: Array) -> float:
    return float(-np.mean(np.sum(t * np.log(_probs(_logits(model, theta, x))), axis=1)))


def _onehot(labels: Labels, c: int) -> Array:
    out = np.zeros((labels.size, c))
    out[np.arange(labels.size), labels] = 1.0
    return out


def _fd(f: Callable[[Array], float], at: Array, h: float = 1e-6) -> Array:
    return np.array([(f(at + h * e) - f(at - h * e)) / (2 * h) for e in np.eye(at.size)])


def _entry(model: inc.SoftmaxModel, row: Array, k: int) -> Callable[[Array], float]:
    return lambda th: float(_logits(model, th, row)[0, k])


def _shifted_ce(
    model: inc.SoftmaxModel, x: Array, t: Array, shift: Array
) -> Callable[[Array], float]:
    return lambda th: _ce(model, th + shift, x, t)


def _setup(kind: inc.ModelKind, seed: int) -> tuple[inc.SoftmaxModel, Array, Array, Labels, Array]:
    rng = np.random.default_rng(seed)
    model = _model(kind)
    theta = rng.standard_normal(model.n_params) * 0.7
    x = rng.standard_normal((6, 3))
    y = rng.integers(0, 3, 6)
    xu = rng.standard_normal((5, 3))
    return model, theta, x, y, xu


def _sgd(theta: Array, grad: Array, buf: Array, cfg: inc.SGDConfig) -> tuple[Array, Array]:
    b = cfg.momentum * buf + grad + cfg.weight_decay * theta
    return theta - cfg.learning_rate * b, b


# ---------------------------------------------------------------- the model


@pytest.mark.parametrize(("kind", "size"), [("linear", 3 * 2 + 3), ("mlp", 5 * 2 + 5 + 3 * 5 + 3)])
def test_layout_count_and_logits_follow_the_documented_order(
    kind: inc.ModelKind, size: int
) -> None:
    model = inc.SoftmaxModel(kind=kind, n_inputs=2, n_classes=3, n_hidden=5)
    assert model.n_params == size
    rng = np.random.default_rng(0)
    theta, x = rng.standard_normal(size), rng.standard_normal((4, 2))
    np.testing.assert_allclose(
        inc.predict_proba(model, theta, x), _probs(_logits(model, theta, x)), rtol=1e-12
    )
    parts = model.unpack(theta)
    assert [p.size for p in parts] == ([6, 3] if kind == "linear" else [10, 5, 15, 3])
    np.testing.assert_array_equal(np.concatenate([p.ravel() for p in parts]), theta)


def test_model_validation_names_the_field() -> None:
    with pytest.raises(ValueError, match=r"^kind:"):
        inc.SoftmaxModel(kind="cnn", n_inputs=1, n_classes=2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^n_inputs:"):
        inc.SoftmaxModel(kind="linear", n_inputs=0, n_classes=2)
    with pytest.raises(ValueError, match=r"^n_classes:"):
        inc.SoftmaxModel(kind="linear", n_inputs=1, n_classes=1)
    with pytest.raises(ValueError, match=r"^n_hidden:"):
        inc.SoftmaxModel(kind="mlp", n_inputs=1, n_classes=2, n_hidden=0)
    inc.SoftmaxModel(kind="linear", n_inputs=1, n_classes=2)  # the smallest sizes are allowed
    inc.SoftmaxModel(kind="mlp", n_inputs=1, n_classes=2, n_hidden=1)
    with pytest.raises(TypeError, match=r"^model:"):
        inc.predict_proba("linear", np.zeros(4), [[1.0]])  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["linear", "mlp"])
def test_jacobian_and_logit_hessian_against_finite_differences(kind: inc.ModelKind) -> None:
    model, theta, x, _, _ = _setup(kind, 1)
    jac = model.jacobian(theta, x)
    for i in range(x.shape[0]):
        for k in range(model.n_classes):
            fd = _fd(_entry(model, x[i : i + 1], k), theta)
            np.testing.assert_allclose(jac[i, k], fd, atol=1e-8)
    weights = np.random.default_rng(2).standard_normal((x.shape[0], model.n_classes))

    def weighted_grad(th: Array) -> Array:
        out: Array = np.einsum("ic,icp->p", weights, model.jacobian(th, x)) / x.shape[0]
        return out

    hess = model.weighted_logit_hessian(theta, x, weights)
    h = 1e-5
    fd_rows = np.array(
        [
            (weighted_grad(theta + h * e) - weighted_grad(theta - h * e)) / (2 * h)
            for e in np.eye(theta.size)
        ]
    )
    np.testing.assert_allclose(hess, fd_rows, atol=1e-7)
    if kind == "mlp":
        assert np.abs(hess).max() > 1e-2  # a curved model: the check above is not vacuous


# ---------------------------------------------------------------- targets, losses, Fisher


def test_targets_labels_and_soft_rows() -> None:
    model, theta, x, y, _ = _setup("mlp", 3)
    assert inc.cross_entropy(model, theta, x, y) == pytest.approx(
        _ce(model, theta, x, _onehot(y, 3)), rel=1e-12
    )
    soft = np.random.default_rng(4).dirichlet(np.ones(3), size=6)
    assert inc.cross_entropy(model, theta, x, soft) == pytest.approx(
        _ce(model, theta, x, soft), rel=1e-12
    )
    np.testing.assert_allclose(
        inc.cross_entropy_gradient(model, theta, x, soft),
        _fd(lambda th: _ce(model, th, x, soft), theta),
        atol=1e-8,
    )
    hess = _fd(
        lambda th: float(inc.cross_entropy_gradient(model, th, x, soft) @ np.ones(theta.size)),
        theta,
    )
    np.testing.assert_allclose(
        inc.hessian_softmax(model, theta, x, soft).sum(axis=1), hess, atol=1e-6
    )
    # rows within the documented tolerance are accepted, beyond it rejected
    nudged = soft.copy()
    nudged[0, 0] += 5e-10
    inc.cross_entropy(model, theta, x, nudged)
    edge = np.zeros((6, 3))
    edge[:, 0] = 1.0
    edge[0] = [1.0 + 5e-10, -5e-10, 0.0]
    inc.cross_entropy(model, theta, x, edge)
    for bad, text in (
        (np.full((6, 3), 1 / 3 + 1e-6), "summing"),
        (np.tile([1.5, -0.5, 0.0], (6, 1)), ">= 0"),
        (np.array([0, 1, 2, 3, 0, 1]), "labels"),
        (np.array([0, 1, 2, -1, 0, 1]), "labels"),
        (np.array([0, 1, 2]), "shape"),
    ):
        with pytest.raises(ValueError, match=r"^targets:") as err:
            inc.cross_entropy(model, theta, x, bad)
        assert text in str(err.value)
    # the largest label is valid, and unsigned labels are labels too
    assert inc.cross_entropy(model, theta, x, np.full(6, 2, dtype=np.uint8)) == pytest.approx(
        _ce(model, theta, x, _onehot(np.full(6, 2), 3)), rel=1e-12
    )


@pytest.mark.parametrize("kind", ["linear", "mlp"])
def test_kl_is_the_forward_kl_and_fisher_its_curvature(kind: inc.ModelKind) -> None:
    model, theta, x, _, _ = _setup(kind, 5)
    delta = np.random.default_rng(6).standard_normal(model.n_params) * 0.4
    assert inc.batch_kl(model, theta, delta, x) == pytest.approx(
        _kl(model, theta, delta, x), rel=1e-10
    )
    reverse = -np.mean(
        np.sum(
            _probs(_logits(model, theta + delta, x))
            * np.log(_probs(_logits(model, theta, x)) / _probs(_logits(model, theta + delta, x))),
            axis=1,
        )
    )
    assert abs(inc.batch_kl(model, theta, delta, x) - reverse) > 1e-4  # the direction matters here
    np.testing.assert_allclose(
        inc.batch_kl_gradient(model, theta, delta, x),
        _fd(lambda dl: _kl(model, theta, dl, x), delta),
        atol=1e-8,
    )
    # F = the Hessian of δ -> K_X(θ, δ) at δ = 0 (finite differences of the FD gradient)
    h = 1e-4

    def grad0(dl: Array) -> Array:
        return _fd(lambda e: _kl(model, theta, e, x), dl, 1e-5)

    fd_hess = np.array([(grad0(h * e) - grad0(-h * e)) / (2 * h) for e in np.eye(theta.size)])
    np.testing.assert_allclose(inc.fisher_softmax(model, theta, x), fd_hess, atol=2e-5)


# ---------------------------------------------------------------- A1


def test_ascent_follows_the_documented_recursion() -> None:
    model, theta, _, _, xu = _setup("mlp", 7)
    xi = np.random.default_rng(8).standard_normal(model.n_params)
    rho, sigma = 0.3, 0.02
    for steps in (1, 2, 3):
        res = inc.inconsistency_ascent(
            model, theta, xu, xi, rho=rho, steps=steps, noise_scale=sigma
        )
        delta = sigma * xi / math.sqrt(model.n_params)
        np.testing.assert_allclose(res.delta0, delta, rtol=1e-14)
        previous = delta
        for _ in range(steps):
            g = _fd(lambda dl: _kl(model, theta, dl, xu), delta)
            previous, delta = delta, rho * g / np.linalg.norm(g)
        np.testing.assert_allclose(res.delta, delta, rtol=1e-6, atol=1e-9)
        assert res.previous_delta is not None
        np.testing.assert_allclose(res.previous_delta, previous, rtol=1e-6, atol=1e-9)
        cos = abs(float(delta @ previous)) / (np.linalg.norm(delta) * np.linalg.norm(previous))
        assert res.alignment == pytest.approx(cos, abs=1e-7)
        assert res.converged == (1.0 - res.alignment <= 1e-8)
        assert res.iterations == steps
        assert res.zero_gradient is False
        assert res.value == pytest.approx(_kl(model, theta, delta, xu), rel=1e-6)
    # the power iteration settles: the stopping quantity reaches 1 and converged is set
    long = inc.inconsistency_ascent(model, theta, xu, xi, rho=1e-3, steps=200)
    assert long.converged
    assert long.alignment > 1 - 1e-8


def test_local_inconsistency_draws_its_start_from_rng() -> None:
    model, theta, _, _, xu = _setup("linear", 9)
    xi = np.random.default_rng(10).standard_normal(model.n_params)
    a = inc.local_inconsistency(
        model, theta, xu, rho=0.1, rng=np.random.default_rng(10), steps=2, noise_scale=0.05
    )
    b = inc.inconsistency_ascent(model, theta, xu, xi, rho=0.1, steps=2, noise_scale=0.05)
    np.testing.assert_array_equal(a.delta0, b.delta0)
    np.testing.assert_array_equal(a.delta, b.delta)
    assert a.iterations == 2
    assert a.value == b.value
    for kwargs, name in (
        ({"rho": 0.1, "steps": 0}, "steps"),
        ({"rho": 0.1, "noise_scale": -1.0}, "noise_scale"),
        ({"rho": -0.1}, "rho"),
    ):
        with pytest.raises(ValueError, match=f"^{name}:"):
            inc.local_inconsistency(model, theta, xu, rng=np.random.default_rng(0), **kwargs)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=f"^{name}:"):
            inc.inconsistency_ascent(model, theta, xu, xi, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^rng:"):
        inc.local_inconsistency(model, theta, xu, rho=0.1, rng=0)  # type: ignore[arg-type]
    zero = inc.local_inconsistency(
        model, theta, xu, rho=0.1, rng=np.random.default_rng(0), noise_scale=0.0
    )
    assert np.linalg.norm(zero.delta0) == 0.0


def test_zero_gradient_from_a_zero_start_goes_along_ones() -> None:
    model = _model("linear", d=1, c=2)
    res = inc.inconsistency_ascent(
        model, np.zeros(4), np.zeros((3, 1)), np.ones(4), rho=0.2, noise_scale=0.0
    )
    assert res.zero_gradient
    np.testing.assert_allclose(res.delta, 0.2 * np.ones(4) / 2.0, rtol=1e-14)
    assert res.alignment == 0.0
    assert not res.converged


# ---------------------------------------------------------------- optimizers


def test_sgd_step_with_momentum_decay_and_buffer() -> None:
    rng = np.random.default_rng(11)
    th, g, buf = rng.standard_normal(5), rng.standard_normal(5), rng.standard_normal(5)
    cfg = inc.SGDConfig(learning_rate=0.3, momentum=0.7, weight_decay=0.05)
    new, nb = inc.sgd_step(th, g, buf, config=cfg)
    want_b = 0.7 * buf + g + 0.05 * th
    np.testing.assert_allclose(nb, want_b, rtol=1e-14)
    np.testing.assert_allclose(new, th - 0.3 * want_b, rtol=1e-14)
    new0, nb0 = inc.sgd_step(th, g, config=cfg)
    np.testing.assert_allclose(nb0, g + 0.05 * th, rtol=1e-14)
    np.testing.assert_allclose(new0, th - 0.3 * (g + 0.05 * th), rtol=1e-14)
    for kwargs, name in (
        ({"learning_rate": 0.0}, "learning_rate"),
        ({"momentum": 1.0}, "momentum"),
        ({"momentum": -0.1}, "momentum"),
        ({"weight_decay": -1.0}, "weight_decay"),
    ):
        with pytest.raises(ValueError, match=f"^{name}:"):
            inc.SGDConfig(**kwargs)
    inc.SGDConfig(momentum=0.0, weight_decay=0.0)
    with pytest.raises(TypeError, match=r"^config:"):
        inc.sgd_step(th, g, config=inc.SAMConfig())  # type: ignore[arg-type]
    for kwargs, name in (({"rho": -1.0}, "rho"), ({"shift": -1.0}, "shift")):
        with pytest.raises(ValueError, match=f"^{name}:"):
            inc.SAMConfig(**kwargs)
    for kwargs, name in (
        ({"rho": -1.0}, "rho"),
        ({"noise_scale": -1.0}, "noise_scale"),
        ({"beta": -1.0}, "beta"),
    ):
        with pytest.raises(ValueError, match=f"^{name}:"):
            inc.IAMConfig(**kwargs)  # type: ignore[arg-type]
    inc.IAMConfig(rho=0.0, beta=0.0, noise_scale=0.0)
    for kwargs, name in (
        ({"noise_scale": -1.0}, "noise_scale"),
        ({"delta_ema": -0.1}, "delta_ema"),
    ):
        with pytest.raises(ValueError, match=f"^{name}:"):
            inc.IAMDEConfig(**kwargs)
    inc.IAMDEConfig(beta=0.0, noise_scale=0.0, delta_ema=0.0)


@pytest.mark.parametrize("kind", ["linear", "mlp"])
def test_iam_d_step_is_a1_then_the_total_gradient_then_sgd(kind: inc.ModelKind) -> None:
    model, theta, x, y, xu = _setup(kind, 12)
    cfg = inc.IAMConfig(rho=0.2, beta=0.6, steps=2, noise_scale=0.01)
    opt = inc.SGDConfig(learning_rate=0.05, momentum=0.5, weight_decay=0.01)
    buf = np.random.default_rng(13).standard_normal(model.n_params)
    res = inc.iam_d(
        model, theta, x, y, xu, rng=np.random.default_rng(14), config=cfg, optimizer=opt, buffer=buf
    )
    xi = np.random.default_rng(14).standard_normal(model.n_params)
    a1 = inc.inconsistency_ascent(model, theta, xu, xi, rho=0.2, steps=2, noise_scale=0.01)
    np.testing.assert_allclose(res.delta, a1.delta, rtol=1e-12, atol=1e-15)
    delta = np.array(res.delta)
    t = _onehot(y, 3)

    def total(th: Array) -> float:
        return _ce(model, th, x, t) + 0.6 * _kl(model, th, delta, xu)

    np.testing.assert_allclose(res.gradient, _fd(total, theta), atol=1e-8)
    want_theta, want_buf = _sgd(theta, np.array(res.gradient), buf, opt)
    np.testing.assert_allclose(res.theta, want_theta, rtol=1e-13)
    np.testing.assert_allclose(res.buffer, want_buf, rtol=1e-13)
    assert res.loss == pytest.approx(_ce(model, theta, x, t), rel=1e-12)
    assert res.inconsistency == pytest.approx(_kl(model, theta, delta, xu), rel=1e-10)
    value, grad = inc.iam_d_objective(model, theta, x, y, xu, delta, beta=0.6)
    assert value == pytest.approx(total(theta), rel=1e-12)
    np.testing.assert_allclose(grad, res.gradient, rtol=1e-12)
    with pytest.raises(ValueError, match=r"^config\.rho:"):
        inc.iam_d(
            model,
            theta,
            x,
            y,
            xu,
            rng=np.random.default_rng(0),
            config=inc.IAMConfig(rho=0.0),
            optimizer=opt,
        )
    with pytest.raises(ValueError, match=r"^beta:"):
        inc.iam_d_objective(model, theta, x, y, xu, delta, beta=-1.0)
    with pytest.raises(TypeError, match=r"^optimizer:"):
        inc.iam_d(model, theta, x, y, xu, rng=np.random.default_rng(0), config=cfg, optimizer=cfg)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^config:"):
        inc.iam_d(model, theta, x, y, xu, rng=np.random.default_rng(0), config=opt, optimizer=opt)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^buffer:"):
        inc.iam_d(
            model,
            theta,
            x,
            y,
            xu,
            rng=np.random.default_rng(0),
            config=cfg,
            optimizer=opt,
            buffer=np.zeros(2),
        )
    with pytest.raises(ValueError, match=r"^unlabeled:"):
        inc.iam_d(
            model,
            theta,
            x,
            y,
            np.zeros((2, 5)),
            rng=np.random.default_rng(0),
            config=cfg,
            optimizer=opt,
        )


@pytest.mark.parametrize("kind", ["linear", "mlp"])
def test_iam_s_step_is_sam_along_the_a1_direction(kind: inc.ModelKind) -> None:
    model, theta, x, y, _ = _setup(kind, 15)
    cfg = inc.IAMConfig(rho=0.15, beta=5.0, steps=2, noise_scale=0.01)
    opt = inc.SGDConfig(learning_rate=0.05, momentum=0.5, weight_decay=0.01)
    buf = np.random.default_rng(16).standard_normal(model.n_params)
    res = inc.iam_s(
        model, theta, x, y, rng=np.random.default_rng(17), config=cfg, optimizer=opt, buffer=buf
    )
    xi = np.random.default_rng(17).standard_normal(model.n_params)
    a1 = inc.inconsistency_ascent(model, theta, x, xi, rho=0.15, steps=2, noise_scale=0.01)
    np.testing.assert_allclose(res.delta, a1.delta, rtol=1e-12, atol=1e-15)
    t = _onehot(y, 3)
    delta = np.array(res.delta)
    np.testing.assert_allclose(
        res.gradient, _fd(lambda th: _ce(model, th + delta, x, t), theta), atol=1e-8
    )
    want_theta, want_buf = _sgd(theta, np.array(res.gradient), buf, opt)
    np.testing.assert_allclose(res.theta, want_theta, rtol=1e-13)
    np.testing.assert_allclose(res.buffer, want_buf, rtol=1e-13)
    assert res.loss == pytest.approx(_ce(model, theta, x, t), rel=1e-12)
    assert res.inconsistency == pytest.approx(_kl(model, theta, delta, x), rel=1e-10)
    flat = inc.iam_s(
        model,
        theta,
        x,
        y,
        rng=np.random.default_rng(17),
        config=inc.IAMConfig(rho=0.0),
        optimizer=opt,
    )
    assert not np.any(flat.delta)
    assert flat.inconsistency == 0.0


@pytest.mark.parametrize(("sign", "ema"), [(1, 0.0), (-1, 0.0), (-1, 0.6)])
def test_iam_de_step_single_backward(sign: int, ema: float) -> None:
    model, theta, x, y, xu = _setup("mlp", 18)
    cfg = inc.IAMDEConfig(rho=0.3, beta=0.7, delta_ema=ema)
    opt = inc.SGDConfig(learning_rate=0.05, momentum=0.5, weight_decay=0.01)
    buf = np.random.default_rng(19).standard_normal(model.n_params)
    state = np.random.default_rng(20).standard_normal(model.n_params) * 0.05
    res = inc.iam_de_step(
        model, theta, x, y, xu, state, sign=sign, config=cfg, optimizer=opt, buffer=buf
    )
    t = _onehot(y, 3)
    np.testing.assert_allclose(res.delta, sign * state, rtol=0)

    def total(th: Array, dl: Array) -> float:
        return _ce(model, th, x, t) + 0.7 * _kl(model, th, sign * dl, xu)

    np.testing.assert_allclose(res.gradient, _fd(lambda th: total(th, state), theta), atol=1e-8)
    g_delta = _fd(lambda dl: total(theta, dl), state)
    want_next = ema * state + (1 - ema) * 0.3 * g_delta / np.linalg.norm(g_delta)
    np.testing.assert_allclose(res.next_delta, want_next, rtol=1e-6, atol=1e-9)
    want_theta, want_buf = _sgd(theta, np.array(res.gradient), buf, opt)
    np.testing.assert_allclose(res.theta, want_theta, rtol=1e-13)
    np.testing.assert_allclose(res.buffer, want_buf, rtol=1e-13)
    assert res.sign == sign
    assert not res.zero_gradient
    assert res.loss == pytest.approx(_ce(model, theta, x, t), rel=1e-12)
    assert res.inconsistency == pytest.approx(_kl(model, theta, sign * state, xu), rel=1e-10)


def test_iam_de_signs_and_states() -> None:
    model, theta, x, y, xu = _setup("linear", 21)
    cfg = inc.IAMDEConfig(rho=0.3, noise_scale=0.2)
    for bad in (0, 2, True, 1.0, "1"):
        with pytest.raises(ValueError, match=r"^sign:"):
            inc.iam_de_step(
                model,
                theta,
                x,
                y,
                xu,
                np.zeros(model.n_params),
                sign=bad,  # type: ignore[arg-type]
                config=cfg,
                optimizer=SGD0,
            )
    ok = inc.iam_de_step(
        model,
        theta,
        x,
        y,
        xu,
        np.full(model.n_params, 0.01),
        sign=np.int64(-1),  # type: ignore[arg-type]
        config=cfg,
        optimizer=SGD0,
    )
    assert ok.sign == -1
    assert type(ok.sign) is int
    # a given state is used as it is; the sign comes from rng.integers(0, 2) (0 -> -1)
    state = np.random.default_rng(22).standard_normal(model.n_params) * 0.05
    for seed in range(6):
        twin = np.random.default_rng(seed)
        sign = -1 if int(twin.integers(0, 2)) == 0 else 1
        res = inc.iam_de(
            model,
            theta,
            x,
            y,
            xu,
            rng=np.random.default_rng(seed),
            config=cfg,
            optimizer=SGD0,
            delta=state,
        )
        assert res.sign == sign
        np.testing.assert_array_equal(res.delta, sign * state)
    # a zero δ-gradient (β = 0) re-draws σ ξ' / sqrt(P) after the sign draw
    flat = inc.IAMDEConfig(rho=0.3, beta=0.0, noise_scale=0.2)
    res = inc.iam_de(
        model,
        theta,
        x,
        y,
        xu,
        rng=np.random.default_rng(3),
        config=flat,
        optimizer=SGD0,
        delta=state,
    )
    twin = np.random.default_rng(3)
    twin.integers(0, 2)
    np.testing.assert_allclose(
        res.next_delta,
        0.2 / math.sqrt(model.n_params) * twin.standard_normal(model.n_params),
        rtol=1e-14,
    )
    with pytest.raises(TypeError, match=r"^rng:"):
        inc.iam_de(model, theta, x, y, xu, rng=None, config=cfg, optimizer=SGD0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^config:"):
        inc.iam_de(
            model,
            theta,
            x,
            y,
            xu,
            rng=np.random.default_rng(0),
            config=inc.IAMConfig(),  # type: ignore[arg-type]
            optimizer=SGD0,
        )
    with pytest.raises(TypeError, match=r"^optimizer:"):
        inc.iam_de_step(model, theta, x, y, xu, state, sign=1, config=cfg, optimizer=cfg)  # type: ignore[arg-type]


def test_sam_and_asam_perturbations_and_steps() -> None:
    rng = np.random.default_rng(23)
    th, g = rng.standard_normal(6), rng.standard_normal(6)
    eps = inc.sam_perturbation(th, g, rho=0.4)
    np.testing.assert_allclose(eps, 0.4 * g / (np.linalg.norm(g) + 1e-12), rtol=1e-14)
    scale = np.abs(th) + 0.3
    aeps = inc.sam_perturbation(th, g, rho=0.4, adaptive=True, shift=0.3)
    np.testing.assert_allclose(
        aeps, 0.4 * scale**2 * g / (np.linalg.norm(scale * g) + 1e-12), rtol=1e-14
    )
    assert float(np.linalg.norm(aeps / scale)) == pytest.approx(0.4, rel=1e-10)
    tiny = inc.sam_perturbation(th, np.full(6, 1e-13), rho=1.0)
    np.testing.assert_allclose(tiny, np.full(6, 1e-13) / (math.sqrt(6) * 1e-13 + 1e-12), rtol=1e-12)
    for kwargs, name in (({"rho": -1.0}, "rho"), ({"rho": 1.0, "shift": -1.0}, "shift")):
        with pytest.raises(ValueError, match=f"^{name}:"):
            inc.sam_perturbation(th, g, **kwargs)  # type: ignore[arg-type]
    model, theta, x, y, _ = _setup("mlp", 24)
    t = _onehot(y, 3)
    opt = inc.SGDConfig(learning_rate=0.05, momentum=0.5, weight_decay=0.01)
    buf = rng.standard_normal(model.n_params)
    cfg = inc.SAMConfig(rho=0.3, shift=0.2)
    grad0 = _fd(lambda q: _ce(model, q, x, t), theta)
    for adaptive, step in ((False, inc.sam), (True, inc.asam)):
        res = step(model, theta, x, y, config=cfg, optimizer=opt, buffer=buf)
        sc = np.abs(theta) + 0.2 if adaptive else np.ones_like(theta)
        want = 0.3 * sc**2 * grad0 / (np.linalg.norm(sc * grad0) + 1e-12)
        np.testing.assert_allclose(res.delta, want, rtol=1e-6, atol=1e-10)
        e = np.array(res.delta)
        np.testing.assert_allclose(res.gradient, _fd(_shifted_ce(model, x, t, e), theta), atol=1e-8)
        want_theta, want_buf = _sgd(theta, np.array(res.gradient), buf, opt)
        np.testing.assert_allclose(res.theta, want_theta, rtol=1e-13)
        np.testing.assert_allclose(res.buffer, want_buf, rtol=1e-13)
        assert res.loss == pytest.approx(_ce(model, theta, x, t), rel=1e-12)
        assert res.inconsistency == 0.0
        with pytest.raises(TypeError, match=r"^config:"):
            step(model, theta, x, y, config=opt, optimizer=opt)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"^optimizer:"):
            step(model, theta, x, y, config=cfg, optimizer=cfg)  # type: ignore[arg-type]


def test_init_params_scale() -> None:
    model = inc.SoftmaxModel(kind="mlp", n_inputs=40, n_classes=10, n_hidden=100)
    theta = inc.init_params(model, rng=np.random.default_rng(25), scale=0.3)
    assert theta.shape == (model.n_params,)
    assert float(np.std(theta)) == pytest.approx(0.3, rel=0.05)  # 5 110 draws: sd error ~1%
    assert abs(float(np.mean(theta))) < 0.03
    with pytest.raises(ValueError, match=r"^scale:"):
        inc.init_params(model, rng=np.random.default_rng(0), scale=0.0)
    with pytest.raises(TypeError, match=r"^rng:"):
        inc.init_params(model, rng=1)  # type: ignore[arg-type]


def test_documented_defaults_and_caps() -> None:
    model, theta, _, _, xu = _setup("mlp", 26)
    xi = np.random.default_rng(27).standard_normal(model.n_params)
    plain = inc.local_inconsistency(model, theta, xu, rho=0.1, rng=np.random.default_rng(27))
    assert plain.iterations == 1  # K = 1 [code]
    np.testing.assert_allclose(plain.delta0, 1e-3 * xi / math.sqrt(model.n_params), rtol=1e-14)
    ascent = inc.inconsistency_ascent(model, theta, xu, xi, rho=0.1)
    assert ascent.iterations == 1
    np.testing.assert_allclose(ascent.delta0, 1e-3 * xi / math.sqrt(model.n_params), rtol=1e-14)
    # K is capped at 100 000: one more is refused before any work
    with pytest.raises(ValueError, match=r"^steps:"):
        inc.local_inconsistency(
            model, theta, xu, rho=0.1, rng=np.random.default_rng(0), steps=100_001
        )
    with pytest.raises(ValueError, match=r"^steps:"):
        inc.inconsistency_ascent(model, theta, xu, xi, rho=0.1, steps=100_001)
    with pytest.raises(ValueError, match=r"^steps:"):
        inc.IAMConfig(steps=100_001)
    inc.IAMConfig(steps=100_000)
    # η = 0 and ρ = 0 are allowed for SAM/ASAM (the repository's ASAM has η = 0)
    inc.SAMConfig(rho=0.0, shift=0.0)
    assert inc.SAMConfig().rho == 0.05
    assert inc.SAMConfig().shift == 0.01
    cfg = inc.IAMDEConfig()
    assert (cfg.rho, cfg.beta, cfg.noise_scale, cfg.delta_ema) == (0.05, 1.0, 0.1, 0.0)
    iam = inc.IAMConfig()
    assert (iam.rho, iam.beta, iam.steps, iam.noise_scale) == (0.05, 1.0, 1, 1e-3)
    sgd = inc.SGDConfig()
    assert (sgd.learning_rate, sgd.momentum, sgd.weight_decay) == (0.1, 0.9, 0.0)
    x, y = xu[:4], np.array([0, 1, 2, 0])
    with pytest.raises(TypeError, match=r"^optimizer:"):
        inc.iam_de(model, theta, x, y, xu, rng=np.random.default_rng(0), config=cfg, optimizer=cfg)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^rng:"):
        inc.iam_d(model, theta, x, y, xu, rng=None, config=iam, optimizer=sgd)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^rng:"):
        inc.iam_s(model, theta, x, y, rng=None, config=iam, optimizer=sgd)  # type: ignore[arg-type]


@pytest.mark.parametrize("adaptive", [False, True])
def test_sam_steps_keep_the_norm_guard_for_a_tiny_gradient(adaptive: bool) -> None:
    # linear model at θ = 0: p is uniform, so ∇L = mean_i (p - t_i) ⊗ [x_i, 1] in closed form;
    # targets 1e-12 away from uniform make ||g|| comparable with the guard 1e-12
    model = _model("linear", d=2, c=2)
    x = np.array([[1.0, 0.5], [-0.3, 2.0]])
    t = np.array([[0.5 + 1e-12, 0.5 - 1e-12], [0.5 + 2e-12, 0.5 - 2e-12]])
    resid = 0.5 - t  # p - t, (n, C)
    g_w = np.einsum("ic,ik->ck", resid, x) / 2
    g = np.concatenate([g_w.ravel(), resid.mean(axis=0)])
    scale = np.full(model.n_params, 0.3) if adaptive else np.ones(model.n_params)
    want = 0.2 * scale**2 * g / (np.linalg.norm(scale * g) + 1e-12)
    cfg = inc.SAMConfig(rho=0.2, shift=0.3)
    step = inc.asam if adaptive else inc.sam
    res = step(model, np.zeros(model.n_params), x, t, config=cfg, optimizer=SGD0)
    np.testing.assert_allclose(res.delta, want, rtol=1e-6, atol=1e-30)
    assert float(np.linalg.norm(res.delta / scale)) < 0.2 * 0.9  # the guard is visible here


def _bad_inputs() -> list[tuple[type[Exception], str, Callable[[], object]]]:
    m = _model("linear", d=2, c=2)
    th, x, y, xu = np.zeros(6), np.ones((3, 2)), np.array([0, 1, 0]), np.ones((2, 2))
    bad_th, bad_x = np.zeros(5), np.ones((3, 3))
    g0, rng, cfg, de = np.random.default_rng(0), SGD0, inc.IAMConfig(), inc.IAMDEConfig()
    sam_cfg = inc.SAMConfig()
    V, T = ValueError, TypeError
    return [
        (T, "model", lambda: inc.batch_kl(None, th, th, x)),  # type: ignore[arg-type]
        (V, "theta", lambda: inc.predict_proba(m, bad_th, x)),
        (V, "inputs", lambda: inc.predict_proba(m, th, bad_x)),
        (V, "delta", lambda: inc.batch_kl(m, th, bad_th, x)),
        (V, "theta", lambda: inc.batch_kl(m, bad_th, th, x)),
        (V, "inputs", lambda: inc.batch_kl(m, th, th, bad_x)),
        (V, "delta", lambda: inc.batch_kl_gradient(m, th, bad_th, x)),
        (V, "theta", lambda: inc.batch_kl_gradient(m, bad_th, th, x)),
        (V, "inputs", lambda: inc.batch_kl_gradient(m, th, th, bad_x)),
        (V, "theta", lambda: inc.fisher_softmax(m, bad_th, x)),
        (V, "inputs", lambda: inc.fisher_softmax(m, th, bad_x)),
        (V, "theta", lambda: inc.cross_entropy(m, bad_th, x, y)),
        (V, "inputs", lambda: inc.cross_entropy(m, th, bad_x, y)),
        (V, "theta", lambda: inc.cross_entropy_gradient(m, bad_th, x, y)),
        (V, "inputs", lambda: inc.cross_entropy_gradient(m, th, bad_x, y)),
        (V, "targets", lambda: inc.cross_entropy_gradient(m, th, x, y[:2])),
        (V, "theta", lambda: inc.hessian_softmax(m, bad_th, x, y)),
        (V, "inputs", lambda: inc.hessian_softmax(m, th, bad_x, y)),
        (V, "targets", lambda: inc.hessian_softmax(m, th, x, y[:2])),
        (V, "noise", lambda: inc.inconsistency_ascent(m, th, x, bad_th, rho=0.1)),
        (V, "theta", lambda: inc.inconsistency_ascent(m, bad_th, x, th, rho=0.1)),
        (V, "inputs", lambda: inc.inconsistency_ascent(m, th, bad_x, th, rho=0.1)),
        (V, "theta", lambda: inc.local_inconsistency(m, bad_th, x, rho=0.1, rng=g0)),
        (V, "inputs", lambda: inc.local_inconsistency(m, th, bad_x, rho=0.1, rng=g0)),
        (V, "gradient", lambda: inc.sgd_step(th, bad_th, config=rng)),
        (V, "buffer", lambda: inc.sgd_step(th, th, bad_th, config=rng)),
        (V, "theta", lambda: inc.sgd_step(np.zeros((2, 3)), th, config=rng)),
        (V, "inputs", lambda: inc.iam_d_objective(m, th, bad_x, y, xu, th, beta=1.0)),
        (V, "targets", lambda: inc.iam_d_objective(m, th, x, y[:2], xu, th, beta=1.0)),
        (V, "unlabeled", lambda: inc.iam_d_objective(m, th, x, y, bad_x, th, beta=1.0)),
        (V, "delta", lambda: inc.iam_d_objective(m, th, x, y, xu, bad_th, beta=1.0)),
        (V, "theta", lambda: inc.iam_d_objective(m, bad_th, x, y, xu, th, beta=1.0)),
        (T, "model", lambda: inc.iam_d(None, th, x, y, xu, rng=g0, config=cfg, optimizer=rng)),  # type: ignore[arg-type]
        (T, "config", lambda: inc.iam_d(m, th, x, y, xu, rng=g0, config=de, optimizer=rng)),  # type: ignore[arg-type]
        (T, "optimizer", lambda: inc.iam_d(m, th, x, y, xu, rng=g0, config=cfg, optimizer=cfg)),  # type: ignore[arg-type]
        (T, "rng", lambda: inc.iam_d(m, th, x, y, xu, rng=1, config=cfg, optimizer=rng)),  # type: ignore[arg-type]
        (V, "theta", lambda: inc.iam_d(m, bad_th, x, y, xu, rng=g0, config=cfg, optimizer=rng)),
        (V, "inputs", lambda: inc.iam_d(m, th, bad_x, y, xu, rng=g0, config=cfg, optimizer=rng)),
        (V, "targets", lambda: inc.iam_d(m, th, x, y[:2], xu, rng=g0, config=cfg, optimizer=rng)),
        (V, "unlabeled", lambda: inc.iam_d(m, th, x, y, bad_x, rng=g0, config=cfg, optimizer=rng)),
        (
            V,
            "buffer",
            lambda: inc.iam_d(m, th, x, y, xu, rng=g0, config=cfg, optimizer=rng, buffer=bad_th),
        ),
        (T, "model", lambda: inc.iam_s(None, th, x, y, rng=g0, config=cfg, optimizer=rng)),  # type: ignore[arg-type]
        (T, "config", lambda: inc.iam_s(m, th, x, y, rng=g0, config=de, optimizer=rng)),  # type: ignore[arg-type]
        (T, "optimizer", lambda: inc.iam_s(m, th, x, y, rng=g0, config=cfg, optimizer=cfg)),  # type: ignore[arg-type]
        (T, "rng", lambda: inc.iam_s(m, th, x, y, rng=1, config=cfg, optimizer=rng)),  # type: ignore[arg-type]
        (V, "theta", lambda: inc.iam_s(m, bad_th, x, y, rng=g0, config=cfg, optimizer=rng)),
        (V, "inputs", lambda: inc.iam_s(m, th, bad_x, y, rng=g0, config=cfg, optimizer=rng)),
        (V, "targets", lambda: inc.iam_s(m, th, x, y[:2], rng=g0, config=cfg, optimizer=rng)),
        (
            V,
            "buffer",
            lambda: inc.iam_s(m, th, x, y, rng=g0, config=cfg, optimizer=rng, buffer=bad_th),
        ),
        (
            T,
            "model",
            lambda: inc.iam_de_step(None, th, x, y, xu, th, sign=1, config=de, optimizer=rng),  # type: ignore[arg-type]
        ),
        (
            T,
            "config",
            lambda: inc.iam_de_step(m, th, x, y, xu, th, sign=1, config=cfg, optimizer=rng),  # type: ignore[arg-type]
        ),
        (
            V,
            "theta",
            lambda: inc.iam_de_step(m, bad_th, x, y, xu, th, sign=1, config=de, optimizer=rng),
        ),
        (
            V,
            "inputs",
            lambda: inc.iam_de_step(m, th, bad_x, y, xu, th, sign=1, config=de, optimizer=rng),
        ),
        (
            V,
            "targets",
            lambda: inc.iam_de_step(m, th, x, y[:2], xu, th, sign=1, config=de, optimizer=rng),
        ),
        (
            V,
            "unlabeled",
            lambda: inc.iam_de_step(m, th, x, y, bad_x, th, sign=1, config=de, optimizer=rng),
        ),
        (
            V,
            "delta",
            lambda: inc.iam_de_step(m, th, x, y, xu, bad_th, sign=1, config=de, optimizer=rng),
        ),
        (
            V,
            "buffer",
            lambda: inc.iam_de_step(
                m, th, x, y, xu, th, sign=1, config=de, optimizer=rng, buffer=bad_th
            ),
        ),
        (T, "model", lambda: inc.iam_de(None, th, x, y, xu, rng=g0, config=de, optimizer=rng)),  # type: ignore[arg-type]
        (T, "config", lambda: inc.iam_de(m, th, x, y, xu, rng=g0, config=cfg, optimizer=rng)),  # type: ignore[arg-type]
        (T, "optimizer", lambda: inc.iam_de(m, th, x, y, xu, rng=g0, config=de, optimizer=de)),  # type: ignore[arg-type]
        (T, "rng", lambda: inc.iam_de(m, th, x, y, xu, rng=1, config=de, optimizer=rng)),  # type: ignore[arg-type]
        (V, "theta", lambda: inc.iam_de(m, bad_th, x, y, xu, rng=g0, config=de, optimizer=rng)),
        (V, "inputs", lambda: inc.iam_de(m, th, bad_x, y, xu, rng=g0, config=de, optimizer=rng)),
        (V, "targets", lambda: inc.iam_de(m, th, x, y[:2], xu, rng=g0, config=de, optimizer=rng)),
        (V, "unlabeled", lambda: inc.iam_de(m, th, x, y, bad_x, rng=g0, config=de, optimizer=rng)),
        (
            V,
            "delta",
            lambda: inc.iam_de(m, th, x, y, xu, rng=g0, config=de, optimizer=rng, delta=bad_th),
        ),
        (
            V,
            "buffer",
            lambda: inc.iam_de(m, th, x, y, xu, rng=g0, config=de, optimizer=rng, buffer=bad_th),
        ),
        (V, "gradient", lambda: inc.sam_perturbation(th, bad_th, rho=0.1)),
        (V, "theta", lambda: inc.sam_perturbation(np.zeros((2, 3)), th, rho=0.1)),
        (T, "model", lambda: inc.sam(None, th, x, y, config=sam_cfg, optimizer=rng)),  # type: ignore[arg-type]
        (T, "model", lambda: inc.asam(None, th, x, y, config=sam_cfg, optimizer=rng)),  # type: ignore[arg-type]
        (V, "theta", lambda: inc.sam(m, bad_th, x, y, config=sam_cfg, optimizer=rng)),
        (V, "inputs", lambda: inc.sam(m, th, bad_x, y, config=sam_cfg, optimizer=rng)),
        (V, "targets", lambda: inc.asam(m, th, x, y[:2], config=sam_cfg, optimizer=rng)),
        (V, "buffer", lambda: inc.asam(m, th, x, y, config=sam_cfg, optimizer=rng, buffer=bad_th)),
        (T, "model", lambda: inc.init_params(None, rng=g0)),  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize("case", range(len(_bad_inputs())))
def test_bad_input_is_an_error_that_names_the_argument(case: int) -> None:
    kind, name, call = _bad_inputs()[case]
    with pytest.raises(kind, match=f"^{name}:"):
        call()


def test_iam_de_uses_the_buffer_and_the_given_state() -> None:
    model, theta, x, y, xu = _setup("mlp", 28)
    cfg = inc.IAMDEConfig(rho=0.2, beta=0.5)
    opt = inc.SGDConfig(learning_rate=0.05, momentum=0.6)
    buf = np.random.default_rng(29).standard_normal(model.n_params)
    state = np.random.default_rng(30).standard_normal(model.n_params) * 0.05
    res = inc.iam_de(
        model,
        theta,
        x,
        y,
        xu,
        rng=np.random.default_rng(4),
        config=cfg,
        optimizer=opt,
        buffer=buf,
        delta=state,
    )
    sign = -1 if int(np.random.default_rng(4).integers(0, 2)) == 0 else 1
    want = inc.iam_de_step(
        model, theta, x, y, xu, state, sign=sign, config=cfg, optimizer=opt, buffer=buf
    )
    np.testing.assert_array_equal(res.theta, want.theta)
    np.testing.assert_array_equal(res.buffer, 0.6 * buf + np.asarray(want.gradient))


def test_zero_radius_weight_and_shift_are_allowed_and_default_shift() -> None:
    rng = np.random.default_rng(31)
    th, g = rng.standard_normal(5), rng.standard_normal(5)
    assert not np.any(inc.sam_perturbation(th, g, rho=0.0))
    flat = inc.sam_perturbation(th, g, rho=0.5, adaptive=True, shift=0.0)
    np.testing.assert_allclose(
        flat, 0.5 * th**2 * g / (np.linalg.norm(np.abs(th) * g) + 1e-12), rtol=1e-13
    )
    default = inc.sam_perturbation(th, g, rho=0.5, adaptive=True)
    scale = np.abs(th) + 0.01  # the documented default shift η
    np.testing.assert_allclose(
        default, 0.5 * scale**2 * g / (np.linalg.norm(scale * g) + 1e-12), rtol=1e-13
    )
    model, theta, x, y, xu = _setup("linear", 32)
    delta = rng.standard_normal(model.n_params) * 0.1
    value, grad = inc.iam_d_objective(model, theta, x, y, xu, delta, beta=0.0)
    assert value == pytest.approx(_ce(model, theta, x, _onehot(y, 3)), rel=1e-12)
    np.testing.assert_allclose(grad, inc.cross_entropy_gradient(model, theta, x, y), rtol=1e-12)


def test_zero_gradient_rescales_the_previous_iterate() -> None:
    # zero inputs: only the biases move the logits, and a common bias shift changes nothing;
    # ξ moves the (ineffective) weights too, so δ_0 is not a multiple of the ones vector
    model = _model("linear", d=1, c=2)
    xi = np.array([0.3, -1.2, 1.0, 1.0])
    res = inc.inconsistency_ascent(model, np.zeros(4), np.zeros((3, 1)), xi, rho=0.2)
    assert res.zero_gradient is True
    np.testing.assert_allclose(res.delta, 0.2 * xi / np.linalg.norm(xi), rtol=1e-14)
    assert res.previous_delta is not None
    np.testing.assert_allclose(res.previous_delta, 1e-3 * xi / 2.0, rtol=1e-14)  # δ_0, P = 4
    assert res.alignment == pytest.approx(1.0, abs=1e-14)


def test_iam_de_zero_gradient_state_and_config_names() -> None:
    model, theta, x, y, xu = _setup("linear", 33)
    flat = inc.IAMDEConfig(rho=0.2, beta=0.0)
    core = inc.iam_de_step(
        model, theta, x, y, xu, np.full(model.n_params, 0.01), sign=1, config=flat, optimizer=SGD0
    )
    assert core.zero_gradient is True
    assert core.next_delta.shape == (model.n_params,)
    assert core.next_delta.dtype == np.float64
    assert not np.any(core.next_delta)
    for kwargs, name in (({"rho": 0.0}, "rho"), ({"beta": -1.0}, "beta")):
        with pytest.raises(ValueError, match=f"^{name}:"):
            inc.IAMDEConfig(**kwargs)
