"""The tsp.* suites have teeth: every mutant fails, with a readable message and a snippet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, run_suite
from properties.bad_input import BAD_INPUT
from properties.catalogue.tsp import BAD_INPUT_CASES
from properties.tsp import (
    DECODER,
    EXACT,
    GUARANTEED_DECODER,
    LABEL_INVARIANT_DECODER,
    TWO_OPT,
)
from reference import tsp
from tests._mutants import assert_measured_kill
from tests.tsp import mutants as m

CAPS = Capabilities(raises_on_invalid=True, tolerance=1e-9)

MUTANTS: list[tuple[Callable[..., Any], Any, set[str]]] = [
    (m.identity_decoder, DECODER, {"tour_heatmap_no_longer", "optimal_heatmap_relabelled"}),
    (m.repeated_vertex, DECODER, {"hamiltonian_cycle"}),
    (m.worst_candidate_sweep, DECODER, {"tour_heatmap_no_longer"}),
    (m.rounded_distances, DECODER, {"distance_scaling"}),
    (m.no_validation, DECODER, {"rejects_invalid_input"}),
    (m.worst_candidate_sweep, GUARANTEED_DECODER, {"opt_plus_two_eta", "one_and_a_half_opt"}),
    (m.christofides_only, GUARANTEED_DECODER, {"tour_heatmap_no_longer"}),
    (tsp.greedy_merge, GUARANTEED_DECODER, {"one_and_a_half_opt"}),
    (tsp.threshold_decode, GUARANTEED_DECODER, {"one_and_a_half_opt"}),
    (tsp.sweep_decode, LABEL_INVARIANT_DECODER, {"relabel_invariance"}),
    (m.nearest_neighbour_decoder, LABEL_INVARIANT_DECODER, {"relabel_invariance"}),
    (m.coarse_score_greedy, LABEL_INVARIANT_DECODER, {"heatmap_scaling"}),
    (m.two_opt_no_op, TWO_OPT, {"no_improving_move"}),
    (m.two_opt_worst_move, TWO_OPT, {"never_lengthens", "optimal_tour_kept"}),
    (m.two_opt_off_by_one, TWO_OPT, {"never_lengthens"}),
    (m.two_opt_drops_city, TWO_OPT, {"never_lengthens"}),
    (m.nearest_neighbour_solver, EXACT, {"matches_brute_force"}),
    (m.open_path_length, EXACT, {"reported_length"}),
    (m.fixed_first_edge, EXACT, {"matches_brute_force", "relabel_and_scale"}),
]


@pytest.mark.parametrize(
    ("mutant", "suite", "expected"),
    MUTANTS,
    ids=[f"{s.name}::{fn.__name__}" for fn, s, _ in MUTANTS],
)
def test_mutant_fails(mutant: Callable[..., Any], suite: Any, expected: set[str]) -> None:
    # derandomised profile: the same verdict on every run; checks outside ``expected`` are
    # skipped to keep the default gate fast
    skip = [name for name in suite.check_names() if name not in expected]
    report = run_suite(mutant, suite, capabilities=CAPS, profile="conformance", skip=skip)
    failed = {r.name for r in report.failed}
    assert failed == expected, report.format()
    for result in report.failed:
        assert_measured_kill(result)
        assert "np.array(" in result.snippet


def test_every_check_is_killed_by_some_mutant() -> None:
    killed: dict[str, set[str]] = {}
    for _, suite, expected in MUTANTS:
        killed.setdefault(suite.name, set()).update(expected)
    for suite in (DECODER, GUARANTEED_DECODER, LABEL_INVARIANT_DECODER, TWO_OPT, EXACT):
        own = set(suite.check_names())
        if suite is not DECODER:
            own -= set(DECODER.check_names())  # inherited checks are killed in tsp.decoder
        assert own <= killed[suite.name], (suite.name, own - killed[suite.name])
    per_suite: dict[str, int] = {}
    for _, suite, _ in MUTANTS:
        per_suite[suite.name] = per_suite.get(suite.name, 0) + 1
    assert min(per_suite.values()) >= 3, per_suite


def test_bad_input_suite_catches_unvalidated_decoder() -> None:
    (case,) = [c for c in BAD_INPUT_CASES if c.name == "reference.tsp:sweep_decode"]
    broken = case.with_fn(m.no_validation, name="tests.tsp.mutants:no_validation")
    report = run_suite(broken, BAD_INPUT, profile="smoke")
    assert {"rejects_nan", "rejects_inf"} <= {r.name for r in report.failed}, report.format()
