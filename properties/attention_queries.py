"""Conformance suites for single-head attention and its query learners (spec 17 §5).

Suites:

* ``attention_queries.model`` — an attention head ``fn(X, W, v) -> float``: softmax weights,
  stability up to scores ``±700`` (mpmath at 50 digits), length-1 output, permutation
  equivariance, duplicated tokens, sign symmetry, scaling, rotation covariance.
* ``attention_queries.learner`` — an exact learner ``fn(oracle) -> (W, v)`` run against a
  counting :class:`reference.attention_queries.AttentionOracle`: exact recovery (the answer is
  unique when ``v != 0``), query budget ``d^2 + d``, rotation covariance, reproduction of the
  oracle on fresh sequences, ``v = 0`` rejected.
* ``attention_queries.noisy_learner`` — ``fn(oracle, tau, w_bound, mu) -> (W, v)``: the explicit
  error bounds hold for every noise sequence Hypothesis draws in ``[-tau, tau]``, ``d^2 + d``
  queries, exactness at ``tau = 0``.
* ``attention_queries.nuclear_norm`` — ``fn(a, b, t) -> W`` minimising ``||W||_*`` subject to
  ``a_kᵀ W b_k = t_k`` (Algorithm B step 3): feasibility, no larger than a planted feasible
  matrix, optimal value against a dual lower bound (weak duality; the optimal value is unique
  even where the minimiser is not), least squares when ``m >= d1 d2``, row-scaling invariance.

A learner may return a pair ``(W, v)``, an object with ``W`` and ``v`` attributes or a mapping.
"""

from __future__ import annotations

import functools
import math
from typing import Protocol

import mpmath  # type: ignore[import-untyped]
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from properties._runner import (
    Capabilities,
    Suite,
    expect,
    expect_close,
    expect_le,
    expect_raises,
)
from properties._suite import check
from properties.adapters import adapt_output, array_pair, to_numpy, to_scalar
from properties.strategies import (
    float_arrays,
    nonzero_float_arrays,
    orthogonal_matrices,
    seeds,
    sign_arrays,
)
from reference import attention_queries as aq
from reference._arrays import FloatArray

__all__ = [
    "LEARNER",
    "MODEL",
    "NOISY_LEARNER",
    "NUCLEAR_NORM",
    "SUITES",
    "AttentionModel",
    "ExactLearner",
    "NoisyLearner",
    "NuclearNormSolver",
    "instances",
    "random_orthogonal",
    "rop_problems",
    "sequences",
]

_S17 = "Bhattamishra et al. (ICML 2026)"
MAX_D = 6


class AttentionModel(Protocol):
    """``(X (N, d), W (d, d), v (d,)) -> f(X)``."""

    def __call__(self, X: FloatArray, W: FloatArray, v: FloatArray, /) -> float:
        """Evaluate the head."""
        ...


class ExactLearner(Protocol):
    """``oracle -> (W, v)``; ``oracle(X)`` answers one query, ``oracle.d`` is the width."""

    def __call__(self, oracle: aq.AttentionOracle, /) -> tuple[FloatArray, FloatArray]:
        """Recover the head."""
        ...


class NoisyLearner(Protocol):
    """``(oracle, tau, w_bound, mu) -> (W, v)`` for a ``tau``-noisy oracle."""

    def __call__(
        self, oracle: aq.AttentionOracle, tau: float, w_bound: float, mu: float, /
    ) -> tuple[FloatArray, FloatArray]:
        """Recover the head approximately."""
        ...


# ----------------------------------------------------------------------------- strategies


@st.composite
def instances(
    draw: st.DrawFn, *, max_d: int = MAX_D, w_scale: float = 1.0
) -> tuple[FloatArray, FloatArray]:
    """``(W, v)``: entries of ``W`` in ``[-3, 3] w_scale``, ``||v|| >= 1`` by construction."""
    d = draw(st.integers(1, max_d), label="d")
    w = w_scale * draw(float_arrays((d, d), low=-3.0, high=3.0), label="W / w_scale")
    v = draw(nonzero_float_arrays(d), label="v (||v|| >= 1)")
    return w, v


def _rotations(d: int) -> st.SearchStrategy[FloatArray]:
    """Orthogonal ``(d, d)`` matrices with drawn column signs (reflections included)."""
    return st.tuples(orthogonal_matrices(d), sign_arrays(d)).map(lambda qs: qs[0] * qs[1])


