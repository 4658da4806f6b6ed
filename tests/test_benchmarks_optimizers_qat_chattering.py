"""Spec 02 §6 (b) QAT benchmark (``benchmarks/optimizers_qat_chattering.py``): loader, split, the
Prox-SGD arm's step, the chattering index, and a toy run on a small digits-format table."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest
import torch

from benchmarks import optimizers_qat_chattering as q


def _write_table(path: Path, rows: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A digits-format table: 64 integer pixels in 0..16 and a label per row, comma separated."""
    rng = np.random.default_rng(seed)
    labels = np.arange(rows) % 10
    pixels = np.clip(rng.integers(0, 6, size=(rows, 64)) + 10 * (np.arange(64)[None, :] % 10 == labels[:, None]), 0, 16)
    with gzip.open(path, "wt") as handle:
        for p, label in zip(pixels, labels, strict=True):
            handle.write(",".join(f"{v:.1f}" for v in [*p, label]) + "\n")
    return pixels, labels


def test_loader_scales_pixels_and_reads_labels(tmp_path: Path) -> None:
    pixels, labels = _write_table(tmp_path / "digits.csv.gz", 30)
    x, y = q.load_digits_table(tmp_path / "digits.csv.gz")
    assert x.shape == (30, 64)
    assert np.array_equal(x * 16.0, pixels)
    assert np.array_equal(y, labels)


def test_default_path_is_none_or_an_existing_file() -> None:
    path = q.default_digits_path()
    assert path is None or path.is_file()


def test_stratified_split_partitions_each_class() -> None:
    y = np.repeat(np.arange(10), [17, 18, 19, 20, 21, 22, 23, 24, 25, 26])
    train, test = q.stratified_split(y)
    assert np.intersect1d(train, test).size == 0
    assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(y.size))
    for label in range(10):
        count = int(np.sum(y == label))
        assert int(np.sum(y[train] == label)) == round(0.75 * count)


def test_chattering_index_counts_sign_changes() -> None:
    signs = np.array([[1.0, -1.0, 0.0, 1.0], [1.0, 1.0, 0.0, -1.0], [-1.0, 1.0, 1.0, -1.0]])
    # pair 1: coordinates 1 and 3 change (2/4); pair 2: coordinates 0 and 2 change (2/4)
    assert q.sign_flip_rate(signs) == pytest.approx(0.5)


def test_prox_sgd_arm_takes_the_spec_step() -> None:
    """Spec 02 §3.3: buf = g at the first step; θ ← soft(θ − lr buf, lr l1); second step buf = μ buf + g."""
    torch.manual_seed(0)
    p = torch.nn.Parameter(torch.tensor([0.5, -0.2, 1e-7], dtype=torch.float64))
    opt = q.ProxSGDTorch([p], lr=0.1)
    g1 = torch.tensor([1.0, -2.0, 0.0], dtype=torch.float64)
    p.grad = g1.clone()
    opt.step()
    moved = np.array([0.5, -0.2, 1e-7]) - 0.1 * g1.numpy()
    expect1 = np.sign(moved) * np.maximum(np.abs(moved) - 0.1 * 1e-4, 0.0)
    assert np.allclose(p.detach().numpy(), expect1, atol=1e-15)
    g2 = torch.tensor([0.5, 0.5, 0.5], dtype=torch.float64)
    p.grad = g2.clone()
    opt.step()
    moved = expect1 - 0.1 * (0.9 * g1.numpy() + g2.numpy())
    expect2 = np.sign(moved) * np.maximum(np.abs(moved) - 0.1 * 1e-4, 0.0)
    assert np.allclose(p.detach().numpy(), expect2, atol=1e-15)


def test_toy_experiment_reports_every_arm(tmp_path: Path) -> None:
    _write_table(tmp_path / "digits.csv.gz", 120)
    x, y = q.load_digits_table(tmp_path / "digits.csv.gz")
    results, text = q.experiment(
        x, y, seeds=2, epochs=3, window=2, command="toy", data_note="toy table", out=tmp_path
    )
    assert sorted({r.arm for r in results}) == sorted(q.ARMS)
    n_test = 120 - 90
    for r in results:
        assert r.steps == 3  # 90 training rows, batch 128: one step per epoch
        assert r.accuracy * n_test == pytest.approx(round(r.accuracy * n_test), abs=1e-9)
        assert 0.0 <= r.chatter <= 1.0
        assert np.isnan(r.mean_alpha) == (r.arm != "S-Adam")
    table = (tmp_path / "optimizers_qat_chattering.md").read_text(encoding="utf-8")
    for arm in q.ARMS:
        assert f"| {arm} |" in table
    assert "Prox-SGD" in text
    assert "S-Adam's index" in text
