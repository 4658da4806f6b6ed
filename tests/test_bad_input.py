"""Every registered public function passes the generic bad-input suite."""

from __future__ import annotations

import pytest

from properties import bad_input_cases, run_suite
from properties.bad_input import BAD_INPUT, BadInputCase
from tests._gate import with_gate_limit

CASES = bad_input_cases()


def test_games_functions_are_registered() -> None:
    names = {c.name for c in CASES}
    assert {"reference.games:solve_lp", "reference.games:duality_gap"} <= names


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_registered_function_rejects_bad_input(case: BadInputCase) -> None:
    # our references are bounded by iteration caps: the gate's limit, not the case's budget
    report = run_suite(with_gate_limit(case), BAD_INPUT, profile="smoke")
    assert report.ok, report.format()
