"""Issue 20: the games fast path's support polish and :data:`FAST_HYBRID_CONFIG`.

Every expected value is computed independently: equilibria by HiGHS (:func:`solve_lp`), gaps
recomputed from the returned pair, supports squared by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference import games as ref
from reference.games import HybridConfig, duality_gap, fast
from reference.games.base import _threshold
from reference.games.lp import GameSolution

SHAPES = [(20, 30), (30, 20), (40, 40)]


def _game(shape: tuple[int, int], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.0, 1.0, shape) if seed % 2 else rng.standard_normal(shape)


def _scores(ctx: fast._Drs, u: np.ndarray) -> np.ndarray:
    ux, uy = ctx.split(u)
    return np.concatenate([ux - _threshold(ux), uy - _threshold(uy)])


def _wrong_iterate(a: np.ndarray, flips: int) -> tuple[fast._Drs, np.ndarray, GameSolution]:
    """The lifted equilibrium with the ``flips`` least certain scores pushed across zero."""
    sol = ref.solve_lp(a)
    ctx = fast._Drs(a, None)
    u = ctx.lift(np.concatenate([sol.x, sol.y]))
    score = _scores(ctx, u)
    truth = score > 0.0
    for i in np.argsort(np.abs(score))[:flips]:
        u[i] -= 2.0 * score[i] + np.sign(score[i]) * 1e-3  # across the kink, by a margin
    assert np.any((_scores(ctx, u) > 0.0) != truth)  # the iterate's supports are wrong
    return ctx, u, sol


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("shape", SHAPES, ids=[f"{m}x{n}" for m, n in SHAPES])
def test_polish_lands_on_the_equilibrium_from_one_wrong_index(
    shape: tuple[int, int], seed: int
) -> None:
    """One wrong support index (the supports are then not square): the polish returns
    HiGHS's equilibrium."""
    a = _game(shape, seed)
    ctx, u, sol = _wrong_iterate(a, 1)
    z = fast._polish(ctx, u, 1e-10)
    assert z is not None
    x, y = ctx.split(z)
    assert duality_gap(a, x, y) <= 1e-10
    np.testing.assert_allclose(x, sol.x, atol=1e-8)
    np.testing.assert_allclose(y, sol.y, atol=1e-8)


def test_polish_returns_an_equilibrium_or_nothing() -> None:
    """Two, three or six wrong indices: the polish may hand the step back to Newton
    (``None``), but every profile it returns is HiGHS's equilibrium."""
    returned = 0
    for shape in SHAPES:
        for seed in range(3):
            for flips in (2, 3, 6):
                a = _game(shape, seed)
                ctx, u, sol = _wrong_iterate(a, flips)
                z = fast._polish(ctx, u, 1e-10)
                if z is None:
                    continue
                returned += 1
                x, y = ctx.split(z)
                assert duality_gap(a, x, y) <= 1e-10, (shape, seed, flips)
                np.testing.assert_allclose(x, sol.x, atol=1e-8)
                np.testing.assert_allclose(y, sol.y, atol=1e-8)
    assert returned > 0  # the check above ran


def test_polish_declines_far_from_a_solution() -> None:
    a = _game((40, 40), 0)
    ctx = fast._Drs(a, None)
    u = ctx.lift(np.concatenate([np.full(40, 1 / 40), np.full(40, 1 / 40)]))
    assert duality_gap(a, np.full(40, 1 / 40), np.full(40, 1 / 40)) > 1e-2
    assert fast._polish(ctx, u, 1e-10) is None


def test_balance_squares_by_the_least_certain_flip() -> None:
    # |S_x| = 3 > |S_y| = 1: drop x_2 (score 1e-6, closer to 0 than y's best outsider -1e-3),
    # then 2 > 1: add y_2 (|-1e-3| < x's smallest inside 0.2)
    ix, iy = fast._balance(np.array([0.3, 0.2, 1e-6]), np.array([0.5, -0.1, -1e-3]))
    assert ix.tolist() == [0, 1]
    assert iy.tolist() == [0, 2]


