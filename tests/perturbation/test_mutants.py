"""The perturbation.asymp_gda suite has teeth: every mutant fails, every check kills one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, run_suite
from properties.perturbation import ASYMP_GDA
from tests._mutants import assert_measured_kill
from tests.perturbation import mutants as mp

CAPS = Capabilities(raises_on_invalid=True)

CASES: list[tuple[Callable[..., Any], set[str]]] = [
    (mp.simultaneous, {"matches_reference_iterates"}),
    (mp.clip_normalise, {"matches_reference_iterates", "shift_invariance"}),
    (mp.missing_projection, {"iterates_on_simplices"}),
    (mp.unsorted_projection, {"permutation_equivariance"}),
    (mp.wrong_sign, {"matches_reference_iterates", "closed_form_limit"}),
    (mp.no_eta_on_mu, {"matches_reference_iterates", "scaling_law"}),
    (mp.no_mirror, {"paper_orientation", "closed_form_limit"}),
    (mp.y_first_mirror, {"matches_reference_iterates"}),
    (mp.utility_orientation, {"matches_reference_iterates", "paper_orientation"}),
    (mp.accepts_nan, {"rejects_invalid_input"}),
]


@pytest.mark.parametrize(("mutant", "expected"), CASES, ids=[m.__name__ for m, _ in CASES])
def test_mutant_fails(mutant: Callable[..., Any], expected: set[str]) -> None:
    # only the checks expected to kill the mutant run (passing checks would cost time)
    skip = [n for n in ASYMP_GDA.check_names() if n not in expected]
    report = run_suite(mutant, ASYMP_GDA, capabilities=CAPS, profile="smoke", skip=skip)
    failed = {r.name for r in report.failed}
    assert expected <= failed, report.format()
    for result in report.failed:
        assert_measured_kill(result)
        assert f"tests.perturbation.mutants:{mutant.__name__}" in result.snippet


def test_every_check_is_killed_by_some_mutant() -> None:
    killed = set().union(*(expected for _, expected in CASES))
    assert killed == set(ASYMP_GDA.check_names())
