"""The games.solver suite on our reference, through all three doors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from properties import Capabilities, run_suite
from properties._runner import SUITE_PROFILE_ENV
from properties.games import GAME_SOLVER
from properties.pytest_support import GameSolverConformance, checks_for, run_check
from reference.games import solve_lp

CAPS = Capabilities(raises_on_invalid=True)


def test_reference_passes_every_check() -> None:
    report = run_suite(solve_lp, GAME_SOLVER, capabilities=CAPS)
    assert report.ok, report.format()
    assert report.counts() == {"passed": len(GAME_SOLVER.checks)}


def test_capability_skips_and_unknown_names() -> None:
    report = run_suite(solve_lp, "games.solver", skip=["player_swap"])
    statuses = {r.name: r.status for r in report.results}
    assert statuses["player_swap"] == "skipped"
    assert statuses["rejects_invalid_input"] == "skipped"
    assert (
        "requires raises_on_invalid"
        in {r.name: r.message for r in report.results}["rejects_invalid_input"]
    )
    with pytest.raises(ValueError, match="check name"):
        run_suite(solve_lp, "games.solver", skip=["no_such_check"])
    with pytest.raises(ValueError, match="suite"):
        run_suite(solve_lp, "games.nope")


def test_expected_failure_that_passes_is_reported_under_strict() -> None:
    report = run_suite(
        solve_lp,
        GAME_SOLVER,
        skip=[n for n in GAME_SOLVER.check_names() if n != "duality_gap"],
        expected_failures={"duality_gap": "claimed broken"},
    )
    (result,) = [r for r in report.results if r.name == "duality_gap"]
    assert result.status == "xpassed"
    assert not report.ok
    lenient = run_suite(
        solve_lp,
        GAME_SOLVER,
        skip=[n for n in GAME_SOLVER.check_names() if n != "duality_gap"],
        expected_failures={"duality_gap": "claimed broken"},
        strict=False,
    )
    assert lenient.ok


def test_result_objects_and_mappings_are_adapted() -> None:
    def as_mapping(payoff: Any) -> dict[str, Any]:
        sol = solve_lp(payoff)
        return {"x": list(sol.x), "y": list(sol.y)}

    report = run_suite(as_mapping, GAME_SOLVER, skip=["degenerate_games", "affine_invariance"])
    assert report.ok, report.format()


def test_same_verdict_every_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # a promise of the derandomised default profile: the thorough rerun of this module
    # (VERIFIEDREF_SUITE_PROFILE=thorough, not derandomised) must not replace it here
    monkeypatch.delenv(SUITE_PROFILE_ENV, raising=False)

    def wrong(payoff: Any) -> tuple[Any, Any]:
        m, n = np.shape(payoff)
        return np.eye(m)[0], np.eye(n)[-1]

    first = run_suite(wrong, GAME_SOLVER).format()
    second = run_suite(wrong, GAME_SOLVER).format()
    strip = [line for line in first.splitlines() if not line.strip().endswith("s")]
    assert strip == [line for line in second.splitlines() if not line.strip().endswith("s")]


@checks_for(solve_lp, "games.solver")
def test_checks_for_door(implementation: Any, check_name: str) -> None:
    run_check(implementation, "games.solver", check_name, capabilities=CAPS)


class TestReferenceConformance(GameSolverConformance):
    capabilities = CAPS

    @pytest.fixture
    def implementation(self) -> Any:
        return solve_lp


def test_base_class_is_not_collected_itself() -> None:
    assert GameSolverConformance.__test__ is False
    assert TestReferenceConformance.__test__ is True
