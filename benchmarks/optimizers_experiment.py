"""Small CPU reproductions for specs 02, 14 and 05 (optimizer family).

1. Gradient chattering (spec 02 §6 (a), our default): the nonsmooth Rosenbrock
   ``10|y - x^2| + |1 - x|`` from (-1.5, 2.0) and ``||x||_1`` (d = 10), lr 0.01,
   S-Adam (k = 5, sigma = 0.01, lambda = 5) vs Adam vs AdamW, 5 seeds: final loss and the
   chattering index (fraction of coordinates whose update sign flips between consecutive
   steps, mean over the last 200 steps).  The quantised-MLP experiment is in
   ``benchmarks/optimizers_qat_chattering.py``.
2. Heavy-tailed noise (spec 14 §4.3 benchmark): box-constrained nonconvex quadratic,
   d = 20, gradient noise symmetric Pareto tail 1.8 scaled to median 1; momentum SFW vs R1
   (clipped momentum) vs R2 (clipped STORM): p50/p95 of ``min_t gap`` over seeds and the
   fitted slopes against T (reference exponents, not asserted: -1/4, -(p-1)/(3p-2),
   -(p-1)/(2p-1)).
3. Stability vs n (spec 05 §4.4 E1): clipped SGD (eta 0.01, tau 1, T 100) on least
   squares with heavy-tailed targets, mean ``delta_T`` over coupled runs for n in
   {50 .. 800}; fitted slope (expected -1).
4. Step cost (issue 7): torch S-Adam / torch Adam step time on a ~1M-parameter MLP with
   k = 2, measured in one process (forward, forward+backward, Adam step and S-Adam step
   interleaved in every repetition, medians); target ``<= 1 + k f/(f+b) + 0.2`` with
   f/(f+b) the measured forward share.

Other experiments of the family: ``optimizers_qat_chattering.py`` (spec 02 §6, quantised
MLP), ``optimizers_goldstein_rate.py`` (spec 02 §4.1), ``optimizers_heavy_tailed_stability.py``
(spec 05 E2, E3), ``optimizers_char_model.py`` (spec 14 §6).

Run: ``OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python -m benchmarks.optimizers_experiment [--quick]``; writes
``benchmarks/results/optimizers_results.md``.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks._env import pin_blas, write_table
from reference import optimizers as ref
from reference import stability
from reference._arrays import FloatArray

RESULTS = Path(__file__).parent / "results"


# ----------------------------------------------------------------------------- chattering
def _rosenbrock(p: Any) -> float:
    x, y = np.asarray(p)
    return float(10.0 * abs(y - x * x) + abs(1.0 - x))


def _rosenbrock_grad(p: FloatArray) -> FloatArray:
    x, y = p
    s = np.sign(y - x * x)
    return np.array([-20.0 * x * s - np.sign(1.0 - x), 10.0 * s])


def _l1(p: Any) -> float:
    return float(np.sum(np.abs(np.asarray(p))))


def _l1_grad(p: FloatArray) -> FloatArray:
    return np.sign(p)


def _chatter(
    name: str,
    f: Callable[[Any], float],
    grad: Callable[[FloatArray], FloatArray],
    x0: FloatArray,
    steps: int,
    seed: int,
) -> tuple[float, float]:
    if name == "S-Adam":
        opt: Any = ref.s_adam(learning_rate=0.01, k_directions=5, sigma=0.01, lgi_lambda=5.0)
    elif name == "AdamW":
        opt = ref.adamw(learning_rate=0.01)
    else:
        opt = ref.adam(learning_rate=0.01)
    rng = np.random.default_rng(seed)
    x, state = x0.copy(), opt.init(x0)
    updates = []
    for _ in range(steps):
        g = grad(x)
        if name == "S-Adam":
            u, state = opt.update(g, state, x, loss=f, rng=rng)
        else:
            u, state = opt.update(g, state, x)
        u = np.asarray(u)
        updates.append(np.sign(u))
        x = x + u
    tail = np.array(updates[-201:])
    flips = float(np.mean(tail[1:] != tail[:-1]))
    return f(x), flips


def chattering(seeds: int, steps: int) -> list[str]:
    rows = [
        "| problem | optimizer | final loss (mean ± sd) | chattering index (mean ± sd) |",
        "|---|---|---|---|",
    ]
    problems: list[
        tuple[str, Callable[[Any], float], Callable[[FloatArray], FloatArray], FloatArray]
    ] = [
        ("10|y-x²|+|1-x| from (-1.5, 2)", _rosenbrock, _rosenbrock_grad, np.array([-1.5, 2.0])),
        ("||x||_1, d = 10", _l1, _l1_grad, np.linspace(-1.0, 1.0, 10) + 0.05),
    ]
    for label, f, grad, x0 in problems:
        for name in ("Adam", "AdamW", "S-Adam"):
            out = np.array([_chatter(name, f, grad, x0, steps, s) for s in range(seeds)])
            rows.append(
                f"| {label} | {name} | {out[:, 0].mean():.4g} ± {out[:, 0].std():.2g} "
                f"| {out[:, 1].mean():.3f} ± {out[:, 1].std():.3f} |"
            )
    return rows


# ------------------------------------------------------------------------ heavy-tailed SFW
def _heavy_tailed_sfw(horizons: tuple[int, ...], seeds: int) -> list[str]:
    d, r = 20, 1.0
    rng0 = np.random.default_rng(0)
    b = rng0.normal(size=(d, d))
    q = (b + b.T) / (2.0 * math.sqrt(d))
    c = rng0.normal(size=d)
    median = float(np.median(np.abs(stability.symmetric_pareto(100_000, tail=1.8, rng=rng0))))

    def grad(x: FloatArray) -> FloatArray:
        out: FloatArray = q @ x + c
        return out

    results: dict[str, dict[int, list[float]]] = {}
    for method in ("momentum SFW", "R1 clipped", "R2 clipped STORM"):
        results[method] = {}
        for horizon in horizons:
            mins = []
            for seed in range(seeds):
                rng = np.random.default_rng(1000 * seed + horizon)

                def noise(gen: np.random.Generator = rng) -> FloatArray:
                    return stability.symmetric_pareto(d, tail=1.8, rng=gen) / median

                x = np.zeros(d)
                if method == "R2 clipped STORM":
                    opt: Any = ref.sfw_vr(radius=r, clip_tau=5.0)
                else:
                    opt = ref.sfw(radius=r, clip_tau=5.0 if method == "R1 clipped" else math.inf)
                state = opt.init(x)
                best = math.inf
                prev = x
                for _ in range(horizon):
                    best = min(best, ref.fw_gap(grad(x), x, r, "linf"))
                    xi = noise()
                    if method == "R2 clipped STORM":
                        u, state = opt.update(grad(x) + xi, state, x, prev_grads=grad(prev) + xi)
                    else:
                        u, state = opt.update(grad(x) + xi, state, x)
                    prev, x = x, x + np.asarray(u)
                mins.append(best)
            results[method][horizon] = mins
    rows = [
        "| method | T | p50 min gap | p95 min gap |",
        "|---|---|---|---|",
    ]
    slopes = []
    for method, per_t in results.items():
        for horizon, mins in per_t.items():
            rows.append(
                f"| {method} | {horizon} | {np.percentile(mins, 50):.4g} | {np.percentile(mins, 95):.4g} |"
            )
        ts = np.log(np.array(list(per_t)))
        med = np.log([np.percentile(v, 50) for v in per_t.values()])
        slopes.append(f"{method}: {np.polyfit(ts, med, 1)[0]:+.3f}")
    rows.append("")
    rows.append("Fitted log-log slopes of the median min-gap against T: " + "; ".join(slopes) + ".")
    return rows


# ---------------------------------------------------------------------- stability vs n (E1)
def _stability_vs_n(ns: tuple[int, ...], runs: int) -> list[str]:
    rows = [
        "| n | mean delta_T (clipped) | stderr | S1 bound | mean delta_T (plain SGD) |",
        "|---|---|---|---|---|",
    ]
    means = []
    for n in ns:
        rng = np.random.default_rng(n)
        a = rng.normal(size=(n, 5))
        a /= np.linalg.norm(a, axis=1, keepdims=True)
        y = a @ rng.normal(size=5) + stability.symmetric_pareto(n, tail=1.5, rng=rng)
        a2, y2 = stability.neighbouring_dataset(a, y, 0, a[1], float(y[1]) + 50.0)
        clipped = stability.coupled_runs(
            ref.clipped_sgd(learning_rate=0.01, tau=1.0),
            a,
            y,
            a2,
            y2,
            np.zeros(5),
            steps=100,
            runs=runs,
            rng=np.random.default_rng(7),
        )
        plain = stability.coupled_runs(
            ref.clipped_sgd(learning_rate=0.01, tau=math.inf),
            a,
            y,
            a2,
            y2,
            np.zeros(5),
            steps=100,
            runs=runs,
            rng=np.random.default_rng(7),
        )
        bound = stability.clipped_sgd_stability_bound(
            n=n, steps=100, learning_rate=0.01, tau=1.0, smoothness=1.0
        )
        means.append(clipped.mean)
        rows.append(
            f"| {n} | {clipped.mean:.4g} | {clipped.stderr:.2g} | {bound:.4g} | {plain.mean:.4g} |"
        )
    slope = np.polyfit(np.log(ns), np.log(means), 1)[0]
    rows.append("")
    rows.append(
        f"Fitted slope of log mean delta_T (clipped) against log n: {slope:+.3f} (spec 05 E1: -1 ± 0.15)."
    )
    return rows


# ------------------------------------------------------------------------------- step cost
def _step_cost(repeats: int) -> list[str]:
    """Median per-step times, the four timed functions interleaved in every repetition."""
    import statistics

    import torch

    from reference.optimizers.fast_torch import SAdam

    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = torch.nn.Sequential(
        torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 512)
    ).double()
    n_params = sum(p.numel() for p in model.parameters())
    xb = torch.randn(64, 512, dtype=torch.float64)
    yb = torch.randn(64, 512, dtype=torch.float64)

    def forward() -> Any:
        return torch.mean((model(xb) - yb) ** 2)

    def fwd_only() -> None:
        with torch.no_grad():
            forward()

    def fwd_bwd() -> None:
        model.zero_grad()
        forward().backward()

    adam = torch.optim.Adam(model.parameters(), lr=1e-4)

    def adam_step() -> None:
        adam.zero_grad()
        forward().backward()
        adam.step()

    fused = torch.optim.Adam(model.parameters(), lr=1e-4, fused=True)

    def fused_step() -> None:
        fused.zero_grad()
        forward().backward()
        fused.step()

    sadam = SAdam(model.parameters(), lr=1e-4, k_directions=2)

    def closure(backward: bool) -> Any:
        if backward:
            sadam.zero_grad()
            out = forward()
            out.backward()
            return out
        return forward()

    fns: dict[str, Callable[[], Any]] = {
        "forward": fwd_only,
        "forward+backward": fwd_bwd,
        "adam": adam_step,
        "adam_fused": fused_step,
        "sadam": lambda: sadam.step(closure),
    }
    times: dict[str, list[float]] = {name: [] for name in fns}
    for fn in fns.values():  # warm-up (allocates optimizer state and buffers)
        fn()
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    med = {name: statistics.median(v) for name, v in times.items()}
    ratios = [s / a for s, a in zip(times["sadam"], times["adam"], strict=True)]
    share = med["forward"] / med["forward+backward"]
    ratio = med["sadam"] / med["adam"]
    target = 1 + 2 * share + 0.2
    q1, _, q3 = statistics.quantiles(ratios, n=4)
    return [
        f"Model: float64 MLP 512-1024-512 (ReLU), batch 64, MSE loss; {repeats} interleaved "
        "repetitions (forward, forward+backward, Adam step, fused Adam step, S-Adam step in turn), "
        "medians; the target compares with torch.optim.Adam's default (single-tensor on CPU); "
        "`torch.set_num_threads(1)`, OPENBLAS/OMP/MKL threads 1; shared 2-core machine.",
        "",
        "| quantity | value |",
        "|---|---|",
        f"| parameters | {n_params} |",
        f"| forward (no grad) (ms) | {1e3 * med['forward']:.2f} |",
        f"| forward + backward (ms) | {1e3 * med['forward+backward']:.2f} |",
        f"| forward / (forward + backward) | {share:.3f} |",
        f"| torch Adam step incl. forward+backward (ms) | {1e3 * med['adam']:.2f} |",
        f"| torch S-Adam step, k = 2, incl. forward+backward+2 probes (ms) | {1e3 * med['sadam']:.2f} |",
        f"| ratio S-Adam / Adam (ratio of medians) | {ratio:.3f} |",
        f"| per-repetition ratio, quartiles | {q1:.3f} / {statistics.median(ratios):.3f} / {q3:.3f} |",
        f"| target 1 + k f/(f+b) + 0.2 | {target:.3f} |",
        f"| context: torch Adam(fused=True) step (ms) | {1e3 * med['adam_fused']:.2f} |",
        f"| context: ratio S-Adam / Adam(fused=True) | {med['sadam'] / med['adam_fused']:.3f} |",
        f"| within target | {'yes' if ratio <= target else 'NO'} |",
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sweeps")
    args = parser.parse_args(argv)
    quick = bool(args.quick)
    start = time.perf_counter()
    sections = [
        "# Optimizer family: CPU reproductions (specs 02, 14, 05)",
        "",
        f"Generated by `python -m benchmarks.optimizers_experiment{' --quick' if quick else ''}`"
        " (numpy reference implementations; torch for the step cost).",
        "",
        "## 1. Gradient chattering (spec 02 §6 (a))",
        "",
        *chattering(seeds=5, steps=600 if quick else 2000),
        "",
        "## 2. Heavy-tailed noise, SFW variants (spec 14 §4.3 benchmark)",
        "",
        *_heavy_tailed_sfw((100, 1000) if quick else (100, 1000, 10000), seeds=10 if quick else 20),
        "",
        "## 3. Stability vs n, clipped SGD (spec 05 §4.4 E1)",
        "",
        *_stability_vs_n((50, 100, 200, 400, 800), runs=60 if quick else 200),
        "",
        "## 4. Step cost, torch S-Adam vs torch Adam (issue 7)",
        "",
        *_step_cost(repeats=20 if quick else 100),
        "",
        f"Total time {time.perf_counter() - start:.0f} s.",
    ]
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / "optimizers_results.md"
    write_table(out, "\n".join(sections) + "\n", encoding="utf-8")
    print("\n".join(sections))


if __name__ == "__main__":
    pin_blas(1)
    main()
