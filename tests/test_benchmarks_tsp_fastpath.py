"""The torch batch benchmark runs on a small batch and checks its tours first (issue 20)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from benchmarks import tsp_fastpath


def test_rows_cover_every_operation_and_time_both_sides() -> None:
    rows = tsp_fastpath._rows(12, batch=3, device="cpu", repeats=1)
    names = [row.split("|")[2].strip() for row in rows]
    assert names == ["2-opt", "greedy merge", "best-of-32 + 2-opt", "threshold 1/2 + 2-opt"]
    for row in rows:
        loop_s, batch_s = (float(cell) for cell in row.split("|")[3:5])
        assert loop_s > 0.0
        assert batch_s > 0.0
