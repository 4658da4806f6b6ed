"""Reference ski rental (spec 12): exact cases, independent oracles, baselines, bad input."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import wasserstein_distance

from properties.ski_rental import buy_costs, direct_cost, distributions
from reference import ski_rental as sr

F = Fraction


def _floats(p: object) -> np.ndarray:
    return np.array([float(v) for v in p])  # type: ignore[attr-defined]


@given(b=buy_costs(), p=distributions(max_len=60), q=distributions(max_len=60))
def test_costs_emd_and_opt_match_independent_oracles(
    b: float, p: sr.DistributionLike, q: sr.DistributionLike
) -> None:
    pf, qf = _floats(p), _floats(q)
    curve = sr.cost_curve(p, b)
    for k in range(len(pf)):
        assert curve[k] == pytest.approx(float(direct_cost(float(k), pf, b)), abs=1e-9)
    assert curve[-1] == pytest.approx(float(direct_cost(math.inf, pf, b)), abs=1e-9)
    days_p, days_q = np.arange(pf.size), np.arange(qf.size)
    assert float(sr.emd(p, q)) == pytest.approx(
        wasserstein_distance(days_p, days_q, pf, qf), abs=1e-9
    )
    assert float(sr.opt_cost(p, b)) == pytest.approx(float(np.min(curve)), abs=1e-12)


@given(b=buy_costs(integer=True), p=distributions(max_len=40, exact=True))
def test_exact_path_is_exact_and_agrees_with_floats(b: float, p: tuple[Fraction, ...]) -> None:
    bq = F(int(b))
    opt = sr.opt_cost(p, bq)
    assert isinstance(opt, Fraction)
    assert opt == min(direct_cost(float(k), p, bq) for k in [*range(len(p)), math.inf])
    assert float(opt) == pytest.approx(float(sr.opt_cost(_floats(p), b)), abs=1e-9)
    cost = sr.expected_cost(sr.main_algorithm(p, bq), p, bq)
    assert isinstance(cost, Fraction)


@pytest.mark.parametrize("b", [4, 9, 10, 16, 25, 50])
def test_exact_special_cases_of_the_main_algorithm(b: int) -> None:
    r = math.isqrt(b)
    for t in range(b + 1, 3 * b):
        p = sr.from_atoms([t], [F(1)])
        d = sr.main_threshold(p, b)
        assert (d.k_hat, d.k_star) == (0, r)
        assert sr.expected_cost(sr.main_algorithm(p, b), p, b) - sr.opt_cost(p, b) == r
    for t in range(1, b):
        p = sr.from_atoms([t], [F(1)])
        d = sr.main_threshold(p, b)
        assert (d.k_hat, d.u, d.k_star) == (math.inf, t, t + r)
        assert sr.expected_cost(sr.main_algorithm(p, b), p, b) == sr.opt_cost(p, b)


@given(b=buy_costs(), p=distributions(max_len=60, exact=False), pad=st.integers(1, 30))
def test_padding_and_truth_independence(b: float, p: np.ndarray, pad: int) -> None:
    padded = np.concatenate([p, np.zeros(pad)])
    assert sr.main_threshold(p, b) == sr.main_threshold(padded, b)
    assert sr.optimal_threshold(p, b) == sr.optimal_threshold(padded, b)
    d = sr.main_threshold(p, b)
    assert d.k_star >= d.r
    assert d.u <= max(int(np.flatnonzero(p > 0)[-1]), 0)


@given(
    b=buy_costs(),
    p=distributions(max_len=40, exact=False),
    seed=st.integers(0, 2**32 - 1),
)
def test_quantile_u_is_monotone_under_stochastic_dominance(
    b: float, p: np.ndarray, seed: int
) -> None:
    # p' moves mass of p to earlier days, so Q'_t <= Q_t for all t: then U' <= U
    rng = np.random.default_rng(seed)
    moved = p.copy()
    for t in range(1, p.size):
        share = float(rng.uniform()) * moved[t]
        moved[t] -= share
        moved[int(rng.integers(0, t))] += share
    assert sr.main_threshold(moved, b).u <= sr.main_threshold(p, b).u


def test_shift_keeps_emd_and_centroid_bound() -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        p, q = rng.dirichlet(np.ones(7)), rng.dirichlet(np.ones(9))
        k = int(rng.integers(1, 6))
        shifted = float(sr.emd(np.concatenate([np.zeros(k), p]), np.concatenate([np.zeros(k), q])))
        assert shifted == pytest.approx(float(sr.emd(p, q)), abs=1e-12)
        centroid = abs(float(np.arange(7) @ p) - float(np.arange(9) @ q))
        assert centroid <= float(sr.emd(p, q)) + 1e-12


def test_lambda_algorithm_limits() -> None:
    rng = np.random.default_rng(1)
    for _ in range(40):
        b = float(rng.integers(2, 60))
        p_hat = rng.dirichlet(np.full(int(rng.integers(2, int(3 * b))), 0.3))
        main = sr.main_algorithm(p_hat, b).threshold
        assert main is not None
        assert sr.robust_algorithm(p_hat, b, 0.0).threshold == main
        assert sr.robust_algorithm(p_hat, b, 1e-9).threshold == main or main > b
        policy = sr.robust_algorithm(p_hat, b, 1.0)
        for t in range(0, int(4 * b)):
            truth = sr.point_mass(t)
            assert float(sr.expected_cost(policy, truth, b)) <= 2 * min(t, b) + 1e-9


def test_exact_lambda_thresholds() -> None:
    # δ_1 with b = 30: K* = U + r = 6; λ = 1/4 clamps up to ⌈7.5⌉ - 1 = 7
    assert sr.robust_algorithm(sr.from_atoms([1], [F(1)]), 30, F(1, 4)).threshold == 7
    # δ_200: K* = r = 5 < ⌈λb⌉ = 15 -> A_14
    assert sr.robust_algorithm(sr.from_atoms([200], [F(1)]), 30, F(1, 2)).threshold == 14
    # hard family at b = 64: K* > b, λ = 1 clamps down to ⌈b/λ⌉ - 1 = 63
    hard = sr.pareto_hard_prediction(64.0)
    assert sr.main_threshold(hard, 64.0).k_star > 64
    assert sr.robust_algorithm(hard, 64.0, 1.0).threshold == 63
    assert sr.robust_algorithm(hard, 64.0, 0.5).threshold == sr.main_threshold(hard, 64.0).k_star


def test_classical_baselines() -> None:
    for b in (2, 5, 17, 100):
        be = sr.break_even(b)
        assert be.threshold == b - 1
        rand = sr.randomized_classical(b)
        assert rand.threshold is None
        assert rand.never_buy_probability == 0.0
        ratio = 1.0 / (1.0 - (1.0 - 1.0 / b) ** b)  # exact worst ratio of B2
        for t in range(1, 3 * b):
            truth = sr.point_mass(t)
            assert float(sr.expected_cost(be, truth, b)) <= 2 * min(t, b)
            cost = float(sr.expected_cost(rand, truth, b))
            assert cost <= ratio * min(t, b) + 1e-9
        assert ratio < math.e / (math.e - 1)
    assert sr.break_even(4.5).threshold == 4


def test_point_prediction_rules() -> None:
    rng = np.random.default_rng(2)
    for _ in range(100):
        b = float(rng.integers(2, 40))
        y = float(rng.integers(0, 3 * int(b)))
        t = int(rng.integers(0, 4 * int(b)))
        truth = sr.point_mass(t)
        cost = float(sr.expected_cost(sr.point_prediction_rule(y, b), truth, b))
        assert cost <= min(t, b) + abs(t - y) + 1e-9
        lam = float(rng.uniform(0.05, 0.95))
        robust = float(sr.expected_cost(sr.robust_point_rule(y, b, lam), truth, b))
        if t > 0:
            assert robust <= (1 + lam) / lam * min(t, b) + 1e-9
    p_hat = np.array([0.0, 0.2, 0.0, 0.3, 0.0, 0.5])
    # lower median 3, mean 3.6: buy at once for b = 3, never for b = 4 (median) / 3.7 (mean)
    assert sr.prediction_plugin_rule(p_hat, 3.0, statistic="median").threshold == 0
    assert sr.prediction_plugin_rule(p_hat, 4.0, statistic="median").threshold == math.inf
    assert sr.prediction_plugin_rule(p_hat, 3.5, statistic="mean").threshold == 0
    assert sr.prediction_plugin_rule(p_hat, 3.7, statistic="mean").threshold == math.inf
    sample = sr.prediction_plugin_rule(p_hat, 4.0, statistic="sample")
    assert sample.weights.tolist() == pytest.approx([0.5, 0.5])
    # sampled plug-in: E loss <= EMD(p̂, δ_T) for a point truth (B3's guarantee, averaged)
    for t in range(0, 12):
        truth = sr.point_mass(t)
        loss = float(sr.expected_cost(sample, truth, 4.0)) - float(sr.opt_cost(truth, 4.0))
        assert loss <= float(sr.emd(p_hat, truth)) + 1e-9


def test_follow_the_prediction_example_of_the_paper() -> None:
    # p̂ = (1 - 2^-n) δ_{b-1} + 2^-n δ_{2b}, truth δ_{b+1}: loss b - 1 with EMD < 3
    b, n = 64, 10
    eps = F(1, 2**n)
    p_hat = sr.from_atoms([b - 1, 2 * b], [1 - eps, eps])
    truth = sr.from_atoms([b + 1], [F(1)])
    loss = sr.expected_cost(sr.follow_the_prediction(p_hat, b), truth, b) - sr.opt_cost(truth, b)
    assert loss == b - 1
    assert sr.emd(p_hat, truth) < 3
    main_loss = sr.expected_cost(sr.main_algorithm(p_hat, b), truth, b) - sr.opt_cost(truth, b)
    assert main_loss <= 2 * math.isqrt(b)


def test_hard_prediction_optimum_and_structure() -> None:
    for b in (16.0, 100.0, 1000.0):
        p = sr.pareto_hard_prediction(b)
        k0 = math.ceil(0.5 * b * math.log(b))
        assert sr.optimal_threshold(p, b) == k0
        curve = sr.cost_curve(p, b)
        others = np.delete(curve, k0)
        assert float(np.min(others)) > float(curve[k0])


def test_policy_and_distribution_validation() -> None:
    with pytest.raises(ValueError, match="p_hat: expected a probability vector"):
        sr.main_algorithm([0.5, 0.6], 4.0)
    with pytest.raises(ValueError, match=r"p_hat: .*entries >= 0"):
        sr.main_algorithm([1.5, -0.5], 4.0)
    with pytest.raises(ValueError, match="sum exactly 1"):
        sr.main_algorithm([F(1, 2), F(1, 3)], 4)
    with pytest.raises(ValueError, match="b: expected a buy cost > 1"):
        sr.opt_cost([1.0], 1.0)
    with pytest.raises(ValueError, match="lam: expected a number in"):
        sr.robust_algorithm([1.0], 4.0, 1.5)
    with pytest.raises(ValueError, match="days: expected integer day indices"):
        sr.from_atoms([1.5], [1.0])
    with pytest.raises(ValueError, match="days: expected strictly increasing"):
        sr.from_atoms([3, 1], [0.5, 0.5])
    with pytest.raises(ValueError, match="days: expected day indices >= 0"):
        sr.from_atoms([-1], [1.0])
    with pytest.raises(ValueError, match="b: expected an integer-valued"):
        sr.randomized_classical(4.5)
    with pytest.raises(ValueError, match="statistic"):
        sr.prediction_plugin_rule([1.0], 4.0, statistic="mode")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="weights"):
        sr.Policy(weights=np.array([0.5, 0.2]), threshold=None)
    with pytest.raises(TypeError, match="k: expected an integer"):
        sr.threshold_cost(1.5, [1.0], 4.0)
    assert sr.threshold_cost(math.inf, [0.0, 1.0], 4.0) == 1.0
    with pytest.raises(ValueError, match="policy"):
        sr.expected_cost([0.5, 0.6], [1.0], 4.0)


def test_day_zero_breaks_the_point_truth_bound_as_documented() -> None:
    # spec §3.0 returns K̂ = 0 for p̂ = δ_0 (s = 0), so the point-truth algorithm buys at once
    b = 100.0
    loss = float(
        sr.expected_cost(sr.point_truth_algorithm(sr.point_mass(0), b), sr.point_mass(1), b)
    )
    assert loss - 1.0 == b - 1.0
    assert float(sr.emd(sr.point_mass(0), sr.point_mass(1))) == 1.0
