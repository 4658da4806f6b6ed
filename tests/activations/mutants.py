"""Hand-made broken rational constructions: each activations suite must reject each one."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from reference import activations
from reference._arrays import FloatArray

_poly = np.polynomial.polynomial


# ----------------------------------------------------------------------------- activations.rational


def rational_no_abs(x: Any, p: Any, q: Any) -> FloatArray:
    """Mutant: forgets the absolute value, ``P / (1 + Q̃)`` (poles, sign of b matters)."""
    xs = np.asarray(x, dtype=np.float64)
    qt = xs * _poly.polyval(xs, np.asarray(q, dtype=np.float64)) if len(q) else 0.0 * xs
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out: FloatArray = _poly.polyval(xs, np.asarray(p, dtype=np.float64)) / (1.0 + qt)
    return out


def rational_shifted_powers(x: Any, p: Any, q: Any) -> FloatArray:
    """Mutant: off-by-one in the denominator powers, ``Q̃ = Σ b_j x^{j-1}``."""
    xs = np.asarray(x, dtype=np.float64)
    qt = _poly.polyval(xs, np.asarray(q, dtype=np.float64)) if len(q) else 0.0 * xs
    out: FloatArray = _poly.polyval(xs, np.asarray(p, dtype=np.float64)) / (1.0 + np.abs(qt))
    return out


def rational_version_a(x: Any, p: Any, q: Any) -> FloatArray:
    """Mutant: the version-A denominator ``1 + Σ |b_j| |x|^j`` passed off as version B."""
    return activations.rational(x, p, q, version="A")


def rational_version_b(x: Any, p: Any, q: Any) -> FloatArray:
    """Mutant: the version-B denominator ``1 + |Σ b_j x^j|`` passed off as version A."""
    return activations.rational(x, p, q, version="B")


def rational_abs_b_only(x: Any, p: Any, q: Any) -> FloatArray:
    """Mutant: ``1 + Σ |b_j| x^j`` (the absolute value of ``x`` forgotten): no kink at 0."""
    xs = np.asarray(x, dtype=np.float64)
    b = np.abs(np.asarray(q, dtype=np.float64))
    den = 1.0 + (xs * _poly.polyval(xs, b) if b.size else 0.0 * xs)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out: FloatArray = _poly.polyval(xs, np.asarray(p, dtype=np.float64)) / den
    return out


def rational_squared_denominator(x: Any, p: Any, q: Any) -> FloatArray:
    """Mutant: ``P / (1 + Q̃^2)``: right sign symmetry, wrong values and growth."""
    xs = np.asarray(x, dtype=np.float64)
    qt = xs * _poly.polyval(xs, np.asarray(q, dtype=np.float64)) if len(q) else 0.0 * xs
    out: FloatArray = _poly.polyval(xs, np.asarray(p, dtype=np.float64)) / (1.0 + qt * qt)
    return out


def rational_descending(x: Any, p: Any, q: Any) -> FloatArray:
    """Mutant: reads the numerator in descending powers (``np.polyval`` convention)."""
    xs = np.asarray(x, dtype=np.float64)
    return activations.rational(xs, np.asarray(p, dtype=np.float64)[::-1], q)


def rational_abs_numerator(x: Any, p: Any, q: Any) -> FloatArray:
    """Mutant: takes the absolute value of the whole fraction, ``|P| / (1 + |Q̃|)``."""
    return np.abs(activations.rational(x, p, q))


def rational_nan_silent(x: Any, p: Any, q: Any) -> FloatArray:
    """Bad-input mutant: no validation, NaN in gives NaN out."""
    return rational_no_abs(x, p, np.abs(np.asarray(q, dtype=np.float64)))


# ----------------------------------------------------------------------------- activations.newman


def _newman_with(n: int, a: float, shift: int = 0, times_x: bool = True) -> Callable[[Any], Any]:
    def r(x: Any) -> FloatArray:
        xs = np.asarray(x, dtype=np.float64)
        plus = np.ones_like(xs)
        minus = np.ones_like(xs)
        for k in range(shift, n + shift):
            plus = plus * (xs + a**k)
            minus = minus * (-xs + a**k)
        out: FloatArray = (xs if times_x else 1.0) * (plus - minus) / (plus + minus)
        return out

    return r


def newman_wrong_ratio(n: int) -> Callable[[Any], Any]:
    """Mutant: node ratio ``a = exp(-1/n)`` instead of ``exp(-1/sqrt(n))``."""
    return _newman_with(n, math.exp(-1.0 / n))


def newman_shifted_nodes(n: int) -> Callable[[Any], Any]:
    """Mutant: off-by-one nodes ``a^1..a^n`` instead of ``a^0..a^{n-1}``."""
    return _newman_with(n, math.exp(-1.0 / math.sqrt(n)), shift=1)


def newman_missing_x(n: int) -> Callable[[Any], Any]:
    """Mutant: drops the factor ``x`` (an odd function, not an approximant of |x|)."""
    return _newman_with(n, math.exp(-1.0 / math.sqrt(n)), times_x=False)


# ----------------------------------------------------------------------------- sign composites


def _composite(params: Sequence[tuple[float, float, float]], odd: bool = True) -> Any:
    def s(x: Any) -> FloatArray:
        xs = np.asarray(x, dtype=np.float64)
        for a, b, c in params:
            sq = xs * xs
            lead = xs if odd else np.abs(xs)
            xs = lead * (a + b * sq) / (1.0 + c * sq)
        return xs

    return s


def dwh_one_step_short(l0: float, *, tol: float) -> Any:
    """Mutant: stops one DWH step early."""
    ref = activations.dwh_sign(l0, tol=tol)
    return _composite([tuple(r) for r in np.asarray(ref.params)[:-1]])


def dwh_plain_halley(l0: float, *, tol: float) -> Any:
    """Mutant: un-weighted Halley steps ``(3, 1, 3)`` with the DWH step count."""
    ref = activations.dwh_sign(l0, tol=tol)
    return _composite([(3.0, 1.0, 3.0)] * ref.iterations)


def dwh_wrong_c(l0: float, *, tol: float) -> Any:
    """Mutant: ``c = a + b`` instead of ``a + b - 1`` (then ``f(1) != 1``)."""
    ref = activations.dwh_sign(l0, tol=tol)
    return _composite([(a, b, a + b) for a, b, _ in np.asarray(ref.params)])


def dwh_halley_to_convergence(l0: float, *, tol: float) -> Any:
    """Mutant: plain Halley steps ``(3, 1, 3)`` taken until ``1 - l_K <= tol`` (a sign
    approximant meeting every bound of the suite, but not the DWH composite)."""
    ell, steps = l0, 0
    while 1.0 - ell > tol and steps < 200:
        ell = min(1.0, ell * (3.0 + ell * ell) / (1.0 + 3.0 * ell * ell))
        steps += 1
    return _composite([(3.0, 1.0, 3.0)] * steps)


def dwh_even(l0: float, *, tol: float) -> Any:
    """Mutant: ``|x|`` in place of ``x`` in the first factor (not odd)."""
    ref = activations.dwh_sign(l0, tol=tol)
    return _composite([tuple(r) for r in np.asarray(ref.params)], odd=False)


# ----------------------------------------------------------------------------- composition


def _compose_ref(maps: Any) -> tuple[FloatArray, FloatArray]:
    out = activations.compose_rationals(list(maps))
    return np.array(out.num), np.array(out.den)


def compose_reversed(maps: Any) -> tuple[FloatArray, FloatArray]:
    """Mutant: applies the maps in the wrong order."""
    return _compose_ref(list(maps)[::-1])


def compose_truncated(maps: Any) -> tuple[FloatArray, FloatArray]:
    """Mutant: drops the leading numerator coefficient (a degree bookkeeping error)."""
    num, den = _compose_ref(maps)
    return num[:-1], den


def compose_own_degree(maps: Any) -> tuple[FloatArray, FloatArray]:
    """Mutant: homogenises numerator and denominator with their own degrees, not the max."""
    items = [(np.asarray(n, dtype=np.float64), np.asarray(d, dtype=np.float64)) for n, d in maps]
    big_p, big_q = np.array([0.0, 1.0]), np.array([1.0])
    for a, b in items:

        def homog(coeffs: FloatArray, p: FloatArray, q: FloatArray) -> FloatArray:
            d = coeffs.size - 1
            total = np.zeros(1)
            for i, c in enumerate(coeffs):
                term = _poly.polymul(_poly.polypow(p, i), _poly.polypow(q, d - i)) * c
                total = _poly.polyadd(total, term)
            return np.asarray(total, dtype=np.float64)

        big_p, big_q = homog(a, big_p, big_q), homog(b, big_p, big_q)
    return big_p, big_q
