"""Torch fast path of the RFF α-divergence estimator (mini-batch projected Armijo-SGD).

Names mirror the reference: :func:`armijo_ascent` and :func:`estimate_alpha_divergence` are
the torch counterparts of :func:`reference.divergence.armijo_ascent` and
:func:`reference.divergence.estimate_alpha_divergence`; :func:`rff_transform` is
``RandomFourierFeatures.transform`` on tensors.

:func:`armijo_ascent` mirrors the reference step for step: the same objective Ĵ (spec 13,
Section 3.1), the same backtracking rule (Section 3.2) and the same batches — batch indices are
drawn from the caller's ``numpy.random.Generator`` in the same order as the reference, so with the
same features and seed the two trajectories agree to rounding.  Features and the critic live on
``device`` in ``dtype``; float64 by default.  It returns the reference's own
:class:`~reference.divergence.ArmijoResult` (numpy fields, on the CPU).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
from numpy.typing import ArrayLike

from reference._arrays import FloatArray, as_float_array, readonly
from reference._defaults import defaults_of
from reference._repr import summary_repr
from reference.divergence.estimators import (
    PHI_CLIP,
    ArmijoConfig,
    ArmijoResult,
    RandomFourierFeatures,
    _check_alpha,
    _samples,
)

__all__ = [
    "NeuralCriticResult",
    "armijo_ascent",
    "estimate_alpha_divergence",
    "neural_critic_estimate",
    "rff_transform",
]

# The neural-critic baseline draws its mini-batches as the Armijo ascent does (spec 13 B1: batch
# 256, the b_P = b_Q of Section 3.2): its default batch size is :class:`ArmijoConfig`'s.
_ARMIJO = defaults_of(ArmijoConfig)


def rff_transform(features: RandomFourierFeatures, x: torch.Tensor) -> torch.Tensor:
    """``z(x) = √(2/D) cos(Ωᵀx + b)`` for ``x`` ``(n, d)`` on ``x``'s device and dtype.

    The tensor twin of :meth:`reference.divergence.RandomFourierFeatures.transform`.

    Raises:
        ValueError: ``x`` is not ``(n, d)`` with the features' ``d``.
    """
    if x.ndim != 2 or x.shape[1] != features.dim:
        raise ValueError(f"x: expected shape (*, {features.dim}), got {tuple(x.shape)}")
    omegas = torch.tensor(
        features.omegas, dtype=x.dtype, device=x.device
    )  # copies: read-only source
    offsets = torch.tensor(features.offsets, dtype=x.dtype, device=x.device)
    return math.sqrt(2.0 / features.num_features) * torch.cos(x @ omegas.T + offsets)


def _value(zx: torch.Tensor, zy: torch.Tensor, theta: torch.Tensor, a: float) -> torch.Tensor:
    px = torch.clamp(zx @ theta[:-1] + theta[-1], -PHI_CLIP, PHI_CLIP)
    py = torch.clamp(zy @ theta[:-1] + theta[-1], -PHI_CLIP, PHI_CLIP)
    return torch.expm1((a - 1.0) * px).mean() / (a - 1.0) - torch.expm1(a * py).mean() / a


def _grad(zx: torch.Tensor, zy: torch.Tensor, theta: torch.Tensor, a: float) -> torch.Tensor:
    px = torch.clamp(zx @ theta[:-1] + theta[-1], -PHI_CLIP, PHI_CLIP)
    py = torch.clamp(zy @ theta[:-1] + theta[-1], -PHI_CLIP, PHI_CLIP)
    wx = torch.exp((a - 1.0) * px) / zx.shape[0]
    wy = torch.exp(a * py) / zy.shape[0]
    return torch.cat([zx.T @ wx - zy.T @ wy, (wx.sum() - wy.sum()).reshape(1)])


def _project(theta: torch.Tensor, radius: float) -> torch.Tensor:
    norm = float(torch.linalg.vector_norm(theta[:-1]))
    if norm <= radius:
        return theta.clone()
    out = theta.clone()
    out[:-1] = out[:-1] * (radius / norm)
    return out


def armijo_ascent(
    zx: torch.Tensor,
    zy: torch.Tensor,
    alpha: float,
    config: ArmijoConfig | None = None,
    *,
    rng: np.random.Generator | None = None,
    theta0: ArrayLike | None = None,
) -> ArmijoResult:
    """Projected Armijo (S)GD on Ĵ with torch tensors; same rule and batches as the reference.

    The torch counterpart of :func:`reference.divergence.armijo_ascent` (same arguments, same
    result type).  The iterations run on the features' device and dtype; the result is
    :class:`reference.divergence.ArmijoResult` with every field as the reference fills it:
    ``theta`` and ``previous_theta`` copied to the CPU as float64 numpy (one ``(D + 1,)``
    vector each, moved once at the end), ``value`` the full-sample Ĵ at ``theta``,
    ``grad_map_norm`` ``‖G‖`` of the last accepted step, ``converged`` and ``iterations`` with the
    reference's meaning.

    Args:
        zx: ``(n, D)`` features of the P-sample (any device, float32/float64).
        zy: ``(m, D)`` features of the Q-sample (same device and dtype).
        alpha: in (0, 1).
        config: :class:`reference.divergence.ArmijoConfig`.
        rng: numpy generator for the batch indices (required for mini-batches).
        theta0: ``(D + 1,)`` start (array or tensor; default 0), projected onto the ball.

    Raises:
        ValueError: shape/dtype/device mismatch, non-finite features, ``alpha`` outside (0, 1),
            a bad ``theta0``, or a mini-batch run without ``rng``.
        TypeError: non-floating tensors.
    """
    a = _check_alpha(alpha)
    cfg = config if config is not None else ArmijoConfig()
    for name, z in (("zx", zx), ("zy", zy)):
        if not isinstance(z, torch.Tensor) or not z.is_floating_point():
            raise TypeError(f"{name}: expected a floating torch tensor, got {type(z).__name__}")
        if z.ndim != 2 or z.shape[0] < 1 or z.shape[1] < 1:
            raise ValueError(
                f"{name}: expected a non-empty (n, D) tensor, got shape {tuple(z.shape)}"
            )
        if not bool(torch.isfinite(z).all()):
            raise ValueError(f"{name}: expected finite values")
    if zy.shape[1] != zx.shape[1] or zy.dtype != zx.dtype or zy.device != zx.device:
        raise ValueError("zy: expected the width, dtype and device of zx")
    if cfg.batch_size is not None and rng is None:
        raise ValueError("rng: expected a numpy Generator for mini-batch Armijo-SGD, got None")
    theta = torch.zeros(zx.shape[1] + 1, dtype=zx.dtype, device=zx.device)
    if theta0 is not None:
        raw = theta0.detach().cpu() if isinstance(theta0, torch.Tensor) else theta0
        start = as_float_array("theta0", raw, ndim=1)
        if start.shape != (zx.shape[1] + 1,):
            raise ValueError(
                f"theta0: expected shape ({zx.shape[1] + 1},), got {tuple(start.shape)}"
            )
        theta = _project(torch.as_tensor(start, device=zx.device).to(zx.dtype), cfg.radius)
    values = [float(_value(zx, zy, theta, a))]
    steps: list[float] = []
    eta_prev = cfg.max_step_size
    grad_map = math.inf
    converged = False
    previous: torch.Tensor | None = None
    for _ in range(cfg.max_iter):
        if cfg.batch_size is None:
            bx, by = zx, zy
        else:
            assert rng is not None
            ix = rng.choice(zx.shape[0], size=min(cfg.batch_size, zx.shape[0]), replace=False)
            iy = rng.choice(zy.shape[0], size=min(cfg.batch_size, zy.shape[0]), replace=False)
            bx = zx[torch.as_tensor(ix, device=zx.device)]
            by = zy[torch.as_tensor(iy, device=zy.device)]
        g = _grad(bx, by, theta, a)
        base = float(_value(bx, by, theta, a))
        eta = min(cfg.max_step_size, 2.0 * eta_prev)
        for attempt in range(cfg.max_backtracks + 1):
            candidate = _project(theta + eta * g, cfg.radius)
            step = (candidate - theta) / eta
            if float(_value(bx, by, candidate, a)) >= base + cfg.armijo_c * eta * float(
                step @ step
            ):
                break
            if attempt < cfg.max_backtracks:
                eta *= cfg.backtrack
        grad_map = float(torch.linalg.vector_norm(step))
        previous, theta = theta, candidate
        eta_prev = eta
        steps.append(eta)
        values.append(float(_value(zx, zy, theta, a)))
        if cfg.batch_size is None and grad_map <= cfg.tol:
            converged = True
            break
    return ArmijoResult(
        theta=_numpy(theta),
        value=values[-1],
        values=readonly(np.array(values)),
        step_sizes=readonly(np.array(steps)),
        grad_map_norm=grad_map,
        iterations=len(steps),
        converged=converged,
        previous_theta=None if previous is None else _numpy(previous),
    )


def _numpy(theta: torch.Tensor) -> FloatArray:
    """A read-only float64 numpy copy of ``theta`` on the CPU."""
    return readonly(theta.detach().cpu().to(torch.float64).numpy().copy())


def estimate_alpha_divergence(
    X: ArrayLike | torch.Tensor,
    Y: ArrayLike | torch.Tensor,
    alpha: float,
    *,
    features: RandomFourierFeatures,
    rng: np.random.Generator,
    config: ArmijoConfig | None = None,
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float64,
) -> float:
    """In-sample RFF estimate of D_α with mini-batch Armijo-SGD on ``device`` (fixed features).

    The torch counterpart of :func:`reference.divergence.estimate_alpha_divergence`: equal to
    its ``.value`` with ``heldout=False`` and the same ``features``, ``config`` and seed, to
    rounding.  Unlike the reference, ``features`` is required (no ``num_features`` draw), no
    held-out split is made and the estimate is returned as a float.  ``rng`` draws the
    mini-batches as the reference's does; ``device`` and ``dtype`` place the computation.

    Raises:
        ValueError: as the reference (short/empty samples, dimension mismatch, α outside (0, 1)).
    """
    a = _check_alpha(alpha)
    xs, ys = _samples(X, Y)
    if features.dim != xs.shape[1]:
        raise ValueError(f"features: expected dimension {xs.shape[1]}, got {features.dim}")
    tx = torch.as_tensor(xs, dtype=dtype, device=device)
    ty = torch.as_tensor(ys, dtype=dtype, device=device)
    result = armijo_ascent(
        rff_transform(features, tx), rff_transform(features, ty), a, config, rng=rng
    )
    return result.value


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class NeuralCriticResult:
    """Outcome of :func:`neural_critic_estimate` (baseline B1).

    Attributes:
        value: Ĵ of the final critic on the full fitting samples.
        value_heldout: Ĵ on the held-out halves.
        curve: ``(iterations,)`` mini-batch Ĵ during training (numpy, read-only).
    """

    value: float
    value_heldout: float
    curve: FloatArray


def _torch_generator(generator: object) -> torch.Generator:
    """``generator`` itself, or a fresh CPU generator seeded with the int ``generator``."""
    if isinstance(generator, torch.Generator):
        return generator
    from reference._arrays import require_int

    return torch.Generator().manual_seed(require_int("generator", generator, minimum=0))


def _mlp_critic(dim: int, width: int, generator: torch.Generator) -> torch.nn.Sequential:
    """``Linear(dim, width)-tanh-Linear(width, width)-tanh-Linear(width, 1)`` in float64, each
    ``Linear`` initialised as torch's ``reset_parameters`` (weight ``kaiming_uniform_(a=√5)``,
    bias ``U(±1/√fan_in)``, in float32 and in module order) but drawing from ``generator``."""
    layers = [
        torch.nn.Linear(n_in, n_out, device="meta").to_empty(device="cpu")
        for n_in, n_out in ((dim, width), (width, width), (width, 1))
    ]
    with torch.no_grad():
        for layer in layers:
            torch.nn.init.kaiming_uniform_(layer.weight, a=math.sqrt(5.0), generator=generator)
            bound = 1.0 / math.sqrt(layer.in_features)
            torch.nn.init.uniform_(layer.bias, -bound, bound, generator=generator)
    return torch.nn.Sequential(
        layers[0], torch.nn.Tanh(), layers[1], torch.nn.Tanh(), layers[2]
    ).double()


def neural_critic_estimate(
    X: ArrayLike | torch.Tensor,
    Y: ArrayLike | torch.Tensor,
    alpha: float,
    *,
    generator: torch.Generator | int,
    hidden: int = 64,
    iterations: int = 2000,
    batch_size: int = _ARMIJO["batch_size"],
    learning_rate: float = 1e-3,
) -> NeuralCriticResult:
    """Baseline B1 of spec 13: the same Ĵ with an unconstrained MLP critic (2 x ``hidden``, tanh), Adam.

    The critic has no norm constraint (the "unconstrained neural critic" the paper compares against);
    data are split in halves as in :func:`reference.divergence.estimate_alpha_divergence`.
    ``iterations`` Adam steps of ``batch_size`` pairs at ``learning_rate`` (CPU, float64).

    Args:
        X: ``(n, d)`` samples of ``P``.
        Y: ``(m, d)`` samples of ``Q``.
        alpha: ``α`` (not 0 or 1).
        generator: a ``torch.Generator`` or an int seed ``s``.  The critic's initial weights are
            torch's default ``Linear`` initialisation drawn from the generator
            (``torch.Generator().manual_seed(s)`` for an int: the weights of
            ``torch.manual_seed(s)``); the split and the mini-batches come from
            ``numpy.random.default_rng(s)``, where for a Generator ``s`` is one 63-bit draw
            from it after the weights.  No global random state is read or changed.
        hidden: width of the two hidden layers.
        iterations: Adam steps.
        batch_size: pairs per mini-batch (at most half the samples; default: ArmijoConfig's).
        learning_rate: Adam's step.

    Returns:
        :class:`NeuralCriticResult`.

    Raises:
        ValueError: as the reference estimator; non-positive sizes or learning rate; a negative
            seed.
        TypeError: ``generator`` neither a ``torch.Generator`` nor an int.
    """
    from reference._arrays import require_int, require_positive

    a = _check_alpha(alpha)
    xs, ys = _samples(X, Y)
    if xs.shape[0] < 4 or ys.shape[0] < 4:
        raise ValueError("x, y: expected at least 4 samples each for a held-out split")
    width = require_int("hidden", hidden, minimum=1)
    steps = require_int("iterations", iterations, minimum=1)
    batch = require_int("batch_size", batch_size, minimum=1)
    lr = require_positive("learning_rate", learning_rate)
    weights = _torch_generator(generator)
    critic = _mlp_critic(xs.shape[1], width, weights)
    if isinstance(generator, torch.Generator):
        seed = int(torch.randint(2**63 - 1, (), generator=generator))
    else:
        seed = int(generator)
    rng = np.random.default_rng(seed)
    px, py = rng.permutation(xs.shape[0]), rng.permutation(ys.shape[0])
    hx, hy = xs.shape[0] // 2, ys.shape[0] // 2
    fit_x = torch.tensor(xs[px[:hx]], dtype=torch.float64)
    test_x = torch.tensor(xs[px[hx:]], dtype=torch.float64)
    fit_y = torch.tensor(ys[py[:hy]], dtype=torch.float64)
    test_y = torch.tensor(ys[py[hy:]], dtype=torch.float64)
    optimizer = torch.optim.Adam(critic.parameters(), lr=lr)

    def objective(bx: torch.Tensor, by: torch.Tensor) -> torch.Tensor:
        phx = torch.clamp(critic(bx).squeeze(-1), -PHI_CLIP, PHI_CLIP)
        phy = torch.clamp(critic(by).squeeze(-1), -PHI_CLIP, PHI_CLIP)
        return torch.expm1((a - 1.0) * phx).mean() / (a - 1.0) - torch.expm1(a * phy).mean() / a

    curve = []
    for _ in range(steps):
        ix = torch.as_tensor(rng.choice(hx, size=min(batch, hx), replace=False))
        iy = torch.as_tensor(rng.choice(hy, size=min(batch, hy), replace=False))
        value = objective(fit_x[ix], fit_y[iy])
        optimizer.zero_grad()
        (-value).backward()  # type: ignore[no-untyped-call]
        optimizer.step()
        curve.append(float(value.detach()))
    with torch.no_grad():
        return NeuralCriticResult(
            value=float(objective(fit_x, fit_y)),
            value_heldout=float(objective(test_x, test_y)),
            curve=readonly(np.array(curve)),
        )
