"""The dilated Euclidean regulariser on a treeplex, its Bregman divergence and exact prox.

Part of :mod:`reference.extensive` (re-exported there).  The dilated regulariser of Hoda,
Gilpin, Peña and Sandholm (2010) weighs each information set's local strongly convex term by
the parent sequence's probability; its prox decomposes bottom-up over information sets
(spec 19 §3.6).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import (
    FloatArray,
    as_float_array,
    require_positive,
)
from reference.extensive.plans import (
    _require_behavioural,
    _require_plan,
    _require_space,
    _to_behavioural,
    _to_plan,
    uniform_behavioural,
)
from reference.extensive.tree import Treeplex


# ------------------------------------------------------------------------------ regulariser
def _infoset_sq_norms(space: Treeplex, b: FloatArray) -> FloatArray:
    if not space.n_infosets:
        return np.zeros(0)
    out: FloatArray = np.add.reduceat(b[1:] ** 2, space.start - 1)
    return out


def dilated_regulariser(space: Treeplex, x: ArrayLike) -> float:
    """Dilated Euclidean regulariser ``ψ(x) = Σ_j x_{p_j}·½||x_j/x_{p_j}||²`` (weights 1, anchor 0).

    (our default weights and anchor; the paper cites Hoda et al. 2010, spec 19 §3.6.)

    Args:
        space: a :class:`Treeplex`.
        x: ``(n_sequences,)`` realization plan.

    Returns:
        ``ψ(x)``.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shape, non-finite or not a realization plan.
    """
    sp_ = _require_space(space)
    plan = _require_plan("x", sp_, x)
    b = _to_behavioural(sp_, plan, uniform_behavioural(sp_))
    return float(0.5 * np.sum(plan[sp_.parent] * _infoset_sq_norms(sp_, b)))


def _grad_psi(space: Treeplex, b: FloatArray) -> FloatArray:
    grad = b.copy()
    grad[0] = 0.0
    norms = _infoset_sq_norms(space, b)
    grad -= np.bincount(space.parent, weights=0.5 * norms, minlength=space.n_sequences)
    return grad


def dilated_gradient(space: Treeplex, b: ArrayLike) -> FloatArray:
    """Gradient of ``ψ`` in behavioural terms: ``∂ψ/∂x_(j,a) = b_j[a] - ½Σ_{k child of (j,a)}
    ||b_k||²`` and ``∂ψ/∂x_∅ = -½Σ_{root k}||b_k||²`` [derived, spec 19 §3.6].

    Args:
        space: a :class:`Treeplex`.
        b: ``(n_sequences,)`` behavioural vector.

    Returns:
        ``(n_sequences,)`` gradient.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shape, non-finite, or slices off their simplices.
    """
    sp_ = _require_space(space)
    return _grad_psi(sp_, _require_behavioural("b", sp_, b))


def bregman_divergence(space: Treeplex, x: ArrayLike, x_hat: ArrayLike) -> float:
    """``D_ψ(x, x̂) = ψ(x) - ψ(x̂) - <∇ψ(x̂), x - x̂>`` computed from the definition.

    It equals ``Σ_j x_{p_j}·½||b_j - b̂_j||²`` (the decomposition of spec 19 §3.6, checked in
    the tests).  Where ``x̂_{p_j} = 0`` the behavioural ``b̂_j`` is taken uniform.

    Args:
        space: a :class:`Treeplex`.
        x: ``(n,)`` realization plan.
        x_hat: ``(n,)`` realization plan.

    Returns:
        The divergence.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shapes, non-finite or not realization plans.
    """
    sp_ = _require_space(space)
    p = _require_plan("x", sp_, x)
    q = _require_plan("x_hat", sp_, x_hat)
    uniform = uniform_behavioural(sp_)
    bp = _to_behavioural(sp_, p, uniform)
    bq = _to_behavioural(sp_, q, uniform)
    psi_p = float(0.5 * np.sum(p[sp_.parent] * _infoset_sq_norms(sp_, bp)))
    psi_q = float(0.5 * np.sum(q[sp_.parent] * _infoset_sq_norms(sp_, bq)))
    return psi_p - psi_q - float(_grad_psi(sp_, bq) @ (p - q))


Local = Callable[[list[float], list[float]], tuple[list[float], float]]


def _proj_list(v: list[float]) -> list[float]:
    """Sort-based simplex projection on a short Python list."""
    if len(v) == 1:
        return [1.0]
    if len(v) == 2:
        p = min(1.0, max(0.0, 0.5 * (v[0] - v[1] + 1.0)))
        return [p, 1.0 - p]
    u = sorted(v, reverse=True)
    total = 0.0
    theta = 0.0
    for i, ui in enumerate(u, start=1):
        total += ui
        candidate = (total - 1.0) / i
        if ui - candidate > 0.0:
            theta = candidate
    return [max(vi - theta, 0.0) for vi in v]


def _euclid_local(kappa: float) -> Local:
    scale = 1.0 / (1.0 + kappa)

    def local(c_hat: list[float], b_hat: list[float]) -> tuple[list[float], float]:
        b = _proj_list([(bh - ch) * scale for bh, ch in zip(b_hat, c_hat, strict=True)])
        value = 0.0
        for bi, bh, ch in zip(b, b_hat, c_hat, strict=True):
            value += ch * bi + 0.5 * (bi - bh) ** 2 + 0.5 * kappa * bi * bi
        return b, value

    return local


def _entropy_local(c_hat: list[float], b_hat: list[float]) -> tuple[list[float], float]:
    logits = [
        math.log(bh) - ch if bh > 0.0 else -math.inf for bh, ch in zip(b_hat, c_hat, strict=True)
    ]
    top = max(logits)
    weights = [math.exp(v - top) for v in logits]
    total = sum(weights)
    return [w / total for w in weights], -(top + math.log(total))


def _prox(space: Treeplex, c: FloatArray, anchor: FloatArray, local: Local) -> FloatArray:
    """Bottom-up local steps (spec 19 §3.6 step 1); returns the new behavioural vector."""
    acc = c.tolist()
    b_hat = anchor.tolist()
    b = list(b_hat)
    for s, k, p in reversed(space.layout):
        b[s : s + k], value = local(acc[s : s + k], b_hat[s : s + k])
        acc[p] += value
    return np.array(b)


def dilated_prox(
    space: Treeplex, c: ArrayLike, anchor: ArrayLike, *, kappa: float = 0.0
) -> tuple[FloatArray, FloatArray]:
    """Exact dilated Euclidean prox step on a treeplex.

    Computes ``argmin_{x∈X} <c, x> + Σ_j x_{p_j}[½||b_j - b̂_j||² + (κ/2)||b_j||²]``
    (spec 19 §3.6): bottom-up, ``ĉ_j[a] = c_(j,a) + Σ_{k child of (j,a)} V_k``,
    ``b_j = Π_Δ((b̂_j - ĉ_j)/(1 + κ))``, ``V_j = <ĉ_j, b_j> + ½||b_j - b̂_j||² + (κ/2)||b_j||²``;
    then top-down ``x_(j,a) = x_{p_j} b_j[a]``.  Symbol map: ``c`` is ``c``, ``b̂`` is
    ``anchor`` (behavioural), ``κ`` is ``kappa``.

    Args:
        space: a :class:`Treeplex`.
        c: ``(n_sequences,)`` linear cost.
        anchor: ``(n_sequences,)`` behavioural anchor ``b̂``.
        kappa: extra regularisation ``κ >= 0``.

    Returns:
        ``(x, b)``: the realization plan and its behavioural strategy.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shapes, non-finite, anchor off its simplices, ``kappa < 0``.

    Example:
        >>> from reference.extensive import kuhn_poker
        >>> g = kuhn_poker()
        >>> b0 = uniform_behavioural(g.x_space)
        >>> x, b = dilated_prox(g.x_space, np.zeros(13), b0)
        >>> bool(np.allclose(b, b0))
        True
    """
    sp_ = _require_space(space)
    cost = as_float_array("c", c, shape=(sp_.n_sequences,))
    b_hat = _require_behavioural("anchor", sp_, anchor)
    k = require_positive("kappa", kappa, allow_zero=True)
    b = _prox(sp_, cost, b_hat, _euclid_local(k))
    return _to_plan(sp_, b), b
