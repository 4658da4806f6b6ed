"""The constructions the paper's figures use for the ``log log(1/eps)`` overhead (spec 16 §8.2).

* :func:`pth_root` / :func:`pth_root_alphas` — the composite rational ``p``-th root on
  ``[alpha_0^p, 1]`` whose maximal relative error after ``k`` layers is exactly
  ``delta_k = (1 - alpha_k) / (1 + alpha_k)``;
* :func:`log_agm` — ``log x`` by the arithmetic-geometric mean of Jacobi theta values (the
  Sasaki-Kanada identity);
* :func:`tanh_halley` — ``tanh s`` by Halley's iteration on ``artanh t = s`` from ``t_0 = s``;
* :func:`gelu_tanh`, :func:`gelu_pole` — the tanh-form GELU, its complex pole nearest to
  ``[-1, 1]`` and the Bernstein-ellipse parameter ``rho`` that fixes the geometric rate of its
  polynomial approximations;
* :func:`gelu_composite`, :func:`gelu_composite_params` — a composite rational for tanh-GELU
  (exp by scaling and squaring of a Padé approximant, spec R3.6, then ``x E / (1 + E)``) and
  its parameter count, for the comparison with polynomials at equal count.

References:
    M. Tang, A. Townsend, "Rational Neural Networks have Expressivity Advantages", ICML 2026,
    arXiv:2602.12390; the constructions as the first author's figure notebook checks them
    (spec 16 §8.2).  Y. Nakatsukasa, composite rational p-th roots (Zolotarev-type scaled
    Newton iterations).  R. P. Brent, "Fast multiple-precision evaluation of elementary
    functions", J. ACM 23 (1976) (the AGM logarithm); T. Sasaki, Y. Kanada (1982) (the theta
    identity).  L. N. Trefethen, "Approximation Theory and Approximation Practice", SIAM 2013,
    Thm 8.2 (Bernstein ellipses).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import FloatArray, as_float_array, readonly, require_int
from reference.activations.rational import exp_scaling_squaring

__all__ = [
    "GELU_CUBIC",
    "GeluPole",
    "gelu_composite",
    "gelu_composite_params",
    "gelu_pole",
    "gelu_tanh",
    "log_agm",
    "pth_root",
    "pth_root_alphas",
    "tanh_halley",
]

#: The cubic coefficient of the tanh-form GELU ``0.5 x (1 + tanh(sqrt(2/pi)(x + c x^3)))``.
GELU_CUBIC = 0.044715


def _open_unit(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise TypeError(f"{name}: expected a real number in (0, 1), got {type(value).__name__}")
    v = float(value)
    if not (0.0 < v < 1.0):
        raise ValueError(f"{name}: expected a number in (0, 1), got {v!r}")
    return v


def _mu(alpha: float, p: int) -> float:
    """``((alpha - alpha^p) / ((p - 1)(1 - alpha)))^{1/p}`` without the 0/0 at ``alpha -> 1``:
    ``(alpha - alpha^p) / (1 - alpha) = alpha (1 + alpha + ... + alpha^{p-2})``."""
    geometric = sum(alpha**i for i in range(p - 1))
    return float((alpha * geometric / (p - 1)) ** (1.0 / p))


def pth_root_alphas(p: int, alpha0: float, layers: int) -> FloatArray:
    """The scaling sequence ``alpha_0, ..., alpha_k`` of the composite ``p``-th root.

    ``mu_k = ((alpha_k - alpha_k^p) / ((p - 1)(1 - alpha_k)))^{1/p}``,
    ``alpha_{k+1} = p alpha_k / ((p - 1) mu_k + mu_k^{1-p} alpha_k^p)`` (spec 16 §8.2 (1)).
    The maximal relative error of ``k`` layers is ``delta_k = (1 - alpha_k) / (1 + alpha_k)``.

    Args:
        p: the root, an integer ``>= 2``.
        alpha0: ``alpha_0`` in ``(0, 1)``; the interval is ``[alpha_0^p, 1]``.
        layers: ``k >= 0``.

    Returns:
        ``(k + 1,)`` float64 array, read-only, increasing towards 1.

    Raises:
        TypeError: non-integer ``p``/``layers`` or non-real ``alpha0``.
        ValueError: ``p < 2``, ``alpha0`` outside ``(0, 1)``, ``layers < 0``.

    Example:
        >>> a = pth_root_alphas(2, 0.25, 1)  # p = 2: alpha_1 = 2 sqrt(a) / (1 + a)
        >>> [round(float(v), 12) for v in a]
        [0.25, 0.8]
    """
    pp = require_int("p", p, minimum=2)
    alpha = _open_unit("alpha0", alpha0)
    k = require_int("layers", layers, minimum=0)
    out = [alpha]
    for _ in range(k):
        mu = _mu(alpha, pp)
        alpha = min(1.0, pp * alpha / ((pp - 1) * mu + mu ** (1 - pp) * alpha**pp))
        out.append(alpha)
    return readonly(np.array(out, dtype=np.float64))


def pth_root(x: ArrayLike, p: int, *, alpha0: float, layers: int) -> FloatArray:
    """The scaled composite rational approximant ``r_k(x)`` of ``x^{1/p}`` (spec 16 §8.2 (1)).

    ``f_0 = 1``, ``f_{j+1}(x) = ((p - 1) mu_j f_j(x) + x / (mu_j^{p-1} f_j(x)^{p-1})) / p`` with
    ``mu_j`` from :func:`pth_root_alphas`, and ``r_k = 2 alpha_k / (1 + alpha_k) f_k``
    (``layers = 0``: the constant ``2 alpha_0 / (1 + alpha_0)``).  Each layer is a rational map
    of ``(x, f_j)``; on ``[alpha_0^p, 1]`` the maximal relative error ``|r_k / x^{1/p} - 1|`` is
    ``delta_k = (1 - alpha_k) / (1 + alpha_k)``, attained with both signs.

    Args:
        x: points, any shape, finite and ``> 0`` (the error claim is for ``[alpha_0^p, 1]``).
        p: the root, an integer ``>= 2``.
        alpha0: ``alpha_0`` in ``(0, 1)``.
        layers: ``k >= 0``.

    Returns:
        float64 array of the shape of ``x``.

    Raises:
        TypeError: non-numeric input.
        ValueError: non-finite or non-positive ``x``; bad ``p``, ``alpha0``, ``layers``.

    Example:
        >>> round(float(pth_root(1.0, 2, alpha0=0.25, layers=0)), 12)  # 2 a / (1 + a)
        0.4
        >>> bool(abs(float(pth_root(0.5, 2, alpha0=0.25, layers=5)) - 0.5**0.5) < 1e-15)
        True
    """
    xs = as_float_array("x", x)
    if np.any(xs <= 0.0):
        raise ValueError(f"x: expected points > 0, got minimum {float(np.min(xs))!r}")
    alphas = pth_root_alphas(p, alpha0, layers)
    pp = int(p)
    f = np.ones_like(xs)
    for alpha in alphas[:-1]:
        mu = _mu(float(alpha), pp)
        f = ((pp - 1) * mu * f + xs / (mu ** (pp - 1) * f ** (pp - 1))) / pp
    last = float(alphas[-1])
    out: FloatArray = 2.0 * last / (1.0 + last) * f
    return out


def _theta_pair(q: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``(theta_2(q^4), theta_3(q^4))`` for ``0 < q <= 1/2`` by their series in ``q``:
    ``theta_2(q^4) = 2 Σ_{n>=0} q^{(2n+1)^2}``, ``theta_3(q^4) = 1 + 2 Σ_{n>=1} q^{4 n^2}``
    (six terms: ``q^{121} <= 2^{-121}`` is below double precision)."""
    theta2 = 2.0 * sum((q ** ((2 * n + 1) ** 2) for n in range(6)), np.zeros_like(q))
    theta3 = 1.0 + 2.0 * sum((q ** (4 * n * n) for n in range(1, 7)), np.zeros_like(q))
    return theta2, theta3


