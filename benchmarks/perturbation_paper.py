"""The paper's experiments re-run with the official settings (spec 19 §8).

Run: ``.venv/bin/python -m benchmarks.perturbation_paper [--quick]`` (needs the ``[openspiel]``
and ``[plot]`` extras for the extensive-form part and the plots).  Writes
``benchmarks/results/perturbation_paper.md`` and ``perturbation_paper_*.png``.

Normal form: biased RPS and M-Ne as ``A = -P``; AsymP-GDA, SymP-GDA, GDA, OGDA in the
official runner's form (alternating, x first in both runs; two-sequence OGDA) with
:data:`reference.perturbation.OFFICIAL` (η = 0.01, μ = 1, 1e5 iterations, 100 Dirichlet(1)
starts).  The 100 starts run through the family's compiled fast path when numba (the ``[fast]``
extra) is installed (:mod:`reference.perturbation.fast`, one call per start), else as one
numpy batch over the trials; either is checked against the reference functions, trial by trial,
before it is used; it runs all iterations instead
of stopping early once the Frank-Wolfe-type gaps are below 1e-13 (beyond that point the
iterates move only by rounding).  Also the μ sweep of ``x^μ`` on biased RPS.

Extensive form: Kuhn poker and Goofspiel-4 (OpenSpiel ``goofspiel(imp_info=True, num_cards=4,
points_order=descending)``, turn-based, win/loss returns) imported by
:func:`reference.extensive.from_openspiel`; AsymP-DGDA and SymP-DGDA with the official
per-information-set update (``variant="official"``) and the paper's Table 4 settings; DGDA
(η = 0.01 on Kuhn); CFR, CFR+, DCFR, LCFR from OpenSpiel (average policy).  NashConv is ours
(sequence form) for the last iterates and OpenSpiel's ``exploitability.nash_conv`` for the
CFR averages; both are the sum of the two players' best-response gains (a row checks that
they agree on the uniform profile).  One AsymP iteration advances its two runs once.
"""

from __future__ import annotations

import argparse
import importlib
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks._env import pin_blas, write_table
from reference import extensive as efg
from reference import perturbation as pert
from reference._arrays import FloatArray

OUT = Path(__file__).resolve().parent / "results"
GOOFSPIEL_4 = (
    "turn_based_simultaneous_game(game=goofspiel(imp_info=True,num_cards=4,"
    "points_order=descending))"
)


# ------------------------------------------------------------------------------ batched runs
def _proj_rows(v: FloatArray) -> FloatArray:
    """Euclidean projection of every row onto the simplex (sort-based)."""
    n = v.shape[1]
    u = -np.sort(-v, axis=1)
    css = np.cumsum(u, axis=1) - 1.0
    ind = np.arange(1, n + 1)
    cond = u - css / ind > 0.0
    rho = n - 1 - np.argmax(cond[:, ::-1], axis=1)
    theta = css[np.arange(v.shape[0]), rho] / (rho + 1)
    out: FloatArray = np.maximum(v - theta[:, None], 0.0)
    return out


def _nash_conv_rows(a: FloatArray, x: FloatArray, y: FloatArray) -> FloatArray:
    out: FloatArray = np.max(x @ a, axis=1) - np.min(y @ a.T, axis=1)
    return out


