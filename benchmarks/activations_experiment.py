"""Spec 16 CPU targets 1 and 2: rational vs fixed activations at equal size; exact |x| networks.

Target 1 (ours, spec 16 §6): 1-D regression on ``[-1, 1]`` of ``|x|``, ``1/(x^2 + eta^2)``
(``eta = 0.05``) and GELU with MLPs of width 8 and depth 2-4 (hidden layers), activations ReLU,
GELU, tanh and two safe rationals (one shared per layer): ``rational_b32``, the 2020 predecessor's
(3,2) version B with its ReLU init, and ``rational_a54``, the (5,4) version A with the
``leaky_relu`` init that the paper's experiments ran (spec 16 §8.1); Adam, lr 1e-3, 5000
full-batch steps on 257 equispaced points (our choice), 5 seeds; max and RMS error on 10001 points
against the parameter count.

Target 2: a rational network initialised at the DWH composite for ``eps = 1e-4`` (3 type-(3,2)
layers, then the exact product gadget ``x s_K(x)``) reproduces ``|x|`` to ``1e-4``; compared with
the depth a ReLU network needs for ``x^2`` (Yarotsky), Newman's degree and the polynomial degree
needed for the same accuracy.

Run: ``python -m benchmarks.activations_experiment [--steps N] [--seeds K] [--tag T]``; writes
``benchmarks/results/activations_experiment{T}.md``, ``.csv`` and ``.png``.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import math
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from torch import nn

from benchmarks._env import pin_blas, write_table
from reference import activations as act
from reference.activations.fast_torch import Rational

RESULTS = Path(__file__).parent / "results"
ETA = 0.05
ACTIVATIONS = ("relu", "gelu", "tanh", "rational_b32", "rational_a54")
#: Extra trainable scalars per hidden layer of each rational arm (one shared rational).
RATIONAL_EXTRA = {"rational_b32": 6, "rational_a54": 10}
DEPTHS = (2, 3, 4)
WIDTH = 8
#: Full-batch training points (equispaced, include 0; our choice, the spec fixes none).
TRAIN_POINTS = 257


def _targets() -> dict[str, Callable[[torch.Tensor], torch.Tensor]]:
    return {
        "abs": torch.abs,
        "near_pole": lambda x: 1.0 / (x * x + ETA * ETA),
        "gelu": nn.functional.gelu,
    }


def _activation(name: str, seeds: int) -> nn.Module:
    if name == "relu":
        return nn.ReLU()
    if name == "gelu":
        return nn.GELU()
    if name == "tanh":
        return nn.Tanh()
    # one shared rational per layer and per seed (seeds are stacked on axis 0)
    if name == "rational_b32":  # the 2020 predecessor's (3,2) version B, ReLU init
        return Rational((3, 2), init="relu", version="B", channels=seeds, channel_dim=0)
    if name == "rational_a54":  # the paper's experiments: (5,4) version A, leaky_relu init
        return Rational((5, 4), init="leaky_relu", version="A", channels=seeds, channel_dim=0)
    raise ValueError(f"activation: expected one of {ACTIVATIONS}, got {name!r}")


class SeedBatchedMLP(nn.Module):
    """``seeds`` independent MLPs trained side by side: weights ``(S, fan_in, fan_out)``.

    (All targets and seeds of one configuration are batched on the leading axis.)

    Each seed's layers are initialised like ``nn.Linear`` (uniform in ``±1/sqrt(fan_in)``) from
    its own generator; the loss is the sum of the per-seed losses and Adam is elementwise, so
    the runs are exactly independent -- batching only removes per-op overhead.
    """

    def __init__(self, activation: str, depth: int, seeds: int, width: int = WIDTH) -> None:
        super().__init__()
        sizes = [1] + [width] * depth + [1]
        self.weights = nn.ParameterList()
        self.biases = nn.ParameterList()
        for fan_in, fan_out in itertools.pairwise(sizes):
            bound = 1.0 / math.sqrt(fan_in)
            w = torch.empty(seeds, fan_in, fan_out, dtype=torch.float64)
            b = torch.empty(seeds, 1, fan_out, dtype=torch.float64)
            for s in range(seeds):
                gen = torch.Generator().manual_seed(1000 * s + fan_in * 10 + fan_out)
                w[s].uniform_(-bound, bound, generator=gen)
                b[s].uniform_(-bound, bound, generator=gen)
            self.weights.append(nn.Parameter(w))
            self.biases.append(nn.Parameter(b))
        self.acts = nn.ModuleList(_activation(activation, seeds) for _ in range(depth))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """``x``: ``(S, N, 1)`` -> ``(S, N, 1)``."""
        h = x
        for i, act_fn in enumerate(self.acts):
            h = act_fn(torch.baddbmm(self.biases[i], h, self.weights[i]))
        return torch.baddbmm(self.biases[-1], h, self.weights[-1])

    def params_per_seed(self) -> int:
        """Trainable scalars of one seed's network."""
        total = sum(int(p.numel()) for p in self.parameters())
        return total // int(self.weights[0].shape[0])


