"""Official optimizer code from local checkouts (issue 35), for the ``optimizers.*`` suites:
Lion (google/automl ``lion/lion_pytorch.py``, source ``automl``), Muon (KellerJordan/Muon
``muon.py``, source ``Muon``) and S-Adam (RuoranXu/S-Adam, the file ``s_adam``, source
``S-Adam``).  Each class name resolves, on first use, to the repository's own class; nothing
of it is copied here (see :mod:`benchmarks.outside._source`).

:func:`s_adam` is a factory for ``optimizers.s_adam``: ``SAdam.step`` requires a closure
``closure(backward=...)`` (it probes the loss at perturbed points), which a plain torch
target never gets; the factory's ``update(grads, state, params, *, loss, rng)`` builds one
from the suite's loss (``backward=True`` also sets ``.grad`` to the suite's gradient) and
seeds torch's generator from ``rng``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch  # crosscheck recognises the class targets as torch optimizers

from benchmarks.outside._source import load_file

__all__ = ["s_adam"]  # Lion, SingleDeviceMuon, SAdam resolve lazily (module __getattr__)

_FILES = {
    "Lion": ("automl", "lion/lion_pytorch.py", "_official_lion_pytorch"),
    "SingleDeviceMuon": ("Muon", "muon.py", "_official_muon"),
    "SAdam": ("S-Adam", "s_adam", "_official_s_adam"),
}


def __getattr__(name: str) -> Any:
    """The class ``name`` of its checkout (``ModuleNotFoundError`` without one)."""
    if name not in _FILES:
        raise AttributeError(name)
    source, relative, module = _FILES[name]
    return getattr(load_file(source, relative, module), name)


class _SAdamPair:
    """``(init, update)`` driving ``SAdam`` on one float64 parameter array."""

    def __init__(self, hyper: dict[str, Any]) -> None:
        self.hyper = hyper

    def init(self, params: Any) -> dict[str, Any]:
        tensor = torch.nn.Parameter(torch.from_numpy(np.array(params, dtype=np.float64)))
        cls = __getattr__("SAdam")
        return {"tensor": tensor, "optimizer": cls([tensor], **self.hyper)}

    def update(
        self,
        grads: Any,
        state: dict[str, Any],
        params: Any,
        *,
        loss: Any,
        rng: np.random.Generator,
    ) -> tuple[Any, dict[str, Any]]:
        tensor = state["tensor"]
        with torch.no_grad():
            tensor.copy_(torch.from_numpy(np.array(params, dtype=np.float64)))
        gradient = torch.from_numpy(np.array(grads, dtype=np.float64))

        def closure(backward: bool = True) -> Any:
            if backward:
                tensor.grad = gradient.clone()
            return torch.tensor(float(loss(tensor.detach().numpy().copy())))

        torch.manual_seed(int(rng.integers(2**31)))
        state["optimizer"].step(closure)
        updates = tensor.detach().numpy().copy() - np.asarray(params, dtype=np.float64)
        return updates, state


def s_adam(
    learning_rate: float = 1e-3,
    weight_decay: float = 1e-2,
    eps: float = 1e-8,
    lgi_lambda: float = 2.0,
    b1: float = 0.9,
    b2: float = 0.999,
    **rest: Any,
) -> _SAdamPair:
    """``SAdam(lr=learning_rate, betas=(b1, b2), eps=, weight_decay=, lgi_lambda=, **rest)``."""
    hyper = dict(
        lr=learning_rate,
        betas=(b1, b2),
        eps=eps,
        weight_decay=weight_decay,
        lgi_lambda=lgi_lambda,
        **rest,
    )
    return _SAdamPair(hyper)
