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
  :func:`perturbed_gap`, :func:`frank_wolfe_gap` (the official early-stop quantity),
  :func:`perturbed_minimiser` (the QP for ``x^μ``); the simplex projection is
  :func:`reference.games.project_simplex`.
* The paper's games, as the min-form loss ``A = -P`` of the row player's utility ``P``:
  :func:`biased_rps`, :func:`biased_matching_pennies`, :func:`m_ne`; the official runner's
  settings :data:`OFFICIAL` (:class:`RunnerSettings`) and its random starts
  :func:`dirichlet_starts`.

Orientation [official code, spec 19 §8]: the paper states each game as the row player's
utility ``P`` (the row player maximises ``xᵀPy``); our ``x`` minimises ``xᵀAy``, so the
paper's games enter as ``A = -P``.  Passing ``+P`` solves the mirrored game: same
equilibria and invariance threshold, but above the threshold ``x^μ`` differs (on biased RPS
actions 1 and 3 are swapped).

Runner semantics [official code, spec 19 §8]: every method updates alternately, ``x`` first,
each player with feedback recomputed from the current strategies; the mirrored (y-perturbed)
run of AsymP-GDA keeps that order (plain ``x`` first, then the perturbed ``y``).  The earlier
reconstructed forms remain as named variants (``variant="y_first"`` for the mirrored run,
``variant="simultaneous"`` for OGDA).  Algorithm 1 (:func:`parameter_free`) and the
step-size rule of Theorem 4.1 are not in the official code: they stay *reconstructed*.

Provenance labels follow spec 19: [paper] confirmed from the paper's notes;
[official code] read from the authors' repository (spec 19 §8);
(our default) chosen by us where the paper's value was not retrievable;
[derived] proved or computed by us.

References:
    K. Abe, M. Sakamoto, K. Ariu, A. Iwasaki, "Asymmetric Perturbation in Solving
    Bilinear Saddle-Point Optimization", ICML 2026, arXiv:2506.05747.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import Bounds, LinearConstraint, minimize

from reference._arrays import (
    FloatArray,
    as_float_array,
    as_simplex_point,
    readonly,
    require_generator,
    require_int,
    require_positive,
)
from reference._repr import summary_repr
from reference.games import duality_gap

# The library's one simplex projection and one duality gap live in reference.games
# (STYLE B1); the hot loops below use their unvalidated cores.
from reference.games.base import _gap, _project

#: NashConv of a matrix game is its duality gap: an alias of
#: :func:`reference.games.duality_gap` (same function, same validation).
nash_conv = duality_gap

__all__ = [
    "MU_FLOOR",
    "OFFICIAL",
    "GDAResult",
    "ParameterFreeResult",
    "RunnerSettings",
    "asymp_gda",
    "asymp_gda_side",
    "biased_matching_pennies",
    "biased_rps",
    "default_step_size",
    "dirichlet_starts",
    "frank_wolfe_gap",
    "gda",
    "m_ne",
    "nash_conv",
    "ogda",
    "omwu",
    "parameter_free",
    "perturbed_gap",
    "perturbed_minimiser",
    "symp_gda",
]

Side = Literal["x", "y"]
#: Order of the mirrored run: ``"official"`` plain x first, then the perturbed y (official
#: code); ``"y_first"`` the perturbed y first (the reconstruction of spec 19 §3.2).
MirrorOrder = Literal["official", "y_first"]
#: OGDA form: ``"official"`` two-sequence alternating optimistic GDA (official code);
#: ``"simultaneous"`` the ``2g^t - g^{t-1}`` form of spec 19 §3.5.
OGDAForm = Literal["official", "simultaneous"]
#: Stopping quantity: ``"gap"`` the method's own duality gap (see each method);
#: ``"frank_wolfe"`` the official early-stop quantity (:func:`frank_wolfe_gap`).
Stop = Literal["gap", "frank_wolfe"]

#: Default iteration cap of the fixed-``μ`` methods (our default).
DEFAULT_MAX_ITER = 100_000
#: Default stopping tolerance of the fixed-``μ`` methods (our default).
DEFAULT_TOL = 1e-12
#: :func:`parameter_free` never halves ``μ`` below ``MU_FLOOR · ||A||_2`` (our default,
#: ``2^-52``): below it ``μx`` is under the rounding of the gradient ``Ay``, so halving changes
#: nothing, and ``-Ay/μ`` in the perturbed gap would overflow after ~1000 halvings.
MU_FLOOR = 2.0**-52


# ------------------------------------------------------------------------------ helpers
def _spectral_norm(a: FloatArray) -> float:
    return float(np.linalg.norm(a, 2))


def _reciprocal(denominator: float, what: str) -> float:
    """``1/denominator`` for a default step size; ValueError where it overflows to ``inf``.

    A payoff (or ``μ``) so small that ``1/(μ + ||A||_2)`` is not a finite float (``||A||_2``
    below about ``5.6e-309``, subnormal) has no usable default step; rescaling ``A`` by a
    positive factor leaves the equilibria unchanged.
    """
    step = 1.0 / denominator
    if not math.isfinite(step):
        raise ValueError(
            f"payoff: {what} = {denominator!r} is too small for a finite default step "
            f"1/({what}); rescale the payoff or pass step_size"
        )
    return step


def default_step_size(payoff: ArrayLike, *, mu: float = 0.0) -> float:
    """Our default step size ``η = 1/(μ + ||A||_2)`` (``1`` when ``A = 0`` and ``μ = 0``).

    (our default, spec 19 §3.1; reconstructed): the paper's step-size condition of Theorem 4.1
    was not retrieved and is not in the official code, whose runner fixes ``η = 0.01``
    (:data:`OFFICIAL`).  In the unconstrained linear case the AsymP-GDA iteration matrix per
    singular value ``s`` has determinant ``1 - ημ`` and is Schur-stable when
    ``η²s² + 2ημ < 4`` [derived], which this choice satisfies.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        mu: perturbation strength ``μ >= 0``.

    Returns:
        The step size ``η > 0``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shape, non-finite entries, ``mu < 0``, or ``0 < μ + ||A||_2`` so
            small (subnormal) that ``1/(μ + ||A||_2)`` overflows.

    Example:
        >>> default_step_size([[3.0, 0.0], [0.0, 1.0]], mu=1.0)
        0.25
    """
    a = as_float_array("payoff", payoff, ndim=2)
    m = require_positive("mu", mu, allow_zero=True)
    denominator = m + _spectral_norm(a)
    return _reciprocal(denominator, "mu + ||A||_2") if denominator > 0.0 else 1.0


