"""PyTorch fast paths for IAM-D, IAM-S and SAM/ASAM (spec 09) as ``torch.optim`` optimizers.

Each wrapper holds a base optimizer built on the same parameter groups (the davda54/sam
pattern) and performs two kinds of forward passes per step: the ordinary pass at ``θ`` and
perturbed passes at ``θ + δ``, during which BatchNorm running statistics are frozen (momentum
set to 0 [code]).  The perturbed passes use ``torch.func.functional_call`` (no in-place edits
of the parameters), so gradients flow exactly as in the numpy reference
(:mod:`reference.inconsistency`), against which the wrappers are cross-checked over whole
trajectories.

Names mirror the reference: :func:`sam`, :func:`asam`, :func:`iam_s`, :func:`iam_d` and
:func:`iam_de` build the wrappers from the reference's ``config`` / ``optimizer`` (SGD)
objects (``rng`` reproduces the reference's draws); :func:`batch_kl` and
:func:`local_inconsistency` are the tensor twins of the reference's functions of those names,
with the module's parameters as ``θ``.

Step protocol: ``closure()`` returns the labeled loss (a tensor with a graph, NO backward);
``inputs`` is the (unlabeled) batch whose predictions define the inconsistency.

* :class:`SAM` — ``step(closure)``; ``adaptive=True`` gives canonical ASAM (``T = |θ| + η``).
* :class:`IAMS` — ``step(closure, inputs=X)``: A1 on ``X`` then the labeled gradient at
  ``θ + δ*``.
* :class:`IAMD` — ``step(closure, inputs=X_u)``: A1 on ``X_u`` then the gradient of
  ``L(θ) + β KL(p_θ || p_{θ+δ*})`` with ``θ`` in both branches.
* :class:`IAMDE` — ``step(closure, inputs=X_u)``: single-backward IAM-D; ``δ`` persists across
  steps (``self.delta``), its sign is drawn each step, and the one backward of
  ``L(θ) + β KL(p_θ || p_{θ ± δ})`` also gives the next ``δ = ρ ∇_δ / ||∇_δ||``.

Noise start: ``noise(P)`` (a callable returning ``ξ``, e.g. from a numpy generator for
cross-checks) or ``torch.randn(P, generator=generator)``; IAM-DE's sign: ``coin()`` returning 0 or
1 (0 negates) or ``torch.randint(0, 2, (), generator=generator)``.  Parameter order = ``model.parameters()``
(trainable ones), the flat order of the numpy reference for ``nn.Linear`` / ``Sequential`` models.

References:
    H.-S. Kim, H. Kim, S. Lee, "Inconsistency-Aware Minimization", ICML 2026, arXiv:2605.31324
    (spec 09, sections 3 A1–A3, "Baselines"); P. Foret et al., SAM, ICLR 2021; J. Kwon et al.,
    ASAM, ICML 2021.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import torch
from numpy.typing import ArrayLike
from torch import Tensor, nn
from torch.func import functional_call

from reference._arrays import require_int, require_positive
from reference.inconsistency.iam import IAMConfig, IAMDEConfig, SAMConfig, SGDConfig

__all__ = [
    "IAMD",
    "IAMDE",
    "IAMS",
    "SAM",
    "asam",
    "batch_kl",
    "frozen_batchnorm",
    "iam_d",
    "iam_de",
    "iam_s",
    "kl_from_logits",
    "local_inconsistency",
    "sam",
]

NORM_EPS = 1e-12
BaseFactory = Callable[..., torch.optim.Optimizer]
NoiseFn = Callable[[int], Any]
CoinFn = Callable[[], Any]

# The defaults below are read from the reference configurations (their one declaration).
_IAM = IAMConfig()
_IAM_DE = IAMDEConfig()
_SAM = SAMConfig()


@contextlib.contextmanager
def frozen_batchnorm(module: nn.Module) -> Iterator[None]:
    """Freeze BatchNorm running statistics (momentum 0) inside the block, then restore them."""
    saved: list[tuple[nn.modules.batchnorm._BatchNorm, float | None]] = []
    for sub in module.modules():
        if isinstance(sub, nn.modules.batchnorm._BatchNorm):
            saved.append((sub, sub.momentum))
            sub.momentum = 0.0
    try:
        yield
    finally:
        for sub, momentum in saved:
            sub.momentum = momentum


def kl_from_logits(logits_ref: Tensor, logits: Tensor) -> Tensor:
    """``(1/n) Σ_i KL(softmax(z_ref_i) || softmax(z_i))`` (batchmean, log-softmax, no clamp).

    Args:
        logits_ref: ``(n, classes)`` logits of the unperturbed model (the first argument of KL).
        logits: ``(n, classes)`` logits of the perturbed model.

    Returns:
        0-d tensor (differentiable in both arguments).

    Example:
        >>> z = torch.tensor([[0.0, 1.0]], dtype=torch.float64)
        >>> float(kl_from_logits(z, z))
        0.0
    """
    log_p = torch.log_softmax(logits_ref, dim=-1)
    log_q = torch.log_softmax(logits, dim=-1)
    return (log_p.exp() * (log_p - log_q)).sum(dim=-1).mean()


def _trainable(model: nn.Module) -> list[tuple[str, nn.Parameter]]:
    named = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    if not named:
        raise ValueError("model: optimizer initialized with no trainable parameters")
    return named


def _draw_noise(
    size: int, like: Tensor, noise: NoiseFn | None, generator: torch.Generator | None
) -> Tensor:
    if noise is not None:
        xi = torch.as_tensor(np.asarray(noise(size), dtype=np.float64))
        if xi.shape != (size,):
            raise ValueError(f"noise: expected a draw of shape ({size},), got {tuple(xi.shape)}")
        return xi.to(device=like.device, dtype=like.dtype)
    draw = torch.randn(size, generator=generator, dtype=like.dtype, device="cpu")
    return draw.to(like.device)


def _pieces(named: list[tuple[str, nn.Parameter]], delta: object) -> list[Tensor]:
    """``delta`` (one flat ``(P,)`` tensor/array or one tensor per parameter) as per-parameter views."""
    params = [p for _, p in named]
    if isinstance(delta, list | tuple):
        if len(delta) != len(params):
            raise ValueError(f"delta: expected {len(params)} tensors, got {len(delta)}")
        out = [
            torch.as_tensor(d, dtype=p.dtype, device=p.device)
            for d, p in zip(delta, params, strict=True)
        ]
        for d, p in zip(out, params, strict=True):
            if d.shape != p.shape:
                raise ValueError(f"delta: expected shape {tuple(p.shape)}, got {tuple(d.shape)}")
        return out
    flat = torch.as_tensor(delta, dtype=params[0].dtype, device=params[0].device)
    total = sum(p.numel() for p in params)
    if flat.shape != (total,):
        raise ValueError(f"delta: expected shape ({total},), got {tuple(flat.shape)}")
    sizes = [p.numel() for p in params]
    return [d.view_as(p) for d, p in zip(torch.split(flat, sizes), params, strict=True)]


def batch_kl(
    model: nn.Module, delta: ArrayLike | Tensor | Sequence[ArrayLike | Tensor], inputs: Tensor
) -> Tensor:
    """Batch inconsistency ``K_X(θ, δ) = (1/n) Σ_i KL(p_θ(·|x_i) || p_{θ+δ}(·|x_i))``.

    The torch counterpart of :func:`reference.inconsistency.batch_kl`: ``θ`` is the module's
    trainable parameters (so the reference's ``theta`` argument is the ``model`` here).  Both
    passes run with BatchNorm statistics frozen; differentiable in ``θ`` and ``delta``.

    Args:
        model: the classifier (logits out).
        delta: the offset ``δ``, one flat ``(P,)`` tensor/array in ``model.parameters()``
            order or one tensor per trainable parameter.
        inputs: the batch ``X``.

    Returns:
        0-d tensor ``K_X(θ, δ) >= 0`` on the model's device.

    Raises:
        ValueError: ``delta`` of the wrong shape; no trainable parameters.

    Example:
        >>> net = nn.Linear(1, 2).double()
        >>> kl = batch_kl(net, torch.zeros(4, dtype=torch.float64), torch.ones(1, 1).double())
        >>> float(kl.detach())
        0.0
    """
    named = _trainable(model)
    pieces = _pieces(named, delta)
    with frozen_batchnorm(model):
        logits = model(inputs)
        state = {n: p + d for (n, p), d in zip(named, pieces, strict=True)}
        return kl_from_logits(logits, functional_call(model, state, (inputs,)))


def local_inconsistency(
    model: nn.Module,
    inputs: Tensor,
    *,
    rho: float,
    steps: int = _IAM.steps,
    noise_scale: float = _IAM.noise_scale,
    noise: NoiseFn | None = None,
    generator: torch.Generator | None = None,
) -> tuple[Tensor, list[Tensor]]:
    """Algorithm A1 in torch: returns ``(Ŝ, δ*)`` with ``δ*`` one tensor per trainable parameter.

    The torch counterpart of :func:`reference.inconsistency.local_inconsistency` (``θ`` is the
    module's parameters; the noise ``ξ`` comes from ``noise`` or ``generator`` instead of
    ``rng``: ``noise=rng.standard_normal`` reproduces the reference's draw).

    ``δ_0 = σ_n ξ / sqrt(P)``; ``K`` times ``δ <- ρ g / ||g||`` with ``g = ∇_δ K_X(θ, δ)``
    (``p_θ`` detached, BatchNorm frozen in the perturbed passes).  Mirrors
    :func:`reference.inconsistency.inconsistency_ascent` (exact normalisation; an exactly zero
    gradient keeps the previous direction).

    The defaults are :class:`~reference.inconsistency.iam.IAMConfig`'s.

    Args:
        model: the classifier (logits out).
        inputs: the batch.
        rho: ``ρ > 0``.
        steps: ``K >= 1``.
        noise_scale: ``σ_n >= 0``.
        noise: ``P -> ξ`` (optional; default ``torch.randn`` with ``generator``).
        generator: torch generator for the default noise.

    Returns:
        ``(Ŝ, δ*)``; ``Ŝ`` is a 0-d tensor on the model's device.

    Raises:
        ValueError: bad ``rho``, ``steps`` or ``noise_scale``; no trainable parameters.
    """
    radius = require_positive("rho", rho)
    k = require_int("steps", steps, minimum=1, maximum=100_000)
    scale = require_positive("noise_scale", noise_scale, allow_zero=True)
    named = _trainable(model)
    with torch.no_grad():
        ref = model(inputs).detach()
    return _ascent(model, named, inputs, ref, radius, k, scale, noise, generator)


def _ascent(
    model: nn.Module,
    named: list[tuple[str, nn.Parameter]],
    inputs: Tensor,
    ref: Tensor,
    rho: float,
    steps: int,
    noise_scale: float,
    noise: NoiseFn | None,
    generator: torch.Generator | None,
) -> tuple[Tensor, list[Tensor]]:
    params = [p for _, p in named]
    sizes = [p.numel() for p in params]
    total = sum(sizes)
    xi = _draw_noise(total, params[0], noise, generator)
    flat = noise_scale * xi / math.sqrt(total)  # A1 l. 2
    with frozen_batchnorm(model):
        for _ in range(steps):  # A1 l. 3
            pieces = [
                d.view_as(p).clone().requires_grad_(True)
                for d, p in zip(torch.split(flat, sizes), params, strict=True)
            ]
            state = {n: p.detach() + d for (n, p), d in zip(named, pieces, strict=True)}
            kl = kl_from_logits(ref, functional_call(model, state, (inputs,)))
            grads = torch.autograd.grad(kl, pieces)
            g = torch.cat([gr.reshape(-1) for gr in grads])
            size = float(torch.linalg.vector_norm(g))
            if size == 0.0:
                base = flat if bool(flat.ne(0).any()) else torch.ones_like(flat)
                flat = rho * base / torch.linalg.vector_norm(base)
            else:
                flat = rho * g / size
        deltas = [d.view_as(p) for d, p in zip(torch.split(flat, sizes), params, strict=True)]
        with torch.no_grad():
            state = {n: p.detach() + d for (n, p), d in zip(named, deltas, strict=True)}
            value = kl_from_logits(ref, functional_call(model, state, (inputs,))).clamp_min(0.0)
    return value, deltas


class _Wrapper(torch.optim.Optimizer):
    """Shared plumbing: parameter groups of the model, a base optimizer on the same groups."""

    def __init__(
        self,
        model: nn.Module,
        base_optimizer: BaseFactory,
        defaults: dict[str, Any],
        base_kwargs: dict[str, Any],
    ) -> None:
        self.model = model
        self._named = _trainable(model)
        super().__init__([p for _, p in self._named], defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **base_kwargs)
        self.param_groups = self.base_optimizer.param_groups

    def _params(self) -> list[nn.Parameter]:
        return [p for _, p in self._named]


class SAM(_Wrapper):
    """Sharpness-aware minimization (and canonical ASAM) around any base optimizer.

    ``g = ∇L(θ)``; SAM ``ε = ρ g/(||g|| + 1e-12)``, ASAM ``ε = ρ T² g/(||T g|| + 1e-12)`` with
    ``T = |θ| + η``; the base optimizer steps with ``∇L(θ + ε)`` (BatchNorm frozen in that pass).

    The defaults are :class:`~reference.inconsistency.iam.SAMConfig`'s.

    Args:
        model: the network.
        base_optimizer: factory ``(param_groups, **kwargs) -> Optimizer`` (e.g. ``torch.optim.SGD``).
        rho: ``ρ >= 0``.
        adaptive: ASAM instead of SAM.
        shift: ASAM's ``η >= 0`` in ``T``.
        **base_kwargs: passed to the base optimizer (``lr``, ``momentum``, ...).

    Raises:
        ValueError: ``rho < 0``, ``shift < 0``, no trainable parameters.
    """

    def __init__(
        self,
        model: nn.Module,
        base_optimizer: BaseFactory,
        *,
        rho: float = _SAM.rho,
        adaptive: bool = False,
        shift: float = _SAM.shift,
        **base_kwargs: Any,
    ) -> None:
        require_positive("rho", rho, allow_zero=True)
        require_positive("shift", shift, allow_zero=True)
        super().__init__(
            model, base_optimizer, {"rho": rho, "adaptive": adaptive, "shift": shift}, base_kwargs
        )
        self.rho, self.adaptive, self.shift = rho, adaptive, shift

    def step(self, closure: Callable[[], Tensor] | None = None) -> Tensor:  # type: ignore[override]
        """One SAM/ASAM step; ``closure()`` returns the loss (no backward). Returns ``L(θ)``."""
        if closure is None:
            raise ValueError("closure: expected a callable returning the loss, got None")
        params = self._params()
        self.zero_grad()
        loss = closure()
        torch.autograd.backward(loss)
        with torch.no_grad():
            grads = [torch.zeros_like(p) if p.grad is None else p.grad.clone() for p in params]
            if self.adaptive:
                scales = [p.abs() + self.shift for p in params]
                norm = torch.sqrt(
                    torch.stack(
                        [((s * g) ** 2).sum() for s, g in zip(scales, grads, strict=True)]
                    ).sum()
                )
                eps = [
                    self.rho * s**2 * g / (norm + NORM_EPS)
                    for s, g in zip(scales, grads, strict=True)
                ]
            else:
                norm = torch.sqrt(torch.stack([(g**2).sum() for g in grads]).sum())
                eps = [self.rho * g / (norm + NORM_EPS) for g in grads]
            for p, e in zip(params, eps, strict=True):
                p.add_(e)
        self.zero_grad()
        with frozen_batchnorm(self.model):
            torch.autograd.backward(closure())
        with torch.no_grad():
            for p, e in zip(params, eps, strict=True):
                p.sub_(e)
        self.base_optimizer.step()
        return loss.detach()


class IAMS(_Wrapper):
    """IAM-S: a SAM-style step along the local-inconsistency direction (A1 on ``inputs``).

    The defaults are :class:`~reference.inconsistency.iam.IAMConfig`'s.

    Args:
        model: the classifier.
        base_optimizer: factory of the base optimizer.
        rho: ``ρ >= 0`` (0 reduces to the base step).
        steps: ascent steps ``K >= 1``.
        noise_scale: ``σ_n >= 0``.
        noise: ``P -> ξ`` (optional).
        generator: torch generator for the default noise.
        **base_kwargs: passed to the base optimizer.

    Raises:
        ValueError: bad hyper-parameters, no trainable parameters.
    """

    def __init__(
        self,
        model: nn.Module,
        base_optimizer: BaseFactory,
        *,
        rho: float = _IAM.rho,
        steps: int = _IAM.steps,
        noise_scale: float = _IAM.noise_scale,
        noise: NoiseFn | None = None,
        generator: torch.Generator | None = None,
        **base_kwargs: Any,
    ) -> None:
        require_positive("rho", rho, allow_zero=True)
        require_int("steps", steps, minimum=1)
        require_positive("noise_scale", noise_scale, allow_zero=True)
        super().__init__(model, base_optimizer, {"rho": rho}, base_kwargs)
        self.rho, self.steps, self.noise_scale = rho, steps, noise_scale
        self.noise, self.generator = noise, generator
        self.last_inconsistency = 0.0

    def step(  # type: ignore[override]
        self, closure: Callable[[], Tensor] | None = None, *, inputs: Tensor | None = None
    ) -> Tensor:
        """One IAM-S step; returns the labeled loss at ``θ`` (computed without a backward)."""
        if closure is None or inputs is None:
            raise ValueError("closure, inputs: expected the loss closure and the inputs batch")
        params = self._params()
        with torch.no_grad():
            ref = self.model(inputs).detach()
        if self.rho > 0.0:
            value, deltas = _ascent(
                self.model,
                self._named,
                inputs,
                ref,
                self.rho,
                self.steps,
                self.noise_scale,
                self.noise,
                self.generator,
            )
        else:
            _draw_noise(sum(p.numel() for p in params), params[0], self.noise, self.generator)
            value, deltas = torch.zeros((), dtype=ref.dtype), [torch.zeros_like(p) for p in params]
        self.last_inconsistency = float(value)
        with torch.no_grad(), frozen_batchnorm(self.model):
            loss = closure().detach()
            for p, d in zip(params, deltas, strict=True):
                p.add_(d)
        self.zero_grad()
        with frozen_batchnorm(self.model):
            torch.autograd.backward(closure())
        with torch.no_grad():
            for p, d in zip(params, deltas, strict=True):
                p.sub_(d)
        self.base_optimizer.step()
        return loss


class IAMD(_Wrapper):
    """IAM-D: ``L(θ) + β KL(p_θ || p_{θ+δ*})`` on an (unlabeled) batch, ``δ*`` from A1.

    The defaults are :class:`~reference.inconsistency.iam.IAMConfig`'s.

    Args:
        model: the classifier.
        base_optimizer: factory of the base optimizer.
        rho: ``ρ > 0``.
        beta: ``β >= 0``.
        steps: ascent steps ``K >= 1``.
        noise_scale: ``σ_n >= 0``.
        noise: ``P -> ξ`` (optional).
        generator: torch generator for the default noise.
        **base_kwargs: passed to the base optimizer.

    Raises:
        ValueError: bad hyper-parameters (``rho <= 0``, ``beta < 0``), no trainable parameters.
    """

    def __init__(
        self,
        model: nn.Module,
        base_optimizer: BaseFactory,
        *,
        rho: float = _IAM.rho,
        beta: float = _IAM.beta,
        steps: int = _IAM.steps,
        noise_scale: float = _IAM.noise_scale,
        noise: NoiseFn | None = None,
        generator: torch.Generator | None = None,
        **base_kwargs: Any,
    ) -> None:
        require_positive("rho", rho)
        require_positive("beta", beta, allow_zero=True)
        require_int("steps", steps, minimum=1)
        require_positive("noise_scale", noise_scale, allow_zero=True)
        super().__init__(model, base_optimizer, {"rho": rho, "beta": beta}, base_kwargs)
        self.rho, self.beta, self.steps, self.noise_scale = rho, beta, steps, noise_scale
        self.noise, self.generator = noise, generator
        self.last_inconsistency = 0.0

    def step(  # type: ignore[override]
        self, closure: Callable[[], Tensor] | None = None, *, inputs: Tensor | None = None
    ) -> Tensor:
        """One IAM-D step; returns the labeled loss at ``θ``."""
        if closure is None or inputs is None:
            raise ValueError("closure, inputs: expected the loss closure and the inputs batch")
        self.zero_grad()
        logits = self.model(inputs)  # the ordinary pass at θ (with graph)
        _, deltas = _ascent(
            self.model,
            self._named,
            inputs,
            logits.detach(),
            self.rho,
            self.steps,
            self.noise_scale,
            self.noise,
            self.generator,
        )
        with frozen_batchnorm(self.model):
            loss = closure()
            state = {n: p + d for (n, p), d in zip(self._named, deltas, strict=True)}
            kl = kl_from_logits(logits, functional_call(self.model, state, (inputs,)))
        self.last_inconsistency = float(kl.detach().clamp_min(0.0))
        torch.autograd.backward(loss + self.beta * kl)
        self.base_optimizer.step()
        return loss.detach()


class IAMDE(_Wrapper):
    """IAM-DE: single-backward IAM-D with a persistent, randomly signed ``δ`` [code ``IAM_DE``].

    Per step: ``s = -1`` if the coin shows 0 else ``+1``; ``δ = σ ξ / sqrt(P)`` when there is no
    state yet; two forwards (``p_θ`` on ``inputs`` with the ordinary pass, ``p_{θ + s δ}`` with
    BatchNorm frozen) and ONE backward of ``L(θ) + β KL(p_θ || p_{θ + s δ})`` (``θ`` in both
    branches) give ``g_θ`` and ``g_δ``; the base optimizer steps with ``g_θ`` and
    ``δ <- μ_δ δ + (1 - μ_δ) ρ g_δ / ||g_δ||`` (re-drawn from noise when ``g_δ = 0``).  Mirrors
    :func:`reference.inconsistency.iam_de` (same draw order: coin, then noise).

    The defaults are :class:`~reference.inconsistency.iam.IAMDEConfig`'s.

    Args:
        model: the classifier.
        base_optimizer: factory of the base optimizer.
        rho: ``ρ > 0``.
        beta: ``β >= 0``.
        noise_scale: ``σ >= 0``.
        delta_ema: ``μ_δ in [0, 1)`` (0: the spec's update; the stored code version uses 0.9).
        noise: ``P -> ξ`` (optional).
        coin: ``() -> 0 or 1`` (optional).
        generator: torch generator for the default noise and coin.
        **base_kwargs: passed to the base optimizer.

    Raises:
        ValueError: bad hyper-parameters (``rho <= 0``, ``beta < 0``, ``delta_ema`` outside
            ``[0, 1)``), no trainable parameters.
    """

    def __init__(
        self,
        model: nn.Module,
        base_optimizer: BaseFactory,
        *,
        rho: float = _IAM_DE.rho,
        beta: float = _IAM_DE.beta,
        noise_scale: float = _IAM_DE.noise_scale,
        delta_ema: float = _IAM_DE.delta_ema,
        noise: NoiseFn | None = None,
        coin: CoinFn | None = None,
        generator: torch.Generator | None = None,
        **base_kwargs: Any,
    ) -> None:
        require_positive("rho", rho)
        require_positive("beta", beta, allow_zero=True)
        require_positive("noise_scale", noise_scale, allow_zero=True)
        ema = require_positive("delta_ema", delta_ema, allow_zero=True)
        if ema >= 1.0:
            raise ValueError(f"delta_ema: expected a number in [0, 1), got {ema!r}")
        super().__init__(model, base_optimizer, {"rho": rho, "beta": beta}, base_kwargs)
        self.rho, self.beta, self.noise_scale, self.delta_ema = rho, beta, noise_scale, ema
        self.noise, self.coin, self.generator = noise, coin, generator
        self.delta: Tensor | None = None
        self.last_sign = 1
        self.last_inconsistency = 0.0

    def _flip(self) -> int:
        if self.coin is not None:
            side = int(self.coin())
        else:
            side = int(torch.randint(0, 2, (), generator=self.generator))
        return -1 if side == 0 else 1

    def step(  # type: ignore[override]
        self, closure: Callable[[], Tensor] | None = None, *, inputs: Tensor | None = None
    ) -> Tensor:
        """One IAM-DE step; returns the labeled loss at ``θ``."""
        if closure is None or inputs is None:
            raise ValueError("closure, inputs: expected the loss closure and the inputs batch")
        params = self._params()
        sizes = [p.numel() for p in params]
        total = sum(sizes)
        sign = self._flip()
        scale = self.noise_scale / math.sqrt(total)
        if self.delta is None:
            self.delta = scale * _draw_noise(total, params[0], self.noise, self.generator)
        self.zero_grad()
        logits = self.model(inputs)  # ordinary pass at θ (with graph)
        var = self.delta.detach().clone().requires_grad_(True)
        pieces = [d.view_as(p) for d, p in zip(torch.split(var, sizes), params, strict=True)]
        with frozen_batchnorm(self.model):
            loss = closure()
            state = {n: p + sign * d for (n, p), d in zip(self._named, pieces, strict=True)}
            kl = kl_from_logits(logits, functional_call(self.model, state, (inputs,)))
        self.last_sign = sign
        self.last_inconsistency = float(kl.detach().clamp_min(0.0))
        torch.autograd.backward(loss + self.beta * kl)  # the single backward: θ and δ
        g_delta = torch.zeros_like(var) if var.grad is None else var.grad.detach()
        size = float(torch.linalg.vector_norm(g_delta))
        with torch.no_grad():
            if size == 0.0:
                self.delta = scale * _draw_noise(total, params[0], self.noise, self.generator)
            else:
                fresh = self.rho * g_delta / size
                self.delta = self.delta_ema * self.delta + (1.0 - self.delta_ema) * fresh
        self.base_optimizer.step()
        return loss.detach()


# ------------------------------------------------------------ factories under the reference names
def _base(optimizer: SGDConfig) -> dict[str, Any]:
    """``torch.optim.SGD`` keyword arguments of the reference's SGD configuration."""
    return {
        "lr": optimizer.learning_rate,
        "momentum": optimizer.momentum,
        "weight_decay": optimizer.weight_decay,
    }


def _draws(
    rng: np.random.Generator | None,
) -> tuple[NoiseFn | None, CoinFn | None]:
    """Noise and coin callables drawing from ``rng`` in the reference's order (``None``: torch)."""
    if rng is None:
        return None, None
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng: expected a numpy Generator or None, got {type(rng).__name__}")
    return (lambda size: rng.standard_normal(size)), (lambda: rng.integers(0, 2))


def sam(model: nn.Module, *, config: SAMConfig, optimizer: SGDConfig) -> SAM:
    """Torch counterpart of :func:`reference.inconsistency.sam`: a :class:`SAM` on ``model``.

    Args:
        model: the network.
        config: ``rho`` (and ``shift``, unused by SAM) as in the reference.
        optimizer: the base SGD (``learning_rate``, ``momentum``, ``weight_decay``; ``torch.optim.SGD``).

    Returns:
        The optimizer; ``step(closure)`` as :class:`SAM`.

    Raises:
        ValueError: no trainable parameters.
    """
    return SAM(model, torch.optim.SGD, rho=config.rho, shift=config.shift, **_base(optimizer))


def asam(model: nn.Module, *, config: SAMConfig, optimizer: SGDConfig) -> SAM:
    """Torch counterpart of :func:`reference.inconsistency.asam`: an adaptive :class:`SAM`.

    Args:
        model: the network.
        config: ``rho`` and ASAM's ``shift`` as in the reference.
        optimizer: the base SGD (``torch.optim.SGD``).

    Returns:
        The optimizer; ``step(closure)`` as :class:`SAM`.

    Raises:
        ValueError: no trainable parameters.
    """
    return SAM(
        model,
        torch.optim.SGD,
        rho=config.rho,
        adaptive=True,
        shift=config.shift,
        **_base(optimizer),
    )


def iam_s(
    model: nn.Module,
    *,
    config: IAMConfig,
    optimizer: SGDConfig,
    rng: np.random.Generator | None = None,
    generator: torch.Generator | None = None,
) -> IAMS:
    """Torch counterpart of :func:`reference.inconsistency.iam_s`: an :class:`IAMS` on ``model``.

    Args:
        model: the classifier.
        config: ``rho``, ``steps``, ``noise_scale`` as in the reference (``beta`` unused).
        optimizer: the base SGD (``torch.optim.SGD``).
        rng: numpy generator of the noise (the reference's draws, in its order); ``None``:
            ``torch.randn`` with ``generator``.
        generator: torch generator for the noise when ``rng`` is ``None``.

    Returns:
        The optimizer; ``step(closure, inputs=X)`` as :class:`IAMS`.

    Raises:
        TypeError: ``rng`` is not a numpy generator.
        ValueError: no trainable parameters.
    """
    noise, _ = _draws(rng)
    return IAMS(
        model,
        torch.optim.SGD,
        rho=config.rho,
        steps=config.steps,
        noise_scale=config.noise_scale,
        noise=noise,
        generator=generator,
        **_base(optimizer),
    )


def iam_d(
    model: nn.Module,
    *,
    config: IAMConfig,
    optimizer: SGDConfig,
    rng: np.random.Generator | None = None,
    generator: torch.Generator | None = None,
) -> IAMD:
    """Torch counterpart of :func:`reference.inconsistency.iam_d`: an :class:`IAMD` on ``model``.

    Args:
        model: the classifier.
        config: ``rho``, ``beta``, ``steps``, ``noise_scale`` as in the reference.
        optimizer: the base SGD (``torch.optim.SGD``).
        rng: numpy generator of the noise (the reference's draws); ``None``: ``generator``.
        generator: torch generator for the noise when ``rng`` is ``None``.

    Returns:
        The optimizer; ``step(closure, inputs=X_u)`` as :class:`IAMD`.

    Raises:
        TypeError: ``rng`` is not a numpy generator.
        ValueError: ``rho = 0``; no trainable parameters.
    """
    noise, _ = _draws(rng)
    return IAMD(
        model,
        torch.optim.SGD,
        rho=config.rho,
        beta=config.beta,
        steps=config.steps,
        noise_scale=config.noise_scale,
        noise=noise,
        generator=generator,
        **_base(optimizer),
    )


def iam_de(
    model: nn.Module,
    *,
    config: IAMDEConfig,
    optimizer: SGDConfig,
    rng: np.random.Generator | None = None,
    generator: torch.Generator | None = None,
) -> IAMDE:
    """Torch counterpart of :func:`reference.inconsistency.iam_de`: an :class:`IAMDE`.

    Args:
        model: the classifier.
        config: ``rho``, ``beta``, ``noise_scale``, ``delta_ema`` as in the reference.
        optimizer: the base SGD (``torch.optim.SGD``).
        rng: numpy generator of the coin and the noise (the reference's draws, in its order);
            ``None``: ``generator``.
        generator: torch generator for the coin and noise when ``rng`` is ``None``.

    Returns:
        The optimizer; ``step(closure, inputs=X_u)`` as :class:`IAMDE` (``delta`` persists).

    Raises:
        TypeError: ``rng`` is not a numpy generator.
        ValueError: no trainable parameters.
    """
    noise, coin = _draws(rng)
    return IAMDE(
        model,
        torch.optim.SGD,
        rho=config.rho,
        beta=config.beta,
        noise_scale=config.noise_scale,
        delta_ema=config.delta_ema,
        noise=noise,
        coin=coin,
        generator=generator,
        **_base(optimizer),
    )
