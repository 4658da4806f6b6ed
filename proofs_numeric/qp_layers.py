"""FFOLayer (spec 03, ICML 2026) theorem checks, measured on runs of :mod:`reference.qp_layers`.

One function per claim, each returning a :class:`~proofs_numeric.BoundCheck` for one
instance; registered drivers build instances from the profile seed and report the
worst one.  The paper's body (exact theorem constants) could not be retrieved; the
QP statements below are the spec's reconstructed/verified forms:

* :func:`ghost_equivalence` — T1: A1 (KKT) equals the ghost-problem Jacobian (A2, central).
* :func:`exact_blocks` — T2: ``ĝ_q, ĝ_h, ĝ_b`` exact for every ``α``.
* :func:`rank_one_error` — T2 / A2: ``α(ĝ − ∇)`` equals the rank-one terms.
* :func:`error_rate` — T2: ``log‖ĝ_Q − ∇_Q‖`` vs ``log α`` has slope −1.
* :func:`pgd_contraction`, :func:`pgd_alpha_independence`, :func:`pgd_rate` — T3 (A2-FO).
* :func:`penalty_rate`, :func:`penalty_condition` — T5 (A4 comparison).
* :func:`active_set_identification` — the frozen set ``I`` equals the true active set.
* :func:`thin_margins` — gradients called without ``solution=`` on QPs with a multiplier, a
  slack and both at (or near) zero equal the planted active set's implicit gradient.
* :func:`active_set_rule` — ``I = {s_i <= slack_tol, λ_i >= dual_cutoff}`` at exact ties.

Error budgets are documented at each constant; no measured value is hard-coded.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.linalg

from proofs_numeric._registry import ProveProfile, impl, register, worst
from proofs_numeric._result import BoundCheck
from reference import qp_layers as ql
from reference._arrays import FloatArray
from reference.qp_layers.instances import QPInstance, planted_qp

__all__ = [
    "ACTIVE_SET_MISMATCHES",
    "EXACT_BLOCK_RTOL",
    "GHOST_ATOL",
    "PENALTY_SLOPE_ATOL",
    "PGD_ALPHA_RTOL",
    "RANK_ONE_RTOL",
    "RATE_SLOPE_ATOL",
    "THIN_MARGIN",
    "THIN_RTOL",
    "active_set_identification",
    "active_set_rule",
    "error_rate",
    "exact_blocks",
    "ghost_equivalence",
    "instance",
    "penalty_condition",
    "penalty_rate",
    "pgd_alpha_independence",
    "pgd_contraction",
    "pgd_rate",
    "rank_one_error",
    "thin_instance",
    "thin_margins",
]

_PAPER = "Zhao et al., FFOLayer (ICML 2026)"
#: T1: max |A1 − A2 central| (spec: 1e-8); both are exact for QPs, so only rounding remains.
GHOST_ATOL = 1e-8
#: T2: ‖ĝ − ∇‖∞ ≤ 1e-8 (1 + ‖∇‖∞) for the q, h, b blocks and α ≤ 1e4 (spec); rounding of the
#: difference is α·u·‖y*‖ ≈ 1e4 · 2.2e-16 · 10 ≈ 2e-11, far inside.
EXACT_BLOCK_RTOL = 1e-8
#: T2 / A2: α(ĝ − ∇) equals the rank-one terms to 1e-7 relative (spec), for α ≤ 1e3 where the
#: α²·u·‖y*‖² rounding (≈ 1e6 · 2.2e-16 · 100 ≈ 2e-8) stays below it.
RANK_ONE_RTOL = 1e-7
#: T2: fitted slope of log‖ĝ_Q − ∇_Q‖ vs log α over α ∈ {10, …, 1e5}: −1 ± 0.02 (spec).
RATE_SLOPE_ATOL = 0.02
#: T3: α‖y^K − y_α‖ agrees across α ∈ {10, 1e3, 1e5} to 1e-6 relative (spec), plus the
#: rounding budget below at the largest α.
PGD_ALPHA_RTOL = 1e-6
#: T3: absolute slack of the contraction inequality (spec: 1e-9) ...
PGD_SLACK = 1e-9
#: ... plus the rounding floor of A2-FO in float64.  The spec's note predicts ≈ α·u·‖y*‖; the
#: computed projection Π(Q y + q) of the O(1) vector −Cᵀλ* carries an error ≈ u·‖Qy* + q‖·cond(C),
#: which PGD turns into an offset /μ_P, so we budget PGD_ROUNDING·α·F with the a-priori
#: F = u·(1 + ‖Q y*‖ + ‖q‖)·cond(C)/μ_P.  Calibration (not of the theorem's quantity, of the
#: noise): the measured floor α‖y^400 − y_α‖ / (α F) was ≤ 136 on 80 planted instances.
PGD_ROUNDING = 1e3
#: T3: the fitted rate may be up to 10% less steep than log(1 − μ_P/L_g) (spec); only K whose
#: bound ρ^K‖d_z‖ stays ≥ RATE_FLOOR_FACTOR × the rounding floor enter the fit.
PGD_RATE_FRACTION = 0.9
RATE_FLOOR_FACTOR = 100.0
#: T5: slopes −1 (error) and +1 (condition number) within ±0.1 on λ_p ∈ [10, 1e4] (spec).
PENALTY_SLOPE_ATOL = 0.1
#: Active-set identification: no row may be misclassified.
ACTIVE_SET_MISMATCHES = 0
_U = float(np.finfo(np.float64).eps)
#: Thin margins: the multiplier of one active row and the slack of one inactive row.  An interior
#: point stopped at ``μ = sᵀλ/m ≈ 1e-10`` leaves that row at ``s ≈ μ/λ ≈ 1e-4``: any rule that
#: reads the active set from it (``λ_i > s_i``, ``s_i <= 1e-8``) misses the row.
THIN_MARGIN = 1e-6
#: Thin margins: gradients and solution to 1e-6 relative.  A gradient on an active set one row off
#: misses by order 1 (0.3 to 1.6 relative on these sizes); the exact ones sit at the KKT system's
#: rounding (1e-9 measured for kkt_grads when a weakly active row enters with λ ≈ 1e-10).
THIN_RTOL = 1e-6

Ffo = Callable[..., Any]


def instance(
    seed: int,
    *,
    n: int,
    m: int,
    p: int,
    k: int,
    spectrum: tuple[float, float] | None = None,
    row_scale: float | None = None,
) -> QPInstance:
    """A planted QP (spec 03 T1 generator); ``spectrum=(lo, hi)`` fixes ``eig(Q) ⊂ [lo, hi]``;
    ``row_scale`` makes the active rows orthogonal with that norm (see ``planted_qp``)."""
    rng = np.random.default_rng(seed)
    Q = None
    if spectrum is not None:
        U = np.linalg.qr(rng.standard_normal((n, n)))[0]
        eigs = np.concatenate([[spectrum[0], spectrum[1]], rng.uniform(*spectrum, n - 2)])[:n]
        Q = (U * eigs) @ U.T
    return planted_qp(rng, n=n, m=m, p=p, k=k, Q=Q, row_scale=row_scale)


def _upstream(inst: QPInstance, seed: int) -> FloatArray:
    n = int(inst.Q.shape[0])
    return np.asarray(np.random.default_rng(seed + 7).standard_normal(n), dtype=np.float64)


def _params(inst: QPInstance, **extra: object) -> dict[str, object]:
    return {
        "n": int(inst.Q.shape[0]),
        "m": 0 if inst.G is None else int(inst.G.shape[0]),
        "p": 0 if inst.A is None else int(inst.A.shape[0]),
        "active": int(inst.active.sum()),
        **extra,
    }


def _ghost(inst: QPInstance) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(C, c, N)``: active constraint rows, right-hand side, orthonormal null-space basis."""
    n = inst.Q.shape[0]
    rows: list[FloatArray] = []
    rhs: list[FloatArray] = []
    if inst.G is not None and inst.h is not None:
        rows.append(inst.G[inst.active])
        rhs.append(inst.h[inst.active])
    if inst.A is not None and inst.b is not None:
        rows.append(inst.A)
        rhs.append(inst.b)
    C = np.concatenate(rows, axis=0) if rows else np.zeros((0, n))
    c = np.concatenate(rhs) if rhs else np.zeros(0)
    N = scipy.linalg.null_space(C) if C.shape[0] else np.eye(n)
    return C, c, N


