"""Spec 13, E1 at CPU size: bias, spread and training-curve oscillation of the RFF estimator vs the
neural critic (B1), the Gram-matrix RKHS critic (B2) and kNN (B3), against the closed form G1.

Spec §6 E1: d in {1, 2, 5, 10} x α in {0.25, 0.5, 0.75} x n = m in {500, 2000, 8000}, 20 seeds,
RFF D = 512 with R in {1, 3, 10}, B1, B2 (n <= 2000), B3, T = 2000.  The defaults are that grid
in full: 36 cells, 20 seeds, RFF R in {1, 3, 10}, B1 and B3 in every cell, B2 in the 24 cells with
n <= 2000.

Pairs: d = 1: N(0, 1) vs N(1, 1) (D_{1/2} = 0.470); d >= 2: N(0, I) vs N((1, 0, ..), diag(2, 0.5,
1, .., 1)) — the spec's d = 2 example plus d - 2 identical nuisance coordinates, so the truth does
not change with d (product measures, G4) and any drift with d is the estimator's.
RFF and B2: held-out halves, mini-batch Armijo-SGD (batch 256, T), median-heuristic bandwidth (B2:
Gaussian kernel, R = 3, anchors = the pooled fitting halves). B1: 2 x 64 tanh MLP, Adam lr 1e-3,
batch 256, T steps. B3: k = 5 on the full samples. Oscillation: sd of the full-sample Ĵ over the
last 500 iterations (RFF, B2) or of the mini-batch objective over the last 500 steps (B1).
The estimators run through :mod:`benchmarks.divergence_fastfit` (the references' rules, batched over
seeds and radii; equal to the references to rounding, gate-tested).  Every estimate depends only on
(d, α, n, seed) and the settings: not on the order, the process or the cache.

Work is split into parts, each a cell's RFF + B1 + B3 or its B2, spread over ``--jobs`` processes;
with ``--cache DIR`` each finished part is kept as a file there and reused by a rerun with the same
settings, so an interrupted run resumes.

Run: ``python -m benchmarks.divergence_e1_grid --cache DIR``; writes
``benchmarks/results/divergence_e1_grid.md`` and ``.png``.
"""

from __future__ import annotations

import argparse
import os
import pickle
import resource
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks import divergence_fastfit as ff
from benchmarks._env import environment_line, pin_blas, write_table
from reference import divergence as dv

RESULTS = Path(__file__).resolve().parent / "results"
SEEDS = 20
ITERATIONS = 2000
FEATURES = 512
TAIL = 500
DIMS = (1, 2, 5, 10)
ALPHAS = (0.25, 0.5, 0.75)
SIZES = (500, 2000, 8000)
RADII = (1.0, 3.0, 10.0)
GRAM_MAX_N = 2000  # spec: B2 only where n <= 2000 (its cost is O((n + m)³))
GRAM_RADIUS = 3.0

#: One part's result: (estimator, estimates over seeds, mean oscillation, CPU seconds).
Record = tuple[str, list[float], float, float]