@st.composite
def sequences(draw: st.DrawFn, d: int, *, max_len: int = 6, bound: float = 3.0) -> FloatArray:
    """A ``(N, d)`` sequence, ``1 <= N <= max_len``, entries in ``[-bound, bound]``."""
    n = draw(st.integers(1, max_len), label="N")
    out: FloatArray = draw(
        hnp.arrays(
            np.float64,
            (n, d),
            elements=st.floats(-bound, bound, allow_nan=False, allow_subnormal=False),
        ),
        label="X",
    )
    return out


def random_orthogonal(d: int, rng: np.random.Generator) -> FloatArray:
    """Haar-distributed orthogonal ``(d, d)`` matrix (QR of a Gaussian, signs fixed)."""
    q, r = np.linalg.qr(rng.standard_normal((d, d)))
    out: FloatArray = q * np.sign(np.diag(r))
    return out


def _mp_output(X: FloatArray, W: FloatArray, v: FloatArray) -> float:
    """50-digit mpmath evaluation of the head (independent oracle)."""
    with mpmath.workdps(50):
        rows = [[mpmath.mpf(float(t)) for t in row] for row in X]
        wm = [[mpmath.mpf(float(t)) for t in row] for row in W]
        vm = [mpmath.mpf(float(t)) for t in v]
        q = rows[-1]
        wq = [mpmath.fsum(wm[a][b] * q[b] for b in range(len(q))) for a in range(len(q))]
        scores = [mpmath.fsum(r[a] * wq[a] for a in range(len(q))) for r in rows]
        top = max(scores)
        e = [mpmath.exp(s - top) for s in scores]
        vals = [mpmath.fsum(r[a] * vm[a] for a in range(len(q))) for r in rows]
        return float(mpmath.fsum(ei * vi for ei, vi in zip(e, vals, strict=True)) / mpmath.fsum(e))


# ----------------------------------------------------------------------------- model checks


def _f(impl: AttentionModel, X: FloatArray, W: FloatArray, v: FloatArray) -> float:
    value = float(impl(X.copy(), W.copy(), v.copy()))
    expect(math.isfinite(value), what="f(X) is finite", measured=value, allowed="a finite number")
    return value


@check(anchor=f"{_S17}: softmax weights; unique value")
def check_convex_combination(impl: AttentionModel, data: st.DataObject, caps: Capabilities) -> None:
    """Weights are a softmax: ``f(X)`` lies in ``[min_i vᵀx_i, max_i vᵀx_i]``, equals the reference."""
    w, v = data.draw(instances(), label="(W, v)")
    X = data.draw(sequences(w.shape[0]), label="X")
    got = _f(impl, X, w, v)
    vals = X @ v
    slack = caps.tolerance * (1.0 + float(np.max(np.abs(vals))))
    expect_le(float(np.min(vals)) - got, slack, what="min_i vᵀx_i - f(X)")
    expect_le(got - float(np.max(vals)), slack, what="f(X) - max_i vᵀx_i")
    expect_close(got, aq.attention_output(X, w, v), atol=slack, what="f(X) against the reference")


@check(anchor=f"{_S17}: max-subtraction, scores up to ±700 (tested to ±1000)")
def check_stable_large_scores(
    impl: AttentionModel, data: st.DataObject, caps: Capabilities
) -> None:
    """Large scores: finite output matching mpmath (50 digits) to 1e-12 relative.

    The largest ``|score|`` is drawn in ``[50, 1000]``: the spec asks for ``±700``; beyond
    ``709.8`` ``exp`` overflows, so only an implementation that subtracts the maximum passes.
    """
    w, v = data.draw(instances(max_d=3), label="(W, v)")
    d = w.shape[0]
    X = data.draw(sequences(d, max_len=4, bound=1.0), label="X")
    scores = X @ (w @ X[-1])
    target = data.draw(st.floats(50.0, 1000.0), label="largest |score|")
    top = float(np.max(np.abs(scores)))
    w_big = w * (target / top) if top > 1e-6 else w
    got = _f(impl, X, w_big, v)
    want = _mp_output(X, w_big, v)
    expect_le(
        abs(got - want) / (1.0 + abs(want)),
        1e-12,
        what="relative error against mpmath at 50 digits",
    )


