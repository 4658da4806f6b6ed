"""Univariate piecewise polynomials and unions of closed intervals (spec 04 §3.1, "PP").

A :class:`PiecewisePolynomial` is a function on a line: sorted breakpoints
``t_0 < … < t_K``, one polynomial per open piece ``(t_k, t_{k+1})`` (power basis in
``x``, numpy's low-to-high order), an explicit value at every breakpoint, and 0 outside
``[t_0, t_K]``.  Semantics (our design, spec 04 §2): piecewise functions are evaluated by
their *upper-semicontinuous* envelope, so a user-given PP takes ``max(left, right)`` at
its breakpoints; messages of MpMap store the value computed *at* the breakpoint
directly.  Products are pointwise, so breakpoint values multiply.

Intervals are tuples of ``(lo, hi)`` pairs, sorted, disjoint, closed (``lo <= hi``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.polynomial import polynomial as npoly
from numpy.typing import ArrayLike

from reference._arrays import FloatArray, as_float_array, readonly
from reference._repr import summary_repr

__all__ = ["INSIDE_TOL", "Intervals", "PiecewisePolynomial", "pp_from_pieces"]

#: Tolerance for "inside" / merging of points (spec 04 §3.1: 1e-12).
INSIDE_TOL = 1e-12

Intervals = tuple[tuple[float, float], ...]


def _union_intervals(parts: Sequence[tuple[float, float]]) -> Intervals:
    """Sorted union of closed intervals (empty ones, ``lo > hi``, dropped)."""
    # closure: an interval reversed by rounding (a − b <= INSIDE_TOL) is kept as a point
    items = sorted((float(a), max(float(a), float(b))) for a, b in parts if a <= b + INSIDE_TOL)
    out: list[tuple[float, float]] = []
    for a, b in items:
        if out and a <= out[-1][1] + INSIDE_TOL:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)


def _intersect_intervals(left: Intervals, right: Intervals) -> Intervals:
    """Intersection of two sorted unions of closed intervals."""
    out: list[tuple[float, float]] = []
    i = j = 0
    while i < len(left) and j < len(right):
        a = max(left[i][0], right[j][0])
        b = min(left[i][1], right[j][1])
        if a <= b + INSIDE_TOL:  # closure: keep a point lost to rounding
            out.append((a, max(a, b)))
        if left[i][1] < right[j][1]:
            i += 1
        else:
            j += 1
    return tuple(out)


def _real_roots(coeffs: FloatArray, lo: float, hi: float) -> list[float]:
    """Real roots of a polynomial strictly inside ``(lo, hi)`` (tolerance INSIDE_TOL)."""
    c = np.trim_zeros(np.asarray(coeffs, dtype=np.float64), "b")
    if c.size <= 1:
        return []
    scale = float(np.max(np.abs(c)))
    if scale == 0.0:
        return []
    roots = npoly.polyroots(c / scale)
    out = []
    for r in roots:
        if abs(r.imag) <= 1e-9 * max(1.0, abs(r.real)):
            x = float(r.real)
            if lo + INSIDE_TOL < x < hi - INSIDE_TOL:
                out.append(x)
    return sorted(out)


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class PiecewisePolynomial:
    """A piecewise polynomial on ``[t_0, t_K]`` (0 outside), explicit breakpoint values.

    Attributes:
        breaks: ``(K + 1,)`` strictly increasing breakpoints.
        coeffs: ``K`` coefficient arrays (low-to-high power basis in ``x``), one per piece.
        at_breaks: ``(K + 1,)`` the function's value at each breakpoint.
    """

    breaks: FloatArray
    coeffs: tuple[FloatArray, ...]
    at_breaks: FloatArray

    @property
    def lo(self) -> float:
        """Left end ``t_0`` of the support interval."""
        return float(self.breaks[0])

    @property
    def hi(self) -> float:
        """Right end ``t_K``."""
        return float(self.breaks[-1])

    @property
    def degree(self) -> int:
        """Largest piece degree."""
        return max((len(np.trim_zeros(c, "b")) - 1 for c in self.coeffs), default=0)

    def piece_value(self, k: int, x: float) -> float:
        """Polynomial of piece ``k`` at ``x`` (no range check)."""
        return float(npoly.polyval(x, self.coeffs[k]))

    def __call__(self, x: float) -> float:
        """Value at ``x``: breakpoint value at a breakpoint, the piece polynomial inside."""
        if x < self.lo - INSIDE_TOL or x > self.hi + INSIDE_TOL:
            return 0.0
        idx = int(np.searchsorted(self.breaks, x))
        for j in (idx - 1, idx):
            if 0 <= j < self.breaks.size and abs(x - self.breaks[j]) <= INSIDE_TOL:
                return float(self.at_breaks[j])
        k = min(max(idx - 1, 0), len(self.coeffs) - 1)
        return self.piece_value(k, x)

    def stationary_points(self) -> list[float]:
        """Real roots of ``p_k′`` strictly inside each piece (all pieces)."""
        out: list[float] = []
        for k, c in enumerate(self.coeffs):
            der = np.asarray(npoly.polyder(c), dtype=np.float64)
            out.extend(_real_roots(der, float(self.breaks[k]), float(self.breaks[k + 1])))
        return out

    def critical_points(self) -> list[float]:
        """Breakpoints and stationary points (where a maximum over an interval can sit)."""
        return sorted([float(t) for t in self.breaks] + self.stationary_points())

    def argmax_on_intervals(self, intervals: Intervals) -> tuple[float, float | None]:
        """``(max value, smallest argmax)`` over a union of closed intervals (``(0, None)``
        when the union is empty).  Candidates: interval ends, breakpoints and stationary
        points inside (spec 04 §3.1, ``argmax_on_intervals``).  Ties (within ``INSIDE_TOL``
        *relative* to the best value, so scaling the function keeps the argmax) go to the
        smallest ``x``."""
        best = -np.inf
        arg: float | None = None
        crit = self.critical_points()
        for a, b in intervals:
            cands = [a, b] + [t for t in crit if a - INSIDE_TOL <= t <= b + INSIDE_TOL]
            for x in sorted(cands):
                x = min(max(x, a), b)
                v = self(x)
                if arg is None or v > best + INSIDE_TOL * abs(best):
                    best, arg = v, x
        if arg is None:
            return 0.0, None
        return float(best), arg

    def multiply(self, other: PiecewisePolynomial) -> PiecewisePolynomial:
        """Pointwise product (support: the intersection of the supports)."""
        lo, hi = max(self.lo, other.lo), min(self.hi, other.hi)
        if lo > hi:
            return _pp_constant(0.0, self.lo, self.lo)
        pts = [t for t in np.concatenate([self.breaks, other.breaks]) if lo <= t <= hi]
        breaks = _merge_points([lo, hi, *pts])
        coeffs = []
        for a, b in itertools.pairwise(breaks):
            mid = 0.5 * (a + b)
            coeffs.append(npoly.polymul(self._coeffs_at(mid), other._coeffs_at(mid)))
        at = np.array([self(t) * other(t) for t in breaks])
        return PiecewisePolynomial(
            breaks=readonly(np.array(breaks)),
            coeffs=tuple(readonly(np.asarray(c, dtype=np.float64)) for c in coeffs),
            at_breaks=readonly(at),
        )

    def _coeffs_at(self, x: float) -> FloatArray:
        if x < self.lo or x > self.hi:
            return np.zeros(1)
        k = int(np.clip(np.searchsorted(self.breaks, x) - 1, 0, len(self.coeffs) - 1))
        return self.coeffs[k]

    def compose_affine(self, k: int, beta0: float, beta1: float) -> FloatArray:
        """Coefficients of ``p_k(β₀ + β₁ x)`` (piece ``k`` composed with an affine map)."""
        out: FloatArray = np.zeros(1)
        power: FloatArray = np.ones(1)
        for c in self.coeffs[k]:
            out = np.asarray(npoly.polyadd(out, c * power), dtype=np.float64)
            power = np.asarray(npoly.polymul(power, [beta0, beta1]), dtype=np.float64)
        return out

    def piece_of(self, x: float) -> int:
        """Index of the piece whose open interval contains ``x`` (clamped)."""
        return int(np.clip(np.searchsorted(self.breaks, x) - 1, 0, len(self.coeffs) - 1))


def _merge_points(points: Sequence[float]) -> list[float]:
    out: list[float] = []
    for p in sorted(float(v) for v in points):
        if not out or p > out[-1] + INSIDE_TOL:
            out.append(p)
    return out


def pp_from_pieces(breaks: ArrayLike, coeffs: Sequence[object]) -> PiecewisePolynomial:
    """A user PP: breakpoint values are the upper-semicontinuous ``max(left, right)``.

    Args:
        breaks: ``(K + 1,)`` strictly increasing finite breakpoints.
        coeffs: ``K`` 1-D coefficient arrays (low-to-high power basis in ``x``).

    Returns:
        The :class:`PiecewisePolynomial`.

    Raises:
        TypeError: non-numeric input.
        ValueError: non-increasing breakpoints, wrong number of pieces, non-finite values.

    Example:
        >>> f = pp_from_pieces([0.0, 0.5, 1.0], [[1.0], [0.0, 1.0]])  # 1 then x
        >>> f(0.25), f(0.5), f(0.75)
        (1.0, 1.0, 0.75)
    """
    t = as_float_array("breaks", breaks, ndim=1)
    if t.size < 2 or not bool(np.all(np.diff(t) > 0)):
        raise ValueError(f"breaks: expected >= 2 strictly increasing values, got {t.tolist()}")
    if len(coeffs) != t.size - 1:
        raise ValueError(f"coeffs: expected {t.size - 1} pieces, got {len(coeffs)}")
    cs = tuple(readonly(as_float_array(f"coeffs[{k}]", c, ndim=1)) for k, c in enumerate(coeffs))
    at = np.empty(t.size)
    for j in range(t.size):
        vals = []
        if j > 0:
            vals.append(float(npoly.polyval(t[j], cs[j - 1])))
        if j < t.size - 1:
            vals.append(float(npoly.polyval(t[j], cs[j])))
        at[j] = max(vals)
    return PiecewisePolynomial(breaks=readonly(t), coeffs=cs, at_breaks=readonly(at))


def _pp_constant(value: float, lo: float, hi: float) -> PiecewisePolynomial:
    """The constant ``value`` on ``[lo, hi]`` (a single point when ``lo == hi``)."""
    if hi <= lo:
        return PiecewisePolynomial(
            breaks=readonly(np.array([lo, lo + INSIDE_TOL * 10])),
            coeffs=(readonly(np.array([0.0])),),
            at_breaks=readonly(np.array([value, 0.0])),
        )
    return PiecewisePolynomial(
        breaks=readonly(np.array([lo, hi])),
        coeffs=(readonly(np.array([float(value)])),),
        at_breaks=readonly(np.array([float(value), float(value)])),
    )


def _pp_indicator(intervals: Intervals, lo: float, hi: float) -> PiecewisePolynomial:
    """``1[x ∈ ∪ intervals]`` on ``[lo, hi]`` (closed intervals: 1 at their ends)."""
    pts = _merge_points([lo, hi, *[v for iv in intervals for v in iv if lo <= v <= hi]])
    if len(pts) == 1:
        pts.append(pts[0] + 10 * INSIDE_TOL)

    def inside(x: float) -> bool:
        return any(a - INSIDE_TOL <= x <= b + INSIDE_TOL for a, b in intervals)

    coeffs = tuple(
        readonly(np.array([1.0 if inside(0.5 * (a + b)) else 0.0]))
        for a, b in itertools.pairwise(pts)
    )
    at = np.array([1.0 if inside(p) else 0.0 for p in pts])
    return PiecewisePolynomial(
        breaks=readonly(np.array(pts)), coeffs=coeffs, at_breaks=readonly(at)
    )