def _rounding_floor(inst: QPInstance, mu_p: float) -> float:
    """A-priori rounding scale ``F = u·(1 + ‖Q y*‖ + ‖q‖)·cond(C)/μ_P`` of A2-FO (per unit α)."""
    C, _, _ = _ghost(inst)
    cond = float(np.linalg.cond(C)) if C.shape[0] else 1.0
    size = 1.0 + float(np.linalg.norm(inst.Q @ inst.y)) + float(np.linalg.norm(inst.q))
    return _U * size * cond / mu_p


def _slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    return float(np.polyfit(np.asarray(xs), np.asarray(ys), 1)[0])


# -------------------------------------------------------------------------------- T1, T2
def ghost_equivalence(inst: QPInstance, d: FloatArray) -> BoundCheck:
    """T1: the KKT Jacobian (A1) equals the ghost-problem Jacobian (A2, central difference).

    Measured: ``max_blocks max|∇_A1 − ∇_A2c|``; bound ``GHOST_ATOL``.
    """
    args = inst.args()
    sol = ql.solve_qp(*args)
    exact = impl(ql.kkt_grads)(*args, d, solution=sol)
    cfg = ql.FFOConfig(difference="central")
    ghost = impl(ql.ffo_grads)(*args, d, alpha=100.0, config=cfg, solution=sol)
    diff = max(
        float(np.max(np.abs(a - b)))
        for a, b in zip(exact.as_tuple(), ghost.as_tuple(), strict=True)
        if a is not None and b is not None
    )
    return BoundCheck(
        claim="A1 (KKT implicit differentiation) = ghost-problem Jacobian (A2, central difference)",
        paper=_PAPER,
        theorem="T1 (ghost equivalence, reconstructed)",
        measured=diff,
        bound=GHOST_ATOL,
        sense="<=",
        params=_params(inst),
    )


def exact_blocks(
    inst: QPInstance,
    d: FloatArray,
    *,
    ffo: Ffo = ql.ffo_grads,
    alphas: Sequence[float] = (10.0, 1e2, 1e3, 1e4),
) -> BoundCheck:
    """T2: ``ĝ_q, ĝ_h, ĝ_b`` equal A1 for every ``α`` (spec 03 A2 error structure).

    Measured: ``max_α max_blocks ‖ĝ − ∇‖∞ / (1 + ‖∇‖∞)``; bound ``EXACT_BLOCK_RTOL``.
    """
    args = inst.args()
    sol = ql.solve_qp(*args)
    exact = impl(ql.kkt_grads)(*args, d, solution=sol)
    worst_err = 0.0
    for alpha in alphas:
        got = impl(ffo)(*args, d, alpha=alpha, solution=sol)
        for name in ("q", "h", "b"):
            e, g = getattr(exact, name), getattr(got, name)
            if e is None:
                continue
            worst_err = max(
                worst_err, float(np.max(np.abs(g - e))) / (1 + float(np.max(np.abs(e))))
            )
    return BoundCheck(
        claim="FFO blocks q, h, b are exact for every α (forward difference of an affine map)",
        paper=_PAPER,
        theorem="T2 / A2 (verified error structure)",
        measured=worst_err,
        bound=EXACT_BLOCK_RTOL,
        sense="<=",
        params=_params(inst, alphas=tuple(alphas)),
    )


