"""The ski_rental suites pass on the reference implementations (all doors: Python and CLI)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, Suite, run_suite
from properties import ski_rental as props
from properties._cli import main as cli_main
from properties.catalogue import ski_rental as catalogue
from reference import ski_rental as sr

CAPS = Capabilities(raises_on_invalid=True)

PAIRS: list[tuple[Callable[..., Any], Suite[Any]]] = [
    (sr.emd, props.EMD),
    (sr.opt_cost, props.OPT_COST),
    (sr.expected_cost, props.EXPECTED_COST),
    (sr.optimal_threshold, props.OPTIMAL_THRESHOLD),
    (sr.main_algorithm, props.MAIN_ALGORITHM),
    (sr.robust_algorithm, props.ROBUST_ALGORITHM),
    (sr.point_truth_algorithm, props.POINT_TRUTH),
    (sr.main_algorithm, props.POLICY),
    (sr.base_algorithm, props.POLICY),
    (sr.follow_the_prediction, props.POLICY),
    (sr.point_truth_algorithm, props.POLICY),
    (sr.break_even, props.CLASSICAL),
    (sr.randomized_classical, props.CLASSICAL),
]


@pytest.mark.parametrize(("fn", "suite"), PAIRS, ids=[f"{s.name}::{f.__name__}" for f, s in PAIRS])
def test_reference_passes_suite(fn: Callable[..., Any], suite: Suite[Any]) -> None:
    report = run_suite(fn, suite, capabilities=CAPS, profile="smoke")
    assert report.ok, report.format()


def test_every_algorithm_is_catalogued_with_its_suites() -> None:
    names = {a.function for a in catalogue.ALGORITHMS}
    for fn, suite in PAIRS:
        assert f"reference.ski_rental:{fn.__name__}" in names
        (entry,) = [a for a in catalogue.ALGORITHMS if a.function.endswith(":" + fn.__name__)]
        assert suite.name in entry.suites
    cases = {c.name for c in catalogue.BAD_INPUT_CASES}
    assert names <= cases


def test_cli_crosscheck_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["crosscheck", "ski_rental.emd", "reference.ski_rental:emd"]) == 0
    assert cli_main(["crosscheck", "ski_rental.emd", "tests.ski_rental.mutants:emd_pdf"]) == 1
    out = capsys.readouterr().out
    assert "matches_scipy" in out
