"""Issue 20: the games fast path at 1000 x 1000, before and after, next to PRM+ and HiGHS IPM.

Every instance runs all methods back to back in one process, interleaved
(after, before, PRM+, HiGHS, levers..., after, before), BLAS pinned to one thread for all of
them (:mod:`benchmarks._env`); the hybrids' times are medians of their runs on the instance.

* **before**: :mod:`reference.games.fast` as of ``--before`` (a git revision, loaded from
  ``git show``), PSSN with the default :class:`~reference.games.HybridConfig`.
* **after**: today's :mod:`reference.games.fast` with
  :data:`reference.games.fast.FAST_HYBRID_CONFIG` (alternating PRM+ to ``2e-5``, then SSN with
  the support polish).
* lever rows (today's code): the same switch without the polish (``polish off``), the previous
  fast config (alternating PRM+ to ``1e-5``, no polish: the ``after`` of the committed table
  before this one) and the reference's default config.
* PRM+: alternating, linear averaging (the best variant in ``games_ssn.md``) run to the gap.
* HiGHS IPM: the row player's LP (``benchmarks.games_ssn.highs_one_lp``).

Every gap is recomputed from the returned profile by :func:`reference.games.duality_gap`.

Run: ``python -m benchmarks.games_fastpath --size 1000x1000 --seeds 0 1 2 3 4
--out benchmarks/results/games_fastpath.md``.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType

from benchmarks._env import environment_line, pin_blas

BLAS = pin_blas(1)

import numpy as np  # noqa: E402

from benchmarks.games_ssn import _game, highs_one_lp  # noqa: E402
from reference.games import HybridConfig, duality_gap, fast, prm_plus  # noqa: E402

Pair = tuple[np.ndarray, np.ndarray]
Row = tuple[str, int, dict[str, float], dict[str, float]]
ROOT = Path(__file__).resolve().parent.parent
DISTS = ("U[-1,1]", "N(0,1)")


def load_before(revision: str) -> ModuleType:
    """``reference/games/fast.py`` at ``revision`` as a module of its own."""
    text = subprocess.run(
        ["git", "show", f"{revision}:reference/games/fast.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "games_fast_before.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("games_fast_before", path)
    if spec is None or spec.loader is None:  # pragma: no cover
        raise RuntimeError("cannot load the old fast path")
    module = importlib.util.module_from_spec(spec)
    sys.modules["games_fast_before"] = module
    spec.loader.exec_module(module)
    return module


def timed(fn: Callable[[], tuple[np.ndarray, np.ndarray]], a: np.ndarray) -> tuple[float, float]:
    """Seconds and the recomputed duality gap of the returned pair."""
    start = time.perf_counter()
    x, y = fn()
    return time.perf_counter() - start, duality_gap(a, x, y)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", default="1000x1000")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--tol", type=float, default=1e-8)
    parser.add_argument("--before", default="d7736bf")
    parser.add_argument("--prm-cap", type=int, default=400_000)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--cpu-levers",
        action="store_true",
        help="only today's hybrid configs, timed in process CPU seconds (load-robust proxy "
        "for single-threaded wall time), with their PRM+ and Newton iteration counts",
    )
    args = parser.parse_args(argv)
    if args.cpu_levers:
        text = cpu_levers(args)
        if args.out is not None:
            args.out.write_text(text)
        print(text)
        return 0
    old = load_before(args.before)
    tol = args.tol
    tuned = fast.FAST_HYBRID_CONFIG
    no_polish = fast.FastHybridConfig(
        tau_switch=tuned.tau_switch,
        alternating=tuned.alternating,
        support_polish=False,
        ssn=tuned.ssn,
    )
    previous = HybridConfig(tau_switch=1e-5, alternating=True, ssn=tuned.ssn)

    def hyb(module: ModuleType, cfg: HybridConfig | None, a: np.ndarray) -> Callable[[], Pair]:
        def run() -> tuple[np.ndarray, np.ndarray]:
            res = module.hybrid(a, tol=tol, config=cfg)
            return res.x, res.y

        return run

    env_before = environment_line()
    t0 = time.perf_counter()
    rows = []
    for dist in DISTS:
        for seed in args.seeds:
            a = _game(dist, args.size, seed)
            times: dict[str, list[float]] = {}
            gaps: dict[str, float] = {}
            order: list[tuple[str, Callable[[], Pair]]] = [
                ("after", hyb(fast, tuned, a)),
                ("before", hyb(old, None, a)),
                ("PRM+ alt", partial(_prm, a, tol, args.prm_cap)),
                ("HiGHS ipm", partial(highs_one_lp, a, "highs-ipm")),
                ("polish off", hyb(fast, no_polish, a)),
                ("previous fast config", hyb(fast, previous, a)),
                ("default config", hyb(fast, None, a)),
                ("after", hyb(fast, tuned, a)),
                ("before", hyb(old, None, a)),
            ]
            for name, fn in order:
                sec, gap = timed(fn, a)
                times.setdefault(name, []).append(sec)
                gaps[name] = max(gaps.get(name, 0.0), gap)
            med = {k: statistics.median(v) for k, v in times.items()}
            rows.append((dist, seed, med, gaps))
            print(dist, seed, {k: round(v, 3) for k, v in med.items()}, flush=True)
    wall = time.perf_counter() - t0
    text = report(rows, args, env_before, environment_line(), wall)
    if args.out is not None:
        args.out.write_text(text)
    print(text)
    return 0


def cpu_levers(args: argparse.Namespace) -> str:
    """Today's configs on each instance, interleaved, in process CPU seconds (median of 2)."""
    tuned = fast.FAST_HYBRID_CONFIG
    configs: dict[str, HybridConfig | None] = {
        "after (2e-5 + polish)": tuned,
        "polish off (2e-5)": fast.FastHybridConfig(
            tau_switch=tuned.tau_switch,
            alternating=tuned.alternating,
            support_polish=False,
            ssn=tuned.ssn,
        ),
        "1e-5 + polish": fast.FastHybridConfig(tau_switch=1e-5, alternating=True, ssn=tuned.ssn),
        "previous fast config (1e-5)": HybridConfig(
            tau_switch=1e-5, alternating=True, ssn=tuned.ssn
        ),
        "default config": None,
    }
    env0, t0 = environment_line(), time.perf_counter()
    lines = [
        f"# Games fast path levers at {args.size}, gap {args.tol:g}, in CPU seconds (issue 20)\n",
        f"`python -m benchmarks.games_fastpath --cpu-levers --size {args.size} --seeds "
        f"{' '.join(map(str, args.seeds))}`.  Process CPU time (``time.process_time``) of "
        "single-threaded BLAS runs does not count the time the process waits for a core, so it "
        "stays close to the quiet wall time on a loaded machine (cache contention still adds "
        "some); median of 2 interleaved runs; cell = seconds (PRM+ iterations / Newton "
        "iterations).",
        f"Before the run: {env0}.",
    ]
    header = "| dist | seed | " + " | ".join(configs) + " |"
    body = [header, "|---" * (len(configs) + 2) + "|"]
    for dist in DISTS:
        for seed in args.seeds:
            a = _game(dist, args.size, seed)
            seconds: dict[str, list[float]] = {name: [] for name in configs}
            counts: dict[str, tuple[int, int]] = {}
            for _ in range(2):
                for name, cfg in configs.items():
                    start = time.process_time()
                    res = fast.hybrid(a, tol=args.tol, config=cfg)
                    seconds[name].append(time.process_time() - start)
                    if duality_gap(a, res.x, res.y) > args.tol:  # recomputed from the pair
                        raise RuntimeError(f"{name} missed the gap on {dist} seed {seed}")
                    counts[name] = (res.first_order_iterations, res.newton_iterations)
            cells = [
                f"{statistics.median(seconds[n]):.2f} ({counts[n][0]}/{counts[n][1]})"
                for n in configs
            ]
            body.append(f"| {dist} | {seed} | " + " | ".join(cells) + " |")
            print(body[-1], flush=True)
    lines.append(f"After the run ({time.perf_counter() - t0:.0f} s wall): {environment_line()}.\n")
    return "\n".join(lines + body) + "\n"


