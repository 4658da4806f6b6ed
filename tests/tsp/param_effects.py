"""Parameter-effect rows of the tsp family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from typing import Any

from tests._param_rows import (
    BASELINE,
    GENERATOR,
    ParamEffect,
    Row,
    constant,
    kw,
    one_less,
    rows,
    use_default,
)

__all__ = ["PARAM_EFFECTS", "UNCHECKED"]


def _seeded_generator() -> Any:
    import numpy as np

    return np.random.default_rng(0)


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    ParamEffect(
        family="tsp",
        algorithm="reference.tsp:threshold_decode",
        keyword="tau",
        label="default 0.5",
        replace=constant(0.5),
        where="proposition_d's exact part: 0.3 Y_T* at tau = 0.25 rebuilds T*, tau = 0.5 gives "
        "H = empty (Christofides)",
        catches=("tsp.proposition_d",),
    ),
    ParamEffect(
        family="tsp",
        algorithm="reference.tsp:threshold_decode",
        keyword="with_two_opt",
        label="default False",
        replace=use_default,
        where="two_opt_option passes True on noise heatmaps, whose decoded tours 2-opt shortens",
        catches=("tsp.two_opt_option",),
    ),
    ParamEffect(
        family="tsp",
        algorithm="reference.tsp:sweep_decode",
        keyword="with_two_opt",
        label="default False",
        replace=use_default,
        where="two_opt_option passes True on noise heatmaps, whose decoded tours 2-opt shortens",
        catches=("tsp.two_opt_option",),
    ),
    ParamEffect(
        family="tsp",
        algorithm="reference.tsp:sampled_decode",
        keyword="with_two_opt",
        label="default False",
        replace=use_default,
        where="two_opt_option passes True on noise heatmaps, whose decoded tours 2-opt shortens",
        catches=("tsp.two_opt_option",),
    ),
    kw(
        "tsp",
        "tsp:sampled_decode",
        "k",
        "k - 1",
        one_less,
        "sampled_replay compares with the best of the k draws from the same seed",
        "tsp.sampled_replay",
    ),
    kw(
        "tsp",
        "tsp:sampled_decode",
        "rng",
        "a fixed generator (seed 0)",
        lambda _old: _seeded_generator(),
        "sampled_replay replays the draws of the generator it passed",
        "tsp.sampled_replay",
    ),
)

UNCHECKED: tuple[Row, ...] = (
    *rows(GENERATOR, "reference.tsp:soft_dist", "temperature"),
    *rows(BASELINE, "reference.tsp:two_opt", "max_iter", "min_improvement"),
    *rows(BASELINE, "reference.tsp:mcts_decode", "rng", "config"),
)
