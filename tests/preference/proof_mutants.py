"""Mutant table of the preference theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from reference import preference as pf
from reference._arrays import FloatArray
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def regret_p_q_confused(loss: Any, p: object, q: object) -> float:
    """``p·ℓ(q) - q·ℓ(q)``: the second term evaluated at the prediction."""
    pp, qq = np.asarray(p, dtype=np.float64), np.asarray(q, dtype=np.float64)
    return float(pp @ loss(qq) - qq @ loss(qq))


def bregman_wrong_gradient(loss: Any, p: object, q: object) -> float:
    """``φ(p) - φ(q) - ℓ(q)·(p - q)``: the gradient ``G = -ℓ(q)`` with its sign lost."""
    pp, qq = np.asarray(p, dtype=np.float64), np.asarray(q, dtype=np.float64)
    phi_p, phi_q = -float(pp @ loss(pp)), -float(qq @ loss(qq))
    return phi_p - phi_q - float(loss(qq) @ (pp - qq))


def expected_loss_mixed(loss: Any, p: object, q: object) -> FloatArray:
    """``p ℓ_1(q) + (1 - p) ℓ_0(p)``: the second term at the truth."""
    pp, qq = np.asarray(p, dtype=np.float64), np.asarray(q, dtype=np.float64)
    out: FloatArray = pp * loss.ell1(qq) + (1 - pp) * loss.ell0(pp)
    return out


def dpo_no_beta(*args: Any, beta: float = 0.1, **kwargs: Any) -> Any:
    """β dropped (the log-ratio margin used unscaled)."""
    return pf.dpo_loss(*args, beta=1.0, **kwargs)


def dpo_inverse_beta(*args: Any, beta: float = 0.1, **kwargs: Any) -> Any:
    """``1/β`` for ``β`` (the temperature read as its inverse; equal at β = 1)."""
    return pf.dpo_loss(*args, beta=1.0 / beta, **kwargs)


def dpo_margin_ignored(*args: Any, margin: float = 0.0, **kwargs: Any) -> Any:
    """The margin ``γ`` accepted but not used."""
    return pf.dpo_loss(*args, **kwargs)


def dpo_log_sigmoid(
    policy_logp_w: Any,
    policy_logp_l: Any,
    ref_logp_w: Any,
    ref_logp_l: Any,
    *,
    beta: float = 0.1,
    margin: float = 0.0,
    **kwargs: Any,
) -> float:
    """``-mean log σ(βΔ - γ)`` with ``σ`` evaluated first (``log 0`` once ``βΔ - γ < -745``)."""
    delta = (np.asarray(policy_logp_w) - np.asarray(ref_logp_w)) - (
        np.asarray(policy_logp_l) - np.asarray(ref_logp_l)
    )
    with np.errstate(divide="ignore", over="ignore"):
        return float(-np.mean(np.log(1.0 / (1.0 + np.exp(-(beta * delta - margin))))))


def optimal_policy_inverse_beta(reward: Any, reference: Any, *, beta: float, **kwargs: Any) -> Any:
    """``1/β`` for ``β`` in the optimal policy (``π_ref e^{rβ}``)."""
    return pf.optimal_policy(reward, reference, beta=1.0 / beta, **kwargs)


def embed_swapped(*args: Any, **kwargs: Any) -> Any:
    """``ℓ_0`` and ``ℓ_1`` swapped in the embedded loss."""
    loss = pf.embed_psi(*args, **kwargs)
    return pf.EmbeddedLoss(ell0=loss.ell1, ell1=loss.ell0, closed=loss.closed)


def representable_reversed(P: ArrayLike, **kwargs: Any) -> tuple[bool, FloatArray]:
    """Recovers utilities with the order reversed (``P[j, i]`` read for ``P[i, j]``)."""
    ok, u = pf.representable(P, **kwargs)
    return ok, -np.asarray(u)


def choice_matrix_transposed(utilities: ArrayLike, link: Any) -> FloatArray:
    """``P[i, j] = F(u_j - u_i)`` (the difference taken the other way)."""
    out: FloatArray = pf.choice_matrix(utilities, link).T.copy()
    return out


def lottery_matrix_reversed_weights(P: object, alpha: float) -> FloatArray:
    """The column lottery weighted ``(1 - α, α)`` instead of ``(α, 1 - α)``."""
    m = np.asarray(P, dtype=np.float64)
    k = m.shape[0]
    w_row, w_col = (alpha, 1 - alpha), (1 - alpha, alpha)
    out = np.zeros((k * k, k * k))
    for i in range(k * k):
        a = divmod(i, k)
        for j in range(k * k):
            b = divmod(j, k)
            out[i, j] = sum(w_row[s] * w_col[t] * m[a[s], b[t]] for s in range(2) for t in range(2))
    return out


def rao_kupper_squared(theta: float = 1.0) -> Any:
    """``θ²`` for ``θ`` (the tie parameter on the wrong scale)."""
    return pf.rao_kupper_link(theta**2)


def optimal_policy_no_reference(
    reward: ArrayLike, reference: ArrayLike, **kwargs: Any
) -> FloatArray:
    """The reference policy dropped: ``π ∝ exp(r/β)`` for the log loss."""
    k = np.asarray(reward).size
    return pf.optimal_policy(reward, np.full(k, 1.0 / k), **kwargs)


def implied_link_flipped(psi: Any) -> Any:
    """``F_ψ(-z)``: ``ψ'(-z)/(ψ'(z) + ψ'(-z))``."""
    link = pf.implied_link(psi)
    return lambda z: link(-np.asarray(z))


