"""The attention_queries suites pass on the reference implementations."""

from __future__ import annotations

from typing import Any

import pytest

from properties import Capabilities, Suite, run_suite
from properties.attention_queries import LEARNER, MODEL, NOISY_LEARNER, NUCLEAR_NORM
from reference import attention_queries as aq

CAPS = Capabilities(raises_on_invalid=True)


@pytest.mark.parametrize(
    ("impl", "suite"),
    [
        (aq.attention_output, MODEL),
        (aq.recover_exact, LEARNER),
        (aq.recover_noisy, NOISY_LEARNER),
        (aq.nuclear_norm_admm, NUCLEAR_NORM),
    ],
    ids=["attention_output", "recover_exact", "recover_noisy", "nuclear_norm_admm"],
)
def test_reference_passes(impl: Any, suite: Suite[Any]) -> None:
    report = run_suite(impl, suite, capabilities=CAPS, profile="smoke")
    assert report.ok, report.format()
    assert report.counts() == {"passed": len(suite.checks)}


def test_gaussian_probes_also_pass() -> None:
    import numpy as np

    def gaussian(oracle: aq.AttentionOracle) -> aq.AttentionRecovery:
        return aq.recover_exact(oracle, rng=np.random.default_rng(0))

    report = run_suite(gaussian, LEARNER, profile="smoke", skip=["query_budget"])
    assert report.ok, report.format()
