"""Unit tests of reference.mirror_descent: norms, mirror maps, G, the algorithms, estimators."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference import mirror_descent as md

NORMS: tuple[md.NormName, ...] = ("l1", "l2", "linf", "lp")


@given(seed=st.integers(0, 2**32 - 1), norm=st.sampled_from(NORMS), p=st.floats(1.1, 8.0))
def test_dual_norm_attained_by_maximizer(seed: int, norm: md.NormName, p: float) -> None:
    rng = np.random.default_rng(seed)
    y = rng.standard_normal(int(rng.integers(1, 6))) * 10.0 ** rng.uniform(-3, 3)
    x = md.dual_maximizer(y, norm, p=p)
    dual = md.dual_norm(y, norm, p=p)
    assert md.primal_norm(x, norm, p=p) <= 1.0 + 1e-12
    assert abs(float(y @ x) - dual) <= 1e-12 * dual
    z = rng.standard_normal(y.size)  # Hölder
    assert float(y @ z) <= dual * md.primal_norm(z, norm, p=p) * (1 + 1e-12)


@pytest.mark.parametrize("norm", ["spectral", "nuclear"])
def test_matrix_dual_pairs(norm: md.NormName) -> None:
    y = np.random.default_rng(0).standard_normal((3, 4))
    x = md.dual_maximizer(y, norm)
    assert md.primal_norm(x, norm) <= 1.0 + 1e-12
    assert abs(float(np.sum(y * x)) - md.dual_norm(y, norm)) < 1e-12


@given(seed=st.integers(0, 2**32 - 1), p=st.floats(1.05, 2.0))
def test_lp_prox_and_bregman(seed: int, p: float) -> None:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(4)
    # a zero step returns x (∇ψ* inverts ∇ψ)
    np.testing.assert_allclose(
        md.prox_step(x, np.zeros(4), 1.0, mirror="lp", p=p), x, rtol=1e-9, atol=1e-12
    )
    y = rng.standard_normal(4)
    d = md.bregman_divergence(x, y, mirror="lp", p=p)
    assert d >= 0.5 * md.primal_norm(x - y, "lp", p=p) ** 2 - 1e-9  # 1-strong convexity
    # the prox step solves its optimality condition: ∇ψ(u) = ∇ψ(x) - ηg
    g = rng.standard_normal(4)
    u = md.prox_step(x, g, 0.3, mirror="lp", p=p)
    lhs = md.prox_step(u, -g, 0.3, mirror="lp", p=p)
    np.testing.assert_allclose(lhs, x, rtol=1e-8, atol=1e-10)


def test_entropic_bregman_is_kl_and_pinsker() -> None:
    rng = np.random.default_rng(1)
    a, b = rng.dirichlet(np.ones(5)), rng.dirichlet(np.ones(5))
    kl = md.bregman_divergence(a, b, mirror="entropic")
    assert abs(kl - float(np.sum(a * np.log(a / b)))) < 1e-14
    assert kl >= 0.5 * float(np.sum(np.abs(a - b))) ** 2
    assert md.bregman_divergence([1.0, 0.0], [0.0, 1.0], mirror="entropic") == math.inf


@given(l0=st.floats(0.01, 100.0), l1=st.floats(0.0, 10.0), d0=st.floats(1e-4, 100.0))
def test_numeric_g_matches_closed_forms(l0: float, l1: float, d0: float) -> None:
    closed = md.effective_constants(md.SmoothnessFunction(l0=l0, l1=l1), d0)
    numeric = md.effective_constants(lambda a: l0 + l1 * a, d0)
    assert abs(numeric.g - closed.g) <= 1e-9 * closed.g
    assert abs(closed.lipschitz - (l0 + 2 * l1 * closed.g)) <= 1e-12 * closed.lipschitz
    acc = md.effective_constants(md.SmoothnessFunction(l0=l0, l1=l1), d0, accelerated=True)
    assert acc.lipschitz >= closed.lipschitz


def test_power_l_and_bad_l() -> None:
    l_fn = md.SmoothnessFunction(l0=1.0, l1=1.0, alpha=1.5)
    g = md.effective_constants(l_fn, 2.0).g
    assert abs(g * g - 2.0 * l_fn(2 * g) * 2.0) < 1e-9 * g * g
    assert md.effective_constants(l_fn, 0.0).g == 0.0
    with pytest.raises(ValueError, match="sub-quadratic"):
        md.effective_constants(lambda a: 1.0 + a**2, 1.0)
    with pytest.raises(ValueError, match="non-decreasing"):
        md.effective_constants(lambda a: 1.0 / (1.0 + a), 1.0)
    with pytest.raises(ValueError, match="alpha"):
        md.SmoothnessFunction(l0=1.0, l1=1.0, alpha=2.0)


def test_step_size_limit_strict_and_warning() -> None:
    grad = lambda x: x  # noqa: E731
    with pytest.raises(ValueError, match="step_size"):
        md.mirror_prox(grad, [1.0], step_size=0.6, max_iter=2, lipschitz=1.0, strict=True)
    with pytest.warns(UserWarning, match="step_size"):
        md.optimistic_mirror_descent(grad, [1.0], step_size=0.5, max_iter=2, lipschitz=1.0)
    md.mirror_descent(grad, [1.0], step_size=1.0, max_iter=2, lipschitz=1.0, strict=True)


def test_tolerance_stops_early_and_reports() -> None:
    r = md.mirror_descent(lambda x: x, [1.0, 2.0], step_size=0.5, max_iter=1000, tol=1e-8)
    assert r.converged
    assert r.iterations < 1000
    assert r.stationarity <= 1e-8
    r2 = md.mirror_descent(lambda x: x, [1.0, 2.0], step_size=0.5, max_iter=3)
    assert not r2.converged
    assert r2.iterates.shape == (4, 2)
    assert not r2.x.flags.writeable


def test_all_methods_decrease_the_gap_on_the_simplex() -> None:
    c = np.array([-1.0, 0.5, 1.0, 0.2])
    problem = md.cosh_ridge(c, 0.3)
    x0 = np.full(4, 0.25)
    lip = md.effective_constants(problem.smoothness("l1"), problem.value(x0) - 2.0).lipschitz
    gap0 = problem.value(x0) - 2.0
    runs = [
        md.mirror_descent(problem.grad, x0, step_size=1 / lip, max_iter=200, mirror="entropic"),
        md.accelerated_mirror_descent(
            problem.grad, x0, lipschitz=lip, max_iter=200, mirror="entropic"
        ),
        md.optimistic_mirror_descent(
            problem.grad, x0, step_size=1 / (3 * lip), max_iter=200, mirror="entropic"
        ),
        md.mirror_prox(problem.grad, x0, step_size=1 / (2 * lip), max_iter=200, mirror="entropic"),
    ]
    for r in runs:
        assert abs(float(np.sum(r.x)) - 1.0) < 1e-12
        assert problem.value(np.asarray(r.x)) - 2.0 < 1e-2 * gap0


def test_stochastic_md_is_deterministic_given_rng_and_noise_is_bounded() -> None:
    grad = lambda x: 2.0 * x  # noqa: E731
    a = md.stochastic_mirror_descent(
        grad, [1.0, -1.0], max_iter=50, lipschitz=2.0, sigma0=0.5, rng=np.random.default_rng(4)
    )
    b = md.stochastic_mirror_descent(
        grad, [1.0, -1.0], max_iter=50, lipschitz=2.0, sigma0=0.5, rng=np.random.default_rng(4)
    )
    np.testing.assert_array_equal(a.iterates, b.iterates)
    eta = min(1 / 4, 1 / math.sqrt(50))
    steps = np.diff(a.iterates, axis=0) / eta  # = -(g + ξ)
    noise = -steps - 2.0 * a.iterates[:-1]
    assert float(np.max(np.linalg.norm(noise, axis=1))) <= 0.5 + 1e-12


def test_local_smoothness_fit_recovers_affine_l() -> None:
    problem = md.quartic_ridge(np.ones(3))
    run = md.mirror_descent(problem.grad, [0.9, 0.2, 0.1], step_size=0.05, max_iter=60)
    grads = np.array([problem.grad(x) for x in run.iterates])
    a, local = md.local_smoothness_estimates(run.iterates, grads, norm="l2")
    l_fn = problem.smoothness("l2")
    assert np.all(local <= np.array([l_fn(2 * v) for v in a]) * (1 + 1e-9))  # Lemma A
    fit = md.fit_affine_smoothness(a, local)
    assert fit.r_squared > 0.9
    assert fit.l0 >= 0.0
    assert fit.l1 >= 0.0


def test_entropic_step_never_nan() -> None:
    out = md.entropic_step([0.2, 0.3, 0.5], [1e3, -1e3, 0.0], 50.0)
    assert out.tolist() == [0.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="simplex"):
        md.entropic_step([0.5, 0.6], [0.0, 0.0], 1.0)


# ---- composite mirror descent (spec 06 algorithm 6)


def test_composite_prox_closed_forms() -> None:
    from reference.mirror_descent.composite import Regularizer, composite_prox_step

    x, g = np.array([1.0, -0.2, 0.05]), np.array([0.5, 0.0, -1.0])
    l1 = composite_prox_step(x, g, 0.4, regularizer=Regularizer(kind="l1", weight=0.5))
    np.testing.assert_allclose(l1, [0.6, 0.0, 0.25], atol=1e-15)
    l2 = composite_prox_step(x, g, 0.4, regularizer=Regularizer(kind="l2sq", weight=1.5))
    np.testing.assert_allclose(l2, (x - 0.4 * g) / 1.6, rtol=1e-15)
    box_reg = Regularizer(kind="box", lower=-0.1, upper=0.5)
    box = composite_prox_step([0.5, 0.0, 0.05], g, 2.0, regularizer=box_reg)
    np.testing.assert_allclose(box, [-0.1, 0.0, 0.5])
    p = np.array([0.2, 0.3, 0.5])
    ent = composite_prox_step(
        p, g, 0.7, regularizer=Regularizer(kind="entropy", weight=2.0), mirror="entropic"
    )
    # optimality: g + λ(log u + 1) + (log u - log p)/η is constant over the support
    kkt = g + 2.0 * np.log(ent) + (np.log(ent) - np.log(p)) / 0.7
    assert float(np.ptp(kkt)) < 1e-12
    assert abs(float(ent.sum()) - 1.0) < 1e-15


def test_composite_validation_and_stopping() -> None:
    from reference.mirror_descent.composite import Regularizer, composite_mirror_descent

    with pytest.raises(ValueError, match="kind"):
        Regularizer(kind="l3", weight=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="weight"):
        Regularizer(kind="l1", weight=-1.0)
    with pytest.raises(ValueError, match="lower, upper"):
        Regularizer(kind="box", lower=1.0, upper=1.0)
    with pytest.raises(ValueError, match="regularizer"):
        composite_mirror_descent(
            lambda x: x,
            [0.5, 0.5],
            step_size=0.1,
            max_iter=3,
            mirror="entropic",
            regularizer=Regularizer(kind="l1", weight=1.0),
        )
    with pytest.raises(ValueError, match="x0: expected a point of the box"):
        composite_mirror_descent(
            lambda x: x, [2.0], step_size=0.1, max_iter=3, regularizer=Regularizer(kind="box")
        )
    run = composite_mirror_descent(
        lambda x: x - 3.0,
        [0.0, 1.0],
        step_size=0.5,
        max_iter=500,
        tol=1e-10,
        regularizer=Regularizer(kind="l1", weight=1.0),
    )
    assert run.converged
    assert run.iterations < 500
    np.testing.assert_allclose(run.x, [2.0, 2.0], atol=1e-9)  # soft(3, 1)
    assert run.stationarity == float(np.min(run.mapping_norms))
    assert run.iterates.shape == (run.iterations + 1, 2)
    assert not run.x.flags.writeable


def test_smoothness_function_is_inf_past_the_float_range() -> None:
    """``l(a) = l0 + l1 a^alpha`` with ``a^alpha`` past the float range is ``inf`` (found by the
    mutation triage: ``1e300 ** 1.5`` raised OverflowError, an undocumented exception)."""
    from reference.mirror_descent.methods import SmoothnessFunction

    l_fn = SmoothnessFunction(l0=1.0, l1=1.0, alpha=1.5)
    assert l_fn(1e300) == float("inf")
    assert l_fn(4.0) == 9.0  # 1 + 4^1.5, exact in floats
