"""Spec 13, E2: GAN toy — does a band-limited RFF critic that covers frequency 8 make the generator
capture the target's high-frequency component, where an MLP critic does not?

Target on R: p(x) ∝ N(x; 0, 1)(1 + 0.8 cos 8x) (spec 13 §6, E2).  Its characteristic function at
frequency 8 has modulus ``|E e^{8iX}| ≈ 0.4`` (computed here by quadrature); a plain N(0, 1) has
``e^{-32}``.  Generator: 2 x 64 MLP (ReLU; our choice, the spec says "2 x 64 MLP") from N(0, 1) noise.
Critics, all trained on the spec's α = 1/2 log-ratio objective Ĵ (§3.1), the generator minimising Ĵ
(the critic's divergence estimate) over its own samples:

* ``RFF Ω=12``: the spec's critic — D = 512 random Fourier features, ω ~ N(0, 8²) truncated at
  Ω = 12, ‖w‖ <= R = 5 (projection after each step), free offset c;
* ``RFF median Ω``: the same critic with the default band (median-heuristic σ on the target sample,
  Ω = 2/σ), which the spec says cuts frequency 8 off — the control showing the band is what matters;
* ``MLP critic``: 2 x 64 tanh MLP, no norm constraint (baseline B1's critic).

Training (our choices, the spec fixes none): batch 512 from each side, 5 critic Adam steps per
generator step (RFF critic lr 1e-2, MLP critic lr 1e-3 as B1), generator Adam lr 1e-3, 2000
generator steps; 5 seeds.  Metric (spec): ``|ECF_gen(8)| / |ECF_target(8)|`` on 20 000 generated
samples; 1 means the oscillation is reproduced, ≈ 0 means it is missed.  Also reported: the same
ratio for a 20 000-point target sample (sampling noise floor of a perfect generator) and the
Wasserstein-1 distance to a target sample (the low-frequency fit).

Run: ``python -m benchmarks.divergence_gan_toy``; writes ``benchmarks/results/divergence_gan_toy.md``
and ``.png``.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from scipy import integrate, stats
from torch import nn

from benchmarks._env import environment_line, pin_blas, write_table

RESULTS = Path(__file__).resolve().parent / "results"
FREQUENCY = 8.0
AMPLITUDE = 0.8
ALPHA = 0.5
CRITICS = ("RFF Ω=12", "RFF median Ω", "MLP critic")


def target_density(x: np.ndarray) -> np.ndarray:
    """Unnormalised target ``N(x; 0, 1)(1 + 0.8 cos 8x)``."""
    return np.asarray(stats.norm.pdf(x) * (1.0 + AMPLITUDE * np.cos(FREQUENCY * x)))


def target_ecf_modulus(frequency: float = FREQUENCY) -> float:
    """``|E e^{i t X}|`` under the normalised target, by quadrature on [-12, 12]."""
    norm = integrate.quad(lambda x: float(target_density(np.array(x))), -12, 12, limit=400)[0]
    re = integrate.quad(
        lambda x: float(target_density(np.array(x))) * math.cos(frequency * x), -12, 12, limit=400
    )[0]
    im = integrate.quad(
        lambda x: float(target_density(np.array(x))) * math.sin(frequency * x), -12, 12, limit=400
    )[0]
    return math.hypot(re, im) / norm


def sample_target(size: int, rng: np.random.Generator) -> np.ndarray:
    """Rejection sampling from N(0, 1): accept with probability (1 + 0.8 cos 8x) / 1.8."""
    out: list[np.ndarray] = []
    have = 0
    while have < size:
        x = rng.standard_normal(2 * size)
        keep = x[rng.uniform(size=x.size) * (1 + AMPLITUDE) < 1 + AMPLITUDE * np.cos(FREQUENCY * x)]
        out.append(keep)
        have += keep.size
    return np.concatenate(out)[:size]


def ecf_modulus(samples: np.ndarray, frequency: float = FREQUENCY) -> float:
    """Modulus of the empirical characteristic function at ``frequency``."""
    return float(abs(np.mean(np.exp(1j * frequency * samples))))


def _mlp(activation: type[nn.Module], width: int = 64) -> nn.Sequential:
    return nn.Sequential(
        nn.Linear(1, width), activation(), nn.Linear(width, width), activation(), nn.Linear(width, 1)
    )


class RFFCritic(nn.Module):
    """``φ(x) = wᵀ z(x) + c`` with fixed features ``z(x) = √(2/D) cos(ωx + b)``; ‖w‖ kept <= R."""

    omegas: torch.Tensor
    offsets: torch.Tensor

    def __init__(self, omegas: np.ndarray, offsets: np.ndarray, radius: float) -> None:
        super().__init__()
        self.register_buffer("omegas", torch.tensor(omegas, dtype=torch.float32))
        self.register_buffer("offsets", torch.tensor(offsets, dtype=torch.float32))
        self.w = nn.Parameter(torch.zeros(omegas.size))
        self.c = nn.Parameter(torch.zeros(()))
        self.radius = radius
        self.scale = math.sqrt(2.0 / omegas.size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        z = self.scale * torch.cos(x * self.omegas + self.offsets)
        out: torch.Tensor = z @ self.w + self.c
        return out.unsqueeze(-1)

    def project(self) -> None:
        with torch.no_grad():
            norm = float(self.w.norm())
            if norm > self.radius:
                self.w.mul_(self.radius / norm)


def truncated_gaussian_frequencies(
    count: int, scale: float, limit: float, rng: np.random.Generator
) -> np.ndarray:
    """``count`` draws of N(0, scale²) conditioned on ``|ω| <= limit`` (rejection)."""
    out: list[np.ndarray] = []
    have = 0
    while have < count:
        w = rng.normal(0.0, scale, size=2 * count)
        keep = w[np.abs(w) <= limit]
        out.append(keep)
        have += keep.size
    return np.concatenate(out)[:count]


def _objective(critic: nn.Module, real: torch.Tensor, fake: torch.Tensor) -> torch.Tensor:
    """Ĵ at α (spec 13 §3.1): P = target (real), Q = generator (fake)."""
    a = ALPHA
    px = torch.clamp(critic(real).squeeze(-1), -50.0, 50.0)
    py = torch.clamp(critic(fake).squeeze(-1), -50.0, 50.0)
    return torch.expm1((a - 1.0) * px).mean() / (a - 1.0) - torch.expm1(a * py).mean() / a


@dataclass(frozen=True)
class RunResult:
    critic: str
    seed: int
    ratio: float
    w1: float
    ratio_curve: list[tuple[int, float]]
    final_samples: np.ndarray
    seconds: float


def make_critic(name: str, rng: np.random.Generator, target: np.ndarray) -> tuple[nn.Module, float]:
    """The critic ``name`` and its Adam learning rate."""
    if name == "RFF Ω=12":
        omegas = truncated_gaussian_frequencies(512, 8.0, 12.0, rng)
        return RFFCritic(omegas, rng.uniform(0, 2 * math.pi, 512), radius=5.0), 1e-2
    if name == "RFF median Ω":
        pairs = rng.integers(target.size, size=(2000, 2))
        sigma = float(np.median(np.abs(target[pairs[:, 0]] - target[pairs[:, 1]])))
        omegas = truncated_gaussian_frequencies(512, 1.0 / sigma, 2.0 / sigma, rng)
        return RFFCritic(omegas, rng.uniform(0, 2 * math.pi, 512), radius=5.0), 1e-2
    if name == "MLP critic":
        return _mlp(nn.Tanh), 1e-3
    raise ValueError(f"critic: expected one of {CRITICS}, got {name!r}")


def train(
    critic_name: str,
    seed: int,
    *,
    steps: int,
    critic_steps: int = 5,
    batch: int = 512,
    eval_size: int = 20_000,
    record_every: int = 100,
) -> RunResult:
    """Train one generator against one critic; return the metric at the end and along the way."""
    start = time.perf_counter()
    rng = np.random.default_rng([13, 2, seed])
    torch.manual_seed(seed)
    target_pool = sample_target(100_000, rng)
    reference_eval = sample_target(eval_size, rng)
    target_modulus = target_ecf_modulus()
    critic, critic_lr = make_critic(critic_name, rng, target_pool)
    generator = _mlp(nn.ReLU)
    opt_c = torch.optim.Adam(critic.parameters(), lr=critic_lr)
    opt_g = torch.optim.Adam(generator.parameters(), lr=1e-3)
    pool = torch.tensor(target_pool, dtype=torch.float32).unsqueeze(-1)
    eval_noise = torch.randn(eval_size, 1)
    curve: list[tuple[int, float]] = []

    def generated() -> np.ndarray:
        with torch.no_grad():
            return np.asarray(generator(eval_noise).squeeze(-1).double().numpy(), dtype=float)

    for step in range(steps + 1):
        if step % record_every == 0 or step == steps:
            curve.append((step, ecf_modulus(generated()) / target_modulus))
        if step == steps:
            break
        for _ in range(critic_steps):
            real = pool[torch.randint(pool.shape[0], (batch,))]
            with torch.no_grad():
                fake = generator(torch.randn(batch, 1))
            loss_c = -_objective(critic, real, fake)
            opt_c.zero_grad()
            loss_c.backward()  # type: ignore[no-untyped-call]
            opt_c.step()
            if isinstance(critic, RFFCritic):
                critic.project()
        real = pool[torch.randint(pool.shape[0], (batch,))]
        loss_g = _objective(critic, real, generator(torch.randn(batch, 1)))
        opt_g.zero_grad()
        loss_g.backward()  # type: ignore[no-untyped-call]
        opt_g.step()
    final = generated()
    return RunResult(
        critic=critic_name,
        seed=seed,
        ratio=curve[-1][1],
        w1=float(stats.wasserstein_distance(final, reference_eval)),
        ratio_curve=curve,
        final_samples=final,
        seconds=time.perf_counter() - start,
    )


def _plot(results: list[RunResult], path: Path, noise_floor: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = dict(zip(CRITICS, ("tab:blue", "tab:orange", "tab:green"), strict=True))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    grid = np.linspace(-4, 4, 801)
    dens = target_density(grid)
    dens /= np.trapezoid(dens, grid)
    ax1.plot(grid, dens, color="black", lw=2, label="target ∝ N(0,1)(1+0.8cos 8x)")
    for name in CRITICS:
        first = next(r for r in results if r.critic == name)
        ax1.hist(
            first.final_samples, bins=160, range=(-4, 4), density=True, histtype="step",
            color=colours[name], label=f"generator vs {name} (seed {first.seed})",
        )
        for r in (r for r in results if r.critic == name):
            steps, ratios = zip(*r.ratio_curve, strict=True)
            ax2.plot(steps, ratios, color=colours[name], alpha=0.7,
                     label=name if r is first else None)
    ax1.set_xlabel("x")
    ax1.set_ylabel("density")
    ax1.set_title("Generated samples after training (one seed per critic)")
    ax1.legend(fontsize=7)
    ax2.axhline(1.0, color="black", ls="--", lw=1, label="target (ratio 1)")
    ax2.axhline(noise_floor, color="grey", ls=":", lw=1, label="|ECF(8)| of N(0,1), n=20000, /0.4")
    ax2.set_xlabel("generator step")
    ax2.set_ylabel("|ECF_gen(8)| / |ECF_target(8)|")
    ax2.set_title("High-frequency capture during training (all seeds)")
    ax2.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run(
    *, seeds: int, steps: int, out: Path | None, log: Callable[[str], None] = print
) -> tuple[list[RunResult], str]:
    """Run every critic for ``seeds`` seeds; write the table (and plot) under ``out`` if given."""
    torch.set_num_threads(1)
    env0, t0 = environment_line(), time.perf_counter()
    target_modulus = target_ecf_modulus()
    rng = np.random.default_rng([13, 2, 999])
    sample_ratio = ecf_modulus(sample_target(20_000, rng)) / target_modulus
    normal_ratio = ecf_modulus(rng.standard_normal(20_000)) / target_modulus
    results: list[RunResult] = []
    for name in CRITICS:
        for seed in range(seeds):
            r = train(name, seed, steps=steps)
            log(f"{name} seed {seed}: ratio {r.ratio:.3f}, W1 {r.w1:.4f}, {r.seconds:.1f} s")
            results.append(r)
    wall = time.perf_counter() - t0
    lines = [
        "# Spec 13, E2: GAN toy — high-frequency capture by an RFF critic vs an MLP critic",
        "",
        f"`python -m benchmarks.divergence_gan_toy --seeds {seeds} --steps {steps}` "
        f"({wall:.0f} s wall, torch {torch.__version__} CPU, 1 thread).",
        "",
        "Spec's setting (§6 E2) vs this run: target ∝ N(x;0,1)(1 + 0.8 cos 8x), generator 2x64 MLP from "
        "N(0,1) noise, RFF critic D = 512, R = 5, ω ~ N(0, 8²) truncated at Ω = 12, α = 1/2 objective, vs "
        "an MLP critic — all as the spec says. Not fixed by the spec (our choices): generator ReLU, MLP critic "
        "2x64 tanh unconstrained (B1), Adam (RFF critic lr 1e-2 with projection onto ‖w‖ <= R, MLP critic "
        f"lr 1e-3, generator lr 1e-3), 5 critic steps per generator step, batch 512, {steps} generator "
        f"steps, seeds 0..{seeds - 1}. No reduction: the spec gives no size for E2; the paper's own "
        "GAN settings were not retrievable (abstract only).",
        "",
        f"Target |ECF(8)| by quadrature: {target_modulus:.6f}. Noise floor: a 20 000-point target sample "
        f"gives ratio {sample_ratio:.3f}; a 20 000-point N(0,1) sample gives {normal_ratio:.3f} "
        "(a generator that ignores the oscillation).",
        "",
        f"Before the run: {env0}.",
        "",
        "| critic | ratio |ECF_gen(8)|/|ECF_target(8)|: mean ± sd | per seed | W1 to target: mean |",
        "|---|---|---|---|",
    ]
    summary: dict[str, float] = {}
    for name in CRITICS:
        rows = [r for r in results if r.critic == name]
        ratios = np.array([r.ratio for r in rows])
        summary[name] = float(ratios.mean())
        lines.append(
            f"| {name} | {ratios.mean():.3f} ± {ratios.std():.3f} | "
            f"{', '.join(f'{v:.3f}' for v in ratios)} | {np.mean([r.w1 for r in rows]):.4f} |"
        )
    rff, mlp = summary["RFF Ω=12"], summary["MLP critic"]
    verdict = (
        "agrees with the claim: the RFF critic covering frequency 8 makes the generator reproduce "
        "more of the high-frequency component than the MLP critic"
        if rff > mlp + 0.1
        else "does NOT show the claim's separation: the RFF critic's ratio is not clearly above the "
        "MLP critic's"
    )
    lines += [
        "",
        f"Paper's claim (abstract): spectrally regularised (RFF) critics capture high-frequency components "
        f"better. This run: mean ratio {rff:.3f} (RFF Ω=12) vs {mlp:.3f} (MLP critic) vs "
        f"{summary['RFF median Ω']:.3f} (RFF, median-heuristic band) — {verdict}.",
        "",
        f"After the run ({wall:.0f} s wall): {environment_line()}.",
    ]
    text = "\n".join(lines) + "\n"
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        write_table(out / "divergence_gan_toy.md", text)
        _plot(results, out / "divergence_gan_toy.png", normal_ratio)
    return results, text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=2000)
    args = parser.parse_args()
    _, text = run(seeds=args.seeds, steps=args.steps, out=RESULTS)
    print(text)


if __name__ == "__main__":
    pin_blas(1)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    main()
