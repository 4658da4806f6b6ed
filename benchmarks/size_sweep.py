"""Issue 20 point 3: how cost grows with size, ours vs the baseline, with fitted exponents.

Three sweeps, each timing ours and the baseline side by side in one process (alternating order
per instance), BLAS pinned to one thread (:mod:`benchmarks._env`):

* **games** (``n x n``, U[-1, 1], gap ``1e-8``): ours = :func:`reference.games.fast.hybrid`
  with :data:`~reference.games.fast.FAST_HYBRID_CONFIG`; baselines = HiGHS IPM on the row
  player's LP (``benchmarks.games_ssn.highs_one_lp``) and PRM+ (alternating, linear averaging,
  the best variant in ``games_ssn.md``) with an iteration cap (``--prm-cap``): a capped run is
  reported as a lower bound (``>``) with the gap it reached, and left out of its fit.  Every
  gap is recomputed from the returned profile by :func:`reference.games.duality_gap`.
* **tsp** (Euclidean, heatmaps G1 and G4 of ``benchmarks.tsp_study``; the "reference tour" of
  G1 is ``two_opt(greedy_merge(D, SoftDist))`` here, cheaper than the study's best of three at
  n = 1000; SoftDist temperature 0.05): ours = best-of-32 thresholds
  (:func:`reference.tsp.fast.sampled_decode`, numba kernels when installed); baseline = greedy
  merge + 2-opt on the same heatmap.
* **qp** (spec 03 §6 family of ``benchmarks.qp_layers_backward``, ``m = 2n + 1``, batch
  ``--qp-batch``): ours = torch ``FFOQPLayer()`` forward + FFO backward; baseline = the same
  layer with ``backward="kkt"`` (dense KKT implicit differentiation, the baseline of
  ``qp_layers_backward.py``), forward + backward.  The gradients of ``q`` are compared
  (cosine similarity).

Exponents: least squares of ``log t`` on ``log n`` over the per-size medians.  The machine is
shared (2 cores): the table records the load average before and after, threads and the BLAS
kernel.

Run: ``python -m benchmarks.size_sweep`` (full: games 100..2000, tsp 50..1000, qp 50..800) or
``--quick`` (small sizes, for a smoke run); ``--only games tsp qp`` picks sweeps.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks._env import environment_line, pin_blas, write_table

RESULTS = Path(__file__).resolve().parent / "results"
Pair = tuple[np.ndarray, np.ndarray]


def fit_exponent(sizes: list[float], seconds: list[float]) -> float:
    """Slope of the least-squares line of ``log seconds`` on ``log sizes`` (``nan`` if < 2 sizes).

    Example:
        >>> round(fit_exponent([10, 20, 40], [1.0, 8.0, 64.0]), 6)
        3.0
    """
    if len(sizes) < 2:
        return math.nan
    x = np.log(np.asarray(sizes, dtype=np.float64))
    y = np.log(np.asarray(seconds, dtype=np.float64))
    slope = np.polyfit(x, y, 1)[0]
    return float(slope)


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


# --------------------------------------------------------------------------------- games
def _cpu_timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of this process (the games sweep: the machine is shared, issue 31)."""
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def crossover(sizes: list[float], ratios: list[float]) -> float | None:
    """Smallest size where ``ratios`` (baseline / ours) reaches 1, interpolated in log-log
    between the two sizes around it; ``None`` if it never crosses (or is >= 1 from the start).

    Example:
        >>> crossover([100, 400], [0.5, 2.0])
        200.0
    """
    for i in range(1, len(sizes)):
        r0, r1 = ratios[i - 1], ratios[i]
        if r0 < 1.0 <= r1:
            t = (0.0 - math.log(r0)) / (math.log(r1) - math.log(r0))
            return float(
                round(math.exp(math.log(sizes[i - 1]) + t * math.log(sizes[i] / sizes[i - 1])), 6)
            )
    return None


