"""Rational activations and the rational-approximation constructions behind their expressivity.

A *safe rational activation* of type ``(m, n)`` is, by default (version A, degrees (5, 4)),

    σ(x) = P(x) / (1 + Σ_{j=1}^n |b_j| |x|^j),   P(x) = Σ_{i=0}^m a_i x^i,

with ``a`` = ``p`` (length ``m + 1``) and ``b`` = ``q`` (length ``n``, no constant term).  Its
denominator is ``>= 1``, so it has no real poles.  Provenance: version A and degrees (5, 4) are
the ``rational_activations`` package defaults that every experiment of the paper ran (the first
author's scripts, spec 16 §8.1).  Declared variants: version B ``1 + |Σ_{j=1}^n b_j x^j|``,
version C ``0.1 + |Σ_{j=0}^{n-1} b_j x^j|`` (``n`` coefficients), and the (3, 2) ReLU init of the
2020 predecessor paper (:func:`relu_init`).  This module also implements every
construction of the spec's section R3 so the exponential separation between rational and
ReLU networks can be seen numerically:

* Newman's rational approximant of ``|x|`` (root-exponential rate ``3 exp(-sqrt(n))``);
* the Halley map and its ``K``-fold composite (sign function, type ``(3^K, 3^K - 1)``);
* the dynamically weighted Halley (DWH, type-(3,2) Zolotarev) steps whose composite
  approximates ``sign`` and hence ``|x| = x sign(x)`` with ``K = O(log log(1/eps))`` layers;
* Yarotsky's ReLU sawtooth approximation of ``x^2`` (error exactly ``2^{-2m-2}``);
* the best polynomial approximation of ``|x|`` by linear programming (Bernstein's ``beta / n``);
* exact gadgets (``xy`` from squares) and ``exp`` by scaling and squaring of a Padé approximant.

References:
    M. Tang, A. Townsend, "Rational Neural Networks have Expressivity Advantages",
    ICML 2026, arXiv:2602.12390 (sections 3.1-3.5; read through a third-party reading, see
    ``shared/papers/16_rational_activations.md``; the experiments' activation, version A with
    degrees (5, 4), from the first author's scripts, §8.1 there).
    N. Boullé, Y. Nakatsukasa, A. Townsend, "Rational neural networks", NeurIPS 2020,
    arXiv:2004.01902 (the (3,2) ReLU initialisation).
    D. J. Newman, "Rational approximation to |x|", Michigan Math. J. 11 (1964).
    Y. Nakatsukasa, Z. Bai, F. Gygi, "Optimizing Halley's iteration for computing the matrix
    polar decomposition", SIAM J. Matrix Anal. Appl. 31 (2010) (the DWH parameters).
    D. Yarotsky, "Error bounds for approximations with deep ReLU networks", Neural Networks 94
    (2017) (the sawtooth construction).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
from numpy.polynomial import chebyshev as cheb
from numpy.polynomial import polynomial as poly
from numpy.typing import ArrayLike
from scipy.optimize import least_squares, linprog, lsq_linear
from scipy.special import erf

from reference._arrays import (
    FloatArray,
    as_float_array,
    readonly,
    require_int,
    require_positive,
    require_probability,
)
from reference._repr import summary_repr

__all__ = [
    "BERNSTEIN_BETA",
    "DEFAULT_DEGREES",
    "DEFAULT_VERSION",
    "INITS",
    "RELU_INIT_P",
    "RELU_INIT_Q",
    "VERSIONS",
    "DWHAbs",
    "DWHComposite",
    "NewmanAbs",
    "PolyMinimax",
    "RationalFit",
    "RationalFunction",
    "RationalGrad",
    "Version",
    "compose_rationals",
    "dwh_abs",
    "dwh_params",
    "dwh_sign",
    "dwh_step_map",
    "exp_scaling_squaring",
    "fit_rational",
    "halley_abs",
    "halley_map",
    "halley_sign",
    "halley_steps",
    "minimax_poly_abs_lp",
    "newman_abs",
    "product_gadget",
    "rational",
    "rational_function",
    "rational_grad",
    "rational_init",
    "relu_init",
    "true_rational",
    "yarotsky_square",
]

Version = Literal["A", "B", "C"]
#: The safe-denominator variants of the ``rational_activations`` package (spec §2).
VERSIONS: tuple[Version, ...] = ("A", "B", "C")
#: The version the paper's experiments ran (``rational_activations`` default; spec 16 §8.1).
DEFAULT_VERSION: Version = "A"
#: The degrees ``(m, n)`` the paper's experiments ran (``rational_activations`` default; §8.1).
DEFAULT_DEGREES: tuple[int, int] = (5, 4)
#: Target shapes :func:`fit_rational` and :func:`rational_init` know.  The first four are the
#: package's pre-fitted shapes the experiments used (§8.1: ``leaky_relu`` is the package
#: default); ``tanh`` and ``abs`` are ours.
INITS: tuple[str, ...] = ("leaky_relu", "gelu", "swish", "relu", "tanh", "abs")
#: Negative slope of the ``leaky_relu`` target (torch's default, as the package's shape).
LEAKY_SLOPE = 0.01

#: Numerator of the (3,2) ReLU initialisation, ascending powers [paper's predecessor; public code].
RELU_INIT_P: tuple[float, ...] = (0.0218, 0.5, 1.5957, 1.1915)
#: Safe-form denominator coefficients ``(b_1, b_2)`` of the (3,2) ReLU init (``Q = 1 + 2.383 x^2``).
RELU_INIT_Q: tuple[float, ...] = (0.0, 2.383)

#: Bernstein's constant: ``n E_n(|x|) -> beta`` for the best degree-``n`` polynomial
#: (Varga and Carpenter, 1985) [classical].
BERNSTEIN_BETA = 0.28016949902386913


# --------------------------------------------------------------------------- validation


def _coefficients(name: str, value: object, *, min_len: int = 1) -> FloatArray:
    arr = as_float_array(name, value, ndim=1, min_size=0)
    if arr.size < min_len:
        raise ValueError(
            f"{name}: expected a 1-D coefficient array of length >= {min_len}, got shape {arr.shape}"
        )
    return arr


def _version(value: object) -> Version:
    for v in VERSIONS:
        if value == v:
            return v
    raise ValueError(f"version: expected one of {VERSIONS}, got {value!r}")


def _points(name: str, value: object) -> FloatArray:
    """Any-shape finite non-empty float64 array (0-d allowed)."""
    return as_float_array(name, value)


# --------------------------------------------------------------------------- R1: safe rationals


def _horner(coeffs: FloatArray, x: FloatArray) -> FloatArray:
    out = np.zeros_like(x)
    for c in coeffs[::-1]:
        out = out * x + c
    return out


def _safe_denominator(
    x: FloatArray, q: FloatArray, version: Version
) -> tuple[FloatArray, FloatArray]:
    """``(D, Q_inner)``: the denominator and the polynomial inside the absolute value."""
    if version == "A":
        powers = np.abs(x)[..., None] ** np.arange(1, q.size + 1)
        den = 1.0 + np.sum(np.abs(q) * powers, axis=-1) if q.size else np.ones_like(x)
        return den, den - 1.0
    if version == "B":
        inner = x * _horner(q, x) if q.size else np.zeros_like(x)
        return 1.0 + np.abs(inner), inner
    inner = _horner(q, x)
    return 0.1 + np.abs(inner), inner


def rational(
    x: ArrayLike, p: ArrayLike, q: ArrayLike, *, version: Version = DEFAULT_VERSION
) -> FloatArray:
    """Evaluate a safe rational activation elementwise.

    Version A (default; the activation of every experiment of the paper, spec 16 §8.1):
    ``σ(x) = P(x) / (1 + Σ_{j=1}^n |b_j| |x|^j)`` with ``P(x) = Σ_{i=0}^m a_i x^i``.  Symbol map:
    ``a`` is ``p``, ``b`` is ``q``, ``m = len(p) - 1``, ``n = len(q)``.

    Variant: version ``"B"`` uses ``1 + |Σ_{j=1}^n b_j x^j|``; version ``"C"`` uses
    ``0.1 + |Σ_{j=0}^{n-1} b_j x^j|``: for degrees ``(m, n)`` it holds ``n`` coefficients
    ``b_0..b_{n-1}`` (powers ``0..n-1``), as in the ``rational_activations`` package.

    Args:
        x: points, any shape (0-d allowed), finite.
        p: ``(m + 1,)`` numerator coefficients ``a_0..a_m`` (ascending powers).
        q: ``(n,)`` denominator coefficients: ``b_1..b_n`` (versions A, B; may be empty) or
            ``b_0..b_{n-1}`` (version C, ``n >= 1``).
        version: ``"A"``, ``"B"`` or ``"C"``.

    Returns:
        float64 array of the shape of ``x``.

    Raises:
        TypeError: non-numeric input.
        ValueError: non-finite input, empty ``x`` or ``p``, wrong ranks, unknown ``version``.

    Example:
        >>> float(rational(0.5, [0.0, 1.0], [0.0, 1.0]))  # x / (1 + x^2)
        0.4
        >>> float(rational(0.5, [0.0, 1.0], [1.0, -1.0]))  # A: x / (1 + |x| + |x|^2)
        0.2857142857142857
        >>> float(rational(0.5, [0.0, 1.0], [1.0, -1.0], version="B"))  # x / (1 + |x - x^2|)
        0.4

    References:
        Tang and Townsend (ICML 2026): the experiments run ``rational.torch.Rational`` of the
        ``rational_activations`` package with its defaults, version A, degrees (5, 4) (the first
        author's scripts; spec 16 §8.1).  Molina, Schramowski, Kersting, "Padé Activation
        Units", ICLR 2020 (the safe forms A, B, C).
    """
    ver = _version(version)
    xs = _points("x", x)
    a = _coefficients("p", p)
    b = _coefficients("q", q, min_len=1 if ver == "C" else 0)
    den, _ = _safe_denominator(xs, b, ver)
    out: FloatArray = _horner(a, xs) / den
    return out


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class RationalGrad:
    """Value and gradients of a safe rational (spec R1; versions A, B, C).

    Attributes:
        value: σ(x), shape of ``x``.
        dx: ∂σ/∂x, shape of ``x``.
        dp: ∂σ/∂a_i, shape ``x.shape + (m + 1,)``.
        dq: ∂σ/∂b_j, shape ``x.shape + (len(q),)``.
    """

    value: FloatArray
    dx: FloatArray
    dp: FloatArray
    dq: FloatArray


def _polyder_eval(coeffs: FloatArray, x: FloatArray) -> FloatArray:
    if coeffs.size <= 1:
        return np.zeros_like(x)
    return _horner(np.asarray(poly.polyder(coeffs), dtype=np.float64), x)


def rational_grad(
    x: ArrayLike, p: ArrayLike, q: ArrayLike, *, version: Version = DEFAULT_VERSION
) -> RationalGrad:
    """Value and closed-form gradients of a safe rational (spec R1), all three versions.

    ``∂σ/∂a_i = x^i / D`` for every version; ``sign(0) = 0`` at every kink (torch's
    subgradient of ``|.|``).

    * A (default): ``D = 1 + Σ_j |b_j| |x|^j``; ``∂σ/∂b_j = -P sign(b_j) |x|^j / D^2``,
      ``∂σ/∂x = (P' D - P D') / D^2`` with ``D' = sign(x) Σ_j j |b_j| |x|^{j-1}``.
    * B: ``D = 1 + |Q̃|``, ``Q̃ = Σ_{j=1}^n b_j x^j``, ``s = sign(Q̃)``:
      ``∂σ/∂b_j = -P s x^j / D^2``, ``∂σ/∂x = (P' D - P s Q̃') / D^2``.
    * C: ``D = 0.1 + |Q|``, ``Q = Σ_{j=0}^{n-1} b_j x^j``, ``s = sign(Q)``: as B with powers
      ``x^j``, ``j = 0..n-1``.

    Args:
        x: points, any shape, finite.
        p: ``(m + 1,)`` numerator coefficients.
        q: ``(n,)`` denominator coefficients (``b_1..b_n``; version C ``b_0..b_{n-1}``).
        version: ``"A"``, ``"B"`` or ``"C"``.

    Returns:
        A :class:`RationalGrad` with read-only arrays.

    Raises:
        TypeError: non-numeric input.
        ValueError: non-finite or empty input, wrong ranks, unknown ``version``.

    Example:
        >>> g = rational_grad(1.0, [0.0, 1.0], [1.0], version="B")  # x / (1 + |x|)
        >>> float(g.value), float(g.dx), g.dq.tolist()
        (0.5, 0.25, [-0.25])
        >>> g = rational_grad(-1.0, [0.0, 1.0], [-1.0])  # version A: x / (1 + |x|)
        >>> float(g.value), float(g.dx), g.dq.tolist()
        (-0.5, 0.25, [-0.25])

    References:
        Tang and Townsend (ICML 2026), spec 16 R1 and §8.1 (version A is the experiments').
    """
    ver = _version(version)
    xs = _points("x", x)
    a = _coefficients("p", p)
    b = _coefficients("q", q, min_len=1 if ver == "C" else 0)
    num = _horner(a, xs)
    dnum = _polyder_eval(a, xs)
    xp = xs[..., None] ** np.arange(a.size)
    dq: FloatArray
    if ver == "A":
        ax = np.abs(xs)
        powers = np.arange(1, b.size + 1)
        den = 1.0 + (np.sum(np.abs(b) * ax[..., None] ** powers, axis=-1) if b.size else 0.0 * xs)
        dden = (
            np.sign(xs) * np.sum(powers * np.abs(b) * ax[..., None] ** (powers - 1), axis=-1)
            if b.size
            else np.zeros_like(xs)
        )
        dq = -(num / den**2)[..., None] * np.sign(b) * ax[..., None] ** powers
    else:
        full = np.concatenate([[0.0], b]) if ver == "B" else b
        inner = _horner(full, xs)
        sgn = np.sign(inner)
        den = (1.0 if ver == "B" else 0.1) + np.abs(inner)
        dden = sgn * _polyder_eval(full, xs)
        shift = 1 if ver == "B" else 0
        dq = -(num * sgn / den**2)[..., None] * xs[..., None] ** np.arange(shift, b.size + shift)
    value = num / den
    dx = (dnum * den - num * dden) / den**2
    dp = xp / den[..., None]
    return RationalGrad(value=readonly(value), dx=readonly(dx), dp=readonly(dp), dq=readonly(dq))


def _real_roots(coeffs: FloatArray) -> FloatArray:
    """Real roots (imaginary part below 1e-9 relative) of an ascending-power polynomial."""
    trimmed = np.trim_zeros(coeffs, trim="b")
    if trimmed.size <= 1:
        return np.zeros(0)
    roots = np.roots(trimmed[::-1])
    real = np.abs(roots.imag) <= 1e-9 * (1.0 + np.abs(roots))
    out: FloatArray = np.sort(roots[real].real)
    return out


def true_rational(x: ArrayLike, p: ArrayLike, q: ArrayLike) -> FloatArray:
    """Evaluate a true rational ``P(x)/Q(x)`` whose denominator has no real roots.

    ``P(x) = Σ_{i=0}^m p_i x^i``, ``Q(x) = Σ_{j=0}^n q_j x^j`` (note: ``q`` includes the
    constant term here, unlike :func:`rational`).  The theory of the paper uses true
    rationals without poles on the domain [paper]; this function requires no real roots at
    all, so the value is finite everywhere.

    Args:
        x: points, any shape, finite.
        p: ``(m + 1,)`` numerator coefficients.
        q: ``(n + 1,)`` denominator coefficients, not all zero, without real roots.

    Returns:
        float64 array of the shape of ``x``.

    Raises:
        TypeError: non-numeric input.
        ValueError: non-finite or empty input; ``q`` zero or with a real root.

    Example:
        >>> float(true_rational(2.0, [0.0, 1.0], [1.0, 0.0, 1.0]))  # x / (1 + x^2)
        0.4
    """
    xs = _points("x", x)
    a = _coefficients("p", p)
    b = _coefficients("q", q)
    if not np.any(b != 0.0):
        raise ValueError("q: expected a non-zero denominator polynomial, got all zeros")
    roots = _real_roots(b)
    if roots.size:
        raise ValueError(
            f"q: expected a denominator without real roots (a pole-free rational), got real "
            f"roots {roots.tolist()}"
        )
    out: FloatArray = _horner(a, xs) / _horner(b, xs)
    return out


# --------------------------------------------------------------------------- R2: initialisation


def relu_init() -> tuple[FloatArray, FloatArray]:
    """The 2020 predecessor paper's (3,2) ReLU initialisation ``(p, q)`` (a declared variant).

    ``P(x) = 0.0218 + 0.5 x + 1.5957 x^2 + 1.1915 x^3``, ``Q(x) = 1 + 2.383 x^2``; because
    ``b_1 = 0`` and ``2.383 x^2 >= 0``, the safe forms A and B with ``q = (0, 2.383)`` both equal
    the true rational exactly.  It is not what the 2026 paper's experiments ran (they start
    the (5, 4) version-A activation from the package's ``leaky_relu``, ``gelu``, ``swish`` or
    ``relu`` shapes, see :func:`rational_init`).
    Approximately the best type-(3,2) approximant of ReLU on ``[-1, 1]`` (max error ~0.022).

    Returns:
        ``(p, q)``: fresh float64 arrays of lengths 4 and 2.

    Example:
        >>> p, q = relu_init()
        >>> round(float(rational(1.0, p, q)), 4)
        0.9781

    References:
        Boullé, Nakatsukasa, Townsend (NeurIPS 2020), public code ``RationalNets``
        (``src/PyTorch implementation/rational.py``); spec 16, R2.
    """
    return np.array(RELU_INIT_P, dtype=np.float64), np.array(RELU_INIT_Q, dtype=np.float64)


def _gelu(x: FloatArray) -> FloatArray:
    out: FloatArray = 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))
    return out


def _swish(x: FloatArray) -> FloatArray:
    out: FloatArray = x / (1.0 + np.exp(-x))
    return out


_TARGETS: dict[str, Callable[[FloatArray], FloatArray]] = {
    "leaky_relu": lambda x: np.where(x >= 0.0, x, LEAKY_SLOPE * x),
    "gelu": _gelu,
    "swish": _swish,
    "relu": lambda x: np.maximum(x, 0.0),
    "tanh": np.tanh,
    "abs": np.abs,
}


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class RationalFit:
    """A least-squares fit of a safe rational to a target activation.

    Attributes:
        p: ``(m + 1,)`` numerator coefficients (read-only).
        q: ``(n,)`` denominator coefficients ``b_1..b_n`` (read-only).
        version: the safe form fitted (``"A"`` or ``"B"``).
        max_error: max absolute error on the fitting grid.
        rms_error: root-mean-square error on the fitting grid.
        converged: ``optimality <= tol`` (the fit is first-order stationary).
        iterations: function evaluations used by the solver.
        optimality: ``max_i |∂E/∂θ_i|`` at the returned ``θ = (p, q)`` for the half mean
            squared error ``E(θ) = (1/2N) Σ_k (R(x_k; θ) - y_k)²`` on the ``N`` nodes.
    """

    p: FloatArray
    q: FloatArray
    version: Version
    max_error: float
    rms_error: float
    converged: bool
    iterations: int
    optimality: float


def fit_rational(
    target: str,
    *,
    degrees: tuple[int, int] = DEFAULT_DEGREES,
    version: Version = DEFAULT_VERSION,
    points: int = 2001,
    interval: tuple[float, float] = (-3.0, 3.0),
    max_iter: int = 2000,
    tol: float = 1e-6,
) -> RationalFit:
    """Fit a safe type-(m, n) rational to a target activation (our fit, spec R2).

    Least squares on ``points`` equispaced nodes of ``interval`` with
    ``scipy.optimize.least_squares`` (analytic Jacobian of R1), started from the linearised
    solution: solve ``P(x_k) - y_k Q̃(x_k) ≈ y_k`` by linear least squares, ignoring the
    absolute value (version A: ``Q̃(x) = Σ_j b_j |x|^j`` with ``b >= 0`` imposed on the linear
    problem, where A's denominator equals the linear model's; ``scipy.optimize.lsq_linear``).  ``converged``
    is our own first-order test, ``optimality <= tol`` with ``optimality`` the largest partial
    derivative of the half mean squared error at the returned coefficients (scipy's stopping
    tests act on internally scaled variables; a stop by its ``ftol`` can leave a larger
    gradient, a stop by ``max_iter`` a smaller one).

    Variant: the ``rational_activations`` package ships its own pre-fitted coefficients on
    ``[-3, 3]``; we fit ours on the same interval with the least-squares rule above, so the
    coefficients differ from the package's while the shapes agree to the fit's error.

    Args:
        target: one of :data:`INITS`: ``"leaky_relu"`` (slope 0.01), ``"gelu"`` (exact, with
            ``erf``), ``"swish"`` (``x sigmoid(x)``), ``"relu"``, ``"tanh"`` or ``"abs"``.
        degrees: ``(m, n)`` with ``m >= 0``, ``n >= 0`` (default (5, 4), the experiments').
        version: ``"A"`` (default) or ``"B"``.
        points: number of fitting nodes (>= m + n + 1).
        interval: ``(lo, hi)`` with ``lo < hi``, finite.
        max_iter: cap on function evaluations of the nonlinear solver.
        tol: absolute tolerance ``> 0`` on ``optimality`` (our default 1e-6).

    Returns:
        A :class:`RationalFit`.

    Raises:
        ValueError: unknown target, negative degrees, too few points, bad interval,
            ``tol <= 0``, ``version`` not A or B.

    References:
        Spec 16, R2 (fit-to-target init) and §8.1 (the experiments' four shapes).
    """
    if not isinstance(target, str) or target not in _TARGETS:
        raise ValueError(f"target: expected one of {sorted(_TARGETS)}, got {target!r}")
    if not (isinstance(degrees, tuple) and len(degrees) == 2):
        raise TypeError(f"degrees: expected a pair (m, n), got {degrees!r}")
    ver = _version(version)
    if ver == "C":
        raise ValueError("version: expected 'A' or 'B' for a fit, got 'C'")
    m = require_int("degrees[0]", degrees[0], minimum=0)
    n = require_int("degrees[1]", degrees[1], minimum=0)
    count = require_int("points", points, minimum=m + n + 1)
    budget = require_int("max_iter", max_iter, minimum=1)
    gtol = require_positive("tol", tol)
    bounds = as_float_array("interval", interval, shape=(2,))
    if not bounds[0] < bounds[1]:
        raise ValueError(f"interval: expected lo < hi, got {tuple(bounds.tolist())}")
    xs = np.linspace(bounds[0], bounds[1], count)
    ys = _TARGETS[target](xs)
    # linearised start: [x^0..x^m, -y z^1..-y z^n] [a; b] = y, z = x (B) or |x| (A)
    z = np.abs(xs) if ver == "A" else xs
    design = np.hstack(
        [xs[:, None] ** np.arange(m + 1), -ys[:, None] * z[:, None] ** np.arange(1, n + 1)]
    )
    if ver == "A":
        # A's denominator equals the linear model's where b >= 0: bound the start there
        lower = np.concatenate([np.full(m + 1, -np.inf), np.zeros(n)])
        bounded = lsq_linear(design, ys, bounds=(lower, np.full(m + n + 1, np.inf)))
        start = np.asarray(bounded.x, dtype=np.float64)
    else:
        start = np.asarray(np.linalg.lstsq(design, ys, rcond=None)[0], dtype=np.float64)

    def residual(theta: FloatArray) -> FloatArray:
        out: FloatArray = rational(xs, theta[: m + 1], theta[m + 1 :], version=ver) - ys
        return out

    def jacobian(theta: FloatArray) -> FloatArray:
        g = rational_grad(xs, theta[: m + 1], theta[m + 1 :], version=ver)
        out: FloatArray = np.hstack([g.dp, g.dq])
        return out

    sol = least_squares(residual, start, jac=jacobian, max_nfev=budget, method="trf")
    theta = np.asarray(sol.x, dtype=np.float64)
    err = residual(theta)
    optimality = float(np.max(np.abs(jacobian(theta).T @ err))) / count
    return RationalFit(
        p=readonly(theta[: m + 1].copy()),
        q=readonly(theta[m + 1 :].copy()),
        version=ver,
        max_error=float(np.max(np.abs(err))),
        rms_error=float(np.sqrt(np.mean(err**2))),
        converged=optimality <= gtol,
        iterations=int(sol.nfev),
        optimality=optimality,
    )


@lru_cache(maxsize=64)
def _init_cached(target: str, m: int, n: int, version: Version) -> tuple[FloatArray, FloatArray]:
    if target == "relu" and (m, n) == (3, 2):
        return relu_init()
    fit = fit_rational(target, degrees=(m, n), version=version)
    return readonly(np.array(fit.p)), readonly(np.array(fit.q))


def rational_init(
    target: str = "leaky_relu",
    *,
    degrees: tuple[int, int] = DEFAULT_DEGREES,
    version: Version = DEFAULT_VERSION,
) -> tuple[FloatArray, FloatArray]:
    """Initial coefficients ``(p, q)`` of a safe rational shaped like ``target``.

    Defaults follow the paper's experiments (spec 16 §8.1): version A, degrees (5, 4), the
    ``leaky_relu`` shape (the ``rational_activations`` default).  Each shape is our
    :func:`fit_rational` on ``[-3, 3]`` (2001 points), not the package's stored numbers.  The
    one exception is ``("relu", (3, 2))``: the 2020 predecessor's published init
    (:func:`relu_init`), exact in versions A and B.

    Args:
        target: one of :data:`INITS`.
        degrees: ``(m, n)``, ``m >= 0``, ``n >= 0``.
        version: ``"A"`` or ``"B"``.

    Returns:
        ``(p, q)``: fresh float64 arrays of lengths ``m + 1`` and ``n``.

    Raises:
        ValueError: as :func:`fit_rational`.

    Example:
        >>> p, q = rational_init()
        >>> p.shape, q.shape
        ((6,), (4,))
        >>> bool(abs(float(rational(1.0, p, q)) - 1.0) < 0.05)
        True
    """
    if not isinstance(target, str) or target not in _TARGETS:
        raise ValueError(f"target: expected one of {sorted(_TARGETS)}, got {target!r}")
    if not (isinstance(degrees, tuple) and len(degrees) == 2):
        raise TypeError(f"degrees: expected a pair (m, n), got {degrees!r}")
    m = require_int("degrees[0]", degrees[0], minimum=0)
    n = require_int("degrees[1]", degrees[1], minimum=0)
    ver = _version(version)
    if ver == "C":
        raise ValueError("version: expected 'A' or 'B' for an init, got 'C'")
    p, q = _init_cached(target, m, n, ver)
    return np.array(p), np.array(q)


# --------------------------------------------------------------------------- rational functions


def _degree(coeffs: FloatArray) -> int:
    nz = np.flatnonzero(coeffs)
    return int(nz[-1]) if nz.size else 0


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class RationalFunction:
    """A true rational function ``num(x) / den(x)`` stored by coefficients (ascending powers).

    Build one with :func:`rational_function`; compose with :func:`compose_rationals`.  No
    common factors are cancelled: ``degrees`` is the type of the stored representation.

    Attributes:
        num: ``(m + 1,)`` numerator coefficients (read-only).
        den: ``(n + 1,)`` denominator coefficients (read-only).
    """

    num: FloatArray
    den: FloatArray

    @property
    def degrees(self) -> tuple[int, int]:
        """``(deg num, deg den)`` ignoring exactly-zero leading coefficients."""
        return _degree(self.num), _degree(self.den)

    def __call__(self, x: object) -> FloatArray:
        """Evaluate at ``x`` (any shape); division by a vanishing denominator gives inf/NaN."""
        xs = _points("x", x)
        out: FloatArray = _horner(self.num, xs) / _horner(self.den, xs)
        return out


def rational_function(num: ArrayLike, den: ArrayLike) -> RationalFunction:
    """Build a :class:`RationalFunction` from coefficient arrays (ascending powers).

    Args:
        num: ``(m + 1,)`` finite numerator coefficients.
        den: ``(n + 1,)`` finite denominator coefficients, not all zero.

    Returns:
        The rational function with read-only copies of the coefficients.

    Raises:
        TypeError: non-numeric input.
        ValueError: non-finite or empty coefficients, zero denominator.

    Example:
        >>> rational_function([0.0, 3.0, 0.0, 1.0], [1.0, 0.0, 3.0]).degrees  # Halley map
        (3, 2)
    """
    a = _coefficients("num", num)
    b = _coefficients("den", den)
    if not np.any(b != 0.0):
        raise ValueError("den: expected a non-zero denominator polynomial, got all zeros")
    return RationalFunction(num=readonly(a), den=readonly(b))


def _compose_pair(inner: RationalFunction, outer: RationalFunction) -> RationalFunction:
    """``outer ∘ inner`` = Σ a_i P^i Q^{d-i} / Σ b_j P^j Q^{d-j}, ``d = max(deg a, deg b)``."""
    big_p, big_q = np.asarray(inner.num), np.asarray(inner.den)
    a, b = np.asarray(outer.num), np.asarray(outer.den)
    d = max(a.size, b.size) - 1

    def homog(coeffs: FloatArray) -> FloatArray:
        total = np.zeros(1)
        for i, c in enumerate(coeffs):
            if c == 0.0:
                continue
            term = poly.polymul(poly.polypow(big_p, i), poly.polypow(big_q, d - i)) * c
            total = poly.polyadd(total, term)
        out: FloatArray = np.asarray(total, dtype=np.float64)
        return out

    return RationalFunction(num=readonly(homog(a)), den=readonly(homog(b)))


def compose_rationals(
    maps: object,
) -> RationalFunction:
    """Compose rational functions, ``maps[0]`` applied first: ``r_K ∘ ... ∘ r_1``.

    If ``r_1`` has type ``(m_1, n_1)`` and ``r_2`` type ``(m_2, n_2)``, then ``r_2 ∘ r_1`` has
    numerator and denominator degrees at most ``max(m_2, n_2) max(m_1, n_1)`` [derived]; the
    ``K``-fold composite of an odd type-(3,2) map with non-zero leading coefficients has type
    exactly ``(3^K, 3^K - 1)``.  Coefficients are computed in float64 without cancellation.

    Args:
        maps: a non-empty sequence of :class:`RationalFunction` objects or ``(num, den)`` pairs
            of ascending coefficient arrays.

    Returns:
        The composite as a :class:`RationalFunction`.

    Raises:
        TypeError: ``maps`` is not a sequence, or an element is neither a
            :class:`RationalFunction` nor a pair.
        ValueError: ``maps`` is empty, or a pair holds invalid coefficients.

    Example:
        >>> h = halley_map()
        >>> compose_rationals([h, h]).degrees
        (9, 8)
    """
    if isinstance(maps, str | bytes | np.ndarray) or not isinstance(maps, Sequence):
        raise TypeError(
            f"maps: expected a sequence of rational functions, got {type(maps).__name__}"
        )
    items: list[RationalFunction] = []
    for i, item in enumerate(maps):
        if isinstance(item, RationalFunction):
            items.append(item)
        elif isinstance(item, tuple | list) and len(item) == 2:
            items.append(rational_function(item[0], item[1]))
        else:
            raise TypeError(
                f"maps[{i}]: expected a RationalFunction or a pair (num, den), got "
                f"{type(item).__name__}"
            )
    if not items:
        raise ValueError("maps: expected at least one rational function, got none")
    out = items[0]
    for nxt in items[1:]:
        out = _compose_pair(out, nxt)
    return out


# --------------------------------------------------------------------------- R3.1 Newman


@dataclass(frozen=True, slots=True, kw_only=True)
class NewmanAbs:
    """Newman's rational approximant ``r_n`` of ``|x|`` on ``[-1, 1]`` (call it on points).

    ``a = exp(-1/sqrt(n))``, ``p(x) = Π_{k=0}^{n-1} (x + a^k)``,
    ``r_n(x) = x (p(x) - p(-x)) / (p(x) + p(-x))``.

    Attributes:
        n: the order ``n >= 1``.
        a: the node ratio ``exp(-1/sqrt(n))``.
    """

    n: int
    a: float

    @property
    def bound(self) -> float:
        """Newman's error bound ``3 exp(-sqrt(n))`` (proved for ``n >= 5``)."""
        return 3.0 * math.exp(-math.sqrt(self.n))

    def __call__(self, x: object) -> FloatArray:
        """Evaluate ``r_n`` elementwise (any shape, finite points).

        Evaluated stably as ``r_n(x) = |x| (1 - t) / (1 + t)`` with
        ``t = p(-|x|)/p(|x|) = Π_k (a^k - |x|)/(a^k + |x|)`` (every factor in ``[-1, 1]``), which
        equals the defining formula because ``r_n`` is even; the direct products under- and
        overflow for large ``n`` (``p(0) = a^{n(n-1)/2}``).
        """
        xs = np.abs(_points("x", x))
        t = np.ones_like(xs)
        for k in range(self.n):
            node = self.a**k
            t = t * ((node - xs) / (node + xs))
        out: FloatArray = xs * (1.0 - t) / (1.0 + t)
        return out

    def as_rational(self) -> RationalFunction:
        """``r_n`` as coefficients: numerator degree ``<= n + 1``, denominator ``<= n``."""
        roots = -(self.a ** np.arange(self.n))
        p = poly.polyfromroots(roots)
        p_neg = p * (-1.0) ** np.arange(p.size)
        num = poly.polymulx(p - p_neg)
        den = p + p_neg
        return RationalFunction(num=readonly(np.asarray(num)), den=readonly(np.asarray(den)))


def newman_abs(n: int) -> NewmanAbs:
    """Newman's rational approximation of ``|x|`` of order ``n`` [classical, Newman 1964].

    ``max_{[-1,1]} ||x| - r_n(x)| <= 3 exp(-sqrt(n))`` for ``n >= 5``: a root-exponential
    rate, whereas the best degree-``n`` polynomial error decays only like ``0.28/n``.
    ``r_n`` is even, ``r_n(0) = 0``, ``r_n >= 0`` and ``r_1(x) = x^2`` exactly.

    Args:
        n: order, ``n >= 1``.

    Returns:
        A callable :class:`NewmanAbs`.

    Raises:
        TypeError: ``n`` is not an integer.
        ValueError: ``n < 1``.

    Example:
        >>> r = newman_abs(1)
        >>> round(float(r(0.5)), 15)
        0.25

    References:
        D. J. Newman, Michigan Math. J. 11 (1964); spec 16, R3.1 and check N1.
    """
    order = require_int("n", n, minimum=1)
    return NewmanAbs(n=order, a=math.exp(-1.0 / math.sqrt(order)))


# --------------------------------------------------------------------------- R3.2 Halley


def halley_map() -> RationalFunction:
    """The Halley map ``h(x) = x (3 + x^2) / (1 + 3 x^2)`` as a type-(3,2) rational.

    Odd, increasing, no real poles, maps ``[-1, 1]`` onto itself, fixed points ``-1, 0, 1``,
    ``h'(0) = 3`` and ``1 - h(x) = (1 - x)^3 / (1 + 3 x^2)`` [classical].

    Returns:
        The :class:`RationalFunction` ``(3x + x^3) / (1 + 3x^2)``.

    Example:
        >>> float(halley_map()(1.0))
        1.0
    """
    return RationalFunction(
        num=readonly(np.array([0.0, 3.0, 0.0, 1.0])), den=readonly(np.array([1.0, 0.0, 3.0]))
    )


def halley_sign(x: ArrayLike, steps: int) -> FloatArray:
    """The ``K``-fold Halley composite ``h^K(x)``, an approximation of ``sign(x)``.

    From ``|x| = l`` it needs about ``log_3(1/l) + log_3 log(1/eps)`` steps to reach accuracy
    ``eps``: single-exponential in depth for small ``l`` (compare :func:`dwh_sign`).

    Args:
        x: points, any shape, finite.
        steps: ``K >= 0``.

    Returns:
        ``h^K(x)``, the shape of ``x``.

    Raises:
        TypeError: non-numeric input.
        ValueError: non-finite or empty ``x``, ``steps < 0``.

    Example:
        >>> float(halley_sign(0.5, 3)) > 0.9999
        True

    References:
        Spec 16, R3.2 [classical].
    """
    xs = _points("x", x)
    k = require_int("steps", steps, minimum=0)
    for _ in range(k):
        sq = xs * xs
        xs = xs * (3.0 + sq) / (1.0 + 3.0 * sq)
    return xs


def halley_abs(x: ArrayLike, steps: int) -> FloatArray:
    """``|x| ≈ x h^K(x)``: the Halley composite as an approximation of ``|x|`` (compare :func:`dwh_abs`).

    Since ``h^K`` is odd and ``|h^K| <= 1`` on ``[-1, 1]``, ``0 <= x h^K(x) <= |x|`` there; the
    error at ``|x| = l`` is ``l (1 - h^K(l))``, which needs ``~log_3(1/l)`` steps to become small
    (single-exponential in depth, against the doubly exponential DWH steps).

    Args:
        x: points, any shape, finite.
        steps: ``K >= 0``.

    Returns:
        ``x h^K(x)``.

    Raises:
        ValueError: non-finite or empty ``x``, ``steps < 0``.

    Example:
        >>> float(halley_abs(-0.5, 4)) > 0.4999
        True
    """
    xs = _points("x", x)
    out: FloatArray = xs * halley_sign(xs, steps)
    return out


def halley_steps(lower: float, *, tol: float = 1e-15, max_iter: int = 10_000) -> int:
    """Number of Halley steps ``K`` until ``h^K(l) >= 1 - tol`` (capped at ``max_iter``).

    Args:
        lower: the starting point ``l`` in ``(0, 1]``.
        tol: target accuracy in ``(0, 1)``.
        max_iter: cap on the count.

    Returns:
        The smallest ``K`` with ``h^K(l) >= 1 - tol``, or ``max_iter``.

    Raises:
        ValueError: ``lower`` outside ``(0, 1]``, ``tol`` outside ``(0, 1)``, ``max_iter < 1``.

    Example:
        >>> halley_steps(1e-2)
        7
    """
    start = require_probability("lower", lower, open_low=True)
    eps = require_probability("tol", tol, open_low=True, open_high=True)
    cap = require_int("max_iter", max_iter, minimum=1)
    value, count = start, 0
    while value < 1.0 - eps and count < cap:
        value = value * (3.0 + value * value) / (1.0 + 3.0 * value * value)
        count += 1
    return count


# --------------------------------------------------------------------------- R3.3 DWH / Zolotarev


def dwh_params(lower: float) -> tuple[float, float, float]:
    """Parameters ``(a, b, c)`` of the dynamically weighted Halley step for lower bound ``l``.

    ``g = (4 (1 - l^2) / l^4)^{1/3}``,
    ``a = sqrt(1 + g) + sqrt(8 - 4 g + 8 (2 - l^2) / (l^2 sqrt(1 + g))) / 2``,
    ``b = (a - 1)^2 / 4``, ``c = a + b - 1``; the step is ``f(x) = x (a + b x^2) / (1 + c x^2)``.
    At ``l = 1`` it is the Halley map ``(3, 1, 3)``.

    Args:
        lower: current lower bound ``l`` on ``|x|``, in ``(0, 1]``.

    Returns:
        ``(a, b, c)`` as floats.

    Raises:
        ValueError: ``lower`` outside ``(0, 1]``.

    Example:
        >>> dwh_params(1.0)
        (3.0, 1.0, 3.0)

    References:
        Nakatsukasa, Bai, Gygi (SIAM J. Matrix Anal. Appl. 2010), the DWH weights; spec 16, R3.3.
    """
    ell = require_probability("lower", lower, open_low=True)
    g = (4.0 * (1.0 - ell * ell) / ell**4) ** (1.0 / 3.0)
    root = math.sqrt(1.0 + g)
    a = root + 0.5 * math.sqrt(8.0 - 4.0 * g + 8.0 * (2.0 - ell * ell) / (ell * ell * root))
    b = (a - 1.0) ** 2 / 4.0
    return a, b, a + b - 1.0


def dwh_step_map(lower: float) -> RationalFunction:
    """The DWH step for lower bound ``l`` as a type-(3,2) :class:`RationalFunction`.

    Raises:
        ValueError: ``lower`` outside ``(0, 1]``.

    Example:
        >>> dwh_step_map(1.0).degrees
        (3, 2)
    """
    a, b, c = dwh_params(lower)
    return RationalFunction(
        num=readonly(np.array([0.0, a, 0.0, b])), den=readonly(np.array([1.0, 0.0, c]))
    )


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class DWHComposite:
    """``s_K = f_K ∘ ... ∘ f_1``: composite of DWH steps approximating ``sign`` on ``[l_0, 1]``.

    Attributes:
        l0: the starting lower bound ``l_0``.
        tol: the stopping tolerance on ``1 - l_K``.
        params: ``(K, 3)`` read-only array of the step parameters ``(a, b, c)``.
        lower_bounds: ``(K + 1,)`` read-only array ``l_0, ..., l_K`` (``l_{k+1} = f_{k+1}(l_k)``).
        iterations: ``K``, the DWH steps composed (at most ``max_iter``).
        converged: ``1 - l_K <= tol``.
        residual: the stopping quantity ``1 - l_K``.
    """

    l0: float
    tol: float
    params: FloatArray
    lower_bounds: FloatArray
    iterations: int
    converged: bool
    residual: float

    def __call__(self, x: object) -> FloatArray:
        """Evaluate ``s_K(x)`` elementwise (any shape, finite points)."""
        xs = _points("x", x)
        for a, b, c in self.params:
            sq = xs * xs
            xs = xs * (a + b * sq) / (1.0 + c * sq)
        return xs

    def maps(self) -> tuple[RationalFunction, ...]:
        """The ``K`` type-(3,2) steps as :class:`RationalFunction` objects (first applied first)."""
        return tuple(
            RationalFunction(
                num=readonly(np.array([0.0, a, 0.0, b])), den=readonly(np.array([1.0, 0.0, c]))
            )
            for a, b, c in self.params
        )


def dwh_sign(l0: float, *, tol: float = 1e-15, max_iter: int = 50) -> DWHComposite:
    """Compose DWH steps from lower bound ``l0`` until ``1 - l_K <= tol``.

    ``s_K`` is odd, ``|s_K| <= 1`` on ``[-1, 1]``, maps ``[l_0, 1]`` into ``[l_K, 1]`` and
    ``1 - l_K`` falls doubly exponentially: ``K <= 6`` for ``l_0 >= 1e-16`` in double precision.
    It is not monotone in general.

    Args:
        l0: lower bound in ``(0, 1]``.
        tol: target for ``1 - l_K``, in ``(0, 1)``.
        max_iter: cap on ``K`` (non-convergence is reported in ``converged``).

    Returns:
        A callable :class:`DWHComposite`.

    Raises:
        ValueError: ``l0`` outside ``(0, 1]``, ``tol`` outside ``(0, 1)``, ``max_iter < 1``.

    Example:
        >>> dwh_sign(1e-16).iterations
        6

    References:
        Nakatsukasa, Bai, Gygi (2010); Nakatsukasa and Freund, SIAM Review 58 (2016)
        (DWH steps are the type-(3,2) Zolotarev functions); spec 16, R3.3 and checks Z1/Z2.
    """
    ell = require_probability("l0", l0, open_low=True)
    eps = require_probability("tol", tol, open_low=True, open_high=True)
    cap = require_int("max_iter", max_iter, minimum=1)
    params: list[tuple[float, float, float]] = []
    bounds = [ell]
    while 1.0 - ell > eps and len(params) < cap:
        a, b, c = dwh_params(ell)
        params.append((a, b, c))
        ell = min(1.0, ell * (a + b * ell * ell) / (1.0 + c * ell * ell))
        bounds.append(ell)
    arr = np.array(params, dtype=np.float64).reshape(-1, 3)
    return DWHComposite(
        l0=float(bounds[0]),
        tol=eps,
        params=readonly(arr),
        lower_bounds=readonly(np.array(bounds, dtype=np.float64)),
        iterations=len(params),
        converged=1.0 - ell <= eps,
        residual=1.0 - ell,
    )


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class DWHAbs:
    """``|x| ≈ x s_K(x)`` with ``s_K`` the DWH composite started at ``l_0 = eps``.

    Attributes:
        eps: the target accuracy.
        sign: the :class:`DWHComposite` ``s_K``.
    """

    eps: float
    sign: DWHComposite

    @property
    def iterations(self) -> int:
        """Number of type-(3,2) layers ``K`` (the DWH steps of :attr:`sign`)."""
        return self.sign.iterations

    def __call__(self, x: object) -> FloatArray:
        """Evaluate ``x s_K(x)`` elementwise (any shape, finite points)."""
        xs = _points("x", x)
        out: FloatArray = xs * self.sign(xs)
        return out


def dwh_abs(eps: float) -> DWHAbs:
    """``|x|`` to accuracy ``eps`` on ``[-1, 1]`` with ``K = O(log log(1/eps))`` type-(3,2) layers.

    Sets ``l_0 = eps`` and composes DWH steps until ``1 - l_K <= eps``; then
    ``max_{[-1,1]} ||x| - x s_K(x)| <= eps`` (for ``|x| < eps``, ``0 <= x s_K(x) <= |x|``).
    ReLU follows as ``(x + |x|)/2`` to accuracy ``eps/2``: the mechanism behind the
    ``log log(1/eps)`` overhead of rational networks.

    Args:
        eps: accuracy in ``(0, 1)``.

    Returns:
        A callable :class:`DWHAbs`.

    Raises:
        ValueError: ``eps`` outside ``(0, 1)``.

    Example:
        >>> approx = dwh_abs(1e-4)
        >>> approx.iterations, abs(float(approx(-0.3)) - 0.3) <= 1e-4
        (3, True)

    References:
        Boullé, Nakatsukasa, Townsend (NeurIPS 2020), Zolotarev compositions; spec 16, R3.3, Z2.
    """
    e = require_probability("eps", eps, open_low=True, open_high=True)
    return DWHAbs(eps=e, sign=dwh_sign(e, tol=e))


# --------------------------------------------------------------------------- R3.4-R3.6


def product_gadget(x: ArrayLike, y: ArrayLike) -> FloatArray:
    """Exact product from squares, ``xy = ((x + y)^2 - (x - y)^2) / 4`` [derived, R3.4].

    ``x^2`` is a type-(2,0) rational, so multiplication is exact in a rational network of
    width 2 (one affine map, a squaring layer, one affine map).

    Args:
        x: points, any shape, finite.
        y: points broadcastable with ``x``, finite.

    Returns:
        ``x * y`` computed through the gadget.

    Raises:
        ValueError: non-finite or empty input, shapes not broadcastable.

    Example:
        >>> float(product_gadget(3.0, -2.0))
        -6.0
    """
    xs = _points("x", x)
    ys = _points("y", y)
    try:
        np.broadcast_shapes(xs.shape, ys.shape)
    except ValueError as exc:
        raise ValueError(
            f"y: expected a shape broadcastable with x {xs.shape}, got {ys.shape}"
        ) from exc
    out: FloatArray = ((xs + ys) ** 2 - (xs - ys) ** 2) / 4.0
    return out


def yarotsky_square(x: ArrayLike, m: int) -> FloatArray:
    """Yarotsky's ReLU approximation of ``x^2`` on ``[0, 1]`` with ``m`` sawtooth layers.

    Tent map ``g(x) = 2x`` on ``[0, 1/2]``, ``2(1 - x)`` on ``[1/2, 1]`` (a width-2 ReLU layer:
    ``g(x) = 2 ReLU(x) - 4 ReLU(x - 1/2)``), ``g_s`` its ``s``-fold composite and
    ``f_m(x) = x - Σ_{s=1}^m g_s(x) / 2^{2s}``; ``max_{[0,1]} |f_m - x^2| = 2^{-2m-2}`` exactly.
    So ReLU networks need depth ``~ log(1/eps)`` for ``x^2``, which a rational network
    computes exactly in one layer.

    Args:
        x: points in ``[0, 1]``, any shape.
        m: number of sawtooth layers, ``m >= 0``.

    Returns:
        ``f_m(x)``.

    Raises:
        ValueError: non-finite/empty ``x``, points outside ``[0, 1]``, ``m < 0``.

    Example:
        >>> float(yarotsky_square(0.5, 1))
        0.25

    References:
        D. Yarotsky, Neural Networks 94 (2017), Proposition 2; spec 16, R3.5 and check Y1.
    """
    xs = _points("x", x)
    layers = require_int("m", m, minimum=0)
    if float(np.min(xs)) < 0.0 or float(np.max(xs)) > 1.0:
        raise ValueError(
            f"x: expected points in [0, 1], got range [{float(np.min(xs))!r}, {float(np.max(xs))!r}]"
        )
    out = xs.copy()
    g = xs.copy()
    for s in range(1, layers + 1):
        g = 2.0 * np.maximum(g, 0.0) - 4.0 * np.maximum(g - 0.5, 0.0)
        out = out - g / 4.0**s
    return out


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class PolyMinimax:
    """Best even polynomial approximation of ``|x|`` on a grid, from the LP.

    Attributes:
        degree: the (even) degree ``n``.
        error: the minimax error ``E_n`` on the grid (the LP optimum ``t``).
        coefficients: ``(n/2 + 1,)`` read-only coefficients of ``T_0, T_2, ..., T_n``.
        grid_size: number of points of ``[0, 1]`` used.
    """

    degree: int
    error: float
    coefficients: FloatArray
    grid_size: int

    def __call__(self, x: object) -> FloatArray:
        """Evaluate the polynomial at ``x`` (any shape)."""
        xs = _points("x", x)
        full = np.zeros(self.degree + 1)
        full[::2] = self.coefficients
        out: FloatArray = np.asarray(cheb.chebval(xs, full), dtype=np.float64)
        return out


def minimax_poly_abs_lp(n: int, *, grid_size: int = 8001) -> PolyMinimax:
    """Best degree-``n`` polynomial approximation of ``|x|`` on ``[-1, 1]`` by linear programming.

    By symmetry the best approximant is even: minimise ``t`` subject to
    ``|Σ_k c_k T_{2k}(x_i) - x_i| <= t`` on ``grid_size`` points ``x = (1 - cos(π u))/2``,
    ``u`` equispaced in ``[0, 1]`` (dense at both ends; the default 8001 points contain ``1/2``)
    (``scipy.optimize.linprog``, HiGHS).  Bernstein: ``n E_n(|x|) -> beta = 0.2801694990...``;
    ``E_2 = 1/8`` exactly [classical].

    Args:
        n: even degree ``>= 0``.
        grid_size: number of grid points (>= n/2 + 2).

    Returns:
        A :class:`PolyMinimax`.

    Raises:
        ValueError: ``n`` odd or negative, grid too small.

    Example:
        >>> round(minimax_poly_abs_lp(2, grid_size=2001).error, 9)
        0.125

    References:
        S. N. Bernstein (1914); R. S. Varga and A. J. Carpenter, Constr. Approx. 1 (1985);
        spec 16, check B1.
    """
    deg = require_int("n", n, minimum=0)
    if deg % 2:
        raise ValueError(f"n: expected an even degree (|x| is even), got {deg}")
    half = deg // 2
    size = require_int("grid_size", grid_size, minimum=half + 2)
    # grid of [0, 1] dense at both ends (the kink at 0, the end point 1); odd sizes contain 1/2
    xs = 0.5 * (1.0 - np.cos(np.pi * np.linspace(0.0, 1.0, size)))
    basis = np.stack([cheb.chebval(xs, np.eye(deg + 1)[2 * k]) for k in range(half + 1)], axis=1)
    ones = np.ones((xs.size, 1))
    a_ub = np.vstack([np.hstack([basis, -ones]), np.hstack([-basis, -ones])])
    b_ub = np.concatenate([xs, -xs])
    cost = np.zeros(half + 2)
    cost[-1] = 1.0
    res = linprog(
        cost,
        A_ub=a_ub,
        b_ub=b_ub,
        bounds=[(None, None)] * (half + 2),
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    if res.status != 0:  # pragma: no cover - a bounded feasible LP
        raise RuntimeError(f"HiGHS failed on the minimax LP: {res.message}")
    sol = np.asarray(res.x, dtype=np.float64)
    return PolyMinimax(
        degree=deg, error=float(sol[-1]), coefficients=readonly(sol[:-1].copy()), grid_size=size
    )


def _pade_exp_coefficients(q: int) -> FloatArray:
    c = [
        math.factorial(2 * q - j)
        * math.factorial(q)
        / (math.factorial(2 * q) * math.factorial(j) * math.factorial(q - j))
        for j in range(q + 1)
    ]
    return np.array(c, dtype=np.float64)


def exp_scaling_squaring(x: ArrayLike, q: int = 3, s: int = 4) -> FloatArray:
    """``e^x ≈ [R_{q,q}(x / 2^s)]^{2^s}``: diagonal Padé approximant, then ``s`` squarings.

    ``R_{q,q} = N(x)/N(-x)`` with ``N(x) = Σ_j (2q-j)! q! / ((2q)! j! (q-j)!) x^j``.  Each
    squaring is a type-(2,0) rational layer, so ``s`` layers give degree ``2^s q`` (our default
    construction for softmax, spec R3.6).

    Args:
        x: points, any shape, finite.
        q: Padé order ``>= 0``.
        s: number of squarings ``>= 0``.

    Returns:
        The approximation of ``exp(x)``.

    Raises:
        ValueError: non-finite/empty ``x``, negative ``q`` or ``s``.

    Example:
        >>> abs(float(exp_scaling_squaring(1.0)) - math.e) < 1e-9
        True
    """
    xs = _points("x", x)
    order = require_int("q", q, minimum=0)
    squarings = require_int("s", s, minimum=0, maximum=60)
    coeffs = _pade_exp_coefficients(order)
    z = xs / 2.0**squarings
    out: FloatArray = _horner(coeffs, z) / _horner(coeffs, -z)
    for _ in range(squarings):
        out = out * out
    return out
