"""The activations suites pass on the reference implementations."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from properties import Capabilities, Suite, run_suite
from properties.activations import COMPOSE, NEWMAN, RATIONAL, RATIONAL_B, SIGN_COMPOSITE
from reference import activations
from tests.activations.mutants import _compose_ref

CAPS = Capabilities(raises_on_invalid=True)


@pytest.mark.parametrize(
    ("impl", "suite"),
    [
        (activations.rational, RATIONAL),
        (functools.partial(activations.rational, version="B"), RATIONAL_B),
        (activations.newman_abs, NEWMAN),
        (activations.dwh_sign, SIGN_COMPOSITE),
        (activations.compose_rationals, COMPOSE),
        (_compose_ref, COMPOSE),
    ],
    ids=["rational", "rational_b", "newman", "dwh_sign", "compose_rationals", "compose_pairs"],
)
def test_reference_passes(impl: Any, suite: Suite[Any]) -> None:
    report = run_suite(impl, suite, capabilities=CAPS, profile="smoke")
    assert report.ok, report.format()
    assert report.counts() == {"passed": len(suite.checks)}