def games_sweep(
    sizes: list[int], seeds: dict[int, int], tol: float, prm_cap: int, prm_budget: float
) -> list[dict[str, Any]]:
    """One row per (size, seed): seconds and recomputed gaps of ours, HiGHS IPM and PRM+."""
    from benchmarks.games_ssn import _game, highs_one_lp
    from reference.games import duality_gap, fast, prm_plus

    def ours(a: np.ndarray) -> Pair:
        res = fast.hybrid(a, tol=tol, config=fast.FAST_HYBRID_CONFIG)
        return res.x, res.y

    def prm(a: np.ndarray, cap: int) -> tuple[Pair, bool]:
        res = prm_plus(a, tol=tol, max_iter=cap, alternating=True)
        return (res.x, res.y), bool(res.converged)

    def prm_iterations(a: np.ndarray) -> int:
        """Iteration cap that fits ``prm_budget`` seconds (timed on 300 iterations)."""
        seconds, _ = _timed(partial(prm_plus, a, tol=1e-300, max_iter=300, alternating=True))
        return max(300, min(prm_cap, int(prm_budget * 300 / seconds)))

    rows = []
    for n in sizes:
        for seed in range(seeds.get(n, 1)):
            a = _game("U[-1,1]", f"{n}x{n}", seed)
            cap = prm_iterations(a)
            calls: list[tuple[str, Callable[[], Any]]] = [
                ("ours", partial(ours, a)),
                ("highs", partial(highs_one_lp, a, "highs-ipm")),
                ("prm", partial(prm, a, cap)),
            ]
            if seed % 2:
                calls.reverse()
            row: dict[str, Any] = {"n": n, "seed": seed}
            for name, fn in calls:
                sec, out = _cpu_timed(fn)
                if name == "prm":
                    (x, y), converged = out
                    row["prm_converged"] = converged
                    row["prm_cap"] = cap
                else:
                    x, y = out
                row[f"{name}_s"] = sec
                row[f"{name}_gap"] = duality_gap(a, x, y)
            rows.append(row)
            print(row, flush=True)
    return rows


# ----------------------------------------------------------------------------------- tsp
def tsp_sweep(sizes: list[int], instances: dict[int, int], k: int) -> list[dict[str, Any]]:
    """One row per (size, instance, heatmap): seconds of best-of-k and greedy + 2-opt."""
    from benchmarks.tsp_study import _heatmap
    from reference import tsp
    from reference.tsp import fast as tsp_fast

    warm_rng = np.random.default_rng(12345)  # compile the numba kernels before timing
    _, warm_d = tsp.euclidean_instance(60, rng=warm_rng)
    warm_x = tsp.perturbed_optimum(warm_rng.permutation(60), sigma=0.3, rng=warm_rng)
    tsp_fast.sampled_decode(warm_d, warm_x, k=k, rng=np.random.default_rng(0))

    rows = []
    for n in sizes:
        for index in range(instances.get(n, 1)):
            rng = np.random.default_rng([20, n, index])
            _, distances = tsp.euclidean_instance(n, rng=rng)
            soft = tsp.soft_dist(distances, temperature=0.05)
            ref = np.array(tsp.two_opt(distances, tsp.greedy_merge(distances, soft)).tour)
            for kind in ("G1", "G4"):
                heat = _heatmap(kind, distances, ref, soft, rng)

                def ours(
                    d: np.ndarray = distances, x: np.ndarray = heat, seed: int = n
                ) -> np.ndarray:
                    return tsp_fast.sampled_decode(d, x, k=k, rng=np.random.default_rng([seed, 1]))

                def base(d: np.ndarray = distances, x: np.ndarray = heat) -> np.ndarray:
                    return np.asarray(tsp.two_opt(d, tsp.greedy_merge(d, x)).tour)

                order = [("ours", ours), ("base", base)]
                if index % 2:
                    order.reverse()
                row: dict[str, Any] = {"n": n, "instance": index, "heatmap": kind}
                for name, fn in order:
                    sec, tour = _timed(fn)
                    row[f"{name}_s"] = sec
                    row[f"{name}_len"] = tsp.tour_length(distances, tour)
                rows.append(row)
                print(row, flush=True)
    return rows


