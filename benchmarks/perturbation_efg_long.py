"""Spec 19 §8, Table 4: the six dilated methods at the paper's 1e6 iterations, with CFR baselines.

Kuhn poker, Leduc poker and Goofspiel-4 (experiment row 46), through the sequence-form fast path
:mod:`reference.perturbation.fast_efg` (compiled when numba, the ``[fast]`` extra, is installed;
checked against :mod:`reference.extensive` by ``tests/perturbation/test_fast_efg.py``).

Games.  With OpenSpiel (optional, the ``[openspiel]`` extra) the games are OpenSpiel's
``kuhn_poker``, ``leduc_poker`` and ``goofspiel(imp_info=True, num_cards=4,
points_order=descending)`` as a turn-based game (spec 19 §8), converted to our sequence form by the
reference's tree builder; without it Kuhn comes from :func:`reference.extensive.kuhn_poker` and
Goofspiel-4 is skipped.  Always also "Leduc (ours)": :func:`reference.extensive.leduc_poker`,
the same rules with information sets keyed by rank (suits merged): 337 sequences per player
against OpenSpiel's 1093, the same value, but a different treeplex, so the dilated dynamics
(whose regulariser lives on the treeplex) follow other paths.

Methods and step sizes (Table 4, spec 19 §8): Kuhn AsymP-DGDA η = 0.1, μ = 0.01; SymP-DGDA
η = 0.05, μ = 0.001; DMWU 0.01, DGDA 0.01, DOMWU 0.1, DOGDA 0.1; Goofspiel-4 AsymP-DGDA η = 0.1,
μ = 0.05, SymP-DGDA η = 0.1, μ = 1e-4 and Kuhn's for the other four (Table 4 as read gives them
for Kuhn only); Leduc has no Table 4 row: Kuhn's.  DMWU, DOMWU, DOGDA in our simultaneous forms
(spec 19 §3.6).  Last iterate, uniform start; one AsymP iteration advances both its runs.

CFR family (average policy; spec 19 §8: 1e6 iterations): CFR, CFR+, DCFR (α = 3/2, β = 0,
γ = 2) and LCFR through :func:`reference.perturbation.fast_efg.run_cfr` in OpenSpiel's update
order, on the same converted game (``--fast-cfr-iterations``).  Baseline solvers beside them, as
a cross-check at fewer iterations: OpenSpiel's own CFR and CFR+ (its C++ solvers, ``pyspiel``,
with ``pyspiel.nash_conv``) and DCFR, LCFR (``open_spiel.python.algorithms.discounted_cfr``,
Python only, with ``exploitability.nash_conv``); without OpenSpiel, and on "Leduc (ours)", our
CFR and CFR+ (:mod:`reference.extensive`, at most 1e4 iterations; compared with the fast path in
the reference's convention).  Their counts are set by CPU time (Python DCFR: about 0.5 ms per
iteration on Kuhn, 0.1 s on Leduc); stated per row.

NashConv cross-check: for every OpenSpiel game, the last iterates of the six methods and the
uniform profile are turned into OpenSpiel tabular policies and OpenSpiel's ``nash_conv`` and
``exploitability`` are computed: ours (sequence form, best response on the treeplex) must equal
``nash_conv`` and twice ``exploitability`` (two players, zero sum).

Run: ``python -m benchmarks.perturbation_efg_long`` (defaults = the committed run's figures; it
ran with ``--workers 2``, two games side by side, which changes the timing only); writes
``benchmarks/results/perturbation_efg_long.md`` and ``perturbation_efg_long_*.png``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import resource
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks._env import pin_blas, write_table
from reference import extensive as efg
from reference._arrays import FloatArray, IntArray
from reference.extensive.openspiel import _tree
from reference.extensive.tree import SequenceFormGame, Treeplex, _Builder
from reference.perturbation import fast_efg

OUT = Path(__file__).resolve().parent / "results"
GOOFSPIEL = (
    "turn_based_simultaneous_game(game=goofspiel(imp_info=True,num_cards={n},"
    "points_order=descending))"
)

#: Iterations of the CFR family through the fast path (spec 19 §8: 1e6, as the dilated methods).
FAST_CFR = 1_000_000

#: (η, μ) per method, Table 4 (Kuhn).
KUHN: dict[str, tuple[float, float]] = {
    "AsymP-DGDA": (0.1, 0.01),
    "SymP-DGDA": (0.05, 0.001),
    "DGDA": (0.01, 0.0),
    "DMWU": (0.01, 0.0),
    "DOMWU": (0.1, 0.0),
    "DOGDA": (0.1, 0.0),
}
#: Table 4 (Goofspiel-4) for the perturbed methods, Kuhn's for the rest.
GOOF4: dict[str, tuple[float, float]] = {
    **KUHN,
    "AsymP-DGDA": (0.1, 0.05),
    "SymP-DGDA": (0.1, 1e-4),
}


@dataclass(frozen=True, slots=True)
class GameRun:
    """One game of the experiment."""

    title: str
    openspiel: str | None  # OpenSpiel game string, or None for our builder
    ours: str | None  # "kuhn" / "leduc": reference.extensive's game when OpenSpiel is absent
    methods: dict[str, tuple[float, float]]
    iterations: int
    cfr_iterations: int  # CFR, CFR+ (OpenSpiel's C++ solvers, or ours)
    dcfr_iterations: int  # DCFR, LCFR (OpenSpiel's Python solvers)
    note: str = ""
    fast_cfr_iterations: int = 0  # CFR, CFR+, DCFR, LCFR through fast_efg.run_cfr (0: none)


@dataclass(frozen=True, slots=True)
class Settings:
    games: tuple[GameRun, ...] = field(
        default_factory=lambda: (
            GameRun(
                "Kuhn poker", "kuhn_poker", "kuhn", KUHN, 1_000_000, 100_000, 10_000, "", FAST_CFR
            ),
            GameRun(
                "Leduc poker",
                "leduc_poker",
                None,
                KUHN,
                1_000_000,
                1000,
                100,
                "Kuhn's (no row)",
                FAST_CFR,
            ),
            GameRun(
                "Goofspiel-4",
                GOOFSPIEL.format(n=4),
                None,
                GOOF4,
                1_000_000,
                10_000,
                1000,
                "",
                FAST_CFR,
            ),
            GameRun(
                "Leduc (ours)", None, "leduc", KUHN, 1_000_000, 1000, 0, "Kuhn's (no row)", FAST_CFR
            ),
        )
    )
    plot_points: int = 400
    workers: int = 1  # processes running games side by side (the figures do not depend on it)
    name: str = "perturbation_efg_long"  # module, table and plot names
    heading: str = "Spec 19 §8 Table 4: dilated methods at 1e6 iterations, CFR-family baselines"


# ------------------------------------------------------------------------------ games
@dataclass(frozen=True, slots=True)
class Converted:
    """A game as the fast path runs it, with what the checks need."""

    fast: fast_efg.FastGame
    x_space: Treeplex
    y_space: Treeplex
    n_terminals: int
    dense: SequenceFormGame | None  # when A fits (for the LP value and the reference NashConv)
    pyspiel_game: Any = None


def openspiel() -> Any | None:
    """``pyspiel`` or None (OpenSpiel is optional)."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        return None


