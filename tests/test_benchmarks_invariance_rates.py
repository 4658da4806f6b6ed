"""Spec 08 rates, k sweep and γ̂ study (``benchmarks/invariance_rates.py``): a toy run."""

from __future__ import annotations

from pathlib import Path

from benchmarks import invariance_rates as rates


def test_gamma_hat_grows_with_gamma_on_axis_aligned_data_and_is_near_zero_without_drift() -> None:
    hat = rates.gamma_hat_study(reps=3)
    axis = [m for m, _ in hat[False]]
    assert len(axis) == len(rates.GAMMAS_HAT)
    assert axis[0] < 0.15  # gamma = 0: only sampling noise in the correlation ranges
    assert axis[-1] > axis[2] > axis[0]
    assert all(0.0 <= m <= 2.0 for m, _ in hat[False] + hat[True])  # a range of correlations


def test_toy_run_writes_the_k_sweep_and_the_gamma_hat_rows(tmp_path: Path) -> None:
    rates.main(["--reps", "2", "--transition-reps", "2"], out=tmp_path)
    table = (tmp_path / "invariance_rates.md").read_text(encoding="utf-8")
    assert "| k (d = k + 4) | 1, 2, 4, 8 |" in table
    assert "| γ̂, axis-aligned |" in table
    assert "2 per sweep point (spec 08 §4: 200)" in table
    assert (tmp_path / "invariance_rates.png").stat().st_size > 0
