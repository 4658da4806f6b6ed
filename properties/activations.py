"""Conformance suites for rational activations and the rational constructions of spec 16.

Suites:

* ``activations.rational`` — the safe version-A rational the paper's experiments ran,
  ``fn(x, p, q) -> σ(x)``, ``σ = P(x)/(1 + Σ_j |b_j| |x|^j)`` (spec 16 §8.1; invariants of §5).
  The value is unique, so one check compares with :func:`reference.activations.rational`; the
  others test the defining properties, version A's own ones included (the denominator
  recomputed from the output, the sign of each ``b_j`` irrelevant, the kink of ``|x|`` at 0,
  the closed-form gradients against difference quotients of the output).
* ``activations.rational_b`` — the declared variant, version B ``σ = P(x)/(1 + |x Q_b(x)|)``
  (the form spec 16 §2 first credited to the paper), with the same generic checks.
* ``activations.newman`` — Newman's approximant ``fn(n) -> r_n`` (a callable on points).
* ``activations.sign_composite`` — a type-(3,2) Zolotarev/DWH sign composite
  ``fn(l0, *, tol) -> s_K`` (a callable on points) and the ``|x| ≈ x s_K(x)`` it yields.
* ``activations.compose`` — rational composition ``fn(maps) -> (num, den)`` with ``maps`` a
  list of ``(num, den)`` coefficient pairs, ``maps[0]`` applied first.

Tolerances are ``caps.tolerance`` (default 1e-6) relative to ``1 + |value|`` unless a check
states the spec's own tolerance.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from properties._runner import (
    Capabilities,
    CheckFailure,
    Suite,
    expect,
    expect_le,
    expect_raises,
)
from properties._suite import check
from properties.adapters import (
    TorchModuleCall,
    adapt_output,
    as_torch_module,
    is_torch_module,
    to_numpy,
)
from reference import activations
from reference._arrays import FloatArray

__all__ = [
    "COMPOSE",
    "NEWMAN",
    "RATIONAL",
    "RATIONAL_B",
    "SIGN_COMPOSITE",
    "SUITES",
    "Composer",
    "NewmanConstruction",
    "SafeRational",
    "SignComposite",
    "abs_grid",
    "coefficient_arrays",
    "evaluation_points",
]

_PAPER = "Tang & Townsend (ICML 2026)"
MAX_COEFF = 1e3
MAX_X = 1e3


# ----------------------------------------------------------------------------- protocols


class SafeRational(Protocol):
    """``(x any shape, p (m+1,), q (n,)) -> σ(x)`` of the shape of ``x`` (version A or B)."""

    def __call__(self, x: FloatArray, p: FloatArray, q: FloatArray, /) -> FloatArray:
        """Evaluate the safe rational."""
        ...


class NewmanConstruction(Protocol):
    """``n -> r_n`` where ``r_n(x)`` evaluates Newman's approximant of ``|x|``."""

    def __call__(self, n: int, /) -> Callable[[FloatArray], FloatArray]:
        """Build ``r_n``."""
        ...


class SignComposite(Protocol):
    """``(l0, tol) -> s`` with ``s(x)`` the sign composite from lower bound ``l0``."""

    def __call__(self, l0: float, tol: float, /) -> Callable[[FloatArray], FloatArray]:
        """Build the composite."""
        ...


class Composer(Protocol):
    """``[(num, den), ...] -> (num, den)``: ascending coefficients, ``maps[0]`` applied first."""

    def __call__(
        self, maps: Sequence[tuple[FloatArray, FloatArray]], /
    ) -> tuple[FloatArray, FloatArray]:
        """Compose the rational maps."""
        ...


# ----------------------------------------------------------------------------- strategies


def _floats(bound: float) -> st.SearchStrategy[float]:
    return st.floats(-bound, bound, allow_nan=False, allow_infinity=False, allow_subnormal=False)


@st.composite
def coefficient_arrays(
    draw: st.DrawFn, size: int, *, bound: float = MAX_COEFF, label: str = "coefficients"
) -> FloatArray:
    """A ``(size,)`` float64 array with entries in ``[-bound, bound]``."""
    out: FloatArray = draw(hnp.arrays(np.float64, (size,), elements=_floats(bound)), label=label)
    return out


@st.composite
def evaluation_points(draw: st.DrawFn, *, bound: float = MAX_X) -> FloatArray:
    """Points of a drawn shape (0-d, 1-d or 2-d) with entries in ``[-bound, bound]``."""
    shape = draw(st.sampled_from([(), (1,), (5,), (3, 4), (2, 1, 3)]), label="shape of x")
    out: FloatArray = draw(hnp.arrays(np.float64, shape, elements=_floats(bound)), label="x")
    return out


def abs_grid(size: int = 4001) -> FloatArray:
    """A grid of ``[-1, 1]`` dense near 0 (logspace tails) and uniform elsewhere."""
    tail = np.logspace(-14.0, 0.0, size)
    out: FloatArray = np.unique(np.concatenate([tail, -tail, [0.0], np.linspace(-1.0, 1.0, size)]))
    return out


