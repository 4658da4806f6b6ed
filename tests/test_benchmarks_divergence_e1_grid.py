"""Spec 13 E1 grid (``benchmarks/divergence_e1_grid.py``): the pairs' truths and a toy run."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from benchmarks import divergence_e1_grid as e1
from benchmarks import divergence_fastfit as ff
from reference import divergence as dv

#: D_1/2 by hand: d = 1: 4(1 - e^{-1/8}); d = 2: Σ_1/2 = diag(1.5, 0.75), |Σ_1/2| = 9/8,
#: Δμᵀ Σ_1/2⁻¹ Δμ = 2/3, so A = e^{-1/12} / sqrt(9/8) and D = 4(1 - A) = 0.530295 (spec 13 prints
#: 0.530302).
D1 = 4.0 * (1.0 - math.exp(-1.0 / 8.0))
D2 = 4.0 * (1.0 - math.exp(-1.0 / 12.0) / math.sqrt(9.0 / 8.0))


@pytest.mark.parametrize(("d", "truth"), [(1, D1), (2, D2), (5, D2), (10, D2)])
def test_pairs_have_the_spec_examples_truth_in_every_dimension(d: int, truth: float) -> None:
    """Spec 13 G1 examples (d = 1 and d = 2); nuisance coordinates add nothing."""
    m1, s1, m2, s2 = e1.gaussian_pair(d)
    assert m1.shape == (d,)
    assert s2.shape == (d, d)
    assert dv.alpha_divergence_gaussian(m1, s1, m2, s2, 0.5) == pytest.approx(truth, abs=1e-12)


def test_default_grid_is_the_specs_full_product() -> None:
    cells = e1.default_cells()
    assert len(cells) == 36
    assert {(c.d, c.alpha, c.n) for c in cells} == {
        (d, a, n) for d in (1, 2, 5, 10) for a in (0.25, 0.5, 0.75) for n in (500, 2000, 8000)
    }
    assert all(c.radii == (1.0, 3.0, 10.0) for c in cells)
    assert [c.gram for c in cells] == [c.n <= 2000 for c in cells]  # B2 exactly where n <= 2000
    line = e1.setting_line(cells, seeds=20, iterations=2000, features=512, nn_steps=2000)
    assert "→ **full**." in line
    fewer = e1.setting_line(cells[:-1], seeds=5, iterations=2000, features=512, nn_steps=2000)
    assert "**reduced**" in fewer
    assert "5 seeds (spec: 20)" in fewer
    assert "35 of the spec's 36 cells (missing (d, α, n): (10, 0.75, 8000))" in fewer


def test_fast_rff_radii_equal_the_reference_per_radius() -> None:
    """One batched pass over two seeds and three radii = six reference runs, to rounding."""
    cell = e1.Cell(2, 0.25, 120, (1.0, 3.0, 10.0), False)
    pairs = [e1.draw_pair(cell, seed) for seed in range(2)]
    got = ff.rff_radii_estimate(
        pairs, 0.25, seed_rngs=[(s, 1) for s in range(2)], radii=cell.radii, num_features=24,
        iterations=40, tail=15, batch_size=32,
    )
    for s, (x, y) in enumerate(pairs):
        for i, radius in enumerate(cell.radii):
            ref = dv.estimate_alpha_divergence(
                x, y, 0.25, rng=np.random.default_rng([s, 1]), num_features=24,
                config=dv.ArmijoConfig(radius=radius, max_iter=40, batch_size=32),
            )
            assert got[s][i].value_heldout == pytest.approx(ref.value_heldout, abs=1e-7)
            assert got[s][i].value == pytest.approx(ref.value, abs=1e-7)
            assert got[s][i].oscillation == pytest.approx(
                float(np.std(np.asarray(ref.fit.values)[-15:])), abs=1e-7
            )


def test_fast_gram_and_neural_batch_equal_the_references() -> None:
    from reference.divergence.fast_torch import neural_critic_estimate

    cell = e1.Cell(1, 0.75, 60, (3.0,), True)
    pairs = [e1.draw_pair(cell, seed) for seed in range(2)]
    gram = ff.gram_estimate(
        pairs, 0.75, seed_rngs=[(s, 2) for s in range(2)], radius=3.0, iterations=30, tail=10,
        batch_size=16,
    )
    nn = ff.neural_critic_batch(
        [p[0] for p in pairs], [p[1] for p in pairs], 0.75, seeds=[0, 1], iterations=12
    )
    for s, (x, y) in enumerate(pairs):
        ref = dv.gram_alpha_divergence(
            x, y, 0.75, rng=np.random.default_rng([s, 2]),
            config=dv.ArmijoConfig(radius=3.0, max_iter=30, batch_size=16),
        )
        assert gram[s].value_heldout == pytest.approx(ref.value_heldout, abs=1e-7)
        one = neural_critic_estimate(x, y, 0.75, generator=s, iterations=12)
        assert nn.value_heldout[s] == pytest.approx(one.value_heldout, abs=1e-9)
        assert np.allclose(nn.curves[s], one.curve, atol=1e-9)


def test_toy_run_summaries_are_consistent(tmp_path: Path) -> None:
    cells = [e1.Cell(1, 0.5, 80, (1.0, 3.0), True)]
    rows, text = e1.run(
        cells, seeds=2, iterations=20, features=32, nn_steps=20, command="toy", out=tmp_path,
        log=lambda _: None,
    )
    names = [r.estimator for r in rows]
    assert names == ["RFF D=32 R=1", "RFF D=32 R=3", "B1 neural critic", "B2 Gram RKHS R=3", "B3 kNN k=5"]
    knn = [dv.knn_alpha_divergence(*e1.draw_pair(cells[0], s), 0.5) for s in range(2)]
    assert np.allclose(rows[-1].values, knn, atol=1e-12)  # the table's B3 is the reference's
    for r in rows:
        assert r.truth == pytest.approx(D1, abs=1e-12)
        assert r.values.shape == (2,)
        assert r.mae >= abs(r.bias) - 1e-12
        assert r.mae == pytest.approx(float(np.mean(np.abs(r.values - D1))), abs=1e-6)
    table = (tmp_path / "divergence_e1_grid.md").read_text(encoding="utf-8")
    assert table.count("| 1 | 0.5 | 80 | 0.4700 | RFF D=32 R=") == 2  # one table row per radius
    rff3 = rows[1]
    b1 = rows[2]
    wins = int(rff3.sd < b1.sd)
    assert f"RFF R = 3 has the lower sd in {wins} of 1 cells" in text
    assert (tmp_path / "divergence_e1_grid.png").stat().st_size > 0


def test_cache_resumes_with_the_same_results(tmp_path: Path) -> None:
    """A rerun over a cache folder reuses every part and reproduces the table's numbers; a run
    with two processes and no cache gives the same estimates (they depend on the cell and seed only)."""
    cells = [e1.Cell(2, 0.25, 60, (1.0, 3.0), True), e1.Cell(1, 0.75, 70, (1.0, 3.0), False)]
    kw = {"seeds": 2, "iterations": 16, "features": 16, "nn_steps": 12, "log": lambda _: None}
    cache = tmp_path / "cache"
    first, _ = e1.run(cells, cache=cache, command="toy", out=None, **kw)  # type: ignore[arg-type]
    assert len(list(cache.glob("*.pkl"))) == 3  # two main parts, one B2 part
    again, text = e1.run(cells, cache=cache, command="toy", out=None, **kw)  # type: ignore[arg-type]
    assert "0 of 3 parts computed there, 3 reused from the cache" in text
    fresh, _ = e1.run(cells, jobs=2, command="toy", out=None, **kw)  # type: ignore[arg-type]
    for a, b, c in zip(first, again, fresh, strict=True):
        assert a.cell == b.cell == c.cell
        assert a.estimator == b.estimator == c.estimator
        assert np.array_equal(a.values, b.values)
        assert np.allclose(a.values, c.values, rtol=0, atol=1e-9)
    assert [r.estimator for r in first if r.cell == cells[0]] == [
        "RFF D=16 R=1", "RFF D=16 R=3", "B1 neural critic", "B2 Gram RKHS R=3", "B3 kNN k=5"
    ]
    assert not any(r.estimator.startswith("B2") for r in first if r.cell == cells[1])


def test_cached_only_takes_the_cells_whose_parts_are_there(tmp_path: Path) -> None:
    kw = {"seeds": 20, "iterations": 2000, "features": 512, "nn_steps": 2000}
    spec = e1.default_cells()
    a, b, c = spec[0], spec[14], spec[30]  # n = 500, 2000 (both with B2), 8000 (none)
    assert (a.n, b.n, c.n) == (500, 2000, 8000)
    for cell, part in ((a, "main"), (a, "gram"), (b, "main"), (c, "main"), (spec[1], "gram")):
        (tmp_path / e1.cache_name(cell, part, **kw)).write_bytes(b"")
    got = e1.cached_cells(tmp_path, **kw)
    assert got == [a, e1.Cell(b.d, b.alpha, b.n, b.radii, False), c]  # spec[1]: B2 alone is no cell
    assert e1.cache_name(a, "main", **kw) != e1.cache_name(a, "main", **{**kw, "seeds": 19})
