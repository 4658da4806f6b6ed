"""Catalogue of the ``qp_layers`` family: ``ALGORITHMS`` (rows of ``verifiedref list``)
and ``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase
from reference import qp_layers
from reference.qp_layers.instances import QPInstance, planted_qp

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "UNCOVERED"]


_PAPER = "Zhao et al., FFOLayer (ICML 2026)"
ALGORITHMS = (
    Algorithm(
        name="QP forward solve (PDIPM + polish)",
        function="reference.qp_layers:solve_qp",
        family="qp_layers",
        paper=_PAPER + ", A0",
        suites=("qp_layers.solver", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="QP brute-force active-set oracle",
        function="reference.qp_layers:solve_qp_active_set",
        family="qp_layers",
        paper=_PAPER + ", A0 (test oracle)",
        suites=("qp_layers.solver", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="KKT implicit differentiation (OptNet)",
        function="reference.qp_layers:kkt_grads",
        family="qp_layers",
        paper=_PAPER + ", A1; Amos & Kolter (ICML 2017)",
        suites=("qp_layers.hypergradient", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="FFO hypergradient (FFOLayer)",
        function="reference.qp_layers:ffo_grads",
        family="qp_layers",
        paper=_PAPER + ", A2 / A2-FO",
        suites=("qp_layers.ffo", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="FFO inner solver (warm-started PGD)",
        function="reference.qp_layers:ghost_pgd",
        family="qp_layers",
        paper=_PAPER + ", A2-FO",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="penalty first-order hypergradient",
        function="reference.qp_layers:penalty_grads",
        family="qp_layers",
        paper=_PAPER + ", A4; Kornowski et al. (2024)",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="KKT residual",
        function="reference.qp_layers:kkt_residual",
        family="qp_layers",
        paper=_PAPER + ", Section 2",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="frozen active set",
        function="reference.qp_layers:active_set",
        family="qp_layers",
        paper=_PAPER + ", Section 2",
        suites=("bad_input", "hard_input"),
    ),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.qp_layers:kkt_residual": "utility",
    "reference.qp_layers:solve_qp_active_set": "oracle",
}


# ----------------------------------------------------------------------- bad-input cases
def _inst_from(rng: np.random.Generator) -> QPInstance:
    # every block present: the bad-input suite corrupts each of the six arrays
    n = int(rng.integers(3, 6))
    m = int(rng.integers(1, 5))
    k = int(rng.integers(0, min(m, n - 2) + 1))
    return planted_qp(rng, n=n, m=m, p=1, k=k)


def _qp_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    inst = _inst_from(rng)
    return inst.args(), {}


def _grad_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    inst = _inst_from(rng)
    return (*inst.args(), rng.standard_normal(inst.Q.shape[0])), {}


def _residual_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    inst = _inst_from(rng)
    return (*inst.args(), inst.y.copy(), inst.lam.copy(), inst.nu.copy()), {}


def _pgd_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    inst = _inst_from(rng)
    assert inst.G is not None
    assert inst.h is not None
    C = inst.G[inst.active] if inst.active.any() else inst.G[:1]
    c = C @ inst.y
    d = rng.standard_normal(inst.Q.shape[0])
    return (inst.Q, inst.q, C, c, d, inst.y.copy()), {"alpha": 100.0, "max_iter": 200}


def _active_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    m = int(rng.integers(1, 6))
    return (np.abs(rng.standard_normal(m)), np.abs(rng.standard_normal(m))), {}


_BAD_ALPHA: tuple[object, ...] = (0.0, -1.0, math.nan, math.inf, "100")
_QP_ARRAYS: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
_NO_BATCH = frozenset({"ndim_up"})  # one more axis is a legitimate batch
BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.qp_layers:solve_qp",
        fn=qp_layers.solve_qp,
        make_args=_qp_args,
        arrays=_QP_ARRAYS,
        skip=_NO_BATCH,
    ),
    BadInputCase(
        name="reference.qp_layers:solve_qp_active_set",
        fn=qp_layers.solve_qp_active_set,
        make_args=_qp_args,
        arrays=_QP_ARRAYS,
        skip=_NO_BATCH,
    ),
    BadInputCase(
        name="reference.qp_layers:kkt_grads",
        fn=qp_layers.kkt_grads,
        make_args=_grad_args,
        arrays=(*_QP_ARRAYS, 6),
        skip=_NO_BATCH,
        scalars=(("slack_tol", (-1.0, math.nan)),),
    ),
    BadInputCase(
        name="reference.qp_layers:ffo_grads",
        fn=qp_layers.ffo_grads,
        make_args=_grad_args,
        arrays=(*_QP_ARRAYS, 6),
        skip=_NO_BATCH,
        scalars=(("alpha", _BAD_ALPHA),),
    ),
    BadInputCase(
        name="reference.qp_layers:penalty_grads",
        fn=qp_layers.penalty_grads,
        make_args=_grad_args,
        arrays=(*_QP_ARRAYS, 6),
        skip=_NO_BATCH,
        scalars=(("penalty", _BAD_ALPHA),),
    ),
    BadInputCase(
        name="reference.qp_layers:ghost_pgd",
        fn=qp_layers.ghost_pgd,
        make_args=_pgd_args,
        arrays=(0, 1, 2, 3, 4, 5),
        scalars=(("alpha", _BAD_ALPHA), ("max_iter", (-1, 1.5)), ("tol", (0.0, math.nan))),
    ),
    BadInputCase(
        name="reference.qp_layers:kkt_residual",
        fn=qp_layers.kkt_residual,
        make_args=_residual_args,
        arrays=(0, 1, 2, 3, 4, 5, 6, 7, 8),
        skip=_NO_BATCH,
    ),
    BadInputCase(
        name="reference.qp_layers:active_set",
        fn=qp_layers.active_set,
        make_args=_active_args,
        arrays=(0, 1),
        scalars=(("slack_tol", (-1.0, math.nan)), ("dual_cutoff", (-1.0, math.inf))),
    ),
)