def _degrees(data: st.DataObject) -> tuple[int, int]:
    m = data.draw(st.integers(0, 5), label="numerator degree m")
    n = data.draw(st.integers(0, 4), label="denominator degree n")
    return m, n


def _close(got: FloatArray, want: FloatArray, tol: float) -> float:
    """Largest ``|got - want| / (1 + |want|)``; shape mismatch is a failure."""
    expect(
        got.shape == want.shape,
        what="output shape",
        measured=got.shape,
        allowed=want.shape,
    )
    if got.size == 0:
        return 0.0
    return float(np.max(np.abs(got - want) / (1.0 + np.abs(want))))


# ----------------------------------------------------------------------------- rational checks


def _call_rational(impl: SafeRational, x: FloatArray, p: FloatArray, q: FloatArray) -> FloatArray:
    out = to_numpy(impl(x.copy(), p.copy(), q.copy()), what="σ(x) returned by the implementation")
    expect(
        bool(np.all(np.isfinite(out))),
        what="σ(x) is finite for finite coefficients (denominator >= 1)",
        measured=f"{int(np.size(out) - np.count_nonzero(np.isfinite(out)))} non-finite entries",
        allowed="all finite",
    )
    return out


def _reference_check(version: activations.Version) -> Any:
    form = "P/(1 + Σ|b_j||x|^j)" if version == "A" else "P/(1 + |Q̃|)"

    @check("matches_reference", anchor=f"{_PAPER}: version {version}, σ = {form}")
    def matches(impl: SafeRational, data: st.DataObject, caps: Capabilities) -> None:
        """σ(x; p, q) equals the reference value (unique), elementwise for any shape of ``x``."""
        m, n = _degrees(data)
        x = data.draw(evaluation_points(bound=10.0), label="x")
        p = data.draw(coefficient_arrays(m + 1, bound=10.0, label="p"), label="p")
        q = data.draw(coefficient_arrays(n, bound=10.0, label="q"), label="q")
        got = _call_rational(impl, x, p, q)
        want = activations.rational(x, p, q, version=version)
        expect_le(
            _close(got, want, caps.tolerance),
            caps.tolerance,
            what=f"|σ - σ_ref| / (1 + |σ_ref|) (version {version})",
        )

    return matches


check_matches_reference = _reference_check("A")
check_matches_reference_b = _reference_check("B")


def _a_denominator(x: FloatArray, q: FloatArray) -> FloatArray:
    """``1 + Σ_j |b_j| |x|^j`` term by term (independent of the reference's evaluation)."""
    out = np.ones_like(x)
    for j, b in enumerate(q, start=1):
        out = out + abs(float(b)) * np.abs(x) ** j
    return out


@check(anchor=f"{_PAPER}: version A denominator 1 + Σ|b_j||x|^j")
def check_a_denominator(impl: SafeRational, data: st.DataObject, caps: Capabilities) -> None:
    """``P(x)/σ(x)`` equals ``1 + Σ_j |b_j| |x|^j`` wherever ``|P(x)| >= 0.1``, and flipping the
    sign of any one ``b_j`` leaves σ unchanged (version A; version B changes)."""
    m = data.draw(st.integers(0, 5), label="numerator degree m")
    n = data.draw(st.integers(1, 4), label="denominator degree n")
    x = np.concatenate(
        [data.draw(evaluation_points(bound=3.0), label="x").ravel(), np.linspace(-2, 2, 41)]
    )
    p = data.draw(coefficient_arrays(m + 1, bound=3.0, label="p"), label="p")
    p[0] = data.draw(st.floats(0.5, 3.0), label="a_0 (so P is away from 0 near x = 0)")
    q = data.draw(coefficient_arrays(n, bound=3.0, label="q"), label="q")
    got = _call_rational(impl, x, p, q)
    num = np.polynomial.polynomial.polyval(x, p)
    keep = np.abs(num) >= 0.1
    den = _a_denominator(x, q)
    measured = np.abs(num[keep] / np.where(got[keep] == 0.0, np.nan, got[keep]) - den[keep])
    rel = float(np.nanmax(measured / den[keep])) if np.any(keep) else 0.0
    if np.any(keep) and np.any(got[keep] == 0.0):
        rel = math.inf
    expect_le(rel, caps.tolerance, what="|P/σ - (1 + Σ|b_j||x|^j)| / (1 + Σ|b_j||x|^j)")
    j = data.draw(st.integers(0, n - 1), label="index of the flipped b_j")
    flipped = q.copy()
    flipped[j] = -flipped[j]
    expect_le(
        _close(_call_rational(impl, x, p, flipped), got, caps.tolerance),
        caps.tolerance,
        what=f"σ(x; a, b with b_{j + 1} negated) against σ(x; a, b)",
    )


