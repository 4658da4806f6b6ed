"""Sequence-form games, Kuhn/Leduc poker, the LP, NashConv, the dilated prox and AsymP-DGDA."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from scipy.optimize import Bounds, LinearConstraint, minimize

from properties.extensive import lp_nash_conv, random_plan, random_poker_game
from properties.strategies import seeds
from reference import extensive as efg
from reference._arrays import FloatArray

KUHN = efg.kuhn_poker()


def test_kuhn_structure_and_value() -> None:
    assert (KUHN.x_space.n_sequences, KUHN.y_space.n_sequences) == (13, 13)
    assert (KUHN.x_space.n_infosets, KUHN.y_space.n_infosets) == (6, 6)
    sol = efg.solve_lp(KUHN)
    assert sol.value == pytest.approx(-1 / 18, abs=1e-9)
    assert sol.dual_value == pytest.approx(-1 / 18, abs=1e-9)
    assert abs(efg.nash_conv(KUHN, sol.x, sol.y)) <= 1e-9
    assert efg.plan_violation(KUHN.x_space, sol.x) <= 1e-9


@pytest.mark.slow
def test_leduc_value_and_asymp_dgda_progress() -> None:
    game = efg.leduc_poker()
    assert game.x_space.n_sequences == 337
    sol = efg.solve_lp(game)
    assert sol.value == pytest.approx(-0.085606424078, abs=1e-8)  # OpenSpiel's LP value
    r = efg.asymp_dgda(game, mu=0.001, max_iter=300, tol=None)
    assert r.history[-1] < r.history[0]


def test_asymp_dgda_kuhn_last_iterate_vs_dgda() -> None:
    r = efg.asymp_dgda(KUHN, mu=0.01, max_iter=10_000, tol=1e-10)
    assert r.converged
    assert r.iterations <= 10_000
    assert efg.plan_violation(KUHN.x_space, r.x) <= 1e-12
    assert r.nash_conv == pytest.approx(lp_nash_conv(KUHN, r.x, r.y), abs=1e-9)
    implicit = efg.asymp_dgda(KUHN, mu=0.01, max_iter=10_000, tol=1e-10, variant="implicit")
    assert implicit.converged
    assert efg.dgda(KUHN, max_iter=2000).history[-200:].min() > 1e-2
    assert efg.dogda(KUHN, max_iter=5000, tol=1e-9).converged
    assert efg.dmwu(KUHN, max_iter=5000, tol=1e-9, optimistic=True).converged
    assert efg.symp_dgda(KUHN, mu=0.05, max_iter=3000).nash_conv > 1e-3


def test_large_mu_stalls_at_shifted_point() -> None:
    r = efg.asymp_dgda(KUHN, mu=0.05, max_iter=4000, tol=None)
    assert 1e-4 < r.nash_conv < 1e-1


@given(seed=seeds())
def test_nash_conv_matches_lp_best_responses(seed: int) -> None:
    rng = np.random.default_rng(seed)
    game = random_poker_game(rng)
    x, y = random_plan(game.x_space, rng), random_plan(game.y_space, rng)
    assert efg.nash_conv(game, x, y) == pytest.approx(lp_nash_conv(game, x, y), abs=1e-8)
    assert efg.nash_conv(game, x, y) >= -1e-12


def _prox_objective(
    space: efg.Treeplex, c: FloatArray, b_hat: FloatArray, kappa: float, x: FloatArray
) -> float:
    total = float(c @ x)
    for s, k, p in space.layout:
        mass = max(float(x[p]), 1e-15)
        b = x[s : s + k] / mass
        total += mass * (0.5 * float((b - b_hat[s : s + k]) @ (b - b_hat[s : s + k])))
        total += mass * 0.5 * kappa * float(b @ b)
    return total


def _feasible(space: efg.Treeplex, z: FloatArray) -> FloatArray:
    """SLSQP leaves E z = e violated by ~1e-4: renormalise each infoset's slice."""
    b = efg.uniform_behavioural(space)
    for s, k, _ in space.layout:
        local = np.maximum(z[s : s + k], 0.0)
        if local.sum() > 0:
            b[s : s + k] = local / local.sum()
    return efg.behavioural_to_plan(space, b)


