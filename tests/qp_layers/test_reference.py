"""Unit tests of reference.qp_layers: worked examples, oracles, variants, bad input, warnings."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from properties.qp_layers import QPInstance, oracle_grads, planted_qp, qp_instances
from reference import qp_layers as ql


def _inst(seed: int = 0, n: int = 6, m: int = 5, p: int = 1, k: int = 2) -> QPInstance:
    return planted_qp(np.random.default_rng(seed), n=n, m=m, p=p, k=k)


def test_worked_example_projection_onto_halfspace() -> None:
    # min ½‖y‖² − 2(y1 + y2) s.t. y1 + y2 <= 1: y = (½, ½), λ = 3/2
    sol = ql.solve_qp(np.eye(2), [-2.0, -2.0], [[1.0, 1.0]], [1.0])
    assert np.allclose(sol.x, [0.5, 0.5], atol=1e-12)
    assert sol.lam[0] == pytest.approx(1.5, abs=1e-12)
    assert sol.converged
    assert sol.polished
    assert not sol.x.flags.writeable


@given(inst=qp_instances(max_n=7, max_m=7))
def test_pdipm_matches_brute_force_and_planted_point(inst: QPInstance) -> None:
    sol = ql.solve_qp(*inst.args())
    brute = ql.solve_qp_active_set(*inst.args())
    assert np.allclose(sol.x, inst.y, atol=1e-9)
    assert np.allclose(brute.x, inst.y, atol=1e-9)
    assert np.allclose(sol.lam, inst.lam, atol=1e-9)
    assert np.allclose(sol.nu, inst.nu, atol=1e-9)
    assert sol.residual <= 1e-10


def test_non_convergence_is_data_not_an_exception() -> None:
    inst = _inst(1)
    sol = ql.solve_qp(*inst.args(), config=ql.QPSolverConfig(max_iter=1, polish=False))
    assert not sol.converged
    assert sol.iterations == 1
    assert np.all(np.isfinite(sol.x))


def test_infeasible_qp_is_reported_as_such() -> None:
    G = np.array([[1.0, 0.0], [-1.0, 0.0]])
    h = np.array([0.0, -1.0])  # y1 <= 0 and y1 >= 1
    with pytest.raises(ValueError, match="infeasible"):
        ql.solve_qp(np.eye(2), np.zeros(2), G, h)
    with pytest.raises(ValueError, match="infeasible"):
        ql.solve_qp_active_set(np.eye(2), np.zeros(2), G, h)


@pytest.mark.parametrize(
    ("Q", "match"),
    [
        (np.array([[1.0, 0.5], [0.0, 1.0]]), "symmetric positive definite"),
        (np.array([[1.0, 0.0], [0.0, -1.0]]), "symmetric positive definite"),
    ],
)
def test_bad_q_is_rejected(Q: np.ndarray, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        ql.solve_qp(Q, np.zeros(2))


def test_shape_and_batch_errors_name_the_argument() -> None:
    with pytest.raises(ValueError, match="q: expected shape"):
        ql.solve_qp(np.eye(3), np.zeros(2))
    with pytest.raises(ValueError, match="h: expected shape"):
        ql.solve_qp(np.eye(2), np.zeros(2), np.ones((3, 2)), np.ones(2))
    with pytest.raises(ValueError, match="batch sizes"):
        ql.solve_qp(np.stack([np.eye(2)] * 2), np.zeros((3, 2)))
    with pytest.raises(ValueError, match="both or neither"):
        ql.solve_qp(np.eye(2), np.zeros(2), np.ones((1, 2)), None)
    with pytest.raises(ValueError, match="full row rank"):
        ql.solve_qp(np.eye(2), np.zeros(2), None, None, np.ones((2, 2)), np.ones(2))
    with pytest.raises(ValueError, match="alpha"):
        ql.ffo_grads(np.eye(2), np.zeros(2), None, None, None, None, np.ones(2), alpha=0.0)
    with pytest.raises(ValueError, match="grad_x"):
        ql.kkt_grads(np.eye(2), np.zeros(2), None, None, None, None, np.ones(3))


def test_batched_broadcast_gradient_is_the_sum() -> None:
    inst = _inst(2)
    Q, q, G, h, A, b = inst.args()
    qs = np.stack([q, q + 0.01, q - 0.02])
    rng = np.random.default_rng(3)
    ds = rng.standard_normal((3, q.shape[0]))
    for fn in (ql.kkt_grads, ql.ffo_grads):
        batch = fn(Q, qs, G, h, A, b, ds)
        singles = [fn(Q, qs[i], G, h, A, b, ds[i]) for i in range(3)]
        assert batch.q.shape == (3, q.shape[0])
        assert batch.Q.shape == Q.shape
        assert np.allclose(batch.q, np.stack([s.q for s in singles]), atol=1e-12)
        assert np.allclose(batch.Q, sum(s.Q for s in singles), atol=1e-12)
        assert batch.G is not None
        assert np.allclose(batch.G, sum(s.G for s in singles if s.G is not None), atol=1e-12)


@settings(max_examples=15)
@given(inst=qp_instances(max_n=7, max_m=6), seed=st.integers(0, 2**32 - 1))
def test_variants_agree_with_the_oracle(inst: QPInstance, seed: int) -> None:
    d = np.random.default_rng(seed).standard_normal(int(inst.Q.shape[0]))
    want = oracle_grads(inst, d)
    central = ql.ffo_grads(*inst.args(), d, config=ql.FFOConfig(difference="central"))
    fo = ql.ffo_grads(*inst.args(), d, alpha=100.0, config=ql.FFOConfig(inner="first_order"))
    exact = ql.ffo_grads(*inst.args(), d, alpha=100.0)
    assert fo.converged
    for name, w in want.items():
        assert np.allclose(getattr(central, name), w, atol=1e-8), name
        assert np.allclose(getattr(fo, name), getattr(exact, name), atol=1e-7), name


def test_ffo_worked_example_error_term() -> None:
    # 1-D: y* = 1, d_z = -1/2, so ĝ_Q = −½ + d_z²/(2α) = −½ + 1/(8α)
    g = ql.ffo_grads([[2.0]], [-2.0], None, None, None, None, [1.0], alpha=100.0)
    assert g.Q[0, 0] == pytest.approx(-0.5 + 1 / 800, abs=1e-12)
    assert g.q[0] == pytest.approx(-0.5, abs=1e-12)


def test_penalty_error_shrinks_like_one_over_penalty() -> None:
    inst = planted_qp(np.random.default_rng(4), n=6, m=4, p=1, k=2, row_scale=3.0)
    d = np.random.default_rng(5).standard_normal(6)
    exact = oracle_grads(inst, d)["q"]
    errs = [
        float(np.linalg.norm(ql.penalty_grads(*inst.args(), d, penalty=lp).q - exact))
        for lp in (1e2, 1e3, 1e4)
    ]
    assert errs[1] < errs[0] / 5
    assert errs[2] < errs[1] / 5
    soft = ql.penalty_grads(
        *inst.args(), d, penalty=1e4, config=ql.PenaltyConfig(active_weight="tanh")
    )
    assert np.all(np.isfinite(soft.q))


def test_degenerate_row_warns_and_rank_deficiency_drops_rows() -> None:
    # y* = 0 with the row y1 <= 0 weakly active (λ = 0): q = 0
    G = np.array([[1.0, 0.0]])
    with pytest.warns(ql.DegenerateQPWarning):
        ql.ffo_grads(np.eye(2), np.zeros(2), G, np.zeros(1), None, None, np.ones(2))
    with pytest.warns(ql.DegenerateQPWarning):
        ql.kkt_grads(np.eye(2), np.zeros(2), G, np.zeros(1), None, None, np.ones(2))
    # three active rows in R²: C cannot have full row rank
    G3 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    q = np.array([-3.0, -3.0])  # unconstrained optimum (3, 3), all rows bind at 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = ql.ffo_grads(np.eye(2), q, G3, np.zeros(3), None, None, np.ones(2))
    kinds = {type(w.message) for w in caught}
    assert ql.RankDeficientWarning in kinds
    assert g.active is not None
    assert int(g.active.sum()) == 2


def test_ghost_pgd_records_history_and_stops() -> None:
    r = ql.ghost_pgd(
        np.diag([1.0, 4.0]),
        np.zeros(2),
        None,
        None,
        [1.0, 1.0],
        [0.0, 0.0],
        alpha=10.0,
        record=True,
    )
    assert r.converged
    assert r.history.shape == (r.iterations + 1, 2)
    assert np.allclose(r.y, [-0.1, -0.025], atol=1e-10)
    capped = ql.ghost_pgd(
        np.diag([1.0, 4.0]), np.zeros(2), None, None, [1.0, 1.0], [0.0, 0.0], alpha=10.0, max_iter=3
    )
    assert capped.iterations == 3
    assert not capped.converged


def test_kkt_residual_and_active_set() -> None:
    inst = _inst(6)
    res = ql.kkt_residual(*inst.args(), inst.y, inst.lam, inst.nu)
    assert res <= 1e-12
    assert ql.kkt_residual(*inst.args(), inst.y + 0.1, inst.lam, inst.nu) > 1e-3
    sol = ql.solve_qp(*inst.args())
    mask = ql.active_set(sol.slack, sol.lam)
    assert np.array_equal(mask, inst.active)


@pytest.mark.parametrize("seed", range(6))
def test_polish_finds_a_row_with_a_tiny_multiplier(seed: int) -> None:
    """Regression: an active row with ``λ* = 1e-6`` sits at ``s ≈ μ/λ ≈ 1e-4`` at the interior
    point, so the polish's first guess ``{λ_i > s_i}`` left it out; the re-solved point violated
    it and was rejected, and ``kkt_grads`` / ``ffo_grads`` called without ``solution=``
    differentiated at the interior point: ``∇_q`` off by 0.2 to 1.0 (seeds 0-5), with no warning.
    The polish now adds the violated row and re-solves."""
    inst = _inst(seed)
    assert inst.G is not None
    assert inst.A is not None
    row = int(np.flatnonzero(inst.active)[0])
    lam = inst.lam.copy()
    lam[row] = 1e-6
    q = -(inst.Q @ inst.y + inst.G.T @ lam + inst.A.T @ inst.nu)
    args = (inst.Q, q, inst.G, inst.h, inst.A, inst.b)
    sol = ql.solve_qp(*args)
    assert sol.polished
    assert sol.converged
    assert np.allclose(sol.x, inst.y, atol=1e-12)
    assert sol.lam[row] == pytest.approx(1e-6, rel=1e-6)
    d = np.random.default_rng(seed + 1).standard_normal(inst.Q.shape[0])
    oracle = ql.solve_qp_active_set(*args)
    want = ql.kkt_grads(*args, d, solution=oracle)
    for got in (ql.kkt_grads(*args, d), ql.ffo_grads(*args, d)):
        assert np.allclose(got.q, want.q, atol=1e-8)
        assert got.active is not None
        assert bool(got.active[row])


def test_polish_drops_a_nearly_active_row() -> None:
    """Regression: an inactive row at slack 1e-6 ends the interior point with ``λ ≈ s ≈ 1e-5``
    (seed 1: ``λ > s``), enters the first guess, and forced active gets a negative multiplier;
    the polish was rejected and ``solve_qp`` returned the interior point (``x`` off by 6e-6,
    ``λ = 1e-5`` on an inactive row).  The polish now drops the row and re-solves."""
    inst = _inst(1)
    assert inst.G is not None
    assert inst.h is not None
    row = int(np.flatnonzero(~inst.active)[0])
    h = inst.h.copy()
    h[row] = inst.G[row] @ inst.y + 1e-6
    sol = ql.solve_qp(inst.Q, inst.q, inst.G, h, inst.A, inst.b)
    assert sol.polished
    assert np.allclose(sol.x, inst.y, atol=1e-12)
    assert sol.lam[row] == 0.0
    assert sol.slack[row] == pytest.approx(1e-6, rel=1e-6)


def _ill_scaled_qp(seed: int) -> tuple[np.ndarray, ...]:
    """A random QP with unequal scales and some zero rows of ``G`` (feasible by construction)."""
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(1, 8)), int(rng.integers(1, 12))
    B = rng.normal(size=(n, n)) * rng.choice([1e-3, 1.0, 1e3])
    Q = B @ B.T + rng.choice([1e-8, 1e-3, 1.0]) * np.eye(n)
    q = rng.normal(size=n) * rng.choice([1.0, 1e4])
    G = rng.normal(size=(m, n))
    G[rng.random(m) < 0.3] *= 0
    h = G @ rng.normal(size=n) + rng.choice([0.0, 1e-9, 1.0], size=m)
    return Q, q, G, h


@pytest.mark.parametrize("seed", [0, 6])
def test_mu_safeguard_changes_the_path_and_both_flags_are_honest(seed: int) -> None:
    """QPSolverConfig.mu_safeguard (beyond spec 03 A0, off by default): on these QPs the plain
    Mehrotra method converges in a few steps while the safeguarded one stops at the cap;
    ``converged`` is, on both, the recomputed KKT residual against ``tol``."""
    from reference.qp_layers import QPSolverConfig, kkt_residual, solve_qp

    Q, q, G, h = _ill_scaled_qp(seed)
    plain = solve_qp(Q, q, G, h)
    guarded = solve_qp(Q, q, G, h, config=QPSolverConfig(mu_safeguard=True))
    assert plain.converged
    assert plain.iterations < 30
    assert not guarded.converged
    assert guarded.iterations == 100
    for sol in (plain, guarded):
        res = kkt_residual(Q, q, G, h, None, None, sol.x, sol.lam, sol.nu)
        assert (res <= 1e-10) == sol.converged
