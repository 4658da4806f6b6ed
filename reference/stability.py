"""Empirical algorithmic stability under heavy-tailed noise (spec 05).

Spec 05: H. Chen, K. Wei, X. Yuan, L. Luo, "Stability and Generalization of
Nonconvex Optimization with Heavy-Tailed Noise", ICML 2026, arXiv:2601.19730.
Confirmed from the paper: the p-BCM assumption, epsilon-uniform stability in
gradients, the gradient generalization measure and the truncation operator.
The stability bounds S1-S5 and lemmas L2-L3 below are *derived here* (spec 05
§4.1, §4.3): true and exactly checkable, but not quotations of the paper; the
paper's constants were not retrieved and are nowhere encoded.

Contents:

* heavy-tailed noise: :func:`symmetric_pareto`, :func:`pareto_vectors`, :func:`student_t`
  and the closed-form moments :func:`pareto_moment`, :func:`pareto_tail_excess`,
  :func:`pareto_clipped_second_moment`, :func:`student_t_abs_moment`;
* truncation lemmas: :func:`truncation_bounds` (L2), :func:`heavy_tailed_mean_bound` (L3);
* least-squares / log-loss per-example gradients, :func:`neighbouring_dataset`,
  :func:`sample_indices`, :func:`train`, :func:`coupled_runs`, :func:`gradient_stability`,
  :func:`gradient_generalization_gap`;
* the coupling bounds :func:`clipped_sgd_stability_bound` (S1/S2),
  :func:`clip_average_stability_bound` (S3), :func:`momentum_stability_bound` (S4),
  :func:`normalized_sgd_stability_bound` (S5).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import gammaln

from reference._arrays import (
    FloatArray,
    IntArray,
    as_float_array,
    describe,
    readonly,
    require_generator,
    require_int,
    require_positive,
)
from reference._repr import summary_repr
from reference.optimizers.base import Optimizer, _clip_tau, _positive, apply_updates, clip

__all__ = [
    "CoupledRuns",
    "LossName",
    "clip",
    "clip_average_stability_bound",
    "clipped_sgd_stability_bound",
    "coupled_runs",
    "example_gradients",
    "gradient_generalization_gap",
    "gradient_stability",
    "heavy_tailed_mean_bound",
    "momentum_stability_bound",
    "neighbouring_dataset",
    "normalized_sgd_stability_bound",
    "pareto_clipped_second_moment",
    "pareto_moment",
    "pareto_tail_excess",
    "pareto_vectors",
    "sample_indices",
    "student_t",
    "student_t_abs_moment",
    "symmetric_pareto",
    "train",
    "truncation_bounds",
]

LossName = Literal["least_squares", "log"]
Sampling = Literal["with_replacement", "epoch_shuffle"]


def _rng(rng: object) -> np.random.Generator:
    return require_generator("rng", rng)


def _p_order(p: object) -> float:
    value = require_positive("p", p)
    if not (1.0 < value <= 2.0):
        raise ValueError(f"p: expected a number in (1, 2], got {value!r}")
    return value


# -------------------------------------------------------------------------- heavy-tailed noise
def symmetric_pareto(
    size: int, *, tail: float, scale: float = 1.0, rng: np.random.Generator
) -> FloatArray:
    """Symmetric Pareto draws ``S R`` with ``R ~ Pareto(a, x_m)`` and an independent random sign.

    ``P(R > r) = (x_m / r)^a`` for ``r >= x_m``: moments of order ``p < a`` exist.

    Args:
        size: number of draws ``>= 1``.
        tail: tail index ``a > 0``.
        scale: ``x_m > 0``.
        rng: random generator.

    Returns:
        ``(size,)`` float64 draws.

    Raises:
        TypeError: non-numeric arguments, bad ``rng``.
        ValueError: ``size < 1``, ``tail <= 0``, ``scale <= 0``.

    Example:
        >>> bool(np.all(np.abs(symmetric_pareto(5, tail=1.5, rng=np.random.default_rng(0))) >= 1.0))
        True

    References:
        Spec 05 §4.1 and §4.3 (noise model of the checks).
    """
    n = require_int("size", size, minimum=1)
    a = require_positive("tail", tail)
    xm = require_positive("scale", scale)
    gen = _rng(rng)
    radius = xm * (1.0 - gen.random(n)) ** (-1.0 / a)
    return np.where(gen.random(n) < 0.5, -radius, radius)


def pareto_vectors(
    size: int, dim: int, *, tail: float, scale: float = 1.0, rng: np.random.Generator
) -> FloatArray:
    """Random vectors ``X = R U``: ``R ~ Pareto(a, x_m)``, ``U`` uniform on the unit sphere of R^d.

    ``E X = 0`` by symmetry (for ``a > 1``), ``||X|| = R``.

    Args:
        size: number of vectors ``>= 1``.
        dim: dimension ``d >= 1``.
        tail: ``a > 0``.
        scale: ``x_m > 0``.
        rng: random generator.

    Returns:
        ``(size, dim)`` float64.

    Raises:
        TypeError: non-numeric arguments, bad ``rng``.
        ValueError: out-of-range arguments.

    References:
        Spec 05 §4.1 (closed forms for exact checks).
    """
    n = require_int("size", size, minimum=1)
    d = require_int("dim", dim, minimum=1)
    a = require_positive("tail", tail)
    xm = require_positive("scale", scale)
    gen = _rng(rng)
    radius = xm * (1.0 - gen.random(n)) ** (-1.0 / a)
    z = gen.standard_normal((n, d))
    norms = np.linalg.norm(z, axis=1, keepdims=True)
    norms[norms == 0.0] = 1.0
    out: FloatArray = radius[:, None] * z / norms
    return out


def student_t(size: int, *, nu: float, rng: np.random.Generator) -> FloatArray:
    """Student-t draws with ``nu > 0`` degrees of freedom (``E|T|^p < inf`` iff ``p < nu``).

    Args:
        size: number of draws ``>= 1``.
        nu: degrees of freedom ``> 0``.
        rng: random generator.

    Returns:
        ``(size,)`` float64.

    Raises:
        TypeError: non-numeric arguments, bad ``rng``.
        ValueError: out-of-range arguments.

    References:
        Spec 05 §4.1 (Student-t alternative) and §4.3.
    """
    n = require_int("size", size, minimum=1)
    df = require_positive("nu", nu)
    return _rng(rng).standard_t(df, size=n)


def pareto_moment(p: float, *, tail: float, scale: float = 1.0) -> float:
    """``E R^p = a x_m^p / (a - p)`` for ``R ~ Pareto(a, x_m)``, ``0 < p < a``.

    Args:
        p: order ``> 0``, ``< tail``.
        tail: ``a > 0``.
        scale: ``x_m > 0``.

    Returns:
        The moment.

    Raises:
        TypeError: non-real arguments.
        ValueError: ``p >= tail`` (infinite moment) or non-positive arguments.

    Example:
        >>> pareto_moment(1.0, tail=2.0)
        2.0

    References:
        Spec 05 §4.1 (closed forms).
    """
    order = require_positive("p", p)
    a = require_positive("tail", tail)
    xm = require_positive("scale", scale)
    if order >= a:
        raise ValueError(f"p: expected p < tail = {a!r} (finite moment), got {order!r}")
    return float(a * xm**order / (a - order))


def pareto_tail_excess(tau: float, *, tail: float, scale: float = 1.0) -> float:
    """``E (R - tau)_+ = x_m^a tau^(1-a) / (a - 1)`` for ``tau >= x_m`` and ``a > 1``.

    This is ``E||X - clip_tau(X)||`` for ``X = R U`` (the truncation bias of L2).

    Args:
        tau: clipping level ``>= scale``.
        tail: ``a > 1``.
        scale: ``x_m > 0``.

    Returns:
        The expected excess.

    Raises:
        TypeError: non-real arguments.
        ValueError: ``tail <= 1``, ``tau < scale``, non-positive arguments.

    Example:
        >>> pareto_tail_excess(1.0, tail=2.0)
        1.0

    References:
        Spec 05 §4.1.
    """
    level = require_positive("tau", tau)
    a = require_positive("tail", tail)
    xm = require_positive("scale", scale)
    if a <= 1.0:
        raise ValueError(f"tail: expected a > 1 (finite mean), got {a!r}")
    if level < xm:
        raise ValueError(f"tau: expected tau >= scale = {xm!r}, got {level!r}")
    return float(xm**a * level ** (1.0 - a) / (a - 1.0))


def pareto_clipped_second_moment(tau: float, *, tail: float, scale: float = 1.0) -> float:
    """``E min(R, tau)^2`` for ``R ~ Pareto(a, x_m)`` and ``tau >= x_m``.

    ``= x_m^2 + 2 x_m^a (tau^(2-a) - x_m^(2-a)) / (2 - a)`` for ``a != 2`` and
    ``x_m^2 (1 + 2 log(tau / x_m))`` for ``a = 2``.

    Args:
        tau: ``>= scale``.
        tail: ``a > 0``.
        scale: ``x_m > 0``.

    Returns:
        The truncated second moment.

    Raises:
        TypeError: non-real arguments.
        ValueError: ``tau < scale`` or non-positive arguments.

    Example:
        >>> pareto_clipped_second_moment(1.0, tail=1.5)
        1.0

    References:
        Spec 05 §4.1.
    """
    level = require_positive("tau", tau)
    a = require_positive("tail", tail)
    xm = require_positive("scale", scale)
    if level < xm:
        raise ValueError(f"tau: expected tau >= scale = {xm!r}, got {level!r}")
    if a == 2.0:
        return xm**2 * (1.0 + 2.0 * math.log(level / xm))
    return float(xm**2 + 2.0 * xm**a * (level ** (2.0 - a) - xm ** (2.0 - a)) / (2.0 - a))


def student_t_abs_moment(p: float, *, nu: float) -> float:
    """``E|T_nu|^p = nu^(p/2) Gamma((p+1)/2) Gamma((nu-p)/2) / (sqrt(pi) Gamma(nu/2))``, ``p < nu``.

    Args:
        p: order ``> 0``, ``< nu``.
        nu: degrees of freedom ``> 0``.

    Returns:
        The absolute moment.

    Raises:
        TypeError: non-real arguments.
        ValueError: ``p >= nu`` or non-positive arguments.

    Example:
        >>> round(student_t_abs_moment(2.0, nu=5.0), 12)   # variance nu/(nu-2)
        1.666666666667

    References:
        Spec 05 §4.1 (Student-t alternative).
    """
    order = require_positive("p", p)
    df = require_positive("nu", nu)
    if order >= df:
        raise ValueError(f"p: expected p < nu = {df!r} (finite moment), got {order!r}")
    log_value = (
        0.5 * order * math.log(df)
        + float(gammaln((order + 1.0) / 2.0))
        + float(gammaln((df - order) / 2.0))
        - 0.5 * math.log(math.pi)
        - float(gammaln(df / 2.0))
    )
    return math.exp(log_value)


# ------------------------------------------------------------------------- truncation lemmas
def truncation_bounds(moment: float, p: float, tau: float) -> tuple[float, float]:
    """Lemma L2 (derived): bounds on the truncation bias and the truncated second moment.

    If ``E||X||^p <= M`` with ``p in (1, 2]`` then for every ``tau > 0``

        E||X - clip_tau(X)|| <= M tau^(1-p),    E||clip_tau(X)||^2 <= M tau^(2-p).

    Args:
        moment: ``M >= 0``.
        p: in (1, 2].
        tau: ``> 0``.

    Returns:
        ``(bias_bound, second_moment_bound)``.

    Raises:
        TypeError: non-real arguments.
        ValueError: out-of-range arguments.

    Example:
        >>> truncation_bounds(2.0, 1.5, 4.0)
        (1.0, 4.0)

    References:
        Spec 05 §4.1, L2 (derived here).
    """
    m = require_positive("moment", moment, allow_zero=True)
    order = _p_order(p)
    level = require_positive("tau", tau)
    return m * level ** (1.0 - order), m * level ** (2.0 - order)


def heavy_tailed_mean_bound(sigma: float, p: float, n: int, *, tau: float | None = None) -> float:
    """Lemma L3 (derived): ``E||mean of n i.i.d. centred X_i|| <= sqrt(sigma^p tau^(2-p)/n) + 2 sigma^p tau^(1-p)``.

    With the default ``tau = sigma n^(1/p)`` the bound equals ``3 sigma n^(-(p-1)/p)``.

    Args:
        sigma: ``sigma >= 0`` with ``E||X||^p <= sigma^p``.
        p: in (1, 2].
        n: sample size ``>= 1``.
        tau: truncation level ``> 0`` (default ``sigma n^(1/p)``; must be given if ``sigma = 0``).

    Returns:
        The bound.

    Raises:
        TypeError: non-real arguments.
        ValueError: out-of-range arguments.

    Example:
        >>> round(heavy_tailed_mean_bound(1.0, 2.0, 100), 12)
        0.3

    References:
        Spec 05 §4.1, L3 (derived here).
    """
    s = require_positive("sigma", sigma, allow_zero=True)
    order = _p_order(p)
    count = require_int("n", n, minimum=1)
    if tau is None:
        if s == 0.0:
            return 0.0
        level = s * count ** (1.0 / order)
    else:
        level = require_positive("tau", tau)
    sp = s**order
    return float(math.sqrt(sp * level ** (2.0 - order) / count) + 2.0 * sp * level ** (1.0 - order))


# ------------------------------------------------------------------------------ data and runs
def _loss_name(value: object) -> LossName:
    if value == "least_squares":
        return "least_squares"
    if value == "log":
        return "log"
    raise ValueError(f"loss: expected 'least_squares' or 'log', got {value!r}")


def _gradients(x: FloatArray, a: FloatArray, y: FloatArray, loss: LossName) -> FloatArray:
    r = a @ x - y
    if loss == "least_squares":
        return r[:, None] * a
    return (r / (1.0 + 0.5 * r * r))[:, None] * a


def example_gradients(
    x: ArrayLike, features: ArrayLike, targets: ArrayLike, *, loss: LossName = "least_squares"
) -> FloatArray:
    """Per-example gradients ``grad f(x; (a_j, y_j))`` stacked as rows.

    * ``least_squares``: ``f = (a^T x - y)^2 / 2``, ``grad = (a^T x - y) a`` (smoothness
      ``||a||^2``);
    * ``log`` (nonconvex): ``f = log(1 + (a^T x - y)^2 / 2)``,
      ``grad = r a / (1 + r^2/2)`` with ``r = a^T x - y`` (smoothness ``||a||^2``).

    Args:
        x: ``(d,)`` point.
        features: ``(n, d)`` rows ``a_j``.
        targets: ``(n,)`` values ``y_j``.
        loss: ``"least_squares"`` or ``"log"``.

    Returns:
        ``(n, d)`` float64.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, unknown loss.

    Example:
        >>> example_gradients([1.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], [0.0, 1.0]).tolist()
        [[1.0, 0.0], [-0.0, -1.0]]

    References:
        Spec 05 §4.3 (instances of the numeric checks).
    """
    a = as_float_array("features", features, ndim=2)
    n, d = a.shape
    point = as_float_array("x", x, shape=(d,))
    y = as_float_array("targets", targets, shape=(n,))
    return _gradients(point, a, y, _loss_name(loss))


def neighbouring_dataset(
    features: ArrayLike, targets: ArrayLike, index: int, feature: ArrayLike, target: float
) -> tuple[FloatArray, FloatArray]:
    """The neighbouring sample ``S^(i)``: ``S`` with example ``i`` replaced by ``(a', y')``.

    Args:
        features: ``(n, d)``.
        targets: ``(n,)``.
        index: ``i`` in ``[0, n)``.
        feature: ``(d,)`` replacement ``a'``.
        target: replacement ``y'`` (finite).

    Returns:
        New ``(features', targets')`` arrays (the inputs are not modified).

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, index out of range.

    Example:
        >>> a, y = neighbouring_dataset([[1.0], [2.0]], [0.0, 1.0], 0, [5.0], 7.0)
        >>> a.tolist(), y.tolist()
        ([[5.0], [2.0]], [7.0, 1.0])

    References:
        Spec 05 §2 (neighbouring samples).
    """
    a = as_float_array("features", features, ndim=2)
    n, d = a.shape
    y = as_float_array("targets", targets, shape=(n,))
    i = require_int("index", index, minimum=0, maximum=n - 1)
    new_a = as_float_array("feature", feature, shape=(d,))
    new_y = as_float_array("target", [target], shape=(1,))
    a[i] = new_a
    y[i] = new_y[0]
    return a, y


def sample_indices(
    n: int,
    steps: int,
    *,
    batch: int = 1,
    sampling: Sampling = "with_replacement",
    rng: np.random.Generator,
) -> IntArray:
    """Index sequences ``(T, b)``: uniform with replacement, or epoch-wise shuffles.

    Args:
        n: sample size ``>= 1``.
        steps: ``T >= 0``.
        batch: ``b >= 1`` (``b <= n`` for ``epoch_shuffle``).
        sampling: ``"with_replacement"`` (default) or ``"epoch_shuffle"`` (without
            replacement within an epoch; batches never straddle two epochs).
        rng: random generator.

    Returns:
        ``(steps, batch)`` int64 array.

    Raises:
        TypeError: non-integer arguments, bad ``rng``.
        ValueError: out-of-range arguments, ``b > n`` without replacement.

    References:
        Spec 05 §3 (common setup; sampling options our default).
    """
    count = require_int("n", n, minimum=1)
    t = require_int("steps", steps, minimum=0)
    b = require_int("batch", batch, minimum=1)
    gen = _rng(rng)
    if sampling == "with_replacement":
        return gen.integers(0, count, size=(t, b)).astype(np.int64)
    if sampling != "epoch_shuffle":
        raise ValueError(
            f"sampling: expected 'with_replacement' or 'epoch_shuffle', got {sampling!r}"
        )
    if b > count:
        raise ValueError(f"batch: expected b <= n = {count} without replacement, got {b}")
    per_epoch = count // b
    rows: list[IntArray] = []
    while len(rows) < t:
        perm = gen.permutation(count)
        rows.extend(perm[k * b : (k + 1) * b].astype(np.int64) for k in range(per_epoch))
    return np.array(rows[:t], dtype=np.int64).reshape(t, b)


def _indices(value: object, n: int) -> IntArray:
    raw = np.asarray(value)
    if raw.dtype.kind not in "iu":
        raise TypeError(f"indices: expected an integer array, got dtype {raw.dtype}")
    idx = raw.astype(np.int64)
    if idx.ndim == 1:
        idx = idx[:, None]
    if idx.ndim != 2 or idx.shape[1] < 1:
        raise ValueError(f"indices: expected shape (T,) or (T, b) with b >= 1, got {raw.shape}")
    if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= n):
        raise ValueError(
            f"indices: expected entries in [0, {n}), got range [{idx.min()}, {idx.max()}]"
        )
    return idx


def train(
    optimizer: Optimizer[Any, Any],
    features: ArrayLike,
    targets: ArrayLike,
    x0: ArrayLike,
    indices: ArrayLike,
    *,
    loss: LossName = "least_squares",
    per_sample: bool = False,
) -> FloatArray:
    """Run an optimizer on the empirical risk with a given index sequence; return the trajectory.

    At step ``t`` the gradient is the mean of the per-example gradients of the batch
    ``indices[t]`` (or, with ``per_sample=True``, their stack, for per-sample clipping).

    Args:
        optimizer: an :class:`~reference.optimizers.base.Optimizer` on ``(d,)`` parameters.
        features: ``(n, d)``.
        targets: ``(n,)``.
        x0: ``(d,)`` start.
        indices: ``(T,)`` or ``(T, b)`` integers in ``[0, n)``.
        loss: ``"least_squares"`` or ``"log"``.
        per_sample: pass ``(b, d)`` per-example gradients instead of their mean.

    Returns:
        ``(T + 1, d)`` iterates ``x_0, ..., x_T``.

    Raises:
        TypeError: non-numeric input, bad optimizer.
        ValueError: bad shapes, non-finite entries, indices out of range.

    Example:
        >>> from reference.optimizers import clipped_sgd
        >>> traj = train(clipped_sgd(learning_rate=0.5, tau=10.0), [[1.0]], [2.0], [0.0], [0, 0])
        >>> traj[:, 0].tolist()
        [0.0, 1.0, 1.5]

    References:
        Spec 05 §3 (common setup).
    """
    if not (hasattr(optimizer, "init") and hasattr(optimizer, "update")):
        raise TypeError(f"optimizer: expected an (init, update) pair, got {describe(optimizer)}")
    a = as_float_array("features", features, ndim=2)
    n, d = a.shape
    y = as_float_array("targets", targets, shape=(n,))
    x = as_float_array("x0", x0, shape=(d,))
    idx = _indices(indices, n)
    kind = _loss_name(loss)
    state = optimizer.init(x)
    out = np.empty((idx.shape[0] + 1, d))
    out[0] = x
    for t, batch in enumerate(idx):
        g = _gradients(x, a[batch], y[batch], kind)
        grad = g if per_sample else g.mean(axis=0)
        updates, state = optimizer.update(grad, state, x)
        x = apply_updates(x, np.asarray(updates, dtype=np.float64))
        out[t + 1] = x
    return out


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class CoupledRuns:
    """Outcome of coupled runs on ``S`` and ``S^(i)`` with shared index sequences.

    Attributes:
        deltas: ``(R,)`` read-only, ``||x_T - x_T'||`` per run.
        finals: ``(R, d)`` read-only, ``x_T`` on ``S``.
        finals_prime: ``(R, d)`` read-only, ``x_T'`` on ``S^(i)``.
        mean: mean of ``deltas`` (the empirical stability gap).
        stderr: standard error of that mean (0 for one run).
    """

    deltas: FloatArray
    finals: FloatArray
    finals_prime: FloatArray
    mean: float
    stderr: float


def coupled_runs(
    optimizer: Optimizer[Any, Any],
    features: ArrayLike,
    targets: ArrayLike,
    neighbour_features: ArrayLike,
    neighbour_targets: ArrayLike,
    x0: ArrayLike,
    *,
    steps: int,
    runs: int,
    rng: np.random.Generator,
    batch: int = 1,
    sampling: Sampling = "with_replacement",
    loss: LossName = "least_squares",
    per_sample: bool = False,
) -> CoupledRuns:
    """Run ``optimizer`` on ``S`` and on a neighbour ``S'`` with the same ``x_0`` and indices.

    Each of the ``R = runs`` repetitions draws a fresh index sequence and uses it for
    both samples (the coupling of spec 05 §4.3); ``delta_T = ||x_T - x_T'||``.

    Args:
        optimizer: optimizer on ``(d,)`` parameters.
        features: ``(n, d)`` of ``S``.
        targets: ``(n,)`` of ``S``.
        neighbour_features: ``(n, d)`` of ``S'``.
        neighbour_targets: ``(n,)`` of ``S'``.
        x0: ``(d,)``.
        steps: ``T >= 0``.
        runs: ``R >= 1``.
        rng: random generator (index sequences).
        batch: ``b >= 1``.
        sampling: see :func:`sample_indices`.
        loss: ``"least_squares"`` or ``"log"``.
        per_sample: per-example gradients (per-sample clipping).

    Returns:
        A :class:`CoupledRuns`.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, out-of-range arguments.

    References:
        Spec 05 §4.3 (coupling); Hardt, Recht and Singer (2016).
    """
    a = as_float_array("features", features, ndim=2)
    n, d = a.shape
    y = as_float_array("targets", targets, shape=(n,))
    a2 = as_float_array("neighbour_features", neighbour_features, shape=(n, d))
    y2 = as_float_array("neighbour_targets", neighbour_targets, shape=(n,))
    x = as_float_array("x0", x0, shape=(d,))
    t = require_int("steps", steps, minimum=0)
    r = require_int("runs", runs, minimum=1)
    gen = _rng(rng)
    finals = np.empty((r, d))
    finals2 = np.empty((r, d))
    for k in range(r):
        idx = sample_indices(n, t, batch=batch, sampling=sampling, rng=gen)
        finals[k] = train(optimizer, a, y, x, idx, loss=loss, per_sample=per_sample)[-1]
        finals2[k] = train(optimizer, a2, y2, x, idx, loss=loss, per_sample=per_sample)[-1]
    deltas = np.linalg.norm(finals - finals2, axis=1)
    stderr = float(np.std(deltas, ddof=1) / math.sqrt(r)) if r > 1 else 0.0
    return CoupledRuns(
        deltas=readonly(deltas),
        finals=readonly(finals),
        finals_prime=readonly(finals2),
        mean=float(deltas.mean()),
        stderr=stderr,
    )


def gradient_stability(
    x: ArrayLike,
    x_prime: ArrayLike,
    probe_features: ArrayLike,
    probe_targets: ArrayLike,
    *,
    loss: LossName = "least_squares",
) -> float:
    """``max_z ||grad f(x; z) - grad f(x'; z)||`` over probe examples ``z`` (stability in gradients).

    Args:
        x: ``(d,)`` output on ``S``.
        x_prime: ``(d,)`` output on ``S'``.
        probe_features: ``(m, d)``.
        probe_targets: ``(m,)``.
        loss: ``"least_squares"`` or ``"log"``.

    Returns:
        The maximum over the probes.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries.

    References:
        Spec 05 §2 (epsilon-uniform stability in gradients, Lei 2023 form).
    """
    a = as_float_array("probe_features", probe_features, ndim=2)
    m, d = a.shape
    y = as_float_array("probe_targets", probe_targets, shape=(m,))
    p = as_float_array("x", x, shape=(d,))
    q = as_float_array("x_prime", x_prime, shape=(d,))
    kind = _loss_name(loss)
    diff = _gradients(p, a, y, kind) - _gradients(q, a, y, kind)
    return float(np.max(np.linalg.norm(diff, axis=1)))


def gradient_generalization_gap(
    x: ArrayLike, features: ArrayLike, targets: ArrayLike, x_star: ArrayLike
) -> float:
    """``||grad F(x) - grad F_S(x)||`` on spec 05's E2 instance (closed-form population gradient).

    Instance: ``a`` uniform on ``{-1, +1}^d / sqrt(d)`` (``E a a^T = I/d``),
    ``y = a^T x_star + xi`` with ``xi`` centred and independent of ``a``, least squares;
    then ``grad F(x) = (x - x_star)/d`` and ``grad F_S(x) = (1/n) sum (a_i^T x - y_i) a_i``.

    Args:
        x: ``(d,)``.
        features: ``(n, d)`` drawn as above (not checked).
        targets: ``(n,)``.
        x_star: ``(d,)``.

    Returns:
        The Euclidean norm of the difference.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries.

    References:
        Spec 05 §2 (generalization measure, confirmed) and §4.4 E2.
    """
    a = as_float_array("features", features, ndim=2)
    n, d = a.shape
    y = as_float_array("targets", targets, shape=(n,))
    p = as_float_array("x", x, shape=(d,))
    star = as_float_array("x_star", x_star, shape=(d,))
    empirical = _gradients(p, a, y, "least_squares").mean(axis=0)
    return float(np.linalg.norm((p - star) / d - empirical))


# --------------------------------------------------------------------------- stability bounds
def _bound_args(
    n: int, steps: int, learning_rate: float, tau: float, smoothness: float
) -> tuple[int, int, float, float, float]:
    return (
        require_int("n", n, minimum=1),
        require_int("steps", steps, minimum=0),
        require_positive("learning_rate", learning_rate, allow_zero=True),
        _clip_tau("tau", tau),
        require_positive("smoothness", smoothness, allow_zero=True),
    )


def _growth(eta: float, lipschitz: float, steps: int) -> float:
    """``sum_{t<T} prod_{s>t} (1 + eta L) * eta = ((1 + eta L)^T - 1) / L`` (limit ``eta T``)."""
    if lipschitz == 0.0 or eta == 0.0:
        return eta * steps
    return math.expm1(steps * math.log1p(eta * lipschitz)) / lipschitz


def clipped_sgd_stability_bound(
    *, n: int, steps: int, learning_rate: float, tau: float, smoothness: float
) -> float:
    """S1/S2 (derived): ``E delta_T <= (2 tau / (n L)) ((1 + eta L)^T - 1)`` for clipped SGD.

    Coupled runs on neighbouring samples (same ``x_0``, same indices): a step on a shared
    example expands the distance by at most ``1 + eta L`` (clip is 1-Lipschitz), a step
    on the replaced example adds at most ``2 eta tau``.  The limit ``L -> 0`` is
    ``2 eta tau T / n``.  Also valid for per-sample clipping with mini-batches (S2).
    Stability in gradients is at most ``L`` times this bound.

    Symbols -> arguments: ``n``, ``T`` = ``steps``, ``eta`` = ``learning_rate``,
    ``tau``, ``L`` = ``smoothness``.

    Args:
        n: sample size ``>= 1``.
        steps: ``T >= 0``.
        learning_rate: ``eta >= 0`` (constant).
        tau: ``> 0``.
        smoothness: per-example smoothness ``L >= 0``.

    Returns:
        The bound on ``E ||x_T - x_T'||``.

    Raises:
        TypeError: non-real arguments.
        ValueError: out-of-range arguments (``tau = inf`` gives ``inf``).

    Example:
        >>> round(clipped_sgd_stability_bound(n=20, steps=100, learning_rate=0.01, tau=1.0,
        ...                                   smoothness=1.0), 3)
        0.17

    References:
        Spec 05 §4.3, S1-S2 (derived here); Hardt, Recht, Singer (2016).
    """
    count, t, eta, level, lip = _bound_args(n, steps, learning_rate, tau, smoothness)
    return 2.0 * level / count * _growth(eta, lip, t)


def clip_average_stability_bound(
    *, n: int, steps: int, learning_rate: float, tau: float, smoothness: float, batch: int
) -> float:
    """S3 (derived): mini-batch clipped SGD, clip after averaging.

    ``E delta_T <= (2 tau p_b / L)((1 + eta L)^T - 1)`` with ``p_b = 1 - (1 - 1/n)^b``
    (probability that the replaced index is in a with-replacement batch of size ``b``).

    Args:
        n: ``>= 1``.
        steps: ``>= 0``.
        learning_rate: ``>= 0``.
        tau: ``> 0``.
        smoothness: ``>= 0``.
        batch: ``b >= 1``.

    Returns:
        The bound.

    Raises:
        TypeError: non-real arguments.
        ValueError: out-of-range arguments.

    Example:
        >>> clip_average_stability_bound(n=10, steps=5, learning_rate=0.1, tau=1.0,
        ...                              smoothness=0.0, batch=1) == 0.1
        True

    References:
        Spec 05 §4.3, S3 (derived here).
    """
    count, t, eta, level, lip = _bound_args(n, steps, learning_rate, tau, smoothness)
    b = require_int("batch", batch, minimum=1)
    p_b = -math.expm1(b * math.log1p(-1.0 / count)) if count > 1 else 1.0
    return 2.0 * level * p_b * _growth(eta, lip, t)


def momentum_stability_bound(
    *, n: int, steps: int, learning_rate: float, tau: float, smoothness: float, beta: float
) -> float:
    """S4 (derived): clipped SGD with momentum (clip before momentum), exact recursion.

    Iterates with equality ``mu_t = beta mu_{t-1} + (1 - beta)(L delta_t + 2 tau / n)``,
    ``delta_{t+1} = delta_t + eta mu_t`` from ``mu_{-1} = delta_0 = 0`` and returns
    ``delta_T``, an upper bound on ``E ||x_T - x_T'||``.  ``beta = 0`` gives S1.

    Args:
        n: ``>= 1``.
        steps: ``>= 0``.
        learning_rate: ``>= 0``.
        tau: ``> 0``.
        smoothness: ``>= 0``.
        beta: in [0, 1).

    Returns:
        The bound ``B_mom(T)``.

    Raises:
        TypeError: non-real arguments.
        ValueError: out-of-range arguments.

    Example:
        >>> b0 = momentum_stability_bound(n=20, steps=50, learning_rate=0.01, tau=1.0,
        ...                               smoothness=1.0, beta=0.0)
        >>> s1 = clipped_sgd_stability_bound(n=20, steps=50, learning_rate=0.01, tau=1.0,
        ...                                  smoothness=1.0)
        >>> abs(b0 - s1) < 1e-12
        True

    References:
        Spec 05 §4.3, S4 (derived here).
    """
    count, t, eta, level, lip = _bound_args(n, steps, learning_rate, tau, smoothness)
    if isinstance(beta, bool) or not isinstance(beta, int | float):
        raise TypeError(f"beta: expected a real number in [0, 1), got {describe(beta)}")
    b = float(beta)
    if not (0.0 <= b < 1.0):
        raise ValueError(f"beta: expected a number in [0, 1), got {b!r}")
    mu = 0.0
    delta = 0.0
    for _ in range(t):
        mu = b * mu + (1.0 - b) * (lip * delta + 2.0 * level / count)
        delta = delta + eta * mu
    return delta


def normalized_sgd_stability_bound(
    *, n: int, steps: int, learning_rate: float, smoothness: float, grad_lower: float
) -> float:
    """S5 (derived, under an extra assumption): normalized SGD.

    If ``||grad f(x; z)|| >= gamma > 0`` along both trajectories, then
    ``E delta_T <= (gamma / (n L))((1 + 2 eta L / gamma)^T - 1)``; always
    ``delta_T <= 2 eta T``.  Returns the smaller of the two.

    Args:
        n: ``>= 1``.
        steps: ``>= 0``.
        learning_rate: ``>= 0``.
        smoothness: ``L >= 0``.
        grad_lower: ``gamma > 0``.

    Returns:
        The bound.

    Raises:
        TypeError: non-real arguments.
        ValueError: out-of-range arguments.

    References:
        Spec 05 §4.3, S5 (derived here; the paper's treatment was not retrieved).
    """
    count = require_int("n", n, minimum=1)
    t = require_int("steps", steps, minimum=0)
    eta = require_positive("learning_rate", learning_rate, allow_zero=True)
    lip = require_positive("smoothness", smoothness, allow_zero=True)
    gam = _positive("grad_lower", grad_lower)
    trivial = 2.0 * eta * t
    if lip == 0.0 or eta == 0.0:
        return min(trivial, 2.0 * eta * t / count)
    # each shared step: factor 1 + 2 eta L / gamma; the replaced example adds <= 2 eta.
    factor = 2.0 * eta * lip / gam
    coupled = (2.0 * eta / count) * math.expm1(t * math.log1p(factor)) / factor
    return min(trivial, coupled)
