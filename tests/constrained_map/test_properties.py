"""The constrained_map suites on our references."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from properties import run_suite
from properties._cli import main
from properties.constrained_map import GENERAL, TREE
from reference import constrained_map as cm


def _pa(problem: cm.MapProblem) -> cm.MapResult:
    return cm.pa_map(problem, rng=np.random.default_rng(0))


def test_mpmap_passes_the_tree_suite() -> None:
    report = run_suite(cm.mp_map, TREE, profile="smoke")
    assert report.ok, report.format()
    assert report.counts() == {"passed": len(TREE.checks)}


def test_pamap_passes_the_general_suite_fast_checks() -> None:
    report = run_suite(_pa, GENERAL, profile="smoke", skip=["beats_baselines"])
    assert report.ok, report.format()


@pytest.mark.slow
def test_pamap_beats_the_baselines() -> None:
    report = run_suite(_pa, GENERAL, profile="smoke")
    assert report.ok, report.format()


def test_output_forms_are_adapted() -> None:
    def as_pair(problem: cm.MapProblem) -> Any:
        r = cm.mp_map(problem)
        return list(r.x), r.feasible

    report = run_suite(
        as_pair,
        TREE,
        profile="smoke",
        skip=[c for c in TREE.check_names() if c != "worked_example"],
    )
    assert report.ok, report.format()


def test_cli_crosscheck(capsys: pytest.CaptureFixture[str]) -> None:
    skips: list[str] = []
    for name in TREE.check_names():
        if name not in ("worked_example", "returns_feasible_point"):
            skips += ["--skip", name]
    args = ["crosscheck", "constrained_map.tree"]
    assert main([*args, "reference.constrained_map:mp_map", "--profile", "dev", *skips]) == 0
    bad = "tests.constrained_map.mutants:tree_ignores_constraints"
    assert main([*args, bad, "--profile", "dev", *skips]) == 1
    assert "FAIL" in capsys.readouterr().out
