"""Torch fast paths of the optimizer family: ``torch.optim.Optimizer`` subclasses.

* :class:`SAdam` — S-Adam with the LGI brake (spec 02, authors' final code); ``step``
  takes the authors' closure ``closure(backward: bool) -> loss``.
* :class:`Lion` and :class:`Muon` — with decoupled weight decay; ``clip_tau < inf`` gives
  the R1 robust variants (per-tensor gradient clipping, spec 14 §3.4, reconstructed):
  :class:`LionClip` and :class:`MuonClip` are the same classes with ``clip_tau = 1``.

Each class validates its hyper-parameters with the reference configuration
(:class:`~reference.optimizers_sadam.SAdamConfig`, :class:`~reference.optimizers_fw.LionConfig`,
:class:`~reference.optimizers_fw.MuonConfig`), works on any device and dtype of its
parameters (float64 is what the cross-checks use) and round-trips through
``state_dict``.  The parameters' device is the ``device``; nothing is moved.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import torch

from reference.optimizers_fw import LionConfig, MuonConfig
from reference.optimizers_sadam import NonFiniteLossError, SAdamConfig
from reference.polar import NS_COEFFICIENTS, NS_STEPS

__all__ = [
    "Lion",
    "LionClip",
    "Muon",
    "MuonClip",
    "SAdam",
    "newton_schulz_torch",
    "polar_torch",
]

ParamsT = Iterable[torch.Tensor] | Iterable[dict[str, Any]]


def newton_schulz_torch(
    matrix: torch.Tensor,
    *,
    steps: int = NS_STEPS,
    coefficients: tuple[float, float, float] = NS_COEFFICIENTS,
    eps: float = 1e-7,
) -> torch.Tensor:
    """Muon's quintic Newton-Schulz iteration on a 2-D tensor (dtype and device kept).

    Same algorithm as :func:`reference.polar.newton_schulz` (transpose tall inputs,
    Frobenius normalisation with guard ``eps``, ``steps`` quintic iterations).

    Raises:
        ValueError: ``matrix`` is not 2-D or ``steps < 1``.
    """
    if matrix.ndim != 2:
        raise ValueError(f"matrix: expected a 2-D tensor, got shape {tuple(matrix.shape)}")
    if steps < 1:
        raise ValueError(f"steps: expected an integer >= 1, got {steps}")
    a, b, c = coefficients
    x = matrix
    transposed = x.shape[0] > x.shape[1]
    if transposed:
        x = x.T
    x = x / (torch.linalg.matrix_norm(x) + eps)
    for _ in range(steps):
        gram = x @ x.T
        x = a * x + (b * gram + c * (gram @ gram)) @ x
    out: torch.Tensor = x.T if transposed else x
    return out


def polar_torch(matrix: torch.Tensor) -> torch.Tensor:
    """Exact orthogonal polar factor ``U_k V_k^T`` (same rank rule as :func:`reference.polar.polar`).

    Raises:
        ValueError: ``matrix`` is not 2-D.
    """
    if matrix.ndim != 2:
        raise ValueError(f"matrix: expected a 2-D tensor, got shape {tuple(matrix.shape)}")
    u, s, vh = torch.linalg.svd(matrix, full_matrices=False)
    if s.numel() == 0 or float(s[0]) == 0.0:
        return torch.zeros_like(matrix)
    threshold = max(matrix.shape) * torch.finfo(matrix.dtype).eps * float(s[0])
    k = int((s > threshold).sum())
    factor: torch.Tensor = u[:, :k] @ vh[:k, :]
    return factor


def _clip_tensor(g: torch.Tensor, tau: float) -> torch.Tensor:
    if math.isinf(tau):
        return g
    n = float(torch.linalg.vector_norm(g))
    return g if n <= tau else g * (tau / n)


def _check_finite_grad(p: torch.Tensor) -> torch.Tensor:
    g = p.grad
    assert g is not None
    # one reduction first (NaN/inf propagate through a sum); the full test only if it fails
    if not bool(torch.isfinite(g.sum())) and not bool(torch.isfinite(g).all()):
        raise ValueError(
            f"grads: expected finite values, got NaN/inf in a gradient of shape {tuple(g.shape)}"
        )
    return g


class Lion(torch.optim.Optimizer):
    """Lion with decoupled weight decay (google/automl ``lion_pytorch.py``), plus R1 clipping.

    Per parameter: ``c = b1 m + (1 - b1) g``; ``p <- p (1 - lr wd) - lr sign(c)``;
    ``m <- b2 m + (1 - b2) g``; with ``clip_tau < inf`` the gradient is first clipped to
    Frobenius norm ``tau`` (R1, reconstructed).  Matches :func:`reference.optimizers.lion`.

    Args:
        params: parameters or parameter groups.
        lr: ``eta > 0`` (1e-4).
        betas: ``(b1, b2)`` in [0, 1) ((0.9, 0.99)).
        weight_decay: ``lambda >= 0`` (0).
        clip_tau: ``> 0`` or ``inf``.

    Raises:
        ValueError: invalid hyper-parameters (via :class:`LionConfig`); non-finite gradients.
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float = 1e-4,
        betas: tuple[float, float] = (0.9, 0.99),
        weight_decay: float = 0.0,
        clip_tau: float = math.inf,
    ) -> None:
        LionConfig(
            learning_rate=lr, b1=betas[0], b2=betas[1], weight_decay=weight_decay, clip_tau=clip_tau
        )
        super().__init__(
            params, {"lr": lr, "betas": betas, "weight_decay": weight_decay, "clip_tau": clip_tau}
        )

    @torch.no_grad()
    def step(self, closure: Callable[[], float] | None = None) -> float | None:  # type: ignore[override]
        """One Lion step; ``closure()`` (optional) recomputes the loss with gradients."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            lr, wd, tau = group["lr"], group["weight_decay"], group["clip_tau"]
            b1, b2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                g = _clip_tensor(_check_finite_grad(p), tau)
                state = self.state[p]
                if "exp_avg" not in state:
                    state["exp_avg"] = torch.zeros_like(p)
                m = state["exp_avg"]
                c = b1 * m + (1.0 - b1) * g
                p.add_(-(lr * wd) * p - lr * torch.sign(c))
                m.mul_(b2).add_((1.0 - b2) * g)
        return loss


class LionClip(Lion):
    """Lion-clip (R1, reconstructed): :class:`Lion` with per-tensor clipping, default ``tau = 1``."""

    def __init__(
        self,
        params: ParamsT,
        lr: float = 1e-4,
        betas: tuple[float, float] = (0.9, 0.99),
        weight_decay: float = 0.0,
        clip_tau: float = 1.0,
    ) -> None:
        super().__init__(params, lr=lr, betas=betas, weight_decay=weight_decay, clip_tau=clip_tau)


class Muon(torch.optim.Optimizer):
    """Muon (KellerJordan/Muon ``muon_update``) for 2-D parameters, plus R1 clipping.

    ``B <- mu B + (1 - mu) G``; ``U = (1 - mu) G + mu B`` (Nesterov) or ``B``;
    ``O = NS5(U) s`` (or the exact polar factor), ``s = max(1, m/n)^(1/2)``;
    ``W <- W (1 - lr wd) - lr O``.  Matches :func:`reference.optimizers.muon`.

    Args:
        params: 2-D parameters (rank > 2 with ``flatten=True``) or groups.
        lr: ``eta > 0`` (0.02).
        momentum: ``mu`` in [0, 1) (0.95).
        nesterov: bool (True).
        ns_steps: NS iterations (5).
        weight_decay: ``lambda >= 0`` (0).
        exact_polar: SVD polar factor instead of NS5.
        clip_tau: R1 per-tensor clipping level (``inf``: off).
        flatten: reshape rank > 2 tensors to ``(shape[0], -1)``.

    Raises:
        ValueError: invalid hyper-parameters; non-2-D parameters without ``flatten``;
            non-finite gradients.
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float = 0.02,
        momentum: float = 0.95,
        nesterov: bool = True,
        ns_steps: int = NS_STEPS,
        weight_decay: float = 0.0,
        exact_polar: bool = False,
        clip_tau: float = math.inf,
        flatten: bool = False,
    ) -> None:
        MuonConfig(
            learning_rate=lr,
            momentum=momentum,
            nesterov=nesterov,
            ns_steps=ns_steps,
            weight_decay=weight_decay,
            exact_polar=exact_polar,
            clip_tau=clip_tau,
            flatten=flatten,
        )
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "nesterov": nesterov,
            "ns_steps": ns_steps,
            "weight_decay": weight_decay,
            "exact_polar": exact_polar,
            "clip_tau": clip_tau,
            "flatten": flatten,
        }
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2 and not (group["flatten"] and p.ndim > 2):
                    raise ValueError(
                        f"params: expected 2-D tensors for Muon (or rank > 2 with flatten=True), got shape {tuple(p.shape)}"
                    )

    @torch.no_grad()
    def step(self, closure: Callable[[], float] | None = None) -> float | None:  # type: ignore[override]
        """One Muon step; ``closure()`` (optional) recomputes the loss with gradients."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            mu, lr, wd = group["momentum"], group["lr"], group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                g = _clip_tensor(_check_finite_grad(p), group["clip_tau"])
                state = self.state[p]
                if "momentum_buffer" not in state:
                    state["momentum_buffer"] = torch.zeros_like(p)
                buf = state["momentum_buffer"]
                buf.mul_(mu).add_((1.0 - mu) * g)
                u = (1.0 - mu) * g + mu * buf if group["nesterov"] else buf
                mat = u.reshape(u.shape[0], -1)
                o = (
                    polar_torch(mat)
                    if group["exact_polar"]
                    else newton_schulz_torch(mat, steps=group["ns_steps"])
                )
                o = o * math.sqrt(max(1.0, mat.shape[0] / mat.shape[1]))
                p.add_(-(lr * wd) * p - lr * o.reshape(p.shape))
        return loss


class MuonClip(Muon):
    """Muon-clip (R1, reconstructed): :class:`Muon` with per-tensor clipping, default ``tau = 1``."""

    def __init__(
        self, params: ParamsT, lr: float = 0.02, clip_tau: float = 1.0, **kwargs: Any
    ) -> None:
        super().__init__(params, lr=lr, clip_tau=clip_tau, **kwargs)


class SAdam(torch.optim.Optimizer):
    """S-Adam (spec 02, authors' final code) as a ``torch.optim.Optimizer``.

    ``step(closure)`` needs the authors' closure ``closure(backward: bool) -> loss``:
    ``closure(True)`` zeroes and recomputes the gradients and returns the loss (the base
    value), ``closure(False)`` only evaluates the loss (a probe).  Per parameter group one
    LGI ``rho`` is estimated with ``k_directions`` probes (parameters are overwritten with
    ``theta + sigma u`` and restored exactly from a copy), then
    ``alpha = exp(-lambda min(rho, cap))`` multiplies the bias-corrected Adam step
    (``eps`` inside the root, decoupled undamped weight decay).  ``lgi_history`` keeps
    ``rho`` per group and step.  A non-finite loss raises
    :class:`~reference.optimizers_sadam.NonFiniteLossError`.

    Directions are drawn with ``direction_rng``: a ``numpy.random.Generator`` reproduces
    :func:`reference.optimizers.s_adam` exactly (cross-checks); a ``torch.Generator`` draws
    on the parameters' device; ``None`` uses a numpy generator seeded from
    ``torch.initial_seed()`` (float32 draws) for CPU parameters, faster than ``torch.randn``, and the
    default torch generator otherwise.

    Args:
        params: parameters or groups.
        lr: ``eta >= 0`` (1e-3).
        betas: ``(b1, b2)`` ((0.9, 0.999)).
        eps: ``>= 0`` (1e-8).
        weight_decay: ``>= 0`` (1e-2).
        k_directions: ``k >= 1`` (2).
        sigma: ``> 0`` (0.01).
        lgi_lambda: ``>= 0`` (2.0).
        stabilize_eps: ``zeta >= 0`` (1e-6).
        lgi_cap: ``> 0`` (10.0).
        direction_rng: generator of the probe directions.

    Raises:
        ValueError: invalid hyper-parameters; non-finite gradients.
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        k_directions: int = 2,
        sigma: float = 0.01,
        lgi_lambda: float = 2.0,
        stabilize_eps: float = 1e-6,
        lgi_cap: float = 10.0,
        direction_rng: np.random.Generator | torch.Generator | None = None,
    ) -> None:
        SAdamConfig(
            learning_rate=lr,
            b1=betas[0],
            b2=betas[1],
            eps=eps,
            weight_decay=weight_decay,
            k_directions=k_directions,
            sigma=sigma,
            lgi_lambda=lgi_lambda,
            stabilize_eps=stabilize_eps,
            lgi_cap=lgi_cap,
        )
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "k_directions": k_directions,
            "sigma": sigma,
            "lgi_lambda": lgi_lambda,
            "stabilize_eps": stabilize_eps,
            "lgi_cap": lgi_cap,
        }
        super().__init__(params, defaults)
        self.direction_rng = direction_rng
        self._cpu_rng: np.random.Generator | None = None
        self.lgi_history: list[float] = []

    def _direction(self, p: torch.Tensor) -> torch.Tensor:
        rng = self.direction_rng
        if rng is None and p.device.type == "cpu":
            # numpy's ziggurat sampler (float32 draws) is much faster than torch.randn on CPU
            if self._cpu_rng is None:
                self._cpu_rng = np.random.default_rng(torch.initial_seed())
            draw = self._cpu_rng.standard_normal(tuple(p.shape), dtype=np.float32)
            z = torch.from_numpy(draw).to(dtype=p.dtype)
        elif isinstance(rng, np.random.Generator):
            z = torch.as_tensor(rng.standard_normal(tuple(p.shape)), dtype=p.dtype, device=p.device)
        else:
            z = torch.randn(p.shape, generator=rng, dtype=p.dtype, device=p.device)
        unit: torch.Tensor = z / (torch.linalg.vector_norm(z) + 1e-12)
        return unit

    @staticmethod
    def _finite(value: Any, where: str) -> float:
        if isinstance(value, torch.Tensor):
            value = value.detach()
        result = float(value)
        if not math.isfinite(result):
            raise NonFiniteLossError(f"loss: expected a finite value at {where}, got {result!r}")
        return result

    def _lgi(
        self,
        group: dict[str, Any],
        params: list[torch.Tensor],
        closure: Callable[[bool], Any],
        base: float,
    ) -> float:
        k, sigma = group["k_directions"], group["sigma"]
        saved = [p.detach().clone() for p in params]
        slopes = []
        try:
            for i in range(k):
                dirs = [self._direction(p) for p in params]
                for p, s, u in zip(params, saved, dirs, strict=True):
                    p.copy_(s).add_(u, alpha=sigma)
                slopes.append((self._finite(closure(False), f"probe {i}") - base) / sigma)
        finally:
            for p, s in zip(params, saved, strict=True):
                p.copy_(s)
        d = np.array(slopes)
        s2 = float(np.var(d, ddof=1)) if k >= 2 else 0.0
        q = float(np.mean(d * d))
        zeta = group["stabilize_eps"]
        return 0.0 if q + zeta == 0.0 else s2 / (q + zeta)

    @torch.no_grad()
    def step(self, closure: Callable[[bool], Any] | None = None) -> float:  # type: ignore[override]
        """One S-Adam step; ``closure(backward: bool) -> loss`` is required (see the class)."""
        if closure is None:
            raise ValueError(
                "closure: expected a callable closure(backward: bool) -> loss, got None"
            )
        with torch.enable_grad():
            base = self._finite(closure(True), "the base point")
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            if not params:
                continue
            grads = [_check_finite_grad(p) for p in params]  # probes never touch .grad
            rho = 0.0 if group["lgi_lambda"] == 0.0 else self._lgi(group, params, closure, base)
            self.lgi_history.append(rho)
            alpha = math.exp(-group["lgi_lambda"] * min(rho, group["lgi_cap"]))
            lr, wd, eps = group["lr"], group["weight_decay"], group["eps"]
            b1, b2 = group["betas"]
            for p, g in zip(params, grads, strict=True):
                state = self.state[p]
                if "step" not in state:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p)
                    state["exp_avg_sq"] = torch.zeros_like(p)
                state["step"] += 1
                t = state["step"]
                m, v = state["exp_avg"], state["exp_avg_sq"]
                m.mul_(b1).add_(g, alpha=1.0 - b1)
                v.mul_(b2).addcmul_(g, g, value=1.0 - b2)
                ct = lr * math.sqrt(1.0 - b2**t) / (1.0 - b1**t)
                p.mul_(1.0 - lr * wd).addcdiv_(m, v.sqrt().add_(eps), value=-alpha * ct)
        return base
