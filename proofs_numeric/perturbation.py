"""Numeric checks of Abe et al., "Asymmetric Perturbation in Solving Bilinear Saddle-Point
Optimization" (ICML 2026, arXiv:2506.05747), spec 19.

Matrix games (family ``perturbation``):

* :func:`closed_form_example` — AsymP-GDA and the QP reach the closed-form ``x^μ`` of the
  2 x 2 game of spec 19 §4 (equilibrium for ``μ <= 15``, shifted above).
* :func:`corollary_3_2` — invariance: for ``μ < α / max_{x∈Δ}||x||`` the limit of AsymP-GDA
  lies in ``X*`` (Theorem 3.1 / Corollary 3.2), with ``α`` computed from the instance.
* :func:`threshold_direction` — the theorem's threshold is sufficient but loose: it is
  ``<=`` the empirical invariance threshold ``μ*`` (direction only, as the spec says).
* :func:`distance_bound` — derived corollary (iii): ``dist(x^μ, X*) <= μ||x†||²/(2α)``.
* :func:`theorem_4_1_rate` — linear last-iterate rate: fitted slope of ``log||x^t - x_ref||``.
* :func:`algorithm_1_complexity` — the parameter-free variant: NashConv ``<= ε`` on return and
  iterations growing like ``log(1/ε)`` (log-log slope far below the ``1/ε`` exponent 1).
* :func:`step_recursion` — the documented recursions themselves (x side, y side in both
  orders, the two-run AsymP-GDA) replayed step by step with caller-chosen ``η`` and ``μ``.
* :func:`brps_invariance` — biased RPS in the paper's orientation (``A = -P``, spec 19 §8):
  invariance for ``μ <= 2``, and at ``μ = 3, 4`` a shift towards action 1 (``x_1 > x_3``;
  the mirrored game ``A = +P`` shifts towards action 3).

* :func:`minimiser_duality_gap` — values, not only minimisers: ``x^μ`` and its perturbed value
  against an exact support-enumeration oracle, and ``gap_μ`` at random points and at the
  saddle point against its formula, on non-square games with μ away from 1.

The extensive-form checks (Kuhn poker) are in :mod:`proofs_numeric.extensive`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Literal

import numpy as np

from proofs_numeric._registry import ProveProfile, impl, register, worst
from proofs_numeric._result import BoundCheck
from reference import perturbation as pert
from reference._arrays import FloatArray, as_float_array
from reference.games import solve_lp

__all__ = [
    "BRPS",
    "CLOSED_FORM",
    "MINIMISER_VALUE_RTOL",
    "algorithm_1_complexity",
    "brps_invariance",
    "closed_form_example",
    "corollary_3_2",
    "distance_bound",
    "exact_perturbed_saddle",
    "minimiser_duality_gap",
    "perturbed_target",
    "project_onto_simplex",
    "pure_nash_conv",
    "sharpness_constant",
    "step_recursion",
    "theorem_4_1_rate",
    "threshold_direction",
]

PAPER = "Abe et al. (ICML 2026)"
#: Biased rock-paper-scissors in the paper's orientation: our loss ``A = -P`` of the row
#: player's utility ``P`` (spec 19 §8; :func:`reference.perturbation.biased_rps`), x minimises;
#: equilibrium (1/5, 3/5, 1/5).
BRPS: FloatArray = np.array(pert.biased_rps())
#: The 2 x 2 game of spec 19 §4: X* = {(2/5, 3/5)}, α = √2, invariance iff μ <= 15.
CLOSED_FORM: FloatArray = np.array([[2.0, -1.0], [-1.0, 1.0]])
#: Support / active-set threshold used to read ``x*`` and the best responses off the LP.
_ACTIVE = 1e-9

Solver = Callable[..., pert.GDAResult]


# ------------------------------------------------------------------------------ helpers
def sharpness_constant(payoff: object) -> float:
    """The sharpness ``α`` of ``g(x) = max_j (xᵀA)_j`` at a *unique* minimiser ``x*``.

    ``α`` is the largest constant with ``g(x) - v* >= α·||x - x*||`` on the simplex (spec 19
    §2).  Because ``g - v*`` is convex and zero at ``x*``, the ratio is smallest along rays
    at ``x*`` [derived]: ``α = min { g'(x*; d) : ||d|| = 1, d feasible }`` with
    ``g'(x*; d) = max_{j∈J} (Aᵀd)_j`` (``J`` the best responses to ``x*``).  Equivalently
    ``1/α = max ||d||_2`` over the polytope ``{1ᵀd = 0, d_i >= 0 (x*_i = 0), (Aᵀd)_j <= 1
    (j ∈ J)}``, a convex maximisation attained at a vertex; we enumerate the vertices, so
    keep ``m`` small (<= 6).  Returns 0 when ``x*`` is not a sharp (unique) minimiser.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shape or non-finite payoffs.
    """
    a = as_float_array("payoff", payoff, ndim=2)
    m = a.shape[0]
    if m == 1:
        return math.inf
    sol = solve_lp(a)
    x_star = np.asarray(sol.x)
    active_cols = np.nonzero(x_star @ a >= sol.value - _ACTIVE)[0]
    zero_rows = np.nonzero(x_star <= _ACTIVE)[0]
    # constraints  row · d <= rhs
    rows = [-np.eye(m)[i] for i in zero_rows] + [a[:, j] for j in active_cols]
    rhs = [0.0] * len(zero_rows) + [1.0] * len(active_cols)
    g = np.array(rows)
    h = np.array(rhs)
    best = 0.0
    ones = np.ones((1, m))
    for subset in itertools.combinations(range(len(rows)), m - 1):
        system = np.vstack([ones, g[list(subset)]])
        if abs(np.linalg.det(system)) < 1e-12:
            continue
        d = np.linalg.solve(system, np.concatenate([[0.0], h[list(subset)]]))
        if np.all(g @ d <= h + 1e-9):
            best = max(best, float(np.linalg.norm(d)))
    # unbounded polytope (a non-sharp minimiser): some feasible ray has g'(x*; d) <= 0
    return 0.0 if best == 0.0 or not _bounded(g, h, m) else 1.0 / best


def _bounded(g: FloatArray, h: FloatArray, m: int) -> bool:
    """The polytope {1ᵀd = 0, g d <= h} is bounded iff no nonzero ray with g r <= 0 exists."""
    from scipy.optimize import linprog

    for sign in (1.0, -1.0):
        for k in range(m):
            cost = np.zeros(m)
            cost[k] = -sign
            res = linprog(
                cost,
                A_ub=g,
                b_ub=np.zeros(len(h)),
                A_eq=np.ones((1, m)),
                b_eq=[0.0],
                bounds=[(-1.0, 1.0)] * m,
                method="highs",
            )
            if res.status == 0 and res.fun is not None and -float(res.fun) > 1e-9:
                return False
    return True


def _limit(payoff: FloatArray, mu: float, iterations: int) -> FloatArray:
    """x-side AsymP-GDA last iterate after exactly ``iterations`` steps."""
    return np.asarray(impl(pert.asymp_gda_side)(payoff, mu=mu, max_iter=iterations, tol=None).x)


# ------------------------------------------------------------------------------ checks
def closed_form_example(mu: float, *, iterations: int = 20_000) -> BoundCheck:
    """Spec 19 §4 closed form: ``x^μ = (2/5, 3/5)`` iff ``μ <= 15``, else
    ``(1/2 - 3/(2μ), 1/2 + 3/(2μ))``; measured: the larger error of AsymP-GDA's last iterate
    and of the QP oracle.  Error budget ``1e-8`` (the spec's), covering SLSQP's accuracy."""
    exact = np.array([0.4, 0.6]) if mu <= 15.0 else np.array([0.5 - 1.5 / mu, 0.5 + 1.5 / mu])
    x_gda = _limit(CLOSED_FORM, mu, iterations)
    x_qp = np.asarray(impl(pert.perturbed_minimiser)(CLOSED_FORM, mu=mu))
    error = max(float(np.max(np.abs(x_gda - exact))), float(np.max(np.abs(x_qp - exact))))
    return BoundCheck(
        claim="AsymP-GDA limit and QP equal the closed-form x^μ of [[2,-1],[-1,1]]",
        paper=PAPER,
        theorem="Corollary 3.2 (closed form, Abe et al., ICML 2026)",
        measured=error,
        bound=0.0,
        sense="<=",
        atol=1e-8,
        params={"mu": mu, "iterations": iterations},
    )


def _x_side_radius(a: FloatArray, mu: float, step_size: float) -> float:
    """Spectral radius of the x-side AsymP-GDA step ``x' = Π((1 - ημ)x - ηAy)``,
    ``y' = Π(y + ηAᵀx')`` with ``Π = I - 11ᵀ/n``, the projection's linear part while every
    entry stays positive [derived, spec 19 §3.1]."""
    m, n = a.shape
    px, py = np.eye(m) - 1.0 / m, np.eye(n) - 1.0 / n
    x_row = np.hstack([(1.0 - step_size * mu) * px, -step_size * (px @ a)])
    y_row = step_size * (py @ a.T @ x_row) + np.hstack([np.zeros((n, m)), py])
    return float(np.abs(np.linalg.eigvals(np.vstack([x_row, y_row]))).max())


def corollary_3_2(
    payoff: object, *, fraction: float = 0.9, iterations: int = 20_000, solver: Solver | None = None
) -> BoundCheck:
    """Invariance: with ``μ = fraction·α/max||x||`` (``max_{x∈Δ}||x|| = 1``) the x-side
    AsymP-GDA limit lies in ``X* = {x*}``.

    Measured: ``||x^T - x*||_2`` after ``T`` steps; bound 0 with ``atol = 1e-7`` (LP
    tolerance 1e-10 plus the iterate's remaining error).  The claim is about the limit, so ``T``
    is ``iterations`` raised to ``⌈25 (μ + ||A||_2) / μ⌉`` (the rate ``1 - ημ`` of the perturbed
    player alone, ``η = 1/(μ + ||A||_2)``) and to ``⌈ln(10^11) / -ln ρ⌉`` with ``ρ`` the spectral
    radius of the step linearised on the interior (:func:`_x_side_radius`), at most 200 000.
    The second can be twice the first: on ``default_rng(346).standard_normal((3, 3))`` at
    fraction 1/2 (``α = 0.026``) ``ρ = 0.99793`` asks 12 230 steps, the first 6 048, and after
    6 000 steps the iterate was 1.4e-7 from ``x*`` (2.5e-14 after 12 000).  ``solver`` replaces :func:`reference.perturbation.asymp_gda_side` (tests
    pass a broken one).
    """
    a = as_float_array("payoff", payoff, ndim=2)
    alpha = sharpness_constant(a)
    mu = fraction * alpha if math.isfinite(alpha) else 1.0
    norm = float(np.linalg.norm(a, 2))
    radius = _x_side_radius(a, mu, 1.0 / (mu + norm))
    linear = math.log(1e11) / -math.log(radius) if 0.0 < radius < 1.0 else 0.0
    steps = max(iterations, min(200_000, math.ceil(max(25.0 * (mu + norm) / mu, linear))))
    run = solver or impl(pert.asymp_gda_side)
    x = np.asarray(run(a, mu=mu, max_iter=steps, tol=None).x)
    x_star = np.asarray(solve_lp(a).x)
    return BoundCheck(
        claim="μ < α/max||x|| implies x^μ ∈ X* (AsymP-GDA limit equals the LP equilibrium)",
        paper=PAPER,
        theorem="Theorem 3.1 / Corollary 3.2",
        measured=float(np.linalg.norm(x - x_star)),
        bound=0.0,
        sense="<=",
        atol=1e-7,
        params={"shape": a.shape, "alpha": alpha, "mu": mu, "iterations": steps},
    )


def _invariant(a: FloatArray, x_star: FloatArray, mu: float) -> bool:
    x = np.asarray(impl(pert.perturbed_minimiser)(a, mu=mu))
    return float(np.max(np.abs(x - x_star))) <= 1e-6


def empirical_threshold(payoff: object, *, start: float = 1e-3, steps: int = 40) -> float:
    """Largest ``μ`` with ``x^μ ∈ X*`` (QP oracle, 1e-6), by doubling then bisection.

    The invariance set is an interval ``(0, μ*]`` [derived, spec 19 §4 (ii)], so bisection
    applies.  Returns ``start`` if even ``start`` is not invariant and ``inf`` past ``2^40 start``.
    """
    a = as_float_array("payoff", payoff, ndim=2)
    x_star = np.asarray(solve_lp(a).x)
    lo = start
    if not _invariant(a, x_star, lo):
        return start
    hi = lo * 2.0
    for _ in range(40):
        if not _invariant(a, x_star, hi):
            break
        lo, hi = hi, hi * 2.0
    else:
        return math.inf
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if _invariant(a, x_star, mid) else (lo, mid)
    return lo


def threshold_direction(payoff: object) -> BoundCheck:
    """The theorem's threshold ``α/max||x||`` is ``<=`` the empirical ``μ*`` (sufficient, loose).

    Error budget: ``rtol = 1e-3`` for the bisection and the QP tolerance.  The ratio shows how
    loose the threshold is (``√2/15 ≈ 0.094`` on the closed-form game).
    """
    a = as_float_array("payoff", payoff, ndim=2)
    alpha = sharpness_constant(a)
    mu_star = empirical_threshold(a)
    return BoundCheck(
        claim="α/max||x|| <= μ* (the invariance threshold of Theorem 3.1 is sufficient)",
        paper=PAPER,
        theorem="Theorem 3.1 (threshold direction; Appendix E: it can be loose)",
        measured=alpha,
        bound=mu_star,
        sense="<=",
        rtol=1e-3,
        params={"shape": a.shape, "alpha": alpha, "mu_star": mu_star},
    )


def distance_bound(payoff: object, *, mu: float, iterations: int = 20_000) -> BoundCheck:
    """Derived corollary (iii): ``dist(x^μ, X*) <= μ||x†||²/(2α)`` for every ``μ > 0``.

    Measured from AsymP-GDA's last iterate; ``x† = x*`` (unique equilibrium).  Budget
    ``atol = 1e-7`` for the iterate and LP errors.
    """
    a = as_float_array("payoff", payoff, ndim=2)
    alpha = sharpness_constant(a)
    x_star = np.asarray(solve_lp(a).x)
    x = _limit(a, mu, iterations)
    bound = mu * float(x_star @ x_star) / (2.0 * alpha) if alpha > 0 else math.inf
    return BoundCheck(
        claim="dist(x^μ, X*) <= μ||x†||²/(2α) (derived from the proof of Theorem 3.1)",
        paper=PAPER,
        theorem="Theorem 3.1 (distance bound, Abe et al., ICML 2026)",
        measured=float(np.linalg.norm(x - x_star)),
        bound=bound,
        sense="<=",
        atol=1e-7,
        params={"shape": a.shape, "alpha": alpha, "mu": mu},
    )


def _fit(ts: FloatArray, ys: FloatArray) -> tuple[float, float]:
    slope, intercept = np.polyfit(ts, ys, 1)
    resid = ys - (slope * ts + intercept)
    total = float(np.sum((ys - ys.mean()) ** 2))
    r2 = 1.0 - float(np.sum(resid**2)) / total if total > 0 else 1.0
    return float(slope), r2


def perturbed_target(payoff: FloatArray, mu: float) -> tuple[FloatArray, bool]:
    """``x^μ = argmin_{x∈Δ} max_j (xᵀA)_j + (μ/2)||x||²``, independent of the iterative methods.

    Start from the library's QP oracle :func:`reference.perturbation.perturbed_minimiser`
    (SLSQP, ~1e-8), read off its support ``S`` and active columns ``J``, and solve the KKT
    system of the QP exactly (one linear solve):
    ``μ x_S + A_SJ λ - ν 1 = 0``, ``A_SJᵀ x_S = t 1``, ``1ᵀx_S = 1``, ``1ᵀλ = 1``.  The polished
    point is kept only if it satisfies every KKT condition (signs of ``x``, ``λ``, the slack
    of the inactive columns and of the rows off the support) to 1e-12; else the SLSQP point
    is returned.  Returns ``(x^μ, polished)``.
    """
    x0 = np.asarray(pert.perturbed_minimiser(payoff, mu=mu), dtype=np.float64)
    t0 = float(np.max(x0 @ payoff))
    rows = np.flatnonzero(x0 > 1e-6)
    cols = np.flatnonzero(x0 @ payoff >= t0 - 1e-6)
    ns, nj = rows.size, cols.size
    sub = payoff[np.ix_(rows, cols)]
    kkt = np.zeros((ns + nj + 2, ns + nj + 2))  # unknowns: x_S, λ_J, ν, t
    kkt[:ns, :ns] = mu * np.eye(ns)
    kkt[:ns, ns : ns + nj] = sub
    kkt[:ns, ns + nj] = -1.0
    kkt[ns : ns + nj, :ns] = sub.T
    kkt[ns : ns + nj, ns + nj + 1] = -1.0
    kkt[ns + nj, :ns] = 1.0
    kkt[ns + nj + 1, ns : ns + nj] = 1.0
    rhs = np.zeros(ns + nj + 2)
    rhs[ns + nj] = rhs[ns + nj + 1] = 1.0
    try:
        z = np.linalg.solve(kkt, rhs)
    except np.linalg.LinAlgError:
        return x0, False
    x = np.zeros_like(x0)
    x[rows] = z[:ns]
    lam = np.zeros(payoff.shape[1])
    lam[cols] = z[ns : ns + nj]
    nu, t = z[ns + nj], z[ns + nj + 1]
    reduced = mu * x + payoff @ lam - nu  # = 0 on S, >= 0 off S
    valid = (
        x.min() >= -1e-12
        and lam.min() >= -1e-12
        and float(np.max(x @ payoff)) <= t + 1e-12
        and float(reduced.min()) >= -1e-12
    )
    return (x, True) if valid else (x0, False)


def theorem_4_1_rate(
    payoff: object,
    *,
    mu: float = 0.05,
    horizon: int = 2000,
    solver: Solver | None = None,
) -> tuple[BoundCheck, BoundCheck]:
    """Linear last-iterate convergence: slope of ``log||x^t - x^μ||`` over ``t ∈ [0, horizon]``
    is ``< -1e-3`` and the linear fit has ``R² > 0.9`` (spec 19 §4; constants not retrieved,
    the thresholds are the spec's empirical ones).

    ``x^μ`` is the perturbed minimax strategy computed independently of the method by
    :func:`perturbed_target` (QP plus exact KKT solve), not the method's own long-run limit,
    so a method converging fast to the wrong point fails.  Distances below the target's
    accuracy (1e-11 polished, 1e-6 SLSQP only) are not fitted.  Returns
    ``(slope check, R² check)``.
    """
    a = as_float_array("payoff", payoff, ndim=2)
    run = solver or impl(pert.asymp_gda_side)
    ref, polished = perturbed_target(a, mu)
    floor = 1e-11 if polished else 1e-6
    x = np.full(a.shape[0], 1.0 / a.shape[0])
    y = np.full(a.shape[1], 1.0 / a.shape[1])
    step_size = pert.default_step_size(a, mu=mu)
    ts: list[float] = []
    logs: list[float] = []
    stride = max(1, horizon // 200)
    for start in range(0, horizon, stride):
        res = run(a, mu=mu, step_size=step_size, max_iter=stride, tol=None, x0=x, y0=y)
        x, y = np.asarray(res.x), np.asarray(res.y)
        dist = float(np.linalg.norm(x - ref))
        if dist > floor:
            ts.append(float(start + stride))
            logs.append(math.log(dist))
    slope, r2 = _fit(np.array(ts), np.array(logs)) if len(ts) >= 3 else (0.0, 0.0)
    params = {
        "shape": a.shape,
        "mu": mu,
        "horizon": horizon,
        "slope": slope,
        "r2": r2,
        "target_polished": polished,
        "points_fitted": len(ts),
    }
    series = {"log||x^t - x^mu||": (tuple(ts), tuple(logs))}
    return (
        BoundCheck(
            claim="AsymP-GDA converges linearly to x^μ: fitted slope of log||x^t - x^μ|| < -1e-3",
            paper=PAPER,
            theorem="Theorem 4.1 (fitted rate)",
            measured=slope,
            bound=-1e-3,
            sense="<=",
            params=params,
            series=series,
        ),
        BoundCheck(
            claim="the log-distance curve is linear: R² of the fit > 0.9",
            paper=PAPER,
            theorem="Theorem 4.1 (fit quality)",
            measured=r2,
            bound=0.9,
            sense=">=",
            params=params,
        ),
    )


def pure_nash_conv(payoff: FloatArray, x: object, y: object) -> float:
    """NashConv ``max_j (xᵀA)_j - min_i (Ay)_i`` by pure best responses (a linear function on
    the simplex peaks at a vertex), plus each strategy's distance from the simplex
    (``|1ᵀx - 1| + max(0, -min x)``) so an invalid strategy cannot score 0.

    Written out here, independent of the library's gap routine.
    """
    xv = np.asarray(x, dtype=np.float64)
    yv = np.asarray(y, dtype=np.float64)
    off = sum(abs(float(v.sum()) - 1.0) + max(0.0, -float(v.min())) for v in (xv, yv))
    return float(np.max(xv @ payoff)) - float(np.min(payoff @ yv)) + off


def algorithm_1_complexity(
    payoff: object, *, tolerances: tuple[float, ...] = (1e-2, 1e-4, 1e-6, 1e-8)
) -> tuple[BoundCheck, BoundCheck]:
    """Algorithm 1 on one game for each ``ε``: (a) NashConv ``<= ε`` on return (hard), with
    NashConv recomputed from the returned ``(x, y)`` by :func:`pure_nash_conv` (the result's
    own ``nash_conv`` field is not read);
    (b) the log-log slope of total iterations against ``1/ε`` is ``<= 0.5`` — an
    ``O(log 1/ε)`` method has slope near 0, the ``O~(1/ε)`` symmetric schemes slope 1
    (documented tolerance 0.5 separates the two).  Returns ``(a, b)``."""
    a = as_float_array("payoff", payoff, ndim=2)
    iters: list[float] = []
    worst_ratio = 0.0
    final_mus: list[float] = []
    for eps in tolerances:
        res = impl(pert.parameter_free)(a, tol=eps)
        conv = pure_nash_conv(a, res.x, res.y)
        worst_ratio = max(worst_ratio, conv / eps if res.converged else math.inf)
        iters.append(float(max(res.iterations, 1)))
        final_mus.append(res.mu)
    slope, _ = _fit(np.log(1.0 / np.array(tolerances)), np.log(np.array(iters)))
    params = {
        "shape": a.shape,
        "eps": tolerances,
        "iterations": tuple(int(i) for i in iters),
        "final_mu": tuple(final_mus),
    }
    return (
        BoundCheck(
            claim="parameter-free AsymP-GDA returns NashConv <= ε (max NashConv/ε <= 1)",
            paper=PAPER,
            theorem="Algorithm 1 (termination guarantee)",
            measured=worst_ratio,
            bound=1.0,
            sense="<=",
            params=params,
        ),
        BoundCheck(
            claim="iterations grow like log(1/ε): log-log slope vs 1/ε <= 0.5 (1/ε schemes: 1)",
            paper=PAPER,
            theorem="Algorithm 1 (O(log 1/ε) complexity)",
            measured=slope,
            bound=0.5,
            sense="<=",
            params=params,
            series={"iterations": (tuple(np.log10(1.0 / np.array(tolerances))), tuple(iters))},
        ),
    )


def brps_invariance(
    *, iterations: int = 20_000, payoff: FloatArray = BRPS
) -> tuple[BoundCheck, BoundCheck, BoundCheck]:
    """Biased RPS in the paper's orientation (``A = -P``, spec 19 §8): AsymP-GDA hits the
    equilibrium ``(1/5, 3/5, 1/5)`` for ``μ ∈ {0.5, 1, 2}`` (error ``<= 1e-8``); at ``μ ∈ {3, 4}``
    its x equals the QP's ``x^μ`` (:func:`reference.perturbation.perturbed_minimiser`, SLSQP,
    error ``<= 1e-6``) and is shifted towards action 1: ``x_1 - x_3 >= 1e-3`` (in the mirrored
    game the sign flips: pass ``payoff=-BRPS`` to see the third check fail).  Returns
    ``(invariance, agreement with the QP, oriented shift)``."""
    x_star = np.array([0.2, 0.6, 0.2])

    def limit(mu: float) -> FloatArray:
        return np.asarray(impl(pert.asymp_gda)(payoff, mu=mu, max_iter=iterations, tol=None).x)

    errors = [float(np.max(np.abs(limit(mu) - x_star))) for mu in (0.5, 1.0, 2.0)]
    moved = {mu: limit(mu) for mu in (3.0, 4.0)}
    qp_errors = [
        float(np.max(np.abs(x - np.asarray(pert.perturbed_minimiser(payoff, mu=mu)))))
        for mu, x in moved.items()
    ]
    shifts = [float(x[0] - x[2]) for x in moved.values()]
    return (
        BoundCheck(
            claim="BRPS: AsymP-GDA reaches the original equilibrium for μ <= 2",
            paper=PAPER,
            theorem="Section 6 (μ sweep on BRPS)",
            measured=max(errors),
            bound=0.0,
            sense="<=",
            atol=1e-8,
            params={"mu": (0.5, 1.0, 2.0), "errors": tuple(errors)},
        ),
        BoundCheck(
            claim="BRPS: at μ = 3, 4 AsymP-GDA's x equals the QP's x^μ",
            paper=PAPER,
            theorem="Section 6 (μ sweep on BRPS)",
            measured=max(qp_errors),
            bound=0.0,
            sense="<=",
            atol=1e-6,
            params={
                "mu": (3.0, 4.0),
                "x": tuple(tuple(float(v) for v in x) for x in moved.values()),
            },
        ),
        BoundCheck(
            claim="BRPS (A = -P): at μ = 3, 4 the strategy is shifted towards action 1 (x_1 - x_3 >= 1e-3)",
            paper=PAPER,
            theorem="Section 6 (μ sweep on BRPS)",
            measured=min(shifts),
            bound=1e-3,
            sense=">=",
            params={"mu": (3.0, 4.0), "x_1 - x_3": tuple(shifts)},
        ),
    )


def project_onto_simplex(v: FloatArray) -> FloatArray:
    """Euclidean projection onto the simplex by sorting (threshold ``τ`` with
    ``Σ max(v_i - τ, 0) = 1``), written here independently of the library's projection."""
    u = np.sort(v)[::-1]
    cumulative = np.cumsum(u) - 1.0
    k = np.arange(1, v.size + 1)
    rho = int(np.nonzero(u - cumulative / k > 0)[0][-1])
    out: FloatArray = np.maximum(v - cumulative[rho] / (rho + 1.0), 0.0)
    return out


def step_recursion(
    payoff: object, *, mu: float, step_size: float, steps: int, rng: np.random.Generator
) -> BoundCheck:
    """The documented recursions replayed here from a random interior start, ``steps`` steps
    with the caller's ``η`` and ``μ`` (spec 19 §3.1, §3.2 and §8):

    * x side: ``x' = Π(x - η(Ay + μx))``, then ``y' = Π(y + ηAᵀx')`` (the new x);
    * y side, official order: ``x' = Π(x - ηAy)``, then ``y' = Π(y + η(Aᵀx' - μy))``;
    * y side, ``y_first``: ``y' = Π(y + η(Aᵀx - μy))``, then ``x' = Π(x - ηAy')``;
    * :func:`reference.perturbation.asymp_gda`: x from the x-side run, y from the y-side run.

    Measured: the largest entry-wise difference between the library's iterates and the
    replay; bound 0 with ``atol = 1e-12`` (a few roundings of O(1) quantities).  Identical
    fixed points do not help a wrong recursion here: the comparison is after a few steps.
    """
    a = as_float_array("payoff", payoff, ndim=2)
    m, n = a.shape
    x0, y0 = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(n))
    proj = project_onto_simplex

    def replay(side: str, order: str) -> tuple[FloatArray, FloatArray]:
        x, y = x0.copy(), y0.copy()
        for _ in range(steps):
            if side == "x":
                x = proj(x - step_size * (a @ y + mu * x))
                y = proj(y + step_size * (a.T @ x))
            elif order == "official":
                x = proj(x - step_size * (a @ y))
                y = proj(y + step_size * (a.T @ x - mu * y))
            else:
                y = proj(y + step_size * (a.T @ x - mu * y))
                x = proj(x - step_size * (a @ y))
        return x, y

    errors: dict[str, float] = {}
    runs: tuple[tuple[Literal["x", "y"], Literal["official", "y_first"]], ...] = (
        ("x", "official"),
        ("y", "official"),
        ("y", "y_first"),
    )
    orders: tuple[Literal["official", "y_first"], ...] = ("official", "y_first")
    for side, order in runs:
        res = impl(pert.asymp_gda_side)(
            a,
            mu=mu,
            step_size=step_size,
            max_iter=steps,
            tol=None,
            x0=x0,
            y0=y0,
            side=side,
            variant=order,
        )
        x, y = replay(side, order)
        errors[f"side={side},{order}"] = max(
            float(np.max(np.abs(np.asarray(res.x) - x))),
            float(np.max(np.abs(np.asarray(res.y) - y))),
        )
    for order in orders:
        res = impl(pert.asymp_gda)(
            a, mu=mu, step_size=step_size, max_iter=steps, tol=None, x0=x0, y0=y0, variant=order
        )
        x, y = replay("x", order)[0], replay("y", order)[1]
        errors[f"both,{order}"] = max(
            float(np.max(np.abs(np.asarray(res.x) - x))),
            float(np.max(np.abs(np.asarray(res.y) - y))),
        )
    return BoundCheck(
        claim="AsymP-GDA's iterates follow the documented recursions (x side, y side, both)",
        paper=PAPER,
        theorem="Section 4 (AsymP-GDA recursions, spec 19 §3.1-3.2, §8)",
        measured=max(errors.values()),
        bound=0.0,
        sense="<=",
        atol=1e-12,
        params={"shape": a.shape, "mu": mu, "step_size": step_size, "steps": steps, **errors},
    )


# ------------------------------------------------------------------------------ values
#: ``perturbed_minimiser`` documents SLSQP's accuracy, about 1e-8 on small well-scaled games; its
#: value and point are held to 1e-7 relative.  ``perturbed_gap`` is a formula: its error against
#: the check's evaluation is rounding (1e-15), far inside the same budget.  A wrong sign or a
#: dropped factor of either misses by order μ (0.05 to 4 here).
MINIMISER_VALUE_RTOL = 1e-7


def exact_perturbed_saddle(payoff: FloatArray, mu: float) -> tuple[FloatArray, FloatArray, float]:
    """``(x^μ, y^μ, V_μ)`` of ``min_{x∈Δ} max_{y∈Δ} xᵀAy + (μ/2)||x||²`` by enumerating the
    support ``S`` of ``x`` and the active columns ``J`` (small games only).

    For each pair the KKT conditions are linear: ``μx_i + (Ay)_i = ν`` on ``S``,
    ``(Aᵀx)_j = t`` on ``J``, ``Σx_S = Σy_J = 1``; a solution with ``x, y >= 0``,
    ``(Aᵀx)_j <= t`` off ``J`` and ``(Ay)_i >= ν`` off ``S`` is the saddle point (``x^μ`` is
    unique, the objective being strongly convex in ``x``), and ``V_μ = t + (μ/2)||x||²``.

    Raises:
        ValueError: no pair satisfies the conditions (not reached for ``μ > 0``).
    """
    m, n = payoff.shape
    tol = 1e-11
    for size_s in range(1, m + 1):
        for S in itertools.combinations(range(m), size_s):
            for size_j in range(1, n + 1):
                for J in itertools.combinations(range(n), size_j):
                    k = size_s + size_j + 2
                    kkt = np.zeros((k, k))
                    rhs = np.zeros(k)
                    # unknowns: x_S, y_J, t, ν
                    for r, i in enumerate(S):
                        kkt[r, r] = mu
                        kkt[r, size_s : size_s + size_j] = payoff[i, list(J)]
                        kkt[r, k - 1] = -1.0
                    for r, j in enumerate(J):
                        kkt[size_s + r, :size_s] = payoff[list(S), j]
                        kkt[size_s + r, k - 2] = -1.0
                    kkt[k - 2, :size_s] = 1.0
                    kkt[k - 1, size_s : size_s + size_j] = 1.0
                    rhs[k - 2] = rhs[k - 1] = 1.0
                    try:
                        sol = np.linalg.solve(kkt, rhs)
                    except np.linalg.LinAlgError:
                        continue
                    x = np.zeros(m)
                    y = np.zeros(n)
                    x[list(S)] = sol[:size_s]
                    y[list(J)] = sol[size_s : size_s + size_j]
                    t, nu = float(sol[k - 2]), float(sol[k - 1])
                    if not np.all(np.isfinite(sol)) or min(x.min(), y.min()) < -tol:
                        continue
                    if float(np.max(x @ payoff)) > t + tol:
                        continue
                    if float(np.min(payoff @ y + mu * x)) < nu - tol:
                        continue
                    x, y = np.maximum(x, 0.0), np.maximum(y, 0.0)
                    return x, y, t + 0.5 * mu * float(x @ x)
    raise ValueError("payoff: no support pair satisfies the KKT conditions")


def _gap_formula(payoff: FloatArray, x: FloatArray, y: FloatArray, mu: float) -> float:
    """``[max_j (xᵀA)_j + (μ/2)||x||²] − min_{x'∈Δ} [x'ᵀAy + (μ/2)||x'||²]`` with the inner
    minimiser projected by :func:`project_onto_simplex`."""
    best = project_onto_simplex(-(payoff @ y) / mu)
    upper = float(np.max(x @ payoff)) + 0.5 * mu * float(x @ x)
    return upper - (float(best @ payoff @ y) + 0.5 * mu * float(best @ best))


def minimiser_duality_gap(
    payoff: FloatArray, mu: float, rng: np.random.Generator, *, points: int = 4
) -> BoundCheck:
    """Values of the perturbed game, not only its minimiser.

    * ``perturbed_minimiser``: its ``x`` equals the oracle's ``x^μ``
      (:func:`exact_perturbed_saddle`) and its value ``max_j (xᵀA)_j + (μ/2)||x||²`` equals
      ``V_μ``;
    * ``perturbed_gap``: at ``points`` random simplex pairs and at the oracle's saddle point it
      equals the formula (0 at the saddle), for the x-side game and for the mirrored y-side game
      ``(−Aᵀ, y, x)``.

    Measured: the largest error, relative to ``1 + |value|``; bound ``MINIMISER_VALUE_RTOL``.
    """
    x_star, y_star, value = exact_perturbed_saddle(payoff, mu)
    x = np.asarray(impl(pert.perturbed_minimiser)(payoff, mu=mu), dtype=np.float64)
    upper = float(np.max(x @ payoff)) + 0.5 * mu * float(x @ x)
    errors = [abs(upper - value) / (1.0 + abs(value)), float(np.max(np.abs(x - x_star)))]
    gap = impl(pert.perturbed_gap)
    pairs = [(x_star, y_star)]
    for _ in range(points):
        pairs.append(
            (
                rng.dirichlet(np.full(payoff.shape[0], 0.5)),
                rng.dirichlet(np.full(payoff.shape[1], 0.5)),
            )
        )
    for px, py in pairs:
        for a, first, second in ((payoff, px, py), (-payoff.T, py, px)):
            want = _gap_formula(a, first, second, mu)
            got = float(gap(a, first, second, mu=mu))
            errors.append(abs(got - want) / (1.0 + abs(want)))
    return BoundCheck(
        claim="perturbed minimiser attains the exact perturbed value; gap_μ equals its formula "
        "(0 at the saddle point)",
        paper=PAPER,
        theorem="Section 2 (perturbed game, gap_μ), Section 4 (x^μ by a QP)",
        measured=max(errors),
        bound=MINIMISER_VALUE_RTOL,
        sense="<=",
        params={"shape": payoff.shape, "mu": mu, "value": value},
    )


# ------------------------------------------------------------------------------ drivers
_ALGOS = ("reference.perturbation:asymp_gda_side", "reference.perturbation:perturbed_minimiser")


@register(
    name="perturbation.closed_form",
    family="perturbation",
    paper=PAPER,
    theorem="Corollary 3.2 (closed form)",
    algorithms=_ALGOS,
)
def prove_closed_form(profile: ProveProfile) -> BoundCheck:
    """The spec's μ values 0.5, 5, 14.9, 15.1, 30."""
    iterations = 20_000 if profile.is_full else 4000
    return worst(
        closed_form_example(mu, iterations=iterations) for mu in (0.5, 5.0, 14.9, 15.1, 30.0)
    )


def _small_games(profile: ProveProfile, salt: int) -> list[FloatArray]:
    rng = np.random.default_rng([profile.seed, salt])
    games = [CLOSED_FORM, BRPS]
    count = profile.instances if profile.is_full else 3
    for _ in range(count):
        m, n = (int(v) for v in rng.integers(2, 5, size=2))
        games.append(rng.standard_normal((m, n)))
    return games


@register(
    name="perturbation.corollary_3_2",
    family="perturbation",
    paper=PAPER,
    theorem="Theorem 3.1 / Corollary 3.2",
    algorithms=("reference.perturbation:asymp_gda_side",),
)
def prove_corollary_3_2(profile: ProveProfile) -> BoundCheck:
    """Closed-form game, BRPS and random Gaussian games up to 4 x 4 at μ = 0.9α."""
    iterations = 60_000 if profile.is_full else 6000
    checks = [
        corollary_3_2(a, iterations=iterations)
        for a in _small_games(profile, 1)
        if sharpness_constant(a) > 1e-3
    ]
    return worst(checks)


@register(
    name="perturbation.step_recursion",
    family="perturbation",
    paper=PAPER,
    theorem="Section 4 (AsymP-GDA recursions)",
    algorithms=("reference.perturbation:asymp_gda_side", "reference.perturbation:asymp_gda"),
)
def prove_step_recursion(profile: ProveProfile) -> BoundCheck:
    """Sizes 2 x 2 to 7 x 4 (Gaussian), μ and η away from 1 and from the default step; η up
    to 3/||A||_2 so that projections clip entries to 0 (the boundary of the simplex)."""
    rng = np.random.default_rng([profile.seed, 7])
    checks: list[BoundCheck] = []
    for m, n in ((2, 2), (3, 5), (7, 4)):
        a = rng.standard_normal((m, n))
        norm = float(np.linalg.norm(a, 2))
        for mu, scale in ((0.37, 0.41), (2.3, 3.0)):
            checks.append(step_recursion(a, mu=mu, step_size=scale / norm, steps=4, rng=rng))
    return worst(checks)


@register(
    name="perturbation.threshold_direction",
    family="perturbation",
    paper=PAPER,
    theorem="Theorem 3.1 (threshold is sufficient)",
    algorithms=("reference.perturbation:perturbed_minimiser",),
)
def prove_threshold_direction(profile: ProveProfile) -> BoundCheck:
    """α <= μ* on the closed-form game (√2 <= 15), BRPS and random games."""
    return worst(threshold_direction(a) for a in _small_games(profile, 2))


@register(
    name="perturbation.distance_bound",
    family="perturbation",
    paper=PAPER,
    theorem="Theorem 3.1 (distance bound)",
    algorithms=("reference.perturbation:asymp_gda_side",),
)
def prove_distance_bound(profile: ProveProfile) -> BoundCheck:
    """μ ∈ {2α, 10α} (above the threshold) on the small games."""
    checks: list[BoundCheck] = []
    iters = 10_000 if profile.is_full else 3000
    for a in _small_games(profile, 3):
        alpha = sharpness_constant(a)
        if 1e-3 < alpha < math.inf:
            checks.extend(distance_bound(a, mu=k * alpha, iterations=iters) for k in (2.0, 10.0))
    return worst(checks)


@register(
    name="perturbation.theorem_4_1",
    family="perturbation",
    paper=PAPER,
    theorem="Theorem 4.1 (linear last-iterate rate)",
    algorithms=("reference.perturbation:asymp_gda_side",),
)
def prove_theorem_4_1(profile: ProveProfile) -> BoundCheck:
    """Random U[-1,1] 10 x 15 games, μ = 0.05 (2 in quick, ``instances`` in full)."""
    rng = np.random.default_rng([profile.seed, 4])
    count = profile.instances if profile.is_full else 2
    checks: list[BoundCheck] = []
    for _ in range(count):
        a = rng.uniform(-1.0, 1.0, size=(10, 15))
        checks.extend(theorem_4_1_rate(a))
    return worst(checks)


@register(
    name="perturbation.algorithm_1",
    family="perturbation",
    paper=PAPER,
    theorem="Algorithm 1 (O(log 1/ε))",
    algorithms=("reference.perturbation:parameter_free",),
)
def prove_algorithm_1(profile: ProveProfile) -> BoundCheck:
    """8 x 12 U[-1,1] games; ε down to 1e-8 (quick, 2 games) or 1e-10 (full, 4 games)."""
    rng = np.random.default_rng([profile.seed, 5])
    count = 4 if profile.is_full else 2
    eps = (1e-2, 1e-4, 1e-6, 1e-8, 1e-10) if profile.is_full else (1e-2, 1e-4, 1e-6, 1e-8)
    checks: list[BoundCheck] = []
    for _ in range(count):
        checks.extend(algorithm_1_complexity(rng.uniform(-1.0, 1.0, size=(8, 12)), tolerances=eps))
    return worst(checks)


@register(
    name="perturbation.brps",
    family="perturbation",
    paper=PAPER,
    theorem="Section 6 (BRPS μ sweep)",
    algorithms=("reference.perturbation:asymp_gda",),
)
def prove_brps(profile: ProveProfile) -> BoundCheck:
    """Invariance for μ <= 2; at μ = 3, 4 the QP's x^μ, shifted towards action 1."""
    return worst(brps_invariance(iterations=20_000 if profile.is_full else 2500))


@register(
    name="perturbation.minimiser_duality_gap",
    family="perturbation",
    paper=PAPER,
    theorem="Section 2 (gap_μ) / Section 4 (x^μ)",
    algorithms=(
        "reference.perturbation:perturbed_minimiser",
        "reference.perturbation:perturbed_gap",
    ),
)
def prove_minimiser_duality_gap(profile: ProveProfile) -> BoundCheck:
    """Gaussian games of sizes 2..5 x 2..5 (non-square drawn), μ ∈ {0.05, 0.7, 4}, and BRPS."""
    rng = np.random.default_rng([profile.seed, 19])
    games = [BRPS]
    for _ in range(profile.instances - 1):
        m, n = (int(v) for v in rng.integers(2, 6, size=2))
        games.append(rng.standard_normal((m, n)))
    return worst(
        minimiser_duality_gap(a, mu, rng)
        for k, a in enumerate(games)
        for mu in ((0.05, 0.7, 4.0) if k % 2 == 0 else (0.7,))
    )
