"""Differentiable quadratic-programming layers: forward solve, KKT and FFO hypergradients.

The family's public API. The code lives in:

* :mod:`reference.qp_layers.layer` — Differentiable quadratic-programming layers: forward solve, KKT and FFO hypergradients.
* :mod:`reference.qp_layers.model` — QP-layer configs, results, warnings and input parsing (spec 03).
* :mod:`reference.qp_layers.solve` — Forward QP solves: primal-dual interior point with active-set polish, the active-set and

The torch fast path :mod:`reference.qp_layers.fast_torch` is not imported here.
"""

from __future__ import annotations

from reference.qp_layers.layer import (
    active_set,
    ffo_grads,
    ghost_pgd,
    kkt_grads,
    penalty_grads,
)
from reference.qp_layers.model import (
    DegenerateQPWarning,
    FFOConfig,
    GhostPGDResult,
    PenaltyConfig,
    QPGrads,
    QPSolution,
    QPSolverConfig,
    RankDeficientWarning,
)
from reference.qp_layers.solve import (
    kkt_residual,
    solve_qp,
    solve_qp_active_set,
)

__all__ = [
    "DegenerateQPWarning",
    "FFOConfig",
    "GhostPGDResult",
    "PenaltyConfig",
    "QPGrads",
    "QPSolution",
    "QPSolverConfig",
    "RankDeficientWarning",
    "active_set",
    "ffo_grads",
    "ghost_pgd",
    "kkt_grads",
    "kkt_residual",
    "penalty_grads",
    "solve_qp",
    "solve_qp_active_set",
]
