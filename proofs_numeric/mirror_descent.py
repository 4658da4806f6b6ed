"""Mirror descent under l*-smoothness (spec 06): the paper's lemmas and the rate bounds, checked.

Theorem checks (each returns a :class:`~proofs_numeric.BoundCheck` measured on a real run):

* :func:`definition_1` — the ridge instances are l*-smooth with the spec's ``l``
  (``||∇²f(x)||_{op} <= l(||∇f(x)||_*)``; tight for the quartic ridge at ``|cᵀx| = 1``);
* :func:`lemma_3_4` — generalized self-bounding ``||∇f||_*² <= 2 l(2||∇f||_*)(f(x) - f*)``
  with ``f*`` the UNCONSTRAINED infimum; :func:`lemma_3_4_constrained_counterexample` shows
  the inequality FAILS with a constrained minimum (linear ``f`` on the simplex);
* :func:`theorem_3_5` — MD with ``η = 1/L``, ``L = l(2G)``: ``f(x_T) - f* <= D(x*, x0)/(ηT)``;
  :func:`md_gradient_bound` — ``max_t ||∇f(x_t)||_* <= G``; :func:`md_monotone` —
  ``f(x_{t+1}) <= f(x_t)``;
* :func:`theorem_3_7` — accelerated MD, ``L = l(4G)``: ``f(xbar_T) - f* <= 4 L D / (η (T+1)²)``;
* :func:`mirror_prox_bound` (``η = 1/(2L)``) and :func:`optimistic_bound` (``η = 1/(3L)``):
  ``<= D/(ηT)``;
* :func:`theorem_5_1` — composite MD (algorithm 6), ``η = 1/L``: ``min_{t<T} ||G_t||² <=
  2 (F(x0) - F*)/(ηT)`` (bound (v)) on four instances with exact ``F*`` (one with nonconvex
  ``f``); :func:`composite_descent` (sufficient decrease) and :func:`composite_hypotheses` (steps
  in the local ball, ``||∇f||_* <= G``);
* :func:`sympy_identities` — the spec's three exact identities.

All rate inequalities are the classical bounds with the paper's ``L`` substituted ([derived] in
spec 06 section 4); the error budget is ``rtol = 1e-10`` (relative, float64 rounding of the
run), as the spec prescribes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import sympy

from proofs_numeric._registry import ProveProfile, impl, register, worst
from proofs_numeric._result import BoundCheck
from reference._arrays import FloatArray
from reference.mirror_descent import (
    MirrorDescentResult,
    MirrorName,
    NormName,
    RidgeProblem,
    SmoothnessFunction,
    accelerated_mirror_descent,
    bregman_divergence,
    cosh_ridge,
    dual_norm,
    effective_constants,
    effective_g,
    mirror_descent,
    mirror_prox,
    optimistic_mirror_descent,
    quartic_ridge,
    stochastic_mirror_descent,
)
from reference.mirror_descent.composite import (
    CompositeResult,
    Regularizer,
    RegularizerKind,
    composite_mirror_descent,
    composite_prox_step,
)
from reference.mirror_descent.instances import (
    CompositeConstants,
    CompositeProblem,
    composite_constants,
    composite_instances,
    minimiser,
    simplex_instance,
)

__all__ = [
    "PAPER",
    "RTOL",
    "CompositeConstants",
    "CompositeProblem",
    "composite_constants",
    "composite_descent",
    "composite_hypotheses",
    "composite_instances",
    "definition_1",
    "effective_g_roots",
    "lemma_3_4",
    "lemma_3_4_constrained_counterexample",
    "md_gradient_bound",
    "md_monotone",
    "minimiser",
    "mirror_prox_bound",
    "nesterov_chain",
    "optimistic_bound",
    "prove_effective_g",
    "prove_quadratic_closed_forms",
    "quadratic_closed_forms",
    "separating_quadratic",
    "simplex_instance",
    "sympy_identities",
    "theorem_3_5",
    "theorem_3_7",
    "theorem_3_7_chain",
    "theorem_3_7_separating",
    "theorem_5_1",
]

PAPER = "Yu, Jiang, Tao, Wan, Zhang, Mirror Descent Under Generalized Smoothness (ICML 2026)"
#: Relative error budget of the exact inequalities (spec 06 section 4: 1e-10 relative).
RTOL = 1e-10
_MIRROR_NORM: dict[str, NormName] = {"euclidean": "l2", "entropic": "l1", "lp": "lp"}
Solver = Callable[..., MirrorDescentResult]


def definition_1(problem: RidgeProblem, x: FloatArray, norm: NormName = "l2") -> BoundCheck:
    """Definition 1 on one point: ``sup_h ||∇²f(x)h||_*/||h|| <= l(||∇f(x)||_*)``.

    Args:
        problem: a ridge instance.
        x: ``(n,)`` point.
        norm: the primal norm (l1, l2, linf).

    Returns:
        A ``<=`` check with ``rtol = 1e-10``.
    """
    l_fn = problem.smoothness(norm)
    a = dual_norm(problem.grad(x), norm)
    return BoundCheck(
        claim="Hessian operator norm (primal -> dual) <= l(||grad f(x)||_*)",
        paper=PAPER,
        theorem="Definition 1 (l*-smoothness) on the spec's ridge instances",
        measured=problem.hessian_operator_norm(x, norm),
        bound=l_fn(a),
        sense="<=",
        rtol=RTOL,
        params={"kind": problem.kind, "norm": norm, "n": int(problem.c.size)},
    )


def lemma_3_4(
    problem: RidgeProblem, x: FloatArray, norm: NormName = "l2", *, f_star: float | None = None
) -> BoundCheck:
    """Lemma 3.4 (generalized self-bounding) at ``x``: ``||∇f||_*² <= 2 l(2||∇f||_*)(f(x) - f*)``.

    Args:
        problem: a ridge instance (``f*`` = its unconstrained infimum unless ``f_star`` given).
        x: ``(n,)`` point.
        norm: the primal norm.
        f_star: override of ``f*`` (a constrained minimum makes the lemma fail, see
            :func:`lemma_3_4_constrained_counterexample`).

    Returns:
        A ``<=`` check with ``rtol = 1e-10``.
    """
    l_fn = problem.smoothness(norm)
    a = dual_norm(problem.grad(x), norm)
    fs = problem.f_star if f_star is None else f_star
    return BoundCheck(
        claim="||grad f(x)||_*² <= 2 l(2 ||grad f(x)||_*) (f(x) - f*)",
        paper=PAPER,
        theorem="Lemma 3.4 (generalized self-bounding)",
        measured=a * a,
        bound=2.0 * l_fn(2.0 * a) * (problem.value(x) - fs),
        sense="<=",
        rtol=RTOL,
        params={"kind": problem.kind, "norm": norm, "f_star": fs},
    )


def lemma_3_4_constrained_counterexample(c: FloatArray, l0: float = 1.0) -> BoundCheck:
    """Lemma 3.4 with the CONSTRAINED minimum of ``f(x) = cᵀx`` on the simplex, at its minimiser.

    ``f`` is linear (Hessian 0, so any constant ``l = L0`` works), ``||∇f||_∞ = max|c_i| > 0``
    but ``f(x) - min_simplex f = 0`` at the best vertex: the inequality fails (spec 06, proof
    sketch of Lemma 3.4: the step ``x + s h`` leaves the domain).

    Args:
        c: ``(n,)`` nonzero costs.
        l0: the constant ``l``.

    Returns:
        A ``<=`` check that does NOT hold when ``c != 0``.
    """
    vertex = np.zeros(c.size)
    vertex[int(np.argmin(c))] = 1.0
    a = float(np.max(np.abs(c)))
    gap = float(c @ vertex) - float(np.min(c))
    return BoundCheck(
        claim="self-bounding with the constrained minimum of a linear f on the simplex",
        paper=PAPER,
        theorem="Lemma 3.4 (needs the unconstrained infimum)",
        measured=a * a,
        bound=2.0 * l0 * gap,
        sense="<=",
        rtol=RTOL,
        params={"n": int(c.size)},
    )


def _setup(
    problem: RidgeProblem, x0: FloatArray, mirror: MirrorName, accelerated: bool
) -> tuple[float, float, float, FloatArray]:
    norm = _MIRROR_NORM[mirror]
    consts = effective_constants(
        problem.smoothness(norm), problem.value(x0) - problem.f_star, accelerated=accelerated
    )
    x_star = minimiser(problem, x0, mirror)
    dist = bregman_divergence(x_star, x0, mirror=mirror)
    return consts.g, consts.lipschitz, dist, x_star


def _rate_check(
    *,
    claim: str,
    theorem: str,
    gap: float,
    bound: float,
    problem: RidgeProblem,
    mirror: str,
    iterations: int,
    extra: dict[str, object],
) -> BoundCheck:
    return BoundCheck(
        claim=claim,
        paper=PAPER,
        theorem=theorem,
        measured=gap,
        bound=bound,
        sense="<=",
        rtol=RTOL,
        params={
            "kind": problem.kind,
            "n": int(problem.c.size),
            "mirror": mirror,
            "T": iterations,
            **extra,
        },
    )


def theorem_3_5(
    problem: RidgeProblem,
    x0: FloatArray,
    *,
    iterations: int,
    mirror: MirrorName = "entropic",
    average: bool = False,
    solver: Solver | None = None,
) -> BoundCheck:
    """MD with ``η = 1/L``, ``L = l(2G)``: ``f(x_T) - f* <= D(x*, x0) / (η T)`` (or ``xbar_T``).

    Args:
        problem: a ridge instance with its exact ``f*``.
        x0: ``(n,)`` start.
        iterations: ``T``.
        mirror: the mirror map.
        average: check the average instead of the last iterate.
        solver: the MD implementation under test (default: the reference).

    Returns:
        A ``<=`` check, ``rtol = 1e-10``.
    """
    g, lip, dist, _ = _setup(problem, x0, mirror, accelerated=False)
    eta = 1.0 / lip
    run = (impl(mirror_descent) if solver is None else solver)(
        problem.grad, x0, step_size=eta, max_iter=iterations, mirror=mirror
    )
    point = run.x_average if average else run.x
    return _rate_check(
        claim=f"f({'xbar_T' if average else 'x_T'}) - f* <= D(x*, x0) / (eta T), eta = 1/l(2G)",
        theorem="Theorem 3.5 (MD, O(1/T)); standard-form bound (i) [derived]",
        gap=problem.value(np.asarray(point)) - problem.f_star,
        bound=dist / (eta * iterations),
        problem=problem,
        mirror=mirror,
        iterations=iterations,
        extra={"G": g, "L": lip, "D": dist},
    )


def md_gradient_bound(
    problem: RidgeProblem, x0: FloatArray, *, iterations: int, mirror: MirrorName = "entropic"
) -> BoundCheck:
    """Along MD with ``η = 1/L``: ``max_t ||∇f(x_t)||_* <= G`` (the paper's key invariant)."""
    g, lip, _, _ = _setup(problem, x0, mirror, accelerated=False)
    run = impl(mirror_descent)(
        problem.grad, x0, step_size=1.0 / lip, max_iter=iterations, mirror=mirror
    )
    return BoundCheck(
        claim="max_t ||grad f(x_t)||_* <= G along MD with eta = 1/l(2G)",
        paper=PAPER,
        theorem="Theorem 3.5 proof (gradient bounded by G); bound (i) [derived]",
        measured=float(np.max(run.gradient_norms)),
        bound=g,
        sense="<=",
        rtol=RTOL,
        params={"kind": problem.kind, "mirror": mirror, "T": iterations, "L": lip},
    )


def md_monotone(
    problem: RidgeProblem, x0: FloatArray, *, iterations: int, mirror: MirrorName = "entropic"
) -> BoundCheck:
    """Along MD with ``η = 1/L``: ``max_t f(x_{t+1}) - f(x_t) <= 0`` (descent)."""
    _, lip, _, _ = _setup(problem, x0, mirror, accelerated=False)
    run = impl(mirror_descent)(
        problem.grad, x0, step_size=1.0 / lip, max_iter=iterations, mirror=mirror
    )
    values = np.array([problem.value(x) for x in run.iterates])
    return BoundCheck(
        claim="f(x_{t+1}) - f(x_t) <= 0 along MD with eta = 1/l(2G)",
        paper=PAPER,
        theorem="bound (i) [derived]: monotone decrease",
        measured=float(np.max(np.diff(values))),
        bound=0.0,
        sense="<=",
        atol=RTOL * float(np.max(np.abs(values))),
        params={"kind": problem.kind, "mirror": mirror, "T": iterations},
    )


def theorem_3_7(
    problem: RidgeProblem,
    x0: FloatArray,
    *,
    iterations: int,
    mirror: MirrorName = "entropic",
    step_size: float = 1.0,
) -> BoundCheck:
    """Accelerated MD (scheme 2), ``L = l(4G)``: ``f(xbar_T) - f* <= 4 L D / (η (T+1)²)``."""
    g, lip, dist, _ = _setup(problem, x0, mirror, accelerated=True)
    run = impl(accelerated_mirror_descent)(
        problem.grad, x0, lipschitz=lip, max_iter=iterations, step_size=step_size, mirror=mirror
    )
    return _rate_check(
        claim="f(xbar_T) - f* <= 4 L D(x*, x0) / (eta (T+1)²), L = l(4G)",
        theorem="Theorem 3.7 (accelerated MD, O(1/T²)); bound (iii) [derived]",
        gap=problem.value(np.asarray(run.x)) - problem.f_star,
        bound=4.0 * lip * dist / (step_size * (iterations + 1) ** 2),
        problem=problem,
        mirror=mirror,
        iterations=iterations,
        extra={"G": g, "L": lip, "D": dist},
    )


def separating_quadratic(iterations: int) -> tuple[Callable[[FloatArray], float], FloatArray]:
    """``f(x) = ½(x_1² + λ x_2²)`` with ``λ = 1/(2T + 1)``, ``L = 1``, ``x0 = (1, 1)``, ``x* = 0``.

    The slow direction's eigenvalue is tuned to the horizon: plain MD (gradient descent with
    ``η = 1/L``) leaves ``½ λ (1 - λ)^{2T} ≈ 1/(4eT)`` there, ``Θ(1/T)``, which exceeds the
    accelerated bound ``4 L D / (T + 1)²`` once ``T >= 50`` (ratio about ``T/43``), while
    accelerated MD meets it.  Returns ``(f, diagonal of the Hessian)``.
    """
    diag = np.array([1.0, 1.0 / (2 * iterations + 1)])

    def f(x: FloatArray) -> float:
        return 0.5 * float(np.asarray(x) @ (diag * np.asarray(x)))

    return f, diag


def theorem_3_7_separating(*, iterations: int) -> BoundCheck:
    """Theorem 3.7 on :func:`separating_quadratic` (Euclidean mirror, ``L = 1``, ``η = 1``):
    ``f(x_T) - f* <= 4 L D(x*, x0) / (η (T+1)²)``, an instance where ``O(1/T²)`` and ``O(1/T)``
    separate, so plain mirror descent fails it (ratio about 2.3 at ``T = 100``, 23 at 1000)."""
    f, diag = separating_quadratic(iterations)
    x0 = np.ones(2)
    x_star = np.zeros(2)
    lip = float(diag.max())
    dist = bregman_divergence(x_star, x0, mirror="euclidean")
    run = impl(accelerated_mirror_descent)(
        lambda x: diag * np.asarray(x), x0, lipschitz=lip, max_iter=iterations, mirror="euclidean"
    )
    return BoundCheck(
        claim="accelerated MD: f(x_T) - f* <= 4 L D / (T+1)² on a quadratic tuned to T "
        "(plain MD: Θ(1/T) there)",
        paper=PAPER,
        theorem="Theorem 3.7 (accelerated MD, O(1/T²)); separating instance",
        measured=f(np.asarray(run.x)),
        bound=4.0 * lip * dist / (iterations + 1) ** 2,
        sense="<=",
        rtol=RTOL,
        params={"iterations": iterations, "lambda": float(diag[1]), "L": lip, "D": dist},
    )


def nesterov_chain(dimension: int, lipschitz: float = 1.0) -> tuple[FloatArray, FloatArray]:
    """Nesterov's worst-case quadratic ``f(x) = ½ xᵀAx - bᵀx`` with ``A = (L/4) tridiag(-1, 2, -1)``
    and ``b = (L/4) e_1`` in ``R^k``: ``L``-smooth, minimiser ``x*_i = 1 - i/(k+1)``.

    From ``x0 = 0`` a first-order method's ``t``-th iterate lies in the span of the first ``t``
    coordinates, so the chain is where the ``O(1/T²)`` rate is nearly attained (with
    ``k = T + 1`` accelerated MD reaches about 0.21 of ``4 L D / (T+1)²``; plain MD exceeds it
    from ``T`` near 60).  Returns ``(A, b)``.
    """
    a = np.diag(np.full(dimension, 2.0))
    off = np.full(dimension - 1, -1.0)
    a += np.diag(off, 1) + np.diag(off, -1)
    b = np.zeros(dimension)
    b[0] = 1.0
    return (lipschitz / 4.0) * a, (lipschitz / 4.0) * b


def theorem_3_7_chain(*, iterations: int) -> BoundCheck:
    """Theorem 3.7 on :func:`nesterov_chain` with ``k = T + 1`` (Euclidean mirror, ``L = 1``,
    ``η = 1``): the tight part of the accelerated-rate check (slack about 4.7, not thousands).

    ``f*`` and ``D(x*, x0)`` come from the closed-form minimiser, not from a solver.
    """
    k = iterations + 1
    a, b = nesterov_chain(k)
    x_star = 1.0 - np.arange(1, k + 1) / (k + 1.0)
    x0 = np.zeros(k)

    def f(x: FloatArray) -> float:
        return 0.5 * float(x @ (a @ x)) - float(b @ x)

    dist = 0.5 * float(x_star @ x_star)
    run = impl(accelerated_mirror_descent)(
        lambda x: a @ np.asarray(x) - b, x0, lipschitz=1.0, max_iter=iterations, mirror="euclidean"
    )
    return BoundCheck(
        claim="accelerated MD: f(x_T) - f* <= 4 L D / (T+1)² on Nesterov's chain of length T+1 "
        "(nearly attained)",
        paper=PAPER,
        theorem="Theorem 3.7 (accelerated MD, O(1/T²)); worst-case chain",
        measured=f(np.asarray(run.x)) - f(x_star),
        bound=4.0 * dist / (iterations + 1) ** 2,
        sense="<=",
        rtol=RTOL,
        params={"iterations": iterations, "dimension": k, "L": 1.0, "D": dist},
    )


def mirror_prox_bound(
    problem: RidgeProblem, x0: FloatArray, *, iterations: int, mirror: MirrorName = "entropic"
) -> BoundCheck:
    """Mirror prox with ``η = 1/(2L)``: ``f(ybar_T) - f* <= D(x*, x0) / (η T)``."""
    g, lip, dist, _ = _setup(problem, x0, mirror, accelerated=False)
    eta = 1.0 / (2.0 * lip)
    run = impl(mirror_prox)(problem.grad, x0, step_size=eta, max_iter=iterations, mirror=mirror)
    return _rate_check(
        claim="f(ybar_T) - f* <= D(x*, x0) / (eta T), eta = 1/(2 l(2G))",
        theorem="Mirror prox, Eq. 13/15 (O(1/T)); bound (ii) [derived]",
        gap=problem.value(np.asarray(run.x)) - problem.f_star,
        bound=dist / (eta * iterations),
        problem=problem,
        mirror=mirror,
        iterations=iterations,
        extra={"G": g, "L": lip, "D": dist},
    )


def optimistic_bound(
    problem: RidgeProblem, x0: FloatArray, *, iterations: int, mirror: MirrorName = "entropic"
) -> BoundCheck:
    """Optimistic MD with ``η = 1/(3L)``: ``f(xbar_T) - f* <= D(x*, x0) / (η T)``."""
    g, lip, dist, _ = _setup(problem, x0, mirror, accelerated=False)
    eta = 1.0 / (3.0 * lip)
    run = impl(optimistic_mirror_descent)(
        problem.grad, x0, step_size=eta, max_iter=iterations, mirror=mirror
    )
    return _rate_check(
        claim="f(xbar_T) - f* <= D(x*, x0) / (eta T), eta = 1/(3 l(2G))",
        theorem="Optimistic MD, Eq. 11/13 (O(1/T)); bound (iv) [derived]",
        gap=problem.value(np.asarray(run.x)) - problem.f_star,
        bound=dist / (eta * iterations),
        problem=problem,
        mirror=mirror,
        iterations=iterations,
        extra={"G": g, "L": lip, "D": dist},
    )


#: Rational (L0, L1, alpha, Δ0) at which the library's effective constants are compared with the
#: exact largest root of ``a² = 2 l(2a) Δ0``: affine, constant (L1 = 0 and alpha = 0) and
#: square-root ``l`` (the last one goes through the library's root finder).
_EXACT_POINTS: tuple[tuple[sympy.Rational, sympy.Rational, sympy.Rational, sympy.Rational], ...] = (
    (sympy.Rational(3, 2), sympy.Rational(1, 3), sympy.Integer(1), sympy.Rational(5, 7)),
    (sympy.Rational(1, 4), sympy.Rational(2), sympy.Integer(1), sympy.Rational(3)),
    (sympy.Rational(2), sympy.Integer(0), sympy.Integer(1), sympy.Rational(1, 2)),
    (sympy.Rational(1), sympy.Rational(1, 2), sympy.Integer(0), sympy.Rational(2)),
    (sympy.Rational(1), sympy.Rational(1), sympy.Rational(1, 2), sympy.Rational(1)),
)


def _exact_constants(
    l0: sympy.Rational, l1: sympy.Rational, alpha: sympy.Rational, d0: sympy.Rational
) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr]:
    """Exact ``G`` (largest positive root of ``a² = 2 l(2a) Δ0``), ``l(2G)`` and ``l(4G)``."""
    a = sympy.Symbol("a", positive=True)

    def ell(x: sympy.Expr) -> sympy.Expr:
        value: sympy.Expr = l0 + l1 * x**alpha
        return value

    roots = sympy.solve(a**2 - 2 * ell(2 * a) * d0, a)
    g: sympy.Expr = max(roots, key=float)
    return g, ell(2 * g), ell(4 * g)


