"""Speed target of issue 5: best-of-32 random thresholds vs greedy merge + 2-opt, side by side.

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
        .venv/bin/python -m benchmarks.tsp_speed            # n = 200, 16 instances

For each instance (seeds ``[seed, n, i]``, the instances of :mod:`benchmarks.tsp_study`) and
each heatmap G1-G4, ``sampled_decode(D, X, k=32, rng)`` and ``two_opt(greedy_merge(D, X))`` run
one after the other in the same process, in alternating order (even instances start with the
baseline), so machine load affects both alike.  The table gives mean seconds, the ratio of the
means and the median of the per-instance ratios; a cProfile of one best-of-32 call per heatmap
G1, G3 and G4 (instance 0, sorted by own time) shows where the time goes, and a separate
instrumented pass splits each best-of-32 call into its exact matchings, its Euler circuits and
the rest (validation incl. the O(n³) triangle check, sorting, union-find, F, shortcut costs).

The decoders run on the fast path :mod:`reference.tsp.fast`, with the numba kernels of
:mod:`reference.tsp.fast_kernels` when numba is installed (compiled before anything is timed);
a third column times the same calls with the kernels switched off (the numpy fallback).  A second table times the
*reference* :func:`reference.tsp.decode.sampled_decode` (plain loops, one integer-program
matching per repair) side by side with the fast path on the first ``--reference-instances``
instances of each size in ``--reference-sizes`` (n = 200 costs seconds per call, so only a few
instances), and checks that both return the same tours.  The header records the BLAS library and
its threads (threadpoolctl) and the load average (the machine is shared).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import functools
import importlib.metadata
import io
import os
import pstats
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_info  # type: ignore[import-untyped]  # no py.typed

from benchmarks._env import pin_blas, write_table
from benchmarks.tsp_study import GENERATORS, _heatmap, _reference_tour, _tune_temperature
from reference import tsp
from reference._arrays import FloatArray, IntArray
from reference.tsp import decode as tsp_decode
from reference.tsp import fast as tsp_fast
from reference.tsp import fast_kernels, fast_repair

RESULTS = Path(__file__).resolve().parent / "results"


def _seconds(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _timed(fn: Callable[[], IntArray]) -> tuple[float, IntArray]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def _best_of_k(distances: FloatArray, heat: FloatArray, k: int, draws: list[int]) -> IntArray:
    return tsp_fast.sampled_decode(distances, heat, k=k, rng=np.random.default_rng(draws))


def _numpy_best_of_k(distances: FloatArray, heat: FloatArray, k: int, draws: list[int]) -> IntArray:
    """The fast path with its compiled kernels switched off (its numpy fallback)."""
    fast_kernels.ENABLED = False
    try:
        return _best_of_k(distances, heat, k, draws)
    finally:
        fast_kernels.ENABLED = fast_kernels.AVAILABLE


def _warm_up(k: int) -> None:
    """Compile (or load from numba's cache) the kernels before anything is timed."""
    rng = np.random.default_rng(12345)
    _, distances = tsp.euclidean_instance(60, rng=rng)
    heat = tsp.perturbed_optimum(rng.permutation(60), sigma=0.3, rng=rng)
    for _ in range(2):
        _best_of_k(distances, heat, k, [1])


def _reference_best_of_k(
    distances: FloatArray, heat: FloatArray, k: int, draws: list[int]
) -> IntArray:
    return tsp_decode.sampled_decode(distances, heat, k=k, rng=np.random.default_rng(draws))


def _blas() -> str:
    """The BLAS libraries numpy/scipy loaded and their thread counts (threadpoolctl)."""
    pools = [
        f"{p.get('internal_api')} {p.get('version')} ({p.get('architecture')}, "
        f"{p.get('num_threads')} thread{'s' if p.get('num_threads') != 1 else ''}, "
        f"{p.get('prefix')})"
        for p in threadpool_info()
    ]
    return "; ".join(pools) or "none found"


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _reference_rows(sizes: list[int], instances: int, k: int, seed: int) -> list[str]:
    """Reference vs fast best-of-k on the first ``instances`` instances of each size."""
    lines = [
        "",
        f"## The price of simplicity: reference vs fast best-of-{k} (same instances, same tours)",
        "",
        f"`reference.tsp.decode.sampled_decode` (plain loops, a `milp` matching per repair) vs "
        f"`reference.tsp.fast.sampled_decode`, alternating per instance; first {instances} "
        "instances of each size only (the reference needs seconds per call at n = 200).",
        "",
        "| n | heatmap | instances | reference s (mean) | fast s (mean) | reference / fast | "
        "same tours |",
        "|---|---|---|---|---|---|---|",
    ]
    for n in sizes:
        temperature = _tune_temperature(n, seed + 10_000 + n)
        times: dict[str, tuple[list[float], list[float]]] = {g: ([], []) for g in GENERATORS}
        same = dict.fromkeys(GENERATORS, True)
        for index in range(instances):
            rng = np.random.default_rng([seed, n, index])
            _, distances = tsp.euclidean_instance(n, rng=rng)
            soft = tsp.soft_dist(distances, temperature=temperature)
            ref = _reference_tour(distances, soft)
            for kind in GENERATORS:
                heat = _heatmap(kind, distances, ref, soft, rng)
                draws = [seed, n, index, 1]
                slow = functools.partial(_reference_best_of_k, distances, heat, k, draws)
                quick = functools.partial(_best_of_k, distances, heat, k, draws)
                if index % 2 == 0:
                    (t_ref, tour_ref), (t_fast, tour_fast) = _timed(slow), _timed(quick)
                else:
                    (t_fast, tour_fast), (t_ref, tour_ref) = _timed(quick), _timed(slow)
                times[kind][0].append(t_ref)
                times[kind][1].append(t_fast)
                same[kind] &= bool(np.array_equal(tour_ref, tour_fast))
        for kind in GENERATORS:
            t_r, t_f = (np.array(v) for v in times[kind])
            lines.append(
                f"| {n} | {kind} | {instances} | {t_r.mean():.3f} | {t_f.mean():.3f} | "
                f"{t_r.mean() / t_f.mean():.0f} | {'yes' if same[kind] else 'NO'} |"
            )
    return lines


def _greedy_two_opt(distances: FloatArray, heat: FloatArray) -> object:
    return tsp.two_opt(distances, tsp.greedy_merge(distances, heat))


_PATCHED = ("_min_weight_perfect_matching", "_euler_shortcut")


@contextlib.contextmanager
def _instrumented(totals: dict[str, float]) -> Iterator[None]:
    """Time the exact matchings and Euler circuits inside ``reference.tsp.fast``."""
    originals = {name: getattr(fast_repair, name) for name in _PATCHED}
    matching: Callable[[FloatArray], IntArray] = originals["_min_weight_perfect_matching"]
    euler: Callable[[int, IntArray], IntArray] = originals["_euler_shortcut"]

    def timed_matching(w: FloatArray) -> IntArray:
        start = time.perf_counter()
        out = matching(w)
        totals["matching_s"] += time.perf_counter() - start
        totals["matchings"] += 1
        return out

    def timed_euler(n: int, edges: IntArray) -> IntArray:
        start = time.perf_counter()
        out = euler(n, edges)
        totals["euler_s"] += time.perf_counter() - start
        totals["euler_edges"] += edges.shape[0]
        return out

    replacements = dict(zip(_PATCHED, (timed_matching, timed_euler), strict=True))
    for name, function in replacements.items():
        setattr(fast_repair, name, function)
    try:
        yield
    finally:
        for name, function in originals.items():
            setattr(fast_repair, name, function)


def _breakdown(jobs: list[tuple[str, FloatArray, FloatArray, list[int]]], k: int) -> list[str]:
    keys = ("total_s", "matching_s", "matchings", "euler_s", "euler_edges")
    sums = {kind: dict.fromkeys(keys, 0.0) for kind in GENERATORS}
    counts = dict.fromkeys(GENERATORS, 0)
    for kind, distances, heat, draws in jobs:
        totals = sums[kind]
        with _instrumented(totals):
            totals["total_s"] += _seconds(functools.partial(_best_of_k, distances, heat, k, draws))
        counts[kind] += 1
    lines = [
        "",
        f"## Where a best-of-{k} call spends its time (separate instrumented pass, means)",
        "",
        "| heatmap | total ms | exact matchings ms | matchings per call | Euler circuits ms | "
        "multigraph edges per call | rest ms |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind in GENERATORS:
        m = {key: value / max(counts[kind], 1) for key, value in sums[kind].items()}
        rest = m["total_s"] - m["matching_s"] - m["euler_s"]
        lines.append(
            f"| {kind} | {1e3 * m['total_s']:.1f} | {1e3 * m['matching_s']:.1f} | "
            f"{m['matchings']:.1f} | {1e3 * m['euler_s']:.1f} | {m['euler_edges']:.0f} | "
            f"{1e3 * rest:.1f} |"
        )
    return lines


def _profile(distances: FloatArray, heat: FloatArray, k: int, seed: int) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    tsp_fast.sampled_decode(distances, heat, k=k, rng=np.random.default_rng(seed))
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs().sort_stats("tottime").print_stats(12)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    return "\n".join(lines[2:])


def run(
    n: int,
    instances: int,
    k: int,
    seed: int,
    reference_sizes: list[int] | None = None,
    reference_instances: int = 4,
) -> str:
    load_before = _load()
    temperature = _tune_temperature(n, seed + 10_000 + n)
    times: dict[str, tuple[list[float], list[float]]] = {g: ([], []) for g in GENERATORS}
    numpy_times: dict[str, list[float]] = {g: [] for g in GENERATORS}
    profiles: dict[str, str] = {}
    _warm_up(k)
    jobs: list[tuple[str, FloatArray, FloatArray, list[int]]] = []
    started = time.perf_counter()
    for index in range(instances):
        rng = np.random.default_rng([seed, n, index])
        _, distances = tsp.euclidean_instance(n, rng=rng)
        soft = tsp.soft_dist(distances, temperature=temperature)
        ref = _reference_tour(distances, soft)
        for kind in GENERATORS:
            heat = _heatmap(kind, distances, ref, soft, rng)
            best_of_k = functools.partial(_best_of_k, distances, heat, k, [seed, n, index, 1])
            greedy = functools.partial(_greedy_two_opt, distances, heat)

            numpy_path = functools.partial(
                _numpy_best_of_k, distances, heat, k, [seed, n, index, 1]
            )
            if not fast_kernels.AVAILABLE:  # the fast path *is* the numpy code
                numpy_path = best_of_k
            if index % 2 == 0:
                t_greedy, t_best, t_numpy = (
                    _seconds(greedy),
                    _seconds(best_of_k),
                    _seconds(numpy_path),
                )
            else:
                t_numpy, t_best, t_greedy = (
                    _seconds(numpy_path),
                    _seconds(best_of_k),
                    _seconds(greedy),
                )
            times[kind][0].append(t_best)
            times[kind][1].append(t_greedy)
            numpy_times[kind].append(t_numpy)
            jobs.append((kind, distances, heat, [seed, n, index, 1]))
            if index == 0 and kind in ("G1", "G3", "G4"):
                profiles[kind] = _profile(distances, heat, k, 0)
    wall = time.perf_counter() - started
    kernel_note = (
        f"numba {importlib.metadata.version('numba')} kernels of `reference.tsp.fast_kernels` "
        "(compiled before timing)"
        if fast_kernels.use_kernels()
        else "numba not installed: numpy code only"
    )
    reference_lines = (
        _reference_rows(reference_sizes, reference_instances, k, seed) if reference_sizes else []
    )
    lines = [
        "# TSP speed target: best-of-32 thresholds vs greedy merge + 2-opt (same process)",
        "",
        "Command: `OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 "
        f".venv/bin/python -m benchmarks.tsp_speed --n {n} --instances {instances} --k {k} "
        f"--seed {seed} --reference-sizes {' '.join(map(str, reference_sizes or []))} "
        f"--reference-instances {reference_instances}` (wall of the main table {wall:.0f} s).  "
        "Decoders: the fast path `reference.tsp.fast`.  Machine: 2 cores shared with other "
        f"jobs (load average 1/5/15 min: {load_before} at the start, {_load()} at the end); the "
        "two decoders alternate per instance, so load affects both alike.  BLAS (threadpoolctl): "
        f"{_blas()}.  Instances: seeds `[{seed}, {n}, i]`, i < {instances}; heatmaps G1-G4 as in "
        f"`benchmarks.tsp_study` (SoftDist temperature {temperature}).",
        "",
        f"Kernels: {kernel_note}.  The *numpy* columns time the same fast path with its "
        "compiled kernels switched off (the fallback without numba; same tours, checked in "
        "`tests/tsp/test_fast_kernels.py`).",
        "",
        f"| n | heatmap | best-of-{k} s (mean) | greedy + 2-opt s (mean) | ratio of means | "
        "median per-instance ratio | numpy fallback s (mean) | numpy fallback ratio of means |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for kind in GENERATORS:
        t_b, t_g, t_n = (np.array(v) for v in (*times[kind], numpy_times[kind]))
        lines.append(
            f"| {n} | {kind} | {t_b.mean():.3f} | {t_g.mean():.3f} | "
            f"{t_b.mean() / t_g.mean():.1f} | {float(np.median(t_b / t_g)):.1f} | "
            f"{t_n.mean():.3f} | {t_n.mean() / t_g.mean():.1f} |"
        )
    all_best = np.concatenate([np.array(times[g][0]) for g in GENERATORS])
    all_greedy = np.concatenate([np.array(times[g][1]) for g in GENERATORS])
    all_numpy = np.concatenate([np.array(numpy_times[g]) for g in GENERATORS])
    lines += [
        f"| {n} | all | {all_best.mean():.3f} | {all_greedy.mean():.3f} | "
        f"{all_best.mean() / all_greedy.mean():.1f} | "
        f"{float(np.median(all_best / all_greedy)):.1f} | {all_numpy.mean():.3f} | "
        f"{all_numpy.mean() / all_greedy.mean():.1f} |",
        "",
        f"Target (issue 5): best-of-{k} within 10x greedy + 2-opt at n = 200.",
        *reference_lines,
        *_breakdown(jobs, k),
    ]
    for kind, profile in profiles.items():
        lines += [
            "",
            f"## cProfile of one best-of-{k} call ({kind}, instance 0; own time)",
            "",
            "```",
            profile,
            "```",
        ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--instances", type=int, default=16)
    parser.add_argument("--k", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reference-sizes", type=int, nargs="*", default=[50, 200])
    parser.add_argument("--reference-instances", type=int, default=4)
    parser.add_argument("--out", type=Path, default=RESULTS / "tsp_speed.md")
    args = parser.parse_args(argv)
    table = run(
        args.n, args.instances, args.k, args.seed, args.reference_sizes, args.reference_instances
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_table(args.out, table)
    print(table)


if __name__ == "__main__":
    pin_blas(1)
    main()
