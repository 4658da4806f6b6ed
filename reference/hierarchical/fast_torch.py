"""PyTorch fast path for layerwise SGD on the residual label network, and the end-to-end baseline.

:func:`train_layerwise` (the reference's name) mirrors :func:`reference.hierarchical.train_layerwise` step for
step: the same numpy generator draws the initial weights and the per-epoch shuffles in the same
order, so in float64 the minibatch loss trajectories agree with the numpy reference to rounding
(tested to 1e-6 relative).  :func:`train_end_to_end` (no reference counterpart) is baseline B2 of spec 11 (the same
architecture with ``phi = tanh``, all blocks trained jointly on the sum of all label losses;
outcome reported, not asserted).

References:
    A. Daniely, "Deep Networks Learn Deep Hierarchical Models", ICML 2026, arXiv:2601.00455
    (in the spirit of; our formalisation, spec 11 §3).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import torch
from numpy.typing import ArrayLike
from torch import Tensor

from reference._arrays import FloatArray, readonly
from reference._repr import summary_repr
from reference.hierarchical.learning import (
    LayerwiseConfig,
    LayerwiseResult,
    ResidualBlock,
    ResidualLabelNet,
    _check_finite_sgd,
    _check_levels,
    _init_block,
    _pm_one,
)

__all__ = ["EndToEndResult", "train_end_to_end", "train_layerwise"]


def _tensor(a: FloatArray, device: str | torch.device, dtype: torch.dtype) -> Tensor:
    return torch.as_tensor(np.ascontiguousarray(a), dtype=dtype, device=device)


def _finite(tensors: Iterable[Tensor]) -> list[bool]:
    """Whether each tensor's entries are all finite (for :func:`_check_finite_sgd`)."""
    return [bool(torch.isfinite(t.detach()).all()) for t in tensors]


def _loss(o: Tensor, y: Tensor) -> Tensor:
    """Minibatch mean of the sum over labels of ``log(1 + exp(-y o))``."""
    return torch.nn.functional.softplus(-y * o).sum(dim=1).mean()


def train_layerwise(
    x: ArrayLike,
    levels: ArrayLike,
    *,
    rng: np.random.Generator,
    config: LayerwiseConfig | None = None,
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float64,
) -> LayerwiseResult:
    """Torch counterpart of :func:`reference.hierarchical.train_layerwise` (``torch.optim.SGD``).

    Same arguments and result (numpy arrays, moved to the host) plus ``device`` and ``dtype``.

    Raises:
        ValueError: as :func:`reference.hierarchical.train_layerwise`.

    Example:
        >>> from reference.hierarchical import make_xor_tree
        >>> tree = make_xor_tree(4, 128, rng=np.random.default_rng(0))
        >>> res = train_layerwise(tree.x, tree.levels, rng=np.random.default_rng(1),
        ...                             config=LayerwiseConfig(width=8, epochs=1))
        >>> len(res.net.blocks)
        2
    """
    xs = _pm_one("x", x)
    labels = _check_levels(xs, levels)
    cfg = LayerwiseConfig() if config is None else config
    sizes = tuple(int(lv.shape[1]) for lv in labels)
    d, n = int(xs.shape[1]), int(xs.shape[0])
    stream_width = d + sum(sizes)
    h = torch.zeros((n, stream_width), dtype=dtype, device=device)
    h[:, :d] = _tensor(xs, device, dtype)
    offset = d
    blocks: list[ResidualBlock] = []
    losses: list[FloatArray] = []
    batches: list[FloatArray] = []
    accuracy: list[float] = []
    for size, y_np in zip(sizes, labels, strict=True):
        init = _init_block(rng, stream_width, size, offset, cfg)
        params = {k: _tensor(v, device, dtype).requires_grad_() for k, v in init.items()}
        opt = torch.optim.SGD(list(params.values()), lr=cfg.learning_rate)
        y = _tensor(y_np, device, dtype)
        epoch_losses: list[float] = []
        batch_losses: list[float] = []
        for _ in range(cfg.epochs):
            order = torch.as_tensor(rng.permutation(n), device=device)
            total = 0.0
            for start in range(0, n, cfg.batch_size):
                idx = order[start : start + cfg.batch_size]
                opt.zero_grad()
                hb = h[idx]
                o = torch.relu(hb @ params["W1"] + params["c1"]) @ params["W2"] + params["c2"]
                loss = _loss(o, y[idx])
                loss.backward()  # type: ignore[no-untyped-call]
                opt.step()
                value = float(loss.detach())
                _check_finite_sgd(value, _finite(params.values()), cfg.learning_rate)
                batch_losses.append(value)
                total += value * int(idx.numel())
            epoch_losses.append(total / n)
        with torch.no_grad():
            o = torch.relu(h @ params["W1"] + params["c1"]) @ params["W2"] + params["c2"]
            pred = torch.sign(o)
            h[:, offset : offset + size] += pred
            accuracy.append(float((pred == y).to(dtype).mean()))
        host = {k: readonly(v.detach().cpu().numpy().astype(np.float64)) for k, v in params.items()}
        blocks.append(
            ResidualBlock(W1=host["W1"], c1=host["c1"], W2=host["W2"], c2=host["c2"], offset=offset)
        )
        losses.append(readonly(np.array(epoch_losses)))
        batches.append(readonly(np.array(batch_losses)))
        offset += size
    return LayerwiseResult(
        net=ResidualLabelNet(d=d, blocks=tuple(blocks), level_sizes=sizes),
        losses=tuple(losses),
        batch_losses=tuple(batches),
        train_accuracy=tuple(accuracy),
    )


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class EndToEndResult:
    """Baseline B2: all blocks trained jointly with ``phi = tanh``.

    Attributes:
        params: per block ``W1, c1, W2, c2`` as read-only numpy arrays.
        offsets: the first stream column of each block.
        d: input dimension.
        losses: ``(epochs,)`` mean training loss per epoch (read-only).
    """

    params: tuple[dict[str, FloatArray], ...]
    offsets: tuple[int, ...]
    d: int
    losses: FloatArray

    def predict(self, x: ArrayLike) -> tuple[FloatArray, ...]:
        """``sign(o_i)`` per level, computing the stream with ``tanh`` writes."""
        xs = _pm_one("x", x)
        sizes = [int(p["W2"].shape[1]) for p in self.params]
        h = np.zeros((xs.shape[0], self.d + sum(sizes)))
        h[:, : self.d] = xs
        out = []
        for p, off, size in zip(self.params, self.offsets, sizes, strict=True):
            o = np.maximum(h @ p["W1"] + p["c1"], 0.0) @ p["W2"] + p["c2"]
            h[:, off : off + size] += np.tanh(o)
            out.append(np.sign(o))
        return tuple(out)


