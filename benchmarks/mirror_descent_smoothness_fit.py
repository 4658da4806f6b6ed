"""Spec 06 §6: is layer-wise (L0, L1)-smoothness in the spectral/nuclear geometry a realistic model?

The paper's only experiment kind, at the spec's CPU size: a 2-hidden-layer MLP (64-64-64-10, tanh;
width and activation our choice) on the digits data (1797 x 64, pixels / 16), softmax cross-entropy,
SGD lr 0.05, 300 steps.  Along the trajectory X_0, X_1, ... and for each weight matrix W_i (biases
are trained but not measured) we record, with full-batch gradients ∇_i f:

* spectral geometry (primal spectral norm, dual nuclear norm):
  ``a_t = ‖∇_i f(X_t)‖_nuc`` and ``L_t = ‖∇_i f(X_{t+1}) - ∇_i f(X_t)‖_nuc / ‖W_{i,t+1} - W_{i,t}‖_op``;
* Euclidean geometry (Frobenius both ways): the same with ‖·‖_F.

Then fit ``L_t ≈ L0 + L1 a_t`` with (L0, L1) >= 0 by ``scipy.optimize.nnls`` and report R² (and
Pearson r) per layer and geometry.  Two trajectories: full-batch gradient descent and mini-batch
SGD (batch 64); the estimates always use full-batch gradients.  5 seeds (init and batches).

Run: ``python -m benchmarks.mirror_descent_smoothness_fit [--digits PATH]``.  The digits table is
read from scikit-learn's bundled ``datasets/data/digits.csv.gz``; scikit-learn is not in the project's
venv, so pass ``--digits`` with that file's path from any scikit-learn install.  Writes
``benchmarks/results/mirror_descent_smoothness_fit.md`` and ``.png``.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from scipy.optimize import nnls

from benchmarks._env import environment_line, pin_blas, write_table

RESULTS = Path(__file__).resolve().parent / "results"
GEOMETRIES = ("spectral/nuclear", "Frobenius")
TRAJECTORIES = ("full-batch GD", "mini-batch SGD (64)")


def default_digits_path() -> Path | None:
    """scikit-learn's bundled digits table, if scikit-learn is importable."""
    spec = importlib.util.find_spec("sklearn")
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "datasets" / "data" / "digits.csv.gz"
    return path if path.exists() else None


