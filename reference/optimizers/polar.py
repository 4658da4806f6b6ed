"""Orthogonal polar factors: Muon's Newton-Schulz quintic and the exact SVD polar factor.

For a real ``(m, n)`` matrix ``G`` with thin SVD ``G = U diag(sigma) V^T`` and rank
``k``, the orthogonal polar factor is ``U_k V_k^T`` (the singular values that are
non-zero replaced by one).  It is the linear minimisation oracle of the
spectral-norm ball up to sign and radius (spec 14, section 2) and the direction
of a Muon step (spec 14, section 3.2).

* :func:`newton_schulz` — Muon's quintic Newton-Schulz iteration ("NS5"), which
  approximates the polar factor with matrix products only.  It applies the odd
  polynomial ``phi(x) = a x + b x^3 + c x^5`` ``steps`` times to every singular
  value of ``G / (||G||_F + eps)``; with the tuned coefficients the output's
  singular values lie in a band around 1, not exactly at 1 (``phi(1) = 0.701``).
* :func:`polar` — the exact factor ``U_k V_k^T`` from an SVD (Muon's
  ``exact_polar=True`` variant in this library).
* :func:`ns_scalar_map` — the scalar map ``phi^(steps)`` that :func:`newton_schulz`
  applies to each normalised singular value (the spectral identity of spec 14,
  section 5), for oracles and diagnostics.

References:
    K. Jordan et al., "Muon: An optimizer for hidden layers in neural networks" (2024),
    reference code ``KellerJordan/Muon``, ``muon.py``, ``zeropower_via_newtonschulz5``;
    M.-E. Sfyraki and J.-K. Wang, "Lions and Muons: Optimization via Stochastic
    Frank-Wolfe", ICML 2026, arXiv:2506.04192 (spec 14, sections 3.2 and 5).
"""

from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import (
    FloatArray,
    as_float_array,
    describe,
    require_int,
    require_positive,
)

__all__ = [
    "NS_COEFFICIENTS",
    "NS_EPS",
    "NS_STEPS",
    "newton_schulz",
    "ns_scalar_map",
    "polar",
]

NS_COEFFICIENTS: tuple[float, float, float] = (3.4445, -4.7750, 2.0315)
"""Muon's quintic coefficients ``(a, b, c)`` [paper / reference code, spec 14 section 3.2]."""

NS_STEPS: int = 5
"""Muon's default number of Newton-Schulz iterations ``ns_steps`` (spec 14 section 3.2)."""

NS_EPS: float = 1e-7
"""Muon's guard ``eps`` in ``G / (||G||_F + eps)`` (``ns_eps``; reference code, spec 14 section 3.2)."""


def _coefficients(value: object) -> tuple[float, float, float]:
    if isinstance(value, str | bytes) or not isinstance(value, tuple | list):
        raise TypeError(
            f"coefficients: expected a tuple (a, b, c) of three real numbers, got {describe(value)}"
        )
    if len(value) != 3:
        raise ValueError(
            f"coefficients: expected a tuple (a, b, c) of three real numbers, got length {len(value)}"
        )
    out: list[float] = []
    for name, item in zip(("a", "b", "c"), value, strict=True):
        if isinstance(item, bool | np.bool_) or not isinstance(item, numbers.Real):
            raise TypeError(
                f"coefficients: expected {name} to be a real number, got {describe(item)}"
            )
        number = float(item)
        if not np.isfinite(number):
            raise ValueError(f"coefficients: expected {name} to be finite, got {number!r}")
        out.append(number)
    return out[0], out[1], out[2]


def ns_scalar_map(
    x: ArrayLike,
    *,
    steps: int = NS_STEPS,
    coefficients: tuple[float, float, float] = NS_COEFFICIENTS,
) -> FloatArray:
    """Apply ``phi`` ``steps`` times entrywise, ``phi(x) = a x + b x^3 + c x^5``.

    This is what :func:`newton_schulz` does to each singular value of the
    Frobenius-normalised input (spec 14, section 5, "NS5 spectral identity").

    Args:
        x: array-like of finite reals, any shape (a scalar is a 0-D array).
        steps: number of compositions ``>= 1`` (``ns_steps``).
        coefficients: ``(a, b, c)``.

    Returns:
        float64 array of the shape of ``x``.

    Raises:
        TypeError: non-numeric ``x`` or coefficients, non-integer ``steps``.
        ValueError: non-finite ``x`` or coefficients, ``steps < 1``.

    Example:
        >>> round(float(ns_scalar_map(1.0, steps=1)), 4)  # phi(1) = a + b + c
        0.701
    """
    values = as_float_array("x", x, min_size=0)
    n_steps = require_int("steps", steps, minimum=1)
    a, b, c = _coefficients(coefficients)
    for _ in range(n_steps):
        sq = values * values
        values = values * (a + sq * (b + c * sq))
    return values


