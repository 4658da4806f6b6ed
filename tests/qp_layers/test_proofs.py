"""FFOLayer theorem checks hold on planted QPs, can fail, and are tight where predicted."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, target
from hypothesis import strategies as st

from proofs_numeric import ProveProfile, all_theorems
from proofs_numeric import qp_layers as ff
from reference import qp_layers as ql
from tests.qp_layers import mutants as mq


def _case(seed: int, **kw: Any) -> tuple[Any, np.ndarray]:
    sizes = {"n": 7, "m": 5, "p": 1, "k": 2, **kw}
    inst = ff.instance(seed, **sizes)
    d = np.random.default_rng(seed + 1).standard_normal(sizes["n"])
    return inst, d


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(0, 3))
def test_gradient_theorems_hold(seed: int, k: int) -> None:
    inst, d = _case(seed, k=k)
    for check in (
        ff.ghost_equivalence(inst, d),
        ff.exact_blocks(inst, d),
        ff.rank_one_error(inst, d),
        ff.error_rate(inst, d),
        ff.active_set_identification(inst),
    ):
        target(check.ratio if check.sense == "<=" else 0.0, label=check.claim)
        assert check.holds, check


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(0, 3))
def test_pgd_theorems_hold(seed: int, k: int) -> None:
    inst, d = _case(seed, k=k, spectrum=(1.0, 10.0))
    for check in (
        ff.pgd_contraction(inst, d),
        ff.pgd_alpha_independence(inst, d),
        ff.pgd_rate(inst, d),
    ):
        assert check.holds, check


def test_penalty_theorems_hold() -> None:
    inst, d = _case(3, row_scale=3.0)
    assert ff.penalty_rate(inst, d).holds
    assert ff.penalty_condition(inst).holds


def test_pgd_contraction_is_tight_on_a_slow_mode() -> None:
    # unconstrained Q = diag(1, 10), d along the slow eigenvector: the error is exactly
    # (1 − μ/L)^K ‖d_z‖, so the ratio must be ~1 (a vacuous bound would show ratio << 1)
    inst = ff.instance(0, n=2, m=1, p=0, k=0, spectrum=(1.0, 10.0))
    _, V = np.linalg.eigh(inst.Q)
    check = ff.pgd_contraction(inst, V[:, 0].copy())
    assert check.holds
    assert check.ratio > 0.99


def test_checks_fail_for_broken_algorithms() -> None:
    inst, d = _case(5, k=2)

    def wrap(mutant: Any) -> Any:
        def ffo(*args: Any, alpha: float, solution: Any = None) -> Any:
            Qg, qg, Gg, hg, Ag, bg = mutant(*args, alpha=alpha)
            return ql.QPGrads(Q=Qg, q=qg, G=Gg, h=hg, A=Ag, b=bg, active=None)

        return ffo

    assert not ff.error_rate(inst, d, ffo=wrap(mq.ffo_unsymmetrised_q_matrix)).holds
    assert not ff.rank_one_error(inst, d, ffo=wrap(mq.ffo_constraints_at_ystar)).holds
    assert not ff.exact_blocks(inst, d, ffo=wrap(mq.ffo_missing_alpha)).holds

    def cold_start(*args: Any, **kw: Any) -> Any:
        Q, q, C, c, dd, y0 = args
        return ql.ghost_pgd(Q, q, C, c, dd, np.zeros_like(y0), **kw)

    inst3, d3 = _case(6, k=2, spectrum=(1.0, 10.0))
    assert not ff.pgd_contraction(inst3, d3, pgd=cold_start).holds

    def no_projection(*args: Any, **kw: Any) -> Any:
        Q, q, _, _, dd, y0 = args
        return ql.ghost_pgd(Q, q, None, None, dd, y0, **kw)

    assert (
        not ff.pgd_rate(inst3, d3, pgd=no_projection).holds
        or not ff.pgd_contraction(inst3, d3, pgd=no_projection).holds
    )

    def wrong_penalty(*args: Any, penalty: float, solution: Any = None) -> Any:
        return ql.penalty_grads(*args, penalty=np.sqrt(penalty), solution=solution)

    inst4, d4 = _case(7, row_scale=3.0)
    assert not ff.penalty_rate(inst4, d4, penalty_fn=wrong_penalty).holds

    def loose_solver(*args: Any) -> Any:
        return ql.solve_qp(*args, config=ql.QPSolverConfig(max_iter=2, polish=False))

    assert not ff.active_set_identification(inst, solver=loose_solver).holds


@pytest.mark.parametrize("name", [t.name for t in all_theorems("qp_layers")])
def test_registered_drivers_hold_on_quick(name: str) -> None:
    (entry,) = [t for t in all_theorems("qp_layers") if t.name == name]
    result = entry.driver(ProveProfile.named("quick"))
    assert result.holds, result


@pytest.mark.slow
@pytest.mark.parametrize("name", [t.name for t in all_theorems("qp_layers")])
def test_registered_drivers_hold_on_full(name: str) -> None:
    (entry,) = [t for t in all_theorems("qp_layers") if t.name == name]
    result = entry.driver(ProveProfile.named("full"))
    assert result.holds, result


def test_penalty_condition_reads_the_library_inner_system(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 17: cond(Q + λ_p CᵀC) was computed by the check itself, so any penalty_grads passed.
    # It is now read off penalty_grads' outputs; mutant: the penalty enters as sqrt(λ_p)
    (inst, _), *_ = ff._constrained(ProveProfile.named("quick"))
    C, _, _ = ff._ghost(inst)
    inverse = ff.penalty_inverse_hessian(inst, 100.0)
    assert np.allclose(inverse @ (inst.Q + 100.0 * C.T @ C), np.eye(inst.Q.shape[0]), atol=1e-6)
    ok = ff.penalty_condition(inst)
    assert ok.holds
    real = ql.penalty_grads

    def sqrt_penalty(*args: Any, penalty: float = 100.0, **kw: Any) -> ql.QPGrads:
        return real(*args, penalty=float(np.sqrt(penalty)), **kw)

    monkeypatch.setattr(ql, "penalty_grads", sqrt_penalty)
    wrong = ff.penalty_condition(inst)
    assert not wrong.holds
    assert wrong.measured < 0.7  # slope about 1/2