def convert(spec: str, dense_limit: int = 4_000_000) -> Converted:
    """OpenSpiel game ``spec`` in our sequence form, the payoff kept sparse.

    The tree is read by :func:`reference.extensive.openspiel`'s walker and numbered by the
    reference's builder (the same infosets, sequences and entries as
    :func:`reference.extensive.from_openspiel`), but ``A`` is only densified when
    ``n1 * n2 <= dense_limit``.
    """
    pyspiel: Any = importlib.import_module("pyspiel")
    game = pyspiel.load_game(spec)
    builder = _Builder()
    builder.visit(_tree(game.new_initial_state()), (0, 0), 1.0)
    xs, ys = builder.space(0), builder.space(1)
    keys = list(builder.entries)
    rows = np.array([k[0] for k in keys], dtype=np.int64)
    cols = np.array([k[1] for k in keys], dtype=np.int64)
    vals = np.array([builder.entries[k] for k in keys])
    fg = fast_efg.from_arrays(
        xs.n_sequences,
        ys.n_sequences,
        np.array(xs.layout, dtype=np.int64).reshape(-1, 3),
        np.array(ys.layout, dtype=np.int64).reshape(-1, 3),
        rows,
        cols,
        vals,
    )
    dense = None
    if xs.n_sequences * ys.n_sequences <= dense_limit:
        a = np.zeros((xs.n_sequences, ys.n_sequences))
        np.add.at(a, (rows, cols), vals)
        a.setflags(write=False)
        dense = SequenceFormGame(
            name=str(game), payoff=a, x_space=xs, y_space=ys, n_terminals=builder.terminals
        )
    return Converted(fg, xs, ys, builder.terminals, dense, game)


