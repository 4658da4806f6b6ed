"""Spec 15 sweeps (``benchmarks/spectral_sosd_sweeps.py``): toy runs and the quantities they report."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import scipy.linalg

from benchmarks import spectral_sosd_sweeps as sw


def test_cosines_are_one_at_the_end_and_match_a_direct_computation() -> None:
    r = sw.train(0, 60, 3e-3, 0.1, log_every=10)
    assert r.logged.tolist() == [0, 10, 20, 30, 40, 50, 60]
    assert np.allclose(r.spec_cos[:, -1], 1.0, atol=1e-12)
    assert np.allclose(r.weight_cos[:, -1], 1.0, atol=1e-12)
    assert np.all(r.spec_cos <= 1.0 + 1e-12)
    # a random init is nearly orthogonal to W_T as a vector, but its normalised spectrum
    # (all entries positive) is not: c_0 > w_0
    assert np.all(r.spec_cos[:, 0] > r.weight_cos[:, 0])
    assert r.variation.shape == (60,)
    assert np.all(r.variation > 0)


def test_weight_decay_does_not_move_the_spectrum_by_itself() -> None:
    # spec 15 L2: σ̂ is scale invariant, so decoupled decay alone never moves it
    w = np.random.default_rng(0).standard_normal((8, 5))
    s1 = scipy.linalg.svdvals(w)
    s2 = scipy.linalg.svdvals(0.7 * w)
    assert np.allclose(sw._spectrum(w), s1 / s1.sum())
    assert np.allclose(sw._spectrum(0.7 * w), sw._spectrum(w), atol=1e-14)
    assert np.allclose(s2, 0.7 * s1)


def test_saturation_uses_the_last_crossing() -> None:
    r = sw.train(1, 20, 1e-3, 0.0, log_every=5)
    series = np.array([0.2, 0.995, 0.98, 0.999, 1.0])
    assert sw.saturation(r, series, 0.99) == 15.0  # logged steps 0, 5, 10, 15, 20


def test_toy_run_writes_both_tables_and_the_plot(tmp_path: Path) -> None:
    s = sw.Settings(seeds=1, steps=80, log_every=10, lrs=(1e-3, 1e-2), wds=(0.0,))
    runs = sw.run(s, out=tmp_path)
    assert len(runs) == 2
    table = (tmp_path / "spectral_sosd_sweeps.md").read_text(encoding="utf-8")
    assert table.count("| 0.001 | 0 | 0 | E |") == 1
    assert "adjacent pairs" in table
    assert (tmp_path / "spectral_sosd_sweeps.png").stat().st_size > 0
    floors = {(r.lr, r.wd): sw.floor(r) for r in runs}
    assert all(np.isfinite(v) and v > 0 for v in floors.values())
