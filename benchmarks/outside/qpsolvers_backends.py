"""qpsolvers (https://github.com/qpsolvers/qpsolvers), a wrapper over many QP backends, and
proxsuite's ProxQP called directly, as ``qp_layers.solver`` targets.

qpsolvers' ``solve_problem`` returns a ``Solution`` with ``x``, ``z`` (inequality multipliers)
and ``y`` (equality multipliers) for ``min ½ xᵀPx + qᵀx  s.t.  Gx <= h, Ax = b``, the same
problem and sign convention as the suite's; absent blocks are ``None``.  ``x is None`` (the
backend found no solution) is returned as NaN so the suite reports it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from benchmarks.outside._load import load
from reference._arrays import FloatArray

__all__ = ["clarabel", "osqp", "proxqp", "proxsuite_direct"]


def _solve(
    backend: str,
    Q: FloatArray,
    q: FloatArray,
    G: FloatArray | None,
    h: FloatArray | None,
    A: FloatArray | None,
    b: FloatArray | None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    qps = load("qpsolvers")

    def arr(v: Any) -> Any:
        return None if v is None or np.asarray(v).size == 0 else np.asarray(v, dtype=np.float64)

    problem = qps.Problem(
        np.asarray(Q, dtype=np.float64),
        np.asarray(q, dtype=np.float64),
        arr(G),
        arr(h),
        arr(A),
        arr(b),
    )
    solution = qps.solve_problem(problem, solver=backend)
    n = np.asarray(q).shape[0]
    m = 0 if G is None else np.asarray(G).shape[0]
    p = 0 if A is None else np.asarray(A).shape[0]
    x = np.full(n, np.nan) if solution.x is None else np.asarray(solution.x, dtype=np.float64)
    lam = (
        np.zeros(0)
        if not m
        else np.asarray(solution.z if solution.z is not None else np.full(m, np.nan))
    )
    nu = (
        np.zeros(0)
        if not p
        else np.asarray(solution.y if solution.y is not None else np.full(p, np.nan))
    )
    return x, np.asarray(lam, dtype=np.float64), np.asarray(nu, dtype=np.float64)


def osqp(Q: FloatArray, q: FloatArray, G: Any, h: Any, A: Any, b: Any, /) -> tuple[Any, Any, Any]:
    """``qpsolvers.solve_problem(problem, solver="osqp")`` with the backend's defaults."""
    return _solve("osqp", Q, q, G, h, A, b)


def clarabel(
    Q: FloatArray, q: FloatArray, G: Any, h: Any, A: Any, b: Any, /
) -> tuple[Any, Any, Any]:
    """``qpsolvers.solve_problem(problem, solver="clarabel")`` with the backend's defaults."""
    return _solve("clarabel", Q, q, G, h, A, b)


def proxqp(Q: FloatArray, q: FloatArray, G: Any, h: Any, A: Any, b: Any, /) -> tuple[Any, Any, Any]:
    """``qpsolvers.solve_problem(problem, solver="proxqp")`` with the backend's defaults."""
    return _solve("proxqp", Q, q, G, h, A, b)


def proxsuite_direct(
    Q: FloatArray, q: FloatArray, G: Any, h: Any, A: Any, b: Any, /
) -> tuple[Any, Any, Any]:
    """``proxsuite.proxqp.dense.solve(H, g, A, b, C, l, u)`` called directly (``l = -inf``)."""
    dense = load("proxsuite").proxqp.dense
    n = np.asarray(q).shape[0]
    Ga = np.zeros((0, n)) if G is None else np.asarray(G, dtype=np.float64).reshape(-1, n)
    ha = np.zeros(0) if h is None else np.asarray(h, dtype=np.float64).reshape(-1)
    Aa = np.zeros((0, n)) if A is None else np.asarray(A, dtype=np.float64).reshape(-1, n)
    ba = np.zeros(0) if b is None else np.asarray(b, dtype=np.float64).reshape(-1)
    result = dense.solve(
        np.asarray(Q, dtype=np.float64),
        np.asarray(q, dtype=np.float64),
        Aa,
        ba,
        Ga,
        np.full(ha.shape[0], -1e20),
        ha,
    )
    return (
        np.asarray(result.x, dtype=np.float64),
        np.asarray(result.z, dtype=np.float64),
        np.asarray(result.y, dtype=np.float64),
    )
