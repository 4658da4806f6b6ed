"""Spec 09 studies 2 and 3 on digits (``benchmarks/inconsistency_digits.py``).

The two measures are checked against the numpy reference's closed forms (an independent route:
analytic Jacobians instead of torch autograd): the finite-difference power iteration against the
eigenvalues of :func:`reference.inconsistency.hessian_softmax`, and Ŝ_ρ against
``(ρ²/2) λ_max(F)`` (spec 09 T2, its 5% tolerance).  The toy run writes a table whose Kendall τ
is recomputed here from the per-model rows by counting pairs.
"""

from __future__ import annotations

import gzip
import itertools
import re
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from torch import nn  # noqa: E402

from benchmarks import inconsistency_digits as study  # noqa: E402
from reference import inconsistency as inc  # noqa: E402

REAL = study.default_digits_path() or Path(
    "/work/venvs/iss34/lib/python3.11/site-packages/sklearn/datasets/data/digits.csv.gz"
)


def _fake_digits(path: Path, rows: int = 1400) -> None:
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 10, rows)
    pixels = np.clip(labels[:, None] + rng.integers(0, 7, (rows, 64)), 0, 16)
    with gzip.open(path, "wt") as handle:
        np.savetxt(handle, np.column_stack([pixels, labels]), fmt="%d", delimiter=",")


def _theta(model: nn.Module) -> np.ndarray:
    """The torch parameters in the reference's flat order (W1 rows, b1, W2 rows, b2)."""
    return np.concatenate([p.detach().numpy().reshape(-1) for p in model.parameters()])


@pytest.mark.skipif(not REAL.exists(), reason="scikit-learn's digits.csv.gz not found")
def test_real_digits_table_and_split() -> None:
    x, y = study.load_digits_table(REAL)
    assert x.shape == (1797, 64)
    assert x.min() == 0.0
    assert x.max() == 1.0
    assert np.bincount(y).tolist() == [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]
    split = study.split_digits(x, y, seed=0)
    assert (split.x.shape[0], split.pool.shape[0], split.x_test.shape[0]) == (300, 1000, 497)


def test_split_is_a_partition_and_noise_flips_the_stated_share(tmp_path: Path) -> None:
    path = tmp_path / "digits.csv.gz"
    _fake_digits(path)
    x, y = study.load_digits_table(path)
    split = study.split_digits(x, y, seed=3)
    rows = {r.tobytes() for r in x}
    parts = [split.x, split.pool, split.x_test]
    assert sum(len(p) for p in parts) == len(x)
    assert all(r.tobytes() in rows for p in parts for r in p)
    noisy = study.noisy_labels(split.y, 0.2, seed=1)
    assert int(np.sum(noisy != split.y)) == 60  # every chosen label moves to another class
    with pytest.raises(ValueError, match="labeled, unlabeled"):
        study.split_digits(x[:1000], y[:1000], seed=0)


def test_sharpness_matches_the_closed_form_hessian() -> None:
    rng = np.random.default_rng(4)
    x = rng.uniform(0.0, 1.0, (40, 64))
    y = rng.integers(0, 10, 40)
    model = study.make_model(seed=2, hidden=5)
    value = study.sharpness(model, torch.tensor(x), torch.tensor(y), iterations=400, seed=1)
    ref = inc.SoftmaxModel(kind="mlp", n_inputs=64, n_classes=10, n_hidden=5)
    eig = np.linalg.eigvalsh(inc.hessian_softmax(ref, _theta(model), x, y))
    dominant = eig[np.argmax(np.abs(eig))]
    assert value == pytest.approx(dominant, rel=1e-3)


def test_s_rho_is_half_rho_squared_top_fisher_eigenvalue() -> None:
    rng = np.random.default_rng(5)
    x = rng.uniform(0.0, 1.0, (50, 64))
    model = study.make_model(seed=3, hidden=5)
    value = study.s_rho(model, torch.tensor(x), seed=0, rho=0.05, steps=30)
    ref = inc.SoftmaxModel(kind="mlp", n_inputs=64, n_classes=10, n_hidden=5)
    top = np.linalg.eigvalsh(inc.fisher_softmax(ref, _theta(model), x))[-1]
    assert value == pytest.approx(0.5 * 0.05**2 * top, rel=0.05)


def _tau(a: list[float], b: list[float]) -> float:
    """Kendall's τ (no ties) by counting concordant and discordant pairs."""
    pairs = list(itertools.combinations(range(len(a)), 2))
    score = sum(np.sign(a[i] - a[j]) * np.sign(b[i] - b[j]) for i, j in pairs)
    return float(score) / len(pairs)


def test_toy_run_table_reports_tau_of_its_own_rows(tmp_path: Path) -> None:
    path = tmp_path / "digits.csv.gz"
    _fake_digits(path)
    out = tmp_path / "inc.md"
    models, accuracy = study.main(
        ["--digits", str(path), "--grid-seeds", "1", "--max-steps", "10", "--seeds", "2",
         "--budget", "8", "--power-iterations", "3", "--out", str(out)]
    )  # fmt: skip
    assert len(models) == 24
    assert {(m.lr, m.batch, m.decay, m.noise) for m in models} == set(
        itertools.product(study.LRS, study.BATCHES, study.DECAYS, study.NOISES)
    )
    assert all(m.steps <= 10 for m in models)
    assert set(accuracy) == set(study.ARMS)
    assert all(len(v) == 2 and all(0.0 <= a <= 1.0 for a in v) for v in accuracy.values())
    table = out.read_text(encoding="utf-8")
    rows = [line.split("|")[1:-1] for line in table.splitlines() if re.match(r"\| 0\.", line)]
    gaps = [float(r[8]) for r in rows]
    s_vals = [float(r[9]) for r in rows]
    h_vals = [float(r[10]) for r in rows]
    assert len(rows) == 24
    shown = re.search(r"\| local inconsistency Ŝ_ρ \(unlabeled\) \| (-?[0-9.]+) \|", table)
    assert shown is not None
    # rows are rounded (3 decimals / 4 significant digits): allow a few swapped pairs
    assert float(shown.group(1)) == pytest.approx(_tau(s_vals, gaps), abs=0.05)
    shown_h = re.search(r"\| sharpness λ_max\(H\) \(labeled\) \| (-?[0-9.]+) \|", table)
    assert shown_h is not None
    assert float(shown_h.group(1)) == pytest.approx(_tau(h_vals, gaps), abs=0.05)
    assert out.with_suffix(".png").stat().st_size > 0
