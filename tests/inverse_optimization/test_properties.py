"""The inverse_optimization suites pass on the reference families and learners."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from properties import Capabilities, Suite, run_suite
from properties import inverse_optimization as props
from properties.catalogue import inverse_optimization as catalogue
from reference import inverse_optimization as io

CAPS = Capabilities(raises_on_invalid=True)

PAIRS: list[tuple[Callable[..., Any], Suite[Any]]] = [
    (io.random_family, props.FAMILY),
    (io.OnlineLearner, props.RECOMMENDER),
    (io.OnlineNewtonStep, props.RECOMMENDER),
    (io.OnlineGradientDescent, props.RECOMMENDER),
    (functools.partial(io.CuttingPlane, points_per_dim=1000), props.RECOMMENDER),
    (io.FirstElement, props.RECOMMENDER),
    (io.OnlineLearner, props.LEARNER),
    (functools.partial(io.OnlineLearner, point="topological"), props.LEARNER),
    (io.OnlineLearner, props.CENTROID_LEARNER),
    (io.RobustLearner, props.ROBUST_LEARNER),
]


@pytest.mark.parametrize(
    ("fn", "suite"), PAIRS, ids=[f"{s.name}::{i}" for i, (_, s) in enumerate(PAIRS)]
)
def test_reference_passes_suite(fn: Callable[..., Any], suite: Suite[Any]) -> None:
    report = run_suite(fn, suite, capabilities=CAPS, profile="smoke")
    assert report.ok, report.format()


def test_catalogue_and_bad_input_registration() -> None:
    functions = {a.function for a in catalogue.ALGORITHMS}
    cases = {c.name for c in catalogue.BAD_INPUT_CASES}
    for name in (
        "OnlineLearner",
        "RobustLearner",
        "OnlineNewtonStep",
        "OnlineGradientDescent",
        "CuttingPlane",
        "simulate",
        "uniform_matroid",
        "partition_matroid",
        "graphic_matroid",
    ):
        assert f"reference.inverse_optimization:{name}" in functions
    for name in (
        "simulate",
        "uniform_matroid",
        "partition_matroid",
        "graphic_matroid",
        "box_sum",
        "centroid",
    ):
        assert f"reference.inverse_optimization:{name}" in cases
