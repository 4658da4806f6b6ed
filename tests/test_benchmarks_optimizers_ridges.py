"""Spec 02 §6 (a) ridges (``benchmarks/optimizers_ridges.py``): problems, a toy run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks import optimizers_ridges as ridges


@pytest.mark.parametrize("ridge", ridges.RIDGES, ids=lambda r: r.label)
def test_gradients_match_central_differences_away_from_the_kinks(ridge: ridges.Ridge) -> None:
    rng = np.random.default_rng(0)
    for _ in range(20):
        p = rng.uniform(-1.8, 1.8, 2)
        if abs(p[1] - p[0] ** 2) < 1e-3 or abs(1 - p[0]) < 1e-3:
            continue
        h = 1e-7
        fd = np.array([(ridge.loss(p + h * e) - ridge.loss(p - h * e)) / (2 * h) for e in np.eye(2)])
        np.testing.assert_allclose(ridge.grad(p), fd, rtol=1e-5, atol=1e-5)


def test_both_ridges_have_their_minimum_zero_at_one_one() -> None:
    for ridge in ridges.RIDGES:
        assert ridge.loss(np.array([1.0, 1.0])) == 0.0
        assert ridge.loss(np.array(ridge.start)) > 1.0


def test_toy_run_writes_every_arm_and_only_s_adam_varies_with_the_seed(tmp_path: Path) -> None:
    results, text = ridges.run(seeds=2, steps=40, out=tmp_path)
    table = (tmp_path / "optimizers_ridges.md").read_text(encoding="utf-8")
    for name in ridges.OPTIMIZERS:
        assert table.count(f"| {name} |") == len(ridges.RIDGES)
    for (_, name), rows in results.items():
        assert rows.shape == (2, 3)
        assert np.all((rows[:, 2] >= 0) & (rows[:, 2] <= 1))
        if name != "S-Adam":
            assert rows[0, 0] == rows[1, 0]  # deterministic methods ignore the seed
    assert "S-Adam" in text
    assert (tmp_path / "optimizers_ridges.png").stat().st_size > 0
