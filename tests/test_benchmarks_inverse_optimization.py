"""Spec 18 §6 regret study (``benchmarks/inverse_optimization_experiment.py``): a toy grid."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from benchmarks import inverse_optimization_experiment as exp
from reference import inverse_optimization as io


def test_spec_grids_are_the_defaults() -> None:
    assert exp.DS == (4, 6, 8, 12)
    assert exp.CORRUPTIONS == (0, 1, 2, 4)


def test_algorithm_two_stays_within_its_mistake_bound_and_restarts_at_most_c_times() -> None:
    two = exp.part_two(80, 2, d=4, corruptions=(0, 2))
    for c, (curve, restarts, mistakes) in two.items():
        assert np.all(np.diff(curve) >= -1e-12)  # regret of a best response is nonnegative
        assert restarts <= c
        assert mistakes <= (c + 1) * (io.mistake_bound(4) + 1) + c


def test_toy_run_writes_every_d_learner_and_corruption_row(tmp_path: Path) -> None:
    argv = ["--horizon", "60", "--seeds", "1", "--ds", "4", "6", "--corruptions", "0", "1"]
    assert exp.main([*argv, "--out", str(tmp_path)]) == 0
    table = (tmp_path / "inverse_optimization_regret.md").read_text(encoding="utf-8")
    for d in (4, 6):
        assert table.count(f"| {d} | ") == 5  # five learners
    assert "| R_60 - R_10 |" in table
    assert table.count("| 1 | ") >= 1
    assert (tmp_path / "inverse_optimization_regret.png").stat().st_size > 0