def _exact_limit(ffo: Ffo) -> bool:
    """Whether the FFO implementation in use declares the ``α → ∞`` limit (an attribute
    ``exact_limit = True``, e.g. FFOLayer's ``exact_bwd_sol=True``): T2's
    ``O(1/α)`` law is then replaced by ``ĝ = ∇`` on every block, to ``EXACT_BLOCK_RTOL``."""
    return bool(getattr(impl(ffo), "exact_limit", False))


def _limit_error(inst: QPInstance, d: FloatArray, ffo: Ffo, alphas: Sequence[float]) -> float:
    """``max_α max_blocks ‖ĝ − ∇‖∞ / (1 + ‖∇‖∞)`` (Q, G, A) of a declared exact limit."""
    args = inst.args()
    sol = ql.solve_qp(*args)
    exact = impl(ql.kkt_grads)(*args, d, solution=sol)
    worst_err = 0.0
    for alpha in alphas:
        got = impl(ffo)(*args, d, alpha=alpha, solution=sol)
        for name in ("Q", "G", "A"):
            want = getattr(exact, name)
            if want is not None:
                err = float(np.max(np.abs(np.asarray(getattr(got, name)) - want)))
                worst_err = max(worst_err, err / (1 + float(np.max(np.abs(want)))))
    return worst_err


def _limit_check(inst: QPInstance, d: FloatArray, ffo: Ffo, alphas: Sequence[float]) -> BoundCheck:
    return BoundCheck(
        claim="declared exact limit (α → ∞): ĝ equals the exact hypergradient on Q, G, A",
        paper=_PAPER,
        theorem="T2 (limit α → ∞, declared)",
        measured=_limit_error(inst, d, ffo, alphas),
        bound=EXACT_BLOCK_RTOL,
        sense="<=",
        params=_params(inst, alphas=tuple(alphas)),
    )


def rank_one_error(
    inst: QPInstance,
    d: FloatArray,
    *,
    ffo: Ffo = ql.ffo_grads,
    alphas: Sequence[float] = (10.0, 1e2, 1e3),
) -> BoundCheck:
    """T2 / A2: ``α(ĝ_Q − ∇_Q) = ½d_z d_zᵀ``, ``α(ĝ_G − ∇_G) = d_μ d_zᵀ``, ``α(ĝ_A − ∇_A) = d_ν d_zᵀ``.

    Measured: ``max_α max_blocks ‖α(ĝ − ∇) − T‖∞ / (1 + ‖T‖∞)``; bound ``RANK_ONE_RTOL``.
    A declared exact limit (:func:`_exact_limit`) is checked against ``∇`` instead.
    """
    if _exact_limit(ffo):
        return _limit_check(inst, d, ffo, alphas)
    args = inst.args()
    sol = ql.solve_qp(*args)
    exact = impl(ql.kkt_grads)(*args, d, solution=sol)
    dz = np.array(exact.q)
    terms: dict[str, FloatArray] = {"Q": 0.5 * np.outer(dz, dz)}
    if exact.h is not None:
        terms["G"] = np.outer(-np.array(exact.h), dz)
    if exact.b is not None:
        terms["A"] = np.outer(-np.array(exact.b), dz)
    worst_err = 0.0
    for alpha in alphas:
        got = impl(ffo)(*args, d, alpha=alpha, solution=sol)
        for name, term in terms.items():
            dev = alpha * (getattr(got, name) - getattr(exact, name)) - term
            worst_err = max(
                worst_err, float(np.max(np.abs(dev))) / (1 + float(np.max(np.abs(term))))
            )
    return BoundCheck(
        claim="α(ĝ − ∇) equals the rank-one terms ½d_z d_zᵀ (Q), d_μ d_zᵀ (G), d_ν d_zᵀ (A)",
        paper=_PAPER,
        theorem="T2 / A2 (verified error structure)",
        measured=worst_err,
        bound=RANK_ONE_RTOL,
        sense="<=",
        params=_params(inst, alphas=tuple(alphas)),
    )


def error_rate(
    inst: QPInstance,
    d: FloatArray,
    *,
    ffo: Ffo = ql.ffo_grads,
    alphas: Sequence[float] = (10.0, 1e2, 1e3, 1e4, 1e5),
) -> BoundCheck:
    """T2: the fitted slope of ``log‖ĝ_Q − ∇_Q‖_F`` against ``log α`` is −1.

    Measured: the least-squares slope; bound −1, sense ``==``, atol ``RATE_SLOPE_ATOL``.
    A declared exact limit (:func:`_exact_limit`) has no rate: checked against ``∇`` instead.
    """
    if _exact_limit(ffo):
        return _limit_check(inst, d, ffo, alphas)
    args = inst.args()
    sol = ql.solve_qp(*args)
    exact = impl(ql.kkt_grads)(*args, d, solution=sol)
    errs = []
    for alpha in alphas:
        got = impl(ffo)(*args, d, alpha=alpha, solution=sol)
        errs.append(max(float(np.linalg.norm(got.Q - exact.Q)), 1e-300))
    logs_a = [float(np.log(a)) for a in alphas]
    logs_e = [float(np.log(e)) for e in errs]
    return BoundCheck(
        claim="‖ĝ_Q − ∇_Q‖ = O(1/α): fitted log-log slope −1",
        paper=_PAPER,
        theorem="T2 (hypergradient error bound, reconstructed)",
        measured=_slope(logs_a, logs_e),
        bound=-1.0,
        sense="==",
        atol=RATE_SLOPE_ATOL,
        params=_params(inst, alphas=tuple(alphas)),
        series={"log error vs log alpha": (tuple(logs_a), tuple(logs_e))},
        xlabel="log α",
        ylabel="log error",
        scatter=True,
        guide=((logs_a[0], logs_a[-1]), (logs_e[0], logs_e[0] + -1.0 * (logs_a[-1] - logs_a[0]))),
    )


