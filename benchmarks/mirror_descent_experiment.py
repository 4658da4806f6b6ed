"""Spec 06 (our CPU study): mirror descent vs projected gradient descent on l*-smooth problems.

Part A — iterations to ``f(x_t) - f* <= 1e-6`` (cap 20,000), median over 5 seeds:

* simplex + cosh ridge ``2 cosh(cᵀx - b)``, ``c ~ U[-1, 1]^n``, ``b = 0.3 max c``, ``x0`` uniform:
  entropic MD with ``η = 1/l(2G)`` in the (l1, linf) geometry vs projected gradient descent with
  ``η = 1/l(2G)`` in the (l2, l2) geometry (Euclidean projection onto the simplex);
* unconstrained quartic ridge ``(1ᵀx)⁴/4`` (the paper's √n gap example): gradient descent with the
  (l2, l2) constants vs lp mirror descent, ``p = 1 + 1/ln n`` (≈ l1 geometry), with its constants.

Part B — fitted slopes of ``log(f(x_T) - f*)`` against ``log T``, ``T in {10, 30, 100, 300,
1000}`` (points with gap ``< 1e-12`` dropped), on the spec's simplex instance with ``n = 50``:
MD (spec: ``<= -0.9``), accelerated MD (``<= -1.8``, faster allowed), stochastic MD with bounded
noise ``σ0 = 0.5`` (median of 20 seeds, spec band ``[-0.7, -0.3]`` over the full T range).  The
extra row "T >= 100 only" is a diagnostic, NOT the spec's assertion: table B2 shows that for
``T <= 30`` the median gap equals the noiseless MD gap with the same step (the deterministic,
geometrically decaying transient), so the fitted full-range slope is steeper than the band.

Run: ``python -m benchmarks.mirror_descent_experiment``; writes
``benchmarks/results/mirror_descent.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from benchmarks._env import pin_blas, write_table
from proofs_numeric.mirror_descent import simplex_instance
from reference import mirror_descent as md
from reference._arrays import FloatArray
from reference.games import project_simplex

RESULTS = Path(__file__).parent / "results"
CAP = 20_000
TOL = 1e-6
TS = (10, 30, 100, 300, 1000)


def _iterations(
    step: Callable[[FloatArray], FloatArray],
    f: Callable[[FloatArray], float],
    x0: FloatArray,
    f_star: float,
) -> int:
    x = x0.copy()
    for t in range(1, CAP + 1):
        x = step(x)
        if f(x) - f_star <= TOL:
            return t
    return CAP + 1


def simplex_race(n: int, seed: int) -> tuple[int, int]:
    """(MD iterations, PGD iterations) on the simplex cosh ridge."""
    problem, x0 = simplex_instance(np.random.default_rng(seed), n)
    gap0 = problem.value(x0) - problem.f_star
    l1 = md.effective_constants(problem.smoothness("l1"), gap0).lipschitz
    l2 = md.effective_constants(problem.smoothness("l2"), gap0).lipschitz
    md_steps = _iterations(
        lambda x: md.entropic_step(x, problem.grad(x), 1.0 / l1), problem.value, x0, 2.0
    )
    pgd_steps = _iterations(
        lambda x: project_simplex(x - problem.grad(x) / l2), problem.value, x0, 2.0
    )
    return md_steps, pgd_steps


def quartic_race(n: int) -> tuple[int, int]:
    """(lp-MD iterations, GD iterations) on ``(1ᵀx)⁴/4`` from ``x0 = e_1``."""
    problem = md.quartic_ridge(np.ones(n))
    x0 = np.zeros(n)
    x0[0] = 1.0
    gap0 = problem.value(x0)
    p = 1.0 + 1.0 / math.log(n)
    lp = md.effective_constants(problem.smoothness("lp", p=p), gap0).lipschitz
    l2 = md.effective_constants(problem.smoothness("l2"), gap0).lipschitz
    mdp = _iterations(
        lambda x: md.prox_step(x, problem.grad(x), 1.0 / lp, mirror="lp", p=p),
        problem.value,
        x0,
        0.0,
    )
    gd = _iterations(lambda x: x - problem.grad(x) / l2, problem.value, x0, 0.0)
    return mdp, gd


def _slope(ts: list[int], gaps: list[float]) -> tuple[float, int]:
    keep = [(t, g) for t, g in zip(ts, gaps, strict=True) if g >= 1e-12]
    if len(keep) < 2:
        return math.nan, len(keep)
    x = np.log([t for t, _ in keep])
    y = np.log([g for _, g in keep])
    return float(np.polyfit(x, y, 1)[0]), len(keep)


def slopes() -> tuple[dict[str, tuple[float, int]], list[tuple[int, float, float, float]]]:
    """Fitted rate exponents on the spec's n = 50 simplex instance, and per T the stochastic
    step, the median stochastic gap and the noiseless MD gap with the same step."""
    problem, x0 = simplex_instance(np.random.default_rng(0), 50)
    gap0 = problem.value(x0) - 2.0
    lip = md.effective_constants(problem.smoothness("l1"), gap0).lipschitz
    lip4 = md.effective_constants(problem.smoothness("l1"), gap0, accelerated=True).lipschitz
    md_gaps = [
        problem.value(
            np.asarray(
                md.mirror_descent(
                    problem.grad, x0, step_size=1 / lip, max_iter=t, mirror="entropic"
                ).x
            )
        )
        - 2.0
        for t in TS
    ]
    acc_gaps = [
        problem.value(
            np.asarray(
                md.accelerated_mirror_descent(
                    problem.grad, x0, lipschitz=lip4, max_iter=t, mirror="entropic"
                ).x
            )
        )
        - 2.0
        for t in TS
    ]
    sto = []
    detail = []
    for t in TS:
        finals = [
            problem.value(
                np.asarray(
                    md.stochastic_mirror_descent(
                        problem.grad,
                        x0,
                        max_iter=t,
                        lipschitz=lip,
                        sigma0=0.5,
                        mirror="entropic",
                        rng=np.random.default_rng(100 + s),
                    ).x
                )
            )
            - 2.0
            for s in range(20)
        ]
        sto.append(float(np.median(finals)))
        eta = min(1.0 / (2.0 * lip), 1.0 / math.sqrt(t))  # the default rule of the run above
        quiet = md.mirror_descent(problem.grad, x0, step_size=eta, max_iter=t, mirror="entropic")
        detail.append((t, eta, sto[-1], problem.value(np.asarray(quiet.x)) - 2.0))
    rates = {
        "MD": _slope(list(TS), md_gaps),
        "accelerated MD": _slope(list(TS), acc_gaps),
        "stochastic MD (σ0 = 0.5, median of 20)": _slope(list(TS), sto),
        "stochastic MD, T >= 100 only (diagnostic, not the spec's range)": _slope(
            list(TS[2:]), sto[2:]
        ),
    }
    return rates, detail


def main() -> None:
    start = time.perf_counter()
    lines = [
        "# Mirror descent vs projected gradient descent (spec 06, our CPU study)",
        "",
    ]
    lines += [
        "## A1. Simplex cosh ridge: iterations to f - f* <= 1e-6 (median of 5 seeds)",
        "",
        "| n | entropic MD (η = 1/l₁(2G₁)) | PGD (η = 1/l₂(2G₂)) | PGD / MD |",
        "|---|---|---|---|",
    ]
    for n in (10, 50, 200):
        runs = [simplex_race(n, s) for s in range(5)]
        a = float(np.median([r[0] for r in runs]))
        b = float(np.median([r[1] for r in runs]))
        lines.append(f"| {n} | {a:.0f} | {b:.0f} | {b / a:.2f} |")
    lines += [
        "",
        f"## A2. Quartic ridge (1ᵀx)⁴/4 from e₁: iterations to f <= 1e-6 (cap {CAP})",
        "",
        "| n | lp-MD, p = 1 + 1/ln n | GD (l2 constants) | GD / lp-MD |",
        "|---|---|---|---|",
    ]
    for n in (10, 100, 1000):
        a_i, b_i = quartic_race(n)
        text = [str(v) if v <= CAP else f"> {CAP}" for v in (a_i, b_i)]
        lines.append(f"| {n} | {text[0]} | {text[1]} | {b_i / a_i:.2f} |")
    lines += [
        "",
        "## B. Fitted slopes of log gap vs log T, T in {10, 30, 100, 300, 1000} (n = 50)",
        "",
        "| method | slope | points used (gap >= 1e-12) | spec target | verdict |",
        "|---|---|---|---|---|",
    ]
    targets: dict[str, tuple[str, float, float]] = {
        "MD": ("<= -0.9", -math.inf, -0.9),
        "accelerated MD": ("<= -1.8 (faster allowed)", -math.inf, -1.8),
        "stochastic MD (σ0 = 0.5, median of 20)": ("in [-0.7, -0.3]", -0.7, -0.3),
        "stochastic MD, T >= 100 only (diagnostic, not the spec's range)": (
            "(none: diagnostic)",
            -0.7,
            -0.3,
        ),
    }
    rates, detail = slopes()
    for name, (slope, used) in rates.items():
        target_text, low, high = targets[name]
        if math.isnan(slope):
            shown, ok = "faster than any power (gap < 1e-12)", high < -0.5
        else:
            shown, ok = f"{slope:.2f}", low <= slope <= high
        verdict = "PASS" if ok else "FAIL"
        if "diagnostic" in name:
            verdict = f"(in [-0.7, -0.3]: {'yes' if ok else 'no'})"
        lines.append(f"| {name} | {shown} | {used} | {target_text} | {verdict} |")
    lines += [
        "",
        "## B2. Stochastic MD per T: median gap vs noiseless MD with the same step",
        "",
        "| T | η = min(1/(2L), 1/√T) | median gap, σ0 = 0.5 (20 seeds) | noiseless MD gap |",
        "|---|---|---|---|",
    ]
    for t, eta, noisy, quiet_gap in detail:
        lines.append(f"| {t} | {eta:.4g} | {noisy:.3e} | {quiet_gap:.3e} |")
    lines += [
        "",
        "For T <= 30 the step is capped at 1/(2L) and the median gap is the deterministic "
        "transient (noiseless MD gap, decaying geometrically on this instance); the noise floor "
        "(∝ η ∝ 1/√T) takes over only from T ≈ 100. The spec's band is therefore not met over "
        "its own T range with its own defaults (σ0 = 0.5, c = 1); Theorem 4.2 is an upper bound "
        "(O~(1/√T)), which a faster early decay does not contradict.",
    ]
    seconds = time.perf_counter() - start
    lines.insert(
        2,
        "Generated by `OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 python -m "
        f"benchmarks.mirror_descent_experiment` ({seconds:.0f} s, shared 2-core machine). "
        "Steps use the paper's constants: L = l(2G) in the geometry of each method "
        "(l(4G) for accelerated MD).\n",
    )
    RESULTS.mkdir(parents=True, exist_ok=True)
    write_table((RESULTS / "mirror_descent.md"), "\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    pin_blas(1)
    main()
