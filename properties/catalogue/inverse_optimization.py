"""Catalogue of the ``inverse_optimization`` family: ``ALGORITHMS`` (rows of ``verifiedref list``)
and ``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase
from properties.inverse_optimization import _generic_w
from reference import inverse_optimization as io

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "UNCOVERED"]


_PAPER = "Oki & Sakaue, inverse linear optimization over M-convex sets (ICML 2026)"


def _alg(name: str, fn: str, paper: str, suites: tuple[str, ...]) -> Algorithm:
    return Algorithm(
        name=name,
        function=f"reference.inverse_optimization:{fn}",
        family="inverse_optimization",
        paper=paper,
        suites=(*suites, "bad_input", "hard_input"),
    )


ALGORITHMS = (
    _alg(
        "Algorithm 1 (exact centroid / topological point; Gibbs Variant) ‡",
        "OnlineLearner",
        _PAPER,
        (
            "inverse_optimization.recommender",
            "inverse_optimization.learner",
            "inverse_optimization.centroid_learner",
        ),
    ),
    _alg(
        "Algorithm 2 (restart on cycles; exact centroid) ‡",
        "RobustLearner",
        _PAPER,
        (
            "inverse_optimization.recommender",
            "inverse_optimization.robust_learner",
            "inverse_optimization.centroid_learner",
        ),
    ),
    _alg(
        "ONS baseline (A-norm projection)",
        "OnlineNewtonStep",
        "Sakaue, Bennouna, ... (NeurIPS 2025) notebook",
        ("inverse_optimization.recommender",),
    ),
    _alg(
        "OGD baseline",
        "OnlineGradientDescent",
        "Bärmann, Pokutta, Schneider (ICML 2017)",
        ("inverse_optimization.recommender",),
    ),
    _alg(
        "cutting-plane baseline",
        "CuttingPlane",
        "after Gollapudi et al. (2021), Sakaue et al. notebook",
        ("inverse_optimization.recommender",),
    ),
    _alg(
        "first-element sanity baseline",
        "FirstElement",
        "sanity",
        ("inverse_optimization.recommender",),
    ),
    _alg("random M-convex families", "random_family", _PAPER, ("inverse_optimization.family",)),
    _alg("exact centroid of P(A) (subset DP, d <= 16) ‡", "centroid", _PAPER, ()),
    Algorithm(
        name="Theorem 6.1 instance (lifted segments) ‡",
        function="reference.inverse_optimization:theorem_6_1_instance",
        family="inverse_optimization",
        paper=_PAPER + ", §8 (paper's construction via the reproduction)",
        suites=(),
    ),
    _alg("linear extension count L(A)", "linear_extension_count", _PAPER, ()),
    _alg("topological point", "topological_point", _PAPER, ()),
    _alg("regret simulation", "simulate", _PAPER, ()),
    _alg("uniform matroid bases", "uniform_matroid", _PAPER, ()),
    _alg("partition matroid bases", "partition_matroid", _PAPER, ()),
    _alg("graphic matroid (spanning trees)", "graphic_matroid", _PAPER, ()),
    _alg("box with sum", "box_sum", _PAPER, ()),
    _alg("M-convexity validator", "is_m_convex", _PAPER, ()),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.inverse_optimization:is_m_convex": "utility",
    "reference.inverse_optimization:OnlineGradientDescent": "baseline",
    "reference.inverse_optimization:box_sum": "generator",
    "reference.inverse_optimization:CuttingPlane": "baseline",
    "reference.inverse_optimization:centroid": "oracle",
    "reference.inverse_optimization:FirstElement": "baseline",
    "reference.inverse_optimization:graphic_matroid": "generator",
    "reference.inverse_optimization:linear_extension_count": "utility",
    "reference.inverse_optimization:partition_matroid": "generator",
    "reference.inverse_optimization:simulate": "utility",
    "reference.inverse_optimization:uniform_matroid": "generator",
}


# ----------------------------------------------------------------------------- bad input
Args = tuple[tuple[Any, ...], dict[str, Any]]


def _case(
    fn_name: str,
    make_args: Callable[[np.random.Generator], Args],
    arrays: tuple[int | str, ...],
    scalars: tuple[tuple[int | str, tuple[object, ...]], ...] = (),
) -> BadInputCase:
    return BadInputCase(
        name=f"reference.inverse_optimization:{fn_name}",
        fn=getattr(io, fn_name),
        make_args=make_args,
        arrays=arrays,
        scalars=scalars,
    )


def _closure_args(rng: np.random.Generator) -> Args:
    d = int(rng.integers(2, 6))
    return (np.triu(rng.random((d, d)) < 0.4, 1).astype(np.float64),), {}


def _simulate_args(rng: np.random.Generator) -> Args:
    d = int(rng.integers(2, 5))
    fams = [io.random_family(d, rng=rng) for _ in range(4)]
    return (io.OnlineLearner(dim=d), fams, _generic_w(rng, d)), {}


_BAD_D = (1, 0, -3, 2.5, math.nan, "4", None)
BAD_INPUT_CASES = (
    _case("centroid", _closure_args, (0,)),
    _case("topological_point", _closure_args, (0,)),
    _case("linear_extension_count", _closure_args, (0,)),
    _case("simulate", _simulate_args, (2,), ((1, ([], None, 3)),)),
    _case(
        "box_sum",
        lambda rng: ((np.zeros(3), np.full(3, 2.0), int(rng.integers(0, 7))), {}),
        (0, 1),
        ((2, (-1, 7, 2.5, None)),),
    ),
    _case(
        "graphic_matroid",
        lambda rng: ((np.array([[0, 1], [1, 2], [0, 2], [2, 3]], dtype=np.float64),), {}),
        (0,),
    ),
    _case(
        "is_m_convex",
        lambda rng: ((np.eye(int(rng.integers(2, 5))),), {}),
        (0,),
    ),
    _case(
        "uniform_matroid",
        lambda rng: ((5, int(rng.integers(1, 5))), {}),
        (),
        ((0, (0, -1, 2.5, "5", None)), (1, (0, 6, 2.5, None))),
    ),
    _case(
        "partition_matroid",
        lambda rng: ((4, [[0, 1], [2, 3]], [1, 2]), {}),
        (),
        ((1, ([], [[0, 1], [1, 2]], [[0, 9]], None)), (2, ([0, 1], [3, 1], [1], None))),
    ),
    _case(
        "two_point_set",
        lambda rng: ((4, 0, int(rng.integers(1, 4))), {}),
        (),
        ((0, (1, 0, 2.5, None)), (2, (0, 4, -1, None))),
    ),
    _case("mistake_bound", lambda rng: ((int(rng.integers(1, 20)),), {}), (), ((0, _BAD_D[1:]),)),
    _case(
        "random_family",
        lambda rng: ((int(rng.integers(2, 6)),), {"rng": rng}),
        (),
        ((0, _BAD_D), ("kind", ("matroid", 3))),
    ),
)