def _log_agm_large(y: FloatArray, layers: int) -> FloatArray:
    """``pi / (4 AGM_k(theta_2(q^4)^2, theta_3(q^4)^2))`` with ``q = 1/y``, ``y >= 2``."""
    theta2, theta3 = _theta_pair(1.0 / y)
    a, b = theta3 * theta3, theta2 * theta2
    for _ in range(layers):
        a, b = 0.5 * (a + b), np.sqrt(a * b)
    out: FloatArray = math.pi / (4.0 * a)
    return out


def log_agm(x: ArrayLike, *, layers: int) -> FloatArray:
    """``log x`` by the AGM of theta values (Sasaki-Kanada; spec 16 §8.2 (2)).

    For ``y >= 2`` and nome ``q = 1/y``: ``log y = pi / (4 AGM(theta_2(q^4)^2, theta_3(q^4)^2))``,
    an exact identity.  ``layers`` AGM steps ``a <- (a + b)/2, b <- sqrt(a b)`` are taken from
    ``a_0 = theta_3^2``, ``b_0 = theta_2^2`` and ``a_k`` stands for the mean
    (``layers = 0``: ``pi / (4 theta_3(q^4)^2)``).  Every AGM step is rational except one
    square root, which we take exactly (``numpy.sqrt``); a layer here is one AGM step.
    Range reduction: ``log x = -log(1/x)`` for ``x <= 1/2`` and
    ``log x = log(4x) - 2 log 2`` for ``1/2 < x < 2`` (both terms by the same AGM).

    The AGM starts from ``b_0 / a_0 ~ 4 / x^2``, so the layers needed grow like
    ``log2 log x``: ``layers = 16`` gives ``log x`` to a few ulps (relative) on
    ``[2, 1e150]`` and to ``~1e-15`` absolute on ``[1e-150, 2]``; beyond ``1e150``
    ``theta_2^2`` underflows.  Convergence is quadratic per layer.

    Args:
        x: points, any shape, finite, in ``[1e-150, 1e150]``.
        layers: number of AGM steps, ``>= 0``.

    Returns:
        float64 array of the shape of ``x``.

    Raises:
        TypeError: non-numeric input or non-integer ``layers``.
        ValueError: non-finite ``x`` or ``x`` outside ``[1e-150, 1e150]``; ``layers < 0``.

    Example:
        >>> bool(abs(float(log_agm(10.0, layers=6)) - math.log(10.0)) < 1e-14)
        True
    """
    xs = as_float_array("x", x)
    k = require_int("layers", layers, minimum=0)
    if np.any(xs < 1e-150) or np.any(xs > 1e150):
        raise ValueError(
            f"x: expected points in [1e-150, 1e150], got range "
            f"[{float(np.min(xs))!r}, {float(np.max(xs))!r}]"
        )
    big = xs >= 2.0
    small = xs <= 0.5
    middle = ~(big | small)
    out = np.zeros_like(xs)
    if np.any(big):
        out[big] = _log_agm_large(xs[big], k)
    if np.any(small):
        out[small] = -_log_agm_large(1.0 / xs[small], k)
    if np.any(middle):
        log4 = float(_log_agm_large(np.array([4.0]), k)[0])
        out[middle] = _log_agm_large(4.0 * xs[middle], k) - log4
    return out