def sympy_identities() -> BoundCheck:
    """The spec's exact identities, and the library's ``G``, ``L`` against exact roots.

    Symbolic part (identities, proved with sympy; any that does not expand to 0 makes the
    check fail as unproven):
    (a) ``1 + 2s³ - 3s² = (s - 1)²(2s + 1)`` (so ``>= 0`` for ``s >= 0``, zero at ``s = 1``);
    (b) with ``w = e^u``: ``2w (1 + 4 sinh u - cosh u) = (w - 1)(3w + 5)`` (so Lemma 3.4 for the
    cosh ridge, ``cosh u <= 1 + 4 sinh u``, holds for ``u >= 0``, i.e. ``w >= 1``);
    (c) ``(a - G)(a - G') = a² - 2(L0 + 2 L1 a) Δ0`` with ``G = 2L1Δ0 + sqrt(4L1²Δ0² + 2L0Δ0)``,
    ``G' = 2L1Δ0 - sqrt(...)``; since ``G G' = -2 L0 Δ0 < 0``, ``G`` is the larger (only positive)
    root.

    Library part: :func:`effective_constants` at the rational points of :data:`_EXACT_POINTS`
    (plain and accelerated) against sympy's exact largest root of ``a² = 2 l(2a) Δ0`` and the
    exact ``l(2G)``, ``l(4G)``.  Measured: the largest relative error of ``G`` and ``L``; bound
    ``1e-9`` (float64 closed forms are exact to ~1e-15; the root finder of the non-affine case is
    refined by ``brentq`` to its default ``xtol = 2e-12``).  Any unproven identity sets the
    measurement to NaN, which never holds.
    """
    s, w, a = sympy.symbols("s w a", positive=True)
    l0, l1, d0 = sympy.symbols("L0 L1 Delta0", positive=True)
    unproven = 0
    lhs_a = 1 + 2 * s**3 - 3 * s**2
    unproven += int(sympy.expand(lhs_a - (s - 1) ** 2 * (2 * s + 1)) != 0)
    sinh = (w - 1 / w) / 2
    cosh = (w + 1 / w) / 2
    lhs_b = sympy.expand(2 * w * (1 + 4 * sinh - cosh))
    unproven += int(sympy.expand(lhs_b - (w - 1) * (3 * w + 5)) != 0)
    root = sympy.sqrt(4 * l1**2 * d0**2 + 2 * l0 * d0)
    g_big = 2 * l1 * d0 + root
    g_small = 2 * l1 * d0 - root
    quadratic = a**2 - 2 * (l0 + 2 * l1 * a) * d0
    unproven += int(sympy.expand((a - g_big) * (a - g_small) - quadratic) != 0)
    unproven += int(sympy.expand(g_big * g_small + 2 * l0 * d0) != 0)
    errors: list[float] = []
    for q_l0, q_l1, q_alpha, q_d0 in _EXACT_POINTS:
        g_exact, lip2, lip4 = _exact_constants(q_l0, q_l1, q_alpha, q_d0)
        smooth = SmoothnessFunction(l0=float(q_l0), l1=float(q_l1), alpha=float(q_alpha))
        for accelerated, lip_exact in ((False, lip2), (True, lip4)):
            got = impl(effective_constants)(smooth, float(q_d0), accelerated=accelerated)
            for value, exact in ((got.g, g_exact), (got.lipschitz, lip_exact)):
                truth = float(exact)
                errors.append(abs(value - truth) / abs(truth))
    return BoundCheck(
        claim="sympy: (a) 1+2s³-3s² = (s-1)²(2s+1); (b) cosh-ridge self-bounding factorisation; "
        "(c) closed-form G is the larger root; library G, L = exact roots at rational points",
        paper=PAPER,
        theorem="Spec 06 section 4, symbolic checks (a)-(c); section 2 effective constants",
        measured=max(errors) if unproven == 0 else float("nan"),
        bound=1e-9,
        sense="<=",
        params={"identities": 4, "unproven": unproven, "points": len(_EXACT_POINTS)},
    )