def test_prox_solves_its_subproblem_against_slsqp() -> None:
    rng = np.random.default_rng(11)
    space = KUHN.x_space
    e_mat, e_rhs = space.constraints()
    for _ in range(20):
        c = rng.normal(size=space.n_sequences)
        b_hat = efg.plan_to_behavioural(space, random_plan(space, rng))
        kappa = float(rng.choice([0.0, 0.5]))
        x_ref, _ = efg.dilated_prox(space, c, b_hat, kappa=kappa)
        uniform = efg.behavioural_to_plan(space, efg.uniform_behavioural(space))

        def objective(
            z: FloatArray, c: FloatArray = c, b_hat: FloatArray = b_hat, kappa: float = kappa
        ) -> float:
            return _prox_objective(space, c, b_hat, kappa, z)

        f_ref = objective(x_ref)
        # the objective is convex in x: SLSQP (from the uniform plan, and from a point near
        # ours) must not find anything better than the recursion's answer
        for start in (uniform, 0.9 * x_ref + 0.1 * uniform):
            res = minimize(
                objective,
                start,
                method="SLSQP",
                bounds=Bounds(np.zeros(space.n_sequences), np.full(space.n_sequences, np.inf)),
                constraints=[LinearConstraint(e_mat, e_rhs, e_rhs)],
                options={"ftol": 1e-14, "maxiter": 500},
            )
            f_qp = objective(_feasible(space, np.asarray(res.x)))
            assert f_ref <= f_qp + 1e-9
        # spec 19 §5.9 asks |f_ref - f_SLSQP| <= 1e-7; SLSQP stalls short of the optimum on
        # this perspective objective (by 6e-7 to 1e-2, always on the worse side), so we check
        # one-sidedly above and, below, that no feasible direction decreases the objective.
        for _ in range(10):
            z = random_plan(space, rng)
            for t in (1e-3, 1e-1):
                assert f_ref <= objective((1 - t) * x_ref + t * z) + 1e-12


@given(seed=seeds())
def test_bregman_decomposition_and_prox_identity(seed: int) -> None:
    rng = np.random.default_rng(seed)
    space = random_poker_game(rng).x_space
    x, x_hat = random_plan(space, rng), random_plan(space, rng)
    b, b_hat = efg.plan_to_behavioural(space, x), efg.plan_to_behavioural(space, x_hat)
    decomposed = sum(
        float(x[p]) * 0.5 * float(np.sum((b[s : s + k] - b_hat[s : s + k]) ** 2))
        for s, k, p in space.layout
    )
    assert efg.bregman_divergence(space, x, x_hat) == pytest.approx(decomposed, abs=1e-10)
    same, _ = efg.dilated_prox(space, np.zeros(space.n_sequences), b_hat)
    assert np.allclose(same, efg.behavioural_to_plan(space, b_hat), atol=1e-12)


def test_gradient_matches_finite_differences_in_the_interior() -> None:
    space = KUHN.x_space
    rng = np.random.default_rng(5)
    x = random_plan(space, rng) * 0.5 + 0.5 * efg.behavioural_to_plan(
        space, efg.uniform_behavioural(space)
    )
    grad = efg.dilated_gradient(space, efg.plan_to_behavioural(space, x))

    def psi(z: FloatArray) -> float:  # ψ extended off the polytope by its formula
        return sum(
            0.5 * float(z[s : s + k] @ z[s : s + k]) / float(z[p]) for s, k, p in space.layout
        )

    h = 1e-6
    for i in range(space.n_sequences):
        e = np.zeros(space.n_sequences)
        e[i] = h
        assert grad[i] == pytest.approx((psi(x + e) - psi(x - e)) / (2 * h), abs=1e-6)


def test_malformed_trees_raise() -> None:
    leaf = efg.Terminal(payoff=0.0)
    bad_actions = efg.Chance(
        outcomes=(
            (0.5, efg.Decision(player=0, infoset="i", actions=("a",), children=(leaf,))),
            (0.5, efg.Decision(player=0, infoset="i", actions=("b",), children=(leaf,))),
        )
    )
    with pytest.raises(ValueError, match="root: information set 'i'"):
        efg.game_from_tree(bad_actions)
    recall = efg.Decision(
        player=0,
        infoset="r",
        actions=("a", "b"),
        children=(
            efg.Decision(player=0, infoset="i", actions=("c",), children=(leaf,)),
            efg.Decision(player=0, infoset="i", actions=("c",), children=(leaf,)),
        ),
    )
    with pytest.raises(ValueError, match="perfect recall"):
        efg.game_from_tree(recall)
    with pytest.raises(ValueError, match="finite"):
        efg.game_from_tree(efg.Terminal(payoff=float("inf")))
    with pytest.raises(ValueError, match="mu"):
        efg.asymp_dgda(KUHN, mu=0.0)
    with pytest.raises(ValueError, match="step_size"):
        efg.dgda(KUHN, step_size=-1.0)
    with pytest.raises(ValueError, match="x"):
        efg.nash_conv(KUHN, np.ones(13), np.ones(13))
    with pytest.raises(ValueError, match="x"):
        efg.nash_conv(KUHN, np.ones(12), np.ones(13))
