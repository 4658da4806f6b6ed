"""Catalogue of the ``preference`` family: ``ALGORITHMS`` (rows of ``verifiedref list``)
and ``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite)."""

from __future__ import annotations

from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase
from reference import preference as pf

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES"]


_P = "Zhou et al., DPO Unchained (ICML 2026)"
ALGORITHMS = (
    Algorithm(
        name="DPO loss and ψ family (A1-A2)",
        function="reference.preference:dpo_loss",
        family="preference",
        paper=_P,
        suites=("preference.dpo_loss", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="generalised preference loss ψ(z + γ)",
        function="reference.preference:preference_loss",
        family="preference",
        paper=_P,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="implied two-sided link F_ψ",
        function="reference.preference:implied_link",
        family="preference",
        paper=_P,
        suites=("hard_input",),
    ),
    Algorithm(
        name="embedding of ψ into a proper loss (Thm 4.3)",
        function="reference.preference:embed_psi",
        family="preference",
        paper=_P,
        suites=("hard_input",),
    ),
    Algorithm(
        name="log / Brier / Matsushita proper losses",
        function="reference.preference:expected_loss",
        family="preference",
        paper=_P,
        suites=("preference.proper_loss", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="regret = Bregman (Thm 4.1)",
        function="reference.preference:bregman_divergence",
        family="preference",
        paper=_P,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="choice models BTL/Thurstone/Rao-Kupper/Davidson",
        function="reference.preference:choice_matrix",
        family="preference",
        paper=_P,
        suites=("preference.choice_link", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="lotteries (expandability)",
        function="reference.preference:lottery_matrix",
        family="preference",
        paper=_P,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="ordinal representability LP",
        function="reference.preference:representable",
        family="preference",
        paper=_P,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="optimal policy of the Bregman-regularised objective",
        function="reference.preference:optimal_policy",
        family="preference",
        paper=_P,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="tabular training loop (A6, Adam)",
        function="reference.preference:train_tabular_policy",
        family="preference",
        paper=_P,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="implicit reward (A1)",
        function="reference.preference:implicit_reward",
        family="preference",
        paper=_P,
        suites=("bad_input", "hard_input"),
    ),
)


# --------------------------------------------------------------------------------- bad input
def _dpo_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    n = int(rng.integers(1, 6))
    return tuple(-rng.uniform(0.1, 5.0, size=n) for _ in range(4)), {"beta": 0.1}


def _pref_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (rng.standard_normal(4), rng.standard_normal(4)), {"margin": 0.5}


def _expected_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (pf.LOG_LOSS, rng.uniform(0.1, 0.9, 5), rng.uniform(0.1, 0.9, 5)), {}


def _bregman_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    k = int(rng.integers(2, 6))
    return (pf.multiclass_brier_loss, rng.dirichlet(np.ones(k)), rng.dirichlet(np.ones(k))), {}


def _choice_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (rng.standard_normal(int(rng.integers(2, 6))), pf.btl_link()), {}


def _matrix_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (pf.choice_matrix(rng.standard_normal(3), pf.btl_link()),), {}


def _lottery_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (pf.choice_matrix(rng.standard_normal(3), pf.btl_link()), 0.3), {}


def _policy_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    k = int(rng.integers(2, 6))
    return (rng.standard_normal(k), rng.dirichlet(np.ones(k) * 2)), {"beta": 0.5}


def _reward_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    k = int(rng.integers(2, 6))
    return (rng.dirichlet(np.ones(k) * 2), rng.dirichlet(np.ones(k) * 2)), {"beta": 0.5}


def _tabular_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    pairs = np.column_stack(
        [rng.integers(0, 2, 6), np.zeros(6, dtype=np.int64), np.ones(6, dtype=np.int64)]
    )
    return (pairs, 2, 3), {"steps": 3}


_BETA = ("beta", (0.0, -1.0, float("nan"), float("inf"), "0.1", None))
BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.preference:dpo_loss",
        fn=pf.dpo_loss,
        make_args=_dpo_args,
        arrays=(0, 1, 2, 3),
        scalars=(_BETA, ("margin", (-0.5, float("nan")))),
    ),
    BadInputCase(
        name="reference.preference:preference_loss",
        fn=pf.preference_loss,
        make_args=_pref_args,
        arrays=(0, 1),
        scalars=(("margin", (-1.0, float("inf"), "1")),),
    ),
    BadInputCase(
        name="reference.preference:expected_loss",
        fn=pf.expected_loss,
        make_args=_expected_args,
        arrays=(1, 2),
        skip=frozenset({"ndim_up", "ndim_down", "empty"}),
    ),
    BadInputCase(
        name="reference.preference:bregman_divergence",
        fn=pf.bregman_divergence,
        make_args=_bregman_args,
        arrays=(1, 2),
    ),
    BadInputCase(
        name="reference.preference:choice_matrix",
        fn=pf.choice_matrix,
        make_args=_choice_args,
        arrays=(0,),
    ),
    BadInputCase(
        name="reference.preference:abstention",
        fn=pf.abstention,
        make_args=_matrix_args,
        arrays=(0,),
    ),
    BadInputCase(
        name="reference.preference:representable",
        fn=pf.representable,
        make_args=_matrix_args,
        arrays=(0,),
    ),
    BadInputCase(
        name="reference.preference:lottery_matrix",
        fn=pf.lottery_matrix,
        make_args=_lottery_args,
        arrays=(0,),
        scalars=((1, (0.0, 1.0, -0.2, float("nan"))),),
    ),
    BadInputCase(
        name="reference.preference:optimal_policy",
        fn=pf.optimal_policy,
        make_args=_policy_args,
        arrays=(0, 1),
        scalars=(_BETA, ("loss", ("hinge",))),
    ),
    BadInputCase(
        name="reference.preference:train_tabular_policy",
        fn=pf.train_tabular_policy,
        make_args=_tabular_args,
        arrays=(0,),
        scalars=((1, (0, -1, 1.5)), (2, (1, 0)), ("steps", (0, 2.5)), _BETA),
    ),
    BadInputCase(
        name="reference.preference:implicit_reward",
        fn=pf.implicit_reward,
        make_args=_reward_args,
        arrays=(0, 1),
        scalars=(_BETA,),
    ),
)
