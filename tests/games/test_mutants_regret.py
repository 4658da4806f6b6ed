"""The games.regret suite (and games.solver on Newton-type bugs) has teeth."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import run_suite
from properties.games import GAME_REGRET, GAME_SOLVER
from tests.games import mutants_regret as mut

REGRET_MUTANTS: dict[str, tuple[Callable[..., Any], set[str]]] = {
    "no_clipping": (mut.no_clipping, {"states_nonnegative", "state_update"}),
    "sign_flip": (mut.sign_flip, {"instantaneous_regrets"}),
    "epsilon_floor": (mut.epsilon_floor, {"strategy_from_state", "shift_scale_invariance"}),
    "linear_average": (mut.linear_average, {"averaging_identity"}),
    "alternating": (mut.alternating, {"instantaneous_regrets"}),
    "discounted": (mut.discounted, {"state_update", "regret_below_state"}),
    "max_normalised": (mut.max_normalised, {"iterates_on_simplices"}),
    "first_action_on_zero": (mut.first_action_on_zero, {"permutation_equivariance"}),
}


def test_every_regret_check_is_killed_by_some_mutant() -> None:
    killed = set().union(*(expected for _, expected in REGRET_MUTANTS.values()))
    assert killed == set(GAME_REGRET.check_names())


@pytest.mark.parametrize("name", sorted(REGRET_MUTANTS))
def test_regret_mutants_fail(name: str) -> None:
    mutant, expected_failing = REGRET_MUTANTS[name]
    # run only the checks this mutant must fail (shrinking a failure is the slow part)
    skip = [c for c in GAME_REGRET.check_names() if c not in expected_failing]
    report = run_suite(mutant, GAME_REGRET, profile="smoke", skip=skip)
    assert not report.ok
    failed = {r.name for r in report.failed}
    assert failed == expected_failing, report.format()
    for result in report.failed:
        assert result.anchor in result.message
        assert "measured" in result.message
        assert "allowed" in result.message
        assert f"tests.games.mutants_regret:{mutant.__name__}" in result.snippet


@pytest.mark.parametrize(
    ("mutant", "expected_failing"),
    [
        (mut.ssn_returns_lifted_point, {"strategies_on_simplices"}),
        (mut.ssn_wrong_lift_sign, {"duality_gap", "value_matches_lp"}),
        (mut.ssn_too_few_steps, {"duality_gap"}),
    ],
    ids=["lifted_point", "wrong_sign", "too_few_steps"],
)
def test_newton_mutants_fail_the_solver_suite(
    mutant: Callable[..., Any], expected_failing: set[str]
) -> None:
    skip = [c for c in GAME_SOLVER.check_names() if c not in expected_failing]
    report = run_suite(mutant, GAME_SOLVER, profile="smoke", skip=skip)
    assert {r.name for r in report.failed} == expected_failing, report.format()
