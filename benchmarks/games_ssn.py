"""Spec 01, Section 7: PRM+ vs DRS vs SSN vs the hybrids PSSN/HPSSN vs HiGHS, side by side.

The committed table and plot (``benchmarks/results/games_ssn.{md,png}``, raw rows in
``games_ssn_raw_*.csv``) come from::

    export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
    R=benchmarks/results
    for s in 100x200 200x400 400x800 1000x1000; do
        python -m benchmarks.games_ssn --sizes $s --seeds 0 1 2 3 4 --csv $R/games_ssn_raw_$s.csv
    done
    python -m benchmarks.games_ssn --sizes 400x800 1000x1000 --seeds 0 1 2 3 4 --long-prm 400000 \\
        --csv $R/games_ssn_raw_long.csv
    python -m benchmarks.games_ssn --report $R/games_ssn_raw_{100x200,200x400}.csv \\
        $R/games_ssn_raw_{400x800,1000x1000,long}.csv --note "..."

(The CSVs were written under /tmp and copied there.  ``games_ssn_raw_loaded_*.csv`` hold an
earlier run of the same grid, 1000 x 1000 with seeds 0-1 and half caps, under load average
8-13; it is summarised in the table's header note, not merged.)

A ``--csv`` run measures (each instance: every method back to back in one process, so a load
spike on the shared machine hits all methods alike) and writes raw rows plus the gap-vs-time
curves of the representative instance (U[-1,1], first seed) to ``<csv>.json``; ``--long-prm``
instead runs alternating PRM+ to 1e-8 under a large cap next to PSSN/HPSSN/HiGHS IPM;
``--report`` merges CSVs into the markdown table and the plot.  A run with neither does both
for its own grid (handy for a quick look: ``python -m benchmarks.games_ssn --sizes 30x60``).

Timing protocol (our default):

* PRM+ (simultaneous last iterate = the paper's "PCFR" baseline, simultaneous linear average,
  alternating linear average) and plain DRS run once to the smallest target under a per-size
  iteration cap.  An iteration costs the same throughout, so the time to reach a target is
  ``wall · t_target / t_total`` (``t_target`` = first iteration whose reported gap is
  ``<= target``).  A target not reached within the cap is a *timeout*, and the wall time of
  the whole capped run is a lower bound on its time; cells built from such bounds are printed
  with ``>``.
* SSN (cold start), PSSN and HPSSN run on the fast path :mod:`reference.games.fast` (default
  configs: reduced Newton solve), once per target (``tol = target``), so their times include
  every stopping test as deployed.  DRS runs on the fast path too.  ``--reference`` instead
  times the plain reference (:mod:`reference.games`: dense LU per Newton step) next to the
  fast path on the same instances: the price of simplicity.
* HiGHS: one ``scipy.optimize.linprog`` LP (the row player's, feasibility tolerances 1e-10, as in
  :func:`reference.games.solve_lp`); the column strategy is read off the LP duals, so one LP
  gives both players.  Dual simplex (``highs-ds``) and interior point (``highs-ipm``) are both
  timed; ratios use the faster.  HiGHS "reaches" a target when the gap of its pair is below it.

Every table records the BLAS library, its kernel (threadpoolctl's ``architecture``, else
``OPENBLAS_CORETYPE``) and its thread count (:func:`blas_info`).

Ratios: best PRM+ variant / hybrid and best HiGHS / hybrid, from the medians over seeds (``> 1``:
the hybrid is faster; ``>= x``: a lower bound because PRM+ hit its cap).  Below the table: one
Newton step (dense LU vs the support-reduced solve) at each size, and a cProfile of one PSSN
solve on a 200 x 400 U[-1,1] game with either linear solver.
"""

from __future__ import annotations

import argparse
import cProfile
import csv
import importlib
import io
import json
import math
import os
import platform
import pstats
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from scipy.optimize import linprog

import reference.games as ref
from benchmarks._env import pin_blas, write_table
from reference._arrays import FloatArray
from reference.games import EquilibriumResult, HybridConfig, SSNConfig, duality_gap, prm_plus
from reference.games.fast import _Drs, drs
from reference.games.fast import hybrid as _fast_hybrid
from reference.games.fast import ssn as _fast_ssn

#: The Newton solvers as measured for the committed tables: both safeguards beyond the spec's
#: Algorithm 2 on (``SSNConfig.watchdog`` and ``kink_search``, off by default).
SAFEGUARDED = SSNConfig(watchdog=True, kink_search=True)


def ssn(a: FloatArray, **kw: Any) -> EquilibriumResult:
    """The fast SSN with :data:`SAFEGUARDED`."""
    return _fast_ssn(a, config=SAFEGUARDED, **kw)


