"""DPO's normative framework: proper losses, the ψ family of preference losses, human-choice models.

Paper: W. Zhou, S. Zhang, B. Magdalou, J. Lambert, E. Amid, R. Nock, A. Hard, "DPO Unchained: Your
Training Algorithm is Secretly Disentangled in Human Choice Theory (and its Loss' Convexity is
Dispensable)", ICML 2026, arXiv:2507.07855 (v4) — spec 07.  The paper's text was not retrievable;
theorem statements are those transcribed by a public audit ([quoted], v4 numbering: Thm 4.1-4.4,
Cor 4.5, Defs 3.1-3.4) and the rest is standard proper-loss / choice theory ([ours] in the spec).

Three layers:

* proper losses — binary ``(ℓ_1, ℓ_0)`` with canonical link ``H = ℓ_0 - ℓ_1`` and ``φ*(z) = ℓ_0(H⁻¹(z))``
  (:data:`LOG_LOSS`, :data:`BRIER_LOSS`, :data:`MATSUSHITA_LOSS`), multiclass losses and their regret
  (= a Bregman divergence, Thm 4.1);
* the preference-loss family ``mean ψ(u_l - u_w + γ)`` (spec 07, A2) with :func:`dpo_loss`, the ψ
  catalogue (:data:`SOFTPLUS` = DPO, :data:`SAVAGE` = σ², IPO, cDPO, hinge, ...), the implied link
  :func:`implied_link` and the embedding of any strictly increasing ψ (Thm 4.3, :func:`embed_psi`);
* choice models ``P[i, j] = F(u_i - u_j)`` (BTL, Thurstone, Rao-Kupper, Davidson), lotteries and the
  recovered axioms as predicates; the local choice structure (LCS) was not recovered and raises
  :class:`NotImplementedError`.

Convention: ``z = u_l - u_w`` (loser minus winner); DPO's ``Δ = -z``; ``loss = ψ(z + γ)``.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import integrate, optimize, special, stats

from reference._arrays import (
    FloatArray,
    as_float_array,
    readonly,
    require_int,
    require_positive,
    require_probability,
)
from reference._repr import summary_repr

__all__ = [
    "BRIER_LOSS",
    "LOG_LOSS",
    "MATSUSHITA_LOSS",
    "SAVAGE",
    "SIGMOID",
    "SOFTPLUS",
    "BinaryLoss",
    "ChoiceLink",
    "EmbeddedLoss",
    "Psi",
    "TabularFit",
    "abstention",
    "bregman_divergence",
    "brier_canonical_psi",
    "btl_link",
    "cdpo_psi",
    "choice_matrix",
    "davidson_link",
    "dpo_loss",
    "embed_psi",
    "expected_loss",
    "hinge_psi",
    "implicit_reward",
    "implied_link",
    "ipo_psi",
    "is_bearable",
    "local_choice_structure",
    "lottery_matrix",
    "matsushita_canonical_psi",
    "monotonicity_violation",
    "multiclass_brier_loss",
    "multiclass_log_loss",
    "optimal_policy",
    "preference_loss",
    "rao_kupper_link",
    "regret",
    "representable",
    "tabular_loss_and_grad",
    "thurstone_link",
    "train_tabular_policy",
    "zero_abstention_graph",
]

Scalar = Callable[[FloatArray], FloatArray]


def _sigmoid(z: FloatArray) -> FloatArray:
    out: FloatArray = special.expit(z)
    return out


def _softplus(z: FloatArray) -> FloatArray:
    out: FloatArray = np.logaddexp(0.0, z)
    return out


# ------------------------------------------------------------------------------ binary losses
@dataclass(frozen=True, slots=True, kw_only=True)
class BinaryLoss:
    """A strictly proper binary loss with its canonical link (spec 07, Section 2 table, Def 3.1).

    Attributes:
        name: catalogue name.
        ell1: ``ℓ_1(q)``, the loss when outcome 1 happens and q was predicted.
        ell0: ``ℓ_0(q)``.
        link: canonical link ``H(q) = ℓ_0(q) - ℓ_1(q)``.
        inverse_link: ``H⁻¹(z)``.
        conjugate: ``φ*(z) = ℓ_0(H⁻¹(z))``, the canonical preference loss ψ_can.
        symmetric: ``ℓ_1(q) = ℓ_0(1 - q)``.
    """

    name: str
    ell1: Scalar
    ell0: Scalar
    link: Scalar
    inverse_link: Scalar
    conjugate: Scalar
    symmetric: bool = True


def _brier_conjugate(z: FloatArray) -> FloatArray:
    out: FloatArray = np.where(z <= -1.0, 0.0, np.where(z >= 1.0, z, (1.0 + z) ** 2 / 4.0))
    return out


LOG_LOSS = BinaryLoss(
    name="log",
    ell1=lambda q: -np.log(q),
    ell0=lambda q: -np.log1p(-q),
    link=lambda q: np.log(q) - np.log1p(-q),
    inverse_link=_sigmoid,
    conjugate=_softplus,
)
BRIER_LOSS = BinaryLoss(
    name="brier",
    ell1=lambda q: (1.0 - q) ** 2,
    ell0=lambda q: q**2,
    link=lambda q: 2.0 * q - 1.0,
    inverse_link=lambda z: np.clip((1.0 + z) / 2.0, 0.0, 1.0),
    conjugate=_brier_conjugate,
)
MATSUSHITA_LOSS = BinaryLoss(
    name="matsushita",
    ell1=lambda q: np.sqrt((1.0 - q) / q),
    ell0=lambda q: np.sqrt(q / (1.0 - q)),
    link=lambda q: (2.0 * q - 1.0) / np.sqrt(q * (1.0 - q)),
    inverse_link=lambda z: 0.5 * (1.0 + z / np.sqrt(4.0 + z**2)),
    conjugate=lambda z: (z + np.sqrt(4.0 + z**2)) / 2.0,
)


def _probabilities(name: str, value: object, *, open_interval: bool = True) -> FloatArray:
    arr = as_float_array(name, value, min_size=0)
    low, high = (0.0, 1.0)
    bad = (arr <= low) | (arr >= high) if open_interval else (arr < low) | (arr > high)
    if bool(np.any(bad)):
        interval = "(0, 1)" if open_interval else "[0, 1]"
        raise ValueError(
            f"{name}: expected probabilities in {interval}, got range "
            f"[{float(arr.min())!r}, {float(arr.max())!r}]"
        )
    return arr


def expected_loss(loss: BinaryLoss, p: ArrayLike, q: ArrayLike) -> FloatArray:
    """``L(p, q) = p ℓ_1(q) + (1 - p) ℓ_0(q)`` elementwise (spec 07, Section 2).

    Args:
        loss: a :class:`BinaryLoss`.
        p: true probabilities of outcome 1 in [0, 1].
        q: predictions in (0, 1) (broadcast with ``p``).

    Raises:
        ValueError: probabilities out of range or non-finite.

    Example:
        >>> round(float(expected_loss(BRIER_LOSS, 0.3, 0.3)), 12)  # Bayes risk p(1 - p)
        0.21
    """
    pp = _probabilities("p", p, open_interval=False)
    qq = _probabilities("q", q)
    out: FloatArray = pp * loss.ell1(qq) + (1.0 - pp) * loss.ell0(qq)
    return out


# --------------------------------------------------------------------------- multiclass layer
def _simplex_rows(name: str, value: object, *, interior: bool) -> FloatArray:
    arr = as_float_array(name, value)
    if arr.ndim not in (1, 2):
        raise ValueError(
            f"{name}: expected a 1-D or 2-D array of distributions, got shape {arr.shape}"
        )
    low = float(arr.min())
    if (interior and low <= 0.0) or low < 0.0:
        raise ValueError(
            f"{name}: expected {'positive' if interior else 'non-negative'} entries, got min {low!r}"
        )
    sums = arr.sum(axis=-1)
    if float(np.max(np.abs(sums - 1.0))) > 1e-9:
        raise ValueError(
            f"{name}: expected rows summing to 1, got sums up to {float(np.max(np.abs(sums - 1.0)))!r} off"
        )
    return arr


def multiclass_log_loss(q: object) -> FloatArray:
    """``ℓ(q) = (-log q_1, ..., -log q_n)`` for ``q`` ``(n,)`` in the open simplex.

    Raises:
        ValueError: ``q`` not a positive distribution.
    """
    out: FloatArray = -np.log(_simplex_rows("q", q, interior=True))
    return out


def multiclass_brier_loss(q: object) -> FloatArray:
    """``ℓ_y(q) = ‖q - e_y‖² = ‖q‖² - 2 q_y + 1`` for ``q`` ``(n,)`` in the simplex.

    Raises:
        ValueError: ``q`` not a distribution.
    """
    qq = _simplex_rows("q", q, interior=False)
    out: FloatArray = np.sum(qq**2, axis=-1, keepdims=True) - 2.0 * qq + 1.0
    return out


MulticlassLoss = Callable[[object], FloatArray]


def regret(loss: MulticlassLoss, p: ArrayLike, q: ArrayLike) -> float:
    """``R(p‖q) = p·ℓ(q) - p·ℓ(p) >= 0`` (spec 07, Thm 4.1 [quoted]).

    Args:
        loss: :func:`multiclass_log_loss`, :func:`multiclass_brier_loss` or any proper loss.
        p: ``(n,)`` distribution.
        q: ``(n,)`` distribution.

    Raises:
        ValueError: not distributions, or shapes differ.
    """
    pp = _simplex_rows("p", p, interior=False)
    qq = _simplex_rows("q", q, interior=False)
    if pp.shape != qq.shape:
        raise ValueError(f"q: expected shape {pp.shape} (that of p), got {qq.shape}")
    return float(pp @ loss(qq) - pp @ loss(pp))


def bregman_divergence(loss: MulticlassLoss, p: ArrayLike, q: ArrayLike) -> float:
    """``D_{φ,G}(p‖q) = φ(p) - φ(q) - (p - q)·G(q)`` with ``φ(p) = -p·ℓ(p)``, ``G(q) = -ℓ(q)`` (Thm 4.1).

    Raises:
        ValueError: as :func:`regret`.
    """
    pp = _simplex_rows("p", p, interior=False)
    qq = _simplex_rows("q", q, interior=False)
    if pp.shape != qq.shape:
        raise ValueError(f"q: expected shape {pp.shape} (that of p), got {qq.shape}")
    lp, lq = loss(pp), loss(qq)
    phi_p, phi_q = -float(pp @ lp), -float(qq @ lq)
    return phi_p - phi_q - float((pp - qq) @ (-lq))


# ---------------------------------------------------------------------------------- ψ family
@dataclass(frozen=True, slots=True, kw_only=True)
class Psi:
    """A preference loss ψ applied to the loser-minus-winner gap (spec 07, A2 table).

    Attributes:
        name: catalogue name.
        fn: ``ψ(z)`` (vectorised).
        derivative: ``ψ'(z)``.
        strictly_increasing: whether ψ is in the paper's strictly-increasing family.
        convex: whether ψ is convex.
    """

    name: str
    fn: Scalar
    derivative: Scalar
    strictly_increasing: bool
    convex: bool


SOFTPLUS = Psi(
    name="softplus (DPO)", fn=_softplus, derivative=_sigmoid, strictly_increasing=True, convex=True
)
SAVAGE = Psi(
    name="savage σ² (Brier + BTL)",
    fn=lambda z: _sigmoid(z) ** 2,
    derivative=lambda z: 2.0 * _sigmoid(z) ** 2 * (1.0 - _sigmoid(z)),
    strictly_increasing=True,
    convex=False,
)
SIGMOID = Psi(
    name="sigmoid σ",
    fn=_sigmoid,
    derivative=lambda z: _sigmoid(z) * (1.0 - _sigmoid(z)),
    strictly_increasing=True,
    convex=False,
)


def brier_canonical_psi() -> Psi:
    """ψ = φ*_Brier: 0 for z <= -1, (1+z)²/4 on [-1, 1], z for z >= 1 (non-strict below -1)."""
    return Psi(
        name="brier canonical",
        fn=_brier_conjugate,
        derivative=lambda z: np.where(z <= -1.0, 0.0, np.where(z >= 1.0, 1.0, (1.0 + z) / 2.0)),
        strictly_increasing=False,
        convex=True,
    )


def matsushita_canonical_psi() -> Psi:
    """ψ(z) = (z + √(4 + z²))/2, the Matsushita loss's canonical preference loss."""
    return Psi(
        name="matsushita canonical",
        fn=lambda z: (z + np.sqrt(4.0 + z**2)) / 2.0,
        derivative=lambda z: 0.5 * (1.0 + z / np.sqrt(4.0 + z**2)),
        strictly_increasing=True,
        convex=True,
    )


