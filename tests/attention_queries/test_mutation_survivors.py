"""Tests written for the mutants mutmut left alive in reference/attention_queries.py (issue 36,
item 6).

Every expected value is recomputed here from the documented formula with an independent routine:
softmax weights and outputs with explicit loops, least squares through numpy's ``lstsq`` on the
explicit measurement matrix, singular values for nuclear norms, finite differences for the
passive fit's optimality.  Nothing is copied from the library's output.  The triage of every
survivor is in benchmarks/results/mutation_attention_queries.md.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from reference import attention_queries as aq
from reference._arrays import FloatArray as Array


def _weights(X: Array, W: Array) -> list[float]:
    """``softmax_i(x_iᵀ W x_N)`` by the definition, term by term (no max shift needed here)."""
    scores = [float(X[i] @ W @ X[-1]) for i in range(X.shape[0])]
    exps = [math.exp(s) for s in scores]
    return [e / sum(exps) for e in exps]


def _output(X: Array, W: Array, v: Array) -> float:
    return sum(a * float(v @ X[i]) for i, a in enumerate(_weights(X, W)))


def _ops(a: Array, b: Array) -> Array:
    """Explicit ROP measurement matrix: row k is vec(a_k b_kᵀ) (row-major)."""
    return np.array([np.outer(a[k], b[k]).ravel() for k in range(a.shape[0])])


def _nuclear(matrix: Array) -> float:
    return float(np.sum(np.linalg.svd(matrix, compute_uv=False)))


# ---------------------------------------------------------------- the model


def test_weights_and_outputs_by_the_definition() -> None:
    rng = np.random.default_rng(0)
    for n, d in ((1, 1), (3, 2), (5, 4)):
        X, W, v = rng.standard_normal((n, d)), rng.standard_normal((d, d)), rng.standard_normal(d)
        np.testing.assert_allclose(aq.attention_weights(X, W), _weights(X, W), rtol=1e-12)
        assert aq.attention_output(X, W, v) == pytest.approx(_output(X, W, v), rel=1e-12)
        oracle = aq.AttentionOracle(W, v)
        assert oracle(X) == pytest.approx(_output(X, W, v), rel=1e-12)
    # huge scores: the stable softmax still returns the limit (one-hot on the top score)
    X = np.array([[30.0, 0.0], [0.0, 30.0], [30.0, 1.0]])
    W = np.eye(2) * 100.0
    alpha = aq.attention_weights(X, W)
    assert np.all(np.isfinite(alpha))
    assert alpha.sum() == pytest.approx(1.0, abs=1e-15)
    assert alpha[2] == pytest.approx(1.0, abs=1e-12)  # score 90100 against 90000 and 3000
    for bad, name in (([[1.0, 2.0]], "W"), (np.ones((2, 3)), "W")):
        with pytest.raises(ValueError, match=f"^{name}:"):
            aq.attention_weights(np.ones((2, 2)), bad)
    with pytest.raises(ValueError, match=r"^X:"):
        aq.attention_weights(np.ones((2, 3)), np.eye(2))
    with pytest.raises(ValueError, match=r"^v:"):
        aq.attention_output(np.ones((2, 2)), np.eye(2), np.ones(3))
    with pytest.raises(ValueError, match=r"^W:"):
        aq.attention_output(np.ones((2, 2)), np.ones((2, 3)), np.ones(2))


def test_multihead_and_one_layer_by_the_definition() -> None:
    rng = np.random.default_rng(1)
    X = rng.standard_normal((4, 3))
    Ws, vs = rng.standard_normal((2, 3, 3)), rng.standard_normal((2, 3))  # H = 2 != d = 3
    want = sum(_output(X, Ws[h], vs[h]) for h in range(2))
    assert aq.multihead_output(X, Ws, vs) == pytest.approx(want, rel=1e-12)
    with pytest.raises(ValueError, match=r"^Ws:"):
        aq.multihead_output(X, np.ones((2, 3, 2)), np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"^vs:"):
        aq.multihead_output(X, Ws, np.ones((3, 3)))
    W, V, A, wo = (rng.standard_normal(s) for s in ((3, 3), (3, 3), (5, 3), (5,)))
    alpha = _weights(X, W)
    z = sum(alpha[i] * (V @ X[i]) for i in range(4))
    want = sum(wo[k] * max(float(A[k] @ z), 0.0) for k in range(5))
    assert aq.one_layer_output(X, W, V, A, wo) == pytest.approx(want, rel=1e-12)
    assert any(float(A[k] @ z) < 0 for k in range(5))  # the ReLU cuts something here
    for args, name in (
        ((np.ones((3, 2)), V, A, wo), "W"),
        ((W, np.ones((3, 2)), A, wo), "V"),
        ((W, V, np.ones((5, 2)), wo), "A"),
        ((W, V, A, np.ones(4)), "w_o"),
    ):
        with pytest.raises(ValueError, match=f"^{name}:"):
            aq.one_layer_output(X, *args)


# ---------------------------------------------------------------- the oracle


def test_oracle_noise_models_and_model_hook() -> None:
    W, v = np.array([[0.3, -0.2], [0.1, 0.4]]), np.array([1.0, -2.0])
    X2, X1 = np.array([[1.0, 2.0], [0.5, -0.5]]), np.array([[1.0, 0.5]])
    f2, f1 = _output(X2, W, v), _output(X1, W, v)
    seq = aq.AttentionOracle(W, v, tau=0.2, noise=[1.0, -0.5, 0.25])
    got = [seq(X2) for _ in range(7)]
    np.testing.assert_allclose(
        got, [f2 + 0.2 * e for e in (1.0, -0.5, 0.25, 1.0, -0.5, 0.25, 1.0)], rtol=1e-13
    )
    assert seq.queries == 7
    assert seq.noise == "sequence"
    silent = aq.AttentionOracle(W, v, tau=0.0, noise="adversarial")
    assert silent(X2) == pytest.approx(f2, rel=1e-14)
    adv = aq.AttentionOracle(W, v, tau=0.1, noise="adversarial")
    assert adv(X1) == pytest.approx(f1 + 0.1, rel=1e-14)
    assert adv(X2) == pytest.approx(f2 - 0.1, rel=1e-14)
    assert adv.queries == 2
    uni = aq.AttentionOracle(W, v, tau=0.3, noise="uniform", rng=np.random.default_rng(5))
    twin = np.random.default_rng(5)
    for _ in range(5):
        assert uni(X2) == pytest.approx(f2 + twin.uniform(-0.3, 0.3), rel=1e-13)
    none = aq.AttentionOracle(W, v, tau=0.3)
    assert none(X2) == pytest.approx(f2, rel=1e-14)
    assert none.tau == 0.3
    calls: list[tuple[Array, Array, Array]] = []

    def model(X: Array, Wm: Array, vm: Array) -> float:
        calls.append((X, Wm, vm))
        return 7.0

    hooked = aq.AttentionOracle(W, v, model=model)
    assert hooked([[1.0, 0.0]]) == 7.0
    np.testing.assert_array_equal(calls[0][1], W)
    np.testing.assert_array_equal(calls[0][2], v)
    np.testing.assert_array_equal(calls[0][0], [[1.0, 0.0]])
    for kwargs, name in (
        ({"noise": "gaussian"}, "noise"),
        ({"noise": [0.5, 1.5]}, "noise"),
        ({"noise": [-1.01]}, "noise"),
    ):
        with pytest.raises(ValueError, match=f"^{name}:"):
            aq.AttentionOracle(W, v, tau=0.1, **kwargs)
    aq.AttentionOracle(W, v, tau=0.1, noise=[-1.0, 1.0])  # the ends of [-1, 1] are allowed
    with pytest.raises(ValueError, match=r"^X:"):
        none(np.ones((2, 3)))


def test_oracle_width_and_answers_are_validated() -> None:
    W, v = np.eye(2), np.array([1.0, 2.0])

    def plain(X: Array) -> float:
        return _output(np.asarray(X), W, v)

    rec = aq.recover_exact(plain, d=2)
    np.testing.assert_allclose(rec.W, W, atol=1e-9)
    assert rec.queries == 6  # counted by the learner when the oracle has no counter
    with pytest.raises(TypeError, match=r"^oracle:"):
        aq.recover_exact(3.0, d=2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^d:"):
        aq.recover_exact(plain)
    with pytest.raises(ValueError, match=r"^d:"):
        aq.recover_exact(aq.AttentionOracle(W, v), d=3)
    with pytest.raises(ValueError, match=r"^d:"):
        aq.recover_exact(plain, d=0)
    rec = aq.recover_exact(aq.AttentionOracle(W, v), d=2)
    np.testing.assert_allclose(rec.W, W, atol=1e-9)
    with pytest.raises(ValueError, match=r"^oracle:"):
        aq.recover_exact(lambda X: math.nan, d=2)
    with pytest.raises(ValueError, match=r"^oracle:"):
        aq.recover_exact(lambda X: math.inf, d=2)


# ---------------------------------------------------------------- Algorithm A


def test_recover_exact_variants_and_limits() -> None:
    rng = np.random.default_rng(2)
    W, v = rng.standard_normal((4, 4)), rng.standard_normal(4)
    for gen in (None, np.random.default_rng(3)):
        oracle = aq.AttentionOracle(W, v)
        rec = aq.recover_exact(oracle, rng=gen)
        np.testing.assert_allclose(rec.W, W, atol=1e-9)
        np.testing.assert_allclose(rec.v, v, atol=1e-12)
        assert rec.queries == oracle.queries == 20
    # v along (1, ..., 1): the reflection is the identity, recovery still exact
    ones = aq.recover_exact(aq.AttentionOracle(W, np.full(4, 0.7)))
    np.testing.assert_allclose(ones.W, W, atol=1e-9)
    # a larger scale saturates: each halving costs one query, all counted
    big = aq.AttentionOracle(W * 40.0, v)
    rec = aq.recover_exact(big, scale=2.0)
    assert rec.resamples > 0
    assert rec.queries == 20 + rec.resamples == big.queries
    np.testing.assert_allclose(rec.W, W * 40.0, rtol=1e-6, atol=1e-6)
    with pytest.raises(ValueError, match=r"^scale:"):
        aq.recover_exact(aq.AttentionOracle(W * 40.0, v), scale=2.0, max_resample=0)
    one = aq.recover_exact(aq.AttentionOracle(W * 40.0, v), scale=2.0, max_resample=60)
    np.testing.assert_allclose(one.W, W * 40.0, rtol=1e-6, atol=1e-6)
    for kwargs, name in (
        ({"scale": 0.0}, "scale"),
        ({"tol": 0.0}, "tol"),
        ({"max_resample": -1}, "max_resample"),
    ):
        with pytest.raises(ValueError, match=f"^{name}:"):
            aq.recover_exact(aq.AttentionOracle(W, v), **kwargs)
    # tol decides what counts as v = 0
    small = aq.AttentionOracle(W, np.full(4, 1e-9))
    with pytest.raises(aq.NotIdentifiableError):
        aq.recover_exact(small, tol=1e-6)
    rec = aq.recover_exact(aq.AttentionOracle(W, np.full(4, 1e-3)), tol=1e-6)
    np.testing.assert_allclose(rec.W, W, rtol=1e-5, atol=1e-5)


def test_recover_exact_probes_are_orthogonal_and_balanced() -> None:
    rng = np.random.default_rng(4)
    W, v = rng.standard_normal((3, 3)), rng.standard_normal(3)
    seen: list[Array] = []
    oracle = aq.AttentionOracle(W, v)

    def spy(X: Array) -> float:
        seen.append(np.array(X))
        return oracle(X)

    aq.recover_exact(spy, d=3, scale=0.3)
    probes = np.array([X[0] - X[1] for X in seen[3:6]])  # column 0: rows u_i + e_0 and e_0
    np.testing.assert_allclose(probes @ probes.T, 0.09 * np.eye(3), atol=1e-12)
    np.testing.assert_allclose(probes @ v, 0.3 * np.linalg.norm(v) / math.sqrt(3), rtol=1e-12)


# ---------------------------------------------------------------- Algorithm B and its solvers


def test_admm_fields_give_back_the_documented_quantities() -> None:
    rng = np.random.default_rng(6)
    d1, d2, m = 4, 3, 8
    w0 = np.outer(rng.standard_normal(d1), rng.standard_normal(d2))
    a, b = rng.standard_normal((m, d1)), rng.standard_normal((m, d2))
    ops = _ops(a, b)
    t = ops @ w0.ravel()
    res = aq.nuclear_norm_admm(a, b, t)
    assert res.converged
    assert res.iterations > 0
    W, X, Z0, U = (
        np.asarray(res.W),
        np.asarray(res.X),
        np.asarray(res.previous_iterate),
        np.asarray(res.U),
    )
    fp = max(
        np.linalg.norm(X - W) / max(np.linalg.norm(X), np.linalg.norm(W)),
        np.linalg.norm(W - Z0) / np.linalg.norm(U),
    )
    assert res.fixed_point_residual == pytest.approx(fp, rel=1e-9)
    assert res.residual == pytest.approx(
        np.linalg.norm(ops @ W.ravel() - t) / np.linalg.norm(t), rel=1e-6, abs=1e-15
    )
    pinv = np.linalg.pinv(ops)
    proj = W.ravel() - pinv @ (ops @ W.ravel() - t)
    y = np.asarray(res.dual)
    assert np.linalg.norm((ops.T @ y).reshape(d1, d2), 2) == pytest.approx(1.0, rel=1e-9)
    gap = (_nuclear(proj.reshape(d1, d2)) - float(t @ y)) / _nuclear(proj.reshape(d1, d2))
    assert res.duality_gap == pytest.approx(gap, abs=1e-9)
    assert 0 <= res.duality_gap <= 1e-6
    # the iteration cap is honoured and reported
    short = aq.nuclear_norm_admm(a, b, t, max_iter=3)
    assert short.iterations == 3
    assert not short.converged
    assert short.converged == (short.residual <= 1e-9 and short.fixed_point_residual <= 1e-9)
    loose = aq.nuclear_norm_admm(a, b, t, tol=1e-3)
    assert loose.converged
    assert loose.iterations < res.iterations
    assert loose.residual <= 1e-3
    assert loose.fixed_point_residual <= 1e-3


def test_admm_zero_rank_deficient_and_determined_cases() -> None:
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal((5, 3)), rng.standard_normal((5, 2))
    zero = aq.nuclear_norm_admm(a, b, np.zeros(5))
    assert zero.converged
    assert zero.iterations == 0
    assert not np.any(zero.W)
    assert zero.W.shape == (3, 2)
    assert not np.any(zero.dual)
    assert zero.dual.shape == (5,)
    assert not np.any(zero.U)
    # more rows than unknowns but a rank-deficient map: a repeated probe pair, consistent data
    w0 = np.outer(rng.standard_normal(2), rng.standard_normal(2))
    a4, b4 = rng.standard_normal((3, 2)), rng.standard_normal((3, 2))
    a4, b4 = np.vstack([a4, a4[:2]]), np.vstack([b4, b4[:2]])  # m = 5 > 4, rank 3
    ops = _ops(a4, b4)
    t = ops @ w0.ravel()
    res = aq.nuclear_norm_admm(a4, b4, t, max_iter=20000)
    assert res.converged
    assert res.iterations > 0
    W = np.asarray(res.W)
    assert np.linalg.norm(ops @ W.ravel() - t) <= 1e-8 * np.linalg.norm(t)
    y = np.asarray(res.dual)
    assert np.linalg.norm((ops.T @ y).reshape(2, 2), 2) <= 1 + 1e-9
    assert _nuclear(W) - float(t @ y) <= 1e-6 * _nuclear(W)
    # determined and injective: the least-squares point, with an exact certificate
    a9, b9 = rng.standard_normal((12, 3)), rng.standard_normal((12, 3))
    ops9 = _ops(a9, b9)
    w9 = rng.standard_normal((3, 3))
    t9 = ops9 @ w9.ravel() + 1e-3 * rng.standard_normal(12)  # inconsistent: m > d^2
    det = aq.nuclear_norm_admm(a9, b9, t9)
    assert det.iterations == 0
    assert not det.converged
    ls = np.asarray(np.linalg.lstsq(ops9, t9, rcond=None)[0], dtype=np.float64).reshape(3, 3)
    np.testing.assert_allclose(det.W, ls, rtol=1e-9, atol=1e-12)
    assert det.residual == pytest.approx(
        np.linalg.norm(ops9 @ ls.ravel() - t9) / np.linalg.norm(t9), rel=1e-6
    )
    y9 = np.asarray(det.dual)
    assert np.linalg.norm((ops9.T @ y9).reshape(3, 3), 2) == pytest.approx(1.0, rel=1e-9)
    assert float(t9 @ y9) == pytest.approx(_nuclear(ls), rel=1e-9)
    assert det.duality_gap == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_array_equal(det.X, det.W)
    np.testing.assert_array_equal(det.previous_iterate, det.W)
    assert not np.any(det.U)
    assert det.fixed_point_residual == 0.0
    exact = aq.nuclear_norm_admm(a9, b9, ops9 @ w9.ravel())
    assert exact.converged
    assert exact.iterations == 0
    # rank-deficient determined solution (w of rank 1): the certificate still has norm 1
    w1 = np.outer(rng.standard_normal(3), rng.standard_normal(3))
    r1 = aq.nuclear_norm_admm(a9, b9, ops9 @ w1.ravel())
    y1 = np.asarray(r1.dual)
    assert np.linalg.norm((ops9.T @ y1).reshape(3, 3), 2) <= 1 + 1e-9
    assert float(ops9 @ w1.ravel() @ y1) == pytest.approx(_nuclear(w1), rel=1e-8)
    for kwargs, name in (({"max_iter": 0}, "max_iter"), ({"tol": 0.0}, "tol")):
        with pytest.raises(ValueError, match=f"^{name}:"):
            aq.nuclear_norm_admm(a, b, np.ones(5), **kwargs)
    with pytest.raises(ValueError, match=r"^b:"):
        aq.nuclear_norm_admm(a, b[:4], np.ones(5))
    with pytest.raises(ValueError, match=r"^t:"):
        aq.nuclear_norm_admm(a, b, np.ones(4))


def test_fista_continuation_and_residual() -> None:
    rng = np.random.default_rng(8)
    d, m = 3, 12
    a, b = rng.standard_normal((m, d)), rng.standard_normal((m, d))
    ops = _ops(a, b)
    w0 = rng.standard_normal((d, d))
    t = ops @ w0.ravel()
    W, its, res = aq.nuclear_norm_fista(ops, t, d, max_iter=5000, tol=1e-8)
    assert res == pytest.approx(np.linalg.norm(ops @ W.ravel() - t) / np.linalg.norm(t), rel=1e-9)
    assert res <= 1e-8
    np.testing.assert_allclose(W, w0, atol=1e-6)  # determined: the unique solution
    # lam starts at ||A^*(t)||_2 and shrinks by 0.95 a step to 1e-10 before any early stop
    lam0 = np.linalg.norm((ops.T @ t).reshape(d, d), 2)
    floor = math.ceil(math.log(1e-10 / lam0) / math.log(0.95))
    assert floor - 1 <= its <= 5000
    assert its >= floor - 1
    W5, its5, res5 = aq.nuclear_norm_fista(ops, t, d, max_iter=5)
    assert its5 == 5
    assert res5 == pytest.approx(np.linalg.norm(ops @ W5.ravel() - t) / np.linalg.norm(t), rel=1e-9)
    assert res5 > 1e-3
    for kwargs, name in (({"max_iter": 0}, "max_iter"), ({"tol": 0.0}, "tol")):
        with pytest.raises(ValueError, match=f"^{name}:"):
            aq.nuclear_norm_fista(ops, t, d, **kwargs)
    with pytest.raises(ValueError, match=r"^ops:"):
        aq.nuclear_norm_fista(ops, t, 2)


def _fista(ops: Array, t: Array, d: int, iters: int, tol: float) -> tuple[Array, int, float]:
    """The documented method written out (Beck-Teboulle momentum, continuation on lam)."""
    big_l = np.linalg.svd(ops, compute_uv=False)[0] ** 2
    lam = np.linalg.svd((ops.T @ t).reshape(d, d), compute_uv=False)[0]
    w = y = np.zeros(d * d)
    mom = 1.0
    res = math.inf
    for k in range(1, iters + 1):
        step = (y - ops.T @ (ops @ y - t) / big_l).reshape(d, d)
        u, s, vt = np.linalg.svd(step)
        w_next = ((u * np.maximum(s - lam / big_l, 0.0)) @ vt).ravel()
        mom_next = (1 + math.sqrt(1 + 4 * mom * mom)) / 2
        y = w_next + (mom - 1) / mom_next * (w_next - w)
        w, mom = w_next, mom_next
        lam = max(0.95 * lam, 1e-10)
        res = float(np.linalg.norm(ops @ w - t) / np.linalg.norm(t))
        if lam <= 1e-10 and res <= tol:
            return w.reshape(d, d), k, res
    return w.reshape(d, d), iters, res


def test_fista_iterates_follow_the_documented_method() -> None:
    rng = np.random.default_rng(16)
    d, m = 3, 6  # underdetermined: the iterates depend on every constant of the method
    a, b = rng.standard_normal((m, d)), rng.standard_normal((m, d))
    ops = _ops(a, b)
    t = 0.01 * ops @ np.outer(rng.standard_normal(d), rng.standard_normal(d)).ravel()
    assert np.linalg.norm(t) < 1  # a relative residual that differs from the absolute one
    for iters in (1, 2, 3, 7, 40):
        W, its, res = aq.nuclear_norm_fista(ops, t, d, max_iter=iters, tol=1e-10)
        w_ref, its_ref, res_ref = _fista(ops, t, d, iters, 1e-10)
        assert its == its_ref == iters
        np.testing.assert_allclose(W, w_ref, rtol=1e-9, atol=1e-14)
        assert res == pytest.approx(res_ref, rel=1e-9)
    # the first step thresholds at lam0 = the top singular value: the iterate is still 0
    W1, _, res1 = aq.nuclear_norm_fista(ops, t, d, max_iter=1)
    assert not np.any(np.abs(W1) > 1e-15 * np.abs(t).max())
    assert res1 == pytest.approx(1.0, rel=1e-12)
    # defaults: tol 1e-10 reached on a determined system, max_iter 2000 on an inconsistent one
    a9, b9 = rng.standard_normal((12, 2)), rng.standard_normal((12, 2))
    ops9 = _ops(a9, b9)
    t9 = ops9 @ rng.standard_normal(4)
    _W9, its9, res9 = aq.nuclear_norm_fista(ops9, t9, 2)
    assert res9 <= 1e-10
    assert its9 < 2000
    noisy = t9 + 0.1 * rng.standard_normal(12)
    _, its_n, res_n = aq.nuclear_norm_fista(ops9, noisy, 2)
    assert its_n == 2000
    assert res_n > 1e-3
    with pytest.raises(ValueError, match=r"^d:"):
        aq.nuclear_norm_fista(np.ones((3, 0)), np.ones(3), 0)
    w_one, its_one, _ = aq.nuclear_norm_fista(np.array([[2.0], [1.0]]), np.array([4.0, 2.0]), 1)
    assert its_one < 2000
    assert w_one[0, 0] == pytest.approx(2.0, rel=1e-9)
    with pytest.raises(ValueError, match=r"^t:"):
        aq.nuclear_norm_fista(ops, t[:-1], d)


def test_recover_low_rank_measurements_and_counts() -> None:
    rng = np.random.default_rng(9)
    d, r = 6, 1
    W = np.outer(rng.standard_normal(d), rng.standard_normal(d))
    v = rng.standard_normal(d)
    oracle = aq.AttentionOracle(W, v)
    rec = aq.recover_low_rank(oracle, r, rng=np.random.default_rng(10), c_m=4.1)
    m = math.ceil(4.1 * r * d)  # 24.6 -> 25 < d^2: the ADMM path
    assert rec.measurements.shape == (m,)
    assert rec.a.shape == (m, d)
    assert rec.b.shape == (m, d)
    np.testing.assert_allclose(
        rec.measurements, np.einsum("ki,ij,kj->k", rec.a, W, rec.b), rtol=1e-7, atol=1e-9
    )
    assert rec.queries == d + m + rec.resamples == oracle.queries
    np.testing.assert_allclose(rec.W, W, atol=1e-6)
    np.testing.assert_allclose(rec.v, v, atol=1e-12)
    assert rec.converged
    assert rec.residual <= 1e-9
    assert rec.duality_gap <= 1e-6
    assert rec.iterations >= 1
    assert rec.fixed_point_residual <= 1e-9
    # every kept left probe is far from orthogonal to v̂, as documented
    dots = np.abs(rec.a @ v) / (np.linalg.norm(rec.a, axis=1) * np.linalg.norm(v))
    assert np.all(dots >= 1e-3)
    # the left probes have scale s_a: their entries' spread is about s_a
    wide = aq.recover_low_rank(
        aq.AttentionOracle(W * 0.01, v), 1, 60, rng=np.random.default_rng(11), s_a=0.05
    )
    assert wide.resamples == 0
    assert float(np.std(wide.a)) == pytest.approx(0.05, rel=0.2)
    assert float(np.std(wide.b)) == pytest.approx(1.0, rel=0.2)
    # saturated probes are halved (one query each) and the measurements stay exact
    hot = aq.AttentionOracle(W * 200.0, v)
    sat = aq.recover_low_rank(hot, 1, 12, rng=np.random.default_rng(12), s_a=1.0)
    assert sat.resamples > 0
    assert sat.queries == hot.queries == d + 12 + sat.resamples
    np.testing.assert_allclose(
        sat.measurements, np.einsum("ki,ij,kj->k", sat.a, W * 200.0, sat.b), rtol=1e-5
    )
    assert np.all(np.abs(sat.measurements) < math.log((1 - 1e-6) / 1e-6))
    # the solver's knobs reach the solver
    capped = aq.recover_low_rank(
        aq.AttentionOracle(W, v), 1, 25, rng=np.random.default_rng(10), max_iter=2
    )
    assert capped.iterations == 2
    assert not capped.converged
    loose = aq.recover_low_rank(
        aq.AttentionOracle(W, v), 1, 25, rng=np.random.default_rng(10), solver_tol=1e-3
    )
    assert loose.converged
    assert loose.iterations < rec.iterations
    with pytest.raises(aq.NotIdentifiableError):
        aq.recover_low_rank(aq.AttentionOracle(W, np.full(d, 1e-9)), 1, 12, rng=rng, tol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        aq.recover_low_rank(
            aq.AttentionOracle(W, v), 1, 12, rng=np.random.default_rng(1), max_iter=5
        )  # m = 2rd
    with pytest.warns(aq.RecoveryNotGuaranteedWarning):
        aq.recover_low_rank(
            aq.AttentionOracle(W, v), 1, 11, rng=np.random.default_rng(1), max_iter=5
        )
    for kwargs, name in (
        ({"r": 0}, "r"),
        ({"r": 7}, "r"),
        ({"r": 1, "m": 0}, "m"),
        ({"r": 1, "c_m": 0.0}, "c_m"),
        ({"r": 1, "s_a": 0.0}, "s_a"),
        ({"r": 1, "max_iter": 0}, "max_iter"),
        ({"r": 1, "solver_tol": 0.0}, "solver_tol"),
        ({"r": 1, "tol": 0.0}, "tol"),
    ):
        with pytest.raises(ValueError, match=f"^{name}:"):
            aq.recover_low_rank(aq.AttentionOracle(W, v), rng=rng, **kwargs)


# ---------------------------------------------------------------- Algorithm C


def test_noisy_bounds_formula_and_clipping() -> None:
    for d, tau, wb, mu in ((1, 0.1, 1.0, 1.0), (3, 0.01, 2.5, 0.4), (7, 0.19, 0.3, 0.5)):
        ev, ew = aq.noisy_error_bounds(d, tau, wb, mu)
        assert ev == pytest.approx(math.sqrt(d) * tau, rel=1e-14)
        assert ew == pytest.approx(10 * d * wb * (1.5 * wb + 1) * tau / (mu - tau), rel=1e-14)
    assert aq.noisy_error_bounds(2, 0.0, 1.0, 1.0) == (0.0, 0.0)
    for args, name in (
        ((0, 0.1, 1.0, 1.0), "d"),
        ((1, -0.1, 1.0, 1.0), "tau"),
        ((1, 0.1, 0.0, 1.0), "w_bound"),
        ((1, 0.1, 1.0, 0.0), "mu"),
        ((1, 0.5, 1.0, 1.0), "tau"),
    ):
        with pytest.raises(ValueError, match=f"^{name}:"):
            aq.noisy_error_bounds(*args)
    aq.noisy_error_bounds(1, 0.4999, 1.0, 1.0)
    # W at the bound: a b W_ij = 1/2 exactly; adversarial noise pushes α past sig(1/2),
    # and the clip keeps every |Ŵ_ij| <= 1/(2ab) = Wb
    W = np.array([[2.0, 0.0], [0.0, -2.0]]) / math.sqrt(2.0)
    v = np.array([1.0, -1.0])
    wb = float(np.linalg.norm(W))
    for noise in ("adversarial", [-1.0, 1.0, -1.0, 1.0, 1.0, -1.0]):
        oracle = aq.AttentionOracle(W, v, tau=0.05, noise=noise)
        rec = aq.recover_noisy(oracle, 0.05, w_bound=wb, mu=0.5)
        assert rec.queries == 6 == oracle.queries
        assert np.max(np.abs(rec.W)) <= wb * (1 + 1e-12)
        assert np.max(np.abs(rec.W - W)) <= aq.noisy_error_bounds(2, 0.05, wb, 0.5)[1]
    # exact answers, small W: the entries come back to rounding
    W = np.array([[0.3, -0.7, 0.1], [0.2, 0.0, -0.4], [0.5, 0.25, -0.1]])
    v = np.array([0.9, -1.2, 0.6])
    rec = aq.recover_noisy(aq.AttentionOracle(W, v), 0.0, w_bound=2.0, mu=0.5)
    np.testing.assert_allclose(rec.W, W, atol=1e-10)
    np.testing.assert_allclose(rec.v, v, atol=1e-14)
    assert rec.queries == 12
    assert rec.resamples == 0
    # the margin test uses mu - tau: |v_i| = 0.46 passes with tau = 0.05, mu = 0.5
    ok = aq.recover_noisy(
        aq.AttentionOracle(W, np.array([0.46, 1.0, -1.0])), 0.05, w_bound=2.0, mu=0.5
    )
    assert ok.queries == 12
    with pytest.raises(ValueError, match=r"^mu:"):
        aq.recover_noisy(
            aq.AttentionOracle(W, np.array([0.44, 1.0, -1.0])), 0.05, w_bound=2.0, mu=0.5
        )


# ---------------------------------------------------------------- Algorithm D, Prop 7.1, baseline


def test_one_layer_recovery_counts_and_learner() -> None:
    rng = np.random.default_rng(13)
    d, k = 3, 5
    W, V, A, wo = (rng.standard_normal(s) * 0.5 for s in ((d, d), (d, d), (k, d), (k,)))
    calls = 0

    def transformer(X: Array) -> float:
        nonlocal calls
        calls += 1
        return aq.one_layer_output(X, W, V, A, wo)

    seen: list[tuple[float, int]] = []

    def learner(single: object, width: int) -> str:
        assert callable(single)
        x = np.array([0.3, -0.2, 0.5])
        seen.append((float(single(x)), width))
        return "ffn"

    rec, out = aq.recover_one_layer(transformer, d=d, ffn_learner=learner)
    np.testing.assert_allclose(rec.W, W, atol=1e-8)
    np.testing.assert_allclose(rec.v, V.T @ A.T @ wo, atol=1e-10)
    assert rec.queries == 2 * (d * d + d)
    assert out == "ffn"
    x = np.array([0.3, -0.2, 0.5])
    assert len(seen) == 1
    assert seen[0][0] == pytest.approx(float(wo @ np.maximum(A @ (V @ x), 0.0)), rel=1e-12)
    assert seen[0][1] == d
    assert calls == 2 * (d * d + d) + 1
    _, none = aq.recover_one_layer(transformer, d=d)
    assert none is None
    wide, _ = aq.recover_one_layer(
        lambda X: aq.one_layer_output(X, W * 30, V, A, wo), d=d, scale=1.0
    )
    assert wide.resamples > 0
    assert wide.queries == 2 * (d * d + d + wide.resamples)


def test_witnesses_are_the_documented_pairs() -> None:
    W, v = np.array([[1.0, 2.0], [0.5, -1.0]]), np.array([0.3, -0.7])
    c, W2 = np.array([0.1, 0.4]), np.array([[0.0, 1.0], [1.0, 0.0]])
    pairs = aq.multihead_witnesses(W, v, shift=c, other_W=W2)
    kinds = {kind: (first, second) for kind, first, second in pairs}
    zero = np.zeros(2)
    want = {
        "shared_scores": (([W, W], [v, v]), ([W, W], [v + c, v - c])),
        "zero_value": (([W, W], [v, zero]), ([W, W2], [v, zero])),
        "permuted_heads": (([W, W2], [v, c]), ([W2, W], [c, v])),
    }
    assert list(kinds) == list(want)
    for kind, (first, second) in want.items():
        for got, (ws, vs) in zip(kinds[kind], (first, second), strict=True):
            np.testing.assert_array_equal(got.Ws, np.stack(ws))
            np.testing.assert_array_equal(got.vs, np.stack(vs))
    with pytest.raises(ValueError, match=r"^shift:"):
        aq.multihead_witnesses(W, v, shift=np.zeros(2), other_W=W2)
    aq.multihead_witnesses(W, v, shift=np.array([0.0, 1e-300]), other_W=W2)  # one non-zero entry
    with pytest.raises(ValueError, match=r"^other_W:"):
        aq.multihead_witnesses(W, v, shift=c, other_W=W.copy())
    with pytest.raises(ValueError, match=r"^shift:"):
        aq.multihead_witnesses(W, v, shift=np.ones(3), other_W=W2)
    with pytest.raises(ValueError, match=r"^other_W:"):
        aq.multihead_witnesses(W, v, shift=c, other_W=np.ones((3, 3)))


def test_passive_fit_reports_its_own_loss_and_optimality() -> None:
    rng = np.random.default_rng(14)
    W, v = rng.standard_normal((2, 2)) * 0.5, rng.standard_normal(2)
    oracle = aq.AttentionOracle(W, v)
    fit = aq.passive_fit(
        oracle, 25, rng=np.random.default_rng(15), max_len=3, max_iter=200, tol=1e-3
    )
    assert fit.queries == 25 == oracle.queries == len(fit.sequences)
    assert {s.shape[0] for s in fit.sequences} == {1, 2, 3}
    truth = np.array([_output(s, W, v) for s in fit.sequences])

    def loss(theta: Array) -> float:
        Wt, vt = theta[:4].reshape(2, 2), theta[4:]
        return float(
            np.mean(
                [(_output(s, Wt, vt) - y) ** 2 for s, y in zip(fit.sequences, truth, strict=True)]
            )
        )

    theta = np.concatenate([np.asarray(fit.W).ravel(), fit.v])
    assert fit.loss == pytest.approx(loss(theta), rel=1e-9, abs=1e-15)
    h = 1e-5
    grad = [(loss(theta + h * e) - loss(theta - h * e)) / (2 * h) for e in np.eye(6)]
    assert fit.optimality == pytest.approx(max(abs(g) for g in grad), rel=1e-3, abs=1e-8)
    assert fit.converged == (fit.optimality <= 1e-3)
    assert 1 <= fit.iterations <= 200
    assert fit.loss < loss(np.zeros(6))  # the fit improved on the trivial start
    strict = aq.passive_fit(
        aq.AttentionOracle(W, v),
        25,
        rng=np.random.default_rng(15),
        max_len=3,
        max_iter=200,
        tol=1e-30,
    )
    assert not strict.converged
    capped = aq.passive_fit(aq.AttentionOracle(W, v), 25, rng=np.random.default_rng(15), max_iter=1)
    assert capped.iterations == 1
    ones = aq.passive_fit(
        aq.AttentionOracle(W, v), 6, rng=np.random.default_rng(15), max_len=1, max_iter=5
    )
    assert {s.shape for s in ones.sequences} == {(1, 2)}
    for kwargs, name in (
        ({"queries": 0}, "queries"),
        ({"queries": 5, "max_len": 0}, "max_len"),
        ({"queries": 5, "max_iter": 0}, "max_iter"),
        ({"queries": 5, "tol": 0.0}, "tol"),
    ):
        with pytest.raises(ValueError, match=f"^{name}:"):
            aq.passive_fit(aq.AttentionOracle(W, v), rng=rng, **kwargs)


def _bad_inputs() -> list[tuple[str, object]]:
    eye, v2 = np.eye(2), np.ones(2)
    X = np.ones((3, 2))
    oracle = aq.AttentionOracle(eye, v2)
    rng = np.random.default_rng(0)
    a, b = np.ones((4, 2)), np.ones((4, 3))
    return [
        ("W", lambda: aq.attention_weights(X, v2)),
        ("W", lambda: aq.attention_weights(X, np.ones((2, 3)))),
        ("X", lambda: aq.attention_weights(np.ones(2), eye)),
        ("X", lambda: aq.attention_weights(np.ones((3, 3)), eye)),
        ("W", lambda: aq.attention_output(X, v2, v2)),
        ("X", lambda: aq.attention_output(np.ones((3, 3)), eye, v2)),
        ("v", lambda: aq.attention_output(X, eye, np.ones(3))),
        ("Ws", lambda: aq.multihead_output(X, eye, v2[None])),
        ("Ws", lambda: aq.multihead_output(X, np.ones((1, 2, 3)), v2[None])),
        ("vs", lambda: aq.multihead_output(X, eye[None], np.ones((2, 2)))),
        ("X", lambda: aq.multihead_output(np.ones((3, 3)), eye[None], v2[None])),
        ("W", lambda: aq.one_layer_output(X, v2, eye, eye, v2)),
        ("W", lambda: aq.one_layer_output(X, np.ones((2, 3)), eye, eye, v2)),
        ("V", lambda: aq.one_layer_output(X, eye, np.ones((2, 3)), eye, v2)),
        ("A", lambda: aq.one_layer_output(X, eye, eye, np.ones((2, 3)), v2)),
        ("w_o", lambda: aq.one_layer_output(X, eye, eye, eye, np.ones(3))),
        ("X", lambda: aq.one_layer_output(np.ones((3, 3)), eye, eye, eye, v2)),
        ("W", lambda: aq.AttentionOracle(np.ones((2, 3)), v2)),
        ("v", lambda: aq.AttentionOracle(eye, np.ones(3))),
        ("tau", lambda: aq.AttentionOracle(eye, v2, tau=-0.1)),
        ("rng", lambda: aq.AttentionOracle(eye, v2, tau=0.1, noise="uniform")),
        ("scale", lambda: aq.recover_exact(oracle, scale=-1.0)),
        ("tol", lambda: aq.recover_exact(oracle, tol=-1.0)),
        ("max_resample", lambda: aq.recover_exact(oracle, max_resample=-1)),
        ("r", lambda: aq.recover_low_rank(oracle, 3, rng=rng)),
        ("a", lambda: aq.nuclear_norm_admm(np.ones(4), b, np.ones(4))),
        ("b", lambda: aq.nuclear_norm_admm(a, np.ones(4), np.ones(4))),
        ("b", lambda: aq.nuclear_norm_admm(a, np.ones((3, 3)), np.ones(4))),
        ("t", lambda: aq.nuclear_norm_admm(a, b, np.ones(3))),
        ("max_iter", lambda: aq.nuclear_norm_admm(a, b, np.ones(4), max_iter=0)),
        ("tol", lambda: aq.nuclear_norm_admm(a, b, np.ones(4), tol=-1.0)),
        ("ops", lambda: aq.nuclear_norm_fista(np.ones((4, 3)), np.ones(4), 2)),
        ("max_iter", lambda: aq.nuclear_norm_fista(np.ones((4, 4)), np.ones(4), 2, max_iter=0)),
        ("tol", lambda: aq.nuclear_norm_fista(np.ones((4, 4)), np.ones(4), 2, tol=0.0)),
        ("w_bound", lambda: aq.recover_noisy(oracle, 0.0, w_bound=0.0, mu=0.5)),
        ("mu", lambda: aq.recover_noisy(oracle, 0.0, w_bound=1.0, mu=0.0)),
        ("tau", lambda: aq.recover_noisy(oracle, -0.1, w_bound=1.0, mu=0.5)),
        ("W", lambda: aq.multihead_witnesses(v2, v2, shift=v2, other_W=eye)),
        ("v", lambda: aq.multihead_witnesses(eye, np.ones(3), shift=v2, other_W=2 * eye)),
        ("shift", lambda: aq.multihead_witnesses(eye, v2, shift=np.ones(3), other_W=2 * eye)),
        ("other_W", lambda: aq.multihead_witnesses(eye, v2, shift=v2, other_W=np.ones((2, 3)))),
        ("queries", lambda: aq.passive_fit(oracle, 0, rng=rng)),
        ("max_len", lambda: aq.passive_fit(oracle, 2, rng=rng, max_len=0)),
        ("max_iter", lambda: aq.passive_fit(oracle, 2, rng=rng, max_iter=0)),
        ("tol", lambda: aq.passive_fit(oracle, 2, rng=rng, tol=-1.0)),
    ]


@pytest.mark.parametrize("case", range(len(_bad_inputs())))
def test_bad_input_is_a_value_error_that_names_the_argument(case: int) -> None:
    name, call = _bad_inputs()[case]
    assert callable(call)
    with pytest.raises(ValueError, match=f"^{name}:"):
        call()


def test_smallest_allowed_values_are_accepted() -> None:
    W, v = np.array([[0.4, -0.3], [0.2, 0.1]]), np.array([1.0, -0.5])
    exact = aq.recover_exact(aq.AttentionOracle(W, v), max_resample=0)
    np.testing.assert_allclose(exact.W, W, atol=1e-9)
    one = aq.nuclear_norm_admm(np.ones((1, 1)), np.ones((1, 1)), np.array([3.0]), max_iter=1)
    np.testing.assert_allclose(one.W, [[3.0]], rtol=1e-12)  # determined 1 x 1
    w_fista, its, _ = aq.nuclear_norm_fista(np.ones((1, 1)), np.array([3.0]), 1, max_iter=1)
    assert its == 1
    assert w_fista.shape == (1, 1)
    fit = aq.passive_fit(
        aq.AttentionOracle(W, v), 1, rng=np.random.default_rng(0), max_len=1, max_iter=1
    )
    assert fit.queries == 1
    with pytest.warns(aq.RecoveryNotGuaranteedWarning):  # r = d and m = 1 are allowed
        low = aq.recover_low_rank(aq.AttentionOracle(W, v), 2, 1, rng=np.random.default_rng(0))
    assert low.measurements.shape == (1,)


def test_low_rank_defaults_warning_and_width() -> None:
    rng = np.random.default_rng(17)
    W = np.outer(rng.standard_normal(3), rng.standard_normal(3))
    v = rng.standard_normal(3) * 1e-3  # small but far above the default tol 1e-12
    rec = aq.recover_low_rank(aq.AttentionOracle(W, v), 2, rng=np.random.default_rng(18))
    assert rec.measurements.shape == (36,)  # default m = ceil(c_m r d) with c_m = 6
    np.testing.assert_allclose(rec.v, v, rtol=1e-12)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        aq.recover_low_rank(aq.AttentionOracle(W, v), 2, 11, rng=rng, max_iter=3)
    assert len(caught) == 1
    assert issubclass(caught[0].category, aq.RecoveryNotGuaranteedWarning)
    assert "m = 11 < 2 r d = 12" in str(caught[0].message)
    assert not caught[0].filename.endswith("attention_queries.py")  # stacklevel: the caller
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        aq.recover_low_rank(aq.AttentionOracle(W, v), 2, 12, rng=rng, max_iter=3)

    def plain(X: Array) -> float:
        return _output(np.asarray(X), W, v)

    low = aq.recover_low_rank(plain, 1, 9, rng=np.random.default_rng(19), d=3)
    assert low.queries == 3 + 9 + low.resamples
    with pytest.raises(ValueError, match=r"^r:"):
        aq.recover_low_rank(aq.AttentionOracle(W, v), 0, rng=rng)
    with pytest.raises(ValueError, match=r"^max_iter:"):
        aq.recover_low_rank(aq.AttentionOracle(W, v), 1, 9, rng=rng, max_iter=0)
    one = aq.recover_low_rank(aq.AttentionOracle(W, v), 1, 8, rng=rng, max_iter=1)
    assert one.iterations == 1


def test_default_probe_scale_keeps_sigmoids_unsaturated() -> None:
    # ||w_j|| = 20: the default scale 0.3 keeps |u_iᵀ w_j| <= 6 < logit(1 - 1e-6) = 13.8
    W = np.array([[20.0, 0.0], [0.0, -20.0]])
    v = np.array([1.0, 0.5])
    exact = aq.recover_exact(aq.AttentionOracle(W, v))
    assert exact.resamples == 0
    assert exact.queries == 6
    rec, _ = aq.recover_one_layer(lambda X: aq.one_layer_output(X, W, np.eye(2), np.eye(2), v), d=2)
    assert rec.resamples == 0
    assert rec.queries == 12
    np.testing.assert_allclose(rec.W, W, rtol=1e-6, atol=1e-9)


class _Script:
    """A stand-in generator that hands out given draws in order (checking the requested size)."""

    def __init__(self, draws: list[list[float]]) -> None:
        self.draws = [np.array(d, dtype=np.float64) for d in draws]

    def standard_normal(self, size: int) -> Array:
        out = self.draws.pop(0)
        assert size == out.size
        return out


def test_left_probes_nearly_orthogonal_to_v_are_redrawn() -> None:
    v = np.array([10.0, 0.0])  # ||v̂|| = 10: the rule scales with both norms
    W = np.array([[0.3, 0.0], [0.0, 0.0]])
    bad1, bad2 = [5e-4 * 3.0, 3.0], [-4e-4 * 0.5, 0.5]  # |cos(a, v̂)| = 5e-4 and 4e-4: redrawn
    good = [[2e-3 * 4.0, 4.0], [1.0, 1.0], [-1.0, 2.0]]  # cos 2e-3 > 1e-3: kept
    bs = [[0.5, -1.0], [1.0, 0.3], [-0.7, 0.2]]
    script = _Script([bad1, bad2, good[0], bs[0], good[1], bs[1], good[2], bs[2]])
    oracle = aq.AttentionOracle(W, v)
    with pytest.warns(aq.RecoveryNotGuaranteedWarning):
        rec = aq.recover_low_rank(oracle, 1, 3, rng=script, s_a=0.2)  # type: ignore[arg-type]
    assert not script.draws
    assert rec.resamples == 2
    assert rec.queries == 2 + 3 == oracle.queries
    np.testing.assert_allclose(rec.a, 0.2 * np.array(good), rtol=1e-15)
    np.testing.assert_allclose(rec.b, bs, rtol=1e-15)
    np.testing.assert_allclose(
        rec.measurements, np.einsum("ki,ij,kj->k", rec.a, W, rec.b), atol=1e-12
    )


def _saturating_oracle(alpha: float) -> aq.AttentionOracle:
    """v = e_1; a two-token query answers b·v + alpha a·v, whatever the probe."""

    def model(X: Array, W: Array, v: Array) -> float:
        if X.shape[0] == 1:
            return float(X[0] @ v)
        a, b = X[0] - X[1], X[1]
        return float(b @ v + alpha * (a @ v))

    return aq.AttentionOracle(np.zeros((2, 2)), np.array([1.0, 0.0]), model=model)


@pytest.mark.parametrize("alpha", [0.0, 1e-6, 1.0 - 1e-6, 1.0])
def test_a_probe_saturated_at_or_beyond_the_band_is_halved_60_times_then_refused(
    alpha: float,
) -> None:
    oracle = _saturating_oracle(alpha)
    script = _Script([[1.0, 0.0], [0.0, 1.0]])  # a·v = 1, b·v = 0: α is the answer itself
    with pytest.warns(aq.RecoveryNotGuaranteedWarning), pytest.raises(ValueError, match=r"^s_a:"):
        aq.recover_low_rank(oracle, 1, 1, rng=script, s_a=1.0)  # type: ignore[arg-type]
    assert oracle.queries == 2 + 61  # v̂, then the probe and its 60 halvings


def test_halving_divides_the_probe_and_the_later_scale_by_two() -> None:
    answers = iter([0.0, 0.3, 0.3])  # the first probe saturates once, then all are inside

    def model(X: Array, W: Array, v: Array) -> float:
        if X.shape[0] == 1:
            return float(X[0] @ v)
        a, b = X[0] - X[1], X[1]
        return float(b @ v + next(answers) * (a @ v))

    oracle = aq.AttentionOracle(np.zeros((2, 2)), np.array([1.0, 0.0]), model=model)
    script = _Script([[1.0, 0.5], [0.0, 1.0], [2.0, 1.0], [1.0, 1.0]])
    with pytest.warns(aq.RecoveryNotGuaranteedWarning):
        rec = aq.recover_low_rank(oracle, 1, 2, rng=script, s_a=0.8, max_iter=2)  # type: ignore[arg-type]
    assert rec.resamples == 1
    np.testing.assert_allclose(rec.a, [[0.4, 0.2], [0.8, 0.4]], rtol=1e-15)  # 0.8/2 for both
    np.testing.assert_allclose(rec.measurements, math.log(0.3 / 0.7), rtol=1e-12)


def test_noisy_margin_boundary_and_width_argument() -> None:
    W = np.array([[0.2, -0.1], [0.05, 0.3]])
    v = np.array([0.5, 1.0])  # min |v_i| = mu - tau exactly (0.75 - 0.25): allowed
    rec = aq.recover_noisy(aq.AttentionOracle(W, v), 0.25, w_bound=1.0, mu=0.75)
    assert rec.queries == 6
    np.testing.assert_allclose(rec.W, W, atol=1e-10)

    def plain(X: Array) -> float:
        return _output(np.asarray(X), W, v)

    again = aq.recover_noisy(plain, 0.0, w_bound=1.0, mu=0.5, d=2)
    np.testing.assert_allclose(again.W, W, atol=1e-10)
    with pytest.raises(ValueError, match=r"^W:"):
        aq.one_layer_output(np.ones((2, 2)), 5.0, np.eye(2), np.eye(2), np.ones(2))


def test_determined_path_fields_and_a_relative_gap_at_large_scale() -> None:
    rng = np.random.default_rng(20)
    a, b = rng.standard_normal((10, 3)), rng.standard_normal((10, 3))
    ops = _ops(a, b)
    w = 1e8 * rng.standard_normal((3, 3))
    res = aq.nuclear_norm_admm(a, b, ops @ w.ravel())
    assert res.iterations == 0
    assert res.U.shape == (3, 3)
    assert not np.any(res.U)
    np.testing.assert_allclose(res.W, w, rtol=1e-6)
    assert abs(res.duality_gap) <= 1e-12  # relative: ||W||_* = 1e8-ish does not show


def test_passive_fit_defaults_and_width() -> None:
    W, v = np.array([[0.3, -0.2], [0.1, 0.2]]), np.array([1.0, -0.5])
    fit = aq.passive_fit(aq.AttentionOracle(W, v), 40, rng=np.random.default_rng(21))
    assert {s.shape[0] for s in fit.sequences} == {1, 2, 3, 4}  # default max_len = 4
    assert fit.converged == (fit.optimality <= 1e-4)  # default tol
    assert fit.iterations <= 500

    def plain(X: Array) -> float:
        return _output(np.asarray(X), W, v)

    small = aq.passive_fit(plain, 3, rng=np.random.default_rng(22), d=2, max_iter=3)
    assert small.queries == 3
    assert small.W.shape == (2, 2)


def _svt(matrix: Array, threshold: float) -> Array:
    u, s, vt = np.linalg.svd(matrix, full_matrices=False)
    out: Array = (u * np.maximum(s - threshold, 0.0)) @ vt
    return out


def test_admm_iterates_follow_the_documented_splitting() -> None:
    """X <- P(Z - U), Z <- SVT_{1/rho}(X + U), U <- U + X - Z from Z = P(0), U = 0,
    rho = 1/||Z||_2, rebalanced every 10 steps; P through numpy's pseudo-inverse."""
    rng = np.random.default_rng(23)
    d1, d2, m = 4, 3, 7
    a, b = rng.standard_normal((m, d1)), rng.standard_normal((m, d2))
    ops = _ops(a, b)
    t = ops @ np.outer(rng.standard_normal(d1), rng.standard_normal(d2)).ravel()
    pinv = np.linalg.pinv(ops)

    def project(y: Array) -> Array:
        out: Array = (y.ravel() - pinv @ (ops @ y.ravel() - t)).reshape(d1, d2)
        return out

    scale = float(np.abs(project(np.zeros((d1, d2)))).max())
    for iters in (1, 2, 10, 11, 23, 40):
        z = project(np.zeros((d1, d2)))
        u = np.zeros((d1, d2))
        rho = 1.0 / float(np.linalg.norm(z, 2))
        x = z_prev = z
        primal = dual = math.inf
        for it in range(1, iters + 1):
            z_prev = z
            x = project(z - u)
            z_next = _svt(x + u, 1.0 / rho)
            u = u + x - z_next
            primal = float(
                np.linalg.norm(x - z_next) / max(np.linalg.norm(x), np.linalg.norm(z_next))
            )
            dual = float(np.linalg.norm(z_next - z) / np.linalg.norm(u))
            z = z_next
            if it % 10 == 0 and it < iters:
                if primal > 10 * dual:
                    rho, u = 2 * rho, u / 2
                elif dual > 10 * primal:
                    rho, u = rho / 2, 2 * u
        res = aq.nuclear_norm_admm(a, b, t, max_iter=iters)
        assert res.iterations == iters
        for got, want in ((res.W, z), (res.X, x), (res.previous_iterate, z_prev), (res.U, u)):
            np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-9 * scale)
        if iters > 1:  # at one step U is rounding noise and so is the dual residual
            assert res.fixed_point_residual == pytest.approx(max(primal, dual), rel=1e-6)
        assert res.residual == pytest.approx(
            np.linalg.norm(ops @ z.ravel() - t) / np.linalg.norm(t), rel=1e-6, abs=1e-14
        )


def test_square_injective_system_is_solved_directly() -> None:
    rng = np.random.default_rng(24)
    a, b = rng.standard_normal((6, 3)), rng.standard_normal((6, 2))  # m = d1 d2 = 6
    ops = _ops(a, b)
    w = rng.standard_normal((3, 2))
    res = aq.nuclear_norm_admm(a, b, ops @ w.ravel())
    assert res.iterations == 0
    assert res.converged
    np.testing.assert_allclose(res.W, w, rtol=1e-9, atol=1e-12)
