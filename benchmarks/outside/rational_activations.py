"""Adapters for the ``rational_activations`` package (the activation of spec 16's experiments).

The paper's scripts use ``rational.torch.Rational`` with its defaults, version A, degrees (5, 4)
(spec 16 §8.1).  The package pins an old torch, so it is installed with ``pip install --no-deps
rational_activations`` (0.2.0 measured); these adapters call its own elementwise functions
directly, in the ``(x, p, q) -> sigma(x)`` form of the ``activations.rational`` (version A) and
``activations.rational_b`` (version B) suites:

* ``numpy_version_a`` / ``numpy_version_b``: ``rational.numpy.rationals.Rational_version_A/B``
  (``x`` as a float64 array, coefficients as given);
* ``torch_version_a`` / ``torch_version_b``: ``rational.torch.rational_pytorch_functions.
  Rational_PYTORCH_A_F/B_F`` on float64 CPU tensors (``training=False``), the autograd path the
  experiments train with.

No conversion of the coefficients is needed: the package stores ``p = a_0..a_m`` and
``q = b_1..b_n`` in ascending powers, as the suites do.  The torch functions assume the
package's own shapes (numerator degree ``m >= n`` and ``m >= 1``; its configurations are all
(5, 4)): with fewer numerator coefficients they raise (``torch.zeros`` of a negative size) or
broadcast the power table wrongly.  ``torch_version_a_padded`` / ``torch_version_b_padded``
append zero numerator coefficients up to ``max(n, 1)``, which leaves ``P`` unchanged, so the
suite checks the formula rather than that precondition.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from benchmarks.outside._load import load

__all__ = [
    "numpy_version_a",
    "numpy_version_b",
    "torch_version_a",
    "torch_version_a_padded",
    "torch_version_b",
    "torch_version_b_padded",
]


def _numpy(name: str, x: Any, p: Any, q: Any) -> Any:
    fn = getattr(load("rational.numpy.rationals"), name)
    return fn(np.asarray(x, dtype=np.float64), np.asarray(p), np.asarray(q))


def _torch(name: str, x: Any, p: Any, q: Any) -> Any:
    fn = getattr(load("rational.torch.rational_pytorch_functions"), name)
    as_t = [torch.as_tensor(np.asarray(v, dtype=np.float64)) for v in (x, p, q)]
    with torch.no_grad():
        return fn(*as_t, False).numpy()


def numpy_version_a(x: Any, p: Any, q: Any) -> Any:
    """``rational.numpy.rationals.Rational_version_A(x, p, q)``."""
    return _numpy("Rational_version_A", x, p, q)


def numpy_version_b(x: Any, p: Any, q: Any) -> Any:
    """``rational.numpy.rationals.Rational_version_B(x, p, q)``."""
    return _numpy("Rational_version_B", x, p, q)


def torch_version_a(x: Any, p: Any, q: Any) -> Any:
    """``Rational_PYTORCH_A_F(x, p, q, training=False)`` on float64 CPU tensors."""
    return _torch("Rational_PYTORCH_A_F", x, p, q)


def torch_version_b(x: Any, p: Any, q: Any) -> Any:
    """``Rational_PYTORCH_B_F(x, p, q, training=False)`` on float64 CPU tensors."""
    return _torch("Rational_PYTORCH_B_F", x, p, q)


def _pad(p: Any, q: Any) -> Any:
    a = np.asarray(p, dtype=np.float64)
    need = max(np.asarray(q).size, 1) + 1 - a.size
    return np.concatenate([a, np.zeros(max(need, 0))])


def torch_version_a_padded(x: Any, p: Any, q: Any) -> Any:
    """:func:`torch_version_a` with ``p`` zero-padded to ``max(n, 1) + 1`` coefficients."""
    return _torch("Rational_PYTORCH_A_F", x, _pad(p, q), q)


def torch_version_b_padded(x: Any, p: Any, q: Any) -> Any:
    """:func:`torch_version_b` with ``p`` zero-padded to ``max(n, 1) + 1`` coefficients."""
    return _torch("Rational_PYTORCH_B_F", x, _pad(p, q), q)