def hinge_psi(delta: float = 1.0) -> Psi:
    """SLiC / hinge ψ(z) = max(0, δ + z): non-decreasing only.

    Raises:
        ValueError: ``delta`` not finite and >= 0.
    """
    d = require_positive("delta", delta, allow_zero=True)
    return Psi(
        name=f"hinge δ={d:g}",
        fn=lambda z: np.maximum(0.0, d + z),
        derivative=lambda z: (d + z > 0).astype(np.float64),
        strictly_increasing=False,
        convex=True,
    )


def ipo_psi(tau: float = 0.1) -> Psi:
    """IPO ψ(z) = (z + 1/(2τ))² (β = 1): convex but **not monotone** (penalises over-shooting).

    Raises:
        ValueError: ``tau <= 0``.
    """
    t = require_positive("tau", tau)
    return Psi(
        name=f"ipo τ={t:g}",
        fn=lambda z: (z + 1.0 / (2.0 * t)) ** 2,
        derivative=lambda z: 2.0 * (z + 1.0 / (2.0 * t)),
        strictly_increasing=False,
        convex=True,
    )


def cdpo_psi(epsilon: float = 0.1) -> Psi:
    """cDPO / label smoothing ψ(z) = (1-ε) log(1+e^z) + ε log(1+e^{-z}): decreasing where σ(z) < ε.

    Raises:
        ValueError: ``epsilon`` outside [0, 1/2).
    """
    e = require_probability("epsilon", epsilon)
    if e >= 0.5:
        raise ValueError(f"epsilon: expected a number in [0, 0.5), got {e!r}")
    return Psi(
        name=f"cdpo ε={e:g}",
        fn=lambda z: (1.0 - e) * _softplus(z) + e * _softplus(-z),
        derivative=lambda z: _sigmoid(z) - e,
        strictly_increasing=e == 0.0,
        convex=True,
    )