@check(anchor=f"{_S17}: f([x]) = vᵀx")
def check_single_token(impl: AttentionModel, data: st.DataObject, caps: Capabilities) -> None:
    """Length 1: ``f([x]) = vᵀx`` exactly (up to rounding)."""
    w, v = data.draw(instances(), label="(W, v)")
    X = data.draw(sequences(w.shape[0], max_len=1), label="X")
    got = _f(impl, X, w, v)
    want = float(X[0] @ v)
    expect_close(got, want, atol=1e-13 * (1.0 + abs(want)), what="f([x]) against vᵀx")


@check(anchor=f"{_S17}: permutation equivariance of rows 1..N-1")
def check_permutation(impl: AttentionModel, data: st.DataObject, caps: Capabilities) -> None:
    """Permuting the non-query rows ``1..N-1`` leaves ``f`` unchanged."""
    w, v = data.draw(instances(), label="(W, v)")
    X = data.draw(sequences(w.shape[0]), label="X")
    perm = data.draw(st.permutations(range(X.shape[0] - 1)), label="permutation of rows 1..N-1")
    Y = np.concatenate([X[np.array(perm, dtype=np.intp)], X[-1:]]) if perm else X
    a, b = _f(impl, X, w, v), _f(impl, Y, w, v)
    expect_close(b, a, atol=caps.tolerance * (1.0 + abs(a)), what="f after permuting rows 1..N-1")


@check(anchor=f"{_S17}: duplicated tokens multiply exp(s_j)")
def check_duplicates(impl: AttentionModel, data: st.DataObject, caps: Capabilities) -> None:
    """Duplicating non-query token ``j`` ``k`` times multiplies its weight ``exp(s_j)`` by ``k``."""
    w, v = data.draw(instances(), label="(W, v)")
    X = data.draw(sequences(w.shape[0], max_len=5), label="X")
    n = X.shape[0]
    if n == 1:
        X = np.concatenate([X, X])
        n = 2
    j = data.draw(st.integers(0, n - 2), label="token j")
    k = data.draw(st.integers(2, 4), label="copies k")
    Y = np.concatenate([np.repeat(X[j : j + 1], k - 1, axis=0), X])
    got = _f(impl, Y, w, v)
    s = X @ (w @ X[-1])
    mult = np.ones(n)
    mult[j] = k
    e = mult * np.exp(s - s.max())
    want = float(e @ (X @ v) / e.sum())
    expect_close(got, want, atol=1e-12 * (1.0 + abs(want)), what="f with token j repeated k times")


@check(anchor=f"{_S17}: f(-X) = -f(X), f(X; W, cv) = c f")
def check_sign_and_scaling(impl: AttentionModel, data: st.DataObject, caps: Capabilities) -> None:
    """``f(-X) = -f(X)`` and ``f(X; W, c v) = c f(X; W, v)``."""
    w, v = data.draw(instances(), label="(W, v)")
    X = data.draw(sequences(w.shape[0]), label="X")
    c = data.draw(st.floats(-5.0, 5.0, allow_subnormal=False), label="c")
    a = _f(impl, X, w, v)
    tol = caps.tolerance * (1.0 + abs(a))
    expect_close(_f(impl, -X, w, v), -a, atol=tol, what="f(-X) against -f(X)")
    expect_close(_f(impl, X, w, c * v), c * a, atol=tol * (1 + abs(c)), what="f(X; W, c v)")


@check(anchor=f"{_S17}: f(X Rᵀ; R W Rᵀ, R v) = f(X; W, v)")
def check_rotation(impl: AttentionModel, data: st.DataObject, caps: Capabilities) -> None:
    """For orthogonal ``R``: ``f(X Rᵀ; R W Rᵀ, R v) = f(X; W, v)`` (1e-12)."""
    w, v = data.draw(instances(), label="(W, v)")
    d = w.shape[0]
    X = data.draw(sequences(d), label="X")
    R = data.draw(_rotations(d), label="R")
    a = _f(impl, X, w, v)
    b = _f(impl, X @ R.T, R @ w @ R.T, R @ v)
    expect_close(
        b,
        a,
        atol=1e-12 * (1.0 + abs(a)) * (1 + float(np.max(np.abs(X)))) ** 2,
        what="f after rotating inputs and parameters",
    )


# ----------------------------------------------------------------------------- learners


def _pair(result: object, what: str) -> tuple[FloatArray, FloatArray]:
    return array_pair(result, ("W", "v"), source=what)


