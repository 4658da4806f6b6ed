"""Issue 31: :data:`FAST_HYBRID_CONFIG` switches to Newton earlier on small games.

No timing here (a test never judges speed); the speed figures are in
``benchmarks/results/size_sweep_games.md``.  The tests check the rule (which ``tau_switch`` is in
force at which size), that it is applied (the run equals one with that ``tau_switch`` given
explicitly), and that small games still reach the tolerance, the gap recomputed from the pair.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from reference.games import duality_gap, fast


def test_the_small_game_rule() -> None:
    cfg = fast.FAST_HYBRID_CONFIG
    assert (cfg.small_tau_switch, cfg.small_size) == (1e-3, 400)
    assert cfg.switch_for((400, 3)) == 1e-3
    assert cfg.switch_for((401, 401)) == cfg.tau_switch == 2e-5
    plain = fast.FastHybridConfig(tau_switch=1e-4)
    assert plain.switch_for((10, 10)) == 1e-4  # no small-game switch unless asked for


def test_the_new_fields_validate() -> None:
    with pytest.raises(ValueError, match=r"^small_tau_switch"):
        fast.FastHybridConfig(small_tau_switch=0.0)
    with pytest.raises(ValueError, match=r"^small_size"):
        fast.FastHybridConfig(small_size=0)


@pytest.mark.parametrize(("shape", "seed"), [((100, 100), 0), ((60, 90), 1), ((120, 40), 2)])
def test_small_games_run_with_the_small_switch_and_converge(
    shape: tuple[int, int], seed: int
) -> None:
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1.0, 1.0, shape) if seed % 2 == 0 else rng.standard_normal(shape)
    got = fast.hybrid(a, tol=1e-10, config=fast.FAST_HYBRID_CONFIG)
    explicit = dataclasses.replace(fast.FAST_HYBRID_CONFIG, tau_switch=1e-3, small_tau_switch=None)
    want = fast.hybrid(a, tol=1e-10, config=explicit)
    assert (got.first_order_iterations, got.newton_iterations) == (
        want.first_order_iterations,
        want.newton_iterations,
    )
    gap = duality_gap(a, got.x, got.y)  # recomputed from the returned pair
    assert got.converged
    assert gap <= 1e-10


def test_a_game_above_small_size_keeps_the_measured_switch() -> None:
    a = np.random.default_rng(3).uniform(-1.0, 1.0, (60, 90))
    cfg = dataclasses.replace(fast.FAST_HYBRID_CONFIG, small_size=50)  # 60 x 90 is "large" here
    got = fast.hybrid(a, tol=1e-10, config=cfg)
    plain = dataclasses.replace(cfg, small_tau_switch=None)
    want = fast.hybrid(a, tol=1e-10, config=plain)
    assert got.first_order_iterations == want.first_order_iterations
    assert duality_gap(a, got.x, got.y) <= 1e-10
