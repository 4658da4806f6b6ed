"""Parameter-effect rows of the preference family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import ParamEffect, Row, constant, kw, rows, scaled, use_default

__all__ = ["NEUTRAL", "PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    ParamEffect(
        family="preference",
        algorithm="reference.preference:implicit_reward",
        keyword="beta",
        label="default 0.1",
        replace=constant(0.1),
        where="the check uses beta = 0.05 and 2.5",
        catches=("preference.a1_implicit_reward",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:implicit_reward",
        keyword="loss",
        label="default 'log'",
        replace=constant("log"),
        where="the check asks for the Brier reward too",
        catches=("preference.a1_implicit_reward",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:dpo_loss",
        keyword="beta",
        label="2 beta",
        replace=scaled(2.0),
        where="T3 compares with -log sigma(beta margin) at beta = 0.1",
        catches=("preference.t3_dpo",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:optimal_policy",
        keyword="loss",
        label="default 'log'",
        replace=use_default,
        where="T8 asks the Brier regulariser too",
        catches=("preference.t8_optimal_policy",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:preference_loss",
        keyword="psi",
        label="default softplus",
        replace=use_default,
        where="T9 asks the Savage loss sigma^2 too",
        catches=("preference.t9_fisher",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:rao_kupper_link",
        keyword="theta",
        label="default 1",
        replace=use_default,
        where="T7 asks theta = e^0.5 and e^2",
        catches=("preference.t7_margin",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:train_tabular_policy",
        keyword="beta",
        label="default 0.1",
        replace=use_default,
        where="A6 asks beta 0.05, 0.25 and 2",
        catches=("preference.a6_tabular_optimum",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:train_tabular_policy",
        keyword="learning_rate",
        label="default 0.01",
        replace=use_default,
        where="A6's beta = 0.05 instance needs lr 0.1 to converge in its steps",
        catches=("preference.a6_tabular_optimum",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:train_tabular_policy",
        keyword="margin",
        label="default 0",
        replace=use_default,
        where="A6 asks gamma = 0.4",
        catches=("preference.a6_tabular_optimum",),
    ),
    kw(
        "preference",
        "preference:optimal_policy",
        "beta",
        "2 beta",
        scaled(2.0),
        "T8 compares with pi_ref exp(r / beta) normalised",
        "preference.t8_optimal_policy",
    ),
    kw(
        "preference",
        "preference:dpo_loss",
        "psi",
        "default softplus",
        use_default,
        "dpo_family runs the Savage loss sigma^2 too",
        "preference.dpo_family",
    ),
    kw(
        "preference",
        "preference:dpo_loss",
        "margin",
        "default 0",
        use_default,
        "dpo_family passes gamma = 0.3 and 1.1",
        "preference.dpo_family",
    ),
    kw(
        "preference",
        "preference:dpo_loss",
        "length_w",
        "every length 1",
        lambda old: [1] * len(old),
        "dpo_family passes lengths 5..60 with alpha_len > 0",
        "preference.dpo_family",
    ),
    kw(
        "preference",
        "preference:dpo_loss",
        "length_l",
        "every length 1",
        lambda old: [1] * len(old),
        "dpo_family passes lengths 5..60 with alpha_len > 0",
        "preference.dpo_family",
    ),
    kw(
        "preference",
        "preference:dpo_loss",
        "length_coef",
        "default 0",
        use_default,
        "dpo_family passes alpha_len = 0.02 and 0.05",
        "preference.dpo_family",
    ),
    kw(
        "preference",
        "preference:preference_loss",
        "margin",
        "default 0",
        use_default,
        "dpo_family passes gamma = 0.3 and 1.1",
        "preference.dpo_family",
    ),
)

NEUTRAL: tuple[Row, ...] = (
    (
        "reference.preference:train_tabular_policy",
        "steps",
        "A6's instances converge: a step more or fewer (or the default 2000) ends at the same "
        "minimiser, which is what the check claims",
    ),
    *rows(
        "only widens the accepted margins to gamma < 0; the checks pass gamma >= 0, where the "
        "loss is the same",
        "reference.preference:preference_loss",
        "allow_negative_margin",
    ),
)

UNCHECKED: tuple[Row, ...] = (
    (
        "reference.preference:embed_psi",
        "closed",
        "T4 checks the embedding identity, which the open and closed losses both satisfy",
    ),
    (
        "reference.preference:embed_psi",
        "z_range",
        "a bracket for the numeric inverse: any bracket holding the root gives the same value",
    ),
    (
        "reference.preference:representable",
        "tol",
        "T5's generated matrices are representable exactly; the tolerance only decides "
        "borderline inputs, which T5 does not draw",
    ),
    (
        "reference.preference:train_tabular_policy",
        "psi",
        "A6 runs the default (logistic) psi only",
    ),
    (
        "reference.preference:embed_psi",
        "psi_prime",
        "only improves the numeric inverse's accuracy; T4's tolerance is met without it (measured)",
    ),
)
