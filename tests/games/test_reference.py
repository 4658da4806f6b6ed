"""LP oracle and duality gap against closed forms and a brute-force independent oracle."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from properties.strategies import payoff_matrices
from reference._arrays import FloatArray
from reference.games import best_response_values, duality_gap, solve_lp


def _support_enumeration_value(payoff: FloatArray) -> float:
    """Independent oracle: the value from square support enumeration (small games only).

    For every pair of equal-size supports, solve the indifference equations; keep
    pairs that are equilibria.  Any equilibrium gives the (unique) value.
    """
    m, n = payoff.shape
    for k in range(1, min(m, n) + 1):
        for rows in itertools.combinations(range(m), k):
            for cols in itertools.combinations(range(n), k):
                sub = payoff[np.ix_(rows, cols)]
                system = np.zeros((k + 1, k + 1))
                system[:k, :k] = sub
                system[:k, k] = -1.0
                system[k, :k] = 1.0
                rhs = np.zeros(k + 1)
                rhs[k] = 1.0
                try:
                    sol_y = np.linalg.solve(system, rhs)
                    system_x = system.copy()
                    system_x[:k, :k] = sub.T
                    sol_x = np.linalg.solve(system_x, rhs)
                except np.linalg.LinAlgError:
                    continue
                if np.min(sol_y[:k]) < -1e-12 or np.min(sol_x[:k]) < -1e-12:
                    continue
                x = np.zeros(m)
                y = np.zeros(n)
                x[list(rows)] = sol_x[:k]
                y[list(cols)] = sol_y[:k]
                if np.max(x @ payoff) - np.min(payoff @ y) <= 1e-9:
                    return float(x @ payoff @ y)
    raise AssertionError("support enumeration found no equilibrium")


def test_matching_pennies_and_rps() -> None:
    sol = solve_lp([[1.0, -1.0], [-1.0, 1.0]])
    np.testing.assert_allclose(sol.x, [0.5, 0.5], atol=1e-12)
    np.testing.assert_allclose(sol.y, [0.5, 0.5], atol=1e-12)
    assert abs(sol.value) < 1e-12
    rps = np.array([[0.0, 1.0, -1.0], [-1.0, 0.0, 1.0], [1.0, -1.0, 0.0]])
    sol = solve_lp(rps)
    np.testing.assert_allclose(sol.x, [1 / 3] * 3, atol=1e-10)
    np.testing.assert_allclose(sol.y, [1 / 3] * 3, atol=1e-10)


def test_two_by_two_closed_form() -> None:
    # A = [[a, b], [c, d]] without saddle: x1 = (d - c) / (a - b - c + d), v = (ad - bc) / (a - b - c + d)
    a, b, c, d = 3.0, -1.0, -2.0, 1.0
    sol = solve_lp([[a, b], [c, d]])
    denom = a - b - c + d
    assert sol.x[0] == pytest.approx((d - c) / denom, abs=1e-12)
    assert sol.y[0] == pytest.approx((d - b) / denom, abs=1e-12)
    assert sol.value == pytest.approx((a * d - b * c) / denom, abs=1e-12)


@given(payoff=payoff_matrices(max_side=4))
def test_lp_value_matches_support_enumeration(payoff: FloatArray) -> None:
    sol = solve_lp(payoff)
    scale = max(1.0, float(np.abs(payoff).max()))
    assert abs(sol.value - _support_enumeration_value(payoff)) <= 1e-8 * scale
    assert abs(sol.value - sol.dual_value) <= 1e-9 * scale
    assert duality_gap(payoff, sol.x, sol.y) <= 1e-9 * scale


def test_result_is_frozen_and_readonly() -> None:
    sol = solve_lp(np.eye(3))
    with pytest.raises(ValueError, match="read-only"):
        sol.x[0] = 1.0
    with pytest.raises(AttributeError):
        sol.value = 2.0  # type: ignore[misc]


def test_duality_gap_hand_computed() -> None:
    payoff = np.array([[1.0, -1.0], [-1.0, 1.0]])
    assert duality_gap(payoff, [1.0, 0.0], [1.0, 0.0]) == 2.0
    assert best_response_values(payoff, [0.5, 0.5], [0.5, 0.5]) == (0.0, 0.0)


@given(payoff=payoff_matrices(), seed=st.integers(0, 2**32 - 1))
def test_duality_gap_nonnegative(payoff: FloatArray, seed: int) -> None:
    rng = np.random.default_rng(seed)
    m, n = payoff.shape
    assert duality_gap(payoff, rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(n))) >= -1e-12


def test_duality_gap_rejects_off_simplex() -> None:
    with pytest.raises(ValueError, match="x: expected a point of the simplex"):
        duality_gap(np.eye(2), [0.7, 0.7], [0.5, 0.5])
    with pytest.raises(ValueError, match="y: expected shape"):
        duality_gap(np.eye(2), [0.5, 0.5], [1.0])
