"""The ``rational_activations`` package (ml-research/rational_activations, the package spec
16's authors' experiments use) as ``activations.rational``, from a local checkout (source
``rational_activations``; see :mod:`benchmarks.outside._source`).

``rational.torch.Rational(version="B", cuda=False)`` is built once and its ``numerator`` and
``denominator`` parameters are replaced by the suite's ``p`` and ``q`` (float64) before each
evaluation: version B is ``P(x) / (1 + |b_1 x + ... + b_n x^n|)``, the suite's safe rational.
The authors' experiments use version A (``1 + Σ |b_j| |x|^j``), a different activation that
this suite does not declare.  Needs ``torch`` and ``tqdm`` (the package's own import).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from benchmarks.outside._source import load_module

__all__ = ["rational_b"]

_LAYER: list[Any] = []


def rational_b(x: Any, p: Any, q: Any) -> np.ndarray:
    """``Rational(version="B")`` with numerator ``p`` and denominator ``q`` at ``x``."""
    import torch

    if not _LAYER:
        module = load_module("rational_activations", "rational.torch")
        _LAYER.append(module.Rational(version="B", cuda=False, trainable=False))
    layer = _LAYER[0]
    layer.numerator = torch.nn.Parameter(torch.tensor(np.asarray(p, dtype=np.float64)))
    layer.denominator = torch.nn.Parameter(torch.tensor(np.asarray(q, dtype=np.float64)))
    with torch.no_grad():
        out = layer(torch.tensor(np.asarray(x, dtype=np.float64)))
    result: np.ndarray = out.detach().numpy()
    return result
