"""Spec 05 §4.4 E1 at the spec's grid, a T sweep, and plain vs clipped SGD beyond means (issue 34 row 13).

Instance (as ``optimizers_experiment`` section 3): least squares, ``d = 5``, rows of ``A``
normalised (per-example smoothness ``L = 1``), targets ``A x* + xi`` with symmetric Pareto
``xi`` (tail 1.5); ``S'`` replaces example 0 by example 1 with its target shifted by 50.
Clipped SGD ``eta = 0.01``, ``tau = 1``; coupled runs (same ``x_0 = 0``, same index sequences).

1. **n sweep** ``n in {50, 100, 200, 400, 800, 1600, 3200}`` (spec: ``{50..3200}``) at ``T = 100``:
   mean ``delta_T``, its standard error and the S1 bound; fitted slope (spec: ``-1 +- 0.15``).
2. **T sweep** ``T in {10, 20, 50, 100, 200}`` at ``n = 200`` (``eta L T <= 2``): fitted slope
   (spec: about ``+1`` when ``eta L T << 1``, tolerance 0.2).
3. **Plain vs clipped beyond means** (spec 05 §6): 40 independent datasets (``n = 200``,
   ``T = 100``), neighbour = example 0 replaced by a fresh draw; per dataset the mean
   ``delta_T`` of plain and clipped SGD, their spread across datasets (median, 90th percentile,
   max, max / median), the Spearman correlation with the largest ``|xi|`` of the two samples,
   also with the largest ``|xi|`` of the swapped pair (the only examples where ``S`` and ``S'`` differ),
   and the share of datasets where clipped SGD stays below S1.

Run: ``python -m benchmarks.stability_e1``; writes ``benchmarks/results/stability_e1.md`` and
``stability_e1.png``.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

from benchmarks._env import environment_line, pin_blas, write_table
from reference import optimizers as ref
from reference import stability
from reference._arrays import FloatArray

RESULTS = Path(__file__).parent / "results"
ETA, TAU, D, TAIL = 0.01, 1.0, 5, 1.5
NS = (50, 100, 200, 400, 800, 1600, 3200)
TS = (10, 20, 50, 100, 200)


@dataclass(frozen=True, slots=True)
class Settings:
    """Sizes of one run (the defaults are the committed run)."""

    ns: tuple[int, ...] = NS
    ts: tuple[int, ...] = TS
    runs: int = 500
    datasets: int = 40
    dataset_runs: int = 100
    n_fixed: int = 200
    t_fixed: int = 100


def _instance(n: int, seed: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(n, D))
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    xi = stability.symmetric_pareto(n, tail=TAIL, rng=rng)
    return a, a @ rng.normal(size=D) + xi, xi


def _coupled(tau: float, a: FloatArray, y: FloatArray, a2: FloatArray, y2: FloatArray,
             steps: int, runs: int, seed: int) -> stability.CoupledRuns:  # fmt: skip
    return stability.coupled_runs(
        ref.clipped_sgd(learning_rate=ETA, tau=tau), a, y, a2, y2, np.zeros(D),
        steps=steps, runs=runs, rng=np.random.default_rng(seed),
    )  # fmt: skip


def _bound(n: int, steps: int) -> float:
    return stability.clipped_sgd_stability_bound(
        n=n, steps=steps, learning_rate=ETA, tau=TAU, smoothness=1.0
    )


def sweep(n: int, steps: int, runs: int) -> tuple[float, float, float, float]:
    """``(clipped mean, clipped stderr, plain mean, plain stderr)`` on the outlier neighbour."""
    a, y, _ = _instance(n, n)
    a2, y2 = stability.neighbouring_dataset(a, y, 0, a[1], float(y[1]) + 50.0)
    c = _coupled(TAU, a, y, a2, y2, steps, runs, 7)
    p = _coupled(math.inf, a, y, a2, y2, steps, runs, 7)
    return c.mean, c.stderr, p.mean, p.stderr


def across_datasets(s: Settings) -> FloatArray:
    """``(datasets, 4)``: clipped mean delta, plain mean delta, max |xi| over S and S', and
    max |xi| of the swapped pair (example 0 of S and its replacement)."""
    rows = []
    for k in range(s.datasets):
        a, y, xi = _instance(s.n_fixed, 10_000 + k)
        fresh, fy, fxi = _instance(1, 20_000 + k)
        a2, y2 = stability.neighbouring_dataset(a, y, 0, fresh[0], float(fy[0]))
        c = _coupled(TAU, a, y, a2, y2, s.t_fixed, s.dataset_runs, k)
        p = _coupled(math.inf, a, y, a2, y2, s.t_fixed, s.dataset_runs, k)
        swapped = float(max(abs(xi[0]), abs(fxi[0])))
        rows.append((c.mean, p.mean, float(max(np.abs(xi).max(), abs(fxi[0]))), swapped))
    return np.array(rows)


def _slope(xs: tuple[int, ...], ys: list[float]) -> float:
    return float(np.polyfit(np.log(xs), np.log(ys), 1)[0])


def run(s: Settings = Settings(), out: Path = RESULTS) -> dict[str, object]:
    start, env0 = time.perf_counter(), environment_line()
    by_n = [sweep(n, s.t_fixed, s.runs) for n in s.ns]
    by_t = [sweep(s.n_fixed, t, s.runs) for t in s.ts]
    ds = across_datasets(s)
    wall = time.perf_counter() - start
    slope_n = _slope(s.ns, [r[0] for r in by_n])
    slope_n_plain = _slope(s.ns, [r[2] for r in by_n])
    slope_t = _slope(s.ts, [r[0] for r in by_t])
    lines = [
        "# Spec 05 §4.4 E1: stability of clipped SGD vs n and T; plain vs clipped (issue 34 row 13)",
        "",
        f"Generated by `python -m benchmarks.stability_e1` in {wall:.0f} s wall. Least squares, "
        f"d = {D}, unit rows (L = 1), symmetric Pareto noise tail {TAIL}; eta = {ETA}, tau = {TAU}, "
        f"x_0 = 0. Coupled runs: {s.runs} per cell in parts 1-2 (spec §4.3: R = 2000; fewer for "
        f"time), index seed 7, dataset seed = n. Part 3: {s.datasets} datasets (seeds 10000+k), "
        f"{s.dataset_runs} coupled runs each (spec: not set).",
        "",
        f"Before the run: {env0}.",
        "",
        f"## 1. n sweep (T = {s.t_fixed}; neighbour: example 0 -> example 1 with target + 50)",
        "",
        "| n | mean delta_T clipped | stderr | S1 bound | mean delta_T plain | stderr |",
        "|---|---|---|---|---|---|",
    ]
    for n, (cm, cs, pm, ps) in zip(s.ns, by_n, strict=True):
        lines.append(
            f"| {n} | {cm:.4g} | {cs:.2g} | {_bound(n, s.t_fixed):.4g} | {pm:.4g} | {ps:.2g} |"
        )
    ok_n = abs(slope_n + 1.0) <= 0.15
    ok_t = abs(slope_t - 1.0) <= 0.2
    lines += [
        "",
        f"Fitted slope of log mean delta_T (clipped) vs log n: {slope_n:+.3f} (spec: -1 ± 0.15: "
        f"{'inside' if ok_n else 'OUTSIDE'}); plain SGD: {slope_n_plain:+.3f}.",
        "",
        f"## 2. T sweep (n = {s.n_fixed}; eta L T <= {ETA * max(s.ts):g})",
        "",
        "| T | mean delta_T clipped | stderr | S1 bound | mean delta_T plain | stderr |",
        "|---|---|---|---|---|---|",
    ]
    for t, (cm, cs, pm, ps) in zip(s.ts, by_t, strict=True):
        lines.append(
            f"| {t} | {cm:.4g} | {cs:.2g} | {_bound(s.n_fixed, t):.4g} | {pm:.4g} | {ps:.2g} |"
        )
    lines += [
        "",
        f"Fitted slope of log mean delta_T (clipped) vs log T: {slope_t:+.3f} (spec: about +1, "
        f"tolerance 0.2: {'inside' if ok_t else 'OUTSIDE'}).",
        "",
        f"## 3. Plain vs clipped across {s.datasets} datasets (n = {s.n_fixed}, T = {s.t_fixed}; "
        "neighbour: example 0 -> a fresh draw)",
        "",
        "| method | median | p90 | max | max / median | Spearman with max abs(xi) of S, S' | "
        "Spearman with max abs(xi) of the swapped pair | below S1 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    bound = _bound(s.n_fixed, s.t_fixed)
    summary: dict[str, object] = {"slope_n": slope_n, "slope_t": slope_t}
    for col, name in ((0, "clipped SGD"), (1, "plain SGD")):
        v = ds[:, col]
        rho = float(spearmanr(v, ds[:, 2]).statistic)
        rho_swap = float(spearmanr(v, ds[:, 3]).statistic)
        med = float(np.median(v))
        below = float(np.mean(v <= bound))
        summary[name] = (med, float(v.max()), rho, below)
        lines.append(
            f"| {name} | {med:.4g} | {np.percentile(v, 90):.4g} | {v.max():.4g} | "
            f"{v.max() / med:.3g} | {rho:+.2f} | {rho_swap:+.2f} | {100 * below:.0f}% |"
        )
    lines += [
        "",
        f"S1 bound at n = {s.n_fixed}, T = {s.t_fixed}: {bound:.4g}. Spec 05 §6 expects plain "
        "SGD's stability to be driven by the largest |xi| (heavy-tailed across datasets) and "
        "clipped SGD's to stay below S1; read the Spearman column and the max / median ratios.",
        "",
        f"After the run: {environment_line()}.",
    ]
    out.mkdir(parents=True, exist_ok=True)
    write_table(out / "stability_e1.md", "\n".join(lines) + "\n")
    _plot(s, by_n, by_t, ds, out / "stability_e1.png")
    print("\n".join(lines))
    summary["datasets"] = ds
    return summary


def _plot(s: Settings, by_n: list[tuple[float, float, float, float]],
          by_t: list[tuple[float, float, float, float]], ds: FloatArray, path: Path) -> None:  # fmt: skip
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    for ax, xs, rows, bnd, label, ref_slope in (
        (axes[0], s.ns, by_n, [_bound(n, s.t_fixed) for n in s.ns], "n", -1.0),
        (axes[1], s.ts, by_t, [_bound(s.n_fixed, t) for t in s.ts], "T", 1.0),
    ):
        ax.loglog(xs, [r[0] for r in rows], "o-", label="clipped SGD")
        ax.loglog(xs, [r[2] for r in rows], "s-", label="plain SGD")
        ax.loglog(xs, bnd, "k:", label="S1 bound (clipped)")
        c0 = rows[0][0]
        ax.loglog(xs, [c0 * (x / xs[0]) ** ref_slope for x in xs], "k--", lw=0.8,
                  label=f"slope {ref_slope:+g}")  # fmt: skip
        ax.set_xlabel(label)
        ax.set_ylabel("mean delta_T (coupled runs)")
        ax.legend(fontsize=7)
    axes[0].set_title(f"E1 vs n (T = {s.t_fixed})", fontsize=9)
    axes[1].set_title(f"E1 vs T (n = {s.n_fixed})", fontsize=9)
    axes[2].loglog(ds[:, 3], ds[:, 1], "s", label="plain SGD")
    axes[2].loglog(ds[:, 3], ds[:, 0], "o", label="clipped SGD")
    axes[2].axhline(_bound(s.n_fixed, s.t_fixed), color="k", ls=":", label="S1 bound")
    axes[2].set_xlabel("largest |xi| of the swapped pair")
    axes[2].set_ylabel("mean delta_T per dataset")
    axes[2].set_title(
        "plain SGD follows the largest noise draw; clipped stays below S1", fontsize=9
    )
    axes[2].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description=__doc__).parse_args(argv)
    pin_blas(1)
    run()


if __name__ == "__main__":
    main()
