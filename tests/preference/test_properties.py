"""Preference suites on our references, and their teeth."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from properties import Capabilities, run_suite
from properties.preference import (
    CHOICE_LINK,
    DPO_LOSS,
    PROPER_LOSS,
    reference_dpo,
    reference_log_loss,
)
from reference import preference as pf
from tests.preference import mutants as mut


def test_references_pass() -> None:
    assert run_suite(reference_dpo, DPO_LOSS, profile="smoke").ok
    for loss in (pf.LOG_LOSS, pf.BRIER_LOSS, pf.MATSUSHITA_LOSS):
        report = run_suite(
            lambda q, loss=loss: (loss.ell1(q), loss.ell0(q)), PROPER_LOSS, profile="smoke"
        )
        assert report.ok, report.format()
    assert run_suite(reference_log_loss, PROPER_LOSS, profile="smoke").ok
    for link, caps in (
        (pf.btl_link(), Capabilities()),
        # steep: its float64 value stops rising near z = 7.9 (thurstone_link's docstring)
        (pf.thurstone_link(0.7), Capabilities(domain="central")),
        (pf.rao_kupper_link(2.0), Capabilities()),
        (pf.davidson_link(1.5), Capabilities()),
    ):
        report = run_suite(link, CHOICE_LINK, capabilities=caps, profile="smoke")
        assert report.ok, report.format()


def test_thurstone_float64_rounding_floor() -> None:
    """Found under ``thorough`` (issue 22, point 4): with s = 0.7 the check ``increasing`` on
    [-8, 8] failed at z = 7.984375 and 8.0, where the float64 values are equal.  That is the
    correct rounding, not a defect: the exact tails ``1 - Φ(x)`` (from ``math.erfc``) differ by
    less than the float spacing 2**-53 just below 1.  In domain ``central`` (|z| <= 4) the
    values rise."""
    link = pf.thurstone_link(0.7)
    z = np.array([7.984375, 8.0])
    values = link(z)
    assert values[0] == values[1] < 1.0
    tails = [0.5 * math.erfc(v / (0.7 * math.sqrt(2.0)) / math.sqrt(2.0)) for v in z]
    assert 0.0 < tails[0] - tails[1] < 2.0**-53
    inner = link(np.linspace(-4.0, 4.0, 8001))
    assert float(np.min(np.diff(inner))) > 0.0


@pytest.mark.parametrize(
    ("mutant", "suite", "must_fail"),
    [
        (mut.dpo_swapped, DPO_LOSS, {"exactness", "monotone"}),
        (mut.dpo_naive_sigmoid, DPO_LOSS, {"no_overflow"}),
        (mut.dpo_no_beta, DPO_LOSS, {"exactness", "beta_scaling"}),
        (mut.dpo_sum, DPO_LOSS, {"exactness"}),
        (mut.loss_cubic, PROPER_LOSS, {"properness"}),
        (mut.loss_swapped, PROPER_LOSS, {"properness", "link_increasing"}),
        (mut.loss_lopsided, PROPER_LOSS, {"properness"}),
        (mut.link_home_advantage, CHOICE_LINK, {"range_and_abstention"}),
        (mut.link_decreasing, CHOICE_LINK, {"increasing"}),
        (mut.link_saturating, CHOICE_LINK, {"increasing"}),
    ],
    ids=lambda v: getattr(v, "__name__", None) or getattr(v, "name", None) or "set",
)
def test_mutants_fail(mutant: Callable[..., Any], suite: Any, must_fail: set[str]) -> None:
    report = run_suite(mutant, suite, profile="smoke")
    failed = {r.name for r in report.failed}
    assert must_fail <= failed, report.format()
    for result in report.failed:
        assert "measured" in result.message or "raised" in result.message
