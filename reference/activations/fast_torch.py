"""PyTorch fast path: a trainable safe rational activation, drop-in for ``nn.ReLU``.

:func:`rational` is :func:`reference.activations.rational` (versions A, B, C) in torch; the
module :class:`Rational` defaults to what the paper's experiments ran (spec 16 §8.1): version A,
``σ(x) = P(x) / (1 + Σ_j |b_j| |x|^j)``, degrees (5, 4), the ``leaky_relu`` shape, with
trainable ``a`` (numerator, ``m + 1`` entries) and ``b`` (denominator, ``n`` entries).
Gradients come from autograd; they agree with the closed forms of
:func:`reference.activations.rational_grad` (tested in float64 on CPU, and on CUDA when
present).  float64 is the default dtype; pass ``dtype=torch.float32`` inside float32
models.

References:
    M. Tang, A. Townsend, "Rational Neural Networks have Expressivity Advantages", ICML 2026,
    arXiv:2602.12390: the experiments use ``rational.torch.Rational`` of the
    ``rational_activations`` package with its defaults, version A, degrees (5, 4) (the first
    author's scripts, spec 16 §8.1); Boullé, Nakatsukasa, Townsend, NeurIPS 2020 (one rational
    per layer, shared by all units; the (3,2) ReLU init, a declared variant here).
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from reference._arrays import as_float_array, require_int
from reference.activations.rational import (
    DEFAULT_DEGREES,
    DEFAULT_VERSION,
    INITS,
    VERSIONS,
    Version,
    rational_init,
)

__all__ = ["Rational", "rational"]


def _horner(coeffs: Tensor, x: Tensor) -> Tensor:
    """``Σ_i coeffs[..., i] x^i`` where ``coeffs`` has shape ``batch + (k,)`` broadcastable to x."""
    out = torch.zeros_like(x) + coeffs[..., -1]
    for i in range(coeffs.shape[-1] - 2, -1, -1):
        out = out * x + coeffs[..., i]
    return out


def rational(x: Tensor, p: Tensor, q: Tensor, *, version: Version = DEFAULT_VERSION) -> Tensor:
    """Evaluate a safe rational activation elementwise, with broadcastable coefficients.

    The torch counterpart of :func:`reference.activations.rational` (same versions):
    A (default) ``P(x) / (1 + Σ_j |b_j| |x|^j)``, B ``P(x) / (1 + |x Q_b(x)|)``,
    C ``P(x) / (0.1 + |Σ_{j=0}^{n-1} b_j x^j|)``.  Differentiable by autograd.

    Args:
        x: input tensor, any shape.
        p: ``(..., m + 1)`` numerator coefficients; leading dims broadcast against ``x``.
        q: ``(..., n)`` denominator coefficients ``b_1..b_n`` (versions A, B; ``n`` may be
            0) or ``b_0..b_{n-1}`` (version C, ``n >= 1``).
        version: ``"A"``, ``"B"`` or ``"C"``.

    Returns:
        Tensor of the broadcast shape, dtype and device of ``x``.

    Raises:
        ValueError: ``p`` (or, for version C, ``q``) has no coefficient axis or an empty one;
            unknown ``version``.

    Example:
        >>> x = torch.tensor([0.5], dtype=torch.float64)
        >>> p, q = torch.tensor([0.0, 1.0]).double(), torch.tensor([1.0, -1.0]).double()
        >>> rational(x, p, q, version="B")  # x / (1 + |x - x^2|)
        tensor([0.4000], dtype=torch.float64)
        >>> rational(x, p, q)  # version A: x / (1 + |x| + |x|^2)
        tensor([0.2857], dtype=torch.float64)
    """
    if version not in VERSIONS:
        raise ValueError(f"version: expected one of {VERSIONS}, got {version!r}")
    if p.ndim < 1 or p.shape[-1] < 1:
        raise ValueError(f"p: expected a coefficient axis of length >= 1, got shape {p.shape}")
    if version == "C" and (q.ndim < 1 or q.shape[-1] < 1):
        raise ValueError(f"q: expected b_0..b_n (length >= 1) for version C, got {q.shape}")
    num = _horner(p, x)
    if version == "C":
        return num / (0.1 + _horner(q, x).abs())
    if q.shape[-1] == 0:
        return num
    if version == "A":
        return num / (1.0 + x.abs() * _horner(q.abs(), x.abs()))
    return num / (1.0 + (x * _horner(q, x)).abs())


class Rational(nn.Module):
    """Trainable safe type-(m, n) rational activation, shared or per channel.

    Default (the paper's experiments, spec 16 §8.1): version A, degrees (5, 4), ``leaky_relu``
    shape, ``σ(x) = (a_0 + ... + a_5 x^5) / (1 + |b_1| |x| + ... + |b_4| |x|^4)``; one rational
    per module, shared by all units (as ``rational.torch.Rational``).  ``channels=C`` gives each
    of ``C`` channels (axis ``channel_dim`` of the input) its own coefficients.  Declared
    variants: ``version="B"`` / ``"C"``, and ``Rational((3, 2), init="relu", version="B")``, the
    2020 predecessor's (3,2) ReLU-initialised activation.

    Args:
        degrees: ``(m, n)``, ``m >= 0``, ``n >= 0`` (default (5, 4)).
        init: a name of :data:`reference.activations.INITS` (``"leaky_relu"`` default,
            ``"gelu"``, ``"swish"``, ``"relu"``, ``"tanh"``, ``"abs"``; our least-squares fits
            on ``[-3, 3]`` by :func:`reference.activations.rational_init`, the published
            (3,2) init for ``"relu"`` at degrees (3, 2)), or a pair ``(p, q)`` of coefficient
            arrays of lengths ``m + 1`` and ``n``.
        version: ``"A"`` (default), ``"B"`` or ``"C"`` (version C takes a pair ``(p, q)``
            with ``n`` coefficients ``b_0..b_{n-1}``).
        channels: ``None`` for shared coefficients, else the number of channels ``>= 1``.
        channel_dim: the input axis indexing channels (default 1, as in ``(N, C, ...)``).
        device: torch device of the parameters.
        dtype: parameter dtype (default ``torch.float64``).

    Raises:
        ValueError: negative degrees, unknown ``init`` or ``version``, a named init with
            version C, coefficient lengths not ``(m + 1, n)``, non-finite coefficients,
            ``channels < 1``.

    Example:
        >>> act = Rational()
        >>> act(torch.tensor([-1.0, 1.0], dtype=torch.float64)).shape
        torch.Size([2])
        >>> act.degrees, act.version
        ((5, 4), 'A')
    """

    def __init__(
        self,
        degrees: tuple[int, int] = DEFAULT_DEGREES,
        *,
        init: str | tuple[object, object] = "leaky_relu",
        version: Version = DEFAULT_VERSION,
        channels: int | None = None,
        channel_dim: int = 1,
        device: torch.device | str | None = None,
        dtype: torch.dtype = torch.float64,
    ) -> None:
        super().__init__()
        if not (isinstance(degrees, tuple) and len(degrees) == 2):
            raise TypeError(f"degrees: expected a pair (m, n), got {degrees!r}")
        m = require_int("degrees[0]", degrees[0], minimum=0)
        n = require_int("degrees[1]", degrees[1], minimum=0)
        if version not in VERSIONS:
            raise ValueError(f"version: expected one of {VERSIONS}, got {version!r}")
        if isinstance(init, str):
            if init not in INITS:
                raise ValueError(f"init: expected one of {INITS} or a pair (p, q), got {init!r}")
            if version == "C":
                raise ValueError("init: version C takes a pair (p, q), not a named shape")
            p0, q0 = rational_init(init, degrees=(m, n), version=version)
        else:
            if not (isinstance(init, tuple) and len(init) == 2):
                raise TypeError(f"init: expected a name or a pair (p, q), got {init!r}")
            p0 = as_float_array("init p", init[0], shape=(m + 1,))
            q0 = as_float_array("init q", init[1], shape=(n,), min_size=0 if version != "C" else 1)
        self.version: Version = version
        self.degrees = (m, n)
        self.channel_dim = int(channel_dim)
        self.channels = None if channels is None else require_int("channels", channels, minimum=1)
        p_t = torch.as_tensor(p0, dtype=dtype, device=device)
        q_t = torch.as_tensor(q0, dtype=dtype, device=device)
        if self.channels is not None:
            p_t = p_t.expand(self.channels, m + 1).clone()
            q_t = q_t.expand(self.channels, n).clone()
        self.numerator = nn.Parameter(p_t)
        self.denominator = nn.Parameter(q_t)

    def _shaped(self, coeffs: Tensor, x: Tensor) -> Tensor:
        if self.channels is None:
            return coeffs
        dim = self.channel_dim % x.ndim
        if x.shape[dim] != self.channels:
            raise ValueError(
                f"x: expected {self.channels} channels on axis {dim}, got shape {tuple(x.shape)}"
            )
        trailing = x.ndim - dim - 1
        return coeffs.reshape(self.channels, *([1] * trailing), coeffs.shape[-1])

    def forward(self, x: Tensor) -> Tensor:
        """Apply the activation elementwise (per channel when ``channels`` is set)."""
        return rational(
            x,
            self._shaped(self.numerator, x),
            self._shaped(self.denominator, x),
            version=self.version,
        )

    def extra_repr(self) -> str:
        """Degrees and channel mode for ``print(model)``."""
        mode = "shared" if self.channels is None else f"channels={self.channels}"
        return f"degrees={self.degrees}, {mode}, version={self.version}"
