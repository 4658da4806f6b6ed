"""Reference RM+/PRM+, DRS, SSN and hybrids: closed forms, invariants (spec 01 Section 6), LP oracle."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from properties.strategies import payoff_matrices, seeds
from reference._arrays import FloatArray
from reference.games import (
    EquilibriumResult,
    HybridConfig,
    SSNConfig,
    default_step_size,
    drs,
    drs_operator,
    drs_residual,
    drs_residual_g,
    duality_gap,
    hybrid,
    lift,
    newton_direction,
    prm_plus,
    project_simplex,
    recover,
    regret_trajectory,
    residual_jacobian,
    rm_plus,
    simplex_jacobian,
    simplex_threshold,
    solve_lp,
    ssn,
)
from reference.games.regret import Averaging

vectors = hnp.arrays(
    np.float64,
    st.integers(1, 8),
    elements=st.floats(-10.0, 10.0, allow_nan=False, allow_subnormal=False),
)


# ------------------------------------------------------------------ projection (6.1-6.3)
@given(v=vectors, seed=seeds())
def test_projection_is_the_argmin_on_the_simplex(v: FloatArray, seed: int) -> None:
    p, tau = project_simplex(v), simplex_threshold(v)
    assert p.min() >= 0.0
    assert abs(p.sum() - 1.0) <= 1e-12
    np.testing.assert_allclose(project_simplex(p), p, atol=1e-12)  # idempotent
    np.testing.assert_allclose(p, np.maximum(v - tau, 0.0))
    rng = np.random.default_rng(seed)
    others = rng.dirichlet(np.full(v.size, 0.3), size=50)
    dist = np.linalg.norm(v - p)
    assert np.all(dist <= np.linalg.norm(v - others, axis=1) + 1e-12)


@given(v=vectors, c=st.floats(-10, 10), seed=seeds())
def test_projection_shift_invariant_and_permutation_equivariant(
    v: FloatArray, c: float, seed: int
) -> None:
    p = project_simplex(v)
    np.testing.assert_allclose(project_simplex(v + c), p, atol=1e-9)
    perm = np.random.default_rng(seed).permutation(v.size)
    np.testing.assert_allclose(project_simplex(v[perm]), p[perm], atol=1e-12)


@given(v=vectors)
def test_jacobian_is_a_symmetric_projector_killing_ones(v: FloatArray) -> None:
    d = simplex_jacobian(v)
    np.testing.assert_allclose(d, d.T)
    np.testing.assert_allclose(d @ d, d, atol=1e-12)
    np.testing.assert_allclose(d @ np.ones(v.size), 0.0, atol=1e-12)
    tau = simplex_threshold(v)
    off = np.zeros(v.size)
    off[v - tau <= 0.0] = 1.0
    np.testing.assert_allclose(d @ off, 0.0, atol=1e-12)


@given(seed=seeds(), k=st.integers(1, 8))
def test_jacobian_matches_finite_differences_away_from_ties(seed: int, k: int) -> None:
    rng = np.random.default_rng(seed)
    v = rng.normal(size=k) * 2.0
    tau = simplex_threshold(v)
    if np.min(np.abs(v - tau)) <= 1e-6:  # near a kink the Jacobian is not unique
        v = v + np.where(v - tau > 0, 1e-3, -1e-3)
    d = simplex_jacobian(v)
    h = 1e-8
    fd = np.column_stack(
        [(project_simplex(v + h * e) - project_simplex(v - h * e)) / (2 * h) for e in np.eye(k)]
    )
    np.testing.assert_allclose(fd, d, atol=1e-5)


def test_projection_closed_forms() -> None:
    p, tau = project_simplex([0.2, 0.3, 0.5]), simplex_threshold([0.2, 0.3, 0.5])
    np.testing.assert_allclose(p, [0.2, 0.3, 0.5])
    assert abs(tau) < 1e-15
    np.testing.assert_allclose(project_simplex([5.0]), [1.0])
    assert simplex_threshold([5.0, 0.0]) == 4.0  # ρ = 1: τ = 5 - 1
    np.testing.assert_allclose(simplex_jacobian([3.0, -3.0]), [[0.0, 0.0], [0.0, 0.0]])


def test_project_simplex_matches_definition() -> None:
    rng = np.random.default_rng(0)
    for _ in range(20):
        v = rng.normal(size=5) * 3
        p = project_simplex(v)
        assert abs(p.sum() - 1) <= 1e-12
        assert p.min() >= 0
        # KKT: v - p = θ on the support, <= θ off it
        theta = float(np.mean((v - p)[p > 0]))
        assert np.allclose((v - p)[p > 0], theta)
        assert np.all(v[p == 0] <= theta + 1e-12)


# ------------------------------------------------------------------ gap (6.4, 6.6)
@given(payoff=payoff_matrices(), seed=seeds(), c=st.floats(-10, 10), s=st.floats(0.1, 10))
def test_gap_invariances_and_role_swap(payoff: FloatArray, seed: int, c: float, s: float) -> None:
    rng = np.random.default_rng(seed)
    m, n = payoff.shape
    x, y = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(n))
    gap = duality_gap(payoff, x, y)
    assert gap >= -1e-12
    assert abs(duality_gap(payoff + c, x, y) - gap) <= 1e-9 * (1 + abs(c))
    assert abs(duality_gap(s * payoff, x, y) - s * gap) <= 1e-9 * s * (1 + gap)
    assert abs(duality_gap(-payoff.T, y, x) - gap) <= 1e-12 * (1 + np.abs(payoff).max())
    sol = solve_lp(payoff)
    assert abs(duality_gap(payoff, sol.x, sol.y)) <= 1e-9 * max(1.0, np.abs(payoff).max())


# ------------------------------------------------------------------ DRS pieces
def _random_game(seed: int, m: int = 4, n: int = 6) -> FloatArray:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, size=(m, n))


def test_residual_forms_agree_and_lift_gives_zero_at_equilibria() -> None:
    a = _random_game(0)
    rng = np.random.default_rng(1)
    u = rng.normal(size=10)
    step_size = default_step_size(a)
    big_m = np.block([[np.zeros((4, 4)), a], [-a.T, np.zeros((6, 6))]])
    w = np.linalg.inv(np.eye(10) + step_size * big_m)
    x, y = recover(a, u)
    p = np.concatenate([x, y])
    r = drs_residual(a, u)
    np.testing.assert_allclose(r, p - w @ (2 * p - u), atol=1e-13)  # R = P - W(2P - u)
    np.testing.assert_allclose(
        drs_residual_g(a, u), (np.eye(10) + step_size * big_m) @ r, atol=1e-13
    )
    np.testing.assert_allclose(drs_operator(a, u), u - r, atol=1e-13)
    sol = solve_lp(a)
    assert np.linalg.norm(drs_residual(a, lift(a, sol.x, sol.y))) <= 1e-9
    jac = residual_jacobian(a, u)
    q = np.eye(10) - 2 * jac  # J = (I - Q)/2 with Q orthogonal
    np.testing.assert_allclose(q @ q.T, np.eye(10), atol=1e-12)
    d = newton_direction(a, u, 0.3)
    np.testing.assert_allclose((jac + 0.3 * np.eye(10)) @ d, -r, atol=1e-12)


def test_lift_rejects_points_off_the_simplex() -> None:
    a = _random_game(2)
    with pytest.raises(ValueError, match="x: expected a point of the simplex"):
        lift(a, [0.5, 0.5, 0.5, 0.0], np.full(6, 1 / 6))
    with pytest.raises(ValueError, match="y: expected"):
        lift(a, np.full(4, 0.25), np.ones(5) / 5)


# ------------------------------------------------------------------ solvers vs LP (6.7, 6.8)
SOLVERS = {
    "ssn": lambda a: ssn(a),
    "pssn": lambda a: hybrid(a),
    "hpssn": lambda a: hybrid(a, mode="HPSSN"),
    "ssn_ratio": lambda a: ssn(a, config=SSNConfig(acceptance="ratio")),
}


@pytest.mark.parametrize("name", sorted(SOLVERS))
@pytest.mark.parametrize("seed", [0, 1])
def test_newton_solvers_match_the_lp_value(name: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, size=(12, 17)) if seed == 0 else rng.standard_normal((15, 9))
    res = SOLVERS[name](a)
    if name == "ssn_ratio" and not res.converged:  # the ratio rule may stall (spec 01, Alg. 2)
        return
    assert res.converged, res
    assert res.gap <= 1e-10
    assert abs(float(np.max(res.x @ a)) - solve_lp(a).value) <= 1e-10 + 1e-9


def test_closed_forms() -> None:
    a = np.array([[3.0, -1.0], [-2.0, 1.0]])  # no pure saddle point
    x1 = (a[1, 1] - a[1, 0]) / (a[0, 0] + a[1, 1] - a[0, 1] - a[1, 0])
    y1 = (a[1, 1] - a[0, 1]) / (a[0, 0] + a[1, 1] - a[0, 1] - a[1, 0])
    for res in (ssn(a), hybrid(a), hybrid(a, mode="HPSSN"), drs(a, tol=1e-12)):
        np.testing.assert_allclose([res.x[0], res.y[0]], [x1, y1], atol=1e-9)
    saddle = np.array([[2.0, 5.0], [1.0, 3.0]])  # row 1 / column 0: a_10 = 1
    for res in (ssn(saddle), hybrid(saddle)):
        assert res.gap <= 1e-10
    row = np.array([[0.5, 2.0, -1.0]])
    assert int(np.argmax(ssn(row).y)) == 1
    skew = _random_game(3, 5, 5)
    skew = skew - skew.T
    res = hybrid(skew)
    assert abs(float(res.x @ skew @ res.y)) <= 1e-10


@given(seed=seeds(), s=st.floats(0.1, 10.0))
@settings(max_examples=10)
def test_ssn_is_scale_invariant_for_five_steps(seed: int, s: float) -> None:
    a = _random_game(seed, 5, 7)
    for k in range(1, 6):
        ra = ssn(a, tol=1e-300, max_iter=k)
        rb = ssn(s * a, tol=1e-300, max_iter=k)
        np.testing.assert_allclose(ra.x, rb.x, atol=1e-9)
        np.testing.assert_allclose(ra.y, rb.y, atol=1e-9)


# ------------------------------------------------------------------ RM+/PRM+ (6.5)
@pytest.mark.parametrize(
    ("predictive", "alternating"), list(itertools.product([False, True], repeat=2))
)
def test_regret_dynamics_invariances(predictive: bool, alternating: bool) -> None:
    rng = np.random.default_rng(4)
    a = rng.uniform(-2, 2, size=(4, 5))
    base = regret_trajectory(a, iterations=200, predictive=predictive, alternating=alternating)
    for other in (a + 3.7, 2.9 * a):
        tr = regret_trajectory(
            other, iterations=200, predictive=predictive, alternating=alternating
        )
        np.testing.assert_allclose(tr.xs, base.xs, atol=1e-9)
        np.testing.assert_allclose(tr.ys, base.ys, atol=1e-9)
    rows, cols = rng.permutation(4), rng.permutation(5)
    tr = regret_trajectory(
        a[rows][:, cols], iterations=200, predictive=predictive, alternating=alternating
    )
    np.testing.assert_allclose(tr.xs, base.xs[:, rows], atol=1e-9)
    assert base.states_x.min() >= 0.0
    np.testing.assert_allclose(base.xs.sum(axis=1), 1.0, atol=1e-12)


def test_alternating_uses_the_new_x() -> None:
    a = np.array([[1.0, -1.0], [-1.0, 1.0]])
    tr = regret_trajectory(a, iterations=2, predictive=False, alternating=True)
    # t=1: x regret at (uniform, uniform) is 0, so x^1 uniform; y then sees g = Aᵀx^1 = 0.
    np.testing.assert_allclose(tr.xs[0], [0.5, 0.5])
    np.testing.assert_allclose(tr.regrets_y[0], [0.0, 0.0])


@pytest.mark.parametrize("averaging", ["last", "uniform", "linear", "quadratic", "best"])
def test_regret_solvers_report_consistent_results(averaging: Averaging) -> None:
    a = _random_game(5, 6, 4)
    for fn in (rm_plus, prm_plus):
        res = fn(a, tol=1e-3, max_iter=3000, averaging=averaging)
        assert res.iterations <= 3000
        assert abs(res.gap - duality_gap(a, res.x, res.y)) <= 1e-12
        assert res.gap_history.size == res.iterations + 1
        assert res.newton_iterations == 0


# ------------------------------------------------------------------ results, budgets, fallback
def test_results_are_frozen_and_read_only() -> None:
    res = ssn(_random_game(6))
    assert isinstance(res, EquilibriumResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.gap = 0.0  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        res.x[0] = 1.0
    assert res.u is not None
    assert res.residual is not None
    assert res.wall_time >= 0.0


@pytest.mark.parametrize("cap", [1, 2, 7])
def test_no_solver_runs_past_max_iter(cap: int) -> None:
    a = _random_game(7, 9, 11)
    for res in (
        ssn(a, max_iter=cap),
        drs(a, max_iter=cap),
        hybrid(a, max_iter=cap),
        hybrid(a, max_iter=cap, mode="HPSSN"),
        prm_plus(a, max_iter=cap),
        rm_plus(a, max_iter=cap, alternating=True),
    ):
        assert res.iterations <= cap
        assert res.iterations == res.first_order_iterations + res.newton_iterations
        assert not res.converged


def test_pssn_falls_back_to_hpssn_and_reports_it() -> None:
    a = np.random.default_rng(8).standard_normal((20, 30))
    cfg = HybridConfig(ssn_max_iter=1)  # the first Newton phase cannot succeed
    res = hybrid(a, config=cfg)
    assert res.fallback
    assert res.converged
    assert res.ssn_runs >= 2
    assert res.gap <= 1e-10


def test_bad_parameters_raise_value_errors_naming_the_argument() -> None:
    a = _random_game(9)
    with pytest.raises(ValueError, match="mode"):
        hybrid(a, mode="SSN")
    with pytest.raises(ValueError, match="tol"):
        ssn(a, tol=0.0)
    with pytest.raises(ValueError, match="max_iter"):
        prm_plus(a, max_iter=0)
    with pytest.raises(ValueError, match="averaging"):
        rm_plus(a, averaging="median")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="payoff"):
        ssn(np.zeros((0, 3)))
    with pytest.raises(ValueError, match="u0"):
        ssn(a, u0=np.zeros(3))
    with pytest.raises(ValueError, match="lambda0"):
        SSNConfig(lambda0=100.0)
    with pytest.raises(ValueError, match="acceptance"):
        SSNConfig(acceptance="wolfe")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tau_switch"):
        HybridConfig(tau_switch=0.0)
    with pytest.raises(TypeError, match="config"):
        ssn(a, config=HybridConfig())  # type: ignore[arg-type]
