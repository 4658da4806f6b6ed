"""Constrained MAP claims hold on instances, can fail, and the registered drivers hold."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_numeric import ProveProfile, all_theorems
from proofs_numeric import constrained_map as pc
from reference import constrained_map as cm
from tests.constrained_map import mutants


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


def _mode_in_an_obstacle() -> tuple[cm.MapProblem, list[tuple[np.ndarray, np.ndarray]]]:
    # a dominant component at the origin, covered by the box (-0.5, 0.5)^2: the constrained
    # MAP sits on the box's boundary, the unconstrained mode is infeasible
    covs = np.array([0.5 * np.eye(2), 0.5 * np.eye(2)])
    dens = cm.gaussian_mixture(np.array([1.0, 0.3]), np.array([[0.0, 0.0], [2.5, 2.5]]), covs)
    return pc._boxed_problem(dens, [(np.full(2, -0.5), np.full(2, 0.5))])


def test_pruning_soundness_catches_a_pamap_that_ignores_the_constraint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # issue 17: C3 compared pa_map with itself (its own log_value fields), so a pa_map that
    # drops the formula in both modes passed; the points are now re-tested against the boxes
    problem, boxes = _mode_in_an_obstacle()
    ok = pc.pruning_soundness(problem, boxes, samples=5000)
    assert ok.holds
    best, value = ok.params["best_feasible_sample"], ok.params["value_with_bounds"]
    assert isinstance(best, float)
    assert isinstance(value, float)
    assert best <= value + 1e-9  # the oracle's sampled points never beat the exact MAP
    real = cm.pa_map

    def unconstrained(
        p: cm.MapProblem, *, rng: np.random.Generator, config: cm.PaMapConfig | None = None
    ) -> cm.MapResult:
        free = cm.make_problem(p.lo, p.hi, cm.make_formula(p.n, []), p.density)
        return real(free, rng=rng, config=config)

    monkeypatch.setattr(cm, "pa_map", unconstrained)
    wrong = pc.pruning_soundness(problem, boxes, samples=5000)
    assert not wrong.holds
    assert wrong.params["infeasible_point"] is True


# ---------------------------------------------- paper facts (spec 04 §8): hold, and have teeth
def test_prop_a_6_holds_and_catches_a_tabulated_max() -> None:
    ok = pc.proposition_a_6(np.random.default_rng(0), instances=15)
    assert ok.holds
    assert ok.params["worst value error"] <= pc.MESSAGE_RTOL  # type: ignore[operator]
    wrong = pc.proposition_a_6(
        np.random.default_rng(0), instances=15, max_out=mutants.max_out_tabulated
    )
    assert not wrong.holds


def test_prop_a_6_ratio_on_a_constant_piece() -> None:
    # one constant piece under a sliding window: 3 pieces (0, c, 0) of the bound 8
    f = cm.pp_from_pieces([0.2, 0.6], [[1.0]])
    res = cm.max_out(f, (-0.1, 1.0), (0.1, 1.0), lo=-1.0, hi=1.0)
    assert len(res.coeffs) == 3
    assert cm.prop_a6_bound(1, 0) == 8


def test_theorem_a_8_holds_and_catches_tabulated_messages() -> None:
    shapes = [(1, 1), (1, 2), (2, 1)]
    ok = pc.theorem_a_8(np.random.default_rng(1), shapes)
    assert ok.holds
    wrong = pc.theorem_a_8(np.random.default_rng(1), shapes, messages=mutants.messages_tabulated)
    assert not wrong.holds


def test_message_piece_bound_grows_with_the_diameter_not_the_legs() -> None:
    rng = np.random.default_rng(2)
    path = [
        max(cm.message_piece_bound(cm.band_tree_problem(rng, legs=1, depth=d)).values())
        for d in (1, 2, 3)
    ]
    star = [
        max(cm.message_piece_bound(cm.band_tree_problem(rng, legs=k, depth=1)).values())
        for k in (2, 4, 8)
    ]
    assert path[2] > 20 * path[0]  # exponential in the depth
    assert max(star) < path[1]  # a star's messages are leaf messages, whatever the leg count


def test_theorem_4_5_holds_and_catches_mpmap_without_pairwise_factors() -> None:
    problem = cm.random_tree_problem(
        np.random.default_rng(3), n_vars=2, continuous=True, pairwise=True
    )
    assert pc.theorem_4_5(problem).holds
    wrong = pc.theorem_4_5(problem, solver=mutants.mp_map_without_pairwise)
    assert not wrong.holds
    assert wrong.measured > 1e-3


def test_example_2_2_holds_and_catches_mutants() -> None:
    ok = pc.example_2_2()
    assert ok.holds
    assert not pc.example_2_2(mutants.mp_map_without_pairwise).holds
    assert not pc.example_2_2(mutants.mp_map_drops_last_literal).holds


def test_pairwise_factors_enter_the_density_and_the_graph() -> None:
    p = cm.example_2_2()
    dens = p.density
    assert isinstance(dens, cm.ProductPP)
    x = np.array([0.7, 0.4])
    by_hand = dens.factors[0](0.7) * dens.factors[1](0.4) * (0.7 + 0.5) * (0.4 + 0.5)
    assert dens.value(x) == pytest.approx(by_hand, rel=1e-14)
    line = cm.pp_from_pieces([0.0, 1.0], [[1.0]])
    cyc = cm.ProductPP(
        factors=(line, line, line),
        pairwise=(
            cm.PairwiseFactor(i=0, j=1, A=line, B=line),
            cm.PairwiseFactor(i=1, j=2, A=line, B=line),
            cm.PairwiseFactor(i=0, j=2, A=line, B=line),
        ),
    )
    problem = cm.make_problem(np.zeros(3), np.ones(3), cm.make_formula(3, []), cyc)
    with pytest.raises(NotImplementedError, match="treewidth one"):
        cm.mp_map(problem)
    with pytest.raises(ValueError, match="distinct variables"):
        cm.make_problem(
            np.zeros(2),
            np.ones(2),
            cm.make_formula(2, []),
            cm.ProductPP(
                factors=(line, line), pairwise=(cm.PairwiseFactor(i=0, j=0, A=line, B=line),)
            ),
        )


def test_free_boxes_cover_exactly_the_feasible_region() -> None:
    # issue 36: the oracle of pamap_global sees the region outside the obstacles, no more
    rng = np.random.default_rng(4)
    boxes = [pc._random_box(rng, 2) for _ in range(3)]
    free = pc._free_boxes(boxes, 2)
    pts = rng.uniform(-4.0, 4.0, (5000, 2))
    inside_free = np.zeros(len(pts), dtype=bool)
    for lo, hi in free:
        inside_free |= np.all((pts >= lo) & (pts <= hi), axis=1)
    np.testing.assert_array_equal(inside_free, pc._outside_boxes(pts, boxes, tol=0.0))
