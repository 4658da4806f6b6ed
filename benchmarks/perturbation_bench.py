"""Last-iterate NashConv of AsymP-GDA/AsymP-DGDA against the baselines (spec 19 §6).

Run: ``.venv/bin/python -m benchmarks.perturbation_bench [--leduc-iterations N]``.
Writes ``benchmarks/results/perturbation_table.md`` and ``perturbation_*.png``.

The x-axis counts strategy updates per player: one AsymP iteration advances two runs
(x side and mirrored y side), so it counts 2; every baseline iteration counts 1 (the
paper's fairness convention, spec 19 §3.3).  Iteration counts, not seconds, are compared.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from benchmarks._env import pin_blas, write_table
from reference import extensive as efg
from reference import perturbation as pert
from reference._arrays import FloatArray

OUT = Path(__file__).resolve().parent / "results"
BRPS = np.array([[0.0, -1.0, 3.0], [1.0, 0.0, -1.0], [-3.0, 1.0, 0.0]])


def _first_below(history: FloatArray, level: float, per_iteration: int) -> str:
    hits = np.nonzero(history <= level)[0]
    return str(int(hits[0]) * per_iteration) if hits.size else "not reached"


def _steps(history: FloatArray, per: int) -> FloatArray:
    return np.arange(len(history), dtype=np.float64) * per


def _plot(name: str, curves: dict[str, tuple[FloatArray, FloatArray]], title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    for label, (xs, ys) in curves.items():
        ax.plot(xs, np.maximum(ys, 1e-16), label=label)
    ax.set_yscale("log")
    ax.set_xlabel("strategy updates per player")
    ax.set_ylabel("last-iterate NashConv")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(OUT / f"perturbation_{name}.png", dpi=110)
    plt.close(fig)


def matrix_rows(lines: list[str]) -> None:
    iters = 10_000
    runs = {
        "AsymP-GDA μ=1": (pert.asymp_gda(BRPS, mu=1.0, max_iter=iters // 2, tol=None), 2),
        "SymP-GDA μ=1": (pert.symp_gda(BRPS, mu=1.0, max_iter=iters, tol=None), 1),
        "SymP-GDA μ=0.01": (pert.symp_gda(BRPS, mu=0.01, max_iter=iters, tol=None), 1),
        "GDA": (pert.gda(BRPS, max_iter=iters, tol=None), 1),
        "OGDA": (pert.ogda(BRPS, max_iter=iters, tol=None), 1),
        "OMWU": (pert.omwu(BRPS, max_iter=iters, tol=None), 1),
    }
    lines += [
        "## Biased RPS (3 x 3), 10^4 strategy updates per player",
        "",
        "| method | final NashConv | updates to NashConv <= 1e-8 |",
        "|---|---|---|",
    ]
    curves = {}
    for name, (res, per) in runs.items():
        lines.append(f"| {name} | {res.nash_conv:.3e} | {_first_below(res.history, 1e-8, per)} |")
        curves[name] = (_steps(res.history, per), np.asarray(res.history))
    _plot("brps", curves, "Biased RPS")

    lines += [
        "",
        "## Random U[-1, 1] 10 x 15 games (5 seeds): strategy updates to NashConv <= 1e-8",
        "",
        "| seed | parameter-free AsymP-GDA | AsymP-GDA μ=0.05 | OGDA | OMWU | SymP-GDA μ=0.05 |"
        " SymP-GDA μ=0.005 |",
        "|---|---|---|---|---|---|---|",
    ]
    rng = np.random.default_rng(2026)
    curves = {}
    for seed in range(5):
        a = rng.uniform(-1.0, 1.0, size=(10, 15))
        free = pert.parameter_free(a, tol=1e-8)
        asym = pert.asymp_gda(a, mu=0.05, max_iter=20_000, tol=None)
        og = pert.ogda(a, max_iter=40_000, tol=1e-8)
        om = pert.omwu(a, max_iter=40_000, tol=1e-8)
        sy = pert.symp_gda(a, mu=0.05, max_iter=40_000, tol=None)
        sy2 = pert.symp_gda(a, mu=0.005, max_iter=40_000, tol=None)
        lines.append(
            f"| {seed} | {2 * free.iterations if free.converged else 'not reached'} | "
            f"{_first_below(asym.history, 1e-8, 2)} | {_first_below(og.history, 1e-8, 1)} | "
            f"{_first_below(om.history, 1e-8, 1)} | {_first_below(sy.history, 1e-8, 1)} "
            f"(final {sy.nash_conv:.1e}) | {_first_below(sy2.history, 1e-8, 1)} "
            f"(final {sy2.nash_conv:.1e}) |"
        )
        if seed == 0:
            curves = {
                "AsymP-GDA μ=0.05": (_steps(asym.history, 2), np.asarray(asym.history)),
                "SymP-GDA μ=0.05": (_steps(sy.history, 1), np.asarray(sy.history)),
                "SymP-GDA μ=0.005": (_steps(sy2.history, 1), np.asarray(sy2.history)),
                "OGDA": (_steps(og.history, 1), np.asarray(og.history)),
                "OMWU": (_steps(om.history, 1), np.asarray(om.history)),
            }
    _plot("random", curves, "random 10 x 15 game (seed 0)")


def kuhn_rows(lines: list[str]) -> None:
    game = efg.kuhn_poker()
    iters = 10_000
    runs = {
        "AsymP-DGDA μ=0.01": (efg.asymp_dgda(game, mu=0.01, max_iter=iters // 2, tol=None), 2),
        "AsymP-DGDA μ=0.001": (efg.asymp_dgda(game, mu=0.001, max_iter=iters // 2, tol=None), 2),
        "SymP-DGDA μ=0.01": (efg.symp_dgda(game, mu=0.01, max_iter=iters, tol=None), 1),
        "DGDA": (efg.dgda(game, max_iter=iters, tol=None), 1),
        "DOGDA": (efg.dogda(game, max_iter=iters, tol=None), 1),
        "DMWU": (efg.dmwu(game, max_iter=iters, tol=None), 1),
        "DOMWU": (efg.dmwu(game, max_iter=iters, tol=None, optimistic=True), 1),
    }
    lines += [
        "",
        f"## Kuhn poker (LP value {efg.solve_lp(game).value:.12f}; -1/18 = {-1 / 18:.12f}), "
        "10^4 strategy updates per player",
        "",
        "| method | final NashConv | min NashConv over last 10% | updates to NashConv <= 1e-10 |",
        "|---|---|---|---|",
    ]
    curves = {}
    for name, (res, per) in runs.items():
        tail = float(np.min(res.history[-len(res.history) // 10 :]))
        lines.append(
            f"| {name} | {res.nash_conv:.3e} | {tail:.3e} | "
            f"{_first_below(res.history, 1e-10, per)} |"
        )
        curves[name] = (_steps(res.history, per), np.asarray(res.history))
    _plot("kuhn", curves, "Kuhn poker (sequence form)")


def leduc_rows(lines: list[str], iterations: int) -> None:
    game = efg.leduc_poker()
    start = time.perf_counter()
    sol = efg.solve_lp(game)
    lp_seconds = time.perf_counter() - start
    res = efg.asymp_dgda(game, mu=0.001, max_iter=iterations, tol=None)
    lines += [
        "",
        f"## Leduc poker ({game.x_space.n_sequences} x {game.y_space.n_sequences} sequences, "
        f"{game.x_space.n_infosets} + {game.y_space.n_infosets} information sets)",
        "",
        f"- sequence-form LP value (player 1): {sol.value:.12f} (dual LP {sol.dual_value:.12f}; "
        f"{lp_seconds:.2f} s)",
        f"- AsymP-DGDA μ=0.001, η=1/||A||_2: NashConv {res.history[0]:.3e} -> "
        f"{res.nash_conv:.3e} after {iterations} iterations ({2 * iterations} updates)",
    ]
    _plot(
        "leduc",
        {"AsymP-DGDA μ=0.001": (_steps(res.history, 2), np.asarray(res.history))},
        "Leduc poker",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--leduc-iterations", type=int, default=1000)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    lines = [
        "# Asymmetric perturbation (spec 19): last-iterate NashConv",
        "",
        "Generated by `python -m benchmarks.perturbation_bench`; counts are strategy updates",
        "per player (AsymP: 2 per iteration, for its two runs). Default step sizes:",
        "1/(μ + ||A||_2) (GDA family), 1/(2||A||_2) (OGDA), 1/(8 max|a|) (OMWU), 1/||A||_2 (EFG).",
        "",
    ]
    matrix_rows(lines)
    kuhn_rows(lines)
    leduc_rows(lines, args.leduc_iterations)
    write_table((OUT / "perturbation_table.md"), "\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    pin_blas(1)
    main()
