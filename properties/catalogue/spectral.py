"""Catalogue of the ``spectral`` family: ``ALGORITHMS`` (rows of ``verifiedref list``)
and ``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase
from reference import spectral as sp

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "UNCOVERED"]


_PAPER = "Zhang, Zhou, Jia, Chen, Cheng, The Stability of Singular Distribution (ICML 2026)"


def _algo(name: str, fn: str, suites: tuple[str, ...] = ()) -> Algorithm:
    return Algorithm(
        name=name,
        function=f"reference.spectral:{fn}",
        family="spectral",
        paper=_PAPER,
        suites=(*suites, "bad_input", "hard_input"),
    )


ALGORITHMS = (
    _algo(
        "Singular distribution σ̂ = σ/||W||_*",
        "normalized_spectrum",
        ("spectral.normalized_spectrum",),
    ),
    _algo("Step variation ΔΣ", "spectrum_variation", ("spectral.variation",)),
    _algo("Cosine to the final spectrum", "spectrum_cosine"),
    _algo("Spectral entropy", "spectral_entropy"),
    _algo("Effective rank", "effective_rank"),
    _algo("ΔΣ along a trajectory", "variation_series"),
    _algo("Cosine-to-final along a trajectory", "cosine_series"),
    _algo("L1 bound (||Δ||_F + ||Δ||_*)/||W+Δ||_*", "variation_bound"),
    _algo("Centred moving median", "moving_median"),
    _algo("SoSD threshold (κ·floor rule)", "sosd_threshold"),
    _algo("Cosine threshold", "cosine_threshold"),
    _algo("Loss elbow (two-segment log-log fit)", "loss_elbow"),
    _algo("Synchronisation ratio", "sync_ratio"),
    _algo("Cosine learning-rate schedule", "cosine_schedule"),
    _algo("Step-wise learning-rate schedule", "step_schedule"),
    _algo("WSD learning-rate schedule", "wsd_schedule"),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.spectral:moving_median": "utility",
    "reference.spectral:cosine_schedule": "utility",
    "reference.spectral:cosine_threshold": "utility",
    "reference.spectral:spectrum_cosine": "utility",
    "reference.spectral:cosine_series": "utility",
    "reference.spectral:effective_rank": "utility",
    "reference.spectral:loss_elbow": "utility",
    "reference.spectral:spectral_entropy": "utility",
    "reference.spectral:step_schedule": "utility",
    "reference.spectral:sync_ratio": "utility",
    "reference.spectral:wsd_schedule": "utility",
    "reference.spectral:variation_series": "utility",
}


Args = tuple[tuple[Any, ...], dict[str, Any]]


def _one(rng: np.random.Generator) -> Args:
    m, n = (int(v) for v in rng.integers(1, 5, size=2))
    return (rng.standard_normal((m, n)),), {}


def _two(rng: np.random.Generator) -> Args:
    m, n = (int(v) for v in rng.integers(1, 5, size=2))
    return (rng.standard_normal((m, n)), rng.standard_normal((m, n))), {}


def _stack(rng: np.random.Generator) -> Args:
    return (rng.standard_normal((int(rng.integers(2, 5)), 3, 2)),), {}


def _series(rng: np.random.Generator) -> Args:
    return (np.abs(rng.standard_normal(int(rng.integers(4, 30)))),), {}


def _cos(rng: np.random.Generator) -> Args:
    return (rng.uniform(0.5, 1.0, size=int(rng.integers(2, 20))),), {}


def _elbow(rng: np.random.Generator) -> Args:
    t = np.arange(1.0, float(rng.integers(8, 40)))
    return (t, 1.0 + 1.0 / t + 0.01 * rng.uniform(size=t.size)), {}


def _sync(rng: np.random.Generator) -> Args:
    return (float(rng.uniform(1.0, 100.0)), float(rng.uniform(1.0, 100.0))), {}


_BAD_STEPS = (0.0, -1.0, math.nan, math.inf)


def _sched(rng: np.random.Generator) -> Args:
    return (int(rng.integers(0, 10)),), {"total": 10, "peak": 0.1}


BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.spectral:normalized_spectrum",
        fn=sp.normalized_spectrum,
        make_args=_one,
        arrays=(0,),
        scalars=(("normalization", ("frobenius", None)),),
    ),
    BadInputCase(
        name="reference.spectral:spectrum_variation",
        fn=sp.spectrum_variation,
        make_args=_two,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.spectral:spectrum_cosine",
        fn=sp.spectrum_cosine,
        make_args=_two,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.spectral:spectral_entropy",
        fn=sp.spectral_entropy,
        make_args=_one,
        arrays=(0,),
    ),
    BadInputCase(
        name="reference.spectral:effective_rank", fn=sp.effective_rank, make_args=_one, arrays=(0,)
    ),
    BadInputCase(
        name="reference.spectral:variation_series",
        fn=sp.variation_series,
        make_args=_stack,
        arrays=(0,),
    ),
    BadInputCase(
        name="reference.spectral:cosine_series", fn=sp.cosine_series, make_args=_stack, arrays=(0,)
    ),
    BadInputCase(
        name="reference.spectral:variation_bound",
        fn=sp.variation_bound,
        make_args=_two,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.spectral:moving_median",
        fn=sp.moving_median,
        make_args=_series,
        arrays=(0,),
        scalars=(("window", (0, -3, 2.5)),),
    ),
    BadInputCase(
        name="reference.spectral:sosd_threshold",
        fn=sp.sosd_threshold,
        make_args=_series,
        arrays=(0,),
        scalars=(("kappa", (1.0, 0.5, -1.0, math.nan)), ("window", (0, 1.5))),
    ),
    BadInputCase(
        name="reference.spectral:cosine_threshold",
        fn=sp.cosine_threshold,
        make_args=_cos,
        arrays=(0,),
        scalars=(("c0", (0.0, 1.5, math.nan)),),
    ),
    BadInputCase(
        name="reference.spectral:loss_elbow",
        fn=sp.loss_elbow,
        make_args=_elbow,
        arrays=(0, 1),
        scalars=(("stride", (0, 1.5)),),
    ),
    BadInputCase(
        name="reference.spectral:cosine_schedule",
        fn=sp.cosine_schedule,
        make_args=_sched,
        arrays=(),
        scalars=(
            (0, (-1, 10, 1.5)),
            ("peak", _BAD_STEPS),
            ("total", (0, 2.0)),
            ("floor_ratio", (1.5, -0.1)),
        ),
    ),
    BadInputCase(
        name="reference.spectral:step_schedule",
        fn=sp.step_schedule,
        make_args=_sched,
        arrays=(),
        scalars=((0, (-1, 10)), ("gamma", (0.0, 1.5)), ("milestones", ((1.5,), (0.6, 0.3)))),
    ),
    BadInputCase(
        name="reference.spectral:wsd_schedule",
        fn=sp.wsd_schedule,
        make_args=_sched,
        arrays=(),
        scalars=(
            (0, (-1, 11)),
            ("warmup", (9, -1)),
            ("decay_fraction", (1.5, -0.2)),
            ("shape", ("cubic",)),
        ),
    ),
    BadInputCase(
        name="reference.spectral:sync_ratio",
        fn=sp.sync_ratio,
        make_args=_sync,
        arrays=(),
        scalars=((0, _BAD_STEPS), (1, _BAD_STEPS)),
    ),
)
