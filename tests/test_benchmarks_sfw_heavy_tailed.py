"""Spec 14 §4.3 at 50 seeds (``benchmarks/sfw_heavy_tailed.py``): the instance and a toy run."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from benchmarks import sfw_heavy_tailed as sfw
from reference import stability


def test_instance_is_nonconvex_and_the_noise_is_scaled_to_median_one() -> None:
    q, _, median = sfw.problem()
    eig = np.linalg.eigvalsh(q)
    assert eig.min() < 0 < eig.max()  # indefinite: the nonconvex quadratic of the spec
    rng = np.random.default_rng(5)
    draws = stability.symmetric_pareto(200_000, tail=sfw.TAIL, rng=rng) / median
    assert abs(float(np.median(np.abs(draws))) - 1.0) < 0.02


def test_running_min_gap_is_a_nonincreasing_nonnegative_curve_starting_at_the_origin_gap() -> None:
    _q, c, _ = sfw.problem()
    curve = sfw.running_min_gap("R1 clipped", seed=3, steps=200)
    assert curve.shape == (200,)
    assert np.all(np.diff(curve) <= 0)
    assert np.all(curve >= 0)
    # at x = 0 the box gap is r ||grad||_1 = ||c||_1
    assert curve[0] == np.float64(np.abs(c).sum())


def test_toy_run_writes_every_method_and_horizon(tmp_path: Path) -> None:
    curves = sfw.run(seeds=3, horizons=(10, 100), out=tmp_path)
    table = (tmp_path / "sfw_heavy_tailed.md").read_text(encoding="utf-8")
    for m in sfw.METHODS:
        assert curves[m].shape == (3, 100)
        assert table.count(f"| {m} | ") == 3  # two horizons and one slope row
    assert "3 seeds; spec: 50" in table
    assert (tmp_path / "sfw_heavy_tailed.png").stat().st_size > 0
