"""Local inconsistency, Inconsistency-Aware Minimization (IAM-D, IAM-S) and SAM/ASAM baselines.

The family's public API. The code lives in:

* :mod:`reference.inconsistency.iam` — Local inconsistency, Inconsistency-Aware Minimization (IAM-D, IAM-S) and SAM/ASAM baselines.

The torch fast path :mod:`reference.inconsistency.fast_torch` is not imported here.
"""

from __future__ import annotations

from reference.inconsistency.iam import (
    NORM_EPS,
    IAMConfig,
    IAMDEConfig,
    IAMDEStepResult,
    InconsistencyResult,
    ModelKind,
    SAMConfig,
    SGDConfig,
    SoftmaxModel,
    StepResult,
    asam,
    batch_kl,
    batch_kl_gradient,
    cross_entropy,
    cross_entropy_gradient,
    fisher_softmax,
    hessian_softmax,
    iam_d,
    iam_d_objective,
    iam_de,
    iam_de_step,
    iam_s,
    inconsistency_ascent,
    init_params,
    local_inconsistency,
    predict_proba,
    sam,
    sam_perturbation,
    sgd_step,
)

__all__ = [
    "NORM_EPS",
    "IAMConfig",
    "IAMDEConfig",
    "IAMDEStepResult",
    "InconsistencyResult",
    "ModelKind",
    "SAMConfig",
    "SGDConfig",
    "SoftmaxModel",
    "StepResult",
    "asam",
    "batch_kl",
    "batch_kl_gradient",
    "cross_entropy",
    "cross_entropy_gradient",
    "fisher_softmax",
    "hessian_softmax",
    "iam_d",
    "iam_d_objective",
    "iam_de",
    "iam_de_step",
    "iam_s",
    "inconsistency_ascent",
    "init_params",
    "local_inconsistency",
    "predict_proba",
    "sam",
    "sam_perturbation",
    "sgd_step",
]
