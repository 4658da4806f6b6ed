"""Conformance suites for ski rental with distributional predictions (spec 12).

Conventions (those of :mod:`reference.ski_rental`): a distribution is a 1-D
probability vector over days ``0..N``; ``b > 1`` is the buy cost; a policy is what
an algorithm returns — an object with a ``weights`` vector (entry ``K`` = probability
of the rule ``A_K``, last entry = probability of never buying), a bare threshold
(``int`` or ``math.inf``), or the weight vector itself (see :func:`as_policy`).

Suites (one per contract):

* ``ski_rental.emd`` — ``fn(p, q) -> float``: the earth mover's distance (unique).
* ``ski_rental.opt_cost`` — ``fn(p, b) -> float``: the optimal expected cost (unique).
* ``ski_rental.expected_cost`` — ``fn(weights, p, b) -> float`` (unique).
* ``ski_rental.optimal_threshold`` — ``fn(p, b) -> K``: any minimizer is accepted.
* ``ski_rental.main_algorithm`` — ``fn(p_hat, b) -> policy``: Algorithm 1's guarantees and
  its threshold ``K*``, exactly, for the declared tie-break (``--variant``).
* ``ski_rental.robust_algorithm`` — ``fn(p_hat, b, lam) -> policy``: the guarantees and the
  clamped threshold, exactly, for the declared tie-break.
* ``ski_rental.point_truth`` — ``fn(p_hat, b) -> policy`` against point truths, and the rule
  itself, exactly, for the declared tie-break.
* ``ski_rental.policy`` — any prediction-based rule ``fn(p_hat, b) -> policy``: validity.
* ``ski_rental.classical`` — ``fn(b) -> policy``: 2-competitive rules without predictions.

The costs used to judge an implementation are computed here by brute force,
``Σ_t p_t cost(A_K, t)`` (not through the tail identity the reference uses), so the
oracle is independent.  Tolerances: ``caps.tolerance * max(1, scale)`` for floats,
zero for exact ``Fraction`` input.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Protocol

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.stats import wasserstein_distance

from properties._runner import (
    Capabilities,
    CheckFailure,
    Suite,
    expect,
    expect_close,
    expect_le,
    expect_raises,
)
from properties._suite import check
from properties.adapters import adapt_output, to_numpy, to_scalar
from properties.strategies import simplex_points
from reference import ski_rental as sr
from reference._arrays import FloatArray, IntArray

__all__ = [
    "CLASSICAL",
    "EMD",
    "EXACT_MAX_LEN",
    "EXPECTED_COST",
    "MAIN_ALGORITHM",
    "MAX_B",
    "OPTIMAL_THRESHOLD",
    "OPT_COST",
    "POINT_TRUTH",
    "POINT_TRUTH_C",
    "POLICY",
    "PREDICTION_C",
    "ROBUST_ALGORITHM",
    "RULE_VARIANTS",
    "SUITES",
    "as_policy",
    "buy_costs",
    "direct_cost",
    "distributions",
    "point_truth_choice",
    "robust_clamp",
    "robustness_radius",
    "rule_thresholds",
]

#: Largest buy cost drawn by the suites (keeps vectors short and checks fast).
MAX_B = 100
#: Longest exact (Fraction) distribution drawn.
EXACT_MAX_LEN = 48
#: Constant C of the prediction-sensitive bound ``L <= C·√b·max(η, 1)`` (spec §4 (e), our default).
PREDICTION_C = 6.0
#: Constant of the point-truth bound ``L <= C·EMD(p̂, δ_T)`` (spec §4: implied by the proof <= 40).
POINT_TRUTH_C = 40.0

Number = float | Fraction


# ----------------------------------------------------------------------------- protocols
class EmdFn(Protocol):
    """``(p (N+1,), q (M+1,)) -> W1(p, q)`` on the integer line."""

    def __call__(self, p: FloatArray, q: FloatArray, /) -> float:
        """Return the earth mover's distance."""
        ...


class OptCostFn(Protocol):
    """``(p (N+1,), b) -> OPT_p``."""

    def __call__(self, p: FloatArray, b: float, /) -> float:
        """Return the optimal expected cost over all policies."""
        ...


class ExpectedCostFn(Protocol):
    """``(weights (n+1,), p (N+1,), b) -> expected cost`` (last weight = never buy)."""

    def __call__(self, weights: FloatArray, p: FloatArray, b: float, /) -> float:
        """Return the expected cost of the mixture policy under ``p``."""
        ...


class ThresholdFn(Protocol):
    """``(p (N+1,), b) -> K`` (``int >= 0`` or ``math.inf``); exact instances pass a list
    of Fractions and a Fraction ``b``."""

    def __call__(self, p: FloatArray | list[Fraction], b: float | Fraction, /) -> float:
        """Return an optimal threshold."""
        ...


class PredictionRule(Protocol):
    """``(p_hat (N+1,), b) -> policy``; exact instances pass a list of Fractions and a
    Fraction ``b``."""

    def __call__(self, p_hat: FloatArray | list[Fraction], b: float | Fraction, /) -> object:
        """Return the policy chosen from the prediction."""
        ...


class RobustRule(Protocol):
    """``(p_hat (N+1,), b, lam) -> policy``; ``matches_rule`` passes a list of Fractions and
    a Fraction ``b`` (``lam`` a dyadic float)."""

    def __call__(
        self, p_hat: FloatArray | list[Fraction], b: float | Fraction, lam: float, /
    ) -> object:
        """Return the λ-robust policy."""
        ...


class ClassicalRule(Protocol):
    """``b -> policy`` (no prediction)."""

    def __call__(self, b: float, /) -> object:
        """Return the policy."""
        ...


# ----------------------------------------------------------------------------- oracles
def as_policy(value: object) -> tuple[FloatArray, float | None]:
    """Read an algorithm's output as ``(weights, threshold or None)``.

    Accepts an object with ``weights`` (and optionally ``threshold``), a bare threshold
    (``int >= 0`` or ``math.inf``) or a weight vector (last entry = never buy).

    Raises:
        CheckFailure: the output is none of these, or the weights are not a probability
            vector (entries >= -1e-9, sum 1 within 1e-9).
    """
    threshold: float | None = None
    if hasattr(value, "weights"):
        weights = to_numpy(value.weights, what="policy weights")
        raw = getattr(value, "threshold", None)
        threshold = None if raw is None else float(raw)
    elif isinstance(value, int | float | np.integer | np.floating) and not isinstance(value, bool):
        k = float(value)
        expect(
            k == math.inf or (k >= 0 and k == math.floor(k)),
            what="threshold returned",
            measured=repr(value),
            allowed="an integer >= 0 or math.inf",
        )
        threshold = k
        weights = np.ones(1)
        if k != math.inf:
            weights = np.zeros(int(k) + 2)
            weights[int(k)] = 1.0
    else:
        weights = to_numpy(value, what="policy weights")
    expect(
        weights.ndim == 1 and weights.size >= 1,
        what="policy weights shape",
        measured=weights.shape,
        allowed="(n + 1,) with n >= 0",
    )
    expect(
        bool(np.all(np.isfinite(weights))) and float(np.min(weights)) >= -1e-9,
        what="policy weights entries",
        measured=weights.tolist()[:20],
        allowed="finite and >= 0",
    )
    expect_close(float(np.sum(weights)), 1.0, atol=1e-9, what="sum of policy weights")
    if threshold is not None:
        expect(
            threshold == math.inf or (threshold >= 0 and threshold == math.floor(threshold)),
            what="policy threshold",
            measured=repr(threshold),
            allowed="an integer >= 0 or math.inf",
        )
        support = np.flatnonzero(weights > 1e-12)
        where = weights.size - 1 if threshold == math.inf else int(threshold)
        expect(
            support.tolist() == [where],
            what="deterministic policy: weights are the point mass at its threshold",
            measured=f"support {support.tolist()[:10]} for threshold {threshold}",
            allowed=f"[{where}]",
        )
    return weights, threshold


def direct_cost(k: float, p: FloatArray | tuple[Fraction, ...], b: Number) -> Number:
    """``Σ_t p_t cost(A_K, t)`` by brute force (``cost = t`` if ``t <= K`` else ``K + b``).

    Exact when ``p`` is a tuple of Fractions and ``b`` a Fraction/int.
    """
    if isinstance(p, tuple):
        bq = Fraction(b)
        total = Fraction(0)
        for t, mass in enumerate(p):
            if mass:
                total += mass * (t if t <= k else int(k) + bq)
        return total
    days = np.arange(p.size, dtype=np.float64)
    per_day = days if k == math.inf else np.where(days <= k, days, k + float(b))
    return float(p @ per_day)


