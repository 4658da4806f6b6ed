"""Clipped and normalized SGD with their mini-batch and momentum variants (spec 05 §3).

Spec 05: H. Chen, K. Wei, X. Yuan, L. Luo, "Stability and Generalization of
Nonconvex Optimization with Heavy-Tailed Noise", ICML 2026, arXiv:2601.19730.
The paper's exact update rules were not retrieved: these are the *standard forms*
spec 05 §3 lists (clip placement exactly as there).  Norms are Euclidean over all
blocks together (``torch.nn.utils.clip_grad_norm_`` semantics without its 1e-6).

Mini-batches: for ``placement="average"`` pass the averaged gradient ``g_J``; for
``placement="per_sample"`` pass the per-example gradients stacked along a new
leading axis (each block of shape ``(b, *param_shape)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from reference._arrays import FloatArray, as_float_array
from reference.optimizers.base import (
    MomentumState,
    Optimizer,
    Params,
    Update,
    _beta,
    _check_state,
    _clip_blocks,
    _clip_tau,
    _frozen_blocks,
    _global_norm,
    _nonneg,
    _restore,
    as_blocks,
)

__all__ = [
    "ClippedSGDConfig",
    "NormalizedSGDConfig",
    "clipped_sgd",
    "normalized_sgd",
]


def _init(params: Params) -> MomentumState:
    blocks = as_blocks("params", params)
    return MomentumState(count=0, momentum=_frozen_blocks([np.zeros_like(b) for b in blocks]))


def _grads(
    grads: object, state: object, params: object, per_sample: bool
) -> tuple[tuple[FloatArray, ...], tuple[FloatArray, ...]]:
    _check_state("state", state, MomentumState)
    if params is None:
        raise ValueError("params: expected the current parameters, got None")
    p = as_blocks("params", params)
    if not per_sample:
        return p, as_blocks("grads", grads, like=p)
    items = grads if isinstance(grads, tuple | list) else (grads,)
    if len(items) != len(p):
        raise ValueError(f"grads: expected {len(p)} blocks (as params), got {len(items)}")
    out = []
    batch = None
    for i, (item, ref) in enumerate(zip(items, p, strict=True)):
        g = as_float_array(f"grads[{i}]", item, ndim=ref.ndim + 1)
        if g.shape[1:] != ref.shape:
            raise ValueError(
                f"grads: expected block {i} of shape (b, *{ref.shape}) (per-sample), got {g.shape}"
            )
        if batch is not None and g.shape[0] != batch:
            raise ValueError(f"grads: expected batch size {batch} in every block, got {g.shape[0]}")
        batch = g.shape[0]
        out.append(g)
    return p, tuple(out)


def _per_sample_clipped_mean(stacks: Sequence[FloatArray], tau: float) -> tuple[FloatArray, ...]:
    b = stacks[0].shape[0]
    total = [np.zeros(s.shape[1:]) for s in stacks]
    for j in range(b):
        clipped = _clip_blocks([s[j] for s in stacks], tau)
        for acc, cb in zip(total, clipped, strict=True):
            acc += cb
    return tuple(acc / b for acc in total)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClippedSGDConfig:
    """Clipped SGD hyper-parameters (spec 05 §3; the defaults are ours).

    Attributes:
        learning_rate: ``eta >= 0`` (0.01).
        tau: clipping level ``> 0`` (1.0; ``inf``: plain SGD).
        momentum: ``beta`` in [0, 1) (0.0: no momentum).
        clip: ``"before"`` (clip the gradient, then momentum; default) or ``"after"``
            (momentum on raw gradients, clip ``m_t``).
        placement: ``"average"`` (clip the averaged mini-batch gradient, 3a, default) or
            ``"per_sample"`` (average the clipped per-example gradients, 3b).
    """

    learning_rate: float = 0.01
    tau: float = 1.0
    momentum: float = 0.0
    clip: Literal["before", "after"] = "before"
    placement: Literal["average", "per_sample"] = "average"

    def __post_init__(self) -> None:
        _nonneg("learning_rate", self.learning_rate)
        _clip_tau("tau", self.tau)
        _beta("momentum", self.momentum)
        if self.clip not in ("before", "after"):
            raise ValueError(f"clip: expected 'before' or 'after', got {self.clip!r}")
        if self.placement not in ("average", "per_sample"):
            raise ValueError(
                f"placement: expected 'average' or 'per_sample', got {self.placement!r}"
            )
        if self.placement == "per_sample" and self.clip == "after":
            raise ValueError("clip: 'after' needs placement='average', got placement='per_sample'")


_CLIPPED = ClippedSGDConfig()


def clipped_sgd(
    *,
    learning_rate: float = _CLIPPED.learning_rate,
    tau: float = _CLIPPED.tau,
    momentum: float = _CLIPPED.momentum,
    clip: Literal["before", "after"] = _CLIPPED.clip,
    placement: Literal["average", "per_sample"] = _CLIPPED.placement,
) -> Optimizer[MomentumState, Update[MomentumState]]:
    """Clipped SGD (and its mini-batch and momentum variants) as an optax pair.

    With ``clip_tau(u) = u min(1, tau/||u||)`` (Euclidean over all blocks):

    * no momentum: ``x_{t+1} = x_t - eta clip_tau(g_t)`` (variant 1; 3a for a batch mean);
    * ``placement="per_sample"``: ``x_{t+1} = x_t - eta (1/b) sum_j clip_tau(g_j)`` (3b);
    * momentum, ``clip="before"``: ``m_t = beta m_{t-1} + (1-beta) clip_tau(g_t)``,
      ``x_{t+1} = x_t - eta m_t`` (variant 5, default);
    * momentum, ``clip="after"``: ``m_t = beta m_{t-1} + (1-beta) g_t``,
      ``x_{t+1} = x_t - eta clip_tau(m_t)``.

    ``beta = 0`` reduces exactly to the non-momentum algorithm, ``tau = inf`` to SGD.

    Symbols -> arguments: ``eta`` = ``learning_rate``, ``tau`` = ``tau``, ``beta`` = ``momentum``.

    Variant: standard forms of spec 05 §3 (the paper's parametrisation was not retrieved).

    Args:
        learning_rate: ``>= 0``.
        tau: ``> 0`` or ``inf``.
        momentum: in [0, 1).
        clip: ``"before"`` or ``"after"``.
        placement: ``"average"`` or ``"per_sample"``.

    Returns:
        ``Optimizer(init, update)``; with ``per_sample`` the grads carry a leading batch axis.

    Raises:
        TypeError: non-real hyper-parameters.
        ValueError: out-of-range hyper-parameters or incompatible options.

    Example:
        >>> opt = clipped_sgd(learning_rate=0.1, tau=1.0)
        >>> x = np.zeros(2)
        >>> u, _ = opt.update(np.array([3.0, 4.0]), opt.init(x), x)
        >>> np.round(u, 12).tolist()
        [-0.06, -0.08]

    References:
        Spec 05 §3 (items 1, 3, 5); J. Zhang et al., "Why gradient clipping accelerates
        training", ICLR 2020.
    """
    config = ClippedSGDConfig(
        learning_rate=learning_rate, tau=tau, momentum=momentum, clip=clip, placement=placement
    )

    def update(
        grads: Params, state: MomentumState, params: Params | None = None
    ) -> tuple[Params, MomentumState]:
        c = config
        _, g = _grads(grads, state, params, c.placement == "per_sample")
        if c.placement == "per_sample":
            direction = _per_sample_clipped_mean(g, c.tau)
            raw = direction
        else:
            raw = g
            direction = _clip_blocks(g, c.tau)
        if c.momentum == 0.0:
            step = direction
            moms = state.momentum
        elif c.clip == "before":
            moms = tuple(
                c.momentum * m + (1.0 - c.momentum) * d
                for m, d in zip(state.momentum, direction, strict=True)
            )
            step = moms
        else:
            moms = tuple(
                c.momentum * m + (1.0 - c.momentum) * r
                for m, r in zip(state.momentum, raw, strict=True)
            )
            step = _clip_blocks(moms, c.tau)
        new = [-c.learning_rate * s for s in step]
        return _restore(params, new), MomentumState(
            count=state.count + 1, momentum=_frozen_blocks(moms)
        )

    return Optimizer(init=_init, update=update)


@dataclass(frozen=True, slots=True, kw_only=True)
class NormalizedSGDConfig:
    """Normalized SGD hyper-parameters (spec 05 §3 items 2, 4, 6).

    Attributes:
        learning_rate: ``eta >= 0`` (0.01).
        momentum: ``beta`` in [0, 1) (0.0: no momentum).
    """

    learning_rate: float = 0.01
    momentum: float = 0.0

    def __post_init__(self) -> None:
        _nonneg("learning_rate", self.learning_rate)
        _beta("momentum", self.momentum)


_NORMALIZED = NormalizedSGDConfig()


def normalized_sgd(
    *,
    learning_rate: float = _NORMALIZED.learning_rate,
    momentum: float = _NORMALIZED.momentum,
) -> Optimizer[MomentumState, Update[MomentumState]]:
    """Normalized SGD (and with momentum, Cutkosky & Mehta 2020 form) as an optax pair.

    * no momentum: ``x_{t+1} = x_t - eta g_t / ||g_t||`` (0 step when ``g_t = 0``);
    * momentum: ``m_t = beta m_{t-1} + (1-beta) g_t``, ``x_{t+1} = x_t - eta m_t / ||m_t||``.

    Every non-zero step has Euclidean norm ``eta`` (over all blocks).  For a mini-batch
    pass the averaged gradient (variant 4).

    Symbols -> arguments: ``eta`` = ``learning_rate``, ``beta`` = ``momentum``.

    Variant: standard forms of spec 05 §3; zero-gradient convention ours.

    Args:
        learning_rate: ``>= 0``.
        momentum: in [0, 1).

    Returns:
        ``Optimizer(init, update)``.

    Raises:
        TypeError: non-real hyper-parameters.
        ValueError: out-of-range hyper-parameters.

    Example:
        >>> opt = normalized_sgd(learning_rate=0.5)
        >>> x = np.zeros(2)
        >>> u, _ = opt.update(np.array([3.0, 4.0]), opt.init(x), x)
        >>> np.round(u, 12).tolist()
        [-0.3, -0.4]

    References:
        Spec 05 §3 (items 2, 4, 6); A. Cutkosky and H. Mehta, "Momentum improves
        normalized SGD", ICML 2020.
    """
    config = NormalizedSGDConfig(learning_rate=learning_rate, momentum=momentum)

    def update(
        grads: Params, state: MomentumState, params: Params | None = None
    ) -> tuple[Params, MomentumState]:
        c = config
        p, g = _grads(grads, state, params, False)
        if c.momentum == 0.0:
            moms = state.momentum
            direction = g
        else:
            moms = tuple(
                c.momentum * m + (1.0 - c.momentum) * gb
                for m, gb in zip(state.momentum, g, strict=True)
            )
            direction = moms
        n = _global_norm(direction)
        if n == 0.0:
            new = [np.zeros_like(x) for x in p]
        else:
            new = [-c.learning_rate * (d / n) for d in direction]
        return _restore(params, new), MomentumState(
            count=state.count + 1, momentum=_frozen_blocks(moms)
        )

    return Optimizer(init=_init, update=update)
