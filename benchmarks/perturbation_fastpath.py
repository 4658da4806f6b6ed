"""Reference vs fast path of the perturbation family: CPU time per step, per call, per batch.

Run: ``python -m benchmarks.perturbation_fastpath [--quick]`` (numba, the ``[fast]`` extra,
adds the compiled column; torch adds the torch batch).  Writes
``benchmarks/results/perturbation_fastpath.md``.

Timing is CPU time of this process (``time.process_time``) with BLAS pinned to one thread
(:func:`benchmarks._env.pin_blas`): the machine this was written on is shared and loaded, and
CPU time is what the process itself spent.  The methods are interleaved per instance (reference,
numpy, compiled, in rotating order, ``REPEATS`` times; the median is reported), and every fast
result is compared with the reference's before its time is kept (``max |Δx|, |Δy|`` and equal
iteration counts).  The compiled build's first call compiles; that time is reported apart.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks._env import environment_line, pin_blas, write_table
from reference import perturbation as pert
from reference._arrays import FloatArray
from reference.perturbation import fast, fast_kernels

OUT = Path(__file__).resolve().parent / "results"
REPEATS = 3
#: The 3 x 5 game of issue 31: parameter_free needs ~706 000 steps at tol 8.4e-6.
ISSUE_GAME = np.array([[0, 0, 0, 0, 0], [0, 0, 0, 0, 1e-4], [0, 0, 8.404647236959661, 0, 0]])


def _games() -> dict[str, FloatArray]:
    rng = np.random.default_rng(0)
    return {
        "issue 3x5": ISSUE_GAME.astype(np.float64),
        "biased RPS 3x3": np.array(pert.biased_rps()),
        "biased MP 2x2": np.array(pert.biased_matching_pennies()),
        "M-Ne 5x5": np.array(pert.m_ne()),
        "U(-1,1) 10x10": rng.uniform(-1.0, 1.0, (10, 10)),
        "N(0,1) 20x20": rng.standard_normal((20, 20)),
    }


def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def _builds() -> list[str]:
    return ["numpy", "compiled"] if fast_kernels.AVAILABLE else ["numpy"]


def _run_fast(build: str, fn: Callable[[], Any]) -> tuple[float, Any]:
    fast_kernels.ENABLED = build == "compiled"
    try:
        return _cpu(fn)
    finally:
        fast_kernels.ENABLED = fast_kernels.AVAILABLE


def _agree(want: Any, got: Any) -> float:
    if got.iterations != want.iterations:
        raise AssertionError(f"iterations differ: {got.iterations} vs {want.iterations}")
    return max(float(np.max(np.abs(got.x - want.x))), float(np.max(np.abs(got.y - want.y))))


def _interleaved(
    reference: Callable[[], Any], fasts: dict[str, Callable[[], Any]], repeats: int
) -> tuple[dict[str, float], Any, float]:
    """Median CPU seconds per method, the reference's result, the largest disagreement."""
    names = ["reference", *fasts]
    times: dict[str, list[float]] = {n: [] for n in names}
    want: Any = None
    worst = 0.0
    for rep in range(repeats):
        order = names[rep % len(names) :] + names[: rep % len(names)]
        results: dict[str, Any] = {}
        for name in order:
            if name == "reference":
                seconds, results[name] = _cpu(reference)
            else:
                seconds, results[name] = _run_fast(name, fasts[name])
            times[name].append(seconds)
        want = results["reference"]
        for name in fasts:
            worst = max(worst, _agree(want, results[name]))
    return {n: statistics.median(v) for n, v in times.items()}, want, worst


