"""Hand-made broken local-inconsistency, Fisher and SAM pieces: each suite must reject each one."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.special import log_softmax, softmax

from reference import inconsistency as inc
from reference._arrays import FloatArray

# ---- estimator mutants: (model, θ, X, ξ, *, rho, steps, noise_scale) -> (value, delta)


def _kl(model: inc.SoftmaxModel, theta: FloatArray, delta: FloatArray, x: FloatArray) -> float:
    return inc.batch_kl(model, theta, delta, x)


def est_unnormalised(
    model: inc.SoftmaxModel,
    theta: Any,
    inputs: Any,
    noise: Any,
    *,
    rho: float,
    steps: int,
    noise_scale: float,
) -> tuple[float, FloatArray]:
    """Ascent without normalisation: ``δ = ρ g`` (leaves the ρ-sphere)."""
    th = np.asarray(theta, dtype=np.float64)
    x = np.asarray(inputs, dtype=np.float64)
    delta = noise_scale * np.asarray(noise) / math.sqrt(model.n_params)
    for _ in range(steps):
        delta = rho * inc.batch_kl_gradient(model, th, delta, x)
    return _kl(model, th, delta, x), delta


def est_reverse_kl(
    model: inc.SoftmaxModel,
    theta: Any,
    inputs: Any,
    noise: Any,
    *,
    rho: float,
    steps: int,
    noise_scale: float,
) -> tuple[float, FloatArray]:
    """Reports ``KL(p_θ+δ || p_θ)`` (arguments swapped) at the right ``δ*``."""
    res = inc.inconsistency_ascent(
        model, theta, inputs, noise, rho=rho, steps=steps, noise_scale=noise_scale
    )
    th = np.asarray(theta, dtype=np.float64)
    x = np.asarray(inputs, dtype=np.float64)
    log_p = log_softmax(model.logits(th, x), axis=1)
    log_q = log_softmax(model.logits(th + res.delta, x), axis=1)
    return float(np.mean(np.sum(np.exp(log_q) * (log_q - log_p), axis=1))), np.array(res.delta)


def est_sum_not_mean(
    model: inc.SoftmaxModel,
    theta: Any,
    inputs: Any,
    noise: Any,
    *,
    rho: float,
    steps: int,
    noise_scale: float,
) -> tuple[float, FloatArray]:
    """Sums the KL over examples instead of averaging."""
    res = inc.inconsistency_ascent(
        model, theta, inputs, noise, rho=rho, steps=steps, noise_scale=noise_scale
    )
    return res.value * np.asarray(inputs).shape[0], np.array(res.delta)


def est_no_ascent(
    model: inc.SoftmaxModel,
    theta: Any,
    inputs: Any,
    noise: Any,
    *,
    rho: float,
    steps: int,
    noise_scale: float,
) -> tuple[float, FloatArray]:
    """Skips the ascent: the noise start rescaled to ρ (a random feasible δ)."""
    xi = np.asarray(noise, dtype=np.float64)
    delta = rho * xi / float(np.linalg.norm(xi))
    return _kl(model, np.asarray(theta, dtype=np.float64), delta, np.asarray(inputs)), delta


# ---- fisher mutants: (model, θ, X) -> F


def fisher_no_outer(model: inc.SoftmaxModel, theta: Any, inputs: Any) -> FloatArray:
    """Drops ``-p pᵀ``: ``(1/n) Σ J_iᵀ diag(p_i) J_i`` (not PSD-correct, no null direction)."""
    th = np.asarray(theta, dtype=np.float64)
    x = np.asarray(inputs, dtype=np.float64)
    p = softmax(model.logits(th, x), axis=1)
    jac = model.jacobian(th, x)
    out: FloatArray = np.einsum("icp,ic,icq->pq", jac, p, jac) / x.shape[0]
    return out


def fisher_sum(model: inc.SoftmaxModel, theta: Any, inputs: Any) -> FloatArray:
    """Sums over examples instead of averaging."""
    out: FloatArray = inc.fisher_softmax(model, theta, inputs) * np.asarray(inputs).shape[0]
    return out


def fisher_empirical(model: inc.SoftmaxModel, theta: Any, inputs: Any) -> FloatArray:
    """Empirical Fisher with argmax pseudo-labels: ``(1/n) Σ g_i g_iᵀ``, ``g_i = J_iᵀ(p_i - e_ŷ)``."""
    th = np.asarray(theta, dtype=np.float64)
    x = np.asarray(inputs, dtype=np.float64)
    p = softmax(model.logits(th, x), axis=1)
    onehot = np.eye(model.n_classes)[np.argmax(p, axis=1)]
    g = np.einsum("icp,ic->ip", model.jacobian(th, x), p - onehot)
    out: FloatArray = g.T @ g / x.shape[0]
    return out


# ---- SAM mutants: (θ, g, *, rho, adaptive, shift) -> ε


def sam_sign_flip(
    theta: Any, gradient: Any, *, rho: float, adaptive: bool, shift: float
) -> FloatArray:
    """Descends instead of ascending."""
    return -inc.sam_perturbation(theta, gradient, rho=rho, adaptive=adaptive, shift=shift)


def sam_unnormalised(
    theta: Any, gradient: Any, *, rho: float, adaptive: bool, shift: float
) -> FloatArray:
    """``ε = ρ g`` (no normalisation)."""
    out: FloatArray = rho * np.asarray(gradient, dtype=np.float64)
    return out


def asam_t_not_t2(
    theta: Any, gradient: Any, *, rho: float, adaptive: bool, shift: float
) -> FloatArray:
    """ASAM with ``T g`` in the numerator instead of ``T² g``."""
    if not adaptive:
        return inc.sam_perturbation(theta, gradient, rho=rho)
    g = np.asarray(gradient, dtype=np.float64)
    t = np.abs(np.asarray(theta, dtype=np.float64)) + shift
    out: FloatArray = rho * t * g / (float(np.linalg.norm(t * g)) + 1e-12)
    return out


def asam_repo_variant(
    theta: Any, gradient: Any, *, rho: float, adaptive: bool, shift: float
) -> FloatArray:
    """The repository's ``SAM(adaptive=True)``: ``η = 0`` regardless of the argument."""
    return inc.sam_perturbation(theta, gradient, rho=rho, adaptive=adaptive, shift=0.0)


