"""Hand-made broken alpha-divergence code: the divergence suites must reject each one."""

from __future__ import annotations

import numpy as np

from properties.divergence import reference_estimator
from reference import divergence as dv
from reference._arrays import FloatArray


def gauss_unnormalised(
    mu1: FloatArray, S1: FloatArray, mu2: FloatArray, S2: FloatArray, alpha: float
) -> float:
    """Mutant: forgets the 1/(α(1-α)) factor (returns 1 - A_α)."""
    return float(1.0 - np.exp(dv.chernoff_coefficient_gaussian(mu1, S1, mu2, S2, alpha)))


def gauss_alpha_swapped(
    mu1: FloatArray, S1: FloatArray, mu2: FloatArray, S2: FloatArray, alpha: float
) -> float:
    """Mutant: uses Amari's other convention by mistake (α -> 1 - α)."""
    return dv.alpha_divergence_gaussian(mu1, S1, mu2, S2, 1.0 - alpha)


def gauss_no_mean_term(
    mu1: FloatArray, S1: FloatArray, mu2: FloatArray, S2: FloatArray, alpha: float
) -> float:
    """Mutant: drops the Δμᵀ S_α⁻¹ Δμ term (only covariances matter)."""
    return dv.alpha_divergence_gaussian(mu1, S1, mu1, S2, alpha)


def estimator_zero(X: FloatArray, Y: FloatArray, alpha: float) -> float:
    """Mutant: returns Ĵ at θ = 0, i.e. never optimises."""
    return 0.0


def estimator_first_half(X: FloatArray, Y: FloatArray, alpha: float) -> float:
    """Mutant: silently uses only the first half of each sample (order-dependent)."""
    x, y = np.asarray(X), np.asarray(Y)
    return reference_estimator(x[: max(2, x.shape[0] // 2)], y[: max(2, y.shape[0] // 2)], alpha)


def estimator_noisy(X: FloatArray, Y: FloatArray, alpha: float) -> float:
    """Mutant: unseeded mini-batch noise leaks into the estimate (not reproducible)."""
    return reference_estimator(X, Y, alpha) + float(np.random.default_rng().uniform(0.0, 0.05))