def _check_payoff(payoff: object) -> FloatArray:
    return as_float_array("payoff", payoff, ndim=2)


def _start(name: str, value: object | None, size: int) -> FloatArray:
    if value is None:
        return np.full(size, 1.0 / size)
    return as_simplex_point(name, value, size=size)


def _step(payoff: FloatArray, step_size: float | None, mu: float) -> float:
    if step_size is None:
        denominator = mu + _spectral_norm(payoff)
        return _reciprocal(denominator, "mu + ||A||_2") if denominator > 0.0 else 1.0
    return require_positive("step_size", step_size)


def _perturbed_gap(a: FloatArray, x: FloatArray, y: FloatArray, mu: float) -> float:
    """gap_μ(x, y) of the x-side perturbed game (spec 19 §2), no validation."""
    ay = a @ y
    best = _project(-ay / mu)  # argmin_{x'} x'ᵀAy + (μ/2)||x'||²
    upper = float(np.max(x @ a)) + 0.5 * mu * float(x @ x)
    lower = float(best @ ay) + 0.5 * mu * float(best @ best)
    return upper - lower


# ------------------------------------------------------------------------------ measures
def perturbed_gap(payoff: ArrayLike, x: ArrayLike, y: ArrayLike, *, mu: float) -> float:
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


def _fw_gap(a: FloatArray, x: FloatArray, y: FloatArray, mu_x: float, mu_y: float) -> float:
    """Sum of the two players' Frank-Wolfe-type gaps (official early stop), no validation."""
    gx = -(a @ y) - mu_x * x  # x's utility gradient (x minimises xᵀAy + (μ_x/2)||x||²)
    gy = a.T @ x - mu_y * y  # y's utility gradient (y maximises xᵀAy - (μ_y/2)||y||²)
    return float(np.max(gx) - gx @ x) + float(np.max(gy) - gy @ y)


def frank_wolfe_gap(
    payoff: ArrayLike, x: ArrayLike, y: ArrayLike, *, mu_x: float = 0.0, mu_y: float = 0.0
) -> float:
    """The official early-stop quantity: the sum of the players' Frank-Wolfe-type gaps.

    [official code, spec 19 §8] With each player's utility gradient ``g`` (``g_x = -Ay``,
    ``g_y = Aᵀx`` in our min-form), a perturbed player's gap is
    ``max(g - μp) - gᵀp + μ||p||²`` and a plain player's ``max(g) - gᵀp``; this returns
    ``gap_x + gap_y`` with ``μ_x`` (``mu_x``) and ``μ_y`` (``mu_y``) the two perturbations
    (0 for a plain player).  It is ``>= 0`` and ``0`` exactly at a stationary point of the
    (perturbed) game; the official runner stops when it is below ``1e-13``.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        x: ``(m,)`` point of the simplex.
        y: ``(n,)`` point of the simplex.
        mu_x: perturbation of the minimiser (``>= 0``).
        mu_y: perturbation of the maximiser (``>= 0``).

    Returns:
        The sum of the two gaps.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, points off the simplex, negative ``mu``.

    Example:
        >>> round(frank_wolfe_gap(biased_rps(), [1.0, 0.0, 0.0], [0.2, 0.6, 0.2]), 12)
        1.0
        >>> frank_wolfe_gap(biased_rps(), [0.2, 0.6, 0.2], [0.2, 0.6, 0.2]) < 1e-15
        True
    """
    a = _check_payoff(payoff)
    xs = as_simplex_point("x", x, size=a.shape[0])
    ys = as_simplex_point("y", y, size=a.shape[1])
    mx = require_positive("mu_x", mu_x, allow_zero=True)
    my = require_positive("mu_y", mu_y, allow_zero=True)
    return _fw_gap(a, xs, ys, mx, my)


# ------------------------------------------------------------------------------ the paper's games
def biased_rps() -> FloatArray:
    """Biased rock-paper-scissors as our min-form loss ``A = -P``.

    [official code, spec 19 §8] The paper's row-player utility is
    ``P = [[0, -1, 3], [1, 0, -1], [-3, 1, 0]]``; the unique equilibrium is
    ``x* = y* = (1/5, 3/5, 1/5)`` and the value is 0.  The μ sweep of the paper
    (``x^μ = x*`` for ``μ <= 2``, shifted at ``μ = 3-4``) holds at this unscaled size.

    Returns:
        ``(3, 3)`` read-only ``A = -P``.

    Example:
        >>> biased_rps().tolist()
        [[-0.0, 1.0, -3.0], [-1.0, -0.0, 1.0], [3.0, -1.0, -0.0]]

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Section 6; the authors' code (``nfg/``).
    """
    p = np.array([[0.0, -1.0, 3.0], [1.0, 0.0, -1.0], [-3.0, 1.0, 0.0]])
    return readonly(-p)


def biased_matching_pennies() -> FloatArray:
    """Biased matching pennies as our min-form loss ``A = -P``.

    [official code, spec 19 §8] ``P = [[-1/3, 2/3], [2/3, -1]]``; the unique equilibrium is
    ``x* = y* = (5/8, 3/8)``.

    Returns:
        ``(2, 2)`` read-only ``A = -P``.

    Example:
        >>> [[round(v, 4) for v in row] for row in biased_matching_pennies().tolist()]
        [[0.3333, -0.6667], [-0.6667, 1.0]]

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Section 6; the authors' code (``nfg/``).
    """
    p = np.array([[-1.0 / 3.0, 2.0 / 3.0], [2.0 / 3.0, -1.0]])
    return readonly(-p)


