"""Torch fast paths of the optimizer family: ``torch.optim.Optimizer`` subclasses.

Names mirror the reference: :func:`newton_schulz` and :func:`polar` are the tensor twins of
:func:`reference.optimizers.newton_schulz` and :func:`reference.optimizers.polar`; each
reference optimizer factory with a torch class has a torch factory of the same name and
hyper-parameter names, ``name(params, **hyper) -> torch.optim.Optimizer`` (:func:`lion`,
:func:`muon`, :func:`sfw_vr`, :func:`lion_vr`, :func:`muon_vr`, :func:`s_adam`).  The classes
(torch's convention, torch's argument names ``lr`` / ``betas``) are:

* :class:`SAdam` — S-Adam with the LGI brake (spec 02, authors' final code); ``step``
  takes the authors' closure ``closure(backward: bool) -> loss``.
* :class:`Lion` and :class:`Muon` — with decoupled weight decay; ``clip_tau < inf`` gives
  the R1 robust variants (per-tensor gradient clipping, spec 14 §3.4, reconstructed):
  :class:`LionClip` and :class:`MuonClip` are the same classes with ``clip_tau = 1``.
* :class:`SFWVR` — the R2 robust variant (clipped STORM-type variance-reduced SFW, spec 14
  §3.4, reconstructed) on the l_inf / l2 / l1 / spectral ball, and the Lion and Muon
  variants it induces, :class:`LionVR` and :class:`MuonVR`; ``step`` takes a closure
  ``closure() -> loss`` because STORM needs two gradients at one sample.

Each class validates its hyper-parameters with the reference configuration
(:class:`~reference.optimizers.sadam.SAdamConfig`, :class:`~reference.optimizers.fw.LionConfig`,
:class:`~reference.optimizers.fw.MuonConfig`,
:class:`~reference.optimizers.fw.SFWVRConfig`), works on any device and dtype of its
parameters (float64 is what the cross-checks use) and round-trips through
``state_dict``.  The parameters' device is the ``device``; nothing is moved.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any, Literal

import numpy as np
import torch

from reference._arrays import require_positive
from reference._defaults import defaults_of
from reference.optimizers import fw
from reference.optimizers.fw import (
    LionConfig,
    MuonConfig,
    NormName,
    PolarMethod,
    SFWVRConfig,
    _fw_params,
)
from reference.optimizers.polar import NS_COEFFICIENTS, NS_EPS, NS_STEPS
from reference.optimizers.sadam import DirectionMode, NonFiniteLossError, SAdamConfig

__all__ = [
    "SFWVR",
    "Lion",
    "LionClip",
    "LionVR",
    "Muon",
    "MuonClip",
    "MuonVR",
    "SAdam",
    "lion",
    "lion_vr",
    "muon",
    "muon_vr",
    "newton_schulz",
    "polar",
    "s_adam",
    "sfw_vr",
]

ParamsT = Iterable[torch.Tensor] | Iterable[dict[str, Any]]


# Every default below is read from its one declaration: the reference configuration, or the
# reference factory's signature where there is no configuration class.
_LION = LionConfig()
_MUON = MuonConfig()
_SFW_VR = SFWVRConfig()
_LION_VR = defaults_of(fw.lion_vr)
_MUON_VR = defaults_of(fw.muon_vr)
_S_ADAM = SAdamConfig()
#: The clipping level of :class:`LionClip` and :class:`MuonClip` (tau = 1 per tensor, spec 14 §6).
_CLIP_TAU = 1.0


def newton_schulz(
    matrix: torch.Tensor,
    *,
    steps: int = NS_STEPS,
    coefficients: tuple[float, float, float] = NS_COEFFICIENTS,
    eps: float = NS_EPS,
) -> torch.Tensor:
    """Muon's quintic Newton-Schulz iteration on a 2-D tensor (dtype and device kept).

    The torch counterpart of :func:`reference.optimizers.newton_schulz` (same algorithm: transpose tall inputs,
    Frobenius normalisation with guard ``eps``, ``steps`` quintic iterations).

    Args:
        matrix: ``(m, n)`` tensor.
        steps: number of quintic iterations ``>= 1``.
        coefficients: ``(a, b, c)`` of the quintic.
        eps: guard added to the Frobenius norm.

    Returns:
        ``(m, n)`` tensor, approximately the orthogonal polar factor of ``matrix``.

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


