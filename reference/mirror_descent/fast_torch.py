"""PyTorch fast path for mirror descent (spec 06): a simplex mirror-descent optimizer.

* :class:`SimplexMirrorDescent` — a ``torch.optim.Optimizer`` whose parameters are points of
  the probability simplex along their last axis; each step is the entropic prox step
  ``x <- x exp(-η g) / Σ x exp(-η g)`` (log-sum-exp shift, zeros stay zero), the update of
  :func:`reference.mirror_descent.prox_step` with ``mirror="entropic"``.
* :func:`mirror_descent` — functional mirror descent (Euclidean or entropic) returning the
  whole trajectory, the tensor twin of :func:`reference.mirror_descent.mirror_descent`;
* :func:`entropic_step` — the tensor twin of :func:`reference.mirror_descent.entropic_step`.

float64 is the default; both are cross-checked over trajectories against the numpy reference.

References:
    D. Yu, W. Jiang, H. Tao, Y. Wan, L. Zhang, "Mirror Descent Under Generalized Smoothness",
    ICML 2026, arXiv:2502.00753 (spec 06, section 3, algorithm 1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import torch
from torch import Tensor

from reference._arrays import require_int, require_positive
from reference._defaults import defaults_of
from reference.mirror_descent.methods import MirrorName
from reference.mirror_descent.methods import mirror_descent as _reference_mirror_descent

__all__ = ["SimplexMirrorDescent", "entropic_step", "mirror_descent"]

# The keyword defaults shared with the reference, read from the reference's signature.
_MIRROR_DESCENT = defaults_of(_reference_mirror_descent)

SIMPLEX_ATOL = 1e-9


def entropic_step(x: Tensor, gradient: Tensor, step_size: float) -> Tensor:
    """Entropic prox step along the last axis: ``u ∝ x exp(-η g)`` (log-sum-exp, zeros stay 0).

    The torch counterpart of :func:`reference.mirror_descent.entropic_step`, batched over
    leading axes.

    Args:
        x: ``(..., n)`` points of the simplex.
        gradient: gradient of the same shape.
        step_size: ``η > 0``.

    Returns:
        Tensor like ``x``.

    Example:
        >>> x = torch.tensor([0.5, 0.5], dtype=torch.float64)
        >>> entropic_step(x, torch.tensor([0.0, 1e3], dtype=torch.float64), 1.0).tolist()
        [1.0, 0.0]
    """
    logits = torch.where(
        x > 0,
        torch.log(torch.where(x > 0, x, torch.ones_like(x))) - step_size * gradient,
        -torch.inf,
    )
    return torch.softmax(logits, dim=-1)


def _check_simplex(name: str, x: Tensor) -> None:
    if x.ndim < 1 or x.shape[-1] < 1:
        raise ValueError(
            f"{name}: expected a tensor with a non-empty last axis, got {tuple(x.shape)}"
        )
    if not bool(torch.isfinite(x).all()):
        raise ValueError(f"{name}: expected finite values, got NaN/inf")
    if float(x.min()) < -SIMPLEX_ATOL or float((x.sum(-1) - 1.0).abs().max()) > SIMPLEX_ATOL:
        raise ValueError(f"{name}: expected points of the simplex along the last axis")


class SimplexMirrorDescent(torch.optim.Optimizer):
    """Entropic mirror descent on the simplex (exponentiated gradient) as a torch optimizer.

    Every parameter must hold points of the probability simplex along its last axis; the step
    ``x <- softmax(log x - η ∇f(x))`` keeps it there.

    Args:
        params: parameters (or parameter groups) on the simplex.
        lr: step size ``η > 0`` (the paper's ``1/L`` with ``L = l(2G)``).

    Raises:
        ValueError: ``lr <= 0``, or a parameter off the simplex at construction.

    Example:
        >>> x = torch.nn.Parameter(torch.full((3,), 1 / 3, dtype=torch.float64))
        >>> opt = SimplexMirrorDescent([x], lr=1.0)
        >>> (x * torch.tensor([1.0, 0.0, 2.0], dtype=torch.float64)).sum().backward()
        >>> opt.step()
        >>> bool(x.argmax() == 1)
        True
    """

    def __init__(self, params: Iterable[Tensor] | Iterable[dict[str, Any]], *, lr: float) -> None:
        require_positive("lr", lr)
        super().__init__(params, {"lr": lr})
        for group in self.param_groups:
            for p in group["params"]:
                _check_simplex("params", p.detach())

    @torch.no_grad()
    def step(self, closure: Callable[[], float] | None = None) -> float | None:  # type: ignore[override]
        """One entropic prox step for every parameter with a gradient."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.copy_(entropic_step(p, p.grad, group["lr"]))
        return loss


def mirror_descent(
    grad: Callable[[Tensor], Tensor],
    x0: Tensor,
    *,
    step_size: float,
    max_iter: int,
    mirror: MirrorName = _MIRROR_DESCENT["mirror"],
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float64,
) -> Tensor:
    """Mirror descent ``x_{t+1} = P(x_t, ∇f(x_t), η)``; returns the trajectory ``(T + 1, n)``.

    The torch counterpart of :func:`reference.mirror_descent.mirror_descent` for the
    ``euclidean`` and ``entropic`` mirrors, without a stopping test: the returned tensor is
    the reference's ``iterates`` (``tol=0``).

    Args:
        grad: ``x (n,) -> ∇f(x) (n,)`` on tensors.
        x0: ``(n,)`` start (on the simplex for ``entropic``).
        step_size: ``η > 0``.
        max_iter: ``T >= 1``.
        mirror: ``euclidean`` or ``entropic`` (the reference's ``lp`` is not ported).
        device: where to run.
        dtype: floating dtype (float64 default).

    Returns:
        ``(T + 1, n)`` tensor of iterates on ``device`` with ``dtype``.

    Raises:
        ValueError: bad step, iteration count, mirror or start; a non-finite gradient.
    """
    eta = require_positive("step_size", step_size)
    t_max = require_int("max_iter", max_iter, minimum=1, maximum=10_000_000)
    if mirror not in ("euclidean", "entropic"):
        raise ValueError(f"mirror: expected 'euclidean' or 'entropic', got {mirror!r}")
    x = torch.as_tensor(x0, dtype=dtype).to(device)
    if x.ndim != 1 or x.numel() == 0:
        raise ValueError(f"x0: expected a non-empty 1-D tensor, got shape {tuple(x.shape)}")
    if mirror == "entropic":
        _check_simplex("x0", x)
    elif not bool(torch.isfinite(x).all()):
        raise ValueError("x0: expected finite values, got NaN/inf")
    out = [x]
    for _ in range(t_max):
        g = grad(x)
        if not bool(torch.isfinite(g).all()):
            raise ValueError("grad: expected finite gradient values, got NaN/inf")
        x = x - eta * g if mirror == "euclidean" else entropic_step(x, g, eta)
        out.append(x)
    return torch.stack(out)
