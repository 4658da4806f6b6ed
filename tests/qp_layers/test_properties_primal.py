"""qp_layers.solver with capability ``primal_only``: solvers that return ``x`` alone.

qpth's ``QPFunction`` and cvxpylayers' ``CvxpyLayer`` return the primal solution only; the
suite recovers the multipliers from it (:func:`properties.qp_layers.recover_multipliers`)
or compares ``x`` alone.  The two adapters below are what a user writes (a few lines each).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from properties import Capabilities, run_suite
from properties.qp_layers import QP_SOLVER, planted_qp, recover_multipliers
from reference import qp_layers
from reference._arrays import FloatArray

PRIMAL = Capabilities(primal_only=True)


def reference_primal(Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any) -> FloatArray:
    """Our solver with its multipliers thrown away."""
    return qp_layers.solve_qp(Q, q, G, h, A, b).x


def shifted_primal(Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any) -> FloatArray:
    """A wrong solver: the answer moved by 1e-3 along the first axis."""
    x = qp_layers.solve_qp(Q, q, G, h, A, b).x.copy()
    x[0] += 1e-3
    return x


def qpth_solver(Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any) -> Any:
    """qpth's public API (float64, one QP as a batch of one); absent blocks as empty tensors."""
    torch = pytest.importorskip("torch")
    qpth_qp = pytest.importorskip("qpth.qp")
    n = Q.shape[0]

    def t(a: Any, shape: tuple[int, ...]) -> Any:
        return torch.zeros(shape, dtype=torch.float64) if a is None else torch.as_tensor(a)

    if G is None:  # qpth needs at least one inequality: a slack row 0ᵀx <= 1
        G, h = np.zeros((1, n)), np.ones(1)
    x = qpth_qp.QPFunction(verbose=-1)(
        t(Q, (n, n)), t(q, (n,)), t(G, G.shape), t(h, h.shape), t(A, (0,)), t(b, (0,))
    )
    return x[0].detach().numpy()


def cvxpylayers_solver(Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any) -> Any:
    """cvxpylayers' public API: a CvxpyLayer built for the problem's shapes, then called."""
    cp = pytest.importorskip("cvxpy")
    torch = pytest.importorskip("torch")
    layer_mod = pytest.importorskip("cvxpylayers.torch")
    n = Q.shape[0]
    x = cp.Variable(n)
    L = cp.Parameter((n, n))
    q_p = cp.Parameter(n)
    params = [L, q_p]
    constraints = []
    if G is not None:
        G_p, h_p = cp.Parameter(G.shape), cp.Parameter(h.shape)
        params += [G_p, h_p]
        constraints.append(G_p @ x <= h_p)
    if A is not None:
        A_p, b_p = cp.Parameter(A.shape), cp.Parameter(b.shape)
        params += [A_p, b_p]
        constraints.append(A_p @ x == b_p)
    objective = cp.Minimize(0.5 * cp.sum_squares(L.T @ x) + q_p @ x)
    layer = layer_mod.CvxpyLayer(
        cp.Problem(objective, constraints), parameters=params, variables=[x]
    )
    values = [np.linalg.cholesky(Q), q] + [v for v in (G, h, A, b) if v is not None]
    (solution,) = layer(*(torch.as_tensor(v) for v in values), solver_args={"eps": 1e-10})
    return solution.detach().numpy()


def test_recover_multipliers_finds_the_planted_ones() -> None:
    rng = np.random.default_rng(3)
    for _ in range(5):
        inst = planted_qp(rng, n=5, m=4, p=1, k=2)
        lam, nu = recover_multipliers(inst, inst.y)
        assert np.allclose(lam, inst.lam, atol=1e-9)
        assert np.allclose(nu, inst.nu, atol=1e-9)


def test_reference_without_multipliers_passes_and_a_shifted_solver_fails() -> None:
    good = run_suite(reference_primal, QP_SOLVER, capabilities=PRIMAL, profile="smoke")
    assert good.ok, good.format()
    assert {r.name: r.status for r in good.results}["kkt_residual"] == "passed"
    bad = run_suite(shifted_primal, QP_SOLVER, capabilities=PRIMAL, profile="smoke")
    failed = {r.name for r in bad.failed}
    assert {"kkt_residual", "matches_planted_solution"} <= failed


def test_primal_only_answer_without_the_capability_fails_on_shapes() -> None:
    report = run_suite(
        reference_primal, QP_SOLVER, profile="smoke", skip=["objective_scaling_invariance"]
    )
    message = {r.name: r.message for r in report.results}["kkt_residual"]
    assert "declares capability primal_only" in message


@pytest.mark.slow
@pytest.mark.parametrize("solver", [qpth_solver, cvxpylayers_solver])
def test_outside_solvers_through_their_public_api(solver: Any) -> None:
    report = run_suite(
        solver, QP_SOLVER, capabilities=Capabilities(primal_only=True, tolerance=1e-5)
    )
    print(report.format())
    assert report.counts().get("passed", 0) >= 3
