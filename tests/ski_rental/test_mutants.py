"""The ski_rental suites have teeth: every hand-made mutant fails with a readable message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, Suite, run_suite
from properties import ski_rental as props
from tests._mutants import assert_measured_kill
from tests.ski_rental import mutants as mut

CAPS = Capabilities(raises_on_invalid=True)

# (suite, mutant, checks that must fail); every check of every suite appears at least once.
CASES: list[tuple[Suite[Any], Callable[..., Any], set[str]]] = [
    (props.EMD, mut.emd_signed, {"matches_scipy", "metric_axioms"}),
    (props.EMD, mut.emd_pdf, {"matches_scipy", "metric_axioms"}),
    (props.EMD, mut.emd_day_weighted, {"matches_scipy", "shift_and_centroid"}),
    (props.EMD, mut.emd_squared, {"matches_scipy", "shift_and_centroid"}),
    (props.OPT_COST, mut.opt_hindsight, {"matches_brute_force", "benchmark_remark"}),
    (props.OPT_COST, mut.opt_upper, {"matches_brute_force"}),
    (props.OPT_COST, mut.opt_no_never, {"matches_brute_force", "sandwich"}),
    (props.EXPECTED_COST, mut.ec_last_is_threshold, {"matches_direct", "point_policies"}),
    (props.EXPECTED_COST, mut.ec_off_by_one, {"matches_direct", "point_policies"}),
    (props.EXPECTED_COST, mut.ec_sharpened, {"matches_direct", "linear"}),
    (props.OPTIMAL_THRESHOLD, mut.ot_zero, {"is_optimal", "structure"}),
    (props.OPTIMAL_THRESHOLD, mut.ot_worst, {"is_optimal"}),
    (props.OPTIMAL_THRESHOLD, mut.ot_no_never, {"is_optimal", "padding"}),
    (props.MAIN_ALGORITHM, mut.main_no_delay, {"point_mass_cases", "delay", "emd_bound"}),
    (props.MAIN_ALGORITHM, mut.main_no_cap, {"robustness", "matches_rule"}),
    (props.MAIN_ALGORITHM, mut.main_ceil_sqrt, {"point_mass_cases", "matches_rule"}),
    (props.MAIN_ALGORITHM, mut.main_delay_b, {"consistency", "point_mass_cases"}),
    (props.ROBUST_ALGORITHM, mut.robust_no_clamp, {"ratio", "two_competitive", "matches_rule"}),
    (props.ROBUST_ALGORITHM, mut.robust_swapped, {"consistency", "matches_rule"}),
    (props.ROBUST_ALGORITHM, mut.robust_zero_is_break_even, {"lambda_zero"}),
    (props.POINT_TRUTH, mut.point_truth_main, {"exact_prediction", "bound", "matches_rule"}),
    (props.POINT_TRUTH, mut.point_truth_follow, {"far_mass"}),
    (props.POINT_TRUTH, mut.point_truth_break_even, {"exact_prediction", "far_mass"}),
    (props.POLICY, mut.policy_unnormalised, {"valid", "deterministic_calls"}),
    (props.POLICY, mut.policy_negative_threshold, {"valid"}),
    (props.POLICY, mut.policy_stateful, {"deterministic_calls"}),
    (props.POLICY, mut.policy_no_validation, {"rejects_invalid_input"}),
    (props.CLASSICAL, mut.classical_never, {"two_competitive", "buys_by_day_b", "ratio_profile"}),
    (props.CLASSICAL, mut.classical_at_once, {"two_competitive", "buys_by_day_b"}),
    (props.CLASSICAL, mut.classical_late, {"buys_by_day_b", "ratio_profile"}),
]


@pytest.mark.parametrize(
    ("suite", "mutant", "expected"),
    CASES,
    ids=[f"{s.name}::{m.__name__}" for s, m, _ in CASES],
)
def test_mutant_fails(suite: Suite[Any], mutant: Callable[..., Any], expected: set[str]) -> None:
    report = run_suite(
        mutant,
        suite,
        capabilities=CAPS,
        profile="smoke",
        skip=[n for n in suite.check_names() if n not in expected],
    )
    failed = {r.name for r in report.failed}
    assert expected <= failed, report.format()
    for result in report.failed:
        assert_measured_kill(result)
        assert f"tests.ski_rental.mutants:{mutant.__name__}" in result.snippet


def test_every_check_is_killed_by_some_mutant() -> None:
    for suite in props.SUITES:
        killed = set().union(*(e for s, _, e in CASES if s is suite))
        assert killed == set(suite.check_names()), suite.name
        assert len([m for s, m, _ in CASES if s is suite]) >= 3, suite.name
