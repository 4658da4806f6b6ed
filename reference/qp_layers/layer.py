"""Differentiable quadratic-programming layers: forward solve, KKT and FFO hypergradients.

The layer maps parameters ``θ = (Q, q, G, h, A, b)`` to the solution ``y*(θ)`` of

    min_y ½ yᵀQy + qᵀy   s.t.   G y ≤ h,   A y = b                      (qpth convention)

and training needs the *layer part* of the hypergradient, ``(∂y*/∂θ)ᵀ d`` for an
upstream gradient ``d = ∇_y ℓ`` (``grad_x`` below).  This module holds

* :func:`solve_qp` — dense primal–dual interior point (Mehrotra predictor–corrector,
  float64) with an infeasibility check by LP and an active-set polish (our default);
* :func:`solve_qp_active_set` — the brute-force active-set oracle for small ``m``;
* :func:`kkt_grads` — the exact implicit-differentiation baseline (OptNet / KKT, spec A1);
* :func:`ffo_grads` — the FFOLayer hypergradient (frozen active set, tilted ghost
  problem, finite difference scaled by ``α``; spec A2) with an exact or a fully
  first-order inner solver (:func:`ghost_pgd`, spec A2-FO);
* :func:`penalty_grads` — the older penalty-based first-order baseline (spec A4);
* :func:`kkt_residual`, :func:`active_set` — the defining quantities used by the suites.

Notation map (paper → argument): ``y`` → ``x`` of the result (the primal solution),
``λ*`` → ``lam``, ``ν*`` → ``nu``, ``s`` → ``slack = h − G y*``, ``d`` → ``grad_x``,
``α`` → ``alpha``, ``I`` → ``active``, ``C = [G_I; A]``, ``λ_p`` → ``penalty``.

Batching: every array may carry a leading batch axis ``B`` (``Q (B, n, n)``, ``q (B, n)``,
``G (B, m, n)``, ...); unbatched arguments broadcast over the batch.  Results are
batched when any input is; the gradient of a broadcast (unbatched) parameter is the
sum over the batch (the gradient of ``Σ_b d_bᵀ y*_b``), so every gradient has exactly
its parameter's shape.  Absent constraints are passed as ``None`` (``G``/``h`` and
``A``/``b`` together), never as empty arrays.

Layout: configs, results and input parsing in :mod:`reference.qp_layers.model`; forward solves
and the KKT residual in :mod:`reference.qp_layers.solve`; the gradient methods A1-A4 here.  This
module re-exports every public name and is the documented import path.

References:
    Z. Zhao, K.-C. Mo, S.-H. Ho, B. Amos, K. Wang, "A Fully First-Order Layer for
    Differentiable Optimization", ICML 2026, arXiv:2512.02494 (spec 03, Sections 2-3;
    public code ``ffolayer`` v0.1.1, ``ffoqp_eq.py``).
    B. Amos, J. Z. Kolter, "OptNet: Differentiable Optimization as a Layer in Neural
    Networks", ICML 2017, Section 3 (the KKT baseline).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike

from reference._arrays import (
    BoolArray,
    FloatArray,
    as_float_array,
    readonly,
    require_int,
    require_positive,
)
from reference.qp_layers.model import (
    _QP,
    DegenerateQPWarning,
    FFOConfig,
    GhostPGDResult,
    PenaltyConfig,
    QPGrads,
    QPSolution,
    QPSolverConfig,
    RankDeficientWarning,
    _Batch,
    _check_spd,
    _parse,
    _parse_grad,
)
from reference.qp_layers.solve import (
    _empty,
    _f64,
    _parse_solution,
)

__all__ = [
    "active_set",
    "ffo_grads",
    "ghost_pgd",
    "kkt_grads",
    "penalty_grads",
]

# The declared defaults: the active-set thresholds (A1's too) and the ghost PGD's stopping rule.
_FFO = FFOConfig()


# ------------------------------------------------------------------------- gradient assembly
def _assemble(
    batch: _Batch,
    per_item: Sequence[dict[str, FloatArray]],
    masks: Sequence[BoolArray],
    iterations: int = 0,
    converged: bool = True,
) -> QPGrads:
    out: dict[str, FloatArray | None] = {}
    for name in ("Q", "q", "G", "h", "A", "b"):
        if name not in per_item[0]:
            out[name] = None
            continue
        arrays = [g[name] for g in per_item]
        if batch.batched and batch.batched_params[name]:
            value = np.stack(arrays)
        elif batch.batched:
            value = np.sum(np.stack(arrays), axis=0)
        else:
            value = arrays[0]
        if not bool(np.all(np.isfinite(value))):  # never hand back silent NaN
            raise ValueError(f"gradient of {name} is not finite (ill-conditioned KKT system)")
        out[name] = readonly(np.array(value))
    active: BoolArray | None = None
    if batch.m:
        active = readonly(np.stack(list(masks)) if batch.batched else np.array(masks[0]))
    Qg, qg = out["Q"], out["q"]
    assert Qg is not None
    assert qg is not None
    return QPGrads(
        Q=Qg,
        q=qg,
        G=out["G"],
        h=out["h"],
        A=out["A"],
        b=out["b"],
        active=active,
        iterations=iterations,
        converged=converged,
    )


def _lagrangian_grads(
    item: _QP, y: FloatArray, mu_full: FloatArray, nu: FloatArray
) -> dict[str, FloatArray]:
    """``∇_θ 𝓛(θ; y, μ, ν)`` for ``𝓛 = ½yᵀQy + qᵀy + μᵀ(Gy − h) + νᵀ(Ay − b)``."""
    grads = {"Q": 0.5 * np.outer(y, y), "q": y.copy()}
    if item.G is not None:
        grads["G"] = np.outer(mu_full, y)
        grads["h"] = -mu_full
    if item.A is not None:
        grads["A"] = np.outer(nu, y)
        grads["b"] = -nu
    return grads


def _degenerate_rows(
    slack: FloatArray, lam: FloatArray, slack_tol: float, dtol: float
) -> BoolArray:
    return (slack <= slack_tol) & (lam <= dtol)


# -------------------------------------------------------------------------------- A1: KKT
def kkt_grads(
    Q: ArrayLike,
    q: ArrayLike,
    G: ArrayLike | None,
    h: ArrayLike | None,
    A: ArrayLike | None,
    b: ArrayLike | None,
    grad_x: ArrayLike,
    *,
    solution: QPSolution | None = None,
    slack_tol: float = _FFO.slack_tol,
    degenerate_tol: float = _FFO.degenerate_tol,
) -> QPGrads:
    """Exact ``(∂y*/∂θ)ᵀ d`` by implicit differentiation of the KKT conditions (spec 03 A1).

    Solves the transposed differentiated-KKT system (``n + m + p`` unknowns)

        [ Q        Gᵀ·diag(λ*)   Aᵀ ] [d_z]     [ d ]
        [ G        diag(Gy* − h) 0  ] [d_λ] = − [ 0 ]
        [ A        0             0  ] [d_ν]     [ 0 ]

    in the scaled unknowns ``d̃_λ = diag(λ*) d_λ`` (row ``i`` of the middle block
    multiplied by ``λ*_i``: ``λ*_i G_i d_z − s_i d̃_λ,i = 0``), which is the same linear
    system after a diagonal change of variables and stays well posed when ``λ*_i = 0``.
    Then ``∇_q = d_z``, ``∇_Q = ½(d_z y*ᵀ + y* d_zᵀ)`` (symmetrised convention),
    ``∇_G = d̃_λ y*ᵀ + λ* d_zᵀ``, ``∇_h = −d̃_λ``, ``∇_A = d_ν y*ᵀ + ν* d_zᵀ``, ``∇_b = −d_ν``.

    Args:
        Q, q, G, h, A, b: the QP (see :func:`solve_qp`; batched allowed).
        grad_x: ``(n,)`` or ``(B, n)``: the upstream gradient ``d = ∇_y ℓ``.
        solution: a :class:`QPSolution` of this QP (solved here when ``None``).
        slack_tol: rows with ``s_i <= slack_tol`` and ``λ*_i <= degenerate_tol`` are weakly
            active: a :class:`DegenerateQPWarning` is issued and they are treated as
            active (one-sided choice, row ``G_i d_z = 0``); default: :class:`FFOConfig`'s.
        degenerate_tol: see ``slack_tol``; default: :class:`FFOConfig`'s.

    Returns:
        :class:`QPGrads` (each gradient with its parameter's shape; ``active`` marks
        the rows with ``λ*_i > 0`` or treated as active).

    Raises:
        TypeError: non-numeric input.
        ValueError: as :func:`solve_qp`; bad ``grad_x``; singular KKT matrix (LICQ fails).

    Example:
        >>> g = kkt_grads([[2.0]], [-2.0], None, None, None, None, [1.0])
        >>> float(g.q[0]), float(g.Q[0, 0])
        (-0.5, -0.5)

    References:
        Spec 03 A1; B. Amos, J. Z. Kolter, OptNet (ICML 2017), Section 3.
    """
    slack_tol = require_positive("slack_tol", slack_tol, allow_zero=True)
    degenerate_tol = require_positive("degenerate_tol", degenerate_tol, allow_zero=True)
    batch = _parse(Q, q, G, h, A, b)
    ds = _parse_grad(grad_x, batch)
    sols = _parse_solution(solution, batch, QPSolverConfig())
    per_item = []
    masks = []
    for item, d, (y, lam, nu, slack) in zip(batch.items, ds, sols, strict=True):
        n, m, p = batch.n, batch.m, batch.p
        size = n + m + p
        K = np.zeros((size, size))
        K[:n, :n] = item.Q
        degenerate = np.zeros(m, dtype=bool)
        if item.G is not None:
            K[:n, n : n + m] = item.G.T
            degenerate = _degenerate_rows(slack, lam, slack_tol, degenerate_tol)
            if bool(np.any(degenerate)):
                warnings.warn(
                    f"rows {np.flatnonzero(degenerate).tolist()} are weakly active "
                    "(slack and multiplier ~ 0): y* is not differentiable there; "
                    "treating them as active (one-sided gradient)",
                    DegenerateQPWarning,
                    stacklevel=2,
                )
            for i in range(m):
                if degenerate[i]:
                    K[n + i, :n] = item.G[i]
                else:
                    K[n + i, :n] = lam[i] * item.G[i]
                    K[n + i, n + i] = -slack[i]
        if item.A is not None:
            K[:n, n + m :] = item.A.T
            K[n + m :, :n] = item.A
        rhs = np.zeros(size)
        rhs[:n] = -d
        try:
            sol = _f64(np.linalg.solve(K, rhs))
        except np.linalg.LinAlgError as exc:
            raise ValueError(
                "KKT matrix is singular: the active constraints are linearly dependent (LICQ fails)"
            ) from exc
        dz, dlam_s, dnu = sol[:n], sol[n : n + m], sol[n + m :]
        grads = {"Q": 0.5 * (np.outer(dz, y) + np.outer(y, dz)), "q": dz}
        if item.G is not None:
            grads["G"] = np.outer(dlam_s, y) + np.outer(lam, dz)
            grads["h"] = -dlam_s
        if item.A is not None:
            grads["A"] = np.outer(dnu, y) + np.outer(nu, dz)
            grads["b"] = -dnu
        per_item.append(grads)
        masks.append((lam > 0) | degenerate)
    return _assemble(batch, per_item, masks)


# -------------------------------------------------------------------- A2: active set, ghost


def active_set(
    slack: ArrayLike,
    lam: ArrayLike | None,
    *,
    slack_tol: float = _FFO.slack_tol,
    dual_cutoff: float = _FFO.dual_cutoff,
) -> BoolArray:
    """The frozen active set ``I = {i : s_i <= slack_tol and λ*_i >= dual_cutoff}``.

    Args:
        slack: ``(m,)`` or ``(B, m)`` slacks ``h − G y*``.
        lam: same shape: multipliers ``λ*``.
        slack_tol: slack threshold (default: :class:`FFOConfig`'s, the public code's).
        dual_cutoff: multiplier threshold (default: :class:`FFOConfig`'s; the general layer
            uses 1e-3).

    Returns:
        Boolean mask of the shape of ``slack``.

    Raises:
        TypeError: non-numeric input.
        ValueError: shape mismatch, empty or non-finite input, negative thresholds.

    Example:
        >>> active_set([0.0, 0.5], [1.0, 0.0]).tolist()
        [True, False]

    References:
        Spec 03 Section 2 ("Active set").
    """
    s = as_float_array("slack", slack)
    la = as_float_array("lam", lam, shape=s.shape)
    if s.ndim not in (1, 2):
        raise ValueError(f"slack: expected shape (m,) or (B, m), got {s.shape}")
    st = require_positive("slack_tol", slack_tol, allow_zero=True)
    dc = require_positive("dual_cutoff", dual_cutoff, allow_zero=True)
    mask: BoolArray = (s <= st) & (la >= dc)
    return mask


def _ghost_rows(
    item: _QP, lam: FloatArray, slack: FloatArray, cfg: FFOConfig
) -> tuple[FloatArray | None, FloatArray | None, BoolArray]:
    """``C = [G_I; A]``, ``c = [h_I; b]`` and the mask of ``I`` after rank repair."""
    n = item.Q.shape[0]
    m = 0 if item.G is None else item.G.shape[0]
    mask = np.zeros(m, dtype=bool)
    if item.G is not None and item.h is not None:
        mask = (slack <= cfg.slack_tol) & (lam >= cfg.dual_cutoff)
        degenerate = _degenerate_rows(slack, lam, cfg.slack_tol, cfg.degenerate_tol) & mask
        if bool(np.any(degenerate)):
            warnings.warn(
                f"rows {np.flatnonzero(degenerate).tolist()} are weakly active (slack and "
                "multiplier ~ 0): y* is not differentiable there; the gradient is one-sided",
                DegenerateQPWarning,
                stacklevel=3,
            )

    def stacked(msk: BoolArray) -> tuple[FloatArray | None, FloatArray | None]:
        rows: list[FloatArray] = []
        rhs: list[FloatArray] = []
        if item.G is not None and item.h is not None and bool(np.any(msk)):
            rows.append(item.G[msk])
            rhs.append(item.h[msk])
        if item.A is not None and item.b is not None:
            rows.append(item.A)
            rhs.append(item.b)
        if not rows:
            return None, None
        return np.concatenate(rows, axis=0), np.concatenate(rhs)

    def full_rank(C: FloatArray | None) -> bool:
        if C is None:
            return True
        if C.shape[0] > n:
            return False
        sv = np.linalg.svd(C, compute_uv=False)
        return bool(sv[-1] > 1e-10 * max(1.0, float(sv[0])))

    def surely_full_rank(C: FloatArray | None) -> bool:
        # cheap test first (Cholesky of C Cᵀ, pivots well away from 0); SVD only if it fails
        if C is None:
            return True
        if C.shape[0] > n:
            return False
        try:
            d = np.diag(np.linalg.cholesky(C @ C.T))
        except np.linalg.LinAlgError:
            return False
        return bool(float(np.min(d)) > 1e-6 * max(1.0, float(np.max(d))))

    C, c = stacked(mask)
    if not surely_full_rank(C) and not full_rank(C):
        dropped = []
        while not full_rank(C) and bool(np.any(mask)):
            idx = np.flatnonzero(mask)
            worst_row = int(idx[np.argmin(lam[idx])])
            mask[worst_row] = False
            dropped.append(worst_row)
            C, c = stacked(mask)
        warnings.warn(
            f"C = [G_I; A] is rank deficient; dropped rows {dropped} (smallest λ*)",
            RankDeficientWarning,
            stacklevel=3,
        )
    return C, c, mask


class _GhostSolver:
    """Exact solves of the ghost problem ``P(t)`` via Cholesky of ``Q`` and the Schur
    complement ``C Q⁻¹ Cᵀ`` (both factored once)."""

    def __init__(self, Q: FloatArray, C: FloatArray | None) -> None:
        self.factor = scipy.linalg.cho_factor(Q)
        self.C = C
        if C is not None:
            self.QinvCt = scipy.linalg.cho_solve(self.factor, C.T)
            self.schur = scipy.linalg.cho_factor(C @ self.QinvCt)

    def solve(self, rhs: FloatArray, c: FloatArray | None) -> tuple[FloatArray, FloatArray]:
        """Solve ``[Q Cᵀ; C 0][y; w] = [rhs; c]``."""
        base = scipy.linalg.cho_solve(self.factor, rhs)
        if self.C is None or c is None:
            return base, _empty()
        w = scipy.linalg.cho_solve(self.schur, self.C @ base - c)
        return base - self.QinvCt @ w, w


def ghost_pgd(
    Q: ArrayLike,
    q: ArrayLike,
    C: ArrayLike | None,
    c: ArrayLike | None,
    grad_x: ArrayLike,
    y0: ArrayLike,
    *,
    alpha: float,
    max_iter: int = _FFO.max_inner,
    tol: float = _FFO.inner_tol,
    record: bool = False,
) -> GhostPGDResult:
    """Warm-started projected gradient descent on the tilted ghost problem (spec 03 A2-FO).

    Minimises ``½yᵀQy + qᵀy + (1/α) dᵀy`` over the affine set ``{C y = c}``:

        Π = I − C⁺C,  η = 1/L_g,  y^{k+1} = y^k − η Π(Q y^k + q + d/α),

    stopping when ``‖Π(Q y^k + q + d/α)‖ <= tol/α`` or after ``max_iter`` steps; the
    multipliers are ``w = −argmin_w ‖Cᵀw + (Q y^K + q + d/α)‖₂``.  Started at ``y* = y_0``
    (the untilted solution) the error obeys ``α‖y^K − y_α‖ <= (1 − μ_P/L_g)^K ‖d_z‖``,
    independent of ``α`` (spec 03 T3).

    Args:
        Q: ``(n, n)`` symmetric positive definite (``L_g = λ_max(Q)``).
        q: ``(n,)``.
        C: ``(k, n)`` constraint matrix (``None`` for no constraints).
        c: ``(k,)`` right-hand side (``None`` with ``C``).
        grad_x: ``(n,)`` tilt direction ``d``.
        y0: ``(n,)`` warm start (``C y0 = c`` expected; the iterates stay in ``y0 + null(C)``).
        alpha: ``α > 0``.
        max_iter: step cap ``K_max >= 0`` (default: :class:`FFOConfig`'s ``max_inner``).
        tol: stopping tolerance ``> 0`` (default: :class:`FFOConfig`'s ``inner_tol``).
        record: keep every iterate in ``history``.

    Returns:
        :class:`GhostPGDResult`.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite values, ``Q`` not SPD, ``alpha <= 0``.

    Example:
        >>> r = ghost_pgd([[1.0, 0.0], [0.0, 1.0]], [0.0, 0.0], [[1.0, 0.0]], [0.0],
        ...               [0.0, 1.0], [0.0, 0.0], alpha=10.0)
        >>> [round(float(v), 9) for v in r.y], r.converged
        ([0.0, -0.1], True)
    """
    a = require_positive("alpha", alpha)
    max_iter = require_int("max_iter", max_iter, minimum=0)
    tol = require_positive("tol", tol)
    Qa = as_float_array("Q", Q, ndim=2)
    if Qa.shape[0] != Qa.shape[1]:
        raise ValueError(f"Q: expected a square (n, n) matrix, got shape {Qa.shape}")
    _check_spd(Qa)
    n = Qa.shape[0]
    qa = as_float_array("q", q, shape=(n,))
    d = as_float_array("grad_x", grad_x, shape=(n,))
    y = as_float_array("y0", y0, shape=(n,))
    if (C is None) != (c is None):
        raise ValueError("C, c: expected both or neither")
    if C is not None:
        Ca = as_float_array("C", C, ndim=2)
        if Ca.shape[1] != n:
            raise ValueError(f"C: expected shape (k, {n}), got shape {Ca.shape}")
        as_float_array("c", c, shape=(Ca.shape[0],))
        proj = np.eye(n) - np.linalg.pinv(Ca) @ Ca
    else:
        Ca = np.zeros((0, n))
        proj = np.eye(n)
    eta = 1.0 / float(np.linalg.eigvalsh(0.5 * (Qa + Qa.T))[-1])
    tilt = qa + d / a
    history = [y.copy()] if record else []
    converged = False
    k = 0
    for k in range(max_iter + 1):
        g = proj @ (Qa @ y + tilt)
        if float(np.linalg.norm(g)) <= tol / a:
            converged = True
            break
        if k == max_iter:
            break
        y = y - eta * g  # spec A2-FO: y^{k+1} = y^k − η Π(Q y^k + q + d/α)
        if record:
            history.append(y.copy())
    grad = Qa @ y + tilt
    residual = a * float(np.linalg.norm(proj @ grad))
    w = _f64(-np.linalg.lstsq(Ca.T, grad, rcond=None)[0]) if Ca.shape[0] else _empty()
    hist = np.array(history) if record else np.zeros((0, n))
    return GhostPGDResult(
        y=readonly(y),
        multipliers=readonly(w),
        iterations=k,
        converged=converged,
        residual=residual,
        history=readonly(hist),
    )


def _ffo_one(
    item: _QP,
    d: FloatArray,
    y: FloatArray,
    lam: FloatArray,
    nu: FloatArray,
    slack: FloatArray,
    a: float,
    cfg: FFOConfig,
) -> tuple[dict[str, FloatArray], BoolArray, int, bool]:
    """FFO gradient of one (unbatched) QP: ``(grads, mask of I, inner iterations, converged)``."""
    C, c, mask = _ghost_rows(item, lam, slack, cfg)
    k_in = int(mask.sum())
    m = mask.shape[0]
    need_exact = cfg.inner == "exact" or cfg.difference == "central"
    exact = _GhostSolver(item.Q, C) if need_exact else None

    def tilted(t: float) -> tuple[FloatArray, FloatArray, FloatArray, int, bool]:
        # ghost problem P(t): min ½yᵀQy + qᵀy + t dᵀy  s.t.  C y = c   (spec A2 step 2-3)
        if exact is None:
            r = ghost_pgd(
                item.Q,
                item.q,
                C,
                c,
                d,
                y,
                alpha=1.0 / t,
                max_iter=cfg.max_inner,
                tol=cfg.inner_tol,
            )
            yt = np.array(r.y, dtype=np.float64)
            w = np.array(r.multipliers, dtype=np.float64)
            it, ok = r.iterations, r.converged
        else:
            yt, w = exact.solve(-item.q - t * d, c)
            it, ok = 0, True
        mu_full = np.zeros(m)
        mu_full[mask] = w[:k_in]
        return yt, mu_full, w[k_in:], it, ok

    if cfg.difference == "forward":
        y1, mu1, nu1, it, ok = tilted(1.0 / a)
        lam_I = np.where(mask, lam, 0.0)
        g1 = _lagrangian_grads(item, y1, mu1, nu1)
        g0 = _lagrangian_grads(item, y, lam_I, nu)  # spec A2 step 4: base point (y*, λ*_I, ν*)
        return {key: a * (g1[key] - g0[key]) for key in g1}, mask, it, ok
    y1, mu1, nu1, _, _ = tilted(1.0 / a)
    ym, mum, num, _, _ = tilted(-1.0 / a)
    g1 = _lagrangian_grads(item, y1, mu1, nu1)
    gm = _lagrangian_grads(item, ym, mum, num)
    return {key: 0.5 * a * (g1[key] - gm[key]) for key in g1}, mask, 0, True


def ffo_grads(
    Q: ArrayLike,
    q: ArrayLike,
    G: ArrayLike | None,
    h: ArrayLike | None,
    A: ArrayLike | None,
    b: ArrayLike | None,
    grad_x: ArrayLike,
    *,
    alpha: float = 100.0,
    config: FFOConfig | None = None,
    solution: QPSolution | None = None,
) -> QPGrads:
    """FFOLayer hypergradient: frozen active set, tilted ghost problem, difference × ``α``.

    With ``I`` the active set (:func:`active_set`; rows dropped if ``C = [G_I; A]`` is
    rank deficient), the ghost problem at tilt ``t`` is
    ``P(t) = min ½yᵀQy + qᵀy + t·dᵀy  s.t.  C y = c`` with solution ``(y_t, μ_t, ν_t)``.
    Solve ``P(1/α)`` and return the forward difference of the envelope gradients of
    ``𝓛 = ½yᵀQy + qᵀy + μᵀ(G_I y − h_I) + νᵀ(Ay − b)``:

        ĝ_q = α(y_α − y*),   ĝ_Q = (α/2)(y_α y_αᵀ − y* y*ᵀ),
        ĝ_{G_I} = α(μ_α y_αᵀ − λ*_I y*ᵀ),  ĝ_{h_I} = −α(μ_α − λ*_I)  (0 on rows ∉ I),
        ĝ_A = α(ν_α y_αᵀ − ν* y*ᵀ),        ĝ_b = −α(ν_α − ν*).

    ``ĝ_q, ĝ_h, ĝ_b`` are exact for every ``α``; ``ĝ_Q − ∇_Q = d_z d_zᵀ/(2α)``,
    ``ĝ_{G_I} − ∇_{G_I} = d_μ d_zᵀ/α``, ``ĝ_A − ∇_A = d_ν d_zᵀ/α`` (spec 03 A2, verified).

    Args:
        Q, q, G, h, A, b: the QP (see :func:`solve_qp`; batched allowed).
        grad_x: ``(n,)`` or ``(B, n)``: upstream gradient ``d``.
        alpha: ``α > 0`` (public default 100).
        config: :class:`FFOConfig` (active-set thresholds, inner solver, difference).
        solution: a :class:`QPSolution` of this QP (solved here when ``None``); its
            ``(y*, λ*, ν*)`` is the base point of the difference.

    Returns:
        :class:`QPGrads`; ``active`` is the frozen set ``I``; ``iterations``/``converged``
        report the first-order inner solver (0 / True for the exact one).

    Raises:
        TypeError: non-numeric input.
        ValueError: as :func:`solve_qp`; bad ``grad_x``; ``alpha <= 0`` or non-finite.

    Warns:
        DegenerateQPWarning: a row of ``I`` has ``λ*_i ≈ 0`` (one-sided gradient).
        RankDeficientWarning: rows were dropped from ``C``.

    Example:
        >>> g = ffo_grads([[2.0]], [-2.0], None, None, None, None, [1.0], alpha=100.0)
        >>> round(float(g.q[0]), 12), round(float(g.Q[0, 0]), 12)
        (-0.5, -0.49875)

    Variant:
        ``config.difference="central"`` returns ``(α/2)[∇𝓛(t = 1/α) − ∇𝓛(t = −1/α)]``
        (our extension, exact for QPs); ``config.inner="first_order"`` replaces the KKT
        solve of ``P(1/α)`` by :func:`ghost_pgd`.  Unlike the public ``FFOQPLayer`` we
        evaluate the constraint terms at ``y_α`` (keeping ``λ* d_zᵀ`` and ``ν* d_zᵀ``) and
        symmetrise nothing: ``ĝ_Q`` is symmetric by construction (spec 03 A3 (a), (c)).

    References:
        Spec 03 Section 3, A2 and A2-FO; Zhao et al., "A Fully First-Order Layer for
        Differentiable Optimization", ICML 2026, arXiv:2512.02494.
    """
    a = require_positive("alpha", alpha)
    cfg = config if config is not None else FFOConfig()
    if not isinstance(cfg, FFOConfig):
        raise TypeError(f"config: expected an FFOConfig, got {type(cfg).__name__}")
    batch = _parse(Q, q, G, h, A, b)
    ds = _parse_grad(grad_x, batch)
    sols = _parse_solution(solution, batch, QPSolverConfig())
    per_item: list[dict[str, FloatArray]] = []
    masks: list[BoolArray] = []
    iters = 0
    conv = True
    for item, d, (y, lam, nu, slack) in zip(batch.items, ds, sols, strict=True):
        grads, mask, it, ok = _ffo_one(item, d, y, lam, nu, slack, a, cfg)
        iters = max(iters, it)
        conv = conv and ok
        per_item.append(grads)
        masks.append(mask)
    return _assemble(batch, per_item, masks, iterations=iters, converged=conv)


# ----------------------------------------------------------------------------- A4: penalty
def penalty_grads(
    Q: ArrayLike,
    q: ArrayLike,
    G: ArrayLike | None,
    h: ArrayLike | None,
    A: ArrayLike | None,
    b: ArrayLike | None,
    grad_x: ArrayLike,
    *,
    penalty: float = 100.0,
    config: PenaltyConfig | None = None,
    solution: QPSolution | None = None,
) -> QPGrads:
    """Penalty-based first-order hypergradient (spec 03 A4; older ``ffoqp.py``).

    With weights ``ω_i`` (1 on active rows, or ``tanh(10 λ*_i)``), solve the
    unconstrained strongly convex problem

        y_p = argmin (1/λ_p) dᵀy + ½yᵀQy + qᵀy + λ*ᵀ(Gy − h) + ν*ᵀ(Ay − b)
                      + (λ_p/2) Σ_i ω_i (G_i y − h_i)² + (λ_p/2)‖Ay − b‖²

    and return ``∇_θ`` of ``λ_p·[Φ_p(θ; y_p) − 𝓛(θ; y*, λ*, ν*)]`` with ``y_p, y*, λ*,
    ν*`` held fixed (envelope theorem), ``Φ_p`` the objective above.  Error
    ``‖λ_p(y_p − y*) − d_z‖ = O(1/λ_p)``; the inner Hessian ``Q + λ_p CᵀC`` has
    condition number ``Θ(λ_p)`` (spec 03 T5).

    Args:
        Q, q, G, h, A, b: the QP (see :func:`solve_qp`; batched allowed).
        grad_x: ``(n,)`` or ``(B, n)`` upstream gradient ``d``.
        penalty: ``λ_p > 0`` (public default 100).
        config: :class:`PenaltyConfig`.
        solution: a :class:`QPSolution` (solved here when ``None``).

    Returns:
        :class:`QPGrads` (``active`` = rows with weight 1 under the mask rule).

    Raises:
        TypeError: non-numeric input.
        ValueError: as :func:`solve_qp`; bad ``grad_x``; ``penalty <= 0``.

    Example:
        >>> g = penalty_grads([[2.0]], [-2.0], None, None, None, None, [1.0], penalty=100.0)
        >>> round(float(g.q[0]), 12)
        -0.5

    Variant:
        We subtract the full Lagrangian ``𝓛(θ; y*, λ*, ν*)`` at the base point (its value
        equals ``g(θ, y*)`` but its θ-gradient cancels the ``−λ_p λ*`` term that
        the literal ``g(θ, y_p) − g(θ, y*)`` form leaves in ``∇_h``, ``∇_G``, ``∇_b``, ``∇_A``).

    References:
        Spec 03 A4; G. Kornowski, S. Padmanabhan, K. Wang, Z. Zhang, S. Sra,
        "First-order methods for linearly constrained bilevel optimization" (2024).
    """
    lp = require_positive("penalty", penalty)
    cfg = config if config is not None else PenaltyConfig()
    if not isinstance(cfg, PenaltyConfig):
        raise TypeError(f"config: expected a PenaltyConfig, got {type(cfg).__name__}")
    batch = _parse(Q, q, G, h, A, b)
    ds = _parse_grad(grad_x, batch)
    sols = _parse_solution(solution, batch, QPSolverConfig())
    per_item = []
    masks = []
    for item, d, (y, lam, nu, slack) in zip(batch.items, ds, sols, strict=True):
        H = item.Q.copy()
        rhs = -item.q - d / lp
        mask = np.zeros(batch.m, dtype=bool)
        omega = np.zeros(batch.m)
        if item.G is not None and item.h is not None:
            mask = slack <= cfg.slack_tol
            omega = mask.astype(np.float64) if cfg.active_weight == "mask" else np.tanh(10.0 * lam)
            H = H + lp * item.G.T @ (omega[:, None] * item.G)
            rhs = rhs - item.G.T @ lam + lp * item.G.T @ (omega * item.h)
        if item.A is not None and item.b is not None:
            H = H + lp * item.A.T @ item.A
            rhs = rhs - item.A.T @ nu + lp * item.A.T @ item.b
        yp = scipy.linalg.cho_solve(scipy.linalg.cho_factor(H), rhs)
        grads = {"Q": lp * 0.5 * (np.outer(yp, yp) - np.outer(y, y)), "q": lp * (yp - y)}
        if item.G is not None and item.h is not None:
            viol = omega * (item.G @ yp - item.h)
            grads["G"] = lp * (np.outer(lam, yp - y) + lp * np.outer(viol, yp))
            grads["h"] = -lp * lp * viol
        if item.A is not None and item.b is not None:
            eviol = item.A @ yp - item.b
            grads["A"] = lp * (np.outer(nu, yp - y) + lp * np.outer(eviol, yp))
            grads["b"] = -lp * lp * eviol
        per_item.append(grads)
        masks.append(mask)
    return _assemble(batch, per_item, masks)