def _learn(impl: ExactLearner, w: FloatArray, v: FloatArray) -> tuple[FloatArray, FloatArray, int]:
    oracle = aq.AttentionOracle(w, v)
    w_hat, v_hat = impl(oracle)
    expect(
        w_hat.shape == w.shape and v_hat.shape == v.shape,
        what="shapes of (W, v)",
        measured=(w_hat.shape, v_hat.shape),
        allowed=(w.shape, v.shape),
    )
    return w_hat, v_hat, oracle.queries


def _exact_error(w_hat: FloatArray, w: FloatArray) -> float:
    return float(np.max(np.abs(w_hat - w))) / (1.0 + float(np.max(np.abs(w))))


@check(anchor=f"{_S17}: Thm 4.1 exactness")
def check_exact_recovery(impl: ExactLearner, data: st.DataObject, caps: Capabilities) -> None:
    """``v != 0``: the learner returns ``(W, v)`` exactly (``1e-8 (1 + max|W|)``; Thm 4.1)."""
    w, v = data.draw(instances(), label="(W, v)")
    w_hat, v_hat, _ = _learn(impl, w, v)
    expect_le(_exact_error(w_hat, w), 1e-8, what="max |Ŵ - W| / (1 + max |W|)")
    expect_le(
        float(np.max(np.abs(v_hat - v))), 1e-12 * (1 + float(np.max(np.abs(v)))), what="max |v̂ - v|"
    )


@check(anchor=f"{_S17}: Thm 4.1, d^2 + d queries")
def check_query_budget(impl: ExactLearner, data: st.DataObject, caps: Capabilities) -> None:
    """The learner uses exactly ``d^2 + d`` queries (moderate ``W``: no resampling needed)."""
    w, v = data.draw(instances(w_scale=0.5), label="(W, v)")
    _, _, used = _learn(impl, w, v)
    d = w.shape[0]
    expect(used == d * d + d, what="number of queries", measured=used, allowed=d * d + d)


@check(anchor=f"{_S17}: learner commutes with rotations")
def check_rotation_covariance(impl: ExactLearner, data: st.DataObject, caps: Capabilities) -> None:
    """On the model ``(R W Rᵀ, R v)`` the learner returns ``(R W Rᵀ, R v)`` (1e-8)."""
    w, v = data.draw(instances(), label="(W, v)")
    R = data.draw(_rotations(w.shape[0]), label="R")
    wr, vr = R @ w @ R.T, R @ v
    w_hat, v_hat, _ = _learn(impl, wr, vr)
    expect_le(_exact_error(w_hat, wr), 1e-8, what="max |Ŵ - R W Rᵀ| / (1 + max |R W Rᵀ|)")
    expect_le(float(np.max(np.abs(v_hat - vr))), 1e-8, what="max |v̂ - R v|")


@check(anchor=f"{_S17}: recovered head reproduces the oracle")
def check_reproduces_oracle(impl: ExactLearner, data: st.DataObject, caps: Capabilities) -> None:
    """The recovered head reproduces the oracle on fresh sequences (1e-8 relative)."""
    w, v = data.draw(instances(), label="(W, v)")
    w_hat, v_hat, _ = _learn(impl, w, v)
    X = data.draw(sequences(w.shape[0]), label="fresh X")
    want = aq.attention_output(X, w, v)
    got = aq.attention_output(X, w_hat, v_hat) if np.all(np.isfinite(w_hat)) else math.nan
    expect_close(got, want, atol=1e-8 * (1.0 + abs(want)), what="f(X; Ŵ, v̂) against the oracle")


@check(anchor=f"{_S17}: v = 0 is not identifiable")
def check_zero_value_rejected(impl: ExactLearner, data: st.DataObject, caps: Capabilities) -> None:
    """``v = 0``: ``W`` is not identifiable; the learner raises (a ``ValueError`` subclass)."""
    w, _ = data.draw(instances(), label="(W, v)")
    oracle = aq.AttentionOracle(w, np.zeros(w.shape[0]))
    expect_raises(lambda: impl(oracle), (ValueError,), what="learner on a v = 0 oracle")


# ----------------------------------------------------------------------------- noisy learner

_WB, _MU = 3.0, 0.5


