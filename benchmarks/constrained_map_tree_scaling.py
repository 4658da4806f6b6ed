"""Spec 04 §6 (i): MpMap on C1-style random trees up to 40 nodes — time per node, and the O2 check.

Instances, two generators:

* ``C1``: :func:`reference.constrained_map.random_tree_problem` as it is (spec 04 C1: chains and
  stars on [0, 1]^n, piecewise-polynomial unary factors, 1-2 random bivariate clauses per edge).
  C1 rejects infeasible draws; MpMap is exact on this fragment, so its "infeasible" verdict decides.
  Almost every draw is infeasible once n grows (each edge's clauses can fail), so C1 alone cannot
  reach 40 nodes: the table says how many draws it took.
* ``planted`` (our variant, to reach 40 nodes): the same density and the same literal law, but each
  clause is redrawn until a planted point x0 ~ U[0, 1]^n satisfies it, so every draw is feasible.

For each generator, shape and n we keep the first 5 feasible draws (at most ``max_draws`` draws).

Per kept instance: MpMap's wall time (and time per node) and its log-density.  For n <= 8 the spec's
oracle O2 (PaMap without pruning, S = 20 starts) runs too; MpMap must reach at least O2's value
(MpMap is exact, O2 a heuristic): the table counts the instances where MpMap >= O2 - 1e-9 max(1, v)
and reports the mean gap log w(MpMap) - log w(O2).

Run: ``python -m benchmarks.constrained_map_tree_scaling``; writes
``benchmarks/results/constrained_map_tree_scaling.md`` and ``.png``.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from benchmarks._env import environment_line, pin_blas, write_table
from reference import constrained_map as cm

RESULTS = Path(__file__).resolve().parent / "results"
SIZES = (2, 4, 8, 16, 24, 32, 40)
SHAPES = ("chain", "star")
GENERATORS = ("C1", "planted")
O2_MAX_N = 8


@dataclass
class SizeResult:
    n: int
    shape: str
    generator: str = "C1"
    draws: int = 0
    seconds: list[float] = field(default_factory=list)
    log_values: list[float] = field(default_factory=list)
    o2_gaps: list[float] = field(default_factory=list)
    o2_ok: int = 0
    o2_seconds: list[float] = field(default_factory=list)
    false_infeasible: int = 0


def planted_tree_problem(rng: np.random.Generator, *, n_vars: int, shape: str) -> cm.MapProblem:
    """C1's density and literal law, each clause redrawn until a planted x0 ~ U[0, 1]^n satisfies it."""
    base = cm.random_tree_problem(rng, n_vars=n_vars, shape=shape)
    n = n_vars
    x0 = rng.uniform(0.0, 1.0, n)
    edges = [(k, k + 1) for k in range(n - 1)] if shape == "chain" else [(0, k) for k in range(1, n)]
    clauses = []
    for i, j in edges:
        for _ in range(int(rng.integers(1, 3))):
            while True:
                lits = []
                for _ in range(int(rng.integers(1, 4))):
                    a = np.zeros(n)
                    a[i] = rng.choice([-1.0, 1.0, 2.0])
                    a[j] = rng.choice([-1.0, 1.0, 2.0])
                    lits.append((a, float(rng.uniform(-0.5, 0.5))))
                if any(float(a @ x0) <= b for a, b in lits):
                    break
            clauses.append(lits)
    return cm.make_problem(base.lo, base.hi, cm.make_formula(n, clauses), base.density)


