"""Hand-made broken mirror-descent pieces: each mirror_descent.* suite must reject each one."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from reference._arrays import FloatArray
from reference.mirror_descent import MirrorName, mirror_descent
from reference.mirror_descent.composite import Regularizer

Grad = Callable[[FloatArray], FloatArray]


def _m(name: str) -> MirrorName:
    return cast(MirrorName, name)


# ---- simplex_prox mutants


def prox_no_shift(x: Any, gradient: Any, step_size: float) -> FloatArray:
    """No log-sum-exp shift: exp overflows/underflows for large gradients (NaN or 0/0)."""
    xs = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        w = xs * np.exp(-step_size * np.asarray(gradient, dtype=np.float64))
        out: FloatArray = w / w.sum()
    return out


def prox_sign_flip(x: Any, gradient: Any, step_size: float) -> FloatArray:
    """Ascent instead of descent: ``x exp(+η g)``."""
    xs = np.asarray(x, dtype=np.float64)
    logits = np.where(xs > 0, np.log(np.where(xs > 0, xs, 1.0)), -np.inf) + step_size * np.asarray(
        gradient
    )
    w = np.exp(logits - np.max(logits))
    out: FloatArray = w / w.sum()
    return out


def prox_projected_gradient(x: Any, gradient: Any, step_size: float) -> FloatArray:
    """Euclidean step then clip-and-renormalise (a wrong "projection")."""
    y = np.asarray(x, dtype=np.float64) - step_size * np.asarray(gradient, dtype=np.float64)
    y = np.maximum(y, 0.0)
    if y.sum() == 0.0:
        return np.full(y.size, 1.0 / y.size)
    out: FloatArray = y / y.sum()
    return out


def prox_unnormalised(x: Any, gradient: Any, step_size: float) -> FloatArray:
    """Forgets the normaliser: ``x exp(-η (g - max g))``."""
    g = np.asarray(gradient, dtype=np.float64)
    with np.errstate(all="ignore"):
        out: FloatArray = np.asarray(x, dtype=np.float64) * np.exp(-step_size * (g - g.max()))
    return out


# ---- solver mutants


def solver_off_by_one(
    grad: Grad, x0: Any, *, step_size: float, max_iter: int, mirror: str
) -> FloatArray:
    """Runs one iteration too few."""
    if max_iter <= 1:
        return np.asarray(x0, dtype=np.float64)
    return np.array(
        mirror_descent(grad, x0, step_size=step_size, max_iter=max_iter - 1, mirror=_m(mirror)).x
    )


def solver_average(
    grad: Grad, x0: Any, *, step_size: float, max_iter: int, mirror: str
) -> FloatArray:
    """Returns the average instead of the last iterate."""
    run = mirror_descent(grad, x0, step_size=step_size, max_iter=max_iter, mirror=_m(mirror))
    return np.array(run.x_average)


def solver_unprojected(
    grad: Grad, x0: Any, *, step_size: float, max_iter: int, mirror: str
) -> FloatArray:
    """Entropic steps without the normalisation (leaves the simplex)."""
    x = np.asarray(x0, dtype=np.float64).copy()
    for _ in range(max_iter):
        g = grad(x)
        x = x - step_size * g if mirror == "euclidean" else x * np.exp(-step_size * g)
    return x


def solver_ascent(
    grad: Grad, x0: Any, *, step_size: float, max_iter: int, mirror: str
) -> FloatArray:
    """Sign flip: climbs the objective."""
    run = mirror_descent(
        lambda z: -grad(z),
        x0,
        step_size=step_size,
        max_iter=max_iter,
        mirror=_m(mirror),
    )
    return np.array(run.x)


# ---- effective constants mutants


def g_ignores_l1(l0: float, l1: float, delta0: float) -> float:
    """Classical L-smooth constant: ``sqrt(2 L0 Δ0)`` (ignores the growth of l)."""
    return math.sqrt(2.0 * l0 * delta0)


def g_small_root(l0: float, l1: float, delta0: float) -> float:
    """Uses ``l(a)`` instead of ``l(2a)``: root of ``a² = 2 (L0 + L1 a) Δ0``."""
    return l1 * delta0 + math.sqrt(l1**2 * delta0**2 + 2.0 * l0 * delta0)


def g_times_two(l0: float, l1: float, delta0: float) -> float:
    """Off by a factor: ``2 G`` (a valid but not-the-root bound; monotone but wrong)."""
    return 2.0 * (2.0 * l1 * delta0 + math.sqrt(4.0 * l1**2 * delta0**2 + 2.0 * l0 * delta0))


def g_inverted_l0(l0: float, l1: float, delta0: float) -> float:
    """Divides by ``L0`` instead of multiplying (not monotone in ``L0``)."""
    return 2.0 * l1 * delta0 + math.sqrt(4.0 * l1**2 * delta0**2 + 2.0 * delta0 / l0)


# ---- composite mutants (mirror_descent.composite)


def _reg_step(x: FloatArray, g: FloatArray, eta: float, reg: Regularizer, mode: str) -> FloatArray:
    lam = reg.weight
    if reg.kind == "entropy":
        power = 1.0 + (lam if mode == "unscaled" else eta * lam)
        logits = (np.log(np.maximum(x, 1e-300)) - eta * g) / power
        w = np.exp(logits - logits.max())
        out: FloatArray = w if mode == "unnormalised" else w / w.sum()
        return out
    v = x - eta * g
    if reg.kind == "none" or mode == "ignore":
        return v
    if reg.kind == "l1":
        if mode == "subgradient":
            return v - eta * lam * np.sign(x)
        thr = lam if mode == "unscaled" else eta * lam
        shrunk: FloatArray = np.sign(v) * np.maximum(np.abs(v) - thr, 0.0)
        return shrunk
    if reg.kind == "l2sq":
        if mode == "subgradient":
            return v - eta * lam * x
        scaled: FloatArray = v / (1.0 + (lam if mode == "unscaled" else eta * lam))
        return scaled
    clipped: FloatArray = np.clip(v, reg.lower, reg.upper)
    return clipped


def _composite_loop(
    grad: Grad, x0: Any, step_size: float, max_iter: int, mirror: str, reg: Regularizer, mode: str
) -> FloatArray:
    x = np.asarray(x0, dtype=np.float64).copy()
    if mirror == "entropic" and reg.kind == "none":
        return np.array(
            mirror_descent(grad, x, step_size=step_size, max_iter=max_iter, mirror="entropic").x
        )
    for _ in range(max_iter):
        x = _reg_step(x, np.asarray(grad(x), dtype=np.float64), step_size, reg, mode)
    return x


def composite_ignores_h(
    grad: Grad, x0: Any, *, step_size: float, max_iter: int, mirror: str, regularizer: Regularizer
) -> FloatArray:
    """Drops the regulariser: plain mirror descent on ``f``."""
    return _composite_loop(grad, x0, step_size, max_iter, mirror, regularizer, "ignore")


def composite_subgradient(
    grad: Grad, x0: Any, *, step_size: float, max_iter: int, mirror: str, regularizer: Regularizer
) -> FloatArray:
    """Explicit subgradient step on ``h`` instead of its prox (``v - ηλ sign(x)``)."""
    return _composite_loop(grad, x0, step_size, max_iter, mirror, regularizer, "subgradient")


def composite_unscaled(
    grad: Grad, x0: Any, *, step_size: float, max_iter: int, mirror: str, regularizer: Regularizer
) -> FloatArray:
    """Forgets the step in the prox of ``h``: threshold ``λ`` instead of ``ηλ``, ``1 + λ``."""
    return _composite_loop(grad, x0, step_size, max_iter, mirror, regularizer, "unscaled")


def composite_unnormalised(
    grad: Grad, x0: Any, *, step_size: float, max_iter: int, mirror: str, regularizer: Regularizer
) -> FloatArray:
    """Entropic composite step without the normaliser (leaves the simplex)."""
    return _composite_loop(grad, x0, step_size, max_iter, mirror, regularizer, "unnormalised")


def composite_ascent_h(
    grad: Grad, x0: Any, *, step_size: float, max_iter: int, mirror: str, regularizer: Regularizer
) -> FloatArray:
    """Sign flip on ``h``: the prox of ``-λ||x||_1`` / ``-(λ/2)||x||²`` (pushes away from 0)."""
    x = np.asarray(x0, dtype=np.float64).copy()
    if regularizer.kind in ("l1", "l2sq"):
        lam = step_size * regularizer.weight
        for _ in range(max_iter):
            v = x - step_size * np.asarray(grad(x), dtype=np.float64)
            x = np.sign(v) * (np.abs(v) + lam) if regularizer.kind == "l1" else v / (1.0 - lam)
        return x
    return _composite_loop(grad, x0, step_size, max_iter, mirror, regularizer, "")
