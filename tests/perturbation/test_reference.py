"""AsymP-GDA and baselines on matrix games: closed forms, invariances, oracles (spec 19)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from properties.strategies import payoff_matrices, seeds
from reference import games
from reference import perturbation as pert
from reference._arrays import FloatArray

BRPS = np.array(pert.biased_rps())  # the paper's orientation, A = -P (spec 19 §8)
CLOSED = np.array([[2.0, -1.0], [-1.0, 1.0]])


@pytest.mark.parametrize("mu", [0.5, 5.0, 14.9, 15.1, 30.0])
def test_closed_form_x_side(mu: float) -> None:
    exact = np.array([0.4, 0.6]) if mu <= 15 else np.array([0.5 - 1.5 / mu, 0.5 + 1.5 / mu])
    x = pert.asymp_gda_side(CLOSED, mu=mu, max_iter=3000, tol=None).x
    assert np.max(np.abs(x - exact)) <= 1e-8
    assert np.max(np.abs(pert.perturbed_minimiser(CLOSED, mu=mu) - exact)) <= 1e-8


def test_matching_pennies_every_mu() -> None:
    a = np.array([[1.0, -1.0], [-1.0, 1.0]])
    for mu in (0.01, 1.0, 100.0):
        assert np.allclose(pert.asymp_gda(a, mu=mu, max_iter=2000, tol=None).x, 0.5, atol=1e-9)


def test_duplicated_row_min_norm_selection() -> None:
    a = np.vstack([BRPS, BRPS[1]])
    x = pert.asymp_gda_side(a, mu=0.3, max_iter=20_000, tol=None).x
    assert np.max(np.abs(x - np.array([0.2, 0.3, 0.2, 0.3]))) <= 1e-7
    x_qp = pert.perturbed_minimiser(a, mu=0.3)
    assert np.max(np.abs(x_qp - np.array([0.2, 0.3, 0.2, 0.3]))) <= 1e-6


def test_brps_invariance_and_shift() -> None:
    star = np.array([0.2, 0.6, 0.2])
    for mu in (0.5, 2.0):
        r = pert.asymp_gda(BRPS, mu=mu, max_iter=5000, tol=1e-14)
        assert np.max(np.abs(r.x - star)) <= 1e-8
        assert np.max(np.abs(r.y - star)) <= 1e-8
        assert r.nash_conv <= 1e-10
    shifted = pert.asymp_gda(BRPS, mu=4.0, max_iter=5000, tol=None)
    assert np.max(np.abs(shifted.x - star)) > 1e-3


def test_symp_shifted_gda_cycles_ogda_omwu_converge() -> None:
    assert pert.symp_gda(BRPS, mu=0.1, max_iter=20_000).nash_conv > 1e-3
    assert not pert.gda(BRPS, max_iter=3000).converged
    assert pert.ogda(BRPS, tol=1e-9, max_iter=50_000).converged
    assert pert.omwu(BRPS, tol=1e-6, max_iter=50_000).converged


@given(payoff=payoff_matrices(max_side=5), mu=st.floats(1e-3, 10.0), seed=seeds())
def test_y_side_is_x_side_on_minus_transpose(payoff: FloatArray, mu: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    m, n = payoff.shape
    x0, y0 = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(n))
    step_size = pert.default_step_size(payoff, mu=mu)
    kw = {"mu": mu, "step_size": step_size, "max_iter": 30, "tol": None}
    # variant "y_first" (the earlier reconstruction): the x-side run on -Aᵀ, roles swapped
    ry = pert.asymp_gda_side(payoff, side="y", x0=x0, y0=y0, variant="y_first", **kw)  # type: ignore[arg-type]
    rx = pert.asymp_gda_side(-payoff.T, side="x", x0=y0, y0=x0, **kw)  # type: ignore[arg-type]
    assert np.array_equal(ry.x, rx.y)
    assert np.array_equal(ry.y, rx.x)


@given(payoff=payoff_matrices(max_side=5), mu=st.floats(1e-3, 10.0), seed=seeds())
def test_official_mirror_is_x_side_on_minus_transpose_half_a_step_later(
    payoff: FloatArray, mu: float, seed: int
) -> None:
    # official order (x first, then the perturbed y): its sequence x1, y1, x2, y2, ... is the
    # x-side run on -Aᵀ started from (y0, x1), with x1 = Π(x0 - η A y0) written out here
    rng = np.random.default_rng(seed)
    m, n = payoff.shape
    x0, y0 = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(n))
    step_size = pert.default_step_size(payoff, mu=mu)
    x1 = games.project_simplex(x0 - step_size * (payoff @ y0))
    ry = pert.asymp_gda_side(
        payoff, mu=mu, step_size=step_size, side="y", x0=x0, y0=y0, max_iter=30, tol=None
    )
    rx = pert.asymp_gda_side(
        -payoff.T, mu=mu, step_size=step_size, x0=y0, y0=x1, max_iter=30, tol=None
    )
    rx_before = pert.asymp_gda_side(
        -payoff.T, mu=mu, step_size=step_size, x0=y0, y0=x1, max_iter=29, tol=None
    )
    assert np.max(np.abs(ry.y - rx.x)) <= 1e-12
    assert np.max(np.abs(ry.x - rx_before.y)) <= 1e-12


@given(payoff=payoff_matrices(max_side=5), seed=seeds())
def test_gda_is_asymp_with_mu_zero(payoff: FloatArray, seed: int) -> None:
    rng = np.random.default_rng(seed)
    m, n = payoff.shape
    x, y = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(n))
    step_size = pert.default_step_size(payoff)
    r = pert.gda(payoff, step_size=step_size, max_iter=20, tol=None, x0=x, y0=y)
    for _ in range(20):  # spec 19 §3.1 with μ = 0, written out
        x = games.project_simplex(x - step_size * (payoff @ y))
        y = games.project_simplex(y + step_size * (payoff.T @ x))
    assert np.allclose(r.x, x, atol=1e-12)
    assert np.allclose(r.y, y, atol=1e-12)


@given(payoff=payoff_matrices(max_side=6), seed=seeds(), mu=st.floats(1e-3, 10.0))
def test_nash_conv_and_perturbed_gap_nonnegative(payoff: FloatArray, seed: int, mu: float) -> None:
    rng = np.random.default_rng(seed)
    m, n = payoff.shape
    x, y = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(n))
    scale = max(1.0, float(np.max(np.abs(payoff))))
    value = pert.nash_conv(payoff, x, y)
    assert value >= -1e-12 * scale
    assert value == pytest.approx(games.duality_gap(payoff, x, y), abs=1e-12 * scale)
    assert pert.perturbed_gap(payoff, x, y, mu=mu) >= -1e-12 * scale
    sol = games.solve_lp(payoff)
    assert abs(pert.nash_conv(payoff, sol.x, sol.y)) <= 1e-8 * scale


def test_fixed_point_of_the_map_at_the_solution() -> None:
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, size=(4, 5))
    r = pert.asymp_gda_side(a, mu=0.5, max_iter=20_000, tol=None)
    again = pert.asymp_gda_side(a, mu=0.5, max_iter=5, tol=None, x0=r.x, y0=r.y)
    assert np.max(np.abs(again.x - r.x)) <= 1e-12
    assert np.max(np.abs(again.y - r.y)) <= 1e-12
    assert r.stopping_history[-1] <= 1e-10
    assert r.stopping_history.min() >= -1e-12


def test_theorem_4_1_gap_vanishes_on_random_game() -> None:
    a = np.random.default_rng(7).uniform(-1, 1, size=(10, 15))
    r = pert.asymp_gda_side(a, mu=0.05, max_iter=10_000, tol=1e-10)
    assert r.converged
    assert r.stopping >= -1e-12


def test_monotone_invariance_interval_and_scaling() -> None:
    star = np.array([0.4, 0.6])
    inv = [
        np.max(np.abs(pert.perturbed_minimiser(CLOSED, mu=mu) - star)) <= 1e-7
        for mu in (1.0, 5.0, 10.0, 14.0, 16.0, 20.0)
    ]
    assert inv == [True, True, True, True, False, False]
    # μ*(cA) = c μ*(A): the closed-form game scaled by 3 keeps invariance up to 45
    assert np.max(np.abs(pert.perturbed_minimiser(3 * CLOSED, mu=44.0) - star)) <= 1e-7
    assert np.max(np.abs(pert.perturbed_minimiser(3 * CLOSED, mu=46.0) - star)) > 1e-4


@pytest.mark.parametrize(
    "payoff",
    [
        np.array([[3.0, -1.0, 2.0]]),
        np.array([[3.0], [-1.0], [2.0]]),
        np.array([[1.0, 5.0, 4.0], [-2.0, 0.5, -1.0], [0.0, 3.0, 2.0]]),  # saddle at (2, 0)
    ],
    ids=["1 x m", "n x 1", "pure saddle"],
)
def test_parameter_free_exact_on_pure_games(payoff: FloatArray) -> None:
    r = pert.parameter_free(payoff, tol=1e-10)
    assert r.converged
    assert r.nash_conv <= 1e-10
    assert games.duality_gap(payoff, r.x, r.y) <= 1e-10


def test_parameter_free_final_mu_stable_across_eps() -> None:
    a = np.random.default_rng(1).uniform(-1, 1, size=(8, 12))
    runs = [pert.parameter_free(a, tol=eps) for eps in (1e-6, 1e-8, 1e-10)]
    assert all(r.converged for r in runs)
    assert len({r.mu for r in runs}) == 1
    assert runs[-1].iterations < 20_000


def test_patience_zero_is_the_spec_rule() -> None:
    r = pert.parameter_free(BRPS, tol=1e-9, patience=0)
    assert r.converged


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: pert.asymp_gda(CLOSED, mu=0.0), "mu"),
        (lambda: pert.asymp_gda(CLOSED, mu=1.0, step_size=-1.0), "step_size"),
        (lambda: pert.asymp_gda([[np.nan, 1.0]], mu=1.0), "payoff"),
        (lambda: pert.asymp_gda_side(CLOSED, mu=1.0, x0=[0.7, 0.7]), "x0"),
        (lambda: pert.parameter_free(CLOSED, tol=0.0), "tol"),
        (lambda: pert.symp_gda(CLOSED, mu=-1.0), "mu"),
        (lambda: pert.ogda(CLOSED, y0=[2.0, -1.0]), "y0"),
    ],
)
def test_bad_input_names_the_argument(call: object, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        call()  # type: ignore[operator]
