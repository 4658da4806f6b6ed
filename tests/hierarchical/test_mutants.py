"""The hierarchical suites have teeth: every mutant fails with a readable message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Suite, run_suite
from properties.hierarchical import LAYERWISE, XOR_TREE
from tests._mutants import assert_measured_kill
from tests.hierarchical import mutants as m

CASES: list[tuple[Callable[..., Any], Suite[Any], set[str]]] = [
    (m.tree_overlapping_pairs, XOR_TREE, {"parity_structure", "bit_flip_path"}),
    (m.tree_zero_one, XOR_TREE, {"parity_structure"}),
    (m.tree_global_rng, XOR_TREE, {"deterministic"}),
    (m.tree_no_top, XOR_TREE, {"parity_structure"}),
    (m.tree_biased_inputs, XOR_TREE, {"balanced"}),
    (m.trainer_no_hints, LAYERWISE, {"learns_xor_tree"}),
    (m.trainer_flipped, LAYERWISE, {"constant_level"}),
    (m.trainer_centred_labels, LAYERWISE, {"constant_level"}),
    (m.trainer_global_rng, LAYERWISE, {"deterministic"}),
]


@pytest.mark.parametrize(("mutant", "suite", "expected"), CASES, ids=[c[0].__name__ for c in CASES])
def test_mutant_fails(mutant: Callable[..., Any], suite: Suite[Any], expected: set[str]) -> None:
    skip = [n for n in suite.check_names() if n not in expected]
    report = run_suite(mutant, suite, profile="smoke", skip=skip)
    failed = {r.name for r in report.failed}
    assert expected <= failed, report.format()[:3000]
    for result in report.failed:
        assert_measured_kill(result)


def test_every_check_is_killed_by_some_mutant() -> None:
    killed = {(c[1].name, name) for c in CASES for name in c[2]}
    for suite in (XOR_TREE, LAYERWISE):
        for name in suite.check_names():
            assert (suite.name, name) in killed, f"{suite.name}::{name} is killed by no mutant"
