"""Independent recomputations that theorem checks use instead of a result's own fields.

STYLE B7: a check measures what an implementation *returned* (strategies, tours,
iterates), never the ``gap``/``nash_conv``/``alpha`` fields the implementation reports
about itself.  The routines here are deliberately written apart from ``reference`` so a
defect there cannot cancel out in a check.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from reference._arrays import FloatArray

__all__ = [
    "alpha_objective_parts",
    "matrix_game_gap",
    "simplex_violation",
    "ski_opt",
    "ski_policy_cost",
    "ski_threshold_costs",
    "tour_cost",
]


def simplex_violation(p: object) -> float:
    """How far ``p`` is from the probability simplex: ``max(-min p, |sum p - 1|)`` (inf if not
    a finite 1-D vector).

    Example:
        >>> simplex_violation([0.5, 0.5]), simplex_violation([1.5, -0.5])
        (0.0, 0.5)
    """
    v = np.asarray(p, dtype=np.float64)
    if v.ndim != 1 or v.size == 0 or not np.all(np.isfinite(v)):
        return float("inf")
    return float(max(0.0, -float(v.min()), abs(float(v.sum()) - 1.0)))


def matrix_game_gap(payoff: FloatArray, x: object, y: object) -> float:
    """Duality gap of a returned pair, the row player minimising ``xᵀAy``, plus the pair's
    distance from the simplices (so an off-simplex answer cannot look optimal).

    ``max_j (xᵀA)_j - min_i (Ay)_i + violation(x) + violation(y)``, computed by explicit
    sums over pure strategies; ``inf`` when a strategy has the wrong shape or is not finite.

    Example:
        >>> import numpy as np
        >>> a = np.array([[0.0, 1.0], [1.0, 0.0]])
        >>> matrix_game_gap(a, [0.5, 0.5], [0.5, 0.5]), matrix_game_gap(a, [1.0, 0.0], [0.5, 0.5])
        (0.0, 0.5)
    """
    a = np.asarray(payoff, dtype=np.float64)
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    m, n = a.shape
    if xs.shape != (m,) or ys.shape != (n,):
        return float("inf")
    violation = simplex_violation(xs) + simplex_violation(ys)
    if not np.isfinite(violation):
        return float("inf")
    column_payoffs = [sum(float(xs[i]) * float(a[i, j]) for i in range(m)) for j in range(n)]
    row_losses = [sum(float(a[i, j]) * float(ys[j]) for j in range(n)) for i in range(m)]
    return max(column_payoffs) - min(row_losses) + violation


def tour_cost(distances: object, tour: object) -> float:
    """Length of the closed tour ``tour`` (``inf`` unless it is a permutation of ``range(n)``).

    ``Σ_k w[t_k, t_{k+1 mod n}]`` by an explicit loop, so a decoder's reported cost is never
    needed.

    Example:
        >>> w = [[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]]
        >>> tour_cost(w, [0, 1, 2]), tour_cost(w, [0, 1, 1])
        (4.0, inf)
    """
    w = np.asarray(distances, dtype=np.float64)
    t = np.asarray(tour)
    n = w.shape[0]
    if t.shape != (n,) or not np.issubdtype(t.dtype, np.integer):
        return float("inf")
    order = [int(v) for v in t.tolist()]
    if sorted(order) != list(range(n)):
        return float("inf")
    return float(sum(float(w[order[k], order[(k + 1) % n]]) for k in range(n)))


def ski_threshold_costs(p: Sequence[Any], b: Any) -> list[Any]:
    """Expected costs of the rules "rent ``K`` days, then buy" for ``K = 0..N`` (the last,
    ``K = N``, equals never buying) when the season lasts ``T`` days with ``P(T = t) = p[t]``.

    A day-``T`` season costs ``T`` when ``T <= K`` and ``K + b`` otherwise; sums run over the
    entries as given (Fractions stay exact).

    Example:
        >>> from fractions import Fraction as F
        >>> ski_threshold_costs([F(0), F(1, 2), F(1, 2)], 2)
        [Fraction(2, 1), Fraction(2, 1), Fraction(3, 2)]
    """
    n = len(p)
    zero = p[0] * 0
    out: list[Any] = []
    below = zero  # Σ_{t <= K} t p_t
    above = sum(p[1:], zero)  # Σ_{t > K} p_t
    for k in range(n):
        below = below + k * p[k]
        if k > 0:
            above = above - p[k]
        out.append(below + (k + b) * above if k < n - 1 else below)
    return out


def ski_opt(p: Sequence[Any], b: Any) -> Any:
    """``OPT_p = min_K c(A_K)_p`` over every threshold (never buying included)."""
    return min(ski_threshold_costs(p, b))


def ski_policy_cost(weights: object, p: Sequence[Any], b: Any) -> Any:
    """Expected cost under ``p`` of a policy given by its returned weights over ``A_0, A_1, …``
    (last entry: never buy).  A one-hot vector is evaluated as the deterministic rule in the
    arithmetic of ``p`` (exact for Fractions); a mixture in float64.  ``inf`` for weights that
    are not a probability vector.
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 1 or w.size == 0 or not np.all(np.isfinite(w)) or float(w.min()) < 0.0:
        return math.inf
    if abs(float(w.sum()) - 1.0) > 1e-9:
        return math.inf
    costs = ski_threshold_costs(p, b)
    last = len(costs) - 1

    def at(k: int) -> Any:  # K >= N and never buying cost the same as K = N
        return costs[min(k, last)]

    hot = np.flatnonzero(w)
    if hot.size == 1:
        k = int(hot[0])
        return costs[last] if k == w.size - 1 else at(k)
    total = sum(float(w[k]) * float(at(k)) for k in range(w.size - 1))
    return total + float(w[-1]) * float(costs[last])


def alpha_objective_parts(
    zx: object, zy: object, theta: object, alpha: float
) -> tuple[float, FloatArray, FloatArray]:
    """``(Ĵ(θ), ∇Ĵ(θ), -∇²Ĵ(θ))`` of spec 13's empirical objective, written out from the
    definition ``Ĵ = mean_x (e^{(α-1)φ} - 1)/(α-1) - mean_y (e^{αφ} - 1)/α`` with
    ``φ = ⟨w, z⟩ + c``, ``θ = (w, c)`` (no clipping; used by the divergence checks).

    Example:
        >>> import numpy as np
        >>> value, grad, neg_hess = alpha_objective_parts(np.ones((2, 1)), np.ones((2, 1)),
        ...                                               np.zeros(2), 0.5)
        >>> abs(value), grad.tolist()
        (0.0, [0.0, 0.0])
    """
    fx = np.asarray(zx, dtype=np.float64)
    fy = np.asarray(zy, dtype=np.float64)
    t = np.asarray(theta, dtype=np.float64)
    sx = np.hstack([fx, np.ones((fx.shape[0], 1))])
    sy = np.hstack([fy, np.ones((fy.shape[0], 1))])
    ex = np.exp((alpha - 1.0) * (sx @ t))
    ey = np.exp(alpha * (sy @ t))
    value = float(np.mean(ex - 1.0) / (alpha - 1.0) - np.mean(ey - 1.0) / alpha)
    grad: FloatArray = sx.T @ ex / fx.shape[0] - sy.T @ ey / fy.shape[0]
    neg_hess: FloatArray = (1.0 - alpha) * (sx.T * ex) @ sx / fx.shape[0] + alpha * (
        sy.T * ey
    ) @ sy / fy.shape[0]
    return value, grad, neg_hess
