"""Catalogue of the ``qp_layers`` family: ``ALGORITHMS`` (rows of ``verifiedref list``),
``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite) and ``HARD_EXTRAS``
(hard instances and stopping rules that the ``hard_input`` suite adds to them)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from properties._records import Algorithm, Args, BadInputCase, HardExtra, HardInstance
from reference import qp_layers
from reference.qp_layers.instances import QPInstance, planted_qp

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "HARD_EXTRAS", "UNCOVERED"]


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


# ----------------------------------------------------------------- hard-input rows
# Valid instances that are hard in a way a generic transform cannot make (smallest sizes,
# extreme scales, near-singular systems, the default caps), results documented to hold
# +-inf, and stopping rules that recompute the stopping quantity from the returned output
# with a routine of their own (never the result's fields).
def _qp(q_mat: Any, q: Any, g: Any, h: Any) -> Args:
    return tuple(np.asarray(v, dtype=np.float64) for v in (q_mat, q, g, h)), {}


def _qp_instances() -> tuple[HardInstance, ...]:
    return (
        HardInstance(label="n = 1", make_args=lambda r: _qp([[2.0]], [1.0], [[-1.0]], [-0.5])),
        HardInstance(
            label="nearly singular Q = diag(1, 1e-10)",
            make_args=lambda r: _qp(
                np.diag([1.0, 1e-10]), [-1.0, -1.0], np.vstack([np.eye(2), -np.eye(2)]), np.ones(4)
            ),
        ),
        HardInstance(
            label="nearly infeasible: 0 <= y_0 <= 1e-12",
            make_args=lambda r: _qp(
                np.eye(3), r.normal(size=3), [[1.0, 0, 0], [-1.0, 0, 0]], [1e-12, 0.0]
            ),
        ),
        HardInstance(
            label="duplicated (rank-deficient) inequality rows, active",
            make_args=lambda r: _qp(np.eye(2), [-2.0, -2.0], [[1.0, 1.0]] * 3, [1.0] * 3),
        ),
        HardInstance(
            label="Q of order 1e8, q of order 1",
            make_args=lambda r: _qp(1e8 * np.eye(3), r.normal(size=3), -np.eye(3), np.ones(3)),
        ),
        HardInstance(
            label="q of order 1e-310 (subnormal), box |y| <= 0.5 (an overflow in the step rule)",
            make_args=lambda r: _qp(
                np.eye(2), [0.0, -1e-310], np.vstack([np.eye(2), -np.eye(2)]), 0.5 * np.ones(4)
            ),
        ),
        HardInstance(
            label="Q of order 1e-8 (solution far away), box |y| <= 1e3",
            make_args=lambda r: _qp(
                1e-8 * np.eye(2), [1.0, -1.0], np.vstack([np.eye(2), -np.eye(2)]), 1e3 * np.ones(4)
            ),
        ),
    )


HARD_EXTRAS: tuple[HardExtra, ...] = (
    HardExtra(name="reference.qp_layers:solve_qp", instances=_qp_instances()),
    HardExtra(name="reference.qp_layers:solve_qp_active_set", instances=_qp_instances()),
)