def polar(matrix: torch.Tensor, *, rtol: float | None = None) -> torch.Tensor:
    """Exact orthogonal polar factor ``U_k V_k^T`` from a thin SVD.

    The torch counterpart of :func:`reference.optimizers.polar` (same rank rule: ``k``
    singular values ``> rtol * sigma_max``; the zero matrix maps to zero).

    Args:
        matrix: ``(m, n)`` tensor.
        rtol: relative rank threshold in ``[0, 1)``; default ``max(m, n)`` times the
            machine epsilon of ``matrix.dtype``.

    Returns:
        ``(m, n)`` partial isometry, dtype and device of ``matrix``.

    Raises:
        ValueError: ``matrix`` is not 2-D; ``rtol`` outside ``[0, 1)``.
    """
    if matrix.ndim != 2:
        raise ValueError(f"matrix: expected a 2-D tensor, got shape {tuple(matrix.shape)}")
    if rtol is None:
        relative = max(matrix.shape) * torch.finfo(matrix.dtype).eps
    else:
        relative = require_positive("rtol", rtol, allow_zero=True)
        if relative >= 1.0:
            raise ValueError(f"rtol: expected a number in [0, 1), got {relative!r}")
    u, s, vh = torch.linalg.svd(matrix, full_matrices=False)
    if s.numel() == 0 or float(s[0]) == 0.0:
        return torch.zeros_like(matrix)
    threshold = relative * float(s[0])
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

    The defaults are :class:`~reference.optimizers.fw.LionConfig`'s.

    Args:
        params: parameters or parameter groups.
        lr: ``eta > 0``.
        betas: ``(b1, b2)`` in [0, 1).
        weight_decay: ``lambda >= 0``.
        clip_tau: ``> 0`` or ``inf``.

    Raises:
        ValueError: invalid hyper-parameters (via :class:`LionConfig`); non-finite gradients.
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float = _LION.learning_rate,
        betas: tuple[float, float] = (_LION.b1, _LION.b2),
        weight_decay: float = _LION.weight_decay,
        clip_tau: float = _LION.clip_tau,
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
        lr: float = _LION.learning_rate,
        betas: tuple[float, float] = (_LION.b1, _LION.b2),
        weight_decay: float = _LION.weight_decay,
        clip_tau: float = _CLIP_TAU,
    ) -> None:
        super().__init__(params, lr=lr, betas=betas, weight_decay=weight_decay, clip_tau=clip_tau)


