"""FFOLayer's official ``FFOQPLayer`` (GT-KOALA/FFOLayer, ``src/ffolayer/ffoqp_eq.py``) as the
``qp_layers.ffo`` and ``qp_layers.hypergradient`` protocols, from a local checkout (source
``FFOLayer``; see :mod:`benchmarks.outside._source`).

The layer is a ``torch.autograd.Function``: the adapter calls it on float64 tensors, back-
propagates ``grad_x`` and returns the six parameter gradients.  Forward solves use cvxpy's
CLARABEL (the layer's generic cvxpy path; its defaults need Gurobi or dQP) with tight
tolerances.  ``exact_bwd_sol=True`` (the layer's default) returns the ``α → ∞`` limit.
Needs ``torch`` and ``cvxpy``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from benchmarks.outside._source import load_module

__all__ = ["ffo", "ffo_finite_alpha", "hypergradient"]

_OPTS = {"verbose": False, "tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12}


def _grads(args: tuple[Any, ...], grad_x: Any, *, alpha: float, exact: bool) -> tuple[Any, ...]:
    import torch

    layer_module = load_module("FFOLayer", "ffolayer.ffoqp_eq", under="src")
    Q, q, G, h, A, b = (None if a is None else np.asarray(a, dtype=np.float64) for a in args)
    assert Q is not None
    n = Q.shape[0]
    # the layer takes empty tensors for absent blocks
    G = np.zeros((0, n)) if G is None else G
    h = np.zeros(0) if h is None else h
    A = np.zeros((0, n)) if A is None else A
    b = np.zeros(0) if b is None else b
    tensors = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in (Q, q, G, h, A, b)]
    layer = layer_module.FFOQPLayer(
        alpha=alpha, solver="CLARABEL", solver_opts=_OPTS, exact_bwd_sol=exact
    )
    z = layer(*tensors)
    z.backward(torch.tensor(np.asarray(grad_x, dtype=np.float64)).reshape(z.shape))
    out: list[Any] = []
    for t, given in zip(tensors, args, strict=True):
        if given is None:
            out.append(None)
        else:
            grad = t.grad
            out.append(
                np.zeros(t.shape) if grad is None else grad.detach().numpy().reshape(t.shape)
            )
    return tuple(out)


def ffo(Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any, grad_x: Any, *, alpha: float) -> Any:
    """``qp_layers.ffo``: ``FFOQPLayer(alpha=alpha)`` with its default ``exact_bwd_sol=True``."""
    return _grads((Q, q, G, h, A, b), grad_x, alpha=alpha, exact=True)


def ffo_finite_alpha(
    Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any, grad_x: Any, *, alpha: float
) -> Any:
    """``qp_layers.ffo``: ``FFOQPLayer(alpha=alpha, exact_bwd_sol=False)`` (a second QP solve)."""
    return _grads((Q, q, G, h, A, b), grad_x, alpha=alpha, exact=False)


def hypergradient(Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any, grad_x: Any) -> Any:
    """``qp_layers.hypergradient``: the layer's default backward (the exact ``α → ∞`` limit)."""
    return _grads((Q, q, G, h, A, b), grad_x, alpha=100.0, exact=True)