def train_batch(
    activation: str, depth: int, seeds: int, steps: int
) -> dict[tuple[str, int], tuple[int, float, float]]:
    """Train one MLP per (target, seed), all side by side (``3 * seeds`` independent networks).

    Returns ``(parameters, max error, rms error)`` per ``(target, seed)``.
    """
    targets = list(_targets())
    fns = [_targets()[t] for t in targets]
    batch = len(targets) * seeds
    x_train = torch.linspace(-1, 1, TRAIN_POINTS, dtype=torch.float64)[None, :, None].expand(
        batch, -1, -1
    )
    y_train = torch.cat([fn(x_train[:seeds]) for fn in fns])
    model = SeedBatchedMLP(activation, depth, batch)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(steps):
        opt.zero_grad()
        loss = ((model(x_train) - y_train) ** 2).mean(dim=(1, 2)).sum()
        loss.backward()
        opt.step()
    x_test = torch.linspace(-1, 1, 10001, dtype=torch.float64)[None, :, None].expand(batch, -1, -1)
    y_test = torch.cat([fn(x_test[:seeds]) for fn in fns])
    with torch.no_grad():
        err = (model(x_test) - y_test).abs()[..., 0]
    count = model.params_per_seed()
    out: dict[tuple[str, int], tuple[int, float, float]] = {}
    for k, target in enumerate(targets):
        for s in range(seeds):
            e = err[k * seeds + s]
            out[(target, s)] = (count, float(e.max()), float(e.pow(2).mean().sqrt()))
    return out


def dwh_network_error(eps: float) -> tuple[int, float]:
    """Width-2 rational network: DWH layers on one channel, identity on the other, then the
    product gadget; returns ``(K, max error on the spec grid)``."""
    composite = act.dwh_sign(eps, tol=eps)
    layers: list[nn.Module] = []
    for a, b, c in np.asarray(composite.params):
        layers.append(Rational((3, 2), init=([0.0, a, 0.0, b], [0.0, c]), version="B"))
    x = torch.tensor(
        np.concatenate([np.linspace(-1, 1, 200001), np.logspace(-14, 0, 40001)]),
        dtype=torch.float64,
    )
    s = x
    with torch.no_grad():
        for layer in layers:
            s = layer(s)
        square = Rational((2, 0), init=([0.0, 0.0, 1.0], []), version="B")
        out = (square(x + s) - square(x - s)) / 4.0  # exact product x * s_K(x)
        err = float((out - x.abs()).abs().max())
    return composite.iterations, err


def _newman_order(eps: float, grid: np.ndarray) -> int:
    n = 1
    while float(np.max(np.abs(np.abs(grid) - act.newman_abs(n)(grid)))) > eps:
        n += 1
    return n


