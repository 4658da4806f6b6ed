"""Spec 15 A5 (our CPU experiment): SoSD in a factorised bigram language model, Adam and Muon.

Model: embedding ``E (d, V)``, unembedding ``U (V, d)``, next-token logits ``U E[:, x]``.  Data:
a Markov chain over ``V = 64`` tokens with ``T = softmax(2 A B / √6)``, ``A (64, 6)``,
``B (6, 64)`` i.i.d. N(0, 1) (seeded); ``x`` uniform, ``y ~ T[x]``; 512 fresh samples per step.
Training: ``d = 32``, init N(0, 0.02²), 4,000 steps, (a) Adam ``η = 3e-3``, ``β = (0.9, 0.95)``,
no weight decay (spec 15 A5); (b) Muon (our extension: both matrices, momentum 0.95, Nesterov,
NS5 from :func:`reference.optimizers.polar.newton_schulz`, ``s = max(1, m/n)^{1/2}``, no weight decay) at
``η = 0.02`` (the spec's Muon rate for hidden matrices), ``3e-3`` (Adam's rate) and ``1e-3``.
Spec 15 A4 uses Muon for 2-D HIDDEN matrices only (embeddings and head use AdamW); the bigram
model has no hidden matrix, so a Muon run that follows that convention is the Adam run, and the
Muon arm applies Muon to the embedding and unembedding (outside its documented use).  Tracked
every step: ``σ̂(E)``, ``σ̂(U)``, ``ΔΣ``, ``||E||_F``, the L1 bound, the update size
``||W_{t+1} - W_t||_F`` and, for Muon, ``ΔΣ`` against the L3 bound
``η s (√r + r) / ||W_{t+1}||_*``.

Reported per run (spec 15 A5 assertions): (i) mean ΔΣ over steps 2000–4000 against 0.05 × max
ΔΣ over steps 1–100; (ii) ``||E_4000||_F / ||E_1000||_F >= 1.05``; (iii) ``ρ_sync = t*_SoSD /
t*_loss`` in ``[1/3, 3]`` (A3 defaults, elbow on raw per-step losses, 5-step grid);
(iv) L1 at every step.  Diagnostics: the update size late/early (mean ``||ΔW||_F`` over the last
half against steps 1–100) and ``||E||_*`` late/early, which explain why Muon fails (i): its
orthogonalised step has a fixed size, so ``ΔΣ`` can only fall through norm growth.

Run: ``OPENBLAS_NUM_THREADS=1 python -m benchmarks.spectral_sosd_experiment [--seeds 5]
[--steps 4000]`` (single-threaded BLAS: the matrices are tiny, threads only contend); writes
``benchmarks/results/spectral_sosd.md`` and ``spectral_sosd.png``.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.linalg
from scipy.special import log_softmax, softmax

from benchmarks._env import pin_blas, write_table
from reference._arrays import FloatArray
from reference.optimizers.polar import newton_schulz
from reference.spectral import loss_elbow, normalized_spectrum, sosd_threshold, sync_ratio

RESULTS = Path(__file__).parent / "results"
V, D, RANK, BATCH = 64, 32, 6, 512


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class Run:
    """One training run's series and summary."""

    optimizer: str
    seed: int
    losses: FloatArray
    variation: FloatArray  # mean of ΔΣ(E), ΔΣ(U) per step
    norms_e: FloatArray
    l1_ok: bool
    bayes: float
    t_sosd: float
    t_loss: float
    early_max: float
    late_mean: float
    lr: float
    update_ratio: float  # mean ||ΔW||_F (last half) / mean ||ΔW||_F (steps 1-100), mean of E, U
    nuclear_ratio: float  # mean ||E||_* (last half) / ||E||_* at the early ΔΣ maximum
    l3_ratio: float  # Muon: mean ΔΣ / L3 bound over the last half (nan for Adam)