def m_ne() -> FloatArray:
    """The paper's game "M-Ne" (multiple Nash equilibria) as our min-form loss ``A = -P``.

    [official code, spec 19 §8] ``P = -M`` with
    ``M = [[0,-1,1,0,0], [1,0,-1,0,0], [-1,1,0,0,0], [-1,1,0,2,-1], [-1,1,0,-1,2]]``, so
    ``A = M``.  The value is 0, the minimiser's equilibrium ``x* = (1/3, 1/3, 1/3, 0, 0)`` is
    unique and the maximiser's equilibria form a polytope.

    Returns:
        ``(5, 5)`` read-only ``A = -P``.

    Example:
        >>> m_ne()[3].tolist()
        [-1.0, 1.0, 0.0, 2.0, -1.0]

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Section 6; the authors' code (``nfg/``).
    """
    m = np.array(
        [
            [0.0, -1.0, 1.0, 0.0, 0.0],
            [1.0, 0.0, -1.0, 0.0, 0.0],
            [-1.0, 1.0, 0.0, 0.0, 0.0],
            [-1.0, 1.0, 0.0, 2.0, -1.0],
            [-1.0, 1.0, 0.0, -1.0, 2.0],
        ]
    )
    p = -m
    return readonly(-p)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunnerSettings:
    """Settings of the official normal-form runner [official code, spec 19 §8].

    Attributes:
        step_size: fixed step size ``η`` (all methods).
        mu: perturbation strength ``μ`` (AsymP-GDA, SymP-GDA).
        iterations: iteration cap per trial.
        trials: number of random starts.
        gap_tol: early stop when :func:`frank_wolfe_gap` (per run) is below it.
    """

    step_size: float = 0.01
    mu: float = 1.0
    iterations: int = 100_000
    trials: int = 100
    gap_tol: float = 1e-13

    def __post_init__(self) -> None:
        require_positive("step_size", self.step_size)
        require_positive("mu", self.mu)
        require_int("iterations", self.iterations, minimum=0)
        require_int("trials", self.trials, minimum=1)
        require_positive("gap_tol", self.gap_tol)


#: The official normal-form defaults: ``η = 0.01``, ``μ = 1``, 1e5 iterations, 100 Dirichlet(1)
#: starts, early stop on the Frank-Wolfe-type gaps below 1e-13 [official code, spec 19 §8].
#: Use as ``asymp_gda(A, mu=OFFICIAL.mu, step_size=OFFICIAL.step_size, max_iter=OFFICIAL.iterations,
#: tol=OFFICIAL.gap_tol, stop="frank_wolfe", x0=x0, y0=y0)`` with starts from
#: :func:`dirichlet_starts`.
OFFICIAL = RunnerSettings()


def dirichlet_starts(
    shape: tuple[int, int], *, trials: int, rng: np.random.Generator
) -> tuple[FloatArray, FloatArray]:
    """Random starts of the official runner: ``x0, y0 ~ Dirichlet(1)`` (normalised Exp(1)).

    [official code, spec 19 §8] Draws ``x0`` then ``y0`` for each trial.

    Args:
        shape: ``(m, n)`` of the payoff matrix.
        trials: number of starts (``>= 1``).
        rng: the random generator.

    Returns:
        ``(x0s, y0s)``: read-only ``(trials, m)`` and ``(trials, n)`` rows on the simplices.

    Raises:
        TypeError: non-integer sizes, ``rng`` not a Generator.
        ValueError: sizes or ``trials`` below 1.

    Example:
        >>> x0, y0 = dirichlet_starts((3, 2), trials=4, rng=np.random.default_rng(0))
        >>> x0.shape, y0.shape, bool(np.allclose(x0.sum(axis=1), 1.0))
        ((4, 3), (4, 2), True)
    """
    if not isinstance(shape, tuple) or len(shape) != 2:
        raise TypeError(f"shape: expected a pair (m, n), got {shape!r}")
    m = require_int("shape[0]", shape[0], minimum=1)
    n = require_int("shape[1]", shape[1], minimum=1)
    k = require_int("trials", trials, minimum=1)
    gen = require_generator("rng", rng)
    xs = np.empty((k, m))
    ys = np.empty((k, n))
    for t in range(k):
        ex = gen.exponential(1.0, size=m)
        ey = gen.exponential(1.0, size=n)
        xs[t] = ex / ex.sum()
        ys[t] = ey / ey.sum()
    return readonly(xs), readonly(ys)


def perturbed_minimiser(payoff: ArrayLike, *, mu: float) -> FloatArray:
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
@summary_repr
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
        step_size: step size used.
        partners: :func:`asymp_gda` only: ``(y_a, x_b)``, the x-side run's maximiser and the
            y-side run's minimiser (read-only), with which its stopping quantity is computed;
            ``None`` for the single-run methods.
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
    step_size: float
    partners: tuple[FloatArray, FloatArray] | None = None


@summary_repr
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


#: The state of a fixed-step method: the output pair ``(x, y)`` first, then whatever else the
#: method carries from one iteration to the next.
State = tuple[FloatArray, ...]


def _iterate(
    a: FloatArray,
    start: State,
    update: Callable[[State], State],
    stopping: Callable[[State], float] | None,
    max_iter: int,
    tol: float,
    *,
    mu: float,
    step_size: float,
    partners: bool = False,
) -> GDAResult:
    """The loop of every fixed-step method: ``state = update(state)`` until the stopping
    quantity is ``<= tol`` or ``max_iter`` iterations have run.

    ``stopping`` computes the method's stopping quantity from a state (``None``: NashConv of
    ``(x, y)``).  NashConv and the stopping quantity are recorded for ``t = 0..iterations``;
    with ``partners`` the state's third and fourth entries are returned as ``partners``.
    """

    def measure(s: State) -> tuple[float, float]:
        nash = _gap(a, s[0], s[1])
        return nash, nash if stopping is None else stopping(s)

    state, t = start, 0
    nash, gap = measure(state)
    history, gaps = [nash], [gap]
    while gap > tol and t < max_iter:
        state = update(state)
        t += 1
        nash, gap = measure(state)
        history.append(nash)
        gaps.append(gap)
    frozen = [readonly(v.copy()) for v in state]
    return GDAResult(
        x=frozen[0],
        y=frozen[1],
        nash_conv=nash,
        stopping=gap,
        iterations=t,
        converged=gap <= tol,
        stop_reason="tol" if gap <= tol else "max_iter",
        history=readonly(np.array(history, dtype=np.float64)),
        stopping_history=readonly(np.array(gaps, dtype=np.float64)),
        mu=mu,
        step_size=step_size,
        partners=(frozen[2], frozen[3]) if partners else None,
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
    a: FloatArray, x: FloatArray, y: FloatArray, mu: float, step_size: float
) -> tuple[FloatArray, FloatArray]:
    """One step of spec 19 §3.1 (mu = 0 gives alternating GDA)."""
    x_new = _project(x - step_size * (a @ y + mu * x))  # §3.1 l.1
    y_new = _project(y + step_size * (a.T @ x_new))  # §3.1 l.2 (uses the new x)
    return x_new, y_new


