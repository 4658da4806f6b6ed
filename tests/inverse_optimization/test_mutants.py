"""The inverse_optimization suites have teeth: every mutant fails with a readable message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, Suite, run_suite
from properties import inverse_optimization as props
from tests._mutants import assert_measured_kill
from tests.inverse_optimization import mutants as mut

CAPS = Capabilities(raises_on_invalid=True)

CASES: list[tuple[Suite[Any], Callable[..., Any], set[str]]] = [
    (props.FAMILY, mut.fam_argmin, {"argmax"}),
    (props.FAMILY, mut.fam_reversed_arcs, {"exchange_arcs", "certificate"}),
    (props.FAMILY, mut.fam_hole, {"m_convex"}),
    (props.FAMILY, mut.fam_scale_dependent, {"invariance"}),
    (props.RECOMMENDER, mut.rec_infeasible, {"feasible"}),
    (props.RECOMMENDER, mut.rec_global_random, {"scaling", "deterministic"}),
    (props.RECOMMENDER, mut.rec_previous, {"feasible"}),
    (props.LEARNER, mut.never_learns, {"repeat_consistency", "two_dim", "pairwise_bound"}),
    (props.LEARNER, mut.reversed_arcs, {"repeat_consistency"}),
    (props.LEARNER, mut.forgetful, {"repeat_consistency", "pairwise_bound"}),
    (props.LEARNER, mut.no_cycle_check, {"rejects_contradiction"}),
    (props.CENTROID_LEARNER, mut.topological, {"adversarial_bound"}),
    (props.CENTROID_LEARNER, mut.never_learns, {"random_bound", "plateau"}),
    (props.CENTROID_LEARNER, mut.forgetful, {"plateau"}),
    # Algorithm 1 raises on corrupted feedback: a measured kill of never_raises only (its
    # exception in corruption_bound would be a crash, not a measurement)
    (props.ROBUST_LEARNER, mut.algorithm_one, {"never_raises"}),
    (props.ROBUST_LEARNER, mut.robust_topological, {"clean_bound"}),
    (props.ROBUST_LEARNER, mut.no_cycle_check, {"corruption_bound"}),
]


@pytest.mark.parametrize(
    ("suite", "mutant", "expected"), CASES, ids=[f"{s.name}::{m.__name__}" for s, m, _ in CASES]
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


def test_every_check_is_killed_by_some_mutant() -> None:
    for suite in props.SUITES:
        killed = set().union(*(e for s, _, e in CASES if s is suite))
        assert killed == set(suite.check_names()), suite.name
        assert len([m for s, m, _ in CASES if s is suite]) >= 3, suite.name
