"""The qp_layers suites have teeth: every mutant fails with a readable message, and every
check of every suite is failed by at least one mutant (no dead checks)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, Suite, run_suite
from properties.qp_layers import FFO_GRADIENT, HYPERGRADIENT, QP_SOLVER
from tests._mutants import assert_measured_kill
from tests.qp_layers import mutants as mq

RAISES = Capabilities(raises_on_invalid=True)
BATCHED = Capabilities(batched=True)

# (suite, mutant, capabilities, checks it must fail)
CASES: list[tuple[Suite[Any], Callable[..., Any], Capabilities, set[str]]] = [
    (
        QP_SOLVER,
        mq.solver_ignores_inequalities,
        RAISES,
        {"kkt_residual", "matches_planted_solution", "rejects_infeasible", "rejects_non_spd"},
    ),
    (QP_SOLVER, mq.solver_drops_last_row, RAISES, {"kkt_residual", "row_permutation_equivariance"}),
    (QP_SOLVER, mq.solver_lambda_sign, RAISES, {"kkt_residual", "matches_planted_solution"}),
    (
        QP_SOLVER,
        mq.solver_normalises_q_matrix,
        RAISES,
        {"objective_scaling_invariance", "equality_only_closed_form"},
    ),
    (QP_SOLVER, mq.solver_batch_first_only, BATCHED, {"batched_equals_stacked"}),
    (
        HYPERGRADIENT,
        mq.kkt_sign_flip,
        RAISES,
        {
            "matches_implicit_differentiation",
            "matches_finite_differences",
            "unconstrained_closed_form",
        },
    ),
    (HYPERGRADIENT, mq.kkt_unsymmetrised_q_matrix, RAISES, {"matches_implicit_differentiation"}),
    (
        HYPERGRADIENT,
        mq.kkt_drops_lambda_dz,
        RAISES,
        {"matches_implicit_differentiation", "matches_finite_differences"},
    ),
    (
        HYPERGRADIENT,
        mq.kkt_all_rows_active,
        RAISES,
        {"inactive_rows_zero", "redundant_constraint_invariance"},
    ),
    (HYPERGRADIENT, mq.kkt_normalised_q_matrix, RAISES, {"scale_covariance"}),
    (HYPERGRADIENT, mq.ffo_used_as_exact, RAISES, {"linear_in_upstream"}),
    (
        FFO_GRADIENT,
        mq.ffo_sign_flip,
        RAISES,
        {"exact_blocks", "cosine_at_default_alpha", "unconstrained", "equality_only"},
    ),
    (FFO_GRADIENT, mq.ffo_missing_alpha, RAISES, {"exact_blocks", "error_bound"}),
    (FFO_GRADIENT, mq.ffo_constraints_at_ystar, RAISES, {"rank_one_error", "error_bound"}),
    (FFO_GRADIENT, mq.ffo_all_rows_active, RAISES, {"inactive_rows_exactly_zero"}),
    (FFO_GRADIENT, mq.ffo_normalised_upstream, RAISES, {"linear_blocks"}),
    (FFO_GRADIENT, mq.ffo_trace_scaled_tilt, RAISES, {"scale"}),
    (FFO_GRADIENT, mq.ffo_unsymmetrised_q_matrix, RAISES, {"rank_one_error"}),
]


@pytest.mark.parametrize(
    ("suite", "mutant", "caps", "expected"),
    CASES,
    ids=[f"{s.name}:{m.__name__}" for s, m, _, _ in CASES],
)
def test_mutant_fails_readably(
    suite: Suite[Any], mutant: Callable[..., Any], caps: Capabilities, expected: set[str]
) -> None:
    # only the expected checks run (the verdict of the others is not part of the contract)
    skip = [c for c in suite.check_names() if c not in expected]
    report = run_suite(mutant, suite, capabilities=caps, skip=skip, profile="conformance")
    failed = {r.name for r in report.failed}
    assert failed == expected, report.format()
    for result in report.failed:
        assert_measured_kill(result)
        assert f"tests.qp_layers.mutants:{mutant.__name__}" in result.snippet


@pytest.mark.parametrize("suite", [QP_SOLVER, HYPERGRADIENT, FFO_GRADIENT], ids=lambda s: s.name)
def test_no_dead_checks(suite: Suite[Any]) -> None:
    killed = set().union(*(exp for s, _, _, exp in CASES if s is suite))
    assert killed == set(suite.check_names())