def _prm(a: np.ndarray, tol: float, cap: int) -> tuple[np.ndarray, np.ndarray]:
    res = prm_plus(a, tol=tol, max_iter=cap, alternating=True)
    return res.x, res.y


def report(rows: list[Row], args: argparse.Namespace, env0: str, env1: str, wall: float) -> str:
    names = [
        "after",
        "before",
        "polish off",
        "previous fast config",
        "default config",
        "PRM+ alt",
        "HiGHS ipm",
    ]
    lines = [
        f"# Games fast path at {args.size}, gap {args.tol:g}: before / after (issue 20)\n",
        f"`python -m benchmarks.games_fastpath --size {args.size} --seeds "
        f"{' '.join(map(str, args.seeds))} --before {args.before}`; {wall:.0f} s wall.",
        f"Before the run: {env0}.",
        f"After the run: {env1}.",
        "Seconds per solve (hybrids: median of their runs on the instance, interleaved with "
        "the others); every gap recomputed from the returned pair (max over runs).\n",
        "| dist | seed | " + " | ".join(names) + " | PRM+ / after | HiGHS / after "
        "| PRM+ / before | HiGHS / before | max gap |",
        "|---" * (len(names) + 7) + "|",
    ]
    ratios: dict[str, list[float]] = {}
    for dist, seed, med, gaps in rows:
        r = {
            "prm_after": med["PRM+ alt"] / med["after"],
            "ipm_after": med["HiGHS ipm"] / med["after"],
            "prm_before": med["PRM+ alt"] / med["before"],
            "ipm_before": med["HiGHS ipm"] / med["before"],
        }
        for k, v in r.items():
            ratios.setdefault(f"{dist} {k}", []).append(v)
        cells = " | ".join(f"{med[n]:.3g}" for n in names)
        lines.append(
            f"| {dist} | {seed} | {cells} | {r['prm_after']:.3g} | {r['ipm_after']:.3g} | "
            f"{r['prm_before']:.3g} | {r['ipm_before']:.3g} | {max(gaps.values()):.1e} |"
        )
    lines.append("\nMedian ratios over seeds:\n")
    lines.append("| dist | PRM+ / after | HiGHS / after | PRM+ / before | HiGHS / before |")
    lines.append("|---|---|---|---|---|")
    for dist in DISTS:
        cell = [
            statistics.median(ratios[f"{dist} {k}"])
            for k in ("prm_after", "ipm_after", "prm_before", "ipm_before")
            if f"{dist} {k}" in ratios
        ]
        if cell:
            lines.append(f"| {dist} | " + " | ".join(f"{v:.3g}" for v in cell) + " |")
    met = [
        (dist, seed)
        for dist, seed, med, _ in rows
        if med["PRM+ alt"] >= 10.0 * med["after"] and med["HiGHS ipm"] >= 2.0 * med["after"]
    ]
    lines.append(
        f"\nTarget (>= 10x PRM+ alt and >= 2x HiGHS IPM on the instance) met on {len(met)} of "
        f"{len(rows)} instances."
    )
    lines.append(
        "\nWhat each lever bought (median over seeds of before / variant; min in brackets):\n"
    )
    levers = ["default config", "previous fast config", "polish off", "after"]
    lines.append("| dist | " + " | ".join(levers) + " |")
    lines.append("|---" * (len(levers) + 1) + "|")
    for dist in DISTS:
        sel = [med for d, _, med, _ in rows if d == dist]
        if sel:
            lever_cells: list[str] = []
            for lever in levers:
                gains = [med["before"] / med[lever] for med in sel]
                lever_cells.append(f"{statistics.median(gains):.2f} ({min(gains):.2f})")
            lines.append(f"| {dist} | " + " | ".join(lever_cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
