"""von Neumann's minimax theorem, checked on LP solutions; and the check can fail."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, target

from proofs_numeric import BoundCheck, ProveProfile, all_theorems, worst
from proofs_numeric.games import prove_von_neumann, von_neumann
from properties.strategies import payoff_matrices
from reference._arrays import FloatArray
from reference.games import GameSolution


@given(payoff=payoff_matrices(max_side=8))
def test_minimax_equality_holds(payoff: FloatArray) -> None:
    check = von_neumann(payoff)
    # the error budget is 1e-9 * scale; aim Hypothesis at the largest violation of equality
    target(abs(check.measured - check.bound) / max(check.atol, 1e-300), label="gap / budget")
    assert check.holds, check
    assert check.measured >= check.bound - check.atol  # weak duality, always


def test_check_fails_for_a_wrong_solver() -> None:
    def uniform(payoff: FloatArray) -> GameSolution:
        m, n = payoff.shape
        return GameSolution(x=np.full(m, 1 / m), y=np.full(n, 1 / n), value=0.0, dual_value=0.0)

    check = von_neumann(np.array([[3.0, -1.0], [-2.0, 1.0]]), solver=uniform)
    assert not check.holds
    assert check.measured - check.bound > 0.5


def test_driver_registered_and_holds() -> None:
    names = [t.name for t in all_theorems("games")]
    assert "games.von_neumann" in names
    result = prove_von_neumann(ProveProfile.named("quick"))
    assert result.holds, result
    assert isinstance(result.params["m"], int)
    assert result.params["m"] >= 1


def test_boundcheck_semantics() -> None:
    le = BoundCheck(claim="c", paper="p", theorem="t", measured=1.0, bound=2.0, sense="<=")
    assert le.holds
    assert le.ratio == 0.5
    ge = BoundCheck(claim="c", paper="p", theorem="t", measured=1.0, bound=2.0, sense=">=")
    assert not ge.holds
    eq = BoundCheck(
        claim="c", paper="p", theorem="t", measured=1.0, bound=1.05, sense="==", rtol=0.1
    )
    assert eq.holds
    nan = BoundCheck(
        claim="c", paper="p", theorem="t", measured=float("nan"), bound=1.0, sense="<="
    )
    assert not nan.holds
    zero = BoundCheck(claim="c", paper="p", theorem="t", measured=0.0, bound=0.0, sense="<=")
    assert zero.ratio == 1.0
    assert dataclasses.replace(worst([le, ge]), subchecks=1, tightest=ge.tightest) == ge
    tight = BoundCheck(claim="c", paper="p", theorem="t", measured=1.9, bound=2.0, sense="<=")
    assert worst([le, tight]).measured == 1.9
    picked = worst([le, tight, zero])
    assert (picked.measured, picked.bound) == (0.0, 0.0)  # the degenerate 0 <= 0 (ratio 1)
    # ... but the summary keeps the sub-checks, the degenerate count and the tightest real ratio
    assert (picked.subchecks, picked.degenerate, picked.tightest) == (3, 1, 0.95)
    nested = worst([picked, worst([zero, zero])])
    assert (nested.subchecks, nested.degenerate, nested.tightest) == (5, 3, 0.95)
