"""The fast path's Newton solves equal the reference's dense solve (spec 01, Section 3.4).

The reference (:func:`reference.games.newton_direction`) always forms the ``(m+n) x (m+n)``
W-free matrix ``K = (1+μ)I - D + γM(D + μI)`` and solves ``K d = -G(u)`` by dense LU.  The fast
path :mod:`reference.games.fast` keeps the choice of linear solver: ``linear_solver="reduced"``
(default, Sherman–Morrison–Woodbury on the supports) or ``"dense"``.  These tests pin that all
three give the same direction (1e-10, relative, where ``K`` is well conditioned; ``~ε cond(K)``
where it is not) and the same SSN/PSSN/HPSSN iterates over whole solves.  The OpInfo-style
table of every fast function against its reference is ``test_fast_vs_reference.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from properties.strategies import payoff_matrices, seeds
from reference._arrays import FloatArray
from reference.games import SSNConfig, drs_residual_g, fast, hybrid, newton_direction, ssn
from reference.games.ssn import _newton_matrix, _prepare


def _rel(a: FloatArray, b: FloatArray) -> float:
    return float(np.linalg.norm(a - b)) / max(float(np.linalg.norm(b)), 1e-300)


@given(
    payoff=payoff_matrices(),
    seed=seeds(),
    scale=st.sampled_from([0.01, 0.3, 3.0]),
    mu=st.floats(1e-3, 10.0),
)
def test_reduced_dense_and_reference_directions_agree(
    payoff: FloatArray, seed: int, scale: float, mu: float
) -> None:
    m, n = payoff.shape
    u = np.random.default_rng(seed).normal(size=m + n) * scale
    d_ref = newton_direction(payoff, u, mu)
    d_dense = fast.newton_direction(payoff, u, mu, linear_solver="dense")
    d_red = fast.newton_direction(payoff, u, mu)  # the default is the reduced solve
    # ||K^{-1}|| <= ||(J + μI)^{-1}|| ||W|| <= 1/μ, so the system is well conditioned here
    assert _rel(d_red, d_ref) <= 1e-10
    assert _rel(d_dense, d_ref) <= 1e-10


@pytest.mark.parametrize(("m", "n"), [(1, 1), (1, 5), (6, 1), (7, 13), (13, 7), (40, 60)])
@pytest.mark.parametrize("mu", [1e-12, 1e-6, 1.0])
def test_every_solve_is_backward_stable_for_any_mu(m: int, n: int, mu: float) -> None:
    """At tiny ``μ`` random points make ``K`` ill conditioned (~1/μ); all three solves stay
    exact in the backward sense, and they agree wherever the conditioning allows."""
    rng = np.random.default_rng(m * 100 + n)
    a = rng.standard_normal((m, n))
    u = rng.normal(size=m + n) * 0.3
    k = _newton_matrix(_prepare(a, None), u, mu)
    g = drs_residual_g(a, u)
    d_ref = newton_direction(a, u, mu)
    d_red = fast.newton_direction(a, u, mu)
    d_dense = fast.newton_direction(a, u, mu, linear_solver="dense")
    for d in (d_ref, d_red, d_dense):
        backward = np.linalg.norm(k @ d + g) / (np.linalg.norm(k, 2) * np.linalg.norm(d) + 1e-300)
        assert backward <= 1e-13
    cond = float(np.linalg.cond(k))
    assert _rel(d_red, d_ref) <= 1e-14 * cond + 1e-12
    assert _rel(d_dense, d_ref) <= 1e-14 * cond + 1e-12


def _games() -> list[FloatArray]:
    out = []
    for seed, (m, n) in enumerate([(20, 30), (30, 20), (25, 45), (45, 25), (1, 9), (9, 1)]):
        rng = np.random.default_rng(seed)
        a = rng.uniform(-1.0, 1.0, (m, n)) if seed % 2 else rng.standard_normal((m, n))
        out.append(a)
    return out


@pytest.mark.parametrize("index", range(6))
def test_directions_agree_along_a_real_ssn_trajectory(index: int) -> None:
    """At the reference SSN iterates, with ``μ = λ ||R(u_k)||`` over the solver's range of ``λ``.

    Same right-hand side ``-G(u)``: for ``λ ∈ {1, 10}`` the reduced solve and the dense LU agree
    to 1e-10; at ``λ = λ_min = 1e-6`` the system can be ill conditioned (``cond(K)`` up to
    ~1e10 on these games), and two backward-stable solves can only agree to ``~ε cond(K)``.
    The public functions also round ``G(u)`` differently (fast: Schur blocks; reference: the
    dense ``γM``), ``~ε (||u|| + ||P(u)|| + ||γMP(u)||) <= 1e-14 (||u|| + 3)`` absolutely; near a
    solution ``||G|| ~ ||R||`` is tiny, so that enters through ``||K^{-1}||``: the budget below.
    """
    a = _games()[index]
    base = SSNConfig()
    game = _prepare(a, None)
    ctx = fast._Drs(a, None)
    for k in range(1, 40):
        res = ssn(a, tol=1e-300, max_iter=k)
        if res.u is None or res.residual is None or res.residual <= 1e-13:
            break
        u = np.asarray(res.u)
        g = drs_residual_g(a, u)
        for lam in (base.lambda_min, 1.0, base.lambda_max):
            mu = lam * res.residual
            k_mat = _newton_matrix(game, u, mu)
            cond = float(np.linalg.cond(k_mat))
            rel = 1e-10 if lam >= 1.0 else max(1e-10, 1e-14 * cond)
            d_lu = np.asarray(np.linalg.solve(k_mat, -g), dtype=np.float64)
            assert _rel(ctx.direction_reduced(u, mu, g), d_lu) <= rel, (k, lam, cond)
            d_ref = newton_direction(a, u, mu)
            d_red = fast.newton_direction(a, u, mu)
            g_err = 1e-14 * (float(np.linalg.norm(u)) + 3.0)
            k_inv = float(np.linalg.norm(np.linalg.inv(k_mat), 2))
            budget = rel * float(np.linalg.norm(d_ref)) + k_inv * g_err
            assert float(np.linalg.norm(d_red - d_ref)) <= budget, (k, lam, cond)


@pytest.mark.parametrize("index", range(6))
@pytest.mark.parametrize("solver", fast.LINEAR_SOLVERS)
def test_whole_solves_give_the_reference_iterates(index: int, solver: fast.LinearSolver) -> None:
    a = _games()[index]
    pairs = [
        (ssn(a), fast.ssn(a, linear_solver=solver)),
        (hybrid(a), fast.hybrid(a, linear_solver=solver)),
        (hybrid(a, mode="HPSSN"), fast.hybrid(a, mode="HPSSN", linear_solver=solver)),
    ]
    for ref, quick in pairs:
        assert quick.converged == ref.converged
        assert quick.newton_iterations == ref.newton_iterations
        assert quick.first_order_iterations == ref.first_order_iterations
        assert quick.safeguard_steps == ref.safeguard_steps
        assert quick.ssn_runs == ref.ssn_runs
        np.testing.assert_allclose(quick.residual_history, ref.residual_history, atol=1e-12)
        np.testing.assert_allclose(quick.gap_history, ref.gap_history, atol=1e-12)
        np.testing.assert_allclose(quick.x, ref.x, atol=1e-12)
        np.testing.assert_allclose(quick.y, ref.y, atol=1e-12)
        if ref.u is not None:
            assert quick.u is not None
            np.testing.assert_allclose(quick.u, ref.u, atol=1e-12)


def test_the_reference_has_one_solver_and_the_fast_path_rejects_unknown_ones() -> None:
    a = _games()[0]
    assert fast.LINEAR_SOLVERS == ("reduced", "dense")
    with pytest.raises(TypeError, match="linear_solver"):
        SSNConfig(linear_solver="dense")  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="linear_solver: expected one of"):
        fast.ssn(a, linear_solver="cholesky")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="linear_solver"):
        fast.newton_direction(a, np.zeros(50), 0.1, linear_solver="gmres")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="linear_solver"):
        fast.hybrid(a, linear_solver="lu")  # type: ignore[arg-type]