# ------------------------------------------------------------------------------------- T3
def _pgd_errors(
    inst: QPInstance,
    d: FloatArray,
    alphas: Sequence[float],
    ks: Sequence[int],
    pgd: Ffo,
) -> tuple[dict[tuple[float, int], float], float, float, float]:
    """``α‖y^K − y_α‖`` per (α, K), ``‖d_z‖``, ``μ_P``, ``L_g``."""
    C, c, N = _ghost(inst)
    n = inst.Q.shape[0]
    K = np.block([[inst.Q, C.T], [C, np.zeros((C.shape[0], C.shape[0]))]])
    out = {}
    for alpha in alphas:
        rhs = np.concatenate([-inst.q - d / alpha, c])
        y_alpha = np.linalg.solve(K, rhs)[:n]  # independent exact solve of P(1/α)
        for k in ks:
            r = impl(pgd)(
                inst.Q,
                inst.q,
                C if C.shape[0] else None,
                c if C.shape[0] else None,
                d,
                inst.y,
                alpha=alpha,
                max_iter=k,
                tol=1e-300,
            )
            out[(alpha, k)] = alpha * float(np.linalg.norm(np.asarray(r.y) - y_alpha))
    dz = -N @ np.linalg.solve(N.T @ inst.Q @ N, N.T @ d) if N.shape[1] else np.zeros(n)
    mu_p = float(np.linalg.eigvalsh(N.T @ inst.Q @ N)[0]) if N.shape[1] else float("inf")
    lg = float(np.linalg.eigvalsh(inst.Q)[-1])
    return out, float(np.linalg.norm(dz)), mu_p, lg


def pgd_contraction(
    inst: QPInstance,
    d: FloatArray,
    *,
    pgd: Ffo = ql.ghost_pgd,
    alphas: Sequence[float] = (10.0, 1e3, 1e5),
    ks: Sequence[int] = (5, 20, 60),
) -> BoundCheck:
    """T3: ``α‖y^K − y_α‖ <= (1 − μ_P/L_g)^K ‖d_z‖`` for every ``α`` and ``K`` (slack 1e-9).

    Measured: ``max (lhs − slack) / rhs``, slack ``PGD_SLACK + PGD_ROUNDING·α·F`` (see
    :data:`PGD_ROUNDING`); bound 1.
    """
    errs, dz, mu_p, lg = _pgd_errors(inst, d, alphas, ks, pgd)
    rho = 1.0 - mu_p / lg
    floor = _rounding_floor(inst, mu_p)
    ratios = [
        (v - PGD_SLACK - PGD_ROUNDING * a * floor) / max(rho**k * dz, 1e-300)
        for (a, k), v in errs.items()
    ]
    return BoundCheck(
        claim="warm-started PGD: α‖y^K − y_α‖ <= (1 − μ_P/L_g)^K ‖d_z‖ (independent of α)",
        paper=_PAPER,
        theorem="T3 (first-order oracle cost, A2-FO)",
        measured=max(ratios),
        bound=1.0,
        sense="<=",
        params=_params(inst, rho=rho, kappa=lg / mu_p),
    )


def pgd_alpha_independence(
    inst: QPInstance,
    d: FloatArray,
    *,
    pgd: Ffo = ql.ghost_pgd,
    alphas: Sequence[float] = (10.0, 1e3, 1e5),
    ks: Sequence[int] = (5, 20, 60),
) -> BoundCheck:
    """T3: ``α‖y^K − y_α‖`` takes the same value for every ``α`` (relative spread).

    Measured: ``max_K (max_α − min_α)/max_α`` over the ``K`` whose bound ``ρ^K‖d_z‖`` stays
    ``RATE_FLOOR_FACTOR`` times above the rounding floor at ``α_max`` (the first ``K`` always);
    bound ``PGD_ALPHA_RTOL`` plus the rounding budget ``2·PGD_ROUNDING·α_max·F / max_α value``
    (see :data:`PGD_ROUNDING`).
    """
    errs, dz, mu_p, lg = _pgd_errors(inst, d, alphas, ks, pgd)
    floor = _rounding_floor(inst, mu_p)
    rho = 1.0 - mu_p / lg
    noise = PGD_ROUNDING * max(alphas) * floor
    used = [k for k in ks if rho**k * dz >= RATE_FLOOR_FACTOR * noise] or [ks[0]]
    spread = 0.0
    budget = 0.0
    for k in used:
        vals = [errs[(a, k)] for a in alphas]
        spread = max(spread, (max(vals) - min(vals)) / max(max(vals), 1e-300))
        budget = max(budget, 2 * PGD_ROUNDING * max(alphas) * floor / max(max(vals), 1e-300))
    return BoundCheck(
        claim="α‖y^K − y_α‖ does not depend on α (warm start is O(1/α) from y_α)",
        paper=_PAPER,
        theorem="T3 (α-independence)",
        measured=spread,
        bound=PGD_ALPHA_RTOL + budget,
        sense="<=",
        params=_params(inst, rounding_budget=budget, ks=tuple(used)),
    )


