"""The spectral suites have teeth: each mutant fails with a readable message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, Suite, run_suite
from properties.spectral import NORMALIZED_SPECTRUM, VARIATION
from reference import spectral as sp
from tests._mutants import assert_measured_kill
from tests.spectral import mutants as mut

CAPS = Capabilities(tolerance=1e-9)


@pytest.mark.parametrize(
    ("suite", "impl"),
    [(NORMALIZED_SPECTRUM, sp.normalized_spectrum), (VARIATION, sp.spectrum_variation)],
    ids=["normalized_spectrum", "variation"],
)
def test_reference_passes(suite: Suite[Any], impl: Callable[..., Any]) -> None:
    report = run_suite(impl, suite, capabilities=CAPS, profile="smoke")
    assert report.ok, report.format()


@pytest.mark.parametrize(
    ("suite", "mutant", "expected"),
    [
        (NORMALIZED_SPECTRUM, mut.spec_energy, {"exact_cases", "matches_reference"}),
        (NORMALIZED_SPECTRUM, mut.spec_max_normalised, {"on_simplex_sorted"}),
        (NORMALIZED_SPECTRUM, mut.spec_ascending, {"on_simplex_sorted"}),
        (
            NORMALIZED_SPECTRUM,
            mut.spec_qr_diagonal,
            {"orthogonal_invariance", "transpose_invariance"},
        ),
        (NORMALIZED_SPECTRUM, mut.spec_eps_guard, {"scale_invariance"}),
        (VARIATION, mut.var_l1, {"matches_reference"}),
        (VARIATION, mut.var_unnormalised, {"bounded", "l1_bound", "scale_zero"}),
        (VARIATION, mut.var_relative, {"metric"}),
        (VARIATION, mut.var_energy, {"matches_reference"}),
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