def _fast_runs(
    method: str,
    a: FloatArray,
    x0: FloatArray,
    y0: FloatArray,
    step_size: float,
    mu: float,
    iters: int,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Every start through the compiled fast path (:mod:`reference.perturbation.fast`, the
    ``[fast]`` extra): one call per start, NashConv of every iteration from its history."""
    from reference.perturbation import fast

    checks = np.unique(np.r_[0, np.geomspace(1, iters, 80).astype(int)])
    kw: dict[str, Any] = {"step_size": step_size, "max_iter": iters, "tol": None}
    rows, xs, ys = [], [], []
    for k in range(x0.shape[0]):
        starts = {"x0": x0[k], "y0": y0[k]}
        if method == "AsymP-GDA":
            r = fast.asymp_gda(a, mu=mu, **kw, **starts)
        elif method == "SymP-GDA":
            r = fast.symp_gda(a, mu=mu, **kw, **starts)
        elif method == "GDA":
            r = fast.gda(a, **kw, **starts)
        else:
            r = fast.ogda(a, **kw, **starts)
        rows.append(r.history[checks])
        xs.append(r.x)
        ys.append(r.y)
    return checks.astype(np.float64), np.array(rows).T, np.array(xs), np.array(ys)


def batched(
    method: str,
    a: FloatArray,
    x0: FloatArray,
    y0: FloatArray,
    *,
    step_size: float,
    mu: float,
    iters: int,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Run ``method`` on every start; NashConv at checkpoints ``0..iters`` (log-spaced).

    With numba installed the runs go through the compiled fast path of the family
    (:func:`_fast_runs`); without it every start advances at once as rows of numpy arrays.
    """
    from reference.perturbation import fast

    if fast.compiled():
        return _fast_runs(method, a, x0, y0, step_size, mu, iters)
    checks = np.unique(np.r_[0, np.geomspace(1, iters, 80).astype(int)])
    xa, ya, xb, yb = x0.copy(), y0.copy(), x0.copy(), y0.copy()
    xh, yh = x0.copy(), y0.copy()
    rows = []
    check_set = {int(c) for c in checks}
    for t in range(iters + 1):
        if t in check_set:
            x_out, y_out = (xa, yb) if method == "AsymP-GDA" else (xa, ya)
            rows.append(_nash_conv_rows(a, x_out, y_out))
        if t == iters:
            break
        if method == "AsymP-GDA":
            xa = _proj_rows(xa - step_size * (ya @ a.T + mu * xa))
            ya = _proj_rows(ya + step_size * (xa @ a))
            xb = _proj_rows(xb - step_size * (yb @ a.T))
            yb = _proj_rows(yb + step_size * (xb @ a - mu * yb))
        elif method == "SymP-GDA":
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
    x_out, y_out = (xa, yb) if method == "AsymP-GDA" else (xa, ya)
    return checks.astype(np.float64), np.array(rows), x_out, y_out


def _reference(
    method: str, a: FloatArray, x0: FloatArray, y0: FloatArray, step_size: float, mu: float, t: int
) -> pert.GDAResult:
    kw: dict[str, Any] = {"step_size": step_size, "max_iter": t, "tol": None, "x0": x0, "y0": y0}
    if method == "AsymP-GDA":
        return pert.asymp_gda(a, mu=mu, **kw)
    if method == "SymP-GDA":
        return pert.symp_gda(a, mu=mu, **kw)
    if method == "GDA":
        return pert.gda(a, **kw)
    return pert.ogda(a, **kw)


def check_batch_against_reference(
    a: FloatArray, x0s: FloatArray, y0s: FloatArray, s: pert.RunnerSettings
) -> float:
    """Largest |batch - reference| over 3 trials, 4 methods and 300 iterations."""
    worst = 0.0
    for method in ("AsymP-GDA", "SymP-GDA", "GDA", "OGDA"):
        _, _, xs, ys = batched(
            method, a, x0s[:3], y0s[:3], step_size=s.step_size, mu=s.mu, iters=300
        )
        for k in range(3):
            r = _reference(method, a, x0s[k], y0s[k], s.step_size, s.mu, 300)
            worst = max(
                worst, float(np.max(np.abs(xs[k] - r.x))), float(np.max(np.abs(ys[k] - r.y)))
            )
    return worst


# ------------------------------------------------------------------------------ plots
def _plot(
    name: str,
    curves: dict[str, tuple[FloatArray, FloatArray, tuple[FloatArray, FloatArray] | None]],
    title: str,
    xlabel: str,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.6, 3.7))
    for label, (xs, mid, band) in curves.items():
        keep = xs > 0
        (line,) = ax.plot(xs[keep], np.maximum(mid[keep], 1e-16), label=label)
        if band is not None:
            ax.fill_between(
                xs[keep],
                np.maximum(band[0][keep], 1e-16),
                np.maximum(band[1][keep], 1e-16),
                color=line.get_color(),
                alpha=0.15,
            )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("NashConv")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(OUT / f"perturbation_paper_{name}.png", dpi=110)
    plt.close(fig)


def _fmt(v: float) -> str:
    return f"{v:.2e}"


