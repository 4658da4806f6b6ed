"""Constrained MAP claims hold on instances, can fail, and the registered drivers hold."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_numeric import ProveProfile, all_theorems
from proofs_numeric import constrained_map as pc
from reference import constrained_map as cm


@settings(max_examples=8)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 3))
def test_mpmap_exactness_holds(seed: int, n: int) -> None:
    problem = cm.random_tree_problem(np.random.default_rng(seed), n_vars=n, continuous=True)
    assert pc.mpmap_vs_pamap(problem).holds
    assert pc.mpmap_vs_grid(problem, points=201 if n == 2 else 41).holds


def test_checks_fail_for_broken_solvers() -> None:
    def ignores_constraints(problem: cm.MapProblem) -> cm.MapResult:
        free = cm.make_problem(
            problem.lo, problem.hi, cm.make_formula(problem.n, []), problem.density
        )
        return cm.mp_map(free)

    assert not pc.worked_example(ignores_constraints).holds
    problem = cm.obstacle_gaussian_problem()
    assert not pc.pamap_closed_form(problem, np.array([1.0, 0.1]), max_cells=1).holds
    sat = pc.sat_reduction(np.random.default_rng(0), n_bool=6, n_clauses=26)
    assert sat.holds
    # a "baseline" that is always feasible breaks the C6 claim
    agn = pc.agnostic_unsafe(
        [cm.trajectory_problem(np.random.default_rng(1), steps=1, obstacles=0, kind="gaussian")]
    )
    assert not agn.holds


def test_worked_example_is_tight() -> None:
    check = pc.worked_example()
    assert check.holds
    assert check.measured <= 1e-12


@pytest.mark.parametrize("name", [t.name for t in all_theorems("constrained_map")])
def test_registered_drivers_hold_on_quick(name: str) -> None:
    if name in ("constrained_map.pruning_soundness", "constrained_map.partition"):
        pytest.skip("covered by the slow full-profile test and `verifiedref prove`")
    (entry,) = [t for t in all_theorems("constrained_map") if t.name == name]
    result = entry.driver(ProveProfile.named("quick"))
    assert result.holds, result


@pytest.mark.slow
@pytest.mark.parametrize("name", [t.name for t in all_theorems("constrained_map")])
def test_registered_drivers_hold_on_full(name: str) -> None:
    (entry,) = [t for t in all_theorems("constrained_map") if t.name == name]
    result = entry.driver(ProveProfile.named("full"))
    assert result.holds, result
