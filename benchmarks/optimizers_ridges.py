"""Spec 02 §6 (a): both synthetic nonsmooth ridges of the authors' scripts, with the Prox-SGD arm.

Problems and settings (spec 02 §6, "Synthetic", the authors' scripts):

* ridge 1: ``f(x, y) = 10|y - x²| + |1 - x|`` from (-1.5, 2.0), lr 0.01, 2000 steps, S-Adam
  ``k = 5, sigma = 0.01, lambda = 5``;
* ridge 2: ``f(x, y) = 20|y - x²| + (1 - x)²`` from (-1.2, 1.0), lr 0.05, 600 steps, S-Adam
  ``k = 8, sigma = 0.05, lambda = 8``.

Both have their minimum 0 at (1, 1).  Optimizers at the problem's learning rate: Adam, AdamW
(weight decay 1e-2), Prox-SGD (:func:`reference.optimizers.prox_sgd`: heavy-ball momentum 0.9 then
an l1 soft-threshold 1e-4, the authors' baseline) and S-Adam (:func:`reference.optimizers.s_adam`,
weight decay 1e-2).  5 seeds (S-Adam's probe directions; the other methods are deterministic, so
their sd is 0).  Reported: final loss, distance to (1, 1), and the chattering index = fraction of
coordinates whose update sign flips between consecutive steps over the last 200 steps.  The
spec's qualitative expectation: S-Adam's index below Adam's.

Run: ``python -m benchmarks.optimizers_ridges``; writes ``benchmarks/results/optimizers_ridges.md``
and ``.png`` (the trajectories of seed 0).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks._env import environment_line, pin_blas, write_table
from reference import optimizers as ref

RESULTS = Path(__file__).resolve().parent / "results"
OPTIMIZERS = ("Adam", "AdamW", "Prox-SGD", "S-Adam")


@dataclass(frozen=True)
class Ridge:
    label: str
    loss: Callable[[np.ndarray], float]
    grad: Callable[[np.ndarray], np.ndarray]
    start: tuple[float, float]
    lr: float
    steps: int
    k: int
    sigma: float
    lam: float


def _ridge1(p: np.ndarray) -> float:
    x, y = p
    return float(10.0 * abs(y - x * x) + abs(1.0 - x))


def _ridge1_grad(p: np.ndarray) -> np.ndarray:
    x, y = p
    s = np.sign(y - x * x)
    return np.array([-20.0 * x * s - np.sign(1.0 - x), 10.0 * s])


def _ridge2(p: np.ndarray) -> float:
    x, y = p
    return float(20.0 * abs(y - x * x) + (1.0 - x) ** 2)


def _ridge2_grad(p: np.ndarray) -> np.ndarray:
    x, y = p
    s = np.sign(y - x * x)
    return np.array([-40.0 * x * s - 2.0 * (1.0 - x), 20.0 * s])


RIDGES = (
    Ridge("10|y-x²|+|1-x| from (-1.5, 2)", _ridge1, _ridge1_grad, (-1.5, 2.0), 0.01, 2000, 5, 0.01, 5.0),
    Ridge("20|y-x²|+(1-x)² from (-1.2, 1)", _ridge2, _ridge2_grad, (-1.2, 1.0), 0.05, 600, 8, 0.05, 8.0),
)


def make_optimizer(name: str, ridge: Ridge) -> Any:
    if name == "Adam":
        return ref.adam(learning_rate=ridge.lr)
    if name == "AdamW":
        return ref.adamw(learning_rate=ridge.lr)
    if name == "Prox-SGD":
        return ref.prox_sgd(learning_rate=ridge.lr)
    if name == "S-Adam":
        return ref.s_adam(
            learning_rate=ridge.lr, k_directions=ridge.k, sigma=ridge.sigma, lgi_lambda=ridge.lam
        )
    raise ValueError(f"name: expected one of {OPTIMIZERS}, got {name!r}")


def run_one(
    name: str, ridge: Ridge, seed: int, *, steps: int | None = None, window: int = 200
) -> tuple[float, float, float, np.ndarray]:
    """(final loss, distance to (1, 1), chattering index, trajectory) of one run."""
    opt = make_optimizer(name, ridge)
    rng = np.random.default_rng(seed)
    x = np.array(ridge.start, dtype=float)
    state = opt.init(x)
    signs = []
    path = [x.copy()]
    for _ in range(ridge.steps if steps is None else steps):
        g = ridge.grad(x)
        if name == "S-Adam":
            u, state = opt.update(g, state, x, loss=ridge.loss, rng=rng)
        else:
            u, state = opt.update(g, state, x)
        u = np.asarray(u)
        signs.append(np.sign(u))
        x = x + u
        path.append(x.copy())
    tail = np.array(signs[-(window + 1) :])
    chatter = float(np.mean(tail[1:] != tail[:-1]))
    return ridge.loss(x), float(np.linalg.norm(x - 1.0)), chatter, np.array(path)


def _plot(paths: dict[tuple[str, str], np.ndarray], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(RIDGES), figsize=(6 * len(RIDGES), 4.8))
    for ax, ridge in zip(np.atleast_1d(axes), RIDGES, strict=True):
        xs = np.linspace(-2.0, 2.0, 300)
        ax.plot(xs, xs**2, color="black", lw=0.8, label="ridge y = x²")
        for name in OPTIMIZERS:
            traj = paths[(ridge.label, name)]
            ax.plot(traj[:, 0], traj[:, 1], lw=0.8, label=name)
        ax.scatter([1.0], [1.0], marker="*", s=120, color="red", label="minimum (1, 1)", zorder=5)
        ax.set_xlim(-2.0, 2.0)
        ax.set_ylim(-0.5, 3.0)
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        ax.set_title(f"{ridge.label}, lr {ridge.lr}, seed 0")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run(*, seeds: int, steps: int | None, out: Path | None) -> tuple[dict[tuple[str, str], np.ndarray], str]:
    """Every ridge x optimizer x seed; the table (and plot) under ``out`` when given."""
    env0, t0 = environment_line(), time.perf_counter()
    results: dict[tuple[str, str], np.ndarray] = {}
    paths: dict[tuple[str, str], np.ndarray] = {}
    for ridge in RIDGES:
        for name in OPTIMIZERS:
            rows = []
            for seed in range(seeds):
                loss, dist, chatter, traj = run_one(name, ridge, seed, steps=steps)
                rows.append((loss, dist, chatter))
                if seed == 0:
                    paths[(ridge.label, name)] = traj
            results[(ridge.label, name)] = np.array(rows)
    wall = time.perf_counter() - t0
    lines = [
        "# Spec 02 §6 (a): both synthetic ridges, Adam / AdamW / Prox-SGD / S-Adam",
        "",
        f"`python -m benchmarks.optimizers_ridges --seeds {seeds}"
        + ("" if steps is None else f" --steps {steps}")
        + f"` ({wall:.0f} s wall).",
        "",
        "Spec's setting (§6, the authors' synthetic scripts) and this run: ridge 1 lr 0.01, 2000 steps, "
        "S-Adam k = 5, σ = 0.01, λ = 5; ridge 2 lr 0.05, 600 steps, k = 8, σ = 0.05, λ = 8; Adam at the same "
        "lr"
        + ("" if steps is None else f" (steps overridden to {steps})")
        + ". Added arms: AdamW (wd 1e-2) and Prox-SGD (momentum 0.9, l1 1e-4, the authors' baseline), at the "
        f"problem's lr. Seeds 0..{seeds - 1} (only S-Adam is random). Chattering index over the last 200 steps.",
        "",
        f"Before the run: {env0}.",
        "",
        "| problem | optimizer | final loss (mean ± sd) | distance to (1, 1) | chattering index (mean ± sd) |",
        "|---|---|---|---|---|",
    ]
    verdicts = []
    for ridge in RIDGES:
        for name in OPTIMIZERS:
            r = results[(ridge.label, name)]
            lines.append(
                f"| {ridge.label} | {name} | {r[:, 0].mean():.4g} ± {r[:, 0].std():.2g} | "
                f"{r[:, 1].mean():.4g} | {r[:, 2].mean():.3f} ± {r[:, 2].std():.3f} |"
            )
        s_adam = results[(ridge.label, "S-Adam")][:, 2].mean()
        adam = results[(ridge.label, "Adam")][:, 2].mean()
        prox = results[(ridge.label, "Prox-SGD")][:, 2].mean()
        loss_s = results[(ridge.label, "S-Adam")][:, 0].mean()
        loss_a = results[(ridge.label, "Adam")][:, 0].mean()
        verdicts.append(
            f"{ridge.label}: S-Adam {s_adam:.3f} vs Adam {adam:.3f} vs Prox-SGD {prox:.3f} — "
            + ("S-Adam below Adam, as expected" if s_adam < adam else "S-Adam NOT below Adam")
            + f" (final loss S-Adam {loss_s:.3g} vs Adam {loss_a:.3g}: "
            + ("no worse" if loss_s <= loss_a * 1.05 else "worse: less chattering, but not closer to the minimum")
            + ")"
        )
    diverged = [
        f"{name} on {ridge.label}"
        for ridge in RIDGES
        for name in OPTIMIZERS
        if results[(ridge.label, name)][:, 0].mean() > 10.0 * ridge.loss(np.array(ridge.start))
    ]
    lines += [
        "",
        "Diverged (final loss above 10x the starting loss; learning rate not tuned): "
        + (", ".join(diverged) if diverged else "none")
        + ".",
    ]
    lines += [
        "",
        "Spec's qualitative expectation (the paper's \"mitigates gradient oscillations\"): S-Adam's chattering "
        "index below Adam's. " + "; ".join(verdicts) + ".",
        "",
        f"After the run ({wall:.0f} s wall): {environment_line()}.",
    ]
    text = "\n".join(lines) + "\n"
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        write_table(out / "optimizers_ridges.md", text)
        _plot(paths, out / "optimizers_ridges.png")
    return results, text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=None, help="override both ridges' step counts")
    args = parser.parse_args()
    _, text = run(seeds=args.seeds, steps=args.steps, out=RESULTS)
    print(text)


if __name__ == "__main__":
    pin_blas(1)
    main()