def hybrid(a: FloatArray, **kw: Any) -> EquilibriumResult:
    """The fast hybrid with :data:`SAFEGUARDED` Newton phases."""
    return _fast_hybrid(a, config=HybridConfig(ssn=SAFEGUARDED), **kw)


RESULTS = Path(__file__).parent / "results"
TARGETS = (1e-4, 1e-6, 1e-8, 1e-10)
#: Extra targets of the Newton methods on the representative instance (for the plot only).
PLOT_TARGETS = (1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-12)
DISTS = ("U[-1,1]", "N(0,1)")
#: Per-size iteration caps (sim PRM+, alternating PRM+, DRS); a timeout is reported as a bound.
CAPS: dict[str, tuple[int, int, int]] = {
    "100x200": (50_000, 200_000, 10_000),
    "200x400": (30_000, 150_000, 10_000),
    "400x800": (20_000, 60_000, 4_000),
    "1000x1000": (5_000, 40_000, 1_000),
}
DEFAULT_CAPS = (20_000, 60_000, 4_000)
FIRST_ORDER = ("PRM+ sim last", "PRM+ sim linear", "PRM+ alt linear", "DRS")
NEWTON = ("SSN cold", "PSSN", "HPSSN")
HIGHS = ("HiGHS ds", "HiGHS ipm")
PRM = FIRST_ORDER[:3]


@dataclass(frozen=True, slots=True, kw_only=True)
class Row:
    dist: str
    size: str
    seed: int
    method: str
    target: float
    seconds: float  # time to reach the target; inf when not reached
    bound: float  # == seconds when reached, else the wall time spent (a lower bound)
    first_order: int
    newton: int
    final_gap: float


def blas_info() -> str:
    """BLAS library, kernel and threads: threadpoolctl if importable, else the environment."""
    try:  # threadpoolctl ships no type information: use it through importlib
        threadpoolctl = importlib.import_module("threadpoolctl")
    except ImportError:  # pragma: no cover - threadpoolctl is in the dev environment
        buf = io.StringIO()
        stdout, sys.stdout = sys.stdout, buf
        try:
            np.show_config()
        finally:
            sys.stdout = stdout
        names = [ln.strip() for ln in buf.getvalue().splitlines() if "name" in ln][:2]
        return (
            f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', 'unset')}, "
            f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}, "
            f"np.show_config: {'; '.join(names)}"
        )
    libs = [
        f"{d.get('internal_api')} {d.get('version')} kernel {d.get('architecture')} "
        f"{d.get('num_threads')} thread(s) ({Path(str(d.get('filepath'))).name})"
        for d in threadpoolctl.threadpool_info()
        if d.get("user_api") == "blas"
    ]
    core = os.environ.get("OPENBLAS_CORETYPE", "unset")
    return f"threadpoolctl: {'; '.join(libs)}; OPENBLAS_CORETYPE={core}"


def load_average() -> str:
    try:
        return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:  # pragma: no cover - not on this Linux machine
        return "load average unavailable"


def _first_reach(history: FloatArray, target: float) -> int | None:
    hits = np.nonzero(history <= target)[0]
    return int(hits[0]) if hits.size else None


def _game(dist: str, size: str, seed: int) -> FloatArray:
    m, n = (int(v) for v in size.split("x"))
    rng = np.random.default_rng(seed)
    out: FloatArray = (
        rng.uniform(-1.0, 1.0, (m, n)) if dist == "U[-1,1]" else rng.standard_normal((m, n))
    )
    return out


