"""Checks of spec 13 (α-divergence with an RKHS-ball critic on random Fourier features).

Paper: J. Wang, F. Zhang, L. Wang, "Scalable and Stable Estimation of Amari α-Divergence using
Random Fourier Features", ICML 2026.  Only the abstract is public; the statements V1-V5 and G1-G3
are the spec's (our construction, identities [verified] by the spec's authors) and are checked
here on instances, each against an independent computation:

* :func:`v1_conjugate` — f_α* formula vs a numerical ``sup_u (tu - f_α(u))``.
* :func:`v2_log_ratio_bound` — J(log p/q) equals G1 by quadrature; perturbed critics are strictly below.
* :func:`v3_profiled_value` — at a full-batch optimum the profiled value equals Ĵ.
* :func:`v4_curvature` — finite-difference Hessian vs formula, negative semidefinite, μ lower bound.
* :func:`v5_armijo_linear_rate` — fitted linear rate of full-batch Armijo >= 4 c_A β (1 - c_A) μ / L
  with the local constants of the returned optimum (tangent space of the ball).

Every check calls the function it exercises through :func:`proofs_numeric.impl`
(``verifiedref prove --with``); objective values, gradients and curvatures that a check
compares with are recomputed by :func:`proofs_numeric._independent.alpha_objective_parts`.

* :func:`g3_kl_limit` — D_α -> KL(P‖Q) as α -> 1.
* :func:`g1_closed_form` — G1, its log-coefficient and the KL of G3 against the precision-form
  Gaussian integral, with unequal covariances and α away from ½.
* :func:`rff_rate_in_features` — slope of |D̂_D - D̂_∞| against D is about -1/2 (full profile).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import integrate, optimize, stats

from proofs_numeric._independent import alpha_objective_parts
from proofs_numeric._registry import ProveProfile, impl, register, worst
from proofs_numeric._result import BoundCheck
from reference import divergence as dv
from reference._arrays import FloatArray

__all__ = [
    "G1_RTOL",
    "g1_closed_form",
    "g3_kl_limit",
    "rff_rate_in_features",
    "v1_conjugate",
    "v2_log_ratio_bound",
    "v2_strictness",
    "v3_profiled_value",
    "v4_curvature",
    "v4_hessian_formula",
    "v5_armijo_linear_rate",
    "v5_fit_quality",
]

_PAPER = "Wang-Zhang-Wang, ICML 2026"
_SQRT2 = math.sqrt(2.0)
#: G1 against the precision form: both are exact, so only rounding remains (condition numbers of
#: the drawn covariances below 1e3: about 1e-13 measured); a swapped α, a swapped pair or a
#: dropped determinant misses by order 1.
G1_RTOL = 1e-9


def v1_conjugate(alpha: float, ts: FloatArray) -> BoundCheck:
    """V1: ``f_α*(t) = sup_u (tu - f_α(u))`` — largest error of the formula over ``ts`` (< 1/(1-α)).

    The supremum is computed by bounded scalar minimisation on ``log u`` (independent of the formula).
    Error budget 1e-8 (the optimiser's tolerance is 1e-12 in log u).
    """
    errors = []
    for t in ts:

        def negative(log_u: float, t: float = float(t)) -> float:
            u = math.exp(log_u)
            return -(t * u - float(dv.f_alpha(np.array([u]), alpha)[0]))

        res = optimize.minimize_scalar(
            negative, bounds=(-60.0, 300.0), method="bounded", options={"xatol": 1e-12}
        )
        numeric = -float(res.fun)
        formula = float(impl(dv.f_alpha_conjugate)(np.array([t]), alpha)[0])
        errors.append(abs(numeric - formula) / max(1.0, abs(formula)))
    return BoundCheck(
        claim="f_α*(t) formula equals sup_u (tu - f_α(u))",
        paper=_PAPER,
        theorem="V1",
        measured=max(errors),
        bound=1e-8,
        sense="<=",
        params={"alpha": alpha, "points": len(ts)},
    )


def _gauss_j(phi_scale: float, phi_shift: float, m1: float, m2: float, alpha: float) -> float:
    p, q = stats.norm(m1, 1.0), stats.norm(m2, 1.0)

    def phi(x: float) -> float:
        return phi_scale * (p.logpdf(x) - q.logpdf(x)) + phi_shift

    a = alpha
    first = integrate.quad(
        lambda x: p.pdf(x) * math.expm1((a - 1.0) * phi(x)) / (a - 1.0),
        -30,
        30,
        epsabs=1e-13,
        epsrel=1e-12,
        limit=200,
    )[0]
    second = integrate.quad(
        lambda x: q.pdf(x) * math.expm1(a * phi(x)) / a,
        -30,
        30,
        epsabs=1e-13,
        epsrel=1e-12,
        limit=200,
    )[0]
    return first - second


def v2_log_ratio_bound(m1: float, m2: float, alpha: float) -> BoundCheck:
    """V2 equality: J(log p/q) (quadrature) equals the closed form G1 for N(m1,1), N(m2,1) (1e-8)."""
    value = _gauss_j(1.0, 0.0, m1, m2, alpha)
    closed = impl(dv.alpha_divergence_gaussian)([m1], [[1.0]], [m2], [[1.0]], alpha)
    return BoundCheck(
        claim="J(φ*) = D_α at φ* = log p/q",
        paper=_PAPER,
        theorem="V2",
        measured=value,
        bound=closed,
        sense="==",
        atol=1e-8,
        params={"m1": m1, "m2": m2, "alpha": alpha},
    )


def v2_strictness(m1: float, m2: float, alpha: float) -> BoundCheck:
    """V2 strictness: ``max(J(½φ*), J(φ* + 0.3)) < D_α`` (by at least 1e-9)."""
    closed = impl(dv.alpha_divergence_gaussian)([m1], [[1.0]], [m2], [[1.0]], alpha)
    worse = max(_gauss_j(0.5, 0.0, m1, m2, alpha), _gauss_j(1.0, 0.3, m1, m2, alpha))
    return BoundCheck(
        claim="J(½φ*), J(φ* + 0.3) < D_α",
        paper=_PAPER,
        theorem="V2",
        measured=worse,
        bound=closed - 1e-9,
        sense="<=",
        params={"m1": m1, "m2": m2, "alpha": alpha},
    )


def _problem(seed: int, n: int, d: int, num_features: int) -> tuple[FloatArray, FloatArray]:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    y = rng.standard_normal((n, d)) * np.sqrt(np.linspace(0.5, 2.0, d)) + np.eye(d)[0]
    feats = dv.make_rff(d, num_features, sigma=dv.median_heuristic(x, y, rng=rng), rng=rng)
    return feats.transform(x), feats.transform(y)


def v3_profiled_value(
    seed: int, *, n: int = 400, d: int = 2, num_features: int = 32, alpha: float = 0.5
) -> BoundCheck:
    """V3: at a full-batch optimum, the profiled value ``(1 - a^α b^{1-α})/(α(1-α))`` equals Ĵ (1e-8).

    Ĵ is recomputed at the returned ``θ`` (the result's ``value`` is not read); the profiled
    value is the routed ``profiled_value`` at the returned critic.
    """
    zx, zy = _problem(seed, n, d, num_features)
    fit = impl(dv.armijo_ascent)(
        zx, zy, alpha, dv.ArmijoConfig(radius=3.0, max_iter=3000, batch_size=None)
    )
    theta = np.asarray(fit.theta)
    phi_x, phi_y = zx @ theta[:-1] + theta[-1], zy @ theta[:-1] + theta[-1]
    return BoundCheck(
        claim="profiled value equals Ĵ at the optimum",
        paper=_PAPER,
        theorem="V3",
        measured=float(impl(dv.profiled_value)(phi_x, phi_y, alpha)),
        bound=alpha_objective_parts(zx, zy, theta, alpha)[0],
        sense="==",
        atol=1e-8,
        params={
            "seed": seed,
            "n": n,
            "D": num_features,
            "iterations": fit.iterations,
            "converged": fit.converged,
        },
    )


def v4_hessian_formula(seed: int, *, alpha: float = 0.3) -> BoundCheck:
    """V4: the Hessian formula equals central differences of the analytic gradient (rel. 1e-6)."""
    zx, zy = _problem(seed, 60, 2, 6)
    rng = np.random.default_rng(seed + 1)
    theta = rng.uniform(-0.5, 0.5, size=7)
    h = 1e-6
    numeric = np.empty((7, 7))
    for k in range(7):
        e = np.zeros(7)
        e[k] = h
        numeric[:, k] = (
            alpha_objective_parts(zx, zy, theta + e, alpha)[1]
            - alpha_objective_parts(zx, zy, theta - e, alpha)[1]
        ) / (2 * h)
    formula = np.asarray(impl(dv.alpha_objective_hessian)(zx, zy, theta, alpha))
    rel = float(np.max(np.abs(numeric - formula)) / np.max(np.abs(formula)))
    return BoundCheck(
        claim="Hessian formula equals finite differences",
        paper=_PAPER,
        theorem="V4",
        measured=rel,
        bound=1e-6,
        sense="<=",
        params={"seed": seed, "alpha": alpha},
    )


def _mu_lower(
    zx: FloatArray, zy: FloatArray, theta: FloatArray, radius: float, alpha: float
) -> float:
    psi_x = np.hstack([zx, np.ones((zx.shape[0], 1))])
    psi_y = np.hstack([zy, np.ones((zy.shape[0], 1))])
    second = psi_x.T @ psi_x / zx.shape[0] + psi_y.T @ psi_y / zy.shape[0]
    reach = _SQRT2 * radius + abs(float(theta[-1]))
    return (
        min(1.0 - alpha, alpha)
        * math.exp(-max(alpha, 1.0 - alpha) * reach)
        * float(np.linalg.eigvalsh(second)[0])
    )


def v4_curvature(seed: int, *, alpha: float = 0.5, radius: float = 2.0) -> BoundCheck:
    """V4: at a random θ in the ball, λ_min(-∇²Ĵ) >= μ_lower of the spec (and -∇²Ĵ is PSD)."""
    zx, zy = _problem(seed, 200, 2, 8)
    rng = np.random.default_rng(seed + 2)
    w = rng.standard_normal(8)
    w *= rng.uniform(0.0, radius) / np.linalg.norm(w)
    theta = np.append(w, rng.uniform(-1.0, 1.0))
    hessian = np.asarray(impl(dv.alpha_objective_hessian)(zx, zy, theta, alpha))
    curvature = float(np.linalg.eigvalsh(-hessian)[0])
    bound = _mu_lower(zx, zy, theta, radius, alpha)
    return BoundCheck(
        claim="strong-concavity modulus >= min(α,1-α) e^{-max(α,1-α)(√2R+|c|)} λ_min(M)",
        paper=_PAPER,
        theorem="V4",
        measured=curvature,
        bound=bound,
        sense=">=",
        rtol=1e-9,
        params={"seed": seed, "alpha": alpha, "R": radius},
    )


def _local_constants(
    zx: FloatArray, zy: FloatArray, theta: FloatArray, radius: float, alpha: float
) -> tuple[float, float, bool]:
    """``(μ, L)``: extreme eigenvalues of the curvature that governs projected ascent near
    ``θ``: ``-∇²Ĵ(θ) + ν I_w`` on the tangent space of the ball when ``‖w‖ = R`` (``ν =
    ⟨∇_w Ĵ, w⟩ / R²``, the constraint's multiplier), else ``-∇²Ĵ(θ)``; independent formulas."""
    _, grad, neg_hess = alpha_objective_parts(zx, zy, theta, alpha)
    w = theta[:-1]
    norm = float(np.linalg.norm(w))
    active = norm >= radius * (1.0 - 1e-9)
    if not active:
        eig = np.linalg.eigvalsh(neg_hess)
        return float(eig[0]), float(eig[-1]), False
    nu = max(0.0, float(grad[:-1] @ w)) / radius**2
    curvature = neg_hess.copy()
    curvature[:-1, :-1] += nu * np.eye(w.size)
    normal = np.append(w / norm, 0.0)
    basis, _ = np.linalg.qr(np.column_stack([normal, np.eye(theta.size)]))
    tangent = basis[:, 1 : theta.size]
    eig = np.linalg.eigvalsh(tangent.T @ curvature @ tangent)
    return float(eig[0]), float(eig[-1]), True


def _reference_optimum(zx: FloatArray, zy: FloatArray, radius: float, alpha: float) -> FloatArray:
    """The maximiser of Ĵ over ``‖w‖ <= R`` by scipy's SLSQP on the independent formulas (an
    oracle for the rate check: the instance's optimum, whatever the routed ascent returns)."""
    width = zx.shape[1] + 1

    def objective(theta: Any) -> Any:
        value, grad, _ = alpha_objective_parts(zx, zy, theta, alpha)
        return -value, -grad

    constraint: Any = {
        "type": "ineq",
        "fun": lambda th: radius**2 - float(th[:-1] @ th[:-1]),
        "jac": lambda th: np.append(-2.0 * th[:-1], 0.0),
    }
    res = optimize.minimize(
        objective,
        np.zeros(width),
        jac=True,
        method="SLSQP",
        constraints=[constraint],
        options={"ftol": 1e-16, "maxiter": 1000},
    )
    out: FloatArray = np.asarray(res.x, dtype=np.float64)
    return out


def v5_armijo_linear_rate(
    seed: int,
    *,
    n: int = 500,
    num_features: int = 8,
    radius: float = 3.0,
    alpha: float = 0.5,
    iterations: int = 800,
) -> BoundCheck:
    """V5: full-batch Armijo converges linearly; the fitted rate ρ̂ >= 4 c_A β (1 - c_A) μ / L.

    The iterates are the routed ``armijo_ascent`` called one step at a time
    (``max_iter = 1``, ``theta0`` = the previous returned ``θ``: textbook Armijo, each step's
    search starting at ``η_max``), until the step is below 1e-14 or ``iterations`` steps;
    ``Ĵ(θ_t)`` is recomputed independently at every returned ``θ_t`` (no ``values`` field is
    read).  ρ̂ = 1 - exp(slope) of ``log(Ĵ* - Ĵ(θ_t))`` over iterations where the gap is in
    [1e-10, 1e-3] (Ĵ* = the larger of the best value seen and Ĵ at the instance's optimum found
    by SLSQP, :func:`_reference_optimum`; when fewer than 5 iterates fall in the window, the
    last half of the iterates above 1e-10).

    Bound (why it bites): near the optimum every step the line search accepts has
    ``η >= β · 2(1 - c_A)/L`` and raises Ĵ by ``>= c_A η ‖G‖² >= 2 c_A η μ (Ĵ* - Ĵ)``, so the
    gap contracts by ``1 - 4 c_A β (1 - c_A) μ / L`` per step, with ``μ``, ``L`` the local
    constants at the instance's optimum (:func:`_local_constants` at
    :func:`_reference_optimum`: the ball constraint's curvature included, the bound does not
    depend on what the routed ascent returns).  With the spec's global ``L`` and the
    unconstrained ``μ`` the bound is ~5e6 below the measured rate; the local one is within a
    factor ~25, and gradient ascent with a fixed step of 0.005 (no line search; rate 1e-3)
    violates it.  R² of the fit is in ``params`` and checked by :func:`v5_fit_quality`.
    """
    zx, zy = _problem(seed, n, 2, num_features)
    cfg = dv.ArmijoConfig(radius=radius, max_iter=1, batch_size=None, tol=1e-14)
    step = impl(dv.armijo_ascent)
    theta = np.zeros(num_features + 1)
    thetas = [theta]
    for _ in range(iterations):
        nxt = np.asarray(step(zx, zy, alpha, cfg, theta0=theta).theta, dtype=np.float64)
        thetas.append(nxt)
        if float(np.linalg.norm(nxt - theta)) <= 1e-14:
            break
        theta = nxt
    values = np.array([alpha_objective_parts(zx, zy, th, alpha)[0] for th in thetas])
    optimum = _reference_optimum(zx, zy, radius, alpha)
    best = max(float(values.max()), alpha_objective_parts(zx, zy, optimum, alpha)[0])
    gap = best - values
    mask = (gap >= 1e-10) & (gap <= 1e-3)
    if int(mask.sum()) < 5:
        mask = (gap >= 1e-10) & (np.arange(gap.size) >= gap.size // 2)
    t = np.nonzero(mask)[0]
    if t.size < 5:
        return BoundCheck(
            claim="Armijo ascent converges linearly (too few points in the window)",
            paper=_PAPER,
            theorem="V5",
            measured=float("nan"),
            bound=0.0,
            sense=">=",
            params={"seed": seed, "points": int(t.size)},
        )
    slope, intercept = np.polyfit(t, np.log(gap[mask]), 1)
    fitted = slope * t + intercept
    resid = np.log(gap[mask]) - fitted
    r2 = 1.0 - float(resid @ resid) / float(
        np.sum((np.log(gap[mask]) - np.log(gap[mask]).mean()) ** 2)
    )
    mu, lips, active = _local_constants(zx, zy, optimum, radius, alpha)
    rate = 1.0 - math.exp(float(slope))
    c_a, beta = dv.ArmijoConfig().armijo_c, dv.ArmijoConfig().backtrack
    return BoundCheck(
        claim="fitted linear rate of Armijo ascent >= 4 c_A β (1 - c_A) μ / L (local constants)",
        paper=_PAPER,
        theorem="V5",
        measured=rate,
        bound=4.0 * c_a * beta * (1.0 - c_a) * mu / lips,
        sense=">=",
        params={
            "seed": seed,
            "slope": float(slope),
            "R2": round(r2, 4),
            "mu": mu,
            "L": lips,
            "points": int(t.size),
            "iterates": len(thetas),
            "ball_active": active,
        },
        series={
            "Ĵ* - Ĵ(θ_t)": (
                tuple(float(i) for i in range(len(gap)) if gap[i] > 0),
                tuple(float(g) for g in gap if g > 0),
            )
        },
        xlabel="iteration t",
        ylabel="Ĵ* - Ĵ(θ_t)",
        guide=(
            (float(t[0]), float(t[-1])),
            (
                float(gap[t[0]]),
                float(gap[t[0]])
                * (1.0 - 4.0 * c_a * beta * (1.0 - c_a) * mu / lips) ** float(t[-1] - t[0]),
            ),
        ),
    )


def v5_fit_quality(rate_check: BoundCheck) -> BoundCheck:
    """V5 companion: the log-gap is linear in t, R² >= 0.95 (Wang, Zhang, Wang, ICML 2026, V5 check)."""
    r2 = rate_check.params.get("R2", float("nan"))
    return BoundCheck(
        claim="log(Ĵ* - Ĵ(θ_t)) is linear in t (R² of the fit)",
        paper=_PAPER,
        theorem="V5",
        measured=float(r2) if isinstance(r2, int | float) else float("nan"),
        bound=0.95,
        sense=">=",
        params=dict(rate_check.params),
    )


def g3_kl_limit(seed: int) -> BoundCheck:
    """G3: ``D_{1-1e-5}(P‖Q)`` equals ``KL(P‖Q)`` to relative 1e-4 for random Gaussians in d = 3."""
    rng = np.random.default_rng(seed)
    b1, b2 = rng.uniform(-1, 1, size=(2, 3, 3))
    s1, s2 = b1 @ b1.T + 0.3 * np.eye(3), b2 @ b2.T + 0.3 * np.eye(3)
    mu1, mu2 = rng.uniform(-1, 1, size=(2, 3))
    kl = impl(dv.kl_gaussian)(mu1, s1, mu2, s2)
    near = impl(dv.alpha_divergence_gaussian)(mu1, s1, mu2, s2, 1.0 - 1e-5)
    return BoundCheck(
        claim="D_α -> KL(P‖Q) as α -> 1",
        paper=_PAPER,
        theorem="G3",
        measured=near,
        bound=kl,
        sense="==",
        rtol=1e-4,
        params={"seed": seed},
    )


def _log_coefficient_by_precisions(
    mu1: FloatArray, s1: FloatArray, mu2: FloatArray, s2: FloatArray, alpha: float
) -> float:
    """``log ∫ p^α q^{1-α} dx`` from the integrand's own quadratic form: with precisions
    ``P_i = Σ_i⁻¹``, ``Λ = αP_1 + (1-α)P_2``, ``η = αP_1μ_1 + (1-α)P_2μ_2`` and
    ``c = αμ_1ᵀP_1μ_1 + (1-α)μ_2ᵀP_2μ_2``, the integral of ``exp(-½xᵀΛx + ηᵀx - ½c)`` divided by
    the normalisers ``|2πΣ_1|^{α/2} |2πΣ_2|^{(1-α)/2}`` (no ``Σ_α``, no Cholesky)."""
    d = mu1.size
    p1, p2 = np.linalg.inv(s1), np.linalg.inv(s2)
    lam = alpha * p1 + (1.0 - alpha) * p2
    eta = alpha * p1 @ mu1 + (1.0 - alpha) * p2 @ mu2
    c = alpha * mu1 @ p1 @ mu1 + (1.0 - alpha) * mu2 @ p2 @ mu2
    log_two_pi = math.log(2.0 * math.pi)
    return float(
        0.5 * d * log_two_pi
        - 0.5 * np.linalg.slogdet(lam)[1]
        + 0.5 * eta @ np.linalg.solve(lam, eta)
        - 0.5 * c
        - 0.5 * alpha * (d * log_two_pi + np.linalg.slogdet(s1)[1])
        - 0.5 * (1.0 - alpha) * (d * log_two_pi + np.linalg.slogdet(s2)[1])
    )


def _kl_by_scipy(mu1: FloatArray, s1: FloatArray, mu2: FloatArray, s2: FloatArray) -> float:
    """``KL(P‖Q) = E_P[-log q] - H(P)``: ``E_P[-log q] = -log q(μ_1) + ½tr(Σ_2⁻¹Σ_1)`` (the
    quadratic's mean), with scipy's log-density and entropy."""
    cross = -float(stats.multivariate_normal(mu2, s2).logpdf(mu1))
    cross += 0.5 * float(np.trace(np.linalg.solve(s2, s1)))
    return cross - float(stats.multivariate_normal(mu1, s1).entropy())


def g1_closed_form(seed: int, d: int, alphas: tuple[float, ...]) -> BoundCheck:
    """G1 / G3 as formulas: ``log A_α``, ``D_α = (1 - A_α)/(α(1-α))`` and ``KL(P‖Q)`` equal the
    precision-form integral (:func:`_log_coefficient_by_precisions`) and scipy's cross-entropy
    minus entropy, for two Gaussians with unequal covariances (``Σ_2`` drawn on another scale)
    and each ``α`` (away from ½, where ``α`` and ``1-α`` differ).

    Measured: the largest relative error; bound ``G1_RTOL``.
    """
    rng = np.random.default_rng(seed)
    b1, b2 = rng.uniform(-1.0, 1.0, size=(2, d, d))
    s1 = b1 @ b1.T + 0.3 * np.eye(d)
    s2 = rng.uniform(0.3, 3.0) * (b2 @ b2.T + 0.3 * np.eye(d))
    mu1, mu2 = rng.uniform(-1.0, 1.0, size=(2, d))
    errors = []
    for alpha in alphas:
        log_a = _log_coefficient_by_precisions(mu1, s1, mu2, s2, alpha)
        want = -math.expm1(log_a) / (alpha * (1.0 - alpha))
        got_log = float(impl(dv.chernoff_coefficient_gaussian)(mu1, s1, mu2, s2, alpha))
        got = float(impl(dv.alpha_divergence_gaussian)(mu1, s1, mu2, s2, alpha))
        errors.append(abs(got_log - log_a) / max(1.0, abs(log_a)))
        errors.append(abs(got - want) / max(1e-3, abs(want)))
    kl = _kl_by_scipy(mu1, s1, mu2, s2)
    errors.append(abs(float(impl(dv.kl_gaussian)(mu1, s1, mu2, s2)) - kl) / max(1e-3, abs(kl)))
    return BoundCheck(
        claim="G1 closed form (and the KL of G3) equal the Gaussian integral, unequal covariances",
        paper=_PAPER,
        theorem="G1 / G3",
        measured=max(errors),
        bound=G1_RTOL,
        sense="<=",
        params={"seed": seed, "d": d, "alphas": alphas},
    )


def rff_rate_in_features(
    seed: int,
    *,
    n: int = 1000,
    sizes: tuple[int, ...] = (16, 32, 64, 128, 256),
    draws: int = 6,
    proxy: int = 2048,
    iterations: int = 300,
) -> BoundCheck:
    """E_rff = O(R D^{-1/2}): slope of log mean|D̂_D - D̂_∞| against log D lies in [-0.7, -0.3].

    Same data for all D (N(0,1) vs N(1,1), α = ½, R = 3, full-batch Armijo); the proxy D̂_∞ is the
    mean of 3 fits with ``proxy`` features.  Measured: the fitted slope; bound: the interval
    [-0.7, -0.3] given as ``== -0.5`` with atol 0.2 (spec 13, Section 4, rate checks).
    """
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 1))
    y = rng.standard_normal((n, 1)) + 1.0
    cfg = dv.ArmijoConfig(radius=3.0, max_iter=iterations, batch_size=None, tol=1e-12)

    def fit(num: int, key: int) -> float:
        feats = impl(dv.make_rff)(1, num, sigma=1.0, rng=np.random.default_rng(key))
        zx, zy = feats.transform(x), feats.transform(y)
        theta = impl(dv.armijo_ascent)(zx, zy, 0.5, cfg).theta
        return alpha_objective_parts(zx, zy, np.asarray(theta), 0.5)[0]

    limit = float(np.mean([fit(proxy, 10_000 + k) for k in range(3)]))
    errors = [
        float(np.mean([abs(fit(size, 100 * size + k) - limit) for k in range(draws)]))
        for size in sizes
    ]
    slope = float(np.polyfit(np.log(sizes), np.log(errors), 1)[0])
    return BoundCheck(
        claim="|D̂_D - D̂_∞| decays like D^{-1/2}",
        paper=_PAPER,
        theorem="Section 4 (E_rff)",
        measured=slope,
        bound=-0.5,
        sense="==",
        atol=0.2,
        params={"seed": seed, "n": n, "sizes": sizes, "draws": draws},
        series={"mean |D̂_D - D̂_∞|": (tuple(float(s) for s in sizes), tuple(errors))},
        xlabel="features D",
        ylabel="mean |D̂_D - D̂_∞|",
        scatter=True,
        slope=-0.5,
    )


# ------------------------------------------------------------------------------ drivers
@register(
    name="divergence.v1_conjugate",
    family="divergence",
    paper=_PAPER,
    theorem="V1",
    algorithms=("reference.divergence:f_alpha_conjugate",),
)
def prove_v1(profile: ProveProfile) -> BoundCheck:
    """Grid of α in (0, 1) and t below the domain edge 1/(1-α)."""
    alphas = (0.1, 0.5, 0.9) if not profile.is_full else tuple(np.linspace(0.05, 0.95, 10))
    checks = []
    for a in alphas:
        edge = 1.0 / (1.0 - a)
        checks.append(v1_conjugate(float(a), np.linspace(-5.0, edge - 0.05 * edge, 12)))
    return worst(checks)


@register(
    name="divergence.v2_log_ratio",
    family="divergence",
    paper=_PAPER,
    theorem="V2",
    algorithms=("reference.divergence:alpha_divergence_gaussian",),
)
def prove_v2(profile: ProveProfile) -> BoundCheck:
    """Equality and strictness for N(0,1) vs N(1,1) and random means."""
    rng = np.random.default_rng(profile.seed)
    cases = [(0.0, 1.0, 0.5)] + [
        (float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1)), float(rng.uniform(0.1, 0.9)))
        for _ in range(2 if not profile.is_full else 10)
    ]
    return worst(
        [v2_log_ratio_bound(*c) for c in cases]
        + [v2_strictness(*c) for c in cases if abs(c[0] - c[1]) > 0.1]
    )


