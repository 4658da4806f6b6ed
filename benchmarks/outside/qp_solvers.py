"""cvxpy, qpth and cvxpylayers as ``qp_layers.solver`` targets.

cvxpy returns the dual values of its constraints, so it runs with multipliers; qpth's and
cvxpylayers' public APIs return the primal solution only and run with capability
``primal_only`` (the suite recovers the multipliers from ``x``).  All three solve
``min ½ xᵀQx + qᵀx  s.t.  Gx <= h, Ax = b``; absent blocks are ``None``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from benchmarks.outside._load import load
from reference._arrays import FloatArray

__all__ = ["cvxpy_qp", "cvxpylayers_qp", "qpth_qp"]


def _blocks(
    G: FloatArray | None, h: FloatArray | None, A: FloatArray | None, b: FloatArray | None
) -> tuple[FloatArray | None, FloatArray | None, FloatArray | None, FloatArray | None]:
    def arr(v: FloatArray | None) -> FloatArray | None:
        return None if v is None else np.asarray(v, dtype=np.float64)

    return arr(G), arr(h), arr(A), arr(b)


def cvxpy_qp(
    Q: FloatArray,
    q: FloatArray,
    G: FloatArray | None,
    h: FloatArray | None,
    A: FloatArray | None,
    b: FloatArray | None,
    /,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``cvxpy.Problem(Minimize(½ xᵀQx + qᵀx), [Gx <= h, Ax == b]).solve()`` with the default
    solver; ``(x, lam, nu)`` from the constraints' ``dual_value``."""
    cp = load("cvxpy")
    Qa, qa = np.asarray(Q, dtype=np.float64), np.asarray(q, dtype=np.float64)
    Ga, ha, Aa, ba = _blocks(G, h, A, b)
    x = cp.Variable(qa.shape[0])
    constraints: list[Any] = []
    if Ga is not None and ha is not None and Ga.shape[0]:
        constraints.append(Ga @ x <= ha)
    if Aa is not None and ba is not None and Aa.shape[0]:
        constraints.append(Aa @ x == ba)
    objective = cp.Minimize(0.5 * cp.quad_form(x, cp.psd_wrap(0.5 * (Qa + Qa.T))) + qa @ x)
    cp.Problem(objective, constraints).solve()
    m = 0 if Ga is None else Ga.shape[0]
    p = 0 if Aa is None else Aa.shape[0]
    lam = np.asarray(constraints[0].dual_value, dtype=np.float64) if m else np.zeros(0)
    nu = np.asarray(constraints[-1].dual_value, dtype=np.float64) if p else np.zeros(0)
    return np.asarray(x.value, dtype=np.float64), lam, nu


def qpth_qp(
    Q: FloatArray,
    q: FloatArray,
    G: FloatArray | None,
    h: FloatArray | None,
    A: FloatArray | None,
    b: FloatArray | None,
    /,
) -> FloatArray:
    """``qpth.qp.QPFunction(verbose=-1)(Q, q, G, h, A, b)`` in float64; primal ``x`` only.
    qpth needs an inequality block: an absent one is passed as the vacuous ``0·x <= 1``."""
    import torch

    QPFunction = load("qpth.qp").QPFunction
    n = np.asarray(q).shape[0]
    Ga, ha, Aa, ba = _blocks(G, h, A, b)
    if Ga is None or ha is None or Ga.shape[0] == 0:
        Ga, ha = np.zeros((1, n)), np.ones(1)
    t = torch.from_numpy
    empty = torch.empty(0, dtype=torch.float64)
    x = QPFunction(verbose=-1)(
        t(np.asarray(Q, dtype=np.float64)),
        t(np.asarray(q, dtype=np.float64)),
        t(Ga),
        t(ha),
        empty if Aa is None or Aa.shape[0] == 0 else t(Aa),
        empty if ba is None or ba.shape[0] == 0 else t(ba),
    )
    out: FloatArray = x.detach().numpy().reshape(n).astype(np.float64)
    return out


def cvxpylayers_qp(
    Q: FloatArray,
    q: FloatArray,
    G: FloatArray | None,
    h: FloatArray | None,
    A: FloatArray | None,
    b: FloatArray | None,
    /,
) -> FloatArray:
    """A ``cvxpylayers.torch.CvxpyLayer`` over the QP with ``(L, q, h, b)`` as parameters
    (``Q = LLᵀ`` by Cholesky, so the problem is DPP); primal ``x`` only."""
    import torch

    cp = load("cvxpy")
    CvxpyLayer = load("cvxpylayers.torch").CvxpyLayer
    Qa, qa = np.asarray(Q, dtype=np.float64), np.asarray(q, dtype=np.float64)
    Ga, ha, Aa, ba = _blocks(G, h, A, b)
    n = qa.shape[0]
    L = np.linalg.cholesky(0.5 * (Qa + Qa.T))
    x = cp.Variable(n)
    Lp, qp_ = cp.Parameter((n, n)), cp.Parameter(n)
    params: list[Any] = [Lp, qp_]
    values: list[Any] = [L, qa]
    constraints: list[Any] = []
    if Ga is not None and ha is not None and Ga.shape[0]:
        hp = cp.Parameter(Ga.shape[0])
        constraints.append(Ga @ x <= hp)
        params.append(hp)
        values.append(ha)
    if Aa is not None and ba is not None and Aa.shape[0]:
        bp = cp.Parameter(Aa.shape[0])
        constraints.append(Aa @ x == bp)
        params.append(bp)
        values.append(ba)
    problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(Lp.T @ x) + qp_ @ x), constraints)
    layer = CvxpyLayer(problem, parameters=params, variables=[x])
    (sol,) = layer(*(torch.from_numpy(v) for v in values))
    out: FloatArray = sol.detach().numpy().astype(np.float64)
    return out