def pgd_rate(
    inst: QPInstance,
    d: FloatArray,
    *,
    pgd: Ffo = ql.ghost_pgd,
    alpha: float = 10.0,
    ks: Sequence[int] = (1, 5, 20, 60),
) -> BoundCheck:
    """T3: the slope of ``log(α‖y^K − y_α‖)`` against ``K`` is ``<= 0.9·log(1 − μ_P/L_g)``
    (linear convergence at least at the theorem's rate, within 10%).

    Only the ``K`` whose bound ``ρ^K‖d_z‖`` is at least ``RATE_FLOOR_FACTOR`` times the
    rounding floor ``PGD_ROUNDING·α·F`` are fitted (the last three of them, at least two).
    """
    _, c_unused, N = _ghost(inst)
    del c_unused
    mu_p = float(np.linalg.eigvalsh(N.T @ inst.Q @ N)[0])
    lg = float(np.linalg.eigvalsh(inst.Q)[-1])
    rho = 1.0 - mu_p / lg
    dz = float(np.linalg.norm(N @ np.linalg.solve(N.T @ inst.Q @ N, N.T @ d)))
    floor = PGD_ROUNDING * alpha * _rounding_floor(inst, mu_p)
    kept = [k for k in ks if rho**k * dz >= RATE_FLOOR_FACTOR * floor]
    used = (kept if len(kept) >= 2 else list(ks[:2]))[-3:]
    errs, _, _, _ = _pgd_errors(inst, d, (alpha,), used, pgd)
    logs = [float(np.log(max(errs[(alpha, k)], 1e-300))) for k in used]
    rate = float(np.log(rho))
    return BoundCheck(
        claim="PGD error decays linearly at least at rate log(1 − μ_P/L_g) (within 10%)",
        paper=_PAPER,
        theorem="T3 (linear convergence, O(κ log 1/ε) iterations)",
        measured=_slope([float(k) for k in used], logs),
        bound=PGD_RATE_FRACTION * rate,
        sense="<=",
        params=_params(inst, theorem_rate=rate, kappa=lg / mu_p, ks=tuple(used)),
        series={"log error vs K": (tuple(float(k) for k in used), tuple(logs))},
        xlabel="PGD iterations K",
        ylabel="log α‖y^K - y_α‖",
        scatter=True,
        guide=(
            (float(used[0]), float(used[-1])),
            (logs[0], logs[0] + rate * float(used[-1] - used[0])),
        ),
    )


# ------------------------------------------------------------------------------------- T5
_PENALTIES = (10.0, 1e2, 1e3, 1e4)


def penalty_rate(
    inst: QPInstance,
    d: FloatArray,
    *,
    penalties: Sequence[float] = _PENALTIES,
    penalty_fn: Ffo = ql.penalty_grads,
) -> BoundCheck:
    """T5: ``‖λ_p(y_p − y*) − d_z‖`` has log-log slope −1 in ``λ_p`` (A4 baseline)."""
    args = inst.args()
    sol = ql.solve_qp(*args)
    dz = np.array(impl(ql.kkt_grads)(*args, d, solution=sol).q)
    errs = [
        max(
            float(
                np.linalg.norm(
                    np.array(impl(penalty_fn)(*args, d, penalty=lp, solution=sol).q) - dz
                )
            ),
            1e-300,
        )
        for lp in penalties
    ]
    xs = [float(np.log(v)) for v in penalties]
    ys = [float(np.log(e)) for e in errs]
    return BoundCheck(
        claim="penalty baseline: ‖λ_p(y_p − y*) − d_z‖ = O(1/λ_p) (slope −1)",
        paper=_PAPER,
        theorem="T5 (A4 comparison)",
        measured=_slope(xs, ys),
        bound=-1.0,
        sense="==",
        atol=PENALTY_SLOPE_ATOL,
        params=_params(inst),
        series={"log error vs log penalty": (tuple(xs), tuple(ys))},
        xlabel="log λ_p",
        ylabel="log error",
        scatter=True,
        guide=((xs[0], xs[-1]), (ys[0], ys[0] + -1.0 * (xs[-1] - xs[0]))),
    )


def penalty_inverse_hessian(inst: QPInstance, penalty: float) -> FloatArray:
    """The inverse inner Hessian ``(Q + λ_p CᵀWC)⁻¹`` as :func:`penalty_grads` applies it.

    ``∇_q = λ_p (y_p - y*)`` and ``y_p`` is affine in the upstream gradient ``d`` with slope
    ``-(1/λ_p) H⁻¹``, so ``∇_q(e_i) - ∇_q(0) = -H⁻¹ e_i``: the matrix is read off the
    library's outputs for ``d = 0, e_1, ..., e_n`` (the forward solution computed once).
    """
    args = inst.args()
    sol = ql.solve_qp(*args)
    n = inst.Q.shape[0]
    base = np.asarray(impl(ql.penalty_grads)(*args, np.zeros(n), penalty=penalty, solution=sol).q)
    cols = [
        np.asarray(impl(ql.penalty_grads)(*args, np.eye(n)[i], penalty=penalty, solution=sol).q)
        - base
        for i in range(n)
    ]
    out: FloatArray = -np.column_stack(cols)
    return out


def penalty_condition(
    inst: QPInstance,
    *,
    penalties: Sequence[float] = _PENALTIES,
) -> BoundCheck:
    """T5: ``cond(Q + λ_p CᵀC)`` grows with log-log slope +1 in ``λ_p`` (C = [G_I; A]).

    The condition number is that of the inner system the library actually solves, read off
    :func:`penalty_grads`' outputs by :func:`penalty_inverse_hessian` (not recomputed from
    the instance), so a penalty applied with the wrong weight changes the slope.
    """
    conds = [float(np.linalg.cond(penalty_inverse_hessian(inst, lp))) for lp in penalties]
    xs = [float(np.log(v)) for v in penalties]
    ys = [float(np.log(c)) for c in conds]
    return BoundCheck(
        claim="penalty baseline: cond of the inner Hessian penalty_grads solves = Θ(λ_p) (slope +1)",
        paper=_PAPER,
        theorem="T5 (A4 comparison)",
        measured=_slope(xs, ys),
        bound=1.0,
        sense="==",
        atol=PENALTY_SLOPE_ATOL,
        params=_params(inst),
        series={"log cond vs log penalty": (tuple(xs), tuple(ys))},
        xlabel="log λ_p",
        ylabel="log cond",
        scatter=True,
        guide=((xs[0], xs[-1]), (ys[0], ys[0] + 1.0 * (xs[-1] - xs[0]))),
    )