def implied_link(psi: Psi) -> Scalar:
    """Two-sided implied choice link ``F_ψ(z) = ψ'(z) / (ψ'(z) + ψ'(-z))`` (spec 07, A4 [ours]).

    The population minimiser of ``p ψ(-Δ) + (1-p) ψ(Δ)`` satisfies ``p = F_ψ(Δ*)``; utilities are
    recoverable iff F_ψ is strictly increasing.  ``F_softplus = F_σ² = σ``; ``F_σ ≡ 1/2``.

    Returns:
        A vectorised function of z (NaN-free: where both derivatives vanish it returns 1/2).

    Example:
        >>> round(float(implied_link(SOFTPLUS)(np.array(1.3))), 12) == round(float(special.expit(1.3)), 12)
        True
    """

    def link(z: FloatArray) -> FloatArray:
        zz = np.asarray(z, dtype=np.float64)
        up, down = psi.derivative(zz), psi.derivative(-zz)
        total = up + down
        out: FloatArray = np.where(total > 0, up / np.where(total > 0, total, 1.0), 0.5)
        return out

    return link


def preference_loss(
    u_w: ArrayLike,
    u_l: ArrayLike,
    psi: Psi = SOFTPLUS,
    *,
    margin: float = 0.0,
    allow_negative_margin: bool = False,
) -> float:
    """Generalised preference loss ``mean_i ψ(u_l,i - u_w,i + γ)`` (spec 07, Algorithm A2).

    Args:
        u_w: ``(N,)`` utilities of the chosen responses.
        u_l: ``(N,)`` utilities of the rejected responses.
        psi: the loss ψ (default :data:`SOFTPLUS`, i.e. DPO).
        margin: γ >= 0 (a negative shift only with ``allow_negative_margin``).
        allow_negative_margin: accept γ < 0 as a plain shift.

    Raises:
        ValueError: shape mismatch, empty or non-finite utilities, negative margin.
    """
    uw = as_float_array("u_w", u_w, ndim=1)
    ul = as_float_array("u_l", u_l, shape=(uw.size,))
    if (
        not isinstance(margin, bool)
        and isinstance(margin, int | float)
        and margin < 0
        and allow_negative_margin
    ):
        gamma = float(margin)
        if not math.isfinite(gamma):
            raise ValueError(f"margin: expected a finite number, got {gamma!r}")
    else:
        gamma = require_positive("margin", margin, allow_zero=True)
    return float(np.mean(psi.fn(ul - uw + gamma)))