def train_end_to_end(
    x: ArrayLike,
    levels: ArrayLike,
    *,
    rng: np.random.Generator,
    config: LayerwiseConfig | None = None,
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float64,
) -> EndToEndResult:
    """Baseline B2 (ours): the residual architecture with ``phi = tanh``, all blocks trained
    jointly by minibatch SGD on the sum over levels of the label losses (``config.epochs``
    epochs in total), on ``device`` in ``dtype``.

    Raises:
        ValueError: as :func:`reference.hierarchical.train_layerwise`.

    Example:
        >>> from reference.hierarchical import make_xor_tree
        >>> tree = make_xor_tree(4, 64, rng=np.random.default_rng(0))
        >>> res = train_end_to_end(tree.x, tree.levels, rng=np.random.default_rng(1),
        ...                              config=LayerwiseConfig(width=8, epochs=1))
        >>> res.losses.shape
        (1,)
    """
    xs = _pm_one("x", x)
    labels = _check_levels(xs, levels)
    cfg = LayerwiseConfig() if config is None else config
    sizes = tuple(int(lv.shape[1]) for lv in labels)
    d, n = int(xs.shape[1]), int(xs.shape[0])
    stream_width = d + sum(sizes)
    offsets = [d + sum(sizes[:i]) for i in range(len(sizes))]
    params = []
    for size, off in zip(sizes, offsets, strict=True):
        init = _init_block(rng, stream_width, size, off, cfg)
        params.append({k: _tensor(v, device, dtype).requires_grad_() for k, v in init.items()})
    opt = torch.optim.SGD([p for block in params for p in block.values()], lr=cfg.learning_rate)
    x_t = _tensor(xs, device, dtype)
    ys = [_tensor(lv, device, dtype) for lv in labels]
    epoch_losses = []
    for _ in range(cfg.epochs):
        order = torch.as_tensor(rng.permutation(n), device=device)
        total = 0.0
        for start in range(0, n, cfg.batch_size):
            idx = order[start : start + cfg.batch_size]
            opt.zero_grad()
            h = torch.zeros((int(idx.numel()), stream_width), dtype=dtype, device=device)
            h = h.index_copy(1, torch.arange(d, device=device), x_t[idx])
            loss = torch.zeros((), dtype=dtype, device=device)
            for p, off, size, y in zip(params, offsets, sizes, ys, strict=True):
                o = torch.relu(h @ p["W1"] + p["c1"]) @ p["W2"] + p["c2"]
                loss = loss + _loss(o, y[idx])
                pad = torch.zeros_like(h)
                pad[:, off : off + size] = torch.tanh(o)
                h = h + pad
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            value = float(loss.detach())
            _check_finite_sgd(
                value, _finite(q for block in params for q in block.values()), cfg.learning_rate
            )
            total += value * int(idx.numel())
        epoch_losses.append(total / n)
    host = tuple(
        {k: readonly(v.detach().cpu().numpy().astype(np.float64)) for k, v in p.items()}
        for p in params
    )
    return EndToEndResult(
        params=host, offsets=tuple(offsets), d=d, losses=readonly(np.array(epoch_losses))
    )