@check(anchor=f"{_PAPER}: version A has the kink of |x| at 0")
def check_kink_at_zero(impl: SafeRational, data: st.DataObject, caps: Capabilities) -> None:
    """One-sided slopes at 0 differ by ``-2 a_0 |b_1|`` (the ``|b_1| |x|`` term of version A).

    ``σ(x) = (a_0 + a_1 x + O(x^2)) / (1 + |b_1| |x| + O(x^2))``, so
    ``σ'(0+) - σ'(0-) = -2 a_0 |b_1|``; measured by one-sided difference quotients
    (``|a_0| >= 0.5``, ``|b_1| >= 0.25``, so the jump is at least 0.25; ``h = 1e-7`` and the
    ``O(h)`` error is allowed up to ``1e-5 (1 + Σ|a_i| + Σ|b_j|)^3 <= 0.1``).
    """
    m = data.draw(st.integers(0, 5), label="numerator degree m")
    n = data.draw(st.integers(1, 4), label="denominator degree n")
    p = data.draw(coefficient_arrays(m + 1, bound=2.0, label="p"), label="p")
    q = data.draw(coefficient_arrays(n, bound=2.0, label="q"), label="q")
    p[0] = data.draw(st.floats(0.5, 2.0), label="|a_0|") * data.draw(
        st.sampled_from([-1.0, 1.0]), label="sign a_0"
    )
    q[0] = data.draw(st.floats(0.25, 2.0), label="|b_1|") * data.draw(
        st.sampled_from([-1.0, 1.0]), label="sign b_1"
    )
    h = 1e-7
    vals = _call_rational(impl, np.array([-h, 0.0, h]), p, q)
    jump = (vals[2] - vals[1]) / h - (vals[1] - vals[0]) / h
    want = -2.0 * p[0] * abs(q[0])
    scale = (1.0 + float(np.sum(np.abs(p)) + np.sum(np.abs(q)))) ** 3
    expect_le(
        abs(jump - want),
        1e-5 * scale,
        what="|σ'(0+) - σ'(0-) - (-2 a_0 |b_1|)| by one-sided quotients",
    )


@check(anchor=f"{_PAPER}, R1: version-A gradients")
def check_a_gradients(impl: SafeRational, data: st.DataObject, caps: Capabilities) -> None:
    """Central differences of the output in ``x``, ``a_i`` and ``b_j`` equal the closed forms
    ``∂σ/∂a_i = x^i/D``, ``∂σ/∂b_j = -P sign(b_j)|x|^j/D^2``, ``∂σ/∂x = (P'D - P D')/D^2``
    (``D = 1 + Σ|b_j||x|^j``), away from the kinks (``|x| >= 0.1``, ``|b_j| >= 0.05``);
    ``h = 1e-6``, relative error ``<= 1e-5``."""
    m = data.draw(st.integers(1, 5), label="numerator degree m")
    n = data.draw(st.integers(1, 4), label="denominator degree n")
    x = data.draw(st.floats(0.1, 2.0), label="|x|") * data.draw(
        st.sampled_from([-1.0, 1.0]), label="sign x"
    )
    p = data.draw(coefficient_arrays(m + 1, bound=1.0, label="p"), label="p")
    mags = data.draw(hnp.arrays(np.float64, (n,), elements=st.floats(0.05, 1.0)), label="|b|")
    signs = data.draw(
        hnp.arrays(np.float64, (n,), elements=st.sampled_from([-1.0, 1.0])), label="signs of b"
    )
    q = mags * signs
    poly = np.polynomial.polynomial
    num = float(poly.polyval(x, p))
    dnum = float(poly.polyval(x, poly.polyder(p)))
    ax, j = abs(x), np.arange(1, n + 1)
    den = 1.0 + float(np.sum(np.abs(q) * ax**j))
    dden = math.copysign(1.0, x) * float(np.sum(j * np.abs(q) * ax ** (j - 1)))
    exact = [(dnum * den - num * dden) / den**2]
    exact += [x**i / den for i in range(m + 1)]
    exact += [
        -num * math.copysign(1.0, float(b)) * ax**k / den**2 for k, b in zip(j, q, strict=True)
    ]
    h = 1e-6

    def at(xv: float, pv: FloatArray, qv: FloatArray) -> float:
        return float(_call_rational(impl, np.array([xv]), pv, qv)[0])

    fd = [(at(x + h, p, q) - at(x - h, p, q)) / (2 * h)]
    for vec, which in ((p, "p"), (q, "q")):
        for i in range(vec.size):
            up, down = vec.copy(), vec.copy()
            up[i] += h
            down[i] -= h
            if which == "p":
                fd.append((at(x, up, q) - at(x, down, q)) / (2 * h))
            else:
                fd.append((at(x, p, up) - at(x, p, down)) / (2 * h))
    err = np.abs(np.array(fd) - np.array(exact)) / (1.0 + np.abs(np.array(exact)))
    expect_le(float(np.max(err)), 1e-5, what="max |difference quotient - closed form| (rel.)")


