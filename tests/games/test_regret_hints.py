"""Issue 29 item 4 for ``games.regret``: the failure of ``strategy_from_state`` names the other
``--variant`` only when that rule holds on the same trace; a different method is told so."""

from __future__ import annotations

import pytest

from properties import Capabilities, run_suite
from properties.games import GAME_REGRET
from reference.games import prm_plus_trajectory
from tests.games import mutants_regret as mut

_ONLY = [c for c in GAME_REGRET.check_names() if c != "strategy_from_state"]


@pytest.mark.parametrize("variant", ["RM+", "PRM+"])
def test_a_different_method_is_not_sent_to_a_variant(variant: str) -> None:
    caps = Capabilities(variant=variant)
    report = run_suite(
        mut.epsilon_floor, GAME_REGRET, capabilities=caps, profile="smoke", skip=_ONLY
    )
    (result,) = report.failed
    assert "different method" in result.message, result.message
    assert "declare --variant" not in result.message, result.message


def test_the_other_rule_is_named_when_it_holds() -> None:
    caps = Capabilities(variant="RM+")
    report = run_suite(
        prm_plus_trajectory, GAME_REGRET, capabilities=caps, profile="smoke", skip=_ONLY
    )
    (result,) = report.failed
    assert "declare --variant PRM+" in result.message, result.message
    assert "different method" not in result.message, result.message
