"""Gradient chattering on a small quantised MLP (spec 02 §6, CPU target (b)): S-Adam vs Adam vs AdamW.

Spec 02 §6 asks for a tiny quantisation-aware-training (QAT) model on the 8x8 digits data
set (``sklearn.datasets.load_digits``).  scikit-learn is not installed in this environment
(and installs are not allowed), so we use a synthetic stand-in of the same shape, labelled
as such: 10 classes, 64 features (8x8), each class a fixed random smooth 8x8 prototype
plus Gaussian pixel noise (std 2.5, so that the classes overlap), 600 training and 500
test points, data seed 0.

Model: MLP 64 -> 32 -> 10 in float64.  The spec's fake quantiser (from the authors' QAT
script) is applied to both weight matrices and to the hidden activations:
``scale = 1.5 / (max|x| + 1e-5)``, ``q = clamp(round(x scale), -2, 1)``, output ``q / scale``,
with the straight-through gradient (identity).  Full-batch training (so the loss is a
deterministic function, as S-Adam's probes assume), cross-entropy, 600 steps (quick: 200),
the same learning rate 1e-2 for all; Adam (weight decay 0), AdamW (``torch.optim.AdamW``,
weight decay 1e-2), S-Adam (:class:`reference.optimizers.fast_torch.SAdam`, weight decay 1e-2,
``k = 8``, ``sigma = 0.01``, ``lambda = 2``: the "typical settings" of spec 02 §6).
5 seeds (initialisation and S-Adam's probe directions).  Control: Adam at lr/4 = 2.5e-3,
close to S-Adam's mean effective step ``alpha lr`` (``alpha`` about 0.25 here), to separate
the effect of the LGI brake from that of a smaller step.

Measures (our definitions, as in ``optimizers_experiment.py``): final training loss and
test accuracy of the quantised model; chattering index = fraction of (latent, float)
parameter coordinates whose update sign flips between consecutive steps, averaged over
the last 200 steps (quick: last 100); quantised-weight flip rate = fraction of quantised
weight entries whose quantised value changes between consecutive steps, same window;
S-Adam's mean ``alpha = exp(-lambda rho)`` over the window.

Run: ``python -m benchmarks.optimizers_qat_chattering [--quick]``; writes
``benchmarks/results/optimizers_qat_chattering.md``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from benchmarks._env import pin_blas, write_table
from reference.optimizers.fast_torch import SAdam

RESULTS = Path(__file__).parent / "results"
SEEDS = 5
LR = 1e-2
NOISE = 2.5


class _RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx: Any, x: torch.Tensor) -> torch.Tensor:
        return torch.round(x)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> torch.Tensor:
        return grad


def fake_quant(x: torch.Tensor) -> torch.Tensor:
    """Spec 02 §6 quantiser: 4 levels, ``clamp(round(x s), -2, 1) / s``, ``s = 1.5/(max|x|+1e-5)``."""
    scale = 1.5 / (x.detach().abs().max() + 1e-5)
    q = torch.clamp(_RoundSTE.apply(x * scale), -2.0, 1.0)  # type: ignore[no-untyped-call]
    out: torch.Tensor = q / scale
    return out


def quant_levels(x: torch.Tensor) -> torch.Tensor:
    """The integer levels of :func:`fake_quant` (no gradient; for the flip rate)."""
    scale = 1.5 / (x.abs().max() + 1e-5)
    return torch.clamp(torch.round(x * scale), -2.0, 1.0)


class QuantMLP(torch.nn.Module):
    """64 -> 32 -> 10 MLP with fake-quantised weights and hidden activations."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = torch.nn.Linear(64, 32)
        self.fc2 = torch.nn.Linear(32, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(torch.nn.functional.linear(x, fake_quant(self.fc1.weight), self.fc1.bias))
        out: torch.Tensor = torch.nn.functional.linear(
            fake_quant(h), fake_quant(self.fc2.weight), self.fc2.bias
        )
        return out


def make_data() -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Synthetic digits stand-in (see the module docstring), data seed 0."""
    rng = np.random.default_rng(0)
    raw = rng.normal(size=(10, 8, 8))
    # smooth prototypes: 3x3 box blur, then standardise
    pad = np.pad(raw, ((0, 0), (1, 1), (1, 1)), mode="edge")
    proto = np.mean([pad[:, i : i + 8, j : j + 8] for i in range(3) for j in range(3)], axis=0)
    proto = (proto - proto.mean()) / proto.std()

    def draw(n: int) -> tuple[torch.Tensor, torch.Tensor]:
        labels = rng.integers(0, 10, size=n)
        x = proto[labels].reshape(n, 64) + NOISE * rng.normal(size=(n, 64))
        return torch.tensor(x, dtype=torch.float64), torch.tensor(labels)

    xtr, ytr = draw(600)
    xte, yte = draw(500)
    return xtr, ytr, xte, yte


def run(name: str, seed: int, steps: int, window: int) -> dict[str, float]:
    xtr, ytr, xte, yte = make_data()
    torch.manual_seed(seed)
    model = QuantMLP().double()
    params = list(model.parameters())

    def loss_fn() -> torch.Tensor:
        return torch.nn.functional.cross_entropy(model(xtr), ytr)

    opt: Any
    if name == "S-Adam":
        opt = SAdam(params, lr=LR, weight_decay=1e-2, k_directions=8, sigma=0.01, lgi_lambda=2.0)
    elif name == "AdamW":
        opt = torch.optim.AdamW(params, lr=LR, weight_decay=1e-2)
    elif name == "Adam, lr/4":
        opt = torch.optim.Adam(params, lr=LR / 4)
    else:
        opt = torch.optim.Adam(params, lr=LR)

    def closure(backward: bool) -> torch.Tensor:
        if backward:
            opt.zero_grad()
            out = loss_fn()
            out.backward()  # type: ignore[no-untyped-call]
            return out
        return loss_fn()

    signs: list[torch.Tensor] = []
    levels: list[torch.Tensor] = []
    for _ in range(steps):
        before = torch.cat([p.detach().reshape(-1) for p in params])
        if name == "S-Adam":
            opt.step(closure)
        else:
            closure(True)
            opt.step()
        after = torch.cat([p.detach().reshape(-1) for p in params])
        signs.append(torch.sign(after - before))
        with torch.no_grad():
            levels.append(
                torch.cat(
                    [
                        quant_levels(model.fc1.weight).reshape(-1),
                        quant_levels(model.fc2.weight).reshape(-1),
                    ]
                )
            )
    tail = torch.stack(signs[-(window + 1) :])
    lev = torch.stack(levels[-(window + 1) :])
    with torch.no_grad():
        final = float(loss_fn())
        acc = float((model(xte).argmax(dim=1) == yte).double().mean())
    out = {
        "loss": final,
        "acc": acc,
        "chatter": float((tail[1:] != tail[:-1]).double().mean()),
        "qflip": float((lev[1:] != lev[:-1]).double().mean()),
        "alpha": math.nan,
    }
    if name == "S-Adam":
        rhos = opt.lgi_history[-window:]
        out["alpha"] = statistics.mean(math.exp(-2.0 * r) for r in rhos)
    return out


def _fmt(values: list[float], digits: str = ".4g") -> str:
    return f"{statistics.mean(values):{digits}} ± {statistics.stdev(values):.2g}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer steps")
    args = parser.parse_args(argv)
    quick = bool(args.quick)
    torch.set_num_threads(1)
    steps, window = (200, 100) if quick else (600, 200)
    start = time.perf_counter()
    rows = [
        "| optimizer | final train loss | test accuracy | chattering index | quantised-weight flip rate | S-Adam mean alpha |",
        "|---|---|---|---|---|---|",
    ]
    for name in ("Adam", "AdamW", "S-Adam", "Adam, lr/4"):
        res = [run(name, seed, steps, window) for seed in range(SEEDS)]
        alpha = "-" if name != "S-Adam" else _fmt([r["alpha"] for r in res], ".3f")
        rows.append(
            f"| {name} | {_fmt([r['loss'] for r in res])} | {_fmt([r['acc'] for r in res], '.3f')} "
            f"| {_fmt([r['chatter'] for r in res], '.3f')} | {_fmt([r['qflip'] for r in res], '.4f')} | {alpha} |"
        )
    text = [
        "# Gradient chattering on a small quantised MLP (spec 02 §6)",
        "",
        f"Generated by `OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python -m "
        f"benchmarks.optimizers_qat_chattering{' --quick' if quick else ''}` "
        f"({'quick' if quick else 'full'} mode): {steps} full-batch steps, lr {LR}, window = last "
        f"{window} steps, {SEEDS} seeds (mean ± sd over seeds). Data: synthetic 8x8 'digits' "
        "stand-in (sklearn is not installed; see the script's docstring). Shared 2-core machine.",
        "",
        *rows,
        "",
        f"Total time {time.perf_counter() - start:.0f} s.",
    ]
    RESULTS.mkdir(parents=True, exist_ok=True)
    write_table(
        (RESULTS / "optimizers_qat_chattering.md"), "\n".join(text) + "\n", encoding="utf-8"
    )
    print("\n".join(text))


if __name__ == "__main__":
    pin_blas(1)
    main()