@check(anchor=f"{_PAPER}: denominator >= 1, output finite")
def check_bounded_by_numerator(impl: SafeRational, data: st.DataObject, caps: Capabilities) -> None:
    """The denominator is ``>= 1``: ``|σ(x)| <= |P(x)|`` and σ is finite, for ``|x|, |coeff| <= 1e3``."""
    m, n = _degrees(data)
    scale = data.draw(st.sampled_from([1.0, 10.0, MAX_X]), label="bound on |x| and |coeff|")
    drawn = data.draw(evaluation_points(bound=scale), label="x")
    # the drawn points plus a fixed grid through 0, where |Q̃| is small
    x = np.concatenate([drawn.ravel(), np.linspace(-2.0, 2.0, 81)])
    p = data.draw(coefficient_arrays(m + 1, bound=scale, label="p"), label="p")
    q = data.draw(coefficient_arrays(n, bound=scale, label="q"), label="q")
    got = _call_rational(impl, x, p, q)
    num = np.polynomial.polynomial.polyval(x, p)
    excess = float(np.max(np.abs(got) - np.abs(num) * (1.0 + caps.tolerance))) if x.size else 0.0
    expect_le(excess, 0.0, what="max(|σ(x)| - |P(x)|) (denominator must be >= 1)")


@check(anchor=f"{_PAPER}: b = 0 reproduces P")
def check_polynomial_when_b_zero(
    impl: SafeRational, data: st.DataObject, caps: Capabilities
) -> None:
    """``b = 0`` reproduces the polynomial ``P`` exactly (up to rounding)."""
    m, n = _degrees(data)
    x = data.draw(evaluation_points(bound=10.0), label="x")
    p = data.draw(coefficient_arrays(m + 1, bound=10.0, label="p"), label="p")
    got = _call_rational(impl, x, p, np.zeros(n))
    want = np.asarray(np.polynomial.polynomial.polyval(x, p), dtype=np.float64)
    expect_le(_close(got, want, caps.tolerance), caps.tolerance, what="σ(x; a, 0) against P(x)")


@check(anchor=f"{_PAPER}: odd/even coefficients")
def check_parity(impl: SafeRational, data: st.DataObject, caps: Capabilities) -> None:
    """Odd coefficients only (``a_even = 0``, ``b_odd = 0``) give an odd σ; even ones an even σ."""
    m, n = _degrees(data)
    kind = data.draw(st.sampled_from(["odd", "even"]), label="parity")
    x = data.draw(evaluation_points(bound=10.0), label="x")
    p = data.draw(coefficient_arrays(m + 1, bound=10.0, label="p"), label="p")
    q = data.draw(coefficient_arrays(n, bound=10.0, label="q"), label="q")
    powers_p = np.arange(m + 1)
    powers_q = np.arange(1, n + 1)
    # Q̃ must be even for both parities (then |Q̃(-x)| = |Q̃(x)|): keep even powers of b.
    q = np.where(powers_q % 2 == 0, q, 0.0)
    p = np.where(powers_p % 2 == (1 if kind == "odd" else 0), p, 0.0)
    plus = _call_rational(impl, x, p, q)
    minus = _call_rational(impl, -x, p, q)
    sign = -1.0 if kind == "odd" else 1.0
    expect_le(
        _close(minus, sign * plus, caps.tolerance),
        caps.tolerance,
        what=f"σ(-x) against {'-' if kind == 'odd' else ''}σ(x) for {kind} coefficients",
    )


@check(anchor=f"{_PAPER}: σ(x; c a, b) = c σ(x; a, b)")
def check_linear_in_numerator(impl: SafeRational, data: st.DataObject, caps: Capabilities) -> None:
    """σ(x; c a, b) = c σ(x; a, b)."""
    m, n = _degrees(data)
    x = data.draw(evaluation_points(bound=10.0), label="x")
    p = data.draw(coefficient_arrays(m + 1, bound=10.0, label="p"), label="p")
    q = data.draw(coefficient_arrays(n, bound=10.0, label="q"), label="q")
    c = data.draw(_floats(10.0), label="c")
    base = _call_rational(impl, x, p, q)
    scaled = _call_rational(impl, x, c * p, q)
    expect_le(
        _close(scaled, c * base, caps.tolerance) / max(1.0, abs(c)),
        caps.tolerance,
        what="σ(x; c a, b) against c σ(x; a, b)",
    )


@check(anchor=f"{_PAPER}: σ(x; a, b) = σ(x; a, -b)")
def check_sign_of_b_irrelevant(impl: SafeRational, data: st.DataObject, caps: Capabilities) -> None:
    """σ(x; a, b) = σ(x; a, -b): the absolute value makes the sign of Q̃ irrelevant."""
    m, n = _degrees(data)
    x = data.draw(evaluation_points(bound=10.0), label="x")
    p = data.draw(coefficient_arrays(m + 1, bound=10.0, label="p"), label="p")
    q = data.draw(coefficient_arrays(max(n, 1), bound=10.0, label="q"), label="q")
    expect_le(
        _close(_call_rational(impl, x, p, -q), _call_rational(impl, x, p, q), caps.tolerance),
        caps.tolerance,
        what="σ(x; a, -b) against σ(x; a, b)",
    )


