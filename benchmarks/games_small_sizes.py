"""Issue 31: the games fast path against HiGHS IPM at 100..1000, before and after the small-game rule.

Run: ``OPENBLAS_NUM_THREADS=1 python -m benchmarks.games_small_sizes [--quick]``.  Writes
``benchmarks/results/games_small_sizes.md``.

Per instance (n x n, U[-1, 1] and N(0, 1), seeds 0..2; one seed at 1000) three solves, in an
order rotating per instance: HiGHS IPM on the row player's LP (``benchmarks.games_ssn``), the fast
hybrid with ``FAST_HYBRID_CONFIG`` before issue 31 (``tau_switch = 2e-5`` at every size) and after
(``1e-3`` when ``max(m, n) <= 400``).  Times are this process's CPU seconds
(``time.process_time``; the machine is shared and loaded), BLAS pinned to one thread; every gap is
recomputed from the returned pair by :func:`reference.games.duality_gap` (target 1e-8).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks._env import environment_line, pin_blas, write_table
from benchmarks.games_ssn import highs_one_lp
from reference.games import duality_gap, fast

OUT = Path(__file__).resolve().parent / "results"
TOL = 1e-8


def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 and 200 only, one seed")
    args = parser.parse_args(argv)
    blas = pin_blas(1)
    env0 = environment_line()
    after = fast.FAST_HYBRID_CONFIG
    before = dataclasses.replace(after, small_tau_switch=None)
    plan = [(100, 3), (200, 3)] if not args.quick else [(100, 1), (200, 1)]
    if not args.quick:
        plan += [(500, 3), (1000, 1)]
    rows: list[str] = []
    ratios: dict[tuple[int, str], list[tuple[float, float]]] = {}
    k = 0
    for n, seeds in plan:
        for dist in ("U", "N"):
            for seed in range(seeds):
                rng = np.random.default_rng(seed)
                a = rng.uniform(-1.0, 1.0, (n, n)) if dist == "U" else rng.standard_normal((n, n))
                runs: dict[str, Callable[[], tuple[Any, Any]]] = {
                    "highs": partial(highs_one_lp, a, "highs-ipm"),
                    "before": partial(_solve, a, before),
                    "after": partial(_solve, a, after),
                }
                names = list(runs)
                order = names[k % 3 :] + names[: k % 3]
                k += 1
                secs, gaps = {}, {}
                for name in order:
                    secs[name], (x, y) = _cpu(runs[name])
                    gaps[name] = duality_gap(a, x, y)
                rb, ra = secs["highs"] / secs["before"], secs["highs"] / secs["after"]
                ratios.setdefault((n, dist), []).append((rb, ra))
                rows.append(
                    f"| {n} | {dist} | {seed} | {secs['highs']:.3f} | {gaps['highs']:.1e} | "
                    f"{secs['before']:.3f} | {gaps['before']:.1e} | {secs['after']:.3f} | "
                    f"{gaps['after']:.1e} | {rb:.2f} | {ra:.2f} |"
                )
                print(rows[-1], flush=True)
    summary = [
        f"| {n} | {dist} | {len(v)} | {statistics.median(r[0] for r in v):.2f} "
        f"({min(r[0] for r in v):.2f}-{max(r[0] for r in v):.2f}) | "
        f"{statistics.median(r[1] for r in v):.2f} ({min(r[1] for r in v):.2f}-{max(r[1] for r in v):.2f}) |"
        for (n, dist), v in ratios.items()
    ]
    lines = [
        "# Games fast path vs HiGHS IPM at small and medium sizes (issue 31)",
        "",
        f"{blas}.  Before the run: {env0}.  The machine was shared with other jobs (see the "
        "load): CPU seconds of this process, the three solvers interleaved per instance.",
        f"Command: `python -m benchmarks.games_small_sizes{' --quick' if args.quick else ''}`; "
        f"gap target {TOL:g} (recomputed).  before = `FAST_HYBRID_CONFIG` with "
        "`small_tau_switch=None` (PRM+ to 2e-5 at every size); after = `FAST_HYBRID_CONFIG` "
        "(PRM+ to 1e-3 when max(m, n) <= 400).  Target (issue 31): HiGHS / ours >= 0.5 at 100, "
        ">= 1 from 200 up.",
        "",
        "## HiGHS IPM / ours (median, range)",
        "",
        "| n | dist | instances | before | after |",
        "|---|---|---|---|---|",
        *summary,
        "",
        "## Per instance (CPU seconds)",
        "",
        "| n | dist | seed | HiGHS IPM s | gap | before s | gap | after s | gap | HiGHS / before "
        "| HiGHS / after |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        f"After the run: {environment_line()}.",
    ]
    OUT.mkdir(exist_ok=True)
    name = "games_small_sizes_quick.md" if args.quick else "games_small_sizes.md"
    write_table(OUT / name, "\n".join(lines) + "\n")
    print(f"wrote {OUT / name}")


def _solve(a: Any, config: fast.FastHybridConfig) -> tuple[Any, Any]:
    res = fast.hybrid(a, tol=TOL, config=config)
    return res.x, res.y


if __name__ == "__main__":
    main()
