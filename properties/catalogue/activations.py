"""Catalogue of the ``activations`` family: ``ALGORITHMS`` (rows of ``verifiedref list``)
and ``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase
from reference import activations

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "UNCOVERED"]


def _alg(name: str, fn: str, paper: str, suites: tuple[str, ...]) -> Algorithm:
    return Algorithm(name=name, function=fn, family="activations", paper=paper, suites=suites)


_S16 = "Tang & Townsend (ICML 2026)"
ALGORITHMS = (
    _alg(
        "safe rational activation (version A (5,4) default; B, C variants)",
        "reference.activations:rational",
        _S16,
        ("activations.rational", "activations.rational_b", "bad_input", "hard_input"),
    ),
    _alg(
        "experiment inits (leaky_relu, gelu, swish, relu; (5,4) A)",
        "reference.activations:rational_init",
        _S16,
        ("bad_input", "hard_input"),
    ),
    _alg(
        "safe rational gradients (R1)",
        "reference.activations:rational_grad",
        _S16,
        ("bad_input", "hard_input"),
    ),
    _alg(
        "true rational P/Q",
        "reference.activations:true_rational",
        _S16,
        ("bad_input", "hard_input"),
    ),
    _alg(
        "(3,2) ReLU init (2020 predecessor)",
        "reference.activations:relu_init",
        "Boullé et al. (2020)",
        (),
    ),
    _alg(
        "fit-to-target init",
        "reference.activations:fit_rational",
        _S16,
        ("bad_input", "hard_input"),
    ),
    _alg(
        "rational composition",
        "reference.activations:compose_rationals",
        _S16,
        ("activations.compose", "bad_input", "hard_input"),
    ),
    _alg(
        "Newman's approximant of |x|",
        "reference.activations:newman_abs",
        "Newman (1964)",
        ("activations.newman", "bad_input", "hard_input"),
    ),
    _alg(
        "Halley sign composite",
        "reference.activations:halley_sign",
        "classical",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "|x| by Halley composite",
        "reference.activations:halley_abs",
        "classical",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "DWH / Zolotarev sign composite",
        "reference.activations:dwh_sign",
        "Nakatsukasa, Bai, Gygi (2010)",
        ("activations.sign_composite", "bad_input", "hard_input"),
    ),
    _alg(
        "|x| by DWH composite",
        "reference.activations:dwh_abs",
        "Boullé et al. (2020)",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "Yarotsky ReLU sawtooth for x^2",
        "reference.activations:yarotsky_square",
        "Yarotsky (2017)",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "polynomial minimax of |x| (LP baseline)",
        "reference.activations:minimax_poly_abs_lp",
        "Bernstein (1914)",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "exp by Padé scaling and squaring",
        "reference.activations:exp_scaling_squaring",
        _S16 + " (our default construction)",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "composite rational p-th root",
        "reference.activations:pth_root",
        _S16 + " §8.2",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "p-th root scaling sequence alpha_k",
        "reference.activations:pth_root_alphas",
        _S16 + " §8.2",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "log by the AGM of theta values",
        "reference.activations:log_agm",
        _S16 + " §8.2",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "tanh by Halley's iteration",
        "reference.activations:tanh_halley",
        _S16 + " §8.2",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "tanh-form GELU",
        "reference.activations:gelu_tanh",
        _S16 + " §8.2",
        ("bad_input", "hard_input"),
    ),
    _alg("GELU pole and Bernstein rho", "reference.activations:gelu_pole", _S16 + " §8.2", ()),
    _alg(
        "composite rational GELU (Padé exp, squarings, x E/(1+E))",
        "reference.activations:gelu_composite",
        _S16 + " §4 (forward separation, GELU)",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "parameter count of the composite GELU",
        "reference.activations:gelu_composite_params",
        _S16 + " §4 (forward separation, GELU)",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "product gadget xy",
        "reference.activations:product_gadget",
        _S16,
        ("bad_input", "hard_input"),
    ),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.activations:rational_init": "generator",
    "reference.activations:true_rational": "utility",
}


Args = tuple[tuple[Any, ...], dict[str, Any]]


def _rational_args(rng: np.random.Generator) -> Args:
    return (rng.uniform(-2, 2, size=5), rng.uniform(-1, 1, size=4), rng.uniform(-1, 1, size=2)), {}


def _true_args(rng: np.random.Generator) -> Args:
    return (rng.uniform(-2, 2, size=5), rng.uniform(-1, 1, size=4), np.array([1.0, 0.0, 2.0])), {}


def _unit_args(rng: np.random.Generator) -> Args:
    return (rng.uniform(0, 1, size=6), 3), {}


def _product_args(rng: np.random.Generator) -> Args:
    return (rng.uniform(-1, 1, size=4), rng.uniform(-1, 1, size=4)), {}


def _coeff_pair_args(rng: np.random.Generator) -> Args:
    return (rng.uniform(-1, 1, size=4), np.array([1.0, 0.0, 3.0])), {}


def _no_args(value: object) -> Callable[[np.random.Generator], Args]:
    def make(rng: np.random.Generator) -> Args:
        return (value,), {}

    return make


_NDIM = frozenset({"ndim_up", "ndim_down"})
_BAD_REAL = (math.nan, math.inf, -1.0, 0.0, 1.0, 2.0, "0.1", None)
BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.activations:rational",
        fn=activations.rational,
        make_args=_rational_args,
        arrays=(1,),
        scalars=(("version", ("D", "b", None, 2)),),
    ),
    BadInputCase(
        name="reference.activations:rational [x]",
        fn=activations.rational,
        make_args=_rational_args,
        arrays=(0,),
        skip=_NDIM,
    ),
    BadInputCase(
        name="reference.activations:rational [q]",
        fn=activations.rational,
        make_args=_rational_args,
        arrays=(2,),
        skip=frozenset({"empty"}),
    ),
    BadInputCase(
        name="reference.activations:rational_grad",
        fn=activations.rational_grad,
        make_args=_rational_args,
        arrays=(1,),
    ),
    BadInputCase(
        name="reference.activations:rational_grad [x]",
        fn=activations.rational_grad,
        make_args=_rational_args,
        arrays=(0,),
        skip=_NDIM,
    ),
    BadInputCase(
        name="reference.activations:true_rational",
        fn=activations.true_rational,
        make_args=_true_args,
        arrays=(1, 2),
        scalars=((2, (np.array([1.0, 0.0, -1.0]), np.array([0.0, 1.0]), np.zeros(3))),),
    ),
    BadInputCase(
        name="reference.activations:rational_function",
        fn=activations.rational_function,
        make_args=_coeff_pair_args,
        arrays=(0, 1),
        scalars=((1, (np.zeros(2),)),),
    ),
    BadInputCase(
        name="reference.activations:fit_rational",
        fn=activations.fit_rational,
        make_args=lambda rng: (("tanh",), {"points": 101, "interval": np.array([-2.0, 2.0])}),
        arrays=("interval",),
        scalars=(
            (0, ("sigmoid", "", None, 1)),
            ("points", (0, 3, -5, 2.5)),
            ("degrees", ((-1, 2), (3,), (3, -2), None)),
            ("max_iter", (0, -1)),
        ),
    ),
    BadInputCase(
        name="reference.activations:pth_root",
        fn=activations.pth_root,
        make_args=lambda rng: ((rng.uniform(0.1, 1, size=5), 3), {"alpha0": 0.3, "layers": 2}),
        arrays=(0,),
        scalars=(
            (1, (1, 0, -2, 2.5, None)),
            ("alpha0", (0.0, 1.0, -0.5, math.nan, None)),
            ("layers", (-1, 1.5, None)),
        ),
        skip=_NDIM,
    ),
    BadInputCase(
        name="reference.activations:pth_root_alphas",
        fn=activations.pth_root_alphas,
        make_args=lambda rng: ((3, 0.3, 2), {}),
        arrays=(),
        scalars=((0, (1, 0, 2.5, None)), (1, (0.0, 1.0, math.nan, None)), (2, (-1, None))),
    ),
    BadInputCase(
        name="reference.activations:log_agm",
        fn=activations.log_agm,
        make_args=lambda rng: ((rng.uniform(0.1, 10, size=5),), {"layers": 6}),
        arrays=(0,),
        scalars=(("layers", (-1, 1.5, None)),),
        skip=_NDIM,
    ),
    BadInputCase(
        name="reference.activations:tanh_halley",
        fn=activations.tanh_halley,
        make_args=lambda rng: ((rng.uniform(-0.1, 0.1, size=5),), {"layers": 2}),
        arrays=(0,),
        scalars=(("layers", (-1, 1.5, None)),),
        skip=_NDIM,
    ),
    BadInputCase(
        name="reference.activations:gelu_tanh",
        fn=activations.gelu_tanh,
        make_args=lambda rng: ((rng.uniform(-1, 1, size=5),), {}),
        arrays=(0,),
        skip=_NDIM,
    ),
    BadInputCase(
        name="reference.activations:gelu_composite",
        fn=activations.gelu_composite,
        make_args=lambda rng: ((rng.uniform(-1, 1, size=5),), {"q": 3, "squarings": 1}),
        arrays=(0,),
        scalars=(("q", (-1, 1.5, None)), ("squarings", (-1, 1.5, None))),
        skip=_NDIM,
    ),
    BadInputCase(
        name="reference.activations:gelu_composite_params",
        fn=activations.gelu_composite_params,
        make_args=lambda rng: ((3, 1), {}),
        arrays=(),
        scalars=((0, (-1, 1.5, None)), (1, (-1, 1.5, None))),
    ),
    BadInputCase(
        name="reference.activations:rational_init",
        fn=activations.rational_init,
        make_args=lambda rng: (("swish",), {"degrees": (2, 1)}),
        arrays=(),
        scalars=(
            (0, ("sigmoid", "", None, 1)),
            ("degrees", ((-1, 2), (3,), None)),
            ("version", ("C", "D", None)),
        ),
    ),
    BadInputCase(
        name="reference.activations:compose_rationals",
        fn=activations.compose_rationals,
        make_args=lambda rng: (([activations.halley_map(), activations.halley_map()],), {}),
        arrays=(),
        scalars=((0, ([], None, "h", [(np.array([np.nan]), np.array([1.0]))], [1.0])),),
    ),
    BadInputCase(
        name="reference.activations:newman_abs",
        fn=activations.newman_abs,
        make_args=_no_args(5),
        arrays=(),
        scalars=((0, (0, -3, 2.5, math.nan, None, "5")),),
    ),
    BadInputCase(
        name="reference.activations:halley_sign",
        fn=activations.halley_sign,
        make_args=lambda rng: ((rng.uniform(-1, 1, size=5), 3), {}),
        arrays=(0,),
        scalars=((1, (-1, 1.5, None)),),
        skip=_NDIM,
    ),
    BadInputCase(
        name="reference.activations:halley_abs",
        fn=activations.halley_abs,
        make_args=lambda rng: ((rng.uniform(-1, 1, size=5), 3), {}),
        arrays=(0,),
        scalars=((1, (-1, 1.5, None)),),
        skip=_NDIM,
    ),
    BadInputCase(
        name="reference.activations:halley_steps",
        fn=activations.halley_steps,
        make_args=_no_args(1e-3),
        arrays=(),
        scalars=((0, (0.0, -0.5, 1.5, math.nan, None)),),
    ),
    BadInputCase(
        name="reference.activations:dwh_params",
        fn=activations.dwh_params,
        make_args=_no_args(1e-3),
        arrays=(),
        scalars=((0, (0.0, -0.5, 1.5, math.nan, None)),),
    ),
    BadInputCase(
        name="reference.activations:dwh_step_map",
        fn=activations.dwh_step_map,
        make_args=_no_args(1e-3),
        arrays=(),
        scalars=((0, (0.0, 1.5, math.inf)),),
    ),
    BadInputCase(
        name="reference.activations:dwh_sign",
        fn=activations.dwh_sign,
        make_args=lambda rng: ((1e-4,), {"tol": 1e-10}),
        arrays=(),
        scalars=((0, (0.0, 1.5, math.nan)), ("tol", (0.0, 1.0, -1.0)), ("max_iter", (0,))),
    ),
    BadInputCase(
        name="reference.activations:dwh_abs",
        fn=activations.dwh_abs,
        make_args=_no_args(1e-4),
        arrays=(),
        scalars=((0, _BAD_REAL),),
    ),
    BadInputCase(
        name="reference.activations:product_gadget",
        fn=activations.product_gadget,
        make_args=_product_args,
        arrays=(0, 1),
        skip=_NDIM,
    ),
    BadInputCase(
        name="reference.activations:yarotsky_square",
        fn=activations.yarotsky_square,
        make_args=_unit_args,
        arrays=(0,),
        scalars=((1, (-1, 2.0, None)), (0, (np.array([-0.1, 0.5]), np.array([1.5])))),
        skip=_NDIM,
    ),
    BadInputCase(
        name="reference.activations:minimax_poly_abs_lp",
        fn=activations.minimax_poly_abs_lp,
        make_args=lambda rng: ((4,), {"grid_size": 201}),
        arrays=(),
        scalars=((0, (3, -2, 2.0, None)), ("grid_size", (1, 0, 10.5))),
    ),
    BadInputCase(
        name="reference.activations:exp_scaling_squaring",
        fn=activations.exp_scaling_squaring,
        make_args=lambda rng: ((rng.uniform(-1, 1, size=6), 3, 4), {}),
        arrays=(0,),
        scalars=((1, (-1, 1.5)), (2, (-1, 100))),
        skip=_NDIM,
    ),
)
