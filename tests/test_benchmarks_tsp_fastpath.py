"""The torch batch benchmark runs on a small batch and checks its tours first (issue 20)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from benchmarks import tsp_fastpath


def test_rows_cover_every_operation_and_time_both_sides() -> None:
    # The raw seconds, not the table's 3-decimal cells: a 12-city greedy merge on a fast machine
    # takes under half a millisecond and its cell reads 0.000 (the gate failed on exactly that).
    timings = tsp_fastpath._timings(12, batch=3, device="cpu", repeats=1)
    assert [name for _, name, _, _ in timings] == [
        "2-opt",
        "greedy merge",
        "best-of-32 + 2-opt",
        "threshold 1/2 + 2-opt",
    ]
    for _, _, loop_s, batch_s in timings:
        assert loop_s > 0.0
        assert batch_s > 0.0


def test_row_formats_one_timing() -> None:
    row = tsp_fastpath._row((50, "2-opt", 0.25, 0.125))
    assert row == "| 50 | 2-opt | 0.250 | 0.125 | 2.0x |"