def tanh_halley(s: object, *, layers: int) -> FloatArray:
    """``tanh s`` by Halley's iteration on ``artanh t - s = 0`` from ``t_0 = s`` (§8.2 (3)).

    ``t <- t - (1 - t^2) A / (1 - t A)``, ``A = artanh(t) - s``: Halley's step for
    ``F(t) = artanh(t) - s`` (``F' = 1/(1 - t^2)``, ``F'' = 2t/(1 - t^2)^2``).  Convergence is
    cubic with asymptotic constant ``1 / (3 (1 - tanh^2 s)^2)``; the paper's lemma uses
    ``s in [-1/8, 1/8]``.  ``artanh`` is evaluated exactly (``numpy.arctanh``).

    Args:
        s: points, any shape, finite, ``|s| < 1`` (so that ``artanh(t_0)`` exists).
        layers: number of Halley steps, ``>= 0`` (``0`` returns ``s``).

    Returns:
        float64 array of the shape of ``s``.

    Raises:
        TypeError: non-numeric input or non-integer ``layers``.
        ValueError: non-finite ``s``, ``|s| >= 1``, ``layers < 0``.

    Example:
        >>> bool(abs(float(tanh_halley(0.125, layers=2)) - math.tanh(0.125)) < 1e-16)
        True
    """
    ss = as_float_array("s", s)
    k = require_int("layers", layers, minimum=0)
    if np.any(np.abs(ss) >= 1.0):
        raise ValueError(f"s: expected |s| < 1, got max |s| = {float(np.max(np.abs(ss)))!r}")
    t = ss.copy()
    for _ in range(k):
        a = np.arctanh(t) - ss
        t = t - (1.0 - t * t) * a / (1.0 - t * a)
    return t