# ------------------------------------------------------------------------------------ qp
def qp_sweep(sizes: list[int], batch: int, repeats: int) -> list[dict[str, Any]]:
    """One row per size: forward + backward seconds (medians) of FFO and KKT backward."""
    import torch

    from benchmarks.qp_layers_backward import problem
    from reference.qp_layers import fast_torch as qt

    torch.set_num_threads(1)
    rows = []
    for n in sizes:
        p = problem(n, batch, 20 + n)
        t = {key: torch.tensor(v, dtype=torch.float64) for key, v in p.items()}
        times: dict[str, list[float]] = {"ffo": [], "kkt": []}
        grads: dict[str, torch.Tensor] = {}
        for rep in range(repeats):
            for mode in ("ffo", "kkt") if rep % 2 == 0 else ("kkt", "ffo"):
                layer = qt.FFOQPLayer(alpha=100.0, backward=mode)
                q = t["q"].clone().requires_grad_(True)
                start = time.perf_counter()
                x = layer(t["Q"], q, t["G"], t["h"])
                (x * t["d"]).sum().backward()
                times[mode].append(time.perf_counter() - start)
                assert q.grad is not None
                grads[mode] = q.grad.detach().clone()
        g_f, g_k = grads["ffo"].numpy().ravel(), grads["kkt"].numpy().ravel()
        row = {
            "n": n,
            "ours_s": statistics.median(times["ffo"]),
            "base_s": statistics.median(times["kkt"]),
            "cos_q": float(g_f @ g_k / (np.linalg.norm(g_f) * np.linalg.norm(g_k))),
        }
        rows.append(row)
        print(row, flush=True)
    return rows


# -------------------------------------------------------------------------------- report
def _medians(
    rows: list[dict[str, Any]], key: str, keep: Callable[[dict[str, Any]], bool]
) -> dict[int, float]:
    by_n: dict[int, list[float]] = {}
    for row in rows:
        if keep(row):
            by_n.setdefault(int(row["n"]), []).append(float(row[key]))
    return {n: statistics.median(v) for n, v in sorted(by_n.items())}


def _fit(medians: dict[int, float]) -> str:
    slope = fit_exponent([float(n) for n in medians], list(medians.values()))
    return "n/a" if math.isnan(slope) else f"{slope:.2f}"


