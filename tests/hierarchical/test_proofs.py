"""Spec 11 checks (ours): hold on instances and can fail when their hypotheses are violated."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_numeric import ProveProfile
from proofs_numeric import hierarchical as ph
from reference.hierarchical import LayerwiseConfig
from reference.hierarchical import train_flat as reference_train_flat


def test_gates_generators_parity() -> None:
    assert ph.gate_exactness().holds
    assert ph.generator_consistency(np.random.default_rng(0), d=8).holds


@settings(max_examples=10)
@given(k=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_parity_orthogonality_exact(k: int, seed: int) -> None:
    check = ph.parity_orthogonality(k, np.random.default_rng(seed), functions=2)
    assert check.holds
    assert check.measured == 0.0


def test_layerwise_holds_and_fails_when_starved() -> None:
    rng = np.random.default_rng(1)
    assert ph.layerwise_learns(8, 2000, rng, config=LayerwiseConfig(width=32), n_test=1000).holds
    # hypothesis violated: one epoch on 64 samples cannot learn a 3-level tree
    starved = ph.layerwise_learns(
        8, 64, rng, config=LayerwiseConfig(width=8, epochs=1), n_test=1000
    )
    assert not starved.holds


def test_flat_baseline_fails_on_parity_but_learns_a_shallow_target() -> None:
    rng = np.random.default_rng(2)
    assert ph.flat_fails(16, 3000, rng, epochs=5).holds
    # the same learner succeeds on a 2-bit parity: the check is not vacuous
    assert not ph.flat_fails(2, 2000, rng, epochs=10).holds


def test_drivers_registered() -> None:
    from proofs_numeric._registry import _REGISTRY  # no import of the other families' modules

    names = {k for k, e in _REGISTRY.items() if e.family == "hierarchical"}
    assert names >= {"hierarchical.gates", "hierarchical.parity", "hierarchical.layerwise"}
    assert _REGISTRY["hierarchical.gates"].driver(ProveProfile.named("quick")).holds


def test_flat_baseline_control_catches_a_trainer_that_learns_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # issue 17: H5 ("flat stays at chance") passed for any broken trainer; its positive control
    # (the first-level XOR labels must be learned) fails for a trainer that does not train
    rng = np.random.default_rng(3)
    ok = ph.flat_learns_first_level(16, 3000, rng, epochs=10)
    assert ok.holds
    real = reference_train_flat

    def no_training(
        x: Any, y: Any, *, rng: np.random.Generator, epochs: int = 20, **kw: Any
    ) -> Any:
        return real(x, y, rng=rng, epochs=0, **kw)

    monkeypatch.setattr(ph, "train_flat", no_training)
    rng = np.random.default_rng(3)
    assert ph.flat_fails(16, 3000, rng, epochs=10).holds  # H5 alone cannot tell
    wrong = ph.flat_learns_first_level(16, 3000, rng, epochs=10)
    assert not wrong.holds
    assert wrong.measured < 0.7


def test_random_circuit_structure_holds_with_margin() -> None:
    # issue 36: every documented G2 parameter away from its default; the largest label bias
    # stays below max_bias plus its sampling allowance
    check = ph.random_circuit_structure(np.random.default_rng(3))
    assert check.holds, check.params
    excess = check.params["largest |mean| - allowance"]
    assert isinstance(excess, float)
    assert excess < 0.0