@register(
    name="divergence.v3_profiled",
    family="divergence",
    paper=_PAPER,
    theorem="V3",
    algorithms=("reference.divergence:profiled_value", "reference.divergence:armijo_ascent"),
)
def prove_v3(profile: ProveProfile) -> BoundCheck:
    """Full-batch optima on two random problems (more in full)."""
    return worst(
        v3_profiled_value(profile.seed + k) for k in range(2 if not profile.is_full else 8)
    )


@register(
    name="divergence.v4_curvature",
    family="divergence",
    paper=_PAPER,
    theorem="V4",
    algorithms=("reference.divergence:alpha_objective_hessian",),
)
def prove_v4(profile: ProveProfile) -> BoundCheck:
    """Hessian formula and the μ lower bound at random θ."""
    count = profile.instances
    return worst(
        [v4_hessian_formula(profile.seed + k) for k in range(count)]
        + [v4_curvature(profile.seed + k) for k in range(count)]
    )


@register(
    name="divergence.v5_armijo_rate",
    family="divergence",
    paper=_PAPER,
    theorem="V5",
    algorithms=("reference.divergence:armijo_ascent",),
)
def prove_v5(profile: ProveProfile) -> BoundCheck:
    """Linear rate of full-batch Armijo (spec sizes n = 2000, D = 128 in full)."""
    if profile.is_full:
        rate = v5_armijo_linear_rate(profile.seed, n=2000, num_features=16, iterations=2000)
    else:
        rate = v5_armijo_linear_rate(profile.seed)
    return worst([v5_fit_quality(rate), rate])


