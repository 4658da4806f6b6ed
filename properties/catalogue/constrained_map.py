"""Catalogue of the ``constrained_map`` family: ``ALGORITHMS`` (rows of ``verifiedref list``),
``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite) and ``HARD_EXTRAS``
(hard instances and stopping rules that the ``hard_input`` suite adds to them)."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from properties._records import Algorithm, Args, BadInputCase, HardExtra, HardInstance
from reference import constrained_map as cm

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "HARD_EXTRAS", "UNCOVERED"]


_PAPER = "Kurscheidt et al., MAP over non-convex constraints (ICML 2026)"
_BAD = ("bad_input", "hard_input")
_SEC8 = _PAPER + ", §8 (paper via the reproduction)"
ALGORITHMS = (
    Algorithm(
        name="max-outPP: symbolic max over affine bounds ‡",
        function="reference.constrained_map:max_out",
        family="constrained_map",
        paper=_SEC8 + ", Thm A.5 / Prop. A.6",
        suites=("hard_input",),
    ),
    Algorithm(
        name="MpMap messages and their Thm A.8 size bound ‡",
        function="reference.constrained_map:mp_messages",
        family="constrained_map",
        paper=_SEC8 + ", Thm A.8",
        suites=("hard_input",),
    ),
    Algorithm(
        name="Example 2.2 region (density ours) ‡",
        function="reference.constrained_map:example_2_2",
        family="constrained_map",
        paper=_SEC8 + ", Example 2.2",
        suites=(),
    ),
    Algorithm(
        name="MpMap (exact message passing, Ω^PP pairwise factors) ‡",
        function="reference.constrained_map:mp_map",
        family="constrained_map",
        paper=_PAPER + ", §3.1",
        suites=("constrained_map.tree", *_BAD),
    ),
    Algorithm(
        name="PaMap (convex partition + local optimisation)",
        function="reference.constrained_map:pa_map",
        family="constrained_map",
        paper=_PAPER + ", §3.2",
        suites=("constrained_map.general", *_BAD),
    ),
    Algorithm(
        name="PaMap cell enumeration",
        function="reference.constrained_map:pa_cells",
        family="constrained_map",
        paper=_PAPER + ", §3.2 step 1",
        suites=_BAD,
    ),
    Algorithm(
        name="B1 constraint-agnostic MAP",
        function="reference.constrained_map:agnostic_map",
        family="constrained_map",
        paper=_PAPER + ", §3.3",
        suites=_BAD,
    ),
    Algorithm(
        name="B2 agnostic + repair",
        function="reference.constrained_map:agnostic_repair_map",
        family="constrained_map",
        paper=_PAPER + ", §3.3",
        suites=_BAD,
    ),
    Algorithm(
        name="B3 penalty",
        function="reference.constrained_map:penalty_map",
        family="constrained_map",
        paper=_PAPER + ", §3.3",
        suites=_BAD,
    ),
    Algorithm(
        name="B4 sample and filter",
        function="reference.constrained_map:sample_filter_map",
        family="constrained_map",
        paper=_PAPER + ", §3.3",
        suites=_BAD,
    ),
    Algorithm(
        name="O1 dense-grid oracle",
        function="reference.constrained_map:grid_map",
        family="constrained_map",
        paper=_PAPER + ", §4",
        suites=_BAD,
    ),
    Algorithm(
        name="formula builder",
        function="reference.constrained_map:make_formula",
        family="constrained_map",
        paper=_PAPER + ", §2",
        suites=_BAD,
    ),
    Algorithm(
        name="C1 random tree generator (optional pairwise factors) ‡",
        function="reference.constrained_map:random_tree_problem",
        family="constrained_map",
        paper=_PAPER + ", §4 C1",
        suites=_BAD,
    ),
    Algorithm(
        name="trajectory-with-obstacles generator",
        function="reference.constrained_map:trajectory_problem",
        family="constrained_map",
        paper=_PAPER + ", §6",
        suites=_BAD,
    ),
    Algorithm(
        name="3-SAT encoding generator",
        function="reference.constrained_map:random_3sat_problem",
        family="constrained_map",
        paper=_PAPER + ", §4 C5",
        suites=_BAD,
    ),
    Algorithm(
        name="problem builder",
        function="reference.constrained_map:make_problem",
        family="constrained_map",
        paper=_PAPER + ", §2",
        suites=_BAD,
    ),
    Algorithm(
        name="piecewise polynomial builder",
        function="reference.constrained_map:pp_from_pieces",
        family="constrained_map",
        paper=_PAPER + ", §3.1 (PP)",
        suites=_BAD,
    ),
    Algorithm(
        name="Gaussian mixture builder",
        function="reference.constrained_map:gaussian_mixture",
        family="constrained_map",
        paper=_PAPER + ", §2",
        suites=_BAD,
    ),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.constrained_map:random_3sat_problem": "generator",
    "reference.constrained_map:agnostic_repair_map": "baseline",
    "reference.constrained_map:penalty_map": "baseline",
    "reference.constrained_map:sample_filter_map": "baseline",
    "reference.constrained_map:random_tree_problem": "generator",
    "reference.constrained_map:gaussian_mixture": "generator",
    "reference.constrained_map:grid_map": "oracle",
    "reference.constrained_map:make_formula": "generator",
    "reference.constrained_map:pp_from_pieces": "generator",
    "reference.constrained_map:make_problem": "generator",
    "reference.constrained_map:trajectory_problem": "generator",
}


# ------------------------------------------------------------------------ bad-input cases
def _box_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    problem = cm.worked_example()
    lo = rng.uniform(-1.0, 0.0, 2)
    return (lo, lo + rng.uniform(0.5, 2.0, 2), problem.formula, problem.density), {}


def _pp_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    k = int(rng.integers(1, 4))
    breaks = np.sort(rng.uniform(0.0, 1.0, k + 1)) + np.arange(k + 1)
    return (breaks, [np.abs(rng.standard_normal(2)) + 0.1 for _ in range(k)]), {}


def _gm_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    k = int(rng.integers(1, 3))
    return (np.full(k, 1.0 / k), rng.standard_normal((k, 2)), np.stack([np.eye(2)] * k)), {}


def _problem_only(fn: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
    """Call ``fn(make_problem(lo, hi, formula, density), **kw)``: the arrays are checked on entry.

    A generator in ``kw`` is copied for each call, so that equal arguments give equal bits.
    """

    def call(lo: Any, hi: Any, formula: Any, density: Any) -> Any:
        fresh = {
            k: copy.deepcopy(v) if isinstance(v, np.random.Generator) else v for k, v in kw.items()
        }
        return fn(cm.make_problem(lo, hi, formula, density), **fresh)

    call.__name__ = getattr(fn, "__name__", "call")
    return call


def _gaussian_only(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` on ``make_problem(lo, hi, formula, N(centre, I))`` (samplers need a Gaussian)."""

    def call(lo: Any, hi: Any, formula: Any, density: Any) -> Any:
        problem = cm.make_problem(lo, hi, formula, density)
        gauss = cm.gaussian_mixture([1.0], [0.5 * (problem.lo + problem.hi)], [np.eye(2)])
        return fn(
            cm.make_problem(problem.lo, problem.hi, formula, gauss),
            rng=np.random.default_rng(0),
            samples=500,
        )

    return call


