"""Catalogue of the ``optimizers`` family: ``ALGORITHMS`` (rows of ``verifiedref list``)
and ``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase
from reference import optimizers as ref
from reference.optimizers.base import Optimizer

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "UNCOVERED"]


_FO = "optimizers.first_order"
_S02 = "Xu et al., S-Adam (ICML 2026)"
_S14 = "Sfyraki & Wang, Lions and Muons (ICML 2026)"
_S05 = "Chen et al., heavy-tailed stability (ICML 2026)"
ALGORITHMS = (
    Algorithm(
        name="S-Adam (LGI brake)",
        function="reference.optimizers:s_adam",
        family="optimizers",
        paper=_S02,
        suites=(_FO, "optimizers.s_adam", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="LGI estimator",
        function="reference.optimizers:lgi",
        family="optimizers",
        paper=_S02,
        suites=("optimizers.lgi", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="LGI damping factor",
        function="reference.optimizers:damping",
        family="optimizers",
        paper=_S02,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="Goldstein (delta, eps)-stationarity measure",
        function="reference.optimizers:goldstein_stationarity",
        family="optimizers",
        paper=_S02,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="Adam (PyTorch semantics)",
        function="reference.optimizers:adam",
        family="optimizers",
        paper="Kingma & Ba (2015); baseline of Xu et al. (ICML 2026)",
        suites=(_FO, "optimizers.adam", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="AdamW (PyTorch semantics)",
        function="reference.optimizers:adamw",
        family="optimizers",
        paper="Loshchilov & Hutter (2019); baseline of Xu et al. (ICML 2026)",
        suites=(_FO, "optimizers.adam", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="Prox-SGD (momentum + soft threshold)",
        function="reference.optimizers:prox_sgd",
        family="optimizers",
        paper="baseline of Xu et al. (ICML 2026)",
        suites=(_FO, "bad_input", "hard_input"),
    ),
    Algorithm(
        name="Lion (+ R1 clipping)",
        function="reference.optimizers:lion",
        family="optimizers",
        paper=_S14,
        suites=(_FO, "optimizers.lion", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="Muon (NS5 or exact polar; + R1 clipping)",
        function="reference.optimizers:muon",
        family="optimizers",
        paper=_S14,
        suites=(_FO, "optimizers.muon", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="generalized stochastic Frank-Wolfe (+ R1 clipping)",
        function="reference.optimizers:sfw",
        family="optimizers",
        paper=_S14 + " (reconstructed Algorithm 3)",
        suites=(_FO, "bad_input", "hard_input"),
    ),
    Algorithm(
        name="clipped variance-reduced SFW (R2)",
        function="reference.optimizers:sfw_vr",
        family="optimizers",
        paper=_S14 + " (reconstructed)",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="Lion-VR (R2 on the l_inf ball)",
        function="reference.optimizers:lion_vr",
        family="optimizers",
        paper=_S14 + " (reconstructed)",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="Muon-VR (R2 on the spectral ball)",
        function="reference.optimizers:muon_vr",
        family="optimizers",
        paper=_S14 + " (reconstructed)",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="Frank-Wolfe gap",
        function="reference.optimizers:fw_gap",
        family="optimizers",
        paper=_S14,
        suites=("optimizers.fw_gap", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="linear minimisation oracle (l_inf, spectral, l2, l1)",
        function="reference.optimizers:lmo",
        family="optimizers",
        paper=_S14,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="Newton-Schulz quintic (NS5)",
        function="reference.optimizers.polar:newton_schulz",
        family="optimizers",
        paper=_S14 + "; KellerJordan/Muon",
        suites=("optimizers.newton_schulz", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="exact polar factor U_k V_k^T",
        function="reference.optimizers.polar:polar",
        family="optimizers",
        paper=_S14,
        suites=("optimizers.polar", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="clipped SGD (mini-batch, momentum)",
        function="reference.optimizers:clipped_sgd",
        family="optimizers",
        paper=_S05,
        suites=(_FO, "bad_input", "hard_input"),
    ),
    Algorithm(
        name="normalized SGD (momentum)",
        function="reference.optimizers:normalized_sgd",
        family="optimizers",
        paper=_S05,
        suites=(_FO, "bad_input", "hard_input"),
    ),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.optimizers:adamw": "baseline",
    "reference.optimizers:goldstein_stationarity": "utility",
    "reference.optimizers.polar:polar": "oracle",
    "reference.optimizers:normalized_sgd": "baseline",
}


# -------------------------------------------------------------------------- bad-input cases
Args = tuple[tuple[Any, ...], dict[str, Any]]


def _update_call(
    factory: Callable[..., Optimizer[Any, Any]], **config: Any
) -> Callable[..., object]:
    """A function ``(params, grads) -> updates`` running one update (bad-input target)."""

    def call(params: Any, grads: Any) -> object:
        opt = factory(**config)
        state = opt.init(params)
        return opt.update(grads, state, params)[0]

    call.__name__ = f"{factory.__name__}_update"
    return call


def _sadam_update(params: Any, grads: Any) -> object:
    opt = ref.s_adam()
    state = opt.init(params)
    return opt.update(
        grads,
        state,
        params,
        loss=lambda p: float(np.sum(np.asarray(p) ** 2)),
        rng=np.random.default_rng(0),
    )[0]


def _vec_args(rng: np.random.Generator) -> Args:
    d = int(rng.integers(1, 5))
    return (rng.normal(size=d), rng.normal(size=d)), {}


def _mat_args(rng: np.random.Generator) -> Args:
    m, n = (int(v) for v in rng.integers(1, 4, size=2))
    return (rng.normal(size=(m, n)), rng.normal(size=(m, n))), {}


def _one_mat(rng: np.random.Generator) -> Args:
    m, n = (int(v) for v in rng.integers(1, 5, size=2))
    return (rng.normal(size=(m, n)),), {}


def _gap_args(rng: np.random.Generator) -> Args:
    d = int(rng.integers(1, 5))
    return (rng.normal(size=d), rng.uniform(-1, 1, size=d), 1.0, "linf"), {}


def _lmo_args(rng: np.random.Generator) -> Args:
    return (rng.normal(size=int(rng.integers(1, 5))),), {"radius": 1.0, "which": "l2"}


def _lgi_args(rng: np.random.Generator) -> Args:
    d = int(rng.integers(1, 4))
    theta = rng.normal(size=d)
    return (
        (lambda p: float(np.sum(np.abs(p))), theta, float(np.sum(np.abs(theta)))),
        {"k": 3, "sigma": 0.01, "rng": np.random.default_rng(0)},
    )


def _goldstein_args(rng: np.random.Generator) -> Args:
    return (np.sign, rng.normal(size=int(rng.integers(1, 4)))), {
        "delta": 0.1,
        "rng": np.random.default_rng(0),
        "samples": 8,
    }


def _factory_case(
    name: str, fn: Callable[..., object], bad: dict[str, tuple[object, ...]]
) -> BadInputCase:
    return BadInputCase(
        name=f"reference.optimizers:{name}",
        fn=fn,
        make_args=lambda rng: ((), {}),
        arrays=(),
        scalars=tuple(bad.items()),
    )


_BETA_BAD: tuple[object, ...] = (-0.1, 1.0, math.nan, "0.9")
BAD_INPUT_CASES = (
    _factory_case(
        "s_adam",
        ref.s_adam,
        {
            "learning_rate": (-1.0, math.nan),
            "b1": _BETA_BAD,
            "k_directions": (0, 1.5),
            "sigma": (0.0, -1.0, math.inf),
            "lgi_lambda": (-0.5,),
            "stabilize_eps": (-1e-6,),
            "lgi_cap": (0.0,),
        },
    ),
    _factory_case("adam", ref.adam, {"learning_rate": (-1.0,), "b2": _BETA_BAD, "eps": (-1.0,)}),
    _factory_case("adamw", ref.adamw, {"weight_decay": (-1.0, math.inf)}),
    _factory_case("prox_sgd", ref.prox_sgd, {"momentum": _BETA_BAD, "l1": (-1.0,)}),
    _factory_case(
        "lion",
        ref.lion,
        {
            "learning_rate": (0.0, -1.0),
            "b1": _BETA_BAD,
            "weight_decay": (-0.1,),
            "clip_tau": (0.0,),
        },
    ),
    _factory_case(
        "muon",
        ref.muon,
        {"momentum": _BETA_BAD, "ns_steps": (0, 2.0), "weight_decay": (-1.0,), "clip_tau": (-1.0,)},
    ),
    _factory_case(
        "sfw", ref.sfw, {"radius": (0.0, -1.0), "step_size": (0.0, 1.5), "which": ("l3", 2)}
    ),
    _factory_case("sfw_vr", ref.sfw_vr, {"a": (0.0, 2.0), "clip_tau": (0.0,), "clip": ("x",)}),
    _factory_case("lion_vr", ref.lion_vr, {"weight_decay": (0.0, -1.0)}),
    _factory_case("muon_vr", ref.muon_vr, {"learning_rate": (0.0,), "weight_decay": (0.0,)}),
    _factory_case("clipped_sgd", ref.clipped_sgd, {"tau": (0.0, -1.0), "momentum": _BETA_BAD}),
    _factory_case(
        "normalized_sgd", ref.normalized_sgd, {"learning_rate": (-1.0,), "momentum": _BETA_BAD}
    ),
    BadInputCase(
        name="reference.optimizers:s_adam.update",
        fn=_sadam_update,
        make_args=_vec_args,
        arrays=(0, 1),
    ),
    *(
        BadInputCase(
            name=f"reference.optimizers:{name}.update",
            fn=_update_call(factory),
            make_args=_vec_args,
            arrays=(0, 1),
        )
        for name, factory in (
            ("adam", ref.adam),
            ("lion", ref.lion),
            ("sfw", ref.sfw),
            ("clipped_sgd", ref.clipped_sgd),
            ("normalized_sgd", ref.normalized_sgd),
            ("prox_sgd", ref.prox_sgd),
            ("sfw_vr", ref.sfw_vr),
        )
    ),
    BadInputCase(
        name="reference.optimizers:muon.update",
        fn=_update_call(ref.muon),
        make_args=_mat_args,
        arrays=(0, 1),
        skip=frozenset({"ndim_up"}),
    ),
    BadInputCase(
        name="reference.optimizers:fw_gap",
        fn=ref.fw_gap,
        make_args=_gap_args,
        arrays=(0, 1),
        scalars=((2, (0.0, -1.0, math.nan)), (3, ("l3", None))),
        skip=frozenset({"ndim_up"}),
    ),
    BadInputCase(
        name="reference.optimizers:fw_gap_split",
        fn=ref.fw_gap_split,
        make_args=_gap_args,
        arrays=(0, 1),
        scalars=((2, (0.0, -1.0)),),
        skip=frozenset({"ndim_up"}),
    ),
    BadInputCase(
        name="reference.optimizers:lmo",
        fn=ref.lmo,
        make_args=_lmo_args,
        arrays=(0,),
        scalars=(("radius", (0.0, -1.0, math.inf)), ("which", ("nuclear",))),
        skip=frozenset({"ndim_up"}),
    ),
    BadInputCase(
        name="reference.optimizers:norm",
        fn=ref.norm,
        make_args=lambda rng: ((rng.normal(size=3), "l1"), {}),
        arrays=(0,),
        skip=frozenset({"ndim_up"}),
    ),
    BadInputCase(
        name="reference.optimizers:dual_norm",
        fn=ref.dual_norm,
        make_args=lambda rng: ((rng.normal(size=(2, 3)), "spectral"), {}),
        arrays=(0,),
    ),
    BadInputCase(
        name="reference.optimizers.polar:newton_schulz",
        fn=ref.newton_schulz,
        make_args=_one_mat,
        arrays=(0,),
        scalars=(
            ("steps", (0, -1, 2.5)),
            ("eps", (-1.0, math.nan)),
            ("coefficients", ((1.0, 2.0),)),
        ),
    ),
    BadInputCase(
        name="reference.optimizers.polar:polar",
        fn=ref.polar,
        make_args=_one_mat,
        arrays=(0,),
        scalars=(("rtol", (-1.0, 1.0)),),
    ),
    BadInputCase(
        name="reference.optimizers.polar:ns_scalar_map",
        fn=ref.ns_scalar_map,
        make_args=lambda rng: ((rng.uniform(0, 1, size=3),), {}),
        arrays=(),
        scalars=(("steps", (0,)), (0, (math.nan, "x"))),
    ),
    BadInputCase(
        name="reference.optimizers:lgi",
        fn=ref.lgi,
        make_args=_lgi_args,
        arrays=(1,),
        scalars=(("k", (0, 1.5)), ("sigma", (0.0, -1.0, math.nan)), (2, (math.nan, math.inf))),
        skip=frozenset({"ndim_up"}),
    ),
    BadInputCase(
        name="reference.optimizers:lgi_details",
        fn=ref.lgi_details,
        make_args=_lgi_args,
        arrays=(1,),
        scalars=(("zeta", (-1.0,)), ("ddof", (2,)), ("direction_mode", ("sphere",))),
        skip=frozenset({"ndim_up"}),
    ),
    BadInputCase(
        name="reference.optimizers:damping",
        fn=ref.damping,
        make_args=lambda rng: ((float(rng.uniform(0, 2)),), {"lgi_lambda": 2.0}),
        arrays=(),
        scalars=((0, (-1.0, math.nan)), ("lgi_lambda", (-1.0,)), ("cap", (0.0,))),
    ),
    BadInputCase(
        name="reference.optimizers:goldstein_stationarity",
        fn=ref.goldstein_stationarity,
        make_args=_goldstein_args,
        arrays=(1,),
        scalars=(("delta", (0.0, -1.0)), ("samples", (0,))),
    ),
    BadInputCase(
        name="reference.optimizers:apply_updates",
        fn=ref.apply_updates,
        make_args=_vec_args,
        arrays=(0, 1),
    ),
)
