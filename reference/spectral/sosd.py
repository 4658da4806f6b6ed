"""Stability of Singular Distribution (SoSD): spectral diagnostics of weight matrices.

Reference implementations for spec 15 (Zhang, Zhou, Jia, Chen, Cheng, *The Stability of
Singular Distribution: A Spectral Perspective on the Two-Phase Dynamics of Language Model
Pre-training*, ICML 2026, arXiv:2605.26489).  Provenance tags follow the spec: [paper]
abstract, [notes] an independent reader's notes (metric definitions), [ours] mathematics
derived in the spec and design defaults.  The paper's threshold definition, logging interval and
simplified-Transformer theorem were NOT recovered; the detectors here are the spec's own.

* :func:`normalized_spectrum` — the singular distribution ``σ̂(W) = σ(W) / ||W||_*`` [notes];
* :func:`spectrum_variation` — the step variation ``ΔΣ = ||σ̂(W_b) - σ̂(W_a)||₂`` [notes];
* :func:`spectrum_cosine` — ``cos(σ̂(W_t), σ̂(W_T))`` [notes];
* :func:`spectral_entropy`, :func:`effective_rank` — scalar summaries [ours];
* :func:`variation_series`, :func:`cosine_series` — the same along a logged trajectory;
* :func:`moving_median`, :func:`sosd_threshold`, :func:`cosine_threshold`, :func:`loss_elbow`,
  :func:`sync_ratio` — algorithm A3 (our definitions);
* :func:`variation_bound` — the right-hand side of the per-step bound L1 [ours; proved];
* :func:`cosine_schedule`, :func:`step_schedule`, :func:`wsd_schedule` — the learning-rate
  schedules of the paper's experiments (spec 15 A4; warm-up and decay shapes are our defaults).

The Newton–Schulz / polar helper used with Muon lives once, in :mod:`reference.optimizers.polar`.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike

from reference._arrays import (
    BoolArray,
    FloatArray,
    as_float_array,
    readonly,
    require_int,
    require_positive,
)
from reference._repr import summary_repr

__all__ = [
    "ElbowResult",
    "Normalization",
    "ThresholdResult",
    "cosine_schedule",
    "cosine_series",
    "cosine_threshold",
    "effective_rank",
    "loss_elbow",
    "moving_median",
    "normalized_spectrum",
    "sosd_threshold",
    "spectral_entropy",
    "spectrum_cosine",
    "spectrum_variation",
    "step_schedule",
    "sync_ratio",
    "variation_bound",
    "variation_series",
    "wsd_schedule",
]

Normalization = Literal["trace", "energy"]


def _matrix(name: str, value: object) -> FloatArray:
    return as_float_array(name, value, ndim=2)


def _spectrum(matrix: FloatArray, normalization: str, name: str) -> FloatArray:
    s = scipy.linalg.svdvals(matrix)  # descending
    if normalization == "energy":
        total = float(np.sum(s**2))
        weights = s**2
    else:
        total = float(np.sum(s))
        weights = s
    if total == 0.0 or not math.isfinite(total):
        raise ValueError(
            f"{name}: expected a nonzero matrix (the normalisation divides by ||W||), "
            f"got singular values summing to {total!r}"
        )
    out: FloatArray = weights / total
    return out


def normalized_spectrum(matrix: ArrayLike, *, normalization: Normalization = "trace") -> FloatArray:
    """The singular distribution ``σ̂(W) = σ(W) / Σ_i σ_i(W) = σ / ||W||_*`` (sorted descending).

    It lies on the probability simplex of ``R^r``, ``r = min(m, n)``, and is invariant to
    scaling ``W`` by any ``c != 0``, to orthogonal transforms on either side and to
    transposition.  ``normalization="energy"`` gives the optional diagnostic
    ``σ_i² / ||W||_F²`` — never the default.

    Args:
        matrix: ``(m, n)`` finite, nonzero matrix ``W``.
        normalization: ``trace`` (default) or ``energy``.

    Returns:
        ``(min(m, n),)`` nonnegative vector summing to 1, descending.

    Raises:
        ValueError: not 2-D, empty, non-finite, the zero matrix, unknown normalisation.

    References:
        Spec 15, section 2, "Singular distribution (trace normalisation)" [notes, abstract];
        algorithm A1 ``sd(W)``.

    Example:
        >>> normalized_spectrum([[3.0, 0.0], [0.0, -1.0]]).tolist()
        [0.75, 0.25]
    """
    if normalization not in ("trace", "energy"):
        raise ValueError(f"normalization: expected 'trace' or 'energy', got {normalization!r}")
    return _spectrum(_matrix("matrix", matrix), normalization, "matrix")


def spectrum_variation(before: ArrayLike, after: ArrayLike, *, pad: bool = False) -> float:
    """Step variation ``ΔΣ = ||σ̂(W_after) - σ̂(W_before)||₂`` (a metric on the simplex, ``<= √2``).

    Args:
        before: ``(m, n)`` matrix ``W_t``.
        after: matrix ``W_{t+1}`` of the same shape (any shape with ``pad=True``).
        pad: zero-pad the shorter singular distribution instead of requiring equal shapes.

    Returns:
        ``ΔΣ >= 0``.

    Raises:
        ValueError: non-finite, zero or non-2-D matrices; shapes differ without ``pad``.

    References:
        Spec 15, section 2, "Step variation" [notes]; A1 ``delta``.

    Example:
        >>> spectrum_variation([[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 0.0]])
        0.7071067811865476
    """
    a = _matrix("before", before)
    b = _matrix("after", after)
    if a.shape != b.shape and not pad:
        raise ValueError(
            f"after: expected the shape of before {a.shape} (or pad=True), got {b.shape}"
        )
    sa = _spectrum(a, "trace", "before")
    sb = _spectrum(b, "trace", "after")
    size = max(sa.size, sb.size)
    sa = np.pad(sa, (0, size - sa.size))
    sb = np.pad(sb, (0, size - sb.size))
    return float(np.linalg.norm(sb - sa))


def spectrum_cosine(current: ArrayLike, final: ArrayLike) -> float:
    """Closeness to the final state ``c_t = <σ̂_t, σ̂_T> / (||σ̂_t|| ||σ̂_T||)`` in ``(0, 1]``.

    Args:
        current: ``(m, n)`` matrix ``W_t``.
        final: ``(m, n)`` matrix ``W_T``.

    Returns:
        The cosine (1 iff the singular distributions coincide).

    Raises:
        ValueError: non-finite, zero or non-2-D matrices; shapes differ.

    References:
        Spec 15, section 2, "Closeness to the final state" [notes]; A1 ``cos_final``.

    Example:
        >>> spectrum_cosine([[2.0, 0.0], [0.0, 1.0]], [[4.0, 0.0], [0.0, 2.0]])
        1.0
    """
    a = _matrix("current", current)
    b = _matrix("final", final)
    if a.shape != b.shape:
        raise ValueError(f"final: expected the shape of current {a.shape}, got {b.shape}")
    return _cosine(_spectrum(a, "trace", "current"), _spectrum(b, "trace", "final"))


def _cosine(a: FloatArray, b: FloatArray) -> float:
    return min(1.0, float(a @ b) / (float(np.linalg.norm(a)) * float(np.linalg.norm(b))))


def spectral_entropy(matrix: ArrayLike) -> float:
    """Spectral entropy ``h = -Σ σ̂_i log σ̂_i`` in ``[0, log r]`` (``0 log 0 = 0``).

    Args:
        matrix: ``(m, n)`` finite nonzero matrix.

    Returns:
        ``h``.

    Raises:
        ValueError: as :func:`normalized_spectrum`.

    References:
        Spec 15, section 2, "Useful scalar summaries" [ours].

    Example:
        >>> spectral_entropy(np.eye(4)) == math.log(4.0)
        True
    """
    s = _spectrum(_matrix("matrix", matrix), "trace", "matrix")
    positive = s[s > 0.0]
    return max(0.0, float(-np.sum(positive * np.log(positive))))


def effective_rank(matrix: ArrayLike) -> float:
    """Effective rank ``exp(h)`` in ``[1, r]``.

    Args:
        matrix: ``(m, n)`` finite nonzero matrix.

    Returns:
        ``exp(spectral_entropy(W))``.

    Raises:
        ValueError: as :func:`normalized_spectrum`.

    Example:
        >>> round(effective_rank(np.ones((3, 3))), 12)
        1.0
    """
    return math.exp(spectral_entropy(matrix))


def _trajectory(name: str, matrices: object) -> FloatArray:
    stack = as_float_array(name, matrices, ndim=3)
    return stack


def variation_series(matrices: ArrayLike) -> FloatArray:
    """``ΔΣ_t`` between consecutive logged matrices of a trajectory: ``(T - 1,)``.

    Args:
        matrices: ``(T, m, n)`` stack of logged matrices, ``T >= 2``.

    Returns:
        ``(T - 1,)`` variations.

    Raises:
        ValueError: fewer than two matrices, non-finite or zero matrices.

    References:
        Spec 15, section 3, A2 (tracking during training).

    Example:
        >>> variation_series(np.stack([np.eye(2), 2 * np.eye(2), np.diag([1.0, 0.0])])).tolist()
        [0.0, 0.7071067811865476]
    """
    stack = _trajectory("matrices", matrices)
    if stack.shape[0] < 2:
        raise ValueError(f"matrices: expected at least 2 logged matrices, got {stack.shape[0]}")
    spectra = [_spectrum(w, "trace", f"matrices[{i}]") for i, w in enumerate(stack)]
    return np.array([float(np.linalg.norm(b - a)) for a, b in itertools.pairwise(spectra)])


def cosine_series(matrices: ArrayLike) -> FloatArray:
    """``c_t = cos(σ̂(W_t), σ̂(W_T))`` for every logged matrix: ``(T,)`` (last entry 1).

    Args:
        matrices: ``(T, m, n)`` stack, ``T >= 1``.

    Returns:
        ``(T,)`` cosines.

    Raises:
        ValueError: non-finite or zero matrices.

    Example:
        >>> cosine_series(np.stack([np.diag([2.0, 1.0]), np.eye(2)])).round(6).tolist()
        [0.948683, 1.0]
    """
    stack = _trajectory("matrices", matrices)
    spectra = [_spectrum(w, "trace", f"matrices[{i}]") for i, w in enumerate(stack)]
    return np.array([_cosine(s, spectra[-1]) for s in spectra])


def variation_bound(matrix: ArrayLike, update: ArrayLike) -> float:
    """Right-hand side of L1: ``(||Δ||_F + ||Δ||_*) / ||W + Δ||_*`` (``>= ΔΣ(W, W + Δ)``).

    Args:
        matrix: ``(m, n)`` matrix ``W``.
        update: ``(m, n)`` update ``Δ`` with ``W + Δ != 0``.

    Returns:
        The bound.

    Raises:
        ValueError: shapes differ, non-finite, ``W + Δ = 0``.

    References:
        Spec 15, section 4, L1 [ours; proved via Mirsky's inequality].

    Example:
        >>> variation_bound(np.eye(2), np.zeros((2, 2)))
        0.0
    """
    w = _matrix("matrix", matrix)
    d = as_float_array("update", update, shape=w.shape)
    after = float(np.sum(scipy.linalg.svdvals(w + d)))
    if after == 0.0:
        raise ValueError("update: expected W + update != 0, got the zero matrix")
    s = scipy.linalg.svdvals(d)
    return (float(np.linalg.norm(s)) + float(np.sum(s))) / after


# --------------------------------------------------------------------------------------------
# A3: threshold, elbow, synchronisation


def moving_median(values: ArrayLike, *, window: int = 25) -> FloatArray:
    """Centred moving median with windows shrunk at the ends.

    Entry ``t`` is the median of ``values[max(0, t - w//2) : t + w - w//2]``.

    Args:
        values: ``(T,)`` finite series.
        window: ``w >= 1``.

    Returns:
        ``(T,)`` smoothed series.

    Raises:
        ValueError: empty or non-finite series, ``window < 1``.

    References:
        Spec 15, section 3, A3 step 1 (our definition).

    Example:
        >>> moving_median([1.0, 9.0, 1.0, 1.0], window=3).tolist()
        [5.0, 1.0, 1.0, 1.0]
    """
    series = as_float_array("values", values, ndim=1)
    w = require_int("window", window, minimum=1)
    half = w // 2
    out = np.empty_like(series)
    for t in range(series.size):
        out[t] = np.median(series[max(0, t - half) : t + w - half])
    return out


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class ThresholdResult:
    """Outcome of a stabilisation detector.

    Attributes:
        index: first logged index ``t`` from which the criterion holds for every ``s >= t``
            (``len(series)`` when it never settles).
        found: whether such an index exists before the end.
        floor: the reference level (``f`` for SoSD, ``c0`` for the cosine rule).
        smoothed: the series the criterion was applied to (read-only).
    """

    index: int
    found: bool
    floor: float
    smoothed: FloatArray


def _first_settled(ok: BoolArray) -> int:
    bad = np.flatnonzero(~ok)
    return 0 if bad.size == 0 else int(bad[-1]) + 1


def sosd_threshold(
    variations: ArrayLike, *, kappa: float = 3.0, window: int = 25
) -> ThresholdResult:
    """SoSD threshold: first logged ``t`` with ``D̃_s <= κ f`` for all ``s >= t``.

    ``D̃`` is the centred moving median (window ``w``) of the mean variation ``D_t``; the floor
    ``f`` is the median of ``D̃`` over the last 50% of logged steps.

    Args:
        variations: ``(T,)`` mean variations ``D_t >= 0`` (one per logged step).
        kappa: ``κ > 1`` (default 3, ours).
        window: ``w >= 1`` (default 25 logs, ours).

    Returns:
        :class:`ThresholdResult` (``index`` counts logged steps from 0).

    Raises:
        ValueError: empty, non-finite or negative series; ``kappa <= 1``; ``window < 1``.

    References:
        Spec 15, section 3, A3 steps 1–3 (our definitions; the paper's were not recovered).

    Example:
        >>> sosd_threshold([5.0, 4.0, 1.0, 1.0, 1.0, 1.0], window=1).index
        2
    """
    series = as_float_array("variations", variations, ndim=1)
    if float(series.min()) < 0.0:
        raise ValueError(f"variations: expected values >= 0, got {series.min()!r}")
    k = require_positive("kappa", kappa)
    if k <= 1.0:
        raise ValueError(f"kappa: expected a number > 1, got {k!r}")
    smooth = moving_median(series, window=window)
    floor = float(np.median(smooth[series.size // 2 :]))
    index = _first_settled(smooth <= k * floor)
    return ThresholdResult(
        index=index, found=index < series.size, floor=floor, smoothed=readonly(smooth)
    )


def cosine_threshold(cosines: ArrayLike, *, c0: float = 0.99) -> ThresholdResult:
    """Alternative detector: first ``t`` with ``c_s >= c0`` for all ``s >= t``.

    Args:
        cosines: ``(T,)`` closeness-to-final values.
        c0: level in ``(0, 1]`` (default 0.99, ours).

    Returns:
        :class:`ThresholdResult` (``floor = c0``).

    Raises:
        ValueError: empty or non-finite series; ``c0`` outside ``(0, 1]``.

    References:
        Spec 15, section 3, A3 step 4 (ours).

    Example:
        >>> cosine_threshold([0.5, 0.995, 0.98, 0.999, 1.0]).index
        3
    """
    series = as_float_array("cosines", cosines, ndim=1)
    level = require_positive("c0", c0)
    if level > 1.0:
        raise ValueError(f"c0: expected a number in (0, 1], got {level!r}")
    index = _first_settled(series >= level)
    return ThresholdResult(
        index=index, found=index < series.size, floor=level, smoothed=readonly(series.copy())
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class ElbowResult:
    """Continuous two-segment fit of ``log loss`` against ``log t``.

    Attributes:
        step: the breakpoint ``t*_loss`` (a step value from ``steps``).
        slope_before: slope of the first segment.
        slope_after: slope of the second segment.
        sse: residual sum of squares of the best fit.
    """

    step: float
    slope_before: float
    slope_after: float
    sse: float


def loss_elbow(steps: ArrayLike, losses: ArrayLike, *, stride: int = 5) -> ElbowResult:
    """Loss elbow ``t*_loss``: brute-force breakpoint of a continuous two-segment linear model.

    Fits ``log L ≈ a + b u + c max(0, u - u_k)`` with ``u = log t`` by least squares for every
    candidate breakpoint ``u_k`` (every ``stride``-th interior logged step) and keeps the best.

    Args:
        steps: ``(T,)`` positive, strictly increasing step numbers, ``T >= 4``.
        losses: ``(T,)`` positive losses.
        stride: spacing of candidate breakpoints in logged steps (5 in the spec's test).

    Returns:
        :class:`ElbowResult`.

    Raises:
        ValueError: shapes differ, fewer than 4 points, non-positive or non-increasing steps,
            non-positive losses, ``stride < 1``.

    References:
        Spec 15, section 3, A3 step 5 (ours).

    Example:
        >>> t = np.arange(1.0, 101.0)
        >>> loss = np.where(t < 20, 10 * t**-1.0, 0.5 * (t / 20) ** -0.1)
        >>> loss_elbow(t, loss, stride=1).step
        20.0
    """
    t = as_float_array("steps", steps, ndim=1)
    loss = as_float_array("losses", losses, shape=t.shape)
    every = require_int("stride", stride, minimum=1)
    if t.size < 4:
        raise ValueError(f"steps: expected at least 4 logged steps, got {t.size}")
    if float(t.min()) <= 0.0 or np.any(np.diff(t) <= 0.0):
        raise ValueError("steps: expected positive, strictly increasing step numbers")
    if float(loss.min()) <= 0.0:
        raise ValueError(f"losses: expected positive losses, got {loss.min()!r}")
    u = np.log(t)
    y = np.log(loss)
    best: tuple[float, int, FloatArray] | None = None
    for k in range(1, t.size - 2, every):
        design = np.column_stack([np.ones_like(u), u, np.maximum(0.0, u - u[k])])
        coef, *_ = np.linalg.lstsq(design, y, rcond=None)
        sse = float(np.sum((design @ coef - y) ** 2))
        if best is None or sse < best[0]:
            best = (sse, k, coef)
    assert best is not None  # t.size >= 4 gives at least one candidate
    sse, k, coef = best
    return ElbowResult(
        step=float(t[k]),
        slope_before=float(coef[1]),
        slope_after=float(coef[1] + coef[2]),
        sse=sse,
    )


def sync_ratio(sosd_step: float, loss_step: float) -> float:
    """Synchronisation ratio ``ρ_sync = t*_SoSD / t*_loss`` (target band ``[1/3, 3]``, ours).

    Args:
        sosd_step: ``t*_SoSD > 0``.
        loss_step: ``t*_loss > 0``.

    Returns:
        The ratio.

    Raises:
        ValueError: a non-positive or non-finite step.

    References:
        Spec 15, section 3, A3 step 6 (ours).

    Example:
        >>> sync_ratio(200.0, 400.0)
        0.5
    """
    return require_positive("sosd_step", sosd_step) / require_positive("loss_step", loss_step)


# --------------------------------------------------------------------------------------------
# A4: learning-rate schedules


def _schedule_args(
    step: object, total: object, peak: object, warmup: object
) -> tuple[int, int, float, int]:
    t_total = require_int("total", total, minimum=1)
    t = require_int("step", step, minimum=0, maximum=t_total - 1)
    eta = require_positive("peak", peak)
    t_w = require_int("warmup", warmup, minimum=0, maximum=t_total)
    return t, t_total, eta, t_w


def _floor(floor_ratio: object) -> float:
    value = require_positive("floor_ratio", floor_ratio, allow_zero=True)
    if value > 1.0:
        raise ValueError(f"floor_ratio: expected a number in [0, 1], got {value!r}")
    return value


def cosine_schedule(
    step: int, *, total: int, peak: float, warmup: int = 0, floor_ratio: float = 0.1
) -> float:
    """Cosine schedule with linear warm-up: ``η_t = η_min + ½(η_max - η_min)(1 + cos(π s))``.

    ``s = (t - T_w)/(T - T_w)`` after warm-up; during warm-up ``η_t = η_max (t + 1)/T_w`` (ours).
    ``η_min = floor_ratio · η_max`` (0.1 default, spec 15 A4).

    Args:
        step: ``t`` in ``[0, T - 1]``.
        total: ``T >= 1``.
        peak: ``η_max > 0``.
        warmup: ``T_w`` in ``[0, T]``.
        floor_ratio: ``η_min / η_max`` in ``[0, 1]``.

    Returns:
        ``η_t``.

    Raises:
        ValueError: arguments out of range.
        TypeError: non-integer step counts.

    References:
        Spec 15, section 3, A4 "Schedules".

    Example:
        >>> cosine_schedule(0, total=10, peak=1.0), round(cosine_schedule(5, total=10, peak=1.0), 6)
        (1.0, 0.55)
    """
    t, t_total, eta, t_w = _schedule_args(step, total, peak, warmup)
    low = _floor(floor_ratio) * eta
    if t < t_w:
        return eta * (t + 1) / t_w
    span = max(1, t_total - t_w)
    return low + 0.5 * (eta - low) * (1.0 + math.cos(math.pi * (t - t_w) / span))


def step_schedule(
    step: int,
    *,
    total: int,
    peak: float,
    gamma: float = 0.1,
    milestones: tuple[float, ...] = (0.5, 0.75),
) -> float:
    """Step-wise schedule ``η_t = η_max γ^{#{milestones m : m T <= t}}``.

    Args:
        step: ``t`` in ``[0, T - 1]``.
        total: ``T >= 1``.
        peak: ``η_max > 0``.
        gamma: factor in ``(0, 1]`` (0.1 default).
        milestones: fractions of ``T`` in ``(0, 1)``, increasing (50% and 75% default).

    Returns:
        ``η_t``.

    Raises:
        ValueError: arguments out of range.

    References:
        Spec 15, section 3, A4 "Schedules".

    Example:
        >>> [step_schedule(t, total=4, peak=1.0) for t in range(4)]
        [1.0, 1.0, 0.1, 0.010000000000000002]
    """
    t, t_total, eta, _ = _schedule_args(step, total, peak, 0)
    g = require_positive("gamma", gamma)
    if g > 1.0:
        raise ValueError(f"gamma: expected a number in (0, 1], got {g!r}")
    marks = as_float_array("milestones", list(milestones), ndim=1)
    if np.any(marks <= 0.0) or np.any(marks >= 1.0) or np.any(np.diff(marks) <= 0.0):
        raise ValueError(
            f"milestones: expected increasing fractions in (0, 1), got {marks.tolist()}"
        )
    return eta * g ** int(np.sum(marks * t_total <= t))


def wsd_schedule(
    step: int,
    *,
    total: int,
    peak: float,
    warmup: int = 0,
    decay_fraction: float = 0.2,
    floor_ratio: float = 0.1,
    shape: Literal["linear", "sqrt"] = "linear",
) -> float:
    """Warmup–stable–decay: linear warm-up, constant ``η_max``, then decay to ``η_min``.

    Decay over the last ``T_d = round(decay_fraction · T)`` steps with progress
    ``s = (t - (T - T_d) + 1)/T_d`` in ``(0, 1]``: ``linear`` ``η = η_max - (η_max - η_min) s``,
    ``sqrt`` ("1 - sqrt") ``η = η_min + (η_max - η_min)(1 - sqrt(s))``; the last step is ``η_min``.

    Args:
        step: ``t`` in ``[0, T - 1]``.
        total: ``T >= 1``.
        peak: ``η_max > 0``.
        warmup: ``T_w >= 0`` with ``T_w + T_d <= T``.
        decay_fraction: ``T_d / T`` in ``[0, 1]`` (0.2 default, spec 15 A4).
        floor_ratio: ``η_min / η_max`` in ``[0, 1]``.
        shape: ``linear`` (default) or ``sqrt``.

    Returns:
        ``η_t``.

    Raises:
        ValueError: arguments out of range, ``T_w + T_d > T``.

    References:
        Spec 15, section 3, A4 "Schedules" (WSD).

    Example:
        >>> [round(wsd_schedule(t, total=5, peak=1.0, decay_fraction=0.4), 3) for t in range(5)]
        [1.0, 1.0, 1.0, 0.55, 0.1]
    """
    t, t_total, eta, t_w = _schedule_args(step, total, peak, warmup)
    frac = require_positive("decay_fraction", decay_fraction, allow_zero=True)
    if frac > 1.0:
        raise ValueError(f"decay_fraction: expected a number in [0, 1], got {frac!r}")
    if shape not in ("linear", "sqrt"):
        raise ValueError(f"shape: expected 'linear' or 'sqrt', got {shape!r}")
    t_d = round(frac * t_total)
    if t_w + t_d > t_total:
        raise ValueError(f"warmup: expected T_w + T_d <= T, got {t_w} + {t_d} > {t_total}")
    low = _floor(floor_ratio) * eta
    if t < t_w:
        return eta * (t + 1) / t_w
    if t < t_total - t_d:
        return eta
    progress = (t - (t_total - t_d) + 1) / t_d
    if shape == "linear":
        return eta - (eta - low) * progress
    return low + (eta - low) * (1.0 - math.sqrt(progress))
