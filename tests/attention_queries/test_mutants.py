"""The attention_queries suites have teeth: every mutant fails with a readable message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, Suite, run_suite
from properties.attention_queries import LEARNER, MODEL, NOISY_LEARNER, NUCLEAR_NORM
from tests._mutants import assert_measured_kill
from tests.attention_queries import mutants as m

CAPS = Capabilities(raises_on_invalid=True)

CASES: list[tuple[Callable[..., Any], Suite[Any], set[str]]] = [
    (m.model_no_max_subtraction, MODEL, {"stable_large_scores"}),
    (m.model_query_excluded, MODEL, {"convex_combination", "duplicates"}),
    (m.model_transposed_scores, MODEL, {"convex_combination"}),
    (m.model_first_token_query, MODEL, {"permutation"}),
    (m.model_abs_values, MODEL, {"single_token", "sign_and_scaling"}),
    (m.model_diagonal_scores, MODEL, {"rotation"}),
    (m.learner_diagonal, LEARNER, {"exact_recovery", "rotation_covariance"}),
    (m.learner_no_logit, LEARNER, {"exact_recovery", "reproduces_oracle"}),
    (m.learner_transposed, LEARNER, {"exact_recovery", "rotation_covariance"}),
    (m.learner_no_zero_check, LEARNER, {"zero_value_rejected"}),
    (m.learner_wasteful, LEARNER, {"query_budget"}),
    (m.noisy_unscaled, NOISY_LEARNER, {"error_bounds", "noiseless_exact"}),
    (m.noisy_transposed, NOISY_LEARNER, {"noiseless_exact"}),
    (m.noisy_big_probe, NOISY_LEARNER, {"error_bounds"}),
    (m.nn_min_frobenius, NUCLEAR_NORM, {"optimal_value", "not_above_planted"}),
    (m.nn_rank_one, NUCLEAR_NORM, {"feasible", "determined"}),
    (m.nn_few_iterations, NUCLEAR_NORM, {"feasible"}),
    (m.nn_penalized, NUCLEAR_NORM, {"feasible", "row_scaling"}),
]


@pytest.mark.parametrize(("mutant", "suite", "expected"), CASES, ids=[c[0].__name__ for c in CASES])
def test_mutant_fails(mutant: Callable[..., Any], suite: Suite[Any], expected: set[str]) -> None:
    skip = [n for n in suite.check_names() if n not in expected]
    report = run_suite(mutant, suite, capabilities=CAPS, profile="smoke", skip=skip)
    failed = {r.name for r in report.failed}
    assert expected <= failed, report.format()
    for result in report.failed:
        assert_measured_kill(result)


def test_every_check_is_killed_by_some_mutant() -> None:
    killed = {(c[1].name, name) for c in CASES for name in c[2]}
    for suite in (MODEL, LEARNER, NOISY_LEARNER, NUCLEAR_NORM):
        for name in suite.check_names():
            assert (suite.name, name) in killed, f"{suite.name}::{name} is killed by no mutant"
