"""Parameter-effect rows of the divergence family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import BASELINE, FAST_PATH, RANDOM_SOURCE, ParamEffect, Row, constant, rows

__all__ = ["NEUTRAL", "PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    ParamEffect(
        family="divergence",
        algorithm="reference.divergence:armijo_ascent",
        keyword="theta0",
        label="default None",
        replace=constant(None),
        where="v5 measures the linear rate from the given start theta0",
        catches=("divergence.v5_armijo_rate",),
    ),
    ParamEffect(
        family="divergence",
        algorithm="reference.divergence:estimate_alpha_divergence",
        keyword="config",
        label="default ArmijoConfig()",
        replace=constant(None),
        where="s3 asks R = 0.5 and 1 (active balls) full batch; the default is R = 3, mini-batch",
        catches=("divergence.s3_estimator",),
    ),
    ParamEffect(
        family="divergence",
        algorithm="reference.divergence:estimate_alpha_divergence",
        keyword="features",
        label="default None (fresh features)",
        replace=constant(None),
        where="s3 recomputes J-hat on the features it passed",
        catches=("divergence.s3_estimator",),
    ),
    ParamEffect(
        family="divergence",
        algorithm="reference.divergence:estimate_alpha_divergence",
        keyword="heldout",
        label="flipped",
        replace=lambda old: not old,
        where="s3 runs both modes: the whole-sample value and the halves identity differ",
        catches=("divergence.s3_estimator",),
    ),
)

NEUTRAL: tuple[Row, ...] = (
    (
        "reference.divergence:estimate_alpha_divergence",
        "num_features",
        "documented as ignored when features are given; s3 passes its features",
    ),
    (
        "reference.divergence:estimate_alpha_divergence",
        "allow_nonconcave",
        "documented: must stay False, True raises NotImplementedError (a documented error)",
    ),
    (
        "reference.divergence:alpha_divergence_gaussian",
        "allow_nonconcave",
        "only widens the accepted alpha range; for alpha in (0, 1), all the checks ask, the "
        "value is the same closed form",
    ),
    *rows(RANDOM_SOURCE, "reference.divergence:estimate_alpha_divergence", "rng"),
    *rows(RANDOM_SOURCE, "reference.divergence:make_rff", "rng"),
    *rows(RANDOM_SOURCE, "reference.divergence:armijo_ascent", "rng"),
)

UNCHECKED: tuple[Row, ...] = (
    (
        "reference.divergence:armijo_ascent",
        "config",
        "v3 and v5 pass the default ArmijoConfig; its line-search constants change the path, "
        "not the maximiser and linear rate the checks measure",
    ),
    *rows(BASELINE, "reference.divergence:knn_alpha_divergence", "k"),
    *rows(
        BASELINE,
        "reference.divergence.fast_torch:neural_critic_estimate",
        "generator",
        "hidden",
        "iterations",
        "batch_size",
        "learning_rate",
    ),
    *rows(
        FAST_PATH,
        "reference.divergence.fast_torch:estimate_alpha_divergence",
        "features",
        "rng",
        "config",
        "device",
        "dtype",
    ),
    (
        "reference.divergence:make_rff",
        "sigma",
        "only the full-profile check rff_rate runs make_rff; no quick check notices it",
    ),
    (
        "reference.divergence:make_rff",
        "omega_max",
        "only the full-profile check rff_rate runs make_rff, with the default band limit",
    ),
)