def newton_schulz(
    matrix: ArrayLike,
    *,
    steps: int = NS_STEPS,
    coefficients: tuple[float, float, float] = NS_COEFFICIENTS,
    eps: float = NS_EPS,
) -> FloatArray:
    """Muon's quintic Newton-Schulz iteration (NS5) in float64.

    With ``X_0 = G / (||G||_F + eps)`` (transposed first when ``m > n`` so that
    ``X X^T`` is the smaller Gram matrix), iterate ``steps`` times::

        A = X X^T;   B = b A + c A A;   X <- a X + B X,

    and transpose back.  Equivalently (spectral identity, spec 14 section 5)
    ``NS5(G) = P diag(phi^(steps)(sigma_i / (||G||_F + eps))) Q^T`` for the SVD
    ``G = P diag(sigma) Q^T`` and ``phi(x) = a x + b x^3 + c x^5``; zero singular
    values stay zero, ``NS5(G^T) = NS5(G)^T`` and positive scaling of ``G`` leaves
    the result unchanged up to the ``eps`` guard.

    Symbols -> arguments: ``G`` = ``matrix``, ``(a, b, c)`` = ``coefficients``,
    ``ns_steps`` = ``steps``, the guard = ``eps``.

    Variant: float64 throughout (the reference code runs in bfloat16); the defaults are the
    reference code's, :data:`NS_COEFFICIENTS`, :data:`NS_STEPS` and :data:`NS_EPS`
    [spec 14 section 3.2].

    Args:
        matrix: ``(m, n)`` finite real matrix, ``m, n >= 1``.
        steps: number of iterations ``>= 1``.
        coefficients: ``(a, b, c)`` of the quintic.
        eps: non-negative guard added to the Frobenius norm (a zero matrix maps to zero).

    Returns:
        ``(m, n)`` float64 approximation of the orthogonal polar factor.

    Raises:
        TypeError: non-numeric input, non-integer ``steps``.
        ValueError: ``matrix`` not 2-D, empty or non-finite; ``steps < 1``; ``eps < 0``;
            non-finite coefficients.

    Example:
        >>> out = newton_schulz([[3.0, 0.0], [0.0, 0.5]])
        >>> bool(np.all((np.linalg.svd(out, compute_uv=False) > 0.6)))
        True
        >>> float(newton_schulz([[0.0, 0.0]])[0, 0])
        0.0

    References:
        KellerJordan/Muon ``muon.py`` ``zeropower_via_newtonschulz5``; spec 14 sections 3.2, 5.
    """
    x = as_float_array("matrix", matrix, ndim=2)
    n_steps = require_int("steps", steps, minimum=1)
    a, b, c = _coefficients(coefficients)
    guard = require_positive("eps", eps, allow_zero=True)
    transposed = x.shape[0] > x.shape[1]
    if transposed:
        x = x.T
    scale = float(np.linalg.norm(x)) + guard
    if scale == 0.0:
        out = np.zeros_like(x)
        return np.ascontiguousarray(out.T if transposed else out)
    x = x / scale
    for _ in range(n_steps):
        gram = x @ x.T
        poly = b * gram + c * (gram @ gram)
        x = a * x + poly @ x
    return np.ascontiguousarray(x.T if transposed else x)


def polar(matrix: ArrayLike, *, rtol: float | None = None) -> FloatArray:
    """Exact orthogonal polar factor ``U_k V_k^T`` from a thin SVD.

    With ``G = U diag(sigma) V^T`` and ``k`` the number of singular values
    ``> rtol * sigma_max``, returns ``O = U_k V_k^T``.  It satisfies
    ``O O^T O = O``, ``||O||_2 = 1`` (if ``G != 0``) and ``<G, O> = ||G||_nuclear``;
    ``-r O`` is the LMO of the spectral-norm ball of radius ``r`` at ``G``
    (spec 14, sections 2 and 5).  For full-rank square ``G`` it equals the ``U``
    factor of ``scipy.linalg.polar``.  The zero matrix maps to zero.

    Symbols -> arguments: ``G`` = ``matrix``.

    Args:
        matrix: ``(m, n)`` finite real matrix, ``m, n >= 1``.
        rtol: relative rank threshold in ``[0, 1)``; default
            ``max(m, n) * machine epsilon`` (numpy's ``matrix_rank`` rule).

    Returns:
        ``(m, n)`` float64 partial isometry with the row/column spaces of ``G``.

    Raises:
        TypeError: non-numeric input.
        ValueError: ``matrix`` not 2-D, empty or non-finite; ``rtol`` outside ``[0, 1)``.

    Example:
        >>> polar([[2.0, 0.0], [0.0, -3.0]]).tolist()
        [[1.0, 0.0], [0.0, -1.0]]
        >>> polar([[0.0, 0.0, 0.0]]).tolist()
        [[0.0, 0.0, 0.0]]

    References:
        N. J. Higham, *Functions of Matrices* (2008), ch. 8; spec 14 section 3.2
        (``exact_polar=True``) and section 5.
    """
    g = as_float_array("matrix", matrix, ndim=2)
    if rtol is None:
        threshold = max(g.shape) * float(np.finfo(np.float64).eps)
    else:
        threshold = require_positive("rtol", rtol, allow_zero=True)
        if threshold >= 1.0:
            raise ValueError(f"rtol: expected a number in [0, 1), got {threshold!r}")
    u, s, vt = np.linalg.svd(g, full_matrices=False)
    if s.size == 0 or s[0] == 0.0:
        return np.zeros_like(g)
    k = int(np.count_nonzero(s > threshold * s[0]))
    return np.ascontiguousarray(u[:, :k] @ vt[:k, :])
