"""Batched PRM+ / RM+ and the batched duality gap in PyTorch (fast path of spec 01, Alg. 3).

Names mirror the reference: :func:`regret_trajectory` runs the dynamics of
:func:`reference.games.regret_trajectory` (simultaneous or alternating play,
prediction = last instantaneous regret, exactly ``iterations`` steps, no stopping
test) and :func:`duality_gap` is :func:`reference.games.duality_gap`, both batched
over a leading dimension ``B`` (a batch of games of one shape at once).  float64 by default (float32 allowed), explicit
``device``.  Cross-checked iterate for iterate against the numpy reference in
``tests/games/test_fastpath.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from reference._arrays import require_int

__all__ = ["BatchedRegretResult", "duality_gap", "regret_trajectory"]


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class BatchedRegretResult:
    """Result of :func:`regret_trajectory` (tensors on the requested device and dtype).

    Attributes:
        x_last: ``(B, m)`` last row strategies.
        y_last: ``(B, n)`` last column strategies.
        x_linear: ``(B, m)`` linear averages (weights ``t``).
        y_linear: ``(B, n)`` linear averages.
        x_uniform: ``(B, m)`` uniform averages.
        y_uniform: ``(B, n)`` uniform averages.
        states_x: ``(B, m)`` final clipped states.
        states_y: ``(B, n)`` final clipped states.
        gap_last: ``(B, T)`` gap of the last iterate after each step.
        gap_linear: ``(B, T)`` gap of the linear average after each step.
        xs: ``(B, T, m)`` every row iterate when ``record=True``, else ``None``.
        ys: ``(B, T, n)`` every column iterate when ``record=True``, else ``None``.
    """

    x_last: torch.Tensor
    y_last: torch.Tensor
    x_linear: torch.Tensor
    y_linear: torch.Tensor
    x_uniform: torch.Tensor
    y_uniform: torch.Tensor
    states_x: torch.Tensor
    states_y: torch.Tensor
    gap_last: torch.Tensor
    gap_linear: torch.Tensor
    xs: torch.Tensor | None
    ys: torch.Tensor | None


def _as_batch(payoff: object, *, device: str | torch.device, dtype: torch.dtype) -> torch.Tensor:
    if dtype not in (torch.float64, torch.float32):
        raise ValueError(f"dtype: expected torch.float64 or torch.float32, got {dtype}")
    if isinstance(payoff, torch.Tensor):
        if payoff.is_complex() or not (
            payoff.is_floating_point() or payoff.dtype in (torch.int32, torch.int64, torch.bool)
        ):
            raise TypeError(f"payoff: expected a real tensor, got dtype {payoff.dtype}")
        tensor = payoff.detach().to(device=device, dtype=dtype).clone()
    else:
        raw = np.asarray(payoff)
        if raw.dtype.kind not in "biuf":
            raise TypeError(f"payoff: expected a real numeric array, got dtype {raw.dtype}")
        tensor = torch.as_tensor(np.array(raw, dtype=np.float64), device=device).to(dtype)
    if tensor.ndim != 3 or min(tensor.shape) < 1:
        raise ValueError(
            f"payoff: expected a (B, m, n) batch with B, m, n >= 1, got shape {tuple(tensor.shape)}"
        )
    if not bool(torch.isfinite(tensor).all()):
        raise ValueError("payoff: expected finite values, got NaN/inf entries")
    return tensor


def _normalize(v: torch.Tensor) -> torch.Tensor:
    total = v.sum(dim=-1, keepdim=True)
    uniform = torch.full_like(v, 1.0 / v.shape[-1])
    safe = torch.where(total > 0, total, torch.ones_like(total))
    return torch.where(total > 0, v / safe, uniform)


def duality_gap(payoff: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Duality gap ``max_j (xᵀA)_j - min_i (Ay)_i``, batched over a leading dimension ``B``.

    The torch counterpart of :func:`reference.games.duality_gap` for a batch of games.

    Args:
        payoff: ``(B, m, n)`` real tensor (a batch of matrices ``A``).
        x: ``(B, m)`` row strategies.
        y: ``(B, n)`` column strategies.

    Returns:
        ``(B,)`` gaps, same dtype and device as ``payoff``.

    Raises:
        ValueError: mismatched shapes.

    Example:
        >>> a = torch.tensor([[[1.0, -1.0], [-1.0, 1.0]]], dtype=torch.float64)
        >>> duality_gap(a, torch.tensor([[1.0, 0.0]]).double(), torch.full((1, 2), 0.5).double())
        tensor([1.], dtype=torch.float64)
    """
    if (
        payoff.ndim != 3
        or x.shape != payoff.shape[:2]
        or y.shape != (payoff.shape[0], payoff.shape[2])
    ):
        raise ValueError(
            f"x, y: expected shapes {tuple(payoff.shape[:2])} and "
            f"{(payoff.shape[0], payoff.shape[2])}, got {tuple(x.shape)} and {tuple(y.shape)}"
        )
    upper = torch.einsum("bi,bij->bj", x, payoff).amax(dim=-1)
    lower = torch.einsum("bij,bj->bi", payoff, y).amin(dim=-1)
    return upper - lower


