"""Mutant table of the perturbation theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from reference import perturbation as pert
from reference._arrays import FloatArray
from reference.games import project_simplex
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def _side_run(
    payoff: Any,
    *,
    mu: float,
    step_size: float | None,
    max_iter: int,
    x0: Any,
    y0: Any,
    sign: float,
) -> tuple[FloatArray, FloatArray]:
    """The x-side AsymP-GDA loop with the perturbation entering as ``A y + sign·μ x``."""
    a = np.asarray(payoff, dtype=np.float64)
    step = pert.default_step_size(a, mu=mu) if step_size is None else step_size
    x = np.full(a.shape[0], 1.0 / a.shape[0]) if x0 is None else np.asarray(x0, dtype=np.float64)
    y = np.full(a.shape[1], 1.0 / a.shape[1]) if y0 is None else np.asarray(y0, dtype=np.float64)
    for _ in range(max_iter):
        x = project_simplex(x - step * (a @ y + sign * mu * x))
        y = project_simplex(y + step * (a.T @ x))
    return x, y


def _as_result(payoff: Any, mu: float, x: FloatArray, y: FloatArray) -> pert.GDAResult:
    """A real result of the library with ``(x, y)`` put in (every other field unchanged)."""
    res = pert.asymp_gda_side(payoff, mu=mu, max_iter=1, tol=None)
    return dataclasses.replace(res, x=x, y=y)


def wrong_sign_side(
    payoff: Any,
    *,
    mu: float,
    step_size: float | None = None,
    max_iter: int = 10_000,
    tol: float | None = None,
    x0: Any = None,
    y0: Any = None,
    **kwargs: Any,
) -> pert.GDAResult:
    """x-side AsymP-GDA whose perturbation enters with the wrong sign (``A y - μ x``)."""
    del tol, kwargs
    x, y = _side_run(payoff, mu=mu, step_size=step_size, max_iter=max_iter, x0=x0, y0=y0, sign=-1.0)
    return _as_result(payoff, mu, x, y)


def symmetric_side(payoff: Any, *, mu: float, **kwargs: Any) -> pert.GDAResult:
    """x-side AsymP-GDA that perturbs both players (SymP-GDA in its place)."""
    kwargs.pop("side", None)
    kwargs.pop("variant", None)
    return pert.symp_gda(payoff, mu=mu, **kwargs)


def unperturbed_side(payoff: Any, *, mu: float, **kwargs: Any) -> pert.GDAResult:
    """x-side AsymP-GDA that forgets the perturbation (plain alternating GDA, ``μ = 0``)."""
    del mu
    for key in ("side", "variant", "stop"):
        kwargs.pop(key, None)
    return pert.gda(payoff, **kwargs)


def truncated_minimiser(payoff: Any, *, mu: float) -> FloatArray:
    """The QP ``x^μ`` replaced by 50 steps of x-side AsymP-GDA (a truncated inner solve)."""
    return np.asarray(pert.asymp_gda_side(payoff, mu=mu, max_iter=50, tol=None).x)


def doubled_minimiser(payoff: Any, *, mu: float) -> FloatArray:
    """The QP with ``μ||x||²`` instead of ``(μ/2)||x||²`` (the 1/2 forgotten)."""
    return pert.perturbed_minimiser(payoff, mu=2.0 * mu)


def loose_parameter_free(payoff: Any, *, tol: float = 1e-9, **kwargs: Any) -> Any:
    """Algorithm 1 stopping at NashConv ``<= 100 ε`` (a relative tolerance on a ~1e-2 scale)."""
    return pert.parameter_free(payoff, tol=100.0 * tol, **kwargs)


def symmetric_asymp_gda(payoff: Any, *, mu: float, **kwargs: Any) -> pert.GDAResult:
    """AsymP-GDA replaced by SymP-GDA (both players perturbed)."""
    kwargs.pop("variant", None)
    return pert.symp_gda(payoff, mu=mu, **kwargs)


def utility_asymp_gda(payoff: Any, *, mu: float, **kwargs: Any) -> pert.GDAResult:
    """AsymP-GDA reading the loss ``A`` as the row player's utility (runs on ``-A``)."""
    return pert.asymp_gda(-np.asarray(payoff, dtype=np.float64), mu=mu, **kwargs)