@st.composite
def _noisy_instance(draw: st.DrawFn) -> tuple[FloatArray, FloatArray]:
    d = draw(st.integers(1, 5), label="d")
    w = draw(nonzero_float_arrays(d * d), label="W direction").reshape(d, d)
    w *= _WB * draw(st.floats(0.3, 1.0), label="||W||_F / Wb") / float(np.linalg.norm(w))
    signs = draw(sign_arrays(d), label="signs of v")
    v = signs * (_MU + draw(float_arrays((d,), low=0.0, high=3.0), label="|v| - mu"))
    return w, v


@check("error_bounds", anchor=f"{_S17}: Thm 6.1, explicit-constant version (derived)")
def check_noisy_bounds(impl: NoisyLearner, data: st.DataObject, caps: Capabilities) -> None:
    """For every noise sequence in ``[-tau, tau]``: ``||v̂ - v|| <= sqrt(d) tau`` and
    ``||Ŵ - W||_F <= 10 d Wb (1.5 Wb + 1) tau / (mu - tau)`` with ``d^2 + d`` queries."""
    w, v = data.draw(_noisy_instance(), label="(W, v)")
    d = w.shape[0]
    tau = 10.0 ** -data.draw(st.floats(1.0, 5.0), label="-log10 tau")
    noise = data.draw(
        hnp.arrays(np.float64, (d * d + d,), elements=st.floats(-1.0, 1.0)), label="noise / tau"
    )
    oracle = aq.AttentionOracle(w, v, tau=tau, noise=noise.tolist())
    w_hat, v_hat = impl(oracle, tau, _WB, _MU)
    bound_v, bound_w = aq.noisy_error_bounds(d, tau, _WB, _MU)
    expect_le(
        float(np.linalg.norm(v_hat - v)),
        bound_v * (1 + 1e-9) + 1e-15,
        what="||v̂ - v||_2 against sqrt(d) tau",
    )
    expect_le(
        float(np.linalg.norm(w_hat - w)),
        bound_w * (1 + 1e-9) + 1e-12,
        what="||Ŵ - W||_F against the explicit bound",
    )
    expect(
        oracle.queries == d * d + d,
        what="number of queries",
        measured=oracle.queries,
        allowed=d * d + d,
    )


@check(anchor=f"{_S17}: Algorithm C, tau = 0")
def check_noiseless_exact(impl: NoisyLearner, data: st.DataObject, caps: Capabilities) -> None:
    """``tau = 0``: the noisy learner is exact (``1e-9 (1 + max|W|)``)."""
    w, v = data.draw(_noisy_instance(), label="(W, v)")
    w_hat, v_hat = impl(aq.AttentionOracle(w, v), 0.0, _WB, _MU)
    expect_le(_exact_error(w_hat, w), 1e-9, what="max |Ŵ - W| / (1 + max|W|) at tau = 0")
    expect_le(float(np.max(np.abs(v_hat - v))), 1e-12, what="max |v̂ - v| at tau = 0")


# ----------------------------------------------------------------------------- nuclear norm


class NuclearNormSolver(Protocol):
    """``(a (m, d1), b (m, d2), t (m,)) -> W (d1, d2)`` minimising ``||W||_*`` subject to
    ``a_kᵀ W b_k = t_k`` (an array, or an object with a ``W`` attribute)."""

    def __call__(self, a: FloatArray, b: FloatArray, t: FloatArray, /) -> FloatArray:
        """Solve the equality-constrained nuclear-norm problem."""
        ...


RopProblem = tuple[FloatArray, FloatArray, FloatArray, FloatArray]


@st.composite
def rop_problems(draw: st.DrawFn, *, max_d: int = 5, determined: bool = False) -> RopProblem:
    """``(a, b, t, W0)``: Gaussian rank-one projections ``t_k = a_kᵀ W0 b_k`` of a planted
    ``W0`` of rank ``<= 2`` (feasible by construction); ``m >= d1 d2`` when ``determined``."""
    d1 = draw(st.integers(1, max_d), label="d1")
    d2 = draw(st.integers(1, max_d), label="d2")
    rank = draw(st.integers(1, min(d1, d2, 2)), label="rank of W0")
    low = d1 * d2 if determined else 1
    m = draw(st.integers(low, d1 * d2 + 2), label="m")
    # Gaussian measurement ensembles: recovery from m >= d1 d2 rank-one projections needs
    # generic a_k, b_k (round shrunk vectors are not), so these stay seeded
    rng = np.random.default_rng(draw(seeds(), label="seed"))
    w0 = rng.standard_normal((d1, rank)) @ rng.standard_normal((rank, d2))
    a, b = rng.standard_normal((m, d1)), rng.standard_normal((m, d2))
    return a, b, np.sum((a @ w0) * b, axis=1), w0


