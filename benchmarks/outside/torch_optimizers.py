"""Factories for torch optimizers whose constructors need more than ``(params, **hyper)``.

``pytorch_optimizer.Muon`` advertises ``params: Iterable[Tensor]`` but raises a RuntimeError
from ``Tensor.__contains__`` when given a plain list of tensors (measured with 4.1.0): it
looks for a ``use_muon`` key in every entry.  The factory passes one parameter group with
``use_muon=True``, so the suite checks the algorithm rather than that constructor defect.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import torch  # noqa: F401  (imported so that crosscheck recognises the factory as a torch target)

from benchmarks.outside._load import load

__all__ = ["pytorch_optimizer_muon"]


def pytorch_optimizer_muon(
    params: Iterable[Any], lr: float = 0.02, weight_decay: float = 0.0, momentum: float = 0.95
) -> Any:
    """``pytorch_optimizer.Muon([{"params": params, "use_muon": True}], ...)``."""
    muon = load("pytorch_optimizer").Muon
    group = {"params": list(params), "use_muon": True}
    return muon([group], lr=lr, weight_decay=weight_decay, momentum=momentum)