# ------------------------------------------------------------------ issue 36: audit mutants
# Plausible wrong implementations written before the checks were tightened (issue 36, item 5).


def simultaneous_side(
    payoff: Any,
    *,
    mu: float,
    step_size: float | None = None,
    max_iter: int = 10_000,
    tol: float | None = None,
    x0: Any = None,
    y0: Any = None,
    **kwargs: Any,
) -> pert.GDAResult:
    """x-side AsymP-GDA with simultaneous updates (y steps on the old x, not the new one)."""
    del tol, kwargs
    a = np.asarray(payoff, dtype=np.float64)
    step = pert.default_step_size(a, mu=mu) if step_size is None else step_size
    x = np.full(a.shape[0], 1.0 / a.shape[0]) if x0 is None else np.asarray(x0, dtype=np.float64)
    y = np.full(a.shape[1], 1.0 / a.shape[1]) if y0 is None else np.asarray(y0, dtype=np.float64)
    for _ in range(max_iter):
        x, y = project_simplex(x - step * (a @ y + mu * x)), project_simplex(y + step * (a.T @ x))
    return _as_result(payoff, mu, x, y)


def default_eta_side(
    payoff: Any, *, mu: float, step_size: float | None = None, **kwargs: Any
) -> Any:
    """x-side AsymP-GDA that ignores the caller's step size (always ``1/(μ + ||A||_2)``)."""
    del step_size
    return pert.asymp_gda_side(payoff, mu=mu, **kwargs)


def half_mu_side(payoff: Any, *, mu: float, **kwargs: Any) -> pert.GDAResult:
    """x-side AsymP-GDA with the perturbation's gradient taken as ``(μ/2) x``."""
    return pert.asymp_gda_side(payoff, mu=0.5 * mu, **kwargs)


def wrong_partner_parameter_free(payoff: Any, **kwargs: Any) -> Any:
    """Algorithm 1 returning the x-run's own ``y`` instead of the y-run's (``(x_a, y_a)``)."""
    res = pert.parameter_free(payoff, **kwargs)
    a = np.asarray(payoff, dtype=np.float64)
    mu = float(res.mu)
    run = pert.asymp_gda_side(a, mu=mu, max_iter=max(res.iterations, 1), tol=None)
    return dataclasses.replace(res, y=run.y)


def official_order_asymp_gda(payoff: Any, *, mu: float, **kwargs: Any) -> pert.GDAResult:
    """AsymP-GDA whose ``variant`` is ignored (always the official order)."""
    kwargs.pop("variant", None)
    return pert.asymp_gda(payoff, mu=mu, **kwargs)


def doubled_weight_minimiser(payoff: Any, *, mu: float) -> FloatArray:
    """``x^{2μ}``: the QP's objective written ``t + μ||x||²`` (the ½ of ``(μ/2)||x||²`` lost)."""
    return pert.perturbed_minimiser(payoff, mu=2.0 * mu)


def unperturbed_upper_gap(payoff: Any, x: Any, y: Any, *, mu: float) -> float:
    """``gap_μ`` with the upper term ``max_j (xᵀA)_j`` missing its ``(μ/2)||x||²``."""
    xs = np.asarray(x, dtype=np.float64)
    return float(pert.perturbed_gap(payoff, x, y, mu=mu)) - 0.5 * mu * float(xs @ xs)


def _m(name: str, why: str, algorithm: str, target: str, *catches: str) -> ProofMutant:
    return ProofMutant(
        family="perturbation",
        name=name,
        why=why,
        algorithm=f"reference.perturbation:{algorithm}",
        target=f"{__name__}:{target}",
        catches=catches,
    )