def est_first_half(
    model: inc.SoftmaxModel,
    theta: Any,
    inputs: Any,
    noise: Any,
    *,
    rho: float,
    steps: int,
    noise_scale: float,
) -> tuple[float, FloatArray]:
    """Uses only the first half of the batch (order dependent)."""
    x = np.asarray(inputs, dtype=np.float64)
    res = inc.inconsistency_ascent(
        model,
        theta,
        x[: (x.shape[0] + 1) // 2],
        noise,
        rho=rho,
        steps=steps,
        noise_scale=noise_scale,
    )
    return res.value, np.array(res.delta)


def est_one_vs_rest(
    model: inc.SoftmaxModel,
    theta: Any,
    inputs: Any,
    noise: Any,
    *,
    rho: float,
    steps: int,
    noise_scale: float,
) -> tuple[float, FloatArray]:
    """Per-class Bernoulli KL of sigmoid(z) (not invariant to a common logit shift)."""
    res = inc.inconsistency_ascent(
        model, theta, inputs, noise, rho=rho, steps=steps, noise_scale=noise_scale
    )
    th = np.asarray(theta, dtype=np.float64)
    x = np.asarray(inputs, dtype=np.float64)
    p = 1.0 / (1.0 + np.exp(-model.logits(th, x)))
    q = 1.0 / (1.0 + np.exp(-model.logits(th + res.delta, x)))
    kl = p * np.log(p / q) + (1.0 - p) * np.log((1.0 - p) / (1.0 - q))
    return float(np.mean(np.sum(kl, axis=1))), np.array(res.delta)


def fisher_double_outer(model: inc.SoftmaxModel, theta: Any, inputs: Any) -> FloatArray:
    """``J_iᵀ (diag p - 2 p pᵀ) J_i``: a sign/factor slip that breaks positive semi-definiteness."""
    th = np.asarray(theta, dtype=np.float64)
    x = np.asarray(inputs, dtype=np.float64)
    p = softmax(model.logits(th, x), axis=1)
    jac = model.jacobian(th, x)
    cov = np.einsum("ic,cd->icd", p, np.eye(model.n_classes)) - 2.0 * np.einsum("ic,id->icd", p, p)
    out: FloatArray = np.einsum("icp,icd,idq->pq", jac, cov, jac) / x.shape[0]
    return out


def sam_default_radius(
    theta: Any, gradient: Any, *, rho: float, adaptive: bool, shift: float
) -> FloatArray:
    """``rho = rho or 0.05``: the Python idiom that turns ρ = 0 into the default radius."""
    return inc.sam_perturbation(theta, gradient, rho=rho or 0.05, adaptive=adaptive, shift=shift)


# ---- iam_de mutants: (model, θ, X, y, X_u, δ, *, sign, config, optimizer) -> (θ', δ')


def _de(
    model: inc.SoftmaxModel,
    theta: Any,
    inputs: Any,
    targets: Any,
    unlabeled: Any,
    delta: Any,
    sign: int,
    config: inc.IAMDEConfig,
    optimizer: inc.SGDConfig,
    mode: str,
) -> tuple[FloatArray, FloatArray]:
    th = np.asarray(theta, dtype=np.float64)
    used = np.asarray(delta, dtype=np.float64) * (1 if mode == "no_sign" else sign)
    beta = 1.0 if mode == "beta_ignored" else config.beta
    _, total = inc.iam_d_objective(model, th, inputs, targets, unlabeled, used, beta=beta)
    if mode == "detached":  # p_θ detached: only the perturbed branch carries θ
        total = inc.cross_entropy_gradient(model, th, inputs, targets) + beta * (
            inc.batch_kl_gradient(model, th, used, unlabeled)
        )
    g = beta * sign * inc.batch_kl_gradient(model, th, used, unlabeled)
    if mode == "theta_direction":
        g = total
    size = float(np.linalg.norm(g))
    nxt = config.rho * g if mode == "unnormalised" or size == 0.0 else config.rho * g / size
    new, _ = inc.sgd_step(th, total, None, config=optimizer)
    return new, nxt


def _de_mutant(mode: str, doc: str) -> Callable[..., tuple[FloatArray, FloatArray]]:
    """One IAM-DE step mutant (signature of ``inc.iam_de_step``) breaking ``mode``."""

    def mutant(
        model: inc.SoftmaxModel,
        theta: Any,
        inputs: Any,
        targets: Any,
        unlabeled: Any,
        delta: Any,
        *,
        sign: int,
        config: inc.IAMDEConfig,
        optimizer: inc.SGDConfig,
    ) -> tuple[FloatArray, FloatArray]:
        return _de(model, theta, inputs, targets, unlabeled, delta, sign, config, optimizer, mode)

    mutant.__name__ = mutant.__qualname__ = f"de_{mode}"
    mutant.__doc__ = doc
    return mutant


de_no_sign = _de_mutant("no_sign", "Forgets the random sign: always perturbs at ``θ + δ``.")
de_unnormalised = _de_mutant("unnormalised", "``δ' = ρ ∇_δ`` without the normalisation.")
de_detached = _de_mutant(
    "detached", "Detaches ``p_θ`` in the KL: the gradient flows through the perturbed branch only."
)
de_theta_direction = _de_mutant(
    "theta_direction",
    "Next ``δ`` from the θ-gradient of the total loss (labels leak in, not a power step).",
)
de_beta_ignored = _de_mutant("beta_ignored", "Uses ``β = 1`` whatever the configuration.")
