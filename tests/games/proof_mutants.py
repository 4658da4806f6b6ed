"""Mutant table of the games theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from reference.games import EquilibriumResult, hybrid
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def uniform_hybrid(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    """Returns the uniform pair and reports it as a converged equilibrium."""
    res = hybrid(payoff, **kwargs)
    m, n = np.shape(payoff)
    x, y = np.full(m, 1.0 / m), np.full(n, 1.0 / n)
    return dataclasses.replace(res, x=x, y=y, gap=0.0, converged=True)


MUTANTS = (
    ProofMutant(
        family="games",
        name="hybrid: uniform pair",
        why="a solver that returns its starting point but reports convergence",
        algorithm="reference.games:hybrid",
        target=f"{__name__}:uniform_hybrid",
        catches=("games.hybrid_global",),
    ),
)
