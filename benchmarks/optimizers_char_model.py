"""Spec 14 §6 CPU analogue: a character-level model trained with Lion / Muon and their robust variants.

Spec 14 §6 (our default CPU analogue of the paper's nanoGPT-on-Shakespeare runs, whose
numbers were not retrieved): a character-level 2-layer MLP on a few hundred kB of text,
Muon on the hidden matrix with AdamW elsewhere, Lion on all parameters, each with and
without R1 clipping (``tau = 1`` per tensor), 500 steps; mean final train / validation loss.
We add the R2 variants (:class:`reference.optimizers.fast_torch.LionVR`, ``MuonVR``; two
gradient evaluations per step at the same mini-batch) and run 5 seeds (spec: 3).

Corpus: no text data set is available offline, so the text is the concatenation of five
CPython standard-library sources (``argparse``, ``difflib``, ``textwrap``, ``fractions``,
``heapq`` of the running interpreter; about 250 kB; non-ASCII characters mapped to ``?``),
the last 10 % held out for validation.  The table states the Python version.

Model: context of 8 characters, embedding 16 per character (128 inputs), hidden layer 256
(tanh), linear read-out to the vocabulary; float32; batch 64 random windows per step.

Optimizers (our choices; nothing was retrieved): Lion lr 3e-4, weight decay 0.1 (betas
0.9, 0.99); Muon lr 0.02 on the hidden matrix (momentum 0.95, Nesterov, NS5), weight decay
0.1, with ``torch.optim.AdamW`` lr 3e-3 (weight decay 0) on the embedding, biases and
read-out; R1 = the same with per-tensor clipping ``tau = 1`` on Lion's / Muon's tensors;
R2 = LionVR / MuonVR with the same learning rate and weight decay, ``tau = 1``, the
schedule ``a_t = (t+1)^(-2/3)``.

Settings: (1) plain mini-batch noise; (2) the same plus injected heavy-tailed gradient
noise: the loss gets ``<xi_t, theta>`` with ``xi_t`` i.i.d. symmetric Pareto (tail 1.5, so
infinite variance; scale 1e-3) per coordinate and step (the same ``xi_t`` for both of
R2's evaluations).  Reported: train loss (on 4096 fixed training windows, without the
injected term) and validation loss (4096 windows) after the last step, mean ± sd over seeds.

Run: ``python -m benchmarks.optimizers_char_model [--quick]`` (quick: 150 steps, 2 seeds);
writes ``benchmarks/results/optimizers_char_model.md``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from benchmarks._env import pin_blas, write_table
from reference import stability
from reference.optimizers.fast_torch import Lion, LionVR, Muon, MuonVR

RESULTS = Path(__file__).parent / "results"
CONTEXT, EMBED, HIDDEN, BATCH = 8, 16, 256, 64
FILES = ("argparse.py", "difflib.py", "textwrap.py", "fractions.py", "heapq.py")
METHODS = ("Lion", "Lion + R1 clip", "Lion-VR (R2)", "Muon", "Muon + R1 clip", "Muon-VR (R2)")


def corpus() -> tuple[np.ndarray, np.ndarray, int]:
    root = Path(sysconfig.get_paths()["stdlib"])
    text = "".join((root / f).read_text(encoding="utf-8") for f in FILES)
    text = "".join(c if ord(c) < 128 else "?" for c in text)
    chars = sorted(set(text))
    ids = np.array([chars.index(c) for c in text], dtype=np.int64)
    cut = int(0.9 * ids.size)
    return ids[:cut], ids[cut:], len(chars)


class CharMLP(torch.nn.Module):
    def __init__(self, vocab: int) -> None:
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, EMBED)
        self.hidden = torch.nn.Linear(CONTEXT * EMBED, HIDDEN)
        self.out = torch.nn.Linear(HIDDEN, vocab)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(self.hidden(self.embed(x).reshape(x.shape[0], -1)))
        out: torch.Tensor = self.out(h)
        return out


def windows(ids: np.ndarray, starts: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    idx = starts[:, None] + np.arange(CONTEXT)[None, :]
    return torch.from_numpy(ids[idx]), torch.from_numpy(ids[starts + CONTEXT])


def run(
    method: str, seed: int, steps: int, noise: float, data: tuple[np.ndarray, np.ndarray, int]
) -> tuple[float, float]:
    train_ids, val_ids, vocab = data
    torch.manual_seed(seed)
    rng = np.random.default_rng([seed, 3])
    model = CharMLP(vocab)
    params = list(model.parameters())
    hidden = [model.hidden.weight]
    others = [p for p in params if p is not model.hidden.weight]
    wd = 0.1
    main_opt: Any
    aux: torch.optim.Optimizer | None = None
    if method.startswith("Lion"):
        if "R2" in method:
            main_opt = LionVR(params, lr=3e-4, weight_decay=wd, clip_tau=1.0)
        else:
            tau = 1.0 if "R1" in method else math.inf
            main_opt = Lion(params, lr=3e-4, weight_decay=wd, clip_tau=tau)
    else:
        if "R2" in method:
            main_opt = MuonVR(hidden, lr=0.02, weight_decay=wd, clip_tau=1.0)
        else:
            tau = 1.0 if "R1" in method else math.inf
            main_opt = Muon(hidden, lr=0.02, weight_decay=wd, clip_tau=tau)
        aux = torch.optim.AdamW(others, lr=3e-3, weight_decay=0.0)
    eval_train = windows(train_ids, rng.integers(0, train_ids.size - CONTEXT, size=4096))
    eval_val = windows(val_ids, rng.integers(0, val_ids.size - CONTEXT, size=4096))
    n_total = sum(p.numel() for p in params)
    for _ in range(steps):
        xb, yb = windows(train_ids, rng.integers(0, train_ids.size - CONTEXT, size=BATCH))
        xi: list[torch.Tensor] = []
        if noise > 0.0:
            flat = noise * stability.symmetric_pareto(n_total, tail=1.5, rng=rng)
            xi = [
                torch.from_numpy(part.astype(np.float32)).reshape(p.shape)
                for part, p in zip(
                    np.split(flat, np.cumsum([p.numel() for p in params])[:-1]), params, strict=True
                )
            ]

        def closure(
            xb: torch.Tensor = xb, yb: torch.Tensor = yb, xi: list[torch.Tensor] = xi
        ) -> Any:
            model.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(xb), yb)
            for p, z in zip(params, xi, strict=False):  # xi is empty without injected noise
                loss = loss + torch.sum(p * z)
            loss.backward()  # type: ignore[no-untyped-call]
            return loss

        if "R2" in method:
            main_opt.step(closure)  # leaves .grad = g(x_t; xi_t) for all parameters
        else:
            closure()
            main_opt.step()
        if aux is not None:
            aux.step()
    with torch.no_grad():

        def ce(w: tuple[torch.Tensor, torch.Tensor]) -> float:
            return float(torch.nn.functional.cross_entropy(model(w[0]), w[1]))

        return ce(eval_train), ce(eval_val)


def _sd(values: list[float]) -> float:
    return statistics.stdev(values) if len(values) > 1 else 0.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="150 steps, 2 seeds")
    args = parser.parse_args(argv)
    quick = bool(args.quick)
    torch.set_num_threads(1)
    steps, seeds = (150, 2) if quick else (500, 5)
    data = corpus()
    start = time.perf_counter()
    rows = [
        "| setting | optimizer | final train loss | final validation loss |",
        "|---|---|---|---|",
    ]
    for label, noise in (("mini-batch noise", 0.0), ("+ Pareto(1.5) noise, scale 1e-3", 1e-3)):
        for method in METHODS:
            res = [run(method, s, steps, noise, data) for s in range(seeds)]
            tr = [r[0] for r in res]
            va = [r[1] for r in res]
            rows.append(
                f"| {label} | {method} | {statistics.mean(tr):.4f} ± {_sd(tr):.3f} "
                f"| {statistics.mean(va):.4f} ± {_sd(va):.3f} |"
            )
    text = [
        "# Character-level model: Lion / Muon and their robust variants (spec 14 §6)",
        "",
        f"Generated by `OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python -m "
        f"benchmarks.optimizers_char_model{' --quick' if quick else ''}` "
        f"({'quick' if quick else 'full'} mode): {steps} steps, batch {BATCH}, {seeds} seeds "
        f"(mean ± sd); corpus = CPython {sys.version.split()[0]} stdlib sources "
        f"({', '.join(FILES)}), {data[2]} characters in the vocabulary, "
        f"{data[0].size} train / {data[1].size} validation characters; uniform-guess loss "
        f"ln(V) = {math.log(data[2]):.3f}. Shared 2-core machine. No numeric target exists "
        "(the paper's numbers were not retrieved).",
        "",
        *rows,
        "",
        f"Total time {time.perf_counter() - start:.0f} s.",
    ]
    RESULTS.mkdir(parents=True, exist_ok=True)
    write_table((RESULTS / "optimizers_char_model.md"), "\n".join(text) + "\n", encoding="utf-8")
    print("\n".join(text))


if __name__ == "__main__":
    pin_blas(1)
    main()
