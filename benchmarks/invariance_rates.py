"""Spec 08 rate study: mean dist² of the spectral estimator against n, |E|, d - k, γ, and the transition.

Run: ``python -m benchmarks.invariance_rates [--reps 100]``; writes ``benchmarks/results/invariance_rates.md``
and ``invariance_rates.png``.  Base instance d = 6, k = 2, |E| = 16, n = 2000, γ = 2 (label-induced
shift, Hadamard design drifts, random rotation), as in spec 08, Section 4.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from benchmarks._env import pin_blas, write_table
from proofs_numeric.invariance import mean_error

RESULTS = Path(__file__).resolve().parent / "results"


def _slope(xs: list[float], ys: list[float]) -> float:
    return float(np.polyfit(np.log(xs), np.log(ys), 1)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=100)
    args = parser.parse_args()
    reps = args.reps
    start = time.perf_counter()
    sweeps: dict[str, tuple[list[float], list[float], float, str]] = {}
    ns = [500.0, 1000.0, 2000.0, 4000.0, 8000.0]
    sweeps["n"] = (
        ns,
        [mean_error(6, 2, 16, int(n), 2.0, reps=reps, seed=1) for n in ns],
        -1.0,
        "-1 ± 0.1",
    )
    es = [8.0, 16.0, 32.0, 64.0]
    sweeps["|E|"] = (
        es,
        [mean_error(6, 2, int(e), 2000, 2.0, reps=reps, seed=2) for e in es],
        -1.0,
        "-1 ± 0.15",
    )
    ws = [2.0, 4.0, 6.0, 10.0, 14.0]
    sweeps["d - k"] = (
        ws,
        [mean_error(2 + int(w), 2, 16, 2000, 2.0, reps=reps, seed=3) for w in ws],
        1.0,
        "+1 ± 0.15",
    )
    gs = [1.0, 2.0, 4.0]
    sweeps["γ"] = (
        gs,
        [mean_error(6, 2, 16, 2000, g, reps=reps, seed=4) for g in gs],
        -2.0,
        "-2 ± 0.15",
    )
    grid = [2.0**i for i in range(1, 12)]
    transition = {
        g: [mean_error(6, 2, 16, int(n), g, reps=max(20, reps // 2), seed=5) for n in grid]
        for g in (0.5, 1.0, 2.0)
    }
    elapsed = time.perf_counter() - start

    lines = [
        "# Spec 08: invariant-subspace recovery rates (spectral estimator E2)",
        "",
        f"`python -m benchmarks.invariance_rates --reps {reps}`; {elapsed:.0f} s on 2 CPU cores.",
        "",
        "| sweep | values | mean dist² | fitted slope | spec |",
        "|---|---|---|---|---|",
    ]
    for name, (xs, ys, _, spec) in sweeps.items():
        lines.append(
            f"| {name} | {', '.join(f'{x:g}' for x in xs)} | {', '.join(f'{y:.3g}' for y in ys)} | "
            f"{_slope(xs, ys):+.3f} | {spec} |"
        )
    lines += [
        "",
        "Transition (mean dist², random level 2k(d-k)/d = 2.67, half level 1.33):",
        "",
        "| γ \\ n | " + " | ".join(f"{int(n)}" for n in grid) + " |",
        "|---|" + "---|" * len(grid),
    ]
    for g, ys in transition.items():
        lines.append(f"| {g:g} | " + " | ".join(f"{y:.3g}" for y in ys) + " |")
    RESULTS.mkdir(exist_ok=True)
    write_table((RESULTS / "invariance_rates.md"), "\n".join(lines) + "\n", encoding="utf-8")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 5, figsize=(17, 3.4))
    for ax, (name, (xs, ys, target, _)) in zip(axes[:4], sweeps.items(), strict=True):
        ax.loglog(xs, ys, "o-", label=f"E2 (slope {_slope(xs, ys):+.2f})")
        ref = ys[0] * (np.asarray(xs) / xs[0]) ** target
        ax.loglog(xs, ref, "k--", label=f"slope {target:+g}")
        ax.set_xlabel(name)
        ax.set_ylabel("mean dist²")
        ax.legend(fontsize=7)
    for g, ys in transition.items():
        axes[4].semilogx(grid, ys, "o-", label=f"γ = {g:g}")
    axes[4].axhline(8 / 3, color="k", ls=":", label="random level")
    axes[4].set_xlabel("n per environment")
    axes[4].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(RESULTS / "invariance_rates.png", dpi=110)
    print("\n".join(lines))


if __name__ == "__main__":
    pin_blas(1)
    main()
