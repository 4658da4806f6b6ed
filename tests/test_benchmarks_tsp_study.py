"""Spec 10 decoder study (``benchmarks/tsp_study.py``) and its exact oracle (``benchmarks/tsp_exact.py``).

The integer program is checked against Held-Karp (an independent dynamic program); the toy study
is checked from the tours it returns: every tour a permutation, OPT <= every decoder's length
and the sweep within OPT + 2η, with lengths and η recomputed here by plain loops.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks import tsp_study
from benchmarks.tsp_exact import cycles_of, exact_tsp
from reference import tsp


def _length(d: np.ndarray, tour: np.ndarray) -> float:
    return sum(float(d[tour[k], tour[(k + 1) % len(tour)]]) for k in range(len(tour)))


def _eta(d: np.ndarray, heat: np.ndarray, tour: np.ndarray) -> float:
    n = len(tour)
    on = {frozenset((int(tour[k]), int(tour[(k + 1) % n]))) for k in range(n)}
    return sum(
        float(d[i, j]) * abs(float(heat[i, j]) - (1.0 if frozenset((i, j)) in on else 0.0))
        for i in range(n)
        for j in range(i + 1, n)
    )


@pytest.mark.parametrize("n", [5, 7, 9, 11])
def test_integer_program_matches_held_karp(n: int) -> None:
    for index in range(3):
        _, d = tsp.euclidean_instance(n, rng=np.random.default_rng([7, n, index]))
        result = exact_tsp(d)
        assert result.proven
        assert result.tour is not None
        assert sorted(result.tour.tolist()) == list(range(n))
        assert result.length == pytest.approx(_length(d, result.tour), rel=1e-12)
        assert result.length == pytest.approx(tsp.held_karp(d)[0], rel=1e-9)
        assert result.lower_bound <= result.length * (1 + 1e-7)


def test_time_cap_reports_no_proof() -> None:
    _, d = tsp.euclidean_instance(30, rng=np.random.default_rng(3))
    result = exact_tsp(d, time_limit=0.0)
    assert not result.proven
    assert result.tour is None
    assert result.rounds == 0


def test_cycles_of_splits_two_triangles_and_rejects_a_path() -> None:
    pairs = np.array([[0, 1], [1, 2], [0, 2], [3, 4], [4, 5], [3, 5]])
    assert sorted(map(sorted, cycles_of(6, pairs))) == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(ValueError, match="pairs"):
        cycles_of(4, np.array([[0, 1], [1, 2], [2, 3], [3, 1]]))


def test_exact_rejects_bad_distances() -> None:
    with pytest.raises(ValueError, match="D"):
        exact_tsp(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="D"):
        exact_tsp(np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [3.0, 1.0, 0.0]]))


def test_toy_study_tours_respect_the_optimum_and_the_bound(tmp_path: Path) -> None:
    out = tmp_path / "tsp.md"
    cache = tmp_path / "cache"
    args = ["--sizes", "7", "10", "--instances", "2", "--cache", str(cache)]
    results = tsp_study.main([*args, "--out", str(out)])
    assert len(results) == 4
    for inst in results:
        assert inst.exact is not None
        assert inst.proven
        opt = tsp.held_karp(inst.distances)[0]
        assert inst.exact.length == pytest.approx(opt, rel=1e-9)
        names = {name for _, name in inst.tours}
        assert names == set(tsp_study.DECODERS)
        for (kind, name), (tour, _) in inst.tours.items():
            assert sorted(tour.tolist()) == list(range(inst.n)), (kind, name)
            length = _length(inst.distances, tour)
            assert length >= opt - 1e-9 * opt, (kind, name)
            if name.startswith("sweep"):
                bound = opt + 2.0 * _eta(inst.distances, inst.heatmaps[kind], inst.reference)
                assert length <= bound + 1e-9, (kind, name)
    table = out.read_text(encoding="utf-8")
    assert "| 10 | G4 | nearest neighbour (B5) |" in table
    assert "| 10 | 2 / 2 |" in table  # the exact table: both n = 10 instances proven
    assert "Guarantee violations of the sweep: none." in table
    assert out.with_suffix(".png").stat().st_size > 0
    # the cached instances give the same rows (a run cut short is reported from them)
    again = tmp_path / "again.md"
    tsp_study.main([*args, "--cached-only", "--no-plot", "--out", str(again)])
    rows = [line for line in table.splitlines() if line.startswith(("| 7 |", "| 10 |"))]
    rows_again = [
        line
        for line in again.read_text(encoding="utf-8").splitlines()
        if line.startswith(("| 7 |", "| 10 |"))
    ]
    strip = [r.rsplit("|", 2)[0] for r in rows]  # the last column is CPU time
    assert strip == [r.rsplit("|", 2)[0] for r in rows_again]
    assert len(rows) > 80
