"""Hand-made broken optimizers, oracles and helpers: each suite must reject each one.

Importable (``tests.optimizers.mutants:ascent_adam``) so that the CLI can target them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from reference import optimizers as ref
from reference._arrays import FloatArray
from reference.optimizers.base import Optimizer
from reference.optimizers.polar import newton_schulz, polar

# ------------------------------------------------------------------ optimizers.first_order


def ascent_adam() -> Optimizer[Any, Any]:
    """Mutant: Adam with the sign of the update flipped (gradient ascent)."""
    base = ref.adam(learning_rate=0.05)

    def update(grads: Any, state: Any, params: Any = None) -> tuple[Any, Any]:
        u, s = base.update(grads, state, params)
        return -np.asarray(u), s

    return Optimizer(init=base.init, update=update)


def inplace_sgd() -> Optimizer[Any, Any]:
    """Mutant: SGD that also writes the step into ``params`` in place."""

    def update(grads: Any, state: Any, params: Any = None) -> tuple[Any, Any]:
        step = -0.05 * np.asarray(grads, dtype=np.float64)
        if isinstance(params, np.ndarray):
            params += step
        return step, state

    return Optimizer(init=lambda p: 0, update=update)


def counting_sgd() -> Optimizer[Any, Any]:
    """Mutant: the step size shrinks with a hidden call counter (not a function of its inputs)."""
    calls = itertools.count(1)

    def update(grads: Any, state: Any, params: Any = None) -> tuple[Any, Any]:
        return -0.05 / next(calls) * np.asarray(grads, dtype=np.float64), state

    return Optimizer(init=lambda p: 0, update=update)


def float32_lion() -> Optimizer[Any, Any]:
    """Mutant: Lion returning float32 updates (and a list for blocks)."""
    base = ref.lion(learning_rate=0.01)

    def update(grads: Any, state: Any, params: Any = None) -> tuple[Any, Any]:
        u, s = base.update(grads, state, params)
        if isinstance(u, tuple):
            return [b.astype(np.float32) for b in u], s
        return u.astype(np.float32), s

    return Optimizer(init=base.init, update=update)


def unvalidated_sgd() -> Optimizer[Any, Any]:
    """Mutant: plain SGD without input validation (NaN gradients pass through)."""

    def update(grads: Any, state: Any, params: Any = None) -> tuple[Any, Any]:
        return -0.05 * np.asarray(grads, dtype=np.float64), state

    return Optimizer(init=lambda p: 0, update=update)


# ------------------------------------------------------------------------- optimizers.lion
def _lion_like(direction: Callable[[FloatArray], FloatArray], mode: str) -> Callable[..., Any]:
    def factory(*, learning_rate: float = 1e-4, weight_decay: float = 0.0) -> Optimizer[Any, Any]:
        eta, lam = learning_rate, weight_decay

        def init(params: Any) -> Any:
            return np.zeros_like(np.asarray(params, dtype=np.float64))

        def update(grads: Any, state: Any, params: Any = None) -> tuple[Any, Any]:
            g = np.asarray(grads, dtype=np.float64)
            x = np.asarray(params, dtype=np.float64)
            c = 0.9 * state + 0.1 * g
            m = 0.99 * state + 0.01 * g
            if mode == "decay_after":
                new = (1 - eta * lam) * (x - eta * direction(c))
                return new - x, m
            if mode == "no_decay":
                return -eta * direction(c), m
            if mode == "momentum_first":
                return -eta * lam * x - eta * direction(m), m
            return -eta * lam * x - eta * direction(c), m

        return Optimizer(init=init, update=update)

    return factory


lion_decay_after = _lion_like(np.sign, "decay_after")
"""Mutant: weight decay applied after the sign step."""
lion_no_decay = _lion_like(np.sign, "no_decay")
"""Mutant: weight decay ignored."""
lion_soft_sign = _lion_like(lambda c: c / (np.abs(c) + 1e-3), "ok")
"""Mutant: a smoothed sign ``c / (|c| + 1e-3)``."""
lion_momentum_first = _lion_like(np.sign, "momentum_first")
"""Mutant: the sign of the updated ``beta2`` momentum instead of the ``beta1`` mix."""


# ------------------------------------------------------------------------- optimizers.muon
def _muon_like(orth: Callable[[FloatArray], FloatArray], decay: bool = True) -> Callable[..., Any]:
    def factory(*, learning_rate: float = 0.02, weight_decay: float = 0.0) -> Optimizer[Any, Any]:
        eta, lam, mu = learning_rate, (weight_decay if decay else 0.0), 0.95

        def init(params: Any) -> Any:
            return np.zeros_like(np.asarray(params, dtype=np.float64))

        def update(grads: Any, state: Any, params: Any = None) -> tuple[Any, Any]:
            g = np.asarray(grads, dtype=np.float64)
            w = np.asarray(params, dtype=np.float64)
            buf = mu * state + (1 - mu) * g
            u = (1 - mu) * g + mu * buf
            s = math.sqrt(max(1.0, w.shape[0] / w.shape[1]))
            return -eta * lam * w - eta * s * orth(u), buf

        return Optimizer(init=init, update=update)

    return factory


muon_no_decay = _muon_like(newton_schulz, decay=False)
"""Mutant: weight decay ignored."""
muon_spectral_normalised = _muon_like(lambda u: u / max(float(np.linalg.norm(u, 2)), 1e-300))
"""Mutant: ``U / ||U||_2`` instead of orthogonalisation."""
muon_elementwise_sign = _muon_like(np.sign)
"""Mutant: elementwise sign (Lion-like) instead of orthogonalisation."""
muon_big_guard = _muon_like(lambda u: newton_schulz(u, eps=0.5))
"""Mutant: the Newton-Schulz guard 0.5 instead of 1e-7."""


def muon_heavy_ball(
    *, learning_rate: float = 0.02, weight_decay: float = 0.0, momentum: float = 0.95
) -> Optimizer[Any, Any]:
    """Mutant: heavy-ball momentum (``U = B``) where the default variant is Nesterov's."""
    return ref.muon(
        learning_rate=learning_rate, weight_decay=weight_decay, momentum=momentum, nesterov=False
    )


