"""Parameter-effect rows of the stability family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import (
    GENERATOR,
    RANDOM_SOURCE,
    UTILITY,
    ParamEffect,
    Row,
    bound_effect,
    kw,
    one_less,
    rows,
    scaled,
    use_default,
)

__all__ = ["NEUTRAL", "PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    ParamEffect(
        family="stability",
        algorithm="reference.stability:clip",
        keyword="tau",
        label="2 tau",
        replace=scaled(2.0),
        where="vectors with norms between tau and 2 tau are clipped",
        catches=("stability.clip_projection",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.stability:normalized_sgd_stability_bound",
        keyword="learning_rate",
        label="eta/2",
        replace=scaled(0.5),
        where="the antipodal instance attains 2 eta T/n: half the step halves the bound",
        catches=("stability.normalized_sgd_coupling",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.stability:normalized_sgd_stability_bound",
        keyword="n",
        label="2 n",
        replace=scaled(2),
        where="the bound is proportional to 1/n and attained",
        catches=("stability.normalized_sgd_coupling",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.stability:pareto_moment",
        keyword="scale",
        label="default 1",
        replace=use_default,
        where="the closed forms are checked at x_m = 1/2 too",
        catches=("stability.pareto_closed_forms",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.stability:pareto_tail_excess",
        keyword="scale",
        label="default 1",
        replace=use_default,
        where="the closed forms are checked at x_m = 1/2 too",
        catches=("stability.pareto_closed_forms",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.stability:pareto_clipped_second_moment",
        keyword="scale",
        label="default 1",
        replace=use_default,
        where="the closed forms are checked at x_m = 1/2 too",
        catches=("stability.pareto_closed_forms",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.optimizers:clipped_sgd",
        keyword="learning_rate",
        label="2 eta",
        replace=scaled(2.0),
        where="the coupled runs replay the recursion at eta",
        catches=("stability.clipped_sgd_coupling",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.optimizers:clipped_sgd",
        keyword="tau",
        label="2 tau",
        replace=scaled(2.0),
        where="gradients above tau are clipped in the coupled runs",
        catches=("stability.clipped_sgd_coupling",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.optimizers:clipped_sgd",
        keyword="momentum",
        label="default 0",
        replace=use_default,
        where="the recursion check replays momentum 0.9 and 0.5 (the coupling check's S4 bound is loose enough to pass momentum 0)",
        catches=("stability.clipped_sgd_recursion",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.optimizers:clipped_sgd",
        keyword="clip",
        label="default 'before'",
        replace=use_default,
        where="the recursion check replays clip='after' at momentum 0.5",
        catches=("stability.clipped_sgd_recursion",),
    ),
    bound_effect("clipped_sgd_stability_bound", "n", "2 n", scaled(2)),
    bound_effect("clipped_sgd_stability_bound", "steps", "T - 1", one_less),
    bound_effect("clipped_sgd_stability_bound", "learning_rate", "2 eta", scaled(2.0)),
    bound_effect("clipped_sgd_stability_bound", "tau", "2 tau", scaled(2.0)),
    bound_effect("clipped_sgd_stability_bound", "smoothness", "2 L", scaled(2.0)),
    bound_effect("clip_average_stability_bound", "n", "2 n", scaled(2)),
    bound_effect("clip_average_stability_bound", "steps", "T - 1", one_less),
    bound_effect("clip_average_stability_bound", "learning_rate", "2 eta", scaled(2.0)),
    bound_effect("clip_average_stability_bound", "tau", "2 tau", scaled(2.0)),
    bound_effect("clip_average_stability_bound", "smoothness", "2 L", scaled(2.0)),
    bound_effect("clip_average_stability_bound", "batch", "b - 1", one_less),
    bound_effect("momentum_stability_bound", "n", "2 n", scaled(2)),
    bound_effect("momentum_stability_bound", "steps", "T - 1", one_less),
    bound_effect("momentum_stability_bound", "learning_rate", "2 eta", scaled(2.0)),
    bound_effect("momentum_stability_bound", "tau", "2 tau", scaled(2.0)),
    bound_effect("momentum_stability_bound", "smoothness", "2 L", scaled(2.0)),
    bound_effect("momentum_stability_bound", "beta", "beta/2", scaled(0.5)),
    bound_effect("normalized_sgd_stability_bound", "steps", "T - 1", one_less),
    bound_effect("normalized_sgd_stability_bound", "smoothness", "2 L", scaled(2.0)),
    bound_effect("normalized_sgd_stability_bound", "grad_lower", "2 gamma", scaled(2.0)),
    ParamEffect(
        family="stability",
        algorithm="reference.stability:heavy_tailed_mean_bound",
        keyword="tau",
        label="default None (sigma n^(1/p))",
        replace=use_default,
        where="bound_formulas evaluates L3 at tau = 0.7 and 2.5 as well as at the default",
        catches=("stability.bound_formulas",),
    ),
    kw(
        "stability",
        "stability:pareto_vectors",
        "tail",
        "a/2",
        scaled(0.5),
        "heavy_tailed_mean's moment sigma^p is the one of tail a",
        "stability.heavy_tailed_mean",
    ),
    kw(
        "stability",
        "stability:coupled_runs",
        "steps",
        "2 T",
        scaled(2),
        "the S5 bound is evaluated at the T passed",
        "stability.normalized_sgd_coupling",
    ),
    kw(
        "stability",
        "stability:coupled_runs",
        "runs",
        "R - 1",
        one_less,
        "the coupling check averages the R runs it asked for",
        "stability.normalized_sgd_coupling",
    ),
)

NEUTRAL: tuple[Row, ...] = (
    *rows(RANDOM_SOURCE, "reference.stability:pareto_vectors", "rng"),
    *rows(RANDOM_SOURCE, "reference.stability:coupled_runs", "rng"),
)

UNCHECKED: tuple[Row, ...] = (
    (
        "reference.stability:coupled_runs",
        "batch",
        "the coupling checks run b = 1 for S1 and S4 and read the batch they passed for S3; the "
        "bound holds for any batch",
    ),
    (
        "reference.stability:coupled_runs",
        "sampling",
        "the coupling bounds hold for every sampling scheme; no check replays the indices",
    ),
    (
        "reference.stability:coupled_runs",
        "loss",
        "S1's bound is loss-free (it needs L-smooth losses only), so a run on the other loss "
        "passes it",
    ),
    (
        "reference.stability:pareto_vectors",
        "scale",
        "heavy_tailed_mean passes the default scale; the L3 bound holds at any scale",
    ),
    *rows(GENERATOR, "reference.stability:student_t", "nu", "rng"),
    *rows(GENERATOR, "reference.stability:symmetric_pareto", "tail", "scale", "rng"),
    *rows(UTILITY, "reference.stability:gradient_stability", "loss"),
    *rows(UTILITY, "reference.stability:train", "loss", "per_sample"),
    (
        "reference.stability:coupled_runs",
        "per_sample",
        "the coupling checks feed full-batch gradients; per-sample gradients fail the shape "
        "validation (a documented ValueError)",
    ),
)
