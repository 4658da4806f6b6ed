"""Instances the hard-input suite found (issue 22), one per fix."""

from __future__ import annotations

import math
import time
import warnings

import numpy as np
import pytest

from reference.divergence import profiled_value
from reference.inverse_optimization import graphic_matroid


def test_profiled_value_overflow_is_minus_inf_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert profiled_value([0.0], [1e8], 0.5) == -math.inf
        assert profiled_value(1e8 * np.array([-0.1, 0.2]), 1e8 * np.array([0.3]), 0.3) == -math.inf
    # just below the overflow the value is finite and matches the closed form
    a, log_a, log_b = 0.5, 0.0, 0.5 * 1400.0
    expected = -(math.exp(a * log_a + (1 - a) * log_b) - 1.0) / (a * (1 - a))
    assert profiled_value([0.0], [1400.0], 0.5) == pytest.approx(expected, rel=1e-12)


def test_graphic_matroid_rejects_huge_node_labels_at_once() -> None:
    edges = [[0, 100_000_000], [100_000_000, 200_000_000], [0, 200_000_000], [2, 300_000_000]]
    start = time.perf_counter()
    with pytest.raises(ValueError, match="connected"):
        graphic_matroid(edges)
    assert time.perf_counter() - start < 1.0


def test_batched_torch_regret_results_carry_stop_reason() -> None:
    pytest.importorskip("torch")
    from reference.games import STOP_REASONS, rm_plus
    from reference.games.fast_torch import rm_plus as rm_plus_torch

    games = np.array([[[0.0, 1.0], [1.0, 0.0]], [[3.0, -1.0], [-2.0, 4.0]]])
    batched = rm_plus_torch(games, tol=1e-9, max_iter=40)
    assert set(batched.stop_reason) <= set(STOP_REASONS)
    for k, game in enumerate(games):
        single = rm_plus(game, tol=1e-9, max_iter=40)
        assert batched.stop_reason[k] == single.stop_reason
        assert batched.stop_reason[k] == ("tol" if bool(batched.converged[k]) else "max_iter")
