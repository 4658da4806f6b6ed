"""Torch fast paths for the TSP family: batched heatmap symmetrisation, greedy-merge scoring,
batched best-improvement 2-opt, and the paper's threshold decoders batched (``threshold_decode``,
``sampled_decode``).

Same names and semantics as the NumPy reference (:func:`reference.tsp.greedy_merge`,
:func:`reference.tsp.two_opt`; ``greedy_merge_order`` as ``reference.tsp.baselines``), batched
over a leading axis, on an
explicit ``device``, float64 by default.  In float64 the outputs equal the reference tour for
tour (same operation order, same first-minimum tie rule); ``tests/tsp/test_fastpath.py``
checks this on CPU and, when present, on CUDA.  Only the sequential fragment merge of the
greedy decoder runs on the host (it is inherently sequential); its pair order is computed on
the device.

The threshold decoders: the threshold sets ``H_τ`` of every instance and draw are formed on the
device (pair values, drawn-level buckets, a stable sort, ``|H_τ|`` by a sorted search), the
repair of each instance (union-find, Kruskal connection, exact matching, Euler circuit; spec 10
§3.1) runs on the host with the shared core of the NumPy fast path
(:mod:`reference.tsp.fast_repair`, nested repairs shared across draws), and the optional 2-opt
polish is the batched :func:`two_opt`.  Tours equal :func:`reference.tsp.sampled_decode` /
:func:`reference.tsp.threshold_decode` instance by instance (``tests/tsp/test_torch_decoder.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import torch
from numpy.typing import ArrayLike

from reference._arrays import (
    IntArray,
    require_generator,
    require_int,
    require_positive,
    require_probability,
)
from reference._defaults import defaults_of
from reference._repr import summary_repr
from reference.tsp.base import as_distances, as_heatmap
from reference.tsp.baselines import TWO_OPT_MAX_ITERATIONS, TWO_OPT_MIN_IMPROVEMENT, merge_in_order
from reference.tsp.decode import sampled_decode as _reference_sampled_decode
from reference.tsp.decode import threshold_decode as _reference_threshold_decode
from reference.tsp.fast_repair import _KruskalOrder, _nested_repairs, _repair_from_edges

__all__ = [
    "TwoOptBatchResult",
    "greedy_merge",
    "greedy_merge_order",
    "sampled_decode",
    "symmetrize_heatmaps",
    "threshold_decode",
    "two_opt",
]

# The keyword defaults each decoder shares with its reference, read from the reference's signature.
_THRESHOLD_DECODE = defaults_of(_reference_threshold_decode)
_SAMPLED_DECODE = defaults_of(_reference_sampled_decode)


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
    raw: ArrayLike | torch.Tensor,
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
    D: ArrayLike | torch.Tensor,
    heatmap: ArrayLike | torch.Tensor,
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
    D: ArrayLike | torch.Tensor,
    heatmap: ArrayLike | torch.Tensor,
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


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class TwoOptBatchResult:
    """Outcome of :func:`two_opt`: :class:`reference.tsp.TwoOptResult`'s fields with a leading
    batch axis (all tensors on the requested device).

    Attributes:
        tour: ``(B, n)`` int64 improved tours.
        length: ``(B,)`` their costs.
        iterations: ``(B,)`` int64 moves applied per instance.
        converged: ``(B,)`` bool, no move with ``Δ < -min_improvement`` left.
        best_delta: ``(B,)`` the most negative ``Δ`` at each instance's last evaluation (the
            stopping quantity).
    """

    tour: torch.Tensor
    length: torch.Tensor
    iterations: torch.Tensor
    converged: torch.Tensor
    best_delta: torch.Tensor


def _gather_pairs(w: torch.Tensor, rows: torch.Tensor, cols: torch.Tensor) -> torch.Tensor:
    batch = torch.arange(w.shape[0], device=w.device)
    return w[batch[:, None, None], rows[:, :, None], cols[:, None, :]]


def two_opt(
    D: ArrayLike | torch.Tensor,
    tour: ArrayLike | torch.Tensor,
    *,
    max_iter: int = TWO_OPT_MAX_ITERATIONS,
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
        max_iter: cap on the moves per instance (DIFUSCO default 1000).
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
    cap = require_int("max_iter", max_iter, minimum=0)
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
    best_delta = torch.zeros(batch, dtype=w.dtype, device=device)
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
        best_delta = torch.where(active, best, best_delta)  # frozen instances keep theirs
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
    return TwoOptBatchResult(
        tour=t, length=lengths, iterations=iterations, converged=converged, best_delta=best_delta
    )


def _decoder_inputs(
    D: ArrayLike | torch.Tensor, heatmap: ArrayLike | torch.Tensor, device: str | torch.device
) -> tuple[list[np.ndarray], torch.Tensor]:
    """Host float64 distance matrices and the device float64 heatmaps of a batch, each
    instance validated by the reference's validators (same errors as the reference)."""
    w_batch = _as_batch("D", D, dtype=torch.float64, device="cpu").numpy()
    x_batch = _as_batch("heatmap", heatmap, dtype=torch.float64, device="cpu").numpy()
    if w_batch.shape != x_batch.shape:
        raise ValueError(f"heatmap: expected shape {w_batch.shape} like D, got {x_batch.shape}")
    distances = [as_distances("D", w) for w in w_batch]
    heats = [as_heatmap("heatmap", x, w.shape[0]) for x, w in zip(x_batch, distances, strict=True)]
    return distances, torch.as_tensor(np.stack(heats), device=device)