def dpo_loss(
    policy_logp_w: ArrayLike,
    policy_logp_l: ArrayLike,
    ref_logp_w: ArrayLike,
    ref_logp_l: ArrayLike,
    *,
    beta: float = 0.1,
    psi: Psi = SOFTPLUS,
    margin: float = 0.0,
    length_w: object | None = None,
    length_l: object | None = None,
    length_coef: float = 0.0,
) -> float:
    """DPO and its family: ``mean ψ(β(log π/π_ref)(y_l) - β(log π/π_ref)(y_w) + γ)`` (spec 07, A1-A2).

    With ψ = softplus and γ = 0 this is the standard DPO loss ``-mean log σ(βΔ)``, ``Δ = log
    π(y_w)/π_ref(y_w) - log π(y_l)/π_ref(y_l)`` (Cor 4.5), computed with ``logaddexp`` (no overflow
    for |Δ| up to 700 and beyond).  ``length_coef`` gives R-DPO: utilities ``u - α_len |y|``.

    Args:
        policy_logp_w: ``(N,)`` log π_θ(y_w|x) (sequence log-probabilities).
        policy_logp_l: ``(N,)`` log π_θ(y_l|x).
        ref_logp_w: ``(N,)`` log π_ref(y_w|x).
        ref_logp_l: ``(N,)`` log π_ref(y_l|x).
        beta: temperature β > 0.
        psi: loss ψ (strictly increasing for the paper's family; IPO/cDPO are allowed baselines).
        margin: γ >= 0.
        length_w: ``(N,)`` lengths |y_w| (needed when ``length_coef > 0``).
        length_l: ``(N,)`` lengths |y_l|.
        length_coef: α_len >= 0.

    Raises:
        ValueError: shapes, non-finite log-probabilities (a log of 0), β <= 0, γ < 0, missing lengths.

    Example:
        >>> round(dpo_loss([-1.0], [-2.0], [-1.5], [-1.5], beta=1.0), 10) == round(float(np.log1p(np.exp(-1.0))), 10)
        True
    """
    b = require_positive("beta", beta)
    lw = as_float_array("policy_logp_w", policy_logp_w, ndim=1)
    n = lw.size
    ll = as_float_array("policy_logp_l", policy_logp_l, shape=(n,))
    rw = as_float_array("ref_logp_w", ref_logp_w, shape=(n,))
    rl = as_float_array("ref_logp_l", ref_logp_l, shape=(n,))
    u_w = b * (lw - rw)
    u_l = b * (ll - rl)
    coef = require_positive("length_coef", length_coef, allow_zero=True)
    if coef > 0:
        if length_w is None or length_l is None:
            raise ValueError("length_w: expected lengths of both responses when length_coef > 0")
        u_w = u_w - coef * as_float_array("length_w", length_w, shape=(n,))
        u_l = u_l - coef * as_float_array("length_l", length_l, shape=(n,))
    return preference_loss(u_w, u_l, psi, margin=margin)


def implicit_reward(
    policy: ArrayLike, reference: ArrayLike, *, beta: float = 0.1, loss: str = "log"
) -> FloatArray:
    """Implicit reward ``r(y) = β(ℓ_y(π_ref) - ℓ_y(π_θ))`` up to a context constant (spec 07, A1).

    Log loss: ``β log(π_θ/π_ref)`` (DPO); Brier: ``2β(π_θ - π_ref) + β(‖π_ref‖² - ‖π_θ‖²)``.

    Args:
        policy: ``(K,)`` or ``(X, K)`` policy rows π_θ(·|x).
        reference: same shape, π_ref.
        beta: β > 0.
        loss: ``"log"`` or ``"brier"``.

    Raises:
        ValueError: not distributions (positive for ``log``), shape mismatch, β <= 0, unknown loss.
    """
    b = require_positive("beta", beta)
    if loss not in ("log", "brier"):
        raise ValueError(f"loss: expected 'log' or 'brier', got {loss!r}")
    interior = loss == "log"
    pol = _simplex_rows("policy", policy, interior=interior)
    ref = _simplex_rows("reference", reference, interior=interior)
    if pol.shape != ref.shape:
        raise ValueError(f"reference: expected shape {pol.shape}, got {ref.shape}")
    ell = multiclass_log_loss if loss == "log" else multiclass_brier_loss
    if pol.ndim == 1:
        out: FloatArray = b * (ell(ref) - ell(pol))
        return out
    rows: FloatArray = b * np.vstack([ell(r) - ell(p) for p, r in zip(pol, ref, strict=True)])
    return rows


def optimal_policy(
    reward: ArrayLike, reference: ArrayLike, *, beta: float, loss: str = "log"
) -> FloatArray:
    """Maximiser of ``E_π r - β R(π‖π_ref)`` over the simplex (spec 07, T8).

    Log loss: the closed form ``π* ∝ π_ref e^{r/β}``.  Brier (``R = ‖π - π_ref‖²``): the Euclidean
    projection of ``π_ref + r/(2β)`` onto the simplex (exact, sort-based).

    Args:
        reward: ``(K,)`` rewards.
        reference: ``(K,)`` positive distribution π_ref.
        beta: β > 0.
        loss: ``"log"`` or ``"brier"``.

    Raises:
        ValueError: shapes, non-finite values, β <= 0, unknown loss.
    """
    b = require_positive("beta", beta)
    r = as_float_array("reward", reward, ndim=1)
    ref = _simplex_rows("reference", reference, interior=True)
    if ref.shape != r.shape:
        raise ValueError(f"reference: expected shape {r.shape}, got {ref.shape}")
    if loss == "log":
        logits = np.log(ref) + r / b
        weights = np.exp(logits - logits.max())
        out: FloatArray = weights / weights.sum()
        return out
    if loss == "brier":
        v = ref + r / (2.0 * b)
        u = np.sort(v)[::-1]
        cumulative = np.cumsum(u) - 1.0
        rho = int(np.nonzero(u - cumulative / np.arange(1, u.size + 1) > 0)[0][-1])
        proj: FloatArray = np.maximum(v - cumulative[rho] / (rho + 1), 0.0)
        return proj
    raise ValueError(f"loss: expected 'log' or 'brier', got {loss!r}")


