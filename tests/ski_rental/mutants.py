"""Hand-made broken ski-rental implementations: each ``ski_rental.*`` suite must reject them.

Importable (``tests.ski_rental.mutants:emd_signed``) so the CLI tests can target them.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from reference import ski_rental as sr
from reference._arrays import FloatArray

# ------------------------------------------------------------------------------- emd


def _floats(p: Any) -> FloatArray:
    return np.array([float(v) for v in p], dtype=np.float64)


def _padded(p: Any, q: Any) -> tuple[FloatArray, FloatArray]:
    a, c = _floats(p), _floats(q)
    n = max(a.size, c.size)
    return np.pad(a, (0, n - a.size)), np.pad(c, (0, n - c.size))


def emd_signed(p: Any, q: Any) -> float:
    """EMD mutant 1: forgets the absolute value (signed CDF difference)."""
    a, c = _padded(p, q)
    return float(np.sum(np.cumsum(a - c)[:-1]))


def emd_pdf(p: Any, q: Any) -> float:
    """EMD mutant 2: L1 distance of the masses instead of the CDFs."""
    a, c = _padded(p, q)
    return float(np.sum(np.abs(a - c)))


def emd_day_weighted(p: Any, q: Any) -> float:
    """EMD mutant 3: weights the CDF gap by the day index (not shift invariant)."""
    a, c = _padded(p, q)
    gaps = np.abs(np.cumsum(a - c)[:-1])
    return float(np.sum(gaps * np.arange(1, gaps.size + 1)) / max(1, gaps.size))


def emd_squared(p: Any, q: Any) -> float:
    """EMD mutant 4: squares the CDF gaps (a Cramér-type distance; breaks the centroid bound)."""
    a, c = _padded(p, q)
    return float(np.sum(np.cumsum(a - c)[:-1] ** 2))


# ------------------------------------------------------------------------------- opt


def opt_hindsight(p: Any, b: Any) -> float:
    """OPT mutant 1: the hindsight benchmark ``E[min(T, b)]`` (the paper's remark)."""
    a = _floats(p)
    return float(a @ np.minimum(np.arange(a.size), float(b)))


def opt_upper(p: Any, b: Any) -> float:
    """OPT mutant 2: ``min(E[T], b)`` (only A_0 and A_∞)."""
    a = _floats(p)
    return min(float(np.arange(a.size) @ a), float(b))


def opt_no_never(p: Any, b: Any) -> float:
    """OPT mutant 3: forgets the never-buy rule A_∞ (K only up to N - 1)."""
    curve = sr.cost_curve(p, b)
    return float(np.min(curve[:-1])) if curve.size > 1 else float(curve[0])


# ------------------------------------------------------------------------------- expected cost


def ec_last_is_threshold(weights: Any, p: Any, b: Any) -> float:
    """Expected-cost mutant 1: reads the last weight as A_n instead of never buying."""
    w = _floats(weights)
    curve = sr.cost_curve(p, b)
    index = np.minimum(np.arange(w.size), curve.size - 1)
    return float(w @ curve[index])


def ec_off_by_one(weights: Any, p: Any, b: Any) -> float:
    """Expected-cost mutant 2: weight K is charged as A_{K+1}."""
    w = _floats(weights)
    curve = sr.cost_curve(p, b)
    index = np.minimum(np.arange(1, w.size), curve.size - 1)
    return float(w[:-1] @ curve[index] + w[-1] * curve[-1])


def ec_sharpened(weights: Any, p: Any, b: Any) -> float:
    """Expected-cost mutant 3: re-weights the mixture by ``w²/Σw²`` (not linear in ``w``)."""
    w = _floats(weights) ** 2
    return float(sr.expected_cost(w / w.sum(), p, b))


# ------------------------------------------------------------------------------- threshold


def ot_zero(p: Any, b: Any) -> int:
    """Threshold mutant 1: always buys at once."""
    sr.optimal_threshold(p, b)
    return 0


def ot_worst(p: Any, b: Any) -> int:
    """Threshold mutant 2: the worst threshold instead of the best."""
    return int(np.argmax(sr.cost_curve(p, b)))


def ot_length_dependent(p: Any, b: Any) -> float:
    """Threshold mutant 3: gives up (never buys) on long vectors, padding included."""
    if len(p) > 24:
        return math.inf
    return sr.optimal_threshold(p, b)


def ot_no_never(p: Any, b: Any) -> int:
    """Threshold mutant 4: minimises over K = 0..N-1 only (forgets A_∞ unless padded)."""
    curve = sr.cost_curve(p, b)
    return int(np.argmin(curve[:-1])) if curve.size > 1 else 0


# ------------------------------------------------------------------------------- main algorithm


def main_no_delay(p_hat: Any, b: Any) -> sr.Policy:
    """Main mutant 1: no √b delay (K* = min(K̂, U))."""
    d = sr.main_threshold(p_hat, b)
    return sr.Policy(weights=_point(min(d.k_hat, d.u)), threshold=min(d.k_hat, d.u))


def main_no_cap(p_hat: Any, b: Any) -> sr.Policy:
    """Main mutant 2: no quantile cap (the base algorithm; loses robustness)."""
    return sr.base_algorithm(p_hat, b)


def main_ceil_sqrt(p_hat: Any, b: Any) -> sr.Policy:
    """Main mutant 3: delays by ⌈√b⌉ instead of ⌊√b⌋."""
    d = sr.main_threshold(p_hat, b)
    r = math.ceil(math.sqrt(float(b)))
    k = min(d.k_hat + r, d.u + r)
    return sr.Policy(weights=_point(k), threshold=k)


def main_delay_b(p_hat: Any, b: Any) -> sr.Policy:
    """Main mutant 4: delays by b instead of √b (consistency breaks)."""
    d = sr.main_threshold(p_hat, b)
    shift = math.ceil(float(b))
    k = min(d.k_hat + shift, d.u + shift)
    return sr.Policy(weights=_point(k), threshold=k)


def _point(k: float) -> FloatArray:
    if k == math.inf:
        return np.ones(1)
    w = np.zeros(int(k) + 2)
    w[int(k)] = 1.0
    return w


# ------------------------------------------------------------------------------- robust


def robust_no_clamp(p_hat: Any, b: Any, lam: Any) -> sr.Policy:
    """Robust mutant 1: ignores λ (returns Algorithm 1's K*)."""
    return sr.main_algorithm(p_hat, b)


def robust_swapped(p_hat: Any, b: Any, lam: Any) -> sr.Policy:
    """Robust mutant 2: clamps with ⌈b/λ⌉ below and ⌈λb⌉ above (sides swapped)."""
    lam_f = float(lam)
    k_star = sr.main_threshold(p_hat, b).k_star
    if lam_f == 0:
        k: float = k_star
    elif k_star <= float(b):
        low = math.ceil(float(b) / lam_f)
        k = low - 1 if k_star < low else k_star
    else:
        high = math.ceil(lam_f * float(b))
        k = high - 1 if k_star >= high else k_star
    return sr.Policy(weights=_point(k), threshold=k)


def robust_zero_is_break_even(p_hat: Any, b: Any, lam: Any) -> sr.Policy:
    """Robust mutant 3: λ = 0 falls back to break-even instead of Algorithm 1."""
    if float(lam) == 0:
        return sr.break_even(b)
    return sr.robust_algorithm(p_hat, b, lam)


# ------------------------------------------------------------------------------- point truth


def point_truth_main(p_hat: Any, b: Any) -> sr.Policy:
    """Point-truth mutant 1: runs Algorithm 1 (loss r even when p̂ = δ_T)."""
    return sr.main_algorithm(p_hat, b)


def point_truth_follow(p_hat: Any, b: Any) -> sr.Policy:
    """Point-truth mutant 2: follows the prediction (loss Ω(b·EMD) on the B5 example)."""
    return sr.follow_the_prediction(p_hat, b)


def point_truth_break_even(p_hat: Any, b: Any) -> sr.Policy:
    """Point-truth mutant 3: ignores the prediction (break-even)."""
    return sr.break_even(b)


# ------------------------------------------------------------------------------- generic policy


def policy_unnormalised(p_hat: Any, b: Any) -> FloatArray:
    """Policy mutant 1: weights that sum to 2."""
    return 2.0 * np.array(sr.main_algorithm(p_hat, b).weights)


def policy_negative_threshold(p_hat: Any, b: Any) -> int:
    """Policy mutant 2: encodes "never buy" as threshold -1 (base algorithm)."""
    k = sr.base_algorithm(p_hat, b).threshold
    return -1 if k == math.inf or k is None else int(k)


_COUNTER = itertools.count()


def policy_stateful(p_hat: Any, b: Any) -> sr.Policy:
    """Policy mutant 3: hidden state (alternates between K* and K* + 1)."""
    policy = sr.main_algorithm(p_hat, b)
    if next(_COUNTER) % 2 and policy.threshold != math.inf and policy.threshold is not None:
        k = int(policy.threshold) + 1
        return sr.Policy(weights=_point(k), threshold=k)
    return policy


def policy_no_validation(p_hat: Any, b: Any) -> sr.Policy:
    """Policy mutant 4: no input validation (negative masses, b <= 1 accepted)."""
    a = np.nan_to_num(_floats(p_hat))
    if a.size == 0 or float(b) <= 1:
        return sr.Policy(weights=np.ones(1), threshold=math.inf)
    a = np.abs(a) / max(float(np.sum(np.abs(a))), 1e-300)
    return sr.main_algorithm(a, max(float(b), 1.5))


# ------------------------------------------------------------------------------- classical


def classical_never(b: Any) -> float:
    """Classical mutant 1: never buys."""
    return math.inf


def classical_at_once(b: Any) -> int:
    """Classical mutant 2: buys on day 1."""
    return 0


def classical_late(b: Any) -> int:
    """Classical mutant 3: break-even off by one (buys on day b + 1)."""
    return math.ceil(float(b))
