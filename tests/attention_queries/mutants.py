"""Hand-made broken attention heads and learners: the attention_queries suites reject each."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import logit

from reference import attention_queries as aq
from reference._arrays import FloatArray

# ----------------------------------------------------------------------------- model mutants


def model_no_max_subtraction(X: Any, W: Any, v: Any) -> float:
    """Mutant: softmax without subtracting the maximum score (overflows for large scores)."""
    X, W, v = (np.asarray(a, dtype=np.float64) for a in (X, W, v))
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(X @ (W @ X[-1]))
        return float(e @ (X @ v) / e.sum())


def model_query_excluded(X: Any, W: Any, v: Any) -> float:
    """Mutant: the query token does not attend to itself (weights over rows 1..N-1 only)."""
    X = np.asarray(X, dtype=np.float64)
    if X.shape[0] == 1:
        return float(X[0] @ np.asarray(v))
    ctx = X[:-1]
    s = ctx @ (np.asarray(W) @ X[-1])
    e = np.exp(s - s.max())
    return float(e @ (ctx @ np.asarray(v)) / e.sum())


def model_transposed_scores(X: Any, W: Any, v: Any) -> float:
    """Mutant: scores ``x_Nᵀ W x_i`` (i.e. ``Wᵀ``)."""
    return aq.attention_output(X, np.asarray(W).T, v)


def model_first_token_query(X: Any, W: Any, v: Any) -> float:
    """Mutant: uses the first row as the query token."""
    X = np.asarray(X, dtype=np.float64)
    s = X @ (np.asarray(W) @ X[0])
    e = np.exp(s - s.max())
    return float(e @ (X @ np.asarray(v)) / e.sum())


def model_abs_values(X: Any, W: Any, v: Any) -> float:
    """Mutant: averages ``|vᵀx_i|`` instead of ``vᵀx_i``."""
    X = np.asarray(X, dtype=np.float64)
    weights = aq.attention_weights(X, W)
    return float(weights @ np.abs(X @ np.asarray(v)))


def model_diagonal_scores(X: Any, W: Any, v: Any) -> float:
    """Mutant: keeps only the diagonal of ``W`` in the scores (basis dependent)."""
    return aq.attention_output(X, np.diag(np.diag(np.asarray(W, dtype=np.float64))), v)


# ----------------------------------------------------------------------------- learner mutants


def learner_diagonal(oracle: Any) -> tuple[FloatArray, FloatArray]:
    """Mutant: assumes a diagonal ``W`` (one probe per column: ``W_jj`` only)."""
    d = oracle.d
    eye = np.eye(d)
    v = np.array([oracle(eye[i][None]) for i in range(d)])
    if np.linalg.norm(v) == 0:
        raise ValueError("v = 0")
    w = np.zeros((d, d))
    for j in range(d):
        u = 0.3 * eye[j] if v[j] != 0 else 0.3 * np.ones(d)
        y = oracle(np.stack([u + eye[j], eye[j]]))
        alpha = (y - v[j]) / float(u @ v)
        w[j, j] = float(logit(alpha)) / 0.3
    return w, v


def learner_no_logit(oracle: Any) -> tuple[FloatArray, FloatArray]:
    """Mutant: solves ``U w_j = α - 1/2`` (a linearised sigmoid) instead of ``logit(α)``."""
    d = oracle.d
    eye = np.eye(d)
    v = np.array([oracle(eye[i][None]) for i in range(d)])
    if np.linalg.norm(v) == 0:
        raise ValueError("v = 0")
    base = aq._householder_probes(v)
    w = np.zeros((d, d))
    for j in range(d):
        U = 0.3 * base
        t = np.array(
            [(oracle(np.stack([U[i] + eye[j], eye[j]])) - v[j]) / (U[i] @ v) for i in range(d)]
        )
        w[:, j] = np.linalg.solve(U, 4.0 * (t - 0.5))
    return w, v


def learner_transposed(oracle: Any) -> tuple[FloatArray, FloatArray]:
    """Mutant: returns ``Wᵀ`` (row/column mix-up)."""
    rec = aq.recover_exact(oracle)
    return np.array(rec.W).T, np.array(rec.v)


def learner_no_zero_check(oracle: Any) -> tuple[FloatArray, FloatArray]:
    """Mutant: never checks ``v = 0``; returns zeros for W instead of raising."""
    d = oracle.d
    eye = np.eye(d)
    v = np.array([oracle(eye[i][None]) for i in range(d)])
    if np.linalg.norm(v) == 0:
        return np.zeros((d, d)), v
    rec = aq.recover_exact(oracle)
    return np.array(rec.W), np.array(rec.v)


def learner_wasteful(oracle: Any) -> tuple[FloatArray, FloatArray]:
    """Mutant: correct answer but queries every single-token probe twice."""
    for i in range(oracle.d):
        oracle(np.eye(oracle.d)[i][None])
    rec = aq.recover_exact(oracle)
    return np.array(rec.W), np.array(rec.v)


# ----------------------------------------------------------------------------- noisy mutants


def noisy_unscaled(
    oracle: Any, tau: float, w_bound: float, mu: float
) -> tuple[FloatArray, FloatArray]:
    """Mutant: forgets to divide the logit by ``a b``."""
    rec = aq.recover_noisy(oracle, tau, w_bound=w_bound, mu=mu)
    return np.array(rec.W) * 0.5 / w_bound, np.array(rec.v)


def noisy_transposed(
    oracle: Any, tau: float, w_bound: float, mu: float
) -> tuple[FloatArray, FloatArray]:
    """Mutant: swaps ``i`` and ``j``."""
    rec = aq.recover_noisy(oracle, tau, w_bound=w_bound, mu=mu)
    return np.array(rec.W).T, np.array(rec.v)


def noisy_big_probe(
    oracle: Any, tau: float, w_bound: float, mu: float
) -> tuple[FloatArray, FloatArray]:
    """Mutant: probe ``b = 1`` instead of ``1/Wb`` without the matching bound (then rescales)."""
    d = oracle.d
    eye = np.eye(d)
    v = np.array([oracle(eye[i][None]) for i in range(d)])
    a, b = 0.5, 1.0
    w = np.zeros((d, d))
    for i in range(d):
        for j in range(d):
            y = oracle(np.stack([b * eye[i] + a * eye[j], a * eye[j]]))
            alpha = min(max((y - a * v[j]) / (b * v[i]), 0.3775), 0.6225)
            w[i, j] = float(logit(alpha)) / (a * b)
    return w, v


# ----------------------------------------------------------------------------- nuclear-norm mutants


def _ops(a: Any, b: Any) -> FloatArray:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    out: FloatArray = np.einsum("ki,kj->kij", a, b).reshape(a.shape[0], -1)
    return out


def nn_min_frobenius(a: Any, b: Any, t: Any) -> FloatArray:
    """Mutant: the minimum-Frobenius-norm solution (feasible, but not nuclear-norm minimal)."""
    a, b = np.asarray(a), np.asarray(b)
    sol: FloatArray = np.linalg.pinv(_ops(a, b)) @ np.asarray(t)
    return sol.reshape(a.shape[1], b.shape[1])


def nn_rank_one(a: Any, b: Any, t: Any) -> FloatArray:
    """Mutant: best rank-one approximation of the minimum-Frobenius solution (infeasible)."""
    u, s, vt = np.linalg.svd(nn_min_frobenius(a, b, t))
    out: FloatArray = s[0] * np.outer(u[:, 0], vt[0])
    return out


def nn_few_iterations(a: Any, b: Any, t: Any) -> FloatArray:
    """Mutant: the reference ADMM stopped after 2 iterations (its low-rank iterate)."""
    return np.array(aq.nuclear_norm_admm(a, b, t, max_iter=2).W)


def nn_penalized(a: Any, b: Any, t: Any) -> FloatArray:
    """Mutant: the penalised problem ``0.5 ||A(W) - t||^2 + 0.05 ||W||_*`` (no continuation)."""
    a, b, t = (np.asarray(x, dtype=np.float64) for x in (a, b, t))
    ops = _ops(a, b)
    step = 1.0 / max(float(np.linalg.norm(ops, 2)) ** 2, 1e-12)
    w = np.zeros(ops.shape[1])
    for _ in range(500):
        z = (w - step * ops.T @ (ops @ w - t)).reshape(a.shape[1], b.shape[1])
        u, s, vt = np.linalg.svd(z, full_matrices=False)
        w = ((u * np.maximum(s - 0.05 * step, 0.0)) @ vt).ravel()
    out: FloatArray = w.reshape(a.shape[1], b.shape[1])
    return out