def _policy_cost(
    weights: FloatArray, threshold: float | None, p: FloatArray | tuple[Fraction, ...], b: Number
) -> Number:
    if threshold is not None:
        return direct_cost(threshold, p, b)
    pf = np.array([float(v) for v in p]) if isinstance(p, tuple) else p
    days = np.arange(pf.size, dtype=np.float64)
    ks = np.flatnonzero(weights[:-1] > 0.0).astype(np.float64)
    per_day = np.where(days[None, :] <= ks[:, None], days[None, :], ks[:, None] + float(b))
    mixed = float(weights[ks.astype(np.intp)] @ (per_day @ pf)) if ks.size else 0.0
    return mixed + float(weights[-1]) * float(days @ pf)


def _opt(p: FloatArray | tuple[Fraction, ...], b: Number) -> Number:
    """Brute-force optimum over ``K = 0..N`` and ``∞``."""
    n = len(p)
    if isinstance(p, tuple):
        return min(direct_cost(float(k), p, b) for k in [*range(n), math.inf])
    return min(float(direct_cost(float(k), p, b)) for k in [*range(n), math.inf])


def _floats(p: FloatArray | tuple[Fraction, ...]) -> FloatArray:
    return np.array([float(v) for v in p]) if isinstance(p, tuple) else p


def _emd_float(p: FloatArray | tuple[Fraction, ...], q: FloatArray | tuple[Fraction, ...]) -> float:
    pf, qf = _floats(p), _floats(q)
    return float(
        wasserstein_distance(
            np.arange(pf.size, dtype=np.float64), np.arange(qf.size, dtype=np.float64), pf, qf
        )
    )


def robustness_radius(b: float) -> float:
    """``R(b) = max(½ b ln b, 2b⌈½ log₂ b⌉) + ⌊√b⌋`` (spec §4 (d), our derivation)."""
    r = math.isqrt(math.floor(b))
    return max(0.5 * b * math.log(b), 2 * b * math.ceil(0.5 * math.log2(b))) + r


#: Input domains of every ski-rental suite (``--domain``): the reproductions of the paper's
#: code assume what its experiments use.
SKI_DOMAINS = {
    "all": f"buy costs b: integers 2..{MAX_B}, perfect squares and halves (as drawn by buy_costs)",
    "square_b": "b a perfect square (4, 9, 16, ...): the distributional ski-rental "
    "reproduction asserts it (its thresholds use sqrt(b) as an integer)",
}


def _sq(caps: Capabilities) -> bool:
    """Whether the declared domain restricts ``b`` to perfect squares."""
    return caps.domain == "square_b"


def _int_b(data: st.DataObject, caps: Capabilities, low: int, high: int) -> int:
    """An integer buy cost in ``[low, high]`` (a perfect square in the ``square_b`` domain)."""
    if _sq(caps):
        root = data.draw(st.integers(math.isqrt(low - 1) + 1, math.isqrt(high)), label="sqrt b")
        return root * root
    return int(data.draw(st.integers(low, high), label="b"))


def _tol(caps: Capabilities, scale: float) -> float:
    return caps.tolerance * max(1.0, abs(scale))


# ----------------------------------------------------------------------------- strategies
@st.composite
def buy_costs(
    draw: st.DrawFn, *, max_b: int = MAX_B, integer: bool | None = None, square_only: bool = False
) -> float:
    """Buy costs: integers ``2..max_b``, perfect squares, and (unless ``integer``) halves;
    perfect squares only with ``square_only`` (the ``square_b`` domain)."""
    if square_only:
        root = draw(st.integers(2, math.isqrt(max_b)), label="sqrt b")
        return float(root * root)
    kind = draw(
        st.sampled_from(["int", "square", "half"] if integer is not True else ["int", "square"]),
        label="b kind",
    )
    if kind == "square":
        root = draw(st.integers(2, math.isqrt(max_b)), label="sqrt b")
        return float(root * root)
    base = draw(st.integers(2, max_b), label="b")
    return float(base) + (0.5 if kind == "half" else 0.0)


def _draw_grid(draw: st.DrawFn, n: int, denominator: int, label: str) -> tuple[Fraction, ...]:
    """``n`` masses ``k / denominator`` summing to 1: the gaps between sorted drawn cuts."""
    cuts = hnp.arrays(np.int64, (n - 1,), elements=st.integers(0, denominator))
    return _parts(np.sort(draw(cuts, label=f"{label} cuts")), denominator)


def _parts(cuts: IntArray, denominator: int) -> tuple[Fraction, ...]:
    parts = np.diff(np.concatenate([[0], cuts, [denominator]]))
    return tuple(Fraction(int(v), denominator) for v in parts)


def _days(m: int, count: int) -> st.SearchStrategy[IntArray]:
    """``count`` distinct days of ``0..m-1``."""
    days = st.lists(st.integers(0, m - 1), min_size=count, max_size=count, unique=True)
    return days.map(lambda d: np.array(d, dtype=np.int64))


@st.composite
def distributions(
    draw: st.DrawFn,
    *,
    max_len: int,
    exact: bool | None = None,
    start: int = 0,
    label: str = "distribution",
) -> FloatArray | tuple[Fraction, ...]:
    """Probability vectors of length ``2..max_len``: simplex points (dense or concentrated), 1-5 atoms,
    geometric tails, point masses, and exact ``Fraction`` grids (``exact``: only those;
    ``False``: never).  ``start > 0`` leaves days ``< start`` without mass."""
    kinds = ["dirichlet", "atoms", "geometric", "point"]
    if exact is None:
        kinds.append("grid")
    elif exact:
        kinds = ["grid", "grid_atoms"]
    kind = draw(st.sampled_from(kinds), label=f"{label} kind")
    if kind in ("grid", "grid_atoms"):
        max_len = min(max_len, EXACT_MAX_LEN)  # brute-force Fraction oracles are O(N^2)
    n = draw(st.integers(max(2, start + 1), max(2, start + 1, max_len)), label=f"{label} length")
    m = n - start
    if kind in ("grid", "grid_atoms"):
        denominator = draw(st.sampled_from([4, 12, 60, 97]), label=f"{label} denominator")
        if kind == "grid":
            body = _draw_grid(draw, m, denominator, label)
        else:
            atoms = draw(st.integers(1, min(m, 4)), label=f"{label} atoms")
            where = np.sort(draw(_days(m, atoms), label=f"{label} atom days"))
            masses = _draw_grid(draw, atoms, denominator, label)
            body_list = [Fraction(0)] * m
            for w, mass in zip(where, masses, strict=True):
                body_list[int(w)] = mass
            body = tuple(body_list)
        if sum(body, Fraction(0)) != 1 or all(v == 0 for v in body):  # pragma: no cover
            body = (Fraction(1),) + (Fraction(0),) * (m - 1)
        return (Fraction(0),) * start + body
    if kind == "dirichlet":
        # dense (power 1) or concentrated (power 10, as Dirichlet(0.1) is) simplex points
        power = draw(st.sampled_from([1.0, 10.0]), label=f"{label} concentration power")
        body_f = draw(simplex_points(m), label=f"{label} weights") ** power
        body_f /= body_f.sum()
    elif kind == "atoms":
        atoms = draw(st.integers(1, min(m, 5)), label=f"{label} atoms")
        where = draw(_days(m, atoms), label=f"{label} atom days")
        body_f = np.zeros(m)
        body_f[where] = draw(simplex_points(atoms), label=f"{label} atom masses")
    elif kind == "geometric":
        ratio = draw(st.floats(0.5, 0.999), label=f"{label} ratio")
        body_f = ratio ** np.arange(m, dtype=np.float64)
        body_f /= body_f.sum()
    else:
        body_f = np.zeros(m)
        body_f[draw(st.integers(0, m - 1), label=f"{label} day")] = 1.0
    out = np.concatenate([np.zeros(start), body_f])
    out /= out.sum()
    return out