def chain(seed: int) -> FloatArray:
    """The Markov transition matrix ``T = softmax(2 A B / √6)``."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((V, RANK))
    b = rng.standard_normal((RANK, V))
    out: FloatArray = softmax(2.0 * a @ b / np.sqrt(RANK), axis=1)
    return out


def _grads(
    e: FloatArray, u: FloatArray, x: np.ndarray, y: np.ndarray
) -> tuple[float, FloatArray, FloatArray]:
    h = e[:, x]  # (d, B)
    logits = (u @ h).T  # (B, V)
    logp = log_softmax(logits, axis=1)
    loss = float(-np.mean(logp[np.arange(x.size), y]))
    r = np.exp(logp)
    r[np.arange(x.size), y] -= 1.0
    r /= x.size
    gu = r.T @ h.T  # (V, d)
    dh = u.T @ r.T  # (d, B)
    ge = np.zeros_like(e)
    np.add.at(ge.T, x, dh.T)
    return loss, ge, gu


def _l1_holds(before_spec: FloatArray, after_sv: FloatArray, delta: FloatArray) -> bool:
    s = scipy.linalg.svdvals(delta)
    bound = (float(np.linalg.norm(s)) + float(np.sum(s))) / float(np.sum(after_sv))
    lhs = float(np.linalg.norm(after_sv / after_sv.sum() - before_spec))
    return lhs <= bound * (1.0 + 1e-12) + 1e-15


def train(seed: int, optimizer: str, steps: int, lr: float | None = None) -> Run:
    """Train the bigram model and record the SoSD series (``lr``: 3e-3 Adam, 0.02 Muon)."""
    eta = (3e-3 if optimizer == "adam" else 0.02) if lr is None else lr
    trans = chain(seed)
    cdf = np.cumsum(trans, axis=1)
    rng = np.random.default_rng(seed + 1000)
    e = rng.standard_normal((D, V)) * 0.02
    u = rng.standard_normal((V, D)) * 0.02
    params = [e, u]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    spectra = [normalized_spectrum(p) for p in params]
    losses, variation, norms_e = [], [], [float(np.linalg.norm(e))]
    updates, nuclear_e, l3 = [], [], []
    l1_ok = True
    for t in range(1, steps + 1):
        x = rng.integers(0, V, size=BATCH)
        y = np.minimum((rng.uniform(size=BATCH)[:, None] > cdf[x]).sum(axis=1), V - 1)
        loss, ge, gu = _grads(params[0], params[1], x, y)
        losses.append(loss)
        new = []
        for i, (p, g) in enumerate(zip(params, (ge, gu), strict=True)):
            if optimizer == "adam":
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.95 * v[i] + 0.05 * g * g
                step = eta * (m[i] / (1 - 0.9**t)) / (np.sqrt(v[i] / (1 - 0.95**t)) + 1e-8)
            else:  # Muon (lerp form), Nesterov
                m[i] = 0.95 * m[i] + 0.05 * g
                update = 0.05 * g + 0.95 * m[i]
                scale = max(1.0, p.shape[0] / p.shape[1]) ** 0.5
                step = eta * scale * newton_schulz(update)
            new.append(p - step)
        singular = [scipy.linalg.svdvals(p) for p in new]
        new_spectra = [sv / sv.sum() for sv in singular]
        steps_sd = [float(np.linalg.norm(a - b)) for a, b in zip(new_spectra, spectra, strict=True)]
        variation.append(float(np.mean(steps_sd)))
        updates.append(
            float(np.mean([np.linalg.norm(a - b) for a, b in zip(new, params, strict=True)]))
        )
        nuclear_e.append(float(singular[0].sum()))
        if optimizer == "muon":  # L3: ΔΣ <= η s (√r + r) / ||W_{t+1}||_*
            bounds = [
                eta
                * max(1.0, p.shape[0] / p.shape[1]) ** 0.5
                * (min(p.shape) ** 0.5 + min(p.shape))
                / float(sv.sum())
                for p, sv in zip(new, singular, strict=True)
            ]
            l3.append(float(np.mean([a / b for a, b in zip(steps_sd, bounds, strict=True)])))
        l1_ok = l1_ok and all(
            _l1_holds(spectra[i], singular[i], new[i] - params[i]) for i in range(2)
        )
        params, spectra = new, new_spectra
        norms_e.append(float(np.linalg.norm(params[0])))
    d = np.array(variation)
    threshold = sosd_threshold(d)
    grid = np.arange(1.0, steps + 1.0)
    elbow = loss_elbow(grid, np.array(losses), stride=5)
    bayes = float(np.mean(-np.sum(trans * np.log(trans), axis=1)))
    size = np.array(updates)
    peak = int(np.argmax(d[:100]))
    return Run(
        optimizer=optimizer,
        seed=seed,
        losses=np.array(losses),
        variation=d,
        norms_e=np.array(norms_e),
        l1_ok=l1_ok,
        bayes=bayes,
        t_sosd=float(threshold.index + 1),
        t_loss=elbow.step,
        early_max=float(d[:100].max()),
        late_mean=float(d[steps // 2 :].mean()),
        lr=eta,
        update_ratio=float(size[steps // 2 :].mean() / size[:100].mean()),
        nuclear_ratio=float(np.mean(nuclear_e[steps // 2 :]) / nuclear_e[peak]),
        l3_ratio=float(np.mean(l3[steps // 2 :])) if l3 else float("nan"),
    )


def _summary(run: Run, steps: int) -> dict[str, object]:
    quarter = steps // 4
    growth = run.norms_e[-1] / run.norms_e[quarter]
    rho = sync_ratio(run.t_sosd, run.t_loss)
    return {
        "optimizer": run.optimizer,
        "η": run.lr,
        "seed": run.seed,
        "final loss": float(np.mean(run.losses[-100:])),
        "Bayes loss": run.bayes,
        "late/early ΔΣ": run.late_mean / run.early_max,
        "(i) <= 0.05": _verdict(run.late_mean <= 0.05 * run.early_max),
        "‖E_T‖/‖E_T/4‖": growth,
        "(ii) >= 1.05": _verdict(growth >= 1.05),
        "t*_SoSD": run.t_sosd,
        "t*_loss": run.t_loss,
        "ρ_sync": rho,
        "(iii) in [1/3, 3]": _verdict(1 / 3 <= rho <= 3),
        "(iv) L1 every step": _verdict(run.l1_ok),
        "update size late/early": run.update_ratio,
        "‖E‖_* late/at peak": run.nuclear_ratio,
        "ΔΣ / L3 bound (late)": run.l3_ratio,
    }


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


CONFIGS: tuple[tuple[str, float], ...] = (
    ("adam", 3e-3),
    ("muon", 0.02),
    ("muon", 3e-3),
    ("muon", 1e-3),
)


_NOTES = (
    "Why Muon fails (i) (and (ii)/(iii) at η = 0.02): Muon's step is η s NS5(B), whose singular "
    "values lie in [0.65, 1.25] (spec 15 L3), so ‖ΔW‖_F keeps its early size through the "
    "noise-dominated phase (update size late/early ≈ 1.0), while Adam's m̂/√v̂ shrinks as the "
    "gradient becomes mostly noise (late/early ≈ 0.3). With a fixed step size, ΔΣ stays a roughly "
    "constant fraction (≈ 2-4%) of the L3 bound η s (√r + r)/‖W‖_*, so its floor falls only as "
    "‖W‖_* grows, and ‖E‖_* grows only ≈ 8-15× from the early ΔΣ peak before U E fits the Bayes "
    "logits (Adam grows it ≈ 10× as well): late/early ΔΣ ≈ 0.06-0.14 for Muon at η in {0.02, "
    "3e-3, 1e-3}, against ≤ 0.05 required; Adam gets 0.010-0.014 from the extra update shrinkage. "
    "At η = 3e-3 Muon passes (ii) and (iii) and misses (i) narrowly (0.059-0.068). The paper's Muon "
    "runs use LR schedules (WSD/cosine decay lowers η_t, spec 15 L4) and Muon on hidden matrices "
    "only; neither is part of A5, whose assertions are stated for Adam. No bug was found in the "
    "Muon update (NS5 from reference.optimizers.polar, lerp momentum with Nesterov, s = max(1, m/n)^½).",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=4000)
    args = parser.parse_args()
    start = time.perf_counter()
    runs = [train(s, o, args.steps, lr) for o, lr in CONFIGS for s in range(args.seeds)]
    seconds = time.perf_counter() - start
    rows = [_summary(r, args.steps) for r in runs]
    RESULTS.mkdir(parents=True, exist_ok=True)
    cols = list(rows[0])
    lines = [
        "# SoSD in a factorised bigram model (spec 15 A5, our CPU experiment)",
        "",
        f"Generated by `python -m benchmarks.spectral_sosd_experiment --seeds {args.seeds} "
        f"--steps {args.steps}` ({seconds:.0f} s, OPENBLAS/OMP/MKL_NUM_THREADS=1, shared "
        "2-core machine). ΔΣ is the mean over E and U, logged every step (k = 1). "
        "Threshold/elbow: spec 15 A3 defaults (κ = 3, w = 25; elbow on raw losses, 5-step "
        "grid). Assertions (i)-(iv) are the spec's for the Adam run (A5); the Muon arm is our "
        "extension (Muon on both E and U although spec A4 reserves Muon for hidden matrices, "
        "which this model lacks; no weight decay, constant η). Diagnostics: update size = mean "
        "‖W_{t+1} - W_t‖_F over the last half / over steps 1-100; ‖E‖_* late / at the step of "
        "the early ΔΣ maximum; ΔΣ / L3 bound = mean over the last half of ΔΣ / (η s (√r + r) / "
        "‖W_{t+1}‖_*).",
        "",
        "| " + " | ".join(cols) + " |",
        "|" + "---|" * len(cols),
    ]
    for row in rows:
        cells = [f"{v:.4g}" if isinstance(v, float) else str(v) for v in row.values()]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", *_NOTES]
    write_table((RESULTS / "spectral_sosd.md"), "\n".join(lines) + "\n", encoding="utf-8")
    _plot([r for r in runs if r.seed == 0 and (r.optimizer == "adam" or r.lr == 0.02)])
    print("\n".join(lines))


def _plot(runs: list[Run]) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - matplotlib is a dev dependency
        return
    fig, axes = plt.subplots(1, len(runs), figsize=(6 * len(runs), 4), squeeze=False)
    for ax, run in zip(axes[0], runs, strict=True):
        t = np.arange(1, run.variation.size + 1)
        ax.loglog(t, run.variation, lw=0.6, label="ΔΣ (mean of E, U)")
        ax.axvline(run.t_sosd, color="C2", ls="--", label=f"t*_SoSD = {run.t_sosd:.0f}")
        ax.axvline(run.t_loss, color="C3", ls=":", label=f"t*_loss = {run.t_loss:.0f}")
        ax.set_xlabel("step")
        ax.set_ylabel("ΔΣ")
        twin = ax.twinx()
        twin.semilogx(t, run.losses, color="k", lw=0.4, alpha=0.5)
        twin.set_ylabel("loss (nats)")
        ax.set_title(f"{run.optimizer} (η = {run.lr:g}), seed {run.seed}")
        ax.legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    fig.savefig(RESULTS / "spectral_sosd.png", dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    pin_blas(1)
    main()
