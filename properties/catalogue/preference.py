"""Catalogue of the ``preference`` family: ``ALGORITHMS`` (rows of ``verifiedref list``),
``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite) and ``HARD_EXTRAS``
(hard instances and stopping rules that the ``hard_input`` suite adds to them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from properties._records import Algorithm, Args, BadInputCase, HardExtra, HardInstance
from reference import preference as pf
from reference._arrays import FloatArray

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "HARD_EXTRAS"]


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


# ----------------------------------------------------------------- hard-input rows
# Valid instances that are hard in a way a generic transform cannot make (smallest sizes,
# extreme scales, near-singular systems, the default caps), results documented to hold
# +-inf, and stopping rules that recompute the stopping quantity from the returned output
# with a routine of their own (never the result's fields).
def _link_values(psi_name: str, z: object) -> FloatArray:
    """``implied_link(ψ)(z)`` for a named ψ of :mod:`reference.preference`."""
    import reference.preference as pref

    values = pref.implied_link(getattr(pref, psi_name))(np.asarray(z, dtype=np.float64))
    out: FloatArray = np.asarray(values, dtype=np.float64)
    return out


def _link_args(z: FloatArray, psi: str = "SOFTPLUS") -> Args:
    return (psi, z), {}


def _embedded_values(psi_name: str, link_name: str, qs: object, closed: bool) -> FloatArray:
    """``(ℓ_0(q), ℓ_1(q))`` for each ``q`` of the loss ``embed_psi(ψ, F̃)`` built from a named
    ψ of :mod:`reference.preference` (with its derivative) and the link σ or Φ."""
    import math

    import reference.preference as pref

    psi = getattr(pref, psi_name)
    links: dict[str, Callable[[float], float]] = {
        "sigmoid": lambda z: (
            1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))
        ),
        "probit": lambda z: 0.5 * math.erfc(-z / math.sqrt(2.0)),
    }
    loss = pref.embed_psi(
        lambda z: float(psi.fn(z)),
        links[link_name],
        psi_prime=lambda z: float(psi.derivative(z)),
        closed=closed,
    )
    points = [float(q) for q in np.asarray(qs, dtype=np.float64).ravel()]
    out: FloatArray = np.array([[loss.ell0(q), loss.ell1(q)] for q in points])
    return out


def _embed_args(
    qs: list[float], psi: str = "SOFTPLUS", link: str = "sigmoid", closed: bool = False
) -> Callable[[np.random.Generator], Args]:
    return lambda r: ((psi, link, np.array(qs), closed), {})


EMBED_PSI_EXTRA = HardExtra(
    name="reference.preference:embed_psi",
    fn=_embedded_values,
    make_args=_embed_args([0.1, 0.5, 0.9]),
    arrays=(2,),
    instances=(
        HardInstance(
            label="q within 1e-8 of 0 and of 1", make_args=_embed_args([1e-8, 0.5, 1.0 - 1e-8])
        ),
        HardInstance(label="q = 1/2 exactly (ℓ_1 = 0)", make_args=_embed_args([0.5])),
        HardInstance(
            label="savage ψ with the probit link, near ties q = 0.5 ± 1e-12",
            make_args=_embed_args([0.5 - 1e-12, 0.5 + 1e-12], "SAVAGE", "probit"),
        ),
        HardInstance(
            label="closed interval (sigmoid ψ, finite end values)",
            make_args=_embed_args([1e-6, 0.3, 0.999], "SIGMOID", closed=True),
        ),
    ),
)


HARD_EXTRAS: tuple[HardExtra, ...] = (
    HardExtra(
        name="reference.preference:implied_link",
        fn=_link_values,
        make_args=lambda r: _link_args(r.normal(size=7)),
        arrays=(1,),
        instances=(
            HardInstance(
                label="|z| up to 1e300, softplus",
                make_args=lambda r: _link_args(np.array([-1e300, -1e3, 0.0, 1e3, 1e300])),
            ),
            HardInstance(
                label="logistic ψ = σ (F ≡ 1/2), z of order 1e3",
                make_args=lambda r: _link_args(1e3 * r.normal(size=5), "SIGMOID"),
            ),
        ),
    ),
    EMBED_PSI_EXTRA,
)