def gaussian_pair(d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(μ1, Σ1, μ2, Σ2) of the benchmark's pair in dimension ``d``."""
    if d == 1:
        return np.zeros(1), np.eye(1), np.ones(1), np.eye(1)
    mu2 = np.zeros(d)
    mu2[0] = 1.0
    diag = np.ones(d)
    diag[:2] = (2.0, 0.5)
    return np.zeros(d), np.eye(d), mu2, np.diag(diag)


@dataclass(frozen=True)
class Cell:
    """One (d, α, n) setting with the RFF radii to run and whether B2 runs there."""

    d: int
    alpha: float
    n: int
    radii: tuple[float, ...]
    gram: bool


@dataclass(frozen=True)
class Summary:
    cell: Cell
    estimator: str
    truth: float
    values: np.ndarray
    oscillation: float
    seconds: float

    @property
    def bias(self) -> float:
        return float(self.values.mean() - self.truth)

    @property
    def sd(self) -> float:
        return float(self.values.std())

    @property
    def mae(self) -> float:
        return float(np.mean(np.abs(self.values - self.truth)))


def default_cells(
    dims: Iterable[int] = DIMS, alphas: Iterable[float] = ALPHAS, sizes: Iterable[int] = SIZES
) -> list[Cell]:
    """The spec's grid, n-major: every (n, d, α), B2 where n <= 2000."""
    return [
        Cell(d, alpha, n, RADII, n <= GRAM_MAX_N)
        for n in sizes
        for d in dims
        for alpha in alphas
    ]


def draw_pair(cell: Cell, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The cell's samples for ``seed`` (x ~ P, y ~ Q, n each)."""
    m1, s1, m2, s2 = gaussian_pair(cell.d)
    rng = np.random.default_rng([13, 1, cell.d, int(cell.alpha * 100), cell.n, seed])
    return rng.multivariate_normal(m1, s1, size=cell.n), rng.multivariate_normal(m2, s2, size=cell.n)


def truth_of(cell: Cell) -> float:
    """D_α of the cell's pair (G1 closed form)."""
    m1, s1, m2, s2 = gaussian_pair(cell.d)
    return dv.alpha_divergence_gaussian(m1, s1, m2, s2, cell.alpha)


def run_part(
    cell: Cell, part: str, *, seeds: int, iterations: int, features: int, nn_steps: int
) -> list[Record]:
    """``part = "main"``: RFF (every radius), B1 and B3; ``part = "gram"``: B2. CPU seconds."""
    tail = min(TAIL, iterations // 2)
    pairs = [draw_pair(cell, seed) for seed in range(seeds)]
    out: list[Record] = []
    if part == "gram":
        c0 = time.process_time()
        gram = ff.gram_estimate(
            pairs, cell.alpha, seed_rngs=[(seed, 2) for seed in range(seeds)], radius=GRAM_RADIUS,
            iterations=iterations, tail=tail,
        )
        out.append((
            f"B2 Gram RKHS R={GRAM_RADIUS:g}", [g.value_heldout for g in gram],
            float(np.mean([g.oscillation for g in gram])), time.process_time() - c0,
        ))
        return out
    if part != "main":
        raise ValueError(f"unknown part {part!r}")
    c0 = time.process_time()
    rff = ff.rff_radii_estimate(
        pairs, cell.alpha, seed_rngs=[(seed, 1) for seed in range(seeds)], radii=cell.radii,
        num_features=features, iterations=iterations, tail=tail,
    )
    cpu = (time.process_time() - c0) / len(cell.radii)
    for i, radius in enumerate(cell.radii):
        out.append((
            f"RFF D={features} R={radius:g}", [row[i].value_heldout for row in rff],
            float(np.mean([row[i].oscillation for row in rff])), cpu,
        ))
    c0 = time.process_time()
    nn = ff.neural_critic_batch(
        [p[0] for p in pairs], [p[1] for p in pairs], cell.alpha, seeds=list(range(seeds)),
        iterations=nn_steps,
    )
    out.append((
        "B1 neural critic", [float(v) for v in nn.value_heldout],
        float(np.mean(np.std(nn.curves[:, -min(TAIL, nn_steps // 2):], axis=1))),
        time.process_time() - c0,
    ))
    c0 = time.process_time()
    knn = [dv.knn_alpha_divergence(x, y, cell.alpha) for x, y in pairs]
    out.append(("B3 kNN k=5", knn, float("nan"), time.process_time() - c0))
    return out


def parts_of(cell: Cell) -> tuple[str, ...]:
    return ("main", "gram") if cell.gram else ("main",)


def summaries(cell: Cell, records: dict[str, list[Record]]) -> list[Summary]:
    """The cell's rows in table order (RFF radii, B1, B2, B3) from its parts' records."""
    truth = truth_of(cell)
    main = records["main"]
    ordered = main[:-1] + records.get("gram", []) + main[-1:]
    return [Summary(cell, name, truth, np.asarray(vals, dtype=float), osc, sec)
            for name, vals, osc, sec in ordered]


def run_cell(
    cell: Cell, *, seeds: int, iterations: int, features: int, nn_steps: int
) -> list[Summary]:
    """Every estimator of ``cell`` on ``seeds`` sample draws; seconds are CPU seconds."""
    kw = {"seeds": seeds, "iterations": iterations, "features": features, "nn_steps": nn_steps}
    return summaries(cell, {part: run_part(cell, part, **kw) for part in parts_of(cell)})


def cache_name(cell: Cell, part: str, seeds: int, iterations: int, features: int, nn_steps: int) -> str:
    """File name of a part in the cache: every setting the part's estimates depend on."""
    radii = "-".join(f"{r:g}" for r in cell.radii) if part == "main" else f"{GRAM_RADIUS:g}"
    return (f"e1_d{cell.d}_a{cell.alpha:g}_n{cell.n}_{part}_r{radii}_s{seeds}_t{iterations}"
            f"_D{features}_nn{nn_steps}.pkl")


def _worker_init() -> None:
    import torch

    pin_blas(1)
    torch.set_num_threads(1)


def _part_job(args: tuple[Cell, str, int, int, int, int, Path | None]) -> tuple[list[Record], bool]:
    """One part; with a cache folder, reuse its file or write it when done (returns reused?)."""
    cell, part, seeds, iterations, features, nn_steps, cache = args
    path = None
    if cache is not None:
        path = cache / cache_name(cell, part, seeds, iterations, features, nn_steps)
        if path.exists():
            got: list[Record] = pickle.loads(path.read_bytes())
            return got, True
    rows = run_part(cell, part, seeds=seeds, iterations=iterations, features=features,
                    nn_steps=nn_steps)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_bytes(pickle.dumps(rows))
        tmp.replace(path)
    return rows, False


def _priority(cell: Cell, part: str) -> tuple[int, float]:
    """Sort key of a part: every cell's RFF + B1 + B3 before any B2 (an interrupted run then has
    the most cells), the heavier first within each (so the pool's tail is short)."""
    if part == "gram":
        return (1, -(cell.n**3))
    return (0, -cell.n if cell.n != 2000 else 0.0)


def cached_cells(cache: Path, *, seeds: int, iterations: int, features: int, nn_steps: int) -> list[Cell]:
    """The spec's cells whose RFF + B1 + B3 part is in ``cache``; B2 where its part is there too."""
    cells = []
    for cell in default_cells():
        if (cache / cache_name(cell, "main", seeds, iterations, features, nn_steps)).exists():
            gram = cell.gram and (cache / cache_name(cell, "gram", seeds, iterations, features,
                                                     nn_steps)).exists()
            cells.append(Cell(cell.d, cell.alpha, cell.n, cell.radii, gram))
    return cells


def _plot(rows: list[Summary], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(17, 4.8))
    panels = [
        (axes[0], [r for r in rows if r.cell.n == 2000 and r.cell.alpha == 0.5], "d", "sd",
         "dimension d (truth fixed, nuisance coordinates)", "sd of the held-out estimate over seeds",
         "Stability, α = 1/2, n = m = 2000 (claim: RFF below B1)"),
        (axes[1], [r for r in rows if r.cell.d == 2 and r.cell.alpha == 0.5], "n", "mae",
         "n = m", "mean |D̂ − D_α| over seeds", "Accuracy vs sample size, d = 2, α = 1/2"),
        (axes[2], [r for r in rows if r.cell.d == 10 and r.cell.alpha == 0.5], "n", "mae",
         "n = m", "mean |D̂ − D_α| over seeds", "Accuracy vs sample size, d = 10, α = 1/2"),
    ]
    for ax, sel, xkey, ykey, xlabel, ylabel, title in panels:
        for name in dict.fromkeys(r.estimator for r in sel):
            pts = sorted((getattr(r.cell, xkey), getattr(r, ykey)) for r in sel if r.estimator == name)
            if pts:
                ax.plot(*zip(*pts, strict=True), marker="o", label=name)
        ax.set_yscale("log")
        if xkey == "n":
            ax.set_xscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=10)
        if sel:
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _find(rows: list[Summary], cell: Cell, prefix: str) -> Summary | None:
    return next((r for r in rows if r.cell == cell and r.estimator.startswith(prefix)), None)


def _rff(rows: list[Summary], cell: Cell, radius: float) -> Summary | None:
    return next((r for r in rows if r.cell == cell and r.estimator.startswith("RFF D=")
                 and r.estimator.endswith(f"R={radius:g}")), None)


def claim_lines(rows: list[Summary], cells: list[Cell]) -> list[str]:
    """The headline: RFF (R = 3) against each baseline, cell by cell, and the verdict."""
    sizes = sorted({c.n for c in cells})
    lines = ["| RFF R = 3 vs | cells | lower sd | lower sd by n = m | lower MAE | lower abs bias "
             "| lower oscillation |",
             "|---|---|---|---|---|---|---|"]
    verdict: dict[str, tuple[int, int]] = {}
    for label, prefix in (("B1 neural critic", "B1"), ("B2 Gram RKHS", "B2"), ("B3 kNN", "B3")):
        got = [(c, a, b) for c in cells
               if (a := _rff(rows, c, 3.0)) is not None and (b := _find(rows, c, prefix)) is not None]
        sd = sum(a.sd < b.sd for _, a, b in got)
        by_n = ", ".join(
            f"{n}: {sum(a.sd < b.sd for c, a, b in got if c.n == n)}/{sum(c.n == n for c, _, _ in got)}"
            for n in sizes if any(c.n == n for c, _, _ in got)
        )
        mae = sum(a.mae < b.mae for _, a, b in got)
        bias = sum(abs(a.bias) < abs(b.bias) for _, a, b in got)
        osc = "—" if prefix == "B3" else str(sum(a.oscillation < b.oscillation for _, a, b in got))
        verdict[prefix] = (sd, len(got))
        lines.append(f"| {label} | {len(got)} | {sd} | {by_n or '—'} | {mae} | {bias} | {osc} |")
    sd1, n1 = verdict["B1"]
    # how the estimators' bias moves with d (the truth does not), mean over α and n
    dims = sorted({c.d for c in cells})
    bias_rows = ["", "Mean bias over α and n, by d (the truth does not depend on d):", "",
                 "| estimator | " + " | ".join(f"d = {d}" for d in dims) + " |",
                 "|---|" + "---|" * len(dims)]
    names = list(dict.fromkeys(r.estimator for r in rows))
    for name in names:
        vals = []
        for d in dims:
            sel = [r.bias for r in rows if r.estimator == name and r.cell.d == d]
            vals.append(f"{np.mean(sel):+.3f}" if sel else "—")
        bias_rows.append(f"| {name} | " + " | ".join(vals) + " |")
    b1_broken = [r for r in rows if r.estimator.startswith("B1") and abs(r.bias) > 1.0]
    best_mae: dict[str, int] = {}
    for c in cells:
        cand = [r for r in rows if r.cell == c]
        if cand:
            best = min(cand, key=lambda r: r.mae)
            best_mae[best.estimator] = best_mae.get(best.estimator, 0) + 1
    lines += bias_rows
    lines += [
        "",
        "Lowest MAE per cell (all estimators run there): "
        + ", ".join(f"{k} {v}" for k, v in sorted(best_mae.items(), key=lambda kv: -kv[1]))
        + f" (of {sum(best_mae.values())} cells). B1's |bias| exceeds 1 in {len(b1_broken)} of "
        f"{sum(1 for r in rows if r.estimator.startswith('B1'))} cells.",
        "",
        f"Spec's expectation (the paper's claim: the RKHS-ball RFF critic is more stable than other critic "
        f"representations; the spec: RFF has a lower sd over seeds than B1): RFF R = 3 has the lower sd in "
        f"{sd1} of {n1} cells. "
        + ("Agrees on spread in every cell." if sd1 == n1 else
           "Does NOT agree in every cell: see the rows where B1's sd is lower.")
        + " Spread is not accuracy: R bounds the critic, so a small R underestimates (R = 1 rows), and "
        "the bias by d above shows how the RFF estimates move with the nuisance dimension. B1's "
        "oscillation is that of its mini-batch objective, RFF's and B2's that of the full-sample Ĵ (as "
        "the spec defines it for the Armijo runs), so that column favours RFF by construction in part.",
    ]
    return lines


def setting_line(cells: list[Cell], *, seeds: int, iterations: int, features: int, nn_steps: int) -> str:
    """The spec's setting, this run's, and what (if anything) is reduced."""
    spec = default_cells()
    have = {(c.d, c.alpha, c.n) for c in cells}
    missing = [c for c in spec if (c.d, c.alpha, c.n) not in have]
    no_gram = [c for c in cells if c.n <= GRAM_MAX_N and not c.gram]
    reductions = []
    if seeds != SEEDS:
        reductions.append(f"{seeds} seeds (spec: {SEEDS})")
    if iterations != ITERATIONS:
        reductions.append(f"T = {iterations} (spec: {ITERATIONS})")
    if features != FEATURES:
        reductions.append(f"D = {features} (spec: {FEATURES})")
    if missing:
        reductions.append(f"{len(cells)} of the spec's {len(spec)} cells (missing (d, α, n): "
                          + ", ".join(f"({c.d}, {c.alpha:g}, {c.n})" for c in missing) + ")")
    if any(c.radii != RADII for c in cells):
        reductions.append("RFF radii other than {1, 3, 10} in some cells")
    if no_gram:
        reductions.append(f"B2 not run in {len(no_gram)} cells with n <= {GRAM_MAX_N}")
    status = ("**full**" if not reductions else "**reduced**: " + "; ".join(reductions))
    return (
        "**Spec's setting (§6 E1) → this run.** d ∈ {1, 2, 5, 10} × α ∈ {0.25, 0.5, 0.75} × n = m ∈ "
        "{500, 2000, 8000}, 20 seeds, RFF D = 512 with R ∈ {1, 3, 10}, B1, B2 (n ≤ 2000), B3, T = 2000 "
        f"→ {status}. This run: {len(cells)} cells, {seeds} seeds, T = {iterations}, D = {features}; "
        f"B2 (Gram RKHS, Gaussian kernel, R = {GRAM_RADIUS:g}) in {sum(c.gram for c in cells)} cells. "
        f"B1: 2×64 tanh MLP, Adam 1e-3, batch 256, {nn_steps} steps. Seeds 0..{seeds - 1}; RFF and B2 "
        "use generator seeds [seed, 1] and [seed, 2], B1 seed `seed`, data [13, 1, d, 100α, n, seed]."
    )


def run(
    cells: list[Cell],
    *,
    seeds: int,
    iterations: int = ITERATIONS,
    features: int = FEATURES,
    nn_steps: int = ITERATIONS,
    jobs: int = 1,
    cache: Path | None = None,
    command: str,
    out: Path | None,
    note: str = "",
    log: Callable[[str], None] = print,
) -> tuple[list[Summary], str]:
    """Run every cell's parts (over ``jobs`` processes); write the table and plot under ``out``."""
    env0, t0 = environment_line(), time.perf_counter()
    c0 = time.process_time()
    k0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    tasks = [(cell, part, seeds, iterations, features, nn_steps, cache)
             for cell in cells for part in parts_of(cell)]
    order = sorted(range(len(tasks)), key=lambda i: _priority(tasks[i][0], tasks[i][1]))
    results: dict[int, tuple[list[Record], bool]] = {}
    loads: list[float] = []

    def report(i: int) -> None:
        cell, part = tasks[i][0], tasks[i][1]
        recs, reused = results[i]
        if not reused:
            loads.append(os.getloadavg()[0])
        log(f"[{len(results)}/{len(tasks)}] d={cell.d} a={cell.alpha:g} n={cell.n} {part}"
            f"{' (cache)' if reused else ''}: " + "; ".join(f"{name} {np.mean(v):+.4f} ({sec:.0f} s)"
                                                          for name, v, _, sec in recs))

    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init) as pool:
            futures = {pool.submit(_part_job, tasks[i]): i for i in order}
            for fut in as_completed(futures):
                results[futures[fut]] = fut.result()
                report(futures[fut])
    else:
        _worker_init()
        for i in order:
            results[i] = _part_job(tasks[i])
            report(i)
    by_cell: dict[Cell, dict[str, list[Record]]] = {}
    for i, task in enumerate(tasks):
        by_cell.setdefault(task[0], {})[task[1]] = results[i][0]
    rows = [r for cell in cells for r in summaries(cell, by_cell[cell])]
    reused = sum(results[i][1] for i in results)
    k1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0 + (k1.ru_utime + k1.ru_stime) - (k0.ru_utime + k0.ru_stime)
    load_note = (f"; 1-minute load average when computed parts finished: {min(loads):.1f} to {max(loads):.1f}"
                 if loads else "")
    lines = [
        "# Spec 13, E1: estimator bias, spread and oscillation (RFF vs B1, B2, B3)",
        "",
        f"`{command}` ({wall:.0f} s wall, {cpu:.0f} s CPU over {jobs} process(es) in the last invocation, "
        f"{len(tasks) - reused} of {len(tasks)} parts computed there, {reused} reused from the cache"
        f"{load_note}; {sum(r.seconds for r in rows):.0f} s CPU summed over the rows, reused parts "
        "included)." + (f" {note}" if note else ""),
        "",
        setting_line(cells, seeds=seeds, iterations=iterations, features=features, nn_steps=nn_steps),
        "",
        "Truth: G1 closed form. For d ≥ 2 the pair is the spec's d = 2 example plus identical nuisance "
        "coordinates (truth independent of d). sd = population sd over seeds; MAE = mean |D̂ − D_α|; "
        "oscillation = sd of the objective over the last 500 iterations, mean over seeds. "
        "CPU s = CPU seconds for all seeds, in the process that computed the part (RFF: the shared run "
        "of the three radii, divided by 3).",
        "",
        f"Before the run: {env0}.",
        "",
        "| d | α | n = m | true D_α | estimator | bias | sd | MAE | curve oscillation | CPU s (all seeds) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        osc = "—" if np.isnan(r.oscillation) else f"{r.oscillation:.4f}"
        lines.append(
            f"| {r.cell.d} | {r.cell.alpha:g} | {r.cell.n} | {r.truth:.4f} | {r.estimator} | "
            f"{r.bias:+.4f} | {r.sd:.4f} | {r.mae:.4f} | {osc} | {r.seconds:.1f} |"
        )
    lines += ["", "## Headline: RFF (R = 3) against each baseline, cells won", ""]
    lines += claim_lines(rows, cells)
    lines += ["", f"After the run ({wall:.0f} s wall): {environment_line()}."]
    text = "\n".join(lines) + "\n"
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        write_table(out / "divergence_e1_grid.md", text)
        _plot(rows, out / "divergence_e1_grid.png")
    return rows, text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=SEEDS)
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--jobs", type=int, default=2, help="processes (results do not depend on it)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="folder of finished parts (reused on a rerun; results do not depend on it)")
    parser.add_argument("--cached-only", action="store_true",
                        help="write the table from the parts already in --cache only (an unfinished "
                             "run: the header lists the cells and B2 parts left out)")
    parser.add_argument("--note", default="", help="a sentence for the header (e.g. where reused parts "
                        "of the cache came from)")
    args = parser.parse_args()
    command = (
        f"python -m benchmarks.divergence_e1_grid --seeds {args.seeds} --iterations {args.iterations} "
        f"--jobs {args.jobs}" + (" --cache DIR" if args.cache is not None else "")
        + (" --cached-only" if args.cached_only else "")
    )
    settings = {"seeds": args.seeds, "iterations": args.iterations, "features": FEATURES,
                "nn_steps": args.iterations}
    if args.cached_only:
        if args.cache is None:
            parser.error("--cached-only needs --cache")
        cells = cached_cells(args.cache, **settings)
    else:
        cells = default_cells()
    _, text = run(cells, jobs=args.jobs, cache=args.cache, command=command, out=RESULTS, note=args.note,
                  **settings)
    print(text)


if __name__ == "__main__":
    pin_blas(1)
    main()
