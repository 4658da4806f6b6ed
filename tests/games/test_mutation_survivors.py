"""Tests written for the mutants mutmut left alive in reference/games (issue 17, point 8).

Expected values come from the documented contracts (the DRS residual recomputed from the
returned lifted point with the configured ``γ``; counts are non-negative; argument domains),
never from the library's output.  The triage of every survivor is in
benchmarks/results/mutation_games.md.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference import games
from reference.games.hybrid import HybridConfig
from reference.games.ssn import SSNConfig, drs_operator, drs_residual, simplex_jacobian


def test_hybrid_newton_phase_uses_the_configured_gamma() -> None:
    """The reported residual is ``||R_γ(u)||`` for the configured ``γ = 0.3``, recomputed here
    from the returned ``u`` (with the default ``γ = 1/||A||_2`` it is about 0.17 on this game)."""
    payoff = np.random.default_rng(1).uniform(-1.0, 1.0, (6, 5))
    result = games.hybrid(payoff, config=HybridConfig(ssn=SSNConfig(gamma=0.3)))
    assert result.u is not None
    assert result.residual is not None
    recomputed = float(np.linalg.norm(drs_residual(payoff, result.u, gamma=0.3)))
    assert abs(result.residual - recomputed) <= 1e-12


def test_hybrid_counts_safeguard_steps_upwards() -> None:
    """A game whose Newton phases take safeguarded steps (without the watchdog and its kink
    search, which avoid them here): the count is a positive number."""
    payoff = np.random.default_rng(19).uniform(-1.0, 1.0, (8, 7))
    ssn_cfg = SSNConfig(gamma=5.0, watchdog=False)
    result = games.hybrid(payoff, mode="PSSN", config=HybridConfig(ssn=ssn_cfg))
    assert result.safeguard_steps > 0


def test_hybrid_config_rejects_zero_newton_iterations() -> None:
    with pytest.raises(ValueError, match="ssn_max_iter"):
        HybridConfig(ssn_max_iter=0)


def test_simplex_jacobian_rejects_a_matrix() -> None:
    with pytest.raises(ValueError, match="v"):
        simplex_jacobian(np.ones((2, 2)))


def test_ssn_config_accepts_lambda0_at_its_lower_limit() -> None:
    """``lambda_min <= lambda0 <= lambda_max`` is inclusive on both sides."""
    cfg = SSNConfig(lambda0=0.5, lambda_min=0.5, lambda_max=2.0)
    assert cfg.lambda0 == cfg.lambda_min


def _project_simplex(v: np.ndarray) -> np.ndarray:
    """Euclidean projection onto the simplex by sorting (Held, Wolfe, Crowder 1974)."""
    s = np.sort(v)[::-1]
    cums = np.cumsum(s) - 1.0
    k = np.flatnonzero(s - cums / np.arange(1, v.size + 1) > 0)[-1]
    out: np.ndarray = np.maximum(v - cums[k] / (k + 1), 0.0)
    return out


def test_drs_operator_uses_the_given_gamma() -> None:
    """``T(u) = u - (I + γM)^{-1}(u - P(u) + γ M P(u))`` with ``M = [[0, A], [-Aᵀ, 0]]``,
    recomputed here with numpy for ``γ = 0.7`` (not the default ``1/||A||_2``)."""
    rng = np.random.default_rng(4)
    payoff = rng.uniform(-1.0, 1.0, (3, 4))
    u = rng.normal(size=7)
    gamma = 0.7
    m = np.block([[np.zeros((3, 3)), payoff], [-payoff.T, np.zeros((4, 4))]])
    p = np.concatenate([_project_simplex(u[:3]), _project_simplex(u[3:])])
    expected = u - np.linalg.solve(np.eye(7) + gamma * m, u - p + gamma * m @ p)
    np.testing.assert_allclose(drs_operator(payoff, u, gamma=gamma), expected, atol=1e-12)


def test_ssn_reports_its_safeguard_steps() -> None:
    """With ``γ = 20`` and no watchdog on this game the Newton steps need the safeguard."""
    payoff = np.random.default_rng(19).uniform(-1.0, 1.0, (8, 7))
    assert games.ssn(payoff, config=SSNConfig(gamma=20.0, watchdog=False)).safeguard_steps > 0


@pytest.mark.parametrize(("tol", "max_iter"), [(5e-2, 5_000), (1e-12, 3)])
def test_rm_plus_stop_reason_matches_the_recomputed_gap(tol: float, max_iter: int) -> None:
    """``stop_reason`` is "tol" exactly when the duality gap of the returned pair, recomputed as
    ``max_j (xᵀA)_j - min_i (Ay)_i``, is at most ``tol``; otherwise "max_iter"."""
    payoff = np.array([[2.0, -1.0], [-1.0, 1.0]])  # equilibrium (2/5, 3/5) twice: not uniform
    result = games.rm_plus(payoff, tol=tol, max_iter=max_iter)
    gap = float(np.max(result.x @ payoff) - np.min(payoff @ result.y))
    expected = "tol" if gap <= tol else "max_iter"
    assert expected == ("tol" if tol > 1e-6 else "max_iter")  # both branches are exercised
    assert result.stop_reason == expected


def test_ssn_config_rejects_nu_equal_to_one() -> None:
    with pytest.raises(ValueError, match="nu"):
        SSNConfig(nu=1.0)