class Muon(torch.optim.Optimizer):
    """Muon (KellerJordan/Muon ``muon_update``) for 2-D parameters, plus R1 clipping.

    ``B <- mu B + (1 - mu) G``; ``U = (1 - mu) G + mu B`` (Nesterov) or ``B``;
    ``O = NS5(U) s`` (or the exact polar factor), ``s = max(1, m/n)^(1/2)``;
    ``W <- W (1 - lr wd) - lr O``.  Matches :func:`reference.optimizers.muon`.

    The defaults are :class:`~reference.optimizers.fw.MuonConfig`'s.

    Args:
        params: 2-D parameters (rank > 2 with ``flatten=True``) or groups.
        lr: ``eta > 0``.
        momentum: ``mu`` in [0, 1).
        nesterov: bool.
        ns_steps: NS iterations.
        weight_decay: ``lambda >= 0``.
        exact_polar: SVD polar factor instead of NS5.
        clip_tau: R1 per-tensor clipping level (``inf``: off).
        flatten: reshape rank > 2 tensors to ``(shape[0], -1)``.
        coefficients: NS quintic coefficients.
        ns_eps: NS normalisation guard.

    Raises:
        ValueError: invalid hyper-parameters; non-2-D parameters without ``flatten``;
            non-finite gradients.
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float = _MUON.learning_rate,
        momentum: float = _MUON.momentum,
        nesterov: bool = _MUON.nesterov,
        ns_steps: int = _MUON.ns_steps,
        weight_decay: float = _MUON.weight_decay,
        exact_polar: bool = _MUON.exact_polar,
        clip_tau: float = _MUON.clip_tau,
        flatten: bool = _MUON.flatten,
        coefficients: tuple[float, float, float] = _MUON.coefficients,
        ns_eps: float = _MUON.ns_eps,
    ) -> None:
        MuonConfig(
            learning_rate=lr,
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
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "nesterov": nesterov,
            "ns_steps": ns_steps,
            "weight_decay": weight_decay,
            "exact_polar": exact_polar,
            "clip_tau": clip_tau,
            "flatten": flatten,
            "coefficients": coefficients,
            "ns_eps": ns_eps,
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
                    polar(mat)
                    if group["exact_polar"]
                    else newton_schulz(
                        mat,
                        steps=group["ns_steps"],
                        coefficients=group["coefficients"],
                        eps=group["ns_eps"],
                    )
                )
                o = o * math.sqrt(max(1.0, mat.shape[0] / mat.shape[1]))
                p.add_(-(lr * wd) * p - lr * o.reshape(p.shape))
        return loss


class MuonClip(Muon):
    """Muon-clip (R1, reconstructed): :class:`Muon` with per-tensor clipping, default ``tau = 1``."""

    def __init__(
        self,
        params: ParamsT,
        lr: float = _MUON.learning_rate,
        clip_tau: float = _CLIP_TAU,
        **kwargs: Any,
    ) -> None:
        super().__init__(params, lr=lr, clip_tau=clip_tau, **kwargs)


# ----------------------------------------------------------------------------- R2: STORM SFW
def _schedule(value: float | None, t: int, exponent: float) -> float:
    # same expression as reference.optimizers.fw._schedule (bit-identical floats)
    return float((t + 1) ** (-exponent)) if value is None else value


def _lmo_torch(
    d: torch.Tensor, radius: float, which: str, method: str, ns_steps: int
) -> torch.Tensor:
    """``LMO_C(d)`` for the ball of ``radius`` in the norm ``which`` (as ``reference.optimizers.fw``)."""
    if which == "linf":
        return -radius * torch.sign(d)
    if which == "l2":
        n = torch.linalg.vector_norm(d)
        return torch.where(n == 0.0, torch.zeros_like(d), -radius * d / n)
    if which == "l1":
        out = torch.zeros_like(d)
        flat = d.reshape(-1)
        j = int(torch.argmax(torch.abs(flat)))  # first maximal index, as numpy.argmax
        if bool(flat[j] != 0.0):
            out.view(-1)[j] = -radius * torch.sign(flat[j])
        return out
    if method == "exact":
        return -radius * polar(d)
    return -radius * newton_schulz(d, steps=ns_steps)


class SFWVR(torch.optim.Optimizer):
    """Clipped variance-reduced (STORM-type) SFW, robust variant R2 (spec 14 §3.4, reconstructed).

    Per parameter tensor (a block of ``C``, the product of the blocks' balls)::

        m_0 = clip(g(x_0; xi_0))
        m_t = clip(g(x_t; xi_t)) + (1 - a_t)(m_{t-1} - clip(g(x_{t-1}; xi_t)))
        v_t = LMO_C(m_t);   x_{t+1} = (1 - gamma_t) x_t + gamma_t v_t

    (``clip="estimator"`` clips the whole estimator instead of both gradients.)  STORM
    needs two gradients at ONE sample ``xi_t``, so ``step(closure)`` requires a closure
    ``closure() -> loss`` that zeroes the gradients, evaluates the loss of the CURRENT
    mini-batch (the same one every time it is called within a step) and calls
    ``backward()``.  At ``t >= 1`` the optimizer calls it first at the previous iterate
    ``x_{t-1}`` (kept in ``state["prev_param"]``; the parameters are overwritten and
    restored exactly from a copy), then at ``x_t``; at ``t = 0`` once.  After ``step``
    the ``.grad`` fields hold ``g(x_t; xi_t)`` and the returned loss is the one at ``x_t``.
    Matches :func:`reference.optimizers.sfw_vr` step for step (``grads = g(x_t; xi_t)``,
    ``prev_grads = g(x_{t-1}; xi_t)``).

    Symbols -> arguments: ``a_t`` = ``a`` (``None``: ``(t+1)^(-2/3)``), ``gamma_t`` =
    ``step_size`` (``None``: ``(t+1)^(-2/3)``), ``tau`` = ``clip_tau``, ``r`` = ``radius``.

    Variant: spec 14 §3.4 R2, reconstructed (the paper's exact form was not retrieved); the
    clip placement is a keyword, per-tensor clipping.

    The defaults are :class:`~reference.optimizers.fw.SFWVRConfig`'s.

    Args:
        params: parameters or groups (2-D tensors for ``which="spectral"``).
        which: ``"linf"``, ``"l2"``, ``"l1"`` or ``"spectral"``.
        radius: ``r > 0``.
        step_size: ``gamma`` in (0, 1] or ``None`` (schedule).
        a: STORM weight in (0, 1] or ``None`` (schedule).
        clip_tau: ``> 0`` or ``inf``.
        clip: ``"per_gradient"`` or ``"estimator"``.
        shape_scaled: radius of an ``(m, n)`` block times ``max(1, m/n)^(1/2)``.
        polar: ``"exact"`` or ``"newton_schulz"`` (spectral LMO).
        ns_steps: Newton-Schulz steps.

    Raises:
        ValueError: invalid hyper-parameters (via :class:`~reference.optimizers.fw.SFWVRConfig`);
            non-2-D tensors for the spectral ball; a missing closure; non-finite gradients.

    References:
        Spec 14 §3.4 (R2); A. Cutkosky and F. Orabona, "Momentum-based variance reduction in
        non-convex SGD" (STORM), NeurIPS 2019.
    """

    def __init__(
        self,
        params: ParamsT,
        which: str = _SFW_VR.which,
        radius: float = _SFW_VR.radius,
        step_size: float | None = _SFW_VR.step_size,
        a: float | None = _SFW_VR.a,
        clip_tau: float = _SFW_VR.clip_tau,
        clip: str = _SFW_VR.clip,
        shape_scaled: bool = _SFW_VR.shape_scaled,
        polar: str = _SFW_VR.polar,
        ns_steps: int = _SFW_VR.ns_steps,
    ) -> None:
        defaults = {
            "which": which,
            "radius": radius,
            "step_size": step_size,
            "a": a,
            "clip_tau": clip_tau,
            "clip": clip,
            "shape_scaled": shape_scaled,
            "polar": polar,
            "ns_steps": ns_steps,
        }
        self._config(defaults)
        super().__init__(params, defaults)
        for group in self.param_groups:
            self._config(group)
            if group["which"] == "spectral":
                for p in group["params"]:
                    if p.ndim != 2:
                        raise ValueError(
                            f"params: expected 2-D tensors for the spectral-norm ball, got shape {tuple(p.shape)}"
                        )

    @staticmethod
    def _config(group: dict[str, Any]) -> SFWVRConfig:
        return SFWVRConfig(
            which=group["which"],
            radius=group["radius"],
            step_size=group["step_size"],
            a=group["a"],
            clip_tau=group["clip_tau"],
            clip=group["clip"],
            shape_scaled=group["shape_scaled"],
            polar=group["polar"],
            ns_steps=group["ns_steps"],
        )

    def _grads_at(
        self, points: list[torch.Tensor] | None, closure: Callable[[], Any]
    ) -> tuple[Any, list[torch.Tensor | None]]:
        """Run ``closure`` with the parameters set to ``points`` (None: as they are).

        Returns the loss and a copy of every parameter's gradient (None where absent);
        the parameters are restored bit for bit.
        """
        params = [p for g in self.param_groups for p in g["params"]]
        saved: list[torch.Tensor] = []
        if points is not None:
            with torch.no_grad():
                saved = [p.detach().clone() for p in params]
                for p, x in zip(params, points, strict=True):
                    p.copy_(x)
        try:
            with torch.enable_grad():
                loss = closure()
            grads = [None if p.grad is None else p.grad.detach().clone() for p in params]
        finally:
            if points is not None:
                with torch.no_grad():
                    for p, s in zip(params, saved, strict=True):
                        p.copy_(s)
        return loss, grads

    @torch.no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One R2 step; ``closure() -> loss`` (zero grads, loss of the current batch, backward)."""
        if closure is None:
            raise ValueError(
                "closure: expected a callable closure() -> loss that recomputes the gradients "
                "on the current mini-batch (STORM evaluates it at two points), got None"
            )
        params = [p for g in self.param_groups for p in g["params"]]
        started = [bool(self.state[p]) for p in params]
        gp: list[torch.Tensor | None] = [None] * len(params)
        if any(started):
            # g(x_{t-1}; xi_t): parameters without history stay where they are
            prev = [
                self.state[p]["prev_param"] if s else p.detach()
                for p, s in zip(params, started, strict=True)
            ]
            _, gp = self._grads_at(prev, closure)
        loss, grads = self._grads_at(None, closure)  # g(x_t; xi_t); .grad is left holding it
        for i, g in enumerate(grads):
            for where, h in (("", g), (" at the previous iterate", gp[i])):
                if h is not None and not bool(torch.isfinite(h).all()):
                    raise ValueError(
                        f"grads: expected finite values, got NaN/inf in a gradient of shape "
                        f"{tuple(h.shape)}{where}"
                    )
        index = {id(p): i for i, p in enumerate(params)}
        for group in self.param_groups:
            tau, per_gradient = group["clip_tau"], group["clip"] == "per_gradient"
            for p in group["params"]:
                i = index[id(p)]
                g = grads[i]
                if g is None:
                    continue
                state = self.state[p]
                if not state:  # t = 0: m_0 = clip(g(x_0; xi_0))
                    t = 0
                    est = _clip_tensor(g, tau)
                else:
                    t = state["step"]
                    prev_g = gp[i]
                    if prev_g is None:
                        raise ValueError(
                            "prev_grads: expected a gradient at the previous iterate, got None "
                            f"for a parameter of shape {tuple(p.shape)}"
                        )
                    a = _schedule(group["a"], t, 2.0 / 3.0)
                    m = state["estimator"]
                    if per_gradient:
                        est = _clip_tensor(g, tau) + (1.0 - a) * (m - _clip_tensor(prev_g, tau))
                    else:
                        est = _clip_tensor(g + (1.0 - a) * (m - prev_g), tau)
                gamma = _schedule(group["step_size"], t, 2.0 / 3.0)
                radius = group["radius"]
                if group["shape_scaled"] and p.ndim == 2:
                    radius = radius * math.sqrt(max(1.0, p.shape[0] / p.shape[1]))
                v = _lmo_torch(est, radius, group["which"], group["polar"], group["ns_steps"])
                state["prev_param"] = p.detach().clone()
                state["estimator"] = est
                state["step"] = t + 1
                p.add_(gamma * (v - p))  # x_{t+1} = x_t + gamma (v_t - x_t)
        return loss


class LionVR(SFWVR):
    """Lion-VR (R2 on ``{||x||_inf <= 1/lambda}``, reconstructed): see :func:`reference.optimizers.lion_vr`.

    ``x_{t+1} = (1 - eta lambda) x_t - eta sign(m_t)`` with ``m_t`` the clipped STORM
    estimator of :class:`SFWVR` (``gamma = eta lambda``, radius ``1/lambda``); ``step``
    takes the same closure as :class:`SFWVR`.

    The defaults are :func:`reference.optimizers.lion_vr`'s.

    Args:
        params: parameters or groups.
        lr: ``eta > 0``.
        weight_decay: ``lambda > 0`` with ``eta lambda <= 1``.
        a: STORM weight in (0, 1] or ``None`` (schedule ``(t+1)^(-2/3)``).
        clip_tau: ``> 0`` or ``inf``.
        clip: ``"per_gradient"`` or ``"estimator"``.

    Raises:
        ValueError: ``lr <= 0``, ``weight_decay <= 0``, ``lr * weight_decay > 1`` and the
            errors of :class:`SFWVR`.
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float = _LION_VR["learning_rate"],
        weight_decay: float = _LION_VR["weight_decay"],
        a: float | None = _LION_VR["a"],
        clip_tau: float = _LION_VR["clip_tau"],
        clip: str = _LION_VR["clip"],
    ) -> None:
        eta, lam = _fw_params(lr, weight_decay)
        super().__init__(
            params,
            which="linf",
            radius=1.0 / lam,
            step_size=eta * lam,
            a=a,
            clip_tau=clip_tau,
            clip=clip,
        )


class MuonVR(SFWVR):
    """Muon-VR (R2 on ``{||W||_2 <= s/lambda}``, reconstructed): see :func:`reference.optimizers.muon_vr`.

    ``W_{t+1} = (1 - eta lambda) W_t - eta s O(m_t)`` with ``O`` the exact polar factor or
    NS5 of the clipped STORM estimator, ``s = max(1, m/n)^(1/2)``; 2-D parameters only;
    ``step`` takes the same closure as :class:`SFWVR`.

    The defaults are :func:`reference.optimizers.muon_vr`'s.

    Args:
        params: 2-D parameters or groups.
        lr: ``eta > 0``.
        weight_decay: ``lambda > 0`` with ``eta lambda <= 1``.
        a: STORM weight in (0, 1] or ``None``.
        clip_tau: ``> 0`` or ``inf``.
        clip: ``"per_gradient"`` or ``"estimator"``.
        exact_polar: exact polar factor instead of NS5.
        ns_steps: NS steps.

    Raises:
        ValueError: as :class:`LionVR`; non-2-D parameters.
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float = _MUON_VR["learning_rate"],
        weight_decay: float = _MUON_VR["weight_decay"],
        a: float | None = _MUON_VR["a"],
        clip_tau: float = _MUON_VR["clip_tau"],
        clip: str = _MUON_VR["clip"],
        exact_polar: bool = _MUON_VR["exact_polar"],
        ns_steps: int = _MUON_VR["ns_steps"],
    ) -> None:
        eta, lam = _fw_params(lr, weight_decay)
        super().__init__(
            params,
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


# ------------------------------------------------------------------------------------ S-Adam
def _floats(values: list[Any]) -> list[float]:
    """Loss values as Python floats with one device synchronisation when they are tensors."""
    if values and all(isinstance(v, torch.Tensor) for v in values):
        devices = {v.device for v in values}
        if len(devices) == 1:
            stacked = torch.stack([v.detach().reshape(()).to(torch.float64) for v in values])
            out: list[float] = stacked.cpu().tolist()
            return out
    return [float(v.detach() if isinstance(v, torch.Tensor) else v) for v in values]


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
    :class:`~reference.optimizers.sadam.NonFiniteLossError`.

    Directions (per block ``u_b = z_b / (||z_b|| + 1e-12)``, ``z_b`` standard Gaussian,
    spec 02 Algorithm A) are drawn ONCE per probe into a flat buffer holding the group's
    parameters in order, then viewed per block:

    * ``direction_rng`` a ``numpy.random.Generator``: one ``standard_normal(N)`` float64
      call per probe (``N`` = total size of the group).  numpy's Gaussian sampler is
      sequential without caching, so this is the same stream as the reference's per-block
      draws in block order, and the trajectory reproduces :func:`reference.optimizers.s_adam`
      exactly (the cross-checks use this);
    * a ``torch.Generator``: one ``normal_`` per probe and device, in the parameters' dtype;
    * ``None`` (default): a private ``torch.Generator`` per device, seeded from
      ``torch.initial_seed()`` (so ``torch.manual_seed`` makes runs reproducible and the
      global torch stream is not consumed), drawing float32 Gaussians into a preallocated
      buffer (the draw dominates the probe cost; float32 halves it).

    The hot path uses ``torch._foreach_*`` kernels over the group's tensors (no
    per-parameter Python arithmetic) and synchronises with the device once per group and
    step (to read the ``k + 1`` losses and the gradient finiteness flag).  One
    parameter-sized scratch copy (the probe backup, reused for Adam's denominator) and one
    flat direction buffer are kept between steps (not in ``state_dict``).

    The defaults are :class:`~reference.optimizers.sadam.SAdamConfig`'s.

    Args:
        params: parameters or groups.
        lr: ``eta >= 0``.
        betas: ``(b1, b2)``.
        eps: ``>= 0``.
        weight_decay: ``>= 0``.
        k_directions: ``k >= 1``.
        sigma: ``> 0``.
        lgi_lambda: ``>= 0``.
        stabilize_eps: ``zeta >= 0``.
        lgi_cap: ``> 0``.
        direction_rng: generator of the probe directions (see above).

    Raises:
        ValueError: invalid hyper-parameters; non-finite gradients.
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float = _S_ADAM.learning_rate,
        betas: tuple[float, float] = (_S_ADAM.b1, _S_ADAM.b2),
        eps: float = _S_ADAM.eps,
        weight_decay: float = _S_ADAM.weight_decay,
        k_directions: int = _S_ADAM.k_directions,
        sigma: float = _S_ADAM.sigma,
        lgi_lambda: float = _S_ADAM.lgi_lambda,
        stabilize_eps: float = _S_ADAM.stabilize_eps,
        lgi_cap: float = _S_ADAM.lgi_cap,
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
        self._generators: dict[torch.device, torch.Generator] = {}
        self._buffers: dict[tuple[torch.device, torch.dtype], torch.Tensor] = {}
        self._saved: dict[tuple[int, ...], list[torch.Tensor]] = {}
        self.lgi_history: list[float] = []

    # -- directions
    def _buffer(self, device: torch.device, dtype: torch.dtype, size: int) -> torch.Tensor:
        key = (device, dtype)
        buf = self._buffers.get(key)
        if buf is None or buf.numel() < size:
            buf = torch.empty(size, dtype=dtype, device=device)
            self._buffers[key] = buf
        return buf[:size]

    def _generator(self, device: torch.device) -> torch.Generator:
        gen = self._generators.get(device)
        if gen is None:
            gen = torch.Generator(device=device)
            gen.manual_seed(torch.initial_seed())
            self._generators[device] = gen
        return gen

    def _gaussians(self, params: list[torch.Tensor]) -> list[torch.Tensor]:
        """One standard Gaussian tensor per parameter (views of one flat draw per device)."""
        rng = self.direction_rng
        sizes = [p.numel() for p in params]
        if isinstance(rng, np.random.Generator):
            flat = torch.from_numpy(rng.standard_normal(sum(sizes)))
            return [
                z.view(p.shape).to(device=p.device, dtype=p.dtype)
                for z, p in zip(torch.split(flat, sizes), params, strict=True)
            ]
        out: list[torch.Tensor | None] = [None] * len(params)
        for device in dict.fromkeys(p.device for p in params):
            idx = [i for i, p in enumerate(params) if p.device == device]
            if rng is None:
                dtype, gen = torch.float32, self._generator(device)
            else:
                dtype = params[idx[0]].dtype
                for i in idx[1:]:
                    dtype = torch.promote_types(dtype, params[i].dtype)
                gen = rng
            part = [sizes[i] for i in idx]
            flat = self._buffer(device, dtype, sum(part)).normal_(generator=gen)
            for i, z in zip(idx, torch.split(flat, part), strict=True):
                out[i] = z.view(params[i].shape)
        return [z for z in out if z is not None]

    def _scratch(self, params: list[torch.Tensor]) -> list[torch.Tensor]:
        """Preallocated tensors like ``params`` (probe backup, then the Adam denominator).

        Reusing them avoids allocating (and page-faulting) parameter-sized memory per step.
        """
        key = tuple(id(p) for p in params)
        saved = self._saved.get(key)
        if saved is None or any(
            s.shape != p.shape or s.dtype != p.dtype or s.device != p.device
            for s, p in zip(saved, params, strict=True)
        ):
            saved = [torch.empty_like(p) for p in params]
            self._saved[key] = saved
        return saved

    def _lgi_probes(
        self,
        group: dict[str, Any],
        params: list[torch.Tensor],
        closure: Callable[[bool], Any],
    ) -> list[Any]:
        """The ``k`` probe losses ``f(theta + sigma u_i)`` (unsynchronised); params restored."""
        saved = self._scratch(params)
        torch._foreach_copy_(saved, params)
        sigma = group["sigma"]
        values: list[Any] = []
        try:
            for _ in range(group["k_directions"]):
                # z_b lands in the parameter tensors themselves (dtype converted by the copy,
                # nothing allocated); then p = z_b (sigma / (||z_b|| + 1e-12)) + theta_b
                torch._foreach_copy_(params, self._gaussians(params))
                scales = torch._foreach_norm(params)
                torch._foreach_add_(scales, 1e-12)
                torch._foreach_reciprocal_(scales)
                torch._foreach_mul_(scales, sigma)
                torch._foreach_mul_(params, scales)
                torch._foreach_add_(params, saved)
                value = closure(False)
                if not isinstance(value, torch.Tensor) and not math.isfinite(float(value)):
                    # a host value is checked at once (no sync); tensors after the loop
                    raise NonFiniteLossError(
                        f"loss: expected a finite value at probe {len(values)}, got {value!r}"
                    )
                values.append(value)
        finally:
            torch._foreach_copy_(params, saved)
        return values

    @staticmethod
    def _rho(group: dict[str, Any], base: float, probes: list[float]) -> float:
        for i, value in enumerate(probes):
            if not math.isfinite(value):
                raise NonFiniteLossError(
                    f"loss: expected a finite value at probe {i}, got {value!r}"
                )
        sigma, k = group["sigma"], group["k_directions"]
        d = (np.array(probes) - base) / sigma  # same arithmetic as the reference
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
            base_value = closure(True)
        base: float | None = None
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            if not params:
                continue
            grads = [p.grad for p in params if p.grad is not None]
            probing = group["lgi_lambda"] != 0.0
            probes = self._lgi_probes(group, params, closure) if probing else []
            finite = torch.stack([torch.isfinite(n) for n in torch._foreach_norm(grads)]).all()
            values = _floats([base_value, *probes])  # the one synchronisation of the step
            base = values[0]
            if not math.isfinite(base):
                raise NonFiniteLossError(
                    f"loss: expected a finite value at the base point, got {base!r}"
                )
            if not bool(finite):
                bad = next(g for g in grads if not bool(torch.isfinite(g).all()))
                raise ValueError(
                    f"grads: expected finite values, got NaN/inf in a gradient of shape {tuple(bad.shape)}"
                )
            rho = self._rho(group, base, values[1:]) if probing else 0.0
            self.lgi_history.append(rho)
            alpha = math.exp(-group["lgi_lambda"] * min(rho, group["lgi_cap"]))
            self._adam_update(group, params, grads, alpha)
        if base is None:
            (base,) = _floats([base_value])
            if not math.isfinite(base):
                raise NonFiniteLossError(
                    f"loss: expected a finite value at the base point, got {base!r}"
                )
        return base

    def _adam_update(
        self,
        group: dict[str, Any],
        params: list[torch.Tensor],
        grads: list[torch.Tensor],
        alpha: float,
    ) -> None:
        """The damped official S-Adam step (Algorithm B l. 4) with foreach kernels."""
        lr, wd, eps = group["lr"], group["weight_decay"], group["eps"]
        b1, b2 = group["betas"]
        by_step: dict[int, list[int]] = {}
        for i, p in enumerate(params):
            state = self.state[p]
            if "step" not in state:
                state["step"] = 0
                state["exp_avg"] = torch.zeros_like(p)
                state["exp_avg_sq"] = torch.zeros_like(p)
            state["step"] += 1
            by_step.setdefault(state["step"], []).append(i)
        scratch = self._scratch(params)  # free once the probes have restored the params
        for t, idx in by_step.items():
            ps = [params[i] for i in idx]
            gs = [grads[i] for i in idx]
            ms = [self.state[p]["exp_avg"] for p in ps]
            vs = [self.state[p]["exp_avg_sq"] for p in ps]
            torch._foreach_mul_(ms, b1)
            torch._foreach_add_(ms, gs, alpha=1.0 - b1)
            torch._foreach_mul_(vs, b2)
            torch._foreach_addcmul_(vs, gs, gs, value=1.0 - b2)
            denom = [scratch[i] for i in idx]
            torch._foreach_copy_(denom, vs)
            torch._foreach_sqrt_(denom)
            torch._foreach_add_(denom, eps)
            ct = lr * math.sqrt(1.0 - b2**t) / (1.0 - b1**t)
            torch._foreach_mul_(ps, 1.0 - lr * wd)
            torch._foreach_addcdiv_(ps, ms, denom, value=-alpha * ct)


# ------------------------------------------------------------ factories under the reference names
def lion(
    params: ParamsT,
    *,
    learning_rate: float = _LION.learning_rate,
    b1: float = _LION.b1,
    b2: float = _LION.b2,
    weight_decay: float = _LION.weight_decay,
    clip_tau: float = _LION.clip_tau,
) -> Lion:
    """Torch counterpart of :func:`reference.optimizers.lion`: a :class:`Lion` on ``params``.

    Args:
        params: parameters or parameter groups.
        learning_rate: ``eta > 0``.
        b1: interpolation coefficient of the update direction, in ``[0, 1)``.
        b2: momentum coefficient, in ``[0, 1)``.
        weight_decay: ``lambda >= 0``.
        clip_tau: R1 per-tensor clipping level (``inf``: off).

    Returns:
        The optimizer.

    Raises:
        ValueError: invalid hyper-parameters.

    Example:
        >>> w = torch.nn.Parameter(torch.ones(2, dtype=torch.float64))
        >>> type(lion([w], learning_rate=0.1)).__name__
        'Lion'
    """
    return Lion(
        params, lr=learning_rate, betas=(b1, b2), weight_decay=weight_decay, clip_tau=clip_tau
    )


def muon(
    params: ParamsT,
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
) -> Muon:
    """Torch counterpart of :func:`reference.optimizers.muon`: a :class:`Muon` on ``params``.

    Args:
        params: 2-D parameters (rank > 2 with ``flatten=True``) or groups.
        learning_rate: ``eta > 0``.
        momentum: ``mu`` in ``[0, 1)``.
        nesterov: Nesterov-style look-ahead.
        ns_steps: Newton-Schulz iterations.
        weight_decay: ``lambda >= 0``.
        exact_polar: SVD polar factor instead of Newton-Schulz.
        coefficients: Newton-Schulz quintic ``(a, b, c)``.
        ns_eps: Newton-Schulz Frobenius guard.
        clip_tau: R1 per-tensor clipping level (``inf``: off).
        flatten: reshape rank > 2 tensors to ``(shape[0], -1)``.

    Returns:
        The optimizer.

    Raises:
        ValueError: invalid hyper-parameters; non-2-D parameters without ``flatten``.

    Example:
        >>> w = torch.nn.Parameter(torch.ones(2, 3, dtype=torch.float64))
        >>> type(muon([w], learning_rate=0.1)).__name__
        'Muon'
    """
    return Muon(
        params,
        lr=learning_rate,
        momentum=momentum,
        nesterov=nesterov,
        ns_steps=ns_steps,
        weight_decay=weight_decay,
        exact_polar=exact_polar,
        clip_tau=clip_tau,
        flatten=flatten,
        coefficients=coefficients,
        ns_eps=ns_eps,
    )


def sfw_vr(
    params: ParamsT,
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
) -> SFWVR:
    """Torch counterpart of :func:`reference.optimizers.sfw_vr`: an :class:`SFWVR` on ``params``.

    Args:
        params: parameters or groups (2-D tensors for ``which="spectral"``).
        which: ``"linf"``, ``"l2"``, ``"l1"`` or ``"spectral"``.
        radius: ``r > 0``.
        step_size: ``gamma`` in ``(0, 1]`` or ``None`` (schedule ``(t+1)^(-2/3)``).
        a: STORM weight in ``(0, 1]`` or ``None`` (schedule).
        clip_tau: ``> 0`` or ``inf``.
        clip: ``"per_gradient"`` or ``"estimator"``.
        shape_scaled: scale the spectral LMO by ``max(1, m/n)^(1/2)``.
        polar: ``"exact"`` or ``"newton_schulz"`` (spectral LMO).
        ns_steps: Newton-Schulz iterations.

    Returns:
        The optimizer (its ``step`` takes the closure described in :class:`SFWVR`).

    Raises:
        ValueError: invalid hyper-parameters.
    """
    return SFWVR(
        params,
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


def lion_vr(
    params: ParamsT,
    *,
    learning_rate: float = _LION_VR["learning_rate"],
    weight_decay: float = _LION_VR["weight_decay"],
    a: float | None = _LION_VR["a"],
    clip_tau: float = _LION_VR["clip_tau"],
    clip: Literal["per_gradient", "estimator"] = _LION_VR["clip"],
) -> LionVR:
    """Torch counterpart of :func:`reference.optimizers.lion_vr`: a :class:`LionVR` on ``params``.

    Args:
        params: parameters or groups.
        learning_rate: ``eta > 0``.
        weight_decay: ``lambda > 0`` with ``eta lambda <= 1``.
        a: STORM weight in ``(0, 1]`` or ``None`` (schedule).
        clip_tau: ``> 0`` or ``inf``.
        clip: ``"per_gradient"`` or ``"estimator"``.

    Returns:
        The optimizer (its ``step`` takes the closure described in :class:`SFWVR`).

    Raises:
        ValueError: invalid hyper-parameters.
    """
    return LionVR(
        params, lr=learning_rate, weight_decay=weight_decay, a=a, clip_tau=clip_tau, clip=clip
    )


def muon_vr(
    params: ParamsT,
    *,
    learning_rate: float = _MUON_VR["learning_rate"],
    weight_decay: float = _MUON_VR["weight_decay"],
    a: float | None = _MUON_VR["a"],
    clip_tau: float = _MUON_VR["clip_tau"],
    clip: Literal["per_gradient", "estimator"] = _MUON_VR["clip"],
    exact_polar: bool = _MUON_VR["exact_polar"],
    ns_steps: int = _MUON_VR["ns_steps"],
) -> MuonVR:
    """Torch counterpart of :func:`reference.optimizers.muon_vr`: a :class:`MuonVR` on ``params``.

    Args:
        params: 2-D parameters or groups.
        learning_rate: ``eta > 0``.
        weight_decay: ``lambda > 0`` with ``eta lambda <= 1``.
        a: STORM weight in ``(0, 1]`` or ``None`` (schedule).
        clip_tau: ``> 0`` or ``inf``.
        clip: ``"per_gradient"`` or ``"estimator"``.
        exact_polar: exact polar factor instead of Newton-Schulz.
        ns_steps: Newton-Schulz iterations.

    Returns:
        The optimizer (its ``step`` takes the closure described in :class:`SFWVR`).

    Raises:
        ValueError: invalid hyper-parameters; non-2-D parameters.
    """
    return MuonVR(
        params,
        lr=learning_rate,
        weight_decay=weight_decay,
        a=a,
        clip_tau=clip_tau,
        clip=clip,
        exact_polar=exact_polar,
        ns_steps=ns_steps,
    )


def s_adam(
    params: ParamsT,
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
    direction_rng: np.random.Generator | torch.Generator | None = None,
) -> SAdam:
    """Torch counterpart of :func:`reference.optimizers.s_adam`: an :class:`SAdam` on ``params``.

    The torch class implements the authors' final code only: ``variant="official"``,
    ``direction_mode="per_block"``, ``ddof=1`` (the reference's defaults); other values raise.

    Args:
        params: parameters or groups.
        learning_rate: ``eta >= 0``.
        b1: first-moment coefficient.
        b2: second-moment coefficient.
        eps: ``>= 0``, inside the root.
        weight_decay: ``>= 0`` (decoupled, undamped).
        k_directions: probes per step ``k >= 1``.
        sigma: probe radius ``> 0``.
        lgi_lambda: brake strength ``>= 0``.
        stabilize_eps: ``zeta >= 0``.
        lgi_cap: ``> 0``.
        variant: ``"official"`` only.
        direction_mode: ``"per_block"`` only.
        ddof: ``1`` only.
        direction_rng: generator of the probe directions (see :class:`SAdam`).

    Returns:
        The optimizer (its ``step`` takes the closure described in :class:`SAdam`).

    Raises:
        ValueError: invalid hyper-parameters, or a variant the torch class does not implement.
    """
    for name, value, supported in (
        ("variant", variant, _S_ADAM.variant),
        ("direction_mode", direction_mode, _S_ADAM.direction_mode),
        ("ddof", ddof, _S_ADAM.ddof),
    ):
        if value != supported:
            raise ValueError(f"{name}: the torch path implements {supported!r} only, got {value!r}")
    return SAdam(
        params,
        lr=learning_rate,
        betas=(b1, b2),
        eps=eps,
        weight_decay=weight_decay,
        k_directions=k_directions,
        sigma=sigma,
        lgi_lambda=lgi_lambda,
        stabilize_eps=stabilize_eps,
        lgi_cap=lgi_cap,
        direction_rng=direction_rng,
    )
