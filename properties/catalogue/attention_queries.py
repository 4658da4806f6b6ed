"""Catalogue of the ``attention_queries`` family: ``ALGORITHMS`` (rows of ``verifiedref list``)
and ``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase
from properties.attention_queries import _S17
from reference import attention_queries as aq

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "UNCOVERED"]


def _alg(name: str, fn: str, suites: tuple[str, ...], paper: str = _S17) -> Algorithm:
    return Algorithm(name=name, function=fn, family="attention_queries", paper=paper, suites=suites)


ALGORITHMS = (
    _alg(
        "single attention head",
        "reference.attention_queries:attention_output",
        ("attention_queries.model", "bad_input", "hard_input"),
    ),
    _alg(
        "attention weights",
        "reference.attention_queries:attention_weights",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "multi-head attention",
        "reference.attention_queries:multihead_output",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "one-layer Transformer (bias-free)",
        "reference.attention_queries:one_layer_output",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "Algorithm A (exact, d^2 + d queries)",
        "reference.attention_queries:recover_exact",
        ("attention_queries.learner", "bad_input", "hard_input"),
    ),
    _alg(
        "Algorithm B (low rank, ROP + nuclear norm)",
        "reference.attention_queries:recover_low_rank",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "nuclear-norm minimisation under ROP constraints (ADMM, Algorithm B step 3)",
        "reference.attention_queries:nuclear_norm_admm",
        ("attention_queries.nuclear_norm", "bad_input", "hard_input"),
    ),
    _alg(
        "nuclear-norm proximal-gradient heuristic (spec's suggestion, comparison only)",
        "reference.attention_queries:nuclear_norm_fista",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "Algorithm C (noisy oracle)",
        "reference.attention_queries:recover_noisy",
        ("attention_queries.noisy_learner", "bad_input", "hard_input"),
    ),
    _alg(
        "Algorithm D (one-layer Transformer)",
        "reference.attention_queries:recover_one_layer",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "multi-head non-identifiability witnesses",
        "reference.attention_queries:multihead_witnesses",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "passive least-squares fit (baseline, ours)",
        "reference.attention_queries:passive_fit",
        ("bad_input", "hard_input"),
        paper="ours (Bhattamishra et al., ICML 2026 baseline)",
    ),
    _alg(
        "explicit noisy error bounds",
        "reference.attention_queries:noisy_error_bounds",
        ("bad_input", "hard_input"),
    ),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.attention_queries:attention_weights": "utility",
    "reference.attention_queries:multihead_output": "utility",
    "reference.attention_queries:nuclear_norm_admm": "inner",
    "reference.attention_queries:nuclear_norm_fista": "baseline",
    "reference.attention_queries:one_layer_output": "utility",
    "reference.attention_queries:passive_fit": "baseline",
    "reference.attention_queries:attention_output": "utility",
}


Args = tuple[tuple[Any, ...], dict[str, Any]]


def _model_args(rng: np.random.Generator) -> Args:
    return (rng.standard_normal((3, 2)), rng.standard_normal((2, 2)), rng.standard_normal(2)), {}


def _oracle(rng: np.random.Generator, d: int = 2) -> aq.AttentionOracle:
    return aq.AttentionOracle(0.5 * rng.standard_normal((d, d)), 1.0 + rng.uniform(0, 1, d))


def _oracle_args(extra: tuple[Any, ...] = (), **kw: Any) -> Callable[[np.random.Generator], Args]:
    def make(rng: np.random.Generator) -> Args:
        return (_oracle(rng), *extra), dict(kw)

    return make


def _low_rank_args(rng: np.random.Generator) -> Args:
    return (_oracle(rng), 1), {"rng": rng, "max_iter": 50}


def _passive_args(rng: np.random.Generator) -> Args:
    return (_oracle(rng), 5), {"rng": rng, "max_iter": 5}


def _witness_args(rng: np.random.Generator) -> Args:
    return (rng.standard_normal((2, 2)), rng.standard_normal(2)), {
        "shift": rng.uniform(0.5, 1.0, 2),
        "other_W": rng.standard_normal((2, 2)) + 5.0,
    }


_NOT_CALLABLE = (None, 3.0, "oracle")
BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.attention_queries:attention_output",
        fn=aq.attention_output,
        make_args=_model_args,
        arrays=(0, 1, 2),
    ),
    BadInputCase(
        name="reference.attention_queries:attention_weights",
        fn=aq.attention_weights,
        make_args=lambda rng: (_model_args(rng)[0][:2], {}),
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.attention_queries:multihead_output",
        fn=aq.multihead_output,
        make_args=lambda rng: (
            (
                rng.standard_normal((3, 2)),
                rng.standard_normal((2, 2, 2)),
                rng.standard_normal((2, 2)),
            ),
            {},
        ),
        arrays=(0, 1, 2),
    ),
    BadInputCase(
        name="reference.attention_queries:one_layer_output",
        fn=aq.one_layer_output,
        make_args=lambda rng: (
            (
                rng.standard_normal((3, 2)),
                rng.standard_normal((2, 2)),
                rng.standard_normal((2, 2)),
                rng.standard_normal((4, 2)),
                rng.standard_normal(4),
            ),
            {},
        ),
        arrays=(0, 1, 2, 3, 4),
    ),
    BadInputCase(
        name="reference.attention_queries:AttentionOracle",
        fn=aq.AttentionOracle,
        make_args=lambda rng: ((rng.standard_normal((2, 2)), rng.standard_normal(2)), {}),
        arrays=(0, 1),
        scalars=(("tau", (-1.0, math.nan, "x")), ("noise", ("gaussian", np.array([2.0])))),
    ),
    BadInputCase(
        name="reference.attention_queries:recover_exact",
        fn=aq.recover_exact,
        make_args=_oracle_args(),
        arrays=(),
        scalars=((0, _NOT_CALLABLE), ("scale", (0.0, -1.0, math.nan)), ("d", (0, -2))),
    ),
    BadInputCase(
        name="reference.attention_queries:recover_low_rank",
        fn=aq.recover_low_rank,
        make_args=_low_rank_args,
        arrays=(),
        scalars=((1, (0, 3, -1, 1.5)), (0, _NOT_CALLABLE), ("max_iter", (0,))),
    ),
    BadInputCase(
        name="reference.attention_queries:nuclear_norm_admm",
        fn=aq.nuclear_norm_admm,
        make_args=lambda rng: (
            (rng.standard_normal((4, 2)), rng.standard_normal((4, 3)), rng.standard_normal(4)),
            {"max_iter": 50},
        ),
        arrays=(0, 1, 2),
        scalars=(("max_iter", (0, -1, 1.5)), ("tol", (0.0, -1.0, math.nan))),
    ),
    BadInputCase(
        name="reference.attention_queries:nuclear_norm_fista",
        fn=aq.nuclear_norm_fista,
        make_args=lambda rng: (
            (rng.standard_normal((3, 4)), rng.standard_normal(3), 2),
            {"max_iter": 20},
        ),
        arrays=(0, 1),
        scalars=((2, (0, -1, 1.5)), ("max_iter", (0,)), ("tol", (0.0, math.nan))),
    ),
    BadInputCase(
        name="reference.attention_queries:recover_noisy",
        fn=aq.recover_noisy,
        make_args=_oracle_args((0.01,), w_bound=3.0, mu=1.0),
        arrays=(),
        scalars=(
            (1, (-0.1, 0.5, 2.0, math.nan)),
            ("w_bound", (0.0, -1.0)),
            ("mu", (0.0, -1.0, 0.01)),
        ),
    ),
    BadInputCase(
        name="reference.attention_queries:recover_one_layer",
        fn=aq.recover_one_layer,
        make_args=_oracle_args(),
        arrays=(),
        scalars=((0, _NOT_CALLABLE),),
    ),
    BadInputCase(
        name="reference.attention_queries:multihead_witnesses",
        fn=aq.multihead_witnesses,
        make_args=_witness_args,
        arrays=(0, 1, "shift", "other_W"),
        scalars=(("shift", (np.zeros(2),)),),
    ),
    BadInputCase(
        name="reference.attention_queries:passive_fit",
        fn=aq.passive_fit,
        make_args=_passive_args,
        arrays=(),
        scalars=((1, (0, -1, 2.5)),),
    ),
    BadInputCase(
        name="reference.attention_queries:noisy_error_bounds",
        fn=aq.noisy_error_bounds,
        make_args=lambda rng: ((3, 0.01, 2.0, 1.0), {}),
        arrays=(),
        scalars=((0, (0, -1)), (1, (-0.1, 0.5)), (2, (0.0,)), (3, (0.0, -1.0))),
    ),
)
