"""Reference optimizers: spec 02/14/05 behaviours not covered by the conformance suites."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from reference import optimizers as ref
from reference.optimizers.fw import LionConfig, MuonConfig, make_sfw
from reference.optimizers.sadam import NonFiniteLossError


def _run(opt: Any, x0: Any, grads: list[Any], **kw: Any) -> list[Any]:
    x, state, out = x0, opt.init(x0), [x0]
    for g in grads:
        u, state = opt.update(g, state, x, **kw)
        x = ref.apply_updates(x, u)
        out.append(x)
    return out


def test_apply_updates_keeps_structure() -> None:
    p = (np.ones(2), np.zeros((2, 2)))
    out = ref.apply_updates(p, (np.ones(2), np.ones((2, 2))))
    assert isinstance(out, tuple)
    assert out[1].tolist() == [[1.0, 1.0], [1.0, 1.0]]
    with pytest.raises(ValueError, match="updates"):
        ref.apply_updates(np.ones(2), np.ones(3))


# ------------------------------------------------------------------------------------ S-Adam
class Counter:
    def __init__(self, f: Any) -> None:
        self.f = f
        self.calls = 0

    def __call__(self, x: Any) -> float:
        self.calls += 1
        return float(self.f(x))


@pytest.mark.parametrize(("lam", "k", "expected"), [(2.0, 3, 4), (0.0, 3, 1), (2.0, 1, 2)])
def test_s_adam_counts_loss_evaluations(lam: float, k: int, expected: int) -> None:
    f = Counter(lambda x: np.sum(np.abs(x)))
    opt = ref.s_adam(lgi_lambda=lam, k_directions=k)
    x = np.array([1.0, -2.0])
    opt.update(np.sign(x), opt.init(x), x, loss=f, rng=np.random.default_rng(0))
    assert f.calls == expected
    f.calls = 0
    opt.update(np.sign(x), opt.init(x), x, loss=f, rng=np.random.default_rng(0), base=3.0)
    assert f.calls == expected - 1


def test_s_adam_is_deterministic_and_leaves_params_intact() -> None:
    f = lambda x: float(np.sum(np.abs(x)))  # noqa: E731
    x0 = np.array([0.3, -1.0, 2.0])
    copy = x0.copy()
    grads = [np.sign(x0) + 0.1 * i for i in range(5)]
    a = _run(ref.s_adam(), x0, grads, loss=f, rng=np.random.default_rng(4))
    b = _run(ref.s_adam(), x0, grads, loss=f, rng=np.random.default_rng(4))
    assert all(np.array_equal(p, q) for p, q in zip(a, b, strict=True))
    assert np.array_equal(x0, copy)


def test_s_adam_blocks_share_one_rho() -> None:
    opt = ref.s_adam(lgi_lambda=5.0)
    p = (np.array([1.0, 2.0]), np.array([[0.5]]))
    g = (np.array([1.0, 1.0]), np.array([[1.0]]))

    def f(q: Any) -> float:
        return float(np.sum(np.abs(q[0])) + np.sum(np.abs(q[1])))

    u, s = opt.update(g, opt.init(p), p, loss=f, rng=np.random.default_rng(0))
    assert isinstance(u, tuple)
    assert 0.0 < s.alpha < 1.0
    assert s.alpha == pytest.approx(math.exp(-5.0 * s.rho))


def test_non_finite_loss_is_reported() -> None:
    opt = ref.s_adam()
    x = np.ones(2)
    with pytest.raises(NonFiniteLossError, match="loss"):
        opt.update(x, opt.init(x), x, loss=lambda p: math.nan, rng=np.random.default_rng(0))
    calls = iter([1.0, math.inf])
    with pytest.raises(FloatingPointError, match="probe"):
        ref.lgi(lambda p: next(calls), x, 1.0, k=2, sigma=0.1, rng=np.random.default_rng(0))


def test_lgi_scaling_property() -> None:
    # P3: f -> a f maps rho -> s2 / (q + zeta / a^2): invariant with zeta = 0, non-decreasing in a.
    def f(x: Any) -> float:
        return float(np.sum(np.abs(x - 0.3)) + np.sum(x**2))

    theta = np.array([0.1, -0.2, 0.4])
    rhos = []
    for a in (0.5, 1.0, 4.0):

        def g(x: Any, a: float = a) -> float:
            return a * f(x)

        rhos.append(ref.lgi(g, theta, g(theta), k=6, sigma=0.2, rng=np.random.default_rng(3)))
        r0 = ref.lgi(g, theta, g(theta), k=6, sigma=0.2, rng=np.random.default_rng(3), zeta=0.0)
        r1 = ref.lgi(f, theta, f(theta), k=6, sigma=0.2, rng=np.random.default_rng(3), zeta=0.0)
        assert r0 == pytest.approx(r1, rel=1e-9)
    assert rhos == sorted(rhos)


def test_lgi_closed_form_slopes() -> None:
    # P4: ||theta||^2 at 0 with B blocks: D_i = sigma * B; |x| at 0 in d = 1: D_i = 1.
    theta = (np.zeros(3), np.zeros((2, 2)))
    res = ref.lgi_details(
        lambda q: float(np.sum(q[0] ** 2) + np.sum(q[1] ** 2)),
        theta,
        0.0,
        k=5,
        sigma=0.1,
        rng=np.random.default_rng(0),
    )
    assert np.allclose(res.slopes, 0.2, rtol=1e-9)
    assert res.rho < 1e-20


def test_damping_range_and_monotone() -> None:
    assert ref.damping(0.0, lgi_lambda=3.0) == 1.0
    assert ref.damping(50.0, lgi_lambda=1.0, cap=10.0) == pytest.approx(math.exp(-10.0))
    values = [ref.damping(r, lgi_lambda=2.0) for r in (0.0, 0.5, 1.0, 2.0)]
    assert values == sorted(values, reverse=True)
    assert all(0.0 < v <= 1.0 for v in values)


def test_paper_plain_variant() -> None:
    opt = ref.s_adam(variant="paper_plain", lgi_lambda=0.0, learning_rate=0.1, weight_decay=0.5)
    x = np.array([1.0])
    u, _ = opt.update(
        np.array([2.0]), opt.init(x), x, loss=lambda p: 0.0, rng=np.random.default_rng(0)
    )
    # m = 0.2, v = 0.004: -0.1 * 0.2 / (sqrt(0.004) + 1e-8); no decay, no bias correction
    assert float(u[0]) == pytest.approx(-0.02 / (math.sqrt(0.004) + 1e-8), rel=1e-12)


def test_goldstein_stationarity() -> None:
    g = np.sign
    rng = np.random.default_rng(0)
    at_min = ref.goldstein_stationarity(g, np.zeros(3), delta=0.1, rng=rng)
    away = ref.goldstein_stationarity(g, np.full(3, 1.0), delta=0.1, rng=rng)
    assert at_min < 1e-6
    assert away == pytest.approx(math.sqrt(3.0))


def test_prox_sgd_soft_threshold() -> None:
    opt = ref.prox_sgd(learning_rate=0.1, momentum=0.5, l1=1.0)
    xs = _run(opt, np.array([1.0, -0.05]), [np.zeros(2), np.array([1.0, 0.0])])
    assert xs[1].tolist() == pytest.approx([0.9, 0.0])
    assert xs[2].tolist() == pytest.approx([0.9 - 0.1 - 0.1, 0.0])


# ----------------------------------------------------------------------------- Lion and Muon
def test_to_sfw_requires_decay() -> None:
    with pytest.raises(ValueError, match="weight_decay"):
        LionConfig(weight_decay=0.0).to_sfw()
    with pytest.raises(ValueError, match="learning_rate"):
        LionConfig(learning_rate=2.0, weight_decay=1.0).to_sfw()
    with pytest.raises(ValueError, match="weight_decay"):
        MuonConfig().to_sfw()


def test_lion_without_decay_is_sign_steps() -> None:
    opt = ref.lion(learning_rate=0.25)
    xs = _run(opt, np.zeros(3), [np.array([1.0, -2.0, 0.5])] * 3)
    steps = np.diff(np.array(xs), axis=0)
    assert set(np.abs(steps).ravel().tolist()) == {0.25}


@pytest.mark.parametrize("factory", [ref.lion, ref.muon, ref.sfw])
def test_infinite_clip_equals_unclipped(factory: Any) -> None:
    rng = np.random.default_rng(0)
    grads = [rng.standard_t(1.5, size=(3, 2)) for _ in range(6)]
    a = _run(factory(), np.ones((3, 2)), grads)
    b = _run(factory(clip_tau=math.inf), np.ones((3, 2)), grads)
    assert all(np.array_equal(p, q) for p, q in zip(a, b, strict=True))
    c = _run(factory(clip_tau=0.5), np.ones((3, 2)), grads)
    assert not np.array_equal(a[-1], c[-1])


def test_lion_clip_is_per_tensor_preclipping() -> None:
    g = (np.array([30.0, 40.0]), np.array([0.3]))
    opt = ref.lion(learning_rate=0.1, clip_tau=1.0)
    p = (np.zeros(2), np.zeros(1))
    _, state = opt.update(g, opt.init(p), p)
    assert state.momentum[0].tolist() == pytest.approx([0.01 * 0.6, 0.01 * 0.8])
    assert state.momentum[1].tolist() == pytest.approx([0.01 * 0.3])


def test_muon_rejects_vectors_and_flattens_kernels() -> None:
    with pytest.raises(ValueError, match="2-D"):
        ref.muon().init(np.zeros(3))
    opt = ref.muon(flatten=True, exact_polar=True, learning_rate=1.0, nesterov=False)
    w = np.zeros((2, 1, 2))
    g = np.arange(4.0).reshape(2, 1, 2) + 1.0
    u, _ = opt.update(g, opt.init(w), w)
    u = np.asarray(u)
    assert u.shape == (2, 1, 2)
    assert np.allclose(np.linalg.svd(u.reshape(2, 2), compute_uv=False), 1.0)


def test_muon_shape_factor() -> None:
    opt = ref.muon(exact_polar=True, learning_rate=1.0)
    w = np.zeros((8, 2))
    u, _ = opt.update(np.random.default_rng(0).normal(size=(8, 2)), opt.init(w), w)
    assert np.allclose(np.linalg.svd(u, compute_uv=False), 2.0)


def test_muon_ns_matches_exact_within_band() -> None:
    rng = np.random.default_rng(1)
    g = rng.normal(size=(4, 3))
    w = np.zeros((4, 3))
    ns, _ = ref.muon(learning_rate=1.0).update(g, ref.muon().init(w), w)
    sv = np.linalg.svd(np.asarray(ns), compute_uv=False) / np.sqrt(4 / 3)  # shape factor s
    assert np.all((sv > 0.68) & (sv < 1.135))


def test_sfw_default_schedules_and_vertices() -> None:
    opt = ref.sfw(which="linf", radius=2.0)
    x = np.zeros(2)
    u, s = opt.update(np.array([1.0, -1.0]), opt.init(x), x)
    assert (x + u).tolist() == [-2.0, 2.0]  # gamma_0 = 1: jump to the vertex
    assert s.count == 1
    # l1 / l2 LMOs
    assert ref.lmo([3.0, -4.0], radius=1.0, which="l1").tolist() == [0.0, 1.0]
    assert ref.lmo([3.0, -4.0], radius=1.0, which="l2").tolist() == pytest.approx([-0.6, 0.8])
    assert ref.lmo([0.0, 0.0], radius=1.0, which="l2").tolist() == [0.0, 0.0]


def test_sfw_spectral_matches_muon_ns_variant() -> None:
    cfg = MuonConfig(learning_rate=0.05, weight_decay=0.5, exact_polar=False)
    rng = np.random.default_rng(2)
    grads = [rng.normal(size=(3, 5)) for _ in range(10)]
    a = _run(ref.muon(learning_rate=0.05, weight_decay=0.5), np.zeros((3, 5)), grads)
    b = _run(make_sfw(cfg.to_sfw()), np.zeros((3, 5)), grads)
    # NS5 is scale-invariant only up to its 1e-7 guard: agreement to ~1e-7
    assert max(float(np.max(np.abs(p - q))) for p, q in zip(a, b, strict=True)) < 1e-6


def test_sfw_vr_variants() -> None:
    opt = ref.sfw_vr(radius=1.0, step_size=0.5, a=0.5, clip_tau=math.inf)
    x = np.zeros(2)
    s = opt.init(x)
    u, s = opt.update(np.array([1.0, 2.0]), s, x)
    x = x + u
    with pytest.raises(ValueError, match="prev_grads"):
        opt.update(np.array([1.0, 2.0]), s, x)
    u, s = opt.update(np.array([3.0, 0.0]), s, x, prev_grads=np.array([1.0, 1.0]))
    # STORM: m_1 = g + (1 - a)(m_0 - g_prev) = (3, 0) + 0.5 * ((1, 2) - (1, 1))
    assert s.estimator[0].tolist() == [3.0, 0.5]
    est = ref.sfw_vr(clip_tau=1.0, clip="estimator", step_size=1.0)
    _, s2 = est.update(np.array([3.0, 4.0]), est.init(np.zeros(2)), np.zeros(2))
    assert s2.estimator[0].tolist() == pytest.approx([0.6, 0.8])
    lv = ref.lion_vr(learning_rate=0.1, weight_decay=2.0)
    u, _ = lv.update(np.array([1.0, -1.0]), lv.init(np.ones(2)), np.ones(2))
    assert (np.ones(2) + u).tolist() == pytest.approx([0.8 - 0.1, 0.8 + 0.1])
    mv = ref.muon_vr(exact_polar=True, learning_rate=0.1, weight_decay=1.0)
    u, _ = mv.update(np.eye(2), mv.init(np.zeros((2, 2))), np.zeros((2, 2)))
    assert np.allclose(np.asarray(u), [[-0.1, 0.0], [0.0, -0.1]], rtol=0, atol=1e-15)


def test_fw_gap_split_and_norms() -> None:
    g = np.array([[1.0, 0.0], [0.0, -2.0]])
    x = np.array([[0.0, 0.0], [0.0, 0.5]])
    slack, align = ref.fw_gap_split(g, x, 1.0, "spectral")
    assert slack + align == pytest.approx(ref.fw_gap(g, x, 1.0, "spectral"))
    assert slack == pytest.approx(3.0 * 0.5)
    assert ref.norm(x, "spectral") == 0.5
    with pytest.raises(ValueError, match="grad"):
        ref.fw_gap(np.ones(2), np.ones(3), 1.0, "linf")
    with pytest.raises(ValueError, match="norm"):
        ref.fw_gap(np.ones(2), np.ones(2), 1.0, "nuclear")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ clipped SGD
def test_clipped_sgd_variants() -> None:
    rng = np.random.default_rng(0)
    grads = [rng.normal(size=3) * 5 for _ in range(5)]
    big = _run(ref.clipped_sgd(tau=1e9, learning_rate=0.1), np.zeros(3), grads)
    sgd = [np.zeros(3)]
    for g in grads:
        sgd.append(sgd[-1] + (-0.1 * g))
    assert all(np.array_equal(p, q) for p, q in zip(big, sgd, strict=True))
    no_mom = _run(ref.clipped_sgd(), np.zeros(3), grads)
    beta0 = _run(ref.clipped_sgd(momentum=0.0, clip="after"), np.zeros(3), grads)
    assert all(np.array_equal(p, q) for p, q in zip(no_mom, beta0, strict=True))
    per = _run(ref.clipped_sgd(placement="per_sample"), np.zeros(3), [g[None, :] for g in grads])
    assert all(np.allclose(p, q, rtol=0, atol=1e-15) for p, q in zip(no_mom, per, strict=True))
    opt = ref.clipped_sgd(placement="per_sample", tau=1.0, learning_rate=1.0)
    u, _ = opt.update(np.array([[3.0, 4.0], [0.1, 0.0]]), opt.init(np.zeros(2)), np.zeros(2))
    assert np.asarray(u).tolist() == pytest.approx([-(0.6 + 0.1) / 2, -0.4])
    after = ref.clipped_sgd(momentum=0.5, clip="after", tau=1.0, learning_rate=1.0)
    u, s = after.update(np.array([4.0, 0.0]), after.init(np.zeros(2)), np.zeros(2))
    assert np.asarray(u).tolist() == [-1.0, 0.0]
    assert s.momentum[0].tolist() == [2.0, 0.0]
    with pytest.raises(ValueError, match="clip"):
        ref.clipped_sgd(placement="per_sample", clip="after")


def test_normalized_sgd_step_norm() -> None:
    rng = np.random.default_rng(3)
    for momentum in (0.0, 0.9):
        opt = ref.normalized_sgd(learning_rate=0.3, momentum=momentum)
        x, s = np.zeros(4), opt.init(np.zeros(4))
        for _ in range(5):
            u, s = opt.update(rng.normal(size=4), s, x)
            assert float(np.linalg.norm(u)) == pytest.approx(0.3, rel=1e-12)
            x = x + u
        u, _ = ref.normalized_sgd().update(np.zeros(4), opt.init(x), x)
        assert not np.any(u)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"b1": 1.0}, "b1"),
        ({"k_directions": 0}, "k_directions"),
        ({"sigma": 0.0}, "sigma"),
        ({"lgi_lambda": -1.0}, "lgi_lambda"),
        ({"variant": "x"}, "variant"),
    ],
)
def test_s_adam_bad_hyper_parameters(kwargs: dict[str, Any], name: str) -> None:
    with pytest.raises(ValueError, match=name):
        ref.s_adam(**kwargs)


def test_mismatched_shapes_and_states() -> None:
    opt = ref.adam()
    x = np.zeros(3)
    with pytest.raises(ValueError, match="grads"):
        opt.update(np.zeros(2), opt.init(x), x)
    with pytest.raises(TypeError, match="state"):
        opt.update(np.zeros(3), None, x)  # type: ignore[arg-type]  # the wrong state, on purpose
    with pytest.raises(ValueError, match="params"):
        opt.update(np.zeros(3), opt.init(x), None)
    with pytest.raises(ValueError, match="at least one block"):
        opt.init(())
