"""The extensive.* suites pass on our reference implementations."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from properties import Capabilities, run_suite
from properties.extensive import (
    EFG_NASH_CONV,
    EFG_PROX,
    EFG_SOLVER,
    LP_ATOL,
    lp_nash_conv,
    random_poker_game,
)
from reference import extensive as efg

CAPS = Capabilities(tolerance=1e-8)


@pytest.mark.parametrize(
    ("impl", "suite"),
    [
        (efg.nash_conv, EFG_NASH_CONV),
        (efg.solve_lp, EFG_SOLVER),
        (efg.dilated_prox, EFG_PROX),
    ],
    ids=["nash_conv", "solve_lp", "dilated_prox"],
)
def test_reference_passes(impl: Any, suite: Any) -> None:
    report = run_suite(impl, suite, capabilities=CAPS, profile="smoke")
    assert report.ok, report.format()


def test_asymp_dgda_passes_solver_suite_on_kuhn() -> None:
    def solver(game: efg.SequenceFormGame) -> tuple[Any, Any]:
        if game.name != "kuhn_poker":  # fixed μ: only Kuhn's threshold is known to hold
            sol = efg.solve_lp(game)
            return np.array(sol.x), np.array(sol.y)
        result = efg.asymp_dgda(game, mu=0.01, max_iter=8000, tol=1e-11)
        return np.array(result.x), np.array(result.y)

    report = run_suite(
        solver,
        EFG_SOLVER,
        capabilities=Capabilities(tolerance=1e-9),
        profile="smoke",
        skip=["plans_feasible", "nash_conv", "value"],
    )
    assert report.ok, report.format()


#: A pair of realization plans drawn by a thorough run of ``matches_lp`` (game seed 13809):
#: several entries near 1e-38..1e-306 make the best-response costs tiny in places.
_TINY_X = [
    1.0,
    0.5686890936505641,
    0.4313109063494358,
    0.0,
    0.5686890936505641,
    1.0,
    2.5907884128195206e-52,
    0.12619266094284148,
    0.4205926376207406,
    0.45321470143641795,
    0.12619266094284148,
    5.097579107301691e-90,
    0.62627161622698,
    0.3737283837730201,
    2.1884888174429943e-08,
    0.6262715943420919,
    0.6967021922896539,
    0.30329780771034603,
    0.5598450866565023,
    5.5754249884635216e-05,
    0.44009915909361297,
    0.3185148568895129,
    0.24133022976698945,
    1.0,
    1.2498138550254571e-306,
    0.6271379732503133,
    0.3728620267496867,
    0.7297297297297297,
    0.27027027027027023,
    0.30349729026908934,
    0.30349729026908934,
    0.39300541946182127,
    0.26801761140075886,
    0.03547967886833047,
]
_TINY_Y = [
    1.0,
    2.3507017511026487e-38,
    0.9998779445868424,
    0.00012205541315757354,
    1.0939829295264064e-38,
    1.6273589204983585e-39,
    1.0939829295264064e-38,
    0.6691791544670564,
    0.330698790119786,
    0.0,
    0.330698790119786,
    7.514048052268618e-103,
    4.253335189369701e-12,
    6.264059139927554e-05,
    5.941481750496281e-05,
    1.2481310563995286e-211,
    5.144059588026463e-05,
    7.061481727730892e-05,
    3.415199465442716e-08,
    0.4623420890428741,
    0.5376578768051312,
    3.415199465442716e-08,
    0.0,
    8.156996646844309e-46,
    9.92786381362804e-39,
    0.2867834421056646,
    0.17555864693720946,
    0.2867834421056646,
    0.0,
    0.17921929226837707,
    0.17921929226837707,
    0.17921929226837707,
    0.0,
    0.5376578768051312,
    0.0,
]


def test_lp_oracle_is_exact_on_tiny_plan_entries() -> None:
    # With HiGHS's default tolerances the oracle read 2.07447959502 against the tree's
    # 2.07447970013 (1.05e-7 apart, the check allows LP_ATOL * scale = 3e-8), and the reference
    # failed `matches_lp` under thorough; the tree value is the right one (dual simplex at 1e-10
    # agrees to the last bit).
    game = random_poker_game(np.random.default_rng(13809))
    x, y = np.array(_TINY_X), np.array(_TINY_Y)
    scale = max(1.0, float(np.max(np.abs(game.payoff))))
    assert abs(efg.nash_conv(game, x, y) - lp_nash_conv(game, x, y)) <= LP_ATOL * scale
