"""Mutant table of the extensive-form theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from reference import extensive as efg
from tests._proof_mutants import ProofMutant
from tests.extensive.mutants import sign_error_solver, uniform_solver

__all__ = ["MUTANTS"]


def doubled_stakes_kuhn() -> efg.SequenceFormGame:
    """Kuhn poker with every stake counted twice (ante and bet 2): value -1/9."""
    game = efg.kuhn_poker()
    return dataclasses.replace(game, payoff=2.0 * np.asarray(game.payoff))


def uniform_solve_lp(game: Any) -> efg.EFGSolution:
    """The LP returning the uniform behavioural plans while reporting the right value."""
    sol = efg.solve_lp(game)
    x, y = uniform_solver(game)
    return dataclasses.replace(sol, x=x, y=y)


def sign_error_solve_lp(game: Any) -> efg.EFGSolution:
    """The LP solving the game with player 1 maximising ``xᵀAy``, reporting the right value."""
    sol = efg.solve_lp(game)
    x, y = sign_error_solver(game)
    return dataclasses.replace(sol, x=x, y=y)


def symmetric_asymp_dgda(game: Any, *, mu: float, **kwargs: Any) -> efg.EFGResult:
    """AsymP-DGDA replaced by SymP-DGDA (both players perturbed: a shifted point)."""
    return efg.symp_dgda(game, mu=mu, **kwargs)


def unperturbed_asymp_dgda(game: Any, *, mu: float, **kwargs: Any) -> efg.EFGResult:
    """AsymP-DGDA that forgets the perturbation (plain dilated GDA, whose last iterate cycles)."""
    del mu
    kwargs.pop("variant", None)
    return efg.dgda(game, **kwargs)


def stale_y_asymp_dgda(game: Any, **kwargs: Any) -> efg.EFGResult:
    """AsymP-DGDA returning the y of the 200th iterate with the converged run's NashConv."""
    res = efg.asymp_dgda(game, **kwargs)
    early = efg.asymp_dgda(game, **{**kwargs, "max_iter": 200})
    return dataclasses.replace(res, y=early.y)


def _m(name: str, why: str, algorithm: str, target: str, *catches: str) -> ProofMutant:
    return ProofMutant(
        family="extensive",
        name=name,
        why=why,
        algorithm=f"reference.extensive:{algorithm}",
        target=f"{__name__}:{target}",
        catches=catches,
    )


MUTANTS = (
    _m(
        "kuhn_poker: doubled stakes",
        "Kuhn poker with ante and bet counted twice (value -1/9)",
        "kuhn_poker",
        "doubled_stakes_kuhn",
        "extensive.kuhn_value",
    ),
    _m(
        "solve_lp: uniform plans",
        "the LP returning the uniform plans while reporting the right value",
        "solve_lp",
        "uniform_solve_lp",
        "extensive.kuhn_value",
    ),
    _m(
        "solve_lp: sign error",
        "the LP solving the game with player 1 maximising xᵀAy",
        "solve_lp",
        "sign_error_solve_lp",
        "extensive.kuhn_value",
    ),
    _m(
        "asymp_dgda: symmetric",
        "SymP-DGDA in place of AsymP-DGDA (both players perturbed)",
        "asymp_dgda",
        "symmetric_asymp_dgda",
        "extensive.kuhn_asymp_dgda",
    ),
    _m(
        "asymp_dgda: unperturbed",
        "the perturbation forgotten (plain dilated GDA)",
        "asymp_dgda",
        "unperturbed_asymp_dgda",
        "extensive.kuhn_asymp_dgda",
    ),
    _m(
        "asymp_dgda: stale y",
        "the y of the 200th iterate returned with the converged run's NashConv",
        "asymp_dgda",
        "stale_y_asymp_dgda",
        "extensive.kuhn_asymp_dgda",
    ),
)
