"""Lion and Muon as stochastic Frank-Wolfe: LMOs, the FW gap, SFW and its heavy-tailed variants.

Spec 14: M.-E. Sfyraki and J.-K. Wang, "Lions and Muons: Optimization via
Stochastic Frank-Wolfe", ICML 2026, arXiv:2506.04192.  Retrieved: the structure
(Lion/Muon with weight decay are instances of a generalized SFW on the ball of
radius ``1/lambda``), the FW gap and its KKT meaning.  Not retrieved: the exact
parametrisation of the paper's Algorithm 3 and of the robust updates, rates and
constants.  Hence:

* :func:`lion` and :func:`muon` are exact, from their reference implementations
  (google/automl ``lion_pytorch.py``; KellerJordan/Muon ``muon.py``);
* :func:`sfw` is the *reconstructed* generalized SFW (spec 14 §3.3);
* R1 (``clip_tau`` of :func:`sfw`, :func:`lion`, :func:`muon`) and R2
  (:func:`sfw_vr`, :func:`lion_vr`, :func:`muon_vr`) are *reconstructed* robust
  variants (spec 14 §3.4), labelled as such.

Norm names: ``"linf"`` (dual ``l1``), ``"spectral"`` (dual nuclear, 2-D only),
``"l2"`` (Euclidean / Frobenius, self-dual), ``"l1"`` (dual ``linf``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import FloatArray, as_float_array, describe, require_int
from reference._repr import summary_repr
from reference.optimizers.base import (
    MomentumState,
    Optimizer,
    Params,
    Update,
    _beta,
    _check_state,
    _clip_blocks,
    _clip_tau,
    _frozen_blocks,
    _nonneg,
    _positive,
    _restore,
    as_blocks,
)
from reference.optimizers.polar import (
    NS_COEFFICIENTS,
    NS_EPS,
    NS_STEPS,
    _coefficients,
    newton_schulz,
    polar,
)

__all__ = [
    "LionConfig",
    "MuonConfig",
    "NormName",
    "SFWConfig",
    "SFWVRConfig",
    "VRState",
    "dual_norm",
    "fw_gap",
    "fw_gap_split",
    "lion",
    "lion_vr",
    "lmo",
    "muon",
    "muon_vr",
    "norm",
    "sfw",
    "sfw_vr",
]

NormName = Literal["linf", "spectral", "l2", "l1"]
_NORMS = ("linf", "spectral", "l2", "l1")
PolarMethod = Literal["exact", "newton_schulz"]


def _norm_name(value: object) -> NormName:
    if value == "linf":
        return "linf"
    if value == "spectral":
        return "spectral"
    if value == "l2":
        return "l2"
    if value == "l1":
        return "l1"
    raise ValueError(f"norm: expected one of {_NORMS}, got {value!r}")


def _polar_method(value: object) -> PolarMethod:
    if value == "exact":
        return "exact"
    if value == "newton_schulz":
        return "newton_schulz"
    raise ValueError(f"polar: expected 'exact' or 'newton_schulz', got {value!r}")


def _norm_of(x: FloatArray, which: NormName) -> float:
    if which == "linf":
        return float(np.max(np.abs(x)))
    if which == "l1":
        return float(np.sum(np.abs(x)))
    if which == "l2":
        return float(np.linalg.norm(x))
    return float(np.linalg.norm(x, 2))


def _dual_of(d: FloatArray, which: NormName) -> float:
    if which == "linf":
        return float(np.sum(np.abs(d)))
    if which == "l1":
        return float(np.max(np.abs(d)))
    if which == "l2":
        return float(np.linalg.norm(d))
    return float(np.sum(np.linalg.svd(d, compute_uv=False)))


def _lmo_of(
    d: FloatArray,
    radius: float,
    which: NormName,
    method: PolarMethod = "exact",
    ns_steps: int = NS_STEPS,
    coefficients: tuple[float, float, float] = NS_COEFFICIENTS,
) -> FloatArray:
    if which == "linf":
        return -radius * np.sign(d)
    if which == "l2":
        n = float(np.linalg.norm(d))
        return np.zeros_like(d) if n == 0.0 else -radius * d / n
    if which == "l1":
        out = np.zeros_like(d)
        if np.any(d != 0.0):
            j = int(np.argmax(np.abs(d)))
            out.flat[j] = -radius * float(np.sign(d.flat[j]))
        return out
    if method == "exact":
        return -radius * polar(d)
    return -radius * newton_schulz(d, steps=ns_steps, coefficients=coefficients)


def _matrix_or_vector(name: str, value: object, which: NormName) -> FloatArray:
    if which == "spectral":
        return as_float_array(name, value, ndim=2)
    array = as_float_array(name, value)
    if array.ndim == 0 or array.size == 0:
        raise ValueError(
            f"{name}: expected a non-empty array of rank >= 1, got shape {array.shape}"
        )
    return array


def norm(x: ArrayLike, which: NormName) -> float:
    """The norm ``||x||`` of the ball (``linf``, ``spectral``, ``l2`` = Frobenius, ``l1``).

    Args:
        x: array of rank >= 1 (2-D for ``spectral``), finite.
        which: norm name.

    Returns:
        The norm as a float.

    Raises:
        TypeError: non-numeric input.
        ValueError: unknown norm, bad shape, non-finite entries.

    Example:
        >>> norm([[3.0, 0.0], [0.0, -4.0]], "spectral"), norm([1.0, -2.0], "linf")
        (4.0, 2.0)
    """
    kind = _norm_name(which)
    return _norm_of(_matrix_or_vector("x", x, kind), kind)


def dual_norm(d: ArrayLike, which: NormName) -> float:
    """The dual norm ``||d||_*`` of the ball's norm (``l1`` for ``linf``, nuclear for ``spectral``).

    Args:
        d: array of rank >= 1 (2-D for ``spectral``), finite.
        which: the *ball's* norm name.

    Returns:
        ``max_{||v|| <= 1} <d, v>`` as a float.

    Raises:
        TypeError: non-numeric input.
        ValueError: unknown norm, bad shape, non-finite entries.

    Example:
        >>> dual_norm([[3.0, 0.0], [0.0, -4.0]], "spectral"), dual_norm([1.0, -2.0], "linf")
        (7.0, 3.0)

    References:
        Spec 14 §2.
    """
    kind = _norm_name(which)
    return _dual_of(_matrix_or_vector("d", d, kind), kind)


def lmo(d: ArrayLike, *, radius: float, which: NormName) -> FloatArray:
    """Linear minimisation oracle ``v in argmin_{||v|| <= r} <d, v>`` of a norm ball.

    * ``linf``: ``v = -r sign(d)`` (``sign(0) = 0``); ``<d, v> = -r ||d||_1``.
    * ``spectral``: ``v = -r U_k V_k^T`` from the thin SVD of ``d`` (exact polar factor);
      ``<d, v> = -r ||d||_nuclear``.
    * ``l2``: ``v = -r d / ||d||``;  ``l1``: ``v = -r sign(d_j) e_j``, ``j = argmax |d_j|``.
    * ``d = 0``: ``v = 0``.

    Symbols -> arguments: ``d`` = ``d``, ``r`` = ``radius``.

    Args:
        d: direction, rank >= 1 (2-D for ``spectral``), finite.
        radius: ``r > 0``.
        which: ball norm.

    Returns:
        ``v``, same shape as ``d``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shape, non-finite, ``radius <= 0``, unknown norm.

    Example:
        >>> lmo([0.5, -2.0, 0.0], radius=2.0, which="linf").tolist()
        [-2.0, 2.0, -0.0]

    References:
        Spec 14 §2 (LMOs) and §4.2 (LMO optimality).
    """
    kind = _norm_name(which)
    array = _matrix_or_vector("d", d, kind)
    r = _positive("radius", radius)
    return _lmo_of(array, r, kind)


def fw_gap(grad: ArrayLike, x: ArrayLike, radius: float, which: NormName) -> float:
    """Frank-Wolfe gap ``max_{v in C} <g, x - v> = <g, x> + r ||g||_*`` on ``C = {||v|| <= r}``.

    For ``x in C`` it is ``>= 0`` and vanishes exactly at the KKT points of
    ``min f s.t. ||x|| <= r`` (see :func:`fw_gap_split`).

    Symbols -> arguments: ``g = grad f(x)`` = ``grad``, ``x`` = ``x``, ``r`` = ``radius``.

    Args:
        grad: gradient, same shape as ``x`` (2-D for ``spectral``), finite.
        x: point, finite (``x`` need not lie in ``C``; the sign claim needs it).
        radius: ``r > 0``.
        which: ball norm.

    Returns:
        The gap as a float.

    Raises:
        TypeError: non-numeric input.
        ValueError: shape mismatch, bad shape, non-finite, ``radius <= 0``, unknown norm.

    Example:
        >>> fw_gap([1.0, -1.0], [-1.0, 1.0], 1.0, "linf")   # a KKT point of <g, x> on the box
        0.0

    References:
        Spec 14 §2 (FW gap) and §4.2; S. Lacoste-Julien, "Convergence rate of Frank-Wolfe
        for non-convex objectives" (2016).
    """
    kind = _norm_name(which)
    g = _matrix_or_vector("grad", grad, kind)
    point = _matrix_or_vector("x", x, kind)
    if g.shape != point.shape:
        raise ValueError(f"grad: expected the shape of x {point.shape}, got {g.shape}")
    r = _positive("radius", radius)
    return float(np.vdot(g, point)) + r * _dual_of(g, kind)


def fw_gap_split(
    grad: ArrayLike, x: ArrayLike, radius: float, which: NormName
) -> tuple[float, float]:
    """The two KKT residuals whose sum is the FW gap (spec 14 §4.2, derived).

    ``gap = ||g||_* (r - ||x||) + (<g, x> + ||g||_* ||x||)``: the first term is the
    complementary-slackness residual (``mu = ||g||_*``), the second the alignment
    residual; both are ``>= 0`` for ``x in C`` (Hoelder), so the gap vanishes iff both do.

    Args:
        grad: gradient, shape of ``x``.
        x: point in ``C``.
        radius: ``r > 0``.
        which: ball norm.

    Returns:
        ``(slackness, alignment)``.

    Raises:
        TypeError: non-numeric input.
        ValueError: as :func:`fw_gap`.

    Example:
        >>> fw_gap_split([1.0, 0.0], [0.5, 0.0], 1.0, "linf")
        (0.5, 1.0)

    References:
        Spec 14 §4.2 ("Gap formula and KKT split").
    """
    kind = _norm_name(which)
    g = _matrix_or_vector("grad", grad, kind)
    point = _matrix_or_vector("x", x, kind)
    if g.shape != point.shape:
        raise ValueError(f"grad: expected the shape of x {point.shape}, got {g.shape}")
    r = _positive("radius", radius)
    dual = _dual_of(g, kind)
    nx = _norm_of(point, kind)
    return dual * (r - nx), float(np.vdot(g, point)) + dual * nx


# ---------------------------------------------------------------------------- state and helpers
def _momentum_init(params: Params) -> MomentumState:
    blocks = as_blocks("params", params)
    return MomentumState(count=0, momentum=_frozen_blocks([np.zeros_like(b) for b in blocks]))


def _inputs(
    grads: object, state: object, params: object, kind: type
) -> tuple[tuple[FloatArray, ...], tuple[FloatArray, ...]]:
    _check_state("state", state, kind)
    if params is None:
        raise ValueError("params: expected the current parameters, got None")
    p = as_blocks("params", params)
    g = as_blocks("grads", grads, like=p)
    return p, g


def _per_tensor_clip(blocks: Sequence[FloatArray], tau: float) -> tuple[FloatArray, ...]:
    return tuple(_clip_blocks((b,), tau)[0] for b in blocks)


def _schedule(value: float | None, t: int, exponent: float) -> float:
    return float((t + 1) ** (-exponent)) if value is None else value


# ------------------------------------------------------------------------------------------ SFW
@dataclass(frozen=True, slots=True, kw_only=True)
class SFWConfig:
    """Generalized stochastic Frank-Wolfe (reconstructed Algorithm 3, spec 14 §3.3).

    Attributes:
        which: ball norm of ``C`` (``"linf"``; per block, ``C`` is the product of the
            blocks' balls).
        radius: ``r > 0`` (1.0).
        step_size: constant ``gamma`` in (0, 1], or ``None`` for ``gamma_t = (t+1)^(-3/4)``
            (our default schedule).
        b1: constant ``beta1`` in [0, 1), or ``None`` for ``1 - beta_t = (t+1)^(-1/2)``.
        b2: constant ``beta2`` in [0, 1), or ``None`` for the same schedule.
        clip_tau: R1 per-tensor clipping level (inf: no clipping).
        shape_scaled: scale the radius of an ``(m, n)`` block by ``max(1, m/n)^(1/2)``
            (False; Muon's shape factor ``s``).
        polar: spectral LMO by the exact polar factor or by Newton-Schulz (``"exact"``).
        ns_steps: Newton-Schulz steps when ``polar="newton_schulz"`` (5).
    """

    which: NormName = "linf"
    radius: float = 1.0
    step_size: float | None = None
    b1: float | None = None
    b2: float | None = None
    clip_tau: float = math.inf
    shape_scaled: bool = False
    polar: PolarMethod = "exact"
    ns_steps: int = NS_STEPS

    def __post_init__(self) -> None:
        _norm_name(self.which)
        _positive("radius", self.radius)
        if self.step_size is not None:
            gamma = _positive("step_size", self.step_size)
            if gamma > 1.0:
                raise ValueError(f"step_size: expected a number in (0, 1], got {gamma!r}")
        if self.b1 is not None:
            _beta("b1", self.b1)
        if self.b2 is not None:
            _beta("b2", self.b2)
        _clip_tau("clip_tau", self.clip_tau)
        _polar_method(self.polar)
        require_int("ns_steps", self.ns_steps, minimum=1)


def _block_radius(config: SFWConfig | SFWVRConfig, block: FloatArray) -> float:
    if config.shape_scaled and block.ndim == 2:
        return config.radius * math.sqrt(max(1.0, block.shape[0] / block.shape[1]))
    return config.radius


def _check_blocks_for(which: NormName, blocks: Sequence[FloatArray]) -> None:
    if which == "spectral":
        for i, b in enumerate(blocks):
            if b.ndim != 2:
                raise ValueError(
                    f"params: expected 2-D blocks for the spectral-norm ball, got block {i} of shape {b.shape}"
                )


def make_sfw(config: SFWConfig) -> Optimizer[MomentumState, Update[MomentumState]]:
    """Build the SFW pair for ``config`` (see :func:`sfw`)."""

    def init(params: Params) -> MomentumState:
        state = _momentum_init(params)
        _check_blocks_for(config.which, state.momentum)
        return state

    def update(
        grads: Params, state: MomentumState, params: Params | None = None
    ) -> tuple[Params, MomentumState]:
        p, g = _inputs(grads, state, params, MomentumState)
        _check_blocks_for(config.which, p)
        c = config
        t = state.count
        gamma = _schedule(c.step_size, t, 0.75)
        b1 = 1.0 - _schedule(None if c.b1 is None else 1.0 - c.b1, t, 0.5)
        b2 = 1.0 - _schedule(None if c.b2 is None else 1.0 - c.b2, t, 0.5)
        g = _per_tensor_clip(g, c.clip_tau)  # R1: clip before both momentum mixes
        new, moms = [], []
        for x, m, gb in zip(p, state.momentum, g, strict=True):
            d = b1 * m + (1.0 - b1) * gb  # d_t
            v = _lmo_of(d, _block_radius(c, x), c.which, c.polar, c.ns_steps)  # v_t = LMO(d_t)
            new.append(gamma * (v - x))  # x_{t+1} - x_t = gamma (v_t - x_t)
            moms.append(b2 * m + (1.0 - b2) * gb)  # m_t
        return _restore(params, new), MomentumState(count=t + 1, momentum=_frozen_blocks(moms))

    return Optimizer(init=init, update=update)


_SFW = SFWConfig()


def sfw(
    *,
    which: NormName = _SFW.which,
    radius: float = _SFW.radius,
    step_size: float | None = _SFW.step_size,
    b1: float | None = _SFW.b1,
    b2: float | None = _SFW.b2,
    clip_tau: float = _SFW.clip_tau,
    shape_scaled: bool = _SFW.shape_scaled,
    polar: PolarMethod = _SFW.polar,
    ns_steps: int = _SFW.ns_steps,
) -> Optimizer[MomentumState, Update[MomentumState]]:
    """Generalized stochastic Frank-Wolfe with momentum on a norm ball (reconstructed).

    For ``t = 0, 1, ...`` (``m_{-1} = 0``), per block::

        d_t = beta1 m_{t-1} + (1 - beta1) g_t;   v_t = LMO_C(d_t)
        x_{t+1} = (1 - gamma_t) x_t + gamma_t v_t;   m_t = beta2 m_{t-1} + (1 - beta2) g_t

    ``beta1 = beta2 = 0`` is plain SFW, ``beta1 = beta2`` SFW with momentum.  With
    ``clip_tau < inf`` every gradient tensor is first clipped to norm ``tau`` (R1,
    "clipped-momentum SFW", reconstructed).  If ``x_0 in C`` and ``gamma_t in [0, 1]``
    all iterates stay in ``C``.

    Symbols -> arguments: ``C = {||x|| <= r}`` with ``||.||`` = ``which`` and ``r`` =
    ``radius``; ``gamma`` = ``step_size``; ``beta1, beta2`` = ``b1, b2``; ``tau`` = ``clip_tau``.

    Variant: reconstructed "Algorithm 3" of spec 14 §3.3 (the paper's exact
    parametrisation was not retrieved); default schedules ``gamma_t = (t+1)^(-3/4)``,
    ``1 - beta_t = (t+1)^(-1/2)`` (our default).

    Args:
        which: ``"linf"``, ``"spectral"``, ``"l2"`` or ``"l1"``.
        radius: ``r > 0``.
        step_size: constant ``gamma`` in (0, 1] or ``None`` (schedule).
        b1: constant in [0, 1) or ``None`` (schedule).
        b2: constant in [0, 1) or ``None`` (schedule).
        clip_tau: R1 clipping level ``> 0`` (``inf``: off).
        shape_scaled: multiply the radius of an ``(m, n)`` block by ``max(1, m/n)^(1/2)``.
        polar: ``"exact"`` or ``"newton_schulz"`` spectral LMO.
        ns_steps: Newton-Schulz steps.

    Returns:
        ``Optimizer(init, update)``; ``update(grads, state, params) -> (updates, state)``.

    Raises:
        TypeError: non-real hyper-parameters.
        ValueError: out-of-range hyper-parameters; non-2-D blocks for ``spectral``.

    Example:
        >>> opt = sfw(which="linf", radius=1.0, step_size=0.5, b1=0.0, b2=0.0)
        >>> x = np.array([0.0, 0.0])
        >>> u, s = opt.update(np.array([1.0, -1.0]), opt.init(x), x)
        >>> (x + u).tolist()
        [-0.5, 0.5]

    References:
        Spec 14 §3.3-3.4; S. J. Reddi et al. (2016); A. Mokhtari et al. (2018).
    """
    return make_sfw(
        SFWConfig(
            which=which,
            radius=radius,
            step_size=step_size,
            b1=b1,
            b2=b2,
            clip_tau=clip_tau,
            shape_scaled=shape_scaled,
            polar=polar,
            ns_steps=ns_steps,
        )
    )


# ----------------------------------------------------------------------------------------- Lion
@dataclass(frozen=True, slots=True, kw_only=True)
class LionConfig:
    """Lion hyper-parameters (google/automl defaults, spec 14 §3.1) plus R1 clipping.

    Attributes:
        learning_rate: ``eta > 0`` (1e-4).
        b1: ``beta1`` in [0, 1) (0.9).
        b2: ``beta2`` in [0, 1) (0.99).
        weight_decay: ``lambda >= 0`` (0.0).
        clip_tau: R1 per-tensor gradient clipping (``inf``: off; reconstructed).
    """

    learning_rate: float = 1e-4
    b1: float = 0.9
    b2: float = 0.99
    weight_decay: float = 0.0
    clip_tau: float = math.inf

    def __post_init__(self) -> None:
        _positive("learning_rate", self.learning_rate)
        _beta("b1", self.b1)
        _beta("b2", self.b2)
        _nonneg("weight_decay", self.weight_decay)
        _clip_tau("clip_tau", self.clip_tau)

    def to_sfw(self) -> SFWConfig:
        """The SFW configuration Lion is an instance of (spec 14 E1, E3).

        ``C = {||x||_inf <= 1/lambda}``, ``gamma = eta lambda``, same ``beta1, beta2``.

        Raises:
            ValueError: ``weight_decay = 0`` (radius infinite) or ``eta lambda > 1``.
        """
        lam = self.weight_decay
        if lam == 0.0:
            raise ValueError(
                "weight_decay: expected lambda > 0 for the Frank-Wolfe interpretation, got 0.0"
            )
        gamma = self.learning_rate * lam
        if gamma > 1.0:
            raise ValueError(
                f"learning_rate: expected eta * lambda <= 1 for the Frank-Wolfe interpretation, got {gamma!r}"
            )
        return SFWConfig(
            which="linf",
            radius=1.0 / lam,
            step_size=gamma,
            b1=self.b1,
            b2=self.b2,
            clip_tau=self.clip_tau,
        )


_LION = LionConfig()


def lion(
    *,
    learning_rate: float = _LION.learning_rate,
    b1: float = _LION.b1,
    b2: float = _LION.b2,
    weight_decay: float = _LION.weight_decay,
    clip_tau: float = _LION.clip_tau,
) -> Optimizer[MomentumState, Update[MomentumState]]:
    """Lion (EvoLved Sign Momentum) with decoupled weight decay, as an optax pair.

    Per step (``m_0 = 0``)::

        c_t = beta1 m_{t-1} + (1 - beta1) g_t
        x_{t+1} = (1 - eta lambda) x_t - eta sign(c_t)        (sign(0) = 0)
        m_t = beta2 m_{t-1} + (1 - beta2) g_t

    With ``lambda > 0`` and ``eta lambda <= 1`` this is exactly SFW on
    ``{||x||_inf <= 1/lambda}`` with ``gamma = eta lambda`` (spec 14 E1; see
    :meth:`LionConfig.to_sfw`).  ``clip_tau < inf`` clips each gradient tensor to norm
    ``tau`` before both momentum mixes (R1 "Lion-clip", reconstructed).

    Symbols -> arguments: ``eta`` = ``learning_rate``, ``beta1, beta2`` = ``b1, b2``,
    ``lambda`` = ``weight_decay``, ``tau`` = ``clip_tau``.

    Variant: the google/automl reference implementation (decay applied to ``x_t``, then
    the sign step).

    Args:
        learning_rate: ``> 0``.
        b1: in [0, 1).
        b2: in [0, 1).
        weight_decay: ``>= 0``.
        clip_tau: ``> 0`` or ``inf``.

    Returns:
        ``Optimizer(init, update)``.

    Raises:
        TypeError: non-real hyper-parameters.
        ValueError: out-of-range hyper-parameters.

    Example:
        >>> opt = lion(learning_rate=0.1)
        >>> x = np.array([1.0, 1.0, 1.0])
        >>> u, s = opt.update(np.array([2.0, -3.0, 0.0]), opt.init(x), x)
        >>> (u + 0.0).tolist()
        [-0.1, 0.1, 0.0]

    References:
        X. Chen et al., "Symbolic Discovery of Optimization Algorithms", NeurIPS 2023
        (google/automl ``lion_pytorch.py``); spec 14 §3.1, §4.1 E1.
    """
    config = LionConfig(
        learning_rate=learning_rate, b1=b1, b2=b2, weight_decay=weight_decay, clip_tau=clip_tau
    )

    def update(
        grads: Params, state: MomentumState, params: Params | None = None
    ) -> tuple[Params, MomentumState]:
        p, g = _inputs(grads, state, params, MomentumState)
        c = config
        g = _per_tensor_clip(g, c.clip_tau)
        new, moms = [], []
        for x, m, gb in zip(p, state.momentum, g, strict=True):
            ct = c.b1 * m + (1.0 - c.b1) * gb
            # x_{t+1} - x_t = -eta lambda x_t - eta sign(c_t)
            new.append(-(c.learning_rate * c.weight_decay) * x - c.learning_rate * np.sign(ct))
            moms.append(c.b2 * m + (1.0 - c.b2) * gb)
        return _restore(params, new), MomentumState(
            count=state.count + 1, momentum=_frozen_blocks(moms)
        )

    return Optimizer(init=_momentum_init, update=update)


# ----------------------------------------------------------------------------------------- Muon
@dataclass(frozen=True, slots=True, kw_only=True)
class MuonConfig:
    """Muon hyper-parameters (KellerJordan/Muon defaults, spec 14 §3.2) plus R1 clipping.

    Attributes:
        learning_rate: ``eta > 0`` (0.02).
        momentum: ``mu`` in [0, 1) (0.95).
        nesterov: Nesterov-style mix (True).
        ns_steps: Newton-Schulz steps (5).
        weight_decay: ``lambda >= 0`` (0.0).
        exact_polar: use the exact polar factor ``U_k V_k^T`` instead of NS5 (False).
        coefficients: NS quintic ``(a, b, c)``.
        ns_eps: NS Frobenius guard (1e-7, :data:`~reference.optimizers.polar.NS_EPS`).
        clip_tau: R1 per-tensor gradient clipping (``inf``: off; reconstructed).
        flatten: reshape blocks of rank > 2 to ``(shape[0], -1)`` (False; conv kernels).
    """

    learning_rate: float = 0.02
    momentum: float = 0.95
    nesterov: bool = True
    ns_steps: int = NS_STEPS
    weight_decay: float = 0.0
    exact_polar: bool = False
    coefficients: tuple[float, float, float] = NS_COEFFICIENTS
    ns_eps: float = NS_EPS
    clip_tau: float = math.inf
    flatten: bool = False

    def __post_init__(self) -> None:
        _positive("learning_rate", self.learning_rate)
        _beta("momentum", self.momentum)
        require_int("ns_steps", self.ns_steps, minimum=1)
        _nonneg("weight_decay", self.weight_decay)
        _coefficients(self.coefficients)
        _nonneg("ns_eps", self.ns_eps)
        _clip_tau("clip_tau", self.clip_tau)
        for name in ("nesterov", "exact_polar", "flatten"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name}: expected a bool, got {describe(getattr(self, name))}")

    def to_sfw(self) -> SFWConfig:
        """The SFW configuration Muon is an instance of (spec 14 E2, E3).

        ``C = {||W||_2 <= s/lambda}`` per block, ``gamma = eta lambda``,
        ``beta1 = mu^2, beta2 = mu`` with Nesterov, ``beta1 = beta2 = mu`` without;
        the LMO uses NS5 unless ``exact_polar`` (then the equivalence is exact).

        Raises:
            ValueError: ``weight_decay = 0`` (radius infinite) or ``eta lambda > 1``.
        """
        lam = self.weight_decay
        if lam == 0.0:
            raise ValueError(
                "weight_decay: expected lambda > 0 for the Frank-Wolfe interpretation, got 0.0"
            )
        gamma = self.learning_rate * lam
        if gamma > 1.0:
            raise ValueError(
                f"learning_rate: expected eta * lambda <= 1 for the Frank-Wolfe interpretation, got {gamma!r}"
            )
        mu = self.momentum
        return SFWConfig(
            which="spectral",
            radius=1.0 / lam,
            step_size=gamma,
            b1=mu * mu if self.nesterov else mu,
            b2=mu,
            clip_tau=self.clip_tau,
            shape_scaled=True,
            polar="exact" if self.exact_polar else "newton_schulz",
            ns_steps=self.ns_steps,
        )


def _muon_matrix(name: str, block: FloatArray, flatten: bool) -> FloatArray:
    if block.ndim == 2:
        return block
    if flatten and block.ndim > 2:
        return block.reshape(block.shape[0], -1)
    raise ValueError(
        f"{name}: expected 2-D blocks for Muon (or rank > 2 with flatten=True), got shape {block.shape}"
    )


def _orthogonalise(u: FloatArray, c: MuonConfig) -> FloatArray:
    if c.exact_polar:
        return polar(u)
    return newton_schulz(u, steps=c.ns_steps, coefficients=c.coefficients, eps=c.ns_eps)


_MUON = MuonConfig()


def muon(
    *,
    learning_rate: float = _MUON.learning_rate,
    momentum: float = _MUON.momentum,
    nesterov: bool = _MUON.nesterov,
    ns_steps: int = _MUON.ns_steps,
    weight_decay: float = _MUON.weight_decay,
    exact_polar: bool = _MUON.exact_polar,
    coefficients: tuple[float, float, float] = _MUON.coefficients,
    ns_eps: float = _MUON.ns_eps,
    clip_tau: float = _MUON.clip_tau,
    flatten: bool = _MUON.flatten,
) -> Optimizer[MomentumState, Update[MomentumState]]:
    """Muon (MomentUm Orthogonalized by Newton-Schulz) for 2-D blocks, as an optax pair.

    Per step and ``(m, n)`` block ``W`` (``B_0 = 0``)::

        B_t = mu B_{t-1} + (1 - mu) G_t
        U_t = (1 - mu) G_t + mu B_t   (nesterov)   or   U_t = B_t
        O_t = NS5(U_t) * s,   s = max(1, m/n)^(1/2)
        W_{t+1} = (1 - eta lambda) W_t - eta O_t

    With ``exact_polar=True`` NS5 is replaced by ``U_k V_k^T`` and Muon is exactly SFW
    on ``{||W||_2 <= s/lambda}`` (spec 14 E2; :meth:`MuonConfig.to_sfw`).
    ``clip_tau < inf`` clips each gradient tensor first (R1 "Muon-clip", reconstructed).

    Symbols -> arguments: ``eta`` = ``learning_rate``, ``mu`` = ``momentum``,
    ``lambda`` = ``weight_decay``, ``ns_steps`` = ``ns_steps``, ``tau`` = ``clip_tau``.

    Variant: KellerJordan/Muon ``muon_update`` (lerp form) in float64 (the reference
    runs NS5 in bfloat16); ``exact_polar`` is this library's exact variant.

    Args:
        learning_rate: ``> 0``.
        momentum: in [0, 1).
        nesterov: bool.
        ns_steps: int ``>= 1``.
        weight_decay: ``>= 0``.
        exact_polar: bool.
        coefficients: NS ``(a, b, c)``.
        ns_eps: ``>= 0``.
        clip_tau: ``> 0`` or ``inf``.
        flatten: bool.

    Returns:
        ``Optimizer(init, update)``; blocks must be 2-D (or flattened).

    Raises:
        TypeError: non-real hyper-parameters.
        ValueError: out-of-range hyper-parameters; non-2-D blocks without ``flatten``.

    Example:
        >>> opt = muon(learning_rate=0.1, exact_polar=True, nesterov=False)
        >>> w = np.zeros((2, 2))
        >>> u, s = opt.update(np.diag([2.0, -1.0]), opt.init(w), w)
        >>> (u + 0.0).tolist()
        [[-0.1, 0.0], [0.0, 0.1]]

    References:
        K. Jordan et al. (2024), KellerJordan/Muon ``muon.py``; spec 14 §3.2, §4.1 E2.
    """
    config = MuonConfig(
        learning_rate=learning_rate,
        momentum=momentum,
        nesterov=nesterov,
        ns_steps=ns_steps,
        weight_decay=weight_decay,
        exact_polar=exact_polar,
        coefficients=coefficients,
        ns_eps=ns_eps,
        clip_tau=clip_tau,
        flatten=flatten,
    )

    def init(params: Params) -> MomentumState:
        state = _momentum_init(params)
        for i, b in enumerate(state.momentum):
            _muon_matrix(f"params[{i}]", b, config.flatten)
        return state

    def update(
        grads: Params, state: MomentumState, params: Params | None = None
    ) -> tuple[Params, MomentumState]:
        p, g = _inputs(grads, state, params, MomentumState)
        c = config
        g = _per_tensor_clip(g, c.clip_tau)
        mu = c.momentum
        new, moms = [], []
        for i, (w, b, gb) in enumerate(zip(p, state.momentum, g, strict=True)):
            _muon_matrix(f"params[{i}]", w, c.flatten)
            buf = mu * b + (1.0 - mu) * gb  # step 1
            u = (1.0 - mu) * gb + mu * buf if c.nesterov else buf  # step 2
            mat = _muon_matrix(f"params[{i}]", u, c.flatten)
            scale = math.sqrt(max(1.0, mat.shape[0] / mat.shape[1]))
            o = (_orthogonalise(mat, c) * scale).reshape(w.shape)  # step 3
            # step 4: W_{t+1} - W_t = -eta lambda W_t - eta O_t
            new.append(-(c.learning_rate * c.weight_decay) * w - c.learning_rate * o)
            moms.append(buf)
        return _restore(params, new), MomentumState(
            count=state.count + 1, momentum=_frozen_blocks(moms)
        )

    return Optimizer(init=init, update=update)


# -------------------------------------------------------------------------------- R2: STORM SFW
@dataclass(frozen=True, slots=True, kw_only=True)
class SFWVRConfig:
    """Clipped variance-reduced SFW (R2, reconstructed, spec 14 §3.4).

    Attributes:
        which: ball norm (``"linf"``).
        radius: ``r > 0`` (1.0).
        step_size: constant ``gamma`` in (0, 1] or ``None`` for ``(t+1)^(-2/3)``.
        a: constant ``a`` in (0, 1] or ``None`` for ``a_t = (t+1)^(-2/3)``.
        clip_tau: clipping level ``> 0`` (1.0, our default; inf: off).
        clip: ``"per_gradient"`` (clip both stochastic gradients; default) or ``"estimator"``
            (clip the STORM estimator).
        shape_scaled: Muon's shape factor on the radius of 2-D blocks (False).
        polar: spectral LMO method (``"exact"``).
        ns_steps: Newton-Schulz steps (5).
    """

    which: NormName = "linf"
    radius: float = 1.0
    step_size: float | None = None
    a: float | None = None
    clip_tau: float = 1.0
    clip: Literal["per_gradient", "estimator"] = "per_gradient"
    shape_scaled: bool = False
    polar: PolarMethod = "exact"
    ns_steps: int = NS_STEPS

    def __post_init__(self) -> None:
        _norm_name(self.which)
        _positive("radius", self.radius)
        for name in ("step_size", "a"):
            value = getattr(self, name)
            if value is not None:
                v = _positive(name, value)
                if v > 1.0:
                    raise ValueError(f"{name}: expected a number in (0, 1], got {v!r}")
        _clip_tau("clip_tau", self.clip_tau)
        if self.clip not in ("per_gradient", "estimator"):
            raise ValueError(f"clip: expected 'per_gradient' or 'estimator', got {self.clip!r}")
        _polar_method(self.polar)
        require_int("ns_steps", self.ns_steps, minimum=1)


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class VRState:
    """R2 state: step ``count`` and the STORM estimator ``m`` per block (read-only)."""

    count: int
    estimator: tuple[FloatArray, ...]


class VRUpdate(Protocol):
    """Call shape of ``update`` for the variance-reduced pairs (:func:`sfw_vr`, :func:`lion_vr`,
    :func:`muon_vr`): :class:`reference.optimizers.Update` plus the previous step's gradient at
    the current parameters, ``prev_grads`` (the STORM correction; ``None`` on the first step)."""

    def __call__(
        self,
        grads: Params,
        state: VRState,
        params: Params | None = None,
        *,
        prev_grads: Params | None = None,
    ) -> tuple[Params, VRState]:
        """One step: the updates and the next state."""
        ...


def make_sfw_vr(config: SFWVRConfig) -> Optimizer[VRState, VRUpdate]:
    """Build the R2 pair for ``config`` (see :func:`sfw_vr`)."""

    def init(params: Params) -> VRState:
        blocks = as_blocks("params", params)
        _check_blocks_for(config.which, blocks)
        return VRState(count=0, estimator=_frozen_blocks([np.zeros_like(b) for b in blocks]))

    def update(
        grads: Params,
        state: VRState,
        params: Params | None = None,
        *,
        prev_grads: Params | None = None,
    ) -> tuple[Params, VRState]:
        p, g = _inputs(grads, state, params, VRState)
        _check_blocks_for(config.which, p)
        c = config
        t = state.count
        tau = c.clip_tau
        clip_g = c.clip == "per_gradient"
        if t == 0:
            est = _per_tensor_clip(g, tau)  # m_0 = clip(g(x_0; xi_0))
        else:
            if prev_grads is None:
                raise ValueError(
                    "prev_grads: expected the gradient at the previous iterate with the current "
                    "sample (t >= 1), got None"
                )
            gp = as_blocks("prev_grads", prev_grads, like=p)
            a = _schedule(c.a, t, 2.0 / 3.0)
            if clip_g:
                cg, cp = _per_tensor_clip(g, tau), _per_tensor_clip(gp, tau)
                est = tuple(
                    gb + (1.0 - a) * (m - pb)
                    for gb, m, pb in zip(cg, state.estimator, cp, strict=True)
                )
            else:
                est = _per_tensor_clip(
                    [
                        gb + (1.0 - a) * (m - pb)
                        for gb, m, pb in zip(g, state.estimator, gp, strict=True)
                    ],
                    tau,
                )
        gamma = _schedule(c.step_size, t, 2.0 / 3.0)
        new = []
        for x, m in zip(p, est, strict=True):
            v = _lmo_of(m, _block_radius(c, x), c.which, c.polar, c.ns_steps)
            new.append(gamma * (v - x))
        return _restore(params, new), VRState(count=t + 1, estimator=_frozen_blocks(est))

    return Optimizer(init=init, update=update)


_SFW_VR = SFWVRConfig()


def sfw_vr(
    *,
    which: NormName = _SFW_VR.which,
    radius: float = _SFW_VR.radius,
    step_size: float | None = _SFW_VR.step_size,
    a: float | None = _SFW_VR.a,
    clip_tau: float = _SFW_VR.clip_tau,
    clip: Literal["per_gradient", "estimator"] = _SFW_VR.clip,
    shape_scaled: bool = _SFW_VR.shape_scaled,
    polar: PolarMethod = _SFW_VR.polar,
    ns_steps: int = _SFW_VR.ns_steps,
) -> Optimizer[VRState, VRUpdate]:
    """Clipped variance-reduced (STORM-type) SFW, robust variant R2 (reconstructed).

    Two stochastic gradients per step at one sample ``xi_t``::

        m_0 = clip(g(x_0; xi_0))
        m_t = clip(g(x_t; xi_t)) + (1 - a_t)(m_{t-1} - clip(g(x_{t-1}; xi_t)))
        v_t = LMO_C(m_t);   x_{t+1} = (1 - gamma_t) x_t + gamma_t v_t

    ``update(grads, state, params, *, prev_grads)``: ``grads = g(x_t; xi_t)`` and
    ``prev_grads = g(x_{t-1}; xi_t)`` (ignored at ``t = 0``).  With
    ``clip="estimator"`` the clip is applied to the whole estimator instead.

    Symbols -> arguments: ``a_t`` = ``a`` (``None``: ``(t+1)^(-2/3)``), ``gamma_t`` =
    ``step_size`` (``None``: ``(t+1)^(-2/3)``), ``tau`` = ``clip_tau``.

    Variant: spec 14 §3.4 R2 (exact form not retrieved; clip placement is a keyword).

    Args:
        which: ball norm.
        radius: ``> 0``.
        step_size: in (0, 1] or ``None``.
        a: in (0, 1] or ``None``.
        clip_tau: ``> 0`` or ``inf``.
        clip: ``"per_gradient"`` or ``"estimator"``.
        shape_scaled: bool.
        polar: ``"exact"`` or ``"newton_schulz"``.
        ns_steps: int ``>= 1``.

    Returns:
        ``Optimizer(init, update)``.

    Raises:
        TypeError: non-real hyper-parameters.
        ValueError: out-of-range hyper-parameters; ``prev_grads`` missing at ``t >= 1``.

    Example:
        >>> opt = sfw_vr(radius=1.0, step_size=1.0)
        >>> x = np.zeros(2)
        >>> u, s = opt.update(np.array([3.0, -4.0]), opt.init(x), x)
        >>> (x + u).tolist(), s.estimator[0].tolist()
        ([-1.0, 1.0], [0.6000000000000001, -0.8])

    References:
        Spec 14 §3.4 (R2); A. Cutkosky and F. Orabona, "Momentum-based variance reduction
        in non-convex SGD" (STORM), NeurIPS 2019.
    """
    return make_sfw_vr(
        SFWVRConfig(
            which=which,
            radius=radius,
            step_size=step_size,
            a=a,
            clip_tau=clip_tau,
            clip=clip,
            shape_scaled=shape_scaled,
            polar=polar,
            ns_steps=ns_steps,
        )
    )


def _fw_params(learning_rate: float, weight_decay: float) -> tuple[float, float]:
    eta = _positive("learning_rate", learning_rate)
    lam = _positive("weight_decay", weight_decay)
    if eta * lam > 1.0:
        raise ValueError(f"learning_rate: expected eta * lambda <= 1, got {eta * lam!r}")
    return eta, lam


def lion_vr(
    *,
    learning_rate: float = _LION.learning_rate,
    weight_decay: float = 1.0,
    a: float | None = _SFW_VR.a,
    clip_tau: float = _SFW_VR.clip_tau,
    clip: Literal["per_gradient", "estimator"] = _SFW_VR.clip,
) -> Optimizer[VRState, VRUpdate]:
    """Lion-VR: the Lion variant induced by R2 (reconstructed).

    ``x_{t+1} = (1 - eta lambda) x_t - eta sign(m_t)`` with ``m_t`` the clipped STORM
    estimator of :func:`sfw_vr`; i.e. R2 on ``{||x||_inf <= 1/lambda}`` with
    ``gamma = eta lambda``.  ``weight_decay`` must be ``> 0`` (its default is ours; the
    other defaults are :func:`lion`'s and :func:`sfw_vr`'s).

    Args:
        learning_rate: ``eta > 0``.
        weight_decay: ``lambda > 0``, ``eta lambda <= 1``.
        a: STORM weight in (0, 1] or ``None`` (schedule).
        clip_tau: ``> 0`` or ``inf``.
        clip: clip placement.

    Returns:
        ``Optimizer(init, update)`` with ``update(grads, state, params, *, prev_grads)``.

    Raises:
        TypeError: non-real hyper-parameters.
        ValueError: out-of-range hyper-parameters.

    References:
        Spec 14 §3.4 (R2 and the Lion/Muon variants it induces).
    """
    eta, lam = _fw_params(learning_rate, weight_decay)
    return sfw_vr(
        which="linf", radius=1.0 / lam, step_size=eta * lam, a=a, clip_tau=clip_tau, clip=clip
    )


def muon_vr(
    *,
    learning_rate: float = _MUON.learning_rate,
    weight_decay: float = 1.0,
    a: float | None = _SFW_VR.a,
    clip_tau: float = _SFW_VR.clip_tau,
    clip: Literal["per_gradient", "estimator"] = _SFW_VR.clip,
    exact_polar: bool = _MUON.exact_polar,
    ns_steps: int = _MUON.ns_steps,
) -> Optimizer[VRState, VRUpdate]:
    """Muon-VR: the Muon variant induced by R2 (reconstructed).

    ``W_{t+1} = (1 - eta lambda) W_t - eta s O(m_t)`` with ``O`` the polar factor (exact or
    NS5) of the clipped STORM estimator; R2 on ``{||W||_2 <= s/lambda}``.  ``weight_decay``
    must be ``> 0`` (its default is ours; the other defaults are :func:`muon`'s and
    :func:`sfw_vr`'s).

    Args:
        learning_rate: ``eta > 0``.
        weight_decay: ``lambda > 0``, ``eta lambda <= 1``.
        a: STORM weight in (0, 1] or ``None``.
        clip_tau: ``> 0`` or ``inf``.
        clip: clip placement.
        exact_polar: exact polar factor instead of NS5.
        ns_steps: NS steps.

    Returns:
        ``Optimizer(init, update)`` with ``update(grads, state, params, *, prev_grads)``.

    Raises:
        TypeError: non-real hyper-parameters.
        ValueError: out-of-range hyper-parameters; non-2-D blocks.

    References:
        Spec 14 §3.4 (R2).
    """
    eta, lam = _fw_params(learning_rate, weight_decay)
    return sfw_vr(
        which="spectral",
        radius=1.0 / lam,
        step_size=eta * lam,
        a=a,
        clip_tau=clip_tau,
        clip=clip,
        shape_scaled=True,
        polar="exact" if exact_polar else "newton_schulz",
        ns_steps=ns_steps,
    )
