"""Mirror descent under generalized (l*) smoothness.

The family's public API. The code lives in:

* :mod:`reference.mirror_descent.composite` — Composite mirror descent under l*-smoothness (spec 06, algorithm 6 and Theorem 5.1).
* :mod:`reference.mirror_descent.methods` — Mirror descent under generalized (l*) smoothness.

The torch fast path :mod:`reference.mirror_descent.fast_torch` is not imported here.
"""

from __future__ import annotations

from reference.mirror_descent.composite import (
    CompositeResult,
    Regularizer,
    RegularizerKind,
    composite_mirror_descent,
    composite_prox_step,
)
from reference.mirror_descent.methods import (
    EffectiveConstants,
    MirrorDescentResult,
    MirrorName,
    NormName,
    RidgeProblem,
    SmoothnessFit,
    SmoothnessFunction,
    accelerated_mirror_descent,
    bregman_divergence,
    cosh_ridge,
    dual_maximizer,
    dual_norm,
    effective_constants,
    effective_g,
    entropic_step,
    fit_affine_smoothness,
    local_smoothness_estimates,
    mirror_descent,
    mirror_prox,
    optimistic_mirror_descent,
    primal_norm,
    prox_step,
    quartic_ridge,
    step_size_limit,
    stochastic_mirror_descent,
)

__all__ = [
    "CompositeResult",
    "EffectiveConstants",
    "MirrorDescentResult",
    "MirrorName",
    "NormName",
    "Regularizer",
    "RegularizerKind",
    "RidgeProblem",
    "SmoothnessFit",
    "SmoothnessFunction",
    "accelerated_mirror_descent",
    "bregman_divergence",
    "composite_mirror_descent",
    "composite_prox_step",
    "cosh_ridge",
    "dual_maximizer",
    "dual_norm",
    "effective_constants",
    "effective_g",
    "entropic_step",
    "fit_affine_smoothness",
    "local_smoothness_estimates",
    "mirror_descent",
    "mirror_prox",
    "optimistic_mirror_descent",
    "primal_norm",
    "prox_step",
    "quartic_ridge",
    "step_size_limit",
    "stochastic_mirror_descent",
]
