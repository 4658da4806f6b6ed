"""Composite mirror descent under l*-smoothness (spec 06, algorithm 6 and Theorem 5.1).

``F = f + h`` with ``f`` l*-smooth (possibly nonconvex) and ``h`` convex and prox-friendly:

``x_{t+1} = argmin_{u in X} { <∇f(x_t), u> + h(u) + D(u, x_t) / η }``,
gradient mapping ``G_t = (x_t - x_{t+1}) / η``; Theorem 5.1 (confirmed rate, constants not
retrieved): ``min_{t<T} ||G_t||² = O(1/T)``.  The explicit bound of spec 06 section 4 (v)
([derived]; checked in :mod:`proofs_numeric.mirror_descent`): with ``η <= 1/L`` and steps
in the local ball, ``min_{t<T} ||G_t||² <= 2 (F(x_0) - F*) / (η T)`` (``||.||`` the primal norm).

The regulariser class is ours (the spec only says "convex and prox-friendly"):
:class:`Regularizer` with closed-form composite prox steps (:func:`composite_prox_step`):

* Euclidean geometry (``X = R^n``): ``none``, ``l1`` (``λ||x||_1``, soft thresholding),
  ``l2sq`` (``λ||x||²/2``, shrinkage), ``box`` (indicator of ``[lower, upper]^n``, clipping);
* entropic geometry (``X`` = simplex, ``D`` = KL): ``none`` and ``entropy``
  (``λ Σ x_i log x_i``: ``u ∝ exp((log x - η g) / (1 + η λ))``, log-sum-exp shift);
* lp geometry: ``none`` only (plain mirror descent).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import logsumexp

from reference._arrays import FloatArray, as_float_array, readonly, require_positive
from reference._repr import summary_repr
from reference.mirror_descent.methods import (
    Gradient,
    MirrorName,
    _check_mirror,
    _check_step,
    _gradient,
    _mirror_dual_norm,
    _mirror_point,
    _mirror_primal_norm,
    _prox,
    _real,
    _setup,
)

__all__ = [
    "CompositeResult",
    "Regularizer",
    "RegularizerKind",
    "composite_mirror_descent",
    "composite_prox_step",
]

RegularizerKind = Literal["none", "l1", "l2sq", "box", "entropy"]
_KINDS = ("none", "l1", "l2sq", "box", "entropy")
#: Regularisers allowed with each mirror map (closed-form composite prox steps).
_ALLOWED: dict[str, tuple[str, ...]] = {
    "euclidean": ("none", "l1", "l2sq", "box"),
    "entropic": ("none", "entropy"),
    "lp": ("none",),
}
#: Membership tolerance of the box for ``x0`` and for :meth:`Regularizer.value`.
BOX_ATOL = 1e-12


@dataclass(frozen=True, slots=True, kw_only=True)
class Regularizer:
    """A convex, prox-friendly regulariser ``h`` (our class; spec 06 section 3, algorithm 6).

    ``none``: ``h = 0``; ``l1``: ``λ ||x||_1``; ``l2sq``: ``(λ/2) ||x||_2²``; ``box``: indicator
    of ``[lower, upper]^n`` (``λ`` unused); ``entropy``: ``λ Σ x_i log x_i`` on the simplex.

    Attributes:
        kind: the regulariser.
        weight: ``λ >= 0`` (finite).
        lower: lower bound of the box (``box`` only).
        upper: upper bound of the box, ``> lower`` (``box`` only).

    Raises:
        ValueError: unknown ``kind``, ``weight`` negative or non-finite, box bounds non-finite or
            ``lower >= upper``.

    Example:
        >>> Regularizer(kind="l1", weight=0.5).value(np.array([1.0, -2.0]))
        1.5
    """

    kind: RegularizerKind = "none"
    weight: float = 0.0
    lower: float = -1.0
    upper: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"kind: expected one of {', '.join(_KINDS)}, got {self.kind!r}")
        lam = require_positive("weight", self.weight, allow_zero=True)
        if not math.isfinite(lam):
            raise ValueError(f"weight: expected a finite number, got {lam!r}")
        lo, hi = _real(self.lower, "lower"), _real(self.upper, "upper")
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise ValueError(
                f"lower, upper: expected finite bounds lower < upper, got {lo!r}, {hi!r}"
            )

    def value(self, x: FloatArray) -> float:
        """``h(x)`` (``inf`` outside the box for ``box``; ``0 log 0 = 0`` for ``entropy``)."""
        z = np.asarray(x, dtype=np.float64)
        if self.kind == "l1":
            return self.weight * float(np.sum(np.abs(z)))
        if self.kind == "l2sq":
            return 0.5 * self.weight * float(z @ z)
        if self.kind == "box":
            inside = bool(np.all(z >= self.lower - BOX_ATOL) and np.all(z <= self.upper + BOX_ATOL))
            return 0.0 if inside else math.inf
        if self.kind == "entropy":
            pos = z[z > 0.0]
            return self.weight * float(np.sum(pos * np.log(pos)))
        return 0.0

    def infimum(self, n: int) -> float:
        """``inf h`` over the domain in dimension ``n`` (``-λ log n`` for ``entropy`` on the simplex,
        attained at the uniform point; 0 otherwise)."""
        return -self.weight * math.log(n) if self.kind == "entropy" else 0.0


def _check_reg(regularizer: object, mirror: str) -> Regularizer:
    if not isinstance(regularizer, Regularizer):
        raise TypeError(f"regularizer: expected a Regularizer, got {type(regularizer).__name__}")
    if regularizer.kind not in _ALLOWED[mirror]:
        raise ValueError(
            f"regularizer: expected one of {', '.join(_ALLOWED[mirror])} with the {mirror} mirror "
            f"map, got {regularizer.kind!r}"
        )
    return regularizer


def _composite_prox(
    x: FloatArray, g: FloatArray, eta: float, reg: Regularizer, mirror: str, p: float
) -> FloatArray:
    """``argmin_u <g, u> + h(u) + D(u, x)/η`` in closed form."""
    lam = reg.weight
    if reg.kind == "none" or (reg.kind != "box" and lam == 0.0):
        return _prox(x, g, eta, mirror, p)
    if reg.kind == "entropy":  # u ∝ exp((log x - η g) / (1 + η λ)), zeros stay zero
        support = x > 0.0
        logits = np.full_like(x, -np.inf)
        logits[support] = (np.log(x[support]) - eta * g[support]) / (1.0 + eta * lam)
        out: FloatArray = np.exp(logits - logsumexp(logits[support]))
        out[~support] = 0.0
        return out
    v = x - eta * g
    if reg.kind == "l1":  # soft thresholding at ηλ
        shrunk: FloatArray = np.sign(v) * np.maximum(np.abs(v) - eta * lam, 0.0)
        return shrunk
    if reg.kind == "l2sq":
        scaled: FloatArray = v / (1.0 + eta * lam)
        return scaled
    clipped: FloatArray = np.clip(v, reg.lower, reg.upper)  # box: Euclidean projection
    return clipped


def _start(x0: object, reg: Regularizer, mirror: str, name: str = "x0") -> FloatArray:
    x = _mirror_point(name, x0, mirror)
    if reg.kind == "box" and not math.isfinite(reg.value(x)):
        raise ValueError(
            f"{name}: expected a point of the box [{reg.lower!r}, {reg.upper!r}]^n, got entries in "
            f"[{float(np.min(x))!r}, {float(np.max(x))!r}]"
        )
    return x


def composite_prox_step(
    x: ArrayLike,
    gradient: ArrayLike,
    step_size: float,
    *,
    regularizer: Regularizer,
    mirror: MirrorName = "euclidean",
    p: float = 2.0,
) -> FloatArray:
    """One composite mirror step ``argmin_{u in X} { <g, u> + h(u) + D(u, x) / η }``.

    Closed forms (ours, standard): Euclidean with ``l1`` soft thresholding of ``x - η g`` at
    ``η λ``; ``l2sq`` ``(x - η g) / (1 + η λ)``; ``box`` ``clip(x - η g, lower, upper)``;
    entropic with ``entropy`` ``u ∝ exp((log x - η g) / (1 + η λ))``; ``none`` the plain prox
    step of :func:`reference.mirror_descent.prox_step`.  Symbols: ``g`` is ``gradient``, ``η`` is
    ``step_size``, ``h`` is ``regularizer``, ``λ`` is ``regularizer.weight``.

    Args:
        x: ``(n,)`` current point (on the simplex for ``entropic``, in the box for ``box``).
        gradient: ``(n,)`` finite gradient of ``f`` at ``x``.
        step_size: ``η > 0``.
        regularizer: the :class:`Regularizer` ``h``.
        mirror: ``euclidean``, ``entropic`` or ``lp``.
        p: exponent of the lp mirror map in ``(1, 2]``.

    Returns:
        The new point ``(n,)``.

    Raises:
        ValueError: shapes differ, non-finite input, ``x`` off the simplex or outside the box,
            ``step_size <= 0``, a regulariser not supported with ``mirror``.
        TypeError: ``regularizer`` is not a :class:`Regularizer`.

    References:
        Spec 06, section 3, algorithm 6 (Duchi et al. 2010 composite mirror descent).

    Example:
        >>> composite_prox_step([1.0, -0.2], [0.0, 0.0], 1.0,
        ...                     regularizer=Regularizer(kind="l1", weight=0.5)).tolist()
        [0.5, -0.0]
    """
    pp = _check_mirror(mirror, p)
    reg = _check_reg(regularizer, mirror)
    point = _start(x, reg, mirror, "x")
    grad = as_float_array("gradient", gradient, shape=(point.size,))
    eta = require_positive("step_size", step_size)
    return _composite_prox(point, grad, eta, reg, mirror, pp)


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class CompositeResult:
    """Outcome of composite mirror descent.

    Attributes:
        x: the last iterate ``x_T``.
        iterates: ``(T + 1, n)`` iterates ``x_0 .. x_T``.
        gradient_norms: ``(T,)`` dual norms ``||∇f(x_t)||_*`` (geometry of the mirror map).
        mapping_norms: ``(T,)`` primal norms ``||G_t||`` of the gradient mapping
            ``G_t = (x_t - x_{t+1}) / η``.
        best_index: ``argmin_t ||G_t||``.
        iterations: iterations run ``T``.
        converged: ``||G_t|| <= tol`` was reached (always ``False`` when ``tol = 0``).
        stationarity: ``min_{t<T} ||G_t||``, the quantity of Theorem 5.1 (stopping quantity).
    """

    x: FloatArray
    iterates: FloatArray
    gradient_norms: FloatArray
    mapping_norms: FloatArray
    best_index: int
    iterations: int
    converged: bool
    stationarity: float


def composite_mirror_descent(
    grad: Gradient,
    x0: ArrayLike,
    *,
    step_size: float,
    max_iter: int,
    regularizer: Regularizer,
    mirror: MirrorName = "euclidean",
    p: float = 2.0,
    tol: float = 0.0,
    lipschitz: float | None = None,
    strict: bool = False,
) -> CompositeResult:
    """Composite mirror descent for ``F = f + h`` (Duchi et al. 2010), ``f`` possibly nonconvex.

    ``x_{t+1} = argmin_{u in X} { <∇f(x_t), u> + h(u) + D(u, x_t) / η }``,
    ``G_t = (x_t - x_{t+1}) / η``.  With ``η <= 1/L``, ``L = l(2G)``, and steps in the local
    ball of Lemma A: ``F(x_{t+1}) <= F(x_t) - (η/2) ||G_t||²`` and
    ``min_{t<T} ||G_t||² <= 2 (F(x_0) - F*) / (η T)``.

    Symbols: ``η`` is ``step_size``, ``T`` is ``max_iter``, ``h`` is ``regularizer``, ``L`` is
    ``lipschitz``.

    Args:
        grad: ``x (n,) -> ∇f(x) (n,)`` (gradient of the smooth part only).
        x0: ``(n,)`` start (on the simplex for ``entropic``, in the box for ``box``).
        step_size: ``η > 0``.
        max_iter: ``T >= 1`` (the run stops earlier only when ``tol > 0`` is met).
        regularizer: the :class:`Regularizer` ``h`` (``none`` gives plain mirror descent).
        mirror: ``euclidean``, ``entropic`` or ``lp``.
        p: exponent of the lp mirror map in ``(1, 2]``.
        tol: stop when ``||G_t|| <= tol`` (0: never).
        lipschitz: the paper's ``L``; when given, ``η > 1/L`` warns, or raises with ``strict``.
        strict: raise instead of warning when ``η`` exceeds ``1/L``.

    Returns:
        :class:`CompositeResult`.

    Raises:
        ValueError: bad ``x0``, ``step_size <= 0``, ``max_iter < 1``, a regulariser not
            supported with ``mirror``, ``η > 1/L`` with ``strict``, a gradient of the wrong shape
            or non-finite.
        TypeError: ``grad`` not callable, ``regularizer`` not a :class:`Regularizer`.

    References:
        Spec 06, section 3, algorithm 6; Theorem 5.1 (``O(1/T)`` for ``min_t ||G_t||²``,
        nonconvex ``f``, confirmed); the explicit bound is section 4 (v) [derived].  The
        regulariser class is ours.

    Example:
        >>> r = composite_mirror_descent(lambda x: x - 1.0, [0.0], step_size=0.5, max_iter=60,
        ...                              regularizer=Regularizer(kind="l1", weight=0.5))
        >>> round(float(r.x[0]), 9)
        0.5
    """
    gradient, _, t_max, pp, tolerance = _setup(grad, x0, max_iter, mirror, p, tol)
    reg = _check_reg(regularizer, mirror)
    x = _start(x0, reg, mirror)
    eta, _ = _check_step(step_size, "md", lipschitz, strict)
    iterates = [x.copy()]
    gnorms: list[float] = []
    mapping: list[float] = []
    for _ in range(t_max):
        g = _gradient(gradient, x)
        gnorms.append(_mirror_dual_norm(g, mirror, pp))
        new = _composite_prox(x, g, eta, reg, mirror, pp)  # Alg. 6: composite prox step
        mapping.append(_mirror_primal_norm(x - new, mirror, pp) / eta)  # ||G_t||
        x = new
        iterates.append(x.copy())
        if tolerance > 0.0 and mapping[-1] <= tolerance:
            break
    norms = np.array(mapping)
    best = int(np.argmin(norms))
    return CompositeResult(
        x=readonly(x.copy()),
        iterates=readonly(np.array(iterates)),
        gradient_norms=readonly(np.array(gnorms)),
        mapping_norms=readonly(norms),
        best_index=best,
        iterations=len(iterates) - 1,
        converged=bool(tolerance > 0.0 and float(norms[best]) <= tolerance),
        stationarity=float(norms[best]),
    )