@check(anchor=f"{_PAPER}: growth at |x| -> inf")
def check_growth(impl: SafeRational, data: st.DataObject, caps: Capabilities) -> None:
    """For ``|x| -> inf``: σ(x) ~ (a_m / |b_n|) x^m / |x|^n (at ``x = ±1e4``, rel. tol 1e-3).

    Leading coefficients are drawn with ``|a_m|, |b_n| in [0.5, 1]`` and the others in
    ``[-1, 1]``, so the next-order terms are below ``1e-3`` relative at ``|x| = 1e4``.
    """
    m = data.draw(st.integers(0, 5), label="numerator degree m")
    n = data.draw(st.integers(1, 4), label="denominator degree n")
    p = data.draw(coefficient_arrays(m + 1, bound=1.0, label="p"), label="p")
    q = data.draw(coefficient_arrays(n, bound=1.0, label="q"), label="q")
    lead_p = data.draw(st.floats(0.5, 1.0), label="|a_m|") * data.draw(
        st.sampled_from([-1.0, 1.0]), label="sign a_m"
    )
    lead_q = data.draw(st.floats(0.5, 1.0), label="|b_n|") * data.draw(
        st.sampled_from([-1.0, 1.0]), label="sign b_n"
    )
    p[-1], q[-1] = lead_p, lead_q
    x = np.array([-1e4, 1e4])
    got = _call_rational(impl, x, p, q)
    want = lead_p / abs(lead_q) * x**m / np.abs(x) ** n
    rel = float(np.max(np.abs(got - want) / np.abs(want)))
    expect_le(rel, 1e-3, what="relative deviation from (a_m/|b_n|) x^m/|x|^n at x = ±1e4")


@check(anchor=f"{_PAPER}: safe = true rational where Q̃ >= 0")
def check_true_rational_agreement(
    impl: SafeRational, data: st.DataObject, caps: Capabilities
) -> None:
    """Where ``Q̃ >= 0`` (even powers, ``b_j >= 0``), σ equals the true rational P/(1 + Q̃)."""
    m, n = _degrees(data)
    x = data.draw(evaluation_points(bound=10.0), label="x")
    p = data.draw(coefficient_arrays(m + 1, bound=10.0, label="p"), label="p")
    q = np.abs(data.draw(coefficient_arrays(n, bound=10.0, label="q"), label="q"))
    q[0::2] = 0.0  # b_1, b_3, ... = 0: Q̃ = b_2 x^2 + b_4 x^4 >= 0
    got = _call_rational(impl, x, p, q)
    full = np.concatenate([[1.0], q])
    want = np.polynomial.polynomial.polyval(x, p) / np.polynomial.polynomial.polyval(x, full)
    expect_le(
        _close(got, np.asarray(want, dtype=np.float64), caps.tolerance),
        caps.tolerance,
        what="σ against the true rational where Q̃ >= 0",
    )


@check(
    anchor="input contract: invalid input raises ValueError or TypeError",
    requires=frozenset({"raises_on_invalid"}),
)
def check_rejects_invalid_input(
    impl: SafeRational, data: st.DataObject, caps: Capabilities
) -> None:
    """Non-finite coefficients or points and a non-1-D ``p`` raise ValueError/TypeError."""
    m, n = _degrees(data)
    x = data.draw(evaluation_points(bound=10.0), label="x")
    p = data.draw(coefficient_arrays(m + 1, bound=10.0, label="p"), label="p")
    q = data.draw(coefficient_arrays(n, bound=10.0, label="q"), label="q")
    kind = data.draw(st.sampled_from(["nan p", "inf q", "nan x", "2-D p"]), label="corruption")
    if kind == "nan p":
        p[0] = np.nan
    elif kind == "inf q" and n:
        q[-1] = np.inf
    elif kind == "nan x":
        x = np.full(np.shape(x), np.nan)
    else:
        p = p[None, :]
    if kind == "inf q" and not n:
        q = np.array([np.inf])
    expect_raises(lambda: impl(x, p, q), (ValueError, TypeError), what=f"σ with {kind}")


# ----------------------------------------------------------------------------- Newman checks


def _newman(impl: NewmanConstruction, n: int, x: FloatArray) -> FloatArray:
    fn = impl(n)
    return to_numpy(fn(x.copy()), what=f"r_{n}(x) returned by the construction")


@check("error_bound", anchor="Newman (1964): max ||x| - r_n| <= 3 exp(-sqrt n)")
def check_newman_bound(impl: NewmanConstruction, data: st.DataObject, caps: Capabilities) -> None:
    """``max_{[-1,1]} ||x| - r_n(x)| <= 3 exp(-sqrt(n))`` (Newman 1964; holds also for n < 5)."""
    n = data.draw(st.integers(1, 60), label="n")
    grid = abs_grid(2001)
    err = float(np.max(np.abs(np.abs(grid) - _newman(impl, n, grid))))
    expect_le(err, 3.0 * math.exp(-math.sqrt(n)), what=f"sup error of r_{n} on [-1, 1]")


