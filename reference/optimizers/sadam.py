"""S-Adam (Adam with a Local Geometric Instability brake), its LGI estimator, and Adam baselines.

Spec 02: R. Xu, B. She, X. Jin, Q. Wang, "Singularity-aware Optimization via
Randomized Geometric Probing: Towards Stable Non-smooth Optimization", ICML 2026,
arXiv:2605.29547.  Only the abstract of the paper was retrieved; the algorithm is
the authors' final public code (github.com/RuoranXu/S-Adam, file ``s_adam``), as
spec 02 sections 3.1-3.2 transcribe it.  Nothing here encodes a constant of the
paper's convergence claim (not retrieved).

Public entry points (re-exported by :mod:`reference.optimizers`):

* :func:`lgi` / :func:`lgi_details` — the LGI score ``rho`` (spec 02, Algorithm A).
* :func:`damping` — ``alpha = exp(-lambda * min(rho, cap))``.
* :func:`s_adam` — the optax pair of S-Adam (Algorithm B; ``variant="official"`` or
  ``"paper_plain"``).
* :func:`adam`, :func:`adamw` — PyTorch Adam/AdamW semantics (baselines, spec 02 §3.3).
* :func:`prox_sgd` — the authors' Prox-SGD baseline (momentum + soft threshold).
* :func:`goldstein_stationarity` — a sampled upper bound on ``dist(0, d_delta f(x))``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import nnls

from reference._arrays import (
    FloatArray,
    as_float_array,
    describe,
    readonly,
    require_generator,
    require_int,
)
from reference._repr import summary_repr
from reference.optimizers.base import (
    Optimizer,
    Params,
    Update,
    _beta,
    _check_state,
    _frozen_blocks,
    _nonneg,
    _positive,
    _restore,
    as_blocks,
)

__all__ = [
    "AdamConfig",
    "AdamState",
    "LGIResult",
    "NonFiniteLossError",
    "ProxSGDConfig",
    "ProxSGDState",
    "SAdamConfig",
    "SAdamState",
    "adam",
    "adamw",
    "damping",
    "goldstein_stationarity",
    "lgi",
    "lgi_details",
    "prox_sgd",
    "s_adam",
]

DirectionMode = Literal["per_block", "global"]
LossFn = Callable[[Params], float]


class NonFiniteLossError(FloatingPointError, ValueError):
    """The loss returned NaN/inf at the base point or during a probe (spec 02 §5, our default).

    It is both a :class:`FloatingPointError` (spec 02's choice) and a :class:`ValueError`
    (the library's bad-input convention).
    """


def _call_loss(loss: LossFn, point: Params, where: str) -> float:
    value = loss(point)
    try:
        result = float(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"loss: expected a real scalar at {where}, got {describe(value)}") from exc
    if not math.isfinite(result):
        raise NonFiniteLossError(f"loss: expected a finite value at {where}, got {result!r}")
    return result


def _mode(value: object) -> DirectionMode:
    if value == "per_block":
        return "per_block"
    if value == "global":
        return "global"
    raise ValueError(f"direction_mode: expected 'per_block' or 'global', got {value!r}")


# ------------------------------------------- S-Adam's hyper-parameters (the LGI defaults too)
@dataclass(frozen=True, slots=True, kw_only=True)
class SAdamConfig:
    """S-Adam hyper-parameters; defaults from the authors' final ``s_adam`` file (spec 02 §3.2).

    Attributes:
        learning_rate: ``eta >= 0`` (1e-3).
        b1: ``beta1`` in [0, 1) (0.9).
        b2: ``beta2`` in [0, 1) (0.999).
        eps: ``>= 0`` (1e-8), added to ``sqrt(v)`` before the bias correction.
        weight_decay: decoupled, undamped ``w >= 0`` (1e-2).
        k_directions: probes ``k >= 1`` (2).
        sigma: probe radius ``> 0`` (0.01).
        lgi_lambda: brake strength ``lambda >= 0`` (2.0).
        stabilize_eps: ``zeta >= 0`` (1e-6).
        lgi_cap: ``> 0`` (10.0).
        variant: ``"official"`` (authors' code) or ``"paper_plain"`` (third-party
            transcription: no bias correction, no weight decay).
        direction_mode: ``"per_block"`` (code) or ``"global"``.
        ddof: variance degrees of freedom, 1 (final code) or 0 (early demo).
    """

    learning_rate: float = 1e-3
    b1: float = 0.9
    b2: float = 0.999
    eps: float = 1e-8
    weight_decay: float = 1e-2
    k_directions: int = 2
    sigma: float = 0.01
    lgi_lambda: float = 2.0
    stabilize_eps: float = 1e-6
    lgi_cap: float = 10.0
    variant: Literal["official", "paper_plain"] = "official"
    direction_mode: DirectionMode = "per_block"
    ddof: int = 1

    def __post_init__(self) -> None:
        _nonneg("learning_rate", self.learning_rate)
        _beta("b1", self.b1)
        _beta("b2", self.b2)
        _nonneg("eps", self.eps)
        _nonneg("weight_decay", self.weight_decay)
        require_int("k_directions", self.k_directions, minimum=1)
        _positive("sigma", self.sigma)
        _nonneg("lgi_lambda", self.lgi_lambda)
        _nonneg("stabilize_eps", self.stabilize_eps)
        _positive("lgi_cap", self.lgi_cap)
        if self.variant not in ("official", "paper_plain"):
            raise ValueError(f"variant: expected 'official' or 'paper_plain', got {self.variant!r}")
        _mode(self.direction_mode)
        require_int("ddof", self.ddof, minimum=0, maximum=1)


_S_ADAM = SAdamConfig()


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class LGIResult:
    """Everything the LGI estimator computed at one point.

    Attributes:
        rho: the LGI score ``s2 / (q + zeta)`` (0 when ``k = 1`` or ``q + zeta = 0``).
        slopes: ``(k,)`` read-only, the forward differences ``D_i``.
        variance: ``s2``, sample variance of the slopes (``ddof`` as configured).
        mean_square: ``q = mean(D_i^2)``.
        evaluations: number of loss evaluations made (``k``).
    """

    rho: float
    slopes: FloatArray
    variance: float
    mean_square: float
    evaluations: int


def _directions(
    blocks: Sequence[FloatArray], k: int, mode: DirectionMode, rng: np.random.Generator
) -> list[tuple[FloatArray, ...]]:
    out: list[tuple[FloatArray, ...]] = []
    for _ in range(k):
        if mode == "per_block":  # Alg. A l. 1a: unit norm per block
            dirs = []
            for b in blocks:
                z = rng.standard_normal(b.shape)
                dirs.append(z / (float(np.linalg.norm(z)) + 1e-12))
            out.append(tuple(dirs))
        else:  # "global sphere": normalise the concatenated Gaussian once
            zs = [rng.standard_normal(b.shape) for b in blocks]
            norm = math.sqrt(sum(float(np.vdot(z, z)) for z in zs)) + 1e-12
            out.append(tuple(z / norm for z in zs))
    return out


def lgi_details(
    f: LossFn,
    theta: ArrayLike,
    base: float,
    *,
    k: int,
    sigma: float,
    rng: np.random.Generator,
    zeta: float = _S_ADAM.stabilize_eps,
    ddof: int = _S_ADAM.ddof,
    direction_mode: DirectionMode = _S_ADAM.direction_mode,
    directions: Sequence[object] | None = None,
) -> LGIResult:
    """The Local Geometric Instability estimator with all its intermediate quantities.

    For ``i = 1..k`` draw a direction ``u_i`` (a standard Gaussian per block,
    normalised per block: total norm ``sqrt(B)``; or, with ``direction_mode="global"``,
    uniform on the unit sphere of R^d), probe once and form the forward difference

        D_i = ( f(theta + sigma u_i) - base ) / sigma.

    Then ``s2 = var(D; ddof)`` (0 when ``k = 1``), ``q = mean(D^2)`` and
    ``rho = s2 / (q + zeta)`` (``rho = 0`` if ``q + zeta = 0``, our default; the
    authors' code gives NaN there).  ``theta`` is never modified (probes are built
    out of place).

    Symbols -> arguments: ``f`` = ``f``, ``theta`` = ``theta``, ``f(theta)`` = ``base``,
    ``k`` = ``k``, ``sigma`` = ``sigma``, ``zeta`` = ``zeta`` (code: ``stabilize_eps``).

    Variant: Algorithm A as in the authors' final code (``ddof = 1``, per-block
    directions, one-sided differences); ``direction_mode="global"`` is the paper-level
    formula of a third-party transcription; ``ddof=0`` the authors' earlier demo.
    ``f`` is treated as deterministic (the authors' scripts re-draw dropout masks per
    probe).

    Args:
        f: loss callable ``f(params) -> float``; ``params`` has the structure of ``theta``.
        theta: one array or a tuple of arrays (blocks), finite.
        base: ``f(theta)``, finite (the value from the gradient pass).
        k: number of probes ``>= 1``.
        sigma: probe radius ``> 0``.
        rng: random generator for the directions.
        zeta: stabiliser ``>= 0``.
        ddof: degrees of freedom of the variance, 0 or 1.
        direction_mode: ``"per_block"`` (default) or ``"global"``.
        directions: test hook: ``k`` directions with the structure of ``theta``, used
            as given (no normalisation); ``rng`` is then not used.

    Returns:
        An :class:`LGIResult`.

    Raises:
        TypeError: non-numeric input; ``f`` not callable or returning a non-scalar.
        ValueError: bad shapes, non-finite ``theta``/``base``, ``k < 1``, ``sigma <= 0``,
            ``zeta < 0``, ``ddof`` not in {0, 1}, wrong number of directions.
        NonFiniteLossError: ``f`` returned NaN/inf during a probe.

    Example:
        >>> res = lgi_details(lambda x: float(x[0]), np.zeros(1), 0.0, k=2, sigma=0.1,
        ...                   rng=np.random.default_rng(0), zeta=0.0,
        ...                   directions=[np.array([1.0]), np.array([-1.0])])
        >>> res.slopes.tolist(), res.rho
        ([1.0, -1.0], 2.0)

    References:
        Spec 02 §3.1 (Algorithm A) and §4.2 (P1-P6); official code github.com/RuoranXu/S-Adam.
    """
    if not callable(f):
        raise TypeError(f"f: expected a callable params -> float, got {describe(f)}")
    blocks = as_blocks("theta", theta)
    base_value = _finite_loss("base", base)
    n_probes = require_int("k", k, minimum=1)
    radius = _positive("sigma", sigma)
    stab = _nonneg("zeta", zeta)
    dof = require_int("ddof", ddof, minimum=0, maximum=1)
    mode = _mode(direction_mode)
    if directions is None:
        require_generator("rng", rng)
        dirs = _directions(blocks, n_probes, mode, rng)
    else:
        if len(directions) != n_probes:
            raise ValueError(
                f"directions: expected k = {n_probes} directions, got {len(directions)}"
            )
        dirs = [as_blocks(f"directions[{i}]", d, like=blocks) for i, d in enumerate(directions)]
    slopes = np.empty(n_probes)
    for i, u in enumerate(dirs):
        probe = _restore(theta, [b + radius * ub for b, ub in zip(blocks, u, strict=True)])
        slopes[i] = (_call_loss(f, probe, f"probe {i}") - base_value) / radius  # Alg. A l. 1b
    s2 = float(np.var(slopes, ddof=dof)) if n_probes >= 2 else 0.0  # l. 2
    q = float(np.mean(slopes * slopes))  # l. 3
    rho = 0.0 if q + stab == 0.0 else s2 / (q + stab)  # l. 4
    return LGIResult(
        rho=rho, slopes=readonly(slopes), variance=s2, mean_square=q, evaluations=n_probes
    )


def _finite_loss(name: str, value: object) -> float:
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.floating):
        raise TypeError(f"{name}: expected a real number, got {describe(value)}")
    result = float(value)
    if not math.isfinite(result):
        raise NonFiniteLossError(f"{name}: expected a finite loss value, got {result!r}")
    return result


def lgi(
    f: LossFn,
    theta: ArrayLike,
    base: float,
    *,
    k: int,
    sigma: float,
    rng: np.random.Generator,
    zeta: float = _S_ADAM.stabilize_eps,
    ddof: int = _S_ADAM.ddof,
    direction_mode: DirectionMode = _S_ADAM.direction_mode,
    directions: Sequence[object] | None = None,
) -> float:
    """The LGI score ``rho = s2 / (q + zeta)`` of spec 02 Algorithm A (see :func:`lgi_details`).

    Properties (spec 02 §4.2, derived): ``rho = 0`` for ``k = 1``;
    ``0 <= rho < k/(k-1)`` for ``zeta > 0`` (P1); invariant to ``f -> f + c`` (P2);
    ``rho ~ 1`` for affine ``f`` (P5).

    Args:
        f: loss callable ``f(params) -> float``.
        theta: one array or a tuple of arrays.
        base: ``f(theta)``.
        k: probes ``>= 1``.
        sigma: probe radius ``> 0``.
        rng: random generator.
        zeta: stabiliser ``>= 0`` (code ``stabilize_eps``).
        ddof: 1 (final code) or 0 (earlier demo).
        direction_mode: ``"per_block"`` or ``"global"``.
        directions: optional explicit directions (test hook).

    Returns:
        ``rho`` as a Python float.

    Raises:
        TypeError: see :func:`lgi_details`.
        ValueError: see :func:`lgi_details`.
        NonFiniteLossError: non-finite loss during a probe.

    Example:
        >>> rho = lgi(lambda x: float(abs(x[0])), np.zeros(1), 0.0, k=4, sigma=0.01,
        ...           rng=np.random.default_rng(1))   # V-shaped kink: all slopes equal 1
        >>> abs(rho) < 1e-12
        True

    References:
        Spec 02 §3.1 (Algorithm A, authors' final code).
    """
    return lgi_details(
        f,
        theta,
        base,
        k=k,
        sigma=sigma,
        rng=rng,
        zeta=zeta,
        ddof=ddof,
        direction_mode=direction_mode,
        directions=directions,
    ).rho


def damping(rho: float, *, lgi_lambda: float, cap: float = _S_ADAM.lgi_cap) -> float:
    """The brake ``alpha = exp(-lambda * min(rho, cap))`` in ``(0, 1]``.

    Symbols -> arguments: ``rho`` = ``rho``, ``lambda`` = ``lgi_lambda``, cap = ``cap``
    (code ``lgi_cap``).

    Args:
        rho: LGI score, finite ``>= 0``.
        lgi_lambda: brake strength ``>= 0``.
        cap: ``> 0``.

    Returns:
        ``alpha``; 1 when ``lgi_lambda = 0`` or ``rho = 0``.

    Raises:
        TypeError: non-real arguments.
        ValueError: ``rho < 0`` or non-finite, ``lgi_lambda < 0``, ``cap <= 0``.

    Example:
        >>> damping(0.0, lgi_lambda=2.0), round(damping(1.0, lgi_lambda=2.0), 6)
        (1.0, 0.135335)

    References:
        Spec 02 §3.2, step 3.
    """
    r = _nonneg("rho", rho)
    lam = _nonneg("lgi_lambda", lgi_lambda)
    c = _positive("cap", cap)
    return math.exp(-lam * min(r, c))


# --------------------------------------------------------------------------------- Adam family
@dataclass(frozen=True, slots=True, kw_only=True)
class AdamConfig:
    """Adam/AdamW hyper-parameters (PyTorch semantics, spec 02 §3.3).

    Attributes:
        learning_rate: ``lr >= 0`` (1e-3).
        b1: ``beta1`` in [0, 1) (0.9).
        b2: ``beta2`` in [0, 1) (0.999).
        eps: ``>= 0`` (1e-8), added to ``sqrt(v_hat)``.
        weight_decay: decoupled decay ``w >= 0`` (0.0; on in :func:`adamw`).
    """

    learning_rate: float = 1e-3
    b1: float = 0.9
    b2: float = 0.999
    eps: float = 1e-8
    weight_decay: float = 0.0

    def __post_init__(self) -> None:
        _nonneg("learning_rate", self.learning_rate)
        _beta("b1", self.b1)
        _beta("b2", self.b2)
        _nonneg("eps", self.eps)
        _nonneg("weight_decay", self.weight_decay)


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class AdamState:
    """Adam state: step ``count`` and the moments ``mu`` (m) and ``nu`` (v) per block (read-only)."""

    count: int
    mu: tuple[FloatArray, ...]
    nu: tuple[FloatArray, ...]


def _adam_init(params: Params) -> AdamState:
    blocks = as_blocks("params", params)
    zeros = tuple(np.zeros_like(b) for b in blocks)
    return AdamState(count=0, mu=_frozen_blocks(zeros), nu=_frozen_blocks(zeros))


def _moments(
    grads: tuple[FloatArray, ...], state: AdamState, b1: float, b2: float
) -> tuple[tuple[FloatArray, ...], tuple[FloatArray, ...]]:
    mu = tuple(b1 * m + (1.0 - b1) * g for m, g in zip(state.mu, grads, strict=True))
    nu = tuple(b2 * v + (1.0 - b2) * g * g for v, g in zip(state.nu, grads, strict=True))
    return mu, nu


def _validated(
    grads: object, state: object, params: object, kind: type[AdamState]
) -> tuple[tuple[FloatArray, ...], tuple[FloatArray, ...]]:
    _check_state("state", state, kind)
    if params is None:
        raise ValueError("params: expected the current parameters, got None")
    p = as_blocks("params", params)
    g = as_blocks("grads", grads, like=p)
    return p, g


def make_adam(config: AdamConfig) -> Optimizer[AdamState, Update[AdamState]]:
    """Build the Adam/AdamW pair for ``config`` (see :func:`adam`)."""

    def update(
        grads: Params, state: AdamState, params: Params | None = None
    ) -> tuple[Params, AdamState]:
        p, g = _validated(grads, state, params, AdamState)
        c = config
        t = state.count + 1
        mu, nu = _moments(g, state, c.b1, c.b2)
        bc1 = 1.0 - c.b1**t
        bc2 = 1.0 - c.b2**t
        new = []
        for pb, m, v in zip(p, mu, nu, strict=True):
            step = (c.learning_rate / bc1) * m / (np.sqrt(v) / math.sqrt(bc2) + c.eps)
            new.append(-(c.learning_rate * c.weight_decay) * pb - step)
        return _restore(params, new), AdamState(
            count=t, mu=_frozen_blocks(mu), nu=_frozen_blocks(nu)
        )

    return Optimizer(init=_adam_init, update=update)


_ADAM = AdamConfig()
_ADAMW = AdamConfig(weight_decay=1e-2)  # torch.optim.AdamW's default decay


def adam(
    *,
    learning_rate: float = _ADAM.learning_rate,
    b1: float = _ADAM.b1,
    b2: float = _ADAM.b2,
    eps: float = _ADAM.eps,
    weight_decay: float = _ADAM.weight_decay,
) -> Optimizer[AdamState, Update[AdamState]]:
    """Adam (and AdamW for ``weight_decay > 0``) with PyTorch's update, as an optax pair.

    Per step ``t = 1, 2, ...`` and block::

        theta <- theta (1 - lr w)
        m <- b1 m + (1 - b1) g;   v <- b2 v + (1 - b2) g^2
        theta <- theta - lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)

    Symbols -> arguments: ``lr`` = ``learning_rate``, ``beta1, beta2`` = ``b1, b2``,
    ``w`` = ``weight_decay``.

    Variant: ``eps`` outside the bias-corrected root (``torch.optim.Adam/AdamW``);
    S-Adam's official step puts it inside (see :func:`s_adam`).

    Args:
        learning_rate: ``>= 0``.
        b1: in [0, 1).
        b2: in [0, 1).
        eps: ``>= 0``.
        weight_decay: ``>= 0``.

    Returns:
        ``Optimizer(init, update)``; ``update(grads, state, params) -> (updates, state)``.

    Raises:
        TypeError: non-real hyper-parameters.
        ValueError: out-of-range hyper-parameters (the message names the argument).

    Example:
        >>> opt = adam(learning_rate=0.1)
        >>> x = np.array([1.0, -2.0])
        >>> u, s = opt.update(2 * x, opt.init(x), x)
        >>> np.round(u, 6).tolist()   # first Adam step: -lr * sign(g) (up to eps)
        [-0.1, 0.1]

    References:
        D. P. Kingma and J. Ba, "Adam", ICLR 2015, Algorithm 1; I. Loshchilov and
        F. Hutter, "Decoupled Weight Decay Regularization", ICLR 2019; spec 02 §3.3.
    """
    return make_adam(
        AdamConfig(learning_rate=learning_rate, b1=b1, b2=b2, eps=eps, weight_decay=weight_decay)
    )


def adamw(
    *,
    learning_rate: float = _ADAMW.learning_rate,
    b1: float = _ADAMW.b1,
    b2: float = _ADAMW.b2,
    eps: float = _ADAMW.eps,
    weight_decay: float = _ADAMW.weight_decay,
) -> Optimizer[AdamState, Update[AdamState]]:
    """AdamW with PyTorch's defaults (decoupled decay on); same update as :func:`adam`.

    Args:
        learning_rate: ``>= 0``.
        b1: in [0, 1).
        b2: in [0, 1).
        eps: ``>= 0``.
        weight_decay: ``>= 0``.

    Returns:
        ``Optimizer(init, update)``.

    Raises:
        TypeError: non-real hyper-parameters.
        ValueError: out-of-range hyper-parameters.

    References:
        Loshchilov and Hutter, ICLR 2019; ``torch.optim.AdamW``; spec 02 §3.3.
    """
    return adam(learning_rate=learning_rate, b1=b1, b2=b2, eps=eps, weight_decay=weight_decay)


# ------------------------------------------------------------------------------------- S-Adam
@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class SAdamState(AdamState):
    """S-Adam state: Adam's moments plus the last step's ``rho`` and ``alpha`` (1.0 before any step)."""

    rho: float
    alpha: float


class SAdamUpdate(Protocol):
    """Call shape of S-Adam's ``update``: :class:`reference.optimizers.Update` plus the loss
    (``loss(params) -> float``, for the sharpness estimate), the generator of its random
    direction and an optional ``base`` loss value at ``params``."""

    def __call__(
        self,
        grads: Params,
        state: SAdamState,
        params: Params | None = None,
        *,
        loss: LossFn,
        rng: np.random.Generator,
        base: float | None = None,
    ) -> tuple[Params, SAdamState]:
        """One step: the updates and the next state."""
        ...


def make_s_adam(config: SAdamConfig) -> Optimizer[SAdamState, SAdamUpdate]:
    """Build the S-Adam pair for ``config`` (see :func:`s_adam`)."""

    def init(params: Params) -> SAdamState:
        a = _adam_init(params)
        return SAdamState(count=0, mu=a.mu, nu=a.nu, rho=0.0, alpha=1.0)

    def update(
        grads: Params,
        state: SAdamState,
        params: Params | None = None,
        *,
        loss: LossFn,
        rng: np.random.Generator,
        base: float | None = None,
    ) -> tuple[Params, SAdamState]:
        _check_state("state", state, SAdamState)
        p, g = _validated(grads, state, params, AdamState)
        if not callable(loss):
            raise TypeError(f"loss: expected a callable params -> float, got {describe(loss)}")
        c = config
        base_value = (
            _call_loss(loss, _restore(params, p), "the base point")
            if base is None
            else _finite_loss("base", base)
        )  # Alg. B l. 1
        if c.lgi_lambda == 0.0:  # l. 2: no probes
            rho = 0.0
        else:
            rho = lgi(
                loss,
                _restore(params, p),
                base_value,
                k=c.k_directions,
                sigma=c.sigma,
                rng=rng,
                zeta=c.stabilize_eps,
                ddof=c.ddof,
                direction_mode=c.direction_mode,
            )
        alpha = math.exp(-c.lgi_lambda * min(rho, c.lgi_cap))  # l. 3
        t = state.count + 1
        mu, nu = _moments(g, state, c.b1, c.b2)  # l. 4: m and v do not depend on alpha
        new = []
        for pb, m, v in zip(p, mu, nu, strict=True):
            if c.variant == "official":
                ct = c.learning_rate * math.sqrt(1.0 - c.b2**t) / (1.0 - c.b1**t)
                # decoupled decay (not damped), then the damped step with eps inside
                new.append(
                    -(c.learning_rate * c.weight_decay) * pb - alpha * ct * m / (np.sqrt(v) + c.eps)
                )
            else:  # paper_plain: eta_hat = eta exp(-lambda rho), no bias correction / decay
                new.append(-(c.learning_rate * alpha) * m / (np.sqrt(v) + c.eps))
        return _restore(params, new), SAdamState(
            count=t, mu=_frozen_blocks(mu), nu=_frozen_blocks(nu), rho=rho, alpha=alpha
        )

    return Optimizer(init=init, update=update)


def s_adam(
    *,
    learning_rate: float = _S_ADAM.learning_rate,
    b1: float = _S_ADAM.b1,
    b2: float = _S_ADAM.b2,
    eps: float = _S_ADAM.eps,
    weight_decay: float = _S_ADAM.weight_decay,
    k_directions: int = _S_ADAM.k_directions,
    sigma: float = _S_ADAM.sigma,
    lgi_lambda: float = _S_ADAM.lgi_lambda,
    stabilize_eps: float = _S_ADAM.stabilize_eps,
    lgi_cap: float = _S_ADAM.lgi_cap,
    variant: Literal["official", "paper_plain"] = _S_ADAM.variant,
    direction_mode: DirectionMode = _S_ADAM.direction_mode,
    ddof: int = _S_ADAM.ddof,
) -> Optimizer[SAdamState, SAdamUpdate]:
    """S-Adam: Adam whose step is multiplied by the LGI brake ``alpha_t = exp(-lambda min(rho_t, cap))``.

    One step (Algorithm B, authors' final code), for the loss ``f`` of the current
    minibatch, with ``rho_t = LGI(f, theta_t, f(theta_t), k, sigma, zeta)`` computed
    once for all blocks (skipped, ``rho_t = 0``, when ``lambda = 0``)::

        theta <- theta (1 - eta w)                       (decoupled decay, not damped)
        m <- b1 m + (1 - b1) g;   v <- b2 v + (1 - b2) g^2
        c_t = eta sqrt(1 - b2^t) / (1 - b1^t)
        theta <- theta - alpha_t c_t m / (sqrt(v) + eps)  (eps inside, before the correction)

    The update signature is ``update(grads, state, params, *, loss, rng, base=None)``:
    ``loss(params) -> float`` is probed ``k`` times (plus once for ``base`` when it is
    not given); a non-finite loss raises :class:`NonFiniteLossError`.

    Symbols -> arguments: ``eta`` = ``learning_rate``, ``beta1, beta2`` = ``b1, b2``,
    ``w`` = ``weight_decay``, ``k`` = ``k_directions``, ``lambda`` = ``lgi_lambda``,
    ``zeta`` = ``stabilize_eps``, cap = ``lgi_cap``.

    Variant: ``"official"`` (default) is the authors' final code; with ``lambda = 0``
    or ``k = 1`` it is AdamW with ``eps`` inside the root, and with additionally
    ``eps = 0`` it equals ``torch.optim.AdamW`` (spec 02 P7).  ``"paper_plain"`` is the
    third-party transcription ``theta <- theta - eta e^{-lambda rho} m / (sqrt(v) + eps)``.

    Args:
        learning_rate: ``>= 0``.
        b1: in [0, 1).
        b2: in [0, 1).
        eps: ``>= 0``.
        weight_decay: ``>= 0``.
        k_directions: int ``>= 1``.
        sigma: ``> 0``.
        lgi_lambda: ``>= 0``.
        stabilize_eps: ``>= 0``.
        lgi_cap: ``> 0``.
        variant: ``"official"`` or ``"paper_plain"``.
        direction_mode: ``"per_block"`` or ``"global"``.
        ddof: 0 or 1.

    Returns:
        ``Optimizer(init, update)``; the state records the last ``rho`` and ``alpha``.

    Raises:
        TypeError: non-real hyper-parameters.
        ValueError: out-of-range hyper-parameters (the message names the argument).

    Example:
        >>> opt = s_adam(learning_rate=0.1, weight_decay=0.0)
        >>> x = np.array([1.0, -2.0])
        >>> f = lambda p: float(np.sum(np.abs(p)))
        >>> u, s = opt.update(np.sign(x), opt.init(x), x, loss=f, rng=np.random.default_rng(0))
        >>> 0.0 < s.alpha <= 1.0
        True

    References:
        Xu, She, Jin, Wang, ICML 2026, arXiv:2605.29547; spec 02 §3.2 (Algorithm B) and
        §4.2 (P7, P8); official code github.com/RuoranXu/S-Adam.
    """
    return make_s_adam(
        SAdamConfig(
            learning_rate=learning_rate,
            b1=b1,
            b2=b2,
            eps=eps,
            weight_decay=weight_decay,
            k_directions=k_directions,
            sigma=sigma,
            lgi_lambda=lgi_lambda,
            stabilize_eps=stabilize_eps,
            lgi_cap=lgi_cap,
            variant=variant,
            direction_mode=direction_mode,
            ddof=ddof,
        )
    )


# ----------------------------------------------------------------------------------- Prox-SGD
@dataclass(frozen=True, slots=True, kw_only=True)
class ProxSGDConfig:
    """Prox-SGD hyper-parameters; defaults from the authors' scripts (spec 02 §3.3).

    Attributes:
        learning_rate: ``lr >= 0`` (0.01).
        momentum: ``mu`` in [0, 1) (0.9).
        l1: soft-threshold weight ``>= 0`` (1e-4).
    """

    learning_rate: float = 0.01
    momentum: float = 0.9
    l1: float = 1e-4

    def __post_init__(self) -> None:
        _nonneg("learning_rate", self.learning_rate)
        _beta("momentum", self.momentum)
        _nonneg("l1", self.l1)


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class ProxSGDState:
    """Prox-SGD state: step ``count`` and the momentum buffers (read-only)."""

    count: int
    buf: tuple[FloatArray, ...]


_PROX_SGD = ProxSGDConfig()


def prox_sgd(
    *,
    learning_rate: float = _PROX_SGD.learning_rate,
    momentum: float = _PROX_SGD.momentum,
    l1: float = _PROX_SGD.l1,
) -> Optimizer[ProxSGDState, Update[ProxSGDState]]:
    """Prox-SGD baseline: heavy-ball momentum then an l1 soft-threshold.

    ``buf = g`` at the first step, afterwards ``buf <- mu buf + g`` (no dampening);
    ``theta <- theta - lr buf``; ``theta <- sign(theta) max(|theta| - lr l1, 0)``.

    Args:
        learning_rate: ``>= 0``.
        momentum: ``mu`` in [0, 1).
        l1: ``>= 0``.

    Returns:
        ``Optimizer(init, update)``.

    Raises:
        TypeError: non-real hyper-parameters.
        ValueError: out-of-range hyper-parameters.

    Example:
        >>> opt = prox_sgd(learning_rate=0.5, l1=1.0)
        >>> x = np.array([1.0, 0.2])
        >>> u, _ = opt.update(np.zeros(2), opt.init(x), x)
        >>> (x + u).tolist()
        [0.5, 0.0]

    References:
        Spec 02 §3.3 (authors' baseline scripts).
    """
    config = ProxSGDConfig(learning_rate=learning_rate, momentum=momentum, l1=l1)

    def init(params: Params) -> ProxSGDState:
        blocks = as_blocks("params", params)
        return ProxSGDState(count=0, buf=_frozen_blocks([np.zeros_like(b) for b in blocks]))

    def update(
        grads: Params, state: ProxSGDState, params: Params | None = None
    ) -> tuple[Params, ProxSGDState]:
        _check_state("state", state, ProxSGDState)
        if params is None:
            raise ValueError("params: expected the current parameters, got None")
        p = as_blocks("params", params)
        g = as_blocks("grads", grads, like=p)
        c = config
        if state.count == 0:
            buf = tuple(gb.copy() for gb in g)
        else:
            buf = tuple(c.momentum * b + gb for b, gb in zip(state.buf, g, strict=True))
        new = []
        for pb, b in zip(p, buf, strict=True):
            moved = pb - c.learning_rate * b
            shrunk = np.sign(moved) * np.maximum(np.abs(moved) - c.learning_rate * c.l1, 0.0)
            new.append(shrunk - pb)
        return _restore(params, new), ProxSGDState(count=state.count + 1, buf=_frozen_blocks(buf))

    return Optimizer(init=init, update=update)


# ------------------------------------------------------------------------- stationarity measure
def goldstein_stationarity(
    grad: Callable[[FloatArray], object],
    x: ArrayLike,
    *,
    delta: float,
    rng: np.random.Generator,
    samples: int = 64,
) -> float:
    """Sampled upper bound on ``dist(0, d_delta f(x))`` (Goldstein delta-subdifferential).

    Draw ``M = samples`` points ``y_j`` uniformly in the Euclidean ball ``B(x, delta)``
    (plus ``x`` itself), evaluate ``g_j = grad(y_j)`` and return the norm of the
    minimum-norm point of ``conv{g_j}``.  Since ``conv{g_j}`` is a subset of
    ``d_delta f(x)`` (for ``f`` differentiable at the samples, almost surely for
    locally Lipschitz ``f``), the value upper-bounds ``dist(0, d_delta f(x))``.  The
    quadratic program over the simplex is solved with ``scipy.optimize.nnls`` on
    ``[G^T; r 1^T] w = [0; r]`` (``r`` large), then the weights are renormalised, so the
    returned number is always the norm of an actual point of the hull.

    Symbols -> arguments: ``delta`` = ``delta``, ``M`` = ``samples``.

    Variant: the Goldstein reading ``dist(0, d_delta f(x)) <= epsilon`` (Zhang et al.
    2020), spec 02 §2 (our default; the paper's reading was not retrieved).

    Args:
        grad: gradient callable ``(d,) -> (d,)`` (any element of the Clarke subdifferential).
        x: ``(d,)`` finite point.
        delta: ball radius ``> 0``.
        rng: random generator.
        samples: number of sampled points ``>= 1``.

    Returns:
        The measure, a float ``>= 0``.

    Raises:
        TypeError: ``grad`` not callable, non-numeric input.
        ValueError: bad shapes, non-finite input or gradients, ``delta <= 0``, ``samples < 1``.

    Example:
        >>> g = lambda y: np.sign(y)        # f(x) = ||x||_1
        >>> float(goldstein_stationarity(g, np.zeros(2), delta=0.1, rng=np.random.default_rng(0))) < 1e-6
        True

    References:
        A. A. Goldstein (1977); J. Zhang et al., ICML 2020; spec 02 §2 and §4.1.
    """
    if not callable(grad):
        raise TypeError(f"grad: expected a callable (d,) -> (d,), got {describe(grad)}")
    point = as_float_array("x", x, ndim=1)
    radius = _positive("delta", delta)
    m = require_int("samples", samples, minimum=1)
    require_generator("rng", rng)
    d = point.size
    z = rng.standard_normal((m, d))
    z /= np.linalg.norm(z, axis=1, keepdims=True) + 1e-300
    radii = radius * rng.random(m) ** (1.0 / d)
    ys = np.vstack([point, point + radii[:, None] * z])
    gs = np.vstack(
        [as_float_array(f"grad(y_{j})", grad(y.copy()), shape=(d,)) for j, y in enumerate(ys)]
    )
    scale = max(1.0, float(np.max(np.abs(gs))))
    big = 1e4 * scale
    a = np.vstack([gs.T, np.full((1, gs.shape[0]), big)])
    b = np.concatenate([np.zeros(d), [big]])
    w, _ = nnls(a, b)
    total = float(w.sum())
    # nnls always puts mass on the simplex row; guard the division anyway
    w = w / total if total > 0.0 else np.full(gs.shape[0], 1.0 / gs.shape[0])
    return float(np.linalg.norm(w @ gs))
