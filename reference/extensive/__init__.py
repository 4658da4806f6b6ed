"""Two-player zero-sum extensive-form games in sequence form, and AsymP-DGDA.

The family's public API. The code lives in:

* :mod:`reference.extensive.cfr` — CFR and CFR+ (regret matching per information set, average plans).
* :mod:`reference.extensive.openspiel` — Import a two-player zero-sum OpenSpiel game (optional extra ``[openspiel]``).
* :mod:`reference.extensive.dilated` — The dilated Euclidean regulariser on a treeplex, its Bregman divergence and exact prox.
* :mod:`reference.extensive.plans` — Realization plans, best responses, NashConv and the sequence-form LP.
* :mod:`reference.extensive.solvers` — Two-player zero-sum extensive-form games in sequence form, and AsymP-DGDA.
* :mod:`reference.extensive.tree` — Extensive-form game trees, the sequence-form builder, and Kuhn and Leduc poker.
"""

from __future__ import annotations

from reference.extensive.cfr import CFRResult, cfr, cfr_plus
from reference.extensive.dilated import (
    bregman_divergence,
    dilated_gradient,
    dilated_prox,
    dilated_regulariser,
)
from reference.extensive.openspiel import from_openspiel
from reference.extensive.plans import (
    EFGSolution,
    behavioural_to_plan,
    best_response_value,
    nash_conv,
    plan_to_behavioural,
    plan_violation,
    solve_lp,
    uniform_behavioural,
)
from reference.extensive.solvers import (
    EFGResult,
    asymp_dgda,
    dgda,
    dmwu,
    dogda,
    symp_dgda,
)
from reference.extensive.tree import (
    Chance,
    Decision,
    Node,
    SequenceFormGame,
    Terminal,
    Treeplex,
    game_from_tree,
    kuhn_poker,
    leduc_poker,
)

__all__ = [
    "CFRResult",
    "Chance",
    "Decision",
    "EFGResult",
    "EFGSolution",
    "Node",
    "SequenceFormGame",
    "Terminal",
    "Treeplex",
    "asymp_dgda",
    "behavioural_to_plan",
    "best_response_value",
    "bregman_divergence",
    "cfr",
    "cfr_plus",
    "dgda",
    "dilated_gradient",
    "dilated_prox",
    "dilated_regulariser",
    "dmwu",
    "dogda",
    "from_openspiel",
    "game_from_tree",
    "kuhn_poker",
    "leduc_poker",
    "nash_conv",
    "plan_to_behavioural",
    "plan_violation",
    "solve_lp",
    "symp_dgda",
    "uniform_behavioural",
]