def preference_loss_swapped(
    u_w: ArrayLike, u_l: ArrayLike, psi: Any = pf.SOFTPLUS, **kwargs: Any
) -> float:
    """``ψ(u_w - u_l)``: chosen and rejected swapped."""
    return pf.preference_loss(u_l, u_w, psi, **kwargs)


def implicit_reward_no_beta(
    policy: ArrayLike, reference: ArrayLike, *, beta: float = 0.1, loss: str = "log"
) -> FloatArray:
    """The implicit reward with ``β`` forgotten (``β = 1``)."""
    del beta
    return pf.implicit_reward(policy, reference, beta=1.0, loss=loss)


def implicit_reward_brier_no_norms(
    policy: ArrayLike, reference: ArrayLike, *, beta: float = 0.1, loss: str = "log"
) -> FloatArray:
    """Brier's implicit reward without the context term ``β(‖π_ref‖² - ‖π‖²)``."""
    if loss != "brier":
        return pf.implicit_reward(policy, reference, beta=beta, loss=loss)
    out: FloatArray = (
        2.0
        * beta
        * (np.asarray(policy, dtype=np.float64) - np.asarray(reference, dtype=np.float64))
    )
    return out


def train_no_margin(*args: Any, margin: float = 0.0, **kwargs: Any) -> Any:
    """The margin γ forgotten (the loss ψ(u_l - u_w) without + γ)."""
    del margin
    return pf.train_tabular_policy(*args, **kwargs)


def train_rewards_without_beta(*args: Any, beta: float = 0.1, **kwargs: Any) -> Any:
    """Trained with β, but the reported rewards are the log-ratios without the factor β."""
    fit = pf.train_tabular_policy(*args, beta=beta, **kwargs)
    return pf.TabularFit(
        logits=fit.logits, rewards=fit.rewards / beta, losses=fit.losses, steps=fit.steps
    )


