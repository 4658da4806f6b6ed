"""The activations suites have teeth: every mutant fails with a readable message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, Suite, run_suite
from properties.activations import COMPOSE, NEWMAN, RATIONAL, RATIONAL_B, SIGN_COMPOSITE
from tests._mutants import assert_measured_kill
from tests.activations import mutants as m

CAPS = Capabilities(raises_on_invalid=True)

CASES: list[tuple[Callable[..., Any], Suite[Any], set[str]]] = [
    (m.rational_no_abs, RATIONAL, {"sign_of_b_irrelevant", "bounded_by_numerator"}),
    (m.rational_shifted_powers, RATIONAL, {"growth", "true_rational_agreement"}),
    (m.rational_version_a, RATIONAL_B, {"matches_reference"}),
    (m.rational_version_b, RATIONAL, {"matches_reference", "a_denominator", "a_gradients"}),
    (m.rational_abs_b_only, RATIONAL, {"kink_at_zero", "a_denominator"}),
    (m.rational_no_abs, RATIONAL_B, {"sign_of_b_irrelevant", "bounded_by_numerator"}),
    (m.rational_shifted_powers, RATIONAL_B, {"growth", "true_rational_agreement"}),
    (m.rational_squared_denominator, RATIONAL_B, {"growth"}),
    (m.rational_descending, RATIONAL_B, {"parity", "polynomial_when_b_zero"}),
    (m.rational_abs_numerator, RATIONAL_B, {"linear_in_numerator", "parity"}),
    (m.rational_nan_silent, RATIONAL_B, {"rejects_invalid_input"}),
    (m.rational_squared_denominator, RATIONAL, {"growth", "matches_reference"}),
    (m.rational_descending, RATIONAL, {"parity", "polynomial_when_b_zero"}),
    (m.rational_abs_numerator, RATIONAL, {"linear_in_numerator", "parity"}),
    (m.rational_nan_silent, RATIONAL, {"rejects_invalid_input"}),
    (m.newman_wrong_ratio, NEWMAN, {"error_bound", "matches_reference"}),
    (m.newman_shifted_nodes, NEWMAN, {"matches_reference"}),
    (m.newman_missing_x, NEWMAN, {"shape", "error_bound"}),
    (m.dwh_one_step_short, SIGN_COMPOSITE, {"abs_accuracy", "lower_bound"}),
    (m.dwh_plain_halley, SIGN_COMPOSITE, {"abs_accuracy", "lower_bound", "matches_dwh"}),
    (m.dwh_wrong_c, SIGN_COMPOSITE, {"odd_and_bounded"}),
    (m.dwh_even, SIGN_COMPOSITE, {"odd_and_bounded"}),
    (m.dwh_halley_to_convergence, SIGN_COMPOSITE, {"matches_dwh"}),
    (m.compose_reversed, COMPOSE, {"composite_values"}),
    (m.compose_truncated, COMPOSE, {"composite_type"}),
    (m.compose_own_degree, COMPOSE, {"composite_type", "composite_values"}),
]


@pytest.mark.parametrize(("mutant", "suite", "expected"), CASES, ids=[c[0].__name__ for c in CASES])
def test_mutant_fails(mutant: Callable[..., Any], suite: Suite[Any], expected: set[str]) -> None:
    report = run_suite(
        mutant, suite, capabilities=CAPS, profile="smoke", skip=_others(suite, expected)
    )
    failed = {r.name for r in report.failed}
    assert expected <= failed, report.format()
    for result in report.failed:
        assert_measured_kill(result)


def _others(suite: Suite[Any], keep: set[str]) -> list[str]:
    return [n for n in suite.check_names() if n not in keep]


def test_every_check_is_killed_by_some_mutant() -> None:
    killed = {(c[1].name, name) for c in CASES for name in c[2]}
    for suite in (RATIONAL, RATIONAL_B, NEWMAN, SIGN_COMPOSITE, COMPOSE):
        for name in suite.check_names():
            assert (suite.name, name) in killed, f"{suite.name}::{name} is killed by no mutant"
