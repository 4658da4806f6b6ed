"""The support-reduced Newton solve equals the dense LU solve (spec 01, Section 3.4).

``linear_solver="reduced"`` (default) and ``"dense"`` solve the same system
``[(1+μ)I - D + γM(D + μI)] d = -G(u)``; these tests pin that they give the same
direction (1e-10, relative) and the same SSN/PSSN/HPSSN iterates over whole solves.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from properties.strategies import payoff_matrices, seeds
from reference._arrays import FloatArray
from reference.games import (
    HybridConfig,
    SSNConfig,
    drs_residual_g,
    hybrid,
    newton_direction,
    ssn,
)
from reference.games.ssn import LINEAR_SOLVERS, _Drs


def _rel(a: FloatArray, b: FloatArray) -> float:
    return float(np.linalg.norm(a - b)) / max(float(np.linalg.norm(b)), 1e-300)


@given(
    payoff=payoff_matrices(),
    seed=seeds(),
    scale=st.sampled_from([0.01, 0.3, 3.0]),
    mu=st.floats(1e-3, 10.0),
)
def test_reduced_and_dense_directions_agree(
    payoff: FloatArray, seed: int, scale: float, mu: float
) -> None:
    m, n = payoff.shape
    u = np.random.default_rng(seed).normal(size=m + n) * scale
    d_dense = newton_direction(payoff, u, mu, linear_solver="dense")
    d_red = newton_direction(payoff, u, mu)  # the default is the reduced solve
    # ||K^{-1}|| <= ||(J + μI)^{-1}|| ||W|| <= 1/μ, so the system is well conditioned here
    assert _rel(d_red, d_dense) <= 1e-10


@pytest.mark.parametrize(("m", "n"), [(1, 1), (1, 5), (6, 1), (7, 13), (13, 7), (40, 60)])
@pytest.mark.parametrize("mu", [1e-12, 1e-6, 1.0])
def test_reduced_solve_is_backward_stable_for_any_mu(m: int, n: int, mu: float) -> None:
    """At tiny ``μ`` random points make ``K`` ill conditioned (~1/μ); both solves stay exact
    in the backward sense, and they agree wherever the conditioning allows."""
    rng = np.random.default_rng(m * 100 + n)
    a = rng.standard_normal((m, n))
    u = rng.normal(size=m + n) * 0.3
    ctx = _Drs(a, None)
    k = ctx.newton_matrix(u, mu)
    g = drs_residual_g(a, u)
    d_red = newton_direction(a, u, mu)
    d_dense = newton_direction(a, u, mu, linear_solver="dense")
    for d in (d_red, d_dense):
        backward = np.linalg.norm(k @ d + g) / (np.linalg.norm(k, 2) * np.linalg.norm(d) + 1e-300)
        assert backward <= 1e-13
    cond = float(np.linalg.cond(k))
    assert _rel(d_red, d_dense) <= 1e-14 * cond + 1e-12


def _games() -> list[FloatArray]:
    out = []
    for seed, (m, n) in enumerate([(20, 30), (30, 20), (25, 45), (45, 25), (1, 9), (9, 1)]):
        rng = np.random.default_rng(seed)
        a = rng.uniform(-1.0, 1.0, (m, n)) if seed % 2 else rng.standard_normal((m, n))
        out.append(a)
    return out


@pytest.mark.parametrize("index", range(6))
def test_directions_agree_along_a_real_ssn_trajectory(index: int) -> None:
    """At the SSN iterates themselves, with ``μ = λ ||R(u_k)||`` over the solver's range of ``λ``.

    For ``λ ∈ {1, 10}`` the two directions agree to 1e-10.  At ``λ = λ_min = 1e-6`` the
    system can be ill conditioned (``cond(K)`` up to ~1e10 on these games), and two
    backward-stable solves can only agree to ``~ε cond(K)``: that is what is asserted there.
    """
    a = _games()[index]
    base = SSNConfig(linear_solver="dense")
    ctx = _Drs(a, None)
    for k in range(1, 40):
        res = ssn(a, tol=1e-300, max_iter=k, config=base)
        if res.u is None or res.residual is None or res.residual <= 1e-13:
            break
        for lam in (base.lambda_min, 1.0, base.lambda_max):
            mu = lam * res.residual
            d_dense = newton_direction(a, res.u, mu, linear_solver="dense")
            d_red = newton_direction(a, res.u, mu, linear_solver="reduced")
            if lam >= 1.0:
                assert _rel(d_red, d_dense) <= 1e-10, (k, lam)
            else:
                cond = float(np.linalg.cond(ctx.newton_matrix(res.u, mu)))
                assert _rel(d_red, d_dense) <= max(1e-10, 1e-14 * cond), (k, lam, cond)


@pytest.mark.parametrize("index", range(6))
def test_whole_solves_give_the_same_iterates(index: int) -> None:
    a = _games()[index]
    dense, reduced = SSNConfig(linear_solver="dense"), SSNConfig()
    assert reduced.linear_solver == "reduced"
    pairs = [
        (ssn(a, config=dense), ssn(a, config=reduced)),
        (
            hybrid(a, config=HybridConfig(ssn=dense)),
            hybrid(a, config=HybridConfig(ssn=reduced)),
        ),
        (
            hybrid(a, mode="HPSSN", config=HybridConfig(ssn=dense)),
            hybrid(a, mode="HPSSN", config=HybridConfig(ssn=reduced)),
        ),
    ]
    for r_dense, r_red in pairs:
        assert r_red.converged == r_dense.converged
        assert r_red.newton_iterations == r_dense.newton_iterations
        assert r_red.first_order_iterations == r_dense.first_order_iterations
        assert r_red.safeguard_steps == r_dense.safeguard_steps
        assert r_red.ssn_runs == r_dense.ssn_runs
        np.testing.assert_allclose(r_red.residual_history, r_dense.residual_history, atol=1e-12)
        np.testing.assert_allclose(r_red.gap_history, r_dense.gap_history, atol=1e-12)
        np.testing.assert_allclose(r_red.x, r_dense.x, atol=1e-12)
        np.testing.assert_allclose(r_red.y, r_dense.y, atol=1e-12)
        if r_dense.u is not None:
            assert r_red.u is not None
            np.testing.assert_allclose(r_red.u, r_dense.u, atol=1e-12)


def test_unknown_linear_solver_is_rejected_naming_the_argument() -> None:
    a = _games()[0]
    assert LINEAR_SOLVERS == ("reduced", "dense")
    with pytest.raises(ValueError, match="linear_solver: expected one of"):
        SSNConfig(linear_solver="cholesky")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="linear_solver"):
        newton_direction(a, np.zeros(50), 0.1, linear_solver="gmres")  # type: ignore[arg-type]
