"""Mutant table of the divergence theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from reference import divergence as dv
from reference._arrays import FloatArray
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def swapped_conjugate(t: Any, alpha: float) -> FloatArray:
    """``f_α*`` evaluated at ``1 - α`` (the Amari/α parametrisations confused)."""
    return dv.f_alpha_conjugate(t, 1.0 - alpha)


def alpha_only_normaliser(mu1: Any, S1: Any, mu2: Any, S2: Any, alpha: float, **kw: Any) -> float:
    """``(1 - A)/α`` instead of ``(1 - A)/(α(1 - α))``."""
    return float(dv.alpha_divergence_gaussian(mu1, S1, mu2, S2, alpha, **kw)) * (1.0 - alpha)


def fixed_step_ascent(
    zx: Any, zy: Any, alpha: float, config: Any = None, *, rng: Any = None, theta0: Any = None
) -> dv.ArmijoResult:
    """Projected gradient ascent with a fixed step 0.005: the line search left out."""
    del rng
    cfg = config if config is not None else dv.ArmijoConfig()
    fx, fy = np.asarray(zx, dtype=np.float64), np.asarray(zy, dtype=np.float64)
    theta = np.zeros(fx.shape[1] + 1) if theta0 is None else np.array(theta0, dtype=np.float64)
    for _ in range(cfg.max_iter):
        theta = theta + 0.005 * dv.alpha_objective_gradient(fx, fy, theta, alpha)
        norm = float(np.linalg.norm(theta[:-1]))
        if norm > cfg.radius:
            theta[:-1] *= cfg.radius / norm
    value = dv.alpha_objective(fx, fy, theta, alpha)
    return dv.ArmijoResult(
        theta=theta,
        value=value,
        values=np.array([value]),
        step_sizes=np.full(cfg.max_iter, 0.005),
        grad_map_norm=math.nan,
        iterations=cfg.max_iter,
        converged=True,
    )


def alpha_normalised_profiled_value(phi_x: Any, phi_y: Any, alpha: float) -> float:
    """The profiled value divided by ``α`` instead of ``α(1 - α)``."""
    return float(dv.profiled_value(phi_x, phi_y, alpha)) * (1.0 - alpha)


def flipped_hessian(zx: Any, zy: Any, theta: Any, alpha: float) -> FloatArray:
    """The Hessian of ``-Ĵ`` (sign flipped)."""
    return -dv.alpha_objective_hessian(zx, zy, theta, alpha)


def reversed_kl(mu1: Any, S1: Any, mu2: Any, S2: Any) -> float:
    """``KL(Q‖P)`` for ``KL(P‖Q)`` (arguments swapped)."""
    return dv.kl_gaussian(mu2, S2, mu1, S1)


def rff_count_ignored(
    dim: int, num_features: int, *, sigma: float, omega_max: float | None = None, rng: Any
) -> dv.RandomFourierFeatures:
    """The number of features not passed on (the default ``D = 64`` always drawn)."""
    del num_features
    return dv.make_rff(dim, 64, sigma=sigma, omega_max=omega_max, rng=rng)


def estimate_heldout_on_fit_halves(*args: Any, **kwargs: Any) -> Any:
    """The held-out value evaluated on the fitting halves (the split made, then forgotten)."""
    est = dv.estimate_alpha_divergence(*args, **kwargs)
    return dv.DivergenceEstimate(
        value=est.value,
        value_heldout=est.value,
        alpha=est.alpha,
        features=est.features,
        fit=est.fit,
    )


def estimate_default_config(*args: Any, config: Any = None, **kwargs: Any) -> Any:
    """The caller's optimiser settings dropped (the default R = 3, mini-batch SGD)."""
    del config
    return dv.estimate_alpha_divergence(*args, **kwargs)