# ------------------------------------------------------------------------------ experiments
def normal_form(lines: list[str], quick: bool) -> None:
    from reference.perturbation import fast

    s = pert.OFFICIAL if not quick else pert.RunnerSettings(iterations=2000, trials=10)
    rng = np.random.default_rng(2026)
    lines += [
        "## Normal form: last-iterate NashConv over random starts (official settings)",
        "",
        f"η = {s.step_size}, μ = {s.mu}, {s.iterations} iterations, {s.trials} Dirichlet(1) starts "
        "(`numpy.random.default_rng(2026)`, one draw per game); games as `A = -P`.  "
        "NashConv of the last iterate: median / max over the starts.",
        "",
    ]
    for game, a in (
        ("biased RPS", np.asarray(pert.biased_rps())),
        ("M-Ne", np.asarray(pert.m_ne())),
    ):
        x0s, y0s = pert.dirichlet_starts(a.shape, trials=s.trials, rng=rng)
        err = check_batch_against_reference(a, x0s, y0s, s)
        engine = (
            "compiled fast path (reference.perturbation.fast, numba), one call per start"
            if fast.compiled()
            else "numpy batch over the starts (numba not installed)"
        )
        lines += [
            f"### {game}",
            "",
            f"Batch vs reference functions (3 starts, 300 iterations, 4 methods): max |Δ| = {_fmt(err)}"
            f"; runs: {engine}",
            "",
        ]
        marks = [10**k for k in range(2, 6) if 10**k <= s.iterations]
        lines += [
            "| method | "
            + " | ".join(f"t = {m:.0e}" for m in marks)
            + " | starts with NashConv <= 1e-10 at the end |",
            "|---|" + "---|" * (len(marks) + 1),
        ]
        curves: dict[str, tuple[FloatArray, FloatArray, tuple[FloatArray, FloatArray] | None]] = {}
        for method in ("AsymP-GDA", "SymP-GDA", "GDA", "OGDA"):
            t0 = time.perf_counter()
            checks, hist, _, _ = batched(
                method,
                a,
                np.array(x0s),
                np.array(y0s),
                step_size=s.step_size,
                mu=s.mu,
                iters=s.iterations,
            )
            med = np.median(hist, axis=1)
            cells = []
            for m in marks:
                i = int(np.searchsorted(checks, m))
                cells.append(f"{_fmt(float(med[i]))} / {_fmt(float(np.max(hist[i])))}")
            done = int(np.sum(hist[-1] <= 1e-10))
            lines.append(f"| {method} | " + " | ".join(cells) + f" | {done}/{s.trials} |")
            curves[method] = (checks, med, (np.min(hist, axis=1), np.max(hist, axis=1)))
            print(f"{game} {method}: {time.perf_counter() - t0:.1f} s", flush=True)
        lines.append("")
        _plot(
            game.replace(" ", "_").lower(),
            curves,
            f"{game} (A = -P): median and range over {s.trials} starts",
            "iterations",
        )
        lines += [f"![{game}](perturbation_paper_{game.replace(' ', '_').lower()}.png)", ""]


def mu_sweep(lines: list[str]) -> None:
    a = pert.biased_rps()
    lines += [
        "## μ sweep of x^μ on biased RPS (A = -P)",
        "",
        "AsymP-GDA (official order, our default η = 1/(μ + ||A||₂), uniform start, stop at perturbed "
        "gap <= 1e-14) against the QP oracle `perturbed_minimiser` (SLSQP) and the exact KKT "
        "closed form (2/5 - 1/(2μ), 2/5 + 1/(2μ), 1/5) for μ > 5/2 (derived; tested exactly in "
        "`tests/perturbation/test_paper_terms.py`).",
        "",
        "| μ | x^μ (AsymP-GDA, x run) | y^μ (mirrored run) | QP x^μ | in X*? | iterations |",
        "|---|---|---|---|---|---|",
    ]
    for mu in (0.5, 1.0, 2.0, 2.5, 3.0, 4.0, 5.0, 8.0):
        r = pert.asymp_gda(a, mu=mu, max_iter=200_000, tol=1e-14)
        qp = pert.perturbed_minimiser(a, mu=mu)
        inx = bool(np.max(np.abs(r.x - [0.2, 0.6, 0.2])) <= 1e-8)
        fx = ", ".join(f"{v:.4f}" for v in r.x)
        fy = ", ".join(f"{v:.4f}" for v in r.y)
        fq = ", ".join(f"{v:.4f}" for v in qp)
        lines.append(
            f"| {mu} | ({fx}) | ({fy}) | ({fq}) | {'yes' if inx else 'no'} | {r.iterations} |"
        )
    lines.append("")