# --------------------------------------------------------------------------------------------
# registered drivers


def _ridges(rng: np.random.Generator, count: int, n_max: int) -> list[RidgeProblem]:
    out: list[RidgeProblem] = []
    for _ in range(count):
        n = int(rng.integers(1, n_max + 1))
        c = rng.uniform(-1.0, 1.0, size=n)
        out.append(impl(quartic_ridge)(c))
        out.append(impl(cosh_ridge)(c, float(rng.uniform(-1.0, 1.0))))
    return out


@register(
    name="mirror_descent.definition_1",
    family="mirror_descent",
    paper=PAPER,
    theorem="Definition 1 (l*-smoothness of the ridge instances)",
    algorithms=("reference.mirror_descent:quartic_ridge", "reference.mirror_descent:cosh_ridge"),
)
def prove_definition_1(profile: ProveProfile) -> BoundCheck:
    """Random ridges in (l1, linf), (l2, l2), (linf, l1) at random points, plus the tight point."""
    rng = np.random.default_rng(profile.seed)
    checks = []
    for problem in _ridges(rng, profile.instances * (4 if profile.is_full else 1), 8):
        for norm in ("l1", "l2", "linf"):
            x = rng.standard_normal(problem.c.size) * float(rng.choice([0.1, 1.0, 3.0]))
            checks.append(definition_1(problem, x, norm))
    tight = impl(quartic_ridge)(np.ones(3))
    checks.append(definition_1(tight, np.array([1.0, 0.0, 0.0]), "l1"))  # |s| = 1: equality
    return worst(checks)