def _asymp_pair_step(
    a: FloatArray,
    b: FloatArray,
    xa: FloatArray,
    ya: FloatArray,
    xb: FloatArray,
    yb: FloatArray,
    mu: float,
    step_size: float,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """One step of both runs; ``b = -Aᵀ`` and the y side keeps ``(xb, yb)`` in A's roles."""
    xa, ya = _asymp_x_step(a, xa, ya, mu, step_size)
    yb, xb = _asymp_x_step(b, yb, xb, mu, step_size)  # §3.2 as §3.1 on -Aᵀ, roles swapped
    return xa, ya, xb, yb


def _mirror_step(
    a: FloatArray, x: FloatArray, y: FloatArray, mu: float, step_size: float
) -> tuple[FloatArray, FloatArray]:
    """One step of the mirrored run in the official order: plain x first, then perturbed y."""
    x_new = _project(x - step_size * (a @ y))  # official: x first, unperturbed
    y_new = _project(y + step_size * (a.T @ x_new - mu * y))  # perturbed y, uses the new x
    return x_new, y_new


def _check_order(variant: object) -> MirrorOrder:
    if variant == "official":
        return "official"
    if variant == "y_first":
        return "y_first"
    raise ValueError(f"variant: expected 'official' or 'y_first', got {variant!r}")


def _check_stop(stop: object) -> Stop:
    if stop == "gap":
        return "gap"
    if stop == "frank_wolfe":
        return "frank_wolfe"
    raise ValueError(f"stop: expected 'gap' or 'frank_wolfe', got {stop!r}")


def _side_quantity(
    a: FloatArray, x: FloatArray, y: FloatArray, mu: float, side: Side, stop: Stop
) -> float:
    """Stopping quantity of one run in A's roles (x minimises); ``side`` names the perturbed one."""
    if stop == "frank_wolfe":
        return _fw_gap(a, x, y, mu, 0.0) if side == "x" else _fw_gap(a, x, y, 0.0, mu)
    return _perturbed_gap(a, x, y, mu) if side == "x" else _perturbed_gap(-a.T, y, x, mu)


def _side_step(
    a: FloatArray,
    x: FloatArray,
    y: FloatArray,
    mu: float,
    step_size: float,
    side: Side,
    order: MirrorOrder,
) -> tuple[FloatArray, FloatArray]:
    """One iteration of one run, in A's roles."""
    if side == "x":
        return _asymp_x_step(a, x, y, mu, step_size)
    if order == "official":
        return _mirror_step(a, x, y, mu, step_size)
    y_new, x_new = _asymp_x_step(-a.T, y, x, mu, step_size)  # y first: §3.1 on -Aᵀ, roles swapped
    return x_new, y_new


def asymp_gda_side(
    payoff: ArrayLike,
    *,
    mu: float,
    side: Side = "x",
    step_size: float | None = None,
    max_iter: int = DEFAULT_MAX_ITER,
    tol: float | None = DEFAULT_TOL,
    x0: object | None = None,
    y0: object | None = None,
    variant: MirrorOrder = "official",
    stop: Stop = "gap",
) -> GDAResult:
    """One run of AsymP-GDA: alternating projected GDA with one player perturbed.

    x side (spec 19 §3.1) [paper; order confirmed by the official code]::

        x^{t+1} = Π_Δ(x^t - η(A y^t + μ x^t))
        y^{t+1} = Π_Δ(y^t + η Aᵀ x^{t+1})

    y side, mirrored, in the official runner's order (spec 19 §8) [official code]::

        x^{t+1} = Π_Δ(x^t - η A y^t)
        y^{t+1} = Π_Δ(y^t + η(Aᵀ x^{t+1} - μ y^t))

    Symbol map: ``A`` is ``payoff`` (the min-form loss ``-P`` of the paper's row utility
    ``P``), ``μ`` is ``mu``, ``η`` is ``step_size`` (default ``1/(μ + ||A||_2)``, our default;
    the official runner fixes ``η = 0.01``, see :data:`OFFICIAL`), ``(x^0, y^0)`` is
    ``(x0, y0)`` (uniform by default; the official runner draws Dirichlet(1) starts).  The
    stopping quantity (``stop``) is the perturbed gap of that side's game
    (:func:`perturbed_gap`; on ``(-Aᵀ, y, x)`` for the y side) or, with
    ``stop="frank_wolfe"``, the official :func:`frank_wolfe_gap`; the run stops at the
    first ``t`` where it is ``<= tol``, or after ``max_iter`` iterations.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        mu: perturbation strength ``μ > 0``.
        side: ``"x"`` (perturb the minimiser) or ``"y"`` (perturb the maximiser).
        step_size: step size ``η > 0``; ``None`` for the default.
        max_iter: iteration cap (``>= 0``).
        tol: stopping tolerance on the chosen quantity (``> 0``, absolute, payoff units);
            ``None`` runs exactly ``max_iter`` iterations.
        x0: ``(m,)`` start of the minimiser (simplex point) or ``None``.
        y0: ``(n,)`` start of the maximiser (simplex point) or ``None``.
        variant: order of the y-side run, ``"official"`` (x first) or ``"y_first"``.
        stop: ``"gap"`` (perturbed duality gap) or ``"frank_wolfe"``.

    Returns:
        A :class:`GDAResult`; ``stopping`` is the chosen quantity, ``history`` NashConv.

    Raises:
        TypeError: non-numeric arguments.
        ValueError: bad shapes, non-finite payoffs, ``mu <= 0``, ``step_size <= 0``,
            ``tol <= 0``, ``max_iter < 0``, starts off the simplex, unknown ``side``,
            ``variant`` or ``stop``, no finite default step (see :func:`default_step_size`).

    Example:
        >>> r = asymp_gda_side([[2.0, -1.0], [-1.0, 1.0]], mu=1.0, max_iter=5000, tol=1e-13)
        >>> [round(float(v), 8) for v in r.x], r.converged
        ([0.4, 0.6], True)

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Section 4 (AsymP-GDA, Theorem 4.1); the
        authors' code, normal-form runner (spec 19 §8).

    Variant:
        ``variant="official"`` (default): alternating, x first in both runs, as the official
        runner.  ``variant="y_first"``: the mirrored run updates the perturbed y first (spec
        19 §3.2, our earlier reconstruction; it is §3.1 on ``-Aᵀ`` with the roles swapped).
        Both have the same fixed points.  The x-side run is the same in both.
    """
    a, iters, tolerance, x, y = _common(payoff, max_iter, tol, x0, y0)
    m = require_positive("mu", mu)
    if side not in ("x", "y"):
        raise ValueError(f"side: expected 'x' or 'y', got {side!r}")
    order = _check_order(variant)
    quantity = _check_stop(stop)
    step = _step(a, step_size, m)

    def update(s: State) -> State:
        return _side_step(a, s[0], s[1], m, step, side, order)

    def stopping(s: State) -> float:
        return _side_quantity(a, s[0], s[1], m, side, quantity)

    return _iterate(a, (x, y), update, stopping, iters, tolerance, mu=m, step_size=step)


def asymp_gda(
    payoff: ArrayLike,
    *,
    mu: float,
    step_size: float | None = None,
    max_iter: int = DEFAULT_MAX_ITER,
    tol: float | None = DEFAULT_TOL,
    x0: object | None = None,
    y0: object | None = None,
    variant: MirrorOrder = "official",
    stop: Stop = "gap",
) -> GDAResult:
    """AsymP-GDA for both players: x from the x-side run, y from the mirrored y-side run.

    Runs the x-side run ``(x_a, y_a)`` and the mirrored y-side run ``(x_b, y_b)`` of
    :func:`asymp_gda_side` in lockstep from the same start ``(x0, y0)`` and outputs
    ``(x_a, y_b)`` (spec 19 §3.3) [paper].  Both runs update alternately, x first
    [official code, spec 19 §8]::

        x_a ← Π_Δ(x_a - η(A y_a + μ x_a)),   y_a ← Π_Δ(y_a + η Aᵀ x_a)
        x_b ← Π_Δ(x_b - η A y_b),            y_b ← Π_Δ(y_b + η(Aᵀ x_b - μ y_b))

    For ``μ`` below the game's invariance threshold both limits are equilibrium strategies
    of the original game (Corollary 3.2), so NashConv of the output tends to 0; above it
    the output is the pair of perturbed strategies ``(x^μ, y^μ)``.  The stopping quantity is
    the larger of the two runs' quantities (perturbed gaps, or with ``stop="frank_wolfe"``
    the official Frank-Wolfe-type gaps); ``history`` holds NashConv ``(x_a^t, y_b^t)``.
    One iteration advances both runs once (two strategy updates per player, as the paper
    counts for fairness).  Pass ``A = -P`` for a game given as the row player's utility
    ``P`` (:func:`biased_rps` etc.); the official settings are :data:`OFFICIAL`.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        mu: perturbation strength ``μ > 0``.
        step_size: step size ``η > 0``; ``None`` for ``1/(μ + ||A||_2)`` (our default).
        max_iter: iteration cap (``>= 0``).
        tol: stopping tolerance on the larger of the two runs' quantities (``> 0``, absolute,
            payoff units); ``None`` runs exactly ``max_iter`` iterations.
        x0: ``(m,)`` start of the minimiser in both runs (simplex point) or ``None`` (uniform).
        y0: ``(n,)`` start of the maximiser in both runs (simplex point) or ``None`` (uniform).
        variant: ``"official"`` (x first in both runs) or ``"y_first"`` (mirrored run
            updates the perturbed y first).
        stop: ``"gap"`` (perturbed duality gaps) or ``"frank_wolfe"`` (official early stop).

    Returns:
        A :class:`GDAResult` with ``x = x_a``, ``y = y_b``.

    Raises:
        TypeError: non-numeric arguments.
        ValueError: bad shape, non-finite payoffs, ``mu <= 0``, ``step_size <= 0``, ``tol <= 0``,
            ``max_iter < 0``, starts off the simplex, unknown ``variant`` or ``stop``, no
            finite default step (see :func:`default_step_size`).

    Example:
        >>> r = asymp_gda(biased_rps(), mu=0.5, max_iter=20000, tol=1e-14)
        >>> [round(float(v), 8) for v in r.x], [round(float(v), 8) for v in r.y]
        ([0.2, 0.6, 0.2], [0.2, 0.6, 0.2])

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Sections 3-4 (Corollary 3.2, Theorem 4.1);
        the authors' code, normal-form runner (spec 19 §8).

    Variant:
        ``variant="official"`` (default) follows the official runner; ``variant="y_first"``
        is the earlier reconstruction (spec 19 §3.2), identical to the x-side run on ``-Aᵀ``
        with the roles swapped.  Step size: our default unless ``step_size`` is given.
    """
    a, iters, tolerance, x, y = _common(payoff, max_iter, tol, x0, y0)
    m = require_positive("mu", mu)
    order = _check_order(variant)
    quantity = _check_stop(stop)
    step = _step(a, step_size, m)

    def update(s: State) -> State:  # the state is (x_a, y_b, y_a, x_b): the output pair first
        xa, yb, ya, xb = s
        xa, ya = _asymp_x_step(a, xa, ya, m, step)  # x-side run (§3.1)
        if order == "official":  # mirrored run, plain x first (§8)
            xb, yb = _mirror_step(a, xb, yb, m, step)
        else:  # mirrored run, perturbed y first (§3.2): §3.1 on -Aᵀ, roles swapped
            yb, xb = _asymp_x_step(-a.T, yb, xb, m, step)
        return xa, yb, ya, xb

    def stopping(s: State) -> float:
        xa, yb, ya, xb = s
        if quantity == "frank_wolfe":
            return max(_fw_gap(a, xa, ya, m, 0.0), _fw_gap(a, xb, yb, 0.0, m))
        return max(_perturbed_gap(a, xa, ya, m), _perturbed_gap(-a.T, yb, xb, m))

    start = (x, y.copy(), y, x.copy())
    return _iterate(
        a, start, update, stopping, iters, tolerance, mu=m, step_size=step, partners=True
    )


# ------------------------------------------------------------------------------ Algorithm 1
def _stall_window(patience: int, period: int, eta_mu: float) -> int:
    """Steps between two looks of the stall rule (``patience > 0``; not in Algorithm 1).

    ``patience``, but at least ``4/(ημ)`` (four times the e-folding time of the round's linear
    rate ``≈ e^{-ημ t}`` [derived, spec 19 §3], so that a round that is merely slow is not read
    as stalled), rounded up to a multiple of ``period``; 0 when ``patience = 0`` (rule off).
    """
    if patience == 0:
        return 0
    steps = max(float(patience), 4.0 / eta_mu) if eta_mu > 0.0 else float(patience)
    return period * max(1, math.ceil(min(steps, 1e15) / period))


def parameter_free(
    payoff: ArrayLike,
    *,
    tol: float = 1e-9,
    max_iter: int = 2_000_000,
    mu_init: float | None = None,
    max_inner: int = 200_000,
    check_every: int = 10,
    patience: int = 0,
) -> ParameterFreeResult:
    """Parameter-free AsymP-GDA (Algorithm 1): halve ``μ`` until NashConv ``<= tol``.

    Outer rounds ``k = 0, 1, ...`` use ``μ_k = μ_init/2^k`` and ``η_k = 1/(μ_k + ||A||_2)``
    [paper structure; constants our default, spec 19 §3.4].  Each inner step advances the
    x-side run ``(x_a, y_a)`` (§3.1) and the y-side run ``(x_b, y_b)`` (§3.2) once, warm
    started across rounds.  Every ``check_every`` steps: return ``(x_a, y_b)`` if
    ``NashConv(x_a, y_b) <= tol``; leave the round when both perturbed gaps are
    ``<= δ_k = max(μ_k tol²/(8 L_g²), 1e-13·max(1, max|a_ij|))`` (our default inner rule;
    ``L_g`` the largest Euclidean norm of a row or column of ``A``) or after ``max_inner``
    steps; then halve ``μ``.  That is the algorithm of spec 19 §3.4, and the default.
    Symbol map: ``ε`` is ``tol``, ``μ_init`` is ``mu_init`` (default ``||A||_2``, our
    default), ``c`` is ``check_every``.

    Two safeguards that Algorithm 1 does not contain:

    * ``patience > 0`` (option, off by default) adds a stall rule: a round also ends when the
      larger perturbed gap has not halved over the last ``max(patience, 4/(η_k μ_k))`` steps
      (rounded up to a multiple of ``check_every``, :func:`_stall_window`), so that a round
      whose gaps stop shrinking (payoff differences near rounding level) does not hold up the
      halving until ``max_inner``.  Leaving a round early never harms correctness: the output
      is only returned as converged once NashConv ``<= tol``.
    * ``μ`` is never halved below ``MU_FLOOR · ||A||_2`` (:data:`MU_FLOOR`, always on): the run
      stops there with ``stop_reason="mu_floor"``, unconverged, because below it a step no
      longer sees ``μ`` and the perturbed gap overflows.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        tol: target NashConv ``ε > 0`` (absolute, in payoff units).
        max_iter: cap on the total number of inner steps (``>= 0``).
        mu_init: initial ``μ >= MU_FLOOR · ||A||_2``, ``> 0``; ``None`` for ``||A||_2``
            (``1`` if ``A = 0``).
        max_inner: cap on the steps of one round (``>= 1``).
        check_every: check period ``c >= 1``.
        patience: the stall rule's window in steps (``>= 0``); 0 (default) runs Algorithm 1
            without it.

    Returns:
        A :class:`ParameterFreeResult`; ``converged`` iff ``nash_conv <= tol`` (NashConv of the
        returned pair); ``stop_reason`` ``"tol"``, ``"max_iter"`` or ``"mu_floor"``.

    Raises:
        TypeError: non-numeric arguments.
        ValueError: bad shape, non-finite payoffs, ``tol <= 0``, ``mu_init <= 0`` or below
            ``MU_FLOOR · ||A||_2``, bad caps, ``0 < ||A||_2`` so small (subnormal) that
            ``1/||A||_2`` overflows.

    Example:
        >>> r = parameter_free([[0.0, -1.0, 3.0], [1.0, 0.0, -1.0], [-3.0, 1.0, 0.0]], tol=1e-10)
        >>> r.converged, r.nash_conv <= 1e-10, [round(float(v), 6) for v in r.x]
        (True, True, [0.2, 0.6, 0.2])

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Algorithm 1 (O(log 1/ε) iterations).

    Variant:
        Reconstructed: Algorithm 1 is not in the authors' official code (spec 19 §8), so the
        inner stopping rule ``δ_k`` with floor ``1e-13·max(1, max|a_ij|)`` and
        ``μ_init = ||A||_2`` are our defaults; the paper's were not retrieved.  Its mirrored
        run updates the perturbed y first (the ``variant="y_first"`` order of
        :func:`asymp_gda`); the fixed points are the same as in the official order.
    """
    a = _check_payoff(payoff)
    eps = require_positive("tol", tol)
    total_cap = require_int("max_iter", max_iter, minimum=0)
    inner_cap = require_int("max_inner", max_inner, minimum=1)
    period = require_int("check_every", check_every, minimum=1)
    stall = require_int("patience", patience, minimum=0)
    norm = _spectral_norm(a)
    if norm > 0.0:  # η_k = 1/(μ_k + ||A||_2) <= 1/||A||_2 must stay finite in every round
        _reciprocal(norm, "||A||_2")
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
        step_size = 1.0 / (mu + norm)
        delta = max(mu * eps * eps / (8.0 * lipschitz * lipschitz), floor) if lipschitz else floor
        inner = 0
        milestone = math.inf
        window = _stall_window(stall, period, step_size * mu)
        while inner < inner_cap and total < total_cap:  # Alg. 1, inner loop
            xa, ya, xb, yb = _asymp_pair_step(a, b, xa, ya, xb, yb, mu, step_size)
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
            if window and inner % window == 0:  # stall rule (our extension)
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
    payoff: ArrayLike,
    *,
    mu: float,
    step_size: float | None = None,
    max_iter: int = DEFAULT_MAX_ITER,
    tol: float | None = DEFAULT_TOL,
    x0: object | None = None,
    y0: object | None = None,
    stop: Stop = "gap",
) -> GDAResult:
    """SymP-GDA baseline: alternating projected GDA with both players perturbed.

    Spec 19 §3.5 [paper baseline; the official runner's form, spec 19 §8]::

        x^{t+1} = Π_Δ(x^t - η(A y^t + μ x^t))
        y^{t+1} = Π_Δ(y^t + η(Aᵀ x^{t+1} - μ y^t))

    It converges to the unique saddle point of ``xᵀAy + (μ/2)||x||² - (μ/2)||y||²``,
    which generally is *not* a Nash equilibrium.  The stopping quantity is the duality
    gap of that symmetric perturbed game (computed exactly through two projections), or with
    ``stop="frank_wolfe"`` the official :func:`frank_wolfe_gap` with ``μ_x = μ_y = μ``.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        mu: perturbation strength ``μ > 0``.
        step_size: step size ``η > 0``; ``None`` for ``1/(μ + ||A||_2)`` (our default).
        max_iter: iteration cap (``>= 0``).
        tol: stopping tolerance on the symmetric perturbed gap (``> 0``, absolute,
            payoff units); ``None`` runs exactly
            ``max_iter`` iterations.
        x0: ``(m,)`` start of the minimiser or ``None`` (uniform).
        y0: ``(n,)`` start of the maximiser or ``None`` (uniform).
        stop: ``"gap"`` (symmetric perturbed gap) or ``"frank_wolfe"`` (official early stop).

    Returns:
        A :class:`GDAResult` (``history`` is NashConv in the original game).

    Raises:
        TypeError: non-numeric arguments.
        ValueError: bad shape, non-finite payoffs, ``mu <= 0``, ``step_size <= 0``, ``tol <= 0``,
            ``max_iter < 0``, starts off the simplex, unknown ``stop``, no finite default
            step (see :func:`default_step_size`).

    Example:
        >>> r = symp_gda(biased_rps(), mu=1.0)
        >>> r.converged, r.nash_conv > 1e-3
        (True, True)

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Section 6 (baseline); the authors' code,
        normal-form runner (spec 19 §8); the symmetric scheme of Liu, Ozdaglar, Yu, Zhang,
        ICLR 2023.

    Variant:
        Alternating, x first (the official runner's order; the only form implemented).
    """
    a, iters, tolerance, x, y = _common(payoff, max_iter, tol, x0, y0)
    m = require_positive("mu", mu)
    step = _step(a, step_size, m)
    quantity = _check_stop(stop)

    def update(s: State) -> State:
        x, y = s
        x = _project(x - step * (a @ y + m * x))
        y = _project(y + step * (a.T @ x - m * y))
        return x, y

    def gap_sym(s: State) -> float:
        p, q = s
        if quantity == "frank_wolfe":
            return _fw_gap(a, p, q, m, m)
        bx = _project(-(a @ q) / m)
        by = _project((a.T @ p) / m)
        upper = float(p @ a @ by) - 0.5 * m * float(by @ by) + 0.5 * m * float(p @ p)
        lower = float(bx @ a @ q) + 0.5 * m * float(bx @ bx) - 0.5 * m * float(q @ q)
        return upper - lower

    return _iterate(a, (x, y), update, gap_sym, iters, tolerance, mu=m, step_size=step)


