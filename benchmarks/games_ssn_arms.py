"""Spec 01 §7 Tables 1-2, the two missing arms: PSSN with tau = 1e-2 and alternating last-iterate PRM+.

Issue 34 row 8.  Beside :mod:`benchmarks.games_ssn` (whose PSSN is the reference default
``tau_switch = 1e-3`` and whose PRM+ arms are simultaneous last / simultaneous linear /
alternating linear), this runs on the same instances (:func:`benchmarks.games_ssn._game`:
entries U[-1,1] and N(0,1), seeds 0..4, sizes 100x200, 200x400, 400x800):

* **PSSN tau = 1e-2** and, as the in-run comparator, **PSSN tau = 1e-3** (fast path
  :func:`reference.games.fast.hybrid`, simultaneous PRM+ warm start as the reference default),
  each once per target (``tol = target``), so the time includes every stopping test;
* **PRM+ alternating, last iterate** (``prm_plus(alternating=True, averaging="last")``), run
  once to the smallest target under an iteration cap; the time to a target is
  ``wall * t_target / t_total`` as in games_ssn.  A target not reached within the cap is a
  timeout: the cell is the capped run's wall time with ``>`` (a lower bound).

Caps of the alternating last-iterate arm (reduced from games_ssn's alternating caps 200k /
150k / 60k to keep the committed run near 10 minutes on the shared 2-core machine):
100k / 60k / 30k.  Targets 1e-4, 1e-6, 1e-8, 1e-10.

Run: ``python -m benchmarks.games_ssn_arms``; writes ``benchmarks/results/games_ssn_arms.md``
and ``games_ssn_arms.png`` (gap against iterations for the PRM+ arm, and PSSN's times).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks._env import environment_line, pin_blas, write_table
from benchmarks.games_ssn import DISTS, _first_reach, _game
from reference._arrays import FloatArray
from reference.games import HybridConfig, SSNConfig, duality_gap, prm_plus
from reference.games.fast import hybrid

RESULTS = Path(__file__).parent / "results"
TARGETS = (1e-4, 1e-6, 1e-8, 1e-10)
CAPS = {"100x200": 100_000, "200x400": 60_000, "400x800": 30_000}
TAUS = (1e-2, 1e-3)
#: The Newton phases as measured: both safeguards beyond Algorithm 2 on (SSNConfig).
SAFEGUARDED = SSNConfig(watchdog=True, kink_search=True)
ALT_LAST = "PRM+ alt last"


@dataclass(frozen=True, slots=True)
class Cell:
    """One method on one instance at one target: seconds (inf: not reached) and work."""

    method: str
    dist: str
    size: str
    seed: int
    target: float
    seconds: float
    bound: float
    first_order: int
    newton: int


def pssn_name(tau: float) -> str:
    return f"PSSN tau={tau:g}"


def run_instance(
    a: FloatArray, key: tuple[str, str, int], cap: int
) -> tuple[list[Cell], FloatArray]:
    """All arms on one game; returns the cells and the alt-last gap history."""
    dist, size, seed = key
    cells: list[Cell] = []
    res = prm_plus(a, tol=TARGETS[-1], max_iter=cap, alternating=True, averaging="last")
    total = max(res.iterations, 1)
    for target in TARGETS:
        t = _first_reach(res.gap_history, target)
        sec = math.inf if t is None else res.wall_time * t / total
        bound = res.wall_time if t is None else sec
        cells.append(Cell(ALT_LAST, dist, size, seed, target, sec, bound,
                          res.iterations if t is None else t, 0))  # fmt: skip
    for tau in TAUS:
        for target in TARGETS:
            r = hybrid(a, tol=target, config=HybridConfig(tau_switch=tau, ssn=SAFEGUARDED))
            x, y = r.x, r.y
            ok = duality_gap(a, x, y) <= target
            cells.append(Cell(pssn_name(tau), dist, size, seed, target,
                              r.wall_time if ok else math.inf, r.wall_time,
                              r.first_order_iterations, r.newton_iterations))  # fmt: skip
    return cells, np.asarray(res.gap_history, dtype=np.float64)


def _median(cells: list[Cell]) -> tuple[float, bool]:
    """Median seconds with timeouts at their bound; flag: a lower bound (some timeout)."""
    vals = [c.bound if math.isinf(c.seconds) else c.seconds for c in cells]
    return statistics.median(vals), any(math.isinf(c.seconds) for c in cells)


def summarise(
    cells: list[Cell], sizes: list[str], seeds: list[int], caps: dict[str, int]
) -> list[str]:
    methods = (ALT_LAST, *(pssn_name(t) for t in TAUS))
    lines: list[str] = []
    for dist in DISTS:
        for size in sizes:
            sel = [c for c in cells if c.dist == dist and c.size == size]
            if not sel:
                continue
            lines += [f"### {dist}, {size} (seeds {seeds}; alt-last cap {caps[size]})", "",
                      "| method | " + " | ".join(f"{t:.0e}" for t in TARGETS) + " |",
                      "|---" * (len(TARGETS) + 1) + "|"]  # fmt: skip
            med: dict[tuple[str, float], tuple[float, bool]] = {}
            for m in methods:
                row = []
                for t in TARGETS:
                    v, lb = _median([c for c in sel if c.method == m and c.target == t])
                    med[m, t] = (v, lb)
                    it = statistics.median(
                        c.first_order for c in sel if c.method == m and c.target == t
                    )
                    nt = statistics.median(c.newton for c in sel if c.method == m and c.target == t)
                    row.append(f"{'> ' if lb else ''}{v:.3g} s ({it:.0f} / {nt:.0f})")
                lines.append(f"| {m} | " + " | ".join(row) + " |")
            ratio = []
            for t in TARGETS:
                alt, lb = med[ALT_LAST, t]
                p2, f2 = med[pssn_name(1e-2), t]
                p3, _f3 = med[pssn_name(1e-3), t]
                txt = f"{'>= ' if lb else ''}{alt / p2:.3g}x" if not f2 else "PSSN failed"
                ratio.append(f"{t:.0e}: alt-last / PSSN(1e-2) {txt}, PSSN(1e-3) / PSSN(1e-2) "
                             f"{p3 / p2:.3g}")  # fmt: skip
            lines += ["", "Ratios of medians: " + "; ".join(ratio) + ".", ""]
    return lines


def run(
    sizes: list[str], seeds: list[int], out: Path = RESULTS, caps: dict[str, int] | None = None
) -> list[Cell]:
    """Run the grid, write ``games_ssn_arms.md`` and ``.png`` under ``out``; return the cells."""
    caps = caps or CAPS
    start, env0 = time.perf_counter(), environment_line()
    cells: list[Cell] = []
    histories: dict[str, FloatArray] = {}
    for size in sizes:
        for dist in DISTS:
            for seed in seeds:
                new, hist = run_instance(_game(dist, size, seed), (dist, size, seed), caps[size])
                cells += new
                if dist == DISTS[0] and seed == seeds[0]:
                    histories[size] = hist
                print(dist, size, seed, f"{time.perf_counter() - start:.0f} s", flush=True)
    wall = time.perf_counter() - start
    lines = [
        "# Spec 01 Tables 1-2: PSSN tau = 1e-2 and alternating last-iterate PRM+ (issue 34 row 8)",
        "",
        f"Generated by `python -m benchmarks.games_ssn_arms` in {wall:.0f} s wall; sizes {sizes}, "
        f"distributions {list(DISTS)}, seeds {seeds} (spec 01 §7: seeds 0..4, sizes up to 400x800, "
        "target 1e-10). Alternating last-iterate PRM+ caps "
        f"{ {s: caps[s] for s in sizes} } (reduced from games_ssn's alternating caps 200k/150k/60k). "
        "Same instances as `benchmarks/results/games_ssn.md` (its PSSN column is tau = 1e-3 too). "
        "Cells: median seconds over seeds (median first-order / Newton iterations); "
        "`>`: some seed hit the cap, the median counts its capped wall time (a lower bound).",
        "",
        f"Before the run: {env0}.",
        "",
        *summarise(cells, sizes, seeds, caps),
        f"After the run: {environment_line()}.",
    ]
    out.mkdir(parents=True, exist_ok=True)
    write_table(out / "games_ssn_arms.md", "\n".join(lines) + "\n")
    _plot(histories, cells, out / "games_ssn_arms.png")
    print("\n".join(lines))
    return cells


def _plot(histories: dict[str, FloatArray], cells: list[Cell], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(histories), figsize=(4.2 * len(histories), 3.8), squeeze=False)
    for ax, (size, hist) in zip(axes[0], histories.items(), strict=True):
        ax.semilogy(np.arange(1, hist.size + 1), np.maximum(hist, 1e-17), label=ALT_LAST)
        for tau, mk in zip(TAUS, ("o", "s"), strict=True):
            sel = [c for c in cells if c.size == size and c.dist == DISTS[0]
                   and c.method == pssn_name(tau) and c.seed == min(x.seed for x in cells)]  # fmt: skip
            ax.scatter([c.first_order for c in sel], [c.target for c in sel], marker=mk,
                       label=f"{pssn_name(tau)}: PRM+ iters before Newton, at each target")  # fmt: skip
        ax.set_xscale("log")
        ax.set_xlabel("PRM+ iterations")
        ax.set_ylabel("duality gap")
        ax.set_title(f"{DISTS[0]} {size}, first seed", fontsize=9)
        ax.legend(fontsize=6)
    fig.suptitle("Spec 01: alternating last-iterate PRM+ vs the PSSN switch points", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", nargs="+", default=list(CAPS))
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    args = parser.parse_args(argv)
    pin_blas(1)
    run(list(args.sizes), list(args.seeds))


if __name__ == "__main__":
    main()
