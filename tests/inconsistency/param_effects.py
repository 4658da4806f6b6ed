"""Parameter-effect rows of the inconsistency family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from typing import Any

from tests._param_rows import (
    BASELINE,
    GENERATOR,
    RANDOM_SOURCE,
    ParamEffect,
    Row,
    constant,
    kw,
    rows,
    scaled,
    use_default,
)

__all__ = ["NEUTRAL", "PARAM_EFFECTS", "UNCHECKED"]


def _default_sgd_config() -> Any:
    from reference.inconsistency import SGDConfig

    return SGDConfig()


def _default_iam_config() -> Any:
    from reference.inconsistency import IAMConfig

    return IAMConfig()


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    ParamEffect(
        family="inconsistency",
        algorithm="reference.inconsistency:local_inconsistency",
        keyword="steps",
        label="default 1",
        replace=constant(1),
        where="one step from noise is far from the top eigenvector: S-hat below (rho²/2) lambda_max",
        catches=("inconsistency.local_inconsistency",),
    ),
    ParamEffect(
        family="inconsistency",
        algorithm="reference.inconsistency:local_inconsistency",
        keyword="noise_scale",
        label="10 sigma_n",
        replace=scaled(10.0),
        where="the documented-draw part replays A1 from sigma_n = 1e-3",
        catches=("inconsistency.local_inconsistency",),
    ),
    ParamEffect(
        family="inconsistency",
        algorithm="reference.inconsistency:iam_s",
        keyword="config",
        label="default IAMConfig()",
        replace=lambda _old: _default_iam_config(),
        where="the check asks for rho = 0.3 and 0 and K = 2 (default rho 0.05, K 1)",
        catches=("inconsistency.iam_s_step",),
    ),
    kw(
        "inconsistency",
        "inconsistency:inconsistency_ascent",
        "rho",
        "2 rho",
        scaled(2.0),
        "S-hat scales with rho^2",
        "inconsistency.power_iteration",
        "inconsistency.top_eigenvalue",
    ),
    kw(
        "inconsistency",
        "inconsistency:inconsistency_ascent",
        "steps",
        "default 1",
        use_default,
        "top_eigenvalue needs the 30 ascent steps it passed to reach the top eigenvector",
        "inconsistency.top_eigenvalue",
    ),
    kw(
        "inconsistency",
        "inconsistency:local_inconsistency",
        "rho",
        "2 rho",
        scaled(2.0),
        "S-hat scales with rho^2",
        "inconsistency.local_inconsistency",
    ),
    kw(
        "inconsistency",
        "inconsistency:iam_d_objective",
        "beta",
        "2 beta",
        scaled(2.0),
        "M1 replays the objective at beta 0.3 and 2.5",
        "inconsistency.iam_d_step",
    ),
    kw(
        "inconsistency",
        "inconsistency:iam_d",
        "buffer",
        "None (zeros)",
        constant(None),
        "iam_d_step passes a nonzero momentum buffer",
        "inconsistency.iam_d_step",
    ),
    kw(
        "inconsistency",
        "inconsistency:iam_d",
        "optimizer",
        "default SGDConfig()",
        lambda _old: _default_sgd_config(),
        "iam_d_step passes momentum 0.9, learning rate 0.07 and weight decay",
        "inconsistency.iam_d_step",
    ),
    kw(
        "inconsistency",
        "inconsistency:sgd_step",
        "buffer",
        "None (zeros)",
        constant(None),
        "iam_d_step passes a nonzero momentum buffer",
        "inconsistency.iam_d_step",
    ),
    kw(
        "inconsistency",
        "inconsistency:sgd_step",
        "config",
        "default SGDConfig()",
        lambda _old: _default_sgd_config(),
        "iam_d_step passes momentum 0.9, learning rate 0.07 and weight decay",
        "inconsistency.iam_d_step",
    ),
    kw(
        "inconsistency",
        "inconsistency:iam_s",
        "buffer",
        "None (zeros)",
        constant(None),
        "iam_s_step passes a nonzero momentum buffer",
        "inconsistency.iam_s_step",
    ),
    kw(
        "inconsistency",
        "inconsistency:iam_s",
        "optimizer",
        "default SGDConfig()",
        lambda _old: _default_sgd_config(),
        "iam_s_step passes its own SGD settings",
        "inconsistency.iam_s_step",
    ),
    kw(
        "inconsistency",
        "inconsistency:iam_de",
        "delta",
        "None (first step)",
        constant(None),
        "iam_de_chain carries the state delta from step to step",
        "inconsistency.iam_de_chain",
    ),
    kw(
        "inconsistency",
        "inconsistency:sam_perturbation",
        "rho",
        "2 rho",
        scaled(2.0),
        "the first-order check compares with rho g / ||g||",
        "inconsistency.sam_first_order",
    ),
    kw(
        "inconsistency",
        "inconsistency:sam_perturbation",
        "adaptive",
        "flipped",
        lambda old: not old,
        "the check asks SAM, whose perturbation differs from ASAM's",
        "inconsistency.sam_first_order",
    ),
)

NEUTRAL: tuple[Row, ...] = (
    *rows(RANDOM_SOURCE, "reference.inconsistency:iam_d", "rng"),
    *rows(RANDOM_SOURCE, "reference.inconsistency:iam_de", "rng"),
    *rows(RANDOM_SOURCE, "reference.inconsistency:iam_s", "rng"),
    *rows(RANDOM_SOURCE, "reference.inconsistency:local_inconsistency", "rng"),
    *rows(
        "shift is ASAM's; sam_first_order runs SAM (adaptive=False), where it is unused",
        "reference.inconsistency:sam_perturbation",
        "shift",
    ),
)

UNCHECKED: tuple[Row, ...] = (
    *rows(GENERATOR, "reference.inconsistency:init_params", "rng", "scale"),
    *rows(BASELINE, "reference.inconsistency:asam", "config", "optimizer", "buffer"),
    *rows(BASELINE, "reference.inconsistency:sam", "config", "optimizer", "buffer"),
    (
        "reference.inconsistency:inconsistency_ascent",
        "noise_scale",
        "the ascent converges to the same top eigenvector from noise twice or half as large "
        "(measured)",
    ),
    (
        "reference.inconsistency:iam_d",
        "config",
        "iam_d_step replays the update from the perturbation the step returns: twice "
        "config.rho passes it (measured)",
    ),
    (
        "reference.inconsistency:iam_de",
        "config",
        "iam_de_chain checks the chain's consistency, which the default IAMDEConfig also "
        "satisfies (measured)",
    ),
    (
        "reference.inconsistency:iam_de",
        "optimizer",
        "iam_de_chain checks the chain's consistency, which the default SGDConfig also "
        "satisfies (measured)",
    ),
    (
        "reference.inconsistency:iam_de",
        "buffer",
        "iam_de_chain passes no buffer (zeros)",
    ),
    (
        "reference.inconsistency:iam_de_step",
        "sign",
        "iam_de_power_iteration measures a direction up to sign: a flipped sign passes it "
        "(measured)",
    ),
    (
        "reference.inconsistency:iam_de_step",
        "config",
        "iam_de_power_iteration checks the converged direction, which the default "
        "IAMDEConfig also reaches (measured)",
    ),
    (
        "reference.inconsistency:iam_de_step",
        "optimizer",
        "iam_de_power_iteration checks the converged direction, which the default SGDConfig "
        "also reaches (measured)",
    ),
    (
        "reference.inconsistency:iam_de_step",
        "buffer",
        "iam_de_power_iteration passes no buffer (zeros)",
    ),
)