def run_size(
    n: int, shape: str, *, instances: int, max_draws: int, o2_max_n: int, generator: str = "C1"
) -> SizeResult:
    out = SizeResult(n=n, shape=shape, generator=generator)
    while len(out.seconds) < instances and out.draws < max_draws:
        rng = np.random.default_rng([4, 1, n, SHAPES.index(shape), GENERATORS.index(generator), out.draws])
        out.draws += 1
        if generator == "C1":
            problem = cm.random_tree_problem(rng, n_vars=n, shape=shape)
        else:
            problem = planted_tree_problem(rng, n_vars=n, shape=shape)
        t0 = time.perf_counter()
        exact = cm.mp_map(problem)
        elapsed = time.perf_counter() - t0
        if not exact.feasible:
            if generator == "planted":  # satisfiable by construction: the verdict is wrong
                out.false_infeasible += 1
            continue
        out.seconds.append(elapsed)
        out.log_values.append(exact.log_value)
        if n <= o2_max_n:
            t0 = time.perf_counter()
            o2 = cm.pa_map(
                problem,
                rng=np.random.default_rng([4, 2, n, out.draws]),
                config=cm.PaMapConfig(starts=20, use_bounds=False),
            )
            out.o2_seconds.append(time.perf_counter() - t0)
            if o2.feasible:
                out.o2_gaps.append(exact.log_value - o2.log_value)
                tol = 1e-9 * max(1.0, abs(o2.value))
                out.o2_ok += int(exact.value >= o2.value - tol)
            else:  # O2 found nothing feasible: MpMap trivially at least as good
                out.o2_ok += 1
    return out


def _fit_exponent(ns: list[float], seconds: list[float]) -> float:
    if len(ns) < 2:
        return math.nan
    slope, _ = np.polyfit(np.log(ns), np.log(seconds), 1)
    return float(slope)


