"""Spec 13 §4 rate checks: the n-rate of the statistical term and the R-dependence of the estimate.

The paper's error decomposition (abstract; spec 13 §4): |D̂ − D_α| <= E_app(R) + E_rff(R, D) +
E_stat(R, n) + E_opt with E_app = O(R^{−γ}) (γ from a spectral source condition, unknown),
E_rff = O(R D^{−1/2}), E_stat = O(R n^{−1/2}).  The D-rate is a slow proof test
(``tests/divergence/test_proofs.py::test_rff_rate_full_profile``); this benchmark measures the other
two, as the spec sets them (full-batch projected Armijo ascent, T = 500, α = 1/2, d = 1: N(0, 1) vs
N(1, 1), D_α = 0.470012):

* **n-rate**: D = 256 features drawn once (median-heuristic bandwidth of the proxy sample, default
  band limit), R = 3; n = m in {250, 500, 1000, 2000, 4000, 8000}, 10 sample draws each; proxy
  D̂_∞ = the fit at n = m = 32 000 with the same features (the spec's settings).  Measured: the slope
  of log mean|D̂_n − D̂_∞| vs log n,
  with a 95% bootstrap CI (draws resampled within each n, 2000 resamples).  Theorem: −1/2 (spec's
  acceptance band [−0.7, −0.3]).
* **R-dependence**: the n = 32 000 proxy sample and features; R in {0.5, 1, 2, 4, 8}.  Checked: D_R is
  non-decreasing in R and stays <= D_α + 3 SE, where SE is the standard error of the two-sample mean
  Ĵ(θ̂_R) (sd of the per-point terms / √n per side, the nonparametric bootstrap's large-sample value);
  the gap D_α − D_R shrinks.  Reported: γ = −slope of log(D_α − D_R) vs log R over the radii with a gap
  above 3 SE, with the least-squares slope's standard error (no target: γ depends on the unknown
  source condition).

D̂ is the in-sample value Ĵ(θ̂) of the full-batch fit (no held-out split: the checks isolate the terms,
as the spec's D-rate check does).

Run: ``python -m benchmarks.divergence_rates``; writes ``benchmarks/results/divergence_rates.md`` and
``.png``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks._env import environment_line, pin_blas, write_table
from reference import divergence as dv

RESULTS = Path(__file__).resolve().parent / "results"
ALPHA = 0.5
TRUTH = dv.alpha_divergence_gaussian(np.zeros(1), np.eye(1), np.ones(1), np.eye(1), ALPHA)
SIZES = (250, 500, 1000, 2000, 4000, 8000)
RADII = (0.5, 1.0, 2.0, 4.0, 8.0)


@dataclass(frozen=True)
class Settings:
    sizes: tuple[int, ...] = SIZES
    draws: int = 10
    proxy_n: int = 32_000
    features: int = 256
    radius: float = 3.0
    radii: tuple[float, ...] = RADII
    iterations: int = 500
    seed: int = 13_4


def sample(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """n points of P = N(0, 1) and of Q = N(1, 1), as (n, 1) arrays."""
    return rng.standard_normal((n, 1)), rng.standard_normal((n, 1)) + 1.0


def fit_value(
    zx: np.ndarray, zy: np.ndarray, radius: float, iterations: int
) -> tuple[float, float, float]:
    """Full-batch Armijo fit: (Ĵ(θ̂), SE of Ĵ(θ̂) as a two-sample mean, ‖ŵ‖)."""
    cfg = dv.ArmijoConfig(radius=radius, max_iter=iterations, batch_size=None)
    fit = dv.armijo_ascent(zx, zy, ALPHA, cfg)
    theta = np.asarray(fit.theta)
    phx = np.clip(zx @ theta[:-1] + theta[-1], -50.0, 50.0)
    phy = np.clip(zy @ theta[:-1] + theta[-1], -50.0, 50.0)
    tx = np.expm1((ALPHA - 1.0) * phx) / (ALPHA - 1.0)
    ty = np.expm1(ALPHA * phy) / ALPHA
    se = math.sqrt(float(np.var(tx, ddof=1)) / tx.size + float(np.var(ty, ddof=1)) / ty.size)
    return float(fit.value), se, float(np.linalg.norm(theta[:-1]))


def loglog_slope(x: np.ndarray, y: np.ndarray) -> float:
    """Least-squares slope of log y against log x."""
    lx, ly = np.log(x), np.log(y)
    lx = lx - lx.mean()
    return float(np.sum(lx * (ly - ly.mean())) / np.sum(lx * lx))


@dataclass(frozen=True)
class Outcome:
    settings: Settings
    proxy: float
    deviations: np.ndarray  # (len(sizes), draws): |D̂_n − D̂_∞|
    slope: float
    ci: tuple[float, float]
    radius_rows: list[tuple[float, float, float, float]]  # R, D_R, SE, ‖w‖
    gamma: float
    gamma_se: float
    gamma_radii: tuple[float, ...]
    seconds: float


def measure(s: Settings) -> Outcome:
    """Both checks at settings ``s`` (see the module docstring)."""
    c0 = time.process_time()
    rng = np.random.default_rng(s.seed)
    px, py = sample(s.proxy_n, rng)
    sigma = dv.median_heuristic(px, py, rng=rng)
    feats = dv.make_rff(1, s.features, sigma=sigma, rng=rng)
    zpx, zpy = feats.transform(px), feats.transform(py)
    radius_rows = []
    for radius in sorted(set(s.radii) | {s.radius}):
        value, se, wnorm = fit_value(zpx, zpy, radius, s.iterations)
        radius_rows.append((radius, value, se, wnorm))
    proxy = next(v for r, v, _, _ in radius_rows if r == s.radius)
    deviations = np.empty((len(s.sizes), s.draws))
    for i, n in enumerate(s.sizes):
        for k in range(s.draws):
            x, y = sample(n, np.random.default_rng([s.seed, n, k]))
            value = fit_value(feats.transform(x), feats.transform(y), s.radius, s.iterations)[0]
            deviations[i, k] = abs(value - proxy)
    sizes = np.asarray(s.sizes, dtype=float)
    slope = loglog_slope(sizes, deviations.mean(axis=1))
    boot_rng = np.random.default_rng([s.seed, 7])
    boots = []
    for _ in range(2000):
        pick = boot_rng.integers(0, s.draws, size=deviations.shape)
        boots.append(loglog_slope(sizes, np.take_along_axis(deviations, pick, axis=1).mean(axis=1)))
    lo, hi = np.percentile(boots, [2.5, 97.5])
    rows_r = [row for row in radius_rows if row[0] in s.radii]
    gap_rows = [(r, TRUTH - v) for r, v, se, _ in rows_r if TRUTH - v > 3.0 * se]
    gamma, gamma_se = float("nan"), float("nan")
    if len(gap_rows) >= 2:
        lr = np.log([r for r, _ in gap_rows])
        lg = np.log([g for _, g in gap_rows])
        coef, cov = np.polyfit(lr, lg, 1, cov=True) if len(gap_rows) > 2 else (np.polyfit(lr, lg, 1), None)
        gamma = -float(coef[0])
        gamma_se = float(np.sqrt(cov[0, 0])) if cov is not None else float("nan")
    return Outcome(
        s, proxy, deviations, slope, (float(lo), float(hi)), rows_r, gamma, gamma_se,
        tuple(r for r, _ in gap_rows), time.process_time() - c0,
    )


def report(o: Outcome, *, command: str, env0: str, wall: float) -> str:
    s = o.settings
    inside = -0.7 <= o.slope <= -0.3
    values = [v for _, v, _, _ in o.radius_rows]
    monotone = all(b >= a - 1e-12 for a, b in itertools.pairwise(values))
    below = [v <= TRUTH + 3.0 * se for _, v, se, _ in o.radius_rows]
    gaps = [TRUTH - v for v in values]
    binding = [wn >= r * (1 - 1e-6) for r, _, _, wn in o.radius_rows]
    # the spec: the gap shrinks as R grows; it can only do so while the ball binds (‖ŵ‖ = R)
    shrinks = all(
        b < a for (a, b), bound in zip(itertools.pairwise(gaps), binding[:-1], strict=True) if bound
    )
    free = [r for (r, *_), bound in zip(o.radius_rows, binding, strict=True) if not bound]
    lines = [
        "# Spec 13 §4 rate checks: n-rate of the statistical term, R-dependence",
        "",
        f"`{command}` ({wall:.0f} s wall, {o.seconds:.0f} s CPU).",
        "",
        "Spec's setting (§4 rate checks) → this run: "
        + ("**as the spec sets them**" if (s.sizes[-1], s.proxy_n) == (8000, 32_000)
           else f"**reduced**: n up to {s.sizes[-1]} (spec: 8000), proxy n = {s.proxy_n} (spec: 32 000)")
        + " — full-batch projected "
        f"Armijo, T = {s.iterations}, α = 1/2, d = 1 (N(0, 1) vs N(1, 1), D_α = {TRUTH:.6f}); n-rate: D = "
        f"{s.features}, one feature draw, R = {s.radius:g}, n = m ∈ {{{', '.join(map(str, s.sizes))}}}, "
        f"{s.draws} sample draws each, proxy = the fit at n = m = {s.proxy_n} with the same features; "
        f"R-dependence: the proxy sample, R ∈ {{{', '.join(f'{r:g}' for r in s.radii)}}}. Seed {s.seed} "
        "(proxy sample, bandwidth, features), draws [seed, n, k]. D̂ = in-sample Ĵ(θ̂).",
        "",
        f"Before the run: {env0}.",
        "",
        "## n-rate (theorem: E_stat = O(R n^{−1/2}), slope −1/2)",
        "",
        f"Proxy D̂_∞ (n = {s.proxy_n}, R = {s.radius:g}): {o.proxy:.5f}.",
        "",
        "| n = m | mean abs(D̂_n − D̂_∞) | sd over draws | max |",
        "|---|---|---|---|",
    ]
    for n, row in zip(s.sizes, o.deviations, strict=True):
        lines.append(f"| {n} | {row.mean():.5f} | {row.std():.5f} | {row.max():.5f} |")
    lines += [
        "",
        "| quantity | theorem | spec's acceptance | measured | 95% CI (bootstrap over draws) | verdict |",
        "|---|---|---|---|---|---|",
        f"| slope of log mean deviation vs log n | −0.5 | [−0.7, −0.3] | {o.slope:.3f} | "
        f"[{o.ci[0]:.3f}, {o.ci[1]:.3f}] | {'point estimate inside the band' if inside else 'DISAGREES (outside the band)'} |",
        "",
        "## R-dependence (theorem: E_app = O(R^{−γ}), γ from the source condition; no target)",
        "",
        f"| R | D_R (n = {s.proxy_n}) | SE | D_α − D_R | ‖ŵ‖ (constraint active at R) | D_R ≤ D_α + 3 SE |",
        "|---|---|---|---|---|---|",
    ]
    for (r, v, se, wn), ok in zip(o.radius_rows, below, strict=True):
        lines.append(f"| {r:g} | {v:.5f} | {se:.5f} | {TRUTH - v:+.5f} | {wn:.3f} | {'yes' if ok else 'NO'} |")
    gamma_txt = (
        f"γ = {o.gamma:.2f} ± {o.gamma_se:.2f} (least-squares SE) from R ∈ {{{', '.join(f'{r:g}' for r in o.gamma_radii)}}}"
        if not math.isnan(o.gamma) else "γ not fitted (fewer than 2 radii with a gap above 3 SE)"
    )
    lines += [
        "",
        f"- non-decreasing in R: {'yes' if monotone else 'NO'}; below D_α + 3 SE at every R: "
        f"{'yes' if all(below) else 'NO'}; the gap shrinks at every step from a radius where the ball binds "
        f"(‖ŵ‖ = R): {'yes' if shrinks else 'NO'}"
        + (
            f"; at R ∈ {{{', '.join(f'{r:g}' for r in free)}}} the ball does not bind (‖ŵ‖ < R): the fit is the "
            "unconstrained optimum of this feature class, D_R stops growing and the remaining gap is that of "
            f"the features (band limit Ω and D = {s.features}) and of the proxy's finite n, not of R."
            if free else "."
        ),
        f"- {gamma_txt}.",
        "",
        "Closing note: the n-rate "
        + ("agrees with" if inside else "does NOT agree with")
        + " the theorem's n^{−1/2} within the spec's band; the R-dependence "
        + (
            "behaves as stated (non-decreasing, below the truth, the gap shrinking while R binds)"
            if monotone and all(below) and shrinks else "departs from the statement (see the flags above)"
        )
        + ". The gap at large R also carries E_rff = O(R D^{−1/2}) (D fixed), so the fitted γ is that of "
        "the sum, not of E_app alone.",
        "",
        f"After the run: {environment_line()}.",
    ]
    return "\n".join(lines) + "\n"


def _plot(o: Outcome, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    sizes = np.asarray(o.settings.sizes, dtype=float)
    mean_dev = o.deviations.mean(axis=1)
    ax1.loglog(sizes, mean_dev, "o-", label=f"measured (slope {o.slope:.2f})")
    ax1.loglog(sizes, mean_dev[0] * (sizes / sizes[0]) ** -0.5, "k--", label="theorem: n^(-1/2)")
    ax1.set_xlabel("n = m")
    ax1.set_ylabel("mean |D̂_n − D̂_∞| over draws")
    ax1.set_title("n-rate, D = 256, R = 3")
    ax1.legend()
    radii = [r for r, *_ in o.radius_rows]
    ax2.semilogx(radii, [v for _, v, _, _ in o.radius_rows], "o-", label=f"D_R (n = {o.settings.proxy_n})")
    ax2.axhline(TRUTH, color="k", ls="--", label="D_α (G1)")
    ax2.set_xlabel("radius R")
    ax2.set_ylabel("estimate")
    ax2.set_title("R-dependence: non-decreasing, below D_α")
    ax2.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run(s: Settings, *, command: str, out: Path | None) -> tuple[Outcome, str]:
    env0, t0 = environment_line(), time.perf_counter()
    o = measure(s)
    text = report(o, command=command, env0=env0, wall=time.perf_counter() - t0)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        write_table(out / "divergence_rates.md", text)
        _plot(o, out / "divergence_rates.png")
    return o, text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.parse_args()
    _, text = run(Settings(), command="python -m benchmarks.divergence_rates", out=RESULTS)
    print(text)


if __name__ == "__main__":
    pin_blas(1)
    main()
