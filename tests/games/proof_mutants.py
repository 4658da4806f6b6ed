"""Mutant table of the games theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from reference._arrays import FloatArray
from reference.games import (
    EquilibriumResult,
    GameSolution,
    RegretTrajectory,
    drs,
    drs_residual,
    hybrid,
    newton_direction,
    prm_plus,
    prm_plus_trajectory,
    rm_plus,
    rm_plus_trajectory,
    solve_lp,
    ssn,
)
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def _uniform(payoff: Any) -> tuple[FloatArray, FloatArray]:
    m, n = np.shape(payoff)
    return np.full(m, 1.0 / m), np.full(n, 1.0 / n)


def uniform_hybrid(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    """Returns the uniform pair and reports it as a converged equilibrium."""
    res = hybrid(payoff, **kwargs)
    x, y = _uniform(payoff)
    return dataclasses.replace(res, x=x, y=y, gap=0.0, converged=True)


def uniform_ssn(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    """SSN that returns the uniform pair with its own (correct) residual history and gap 0."""
    res = ssn(payoff, **kwargs)
    x, y = _uniform(payoff)
    return dataclasses.replace(res, x=x, y=y, gap=0.0, converged=True)


def early_stop_ssn(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    """SSN whose iteration cap is hard-coded to 3 Newton steps (reports what it has)."""
    kwargs["max_iter"] = 3
    return ssn(payoff, **kwargs)


def lift_without_shift(
    payoff: Any, x: Any, y: Any, *, step_size: float | None = None
) -> FloatArray:
    """The lift ``L(z) = z`` (forgets the ``- γ M z`` shift of the lifted point)."""
    del payoff, step_size
    return np.concatenate([np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)])


def halved_residual(payoff: Any, u: Any, *, step_size: float | None = None) -> FloatArray:
    """``R = (u - T u) / 2``: the averaged operator's step taken for the residual."""
    return 0.5 * drs_residual(payoff, u, step_size=step_size)


def flipped_newton(payoff: Any, u: Any, mu: float, **kwargs: Any) -> FloatArray:
    """The Newton direction with the sign of the right-hand side flipped (``+R``)."""
    return -newton_direction(payoff, u, mu, **kwargs)


def sign_flipped_rm_plus(payoff: Any, *, iterations: int) -> RegretTrajectory:
    """RM+ that confuses losses and payoffs: both players run on ``-A``."""
    return rm_plus_trajectory(-np.asarray(payoff, dtype=np.float64), iterations=iterations)


def stale_regret_prm_plus(payoff: Any, *, iterations: int) -> RegretTrajectory:
    """PRM+ that reports the previous step's regret vectors (an off-by-one in the record)."""
    tr = prm_plus_trajectory(payoff, iterations=iterations)
    return dataclasses.replace(
        tr, regrets_x=_shifted(tr.regrets_x), regrets_y=_shifted(tr.regrets_y)
    )


def _shifted(r: FloatArray) -> FloatArray:
    out: FloatArray = np.vstack([np.zeros_like(r[:1]), r[:-1]])
    return out