# ----------------------------------------------------------------------- optimizers.fw_gap
def _dual(g: FloatArray, which: str) -> float:
    return ref.dual_norm(g, which)  # type: ignore[arg-type]


def gap_no_radius(grad: Any, x: Any, radius: float, which: str) -> float:
    """Mutant: the radius is dropped, ``<g, x> + ||g||_*``."""
    g = np.asarray(grad, dtype=np.float64)
    return float(np.vdot(g, x)) + _dual(g, which)


def gap_sign_flip(grad: Any, x: Any, radius: float, which: str) -> float:
    """Mutant: ``<g, v - x>`` instead of ``<g, x - v>``."""
    g = np.asarray(grad, dtype=np.float64)
    return -float(np.vdot(g, x)) - radius * _dual(g, which)


def gap_wrong_dual(grad: Any, x: Any, radius: float, which: str) -> float:
    """Mutant: the Euclidean norm used as the dual norm for every ball."""
    g = np.asarray(grad, dtype=np.float64)
    return float(np.vdot(g, x)) + radius * float(np.linalg.norm(g))


# ---------------------------------------------------------------- optimizers.newton_schulz
def ns_cubic(matrix: Any) -> FloatArray:
    """Mutant: the classic cubic iteration ``(1.5, -0.5, 0)``."""
    return newton_schulz(matrix, coefficients=(1.5, -0.5, 0.0))


def ns_four_steps(matrix: Any) -> FloatArray:
    """Mutant: four iterations instead of five."""
    return newton_schulz(matrix, steps=4)


def ns_no_normalisation(matrix: Any) -> FloatArray:
    """Mutant: the quintic without the Frobenius normalisation (overflows for large inputs)."""
    x = np.asarray(matrix, dtype=np.float64)
    a, b, c = ref.NS_COEFFICIENTS
    with np.errstate(all="ignore"):
        for _ in range(5):
            gram = x @ x.T
            x = a * x + (b * gram + c * gram @ gram) @ x
    return np.nan_to_num(x)


def ns_row_normalised(matrix: Any) -> FloatArray:
    """Mutant: rows normalised to unit norm before the iteration (not transpose-symmetric)."""
    x = np.asarray(matrix, dtype=np.float64)
    rows = np.linalg.norm(x, axis=1, keepdims=True)
    rows[rows == 0] = 1.0
    return newton_schulz(x / rows)


# ------------------------------------------------------------------------ optimizers.polar
def polar_via_ns(matrix: Any) -> FloatArray:
    """Mutant: Newton-Schulz instead of the exact factor."""
    return newton_schulz(matrix)


def polar_negated(matrix: Any) -> FloatArray:
    """Mutant: ``-U V^T`` (the LMO's sign leaked into the factor)."""
    return -polar(matrix)


def polar_full_rank(matrix: Any) -> FloatArray:
    """Mutant: keeps all ``min(m, n)`` singular vectors, also those of zero singular values."""
    u, _, vt = np.linalg.svd(np.asarray(matrix, dtype=np.float64), full_matrices=False)
    out: FloatArray = u @ vt
    return out


def polar_spectral_scaled(matrix: Any) -> FloatArray:
    """Mutant: ``G / ||G||_2``."""
    g = np.asarray(matrix, dtype=np.float64)
    n = float(np.linalg.norm(g, 2))
    return g / n if n > 0 else g


