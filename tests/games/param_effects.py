"""Parameter-effect rows of the games family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import ParamEffect, Row, constant, kw, one_less, rows, scaled, use_default

__all__ = ["NEUTRAL", "PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    ParamEffect(
        family="games",
        algorithm="reference.games:prm_plus",
        keyword="averaging",
        label="default 'linear'",
        replace=constant("linear"),
        where="averaging_rules asks for every rule; last/uniform/quadratic/best differ from linear",
        catches=("games.averaging_rules",),
    ),
    ParamEffect(
        family="games",
        algorithm="reference.games:prm_plus",
        keyword="averaging",
        label="neighbour 'uniform'",
        replace=constant("uniform"),
        where="the rate check's linear average becomes uniform: slower on weighted RPS",
        catches=("games.averaging_rules",),
    ),
    ParamEffect(
        family="games",
        algorithm="reference.games:rm_plus",
        keyword="averaging",
        label="default 'uniform'",
        replace=constant("uniform"),
        where="averaging_rules asks for linear, quadratic, last and best",
        catches=("games.averaging_rules",),
    ),
    ParamEffect(
        family="games",
        algorithm="reference.games:prm_plus",
        keyword="max_iter",
        label="max_iter / 2",
        replace=lambda old: max(1, old // 2),
        where="tol = 1e-300 is never met: the run length is max_iter, the average changes",
        catches=("games.averaging_rules",),
    ),
    kw(
        "games",
        "games:rm_plus",
        "max_iter",
        "max_iter / 2",
        lambda old: max(1, old // 2),
        "averaging_rules passes tol = 1e-300 and run lengths 37..175",
        "games.averaging_rules",
    ),
    kw(
        "games",
        "games:hybrid",
        "tol",
        "2 tol",
        scaled(2.0),
        "hybrid_global checks the gap against the tol it passed",
        "games.hybrid_global",
    ),
    kw(
        "games",
        "games:ssn",
        "tol",
        "default 1e-10",
        use_default,
        "ssn_quadratic passes tol = 1e-300 to watch the quadratic phase",
        "games.ssn_quadratic",
    ),
    kw(
        "games",
        "games:prm_plus_trajectory",
        "iterations",
        "T - 1",
        one_less,
        "regret_facts reads T iterates",
        "games.regret_facts",
    ),
    kw(
        "games",
        "games:rm_plus_trajectory",
        "iterations",
        "T - 1",
        one_less,
        "regret_facts reads T iterates",
        "games.regret_facts",
    ),
    kw(
        "games",
        "games:drs",
        "max_iter",
        "T - 1",
        one_less,
        "drs_replay replays 9 steps",
        "games.drs_replay",
    ),
    kw(
        "games",
        "games:drs",
        "u0",
        "default None (L(uniform))",
        use_default,
        "drs_replay starts from a given lifted point",
        "games.drs_replay",
    ),
    kw(
        "games",
        "games:drs",
        "step_size",
        "default None (1/||A||)",
        use_default,
        "drs_replay passes step_size = 0.37/||A||",
        "games.drs_replay",
    ),
    kw(
        "games",
        "games:drs",
        "tol_res",
        "default None (1e-14 scale)",
        use_default,
        "drs_replay stops one run at a residual floor of ||R(u_5)||",
        "games.drs_replay",
    ),
    kw(
        "games",
        "games:drs",
        "tol",
        "default 1e-10",
        use_default,
        "drs_replay stops one run on the gap at step 6",
        "games.drs_replay",
    ),
)

NEUTRAL: tuple[Row, ...] = (
    (
        "reference.games:prm_plus",
        "tol",
        "the checks pass tol = 1e-300 so the run length is max_iter; tol only stops a run",
    ),
    *rows(
        "the checks pass tol = 1e-300 (never met): the run length is max_iter",
        "reference.games:rm_plus",
        "tol",
    ),
)

UNCHECKED: tuple[Row, ...] = (
    (
        "reference.games:prm_plus",
        "alternating",
        "the checks run simultaneous updates only; alternating PRM+ has the same limit and rate "
        "class, and no check replays the per-step order",
    ),
    (
        "reference.games:rm_plus",
        "alternating",
        "averaging_rules passes simultaneous updates only; no check replays the per-step order",
    ),
    (
        "reference.games:hybrid",
        "mode",
        "hybrid_global runs PSSN and HPSSN and checks the limit, which both modes reach",
    ),
    (
        "reference.games:hybrid",
        "config",
        "the checks pass the default HybridConfig; its fields change the path, not the limit "
        "that hybrid_global checks",
    ),
    (
        "reference.games:ssn",
        "config",
        "the checks pass the default SSNConfig; its fields change the path, not the fixed point "
        "and quadratic rate the checks measure",
    ),
    (
        "reference.games:drs_residual",
        "step_size",
        "the checks pass the default step_size = 1/||A||; the residual's zeros, which they "
        "check, do not depend on it",
    ),
    (
        "reference.games:hybrid",
        "max_iter",
        "a cap hybrid_global's runs never reach (twice or one less passes, measured)",
    ),
    (
        "reference.games:ssn",
        "max_iter",
        "a Newton cap the checks' runs never reach (twice or one less passes, measured)",
    ),
    (
        "reference.games:ssn",
        "u0",
        "the checks pass the default start; the fixed point and the quadratic rate they "
        "measure do not depend on it",
    ),
)
