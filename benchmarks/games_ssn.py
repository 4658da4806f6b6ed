"""Spec 01, Section 7: PRM+ vs DRS vs SSN vs the hybrids PSSN/HPSSN vs HiGHS, side by side.

Run ``python -m benchmarks.games_ssn`` (defaults: the committed, modest table) or e.g.
``python -m benchmarks.games_ssn --sizes 100x200 200x400 400x800 1000x1000 --seeds 0 1 2 3 4``
for the paper-size reproduction.  Every method runs in this one process on the same games.

Timing protocol (our default):

* PRM+ (simultaneous/alternating, last iterate / linear average) and plain DRS run once to
  the smallest target with an iteration cap; an iteration costs the same throughout, so the
  time to reach a target is ``wall · t_target / t_total`` (``t_target`` = first iteration
  whose reported gap is ``<= target``).  A target never reached counts as a timeout.
* SSN (cold), PSSN and HPSSN run once per target (``tol = target``).
* HiGHS: :func:`reference.games.solve_lp` (two LPs, feasibility tolerances 1e-10), timed once;
  it "reaches" a target when its gap is below it.

The table reports medians over seeds; ratios are PRM+(best variant)/hybrid and HiGHS/hybrid
(``> 1`` means the hybrid is faster).  A profile of one Newton step (build the dense Newton
matrix, dense LU solve, one residual evaluation) is printed below the table.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from reference._arrays import FloatArray
from reference.games import EquilibriumResult, drs, duality_gap, hybrid, prm_plus, solve_lp, ssn
from reference.games_ssn import _Drs

RESULTS = Path(__file__).parent / "results"
TARGETS = (1e-4, 1e-6, 1e-8, 1e-10)


@dataclass(frozen=True, slots=True, kw_only=True)
class Row:
    dist: str
    size: str
    seed: int
    method: str
    target: float
    seconds: float  # inf when the target was not reached
    first_order: int
    newton: int


def _first_reach(history: FloatArray, target: float) -> int | None:
    hits = np.nonzero(history <= target)[0]
    return int(hits[0]) if hits.size else None


def _proportional_rows(res: EquilibriumResult, method: str, key: tuple[str, str, int]) -> list[Row]:
    rows = []
    total = max(res.iterations, 1)
    for target in TARGETS:
        t = _first_reach(res.gap_history, target)
        seconds = float("inf") if t is None else res.wall_time * t / total
        rows.append(
            Row(
                dist=key[0],
                size=key[1],
                seed=key[2],
                method=method,
                target=target,
                seconds=seconds,
                first_order=-1 if t is None else t,
                newton=0,
            )
        )
    return rows


def run_game(a: FloatArray, key: tuple[str, str, int], max_first_order: int) -> list[Row]:
    rows: list[Row] = []
    first_order: dict[str, Callable[[], EquilibriumResult]] = {
        "PRM+ sim last": lambda: prm_plus(
            a, tol=TARGETS[-1], max_iter=max_first_order, averaging="last"
        ),
        "PRM+ sim linear": lambda: prm_plus(a, tol=TARGETS[-1], max_iter=max_first_order),
        "PRM+ alt linear": lambda: prm_plus(
            a, tol=TARGETS[-1], max_iter=max_first_order, alternating=True
        ),
        "DRS": lambda: drs(a, tol=TARGETS[-1], max_iter=max_first_order),
    }
    for name, fn in first_order.items():
        rows += _proportional_rows(fn(), name, key)
    newton: dict[str, Callable[[float], EquilibriumResult]] = {
        "SSN cold": lambda tol: ssn(a, tol=tol),
        "PSSN": lambda tol: hybrid(a, tol=tol),
        "HPSSN": lambda tol: hybrid(a, tol=tol, mode="HPSSN"),
    }
    for name, solver in newton.items():
        for target in TARGETS:
            res = solver(target)
            rows.append(
                Row(
                    dist=key[0],
                    size=key[1],
                    seed=key[2],
                    method=name,
                    target=target,
                    seconds=res.wall_time if res.gap <= target else float("inf"),
                    first_order=res.first_order_iterations,
                    newton=res.newton_iterations,
                )
            )
    start = time.perf_counter()
    sol = solve_lp(a)
    lp_seconds = time.perf_counter() - start
    gap = duality_gap(a, sol.x, sol.y)
    rows += [
        Row(
            dist=key[0],
            size=key[1],
            seed=key[2],
            method="HiGHS (2 LPs)",
            target=t,
            seconds=lp_seconds if gap <= t else float("inf"),
            first_order=0,
            newton=0,
        )
        for t in TARGETS
    ]
    return rows


def newton_profile(a: FloatArray, repeats: int = 3) -> dict[str, float]:
    """Seconds of one dense Newton-matrix build, one dense LU solve, one residual evaluation."""
    ctx = _Drs(a, None)
    m, n = a.shape
    u = ctx.lift(np.concatenate([np.full(m, 1 / m), np.full(n, 1 / n)]))
    r, p = ctx.residual(u)
    out: dict[str, float] = {}
    for name, fn in (
        ("build K (dense)", lambda: ctx.newton_matrix(u, 1e-3)),
        ("LU solve K d = -G", lambda: np.linalg.solve(ctx.newton_matrix(u, 1e-3), -r)),
        ("residual R(u)", lambda: ctx.residual(u)),
    ):
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
        out[name] = best
    out["LU solve K d = -G"] -= out["build K (dense)"]
    del p
    return out


def _median(values: list[float]) -> float:
    return float(statistics.median(values)) if values else float("nan")


def _fmt(seconds: float) -> str:
    return "timeout" if not np.isfinite(seconds) else f"{seconds:.3g}"


def summarise(rows: list[Row]) -> str:
    lines = [
        "| dist | size | target | method | median s | median 1st-order it | median Newton it |",
        "|---|---|---|---|---|---|---|",
    ]
    groups = sorted(
        {(r.dist, r.size, r.target, r.method) for r in rows},
        key=lambda g: (g[0], g[1], -g[2], g[3]),
    )
    for dist, size, target, method in groups:
        sel = [
            r for r in rows if (r.dist, r.size, r.target, r.method) == (dist, size, target, method)
        ]
        med = _median([r.seconds for r in sel])
        lines.append(
            f"| {dist} | {size} | {target:.0e} | {method} | {_fmt(med)} | "
            f"{_median([float(r.first_order) for r in sel]):.0f} | {_median([float(r.newton) for r in sel]):.0f} |"
        )
    lines += [
        "",
        "Ratios (median time of A / median time of B; > 1: B faster; timeout counts as inf):",
        "",
    ]
    lines += [
        "| dist | size | target | best PRM+ / PSSN | best PRM+ / HPSSN | HiGHS / PSSN | HiGHS / HPSSN |",
        "|---|---|---|---|---|---|---|",
    ]
    for dist, size in sorted({(r.dist, r.size) for r in rows}):
        for target in TARGETS:
            medians = {
                method: _median(
                    [
                        r.seconds
                        for r in rows
                        if (r.dist, r.size, r.target, r.method) == (dist, size, target, method)
                    ]
                )
                for method in {r.method for r in rows}
            }
            prm = min(
                medians["PRM+ sim last"], medians["PRM+ sim linear"], medians["PRM+ alt linear"]
            )
            lp = medians["HiGHS (2 LPs)"]
            cells = [
                prm / medians["PSSN"],
                prm / medians["HPSSN"],
                lp / medians["PSSN"],
                lp / medians["HPSSN"],
            ]
            text = " | ".join("inf (PRM+ timeout)" if np.isinf(c) else f"{c:.3g}" for c in cells)
            lines.append(f"| {dist} | {size} | {target:.0e} | {text} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", nargs="+", default=["100x200", "200x400"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--max-first-order", type=int, default=20_000)
    parser.add_argument("--out", default=str(RESULTS / "games_ssn.md"))
    args = parser.parse_args(argv)
    rows: list[Row] = []
    started = time.perf_counter()
    for size in args.sizes:
        m, n = (int(v) for v in size.split("x"))
        for dist in ("U[-1,1]", "N(0,1)"):
            for seed in args.seeds:
                rng = np.random.default_rng(seed)
                a = (
                    rng.uniform(-1.0, 1.0, (m, n))
                    if dist == "U[-1,1]"
                    else rng.standard_normal((m, n))
                )
                rows += run_game(a, (dist, size, seed), args.max_first_order)
                print(
                    f"done {dist} {size} seed {seed} ({time.perf_counter() - started:.0f}s)",
                    flush=True,
                )
    prof_lines = ["", "Profile of one Newton iteration (best of 3, seconds):", ""]
    for size in args.sizes:
        m, n = (int(v) for v in size.split("x"))
        prof = newton_profile(np.random.default_rng(0).uniform(-1.0, 1.0, (m, n)))
        prof_lines.append(f"- {size}: " + ", ".join(f"{k} {v:.3g}" for k, v in prof.items()))
    header = [
        "# Spec 01 reproduction: PRM+ vs DRS vs SSN vs PSSN/HPSSN vs HiGHS",
        "",
        f"Sizes {', '.join(args.sizes)}; seeds {args.seeds}; first-order cap {args.max_first_order} "
        f"iterations; targets {', '.join(f'{t:.0e}' for t in TARGETS)}; total {time.perf_counter() - started:.0f}s.",
        "Generated by `python -m benchmarks.games_ssn` (numpy, one process, shared 2-core CPU).",
        "",
    ]
    text = "\n".join(header) + summarise(rows) + "\n" + "\n".join(prof_lines) + "\n"
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