MUTANTS = (
    _m(
        "perturbed_minimiser: weight μ",
        "objective t + μ||x||² (x^{2μ} returned)",
        "perturbed_minimiser",
        "doubled_weight_minimiser",
        "perturbation.minimiser_duality_gap",
    ),
    _m(
        "perturbed_gap: upper unperturbed",
        "g(x) without (μ/2)||x||² (negative at the saddle point)",
        "perturbed_gap",
        "unperturbed_upper_gap",
        "perturbation.minimiser_duality_gap",
    ),
    _m(
        "asymp_gda_side: wrong sign",
        "the perturbation enters the x step as A y - μx",
        "asymp_gda_side",
        "wrong_sign_side",
        "perturbation.closed_form",
        "perturbation.corollary_3_2",
        "perturbation.distance_bound",
        "perturbation.theorem_4_1",
    ),
    _m(
        "asymp_gda_side: symmetric",
        "both players perturbed (SymP-GDA in place of the one-sided run)",
        "asymp_gda_side",
        "symmetric_side",
        "perturbation.closed_form",
        "perturbation.corollary_3_2",
        "perturbation.theorem_4_1",
    ),
    _m(
        "asymp_gda_side: unperturbed",
        "the perturbation μx forgotten (plain alternating GDA, which cycles)",
        "asymp_gda_side",
        "unperturbed_side",
        "perturbation.closed_form",
        "perturbation.corollary_3_2",
        "perturbation.theorem_4_1",
    ),
    _m(
        "perturbed_minimiser: truncated",
        "the QP x^μ replaced by 50 steps of the iterative method",
        "perturbed_minimiser",
        "truncated_minimiser",
        "perturbation.closed_form",
        "perturbation.threshold_direction",
    ),
    _m(
        "perturbed_minimiser: μ doubled",
        "the QP's perturbation μ||x||² (the 1/2 forgotten)",
        "perturbed_minimiser",
        "doubled_minimiser",
        "perturbation.closed_form",
        "perturbation.threshold_direction",
    ),
    _m(
        "parameter_free: loose tolerance",
        "Algorithm 1 stopping at NashConv <= 100 ε",
        "parameter_free",
        "loose_parameter_free",
        "perturbation.algorithm_1",
    ),
    _m(
        "asymp_gda: symmetric",
        "SymP-GDA in place of AsymP-GDA (both players perturbed)",
        "asymp_gda",
        "symmetric_asymp_gda",
        "perturbation.brps",
    ),
    _m(
        "asymp_gda: utility orientation",
        "the loss A read as the row player's utility (the mirrored game)",
        "asymp_gda",
        "utility_asymp_gda",
        "perturbation.brps",
    ),
    _m(
        "asymp_gda_side: simultaneous",
        "y steps on the old x (simultaneous GDA; same fixed points, another recursion)",
        "asymp_gda_side",
        "simultaneous_side",
        "perturbation.closed_form",
        "perturbation.corollary_3_2",
        "perturbation.step_recursion",
        "perturbation.theorem_4_1",
    ),
    _m(
        "asymp_gda_side: step_size ignored",
        "the caller's step size dropped for the default 1/(μ + ||A||_2)",
        "asymp_gda_side",
        "default_eta_side",
        "perturbation.step_recursion",
    ),
    _m(
        "asymp_gda_side: half mu",
        "the perturbation's gradient taken as (μ/2)x",
        "asymp_gda_side",
        "half_mu_side",
        "perturbation.closed_form",
        "perturbation.step_recursion",
        "perturbation.theorem_4_1",
    ),
    _m(
        "parameter_free: wrong partner",
        "returns (x_a, y_a) of the x-side run instead of (x_a, y_b)",
        "parameter_free",
        "wrong_partner_parameter_free",
        "perturbation.algorithm_1",
    ),
    _m(
        "asymp_gda: variant ignored",
        "the mirrored run always in the official order",
        "asymp_gda",
        "official_order_asymp_gda",
        "perturbation.step_recursion",
    ),
)