def _formula_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (2, [[(rng.standard_normal(2) + 3.0, float(rng.uniform()))]]), {}


def _tree_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (np.random.default_rng(int(rng.integers(2**32))),), {"n_vars": 2, "shape": "chain"}


def _trajectory_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (np.random.default_rng(int(rng.integers(2**32))),), {
        "steps": 2,
        "obstacles": 1,
        "kind": "pp",
        "smoothness": 1.0,
    }


def _sat_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (np.random.default_rng(int(rng.integers(2**32))),), {"n_bool": 3, "n_clauses": 2}


BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.constrained_map:make_problem",
        fn=cm.make_problem,
        make_args=_box_args,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.constrained_map:pp_from_pieces",
        fn=cm.pp_from_pieces,
        make_args=_pp_args,
        arrays=(0,),
    ),
    BadInputCase(
        name="reference.constrained_map:gaussian_mixture",
        fn=cm.gaussian_mixture,
        make_args=_gm_args,
        arrays=(0, 1, 2),
    ),
    BadInputCase(
        name="reference.constrained_map:mp_map",
        fn=_problem_only(cm.mp_map),
        make_args=_box_args,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.constrained_map:pa_map",
        fn=_problem_only(cm.pa_map, rng=np.random.default_rng(0)),
        make_args=_box_args,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.constrained_map:grid_map",
        fn=_problem_only(cm.grid_map, points=21),
        make_args=_box_args,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.constrained_map:pa_cells",
        fn=_problem_only(cm.pa_cells),
        make_args=_box_args,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.constrained_map:agnostic_map",
        fn=_problem_only(cm.agnostic_map, rng=np.random.default_rng(0), starts=2),
        make_args=_box_args,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.constrained_map:penalty_map",
        fn=_problem_only(cm.penalty_map, rng=np.random.default_rng(0), starts=2),
        make_args=_box_args,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.constrained_map:agnostic_repair_map",
        fn=_problem_only(cm.agnostic_repair_map, rng=np.random.default_rng(0), starts=2),
        make_args=_box_args,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.constrained_map:sample_filter_map",
        fn=_gaussian_only(cm.sample_filter_map),
        make_args=_box_args,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.constrained_map:make_formula",
        fn=cm.make_formula,
        make_args=_formula_args,
        arrays=(),
        scalars=((0, (0, -1, 1.5, "2")),),
    ),
    BadInputCase(
        name="reference.constrained_map:random_tree_problem",
        fn=cm.random_tree_problem,
        make_args=_tree_args,
        arrays=(),
        scalars=(("n_vars", (0, -1, 2.5)), ("shape", ("tree",))),
    ),
    BadInputCase(
        name="reference.constrained_map:trajectory_problem",
        fn=cm.trajectory_problem,
        make_args=_trajectory_args,
        arrays=(),
        scalars=(("steps", (0, -2, 1.5)), ("kind", ("lines",)), ("smoothness", (-1.0, math.nan))),
    ),
    BadInputCase(
        name="reference.constrained_map:random_3sat_problem",
        fn=cm.random_3sat_problem,
        make_args=_sat_args,
        arrays=(),
        scalars=(("n_bool", (2, 0)), ("n_clauses", (0, -3))),
    ),
)


