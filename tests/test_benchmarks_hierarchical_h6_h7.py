"""Spec 11 H6/H7 (``benchmarks/hierarchical_h6_h7.py``): the spec's grids and a toy run."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from benchmarks import hierarchical_h6_h7 as hh


def test_spec_grids_are_the_defaults() -> None:
    s = hh.Settings()
    assert s.dims == (8, 16, 32, 64)
    assert s.sizes == (500, 1000, 2000, 5000, 10000, 20000)
    assert s.seeds == 3
    assert (s.h7_d, s.h7_r, s.h7_w, s.h7_train) == (32, 6, 16, 20000)


def test_toy_run_finds_the_easy_size_and_learns_a_small_circuit(tmp_path: Path) -> None:
    s = hh.Settings(
        dims=(2, 4), sizes=(200, 400), seeds=1, h7_seeds=1, h7_train=500, h7_d=8, h7_r=2, h7_w=4
    )
    out = hh.run(s, out=tmp_path)
    needed = out["needed"]
    assert isinstance(needed, list)
    # XOR of 2 or 4 bits with hints: 200 samples suffice (every 4-bit pattern appears)
    assert needed == [200.0, 200.0]
    slope = out["slope"]
    assert isinstance(slope, float)
    assert abs(slope) < 1e-12  # equal sizes: flat in d
    h7 = out["h7"]
    assert isinstance(h7, list)
    assert h7[0] >= 0.99
    table = (tmp_path / "hierarchical_h6_h7.md").read_text(encoding="utf-8")
    assert "**holds**" in table
    assert (tmp_path / "hierarchical_h6.png").stat().st_size > 0
    assert np.isfinite(h7[0])
