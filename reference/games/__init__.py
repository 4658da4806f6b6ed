"""Two-player zero-sum matrix games: the LP oracle and the duality gap.

The family's public API. The code lives in:

* :mod:`reference.games.base` — Shared pieces: the simplex projection, the duality gap, the result record and validators.
* :mod:`reference.games.hybrid` — The hybrid PRM+ -> semi-smooth Newton solvers PSSN and HPSSN (spec 01, Algorithm 4).
* :mod:`reference.games.lp` — Two-player zero-sum matrix games: the LP oracle and the duality gap.
* :mod:`reference.games.regret` — Regret matching plus (RM+) and predictive RM+ (PRM+) for zero-sum matrix games.
* :mod:`reference.games.ssn` — Douglas–Rachford residual of a zero-sum game and its regularised semi-smooth Newton solver.

The numpy fast path :mod:`reference.games.fast` (SSN with the support-reduced Newton solve:
``ssn``, ``newton_direction``, ``hybrid``, ``drs``, same signatures plus ``linear_solver``) and
the torch fast path :mod:`reference.games.fast_torch` are not imported here.
"""

from __future__ import annotations

from reference.games.base import (
    STOP_REASONS,
    EquilibriumResult,
    project_simplex,
    simplex_threshold,
)
from reference.games.hybrid import (
    HYBRID_MODES,
    HybridConfig,
    hybrid,
)
from reference.games.lp import (
    GameSolution,
    best_response_values,
    duality_gap,
    solve_lp,
)
from reference.games.regret import (
    AVERAGING,
    Averaging,
    RegretTrajectory,
    prm_plus,
    prm_plus_trajectory,
    regret_trajectory,
    rm_plus,
    rm_plus_trajectory,
)
from reference.games.ssn import (
    SSNConfig,
    default_step_size,
    drs,
    drs_operator,
    drs_residual,
    drs_residual_g,
    lift,
    newton_direction,
    recover,
    residual_jacobian,
    simplex_jacobian,
    ssn,
)

__all__ = [
    "AVERAGING",
    "HYBRID_MODES",
    "STOP_REASONS",
    "Averaging",
    "EquilibriumResult",
    "GameSolution",
    "HybridConfig",
    "RegretTrajectory",
    "SSNConfig",
    "best_response_values",
    "default_step_size",
    "drs",
    "drs_operator",
    "drs_residual",
    "drs_residual_g",
    "duality_gap",
    "hybrid",
    "lift",
    "newton_direction",
    "prm_plus",
    "prm_plus_trajectory",
    "project_simplex",
    "recover",
    "regret_trajectory",
    "residual_jacobian",
    "rm_plus",
    "rm_plus_trajectory",
    "simplex_jacobian",
    "simplex_threshold",
    "solve_lp",
    "ssn",
]
