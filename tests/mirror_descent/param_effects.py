"""Parameter-effect rows of the mirror_descent family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

import dataclasses

from tests._param_rows import (
    INNER,
    RANDOM_SOURCE,
    UTILITY,
    ParamEffect,
    Row,
    constant,
    kw,
    one_less,
    rows,
    scaled,
    use_default,
)

__all__ = ["NEUTRAL", "PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_descent",
        keyword="step_size",
        label="1.1 eta",
        replace=scaled(1.1),
        where="the closed form (1 - eta lambda)^T depends on eta",
        catches=("mirror_descent.quadratic_closed_forms",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_prox",
        keyword="step_size",
        label="1.1 eta",
        replace=scaled(1.1),
        where="the closed form of mirror prox depends on eta",
        catches=("mirror_descent.quadratic_closed_forms",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:accelerated_mirror_descent",
        keyword="step_size",
        label="default 1.0",
        replace=constant(1.0),
        where="closed forms at eta = 0.35, 0.6, 0.9",
        catches=("mirror_descent.quadratic_closed_forms",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:accelerated_mirror_descent",
        keyword="lipschitz",
        label="2 L",
        replace=scaled(2.0),
        where="eta_t = eta (t+1)/(2L) depends on L",
        catches=("mirror_descent.quadratic_closed_forms",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_descent",
        keyword="max_iter",
        label="T - 1",
        replace=one_less,
        where="the closed form is at T",
        catches=("mirror_descent.quadratic_closed_forms",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:effective_g",
        keyword="alpha",
        label="default 1.0",
        replace=constant(1.0),
        where="the check asks for alpha = 0, 0.5 and 1.5 with L1 > 0",
        catches=("mirror_descent.effective_g",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_descent",
        keyword="mirror",
        label="default 'euclidean'",
        replace=use_default,
        where="mirror_replay runs the lp and entropic maps",
        catches=("mirror_descent.mirror_replay",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_descent",
        keyword="p",
        label="default 2",
        replace=use_default,
        where="mirror_replay runs the lp map at p = 1.3 and 1.7",
        catches=("mirror_descent.mirror_replay",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_prox",
        keyword="mirror",
        label="default 'euclidean'",
        replace=use_default,
        where="mirror_replay runs the lp and entropic maps",
        catches=("mirror_descent.mirror_replay",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_prox",
        keyword="p",
        label="default 2",
        replace=use_default,
        where="mirror_replay runs the lp map at p = 1.3 and 1.7",
        catches=("mirror_descent.mirror_replay",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:optimistic_mirror_descent",
        keyword="mirror",
        label="default 'euclidean'",
        replace=use_default,
        where="mirror_replay runs the lp and entropic maps",
        catches=("mirror_descent.mirror_replay",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:optimistic_mirror_descent",
        keyword="p",
        label="default 2",
        replace=use_default,
        where="mirror_replay runs the lp map at p = 1.3 and 1.7",
        catches=("mirror_descent.mirror_replay",),
    ),
    kw(
        "mirror_descent",
        "mirror_descent:accelerated_mirror_descent",
        "max_iter",
        "T - 1",
        one_less,
        "the closed form is at T",
        "mirror_descent.quadratic_closed_forms",
    ),
    kw(
        "mirror_descent",
        "mirror_descent:composite_mirror_descent",
        "step_size",
        "eta/2",
        scaled(0.5),
        "composite_rate's bound D/(eta T) is nearly attained at the eta passed",
        "mirror_descent.composite_rate",
    ),
    kw(
        "mirror_descent",
        "mirror_descent:effective_constants",
        "accelerated",
        "flipped",
        lambda old: not old,
        "sympy_identities asks L = l(2G) and l(4G)",
        "mirror_descent.sympy_identities",
    ),
    kw(
        "mirror_descent",
        "mirror_descent:composite_mirror_descent",
        "regularizer",
        "2 x weight",
        lambda old: dataclasses.replace(old, weight=2.0 * old.weight),
        "composite_rate measures F = f + h with the h it passed",
        "mirror_descent.composite_rate",
    ),
    kw(
        "mirror_descent",
        "mirror_descent:mirror_prox",
        "max_iter",
        "T - 1",
        one_less,
        "the closed form is at T",
        "mirror_descent.quadratic_closed_forms",
    ),
    kw(
        "mirror_descent",
        "mirror_descent:stochastic_mirror_descent",
        "max_iter",
        "T - 1",
        one_less,
        "stochastic_rate's runs are read at T",
        "mirror_descent.stochastic_rate",
    ),
    kw(
        "mirror_descent",
        "mirror_descent:stochastic_mirror_descent",
        "sigma0",
        "default 0",
        use_default,
        "stochastic_rate asks sigma0 = 0.2 and 0.5",
        "mirror_descent.stochastic_rate",
    ),
    kw(
        "mirror_descent",
        "mirror_descent:stochastic_mirror_descent",
        "sigma1",
        "default 0",
        use_default,
        "stochastic_rate asks sigma1 = 0.5",
        "mirror_descent.stochastic_rate",
    ),
    kw(
        "mirror_descent",
        "mirror_descent:composite_mirror_descent",
        "max_iter",
        "T - 1",
        one_less,
        "composite_replay replays 7 steps",
        "mirror_descent.composite_replay",
    ),
    kw(
        "mirror_descent",
        "mirror_descent:composite_mirror_descent",
        "mirror",
        "'euclidean' for 'lp'",
        lambda old: "euclidean" if old == "lp" else old,
        "composite_replay runs the lp map (h = 0)",
        "mirror_descent.composite_replay",
    ),
    kw(
        "mirror_descent",
        "mirror_descent:composite_mirror_descent",
        "p",
        "default 2",
        use_default,
        "composite_replay runs the lp map at p = 1.5",
        "mirror_descent.composite_replay",
    ),
)

NEUTRAL: tuple[Row, ...] = (
    (
        "reference.mirror_descent:mirror_descent",
        "lipschitz",
        "only warns (or raises with strict) when eta > 1/L; the iterates do not depend on it",
    ),
    (
        "reference.mirror_descent:mirror_descent",
        "strict",
        "raise instead of warn on eta > 1/L: no check passes eta > 1/L",
    ),
    (
        "reference.mirror_descent:accelerated_mirror_descent",
        "tol",
        "tol = 0 (the default) never stops; a positive tol only stops a converged run",
    ),
    *rows(RANDOM_SOURCE, "reference.mirror_descent:stochastic_mirror_descent", "rng"),
    *rows(
        "tol = 0 (the default, all the checks pass it) never stops the run",
        "reference.mirror_descent:mirror_descent",
        "tol",
    ),
    *rows(
        "tol = 0 (the default, all the checks pass it) never stops the run",
        "reference.mirror_descent:composite_mirror_descent",
        "tol",
    ),
    *rows(
        "tol = 0 (the default, all the checks pass it) never stops the run",
        "reference.mirror_descent:mirror_prox",
        "tol",
    ),
    *rows(
        "tol = 0 (the default, all the checks pass it) never stops the run",
        "reference.mirror_descent:optimistic_mirror_descent",
        "tol",
    ),
    *rows(
        "only warns (or raises with strict) when the step exceeds its limit in L; the iterates "
        "do not depend on it",
        "reference.mirror_descent:composite_mirror_descent",
        "lipschitz",
        "strict",
    ),
    *rows(
        "only warns (or raises with strict) when the step exceeds its limit in L; the iterates "
        "do not depend on it",
        "reference.mirror_descent:mirror_prox",
        "lipschitz",
        "strict",
    ),
    *rows(
        "only warns (or raises with strict) when the step exceeds its limit in L; the iterates "
        "do not depend on it",
        "reference.mirror_descent:optimistic_mirror_descent",
        "lipschitz",
        "strict",
    ),
    *rows(
        "raise instead of warn when the step exceeds 1/(2L): the iterates do not depend on it",
        "reference.mirror_descent:stochastic_mirror_descent",
        "strict",
    ),
    *rows(
        "the lp map's exponent; the checks run the Euclidean and entropic maps, where it is "
        "unused (mirror_replay runs lp for the three methods it replays)",
        "reference.mirror_descent:accelerated_mirror_descent",
        "p",
    ),
    *rows(
        "the lp map's exponent; stochastic_rate runs the Euclidean map, where it is unused",
        "reference.mirror_descent:stochastic_mirror_descent",
        "p",
    ),
)

UNCHECKED: tuple[Row, ...] = (
    *rows(INNER, "reference.mirror_descent:composite_prox_step", "regularizer", "mirror", "p"),
    *rows(INNER, "reference.mirror_descent:prox_step", "mirror", "p"),
    *rows(UTILITY, "reference.mirror_descent:bregman_divergence", "mirror", "p"),
    *rows(UTILITY, "reference.mirror_descent:dual_norm", "norm", "p"),
    *rows(UTILITY, "reference.mirror_descent:dual_maximizer", "norm", "p"),
    *rows(UTILITY, "reference.mirror_descent:local_smoothness_estimates", "norm", "p"),
    *rows(UTILITY, "reference.mirror_descent:primal_norm", "norm", "p"),
    (
        "reference.mirror_descent:accelerated_mirror_descent",
        "mirror",
        "accelerated_rate runs each map on its own domain: the Euclidean map on the simplex "
        "instance fails the gradient's input check (a documented ValueError)",
    ),
    (
        "reference.mirror_descent:stochastic_mirror_descent",
        "mirror",
        "stochastic_rate runs the Euclidean map only",
    ),
    (
        "reference.mirror_descent:optimistic_mirror_descent",
        "step_size",
        "optimistic_rate's bound holds for every step below 1/(3L): twice and half pass "
        "(measured); mirror_replay uses one step for all three methods",
    ),
    (
        "reference.mirror_descent:optimistic_mirror_descent",
        "max_iter",
        "optimistic_rate's bound holds at every T: twice and one fewer step pass (measured)",
    ),
    (
        "reference.mirror_descent:stochastic_mirror_descent",
        "step_size",
        "stochastic_rate passes explicit steps or None with L for the default rule; the rate "
        "holds for each, and None without L raises (a documented ValueError)",
    ),
    (
        "reference.mirror_descent:stochastic_mirror_descent",
        "lipschitz",
        "enters the default step rule only; stochastic_rate's bound holds for every step "
        "below its limit",
    ),
)
