"""PyTorch fast path: a trainable safe rational activation, drop-in for ``nn.ReLU``.

:func:`rational` is :func:`reference.activations.rational` (versions A, B, C) in torch; the
module :class:`Rational` uses version B:
``σ(x) = P(x) / (1 + |x Q_b(x)|)`` with trainable ``a`` (numerator, ``m + 1`` entries) and
``b`` (denominator ``b_1..b_n``).  Gradients come from autograd; they agree with the closed
forms of :func:`reference.activations.rational_grad` (tested in float64 on CPU, and on CUDA
when present).  float64 is the default dtype; pass ``dtype=torch.float32`` inside float32
models.

References:
    M. Tang, A. Townsend, "Rational Neural Networks have Expressivity Advantages", ICML 2026,
    arXiv:2602.12390, App. D (safe rational "version B"); Boullé, Nakatsukasa, Townsend,
    NeurIPS 2020 (one rational per layer, shared by all units; the (3,2) ReLU init).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import Tensor, nn

from reference._arrays import as_float_array, require_int
from reference.activations.rational import VERSIONS, Version, fit_rational, relu_init

__all__ = ["Rational", "rational"]

_INITS = ("relu", "gelu", "tanh", "abs")


def _horner(coeffs: Tensor, x: Tensor) -> Tensor:
    """``Σ_i coeffs[..., i] x^i`` where ``coeffs`` has shape ``batch + (k,)`` broadcastable to x."""
    out = torch.zeros_like(x) + coeffs[..., -1]
    for i in range(coeffs.shape[-1] - 2, -1, -1):
        out = out * x + coeffs[..., i]
    return out


def rational(x: Tensor, p: Tensor, q: Tensor, *, version: Version = "B") -> Tensor:
    """Evaluate a safe rational activation elementwise, with broadcastable coefficients.

    The torch counterpart of :func:`reference.activations.rational` (same versions):
    B (default) ``P(x) / (1 + |x Q_b(x)|)``, A ``P(x) / (1 + Σ_j |b_j| |x|^j)``,
    C ``P(x) / (0.1 + |Σ_{j=0}^n b_j x^j|)``.  Differentiable by autograd.

    Args:
        x: input tensor, any shape.
        p: ``(..., m + 1)`` numerator coefficients; leading dims broadcast against ``x``.
        q: ``(..., n)`` denominator coefficients ``b_1..b_n`` (versions A, B; ``n`` may be
            0) or ``(..., n + 1)`` coefficients ``b_0..b_n`` (version C).
        version: ``"A"``, ``"B"`` or ``"C"``.

    Returns:
        Tensor of the broadcast shape, dtype and device of ``x``.

    Raises:
        ValueError: ``p`` (or, for version C, ``q``) has no coefficient axis or an empty one;
            unknown ``version``.

    Example:
        >>> x = torch.tensor([0.5], dtype=torch.float64)
        >>> rational(x, torch.tensor([0.0, 1.0]).double(), torch.tensor([0.0, 1.0]).double())
        tensor([0.4000], dtype=torch.float64)
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
    """Trainable safe type-(m, n) rational activation (version B), shared or per channel.

    ``σ(x) = (a_0 + a_1 x + ... + a_m x^m) / (1 + |b_1 x + ... + b_n x^n|)``.  The default
    **(our default, following the 2020 paper)** is one rational of type (3, 2) per layer,
    shared by all units, initialised at the (3,2) ReLU approximant; ``channels=C`` gives each of
    ``C`` channels (axis ``channel_dim`` of the input) its own coefficients.

    Args:
        degrees: ``(m, n)``, ``m >= 0``, ``n >= 0``.
        init: ``"relu"`` (published (3,2) init; other degrees are fitted), ``"gelu"``,
            ``"tanh"``, ``"abs"`` (least-squares fits, spec R2), or a pair ``(p, q)`` of
            coefficient arrays of lengths ``m + 1`` and ``n``.
        channels: ``None`` for shared coefficients, else the number of channels ``>= 1``.
        channel_dim: the input axis indexing channels (default 1, as in ``(N, C, ...)``).
        device: torch device of the parameters.
        dtype: parameter dtype (default ``torch.float64``).

    Raises:
        ValueError: negative degrees, unknown ``init``, coefficient lengths not ``(m + 1, n)``,
            non-finite coefficients, ``channels < 1``.

    Example:
        >>> act = Rational()
        >>> act(torch.tensor([-1.0, 1.0], dtype=torch.float64)).shape
        torch.Size([2])
    """

    def __init__(
        self,
        degrees: tuple[int, int] = (3, 2),
        *,
        init: str | tuple[object, object] = "relu",
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
        if isinstance(init, str):
            if init not in _INITS:
                raise ValueError(f"init: expected one of {_INITS} or a pair (p, q), got {init!r}")
            if init == "relu" and (m, n) == (3, 2):
                p0, q0 = relu_init()
            else:
                fit = fit_rational(init, degrees=(m, n))
                p0, q0 = np.array(fit.p), np.array(fit.q)
        else:
            if not (isinstance(init, tuple) and len(init) == 2):
                raise TypeError(f"init: expected a name or a pair (p, q), got {init!r}")
            p0 = as_float_array("init p", init[0], shape=(m + 1,))
            q0 = as_float_array("init q", init[1], shape=(n,), min_size=0)
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
        return rational(x, self._shaped(self.numerator, x), self._shaped(self.denominator, x))

    def extra_repr(self) -> str:
        """Degrees and channel mode for ``print(model)``."""
        mode = "shared" if self.channels is None else f"channels={self.channels}"
        return f"degrees={self.degrees}, {mode}, version=B"