# ----------------------------------------------------------------------------- embedding (A4)
@dataclass(frozen=True, slots=True, kw_only=True)
class EmbeddedLoss:
    """A strictly proper binary loss built from ψ and a link F̃ by Thm 4.3 (spec 07, A4).

    Attributes:
        ell0: ``ℓ_0(q) = ψ(F̃⁻¹(q))`` on (0, 1).
        ell1: ``ℓ_1(q) = -∫_{1/2}^{q} ((1-c)/c) ℓ_0'(c) dc`` (``ℓ_1(1/2) = 0``), on (0, 1).
        closed: whether finite values at q = 0 and q = 1 were requested and verified.
    """

    ell0: Callable[[float], float]
    ell1: Callable[[float], float]
    closed: bool


def embed_psi(
    psi: Callable[[float], float],
    link: Callable[[float], float],
    *,
    psi_prime: Callable[[float], float] | None = None,
    closed: bool = False,
    z_range: tuple[float, float] = (-60.0, 60.0),
) -> EmbeddedLoss:
    """Embed a strictly increasing ψ with a strictly increasing link F̃ into a proper loss (Thm 4.3).

    ``ℓ_0(q) = ψ(F̃⁻¹(q))`` (F̃⁻¹ by ``brentq`` on ``z_range``) and ``ℓ_1`` from the Savage condition
    ``q ℓ_1' + (1-q) ℓ_0' = 0`` with ``ℓ_1(1/2) = 0``.  Substituting ``c = F̃(t)`` turns the integral
    into ``ℓ_1(q) = -∫_{F̃⁻¹(1/2)}^{F̃⁻¹(q)} ((1 - F̃(t))/F̃(t)) ψ'(t) dt`` (``quad``), so no
    derivative of the link is needed; ψ' is ``psi_prime`` or a central difference.

    Endpoint caveat (spec 07, A4; the audit's Claim 1): the literal closed-interval statement is
    false.  With ``closed=True`` we require ``ℓ_0(0) = lim_{z->-∞} ψ(z)`` and ``ℓ_1(1)`` to be finite
    (judged by whether the values at ``z_range/4`` and ``z_range/2`` still move) and raise
    ``ValueError`` otherwise (ψ(z) = z with σ: ℓ_0(0) = -∞; ψ = exp with σ: ℓ_1(1) = -∞).

    Args:
        psi: strictly increasing scalar function.
        link: strictly increasing link onto (0, 1) (e.g. σ or Φ).
        psi_prime: ψ' (optional; improves accuracy).
        closed: request a loss with finite values on the closed interval [0, 1].
        z_range: bracket for inverting the link.

    Raises:
        ValueError: ψ or F̃ decreasing somewhere on a 1,001-point grid (or constant), or
            (``closed``) an infinite endpoint value.  The returned losses raise ``ValueError``
            naming ``q`` for a ``q`` outside ``(F̃(z_lo), F̃(z_hi))`` (e.g. ``q = 0`` or ``1``
            with σ, whose values there are limits).
    """
    lo, hi = z_range
    grid = np.linspace(max(lo, -20.0), min(hi, 20.0), 1001)
    for name, fn in (("psi", psi), ("link", link)):
        values = np.array([fn(float(z)) for z in grid])
        if not (
            np.all(np.isfinite(values)) and np.all(np.diff(values) >= 0) and values[-1] > values[0]
        ):
            raise ValueError(
                f"{name}: expected a strictly increasing function (non-monotone on a 1,001-point grid)"
            )

    def derivative(t: float) -> float:
        if psi_prime is not None:
            return psi_prime(t)
        h = 1e-5 * max(1.0, abs(t))
        return (psi(t + h) - psi(t - h)) / (2.0 * h)

    def inverse(q: float) -> float:
        f_lo, f_hi = link(lo), link(hi)
        if not f_lo < q < f_hi:  # outside the bracket: brentq would fail without a name
            raise ValueError(
                f"q: expected a value inside the link's range on z_range, ({f_lo!r}, {f_hi!r}), "
                f"got {q!r}"
            )
        return float(
            optimize.brentq(lambda z: link(z) - q, lo, hi, xtol=1e-14, rtol=1e-15, maxiter=500)
        )

    z_half = inverse(0.5)

    def ell1_at(z: float) -> float:
        value, _ = integrate.quad(
            lambda t: (1.0 - link(t)) / link(t) * derivative(t),
            z_half,
            z,
            limit=200,
            epsabs=1e-13,
            epsrel=1e-12,
        )
        return -float(value)

    def ell0(q: float) -> float:
        return psi(inverse(q))

    def ell1(q: float) -> float:
        return ell1_at(inverse(q))

    if closed:
        far, farther = psi(lo / 4.0), psi(lo / 2.0)
        if not math.isfinite(farther) or abs(farther - far) > 1e-6 * max(1.0, abs(far)):
            raise ValueError(
                "psi: ell_0(0) = lim_{z -> -inf} psi(z) is not finite; no closed-interval loss exists"
            )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", integrate.IntegrationWarning)
            near, nearer = ell1_at(hi / 4.0), ell1_at(hi / 2.0)
        if not math.isfinite(nearer) or abs(nearer - near) > 1e-6 * max(1.0, abs(near)):
            raise ValueError(
                "psi: ell_1(1) is not finite for this psi and link; no closed-interval loss exists"
            )
    return EmbeddedLoss(ell0=ell0, ell1=ell1, closed=closed)


