"""Tests written for the mutants mutmut left alive in reference/ski_rental.py (issue 17, point 8).

Each expected value comes from the spec's rule recomputed here (brute force over thresholds with
Fractions, the closed forms of the baselines), never from the library's output.  The triage of
every survivor is in benchmarks/results/mutation_ski_rental.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from properties.ski_rental import buy_costs, distributions
from reference import ski_rental as sr

F = Fraction


def _cost(k: float, p: tuple[Fraction, ...], b: Fraction) -> Fraction:
    """``E[cost(A_K, T)]``: ``T`` if ``T <= K`` else ``K + b`` (``K = inf``: ``T``)."""
    return sum(
        (m * (t if t <= k else int(k) + b) for t, m in enumerate(p) if m),
        F(0),
    )


def _brute_threshold(p: tuple[Fraction, ...], b: Fraction) -> float:
    """Spec §3.0: the smallest finite ``K < s`` (``s`` = last day with mass) attaining the
    minimum of ``c(A_K)`` over ``K = 0..s-1`` and ``∞``; else ``∞``; ``s = 0`` gives ``0``."""
    s = max(t for t, m in enumerate(p) if m)
    if s == 0:
        return 0
    costs = [_cost(k, p, b) for k in range(s)]
    best = min(min(costs), _cost(math.inf, p, b))
    return next((k for k, c in enumerate(costs) if c == best), math.inf)


def _point_truth_rule(p: tuple[Fraction, ...], b: Fraction) -> float:
    """Spec §3.4 with the exact constants 1/3 and 1/40."""
    k = _brute_threshold(p, b)
    if k in (0, math.inf):
        return k
    if k >= b:
        return math.inf if sum(p[: math.floor(b) + 1], F(0)) >= F(1, 3) else 0
    return math.inf if sum(p[: int(k) + 1], F(0)) >= F(1, 40) else k


def _atoms(length: int, atoms: dict[int, Fraction]) -> tuple[Fraction, ...]:
    p = [F(0)] * length
    for day, mass in atoms.items():
        p[day] = mass
    assert sum(p, F(0)) == 1
    return tuple(p)


# Hand-built instances for both branches of the point-truth rule, at and beside its constants:
# K >= b (here K = 9 > b = 8) with mass up to b exactly 1/3 and 3/10; 0 < K < b (K = 1,
# b = 80) with mass up to K exactly 1/40 and 49/2000.
POINT_TRUTH_CASES = [
    (F(8), _atoms(19, {2: F(1, 3), 9: F(19, 30), 18: F(1, 30)})),
    (F(8), _atoms(19, {2: F(3, 10), 9: F(2, 3), 18: F(1, 30)})),
    (F(80), _atoms(201, {1: F(1, 40), 200: F(39, 40)})),
    (F(80), _atoms(201, {1: F(49, 2000), 200: F(1951, 2000)})),
]


@pytest.mark.parametrize(("b", "p"), POINT_TRUTH_CASES)
def test_point_truth_constants_at_and_beside_their_ties(
    b: Fraction, p: tuple[Fraction, ...]
) -> None:
    expected = _point_truth_rule(p, b)
    assert expected not in (0, math.inf) or _brute_threshold(p, b) not in (0, math.inf)
    exact = sr.point_truth_algorithm(p, b)
    floats = sr.point_truth_algorithm(np.array([float(m) for m in p]), float(b))
    assert exact.threshold == expected
    assert floats.threshold == expected


def test_point_truth_cases_cover_every_branch() -> None:
    outcomes = {
        (_brute_threshold(p, b) >= b, _point_truth_rule(p, b) == math.inf)
        for b, p in POINT_TRUTH_CASES
    }
    assert outcomes == {(True, True), (True, False), (False, True), (False, False)}


@given(b=buy_costs(integer=True), p=distributions(max_len=30, exact=True))
def test_point_truth_exact_path_follows_the_rule(b: float, p: tuple[Fraction, ...]) -> None:
    assert sr.point_truth_algorithm(p, F(int(b))).threshold == _point_truth_rule(p, F(int(b)))


def test_sqrt_floor_is_the_largest_square_below() -> None:
    values: list[float | Fraction] = [1.5, 2.0, 3.99, 4.0, 10.0, 15.999, 16.0, 99.0, F(99, 4), F(9)]
    for b in values:
        r = 0
        while (r + 1) * (r + 1) <= b:
            r += 1
        assert sr.sqrt_floor(b) == r
    for bad in (1.0, 0.5, F(1)):
        with pytest.raises(ValueError, match=r"^b:"):
            sr.sqrt_floor(bad)


@pytest.mark.parametrize("n", [2, 3, 5, 8, 13])
def test_randomized_classical_is_the_closed_form(n: int) -> None:
    ratio = F(n - 1, n)
    q = [ratio ** (n - i) / (n * (1 - ratio**n)) for i in range(1, n + 1)]
    assert sum(q, F(0)) == 1
    policy = sr.randomized_classical(n)
    assert policy.weights.shape == (n + 1,)
    assert policy.threshold is None
    assert policy.weights[n] == 0.0
    np.testing.assert_allclose(policy.weights[:n], [float(v) for v in q], rtol=1e-12, atol=0)
    with pytest.raises(ValueError, match=r"^b:"):
        sr.randomized_classical(n + 0.5)


def _is_point(policy: sr.Policy, k: float) -> bool:
    """The weights put all mass on ``A_k`` (last entry: ``A_∞``)."""
    w = policy.weights
    where = w.size - 1 if k == math.inf else int(k)
    return policy.threshold == k and w[where] == 1.0 and float(np.sum(w)) == 1.0


def test_point_prediction_rule_buys_at_once_from_y_equal_b() -> None:
    assert _is_point(sr.point_prediction_rule(5.0, 5.0), 0)  # ŷ >= b, tie included
    assert _is_point(sr.point_prediction_rule(7, 5.0), 0)
    assert _is_point(sr.point_prediction_rule(4.999, 5.0), math.inf)
    assert _is_point(sr.point_prediction_rule(0.0, 5.0), math.inf)
    with pytest.raises(ValueError, match=r"^y_hat:"):
        sr.point_prediction_rule(-1.0, 5.0)


def test_robust_point_rule_days_on_both_sides_of_the_tie() -> None:
    # ŷ >= b: buy on day ⌈λb⌉; else on day ⌈b/λ⌉ (A_{day-1}).
    assert _is_point(sr.robust_point_rule(4.0, 4.0, 0.5), 2 - 1)
    assert _is_point(sr.robust_point_rule(3.5, 4.0, 0.5), 8 - 1)
    assert _is_point(sr.robust_point_rule(10.0, 10.0, 0.3), 3 - 1)
    assert _is_point(sr.robust_point_rule(0.0, 10.0, 0.3), 34 - 1)
    for lam in (0.0, 1.0, -0.1, 1.5):
        with pytest.raises(ValueError, match=r"^lam:"):
            sr.robust_point_rule(1.0, 4.0, lam)
    with pytest.raises(ValueError, match=r"^y_hat:"):
        sr.robust_point_rule(-1.0, 4.0, 0.5)


def test_plugin_rules_with_masses_on_day_b() -> None:
    p = [0.5, 0.0, 0.0, 0.5]  # P(ŷ >= 3) = 1/2: the mass on day b = 3 counts as "buy"
    np.testing.assert_array_equal(
        sr.prediction_plugin_rule(p, 3.0, statistic="sample").weights, [0.5, 0.5]
    )
    exact = (F(1, 4), F(0), F(0), F(3, 4))
    np.testing.assert_array_equal(
        sr.prediction_plugin_rule(exact, 3, statistic="sample").weights, [0.75, 0.25]
    )
    # exact input: mean 9/4 < 3 -> never buy; median (lower) 3 >= 3 -> buy at once
    assert _is_point(sr.prediction_plugin_rule(exact, 3, statistic="mean"), math.inf)
    assert _is_point(sr.prediction_plugin_rule(exact, 3, statistic="median"), 0)
    with pytest.raises(ValueError, match=r"^p_hat:"):
        sr.prediction_plugin_rule([0.5, 0.6], 3.0, statistic="mean")


def test_plugin_median_counts_a_cdf_at_half_minus_the_tie_tolerance() -> None:
    # the lower median is min{t : F(t) >= 1/2} with slack TIE_RTOL: F(2) = 1/2 - TIE_RTOL counts
    low = 0.5 - sr.TIE_RTOL
    p = np.array([0.0, 0.0, low, 0.0, 0.0, 1.0 - low])
    assert _is_point(sr.prediction_plugin_rule(p, 3.0, statistic="median"), math.inf)  # ŷ = 2
    p_later = np.array([0.0, 0.0, 0.4, 0.0, 0.0, 0.6])
    assert _is_point(sr.prediction_plugin_rule(p_later, 3.0, statistic="median"), 0)  # ŷ = 5


@given(t=st.integers(0, 30), extra=st.integers(1, 10))
def test_point_mass_length(t: int, extra: int) -> None:
    out = sr.point_mass(t, length=t + extra)
    expected = np.zeros(t + extra)
    expected[t] = 1.0
    np.testing.assert_array_equal(out, expected)


def test_point_mass_rejects_a_length_that_cuts_the_atom() -> None:
    with pytest.raises(ValueError, match=r"^length:"):
        sr.point_mass(3, length=3)
    with pytest.raises(ValueError, match=r"^t:"):
        sr.point_mass(-1)


def test_quantile_u_counts_a_tail_equal_to_one_over_r() -> None:
    # b = 16: r = 4, U = min{t : Q_t <= 1/4}; Q_1 = 1/4 exactly, so U = 1 (not 2)
    exact = (F(1, 2), F(1, 4), F(1, 4))
    assert sr.main_threshold(exact, 16).u == 1
    # floats compare with absolute slack TIE_RTOL: Q_1 = 1/4 + TIE_RTOL still counts
    tail = 0.25 + sr.TIE_RTOL
    floats = np.array([0.5 - sr.TIE_RTOL, 0.25, tail])
    assert sr.main_threshold(floats, 16.0).u == 1


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: sr.cost_curve([0.5, 0.6], 3.0), "p"),
        (lambda: sr.threshold_cost(1, [0.5, 0.6], 3.0), "p"),
        (lambda: sr.threshold_cost(-1, [0.5, 0.5], 3.0), "k"),
        (lambda: sr.opt_cost([0.5, 0.6], 3.0), "p"),
        (lambda: sr.optimal_threshold([0.5, 0.6], 3.0), "p"),
        (lambda: sr.expected_cost([0.5, 0.5], [0.5, 0.6], 3.0), "p"),
        (lambda: sr.expected_cost([0.5, 0.6], [0.5, 0.5], 3.0), "policy"),
        (lambda: sr.point_truth_algorithm([0.5, 0.6], 3.0), "p_hat"),
        (lambda: sr.pareto_hard_prediction(2.0), "b"),
        (lambda: sr.pareto_hard_prediction(-3.0), "b"),
        (lambda: sr.pareto_hard_prediction(5.0, extra=0), "extra"),
    ],
)
def test_errors_name_the_argument_first(call: Callable[[], object], argument: str) -> None:
    # house rule: a ValueError names the offending argument, as "<argument>: ..."
    with pytest.raises(ValueError, match=rf"^{argument}:"):
        call()


def test_exact_path_keeps_a_non_dyadic_b_exact() -> None:
    # b = 10/3 is not a float; on p = (0, 2/9, 0, 0, 7/9), c(A_0) = b = 10/3 = E[T] = c(A_∞):
    # a tie that the smallest finite K (= 0) wins, and which float(10/3) > 10/3 would break.
    b = F(10, 3)
    p = (F(0), F(2, 9), F(0), F(0), F(7, 9))
    assert _brute_threshold(p, b) == 0
    assert sr.optimal_threshold(p, b) == 0
    costs = [_cost(k, p, b) for k in range(4)] + [_cost(math.inf, p, b)]
    assert sr.opt_cost(p, b) == min(costs)
    assert all(sr.threshold_cost(k, p, b) == costs[k] for k in range(4))
    assert sr.threshold_cost(math.inf, p, b) == costs[4]
    np.testing.assert_array_equal(sr.cost_curve(p, b), [float(c) for c in costs])
    assert (
        sr.expected_cost(sr.Policy(weights=np.array([0.0, 1.0, 0.0]), threshold=1), p, b)
        == (costs[1])
    )
    mixture = sr.expected_cost((F(1, 2), F(0), F(1, 2)), p, b)
    assert mixture == pytest.approx(float((costs[0] + costs[4]) / 2), rel=1e-15)


def _pareto_by_loop(b: float, extra: int) -> list[float]:
    """Spec §4: Q_t = ρ^t up to K₀ = ⌈½ b ln b⌉, then ×(1 - 1/(2b)) per day; p_{t+1} =
    Q_t - Q_{t+1}, p_0 = 0, the mass left at N = K₀ + extra lumped on N."""
    k0 = math.ceil(0.5 * b * math.log(b))
    n = k0 + extra
    q = [1.0]
    for t in range(1, n + 1):
        q.append(q[-1] * ((1 - 2 / b) if t <= k0 else (1 - 1 / (2 * b))))
    q[n] = 0.0
    return [0.0] + [q[t] - q[t + 1] for t in range(n)]


@pytest.mark.parametrize(("b", "extra"), [(2.5, None), (5.0, 1), (16.0, None), (7.5, 3)])
def test_pareto_hard_prediction_by_its_recursion(b: float, extra: int | None) -> None:
    want = _pareto_by_loop(b, math.ceil(6 * b) if extra is None else extra)
    got = sr.pareto_hard_prediction(b, extra=extra)
    assert got[0] == 0.0
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-15)


def test_robust_algorithm_clamps_at_its_boundaries() -> None:
    # point mass at 12, b = 16: K̂ = ∞ (E[T] = 12 < K + 16), U = 12, r = 4, so K* = 16 = b:
    # "K* <= b" holds with equality, K* >= ⌈λb⌉ = 16 for λ = 1, so A_16 runs.
    p12 = tuple(F(int(t == 12)) for t in range(13))
    assert _brute_threshold(p12, F(16)) == math.inf
    assert sr.robust_algorithm(p12, 16, F(1)).threshold == 16
    # point mass at 13, b = 16, λ = 16/17: K* = 17 > b and K* >= ⌈b/λ⌉ = 17, so A_16 runs.
    p13 = tuple(F(int(t == 13)) for t in range(14))
    assert _brute_threshold(p13, F(16)) == math.inf
    assert sr.robust_algorithm(p13, 16, F(16, 17)).threshold == 16


def test_robust_point_rule_takes_lambda_and_b_at_their_exact_values() -> None:
    # ⌈λb⌉ with λ = 0.1 (a float slightly above 1/10) and b = 10 is ⌈1 + 5.6e-17⌉ = 2;
    # with λ = Fraction(1, 10) it is exactly 1.
    assert math.ceil(F(0.1) * 10) == 2
    assert sr.robust_point_rule(10.0, 10.0, 0.1).threshold == 2 - 1
    assert sr.robust_point_rule(10.0, 10, F(1, 10)).threshold == 1 - 1


def test_from_atoms_accepts_day_zero() -> None:
    np.testing.assert_array_equal(sr.from_atoms([0, 2], [0.25, 0.75]), [0.25, 0.0, 0.75])
    with pytest.raises(ValueError, match=r"^days:"):
        sr.from_atoms([-1, 2], [0.25, 0.75])


def test_opt_cost_and_sqrt_floor_keep_fractions_exact() -> None:
    # a point mass at day 20 with b = 10/3: OPT = c(A_0) = b exactly (float(10/3) != 10/3)
    p = tuple(F(int(t == 20)) for t in range(21))
    assert sr.opt_cost(p, F(10, 3)) == F(10, 3) == _cost(0, p, F(10, 3))
    # ⌊√b⌋ for b just below 16: 3, although float(b) == 16.0
    b = F(16) - F(1, 10**20)
    assert float(b) == 16.0
    assert sr.sqrt_floor(b) == 3