# -------------------------------------------------------------------------- optimizers.lgi
def _slopes(
    f: Callable[[Any], float],
    theta: FloatArray,
    base: float,
    k: int,
    sigma: float,
    rng: np.random.Generator,
    normalise: bool = True,
) -> FloatArray:
    out = np.empty(k)
    for i in range(k):
        z = rng.standard_normal(theta.shape)
        u = z / (np.linalg.norm(z) + 1e-12) if normalise else z
        out[i] = (f(theta + sigma * u) - base) / sigma
    return out


def lgi_k1_one(f: Any, theta: Any, base: float, *, k: int, sigma: float, rng: Any) -> float:
    """Mutant: returns 1 for ``k = 1`` (no special case for a single probe)."""
    if k == 1:
        return 1.0
    return ref.lgi(f, theta, base, k=k, sigma=sigma, rng=rng)


def lgi_mean_denominator(
    f: Any, theta: Any, base: float, *, k: int, sigma: float, rng: Any
) -> float:
    """Mutant: ``s2 / (mean(D)^2 + zeta)`` instead of ``s2 / (mean(D^2) + zeta)``."""
    d = _slopes(f, np.asarray(theta, dtype=np.float64), base, k, sigma, rng)
    s2 = float(np.var(d, ddof=1)) if k > 1 else 0.0
    return s2 / (float(np.mean(d)) ** 2 + 1e-6)


def lgi_no_base(f: Any, theta: Any, base: float, *, k: int, sigma: float, rng: Any) -> float:
    """Mutant: forward differences without subtracting ``f(theta)``."""
    return ref.lgi(f, theta, 0.0, k=k, sigma=sigma, rng=rng)


def lgi_gaussian_directions(
    f: Any, theta: Any, base: float, *, k: int, sigma: float, rng: Any
) -> float:
    """Mutant: unnormalised Gaussian directions (the third-party JVP-style estimator)."""
    d = _slopes(f, np.asarray(theta, dtype=np.float64), base, k, sigma, rng, normalise=False)
    if k == 1:
        return 0.0
    return float(np.var(d, ddof=1)) / (float(np.mean(d * d)) + 1e-6)


def lgi_in_place(f: Any, theta: Any, base: float, *, k: int, sigma: float, rng: Any) -> float:
    """Mutant: probes by adding to ``theta`` in place and never restoring it."""
    t = theta if isinstance(theta, np.ndarray) else np.asarray(theta, dtype=np.float64)
    d = np.empty(k)
    for i in range(k):
        z = rng.standard_normal(t.shape)
        t += sigma * z / (np.linalg.norm(z) + 1e-12)
        d[i] = (f(t) - base) / sigma
    if k == 1:
        return 0.0
    return float(np.var(d, ddof=1)) / (float(np.mean(d * d)) + 1e-6)


def lgi_central(f: Any, theta: Any, base: float, *, k: int, sigma: float, rng: Any) -> float:
    """Mutant: central differences (2k evaluations; blind to V-kinks)."""
    t = np.asarray(theta, dtype=np.float64)
    d = np.empty(k)
    for i in range(k):
        z = rng.standard_normal(t.shape)
        u = z / (np.linalg.norm(z) + 1e-12)
        d[i] = (f(t + sigma * u) - f(t - sigma * u)) / (2 * sigma)
    if k == 1:
        return 0.0
    return float(np.var(d, ddof=1)) / (float(np.mean(d * d)) + 1e-6)


def lgi_ddof0(f: Any, theta: Any, base: float, *, k: int, sigma: float, rng: Any) -> float:
    """Mutant: the population variance (``ddof = 0``, the authors' earlier demo) where the
    default variant is ``ddof = 1``."""
    return ref.lgi(f, theta, base, k=k, sigma=sigma, rng=rng, ddof=0)


def lgi_global_directions(
    f: Any, theta: Any, base: float, *, k: int, sigma: float, rng: Any
) -> float:
    """Mutant: one unit direction over all blocks where the default normalises per block."""
    return ref.lgi(f, theta, base, k=k, sigma=sigma, rng=rng, direction_mode="global")


