"""Conformance suites for the SoSD spectral diagnostics (spec 15).

* ``spectral.normalized_spectrum`` — ``W (m, n) -> σ̂ (min(m, n),)``: on the simplex and sorted,
  invariant to scaling (any ``c != 0``), to orthogonal transforms on either side and to
  transposition; exact on rank-one, orthonormal-column and diagonal matrices; the unique answer.
* ``spectral.variation`` — ``(W_a, W_b) -> ΔΣ``: a metric on singular distributions (symmetric,
  ``>= 0``, zero for scaled copies, triangle inequality, ``<= √2``), obeys the per-step bound L1,
  the unique answer.

Matrices are drawn with shapes 1–6 × 1–6 and entry scales from 1e-6 to 1e6 (spec 15, section 5).
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import numpy as np
from hypothesis import strategies as st

from properties._runner import Capabilities, Suite, expect, expect_close, expect_le
from properties._suite import check
from properties.adapters import to_numpy
from properties.strategies import (
    distinct_float_arrays,
    orthogonal_matrices,
    permutations,
    sign_arrays,
)
from reference import spectral as sp
from reference._arrays import FloatArray

__all__ = [
    "NORMALIZED_SPECTRUM",
    "SUITES",
    "VARIATION",
    "SpectrumFn",
    "VariationFn",
    "matrices",
]

MAX_SIDE = 6


class SpectrumFn(Protocol):
    """``W (m, n) -> σ̂(W) (min(m, n),)``, the trace-normalised singular spectrum."""

    def __call__(self, matrix: FloatArray, /) -> FloatArray:
        """Return ``σ(W) / Σ σ(W)``, descending."""
        ...


class VariationFn(Protocol):
    """``(W_a, W_b) -> ||σ̂(W_b) - σ̂(W_a)||₂``."""

    def __call__(self, before: FloatArray, after: FloatArray, /) -> float:
        """Return the step variation."""
        ...


@st.composite
def matrices(draw: st.DrawFn, *, shape: tuple[int, int] | None = None) -> FloatArray:
    """Nonzero float64 matrices, N(0, scale²) entries with scale in [1e-6, 1e6], plus structure."""
    if shape is None:
        m = draw(st.integers(1, MAX_SIDE), label="rows m")
        n = draw(st.integers(1, MAX_SIDE), label="columns n")
    else:
        m, n = shape
    scale = 10.0 ** draw(st.floats(-6.0, 6.0, allow_subnormal=False), label="log10 scale")
    kind = draw(st.sampled_from(["gaussian", "rank_one", "low_rank"]), label="structure")
    # tie-free factors (fixed irrational offsets, no entry exactly 0), so W is generic as a
    # Gaussian draw is: mutants such as |diag(R)| of a QR would otherwise divide by 0 on
    # round shrunk inputs instead of showing their non-invariance
    if kind == "rank_one":
        u = draw(_generic((m,)), label="left factor u")
        v = draw(_generic((n,)), label="right factor v")
        out: FloatArray = np.outer(u, v) * scale
    elif kind == "low_rank":
        k = max(1, min(m, n) - 1)
        basis = draw(orthogonal_matrices(m), label="Q with U = Q[:, :k]")
        out = basis[:, :k] @ draw(_generic((k, n)), label="k x n factor B") * scale
    else:
        out = draw(_generic((m, n)), label="entries / scale") * scale
    return out


def _generic(shape: tuple[int, ...]) -> st.SearchStrategy[FloatArray]:
    return distinct_float_arrays(shape, low=-3.0, high=3.0)


@st.composite
def _orthogonal(draw: st.DrawFn, n: int) -> FloatArray:
    """Orthogonal ``(n, n)``: a drawn orthogonal matrix with signed, permuted columns
    (reflections and permutations included; ``n = 1`` gives ``+-1``)."""
    q = draw(orthogonal_matrices(n), label="Q0")
    signs = draw(sign_arrays(n), label="column signs")
    perm = draw(permutations(n), label="column order")
    out: FloatArray = (q * signs)[:, perm]
    return out


def _spectrum(impl: SpectrumFn, w: FloatArray) -> FloatArray:
    out = to_numpy(impl(w.copy()), what="σ̂")
    r = min(w.shape)
    expect(out.shape == (r,), what="shape of σ̂", measured=out.shape, allowed=(r,))
    expect(
        bool(np.all(np.isfinite(out))), what="σ̂ is finite", measured=out.tolist(), allowed="finite"
    )
    return out


def _diff(a: FloatArray, b: FloatArray) -> float:
    return float(np.max(np.abs(a - b)))


_A = "Zhang et al., ICML 2026"


@check(anchor=_A + " property 1")
def check_on_simplex_sorted(impl: SpectrumFn, data: st.DataObject, caps: Capabilities) -> None:
    """``σ̂ >= 0``, ``Σ σ̂ = 1`` (1e-12 + tol), sorted descending, length ``min(m, n)``."""
    w = data.draw(matrices(), label="W")
    s = _spectrum(impl, w)
    expect_le(-float(np.min(s)), caps.tolerance, what="-min σ̂")
    expect_close(float(np.sum(s)), 1.0, atol=1e-12 + caps.tolerance, what="Σ σ̂")
    expect_le(float(np.max(np.diff(s), initial=0.0)), caps.tolerance, what="max increase of σ̂")


@check(anchor=_A + " property 2")
def check_scale_invariance(impl: SpectrumFn, data: st.DataObject, caps: Capabilities) -> None:
    """``σ̂(cW) = σ̂(W)`` for ``c != 0``, negative ``c`` included."""
    w = data.draw(matrices(), label="W")
    c = data.draw(st.sampled_from([-1.0, 1e-3, -7.5, 1e3, 0.5]), label="scale c")
    expect_le(
        _diff(_spectrum(impl, c * w), _spectrum(impl, w)), caps.tolerance, what="|σ̂(cW) - σ̂(W)|"
    )


@check(anchor=_A + " property 3")
def check_orthogonal_invariance(impl: SpectrumFn, data: st.DataObject, caps: Capabilities) -> None:
    """``σ̂(Q W R) = σ̂(W)`` for orthogonal ``Q``, ``R`` (reflections and permutations included)."""
    w = data.draw(matrices(), label="W")
    m, n = w.shape
    q = data.draw(_orthogonal(m), label="Q")
    r = data.draw(_orthogonal(n), label="R")
    expect_le(
        _diff(_spectrum(impl, q @ w @ r), _spectrum(impl, w)),
        caps.tolerance,
        what="|σ̂(QWR) - σ̂(W)|",
    )


@check(anchor=_A + " property 3")
def check_transpose_invariance(impl: SpectrumFn, data: st.DataObject, caps: Capabilities) -> None:
    """``σ̂(Wᵀ) = σ̂(W)``."""
    w = data.draw(matrices(), label="W")
    expect_le(
        _diff(_spectrum(impl, w.T), _spectrum(impl, w)), caps.tolerance, what="|σ̂(Wᵀ) - σ̂(W)|"
    )


@check(anchor=_A + " property 4")
def check_exact_cases(impl: SpectrumFn, data: st.DataObject, caps: Capabilities) -> None:
    """Rank-one ``W -> e_1``; orthonormal columns or ``cI -> 1/r``; ``diag(d) -> sort(|d|)/Σ|d|``."""
    kind = data.draw(st.sampled_from(["rank_one", "orthonormal", "diagonal"]), label="case")
    m = data.draw(st.integers(1, MAX_SIDE), label="rows m")
    n = data.draw(st.integers(1, MAX_SIDE), label="columns n")
    r = min(m, n)
    if kind == "rank_one":
        u = data.draw(_generic((m,)), label="u")
        w = np.outer(u, data.draw(_generic((n,)), label="v"))
        want = np.zeros(r)
        want[0] = 1.0
    elif kind == "orthonormal":
        big = max(m, n)
        basis = data.draw(_orthogonal(big), label="orthogonal basis")
        w = basis[:m, :n] if m >= n else basis[:n, :m].T
        w = w * data.draw(st.floats(0.1, 10.0), label="scale c")
        want = np.full(r, 1.0 / r)
    else:
        d = data.draw(_generic((r,)), label="diagonal d")
        w = np.zeros((m, n))
        w[np.arange(r), np.arange(r)] = d
        want = np.sort(np.abs(d))[::-1] / np.sum(np.abs(d))
    expect_le(_diff(_spectrum(impl, w), want), 1e-12 + caps.tolerance, what=f"σ̂ on a {kind} matrix")


@check("matches_reference", anchor=_A + " section 2: σ̂ = σ / ||W||_* [notes]")
def check_spectrum_matches_reference(
    impl: SpectrumFn, data: st.DataObject, caps: Capabilities
) -> None:
    """``σ̂ = σ / ||W||_*`` from ``scipy.linalg.svdvals`` (unique)."""
    w = data.draw(matrices(), label="W")
    expect_le(
        _diff(_spectrum(impl, w), sp.normalized_spectrum(w)), caps.tolerance, what="|σ̂ - σ̂_ref|"
    )


# --------------------------------------------------------------------------------------------
# variation


def _var(impl: VariationFn, a: FloatArray, b: FloatArray) -> float:
    value = float(to_numpy(impl(a.copy(), b.copy()), what="ΔΣ"))
    expect(math.isfinite(value), what="ΔΣ is finite", measured=value, allowed="finite")
    return value


def _pair(data: st.DataObject, count: int = 2) -> list[FloatArray]:
    m = data.draw(st.integers(1, MAX_SIDE), label="rows m")
    n = data.draw(st.integers(1, MAX_SIDE), label="columns n")
    return [data.draw(matrices(shape=(m, n)), label=f"W{i}") for i in range(count)]


@check("metric", anchor=_A + " property 5")
def check_variation_metric(impl: VariationFn, data: st.DataObject, caps: Capabilities) -> None:
    """``ΔΣ(a, b) = ΔΣ(b, a) >= 0``, ``ΔΣ(a, a) = 0`` and ``ΔΣ(a, c) <= ΔΣ(a, b) + ΔΣ(b, c)``."""
    a, b, c = _pair(data, 3)
    ab, ba = _var(impl, a, b), _var(impl, b, a)
    expect_le(-ab, 0.0, what="-ΔΣ(a, b)")
    expect_le(abs(ab - ba), caps.tolerance, what="|ΔΣ(a, b) - ΔΣ(b, a)|")
    expect_le(_var(impl, a, a), caps.tolerance, what="ΔΣ(a, a)")
    expect_le(_var(impl, a, c), ab + _var(impl, b, c) + caps.tolerance, what="ΔΣ(a, c) (triangle)")


@check("scale_zero", anchor=_A + " property 2")
def check_variation_scale_zero(impl: VariationFn, data: st.DataObject, caps: Capabilities) -> None:
    """``ΔΣ(W, cW) = 0`` for ``c != 0`` (weight growth alone does not count)."""
    (w,) = _pair(data, 1)
    c = data.draw(st.sampled_from([-2.0, 1e-4, 3.0, 1e4]), label="scale c")
    expect_le(_var(impl, w, c * w), caps.tolerance, what="ΔΣ(W, cW)")


@check("bounded", anchor=_A + " property 5: ΔΣ <= √2")
def check_variation_bounded(impl: VariationFn, data: st.DataObject, caps: Capabilities) -> None:
    """``ΔΣ <= √2`` (two points of the simplex); ``ΔΣ(e_1-like, uniform-like)`` attains the
    reference value on rank-one vs orthonormal matrices."""
    a, b = _pair(data, 2)
    expect_le(_var(impl, a, b), math.sqrt(2.0) + caps.tolerance, what="ΔΣ against √2")


@check(anchor=_A + " section 4, L1")
def check_l1_bound(impl: VariationFn, data: st.DataObject, caps: Capabilities) -> None:
    """L1: ``ΔΣ(W, W + Δ) <= (||Δ||_F + ||Δ||_*) / ||W + Δ||_*`` (Zhang et al., ICML 2026, proved via Mirsky)."""
    w, d = _pair(data, 2)
    # ||Δ||_F < ||W||_F keeps W + Δ != 0
    step = data.draw(st.sampled_from([1e-6, 1e-3, 0.1, 0.5]), label="relative step size")
    d = d * step * float(np.linalg.norm(w)) / float(np.linalg.norm(d))
    value = _var(impl, w, w + d)
    expect_le(
        value, sp.variation_bound(w, d) * (1.0 + 1e-12) + caps.tolerance, what="ΔΣ against L1"
    )


@check("matches_reference", anchor=_A + " section 2: step variation [notes]")
def check_variation_matches_reference(
    impl: VariationFn, data: st.DataObject, caps: Capabilities
) -> None:
    """``ΔΣ = ||σ̂(W_b) - σ̂(W_a)||₂`` (unique)."""
    a, b = _pair(data, 2)
    expect_le(
        abs(_var(impl, a, b) - sp.spectrum_variation(a, b)), caps.tolerance, what="|ΔΣ - ΔΣ_ref|"
    )


# --------------------------------------------------------------------------------------------
# suites


def _callable(name: str) -> Any:
    def adapt(obj: Any) -> Any:
        if not callable(obj):
            raise TypeError(f"{name}: expected a callable, got {type(obj).__name__}")
        return obj

    return adapt


NORMALIZED_SPECTRUM: Suite[SpectrumFn] = Suite(
    name="spectral.normalized_spectrum",
    protocol=SpectrumFn,
    checks=(
        check_on_simplex_sorted,
        check_scale_invariance,
        check_orthogonal_invariance,
        check_transpose_invariance,
        check_exact_cases,
        check_spectrum_matches_reference,
    ),
    adapt=_callable("spectral.normalized_spectrum"),
    description="Trace-normalised singular spectrum W -> σ̂: simplex, sorted, invariances, exact "
    "cases, closed form.",
)

VARIATION: Suite[VariationFn] = Suite(
    name="spectral.variation",
    protocol=VariationFn,
    checks=(
        check_variation_metric,
        check_variation_scale_zero,
        check_variation_bounded,
        check_l1_bound,
        check_variation_matches_reference,
    ),
    adapt=_callable("spectral.variation"),
    description="Step variation (W_a, W_b) -> ||σ̂(W_b) - σ̂(W_a)||: metric, scale zero, <= √2, "
    "L1 bound, closed form.",
)

SUITES = (NORMALIZED_SPECTRUM, VARIATION)
