"""The size sweep of issue 20 (``benchmarks/size_sweep.py``): exponent fit and a tiny smoke run."""

from __future__ import annotations

import math

import numpy as np
import pytest

from benchmarks import size_sweep
from reference import tsp


@pytest.mark.parametrize("power", [0.5, 1.0, 2.0, 3.0])
def test_fit_exponent_recovers_a_power_law(power: float) -> None:
    sizes = [50.0, 100.0, 200.0, 400.0, 800.0]
    seconds = [1e-3 * (n / 50.0) ** power for n in sizes]
    assert size_sweep.fit_exponent(sizes, seconds) == pytest.approx(power, abs=1e-9)


def test_fit_exponent_averages_noise_in_log_space() -> None:
    """Multiplicative noise ``±10%`` alternating: the slope stays within 0.1 of the truth."""
    sizes = [100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0]
    seconds = [n**1.5 * (1.1 if i % 2 else 0.9) for i, n in enumerate(sizes)]
    assert abs(size_sweep.fit_exponent(sizes, seconds) - 1.5) < 0.1


def test_fit_exponent_needs_two_sizes() -> None:
    assert math.isnan(size_sweep.fit_exponent([100.0], [1.0]))


def test_tsp_sweep_rows_report_tour_lengths_no_shorter_than_the_optimum() -> None:
    rows = size_sweep.tsp_sweep([9], {9: 1}, k=4)
    assert [r["heatmap"] for r in rows] == ["G1", "G4"]
    rng = np.random.default_rng([20, 9, 0])  # the sweep's instance (same seed sequence)
    _, distances = tsp.euclidean_instance(9, rng=rng)
    optimum, _ = tsp.held_karp(distances)
    for row in rows:
        assert row["ours_s"] > 0
        assert row["base_s"] > 0
        assert optimum - 1e-9 <= row["ours_len"] <= 2.0 * optimum
        assert optimum - 1e-9 <= row["base_len"] <= 2.0 * optimum