@register(
    name="divergence.g3_kl_limit",
    family="divergence",
    paper=_PAPER,
    theorem="G3",
    algorithms=(
        "reference.divergence:kl_gaussian",
        "reference.divergence:alpha_divergence_gaussian",
    ),
)
def prove_g3(profile: ProveProfile) -> BoundCheck:
    """Random 3-D Gaussians."""
    return worst(g3_kl_limit(profile.seed + k) for k in range(profile.instances))


@register(
    name="divergence.g1_closed_form",
    family="divergence",
    paper=_PAPER,
    theorem="G1 / G3",
    algorithms=(
        "reference.divergence:alpha_divergence_gaussian",
        "reference.divergence:chernoff_coefficient_gaussian",
        "reference.divergence:kl_gaussian",
    ),
)
def prove_g1_closed_form(profile: ProveProfile) -> BoundCheck:
    """Unequal covariances in d = 1, 3, 5 (cycled), α ∈ {0.1, 0.3, 0.5, 0.7, 0.9}."""
    alphas = (0.1, 0.3, 0.5, 0.7, 0.9)
    dims = (1, 3, 5)
    return worst(
        g1_closed_form(profile.seed + 11 * k, dims[k % 3], alphas) for k in range(profile.instances)
    )


@register(
    name="divergence.rff_rate",
    family="divergence",
    paper=_PAPER,
    theorem="Section 4 (E_rff)",
    algorithms=("reference.divergence:make_rff", "reference.divergence:armijo_ascent"),
    profiles=("full",),
)
def prove_rff_rate(profile: ProveProfile) -> BoundCheck:
    """D-rate at n = 1000, D in 16..256, 6 feature draws (full profile only: about a minute).

    With n = 300 the fitted slope is unstable across seeds (we saw -0.54 to -1.11), so no smaller
    quick version is offered; the spec's own size (n = 4000, D up to 512) is a ``slow`` test.
    """
    return rff_rate_in_features(
        profile.seed, n=1000, sizes=(16, 32, 64, 128, 256), draws=6, proxy=2048, iterations=300
    )