def active_set_identification(
    inst: QPInstance, *, solver: Ffo = ql.solve_qp, slack_tol: float = 1e-8
) -> BoundCheck:
    """The frozen set ``I = {s_i <= slack_tol}`` of the forward solution equals the true
    active set (strict complementarity with margin: ``λ_S >= 0.5``, inactive slack ``>= 0.1``).

    Measured: number of misclassified rows; bound 0.
    """
    sol = impl(solver)(*inst.args())
    # the slack is recomputed from the returned x (h - Gx), not read from ``sol.slack``
    if inst.G is None or inst.h is None:
        raise ValueError("inst: expected an instance with inequality constraints")
    slack = inst.h - inst.G @ np.asarray(sol.x, dtype=np.float64)
    mask = ql.active_set(slack, np.asarray(sol.lam), slack_tol=slack_tol)
    return BoundCheck(
        claim="the forward solve identifies the active set exactly (I = true active set)",
        paper=_PAPER,
        theorem="Section 2 (active set), A2 step 1",
        measured=float(np.sum(mask != inst.active)),
        bound=float(ACTIVE_SET_MISMATCHES),
        sense="<=",
        params=_params(inst),
    )


# ------------------------------------------------------------------------- thin margins, ties
def thin_instance(seed: int, *, n: int, m: int, p: int, k: int) -> QPInstance:
    """A planted QP (``k >= 1`` active rows, ``m - k >= 2`` inactive) with thin margins.

    The first active row gets ``λ* = THIN_MARGIN`` (nearly weakly active), the first inactive row
    slack ``THIN_MARGIN`` (nearly active), and the second inactive row slack 0 with ``λ* = 0``
    (weakly active; the instance lists it in ``active``, the side :func:`kkt_grads` documents for
    such rows).  ``q`` is rebuilt so that the planted point stays a KKT point.
    """
    if k < 1 or m - k < 2:
        raise ValueError(f"sizes: expected k >= 1 and m - k >= 2, got m={m} k={k}")
    inst = planted_qp(np.random.default_rng(seed), n=n, m=m, p=p, k=k)
    assert inst.G is not None
    assert inst.h is not None
    lam, h, active = inst.lam.copy(), inst.h.copy(), inst.active.copy()
    on, off = np.flatnonzero(active), np.flatnonzero(~active)
    lam[on[0]] = THIN_MARGIN
    h[off[0]] = inst.G[off[0]] @ inst.y + THIN_MARGIN
    h[off[1]] = inst.G[off[1]] @ inst.y
    active[off[1]] = True
    grad = inst.Q @ inst.y + inst.G.T @ lam
    if inst.A is not None:
        grad = grad + inst.A.T @ inst.nu
    return dataclasses.replace(inst, q=-grad, h=h, lam=lam, active=active)


def _implicit_q_gradient(inst: QPInstance, d: FloatArray) -> FloatArray:
    """``∇_q = d_z = −N (NᵀQN)⁻¹ Nᵀ d`` on the planted active set (``N`` spans ``null(C)``)."""
    _, _, N = _ghost(inst)
    if N.shape[1] == 0:
        return np.zeros_like(d)
    return np.asarray(-N @ np.linalg.solve(N.T @ inst.Q @ N, N.T @ d), dtype=np.float64)


def thin_margins(inst: QPInstance, d: FloatArray) -> BoundCheck:
    """Gradients on a QP with thin margins (see :func:`thin_instance`) are the implicit gradient
    of its planted active set: ``kkt_grads`` and ``ffo_grads`` as a user calls them (no
    ``solution=``, so they solve the QP themselves), ``kkt_grads`` on ``solve_qp``'s solution,
    and that solution itself.

    Measured: ``max(‖y − y*‖∞ / (1 + ‖y*‖∞), max_g ‖g_q − d_z‖∞ / (1 + ‖d_z‖∞))`` with ``d_z``
    from the null-space formula; bound ``THIN_RTOL``.
    """
    args = inst.args()
    dz = _implicit_q_gradient(inst, d)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ql.DegenerateQPWarning)
        sol = impl(ql.solve_qp)(*args)
        grads = [
            impl(ql.kkt_grads)(*args, d),
            impl(ql.ffo_grads)(*args, d),
            impl(ql.kkt_grads)(*args, d, solution=sol),
        ]
    x = np.asarray(sol.x, dtype=np.float64)
    err = float(np.max(np.abs(x - inst.y))) / (1.0 + float(np.max(np.abs(inst.y))))
    scale = 1.0 + float(np.max(np.abs(dz)))
    for g in grads:
        err = max(err, float(np.max(np.abs(np.asarray(g.q) - dz))) / scale)
    return BoundCheck(
        claim="thin margins (λ* = 1e-6, slack 1e-6, s = λ* = 0): solution and hypergradients "
        "of the planted active set, without solution=",
        paper=_PAPER,
        theorem="Section 2 (active set), A1 / A2",
        measured=err,
        bound=THIN_RTOL,
        sense="<=",
        params=_params(inst, margin=THIN_MARGIN),
    )


#: Thresholds ``(slack_tol, dual_cutoff)`` of the tie check: the public QP layer, the general
#: layer's cutoff, and both far from their defaults.
TIE_THRESHOLDS: tuple[tuple[float, float], ...] = ((1e-8, 0.0), (1e-6, 1e-3), (1e-4, 0.5))