# ----------------------------------------------------------------------- optimizers.s_adam
def _sadam_like(mode: str) -> Callable[..., Any]:
    def factory(
        *,
        learning_rate: float = 1e-3,
        weight_decay: float = 1e-2,
        eps: float = 1e-8,
        lgi_lambda: float = 2.0,
    ) -> Optimizer[Any, Any]:
        lr, wd = learning_rate, weight_decay

        def init(params: Any) -> Any:
            z = np.zeros_like(np.asarray(params, dtype=np.float64))
            return (0, z, z)

        def update(
            grads: Any, state: Any, params: Any = None, *, loss: Any, rng: Any
        ) -> tuple[Any, Any]:
            t, m, v = state
            t += 1
            g = np.asarray(grads, dtype=np.float64)
            x = np.asarray(params, dtype=np.float64)
            rho = 0.0
            if lgi_lambda > 0:
                rho = ref.lgi(loss, x, loss(x), k=2, sigma=0.01, rng=rng)
            alpha = math.exp(-lgi_lambda * rho)
            if mode == "accelerator":
                alpha = 1.0 / alpha
            gm = alpha * g if mode == "brake_on_moments" else g
            m = 0.9 * m + 0.1 * gm
            v = 0.999 * v + 0.001 * g * g
            if mode == "brake_on_moments":
                alpha = 1.0
            if mode == "eps_outside":
                step = lr / (1 - 0.9**t) * m / (np.sqrt(v / (1 - 0.999**t)) + eps)
            else:
                step = lr * math.sqrt(1 - 0.999**t) / (1 - 0.9**t) * m / (np.sqrt(v) + eps)
            return -lr * wd * x - alpha * step, (t, m, v)

        return Optimizer(init=init, update=update)

    return factory


sadam_eps_outside = _sadam_like("eps_outside")
"""Mutant: torch-AdamW eps placement (outside the bias-corrected root)."""
sadam_brake_on_moments = _sadam_like("brake_on_moments")
"""Mutant: the brake damps the gradient entering the first moment instead of the step."""
sadam_accelerator = _sadam_like("accelerator")
"""Mutant: ``exp(+lambda rho)``: the brake accelerates."""


# --------------------------------------------------------------------------- stability.clip
def clip_coordinates(vector: Any, tau: float) -> FloatArray:
    """Mutant: coordinate-wise clipping ``np.clip(u, -tau, tau)`` (not the Euclidean projection)."""
    return np.clip(np.asarray(vector, dtype=np.float64), -tau, tau)


def clip_always_normalise(vector: Any, tau: float) -> FloatArray:
    """Mutant: always rescales to norm ``tau`` (normalisation, not clipping)."""
    u = np.asarray(vector, dtype=np.float64)
    n = float(np.linalg.norm(u))
    return u * (tau / n) if n > 0 else u


def clip_drop_large(vector: Any, tau: float) -> FloatArray:
    """Mutant: gradients above the level are dropped (set to 0): discontinuous."""
    u = np.asarray(vector, dtype=np.float64)
    return u if float(np.linalg.norm(u)) <= tau else np.zeros_like(u)


def clip_shrink(vector: Any, tau: float) -> FloatArray:
    """Mutant: smooth shrinkage ``u tau / (||u|| + tau)`` (never the identity, not idempotent)."""
    u = np.asarray(vector, dtype=np.float64)
    return u * (tau / (float(np.linalg.norm(u)) + tau))


def clip_overshoot(vector: Any, tau: float) -> FloatArray:
    """Mutant: ``u tau / ||u||^2 * tau`` scaling of large vectors (exceeds the ball)."""
    u = np.asarray(vector, dtype=np.float64)
    n = float(np.linalg.norm(u))
    return u if n <= tau else u * (2.0 * tau / n)


# ------------------------------------------------------------------ stability.coupling_bound
def bound_missing_two(
    *, n: int, steps: int, learning_rate: float, tau: float, smoothness: float
) -> float:
    """Mutant: the factor 2 (both clipped vectors have norm <= tau) is forgotten."""
    return 0.5 * ref_bound(n, steps, learning_rate, tau, smoothness)


def bound_no_minus_one(
    *, n: int, steps: int, learning_rate: float, tau: float, smoothness: float
) -> float:
    """Mutant: ``(2 tau / (n L)) (1 + eta L)^T`` (the ``- 1`` dropped; L = 0 gives eta T)."""
    if smoothness == 0:
        return 2 * learning_rate * tau * (steps + 1) / n
    return 2 * tau / (n * smoothness) * (1 + learning_rate * smoothness) ** steps


def bound_times_n(
    *, n: int, steps: int, learning_rate: float, tau: float, smoothness: float
) -> float:
    """Mutant: multiplies by ``n`` instead of dividing."""
    return ref_bound(n, steps, learning_rate, tau, smoothness) * n * n


def ref_bound(n: int, steps: int, learning_rate: float, tau: float, smoothness: float) -> float:
    """The reference S1 bound (helper of the bound mutants)."""
    from reference.stability import clipped_sgd_stability_bound

    return clipped_sgd_stability_bound(
        n=n, steps=steps, learning_rate=learning_rate, tau=tau, smoothness=smoothness
    )
