"""Conformance suite ``perturbation.asymp_gda`` for AsymP-GDA on matrix games.

Convention: ``A`` is ``(m, n)``; ``x`` (simplex of R^m) minimises ``xᵀAy``, ``y``
maximises; a game the paper states as the row player's utility ``P`` enters as ``A = -P``
(spec 19 §8).  An implementation is a callable
``fn(A, /, *, mu, step_size, iterations) -> (x, y)`` returning, after exactly ``iterations``
iterations from the uniform profile, ``x`` from the x-side run and ``y`` from the mirrored
y-side run, both updated alternately with x first, as the authors' official runner does
(spec 19 §8; :func:`reference.perturbation.asymp_gda` with ``variant="official"``).  Our
reference's signature (``max_iter``/``tol`` instead of ``iterations``) is adapted
automatically.

The iterates are deterministic, so one check compares them with our reference; the
others test the defining properties: feasibility, the exact invariances of the
iteration (permutations, ``A + c11ᵀ``, ``(cA, cμ, η/c)``), the perturbed strategy of the
paper's biased RPS in the paper's orientation (``x^μ`` moves above ``μ = 5/2``), and
convergence to the closed-form perturbed equilibrium of a 2 x 2 game whose invariance
threshold is known (``μ* = 15`` for x, ``10`` for y) [derived, spec 19 §4].  (The exact
role symmetry "y side on ``A`` = x side on ``-Aᵀ``" of the earlier reconstruction holds only
for ``variant="y_first"``; in the official order the two runs share their limits, not
their iterates.)
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
from hypothesis import strategies as st

from properties._runner import (
    Capabilities,
    Suite,
    expect,
    expect_le,
    expect_raises,
)
from properties._suite import check
from properties.adapters import as_game_solver, to_numpy
from properties.strategies import payoff_matrices
from reference import perturbation as pert
from reference._arrays import FloatArray

__all__ = [
    "ASYMP_GDA",
    "CLOSED_FORM_GAME",
    "ITERATE_ATOL",
    "SUITES",
    "AsymPGDA",
    "adapt_asymp_gda",
    "brps_perturbed_strategy",
    "closed_form_equilibrium",
    "reference_fixed_steps",
]

#: Agreement required between iterates that are mathematically identical (spec 19 §5.4).
ITERATE_ATOL = 1e-9
#: The 2 x 2 game of spec 19 §4 with ``X* = {(2/5, 3/5)}``, ``v* = 1/5``.
CLOSED_FORM_GAME: FloatArray = np.array([[2.0, -1.0], [-1.0, 1.0]])
#: Accuracy demanded of the closed-form limit after :func:`_limit_iterations` iterations.
LIMIT_ATOL = 1e-6
_LIMIT_ITERATIONS = 1200
#: The most iterations a limit check runs (the sampled instances need at most about 5 500).
_LIMIT_CAP = 100_000


def _linearised_radius(payoff: FloatArray, mu: float, step_size: float) -> float:
    """Spectral radius of the AsymP-GDA step linearised on the interior of the simplices.

    With ``Π = I - 11ᵀ/n`` (the projection's linear part while every entry stays positive)
    the x-side step is ``x' = Π((1 - ημ)x - ηAy)``, ``y' = Π(y + ηAᵀx')`` and the y-side
    step ``x' = Π(x - ηAy)``, ``y' = Π((1 - ημ)y + ηAᵀx')`` (x first, the official order;
    the y-first order is the x-side step on ``-Aᵀ``).  Returns the largest modulus of an
    eigenvalue over the three maps (``Π`` itself contributes 0, on ``1``).  [derived, spec 19 §3]
    """
    m, n = payoff.shape
    px, py = np.eye(m) - 1.0 / m, np.eye(n) - 1.0 / n

    def alternating(a: FloatArray, pa: FloatArray, pb: FloatArray, da: float, db: float) -> Any:
        first = np.hstack([da * pa, -step_size * pa @ a])  # x' = Π(d_x x - ηAy)
        k = a.shape[0]
        second = np.hstack(
            [step_size * pb @ a.T @ first[:, :k], db * pb + step_size * pb @ a.T @ first[:, k:]]
        )
        return np.vstack([first, second])

    shrink = 1.0 - step_size * mu
    maps = (
        alternating(payoff, px, py, shrink, 1.0),  # x side
        alternating(payoff, px, py, 1.0, shrink),  # y side, x first
        alternating(-payoff.T, py, px, shrink, 1.0),  # y side, y first
    )
    return max(float(np.abs(np.linalg.eigvals(step)).max()) for step in maps)


def _limit_iterations(payoff: FloatArray, mu: float, step_size: float) -> int:
    """The budget of the limit checks: at least :data:`_LIMIT_ITERATIONS`, and
    ``ln(10² / LIMIT_ATOL) / (-ln ρ)`` with ``ρ`` the linearised step's spectral radius
    (:func:`_linearised_radius`; 10² absorbs transients of the non-normal step).

    Measured on the closed-form game: where both limits are interior the observed
    rate is ``-ln ρ`` to three digits (μ/c = 9.5, 10.5, 14.5), elsewhere faster.  Near the
    thresholds it is far slower than ``√(1 - ημ)`` (the earlier budget): at μ/c = 14.5,
    ``ημ = 0.31``, ``-ln ρ = 0.0094``, and 1200 steps left 1.06e-6 (bound 1e-6); 1.3e-11 after
    2400.  (A fixed 1200 also failed at ``ημ = 0.015``: 1.3e-5 after 1200 steps.)"""
    radius = _linearised_radius(payoff, mu, step_size)
    if radius <= 0.0:
        return _LIMIT_ITERATIONS
    if radius >= 1.0:  # no linear rate to go by: the largest budget the suite spends
        return _LIMIT_CAP
    rate = math.ceil(math.log(1e2 / LIMIT_ATOL) / -math.log(radius))
    return min(_LIMIT_CAP, max(_LIMIT_ITERATIONS, rate))


_MAX_SIDE = 4


class AsymPGDA(Protocol):
    """AsymP-GDA for both players: ``A (m, n) -> (x (m,), y (n,))`` after ``iterations``."""

    def __call__(
        self, payoff: FloatArray, /, *, mu: float, step_size: float, iterations: int
    ) -> tuple[FloatArray, FloatArray]:
        """Return ``(x from the x-side run, y from the y-side run)``."""
        ...


def reference_fixed_steps(
    payoff: FloatArray, /, *, mu: float, step_size: float, iterations: int
) -> tuple[FloatArray, FloatArray]:
    """Our reference in the suite's protocol: exactly ``iterations`` iterations (``tol=None``)."""
    result = pert.asymp_gda(payoff, mu=mu, step_size=step_size, max_iter=iterations, tol=None)
    return np.array(result.x), np.array(result.y)


def closed_form_equilibrium(mu: float) -> tuple[FloatArray, FloatArray]:
    """``(x^μ, y^μ)`` of :data:`CLOSED_FORM_GAME` [derived, spec 19 §4].

    ``x^μ = (2/5, 3/5)`` for ``μ <= 15``, else ``(1/2 - 3/(2μ), 1/2 + 3/(2μ))``;
    the mirrored ``y^μ = (2/5, 3/5)`` for ``μ <= 10``, else ``(1/2 - 1/μ, 1/2 + 1/μ)``.
    """
    x = np.array([0.4, 0.6]) if mu <= 15.0 else np.array([0.5 - 1.5 / mu, 0.5 + 1.5 / mu])
    y = np.array([0.4, 0.6]) if mu <= 10.0 else np.array([0.5 - 1.0 / mu, 0.5 + 1.0 / mu])
    return x, y


def brps_perturbed_strategy(mu: float) -> FloatArray:
    """``x^μ`` of the paper's biased RPS in its orientation, ``A = -P`` [derived, spec 19 §8].

    From the KKT conditions of ``min_x max_j (Aᵀx)_j + (μ/2)||x||²``: ``x^μ = (1/5, 3/5, 1/5)``
    for ``μ <= 5/2`` and ``(2/5 - 1/(2μ), 2/5 + 1/(2μ), 1/5)`` above (``A`` is skew-symmetric,
    so the mirrored ``y^μ`` is the same vector).  In the mirrored game ``A = +P`` the first and
    third entries are swapped.
    """
    if mu <= 2.5:
        return np.array([0.2, 0.6, 0.2])
    return np.array([0.4 - 0.5 / mu, 0.4 + 0.5 / mu, 0.2])


def _on_simplex(name: str, p: FloatArray, size: int, atol: float) -> None:
    expect(p.shape == (size,), what=f"shape of {name}", measured=p.shape, allowed=(size,))
    expect(
        bool(np.all(np.isfinite(p))),
        what=f"{name} is finite",
        measured=p.tolist(),
        allowed="finite",
    )
    expect_le(-float(np.min(p)), atol, what=f"negative part of {name}")
    expect_le(abs(float(np.sum(p)) - 1.0), atol, what=f"|sum({name}) - 1|")


def _max_diff(a: FloatArray, b: FloatArray) -> float:
    if a.shape != b.shape:
        return float("inf")
    return float(np.max(np.abs(a - b)))


@st.composite
def _instances(draw: st.DrawFn) -> tuple[FloatArray, float, float, int]:
    """``(A, μ, η, iterations)``: small games, ``μ ∈ [1e-3, 10]``, ``η`` a fraction of the default."""
    payoff = draw(payoff_matrices(max_side=_MAX_SIDE), label="payoff A")
    mu = draw(st.floats(1e-3, 10.0, allow_subnormal=False), label="mu")
    fraction = draw(
        st.floats(0.1, 1.0, allow_subnormal=False), label="step_size / default step_size"
    )
    step_size = fraction * pert.default_step_size(payoff, mu=mu)
    iterations = draw(st.integers(0, 40), label="iterations")
    return payoff, mu, step_size, iterations


def _run(
    impl: AsymPGDA, payoff: FloatArray, mu: float, step_size: float, iterations: int
) -> tuple[FloatArray, FloatArray]:
    x, y = impl(payoff.copy(), mu=mu, step_size=step_size, iterations=iterations)
    return to_numpy(x, what="x"), to_numpy(y, what="y")


_PAPER = "Abe et al. (ICML 2026), arXiv:2506.05747"


@check(anchor="Abe et al. (ICML 2026): iterates stay in X and Y")
def check_iterates_on_simplices(impl: AsymPGDA, data: st.DataObject, caps: Capabilities) -> None:
    """Both outputs are finite points of their simplices (entries >= -tol, sum 1 ± tol)."""
    payoff, mu, step_size, iterations = data.draw(_instances(), label="instance")
    x, y = _run(impl, payoff, mu, step_size, iterations)
    m, n = payoff.shape
    _on_simplex("x", x, m, ITERATE_ATOL)
    _on_simplex("y", y, n, ITERATE_ATOL)


@check(anchor=f"{_PAPER}, Section 4 (AsymP-GDA; deterministic iterates)")
def check_matches_reference_iterates(
    impl: AsymPGDA, data: st.DataObject, caps: Capabilities
) -> None:
    """The iterates are deterministic: they equal the reference's (Abe et al., ICML 2026-3.3)."""
    payoff, mu, step_size, iterations = data.draw(_instances(), label="instance")
    x, y = _run(impl, payoff, mu, step_size, iterations)
    x_ref, y_ref = reference_fixed_steps(payoff, mu=mu, step_size=step_size, iterations=iterations)
    expect_le(_max_diff(x, x_ref), ITERATE_ATOL, what=f"max |x - x_ref| after {iterations} steps")
    expect_le(_max_diff(y, y_ref), ITERATE_ATOL, what=f"max |y - y_ref| after {iterations} steps")


@check(anchor="Abe et al. (ICML 2026): A + c11ᵀ leaves the iterates unchanged")
def check_shift_invariance(impl: AsymPGDA, data: st.DataObject, caps: Capabilities) -> None:
    """``A -> A + c11ᵀ`` leaves the iterates unchanged on simplices (Abe et al., ICML 2026)."""
    payoff, mu, step_size, iterations = data.draw(_instances(), label="instance")
    c = data.draw(st.floats(-10.0, 10.0, allow_subnormal=False), label="shift c")
    x, y = _run(impl, payoff, mu, step_size, iterations)
    xs, ys = _run(impl, payoff + c, mu, step_size, iterations)
    expect_le(_max_diff(x, xs), ITERATE_ATOL, what="max |x(A) - x(A + c)|")
    expect_le(_max_diff(y, ys), ITERATE_ATOL, what="max |y(A) - y(A + c)|")


@check(anchor="Abe et al. (ICML 2026): (cA, cμ, η/c); μ*(cA) = cμ*(A)")
def check_scaling_law(impl: AsymPGDA, data: st.DataObject, caps: Capabilities) -> None:
    """``(A, μ, η) -> (cA, cμ, η/c)`` gives identical iterates, whence ``μ*(cA) = cμ*(A)``."""
    payoff, mu, step_size, iterations = data.draw(_instances(), label="instance")
    c = data.draw(st.floats(0.1, 10.0, allow_subnormal=False), label="scale c")
    x, y = _run(impl, payoff, mu, step_size, iterations)
    xs, ys = _run(impl, c * payoff, c * mu, step_size / c, iterations)
    expect_le(_max_diff(x, xs), ITERATE_ATOL, what="max |x(A, μ, η) - x(cA, cμ, η/c)|")
    expect_le(_max_diff(y, ys), ITERATE_ATOL, what="max |y(A, μ, η) - y(cA, cμ, η/c)|")


@check(anchor="Abe et al. (ICML 2026): permuting A permutes the iterates")
def check_permutation_equivariance(impl: AsymPGDA, data: st.DataObject, caps: Capabilities) -> None:
    """Permuting the rows/columns of ``A`` permutes the iterates (uniform start)."""
    payoff, mu, step_size, iterations = data.draw(_instances(), label="instance")
    m, n = payoff.shape
    rows = np.array(data.draw(st.permutations(range(m)), label="row permutation"), dtype=np.intp)
    cols = np.array(data.draw(st.permutations(range(n)), label="column permutation"), dtype=np.intp)
    x, y = _run(impl, payoff, mu, step_size, iterations)
    xp, yp = _run(impl, payoff[rows][:, cols], mu, step_size, iterations)
    expect_le(_max_diff(x[rows], xp), ITERATE_ATOL, what="max |x(A)[p] - x(A[p, q])|")
    expect_le(_max_diff(y[cols], yp), ITERATE_ATOL, what="max |y(A)[q] - y(A[p, q])|")


@check(anchor=f"{_PAPER}, Section 6 (μ sweep on biased RPS, A = -P); Abe et al. (ICML 2026)")
def check_paper_orientation(impl: AsymPGDA, data: st.DataObject, caps: Capabilities) -> None:
    """On the paper's biased RPS as the min-form loss ``c·(-P) + s`` the last iterate reaches
    ``x^{μ/c} = y^{μ/c}`` of :func:`brps_perturbed_strategy`: the equilibrium ``(1/5, 3/5, 1/5)``
    for ``μ/c <= 5/2`` and ``(2/5 - 1/(2μ), 2/5 + 1/(2μ), 1/5)`` above, which tells the paper's
    orientation from the mirrored game (there actions 1 and 3 are swapped)."""
    base_mu = data.draw(st.sampled_from([1.0, 2.0, 3.0, 4.0, 6.0]), label="mu / c")
    c = data.draw(st.floats(0.25, 4.0, allow_subnormal=False), label="scale c")
    shift = data.draw(st.floats(-5.0, 5.0, allow_subnormal=False), label="shift s")
    payoff = c * np.asarray(pert.biased_rps()) + shift
    mu = c * base_mu
    step_size = pert.default_step_size(payoff, mu=mu)
    x, y = _run(impl, payoff, mu, step_size, _limit_iterations(payoff, mu, step_size))
    x_star = brps_perturbed_strategy(base_mu)
    expect_le(
        _max_diff(x, x_star), LIMIT_ATOL, what=f"max |x - x^μ| on biased RPS, μ/c = {base_mu}"
    )
    expect_le(
        _max_diff(y, x_star), LIMIT_ATOL, what=f"max |y - y^μ| on biased RPS, μ/c = {base_mu}"
    )


@check(anchor=f"{_PAPER}, Corollary 3.2; closed form of Abe et al. (ICML 2026)")
def check_closed_form_limit(impl: AsymPGDA, data: st.DataObject, caps: Capabilities) -> None:
    """On ``c·[[2,-1],[-1,1]] + s`` (rows/columns maybe swapped) the last iterate reaches the
    closed-form ``(x^{μ/c}, y^{μ/c})``: the equilibrium ``(2/5, 3/5)`` below the thresholds
    15 (x) and 10 (y), the shifted point above (Corollary 3.2, spec 19 §4)."""
    base_mu = data.draw(st.sampled_from([0.5, 5.0, 9.5, 10.5, 14.5, 15.5, 30.0]), label="mu / c")
    c = data.draw(st.floats(0.25, 4.0, allow_subnormal=False), label="scale c")
    shift = data.draw(st.floats(-5.0, 5.0, allow_subnormal=False), label="shift s")
    swap_rows = data.draw(st.booleans(), label="swap rows")
    swap_cols = data.draw(st.booleans(), label="swap columns")
    payoff = c * CLOSED_FORM_GAME + shift
    rows = np.array([1, 0] if swap_rows else [0, 1], dtype=np.intp)
    cols = np.array([1, 0] if swap_cols else [0, 1], dtype=np.intp)
    mu = c * base_mu
    step_size = pert.default_step_size(payoff, mu=mu)
    moved = payoff[rows][:, cols]
    x, y = _run(impl, moved, mu, step_size, _limit_iterations(moved, mu, step_size))
    x_star, y_star = closed_form_equilibrium(base_mu)
    expect_le(_max_diff(x, x_star[rows]), LIMIT_ATOL, what=f"max |x - x^μ| at μ/c = {base_mu}")
    expect_le(_max_diff(y, y_star[cols]), LIMIT_ATOL, what=f"max |y - y^μ| at μ/c = {base_mu}")


@check(
    anchor="input contract: invalid input raises ValueError or TypeError",
    requires=frozenset({"raises_on_invalid"}),
)
def check_rejects_invalid_input(impl: AsymPGDA, data: st.DataObject, caps: Capabilities) -> None:
    """``μ <= 0``, ``η <= 0`` and NaN/inf payoffs raise ``ValueError``/``TypeError``."""
    payoff, mu, step_size, iterations = data.draw(_instances(), label="instance")
    kind = data.draw(st.sampled_from(["mu", "step_size", "nan", "inf"]), label="corruption")
    bad_mu, bad_eta, bad = mu, step_size, payoff.copy()
    if kind == "mu":
        bad_mu = data.draw(st.sampled_from([0.0, -1.0]), label="bad mu")
    elif kind == "step_size":
        bad_eta = data.draw(st.sampled_from([0.0, -0.5]), label="bad step_size")
    else:
        bad.flat[data.draw(st.integers(0, bad.size - 1), label="position")] = (
            np.nan if kind == "nan" else np.inf
        )
    expect_raises(
        lambda: impl(bad, mu=bad_mu, step_size=bad_eta, iterations=iterations),
        (ValueError, TypeError),
        what=f"AsymP-GDA with invalid {kind}",
    )


def adapt_asymp_gda(obj: object) -> AsymPGDA:
    """Adapt ``fn(A, *, mu, step_size, iterations)`` or ``fn(A, *, mu, step_size, max_iter, tol)`` (ours,
    called with ``tol=None`` so that exactly ``max_iter`` iterations run).

    Results may be pairs, objects with ``x``/``y`` or mappings (see :mod:`properties.adapters`).

    Raises:
        TypeError: ``obj`` is not callable.
    """
    if not callable(obj):
        raise TypeError(
            f"perturbation.asymp_gda: expected a callable A -> (x, y), got {type(obj).__name__}"
        )
    fn: Callable[..., Any] = obj
    try:
        params = inspect.signature(getattr(fn, "__wrapped__", fn)).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        params = {}  # type: ignore[assignment]
    uses_max_iter = "iterations" not in params and "max_iter" in params

    def impl(
        payoff: FloatArray, /, *, mu: float, step_size: float, iterations: int
    ) -> tuple[FloatArray, FloatArray]:
        if uses_max_iter:
            kwargs: dict[str, Any] = {"max_iter": iterations}
            if "tol" in params:
                kwargs["tol"] = None  # ours: None runs exactly max_iter iterations
            pair = as_game_solver(lambda a: fn(a, mu=mu, step_size=step_size, **kwargs))(payoff)
        else:
            pair = as_game_solver(
                lambda a: fn(a, mu=mu, step_size=step_size, iterations=iterations)
            )(payoff)
        return pair

    return impl


ASYMP_GDA: Suite[AsymPGDA] = Suite(
    name="perturbation.asymp_gda",
    protocol=AsymPGDA,
    checks=(
        check_iterates_on_simplices,
        check_matches_reference_iterates,
        check_shift_invariance,
        check_scaling_law,
        check_permutation_equivariance,
        check_paper_orientation,
        check_closed_form_limit,
        check_rejects_invalid_input,
    ),
    adapt=adapt_asymp_gda,
    description="AsymP-GDA fn(A, *, mu, step_size, iterations) -> (x, y): simplex feasibility, "
    "iterates equal the reference, invariance under permutations, A + c, (cA, cμ, η/c), "
    "x^μ of the paper's biased RPS in its orientation (A = -P), closed-form perturbed "
    "equilibrium of a 2 x 2 game.",
)

SUITES = (ASYMP_GDA,)
