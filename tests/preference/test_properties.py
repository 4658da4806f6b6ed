"""Preference suites on our references, and their teeth."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from properties import run_suite
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
    for link in (
        pf.btl_link(),
        pf.thurstone_link(0.7),
        pf.rao_kupper_link(2.0),
        pf.davidson_link(1.5),
    ):
        report = run_suite(link, CHOICE_LINK, profile="smoke")
        assert report.ok, report.format()


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
