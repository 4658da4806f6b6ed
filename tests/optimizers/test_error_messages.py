"""Errors name the argument they are about (the house contract: only documented
ValueError/TypeError escape, naming the argument).

These assertions also kill the "message-only" mutmut survivors of the optimizers family
(benchmarks/results/mutation_optimizers.md): mutants that keep raising but name another
argument, upper-case the text or describe the wrong type.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference.optimizers.base import as_blocks
from reference.optimizers.fw import SFWConfig, dual_norm
from reference.optimizers.sadam import SAdamConfig, goldstein_stationarity, prox_sgd


def test_as_blocks_names_the_argument_and_the_empty_type() -> None:
    with pytest.raises(ValueError, match=r"^w: expected at least one block, got an empty list"):
        as_blocks("w", [])
    with pytest.raises(ValueError, match=r"got an empty tuple"):
        as_blocks("w", ())


def test_sfw_config_names_radius() -> None:
    with pytest.raises(ValueError, match=r"^radius:"):
        SFWConfig(radius=-1.0)


def test_s_adam_config_names_weight_decay() -> None:
    with pytest.raises(ValueError, match=r"^weight_decay:"):
        SAdamConfig(weight_decay=-0.1)


def test_dual_norm_names_d() -> None:
    with pytest.raises(ValueError, match=r"^d:"):
        dual_norm(np.array([1.0, math.nan]), "linf")


def test_goldstein_stationarity_names_x() -> None:
    with pytest.raises(ValueError, match=r"^x:"):
        goldstein_stationarity(
            lambda p: p, np.ones((2, 2)), delta=0.1, rng=np.random.default_rng(0)
        )


def test_prox_sgd_names_missing_params_in_lower_case() -> None:
    optimizer = prox_sgd()
    state = optimizer.init(np.ones(3))
    with pytest.raises(ValueError, match=r"^params: expected the current parameters, got None$"):
        optimizer.update(np.ones(3), state, None)
