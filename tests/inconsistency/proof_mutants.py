"""Mutant table of the inconsistency theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from reference import inconsistency as inc
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


# ------------------------------------------------------------------ issue 36: audit mutants
def iam_d_beta_ignored(*args: Any, config: Any, **kwargs: Any) -> Any:
    """IAM-D that forgets ``config.beta`` (weight 1 on the inconsistency term)."""
    return inc.iam_d(*args, config=dataclasses.replace(config, beta=1.0), **kwargs)


def iam_d_no_weight_decay(*args: Any, optimizer: Any, **kwargs: Any) -> Any:
    """IAM-D whose base step drops the weight decay."""
    return inc.iam_d(*args, optimizer=dataclasses.replace(optimizer, weight_decay=0.0), **kwargs)


def objective_one_branch(
    model: Any, theta: Any, inputs: Any, targets: Any, unlabeled: Any, delta: Any, *, beta: float
) -> Any:
    """IAM-D objective whose gradient treats ``p_θ`` as a constant (θ in one KL branch only)."""
    th, xu, dl = (np.asarray(a, dtype=np.float64) for a in (theta, unlabeled, delta))
    total, _ = inc.iam_d_objective(model, th, inputs, targets, xu, dl, beta=beta)
    p = inc.predict_proba(model, th, xu)
    q = inc.predict_proba(model, th + dl, xu)
    one_branch = np.einsum("icp,ic->p", model.jacobian(th + dl, xu), q - p) / xu.shape[0]
    grad = inc.cross_entropy_gradient(model, th, inputs, targets) + beta * one_branch
    return total, grad


def sgd_dampened(theta: Any, gradient: Any, buffer: Any = None, *, config: Any) -> Any:
    """Momentum as an average, ``b <- μ b + (1 - μ)(g + λθ)`` (not PyTorch's sum)."""
    th, g = np.asarray(theta, dtype=np.float64), np.asarray(gradient, dtype=np.float64)
    b = np.zeros_like(th) if buffer is None else np.asarray(buffer, dtype=np.float64)
    b = config.momentum * b + (1.0 - config.momentum) * (g + config.weight_decay * th)
    return th - config.learning_rate * b, b


def local_inconsistency_one_step(*args: Any, steps: int = 1, **kwargs: Any) -> Any:
    """``local_inconsistency`` that ignores ``steps`` (always one ascent step)."""
    del steps
    return inc.local_inconsistency(*args, steps=1, **kwargs)


def local_inconsistency_uniform_noise(
    model: Any, theta: Any, inputs: Any, *, rng: np.random.Generator, **kwargs: Any
) -> Any:
    """``local_inconsistency`` starting from ``ξ ~ U[0, 1)^P`` (a one-signed start)."""
    xi = rng.uniform(size=np.asarray(theta).size)
    return inc.inconsistency_ascent(model, theta, inputs, xi, **kwargs)


def iam_s_gradient_at_theta(*args: Any, **kwargs: Any) -> Any:
    """IAM-S taking the gradient at ``θ`` (the perturbation computed but not applied)."""
    res = inc.iam_s(*args, **kwargs)
    config = kwargs["config"]
    plain = inc.iam_s(*args, **{**kwargs, "config": dataclasses.replace(config, rho=0.0)})
    return dataclasses.replace(plain, delta=res.delta, inconsistency=res.inconsistency)


def iam_s_descent_side(model: Any, theta: Any, inputs: Any, targets: Any, **kwargs: Any) -> Any:
    """IAM-S evaluating the gradient at ``θ - δ*`` (the ascent direction's sign flipped)."""
    res = inc.iam_s(model, theta, inputs, targets, **kwargs)
    th = np.asarray(theta, dtype=np.float64)
    grad = np.asarray(
        inc.cross_entropy_gradient(model, th - np.asarray(res.delta), inputs, targets)
    )
    config = kwargs["optimizer"]
    buf = kwargs.get("buffer")
    b = np.zeros_like(th) if buf is None else np.asarray(buf, dtype=np.float64)
    new_buf = config.momentum * b + grad + config.weight_decay * th
    return dataclasses.replace(
        res, gradient=grad, buffer=new_buf, theta=th - config.learning_rate * new_buf
    )


def iam_de_stateless(*args: Any, delta: Any = None, **kwargs: Any) -> Any:
    """IAM-DE that drops the passed state and re-draws the noise start on every call."""
    del delta
    return inc.iam_de(*args, delta=None, **kwargs)


def clamped_batch_kl(model: Any, theta: Any, delta: Any, inputs: Any) -> float:
    """``K_X`` from probabilities clamped at 1e-6 before the logs (the official code's variant,
    which the reference documents it does not follow)."""

    def probs(params: Any) -> FloatArray:
        z = np.asarray(model.logits(np.asarray(params, dtype=np.float64), inputs))
        e = np.exp(z - np.max(z, axis=1, keepdims=True))
        out: FloatArray = np.clip(e / np.sum(e, axis=1, keepdims=True), 1e-6, 1.0)
        return out

    p = probs(theta)
    q = probs(np.asarray(theta, dtype=np.float64) + np.asarray(delta, dtype=np.float64))
    return float(np.mean(np.sum(p * (np.log(p) - np.log(q)), axis=1)))


def unshifted_kl_gradient(model: Any, theta: Any, delta: Any, inputs: Any) -> FloatArray:
    """``Jᵀ(q − p)`` with ``softmax(z) = exp(z)/Σexp(z)`` unshifted (overflows past logit 709)."""
    th = np.asarray(theta, dtype=np.float64)
    shifted = th + np.asarray(delta, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        ep = np.exp(np.asarray(model.logits(th, inputs)))
        eq = np.exp(np.asarray(model.logits(shifted, inputs)))
        p = ep / np.sum(ep, axis=1, keepdims=True)
        q = eq / np.sum(eq, axis=1, keepdims=True)
    jac = np.asarray(model.jacobian(shifted, inputs))
    out: FloatArray = np.einsum("icp,ic->p", jac, q - p) / np.asarray(inputs).shape[0]
    return out


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
        "batch_kl: clamped",
        "probabilities clamped at 1e-6 before the logs",
        "batch_kl",
        "clamped_batch_kl",
        ("inconsistency.batch_kl_saturated",),
    ),
    _m(
        "batch_kl_gradient: unshifted softmax",
        "softmax without the max shift (inf/inf past logit 709)",
        "batch_kl_gradient",
        "unshifted_kl_gradient",
        ("inconsistency.batch_kl_saturated",),
    ),
    _m(
        "iam_de: state dropped",
        "the persistent δ ignored (a fresh noise start every step: no power iteration)",
        "iam_de",
        "iam_de_stateless",
        ("inconsistency.iam_de_chain",),
    ),
    _m(
        "iam_s: gradient at θ",
        "the perturbation computed but the gradient taken at the unperturbed θ",
        "iam_s",
        "iam_s_gradient_at_theta",
        ("inconsistency.iam_s_step",),
    ),
    _m(
        "iam_s: θ - δ*",
        "the gradient taken on the descent side of the perturbation",
        "iam_s",
        "iam_s_descent_side",
        ("inconsistency.iam_s_step",),
    ),
    _m(
        "local_inconsistency: steps ignored",
        "one ascent step whatever K",
        "local_inconsistency",
        "local_inconsistency_one_step",
        ("inconsistency.local_inconsistency",),
    ),
    _m(
        "local_inconsistency: uniform noise",
        "the start drawn from U[0, 1) instead of N(0, 1)",
        "local_inconsistency",
        "local_inconsistency_uniform_noise",
        ("inconsistency.local_inconsistency",),
    ),
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
    # issue 36 audit: IAM-D and the base step had no check (0 of 4 caught before, 4 after)
    _m(
        "iam_d: beta ignored",
        "the weight of the inconsistency term forgotten",
        "iam_d",
        "iam_d_beta_ignored",
        ("inconsistency.iam_d_step",),
    ),
    _m(
        "iam_d: no weight decay",
        "the base step's weight decay dropped",
        "iam_d",
        "iam_d_no_weight_decay",
        ("inconsistency.iam_d_step",),
    ),
    _m(
        "iam_d_objective: one KL branch",
        "p_theta treated as a constant in the gradient",
        "iam_d_objective",
        "objective_one_branch",
        ("inconsistency.iam_d_step",),
    ),
    _m(
        "sgd_step: dampened momentum",
        "a wrong average: (1 - mu) on the gradient",
        "sgd_step",
        "sgd_dampened",
        ("inconsistency.iam_d_step",),
    ),
)
