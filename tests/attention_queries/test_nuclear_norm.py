"""Algorithm B's solver: equality-constrained nuclear-norm minimisation, checked against
independent oracles (weak duality, least squares, a Burer-Monteiro SLSQP solve), and the
probe-halving rule of :func:`reference.attention_queries.recover_low_rank`."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import NonlinearConstraint, minimize

from proofs_numeric import attention_queries as pa
from reference import attention_queries as aq
from reference._arrays import FloatArray


def _problem(
    d1: int, d2: int, rank: int, m: int, rng: np.random.Generator
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    w0 = rng.standard_normal((d1, rank)) @ rng.standard_normal((rank, d2))
    a, b = rng.standard_normal((m, d1)), rng.standard_normal((m, d2))
    return a, b, np.einsum("ki,ij,kj->k", a, w0, b), w0


def _nuclear(matrix: FloatArray) -> float:
    return float(np.sum(np.linalg.svd(matrix, compute_uv=False)))


@settings(max_examples=25)
@given(
    d1=st.integers(1, 6),
    d2=st.integers(1, 6),
    rank=st.integers(1, 2),
    extra=st.integers(0, 40),
    seed=st.integers(0, 2**32 - 1),
)
def test_admm_solution_is_certified_optimal(
    d1: int, d2: int, rank: int, extra: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    m = 1 + extra % (d1 * d2 + 2)
    a, b, t, w0 = _problem(d1, d2, min(rank, d1, d2), m, rng)
    res = aq.nuclear_norm_admm(a, b, t)
    assert res.converged, res
    W = np.asarray(res.W)
    ops = np.einsum("ki,kj->kij", a, b).reshape(m, d1 * d2)  # explicit map, not the solver's
    assert np.linalg.norm(ops @ W.ravel() - t) <= 1e-9 * np.linalg.norm(t) * 1.01
    assert _nuclear(W) <= _nuclear(w0) * (1 + 1e-7)
    y = np.asarray(res.dual)
    assert np.linalg.norm((ops.T @ y).reshape(d1, d2), 2) <= 1 + 1e-9  # dual feasible
    assert float(t @ y) <= _nuclear(w0) * (1 + 1e-9)  # weak duality, by construction
    assert _nuclear(W) - float(t @ y) <= 1e-6 * _nuclear(W)  # certified optimal


@pytest.mark.parametrize(("d", "extra"), [(3, 0), (4, 5), (6, 12)])
def test_admm_equals_least_squares_when_determined(d: int, extra: int) -> None:
    rng = np.random.default_rng(d)
    a, b, t, _ = _problem(d, d, d, d * d + extra, rng)
    ops = np.einsum("ki,kj->kij", a, b).reshape(-1, d * d)
    ls = np.linalg.lstsq(ops, t, rcond=None)[0].reshape(d, d)
    res = aq.nuclear_norm_admm(a, b, t)
    assert res.converged
    assert np.linalg.norm(np.asarray(res.W) - ls) <= 1e-8 * np.linalg.norm(ls)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_admm_matches_a_burer_monteiro_slsqp_solve(seed: int) -> None:
    """Independent scipy oracle: ``min (||L||_F^2 + ||R||_F^2)/2 s.t. A(L Rᵀ) = t`` (its value is
    ``min ||W||_*`` for full-width factors), by SLSQP from several starts."""
    d, m = 3, 5
    rng = np.random.default_rng(seed)
    a, b, t, _ = _problem(d, d, 1, m, rng)
    res = aq.nuclear_norm_admm(a, b, t)

    def split(x: FloatArray) -> tuple[FloatArray, FloatArray]:
        return x[: d * d].reshape(d, d), x[d * d :].reshape(d, d)

    def cons(x: FloatArray) -> FloatArray:
        left, right = split(x)
        return np.asarray(np.einsum("ki,ij,kj->k", a, left @ right.T, b) - t)

    def half_sq(x: FloatArray) -> float:
        return 0.5 * float(x @ x)

    best = math.inf
    for _ in range(8):
        out = minimize(
            half_sq,
            rng.standard_normal(2 * d * d),
            method="SLSQP",
            constraints=NonlinearConstraint(cons, 0.0, 0.0),
            options={"maxiter": 500, "ftol": 1e-12},
        )
        if out.success and np.max(np.abs(cons(out.x))) < 1e-8:
            best = min(best, float(out.fun))
    assert math.isfinite(best)
    assert _nuclear(np.asarray(res.W)) <= best * (1 + 1e-7)  # never worse than any feasible point
    assert _nuclear(np.asarray(res.W)) == pytest.approx(best, rel=1e-5)


def test_converged_is_never_claimed_without_small_residuals() -> None:
    rng = np.random.default_rng(7)
    a, b, t, _ = _problem(8, 8, 2, 40, rng)
    early = aq.nuclear_norm_admm(a, b, t, max_iter=3)
    assert not early.converged
    assert max(early.residual, early.fixed_point_residual) > 1e-9
    full = aq.nuclear_norm_admm(a, b, t)
    assert full.converged
    assert full.residual <= 1e-9
    assert full.fixed_point_residual <= 1e-9
    zero = aq.nuclear_norm_admm(a, b, np.zeros(40))
    assert zero.converged
    assert not np.any(np.asarray(zero.W))


def test_rectangular_problem() -> None:
    rng = np.random.default_rng(8)
    a, b, t, w0 = _problem(4, 7, 1, 30, rng)
    res = aq.nuclear_norm_admm(a, b, t)
    assert np.asarray(res.W).shape == (4, 7)
    assert np.linalg.norm(np.asarray(res.W) - w0) <= 1e-6 * np.linalg.norm(w0)


def test_low_rank_halves_saturated_probes_and_stays_exact() -> None:
    """A large ``W`` saturates most s_a = 0.2 probes: halving keeps every drawn direction, the
    measurements stay accurate and recovery is exact."""
    rng = np.random.default_rng(9)
    d, r = 12, 1
    W = 20.0 * np.outer(rng.standard_normal(d), rng.standard_normal(d))
    rec = aq.recover_low_rank(aq.AttentionOracle(W, rng.standard_normal(d)), r, 8 * d, rng=rng)
    assert rec.resamples > 0
    assert rec.queries == d + 8 * d + rec.resamples
    exact = np.einsum("ki,ij,kj->k", rec.a, W, rec.b)
    assert np.max(np.abs(rec.measurements - exact) / (1 + np.abs(exact))) <= 1e-9
    assert np.max(np.abs(rec.measurements)) < -math.log(1e-6) + 1e-6
    assert rec.converged
    assert np.linalg.norm(np.asarray(rec.W) - W) <= 1e-6 * np.linalg.norm(W)


def test_low_rank_recovers_at_d40_with_6rd() -> None:
    """The case the former solver missed (rel. error 0.15 at d = 40, r = 2, m = 6 r d)."""
    check = pa.theorem_5_1(40, 2, 6.0, np.random.default_rng(10))
    assert check.holds, check
    assert check.params["converged"]


@pytest.mark.slow
def test_spec_fista_heuristic_misses_the_minimiser_at_d40() -> None:
    """The spec's proximal-gradient heuristic stops at a feasible, non-minimal point where ADMM
    certifies the (exact) minimiser on the same measurements."""
    rng = np.random.default_rng(11)
    d, r = 40, 2
    W = rng.standard_normal((r, d)).T @ rng.standard_normal((r, d))
    rec = aq.recover_low_rank(aq.AttentionOracle(W, rng.standard_normal(d)), r, 6 * r * d, rng=rng)
    assert np.linalg.norm(np.asarray(rec.W) - W) <= 1e-6 * np.linalg.norm(W)
    ops = np.einsum("ki,kj->kij", rec.a, rec.b).reshape(-1, d * d)
    heuristic, _, residual = aq.nuclear_norm_fista(ops, rec.measurements, d)
    assert residual <= 1e-6
    assert np.linalg.norm(heuristic - W) > 1e-3 * np.linalg.norm(W)
    assert _nuclear(heuristic) > _nuclear(np.asarray(rec.W)) * (1 + 1e-6)


@pytest.mark.slow
def test_rop_threshold_grows_linearly_in_d() -> None:
    check = pa.rop_threshold_scaling((10, 20, 40), 2, 10, np.random.default_rng(12))
    assert check.holds, check
