"""Mutant table of the inconsistency theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from reference._arrays import FloatArray
from reference.inconsistency import (
    batch_kl,
    batch_kl_gradient,
    cross_entropy_gradient,
    fisher_softmax,
    iam_de_step,
    inconsistency_ascent,
)
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def fisher_doubled(*args: Any, **kwargs: Any) -> FloatArray:
    """``2 F``: the Hessian of ``½ δᵀFδ`` reported as the Fisher (a factor ½ lost)."""
    out: FloatArray = 2.0 * fisher_softmax(*args, **kwargs)
    return out


def batch_kl_summed(model: Any, theta: Any, delta: Any, inputs: Any) -> float:
    """Sums over the examples instead of averaging ("sum" for "batchmean")."""
    return float(batch_kl(model, theta, delta, inputs) * np.shape(inputs)[0])


def ascent_twice_rho(*args: Any, rho: float, **kwargs: Any) -> Any:
    """Projects onto the sphere of radius ``2 rho`` (diameter for radius)."""
    return inconsistency_ascent(*args, rho=2.0 * rho, **kwargs)


def ascent_one_step(*args: Any, steps: int = 30, **kwargs: Any) -> Any:
    """One ascent step whatever ``K`` is (the loop runs once)."""
    return inconsistency_ascent(*args, steps=1, **kwargs)


def kl_gradient_wrong_sign(*args: Any, **kwargs: Any) -> FloatArray:
    """``∇_δ K`` with the sign of ``q - p`` reversed."""
    out: FloatArray = -batch_kl_gradient(*args, **kwargs)
    return out


def hessian_gauss_newton(model: Any, theta: Any, inputs: Any, targets: Any) -> FloatArray:
    """The Gauss-Newton matrix (the logits' second derivatives dropped)."""
    return fisher_softmax(model, theta, inputs)


def sam_unnormalised(theta: Any, gradient: Any, *, rho: float, **kwargs: Any) -> FloatArray:
    """``ε = ρ g`` (the normalisation by ``||g||`` forgotten)."""
    out: FloatArray = rho * np.asarray(gradient, dtype=np.float64)
    return out


def ce_gradient_halved(*args: Any, **kwargs: Any) -> FloatArray:
    """Half the gradient (a ``½`` from a squared loss carried over)."""
    out: FloatArray = 0.5 * cross_entropy_gradient(*args, **kwargs)
    return out


def iam_de_not_persistent(*args: Any, **kwargs: Any) -> Any:
    """Hands back the perturbation it was given as the next state (δ never updated)."""
    out = iam_de_step(*args, **kwargs)
    return dataclasses.replace(out, next_delta=np.asarray(args[5]).copy())


def _m(name: str, why: str, algorithm: str, target: str, catches: tuple[str, ...]) -> ProofMutant:
    return ProofMutant(
        family="inconsistency",
        name=name,
        why=why,
        algorithm=f"reference.inconsistency:{algorithm}",
        target=f"{__name__}:{target}",
        catches=catches,
    )


MUTANTS = (
    _m(
        "fisher: doubled",
        "a factor 1/2 lost",
        "fisher_softmax",
        "fisher_doubled",
        ("inconsistency.quadratic_expansion", "inconsistency.hessian_fisher"),
    ),
    _m(
        "batch_kl: summed",
        "sum over examples for the batch mean",
        "batch_kl",
        "batch_kl_summed",
        ("inconsistency.quadratic_expansion",),
    ),
    _m(
        "ascent: radius 2 rho",
        "diameter for radius in the projection",
        "inconsistency_ascent",
        "ascent_twice_rho",
        ("inconsistency.top_eigenvalue", "inconsistency.power_iteration"),
    ),
    _m(
        "ascent: one step",
        "the K power-iteration steps not looped",
        "inconsistency_ascent",
        "ascent_one_step",
        ("inconsistency.top_eigenvalue",),
    ),
    _m(
        "kl_gradient: sign",
        "q - p and p - q confused",
        "batch_kl_gradient",
        "kl_gradient_wrong_sign",
        ("inconsistency.power_iteration",),
    ),
    _m(
        "hessian: Gauss-Newton",
        "the logits' second derivatives dropped",
        "hessian_softmax",
        "hessian_gauss_newton",
        ("inconsistency.hessian_fisher",),
    ),
    _m(
        "sam: unnormalised",
        "eps = rho g",
        "sam_perturbation",
        "sam_unnormalised",
        ("inconsistency.sam_first_order",),
    ),
    _m(
        "ce_gradient: halved",
        "a 1/2 from the squared loss",
        "cross_entropy_gradient",
        "ce_gradient_halved",
        ("inconsistency.sam_first_order",),
    ),
    _m(
        "iam_de: delta not updated",
        "the persistent delta never replaced",
        "iam_de_step",
        "iam_de_not_persistent",
        ("inconsistency.iam_de_power_iteration",),
    ),
)
