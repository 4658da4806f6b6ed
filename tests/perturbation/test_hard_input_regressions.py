"""Regression tests for issue 22, defect 2: ``parameter_free`` halving ``μ`` without bound.

On ``default_rng(2).uniform(-1, 1, (14, 17))`` NashConv stalls near ``1e-5`` once ``μ`` is below
the game's invariance threshold, the stall rule ends every round after ``2 · patience`` steps
and ``μ`` is halved again and again.  Before the fix (parent 09a3f13), with
``patience=20, check_every=10, max_iter=60_000`` it halved ``μ`` 1028 times, to ``1.45e-309``
(subnormal), and ``-Ay/μ`` in the perturbed gap overflowed (``RuntimeWarning: overflow``, an
error under this suite's warning filter; earlier versions of the projection raised
``IndexError`` there).  With the defaults it spent all 2 000 000 steps and left ``μ ~ 1e-240``.
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
    res = parameter_free(STALLING, max_iter=60_000, patience=20, check_every=10)
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


@pytest.mark.slow
def test_default_settings_stop_at_the_floor() -> None:
    """The issue's call, default ``max_iter``: finite output and an honest, early stop."""
    res = parameter_free(STALLING)
    assert np.all(np.isfinite(res.x))
    assert np.all(np.isfinite(res.y))
    assert res.converged == (_nash_conv(STALLING, res.x, res.y) <= 1e-9)
    assert res.stop_reason in ("tol", "mu_floor")
    assert res.iterations < 2_000_000
