"""Spec 17 theorem checks hold on instances, fail for broken learners, and are tight where known."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, target
from hypothesis import strategies as st

from proofs_numeric import ProveProfile
from proofs_numeric import attention_queries as pa
from reference import attention_queries as aq


@settings(max_examples=15)
@given(d=st.integers(1, 8), seed=st.integers(0, 2**32 - 1))
def test_theorem_4_1_holds(d: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    check = pa.theorem_4_1(rng.standard_normal((d, d)), rng.standard_normal(d))
    target(check.ratio, label="error / budget")
    assert check.holds, check


def test_theorem_4_1_fails_for_a_wrong_learner() -> None:
    def transposed(oracle: aq.AttentionOracle) -> aq.AttentionRecovery:
        rec = aq.recover_exact(oracle)
        return aq.AttentionRecovery(W=np.array(rec.W).T, v=rec.v, queries=0, resamples=0)

    rng = np.random.default_rng(1)
    assert not pa.theorem_4_1(
        rng.standard_normal((3, 3)), rng.standard_normal(3), learner=transposed
    ).holds


def test_theorem_5_1_small_instance_and_undersampling() -> None:
    rng = np.random.default_rng(2)
    assert pa.theorem_5_1(12, 1, 8.0, rng).holds
    with pytest.warns(aq.RecoveryNotGuaranteedWarning):
        bad = pa.theorem_5_1(8, 1, 1.0, rng)  # m = r d: far below the threshold
    assert not bad.holds
    assert pa.rop_injective(5, rng).holds


def test_rop_sweep_check_logic() -> None:
    assert pa.rop_sweep_check({2.0: 0.0, 3.0: 0.1, 6.0: 1.0}).holds
    assert not pa.rop_sweep_check({2.0: 0.5, 6.0: 1.0}).holds
    assert not pa.rop_sweep_check({2.0: 0.0, 6.0: 0.5}).holds


@pytest.mark.slow
def test_rop_phase_transition_sweep() -> None:
    rng = np.random.default_rng(3)
    rates = pa.rop_success_sweep(20, 2, (2.0, 3.0, 4.0, 6.0, 8.0), 20, rng)
    assert pa.rop_sweep_check(rates).holds, rates


@settings(max_examples=10)
@given(
    seed=st.integers(0, 2**32 - 1),
    tau_exp=st.floats(1.0, 5.0),
    kind=st.sampled_from(["adversarial", "uniform"]),
)
def test_theorem_6_1_holds(seed: int, tau_exp: float, kind: str) -> None:
    rng = np.random.default_rng(seed)
    W, v = pa._noisy_instance(int(rng.integers(1, 8)), 3.0, 0.5, rng)
    check = pa.theorem_6_1(W, v, 10.0**-tau_exp, w_bound=3.0, mu=0.5, noise=kind, rng=rng)
    target(check.ratio, label="error / bound")
    assert check.holds, check


def test_theorem_6_1_is_tight_for_v_and_fails_without_clipping_scale() -> None:
    rng = np.random.default_rng(4)
    W, v = pa._noisy_instance(5, 3.0, 0.5, rng)
    check = pa.theorem_6_1(W, v, 1e-3, w_bound=3.0, mu=0.5)
    assert check.ratio == pytest.approx(1.0, rel=1e-9)  # adversarial noise attains sqrt(d) tau

    def sloppy(oracle: Any, tau: float, *, w_bound: float, mu: float) -> aq.AttentionRecovery:
        rec = aq.recover_noisy(oracle, tau, w_bound=w_bound, mu=mu)
        return aq.AttentionRecovery(W=np.array(rec.W) * 1.01, v=rec.v, queries=0, resamples=0)

    assert not pa.theorem_6_1(W, v, 1e-5, w_bound=3.0, mu=0.5, learner=sloppy).holds
    assert pa.noisy_rate(W, v, w_bound=3.0, mu=0.5).holds


def test_proposition_7_1_and_one_layer() -> None:
    rng = np.random.default_rng(5)
    assert pa.proposition_7_1(3, rng, samples=90).holds
    assert pa.one_layer_identity(3, 6, rng).holds


def test_drivers_registered_and_hold() -> None:
    from proofs_numeric._registry import _REGISTRY  # no import of the other families' modules

    assert set(_REGISTRY) >= {
        "attention_queries.theorem_4_1",
        "attention_queries.theorem_5_1",
        "attention_queries.theorem_6_1",
        "attention_queries.proposition_7_1",
        "attention_queries.one_layer",
    }
    for name in ("attention_queries.theorem_4_1", "attention_queries.theorem_6_1"):
        assert _REGISTRY[name].driver(ProveProfile.named("quick")).holds
