"""Tests written for the mutants mutmut left alive in reference/optimizers (issue 17, point 8).

Expected values come from the documented contracts (argument domains and kinds; the sampled
Goldstein bound of a gradient field with a known range on the ball), never from the library's
output.  The triage of every survivor is in benchmarks/results/mutation_optimizers.md.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference import optimizers as opt
from reference.optimizers.fw import LionConfig, SFWVRConfig


def test_momentum_coefficient_must_be_a_real_number() -> None:
    """A string that float() would accept is still the wrong kind: TypeError naming b1."""
    with pytest.raises(TypeError, match="b1"):
        LionConfig(b1="0.9")  # type: ignore[arg-type]


def test_muon_rejects_higher_rank_blocks_without_flatten() -> None:
    muon = opt.muon(flatten=False)
    with pytest.raises(ValueError, match="params"):
        muon.init((np.zeros((2, 2, 2)),))


def test_muon_rejects_vectors_even_with_flatten() -> None:
    """``flatten`` reshapes rank > 2 only; a 1-D block is not a matrix."""
    muon = opt.muon(flatten=True)
    with pytest.raises(ValueError, match="params"):
        muon.init((np.zeros(3),))


def test_sfw_vr_accepts_one_newton_schulz_step() -> None:
    assert SFWVRConfig(ns_steps=1).ns_steps == 1


@pytest.mark.parametrize("matrix", [np.ones(3), np.ones((2, 2, 2))])
def test_polar_rejects_non_matrices(matrix: np.ndarray) -> None:
    with pytest.raises(ValueError, match="matrix"):
        opt.polar(matrix)


def test_goldstein_samples_stay_in_the_ball() -> None:
    """grad(y) = y at x with ||x|| = 1 and delta = 0.1: every sampled gradient lies in B(x, 0.1),
    so the min-norm point of their hull has norm in [0.9, 1] (1 = ||grad(x)||, x is sampled)."""
    x = np.array([0.6, 0.8])
    for seed in range(5):
        value = opt.goldstein_stationarity(
            lambda y: y, x, delta=0.1, rng=np.random.default_rng(seed), samples=256
        )
        assert 0.9 - 1e-9 <= value <= 1.0 + 1e-9


def test_lion_and_muon_vr_accept_eta_lambda_equal_to_one() -> None:
    """The constraint is ``eta * lambda <= 1``: the boundary itself is allowed."""
    assert opt.lion_vr(learning_rate=0.5, weight_decay=2.0) is not None
    assert opt.muon_vr(learning_rate=1.0, weight_decay=1.0) is not None


def test_linf_lmo_is_feasible_and_optimal_with_zero_entries() -> None:
    """``v`` in the l-inf ball of radius r attaining ``<d, v> = -r ||d||_1`` (the minimum),
    recomputed here; a zero entry of ``d`` must not push ``v`` out of the ball."""
    d = np.array([1.0, 0.0, -2.0, 0.0])
    v = opt.lmo(d, radius=2.0, which="linf")
    assert np.all(np.isfinite(v))
    assert float(np.max(np.abs(v))) <= 2.0
    assert float(d @ v) == pytest.approx(-2.0 * float(np.sum(np.abs(d))))
