"""Hand-made broken preference code: the preference suites must reject each one."""

from __future__ import annotations

import numpy as np

from reference._arrays import FloatArray


def dpo_swapped(
    logp_w: FloatArray, logp_l: FloatArray, ref_w: FloatArray, ref_l: FloatArray, beta: float
) -> float:
    """Mutant: winner and loser exchanged."""
    delta = (logp_l - ref_l) - (logp_w - ref_w)
    return float(np.mean(np.logaddexp(0.0, -beta * delta)))


def dpo_naive_sigmoid(
    logp_w: FloatArray, logp_l: FloatArray, ref_w: FloatArray, ref_l: FloatArray, beta: float
) -> float:
    """Mutant: -log(1/(1 + e^{-x})) written naively: overflows/underflows at large gaps."""
    delta = (logp_w - ref_w) - (logp_l - ref_l)
    with np.errstate(over="ignore", divide="ignore"):
        return float(np.mean(-np.log(1.0 / (1.0 + np.exp(-beta * delta)))))


def dpo_no_beta(
    logp_w: FloatArray, logp_l: FloatArray, ref_w: FloatArray, ref_l: FloatArray, beta: float
) -> float:
    """Mutant: forgets β."""
    delta = (logp_w - ref_w) - (logp_l - ref_l)
    return float(np.mean(np.logaddexp(0.0, -delta)))


def dpo_sum(
    logp_w: FloatArray, logp_l: FloatArray, ref_w: FloatArray, ref_l: FloatArray, beta: float
) -> float:
    """Mutant: sums instead of averaging."""
    delta = (logp_w - ref_w) - (logp_l - ref_l)
    return float(np.sum(np.logaddexp(0.0, -beta * delta)))


def loss_cubic(q: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Mutant: ℓ_1 = (1-q)³, ℓ_0 = q³ is not proper."""
    return (1.0 - q) ** 3, q**3


def loss_swapped(q: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Mutant: the log loss with its partial losses exchanged."""
    return -np.log1p(-q), -np.log(q)


def loss_lopsided(q: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Mutant: Brier with ℓ_1 doubled (not proper)."""
    return 2.0 * (1.0 - q) ** 2, q**2


def link_home_advantage(z: FloatArray) -> FloatArray:
    """Mutant: σ(z + 0.5), a negative margin: F(z) + F(-z) > 1."""
    out: FloatArray = 1.0 / (1.0 + np.exp(-(z + 0.5)))
    return out


def link_decreasing(z: FloatArray) -> FloatArray:
    """Mutant: σ(-z)."""
    out: FloatArray = 1.0 / (1.0 + np.exp(z))
    return out


def link_saturating(z: FloatArray) -> FloatArray:
    """Mutant: a clipped linear link, flat beyond |z| > 2 (not strictly increasing)."""
    out: FloatArray = np.clip(0.5 + z / 4.0, 0.0, 1.0)
    return out
