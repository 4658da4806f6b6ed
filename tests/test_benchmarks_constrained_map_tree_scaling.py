"""Spec 04 §6 (i) tree scaling (``benchmarks/constrained_map_tree_scaling.py``): generator and toy run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks import constrained_map_tree_scaling as trees
from reference import constrained_map as cm


@pytest.mark.parametrize("shape", trees.SHAPES)
def test_planted_draws_are_feasible_trees_on_the_c1_density(shape: str) -> None:
    for seed in range(3):
        problem = trees.planted_tree_problem(np.random.default_rng(seed), n_vars=12, shape=shape)
        base = cm.random_tree_problem(np.random.default_rng(seed), n_vars=12, shape=shape)
        point = np.full(12, 0.37)
        assert problem.density.log_value(point) == base.density.log_value(point)
        result = cm.mp_map(problem)
        assert result.feasible
        assert problem.formula.holds(result.x)
        assert np.all((result.x >= -1e-12) & (result.x <= 1 + 1e-12))


def test_toy_run_checks_mpmap_against_o2(tmp_path: Path) -> None:
    results, text = trees.run(
        sizes=(2, 3), c1_sizes=(2,), instances=2, max_draws=30, o2_max_n=3, command="toy", out=tmp_path
    )
    kept = [r for r in results if r.seconds]
    assert kept
    for r in kept:
        assert r.o2_ok == len(r.o2_seconds)  # MpMap (exact) never below the O2 heuristic
        assert all(gap >= -1e-9 for gap in r.o2_gaps)
    table = (tmp_path / "constrained_map_tree_scaling.md").read_text(encoding="utf-8")
    assert "| planted | chain | 3 |" in table
    assert "O2 check" in text
    assert (tmp_path / "constrained_map_tree_scaling.png").stat().st_size > 0



def _planted_chain_40() -> tuple[cm.MapProblem, np.ndarray]:
    seed = [4, 1, 40, 0, 1, 3]  # the benchmark's 4th planted chain draw at n = 40
    problem = trees.planted_tree_problem(np.random.default_rng(seed), n_vars=40, shape="chain")
    rng = np.random.default_rng(seed)
    cm.random_tree_problem(rng, n_vars=40, shape="chain")
    return problem, rng.uniform(0.0, 1.0, 40)  # the planted point, drawn after the base problem


def test_the_planted_40_node_chain_is_satisfiable_with_positive_density() -> None:
    problem, planted = _planted_chain_40()
    assert problem.formula.holds(planted)
    assert np.isfinite(problem.density.log_value(planted))


def test_mpmap_finds_the_planted_40_node_chain_feasible() -> None:
    # Regression (issue 34): MpMap called this satisfiable chain infeasible.  Its beliefs are
    # ~1e-16, below the absolute tie tolerance 1e-12 argmax_on_intervals used, so the root took
    # its first candidate x = 0, where no child value fits, and decoding failed.
    problem, planted = _planted_chain_40()
    r = cm.mp_map(problem)
    assert r.feasible
    assert r.certified
    f = problem.formula
    for clause in f.clauses:  # Δ(x̂) from the raw atoms, not Formula.holds
        assert any(
            (f.A[k] @ r.x <= f.c[k] + 1e-9) if pos else (f.A[k] @ r.x >= f.c[k] - 1e-9)
            for k, pos in clause
        )
    assert np.all((r.x >= 0.0) & (r.x <= 1.0))
    # log w(x̂) from the factors' pieces, and the exact MAP is at least the planted point's w
    dens = problem.density
    assert isinstance(dens, cm.ProductPP)
    logs = []
    for f_i, xi in zip(dens.factors, r.x, strict=True):  # usc rule: max over the pieces touching x
        t = f_i.breaks
        vals = [
            np.polynomial.polynomial.polyval(xi, c)
            for k, c in enumerate(f_i.coeffs)
            if t[k] - 1e-12 <= xi <= t[k + 1] + 1e-12
        ]
        logs.append(np.log(max(vals)))
    assert float(np.sum(logs)) == pytest.approx(r.log_value, abs=1e-6)
    assert r.log_value >= problem.density.log_value(planted)