def _polish_batch(
    distances: list[np.ndarray],
    tours: list[IntArray],
    with_two_opt: bool,
    device: str | torch.device,
) -> torch.Tensor:
    """The tours on ``device``, after the batched 2-opt when ``with_two_opt`` (spec §3.4)."""
    stacked = torch.as_tensor(np.stack(tours).astype(np.int64), device=device)
    if not with_two_opt:
        return stacked
    return two_opt(np.stack(distances), stacked, device=device).tour


def _drawn_sets(
    heat: torch.Tensor, taus: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Device form of the drawn-level buckets of the NumPy fast path, for a whole batch.

    ``heat`` is ``(B, n, n)``, ``taus`` ``(B, k)``.  Every pair ``i < j`` gets the number of
    draws ``<= X_ij`` (a strictly increasing function of the number of distinct drawn levels
    ``<= X_ij``, so the stable sort by decreasing key gives the same order); ``H_τ`` is then a
    prefix of the sorted pairs of length ``|{X_ij >= τ}|``.  Returns the sorted pair indices
    ``(B, P)`` into ``triu_indices``, the pairs ``(2, P)`` and ``|H_τ|`` ``(B, k)``.
    """
    n = heat.shape[1]
    pairs = torch.triu_indices(n, n, offset=1, device=heat.device)
    values = heat[:, pairs[0], pairs[1]]  # (B, P), row-major pair order
    ordered_taus = torch.sort(taus, dim=1).values.contiguous()
    key = torch.searchsorted(ordered_taus, values.contiguous(), right=True)
    order = torch.sort(taus.shape[1] - key, dim=1, stable=True).indices
    sorted_values = torch.sort(values, dim=1).values.contiguous()
    sizes = values.shape[1] - torch.searchsorted(sorted_values, taus.contiguous(), right=False)
    return order, pairs, sizes


def sampled_decode(
    D: ArrayLike | torch.Tensor,
    heatmap: ArrayLike | torch.Tensor,
    *,
    k: int,
    rng: np.random.Generator,
    with_two_opt: bool = _SAMPLED_DECODE["with_two_opt"],
    device: str | torch.device = "cpu",
) -> torch.Tensor:
    """Best of ``k`` random threshold repairs (spec 10 §3.3), batched over a leading axis.

    The torch counterpart of :func:`reference.tsp.sampled_decode`: instance ``b`` draws its
    ``k`` levels ``τ = 1 - U[0, 1)`` from ``rng`` after instances ``0 .. b-1``, so the batch
    returns what calling the reference on each instance in turn with the same generator
    returns.  Threshold sets on the device, repairs on the host, optional batched 2-opt.

    Args:
        D: ``(B, n, n)`` or ``(n, n)`` distances (validated like the reference, per instance).
        heatmap: ``(B, n, n)`` or ``(n, n)`` symmetric heatmaps in ``[0, 1]``.
        k: number of thresholds per instance, ``>= 1``.
        rng: the random generator.
        with_two_opt: polish each best tour with 2-opt (DIFUSCO defaults).
        device: torch device of the threshold sets, the 2-opt and the output.

    Returns:
        ``(B, n)`` int64 tours on ``device``, float64 throughout.

    Raises:
        TypeError: non-numeric input or ``rng`` not a generator.
        ValueError: bad shapes or values, ``k < 1``.

    Example:
        >>> from reference.tsp.base import distance_matrix, tour_indicator
        >>> D = distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1]])
        >>> X = tour_indicator([0, 2, 1, 3])
        >>> sampled_decode(np.stack([D, D]), np.stack([X, X]), k=4, rng=np.random.default_rng(0)).tolist()
        [[0, 2, 1, 3], [0, 2, 1, 3]]
    """
    draws = require_int("k", k, minimum=1)
    require_generator("rng", rng)
    distances, heat = _decoder_inputs(D, heatmap, device)
    taus = np.stack([1.0 - rng.uniform(0.0, 1.0, size=draws) for _ in distances])
    order, pairs, sizes = _drawn_sets(heat, torch.as_tensor(taus, device=heat.device))
    order_host, pairs_host, sizes_host = (
        order.cpu().numpy(),
        pairs.cpu().numpy(),
        sizes.cpu().numpy(),
    )
    tours: list[IntArray] = []
    for w, rows, counts in zip(distances, order_host, sizes_host, strict=True):
        keep = rows[: int(counts.max())]
        iu, ju = pairs_host[0, keep].astype(np.int64), pairs_host[1, keep].astype(np.int64)
        distinct = sorted(set(counts.tolist()))
        results = dict(zip(distinct, _nested_repairs(w, iu, ju, distinct), strict=True))
        costs = np.array([results[size][1] for size in counts.tolist()])
        best = int(np.argmin(costs))  # ties: the earliest draw
        tours.append(results[int(counts[best])][0])
    return _polish_batch(distances, tours, with_two_opt, device)


def threshold_decode(
    D: ArrayLike | torch.Tensor,
    heatmap: ArrayLike | torch.Tensor,
    tau: float = _THRESHOLD_DECODE["tau"],
    *,
    with_two_opt: bool = _THRESHOLD_DECODE["with_two_opt"],
    device: str | torch.device = "cpu",
) -> torch.Tensor:
    """One threshold repair of ``H_τ = {ij : X_ij >= τ}`` per instance (spec 10 §3.1), batched.

    The torch counterpart of :func:`reference.tsp.threshold_decode`: the sets ``H_τ`` on the
    device, the repairs on the host, optional batched 2-opt.

    Args:
        D: ``(B, n, n)`` or ``(n, n)`` distances (validated like the reference, per instance).
        heatmap: ``(B, n, n)`` or ``(n, n)`` symmetric heatmaps in ``[0, 1]``.
        tau: the threshold, in ``(0, 1]``.
        with_two_opt: polish each tour with 2-opt (DIFUSCO defaults).
        device: torch device of the threshold sets, the 2-opt and the output.

    Returns:
        ``(B, n)`` int64 tours on ``device``, float64 throughout.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes or values, ``tau`` outside ``(0, 1]``.

    Example:
        >>> from reference.tsp.base import distance_matrix, tour_indicator
        >>> D = distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1]])
        >>> threshold_decode(D, tour_indicator([0, 2, 1, 3])).tolist()
        [[0, 2, 1, 3]]
    """
    level = require_probability("tau", tau, open_low=True)
    distances, heat = _decoder_inputs(D, heatmap, device)
    inside = torch.triu(heat >= level, diagonal=1)  # (B, n, n): H_τ of every instance
    batch, rows, cols = (t.cpu().numpy() for t in torch.nonzero(inside, as_tuple=True))
    tours: list[IntArray] = []
    for b, w in enumerate(distances):
        mine = batch == b  # torch.nonzero is row-major: the reference's (i, j) order
        edges = np.stack([rows[mine], cols[mine]], axis=1).astype(np.int64)
        tours.append(_repair_from_edges(w, edges, _KruskalOrder(w)).tour)
    return _polish_batch(distances, tours, with_two_opt, device)