def ours(name: str) -> Converted:
    """Kuhn or Leduc built by :mod:`reference.extensive`."""
    g = efg.kuhn_poker() if name == "kuhn" else efg.leduc_poker()
    return Converted(fast_efg.from_game(g), g.x_space, g.y_space, g.n_terminals, g)


def tabular_policy(conv: Converted, x: FloatArray, y: FloatArray) -> Any:
    """OpenSpiel ``TabularPolicy`` of the realization plans ``(x, y)`` (behavioural
    ``b_j = x_j / x_{p_j}``, uniform where ``x_{p_j} = 0``)."""
    policy_mod: Any = importlib.import_module("open_spiel.python.policy")
    pol = policy_mod.TabularPolicy(conv.pyspiel_game)
    for space, plan in ((conv.x_space, x), (conv.y_space, y)):
        b = efg.plan_to_behavioural(space, plan)
        for j, (s, _k, _) in enumerate(space.layout):
            row = pol.action_probability_array[pol.state_lookup[space.names[j]]]
            row[:] = 0.0
            for i, label in enumerate(space.actions[j]):
                row[int(label)] = b[s + i]
    return pol


# ------------------------------------------------------------------------------ runs
def _fmt(v: float) -> str:
    return f"{v:.2e}"


def cfr_openspiel(conv: Converted, name: str, iters: int) -> tuple[FloatArray, FloatArray]:
    """NashConv (OpenSpiel's) of the average policy of OpenSpiel's ``name`` at log-spaced
    checkpoints up to ``iters``: CFR and CFR+ are OpenSpiel's C++ solvers (``pyspiel``, with
    ``pyspiel.nash_conv``), DCFR and LCFR its Python ones (``open_spiel.python.algorithms``,
    with ``exploitability.nash_conv``); OpenSpiel ships DCFR and LCFR in Python only."""
    pyspiel: Any = importlib.import_module("pyspiel")
    dcfr: Any = importlib.import_module("open_spiel.python.algorithms.discounted_cfr")
    expl: Any = importlib.import_module("open_spiel.python.algorithms.exploitability")
    game = conv.pyspiel_game
    decades = [10**k for k in range(1, 8) if 10**k <= iters]
    checks = np.unique(np.r_[np.geomspace(1, iters, 25).astype(int), decades])
    vals = []
    if name in ("CFR", "CFR+"):
        solver = (pyspiel.CFRSolver if name == "CFR" else pyspiel.CFRPlusSolver)(game)
        for t in range(1, iters + 1):
            solver.evaluate_and_update_policy()
            if t in checks:
                vals.append(float(pyspiel.nash_conv(game, solver.average_policy())))
        return checks.astype(np.float64), np.array(vals)
    solver = (dcfr.DCFRSolver if name == "DCFR" else dcfr.LCFRSolver)(game)
    for t in range(1, iters + 1):
        solver.evaluate_and_update_policy()
        if t in checks:
            vals.append(float(expl.nash_conv(game, solver.average_policy())))
    return checks.astype(np.float64), np.array(vals)


def cfr_ours(game: SequenceFormGame, plus: bool, iters: int) -> tuple[FloatArray, FloatArray]:
    """Our CFR / CFR+ average-plan NashConv at 10, 100, ..., ``iters`` (fresh run per point)."""
    checks = [10**k for k in range(1, 8) if 10**k < iters] + [iters]
    f = efg.cfr_plus if plus else efg.cfr
    return np.array(checks, dtype=np.float64), np.array(
        [f(game, iterations=t).nash_conv for t in checks]
    )