# ------------------------------------------------------------------------------ choice models
ChoiceLink = Callable[[FloatArray], FloatArray]


def btl_link() -> ChoiceLink:
    """Bradley-Terry-Luce: ``F(z) = σ(z)`` (DPO's choice model)."""
    return _sigmoid


def thurstone_link(noise_sd: float = 1.0) -> ChoiceLink:
    """Thurstone Case V: ``F(z) = Φ(z / (s√2))``.

    Domain: F is strictly increasing, but its float64 value stops rising once the normal tail
    ``1 - Φ(x)`` (``x = z / (s√2)``) changes by less than the float spacing just below 1
    (2**-53) between the points compared: at 1e-3 spacing in ``z`` that is from ``x`` about 7.3
    on.  For ``noise_sd = 0.7``, ``F(7.984375) == F(8.0)`` (correctly rounded); on ``|z| <= 4``
    (the domain ``central`` of the suite ``preference.choice_link``) it rises.

    Raises:
        ValueError: ``noise_sd <= 0``.

    Example:
        >>> link = thurstone_link(0.7)
        >>> top = link(np.array([7.984375, 8.0]))
        >>> print(float(link(np.array([0.0]))[0]), bool(top[0] == top[1] < 1.0))
        0.5 True
    """
    s = require_positive("noise_sd", noise_sd)

    def link(z: FloatArray) -> FloatArray:
        out: FloatArray = stats.norm.cdf(np.asarray(z) / (s * math.sqrt(2.0)))
        return out

    return link


def rao_kupper_link(theta: float = 1.0) -> ChoiceLink:
    """Rao-Kupper ties: ``F(z) = σ(z - γ)``, ``γ = ln θ >= 0`` (abstention ``1 - F(z) - F(-z)``).

    Raises:
        ValueError: ``theta < 1`` (γ < 0 is not a choice model: F(z) + F(-z) > 1 at z = 0; T7).
    """
    t = require_positive("theta", theta)
    if t < 1.0:
        raise ValueError(f"theta: expected a tie parameter >= 1 (γ = ln θ >= 0), got {t!r}")
    gamma = math.log(t)

    def link(z: FloatArray) -> FloatArray:
        return _sigmoid(np.asarray(z) - gamma)

    return link


def davidson_link(nu: float = 0.0) -> ChoiceLink:
    """Davidson ties: ``F(z) = 1 / (1 + e^{-z} + ν e^{-z/2})``, ν >= 0.

    Raises:
        ValueError: ``nu < 0``.
    """
    v = require_positive("nu", nu, allow_zero=True)

    def link(z: FloatArray) -> FloatArray:
        zz = np.asarray(z, dtype=np.float64)
        out: FloatArray = 1.0 / (1.0 + np.exp(-zz) + v * np.exp(-zz / 2.0))
        return out

    return link


def choice_matrix(utilities: ArrayLike, link: ChoiceLink) -> FloatArray:
    """``P[i, j] = F(u_i - u_j)``, diagonal 1/2 (bearability) (spec 07, A5.1).

    Args:
        utilities: ``(K,)`` utilities.
        link: a choice link F.

    Raises:
        ValueError: empty/non-finite utilities or link values outside [0, 1].
    """
    u = as_float_array("utilities", utilities, ndim=1)
    matrix = np.asarray(link(u[:, None] - u[None, :]), dtype=np.float64)
    np.fill_diagonal(matrix, 0.5)
    if not bool(np.all(np.isfinite(matrix))) or float(matrix.min()) < 0 or float(matrix.max()) > 1:
        raise ValueError("link: expected values in [0, 1]")
    return matrix


def _choice(name: str, value: object) -> FloatArray:
    matrix = as_float_array(name, value, ndim=2)
    if matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"{name}: expected a square matrix, got shape {matrix.shape}")
    if float(matrix.min()) < 0.0 or float(matrix.max()) > 1.0:
        raise ValueError(f"{name}: expected entries in [0, 1]")
    off = matrix + matrix.T
    np.fill_diagonal(off, 0.0)
    if float(off.max()) > 1.0 + 1e-12:
        raise ValueError(
            f"{name}: expected P + Pᵀ <= 1 off the diagonal, got max {float(off.max())!r}"
        )
    return matrix


def abstention(P: ArrayLike) -> FloatArray:
    """``a = 1 - P - Pᵀ`` off the diagonal (0 on it) (spec 07, A5.2).

    Raises:
        ValueError: not a square choice matrix (entries in [0, 1], P + Pᵀ <= 1 + 1e-12).
    """
    matrix = _choice("P", P)
    out: FloatArray = 1.0 - matrix - matrix.T
    np.fill_diagonal(out, 0.0)
    return out


def is_bearable(P: ArrayLike, *, atol: float = 1e-12) -> bool:
    """Bearability: ``P[i, i] = 1/2`` for every alternative (Def 3.2, recovered part).

    Raises:
        ValueError: not a choice matrix.
    """
    return bool(np.all(np.abs(np.diag(_choice("P", P)) - 0.5) <= atol))


