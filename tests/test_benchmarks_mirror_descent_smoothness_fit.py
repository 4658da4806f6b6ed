"""Spec 06 layer-wise smoothness fit (``benchmarks/mirror_descent_smoothness_fit.py``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks import mirror_descent_smoothness_fit as fit


def test_nnls_fit_recovers_an_affine_law() -> None:
    rng = np.random.default_rng(0)
    a = rng.uniform(0.0, 5.0, 200)
    L = 0.7 + 2.5 * a
    l0, l1, r2 = fit.nnls_affine_fit(a, L)
    assert l0 == pytest.approx(0.7, abs=1e-9)
    assert l1 == pytest.approx(2.5, abs=1e-9)
    assert r2 == pytest.approx(1.0, abs=1e-12)


def test_nnls_fit_clamps_a_decreasing_law_to_a_constant() -> None:
    """With L falling in a, the non-negative L1 is 0, L0 is the mean and R² is 0."""
    a = np.linspace(0.0, 1.0, 50)
    L = 3.0 - a
    l0, l1, r2 = fit.nnls_affine_fit(a, L)
    assert l1 == 0.0
    assert l0 == pytest.approx(float(L.mean()), abs=1e-9)
    assert r2 == pytest.approx(0.0, abs=1e-9)


def test_spectral_pairs_dominate_frobenius_pairs_on_a_toy_trajectory() -> None:
    """‖·‖_nuc >= ‖·‖_F and ‖·‖_op <= ‖·‖_F, so the spectral-geometry gradient norm and local
    smoothness are at least the Frobenius ones at every step and layer."""
    rng = np.random.default_rng(1)
    x = rng.uniform(0.0, 1.0, (60, 8))
    y = rng.integers(0, 3, 60)
    pairs = fit.trajectory_pairs(x, y, seed=0, steps=6, lr=0.05, batch=None, width=5)
    for layer in range(3):
        a_s, L_s = pairs[(layer, "spectral/nuclear")]
        a_f, L_f = pairs[(layer, "Frobenius")]
        assert a_s.shape == (6,)
        assert np.all(a_s >= a_f * (1 - 1e-12))
        assert np.all(L_s >= L_f * (1 - 1e-12))
        assert np.all(L_f > 0)


def test_toy_run_writes_table_and_plot(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    x = rng.uniform(0.0, 1.0, (80, 8))
    y = rng.integers(0, 4, 80)
    fits, text = fit.run(
        x, y, seeds=1, steps=8, data_note="synthetic", command="toy", out=tmp_path
    )
    assert len(fits) == 2 * 3 * 2  # trajectories x layers x geometries
    assert all(f.l0 >= 0 and f.l1 >= 0 for f in fits)
    assert all(f.r2 <= 1.0 + 1e-12 for f in fits)
    table = (tmp_path / "mirror_descent_smoothness_fit.md").read_text(encoding="utf-8")
    assert table.count("| full-batch GD |") == 6
    assert (tmp_path / "mirror_descent_smoothness_fit.png").stat().st_size > 0
    assert "Mean R² and Pearson r" in text
    assert ("This run: AGREES" in text) != ("This run: DISAGREES" in text)
