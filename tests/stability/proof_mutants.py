"""Mutant table of the stability theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from reference._arrays import FloatArray
from reference.optimizers import clipped_sgd
from reference.stability import (
    CoupledRuns,
    clip_average_stability_bound,
    clipped_sgd_stability_bound,
    coupled_runs,
    normalized_sgd_stability_bound,
    pareto_clipped_second_moment,
    pareto_moment,
    pareto_tail_excess,
    pareto_vectors,
    student_t_abs_moment,
    truncation_bounds,
)
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def pareto_moment_no_tail_factor(p: float, *, tail: float, scale: float = 1.0) -> float:
    """``x_m^p / (a - p)``: the factor ``a`` of the density dropped."""
    return pareto_moment(p, tail=tail, scale=scale) / tail


def pareto_tail_excess_over_a(tau: float, *, tail: float, scale: float = 1.0) -> float:
    """Divides by ``a`` instead of ``a - 1``."""
    return pareto_tail_excess(tau, tail=tail, scale=scale) * (tail - 1.0) / tail


def pareto_clipped_second_moment_no_tail(tau: float, *, tail: float, scale: float = 1.0) -> float:
    """Forgets the clipped tail ``tau^2 P(R > tau)`` (integrates ``r^2`` up to ``tau`` only)."""
    return float(
        pareto_clipped_second_moment(tau, tail=tail, scale=scale) - tau**2 * (scale / tau) ** tail
    )


def truncation_bounds_shifted(moment: float, p: float, tau: float) -> tuple[float, float]:
    """Exponents ``-p`` and ``1 - p`` (each one too small)."""
    bias, second = truncation_bounds(moment, p, tau)
    return bias / tau, second / tau


def student_t_no_scale(p: float, *, nu: float) -> float:
    """Forgets the ``nu^(p/2)`` scale factor."""
    return float(student_t_abs_moment(p, nu=nu) / nu ** (p / 2.0))


def heavy_tailed_mean_bound_sqrt_n(
    sigma: float, p: float, n: int, *, tau: float | None = None
) -> float:
    """The light-tailed rate ``sigma / sqrt(n)`` (ignores ``p < 2``)."""
    return sigma / math.sqrt(n)


def pareto_vectors_positive_directions(
    size: int, dim: int, *, tail: float, rng: np.random.Generator, scale: float = 1.0
) -> FloatArray:
    """Directions ``|z| / ||z||`` (not centred: the absolute value of the Gaussian taken)."""
    x = pareto_vectors(size, dim, tail=tail, rng=rng, scale=scale)
    out: FloatArray = np.abs(x)
    return out


def clipped_sgd_no_clip(**kwargs: Any) -> Any:
    """Never clips (``tau`` ignored): plain SGD."""
    return clipped_sgd(**{**kwargs, "tau": 1e300})


def coupled_runs_uncoupled(*args: Any, rng: np.random.Generator, **kwargs: Any) -> CoupledRuns:
    """Draws a separate index sequence for the neighbour run (the coupling lost)."""
    first = coupled_runs(*args, rng=rng, **kwargs)
    second = coupled_runs(*args, rng=rng, **kwargs)
    finals, finals_prime = first.finals, second.finals_prime
    deltas = np.linalg.norm(finals - finals_prime, axis=1)
    return dataclasses.replace(
        first, finals_prime=finals_prime, deltas=deltas, mean=float(deltas.mean())
    )


def clipped_sgd_bound_no_two(**kwargs: Any) -> float:
    """``tau/n (1 + eta L)^T``: the factor 2 of the two differing gradients dropped."""
    return clipped_sgd_stability_bound(**kwargs) / 2.0


def normalized_bound_no_two(
    *, n: int, steps: int, learning_rate: float, smoothness: float, grad_lower: float
) -> float:
    """S5 with ``1 + eta L / gamma`` per step: one differing gradient counted instead of two."""
    factor = learning_rate * smoothness / grad_lower
    return min(
        2.0 * learning_rate * steps,
        grad_lower / (n * smoothness) * ((1.0 + factor) ** steps - 1.0),
    )


def normalized_bound_no_n(
    *, n: int, steps: int, learning_rate: float, smoothness: float, grad_lower: float
) -> float:
    """S5 with ``1/n`` read as ``1/n²`` (the replaced example's draw probability squared)."""
    return (
        normalized_sgd_stability_bound(
            n=n,
            steps=steps,
            learning_rate=learning_rate,
            smoothness=smoothness,
            grad_lower=grad_lower,
        )
        / n
    )


# ------------------------------------------------------------------ issue 36: audit mutants
def clip_max_abs(vector: Any, tau: float) -> FloatArray:
    """Clips by the max-abs norm instead of the Euclidean one."""
    u = np.asarray(vector, dtype=np.float64)
    norm = float(np.max(np.abs(u)))
    return u if norm <= tau else u * (tau / norm)


def clip_coordinates(vector: Any, tau: float) -> FloatArray:
    """Clips each coordinate to ``[-tau, tau]`` (``np.clip``), not the vector."""
    return np.clip(np.asarray(vector, dtype=np.float64), -tau, tau)


def clip_to_sphere(vector: Any, tau: float) -> FloatArray:
    """Rescales to norm ``tau`` whatever the norm (a forgotten ``if``)."""
    u = np.asarray(vector, dtype=np.float64)
    if math.isinf(tau):
        return u
    return u * (tau / float(np.linalg.norm(u)))


def clip_squared_norm(vector: Any, tau: float) -> FloatArray:
    """Divides by ``||u||²`` instead of ``||u||`` (a dropped square root)."""
    u = np.asarray(vector, dtype=np.float64)
    norm = float(np.linalg.norm(u))
    return u if norm <= tau else u * (tau / norm**2)


def clip_spectral(vector: Any, tau: float) -> FloatArray:
    """Uses the spectral norm for matrices (the documented norm is Frobenius)."""
    u = np.asarray(vector, dtype=np.float64)
    norm = float(np.linalg.norm(u, 2)) if u.ndim == 2 else float(np.linalg.norm(u))
    return u if norm <= tau else u * (tau / norm)


def _sgd_variant(
    *,
    learning_rate: float = 0.01,
    tau: float = 1.0,
    momentum: float = 0.0,
    clip: str = "before",
    placement: str = "average",
    bug: str,
) -> Any:
    """A clipped SGD pair with one planted deviation from the documented recursions."""
    from reference.optimizers import Optimizer

    def clip_to(u: FloatArray) -> FloatArray:
        norm = float(np.linalg.norm(u))
        scale = tau / norm if bug == "normalised" else min(1.0, tau / norm)
        out: FloatArray = u * scale if norm > 0 else u
        return out

    def init(params: Any) -> Any:
        return np.zeros(np.shape(params))

    def update(grads: Any, state: Any, params: Any = None) -> Any:
        g = np.asarray(grads, dtype=np.float64)
        if placement == "per_sample":
            step = (
                clip_to(g.mean(axis=0))
                if bug == "clip of the mean"
                else np.mean([clip_to(r) for r in g], axis=0)
            )
            return -learning_rate * step, state
        weight = 1.0 if bug == "no 1 - beta" else 1.0 - momentum
        if clip == "before" or bug == "always before":
            m = momentum * state + weight * clip_to(g)
            return -learning_rate * m, m
        m = momentum * state + weight * g
        return -learning_rate * clip_to(m), m

    return Optimizer(init=init, update=update)


def clipped_sgd_no_one_minus_beta(**kwargs: Any) -> Any:
    """``m_t = beta m_{t-1} + clip(g_t)``: the (1 - beta) weight dropped."""
    return _sgd_variant(bug="no 1 - beta", **kwargs)


def clipped_sgd_always_before(**kwargs: Any) -> Any:
    """``clip="after"`` run as ``"before"`` (the clipped gradient enters the momentum)."""
    return _sgd_variant(bug="always before", **kwargs)


def clipped_sgd_clip_of_mean(**kwargs: Any) -> Any:
    """Per-sample placement that clips the batch mean instead of each sample."""
    return _sgd_variant(bug="clip of the mean", **kwargs)


def clipped_sgd_normalised(**kwargs: Any) -> Any:
    """``u tau/||u||`` without ``min(1, .)``: small gradients scaled up (normalised SGD)."""
    return _sgd_variant(bug="normalised", **kwargs)


def clip_average_bound_union(
    *, n: int, steps: int, learning_rate: float, tau: float, smoothness: float, batch: int
) -> float:
    """S3 with the union bound ``min(1, b/n)`` for ``p_b = 1 - (1 - 1/n)^b`` (still a valid
    bound, not the documented one)."""
    exact = clip_average_stability_bound(
        n=n, steps=steps, learning_rate=learning_rate, tau=tau, smoothness=smoothness, batch=batch
    )
    p_b = 1.0 - (1.0 - 1.0 / n) ** batch
    return exact / p_b * min(1.0, batch / n)


def momentum_bound_no_damping(
    *, n: int, steps: int, learning_rate: float, tau: float, smoothness: float, beta: float
) -> float:
    """S4 with ``mu_t = beta mu_{t-1} + L delta_t + 2 tau / n`` (the ``1 - beta`` dropped)."""
    mu = delta = 0.0
    for _ in range(steps):
        mu = beta * mu + smoothness * delta + 2.0 * tau / n
        delta += learning_rate * mu
    return delta


def _m(name: str, why: str, algorithm: str, target: str, catches: tuple[str, ...]) -> ProofMutant:
    return ProofMutant(
        family="stability",
        name=name,
        why=why,
        algorithm=algorithm,
        target=f"{__name__}:{target}",
        catches=catches,
    )


_R = "reference.stability:"
MUTANTS = (
    _m(
        "pareto_moment: no a",
        "the density's factor a dropped",
        _R + "pareto_moment",
        "pareto_moment_no_tail_factor",
        ("stability.pareto_closed_forms",),
    ),
    _m(
        "pareto_tail_excess: / a",
        "a for a - 1",
        _R + "pareto_tail_excess",
        "pareto_tail_excess_over_a",
        ("stability.pareto_closed_forms",),
    ),
    _m(
        "clipped second moment: no tail",
        "the clipped mass tau^2 P(R > tau) forgotten",
        _R + "pareto_clipped_second_moment",
        "pareto_clipped_second_moment_no_tail",
        ("stability.pareto_closed_forms",),
    ),
    _m(
        "truncation_bounds: exponents - 1",
        "tau^(-p), tau^(1-p) for tau^(1-p), tau^(2-p)",
        _R + "truncation_bounds",
        "truncation_bounds_shifted",
        ("stability.truncation_lemma",),
    ),
    _m(
        "student_t: no nu^(p/2)",
        "the scale factor forgotten",
        _R + "student_t_abs_moment",
        "student_t_no_scale",
        ("stability.student_t_moment",),
    ),
    _m(
        "mean bound: sigma/sqrt(n)",
        "the light-tailed rate used for p < 2",
        _R + "heavy_tailed_mean_bound",
        "heavy_tailed_mean_bound_sqrt_n",
        ("stability.heavy_tailed_mean",),
    ),
    _m(
        "pareto_vectors: |z| directions",
        "directions not centred",
        _R + "pareto_vectors",
        "pareto_vectors_positive_directions",
        ("stability.heavy_tailed_mean",),
    ),
    _m(
        "clipped_sgd: no clipping",
        "tau ignored",
        "reference.optimizers:clipped_sgd",
        "clipped_sgd_no_clip",
        ("stability.clipped_sgd_coupling",),
    ),
    _m(
        "coupled_runs: uncoupled",
        "separate index sequences for S and S'",
        _R + "coupled_runs",
        "coupled_runs_uncoupled",
        ("stability.clipped_sgd_coupling",),
    ),
    _m(
        "S1 bound: no factor 2",
        "one differing gradient counted instead of two",
        _R + "clipped_sgd_stability_bound",
        "clipped_sgd_bound_no_two",
        ("stability.clipped_sgd_coupling",),
    ),
    _m(
        "S5 bound: no factor 2",
        "one differing gradient counted instead of two in the growth factor",
        _R + "normalized_sgd_stability_bound",
        "normalized_bound_no_two",
        ("stability.normalized_sgd_coupling",),
    ),
    _m(
        "S5 bound: 1/n²",
        "the draw probability of the replaced example squared",
        _R + "normalized_sgd_stability_bound",
        "normalized_bound_no_n",
        ("stability.normalized_sgd_coupling",),
    ),
    # issue 36 audit: stability.clip had no theorem check (0 of 5 caught before, 5 after)
    _m(
        "clip: max-abs norm",
        "the wrong norm",
        _R + "clip",
        "clip_max_abs",
        ("stability.clip_projection",),
    ),
    _m(
        "clip: per coordinate",
        "np.clip for the ball projection",
        _R + "clip",
        "clip_coordinates",
        ("stability.clip_projection",),
    ),
    _m(
        "clip: to the sphere",
        "the norm test forgotten",
        _R + "clip",
        "clip_to_sphere",
        ("stability.clip_projection",),
    ),
    _m(
        "clip: tau/||u||²",
        "a dropped square root",
        _R + "clip",
        "clip_squared_norm",
        ("stability.clip_projection",),
    ),
    _m(
        "clip: spectral norm",
        "the spectral for the Frobenius norm on matrices",
        _R + "clip",
        "clip_spectral",
        ("stability.clip_projection",),
    ),
    ProofMutant(
        family="stability",
        name="clipped_sgd: no 1 - beta",
        why="momentum without the (1 - beta) weight",
        algorithm="reference.optimizers:clipped_sgd",
        target=f"{__name__}:clipped_sgd_no_one_minus_beta",
        catches=("stability.clipped_sgd_recursion",),
    ),
    ProofMutant(
        family="stability",
        name="clipped_sgd: after as before",
        why="clip='after' run as 'before'",
        algorithm="reference.optimizers:clipped_sgd",
        target=f"{__name__}:clipped_sgd_always_before",
        catches=("stability.clipped_sgd_recursion",),
    ),
    ProofMutant(
        family="stability",
        name="clipped_sgd: clip of the mean",
        why="per-sample placement clips the batch mean",
        algorithm="reference.optimizers:clipped_sgd",
        target=f"{__name__}:clipped_sgd_clip_of_mean",
        catches=("stability.clipped_sgd_recursion",),
    ),
    ProofMutant(
        family="stability",
        name="clipped_sgd: normalised",
        why="min(1, tau/||u||) read as tau/||u||",
        algorithm="reference.optimizers:clipped_sgd",
        target=f"{__name__}:clipped_sgd_normalised",
        catches=("stability.clipped_sgd_recursion",),
    ),
    _m(
        "S3 bound: union bound",
        "p_b = 1 - (1 - 1/n)^b replaced by min(1, b/n)",
        _R + "clip_average_stability_bound",
        "clip_average_bound_union",
        ("stability.bound_formulas",),
    ),
    _m(
        "S4 bound: no 1 - beta",
        "the momentum recursion without its (1 - beta) factor",
        _R + "momentum_stability_bound",
        "momentum_bound_no_damping",
        ("stability.bound_formulas",),
    ),
)
