"""Local inconsistency and IAM (spec 09): the checkable identities T1–T7.

Theorem checks (each a :class:`~proofs_numeric.BoundCheck` from a real computation):

* :func:`quadratic_expansion` (T1) — ``|K - ½δᵀFδ| / (½δᵀFδ) <= 10 ε``;
  :func:`quadratic_expansion_slope` — fitted slope of ``log|K - ½δᵀFδ|`` vs ``log ε`` is 3 ± 0.3
  (on ``ε = 0.025 / 2^k``, see its docstring);
* :func:`top_eigenvalue` (T2) — A1 with ``K = 30`` gives ``Ŝ ≈ (ρ²/2) λ_max(F)`` within 5%;
  :func:`top_eigenvector` — ``|cos(δ*, v_max)| >= 0.999`` when ``λ1/λ2 >= 1.5``;
* :func:`hessian_equals_fisher` (T3) — M1: ``H = F`` for any labels, against central finite
  differences of the loss gradient (``max|H - F| <= 1e-6``);
* :func:`gauss_newton_bridge` (T4) — M2: the soft-target (``t = p_θ``) Hessian equals ``F``
  (finite differences, ``1e-6``);
* :func:`power_iteration_step` (T5) — ``cos(∇_δK(θ, δ0), F δ0) >= 1 - 1e-4`` at ``||δ0|| = 1e-4``;
* :func:`lower_bound` (T6) — random feasible ``δ`` never beat ``Ŝ_{K=30}`` (small ρ);
* :func:`sam_first_order` (T7) — ``(L(θ + ε) - L(θ)) / (ρ ||g||) -> 1`` (``|ratio - 1| <= 5ρ·c``);
* :func:`iam_de_top_eigenvector` (T2/T5 for IAM-DE) — with ``θ`` frozen, the persistent, randomly
  signed ``δ`` of IAM-DE is a power iteration across steps: ``|cos(δ_K, v_max)| >= 0.999`` after
  ``K = 30`` steps when ``λ1/λ2 >= 1.5``.
* :func:`batch_kl_saturated` — ``K_X`` and ``∇_δK_X`` on saturated softmax/sigmoid models (logits up
  to about 1000) against the KL computed with 50 digits.

Models: (M1) multinomial logistic regression, (M2) tanh MLP with ``d = 5``, ``h = 8``,
``C = 4``, ``n = 30`` inputs ``~ N(0, I)`` (spec 09 section 4), float64.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import mpmath  # type: ignore[import-untyped]  # sympy's dependency
import numpy as np

from proofs_numeric._registry import ProveProfile, allowance, impl, register, worst
from proofs_numeric._result import BoundCheck
from reference._arrays import FloatArray
from reference.inconsistency import (
    IAMConfig,
    IAMDEConfig,
    SGDConfig,
    SoftmaxModel,
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
    sam_perturbation,
    sgd_step,
)

__all__ = [
    "KL_ATOL",
    "KL_RTOL",
    "PAPER",
    "SATURATION_SCALES",
    "batch_kl_saturated",
    "fd_hessian",
    "gauss_newton_bridge",
    "hessian_equals_fisher",
    "iam_d_step",
    "iam_de_chain",
    "iam_de_top_eigenvector",
    "iam_s_step",
    "instance",
    "local_top_eigenvalue",
    "lower_bound",
    "power_iteration_step",
    "quadratic_expansion",
    "quadratic_expansion_slope",
    "sam_first_order",
    "top_eigenvalue",
    "top_eigenvector",
]

PAPER = "Kim, Kim, Lee, Inconsistency-Aware Minimization (ICML 2026)"
Instance = tuple[SoftmaxModel, FloatArray, FloatArray, FloatArray]


def instance(kind: str, rng: np.random.Generator, *, n: int = 30) -> Instance:
    """Spec 09 reference instance: M1 (``d = 5``, ``C = 4``) or M2 (``h = 8``), ``n`` inputs."""
    model = SoftmaxModel(kind="mlp" if kind == "mlp" else "linear", n_inputs=5, n_classes=4)
    theta = init_params(model, rng=rng, scale=0.5)
    inputs = rng.standard_normal((n, 5))
    labels = rng.integers(0, 4, size=n).astype(np.float64)
    return model, theta, inputs, labels


def _kl(model: SoftmaxModel, theta: FloatArray, delta: object, inputs: FloatArray) -> float:
    """``K_X(θ, δ) = mean_i KL(p_θ(x_i) || p_{θ+δ}(x_i))`` from the model's logits, computed here
    (max-shifted log-softmax; ``inf`` for a ``δ`` of the wrong shape or not finite)."""
    d = np.asarray(delta, dtype=np.float64)
    if d.shape != theta.shape or not np.all(np.isfinite(d)):
        return float("inf")

    def log_softmax(z: FloatArray) -> FloatArray:
        shifted = z - np.max(z, axis=1, keepdims=True)
        out: FloatArray = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
        return out

    log_p = log_softmax(np.asarray(model.logits(theta, inputs)))
    log_q = log_softmax(np.asarray(model.logits(theta + d, inputs)))
    return float(np.mean(np.sum(np.exp(log_p) * (log_p - log_q), axis=1)))


def _fisher(model: SoftmaxModel, theta: FloatArray, inputs: FloatArray) -> FloatArray:
    """``F = (1/n) Σ_i J_iᵀ (diag p_i - p_i p_iᵀ) J_i`` from the model's logits and Jacobian,
    summed example by example here (the oracle for eigenvalues and eigenvectors)."""
    logits = np.asarray(model.logits(theta, inputs))
    jac = np.asarray(model.jacobian(theta, inputs))
    total = np.zeros((theta.size, theta.size))
    for z, j in zip(logits, jac, strict=True):
        e = np.exp(z - np.max(z))
        p = e / np.sum(e)
        total += j.T @ (np.diag(p) - np.outer(p, p)) @ j
    out: FloatArray = total / inputs.shape[0]
    return out


def quadratic_expansion(
    model: SoftmaxModel, theta: FloatArray, inputs: FloatArray, direction: FloatArray, eps: float
) -> BoundCheck:
    """T1 at one scale: ``|K_X(θ, εu) - ½ε² uᵀFu| / (½ε² uᵀFu) <= 10 ε`` (``u`` unit)."""
    u = direction / float(np.linalg.norm(direction))
    fisher = impl(fisher_softmax)(model, theta, inputs)
    quad = 0.5 * eps**2 * float(u @ fisher @ u)
    kl = impl(batch_kl)(model, theta, eps * u, inputs)
    return BoundCheck(
        claim="|K_X(θ, δ) - ½δᵀFδ| / (½δᵀFδ) <= 10 ||δ||",
        paper=PAPER,
        theorem="T1 (quadratic expansion; statement ours, Kim, Kim, Lee, ICML 2026)",
        measured=abs(kl - quad) / quad,
        bound=10.0 * eps,
        sense="<=",
        params={"kind": model.kind, "eps": eps, "P": model.n_params},
    )


def _slope(xs: FloatArray, ys: FloatArray) -> float:
    return float(np.polyfit(np.log(xs), np.log(ys), 1)[0])


#: Spec 09's fitting grid for the T1 rate check, ``0.2 / 2^k``, ``k = 0..5``.
SPEC_SLOPE_GRID: FloatArray = np.asarray(0.2 / 2.0 ** np.arange(6), dtype=np.float64)
#: The grid the check asserts on: the same six octaves shifted down by three (``0.025 .. 7.8e-4``).
SLOPE_GRID: FloatArray = np.asarray(0.025 / 2.0 ** np.arange(6), dtype=np.float64)


def _remainders(
    model: SoftmaxModel, theta: FloatArray, inputs: FloatArray, u: FloatArray, eps: FloatArray
) -> FloatArray:
    fisher = impl(fisher_softmax)(model, theta, inputs)
    quad = float(u @ fisher @ u)
    kl = impl(batch_kl)
    return np.array([abs(kl(model, theta, e * u, inputs) - 0.5 * e**2 * quad) for e in eps])


def quadratic_expansion_slope(
    model: SoftmaxModel, theta: FloatArray, inputs: FloatArray, direction: FloatArray
) -> BoundCheck:
    """T1 rate: slope of ``log|K - ½δᵀFδ|`` vs ``log ε`` must equal 3 within 0.3.

    Variant (ours): the slope is fitted on ``ε = 0.025 / 2^k`` (``k = 0..5``), three octaves below
    the spec's grid ``0.2 / 2^k`` (spec 09 measured 2.99 there on its instance).  T1 is an
    asymptotic statement (``K - ½δᵀFδ = c₃ε³ + c₄ε⁴ + ...``); when ``c₃`` is small along ``u``
    the quartic term still matters at ``ε = 0.2``: the full profile (seed 20260) drew a linear
    model with ``rem/ε³ = 1.15e-4`` at ``ε = 0.2`` against its limit ``1.17e-3``, giving a
    spec-grid slope 2.45 although the remainder is cubic.  The spec-grid slope is kept in
    ``params["spec_grid_slope"]`` as a diagnostic.  A wrong ``F`` (any ``O(ε²)`` error) still
    gives slope 2 on the shifted grid, so the check keeps its teeth (see the tests).
    """
    u = direction / float(np.linalg.norm(direction))
    errors = _remainders(model, theta, inputs, u, SLOPE_GRID)
    spec_errors = _remainders(model, theta, inputs, u, SPEC_SLOPE_GRID)
    return BoundCheck(
        claim="fitted slope of log|K - ½δᵀFδ| against log ε equals 3",
        paper=PAPER,
        theorem="T1 rate check (third-order remainder)",
        measured=_slope(SLOPE_GRID, errors),
        bound=3.0,
        sense="==",
        atol=0.3,
        params={"kind": model.kind, "spec_grid_slope": _slope(SPEC_SLOPE_GRID, spec_errors)},
        series={"|K - quad| vs eps": (tuple(SLOPE_GRID.tolist()), tuple(errors.tolist()))},
    )


def top_eigenvalue(
    model: SoftmaxModel,
    theta: FloatArray,
    inputs: FloatArray,
    noise: FloatArray,
    *,
    rho: float = 0.05,
    steps: int = 30,
) -> BoundCheck:
    """T2: ``Ŝ`` (A1, ``K = 30``, ``σ_n = 1e-3``) equals ``(ρ²/2) λ_max(F)`` within 5% relative.

    ``Ŝ`` is recomputed as ``K_X(θ, δ*)`` from the returned ``δ*`` (not the result's ``value``),
    and ``δ*`` must be feasible: a ``δ*`` longer than ``ρ (1 + 1e-9)`` counts as ``inf`` (``1e-9``
    or the declared ``prove --precision/--tolerance`` allowance, :func:`allowance`).
    """
    lam = float(np.linalg.eigvalsh(_fisher(model, theta, inputs))[-1])
    est = impl(inconsistency_ascent)(model, theta, inputs, noise, rho=rho, steps=steps)
    value = _kl(model, theta, est.delta, inputs)
    if not float(np.linalg.norm(np.asarray(est.delta))) <= rho * (1.0 + allowance(1e-9)):
        value = float("inf")
    return BoundCheck(
        claim="Ŝ_ρ (A1, K = 30) = (ρ²/2) λ_max(F) + O(ρ³)",
        paper=PAPER,
        theorem="T2 (local inconsistency ≈ top Fisher eigenvalue) [paper: connects to Fisher]",
        measured=value,
        bound=0.5 * rho**2 * lam,
        sense="==",
        rtol=0.05,
        params={"kind": model.kind, "rho": rho, "K": steps, "lambda_max": lam},
    )


def top_eigenvector(
    model: SoftmaxModel, theta: FloatArray, inputs: FloatArray, noise: FloatArray
) -> BoundCheck | None:
    """T2 angle: ``|cos(δ*, v_max)| >= 0.999`` when ``λ1/λ2 >= 1.5`` (``None`` otherwise)."""
    values, vectors = np.linalg.eigh(_fisher(model, theta, inputs))
    if values[-1] < 1.5 * values[-2]:
        return None
    est = impl(inconsistency_ascent)(model, theta, inputs, noise, rho=0.05, steps=30)
    cos = abs(float(est.delta @ vectors[:, -1])) / float(np.linalg.norm(est.delta))
    return BoundCheck(
        claim="|cos(δ*, v_max(F))| >= 0.999 (power iteration converges)",
        paper=PAPER,
        theorem="T2 angle check (eigen-gap λ1/λ2 >= 1.5)",
        measured=cos,
        bound=0.999,
        sense=">=",
        params={"kind": model.kind, "gap": float(values[-1] / values[-2])},
    )


DEStep = Callable[..., Any]


def iam_de_top_eigenvector(
    model: SoftmaxModel,
    theta: FloatArray,
    inputs: FloatArray,
    rng: np.random.Generator,
    *,
    steps: int = 30,
    rho: float = 0.05,
    step: DEStep | None = None,
) -> BoundCheck | None:
    """IAM-DE's state with ``θ`` frozen: ``δ_{k+1} = ρ s_k ∇K(θ, s_k δ_k) / ||·||`` (random signs
    ``s_k``, ``δ_0 = 0.1 ξ / sqrt(P)``) is a power iteration on the Fisher of ``X_u = inputs``;
    after ``K`` steps ``|cos(δ_K, v_max)| >= 0.999`` when ``λ1/λ2 >= 1.5`` (``None`` otherwise).

    Args:
        model: the model.
        theta: ``(P,)`` frozen parameters (the ``θ'`` of each step is discarded).
        inputs: ``(n, d)`` the unlabeled batch ``X_u``.
        rng: signs and the start.
        steps: ``K``.
        rho: ``ρ``.
        step: the IAM-DE step under test (signature of
            :func:`reference.inconsistency.iam_de_step`; a result with ``.next_delta``).

    Returns:
        A ``>=`` check, or ``None`` when the eigen-gap is below 1.5.
    """
    values, vectors = np.linalg.eigh(_fisher(model, theta, inputs))
    if values[-1] < 1.5 * values[-2]:
        return None
    run = impl(iam_de_step) if step is None else step
    config = IAMDEConfig(rho=rho, beta=1.0)
    labels = np.zeros(inputs.shape[0], dtype=np.int64)  # labels never enter δ
    delta = 0.1 * rng.standard_normal(model.n_params) / np.sqrt(model.n_params)
    for _ in range(steps):
        sign = -1 if int(rng.integers(0, 2)) == 0 else 1
        out = run(
            model,
            theta,
            inputs,
            labels,
            inputs,
            delta,
            sign=sign,
            config=config,
            optimizer=SGDConfig(learning_rate=1e-3),
        )
        delta = np.asarray(out.next_delta)
    cos = abs(float(delta @ vectors[:, -1])) / float(np.linalg.norm(delta))
    return BoundCheck(
        claim="|cos(δ_K, v_max(F))| >= 0.999 for IAM-DE's persistent δ (θ frozen)",
        paper=PAPER,
        theorem="A2 IAM-DE [code] + T2/T5: cross-step power iteration (eigen-gap >= 1.5)",
        measured=cos,
        bound=0.999,
        sense=">=",
        params={"kind": model.kind, "K": steps, "rho": rho, "gap": float(values[-1] / values[-2])},
    )


def fd_hessian(
    model: SoftmaxModel, theta: FloatArray, inputs: FloatArray, targets: object
) -> FloatArray:
    """Central finite differences (h = 1e-4) of the cross-entropy gradient: an independent oracle."""
    h = 1e-4
    cols = []
    for e in np.eye(theta.size):
        plus = cross_entropy_gradient(model, theta + h * e, inputs, targets)
        minus = cross_entropy_gradient(model, theta - h * e, inputs, targets)
        cols.append((plus - minus) / (2.0 * h))
    out: FloatArray = 0.5 * (np.array(cols) + np.array(cols).T)
    return out


def hessian_equals_fisher(
    model: SoftmaxModel, theta: FloatArray, inputs: FloatArray, labels: FloatArray
) -> BoundCheck:
    """T3 (M1): ``max|H_fd - F| <= 1e-6`` for arbitrary labels (``∇²z = 0``)."""
    targets = labels.astype(np.int64)
    diff = fd_hessian(model, theta, inputs, targets) - impl(fisher_softmax)(model, theta, inputs)
    return BoundCheck(
        claim="linear logits: cross-entropy Hessian (finite differences) = Fisher, any labels",
        paper=PAPER,
        theorem="T3 (Fisher = Hessian for softmax regression) [ours, standard]",
        measured=float(np.max(np.abs(diff))),
        bound=1e-6,
        sense="<=",
        params={"kind": model.kind, "P": model.n_params},
    )


def gauss_newton_bridge(
    model: SoftmaxModel, theta: FloatArray, inputs: FloatArray, labels: FloatArray
) -> BoundCheck:
    """T4 (M2): the Hessian with soft targets ``t = p_θ`` (frozen) equals ``F`` (FD, 1e-6); the
    closed-form hard-label Hessian matches finite differences to 1e-5 relative (also measured)."""
    soft = predict_proba(model, theta, inputs)
    fisher = impl(fisher_softmax)(model, theta, inputs)
    soft_err = float(np.max(np.abs(fd_hessian(model, theta, inputs, soft) - fisher)))
    hard = labels.astype(np.int64)
    h_fd = fd_hessian(model, theta, inputs, hard)
    h_cf = impl(hessian_softmax)(model, theta, inputs, hard)
    rel = float(np.max(np.abs(h_fd - h_cf))) / float(np.max(np.abs(h_fd)))
    return BoundCheck(
        claim="E_{y~p}[H] = F: Hessian of the soft-target loss (t = p_θ) equals the Fisher",
        paper=PAPER,
        theorem="T4 (Gauss–Newton bridge, nonlinear model) [ours, standard]",
        measured=max(soft_err, rel / 10.0),
        bound=1e-6,
        sense="<=",
        params={"kind": model.kind, "soft_target_error": soft_err, "closed_form_rel_error": rel},
    )


def power_iteration_step(
    model: SoftmaxModel, theta: FloatArray, inputs: FloatArray, noise: FloatArray
) -> BoundCheck:
    """T5: at ``||δ0|| = 1e-4``, ``cos(∇_δ K_X(θ, δ0), F δ0) >= 1 - 1e-4``."""
    delta0 = 1e-4 * noise / float(np.linalg.norm(noise))
    g = impl(batch_kl_gradient)(model, theta, delta0, inputs)
    fd = impl(fisher_softmax)(model, theta, inputs) @ delta0
    cos = float(g @ fd) / (float(np.linalg.norm(g)) * float(np.linalg.norm(fd)))
    return BoundCheck(
        claim="one normalised ascent step is one power-iteration step on F",
        paper=PAPER,
        theorem="T5 (∇_δ K = Fδ + O(||δ||²))",
        measured=cos,
        bound=1.0 - 1e-4,
        sense=">=",
        params={"kind": model.kind},
    )


def lower_bound(
    model: SoftmaxModel,
    theta: FloatArray,
    inputs: FloatArray,
    rng: np.random.Generator,
    *,
    rho: float = 0.01,
    draws: int = 200,
) -> BoundCheck:
    """T6: ``max`` over random feasible ``δ`` (``||δ|| = ρ``) of ``K_X(θ, δ) <= Ŝ_{K=30} + 1e-9``.

    ``Ŝ = K_X(θ, δ*)`` is recomputed from the returned ``δ*``; an infeasible ``δ*``
    (``||δ*|| > ρ (1 + 1e-9)``) gives ``Ŝ = -inf`` (it is no lower bound on ``S_ρ``).
    """
    est = impl(inconsistency_ascent)(
        model, theta, inputs, rng.standard_normal(model.n_params), rho=rho, steps=30
    )
    s_hat = _kl(model, theta, est.delta, inputs)
    if not float(np.linalg.norm(np.asarray(est.delta))) <= rho * (1.0 + allowance(1e-9)):
        s_hat = -float("inf")
    best = 0.0
    for _ in range(draws):
        d = rng.standard_normal(model.n_params)
        best = max(best, _kl(model, theta, rho * d / float(np.linalg.norm(d)), inputs))
    return BoundCheck(
        claim="random feasible δ never beat A1's Ŝ (K = 30, small ρ)",
        paper=PAPER,
        theorem="T6 (Ŝ is a near-maximiser; S_ρ >= Ŝ always)",
        measured=best,
        bound=s_hat,
        sense="<=",
        atol=1e-9,
        params={"kind": model.kind, "rho": rho, "draws": draws},
    )


def sam_first_order(
    model: SoftmaxModel, theta: FloatArray, inputs: FloatArray, labels: FloatArray, rho: float
) -> BoundCheck:
    """T7: ``L(θ + ε) - L(θ) = ρ ||g|| + O(ρ²)``: ``|ratio - 1| <= 20 ρ ||H|| / ||g||``-style budget.

    The budget ``ρ λ / ||g||`` with ``λ`` the largest absolute Hessian eigenvalue bounds the
    second-order term ``½ ρ² ε̂ᵀHε̂`` relative to ``ρ ||g||``; we allow twice that plus the
    third-order slack (factor 2).
    """
    targets = labels.astype(np.int64)
    g = impl(cross_entropy_gradient)(model, theta, inputs, targets)
    eps = impl(sam_perturbation)(theta, g, rho=rho)
    rise = cross_entropy(model, theta + eps, inputs, targets) - cross_entropy(
        model, theta, inputs, targets
    )
    norm_g = float(np.linalg.norm(g))
    lam = float(np.max(np.abs(np.linalg.eigvalsh(hessian_softmax(model, theta, inputs, targets)))))
    return BoundCheck(
        claim="(L(θ+ε) - L(θ)) / (ρ||g||) = 1 + O(ρ), within 2ρλ_max(|H|)/||g||",
        paper=PAPER,
        theorem="T7 (SAM first-order fact, baseline)",
        measured=rise / (rho * norm_g),
        bound=1.0,
        sense="==",
        atol=2.0 * rho * lam / norm_g,
        params={"kind": model.kind, "rho": rho, "grad_norm": norm_g, "lambda": lam},
    )


# --------------------------------------------------------------------------------------------
# saturation

#: Parameter scales of the saturation check: ``θ`` of :func:`instance` times these puts the
#: logits near 3 (unsaturated), 100 (probabilities down to 1e-40) and 1000 (beyond ``exp``'s
#: float64 range: a softmax without the max shift overflows).
SATURATION_SCALES = (1.0, 35.0, 350.0)
#: ``|K̂ - K| <= KL_RTOL·K + KL_ATOL``.  Log-softmax carries an absolute error of a few units of
#: roundoff in each log-probability, which no relative budget covers once ``K`` falls below
#: 1e-16 (a saturated model moved by a small δ): the reference sits below 2e-17 absolute.  The
#: official code's clamp of probabilities at 1e-6 misses by 1e-12 to 1e-9 at these scales.
KL_RTOL = 1e-9
KL_ATOL = 1e-14


def _kl_digits(log_p: FloatArray, log_q: FloatArray, weights: FloatArray | None = None) -> Any:
    """``mean_i Σ_c p_ic (log p_ic − log q_ic)`` (or, with ``weights``, the directional
    derivative ``mean_i Σ_c (q_ic − p_ic) w_ic``) from the logits, in 50-digit arithmetic."""
    total = mpmath.mpf(0)
    with mpmath.workdps(50):
        for i in range(log_p.shape[0]):
            za = [mpmath.mpf(float(v)) for v in log_p[i]]
            zb = [mpmath.mpf(float(v)) for v in log_q[i]]
            la = mpmath.log(mpmath.fsum(mpmath.exp(v) for v in za))
            lb = mpmath.log(mpmath.fsum(mpmath.exp(v) for v in zb))
            if weights is None:
                total += mpmath.fsum(
                    mpmath.exp(a - la) * ((a - la) - (b - lb)) for a, b in zip(za, zb, strict=True)
                )
            else:
                total += mpmath.fsum(
                    (mpmath.exp(b - lb) - mpmath.exp(a - la)) * mpmath.mpf(float(w))
                    for a, b, w in zip(za, zb, weights[i], strict=True)
                )
        return total / log_p.shape[0]


def batch_kl_saturated(
    model: SoftmaxModel, theta: FloatArray, inputs: FloatArray, seed: int
) -> BoundCheck:
    """``batch_kl`` equals ``K_X(θ, δ)`` computed with 50 digits from the model's logits, on a
    model whose parameters may saturate the softmax (two classes: the sigmoid); for the linear
    model also ``vᵀ batch_kl_gradient`` equals the directional derivative
    ``mean_i Σ_c (q_ic − p_ic)(z_v)_ic`` (``z_v`` the logits of ``v`` minus those of 0, exact
    for a linear model), which uses neither the Jacobian nor a float64 softmax.

    Measured: the largest ``|error| / (KL_RTOL·|exact| + KL_ATOL·scale)`` (``scale`` 1 for the
    value and ``mean_i Σ_c |z_v|`` for the derivative); bound 1.
    """
    rng = np.random.default_rng(seed)
    delta = 0.05 * rng.standard_normal(theta.size)
    log_p = np.asarray(model.logits(theta, inputs), dtype=np.float64)
    log_q = np.asarray(model.logits(theta + delta, inputs), dtype=np.float64)
    exact = _kl_digits(log_p, log_q)
    got = float(impl(batch_kl)(model, theta, delta, inputs))
    if not math.isfinite(got):
        got = math.inf
    ratio = float(abs(mpmath.mpf(got) - exact) / (KL_RTOL * abs(exact) + KL_ATOL))
    if model.kind == "linear":
        v = rng.standard_normal(theta.size)
        zero = np.zeros_like(theta)
        z_v = np.asarray(model.logits(v, inputs)) - np.asarray(model.logits(zero, inputs))
        deriv = _kl_digits(log_p, log_q, z_v)
        grad = np.asarray(impl(batch_kl_gradient)(model, theta, delta, inputs), dtype=np.float64)
        scale = float(np.mean(np.sum(np.abs(z_v), axis=1)))
        along = float(v @ grad)
        err = abs(mpmath.mpf(along if math.isfinite(along) else math.inf) - deriv)
        ratio = max(ratio, float(err / (KL_RTOL * abs(deriv) + KL_ATOL * scale)))
    return BoundCheck(
        claim="batch KL and its gradient on saturated logits equal the 50-digit values",
        paper=PAPER,
        theorem="Section 2 (batch inconsistency K_X, batchmean, no clamp) and A1's gradient",
        measured=ratio,
        bound=1.0,
        sense="<=",
        params={
            "kind": model.kind,
            "classes": model.n_classes,
            "max_logit": float(np.max(np.abs(log_p))),
        },
    )


# --------------------------------------------------------------------------------------------
# registered drivers

_ALGOS = (
    "reference.inconsistency:inconsistency_ascent",
    "reference.inconsistency:fisher_softmax",
)


def _instances(profile: ProveProfile, salt: int, kinds: tuple[str, ...]) -> list[Instance]:
    rng = np.random.default_rng(profile.seed + salt)
    count = profile.instances if profile.is_full else 2
    return [instance(kind, rng) for _ in range(count) for kind in kinds]


@register(
    name="inconsistency.quadratic_expansion",
    family="inconsistency",
    paper=PAPER,
    theorem="T1 quadratic expansion K = ½δᵀFδ + O(||δ||³), with fitted slope 3",
    algorithms=("reference.inconsistency:batch_kl", "reference.inconsistency:fisher_softmax"),
)
def prove_quadratic_expansion(profile: ProveProfile) -> BoundCheck:
    """M1 and M2; three scales and the slope fit per instance."""
    rng = np.random.default_rng(profile.seed + 10)
    checks: list[BoundCheck] = []
    for model, theta, inputs, _ in _instances(profile, 11, ("linear", "mlp")):
        u = rng.standard_normal(model.n_params)
        checks.extend(quadratic_expansion(model, theta, inputs, u, e) for e in (1e-1, 1e-2, 1e-3))
        checks.append(quadratic_expansion_slope(model, theta, inputs, u))
    return worst(checks)


@register(
    name="inconsistency.top_eigenvalue",
    family="inconsistency",
    paper=PAPER,
    theorem="T2 S_ρ ≈ (ρ²/2) λ_max(F); power iteration converges to v_max",
    algorithms=("reference.inconsistency:inconsistency_ascent",),
)
def prove_top_eigenvalue(profile: ProveProfile) -> BoundCheck:
    """A1 with K = 30, ρ = 0.05 on M1/M2 draws; angle where the eigen-gap allows."""
    rng = np.random.default_rng(profile.seed + 20)
    checks: list[BoundCheck] = []
    for model, theta, inputs, _ in _instances(profile, 21, ("linear", "mlp")):
        noise = rng.standard_normal(model.n_params)
        checks.append(top_eigenvalue(model, theta, inputs, noise))
        angle = top_eigenvector(model, theta, inputs, noise)
        if angle is not None:
            checks.append(angle)
    return worst(checks)


@register(
    name="inconsistency.hessian_fisher",
    family="inconsistency",
    paper=PAPER,
    theorem="T3 Hessian = Fisher for softmax regression; T4 Gauss–Newton bridge",
    algorithms=(
        "reference.inconsistency:hessian_softmax",
        "reference.inconsistency:fisher_softmax",
    ),
)
def prove_hessian_fisher(profile: ProveProfile) -> BoundCheck:
    """Finite-difference Hessians on M1 (hard labels) and M2 (soft targets t = p)."""
    checks: list[BoundCheck] = []
    for model, theta, inputs, labels in _instances(profile, 31, ("linear",)):
        checks.append(hessian_equals_fisher(model, theta, inputs, labels))
    for model, theta, inputs, labels in _instances(profile, 32, ("mlp",)):
        checks.append(gauss_newton_bridge(model, theta, inputs, labels))
    return worst(checks)


@register(
    name="inconsistency.power_iteration",
    family="inconsistency",
    paper=PAPER,
    theorem="T5 one ascent step = one power iteration; T6 lower bound",
    algorithms=(*_ALGOS, "reference.inconsistency:batch_kl_gradient"),
)
def prove_power_iteration(profile: ProveProfile) -> BoundCheck:
    """T5 cosine and T6 random-direction lower bound on M1/M2."""
    rng = np.random.default_rng(profile.seed + 40)
    checks: list[BoundCheck] = []
    for model, theta, inputs, _ in _instances(profile, 41, ("linear", "mlp")):
        checks.append(
            power_iteration_step(model, theta, inputs, rng.standard_normal(model.n_params))
        )
        checks.append(lower_bound(model, theta, inputs, rng, draws=200 if profile.is_full else 50))
    return worst(checks)


@register(
    name="inconsistency.sam_first_order",
    family="inconsistency",
    paper=PAPER,
    theorem="T7 SAM: L(θ + ε) - L(θ) = ρ||g|| + O(ρ²)",
    algorithms=(
        "reference.inconsistency:sam_perturbation",
        "reference.inconsistency:cross_entropy_gradient",
    ),
)
def prove_sam_first_order(profile: ProveProfile) -> BoundCheck:
    """M2 draws, ρ in {1e-2, 1e-3, 1e-4}."""
    checks = [
        sam_first_order(model, theta, inputs, labels, rho)
        for model, theta, inputs, labels in _instances(profile, 51, ("mlp",))
        for rho in (1e-2, 1e-3, 1e-4)
    ]
    return worst(checks)


@register(
    name="inconsistency.iam_de_power_iteration",
    family="inconsistency",
    paper=PAPER,
    theorem="IAM-DE (A2 variant [code]): the persistent δ converges to v_max(F) (T2/T5)",
    algorithms=("reference.inconsistency:iam_de_step",),
)
def prove_iam_de_power_iteration(profile: ProveProfile) -> BoundCheck:
    """M1/M2 draws with eigen-gap >= 1.5 (others skipped), K = 30 steps, ρ = 0.05."""
    rng = np.random.default_rng(profile.seed + 60)
    checks: list[BoundCheck] = []
    for model, theta, inputs, _ in _instances(profile, 61, ("linear", "mlp")):
        check = iam_de_top_eigenvector(model, theta, inputs, rng)
        if check is not None:
            checks.append(check)
    extra = np.random.default_rng(profile.seed + 62)
    while not checks:  # make sure at least one instance has the eigen-gap
        model, theta, inputs, _ = instance("linear", extra)
        check = iam_de_top_eigenvector(model, theta, inputs, extra)
        if check is not None:
            checks.append(check)
    return worst(checks)


def _ce_here(
    model: SoftmaxModel, theta: FloatArray, inputs: FloatArray, labels: FloatArray
) -> float:
    """Mean cross-entropy ``-log p_θ(y_i | x_i)`` from the model's logits, computed here."""
    z = np.asarray(model.logits(theta, inputs))
    z = z - np.max(z, axis=1, keepdims=True)
    log_p = z - np.log(np.sum(np.exp(z), axis=1, keepdims=True))
    return float(-np.mean(log_p[np.arange(inputs.shape[0]), labels.astype(np.int64)]))


def iam_d_step(
    inst: Instance, unlabeled: FloatArray, *, beta: float, seed: int, weight_decay: float
) -> BoundCheck:
    """IAM-D (spec 09 A2) returns what its documentation says, recomputed here:

    * ``gradient`` = ``∇_θ [L(θ) + β K_{X_u}(θ, δ*)]`` at the returned ``δ*`` (frozen), ``θ`` in
      both KL branches: central differences (``h = 1e-5``) of that objective built from a local
      cross-entropy and KL;
    * ``iam_d_objective`` at the same ``δ*``: the same value and gradient;
    * the base step ``b' = μ b + (g + λ θ)``, ``θ' = θ - η b'`` (PyTorch convention), for
      ``iam_d``'s result and for ``sgd_step``;
    * ``loss`` and ``inconsistency`` are ``L(θ)`` and ``K_{X_u}(θ, δ*)``.

    Measured: the largest error relative to ``1 + |quantity|``; ``== 0`` within ``1e-8`` (the
    central differences' truncation, ``~h² = 1e-10``, and rounding, ``~1e-16/h = 1e-11``; the
    reference is at 3e-11).
    ``β`` away from 1, a nonzero momentum buffer and weight decay make each term matter.
    """
    model, theta, inputs, labels = inst
    rng = np.random.default_rng(seed)
    buffer = rng.standard_normal(theta.size) * 0.1
    opt = SGDConfig(learning_rate=0.07, momentum=0.9, weight_decay=weight_decay)
    cfg = IAMConfig(rho=0.05, beta=beta, steps=2, noise_scale=1e-3)
    res = impl(iam_d)(
        model,
        theta,
        inputs,
        labels.astype(np.int64),
        unlabeled,
        rng=np.random.default_rng(seed + 1),
        config=cfg,
        optimizer=opt,
        buffer=buffer,
    )
    delta = np.asarray(res.delta, dtype=np.float64)

    def objective(th: FloatArray) -> float:
        return _ce_here(model, th, inputs, labels) + beta * max(
            0.0, _kl(model, th, delta, unlabeled)
        )

    h = 1e-5
    eye = np.eye(theta.size)
    fd = np.array([(objective(theta + h * e) - objective(theta - h * e)) / (2.0 * h) for e in eye])

    def rel(got: object, want: object) -> float:
        g, w = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
        if g.shape != w.shape:
            return float("inf")
        return float(np.max(np.abs(g - w)) / (1.0 + np.max(np.abs(w))))

    grad = np.asarray(res.gradient, dtype=np.float64)
    new_buffer = 0.9 * buffer + grad + weight_decay * theta
    total, obj_grad = impl(iam_d_objective)(
        model, theta, inputs, labels.astype(np.int64), unlabeled, delta, beta=beta
    )
    sgd_theta, sgd_buffer = impl(sgd_step)(theta, grad, buffer, config=opt)
    errors = {
        "gradient": rel(grad, fd),
        "buffer": rel(res.buffer, new_buffer),
        "theta": rel(res.theta, theta - 0.07 * new_buffer),
        "loss": rel(res.loss, _ce_here(model, theta, inputs, labels)),
        "inconsistency": rel(res.inconsistency, max(0.0, _kl(model, theta, delta, unlabeled))),
        "objective": rel(total, objective(theta)),
        "objective_gradient": rel(obj_grad, fd),
        "sgd_theta": rel(sgd_theta, theta - 0.07 * new_buffer),
        "sgd_buffer": rel(sgd_buffer, new_buffer),
    }
    return BoundCheck(
        claim="IAM-D step: gradient of L + beta K(., delta*) (theta in both branches), the "
        "objective, and the PyTorch momentum step, recomputed",
        paper=PAPER,
        theorem="Kim, Kim, Lee (ICML 2026), A2 (IAM-D) and the base optimizer",
        measured=max(errors.values()),
        bound=0.0,
        sense="==",
        atol=1e-8,
        params={"beta": beta, "weight_decay": weight_decay, "P": theta.size, **errors},
    )


@register(
    name="inconsistency.iam_d_step",
    family="inconsistency",
    paper=PAPER,
    theorem="Kim, Kim, Lee (ICML 2026) A2: IAM-D's gradient, objective and base step, recomputed",
    algorithms=(
        "reference.inconsistency:iam_d",
        "reference.inconsistency:iam_d_objective",
        "reference.inconsistency:sgd_step",
    ),
)
def prove_iam_d_step(profile: ProveProfile) -> BoundCheck:
    """M1 and M2, ``β in {0.3, 2.5}``, weight decay ``{0, 0.01}``, nonzero momentum buffer."""
    rng = np.random.default_rng(profile.seed + 9)
    checks = []
    for i, (kind, beta, wd) in enumerate(
        [("linear", 0.3, 0.01), ("mlp", 2.5, 0.0), ("linear", 2.5, 0.0), ("mlp", 0.3, 0.01)]
    ):
        inst = instance(kind, rng, n=12)
        unlabeled = rng.standard_normal((9, 5))
        checks.append(
            iam_d_step(inst, unlabeled, beta=beta, seed=profile.seed + i, weight_decay=wd)
        )
    return worst(checks)


def local_top_eigenvalue(
    model: SoftmaxModel, theta: FloatArray, inputs: FloatArray, seed: int, *, rho: float
) -> tuple[BoundCheck, BoundCheck]:
    """T2 through :func:`reference.inconsistency.local_inconsistency` (``K = 30``, noise from
    ``rng``): ``K_X(θ, δ*)``, recomputed from the returned ``δ*``, equals ``(ρ²/2) λ_max(F)``
    within 5% (as :func:`top_eigenvalue`; infeasible ``δ*`` counts ``inf``), and the
    documented draw: ``δ*`` equals A1 started from ``ξ = default_rng(seed).standard_normal(P)``
    (relative distance, ``atol`` 1e-9 — the same arithmetic, so equal to rounding).
    """
    lam = float(np.linalg.eigvalsh(_fisher(model, theta, inputs))[-1])
    est = impl(local_inconsistency)(
        model, theta, inputs, rho=rho, rng=np.random.default_rng(seed), steps=30
    )
    delta = np.asarray(est.delta, dtype=np.float64)
    value = _kl(model, theta, delta, inputs)
    if not float(np.linalg.norm(delta)) <= rho * (1.0 + allowance(1e-9)):
        value = float("inf")
    params = {"kind": model.kind, "rho": rho, "K": 30, "lambda_max": lam}
    eigen = BoundCheck(
        claim="local_inconsistency: Ŝ_ρ (K = 30) = (ρ²/2) λ_max(F) + O(ρ³)",
        paper=PAPER,
        theorem="T2 (local inconsistency ≈ top Fisher eigenvalue) [paper: connects to Fisher]",
        measured=value,
        bound=0.5 * rho**2 * lam,
        sense="==",
        rtol=0.05,
        params=params,
    )
    xi = np.random.default_rng(seed).standard_normal(model.n_params)
    direct = np.asarray(
        inconsistency_ascent(model, theta, inputs, xi, rho=rho, steps=30).delta, dtype=np.float64
    )
    gap = float(np.linalg.norm(delta - direct)) / rho if delta.shape == direct.shape else math.inf
    draw = BoundCheck(
        claim="local_inconsistency = A1 started from ξ ~ N(0, I_P) drawn from rng",
        paper=PAPER,
        theorem="A1 (noise start)",
        measured=gap,
        bound=0.0,
        sense="==",
        atol=1e-9,
        params=params,
    )
    return eigen, draw


@register(
    name="inconsistency.local_inconsistency",
    family="inconsistency",
    paper=PAPER,
    theorem="T2 S_ρ ≈ (ρ²/2) λ_max(F), through local_inconsistency",
    algorithms=("reference.inconsistency:local_inconsistency",),
)
def prove_local_inconsistency(profile: ProveProfile) -> BoundCheck:
    """M1 and M2, ``ρ ∈ {0.02, 0.05}``."""
    checks: list[BoundCheck] = []
    for index, (model, theta, inputs, _) in enumerate(_instances(profile, 31, ("linear", "mlp"))):
        for rho in (0.02, 0.05):
            checks.extend(
                local_top_eigenvalue(model, theta, inputs, profile.seed + 31 + index, rho=rho)
            )
    return worst(checks)


def iam_s_step(inst: Instance, *, rho: float, seed: int, weight_decay: float) -> BoundCheck:
    """IAM-S (spec 09 A3) returns what its documentation says, recomputed here:

    * ``delta`` = A1's ``δ*`` from ``ξ = default_rng(seed).standard_normal(P)`` with the
      config's ``ρ``, ``K``, ``σ_n`` (zeros for ``ρ = 0``), of norm ``ρ``;
    * ``gradient`` = ``∇_θ L(θ + δ*)``: central differences (``h = 1e-5``) of a local
      cross-entropy at the perturbed point;
    * the step ``b' = μ b + (g + λ θ)``, ``θ' = θ - η b'``; ``loss = L(θ)``,
      ``inconsistency = K_X(θ, δ*)``.

    Measured: the largest error relative to ``1 + |quantity|``; ``== 0`` within ``1e-8`` (as
    :func:`iam_d_step`).  ``K = 2``, a nonzero buffer and weight decay make each term matter.
    """
    model, theta, inputs, labels = inst
    rng = np.random.default_rng(seed)
    buffer = rng.standard_normal(theta.size) * 0.1
    opt = SGDConfig(learning_rate=0.07, momentum=0.9, weight_decay=weight_decay)
    cfg = IAMConfig(rho=rho, steps=2, noise_scale=1e-3)
    res = impl(iam_s)(
        model,
        theta,
        inputs,
        labels.astype(np.int64),
        rng=np.random.default_rng(seed + 1),
        config=cfg,
        optimizer=opt,
        buffer=buffer,
    )
    xi = np.random.default_rng(seed + 1).standard_normal(model.n_params)
    want_delta = (
        np.asarray(
            inconsistency_ascent(model, theta, inputs, xi, rho=rho, steps=2).delta,
            dtype=np.float64,
        )
        if rho > 0.0
        else np.zeros(model.n_params)
    )
    delta = np.asarray(res.delta, dtype=np.float64)
    shift = delta if delta.shape == theta.shape else np.full(theta.shape, np.inf)
    h = 1e-5
    eye = np.eye(theta.size)
    fd = np.array(
        [
            (
                _ce_here(model, theta + shift + h * e, inputs, labels)
                - _ce_here(model, theta + shift - h * e, inputs, labels)
            )
            / (2.0 * h)
            for e in eye
        ]
    )

    def rel(got: object, want: object) -> float:
        g, w = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
        if g.shape != w.shape or not np.all(np.isfinite(g)):
            return float("inf")
        return float(np.max(np.abs(g - w)) / (1.0 + np.max(np.abs(w))))

    new_buffer = 0.9 * buffer + fd + weight_decay * theta
    errors = {
        "delta": rel(delta, want_delta),
        "gradient": rel(res.gradient, fd),
        "buffer": rel(res.buffer, new_buffer),
        "theta": rel(res.theta, theta - 0.07 * new_buffer),
        "loss": rel(res.loss, _ce_here(model, theta, inputs, labels)),
        "inconsistency": rel(res.inconsistency, max(0.0, _kl(model, theta, shift, inputs))),
    }
    return BoundCheck(
        claim="IAM-S step: delta* from A1, gradient of L at theta + delta*, the PyTorch "
        "momentum step, recomputed",
        paper=PAPER,
        theorem="Kim, Kim, Lee (ICML 2026), A3 (IAM-S) and the base optimizer",
        measured=max(errors.values()),
        bound=0.0,
        sense="==",
        atol=1e-8,
        params={"rho": rho, "weight_decay": weight_decay, "P": theta.size, **errors},
    )


@register(
    name="inconsistency.iam_s_step",
    family="inconsistency",
    paper=PAPER,
    theorem="Kim, Kim, Lee (ICML 2026) A3: IAM-S's perturbation, gradient and step, recomputed",
    algorithms=("reference.inconsistency:iam_s",),
)
def prove_iam_s_step(profile: ProveProfile) -> BoundCheck:
    """M1 and M2, ``ρ ∈ {0.05, 0.3, 0}`` (0: the base step), weight decay ``{0, 0.01}``."""
    rng = np.random.default_rng(profile.seed + 13)
    checks = []
    for i, (kind, rho, wd) in enumerate(
        [("linear", 0.3, 0.01), ("mlp", 0.05, 0.0), ("mlp", 0.3, 0.01), ("linear", 0.0, 0.0)]
    ):
        checks.append(
            iam_s_step(instance(kind, rng, n=12), rho=rho, seed=profile.seed + i, weight_decay=wd)
        )
    return worst(checks)


def iam_de_chain(
    model: SoftmaxModel, theta: FloatArray, inputs: FloatArray, seed: int, *, steps: int = 30
) -> BoundCheck | None:
    """IAM-DE through :func:`reference.inconsistency.iam_de` itself (its own signs and start,
    ``delta=None`` on the first call, then ``next_delta`` passed back), ``θ`` frozen: the state
    is a power iteration on the Fisher of ``X_u`` (T2/T5), so ``|cos(δ_K, v_max)| >= 0.999``
    when ``λ1/λ2 >= 1.5`` (``None`` otherwise).  The first call's ``delta`` must also be the
    documented start ``s σ ξ / sqrt(P)`` (sign drawn first, then ``ξ``): a start of another
    norm or direction counts ``cos = 0``.
    """
    values, vectors = np.linalg.eigh(_fisher(model, theta, inputs))
    if values[-1] < 1.5 * values[-2]:
        return None
    run = impl(iam_de)
    config = IAMDEConfig(rho=0.05, beta=1.0, noise_scale=0.1)
    labels = np.zeros(inputs.shape[0], dtype=np.int64)
    rng = np.random.default_rng(seed)
    draws = np.random.default_rng(seed)
    sign = -1.0 if int(draws.integers(0, 2)) == 0 else 1.0
    start = sign * 0.1 * draws.standard_normal(model.n_params) / np.sqrt(model.n_params)
    state: FloatArray | None = None
    first_ok = True
    for k in range(steps):
        out = run(
            model,
            theta,
            inputs,
            labels,
            inputs,
            rng=rng,
            config=config,
            optimizer=SGDConfig(learning_rate=1e-3),
            delta=state,
        )
        if k == 0:
            used = np.asarray(out.delta, dtype=np.float64)
            first_ok = used.shape == start.shape and bool(
                np.max(np.abs(used - start)) <= 1e-12 * (1.0 + np.max(np.abs(start)))
            )
        state = np.asarray(out.next_delta, dtype=np.float64)
    assert state is not None
    cos = abs(float(state @ vectors[:, -1])) / float(np.linalg.norm(state))
    return BoundCheck(
        claim="iam_de's persistent δ: |cos(δ_K, v_max(F))| >= 0.999 (θ frozen), documented start",
        paper=PAPER,
        theorem="A2 IAM-DE [code] + T2/T5: cross-step power iteration (eigen-gap >= 1.5)",
        measured=cos if first_ok else 0.0,
        bound=0.999,
        sense=">=",
        params={"kind": model.kind, "K": steps, "start_ok": first_ok},
    )


@register(
    name="inconsistency.iam_de_chain",
    family="inconsistency",
    paper=PAPER,
    theorem="IAM-DE (A2 variant [code]): iam_de's persistent δ converges to v_max(F) (T2/T5)",
    algorithms=("reference.inconsistency:iam_de",),
)
def prove_iam_de_chain(profile: ProveProfile) -> BoundCheck:
    """M1/M2 draws with eigen-gap >= 1.5 (others skipped; at least one kept), K = 30."""
    checks: list[BoundCheck] = []
    extra = np.random.default_rng(profile.seed + 72)
    insts = _instances(profile, 71, ("linear", "mlp"))
    index = 0
    while not checks or index < len(insts):
        model, theta, inputs, _ = insts[index] if index < len(insts) else instance("linear", extra)
        check = iam_de_chain(model, theta, inputs, profile.seed + 70 + index)
        if check is not None:
            checks.append(check)
        index += 1
    return worst(checks)


@register(
    name="inconsistency.batch_kl_saturated",
    family="inconsistency",
    paper=PAPER,
    theorem="Section 2 (K_X, no probability clamp), A1 analytic gradient",
    algorithms=(
        "reference.inconsistency:batch_kl",
        "reference.inconsistency:batch_kl_gradient",
    ),
)
def prove_batch_kl_saturated(profile: ProveProfile) -> BoundCheck:
    """M1 and M2 with 2 (sigmoid) and 4 classes, n = 20, θ scaled by each of
    :data:`SATURATION_SCALES`."""
    rng = np.random.default_rng(profile.seed + 80)
    checks = []
    for kind in ("linear", "mlp"):
        for classes in (2, 4):
            model = SoftmaxModel(
                kind="mlp" if kind == "mlp" else "linear", n_inputs=5, n_classes=classes
            )
            theta = init_params(model, rng=rng, scale=0.5)
            inputs = rng.standard_normal((20, 5))
            for scale in SATURATION_SCALES:
                seed = int(rng.integers(2**32))
                checks.append(batch_kl_saturated(model, scale * theta, inputs, seed))
    return worst(checks)
