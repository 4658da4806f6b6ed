"""Ski rental with distributional predictions of unknown quality.

Setting (spec 12, §2).  Renting costs 1 per day, buying costs ``b > 1`` once.  The
season lasts ``T`` days, ``T`` drawn from an unknown true distribution ``p``; the
algorithm sees a predicted distribution ``p̂``.  A *distribution* is a 1-D
probability vector over days ``0..N`` (entry ``t`` = probability that the season lasts
``t`` days); vectors of different lengths are compared after padding with zeros.

Policies.  The deterministic rule ``A_K`` rents on days ``1..K`` and buys at the start
of day ``K + 1`` if still skiing (``A_0`` buys at once, ``A_∞`` never buys):

    cost(A_K, T) = T if T <= K else K + b,        cost(A_∞, T) = T.

With the tail ``Q_K = Σ_{t>K} p_t`` the expected cost is (identity (△) of the spec)

    c(A_K)_p = Σ_{i=0}^{K-1} Q_i + b·Q_K,          c(A_∞)_p = Σ_t t·p_t,

and ``OPT_p = min_K c(A_K)_p`` (``K`` over ``0..N`` and ``∞``).  A randomized policy
is a mixture of the ``A_K``: :class:`Policy` stores it as a probability vector
``weights`` whose entry ``K`` is ``P(A_K)`` for ``K = 0..len-2`` and whose **last
entry is ``P(A_∞)``** (never buy).  Thresholds are returned as ``int`` or
``math.inf`` (never buy).

Exact arithmetic.  Give the masses as :class:`fractions.Fraction` (ints allowed
alongside) and every quantity is computed exactly and returned as a ``Fraction``;
float64 input is computed in floating point (tolerances documented per function).

Symbol map: ``b`` is ``b``; ``r = ⌊√b⌋`` (the paper's ``√b``, spec §2); ``p̂`` is
``p_hat``; ``η = EMD(p̂, p)`` is :func:`emd`; ``K̂`` is :func:`optimal_threshold`;
``U``, ``K*`` are fields of :func:`main_threshold`.

References:
    Q. Cui, M. Dinitz, "Ski Rental with Distributional Predictions of Unknown Quality",
    ICML 2026, arXiv:2602.21104 (spec 12 of this project; the paper numbers its main
    algorithm "Algorithm 1"; the base, λ-robust and point-truth algorithms are stated in
    its appendix without numbers, so they are cited by the spec's section).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeAlias

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import (
    FloatArray,
    as_float_array,
    describe,
    readonly,
    require_int,
    require_positive,
    require_probability,
)
from reference._repr import summary_repr

__all__ = [
    "DIST_ATOL",
    "MAX_LENGTH",
    "TIE_RTOL",
    "Distribution",
    "DistributionLike",
    "MainDecision",
    "Policy",
    "Real",
    "Threshold",
    "base_algorithm",
    "break_even",
    "cost_curve",
    "emd",
    "expected_cost",
    "follow_the_prediction",
    "from_atoms",
    "main_algorithm",
    "main_threshold",
    "opt_cost",
    "optimal_threshold",
    "pareto_hard_prediction",
    "point_mass",
    "point_prediction_rule",
    "point_truth_algorithm",
    "prediction_plugin_rule",
    "randomized_classical",
    "robust_algorithm",
    "robust_point_rule",
    "sqrt_floor",
    "threshold_cost",
]

#: Tolerance on ``|Σ p - 1|`` for float distributions (spec §2); Fractions must sum to 1 exactly.
DIST_ATOL = 1e-9
#: Relative tie tolerance of :func:`optimal_threshold` for floats (spec §3.0, our default).
TIE_RTOL = 1e-12

#: A distribution as the functions accept it: float64 vector, or a tuple of Fractions (exact).
Distribution: TypeAlias = FloatArray | tuple[Fraction, ...]
#: A threshold ``K``: a non-negative ``int``, or ``math.inf`` for "never buy" (``A_∞``).
Threshold: TypeAlias = int | float
Value: TypeAlias = float | Fraction
#: What a distribution argument accepts: an array-like of floats, or a sequence of Fractions and
#: ints (the exact path, selected when at least one entry is a Fraction).
DistributionLike: TypeAlias = ArrayLike | Sequence[Fraction | int]
#: A real scalar argument (``b``, ``lam``, a point prediction): an exact Fraction selects exact arithmetic.
Real: TypeAlias = int | float | Fraction


# --------------------------------------------------------------------------- validation
def _exact_entries(value: object) -> tuple[Fraction, ...] | None:
    """Entries as Fractions when ``value`` is a 1-D list/tuple/object array of ints and
    Fractions holding at least one Fraction (the exact path); ``None`` otherwise."""
    if isinstance(value, np.ndarray):
        if value.dtype != object or value.ndim != 1:
            return None
        items: list[object] = list(value.tolist())
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        return None
    out: list[Fraction] = []
    for v in items:
        if isinstance(v, Fraction):
            out.append(v)
        elif isinstance(v, int | np.integer) and not isinstance(v, bool):
            out.append(Fraction(int(v)))
        else:
            return None
    if not out or not any(isinstance(v, Fraction) for v in items):
        return None
    return tuple(out)


def _as_distribution(name: str, value: object) -> Distribution:
    """Validate a probability vector; Fraction entries select the exact path."""
    exact = _exact_entries(value)
    if exact is not None:
        low = min(exact)
        if low < 0:
            raise ValueError(f"{name}: expected a probability vector (entries >= 0), got min {low}")
        total = sum(exact, Fraction(0))
        if total != 1:
            raise ValueError(
                f"{name}: expected a probability vector (sum exactly 1 for Fractions), "
                f"got sum {total}"
            )
        return exact
    probs = as_float_array(name, value, ndim=1)
    low_f = float(np.min(probs))
    if low_f < 0.0:
        raise ValueError(f"{name}: expected a probability vector (entries >= 0), got min {low_f!r}")
    total_f = float(np.sum(probs))
    if abs(total_f - 1.0) > DIST_ATOL:
        raise ValueError(
            f"{name}: expected a probability vector (sum 1 within {DIST_ATOL}), got sum {total_f!r}"
        )
    return probs


def _exact_b(value: object) -> Fraction:
    """``b`` as an exact Fraction (a float is taken at its exact binary value)."""
    b_float = require_positive("b", value)
    b = Fraction(value) if isinstance(value, int | Fraction) else Fraction(b_float)
    if not b > 1:
        raise ValueError(f"b: expected a buy cost > 1, got {b_float!r}")
    return b


def _as_b(value: object, *, exact: bool) -> Value:
    if exact:
        return _exact_b(value)
    b = require_positive("b", value)
    if not b > 1.0:
        raise ValueError(f"b: expected a buy cost > 1, got {b!r}")
    return b


def _as_lambda(value: object, *, open_low: bool = False, open_high: bool = False) -> Fraction:
    lam = require_probability("lam", value, open_low=open_low, open_high=open_high)
    return value if isinstance(value, Fraction) else Fraction(lam)


def _as_threshold(name: str, value: object) -> Threshold:
    if isinstance(value, float) and value == math.inf:
        return math.inf
    return require_int(name, value, minimum=0)


def sqrt_floor(b: float | Fraction) -> int:
    """``r = ⌊√b⌋`` computed exactly (``⌊√b⌋ = isqrt(⌊b⌋)`` for real ``b >= 0``).

    Raises:
        TypeError: ``b`` is not a real number.
        ValueError: ``b`` is not finite or ``b <= 1``.

    Example:
        >>> sqrt_floor(10), sqrt_floor(16), sqrt_floor(Fraction(99, 4))
        (3, 4, 4)
    """
    value = _as_b(b, exact=isinstance(b, Fraction))
    return math.isqrt(math.floor(value))


# --------------------------------------------------------------------------- core tables
def _pad(p: Distribution, length: int) -> Distribution:
    if len(p) >= length:
        return p
    if isinstance(p, np.ndarray):
        return np.concatenate([p, np.zeros(length - len(p))])
    return p + (Fraction(0),) * (length - len(p))


def _common(p: Distribution, q: Distribution) -> tuple[Distribution, Distribution]:
    """Pad to a common length; mixed exact/float pairs are both converted to float."""
    n = max(len(p), len(q))
    if isinstance(p, np.ndarray) != isinstance(q, np.ndarray):
        p = np.array([float(v) for v in p]) if not isinstance(p, np.ndarray) else p
        q = np.array([float(v) for v in q]) if not isinstance(q, np.ndarray) else q
    return _pad(p, n), _pad(q, n)


def _tails(p: Distribution) -> Distribution:
    """``Q_K = Σ_{t>K} p_t`` for ``K = 0..N`` (``Q_N = 0``), by suffix sums."""
    if isinstance(p, np.ndarray):
        suffix = np.cumsum(p[::-1])[::-1]
        out: FloatArray = np.concatenate([suffix[1:], [0.0]])
        return np.maximum(out, 0.0)
    tails = [Fraction(0)] * len(p)
    acc = Fraction(0)
    for k in range(len(p) - 1, 0, -1):
        acc += p[k]
        tails[k - 1] = acc
    return tuple(tails)


def _costs(p: Distribution, b: Value) -> Distribution:
    """``c_K = Σ_{i<K} Q_i + b Q_K`` for ``K = 0..N``; ``c_N = c(A_∞)`` (identity (△))."""
    q = _tails(p)
    if isinstance(q, np.ndarray):
        prefix = np.concatenate([[0.0], np.cumsum(q)[:-1]])
        result: FloatArray = prefix + float(b) * q
        return result
    bq = Fraction(b)
    out: list[Fraction] = []
    acc = Fraction(0)
    for qk in q:
        out.append(acc + bq * qk)
        acc += qk
    return tuple(out)


def _support_max(p: Distribution) -> int:
    if isinstance(p, np.ndarray):
        nz = np.flatnonzero(p > 0.0)
        return int(nz[-1]) if nz.size else 0
    for t in range(len(p) - 1, -1, -1):
        if p[t] > 0:
            return t
    return 0


def _cost_at(costs: Distribution, k: Threshold) -> Value:
    n = len(costs) - 1
    index = n if (k == math.inf or k >= n) else int(k)
    value = costs[index]
    return float(value) if isinstance(costs, np.ndarray) else value


def _opt_threshold(p: Distribution, b: Value) -> Threshold:
    # spec §3.0: smallest finite K < s attaining the minimum, else ∞
    s = _support_max(p)
    if s == 0:
        return 0
    costs = _costs(p, b)
    c_inf = costs[len(costs) - 1]
    if isinstance(costs, np.ndarray):
        finite = costs[:s]
        m = min(float(np.min(finite)), float(c_inf))
        hits = np.flatnonzero(finite <= m + TIE_RTOL * max(1.0, m))
        return int(hits[0]) if hits.size else math.inf
    m_exact = min(min(costs[:s]), c_inf)
    for k in range(s):
        if costs[k] == m_exact:
            return k
    return math.inf


def _quantile_index(p: Distribution, level: Value) -> int:
    """``U = min{t >= 0 : Q_t <= level}`` (always finite: ``Q_N = 0``)."""
    q = _tails(p)
    if isinstance(q, np.ndarray):
        hits = np.flatnonzero(q <= float(level) + TIE_RTOL)
        return int(hits[0])
    for t, qt in enumerate(q):
        if qt <= level:
            return t
    return len(q) - 1  # pragma: no cover - Q_N = 0 always satisfies the test


# --------------------------------------------------------------------------- results
@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class Policy:
    """A ski-rental policy: a probability vector over the threshold rules ``A_K``.

    Attributes:
        weights: ``(n + 1,)`` float64, read-only.  ``weights[K] = P(A_K)`` (rent ``K`` days,
            buy at the start of day ``K + 1``) for ``K = 0..n-1``; the **last entry**
            ``weights[n]`` is ``P(A_∞)`` (never buy).  Entries ``>= 0`` summing to 1.
        threshold: the threshold ``K`` (``int``) or ``math.inf`` when the policy is the
            deterministic ``A_K``; ``None`` for a genuine mixture.
        name: which rule produced it (for reports).
    """

    weights: FloatArray
    threshold: Threshold | None
    name: str = ""

    def __post_init__(self) -> None:
        w = self.weights
        if w.ndim != 1 or w.size == 0 or not bool(np.all(np.isfinite(w))):
            raise ValueError(f"weights: expected a finite non-empty 1-D vector, got {describe(w)}")
        if float(np.min(w)) < 0.0 or abs(float(np.sum(w)) - 1.0) > DIST_ATOL:
            raise ValueError("weights: expected entries >= 0 summing to 1")

    @property
    def never_buy_probability(self) -> float:
        """``P(A_∞)``: the last entry of :attr:`weights`."""
        return float(self.weights[-1])


def _deterministic(k: Threshold, name: str) -> Policy:
    if k == math.inf:
        return Policy(weights=readonly(np.ones(1)), threshold=math.inf, name=name)
    kk = int(k)
    w = np.zeros(kk + 2)
    w[kk] = 1.0
    return Policy(weights=readonly(w), threshold=kk, name=name)


@dataclass(frozen=True, slots=True, kw_only=True)
class MainDecision:
    """The quantities of the main algorithm (spec §3.2), for inspection and proofs.

    Attributes:
        k_hat: ``K̂``, the optimal threshold for ``p̂`` (``int`` or ``math.inf``).
        u: ``U = min{t >= 0 : Q̂_t <= 1/r}`` (always finite).
        r: ``⌊√b⌋``.
        k_star: ``K* = min(K̂ + r, U + r)``, the threshold the algorithm runs.
    """

    k_hat: Threshold
    u: int
    r: int
    k_star: Threshold


# --------------------------------------------------------------------------- public API
#: The longest probability vector :func:`point_mass` and :func:`from_atoms` build: a distribution
#: over days ``0..n-1`` is a dense vector, and 10**7 float64 entries are 80 MB already.
MAX_LENGTH = 10**7


def _dense_length(name: str, size: int) -> int:
    """``size`` if a dense vector of that length is within :data:`MAX_LENGTH`, else ValueError."""
    if size > MAX_LENGTH:
        raise ValueError(
            f"{name}: a distribution over {size} days is longer than MAX_LENGTH = {MAX_LENGTH} "
            "(distributions are dense vectors over the days)"
        )
    return size


def point_mass(t: int, length: int | None = None) -> FloatArray:
    """The distribution ``δ_t`` as a float64 vector of ``length`` (default ``t + 1``).

    Raises:
        TypeError: ``t`` or ``length`` not an integer.
        ValueError: ``t < 0``, ``length <= t``, or a vector longer than :data:`MAX_LENGTH`.

    Example:
        >>> point_mass(2).tolist()
        [0.0, 0.0, 1.0]
    """
    day = require_int("t", t, minimum=0)
    if length is None:
        size = _dense_length("t", day + 1)
    else:
        size = _dense_length("length", require_int("length", length, minimum=day + 1))
    out = np.zeros(size)
    out[day] = 1.0
    return out


def from_atoms(days: ArrayLike, masses: DistributionLike, *, length: int | None = None) -> Distribution:
    """Build a distribution from its atoms: ``p_{days[i]} = masses[i]``.

    Args:
        days: ``(m,)`` strictly increasing non-negative integers (the support).
        masses: ``(m,)`` non-negative masses summing to 1; all ``Fraction``/``int`` for an
            exact result (a tuple of Fractions), otherwise floats (a float64 vector).
        length: length of the result (default ``days[-1] + 1``).

    Returns:
        The probability vector over ``0..length-1``.

    Raises:
        TypeError: non-numeric input.
        ValueError: days not integers, negative, unsorted or repeated; masses off the
            simplex; lengths differ; ``length`` too short; a vector longer than
            :data:`MAX_LENGTH` (the last day ``>= MAX_LENGTH``).

    Example:
        >>> from_atoms([1, 3], [Fraction(1, 2), Fraction(1, 2)])
        (Fraction(0, 1), Fraction(1, 2), Fraction(0, 1), Fraction(1, 2))
    """
    day_arr = as_float_array("days", days, ndim=1)
    if not bool(np.all(day_arr == np.round(day_arr))):
        raise ValueError(f"days: expected integer day indices, got {day_arr.tolist()}")
    if float(np.min(day_arr)) < 0:
        raise ValueError(f"days: expected day indices >= 0, got min {float(np.min(day_arr))}")
    if day_arr.size > 1 and not bool(np.all(np.diff(day_arr) > 0)):
        raise ValueError(f"days: expected strictly increasing day indices, got {day_arr.tolist()}")
    mass = _as_distribution("masses", masses)
    if len(mass) != day_arr.size:
        raise ValueError(
            f"masses: expected {day_arr.size} masses (one per day), got {len(mass)} entries"
        )
    last = int(day_arr[-1])
    if length is None:
        size = _dense_length("days", last + 1)
    else:
        size = _dense_length("length", require_int("length", length, minimum=last + 1))
    index = [int(d) for d in day_arr]
    if isinstance(mass, np.ndarray):
        out = np.zeros(size)
        out[index] = mass
        return out
    exact = [Fraction(0)] * size
    for i, d in enumerate(index):
        exact[d] = mass[i]
    return tuple(exact)


def cost_curve(p: DistributionLike, b: Real) -> FloatArray:
    """All expected costs ``c(A_K)_p`` for ``K = 0..N``, in float64 (last entry = ``c(A_∞)``).

    Uses (△): ``c_K = Σ_{i<K} Q_i + b·Q_K`` with suffix sums, ``O(N)``.  Since ``Q_N = 0``
    the last entry equals ``c(A_∞)_p = E_p[T]``; every ``K >= N`` costs the same.

    Args:
        p: ``(N + 1,)`` probability vector (floats or Fractions).
        b: buy cost ``> 1``.

    Returns:
        ``(N + 1,)`` float64 vector.

    Raises:
        TypeError: non-numeric input.
        ValueError: ``p`` not a probability vector, ``b <= 1`` or not finite.

    Example:
        >>> cost_curve([0.0, 0.5, 0.0, 0.5], 2.0).tolist()  # A_0 costs b, A_∞ costs E[T]
        [2.0, 2.0, 2.5, 2.0]
    """
    dist = _as_distribution("p", p)
    costs = _costs(dist, _as_b(b, exact=not isinstance(dist, np.ndarray)))
    return np.array([float(c) for c in costs]) if not isinstance(costs, np.ndarray) else costs


def threshold_cost(k: Threshold, p: DistributionLike, b: Real) -> Value:
    """Expected cost ``c(A_K)_p`` of the deterministic rule ``A_K`` (``K = math.inf``: never buy).

    Args:
        k: threshold, a non-negative ``int`` or ``math.inf``.
        p: probability vector (Fractions give an exact ``Fraction`` result).
        b: buy cost ``> 1``.

    Returns:
        ``Σ_{t<=K} t p_t + (K + b) Q_K`` (float, or Fraction on the exact path).

    Raises:
        TypeError: ``k`` not an integer (or ``inf``); non-numeric ``p``/``b``.
        ValueError: ``k < 0``; ``p`` not a probability vector; ``b <= 1``.

    Example:
        >>> threshold_cost(0, [Fraction(1, 2), Fraction(1, 2)], 3)
        Fraction(3, 2)
    """
    kk = _as_threshold("k", k)
    dist = _as_distribution("p", p)
    b_val = _as_b(b, exact=not isinstance(dist, np.ndarray))
    return _cost_at(_costs(dist, b_val), kk)


def opt_cost(p: DistributionLike, b: Real) -> Value:
    """``OPT_p = min_K c(A_K)_p`` over ``K ∈ {0..N} ∪ {∞}`` (the benchmark of the paper).

    Randomized policies are mixtures of the ``A_K``, so the minimum over deterministic
    thresholds is the optimum over all policies.  Exact for Fraction input.

    Args:
        p: ``(N + 1,)`` true distribution.
        b: buy cost ``> 1``.

    Returns:
        The optimal expected cost.

    Raises:
        TypeError: non-numeric input.
        ValueError: ``p`` not a probability vector; ``b <= 1``.

    Example:
        >>> opt_cost([Fraction(1, 2), 0, Fraction(1, 2)], 4)  # never buy: E[T] = 1
        Fraction(1, 1)
    """
    dist = _as_distribution("p", p)
    costs = _costs(dist, _as_b(b, exact=not isinstance(dist, np.ndarray)))
    if isinstance(costs, np.ndarray):
        return float(np.min(costs))
    return min(costs)


def expected_cost(policy: Policy | DistributionLike, p: DistributionLike, b: Real) -> Value:
    """Expected cost ``Σ_K w_K c(A_K)_p`` of a (randomized) policy under the true ``p``.

    Args:
        policy: a :class:`Policy`, or its weight vector ``(n + 1,)`` with the last entry the
            probability of never buying.
        p: ``(N + 1,)`` true distribution.
        b: buy cost ``> 1``.

    Returns:
        The expected cost; exact (``Fraction``) when ``p`` is exact and the policy is
        deterministic, float otherwise.

    Raises:
        TypeError: non-numeric input.
        ValueError: weights not a probability vector (atol 1e-9); ``p`` not a probability
            vector; ``b <= 1``.

    Example:
        >>> expected_cost(main_algorithm([0.0, 1.0], 4.0), [0.0, 1.0], 4.0)
        1.0
    """
    if isinstance(policy, Policy):
        weights, threshold = policy.weights, policy.threshold
    else:
        given = _as_distribution("policy", policy)
        weights = np.array([float(v) for v in given])
        threshold = None
    dist = _as_distribution("p", p)
    costs = _costs(dist, _as_b(b, exact=not isinstance(dist, np.ndarray)))
    if threshold is not None:
        return _cost_at(costs, threshold)
    n = len(costs) - 1
    cost_f = np.array([float(c) for c in costs]) if not isinstance(costs, np.ndarray) else costs
    finite = weights[:-1]
    index = np.minimum(np.arange(finite.size), n)
    return float(finite @ cost_f[index] + weights[-1] * cost_f[n])


def emd(p: DistributionLike, q: DistributionLike) -> Value:
    """Earth mover's distance ``W1(p, q) = Σ_t |F_p(t) - F_q(t)|`` on the integer line.

    Args:
        p: probability vector over days ``0..N``.
        q: probability vector over days ``0..M`` (the shorter one is padded with zeros).

    Returns:
        ``η``; exact (``Fraction``) when both inputs are exact.

    Raises:
        TypeError: non-numeric input.
        ValueError: either input not a probability vector.

    Example:
        >>> emd([0.0, 1.0], [0.5, 0.0, 0.5])
        1.0
    """
    pp, qq = _common(_as_distribution("p", p), _as_distribution("q", q))
    if isinstance(pp, np.ndarray) and isinstance(qq, np.ndarray):
        return float(np.sum(np.abs(np.cumsum(pp - qq)[:-1])))
    total = Fraction(0)
    acc = Fraction(0)
    for a, c in zip(pp[:-1], qq[:-1], strict=True):
        acc += Fraction(a) - Fraction(c)
        total += abs(acc)
    return total


def optimal_threshold(p: DistributionLike, b: Real) -> Threshold:
    """The best deterministic threshold ``K̂`` for a known distribution (spec §3.0).

    Computes ``c_K`` for ``K < s`` (``s`` = largest day with positive mass) and ``c_∞``
    by (△), and returns the smallest finite ``K < s`` attaining the minimum, else
    ``math.inf``; ``s = 0`` returns 0.  Ties: exact for Fractions, relative ``TIE_RTOL``
    (``1e-12·max(1, m)``) for floats.

    Args:
        p: probability vector over days ``0..N``.
        b: buy cost ``> 1``.

    Returns:
        ``K̂``: an ``int`` in ``0..s-1`` or ``math.inf``.

    Raises:
        TypeError: non-numeric input.
        ValueError: ``p`` not a probability vector; ``b <= 1``.

    Example:
        >>> optimal_threshold(point_mass(10), 4.0), optimal_threshold(point_mass(2), 4.0)
        (0, inf)

    References:
        Cui & Dinitz (ICML 2026), spec 12 §3.0.  Variant: tie-breaking is our default;
        the paper allows any minimizer.
    """
    dist = _as_distribution("p", p)
    return _opt_threshold(dist, _as_b(b, exact=not isinstance(dist, np.ndarray)))


def _main(dist: Distribution, b: Value) -> MainDecision:
    r = math.isqrt(math.floor(b))
    k_hat = _opt_threshold(dist, b)  # Alg. 1, l. 1
    level: Value = Fraction(1, r) if not isinstance(dist, np.ndarray) else 1.0 / r
    u = _quantile_index(dist, level)  # Alg. 1, l. 2 (Q̂_t <= 1/r)
    k_star = min(k_hat + r, u + r)  # Alg. 1, l. 3
    return MainDecision(k_hat=k_hat, u=u, r=r, k_star=k_star)


def main_threshold(p_hat: DistributionLike, b: Real) -> MainDecision:
    """``K̂``, ``U``, ``r`` and ``K* = min(K̂ + r, U + r)`` of the main algorithm.

    See :func:`main_algorithm`.  ``U = min{t >= 0 : Q̂_t <= 1/r}`` (``<=``, not ``<``;
    floats compare with absolute slack ``TIE_RTOL``, our default).

    Raises:
        TypeError: non-numeric input.
        ValueError: ``p_hat`` not a probability vector; ``b <= 1``.

    Example:
        >>> main_threshold(point_mass(20), 16.0)
        MainDecision(k_hat=0, u=20, r=4, k_star=4)
    """
    dist = _as_distribution("p_hat", p_hat)
    return _main(dist, _as_b(b, exact=not isinstance(dist, np.ndarray)))


def main_algorithm(p_hat: DistributionLike, b: Real) -> Policy:
    """Main algorithm (Algorithm 1): delay ``K̂`` by ``r = ⌊√b⌋`` and cap it by a tail quantile.

    1. ``K̂ = optimal_threshold(p̂, b)``;
    2. ``U = min{t >= 0 : Q̂_t <= 1/r}``;
    3. ``K* = min(K̂ + r, U + r)`` (``∞ + r = ∞``);
    4. run ``A_{K*}``.  Deterministic; it never looks at the true distribution.

    Its additive loss is ``O(min(√b·max(η, 1), b log b))`` with ``η = EMD(p̂, p)``.

    Args:
        p_hat: predicted distribution ``p̂`` over days ``0..N`` (Fractions: exact).
        b: buy cost ``> 1``.

    Returns:
        The deterministic :class:`Policy` ``A_{K*}`` (``threshold = K*``).

    Raises:
        TypeError: non-numeric input.
        ValueError: ``p_hat`` not a probability vector; ``b <= 1``.

    Example:
        >>> main_algorithm(point_mass(20), 16.0).threshold
        4

    References:
        Cui & Dinitz, ICML 2026, arXiv:2602.21104, Algorithm 1 (spec 12 §3.2).
        Variant: ``√b`` is replaced by ``⌊√b⌋`` for non-square ``b``, as the paper says.
    """
    return _deterministic(main_threshold(p_hat, b).k_star, "main (Algorithm 1)")


def base_algorithm(p_hat: DistributionLike, b: Real) -> Policy:
    """Base algorithm (non-robust): run ``A_{K̂ + r}``, or ``A_∞`` when ``K̂ = ∞``.

    Args:
        p_hat: predicted distribution.
        b: buy cost ``> 1``.

    Returns:
        The deterministic :class:`Policy`.

    Raises:
        TypeError: non-numeric input.
        ValueError: ``p_hat`` not a probability vector; ``b <= 1``.

    Example:
        >>> base_algorithm(point_mass(20), 16.0).threshold
        4

    References:
        Cui & Dinitz, ICML 2026, appendix base algorithm (spec 12 §3.1).
    """
    decision = main_threshold(p_hat, b)
    return _deterministic(decision.k_hat + decision.r, "base")


def robust_algorithm(p_hat: DistributionLike, b: Real, lam: Real) -> Policy:
    """λ-robustified main algorithm: clamp ``K*`` into ``[⌈λb⌉ - 1, ⌈b/λ⌉ - 1]``.

    "Buy at the start of day ``m``" is ``A_{m-1}``.  With ``K*`` from Algorithm 1:
    ``λ = 0`` runs ``A_{K*}``; if ``K* <= b`` and ``K* < ⌈λb⌉`` run ``A_{⌈λb⌉-1}``; if
    ``K* > b`` and ``K* >= ⌈b/λ⌉`` run ``A_{⌈b/λ⌉-1}``; otherwise ``A_{K*}``.  Then
    ``c <= (1 + 1/λ)·OPT_p`` and ``c <= (1 + λ)·c(A_{K*})_p`` for every ``p``.
    ``⌈λb⌉`` is computed exactly from the given numbers (``Fraction(lam) * Fraction(b)``).

    Args:
        p_hat: predicted distribution.
        b: buy cost ``> 1``.
        lam: ``λ ∈ [0, 1]`` (``1``: 2-competitive; ``0``: Algorithm 1).

    Returns:
        The deterministic :class:`Policy`.

    Raises:
        TypeError: non-numeric input.
        ValueError: ``p_hat`` not a probability vector; ``b <= 1``; ``lam ∉ [0, 1]``.

    Example:
        >>> robust_algorithm(point_mass(20), 16.0, 1.0).threshold  # buy on day ⌈b⌉ = 16
        15

    References:
        Cui & Dinitz, ICML 2026, appendix λ-robustification (spec 12 §3.3).
    """
    lam_q = _as_lambda(lam)
    decision = main_threshold(p_hat, b)
    k_star = decision.k_star
    bq = _exact_b(b)
    if lam_q == 0:
        return _deterministic(k_star, "lambda-robust")
    low = math.ceil(lam_q * bq)
    high = math.ceil(bq / lam_q)
    if k_star <= bq:
        chosen: Threshold = low - 1 if k_star < low else k_star
    else:
        chosen = high - 1 if k_star >= high else k_star
    return _deterministic(chosen, "lambda-robust")


def point_truth_algorithm(p_hat: DistributionLike, b: Real) -> Policy:
    """Deterministic algorithm for a point truth ``p = δ_T``: loss ``O(EMD(p̂, δ_T))``.

    ``K = optimal_threshold(p̂)``.  ``K = 0``: ``A_0``; ``K = ∞``: ``A_∞``.  If ``K >= b``:
    ``A_∞`` when ``Σ_{t<=b} p̂_t >= 1/3`` else ``A_0``.  If ``K < b``: ``A_∞`` when
    ``Σ_{t<=K} p̂_t >= 0.025`` else ``A_K``.  Constants exact (``1/3``, ``1/40``).

    Args:
        p_hat: predicted distribution.
        b: buy cost ``> 1``.

    Returns:
        The deterministic :class:`Policy`.

    Raises:
        TypeError: non-numeric input.
        ValueError: ``p_hat`` not a probability vector; ``b <= 1``.

    Example:
        >>> point_truth_algorithm(point_mass(20), 16.0).threshold
        0

    References:
        Cui & Dinitz, ICML 2026, appendix point-truth algorithm (spec 12 §3.4).
    """
    dist = _as_distribution("p_hat", p_hat)
    exact = not isinstance(dist, np.ndarray)
    b_val = _as_b(b, exact=exact)
    k = _opt_threshold(dist, b_val)
    name = "point-truth"
    if k == 0 or k == math.inf:
        return _deterministic(k, name)
    third: Value = Fraction(1, 3) if exact else 1.0 / 3.0
    fortieth: Value = Fraction(1, 40) if exact else 0.025

    def mass_upto(day: int) -> Value:
        top = min(day, len(dist) - 1)
        if isinstance(dist, np.ndarray):
            return float(np.sum(dist[: top + 1]))
        return sum(dist[: top + 1], Fraction(0))

    if k >= b_val:
        return _deterministic(math.inf if mass_upto(math.floor(b_val)) >= third else 0, name)
    kk = int(k)
    return _deterministic(math.inf if mass_upto(kk) >= fortieth else kk, name)


def follow_the_prediction(p_hat: DistributionLike, b: Real) -> Policy:
    """Baseline B5: run ``A_{K̂}`` with ``K̂ = optimal_threshold(p̂)`` (no delay, no cap).

    Its loss can be ``Ω(b·EMD)``.

    Raises:
        TypeError: non-numeric input.
        ValueError: ``p_hat`` not a probability vector; ``b <= 1``.

    Example:
        >>> follow_the_prediction(point_mass(20), 16.0).threshold
        0

    References:
        Spec 12 §3.5 (B5), the paper's motivating example.
    """
    return _deterministic(optimal_threshold(p_hat, b), "follow-the-prediction")


def break_even(b: Real) -> Policy:
    """Baseline B1 (Karlin et al.): rent until the rent paid would reach ``b``, then buy.

    For integer ``b`` this is ``A_{b-1}`` (buy on day ``b``); for real ``b``,
    ``A_{⌈b⌉-1}`` (our default).  Cost ``<= 2·min(T, b)`` for every ``T``.

    Raises:
        TypeError: ``b`` not a real number.
        ValueError: ``b <= 1`` or not finite.

    Example:
        >>> break_even(5).threshold
        4

    References:
        A. Karlin, M. Manasse, L. Rudolph, D. Sleator, "Competitive snoopy caching",
        Algorithmica 3 (1988); spec 12 §3.5 (B1).
    """
    b_val = _as_b(b, exact=False)
    return _deterministic(math.ceil(b_val) - 1, "break-even")


def randomized_classical(b: Real) -> Policy:
    """Baseline B2: buy at the start of day ``i ∈ {1..b}`` with probability ``q_i``.

    ``q_i = ((b-1)/b)^{b-i} / (b·(1 - (1 - 1/b)^b))`` (Karlin et al. 1994); expected cost
    ``<= e/(e-1)·min(T, b)`` in the limit of large ``b``.

    Args:
        b: integer-valued buy cost ``>= 2``.

    Returns:
        A mixture :class:`Policy` with ``weights[i-1] = q_i`` and ``P(never) = 0``.

    Raises:
        TypeError: ``b`` not a real number.
        ValueError: ``b`` not an integer value or ``b <= 1``.

    Example:
        >>> round(float(randomized_classical(2).weights[1]), 6)  # q_2 = 1/(2 (1 - 1/4))
        0.666667

    References:
        A. Karlin, M. Manasse, L. McGeoch, S. Owicki, "Competitive randomized algorithms
        for nonuniform problems", Algorithmica 11 (1994); spec 12 §3.5 (B2).
    """
    b_val = _as_b(b, exact=False)
    if b_val != math.floor(b_val):
        raise ValueError(f"b: expected an integer-valued buy cost for B2, got {b_val!r}")
    n = int(b_val)
    ratio = (n - 1) / n
    days = np.arange(1, n + 1, dtype=np.float64)
    q = ratio ** (n - days) / (n * (1.0 - ratio**n))
    w = np.zeros(n + 1)
    w[:n] = q / q.sum()  # renormalise the float rounding (the closed form sums to 1)
    return Policy(weights=readonly(w), threshold=None, name="randomized e/(e-1)")


def point_prediction_rule(y_hat: Real, b: Real) -> Policy:
    """Baseline B3 (Purohit, Svitkina, Kumar 2018): ``A_0`` if ``ŷ >= b`` else ``A_∞``.

    Cost ``<= min(T, b) + |T - ŷ|``.

    Args:
        y_hat: predicted number of ski days ``ŷ >= 0`` (real).
        b: buy cost ``> 1``.

    Raises:
        TypeError: non-numeric input.
        ValueError: ``y_hat < 0`` or not finite; ``b <= 1``.

    Example:
        >>> point_prediction_rule(3.0, 5.0).threshold
        inf

    References:
        M. Purohit, Z. Svitkina, R. Kumar, "Improving online algorithms via ML
        predictions", NeurIPS 2018; spec 12 §3.5 (B3).
    """
    y = require_positive("y_hat", y_hat, allow_zero=True)
    b_val = _as_b(b, exact=False)
    return _deterministic(0 if y >= b_val else math.inf, "point-prediction")


def robust_point_rule(y_hat: Real, b: Real, lam: Real) -> Policy:
    """Baseline B4 (Purohit et al. 2018): ``ŷ >= b``: buy at day ``⌈λb⌉``; else at ``⌈b/λ⌉``.

    Args:
        y_hat: predicted number of ski days ``>= 0``.
        b: buy cost ``> 1``.
        lam: ``λ ∈ (0, 1)``.

    Returns:
        ``A_{⌈λb⌉-1}`` or ``A_{⌈b/λ⌉-1}``.

    Raises:
        TypeError: non-numeric input.
        ValueError: ``y_hat < 0``; ``b <= 1``; ``lam ∉ (0, 1)``.

    Example:
        >>> robust_point_rule(10.0, 4.0, 0.5).threshold, robust_point_rule(1.0, 4.0, 0.5).threshold
        (1, 7)

    References:
        Purohit, Svitkina, Kumar, NeurIPS 2018, robust deterministic algorithm; spec 12 §3.5 (B4).
    """
    y = require_positive("y_hat", y_hat, allow_zero=True)
    bq = _exact_b(b)
    b_val = float(bq)
    lam_q = _as_lambda(lam, open_low=True, open_high=True)
    day = math.ceil(lam_q * bq) if y >= b_val else math.ceil(bq / lam_q)
    return _deterministic(day - 1, "robust point-prediction")


Statistic = Literal["median", "mean", "sample"]


def prediction_plugin_rule(p_hat: DistributionLike, b: Real, *, statistic: Statistic) -> Policy:
    """Baseline B3 with a distributional plug-in ``ŷ`` (our defaults, spec §3.5).

    ``median``: the lower median ``min{t : F̂(t) >= 1/2}``; ``mean``: ``E_p̂[T]``;
    ``sample``: ``ŷ ~ p̂``, returned as the exact mixture
    ``P(A_0) = P_p̂(ŷ >= b)``, ``P(A_∞) = P_p̂(ŷ < b)`` (no randomness needed).

    Args:
        p_hat: predicted distribution.
        b: buy cost ``> 1``.
        statistic: ``"median"``, ``"mean"`` or ``"sample"``.

    Raises:
        TypeError: non-numeric input.
        ValueError: ``p_hat`` not a probability vector; ``b <= 1``; unknown statistic.

    Example:
        >>> prediction_plugin_rule([0.5, 0.0, 0.0, 0.5], 2.0, statistic="sample").weights.tolist()
        [0.5, 0.5]
    """
    dist = _as_distribution("p_hat", p_hat)
    b_val = float(_as_b(b, exact=False))
    probs = np.array([float(v) for v in dist]) if not isinstance(dist, np.ndarray) else dist
    days = np.arange(probs.size, dtype=np.float64)
    if statistic == "median":
        cdf = np.cumsum(probs)
        y = float(np.flatnonzero(cdf >= 0.5 - TIE_RTOL)[0])
    elif statistic == "mean":
        y = float(days @ probs)
    elif statistic == "sample":
        buy = float(np.sum(probs[days >= b_val]))
        w = np.array([buy, 1.0 - buy])
        return Policy(weights=readonly(w), threshold=None, name="sampled point-prediction")
    else:
        raise ValueError(f"statistic: expected 'median', 'mean' or 'sample', got {statistic!r}")
    return _deterministic(0 if y >= b_val else math.inf, f"{statistic} point-prediction")


def pareto_hard_prediction(b: Real, *, extra: int | None = None) -> FloatArray:
    """The hard prediction of the consistency–robustness lower bound (spec §4, Pareto thm).

    ``ρ = 1 - 2/b``, ``K₀ = ⌈½ b ln b⌉``; ``Q̂_t = ρ^t`` for ``t <= K₀``, then
    ``Q̂_{t+1} = (1 - 1/(2b)) Q̂_t``; ``p̂_{t+1} = Q̂_t - Q̂_{t+1}`` (``p̂_0 = 0``), truncated
    at ``N = K₀ + extra`` by lumping the remaining mass at ``N``.  ``A_{K₀}`` is its unique
    optimal policy once ``extra > 2b ln 2``.

    Args:
        b: buy cost ``> 2``.
        extra: days after ``K₀`` before truncation (default ``⌈6b⌉``, our default).

    Returns:
        ``(N + 1,)`` float64 probability vector.

    Raises:
        TypeError: non-numeric input.
        ValueError: ``b <= 2`` or ``extra < 1``.

    Example:
        >>> p = pareto_hard_prediction(16.0)
        >>> optimal_threshold(p, 16.0) == math.ceil(8 * math.log(16))
        True
    """
    b_val = require_positive("b", b)
    if b_val <= 2.0:
        raise ValueError(f"b: expected a buy cost > 2 for the hard family, got {b_val!r}")
    k0 = math.ceil(0.5 * b_val * math.log(b_val))
    more = math.ceil(6 * b_val) if extra is None else require_int("extra", extra, minimum=1)
    n = k0 + more
    t = np.arange(n + 1, dtype=np.float64)
    log_rho = math.log1p(-2.0 / b_val)
    log_slow = math.log1p(-0.5 / b_val)
    log_q = np.where(t <= k0, t * log_rho, k0 * log_rho + (t - k0) * log_slow)
    q = np.exp(log_q)  # Q̂_t for t = 0..N
    q[n] = 0.0  # lump the remaining mass at N
    p = np.empty(n + 1)
    p[0] = 1.0 - q[0]
    p[1:] = q[:-1] - q[1:]
    return np.maximum(p, 0.0)