def _tie_rows(slack_tol: float, dual_cutoff: float) -> list[tuple[float, float]]:
    """``(s_i, λ_i)`` at and beside both thresholds (exact ties and one ulp past them)."""
    up = float(np.nextafter(slack_tol, np.inf))
    return [
        (slack_tol, dual_cutoff + 1.0),  # slack tie: in (non-strict)
        (up, dual_cutoff + 1.0),  # one ulp above: out
        (0.0, dual_cutoff),  # multiplier tie: in (non-strict)
        (0.0, float(np.nextafter(dual_cutoff, -np.inf))),  # one ulp below: out
        (slack_tol, dual_cutoff),  # both ties: in
        (0.5 * slack_tol, 0.5 * dual_cutoff + 1e-3),  # plainly in when the cutoff allows
    ]


def active_set_rule(inst: QPInstance, d: FloatArray) -> BoundCheck:
    """The frozen set at exact ties: ``I = {i : s_i <= slack_tol and λ_i >= dual_cutoff}``
    (both non-strict), for :func:`active_set` and for the ``active`` mask :func:`ffo_grads`
    returns under ``FFOConfig(slack_tol, dual_cutoff)``, on each of :data:`TIE_THRESHOLDS`.

    The rows of ``inst`` get slacks and multipliers from :func:`_tie_rows` (the rest slack 0.5);
    the solution handed to ``ffo_grads`` is the planted ``y*`` with these values.

    Measured: rows classified unlike the rule, summed; bound 0.
    """
    assert inst.G is not None
    m = inst.G.shape[0]
    mismatches = 0
    for slack_tol, cutoff in TIE_THRESHOLDS:
        rows = _tie_rows(slack_tol, cutoff)
        slack = np.full(m, 0.5)
        lam = np.zeros(m)
        for i, (s_i, l_i) in enumerate(rows[:m]):
            slack[i], lam[i] = s_i, max(l_i, 0.0)
        want = (slack <= slack_tol) & (lam >= cutoff)
        got = np.asarray(impl(ql.active_set)(slack, lam, slack_tol=slack_tol, dual_cutoff=cutoff))
        mismatches += int(np.sum(got != want))
        sol = ql.QPSolution(
            x=inst.y.copy(),
            lam=lam,
            nu=inst.nu.copy(),
            slack=slack,
            iterations=0,
            converged=True,
            residual=0.0,
            polished=True,
        )
        cfg = ql.FFOConfig(slack_tol=slack_tol, dual_cutoff=cutoff)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ql.DegenerateQPWarning)
            grads = impl(ql.ffo_grads)(*inst.args(), d, config=cfg, solution=sol)
        mismatches += int(np.sum(np.asarray(grads.active) != want))
    return BoundCheck(
        claim="frozen active set at exact ties: s <= slack_tol and λ >= dual_cutoff, both "
        "non-strict, under each configured threshold",
        paper=_PAPER,
        theorem="Section 2 (active set), A2 step 1",
        measured=float(mismatches),
        bound=0.0,
        sense="<=",
        params=_params(inst, thresholds=TIE_THRESHOLDS),
    )


# ---------------------------------------------------------------------------------- drivers
def _instances(
    profile: ProveProfile,
    *,
    spectrum: tuple[float, float] | None = None,
    row_scale: float | None = None,
) -> list[tuple[QPInstance, FloatArray]]:
    rng = np.random.default_rng(profile.seed)
    top = 30 if profile.is_full else 12
    out = []
    for _ in range(profile.instances):
        n = int(rng.integers(4, top + 1))
        m = int(rng.integers(1, min(20, 2 * n) + 1))
        p = int(rng.integers(0, min(3, n - 2) + 1))
        k = int(rng.integers(0, min(m, n - p - 1) + 1))
        seed = int(rng.integers(2**32))
        inst = instance(seed, n=n, m=m, p=p, k=k, spectrum=spectrum, row_scale=row_scale)
        out.append((inst, _upstream(inst, seed)))
    return out


def _constrained(profile: ProveProfile) -> list[tuple[QPInstance, FloatArray]]:
    """T5 instances: non-empty ``C`` with orthogonal rows of norm 3, so that the asymptotic
    O(1/λ_p) regime (``λ_p σ_min(C)² ≫ L_g``) covers the spec's window [10, 1e4]; with an
    ill-conditioned ``C`` it starts near ``10 L_g / σ_min(C)²`` (slope −0.86 measured at
    ``σ_min = 0.29``)."""
    items = [
        (i, d) for i, d in _instances(profile, row_scale=3.0) if i.active.any() or i.A is not None
    ]
    if not items:  # the generator rarely draws only empty active sets: add a fixed one
        inst = instance(profile.seed, n=6, m=4, p=1, k=2, row_scale=3.0)
        items = [(inst, _upstream(inst, profile.seed))]
    return items


_ALG_FFO = ("reference.qp_layers:ffo_grads", "reference.qp_layers:kkt_grads")


@register(
    name="qp_layers.ghost_equivalence",
    family="qp_layers",
    paper=_PAPER,
    theorem="T1",
    algorithms=_ALG_FFO,
)
def prove_ghost_equivalence(profile: ProveProfile) -> BoundCheck:
    """T1 on planted QPs (n ≤ 12, or 30 in ``full``)."""
    return worst(ghost_equivalence(i, d) for i, d in _instances(profile))


@register(
    name="qp_layers.exact_blocks",
    family="qp_layers",
    paper=_PAPER,
    theorem="T2",
    algorithms=_ALG_FFO,
)
def prove_exact_blocks(profile: ProveProfile) -> BoundCheck:
    """T2 exact blocks for α ∈ {10, …, 1e4}."""
    return worst(exact_blocks(i, d) for i, d in _instances(profile))