def gelu_tanh(x: ArrayLike) -> FloatArray:
    """The tanh-form GELU ``0.5 x (1 + tanh(sqrt(2/pi)(x + 0.044715 x^3)))``.

    Args:
        x: points, any shape, finite.

    Returns:
        float64 array of the shape of ``x``.

    Raises:
        TypeError: non-numeric input.
        ValueError: non-finite input.

    Example:
        >>> round(float(gelu_tanh(1.0)), 6)
        0.841192
    """
    xs = as_float_array("x", x)
    out: FloatArray = (
        0.5 * xs * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (xs + GELU_CUBIC * xs**3)))
    )
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class GeluPole:
    """The pole of the tanh-form GELU that limits polynomial approximation on ``[-1, 1]``.

    Attributes:
        pole: the pole ``z`` (upper half plane; its conjugate is a pole too).
        branch: ``k`` in ``sqrt(2/pi)(z + 0.044715 z^3) = i (pi/2 + k pi)``.
        rho: ``|z + sqrt(z^2 - 1)|`` with the branch giving ``rho > 1``: the largest Bernstein
            ellipse in which GELU is analytic is ``E_rho``.
    """

    pole: complex
    branch: int
    rho: float


def _ellipse_rho(z: complex) -> float:
    w = np.sqrt(complex(z) * complex(z) - 1.0)
    return float(max(abs(z + w), abs(z - w)))


def gelu_pole(*, branches: int = 8) -> GeluPole:
    """The pole of tanh-GELU with the smallest Bernstein-ellipse parameter ``rho`` (§8.2 (4)).

    ``tanh`` has poles at ``i (pi/2 + k pi)``, so GELU's poles are the roots of the cubic
    ``sqrt(2/pi) (0.044715 z^3 + z) - i (pi/2 + k pi) = 0``; each branch ``k`` in
    ``0..branches-1`` (the ``k < 0`` branches are the conjugates) gives three roots, and the
    one with the smallest ``rho = |z ± sqrt(z^2 - 1)|`` wins (reported in the upper half
    plane).  Roots by ``numpy.roots``, then two Newton steps on the cubic.

    Args:
        branches: number of branches ``k = 0..branches-1`` searched, ``>= 1``.

    Returns:
        A :class:`GeluPole`.

    Raises:
        TypeError: non-integer ``branches``.
        ValueError: ``branches < 1``.

    Example:
        >>> pole = gelu_pole()
        >>> pole.branch, round(pole.rho, 6) > 1.0
        (0, True)
    """
    count = require_int("branches", branches, minimum=1)
    c = math.sqrt(2.0 / math.pi)
    best: GeluPole | None = None
    for k in range(count):
        rhs = 1j * (math.pi / 2.0 + k * math.pi)
        for root in np.roots([c * GELU_CUBIC, 0.0, c, -rhs]):
            z = complex(root)
            for _ in range(2):
                z -= (c * (GELU_CUBIC * z**3 + z) - rhs) / (c * (3 * GELU_CUBIC * z * z + 1))
            rho = _ellipse_rho(z)  # rho(conj z) = rho(z): the k < 0 branches add nothing
            if best is None or rho < best.rho:
                best = GeluPole(pole=z if z.imag >= 0 else z.conjugate(), branch=k, rho=rho)
    assert best is not None  # branch 0 always has a root in the upper half plane
    return best


