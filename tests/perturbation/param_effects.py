"""Parameter-effect rows of the perturbation family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import (
    BASELINE,
    GENERATOR,
    UTILITY,
    ParamEffect,
    Row,
    constant,
    kw,
    rows,
    scaled,
)

__all__ = ["PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:asymp_gda_side",
        keyword="step_size",
        label="default None",
        replace=constant(None),
        where="step_recursion passes step_size = 0.41/||A|| and 3/||A||, not the default 1/(mu + ||A||)",
        catches=("perturbation.step_recursion",),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:asymp_gda_side",
        keyword="side",
        label="default 'x'",
        replace=constant("x"),
        where="step_recursion replays the y-side run, whose perturbed player differs",
        catches=("perturbation.step_recursion",),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:asymp_gda_side",
        keyword="variant",
        label="default 'official'",
        replace=constant("official"),
        where="step_recursion replays the y side in the y_first order too",
        catches=("perturbation.step_recursion",),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:asymp_gda_side",
        keyword="mu",
        label="mu/2",
        replace=scaled(0.5),
        where="the limit x^mu and every step depend on mu (closed form above mu = 15)",
        catches=(
            "perturbation.closed_form",
            "perturbation.step_recursion",
            "perturbation.theorem_4_1",
        ),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:asymp_gda",
        keyword="variant",
        label="default 'official'",
        replace=constant("official"),
        where="step_recursion replays asymp_gda in the y_first order too",
        catches=("perturbation.step_recursion",),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:asymp_gda",
        keyword="step_size",
        label="default None",
        replace=constant(None),
        where="step_recursion passes step_size away from the default",
        catches=("perturbation.step_recursion",),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:perturbed_minimiser",
        keyword="mu",
        label="2 mu",
        replace=scaled(2.0),
        where="closed_form asks mu = 14.9 (invariant) and 15.1, 30 (shifted); 2 mu moves 14.9",
        catches=("perturbation.closed_form",),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:parameter_free",
        keyword="tol",
        label="100 tol",
        replace=scaled(100.0),
        where="algorithm_1 recomputes NashConv from the returned pair and compares with tol",
        catches=("perturbation.algorithm_1",),
    ),
    kw(
        "perturbation",
        "perturbation:asymp_gda",
        "mu",
        "2 mu",
        scaled(2.0),
        "step_recursion replays every step, which depends on mu",
        "perturbation.step_recursion",
    ),
    kw(
        "perturbation",
        "perturbation:asymp_gda",
        "max_iter",
        "max_iter / 2",
        lambda old: max(1, old // 2),
        "step_recursion replays the run's length",
        "perturbation.step_recursion",
    ),
    kw(
        "perturbation",
        "perturbation:asymp_gda_side",
        "max_iter",
        "max_iter / 2",
        lambda old: max(1, old // 2),
        "step_recursion replays the run's length",
        "perturbation.step_recursion",
    ),
)

UNCHECKED: tuple[Row, ...] = (
    (
        "reference.perturbation:asymp_gda_side",
        "stop",
        "the checks pass tol = 1e-300 or read the whole trajectory: the stopping rule never "
        "fires, so which gap it measures cannot show",
    ),
    (
        "reference.perturbation:parameter_free",
        "mu_init",
        "algorithm_1 checks the returned pair's NashConv against tol, reached from any mu_init",
    ),
    (
        "reference.perturbation:parameter_free",
        "check_every",
        "algorithm_1 checks the returned pair's NashConv against tol, reached for any check period",
    ),
    (
        "reference.perturbation:parameter_free",
        "patience",
        "algorithm_1 checks the returned pair's NashConv against tol, reached with or without "
        "the stall window",
    ),
    *rows(GENERATOR, "reference.perturbation:dirichlet_starts", "trials", "rng"),
    *rows(
        BASELINE,
        "reference.perturbation:ogda",
        "step_size",
        "max_iter",
        "tol",
        "x0",
        "y0",
        "variant",
    ),
    *rows(BASELINE, "reference.perturbation:omwu", "step_size", "max_iter", "tol", "x0", "y0"),
    *rows(
        BASELINE,
        "reference.perturbation:symp_gda",
        "mu",
        "step_size",
        "max_iter",
        "tol",
        "x0",
        "y0",
        "stop",
    ),
    *rows(BASELINE, "reference.perturbation:gda", "step_size", "max_iter", "tol", "x0", "y0"),
    *rows(UTILITY, "reference.perturbation:frank_wolfe_gap", "mu_x", "mu_y"),
    *rows(UTILITY, "reference.perturbation:perturbed_gap", "mu"),
    (
        "reference.perturbation:asymp_gda",
        "x0",
        "the checks start from uniform (the default)",
    ),
    (
        "reference.perturbation:asymp_gda",
        "y0",
        "the checks start from uniform (the default)",
    ),
    (
        "reference.perturbation:asymp_gda",
        "stop",
        "the checks run fixed lengths (tol None or 1e-300), where the stopping rule never fires",
    ),
    (
        "reference.perturbation:parameter_free",
        "max_iter",
        "a cap algorithm_1's runs do not reach: they stop on tol",
    ),
    (
        "reference.perturbation:parameter_free",
        "max_inner",
        "a cap on one round algorithm_1's rounds do not reach",
    ),
    (
        "reference.perturbation:asymp_gda",
        "tol",
        "step_recursion replays the steps the run took, whatever stopped it (a million times "
        "tol passes, measured)",
    ),
    (
        "reference.perturbation:asymp_gda_side",
        "tol",
        "step_recursion replays the steps the run took, whatever stopped it (a million times "
        "tol passes, measured)",
    ),
    (
        "reference.perturbation:asymp_gda_side",
        "x0",
        "the checks start from uniform (the default)",
    ),
    (
        "reference.perturbation:asymp_gda_side",
        "y0",
        "the checks start from uniform (the default)",
    ),
)