def zero_abstention_graph(P: ArrayLike, *, atol: float = 1e-12) -> list[tuple[int, int]]:
    """Edges ``{a, b}`` (a < b) with ``P[a, b] + P[b, a] = 1`` (spec 07, Section 2).

    Raises:
        ValueError: not a choice matrix.
    """
    matrix = _choice("P", P)
    k = matrix.shape[0]
    return [
        (a, b)
        for a in range(k)
        for b in range(a + 1, k)
        if abs(matrix[a, b] + matrix[b, a] - 1.0) <= atol
    ]


def lottery_matrix(P: ArrayLike, alpha: float) -> FloatArray:
    """Expandability: choice probabilities between binary lotteries ``(a b)_α`` (spec 07, A5.3).

    Row/column index ``a * K + b`` is the lottery ``(a b)_α``;
    ``M[(a,b), (c,d)] = α²P[a,c] + α(1-α)P[a,d] + (1-α)αP[b,c] + (1-α)²P[b,d]``.

    Raises:
        ValueError: not a choice matrix, or ``alpha`` outside (0, 1).
    """
    matrix = _choice("P", P)
    a = require_probability("alpha", alpha, open_low=True, open_high=True)
    w = np.array([a, 1.0 - a])
    k = matrix.shape[0]
    # tensor[a, b, c, d] = Σ_{s,t} w_s w_t P[(a,b)_s, (c,d)_t]
    tensor = (
        w[0] * w[0] * matrix[:, None, :, None]
        + w[0] * w[1] * matrix[:, None, None, :]
        + w[1] * w[0] * matrix[None, :, :, None]
        + w[1] * w[1] * matrix[None, :, None, :]
    )
    out: FloatArray = np.ascontiguousarray(tensor.reshape(k * k, k * k))
    return out


def monotonicity_violation(
    M: ArrayLike, *, atol: float = 1e-12
) -> tuple[int, int, int, int, int, int] | None:
    """First sextuple violating KLST monotonicity, or None (spec 07, A5.4).

    Monotonicity: ``M[a,b] >= M[a',b']`` and ``M[b,c] >= M[b',c']`` imply ``M[a,c] >= M[a',c']``.
    Vectorised over ``(a', b', c')`` for each ``(a, b, c)``; ``O(N⁶)`` time, for N <= 16.

    Raises:
        ValueError: not a choice matrix, or larger than 16 x 16.
    """
    matrix = _choice("M", M)
    n = matrix.shape[0]
    if n > 16:
        raise ValueError(f"M: expected at most 16 alternatives for the exhaustive search, got {n}")
    ab = matrix[:, :, None]  # [a', b', c'] -> M[a', b']
    bc = matrix[None, :, :]  # M[b', c']
    ac = matrix[:, None, :]  # M[a', c']
    for a, b, c in itertools.product(range(n), repeat=3):
        premise = (matrix[a, b] >= ab - atol) & (matrix[b, c] >= bc - atol)
        broken = premise & (matrix[a, c] < ac - atol)
        if bool(broken.any()):
            ap, bp, cp = (int(v) for v in np.argwhere(broken)[0])
            return a, b, c, ap, bp, cp
    return None


def representable(P: ArrayLike, *, tol: float = 1e-9) -> tuple[bool, FloatArray]:
    """Ordinal representability ``P[i, j] = F(u_i - u_j)`` for some increasing F (spec 07, A5.5).

    LP (HiGHS): maximise s <= 1 subject to ``(u_i - u_j) - (u_k - u_l) >= s`` whenever
    ``P[i, j] > P[k, l] + tol`` and ``|(u_i - u_j) - (u_k - u_l)| <= tol`` for ties, over
    off-diagonal ordered pairs, ``u_0 = 0``; representable iff s* > 0.

    Returns:
        ``(representable, u)`` with the LP's utilities ``(K,)`` (read-only).

    Raises:
        ValueError: not a choice matrix.
    """
    from scipy.optimize import linprog

    matrix = _choice("P", P)
    k = matrix.shape[0]
    pairs = [(i, j) for i in range(k) for j in range(k) if i != j]
    rows_ub: list[FloatArray] = []
    rows_eq: list[FloatArray] = []
    for (i, j), (p, q) in itertools.product(pairs, repeat=2):
        strict = matrix[i, j] > matrix[p, q] + tol
        tie = (i, j) < (p, q) and abs(matrix[i, j] - matrix[p, q]) <= tol
        if not (strict or tie):
            continue
        diff = np.zeros(k + 1)  # coefficients of (u_i - u_j) - (u_p - u_q)
        diff[i] += 1.0
        diff[j] -= 1.0
        diff[p] -= 1.0
        diff[q] += 1.0
        if strict:  # s - (d_ij - d_pq) <= 0
            row = -diff
            row[k] = 1.0
            rows_ub.append(row)
        else:
            rows_eq.append(diff)
    cost = np.zeros(k + 1)
    cost[k] = -1.0
    bounds = [(0.0, 0.0)] + [(-1e3, 1e3)] * (k - 1) + [(None, 1.0)]
    result = linprog(
        cost,
        A_ub=np.array(rows_ub) if rows_ub else None,
        b_ub=np.zeros(len(rows_ub)) if rows_ub else None,
        A_eq=np.array(rows_eq) if rows_eq else None,
        b_eq=np.zeros(len(rows_eq)) if rows_eq else None,
        bounds=bounds,
        method="highs",
    )
    if result.status != 0:
        return False, readonly(np.zeros(k))
    solution = np.asarray(result.x, dtype=np.float64)
    slack = float(solution[k])
    return (slack > 0.0 or not rows_ub), readonly(solution[:k].copy())