@check("shape", anchor="Tang & Townsend (ICML 2026): r_n even, r_n(0) = 0, r_n >= 0")
def check_newman_shape(impl: NewmanConstruction, data: st.DataObject, caps: Capabilities) -> None:
    """``r_n`` is even, ``r_n(0) = 0`` and ``r_n >= 0`` (it may exceed ``|x|``)."""
    n = data.draw(st.integers(1, 60), label="n")
    x = data.draw(
        hnp.arrays(np.float64, (8,), elements=st.floats(-1.0, 1.0, allow_subnormal=False)),
        label="x",
    )
    pts = np.concatenate([[0.0], x])
    plus, minus = _newman(impl, n, pts), _newman(impl, n, -pts)
    expect_le(float(np.max(np.abs(plus - minus))), 1e-14, what=f"max |r_{n}(x) - r_{n}(-x)| (even)")
    expect_le(abs(float(plus[0])), 0.0, what=f"|r_{n}(0)|")
    expect_le(-float(np.min(plus)), 1e-15, what=f"-min r_{n}(x) (non-negativity)")


@check(
    "matches_reference", anchor="Tang & Townsend (ICML 2026) R3.1: a = exp(-1/sqrt n), r_1 = x^2"
)
def check_newman_matches_reference(
    impl: NewmanConstruction, data: st.DataObject, caps: Capabilities
) -> None:
    """The construction is unique: ``r_n`` equals the reference (and ``r_1(x) = x^2``)."""
    n = data.draw(st.integers(1, 40), label="n")
    x = data.draw(
        hnp.arrays(np.float64, (16,), elements=st.floats(-1.0, 1.0, allow_subnormal=False)),
        label="x",
    )
    got = _newman(impl, n, x)
    expect_le(
        _close(got, activations.newman_abs(n)(x), caps.tolerance),
        caps.tolerance,
        what=f"r_{n} against the reference",
    )
    r1 = _newman(impl, 1, x)
    expect_le(_close(r1, x * x, caps.tolerance), caps.tolerance, what="r_1(x) against x^2")


# ----------------------------------------------------------------------------- sign composite checks


def _composite(impl: SignComposite, l0: float, tol: float, x: FloatArray) -> FloatArray:
    fn = impl(l0, tol)
    return to_numpy(fn(x.copy()), what="s_K(x) returned by the composite")


def _l0_tol(data: st.DataObject) -> tuple[float, float]:
    l0 = 10.0 ** -data.draw(st.integers(1, 16), label="-log10 l0")
    tol = 10.0 ** -data.draw(st.integers(2, 15), label="-log10 tol")
    return l0, tol


@check(
    "odd_and_bounded", anchor="Tang & Townsend (ICML 2026)/R3.3: s_K odd, |s_K| <= 1, s_K(1) = 1"
)
def check_sign_odd_and_bounded(
    impl: SignComposite, data: st.DataObject, caps: Capabilities
) -> None:
    """``s_K`` is odd, ``|s_K| <= 1 + 1e-12`` on ``[-1, 1]`` and ``s_K(1) = 1`` (1e-14)."""
    l0, tol = _l0_tol(data)
    grid = abs_grid(2001)
    s = _composite(impl, l0, tol, grid)
    s_neg = _composite(impl, l0, tol, -grid)
    expect_le(float(np.max(np.abs(s + s_neg))), 1e-14, what="max |s_K(x) + s_K(-x)| (odd)")
    expect_le(float(np.max(np.abs(s))), 1.0 + 1e-12, what="max |s_K| on [-1, 1]")
    one = _composite(impl, l0, tol, np.array([1.0]))
    expect_le(abs(float(one[0]) - 1.0), 1e-14, what="|s_K(1) - 1|")


@check(
    "lower_bound",
    anchor="Tang & Townsend (ICML 2026) R3.3: s_K maps [l0, 1] into [l_K, 1], 1 - l_K <= tol",
)
def check_sign_lower_bound(impl: SignComposite, data: st.DataObject, caps: Capabilities) -> None:
    """On ``[l0, 1]``: ``s_K(x) >= 1 - tol - 1e-12`` (the composite maps it into ``[l_K, 1]``)."""
    l0, tol = _l0_tol(data)
    xs = np.concatenate([np.logspace(math.log10(l0), 0.0, 2001), np.linspace(l0, 1.0, 2001)])
    s = _composite(impl, l0, tol, xs)
    expect_le(
        1.0 - float(np.min(s)), tol + 1e-12, what=f"1 - min s_K on [l0, 1] (l0={l0}, tol={tol})"
    )


@check(anchor="Tang & Townsend (ICML 2026) Z2: ||x| - x s_K(x)| <= eps")
def check_abs_accuracy(impl: SignComposite, data: st.DataObject, caps: Capabilities) -> None:
    """With ``l0 = tol = eps``: ``max_{[-1,1]} ||x| - x s_K(x)| <= eps`` (spec Z2)."""
    eps = 10.0 ** -data.draw(st.integers(1, 14), label="-log10 eps")
    grid = abs_grid(2001)
    s = _composite(impl, eps, eps, grid)
    err = float(np.max(np.abs(np.abs(grid) - grid * s)))
    expect_le(err, eps, what=f"max ||x| - x s_K(x)| for eps = {eps}")


