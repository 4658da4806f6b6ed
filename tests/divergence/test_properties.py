"""The divergence suites on our reference, and their teeth."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import run_suite
from properties.divergence import DIVERGENCE_ESTIMATOR, DIVERGENCE_GAUSSIAN, reference_estimator
from reference.divergence import alpha_divergence_gaussian
from tests.divergence import mutants as mut


def test_reference_closed_form_passes() -> None:
    report = run_suite(alpha_divergence_gaussian, DIVERGENCE_GAUSSIAN, profile="smoke")
    assert report.ok, report.format()


def test_reference_estimator_passes() -> None:
    report = run_suite(reference_estimator, DIVERGENCE_ESTIMATOR, profile="smoke")
    assert report.ok, report.format()


@pytest.mark.parametrize(
    ("mutant", "must_fail"),
    [
        (mut.gauss_unnormalised, {"matches_closed_form"}),
        (mut.gauss_alpha_swapped, {"matches_closed_form"}),
        (mut.gauss_no_mean_term, {"matches_closed_form", "zero_iff_equal"}),
    ],
    ids=["unnormalised", "alpha_swapped", "no_mean_term"],
)
def test_gaussian_mutants_fail(mutant: Callable[..., Any], must_fail: set[str]) -> None:
    report = run_suite(mutant, DIVERGENCE_GAUSSIAN, profile="smoke")
    failed = {r.name for r in report.failed}
    assert must_fail <= failed, report.format()
    assert all("measured" in r.message for r in report.failed)


@pytest.mark.parametrize(
    ("mutant", "must_fail"),
    [
        (mut.estimator_zero, {"detects_shift"}),
        (mut.estimator_first_half, {"permutation_invariance"}),
        (mut.estimator_noisy, {"zero_on_identical_samples", "swap_symmetry"}),
    ],
    ids=["zero", "first_half", "noisy"],
)
def test_estimator_mutants_fail(mutant: Callable[..., Any], must_fail: set[str]) -> None:
    skip = [n for n in DIVERGENCE_ESTIMATOR.check_names() if n not in must_fail]
    report = run_suite(mutant, DIVERGENCE_ESTIMATOR, profile="smoke", skip=skip)
    assert {r.name for r in report.failed} == must_fail, report.format()