def _estimator_instance(seed: int, d: int, num_features: int) -> tuple[FloatArray, FloatArray, Any]:
    """P = N(0, I), Q = N(e_1, diag(0.5..2)) (unequal covariances), 200 and 240 points (even,
    unequal sizes), fixed features of bandwidth 1."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((200, d))
    y = rng.standard_normal((240, d)) * np.sqrt(np.linspace(0.5, 2.0, d)) + np.eye(d)[0]
    return x, y, dv.make_rff(d, num_features, sigma=1.0, rng=rng)


def _ball_optimum(zx: FloatArray, zy: FloatArray, alpha: float, radius: float) -> float:
    """``max Ĵ(w, c)`` over ``||w|| <= R`` by SLSQP on our own objective and gradient
    (concave objective, one convex constraint: the KKT point is the maximum)."""
    size = zx.shape[1] + 1

    def negative(t: FloatArray) -> float:
        return -alpha_objective_parts(zx, zy, t, alpha)[0]

    def negative_grad(t: FloatArray) -> FloatArray:
        return -alpha_objective_parts(zx, zy, t, alpha)[1]

    ball = optimize.NonlinearConstraint(
        lambda t: np.array([radius * radius - float(t[:-1] @ t[:-1])]),
        0.0,
        np.inf,
        jac=lambda t: np.concatenate([-2.0 * t[:-1], [0.0]])[None, :],
    )
    solution = optimize.minimize(
        negative,
        np.zeros(size),
        jac=negative_grad,
        constraints=[ball],
        method="SLSQP",
        options={"ftol": 1e-15, "maxiter": 1000},
    )
    return -float(solution.fun)


def s3_estimator(
    seed: int, *, alpha: float, radius: float, d: int = 2, num_features: int = 8
) -> BoundCheck:
    """Spec 13 §2-3, the estimator end to end with fixed features and a full-batch optimiser.

    ``heldout=False``: the reported value equals Ĵ at the returned θ on the whole samples
    (recomputed, ``1e-10``), θ's critic lies in the ball ``||w|| <= R`` (relative ``1e-12``)
    and no point of the ball does better (independent SLSQP optimum, ``1e-8``: both solvers'
    tolerances).  ``heldout=True``: the fitting and held-out halves partition each sample
    (even sizes), and Ĵ is an average over points, so ``value + value_heldout = 2 Ĵ_full(θ)``
    (``1e-10``).  Scaled to one number, bound 1.
    """
    x, y, feats = _estimator_instance(seed, d, num_features)
    zx, zy = feats.transform(x), feats.transform(y)
    config = dv.ArmijoConfig(radius=radius, max_iter=3000, batch_size=None)
    run = impl(dv.estimate_alpha_divergence)
    whole = run(
        x, y, alpha, rng=np.random.default_rng(seed), features=feats, heldout=False, config=config
    )
    theta = np.asarray(whole.fit.theta, dtype=np.float64)
    if theta.shape != (num_features + 1,):
        return BoundCheck(
            claim="RFF estimator: θ = (w, c) over the given features",
            paper=_PAPER,
            theorem="Sections 2-3 (estimator)",
            measured=float(theta.size),
            bound=float(num_features + 1),
            sense="==",
            params={"seed": seed},
        )
    value = alpha_objective_parts(zx, zy, theta, alpha)[0]
    optimum = _ball_optimum(zx, zy, alpha, radius)
    split = run(
        x,
        y,
        alpha,
        rng=np.random.default_rng(seed + 1),
        features=feats,
        heldout=True,
        config=config,
    )
    split_full = alpha_objective_parts(
        zx, zy, np.asarray(split.fit.theta, dtype=np.float64), alpha
    )[0]
    parts = {
        "value": abs(whole.value - value) / 1e-10,
        "ball": float(np.linalg.norm(theta[:-1])) / (radius * (1.0 + 1e-12)),
        "optimum": (optimum - value) / 1e-8,
        "halves": abs(split.value + split.value_heldout - 2.0 * split_full) / 1e-10,
    }
    return BoundCheck(
        claim="RFF estimator: reported Ĵ at its θ, θ in the ball and optimal there; held-out "
        "and fitting halves partition the samples",
        paper=_PAPER,
        theorem="Sections 2-3 (estimator)",
        measured=max(parts.values()),
        bound=1.0,
        sense="<=",
        params={"seed": seed, "alpha": alpha, "R": radius, "D": num_features, **parts},
    )


@register(
    name="divergence.s3_estimator",
    family="divergence",
    paper=_PAPER,
    theorem="Sections 2-3 (estimator end to end)",
    algorithms=("reference.divergence:estimate_alpha_divergence",),
)
def prove_s3(profile: ProveProfile) -> BoundCheck:
    """``(α, R) ∈ {(0.3, 3), (0.8, 0.5), (0.5, 1)}`` (α away from 1/2, the ball active), d = 2
    and d = 3, unequal covariances and sample sizes."""
    return worst(
        [
            s3_estimator(profile.seed + 31, alpha=0.3, radius=3.0),
            s3_estimator(profile.seed + 32, alpha=0.8, radius=0.5, d=3),
            s3_estimator(profile.seed + 33, alpha=0.5, radius=1.0, num_features=12),
        ]
    )