def target2_rows() -> list[dict[str, object]]:
    """DWH layers vs Yarotsky depth vs Newman degree vs polynomial degree, per eps."""
    grid = np.concatenate([np.linspace(-1, 1, 20001), np.logspace(-14, 0, 4001)])
    rows: list[dict[str, object]] = []
    for eps in (1e-2, 1e-4, 1e-8, 1e-12):
        k, err = dwh_network_error(eps)
        yarotsky_m = math.ceil((math.log2(1.0 / eps) - 2.0) / 2.0)
        rows.append(
            {
                "eps": eps,
                "dwh_layers": k,
                "dwh_max_error": err,
                "relu_sawtooth_layers_for_x2": yarotsky_m,
                "newman_order": _newman_order(eps, grid) if eps >= 1e-8 else "> 400",
                "poly_degree_estimate": math.ceil(act.BERNSTEIN_BETA / eps),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    """Run both targets and write the table, CSV and plot."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--tag", default="", help="suffix of the result files")
    parser.add_argument(
        "--reduced",
        default="",
        help="what was reduced against the spec's protocol, stated in the table header",
    )
    args = parser.parse_args(argv)
    stem = f"activations_experiment{args.tag}"
    torch.set_num_threads(1)
    RESULTS.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    raw: list[dict[str, object]] = []
    results: dict[tuple[str, int, str, int], tuple[int, float, float]] = {}
    for depth in DEPTHS:
        for activation in ACTIVATIONS:
            for (target, seed), row in train_batch(
                activation, depth, args.seeds, args.steps
            ).items():
                results[(target, depth, activation, seed)] = row
    for target in _targets():
        for depth in DEPTHS:
            for activation in ACTIVATIONS:
                for seed in range(args.seeds):
                    count, max_err, rms = results[(target, depth, activation, seed)]
                    raw.append(
                        {
                            "target": target,
                            "depth": depth,
                            "activation": activation,
                            "seed": seed,
                            "params": count,
                            "max_error": max_err,
                            "rms_error": rms,
                        }
                    )
    with (RESULTS / f"{stem}.csv").open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(raw[0]))
        writer.writeheader()
        writer.writerows(raw)
    rows2 = target2_rows()
    elapsed = time.perf_counter() - start
    _write_markdown(raw, rows2, args.steps, args.seeds, elapsed, stem, args.reduced)
    _plot(raw, rows2, stem)


def _summary(raw: list[dict[str, object]]) -> list[tuple[str, int, str, int, float, float, float]]:
    out = []
    for target in _targets():
        for depth in DEPTHS:
            for activation in ACTIVATIONS:
                sel = [
                    r
                    for r in raw
                    if r["target"] == target
                    and r["depth"] == depth
                    and r["activation"] == activation
                ]
                maxes = np.array([float(str(r["max_error"])) for r in sel])
                rms = np.array([float(str(r["rms_error"])) for r in sel])
                out.append(
                    (
                        target,
                        depth,
                        activation,
                        int(str(sel[0]["params"])),
                        float(np.median(maxes)),
                        float(np.median(rms)),
                        float(np.max(rms)),
                    )
                )
    return out


def _write_markdown(
    raw: list[dict[str, object]],
    rows2: list[dict[str, object]],
    steps: int,
    seeds: int,
    elapsed: float,
    stem: str,
    reduced: str,
) -> None:
    lines = [
        "# Spec 16 CPU targets: rational vs fixed activations",
        "",
        f"Generated by `python -m benchmarks.activations_experiment` ({steps} Adam steps, "
        f"{seeds} seeds, torch {torch.__version__}, float64, 1 thread; {elapsed:.0f} s).",
        "",
        *([f"**Reduced against the spec's protocol:** {reduced}", ""] if reduced else []),
        "Arms: `rational_b32` = (3,2) version B, ReLU init (the 2020 predecessor); "
        "`rational_a54` = (5,4) version A, leaky_relu init (what the paper's experiments ran, "
        "spec 16 §8.1).",
        "",
        "## Target 1: 1-D regression on [-1, 1], width 8 (median over seeds)",
        "",
        "| target | depth | activation | params | median max err | median RMS err | worst RMS err |",
        "|---|---|---|---|---|---|---|",
    ]
    summary = _summary(raw)
    for target, depth, activation, count, mx, rms, worst in summary:
        lines.append(
            f"| {target} | {depth} | {activation} | {count} | {mx:.3e} | {rms:.3e} | {worst:.3e} |"
        )
    lines += ["", "Best activation by median RMS error per (target, depth):", ""]
    for target in _targets():
        for depth in DEPTHS:
            sel = [s for s in summary if s[0] == target and s[1] == depth]
            best = min(sel, key=lambda s: s[5])
            lines.append(f"- {target}, depth {depth}: **{best[2]}** (RMS {best[5]:.3e})")
    lines += [
        "",
        "Parameter counts: the rational nets carry 6 (`rational_b32`) or 10 (`rational_a54`) "
        "extra scalars per hidden layer (one shared rational per layer).",
        "",
        "## Target 2: |x| by an exact rational construction vs ReLU depth",
        "",
        "| eps | DWH type-(3,2) layers K | max error of x s_K(x) (network) | ReLU sawtooth layers for x^2 (Yarotsky) | Newman order n | polynomial degree ~ beta/eps |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows2:
        lines.append(
            f"| {r['eps']:.0e} | {r['dwh_layers']} | {float(str(r['dwh_max_error'])):.3e} | "
            f"{r['relu_sawtooth_layers_for_x2']} | {r['newman_order']} | {r['poly_degree_estimate']} |"
        )
    lines += [
        "",
        "The network is width 2: one channel carries x (identity rational), the other applies the "
        "K DWH steps (safe rationals with p = (0, a, 0, b), q = (0, c)); a squaring layer then "
        "computes x s_K(x) = ((x + s)^2 - (x - s)^2)/4 exactly. The polynomial degree is Bernstein's "
        "asymptotic estimate, not a computed minimax.",
        "",
    ]
    write_table((RESULTS / f"{stem}.md"), "\n".join(lines))


def _plot(raw: list[dict[str, object]], rows2: list[dict[str, object]], stem: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = _summary(raw)
    fig, axes = plt.subplots(1, 4, figsize=(18, 4))
    for ax, target in zip(axes[:3], _targets(), strict=False):
        for activation in ACTIVATIONS:
            sel = [s for s in summary if s[0] == target and s[2] == activation]
            ax.semilogy([s[3] for s in sel], [s[5] for s in sel], "o-", label=activation)
        ax.set_title(f"target {target}")
        ax.set_xlabel("parameters")
        ax.set_ylabel("median RMS error")
        ax.legend()
    eps = [float(str(r["eps"])) for r in rows2]
    ax = axes[3]
    ax.semilogx(eps, [float(str(r["dwh_layers"])) for r in rows2], "o-", label="DWH layers (|x|)")
    ax.semilogx(
        eps,
        [float(str(r["relu_sawtooth_layers_for_x2"])) for r in rows2],
        "s-",
        label="ReLU sawtooth layers (x^2)",
    )
    ax.invert_xaxis()
    ax.set_xlabel("eps")
    ax.set_ylabel("layers")
    ax.set_title("depth needed for accuracy eps")
    ax.legend()
    fig.tight_layout()
    fig.savefig(RESULTS / f"{stem}.png", dpi=90)
    plt.close(fig)


if __name__ == "__main__":
    pin_blas(1)
    main()