def local_choice_structure(P: ArrayLike, alpha: float) -> bool:
    """The local choice structure (LCS) axiom of KLST* (spec 07, Def 3.3).

    Its exact content was NOT recovered from the paper, so this predicate is deliberately not
    implemented: it never passes silently.

    Raises:
        NotImplementedError: always.
    """
    raise NotImplementedError(
        "local choice structure: the axiom's content was not recovered from the paper (spec 07, Section 2)"
    )


# ------------------------------------------------------------------------- tabular training (A6)
@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class TabularFit:
    """Outcome of :func:`train_tabular_policy`.

    Attributes:
        logits: ``(X, K)`` final logits θ (π_θ(·|x) = softmax(θ[x])), read-only.
        rewards: ``(X, K)`` implicit rewards ``β log(π_θ/π_ref)``, read-only.
        losses: ``(steps + 1,)`` training loss before each step and at the end, read-only.
        steps: Adam steps taken.
    """

    logits: FloatArray
    rewards: FloatArray
    losses: FloatArray
    steps: int


def _log_softmax(theta: FloatArray) -> FloatArray:
    shifted = theta - theta.max(axis=1, keepdims=True)
    out: FloatArray = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return out


def tabular_loss_and_grad(
    logits: ArrayLike,
    pairs: ArrayLike,
    psi: Psi,
    *,
    beta: float,
    log_ref: ArrayLike,
    margin: float = 0.0,
) -> tuple[float, FloatArray]:
    """Loss ``mean ψ(u_l - u_w + γ)`` of a tabular policy and its gradient (spec 07, A6).

    ``u = β (log π_θ(y|x) - log π_ref(y|x))``; ``∂ log π(y|x)/∂θ[x] = e_y - π(·|x)``, so the gradient of
    one term is ``ψ'(z) β (e_{y_l} - e_{y_w})`` in row x.

    Args:
        logits: ``(X, K)`` logits θ.
        pairs: ``(N, 3)`` integer rows ``(x, y_w, y_l)``.
        psi: the loss ψ.
        beta: β > 0.
        log_ref: ``(X, K)`` log π_ref.
        margin: γ >= 0.

    Returns:
        ``(loss, gradient (X, K))``.

    Raises:
        ValueError: shapes, indices out of range, non-finite values, β <= 0, γ < 0.
    """
    theta = as_float_array("logits", logits, ndim=2)
    ref = as_float_array("log_ref", log_ref, shape=theta.shape)
    b = require_positive("beta", beta)
    gamma = require_positive("margin", margin, allow_zero=True)
    rows = np.asarray(pairs)
    if rows.ndim != 2 or rows.shape[1] != 3 or rows.shape[0] < 1 or rows.dtype.kind not in "iu":
        raise ValueError(
            f"pairs: expected a non-empty (N, 3) integer array, got {rows.dtype} {rows.shape}"
        )
    x, w, lose = rows[:, 0], rows[:, 1], rows[:, 2]
    if (
        x.min() < 0
        or x.max() >= theta.shape[0]
        or min(w.min(), lose.min()) < 0
        or max(w.max(), lose.max()) >= theta.shape[1]
    ):
        raise ValueError("pairs: expected context and response indices inside the logits' shape")
    logp = _log_softmax(theta)
    u = b * (logp - ref)
    z = u[x, lose] - u[x, w] + gamma
    loss = float(np.mean(psi.fn(z)))
    # ∂z/∂θ[x] = β((e_l - π_x) - (e_w - π_x)) = β(e_l - e_w): the softmax terms cancel
    weight = psi.derivative(z) * b / rows.shape[0]
    grad = np.zeros_like(theta)
    np.add.at(grad, (x, lose), weight)
    np.add.at(grad, (x, w), -weight)
    return loss, grad


def train_tabular_policy(
    pairs: ArrayLike,
    n_contexts: int,
    n_responses: int,
    psi: Psi = SOFTPLUS,
    *,
    beta: float = 0.1,
    steps: int = 2000,
    learning_rate: float = 1e-2,
    margin: float = 0.0,
) -> TabularFit:
    """Full-batch Adam on tabular logits with a uniform reference policy (spec 07, A6, our default).

    Adam (lr 1e-2, β1 0.9, β2 0.999, eps 1e-8), β = 0.1, γ = 0, θ_0 = 0 (π_θ = π_ref).  Deterministic.

    Args:
        pairs: ``(N, 3)`` integer rows ``(x, y_w, y_l)``.
        n_contexts: X >= 1.
        n_responses: K >= 2.
        psi: the loss ψ.
        beta: β > 0.
        steps: Adam steps (>= 1; always exactly this many).
        learning_rate: > 0.
        margin: γ >= 0.

    Returns:
        A :class:`TabularFit`.

    Raises:
        ValueError: out-of-range sizes or parameters, bad pairs.
    """
    nx = require_int("n_contexts", n_contexts, minimum=1)
    nk = require_int("n_responses", n_responses, minimum=2)
    t_max = require_int("steps", steps, minimum=1)
    lr = require_positive("learning_rate", learning_rate)
    theta = np.zeros((nx, nk))
    log_ref = np.full((nx, nk), -math.log(nk))
    m = np.zeros_like(theta)
    v = np.zeros_like(theta)
    losses = []
    for t in range(1, t_max + 1):
        loss, grad = tabular_loss_and_grad(
            theta, pairs, psi, beta=beta, log_ref=log_ref, margin=margin
        )
        losses.append(loss)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        theta = theta - lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    final, _ = tabular_loss_and_grad(theta, pairs, psi, beta=beta, log_ref=log_ref, margin=margin)
    losses.append(final)
    rewards = beta * (_log_softmax(theta) - log_ref)
    return TabularFit(
        logits=readonly(theta),
        rewards=readonly(rewards),
        losses=readonly(np.array(losses)),
        steps=t_max,
    )
