"""Catalogue of the ``games`` family: ``ALGORITHMS`` (rows of ``verifiedref list``),
``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite) and ``HARD_EXTRAS``
(hard instances and stopping rules that the ``hard_input`` suite adds to them)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from properties._records import Algorithm, Args, BadInputCase, HardExtra, HardInstance
from properties.catalogue._hard_helpers import gap_stop_rule, shapes_game, uniform_game
from reference import games
from reference._arrays import FloatArray
from reference.games import fast as games_fast

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "HARD_EXTRAS", "UNCOVERED"]


_SPEC01 = "Yang, Gao, Lin, Kroer, arXiv:2512.12910"
_FARINA = "Farina, Kroer, Sandholm, AAAI 2021 (Yang, Gao, Lin, Kroer, arXiv:2512.12910 Alg. 3)"
ALGORITHMS = (
    Algorithm(
        name="LP oracle (HiGHS, two LPs)",
        function="reference.games:solve_lp",
        family="games",
        paper="von Neumann (1928); Dantzig (1951)",
        suites=("games.solver", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="duality gap / NashConv",
        function="reference.games:duality_gap",
        family="games",
        paper="standard",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="RM+ (regret matching plus)",
        function="reference.games:rm_plus",
        family="games",
        paper="Tammelin (2014); " + _FARINA,
        suites=("games.solver", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="RM+ trajectory (simultaneous)",
        function="reference.games:rm_plus_trajectory",
        family="games",
        paper="Tammelin (2014); " + _FARINA,
        suites=("games.regret", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="PRM+ (predictive RM+; last / uniform / linear / quadratic average)",
        function="reference.games:prm_plus",
        family="games",
        paper=_FARINA,
        suites=("games.solver", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="PRM+ trajectory (simultaneous)",
        function="reference.games:prm_plus_trajectory",
        family="games",
        paper=_FARINA,
        suites=("games.regret", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="simplex projection (Algorithm P) and HS-Jacobian",
        function="reference.games:project_simplex",
        family="games",
        paper="Held-Wolfe-Crowder (1974); Condat (2016); Yang, Gao, Lin, Kroer (arXiv:2512.12910)",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="DRS residual R(u) of the lifted game",
        function="reference.games:drs_residual",
        family="games",
        paper=_SPEC01 + ", Section 3.3 (reconstruction)",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="plain Douglas-Rachford splitting",
        function="reference.games:drs",
        family="games",
        paper=_SPEC01 + ", Algorithm 1 of the spec",
        suites=("games.solver", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="regularised semi-smooth Newton on the DRS residual",
        function="reference.games:ssn",
        family="games",
        paper=_SPEC01 + ", Theorem 4 [paper]; Algorithm 2 of the spec (reconstruction)",
        suites=("games.solver", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="hybrid PRM+ -> SSN (PSSN / HPSSN)",
        function="reference.games:hybrid",
        family="games",
        paper=_SPEC01 + ", Algorithm 1 [paper]; switching rules (reconstruction)",
        suites=("games.solver", "bad_input", "hard_input"),
    ),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.games:duality_gap": "utility",
    "reference.games:project_simplex": "inner",
}


def _payoff_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    m, n = (int(v) for v in rng.integers(1, 5, size=2))
    return (rng.uniform(-3.0, 3.0, size=(m, n)),), {}


def _gap_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    m, n = (int(v) for v in rng.integers(1, 5, size=2))
    return (
        rng.uniform(-3.0, 3.0, size=(m, n)),
        rng.dirichlet(np.ones(m)),
        rng.dirichlet(np.ones(n)),
    ), {}


def _vector_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (rng.normal(size=int(rng.integers(1, 6))),), {}


def _lifted_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    m, n = (int(v) for v in rng.integers(1, 4, size=2))
    return (rng.uniform(-3.0, 3.0, size=(m, n)), rng.normal(size=m + n)), {"step_size": 0.3}


def _recover_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    args, _ = _lifted_args(rng)
    return args, {}


def _direction_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    args, kwargs = _lifted_args(rng)
    return (*args, 0.1), kwargs


def _lift_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    args, _ = _gap_args(rng)
    return args, {"step_size": 0.3}


def _solver_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    (payoff,), _ = _payoff_args(rng)
    return (payoff,), {"tol": 1e-6, "max_iter": 30}


def _trajectory_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    (payoff,), _ = _payoff_args(rng)
    return (payoff,), {"iterations": 5}


_BAD_TOL: tuple[object, ...] = (0.0, -1.0, math.nan, math.inf, "1e-6")
_BAD_ITER: tuple[object, ...] = (0, -3, 2.5, None)
_SOLVER_SCALARS: tuple[tuple[str, tuple[object, ...]], ...] = (
    ("tol", _BAD_TOL),
    ("max_iter", _BAD_ITER),
)


def _case(
    name: str,
    fn: Any,
    make_args: Any,
    arrays: tuple[int | str, ...],
    scalars: tuple[tuple[int | str, tuple[object, ...]], ...] = (),
) -> BadInputCase:
    return BadInputCase(
        name=f"reference.games:{name}", fn=fn, make_args=make_args, arrays=arrays, scalars=scalars
    )


BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.games:solve_lp", fn=games.solve_lp, make_args=_payoff_args, arrays=(0,)
    ),
    BadInputCase(
        name="reference.games:duality_gap",
        fn=games.duality_gap,
        make_args=_gap_args,
        arrays=(0, 1, 2),
    ),
    BadInputCase(
        name="reference.games:best_response_values",
        fn=games.best_response_values,
        make_args=_gap_args,
        arrays=(0, 1, 2),
    ),
    _case("project_simplex", games.project_simplex, _vector_args, (0,)),
    _case("simplex_threshold", games.simplex_threshold, _vector_args, (0,)),
    _case("simplex_jacobian", games.simplex_jacobian, _vector_args, (0,)),
    _case("default_step_size", games.default_step_size, _payoff_args, (0,)),
    _case(
        "drs_residual",
        games.drs_residual,
        _lifted_args,
        (0, 1),
        (("step_size", (0.0, -1.0, math.nan)),),
    ),
    _case(
        "drs_residual_g",
        games.drs_residual_g,
        _lifted_args,
        (0, 1),
        (("step_size", (0.0, -1.0, math.inf)),),
    ),
    _case(
        "drs_operator",
        games.drs_operator,
        _lifted_args,
        (0, 1),
        (("step_size", (0.0, -2.0, math.nan)),),
    ),
    _case(
        "residual_jacobian",
        games.residual_jacobian,
        _lifted_args,
        (0, 1),
        (("step_size", (0.0, -1.0, math.nan)),),
    ),
    _case(
        "newton_direction",
        games.newton_direction,
        _direction_args,
        (0, 1),
        ((2, (0.0, -1.0, math.nan)), ("step_size", (0.0, -1.0))),
    ),
    _case("lift", games.lift, _lift_args, (0, 1, 2), (("step_size", (0.0, -1.0, math.nan)),)),
    _case("recover", games.recover, _recover_args, (0, 1)),
    _case(
        "rm_plus",
        games.rm_plus,
        _solver_args,
        (0,),
        (*_SOLVER_SCALARS, ("averaging", ("median", 3))),
    ),
    _case(
        "prm_plus",
        games.prm_plus,
        _solver_args,
        (0,),
        (*_SOLVER_SCALARS, ("averaging", ("mean", None))),
    ),
    _case("drs", games.drs, _solver_args, (0,), _SOLVER_SCALARS),
    _case("ssn", games.ssn, _solver_args, (0,), _SOLVER_SCALARS),
    _case(
        "hybrid", games.hybrid, _solver_args, (0,), (*_SOLVER_SCALARS, ("mode", ("SSN", "pssn", 1)))
    ),
    # the numpy fast path validates like the reference, plus its linear_solver keyword
    *(
        BadInputCase(
            name=f"reference.games.fast:{name}",
            fn=fn,
            make_args=_solver_args,
            arrays=(0,),
            scalars=(*_SOLVER_SCALARS, ("linear_solver", ("lu", 1))),
        )
        for name, fn in (("ssn", games_fast.ssn), ("hybrid", games_fast.hybrid))
    ),
    BadInputCase(
        name="reference.games.fast:newton_direction",
        fn=games_fast.newton_direction,
        make_args=_direction_args,
        arrays=(0, 1),
        scalars=(
            (2, (0.0, -1.0, math.nan)),
            ("step_size", (0.0, -1.0)),
            ("linear_solver", ("lu",)),
        ),
    ),
    BadInputCase(
        name="reference.games.fast:drs",
        fn=games_fast.drs,
        make_args=_solver_args,
        arrays=(0,),
        scalars=_SOLVER_SCALARS,
    ),
    _case(
        "regret_trajectory",
        games.regret_trajectory,
        _trajectory_args,
        (0,),
        (("iterations", _BAD_ITER),),
    ),
    _case(
        "rm_plus_trajectory",
        games.rm_plus_trajectory,
        _trajectory_args,
        (0,),
        (("iterations", _BAD_ITER),),
    ),
    _case(
        "prm_plus_trajectory",
        games.prm_plus_trajectory,
        _trajectory_args,
        (0,),
        (("iterations", _BAD_ITER),),
    ),
)


# ----------------------------------------------------------------- hard-input rows
# Valid instances that are hard in a way a generic transform cannot make (smallest sizes,
# extreme scales, near-singular systems, the default caps), results documented to hold
# +-inf, and stopping rules that recompute the stopping quantity from the returned output
# with a routine of their own (never the result's fields).
def _game_instances(tol: float, cap: int | None) -> tuple[HardInstance, ...]:
    """Hard matrix games for a solver called as ``fn(A, tol=tol[, max_iter=cap])``."""

    def call(a: FloatArray, t: float = tol) -> Args:
        kwargs: dict[str, Any] = {"tol": t}
        if cap is not None:
            kwargs["max_iter"] = cap
        return (a,), kwargs

    return (
        HardInstance(
            label="smallest sizes and aspect ratios", make_args=lambda r: call(shapes_game(r))
        ),
        HardInstance(
            label="20 x 20 entries of order 1e6, tol 1e-9",
            make_args=lambda r: call(uniform_game(r, 20, 20, 1e6), 1e-9),
        ),
        HardInstance(
            label="2 x 2 [[5, 4], [0, 1e-9]] (singular Newton system)",
            make_args=lambda r: call(np.array([[5.0, 4.0], [0.0, 1e-9]])),
        ),
        HardInstance(
            label="entries of order 1e-8", make_args=lambda r: call(uniform_game(r, 5, 6, 1e-8))
        ),
        HardInstance(
            label="integer entries in {-1, 0, 1} (exact ties)",
            make_args=lambda r: call(r.integers(-1, 2, size=(6, 5)).astype(np.float64)),
        ),
        HardInstance(
            label="rank one A = u vᵀ",
            make_args=lambda r: call(np.outer(r.normal(size=6), r.normal(size=4))),
        ),
        HardInstance(
            label="near-degenerate 6 x 6 (rows equal up to 1e-12)",
            make_args=lambda r: call(
                np.repeat(uniform_game(r, 2, 6), 3, axis=0) + 1e-12 * r.normal(size=(6, 6))
            ),
        ),
    )


def _solver_extra(name: str, tol: float, cap: int | None, timeout: float = 60.0) -> HardExtra:
    return HardExtra(
        name=name,
        instances=_game_instances(tol, cap),
        stop_rule=gap_stop_rule(tol),
        timeout=timeout,
    )


HARD_EXTRAS: tuple[HardExtra, ...] = (
    _solver_extra("reference.games:rm_plus", 1e-6, 20_000),
    _solver_extra("reference.games:prm_plus", 1e-6, 20_000),
    _solver_extra("reference.games:drs", 1e-10, None),
    _solver_extra("reference.games:ssn", 1e-10, None),
    _solver_extra("reference.games:hybrid", 1e-10, None),
)
