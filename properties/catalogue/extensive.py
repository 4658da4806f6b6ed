"""Catalogue of the ``extensive`` family: ``ALGORITHMS`` (rows of ``verifiedref list``),
``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite) and ``HARD_EXTRAS``
(hard instances and stopping rules that the ``hard_input`` suite adds to them)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase, HardExtra, HardInstance, StopRule
from properties.catalogue._hard_helpers import tol_of
from properties.extensive import random_plan, random_poker_game
from reference import extensive as efg

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "HARD_EXTRAS", "UNCOVERED"]


_SOURCE = "Abe et al., Asymmetric Perturbation (ICML 2026)"
ALGORITHMS = (
    Algorithm(
        name="CFR (regret matching per infoset, uniform average)",
        function="reference.extensive:cfr",
        family="extensive",
        paper="Zinkevich, Johanson, Bowling, Piccione (2007)",
        suites=("extensive.cfr", "hard_input"),
    ),
    Algorithm(
        name="CFR+ (alternating, regret matching+, linear average)",
        function="reference.extensive:cfr_plus",
        family="extensive",
        paper="Tammelin, Burch, Johanson, Bowling (2015)",
        suites=("extensive.cfr", "hard_input"),
    ),
    Algorithm(
        name="sequence-form LP (HiGHS)",
        function="reference.extensive:solve_lp",
        family="extensive",
        paper="Koller, Megiddo, von Stengel (1996)",
        suites=("extensive.solver", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="NashConv by tree best response",
        function="reference.extensive:nash_conv",
        family="extensive",
        paper=_SOURCE,
        suites=("extensive.nash_conv", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="dilated Euclidean prox",
        function="reference.extensive:dilated_prox",
        family="extensive",
        paper="Hoda et al. (2010); " + _SOURCE,
        suites=("extensive.prox", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="AsymP-DGDA",
        function="reference.extensive:asymp_dgda",
        family="extensive",
        paper=_SOURCE,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="SymP-DGDA (baseline)",
        function="reference.extensive:symp_dgda",
        family="extensive",
        paper=_SOURCE + ", baseline",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="DGDA (baseline)",
        function="reference.extensive:dgda",
        family="extensive",
        paper=_SOURCE + ", baseline",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="DOGDA (baseline)",
        function="reference.extensive:dogda",
        family="extensive",
        paper="Lee, Kroer, Luo (NeurIPS 2021)",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="DMWU / DOMWU (baseline)",
        function="reference.extensive:dmwu",
        family="extensive",
        paper="Lee, Kroer, Luo (NeurIPS 2021)",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="Kuhn poker",
        function="reference.extensive:kuhn_poker",
        family="extensive",
        paper="Kuhn (1950)",
        suites=(),
    ),
    Algorithm(
        name="Leduc poker",
        function="reference.extensive:leduc_poker",
        family="extensive",
        paper="Southey et al. (UAI 2005)",
        suites=(),
    ),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.extensive:cfr": "baseline",
    "reference.extensive:cfr_plus": "baseline",
    "reference.extensive:dgda": "baseline",
    "reference.extensive:dmwu": "baseline",
    "reference.extensive:dogda": "baseline",
    "reference.extensive:leduc_poker": "generator",
    "reference.extensive:nash_conv": "utility",
    "reference.extensive:symp_dgda": "baseline",
    "reference.extensive:dilated_prox": "inner",
}


# ------------------------------------------------------------------------------ bad input
Args = tuple[tuple[Any, ...], dict[str, Any]]


@functools.cache
def _small_game(index: int) -> efg.SequenceFormGame:
    return random_poker_game(np.random.default_rng(index), max_types=2)


def _pick(rng: np.random.Generator) -> efg.SequenceFormGame:
    return _small_game(int(rng.integers(8)))


def _game_args(rng: np.random.Generator) -> Args:
    return (_pick(rng),), {}


def _pair_args(rng: np.random.Generator) -> Args:
    game = _pick(rng)
    return (game, random_plan(game.x_space, rng), random_plan(game.y_space, rng)), {}


def _dyn_args(rng: np.random.Generator) -> Args:
    return (_pick(rng),), {"max_iter": 20}


def _pert_args(rng: np.random.Generator) -> Args:
    return (_pick(rng),), {"max_iter": 20, "mu": 0.1}


def _prox_args(rng: np.random.Generator) -> Args:
    space = _pick(rng).x_space
    anchor = efg.plan_to_behavioural(space, random_plan(space, rng))
    return (space, rng.normal(size=space.n_sequences), anchor), {"kappa": 0.5}


def _space_vec_args(rng: np.random.Generator) -> Args:
    space = _pick(rng).x_space
    return (space, random_plan(space, rng)), {}


def _space_two_args(rng: np.random.Generator) -> Args:
    space = _pick(rng).x_space
    return (space, random_plan(space, rng), random_plan(space, rng)), {}


def _behaviour_args(rng: np.random.Generator) -> Args:
    space = _pick(rng).x_space
    return (space, efg.plan_to_behavioural(space, random_plan(space, rng))), {}


def _br_args(rng: np.random.Generator) -> Args:
    space = _pick(rng).x_space
    return (space, rng.normal(size=space.n_sequences)), {"maximise": bool(rng.random() < 0.5)}


def _tree_args(rng: np.random.Generator) -> Args:
    return (efg.Terminal(payoff=float(rng.normal())),), {}


#: Malformed trees: not a node, NaN payoff, probabilities not summing to 1, player 2,
#: an information set whose nodes disagree on actions.
_BAD_TREES: tuple[object, ...] = (
    None,
    1.0,
    efg.Terminal(payoff=float("nan")),
    efg.Chance(outcomes=((0.5, efg.Terminal(payoff=1.0)),)),
    efg.Decision(player=2, infoset="i", actions=("a",), children=(efg.Terminal(payoff=0.0),)),
    efg.Chance(
        outcomes=(
            (
                0.5,
                efg.Decision(
                    player=0, infoset="i", actions=("a",), children=(efg.Terminal(payoff=0.0),)
                ),
            ),
            (
                0.5,
                efg.Decision(
                    player=0,
                    infoset="i",
                    actions=("a", "b"),
                    children=(efg.Terminal(payoff=0.0), efg.Terminal(payoff=1.0)),
                ),
            ),
        )
    ),
)


_GAME_BAD = (0, (None, "kuhn", 3.0, np.zeros((2, 2))))
_MU_BAD = ("mu", (0.0, -1.0, float("nan")))
_ETA_BAD = ("step_size", (0.0, -0.1, float("inf")))
_ITER_BAD = ("max_iter", (-1, 2.5))
_TOL_BAD = ("tol", (0.0, -1.0))
BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.extensive:solve_lp",
        fn=efg.solve_lp,
        make_args=_game_args,
        arrays=(),
        scalars=(_GAME_BAD,),
    ),
    BadInputCase(
        name="reference.extensive:nash_conv",
        fn=efg.nash_conv,
        make_args=_pair_args,
        arrays=(1, 2),
        scalars=(_GAME_BAD,),
    ),
    BadInputCase(
        name="reference.extensive:asymp_dgda",
        fn=efg.asymp_dgda,
        make_args=_pert_args,
        arrays=(),
        scalars=(_GAME_BAD, _MU_BAD, _ETA_BAD, _ITER_BAD, _TOL_BAD, ("variant", ("both", 1))),
    ),
    BadInputCase(
        name="reference.extensive:symp_dgda",
        fn=efg.symp_dgda,
        make_args=_pert_args,
        arrays=(),
        scalars=(_GAME_BAD, _MU_BAD, _ETA_BAD, _ITER_BAD, _TOL_BAD),
    ),
    BadInputCase(
        name="reference.extensive:dgda",
        fn=efg.dgda,
        make_args=_dyn_args,
        arrays=(),
        scalars=(_GAME_BAD, _ETA_BAD, _ITER_BAD, _TOL_BAD),
    ),
    BadInputCase(
        name="reference.extensive:dogda",
        fn=efg.dogda,
        make_args=_dyn_args,
        arrays=(),
        scalars=(_GAME_BAD, _ETA_BAD, _ITER_BAD, _TOL_BAD),
    ),
    BadInputCase(
        name="reference.extensive:dmwu",
        fn=efg.dmwu,
        make_args=_dyn_args,
        arrays=(),
        scalars=(_GAME_BAD, _ETA_BAD, _ITER_BAD, _TOL_BAD, ("optimistic", ("yes", 1))),
    ),
    BadInputCase(
        name="reference.extensive:dilated_prox",
        fn=efg.dilated_prox,
        make_args=_prox_args,
        arrays=(1, 2),
        scalars=((0, (None, 1.0)), ("kappa", (-1.0, float("nan")))),
    ),
    BadInputCase(
        name="reference.extensive:plan_violation",
        fn=efg.plan_violation,
        make_args=_space_vec_args,
        arrays=(1,),
        scalars=((0, (None, "space")),),
    ),
    BadInputCase(
        name="reference.extensive:plan_to_behavioural",
        fn=efg.plan_to_behavioural,
        make_args=_space_vec_args,
        arrays=(1,),
        scalars=((0, (None,)),),
    ),
    BadInputCase(
        name="reference.extensive:behavioural_to_plan",
        fn=efg.behavioural_to_plan,
        make_args=_behaviour_args,
        arrays=(1,),
        scalars=((0, (None,)),),
    ),
    BadInputCase(
        name="reference.extensive:dilated_regulariser",
        fn=efg.dilated_regulariser,
        make_args=_space_vec_args,
        arrays=(1,),
        scalars=((0, (None,)),),
    ),
    BadInputCase(
        name="reference.extensive:dilated_gradient",
        fn=efg.dilated_gradient,
        make_args=_behaviour_args,
        arrays=(1,),
        scalars=((0, (None,)),),
    ),
    BadInputCase(
        name="reference.extensive:bregman_divergence",
        fn=efg.bregman_divergence,
        make_args=_space_two_args,
        arrays=(1, 2),
        scalars=((0, (None,)),),
    ),
    BadInputCase(
        name="reference.extensive:best_response_value",
        fn=efg.best_response_value,
        make_args=_br_args,
        arrays=(1,),
        scalars=((0, (None,)), ("maximise", ("yes", 1))),
    ),
    BadInputCase(
        name="reference.extensive:uniform_behavioural",
        fn=efg.uniform_behavioural,
        make_args=lambda rng: ((_pick(rng).x_space,), {}),
        arrays=(),
        scalars=((0, (None, 1, "space")),),
    ),
    BadInputCase(
        name="reference.extensive:game_from_tree",
        fn=efg.game_from_tree,
        make_args=_tree_args,
        arrays=(),
        scalars=((0, _BAD_TREES),),
    ),
)


# ----------------------------------------------------------------- hard-input rows
# Valid instances that are hard in a way a generic transform cannot make (smallest sizes,
# extreme scales, near-singular systems, the default caps), results documented to hold
# +-inf, and stopping rules that recompute the stopping quantity from the returned output
# with a routine of their own (never the result's fields).
def _efg_rule(default_tol: float) -> StopRule:
    """``converged`` iff NashConv of the returned plans, by tree best response, is <= tol."""

    def rule(args: Args, result: object) -> tuple[bool, float, float] | None:
        from reference.extensive import nash_conv

        tol = tol_of(args, default_tol)
        if tol is None:
            return None
        value = nash_conv(args[0][0], getattr(result, "x"), getattr(result, "y"))  # noqa: B009
        return bool(getattr(result, "converged")), value, float(tol)  # noqa: B009

    return rule


def _efg_instances(perturbed: bool) -> tuple[HardInstance, ...]:
    from reference.extensive import kuhn_poker

    extra: dict[str, Any] = {"mu": 0.05} if perturbed else {}
    return (
        HardInstance(
            label="Kuhn poker, tol 1e-3, 2000 steps",
            make_args=lambda r: ((kuhn_poker(),), {"tol": 1e-3, "max_iter": 2000, **extra}),
        ),
        HardInstance(
            label="Kuhn poker, unreachable tol 1e-14, 300 steps",
            make_args=lambda r: ((kuhn_poker(),), {"tol": 1e-14, "max_iter": 300, **extra}),
        ),
    )


def _efg_extra(name: str, perturbed: bool) -> HardExtra:
    return HardExtra(
        name=name, instances=_efg_instances(perturbed), stop_rule=_efg_rule(1e-12), timeout=60.0
    )


def _cfr_extra(name: str) -> HardExtra:
    """CFR / CFR+ on the two poker trees: one iteration, and a long run at the default cap."""

    def kuhn(iterations: int) -> Callable[[np.random.Generator], Args]:
        from reference.extensive import kuhn_poker

        return lambda r: ((kuhn_poker(),), {"iterations": iterations})

    def leduc(iterations: int) -> Callable[[np.random.Generator], Args]:
        from reference.extensive import leduc_poker

        return lambda r: ((leduc_poker(),), {"iterations": iterations})

    return HardExtra(
        name=name,
        make_args=kuhn(50),
        instances=(
            HardInstance(label="Kuhn poker, a single iteration", make_args=kuhn(1)),
            HardInstance(label="Kuhn poker, the default 1000 iterations", make_args=kuhn(1000)),
            HardInstance(label="Leduc poker, 3 iterations", make_args=leduc(3)),
        ),
        timeout=60.0,
    )


HARD_EXTRAS: tuple[HardExtra, ...] = (
    _efg_extra("reference.extensive:dgda", False),
    _efg_extra("reference.extensive:dogda", False),
    _efg_extra("reference.extensive:dmwu", False),
    _efg_extra("reference.extensive:asymp_dgda", True),
    _efg_extra("reference.extensive:symp_dgda", True),
    _cfr_extra("reference.extensive:cfr"),
    _cfr_extra("reference.extensive:cfr_plus"),
)