def estimate_few_iterations(*args: Any, config: Any = None, **kwargs: Any) -> Any:
    """T read as T / 100 (an epoch count for an iteration count)."""
    cfg = config if config is not None else dv.ArmijoConfig()
    short = dv.ArmijoConfig(
        radius=cfg.radius,
        max_iter=max(1, cfg.max_iter // 100),
        batch_size=cfg.batch_size,
    )
    return dv.estimate_alpha_divergence(*args, config=short, **kwargs)


def estimate_own_features(*args: Any, features: Any = None, **kwargs: Any) -> Any:
    """The given features ignored: fresh ones drawn (D = 8)."""
    del features
    return dv.estimate_alpha_divergence(*args, num_features=8, **kwargs)


def complementary_alpha(mu1: Any, S1: Any, mu2: Any, S2: Any, alpha: float, **kw: Any) -> float:
    """``D_{1-α}(P‖Q)``: ``Σ_α = αΣ_1 + (1-α)Σ_2`` (the weights of the pair swapped); equal to
    ``D_α`` when the covariances are equal or ``α = ½``."""
    return float(dv.alpha_divergence_gaussian(mu1, S1, mu2, S2, 1.0 - alpha, **kw))


def common_covariance_chernoff(
    mu1: Any, S1: Any, mu2: Any, S2: Any, alpha: float, **kw: Any
) -> float:
    """G2's same-covariance form ``-½α(1-α)Δμᵀ Σ_α⁻¹ Δμ`` used for any pair (determinants
    dropped)."""
    m1, m2 = np.asarray(mu1, dtype=np.float64), np.asarray(mu2, dtype=np.float64)
    s_alpha = alpha * np.asarray(S2, dtype=np.float64) + (1.0 - alpha) * np.asarray(S1)
    delta = m1 - m2
    return float(-0.5 * alpha * (1.0 - alpha) * delta @ np.linalg.solve(s_alpha, delta))


def _m(name: str, why: str, algorithm: str, target: str, *catches: str) -> ProofMutant:
    return ProofMutant(
        family="divergence",
        name=name,
        why=why,
        algorithm=f"reference.divergence:{algorithm}",
        target=f"{__name__}:{target}",
        catches=tuple(f"divergence.{c}" for c in catches),
    )


MUTANTS: tuple[ProofMutant, ...] = (
    _m(
        "f_alpha_conjugate: 1 - α",
        "conjugate at 1 - α",
        "f_alpha_conjugate",
        "swapped_conjugate",
        "v1_conjugate",
    ),
    _m(
        "alpha_divergence_gaussian: 1/α",
        "normaliser 1/α for 1/(α(1-α))",
        "alpha_divergence_gaussian",
        "alpha_only_normaliser",
        "v2_log_ratio",
        "g3_kl_limit",
    ),
    _m(
        "armijo_ascent: fixed step",
        "fixed step 0.005 instead of the line search",
        "armijo_ascent",
        "fixed_step_ascent",
        "v5_armijo_rate",
    ),
    _m(
        "profiled_value: 1/α",
        "normaliser 1/α for 1/(α(1-α))",
        "profiled_value",
        "alpha_normalised_profiled_value",
        "v3_profiled",
    ),
    _m(
        "alpha_objective_hessian: sign",
        "Hessian of -Ĵ",
        "alpha_objective_hessian",
        "flipped_hessian",
        "v4_curvature",
    ),
    _m(
        "make_rff: D ignored",
        "the number of features not passed on (64 always drawn)",
        "make_rff",
        "rff_count_ignored",
        "rff_rate",
    ),
    _m(
        "kl_gaussian: reversed",
        "KL(Q‖P) for KL(P‖Q)",
        "kl_gaussian",
        "reversed_kl",
        "g3_kl_limit",
        "g1_closed_form",
    ),
    _m(
        "alpha_divergence_gaussian: 1 - α",
        "Σ_α weights swapped (D_{1-α} returned)",
        "alpha_divergence_gaussian",
        "complementary_alpha",
        "g1_closed_form",
    ),
    _m(
        "chernoff_coefficient_gaussian: no determinants",
        "the same-covariance form G2 used for unequal covariances",
        "chernoff_coefficient_gaussian",
        "common_covariance_chernoff",
        "g1_closed_form",
    ),
    _m(
        "estimate: held-out = fit halves",
        "value_heldout evaluated on the fitting halves",
        "estimate_alpha_divergence",
        "estimate_heldout_on_fit_halves",
        "s3_estimator",
    ),
    _m(
        "estimate: config dropped",
        "the caller's ArmijoConfig ignored (R = 3, mini-batch)",
        "estimate_alpha_divergence",
        "estimate_default_config",
        "s3_estimator",
    ),
    _m(
        "estimate: T / 100",
        "a hundredth of the iterations (not converged)",
        "estimate_alpha_divergence",
        "estimate_few_iterations",
        "s3_estimator",
    ),
    _m(
        "estimate: features ignored",
        "the given features replaced by fresh ones",
        "estimate_alpha_divergence",
        "estimate_own_features",
        "s3_estimator",
    ),
)