def highs_one_lp(
    a: FloatArray, method: Literal["highs-ds", "highs-ipm"]
) -> tuple[FloatArray, FloatArray]:
    """The row player's LP (as :func:`reference.games.solve_lp`); ``y`` from its duals."""
    rows, cols = a.shape
    cost = np.zeros(rows + 1)
    cost[-1] = 1.0
    res = linprog(
        cost,
        A_ub=np.hstack([a.T, -np.ones((cols, 1))]),
        b_ub=np.zeros(cols),
        A_eq=np.hstack([np.ones((1, rows)), np.zeros((1, 1))]),
        b_eq=np.ones(1),
        bounds=[(0.0, None)] * rows + [(None, None)],
        method=method,
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    if res.x is None:  # pragma: no cover - a bounded feasible LP
        raise RuntimeError(f"HiGHS failed: {res.message}")
    x = np.maximum(np.asarray(res.x, dtype=np.float64)[:rows], 0.0)
    y = np.maximum(-np.asarray(res.ineqlin.marginals, dtype=np.float64), 0.0)
    return x / x.sum(), y / y.sum()


def _curve(res: EquilibriumResult, points: int = 400) -> list[tuple[float, float]]:
    """Gap vs (proportional) time of a first-order run, thinned to ``points`` samples."""
    hist = res.gap_history
    total = max(res.iterations, 1)
    idx = np.unique(np.geomspace(1, max(hist.size - 1, 1), points).astype(int))
    return [(res.wall_time * int(i) / total, float(hist[i])) for i in idx]


def run_game(
    a: FloatArray, key: tuple[str, str, int], caps: tuple[int, int, int], plot: bool
) -> tuple[list[Row], dict[str, list[tuple[float, float]]]]:
    dist, size, seed = key
    cap_sim, cap_alt, cap_drs = caps
    rows: list[Row] = []
    curves: dict[str, list[tuple[float, float]]] = {}

    def row(method: str, target: float, seconds: float, bound: float, res_fo: int, res_n: int,
            gap: float) -> Row:  # fmt: skip
        return Row(
            dist=dist,
            size=size,
            seed=seed,
            method=method,
            target=target,
            seconds=seconds,
            bound=bound,
            first_order=res_fo,
            newton=res_n,
            final_gap=gap,
        )

    first_order: dict[str, Callable[[], EquilibriumResult]] = {
        "PRM+ sim last": lambda: prm_plus(a, tol=TARGETS[-1], max_iter=cap_sim, averaging="last"),
        "PRM+ sim linear": lambda: prm_plus(a, tol=TARGETS[-1], max_iter=cap_sim),
        "PRM+ alt linear": lambda: prm_plus(a, tol=TARGETS[-1], max_iter=cap_alt, alternating=True),
        "DRS": lambda: drs(a, tol=TARGETS[-1], max_iter=cap_drs),
    }
    for name, fn in first_order.items():
        res = fn()
        total = max(res.iterations, 1)
        for target in TARGETS:
            t = _first_reach(res.gap_history, target)
            if t is None:
                rows.append(row(name, target, math.inf, res.wall_time, res.iterations, 0, res.gap))
            else:
                sec = res.wall_time * t / total
                rows.append(row(name, target, sec, sec, t, 0, res.gap))
        if plot:
            curves[name] = _curve(res)
    newton: dict[str, Callable[[float], EquilibriumResult]] = {
        "SSN cold": lambda tol: ssn(a, tol=tol),
        "PSSN": lambda tol: hybrid(a, tol=tol),
        "HPSSN": lambda tol: hybrid(a, tol=tol, mode="HPSSN"),
    }
    for name, solver in newton.items():
        points: list[tuple[float, float]] = []
        for target in sorted(set(TARGETS) | (set(PLOT_TARGETS) if plot else set()), reverse=True):
            res = solver(target)
            ok = res.gap <= target
            points.append((res.wall_time, res.gap))
            if target in TARGETS:
                rows.append(
                    row(
                        name,
                        target,
                        res.wall_time if ok else math.inf,
                        res.wall_time,
                        res.first_order_iterations,
                        res.newton_iterations,
                        res.gap,
                    )
                )
        if plot:
            curves[name] = points
    lp_methods: tuple[Literal["highs-ds", "highs-ipm"], ...] = ("highs-ds", "highs-ipm")
    for name, method in zip(HIGHS, lp_methods, strict=True):
        start = time.perf_counter()
        x, y = highs_one_lp(a, method)
        sec = time.perf_counter() - start
        gap = duality_gap(a, x, y)
        rows += [row(name, t, sec if gap <= t else math.inf, sec, 0, 0, gap) for t in TARGETS]
        if plot:
            curves[name] = [(sec, max(gap, 1e-17))]
    return rows, curves


LONG = " [long]"
REF = " [reference]"
Solver = Callable[[], EquilibriumResult]
FAST = " [fast]"


def reference_game(a: FloatArray, key: tuple[str, str, int], target: float) -> list[Row]:
    """The plain reference (dense Newton solve) next to the fast path on one instance:
    SSN cold and PSSN to ``target``, each path once (methods tagged ``[fast]``/``[reference]``);
    the fast and reference profiles must agree to 1e-10 (checked here)."""
    dist, size, seed = key
    out = []
    solvers: tuple[tuple[str, Solver, Solver], ...] = (
        (
            "SSN cold",
            lambda: ssn(a, tol=target),
            lambda: ref.ssn(a, tol=target, config=SAFEGUARDED),
        ),
        (
            "PSSN",
            lambda: hybrid(a, tol=target),
            lambda: ref.hybrid(a, tol=target, config=HybridConfig(ssn=SAFEGUARDED)),
        ),
    )
    for name, fast_fn, ref_fn in solvers:
        pair: list[EquilibriumResult] = []
        for tag, fn in ((FAST, fast_fn), (REF, ref_fn)):
            res = fn()
            pair.append(res)
            out.append(
                Row(
                    dist=dist,
                    size=size,
                    seed=seed,
                    method=name + tag,
                    target=target,
                    seconds=res.wall_time if res.gap <= target else math.inf,
                    bound=res.wall_time,
                    first_order=res.first_order_iterations,
                    newton=res.newton_iterations,
                    final_gap=res.gap,
                )
            )
        diff = max(
            float(np.max(np.abs(pair[0].x - pair[1].x))),
            float(np.max(np.abs(pair[0].y - pair[1].y))),
        )
        if diff > 1e-10 or pair[0].newton_iterations != pair[1].newton_iterations:
            raise AssertionError(f"{name} {key}: fast and reference differ ({diff:.2e})")
    return out


def summarise_reference(rows: list[Row]) -> str:
    if not rows:
        return ""
    target = rows[0].target
    lines = [
        f"\n## Reference (dense Newton solve) vs fast path (reduced solve), to {target:.0e}\n",
        "The same instances, each path once; the profiles agree to 1e-10 and the iteration "
        "counts are equal (checked while measuring).  Reference = `reference.games.ssn/hybrid` "
        "(one dense LU of the (m+n) x (m+n) Newton matrix per step, `R` by an LU of `I + γM`); "
        "fast = `reference.games.fast` (Woodbury on the supports, Cholesky Schur complement).\n",
        "| dist | size | seed | method | PRM+ / Newton iterations | fast s | reference s "
        "| reference / fast |",
        "|---|---|---|---|---|---|---|---|",
    ]
    keys = sorted(
        {(r.size, r.dist, r.seed, r.method.rsplit(" [", 1)[0]) for r in rows},
        key=lambda k: (int(k[0].split("x")[0]), k[1], k[3], k[2]),
    )
    for size, dist, seed, method in keys:
        sel = {r.method: r for r in rows if (r.size, r.dist, r.seed) == (size, dist, seed)}
        f, r = sel.get(method + FAST), sel.get(method + REF)
        if f is None or r is None:
            continue
        lines.append(
            f"| {dist} | {size} | {seed} | {method} | {f.first_order} / {f.newton} | "
            f"{f.bound:.3g} | {r.bound:.3g} | {r.bound / f.bound:.3g} |"
        )
    return "\n".join(lines) + "\n"


def long_game(a: FloatArray, key: tuple[str, str, int], cap: int, target: float) -> list[Row]:
    """Alternating PRM+ (the fastest variant) run to ``target`` under a large cap, next to
    PSSN, HPSSN and HiGHS IPM on the same instance (methods tagged ``[long]``)."""
    dist, size, seed = key
    out = []

    def add(method: str, res_time: float, gap: float, fo: int, nt: int) -> None:
        ok = gap <= target
        out.append(
            Row(
                dist=dist,
                size=size,
                seed=seed,
                method=method + LONG,
                target=target,
                seconds=res_time if ok else math.inf,
                bound=res_time,
                first_order=fo,
                newton=nt,
                final_gap=gap,
            )
        )

    res = prm_plus(a, tol=target, max_iter=cap, alternating=True)
    add("PRM+ alt linear", res.wall_time, res.gap, res.iterations, 0)
    for mode in ("PSSN", "HPSSN"):
        res = hybrid(a, tol=target, mode=mode)
        add(mode, res.wall_time, res.gap, res.first_order_iterations, res.newton_iterations)
    start = time.perf_counter()
    x, y = highs_one_lp(a, "highs-ipm")
    add("HiGHS ipm", time.perf_counter() - start, duality_gap(a, x, y), 0, 0)
    return out


def summarise_long(rows: list[Row]) -> str:
    if not rows:
        return ""
    target = rows[0].target
    lines = [
        f"\n## Long PRM+ runs to {target:.0e} (alternating, linear average; one instance each)\n",
        "The main grid caps PRM+; here the fastest PRM+ variant runs until it reaches the "
        "target (or a much larger cap), side by side with the hybrids and HiGHS IPM.\n",
        "| dist | size | seed | PRM+ alt: s (iterations) | PSSN s | HPSSN s | HiGHS ipm s "
        "| PRM+ / PSSN | PRM+ / HPSSN | HiGHS / PSSN |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    keys = sorted(
        {(r.size, r.dist, r.seed) for r in rows},
        key=lambda k: (int(k[0].split("x")[0]), k[1], k[2]),
    )
    for size, dist, seed in keys:
        sel = {
            r.method[: -len(LONG)]: r
            for r in rows
            if (r.size, r.dist, r.seed) == (size, dist, seed)
        }
        prm, pssn, hp, lp = (sel.get(m) for m in ("PRM+ alt linear", "PSSN", "HPSSN", "HiGHS ipm"))
        if prm is None or pssn is None or hp is None or lp is None:
            continue
        reached = math.isfinite(prm.seconds)
        ge = "" if reached else ">= "
        prm_txt = f"{prm.bound:.3g} ({prm.first_order})" + ("" if reached else " cap, not reached")
        lines.append(
            f"| {dist} | {size} | {seed} | {prm_txt} | {pssn.seconds:.3g} | {hp.seconds:.3g} | "
            f"{lp.seconds:.3g} | {ge}{prm.bound / pssn.seconds:.3g} | "
            f"{ge}{prm.bound / hp.seconds:.3g} | {lp.seconds / pssn.seconds:.3g} |"
        )
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ Newton-step profile
def newton_step_profile(size: str, repeats: int = 3) -> dict[str, float]:
    """Seconds of one Newton direction (dense LU vs reduced) at a near-solution lifted point."""
    a = _game("U[-1,1]", size, 0)
    res = hybrid(a, tol=1e-10)
    ctx = _Drs(a, None)
    u = np.asarray(res.u if res.u is not None else ctx.lift(np.concatenate([res.x, res.y])))
    g = ctx.g_of(u, ctx.project(u))
    mu = 1e-6 * float(np.linalg.norm(ctx.residual(u)[0])) + 1e-12
    start = time.perf_counter()
    ctx.gram()
    out = {"Gram eigen-factor (once per game)": time.perf_counter() - start}
    for name, fn in (
        ("dense: build K + LU", lambda: ctx.direction_dense(u, mu, g)),
        ("reduced: Woodbury on supports", lambda: ctx.direction_reduced(u, mu, g)),
        ("residual R(u)", lambda: ctx.residual(u)),
    ):
        best = math.inf
        for _ in range(repeats):
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
        out[name] = best
    sx, sy = ctx.supports(u)
    out["|S_x| + |S_y|"] = float(sx.sum() + sy.sum())
    out["m + n"] = float(ctx.m + ctx.n)
    return out


def pssn_cprofile(size: str = "200x400", top: int = 8) -> str:
    """cProfile (sorted by own time) of one PSSN solve to 1e-10, dense vs reduced Newton solve."""
    a = _game("U[-1,1]", size, 0)
    parts = []
    solvers: tuple[Literal["dense", "reduced"], ...] = ("dense", "reduced")
    for solver in solvers:
        prof = cProfile.Profile()
        prof.enable()
        res = hybrid(a, tol=1e-10, linear_solver=solver)
        prof.disable()
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(top)
        lines = [ln for ln in buf.getvalue().splitlines() if ln.strip()]
        keep = [ln for ln in lines if "ncalls" in ln or "{" in ln or ".py:" in ln][: top + 1]
        keep = [ln.replace(str(Path.cwd()) + "/", "") for ln in keep]
        parts.append(
            f"PSSN {size} U[-1,1] seed 0, linear_solver={solver!r}: {res.wall_time:.3f}s, "
            f"{res.first_order_iterations} PRM+ + {res.newton_iterations} Newton iterations, "
            f"gap {res.gap:.1e}\n\n```\n" + "\n".join(keep) + "\n```\n"
        )
    return "\n".join(parts)


# ------------------------------------------------------------------ summary
@dataclass(frozen=True, slots=True)
class Cell:
    value: float
    exact: bool  # False: a lower bound (some seed timed out) or inf (no finite bound)


def _median_cell(sel: list[Row]) -> Cell:
    """Median over seeds; timeouts enter with their lower bound and make the cell a bound
    unless every timed-out seed sits strictly above the middle element(s)."""
    if not sel:
        return Cell(math.nan, False)
    if all(not math.isfinite(r.bound) for r in sel):
        return Cell(math.inf, False)
    pairs = sorted((r.bound, math.isfinite(r.seconds)) for r in sel)
    vals = [p[0] for p in pairs]
    med = float(statistics.median(vals))
    k = len(pairs)
    upper_mid = k // 2
    exact = all(ok or i > upper_mid for i, (_, ok) in enumerate(pairs))
    return Cell(med, exact)


def _fmt_cell(c: Cell) -> str:
    if math.isnan(c.value):
        return "-"
    if math.isinf(c.value):
        return "fail"
    return f"{c.value:.3g}" if c.exact else f"> {c.value:.3g}"


def _best(cells: Sequence[Cell]) -> Cell:
    """The smallest of several medians (a lower bound if a bound is the smallest or could be)."""
    finite = [c for c in cells if not math.isnan(c.value)]
    low = min(finite, key=lambda c: c.value)
    exact = low.exact and all(c.exact or c.value >= low.value for c in finite)
    return Cell(low.value, exact)


def _ratio(num: Cell, den: Cell) -> str:
    if not (math.isfinite(num.value) and math.isfinite(den.value)) or not den.exact:
        return "-"
    r = num.value / den.value
    return f"{r:.3g}" if num.exact else f">= {r:.3g}"


def summarise(rows: list[Row]) -> str:
    methods = [m for m in (*FIRST_ORDER, *NEWTON, *HIGHS) if any(r.method == m for r in rows)]
    keys = sorted({(r.dist, r.size) for r in rows}, key=lambda k: (int(k[1].split("x")[0]), k[0]))
    cell: dict[tuple[str, str, float, str], Cell] = {}
    iters: dict[tuple[str, str, float, str], tuple[float, float]] = {}
    for dist, size in keys:
        for target in TARGETS:
            for m in methods:
                sel = [
                    r
                    for r in rows
                    if (r.dist, r.size, r.target, r.method) == (dist, size, target, m)
                ]
                cell[(dist, size, target, m)] = _median_cell(sel)
                iters[(dist, size, target, m)] = (
                    float(statistics.median([r.first_order for r in sel])) if sel else math.nan,
                    float(statistics.median([r.newton for r in sel])) if sel else math.nan,
                )
    out = [
        "## Median seconds to reach the target gap (over seeds)",
        "",
        "`> x`: at least one seed did not reach the target within the cap, so the median is a "
        "lower bound (timeouts counted at their capped wall time); `fail`: a solver stopped "
        "without reaching it.",
        "",
    ]
    for dist, size in keys:
        seeds = sorted({r.seed for r in rows if (r.dist, r.size) == (dist, size)})
        out += [
            f"### {dist}, {size} (seeds {seeds})",
            "",
            "| method | " + " | ".join(f"{t:.0e}" for t in TARGETS) + " |",
            "|---|" + "---|" * len(TARGETS),
        ]
        for m in methods:
            out.append(
                f"| {m} | "
                + " | ".join(_fmt_cell(cell[(dist, size, t, m)]) for t in TARGETS)
                + " |"
            )
        out += [
            "",
            "Median iterations (first-order / Newton) to the target (timeouts: the cap):",
            "",
            "| method | " + " | ".join(f"{t:.0e}" for t in TARGETS) + " |",
            "|---|" + "---|" * len(TARGETS),
        ]
        for m in methods:
            if m in HIGHS:
                continue
            out.append(
                f"| {m} | "
                + " | ".join("{:.0f} / {:.0f}".format(*iters[(dist, size, t, m)]) for t in TARGETS)
                + " |"
            )
        out.append("")
    out += [
        "## Ratios of median times (> 1: the hybrid is faster)",
        "",
        "best PRM+ = the fastest of the three PRM+ variants; best HiGHS = the faster of dual "
        "simplex and IPM.  `>= x`: lower bound (PRM+ hit its iteration cap on the median seed).",
        "",
        "| dist | size | target | best PRM+ / PSSN | best PRM+ / HPSSN | best HiGHS / PSSN "
        "| best HiGHS / HPSSN |",
        "|---|---|---|---|---|---|---|",
    ]
    for dist, size in keys:
        for t in TARGETS:
            prm = _best([cell[(dist, size, t, m)] for m in PRM if m in methods])
            lp = _best([cell[(dist, size, t, m)] for m in HIGHS if m in methods])
            p, h = cell[(dist, size, t, "PSSN")], cell[(dist, size, t, "HPSSN")]
            out.append(
                f"| {dist} | {size} | {t:.0e} | {_ratio(prm, p)} | {_ratio(prm, h)} | "
                f"{_ratio(lp, p)} | {_ratio(lp, h)} |"
            )
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ I/O
def _write_csv(path: Path, rows: list[Row]) -> None:
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(Row.__dataclass_fields__))
        writer.writeheader()
        for r in rows:
            writer.writerow(asdict(r))


