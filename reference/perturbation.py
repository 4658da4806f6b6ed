"""Last-iterate convergence by asymmetric perturbation on zero-sum matrix games.

Convention (the library's, see :mod:`reference.games`): ``A`` has shape ``(m, n)``;
``x`` in the simplex of R^m *minimises* ``xᵀAy`` and ``y`` in the simplex of R^n
*maximises* it.  The paper writes ``X``/``Y`` for the two polytopes; here both are
simplices (the sequence-form version lives in :mod:`reference.extensive`).

* AsymP-GDA (:func:`asymp_gda`, :func:`asymp_gda_side`): only one player's payoff is
  perturbed by ``(μ/2)||·||²``; alternating projected GDA on that game converges
  linearly in the last iterate, and for ``μ`` below a game-dependent threshold the
  perturbed player's limit is an exact equilibrium strategy of the original game.
* :func:`parameter_free` (Algorithm 1): halve ``μ`` until NashConv ``<= tol``.
* Baselines: :func:`symp_gda` (both players perturbed), :func:`gda`, :func:`ogda`,
  :func:`omwu`.
* Measures and oracles: :func:`nash_conv` (an alias of :func:`reference.games.duality_gap`),
  :func:`perturbed_gap`, :func:`perturbed_minimiser` (the QP for ``x^μ``); the simplex
  projection is :func:`reference.games.project_simplex`.

Provenance labels follow spec 19: [paper] confirmed from the paper's notes;
(our default) chosen by us where the paper's value was not retrievable;
[derived] proved or computed by us.

References:
    K. Abe, M. Sakamoto, K. Ariu, A. Iwasaki, "Asymmetric Perturbation in Solving
    Bilinear Saddle-Point Optimization", ICML 2026, arXiv:2506.05747.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, minimize

from reference._arrays import (
    FloatArray,
    as_float_array,
    as_simplex_point,
    readonly,
    require_int,
    require_positive,
)
from reference.games import duality_gap

# The library's one simplex projection and one duality gap live in reference.games
# (STYLE B1); the hot loops below use their unvalidated cores.
from reference.games.base import _gap, _project

#: NashConv of a matrix game is its duality gap: an alias of
#: :func:`reference.games.duality_gap` (same function, same validation).
nash_conv = duality_gap

__all__ = [
    "MU_FLOOR",
    "GDAResult",
    "ParameterFreeResult",
    "asymp_gda",
    "asymp_gda_side",
    "default_step_size",
    "gda",
    "nash_conv",
    "ogda",
    "omwu",
    "parameter_free",
    "perturbed_gap",
    "perturbed_minimiser",
    "symp_gda",
]

Side = Literal["x", "y"]

#: Default iteration cap of the fixed-``μ`` methods (our default).
DEFAULT_MAX_ITER = 100_000
#: Default stopping tolerance of the fixed-``μ`` methods (our default).
DEFAULT_TOL = 1e-12
#: :func:`parameter_free` never halves ``μ`` below ``MU_FLOOR · ||A||_2`` (our default,
#: ``2^-52``): below it ``μx`` is under the rounding of the gradient ``Ay``, so halving changes
#: nothing, and ``-Ay/μ`` in the perturbed gap would overflow after ~1000 halvings (issue 22).
MU_FLOOR = 2.0**-52


# ------------------------------------------------------------------------------ helpers
def _spectral_norm(a: FloatArray) -> float:
    return float(np.linalg.norm(a, 2))


def default_step_size(payoff: object, *, mu: float = 0.0) -> float:
    """Our default step size ``η = 1/(μ + ||A||_2)`` (``1`` when ``A = 0`` and ``μ = 0``).

    (our default, spec 19 §3.1): the paper's step-size condition of Theorem 4.1 was not
    retrieved.  In the unconstrained linear case the AsymP-GDA iteration matrix per
    singular value ``s`` has determinant ``1 - ημ`` and is Schur-stable when
    ``η²s² + 2ημ < 4`` [derived], which this choice satisfies.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        mu: perturbation strength ``μ >= 0``.

    Returns:
        The step size ``η > 0``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shape, non-finite entries, or ``mu < 0``.

    Example:
        >>> default_step_size([[3.0, 0.0], [0.0, 1.0]], mu=1.0)
        0.25
    """
    a = as_float_array("payoff", payoff, ndim=2)
    m = require_positive("mu", mu, allow_zero=True)
    denominator = m + _spectral_norm(a)
    return 1.0 / denominator if denominator > 0.0 else 1.0


def _check_payoff(payoff: object) -> FloatArray:
    return as_float_array("payoff", payoff, ndim=2)


def _start(name: str, value: object | None, size: int) -> FloatArray:
    if value is None:
        return np.full(size, 1.0 / size)
    return as_simplex_point(name, value, size=size)


def _step(payoff: FloatArray, eta: float | None, mu: float) -> float:
    if eta is None:
        denominator = mu + _spectral_norm(payoff)
        return 1.0 / denominator if denominator > 0.0 else 1.0
    return require_positive("eta", eta)


def _perturbed_gap(a: FloatArray, x: FloatArray, y: FloatArray, mu: float) -> float:
    """gap_μ(x, y) of the x-side perturbed game (spec 19 §2), no validation."""
    ay = a @ y
    best = _project(-ay / mu)  # argmin_{x'} x'ᵀAy + (μ/2)||x'||²
    upper = float(np.max(x @ a)) + 0.5 * mu * float(x @ x)
    lower = float(best @ ay) + 0.5 * mu * float(best @ best)
    return upper - lower


# ------------------------------------------------------------------------------ measures
def perturbed_gap(payoff: object, x: object, y: object, *, mu: float) -> float:
    """Duality gap of the x-side asymmetrically perturbed game.

    ``gap_μ(x, y) = [g(x) + (μ/2)||x||²] - min_{x'∈Δ} [x'ᵀAy + (μ/2)||x'||²]`` with
    ``g(x) = max_j (xᵀA)_j``; the inner minimiser is ``Π_Δ(-Ay/μ)`` [derived, spec 19 §2].
    It is ``>= 0`` and ``0`` exactly on ``Z^μ = {x^μ} × Y^μ``.  For the mirrored (y-side)
    game call it on ``(-Aᵀ, y, x)``.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        x: ``(m,)`` point of the simplex.
        y: ``(n,)`` point of the simplex.
        mu: perturbation strength ``μ > 0``.

    Returns:
        The perturbed gap as a float.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, points off the simplex, ``mu <= 0``.

    Example:
        >>> round(perturbed_gap([[1.0, -1.0], [-1.0, 1.0]], [0.5, 0.5], [0.5, 0.5], mu=1.0), 12)
        0.0
    """
    a = _check_payoff(payoff)
    xs = as_simplex_point("x", x, size=a.shape[0])
    ys = as_simplex_point("y", y, size=a.shape[1])
    m = require_positive("mu", mu)
    return _perturbed_gap(a, xs, ys, m)


def perturbed_minimiser(payoff: object, *, mu: float) -> FloatArray:
    """The perturbed minimax strategy ``x^μ = argmin_{x∈Δ} g(x) + (μ/2)||x||²`` by a QP.

    Solves ``min t + (μ/2)||x||²`` s.t. ``Aᵀx <= t·1``, ``x ∈ Δ`` with SciPy's SLSQP
    (``ftol = 1e-15``), an oracle independent of the iterative methods (spec 19 §4).
    Its accuracy is that of SLSQP, about ``1e-8`` on small well-scaled games.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        mu: perturbation strength ``μ > 0``.

    Returns:
        ``(m,)`` read-only float64 point of the simplex.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shape, non-finite entries, ``mu <= 0``.

    Example:
        >>> [round(float(v), 6) for v in perturbed_minimiser([[2.0, -1.0], [-1.0, 1.0]], mu=1.0)]
        [0.4, 0.6]
    """
    a = _check_payoff(payoff)
    m = require_positive("mu", mu)
    rows = a.shape[0]
    x0 = np.full(rows, 1.0 / rows)
    z0 = np.append(x0, float(np.max(x0 @ a)))

    def objective(z: FloatArray) -> float:
        return float(z[-1] + 0.5 * m * z[:-1] @ z[:-1])

    def gradient(z: FloatArray) -> FloatArray:
        return np.append(m * z[:-1], 1.0)

    ineq_matrix = np.hstack([-a.T, np.ones((a.shape[1], 1))])  # t - (Aᵀx)_j >= 0
    eq_matrix = np.append(np.ones(rows), 0.0)[None, :]
    constraints = [
        LinearConstraint(ineq_matrix, lb=np.zeros(a.shape[1]), ub=np.full(a.shape[1], np.inf)),
        LinearConstraint(eq_matrix, lb=np.ones(1), ub=np.ones(1)),
    ]
    bounds = Bounds(lb=np.append(np.zeros(rows), -np.inf), ub=np.full(rows + 1, np.inf))
    result = minimize(
        objective,
        z0,
        jac=gradient,
        method="SLSQP",
        bounds=bounds,
        constraints=constraints,
        options={"ftol": 1e-15, "maxiter": 1000},
    )
    x = np.maximum(np.asarray(result.x[:-1], dtype=np.float64), 0.0)
    return readonly(x / x.sum())


# ------------------------------------------------------------------------------ results
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class GDAResult:
    """Last iterate and histories of a fixed-step game dynamics run.

    Attributes:
        x: ``(m,)`` read-only last iterate of the minimiser.
        y: ``(n,)`` read-only last iterate of the maximiser.
        nash_conv: NashConv of ``(x, y)`` in the original game.
        stopping: the method's stopping quantity at the end (see each method).
        iterations: iterations performed (one iteration updates each player once, per run).
        converged: exactly ``stopping <= tol`` for the returned iterates (``tol`` absolute;
            always ``False`` when ``tol`` is ``None``).
        stop_reason: ``"tol"`` (iff ``converged``) or ``"max_iter"`` (the cap, also the
            only stop when ``tol`` is ``None``).
        history: ``(iterations + 1,)`` read-only NashConv of ``(x^t, y^t)``, ``t = 0..iterations``.
        stopping_history: ``(iterations + 1,)`` read-only stopping quantity per iteration.
        mu: perturbation strength used (``0`` for unperturbed methods).
        eta: step size used.
    """

    x: FloatArray
    y: FloatArray
    nash_conv: float
    stopping: float
    iterations: int
    converged: bool
    stop_reason: str
    history: FloatArray
    stopping_history: FloatArray
    mu: float
    eta: float


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class ParameterFreeResult:
    """Outcome of the parameter-free AsymP-GDA (Algorithm 1).

    Attributes:
        x: ``(m,)`` read-only minimiser strategy (from the x-side run).
        y: ``(n,)`` read-only maximiser strategy (from the y-side run).
        nash_conv: NashConv of ``(x, y)`` (the stopping quantity).
        iterations: total inner steps (each step advances both runs once).
        converged: exactly ``nash_conv <= tol`` (absolute) for the returned ``(x, y)``.
        stop_reason: ``"tol"`` (iff ``converged``), ``"max_iter"`` (the step cap) or
            ``"mu_floor"`` (``μ`` would have been halved below :data:`MU_FLOOR` ``· ||A||_2``).
        mu: the perturbation strength in force at the end.
        halvings: how many times ``μ`` was halved.
        check_iterations: ``(k,)`` read-only step counts at which NashConv was measured.
        history: ``(k,)`` read-only NashConv at those steps.
        mu_history: ``(k,)`` read-only ``μ`` in force at those steps.
    """

    x: FloatArray
    y: FloatArray
    nash_conv: float
    iterations: int
    converged: bool
    stop_reason: str
    mu: float
    halvings: int
    check_iterations: FloatArray
    history: FloatArray
    mu_history: FloatArray


def _result(
    *,
    x: FloatArray,
    y: FloatArray,
    stopping: float,
    iterations: int,
    converged: bool,
    history: list[float],
    stopping_history: list[float],
    mu: float,
    eta: float,
    payoff: FloatArray,
) -> GDAResult:
    return GDAResult(
        x=readonly(x.copy()),
        y=readonly(y.copy()),
        nash_conv=_gap(payoff, x, y),
        stopping=stopping,
        iterations=iterations,
        converged=converged,
        stop_reason="tol" if converged else "max_iter",
        history=readonly(np.array(history, dtype=np.float64)),
        stopping_history=readonly(np.array(stopping_history, dtype=np.float64)),
        mu=mu,
        eta=eta,
    )


def _common(
    payoff: object, max_iter: object, tol: object | None, x0: object | None, y0: object | None
) -> tuple[FloatArray, int, float, FloatArray, FloatArray]:
    a = _check_payoff(payoff)
    iters = require_int("max_iter", max_iter, minimum=0)
    tolerance = -math.inf if tol is None else require_positive("tol", tol)
    x = _start("x0", x0, a.shape[0])
    y = _start("y0", y0, a.shape[1])
    return a, iters, tolerance, x, y


# ------------------------------------------------------------------------------ AsymP-GDA
def _asymp_x_step(
    a: FloatArray, x: FloatArray, y: FloatArray, mu: float, eta: float
) -> tuple[FloatArray, FloatArray]:
    """One step of spec 19 §3.1 (mu = 0 gives alternating GDA)."""
    x_new = _project(x - eta * (a @ y + mu * x))  # §3.1 l.1
    y_new = _project(y + eta * (a.T @ x_new))  # §3.1 l.2 (uses the new x)
    return x_new, y_new


def _asymp_pair_step(
    a: FloatArray,
    b: FloatArray,
    xa: FloatArray,
    ya: FloatArray,
    xb: FloatArray,
    yb: FloatArray,
    mu: float,
    eta: float,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """One step of both runs; ``b = -Aᵀ`` and the y side keeps ``(xb, yb)`` in A's roles."""
    xa, ya = _asymp_x_step(a, xa, ya, mu, eta)
    yb, xb = _asymp_x_step(b, yb, xb, mu, eta)  # §3.2 as §3.1 on -Aᵀ, roles swapped
    return xa, ya, xb, yb


def asymp_gda_side(
    payoff: object,
    *,
    mu: float,
    side: Side = "x",
    eta: float | None = None,
    max_iter: int = DEFAULT_MAX_ITER,
    tol: float | None = DEFAULT_TOL,
    x0: object | None = None,
    y0: object | None = None,
) -> GDAResult:
    """One run of AsymP-GDA: alternating projected GDA with one player perturbed.

    x side (spec 19 §3.1) [paper]::

        x^{t+1} = Π_Δ(x^t - η(A y^t + μ x^t))
        y^{t+1} = Π_Δ(y^t + η Aᵀ x^{t+1})

    y side, mirrored (§3.2) [paper]::

        y^{t+1} = Π_Δ(y^t + η(Aᵀ x^t - μ y^t))
        x^{t+1} = Π_Δ(x^t - η A y^{t+1})

    implemented as the x side on ``B = -Aᵀ`` with the players swapped.  Symbol map:
    ``A`` is ``payoff``, ``μ`` is ``mu``, ``η`` is ``eta`` (default ``1/(μ + ||A||_2)``,
    our default), ``(x^0, y^0)`` is ``(x0, y0)`` (uniform by default).  The stopping
    quantity is the perturbed gap of that side's game (:func:`perturbed_gap`; on
    ``(-Aᵀ, y, x)`` for the y side); the run stops at the first ``t`` where it is
    ``<= tol``, or after ``max_iter`` iterations.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        mu: perturbation strength ``μ > 0``.
        side: ``"x"`` (perturb the minimiser) or ``"y"`` (perturb the maximiser).
        eta: step size ``η > 0``; ``None`` for the default.
        max_iter: iteration cap (``>= 0``).
        tol: stopping tolerance on the perturbed gap (``> 0``, absolute,
            payoff units); ``None`` runs exactly
            ``max_iter`` iterations.
        x0: ``(m,)`` start of the minimiser (simplex point) or ``None``.
        y0: ``(n,)`` start of the maximiser (simplex point) or ``None``.

    Returns:
        A :class:`GDAResult`; ``stopping`` is the perturbed gap, ``history`` NashConv.

    Raises:
        TypeError: non-numeric arguments.
        ValueError: bad shapes, non-finite payoffs, ``mu <= 0``, ``eta <= 0``,
            ``tol <= 0``, ``max_iter < 0``, starts off the simplex, unknown ``side``.

    Example:
        >>> r = asymp_gda_side([[2.0, -1.0], [-1.0, 1.0]], mu=1.0, max_iter=5000, tol=1e-13)
        >>> [round(float(v), 8) for v in r.x], r.converged
        ([0.4, 0.6], True)

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Section 4 (AsymP-GDA, Theorem 4.1).

    Variant:
        Alternating updates (the x step first on the x side); step size our default.
    """
    a, iters, tolerance, x, y = _common(payoff, max_iter, tol, x0, y0)
    m = require_positive("mu", mu)
    if side not in ("x", "y"):
        raise ValueError(f"side: expected 'x' or 'y', got {side!r}")
    step = _step(a, eta, m)
    if side == "x":
        mat, p, q = a, x, y
    else:
        mat, p, q = -a.T, y, x
    gap = _perturbed_gap(mat, p, q, m)
    history = [_gap(mat, p, q)]
    gaps = [gap]
    t = 0
    while gap > tolerance and t < iters:
        p, q = _asymp_x_step(mat, p, q, m, step)
        t += 1
        gap = _perturbed_gap(mat, p, q, m)
        history.append(_gap(mat, p, q))
        gaps.append(gap)
    x_out, y_out = (p, q) if side == "x" else (q, p)
    return _result(
        x=x_out,
        y=y_out,
        stopping=gap,
        iterations=t,
        converged=gap <= tolerance,
        history=history,
        stopping_history=gaps,
        mu=m,
        eta=step,
        payoff=a,
    )


def asymp_gda(
    payoff: object,
    *,
    mu: float,
    eta: float | None = None,
    max_iter: int = DEFAULT_MAX_ITER,
    tol: float | None = DEFAULT_TOL,
) -> GDAResult:
    """AsymP-GDA for both players: x from the x-side run, y from the mirrored y-side run.

    Runs spec 19 §3.1 on ``(x_a, y_a)`` and §3.2 on ``(x_b, y_b)`` in lockstep from the
    uniform profile and outputs ``(x_a, y_b)`` (§3.3) [paper].  For ``μ`` below the
    game's invariance threshold both limits are equilibrium strategies of the original
    game (Corollary 3.2), so NashConv of the output tends to 0; above it the output is
    the pair of perturbed strategies ``(x^μ, y^μ)``.  The stopping quantity is
    ``max(gap_μ(x_a, y_a), gap_μ^mirrored(x_b, y_b))``; ``history`` holds
    NashConv ``(x_a^t, y_b^t)``.  One iteration advances both runs once (two strategy
    updates per player, as the paper counts for fairness).

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        mu: perturbation strength ``μ > 0``.
        eta: step size ``η > 0``; ``None`` for ``1/(μ + ||A||_2)`` (our default).
        max_iter: iteration cap (``>= 0``).
        tol: stopping tolerance on the larger of the two perturbed gaps (``> 0``, absolute,
            payoff units); ``None`` runs exactly
            ``max_iter`` iterations.

    Returns:
        A :class:`GDAResult` with ``x = x_a``, ``y = y_b``.

    Raises:
        TypeError: non-numeric arguments.
        ValueError: bad shape, non-finite payoffs, ``mu <= 0``, ``eta <= 0``, ``tol <= 0``,
            ``max_iter < 0``.

    Example:
        >>> brps = [[0.0, -1.0, 3.0], [1.0, 0.0, -1.0], [-3.0, 1.0, 0.0]]
        >>> r = asymp_gda(brps, mu=0.5, max_iter=20000, tol=1e-14)
        >>> [round(float(v), 8) for v in r.x], [round(float(v), 8) for v in r.y]
        ([0.2, 0.6, 0.2], [0.2, 0.6, 0.2])

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Sections 3-4 (Corollary 3.2, Theorem 4.1).

    Variant:
        Alternating updates; both runs from the uniform profile; step size our default.
    """
    a, iters, tolerance, x, y = _common(payoff, max_iter, tol, None, None)
    m = require_positive("mu", mu)
    step = _step(a, eta, m)
    b = -a.T
    xa, ya, xb, yb = x, y, x.copy(), y.copy()

    def stop() -> float:
        return max(_perturbed_gap(a, xa, ya, m), _perturbed_gap(b, yb, xb, m))

    gap = stop()
    history = [_gap(a, xa, yb)]
    gaps = [gap]
    t = 0
    while gap > tolerance and t < iters:
        xa, ya, xb, yb = _asymp_pair_step(a, b, xa, ya, xb, yb, m, step)
        t += 1
        gap = stop()
        history.append(_gap(a, xa, yb))
        gaps.append(gap)
    return _result(
        x=xa,
        y=yb,
        stopping=gap,
        iterations=t,
        converged=gap <= tolerance,
        history=history,
        stopping_history=gaps,
        mu=m,
        eta=step,
        payoff=a,
    )


# ------------------------------------------------------------------------------ Algorithm 1
def parameter_free(
    payoff: object,
    *,
    tol: float = 1e-9,
    max_iter: int = 2_000_000,
    mu_init: float | None = None,
    max_inner: int = 200_000,
    check_every: int = 10,
    patience: int = 2000,
) -> ParameterFreeResult:
    """Parameter-free AsymP-GDA (Algorithm 1): halve ``μ`` until NashConv ``<= tol``.

    Outer rounds ``k = 0, 1, ...`` use ``μ_k = μ_init/2^k`` and ``η_k = 1/(μ_k + ||A||_2)``
    [paper structure; constants our default, spec 19 §3.4].  Each inner step advances the
    x-side run ``(x_a, y_a)`` (§3.1) and the y-side run ``(x_b, y_b)`` (§3.2) once, warm
    started across rounds.  Every ``check_every`` steps: return ``(x_a, y_b)`` if
    ``NashConv(x_a, y_b) <= tol``; leave the round when both perturbed gaps are
    ``<= δ_k = max(μ_k tol²/(8 L_g²), 1e-13·max(1, max|a_ij|))`` (our default inner rule;
    ``L_g`` the largest Euclidean norm of a row or column of ``A``), after ``max_inner``
    steps, or when the larger gap has not halved over the last ``patience`` steps (a stall
    rule we add so that a round whose linear rate is very slow — payoff differences near
    rounding level — does not hold up the halving; ``patience = 0`` gives the spec's rule
    exactly); then halve ``μ``, unless ``μ/2 < MU_FLOOR · ||A||_2`` (:data:`MU_FLOOR`, our
    default): then stop with ``stop_reason="mu_floor"``, unconverged.  Halving early never harms correctness: the output is
    only returned once NashConv ``<= tol``.  Symbol map: ``ε`` is ``tol``, ``μ_init`` is ``mu_init``
    (default ``||A||_2``, our default), ``c`` is ``check_every``.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        tol: target NashConv ``ε > 0`` (absolute, in payoff units).
        max_iter: cap on the total number of inner steps (``>= 0``).
        mu_init: initial ``μ >= MU_FLOOR · ||A||_2``, ``> 0``; ``None`` for ``||A||_2``
            (``1`` if ``A = 0``).
        max_inner: cap on the steps of one round (``>= 1``).
        check_every: check period ``c >= 1``.
        patience: stall window in steps (``>= 0``; a multiple of ``check_every``; 0 disables).

    Returns:
        A :class:`ParameterFreeResult`; ``converged`` iff ``nash_conv <= tol`` (NashConv of the
        returned pair); ``stop_reason`` ``"tol"``, ``"max_iter"`` or ``"mu_floor"``.

    Raises:
        TypeError: non-numeric arguments.
        ValueError: bad shape, non-finite payoffs, ``tol <= 0``, ``mu_init <= 0`` or below
            ``MU_FLOOR · ||A||_2``, bad caps.

    Example:
        >>> r = parameter_free([[0.0, -1.0, 3.0], [1.0, 0.0, -1.0], [-3.0, 1.0, 0.0]], tol=1e-10)
        >>> r.converged, r.nash_conv <= 1e-10, [round(float(v), 6) for v in r.x]
        (True, True, [0.2, 0.6, 0.2])

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Algorithm 1 (O(log 1/ε) iterations).

    Variant:
        Inner stopping rule ``δ_k`` with floor ``1e-13·max(1, max|a_ij|)`` and
        ``μ_init = ||A||_2`` are our defaults; the paper's were not retrieved.
    """
    a = _check_payoff(payoff)
    eps = require_positive("tol", tol)
    total_cap = require_int("max_iter", max_iter, minimum=0)
    inner_cap = require_int("max_inner", max_inner, minimum=1)
    period = require_int("check_every", check_every, minimum=1)
    stall = require_int("patience", patience, minimum=0)
    norm = _spectral_norm(a)
    default_mu = norm if norm > 0.0 else 1.0
    mu = default_mu if mu_init is None else require_positive("mu_init", mu_init)
    mu_floor = MU_FLOOR * norm
    if mu < mu_floor:
        raise ValueError(f"mu_init: expected >= 2^-52 * ||A||_2 = {mu_floor!r}, got {mu!r}")
    rows, cols = a.shape
    lipschitz = max(
        float(np.max(np.linalg.norm(a, axis=0))), float(np.max(np.linalg.norm(a, axis=1)))
    )
    floor = 1e-13 * max(1.0, float(np.max(np.abs(a))))
    b = -a.T
    xa = np.full(rows, 1.0 / rows)
    xb = xa.copy()
    ya = np.full(cols, 1.0 / cols)
    yb = ya.copy()
    total = 0
    halvings = 0
    value = _gap(a, xa, yb)
    checks: list[int] = [0]
    history: list[float] = [value]
    mus: list[float] = [mu]
    reason = "max_iter"
    while value > eps and total < total_cap:
        eta = 1.0 / (mu + norm)
        delta = max(mu * eps * eps / (8.0 * lipschitz * lipschitz), floor) if lipschitz else floor
        inner = 0
        milestone = math.inf
        while inner < inner_cap and total < total_cap:  # Alg. 1, inner loop
            xa, ya, xb, yb = _asymp_pair_step(a, b, xa, ya, xb, yb, mu, eta)
            inner += 1
            total += 1
            if inner % period and total < total_cap:
                continue
            value = _gap(a, xa, yb)
            checks.append(total)
            history.append(value)
            mus.append(mu)
            if value <= eps:
                break
            gap = max(_perturbed_gap(a, xa, ya, mu), _perturbed_gap(b, yb, xb, mu))
            if gap <= delta:
                break
            if stall and inner % stall == 0:  # stall rule (our extension)
                if gap > 0.5 * milestone:
                    break
                milestone = gap
        if value <= eps or total >= total_cap:
            break
        if 0.5 * mu < mu_floor or 0.5 * mu == 0.0:  # halving is meaningless below the floor
            reason = "mu_floor"
            break
        mu *= 0.5  # Alg. 1: halve μ
        halvings += 1
    return ParameterFreeResult(
        x=readonly(xa.copy()),
        y=readonly(yb.copy()),
        nash_conv=value,
        iterations=total,
        converged=value <= eps,
        stop_reason="tol" if value <= eps else reason,
        mu=mu,
        halvings=halvings,
        check_iterations=readonly(np.array(checks, dtype=np.float64)),
        history=readonly(np.array(history, dtype=np.float64)),
        mu_history=readonly(np.array(mus, dtype=np.float64)),
    )


# ------------------------------------------------------------------------------ baselines
def symp_gda(
    payoff: object,
    *,
    mu: float,
    eta: float | None = None,
    max_iter: int = DEFAULT_MAX_ITER,
    tol: float | None = DEFAULT_TOL,
    x0: object | None = None,
    y0: object | None = None,
) -> GDAResult:
    """SymP-GDA baseline: alternating projected GDA with both players perturbed.

    Spec 19 §3.5 [paper baseline; form as in the spec]::

        x^{t+1} = Π_Δ(x^t - η(A y^t + μ x^t))
        y^{t+1} = Π_Δ(y^t + η(Aᵀ x^{t+1} - μ y^t))

    It converges to the unique saddle point of ``xᵀAy + (μ/2)||x||² - (μ/2)||y||²``,
    which generally is *not* a Nash equilibrium.  The stopping quantity is the duality
    gap of that symmetric perturbed game (computed exactly through two projections).

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        mu: perturbation strength ``μ > 0``.
        eta: step size ``η > 0``; ``None`` for ``1/(μ + ||A||_2)`` (our default).
        max_iter: iteration cap (``>= 0``).
        tol: stopping tolerance on the symmetric perturbed gap (``> 0``, absolute,
            payoff units); ``None`` runs exactly
            ``max_iter`` iterations.
        x0: ``(m,)`` start of the minimiser or ``None`` (uniform).
        y0: ``(n,)`` start of the maximiser or ``None`` (uniform).

    Returns:
        A :class:`GDAResult` (``history`` is NashConv in the original game).

    Raises:
        TypeError: non-numeric arguments.
        ValueError: bad shape, non-finite payoffs, ``mu <= 0``, ``eta <= 0``, ``tol <= 0``,
            ``max_iter < 0``, starts off the simplex.

    Example:
        >>> r = symp_gda([[0.0, -1.0, 3.0], [1.0, 0.0, -1.0], [-3.0, 1.0, 0.0]], mu=1.0)
        >>> r.converged, r.nash_conv > 1e-3
        (True, True)

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Section 6 (baseline); the symmetric
        scheme of Liu, Ozdaglar, Yu, Zhang, ICLR 2023.
    """
    a, iters, tolerance, x, y = _common(payoff, max_iter, tol, x0, y0)
    m = require_positive("mu", mu)
    step = _step(a, eta, m)

    def gap_sym(p: FloatArray, q: FloatArray) -> float:
        bx = _project(-(a @ q) / m)
        by = _project((a.T @ p) / m)
        upper = float(p @ a @ by) - 0.5 * m * float(by @ by) + 0.5 * m * float(p @ p)
        lower = float(bx @ a @ q) + 0.5 * m * float(bx @ bx) - 0.5 * m * float(q @ q)
        return upper - lower

    gap = gap_sym(x, y)
    history = [_gap(a, x, y)]
    gaps = [gap]
    t = 0
    while gap > tolerance and t < iters:
        x = _project(x - step * (a @ y + m * x))
        y = _project(y + step * (a.T @ x - m * y))
        t += 1
        gap = gap_sym(x, y)
        history.append(_gap(a, x, y))
        gaps.append(gap)
    return _result(
        x=x,
        y=y,
        stopping=gap,
        iterations=t,
        converged=gap <= tolerance,
        history=history,
        stopping_history=gaps,
        mu=m,
        eta=step,
        payoff=a,
    )


def gda(
    payoff: object,
    *,
    eta: float | None = None,
    max_iter: int = 10_000,
    tol: float | None = DEFAULT_TOL,
    x0: object | None = None,
    y0: object | None = None,
) -> GDAResult:
    """Alternating projected GDA (AsymP-GDA with ``μ = 0``), a baseline that cycles.

    ``x^{t+1} = Π_Δ(x^t - η A y^t)``, ``y^{t+1} = Π_Δ(y^t + η Aᵀ x^{t+1})`` (spec 19 §3.5).
    The stopping quantity is NashConv; in games with an interior equilibrium the last
    iterate does not converge, so a run usually ends at ``max_iter`` with
    ``converged = False``.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        eta: step size ``η > 0``; ``None`` for ``1/||A||_2`` (our default).
        max_iter: iteration cap (``>= 0``).
        tol: stopping tolerance on NashConv (``> 0``, absolute,
            payoff units); ``None`` runs exactly
            ``max_iter`` iterations.
        x0: ``(m,)`` start of the minimiser or ``None`` (uniform).
        y0: ``(n,)`` start of the maximiser or ``None`` (uniform).

    Returns:
        A :class:`GDAResult` with ``mu = 0``.

    Raises:
        TypeError: non-numeric arguments.
        ValueError: bad shape, non-finite payoffs, ``eta <= 0``, ``tol <= 0``,
            ``max_iter < 0``, starts off the simplex.

    Example:
        >>> r = gda([[1.0, -1.0], [-1.0, 1.0]], x0=[0.9, 0.1], max_iter=200)
        >>> r.converged, r.nash_conv > 0.1
        (False, True)

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Section 6 (baseline).
    """
    a, iters, tolerance, x, y = _common(payoff, max_iter, tol, x0, y0)
    step = _step(a, eta, 0.0)
    value = _gap(a, x, y)
    history = [value]
    t = 0
    while value > tolerance and t < iters:
        x, y = _asymp_x_step(a, x, y, 0.0, step)
        t += 1
        value = _gap(a, x, y)
        history.append(value)
    return _result(
        x=x,
        y=y,
        stopping=value,
        iterations=t,
        converged=value <= tolerance,
        history=history,
        stopping_history=history,
        mu=0.0,
        eta=step,
        payoff=a,
    )


def ogda(
    payoff: object,
    *,
    eta: float | None = None,
    max_iter: int = DEFAULT_MAX_ITER,
    tol: float | None = DEFAULT_TOL,
    x0: object | None = None,
    y0: object | None = None,
) -> GDAResult:
    """Optimistic projected GDA (simultaneous), a last-iterate-convergent baseline.

    (our default form, spec 19 §3.5)::

        x^{t+1} = Π_Δ(x^t - η(2Ay^t - Ay^{t-1}))
        y^{t+1} = Π_Δ(y^t + η(2Aᵀx^t - Aᵀx^{t-1}))

    with ``(x^{-1}, y^{-1}) = (x^0, y^0)``.  The stopping quantity is NashConv.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        eta: step size ``η > 0``; ``None`` for ``1/(2||A||_2)`` (our default).
        max_iter: iteration cap (``>= 0``).
        tol: stopping tolerance on NashConv (``> 0``, absolute,
            payoff units); ``None`` runs exactly
            ``max_iter`` iterations.
        x0: ``(m,)`` start of the minimiser or ``None`` (uniform).
        y0: ``(n,)`` start of the maximiser or ``None`` (uniform).

    Returns:
        A :class:`GDAResult` with ``mu = 0``.

    Raises:
        TypeError: non-numeric arguments.
        ValueError: bad shape, non-finite payoffs, ``eta <= 0``, ``tol <= 0``,
            ``max_iter < 0``, starts off the simplex.

    Example:
        >>> r = ogda([[1.0, -1.0], [-1.0, 1.0]], x0=[0.9, 0.1], tol=1e-10)
        >>> r.converged
        True

    References:
        Wei, Lee, Zhang, Luo, "Linear last-iterate convergence in constrained saddle-point
        optimization", ICLR 2021 (OGDA); baseline of Abe et al., ICML 2026, Section 6.

    Variant:
        Simultaneous form with the ``2g^t - g^{t-1}`` correction; the paper's exact form
        was not retrieved.
    """
    a, iters, tolerance, x, y = _common(payoff, max_iter, tol, x0, y0)
    if eta is None:
        norm = _spectral_norm(a)
        step = 1.0 / (2.0 * norm) if norm > 0.0 else 1.0
    else:
        step = require_positive("eta", eta)
    gx_prev = a @ y
    gy_prev = a.T @ x
    value = _gap(a, x, y)
    history = [value]
    t = 0
    while value > tolerance and t < iters:
        gx = a @ y
        gy = a.T @ x
        x = _project(x - step * (2.0 * gx - gx_prev))
        y = _project(y + step * (2.0 * gy - gy_prev))
        gx_prev, gy_prev = gx, gy
        t += 1
        value = _gap(a, x, y)
        history.append(value)
    return _result(
        x=x,
        y=y,
        stopping=value,
        iterations=t,
        converged=value <= tolerance,
        history=history,
        stopping_history=history,
        mu=0.0,
        eta=step,
        payoff=a,
    )


def omwu(
    payoff: object,
    *,
    eta: float | None = None,
    max_iter: int = DEFAULT_MAX_ITER,
    tol: float | None = DEFAULT_TOL,
    x0: object | None = None,
    y0: object | None = None,
) -> GDAResult:
    """Optimistic multiplicative weights (simultaneous), a baseline.

    (our default form)::

        x^{t+1} ∝ x^t ⊙ exp(-η(2Ay^t - Ay^{t-1}))
        y^{t+1} ∝ y^t ⊙ exp(+η(2Aᵀx^t - Aᵀx^{t-1}))

    computed in the log domain.  Its last iterate converges when the equilibrium is
    unique and ``η`` is small; the stopping quantity is NashConv.  Starts must have full
    support for the iterates to be able to reach every strategy.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        eta: step size ``η > 0``; ``None`` for ``1/(8 max(1e-12, max|a_ij|))`` (our default,
            the ``η <= 1/8`` regime of Wei et al. for ``max|a_ij| <= 1``).
        max_iter: iteration cap (``>= 0``).
        tol: stopping tolerance on NashConv (``> 0``, absolute,
            payoff units); ``None`` runs exactly
            ``max_iter`` iterations.
        x0: ``(m,)`` start of the minimiser or ``None`` (uniform).
        y0: ``(n,)`` start of the maximiser or ``None`` (uniform).

    Returns:
        A :class:`GDAResult` with ``mu = 0``.

    Raises:
        TypeError: non-numeric arguments.
        ValueError: bad shape, non-finite payoffs, ``eta <= 0``, ``tol <= 0``,
            ``max_iter < 0``, starts off the simplex.

    Example:
        >>> r = omwu([[1.0, -1.0], [-1.0, 1.0]], x0=[0.9, 0.1], tol=1e-10)
        >>> r.converged
        True

    References:
        Daskalakis, Panageas, "Last-iterate convergence: zero-sum games and constrained
        min-max optimization", ITCS 2019; Wei, Lee, Zhang, Luo, ICLR 2021.
    """
    a, iters, tolerance, x, y = _common(payoff, max_iter, tol, x0, y0)
    if eta is None:
        step = 1.0 / (8.0 * max(1e-12, float(np.max(np.abs(a)))))
    else:
        step = require_positive("eta", eta)
    with np.errstate(divide="ignore"):
        log_x = np.log(x)
        log_y = np.log(y)
    gx_prev = a @ y
    gy_prev = a.T @ x
    value = _gap(a, x, y)
    history = [value]
    t = 0
    while value > tolerance and t < iters:
        gx = a @ y
        gy = a.T @ x
        log_x = log_x - step * (2.0 * gx - gx_prev)
        log_y = log_y + step * (2.0 * gy - gy_prev)
        log_x -= float(np.max(log_x))
        log_y -= float(np.max(log_y))
        x = np.exp(log_x)
        x /= x.sum()
        y = np.exp(log_y)
        y /= y.sum()
        gx_prev, gy_prev = gx, gy
        t += 1
        value = _gap(a, x, y)
        history.append(value)
    return _result(
        x=x,
        y=y,
        stopping=value,
        iterations=t,
        converged=value <= tolerance,
        history=history,
        stopping_history=history,
        mu=0.0,
        eta=step,
        payoff=a,
    )
