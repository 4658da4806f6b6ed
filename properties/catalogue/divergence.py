"""Catalogue of the ``divergence`` family: ``ALGORITHMS`` (rows of ``verifiedref list``),
``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite) and ``HARD_EXTRAS``
(hard instances and stopping rules that the ``hard_input`` suite adds to them)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

import numpy as np

from properties._records import Algorithm, Args, BadInputCase, HardExtra, HardInstance
from reference import divergence as dv
from reference._arrays import FloatArray

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "HARD_EXTRAS", "UNCOVERED"]


_SPEC = "Wang, Zhang, Wang, α-divergence with RFF (ICML 2026)"
ALGORITHMS = (
    Algorithm(
        name="Gaussian α-divergence (closed form G1)",
        function="reference.divergence:alpha_divergence_gaussian",
        family="divergence",
        paper=_SPEC,
        suites=("divergence.gaussian", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="Gaussian KL (G3, α -> 1 limit)",
        function="reference.divergence:kl_gaussian",
        family="divergence",
        paper=_SPEC,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="RFF / RKHS-ball estimator",
        function="reference.divergence:estimate_alpha_divergence",
        family="divergence",
        paper=_SPEC,
        suites=("divergence.estimator", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="projected Armijo ascent / Armijo-SGD",
        function="reference.divergence:armijo_ascent",
        family="divergence",
        paper=_SPEC,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="band-limited random Fourier features",
        function="reference.divergence:make_rff",
        family="divergence",
        paper=_SPEC,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="kNN estimator (baseline B3)",
        function="reference.divergence:knn_alpha_divergence",
        family="divergence",
        paper=_SPEC,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="plug-in Gaussian (baseline B4)",
        function="reference.divergence:plugin_gaussian_alpha_divergence",
        family="divergence",
        paper=_SPEC,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="torch mini-batch estimator (fixed features)",
        function="reference.divergence.fast_torch:estimate_alpha_divergence",
        family="divergence",
        paper=_SPEC,
        suites=("hard_input",),
    ),
    Algorithm(
        name="unconstrained neural critic (baseline B1, torch)",
        function="reference.divergence.fast_torch:neural_critic_estimate",
        family="divergence",
        paper=_SPEC,
        suites=("hard_input",),
    ),
    Algorithm(
        name="f-dual conjugate f_α*",
        function="reference.divergence:f_alpha_conjugate",
        family="divergence",
        paper=_SPEC,
        suites=("bad_input", "hard_input"),
    ),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.divergence:knn_alpha_divergence": "baseline",
    "reference.divergence:plugin_gaussian_alpha_divergence": "baseline",
    "reference.divergence.fast_torch:estimate_alpha_divergence": "fast path",
    "reference.divergence.fast_torch:neural_critic_estimate": "baseline",
}


# ---------------------------------------------------------------------------- bad input
def _gauss_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    d = int(rng.integers(1, 4))
    b = rng.standard_normal((d, d))
    return (rng.standard_normal(d), b @ b.T + np.eye(d), rng.standard_normal(d), np.eye(d), 0.5), {}


def _kl_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return _gauss_args(rng)[0][:4], {}


def _sample_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    d = int(rng.integers(1, 3))
    return (rng.standard_normal((12, d)), rng.standard_normal((10, d)) + 1.0, 0.5), {}


def _estimate_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    args, _ = _sample_args(rng)
    return args, {
        "rng": np.random.default_rng(1),
        "num_features": 8,
        "config": dv.ArmijoConfig(max_iter=5, batch_size=4),
    }


def _armijo_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (rng.uniform(-0.5, 0.5, (10, 4)), rng.uniform(-0.5, 0.5, (9, 4)), 0.5), {
        "config": dv.ArmijoConfig(max_iter=5, batch_size=None)
    }


def _objective_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (
        rng.uniform(-0.5, 0.5, (10, 4)),
        rng.uniform(-0.5, 0.5, (9, 4)),
        rng.standard_normal(5),
        0.5,
    ), {}


def _rff_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (2, 8), {"sigma": 1.0, "rng": np.random.default_rng(0)}


def _conj_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (rng.uniform(-2.0, 1.0, size=5), 0.5), {}


def _profiled_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (rng.standard_normal(6), rng.standard_normal(5), 0.5), {}


_BAD_ALPHA = ("alpha", (0.0, 1.0, -0.5, 1.5, float("nan"), "0.5", None))
_A2 = 2  # positional index of alpha in (X, Y, alpha)
BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.divergence:alpha_divergence_gaussian",
        fn=dv.alpha_divergence_gaussian,
        make_args=_gauss_args,
        arrays=(0, 1, 2, 3),
        scalars=((4, _BAD_ALPHA[1]),),
    ),
    BadInputCase(
        name="reference.divergence:kl_gaussian",
        fn=dv.kl_gaussian,
        make_args=_kl_args,
        arrays=(0, 1, 2, 3),
    ),
    BadInputCase(
        name="reference.divergence:estimate_alpha_divergence",
        fn=dv.estimate_alpha_divergence,
        make_args=_estimate_args,
        arrays=(0, 1),
        scalars=((_A2, _BAD_ALPHA[1]), ("num_features", (0, -3, 2.5))),
    ),
    BadInputCase(
        name="reference.divergence:knn_alpha_divergence",
        fn=dv.knn_alpha_divergence,
        make_args=_sample_args,
        arrays=(0, 1),
        scalars=((_A2, _BAD_ALPHA[1]),),
    ),
    BadInputCase(
        name="reference.divergence:plugin_gaussian_alpha_divergence",
        fn=dv.plugin_gaussian_alpha_divergence,
        make_args=_sample_args,
        arrays=(0, 1),
        scalars=((_A2, _BAD_ALPHA[1]),),
    ),
    BadInputCase(
        name="reference.divergence:armijo_ascent",
        fn=dv.armijo_ascent,
        make_args=_armijo_args,
        arrays=(0, 1),
        scalars=((_A2, _BAD_ALPHA[1]),),
    ),
    BadInputCase(
        name="reference.divergence:alpha_objective",
        fn=dv.alpha_objective,
        make_args=_objective_args,
        arrays=(0, 1, 2),
        scalars=((3, _BAD_ALPHA[1]),),
    ),
    BadInputCase(
        name="reference.divergence:alpha_objective_gradient",
        fn=dv.alpha_objective_gradient,
        make_args=_objective_args,
        arrays=(0, 1, 2),
    ),
    BadInputCase(
        name="reference.divergence:alpha_objective_hessian",
        fn=dv.alpha_objective_hessian,
        make_args=_objective_args,
        arrays=(0, 1, 2),
    ),
    BadInputCase(
        name="reference.divergence:make_rff",
        fn=dv.make_rff,
        make_args=_rff_args,
        arrays=(),
        scalars=(
            (0, (0, -1, 1.5, None)),
            (1, (0, -2)),
            ("sigma", (0.0, -1.0, float("inf"))),
            ("omega_max", (0.0, -1.0)),
        ),
    ),
    BadInputCase(
        name="reference.divergence:f_alpha_conjugate",
        fn=dv.f_alpha_conjugate,
        make_args=_conj_args,
        arrays=(0,),
        scalars=((1, _BAD_ALPHA[1]),),
        skip=frozenset({"ndim_up", "ndim_down", "empty"}),
    ),
    BadInputCase(
        name="reference.divergence:profiled_value",
        fn=dv.profiled_value,
        make_args=_profiled_args,
        arrays=(0, 1),
        scalars=((2, _BAD_ALPHA[1]),),
    ),
)


# ----------------------------------------------------------------- hard-input rows
# Valid instances that are hard in a way a generic transform cannot make (smallest sizes,
# extreme scales, near-singular systems, the default caps), results documented to hold
# +-inf, and stopping rules that recompute the stopping quantity from the returned output
# with a routine of their own (never the result's fields).
def _divergence_samples(
    r: np.random.Generator, n: int = 24, d: int = 2, scale: float = 1.0, same: bool = False
) -> tuple[FloatArray, FloatArray]:
    x = scale * r.normal(size=(n, d))
    y = x.copy() if same else scale * r.normal(0.5, 1.0, size=(n, d))
    return x, y


def _hard_rff_args(**kw: Any) -> Callable[[np.random.Generator], Args]:
    def make(r: np.random.Generator) -> Args:
        import reference.divergence as dv

        x, y = _divergence_samples(r, **kw)
        features = dv.make_rff(x.shape[1], 8, sigma=1.0, rng=np.random.default_rng(3))
        config = dv.ArmijoConfig(max_iter=4, batch_size=None)
        return (x, y, 0.5), {
            "features": features,
            "rng": np.random.default_rng(1),
            "config": config,
        }

    return make


def _critic_args(**kw: Any) -> Callable[[np.random.Generator], Args]:
    def make(r: np.random.Generator) -> Args:
        x, y = _divergence_samples(r, **{"n": 8, **kw})
        return (x, y, 0.5), {"generator": 0, "hidden": 4, "iterations": 3, "batch_size": 4}

    return make


def _torch_extras() -> tuple[HardExtra, ...]:
    """The torch fast path's rows, when torch is installed (it is in the gate's dev setup)."""
    if importlib.util.find_spec("torch") is None:
        return ()
    divergence = (
        HardInstance(label="n = 2 samples each, d = 1", make_args=_hard_rff_args(n=2, d=1)),
        HardInstance(label="samples of order 1e8", make_args=_hard_rff_args(scale=1e8)),
        HardInstance(label="samples of order 1e-8", make_args=_hard_rff_args(scale=1e-8)),
        HardInstance(label="identical samples (D = 0)", make_args=_hard_rff_args(same=True)),
    )
    critic = (
        HardInstance(label="n = 4 (the smallest split), d = 1", make_args=_critic_args(n=4, d=1)),
        HardInstance(label="samples of order 1e6", make_args=_critic_args(scale=1e6)),
        HardInstance(label="identical samples (D = 0)", make_args=_critic_args(same=True)),
    )
    return (
        HardExtra(
            name="reference.divergence.fast_torch:estimate_alpha_divergence",
            make_args=_hard_rff_args(),
            arrays=(0, 1),
            instances=divergence,
        ),
        HardExtra(
            name="reference.divergence.fast_torch:neural_critic_estimate",
            make_args=_critic_args(),
            arrays=(0, 1),
            instances=critic,
        ),
    )


HARD_EXTRAS: tuple[HardExtra, ...] = (
    # f*_α(t) = +inf for t >= 1/(1-α) (documented).
    HardExtra(name="reference.divergence:f_alpha_conjugate", inf_fields=("*",)),
    # -inf when a^α b^(1-α) overflows float64 (critic values ~1e3 and beyond; documented).
    HardExtra(name="reference.divergence:profiled_value", inf_fields=("*",)),
    *_torch_extras(),
)