def gda(
    payoff: ArrayLike,
    *,
    step_size: float | None = None,
    max_iter: int = 10_000,
    tol: float | None = DEFAULT_TOL,
    x0: object | None = None,
    y0: object | None = None,
) -> GDAResult:
    """Alternating projected GDA (AsymP-GDA with ``μ = 0``), a baseline that cycles.

    ``x^{t+1} = Π_Δ(x^t - η A y^t)``, ``y^{t+1} = Π_Δ(y^t + η Aᵀ x^{t+1})`` (spec 19 §3.5;
    alternating, x first, as the official runner, spec 19 §8).  The stopping quantity is
    NashConv, which equals the official :func:`frank_wolfe_gap` with ``μ = 0``; in games
    with an interior equilibrium the last iterate does not converge, so a run usually ends
    at ``max_iter`` with ``converged = False``.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        step_size: step size ``η > 0``; ``None`` for ``1/||A||_2`` (our default).
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
        ValueError: bad shape, non-finite payoffs, ``step_size <= 0``, ``tol <= 0``,
            ``max_iter < 0``, starts off the simplex, no finite default step (see
            :func:`default_step_size`).

    Example:
        >>> r = gda([[1.0, -1.0], [-1.0, 1.0]], x0=[0.9, 0.1], max_iter=200)
        >>> r.converged, r.nash_conv > 0.1
        (False, True)

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Section 6 (baseline); the authors' code,
        normal-form runner (spec 19 §8).

    Variant:
        Alternating, x first (the official runner's order; the only form implemented).
    """
    a, iters, tolerance, x, y = _common(payoff, max_iter, tol, x0, y0)
    step = _step(a, step_size, 0.0)

    def update(s: State) -> State:
        return _asymp_x_step(a, s[0], s[1], 0.0, step)

    return _iterate(a, (x, y), update, None, iters, tolerance, mu=0.0, step_size=step)