@st.composite
def _instance(
    draw: st.DrawFn, *, exact: bool | None = None, far: bool = False, square_only: bool = False
) -> tuple[float, FloatArray | tuple[Fraction, ...], FloatArray | tuple[Fraction, ...]]:
    """``(b, p_hat, p)``: prediction and truth of lengths up to ``3b + 3`` (or ``2 R(b)``
    with ``far``), including point truths at the policy-relevant days."""
    b = draw(buy_costs(square_only=square_only), label="b")
    top = int(2 * robustness_radius(b)) if far else int(3 * b) + 3
    p_hat = draw(distributions(max_len=top, exact=exact, label="p_hat"), label="p_hat")
    p = draw(distributions(max_len=top, exact=exact, label="p"), label="p")
    return b, p_hat, p


def _b_for(p: FloatArray | tuple[Fraction, ...], b: float) -> Number:
    """Exact instances take ``b`` as a Fraction (so the reference stays exact)."""
    return Fraction(b) if isinstance(p, tuple) else b


def _call_rule(impl: Callable[..., object], p_hat: object, *args: object) -> object:
    return impl(list(p_hat) if isinstance(p_hat, tuple) else np.array(p_hat), *args)


_PAPER = "Cui & Dinitz (ICML 2026)"
_SPEC = "Cui & Dinitz (ICML 2026)"


# ----------------------------------------------------------------------------- emd suite
@check("matches_scipy", anchor="W1 on Z; scipy oracle")
def check_emd_matches_scipy(impl: EmdFn, data: st.DataObject, caps: Capabilities) -> None:
    """``emd(p, q)`` equals ``scipy.stats.wasserstein_distance`` on days ``0..N`` (unique)."""
    p = draw_float(data, "p")
    q = draw_float(data, "q")
    value = float(impl(p, q))
    oracle = _emd_float(p, q)
    expect_close(value, oracle, atol=_tol(caps, oracle), what="EMD against scipy")


def draw_float(data: st.DataObject, label: str, *, max_len: int = 40) -> FloatArray:
    """Draw a float64 probability vector (helper shared by the checks)."""
    drawn = data.draw(distributions(max_len=max_len, exact=False, label=label), label=label)
    return _floats(drawn)


@check("metric_axioms", anchor="W1 is a metric")
def check_emd_metric_axioms(impl: EmdFn, data: st.DataObject, caps: Capabilities) -> None:
    """Symmetry, ``emd(p, p) = 0``, triangle inequality, and ``emd(δ_s, δ_t) = |s - t|``."""
    p, q, r = (draw_float(data, name) for name in ("p", "q", "r"))
    pq, qp = float(impl(p, q)), float(impl(q, p))
    expect_close(pq, qp, atol=_tol(caps, pq), what="emd(p, q) against emd(q, p)")
    expect_close(float(impl(p, p.copy())), 0.0, atol=_tol(caps, 0.0), what="emd(p, p)")
    pr, rq = float(impl(p, r)), float(impl(r, q))
    expect_le(
        pq, pr + rq + _tol(caps, pr + rq), what="triangle: emd(p, q) <= emd(p, r) + emd(r, q)"
    )
    s = data.draw(st.integers(0, 30), label="day s")
    t = data.draw(st.integers(0, 30), label="day t")
    value = float(impl(sr.point_mass(s), sr.point_mass(t)))
    expect_close(value, float(abs(s - t)), atol=_tol(caps, s + t), what="emd(δ_s, δ_t) = |s - t|")


@check("shift_and_centroid", anchor=f"{_SPEC}: centroid bound, shift")
def check_emd_shift_and_centroid(impl: EmdFn, data: st.DataObject, caps: Capabilities) -> None:
    """Shifting both by ``k`` days keeps the EMD; ``|E_p T - E_q T| <= emd(p, q)``."""
    p, q = draw_float(data, "p"), draw_float(data, "q")
    k = data.draw(st.integers(1, 10), label="shift k")
    base = float(impl(p, q))
    shifted = float(impl(np.concatenate([np.zeros(k), p]), np.concatenate([np.zeros(k), q])))
    expect_close(shifted, base, atol=_tol(caps, base), what="EMD after shifting both by k days")
    gap = abs(float(np.arange(p.size) @ p) - float(np.arange(q.size) @ q))
    expect_le(gap, base + _tol(caps, base), what="centroid bound |E_p T - E_q T| <= EMD")


# ----------------------------------------------------------------------------- opt suite
@check("matches_brute_force", anchor=f"{_SPEC}: OPT_p")
def check_opt_matches_brute_force(impl: OptCostFn, data: st.DataObject, caps: Capabilities) -> None:
    """``OPT_p`` equals the brute-force minimum of ``Σ_t p_t cost(A_K, t)`` over ``K``."""
    b = data.draw(buy_costs(square_only=_sq(caps)), label="b")
    p = draw_float(data, "p", max_len=int(3 * b) + 3)
    value = float(impl(p, b))
    oracle = float(_opt(p, b))
    expect_close(value, oracle, atol=_tol(caps, oracle), what="OPT against brute force")


@check("sandwich", anchor=f"{_SPEC}: OPT <= min(E[T], b)")
def check_opt_sandwich(impl: OptCostFn, data: st.DataObject, caps: Capabilities) -> None:
    """``E[min(T, b)] <= OPT_p <= min(E[T], b)`` (every policy pays ``>= min(T, b)``)."""
    b = data.draw(buy_costs(square_only=_sq(caps)), label="b")
    p = draw_float(data, "p", max_len=int(3 * b) + 3)
    value = float(impl(p, b))
    days = np.arange(p.size, dtype=np.float64)
    low = float(p @ np.minimum(days, b))
    high = min(float(p @ days), b)
    expect_le(low, value + _tol(caps, value), what="E[min(T, b)] <= OPT")
    expect_le(value, high + _tol(caps, high), what="OPT <= min(E[T], b)")