def _per_step_rows(steps: int, repeats: int) -> list[str]:
    rows = []
    calls: list[tuple[str, dict[str, Any]]] = [
        ("parameter_free", {"tol": 1e-300, "max_iter": steps, "patience": 0}),
        ("asymp_gda", {"mu": 0.5, "max_iter": steps, "tol": None}),
        ("asymp_gda_side", {"mu": 0.5, "max_iter": steps, "tol": None}),
        ("symp_gda", {"mu": 0.5, "max_iter": steps, "tol": None}),
        ("gda", {"max_iter": steps, "tol": None}),
        ("ogda", {"max_iter": steps, "tol": None}),
    ]
    for game, a in _games().items():
        for name, kw in calls:
            ref_fn = getattr(pert, name)
            fast_fn = getattr(fast, name)
            fasts: dict[str, Callable[[], Any]] = {b: partial(fast_fn, a, **kw) for b in _builds()}
            med, want, worst = _interleaved(partial(ref_fn, a, **kw), fasts, repeats)
            n = max(1, want.iterations)
            cells = [f"{1e6 * med['reference'] / n:.1f}"]
            for b in _builds():
                cells += [f"{1e6 * med[b] / n:.2f}", f"{med['reference'] / max(med[b], 1e-9):.0f}x"]
            if len(_builds()) == 1:
                cells += ["—", "—"]
            rows.append(f"| {game} | {name} | {n} | " + " | ".join(cells) + f" | {worst:.1e} |")
            print(rows[-1], flush=True)
    return rows


def _per_call_rows(quick: bool) -> list[str]:
    rows = []
    cases: list[tuple[str, FloatArray, dict[str, Any]]] = [
        ("biased RPS 3x3", np.array(pert.biased_rps()), {"tol": 1e-9}),
        ("M-Ne 5x5", np.array(pert.m_ne()), {"tol": 1e-9}),
        ("N(0,1) 20x20", np.random.default_rng(1).standard_normal((20, 20)), {"tol": 1e-8}),
    ]
    if not quick:
        cases.append(("issue 3x5", ISSUE_GAME.astype(np.float64), {"tol": 8.404647236959661e-6}))
    for game, a, kw in cases:
        fasts: dict[str, Callable[[], Any]] = {
            b: partial(fast.parameter_free, a, **kw) for b in _builds()
        }
        med, want, worst = _interleaved(partial(pert.parameter_free, a, **kw), fasts, 1)
        cells = [f"{med['reference']:.2f}"]
        for b in _builds():
            cells += [f"{med[b]:.3f}", f"{med['reference'] / max(med[b], 1e-9):.0f}x"]
        if len(_builds()) == 1:
            cells += ["—", "—"]
        rows.append(
            f"| {game} | {kw['tol']:.1e} | {want.iterations} | {want.stop_reason} | "
            + " | ".join(cells)
            + f" | {worst:.1e} |"
        )
        print(rows[-1], flush=True)
    return rows


def _starts(one: Callable[..., Any], x0s: FloatArray, y0s: FloatArray, k: int) -> list[Any]:
    return [one(x0=x0s[i], y0=y0s[i]) for i in range(k)]


