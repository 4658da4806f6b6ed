"""Local inconsistency, Inconsistency-Aware Minimization (IAM-D, IAM-S) and SAM/ASAM baselines.

Reference implementations for spec 09 (Kim, Kim, Lee, *Inconsistency-Aware Minimization:
Improving Generalization with Unlabeled Data*, ICML 2026, arXiv:2605.31324; official code
github.com/heesung-k/IAM).  Provenance tags follow the spec: [paper] abstract/intro/summaries,
[code] the official repository, [ours] standard mathematics or design decisions.

Models (spec 09, section 4): (M1) multinomial logistic regression ``z = W x + b`` and (M2) a
one-hidden-layer tanh MLP ``z = W2 tanh(W1 x + b1) + b2``, both with analytic Jacobians and
logit Hessians (:class:`SoftmaxModel`).  Parameters are one flat float64 vector ``θ``:
M1 ``[W (C, d) row-major, b (C,)]``, M2 ``[W1 (h, d), b1 (h,), W2 (C, h), b2 (C,)]`` — the order
of ``torch.nn.Linear`` / ``nn.Sequential(Linear, Tanh, Linear).parameters()``.

Public functions:

* :func:`batch_kl` — ``K_X(θ, δ) = (1/n) Σ_i KL(p_θ(·|x_i) || p_{θ+δ}(·|x_i))``;
  :func:`batch_kl_gradient` — its analytic ``δ``-gradient;
* :func:`local_inconsistency` / :func:`inconsistency_ascent` — algorithm A1 (noise start,
  normalised ascent = power iteration on the Fisher), a lower bound on ``S_ρ``;
* :func:`fisher_softmax`, :func:`hessian_softmax` — closed-form Fisher and cross-entropy Hessian;
* :func:`iam_d`, :func:`iam_s`, :func:`sam`, :func:`asam`, :func:`sgd_step` — one step of each
  optimizer with SGD-with-momentum as the base optimizer;
* :func:`iam_de` / :func:`iam_de_step` — the single-backward variant IAM-DE [code ``IAM_DE``]:
  ``δ`` persists across steps, its sign is flipped at random, and the one backward of
  ``L(θ) + β K(θ, ±δ)`` also gives the next ``δ = ρ ∇_δ / ||∇_δ||``.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import log_softmax, softmax

from reference._arrays import (
    FloatArray,
    as_float_array,
    readonly,
    require_generator,
    require_int,
    require_positive,
)
from reference._repr import summary_repr

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

ModelKind = Literal["linear", "mlp"]
#: Guard added to gradient norms in the normalised ascent and in SAM [code].
NORM_EPS = 1e-12
#: Tolerance on target probability rows passed directly (spec 09, bad input).
TARGET_ATOL = 1e-9


# --------------------------------------------------------------------------------------------
# models


@dataclass(frozen=True, slots=True, kw_only=True)
class SoftmaxModel:
    """A small softmax classifier with analytic derivatives (spec 09 models M1 and M2).

    Attributes:
        kind: ``linear`` (M1, ``z = W x + b``) or ``mlp`` (M2, ``z = W2 tanh(W1 x + b1) + b2``).
        n_inputs: ``d >= 1``.
        n_classes: ``C >= 2``.
        n_hidden: ``h >= 1`` (``mlp`` only; ignored for ``linear``).

    Raises:
        ValueError: unknown kind or sizes out of range.

    Example:
        >>> SoftmaxModel(kind="mlp", n_inputs=5, n_classes=4, n_hidden=8).n_params
        84
    """

    kind: ModelKind
    n_inputs: int
    n_classes: int
    n_hidden: int = 8

    def __post_init__(self) -> None:
        if self.kind not in ("linear", "mlp"):
            raise ValueError(f"kind: expected 'linear' or 'mlp', got {self.kind!r}")
        require_int("n_inputs", self.n_inputs, minimum=1)
        require_int("n_classes", self.n_classes, minimum=2)
        require_int("n_hidden", self.n_hidden, minimum=1)

    @property
    def n_params(self) -> int:
        """Length ``P`` of the flat parameter vector."""
        d, c, h = self.n_inputs, self.n_classes, self.n_hidden
        return c * d + c if self.kind == "linear" else h * d + h + c * h + c

    def unpack(self, theta: FloatArray) -> tuple[FloatArray, ...]:
        """Split ``θ`` into ``(W, b)`` or ``(W1, b1, W2, b2)`` (views)."""
        d, c, h = self.n_inputs, self.n_classes, self.n_hidden
        if self.kind == "linear":
            return theta[: c * d].reshape(c, d), theta[c * d :]
        i = 0
        w1 = theta[i : i + h * d].reshape(h, d)
        i += h * d
        b1 = theta[i : i + h]
        i += h
        w2 = theta[i : i + c * h].reshape(c, h)
        i += c * h
        return w1, b1, w2, theta[i:]

    def logits(self, theta: FloatArray, inputs: FloatArray) -> FloatArray:
        """``z(x_i; θ)`` for every row of ``inputs``: ``(n, C)``."""
        if self.kind == "linear":
            w, b = self.unpack(theta)
            out: FloatArray = inputs @ w.T + b
            return out
        w1, b1, w2, b2 = self.unpack(theta)
        hidden = np.tanh(inputs @ w1.T + b1)
        out = hidden @ w2.T + b2
        return out

    def jacobian(self, theta: FloatArray, inputs: FloatArray) -> FloatArray:
        """Logit Jacobians ``J_i = ∂z(x_i; θ)/∂θ``: ``(n, C, P)``."""
        n, d = inputs.shape
        c = self.n_classes
        jac = np.zeros((n, c, self.n_params))
        eye = np.eye(c)
        if self.kind == "linear":
            # ∂z_c/∂W[c', k] = δ_cc' x_k ; ∂z_c/∂b[c'] = δ_cc'
            jac[:, :, : c * d] = (eye[None, :, :, None] * inputs[:, None, None, :]).reshape(
                n, c, c * d
            )
            jac[:, :, c * d :] = eye[None]
            return jac
        h = self.n_hidden
        w1, b1, w2, _ = self.unpack(theta)
        hidden = np.tanh(inputs @ w1.T + b1)  # (n, h)
        slope = 1.0 - hidden**2  # tanh'
        gate = w2[None, :, :] * slope[:, None, :]  # (n, C, h): ∂z_c/∂a_j
        jac[:, :, : h * d] = (gate[:, :, :, None] * inputs[:, None, None, :]).reshape(n, c, h * d)
        jac[:, :, h * d : h * d + h] = gate
        start = h * d + h
        jac[:, :, start : start + c * h] = (
            eye[None, :, :, None] * hidden[:, None, None, :]
        ).reshape(n, c, c * h)
        jac[:, :, start + c * h :] = eye[None]
        return jac

    def weighted_logit_hessian(
        self, theta: FloatArray, inputs: FloatArray, weights: FloatArray
    ) -> FloatArray:
        """``(1/n) Σ_i Σ_c w_ic ∇²_θ z_c(x_i; θ)``: ``(P, P)`` (zero for ``linear``)."""
        p_dim = self.n_params
        out = np.zeros((p_dim, p_dim))
        if self.kind == "linear":
            return out
        n, d = inputs.shape
        c, h = self.n_classes, self.n_hidden
        w1, b1, w2, _ = self.unpack(theta)
        hidden = np.tanh(inputs @ w1.T + b1)
        slope = 1.0 - hidden**2
        curvature = -2.0 * hidden * slope  # tanh''
        start = h * d + h
        augmented = np.concatenate([inputs, np.ones((n, 1))], axis=1)  # u = [x; 1]
        for j in range(h):
            idx = np.concatenate([np.arange(j * d, (j + 1) * d), [h * d + j]])
            # (W1[j], b1[j]) block: (Σ_c w_c W2[c, j]) tanh''(a_j) u uᵀ
            coef = (weights @ w2[:, j]) * curvature[:, j]  # (n,)
            out[np.ix_(idx, idx)] += np.einsum("i,ik,il->kl", coef, augmented, augmented) / n
            for cls in range(c):
                # cross block (W2[c, j], (W1[j], b1[j])): w_c tanh'(a_j) u
                row = start + cls * h + j
                cross = np.einsum("i,ik->k", weights[:, cls] * slope[:, j], augmented) / n
                out[row, idx] += cross
                out[idx, row] += cross
        return out


def _model(model: object) -> SoftmaxModel:
    if not isinstance(model, SoftmaxModel):
        raise TypeError(f"model: expected a SoftmaxModel, got {type(model).__name__}")
    return model


def _theta(model: SoftmaxModel, theta: object, name: str = "theta") -> FloatArray:
    return as_float_array(name, theta, shape=(model.n_params,))


def _inputs(model: SoftmaxModel, inputs: object, name: str = "inputs") -> FloatArray:
    return as_float_array(name, inputs, shape=(None, model.n_inputs))


def _targets(model: SoftmaxModel, targets: object, n: int) -> FloatArray:
    """Integer labels ``(n,)`` (one-hot encoded) or probability rows ``(n, C)``."""
    raw = np.asarray(targets) if not isinstance(targets, str | bytes) else None
    if raw is not None and raw.ndim == 1 and raw.dtype.kind in "iu":
        labels = raw.astype(np.int64)
        if labels.shape != (n,):
            raise ValueError(f"targets: expected shape ({n},), got shape {labels.shape}")
        if labels.size and (labels.min() < 0 or labels.max() >= model.n_classes):
            raise ValueError(
                f"targets: expected labels in [0, {model.n_classes - 1}], "
                f"got range [{labels.min()}, {labels.max()}]"
            )
        onehot: FloatArray = np.eye(model.n_classes)[labels]
        return onehot
    rows = as_float_array("targets", targets, shape=(n, model.n_classes))
    if float(rows.min()) < -TARGET_ATOL:
        raise ValueError(f"targets: expected probability rows (entries >= 0), got {rows.min()!r}")
    sums = rows.sum(axis=1)
    worst = float(np.max(np.abs(sums - 1.0)))
    if worst > TARGET_ATOL:
        raise ValueError(
            f"targets: expected probability rows summing to 1 (tol {TARGET_ATOL}), "
            f"got a row off by {worst!r}"
        )
    return rows


def init_params(model: SoftmaxModel, *, rng: np.random.Generator, scale: float = 0.5) -> FloatArray:
    """Random parameters ``θ ~ N(0, scale²)`` of length ``P`` (our default scale 0.5).

    Args:
        model: the model.
        rng: random generator.
        scale: standard deviation ``> 0``.

    Returns:
        ``(P,)`` float64 vector.

    Raises:
        TypeError: ``model`` is not a :class:`SoftmaxModel` or ``rng`` not a Generator.
        ValueError: ``scale <= 0``.

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=2, n_classes=3)
        >>> init_params(m, rng=np.random.default_rng(0)).shape
        (9,)
    """
    mod = _model(model)
    require_generator("rng", rng)
    sd = require_positive("scale", scale)
    out: FloatArray = rng.standard_normal(mod.n_params) * sd
    return out


def predict_proba(model: SoftmaxModel, theta: ArrayLike, inputs: ArrayLike) -> FloatArray:
    """Predictive distributions ``p_θ(·|x_i) = softmax(z(x_i; θ))``: ``(n, C)``.

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` inputs.

    Returns:
        ``(n, C)`` rows on the simplex.

    Raises:
        ValueError: wrong shapes, empty or non-finite input.

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=1, n_classes=2)
        >>> predict_proba(m, np.zeros(4), [[1.0]]).tolist()
        [[0.5, 0.5]]
    """
    mod = _model(model)
    th = _theta(mod, theta)
    x = _inputs(mod, inputs)
    out: FloatArray = softmax(mod.logits(th, x), axis=1)
    return out


# --------------------------------------------------------------------------------------------
# KL, Fisher, Hessian


def _kl(mod: SoftmaxModel, th: FloatArray, delta: FloatArray, x: FloatArray) -> float:
    log_p = log_softmax(mod.logits(th, x), axis=1)
    log_q = log_softmax(mod.logits(th + delta, x), axis=1)
    return float(np.mean(np.sum(np.exp(log_p) * (log_p - log_q), axis=1)))


def _kl_grad(mod: SoftmaxModel, th: FloatArray, delta: FloatArray, x: FloatArray) -> FloatArray:
    p = softmax(mod.logits(th, x), axis=1)
    q = softmax(mod.logits(th + delta, x), axis=1)
    jac = mod.jacobian(th + delta, x)
    out: FloatArray = np.einsum("icp,ic->p", jac, q - p) / x.shape[0]
    return out


def batch_kl(model: SoftmaxModel, theta: ArrayLike, delta: ArrayLike, inputs: ArrayLike) -> float:
    """Batch inconsistency ``K_X(θ, δ) = (1/n) Σ_i KL(p_θ(·|x_i) || p_{θ+δ}(·|x_i))``.

    "batchmean": sum over classes, mean over examples; the first argument is the unperturbed
    model [code].  Computed with log-softmax (no probability clamp).

    Args:
        model: the model.
        theta: ``(P,)`` parameters ``θ``.
        delta: ``(P,)`` offset ``δ``.
        inputs: ``(n, d)`` batch ``X`` (labels are never needed).

    Returns:
        ``K_X(θ, δ) >= 0`` (``0`` exactly at ``δ = 0``).

    Raises:
        ValueError: wrong shapes, empty or non-finite input.

    References:
        Spec 09, section 2, "Batch inconsistency at offset δ" [code].
        Variant: the official code clamps probabilities at 1e-6 before the logs; we do not.

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=1, n_classes=2)
        >>> batch_kl(m, np.zeros(4), np.zeros(4), [[1.0]])
        0.0
    """
    mod = _model(model)
    th = _theta(mod, theta)
    dl = _theta(mod, delta, "delta")
    x = _inputs(mod, inputs)
    return max(0.0, _kl(mod, th, dl, x))


def batch_kl_gradient(
    model: SoftmaxModel, theta: ArrayLike, delta: ArrayLike, inputs: ArrayLike
) -> FloatArray:
    """``∇_δ K_X(θ, δ) = (1/n) Σ_i J_i(θ+δ)ᵀ (p_{θ+δ}(·|x_i) - p_θ(·|x_i))`` (``p_θ`` fixed).

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        delta: ``(P,)`` offset.
        inputs: ``(n, d)`` batch.

    Returns:
        ``(P,)`` gradient (zero at ``δ = 0``).

    Raises:
        ValueError: wrong shapes, empty or non-finite input.

    References:
        Spec 09, section 3, A1, "Analytic gradient for the numpy reference" [ours].

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=1, n_classes=2)
        >>> batch_kl_gradient(m, np.ones(4), np.zeros(4), [[1.0]]).tolist()
        [0.0, 0.0, 0.0, 0.0]
    """
    mod = _model(model)
    th = _theta(mod, theta)
    dl = _theta(mod, delta, "delta")
    x = _inputs(mod, inputs)
    return _kl_grad(mod, th, dl, x)


def fisher_softmax(model: SoftmaxModel, theta: ArrayLike, inputs: ArrayLike) -> FloatArray:
    """Model Fisher ``F(θ) = (1/n) Σ_i J_iᵀ (diag(p_i) - p_i p_iᵀ) J_i``: ``(P, P)``, PSD.

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` batch.

    Returns:
        ``(P, P)`` symmetric positive semi-definite matrix.

    Raises:
        ValueError: wrong shapes, empty or non-finite input.

    References:
        Spec 09, section 2, "Fisher information" (model Fisher) [ours, standard].

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=1, n_classes=2)
        >>> fisher_softmax(m, np.zeros(4), [[1.0]])[0].tolist()
        [0.25, -0.25, 0.25, -0.25]
    """
    mod = _model(model)
    th = _theta(mod, theta)
    x = _inputs(mod, inputs)
    return _fisher(mod, th, x)


def _fisher(mod: SoftmaxModel, th: FloatArray, x: FloatArray) -> FloatArray:
    p = softmax(mod.logits(th, x), axis=1)
    jac = mod.jacobian(th, x)
    weighted = jac * p[:, :, None]  # diag(p) J
    mean_row = np.einsum("ic,icp->ip", p, jac)  # pᵀ J
    fisher = np.einsum("icp,icq->pq", weighted, jac) - np.einsum("ip,iq->pq", mean_row, mean_row)
    out: FloatArray = 0.5 * (fisher + fisher.T) / x.shape[0]
    return out


def cross_entropy(
    model: SoftmaxModel, theta: ArrayLike, inputs: ArrayLike, targets: ArrayLike
) -> float:
    """Cross-entropy ``L(θ) = -(1/n) Σ_i Σ_c t_ic log p_θ(c|x_i)``.

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` batch.
        targets: ``(n,)`` integer labels or ``(n, C)`` probability rows (soft targets).

    Returns:
        The mean loss.

    Raises:
        ValueError: wrong shapes; labels out of range; rows not on the simplex (tol 1e-9).

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=1, n_classes=2)
        >>> cross_entropy(m, np.zeros(4), [[1.0]], np.array([1])) == math.log(2.0)
        True
    """
    mod = _model(model)
    th = _theta(mod, theta)
    x = _inputs(mod, inputs)
    t = _targets(mod, targets, x.shape[0])
    return _ce(mod, th, x, t)


def _ce(mod: SoftmaxModel, th: FloatArray, x: FloatArray, t: FloatArray) -> float:
    return float(-np.mean(np.sum(t * log_softmax(mod.logits(th, x), axis=1), axis=1)))


def _ce_grad(mod: SoftmaxModel, th: FloatArray, x: FloatArray, t: FloatArray) -> FloatArray:
    p = softmax(mod.logits(th, x), axis=1)
    out: FloatArray = np.einsum("icp,ic->p", mod.jacobian(th, x), p - t) / x.shape[0]
    return out


def cross_entropy_gradient(
    model: SoftmaxModel, theta: ArrayLike, inputs: ArrayLike, targets: object
) -> FloatArray:
    """``∇L(θ) = (1/n) Σ_i J_iᵀ (p_i - t_i)``: ``(P,)``.

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` batch.
        targets: ``(n,)`` labels or ``(n, C)`` probability rows.

    Returns:
        ``(P,)`` gradient.

    Raises:
        ValueError: as :func:`cross_entropy`.

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=1, n_classes=2)
        >>> cross_entropy_gradient(m, np.zeros(4), [[1.0]], np.array([1])).tolist()
        [0.5, -0.5, 0.5, -0.5]
    """
    mod = _model(model)
    th = _theta(mod, theta)
    x = _inputs(mod, inputs)
    t = _targets(mod, targets, x.shape[0])
    return _ce_grad(mod, th, x, t)


def hessian_softmax(
    model: SoftmaxModel, theta: ArrayLike, inputs: ArrayLike, targets: ArrayLike
) -> FloatArray:
    """Cross-entropy Hessian by the Gauss–Newton decomposition, in closed form.

    ``H(θ) = F(θ) + (1/n) Σ_i Σ_c (p_ic - t_ic) ∇²_θ z_c(x_i; θ)``; the second term vanishes for
    the linear model M1 (so ``H = F`` for any labels) and its expectation over ``t ~ p_θ``
    vanishes for any model.

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` batch.
        targets: ``(n,)`` labels or ``(n, C)`` probability rows.

    Returns:
        ``(P, P)`` symmetric Hessian of :func:`cross_entropy`.

    Raises:
        ValueError: as :func:`cross_entropy`.

    References:
        Spec 09, section 2, "Cross-entropy loss ... and its Hessian" [ours, standard]; T3, T4.

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=2, n_classes=3)
        >>> th = init_params(m, rng=np.random.default_rng(1))
        >>> x = np.eye(2)
        >>> bool(np.allclose(hessian_softmax(m, th, x, np.array([0, 2])), fisher_softmax(m, th, x)))
        True
    """
    mod = _model(model)
    th = _theta(mod, theta)
    x = _inputs(mod, inputs)
    t = _targets(mod, targets, x.shape[0])
    p = softmax(mod.logits(th, x), axis=1)
    hess = _fisher(mod, th, x) + mod.weighted_logit_hessian(th, x, p - t)
    out: FloatArray = 0.5 * (hess + hess.T)
    return out


# --------------------------------------------------------------------------------------------
# A1: local inconsistency by normalised ascent


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class InconsistencyResult:
    """Outcome of algorithm A1.

    Attributes:
        value: ``Ŝ = K_X(θ, δ*)``, a lower bound on ``S_ρ(θ; X)``.
        delta: ``δ*`` with ``||δ*||₂ = ρ``.
        delta0: the noise start ``δ_0 = σ_n ξ / sqrt(P)``.
        iterations: ascent steps taken (``K``).
        zero_gradient: the gradient was exactly zero at some step; ``δ`` was then the previous
            iterate rescaled to ``ρ`` (``δ_0`` rescaled at the first step).
        alignment: ``|cos(δ_K, δ_{K-1})|`` (1 when the power iteration has settled; the
            stopping quantity).
        converged: ``1 - alignment <= 1e-8``.
        previous_delta: ``δ_{K-1}`` (``δ_0`` when ``K = 1``), read-only: ``alignment`` is
            ``|cos(delta, previous_delta)|`` (0 when either is zero).
    """

    value: float
    delta: FloatArray
    delta0: FloatArray
    iterations: int
    zero_gradient: bool
    alignment: float
    converged: bool
    previous_delta: FloatArray | None = None


def _ascent(
    mod: SoftmaxModel,
    th: FloatArray,
    x: FloatArray,
    xi: FloatArray,
    rho: float,
    steps: int,
    noise_scale: float,
) -> InconsistencyResult:
    p_dim = mod.n_params
    delta0 = noise_scale * xi / math.sqrt(p_dim)  # A1 l. 2
    delta = delta0.copy()
    zero = False
    alignment = 0.0
    previous = delta
    for _ in range(steps):  # A1 l. 3
        g = _kl_grad(mod, th, delta, x)
        size = float(np.linalg.norm(g))
        if size == 0.0:  # spec 09 property 3: rescale the previous iterate and flag it
            zero = True
            base = delta if np.any(delta) else np.ones(p_dim)
            new = rho * base / float(np.linalg.norm(base))
        else:  # normalised exactly (the code adds 1e-12 to the norm; see Variant)
            new = rho * g / size
        norms = float(np.linalg.norm(new)) * float(np.linalg.norm(delta))
        alignment = abs(float(new @ delta)) / norms if norms > 0.0 else 0.0
        previous, delta = delta, new
    value = max(0.0, _kl(mod, th, delta, x))  # A1 l. 4
    return InconsistencyResult(
        value=value,
        delta=readonly(delta),
        delta0=readonly(delta0),
        iterations=steps,
        zero_gradient=zero,
        alignment=alignment,
        converged=bool(1.0 - alignment <= 1e-8),
        previous_delta=readonly(previous.copy()),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class IAMConfig:
    """Hyper-parameters of IAM-D / IAM-S.

    Attributes:
        rho: radius ``ρ`` (0.05, ``IAM_D`` class default [code]); ``> 0`` for IAM-D, ``>= 0``
            for IAM-S (``ρ = 0`` is the reduction to the base step).
        beta: weight ``β >= 0`` of the inconsistency term (1.0; IAM-D only [code]).
        steps: ascent steps ``K >= 1`` (1 [code]).
        noise_scale: ``σ_n >= 0`` (1e-3 [code, class default]).
    """

    rho: float = 0.05
    beta: float = 1.0
    steps: int = 1
    noise_scale: float = 1e-3

    def __post_init__(self) -> None:
        require_positive("rho", self.rho, allow_zero=True)
        require_positive("beta", self.beta, allow_zero=True)
        require_int("steps", self.steps, minimum=1, maximum=100_000)
        require_positive("noise_scale", self.noise_scale, allow_zero=True)


_IAM = IAMConfig()


def inconsistency_ascent(
    model: SoftmaxModel,
    theta: ArrayLike,
    inputs: ArrayLike,
    noise: ArrayLike,
    *,
    rho: float,
    steps: int = _IAM.steps,
    noise_scale: float = _IAM.noise_scale,
) -> InconsistencyResult:
    """Algorithm A1 from a given standard-normal draw ``ξ`` (deterministic core).

    ``δ_0 = σ_n ξ / sqrt(P)``; for ``k = 1..K``: ``g_k = ∇_δ K_X(θ, δ_{k-1})``,
    ``δ_k = ρ g_k / (||g_k||₂ + 1e-12)``; return ``δ* = δ_K`` and ``Ŝ = K_X(θ, δ*)``.  Near 0,
    ``∇_δ K_X = F δ + O(||δ||²)``: each step is a power-iteration step on the Fisher, and
    ``Ŝ -> (ρ²/2) λ_max(F)`` for small ``ρ``.

    Symbols: ``ρ`` is ``rho``, ``K`` is ``steps``, ``σ_n`` is ``noise_scale``, ``ξ`` is ``noise``.

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` batch (no labels).
        noise: ``(P,)`` the draw ``ξ``.
        rho: radius ``ρ > 0``.
        steps: ``K >= 1`` ascent steps.
        noise_scale: ``σ_n >= 0``.

    Returns:
        :class:`InconsistencyResult`.

    Raises:
        ValueError: wrong shapes, non-finite input, ``rho <= 0``, ``steps < 1``,
            ``noise_scale < 0``.

    References:
        Spec 09, section 3, A1 [code: ``IAM_D.step``, ``inconsistencyLoss``].
        Variant: the code divides by ``||g|| + 1e-12``; we divide by ``||g||`` so that
        ``||δ*|| = ρ`` holds to rounding (spec 09, property 3) even for tiny ``σ_n``; an exactly
        zero gradient is handled as the spec's property 3 says.

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=2, n_classes=2)
        >>> r = inconsistency_ascent(m, np.zeros(6), np.eye(2), np.ones(6), rho=0.1, steps=3)
        >>> round(float(np.linalg.norm(r.delta)), 12)
        0.1
    """
    mod = _model(model)
    th = _theta(mod, theta)
    x = _inputs(mod, inputs)
    xi = _theta(mod, noise, "noise")
    radius = require_positive("rho", rho)
    k = require_int("steps", steps, minimum=1, maximum=100_000)
    scale = require_positive("noise_scale", noise_scale, allow_zero=True)
    return _ascent(mod, th, x, xi, radius, k, scale)


def local_inconsistency(
    model: SoftmaxModel,
    theta: ArrayLike,
    inputs: ArrayLike,
    *,
    rho: float,
    rng: np.random.Generator,
    steps: int = _IAM.steps,
    noise_scale: float = _IAM.noise_scale,
) -> InconsistencyResult:
    """Local inconsistency ``S_ρ(θ; X) = max_{||δ||₂ <= ρ} K_X(θ, δ)``, estimated by A1.

    Draws ``ξ ~ N(0, I_P)`` from ``rng`` and runs :func:`inconsistency_ascent`.  The estimate
    ``Ŝ`` is a lower bound (``δ*`` is feasible); to second order ``S_ρ = (ρ²/2) λ_max(F)``.

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` batch (no labels).
        rho: radius ``ρ > 0``.
        rng: the random generator (noise start).
        steps: ``K >= 1`` (default: :class:`IAMConfig`'s).
        noise_scale: ``σ_n >= 0`` (default: :class:`IAMConfig`'s).

    Returns:
        :class:`InconsistencyResult`.

    Raises:
        ValueError: as :func:`inconsistency_ascent`.
        TypeError: ``rng`` not a ``numpy.random.Generator``.

    References:
        Spec 09, sections 2 ("Local inconsistency" [paper + code]) and 3 (A1).

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=2, n_classes=2)
        >>> th = init_params(m, rng=np.random.default_rng(0))
        >>> r = local_inconsistency(m, th, np.eye(2), rho=0.05, rng=np.random.default_rng(1))
        >>> r.value > 0.0
        True
    """
    mod = _model(model)
    require_generator("rng", rng)
    th = _theta(mod, theta)
    x = _inputs(mod, inputs)
    radius = require_positive("rho", rho)
    k = require_int("steps", steps, minimum=1, maximum=100_000)
    scale = require_positive("noise_scale", noise_scale, allow_zero=True)
    xi = rng.standard_normal(mod.n_params)
    return _ascent(mod, th, x, xi, radius, k, scale)


# --------------------------------------------------------------------------------------------
# optimizers


@dataclass(frozen=True, slots=True, kw_only=True)
class SGDConfig:
    """SGD with momentum, PyTorch convention: ``b <- μ b + (g + λ θ)``, ``θ <- θ - η b``.

    Attributes:
        learning_rate: ``η > 0`` (0.1).
        momentum: ``μ in [0, 1)`` (0.9 [code]).
        weight_decay: ``λ >= 0`` (0.0).
    """

    learning_rate: float = 0.1
    momentum: float = 0.9
    weight_decay: float = 0.0

    def __post_init__(self) -> None:
        require_positive("learning_rate", self.learning_rate)
        mu = require_positive("momentum", self.momentum, allow_zero=True)
        if mu >= 1.0:
            raise ValueError(f"momentum: expected a number in [0, 1), got {mu!r}")
        require_positive("weight_decay", self.weight_decay, allow_zero=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class SAMConfig:
    """Hyper-parameters of SAM / ASAM.

    Attributes:
        rho: radius ``ρ >= 0`` (0.05; for CIFAR-10 [spec 09 baselines]).
        shift: ASAM's ``η`` in ``T = diag(|θ| + η)`` (0.01, Kwon et al. 2021): a shift that keeps
            ``T`` away from zero, not a step size.
    """

    rho: float = 0.05
    shift: float = 0.01

    def __post_init__(self) -> None:
        require_positive("rho", self.rho, allow_zero=True)
        require_positive("shift", self.shift, allow_zero=True)


_SAM = SAMConfig()


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class StepResult:
    """One optimizer step.

    Attributes:
        theta: the new parameters.
        buffer: the new momentum buffer.
        gradient: the gradient handed to the base optimizer.
        delta: the perturbation used (``δ*`` or ``ε``; zeros for a plain step).
        loss: the labeled loss at the old ``θ``.
        inconsistency: ``K_X(θ, δ*)`` at the old ``θ`` (0 for SAM/ASAM).
    """

    theta: FloatArray
    buffer: FloatArray
    gradient: FloatArray
    delta: FloatArray
    loss: float
    inconsistency: float


def _sgd(
    th: FloatArray, grad: FloatArray, buffer: FloatArray, config: SGDConfig
) -> tuple[FloatArray, FloatArray]:
    new_buffer = config.momentum * buffer + grad + config.weight_decay * th
    return th - config.learning_rate * new_buffer, new_buffer


def _buffer(mod: SoftmaxModel, buffer: object | None) -> FloatArray:
    if buffer is None:
        return np.zeros(mod.n_params)
    return _theta(mod, buffer, "buffer")


def _cfg(value: object, kind: type[object], name: str) -> None:
    if not isinstance(value, kind):
        raise TypeError(f"{name}: expected a {kind.__name__}, got {type(value).__name__}")


def sgd_step(
    theta: ArrayLike, gradient: ArrayLike, buffer: object | None = None, *, config: SGDConfig
) -> tuple[FloatArray, FloatArray]:
    """One SGD-with-momentum step (the base optimizer), PyTorch convention.

    ``b <- μ b + (g + λ θ)``; ``θ <- θ - η b`` (``b = 0`` initially, equal to PyTorch's first
    step ``b = g + λθ``).

    Args:
        theta: ``(P,)`` parameters.
        gradient: ``(P,)`` gradient.
        buffer: ``(P,)`` momentum buffer or ``None`` (zeros).
        config: :class:`SGDConfig`.

    Returns:
        ``(theta, buffer)`` after the step.

    Raises:
        ValueError: shapes differ or non-finite input.

    References:
        Spec 09, section 3, "Baselines", SGD with momentum.

    Example:
        >>> sgd_step([1.0], [2.0], config=SGDConfig(learning_rate=0.5))[0].tolist()
        [0.0]
    """
    _cfg(config, SGDConfig, "config")
    th = as_float_array("theta", theta, ndim=1)
    grad = as_float_array("gradient", gradient, shape=th.shape)
    buf = np.zeros_like(th) if buffer is None else as_float_array("buffer", buffer, shape=th.shape)
    return _sgd(th, grad, buf, config)


def _kl_theta_grad(
    mod: SoftmaxModel, th: FloatArray, delta: FloatArray, x: FloatArray
) -> FloatArray:
    """``∇_θ K_X(θ, δ)`` with ``θ`` in both branches (``δ`` frozen)."""
    log_p = log_softmax(mod.logits(th, x), axis=1)
    log_q = log_softmax(mod.logits(th + delta, x), axis=1)
    p, q = np.exp(log_p), np.exp(log_q)
    ell = log_p - log_q
    g0 = p * (ell - np.sum(p * ell, axis=1, keepdims=True))  # (diag p - p pᵀ) ℓ
    out: FloatArray = (
        np.einsum("icp,ic->p", mod.jacobian(th, x), g0)
        + np.einsum("icp,ic->p", mod.jacobian(th + delta, x), q - p)
    ) / x.shape[0]
    return out


def iam_d_objective(
    model: SoftmaxModel,
    theta: ArrayLike,
    inputs: ArrayLike,
    targets: ArrayLike,
    unlabeled: ArrayLike,
    delta: ArrayLike,
    *,
    beta: float,
) -> tuple[float, FloatArray]:
    """IAM-D's total loss ``L(θ) + β K_{X_u}(θ, δ*)`` and its gradient, ``δ*`` frozen.

    ``θ`` enters both branches of the KL (``p_θ`` and ``p_{θ+δ*}``).

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` labeled batch.
        targets: ``(n,)`` labels or ``(n, C)`` probability rows.
        unlabeled: ``(m, d)`` batch ``X_u`` for the inconsistency term.
        delta: ``(P,)`` frozen ``δ*``.
        beta: ``β >= 0``.

    Returns:
        ``(total, gradient)``.

    Raises:
        ValueError: wrong shapes, non-finite input, ``beta < 0``.

    References:
        Spec 09, section 3, A2, step 2 [code: ``IAM_D``].

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=1, n_classes=2)
        >>> total, _ = iam_d_objective(m, np.zeros(4), [[1.0]], np.array([0]), [[1.0]],
        ...                            np.zeros(4), beta=1.0)
        >>> total == math.log(2.0)
        True
    """
    mod = _model(model)
    th = _theta(mod, theta)
    x = _inputs(mod, inputs)
    t = _targets(mod, targets, x.shape[0])
    xu = _inputs(mod, unlabeled, "unlabeled")
    dl = _theta(mod, delta, "delta")
    b = require_positive("beta", beta, allow_zero=True)
    total = _ce(mod, th, x, t) + b * max(0.0, _kl(mod, th, dl, xu))
    grad = _ce_grad(mod, th, x, t) + b * _kl_theta_grad(mod, th, dl, xu)
    return total, grad


def iam_d(
    model: SoftmaxModel,
    theta: ArrayLike,
    inputs: ArrayLike,
    targets: ArrayLike,
    unlabeled: ArrayLike,
    *,
    rng: np.random.Generator,
    config: IAMConfig,
    optimizer: SGDConfig,
    buffer: object | None = None,
) -> StepResult:
    """One IAM-D step: ``min_θ L(θ) + β S_ρ(θ; X_u)`` (direct regularisation).

    1. ``δ* <- A1(θ, X_u, ρ, K, σ_n)`` (then frozen); 2. ``g = ∇_θ [L(θ) + β K_{X_u}(θ, δ*)]``
    with ``θ`` in both KL branches; 3. ``θ <- SGD(θ, g)``.

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` labeled batch.
        targets: ``(n,)`` labels or ``(n, C)`` probability rows.
        unlabeled: ``(m, d)`` batch ``X_u`` (any inputs; labels never needed).
        rng: random generator (A1's noise start).
        config: :class:`IAMConfig` (``rho > 0`` required).
        optimizer: :class:`SGDConfig` of the base optimizer.
        buffer: momentum buffer or ``None``.

    Returns:
        :class:`StepResult`.

    Raises:
        ValueError: wrong shapes, non-finite input, ``config.rho == 0``.
        TypeError: wrong config or rng types.

    References:
        Spec 09, section 3, A2 [code: ``IAM_D``]; the defaults of :class:`IAMConfig` are the code's.

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=2, n_classes=2)
        >>> r = iam_d(m, np.zeros(6), np.eye(2), np.array([0, 1]), np.eye(2),
        ...           rng=np.random.default_rng(0), config=IAMConfig(), optimizer=SGDConfig())
        >>> r.theta.shape
        (6,)
    """
    mod = _model(model)
    _cfg(config, IAMConfig, "config")
    _cfg(optimizer, SGDConfig, "optimizer")
    require_generator("rng", rng)
    th = _theta(mod, theta)
    x = _inputs(mod, inputs)
    t = _targets(mod, targets, x.shape[0])
    xu = _inputs(mod, unlabeled, "unlabeled")
    buf = _buffer(mod, buffer)
    if config.rho <= 0.0:
        raise ValueError(f"config.rho: expected a number > 0 for IAM-D, got {config.rho!r}")
    xi = rng.standard_normal(mod.n_params)
    est = _ascent(mod, th, xu, xi, config.rho, config.steps, config.noise_scale)
    delta = np.array(est.delta)
    kl = max(0.0, _kl(mod, th, delta, xu))
    grad = _ce_grad(mod, th, x, t) + config.beta * _kl_theta_grad(mod, th, delta, xu)
    new_theta, new_buf = _sgd(th, grad, buf, optimizer)
    return StepResult(
        theta=readonly(new_theta),
        buffer=readonly(new_buf),
        gradient=readonly(grad),
        delta=readonly(delta),
        loss=_ce(mod, th, x, t),
        inconsistency=kl,
    )


def iam_s(
    model: SoftmaxModel,
    theta: ArrayLike,
    inputs: ArrayLike,
    targets: ArrayLike,
    *,
    rng: np.random.Generator,
    config: IAMConfig,
    optimizer: SGDConfig,
    buffer: object | None = None,
) -> StepResult:
    """One IAM-S step: a SAM-style step along the inconsistency direction.

    1. ``δ* <- A1(θ, X, ρ, K, σ_n)`` on the training inputs (labels unused);
    2. ``g = ∇_θ L(θ + δ*)``; 3. ``θ <- SGD(θ, g)``.  No ``β``.  ``ρ = 0`` gives the base step.

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` labeled batch (also the inconsistency batch).
        targets: ``(n,)`` labels or ``(n, C)`` probability rows.
        rng: random generator (A1's noise start; drawn even when ``ρ = 0``).
        config: :class:`IAMConfig` (``beta`` is ignored).
        optimizer: :class:`SGDConfig`.
        buffer: momentum buffer or ``None``.

    Returns:
        :class:`StepResult`.

    Raises:
        ValueError: wrong shapes or non-finite input.
        TypeError: wrong config or rng types.

    References:
        Spec 09, section 3, A3 [code: ``IAM_S.step``].  Variant: plain ``step`` (no sign
        alignment, no clipping), the library default of the spec.

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=2, n_classes=2)
        >>> r = iam_s(m, np.zeros(6), np.eye(2), np.array([0, 1]),
        ...           rng=np.random.default_rng(0), config=IAMConfig(), optimizer=SGDConfig())
        >>> round(float(np.linalg.norm(r.delta)), 12)
        0.05
    """
    mod = _model(model)
    _cfg(config, IAMConfig, "config")
    _cfg(optimizer, SGDConfig, "optimizer")
    require_generator("rng", rng)
    th = _theta(mod, theta)
    x = _inputs(mod, inputs)
    t = _targets(mod, targets, x.shape[0])
    buf = _buffer(mod, buffer)
    xi = rng.standard_normal(mod.n_params)
    if config.rho > 0.0:
        est = _ascent(mod, th, x, xi, config.rho, config.steps, config.noise_scale)
        delta = np.array(est.delta)
    else:
        delta = np.zeros(mod.n_params)
    kl = max(0.0, _kl(mod, th, delta, x))
    grad = _ce_grad(mod, th + delta, x, t)
    new_theta, new_buf = _sgd(th, grad, buf, optimizer)
    return StepResult(
        theta=readonly(new_theta),
        buffer=readonly(new_buf),
        gradient=readonly(grad),
        delta=readonly(delta),
        loss=_ce(mod, th, x, t),
        inconsistency=kl,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class IAMDEConfig:
    """Hyper-parameters of IAM-DE (single-backward IAM-D) [code ``IAM_DE``].

    Attributes:
        rho: radius ``ρ > 0`` (0.05 [code]).
        beta: weight ``β >= 0`` (1.0 [code]).
        noise_scale: ``σ`` of the (re-)initial ``δ = σ ξ / sqrt(P)`` (0.1 [code, ``IAM_DE``]).
        delta_ema: ``μ_δ in [0, 1)`` (0.0); the next ``δ`` is ``μ_δ δ + (1 - μ_δ) ρ ĝ``.  0 is
            the spec's update ``δ <- ρ ∇_δ / ||∇_δ||`` (our default); the stored code version
            uses 0.9.
    """

    rho: float = 0.05
    beta: float = 1.0
    noise_scale: float = 0.1
    delta_ema: float = 0.0

    def __post_init__(self) -> None:
        require_positive("rho", self.rho)
        require_positive("beta", self.beta, allow_zero=True)
        require_positive("noise_scale", self.noise_scale, allow_zero=True)
        ema = require_positive("delta_ema", self.delta_ema, allow_zero=True)
        if ema >= 1.0:
            raise ValueError(f"delta_ema: expected a number in [0, 1), got {ema!r}")


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class IAMDEStepResult:
    """One IAM-DE step.

    Attributes:
        theta: the new parameters.
        buffer: the new momentum buffer.
        gradient: ``∇_θ [L(θ) + β K_{X_u}(θ, s δ)]`` handed to the base optimizer.
        delta: the perturbation used, ``s δ``.
        next_delta: the state ``δ`` for the next step.
        sign: ``s in {-1, +1}``.
        loss: the labeled loss at the old ``θ``.
        inconsistency: ``K_{X_u}(θ, s δ)`` at the old ``θ``.
        zero_gradient: ``∇_δ`` was exactly zero (``next_delta`` is then zero in
            :func:`iam_de_step`; :func:`iam_de` re-initialises it with noise, as the code does).
    """

    theta: FloatArray
    buffer: FloatArray
    gradient: FloatArray
    delta: FloatArray
    next_delta: FloatArray
    sign: int
    loss: float
    inconsistency: float
    zero_gradient: bool


def _sign(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value not in (-1, 1):
        raise ValueError(f"sign: expected -1 or +1, got {value!r}")
    return int(value)


def _iam_de_core(
    mod: SoftmaxModel,
    th: FloatArray,
    x: FloatArray,
    t: FloatArray,
    xu: FloatArray,
    delta: FloatArray,
    sign: int,
    config: IAMDEConfig,
    optimizer: SGDConfig,
    buf: FloatArray,
) -> IAMDEStepResult:
    used = sign * delta  # θ ± δ, sign drawn per step [code]
    grad = _ce_grad(mod, th, x, t) + config.beta * _kl_theta_grad(mod, th, used, xu)
    g_delta = config.beta * sign * _kl_grad(mod, th, used, xu)  # ∇_δ of the same total loss
    size = float(np.linalg.norm(g_delta))
    zero = size == 0.0
    if zero:
        nxt = np.zeros_like(delta)
    else:
        nxt = config.delta_ema * delta + (1.0 - config.delta_ema) * config.rho * g_delta / size
    new_theta, new_buf = _sgd(th, grad, buf, optimizer)
    return IAMDEStepResult(
        theta=readonly(new_theta),
        buffer=readonly(new_buf),
        gradient=readonly(grad),
        delta=readonly(used),
        next_delta=readonly(nxt),
        sign=sign,
        loss=_ce(mod, th, x, t),
        inconsistency=max(0.0, _kl(mod, th, used, xu)),
        zero_gradient=zero,
    )


def iam_de_step(
    model: SoftmaxModel,
    theta: ArrayLike,
    inputs: ArrayLike,
    targets: ArrayLike,
    unlabeled: ArrayLike,
    delta: ArrayLike,
    *,
    sign: int,
    config: IAMDEConfig,
    optimizer: SGDConfig,
    buffer: object | None = None,
) -> IAMDEStepResult:
    """One IAM-DE step from a given state ``δ`` and sign ``s`` (deterministic core).

    ``d = s δ``; one backward of ``total(θ, δ) = L(θ) + β K_{X_u}(θ, s δ)`` (``θ`` in both KL
    branches) gives ``g_θ`` and ``g_δ = β s ∇_d K_{X_u}(θ, d)``; then ``θ <- SGD(θ, g_θ)`` and
    ``δ <- μ_δ δ + (1 - μ_δ) ρ g_δ / ||g_δ||`` (``μ_δ = 0``: the spec's ``ρ g_δ / ||g_δ||``).
    Near ``δ = 0``, ``s ∇K(θ, s δ) = F δ + O(||δ||²)``: the state follows a power iteration on the
    Fisher across steps, one forward-backward per step.

    Symbols: ``s`` is ``sign``, ``ρ, β, μ_δ`` are ``config.rho, config.beta, config.delta_ema``.

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` labeled batch.
        targets: ``(n,)`` labels or ``(n, C)`` probability rows.
        unlabeled: ``(m, d)`` batch ``X_u`` (labels never needed).
        delta: ``(P,)`` the stored ``δ``.
        sign: ``-1`` or ``+1``.
        config: :class:`IAMDEConfig`.
        optimizer: :class:`SGDConfig` of the base optimizer.
        buffer: momentum buffer or ``None``.

    Returns:
        :class:`IAMDEStepResult` (``next_delta`` zero and ``zero_gradient`` set when ``g_δ = 0``,
        e.g. ``β = 0``).

    Raises:
        ValueError: wrong shapes, non-finite input, ``sign`` not ``±1``.
        TypeError: wrong config types.

    References:
        Spec 09, section 3, A2 "Variant IAM-DE" [code ``IAM_DE``].  Variant: exact normalisation
        (the code adds 1e-12 inside the square root of ``||g_δ||²``), ``μ_δ = 0`` by default.

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=2, n_classes=2)
        >>> th = init_params(m, rng=np.random.default_rng(0))
        >>> r = iam_de_step(m, th, np.eye(2), np.array([0, 1]), np.eye(2), np.linspace(-0.01, 0.01, 6),
        ...                 sign=-1, config=IAMDEConfig(), optimizer=SGDConfig())
        >>> round(float(np.linalg.norm(r.next_delta)), 12)
        0.05
    """
    mod = _model(model)
    _cfg(config, IAMDEConfig, "config")
    _cfg(optimizer, SGDConfig, "optimizer")
    th = _theta(mod, theta)
    x = _inputs(mod, inputs)
    t = _targets(mod, targets, x.shape[0])
    xu = _inputs(mod, unlabeled, "unlabeled")
    dl = _theta(mod, delta, "delta")
    s = _sign(sign)
    buf = _buffer(mod, buffer)
    return _iam_de_core(mod, th, x, t, xu, dl, s, config, optimizer, buf)


def iam_de(
    model: SoftmaxModel,
    theta: ArrayLike,
    inputs: ArrayLike,
    targets: ArrayLike,
    unlabeled: ArrayLike,
    *,
    rng: np.random.Generator,
    config: IAMDEConfig,
    optimizer: SGDConfig,
    buffer: object | None = None,
    delta: object | None = None,
) -> IAMDEStepResult:
    """One IAM-DE step (single-backward IAM-D) with its random draws [code ``IAM_DE``].

    Draw order (as the code): the sign ``s = -1`` if ``rng.integers(0, 2) == 0`` else ``+1``;
    then, when ``delta`` is ``None`` (no state yet), ``δ = σ ξ / sqrt(P)``, ``ξ ~ N(0, I_P)``; run
    :func:`iam_de_step`; if ``∇_δ`` was exactly zero, the next ``δ`` is re-drawn as
    ``σ ξ' / sqrt(P)``.  Pass ``result.next_delta`` as ``delta`` to the next call.

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` labeled batch.
        targets: ``(n,)`` labels or ``(n, C)`` probability rows.
        unlabeled: ``(m, d)`` batch ``X_u``.
        rng: the random generator (sign, initial and re-initial noise).
        config: :class:`IAMDEConfig` (its defaults are the code's).
        optimizer: :class:`SGDConfig`.
        buffer: momentum buffer or ``None``.
        delta: the state ``δ`` from the previous step, or ``None`` (first step).

    Returns:
        :class:`IAMDEStepResult`.

    Raises:
        ValueError: wrong shapes or non-finite input.
        TypeError: wrong config or rng types.

    References:
        Spec 09, section 3, A2 "Variant IAM-DE" [code ``IAM_DE.step``]: 2 forwards + 1 backward.

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=2, n_classes=2)
        >>> rng = np.random.default_rng(0)
        >>> r = iam_de(m, np.zeros(6), np.eye(2), np.array([0, 1]), np.eye(2), rng=rng,
        ...            config=IAMDEConfig(), optimizer=SGDConfig())
        >>> r2 = iam_de(m, r.theta, np.eye(2), np.array([0, 1]), np.eye(2), rng=rng,
        ...             config=IAMDEConfig(), optimizer=SGDConfig(), delta=r.next_delta)
        >>> round(float(np.linalg.norm(r2.delta)), 12)
        0.05
    """
    mod = _model(model)
    _cfg(config, IAMDEConfig, "config")
    _cfg(optimizer, SGDConfig, "optimizer")
    require_generator("rng", rng)
    th = _theta(mod, theta)
    x = _inputs(mod, inputs)
    t = _targets(mod, targets, x.shape[0])
    xu = _inputs(mod, unlabeled, "unlabeled")
    buf = _buffer(mod, buffer)
    state = None if delta is None else _theta(mod, delta, "delta")
    sign = -1 if int(rng.integers(0, 2)) == 0 else 1  # IAM_DE: randint(0, 2) == 0 -> negate
    scale = config.noise_scale / math.sqrt(mod.n_params)
    if state is None:
        state = scale * rng.standard_normal(mod.n_params)
    out = _iam_de_core(mod, th, x, t, xu, state, sign, config, optimizer, buf)
    if not out.zero_gradient:
        return out
    return dataclasses.replace(out, next_delta=readonly(scale * rng.standard_normal(mod.n_params)))


def sam_perturbation(
    theta: ArrayLike,
    gradient: ArrayLike,
    *,
    rho: float,
    adaptive: bool = False,
    shift: float = _SAM.shift,
) -> FloatArray:
    """SAM's ``ε = ρ g / (||g||₂ + 1e-12)`` or ASAM's ``ε = ρ T² g / (||T g||₂ + 1e-12)``,
    ``T = diag(|θ| + η)``.

    Args:
        theta: ``(P,)`` parameters (used by ASAM).
        gradient: ``(P,)`` gradient ``g``.
        rho: ``ρ >= 0``.
        adaptive: ASAM instead of SAM.
        shift: ASAM's ``η >= 0`` in ``T``.

    Returns:
        ``(P,)`` perturbation (``||ε||₂ = ρ`` for SAM when ``g != 0``; ``||T⁻¹ε|| = ρ`` for ASAM).

    Raises:
        ValueError: shapes differ, non-finite input, ``rho < 0`` or ``shift < 0``.

    References:
        Spec 09, section 3, "Baselines": SAM (Foret et al. 2021), ASAM (Kwon et al. 2021).
        Variant: canonical ASAM with ``η`` exposed (not the repository's ``adaptive=True``).

    Example:
        >>> sam_perturbation([1.0, 1.0], [3.0, 4.0], rho=1.0).round(12).tolist()
        [0.6, 0.8]
    """
    th = as_float_array("theta", theta, ndim=1)
    g = as_float_array("gradient", gradient, shape=th.shape)
    radius = require_positive("rho", rho, allow_zero=True)
    offset = require_positive("shift", shift, allow_zero=True)
    if not adaptive:
        out: FloatArray = radius * g / (float(np.linalg.norm(g)) + NORM_EPS)
        return out
    scale = np.abs(th) + offset
    out = radius * scale**2 * g / (float(np.linalg.norm(scale * g)) + NORM_EPS)
    return out


def _sam_step(
    model: SoftmaxModel,
    theta: object,
    inputs: object,
    targets: object,
    config: SAMConfig,
    optimizer: SGDConfig,
    buffer: object | None,
    adaptive: bool,
) -> StepResult:
    mod = _model(model)
    _cfg(config, SAMConfig, "config")
    _cfg(optimizer, SGDConfig, "optimizer")
    th = _theta(mod, theta)
    x = _inputs(mod, inputs)
    t = _targets(mod, targets, x.shape[0])
    buf = _buffer(mod, buffer)
    g = _ce_grad(mod, th, x, t)
    if adaptive:
        scale = np.abs(th) + config.shift
        eps = config.rho * scale**2 * g / (float(np.linalg.norm(scale * g)) + NORM_EPS)
    else:
        eps = config.rho * g / (float(np.linalg.norm(g)) + NORM_EPS)
    grad = _ce_grad(mod, th + eps, x, t)
    new_theta, new_buf = _sgd(th, grad, buf, optimizer)
    return StepResult(
        theta=readonly(new_theta),
        buffer=readonly(new_buf),
        gradient=readonly(grad),
        delta=readonly(eps),
        loss=_ce(mod, th, x, t),
        inconsistency=0.0,
    )


def sam(
    model: SoftmaxModel,
    theta: ArrayLike,
    inputs: ArrayLike,
    targets: ArrayLike,
    *,
    config: SAMConfig,
    optimizer: SGDConfig,
    buffer: object | None = None,
) -> StepResult:
    """One SAM step: ``g = ∇L(θ)``, ``ε = ρ g/(||g|| + 1e-12)``, ``θ <- SGD(θ, ∇L(θ + ε))``.

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` batch.
        targets: ``(n,)`` labels or ``(n, C)`` probability rows.
        config: :class:`SAMConfig` (``shift`` ignored).
        optimizer: :class:`SGDConfig`.
        buffer: momentum buffer or ``None``.

    Returns:
        :class:`StepResult` (``delta`` is ``ε``).

    Raises:
        ValueError: wrong shapes or non-finite input.
        TypeError: wrong config types.

    References:
        Spec 09, section 3, "Baselines", SAM (Foret et al. 2021) [code ``SAM``, davda54/sam].

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=1, n_classes=2)
        >>> r = sam(m, np.zeros(4), [[1.0]], np.array([0]), config=SAMConfig(rho=0.1),
        ...         optimizer=SGDConfig())
        >>> round(float(np.linalg.norm(r.delta)), 12)
        0.1
    """
    return _sam_step(model, theta, inputs, targets, config, optimizer, buffer, adaptive=False)


def asam(
    model: SoftmaxModel,
    theta: ArrayLike,
    inputs: ArrayLike,
    targets: ArrayLike,
    *,
    config: SAMConfig,
    optimizer: SGDConfig,
    buffer: object | None = None,
) -> StepResult:
    """One ASAM step: ``T = diag(|θ| + η)``, ``ε = ρ T² g / ||T g||``, then as SAM.

    Args:
        model: the model.
        theta: ``(P,)`` parameters.
        inputs: ``(n, d)`` batch.
        targets: ``(n,)`` labels or ``(n, C)`` probability rows.
        config: :class:`SAMConfig` (typical ``ρ`` 0.5–2.0).
        optimizer: :class:`SGDConfig`.
        buffer: momentum buffer or ``None``.

    Returns:
        :class:`StepResult` (``delta`` is ``ε``).

    Raises:
        ValueError: wrong shapes or non-finite input.
        TypeError: wrong config types.

    References:
        Spec 09, section 3, "Baselines", ASAM (Kwon et al. 2021).  Variant: canonical ASAM
        (not the repository's ``adaptive=True`` with ``η = 0``).

    Example:
        >>> m = SoftmaxModel(kind="linear", n_inputs=1, n_classes=2)
        >>> r = asam(m, np.ones(4), [[1.0]], np.array([0]), config=SAMConfig(rho=1.0, shift=0.0),
        ...          optimizer=SGDConfig())
        >>> round(float(np.linalg.norm(r.delta)), 9)
        1.0
    """
    return _sam_step(model, theta, inputs, targets, config, optimizer, buffer, adaptive=True)