def load_digits_table(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """``(X, y)`` from scikit-learn's ``digits.csv.gz``: X (1797, 64) scaled to [0, 1], y in 0..9."""
    with gzip.open(path, "rt") as handle:
        table = np.loadtxt(handle, delimiter=",")
    return table[:, :-1] / 16.0, table[:, -1].astype(np.int64)


@dataclass(frozen=True)
class LayerFit:
    """NNLS fit of ``L ≈ L0 + L1 a`` for one layer, geometry, trajectory and seed."""

    layer: int
    geometry: str
    trajectory: str
    seed: int
    l0: float
    l1: float
    r2: float
    pearson: float
    a: np.ndarray
    L: np.ndarray


def nnls_affine_fit(a: np.ndarray, L: np.ndarray) -> tuple[float, float, float]:
    """Non-negative (L0, L1) minimising ``‖L0 + L1 a - L‖²``, and the fit's R² (1 - SSres/SStot)."""
    design = np.column_stack([np.ones_like(a), a])
    coef, _ = nnls(design, L)
    resid = L - design @ coef
    total = float(np.sum((L - L.mean()) ** 2))
    r2 = 1.0 - float(resid @ resid) / total if total > 0 else float("nan")
    return float(coef[0]), float(coef[1]), r2


def _norms(matrix: torch.Tensor) -> tuple[float, float, float]:
    """(operator, nuclear, Frobenius) norms."""
    s = torch.linalg.svdvals(matrix)
    return float(s[0]), float(s.sum()), float(torch.linalg.norm(matrix))


def trajectory_pairs(
    x: np.ndarray,
    y: np.ndarray,
    *,
    seed: int,
    steps: int,
    lr: float,
    batch: int | None,
    width: int = 64,
) -> dict[tuple[int, str], tuple[np.ndarray, np.ndarray]]:
    """Per (layer, geometry): arrays ``a_t`` (dual gradient norm) and ``L_t`` (local smoothness)."""
    torch.manual_seed(seed)
    gen = np.random.default_rng([6, seed])
    xt = torch.tensor(x, dtype=torch.float64)
    yt = torch.tensor(y)
    classes = int(y.max()) + 1
    model = torch.nn.Sequential(
        torch.nn.Linear(x.shape[1], width),
        torch.nn.Tanh(),
        torch.nn.Linear(width, width),
        torch.nn.Tanh(),
        torch.nn.Linear(width, classes),
    ).double()
    weights = [m.weight for m in model if isinstance(m, torch.nn.Linear)]
    loss_fn = torch.nn.CrossEntropyLoss()

    def grads(inputs: torch.Tensor, labels: torch.Tensor) -> list[torch.Tensor]:
        model.zero_grad()
        loss_fn(model(inputs), labels).backward()
        return [p.grad.detach().clone() for p in model.parameters() if p.grad is not None]

    n_weight_layers = len(weights)
    out: dict[tuple[int, str], tuple[list[float], list[float]]] = {
        (i, g): ([], []) for i in range(n_weight_layers) for g in GEOMETRIES
    }
    params = list(model.parameters())
    weight_index = [next(j for j, p in enumerate(params) if p is w) for w in weights]
    full = grads(xt, yt)
    for _ in range(steps):
        before = [w.detach().clone() for w in weights]
        if batch is None:
            step_grads = full
        else:
            idx = torch.as_tensor(gen.choice(x.shape[0], size=batch, replace=False))
            step_grads = grads(xt[idx], yt[idx])
        with torch.no_grad():
            for p, g in zip(params, step_grads, strict=True):
                p.sub_(lr * g)
        new_full = grads(xt, yt)
        for i, j in enumerate(weight_index):
            dw = weights[i].detach() - before[i]
            dg = new_full[j] - full[j]
            op_w, _, fro_w = _norms(dw)
            _, nuc_g, fro_g = _norms(full[j])
            _, nuc_dg, fro_dg = _norms(dg)
            if op_w > 0:
                out[(i, GEOMETRIES[0])][0].append(nuc_g)
                out[(i, GEOMETRIES[0])][1].append(nuc_dg / op_w)
                out[(i, GEOMETRIES[1])][0].append(fro_g)
                out[(i, GEOMETRIES[1])][1].append(fro_dg / fro_w)
        full = new_full
    return {k: (np.array(v[0]), np.array(v[1])) for k, v in out.items()}


def run_fits(
    x: np.ndarray, y: np.ndarray, *, seeds: int, steps: int, lr: float = 0.05
) -> list[LayerFit]:
    """Every (trajectory, seed, layer, geometry) fit."""
    fits: list[LayerFit] = []
    for trajectory, batch in zip(TRAJECTORIES, (None, 64), strict=True):
        for seed in range(seeds):
            pairs = trajectory_pairs(x, y, seed=seed, steps=steps, lr=lr, batch=batch)
            for (layer, geometry), (a, L) in sorted(pairs.items()):
                l0, l1, r2 = nnls_affine_fit(a, L)
                pearson = float(np.corrcoef(a, L)[0, 1]) if a.std() > 0 and L.std() > 0 else float("nan")
                fits.append(LayerFit(layer, geometry, trajectory, seed, l0, l1, r2, pearson, a, L))
    return fits


def _plot(fits: list[LayerFit], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    layers = sorted({f.layer for f in fits})
    fig, axes = plt.subplots(2, len(layers), figsize=(4.2 * len(layers), 7.5))
    for row, geometry in enumerate(GEOMETRIES):
        for col, layer in enumerate(layers):
            ax = axes[row, col]
            for trajectory, colour in zip(TRAJECTORIES, ("tab:blue", "tab:orange"), strict=True):
                f = next(
                    f for f in fits
                    if f.layer == layer and f.geometry == geometry and f.trajectory == trajectory
                    and f.seed == 0
                )
                ax.scatter(f.a, f.L, s=5, alpha=0.5, color=colour, label=f"{trajectory}, seed 0")
                grid = np.linspace(0.0, float(f.a.max()), 50)
                ax.plot(grid, f.l0 + f.l1 * grid, color=colour, lw=1.5,
                        label=f"NNLS L0={f.l0:.3g}, L1={f.l1:.3g}, R²={f.r2:.2f}")
            dual = "‖∇_i f‖_nuc" if row == 0 else "‖∇_i f‖_F"
            ax.set_xlabel(f"dual gradient norm {dual}")
            ax.set_ylabel("local smoothness L_i(t)")
            ax.set_title(f"layer {layer + 1}, {geometry}")
            ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def run(
    x: np.ndarray,
    y: np.ndarray,
    *,
    seeds: int,
    steps: int,
    data_note: str,
    command: str,
    out: Path | None,
) -> tuple[list[LayerFit], str]:
    """Fit every layer; write the table and plot under ``out`` when given."""
    torch.set_num_threads(1)
    env0, t0 = environment_line(), time.perf_counter()
    fits = run_fits(x, y, seeds=seeds, steps=steps)
    wall = time.perf_counter() - t0
    lines = [
        "# Spec 06 §6: layer-wise (L0, L1) smoothness fit, spectral/nuclear vs Frobenius",
        "",
        f"`{command}` ({wall:.0f} s wall, torch {torch.__version__} CPU, 1 thread).",
        "",
        f"Spec's CPU setting (§6): 2-hidden-layer MLP on `load_digits`, SGD lr 0.05, 300 steps, NNLS fit of "
        f"(L0, L1), R² vs the Frobenius version. This run: {data_note}; MLP {x.shape[1]}-64-64-10 tanh "
        f"(width/activation our choice), lr 0.05, {steps} steps, seeds 0..{seeds - 1}; trajectories: "
        "full-batch GD and mini-batch SGD (batch 64); estimates from full-batch gradients; weight "
        "matrices only (biases trained, not measured). No reduction against the spec's CPU setting; the "
        "paper's GPT-2 / WMT / CIFAR runs are out of CPU reach.",
        "",
        "L_i(t) = ‖∇_i f(X_{t+1}) − ∇_i f(X_t)‖_* / ‖W_{i,t+1} − W_{i,t}‖ and a_t = ‖∇_i f(X_t)‖_*; "
        "spectral geometry: ‖·‖ = operator norm, ‖·‖_* = nuclear; Frobenius: both Frobenius.",
        "",
        f"Before the run: {env0}.",
        "",
        "| trajectory | layer | geometry | L0 (median) | L1 (median) | R² mean ± sd over seeds | "
        "Pearson r mean | L1 > 0 in seeds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    summary: dict[tuple[str, str], list[float]] = {}
    for trajectory in TRAJECTORIES:
        for layer in sorted({f.layer for f in fits}):
            for geometry in GEOMETRIES:
                group = [
                    f for f in fits
                    if f.trajectory == trajectory and f.layer == layer and f.geometry == geometry
                ]
                r2 = np.array([f.r2 for f in group])
                summary.setdefault((trajectory, geometry), []).extend(r2.tolist())
                lines.append(
                    f"| {trajectory} | {layer + 1} | {geometry} | "
                    f"{np.median([f.l0 for f in group]):.4g} | {np.median([f.l1 for f in group]):.4g} | "
                    f"{r2.mean():.3f} ± {r2.std():.3f} | {np.mean([f.pearson for f in group]):.3f} | "
                    f"{sum(f.l1 > 0 for f in group)}/{len(group)} |"
                )
    lines += ["", "Mean R² and Pearson r over layers and seeds:", ""]
    best_r2 = -float("inf")
    pearsons: list[float] = []
    for trajectory in TRAJECTORIES:
        parts = []
        for geometry in GEOMETRIES:
            group = [f for f in fits if f.trajectory == trajectory and f.geometry == geometry]
            mean_r2 = float(np.mean([f.r2 for f in group]))
            r = float(np.mean([f.pearson for f in group]))
            best_r2 = max(best_r2, mean_r2)
            pearsons.append(r)
            parts.append(f"{geometry}: R² {mean_r2:.3f}, r {r:+.3f}")
        lines.append(f"- {trajectory}: " + "; ".join(parts) + ".")
    if best_r2 >= 0.5 and min(pearsons) > 0:
        verdict = (
            "AGREES: the affine (L0, L1) law explains most of the variation of the local smoothness."
        )
    else:
        verdict = (
            f"DISAGREES here: the best mean R² is {best_r2:.3f}; "
            + (
                "the local smoothness falls as the dual gradient norm grows (mean Pearson r < 0 in "
                "every trajectory and geometry), so the non-negative fit sets L1 = 0 and a constant L "
                "is all it finds."
                if max(pearsons) < 0
                else "the fit leaves most of the variation unexplained."
            )
        )
    lines += [
        "",
        "Paper's claim (§6, no numbers retrieved): the local smoothness follows the affine model "
        "L0 + L1‖∇f‖_* closely (high correlation) in the non-Euclidean geometry, better than the "
        f"Euclidean model. This run: {verdict} We did not tune the setting toward the claim; the "
        "paper's evidence is from GPT-2 / Transformer / CNN training, not from this small MLP.",
        "",
        f"After the run ({wall:.0f} s wall): {environment_line()}.",
    ]
    text = "\n".join(lines) + "\n"
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        write_table(out / "mirror_descent_smoothness_fit.md", text)
        _plot(fits, out / "mirror_descent_smoothness_fit.png")
    return fits, text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--digits", type=Path, default=default_digits_path())
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    if args.digits is None:
        parser.error(
            "--digits: scikit-learn is not importable; pass the path of its datasets/data/digits.csv.gz"
        )
    x, y = load_digits_table(args.digits)
    command = (
        f"python -m benchmarks.mirror_descent_smoothness_fit --digits <sklearn>/datasets/data/digits.csv.gz "
        f"--seeds {args.seeds} --steps {args.steps}"
    )
    _, text = run(
        x, y, seeds=args.seeds, steps=args.steps,
        data_note=f"digits {x.shape[0]} x {x.shape[1]} from scikit-learn's digits.csv.gz",
        command=command, out=RESULTS,
    )
    print(text)


if __name__ == "__main__":
    pin_blas(1)
    main()