@check("benchmark_remark", anchor=f"{_PAPER}, benchmark remark ({_SPEC})")
def check_opt_benchmark_remark(impl: OptCostFn, data: st.DataObject, caps: Capabilities) -> None:
    """``p = ½δ_{b/2} + ½δ_{2b}`` (even ``b``): ``OPT = b`` while ``E[min(T, b)] = 3b/4``."""
    if _sq(caps):  # b = (2k)^2, even
        k = data.draw(st.integers(1, math.isqrt(MAX_B) // 2), label="sqrt b / 2")
        half = 2 * k * k
    else:
        half = data.draw(st.integers(1, MAX_B // 2), label="b / 2")
    b = 2.0 * half
    p = np.zeros(4 * half + 1)
    p[half] = 0.5
    p[4 * half] = 0.5
    expect_close(float(impl(p, b)), b, atol=_tol(caps, b), what="OPT of ½δ_{b/2} + ½δ_{2b}")


# ----------------------------------------------------------------------------- expected cost
@check("matches_direct", anchor=f"{_SPEC}: expected cost")
def check_expected_cost_matches_direct(
    impl: ExpectedCostFn, data: st.DataObject, caps: Capabilities
) -> None:
    """The cost of a random mixture equals ``Σ_K w_K Σ_t p_t cost(A_K, t)`` (unique)."""
    b = data.draw(buy_costs(square_only=_sq(caps)), label="b")
    p = draw_float(data, "p", max_len=int(3 * b) + 3)
    size = data.draw(st.integers(1, p.size + 5), label="number of weights")
    weights = data.draw(simplex_points(size), label="mixture weights w")
    value = float(impl(weights, p, b))
    oracle = float(_policy_cost(weights, None, p, b))
    expect_close(value, oracle, atol=_tol(caps, oracle), what="expected cost against brute force")


@check("point_policies", anchor=f"{_SPEC}: identity (△)")
def check_expected_cost_point_policies(
    impl: ExpectedCostFn, data: st.DataObject, caps: Capabilities
) -> None:
    """``A_K`` costs ``Σ_{t<=K} t p_t + (K + b) Q_K``; ``A_∞`` costs ``E[T]``; both ``>= OPT``."""
    b = data.draw(buy_costs(square_only=_sq(caps)), label="b")
    p = draw_float(data, "p", max_len=int(3 * b) + 3)
    k = data.draw(st.integers(0, p.size + 3), label="threshold K")
    one_hot = np.zeros(k + 2)
    one_hot[k] = 1.0
    value = float(impl(one_hot, p, b))
    oracle = float(direct_cost(float(k), p, b))
    expect_close(value, oracle, atol=_tol(caps, oracle), what=f"cost of A_{k}")
    never = float(impl(np.ones(1), p, b))
    mean = float(np.arange(p.size) @ p)
    expect_close(never, mean, atol=_tol(caps, mean), what="cost of A_∞ against E[T]")
    opt = float(_opt(p, b))
    expect_le(opt, value + _tol(caps, opt), what=f"OPT <= cost of A_{k}")


@check("linear", anchor="mixtures of A_K")
def check_expected_cost_linear(
    impl: ExpectedCostFn, data: st.DataObject, caps: Capabilities
) -> None:
    """The cost is linear in the mixture weights: ``c(αw + (1-α)w') = αc(w) + (1-α)c(w')``."""
    b = data.draw(buy_costs(square_only=_sq(caps)), label="b")
    p = draw_float(data, "p", max_len=int(3 * b) + 3)
    size = data.draw(st.integers(1, p.size + 3), label="number of weights")
    w1 = data.draw(simplex_points(size), label="mixture weights w")
    w2 = data.draw(simplex_points(size), label="mixture weights w'")
    alpha = data.draw(st.floats(0.0, 1.0, allow_subnormal=False), label="alpha")
    mixed = float(impl(alpha * w1 + (1 - alpha) * w2, p, b))
    parts = alpha * float(impl(w1, p, b)) + (1 - alpha) * float(impl(w2, p, b))
    expect_close(mixed, parts, atol=_tol(caps, parts), what="cost of a mixture of mixtures")


# ----------------------------------------------------------------------------- threshold
def _as_threshold_value(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise CheckFailure(
            "threshold returned", measured=repr(value), allowed="an integer >= 0 or math.inf"
        )
    k = float(value)
    expect(
        k == math.inf or (k >= 0 and k == math.floor(k)),
        what="threshold returned",
        measured=repr(value),
        allowed="an integer >= 0 or math.inf",
    )
    return k


@check("is_optimal", anchor=f"{_SPEC}")
def check_threshold_is_optimal(impl: ThresholdFn, data: st.DataObject, caps: Capabilities) -> None:
    """``c(A_K̂)_p = OPT_p`` for the returned ``K̂`` (any minimizer is accepted)."""
    b, p, _ = data.draw(_instance(square_only=_sq(caps)), label="instance")
    bb = _b_for(p, b)
    k = _as_threshold_value(_call_rule(impl, p, bb))
    cost, opt = direct_cost(k, p, bb), _opt(p, bb)
    if isinstance(cost, Fraction) and isinstance(opt, Fraction):
        expect(cost == opt, what="c(A_K̂) = OPT exactly", measured=cost, allowed=opt)
    else:
        expect_close(float(cost), float(opt), atol=_tol(caps, float(opt)), what="c(A_K̂) - OPT")


@check("padding", anchor=f"{_SPEC}: padding")
def check_threshold_padding(impl: ThresholdFn, data: st.DataObject, caps: Capabilities) -> None:
    """Trailing zeros do not change the optimal cost attained by the returned threshold."""
    b, p, _ = data.draw(_instance(exact=False, square_only=_sq(caps)), label="instance")
    pad = data.draw(st.integers(1, 20), label="zeros appended")
    pf = _floats(p)
    k1 = _as_threshold_value(impl(pf.copy(), b))
    k2 = _as_threshold_value(impl(np.concatenate([pf, np.zeros(pad)]), b))
    c1, c2 = float(direct_cost(k1, pf, b)), float(direct_cost(k2, pf, b))
    expect_close(c1, c2, atol=_tol(caps, c1), what="cost of K̂ before and after padding")


@check("structure", anchor=f"{_PAPER}, claim on the p̂-optimal threshold ({_SPEC})")
def check_threshold_structure(impl: ThresholdFn, data: st.DataObject, caps: Capabilities) -> None:
    """Claim (structure): for optimal finite ``K``, ``Σ_{K<t<=K+τ} p_t <= (τ/b) Q_K``, ``1 <= τ <= b``."""
    b, p, _ = data.draw(_instance(exact=True, square_only=_sq(caps)), label="instance")
    bq = Fraction(b)
    k = _as_threshold_value(_call_rule(impl, p, bq))
    if k == math.inf:
        return
    kk = int(k)
    tail = sum(p[kk + 1 :], Fraction(0))
    for tau in range(1, math.floor(b) + 1):
        window = sum(p[kk + 1 : kk + tau + 1], Fraction(0))
        expect(
            window <= Fraction(tau) / bq * tail,
            what=f"mass in (K, K + {tau}] <= (τ/b) Q_K at K = {kk}",
            measured=window,
            allowed=f"<= {Fraction(tau) / bq * tail}",
        )


# ----------------------------------------------------------------------------- main algorithm
def _loss(policy: object, p: FloatArray | tuple[Fraction, ...], b: Number) -> Number:
    weights, threshold = as_policy(policy)
    return _policy_cost(weights, threshold, p, b) - _opt(p, b)


@check("consistency", anchor=f"{_PAPER}, main theorem, consistency ({_SPEC})")
def check_main_consistency(impl: PredictionRule, data: st.DataObject, caps: Capabilities) -> None:
    """Consistency (spec §4 (c)): with ``p = p̂`` the loss is ``<= r + b/r``, ``r = ⌊√b⌋``
    (a drawn prediction, and the point mass ``δ_T`` with ``T > b`` where the loss is ``r``)."""
    b, p_hat, _ = data.draw(_instance(square_only=_sq(caps)), label="instance")
    day = data.draw(st.integers(int(b) + 1, 3 * int(b) + 3), label="day T > b of δ_T")
    r = math.isqrt(math.floor(b))
    for prediction in (p_hat, sr.point_mass(day)):
        bb = _b_for(prediction, b)
        loss = _loss(_call_rule(impl, prediction, bb), prediction, bb)
        bound = r + Fraction(bb) / r if isinstance(loss, Fraction) else r + b / r
        slack = 0.0 if isinstance(loss, Fraction) else _tol(caps, float(bound))
        expect_le(float(loss), float(bound) + slack, what="consistency loss <= r + b/r (p = p̂)")


@check("robustness", anchor=f"{_PAPER}, main theorem, robustness ({_SPEC})")
def check_main_robustness(impl: PredictionRule, data: st.DataObject, caps: Capabilities) -> None:
    """Robustness (spec §4 (d)): for every truth, including point masses far in the future,
    the loss is ``<= R(b) = max(½ b ln b, 2b⌈½ log₂ b⌉) + r``."""
    b, p_hat, p = data.draw(
        _instance(exact=False, far=True, square_only=_sq(caps)), label="instance"
    )
    policy = _call_rule(impl, p_hat, b)
    _, threshold = as_policy(policy)
    radius = robustness_radius(b)
    truths: list[FloatArray] = [_floats(p)]
    if threshold is not None and threshold != math.inf:
        truths.append(sr.point_mass(int(threshold) + 1))
    else:
        truths.append(sr.point_mass(int(2 * radius) + int(b) + 1))
    for truth in truths:
        loss = float(_loss(policy, truth, b))
        expect_le(loss, radius + _tol(caps, radius), what="loss <= R(b) for every truth")


@check("emd_bound", anchor=f"{_PAPER}, main theorem ({_SPEC}, C = 6)")
def check_main_emd_bound(impl: PredictionRule, data: st.DataObject, caps: Capabilities) -> None:
    """Prediction-sensitive bound (spec §4 (e)): loss ``<= 6·√b·max(η, 1)``, ``η = EMD(p̂, p)``."""
    b, p_hat, p = data.draw(_instance(exact=False, square_only=_sq(caps)), label="instance")
    shift = data.draw(st.integers(1, 3), label="shift k of the second truth")
    day = data.draw(st.integers(1, 2 * int(b)), label="day T of a point prediction")
    # (p̂, p), (p̂, p̂ shifted right by k days: η = k) and (δ_T, δ_{T+1}: η = 1)
    cases = (
        (p_hat, _floats(p)),
        (p_hat, np.concatenate([np.zeros(shift), _floats(p_hat)])),
        (sr.point_mass(day), sr.point_mass(day + 1)),
    )
    for prediction, truth in cases:
        policy = _call_rule(impl, prediction, b)
        loss = float(_loss(policy, truth, b))
        eta = _emd_float(prediction, truth)
        bound = PREDICTION_C * math.sqrt(b) * max(eta, 1.0)
        expect_le(
            loss, bound + _tol(caps, bound), what=f"loss <= 6 √b max(η, 1) with η = {eta:.6g}"
        )


@check("point_mass_cases", anchor=f"{_SPEC}: exact special cases")
def check_main_point_mass_cases(
    impl: PredictionRule, data: st.DataObject, caps: Capabilities
) -> None:
    """Exact special cases (spec §5): ``p = p̂ = δ_T``; ``T > b``: ``K* = r``, loss ``r``;
    ``b >= 4`` and ``1 <= T < b``: ``K* = T + r``, loss 0 (unique answers)."""
    above = data.draw(st.booleans(), label="T > b")
    b = float(_int_b(data, caps, 2 if above else 4, MAX_B))
    r = math.isqrt(int(b))
    t = data.draw(
        st.integers(int(b) + 1, 3 * int(b)) if above else st.integers(1, int(b) - 1), label="T"
    )
    bq = Fraction(int(b))
    truth = [Fraction(0)] * t + [Fraction(1)]
    weights, threshold = as_policy(impl(truth, bq))
    loss = _policy_cost(weights, threshold, tuple(truth), bq) - _opt(tuple(truth), bq)
    want_k, want_loss = (r, r) if above else (t + r, 0)
    expect(
        threshold == want_k,
        what=f"K* for p = p̂ = δ_{t}, b = {b}",
        measured=threshold,
        allowed=want_k,
    )
    expect(loss == want_loss, what="loss on the point-mass case", measured=loss, allowed=want_loss)


@check("delay", anchor=f"{_SPEC}: K* >= r, padding")
def check_main_delay(impl: PredictionRule, data: st.DataObject, caps: Capabilities) -> None:
    """``K* >= r`` and padding ``p̂`` with zeros does not change ``K*`` (spec §5)."""
    b, p_hat, _ = data.draw(_instance(exact=False, square_only=_sq(caps)), label="instance")
    r = math.isqrt(math.floor(b))
    pf = _floats(p_hat)
    _, k1 = as_policy(impl(pf.copy(), b))
    pad = data.draw(st.integers(1, 20), label="zeros appended")
    _, k2 = as_policy(impl(np.concatenate([pf, np.zeros(pad)]), b))
    expect(k1 is not None, what="Algorithm 1 is deterministic", measured=k1, allowed="a threshold")
    expect(k1 is not None and k1 >= r, what="K* >= r", measured=k1, allowed=f">= {r}")
    expect(k1 == k2, what="K* after padding p̂ with zeros", measured=k2, allowed=k1)


#: ``ski_rental.main_algorithm`` / ``robust_algorithm`` variants: which minimiser ``K̂`` of the
#: paper's rule the implementation takes (spec §3.0: the paper fixes no tie-break and its
#: theorems hold for any minimiser).
RULE_VARIANTS = {
    "smallest_minimizer": "K̂ is the smallest finite K < s with c_K = min (∞ only if none): the "
    "tie-break of spec §3.0 and of reference.ski_rental",
    "any_minimizer": "K̂ is any minimiser of c_K over K = 0, 1, ... and ∞ (the paper's "
    "statement); matches_rule accepts the K* of every minimiser",
}


def _minimizers(p: tuple[Fraction, ...], b: Fraction) -> list[float]:
    """The minimisers of ``c(A_K)_p`` over finite ``K < s`` (``s`` the support maximum) and
    ``∞``, smallest first (brute-force costs, exact); a ``K >= s`` costs what ``∞`` costs and
    is ``∞`` here.  ``s = 0`` (every cost 0): ``[0, ∞]`` (spec §3.0 returns 0)."""
    s = max((t for t, mass in enumerate(p) if mass > 0), default=0)
    if s == 0:
        return [0.0, math.inf]
    ks: list[float] = [float(k) for k in range(s)] + [math.inf]
    costs = [direct_cost(k, p, b) for k in ks]
    best = min(costs)
    return [k for k, c in zip(ks, costs, strict=True) if c == best]


def _rule_k_star(p: tuple[Fraction, ...], b: Fraction, k_hat: float) -> int:
    """Algorithm 1, l. 2-3, exact: ``U = min{t : Q̂_t <= 1/r}``, ``K* = min(K̂ + r, U + r)``."""
    r = math.isqrt(math.floor(b))
    tail = sum(p, Fraction(0))
    u = 0
    for t, mass in enumerate(p):
        tail -= mass  # Q̂_t = Σ_{i > t} p̂_i
        if tail <= Fraction(1, r):
            u = t
            break
    return int(min(k_hat + r, u + r))


def rule_thresholds(p_hat: tuple[Fraction, ...], b: Fraction, variant: str) -> list[int]:
    """The thresholds ``K*`` Algorithm 1 may run on ``(p̂, b)`` under ``variant``
    (:data:`RULE_VARIANTS`), recomputed exactly with Fractions (spec 12 §3.0, §3.2)."""
    minimizers = _minimizers(p_hat, b)
    chosen = minimizers[:1] if variant == "smallest_minimizer" else minimizers
    return sorted({_rule_k_star(p_hat, b, k) for k in chosen})


def robust_clamp(k_star: int, b: Fraction, lam: Fraction) -> int:
    """Spec 12 §3.3, exact: clamp ``K*`` to ``⌈λb⌉ - 1`` from below (``K* <= b``) or to
    ``⌈b/λ⌉ - 1`` from above (``K* > b``); ``λ = 0`` keeps ``K*``."""
    if lam == 0:
        return k_star
    if k_star <= b:
        low = math.ceil(lam * b)
        return low - 1 if k_star < low else k_star
    high = math.ceil(b / lam)
    return high - 1 if k_star >= high else k_star


@st.composite
def _rule_instance(draw: st.DrawFn, caps: Capabilities) -> tuple[Fraction, tuple[Fraction, ...]]:
    """``(b, p̂)`` exact: a Fraction grid or atoms, or a tie ``p̂ = α δ_0 + (1 - α) δ_b``
    (integer ``b``: ``c_0 = c_∞ = (1 - α) b``, so the smallest minimiser 0 and the minimiser
    ∞ give ``K* = r`` and ``K* = b + r``), padded with zero days."""
    if draw(st.booleans(), label="tie instance"):
        if _sq(caps):
            root = draw(st.integers(2, math.isqrt(MAX_B)), label="sqrt b")
            b_int = root * root
        else:
            b_int = draw(st.integers(2, MAX_B), label="b")
        alpha = draw(st.sampled_from([Fraction(0), Fraction(1, 4), Fraction(1, 3)]), label="α")
        pad = draw(st.integers(0, 4), label="zero days appended")
        p = [Fraction(0)] * (b_int + 1 + pad)
        p[0] += alpha
        p[b_int] += 1 - alpha
        return Fraction(b_int), tuple(p)
    b = Fraction(draw(buy_costs(square_only=_sq(caps)), label="b"))
    top = int(3 * b) + 3
    p_hat = draw(distributions(max_len=top, exact=True, label="p_hat"), label="p_hat")
    assert isinstance(p_hat, tuple)
    return b, p_hat


def _rule_hint(
    threshold: float | None, allowed: Sequence[float], other: Sequence[float], name: str
) -> str:
    if threshold is not None and threshold in other and threshold not in allowed:
        return f"; another minimiser of the rule gives it: declare --variant {name}"
    return ""


@check("matches_rule", anchor=f"{_PAPER}, Algorithm 1 ({_SPEC} §3.0, §3.2)")
def check_main_matches_rule(impl: PredictionRule, data: st.DataObject, caps: Capabilities) -> None:
    """The policy is ``A_{K*}`` with ``K* = min(K̂ + r, U + r)`` recomputed exactly (Fractions):
    ``K̂`` the declared minimiser (:data:`RULE_VARIANTS`), ``r = ⌊√b⌋``,
    ``U = min{t : Q̂_t <= 1/r}``.  Instances include ties among minimisers."""
    variant = caps.variant_of(MAIN_ALGORITHM)
    b, p_hat = data.draw(_rule_instance(caps), label="instance")
    _, threshold = as_policy(_call_rule(impl, p_hat, b))
    allowed = rule_thresholds(p_hat, b, variant)
    other = rule_thresholds(p_hat, b, "any_minimizer")
    expect(
        threshold is not None and threshold in allowed,
        what=f"K* of Algorithm 1 ({variant}) on p̂ = {[str(v) for v in p_hat]}, b = {b}",
        measured=threshold,
        allowed=f"one of {allowed}" + _rule_hint(threshold, allowed, other, "any_minimizer"),
    )


# ----------------------------------------------------------------------------- robust algorithm
@check("ratio", anchor=f"{_PAPER}, λ-robustification theorem ({_SPEC})")
def check_robust_ratio(impl: RobustRule, data: st.DataObject, caps: Capabilities) -> None:
    """``c(ALG_λ)_p <= (1 + 1/λ)·OPT_p`` for every ``p``, incl. the adversarial point truth
    just after the policy's threshold (λ-robustification theorem)."""
    b, p_hat, p = data.draw(_instance(exact=False, square_only=_sq(caps)), label="instance")
    lam = data.draw(st.sampled_from([0.1, 0.25, 0.5, 0.75, 1.0]), label="lam")
    policy = impl(_floats(p_hat), b, lam)
    _, threshold = as_policy(policy)
    truths = [_floats(p)]
    if threshold is not None and threshold != math.inf:
        truths += [sr.point_mass(int(threshold) + 1), sr.point_mass(int(threshold))]
    else:
        truths.append(sr.point_mass(int(4 * b / lam) + 1))
    for truth in truths:
        weights, thr = as_policy(policy)
        cost = float(_policy_cost(weights, thr, truth, b))
        bound = (1 + 1 / lam) * float(_opt(truth, b))
        expect_le(cost, bound + _tol(caps, bound), what=f"c(ALG_λ) <= (1 + 1/λ) OPT at λ = {lam}")


@check("lambda_zero", anchor=f"{_SPEC}: λ = 0")
def check_robust_lambda_zero(impl: RobustRule, data: st.DataObject, caps: Capabilities) -> None:
    """``λ = 0`` is Algorithm 1: consistency ``<= r + b/r`` and ``K* >= r``."""
    b, p_hat, _ = data.draw(_instance(exact=False, square_only=_sq(caps)), label="instance")
    r = math.isqrt(math.floor(b))
    policy = impl(_floats(p_hat), b, 0.0)
    _, threshold = as_policy(policy)
    expect(
        threshold is not None and threshold >= r, what="K* at λ = 0", measured=threshold, allowed=r
    )
    loss = float(_loss(policy, _floats(p_hat), b))
    bound = r + b / r
    expect_le(loss, bound + _tol(caps, bound), what="consistency at λ = 0")


@check("two_competitive", anchor=f"{_SPEC}: λ = 1")
def check_robust_two_competitive(impl: RobustRule, data: st.DataObject, caps: Capabilities) -> None:
    """``λ = 1``: ratio ``<= 2`` on every point truth (a drawn ``T ∈ {0..3b}`` and the
    adversarial ``T = K + 1`` just after the policy's threshold)."""
    b, p_hat, _ = data.draw(_instance(exact=False, square_only=_sq(caps)), label="instance")
    weights, threshold = as_policy(impl(_floats(p_hat), b, 1.0))
    days = [data.draw(st.integers(0, int(3 * b)), label="T")]
    if threshold is not None and threshold != math.inf:
        days.append(int(threshold) + 1)
    for t in days:
        cost = float(_policy_cost(weights, threshold, sr.point_mass(t), b))
        bound = 2 * min(t, b)
        expect_le(cost, bound + _tol(caps, bound), what=f"λ = 1: cost <= 2 min(T, b) at T = {t}")


@check("consistency", anchor=f"{_PAPER}, λ-robustification theorem, first term ({_SPEC})")
def check_robust_consistency(impl: RobustRule, data: st.DataObject, caps: Capabilities) -> None:
    """With ``p = p̂``: ``c(ALG_λ) <= (1 + λ)(OPT + r + b/r)`` (the theorem's first term,
    ``(1 + λ) c(A_{K*})``, with Algorithm 1's consistency)."""
    b, p_hat, _ = data.draw(_instance(exact=False, square_only=_sq(caps)), label="instance")
    lam = data.draw(st.sampled_from([0.1, 0.25, 0.5, 0.75, 1.0]), label="lam")
    r = math.isqrt(math.floor(b))
    day = data.draw(st.integers(int(b) + 1, 10 * int(b) + 10), label="day T > b of δ_T")
    for pf in (_floats(p_hat), sr.point_mass(day)):
        weights, threshold = as_policy(impl(pf.copy(), b, lam))
        cost = float(_policy_cost(weights, threshold, pf, b))
        bound = (1 + lam) * (float(_opt(pf, b)) + r + b / r)
        expect_le(
            cost, bound + _tol(caps, bound), what=f"c(ALG_λ)_p̂ <= (1 + λ)(OPT + r + b/r), λ = {lam}"
        )


@check("matches_rule", anchor=f"{_PAPER}, λ-robustification ({_SPEC} §3.3)")
def check_robust_matches_rule(impl: RobustRule, data: st.DataObject, caps: Capabilities) -> None:
    """The policy is ``A_K`` with ``K`` the clamp of Algorithm 1's ``K*`` (spec §3.3), all
    recomputed exactly: ``⌈λb⌉`` and ``⌈b/λ⌉`` from Fractions, with dyadic ``λ`` (exact as
    floats) so that ``λb`` is an integer on some draws (ceil vs floor + 1).  ``K̂`` is the
    declared minimiser (:data:`RULE_VARIANTS`); instances include ties among minimisers."""
    variant = caps.variant_of(ROBUST_ALGORITHM)
    b, p_hat = data.draw(_rule_instance(caps), label="instance")
    lam = data.draw(st.sampled_from([0.0, 0.125, 0.25, 0.375, 0.5, 0.75, 1.0]), label="lam")
    _, threshold = as_policy(impl(list(p_hat), b, lam))
    lam_q = Fraction(lam)
    allowed = sorted({robust_clamp(k, b, lam_q) for k in rule_thresholds(p_hat, b, variant)})
    other = sorted({robust_clamp(k, b, lam_q) for k in rule_thresholds(p_hat, b, "any_minimizer")})
    expect(
        threshold is not None and threshold in allowed,
        what=f"threshold of the λ-robust rule ({variant}) at λ = {lam}, b = {b}, "
        f"p̂ = {[str(v) for v in p_hat]}",
        measured=threshold,
        allowed=f"one of {allowed}" + _rule_hint(threshold, allowed, other, "any_minimizer"),
    )


# ----------------------------------------------------------------------------- point truth
@check("bound", anchor=f"{_PAPER}, point-truth theorem ({_SPEC}, C = 40)")
def check_point_truth_bound(impl: PredictionRule, data: st.DataObject, caps: Capabilities) -> None:
    """Point truth (spec §4): ``p = δ_T`` gives loss ``<= 40·EMD(p̂, δ_T)``.

    Predictions put no mass on day 0 (the paper's days are ``1..N``; with mass at day 0
    the spec's tie-break ``K̂ = 0`` breaks the bound, e.g. ``p̂ = δ_0``, ``T = 1``)."""
    b = data.draw(buy_costs(square_only=_sq(caps)), label="b")
    top = int(3 * b) + 3
    p_hat = data.draw(distributions(max_len=top, start=1, label="p_hat"), label="p_hat")
    bb = _b_for(p_hat, b)
    near = data.draw(st.booleans(), label="near-perfect prediction")
    if near:  # p̂ = (1 - ε) δ_T + ε p̂': EMD(p̂, δ_T) <= ε (N + T)
        t = data.draw(st.integers(1, top), label="T")
        eps = 2.0 ** -data.draw(st.integers(12, 24), label="-log2 ε")
        base = _floats(p_hat)
        mixed = np.zeros(max(base.size, t + 1))
        mixed[: base.size] = eps * base
        mixed[t] += 1.0 - eps
        p_hat = mixed
        bb = b
    else:
        t = data.draw(st.integers(1, top + 3), label="T")
    truth: FloatArray | tuple[Fraction, ...]
    truth = (
        tuple([Fraction(0)] * t + [Fraction(1)]) if isinstance(p_hat, tuple) else sr.point_mass(t)
    )
    loss = _loss(_call_rule(impl, p_hat, bb), truth, bb)
    eta = _emd_float(p_hat, truth)
    bound = POINT_TRUTH_C * eta
    slack = 0.0 if isinstance(loss, Fraction) else _tol(caps, bound)
    expect_le(float(loss), bound + slack + 1e-9 * max(1.0, bound), what="loss <= 40 EMD(p̂, δ_T)")


@check("exact_prediction", anchor=f"{_SPEC}: point truth, EMD = 0")
def check_point_truth_exact_prediction(
    impl: PredictionRule, data: st.DataObject, caps: Capabilities
) -> None:
    """``p̂ = p = δ_T`` (``T >= 1``): the loss is exactly 0 (EMD 0)."""
    b = data.draw(buy_costs(square_only=_sq(caps)), label="b")
    t = data.draw(st.integers(1, int(3 * b)), label="T")
    bq = Fraction(b)
    truth = tuple([Fraction(0)] * t + [Fraction(1)])
    loss = _loss(impl(list(truth), bq), truth, bq)
    expect(loss == 0, what=f"loss with p̂ = p = δ_{t}", measured=loss, allowed=0)


@check("far_mass", anchor=f"{_SPEC}: B5 example")
def check_point_truth_far_mass(
    impl: PredictionRule, data: st.DataObject, caps: Capabilities
) -> None:
    """Follow-the-prediction's bad case (spec §3.5 B5): ``p̂ = (1-ε)δ_{b-1} + εδ_{2b}``,
    truth ``δ_{b+1}``: loss ``<= 40·EMD``."""
    b = float(_int_b(data, caps, 3, 10 * MAX_B))
    n = data.draw(st.integers(2, 12), label="-log2 ε")
    eps = 2.0**-n
    p_hat = sr.from_atoms([int(b) - 1, 2 * int(b)], [1 - eps, eps])
    truth = sr.point_mass(int(b) + 1)
    loss = float(_loss(impl(np.asarray(p_hat), b), truth, b))
    bound = POINT_TRUTH_C * _emd_float(np.asarray(p_hat), truth)
    expect_le(loss, bound + _tol(caps, bound), what="loss <= 40 EMD on the B5 example")


def point_truth_choice(p_hat: tuple[Fraction, ...], b: Fraction, k: float) -> float:
    """Spec 12 §3.4, exact, from a minimiser ``K`` of ``c(A_K)_p̂``: ``K = 0`` or ``∞`` runs
    ``A_K``; ``K >= b``: ``A_∞`` if ``Σ_{t<=b} p̂_t >= 1/3`` else ``A_0``; ``K < b``: ``A_∞`` if
    ``Σ_{t<=K} p̂_t >= 1/40`` else ``A_K``."""
    if k == 0 or k == math.inf:
        return k
    if k >= b:
        return math.inf if sum(p_hat[: math.floor(b) + 1], Fraction(0)) >= Fraction(1, 3) else 0
    return math.inf if sum(p_hat[: int(k) + 1], Fraction(0)) >= Fraction(1, 40) else k


@st.composite
def _point_rule_instance(
    draw: st.DrawFn, caps: Capabilities
) -> tuple[Fraction, tuple[Fraction, ...]]:
    """``(b, p̂)`` for the point-truth rule: those of ``_rule_instance``, or
    ``p̂ = β δ_1 + (1 - β) δ_T`` with ``b > 40``, ``T > b + 1`` and ``β`` at or near ``1/40``:
    then ``K̂ = 1 < b`` (``c_1 = 1 + (1 - β) b < b = c_0``) and ``Σ_{t<=1} p̂_t = β`` meets the
    rule's constant ``1/40`` with equality or a narrow margin."""
    if not draw(st.booleans(), label="near the 1/40 constant"):
        out: tuple[Fraction, tuple[Fraction, ...]] = draw(_rule_instance(caps), label="instance")
        return out
    beta = draw(
        st.sampled_from([Fraction(1, 40), Fraction(1, 41), Fraction(1, 39), Fraction(1, 30)]),
        label="β",
    )
    if _sq(caps):
        b_int = draw(st.integers(7, math.isqrt(MAX_B)), label="sqrt b") ** 2
    else:
        b_int = draw(st.integers(43, MAX_B), label="b")
    t = b_int + 2 + draw(st.integers(0, 5), label="T - b - 2")
    p = [Fraction(0)] * (t + 1)
    p[1], p[t] = beta, 1 - beta
    return Fraction(b_int), tuple(p)


@check("matches_rule", anchor=f"{_PAPER}, point-truth algorithm ({_SPEC} §3.4)")
def check_point_truth_matches_rule(
    impl: PredictionRule, data: st.DataObject, caps: Capabilities
) -> None:
    """The policy is the rule of spec §3.4 recomputed exactly (Fractions; constants 1/3 and
    1/40 compared with ``>=``) from the declared minimiser ``K̂`` (:data:`RULE_VARIANTS`);
    instances include ties among minimisers and masses at and near the constant 1/40."""
    variant = caps.variant_of(POINT_TRUTH)
    b, p_hat = data.draw(_point_rule_instance(caps), label="instance")
    _, threshold = as_policy(_call_rule(impl, p_hat, b))
    minimizers = _minimizers(p_hat, b)
    chosen = minimizers[:1] if variant == "smallest_minimizer" else minimizers
    allowed = sorted({point_truth_choice(p_hat, b, k) for k in chosen})
    other = sorted({point_truth_choice(p_hat, b, k) for k in minimizers})
    expect(
        threshold is not None and threshold in allowed,
        what=f"threshold of the point-truth rule ({variant}) on p̂ = {[str(v) for v in p_hat]}, "
        f"b = {b}",
        measured=threshold,
        allowed=f"one of {allowed}" + _rule_hint(threshold, allowed, other, "any_minimizer"),
    )


# ----------------------------------------------------------------------------- generic policies
@check("valid", anchor=f"{_SPEC}: valid policy, cost >= OPT")
def check_policy_valid(impl: PredictionRule, data: st.DataObject, caps: Capabilities) -> None:
    """The output is a probability vector over thresholds (last entry = never buy), and its
    expected cost under any truth is ``>= OPT`` and ``>= E[min(T, b)]``."""
    b, p_hat, p = data.draw(_instance(exact=False, square_only=_sq(caps)), label="instance")
    weights, threshold = as_policy(impl(_floats(p_hat), b))
    pf = _floats(p)
    cost = float(_policy_cost(weights, threshold, pf, b))
    opt = float(_opt(pf, b))
    expect_le(opt, cost + _tol(caps, opt), what="OPT <= expected cost")
    hindsight = float(pf @ np.minimum(np.arange(pf.size), b))
    expect_le(hindsight, cost + _tol(caps, cost), what="E[min(T, b)] <= expected cost")


@check("deterministic_calls", anchor="pure function of the prediction")
def check_policy_deterministic_calls(
    impl: PredictionRule, data: st.DataObject, caps: Capabilities
) -> None:
    """Two calls on the same prediction return the same policy (no hidden state)."""
    b, p_hat, _ = data.draw(_instance(exact=False, square_only=_sq(caps)), label="instance")
    w1, _ = as_policy(impl(_floats(p_hat).copy(), b))
    w2, _ = as_policy(impl(_floats(p_hat).copy(), b))
    n = max(w1.size, w2.size)
    a1 = np.concatenate([w1[:-1], np.zeros(n - w1.size), w1[-1:]])
    a2 = np.concatenate([w2[:-1], np.zeros(n - w2.size), w2[-1:]])
    diff = float(np.max(np.abs(a1 - a2)))
    expect_le(diff, 1e-12, what="difference between two calls on the same input")


@check(
    "rejects_invalid_input",
    anchor=f"{_SPEC}: bad input",
    requires=frozenset({"raises_on_invalid"}),
)
def check_policy_rejects_invalid(
    impl: PredictionRule, data: st.DataObject, caps: Capabilities
) -> None:
    """Negative or NaN masses, masses not summing to 1, empty vectors and ``b <= 1`` raise."""
    kind = data.draw(
        st.sampled_from(["negative", "nan", "sum", "empty", "b_small"]), label="corruption"
    )
    p = np.array([0.25, 0.25, 0.5])
    b = 4.0
    if kind == "negative":
        p = np.array([0.5, -0.25, 0.75])
    elif kind == "nan":
        p = np.array([0.5, np.nan, 0.5])
    elif kind == "sum":
        p = np.array([0.5, 0.25, 0.5])
    elif kind == "empty":
        p = np.zeros(0)
    else:
        b = data.draw(st.sampled_from([1.0, 0.5, 0.0, -3.0]), label="bad b")
    expect_raises(lambda: impl(p, b), (ValueError, TypeError), what=f"rule on {kind} input")


# ----------------------------------------------------------------------------- classical
@check("two_competitive", anchor="Karlin et al. (1988) break-even")
def check_classical_two_competitive(
    impl: ClassicalRule, data: st.DataObject, caps: Capabilities
) -> None:
    """Classical rules (B1, B2): ``E cost(T) <= 2·min(T, b)`` for every ``T`` (integer ``b``)."""
    b = data.draw(buy_costs(integer=True, square_only=_sq(caps)), label="b")
    weights, threshold = as_policy(impl(b))
    t = data.draw(st.integers(0, int(3 * b)), label="T")
    cost = float(_policy_cost(weights, threshold, sr.point_mass(t), b))
    bound = 2 * min(t, b)
    expect_le(cost, bound + _tol(caps, bound), what=f"cost at T = {t} <= 2 min(T, b)")


@check("buys_by_day_b", anchor="classical ski rental")
def check_classical_buys_by_day_b(
    impl: ClassicalRule, data: st.DataObject, caps: Capabilities
) -> None:
    """Never buying is unbounded: a rule must buy by day ``b`` with probability 1 and never
    before day 1 with probability above ``1/b`` (else ``T = 1`` costs more than 2)."""
    b = data.draw(buy_costs(integer=True, square_only=_sq(caps)), label="b")
    weights, _ = as_policy(impl(b))
    late = float(np.sum(weights[int(b) :]))
    expect_le(late, 1e-9, what="probability of buying after day b (or never)")
    # T = 1: cost = b·w_0 + 1·(1 - w_0) <= 2  ⟺  w_0 <= 1/(b - 1)
    expect_le(float(weights[0]), 1.0 / (b - 1.0) + 1e-9, what="P(buy at once)")


@check("ratio_profile", anchor="deterministic optimum 2 - 1/b")
def check_classical_ratio_profile(
    impl: ClassicalRule, data: st.DataObject, caps: Capabilities
) -> None:
    """Worst ratio over ``T`` is ``<= 2 - 1/b`` (break-even is exactly ``2 - 1/b``)."""
    b = data.draw(buy_costs(integer=True, square_only=_sq(caps)), label="b")
    weights, threshold = as_policy(impl(b))
    worst = 0.0
    for t in range(1, int(3 * b) + 1):
        cost = float(_policy_cost(weights, threshold, sr.point_mass(t), b))
        worst = max(worst, cost / min(t, b))
    expect_le(worst, 2 - 1 / b + _tol(caps, 2.0), what="worst competitive ratio over T")


# ----------------------------------------------------------------------------- suites
def _callable(name: str) -> Callable[[Any], Any]:
    def adapt(obj: object) -> Any:
        if not callable(obj):
            raise TypeError(f"{name}: expected a callable, got {type(obj).__name__}")
        return obj

    return adapt


def _float_out(fn: Callable[..., Any], what: str) -> Callable[..., float]:
    return adapt_output(fn, lambda value: to_scalar(value, what=what))


def _scalar_suite_adapter(name: str) -> Callable[[Any], Any]:
    def adapt(obj: object) -> Any:
        if not callable(obj):
            raise TypeError(f"{name}: expected a callable, got {type(obj).__name__}")
        return _float_out(obj, f"value returned by {name}")

    return adapt


EMD: Suite[EmdFn] = Suite(
    name="ski_rental.emd",
    domains=SKI_DOMAINS,
    protocol=EmdFn,
    checks=(
        check_emd_matches_scipy,
        check_emd_metric_axioms,
        check_emd_shift_and_centroid,
    ),
    adapt=_scalar_suite_adapter("ski_rental.emd"),
    description="Earth mover's distance between distributions over days: scipy agreement, "
    "metric axioms, shift invariance, centroid bound.",
)

OPT_COST: Suite[OptCostFn] = Suite(
    name="ski_rental.opt_cost",
    domains=SKI_DOMAINS,
    protocol=OptCostFn,
    checks=(
        check_opt_matches_brute_force,
        check_opt_sandwich,
        check_opt_benchmark_remark,
    ),
    adapt=_scalar_suite_adapter("ski_rental.opt_cost"),
    description="Optimal expected cost OPT_p over all policies: brute force, sandwich bounds.",
)

EXPECTED_COST: Suite[ExpectedCostFn] = Suite(
    name="ski_rental.expected_cost",
    domains=SKI_DOMAINS,
    protocol=ExpectedCostFn,
    checks=(
        check_expected_cost_matches_direct,
        check_expected_cost_point_policies,
        check_expected_cost_linear,
    ),
    adapt=_scalar_suite_adapter("ski_rental.expected_cost"),
    description="Expected cost of a mixture policy (weights over A_K, last = never buy).",
)

OPTIMAL_THRESHOLD: Suite[ThresholdFn] = Suite(
    name="ski_rental.optimal_threshold",
    domains=SKI_DOMAINS,
    protocol=ThresholdFn,
    checks=(
        check_threshold_is_optimal,
        check_threshold_padding,
        check_threshold_structure,
    ),
    adapt=_callable("ski_rental.optimal_threshold"),
    description="An optimal deterministic threshold for a known distribution (any minimizer).",
)

MAIN_ALGORITHM: Suite[PredictionRule] = Suite(
    name="ski_rental.main_algorithm",
    domains=SKI_DOMAINS,
    protocol=PredictionRule,
    checks=(
        check_main_consistency,
        check_main_robustness,
        check_main_emd_bound,
        check_main_point_mass_cases,
        check_main_delay,
        check_main_matches_rule,
    ),
    adapt=_callable("ski_rental.main_algorithm"),
    description="Algorithm 1 of Cui & Dinitz: consistency r + b/r, robustness R(b), "
    "loss <= 6 √b max(EMD, 1), exact point-mass cases, K* = min(K̂ + r, U + r) exactly "
    "(declared tie-break of K̂).",
    variants=RULE_VARIANTS,
)

ROBUST_ALGORITHM: Suite[RobustRule] = Suite(
    name="ski_rental.robust_algorithm",
    domains=SKI_DOMAINS,
    protocol=RobustRule,
    checks=(
        check_robust_ratio,
        check_robust_lambda_zero,
        check_robust_two_competitive,
        check_robust_consistency,
        check_robust_matches_rule,
    ),
    adapt=_callable("ski_rental.robust_algorithm"),
    description="λ-robustified algorithm: ratio <= 1 + 1/λ, λ = 0 is Algorithm 1, λ = 1 is "
    "2-competitive, the clamp of K* to [⌈λb⌉ - 1, ⌈b/λ⌉ - 1] exactly (declared tie-break of K̂).",
    variants=RULE_VARIANTS,
)

POINT_TRUTH: Suite[PredictionRule] = Suite(
    name="ski_rental.point_truth",
    domains=SKI_DOMAINS,
    protocol=PredictionRule,
    checks=(
        check_point_truth_bound,
        check_point_truth_exact_prediction,
        check_point_truth_far_mass,
        check_point_truth_matches_rule,
    ),
    adapt=_callable("ski_rental.point_truth"),
    description="Deterministic rule for point truths: loss <= 40 EMD(p̂, δ_T), the rule of "
    "spec §3.4 exactly (declared tie-break of K̂).",
    variants=RULE_VARIANTS,
)

POLICY: Suite[PredictionRule] = Suite(
    name="ski_rental.policy",
    domains=SKI_DOMAINS,
    protocol=PredictionRule,
    checks=(
        check_policy_valid,
        check_policy_deterministic_calls,
        check_policy_rejects_invalid,
    ),
    adapt=_callable("ski_rental.policy"),
    description="Any prediction-based rule fn(p_hat, b) -> policy: a probability vector over "
    "thresholds whose cost is >= OPT; bad input rejected.",
)

CLASSICAL: Suite[ClassicalRule] = Suite(
    name="ski_rental.classical",
    domains=SKI_DOMAINS,
    protocol=ClassicalRule,
    checks=(
        check_classical_two_competitive,
        check_classical_buys_by_day_b,
        check_classical_ratio_profile,
    ),
    adapt=_callable("ski_rental.classical"),
    description="Classical prediction-free rules fn(b) -> policy: competitive ratio <= 2 - 1/b.",
)

SUITES = (
    EMD,
    OPT_COST,
    EXPECTED_COST,
    OPTIMAL_THRESHOLD,
    MAIN_ALGORITHM,
    ROBUST_ALGORITHM,
    POINT_TRUTH,
    POLICY,
    CLASSICAL,
)
