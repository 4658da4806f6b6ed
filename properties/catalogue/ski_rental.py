"""Catalogue of the ``ski_rental`` family: ``ALGORITHMS`` (rows of ``verifiedref list``),
``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite) and ``HARD_EXTRAS``
(hard instances and stopping rules that the ``hard_input`` suite adds to them)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase, HardExtra
from reference import ski_rental as sr
from reference._arrays import FloatArray

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "HARD_EXTRAS", "UNCOVERED"]


_P = "Cui & Dinitz, Ski rental with distributional predictions (ICML 2026)"


def _alg(name: str, fn: str, paper: str, suites: tuple[str, ...]) -> Algorithm:
    return Algorithm(
        name=name,
        function=f"reference.ski_rental:{fn}",
        family="ski_rental",
        paper=paper,
        suites=(*suites, "bad_input", "hard_input"),
    )


ALGORITHMS = (
    _alg(
        "main algorithm (Algorithm 1)",
        "main_algorithm",
        _P,
        ("ski_rental.main_algorithm", "ski_rental.policy"),
    ),
    _alg("base algorithm (delay only)", "base_algorithm", _P, ("ski_rental.policy",)),
    _alg("λ-robustified algorithm", "robust_algorithm", _P, ("ski_rental.robust_algorithm",)),
    _alg(
        "point-truth algorithm",
        "point_truth_algorithm",
        _P,
        ("ski_rental.point_truth", "ski_rental.policy"),
    ),
    _alg(
        "optimal threshold for a known distribution",
        "optimal_threshold",
        _P,
        ("ski_rental.optimal_threshold",),
    ),
    _alg("expected cost of a policy", "expected_cost", _P, ("ski_rental.expected_cost",)),
    _alg("OPT_p (best policy for the truth)", "opt_cost", _P, ("ski_rental.opt_cost",)),
    _alg("earth mover's distance W1", "emd", _P, ("ski_rental.emd",)),
    _alg(
        "B1 break-even",
        "break_even",
        "Karlin, Manasse, Rudolph, Sleator (1988)",
        ("ski_rental.classical",),
    ),
    _alg(
        "B2 randomized e/(e-1)",
        "randomized_classical",
        "Karlin, Manasse, McGeoch, Owicki (1994)",
        ("ski_rental.classical",),
    ),
    _alg(
        "B3 point-prediction rule",
        "point_prediction_rule",
        "Purohit, Svitkina, Kumar (NeurIPS 2018)",
        (),
    ),
    _alg(
        "B3 with distributional plug-in (median/mean/sample)",
        "prediction_plugin_rule",
        "Purohit et al. (2018) + Cui & Dinitz (ICML 2026) (our default)",
        (),
    ),
    _alg(
        "B4 robust point-prediction rule",
        "robust_point_rule",
        "Purohit, Svitkina, Kumar (NeurIPS 2018)",
        (),
    ),
    _alg("B5 follow-the-prediction", "follow_the_prediction", _P, ("ski_rental.policy",)),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.ski_rental:break_even": "baseline",
    "reference.ski_rental:randomized_classical": "baseline",
    "reference.ski_rental:point_prediction_rule": "baseline",
    "reference.ski_rental:prediction_plugin_rule": "baseline",
    "reference.ski_rental:robust_point_rule": "baseline",
    "reference.ski_rental:follow_the_prediction": "baseline",
    "reference.ski_rental:expected_cost": "utility",
}


# ----------------------------------------------------------------------------- bad input
Args = tuple[tuple[Any, ...], dict[str, Any]]


def _dist(rng: np.random.Generator) -> FloatArray:
    return rng.dirichlet(np.ones(int(rng.integers(2, 12))))


def _b(rng: np.random.Generator) -> float:
    return float(rng.integers(2, 30))


def _args_pb(rng: np.random.Generator) -> Args:
    return (_dist(rng), _b(rng)), {}


def _args_pq(rng: np.random.Generator) -> Args:
    return (_dist(rng), _dist(rng)), {}


def _args_cost(rng: np.random.Generator) -> Args:
    return (rng.dirichlet(np.ones(int(rng.integers(1, 8)))), _dist(rng), _b(rng)), {}


def _args_robust(rng: np.random.Generator) -> Args:
    return (_dist(rng), _b(rng), float(rng.uniform(0, 1))), {}


def _args_atoms(rng: np.random.Generator) -> Args:
    m = int(rng.integers(1, 5))
    days = np.sort(rng.choice(20, size=m, replace=False)).astype(np.float64)
    return (days, rng.dirichlet(np.ones(m))), {}


_BAD_B_POS = (1, (1.0, 0.5, 0.0, -2.0, math.nan, math.inf, "4", None))
_BAD_B_POS2 = (2, (1.0, 0.5, 0.0, -2.0, math.nan, math.inf, "4", None))


def _case(
    fn_name: str,
    make_args: Callable[[np.random.Generator], Args],
    arrays: tuple[int | str, ...],
    scalars: tuple[tuple[int | str, tuple[object, ...]], ...] = (),
) -> BadInputCase:
    return BadInputCase(
        name=f"reference.ski_rental:{fn_name}",
        fn=getattr(sr, fn_name),
        make_args=make_args,
        arrays=arrays,
        scalars=scalars,
    )


BAD_INPUT_CASES = (
    _case("emd", _args_pq, (0, 1)),
    _case("opt_cost", _args_pb, (0,), (_BAD_B_POS,)),
    _case("cost_curve", _args_pb, (0,), (_BAD_B_POS,)),
    _case("optimal_threshold", _args_pb, (0,), (_BAD_B_POS,)),
    _case("main_threshold", _args_pb, (0,), (_BAD_B_POS,)),
    _case("main_algorithm", _args_pb, (0,), (_BAD_B_POS,)),
    _case("base_algorithm", _args_pb, (0,), (_BAD_B_POS,)),
    _case("point_truth_algorithm", _args_pb, (0,), (_BAD_B_POS,)),
    _case("follow_the_prediction", _args_pb, (0,), (_BAD_B_POS,)),
    _case(
        "robust_algorithm",
        _args_robust,
        (0,),
        (_BAD_B_POS, (2, (-0.1, 1.5, math.nan, "x", None))),
    ),
    _case("expected_cost", _args_cost, (0, 1), (_BAD_B_POS2,)),
    _case(
        "threshold_cost",
        lambda rng: ((int(rng.integers(0, 10)), _dist(rng), _b(rng)), {}),
        (1,),
        ((0, (-1, 2.5, math.nan, "3", None)), _BAD_B_POS2),
    ),
    _case("from_atoms", _args_atoms, (0, 1)),
    _case(
        "prediction_plugin_rule",
        lambda rng: ((_dist(rng), _b(rng)), {"statistic": "median"}),
        (0,),
        (_BAD_B_POS, ("statistic", ("mode", None))),
    ),
    _case(
        "break_even",
        lambda rng: ((_b(rng),), {}),
        (),
        ((0, (1.0, 0.0, -1.0, math.nan, math.inf, "4", None)),),
    ),
    _case(
        "randomized_classical",
        lambda rng: ((_b(rng),), {}),
        (),
        ((0, (1.0, 2.5, 0.0, -1.0, math.nan, math.inf, "4", None)),),
    ),
    _case(
        "point_prediction_rule",
        lambda rng: ((float(rng.uniform(0, 40)), _b(rng)), {}),
        (),
        ((0, (-1.0, math.nan, math.inf, "3", None)), _BAD_B_POS),
    ),
    _case(
        "robust_point_rule",
        lambda rng: ((float(rng.uniform(0, 40)), _b(rng), float(rng.uniform(0.05, 0.95))), {}),
        (),
        ((0, (-1.0, math.nan, None)), _BAD_B_POS, (2, (0.0, 1.0, 1.5, math.nan, None))),
    ),
    _case(
        "point_mass",
        lambda rng: ((int(rng.integers(0, 10)),), {}),
        (),
        ((0, (-1, 2.5, math.nan, "3", None)),),
    ),
    _case(
        "sqrt_floor",
        lambda rng: ((_b(rng),), {}),
        (),
        ((0, (1.0, 0.0, -4.0, math.nan, math.inf, "9", None)),),
    ),
    _case(
        "pareto_hard_prediction",
        lambda rng: ((float(rng.integers(3, 20)),), {}),
        (),
        ((0, (2.0, 1.0, 0.0, math.nan, math.inf, "9", None)),),
    ),
)


# ----------------------------------------------------------------- hard-input rows
# Valid instances that are hard in a way a generic transform cannot make (smallest sizes,
# extreme scales, near-singular systems, the default caps), results documented to hold
# +-inf, and stopping rules that recompute the stopping quantity from the returned output
# with a routine of their own (never the result's fields).
HARD_EXTRAS: tuple[HardExtra, ...] = (
    # the threshold K = math.inf is the documented "never buy" policy A_∞.
    *(
        HardExtra(name=f"reference.ski_rental:{name}", inf_fields=("threshold",))
        for name in (
            "base_algorithm",
            "follow_the_prediction",
            "point_prediction_rule",
            "point_truth_algorithm",
            "prediction_plugin_rule",
        )
    ),
    HardExtra(name="reference.ski_rental:main_threshold", inf_fields=("k_hat",)),
    HardExtra(name="reference.ski_rental:optimal_threshold", inf_fields=("*",)),
)
