"""Invariant-subspace recovery across environments: generators, estimators, diagnostics.

Paper: Y. Zhou, B. Li, H.-M. Hu, H. Wang, X. Zhang, R. Zhang, "Is Spurious Correlation Removal Always
Learnable?", ICML 2026, arXiv:2606.12930 (spec 08).  The PDF could not be read; definitions and theorem
numbers come from the abstract and two paper notes ([paper]); the generators and the spectral estimator
are the spec's construction ([derived] / (our default)), since the paper proposes no practical method.

Model (spec 08, Section 2): ``R^d = V_inv ⊕ V_sp`` with ``dim V_inv = k``; in every environment
``y = <w*, x_inv> + ε`` (invariance, C1) while ``x_sp`` drifts (C2): label-induced ``x_sp = m_e y + η`` or
mean drift ``x_sp = m_e + η``.  Distance: ``dist(V, V') = ‖P_V - P_V'‖_F``.  The minimax rate is
``E dist² = Θ(k(d-k)/(n|E|))`` (Thm 4.11) and, under label-induced shift with diversity γ, the error
scales like ``k(d-k)/(n|E|γ²)`` above a threshold ``n* ∝ k(d-k)/(|E|γ²)`` (Thm 4.15).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy.linalg import hadamard

from reference._arrays import (
    FloatArray,
    as_float_array,
    readonly,
    require_int,
    require_positive,
)
from reference._repr import summary_repr

__all__ = [
    "Environment",
    "InvariantInstance",
    "SubspaceEstimate",
    "drift_flags",
    "estimate_invariant_subspace",
    "exhaustive_search_k1",
    "fibonacci_sphere",
    "gamma_hat",
    "make_instance",
    "make_toy_hard_instance",
    "population_drift_matrix",
    "score_s",
    "subspace_distance",
    "support_search",
]

Environment = tuple[FloatArray, FloatArray]  # (X_e (n, d), y_e (n,))


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class InvariantInstance:
    """A multi-environment sample with its ground truth.

    Attributes:
        environments: per environment ``(X_e (n, d), y_e (n,))``, read-only arrays.
        basis: ``(d, k)`` orthonormal basis of V_inv.
        spurious_basis: ``(d, d - k)`` orthonormal basis of V_sp.
        w_star: ``(k,)`` invariant coefficients (unit norm).
        drifts: ``(|E|, d - k)`` environment drift vectors ``m_e``.
        gamma: realised diversity γ (Def. 2.3) of the population model.
        kind: ``"label"`` or ``"mean"``.
    """

    environments: tuple[Environment, ...]
    basis: FloatArray
    spurious_basis: FloatArray
    w_star: FloatArray
    drifts: FloatArray
    gamma: float
    kind: str


def _design_drifts(n_envs: int, width: int, gamma: float) -> FloatArray:
    order = 1 << math.ceil(math.log2(width + 1))
    signs = hadamard(order)[:, 1 : width + 1].astype(np.float64)
    out: FloatArray = (gamma / 2.0) * signs[np.arange(n_envs) % order]
    return out


def make_instance(
    d: int,
    k: int,
    n_envs: int,
    n: int,
    gamma: float,
    *,
    rng: np.random.Generator,
    kind: Literal["label", "mean"] = "label",
    rotate: bool = True,
    sigma_eps: float = 0.5,
    sigma_eta: float = 1.0,
    drift: Literal["design", "uniform"] = "design",
) -> InvariantInstance:
    """Draw a spurious-correlation instance (spec 08, E1, our default generator).

    Drifts: ``design`` gives ``m_e = (γ/2) s_e`` with ``s_e`` rows of a Sylvester Hadamard matrix (all-ones
    column removed), so for ``n_envs`` a multiple of the order ``h = 2^ceil(log2(d-k+1))`` the drift
    matrix is ``F = n_envs² γ²/4 I``; ``uniform`` draws ``m_e ~ U[-γ/2, γ/2]^{d-k}``.  Per sample
    ``x_inv ~ N(0, I_k)``, ``y = w*ᵀx_inv + σ_ε N(0,1)``, ``x_sp = m_e y + σ_η N(0, I)`` (label) or
    ``m_e + σ_η N(0, I)`` (mean); ``x = Q [x_inv; x_sp]`` with Q Haar (``rotate``) or the identity.

    Args:
        d: ambient dimension (>= 2).
        k: invariant dimension, 1 <= k < d.
        n_envs: number of environments |E| >= 2.
        n: samples per environment (>= 2).
        gamma: diversity γ >= 0.
        rng: random generator.
        kind: ``"label"`` (label-induced shift) or ``"mean"`` (mean drift).
        rotate: random rotation Q.
        sigma_eps: label noise sd > 0.
        sigma_eta: spurious noise sd > 0.
        drift: ``"design"`` or ``"uniform"``.

    Returns:
        An :class:`InvariantInstance` (γ reported is the realised population γ).

    Raises:
        ValueError: out-of-range sizes or parameters.
    """
    dd = require_int("d", d, minimum=2)
    kk = require_int("k", k, minimum=1, maximum=dd - 1)
    ne = require_int("n_envs", n_envs, minimum=2)
    nn = require_int("n", n, minimum=2)
    g = require_positive("gamma", gamma, allow_zero=True)
    se = require_positive("sigma_eps", sigma_eps)
    sh = require_positive("sigma_eta", sigma_eta)
    if kind not in ("label", "mean"):
        raise ValueError(f"kind: expected 'label' or 'mean', got {kind!r}")
    if drift not in ("design", "uniform"):
        raise ValueError(f"drift: expected 'design' or 'uniform', got {drift!r}")
    width = dd - kk
    if rotate:
        q, r = np.linalg.qr(rng.standard_normal((dd, dd)))
        q = q * np.sign(np.diag(r))
    else:
        q = np.eye(dd)
    w = rng.standard_normal(kk)
    w /= np.linalg.norm(w)
    drifts = (
        _design_drifts(ne, width, g)
        if drift == "design"
        else rng.uniform(-g / 2, g / 2, size=(ne, width))
    )
    envs: list[Environment] = []
    for e in range(ne):
        x_inv = rng.standard_normal((nn, kk))
        y = x_inv @ w + se * rng.standard_normal(nn)
        noise = sh * rng.standard_normal((nn, width))
        x_sp = (y[:, None] * drifts[e] if kind == "label" else drifts[e]) + noise
        x = np.hstack([x_inv, x_sp]) @ q.T
        envs.append((readonly(x), readonly(y)))
    spread = float(np.max(drifts.max(axis=0) - drifts.min(axis=0))) if width else 0.0
    # label kind: Δ_j(x) = range_e m_ej · |w*ᵀx|, so γ = max_j range_j · sqrt(E (w*ᵀx_inv)²) = range (|w*| = 1)
    realised = spread
    return InvariantInstance(
        environments=tuple(envs),
        basis=readonly(np.ascontiguousarray(q[:, :kk])),
        spurious_basis=readonly(np.ascontiguousarray(q[:, kk:])),
        w_star=readonly(w),
        drifts=readonly(drifts),
        gamma=realised,
        kind=kind,
    )


def population_drift_matrix(instance: InvariantInstance) -> FloatArray:
    """``F = Σ_{e<e'} (m_e - m_e')(m_e - m_e')ᵀ`` on V_sp coordinates (Remark 2.4, Prop 4.4).

    Computed through the identity ``F = |E| Σ_e (m_e - m̄)(m_e - m̄)ᵀ`` (spec 08, Section 2).
    """
    m = np.asarray(instance.drifts)
    centred = m - m.mean(axis=0)
    out: FloatArray = m.shape[0] * centred.T @ centred
    return out


def _basis(name: str, value: object, d: int | None = None) -> FloatArray:
    mat = as_float_array(name, value, ndim=2)
    if d is not None and mat.shape[0] != d:
        raise ValueError(f"{name}: expected {d} rows, got shape {mat.shape}")
    if mat.shape[1] > mat.shape[0]:
        raise ValueError(f"{name}: expected at most as many columns as rows, got shape {mat.shape}")
    q, r = np.linalg.qr(mat)
    if float(np.min(np.abs(np.diag(r)))) <= 1e-12 * max(1.0, float(np.max(np.abs(mat)))):
        raise ValueError(f"{name}: expected linearly independent columns")
    return q


def subspace_distance(U: ArrayLike, V: ArrayLike, *, squared: bool = True) -> float:
    """``‖P_U - P_V‖_F`` (squared by default) between column spans (spec 08, Section 2).

    Columns need only be independent (orthonormalised internally).  For equal dimension k the squared
    distance is ``2 Σ sin²θ_i`` over the principal angles, in [0, 2k].

    Args:
        U: ``(d, k)`` basis.
        V: ``(d, k')`` basis.
        squared: return dist² (default) or dist.

    Raises:
        ValueError: shapes, dependent columns, non-finite values.

    Example:
        >>> subspace_distance([[1.0], [0.0]], [[0.0], [1.0]])
        2.0
    """
    qu = _basis("U", U)
    qv = _basis("V", V, qu.shape[0])
    diff = qu @ qu.T - qv @ qv.T
    value = float(np.sum(diff * diff))
    return value if squared else math.sqrt(value)


def _environments(envs: object) -> tuple[Environment, ...]:
    if isinstance(envs, InvariantInstance):
        envs = envs.environments
    if not isinstance(envs, Sequence) or isinstance(envs, str | bytes):
        raise TypeError(f"envs: expected a sequence of (X, y) pairs, got {type(envs).__name__}")
    if len(envs) < 2:
        raise ValueError(f"envs: expected at least 2 environments, got {len(envs)}")
    out: list[Environment] = []
    d: int | None = None
    for i, pair in enumerate(envs):
        if not isinstance(pair, Sequence) or len(pair) != 2:
            raise TypeError(f"envs[{i}]: expected a pair (X, y)")
        x = as_float_array(f"envs[{i}].X", pair[0], ndim=2)
        y = as_float_array(f"envs[{i}].y", pair[1], shape=(x.shape[0],))
        if x.shape[0] < 2:
            raise ValueError(f"envs[{i}].X: expected at least 2 samples, got {x.shape[0]}")
        if d is None:
            d = x.shape[1]
        elif x.shape[1] != d:
            raise ValueError(
                f"envs[{i}].X: expected dimension {d} (that of envs[0]), got {x.shape[1]}"
            )
        out.append((x, y))
    return tuple(out)


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class SubspaceEstimate:
    """Output of :func:`estimate_invariant_subspace`.

    Attributes:
        basis: ``(d, k)`` orthonormal estimate of V_inv, read-only.
        eigenvalues: ``(d,)`` ascending eigenvalues of F̂ (the spectral diagnostic), read-only.
        eigengap: ``λ_{k+1}/λ_k`` with ``λ_k`` floored at the rounding level ``d·u·λ_max`` (so
            finite: about ``1/(d·u)`` when the k smallest eigenvalues vanish; 1 when F̂ = 0);
            below 2 the separation is weak.
        identifiable: ``|E| >= d - k + 1`` (otherwise between-environment moments cannot span V_sp,
            Prop 4.4).  Reported as data, not as a warning (library convention; the spec asks for a
            warning).
    """

    basis: FloatArray
    eigenvalues: FloatArray
    eigengap: float
    identifiable: bool


def estimate_invariant_subspace(envs: object, k: int) -> SubspaceEstimate:
    """Spectral moment estimator of V_inv (spec 08, E2, our default reference).

    ``F̂ = |E| [Σ_e (x̄_e - x̄)(x̄_e - x̄)ᵀ + Σ_e (c_e - c̄)(c_e - c̄)ᵀ]`` with ``c_e = Cov_e(X, y)``
    (centred; the spec writes ``X_eᵀy_e/n_e``, which breaks invariance to a common shift of X);
    V̂ = span of the k eigenvectors of F̂ with the smallest eigenvalues.  Invariant directions have no
    between-environment variation of ``E_e[X]`` or ``E_e[XY]``.

    Args:
        envs: sequence of ``(X_e (n_e, d), y_e (n_e,))`` (or an :class:`InvariantInstance`).
        k: target dimension, 1 <= k < d.

    Returns:
        A :class:`SubspaceEstimate`.

    Raises:
        ValueError: fewer than 2 environments, mismatched dimensions, n_e < 2, non-finite values, k out of range.
        TypeError: ``envs`` not a sequence of pairs.
    """
    data = _environments(envs)
    d = data[0][0].shape[1]
    kk = require_int("k", k, minimum=1, maximum=d - 1)
    # (our default) a common scalar normalisation of X and y, so that (X, y) -> (cX, cy) leaves V̂
    # unchanged (spec 08, Section 5); it is one number per data set, so rotations commute with it.
    pooled_x = np.vstack([x for x, _ in data])
    pooled_y = np.concatenate([y for _, y in data])
    sx = float(np.sqrt(np.mean(np.sum((pooled_x - pooled_x.mean(axis=0)) ** 2, axis=1)))) or 1.0
    sy = float(np.std(pooled_y)) or 1.0
    data = tuple((x / sx, y / sy) for x, y in data)
    means = np.array([x.mean(axis=0) for x, _ in data])
    # centred cross moments: the spec's E2 writes X_eᵀy_e/n, but the shift invariance it lists in
    # Section 5 needs Cov_e(X, y); with E[y] = 0 (our generators) the two differ by O(1/√n).
    cross = np.array([(x - x.mean(axis=0)).T @ (y - y.mean()) / x.shape[0] for x, y in data])
    # F̂ through the pairwise identity |E| Σ_e (v_e - v̄)(v_e - v̄)ᵀ = Σ_{e<e'} (v_e - v_e')(v_e - v_e')ᵀ:
    # identical environments give F̂ = 0 exactly (centring on v̄ leaves rounding noise when |E| is not
    # a power of 2, and the relative floor below then read that noise as a gap of about 1e15).
    f_hat = np.zeros((d, d))
    for moments in (means, cross):
        for e in range(len(data) - 1):
            diffs = moments[e + 1 :] - moments[e]
            f_hat += diffs.T @ diffs
    values, vectors = np.linalg.eigh(f_hat)
    # λ_k at or below eigh's rounding level (d u λ_max, possibly a tiny negative) is read as that
    # level, so the gap stays finite; F̂ = 0 (identical environments) carries no gap: 1.
    floor = d * float(np.finfo(np.float64).eps) * float(max(values[-1], 0.0))
    gap = 1.0 if floor == 0.0 else float(max(values[kk], floor) / max(values[kk - 1], floor))
    return SubspaceEstimate(
        basis=readonly(np.ascontiguousarray(vectors[:, :kk])),
        eigenvalues=readonly(values),
        eigengap=gap,
        identifiable=len(data) >= d - kk + 1,
    )


def gamma_hat(envs: object) -> float:
    """Diversity diagnostic: median over coordinates of the range over environments of corr_e(X_j, y).

    Spec 08, E5 [paper]; meaningful for axis-aligned features.  0 when all environments are identical.

    Raises:
        ValueError: as :func:`estimate_invariant_subspace`, or a constant feature/label in an environment.
    """
    data = _environments(envs)
    rows = []
    for i, (x, y) in enumerate(data):
        xc, yc = x - x.mean(axis=0), y - y.mean()
        denom = np.sqrt((xc * xc).sum(axis=0) * float(yc @ yc))
        if float(np.min(denom)) <= 0:
            raise ValueError(f"envs[{i}]: expected non-constant features and labels")
        rows.append(xc.T @ yc / denom)
    corr = np.array(rows)
    return float(np.median(corr.max(axis=0) - corr.min(axis=0)))


def drift_flags(envs: object) -> FloatArray:
    """Per-feature drift flag: ``range_j > 4 sqrt(2 log|E|) / sqrt(n)`` (spec 08, E5, our default).

    Returns:
        ``(d,)`` array of 0/1 flags (1 = spurious), read-only.

    Raises:
        ValueError: as :func:`gamma_hat`.
    """
    data = _environments(envs)
    rows = []
    for x, y in data:
        xc, yc = x - x.mean(axis=0), y - y.mean()
        rows.append(xc.T @ yc / np.sqrt((xc * xc).sum(axis=0) * float(yc @ yc)))
    corr = np.array(rows)
    n = min(x.shape[0] for x, _ in data)
    threshold = 4.0 * math.sqrt(2.0 * math.log(len(data))) / math.sqrt(n)
    return readonly(((corr.max(axis=0) - corr.min(axis=0)) > threshold).astype(np.float64))


def _slope(t: FloatArray, y: FloatArray) -> float:
    tc = t - t.mean()
    denom = float(tc @ tc)
    return 0.0 if denom == 0 else float(tc @ (y - y.mean()) / denom)


def score_s(direction: ArrayLike, envs: object, *, lam: float = 10.0) -> float:
    """Invariance-predictivity score ``S(u) = A(u) - λ T(u)`` for k = 1 (spec 08, E3, our reading).

    ``A(u)`` = pooled squared correlation of ``uᵀx`` and ``y``; ``T(u) = max_{e≠e'} (θ_e - θ_e')²`` with
    ``θ_e`` the OLS slope of y on ``uᵀx`` in environment e.

    Raises:
        ValueError: bad direction (zero, wrong length) or environments; ``lam < 0``.
    """
    data = _environments(envs)
    u = as_float_array("direction", direction, shape=(data[0][0].shape[1],))
    norm = float(np.linalg.norm(u))
    if norm == 0:
        raise ValueError("direction: expected a non-zero vector")
    u = u / norm
    weight = require_positive("lam", lam, allow_zero=True)
    t_all = np.concatenate([x @ u for x, _ in data])
    y_all = np.concatenate([y for _, y in data])
    tc, yc = t_all - t_all.mean(), y_all - y_all.mean()
    denom = float(tc @ tc) * float(yc @ yc)
    predictivity = 0.0 if denom == 0 else float((tc @ yc) ** 2 / denom)
    slopes = [_slope(x @ u, y) for x, y in data]
    return predictivity - weight * (max(slopes) - min(slopes)) ** 2


def fibonacci_sphere(count: int) -> FloatArray:
    """``(count, 3)`` nearly uniform unit vectors (Fibonacci lattice), the ε-net of spec 08, E3.

    Raises:
        ValueError: ``count < 1``.
    """
    c = require_int("count", count, minimum=1)
    i = np.arange(c) + 0.5
    z = 1.0 - 2.0 * i / c
    radius = np.sqrt(1.0 - z * z)
    phi = math.pi * (1.0 + math.sqrt(5.0)) * i
    out: FloatArray = np.column_stack([radius * np.cos(phi), radius * np.sin(phi), z])
    return out


def _scores(cands: FloatArray, data: Sequence[Environment], lam: float) -> FloatArray:
    """:func:`score_s` for every row of ``cands`` (unit rows), vectorised in chunks of 512."""
    y_all = np.concatenate([y for _, y in data])
    yc = y_all - y_all.mean()
    out = np.empty(cands.shape[0])
    for start in range(0, cands.shape[0], 512):
        block = cands[start : start + 512].T  # (d, b)
        t_all = np.vstack([x @ block for x, _ in data])
        tc = t_all - t_all.mean(axis=0)
        denom = (tc * tc).sum(axis=0) * float(yc @ yc)
        pred = np.where(denom > 0, (tc.T @ yc) ** 2 / np.where(denom > 0, denom, 1.0), 0.0)
        slopes = []
        for x, y in data:
            t = x @ block
            t0 = t - t.mean(axis=0)
            var = (t0 * t0).sum(axis=0)
            slopes.append(
                np.where(var > 0, t0.T @ (y - y.mean()) / np.where(var > 0, var, 1.0), 0.0)
            )
        slope_arr = np.array(slopes)
        out[start : start + 512] = pred - lam * (slope_arr.max(axis=0) - slope_arr.min(axis=0)) ** 2
    return out


def exhaustive_search_k1(envs: object, candidates: ArrayLike, *, lam: float = 10.0) -> FloatArray:
    """Brute force for k = 1: the candidate direction with the largest :func:`score_s` (spec 08, E3).

    Exponential in general (tests only); the scores are computed in vectorised chunks and equal
    :func:`score_s` on each candidate.

    Args:
        envs: environments.
        candidates: ``(N, d)`` non-zero candidate directions (e.g. :func:`fibonacci_sphere` for d = 3).
        lam: λ of the score.

    Returns:
        ``(d,)`` the arg-max (unit norm).

    Raises:
        ValueError: shapes or values, or a zero candidate.
    """
    data = _environments(envs)
    cands = as_float_array("candidates", candidates, shape=(None, data[0][0].shape[1]))
    norms = np.linalg.norm(cands, axis=1)
    if float(norms.min()) == 0.0:
        raise ValueError("candidates: expected non-zero directions")
    weight = require_positive("lam", lam, allow_zero=True)
    unit = cands / norms[:, None]
    best: FloatArray = unit[int(np.argmax(_scores(unit, data, weight)))]
    return best


def make_toy_hard_instance(
    m: int, s: int, n: int, *, rng: np.random.Generator, mus: tuple[float, float] = (1.0, -1.0)
) -> InvariantInstance:
    """Construction 3.3 with a *toy* (easy) sparse-recovery primitive (spec 08, E4).

    ``Z ~ N(0, I_m)``, ``Y = vᵀZ + 0.5 N(0,1)`` with ``v`` s-sparse unit; ``W = μ_e Y + N(0,1)`` (scalar);
    ``X = (Z, W)``, ``V_inv = span{(v, 0)}``.  The toy primitive is NOT hard: no hardness is tested.

    Raises:
        ValueError: ``s`` not in [1, m], sizes < 2.
    """
    mm = require_int("m", m, minimum=2)
    ss = require_int("s", s, minimum=1, maximum=mm)
    nn = require_int("n", n, minimum=2)
    support = rng.choice(mm, size=ss, replace=False)
    v = np.zeros(mm)
    v[support] = rng.standard_normal(ss)
    v /= np.linalg.norm(v)
    envs: list[Environment] = []
    for mu in mus:
        z = rng.standard_normal((nn, mm))
        y = z @ v + 0.5 * rng.standard_normal(nn)
        w = mu * y + rng.standard_normal(nn)
        envs.append((readonly(np.column_stack([z, w])), readonly(y)))
    basis = np.append(v, 0.0)[:, None]
    rest = np.linalg.qr(np.hstack([basis, np.eye(mm + 1)]))[0][:, 1:]
    return InvariantInstance(
        environments=tuple(envs),
        basis=readonly(basis),
        spurious_basis=readonly(rest),
        w_star=readonly(np.ones(1)),
        drifts=readonly(np.array([[mus[0]], [mus[1]]])),
        gamma=float(abs(mus[0] - mus[1])),
        kind="label",
    )


def support_search(envs: object, s: int, *, lam: float = 10.0) -> FloatArray:
    """Brute-force support search of spec 08, E3 for the hard instance (Z-block of width m, then W).

    For every support S of size s in the Z-block: candidate (a) pooled OLS of y on Z_S embedded as
    (β, 0); candidate (b) pooled OLS of y on (Z_S, W); keep the arg-max of the score.

    Args:
        envs: the environments.
        s: support size in ``[1, d - 1]``.
        lam: λ of the score (its invariance penalty weight).

    Raises:
        ValueError: bad environments or s out of [1, d - 1].
    """
    data = _environments(envs)
    d = data[0][0].shape[1]
    ss = require_int("s", s, minimum=1, maximum=d - 1)
    x_all = np.vstack([x for x, _ in data])
    y_all = np.concatenate([y for _, y in data])
    best, best_score = np.zeros(d), -math.inf
    for subset in itertools.combinations(range(d - 1), ss):
        cols = list(subset)
        for with_w in (False, True):
            used = [*cols, d - 1] if with_w else cols
            beta, *_ = np.linalg.lstsq(x_all[:, used], y_all, rcond=None)
            cand = np.zeros(d)
            cand[used] = beta
            if float(np.linalg.norm(cand)) == 0:
                continue
            value = score_s(cand, data, lam=lam)
            if value > best_score:
                best, best_score = cand / np.linalg.norm(cand), value
    return best
