"""Hand-made broken spectral diagnostics: each spectral.* suite must reject each one."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from reference._arrays import FloatArray


def _sv(w: Any) -> FloatArray:
    out: FloatArray = scipy.linalg.svdvals(np.asarray(w, dtype=np.float64))
    return out


# ---- normalized_spectrum mutants


def spec_energy(matrix: Any) -> FloatArray:
    """Energy normalisation ``σ²/||W||_F²`` instead of the trace normalisation."""
    s = _sv(matrix) ** 2
    out: FloatArray = s / s.sum()
    return out


def spec_max_normalised(matrix: Any) -> FloatArray:
    """Divides by ``σ_1`` instead of ``Σ σ_i`` (not on the simplex)."""
    s = _sv(matrix)
    out: FloatArray = s / s[0]
    return out


def spec_ascending(matrix: Any) -> FloatArray:
    """Sorted ascending."""
    s = _sv(matrix)
    out: FloatArray = np.sort(s / s.sum())
    return out


def spec_qr_diagonal(matrix: Any) -> FloatArray:
    """``|diag(R)|`` of a QR factorisation (not invariant to right rotations / transposition)."""
    w = np.asarray(matrix, dtype=np.float64)
    r = np.abs(np.diag(np.linalg.qr(w, mode="r")))
    out: FloatArray = np.sort(r)[::-1] / r.sum()
    return out


def spec_eps_guard(matrix: Any) -> FloatArray:
    """``σ / (Σσ + 1e-3)``: an epsilon guard that breaks scale invariance for small W."""
    s = _sv(matrix)
    out: FloatArray = s / (s.sum() + 1e-3)
    return out


# ---- variation mutants


def _sd(w: Any) -> FloatArray:
    s = _sv(w)
    out: FloatArray = s / s.sum()
    return out


def var_l1(before: Any, after: Any) -> float:
    """L1 distance of the singular distributions."""
    return float(np.sum(np.abs(_sd(after) - _sd(before))))


def var_unnormalised(before: Any, after: Any) -> float:
    """Raw singular values, no normalisation (counts weight growth)."""
    return float(np.linalg.norm(_sv(after) - _sv(before)))


def var_relative(before: Any, after: Any) -> float:
    """Relative change ``||σ̂_b - σ̂_a|| / ||σ̂_a||`` (asymmetric)."""
    a = _sd(before)
    return float(np.linalg.norm(_sd(after) - a) / np.linalg.norm(a))


def var_energy(before: Any, after: Any) -> float:
    """Energy-normalised spectra."""
    with np.errstate(all="ignore"):
        a = _sv(before) ** 2
        b = _sv(after) ** 2
        return float(np.linalg.norm(b / b.sum() - a / a.sum()))