def gelu_composite_params(q: int, squarings: int) -> int:
    """Parameter count of :func:`gelu_composite`: ``2 q + 3 squarings + 9``.

    The count: every univariate map of type ``(m, n)`` costs ``m + n + 1`` coefficients (all
    of them, zeros included, the denominator normalised to constant term 1), so a polynomial
    of degree ``n`` costs ``n + 1``.  The composite's maps: the cubic
    ``u = 2^{1-k} sqrt(2/pi) (x + 0.044715 x^3)`` (type (3, 0): 4), the Padé approximant
    ``R_{q,q}`` (``2q + 1``), ``k`` squarings (type (2, 0): 3 each), the Möbius map
    ``E / (1 + E)`` (type (1, 1): 3) and the product with ``x`` (one coefficient).

    Args:
        q: Padé order ``>= 0``.
        squarings: ``k >= 0``.

    Returns:
        The count.

    Raises:
        TypeError: non-integer arguments.
        ValueError: negative arguments.

    Example:
        >>> gelu_composite_params(3, 0)
        15
    """
    order = require_int("q", q, minimum=0)
    k = require_int("squarings", squarings, minimum=0)
    return 2 * order + 3 * k + 9


def gelu_composite(x: ArrayLike, *, q: int, squarings: int) -> FloatArray:
    """A composite rational approximation of the tanh-form GELU on ``[-1, 1]``.

    ``GELU(x) = x sigma(2 s(x)) = x E / (1 + E)`` with ``E = exp(2 s(x))``,
    ``s(x) = sqrt(2/pi)(x + 0.044715 x^3)``; ``E`` is taken from the library's
    :func:`~reference.activations.rational.exp_scaling_squaring` (``[R_{q,q}(2 s / 2^k)]^{2^k}``,
    spec R3.6).  Squaring ``E`` is the doubling identity ``tanh 2u = 2t / (1 + t^2)`` for
    ``t = (E - 1)/(E + 1)``.  The maps composed and their count: :func:`gelu_composite_params`.
    At fixed ``q`` each squaring divides the error by about ``4^q`` (the Padé error
    ``~ c_q h^{2q+1}`` at ``h = 2 s / 2^k``, multiplied by ``2^k``).

    Args:
        x: points, any shape, finite.
        q: Padé order ``>= 0``.
        squarings: ``k >= 0``.

    Returns:
        float64 array of the shape of ``x``.

    Raises:
        TypeError: non-numeric input or non-integer ``q``/``squarings``.
        ValueError: non-finite ``x``, negative ``q``, ``squarings`` outside ``[0, 60]``.

    Example:
        >>> bool(abs(float(gelu_composite(1.0, q=8, squarings=0)) - float(gelu_tanh(1.0))) < 1e-15)
        True
    """
    xs = as_float_array("x", x)
    order = require_int("q", q, minimum=0)
    k = require_int("squarings", squarings, minimum=0)
    u = 2.0 * math.sqrt(2.0 / math.pi) * (xs + GELU_CUBIC * xs**3)
    big_e = np.asarray(exp_scaling_squaring(u, order, k), dtype=np.float64)
    out: FloatArray = xs * big_e / (1.0 + big_e)
    return out