def _dwh_composite_values(l0: float, tol: float, x: FloatArray) -> FloatArray:
    """``s_K(x)`` recomputed from spec 16 R3.3: from ``l = l0`` take DWH steps
    ``f(x) = x (a + b x^2) / (1 + c x^2)`` (``g = (4 (1 - l^2) / l^4)^(1/3)``,
    ``a = sqrt(1 + g) + sqrt(8 - 4 g + 8 (2 - l^2) / (l^2 sqrt(1 + g))) / 2``,
    ``b = (a - 1)^2 / 4``, ``c = a + b - 1``; ``l <- f(l)``) until ``1 - l <= tol``."""
    ell, out = l0, x.astype(np.float64).copy()
    for _ in range(50):
        if 1.0 - ell <= tol:
            break
        g = (4.0 * (1.0 - ell**2) / ell**4) ** (1.0 / 3.0)
        root = math.sqrt(1.0 + g)
        a = root + 0.5 * math.sqrt(8.0 - 4.0 * g + 8.0 * (2.0 - ell**2) / (ell**2 * root))
        b = (a - 1.0) ** 2 / 4.0
        c = a + b - 1.0
        out = out * (a + b * out**2) / (1.0 + c * out**2)
        ell = min(1.0, ell * (a + b * ell**2) / (1.0 + c * ell**2))
    return out


@check("matches_dwh", anchor=f"{_PAPER} R3.3: the DWH composite (unique given l0 and tol)")
def check_sign_matches_dwh(impl: SignComposite, data: st.DataObject, caps: Capabilities) -> None:
    """``s_K`` equals the DWH composite recomputed from the step formulas (the steps and their
    number are fixed by ``l0`` and ``tol``), on ``[-1, 1]`` and log-spaced points of
    ``[l0, 1]``; allowed ``1e-9`` (coefficient rounding amplified through ``K <= 6`` steps).
    Another sign approximant meeting the same bounds (plain Halley steps run longer,
    ``np.sign``) is a different algorithm and fails."""
    l0, tol = _l0_tol(data)
    xs = np.concatenate([abs_grid(401), np.logspace(math.log10(l0), 0.0, 401)])
    got = _composite(impl, l0, tol, xs)
    want = _dwh_composite_values(l0, tol, xs)
    expect_le(
        float(np.max(np.abs(got - want))),
        1e-9,
        what=f"max |s_K(x) - DWH composite(x)| (l0={l0}, tol={tol})",
    )


# ----------------------------------------------------------------------------- compose checks


def _pair(result: object) -> tuple[FloatArray, FloatArray]:
    if hasattr(result, "num") and hasattr(result, "den"):
        num, den = result.num, result.den
    elif isinstance(result, tuple | list) and len(result) == 2:
        num, den = result[0], result[1]
    else:
        raise CheckFailure(
            "composer output",
            measured=type(result).__name__,
            allowed="a pair (num, den) or an object with num and den",
        )
    return to_numpy(num, what="composite numerator"), to_numpy(den, what="composite denominator")


def _degree(coeffs: FloatArray) -> int:
    nz = np.flatnonzero(coeffs)
    return int(nz[-1]) if nz.size else 0


@st.composite
def _odd_32_maps(draw: st.DrawFn, depth: int) -> list[tuple[FloatArray, FloatArray]]:
    maps = []
    for k in range(depth):
        a = draw(st.floats(0.5, 3.0), label=f"a_{k}")
        b = draw(st.floats(0.1, 2.0), label=f"b_{k}")
        c = draw(st.floats(0.1, 3.0), label=f"c_{k}")
        maps.append((np.array([0.0, a, 0.0, b]), np.array([1.0, 0.0, c])))
    return maps


@check(
    anchor="Tang & Townsend (ICML 2026): K-fold odd type-(3,2) composite has type (3^K, 3^K - 1)"
)
def check_composite_type(impl: Composer, data: st.DataObject, caps: Capabilities) -> None:
    """``K``-fold (``K = 2, 3``) composite of odd type-(3,2) maps has type exactly ``(3^K, 3^K - 1)``."""
    depth = data.draw(st.integers(2, 3), label="K")
    maps = data.draw(_odd_32_maps(depth), label="maps")
    num, den = _pair(impl([(n.copy(), d.copy()) for n, d in maps]))
    got = (_degree(num), _degree(den))
    want = (3**depth, 3**depth - 1)
    expect(got == want, what=f"type of the {depth}-fold composite", measured=got, allowed=want)


@check(anchor="definition of composition")
def check_composite_values(impl: Composer, data: st.DataObject, caps: Capabilities) -> None:
    """The composite of ``K >= 2`` maps equals sequential evaluation ``r_K(...r_1(x))`` (rel. 1e-9)."""
    depth = data.draw(st.integers(2, 3), label="K")
    maps = []
    for k in range(depth):
        m = data.draw(st.integers(0, 3), label=f"numerator degree {k}")
        num = data.draw(coefficient_arrays(m + 1, bound=2.0, label="num"), label=f"num_{k}")
        # denominators 1 + c x^2 (c > 0) have no real roots: every stage stays finite
        c = data.draw(st.floats(0.1, 2.0), label=f"den x^2 coefficient {k}")
        maps.append((num, np.array([1.0, 0.0, c])))
    x = data.draw(
        hnp.arrays(np.float64, (12,), elements=st.floats(-1.0, 1.0, allow_subnormal=False)),
        label="x",
    )
    num, den = _pair(impl([(a.copy(), b.copy()) for a, b in maps]))
    poly = np.polynomial.polynomial
    got = poly.polyval(x, num) / poly.polyval(x, den)
    want = x.copy()
    for a, b in maps:
        want = poly.polyval(want, a) / poly.polyval(want, b)
    rel = float(np.max(np.abs(got - want) / (1.0 + np.abs(want))))
    expect_le(rel, 1e-9, what="composite against sequential evaluation")