@register(
    name="mirror_descent.self_bounding",
    family="mirror_descent",
    paper=PAPER,
    theorem="Lemma 3.4 (generalized self-bounding)",
    algorithms=("reference.mirror_descent:quartic_ridge", "reference.mirror_descent:cosh_ridge"),
)
def prove_lemma_3_4(profile: ProveProfile) -> BoundCheck:
    """Ridges (quartic, cosh with f* = 2) at random points in three norms."""
    rng = np.random.default_rng(profile.seed + 1)
    checks = []
    for problem in _ridges(rng, profile.instances * (4 if profile.is_full else 1), 8):
        for norm in ("l1", "l2", "linf"):
            x = rng.standard_normal(problem.c.size) * float(rng.choice([0.1, 1.0, 3.0]))
            checks.append(lemma_3_4(problem, x, norm))
    return worst(checks)


def _rate_instances(profile: ProveProfile) -> list[tuple[RidgeProblem, FloatArray]]:
    rng = np.random.default_rng(profile.seed + 2)
    n = 50 if profile.is_full else 10
    return [simplex_instance(rng, n) for _ in range(max(2, profile.instances // 2))]


@register(
    name="mirror_descent.md_rate",
    family="mirror_descent",
    paper=PAPER,
    theorem="Theorem 3.5 (MD, O(1/T)): gap, average, gradient bound G, monotonicity",
    algorithms=("reference.mirror_descent:mirror_descent",),
)
def prove_theorem_3_5(profile: ProveProfile) -> BoundCheck:
    """Entropic MD on the simplex cosh ridge (f* = 2), n = 10 (50 in full), T = 100 (1000)."""
    t = 1000 if profile.is_full else 100
    checks = []
    for problem, x0 in _rate_instances(profile):
        checks.append(theorem_3_5(problem, x0, iterations=t))
        checks.append(theorem_3_5(problem, x0, iterations=t, average=True))
        checks.append(md_gradient_bound(problem, x0, iterations=t))
        checks.append(md_monotone(problem, x0, iterations=t))
    quartic = quartic_ridge(np.ones(4))
    start = np.array([0.3, -0.1, 0.5, 0.2])
    checks.append(theorem_3_5(quartic, start, iterations=t, mirror="euclidean"))
    return worst(checks)


@register(
    name="mirror_descent.accelerated_rate",
    family="mirror_descent",
    paper=PAPER,
    theorem="Theorem 3.7 (accelerated MD, O(1/T²))",
    algorithms=("reference.mirror_descent:accelerated_mirror_descent",),
)
def prove_theorem_3_7(profile: ProveProfile) -> BoundCheck:
    """Accelerated entropic MD on the simplex cosh ridge, and Euclidean accelerated MD on a
    quadratic where O(1/T²) and O(1/T) separate (plain MD fails it), and on Nesterov's chain
    where the bound is nearly attained (slack about 4.7: a scheme 5 times slower fails)."""
    t = 1000 if profile.is_full else 100
    checks = [theorem_3_7(p, x0, iterations=t) for p, x0 in _rate_instances(profile)]
    return worst([*checks, theorem_3_7_separating(iterations=t), theorem_3_7_chain(iterations=t)])


@register(
    name="mirror_descent.mirror_prox_rate",
    family="mirror_descent",
    paper=PAPER,
    theorem="Mirror prox bound (Eq. 13/15, O(1/T))",
    algorithms=("reference.mirror_descent:mirror_prox",),
)
def prove_mirror_prox(profile: ProveProfile) -> BoundCheck:
    """Mirror prox with eta = 1/(2L) on the simplex cosh ridge."""
    t = 1000 if profile.is_full else 100
    return worst(mirror_prox_bound(p, x0, iterations=t) for p, x0 in _rate_instances(profile))


@register(
    name="mirror_descent.optimistic_rate",
    family="mirror_descent",
    paper=PAPER,
    theorem="Optimistic MD bound (Eq. 11/13, O(1/T))",
    algorithms=("reference.mirror_descent:optimistic_mirror_descent",),
)
def prove_optimistic(profile: ProveProfile) -> BoundCheck:
    """Optimistic MD with eta = 1/(3L) on the simplex cosh ridge."""
    t = 1000 if profile.is_full else 100
    return worst(optimistic_bound(p, x0, iterations=t) for p, x0 in _rate_instances(profile))


@register(
    name="mirror_descent.sympy_identities",
    family="mirror_descent",
    paper=PAPER,
    theorem="Spec 06 section 4 symbolic checks (a)-(c)",
    algorithms=("reference.mirror_descent:effective_constants",),
)
def prove_sympy(profile: ProveProfile) -> BoundCheck:
    """Exact identities behind the ridge l's, Lemma 3.4 for the cosh ridge and the closed-form G."""
    return sympy_identities()


# --------------------------------------------------------------------------------------------
# composite mirror descent (algorithm 6, Theorem 5.1)


def _mapping_sq(problem: CompositeProblem, iterates: FloatArray, eta: float) -> FloatArray:
    """``||G(x_t)||²`` recomputed with the reference composite prox at each given iterate."""
    pp = 2.0
    out = []
    for x in iterates:
        new = composite_prox_step(
            x, problem.grad(x), eta, regularizer=problem.regularizer, mirror=problem.mirror, p=pp
        )
        out.append(_primal(x - new, problem.mirror) ** 2 / eta**2)
    return np.array(out)


def _primal(v: FloatArray, mirror: str) -> float:
    return float(np.sum(np.abs(v))) if mirror == "entropic" else float(np.linalg.norm(v))


CompositeSolver = Callable[..., CompositeResult]


def theorem_5_1(
    problem: CompositeProblem,
    x0: FloatArray,
    *,
    iterations: int,
    step_size: float | None = None,
    solver: CompositeSolver | None = None,
) -> BoundCheck:
    """Theorem 5.1, bound (v): ``min_{t<T} ||G_t||² <= 2 (F(x0) - F*) / (η T)``, ``η = 1/l(2G)``.

    ``G_t`` is recomputed with the reference composite prox at the solver's iterates
    ``x_0 .. x_{T-1}`` (a solver that stops moving cannot fake a zero gradient mapping).

    Args:
        problem: a composite instance with exact ``F*``.
        x0: ``(n,)`` start.
        iterations: ``T``.
        step_size: override of ``η`` (default ``1/L``; larger steps violate the hypothesis).
        solver: the composite MD implementation under test.

    Returns:
        A ``<=`` check, ``rtol = 1e-10`` (float64 rounding of the run).
    """
    consts = composite_constants(problem, x0)
    eta = 1.0 / consts.lipschitz if step_size is None else step_size
    run = (impl(composite_mirror_descent) if solver is None else solver)(
        problem.grad,
        x0,
        step_size=eta,
        max_iter=iterations,
        regularizer=problem.regularizer,
        mirror=problem.mirror,
    )
    iterates = np.asarray(run.iterates)[:iterations]
    with np.errstate(over="ignore", invalid="ignore"):
        measured = float(np.min(_mapping_sq(problem, iterates, eta)))
    return BoundCheck(
        claim="min_{t<T} ||G_t||² <= 2 (F(x0) - F*) / (eta T), eta = 1/l(2G)",
        paper=PAPER,
        theorem="Theorem 5.1 (composite MD, nonconvex f, O(1/T)); bound (v) [derived]",
        measured=measured,
        bound=2.0 * (problem.objective(x0) - problem.f_star) / (eta * iterations),
        sense="<=",
        rtol=RTOL,
        params={
            "instance": problem.name,
            "n": int(np.size(x0)),
            "T": iterations,
            "eta": eta,
            "G": consts.g,
            "L": consts.lipschitz,
            "F*": problem.f_star,
        },
    )


def composite_descent(problem: CompositeProblem, x0: FloatArray, *, iterations: int) -> BoundCheck:
    """Sufficient decrease along composite MD with ``η = 1/L`` (the step of Theorem 5.1's proof),
    telescoped: ``(η/2) Σ_{t<T} ||G_t||² <= F(x0) - F(x_T)``.  The per-step excess
    ``max_t [F(x_{t+1}) - F(x_t) + (η/2)||G_t||²]`` (should be ``<= 0``) is in ``params``; the
    per-step form is asserted by the ``mirror_descent.composite`` suite."""
    consts = composite_constants(problem, x0)
    eta = 1.0 / consts.lipschitz
    run = impl(composite_mirror_descent)(
        problem.grad,
        x0,
        step_size=eta,
        max_iter=iterations,
        regularizer=problem.regularizer,
        mirror=problem.mirror,
    )
    values = np.array([problem.objective(x) for x in run.iterates])
    decrease = 0.5 * eta * np.asarray(run.mapping_norms) ** 2
    return BoundCheck(
        claim="(eta/2) sum_t ||G_t||² <= F(x0) - F(x_T) along composite MD, eta = 1/l(2G)",
        paper=PAPER,
        theorem="Theorem 5.1 proof (sufficient decrease, telescoped), bound (v) [derived]",
        measured=float(np.sum(decrease)),
        bound=float(values[0] - values[-1]),
        sense="<=",
        rtol=RTOL,
        atol=RTOL * float(np.max(np.abs(values))),
        params={
            "instance": problem.name,
            "T": iterations,
            "eta": eta,
            "max per-step excess": float(np.max(np.diff(values) + decrease)),
        },
    )


def composite_hypotheses(
    problem: CompositeProblem, x0: FloatArray, *, iterations: int
) -> BoundCheck:
    """The hypotheses of bound (v) along the run with ``η = 1/L``: every step stays in the local
    ball (``||x_{t+1} - x_t|| <= G / l(2G)``) and ``||∇f(x_t)||_* <= G``; measured is the larger
    of the two ratios, bound 1."""
    consts = composite_constants(problem, x0)
    eta = 1.0 / consts.lipschitz
    run = impl(composite_mirror_descent)(
        problem.grad,
        x0,
        step_size=eta,
        max_iter=iterations,
        regularizer=problem.regularizer,
        mirror=problem.mirror,
    )
    steps = eta * np.asarray(run.mapping_norms)
    ratio = max(float(np.max(steps)) / consts.radius, float(np.max(run.gradient_norms)) / consts.g)
    return BoundCheck(
        claim="max(step / (G / l(2G)), ||grad f||_* / G) <= 1 along composite MD",
        paper=PAPER,
        theorem="Theorem 5.1 hypotheses (local ball, Lemma A; gradient bound) [derived]",
        measured=ratio,
        bound=1.0,
        sense="<=",
        rtol=RTOL,
        params={"instance": problem.name, "T": iterations, "G": consts.g, "L": consts.lipschitz},
    )


@register(
    name="mirror_descent.composite_rate",
    family="mirror_descent",
    paper=PAPER,
    theorem="Theorem 5.1 (composite MD, O(1/T) gradient mapping, nonconvex f)",
    algorithms=(
        "reference.mirror_descent.composite:composite_mirror_descent",
        # the same function under the name the catalogue (verifiedref list) shows
        "reference.mirror_descent:composite_mirror_descent",
    ),
)
def prove_theorem_5_1(profile: ProveProfile) -> BoundCheck:
    """Four composite instances (quartic+l1, cosh+l2sq, cos+l1 nonconvex, cosh+entropy on the
    simplex), n = 10 (50 in full), T = 200 (2000): bound (v), sufficient decrease, hypotheses."""
    rng = np.random.default_rng(profile.seed + 3)
    n = 50 if profile.is_full else 10
    t = 2000 if profile.is_full else 200
    checks = []
    for _ in range(max(1, profile.instances // 2)):
        for problem, x0 in composite_instances(rng, n):
            checks.append(theorem_5_1(problem, x0, iterations=t))
            checks.append(composite_descent(problem, x0, iterations=t))
            checks.append(composite_hypotheses(problem, x0, iterations=t))
    return worst(checks)


# ------------------------------------------------------------- closed forms on quadratics
#: Relative budget of the closed forms on diagonal quadratics: T <= 100 products of numbers in
#: [-1, 1] rounded in a different order (a few hundred ulps).
CLOSED_FORM_RTOL = 1e-11


def quadratic_closed_forms(
    curvatures: FloatArray, x0: FloatArray, *, iterations: int, step: float
) -> BoundCheck:
    """Euclidean MD, mirror prox and accelerated MD on ``f(x) = ½ Σ λ_i x_i²`` against their
    closed forms (the documented recursions solved per coordinate, not replayed):

    * MD (``η``): ``x_T = (1 - ηλ)^T x0`` and ``x_average = (1/T) Σ_{t=1}^T (1 - ηλ)^t x0``;
    * mirror prox (``η/2``): ``x_{t+1} = ρ x_t`` with ``ρ = 1 - ηλ + (ηλ)²`` (at ``η/2``),
      output ``ybar_T = (1 - ηλ)/T Σ_{t<T} ρ^t x0``;
    * accelerated MD (``L = max λ``, step ``step``): ``(xbar_t, z_t)`` evolves by the
      ``2x2`` matrix of ``θ_t = 2/(t+1)``, ``η_t = η (t+1)/(2L)``; output ``xbar_T``.

    Measured: the largest ``|returned - closed form|`` relative to ``max|x0|`` over the three
    methods and every coordinate; ``== 0`` within :data:`CLOSED_FORM_RTOL`.  The rate
    inequalities allow any of a family of schemes (an average for a last iterate, a
    running-mean momentum weight, a halved step); this pins the documented one.
    """
    lam = np.asarray(curvatures, dtype=np.float64)
    lip = float(lam.max())
    scale = float(np.max(np.abs(x0)))
    grad = lambda x: lam * np.asarray(x)  # noqa: E731
    t = iterations
    errors: list[float] = []
    # mirror descent, step η = step / L (η <= 1/L)
    eta = step / lip
    r = 1.0 - eta * lam
    md_run = impl(mirror_descent)(grad, x0, step_size=eta, max_iter=t, mirror="euclidean")
    powers = np.array([r**k for k in range(1, t + 1)])
    errors.append(float(np.max(np.abs(np.asarray(md_run.x) - r**t * x0))))
    errors.append(float(np.max(np.abs(np.asarray(md_run.x_average) - powers.mean(0) * x0))))
    # mirror prox, step η/2 (η/2 <= 1/(2L))
    eta_p = eta / 2.0
    rho = 1.0 - eta_p * lam + (eta_p * lam) ** 2
    mp_run = impl(mirror_prox)(grad, x0, step_size=eta_p, max_iter=t, mirror="euclidean")
    ybar = (1.0 - eta_p * lam) * np.array([rho**k for k in range(t)]).mean(0) * x0
    errors.append(float(np.max(np.abs(np.asarray(mp_run.x) - ybar))))
    # accelerated MD, η = step in (0, 1]
    acc = impl(accelerated_mirror_descent)(
        grad, x0, lipschitz=lip, max_iter=t, step_size=step, mirror="euclidean"
    )
    for i, li in enumerate(lam):
        state = np.array([x0[i], x0[i]])  # (xbar, z)
        for k in range(1, t + 1):
            th = 2.0 / (k + 1.0)
            et = step * (k + 1.0) / (2.0 * lip)
            c = 1.0 - et * li * th
            m = np.array([[(1.0 - th) * c, th * c], [-et * li * (1.0 - th), c]])
            state = m @ state
        errors.append(abs(float(np.asarray(acc.x)[i]) - float(state[0])))
    return BoundCheck(
        claim="MD, mirror prox, accelerated MD on a diagonal quadratic = their closed forms",
        paper=PAPER,
        theorem="Algorithms 1, 2, 4 (Yu et al., ICML 2026): the documented recursions",
        measured=max(errors) / scale,
        bound=0.0,
        sense="==",
        rtol=0.0,
        atol=CLOSED_FORM_RTOL,
        params={"n": int(lam.size), "T": t, "step": step, "L": lip},
    )


@register(
    name="mirror_descent.quadratic_closed_forms",
    family="mirror_descent",
    paper=PAPER,
    theorem="Algorithms 1, 2, 4: outputs equal their closed forms on diagonal quadratics",
    algorithms=(
        "reference.mirror_descent:mirror_descent",
        "reference.mirror_descent:mirror_prox",
        "reference.mirror_descent:accelerated_mirror_descent",
    ),
)
def prove_quadratic_closed_forms(profile: ProveProfile) -> BoundCheck:
    """Random curvatures in [0.01, 3] (sizes 1..12), steps away from 1 (0.35, 0.6, 0.9, 1)."""
    rng = np.random.default_rng(profile.seed + 7)
    checks = []
    for i in range(profile.instances):
        n = int(rng.integers(1, 13))
        lam = rng.uniform(0.01, 3.0, size=n)
        x0 = rng.uniform(-1.0, 1.0, size=n)
        step = (0.35, 0.6, 0.9, 1.0)[i % 4]
        checks.append(quadratic_closed_forms(lam, x0, iterations=40 + 15 * i, step=step))
    return worst(checks)


def effective_g_roots(l0: float, l1: float, delta0: float, alpha: float) -> BoundCheck:
    """``G = sup{a >= 0 : a² <= 2 l(2a) Δ0}`` for ``l(a) = L0 + L1 a^alpha`` against a root of
    a polynomial (spec 06 §2, "Effective constants").

    With ``a = b²`` and ``alpha = k/2`` (``k ∈ {0, 1, 2, 3}``) the boundary equation
    ``a² = 2Δ0 (L0 + L1 (2a)^alpha)`` is the quartic ``b⁴ - 2Δ0 L1 2^alpha b^k - 2Δ0 L0 = 0``;
    ``a² - 2 l(2a) Δ0`` is negative at 0 and tends to ``+inf`` (``alpha < 2``), so ``G`` is the
    square of the largest positive real root (``numpy.roots``, independent of the library's
    bracketing and ``brentq``).  Measured: ``|G - G_poly| / G_poly``; budget ``1e-9``
    (``numpy.roots`` eigenvalues, relative error about ``1e-13`` on these well-separated roots).
    """
    k = round(2 * alpha)
    coeffs = np.zeros(5)
    coeffs[0] = 1.0
    coeffs[4 - k] -= 2.0 * delta0 * l1 * 2.0**alpha
    coeffs[4] -= 2.0 * delta0 * l0
    roots = np.roots(coeffs)
    real = roots[np.abs(roots.imag) <= 1e-9 * np.abs(roots)].real
    expected = float(np.max(real[real > 0.0])) ** 2
    value = float(impl(effective_g)(l0, l1, delta0, alpha=alpha))
    return BoundCheck(
        claim="effective_g = sup{a >= 0 : a² <= 2 l(2a) Δ0} (largest root of the quartic in √a)",
        paper=PAPER,
        theorem="§2 effective constants",
        measured=abs(value - expected) / expected,
        bound=0.0,
        sense="==",
        atol=1e-9,
        params={"L0": l0, "L1": l1, "delta0": delta0, "alpha": alpha, "G": expected},
    )


@register(
    name="mirror_descent.effective_g",
    family="mirror_descent",
    paper=PAPER,
    theorem="§2 effective constants: G = sup{a : a² <= 2 l(2a) Δ0}",
    algorithms=("reference.mirror_descent:effective_g",),
)
def prove_effective_g(profile: ProveProfile) -> BoundCheck:
    """``alpha ∈ {0, 0.5, 1, 1.5}`` and ``(L0, L1, Δ0)`` log-uniform over ``[1e-2, 1e2]`` (so
    either term of ``l`` may dominate, and ``G < 1e12``, the library's documented search
    range, at ``alpha = 1.5``), plus ``L1 = 0``."""
    rng = np.random.default_rng(profile.seed + 61)
    checks: list[BoundCheck] = []
    for _ in range(2 * profile.instances):
        l0, l1, delta0 = (float(v) for v in 10.0 ** rng.uniform(-2.0, 2.0, size=3))
        for alpha in (0.0, 0.5, 1.0, 1.5):
            checks.append(effective_g_roots(l0, l1, delta0, alpha))
            checks.append(effective_g_roots(l0, 0.0, delta0, alpha))
    return worst(checks)


# ------------------------------------------------------------------ stochastic MD (Theorem 4.2)
_SMD_CURVATURE = np.array([1.0, 1.3, 1.6, 2.0, 1.2])
_SMD_START = np.array([1.0, -0.5, 0.8, -1.0, 0.3])


def _smd_gradient(x: FloatArray) -> FloatArray:
    out: FloatArray = _SMD_CURVATURE * np.asarray(x, dtype=np.float64)
    return out


def smd_noise_model(
    seed: int, *, sigma0: float, sigma1: float, step: float, t_max: int
) -> BoundCheck:
    """The documented noise model, read off the returned Euclidean trajectory.

    With the Euclidean map ``x_{t+1} = x_t - η g_t``, so ``ξ_t = (x_t - x_{t+1})/η - ∇f(x_t)``
    is recovered exactly from the iterates.  Three parts, scaled to one number (bound 1):
    the almost-sure bound ``||ξ_t|| <= σ0 + σ1 ||∇f(x_t)||`` (budget ``1e-9`` relative, the
    rounding of the division by η); the documented magnitude ``U (σ0 + σ1 ||∇f||)``,
    ``U ~ Uniform[0, 1]``: the mean of the ratios within 4 standard errors ``4/sqrt(12 T)`` of
    1/2; zero mean: each coordinate's sum within 4 of its self-normalised scale
    ``sqrt(Σ ξ_ti²)`` (symmetric noise).
    """
    result = impl(stochastic_mirror_descent)(
        _smd_gradient,
        _SMD_START,
        max_iter=t_max,
        rng=np.random.default_rng(seed),
        sigma0=sigma0,
        sigma1=sigma1,
        step_size=step,
    )
    xs = np.asarray(result.iterates, dtype=np.float64)
    if xs.shape != (t_max + 1, _SMD_START.size):
        return BoundCheck(
            claim="stochastic MD returns the T + 1 iterates",
            paper=PAPER,
            theorem="Theorem 4.2 (noise model)",
            measured=float(xs.shape[0]),
            bound=float(t_max + 1),
            sense="==",
        )
    xi = (xs[:-1] - xs[1:]) / step - _SMD_CURVATURE * xs[:-1]
    scale = sigma0 + sigma1 * np.linalg.norm(_SMD_CURVATURE * xs[:-1], axis=1)
    ratio = np.linalg.norm(xi, axis=1) / scale
    bound_part = float(np.max(ratio)) / (1.0 + 1e-9)
    law_part = abs(float(np.mean(ratio)) - 0.5) / (4.0 / np.sqrt(12.0 * t_max))
    centre_part = float(np.max(np.abs(xi.sum(axis=0)) / np.sqrt((xi**2).sum(axis=0)))) / 4.0
    return BoundCheck(
        claim="stochastic MD noise: ||ξ|| <= σ0 + σ1||∇f|| a.s., magnitude U(σ0 + σ1||∇f||), "
        "zero mean",
        paper=PAPER,
        theorem="Theorem 4.2 (noise model, our default)",
        measured=max(bound_part, law_part, centre_part),
        bound=1.0,
        sense="<=",
        params={
            "seed": seed,
            "sigma0": sigma0,
            "sigma1": sigma1,
            "eta": step,
            "T": t_max,
            "max_ratio": float(np.max(ratio)),
            "mean_ratio": float(np.mean(ratio)),
            "centre": centre_part * 4.0,
        },
    )


def smd_default_step(t_max: int, lipschitz: float) -> BoundCheck:
    """Without noise, the default step ``η = min(1/(2L), 1/sqrt(T))`` makes stochastic MD plain
    gradient descent: ``x_T = (1 - η λ)^T x_0`` coordinatewise (relative ``1e-12``)."""
    result = impl(stochastic_mirror_descent)(
        _smd_gradient,
        _SMD_START,
        max_iter=t_max,
        rng=np.random.default_rng(0),
        lipschitz=lipschitz,
    )
    eta = min(1.0 / (2.0 * lipschitz), 1.0 / np.sqrt(t_max))
    expected = (1.0 - eta * _SMD_CURVATURE) ** t_max * _SMD_START
    error = float(np.max(np.abs(np.asarray(result.x) - expected))) / float(np.max(np.abs(expected)))
    return BoundCheck(
        claim="noiseless stochastic MD with the default step = gradient descent (closed form)",
        paper=PAPER,
        theorem="Theorem 4.2 (default step rule)",
        measured=error,
        bound=1e-12,
        sense="<=",
        params={"T": t_max, "L": lipschitz, "eta": eta},
    )


def smd_last_iterate_rate(seed: int, *, seeds: int) -> BoundCheck:
    """Theorem 4.2: the last-iterate gap decays like ``Õ(1/sqrt(T))``.

    Bounded noise ``σ0 = 0.5``, ``σ1 = 0``, the default step with ``L = 2`` (``η = 1/sqrt(T)``
    for ``T >= 16``); the median over ``seeds`` runs of ``f(x_T) - f*`` (recomputed from the
    returned ``x``) at ``T in {64, 256, 1024, 4096}``; the fitted log-log slope must lie in the
    spec's window ``[-0.7, -0.3]`` (spec 06 §4: -1/2 up to the logarithm and the median's
    spread).  The last iterate sits in the noise floor ``Θ(η σ0²)``; an average of the iterates
    decays like ``1/T`` and leaves the window.
    """
    sizes = (64, 256, 1024, 4096)
    medians: list[float] = []
    for t_max in sizes:
        gaps = []
        for k in range(seeds):
            result = impl(stochastic_mirror_descent)(
                _smd_gradient,
                _SMD_START,
                max_iter=t_max,
                rng=np.random.default_rng([seed, t_max, k]),
                sigma0=0.5,
                lipschitz=2.0,
            )
            x = np.asarray(result.x, dtype=np.float64)
            gaps.append(0.5 * float(np.sum(_SMD_CURVATURE * x * x)))
        medians.append(float(np.median(gaps)))
    slope = float(np.polyfit(np.log(sizes), np.log(medians), 1)[0])
    distance = max(slope - (-0.3), -0.7 - slope)
    return BoundCheck(
        claim="stochastic MD last iterate: median gap slope in [-0.7, -0.3] (Õ(1/sqrt T))",
        paper=PAPER,
        theorem="Theorem 4.2 (rate)",
        measured=slope,
        bound=-0.3 if slope > -0.5 else -0.7,
        sense="<=" if slope > -0.5 else ">=",
        params={"seed": seed, "seeds": seeds, "T": sizes, "medians": medians, "outside": distance},
    )


@register(
    name="mirror_descent.stochastic_rate",
    family="mirror_descent",
    paper=PAPER,
    theorem="Theorem 4.2 (stochastic MD, last iterate Õ(1/sqrt T)); noise model; default step",
    algorithms=("reference.mirror_descent:stochastic_mirror_descent",),
)
def prove_theorem_4_2(profile: ProveProfile) -> BoundCheck:
    """Noise model at ``(σ0, σ1) = (0.2, 0.5)``, ``(0.5, 0)`` and ``(0, 0.5)`` (purely affine
    noise, which vanishes at the minimiser); default step on both branches
    of the min (``T = 4``: ``1/(2L)``, ``T = 100``: ``1/sqrt T``); the rate's medians over 24
    seeds (40 in full; the spec's 20 leave a slope spread of about 0.07 at these sizes)."""
    return worst(
        [
            smd_noise_model(profile.seed + 1, sigma0=0.2, sigma1=0.5, step=0.05, t_max=2000),
            smd_noise_model(profile.seed + 2, sigma0=0.5, sigma1=0.0, step=0.2, t_max=1000),
            smd_noise_model(profile.seed + 4, sigma0=0.0, sigma1=0.5, step=0.05, t_max=1000),
            smd_default_step(4, 2.0),
            smd_default_step(100, 2.0),
            smd_last_iterate_rate(profile.seed + 3, seeds=40 if profile.is_full else 24),
        ]
    )


def _lp_link(x: FloatArray, p: float) -> FloatArray:
    """``∇ψ(x)`` for ``ψ = ||x||_p² / (2(p-1))``: ``||x||_p^(2-p) sign(x) |x|^(p-1) / (p-1)``."""
    size = float(np.sum(np.abs(x) ** p)) ** (1.0 / p)
    if size == 0.0:
        return np.zeros_like(x)
    out: FloatArray = size ** (2.0 - p) * np.sign(x) * np.abs(x) ** (p - 1.0) / (p - 1.0)
    return out


def _replay_prox(x: FloatArray, g: FloatArray, eta: float, mirror: str, p: float) -> FloatArray:
    """``argmin_u η<g, u> + D_ψ(u, x)`` recomputed: Euclidean ``x - η g``; entropic
    ``x ∘ exp(-η g)`` normalised; lp ``(∇ψ)^{-1}(∇ψ(x) - η g)``, the inverse being the link of
    the conjugate ``ψ* = (p-1)||y||_q² / 2`` written through ``q = p/(p-1)`` and ``(q-1)(p-1) = 1``
    (``∇ψ*`` is ``_lp_link`` at ``q``)."""
    if mirror == "euclidean":
        return x - eta * g
    if mirror == "entropic":
        w = x * np.exp(-eta * (g - np.min(g)))
        return w / float(np.sum(w))
    q = p / (p - 1.0)
    return _lp_link(_lp_link(x, p) - eta * g, q)


def _largest_difference(got: object, want: object) -> float:
    """``max |got - want|``, infinite when the shapes differ (a run of another length)."""
    a, b = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    return float(np.max(np.abs(a - b))) if a.shape == b.shape else math.inf


def mirror_replay(*, mirror: str, p: float, n: int, steps: int, seed: int) -> BoundCheck:
    """Mirror descent, mirror prox and optimistic MD replayed from their documented recursions
    (Algorithms 1, 2, 3; spec 06 §3) with the prox step of the chosen mirror map recomputed:
    ``x_{t+1} = P(x_t, ∇f(x_t))``; ``y_t = P(x_t, ∇f(x_t))``, ``x_{t+1} = P(x_t, ∇f(y_t))``;
    ``x_t = P(y_{t-1}, ∇f(x_{t-1}))``, ``y_t = P(y_{t-1}, ∇f(x_t))``.

    ``f(x) = ½ (x - c)ᵀ Q (x - c)`` with ``Q`` positive definite and ``c`` off the origin (lp,
    Euclidean) or a point of the simplex (entropic, from a corner-heavy start).  Measured: the
    largest absolute difference of the returned iterates and outputs from the replay;
    ``atol = 1e-10``.  An lp map run with another ``p``, or as the Euclidean map, departs at
    the first step (by order 0.1 here).
    """
    rng = np.random.default_rng(seed)
    basis = rng.normal(size=(n, n))
    q_mat = basis @ basis.T / n + 0.5 * np.eye(n)
    if mirror == "entropic":
        c = rng.dirichlet(np.ones(n))
        x0 = rng.dirichlet(0.3 * np.ones(n))
    else:
        c = rng.normal(size=n)
        x0 = rng.normal(size=n)
    eta = 0.5 / float(np.linalg.eigvalsh(q_mat)[-1])

    def grad(x: FloatArray) -> FloatArray:
        out: FloatArray = q_mat @ (np.asarray(x, dtype=np.float64) - c)
        return out

    kwargs: dict[str, Any] = {"step_size": eta, "max_iter": steps, "mirror": mirror, "p": p}
    errors: dict[str, float] = {}
    md = impl(mirror_descent)(grad, x0.copy(), **kwargs)
    xs = [x0]
    for _ in range(steps):
        xs.append(_replay_prox(xs[-1], grad(xs[-1]), eta, mirror, p))
    errors["mirror_descent"] = max(
        _largest_difference(md.iterates, xs), _largest_difference(md.x, xs[-1])
    )
    mp = impl(mirror_prox)(grad, x0.copy(), **kwargs)
    xs, ys = [x0], []
    for _ in range(steps):
        ys.append(_replay_prox(xs[-1], grad(xs[-1]), eta, mirror, p))
        xs.append(_replay_prox(xs[-1], grad(ys[-1]), eta, mirror, p))
    errors["mirror_prox"] = max(
        _largest_difference(mp.iterates, xs), _largest_difference(mp.x, np.mean(ys, axis=0))
    )
    om = impl(optimistic_mirror_descent)(grad, x0.copy(), **kwargs)
    xs, y = [x0], x0
    for _ in range(steps):
        xs.append(_replay_prox(y, grad(xs[-1]), eta, mirror, p))
        y = _replay_prox(y, grad(xs[-1]), eta, mirror, p)
    errors["optimistic_mirror_descent"] = max(
        _largest_difference(om.iterates, xs), _largest_difference(om.x, np.mean(xs[1:], axis=0))
    )
    name = max(errors, key=lambda k: errors[k])
    return BoundCheck(
        claim=f"MD, mirror prox and optimistic MD with the {mirror} map = their recursions",
        paper=PAPER,
        theorem="Algorithms 1-3: documented recursions under each mirror map",
        measured=errors[name],
        bound=0.0,
        sense="==",
        atol=1e-10,
        params={"mirror": mirror, "p": p, "n": n, "steps": steps, "seed": seed, "worst": name},
    )


@register(
    name="mirror_descent.mirror_replay",
    family="mirror_descent",
    paper=PAPER,
    theorem="Algorithms 1-3: documented recursions under each mirror map",
    algorithms=(
        "reference.mirror_descent:mirror_descent",
        "reference.mirror_descent:mirror_prox",
        "reference.mirror_descent:optimistic_mirror_descent",
    ),
)
def prove_mirror_replay(profile: ProveProfile) -> BoundCheck:
    """The lp map at ``p = 1.3`` and ``1.7``, the entropic map, 8 steps in dimension 5."""
    return worst(
        mirror_replay(mirror=mirror, p=p, n=5, steps=8, seed=profile.seed + 60 + i)
        for i, (mirror, p) in enumerate((("lp", 1.3), ("lp", 1.7), ("entropic", 2.0)))
    )


def _composite_replay_step(
    x: FloatArray, g: FloatArray, eta: float, kind: str, weight: float, mirror: str, p: float
) -> FloatArray:
    """``argmin_u <g, u> + h(u) + D(u, x)/η`` in closed form, recomputed here: soft
    thresholding (l1), shrinkage ``1/(1 + ηλ)`` (l2sq), clipping to ``[-1, 1]`` (box); on the
    simplex with ``h = λ Σ u log u``, ``u ∝ (x e^{-ηg})^{1/(1 + ηλ)}``; ``h = 0`` is the
    mirror map's prox step."""
    if kind == "l1":
        v = x - eta * g
        return np.sign(v) * np.maximum(np.abs(v) - eta * weight, 0.0)
    if kind == "l2sq":
        return (x - eta * g) / (1.0 + eta * weight)
    if kind == "box":
        return np.clip(x - eta * g, -1.0, 1.0)
    if kind == "entropy":
        logs = (np.log(x) - eta * g) / (1.0 + eta * weight)
        w = np.exp(logs - np.max(logs))
        return w / float(np.sum(w))
    return _replay_prox(x, g, eta, mirror, p)


def composite_replay(
    *, kind: RegularizerKind, mirror: MirrorName, p: float, seed: int
) -> BoundCheck:
    """Composite mirror descent replayed from Algorithm 6 (spec 06 §3):
    ``x_{t+1} = argmin_u <∇f(x_t), u> + h(u) + D(u, x_t)/η`` with each regulariser's closed
    form recomputed (:func:`_composite_replay_step`).

    ``f(x) = ½ (x - c)ᵀ Q (x - c)`` in dimension 5, 7 steps at ``η = 0.4/λ_max(Q)``, weights
    ``λ = 0.3`` (``c`` inside the simplex for the entropic map, partly outside the box for
    ``box``).  Measured: the largest absolute difference of the returned iterates from the
    replay (infinite when the number of iterates differs); ``atol = 1e-10``.
    """
    rng = np.random.default_rng(seed)
    n = 5
    basis = rng.normal(size=(n, n))
    q_mat = basis @ basis.T / n + 0.5 * np.eye(n)
    if mirror == "entropic":
        c, x0 = rng.dirichlet(np.ones(n)), rng.dirichlet(np.ones(n))
    else:
        c, x0 = 1.5 * rng.normal(size=n), rng.uniform(-1.0, 1.0, size=n)
    eta = 0.4 / float(np.linalg.eigvalsh(q_mat)[-1])

    def grad(x: FloatArray) -> FloatArray:
        out: FloatArray = q_mat @ (np.asarray(x, dtype=np.float64) - c)
        return out

    weight = 0.0 if kind in ("none", "box") else 0.3
    result = impl(composite_mirror_descent)(
        grad,
        x0.copy(),
        step_size=eta,
        max_iter=7,
        regularizer=Regularizer(kind=kind, weight=weight),
        mirror=mirror,
        p=p,
    )
    xs = [x0]
    for _ in range(7):
        xs.append(_composite_replay_step(xs[-1], grad(xs[-1]), eta, kind, weight, mirror, p))
    error = _largest_difference(result.iterates, xs)
    return BoundCheck(
        claim=f"composite MD ({kind}, {mirror} map) = its closed-form recursion",
        paper=PAPER,
        theorem="Algorithm 6 (composite MD): documented recursion",
        measured=error,
        bound=0.0,
        sense="==",
        atol=1e-10,
        params={"kind": kind, "mirror": mirror, "p": p, "seed": seed},
    )


@register(
    name="mirror_descent.composite_replay",
    family="mirror_descent",
    paper=PAPER,
    theorem="Algorithm 6 (composite MD): documented recursion",
    algorithms=("reference.mirror_descent:composite_mirror_descent",),
)
def prove_composite_replay(profile: ProveProfile) -> BoundCheck:
    """l1, l2sq and box with the Euclidean map, entropy with the entropic map, none with the
    lp map at ``p = 1.5``."""
    cases: tuple[tuple[RegularizerKind, MirrorName, float], ...] = (
        ("l1", "euclidean", 2.0),
        ("l2sq", "euclidean", 2.0),
        ("box", "euclidean", 2.0),
        ("entropy", "entropic", 2.0),
        ("none", "lp", 1.5),
    )
    return worst(
        composite_replay(kind=k, mirror=m, p=p, seed=profile.seed + 70 + i)
        for i, (k, m, p) in enumerate(cases)
    )
