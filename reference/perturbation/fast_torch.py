"""Torch form of :func:`reference.perturbation.fast.asymp_gda_batch`: many starts on CPU or GPU.

The ``k`` starts advance together as ``(k, m)`` / ``(k, n)`` tensors (float64 by default): the
x-side run ``x_a ← Π(x_a - η(A y_a + μ x_a))``, ``y_a ← Π(y_a + η Aᵀ x_a)`` and the mirrored run
of :func:`reference.perturbation.asymp_gda` (``variant`` as there), with Algorithm P applied to
every row (sort, cumulative sum, threshold).  A start whose stopping quantity is ``<= tol`` is
frozen (its rows are no longer updated) while the others continue.  The result is the numpy
:class:`reference.perturbation.fast.BatchResult`.  Only this module of the family imports torch.
"""

from __future__ import annotations

import math

import numpy as np
import torch
from numpy.typing import ArrayLike

from reference._arrays import FloatArray, require_int, require_positive
from reference.perturbation import base as ref
from reference.perturbation.base import DEFAULT_MAX_ITER, DEFAULT_TOL, MirrorOrder, Stop
from reference.perturbation.fast import BatchResult, _batch_result, _batch_starts

__all__ = ["asymp_gda_batch"]


def _project_rows(v: torch.Tensor) -> torch.Tensor:
    """Algorithm P on each row of ``v``."""
    k = v.shape[1]
    if k == 1:
        return torch.ones_like(v)
    u = torch.sort(v, dim=1, descending=True).values
    css = torch.cumsum(u, dim=1) - 1.0
    j = torch.arange(1, k + 1, dtype=v.dtype, device=v.device)
    positive = u - css / j > 0.0
    last = k - 1 - torch.argmax(positive.flip(1).to(torch.int8), dim=1)
    rho = torch.where(positive.any(dim=1), last + 1, torch.ones_like(last))
    tau = torch.gather(css, 1, (rho - 1)[:, None]) / rho[:, None].to(v.dtype)
    return torch.clamp(v - tau, min=0.0)


def _rows_dot(p: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    return (p * q).sum(dim=1)


def _rows_pgap(a: torch.Tensor, x: torch.Tensor, y: torch.Tensor, mu: float) -> torch.Tensor:
    ay = y @ a.T
    best = _project_rows(-ay / mu)
    upper = (x @ a).max(dim=1).values + 0.5 * mu * _rows_dot(x, x)
    lower = _rows_dot(best, ay) + 0.5 * mu * _rows_dot(best, best)
    return upper - lower


def _rows_fw(
    a: torch.Tensor, x: torch.Tensor, y: torch.Tensor, mu_x: float, mu_y: float
) -> torch.Tensor:
    gx = -(y @ a.T) - mu_x * x
    gy = x @ a - mu_y * y
    return (gx.max(dim=1).values - _rows_dot(gx, x)) + (gy.max(dim=1).values - _rows_dot(gy, y))


def asymp_gda_batch(
    payoff: ArrayLike,
    *,
    mu: float,
    x0s: ArrayLike | torch.Tensor,
    y0s: ArrayLike | torch.Tensor,
    step_size: float | None = None,
    max_iter: int = DEFAULT_MAX_ITER,
    tol: float | None = DEFAULT_TOL,
    variant: MirrorOrder = "official",
    stop: Stop = "gap",
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float64,
) -> BatchResult:
    """AsymP-GDA from each row of ``(x0s, y0s)`` in torch (see the module docstring).

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        mu: perturbation strength ``μ > 0``.
        x0s: ``(k, m)`` starts of the minimiser (rows on the simplex).
        y0s: ``(k, n)`` starts of the maximiser.
        step_size, max_iter, tol, variant, stop: as :func:`reference.perturbation.asymp_gda`.
        device: torch device of the run (``"cpu"``, ``"cuda"``).
        dtype: torch float dtype of the run (float64 by default).

    Returns:
        A :class:`reference.perturbation.fast.BatchResult` (numpy, float64).

    Raises:
        TypeError: non-numeric arguments.
        ValueError: as :func:`reference.perturbation.fast.asymp_gda_batch`.
    """
    a_np = ref._check_payoff(payoff)
    iters = require_int("max_iter", max_iter, minimum=0)
    tolerance = -math.inf if tol is None else require_positive("tol", tol)
    m = require_positive("mu", mu)
    order = ref._check_order(variant)
    quantity = ref._check_stop(stop)
    step = ref._step(a_np, step_size, m)
    xs_np = _batch_starts("x0s", x0s, a_np.shape[0])
    ys_np = _batch_starts("y0s", y0s, a_np.shape[1])
    if xs_np.shape[0] != ys_np.shape[0]:
        raise ValueError(
            f"x0s, y0s: expected the same number k >= 1 of rows, "
            f"got {xs_np.shape[0]} and {ys_np.shape[0]}"
        )
    a = torch.as_tensor(a_np, dtype=dtype, device=device)
    b = -a.T
    xa = torch.as_tensor(xs_np, dtype=dtype, device=device).clone()
    ya = torch.as_tensor(ys_np, dtype=dtype, device=device).clone()
    xb, yb = xa.clone(), ya.clone()

    def stopping(
        p: torch.Tensor, q: torch.Tensor, r: torch.Tensor, s: torch.Tensor
    ) -> torch.Tensor:
        if quantity == "frank_wolfe":
            return torch.maximum(_rows_fw(a, p, q, m, 0.0), _rows_fw(a, r, s, 0.0, m))
        return torch.maximum(_rows_pgap(a, p, q, m), _rows_pgap(b, s, r, m))

    gap = stopping(xa, ya, xb, yb)
    its = torch.zeros(xa.shape[0], dtype=torch.int64, device=device)
    active = gap > tolerance
    t = 0
    while t < iters and bool(active.any()):
        xa_n = _project_rows(xa - step * (ya @ a.T + m * xa))
        ya_n = _project_rows(ya + step * (xa_n @ a))
        if order == "y_first":
            yb_n = _project_rows(yb + step * (xb @ a - m * yb))
            xb_n = _project_rows(xb - step * (yb_n @ a.T))
        else:
            xb_n = _project_rows(xb - step * (yb @ a.T))
            yb_n = _project_rows(yb + step * (xb_n @ a - m * yb))
        keep = active[:, None]
        xa = torch.where(keep, xa_n, xa)
        ya = torch.where(keep, ya_n, ya)
        xb = torch.where(keep, xb_n, xb)
        yb = torch.where(keep, yb_n, yb)
        its = its + active.to(torch.int64)
        gap = torch.where(active, stopping(xa, ya, xb, yb), gap)
        active = gap > tolerance
        t += 1

    def out(v: torch.Tensor) -> FloatArray:
        return np.asarray(v.detach().to("cpu", torch.float64).numpy(), dtype=np.float64)

    return _batch_result(
        a_np,
        out(xa),
        out(yb),
        out(gap),
        np.asarray(its.cpu().numpy(), dtype=np.int64),
        tolerance,
        m,
        step,
    )