@register(
    name="qp_layers.rank_one_error",
    family="qp_layers",
    paper=_PAPER,
    theorem="T2 / A2",
    algorithms=_ALG_FFO,
)
def prove_rank_one_error(profile: ProveProfile) -> BoundCheck:
    """Rank-one error terms for α ∈ {10, 1e2, 1e3}."""
    return worst(rank_one_error(i, d) for i, d in _instances(profile))


@register(
    name="qp_layers.error_rate", family="qp_layers", paper=_PAPER, theorem="T2", algorithms=_ALG_FFO
)
def prove_error_rate(profile: ProveProfile) -> BoundCheck:
    """Fitted slope −1 ± 0.02 of the Q-block error over α ∈ {10, …, 1e5}."""
    return worst(error_rate(i, d) for i, d in _instances(profile))


_ALG_PGD = ("reference.qp_layers:ghost_pgd",)


@register(
    name="qp_layers.pgd_contraction",
    family="qp_layers",
    paper=_PAPER,
    theorem="T3",
    algorithms=_ALG_PGD,
)
def prove_pgd_contraction(profile: ProveProfile) -> BoundCheck:
    """T3 contraction inequality, eig(Q) ⊂ [1, 10]."""
    return worst(pgd_contraction(i, d) for i, d in _instances(profile, spectrum=(1.0, 10.0)))


@register(
    name="qp_layers.pgd_alpha_independence",
    family="qp_layers",
    paper=_PAPER,
    theorem="T3",
    algorithms=_ALG_PGD,
)
def prove_pgd_alpha_independence(profile: ProveProfile) -> BoundCheck:
    """T3 α-independence over α ∈ {10, 1e3, 1e5}, eig(Q) ⊂ [1, 10]."""
    return worst(pgd_alpha_independence(i, d) for i, d in _instances(profile, spectrum=(1.0, 10.0)))


@register(
    name="qp_layers.pgd_rate", family="qp_layers", paper=_PAPER, theorem="T3", algorithms=_ALG_PGD
)
def prove_pgd_rate(profile: ProveProfile) -> BoundCheck:
    """T3 linear rate, eig(Q) ⊂ [1, 10]."""
    return worst(pgd_rate(i, d) for i, d in _instances(profile, spectrum=(1.0, 10.0)))


_ALG_PEN = ("reference.qp_layers:penalty_grads",)


@register(
    name="qp_layers.penalty_rate",
    family="qp_layers",
    paper=_PAPER,
    theorem="T5",
    algorithms=_ALG_PEN,
)
def prove_penalty_rate(profile: ProveProfile) -> BoundCheck:
    """T5 error slope −1 ± 0.1 over λ_p ∈ {10, …, 1e4} (instances with a non-empty ``C``:
    without constraints the penalty method is exact and the error is pure rounding)."""
    return worst(penalty_rate(i, d) for i, d in _constrained(profile))


@register(
    name="qp_layers.penalty_condition",
    family="qp_layers",
    paper=_PAPER,
    theorem="T5",
    algorithms=_ALG_PEN,
)
def prove_penalty_condition(profile: ProveProfile) -> BoundCheck:
    """T5 condition-number slope +1 ± 0.1 (instances with a non-empty ``C``)."""
    return worst(penalty_condition(i) for i, _ in _constrained(profile))


@register(
    name="qp_layers.active_set",
    family="qp_layers",
    paper=_PAPER,
    theorem="Section 2 / A2 step 1",
    algorithms=("reference.qp_layers:solve_qp",),
)
def prove_active_set(profile: ProveProfile) -> BoundCheck:
    """Active-set identification by the forward solve on planted QPs."""
    return worst(active_set_identification(i) for i, _ in _instances(profile))


def _thin_instances(profile: ProveProfile) -> list[tuple[QPInstance, FloatArray]]:
    rng = np.random.default_rng(profile.seed + 3)
    top = 30 if profile.is_full else 12
    out = []
    for _ in range(profile.instances):
        n = int(rng.integers(6, top + 1))
        p = int(rng.integers(0, 2))
        k = int(rng.integers(1, min(4, n - p - 2) + 1))
        m = int(rng.integers(k + 2, min(20, 2 * n) + 1))
        seed = int(rng.integers(2**32))
        inst = thin_instance(seed, n=n, m=m, p=p, k=k)
        out.append((inst, _upstream(inst, seed)))
    return out


@register(
    name="qp_layers.thin_margins",
    family="qp_layers",
    paper=_PAPER,
    theorem="Section 2 / A1 / A2",
    algorithms=(
        "reference.qp_layers:solve_qp",
        "reference.qp_layers:kkt_grads",
        "reference.qp_layers:ffo_grads",
    ),
)
def prove_thin_margins(profile: ProveProfile) -> BoundCheck:
    """Thin-margin planted QPs (n in [6, 12], or 30 in ``full``)."""
    return worst(thin_margins(i, d) for i, d in _thin_instances(profile))


@register(
    name="qp_layers.active_set_rule",
    family="qp_layers",
    paper=_PAPER,
    theorem="Section 2 / A2 step 1",
    algorithms=("reference.qp_layers:active_set", "reference.qp_layers:ffo_grads"),
)
def prove_active_set_rule(profile: ProveProfile) -> BoundCheck:
    """Exact ties at three threshold pairs on planted QPs with ``m >= 6`` rows."""
    rng = np.random.default_rng(profile.seed + 5)
    checks = []
    for _ in range(max(2, profile.instances // 2)):
        n = int(rng.integers(8, 13))
        seed = int(rng.integers(2**32))
        inst = instance(seed, n=n, m=int(rng.integers(6, 10)), p=int(rng.integers(0, 2)), k=2)
        checks.append(active_set_rule(inst, _upstream(inst, seed)))
    return worst(checks)
