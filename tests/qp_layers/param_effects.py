"""Parameter-effect rows of the qp_layers family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import ORACLE, UTILITY, ParamEffect, Row, kw, rows, scaled

__all__ = ["NEUTRAL", "PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    ParamEffect(
        family="qp_layers",
        algorithm="reference.qp_layers:ffo_grads",
        keyword="alpha",
        label="2 alpha",
        replace=scaled(2.0),
        where="rank_one_error checks alpha (g_hat - g) = the rank-one term at each alpha",
        catches=("qp_layers.rank_one_error",),
    ),
    ParamEffect(
        family="qp_layers",
        algorithm="reference.qp_layers:ghost_pgd",
        keyword="alpha",
        label="2 alpha",
        replace=scaled(2.0),
        where="the ghost problem's solution moves by O(1/alpha)",
        catches=("qp_layers.pgd_rate",),
    ),
    kw(
        "qp_layers",
        "qp_layers:ghost_pgd",
        "max_iter",
        "max_iter / 2",
        lambda old: max(1, old // 2),
        "the rate and contraction checks read K steps",
        "qp_layers.pgd_rate",
        "qp_layers.pgd_contraction",
    ),
)

NEUTRAL: tuple[Row, ...] = (
    *rows(
        "ffo_grads solves the QP itself when solution is None: passing the solution only saves "
        "that solve, the gradients are the same",
        "reference.qp_layers:ffo_grads",
        "solution",
    ),
    *rows(
        "kkt_grads solves the QP itself when solution is None: passing the solution only saves "
        "that solve, the gradients are the same",
        "reference.qp_layers:kkt_grads",
        "solution",
    ),
    *rows(
        "penalty_grads solves the QP itself when solution is None: passing the solution only "
        "saves that solve, the gradients are the same",
        "reference.qp_layers:penalty_grads",
        "solution",
    ),
    *rows(
        "keeps every iterate in history; the returned point does not depend on it",
        "reference.qp_layers:ghost_pgd",
        "record",
    ),
)

UNCHECKED: tuple[Row, ...] = (
    (
        "reference.qp_layers:penalty_grads",
        "penalty",
        "penalty_rate and penalty_condition fit slopes in log(penalty): a uniformly rescaled "
        "penalty keeps both slopes; no check compares one penalty's error with its value",
    ),
    *rows(ORACLE, "reference.qp_layers:solve_qp_active_set", "G", "h", "A", "b"),
    *rows(UTILITY, "reference.qp_layers:active_set", "slack_tol", "dual_cutoff"),
    (
        "reference.qp_layers:ghost_pgd",
        "tol",
        "the rate and contraction checks read the iterates before the stopping rule fires: "
        "100 tol passes (measured)",
    ),
    (
        "reference.qp_layers:ffo_grads",
        "config",
        "rank_one_error passes with the default FFOConfig too (measured): its thresholds do "
        "not bind on the checks' QPs",
    ),
    (
        "reference.qp_layers:kkt_grads",
        "slack_tol",
        "the checks' QPs have no weakly active row within a thousand times the threshold "
        "(measured)",
    ),
    (
        "reference.qp_layers:kkt_grads",
        "degenerate_tol",
        "the checks' QPs have no weakly active row within a thousand times the threshold "
        "(measured)",
    ),
    (
        "reference.qp_layers:solve_qp",
        "G",
        "constraint data: active_set passes both G and h; dropping one fails the input "
        "validation (a documented ValueError)",
    ),
    (
        "reference.qp_layers:solve_qp",
        "h",
        "constraint data: active_set passes both G and h; dropping one fails the input "
        "validation (a documented ValueError)",
    ),
    (
        "reference.qp_layers:solve_qp",
        "A",
        "constraint data: dropping A without b fails the input validation (a documented "
        "ValueError)",
    ),
    (
        "reference.qp_layers:solve_qp",
        "b",
        "constraint data: dropping b without A fails the input validation (a documented "
        "ValueError)",
    ),
    (
        "reference.qp_layers:solve_qp",
        "config",
        "active_set passes with the default QPSolverConfig (measured): its tolerances are "
        "far below the check's budget",
    ),
    (
        "reference.qp_layers:penalty_grads",
        "config",
        "penalty_rate fits a slope that the default PenaltyConfig also gives (measured)",
    ),
)