# ----------------------------------------------------------------------------- adapters


#: How ``activations.rational`` calls a ``torch.nn.Module`` target: built from the coefficients.
RATIONAL_MODULE = TorchModuleCall(
    arguments=("x", "p", "q"),
    build=("p", "q"),
    forward=("x",),
    returns="sigma(x): the coefficients build the module",
)


def _adapt_rational(obj: object) -> SafeRational:
    inner = getattr(obj, "__wrapped__", obj)
    if is_torch_module(inner):  # an nn.Module class built as make(p, q), then called on x
        obj = as_torch_module(inner, RATIONAL_MODULE)
    if not callable(obj):
        raise TypeError(f"activations.rational: expected a callable, got {type(obj).__name__}")

    return adapt_output(obj, lambda out: to_numpy(out, what="σ(x)"))


def _adapt_callable_factory(name: str) -> Callable[[object], Any]:
    def adapt(obj: object) -> Any:
        if not callable(obj):
            raise TypeError(f"{name}: expected a callable, got {type(obj).__name__}")
        return obj

    return adapt


def _adapt_sign(obj: object) -> SignComposite:
    if not callable(obj):
        raise TypeError(
            f"activations.sign_composite: expected a callable, got {type(obj).__name__}"
        )

    @functools.wraps(obj)
    def fn(l0: float, tol: float) -> Callable[[FloatArray], FloatArray]:
        sign: Callable[[FloatArray], FloatArray] = obj(l0, tol=tol)
        return sign

    return fn


# ----------------------------------------------------------------------------- suites

RATIONAL: Suite[SafeRational] = Suite(
    name="activations.rational",
    protocol=SafeRational,
    checks=(
        check_matches_reference,
        check_a_denominator,
        check_kink_at_zero,
        check_a_gradients,
        check_bounded_by_numerator,
        check_polynomial_when_b_zero,
        check_parity,
        check_linear_in_numerator,
        check_sign_of_b_irrelevant,
        check_growth,
        check_true_rational_agreement,
        check_rejects_invalid_input,
    ),
    adapt=_adapt_rational,
    description="Safe version-A rational activations fn(x, p, q) (the paper's experiments): "
    "reference value, version-A denominator, kink at 0, gradients, denominator >= 1, "
    "polynomial case, parity, linearity in a, sign of b, growth, true form.",
    notes=(RATIONAL_MODULE.note(),),
)

RATIONAL_B: Suite[SafeRational] = Suite(
    name="activations.rational_b",
    protocol=SafeRational,
    checks=(
        check_matches_reference_b,
        check_bounded_by_numerator,
        check_polynomial_when_b_zero,
        check_parity,
        check_linear_in_numerator,
        check_sign_of_b_irrelevant,
        check_growth,
        check_true_rational_agreement,
        check_rejects_invalid_input,
    ),
    adapt=_adapt_rational,
    description="Declared variant: safe version-B rationals fn(x, p, q), P/(1 + |Q~|): "
    "reference value, denominator >= 1, polynomial case, parity, linearity, sign of b, growth.",
)

NEWMAN: Suite[NewmanConstruction] = Suite(
    name="activations.newman",
    protocol=NewmanConstruction,
    checks=(
        check_newman_bound,
        check_newman_shape,
        check_newman_matches_reference,
    ),
    adapt=_adapt_callable_factory("activations.newman"),
    description="Newman's rational approximant of |x|, fn(n) -> r_n: Newman's bound, parity, "
    "positivity, the unique construction.",
)

SIGN_COMPOSITE: Suite[SignComposite] = Suite(
    name="activations.sign_composite",
    protocol=SignComposite,
    checks=(
        check_sign_odd_and_bounded,
        check_sign_lower_bound,
        check_abs_accuracy,
        check_sign_matches_dwh,
    ),
    adapt=_adapt_sign,
    description="Type-(3,2) Zolotarev/DWH sign composites fn(l0, tol=...) -> s_K: oddness, "
    "|s_K| <= 1, lower bound on [l0, 1], |x| to accuracy eps, the DWH composite itself.",
)

COMPOSE: Suite[Composer] = Suite(
    name="activations.compose",
    protocol=Composer,
    checks=(
        check_composite_type,
        check_composite_values,
    ),
    adapt=_adapt_callable_factory("activations.compose"),
    description="Rational composition fn([(num, den), ...]) -> (num, den): exact type of "
    "K-fold odd (3,2) composites, values equal sequential evaluation.",
)

SUITES = (RATIONAL, RATIONAL_B, NEWMAN, SIGN_COMPOSITE, COMPOSE)
