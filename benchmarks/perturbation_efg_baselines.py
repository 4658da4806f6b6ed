"""Spec 19 §6/§8: the six dilated methods and CFR baselines on Kuhn and Leduc, and simplex paths.

Adds what ``perturbation_paper`` lacks (issue 34, row 6) without OpenSpiel, which this machine does
not have: Kuhn and Leduc poker are built by :func:`reference.extensive.kuhn_poker` /
:func:`reference.extensive.leduc_poker`; baselines are our CFR and CFR+ (average plans,
:mod:`reference.extensive.cfr`); DCFR / LCFR and Goofspiel-4 need OpenSpiel and are not re-run here.

Methods and step sizes (spec 19 §8, Table 4 for Kuhn): AsymP-DGDA η = 0.1, μ = 0.01 and SymP-DGDA
η = 0.05, μ = 0.001 (official per-information-set update, ``variant="official"``); DGDA 0.01
(alternating); DMWU 0.01, DOMWU 0.1, DOGDA 0.1 (our simultaneous dilated forms, spec 19 §3.6: the
official baselines' exact update order was not checked against LiteEFG).  Table 4 gives no Leduc
settings: Leduc uses Kuhn's.  NashConv is ours (sequence form) for the last iterate (DGDA family)
and for the average plan (CFR family).

Normal form: the x-player's (and y-player's) path in the simplex on biased RPS (``A = -P``), η =
0.01, μ = 1, official alternating order, one Dirichlet(1) start, for AsymP-GDA, SymP-GDA, GDA and
OGDA; the path's last point is checked against the reference functions.

Run: ``python -m benchmarks.perturbation_efg_baselines`` (defaults = the committed run); writes
``benchmarks/results/perturbation_efg_baselines.md`` and ``perturbation_efg_*.png``.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks._env import pin_blas, write_table
from benchmarks.perturbation_paper import _proj_rows
from reference import extensive as efg
from reference import perturbation as pert
from reference._arrays import FloatArray

OUT = Path(__file__).resolve().parent / "results"
EQ_RPS = np.array([0.2, 0.6, 0.2])

#: (η, μ) per method (spec 19 §8, Table 4, Kuhn).
METHODS: dict[str, tuple[float, float]] = {
    "AsymP-DGDA": (0.1, 0.01),
    "SymP-DGDA": (0.05, 0.001),
    "DGDA": (0.01, 0.0),
    "DMWU": (0.01, 0.0),
    "DOMWU": (0.1, 0.0),
    "DOGDA": (0.1, 0.0),
}


@dataclass(frozen=True, slots=True)
class Settings:
    kuhn_iters: int = 100_000
    leduc_iters: int = 5000
    kuhn_cfr: int = 10_000
    leduc_cfr: int = 1000
    path_iters: int = 20_000
    seed: int = 2026


def run_method(game: efg.SequenceFormGame, name: str, iters: int) -> FloatArray:
    """NashConv history ``t = 0..iters`` of one dilated method at its Table 4 setting."""
    step_size, mu = METHODS[name]
    if name == "AsymP-DGDA":
        r = efg.asymp_dgda(
            game, mu=mu, step_size=step_size, max_iter=iters, tol=None, variant="official"
        )
    elif name == "SymP-DGDA":
        r = efg.symp_dgda(
            game, mu=mu, step_size=step_size, max_iter=iters, tol=None, variant="official"
        )
    elif name == "DGDA":
        r = efg.dgda(game, step_size=step_size, max_iter=iters, tol=None)
    elif name == "DMWU":
        r = efg.dmwu(game, step_size=step_size, max_iter=iters, tol=None)
    elif name == "DOMWU":
        r = efg.dmwu(game, step_size=step_size, max_iter=iters, tol=None, optimistic=True)
    else:
        r = efg.dogda(game, step_size=step_size, max_iter=iters, tol=None)
    return np.asarray(r.history, dtype=np.float64)


def cfr_curve(game: efg.SequenceFormGame, plus: bool, iters: int) -> tuple[FloatArray, FloatArray]:
    """NashConv of the average plan at 10, 100, ... up to ``iters`` (one fresh run per point)."""
    checks = [10**k for k in range(1, 8) if 10**k < iters] + [iters]
    f = efg.cfr_plus if plus else efg.cfr
    vals = [f(game, iterations=t).nash_conv for t in checks]
    return np.array(checks, dtype=np.float64), np.array(vals)


def simplex_path(
    method: str, a: FloatArray, x0: FloatArray, y0: FloatArray, iters: int
) -> tuple[FloatArray, FloatArray]:
    """Iterates ``(x_t, y_t)`` of the official alternating runner (η = 0.01, μ = 1); for AsymP-GDA
    the x run's x and the mirrored run's y (the pair the method outputs)."""
    step_size, mu = pert.OFFICIAL.step_size, pert.OFFICIAL.mu
    xa, ya, xb, yb = x0[None].copy(), y0[None].copy(), x0[None].copy(), y0[None].copy()
    xh, yh = xa.copy(), ya.copy()
    xs, ys = [x0.copy()], [y0.copy()]
    for _ in range(iters):
        if method == "AsymP-GDA":
            xa = _proj_rows(xa - step_size * (ya @ a.T + mu * xa))
            ya = _proj_rows(ya + step_size * (xa @ a))
            xb = _proj_rows(xb - step_size * (yb @ a.T))
            yb = _proj_rows(yb + step_size * (xb @ a - mu * yb))
            xs.append(xa[0])
            ys.append(yb[0])
            continue
        if method == "SymP-GDA":
            xa = _proj_rows(xa - step_size * (ya @ a.T + mu * xa))
            ya = _proj_rows(ya + step_size * (xa @ a - mu * ya))
        elif method == "GDA":
            xa = _proj_rows(xa - step_size * (ya @ a.T))
            ya = _proj_rows(ya + step_size * (xa @ a))
        else:  # OGDA, official two-sequence form
            gx = -(ya @ a.T)
            xh = _proj_rows(xh + step_size * gx)
            xa = _proj_rows(xh + step_size * gx)
            gy = xa @ a
            yh = _proj_rows(yh + step_size * gy)
            ya = _proj_rows(yh + step_size * gy)
        xs.append(xa[0])
        ys.append(ya[0])
    return np.array(xs), np.array(ys)


def reference_endpoint(
    method: str, a: FloatArray, x0: FloatArray, y0: FloatArray, iters: int
) -> tuple[FloatArray, FloatArray]:
    """The same run through :mod:`reference.perturbation` (the check of :func:`simplex_path`)."""
    kw: dict[str, Any] = {
        "step_size": pert.OFFICIAL.step_size,
        "max_iter": iters,
        "tol": None,
        "x0": x0,
        "y0": y0,
    }
    if method == "AsymP-GDA":
        r = pert.asymp_gda(a, mu=pert.OFFICIAL.mu, **kw)
    elif method == "SymP-GDA":
        r = pert.symp_gda(a, mu=pert.OFFICIAL.mu, **kw)
    elif method == "GDA":
        r = pert.gda(a, **kw)
    else:
        r = pert.ogda(a, **kw)
    return np.asarray(r.x), np.asarray(r.y)


def _bary(p: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Barycentric to the plane: vertices (0, 0), (1, 0), (1/2, √3/2) for actions 1, 2, 3."""
    return p[:, 1] + 0.5 * p[:, 2], (np.sqrt(3) / 2) * p[:, 2]


