"""The suites have teeth: each mutant fails with a readable message."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, run_suite
from properties.bad_input import BAD_INPUT
from properties.catalogue.games import BAD_INPUT_CASES as GAME_CASES
from properties.games import GAME_SOLVER
from tests.games import mutants as mutants_games


@pytest.mark.parametrize(
    ("mutant", "expected_failing"),
    [
        (mutants_games.uniform, {"duality_gap", "value_matches_lp"}),
        (mutants_games.sign_error, {"duality_gap", "value_matches_lp", "player_swap"}),
        (mutants_games.unnormalised, {"strategies_on_simplices", "duality_gap"}),
    ],
    ids=["uniform", "sign_error", "unnormalised"],
)
def test_game_solver_mutants_fail(mutant: Callable[..., Any], expected_failing: set[str]) -> None:
    report = run_suite(mutant, GAME_SOLVER)
    assert not report.ok
    failed = {r.name for r in report.failed}
    assert expected_failing <= failed, report.format()
    for result in report.failed:
        assert result.anchor in result.message
        assert "measured" in result.message
        assert "allowed" in result.message
        assert f"tests.games.mutants:{mutant.__name__}" in result.snippet
        assert "np.array(" in result.snippet


def test_shrunk_snippet_reproduces_the_failure() -> None:
    report = run_suite(
        mutants_games.uniform,
        GAME_SOLVER,
        skip=[n for n in GAME_SOLVER.check_names() if n != "duality_gap"],
    )
    (result,) = report.failed
    namespace: dict[str, Any] = {}
    exec(result.snippet.replace("print(impl(", "out = (impl("), namespace)
    x, y = namespace["out"]
    assert len(x) >= 1
    assert len(y) >= 1


def test_nan_silent_mutant_fails_rejects_invalid_input() -> None:
    report = run_suite(
        mutants_games.nan_on_invalid, GAME_SOLVER, capabilities=Capabilities(raises_on_invalid=True)
    )
    assert {r.name for r in report.failed} == {"rejects_invalid_input"}, report.format()
    (result,) = report.failed
    assert "raises ValueError or TypeError" in result.message


def _case(name: str) -> Any:
    (case,) = [c for c in GAME_CASES if c.name == name]
    return case


def test_bad_input_suite_catches_missing_validation() -> None:
    case = _case("reference.games:duality_gap").with_fn(
        mutants_games.gap_index_error, name="tests.games.mutants:gap_index_error"
    )
    report = run_suite(case, BAD_INPUT, profile="smoke")
    failed = {r.name for r in report.failed}
    assert {"rejects_nan", "rejects_empty", "rejects_string"} <= failed, report.format()
    text = report.format()
    assert "IndexError" in text or "returned" in text


def test_bad_input_suite_catches_hangs_and_nan() -> None:
    case = dataclasses.replace(
        _case("reference.games:duality_gap").with_fn(mutants_games.gap_hangs_on_nan), timeout=0.5
    )
    report = run_suite(
        case,
        BAD_INPUT,
        profile="smoke",
        skip=[n for n in BAD_INPUT.check_names() if n != "rejects_nan"],
    )
    (result,) = report.failed
    assert "hangs" in result.message


def test_bad_input_suite_catches_nan_results() -> None:
    case = _case("reference.games:solve_lp").with_fn(mutants_games.nan_on_invalid)
    report = run_suite(
        case,
        BAD_INPUT,
        profile="smoke",
        skip=[n for n in BAD_INPUT.check_names() if n != "rejects_nan"],
    )
    (result,) = report.failed
    assert "returned" in result.message
