"""Parameter-effect rows of the inverse_optimization family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import (
    BASELINE,
    GENERATOR,
    RANDOM_SOURCE,
    UTILITY,
    ParamEffect,
    Row,
    kw,
    one_less,
    rows,
    use_default,
)

__all__ = ["NEUTRAL", "PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    kw(
        "inverse_optimization",
        "inverse_optimization:OnlineLearner",
        "point",
        "default 'centroid'",
        use_default,
        "theorem_3_1 runs the topological point",
        "inverse_optimization.theorem_3_1",
    ),
    kw(
        "inverse_optimization",
        "inverse_optimization:OnlineLearner",
        "dim",
        "d - 1",
        one_less,
        "d_log_d's learner must play in Z^d",
        "inverse_optimization.d_log_d",
    ),
)

NEUTRAL: tuple[Row, ...] = (
    *rows(RANDOM_SOURCE, "reference.inverse_optimization:theorem_6_1_instance", "rng"),
    *rows(RANDOM_SOURCE, "reference.inverse_optimization:random_family", "rng"),
    *rows(
        "used by point='gibbs' only; the checks run the centroid and topological points",
        "reference.inverse_optimization:OnlineLearner",
        "sweeps",
        "burn_in",
    ),
    *rows(
        "used by point='gibbs' only; the checks run the centroid point",
        "reference.inverse_optimization:RobustLearner",
        "sweeps",
        "burn_in",
    ),
)

UNCHECKED: tuple[Row, ...] = (
    *rows(GENERATOR, "reference.inverse_optimization:uniform_matroid", "ground"),
    *rows(
        BASELINE,
        "reference.inverse_optimization:OnlineGradientDescent",
        "dim",
        "diameter",
        "horizon",
    ),
    *rows(BASELINE, "reference.inverse_optimization:CuttingPlane", "dim", "rng", "points_per_dim"),
    *rows(BASELINE, "reference.inverse_optimization:FirstElement", "dim"),
    *rows(
        UTILITY, "reference.inverse_optimization:simulate", "corrupted_rounds", "corruption", "rng"
    ),
    (
        "reference.inverse_optimization:RobustLearner",
        "dim",
        "the checks pass the family's dimension; another one fails the input validation (a "
        "documented ValueError)",
    ),
    (
        "reference.inverse_optimization:RobustLearner",
        "point",
        "the checks run the default centroid point only",
    ),
    (
        "reference.inverse_optimization:OnlineNewtonStep",
        "dim",
        "the checks pass the family's dimension; another one fails the input validation (a "
        "documented ValueError)",
    ),
    (
        "reference.inverse_optimization:OnlineNewtonStep",
        "diameter",
        "the checks pass the default (0: sqrt(2 d)); no check passes another K",
    ),
    (
        "reference.inverse_optimization:random_family",
        "kind",
        "prop_2_4 passes the default (a kind drawn at random); every kind is a valid family",
    ),
)
