"""Unit tests of reference.constrained_map: worked examples, oracles, fragment errors, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import constrained_map as cm

UNIT = cm.ProductPP(factors=(cm.pp_from_pieces([0.0, 1.0], [[1.0]]),))


def test_worked_example_message_and_map() -> None:
    problem = cm.worked_example()
    r = cm.mp_map(problem)
    assert r.feasible
    assert r.certified
    assert np.allclose(r.x, [1.0, 0.5], atol=1e-12)
    assert r.value == pytest.approx(0.6, abs=1e-12)
    root = cm.mp_beliefs(problem)[0]  # x1 · m_{2→1}(x1): 1.1 x1 on [0, ½], x1(x1 − 0.4) after
    assert root(0.25) == pytest.approx(0.275, abs=1e-12)
    assert root(0.5) == pytest.approx(0.55, abs=1e-12)
    assert root(0.75) == pytest.approx(0.75 * 0.35, abs=1e-12)
    assert not cm.agnostic_map(problem, rng=np.random.default_rng(0), starts=3).feasible


def test_pamap_closed_form_obstacle() -> None:
    r = cm.pa_map(cm.obstacle_gaussian_problem(), rng=np.random.default_rng(0))
    assert np.allclose(r.x, [1.0, 0.1], atol=1e-7)
    assert r.log_value == pytest.approx(-0.32 - math.log(2 * math.pi), abs=1e-7)
    assert r.certified
    assert r.cells_emitted >= 1


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 3))
def test_mpmap_matches_grid_and_beats_pamap(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    problem = cm.random_tree_problem(rng, n_vars=n, shape="chain", continuous=True)
    mp = cm.mp_map(problem)
    grid = cm.grid_map(problem, points=201 if n == 2 else 41)
    pa = cm.pa_map(problem, rng=np.random.default_rng(0))
    assert mp.feasible == grid.feasible == pa.feasible
    if mp.feasible:
        assert problem.feasible(mp.x)
        assert mp.value >= grid.value - 1e-9 * max(1.0, grid.value)
        assert mp.value >= pa.value - 1e-9 * max(1.0, pa.value)
    else:
        assert mp.x.shape == (0,)
        assert mp.log_value == -math.inf


def test_messages_are_nonnegative_and_vanish_only_when_infeasible() -> None:
    problem = cm.worked_example()
    child = cm.mp_beliefs(problem)[1]
    assert min(child.at_breaks) >= 0.0
    root = cm.mp_beliefs(problem)[0]
    xs = np.linspace(0.0, 1.0, 50)
    assert all(root(float(v)) >= 0.0 for v in xs)
    # x1 = 0.5 ± 0.25: no x2 in [0, 1] with |x1 − x2| >= 0.5 only when x1 ∈ (0.5, 0.5): never
    assert all(root(float(v)) > 0.0 for v in xs[1:])


def test_fragment_violations_raise_not_implemented() -> None:
    three = cm.make_formula(3, [[([1.0, 1.0, 1.0], 1.0)]])
    dens = cm.ProductPP(factors=tuple(cm.pp_from_pieces([0.0, 1.0], [[1.0]]) for _ in range(3)))
    with pytest.raises(NotImplementedError, match="3 variables"):
        cm.mp_map(cm.make_problem(np.zeros(3), np.ones(3), three, dens))
    cycle = cm.make_formula(
        3, [[([1.0, -1.0, 0.0], 0.0)], [([0.0, 1.0, -1.0], 0.0)], [([-1.0, 0.0, 1.0], 0.0)]]
    )
    with pytest.raises(NotImplementedError, match="cycle"):
        cm.mp_map(cm.make_problem(np.zeros(3), np.ones(3), cycle, dens))
    gauss = cm.obstacle_gaussian_problem()
    with pytest.raises(NotImplementedError, match="ProductPP"):
        cm.mp_map(gauss)


def test_infeasible_formula_is_data() -> None:
    f = cm.make_formula(1, [[([1.0], 0.2)], [([-1.0], -0.8)]])  # x <= 0.2 and x >= 0.8
    problem = cm.make_problem(
        [0.0], [1.0], f, cm.ProductPP(factors=(cm.pp_from_pieces([0.0, 1.0], [[1.0]]),))
    )
    for r in (cm.mp_map(problem), cm.pa_map(problem, rng=np.random.default_rng(0))):
        assert not r.feasible
        assert r.value == 0.0
        assert r.x.shape == (0,)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: cm.make_problem([0.0], [0.0], cm.make_formula(1, []), UNIT), "hi > lo"),
        (lambda: cm.make_problem([0.0], [math.inf], cm.make_formula(1, []), UNIT), "finite"),
        (lambda: cm.pp_from_pieces([0.0, 1.0], [[1.0], [2.0]]), "pieces"),
        (lambda: cm.make_formula(1, [[([0.0], 1.0)]]), "non-zero atom"),
        (
            lambda: cm.make_problem(
                [0.0],
                [1.0],
                cm.make_formula(1, []),
                cm.ProductPP(factors=(cm.pp_from_pieces([0.0, 1.0], [[-0.5, 1.0]]),)),
            ),
            "non-negative",
        ),
        (
            lambda: cm.gaussian_mixture([1.0], [[0.0, 0.0]], [[[1.0, 0.0], [0.0, -1.0]]]),
            "positive definite",
        ),
    ],
)
def test_bad_input_messages(call: object, match: str) -> None:
    assert callable(call)
    with pytest.raises(ValueError, match=match):
        call()


def test_baselines_and_cells() -> None:
    problem = cm.obstacle_gaussian_problem()
    rng = np.random.default_rng(3)
    assert not cm.agnostic_map(problem, rng=rng, starts=3).feasible
    repaired = cm.agnostic_repair_map(problem, rng=rng, starts=3)
    assert repaired.feasible
    sampled = cm.sample_filter_map(problem, rng=rng, samples=2000)
    assert sampled.feasible
    exact = cm.pa_map(problem, rng=rng)
    assert exact.log_value >= max(repaired.log_value, sampled.log_value) - 1e-9
    cells = cm.pa_cells(problem)
    assert len(cells) == 4  # the four sides of the obstacle
    sat, boolean = cm.random_3sat_problem(np.random.default_rng(0), n_bool=4, n_clauses=3)
    assert sat.n == 4
    assert len(boolean) == 3


def test_trajectory_problem_kinds() -> None:
    rng = np.random.default_rng(0)
    pp = cm.trajectory_problem(rng, steps=3, obstacles=2, kind="pp")
    r = cm.mp_map(pp)
    assert r.feasible
    gauss = cm.trajectory_problem(rng, steps=2, obstacles=2, kind="gaussian", smoothness=1.0)
    rg = cm.pa_map(gauss, rng=np.random.default_rng(0))
    assert rg.feasible
    assert rg.certified


def test_max_out_validates_its_arguments() -> None:
    q = cm.pp_from_pieces([0.0, 1.0], [[1.0, -2.0]])  # negative on (0.5, 1]
    with pytest.raises(ValueError, match="q: expected a non-negative weight"):
        cm.max_out(q, (0.0, 0.0), (1.0, 0.0), lo=0.0, hi=1.0)
    ok = cm.pp_from_pieces([0.0, 1.0], [[1.0]])
    with pytest.raises(ValueError, match="hi: expected hi > lo"):
        cm.max_out(ok, (0.0, 0.0), (1.0, 0.0), lo=1.0, hi=1.0)
    with pytest.raises(TypeError, match="q: expected a PiecewisePolynomial"):
        cm.max_out([1.0], (0.0, 0.0), (1.0, 0.0), lo=0.0, hi=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="pieces"):
        cm.prop_a6_bound(0, 1)


def test_message_piece_bound_needs_one_band_per_edge() -> None:
    with pytest.raises(ValueError, match="single literal"):
        cm.message_piece_bound(cm.worked_example())  # a disjunction of two bands


# ------------------------------------------ scale: value comparisons must be relative (issue 34)
def _clauses_hold(formula: cm.Formula, x: np.ndarray, tol: float = 1e-9) -> bool:
    """Δ(x) recomputed from the raw atoms (A, c) and literal signs, not by ``Formula.holds``."""
    for clause in formula.clauses:
        if not any(
            (formula.A[k] @ x <= formula.c[k] + tol)
            if pos
            else (formula.A[k] @ x >= formula.c[k] - tol)
            for k, pos in clause
        ):
            return False
    return True


def _scaled_first(problem: cm.MapProblem, s: float) -> cm.MapProblem:
    dens = problem.density
    assert isinstance(dens, cm.ProductPP)
    f0 = dens.factors[0]
    first = cm.PiecewisePolynomial(
        breaks=f0.breaks, coeffs=tuple(s * c for c in f0.coeffs), at_breaks=s * f0.at_breaks
    )
    factors = (first, *dens.factors[1:])
    return cm.make_problem(problem.lo, problem.hi, problem.formula, cm.ProductPP(factors=factors))


@pytest.mark.parametrize("s", [1e-12, 1e-14, 1e-200])
def test_worked_example_scaled_below_the_old_absolute_tie_tolerance(s: float) -> None:
    # w₁ = s·x₁: the MAP is still (1, 0.5) with value 0.6 s (spec 04 §3.1 worked example).  An
    # absolute tie tolerance of 1e-12 in argmax_on_intervals made every value a tie, so MpMap
    # returned the first candidate x₁ = 0 (value 0) instead.
    r = cm.mp_map(_scaled_first(cm.worked_example(), s))
    assert r.feasible
    assert r.certified
    assert np.allclose(r.x, [1.0, 0.5], atol=1e-12)
    assert r.value / s == pytest.approx(0.6, rel=1e-9)


@pytest.mark.parametrize(("gap", "satisfiable"), [(0.5, True), (1.5, False)])
def test_tiny_constant_weights_still_decide_feasibility(gap: float, satisfiable: bool) -> None:
    # Δ = (x₁ ≤ x₀ − gap) on [0, 1]², w ≡ 1e-7 per variable (product 1e-14): satisfiable iff
    # gap ≤ 1.  The old absolute tie tolerance picked x₀ = 0, where no x₁ fits, and reported
    # "infeasible" for gap = 0.5 (the 40-node chain's wrong verdict in two variables).
    one = cm.pp_from_pieces([0.0, 1.0], [[1e-7]])
    formula = cm.make_formula(2, [[([-1.0, 1.0], -gap)]])
    problem = cm.make_problem([0.0, 0.0], [1.0, 1.0], formula, cm.ProductPP(factors=(one, one)))
    grid = np.linspace(0.0, 1.0, 101)
    brute = any(_clauses_hold(formula, np.array([a, b])) for a in grid for b in grid)
    assert brute == satisfiable  # the instance is what the comment says
    r = cm.mp_map(problem)
    assert r.feasible == satisfiable
    if satisfiable:
        assert _clauses_hold(formula, r.x)
        assert np.all((r.x >= 0.0) & (r.x <= 1.0))
        assert r.value == pytest.approx(1e-14, rel=1e-9)


def test_a_product_below_float64_is_feasible_but_not_certified() -> None:
    # w ≡ 1e-200 per variable: every belief of the root underflows to 0, so the max-product pass
    # cannot rank points; MpMap must still decide Δ (satisfiable here), return a feasible point,
    # report log w = 2 log 1e-200 (any feasible point is a MAP, w is constant) and not certify it.
    tiny = cm.pp_from_pieces([0.0, 1.0], [[1e-200]])
    formula = cm.make_formula(2, [[([-1.0, 1.0], -0.5)]])
    problem = cm.make_problem([0.0, 0.0], [1.0, 1.0], formula, cm.ProductPP(factors=(tiny, tiny)))
    r = cm.mp_map(problem)
    assert r.feasible
    assert not r.certified
    assert _clauses_hold(formula, r.x)
    assert r.log_value == pytest.approx(2 * math.log(1e-200), rel=1e-12)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), exponent=st.integers(13, 250))
def test_mpmap_value_scales_with_tiny_factors(seed: int, exponent: int) -> None:
    # Property 4 (scale invariance) at scales far below 1: the argmax keeps its density under the
    # unscaled w (ties allowed), and the feasibility verdict is unchanged.
    rng = np.random.default_rng(seed)
    problem = cm.random_tree_problem(rng, n_vars=3, shape="chain", continuous=True)
    s = 10.0**-exponent
    base, scaled = cm.mp_map(problem), cm.mp_map(_scaled_first(problem, s))
    assert scaled.feasible == base.feasible
    if base.feasible:
        assert _clauses_hold(problem.formula, scaled.x)
        v = math.exp(problem.log_value(scaled.x))
        assert v == pytest.approx(base.value, rel=1e-9, abs=0.0)


def test_pamap_bound_on_tiny_pp_factors_does_not_prune_the_map_cell() -> None:
    # PaMap's ProductPP upper bound maximises each factor with argmax_on_intervals; with the old
    # absolute tie tolerance a factor scaled by 1e-13 got a bound below its true maximum, so the
    # cell of the MAP (1, 0.5) was pruned and PaMap returned (0.5, 1).
    base = cm.worked_example()
    dens = base.density
    assert isinstance(dens, cm.ProductPP)
    s = 1e-13
    factors = tuple(
        cm.PiecewisePolynomial(
            breaks=f.breaks, coeffs=tuple(s * c for c in f.coeffs), at_breaks=s * f.at_breaks
        )
        for f in dens.factors
    )
    problem = cm.make_problem(base.lo, base.hi, base.formula, cm.ProductPP(factors=factors))
    r = cm.pa_map(problem, rng=np.random.default_rng(0))
    assert r.feasible
    assert np.allclose(r.x, [1.0, 0.5], atol=1e-7)
    assert r.log_value - 2 * math.log(s) == pytest.approx(math.log(0.6), abs=1e-9)


def test_pamap_stopped_at_its_cell_cap_is_not_certified() -> None:
    # Regression: pa_map reported certified=True when the search stopped at max_cells with
    # cells left unvisited, although the bound was not proven over the rest of F(Δ).
    problem = cm.obstacle_gaussian_problem()
    total = len(cm.pa_cells(problem))  # the partition, enumerated without a cap
    assert total == 4
    rng = np.random.default_rng(0)
    no_prune = cm.PaMapConfig(use_bounds=False, max_cells=total - 1)
    capped = cm.pa_map(problem, rng=rng, config=no_prune)
    assert capped.cells_emitted == total - 1  # stopped with one cell left
    assert not capped.certified
    first = cm.pa_map(problem, rng=rng, config=cm.PaMapConfig(max_cells=1))
    assert first.cells_emitted == 1
    assert not first.certified
    for use_bounds in (False, True):  # a cap equal to the cell count leaves nothing unvisited
        full = cm.pa_map(
            problem, rng=rng, config=cm.PaMapConfig(use_bounds=use_bounds, max_cells=total)
        )
        assert full.certified
        assert full.log_value == pytest.approx(-0.32 - math.log(2 * math.pi), abs=1e-7)