def _games_section(
    rows: list[dict[str, Any]], tol: float, prm_budget: float
) -> tuple[list[str], dict[str, dict[int, float]]]:
    lines = [
        "",
        f"## Games: n x n, U[-1, 1], gap {tol:g} (one row per seed; CPU seconds)",
        "",
        "| n | seed | ours s | gap | HiGHS IPM s | gap | PRM+ s | gap | PRM+ cap | HiGHS / ours | PRM+ / ours |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        capped = not r["prm_converged"]
        prm = f"> {r['prm_s']:.2f}" if capped else f"{r['prm_s']:.2f}"
        ratio = f"> {r['prm_s'] / r['ours_s']:.1f}" if capped else f"{r['prm_s'] / r['ours_s']:.1f}"
        lines.append(
            f"| {r['n']} | {r['seed']} | {r['ours_s']:.3f} | {r['ours_gap']:.1e} | "
            f"{r['highs_s']:.3f} | {r['highs_gap']:.1e} | {prm} | {r['prm_gap']:.1e} | {r['prm_cap']} | "
            f"{r['highs_s'] / r['ours_s']:.2f} | {ratio} |"
        )
    curves = {
        "games: ours (fast hybrid)": _medians(rows, "ours_s", lambda r: True),
        "games: HiGHS IPM": _medians(rows, "highs_s", lambda r: True),
        "games: PRM+ (converged runs)": _medians(rows, "prm_s", lambda r: bool(r["prm_converged"])),
    }
    lines += [
        "",
        f"PRM+ cap: the iterations that fit {prm_budget:g} s (timed on 300 iterations of the "
        "instance; the cap column); a capped run (`>`) did not reach the gap in the cap "
        "(its time is a lower bound, its gap column shows where it stopped) and is left out of "
        "the PRM+ fit.",
    ]
    ours, highs = curves["games: ours (fast hybrid)"], curves["games: HiGHS IPM"]
    sizes = sorted(set(ours) & set(highs))
    ratios = [highs[n] / ours[n] for n in sizes]
    point = crossover([float(n) for n in sizes], ratios)
    lines += [
        "",
        "HiGHS / ours on the medians: "
        + ", ".join(f"{r:.2f} at {n}" for n, r in zip(sizes, ratios, strict=True))
        + "; crossover (ours faster from): "
        + (
            f"n ~ {point:.0f} (log-log interpolation)"
            if point is not None
            else ("ours faster at every size" if ratios and ratios[0] >= 1.0 else "none in range")
        ),
    ]
    return lines, curves


def _tsp_section(
    rows: list[dict[str, Any]], k: int
) -> tuple[list[str], dict[str, dict[int, float]]]:
    lines = [
        "",
        f"## TSP: best-of-{k} thresholds (ours) vs greedy merge + 2-opt (medians over instances; seconds)",
        "",
        "| n | heatmap | instances | ours s | greedy + 2-opt s | ours / baseline | ours length / baseline length |",
        "|---|---|---|---|---|---|---|",
    ]
    curves: dict[str, dict[int, float]] = {}
    for kind in ("G1", "G4"):
        mine = [r for r in rows if r["heatmap"] == kind]
        ours = _medians(mine, "ours_s", lambda r: True)
        base = _medians(mine, "base_s", lambda r: True)
        lengths = _medians(
            [{**r, "ratio": r["ours_len"] / r["base_len"]} for r in mine], "ratio", lambda r: True
        )
        for n in ours:
            count = sum(1 for r in mine if r["n"] == n)
            lines.append(
                f"| {n} | {kind} | {count} | {ours[n]:.3f} | {base[n]:.3f} | "
                f"{ours[n] / base[n]:.2f} | {lengths[n]:.3f} |"
            )
        curves[f"tsp {kind}: ours (best-of-{k})"] = ours
        curves[f"tsp {kind}: greedy + 2-opt"] = base
    return lines, curves


def _qp_section(
    rows: list[dict[str, Any]], batch: int, repeats: int
) -> tuple[list[str], dict[str, dict[int, float]]]:
    lines = [
        "",
        f"## QP layer: forward + backward, batch {batch}, medians of {repeats} (seconds)",
        "",
        "| n | m | ours (FFO) s | baseline (KKT) s | KKT / FFO | cos(grad q) |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['n']} | {2 * r['n'] + 1} | {r['ours_s']:.3f} | {r['base_s']:.3f} | "
            f"{r['base_s'] / r['ours_s']:.2f} | {r['cos_q']:.6f} |"
        )
    curves = {
        "qp: ours (FFO fwd+bwd)": _medians(rows, "ours_s", lambda r: True),
        "qp: KKT fwd+bwd": _medians(rows, "base_s", lambda r: True),
    }
    return lines, curves


def _plot(curves: dict[str, dict[int, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [
        p for p in ("games", "tsp G1", "tsp G4", "qp") if any(c.startswith(p) for c in curves)
    ]
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.8), squeeze=False)
    for ax, panel in zip(axes[0], panels, strict=True):
        for name, medians in curves.items():
            if name.startswith(panel) and len(medians) >= 1:
                label = f"{name.split(': ', 1)[1]} (slope {_fit(medians)})"
                ax.loglog(list(medians), list(medians.values()), "o-", label=label)
        ax.set_title(panel)
        ax.set_xlabel("n")
        ax.set_ylabel("seconds")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (smoke run)")
    parser.add_argument("--only", nargs="+", default=["games", "tsp", "qp"])
    parser.add_argument("--tol", type=float, default=1e-8)
    parser.add_argument("--prm-cap", type=int, default=2_000_000)
    parser.add_argument(
        "--prm-budget", type=float, default=60.0, help="seconds per PRM+ run (iteration cap)"
    )
    parser.add_argument("--k", type=int, default=32)
    parser.add_argument("--qp-batch", type=int, default=4)
    parser.add_argument("--qp-repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None, help="default: results/size_sweep[_ONLY]")
    args = parser.parse_args(argv)
    if args.out is None:
        suffix = "" if args.only == ["games", "tsp", "qp"] else "_" + "_".join(args.only)
        args.out = RESULTS / f"size_sweep{suffix}{'_quick' if args.quick else ''}"
    if args.quick:
        game_sizes, game_seeds = [100, 200, 400], {100: 2, 200: 2, 400: 1}
        tsp_sizes, tsp_instances = [50, 100, 200], {50: 2, 100: 2, 200: 1}
        qp_sizes = [50, 100, 200]
    else:
        game_sizes = [50, 100, 200, 500, 1000, 2000]
        game_seeds = {50: 2, 100: 2, 200: 2, 500: 2, 1000: 1, 2000: 1}
        tsp_sizes = [50, 100, 200, 500, 1000]
        tsp_instances = {50: 4, 100: 4, 200: 3, 500: 2, 1000: 1}
        qp_sizes = [50, 100, 200, 400, 800]
    env_before = environment_line()
    start = time.perf_counter()
    sections: list[str] = []
    curves: dict[str, dict[int, float]] = {}
    walls: list[str] = []
    for sweep in args.only:
        t0 = time.perf_counter()
        if sweep == "games":
            lines, more = _games_section(
                games_sweep(game_sizes, game_seeds, args.tol, args.prm_cap, args.prm_budget),
                args.tol,
                args.prm_budget,
            )
        elif sweep == "tsp":
            lines, more = _tsp_section(tsp_sweep(tsp_sizes, tsp_instances, args.k), args.k)
        elif sweep == "qp":
            lines, more = _qp_section(
                qp_sweep(qp_sizes, args.qp_batch, args.qp_repeats), args.qp_batch, args.qp_repeats
            )
        else:
            raise SystemExit(f"--only: unknown sweep {sweep!r}")
        walls.append(f"{sweep} {time.perf_counter() - t0:.0f} s")
        sections += lines
        curves.update(more)
    fits = [
        "",
        "## Fitted exponents (time ~ n^p; least squares on log-log medians)",
        "",
        "| curve | sizes | p |",
        "|---|---|---|",
        *(f"| {name} | {', '.join(map(str, m))} | {_fit(m)} |" for name, m in curves.items()),
    ]
    command = "python -m benchmarks.size_sweep" + (" --quick" if args.quick else "")
    if args.only != ["games", "tsp", "qp"]:
        command += " --only " + " ".join(args.only)
    text = "\n".join(
        [
            "# How cost grows with size: ours vs the baseline (issue 20)",
            "",
            f"Command: `{command}` (PRM+ budget {args.prm_budget:g} s, k {args.k}, qp batch "
            f"{args.qp_batch}); "
            f"wall {time.perf_counter() - start:.0f} s ({'; '.join(walls)}).  At the start: "
            f"{env_before}.  At the end: {environment_line()}.  2 shared cores: absolute "
            "times move with the load, ratios and exponents less (ours and the baseline "
            "alternate per instance).",
            *fits,
            *sections,
            "",
            f"Plot: `{args.out.name}.png`.",
        ]
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_table(args.out.with_suffix(".md"), text + "\n")
    try:
        _plot(curves, args.out.with_suffix(".png"))
    except ImportError:  # pragma: no cover - matplotlib is the [plot] extra
        print("matplotlib missing: no plot")
    print(text)
    return 0


if __name__ == "__main__":
    pin_blas(1)
    raise SystemExit(main())
