"""IAM's official code (heesung-k/IAM, ``optim/``) as the ``inconsistency`` protocols, from a
local checkout (source ``IAM``; see :mod:`benchmarks.outside._source`).

* :func:`iam_d_estimator` — ``IAM_D.step``'s inner ascent as ``inconsistency.estimator``: the
  start ``δ_0`` is the suite's ``ξ`` (``torch.randn_like`` answers ``ξ`` during the call), the
  base optimizer is SGD with ``lr = 0``; ``δ*`` is read from the optimizer state
  (``inner_delta``) and ``Ŝ`` is the returned ``β·KL`` with ``β = 1``.
* :func:`iam_de_step` — one ``IAM_DE.step`` as ``inconsistency.iam_de``: the stored state is
  the suite's ``δ``, the sign is the suite's (``torch.randint`` answers it), the closure
  returns the labeled loss and the logits of ``X_u`` (the KL batch), the base optimizer is
  ``torch.optim.SGD`` with the suite's ``learning_rate/momentum/weight_decay``; ``β, ρ`` from the config.
* :func:`sam_loss_perturbation` — ``SAMLoss`` / ``ASAMLoss`` (functional losses) as
  ``inconsistency.sam_perturbation``: a one-parameter model whose loss gradient at ``θ`` is the
  suite's ``g``; ``ε`` is read from the perturbed forward.  ``ASAMLoss`` has no ``η``: its
  ``0.01`` is fixed, so the suite's ``shift`` cannot be passed on.
* :class:`SAM` — the ``SAM`` optimizer class, for ``optimizers.sam``.

Models: :class:`reference.inconsistency.SoftmaxModel` as ``torch.nn.Linear`` (M1) or
``Linear-tanh-Linear`` (M2) in float64, the flat order ``[W, b]`` / ``[W1, b1, W2, b2]``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from benchmarks.outside._source import load_module
from reference import inconsistency as inc

__all__ = ["iam_d_estimator", "iam_de_step", "sam_loss_perturbation"]  # SAM: lazily


def _optim() -> Any:
    return load_module("IAM", "optim")


def _torch_model(model: inc.SoftmaxModel, theta: np.ndarray) -> Any:
    import torch

    d, c, h = model.n_inputs, model.n_classes, model.n_hidden
    if model.kind == "linear":
        net = torch.nn.Sequential(torch.nn.Linear(d, c))
    else:
        net = torch.nn.Sequential(torch.nn.Linear(d, h), torch.nn.Tanh(), torch.nn.Linear(h, c))
    net = net.double()
    _assign(net, theta)
    return net


def _assign(net: Any, flat: np.ndarray) -> None:
    import torch

    start = 0
    with torch.no_grad():
        for p in net.parameters():
            size = p.numel()
            p.copy_(torch.from_numpy(np.asarray(flat[start : start + size])).reshape(p.shape))
            start += size


def _pieces(net: Any, flat: np.ndarray) -> list[Any]:
    import torch

    out, start = [], 0
    for p in net.parameters():
        size = p.numel()
        out.append(torch.from_numpy(np.array(flat[start : start + size])).reshape(p.shape))
        start += size
    return out


def _flat(tensors: list[Any]) -> np.ndarray:
    return np.concatenate([t.detach().reshape(-1).numpy() for t in tensors])


@contextlib.contextmanager
def _answers(name: str, values: Iterator[Any]) -> Iterator[None]:
    """``torch.<name>`` answers the next of ``values`` while the block runs."""
    import torch

    original = getattr(torch, name)
    setattr(torch, name, lambda *a, **k: next(values))
    try:
        yield
    finally:
        setattr(torch, name, original)


def iam_d_estimator(
    model: inc.SoftmaxModel,
    theta: np.ndarray,
    inputs: np.ndarray,
    noise: np.ndarray,
    *,
    rho: float,
    steps: int,
    noise_scale: float,
) -> tuple[float, np.ndarray]:
    """``(Ŝ, δ*)`` of one ``IAM_D.step`` (``β = 1``, ``k_steps = steps``)."""
    import torch

    net = _torch_model(model, theta)
    x = torch.from_numpy(np.asarray(inputs, dtype=np.float64))
    opt = _optim().IAM_D(
        net.parameters(),
        torch.optim.SGD,
        beta=1.0,
        rho=rho,
        noise_scale=noise_scale,
        k_steps=steps,
        lr=0.0,
    )
    starts = iter(_pieces(net, np.asarray(noise, dtype=np.float64)))

    def closure() -> tuple[Any, Any]:
        logits = net(x)
        return logits.sum() * 0.0, logits

    with _answers("randn_like", starts):
        _, kl = opt.step(closure, net, x)
    delta = _flat([opt.state[p]["inner_delta"] for p in net.parameters()])
    return float(kl), delta


def iam_de_step(
    model: inc.SoftmaxModel,
    theta: np.ndarray,
    inputs: np.ndarray,
    targets: np.ndarray,
    unlabeled: np.ndarray,
    delta: np.ndarray,
    *,
    sign: int,
    config: inc.IAMDEConfig,
    optimizer: inc.SGDConfig,
) -> tuple[np.ndarray, np.ndarray]:
    """``(θ', δ')`` of one ``IAM_DE.step`` from the state ``δ`` and sign ``s``."""
    import torch

    net = _torch_model(model, theta)
    x = torch.from_numpy(np.asarray(inputs, dtype=np.float64))
    xu = torch.from_numpy(np.asarray(unlabeled, dtype=np.float64))
    y = torch.from_numpy(np.asarray(targets, dtype=np.float64))
    opt = _optim().IAM_DE(
        net.parameters(),
        torch.optim.SGD,
        beta=config.beta,
        rho=config.rho,
        noise_scale=config.noise_scale,
        lr=optimizer.learning_rate,
        momentum=optimizer.momentum,
        weight_decay=optimizer.weight_decay,
    )
    for p, piece in zip(net.parameters(), _pieces(net, np.asarray(delta)), strict=True):
        opt.state[p]["delta"] = piece.clone()

    def closure() -> tuple[Any, Any]:
        loss = torch.nn.functional.cross_entropy(net(x), y)
        return loss, net(xu)

    coin = iter([torch.tensor(0 if sign < 0 else 1)])
    with _answers("randint", coin):
        opt.step(closure, net, xu)
    new = _flat(list(net.parameters()))
    nxt = _flat([opt.state[p]["delta"] for p in net.parameters()])
    return new, nxt


class _Holder:
    """A module whose output is its one parameter, and a loss ``<output, g>``."""

    def __init__(self, theta: np.ndarray, gradient: np.ndarray) -> None:
        import torch

        self.param = torch.nn.Parameter(torch.from_numpy(np.array(theta, dtype=np.float64)))
        self.g = torch.from_numpy(np.array(gradient, dtype=np.float64))
        self.seen: list[np.ndarray] = []
        holder = self

        class Net(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.theta = holder.param

            def forward(self, image: Any) -> Any:
                return self.theta * 1.0

        self.net = Net()

    def criterion(self, pred: Any, label: Any) -> Any:
        self.seen.append(pred.detach().numpy().copy())
        return (pred * self.g).sum()


def sam_loss_perturbation(
    theta: np.ndarray, gradient: np.ndarray, *, rho: float, adaptive: bool, shift: float
) -> np.ndarray:
    """``ε`` applied by ``SAMLoss`` (``adaptive=False``) or ``ASAMLoss`` (``adaptive=True``).

    ``shift`` is not passed on: ``ASAMLoss`` fixes its own 0.01.
    """
    import torch

    holder = _Holder(theta, gradient)
    sgd = torch.optim.SGD(holder.net.parameters(), lr=0.0)
    loss = _optim().ASAMLoss if adaptive else _optim().SAMLoss
    loss(holder.net, torch.zeros(1), None, holder.criterion, sgd, rho)
    first, perturbed = holder.seen[0], holder.seen[1]
    out: np.ndarray = perturbed - first
    return out


def __getattr__(name: str) -> Any:
    """``SAM``: the checkout's ``optim.SAM`` class itself (so crosscheck sees a torch optimizer)."""
    if name == "SAM":
        return _optim().SAM
    raise AttributeError(name)
