"""Mutant table of the spectral theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike

from reference._arrays import FloatArray
from reference.optimizers.polar import newton_schulz
from reference.spectral import normalized_spectrum, sosd_threshold, spectrum_variation
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def variation_l1(before: ArrayLike, after: ArrayLike, *, pad: bool = False) -> float:
    """The l1 distance of the normalised spectra instead of the l2 one."""
    a = normalized_spectrum(np.asarray(before, dtype=np.float64))
    b = normalized_spectrum(np.asarray(after, dtype=np.float64))
    return float(np.sum(np.abs(a - b)))


def variation_squared(before: ArrayLike, after: ArrayLike, *, pad: bool = False) -> float:
    """The squared l2 distance (the square root forgotten)."""
    return spectrum_variation(before, after, pad=pad) ** 2


def variation_unsorted(before: object, after: object, *, pad: bool = False) -> float:
    """Pairs the singular values of one matrix in ascending order (one sort reversed)."""
    a = normalized_spectrum(np.asarray(before, dtype=np.float64))
    b = normalized_spectrum(np.asarray(after, dtype=np.float64))[::-1]
    return float(np.linalg.norm(a - b))


def variation_bound_frobenius_only(matrix: object, update: object) -> float:
    """``||Δ||_F / ||W + Δ||_*``: the nuclear-norm term dropped."""
    w = np.asarray(matrix, dtype=np.float64)
    d = np.asarray(update, dtype=np.float64)
    return float(np.linalg.norm(d)) / float(np.sum(scipy.linalg.svdvals(w + d)))


def spectrum_unnormalised(matrix: object, *, normalization: str = "trace") -> FloatArray:
    """Returns the raw singular values (the normalisation forgotten)."""
    out: FloatArray = np.sort(scipy.linalg.svdvals(np.asarray(matrix, dtype=np.float64)))[::-1]
    return out


def newton_schulz_four_steps(gradient: ArrayLike, **kwargs: Any) -> FloatArray:
    """Four quintic iterations instead of five."""
    return newton_schulz(gradient, **{**kwargs, "steps": 4})


def newton_schulz_cubic(gradient: ArrayLike, **kwargs: Any) -> FloatArray:
    """The classical cubic Newton-Schulz coefficients ``(1.5, -0.5, 0)``."""
    return newton_schulz(gradient, **{**kwargs, "coefficients": (1.5, -0.5, 0.0)})


_S = "reference.spectral:"
_CHECKS_ALL = (
    "spectral.l1_variation_bound",
    "spectral.l3_muon",
    "spectral.l4_threshold",
)


def sosd_first_crossing(variations: ArrayLike, *, kappa: float = 3.0, window: int = 25) -> Any:
    """The first ``t`` with ``D̃_t <= κ f`` (not for all later ``s``)."""
    res = sosd_threshold(variations, kappa=kappa, window=window)
    ok = np.flatnonzero(np.asarray(res.smoothed) <= kappa * res.floor)
    index = int(ok[0]) if ok.size else len(res.smoothed)
    return dataclasses.replace(res, index=index, found=index < len(res.smoothed))


def sosd_strict(variations: ArrayLike, *, kappa: float = 3.0, window: int = 25) -> Any:
    """The settled criterion with ``<`` for ``<=``."""
    res = sosd_threshold(variations, kappa=kappa, window=window)
    bad = np.flatnonzero(~(np.asarray(res.smoothed) < kappa * res.floor))
    index = 0 if bad.size == 0 else int(bad[-1]) + 1
    return dataclasses.replace(res, index=index, found=index < len(res.smoothed))


def sosd_whole_floor(variations: ArrayLike, *, kappa: float = 3.0, window: int = 25) -> Any:
    """The floor taken over the whole series instead of its last half."""
    res = sosd_threshold(variations, kappa=kappa, window=window)
    floor = float(np.median(res.smoothed))
    bad = np.flatnonzero(~(np.asarray(res.smoothed) <= kappa * floor))
    index = 0 if bad.size == 0 else int(bad[-1]) + 1
    return dataclasses.replace(res, index=index, found=index < len(res.smoothed), floor=floor)


def energy_over_nuclear(matrix: ArrayLike, *, normalization: str = "trace") -> FloatArray:
    """The energy distribution divided by ``(Σσ)²`` instead of ``Σσ²`` (``||W||_*²`` for
    ``||W||_F²``): the squares do not sum to 1."""
    if normalization != "energy":
        return normalized_spectrum(matrix, normalization="trace")
    sigma = np.linalg.svd(np.asarray(matrix, dtype=np.float64), compute_uv=False)
    out: FloatArray = sigma**2 / float(np.sum(sigma)) ** 2
    return out


def _m(name: str, why: str, algorithm: str, target: str, catches: tuple[str, ...]) -> ProofMutant:
    return ProofMutant(
        family="spectral",
        name=name,
        why=why,
        algorithm=algorithm,
        target=f"{__name__}:{target}",
        catches=catches,
    )


MUTANTS = (
    _m(
        "sosd_threshold: first crossing",
        "the first t below the level, not the first after which it stays below",
        _S + "sosd_threshold",
        "sosd_first_crossing",
        ("spectral.sosd_threshold",),
    ),
    _m(
        "sosd_threshold: strict",
        "< for <= in the settled criterion",
        _S + "sosd_threshold",
        "sosd_strict",
        ("spectral.sosd_threshold",),
    ),
    _m(
        "sosd_threshold: floor over all steps",
        "the floor as the median of the whole smoothed series",
        _S + "sosd_threshold",
        "sosd_whole_floor",
        ("spectral.sosd_threshold",),
    ),
    _m(
        "variation: l1 norm",
        "the l1 distance for the l2 one",
        _S + "spectrum_variation",
        "variation_l1",
        ("spectral.l1_variation_bound",),
    ),
    _m(
        "variation: squared",
        "the square root forgotten",
        _S + "spectrum_variation",
        "variation_squared",
        ("spectral.l5_frozen_basis",),
    ),
    _m(
        "variation: one sort reversed",
        "singular values paired in opposite orders",
        _S + "spectrum_variation",
        "variation_unsorted",
        _CHECKS_ALL,
    ),
    _m(
        "variation_bound: no nuclear term",
        "||Δ||_* dropped from the numerator",
        _S + "variation_bound",
        "variation_bound_frobenius_only",
        ("spectral.l1_variation_bound",),
    ),
    _m(
        "normalized_spectrum: raw",
        "the normalisation forgotten",
        _S + "normalized_spectrum",
        "spectrum_unnormalised",
        ("spectral.l2_weight_decay",),
    ),
    _m(
        "newton_schulz: 4 steps",
        "one quintic iteration short",
        "reference.optimizers.polar:newton_schulz",
        "newton_schulz_four_steps",
        ("spectral.l3_muon",),
    ),
    _m(
        "newton_schulz: cubic",
        "the cubic coefficients (1.5, -0.5, 0)",
        "reference.optimizers.polar:newton_schulz",
        "newton_schulz_cubic",
        ("spectral.l3_muon",),
    ),
    _m(
        "normalized_spectrum: energy over nuclear",
        "the energy distribution normalised by ||W||_*^2 instead of ||W||_F^2",
        "reference.spectral:normalized_spectrum",
        "energy_over_nuclear",
        ("spectral.distribution_formulas",),
    ),
)
