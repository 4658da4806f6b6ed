"""Parameter-effect rows of the constrained_map family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import (
    BASELINE,
    GENERATOR,
    ORACLE,
    RANDOM_SOURCE,
    ParamEffect,
    Row,
    kw,
    rows,
    scaled,
)

__all__ = ["NEUTRAL", "PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    kw(
        "constrained_map",
        "constrained_map:max_out",
        "lo",
        "lo/2",
        scaled(0.5),
        "prop_a_6 compares with the maximum over the range it passed",
        "constrained_map.prop_a_6",
    ),
    kw(
        "constrained_map",
        "constrained_map:max_out",
        "hi",
        "hi/2",
        scaled(0.5),
        "prop_a_6 compares with the maximum over the range it passed",
        "constrained_map.prop_a_6",
    ),
)

NEUTRAL: tuple[Row, ...] = (
    *rows(RANDOM_SOURCE, "reference.constrained_map:agnostic_map", "rng"),
    *rows(RANDOM_SOURCE, "reference.constrained_map:pa_map", "rng"),
)

UNCHECKED: tuple[Row, ...] = (
    (
        "reference.constrained_map:pa_map",
        "config",
        "the checks pass the default PaMapConfig; its fields (cell budget, solver tolerances) "
        "do not move the exact MAP the checks compare with",
    ),
    (
        "reference.constrained_map:agnostic_map",
        "starts",
        "agnostic_unsafe checks that every returned point is feasible, which holds for any "
        "number of starts",
    ),
    *rows(GENERATOR, "reference.constrained_map:random_3sat_problem", "n_bool", "n_clauses"),
    *rows(
        GENERATOR,
        "reference.constrained_map:random_tree_problem",
        "n_vars",
        "shape",
        "continuous",
        "pairwise",
    ),
    *rows(
        GENERATOR,
        "reference.constrained_map:trajectory_problem",
        "steps",
        "obstacles",
        "kind",
        "smoothness",
    ),
    *rows(BASELINE, "reference.constrained_map:agnostic_repair_map", "rng", "starts"),
    *rows(BASELINE, "reference.constrained_map:penalty_map", "rng", "starts", "rhos"),
    *rows(BASELINE, "reference.constrained_map:sample_filter_map", "rng", "samples"),
    *rows(ORACLE, "reference.constrained_map:grid_map", "points", "refine"),
    (
        "reference.constrained_map:pa_cells",
        "max_cells",
        "partition's instances have far fewer cells than the cap; sat_reduction passes "
        "max_cells = 1 and passes with the default too (measured)",
    ),
)
