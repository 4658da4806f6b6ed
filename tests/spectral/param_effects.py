"""Parameter-effect rows of the spectral family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import UTILITY, ParamEffect, Row, kw, rows, use_default

__all__ = ["PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    ParamEffect(
        family="spectral",
        algorithm="reference.spectral:sosd_threshold",
        keyword="kappa",
        label="default 3",
        replace=use_default,
        where="the check asks kappa 1.5 and 5",
        catches=("spectral.sosd_threshold",),
    ),
    ParamEffect(
        family="spectral",
        algorithm="reference.spectral:sosd_threshold",
        keyword="window",
        label="default 25",
        replace=use_default,
        where="the check asks windows 1, 4 and 7",
        catches=("spectral.sosd_threshold",),
    ),
    kw(
        "spectral",
        "spectral:normalized_spectrum",
        "normalization",
        "default 'trace'",
        use_default,
        "distribution_formulas asks the energy normalisation too",
        "spectral.distribution_formulas",
    ),
)

UNCHECKED: tuple[Row, ...] = (
    (
        "reference.spectral:spectrum_variation",
        "pad",
        "the checks compare equal shapes, where padding does nothing; on unequal shapes "
        "pad=False raises the documented ValueError, not a measured violation",
    ),
    *rows(UTILITY, "reference.spectral:moving_median", "window"),
    *rows(UTILITY, "reference.spectral:cosine_schedule", "total", "peak", "warmup", "floor_ratio"),
    *rows(UTILITY, "reference.spectral:cosine_threshold", "c0"),
    *rows(UTILITY, "reference.spectral:loss_elbow", "stride"),
    *rows(UTILITY, "reference.spectral:step_schedule", "total", "peak", "gamma", "milestones"),
    *rows(
        UTILITY,
        "reference.spectral:wsd_schedule",
        "total",
        "peak",
        "warmup",
        "decay_fraction",
        "floor_ratio",
        "shape",
    ),
)
