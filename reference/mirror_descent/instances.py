"""Instances shared by the ``mirror_descent.*`` suites and the spec 06 theorem checks.

* :func:`simplex_instance` — the spec 06 rate instance (cosh ridge on the simplex);
* :func:`minimiser` — a minimiser on the ridge hyperplane close to ``x0`` in a mirror geometry;
* :func:`composite_instances` — four instances ``F = f + h`` of algorithm 6 with exact ``l`` and
  exact ``F*`` (one with nonconvex ``f``), and :func:`composite_constants` — their ``Δ0``, ``G``,
  ``L = l(2G)`` and local-ball radius.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

from reference._arrays import FloatArray
from reference._repr import summary_repr
from reference.mirror_descent import (
    MirrorName,
    RidgeProblem,
    SmoothnessFunction,
    cosh_ridge,
    effective_constants,
    quartic_ridge,
)
from reference.mirror_descent.composite import Regularizer

__all__ = [
    "CompositeConstants",
    "CompositeProblem",
    "composite_constants",
    "composite_instances",
    "minimiser",
    "simplex_instance",
]


def simplex_instance(rng: np.random.Generator, n: int) -> tuple[RidgeProblem, FloatArray]:
    """Spec 06 rate instance: cosh ridge, ``c ~ U[-1, 1]^n``, ``b = 0.3 max c``, ``x0`` uniform.

    Example:
        >>> problem, x0 = simplex_instance(np.random.default_rng(0), 4)
        >>> x0.tolist(), bool(problem.c.max() > 0 > problem.c.min())
        ([0.25, 0.25, 0.25, 0.25], True)
    """
    c = rng.uniform(-1.0, 1.0, size=n)
    if float(c.max()) <= 0.0:
        c[0] = 1.0
    if float(c.min()) >= 0.0:
        c[-1] = -1.0
    return cosh_ridge(c, 0.3 * float(c.max())), np.full(n, 1.0 / n)


def minimiser(problem: RidgeProblem, x0: FloatArray, mirror: MirrorName) -> FloatArray:
    """A minimiser ``x*`` on the hyperplane ``cᵀx = b`` close to ``x0`` in the mirror geometry.

    Entropic: the I-projection ``x* ∝ x0 exp(μ c)`` (the minimiser of ``KL(·, x0)``; ``μ`` by
    ``brentq``).  Otherwise the Euclidean projection (a minimiser; the bounds hold for each).

    Example:
        >>> problem = cosh_ridge(np.array([1.0, -1.0]), 0.2)
        >>> x = minimiser(problem, np.array([0.5, 0.5]), "entropic")
        >>> round(float(problem.c @ x), 12), round(float(x.sum()), 12)
        (0.2, 1.0)
    """
    c, b = problem.c, problem.b
    if mirror != "entropic":
        out: FloatArray = x0 - (float(c @ x0) - b) * c / float(c @ c)
        return out

    def tilt(mu: float) -> FloatArray:
        logits = np.log(x0) + mu * c
        w = np.exp(logits - logits.max())
        point: FloatArray = w / w.sum()
        return point

    def residual(mu: float) -> float:
        return float(c @ tilt(mu)) - b

    lo, hi = -1.0, 1.0
    while residual(lo) > 0.0:
        lo *= 2.0
    while residual(hi) < 0.0:
        hi *= 2.0
    return tilt(float(brentq(residual, lo, hi, xtol=1e-14, rtol=1e-15)))


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class CompositeProblem:
    """An instance ``F = f + h`` of spec 06 algorithm 6 with exact ``l`` and exact ``F*``.

    Attributes:
        name: instance name.
        value: ``f(x)``.
        grad: ``∇f(x)``.
        smoothness: the ``l`` of ``f`` in the primal norm of ``mirror``'s geometry.
        f_inf: the UNCONSTRAINED infimum of ``f`` over R^n (what Lemma 3.4 needs).
        regularizer: ``h``.
        mirror: the mirror map.
        f_star: ``F* = min_X (f + h)`` (exact up to a 1-D root solve).
    """

    name: str
    value: Callable[[FloatArray], float]
    grad: Callable[[FloatArray], FloatArray]
    smoothness: SmoothnessFunction
    f_inf: float
    regularizer: Regularizer
    mirror: MirrorName
    f_star: float

    def objective(self, x: FloatArray) -> float:
        """``F(x) = f(x) + h(x)``."""
        return self.value(np.asarray(x)) + self.regularizer.value(np.asarray(x))


def _cos_value(x: FloatArray) -> float:
    return float(np.sum(np.cos(x)))


def _cos_grad(x: FloatArray) -> FloatArray:
    out: FloatArray = -np.sin(x)
    return out


def composite_instances(
    rng: np.random.Generator, n: int
) -> list[tuple[CompositeProblem, FloatArray]]:
    """The four composite instances (ours; exact ``l`` and ``F*``), each with a start ``x0``.

    * ``quartic+l1``: ``(cᵀx)⁴/4 + λ||x||_1``, Euclidean, ``F* = 0`` at ``x = 0``;
    * ``cosh+l2sq``: ``2cosh(cᵀx - b) + (λ/2)||x||²``, Euclidean, ``F*`` on the line ``x = αc``
      (``2 sinh(α||c||² - b) + λα = 0``, ``brentq``);
    * ``cos+l1`` (NONCONVEX ``f``): ``Σ cos x_i + λ||x||_1``, Euclidean, ``l ≡ 1``,
      ``F* = n min(1, -sqrt(1-λ²) + λ(π - arcsin λ))`` (separable, per-coordinate minimum);
    * ``cosh+entropy``: ``2cosh(cᵀx - b) + λ Σ x log x`` on the simplex (entropic), ``F*`` at
      ``x ∝ exp(-μc)`` with ``μ = 2 sinh(cᵀx - b)/λ`` (monotone fixed point, ``brentq``).

    Example:
        >>> [p.name for p, _ in composite_instances(np.random.default_rng(0), 3)]
        ['quartic+l1', 'cosh+l2sq', 'cos+l1 (nonconvex f)', 'cosh+entropy (simplex)']
    """
    c = rng.uniform(-1.0, 1.0, size=n)
    c[0], c[-1] = 1.0, -1.0
    out: list[tuple[CompositeProblem, FloatArray]] = []
    quartic = quartic_ridge(c)
    out.append(
        (
            CompositeProblem(
                name="quartic+l1",
                value=quartic.value,
                grad=quartic.grad,
                smoothness=quartic.smoothness("l2"),
                f_inf=0.0,
                regularizer=Regularizer(kind="l1", weight=0.1),
                mirror="euclidean",
                f_star=0.0,
            ),
            0.5 * rng.standard_normal(n),
        )
    )
    ridge = cosh_ridge(c, 0.5)
    lam, k = 0.5, float(c @ c)
    alpha = float(
        brentq(
            lambda a: 2.0 * math.sinh(a * k - 0.5) + lam * a,
            -0.5 / k - 1.0,
            0.5 / k + 1.0,
            xtol=1e-15,
            rtol=1e-15,
        )
    )
    out.append(
        (
            CompositeProblem(
                name="cosh+l2sq",
                value=ridge.value,
                grad=ridge.grad,
                smoothness=ridge.smoothness("l2"),
                f_inf=2.0,
                regularizer=Regularizer(kind="l2sq", weight=lam),
                mirror="euclidean",
                f_star=2.0 * math.cosh(alpha * k - 0.5) + 0.5 * lam * alpha**2 * k,
            ),
            0.5 * rng.standard_normal(n),
        )
    )
    lam_cos = 0.3
    per_coord = -math.sqrt(1.0 - lam_cos**2) + lam_cos * (math.pi - math.asin(lam_cos))
    out.append(
        (
            CompositeProblem(
                name="cos+l1 (nonconvex f)",
                value=_cos_value,
                grad=_cos_grad,
                smoothness=SmoothnessFunction(l0=1.0, l1=0.0),
                f_inf=-float(n),
                regularizer=Regularizer(kind="l1", weight=lam_cos),
                mirror="euclidean",
                f_star=n * min(1.0, per_coord),
            ),
            rng.uniform(-2.0, 2.0, size=n),
        )
    )
    simplex, _ = simplex_instance(rng, n)
    lam_h = 0.05
    entropy = Regularizer(kind="entropy", weight=lam_h)

    def tilt(mu: float) -> FloatArray:
        logits = -mu * simplex.c
        w = np.exp(logits - logits.max())
        point: FloatArray = w / w.sum()
        return point

    def residual(mu: float) -> float:
        return mu - 2.0 * math.sinh(float(simplex.c @ tilt(mu)) - simplex.b) / lam_h

    lo, hi = -1.0, 1.0
    while residual(lo) > 0.0:
        lo *= 2.0
    while residual(hi) < 0.0:
        hi *= 2.0
    x_opt = tilt(float(brentq(residual, lo, hi, xtol=1e-15, rtol=1e-15)))
    out.append(
        (
            CompositeProblem(
                name="cosh+entropy (simplex)",
                value=simplex.value,
                grad=simplex.grad,
                smoothness=simplex.smoothness("l1"),
                f_inf=2.0,
                regularizer=entropy,
                mirror="entropic",
                f_star=simplex.value(x_opt) + entropy.value(x_opt),
            ),
            rng.dirichlet(np.ones(n)) * 0.5 + 0.5 / n,
        )
    )
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class CompositeConstants:
    """``Δ0 = F(x0) - inf f - inf h`` (so ``f(x_t) - inf f <= Δ0`` while ``F`` decreases),
    ``G = G(l, Δ0)``, ``L = l(2G)``, ``η = 1/L`` and the local-ball radius ``G / l(2G)``."""

    delta0: float
    g: float
    lipschitz: float
    radius: float


def composite_constants(problem: CompositeProblem, x0: FloatArray) -> CompositeConstants:
    """The constants of the composite run ([derived]: ``Δ0`` bounds ``f(x_t) - inf f`` because
    ``F(x_t) <= F(x0)`` and ``h >= inf h``; then Lemma 3.4 gives ``||∇f(x_t)||_* <= G``).

    Example:
        >>> problem, x0 = composite_instances(np.random.default_rng(0), 3)[0]
        >>> consts = composite_constants(problem, x0)
        >>> bool(consts.radius == consts.g / consts.lipschitz)
        True
    """
    delta0 = problem.objective(x0) - problem.f_inf - problem.regularizer.infimum(int(np.size(x0)))
    consts = effective_constants(problem.smoothness, delta0)
    return CompositeConstants(
        delta0=delta0,
        g=consts.g,
        lipschitz=consts.lipschitz,
        radius=consts.g / consts.lipschitz,
    )
