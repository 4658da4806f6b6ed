"""Amari alpha-divergence: Gaussian closed forms and the RKHS-ball / random-Fourier-feature estimator.

The family's public API. The code lives in:

* :mod:`reference.divergence.estimators` — Amari alpha-divergence: Gaussian closed forms and the RKHS-ball / random-Fourier-feature estimator.

The torch fast path :mod:`reference.divergence.fast_torch` is not imported here.
"""

from __future__ import annotations

from reference.divergence.estimators import (
    ArmijoConfig,
    ArmijoResult,
    DivergenceEstimate,
    GramEstimate,
    GramFeatures,
    RandomFourierFeatures,
    alpha_divergence_gaussian,
    alpha_objective,
    alpha_objective_gradient,
    alpha_objective_hessian,
    alpha_to_amari,
    amari_to_alpha,
    armijo_ascent,
    chernoff_coefficient_gaussian,
    estimate_alpha_divergence,
    f_alpha,
    f_alpha_conjugate,
    gram_alpha_divergence,
    kl_gaussian,
    knn_alpha_divergence,
    make_gram_features,
    make_rff,
    median_heuristic,
    plugin_gaussian_alpha_divergence,
    profiled_value,
)

__all__ = [
    "ArmijoConfig",
    "ArmijoResult",
    "DivergenceEstimate",
    "GramEstimate",
    "GramFeatures",
    "RandomFourierFeatures",
    "alpha_divergence_gaussian",
    "alpha_objective",
    "alpha_objective_gradient",
    "alpha_objective_hessian",
    "alpha_to_amari",
    "amari_to_alpha",
    "armijo_ascent",
    "chernoff_coefficient_gaussian",
    "estimate_alpha_divergence",
    "f_alpha",
    "f_alpha_conjugate",
    "gram_alpha_divergence",
    "kl_gaussian",
    "knn_alpha_divergence",
    "make_gram_features",
    "make_rff",
    "median_heuristic",
    "plugin_gaussian_alpha_divergence",
    "profiled_value",
]
