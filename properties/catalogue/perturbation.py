"""Catalogue of the ``perturbation`` family: ``ALGORITHMS`` (rows of ``verifiedref list``),
``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite) and ``HARD_EXTRAS``
(hard instances and stopping rules that the ``hard_input`` suite adds to them)."""

from __future__ import annotations

from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase, HardExtra, HardInstance
from properties.catalogue._hard_helpers import (
    gap_stop_rule,
    shapes_game,
    uniform_game,
)
from reference import perturbation as pert
from reference._arrays import FloatArray

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "HARD_EXTRAS", "UNCOVERED"]


_SOURCE = "Abe et al., Asymmetric Perturbation (ICML 2026)"
ALGORITHMS = (
    Algorithm(
        name="AsymP-GDA (x and mirrored y run) †",
        function="reference.perturbation:asymp_gda",
        family="perturbation",
        paper=_SOURCE,
        suites=("perturbation.asymp_gda", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="AsymP-GDA, one side †",
        function="reference.perturbation:asymp_gda_side",
        family="perturbation",
        paper=_SOURCE,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="parameter-free AsymP-GDA (Algorithm 1)",
        function="reference.perturbation:parameter_free",
        family="perturbation",
        paper=_SOURCE,
        suites=("games.solver", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="SymP-GDA (baseline) †",
        function="reference.perturbation:symp_gda",
        family="perturbation",
        paper=_SOURCE + ", baseline",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="alternating GDA (baseline) †",
        function="reference.perturbation:gda",
        family="perturbation",
        paper=_SOURCE + ", baseline",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="OGDA (baseline) †",
        function="reference.perturbation:ogda",
        family="perturbation",
        paper="Wei et al. (ICLR 2021); baseline of Abe et al. (ICML 2026)",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="OMWU (baseline)",
        function="reference.perturbation:omwu",
        family="perturbation",
        paper="Daskalakis & Panageas (2019); baseline of Abe et al. (ICML 2026)",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="NashConv (matrix games)",
        function="reference.perturbation:nash_conv",
        family="perturbation",
        paper=_SOURCE,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="perturbed duality gap",
        function="reference.perturbation:perturbed_gap",
        family="perturbation",
        paper=_SOURCE,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="Frank-Wolfe-type gaps (official early stop) †",
        function="reference.perturbation:frank_wolfe_gap",
        family="perturbation",
        paper=_SOURCE + "; official code",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="Dirichlet(1) random starts (official runner) †",
        function="reference.perturbation:dirichlet_starts",
        family="perturbation",
        paper=_SOURCE + "; official code",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="perturbed minimiser x^μ (QP oracle)",
        function="reference.perturbation:perturbed_minimiser",
        family="perturbation",
        paper=_SOURCE,
        suites=("bad_input", "hard_input"),
    ),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.perturbation:dirichlet_starts": "generator",
    "reference.perturbation:frank_wolfe_gap": "utility",
    "reference.perturbation:nash_conv": "utility",
    "reference.perturbation:ogda": "baseline",
    "reference.perturbation:omwu": "baseline",
    "reference.perturbation:symp_gda": "baseline",
    "reference.perturbation:gda": "baseline",
}


# ------------------------------------------------------------------------------ bad input
Args = tuple[tuple[Any, ...], dict[str, Any]]


def _game(rng: np.random.Generator) -> FloatArray:
    m, n = (int(v) for v in rng.integers(1, 5, size=2))
    return rng.uniform(-3.0, 3.0, size=(m, n))


def _payoff_mu(rng: np.random.Generator) -> Args:
    return (_game(rng),), {"mu": float(rng.uniform(0.1, 2.0)), "max_iter": 50}


def _payoff_mu_side(rng: np.random.Generator) -> Args:
    a = _game(rng)
    m, n = a.shape
    return (a,), {
        "mu": float(rng.uniform(0.1, 2.0)),
        "max_iter": 50,
        "x0": rng.dirichlet(np.ones(m)),
        "y0": rng.dirichlet(np.ones(n)),
    }


def _payoff_only(rng: np.random.Generator) -> Args:
    a = _game(rng)
    m, n = a.shape
    return (a,), {"max_iter": 50, "x0": rng.dirichlet(np.ones(m)), "y0": rng.dirichlet(np.ones(n))}


def _symp(rng: np.random.Generator) -> Args:
    args, kwargs = _payoff_only(rng)
    kwargs["mu"] = float(rng.uniform(0.1, 2.0))
    return args, kwargs


def _pf(rng: np.random.Generator) -> Args:
    return (_game(rng),), {"tol": 1e-3, "max_iter": 2000}


def _triple(rng: np.random.Generator) -> Args:
    a = _game(rng)
    m, n = a.shape
    return (a, rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(n))), {}


def _triple_mu(rng: np.random.Generator) -> Args:
    args, _ = _triple(rng)
    return args, {"mu": float(rng.uniform(0.1, 2.0))}


def _triple_fw(rng: np.random.Generator) -> Args:
    args, _ = _triple(rng)
    return args, {"mu_x": float(rng.uniform(0.0, 2.0)), "mu_y": 0.0}


def _starts(rng: np.random.Generator) -> Args:
    m, n = (int(v) for v in rng.integers(1, 5, size=2))
    return ((m, n),), {"trials": 3, "rng": np.random.default_rng(int(rng.integers(1 << 30)))}


def _qp(rng: np.random.Generator) -> Args:
    return (_game(rng),), {"mu": float(rng.uniform(0.1, 2.0))}


_MU_BAD = ("mu", (0.0, -1.0, float("nan"), float("inf"), "1"))
_ETA_BAD = ("step_size", (0.0, -0.1, float("nan")))
_ITER_BAD = ("max_iter", (-1, 1.5, "10"))
_TOL_BAD = ("tol", (0.0, -1e-3, float("nan")))
BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.perturbation:asymp_gda",
        fn=pert.asymp_gda,
        make_args=_payoff_mu,
        arrays=(0,),
        scalars=(
            _MU_BAD,
            _ETA_BAD,
            _ITER_BAD,
            _TOL_BAD,
            ("variant", ("x_first", 1)),
            ("stop", ("nash", 0)),
        ),
    ),
    BadInputCase(
        name="reference.perturbation:asymp_gda_side",
        fn=pert.asymp_gda_side,
        make_args=_payoff_mu_side,
        arrays=(0,),
        scalars=(
            _MU_BAD,
            _ETA_BAD,
            _ITER_BAD,
            _TOL_BAD,
            ("side", ("z", 1)),
            ("variant", ("x_first", 1)),
            ("stop", ("nash", 0)),
        ),
    ),
    BadInputCase(
        name="reference.perturbation:parameter_free",
        fn=pert.parameter_free,
        make_args=_pf,
        arrays=(0,),
        scalars=(
            _TOL_BAD,
            _ITER_BAD,
            ("mu_init", (0.0, -2.0, float("inf"))),
            ("max_inner", (0, -5)),
            ("check_every", (0,)),
            ("patience", (-1,)),
        ),
    ),
    BadInputCase(
        name="reference.perturbation:symp_gda",
        fn=pert.symp_gda,
        make_args=_symp,
        arrays=(0,),
        scalars=(_MU_BAD, _ETA_BAD, _ITER_BAD, _TOL_BAD, ("stop", ("nash", 0))),
    ),
    BadInputCase(
        name="reference.perturbation:gda",
        fn=pert.gda,
        make_args=_payoff_only,
        arrays=(0,),
        scalars=(_ETA_BAD, _ITER_BAD, _TOL_BAD),
    ),
    BadInputCase(
        name="reference.perturbation:ogda",
        fn=pert.ogda,
        make_args=_payoff_only,
        arrays=(0,),
        scalars=(_ETA_BAD, _ITER_BAD, _TOL_BAD, ("variant", ("optimistic", 2))),
    ),
    BadInputCase(
        name="reference.perturbation:omwu",
        fn=pert.omwu,
        make_args=_payoff_only,
        arrays=(0,),
        scalars=(_ETA_BAD, _ITER_BAD, _TOL_BAD),
    ),
    BadInputCase(
        name="reference.perturbation:nash_conv",
        fn=pert.nash_conv,
        make_args=_triple,
        arrays=(0, 1, 2),
    ),
    BadInputCase(
        name="reference.perturbation:perturbed_gap",
        fn=pert.perturbed_gap,
        make_args=_triple_mu,
        arrays=(0, 1, 2),
        scalars=(_MU_BAD,),
    ),
    BadInputCase(
        name="reference.perturbation:frank_wolfe_gap",
        fn=pert.frank_wolfe_gap,
        make_args=_triple_fw,
        arrays=(0, 1, 2),
        scalars=(("mu_x", (-1.0, float("nan"), "1")), ("mu_y", (-0.5, float("inf")))),
    ),
    BadInputCase(
        name="reference.perturbation:dirichlet_starts",
        fn=pert.dirichlet_starts,
        make_args=_starts,
        arrays=(),
        scalars=(("trials", (0, -1, 1.5, "3")), ("rng", (None, 3))),
    ),
    BadInputCase(
        name="reference.perturbation:perturbed_minimiser",
        fn=pert.perturbed_minimiser,
        make_args=_qp,
        arrays=(0,),
        scalars=(_MU_BAD,),
    ),
    BadInputCase(
        name="reference.perturbation:default_step_size",
        fn=pert.default_step_size,
        make_args=_qp,
        arrays=(0,),
        scalars=(("mu", (-1.0, float("nan"))),),
    ),
)


