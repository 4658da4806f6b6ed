"""The extensive.* suites have teeth: every mutant fails, every check kills some mutant."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, Suite, run_suite
from properties.extensive import EFG_NASH_CONV, EFG_PROX, EFG_SOLVER
from tests._mutants import assert_measured_kill
from tests.extensive import mutants as me

CAPS = Capabilities(tolerance=1e-8)

CASES: list[tuple[Suite[Any], Callable[..., Any], set[str]]] = [
    (EFG_NASH_CONV, me.only_player_2, {"matches_lp"}),
    (EFG_NASH_CONV, me.local_best_response, {"matches_lp"}),
    (EFG_NASH_CONV, me.swapped, {"matches_lp", "nonnegative"}),
    (EFG_NASH_CONV, me.offset, {"zero_at_equilibrium"}),
    (EFG_SOLVER, me.uniform_solver, {"nash_conv", "value", "kuhn_value"}),
    (EFG_SOLVER, me.behavioural_solver, {"plans_feasible"}),
    (EFG_SOLVER, me.sign_error_solver, {"nash_conv", "value", "kuhn_value"}),
    (EFG_PROX, me.prox_ignores_kappa, {"matches_reference"}),
    (EFG_PROX, me.prox_no_children, {"matches_reference"}),
    (EFG_PROX, me.prox_forgets_anchor, {"identity", "matches_reference"}),
    (EFG_PROX, me.prox_behavioural, {"feasible"}),
]


@pytest.mark.parametrize(
    ("suite", "mutant", "expected"), CASES, ids=[m.__name__ for _, m, _ in CASES]
)
def test_mutant_fails(suite: Suite[Any], mutant: Callable[..., Any], expected: set[str]) -> None:
    skip = [n for n in suite.check_names() if n not in expected]
    report = run_suite(mutant, suite, capabilities=CAPS, profile="smoke", skip=skip)
    failed = {r.name for r in report.failed}
    assert expected <= failed, report.format()
    for result in report.failed:
        assert_measured_kill(result)


def test_every_check_is_killed_by_some_mutant() -> None:
    for suite in (EFG_NASH_CONV, EFG_SOLVER, EFG_PROX):
        killed = set().union(*(e for s, _, e in CASES if s is suite))
        assert killed == set(suite.check_names()), suite.name
