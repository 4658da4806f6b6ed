"""Torch fast paths for the TSP family: batched heatmap symmetrisation, greedy-merge scoring
and batched best-improvement 2-opt.

Same names and semantics as the NumPy reference (:func:`reference.tsp.greedy_merge`,
:func:`reference.tsp.two_opt`; ``greedy_merge_order`` as ``reference.tsp.baselines``), batched
over a leading axis, on an
explicit ``device``, float64 by default.  In float64 the outputs equal the reference tour for
tour (same operation order, same first-minimum tie rule); ``tests/tsp/test_fastpath.py``
checks this on CPU and, when present, on CUDA.  Only the sequential fragment merge of the
greedy decoder runs on the host (it is inherently sequential); its pair order is computed on
the device.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import torch

from reference._arrays import require_int, require_positive
from reference.tsp.baselines import TWO_OPT_MAX_ITERATIONS, TWO_OPT_MIN_IMPROVEMENT, merge_in_order

__all__ = [
    "TwoOptBatchResult",
    "greedy_merge",
    "greedy_merge_order",
    "symmetrize_heatmaps",
    "two_opt",
]


def _as_batch(
    name: str, value: object, *, dtype: torch.dtype, device: str | torch.device
) -> torch.Tensor:
    """A ``(B, n, n)`` finite tensor (a single ``(n, n)`` matrix gets a batch axis)."""
    if isinstance(value, str | bytes) or value is None:
        raise TypeError(f"{name}: expected a real tensor or array, got {type(value).__name__}")
    if isinstance(value, torch.Tensor):
        if value.is_complex() or value.dtype == torch.bool:
            raise TypeError(f"{name}: expected a real floating tensor, got dtype {value.dtype}")
        tensor = value.detach().to(device=device, dtype=dtype)
    else:
        array = np.asarray(value)
        if array.dtype.kind not in "iuf":
            raise TypeError(f"{name}: expected a real numeric array, got dtype {array.dtype}")
        tensor = torch.as_tensor(array.astype(np.float64), device=device).to(dtype)
    if tensor.ndim == 2:
        tensor = tensor.unsqueeze(0)
    if tensor.ndim != 3 or tensor.shape[1] != tensor.shape[2] or tensor.shape[1] < 3:
        raise ValueError(
            f"{name}: expected a (B, n, n) or (n, n) tensor with n >= 3, got shape "
            f"{tuple(tensor.shape)}"
        )
    if tensor.shape[0] == 0:
        raise ValueError(f"{name}: expected a batch of at least one matrix, got shape (0, ...)")
    if not bool(torch.isfinite(tensor).all()):
        raise ValueError(f"{name}: expected finite values, got NaN/inf entries")
    if bool((tensor < 0).any()):
        raise ValueError(f"{name}: expected non-negative values, got min {float(tensor.min())!r}")
    return tensor


def symmetrize_heatmaps(
    raw: object,
    *,
    mode: Literal["directed", "mean"] = "directed",
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float64,
) -> torch.Tensor:
    """Batched heatmap symmetrisation (zero diagonal first), as ``prepare_heatmap(symmetrize=)``.

    ``directed``: ``clip(A + Aᵀ, 0, 1)`` (DIFUSCO); ``mean``: ``(A + Aᵀ)/2`` (SoftDist).

    Args:
        raw: ``(B, n, n)`` or ``(n, n)`` non-negative finite heatmaps (tensor or array).
        mode: ``"directed"`` or ``"mean"``.
        device: torch device of the output.
        dtype: floating dtype (float64 default).

    Returns:
        ``(B, n, n)`` symmetric heatmaps on ``device``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shape, non-finite or negative entries, unknown mode.

    Example:
        >>> x = symmetrize_heatmaps([[0, 1, 0], [0, 0, 1], [1, 0, 0]])
        >>> x[0].tolist()
        [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]]
    """
    if mode not in ("directed", "mean"):
        raise ValueError(f"mode: expected 'directed' or 'mean', got {mode!r}")
    a = _as_batch("raw", raw, dtype=dtype, device=device).clone()
    a.diagonal(dim1=1, dim2=2).zero_()
    s = a + a.transpose(1, 2)
    return s.clamp(0.0, 1.0) if mode == "directed" else s / 2.0


def greedy_merge_order(
    D: object,
    heatmap: object,
    *,
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float64,
) -> torch.Tensor:
    """Greedy-merge scoring on the device: flat pair indices by decreasing ``S_ab / w_ab``.

    ``S = X + Xᵀ``; ``w = 0`` with ``S > 0`` scores ``+inf``, ``0/0`` scores 0; stable sort;
    the diagonal is dropped.  Matches ``reference.tsp.baselines.greedy_merge_order``.

    Args:
        D: ``(B, n, n)`` or ``(n, n)`` distances.
        heatmap: ``(B, n, n)`` or ``(n, n)`` symmetric heatmaps.
        device: torch device.
        dtype: floating dtype (float64 default).

    Returns:
        ``(B, n² - n)`` int64 flat indices ``a·n + b`` on ``device``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes or values.
    """
    w = _as_batch("D", D, dtype=dtype, device=device)
    x = _as_batch("heatmap", heatmap, dtype=dtype, device=device)
    if x.shape != w.shape:
        raise ValueError(f"heatmap: expected shape {tuple(w.shape)} like D, got {tuple(x.shape)}")
    batch, n, _ = w.shape
    s = x + x.transpose(1, 2)
    score = torch.where(s > 0, s / w, torch.zeros((), dtype=dtype, device=device))
    order = torch.argsort(-score.reshape(batch, n * n), dim=1, stable=True)
    keep = (order // n) != (order % n)
    return order[keep].reshape(batch, n * n - n)


def greedy_merge(
    D: object,
    heatmap: object,
    *,
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float64,
) -> torch.Tensor:
    """Greedy edge merge (B1), batched over a leading axis: device scoring, host fragment merge.

    The torch counterpart of :func:`reference.tsp.greedy_merge`.

    Args:
        D: ``(B, n, n)`` or ``(n, n)`` distances.
        heatmap: ``(B, n, n)`` or ``(n, n)`` symmetric heatmaps.
        device: torch device of the scoring and of the output.
        dtype: floating dtype (float64 default).

    Returns:
        ``(B, n)`` int64 tours (canonical form) on ``device``; equal to
        ``reference.tsp.greedy_merge`` instance by instance in float64.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes or values.
    """
    order = greedy_merge_order(D, heatmap, device=device, dtype=dtype).cpu().numpy()
    n = round((1 + (1 + 4 * order.shape[1]) ** 0.5) / 2)
    tours = np.stack([merge_in_order(n, row.astype(np.int64)) for row in order])
    return torch.as_tensor(tours, device=device)


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class TwoOptBatchResult:
    """Outcome of :func:`two_opt` (all tensors on the requested device).

    Attributes:
        tours: ``(B, n)`` int64 improved tours.
        lengths: ``(B,)`` their costs.
        iterations: ``(B,)`` int64 moves applied per instance.
        converged: ``(B,)`` bool, no move with ``Δ < -min_improvement`` left.
    """

    tours: torch.Tensor
    lengths: torch.Tensor
    iterations: torch.Tensor
    converged: torch.Tensor


def _gather_pairs(w: torch.Tensor, rows: torch.Tensor, cols: torch.Tensor) -> torch.Tensor:
    batch = torch.arange(w.shape[0], device=w.device)
    return w[batch[:, None, None], rows[:, :, None], cols[:, None, :]]


def two_opt(
    D: object,
    tour: object,
    *,
    max_iterations: int = TWO_OPT_MAX_ITERATIONS,
    min_improvement: float = TWO_OPT_MIN_IMPROVEMENT,
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float64,
) -> TwoOptBatchResult:
    """Best-improvement 2-opt batched over a leading axis (DIFUSCO ``batched_two_opt_torch``).

    The torch counterpart of :func:`reference.tsp.two_opt`.

    Per instance and move: ``Δ_ij = w(t_i,t_j) + w(t_{i+1},t_{j+1}) - w(t_i,t_{i+1}) -
    w(t_j,t_{j+1})`` for ``j >= i + 2`` (others 0); the first minimum in row-major order; if
    ``Δ < -min_improvement`` reverse ``t[i+1 .. j]``.  All moves of the batch are evaluated in
    one ``(B, n, n)`` tensor per step; finished instances are frozen.

    Args:
        D: ``(B, n, n)`` or ``(n, n)`` distances.
        tour: ``(B, n)`` or ``(n,)`` integer permutations (start tours).
        max_iterations: cap on the moves per instance (DIFUSCO default 1000).
        min_improvement: improvement threshold (DIFUSCO 1e-6).
        device: torch device.
        dtype: floating dtype (float64 default).

    Returns:
        A :class:`TwoOptBatchResult`; in float64 each tour equals ``reference.tsp.two_opt``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, tours that are not permutations, bad parameters.
    """
    w = _as_batch("D", D, dtype=dtype, device=device)
    cap = require_int("max_iterations", max_iterations, minimum=0)
    eps = require_positive("min_improvement", min_improvement, allow_zero=True)
    raw = tour.detach().cpu().numpy() if isinstance(tour, torch.Tensor) else np.asarray(tour)
    if raw.dtype.kind not in "iu":
        raise TypeError(f"tour: expected integer tours, got dtype {raw.dtype}")
    if raw.ndim == 1:
        raw = raw[None, :]
    batch, n = w.shape[0], w.shape[1]
    if raw.shape != (batch, n):
        raise ValueError(f"tour: expected shape ({batch}, {n}), got {raw.shape}")
    if not bool(np.all(np.sort(raw, axis=1) == np.arange(n))):
        raise ValueError(f"tour: expected permutations of range({n})")
    t = torch.as_tensor(raw.astype(np.int64), device=device)
    iterations = torch.zeros(batch, dtype=torch.int64, device=device)
    converged = torch.zeros(batch, dtype=torch.bool, device=device)
    active = torch.ones(batch, dtype=torch.bool, device=device)
    positions = torch.arange(n, device=device)
    batch_index = torch.arange(batch, device=device)
    while bool(active.any()):
        t1 = torch.roll(t, -1, dims=1)
        edge = w[batch_index[:, None], t, t1]
        delta = _gather_pairs(w, t, t) + _gather_pairs(w, t1, t1)
        delta = delta - edge[:, :, None]
        delta = delta - edge[:, None, :]
        delta = torch.triu(delta, diagonal=2)
        flat = torch.argmin(delta.reshape(batch, n * n), dim=1)
        best = delta.reshape(batch, n * n).gather(1, flat[:, None])[:, 0]
        done = best >= -eps
        converged = converged | (active & done)
        active = active & ~done & (iterations < cap)
        if not bool(active.any()):
            break
        i = flat // n
        j = flat % n
        inside = (positions[None, :] >= i[:, None] + 1) & (positions[None, :] <= j[:, None])
        inside = inside & active[:, None]
        source = torch.where(inside, i[:, None] + 1 + j[:, None] - positions[None, :], positions)
        t = torch.gather(t, 1, source)
        iterations = iterations + active.to(torch.int64)
    lengths = w[batch_index[:, None], t, torch.roll(t, -1, dims=1)].sum(dim=1)
    return TwoOptBatchResult(tours=t, lengths=lengths, iterations=iterations, converged=converged)
