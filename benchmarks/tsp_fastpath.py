"""Torch fast paths vs the NumPy reference, side by side in one process (CPU by default).

    .venv/bin/python -m benchmarks.tsp_fastpath [--device cuda]

Batched best-improvement 2-opt (``reference.tsp.fast_torch.two_opt``) against a loop of ``reference.tsp.two_opt``,
batched greedy-merge scoring (``reference.tsp.fast_torch.greedy_merge``) against a loop of
``reference.tsp.greedy_merge``, on B random Euclidean instances started from random tours, and
the paper's decoders batched (``fast_torch.sampled_decode`` best-of-32 and
``fast_torch.threshold_decode`` at 1/2, each + 2-opt) against a loop of the NumPy fast path
``reference.tsp.fast`` (its compiled kernels when numba is installed) on SoftDist heatmaps.
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
from reference.tsp import fast, fast_kernels, fast_torch

RESULTS = Path(__file__).resolve().parent / "results"


def _best_of(repeats: int, fn: object) -> float:
    assert callable(fn)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


Timing = tuple[int, str, float, float]  # (n, operation, numpy loop seconds, torch batch seconds)


def _row(timing: Timing) -> str:
    n, name, t_loop, t_batch = timing
    return f"| {n} | {name} | {t_loop:.3f} | {t_batch:.3f} | {t_loop / t_batch:.1f}x |"


def _rows(n: int, batch: int, device: str, repeats: int) -> list[str]:
    return [_row(timing) for timing in _timings(n, batch, device, repeats)]


def _timings(n: int, batch: int, device: str, repeats: int) -> list[Timing]:
    lines: list[Timing] = []
    rng = np.random.default_rng(n)
    distances = np.stack([tsp.euclidean_instance(n, rng=rng)[1] for _ in range(batch)])
    starts = np.stack([rng.permutation(n) for _ in range(batch)])
    heat = np.stack([tsp.soft_dist(d, temperature=0.02) for d in distances])
    fast = fast_torch.two_opt(distances, starts, device=device)
    for b in range(batch):
        assert np.array_equal(fast.tour[b].cpu().numpy(), tsp.two_opt(distances[b], starts[b]).tour)
    merged = fast_torch.greedy_merge(distances, heat, device=device)
    for b in range(batch):
        assert np.array_equal(merged[b].cpu().numpy(), tsp.greedy_merge(distances[b], heat[b]))
    t_ref = _best_of(repeats, lambda: [tsp.two_opt(distances[b], starts[b]) for b in range(batch)])
    t_fast = _best_of(repeats, lambda: fast_torch.two_opt(distances, starts, device=device))
    lines.append((n, "2-opt", t_ref, t_fast))
    g_ref = _best_of(
        repeats, lambda: [tsp.greedy_merge(distances[b], heat[b]) for b in range(batch)]
    )
    g_fast = _best_of(repeats, lambda: fast_torch.greedy_merge(distances, heat, device=device))
    lines.append((n, "greedy merge", g_ref, g_fast))
    lines.extend(_decoder_timings(distances, heat, device, repeats))
    return lines


def _decoder_timings(
    distances: np.ndarray, heat: np.ndarray, device: str, repeats: int
) -> list[Timing]:
    """Best-of-32 and threshold-1/2 decoding (+ 2-opt): NumPy fast path per instance vs batch."""
    n, batch = distances.shape[1], distances.shape[0]

    def loop_sampled() -> list[np.ndarray]:
        rng = np.random.default_rng(7)  # one generator across the batch, as the batch does
        return [
            fast.sampled_decode(distances[b], heat[b], k=32, rng=rng, with_two_opt=True)
            for b in range(batch)
        ]

    def batch_sampled() -> torch.Tensor:
        rng = np.random.default_rng(7)
        return fast_torch.sampled_decode(
            distances, heat, k=32, rng=rng, with_two_opt=True, device=device
        )

    def loop_threshold() -> list[np.ndarray]:
        return [
            fast.threshold_decode(distances[b], heat[b], 0.5, with_two_opt=True)
            for b in range(batch)
        ]

    def batch_threshold() -> torch.Tensor:
        return fast_torch.threshold_decode(distances, heat, 0.5, with_two_opt=True, device=device)

    lines: list[Timing] = []
    for name, loop, batched in (
        ("best-of-32 + 2-opt", loop_sampled, batch_sampled),
        ("threshold 1/2 + 2-opt", loop_threshold, batch_threshold),
    ):
        expected, got = loop(), batched().cpu().numpy()
        for b in range(batch):
            assert np.array_equal(got[b], expected[b]), (name, n, b)
        t_loop = _best_of(repeats, loop)
        t_batch = _best_of(repeats, batched)
        lines.append((n, name, t_loop, t_batch))
    return lines


def run(sizes: list[int], batch: int, device: str, repeats: int) -> str:
    lines = [
        "# TSP fast paths: torch (batched) vs NumPy reference (loop), same process",
        "",
        f"Command: `python -m benchmarks.tsp_fastpath --sizes {' '.join(map(str, sizes))} "
        f"--batch {batch} --device {device} --repeats {repeats}`.  On a CPU the batch does more work "
        "than the loop (its 2-opt moves every instance in lockstep until the slowest is done; "
        "its decoders run the same host repairs plus device bookkeeping), so ratios below 1 "
        "are expected there; it is built for a GPU (`--device cuda`), not measured here: no "
        "GPU was available.",
        "",
        f"device {device}, batch B = {batch}, float64, best of {repeats} runs; outputs checked "
        "identical tour for tour before timing.  The decoder rows' *numpy loop* is the NumPy "
        f"fast path `reference.tsp.fast` (compiled kernels: {_kernels()}); the other rows' is "
        "the plain reference.",
        "",
        "| n | operation | numpy loop s | torch batch s | speed-up |",
        "|---|---|---|---|---|",
    ]
    for n in sizes:
        lines.extend(_rows(n, batch, device, repeats))
    return "\n".join(lines) + "\n"


def _kernels() -> str:
    return "numba" if fast_kernels.use_kernels() else "none, numpy fallback"


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
