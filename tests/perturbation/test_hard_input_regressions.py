"""Regression tests for issue 22, defect 2: ``parameter_free`` halving ``μ`` without bound.

On ``default_rng(2).uniform(-1, 1, (14, 17))`` NashConv stalls near ``1e-5`` once ``μ`` is below
the game's invariance threshold, the stall rule ends every round after ``2 · patience`` steps
and ``μ`` is halved again and again.  Before the fix (parent 09a3f13), with
``patience=20, check_every=10, max_iter=60_000`` it halved ``μ`` 1028 times, to ``1.45e-309``
(subnormal), and ``-Ay/μ`` in the perturbed gap overflowed (``RuntimeWarning: overflow``, an
error under this suite's warning filter; earlier versions of the projection raised
``IndexError`` there).  With the defaults it spent all 2 000 000 steps and left ``μ ~ 1e-240``.

Session 5: the stall was the stall rule's own doing.  Its fixed window (``patience`` steps)
read a round whose linear rate ``≈ e^{-ημ t}`` is merely slow as stalled once ``ημ`` is small,
so ``μ`` was halved again and again.  The window is now at least ``4/(ημ)`` steps
(``reference.perturbation._stall_window``) and this game converges: NashConv ``<= 1e-9`` in
39 180 steps with the defaults, 34 130 with ``patience=20``.  The floor is still reached
where rounds are cut short by ``max_inner``, which the first test now uses.

Session 10: the stall rule is not in Algorithm 1, so it became an option, off by default
(``patience=0``).  Without it the issue's game takes the same 39 180 steps (the rule never
fired there), and the two slow-round games converge too (198 600 steps instead of 187 240 on
the first); the tests that are about the rule pass ``patience`` explicitly.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference._arrays import FloatArray
from reference.perturbation import MU_FLOOR, parameter_free

STALLING = np.random.default_rng(2).uniform(-1.0, 1.0, (14, 17))


def _nash_conv(a: FloatArray, x: FloatArray, y: FloatArray) -> float:
    """NashConv recomputed here, not read from the result."""
    return float(np.max(x @ a) - np.min(a @ y))


def test_mu_is_never_halved_below_the_floor() -> None:
    # rounds of 20 steps: μ is halved every 20 steps, down to the floor
    res = parameter_free(STALLING, max_iter=60_000, patience=20, check_every=10, max_inner=20)
    assert np.all(np.isfinite(res.x))
    assert np.all(np.isfinite(res.y))
    value = _nash_conv(STALLING, res.x, res.y)
    assert res.converged == (value <= 1e-9)
    assert not res.converged
    assert res.stop_reason == "mu_floor"
    norm = float(np.linalg.norm(STALLING, 2))
    assert res.mu >= MU_FLOOR * norm
    assert res.halvings <= 53  # μ_init = ||A||_2, floor 2^-52 ||A||_2
    assert res.iterations < 60_000  # stopped by the floor, not by the cap


def test_mu_init_below_the_floor_is_rejected() -> None:
    with pytest.raises(ValueError, match="mu_init"):
        parameter_free(STALLING, mu_init=1e-300)


def test_convergent_instance_reports_tol() -> None:
    brps = [[0.0, -1.0, 3.0], [1.0, 0.0, -1.0], [-3.0, 1.0, 0.0]]
    res = parameter_free(brps, tol=1e-10)
    assert res.converged
    assert res.stop_reason == "tol"
    assert _nash_conv(np.asarray(brps), res.x, res.y) <= 1e-10


def test_the_issues_game_converges_with_the_defaults() -> None:
    """The issue's call (defaults): it converges, with NashConv recomputed here."""
    res = parameter_free(STALLING)
    assert res.converged
    assert res.stop_reason == "tol"
    assert _nash_conv(STALLING, res.x, res.y) <= 1e-9
    assert res.iterations < 60_000  # measured 39 180


#: Two 5 x 6 games of a thorough run of `games.solver` (issue 22, session 5): with the fixed
#: stall window μ fell to the floor and the run stopped unconverged at NashConv 4.7e-4 and
#: 1.7e-3 (tol 1e-6 of the scale; the suite allows 10x that).
_SLOW_ROUNDS = [
    np.array(
        [
            [1.4584648562961693, -0.3333333333333333, 0.0, 0.0, 0.0, 9.34659074482109],
            [9.34659074482109, 9.34659074482109, 9.34659074482109, 9.34659074482109,
             9.34659074482109, 0.0],
            [4.292098009313003, 9.34659074482109, 9.34659074482109, 9.34659074482109,
             9.34659074482109, 7.807341773557791],
            [9.34659074482109, 0.0, 0.0, 9.34659074482109, 9.34659074482109, 0.01],
            [9.34659074482109, 9.34659074482109, 9.34659074482109, 0.0, 9.34659074482109,
             9.34659074482109],
        ]
    ),
    np.array(  # duplicated rows
        [[-4.582248922114333, -2.5873317302887564, 4.615697721696053, -4.547637705218065,
          -1.8071974607123007, 4.084749604227822]] * 3
        + [[-2.5204156676635847, 2.8815954690398797, 0.852822547817242, 2.2939275800780576,
            0.5042537579729593, 0.9758241614409648]]
        + [[-4.582248922114333, -2.5873317302887564, 4.615697721696053, -4.547637705218065,
            -1.8071974607123007, 4.084749604227822]]
    ),
]  # fmt: skip


def test_slow_rounds_are_not_read_as_stalls() -> None:
    """The stall rule (an option since it became off by default) with its former default window."""
    for game in _SLOW_ROUNDS:
        scale = max(1.0, float(np.abs(game).max()))
        res = parameter_free(game, tol=1e-6 * scale, max_iter=400_000, patience=2000)
        assert res.stop_reason == "tol"
        assert _nash_conv(game, res.x, res.y) <= 1e-6 * scale