def _nuclear(matrix: FloatArray) -> float:
    return float(np.sum(np.linalg.svd(matrix, compute_uv=False)))


def _solve_nn(impl: NuclearNormSolver, a: FloatArray, b: FloatArray, t: FloatArray) -> FloatArray:
    out = to_numpy(impl(a.copy(), b.copy(), t.copy()), what="W")
    want = (a.shape[1], b.shape[1])
    expect(out.shape == want, what="shape of W", measured=out.shape, allowed=want)
    expect(
        bool(np.all(np.isfinite(out))), what="W is finite", measured="non-finite", allowed="finite"
    )
    return out


def _dual_lower_bound(a: FloatArray, b: FloatArray, t: FloatArray) -> float:
    """``<t, y>`` for the reference's dual vector rescaled here to ``||Σ y_k a_k b_kᵀ||_2 <= 1``:
    a lower bound on ``||W||_*`` over the feasible set (weak duality), checked independently."""
    y = np.array(aq.nuclear_norm_admm(a, b, t, tol=1e-11, max_iter=20000).dual)
    spectral = float(np.linalg.norm(np.einsum("k,ki,kj->ij", y, a, b), 2))
    return float(t @ y) / max(spectral, 1.0)


@check("feasible", anchor=f"{_S17}: B step 3: constraints")
def check_nn_feasible(impl: NuclearNormSolver, data: st.DataObject, caps: Capabilities) -> None:
    """The solution satisfies the measurements: ``||A(W) - t|| <= 1e-7 ||t||``."""
    a, b, t, _ = data.draw(rop_problems(), label="problem")
    w = _solve_nn(impl, a, b, t)
    expect_le(
        float(np.linalg.norm(np.sum((a @ w) * b, axis=1) - t)),
        1e-7 * float(np.linalg.norm(t)) + 1e-12,
        what="||A(W) - t||",
    )