def capped_prm_plus(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    """PRM+ with a hard-coded iteration cap of 100 (``max_iter`` ignored)."""
    kwargs["max_iter"] = 100
    return prm_plus(payoff, **kwargs)


def uniform_y_lp(payoff: Any) -> GameSolution:
    """The LP solver that returns the column player's uniform strategy (second LP skipped)."""
    sol = solve_lp(payoff)
    return dataclasses.replace(sol, y=_uniform(payoff)[1])


# ------------------------------------------------------------------ issue 36: audit mutants
def prm_plus_always_linear(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    """PRM+ that ignores ``averaging`` (always the linear average)."""
    kwargs["averaging"] = "linear"
    return prm_plus(payoff, **kwargs)


def prm_plus_uniform_for_linear(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    """PRM+ whose "linear" average is the uniform one (a wrong average)."""
    if kwargs.get("averaging", "linear") == "linear":
        kwargs["averaging"] = "uniform"
    return prm_plus(payoff, **kwargs)


def rm_plus_shifted_linear(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    """RM+ whose linear weights are ``t - 1`` (an off-by-one: the first iterate dropped)."""
    averaging = kwargs.get("averaging", "uniform")
    res = rm_plus(payoff, **kwargs)
    if averaging != "linear":
        return res
    tr = rm_plus_trajectory(payoff, iterations=res.iterations)
    w = np.arange(0.0, res.iterations)
    w = w if w.sum() > 0 else np.ones_like(w)
    return dataclasses.replace(
        res, x=w @ np.asarray(tr.xs) / w.sum(), y=w @ np.asarray(tr.ys) / w.sum()
    )


def prm_plus_worst_of_two(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    """PRM+ whose "best" keeps the LARGER gap of last / linear (a flipped comparison)."""
    if kwargs.get("averaging") != "best":
        return prm_plus(payoff, **kwargs)
    last = prm_plus(payoff, **{**kwargs, "averaging": "last"})
    linear = prm_plus(payoff, **{**kwargs, "averaging": "linear"})
    a = np.asarray(payoff, dtype=np.float64)

    def gap(r: EquilibriumResult) -> float:
        return float(np.max(np.asarray(r.x) @ a) - np.min(a @ np.asarray(r.y)))

    return last if gap(last) > gap(linear) else linear


def prm_plus_quadratic_as_linear(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    """PRM+ whose "quadratic" average uses the linear weights."""
    if kwargs.get("averaging") == "quadratic":
        kwargs["averaging"] = "linear"
    return prm_plus(payoff, **kwargs)


def drs_floor_ignored(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    """DRS whose residual floor never stops the run (``||R(u_k)|| <= tol_res`` read as a
    report, not a stopping rule): it runs on to ``tol`` or ``max_iter``."""
    kwargs["tol_res"] = 1e-300
    return drs(payoff, **kwargs)


def _m(name: str, why: str, algorithm: str, target: str, *catches: str) -> ProofMutant:
    return ProofMutant(
        family="games",
        name=name,
        why=why,
        algorithm=f"reference.games:{algorithm}",
        target=f"{__name__}:{target}",
        catches=catches,
    )


MUTANTS = (
    _m(
        "hybrid: uniform pair",
        "a solver that returns its starting point but reports convergence",
        "hybrid",
        "uniform_hybrid",
        "games.hybrid_global",
    ),
    _m(
        "ssn: uniform pair",
        "SSN returning the uniform pair while reporting a converged gap",
        "ssn",
        "uniform_ssn",
        "games.ssn_fixed_points",
        "games.ssn_quadratic",
    ),
    _m(
        "ssn: early stop",
        "SSN with a hard-coded cap of 3 Newton steps",
        "ssn",
        "early_stop_ssn",
        "games.ssn_quadratic",
    ),
    _m(
        "lift: no shift",
        "the lift L(z) = z, forgetting the -γMz part",
        "lift",
        "lift_without_shift",
        "games.ssn_fixed_points",
        "games.ssn_residual_gap",
    ),
    _m(
        "drs_residual: halved",
        "the averaged operator's step (u - Tu)/2 returned as the residual",
        "drs_residual",
        "halved_residual",
        "games.ssn_residual_gap",
        "games.drs_operator",
    ),
    _m(
        "newton_direction: sign",
        "the Newton right-hand side +R instead of -R",
        "newton_direction",
        "flipped_newton",
        "games.drs_operator",
    ),
    _m(
        "rm_plus_trajectory: -A",
        "RM+ run on -A (losses and payoffs confused)",
        "rm_plus_trajectory",
        "sign_flipped_rm_plus",
        "games.regret_facts",
    ),
    _m(
        "prm_plus_trajectory: stale regrets",
        "PRM+ recording the previous step's regret vector",
        "prm_plus_trajectory",
        "stale_regret_prm_plus",
        "games.regret_facts",
    ),
    _m(
        "prm_plus: capped at 100",
        "PRM+ with max_iter ignored (a hard-coded cap of 100)",
        "prm_plus",
        "capped_prm_plus",
        "games.prm_plus_rate",
    ),
    _m(
        "solve_lp: uniform y",
        "the LP solver skipping the column player's LP",
        "solve_lp",
        "uniform_y_lp",
        "games.von_neumann",
    ),
    # issue 36 audit (written before the tightening): 0 of 5 caught before, 5 of 5 after
    _m(
        "prm_plus: averaging ignored",
        "the averaging keyword dropped (always linear)",
        "prm_plus",
        "prm_plus_always_linear",
        "games.averaging_rules",
    ),
    _m(
        "prm_plus: uniform for linear",
        "a wrong average under the default rule",
        "prm_plus",
        "prm_plus_uniform_for_linear",
        "games.averaging_rules",
    ),
    _m(
        "rm_plus: linear weights t - 1",
        "an off-by-one in the averaging weights",
        "rm_plus",
        "rm_plus_shifted_linear",
        "games.averaging_rules",
    ),
    _m(
        "prm_plus: best keeps the larger gap",
        "a flipped comparison in the best-of rule",
        "prm_plus",
        "prm_plus_worst_of_two",
        "games.averaging_rules",
    ),
    _m(
        "prm_plus: quadratic = linear",
        "the quadratic weights forgotten",
        "prm_plus",
        "prm_plus_quadratic_as_linear",
        "games.averaging_rules",
    ),
    _m(
        "drs: residual floor not a stop",
        "the residual floor reported but not used to stop the run",
        "drs",
        "drs_floor_ignored",
        "games.drs_replay",
    ),
)