def _plot(results: list[SizeResult], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for shape, colour in zip(SHAPES, ("tab:blue", "tab:orange"), strict=True):
        rows = [r for r in results if r.generator == "planted" and r.shape == shape and r.seconds]
        ns = [r.n for r in rows]
        ax1.plot(ns, [np.median(r.seconds) for r in rows], marker="o", color=colour, label=f"{shape}: median")
        for r in rows:
            ax1.scatter([r.n] * len(r.seconds), r.seconds, s=8, alpha=0.4, color=colour)
        ax2.plot(ns, [np.median(r.seconds) / r.n for r in rows], marker="o", color=colour, label=shape)
    ax1.set_xscale("log")
    ax1.set_yscale("log")
    ax1.set_xlabel("nodes n")
    ax1.set_ylabel("MpMap wall time (s)")
    ax1.set_title("Exact MpMap on random trees (planted C1 variant)")
    ax1.legend(fontsize=8)
    ax2.set_xlabel("nodes n")
    ax2.set_ylabel("median time per node (s)")
    ax2.set_title("Time per node (flat = linear in n)")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run(
    *,
    sizes: tuple[int, ...] = SIZES,
    c1_sizes: tuple[int, ...] = (2, 4, 8, 16),
    instances: int = 5,
    max_draws: int = 100,
    o2_max_n: int = O2_MAX_N,
    command: str,
    out: Path | None,
) -> tuple[list[SizeResult], str]:
    env0, t0 = environment_line(), time.perf_counter()
    results = []
    for generator, grid in (("C1", c1_sizes), ("planted", sizes)):
        for shape in SHAPES:
            for n in grid:
                r = run_size(
                    n, shape, instances=instances, max_draws=max_draws, o2_max_n=o2_max_n,
                    generator=generator,
                )
                print(f"{generator} {shape} n={n}: kept {len(r.seconds)} of {r.draws} draws", flush=True)
                results.append(r)
    wall = time.perf_counter() - t0
    lines = [
        "# Spec 04 §6 (i): exact MpMap on random trees up to 40 nodes",
        "",
        f"`{command}` ({wall:.0f} s wall).",
        "",
        f"Spec's setting (§6 (i)): C1-style random trees up to 40 nodes, time per node. This run: chains "
        f"and stars; the C1 generator as is for n ∈ {{{', '.join(map(str, c1_sizes))}}} and the planted "
        f"variant (every draw feasible) for n ∈ {{{', '.join(map(str, sizes))}}}; the first {instances} "
        f"feasible draws per row (at most {max_draws} draws; MpMap is exact and decides feasibility); "
        f"oracle O2 (PaMap, no pruning, S = 20) for n ≤ {o2_max_n} as spec 04 §4 prescribes. Deviation: "
        "the planted generator, because C1's draws are almost all infeasible beyond 16 nodes.",
        "",
        f"Before the run: {env0}.",
        "",
        "| generator | shape | n | draws (kept) | MpMap median s | median s per node | max s | mean log w | "
        "O2 checks: MpMap ≥ O2 | mean log w(MpMap) − log w(O2) | O2 median s | MpMap 'infeasible' on a "
        "satisfiable (planted) draw |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        if not r.seconds:
            lines.append(
                f"| {r.generator} | {r.shape} | {r.n} | {r.draws} (0) | — | — | — | — | — | — | — | "
                f"{r.false_infeasible if r.generator == 'planted' else '—'} |"
            )
            continue
        checked = len(r.o2_seconds)
        lines.append(
            f"| {r.generator} | {r.shape} | {r.n} | {r.draws} ({len(r.seconds)}) | {np.median(r.seconds):.3f} | "
            f"{np.median(r.seconds) / r.n:.4f} | {max(r.seconds):.3f} | {np.mean(r.log_values):.3f} | "
            + (f"{r.o2_ok}/{checked}" if checked else "— (n > 8)")
            + " | "
            + (f"{np.mean(r.o2_gaps):+.2e}" if r.o2_gaps else "—")
            + " | "
            + (f"{np.median(r.o2_seconds):.3f}" if r.o2_seconds else "—")
            + f" | {r.false_infeasible if r.generator == 'planted' else '—'} |"
        )
    lines += ["", "Fitted exponent of median MpMap time against n (log-log least squares, n ≥ 4):", ""]
    for shape in SHAPES:
        rows = [
            r for r in results
            if r.generator == "planted" and r.shape == shape and r.seconds and r.n >= 4
        ]
        slope = _fit_exponent([float(r.n) for r in rows], [float(np.median(r.seconds)) for r in rows])
        lines.append(f"- planted {shape}: time ∝ n^{slope:.2f}")
    wrong = sum(r.false_infeasible for r in results)
    total_checked = sum(len(r.o2_seconds) for r in results)
    total_ok = sum(r.o2_ok for r in results)
    lines += [
        "",
        f"O2 check (spec 04 C1: MpMap value ≥ O2 value − 1e-9·max(1, v)): {total_ok} of {total_checked} "
        "instances. Paper's claim (Thm 4.5, as quoted in spec 04 §8): MAP on this fragment (treewidth one, "
        "bounded diameter) is exact and tractable, worst case exponential in the diameter (Thm A.8) — "
        "stars have diameter 2, chains diameter n − 1, so a chain growing faster than a star is what "
        "the theorem allows.",
        "",
        f"MpMap declared Δ unsatisfiable on {wrong} planted draw(s), each satisfiable by construction (the "
        "planted point satisfies every clause and has positive density): "
        + ("none, as an exact solver must." if wrong == 0 else "**a wrong verdict of the exact solver** "
           "(issue 34 found one such draw: ties broken with an absolute tolerance 1e-12 while the "
           "beliefs were ~1e-16; fixed, regression test in "
           "`tests/test_benchmarks_constrained_map_tree_scaling.py`)."),
        "",
        f"After the run ({wall:.0f} s wall): {environment_line()}.",
    ]
    text = "\n".join(lines) + "\n"
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        write_table(out / "constrained_map_tree_scaling.md", text)
        _plot(results, out / "constrained_map_tree_scaling.png")
    return results, text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--instances", type=int, default=5)
    parser.add_argument("--max-draws", type=int, default=100)
    args = parser.parse_args()
    command = (
        f"python -m benchmarks.constrained_map_tree_scaling --instances {args.instances} "
        f"--max-draws {args.max_draws}"
    )
    _, text = run(instances=args.instances, max_draws=args.max_draws, command=command, out=RESULTS)
    print(text)


if __name__ == "__main__":
    pin_blas(1)
    main()
