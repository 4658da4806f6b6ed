"""Catalogue of the ``inconsistency`` family: ``ALGORITHMS`` (rows of ``verifiedref list``)
and ``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase
from reference import inconsistency as inc
from reference._arrays import FloatArray

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "UNCOVERED"]


_PAPER = "Kim, Kim, Lee, Inconsistency-Aware Minimization (ICML 2026)"


def _algo(name: str, fn: str, suites: tuple[str, ...] = ()) -> Algorithm:
    return Algorithm(
        name=name,
        function=f"reference.inconsistency:{fn}",
        family="inconsistency",
        paper=_PAPER,
        suites=(*suites, "bad_input", "hard_input"),
    )


ALGORITHMS = (
    _algo("Local inconsistency S_ρ (A1, noise start)", "local_inconsistency"),
    _algo("A1 from a given noise draw", "inconsistency_ascent", ("inconsistency.estimator",)),
    _algo("Batch inconsistency K_X(θ, δ)", "batch_kl"),
    _algo("∇_δ K_X (analytic)", "batch_kl_gradient"),
    _algo("Fisher of softmax models (closed form)", "fisher_softmax", ("inconsistency.fisher",)),
    _algo("Cross-entropy Hessian (Gauss–Newton, closed form)", "hessian_softmax"),
    _algo("Cross-entropy", "cross_entropy"),
    _algo("Cross-entropy gradient", "cross_entropy_gradient"),
    _algo("Predictive distribution", "predict_proba"),
    _algo("Parameter initialisation", "init_params"),
    _algo("IAM-D step", "iam_d"),
    _algo("IAM-D objective and gradient", "iam_d_objective"),
    _algo("IAM-DE step (single backward, persistent δ)", "iam_de"),
    _algo("IAM-DE step from a given δ and sign", "iam_de_step", ("inconsistency.iam_de",)),
    _algo("IAM-S step", "iam_s"),
    _algo("SAM step (baseline)", "sam"),
    _algo("ASAM step (baseline)", "asam"),
    _algo("SAM / ASAM perturbation", "sam_perturbation", ("inconsistency.sam_perturbation",)),
    _algo("SGD with momentum (base optimizer)", "sgd_step"),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.inconsistency:asam": "baseline",
    "reference.inconsistency:cross_entropy": "utility",
    "reference.inconsistency:init_params": "generator",
    "reference.inconsistency:predict_proba": "utility",
    "reference.inconsistency:sam": "baseline",
}


Args = tuple[tuple[Any, ...], dict[str, Any]]


_M1 = inc.SoftmaxModel(kind="linear", n_inputs=3, n_classes=3)
_M2 = inc.SoftmaxModel(kind="mlp", n_inputs=2, n_classes=3, n_hidden=3)


def _pick(rng: np.random.Generator) -> inc.SoftmaxModel:
    return _M1 if rng.random() < 0.5 else _M2


def _mtx(rng: np.random.Generator) -> tuple[inc.SoftmaxModel, FloatArray, FloatArray]:
    model = _pick(rng)
    n = int(rng.integers(1, 5))
    return (
        model,
        rng.standard_normal(model.n_params) * 0.5,
        rng.standard_normal((n, model.n_inputs)),
    )


def _kl_args(rng: np.random.Generator) -> Args:
    model, theta, x = _mtx(rng)
    return (model, theta, rng.standard_normal(model.n_params) * 0.1, x), {}


def _fisher_args(rng: np.random.Generator) -> Args:
    model, theta, x = _mtx(rng)
    return (model, theta, x), {}


def _labels(rng: np.random.Generator, model: inc.SoftmaxModel, n: int) -> FloatArray:
    out: FloatArray = rng.dirichlet(np.ones(model.n_classes), size=n)
    return out


def _ce_args(rng: np.random.Generator) -> Args:
    model, theta, x = _mtx(rng)
    return (model, theta, x, _labels(rng, model, x.shape[0])), {}


def _ascent_args(rng: np.random.Generator) -> Args:
    model, theta, x = _mtx(rng)
    return (model, theta, x, rng.standard_normal(model.n_params)), {"rho": 0.05, "steps": 2}


def _local_args(rng: np.random.Generator) -> Args:
    model, theta, x = _mtx(rng)
    return (model, theta, x), {"rho": 0.05, "rng": np.random.default_rng(1)}


def _iam_d_args(rng: np.random.Generator) -> Args:
    model, theta, x = _mtx(rng)
    return (model, theta, x, _labels(rng, model, x.shape[0]), x[::-1].copy()), {
        "rng": np.random.default_rng(2),
        "config": inc.IAMConfig(),
        "optimizer": inc.SGDConfig(),
    }


def _iam_d_obj_args(rng: np.random.Generator) -> Args:
    model, theta, x = _mtx(rng)
    return (
        model,
        theta,
        x,
        _labels(rng, model, x.shape[0]),
        x.copy(),
        rng.standard_normal(model.n_params) * 0.05,
    ), {"beta": 1.0}


def _iam_s_args(rng: np.random.Generator) -> Args:
    model, theta, x = _mtx(rng)
    return (model, theta, x, _labels(rng, model, x.shape[0])), {
        "rng": np.random.default_rng(3),
        "config": inc.IAMConfig(),
        "optimizer": inc.SGDConfig(),
    }


def _iam_de_args(rng: np.random.Generator) -> Args:
    model, theta, x = _mtx(rng)
    return (model, theta, x, _labels(rng, model, x.shape[0]), x[::-1].copy()), {
        "rng": np.random.default_rng(4),
        "config": inc.IAMDEConfig(),
        "optimizer": inc.SGDConfig(),
        "delta": rng.standard_normal(model.n_params) * 0.05,
    }


def _iam_de_step_args(rng: np.random.Generator) -> Args:
    model, theta, x = _mtx(rng)
    return (
        model,
        theta,
        x,
        _labels(rng, model, x.shape[0]),
        x.copy(),
        rng.standard_normal(model.n_params) * 0.05,
    ), {"sign": -1, "config": inc.IAMDEConfig(), "optimizer": inc.SGDConfig()}


def _sam_args(rng: np.random.Generator) -> Args:
    model, theta, x = _mtx(rng)
    return (model, theta, x, _labels(rng, model, x.shape[0])), {
        "config": inc.SAMConfig(),
        "optimizer": inc.SGDConfig(),
    }


def _pert_args(rng: np.random.Generator) -> Args:
    n = int(rng.integers(1, 6))
    return (rng.standard_normal(n), rng.standard_normal(n)), {"rho": 0.1}


def _sgd_args(rng: np.random.Generator) -> Args:
    n = int(rng.integers(1, 6))
    return (rng.standard_normal(n), rng.standard_normal(n)), {
        "buffer": rng.standard_normal(n),
        "config": inc.SGDConfig(),
    }


def _init_args(rng: np.random.Generator) -> Args:
    return (_pick(rng),), {"rng": np.random.default_rng(0), "scale": 0.3}


_BAD_MODEL: tuple[object, ...] = (None, "linear", 3)
_NEG = (-1.0, 0.0, math.nan, math.inf)
BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.inconsistency:batch_kl",
        fn=inc.batch_kl,
        make_args=_kl_args,
        arrays=(1, 2, 3),
        scalars=((0, _BAD_MODEL),),
    ),
    BadInputCase(
        name="reference.inconsistency:batch_kl_gradient",
        fn=inc.batch_kl_gradient,
        make_args=_kl_args,
        arrays=(1, 2, 3),
        scalars=((0, _BAD_MODEL),),
    ),
    BadInputCase(
        name="reference.inconsistency:fisher_softmax",
        fn=inc.fisher_softmax,
        make_args=_fisher_args,
        arrays=(1, 2),
        scalars=((0, _BAD_MODEL),),
    ),
    BadInputCase(
        name="reference.inconsistency:predict_proba",
        fn=inc.predict_proba,
        make_args=_fisher_args,
        arrays=(1, 2),
    ),
    BadInputCase(
        name="reference.inconsistency:hessian_softmax",
        fn=inc.hessian_softmax,
        make_args=_ce_args,
        arrays=(1, 2, 3),
    ),
    BadInputCase(
        name="reference.inconsistency:cross_entropy",
        fn=inc.cross_entropy,
        make_args=_ce_args,
        arrays=(1, 2, 3),
    ),
    BadInputCase(
        name="reference.inconsistency:cross_entropy_gradient",
        fn=inc.cross_entropy_gradient,
        make_args=_ce_args,
        arrays=(1, 2, 3),
    ),
    BadInputCase(
        name="reference.inconsistency:inconsistency_ascent",
        fn=inc.inconsistency_ascent,
        make_args=_ascent_args,
        arrays=(1, 2, 3),
        scalars=(("rho", _NEG), ("steps", (0, -1, 1.5)), ("noise_scale", (-1.0, math.nan))),
    ),
    BadInputCase(
        name="reference.inconsistency:local_inconsistency",
        fn=inc.local_inconsistency,
        make_args=_local_args,
        arrays=(1, 2),
        scalars=(("rho", _NEG), ("steps", (0, 2.0)), ("rng", (None, 7))),
    ),
    BadInputCase(
        name="reference.inconsistency:iam_d",
        fn=inc.iam_d,
        make_args=_iam_d_args,
        arrays=(1, 2, 3, 4),
        scalars=(("config", (None, inc.IAMConfig(rho=0.0))), ("optimizer", (None,))),
    ),
    BadInputCase(
        name="reference.inconsistency:iam_d_objective",
        fn=inc.iam_d_objective,
        make_args=_iam_d_obj_args,
        arrays=(1, 2, 3, 4, 5),
        scalars=(("beta", (-1.0, math.nan)),),
    ),
    BadInputCase(
        name="reference.inconsistency:iam_de",
        fn=inc.iam_de,
        make_args=_iam_de_args,
        arrays=(1, 2, 3, 4),  # delta=None is valid (first step); iam_de_step covers delta
        scalars=(("config", (None, inc.IAMConfig())), ("rng", (None, 5)), ("optimizer", (None,))),
    ),
    BadInputCase(
        name="reference.inconsistency:iam_de_step",
        fn=inc.iam_de_step,
        make_args=_iam_de_step_args,
        arrays=(1, 2, 3, 4, 5),
        scalars=(("sign", (0, 2, 0.5, None, True)), ("config", (None,))),
    ),
    BadInputCase(
        name="reference.inconsistency:iam_s",
        fn=inc.iam_s,
        make_args=_iam_s_args,
        arrays=(1, 2, 3),
        scalars=(("config", (None, "x")), ("rng", (None,))),
    ),
    BadInputCase(
        name="reference.inconsistency:sam",
        fn=inc.sam,
        make_args=_sam_args,
        arrays=(1, 2, 3),
        scalars=(("config", (None,)), ("optimizer", (inc.SAMConfig(),))),
    ),
    BadInputCase(
        name="reference.inconsistency:asam",
        fn=inc.asam,
        make_args=_sam_args,
        arrays=(1, 2, 3),
        scalars=(("config", (None,)),),
    ),
    BadInputCase(
        name="reference.inconsistency:sam_perturbation",
        fn=inc.sam_perturbation,
        make_args=_pert_args,
        arrays=(0, 1),
        scalars=(("rho", (-1.0, math.nan, math.inf)), ("shift", (-0.1, math.nan))),
    ),
    BadInputCase(
        name="reference.inconsistency:sgd_step",
        fn=inc.sgd_step,
        make_args=_sgd_args,
        arrays=(0, 1),
        scalars=(("config", (None,)),),
    ),
    BadInputCase(
        name="reference.inconsistency:init_params",
        fn=inc.init_params,
        make_args=_init_args,
        arrays=(),
        scalars=((0, _BAD_MODEL), ("scale", _NEG), ("rng", (None, 1))),
    ),
)