def _fmt(v: float) -> str:
    return f"{v:.2e}"


def run(s: Settings, out: Path = OUT) -> dict[str, dict[str, float]]:
    """Every table and plot; returns ``{game: {method: last NashConv}}``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t_all = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    lines = [
        "# Spec 19: dilated methods with every baseline on Kuhn and Leduc, and simplex paths",
        "",
        "Generated by `python -m benchmarks.perturbation_efg_baselines` (single process, "
        "OPENBLAS/OMP/MKL_NUM_THREADS=1, shared 2-core machine). Reduced: the paper runs 1e6 "
        f"iterations; here Kuhn {s.kuhn_iters} (CFR family {s.kuhn_cfr}), Leduc {s.leduc_iters} "
        f"(CFR family {s.leduc_cfr}). No OpenSpiel here: games from `reference.extensive`, "
        "baselines CFR and CFR+ (ours); DCFR, LCFR and Goofspiel-4 stay in `perturbation_paper.md`. "
        "Step sizes: Table 4's Kuhn settings (spec 19 §8), used for Leduc too (Table 4 has no Leduc "
        "row). DMWU, DOMWU, DOGDA: our simultaneous dilated forms (spec 19 §3.6).",
        "",
    ]
    finals: dict[str, dict[str, float]] = {}
    for title, game, iters, cfr_iters in (
        ("Kuhn poker", efg.kuhn_poker(), s.kuhn_iters, s.kuhn_cfr),
        ("Leduc poker", efg.leduc_poker(), s.leduc_iters, s.leduc_cfr),
    ):
        value = efg.solve_lp(game).value
        marks = [10**k for k in range(1, 8) if 10**k < iters]
        lines += [
            f"## {title}",
            "",
            f"{game.x_space.n_sequences} x {game.y_space.n_sequences} sequences, "
            f"{game.x_space.n_infosets} + {game.y_space.n_infosets} information sets, value "
            f"{value:.6f} (LP).",
            "",
            "| method | η, μ | iterations | NashConv at "
            + " / ".join(f"{m:g}" for m in marks)
            + " / last | min over the run | seconds |",
            "|---|---|---|---|---|---|",
        ]
        finals[title] = {}
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for name, (step_size, mu) in METHODS.items():
            t0 = time.perf_counter()
            h = run_method(game, name, iters)
            sec = time.perf_counter() - t0
            pts = " / ".join(_fmt(float(h[m])) for m in marks) + f" / {_fmt(float(h[-1]))}"
            lines.append(
                f"| {name} (last iterate) | {step_size}, {mu} | {iters} | {pts} | {_fmt(float(h.min()))} | {sec:.0f} |"
            )
            finals[title][name] = float(h[-1])
            grid = np.unique(np.geomspace(1, iters, 400).astype(int))
            ax.plot(grid, np.maximum(h[grid], 1e-16), label=f"{name} (last iterate)")
            print(f"{title} {name}: {sec:.1f} s", flush=True)
        for plus in (False, True):
            name = "CFR+" if plus else "CFR"
            t0 = time.perf_counter()
            checks, vals = cfr_curve(game, plus, cfr_iters)
            sec = time.perf_counter() - t0
            at = dict(zip(checks.astype(int).tolist(), vals.tolist(), strict=True))
            pts = (
                " / ".join(_fmt(at[m]) if m in at else "—" for m in marks)
                + f" / {_fmt(float(vals[-1]))}"
            )
            lines.append(
                f"| {name} (average) | — | {cfr_iters} | {pts} | {_fmt(float(vals.min()))} | {sec:.0f} |"
            )
            finals[title][name] = float(vals[-1])
            ax.plot(checks, np.maximum(vals, 1e-16), "o--", label=f"{name} (average)")
            print(f"{title} {name}: {sec:.1f} s", flush=True)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("iterations")
        ax.set_ylabel("NashConv")
        ax.set_title(f"{title}: claim: AsymP-DGDA's last iterate converges", fontsize=9)
        ax.legend(fontsize=7)
        fig.tight_layout()
        slug = title.split()[0].lower()
        fig.savefig(out / f"perturbation_efg_{slug}.png", dpi=110)
        plt.close(fig)
        lines += ["", f"![{title}](perturbation_efg_{slug}.png)", ""]

    a = np.asarray(pert.biased_rps())
    x0s, y0s = pert.dirichlet_starts(a.shape, trials=1, rng=np.random.default_rng(s.seed))
    x0, y0 = np.asarray(x0s)[0], np.asarray(y0s)[0]
    lines += [
        "## Normal form: paths in the simplex, biased RPS (A = -P)",
        "",
        f"η = 0.01, μ = 1, {s.path_iters} iterations, one Dirichlet(1) start "
        f"(`default_rng({s.seed})`), official alternating order. Equilibrium (1/5, 3/5, 1/5).",
        "",
        "| method | distance of the last x to x* | of the last y to y* | max \\|path end - reference\\| |",
        "|---|---|---|---|",
    ]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.6))
    tri = np.array([[0, 0], [1, 0], [0.5, np.sqrt(3) / 2], [0, 0]])
    for k, method in enumerate(("AsymP-GDA", "SymP-GDA", "GDA", "OGDA")):
        xs, ys = simplex_path(method, a, x0, y0, s.path_iters)
        rx, ry = reference_endpoint(method, a, x0, y0, s.path_iters)
        err = max(float(np.max(np.abs(xs[-1] - rx))), float(np.max(np.abs(ys[-1] - ry))))
        lines.append(
            f"| {method} | {_fmt(float(np.linalg.norm(xs[-1] - EQ_RPS)))} | "
            f"{_fmt(float(np.linalg.norm(ys[-1] - EQ_RPS)))} | {_fmt(err)} |"
        )
        for ax, path in zip(axes, (xs, ys), strict=True):
            u, v = _bary(path)
            ax.plot(u, v, lw=0.8, color=f"C{k}", label=method)
            ax.plot(u[-1:], v[-1:], "o", color=f"C{k}", ms=4)
    for ax, who in zip(axes, ("x (minimiser)", "y (maximiser)"), strict=True):
        ax.plot(tri[:, 0], tri[:, 1], "k-", lw=0.6)
        eu, ev = _bary(EQ_RPS[None])
        ax.plot(eu, ev, "k*", ms=10, label="equilibrium")
        ax.set_xlabel("barycentric u (vertices: action 1 left, 2 right, 3 top)")
        ax.set_ylabel("barycentric v")
        ax.set_aspect("equal")
        ax.set_title(f"biased RPS, {who}: claim: AsymP-GDA's last iterate reaches x*", fontsize=8)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "perturbation_efg_simplex.png", dpi=110)
    plt.close(fig)
    lines += [
        "",
        "![simplex paths](perturbation_efg_simplex.png)",
        "",
        f"Total wall time: {time.perf_counter() - t_all:.0f} s.",
        "",
    ]
    write_table(out / "perturbation_efg_baselines.md", "\n".join(lines))
    print("\n".join(lines))
    return finals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    d = Settings()
    parser.add_argument("--kuhn-iters", type=int, default=d.kuhn_iters)
    parser.add_argument("--leduc-iters", type=int, default=d.leduc_iters)
    args = parser.parse_args()
    run(Settings(kuhn_iters=args.kuhn_iters, leduc_iters=args.leduc_iters))


if __name__ == "__main__":
    pin_blas(1)
    main()
