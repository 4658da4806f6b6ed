"""Spec 08 rate study: mean dist² of the spectral estimator against n, |E|, d - k, γ, and the transition.

Run: ``python -m benchmarks.invariance_rates [--reps 200]``; writes ``benchmarks/results/invariance_rates.md``
and ``invariance_rates.png``.  Base instance d = 6, k = 2, |E| = 16, n = 2000, γ = 2 (label-induced
shift, Hadamard design drifts, random rotation), as in spec 08, Section 4: sweeps of n, |E|, d - k,
k (d = k + 4; issue 34 row 14) and γ at ``reps`` repetitions (spec: 200), the transition grid at
``reps / 2`` (spec: 100), and the γ̂ study of spec 08 §6 (issue 34 row 14): the diagnostic
:func:`reference.invariance.gamma_hat` against the true γ on axis-aligned data (expected monotone), with
the rotated data beside it (where the diagnostic is not meant to work), ``reps / 2`` draws per γ.
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

import numpy as np

from benchmarks._env import environment_line, pin_blas, write_table
from proofs_numeric.invariance import mean_error
from reference import invariance as inv

RESULTS = Path(__file__).resolve().parent / "results"


def _slope(xs: list[float], ys: list[float]) -> float:
    return float(np.polyfit(np.log(xs), np.log(ys), 1)[0])


GAMMAS_HAT = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)


def gamma_hat_study(reps: int, seed: int = 6) -> dict[bool, list[tuple[float, float]]]:
    """``rotate -> [(mean, sd) of gamma_hat]`` over :data:`GAMMAS_HAT` (d 6, k 2, |E| 16, n 2000)."""
    out: dict[bool, list[tuple[float, float]]] = {}
    for rotate in (False, True):
        rng = np.random.default_rng(seed + int(rotate))
        rows = []
        for g in GAMMAS_HAT:
            v = [
                inv.gamma_hat(inv.make_instance(6, 2, 16, 2000, g, rng=rng, rotate=rotate))
                for _ in range(reps)
            ]
            rows.append((float(np.mean(v)), float(np.std(v))))
        out[rotate] = rows
    return out


def main(argv: list[str] | None = None, out: Path = RESULTS) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument(
        "--transition-reps", type=int, default=None, help="transition and γ̂ draws (reps / 2)"
    )
    args = parser.parse_args(argv)
    reps = args.reps
    t_reps = args.transition_reps if args.transition_reps is not None else max(20, reps // 2)
    h_reps = args.transition_reps if args.transition_reps is not None else max(10, reps // 2)
    start = time.perf_counter()
    env0 = environment_line()
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
    ks = [1.0, 2.0, 4.0, 8.0]
    sweeps["k (d = k + 4)"] = (
        ks,
        [mean_error(int(k) + 4, int(k), 16, 2000, 2.0, reps=reps, seed=7) for k in ks],
        1.0,
        "in [0.5, 1.2]",
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
        g: [mean_error(6, 2, 16, int(n), g, reps=t_reps, seed=5) for n in grid]
        for g in (0.5, 1.0, 2.0)
    }
    hat = gamma_hat_study(h_reps)
    elapsed = time.perf_counter() - start

    lines = [
        "# Spec 08: invariant-subspace recovery rates (spectral estimator E2)",
        "",
        f"`python -m benchmarks.invariance_rates --reps {reps}`; {elapsed:.0f} s wall on 2 shared CPU "
        f"cores. Repetitions: {reps} per sweep point (spec 08 §4: 200), {t_reps} per "
        f"transition cell (spec: 100), {h_reps} per γ̂ cell (spec: not set); seeds 1-7 "
        "(one numpy generator per sweep).",
        "",
        f"Before the run: {env0}.",
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
    axis = [m for m, _ in hat[False]]
    monotone = all(b > a for a, b in itertools.pairwise(axis))
    rot = [m for m, _ in hat[True]]
    lines += [
        "",
        "γ̂ study (spec 08 §6: γ̂ against the true γ on axis-aligned data, expected monotone; "
        "d = 6, k = 2, |E| = 16, n = 2000; mean ± sd over draws):",
        "",
        "| γ | " + " | ".join(f"{g:g}" for g in GAMMAS_HAT) + " |",
        "|---|" + "---|" * len(GAMMAS_HAT),
        "| γ̂, axis-aligned | " + " | ".join(f"{m:.3f} ± {sd:.3f}" for m, sd in hat[False]) + " |",
        "| γ̂, rotated (not its use) | "
        + " | ".join(f"{m:.3f} ± {sd:.3f}" for m, sd in hat[True])
        + " |",
        "",
        f"Axis-aligned γ̂ strictly increasing in γ: {'yes' if monotone else 'NO'} "
        "(γ̂ is a median range of correlations, so it saturates below 2 and is not linear in γ; at "
        f"γ = 0 it sits at the sampling floor {axis[0]:.3f}). "
        f"Rotated data: γ̂ runs {rot[0]:.3f} -> {rot[-1]:.3f}, increasing too: "
        f"{'yes' if all(b > a for a, b in itertools.pairwise(rot)) else 'no'}, with a larger "
        "spread over draws. Spec 08 E5 calls the diagnostic meaningful for axis-aligned features; "
        "on this generator (Hadamard drifts, label-induced shift) the rotation does not hide the "
        "drift from the median correlation range, so that caveat does not show here.",
        "",
        f"After the run: {environment_line()}.",
    ]
    out.mkdir(exist_ok=True, parents=True)
    write_table((out / "invariance_rates.md"), "\n".join(lines) + "\n", encoding="utf-8")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 7, figsize=(24, 3.4))
    for ax, (name, (xs, ys, target, _)) in zip(axes[:5], sweeps.items(), strict=True):
        ax.loglog(xs, ys, "o-", label=f"E2 (slope {_slope(xs, ys):+.2f})")
        ref = ys[0] * (np.asarray(xs) / xs[0]) ** target
        ax.loglog(xs, ref, "k--", label=f"slope {target:+g}")
        ax.set_xlabel(name)
        ax.set_ylabel("mean dist²")
        ax.legend(fontsize=7)
    for g, ys in transition.items():
        axes[5].semilogx(grid, ys, "o-", label=f"γ = {g:g}")
    axes[5].axhline(8 / 3, color="k", ls=":", label="random level")
    axes[5].set_xlabel("n per environment")
    axes[5].set_ylabel("mean dist²")
    axes[5].legend(fontsize=7)
    for rotate, style in ((False, "o-"), (True, "s--")):
        axes[6].errorbar(
            GAMMAS_HAT,
            [m for m, _ in hat[rotate]],
            yerr=[sd for _, sd in hat[rotate]],
            fmt=style,
            label="rotated" if rotate else "axis-aligned",
        )
    axes[6].set_xlabel("true γ")
    axes[6].set_ylabel("γ̂ (median correlation range)")
    axes[6].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "invariance_rates.png", dpi=110)
    print("\n".join(lines))


if __name__ == "__main__":
    pin_blas(1)
    main()
