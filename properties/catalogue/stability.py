"""Catalogue of the ``stability`` family: ``ALGORITHMS`` (rows of ``verifiedref list``)
and ``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase
from reference import stability as ref
from reference._arrays import FloatArray

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "UNCOVERED"]


_S05 = "Chen et al., heavy-tailed stability (ICML 2026)"


def _alg(name: str, fn: str, suites: tuple[str, ...] = ("bad_input", "hard_input")) -> Algorithm:
    return Algorithm(
        name=name,
        function=f"reference.stability:{fn}",
        family="stability",
        paper=_S05,
        suites=suites,
    )


ALGORITHMS = (
    _alg("truncation operator clip_tau", "clip", ("stability.clip", "bad_input", "hard_input")),
    _alg(
        "S1 clipped-SGD stability bound",
        "clipped_sgd_stability_bound",
        ("stability.coupling_bound", "bad_input", "hard_input"),
    ),
    _alg("S3 clip-after-average bound", "clip_average_stability_bound"),
    _alg("S4 clipped-momentum bound", "momentum_stability_bound"),
    _alg("S5 normalized-SGD bound", "normalized_sgd_stability_bound"),
    _alg("coupled runs on neighbouring samples", "coupled_runs"),
    _alg("training loop on an index sequence", "train"),
    _alg("L2 truncation bounds", "truncation_bounds"),
    _alg("L3 heavy-tailed mean bound", "heavy_tailed_mean_bound"),
    _alg("symmetric Pareto noise", "symmetric_pareto"),
    _alg("Pareto radial vectors", "pareto_vectors"),
    _alg("Student-t noise", "student_t"),
    _alg("gradient stability (max over probes)", "gradient_stability"),
    _alg("gradient generalization gap (E2 instance)", "gradient_generalization_gap"),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.stability:student_t": "generator",
    "reference.stability:gradient_generalization_gap": "utility",
    "reference.stability:gradient_stability": "utility",
    "reference.stability:symmetric_pareto": "generator",
    "reference.stability:train": "utility",
}


Args = tuple[tuple[Any, ...], dict[str, Any]]


def _data(rng: np.random.Generator) -> tuple[FloatArray, FloatArray]:
    n, d = int(rng.integers(2, 5)), int(rng.integers(1, 4))
    a = rng.normal(size=(n, d))
    return a / np.linalg.norm(a, axis=1, keepdims=True), rng.normal(size=n)


def _grad_args(rng: np.random.Generator) -> Args:
    a, y = _data(rng)
    return (np.zeros(a.shape[1]), a, y), {}


def _neigh_args(rng: np.random.Generator) -> Args:
    a, y = _data(rng)
    return (a, y, 0, a[1], 1.0), {}


def _train_args(rng: np.random.Generator) -> Args:
    from reference.optimizers import clipped_sgd

    a, y = _data(rng)
    return (clipped_sgd(), a, y, np.zeros(a.shape[1]), np.array([0, 1, 0])), {}


def _coupled_args(rng: np.random.Generator) -> Args:
    from reference.optimizers import clipped_sgd

    a, y = _data(rng)
    a2, y2 = ref.neighbouring_dataset(a, y, 0, a[1], 5.0)
    return (clipped_sgd(), a, y, a2, y2, np.zeros(a.shape[1])), {
        "steps": 3,
        "runs": 2,
        "rng": np.random.default_rng(0),
    }


def _probe_args(rng: np.random.Generator) -> Args:
    a, y = _data(rng)
    d = a.shape[1]
    return (rng.normal(size=d), rng.normal(size=d), a, y), {}


def _gen_args(rng: np.random.Generator) -> Args:
    a, y = _data(rng)
    d = a.shape[1]
    return (rng.normal(size=d), a, y, rng.normal(size=d)), {}


_BOUND_KW = {"n": 20, "steps": 10, "learning_rate": 0.01, "tau": 1.0, "smoothness": 1.0}
_BOUND_BAD: tuple[tuple[Any, tuple[object, ...]], ...] = (
    ("n", (0, 1.5)),
    ("steps", (-1,)),
    ("learning_rate", (-1.0, math.nan)),
    ("tau", (0.0, -1.0)),
    ("smoothness", (-1.0,)),
)


BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.stability:clip",
        fn=ref.clip,
        make_args=lambda rng: ((rng.normal(size=3), 1.0), {}),
        arrays=(0,),
        scalars=((1, (0.0, -1.0, math.nan, "1")),),
        skip=frozenset({"ndim_up", "ndim_down"}),
    ),
    BadInputCase(
        name="reference.stability:clipped_sgd_stability_bound",
        fn=ref.clipped_sgd_stability_bound,
        make_args=lambda rng: ((), dict(_BOUND_KW)),
        arrays=(),
        scalars=_BOUND_BAD,
    ),
    BadInputCase(
        name="reference.stability:clip_average_stability_bound",
        fn=ref.clip_average_stability_bound,
        make_args=lambda rng: ((), {**_BOUND_KW, "batch": 4}),
        arrays=(),
        scalars=(*_BOUND_BAD, ("batch", (0,))),
    ),
    BadInputCase(
        name="reference.stability:momentum_stability_bound",
        fn=ref.momentum_stability_bound,
        make_args=lambda rng: ((), {**_BOUND_KW, "beta": 0.9}),
        arrays=(),
        scalars=(*_BOUND_BAD, ("beta", (1.0, -0.1, "0.9"))),
    ),
    BadInputCase(
        name="reference.stability:normalized_sgd_stability_bound",
        fn=ref.normalized_sgd_stability_bound,
        make_args=lambda rng: (
            (),
            {"n": 20, "steps": 10, "learning_rate": 0.01, "smoothness": 1.0, "grad_lower": 0.5},
        ),
        arrays=(),
        scalars=(("grad_lower", (0.0, -1.0)), ("n", (0,))),
    ),
    BadInputCase(
        name="reference.stability:truncation_bounds",
        fn=ref.truncation_bounds,
        make_args=lambda rng: ((1.0, 1.5, 2.0), {}),
        arrays=(),
        scalars=((0, (-1.0,)), (1, (1.0, 2.5, math.nan)), (2, (0.0,))),
    ),
    BadInputCase(
        name="reference.stability:heavy_tailed_mean_bound",
        fn=ref.heavy_tailed_mean_bound,
        make_args=lambda rng: ((1.0, 1.5, 10), {}),
        arrays=(),
        scalars=((1, (1.0, 3.0)), (2, (0,)), ("tau", (0.0,))),
    ),
    BadInputCase(
        name="reference.stability:pareto_moment",
        fn=ref.pareto_moment,
        make_args=lambda rng: ((1.0,), {"tail": 1.5}),
        arrays=(),
        scalars=((0, (2.0, -1.0)), ("tail", (0.0,))),
    ),
    BadInputCase(
        name="reference.stability:pareto_tail_excess",
        fn=ref.pareto_tail_excess,
        make_args=lambda rng: ((2.0,), {"tail": 1.5}),
        arrays=(),
        scalars=((0, (0.5,)), ("tail", (1.0, 0.5))),
    ),
    BadInputCase(
        name="reference.stability:pareto_clipped_second_moment",
        fn=ref.pareto_clipped_second_moment,
        make_args=lambda rng: ((2.0,), {"tail": 1.5}),
        arrays=(),
        scalars=((0, (0.5, -1.0)), ("scale", (0.0,))),
    ),
    BadInputCase(
        name="reference.stability:student_t_abs_moment",
        fn=ref.student_t_abs_moment,
        make_args=lambda rng: ((1.2,), {"nu": 3.0}),
        arrays=(),
        scalars=((0, (3.0, -1.0)), ("nu", (0.0,))),
    ),
    BadInputCase(
        name="reference.stability:symmetric_pareto",
        fn=ref.symmetric_pareto,
        make_args=lambda rng: ((3,), {"tail": 1.5, "rng": np.random.default_rng(0)}),
        arrays=(),
        scalars=((0, (0, 1.5)), ("tail", (0.0,)), ("rng", (None, 3))),
    ),
    BadInputCase(
        name="reference.stability:pareto_vectors",
        fn=ref.pareto_vectors,
        make_args=lambda rng: ((3, 2), {"tail": 1.5, "rng": np.random.default_rng(0)}),
        arrays=(),
        scalars=((1, (0,)), ("scale", (-1.0,))),
    ),
    BadInputCase(
        name="reference.stability:student_t",
        fn=ref.student_t,
        make_args=lambda rng: ((3,), {"nu": 1.5, "rng": np.random.default_rng(0)}),
        arrays=(),
        scalars=(("nu", (0.0, math.inf)),),
    ),
    BadInputCase(
        name="reference.stability:example_gradients",
        fn=ref.example_gradients,
        make_args=_grad_args,
        arrays=(0, 1, 2),
        scalars=(("loss", ("hinge",)),),
    ),
    BadInputCase(
        name="reference.stability:neighbouring_dataset",
        fn=ref.neighbouring_dataset,
        make_args=_neigh_args,
        arrays=(0, 1, 3),
        scalars=((2, (-1, 99, 0.5)), (4, (math.nan,))),
    ),
    BadInputCase(
        name="reference.stability:sample_indices",
        fn=ref.sample_indices,
        make_args=lambda rng: ((5, 3), {"batch": 2, "rng": np.random.default_rng(0)}),
        arrays=(),
        scalars=((0, (0,)), (1, (-1,)), ("batch", (0,)), ("sampling", ("bootstrap",))),
    ),
    BadInputCase(
        name="reference.stability:train",
        fn=ref.train,
        make_args=_train_args,
        arrays=(1, 2, 3),
        scalars=((4, (np.array([0, 9]), np.array([0.5]))), ("loss", ("l1",))),
    ),
    BadInputCase(
        name="reference.stability:coupled_runs",
        fn=ref.coupled_runs,
        make_args=_coupled_args,
        arrays=(1, 2, 3, 4, 5),
        scalars=(("steps", (-1,)), ("runs", (0,))),
    ),
    BadInputCase(
        name="reference.stability:gradient_stability",
        fn=ref.gradient_stability,
        make_args=_probe_args,
        arrays=(0, 1, 2, 3),
    ),
    BadInputCase(
        name="reference.stability:gradient_generalization_gap",
        fn=ref.gradient_generalization_gap,
        make_args=_gen_args,
        arrays=(0, 1, 2, 3),
    ),
)
