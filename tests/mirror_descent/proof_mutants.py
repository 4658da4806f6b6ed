"""Mutant table of the mirror_descent theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from reference import mirror_descent as md
from reference._arrays import FloatArray
from reference.mirror_descent import composite as mdc
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class _DoubledHessian(md.RidgeProblem):
    """A ridge whose Hessian is that of ``2f`` (φ'' doubled)."""

    def hessian(self, x: FloatArray) -> FloatArray:
        return 2.0 * md.RidgeProblem.hessian(self, x)

    def hessian_operator_norm(
        self, x: FloatArray, norm: md.NormName = "l2", *, p: float = 2.0
    ) -> float:
        return 2.0 * md.RidgeProblem.hessian_operator_norm(self, x, norm, p=p)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class _DoubledGradient(md.RidgeProblem):
    """A ridge whose gradient is that of ``2f`` (φ' doubled)."""

    def grad(self, x: FloatArray) -> FloatArray:
        return 2.0 * md.RidgeProblem.grad(self, x)


def doubled_hessian_quartic(c: Any) -> md.RidgeProblem:
    """``quartic_ridge`` with φ'' = 6u² (the Hessian of 2f)."""
    r = md.quartic_ridge(c)
    return _DoubledHessian(kind=r.kind, c=r.c, b=r.b)


def doubled_gradient_quartic(c: Any) -> md.RidgeProblem:
    """``quartic_ridge`` with φ' = 2u³ (the gradient of 2f)."""
    r = md.quartic_ridge(c)
    return _DoubledGradient(kind=r.kind, c=r.c, b=r.b)


def lazy_md(grad: Any, x0: Any, **kwargs: Any) -> md.MirrorDescentResult:
    """Mirror descent that stops after 2 steps whatever ``max_iter`` says."""
    kwargs["max_iter"] = 2
    return md.mirror_descent(grad, x0, **kwargs)


def plain_accelerated(
    grad: Any, x0: Any, *, lipschitz: float, max_iter: int, **kwargs: Any
) -> md.MirrorDescentResult:
    """ "Accelerated" MD that runs plain MD with ``η = 1/L`` (no momentum)."""
    kwargs.pop("step_size", None)
    return md.mirror_descent(
        grad,
        x0,
        step_size=1.0 / lipschitz,
        max_iter=max_iter,
        mirror=kwargs.get("mirror", "euclidean"),
    )


def ascent_mirror_prox(grad: Any, x0: Any, **kwargs: Any) -> md.MirrorDescentResult:
    """Mirror prox with the gradient's sign flipped."""
    return md.mirror_prox(lambda x: -np.asarray(grad(x)), x0, **kwargs)


def ascent_optimistic(grad: Any, x0: Any, **kwargs: Any) -> md.MirrorDescentResult:
    """Optimistic MD with the gradient's sign flipped."""
    return md.optimistic_mirror_descent(lambda x: -np.asarray(grad(x)), x0, **kwargs)


def plain_factor_constants(l_fn: Any, delta0: float, *, accelerated: bool = False) -> Any:
    """``effective_constants`` forgetting the accelerated factor (``l(2G)`` for ``l(4G)``)."""
    return md.effective_constants(l_fn, delta0, accelerated=False)


def composite_ignoring_h(grad: Any, x0: Any, **kwargs: Any) -> mdc.CompositeResult:
    """Composite MD that drops the regulariser (plain MD on ``f``)."""
    kwargs["regularizer"] = mdc.Regularizer()
    return mdc.composite_mirror_descent(grad, x0, **kwargs)


# ------------------------------------------------------------------ issue 36: audit mutants
# Plausible wrong implementations written before the checks were tightened (issue 36, item 5):
# the accelerated scheme's three sequences are where real bugs hide.


def _accelerated(
    grad: Any,
    x0: Any,
    *,
    lipschitz: float,
    max_iter: int,
    step_size: float = 1.0,
    mirror: md.MirrorName = "euclidean",
    theta: Any = None,
    eta_t: Any = None,
    output: str = "xbar",
    **_: Any,
) -> md.MirrorDescentResult:
    """The three-sequence scheme with the weight ``theta(t)``, the step ``eta_t(t)`` and the
    returned sequence as parameters (the shipped scheme: ``2/(t+1)``, ``η(t+1)/(2L)``, xbar)."""
    th = theta or (lambda t: 2.0 / (t + 1.0))
    et = eta_t or (lambda t: step_size * (t + 1.0) / (2.0 * lipschitz))
    x = np.asarray(x0, dtype=np.float64)
    xbar, z = x.copy(), x.copy()
    iterates = [xbar.copy()]
    for t in range(1, max_iter + 1):
        y = (1.0 - th(t)) * xbar + th(t) * z
        z = md.prox_step(z, np.asarray(grad(y), dtype=np.float64), et(t), mirror=mirror)
        xbar = (1.0 - th(t)) * xbar + th(t) * z
        iterates.append(xbar.copy())
    out = xbar if output == "xbar" else z
    return md.MirrorDescentResult(
        x=out,
        x_last=z,
        x_average=xbar,
        iterates=np.array(iterates),
        gradient_norms=np.zeros(max_iter),
        iterations=max_iter,
        converged=False,
        stationarity=float("inf"),
    )


def accelerated_theta_one(grad: Any, x0: Any, **kwargs: Any) -> md.MirrorDescentResult:
    """Momentum weight ``θ_t = 1/(t+1)`` (a running mean) instead of ``2/(t+1)``."""
    return _accelerated(grad, x0, theta=lambda t: 1.0 / (t + 1.0), **kwargs)


def accelerated_constant_step(grad: Any, x0: Any, **kwargs: Any) -> md.MirrorDescentResult:
    """The growing step ``η(t+1)/(2L)`` forgotten: ``η/L`` at every step."""
    lip, eta = kwargs["lipschitz"], kwargs.get("step_size", 1.0)
    return _accelerated(grad, x0, eta_t=lambda t: eta / lip, **kwargs)


def accelerated_half_step(grad: Any, x0: Any, **kwargs: Any) -> md.MirrorDescentResult:
    """A dropped factor: ``η(t+1)/(4L)`` (the 2 of ``θ`` counted twice)."""
    lip, eta = kwargs["lipschitz"], kwargs.get("step_size", 1.0)
    return _accelerated(grad, x0, eta_t=lambda t: eta * (t + 1.0) / (4.0 * lip), **kwargs)


def accelerated_returns_z(grad: Any, x0: Any, **kwargs: Any) -> md.MirrorDescentResult:
    """Returns the dual sequence ``z_T`` instead of ``xbar_T``."""
    return _accelerated(grad, x0, output="z", **kwargs)


def md_returns_average(grad: Any, x0: Any, **kwargs: Any) -> md.MirrorDescentResult:
    """Mirror descent whose ``x`` is the running average, not the last iterate."""
    r = md.mirror_descent(grad, x0, **kwargs)
    return dataclasses.replace(r, x=r.x_average)


def mirror_prox_last(grad: Any, x0: Any, **kwargs: Any) -> md.MirrorDescentResult:
    """Mirror prox returning the last extrapolation base ``x_T`` instead of ``ybar_T``."""
    r = md.mirror_prox(grad, x0, **kwargs)
    return dataclasses.replace(r, x=r.x_last)


def effective_g_no_doubling(l0: float, l1: float, delta0: float, *, alpha: float = 1.0) -> float:
    """``G`` from ``a² <= 2 l(a) Δ0`` (the ``2a`` inside ``l`` read as ``a``)."""
    return md.effective_g(l0, l1 / 2.0**alpha, delta0, alpha=alpha)


def effective_g_smallest_step(l0: float, l1: float, delta0: float, *, alpha: float = 1.0) -> float:
    """``G = sqrt(2 l(0) Δ0)``: the supremum replaced by the value at ``a = 0`` of ``l``."""
    del l1, alpha
    return float(np.sqrt(2.0 * l0 * delta0))


def _smd(
    grad: Any,
    x0: Any,
    *,
    max_iter: int,
    rng: np.random.Generator,
    sigma0: float = 0.0,
    sigma1: float = 0.0,
    step_size: float | None = None,
    lipschitz: float | None = None,
    noise: str = "right",
    step_rule: str = "right",
    output: str = "last",
    **_: Any,
) -> md.MirrorDescentResult:
    """Euclidean stochastic MD with one planted deviation (``noise``, ``step_rule``, ``output``)."""
    x = np.asarray(x0, dtype=np.float64).copy()
    if step_size is not None:
        eta = float(step_size)
    else:
        assert lipschitz is not None
        root = max_iter if step_rule == "1/T" else np.sqrt(max_iter)
        eta = min(1.0 / (2.0 * lipschitz), 1.0 / float(root))
    xs = [x.copy()]
    for _t in range(max_iter):
        g = np.asarray(grad(x), dtype=np.float64)
        direction = rng.standard_normal(x.size)
        if noise == "positive":
            direction = np.abs(direction)
        direction /= np.linalg.norm(direction)
        size = sigma0 + (0.0 if noise == "no sigma1" else sigma1) * float(np.linalg.norm(g))
        u = 1.0 if noise == "sphere" else rng.uniform()
        x = x - eta * (g + u * size * direction)
        xs.append(x.copy())
    iterates = np.array(xs)
    average = iterates[1:].mean(axis=0)
    out = average if output == "average" else x
    return md.MirrorDescentResult(
        x=out,
        x_last=x,
        x_average=average,
        iterates=iterates,
        gradient_norms=np.zeros(max_iter),
        iterations=max_iter,
        converged=False,
        stationarity=0.0,
    )


def smd_without_sigma1(*args: Any, **kwargs: Any) -> Any:
    """The affine part σ1 ||∇f|| of the noise bound forgotten."""
    return _smd(*args, noise="no sigma1", **kwargs)


def smd_noise_on_sphere(*args: Any, **kwargs: Any) -> Any:
    """Noise always at the bound (U = 1): the radius's uniform draw forgotten."""
    return _smd(*args, noise="sphere", **kwargs)


def smd_positive_noise(*args: Any, **kwargs: Any) -> Any:
    """Noise directions |N(0, I)|: not zero mean (biased gradients)."""
    return _smd(*args, noise="positive", **kwargs)


def smd_step_one_over_t(*args: Any, **kwargs: Any) -> Any:
    """Default step min(1/(2L), 1/T) for min(1/(2L), 1/sqrt T)."""
    return _smd(*args, step_rule="1/T", **kwargs)


def smd_average_output(*args: Any, **kwargs: Any) -> Any:
    """The average of the iterates returned as x (the theorem's output is the last iterate)."""
    return _smd(*args, output="average", **kwargs)


def optimistic_stale_hint(
    grad: Any, x0: Any, *, step_size: float, max_iter: int, **kwargs: Any
) -> md.MirrorDescentResult:
    """Optimistic MD whose ``x_t`` step uses the gradient at ``y_{t-1}`` (the hint taken at
    the wrong sequence) instead of at ``x_{t-1}``."""
    mirror, p = kwargs.get("mirror", "euclidean"), kwargs.get("p", 2.0)
    right = md.optimistic_mirror_descent(grad, x0, step_size=step_size, max_iter=max_iter, **kwargs)
    x = y = np.asarray(x0, dtype=np.float64)
    xs = [x]
    for _ in range(max_iter):
        x = md.prox_step(y, grad(y), step_size, mirror=mirror, p=p)
        y = md.prox_step(y, grad(x), step_size, mirror=mirror, p=p)
        xs.append(x)
    average = np.mean(xs[1:], axis=0)
    return dataclasses.replace(right, x=average, x_last=x, x_average=average, iterates=np.array(xs))


def composite_l2sq_unscaled(
    grad: Any, x0: Any, *, step_size: float, regularizer: mdc.Regularizer, **kwargs: Any
) -> mdc.CompositeResult:
    """The l2sq prox as ``(x - η g)/(1 + λ)``: the step size left out of the shrinkage."""
    if regularizer.kind == "l2sq":
        regularizer = dataclasses.replace(regularizer, weight=regularizer.weight / step_size)
    return mdc.composite_mirror_descent(
        grad, x0, step_size=step_size, regularizer=regularizer, **kwargs
    )


def _m(name: str, why: str, algorithm: str, target: str, *catches: str) -> ProofMutant:
    return ProofMutant(
        family="mirror_descent",
        name=name,
        why=why,
        algorithm=algorithm if ":" in algorithm else f"reference.mirror_descent:{algorithm}",
        target=f"{__name__}:{target}",
        catches=tuple(f"mirror_descent.{c}" for c in catches),
    )


MUTANTS: tuple[ProofMutant, ...] = (
    _m(
        "effective_g: l(a) for l(2a)",
        "the factor 2 inside the smoothness function dropped",
        "effective_g",
        "effective_g_no_doubling",
        "effective_g",
    ),
    _m(
        "effective_g: sqrt(2 L0 Δ0)",
        "the fixed point replaced by its L1 = 0 value",
        "effective_g",
        "effective_g_smallest_step",
        "effective_g",
    ),
    _m(
        "quartic_ridge: Hessian of 2f",
        "φ'' doubled",
        "quartic_ridge",
        "doubled_hessian_quartic",
        "definition_1",
    ),
    _m(
        "quartic_ridge: gradient of 2f",
        "φ' doubled",
        "quartic_ridge",
        "doubled_gradient_quartic",
        "self_bounding",
    ),
    _m(
        "mirror_descent: 2 steps",
        "the iteration budget ignored (stops after 2 steps)",
        "mirror_descent",
        "lazy_md",
        "md_rate",
    ),
    _m(
        "accelerated_mirror_descent: no momentum",
        "plain MD with η = 1/L",
        "accelerated_mirror_descent",
        "plain_accelerated",
        "accelerated_rate",
    ),
    _m(
        "mirror_prox: ascent",
        "gradient sign flipped",
        "mirror_prox",
        "ascent_mirror_prox",
        "mirror_prox_rate",
    ),
    _m(
        "optimistic_mirror_descent: ascent",
        "gradient sign flipped",
        "optimistic_mirror_descent",
        "ascent_optimistic",
        "optimistic_rate",
    ),
    _m(
        "effective_constants: l(2G) when accelerated",
        "accelerated factor forgotten",
        "effective_constants",
        "plain_factor_constants",
        "sympy_identities",
    ),
    _m(
        "composite_mirror_descent: h dropped",
        "the regulariser ignored",
        "reference.mirror_descent.composite:composite_mirror_descent",
        "composite_ignoring_h",
        "composite_rate",
    ),
    # issue 36 audit: written before the tightening; 1 of 6 caught before, 6 of 6 after
    _m(
        "accelerated_mirror_descent: θ_t = 1/(t+1)",
        "a running mean for the momentum weight",
        "accelerated_mirror_descent",
        "accelerated_theta_one",
        "quadratic_closed_forms",
    ),
    _m(
        "accelerated_mirror_descent: constant step",
        "the growing step η(t+1)/(2L) forgotten (η/L)",
        "accelerated_mirror_descent",
        "accelerated_constant_step",
        "accelerated_rate",
        "quadratic_closed_forms",
    ),
    _m(
        "accelerated_mirror_descent: η(t+1)/(4L)",
        "a factor 2 counted twice in the step",
        "accelerated_mirror_descent",
        "accelerated_half_step",
        "quadratic_closed_forms",
    ),
    _m(
        "accelerated_mirror_descent: returns z_T",
        "the dual sequence returned instead of xbar_T",
        "accelerated_mirror_descent",
        "accelerated_returns_z",
        "quadratic_closed_forms",
    ),
    _m(
        "mirror_descent: x = average",
        "the running average returned as the last iterate",
        "mirror_descent",
        "md_returns_average",
        "quadratic_closed_forms",
    ),
    _m(
        "mirror_prox: x = x_T",
        "the last base point returned instead of ybar_T",
        "mirror_prox",
        "mirror_prox_last",
        "quadratic_closed_forms",
    ),
    _m(
        "smd: no sigma1",
        "the affine noise term σ1 ||∇f|| forgotten",
        "stochastic_mirror_descent",
        "smd_without_sigma1",
        "stochastic_rate",
    ),
    _m(
        "smd: noise on the sphere",
        "the uniform radius U forgotten (noise always at the bound)",
        "stochastic_mirror_descent",
        "smd_noise_on_sphere",
        "stochastic_rate",
    ),
    _m(
        "smd: biased noise",
        "noise directions |N(0, I)|, not zero mean",
        "stochastic_mirror_descent",
        "smd_positive_noise",
        "stochastic_rate",
    ),
    _m(
        "smd: step 1/T",
        "default step 1/T for 1/sqrt(T)",
        "stochastic_mirror_descent",
        "smd_step_one_over_t",
        "stochastic_rate",
    ),
    _m(
        "smd: average output",
        "the iterates' average returned for the last iterate",
        "stochastic_mirror_descent",
        "smd_average_output",
        "stochastic_rate",
    ),
    _m(
        "optimistic: hint at y",
        "the x_t step evaluates the gradient at y_{t-1} instead of x_{t-1}",
        "optimistic_mirror_descent",
        "optimistic_stale_hint",
        "mirror_replay",
    ),
    _m(
        "composite: l2sq shrink 1/(1 + lambda)",
        "the l2sq prox shrinks by 1/(1 + lambda), the step size left out",
        "composite_mirror_descent",
        "composite_l2sq_unscaled",
        "composite_replay",
    ),
)
