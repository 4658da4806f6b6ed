"""Stability of Singular Distribution (SoSD): spectral diagnostics of weight matrices.

The family's public API. The code lives in:

* :mod:`reference.spectral.sosd` — Stability of Singular Distribution (SoSD): spectral diagnostics of weight matrices.

The torch fast path :mod:`reference.spectral.fast_torch` is not imported here.
"""

from __future__ import annotations

from reference.spectral.sosd import (
    ElbowResult,
    Normalization,
    ThresholdResult,
    cosine_schedule,
    cosine_series,
    cosine_threshold,
    effective_rank,
    loss_elbow,
    moving_median,
    normalized_spectrum,
    sosd_threshold,
    spectral_entropy,
    spectrum_cosine,
    spectrum_variation,
    step_schedule,
    sync_ratio,
    variation_bound,
    variation_series,
    wsd_schedule,
)

__all__ = [
    "ElbowResult",
    "Normalization",
    "ThresholdResult",
    "cosine_schedule",
    "cosine_series",
    "cosine_threshold",
    "effective_rank",
    "loss_elbow",
    "moving_median",
    "normalized_spectrum",
    "sosd_threshold",
    "spectral_entropy",
    "spectrum_cosine",
    "spectrum_variation",
    "step_schedule",
    "sync_ratio",
    "variation_bound",
    "variation_series",
    "wsd_schedule",
]
