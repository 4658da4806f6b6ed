"""Spec 13 E2 GAN toy (``benchmarks/divergence_gan_toy.py``): the metric, the critics, a toy run."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import torch

from benchmarks import divergence_gan_toy as gan


def test_target_ecf_at_frequency_8_matches_the_closed_form() -> None:
    """E e^{8iX} under N(0,1)(1 + 0.8 cos 8x)/Z is (e^{-32} + 0.4(1 + e^{-128})) / (1 + 0.8 e^{-32})."""
    exact = (math.exp(-32) + 0.4 * (1 + math.exp(-128))) / (1 + 0.8 * math.exp(-32))
    assert abs(gan.target_ecf_modulus() - exact) < 1e-9


def test_target_sample_reproduces_the_oscillation_and_normal_does_not() -> None:
    rng = np.random.default_rng(0)
    sample = gan.sample_target(20_000, rng)
    assert abs(gan.ecf_modulus(sample) - 0.4) < 0.03  # 4 / sqrt(n) ≈ 0.028
    assert gan.ecf_modulus(rng.standard_normal(20_000)) < 0.03
    assert abs(float(np.mean(sample))) < 0.05


def test_spec_critic_covers_frequency_8_and_median_band_does_not() -> None:
    rng = np.random.default_rng(1)
    target = gan.sample_target(5000, rng)
    wide, _ = gan.make_critic("RFF Ω=12", rng, target)
    narrow, _ = gan.make_critic("RFF median Ω", rng, target)
    assert isinstance(wide, gan.RFFCritic)
    assert isinstance(narrow, gan.RFFCritic)
    w_omegas = wide.omegas.abs()
    assert float(w_omegas.max()) <= 12.0
    assert int((w_omegas > 8.0).sum()) > 10
    assert float(narrow.omegas.abs().max()) < 8.0


def test_rff_critic_projection_keeps_the_ball() -> None:
    critic = gan.RFFCritic(np.linspace(-3, 3, 16), np.zeros(16), radius=5.0)
    with torch.no_grad():
        critic.w.copy_(torch.full((16,), 10.0))
    critic.project()
    assert float(critic.w.detach().norm()) <= 5.0 + 1e-5


def test_toy_run_writes_one_row_per_critic(tmp_path: Path) -> None:
    results, text = gan.run(seeds=1, steps=20, out=tmp_path, log=lambda _: None)
    assert {r.critic for r in results} == set(gan.CRITICS)
    for r in results:
        assert r.ratio_curve[0][0] == 0
        assert r.ratio_curve[-1][0] == 20
        assert math.isfinite(r.ratio)
        assert r.ratio >= 0
    table = (tmp_path / "divergence_gan_toy.md").read_text(encoding="utf-8")
    assert (tmp_path / "divergence_gan_toy.png").stat().st_size > 0
    for name in gan.CRITICS:
        assert f"| {name} |" in table
    assert "Environment" in table
    assert "Target |ECF(8)| by quadrature: 0.4000" in text