@check("not_above_planted", anchor=f"{_S17}: B step 3: the planted W0 is feasible")
def check_nn_not_above_planted(
    impl: NuclearNormSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """``||W||_* <= ||W0||_*`` for the planted feasible ``W0`` (1e-7 relative)."""
    a, b, t, w0 = data.draw(rop_problems(), label="problem")
    w = _solve_nn(impl, a, b, t)
    expect_le(_nuclear(w), _nuclear(w0) * (1 + 1e-7) + 1e-12, what="||W||_* against ||W0||_*")


@check(
    "optimal_value",
    anchor="Recht, Fazel, Parrilo (SIAM Rev. 2010): weak duality, max <t, y> s.t. "
    "||A^*(y)||_2 <= 1; unique optimal value",
)
def check_nn_optimal_value(
    impl: NuclearNormSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """``||W||_*`` attains the optimum: it is within 1e-6 of a certified dual lower bound."""
    a, b, t, _ = data.draw(rop_problems(), label="problem")
    w = _solve_nn(impl, a, b, t)
    bound = _dual_lower_bound(a, b, t)
    expect_le(_nuclear(w), bound * (1 + 1e-6) + 1e-9, what="||W||_* against the dual bound <t, y>")


@check("determined", anchor=f"{_S17}: T5.1-sanity: m >= d^2 generic ROP measurements are injective")
def check_nn_determined(impl: NuclearNormSolver, data: st.DataObject, caps: Capabilities) -> None:
    """``m >= d1 d2`` generic measurements determine ``W``: it equals least squares (1e-7)."""
    a, b, t, _ = data.draw(rop_problems(determined=True), label="problem")
    w = _solve_nn(impl, a, b, t)
    ops = np.einsum("ki,kj->kij", a, b).reshape(a.shape[0], -1)
    ls = np.linalg.lstsq(ops, t, rcond=None)[0].reshape(w.shape)
    expect_le(
        float(np.linalg.norm(w - ls)),
        1e-7 * (1.0 + float(np.linalg.norm(ls))),
        what="||W - W_lstsq||_F",
    )


@check("row_scaling", anchor=f"{_S17}: B: rescaled probes give the same feasible set")
def check_nn_row_scaling(impl: NuclearNormSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Scaling measurement ``k`` by ``c_k > 0`` (``a_k -> c_k a_k``, ``t_k -> c_k t_k``) leaves
    the feasible set, hence the optimal value, unchanged (1e-6 relative)."""
    a, b, t, _ = data.draw(rop_problems(), label="problem")
    c = data.draw(
        hnp.arrays(np.float64, (a.shape[0],), elements=st.floats(0.05, 20.0)), label="scales c"
    )
    base = _nuclear(_solve_nn(impl, a, b, t))
    scaled = _nuclear(_solve_nn(impl, a * c[:, None], b, t * c))
    expect_close(scaled, base, atol=1e-6 * base + 1e-9, what="optimal value after row scaling")


# ----------------------------------------------------------------------------- adapters


def _adapt_model(obj: object) -> AttentionModel:
    if not callable(obj):
        raise TypeError(f"attention_queries.model: expected a callable, got {type(obj).__name__}")

    return adapt_output(obj, lambda result: to_scalar(result, what="f(X)"))


def _adapt_learner(obj: object) -> ExactLearner:
    if not callable(obj):
        raise TypeError(f"attention_queries.learner: expected a callable, got {type(obj).__name__}")

    return adapt_output(obj, lambda result: _pair(result, "learner"))


def _adapt_noisy(obj: object) -> NoisyLearner:
    if not callable(obj):
        raise TypeError(
            f"attention_queries.noisy_learner: expected a callable, got {type(obj).__name__}"
        )

    @functools.wraps(obj)
    def fn(
        oracle: aq.AttentionOracle, tau: float, w_bound: float, mu: float
    ) -> tuple[FloatArray, FloatArray]:
        return _pair(obj(oracle, tau, w_bound=w_bound, mu=mu), "noisy learner")

    return fn


def _adapt_nn(obj: object) -> NuclearNormSolver:
    if not callable(obj):
        raise TypeError(
            f"attention_queries.nuclear_norm: expected a callable, got {type(obj).__name__}"
        )

    return adapt_output(obj, lambda out: to_numpy(getattr(out, "W", out), what="W"))


# ----------------------------------------------------------------------------- suites

MODEL: Suite[AttentionModel] = Suite(
    name="attention_queries.model",
    protocol=AttentionModel,
    checks=(
        check_convex_combination,
        check_stable_large_scores,
        check_single_token,
        check_permutation,
        check_duplicates,
        check_sign_and_scaling,
        check_rotation,
    ),
    adapt=_adapt_model,
    description="Single softmax attention head fn(X, W, v) -> float: convexity, stability, "
    "length 1, permutations, duplicates, sign/scale symmetry, rotation covariance.",
)

LEARNER: Suite[ExactLearner] = Suite(
    name="attention_queries.learner",
    protocol=ExactLearner,
    checks=(
        check_exact_recovery,
        check_query_budget,
        check_rotation_covariance,
        check_reproduces_oracle,
        check_zero_value_rejected,
    ),
    adapt=_adapt_learner,
    description="Exact single-head query learners fn(oracle) -> (W, v): exactness, d^2 + d "
    "queries, rotation covariance, reproduction, v = 0 rejected.",
)

NOISY_LEARNER: Suite[NoisyLearner] = Suite(
    name="attention_queries.noisy_learner",
    protocol=NoisyLearner,
    checks=(
        check_noisy_bounds,
        check_noiseless_exact,
    ),
    adapt=_adapt_noisy,
    description="Noisy single-head learners fn(oracle, tau, w_bound=, mu=) -> (W, v): error "
    "bounds for all noise sequences, d^2 + d queries, exact without noise.",
)

NUCLEAR_NORM: Suite[NuclearNormSolver] = Suite(
    name="attention_queries.nuclear_norm",
    protocol=NuclearNormSolver,
    checks=(
        check_nn_feasible,
        check_nn_not_above_planted,
        check_nn_optimal_value,
        check_nn_determined,
        check_nn_row_scaling,
    ),
    adapt=_adapt_nn,
    description="Nuclear-norm minimisers fn(a, b, t) -> W subject to a_kᵀ W b_k = t_k: "
    "feasibility, optimal value against a certified dual bound, least squares when "
    "determined, invariance to row scaling.",
)

SUITES = (MODEL, LEARNER, NOISY_LEARNER, NUCLEAR_NORM)
