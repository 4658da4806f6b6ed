"""Heatmap generators G1-G4 of spec 10 §3.6 (experiments without a neural network).

Part of :mod:`reference.tsp`.  G1-G3 perturb the indicator ``Y*`` of a given (optimal) tour;
G4 (SoftDist) needs only the distances.  All return symmetric ``[0, 1]`` matrices with a
zero diagonal, accepted by every decoder.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import FloatArray, describe, require_generator, require_int, require_positive
from reference._arrays import require_probability as _require_probability
from reference.tsp.base import _indicator, as_distances, as_tour

__all__ = ["edge_flips", "mixture_heatmap", "perturbed_optimum", "soft_dist"]


def _rng(rng: object) -> np.random.Generator:
    return require_generator("rng", rng)


def _tour_arg(tour: object) -> np.ndarray[tuple[int], np.dtype[np.int64]]:
    raw = np.asarray(tour) if not isinstance(tour, str | bytes) else tour
    size = raw.shape[0] if isinstance(raw, np.ndarray) and raw.ndim == 1 else -1
    if size < 3:
        raise ValueError(
            f"tour: expected a permutation of range(n) with n >= 3, got {describe(tour)}"
        )
    return as_tour("tour", tour, size)


def _symmetric_noise(n: int, scale: float, rng: np.random.Generator) -> FloatArray:
    upper = np.triu(rng.standard_normal((n, n)) * scale, 1)
    out: FloatArray = upper + upper.T
    return out


def perturbed_optimum(tour: ArrayLike, *, sigma: float, rng: np.random.Generator) -> FloatArray:
    """G1: ``X = clip(Y* + E, 0, 1)`` with symmetric Gaussian noise ``E_ij ~ N(0, σ²)``.

    Symbols: ``Y*`` is the indicator of ``tour``, ``σ`` is ``sigma`` (spec grid
    ``{0, 0.1, 0.2, 0.4}``).

    Args:
        tour: the (optimal) tour, a permutation of ``range(n)``, ``n >= 3``.
        sigma: noise standard deviation, ``>= 0``.
        rng: the random generator.

    Returns:
        ``(n, n)`` heatmap.

    Raises:
        TypeError: bad kinds.
        ValueError: invalid tour or negative ``sigma``.

    Example:
        >>> X = perturbed_optimum([0, 1, 2, 3], sigma=0.0, rng=np.random.default_rng(0))
        >>> X.sum(axis=1).tolist()
        [2.0, 2.0, 2.0, 2.0]
    """
    t = _tour_arg(tour)
    s = require_positive("sigma", sigma, allow_zero=True)
    gen = _rng(rng)
    out: FloatArray = np.clip(_indicator(t) + _symmetric_noise(t.shape[0], s, gen), 0.0, 1.0)
    np.fill_diagonal(out, 0.0)
    return out


def edge_flips(tour: ArrayLike, *, k: int, rng: np.random.Generator) -> FloatArray:
    """G2: 0/1 heatmap with ``k`` tour edges removed and ``k`` random non-tour edges added.

    For this ``H``, ``η = w(H Δ T*)`` is controlled exactly by ``k`` (``2k`` edges differ).

    Args:
        tour: the (optimal) tour, ``n >= 3``.
        k: number of flips, ``0 <= k <= min(n, n(n-1)/2 - n)``.
        rng: the random generator.

    Returns:
        ``(n, n)`` 0/1 heatmap.

    Raises:
        TypeError: bad kinds.
        ValueError: invalid tour or ``k`` out of range.

    Example:
        >>> X = edge_flips([0, 1, 2, 3, 4], k=2, rng=np.random.default_rng(0))
        >>> int(X.sum()) // 2
        5
    """
    t = _tour_arg(tour)
    n = t.shape[0]
    cap = min(n, n * (n - 1) // 2 - n)
    flips = require_int("k", k, minimum=0, maximum=cap)
    gen = _rng(rng)
    y = _indicator(t)
    iu, ju = np.triu_indices(n, 1)
    on = np.flatnonzero(y[iu, ju] > 0.5)
    off = np.flatnonzero(y[iu, ju] < 0.5)
    remove = gen.choice(on, size=flips, replace=False)
    add = gen.choice(off, size=flips, replace=False)
    x = y.copy()
    x[iu[remove], ju[remove]] = 0.0
    x[ju[remove], iu[remove]] = 0.0
    x[iu[add], ju[add]] = 1.0
    x[ju[add], iu[add]] = 1.0
    return x


def mixture_heatmap(tour: ArrayLike, *, lam: float, rng: np.random.Generator) -> FloatArray:
    """G3: ``X = (1 - λ)·Y* + λ·R`` with ``R`` uniform symmetric in ``[0, 1]``.

    Args:
        tour: the (optimal) tour, ``n >= 3``.
        lam: mixing weight ``λ ∈ [0, 1]``.
        rng: the random generator.

    Returns:
        ``(n, n)`` heatmap.

    Raises:
        TypeError: bad kinds.
        ValueError: invalid tour or ``λ`` outside ``[0, 1]``.

    Example:
        >>> X = mixture_heatmap([0, 1, 2], lam=0.0, rng=np.random.default_rng(0))
        >>> X.tolist()
        [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]]
    """
    t = _tour_arg(tour)
    weight = _require_probability("lam", lam)
    gen = _rng(rng)
    n = t.shape[0]
    upper = np.triu(gen.uniform(0.0, 1.0, size=(n, n)), 1)
    out: FloatArray = (1.0 - weight) * _indicator(t) + weight * (upper + upper.T)
    return out


def soft_dist(D: ArrayLike, *, temperature: float) -> FloatArray:
    """G4 / SoftDist heatmap: row softmax of ``-w_ij / τ`` (``w_ii := +∞``), then ``(X + Xᵀ)/2``.

    Symbols: ``τ`` is ``temperature`` (Xia et al. use 0.0066 at n = 500, 0.0051 at
    n = 1000, 0.0018 at n = 10000 on the unit square; tune on a grid for small n).

    Args:
        D: ``(n, n)`` symmetric non-negative distances.
        temperature: softmax temperature ``τ > 0``.

    Returns:
        ``(n, n)`` heatmap (entries in ``[0, 1]``).

    Raises:
        TypeError: bad kinds.
        ValueError: invalid distances or temperature.

    Example:
        >>> from reference.tsp.base import distance_matrix
        >>> X = soft_dist(distance_matrix([[0, 0], [1, 0], [0, 1]]), temperature=1.0)
        >>> bool(np.allclose(X, X.T)), float(X.max()) <= 1.0
        (True, True)

    References:
        Y. Xia, X. Yang, Z. Liu, Z. Liu, L. Song, J. Bian, "Position: Rethinking Post-Hoc Search-
        Based Neural Approaches for Solving Large-Scale Traveling Salesman Problems",
        ICML 2024 (SoftDist); spec 10 §3.6 G4.
    """
    w = as_distances("D", D, metric=False)
    tau = require_positive("temperature", temperature)
    logits = -w / tau
    np.fill_diagonal(logits, -np.inf)
    logits = logits - logits.max(axis=1, keepdims=True)
    expo = np.exp(logits)
    soft = expo / expo.sum(axis=1, keepdims=True)
    out: FloatArray = (soft + soft.T) / 2.0
    np.fill_diagonal(out, 0.0)
    return out
