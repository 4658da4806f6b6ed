"""The mirror_descent suites have teeth: each mutant fails with a readable message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, Suite, run_suite
from properties.mirror_descent import COMPOSITE, EFFECTIVE_CONSTANTS, SIMPLEX_PROX, SOLVER
from reference import mirror_descent as md
from reference.mirror_descent import composite as mdc
from tests._mutants import assert_measured_kill
from tests.mirror_descent import mutants as mut

CAPS = Capabilities(tolerance=1e-9)


@pytest.mark.parametrize(
    ("suite", "impl"),
    [
        (SIMPLEX_PROX, md.entropic_step),
        (SOLVER, md.mirror_descent),
        (EFFECTIVE_CONSTANTS, md.effective_g),
        (COMPOSITE, mdc.composite_mirror_descent),
    ],
    ids=["simplex_prox", "solver", "effective_constants", "composite"],
)
def test_reference_passes(suite: Suite[Any], impl: Callable[..., Any]) -> None:
    report = run_suite(impl, suite, capabilities=CAPS, profile="smoke")
    assert report.ok, report.format()


@pytest.mark.parametrize(
    ("suite", "mutant", "expected"),
    [
        (SIMPLEX_PROX, mut.prox_no_shift, {"on_simplex"}),
        (SIMPLEX_PROX, mut.prox_sign_flip, {"closed_form"}),
        (SIMPLEX_PROX, mut.prox_projected_gradient, {"closed_form", "semigroup"}),
        (SIMPLEX_PROX, mut.prox_unnormalised, {"on_simplex", "closed_form"}),
        (SOLVER, mut.solver_off_by_one, {"euclidean_is_gradient_descent"}),
        (SOLVER, mut.solver_average, {"euclidean_is_gradient_descent"}),
        (
            SOLVER,
            mut.solver_unprojected,
            {"stays_on_simplex", "entropic_is_exponentiated_gradient"},
        ),
        (SOLVER, mut.solver_ascent, {"descent", "theorem_3_5_bound"}),
        (EFFECTIVE_CONSTANTS, mut.g_ignores_l1, {"solves_equation", "bounds_ridge_gradients"}),
        (EFFECTIVE_CONSTANTS, mut.g_small_root, {"solves_equation"}),
        (EFFECTIVE_CONSTANTS, mut.g_times_two, {"solves_equation"}),
        (EFFECTIVE_CONSTANTS, mut.g_inverted_l0, {"monotone"}),
        (
            COMPOSITE,
            mut.composite_ignores_h,
            {"euclidean_proximal_gradient", "minimiser_is_fixed_point"},
        ),
        (COMPOSITE, mut.composite_subgradient, {"euclidean_proximal_gradient"}),
        (
            COMPOSITE,
            mut.composite_unscaled,
            {"euclidean_proximal_gradient", "entropic_entropy_closed_form"},
        ),
        (COMPOSITE, mut.composite_unnormalised, {"stays_in_domain"}),
        (COMPOSITE, mut.composite_ascent_h, {"sufficient_decrease"}),
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