def crosscheck_rows(
    conv: Converted, profiles: dict[str, tuple[FloatArray, FloatArray, float]]
) -> list[str]:
    """Ours vs OpenSpiel's ``nash_conv`` and ``2 * exploitability`` on the same profiles."""
    expl: Any = importlib.import_module("open_spiel.python.algorithms.exploitability")
    rows = []
    for label, (x, y, mine) in profiles.items():
        pol = tabular_policy(conv, x, y)
        nc = float(expl.nash_conv(conv.pyspiel_game, pol))
        ex = float(expl.exploitability(conv.pyspiel_game, pol))
        rows.append(
            f"| {label} | {mine:.12e} | {nc:.12e} | {2 * ex:.12e} | {_fmt(abs(mine - nc))} |"
        )
    return rows


def fast_checkpoints(iters: int, marks: list[int], points: int = 100) -> IntArray:
    """Log-spaced iteration counts up to ``iters``, with ``marks`` and ``iters``."""
    grid = np.geomspace(1, iters, points).astype(np.int64)
    return np.unique(np.r_[grid, [m for m in marks if m <= iters], iters]).astype(np.int64)


def fast_cfr_family(
    g: GameRun,
    conv: Converted,
    marks: list[int],
    baselines: list[tuple[str, tuple[FloatArray, FloatArray], float]],
    lines: list[str],
    results: dict[str, dict[str, float]],
    ax: Any,
) -> list[str]:
    """CFR, CFR+, DCFR, LCFR through :func:`fast_efg.run_cfr` (OpenSpiel's update order) for
    ``g.fast_cfr_iterations`` iterations: table rows and curves; returns the lines of the
    cross-check against the baseline solvers at the baselines' own iteration counts (the fast
    path rerun there in the baseline's convention: OpenSpiel's, or the reference's for ours)."""
    n = g.fast_cfr_iterations
    if n <= 0:
        return []
    for name in fast_efg.CFR_METHODS:
        t0 = time.process_time()
        r = fast_efg.run_cfr(
            conv.fast,
            name,
            iterations=n,
            convention="openspiel",
            checkpoints=fast_checkpoints(n, marks),
        )
        sec = time.process_time() - t0
        at = dict(zip(r.checkpoints.tolist(), r.history.tolist(), strict=True))
        pts = " / ".join(_fmt(at[m]) if m in at else "—" for m in marks)
        lines.append(
            f"| {name} (fast path, OpenSpiel's order, average) | — | {n} | {pts} / "
            f"{_fmt(r.nash_conv)} | {_fmt(float(r.history.min()))} | {sec:.1f} |"
        )
        results[g.title][f"{name} (fast)"] = r.nash_conv
        if conv.dense is not None:  # the reference's NashConv on the dense A: independent
            check = efg.nash_conv(conv.dense, r.x, r.y)
            results[g.title][f"{name} (fast) check"] = abs(check - r.nash_conv)
        ax.plot(r.checkpoints, np.maximum(r.history, 1e-16), "-.", label=f"{name} (fast, average)")
        print(f"{g.title} {name} (fast): {sec:.1f} s CPU, last {r.nash_conv:.3e}", flush=True)
    if not baselines:
        return []
    out = [
        f"CFR family on {g.title}: the fast path (`fast_efg.run_cfr`, in the baseline's "
        "convention) against the baseline solvers at their iteration counts (NashConv of the "
        "average at every baseline checkpoint):",
        "",
        "| method | convention | iterations | baseline NashConv | fast path NashConv | "
        "\\|Δ\\| at the end | max \\|Δ\\| over the checkpoints |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, (checks, vals), _sec in baselines:
        name = label.split(" (")[0]
        convention = "openspiel" if "OpenSpiel" in label else "reference"
        r = fast_efg.run_cfr(
            conv.fast,
            name,
            iterations=int(checks[-1]),
            convention=convention,
            checkpoints=checks.astype(np.int64),
        )
        diff = np.abs(r.history - vals)
        out.append(
            f"| {name} | {convention} | {int(checks[-1])} | {float(vals[-1]):.12e} | "
            f"{r.nash_conv:.12e} | {_fmt(float(diff[-1]))} | {_fmt(float(diff.max()))} |"
        )
        results[g.title][f"{name} fast vs baseline"] = float(diff.max())
    return [*out, ""]


def run_game(
    g: GameRun, s: Settings, out: Path, lines: list[str], results: dict[str, dict[str, float]]
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    have_os = openspiel() is not None
    if g.openspiel is not None and have_os:
        t0 = time.process_time()
        conv = convert(g.openspiel)
        source = f"OpenSpiel `{g.openspiel}`, converted in {time.process_time() - t0:.1f} s CPU"
    elif g.ours is not None:
        conv = ours(g.ours)
        source = f"`reference.extensive.{g.ours}_poker()`" + (
            " (OpenSpiel not installed)" if g.openspiel is not None else ""
        )
    else:
        lines += [f"## {g.title}", "", "Skipped: needs OpenSpiel (the `[openspiel]` extra).", ""]
        print(f"{g.title}: skipped (no OpenSpiel)", flush=True)
        return
    value = efg.solve_lp(conv.dense).value if conv.dense is not None else float("nan")
    fg = conv.fast
    marks = [10**k for k in range(1, 8) if 10**k < g.iterations]
    lines += [
        f"## {g.title}",
        "",
        f"{source}: {fg.n1} x {fg.n2} sequences, {conv.x_space.n_infosets} + "
        f"{conv.y_space.n_infosets} information sets, {conv.n_terminals} terminal histories, "
        f"{fg.a_val.size} non-zeros of A, "
        + (
            f"value {value:.6f} for player 1 (LP)."
            if conv.dense is not None
            else "LP value not computed (A not densified)."
        )
        + (f" Step sizes: {g.note}." if g.note else ""),
        "",
        "| method | η, μ | iterations | NashConv at "
        + " / ".join(f"{m:g}" for m in marks)
        + " / last | min over the run | CPU s |",
        "|---|---|---|---|---|---|",
    ]
    results[g.title] = {}
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    profiles: dict[str, tuple[FloatArray, FloatArray, float]] = {}
    for name, (step_size, mu) in g.methods.items():
        t0 = time.process_time()
        r = fast_efg.run(fg, name, step_size=step_size, mu=mu, iterations=g.iterations)
        sec = time.process_time() - t0
        h = np.asarray(r.history)
        pts = " / ".join(_fmt(float(h[m])) for m in marks) + f" / {_fmt(float(h[-1]))}"
        lines.append(
            f"| {name} (last iterate) | {step_size}, {mu} | {g.iterations} | {pts} | "
            f"{_fmt(float(h.min()))} | {sec:.1f} |"
        )
        results[g.title][name] = float(h[-1])
        if conv.dense is not None:  # the reference's NashConv on the dense A: independent
            check = efg.nash_conv(conv.dense, r.x, r.y)
            results[g.title][f"{name} check"] = abs(check - float(h[-1]))
        profiles[f"{name} last iterate"] = (np.asarray(r.x), np.asarray(r.y), float(h[-1]))
        grid = np.unique(np.geomspace(1, max(g.iterations, 1), s.plot_points).astype(int))
        ax.plot(grid, np.maximum(h[grid], 1e-16), label=f"{name} (last iterate)")
        print(f"{g.title} {name}: {sec:.1f} s CPU, last {h[-1]:.3e}", flush=True)
    baselines: list[tuple[str, tuple[FloatArray, FloatArray], float]] = []
    if conv.pyspiel_game is not None:
        for name in ("CFR", "CFR+", "DCFR", "LCFR"):
            t0 = time.process_time()
            n = g.cfr_iterations if name in ("CFR", "CFR+") else g.dcfr_iterations
            if n == 0:
                continue
            curve = cfr_openspiel(conv, name, n)
            kind = "C++" if name in ("CFR", "CFR+") else "Python"
            label = f"{name} (OpenSpiel {kind}, average)"
            baselines.append((label, curve, time.process_time() - t0))
            print(f"{g.title} {name}: {baselines[-1][2]:.1f} s CPU", flush=True)
    elif conv.dense is not None:
        for plus in (False, True):
            t0 = time.process_time()
            curve = cfr_ours(conv.dense, plus, min(g.cfr_iterations, 10_000))
            label = f"{'CFR+' if plus else 'CFR'} (ours, average)"
            baselines.append((label, curve, time.process_time() - t0))
            print(f"{g.title} {label}: {baselines[-1][2]:.1f} s CPU", flush=True)
    for label, (checks, vals), sec in baselines:
        at = dict(zip(checks.astype(int).tolist(), vals.tolist(), strict=True))
        pts = " / ".join(_fmt(at[m]) if m in at else "—" for m in marks)
        lines.append(
            f"| {label} | — | {int(checks[-1])} | {pts} / {_fmt(float(vals[-1]))} | "
            f"{_fmt(float(vals.min()))} | {sec:.1f} |"
        )
        results[g.title][label.split(" (")[0]] = float(vals[-1])
        ax.plot(checks, np.maximum(vals, 1e-16), "o--", ms=3, label=label)
    check_lines = fast_cfr_family(g, conv, marks, baselines, lines, results, ax)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("iterations (AsymP: one step of each of its two runs)")
    ax.set_ylabel("NashConv")
    ax.set_title(
        f"{g.title}: paper's claim: AsymP-DGDA's last iterate converges, competitive or faster",
        fontsize=8,
    )
    ax.legend(fontsize=6)
    fig.tight_layout()
    slug = (
        g.title.lower()
        .replace(" ", "_")
        .replace("(", "")
        .replace(")", "")
        .replace("-", "")
        .replace("'", "")
    )
    fig.savefig(out / f"{s.name}_{slug}.png", dpi=110)
    plt.close(fig)
    lines += ["", f"![{g.title}]({s.name}_{slug}.png)", "", *check_lines]
    if conv.pyspiel_game is not None:
        xu = efg.behavioural_to_plan(conv.x_space, efg.uniform_behavioural(conv.x_space))
        yu = efg.behavioural_to_plan(conv.y_space, efg.uniform_behavioural(conv.y_space))
        first = fast_efg.run(fg, "DGDA", step_size=0.01, iterations=0).history[0]
        profiles = {"uniform": (xu, yu, float(first)), **profiles}
        if fg.n1 > 5000:  # OpenSpiel's Python best response takes long here: two profiles
            profiles = {k: profiles[k] for k in ("uniform", "AsymP-DGDA last iterate")}
        lines += [
            f"NashConv cross-check against OpenSpiel on {g.title} (same profiles as tabular "
            "policies; ours: the fast path's history, best response on our treeplex):",
            "",
            "| profile | ours | OpenSpiel nash_conv | 2 x OpenSpiel exploitability | \\|ours - nash_conv\\| |",
            "|---|---|---|---|---|",
            *crosscheck_rows(conv, profiles),
            "",
        ]


def game_job(g: GameRun, s: Settings, out: Path) -> tuple[list[str], dict[str, dict[str, float]]]:
    """One game's lines and results (:func:`run_game` in a worker process)."""
    lines: list[str] = []
    results: dict[str, dict[str, float]] = {}
    run_game(g, s, out, lines, results)
    return lines, results


def run(s: Settings, out: Path = OUT) -> dict[str, dict[str, float]]:
    """Every game's table, plot and cross-check; returns ``{game: {method: last NashConv}}``
    (and ``"<method> check"``: |fast-path NashConv - the reference's on the dense A|)."""
    out.mkdir(parents=True, exist_ok=True)
    t_all, c_all = time.perf_counter(), time.process_time()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    c_children = before.ru_utime + before.ru_stime
    engine = "numba-compiled" if fast_efg.compiled() else "plain Python (numba not installed)"
    lines = [
        f"# {s.heading}",
        "",
        f"Generated by `python -m benchmarks.{s.name}"
        + (f" --workers {s.workers}`" if s.workers > 1 else "`")
        + (
            " (single process"
            if s.workers == 1
            else f" ({s.workers} worker processes, one game at a time each"
        )
        + ", BLAS pinned to 1 thread by threadpoolctl, OPENBLAS/OMP/MKL_NUM_THREADS=1; shared "
        "2-core machine, times are CPU seconds of the process that ran the row). Deterministic: "
        "uniform starts, no seeds (the figures do not depend on the number of workers). "
        f"Dilated methods: `reference.perturbation.fast_efg`, {engine}. Spec setting: 1e6 "
        "iterations for every method. Here: "
        + "; ".join(
            f"{g.title} {g.iterations:.0e} ("
            + (
                f"CFR family via the fast path {g.fast_cfr_iterations:.0e}; "
                if g.fast_cfr_iterations
                else ""
            )
            + f"{'baseline ' if g.fast_cfr_iterations else ''}CFR, CFR+ {g.cfr_iterations:.0e}"
            + (f"; DCFR, LCFR {g.dcfr_iterations:.0e})" if g.dcfr_iterations else ")")
            for g in s.games
        )
        + (
            ". The CFR family (CFR, CFR+, DCFR with α = 3/2, β = 0, γ = 2, LCFR; average "
            "policies) runs through `fast_efg.run_cfr` in OpenSpiel's update order (alternating, "
            "player 1 first); the baseline solvers (OpenSpiel's C++ CFR and CFR+ and Python DCFR "
            "and LCFR; ours on Leduc (ours)) run at fewer iterations, for wall time (OpenSpiel's "
            "Python DCFR and LCFR take about 0.5 ms per iteration on Kuhn, 0.1 s on Leduc), and "
            "serve as a cross-check of the fast path: the table after each plot compares the two "
            "at the baselines' iteration counts."
            if any(g.fast_cfr_iterations for g in s.games)
            else ". Reduced where below 1e6 (the CFR-family baselines), for wall time: OpenSpiel's "
            "Python DCFR and LCFR take about 0.5 ms per iteration on Kuhn, 0.1 s on Leduc."
        ),
        "",
        f"OpenSpiel: {'installed' if openspiel() is not None else 'NOT installed (rows skipped)'}; "
        f"load at start: {os.getloadavg()[0]:.2f}.",
        "",
    ]
    results: dict[str, dict[str, float]] = {}
    pool = ProcessPoolExecutor(max_workers=s.workers) if s.workers > 1 else None
    jobs = [pool.submit(game_job, g, s, out) for g in s.games] if pool is not None else []
    for k, g in enumerate(s.games):
        if pool is None:
            run_game(g, s, out, lines, results)
        else:  # the games' own lines, in the games' order
            game_lines, game_results = jobs[k].result()
            lines += game_lines
            results.update(game_results)
        if k + 1 < len(s.games):  # what is done so far, in case the run is stopped
            note = f"*Partial: {k + 1} of {len(s.games)} games written so far.*"
            write_table(out / f"{s.name}.md", "\n".join([*lines, note, ""]))
    if pool is not None:
        pool.shutdown()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - c_all + children.ru_utime + children.ru_stime - c_children
    lines += [
        f"Total: {cpu:.0f} s CPU, {time.perf_counter() - t_all:.0f} s "
        f"wall; load at the end {os.getloadavg()[0]:.2f}.",
        "",
    ]
    write_table(out / f"{s.name}.md", "\n".join(lines))
    print("\n".join(lines))
    return results


def settings_from_args(argv: list[str] | None = None) -> Settings:
    """The run's :class:`Settings`: the defaults (the committed run's figures), with
    ``--fast-cfr-iterations N`` setting every game's CFR-family iterations through the fast
    path (0: none) and ``--workers N`` running N games side by side (timing only)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--fast-cfr-iterations",
        type=int,
        default=None,
        help=f"CFR, CFR+, DCFR, LCFR iterations through fast_efg.run_cfr (default {FAST_CFR})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes running games side by side (at most 2 on the shared machine)",
    )
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers: expected an int >= 1")
    s = Settings() if args.workers == 1 else replace(Settings(), workers=args.workers)
    if args.fast_cfr_iterations is None:
        return s
    if args.fast_cfr_iterations < 0:
        parser.error("--fast-cfr-iterations: expected an int >= 0")
    games = tuple(replace(g, fast_cfr_iterations=args.fast_cfr_iterations) for g in s.games)
    return replace(s, games=games)


def main() -> None:
    run(settings_from_args())


if __name__ == "__main__":
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    pin_blas(1)
    main()
