"""Torch fast paths vs the NumPy reference, side by side in one process (CPU by default).

    .venv/bin/python -m benchmarks.tsp_fastpath [--device cuda]

Batched best-improvement 2-opt (``reference.tsp.fast_torch.two_opt``) against a loop of ``reference.tsp.two_opt``,
and batched greedy-merge scoring (``reference.tsp.fast_torch.greedy_merge``) against a loop of
``reference.tsp.greedy_merge``, on B random Euclidean instances started from random tours.
Outputs are asserted identical (float64) before timing is reported.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch

from benchmarks._env import pin_blas, write_table
from reference import tsp
from reference.tsp import fast_torch

RESULTS = Path(__file__).resolve().parent / "results"


def _best_of(repeats: int, fn: object) -> float:
    assert callable(fn)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def _rows(n: int, batch: int, device: str, repeats: int) -> list[str]:
    lines: list[str] = []
    rng = np.random.default_rng(n)
    distances = np.stack([tsp.euclidean_instance(n, rng=rng)[1] for _ in range(batch)])
    starts = np.stack([rng.permutation(n) for _ in range(batch)])
    heat = np.stack([tsp.soft_dist(d, temperature=0.02) for d in distances])
    fast = fast_torch.two_opt(distances, starts, device=device)
    for b in range(batch):
        assert np.array_equal(
            fast.tours[b].cpu().numpy(), tsp.two_opt(distances[b], starts[b]).tour
        )
    merged = fast_torch.greedy_merge(distances, heat, device=device)
    for b in range(batch):
        assert np.array_equal(merged[b].cpu().numpy(), tsp.greedy_merge(distances[b], heat[b]))
    t_ref = _best_of(repeats, lambda: [tsp.two_opt(distances[b], starts[b]) for b in range(batch)])
    t_fast = _best_of(repeats, lambda: fast_torch.two_opt(distances, starts, device=device))
    lines.append(f"| {n} | 2-opt | {t_ref:.3f} | {t_fast:.3f} | {t_ref / t_fast:.1f}x |")
    g_ref = _best_of(
        repeats, lambda: [tsp.greedy_merge(distances[b], heat[b]) for b in range(batch)]
    )
    g_fast = _best_of(repeats, lambda: fast_torch.greedy_merge(distances, heat, device=device))
    lines.append(f"| {n} | greedy merge | {g_ref:.3f} | {g_fast:.3f} | {g_ref / g_fast:.1f}x |")
    return lines


def run(sizes: list[int], batch: int, device: str, repeats: int) -> str:
    lines = [
        "# TSP fast paths: torch (batched) vs NumPy reference (loop), same process",
        "",
        f"device {device}, batch B = {batch}, float64, best of {repeats} runs; outputs checked "
        "identical tour for tour before timing.",
        "",
        "| n | operation | numpy loop s | torch batch s | speed-up |",
        "|---|---|---|---|---|",
    ]
    for n in sizes:
        lines.extend(_rows(n, batch, device, repeats))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 100])
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--out", type=Path, default=RESULTS / "tsp_fastpath.md")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    table = run(args.sizes, args.batch, args.device, args.repeats)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_table(args.out, table)
    print(table)


if __name__ == "__main__":
    pin_blas(1)
    main()