# ----------------------------------------------------------------- hard-input rows
# Valid instances that are hard in a way a generic transform cannot make (smallest sizes,
# extreme scales, near-singular systems, the default caps), results documented to hold
# +-inf, and stopping rules that recompute the stopping quantity from the returned output
# with a routine of their own (never the result's fields).
def _pf_instances() -> tuple[HardInstance, ...]:
    return (
        HardInstance(
            label="14 x 17 uniform [-1, 1], default caps",
            make_args=lambda r: ((uniform_game(r, 14, 17),), {"tol": 1e-6}),
        ),
        HardInstance(
            label="smallest sizes and aspect ratios",
            make_args=lambda r: ((shapes_game(r),), {"tol": 1e-6, "max_iter": 20_000}),
        ),
        HardInstance(
            label="entries of order 1e6",
            make_args=lambda r: ((uniform_game(r, 4, 5, 1e6),), {"tol": 1e-3, "max_iter": 20_000}),
        ),
    )


def _gda_instances() -> tuple[HardInstance, ...]:
    return (
        HardInstance(
            label="smallest sizes and aspect ratios",
            make_args=lambda r: ((shapes_game(r),), {"tol": 1e-6, "max_iter": 2000}),
        ),
        HardInstance(
            label="entries of order 1e8",
            make_args=lambda r: ((uniform_game(r, 4, 3, 1e8),), {"tol": 1e-2, "max_iter": 2000}),
        ),
        HardInstance(
            label="entries of order 1e-8",
            make_args=lambda r: ((uniform_game(r, 4, 3, 1e-8),), {"tol": 1e-12, "max_iter": 2000}),
        ),
    )


HARD_EXTRAS: tuple[HardExtra, ...] = (
    HardExtra(
        name="reference.perturbation:parameter_free",
        instances=_pf_instances(),
        stop_rule=gap_stop_rule(1e-9),
        timeout=120.0,
    ),
    *(
        HardExtra(
            name=f"reference.perturbation:{name}",
            instances=_gda_instances(),
            stop_rule=gap_stop_rule(1e-12),  # NashConv of the returned pair
        )
        for name in ("gda", "ogda", "omwu")
    ),
)