# ----------------------------------------------------------------- hard-input rows
# Valid instances that are hard in a way a generic transform cannot make (smallest sizes,
# extreme scales, near-singular systems, the default caps), results documented to hold
# +-inf, and stopping rules that recompute the stopping quantity from the returned output
# with a routine of their own (never the result's fields).
def _mp_args(which: str) -> Callable[[np.random.Generator], Args]:
    def make(r: np.random.Generator) -> Args:
        import reference.constrained_map as cm

        return ((cm.worked_example() if which == "worked" else cm.example_2_2()),), {}

    return make


def _max_out_values(
    breaks: ArrayLike, coeffs: object, lower: object, upper: object, lo: float, hi: float
) -> object:
    """``max_out(pp_from_pieces(breaks, rows of coeffs), lower, upper, lo=lo, hi=hi)``: the
    resulting piecewise polynomial and its values on 33 points of ``[lo, hi]``."""
    import reference.constrained_map as cm

    rows = [np.asarray(c, dtype=np.float64) for c in np.asarray(coeffs, dtype=np.float64)]
    q = cm.pp_from_pieces(breaks, rows)
    low, up = (tuple(float(v) for v in np.asarray(b, dtype=np.float64)) for b in (lower, upper))
    out = cm.max_out(q, (low[0], low[1]), (up[0], up[1]), lo=lo, hi=hi)
    values = np.array([out(float(y)) for y in np.linspace(lo, hi, 33)])
    return out, values


def _max_out_args(
    breaks: list[float],
    coeffs: list[list[float]],
    lower: tuple[float, float] = (0.0, 0.0),
    upper: tuple[float, float] = (0.0, 1.0),
    span: tuple[float, float] = (0.0, 1.0),
) -> Callable[[np.random.Generator], Args]:
    def make(r: np.random.Generator) -> Args:
        arrays = (np.array(breaks), np.array(coeffs), np.array(lower), np.array(upper))
        return (*arrays, *span), {}

    return make


