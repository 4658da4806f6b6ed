"""Fast path of the perturbation family: the reference's dynamics without its per-step overhead.

``parameter_free``, ``asymp_gda``, ``asymp_gda_side``, ``symp_gda``, ``gda`` and ``ogda`` take
the arguments of their references in :mod:`reference.perturbation` (checked by the same
validators, the same errors) and return the same records, with the same fields, computed by
the same arithmetic in the same order (:mod:`reference.perturbation.fast_kernels`): a loop
compiled by numba when the optional ``[fast]`` extra is installed, the same loop in plain numpy
without it.  ``tests/perturbation/test_fast.py`` runs each against its reference.

:func:`asymp_gda_batch` runs AsymP-GDA from many starts in one call (the official runner's 100
Dirichlet(1) starts): without numba the starts advance together as ``(k, m)`` / ``(k, n)``
arrays; with it, each start runs the compiled loop.  :mod:`reference.perturbation.fast_torch`
is the torch form of the batch (CPU or GPU).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import (
    BoolArray,
    FloatArray,
    IntArray,
    as_float_array,
    as_simplex_point,
    readonly,
    require_int,
    require_positive,
)
from reference._defaults import defaults_of
from reference._repr import summary_repr
from reference.games.base import _gap
from reference.perturbation import base as ref
from reference.perturbation import fast_kernels
from reference.perturbation.base import (
    DEFAULT_MAX_ITER,
    DEFAULT_TOL,
    GDAResult,
    MirrorOrder,
    OGDAForm,
    ParameterFreeResult,
    Side,
    Stop,
)

__all__ = [
    "BatchResult",
    "asymp_gda",
    "asymp_gda_batch",
    "asymp_gda_side",
    "compiled",
    "gda",
    "ogda",
    "parameter_free",
    "symp_gda",
]

# The keyword defaults each solver shares with its reference, read from the reference's signature.
_GDA = defaults_of(ref.gda)
_OGDA = defaults_of(ref.ogda)
_SYMP_GDA = defaults_of(ref.symp_gda)
_ASYMP_GDA = defaults_of(ref.asymp_gda)
_ASYMP_GDA_SIDE = defaults_of(ref.asymp_gda_side)
_PARAMETER_FREE = defaults_of(ref.parameter_free)


def compiled() -> bool:
    """Whether the next call runs the compiled loop (numba installed and enabled)."""
    return fast_kernels.AVAILABLE and fast_kernels.ENABLED


def _record(
    a: FloatArray,
    x: FloatArray,
    y: FloatArray,
    t: int,
    hist: FloatArray,
    stops: FloatArray,
    tolerance: float,
    mu: float,
    step_size: float,
    partners: tuple[FloatArray, FloatArray] | None = None,
) -> GDAResult:
    gap = float(stops[-1])
    converged = gap <= tolerance
    return GDAResult(
        x=readonly(np.array(x)),
        y=readonly(np.array(y)),
        nash_conv=_gap(a, x, y),
        stopping=gap,
        iterations=int(t),
        converged=converged,
        stop_reason="tol" if converged else "max_iter",
        history=readonly(np.array(hist, dtype=np.float64)),
        stopping_history=readonly(np.array(stops, dtype=np.float64)),
        mu=mu,
        step_size=step_size,
        partners=None
        if partners is None
        else (readonly(np.array(partners[0])), readonly(np.array(partners[1]))),
    )


def _fresh(v: FloatArray) -> FloatArray:
    return np.ascontiguousarray(v, dtype=np.float64).copy()


def asymp_gda_side(
    payoff: ArrayLike,
    *,
    mu: float,
    side: Side = _ASYMP_GDA_SIDE["side"],
    step_size: float | None = None,
    max_iter: int = _ASYMP_GDA_SIDE["max_iter"],
    tol: float | None = _ASYMP_GDA_SIDE["tol"],
    x0: ArrayLike | None = None,
    y0: ArrayLike | None = None,
    variant: MirrorOrder = _ASYMP_GDA_SIDE["variant"],
    stop: Stop = _ASYMP_GDA_SIDE["stop"],
) -> GDAResult:
    """Fast :func:`reference.perturbation.asymp_gda_side` (same arguments, same result)."""
    a, iters, tolerance, x, y = ref._common(payoff, max_iter, tol, x0, y0)
    m = require_positive("mu", mu)
    if side not in ("x", "y"):
        raise ValueError(f"side: expected 'x' or 'y', got {side!r}")
    order = ref._check_order(variant)
    quantity = ref._check_stop(stop)
    step = ref._step(a, step_size, m)
    k = fast_kernels.kernels()
    mu_x, mu_y = (m, 0.0) if side == "x" else (0.0, m)
    if quantity == "frank_wolfe":
        kind = fast_kernels.FRANK_WOLFE
    else:
        kind = fast_kernels.PGAP_X if side == "x" else fast_kernels.PGAP_Y
    y_first = side == "y" and order == "y_first"
    xs, ys, t, hist, stops = k.run(
        a, _fresh(x), _fresh(y), mu_x, mu_y, step, iters, tolerance, y_first, kind, mu_x, mu_y
    )
    return _record(a, xs, ys, t, hist, stops, tolerance, m, step)


def asymp_gda(
    payoff: ArrayLike,
    *,
    mu: float,
    step_size: float | None = None,
    max_iter: int = _ASYMP_GDA["max_iter"],
    tol: float | None = _ASYMP_GDA["tol"],
    x0: ArrayLike | None = None,
    y0: ArrayLike | None = None,
    variant: MirrorOrder = _ASYMP_GDA["variant"],
    stop: Stop = _ASYMP_GDA["stop"],
) -> GDAResult:
    """Fast :func:`reference.perturbation.asymp_gda` (same arguments, same result)."""
    a, iters, tolerance, x, y = ref._common(payoff, max_iter, tol, x0, y0)
    m = require_positive("mu", mu)
    order = ref._check_order(variant)
    quantity = ref._check_stop(stop)
    step = ref._step(a, step_size, m)
    k = fast_kernels.kernels()
    xa, ya, xb, yb, t, hist, stops = k.run_pair(
        a,
        _fresh(x),
        _fresh(y),
        m,
        step,
        iters,
        tolerance,
        order == "y_first",
        quantity == "frank_wolfe",
    )
    return _record(a, xa, yb, t, hist, stops, tolerance, m, step, partners=(ya, xb))


def symp_gda(
    payoff: ArrayLike,
    *,
    mu: float,
    step_size: float | None = None,
    max_iter: int = _SYMP_GDA["max_iter"],
    tol: float | None = _SYMP_GDA["tol"],
    x0: ArrayLike | None = None,
    y0: ArrayLike | None = None,
    stop: Stop = _SYMP_GDA["stop"],
) -> GDAResult:
    """Fast :func:`reference.perturbation.symp_gda` (same arguments, same result)."""
    a, iters, tolerance, x, y = ref._common(payoff, max_iter, tol, x0, y0)
    m = require_positive("mu", mu)
    step = ref._step(a, step_size, m)
    quantity = ref._check_stop(stop)
    kind = fast_kernels.FRANK_WOLFE if quantity == "frank_wolfe" else fast_kernels.SYMMETRIC
    k = fast_kernels.kernels()
    xs, ys, t, hist, stops = k.run(
        a, _fresh(x), _fresh(y), m, m, step, iters, tolerance, False, kind, m, m
    )
    return _record(a, xs, ys, t, hist, stops, tolerance, m, step)


def gda(
    payoff: ArrayLike,
    *,
    step_size: float | None = None,
    max_iter: int = _GDA["max_iter"],
    tol: float | None = _GDA["tol"],
    x0: ArrayLike | None = None,
    y0: ArrayLike | None = None,
) -> GDAResult:
    """Fast :func:`reference.perturbation.gda` (same arguments, same result)."""
    a, iters, tolerance, x, y = ref._common(payoff, max_iter, tol, x0, y0)
    step = ref._step(a, step_size, 0.0)
    k = fast_kernels.kernels()
    xs, ys, t, hist, stops = k.run(
        a,
        _fresh(x),
        _fresh(y),
        0.0,
        0.0,
        step,
        iters,
        tolerance,
        False,
        fast_kernels.NASH,
        0.0,
        0.0,
    )
    return _record(a, xs, ys, t, hist, stops, tolerance, 0.0, step)


def ogda(
    payoff: ArrayLike,
    *,
    step_size: float | None = None,
    max_iter: int = _OGDA["max_iter"],
    tol: float | None = _OGDA["tol"],
    x0: ArrayLike | None = None,
    y0: ArrayLike | None = None,
    variant: OGDAForm = _OGDA["variant"],
) -> GDAResult:
    """Fast :func:`reference.perturbation.ogda` (same arguments, same result)."""
    a, iters, tolerance, x, y = ref._common(payoff, max_iter, tol, x0, y0)
    if variant not in ("official", "simultaneous"):
        raise ValueError(f"variant: expected 'official' or 'simultaneous', got {variant!r}")
    if step_size is None:
        norm = ref._spectral_norm(a)
        step = ref._reciprocal(2.0 * norm, "2 ||A||_2") if norm > 0.0 else 1.0
    else:
        step = require_positive("step_size", step_size)
    k = fast_kernels.kernels()
    xs, ys, t, hist = k.run_ogda(
        a, _fresh(x), _fresh(y), step, iters, tolerance, variant == "official"
    )
    return _record(a, xs, ys, t, hist, hist, tolerance, 0.0, step)


def parameter_free(
    payoff: ArrayLike,
    *,
    tol: float = _PARAMETER_FREE["tol"],
    max_iter: int = _PARAMETER_FREE["max_iter"],
    mu_init: float | None = None,
    max_inner: int = _PARAMETER_FREE["max_inner"],
    check_every: int = _PARAMETER_FREE["check_every"],
    patience: int = _PARAMETER_FREE["patience"],
) -> ParameterFreeResult:
    """Fast :func:`reference.perturbation.parameter_free` (same arguments, same result)."""
    a = ref._check_payoff(payoff)
    eps = require_positive("tol", tol)
    total_cap = require_int("max_iter", max_iter, minimum=0)
    inner_cap = require_int("max_inner", max_inner, minimum=1)
    period = require_int("check_every", check_every, minimum=1)
    stall = require_int("patience", patience, minimum=0)
    norm = ref._spectral_norm(a)
    if norm > 0.0:
        ref._reciprocal(norm, "||A||_2")
    default_mu = norm if norm > 0.0 else 1.0
    mu = default_mu if mu_init is None else require_positive("mu_init", mu_init)
    mu_floor = ref.MU_FLOOR * norm
    if mu < mu_floor:
        raise ValueError(f"mu_init: expected >= 2^-52 * ||A||_2 = {mu_floor!r}, got {mu!r}")
    lipschitz = max(
        float(np.max(np.linalg.norm(a, axis=0))), float(np.max(np.linalg.norm(a, axis=1)))
    )
    floor = 1e-13 * max(1.0, float(np.max(np.abs(a))))
    k = fast_kernels.kernels()
    x, y, value, total, halvings, mu_end, reason, records = k.parameter_free(
        np.ascontiguousarray(a),
        norm,
        mu,
        mu_floor,
        eps,
        total_cap,
        inner_cap,
        period,
        stall,
        lipschitz,
        floor,
    )
    value = float(value)
    return ParameterFreeResult(
        x=readonly(np.array(x)),
        y=readonly(np.array(y)),
        nash_conv=value,
        iterations=int(total),
        converged=value <= eps,
        stop_reason="tol" if value <= eps else ("mu_floor" if reason == 1 else "max_iter"),
        mu=float(mu_end),
        halvings=int(halvings),
        check_iterations=readonly(np.array(records[:, 0])),
        history=readonly(np.array(records[:, 1])),
        mu_history=readonly(np.array(records[:, 2])),
    )


# ------------------------------------------------------------------------------ many starts
@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class BatchResult:
    """AsymP-GDA from ``k`` starts: each row is what :func:`asymp_gda` returns for that start.

    Attributes:
        x: ``(k, m)`` read-only last iterates of the minimiser (the x-side runs).
        y: ``(k, n)`` read-only last iterates of the maximiser (the mirrored runs).
        nash_conv: ``(k,)`` NashConv of each ``(x, y)``.
        stopping: ``(k,)`` the stopping quantity of each start at its end.
        iterations: ``(k,)`` iterations of each start (a start stops on its own).
        converged: ``(k,)`` exactly ``stopping <= tol``.
        stop_reason: per start ``"tol"`` (iff ``converged``) or ``"max_iter"``.
        mu: perturbation strength; step_size: step size.

    The fields are :class:`reference.perturbation.GDAResult`'s, one row per start; the
    histories and ``partners`` are not kept.
    """

    x: FloatArray
    y: FloatArray
    nash_conv: FloatArray
    stopping: FloatArray
    iterations: IntArray
    converged: BoolArray
    stop_reason: tuple[str, ...]
    mu: float
    step_size: float


def _batch_starts(name: str, value: object, size: int) -> FloatArray:
    arr = as_float_array(name, value, ndim=2)
    if arr.shape[1] != size:
        raise ValueError(f"{name}: expected rows of length {size}, got shape {arr.shape}")
    for row in range(arr.shape[0]):
        as_simplex_point(f"{name}[{row}]", arr[row], size=size)
    return arr


def _project_rows(v: FloatArray) -> FloatArray:
    """Algorithm P on each row (as :func:`reference.games.base._project` on one vector)."""
    k = v.shape[1]
    if k == 1:
        return np.ones_like(v)
    u = -np.sort(-v, axis=1)
    css = np.cumsum(u, axis=1) - 1.0
    j = np.arange(1, k + 1)
    positive = u - css / j > 0.0
    rho = k - np.argmax(positive[:, ::-1], axis=1)
    rho = np.where(positive.any(axis=1), rho, 1)
    tau = css[np.arange(v.shape[0]), rho - 1] / rho
    out: FloatArray = np.maximum(v - tau[:, None], 0.0)
    return out


def _rows_pgap(a: FloatArray, x: FloatArray, y: FloatArray, mu: float) -> FloatArray:
    ay = y @ a.T  # rows of A y
    best = _project_rows(-ay / mu)
    upper = np.max(x @ a, axis=1) + 0.5 * mu * np.einsum("ij,ij->i", x, x)
    lower = np.einsum("ij,ij->i", best, ay) + 0.5 * mu * np.einsum("ij,ij->i", best, best)
    out: FloatArray = upper - lower
    return out


def _rows_fw(a: FloatArray, x: FloatArray, y: FloatArray, mu_x: float, mu_y: float) -> FloatArray:
    gx = -(y @ a.T) - mu_x * x
    gy = x @ a - mu_y * y
    out: FloatArray = (np.max(gx, axis=1) - np.einsum("ij,ij->i", gx, x)) + (
        np.max(gy, axis=1) - np.einsum("ij,ij->i", gy, y)
    )
    return out


def asymp_gda_batch(
    payoff: ArrayLike,
    *,
    mu: float,
    x0s: ArrayLike,
    y0s: ArrayLike,
    step_size: float | None = None,
    max_iter: int = DEFAULT_MAX_ITER,
    tol: float | None = DEFAULT_TOL,
    variant: MirrorOrder = "official",
    stop: Stop = "gap",
) -> BatchResult:
    """:func:`reference.perturbation.asymp_gda` from each row of ``(x0s, y0s)``, in one call.

    Start ``i`` follows the reference's iteration from ``(x0s[i], y0s[i])`` and stops on its
    own (its stopping quantity ``<= tol``, or ``max_iter``); finished starts are frozen while
    the others continue.  No histories are kept (use :func:`asymp_gda` for one start's).

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        mu: perturbation strength ``μ > 0``.
        x0s: ``(k, m)`` starts of the minimiser (rows on the simplex), e.g. from
            :func:`reference.perturbation.dirichlet_starts`.
        y0s: ``(k, n)`` starts of the maximiser.
        step_size, max_iter, tol, variant, stop: as :func:`reference.perturbation.asymp_gda`.

    Returns:
        A :class:`BatchResult`, one row per start.

    Raises:
        TypeError: non-numeric arguments.
        ValueError: as :func:`reference.perturbation.asymp_gda`, and ``x0s`` / ``y0s`` not
            ``(k, m)`` / ``(k, n)`` with the same ``k >= 1`` and rows on the simplex.
    """
    a = ref._check_payoff(payoff)
    iters = require_int("max_iter", max_iter, minimum=0)
    tolerance = -math.inf if tol is None else require_positive("tol", tol)
    m = require_positive("mu", mu)
    order = ref._check_order(variant)
    quantity = ref._check_stop(stop)
    step = ref._step(a, step_size, m)
    xs = _batch_starts("x0s", x0s, a.shape[0])
    ys = _batch_starts("y0s", y0s, a.shape[1])
    if xs.shape[0] != ys.shape[0] or xs.shape[0] < 1:
        raise ValueError(
            f"x0s, y0s: expected the same number k >= 1 of rows, got {xs.shape[0]} and {ys.shape[0]}"
        )
    if compiled():
        return _batch_compiled(a, xs, ys, m, step, iters, tolerance, order, quantity)
    return _batch_numpy(a, xs, ys, m, step, iters, tolerance, order, quantity)


def _batch_compiled(
    a: FloatArray,
    xs: FloatArray,
    ys: FloatArray,
    m: float,
    step: float,
    iters: int,
    tolerance: float,
    order: MirrorOrder,
    quantity: Stop,
) -> BatchResult:
    k = fast_kernels.kernels()
    count = xs.shape[0]
    out_x = np.empty_like(xs)
    out_y = np.empty_like(ys)
    stopping = np.empty(count)
    its = np.empty(count, dtype=np.int64)
    for i in range(count):
        xa, _, _, yb, t, _, stops = k.run_pair(
            a,
            _fresh(xs[i]),
            _fresh(ys[i]),
            m,
            step,
            iters,
            tolerance,
            order == "y_first",
            quantity == "frank_wolfe",
        )
        out_x[i], out_y[i], stopping[i], its[i] = xa, yb, stops[-1], t
    return _batch_result(a, out_x, out_y, stopping, its, tolerance, m, step)


def _batch_numpy(
    a: FloatArray,
    xs: FloatArray,
    ys: FloatArray,
    m: float,
    step: float,
    iters: int,
    tolerance: float,
    order: MirrorOrder,
    quantity: Stop,
) -> BatchResult:
    b = -a.T
    xa, ya, xb, yb = xs.copy(), ys.copy(), xs.copy(), ys.copy()

    def stopping(p: FloatArray, q: FloatArray, r: FloatArray, s: FloatArray) -> FloatArray:
        if quantity == "frank_wolfe":
            return np.maximum(_rows_fw(a, p, q, m, 0.0), _rows_fw(a, r, s, 0.0, m))
        return np.maximum(_rows_pgap(a, p, q, m), _rows_pgap(b, s, r, m))

    gap = stopping(xa, ya, xb, yb)
    its = np.zeros(xs.shape[0], dtype=np.int64)
    active = gap > tolerance
    t = 0
    while t < iters and active.any():
        idx = np.nonzero(active)[0]
        xa_, ya_, xb_, yb_ = xa[idx], ya[idx], xb[idx], yb[idx]
        xa_ = _project_rows(xa_ - step * (ya_ @ a.T + m * xa_))
        ya_ = _project_rows(ya_ + step * (xa_ @ a))
        if order == "y_first":
            yb_ = _project_rows(yb_ + step * (xb_ @ a - m * yb_))
            xb_ = _project_rows(xb_ - step * (yb_ @ a.T))
        else:
            xb_ = _project_rows(xb_ - step * (yb_ @ a.T))
            yb_ = _project_rows(yb_ + step * (xb_ @ a - m * yb_))
        xa[idx], ya[idx], xb[idx], yb[idx] = xa_, ya_, xb_, yb_
        its[idx] += 1
        t += 1
        gap[idx] = stopping(xa_, ya_, xb_, yb_)
        active = gap > tolerance
    return _batch_result(a, xa, yb, gap, its, tolerance, m, step)


def _batch_result(
    a: FloatArray,
    x: FloatArray,
    y: FloatArray,
    stopping: FloatArray,
    its: IntArray,
    tolerance: float,
    m: float,
    step: float,
) -> BatchResult:
    nash = np.max(x @ a, axis=1) - np.min(y @ a.T, axis=1)
    converged = stopping <= tolerance
    return BatchResult(
        x=readonly(x),
        y=readonly(y),
        nash_conv=readonly(nash),
        stopping=readonly(stopping),
        iterations=readonly(its),
        converged=readonly(converged),
        stop_reason=tuple("tol" if c else "max_iter" for c in converged.tolist()),
        mu=m,
        step_size=step,
    )
