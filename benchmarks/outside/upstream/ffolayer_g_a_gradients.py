"""FFOLayer's FFOQPLayer returns wrong gradients for G and A (standalone; no verifiedref).

Usage:
    python ffolayer_g_a_gradients.py /path/to/FFOLayer-checkout

Needs torch, numpy, scipy and cvxpy (the layer's own imports).  One small QP

    minimise  1/2 z^T Q z + p^T z   subject to  G z <= h,  A z = b

is built with a known solution: two of three inequality rows active with multipliers
lam = (1.3, 0.8), one equality row with multiplier nu = -0.6.  The layer's backward
(exact_bwd_sol=True, its default) is compared with central finite differences of
d^T z*(theta), where z* comes from an independent solver (the equality-constrained KKT
system on the known active set, checked to be the optimum).  The Lagrangian

    L = 1/2 z^T Q z + p^T z + lam^T (G z - h) + nu^T (A z - b)

gives dL/dG = lam dz^T + dlam z^T and dL/dA = nu dz^T + dnu z^T (Amos & Kolter 2017,
OptNet, eq. 8); the layer's backward builds dz^T Q z + p^T dz + dlam^T (G z - h) +
dnu^T (A z - b) and so returns dlam z^T and dnu z^T only.  The script prints, per block,
the largest error against finite differences, and the error after adding lam dz^T
(resp. nu dz^T) back.
"""

from __future__ import annotations

import sys

import numpy as np
import scipy.linalg
import torch


def instance() -> dict[str, np.ndarray]:
    """A QP with a known KKT point (z0, lam, nu); rows 0, 1 of G active, row 2 inactive."""
    rng = np.random.default_rng(7)
    n = 4
    M = rng.standard_normal((n, n))
    Q = M @ M.T + n * np.eye(n)
    G = rng.standard_normal((3, n))
    A = rng.standard_normal((1, n))
    z0 = rng.standard_normal(n)
    lam = np.array([1.3, 0.8, 0.0])
    nu = np.array([-0.6])
    h = G @ z0 + np.array([0.0, 0.0, 0.7])  # rows 0, 1 tight, row 2 slack 0.7
    b = A @ z0
    p = -(Q @ z0 + G.T @ lam + A.T @ nu)  # stationarity
    return {"Q": Q, "p": p, "G": G, "h": h, "A": A, "b": b, "z": z0, "lam": lam, "nu": nu}


def solve(*blocks: np.ndarray, active: tuple[int, ...] = (0, 1)) -> np.ndarray:
    """Independent solve of (Q, p, G, h, A, b): the KKT system on the active rows, then a
    check that it is optimal (primal feasible, multipliers >= 0)."""
    Q, p, G, h, A, b = blocks
    C = np.vstack([G[list(active)], A])
    rhs = np.concatenate([h[list(active)], b])
    n, k = Q.shape[0], C.shape[0]
    K = np.block([[Q, C.T], [C, np.zeros((k, k))]])
    sol = scipy.linalg.solve(K, np.concatenate([-p, rhs]))
    z: np.ndarray = sol[:n]
    w = sol[n:]
    assert np.all(G @ z <= h + 1e-9), "primal infeasible: active set changed"
    assert np.all(w[: len(active)] >= -1e-9), "negative multiplier: active set changed"
    return z


def main(path: str) -> None:
    sys.path.insert(0, f"{path}/src")
    from ffolayer.ffoqp_eq import (  # type: ignore[import-not-found]  # from the checkout
        FFOQPLayer,
    )

    qp = instance()
    d = np.array([1.0, -2.0, 0.5, 1.5])
    names = ("Q", "p", "G", "h", "A", "b")
    tensors = [torch.tensor(qp[k], dtype=torch.float64, requires_grad=True) for k in names]
    opts = {"verbose": False, "tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12}
    layer = FFOQPLayer(alpha=100.0, solver="CLARABEL", solver_opts=opts)
    z = layer(*tensors)
    z.backward(torch.tensor(d).reshape(z.shape))
    grads: dict[str, np.ndarray] = {}
    for k, t in zip(names, tensors, strict=True):
        assert t.grad is not None
        grads[k] = t.grad.detach().numpy().reshape(qp[k].shape)
    print(
        f"forward: max |z_layer - z_known| = {np.max(np.abs(z.detach().numpy().ravel() - qp['z'])):.2e}"
    )

    # exact dz = (dy*/dp)^T d by finite differences of the independent solver, then dlam, dnu
    eps = 1e-6
    args = {k: qp[k] for k in names}

    def value(name: str, direction: np.ndarray) -> float:
        plus = [args[k] + eps * direction if k == name else args[k] for k in names]
        minus = [args[k] - eps * direction if k == name else args[k] for k in names]
        return float(d @ (solve(*plus, active=(0, 1)) - solve(*minus, active=(0, 1))) / (2 * eps))

    fd: dict[str, np.ndarray] = {}
    for name in names:
        shape = qp[name].shape
        out = np.zeros(shape)
        for idx in np.ndindex(*shape):
            e = np.zeros(shape)
            e[idx] = 1.0
            if name == "Q":  # symmetric perturbations only
                e = 0.5 * (e + e.T)
            out[idx] = value(name, e)
        fd[name] = out
    dz = fd["p"]  # d(d^T z*)/dp = dz
    for name in names:
        got = grads[name]
        if name == "Q":
            got = 0.5 * (got + got.T)  # the layer's Q gradient is d_z z^T: judge its symmetric part
        scale = np.max(np.abs(fd[name]))
        err = np.max(np.abs(got - fd[name]))
        line = f"{name}: max |layer - finite differences| = {err:.2e} (scale {scale:.2f})"
        if name == "G":
            fixed = got + np.outer(qp["lam"], dz)
            line += f"; with lam dz^T added: {np.max(np.abs(fixed - fd[name])):.2e}"
        if name == "A":
            fixed = got + np.outer(qp["nu"], dz)
            line += f"; with nu dz^T added: {np.max(np.abs(fixed - fd[name])):.2e}"
        print(line)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
