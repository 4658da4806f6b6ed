"""The constrained_map suites have teeth: each mutant fails readably, no check is dead."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Suite, run_suite
from properties.constrained_map import GENERAL, TREE
from tests.constrained_map import mutants as mc

CASES: list[tuple[Suite[Any], Callable[..., Any], set[str]]] = [
    (
        TREE,
        mc.tree_ignores_constraints,
        {"returns_feasible_point", "worked_example", "constant_weights_decide_feasibility"},
    ),
    (
        TREE,
        mc.tree_first_feasible_point,
        {"beats_feasible_samples", "matches_grid_oracle", "monotone_in_constraints"},
    ),
    (TREE, mc.tree_additive_prior, {"scale_invariance"}),
    (TREE, mc.tree_greedy_in_index_order, {"permutation_equivariance"}),
    (TREE, mc.tree_drops_last_clause, {"redundant_clause"}),
    (GENERAL, mc.general_agnostic, {"returns_feasible_point", "closed_form"}),
    (GENERAL, mc.general_penalty, {"returns_feasible_point"}),
    (GENERAL, mc.general_first_cell, {"closed_form", "beats_baselines"}),
]


@pytest.mark.parametrize(
    ("suite", "mutant", "expected"), CASES, ids=[f"{s.name}:{m.__name__}" for s, m, _ in CASES]
)
def test_mutant_fails_readably(
    suite: Suite[Any], mutant: Callable[..., Any], expected: set[str]
) -> None:
    skip = [c for c in suite.check_names() if c not in expected]
    report = run_suite(mutant, suite, skip=skip, profile="conformance")
    assert {r.name for r in report.failed} == expected, report.format()
    for result in report.failed:
        assert result.anchor in result.message
        assert "measured" in result.message


@pytest.mark.parametrize("suite", [TREE, GENERAL], ids=lambda s: s.name)
def test_no_dead_checks(suite: Suite[Any]) -> None:
    killed = set().union(*(exp for s, _, exp in CASES if s is suite))
    assert killed == set(suite.check_names())