def ogda(
    payoff: ArrayLike,
    *,
    step_size: float | None = None,
    max_iter: int = DEFAULT_MAX_ITER,
    tol: float | None = DEFAULT_TOL,
    x0: object | None = None,
    y0: object | None = None,
    variant: OGDAForm = "official",
) -> GDAResult:
    """Optimistic projected GDA, a last-iterate-convergent baseline.

    Official form (default) [official code, spec 19 §8]: two sequences per player, updated
    alternately, x first; each player's feedback is recomputed from the current strategies
    (``g_x = -A y``, ``g_y = Aᵀ x`` in our min-form)::

        x̂ ← Π_Δ(x̂ + η g_x),  x ← Π_Δ(x̂ + η g_x)     with g_x = -A y
        ŷ ← Π_Δ(ŷ + η g_y),  y ← Π_Δ(ŷ + η g_y)     with g_y = Aᵀ x (the new x)

    starting from ``x̂ = x^0``, ``ŷ = y^0``.  ``variant="simultaneous"`` (spec 19 §3.5, our
    earlier reconstruction)::

        x^{t+1} = Π_Δ(x^t - η(2Ay^t - Ay^{t-1}))
        y^{t+1} = Π_Δ(y^t + η(2Aᵀx^t - Aᵀx^{t-1}))

    with ``(x^{-1}, y^{-1}) = (x^0, y^0)``.  The stopping quantity is NashConv of the played
    ``(x, y)`` (equal to the official :func:`frank_wolfe_gap` with ``μ = 0``).

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        step_size: step size ``η > 0``; ``None`` for ``1/(2||A||_2)`` (our default; the official
            runner fixes ``η = 0.01``).
        max_iter: iteration cap (``>= 0``).
        tol: stopping tolerance on NashConv (``> 0``, absolute,
            payoff units); ``None`` runs exactly
            ``max_iter`` iterations.
        x0: ``(m,)`` start of the minimiser or ``None`` (uniform).
        y0: ``(n,)`` start of the maximiser or ``None`` (uniform).
        variant: ``"official"`` (two-sequence, alternating) or ``"simultaneous"``.

    Returns:
        A :class:`GDAResult` with ``mu = 0``.

    Raises:
        TypeError: non-numeric arguments.
        ValueError: bad shape, non-finite payoffs, ``step_size <= 0``, ``tol <= 0``,
            ``max_iter < 0``, starts off the simplex, unknown ``variant``, ``step_size=None``
            with ``0 < ||A||_2`` so small (subnormal) that ``1/(2||A||_2)`` overflows.

    Example:
        >>> r = ogda([[1.0, -1.0], [-1.0, 1.0]], x0=[0.9, 0.1], tol=1e-10)
        >>> r.converged
        True

    References:
        Wei, Lee, Zhang, Luo, "Linear last-iterate convergence in constrained saddle-point
        optimization", ICLR 2021 (OGDA); baseline of Abe et al., ICML 2026, Section 6, in
        the form of the authors' code (spec 19 §8).

    Variant:
        ``"official"`` (default): two-sequence optimistic GDA, alternating, x first, as the
        official runner.  ``"simultaneous"``: the ``2g^t - g^{t-1}`` form (reconstruction).
    """
    a, iters, tolerance, x, y = _common(payoff, max_iter, tol, x0, y0)
    if variant not in ("official", "simultaneous"):
        raise ValueError(f"variant: expected 'official' or 'simultaneous', got {variant!r}")
    if step_size is None:
        norm = _spectral_norm(a)
        step = _reciprocal(2.0 * norm, "2 ||A||_2") if norm > 0.0 else 1.0
    else:
        step = require_positive("step_size", step_size)

    def official(s: State) -> State:  # the state is (x, y, x̂, ŷ)
        x, y, x_hat, y_hat = s
        gx = -(a @ y)  # x's utility feedback at the current strategies
        x_hat = _project(x_hat + step * gx)
        x = _project(x_hat + step * gx)
        gy = a.T @ x  # y's feedback uses the new x (alternating)
        y_hat = _project(y_hat + step * gy)
        y = _project(y_hat + step * gy)
        return x, y, x_hat, y_hat

    def simultaneous(s: State) -> State:  # the state is (x^t, y^t, A y^{t-1}, Aᵀ x^{t-1})
        x, y, gx_prev, gy_prev = s
        gx = a @ y
        gy = a.T @ x
        x = _project(x - step * (2.0 * gx - gx_prev))
        y = _project(y + step * (2.0 * gy - gy_prev))
        return x, y, gx, gy

    if variant == "official":
        start, update = (x, y, x.copy(), y.copy()), official
    else:
        start, update = (x, y, a @ y, a.T @ x), simultaneous
    return _iterate(a, start, update, None, iters, tolerance, mu=0.0, step_size=step)


def omwu(
    payoff: ArrayLike,
    *,
    step_size: float | None = None,
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
        step_size: step size ``η > 0``; ``None`` for ``1/(8 max(1e-12, max|a_ij|))`` (our default,
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
        ValueError: bad shape, non-finite payoffs, ``step_size <= 0``, ``tol <= 0``,
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
    if step_size is None:
        step = 1.0 / (8.0 * max(1e-12, float(np.max(np.abs(a)))))
    else:
        step = require_positive("step_size", step_size)
    with np.errstate(divide="ignore"):
        log_x = np.log(x)
        log_y = np.log(y)

    def update(s: State) -> State:  # the state is (x, y, log x, log y, A y^{t-1}, Aᵀ x^{t-1})
        x, y, log_x, log_y, gx_prev, gy_prev = s
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
        return x, y, log_x, log_y, gx, gy

    start = (x, y, log_x, log_y, a @ y, a.T @ x)
    return _iterate(a, start, update, None, iters, tolerance, mu=0.0, step_size=step)