def _read_csv(path: Path) -> list[Row]:
    out = []
    with path.open() as fh:
        for d in csv.DictReader(fh):
            out.append(
                Row(
                    dist=d["dist"],
                    size=d["size"],
                    seed=int(d["seed"]),
                    method=d["method"],
                    target=float(d["target"]),
                    seconds=float(d["seconds"]),
                    bound=float(d["bound"]),
                    first_order=int(d["first_order"]),
                    newton=int(d["newton"]),
                    final_gap=float(d["final_gap"]),
                )
            )
    return out


def plot(curves: dict[str, dict[str, list[tuple[float, float]]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = sorted(curves, key=lambda s: int(s.split("x")[0]))
    ncols = min(2, len(sizes))
    nrows = -(-len(sizes) // ncols)
    fig, grid = plt.subplots(nrows, ncols, figsize=(5.6 * ncols, 4.4 * nrows), squeeze=False)
    axes = [list(grid.ravel())]
    styles = {
        "PRM+ sim last": ("tab:gray", "-", ""),
        "PRM+ sim linear": ("tab:blue", "-", ""),
        "PRM+ alt linear": ("tab:cyan", "-", ""),
        "DRS": ("tab:brown", "-", ""),
        "SSN cold": ("tab:purple", "--", "o"),
        "PSSN": ("tab:red", "-", "o"),
        "HPSSN": ("tab:orange", "-", "s"),
        "HiGHS ds": ("black", "", "*"),
        "HiGHS ipm": ("black", "", "X"),
    }
    for ax in axes[0][len(sizes) :]:
        ax.set_visible(False)
    for ax, size in zip(axes[0], sizes, strict=False):
        for name, raw in curves[size].items():
            color, ls, marker = styles.get(name, ("k", "-", ""))
            pts = raw if name in FIRST_ORDER else sorted(raw, key=lambda p: -p[1])
            xs = [max(p[0], 1e-4) for p in pts]
            ys = [max(p[1], 1e-17) for p in pts]
            ax.plot(xs, ys, color=color, linestyle=ls or "none", marker=marker or None,
                    markersize=4 if marker != "*" else 10, label=name, linewidth=1.2)  # fmt: skip
        for t in TARGETS:
            ax.axhline(t, color="0.85", linewidth=0.6, zorder=0)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(1e-16, 3.0)
        ax.set_xlabel("seconds (one core)")
        ax.set_title(f"U[-1,1] {size}, seed 0")
    axes[0][0].set_ylabel("duality gap")
    axes[0][0].legend(fontsize=7, loc="lower left")
    fig.suptitle(
        "Gap vs time. Lines: first-order runs (proportional time);\nmarkers: one Newton run "
        "per target; stars/crosses: HiGHS (one LP)",
        fontsize=10,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def extrapolation(
    rows: list[Row], curves: dict[str, dict[str, list[tuple[float, float]]]], target: float = 1e-8
) -> str:
    """Where alternating PRM+ did not reach ``target`` on the plotted instance: a power-law
    extrapolation of its gap over the last decade of its run (labelled, never a measurement)."""
    lines = []
    for size in sorted(curves, key=lambda s: int(s.split("x")[0])):
        pts = curves[size].get("PRM+ alt linear")
        if not pts or min(p[1] for p in pts) <= target:
            continue
        t_end = pts[-1][0]
        tail = [(t, g) for t, g in pts if t >= t_end / 10.0 and t > 0.0 and g > 0.0]
        if len(tail) < 5:
            continue
        slope = float(np.polyfit(np.log([t for t, _ in tail]), np.log([g for _, g in tail]), 1)[0])
        g_end = float(np.median([g for _, g in pts[-20:]]))
        if slope >= 0.0:
            continue
        t_star = t_end * (target / g_end) ** (1.0 / slope)
        pssn = [
            r.seconds
            for r in rows
            if (r.size, r.dist, r.seed, r.method, r.target) == (size, DISTS[0], 0, "PSSN", target)
        ]
        ratio = f", i.e. ~{t_star / pssn[0]:.3g}x the PSSN time" if pssn and pssn[0] > 0 else ""
        lines.append(
            f"- {size}: alternating PRM+ (linear average) ended at gap ~{g_end:.2g} after "
            f"{t_end:.3g}s; gap ~ time^{slope:.2f} over its last decade extrapolates to "
            f"~{t_star:.3g}s for {target:.0e}{ratio}.  **Extrapolated, not measured.**"
        )
    if not lines:
        return ""
    return (
        "\n## PRM+ beyond its cap (U[-1,1] seed 0, extrapolation only)\n\n"
        + "\n".join(lines)
        + "\n"
    )


def report(rows: list[Row], curves: dict[str, dict[str, list[tuple[float, float]]]],
           header: list[str], out_md: Path, out_png: Path, profile: bool) -> str:  # fmt: skip
    long_rows = [r for r in rows if r.method.endswith(LONG)]
    ref_rows = [r for r in rows if r.method.endswith((REF, FAST))]
    rows = [r for r in rows if not r.method.endswith((LONG, REF, FAST))]
    text = "\n".join(header) + "\n"
    if rows:
        text += summarise(rows)
    text += summarise_long(long_rows) + summarise_reference(ref_rows)
    text += extrapolation(rows, curves)
    if profile:
        sizes = sorted({r.size for r in rows}, key=lambda s: int(s.split("x")[0]))
        text += "\n## One Newton direction: dense LU vs the support-reduced solve\n\n"
        text += "At the final lifted point of PSSN on U[-1,1] seed 0 (best of 3, seconds):\n\n"
        text += "| size | m + n | \\|S_x\\| + \\|S_y\\| | Gram factor (once) | dense build + LU "
        text += "| reduced | dense / reduced | residual R(u) |\n|---|---|---|---|---|---|---|---|\n"
        for size in sizes:
            p = newton_step_profile(size)
            d, r = p["dense: build K + LU"], p["reduced: Woodbury on supports"]
            text += (
                f"| {size} | {p['m + n']:.0f} | {p['|S_x| + |S_y|']:.0f} | "
                f"{p['Gram eigen-factor (once per game)']:.3g} | {d:.3g} | {r:.3g} | "
                f"{d / r:.3g} | {p['residual R(u)']:.3g} |\n"
            )
        text += "\n## cProfile of one PSSN solve (top functions by own time)\n\n"
        text += pssn_cprofile()
    if curves:
        plot(curves, out_png)
        text += f"\nPlot: `{out_png.name}` (gap vs time, one representative instance per size).\n"
    out_md.parent.mkdir(parents=True, exist_ok=True)
    write_table(out_md, text)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", nargs="+", default=["100x200", "200x400"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1])
    parser.add_argument("--cap-scale", type=float, default=1.0, help="multiply every cap")
    parser.add_argument("--csv", default=None, help="measure only; write raw rows here")
    parser.add_argument("--report", nargs="+", default=None, help="merge CSVs into the table")
    parser.add_argument("--out", default=str(RESULTS / "games_ssn.md"))
    parser.add_argument("--png", default=str(RESULTS / "games_ssn.png"))
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument("--note", nargs="*", default=[], help="extra header lines (report)")
    parser.add_argument(
        "--long-prm",
        type=int,
        default=0,
        help="instead of the grid: alternating PRM+ to 1e-8 with this cap vs the hybrids",
    )
    parser.add_argument(
        "--reference",
        action="store_true",
        help="instead of the grid: SSN cold and PSSN to 1e-8, plain reference vs fast path",
    )
    args = parser.parse_args(argv)
    threads = {k: os.environ.get(k, "unset") for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    load_before = load_average()
    if args.report:
        rows: list[Row] = []
        curves: dict[str, dict[str, list[tuple[float, float]]]] = {}
        notes = []
        for name in args.report:
            rows += _read_csv(Path(name))
            meta = json.loads(Path(name + ".json").read_text())
            curves.update({k: v for k, v in meta["curves"].items() if v})
            notes.append(f"- `{meta['command']}`: {meta['note']}")
        header = [
            "# Spec 01 reproduction: PRM+ vs DRS vs SSN vs PSSN/HPSSN vs HiGHS",
            "",
            "Measured with (each run: every method on each instance back to back, one process):",
            "",
            *notes,
            "",
            f"Merged by `python -m benchmarks.games_ssn --report {' '.join(args.report)}`.",
            f"Machine: {platform.processor() or platform.machine()}, 2 cores **shared with other "
            f"jobs**, numpy/scipy threads {threads}; absolute times are noisy and "
            "inflated by the load, ratios are from the same instances (methods back to back).",
            f"BLAS at report time: {blas_info()}.",
            *args.note,
            f"Targets {', '.join(f'{t:.0e}' for t in TARGETS)}; iteration caps (sim PRM+, alt "
            f"PRM+, DRS) per size: {CAPS}, times the run's cap scale.",
            "",
        ]
        print(report(rows, curves, header, Path(args.out), Path(args.png), not args.no_profile))
        return 0
    rows = []
    curves = {}
    started = time.perf_counter()
    for size in args.sizes:
        caps = tuple(int(c * args.cap_scale) for c in CAPS.get(size, DEFAULT_CAPS))
        for seed in args.seeds:
            for dist in DISTS:
                a = _game(dist, size, seed)
                if args.long_prm:
                    rows += long_game(a, (dist, size, seed), args.long_prm, 1e-8)
                    print(f"done long {dist} {size} seed {seed}", flush=True)
                    continue
                if args.reference:
                    rows += reference_game(a, (dist, size, seed), 1e-8)
                    print(f"done reference {dist} {size} seed {seed}", flush=True)
                    continue
                is_plot = dist == DISTS[0] and seed == args.seeds[0]
                new_rows, new_curves = run_game(
                    a, (dist, size, seed), (caps[0], caps[1], caps[2]), is_plot
                )
                rows += new_rows
                if is_plot:
                    curves[size] = new_curves
                print(
                    f"done {dist} {size} seed {seed} ({time.perf_counter() - started:.0f}s)",
                    flush=True,
                )
    note = (
        f"sizes {args.sizes}, seeds {args.seeds}, cap scale {args.cap_scale}, "
        f"{time.perf_counter() - started:.0f}s wall, threads {threads}; BLAS {blas_info()}; "
        f"{load_before} before, {load_average()} after"
    )
    command = "python -m benchmarks.games_ssn " + " ".join(sys.argv[1:] if argv is None else argv)
    if args.csv:
        _write_csv(Path(args.csv), rows)
        Path(args.csv + ".json").write_text(
            json.dumps({"curves": curves, "note": note, "command": command})
        )
        print(note)
        return 0
    header = [
        "# Spec 01 reproduction: PRM+ vs DRS vs SSN vs PSSN/HPSSN vs HiGHS",
        "",
        f"`{command}`: {note}. Shared 2-core machine.",
        f"BLAS: {blas_info()}.",
        "",
    ]
    print(report(rows, curves, header, Path(args.out), Path(args.png), not args.no_profile))
    return 0


if __name__ == "__main__":
    pin_blas(1)
    raise SystemExit(main())
