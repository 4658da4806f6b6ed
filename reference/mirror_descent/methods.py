"""Mirror descent under generalized (l*) smoothness.

Reference implementations for spec 06 (Yu, Jiang, Tao, Wan, Zhang, *Mirror Descent Under
Generalized Smoothness*, ICML 2026, arXiv:2502.00753):

* the smoothness function ``l`` (:class:`SmoothnessFunction`, ``l(a) = L0 + L1 a^alpha``) and the
  effective constants ``G`` and ``L`` of the paper (:func:`effective_constants`);
* dual norms and their maximisers for l1, l2, linf, lp, spectral and nuclear norms
  (:func:`dual_norm`, :func:`primal_norm`, :func:`dual_maximizer`);
* the prox step and Bregman divergence of the Euclidean, entropic (simplex) and lp mirror maps
  (:func:`prox_step`, :func:`bregman_divergence`);
* mirror descent, accelerated, optimistic, mirror-prox and stochastic mirror descent
  (:func:`mirror_descent`, :func:`accelerated_mirror_descent`,
  :func:`optimistic_mirror_descent`, :func:`mirror_prox`, :func:`stochastic_mirror_descent`);
* estimators of the local smoothness along a path and an affine ``(L0, L1)`` fit
  (:func:`local_smoothness_estimates`, :func:`fit_affine_smoothness`);
* the spec's test instances with exact ``l`` and ``f*`` (:func:`quartic_ridge`,
  :func:`cosh_ridge`).

Provenance (spec 06): Definition 1, Lemma 3.4, Assumption 3.3, ``G``, ``L = l(2G)`` / ``l(4G)`` and
the step-size conditions are confirmed; the accelerated scheme is our default concrete
(Tseng-type) scheme; the stochastic noise model and step are our defaults; the rate inequalities
are the classical bounds with the paper's ``L`` substituted ([derived]).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import brentq, nnls
from scipy.special import logsumexp

from reference._arrays import (
    FloatArray,
    as_float_array,
    as_simplex_point,
    readonly,
    require_generator,
    require_int,
    require_positive,
)
from reference._repr import summary_repr

__all__ = [
    "EffectiveConstants",
    "MirrorDescentResult",
    "MirrorName",
    "NormName",
    "RidgeProblem",
    "SmoothnessFit",
    "SmoothnessFunction",
    "accelerated_mirror_descent",
    "bregman_divergence",
    "cosh_ridge",
    "dual_maximizer",
    "dual_norm",
    "effective_constants",
    "effective_g",
    "entropic_step",
    "fit_affine_smoothness",
    "local_smoothness_estimates",
    "mirror_descent",
    "mirror_prox",
    "optimistic_mirror_descent",
    "primal_norm",
    "prox_step",
    "quartic_ridge",
    "step_size_limit",
    "stochastic_mirror_descent",
]

NormName = Literal["l1", "l2", "linf", "lp", "spectral", "nuclear"]
MirrorName = Literal["euclidean", "entropic", "lp"]
MethodName = Literal["md", "mirror_prox", "optimistic", "stochastic", "accelerated"]

_NORMS = ("l1", "l2", "linf", "lp", "spectral", "nuclear")
_MIRRORS = ("euclidean", "entropic", "lp")
#: Step-size limits as multiples of 1/L (spec 06 section 3): MD 1/L, mirror prox 1/(2L),
#: optimistic MD 1/(3L), stochastic MD 1/(2L) (our default).
_LIMITS: dict[str, float] = {"md": 1.0, "mirror_prox": 0.5, "optimistic": 1.0 / 3.0}
_LIMITS["stochastic"] = 0.5
#: Simplex membership tolerance of inputs.
SIMPLEX_ATOL = 1e-9
Gradient = Callable[[FloatArray], FloatArray]


# --------------------------------------------------------------------------------------------
# norms


def _check_norm(norm: str, p: float) -> tuple[str, float]:
    if norm not in _NORMS:
        raise ValueError(f"norm: expected one of {', '.join(_NORMS)}, got {norm!r}")
    if norm == "lp":
        value = _real(p, "p")
        if not (value > 1.0):
            raise ValueError(f"p: expected a number in (1, inf] for the lp norm, got {value!r}")
        return norm, value
    return norm, 2.0


def _real(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating | np.integer):
        raise TypeError(f"{name}: expected a real number, got {type(value).__name__} {value!r}")
    out = float(value)
    if math.isnan(out):
        raise ValueError(f"{name}: expected a number, got nan")
    return out


def _conjugate(p: float) -> float:
    return math.inf if p == 1.0 else (1.0 if math.isinf(p) else p / (p - 1.0))


def _vector_norm(x: FloatArray, order: float) -> float:
    if math.isinf(order):
        return float(np.max(np.abs(x)))
    if order == 1.0:
        return float(np.sum(np.abs(x)))
    if order == 2.0:
        return float(np.linalg.norm(x))
    scale = float(np.max(np.abs(x)))
    if scale == 0.0:
        return 0.0
    return scale * float(np.sum((np.abs(x) / scale) ** order) ** (1.0 / order))


def _primal_order(norm: str, p: float) -> float:
    return {"l1": 1.0, "l2": 2.0, "linf": math.inf}.get(norm, p)


def _as_norm_input(name: str, value: object, norm: str) -> FloatArray:
    if norm in ("spectral", "nuclear"):
        return as_float_array(name, value, ndim=2)
    return as_float_array(name, value, ndim=1)


def primal_norm(x: ArrayLike, norm: NormName = "l2", *, p: float = 2.0) -> float:
    """Primal norm ``||x||`` for the named geometry.

    ``l1``, ``l2``, ``linf`` and ``lp`` (``p`` in ``(1, inf]``) act on vectors; ``spectral``
    (largest singular value) and ``nuclear`` (sum of singular values) on matrices.

    Args:
        x: ``(n,)`` vector, or ``(m, n)`` matrix for the matrix norms.
        norm: the primal norm.
        p: exponent of the ``lp`` norm.

    Returns:
        The norm, a float ``>= 0``.

    Raises:
        ValueError: unknown norm, ``p`` not in ``(1, inf]``, wrong rank, empty or non-finite ``x``.

    Example:
        >>> primal_norm([3.0, -4.0], "l1")
        7.0
    """
    name, order = _check_norm(norm, p)
    array = _as_norm_input("x", x, name)
    if name == "spectral":
        return float(np.linalg.norm(array, 2))
    if name == "nuclear":
        return float(np.linalg.norm(array, "nuc"))
    return _vector_norm(array, _primal_order(name, order))


def dual_norm(y: ArrayLike, norm: NormName = "l2", *, p: float = 2.0) -> float:
    """Dual norm ``||y||_* = max_{||x|| <= 1} <y, x>`` of the named primal norm.

    Pairs (primal, dual): (l1, linf), (l2, l2), (linf, l1), (lp, lq) with ``1/p + 1/q = 1``,
    (spectral, nuclear), (nuclear, spectral).

    Args:
        y: ``(n,)`` vector, or ``(m, n)`` matrix for the matrix norms.
        norm: the PRIMAL norm whose dual is wanted.
        p: exponent of the primal ``lp`` norm, ``p`` in ``(1, inf]``.

    Returns:
        ``||y||_*``.

    Raises:
        ValueError: unknown norm, bad ``p``, wrong rank, empty or non-finite ``y``.

    References:
        Spec 06, section 2 (norm pairs).

    Example:
        >>> dual_norm([3.0, -4.0], "l1")
        4.0
    """
    name, order = _check_norm(norm, p)
    array = _as_norm_input("y", y, name)
    if name == "spectral":
        return float(np.linalg.norm(array, "nuc"))
    if name == "nuclear":
        return float(np.linalg.norm(array, 2))
    return _vector_norm(array, _conjugate(_primal_order(name, order)))


def dual_maximizer(y: ArrayLike, norm: NormName = "l2", *, p: float = 2.0) -> FloatArray:
    """A maximiser ``x`` of ``<y, x>`` over the primal unit ball: ``||x|| <= 1``,
    ``<y, x> = ||y||_*`` (``x = 0`` when ``y = 0``).

    Args:
        y: ``(n,)`` vector, or ``(m, n)`` matrix for the matrix norms.
        norm: the primal norm.
        p: exponent of the primal ``lp`` norm.

    Returns:
        ``x`` with the shape of ``y`` (a new array).

    Raises:
        ValueError: as :func:`dual_norm`.

    Example:
        >>> dual_maximizer([1.0, -3.0], "l1").tolist()
        [0.0, -1.0]
    """
    name, order = _check_norm(norm, p)
    array = _as_norm_input("y", y, name)
    if not np.any(array):
        return np.zeros_like(array)
    if name == "spectral":  # dual nuclear: x = U Vᵀ
        u, _, vt = np.linalg.svd(array, full_matrices=False)
        out: FloatArray = u @ vt
        return out
    if name == "nuclear":  # dual spectral: x = u1 v1ᵀ
        u, _, vt = np.linalg.svd(array, full_matrices=False)
        return np.outer(u[:, 0], vt[0])
    primal = _primal_order(name, order)
    if primal == 1.0:  # dual linf: a signed coordinate vector at the largest |y_i|
        x = np.zeros_like(array)
        i = int(np.argmax(np.abs(array)))
        x[i] = math.copysign(1.0, float(array[i]))
        return x
    if math.isinf(primal):  # dual l1: sign(y)
        signs: FloatArray = np.sign(array)
        return signs
    q = _conjugate(primal)
    scale = float(np.max(np.abs(array)))
    z = np.abs(array) / scale
    # x_i = sign(y_i) |y_i|^(q-1) / ||y||_q^(q-1), computed on y / max|y| for range safety
    weights = z ** (q - 1.0)
    denominator = _vector_norm(z, q) ** (q - 1.0)
    maximizer: FloatArray = np.sign(array) * weights / denominator
    return maximizer


# --------------------------------------------------------------------------------------------
# the smoothness function l and the effective constants


@dataclass(frozen=True, slots=True, kw_only=True)
class SmoothnessFunction:
    """The smoothness function ``l(a) = L0 + L1 a^alpha`` of l*-smoothness.

    Special cases (spec 06, Definition 1, confirmed): ``L1 = 0`` classical L-smoothness;
    ``alpha = 1`` (L0, L1)-smoothness; ``0 <= alpha < 2`` keeps ``l`` sub-quadratic
    (Assumption 3.3) so that ``G`` is finite.

    Attributes:
        l0: ``L0 > 0`` (``l`` maps into ``(0, inf)``).
        l1: ``L1 >= 0``.
        alpha: exponent in ``[0, 2)``.

    Raises:
        ValueError: ``l0 <= 0``, ``l1 < 0`` or ``alpha`` outside ``[0, 2)``.

    Example:
        >>> SmoothnessFunction(l0=1.0, l1=2.0)(3.0)
        7.0
    """

    l0: float
    l1: float = 0.0
    alpha: float = 1.0

    def __post_init__(self) -> None:
        require_positive("l0", self.l0)
        require_positive("l1", self.l1, allow_zero=True)
        alpha = _real(self.alpha, "alpha")
        if not (0.0 <= alpha < 2.0):
            raise ValueError(f"alpha: expected a number in [0, 2) (sub-quadratic l), got {alpha!r}")

    def __call__(self, a: float) -> float:
        """``l(a)`` for ``a >= 0``; ``inf`` where ``a**alpha`` exceeds the float range."""
        if self.l1 == 0.0 or self.alpha == 0.0:
            return float(self.l0 + self.l1)
        try:
            power = float(a) ** self.alpha
        except OverflowError:
            return math.inf
        return float(self.l0 + self.l1 * power)


@dataclass(frozen=True, slots=True, kw_only=True)
class EffectiveConstants:
    """The effective constants of spec 06, section 2.

    Attributes:
        delta0: initial gap ``Δ0 = f(x0) - f*``.
        g: ``G = sup{a >= 0 : a² <= 2 l(2a) Δ0}``.
        lipschitz: ``L = l(2G)`` (or ``l(4G)`` for accelerated MD).
        accelerated: whether ``L = l(4G)``.
    """

    delta0: float
    g: float
    lipschitz: float
    accelerated: bool


def _check_l(l_fn: Callable[[float], float]) -> None:
    """Spec 06 section 5: l must be positive, non-decreasing and sub-quadratic on a test grid."""
    grid = np.geomspace(1e-8, 1e8, 65)
    values = np.array([float(l_fn(float(a))) for a in np.concatenate([[0.0], grid])])
    if not np.all(np.isfinite(values)) or float(values.min()) <= 0.0:
        raise ValueError("l: expected positive finite values on [0, 1e8], got a non-positive one")
    if np.any(np.diff(values) < -1e-12 * np.abs(values[1:])):
        raise ValueError("l: expected a non-decreasing function, got a decrease on the test grid")
    ratio = grid**2 / values[1:]
    if not (ratio[-1] > ratio[len(ratio) // 2] and ratio[-1] > 1e6 * ratio[0]):
        raise ValueError(
            "l: expected a sub-quadratic function (a²/l(a) increasing to inf, Assumption 3.3), "
            f"got a²/l(a) = {ratio[-1]!r} at a = 1e8"
        )


def effective_constants(
    l_fn: SmoothnessFunction | Callable[[float], float],
    delta0: float,
    *,
    accelerated: bool = False,
) -> EffectiveConstants:
    """The constants ``G`` and ``L`` that make an l*-smooth function behave L-smooth along a run.

    ``G = sup{a >= 0 : a² <= 2 l(2a) Δ0}`` (the largest root of ``a² = 2 l(2a) Δ0``) and
    ``L = l(2G)`` for MD, optimistic MD, mirror prox and stochastic MD, ``L = l(4G)`` for
    accelerated MD.  Closed forms: constant ``l = L0`` gives ``G = sqrt(2 L0 Δ0)``; affine
    ``l = L0 + L1 a`` gives ``G = 2 L1 Δ0 + sqrt(4 L1² Δ0² + 2 L0 Δ0)``.  Other ``l``: the last
    sign change of ``a² - 2 l(2a) Δ0`` on a geometric grid, refined by ``brentq``.

    Symbols: ``Δ0`` is ``delta0``, ``l`` is ``l_fn``.

    Args:
        l_fn: the smoothness function (a :class:`SmoothnessFunction` or any callable that is
            positive, non-decreasing and sub-quadratic).
        delta0: initial gap ``f(x0) - f* >= 0``.
        accelerated: use ``L = l(4G)``.

    Returns:
        :class:`EffectiveConstants`.

    Raises:
        ValueError: ``delta0`` negative or non-finite; ``l`` not positive, not non-decreasing or
            not sub-quadratic on the test grid.

    References:
        Spec 06, section 2, "Effective constants" (confirmed) and Assumption 3.3.

    Example:
        >>> c = effective_constants(SmoothnessFunction(l0=2.0, l1=0.0), 1.0)
        >>> round(c.g, 12), c.lipschitz
        (2.0, 2.0)
    """
    d0 = require_positive("delta0", delta0, allow_zero=True)
    if not isinstance(l_fn, SmoothnessFunction):
        if not callable(l_fn):
            raise TypeError(f"l_fn: expected a callable, got {type(l_fn).__name__}")
        _check_l(l_fn)
    factor = 4.0 if accelerated else 2.0
    if d0 == 0.0:
        g = 0.0
    elif isinstance(l_fn, SmoothnessFunction) and (l_fn.l1 == 0.0 or l_fn.alpha == 0.0):
        g = math.sqrt(2.0 * (l_fn.l0 + l_fn.l1) * d0)
    elif isinstance(l_fn, SmoothnessFunction) and l_fn.alpha == 1.0:
        g = 2.0 * l_fn.l1 * d0 + math.sqrt(4.0 * l_fn.l1**2 * d0**2 + 2.0 * l_fn.l0 * d0)
    else:
        g = _largest_root(l_fn, d0)
    return EffectiveConstants(
        delta0=d0, g=g, lipschitz=float(l_fn(factor * g)), accelerated=accelerated
    )


def effective_g(l0: float, l1: float, delta0: float, *, alpha: float = 1.0) -> float:
    """``G`` for ``l(a) = L0 + L1 a^alpha`` (shortcut for :func:`effective_constants`).

    Args:
        l0: ``L0 > 0``.
        l1: ``L1 >= 0``.
        delta0: ``Δ0 >= 0``.
        alpha: exponent in ``[0, 2)``.

    Returns:
        ``G = sup{a >= 0 : a² <= 2 l(2a) Δ0}``.

    Raises:
        ValueError: parameters out of range or non-finite.

    References:
        Spec 06, section 2, "Effective constants" (confirmed).

    Example:
        >>> effective_g(1.0, 1.0, 1.0) == 2.0 + math.sqrt(6.0)
        True
    """
    return effective_constants(SmoothnessFunction(l0=l0, l1=l1, alpha=alpha), delta0).g


def _largest_root(l_fn: Callable[[float], float], d0: float) -> float:
    def h(a: float) -> float:
        return a * a - 2.0 * float(l_fn(2.0 * a)) * d0

    grid = np.geomspace(1e-12, 1e12, 241)
    values = np.array([h(float(a)) for a in grid])
    nonpositive = np.flatnonzero(values <= 0.0)
    if nonpositive.size == 0:  # h > 0 already at 1e-12: root in (0, 1e-12)
        return float(brentq(h, 0.0, float(grid[0]), xtol=1e-300, rtol=1e-15))
    last = int(nonpositive[-1])
    if last == grid.size - 1:
        raise ValueError(
            "l_fn: expected a sub-quadratic l (G finite), got a² <= 2 l(2a) Δ0 at 1e12"
        )
    return float(brentq(h, float(grid[last]), float(grid[last + 1]), xtol=1e-300, rtol=1e-15))


def step_size_limit(method: MethodName, lipschitz: float) -> float:
    """Largest step the spec allows: MD ``1/L``, mirror prox ``1/(2L)``, optimistic ``1/(3L)``,
    stochastic ``1/(2L)`` (our default); accelerated takes ``eta`` in ``(0, 1]`` (returns 1).

    Raises:
        ValueError: unknown method or ``lipschitz <= 0``.

    Example:
        >>> step_size_limit("optimistic", 2.0) * 6
        1.0
    """
    lip = require_positive("lipschitz", lipschitz)
    if method == "accelerated":
        return 1.0
    if method not in _LIMITS:
        raise ValueError(
            f"method: expected one of {', '.join([*_LIMITS, 'accelerated'])}, got {method!r}"
        )
    return _LIMITS[method] / lip


def _check_step(
    step: float, method: MethodName, lipschitz: float | None, strict: bool
) -> tuple[float, float | None]:
    eta = require_positive("step_size", step)
    lip = None if lipschitz is None else require_positive("lipschitz", lipschitz)
    if lip is not None:
        limit = step_size_limit(method, lip)
        if eta > limit * (1.0 + 1e-12):
            text = f"step_size: expected <= {limit!r} for {method} with L = {lip!r}, got {eta!r}"
            if strict:
                raise ValueError(text)
            warnings.warn(text, UserWarning, stacklevel=3)
    return eta, lip


# --------------------------------------------------------------------------------------------
# mirror maps


def _check_mirror(mirror: str, p: float) -> float:
    if mirror not in _MIRRORS:
        raise ValueError(f"mirror: expected one of {', '.join(_MIRRORS)}, got {mirror!r}")
    value = _real(p, "p")  # validated for every map (it is only used by ``lp``)
    if not (1.0 < value <= 2.0):
        raise ValueError(f"p: expected a number in (1, 2] for the lp mirror map, got {value!r}")
    return value if mirror == "lp" else 2.0


def _mirror_point(name: str, x: object, mirror: str, size: int | None = None) -> FloatArray:
    if mirror == "entropic":
        return as_simplex_point(name, x, size=size, atol=SIMPLEX_ATOL)
    return as_float_array(name, x, shape=(size,))


def _grad_psi(x: FloatArray, p: float) -> FloatArray:
    """``∇ψ`` for ``ψ(x) = ||x||_p² / (2(p-1))``."""
    nrm = _vector_norm(x, p)
    if nrm == 0.0:
        return np.zeros_like(x)
    out: FloatArray = np.sign(x) * (np.abs(x) / nrm) ** (p - 1.0) * nrm / (p - 1.0)
    return out


def _grad_psi_conj(theta: FloatArray, p: float) -> FloatArray:
    """``∇ψ*`` for the conjugate ``ψ*(θ) = (p-1) ||θ||_q² / 2``."""
    q = _conjugate(p)
    nrm = _vector_norm(theta, q)
    if nrm == 0.0:
        return np.zeros_like(theta)
    out: FloatArray = np.sign(theta) * (np.abs(theta) / nrm) ** (q - 1.0) * nrm * (p - 1.0)
    return out


def _prox(x: FloatArray, g: FloatArray, eta: float, mirror: str, p: float) -> FloatArray:
    if mirror == "euclidean":
        return x - eta * g
    if mirror == "entropic":
        support = x > 0.0
        logits = np.full_like(x, -np.inf)
        logits[support] = np.log(x[support]) - eta * g[support]
        out: FloatArray = np.exp(logits - logsumexp(logits[support]))
        out[~support] = 0.0
        return out
    if p == 2.0:
        return x - eta * g
    return _grad_psi_conj(_grad_psi(x, p) - eta * g, p)


def prox_step(
    x: ArrayLike,
    gradient: ArrayLike,
    step_size: float,
    *,
    mirror: MirrorName = "euclidean",
    p: float = 2.0,
) -> FloatArray:
    """One mirror (prox) step ``P(x, g, η) = argmin_u { η <g, u> + D(u, x) }``.

    Closed forms (spec 06, section 2): Euclidean ``x - η g``; entropic on the simplex
    ``u_i = x_i exp(-η g_i) / Σ_j x_j exp(-η g_j)`` (log-sum-exp shift, zeros stay zero);
    lp (``1 < p <= 2``, unconstrained) ``u = ∇ψ*(∇ψ(x) - η g)`` with
    ``ψ = ||x||_p² / (2(p-1))``.  Symbols: ``x`` is ``x``, ``g`` is ``gradient``, ``η`` is
    ``step_size``.

    Args:
        x: ``(n,)`` current point (on the simplex for ``entropic``).
        gradient: ``(n,)`` finite gradient.
        step_size: ``η > 0``.
        mirror: ``euclidean``, ``entropic`` or ``lp``.
        p: exponent of the lp mirror map, in ``(1, 2]``.

    Returns:
        The new point ``(n,)``.

    Raises:
        ValueError: shapes differ, non-finite input, ``x`` off the simplex (entropic),
            ``step_size <= 0``, ``p`` outside ``(1, 2]``.

    Example:
        >>> prox_step([0.5, 0.5], [0.0, math.log(3.0)], 1.0, mirror="entropic").round(12).tolist()
        [0.75, 0.25]
    """
    pp = _check_mirror(mirror, p)
    point = _mirror_point("x", x, mirror)
    grad = as_float_array("gradient", gradient, shape=(point.size,))
    eta = require_positive("step_size", step_size)
    return _prox(point, grad, eta, mirror, pp)


def entropic_step(x: ArrayLike, gradient: ArrayLike, step_size: float) -> FloatArray:
    """Entropic prox step on the simplex, ``u_i ∝ x_i exp(-η g_i)`` (log-sum-exp shift).

    The same as ``prox_step(x, gradient, step_size, mirror="entropic")``; the target of the
    ``mirror_descent.simplex_prox`` suite.

    Args:
        x: ``(n,)`` point of the simplex.
        gradient: ``(n,)`` finite gradient.
        step_size: ``η > 0``.

    Returns:
        ``(n,)`` point of the simplex.

    Raises:
        ValueError: as :func:`prox_step`.

    References:
        Spec 06, section 2, prox closed form (b).

    Example:
        >>> entropic_step([0.5, 0.5], [0.0, 1e3], 1.0).tolist()
        [1.0, 0.0]
    """
    return prox_step(x, gradient, step_size, mirror="entropic")


def bregman_divergence(
    x: ArrayLike, y: ArrayLike, *, mirror: MirrorName = "euclidean", p: float = 2.0
) -> float:
    """Bregman divergence ``D(x, y) = ψ(x) - ψ(y) - <∇ψ(y), x - y> >= ||x - y||² / 2``.

    Euclidean ``||x - y||²/2``; entropic ``KL(x || y) = Σ x_i log(x_i / y_i)`` (``0 log 0 = 0``,
    ``inf`` when ``y_i = 0 < x_i``); lp with ``ψ = ||x||_p² / (2(p-1))``.

    Args:
        x: ``(n,)`` first point.
        y: ``(n,)`` second point (same domain).
        mirror: the mirror map.
        p: exponent of the lp map.

    Returns:
        ``D(x, y) >= 0`` (may be ``inf`` for the entropic map).

    Raises:
        ValueError: shapes differ, non-finite input, points off the simplex (entropic).

    Example:
        >>> bregman_divergence([1.0, 0.0], [0.5, 0.5], mirror="entropic") == math.log(2.0)
        True
    """
    pp = _check_mirror(mirror, p)
    a = _mirror_point("x", x, mirror)
    b = _mirror_point("y", y, mirror, size=a.size)
    return _bregman(a, b, mirror, pp)


def _bregman(a: FloatArray, b: FloatArray, mirror: str, p: float) -> float:
    if mirror == "euclidean" or (mirror == "lp" and p == 2.0):
        return 0.5 * float(np.sum((a - b) ** 2))
    if mirror == "entropic":
        support = a > 0.0
        if np.any(b[support] <= 0.0):
            return math.inf
        return max(0.0, float(np.sum(a[support] * np.log(a[support] / b[support]))))
    psi_a = _vector_norm(a, p) ** 2 / (2.0 * (p - 1.0))
    psi_b = _vector_norm(b, p) ** 2 / (2.0 * (p - 1.0))
    return max(0.0, psi_a - psi_b - float(_grad_psi(b, p) @ (a - b)))


def _mirror_dual_norm(g: FloatArray, mirror: str, p: float) -> float:
    """Dual norm of the geometry of the mirror map: l2, linf (entropic = l1 primal), lq."""
    if mirror == "entropic":
        return float(np.max(np.abs(g)))
    if mirror == "lp":
        return _vector_norm(g, _conjugate(p))
    return float(np.linalg.norm(g))


def _mirror_primal_norm(x: FloatArray, mirror: str, p: float) -> float:
    if mirror == "entropic":
        return float(np.sum(np.abs(x)))
    if mirror == "lp":
        return _vector_norm(x, p)
    return float(np.linalg.norm(x))


# --------------------------------------------------------------------------------------------
# algorithms


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class MirrorDescentResult:
    """Outcome of a mirror-descent-type method.

    Attributes:
        x: the method's output (last iterate for MD / stochastic MD, ``xbar_T`` for accelerated
            MD, the average for optimistic MD and mirror prox).
        x_last: the last primary iterate.
        x_average: the average the spec names for the method.
        iterates: ``(T + 1, n)`` primary iterates ``x_0 .. x_T`` (for accelerated MD the
            ``xbar`` sequence, for mirror prox the ``x`` sequence, for optimistic MD the ``x``
            sequence).
        gradient_norms: ``(T,)`` dual norms of the (exact) gradients the method evaluated.
        iterations: number of iterations run.
        converged: ``stationarity <= tol`` was reached (always ``False`` when ``tol = 0``).
        stationarity: last gradient-mapping norm ``||x_t - x_{t+1}|| / η`` (primal norm of the
            mirror map's geometry), the stopping quantity.
    """

    x: FloatArray
    x_last: FloatArray
    x_average: FloatArray
    iterates: FloatArray
    gradient_norms: FloatArray
    iterations: int
    converged: bool
    stationarity: float


def _gradient(grad: Gradient, x: FloatArray) -> FloatArray:
    raw = grad(x.copy())
    g = np.asarray(raw, dtype=np.float64)
    if g.shape != x.shape:
        raise ValueError(f"grad: expected a gradient of shape {x.shape}, got shape {g.shape}")
    if not bool(np.all(np.isfinite(g))):
        raise ValueError("grad: expected finite gradient values, got NaN/inf")
    return g


def _setup(
    grad: object, x0: object, max_iter: object, mirror: str, p: float, tol: float
) -> tuple[Gradient, FloatArray, int, float, float]:
    if not callable(grad):
        raise TypeError(f"grad: expected a callable x -> gradient, got {type(grad).__name__}")
    pp = _check_mirror(mirror, p)
    x = _mirror_point("x0", x0, mirror)
    t = require_int("max_iter", max_iter, minimum=1, maximum=10_000_000)
    tolerance = require_positive("tol", tol, allow_zero=True)
    return grad, x, t, pp, tolerance


def _result(
    output: FloatArray,
    last: FloatArray,
    average: FloatArray,
    iterates: list[FloatArray],
    gnorms: list[float],
    stationarity: float,
    tol: float,
) -> MirrorDescentResult:
    return MirrorDescentResult(
        x=readonly(output.copy()),
        x_last=readonly(last.copy()),
        x_average=readonly(average.copy()),
        iterates=readonly(np.array(iterates)),
        gradient_norms=readonly(np.array(gnorms)),
        iterations=len(iterates) - 1,
        converged=bool(tol > 0.0 and stationarity <= tol),
        stationarity=stationarity,
    )


def mirror_descent(
    grad: Gradient,
    x0: ArrayLike,
    *,
    step_size: float,
    max_iter: int,
    mirror: MirrorName = "euclidean",
    p: float = 2.0,
    tol: float = 0.0,
    lipschitz: float | None = None,
    strict: bool = False,
) -> MirrorDescentResult:
    """Mirror descent ``x_{t+1} = P(x_t, ∇f(x_t), η)`` (Beck & Teboulle 2003).

    Under l*-smoothness with ``η <= 1/L``, ``L = l(2G)``: ``f(x_{t+1}) <= f(x_t)``, every
    ``||∇f(x_t)||_* <= G`` and ``f(x_T) - f* <= D(x*, x0) / (η T)`` (same for the average).

    Symbols: ``η`` is ``step_size``, ``T`` is ``max_iter``, ``L`` is ``lipschitz``.

    Args:
        grad: ``x (n,) -> ∇f(x) (n,)``.
        x0: ``(n,)`` start (on the simplex for ``entropic``).
        step_size: ``η > 0``.
        max_iter: ``T >= 1`` iterations (the run stops earlier only when ``tol > 0`` is met).
        mirror: ``euclidean``, ``entropic`` (simplex, KL) or ``lp``.
        p: exponent of the lp mirror map in ``(1, 2]``.
        tol: stop when the gradient-mapping norm ``||x_t - x_{t+1}|| / η <= tol`` (0: never).
        lipschitz: the paper's ``L``; when given, ``η > 1/L`` warns, or raises with ``strict``.
        strict: raise instead of warning when ``η`` exceeds the limit.

    Returns:
        :class:`MirrorDescentResult` with ``x = x_T`` and ``x_average = (1/T) Σ_{t=1}^T x_t``.

    Raises:
        ValueError: bad ``x0`` (off the simplex for ``entropic``), ``step_size <= 0``,
            ``max_iter < 1``, ``η > 1/L`` with ``strict``, a gradient of the wrong shape or
            non-finite.
        TypeError: ``grad`` not callable.

    References:
        Spec 06, section 3, algorithm 1; Theorem 3.5 (rate O(1/T), confirmed); the explicit
        inequality is the classical bound with the paper's L ([derived], spec section 4 (i)).

    Example:
        >>> r = mirror_descent(lambda x: x, [1.0, -2.0], step_size=0.5, max_iter=3)
        >>> r.x.tolist()
        [0.125, -0.25]
    """
    gradient, x, t_max, pp, tolerance = _setup(grad, x0, max_iter, mirror, p, tol)
    eta, _ = _check_step(step_size, "md", lipschitz, strict)
    iterates = [x.copy()]
    gnorms: list[float] = []
    total = np.zeros_like(x)
    stationarity = math.inf
    for _ in range(t_max):
        g = _gradient(gradient, x)
        gnorms.append(_mirror_dual_norm(g, mirror, pp))
        new = _prox(x, g, eta, mirror, pp)  # Alg. 1: x_{t+1} = P(x_t, ∇f(x_t), η)
        stationarity = _mirror_primal_norm(x - new, mirror, pp) / eta
        x = new
        iterates.append(x.copy())
        total += x
        if tolerance > 0.0 and stationarity <= tolerance:
            break
    return _result(x, x, total / (len(iterates) - 1), iterates, gnorms, stationarity, tolerance)


def accelerated_mirror_descent(
    grad: Gradient,
    x0: ArrayLike,
    *,
    lipschitz: float,
    max_iter: int,
    step_size: float = 1.0,
    mirror: MirrorName = "euclidean",
    p: float = 2.0,
    tol: float = 0.0,
) -> MirrorDescentResult:
    """Accelerated mirror descent (three sequences, Tseng type; our default concrete scheme).

    ``xbar_0 = z_0 = x_0``; for ``t = 1..T``, ``θ_t = 2/(t+1)``:
    ``y_t = (1-θ_t) xbar_{t-1} + θ_t z_{t-1}``;
    ``z_t = P(z_{t-1}, ∇f(y_t), η_t)`` with ``η_t = η (t+1) / (2L)``;
    ``xbar_t = (1-θ_t) xbar_{t-1} + θ_t z_t``.  With ``L = l(4G)`` and ``η in (0, 1]``:
    ``f(xbar_T) - f* <= 4 L D(x*, x0) / (η (T+1)²)``.

    Symbols: ``η`` is ``step_size``, ``L`` is ``lipschitz``, ``T`` is ``max_iter``.

    Args:
        grad: ``x (n,) -> ∇f(x) (n,)``.
        x0: ``(n,)`` start.
        lipschitz: ``L > 0`` (the paper's ``l(4G)``).
        max_iter: ``T >= 1``.
        step_size: ``η in (0, 1]``.
        mirror: the mirror map.
        p: exponent of the lp map.
        tol: stop when ``||xbar_{t-1} - xbar_t|| * 2L / η <= tol`` (0: never).

    Returns:
        :class:`MirrorDescentResult` with ``x = x_average = xbar_T`` and ``x_last = z_T``.

    Raises:
        ValueError: as :func:`mirror_descent`; ``step_size`` outside ``(0, 1]``.

    References:
        Spec 06, section 3, algorithm 2 (the paper follows Lan 2020; this concrete scheme is
        ours); Theorem 3.7 (rate O(1/T²), confirmed); bound (iii) of section 4 [derived].
        Variant: the note reports ``η_t = t η / (2L)`` in the paper's indexing; we use the
        spec's ``η (t+1) / (2L)`` with ``t`` starting at 1.

    Example:
        >>> r = accelerated_mirror_descent(lambda x: x, [1.0], lipschitz=1.0, max_iter=50)
        >>> abs(float(r.x[0])) < 1e-2
        True
    """
    gradient, x, t_max, pp, tolerance = _setup(grad, x0, max_iter, mirror, p, tol)
    eta = require_positive("step_size", step_size)
    if eta > 1.0:
        raise ValueError(f"step_size: expected a number in (0, 1] for accelerated MD, got {eta!r}")
    lip = require_positive("lipschitz", lipschitz)
    xbar = x.copy()
    z = x.copy()
    iterates = [xbar.copy()]
    gnorms: list[float] = []
    stationarity = math.inf
    for t in range(1, t_max + 1):
        theta = 2.0 / (t + 1.0)
        y = (1.0 - theta) * xbar + theta * z  # Alg. 2, y_t
        if mirror == "entropic":
            y = np.maximum(y, 0.0) / float(np.sum(np.maximum(y, 0.0)))
        g = _gradient(gradient, y)
        gnorms.append(_mirror_dual_norm(g, mirror, pp))
        eta_t = eta * (t + 1.0) / (2.0 * lip)
        z = _prox(z, g, eta_t, mirror, pp)  # Alg. 2, z_t
        new = (1.0 - theta) * xbar + theta * z  # Alg. 2, xbar_t
        stationarity = _mirror_primal_norm(xbar - new, mirror, pp) * 2.0 * lip / eta
        xbar = new
        iterates.append(xbar.copy())
        if tolerance > 0.0 and stationarity <= tolerance:
            break
    return _result(xbar, z, xbar, iterates, gnorms, stationarity, tolerance)


def optimistic_mirror_descent(
    grad: Gradient,
    x0: ArrayLike,
    *,
    step_size: float,
    max_iter: int,
    mirror: MirrorName = "euclidean",
    p: float = 2.0,
    tol: float = 0.0,
    lipschitz: float | None = None,
    strict: bool = False,
) -> MirrorDescentResult:
    """Optimistic mirror descent (Chiang et al. 2012).

    ``y_0 = x_0``; for ``t = 1..T``: ``x_t = P(y_{t-1}, ∇f(x_{t-1}), η)``,
    ``y_t = P(y_{t-1}, ∇f(x_t), η)``; output ``(1/T) Σ_{t=1}^T x_t``.  With ``η <= 1/(3L)``:
    ``f(xbar_T) - f* <= D(x*, x0) / (η T)``.

    Args:
        grad: ``x (n,) -> ∇f(x) (n,)``.
        x0: ``(n,)`` start.
        step_size: ``η > 0`` (limit ``1/(3L)``).
        max_iter: ``T >= 1``.
        mirror: the mirror map.
        p: exponent of the lp map.
        tol: stop when ``||y_{t-1} - y_t|| / η <= tol`` (0: never).
        lipschitz: the paper's ``L`` (enables the step-size check).
        strict: raise instead of warning when ``η > 1/(3L)``.

    Returns:
        :class:`MirrorDescentResult` with ``x = x_average``; ``iterates`` are ``x_0 .. x_T``.

    Raises:
        ValueError: as :func:`mirror_descent`.

    References:
        Spec 06, section 3, algorithm 3; Eq. 11/13 of the paper (O(1/T), confirmed); bound
        (iv) of section 4 [derived].

    Example:
        >>> r = optimistic_mirror_descent(lambda x: x, [1.0], step_size=0.3, max_iter=40)
        >>> abs(float(r.x_last[0])) < 1e-4
        True
    """
    gradient, x, t_max, pp, tolerance = _setup(grad, x0, max_iter, mirror, p, tol)
    eta, _ = _check_step(step_size, "optimistic", lipschitz, strict)
    y = x.copy()
    g_x = _gradient(gradient, x)
    iterates = [x.copy()]
    gnorms: list[float] = []
    total = np.zeros_like(x)
    stationarity = math.inf
    for _ in range(t_max):
        x = _prox(y, g_x, eta, mirror, pp)  # x_t = P(y_{t-1}, ∇f(x_{t-1}), η)
        g_x = _gradient(gradient, x)
        gnorms.append(_mirror_dual_norm(g_x, mirror, pp))
        new_y = _prox(y, g_x, eta, mirror, pp)  # y_t = P(y_{t-1}, ∇f(x_t), η)
        stationarity = _mirror_primal_norm(y - new_y, mirror, pp) / eta
        y = new_y
        iterates.append(x.copy())
        total += x
        if tolerance > 0.0 and stationarity <= tolerance:
            break
    average = total / (len(iterates) - 1)
    return _result(average, x, average, iterates, gnorms, stationarity, tolerance)


def mirror_prox(
    grad: Gradient,
    x0: ArrayLike,
    *,
    step_size: float,
    max_iter: int,
    mirror: MirrorName = "euclidean",
    p: float = 2.0,
    tol: float = 0.0,
    lipschitz: float | None = None,
    strict: bool = False,
) -> MirrorDescentResult:
    """Mirror prox (Nemirovski 2004): ``y_t = P(x_t, ∇f(x_t), η)``,
    ``x_{t+1} = P(x_t, ∇f(y_t), η)``; output ``(1/T) Σ_{t=0}^{T-1} y_t``.

    With ``η <= 1/(2L)``: ``f(ybar_T) - f* <= D(x*, x0) / (η T)``.

    Args:
        grad: ``x (n,) -> ∇f(x) (n,)``.
        x0: ``(n,)`` start.
        step_size: ``η > 0`` (limit ``1/(2L)``).
        max_iter: ``T >= 1``.
        mirror: the mirror map.
        p: exponent of the lp map.
        tol: stop when ``||x_t - x_{t+1}|| / η <= tol`` (0: never).
        lipschitz: the paper's ``L`` (enables the step-size check).
        strict: raise instead of warning when ``η > 1/(2L)``.

    Returns:
        :class:`MirrorDescentResult` with ``x = x_average = ybar_T``; ``iterates`` are the ``x``.

    Raises:
        ValueError: as :func:`mirror_descent`.

    References:
        Spec 06, section 3, algorithm 4; Eq. 13/15 of the paper (O(1/T), confirmed); bound (ii)
        of section 4 [derived].

    Example:
        >>> r = mirror_prox(lambda x: x, [1.0], step_size=0.5, max_iter=30)
        >>> abs(float(r.x_last[0])) < 1e-3
        True
    """
    gradient, x, t_max, pp, tolerance = _setup(grad, x0, max_iter, mirror, p, tol)
    eta, _ = _check_step(step_size, "mirror_prox", lipschitz, strict)
    iterates = [x.copy()]
    gnorms: list[float] = []
    total = np.zeros_like(x)
    stationarity = math.inf
    for _ in range(t_max):
        g_x = _gradient(gradient, x)
        gnorms.append(_mirror_dual_norm(g_x, mirror, pp))
        y = _prox(x, g_x, eta, mirror, pp)  # y_t = P(x_t, ∇f(x_t), η)
        total += y
        g_y = _gradient(gradient, y)
        new = _prox(x, g_y, eta, mirror, pp)  # x_{t+1} = P(x_t, ∇f(y_t), η)
        stationarity = _mirror_primal_norm(x - new, mirror, pp) / eta
        x = new
        iterates.append(x.copy())
        if tolerance > 0.0 and stationarity <= tolerance:
            break
    average = total / (len(iterates) - 1)
    return _result(average, x, average, iterates, gnorms, stationarity, tolerance)


def _noise(
    g: FloatArray, sigma0: float, sigma1: float, mirror: str, p: float, rng: np.random.Generator
) -> FloatArray:
    """Zero-mean noise with ``||ξ||_* <= σ0 + σ1 ||g||_*``: a symmetric random direction."""
    direction = rng.standard_normal(g.size)
    size = _mirror_dual_norm(direction, mirror, p)
    radius = (sigma0 + sigma1 * _mirror_dual_norm(g, mirror, p)) * float(rng.uniform())
    if size == 0.0:
        return np.zeros_like(g)
    out: FloatArray = direction * (radius / size)
    return out


def stochastic_mirror_descent(
    grad: Gradient,
    x0: ArrayLike,
    *,
    max_iter: int,
    rng: np.random.Generator,
    sigma0: float = 0.0,
    sigma1: float = 0.0,
    step_size: float | None = None,
    lipschitz: float | None = None,
    mirror: MirrorName = "euclidean",
    p: float = 2.0,
    strict: bool = False,
) -> MirrorDescentResult:
    """Stochastic mirror descent ``x_{t+1} = P(x_t, g_t, η)`` with ``E[g_t | x_t] = ∇f(x_t)``.

    Noise model (our default): ``g_t = ∇f(x_t) + ξ_t`` with ``ξ_t`` symmetric (zero mean) and
    ``||ξ_t||_* <= σ0 + σ1 ||∇f(x_t)||_*`` almost surely: a Gaussian direction rescaled to dual
    norm ``U (σ0 + σ1 ||∇f(x_t)||_*)``, ``U ~ Uniform[0, 1]``.  Step (our default):
    ``η = min(1/(2L), 1/sqrt(T))`` when ``step_size`` is ``None`` (requires ``lipschitz``).

    Args:
        grad: ``x (n,) -> ∇f(x) (n,)`` (exact gradient; noise is added here).
        x0: ``(n,)`` start.
        max_iter: ``T >= 1``.
        rng: the random generator (the only source of randomness).
        sigma0: ``σ0 >= 0``.
        sigma1: ``σ1 >= 0``.
        step_size: ``η > 0``; ``None`` uses the default rule.
        lipschitz: the paper's ``L``.
        mirror: the mirror map.
        p: exponent of the lp map.
        strict: raise instead of warning when ``η > 1/(2L)``.

    Returns:
        :class:`MirrorDescentResult` with ``x = x_T`` (last iterate).

    Raises:
        ValueError: as :func:`mirror_descent`; negative ``sigma0``/``sigma1``; neither
            ``step_size`` nor ``lipschitz`` given.
        TypeError: ``rng`` is not a ``numpy.random.Generator``.

    References:
        Spec 06, section 3, algorithm 5; Theorem 4.2 (last-iterate O~(1/sqrt(T)) w.h.p.,
        confirmed; constants not retrieved).

    Example:
        >>> r = stochastic_mirror_descent(lambda x: x, [1.0], max_iter=100, step_size=0.1,
        ...                               sigma0=0.1, rng=np.random.default_rng(0))
        >>> abs(float(r.x[0])) < 0.2
        True
    """
    require_generator("rng", rng)
    gradient, x, t_max, pp, _ = _setup(grad, x0, max_iter, mirror, p, 0.0)
    s0 = require_positive("sigma0", sigma0, allow_zero=True)
    s1 = require_positive("sigma1", sigma1, allow_zero=True)
    if step_size is None:
        if lipschitz is None:
            raise ValueError(
                "step_size: expected a step or lipschitz for the default rule, got None"
            )
        lip = require_positive("lipschitz", lipschitz)
        eta = min(1.0 / (2.0 * lip), 1.0 / math.sqrt(t_max))
    else:
        eta, _ = _check_step(step_size, "stochastic", lipschitz, strict)
    iterates = [x.copy()]
    gnorms: list[float] = []
    total = np.zeros_like(x)
    stationarity = math.inf
    for _ in range(t_max):
        g = _gradient(gradient, x)
        gnorms.append(_mirror_dual_norm(g, mirror, pp))
        noisy = g + _noise(g, s0, s1, mirror, pp, rng)
        new = _prox(x, noisy, eta, mirror, pp)
        stationarity = _mirror_primal_norm(x - new, mirror, pp) / eta
        x = new
        iterates.append(x.copy())
        total += x
    return _result(x, x, total / t_max, iterates, gnorms, stationarity, 0.0)


# --------------------------------------------------------------------------------------------
# smoothness along a path


def local_smoothness_estimates(
    iterates: ArrayLike, gradients: ArrayLike, *, norm: NormName = "l2", p: float = 2.0
) -> tuple[FloatArray, FloatArray]:
    """Pairs ``(||∇f(x_t)||_*, L_t)`` with ``L_t = ||∇f(x_{t+1}) - ∇f(x_t)||_* / ||x_{t+1} - x_t||``.

    Steps with ``x_{t+1} = x_t`` are dropped (no information).

    Args:
        iterates: ``(T + 1, n)`` points.
        gradients: ``(T + 1, n)`` gradients at those points.
        norm: the primal norm (vector norms only).
        p: exponent of the primal lp norm.

    Returns:
        ``(grad_norms, local_l)``, two ``(k,)`` arrays, ``k <= T``.

    Raises:
        ValueError: shapes differ, fewer than two points, non-finite values, matrix norms.

    References:
        Spec 06, section 6 (layer-wise estimate along training trajectories).

    Example:
        >>> xs = [[0.0], [1.0], [3.0]]
        >>> local_smoothness_estimates(xs, [[0.0], [2.0], [6.0]])[1].tolist()
        [2.0, 2.0]
    """
    name, order = _check_norm(norm, p)
    if name in ("spectral", "nuclear"):
        raise ValueError(f"norm: expected a vector norm (l1, l2, linf, lp), got {name!r}")
    xs = as_float_array("iterates", iterates, ndim=2)
    gs = as_float_array("gradients", gradients, shape=xs.shape)
    if xs.shape[0] < 2:
        raise ValueError(f"iterates: expected at least 2 points, got {xs.shape[0]}")
    primal = _primal_order(name, order)
    dual = _conjugate(primal)
    norms: list[float] = []
    local: list[float] = []
    for t in range(xs.shape[0] - 1):
        step = _vector_norm(xs[t + 1] - xs[t], primal)
        if step == 0.0:
            continue
        norms.append(_vector_norm(gs[t], dual))
        local.append(_vector_norm(gs[t + 1] - gs[t], dual) / step)
    return np.array(norms), np.array(local)


@dataclass(frozen=True, slots=True, kw_only=True)
class SmoothnessFit:
    """Nonnegative least-squares fit ``L_t ≈ L0 + L1 ||∇f(x_t)||_*``.

    Attributes:
        l0: fitted ``L0 >= 0``.
        l1: fitted ``L1 >= 0``.
        r_squared: coefficient of determination of the fit (1 when ``L_t`` is constant and fit).
    """

    l0: float
    l1: float
    r_squared: float


def fit_affine_smoothness(grad_norms: ArrayLike, local_l: ArrayLike) -> SmoothnessFit:
    """Fit ``L_t ≈ L0 + L1 a_t`` with ``L0, L1 >= 0`` by ``scipy.optimize.nnls``.

    Args:
        grad_norms: ``(k,)`` dual gradient norms ``a_t``.
        local_l: ``(k,)`` local smoothness estimates ``L_t``.

    Returns:
        :class:`SmoothnessFit`.

    Raises:
        ValueError: shapes differ, empty or non-finite input.

    References:
        Spec 06, section 6, CPU analogue (our default).

    Example:
        >>> fit = fit_affine_smoothness([0.0, 1.0, 2.0], [1.0, 3.0, 5.0])
        >>> round(fit.l0, 9), round(fit.l1, 9), round(fit.r_squared, 9)
        (1.0, 2.0, 1.0)
    """
    a = as_float_array("grad_norms", grad_norms, ndim=1)
    values = as_float_array("local_l", local_l, shape=a.shape)
    design = np.column_stack([np.ones_like(a), a])
    coef, _ = nnls(design, values)
    residual = values - design @ coef
    spread = float(np.sum((values - values.mean()) ** 2))
    r2 = 1.0 if spread == 0.0 else 1.0 - float(np.sum(residual**2)) / spread
    return SmoothnessFit(l0=float(coef[0]), l1=float(coef[1]), r_squared=r2)


# --------------------------------------------------------------------------------------------
# test instances


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class RidgeProblem:
    """A ridge function ``f(x) = φ(cᵀx - b)`` with exact ``l`` and ``f*`` (spec 06, section 4).

    ``quartic``: ``φ(u) = u⁴/4``, ``f* = 0``, ``l(a) = ||c||_*² + 2 ||c||_* a``.
    ``cosh``: ``φ(u) = 2 cosh(u)``, ``f* = 2``, ``l(a) = 2 ||c||_*² + ||c||_* a``.
    Both have unbounded Hessians (not globally L-smooth) but affine ``l`` (Assumption 3.3).

    Attributes:
        kind: ``quartic`` or ``cosh``.
        c: ``(n,)`` direction (read-only).
        b: offset.
    """

    kind: Literal["quartic", "cosh"]
    c: FloatArray
    b: float = 0.0

    @property
    def f_star(self) -> float:
        """Infimum over R^n (attained on the hyperplane ``cᵀx = b``)."""
        return 0.0 if self.kind == "quartic" else 2.0

    def _u(self, x: FloatArray) -> np.float64:
        # a numpy scalar, so that u**4 and u**3 overflow to inf (a Python float raises)
        return np.float64(np.asarray(x, dtype=np.float64) @ self.c) - np.float64(self.b)

    def value(self, x: FloatArray) -> float:
        """``f(x)``."""
        u = self._u(x)
        with np.errstate(over="ignore"):  # overflow gives inf, never an exception
            return float(u**4 / 4.0 if self.kind == "quartic" else 2.0 * np.cosh(u))

    def grad(self, x: FloatArray) -> FloatArray:
        """``∇f(x) = φ'(u) c``."""
        u = self._u(x)
        with np.errstate(over="ignore", invalid="ignore"):
            scale = u**3 if self.kind == "quartic" else 2.0 * float(np.sinh(u))
            out: FloatArray = scale * self.c
        return out

    def hessian(self, x: FloatArray) -> FloatArray:
        """``∇²f(x) = φ''(u) c cᵀ``."""
        u = self._u(x)
        with np.errstate(over="ignore", invalid="ignore"):
            scale = 3.0 * u**2 if self.kind == "quartic" else 2.0 * float(np.cosh(u))
            out: FloatArray = scale * np.outer(self.c, self.c)
        return out

    def hessian_operator_norm(
        self, x: FloatArray, norm: NormName = "l2", *, p: float = 2.0
    ) -> float:
        """``sup_h ||∇²f(x) h||_* / ||h|| = φ''(u) ||c||_*²`` (rank one)."""
        u = self._u(x)
        with np.errstate(over="ignore"):
            scale = 3.0 * u**2 if self.kind == "quartic" else 2.0 * float(np.cosh(u))
        return float(scale * dual_norm(self.c, norm, p=p) ** 2)

    def smoothness(self, norm: NormName = "l2", *, p: float = 2.0) -> SmoothnessFunction:
        """The exact affine ``l`` of the spec for this norm."""
        cd = dual_norm(self.c, norm, p=p)
        if self.kind == "quartic":
            return SmoothnessFunction(l0=cd**2, l1=2.0 * cd, alpha=1.0)
        return SmoothnessFunction(l0=2.0 * cd**2, l1=cd, alpha=1.0)


def _ridge_c(c: object) -> FloatArray:
    vec = as_float_array("c", c, ndim=1)
    if not np.any(vec):
        raise ValueError("c: expected a nonzero vector, got all zeros")
    return readonly(vec)


def quartic_ridge(c: ArrayLike) -> RidgeProblem:
    """The quartic ridge ``q(x) = (cᵀx)⁴ / 4`` (``f* = 0``); ``l(a) = ||c||_*² + 2||c||_* a``
    is tight (equality of ``1 + 2|s|³ >= 3s²`` at ``|s| = 1``).

    Args:
        c: ``(n,)`` nonzero direction.

    Returns:
        :class:`RidgeProblem`.

    Raises:
        ValueError: ``c`` empty, non-finite or zero.

    References:
        Spec 06, section 4, test instances [derived].

    Example:
        >>> quartic_ridge([1.0, 1.0]).value(np.array([1.0, 0.0]))
        0.25
    """
    return RidgeProblem(kind="quartic", c=_ridge_c(c), b=0.0)


def cosh_ridge(c: ArrayLike, b: float) -> RidgeProblem:
    """The cosh ridge ``k(x) = 2 cosh(cᵀx - b)`` (``f* = 2``); ``l(a) = 2||c||_*² + ||c||_* a``.

    Args:
        c: ``(n,)`` nonzero direction.
        b: offset (finite).

    Returns:
        :class:`RidgeProblem`.

    Raises:
        ValueError: ``c`` empty, non-finite or zero; ``b`` non-finite.

    References:
        Spec 06, section 4, test instances [derived].

    Example:
        >>> cosh_ridge([1.0], 0.5).value(np.array([0.5]))
        2.0
    """
    offset = _real(b, "b")
    if not math.isfinite(offset):
        raise ValueError(f"b: expected a finite number, got {offset!r}")
    return RidgeProblem(kind="cosh", c=_ridge_c(c), b=offset)
