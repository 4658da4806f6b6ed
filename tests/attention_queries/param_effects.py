"""Parameter-effect rows of the attention_queries family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import BASELINE, INNER, RANDOM_SOURCE, ParamEffect, Row, kw, rows, scaled

__all__ = ["NEUTRAL", "PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    kw(
        "attention_queries",
        "attention_queries:recover_noisy",
        "w_bound",
        "2 Wb",
        scaled(2.0),
        "the error bound is in Wb: a larger Wb gives a looser probe scale",
        "attention_queries.theorem_6_1",
    ),
)

NEUTRAL: tuple[Row, ...] = (
    *rows(
        RANDOM_SOURCE,
        "reference.attention_queries:recover_exact",
        "rng",
    ),
    *rows(RANDOM_SOURCE, "reference.attention_queries:recover_low_rank", "rng"),
    *rows(
        "read from oracle.d when absent; the checks' oracles carry d, so passing it or not "
        "gives the same width",
        "reference.attention_queries:recover_exact",
        "d",
    ),
    *rows(
        "read from oracle.d when absent; the checks' oracles carry d",
        "reference.attention_queries:recover_low_rank",
        "d",
    ),
    *rows(
        "read from oracle.d when absent; the checks' oracles carry d",
        "reference.attention_queries:recover_noisy",
        "d",
    ),
)

UNCHECKED: tuple[Row, ...] = (
    *rows(INNER, "reference.attention_queries:nuclear_norm_admm", "max_iter", "tol"),
    *rows(BASELINE, "reference.attention_queries:nuclear_norm_fista", "max_iter", "tol"),
    *rows(
        BASELINE,
        "reference.attention_queries:passive_fit",
        "rng",
        "d",
        "max_len",
        "max_iter",
        "tol",
    ),
    (
        "reference.attention_queries:recover_exact",
        "scale",
        "theorem_4_1 checks exact recovery, which any probe scale below saturation achieves "
        "(twice and half the scale pass, measured)",
    ),
    (
        "reference.attention_queries:recover_exact",
        "tol",
        "the zero threshold for v: the checks' v have no entries within orders of tol, so "
        "twice or half of it classifies the same (measured)",
    ),
    (
        "reference.attention_queries:recover_exact",
        "max_resample",
        "a cap on probe rescalings the checks' oracles never reach (measured: twice or one "
        "less passes)",
    ),
    (
        "reference.attention_queries:recover_low_rank",
        "m",
        "theorem_5_1 checks recovery, which every m above 2 r d achieves: the default, twice "
        "and one fewer measurement pass (measured)",
    ),
    (
        "reference.attention_queries:recover_low_rank",
        "c_m",
        "sets the default m only; theorem_5_1 passes m itself",
    ),
    (
        "reference.attention_queries:recover_low_rank",
        "s_a",
        "recovery holds at any scale below saturation: twice and half pass (measured)",
    ),
    (
        "reference.attention_queries:recover_low_rank",
        "max_iter",
        "the solver converges well within the iterations theorem_5_1 passes (the default and "
        "twice pass, measured)",
    ),
    (
        "reference.attention_queries:recover_low_rank",
        "solver_tol",
        "the recovery error stays far below theorem_5_1's budget for twice or half the "
        "solver tolerance (measured)",
    ),
    (
        "reference.attention_queries:recover_low_rank",
        "tol",
        "the zero threshold for v: no entry is near it on the checks' instances (measured)",
    ),
    (
        "reference.attention_queries:recover_noisy",
        "mu",
        "a lower bound on min |v_i|: half of it is still a valid bound (passes, measured); "
        "twice of it is rejected by the oracle check (a documented ValueError)",
    ),
    (
        "reference.attention_queries:recover_one_layer",
        "d",
        "one_layer passes the oracle's width; any other width fails the input validation (a "
        "documented ValueError), not a measured violation",
    ),
    (
        "reference.attention_queries:recover_one_layer",
        "ffn_learner",
        "one_layer passes no FFN learner (the built-in one is used)",
    ),
    (
        "reference.attention_queries:recover_one_layer",
        "scale",
        "recovery holds at any probe scale below saturation: twice and half pass (measured)",
    ),
    (
        "reference.attention_queries:multihead_witnesses",
        "shift",
        "proposition_7_1 checks that the two witnesses give equal outputs, which holds for "
        "every non-zero shift; no check compares the witnesses with a given c",
    ),
    (
        "reference.attention_queries:multihead_witnesses",
        "other_W",
        "proposition_7_1 checks that the two witnesses give equal outputs, which holds for "
        "every W' != W",
    ),
)