def test_support_equilibrium_solves_the_indifference_equations() -> None:
    a = np.array([[3.0, -1.0], [-2.0, 1.0]])  # x* = (3/7, 4/7), y* = (2/7, 5/7), v = 1/7
    solved = fast._support_equilibrium(a, np.arange(2), np.arange(2))
    assert solved is not None
    np.testing.assert_allclose(solved[0], [3 / 7, 4 / 7], atol=1e-15)
    np.testing.assert_allclose(solved[1], [2 / 7, 5 / 7], atol=1e-15)
    assert fast._support_equilibrium(np.ones((2, 2)), np.arange(2), np.arange(2)) is None


@pytest.mark.parametrize(("n", "seed"), [(80, 0), (160, 1), (160, 2)])
def test_support_polish_cuts_the_newton_phase(n: int, seed: int) -> None:
    """The rule's decision: with the polish, PSSN ends its Newton phase in fewer steps than the
    reference's loop from the same switch (measured 9/9/9 -> 1/1/2), at the same equilibrium."""
    a = _game((n, n), seed)
    sol = ref.solve_lp(a)
    runs = {}
    for polish in (False, True):
        cfg = fast.FastHybridConfig(tau_switch=2e-5, alternating=True, support_polish=polish)
        res = fast.hybrid(a, tol=1e-10, config=cfg)
        gap = duality_gap(a, res.x, res.y)
        assert gap <= 1e-10
        assert res.converged
        np.testing.assert_allclose(res.x, sol.x, atol=1e-7)
        np.testing.assert_allclose(res.y, sol.y, atol=1e-7)
        runs[polish] = res
    assert runs[True].first_order_iterations == runs[False].first_order_iterations
    assert runs[True].newton_iterations < runs[False].newton_iterations


def test_unpolished_fast_config_is_the_reference_loop() -> None:
    a = _game((30, 45), 3)
    cfg = fast.FastHybridConfig(tau_switch=1e-4, alternating=True, support_polish=False)
    got = fast.hybrid(a, tol=1e-10, config=cfg)
    want = ref.hybrid(a, tol=1e-10, config=HybridConfig(tau_switch=1e-4, alternating=True))
    assert (got.newton_iterations, got.first_order_iterations, got.safeguard_steps) == (
        want.newton_iterations,
        want.first_order_iterations,
        want.safeguard_steps,
    )
    np.testing.assert_allclose(got.residual_history, want.residual_history, atol=1e-10)


def test_fast_config_is_the_measured_rule() -> None:
    cfg = fast.FAST_HYBRID_CONFIG
    assert isinstance(cfg, fast.FastHybridConfig)
    assert (cfg.tau_switch, cfg.alternating, cfg.support_polish) == (2e-5, True, True)


def test_fast_hybrid_config_validates() -> None:
    with pytest.raises(TypeError, match=r"^support_polish"):
        fast.FastHybridConfig(support_polish=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^tau_switch"):
        fast.FastHybridConfig(tau_switch=-1.0)


HARD = {
    "1x7": np.random.default_rng(1).standard_normal((1, 7)),
    "7x1": np.random.default_rng(2).standard_normal((7, 1)),
    "saddle": np.array([[1.0, 2.0], [0.0, 3.0]]),
    "rock-paper-scissors": np.array([[0.0, 1.0, -1.0], [-1.0, 0.0, 1.0], [1.0, -1.0, 0.0]]),
    "near tie": np.array([[1.00001, 1.0]]),
    "duplicated rows": np.array([[2.0, -1.0, 0.0], [2.0, -1.0, 0.0], [-2, 1, 1]]),
    "all equal": np.ones((4, 5)),
    "scaled 1e3": 1e3 * np.random.default_rng(7).standard_normal((6, 9)),
    "60x90": _game((60, 90), 5),
}


@pytest.mark.parametrize("mode", ["PSSN", "HPSSN"])
@pytest.mark.parametrize("name", sorted(HARD))
def test_fast_config_is_honest_on_small_and_degenerate_games(name: str, mode: str) -> None:
    a = HARD[name]
    res = fast.hybrid(a, tol=1e-10, mode=mode, config=fast.FAST_HYBRID_CONFIG)
    gap = duality_gap(a, res.x, res.y)  # recomputed from the returned pair
    assert res.converged == (gap <= 1e-10)
    assert res.converged, (name, gap, res.stop_reason)
    assert gap <= 1e-10 * max(1.0, float(np.max(np.abs(a))))