def train_tenth_of_steps(*args: Any, steps: int = 2000, **kwargs: Any) -> Any:
    """The loop runs ``steps // 10`` Adam steps (an epoch count read as a step count)."""
    return pf.train_tabular_policy(*args, steps=max(1, steps // 10), **kwargs)


def train_no_bias_correction(
    pairs: ArrayLike,
    n_contexts: int,
    n_responses: int,
    psi: Any = pf.SOFTPLUS,
    *,
    beta: float = 0.1,
    steps: int = 2000,
    learning_rate: float = 1e-2,
    margin: float = 0.0,
) -> Any:
    """Adam with the first moment's bias correction forgotten and β2 = 0.99 (a loose copy)."""
    theta = np.zeros((n_contexts, n_responses))
    log_ref = np.full(theta.shape, -np.log(n_responses))
    m, v = np.zeros_like(theta), np.zeros_like(theta)
    for t in range(1, steps + 1):
        _, grad = pf.tabular_loss_and_grad(
            theta, pairs, psi, beta=beta, log_ref=log_ref, margin=margin
        )
        m = 0.9 * m + 0.1 * grad
        v = 0.99 * v + 0.01 * grad * grad
        theta = theta - learning_rate * m / (np.sqrt(v / (1 - 0.99**t)) + 1e-8)
    shifted = theta - theta.max(axis=1, keepdims=True)
    log_pi = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return pf.TabularFit(
        logits=theta, rewards=beta * (log_pi - log_ref), losses=np.zeros(1), steps=steps
    )


def dpo_length_bonus(
    policy_logp_w: Any,
    policy_logp_l: Any,
    ref_logp_w: Any,
    ref_logp_l: Any,
    *,
    beta: float = 0.1,
    psi: pf.Psi = pf.SOFTPLUS,
    margin: float = 0.0,
    length_w: Any = None,
    length_l: Any = None,
    length_coef: float = 0.0,
) -> float:
    """R-DPO with the length term's sign flipped: utilities ``u + α_len |y|`` (a bonus for
    long answers instead of a penalty)."""
    u_w = beta * (np.asarray(policy_logp_w) - np.asarray(ref_logp_w))
    u_l = beta * (np.asarray(policy_logp_l) - np.asarray(ref_logp_l))
    if length_coef > 0:
        u_w = u_w + length_coef * np.asarray(length_w)
        u_l = u_l + length_coef * np.asarray(length_l)
    return pf.preference_loss(u_w, u_l, psi, margin=margin)


def _m(name: str, why: str, algorithm: str, target: str, catches: tuple[str, ...]) -> ProofMutant:
    return ProofMutant(
        family="preference",
        name=name,
        why=why,
        algorithm=f"reference.preference:{algorithm}",
        target=f"{__name__}:{target}",
        catches=catches,
    )


MUTANTS = (
    _m(
        "implicit_reward: β dropped",
        "the regularisation weight forgotten",
        "implicit_reward",
        "implicit_reward_no_beta",
        ("preference.a1_implicit_reward",),
    ),
    _m(
        "implicit_reward: Brier context term dropped",
        "2β(π - π_ref) only (a per-context constant, but part of the documented value)",
        "implicit_reward",
        "implicit_reward_brier_no_norms",
        ("preference.a1_implicit_reward",),
    ),
    _m(
        "regret: q·ℓ(q)",
        "the second term at the prediction",
        "regret",
        "regret_p_q_confused",
        ("preference.t1_bregman",),
    ),
    _m(
        "bregman: gradient sign",
        "G = ℓ(q) for -ℓ(q)",
        "bregman_divergence",
        "bregman_wrong_gradient",
        ("preference.t1_bregman",),
    ),
    _m(
        "expected_loss: ℓ_0(p)",
        "the second term at the truth",
        "expected_loss",
        "expected_loss_mixed",
        ("preference.t2_triptych",),
    ),
    _m("dpo: no beta", "the margin unscaled", "dpo_loss", "dpo_no_beta", ("preference.t3_dpo",)),
    _m(
        "dpo: inverse beta",
        "the temperature read as 1/β",
        "dpo_loss",
        "dpo_inverse_beta",
        ("preference.t3_dpo",),
    ),
    _m(
        "dpo: margin ignored",
        "γ accepted but not used",
        "dpo_loss",
        "dpo_margin_ignored",
        ("preference.t3_dpo",),
    ),
    _m(
        "dpo: log of sigmoid",
        "σ evaluated before the log (log 0 when saturated)",
        "dpo_loss",
        "dpo_log_sigmoid",
        ("preference.t3_dpo",),
    ),
    _m(
        "optimal_policy: inverse beta",
        "π_ref e^{rβ} for π_ref e^{r/β}",
        "optimal_policy",
        "optimal_policy_inverse_beta",
        ("preference.t8_optimal_policy",),
    ),
    _m(
        "embed_psi: ℓ_0, ℓ_1 swapped",
        "outcome labels swapped",
        "embed_psi",
        "embed_swapped",
        ("preference.t4_embedding",),
    ),
    _m(
        "representable: reversed",
        "utilities recovered with the sign flipped",
        "representable",
        "representable_reversed",
        ("preference.t5_representation",),
    ),
    _m(
        "choice_matrix: transposed",
        "F(u_j - u_i)",
        "choice_matrix",
        "choice_matrix_transposed",
        ("preference.t5_representation",),
    ),
    _m(
        "lottery_matrix: weights reversed",
        "(1 - α, α) for the column lottery",
        "lottery_matrix",
        "lottery_matrix_reversed_weights",
        ("preference.t6_abstention",),
    ),
    _m(
        "rao_kupper: θ²",
        "the tie parameter squared",
        "rao_kupper_link",
        "rao_kupper_squared",
        ("preference.t7_margin",),
    ),
    _m(
        "optimal_policy: no reference",
        "π_ref dropped",
        "optimal_policy",
        "optimal_policy_no_reference",
        ("preference.t8_optimal_policy",),
    ),
    _m(
        "implied_link: F(-z)",
        "the derivative ratio inverted",
        "implied_link",
        "implied_link_flipped",
        ("preference.t9_fisher",),
    ),
    _m(
        "preference_loss: swapped",
        "chosen and rejected swapped",
        "preference_loss",
        "preference_loss_swapped",
        ("preference.t9_fisher",),
    ),
    _m(
        "train_tabular_policy: margin forgotten",
        "the margin γ dropped from the loss (γ = 0.4 instance)",
        "train_tabular_policy",
        "train_no_margin",
        ("preference.a6_tabular_optimum",),
    ),
    _m(
        "train_tabular_policy: rewards without β",
        "the returned implicit rewards are log-ratios, β forgotten",
        "train_tabular_policy",
        "train_rewards_without_beta",
        ("preference.a6_tabular_optimum",),
    ),
    _m(
        "train_tabular_policy: steps // 10",
        "a tenth of the documented Adam steps (not converged)",
        "train_tabular_policy",
        "train_tenth_of_steps",
        ("preference.a6_tabular_optimum",),
    ),
    _m(
        "train_tabular_policy: loose Adam",
        "no first-moment bias correction and β2 = 0.99 (a loose copy of Adam)",
        "train_tabular_policy",
        "train_no_bias_correction",
        ("preference.a6_tabular_optimum",),
    ),
    _m(
        "dpo_loss: length bonus",
        "R-DPO adding alpha |y| to the utilities instead of subtracting it",
        "dpo_loss",
        "dpo_length_bonus",
        ("preference.dpo_family",),
    ),
)
