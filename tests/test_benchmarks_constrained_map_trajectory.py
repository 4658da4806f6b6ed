"""Spec 04 §6 (ii) waypoints around obstacles (``benchmarks/constrained_map_trajectory.py``): toy run."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from benchmarks import constrained_map_trajectory as traj
from reference import constrained_map as cm


def test_blockwise_o2_equals_the_joint_o2_and_mpmap_reaches_it() -> None:
    # the PP arm's oracle runs O2 per waypoint: on a small instance it must equal O2 on the joint
    # problem (w and Δ factorise), and the exact MpMap must reach it
    problem = cm.trajectory_problem(np.random.default_rng([0, 2, 1]), steps=2, obstacles=1, kind="pp")
    blocks = traj.o2_blockwise(problem, 2, 0)
    joint = cm.pa_map(problem, rng=np.random.default_rng(3), config=traj.O2)
    assert math.isfinite(blocks)
    assert abs(blocks - joint.log_value) <= 1e-6
    exact = cm.mp_map(problem)
    assert exact.log_value >= blocks - 1e-9 * max(1.0, abs(blocks))
    for t in range(2):  # each block is waypoint t's own factors and clauses
        block = traj.waypoint_block(problem, t)
        assert block.n == 2
        assert block.formula.holds(exact.x[2 * t : 2 * t + 2])


def test_toy_run_writes_the_table_with_oracle_gaps(tmp_path: Path) -> None:
    rows, text = traj.run(
        seeds=1, steps=(2,), obstacles=(1,), caps=traj.Caps(), command="toy", out=tmp_path
    )
    mp = next(r for r in rows if r.method == "MpMap (exact)")
    assert mp.feasible == [True]
    assert mp.at_least_oracle == 1  # exact solver at least the O2 local search
    assert all(g <= 1e-9 for g in mp.gaps)
    pa_g = next(r for r in rows if r.kind == "gaussian" and r.method == "PaMap")
    assert pa_g.oracle == "O2 joint"  # 16 cells: the joint O2 fits
    assert pa_g.feasible == [True]
    b1 = next(r for r in rows if r.kind == "gaussian" and r.method == "B1 agnostic")
    assert b1.feasible == [False]  # the unconstrained mode sits inside the first obstacle
    table = (tmp_path / "constrained_map_trajectory.md").read_text(encoding="utf-8")
    assert "| pp | 2 | 1 | MpMap (exact) | O2 per waypoint | 1.00 |" in table
    assert "MpMap: feasible on 1 of 1 PP instances, at least the O2 oracle on 1 of 1." in text