def regret_trajectory(
    payoff: object,
    *,
    iterations: int,
    predictive: bool = True,
    alternating: bool = False,
    record: bool = False,
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float64,
) -> BatchedRegretResult:
    """PRM+ (or RM+) self-play for ``iterations`` steps, batched over a leading dimension ``B``.

    The torch counterpart of :func:`reference.games.regret_trajectory` (same arguments
    plus ``record``, ``device`` and ``dtype``): no early stop, every game of the batch
    runs the same number of steps.  It returns the batch's final states, averages and
    gap histories, and every iterate only when ``record=True``.

    Per game and player: state ``R >= 0``, prediction ``m`` (the last instantaneous
    regret), strategy ``normalize(max(R + m, 0))`` (PRM+) or ``normalize(R)`` (RM+),
    update ``R <- max(R + r, 0)`` (spec 01, Algorithm 3).

    Args:
        payoff: ``(B, m, n)`` finite real batch of matrices ``A`` (array or tensor).
        iterations: number of steps ``T >= 1``.
        predictive: PRM+ (default) or RM+.
        alternating: alternating instead of simultaneous play.
        record: also return every iterate (``(B, T, m)``, ``(B, T, n)``).
        device: torch device.
        dtype: ``torch.float64`` (default) or ``torch.float32``.

    Returns:
        A :class:`BatchedRegretResult`.

    Raises:
        TypeError: non-numeric payoff, non-integer ``iterations`` or non-bool flags.
        ValueError: wrong shape, empty, non-finite, ``iterations < 1`` or unsupported dtype.

    Example:
        >>> a = torch.tensor([[[3.0, -1.0], [-2.0, 1.0]]], dtype=torch.float64)
        >>> res = regret_trajectory(a, iterations=500)
        >>> res.gap_linear.shape, bool(res.gap_linear[0, -1] < res.gap_linear[0, 0])
        (torch.Size([1, 500]), True)

    References:
        Farina, Kroer, Sandholm, AAAI 2021 (PRM+); spec 01 Algorithm 3 and Section 8
        (batched fast path).
    """
    for name, flag in (
        ("predictive", predictive),
        ("alternating", alternating),
        ("record", record),
    ):
        if not isinstance(flag, bool):
            raise TypeError(f"{name}: expected a bool, got {type(flag).__name__}")
    steps = require_int("iterations", iterations, minimum=1)
    a = _as_batch(payoff, device=device, dtype=dtype)
    b, m, n = a.shape
    kw: dict[str, Any] = {"device": a.device, "dtype": a.dtype}
    state_x, state_y = torch.zeros(b, m, **kw), torch.zeros(b, n, **kw)
    pred_x, pred_y = torch.zeros(b, m, **kw), torch.zeros(b, n, **kw)
    x, y = torch.full((b, m), 1.0 / m, **kw), torch.full((b, n), 1.0 / n, **kw)
    loss_next = torch.einsum("bij,bj->bi", a, y)
    sum_x, sum_y = torch.zeros(b, m, **kw), torch.zeros(b, n, **kw)
    lin_x, lin_y = torch.zeros(b, m, **kw), torch.zeros(b, n, **kw)
    lin_gain, lin_loss = torch.zeros(b, n, **kw), torch.zeros(b, m, **kw)
    gap_last = torch.zeros(b, steps, **kw)
    gap_linear = torch.zeros(b, steps, **kw)
    xs = torch.zeros(b, steps, m, **kw) if record else None
    ys = torch.zeros(b, steps, n, **kw) if record else None

    def strategy(state: torch.Tensor, pred: torch.Tensor) -> torch.Tensor:
        return _normalize(torch.clamp(state + pred, min=0.0) if predictive else state)

    weight = 0.0
    for t in range(steps):
        if not alternating:
            x = strategy(state_x, pred_x)
            y = strategy(state_y, pred_y)
            loss = torch.einsum("bij,bj->bi", a, y)
            gain = torch.einsum("bi,bij->bj", x, a)
            r_x = (loss * x).sum(-1, keepdim=True) - loss
            r_y = gain - (gain * y).sum(-1, keepdim=True)
            state_x = torch.clamp(state_x + r_x, min=0.0)
            state_y = torch.clamp(state_y + r_y, min=0.0)
        else:
            r_x = (loss_next * x).sum(-1, keepdim=True) - loss_next
            state_x = torch.clamp(state_x + r_x, min=0.0)
            if predictive:
                pred_x = r_x
            x = strategy(state_x, pred_x)
            gain = torch.einsum("bi,bij->bj", x, a)
            r_y = gain - (gain * y).sum(-1, keepdim=True)
            state_y = torch.clamp(state_y + r_y, min=0.0)
            if predictive:
                pred_y = r_y
            y = strategy(state_y, pred_y)
            loss = torch.einsum("bij,bj->bi", a, y)
            loss_next = loss
        if predictive and not alternating:
            pred_x, pred_y = r_x, r_y
        w = float(t + 1)
        weight += w
        sum_x, sum_y = sum_x + x, sum_y + y
        lin_x, lin_y = lin_x + w * x, lin_y + w * y
        lin_gain, lin_loss = lin_gain + w * gain, lin_loss + w * loss
        gap_last[:, t] = gain.amax(-1) - loss.amin(-1)
        gap_linear[:, t] = (lin_gain.amax(-1) - lin_loss.amin(-1)) / weight
        if xs is not None and ys is not None:
            xs[:, t], ys[:, t] = x, y
    return BatchedRegretResult(
        x_last=x,
        y_last=y,
        x_linear=lin_x / weight,
        y_linear=lin_y / weight,
        x_uniform=sum_x / steps,
        y_uniform=sum_y / steps,
        states_x=state_x,
        states_y=state_y,
        gap_last=gap_last,
        gap_linear=gap_linear,
        xs=xs,
        ys=ys,
    )
