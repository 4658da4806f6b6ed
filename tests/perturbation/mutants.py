"""Hand-made broken AsymP-GDA implementations: the perturbation.asymp_gda suite must reject each.

Each takes ``(A, *, mu, step_size, iterations)`` and returns ``(x from the x run, y from the y run)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from reference._arrays import FloatArray
from reference.games import project_simplex

Projection = Callable[[FloatArray], FloatArray]


def _clip_normalise(v: FloatArray) -> FloatArray:
    w: FloatArray = np.maximum(v, 0.0)
    total = float(w.sum())
    out: FloatArray = w / total if total > 0 else np.full(v.shape, 1.0 / v.size)
    return out


def _clip_only(v: FloatArray) -> FloatArray:
    return np.clip(v, 0.0, 1.0)


def _unsorted_projection(v: FloatArray) -> FloatArray:
    """The sort-based projection with the sort forgotten (order-dependent threshold)."""
    n = v.shape[0]
    css = np.cumsum(v) - 1.0
    ind = np.arange(1, n + 1)
    ok = np.nonzero(v - css / ind > 0.0)[0]
    rho = int(ok[-1]) + 1 if ok.size else 1
    out: FloatArray = np.maximum(v - css[rho - 1] / rho, 0.0)
    return out


def _run(
    payoff: Any,
    mu: float,
    step_size: float,
    iterations: int,
    *,
    proj: Projection = project_simplex,
    alternating: bool = True,
    sign: float = 1.0,
    eta_on_mu: bool = True,
    mirror: bool = True,
) -> tuple[FloatArray, FloatArray]:
    a = np.asarray(payoff, dtype=np.float64)
    if not np.all(np.isfinite(a)) or mu <= 0 or step_size <= 0:
        raise ValueError("bad input")

    def side(m: FloatArray, p: FloatArray, q: FloatArray) -> tuple[FloatArray, FloatArray]:
        for _ in range(iterations):
            pert = sign * mu * p
            new_p = (
                proj(p - step_size * (m @ q + pert))
                if eta_on_mu
                else proj(p - step_size * (m @ q) - pert)
            )
            q = proj(q + step_size * (m.T @ (new_p if alternating else p)))
            p = new_p
        return p, q

    x0 = np.full(a.shape[0], 1.0 / a.shape[0])
    y0 = np.full(a.shape[1], 1.0 / a.shape[1])
    xa, ya = side(a, x0, y0)
    if not mirror:
        return xa, ya
    x, y = x0, y0
    for _ in range(iterations):  # mirrored run, official order: plain x first, perturbed y
        x_old = x
        x = proj(x - step_size * (a @ y))
        pert_y = sign * mu * y
        step = a.T @ (x if alternating else x_old)
        y = (
            proj(y + step_size * (step - pert_y))
            if eta_on_mu
            else proj(y + step_size * step - pert_y)
        )
    return xa, y


def simultaneous(payoff: Any, *, mu: float, step_size: float, iterations: int) -> tuple[Any, Any]:
    """Mutant: the y step uses the old x (simultaneous instead of alternating)."""
    return _run(payoff, mu, step_size, iterations, alternating=False)


def clip_normalise(payoff: Any, *, mu: float, step_size: float, iterations: int) -> tuple[Any, Any]:
    """Mutant: projection replaced by clipping at 0 and renormalising."""
    return _run(payoff, mu, step_size, iterations, proj=_clip_normalise)


def missing_projection(
    payoff: Any, *, mu: float, step_size: float, iterations: int
) -> tuple[Any, Any]:
    """Mutant: iterates are only clipped to [0, 1], never projected onto the simplex."""
    return _run(payoff, mu, step_size, iterations, proj=_clip_only)


def unsorted_projection(
    payoff: Any, *, mu: float, step_size: float, iterations: int
) -> tuple[Any, Any]:
    """Mutant: the sort-based projection without the sort."""
    return _run(payoff, mu, step_size, iterations, proj=_unsorted_projection)


def wrong_sign(payoff: Any, *, mu: float, step_size: float, iterations: int) -> tuple[Any, Any]:
    """Mutant: the perturbation enters with the wrong sign (``Ay - μx``)."""
    return _run(payoff, mu, step_size, iterations, sign=-1.0)


def no_eta_on_mu(payoff: Any, *, mu: float, step_size: float, iterations: int) -> tuple[Any, Any]:
    """Mutant: the step size multiplies ``Ay`` but not ``μx``."""
    return _run(payoff, mu, step_size, iterations, eta_on_mu=False)


def no_mirror(payoff: Any, *, mu: float, step_size: float, iterations: int) -> tuple[Any, Any]:
    """Mutant: y is taken from the x-side run instead of the mirrored run."""
    return _run(payoff, mu, step_size, iterations, mirror=False)


def accepts_nan(payoff: Any, *, mu: float, step_size: float, iterations: int) -> tuple[Any, Any]:
    """Mutant: no input validation (NaN payoffs and μ <= 0 run silently)."""
    a = np.nan_to_num(np.asarray(payoff, dtype=np.float64))
    return _run(a, abs(mu) + 1e-3, abs(step_size) + 1e-3, iterations)


def y_first_mirror(payoff: Any, *, mu: float, step_size: float, iterations: int) -> tuple[Any, Any]:
    """Mutant: the mirrored run updates the perturbed y first (the earlier reconstruction)."""
    a = np.asarray(payoff, dtype=np.float64)
    xa, _ = _run(a, mu, step_size, iterations, mirror=False)
    yb, _ = _run(-a.T, mu, step_size, iterations, mirror=False)
    return xa, yb


def utility_orientation(
    payoff: Any, *, mu: float, step_size: float, iterations: int
) -> tuple[Any, Any]:
    """Mutant: reads the loss ``A`` as the row player's utility (solves the mirrored game)."""
    a = np.asarray(payoff, dtype=np.float64)
    x, y = _run(-a, mu, step_size, iterations)
    return x, y