def extensive(lines: list[str], quick: bool) -> None:
    # OpenSpiel ships no type information: its modules are used as Any
    pyspiel: Any = importlib.import_module("pyspiel")
    cfr: Any = importlib.import_module("open_spiel.python.algorithms.cfr")
    discounted_cfr: Any = importlib.import_module("open_spiel.python.algorithms.discounted_cfr")
    exploitability: Any = importlib.import_module("open_spiel.python.algorithms.exploitability")
    uniform_policy: Any = importlib.import_module("open_spiel.python.policy").UniformRandomPolicy

    settings = {
        "Kuhn poker": (
            "kuhn_poker",
            {"AsymP-DGDA": (0.1, 0.01), "SymP-DGDA": (0.05, 0.001), "DGDA": (0.01, 0.0)},
            20_000,
            2000,
        ),
        "Goofspiel-4": (
            GOOFSPIEL_4,
            {"AsymP-DGDA": (0.1, 0.05), "SymP-DGDA": (0.1, 1e-4)},
            3000,
            500,
        ),
    }
    lines += [
        "## Extensive form: NashConv vs iterations (Table 4 settings, official per-infoset update)",
        "",
        'Last iterate for the DGDA family (ours, `variant="official"`), average policy for the CFR '
        "family (OpenSpiel).  The paper runs 1e6 iterations; the counts here fit a shared 2-core "
        "machine and are stated per row.",
        "",
    ]
    for title, (spec, dgda_settings, iters, cfr_iters) in settings.items():
        if quick:
            iters, cfr_iters = iters // 20, cfr_iters // 20
        game = pyspiel.load_game(spec)
        g = efg.from_openspiel(game)
        x_u = efg.behavioural_to_plan(g.x_space, efg.uniform_behavioural(g.x_space))
        y_u = efg.behavioural_to_plan(g.y_space, efg.uniform_behavioural(g.y_space))
        ours_u = efg.nash_conv(g, x_u, y_u)
        theirs_u = exploitability.nash_conv(game, uniform_policy(game))
        lines += [
            f"### {title}",
            "",
            f"{g.x_space.n_sequences} x {g.y_space.n_sequences} sequences, {g.x_space.n_infosets} + "
            f"{g.y_space.n_infosets} information sets, value {efg.solve_lp(g).value:.6f} (LP).  "
            f"NashConv of the uniform profile: ours {ours_u:.6f}, OpenSpiel {theirs_u:.6f}.",
            "",
            "| method | η, μ | iterations | NashConv at 10 / 100 / 1000 / last | seconds |",
            "|---|---|---|---|---|",
        ]
        curves: dict[str, tuple[FloatArray, FloatArray, tuple[FloatArray, FloatArray] | None]] = {}
        for name, (step_size, mu) in dgda_settings.items():
            t0 = time.perf_counter()
            if name == "AsymP-DGDA":
                r = efg.asymp_dgda(
                    g, mu=mu, step_size=step_size, max_iter=iters, tol=None, variant="official"
                )
            elif name == "SymP-DGDA":
                r = efg.symp_dgda(
                    g, mu=mu, step_size=step_size, max_iter=iters, tol=None, variant="official"
                )
            else:
                r = efg.dgda(g, step_size=step_size, max_iter=iters, tol=None)
            sec = time.perf_counter() - t0
            h = np.asarray(r.history)
            pts = (
                " / ".join(_fmt(float(h[min(k, len(h) - 1)])) for k in (10, 100, 1000))
                + f" / {_fmt(float(h[-1]))}"
            )
            lines.append(
                f"| {name} (last iterate) | {step_size}, {mu} | {iters} | {pts} | {sec:.0f} |"
            )
            curves[name] = (np.arange(len(h), dtype=np.float64), h, None)
            print(f"{title} {name}: {sec:.1f} s", flush=True)
        solvers = {
            "CFR": cfr.CFRSolver,
            "CFR+": cfr.CFRPlusSolver,
            "DCFR": discounted_cfr.DCFRSolver,
            "LCFR": discounted_cfr.LCFRSolver,
        }
        checks = np.unique(np.geomspace(1, cfr_iters, 30).astype(int))
        for name, cls in solvers.items():
            t0 = time.perf_counter()
            solver = cls(game)
            values = []
            for t in range(1, cfr_iters + 1):
                solver.evaluate_and_update_policy()
                if t in checks:
                    values.append(float(exploitability.nash_conv(game, solver.average_policy())))
            sec = time.perf_counter() - t0
            v = np.array(values)
            at = {int(c): val for c, val in zip(checks, v, strict=True)}
            near = [at[int(checks[np.argmin(np.abs(checks - k))])] for k in (10, 100, 1000)]
            pts = (
                " / ".join(
                    _fmt(x) if k <= cfr_iters else "—"
                    for x, k in zip(near, (10, 100, 1000), strict=True)
                )
                + f" / {_fmt(float(v[-1]))}"
            )
            lines.append(f"| {name} (average) | — | {cfr_iters} | {pts} | {sec:.0f} |")
            curves[name] = (checks.astype(np.float64), v, None)
            print(f"{title} {name}: {sec:.1f} s", flush=True)
        lines.append("")
        slug = title.split()[0].lower().replace("-", "")
        _plot(
            slug,
            curves,
            f"{title}: NashConv (DGDA family last iterate, CFR family average)",
            "iterations",
        )
        lines += [f"![{title}](perturbation_paper_{slug}.png)", ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few iterations (smoke run)")
    parser.add_argument("--skip-efg", action="store_true", help="normal-form part only")
    args = parser.parse_args()
    lines = [
        "# Asymmetric perturbation: the paper's experiments with the official settings",
        "",
        "Generated by `benchmarks/perturbation_paper.py` (spec 19 §8).",
        "",
    ]
    t0 = time.perf_counter()
    mu_sweep(lines)
    normal_form(lines, args.quick)
    if not args.skip_efg:
        extensive(lines, args.quick)
    lines += [f"Total wall time: {time.perf_counter() - t0:.0f} s (shared 2-core machine).", ""]
    name = "perturbation_paper_quick.md" if args.quick else "perturbation_paper.md"
    write_table(OUT / name, "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    pin_blas(1)
    main()