#: ``q = x² + 1`` on ``[0, 1]`` then ``2 - x`` on ``[1, 2]``; max over ``[0, y]``.
_MAX_OUT_BASE = ([0.0, 1.0, 2.0], [[1.0, 0.0, 1.0], [2.0, -1.0, 0.0]])

MAX_OUT_EXTRA = HardExtra(
    name="reference.constrained_map:max_out",
    fn=_max_out_values,
    make_args=_max_out_args(*_MAX_OUT_BASE, span=(0.0, 2.0)),
    arrays=(1,),
    instances=(
        HardInstance(label="one constant piece", make_args=_max_out_args([0.0, 1.0], [[0.5]])),
        HardInstance(
            label="coefficients of order 1e8",
            make_args=_max_out_args([0.0, 1.0], [[1e8, 0.0, 1e8]]),
        ),
        HardInstance(
            label="coefficients of order 1e-8",
            make_args=_max_out_args([0.0, 1.0], [[1e-8, -1e-8, 1e-8]]),
        ),
        HardInstance(
            label="pieces 1e-9 wide",
            make_args=_max_out_args([0.0, 1e-9, 1.0], [[1.0, 0.0], [0.0, 1.0]]),
        ),
        HardInstance(
            label="bounds that cross (empty interval on part of the range)",
            make_args=_max_out_args(*_MAX_OUT_BASE, (0.5, 1.0), (1.5, -1.0), (0.0, 2.0)),
        ),
        HardInstance(
            label="degenerate interval l(y) = u(y) = y",
            make_args=_max_out_args(*_MAX_OUT_BASE, (0.0, 1.0), (0.0, 1.0), (0.0, 2.0)),
        ),
        HardInstance(
            label="q = 0 (all-zero message)",
            make_args=_max_out_args([0.0, 1.0], [[0.0, 0.0]]),
        ),
    ),
)


#: constrained_map: ``log_value = log w(x)`` is ``-inf`` when infeasible or ``w(x) = 0``.
_MAP_SOLVERS = (
    "agnostic_map",
    "agnostic_repair_map",
    "grid_map",
    "mp_map",
    "pa_map",
    "penalty_map",
    "sample_filter_map",
)


def _obstacle_args(mean: tuple[float, float], gaps: tuple[float, ...]) -> Args:
    """``N(μ, I)`` on ``[-4, 4]²`` outside the box ``[μ - gaps[:2], μ + gaps[2:]]``."""
    import reference.constrained_map as cm

    mu = np.array(mean)
    lo, hi = mu - np.array(gaps[:2]), mu + np.array(gaps[2:])
    box = [
        ([1.0, 0.0], float(lo[0])),
        ([-1.0, 0.0], -float(hi[0])),
        ([0.0, 1.0], float(lo[1])),
        ([0.0, -1.0], -float(hi[1])),
    ]
    density = cm.gaussian_mixture([1.0], [mu], [np.eye(2)])
    return (np.full(2, -4.0), np.full(2, 4.0), cm.make_formula(2, [box]), density), {}


#: PA-MAP: a mean of order 1e-300 can overflow its cell bounds' QPs.
_PA_MAP_INSTANCES = (
    HardInstance(
        label="obstacle box around a mean of 1e-300",
        make_args=lambda r: _obstacle_args((0.0, 1e-300), (0.3, 0.7, 0.9, 0.4)),
    ),
    HardInstance(
        label="obstacle box around a subnormal mean, equal gaps (ties)",
        make_args=lambda r: _obstacle_args((1e-310, 0.0), (0.5, 0.5, 0.5, 0.5)),
    ),
)


HARD_EXTRAS: tuple[HardExtra, ...] = (
    HardExtra(
        name="reference.constrained_map:mp_messages",
        make_args=_mp_args("worked"),
        instances=(HardInstance(label="Example 2.2 of the paper", make_args=_mp_args("2.2")),),
    ),
    MAX_OUT_EXTRA,
    *(
        HardExtra(
            name=f"reference.constrained_map:{name}",
            inf_fields=("log_value",),
            instances=_PA_MAP_INSTANCES if name == "pa_map" else (),
        )
        for name in _MAP_SOLVERS
    ),
)
