"""Spec 05 E1 n/T sweeps and plain vs clipped (``benchmarks/stability_e1.py``): a toy run."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from benchmarks import stability_e1 as e1


def test_spec_grids_are_the_defaults() -> None:
    s = e1.Settings()
    assert s.ns[0] == 50
    assert s.ns[-1] == 3200
    assert e1.ETA * max(s.ts) <= 2.0  # the spec keeps eta L T <= 2 (L = 1: unit rows)


def test_clipped_mean_respects_s1_within_noise_and_plain_moves_further_on_an_outlier() -> None:
    cm, cs, pm, _ = e1.sweep(50, 40, runs=60)
    assert cm <= e1._bound(50, 40) + 3 * cs
    assert pm > cm  # the +50 outlier: clipping caps its pull at tau per step


def test_toy_run_writes_every_row_and_a_dataset_table(tmp_path: Path) -> None:
    s = e1.Settings(ns=(50, 100), ts=(10, 20), runs=10, datasets=4, dataset_runs=5)
    out = e1.run(s, out=tmp_path)
    ds = out["datasets"]
    assert isinstance(ds, np.ndarray)
    assert ds.shape == (4, 4)
    assert np.all(ds[:, :2] >= 0)
    assert np.all(ds[:, 2:] >= 1.0)  # |xi| of a Pareto draw with scale 1 is at least 1
    assert np.all(ds[:, 3] <= ds[:, 2])  # the swapped pair is part of S and S'
    table = (tmp_path / "stability_e1.md").read_text(encoding="utf-8")
    for n in (50, 100):
        assert f"\n| {n} | " in table
    assert "| plain SGD |" in table
    assert (tmp_path / "stability_e1.png").stat().st_size > 0
