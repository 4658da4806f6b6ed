"""The inconsistency suites have teeth: each mutant fails with a readable message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, Suite, run_suite
from properties.inconsistency import ESTIMATOR, FISHER, IAM_DE, SAM_PERTURBATION
from reference import inconsistency as inc
from tests._mutants import assert_measured_kill
from tests.inconsistency import mutants as mut

CAPS = Capabilities(tolerance=1e-9)


@pytest.mark.parametrize(
    ("suite", "impl"),
    [
        (ESTIMATOR, inc.inconsistency_ascent),
        (FISHER, inc.fisher_softmax),
        (SAM_PERTURBATION, inc.sam_perturbation),
        (IAM_DE, inc.iam_de_step),
    ],
    ids=["estimator", "fisher", "sam_perturbation", "iam_de"],
)
def test_reference_passes(suite: Suite[Any], impl: Callable[..., Any]) -> None:
    report = run_suite(impl, suite, capabilities=CAPS, profile="smoke")
    assert report.ok, report.format()


@pytest.mark.parametrize(
    ("suite", "mutant", "expected"),
    [
        (ESTIMATOR, mut.est_unnormalised, {"feasible_nonnegative"}),
        (ESTIMATOR, mut.est_reverse_kl, {"value_is_batch_kl", "matches_reference"}),
        (ESTIMATOR, mut.est_sum_not_mean, {"duplication_invariance", "value_is_batch_kl"}),
        (ESTIMATOR, mut.est_no_ascent, {"fisher_limit", "matches_reference"}),
        (ESTIMATOR, mut.est_first_half, {"permutation_invariance"}),
        (ESTIMATOR, mut.est_one_vs_rest, {"bias_shift_invariance"}),
        (FISHER, mut.fisher_no_outer, {"null_direction", "hessian_identity"}),
        (FISHER, mut.fisher_sum, {"duplication"}),
        (FISHER, mut.fisher_empirical, {"hessian_identity", "quadratic_form"}),
        (FISHER, mut.fisher_double_outer, {"symmetric_psd"}),
        (SAM_PERTURBATION, mut.sam_sign_flip, {"sam_direction"}),
        (SAM_PERTURBATION, mut.sam_unnormalised, {"sam_direction", "scale_invariance"}),
        (SAM_PERTURBATION, mut.asam_t_not_t2, {"asam_normalised"}),
        (SAM_PERTURBATION, mut.asam_repo_variant, {"asam_normalised"}),
        (SAM_PERTURBATION, mut.sam_default_radius, {"zero_radius"}),
        (IAM_DE, mut.de_no_sign, {"sign_symmetry", "matches_reference"}),
        (IAM_DE, mut.de_unnormalised, {"feasible", "matches_reference"}),
        (IAM_DE, mut.de_detached, {"gradient_finite_differences", "matches_reference"}),
        (IAM_DE, mut.de_theta_direction, {"power_iteration", "label_free"}),
        (IAM_DE, mut.de_beta_ignored, {"beta_zero_is_sgd"}),
    ],
    ids=lambda v: getattr(v, "__name__", None) or getattr(v, "name", None) or "",
)
def test_mutant_fails(suite: Suite[Any], mutant: Callable[..., Any], expected: set[str]) -> None:
    skip = [n for n in suite.check_names() if n not in expected]
    report = run_suite(mutant, suite, capabilities=CAPS, profile="smoke", skip=skip)
    failed = {r.name for r in report.failed}
    assert expected <= failed, report.format()
    for result in report.failed:
        assert_measured_kill(result)