def _batch_rows(quick: bool) -> list[str]:
    """The official runner's starts on biased RPS and M-Ne: start-steps per CPU second."""
    rows = []
    s = pert.OFFICIAL
    iters = 2000 if quick else 10_000
    for game, a in (("biased RPS", np.array(pert.biased_rps())), ("M-Ne", np.array(pert.m_ne()))):
        x0s, y0s = pert.dirichlet_starts(a.shape, trials=s.trials, rng=np.random.default_rng(2026))
        kw: dict[str, Any] = {
            "mu": s.mu,
            "step_size": s.step_size,
            "max_iter": iters,
            "tol": s.gap_tol,
            "stop": "frank_wolfe",
        }
        ref_starts = 2
        one = partial(pert.asymp_gda, a, **kw)
        seconds, refs = _cpu(partial(_starts, one, x0s, y0s, ref_starts))
        ref_steps = sum(r.iterations for r in refs)
        ref_rate = ref_steps / seconds
        rows.append(
            f"| {game} | reference, one start at a time | {ref_starts} | {ref_rate:,.0f} | 1x | — |"
        )
        forms: list[tuple[str, Callable[[], Any]]] = []
        for b in _builds():
            forms.append(
                (
                    f"fast.asymp_gda_batch ({b})",
                    partial(_run_fast, b, partial(fast.asymp_gda_batch, a, x0s=x0s, y0s=y0s, **kw)),
                )
            )
        try:
            from reference.perturbation import fast_torch

            forms.append(
                (
                    "fast_torch.asymp_gda_batch (CPU, float64)",
                    partial(_cpu, partial(fast_torch.asymp_gda_batch, a, x0s=x0s, y0s=y0s, **kw)),
                )
            )
        except ModuleNotFoundError:
            pass
        for label, run in forms:
            seconds, batch = run()
            steps = int(np.sum(batch.iterations))
            rate = steps / seconds
            worst = max(float(np.max(np.abs(batch.x[i] - refs[i].x))) for i in range(ref_starts))
            same = all(int(batch.iterations[i]) == refs[i].iterations for i in range(ref_starts))
            rows.append(
                f"| {game} | {label} | {s.trials} | {rate:,.0f} | {rate / ref_rate:.0f}x | "
                f"{worst:.1e}{'' if same else ' (iterations differ)'} |"
            )
            print(rows[-1], flush=True)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs (smoke)")
    args = parser.parse_args(argv)
    blas = pin_blas(1)
    try:  # one torch thread too: two threads on a loaded 2-core machine spin (measured 16x slower)
        import torch

        torch.set_num_threads(1)
    except ModuleNotFoundError:
        pass
    compile_s = 0.0
    if fast_kernels.AVAILABLE:  # the first compiled call compiles every kernel it reaches
        t0 = time.process_time()
        fast.parameter_free(pert.biased_rps(), tol=1e-6)
        for name in ("asymp_gda", "asymp_gda_side", "symp_gda"):
            getattr(fast, name)(pert.biased_rps(), mu=1.0, max_iter=5)
        fast.gda(pert.biased_rps(), max_iter=5)
        fast.ogda(pert.biased_rps(), max_iter=5)
        compile_s = time.process_time() - t0
    env0 = environment_line()
    steps = 300 if args.quick else 3000
    repeats = 1 if args.quick else REPEATS
    builds = ", ".join(_builds())
    lines = [
        "# Perturbation fast path: reference vs fast (CPU time, BLAS pinned)",
        "",
        f"Builds measured: {builds} (numba {'installed' if fast_kernels.AVAILABLE else 'not installed'}"
        f"{f'; compiling the kernels took {compile_s:.1f} s CPU, once per process' if compile_s else ''}).",
        f"{blas}; torch (if installed) 1 thread.  Before the run: {env0}.  The machine was shared with other jobs (see the "
        "load): times are this process's CPU time (`time.process_time`), interleaved per "
        f"instance, median of {repeats}.",
        "",
        "## Per step (fixed step counts, no early stop)",
        "",
        f"{steps} steps (`parameter_free`: `tol=1e-300`, `patience=0`, capped at {steps}: one "
        "step advances both runs).  µs per step; speed-up = reference / fast; `max |Δ|` the "
        "largest difference of the returned x, y from the reference's (iteration counts equal).",
        "",
        "| game | function | steps | reference µs | numpy µs | numpy speed-up | compiled µs "
        "| compiled speed-up | max \\|Δ\\| |",
        "|---|---|---|---|---|---|---|---|---|",
        *_per_step_rows(steps, repeats),
        "",
        "## Per call: `parameter_free` to its tolerance (defaults otherwise)",
        "",
        "| game | tol | steps | stop | reference s | numpy s | numpy speed-up | compiled s "
        "| compiled speed-up | max \\|Δ\\| |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *_per_call_rows(args.quick),
        "",
        "## Many starts: the official runner's 100 Dirichlet(1) starts (η = 0.01, μ = 1, "
        "early stop on the Frank-Wolfe gaps < 1e-13)",
        "",
        f"{2000 if args.quick else 10_000} iterations cap per start; throughput = start-steps "
        "per CPU second (a start that stopped early adds only its own steps); the reference "
        "runs 2 starts one at a time; `max |Δ|` over those 2 starts against the batch's rows.",
        "",
        "| game | form | starts | start-steps / CPU s | vs reference | max \\|Δ\\| |",
        "|---|---|---|---|---|---|",
        *_batch_rows(args.quick),
        "",
        f"After the run: {environment_line()}.",
    ]
    OUT.mkdir(exist_ok=True)
    name = "perturbation_fastpath_quick.md" if args.quick else "perturbation_fastpath.md"
    write_table(OUT / name, "\n".join(lines) + "\n")
    print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
