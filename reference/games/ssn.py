"""Douglas–Rachford residual of a zero-sum game and its regularised semi-smooth Newton solver.

Notation map (spec 01 -> code): ``z = (x, y)``; ``C = Δ_m x Δ_n``;
``M = [[0, A], [-Aᵀ, 0]]`` so ``Mz = (Ay, -Aᵀx)``; ``γ`` is ``step_size`` (our default
``1/||A||_2``); ``P = Π_C``; ``W = (I + γM)^{-1}``; ``T(u) = u + W(2P(u) - u) - P(u)``;
``R(u) = u - T(u)``; ``G(u) = (I + γM) R(u) = u - P(u) + γ M P(u)``;
``L(z) = (I - γM) z``; ``D`` the HS-Jacobian of ``P``; ``J = D - W(2D - I)``.

The spec's size convention is ``A`` in R^{n x m}; ours is ``(m, n)`` (rows first,
as in :mod:`reference.games`), with the same roles: the row player minimises.

[paper]: a DRS splitting of ``0 ∈ Mz + N_C(z)``, fixed points in a lifted space that
project to equilibria, a regularised SSN on the DRS residual with local quadratic
convergence (Theorem 4).  (reconstruction): the exact operator, residual, lifting,
Jacobian element and the globalisation below (spec 01, Sections 3-4).

This is the reference: the spec's dense linear algebra, read beside spec 01.  ``R`` uses one
LU of ``I + γM`` per game (Section 3.3); each Newton step forms the ``(m+n) x (m+n)``
W-free matrix ``K = (1+μ)I - D + γM(D + μI)`` and solves ``K d = -G(u)`` densely
(Section 3.4, Algorithm 2 step 3).  The support-reduced (Sherman–Morrison–Woodbury) solve
and its caches live in :mod:`reference.games.fast` under the same names; this module never
imports it.

Every public name here is re-exported by :mod:`reference.games`.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt
import scipy.linalg
from numpy.typing import ArrayLike

from reference._arrays import (
    FloatArray,
    as_float_array,
    as_simplex_point,
    readonly,
    require_positive,
    require_probability,
)
from reference.games.base import (
    EquilibriumResult,
    _gap,
    _max_iter,
    _payoff,
    _project,
    _threshold,
    _tol,
    _uniform,
)

__all__ = [
    "SSNConfig",
    "default_step_size",
    "drs",
    "drs_operator",
    "drs_residual",
    "drs_residual_g",
    "lift",
    "newton_direction",
    "recover",
    "residual_jacobian",
    "simplex_jacobian",
    "ssn",
]

#: Membership tolerance for warm-start strategy profiles (spec 01, Section 6).
SIMPLEX_ATOL = 1e-9


# ------------------------------------------------------------------ simplex Jacobian
def _support(v: FloatArray) -> FloatArray:
    """Support indicator ``s`` of ``Π(v)`` (ties ``v_i == τ`` inactive); never all zero."""
    s = (v - _threshold(v) > 0.0).astype(np.float64)
    if not s.any():  # only by rounding, for huge entries: keep the largest one
        s[int(np.argmax(v))] = 1.0
    return s


def _jacobian_from_support(s: FloatArray) -> FloatArray:
    """``D = diag(s) - s sᵀ / (1ᵀs)`` (spec 01, Section 3.2)."""
    out: FloatArray = np.diag(s) - np.outer(s, s) / float(s.sum())
    return out


def simplex_jacobian(v: ArrayLike) -> FloatArray:
    """The HS-Jacobian element ``D(v) = diag(s) - s sᵀ / (1ᵀs)`` of the simplex projection.

    ``s_i = 1`` iff ``v_i - τ > 0`` strictly (ties count as inactive), with ``τ``
    from :func:`~reference.games.base.simplex_threshold`.  ``D`` is the Jacobian of the
    affine piece of ``Π`` with support ``S = {i: s_i = 1}``: symmetric, idempotent, ``D 1 = 0``.

    Args:
        v: ``(k,)`` finite real vector.

    Returns:
        ``(k, k)`` float64 matrix ``D``.

    Raises:
        TypeError: non-numeric input.
        ValueError: not 1-D, empty or non-finite.

    Example:
        >>> simplex_jacobian([1.0, 1.0, -5.0]).tolist()
        [[0.5, -0.5, 0.0], [-0.5, 0.5, 0.0], [0.0, 0.0, 0.0]]

    References:
        X. Li, D. Sun, K.-C. Toh (SSNAL, HS-Jacobian); spec 01, Section 3.2.

    Variant:
        Tie rule "v_i == τ is inactive" is our default (the paper's tie rule was not seen).
    """
    vec = as_float_array("v", v, ndim=1)
    return _jacobian_from_support(_support(vec))


# ------------------------------------------------------------------ the lifted DRS operator
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class _Game:
    """A game prepared for DRS (internal): ``A``, the dense ``γM`` and the LU of ``I + γM``."""

    a: FloatArray  # (m, n) payoff
    gm: FloatArray  # (m + n, m + n) γM = [[0, γA], [-γAᵀ, 0]]
    lu: tuple[FloatArray, npt.NDArray[np.int32]]  # LU factors of I + γM
    m: int  # rows of A: u = (u_x, u_y) with u_x = u[:m]


def _prepare(payoff: FloatArray, step_size: float | None) -> _Game:
    m, n = payoff.shape
    if step_size is None:  # only γA enters: form A/||A||_2 without squaring γ (no overflow)
        norm = float(np.linalg.norm(payoff, 2))
        ga = payoff / norm if norm > 0.0 else payoff.copy()
    else:
        ga = step_size * payoff
    gm = np.block([[np.zeros((m, m)), ga], [-ga.T, np.zeros((n, n))]])
    lu = scipy.linalg.lu_factor(np.eye(m + n) + gm)
    return _Game(a=payoff, gm=gm, lu=lu, m=m)


def _proj_c(game: _Game, u: FloatArray) -> FloatArray:
    """``P(u) = (Π(u_x), Π(u_y))``."""
    return np.concatenate([_project(u[: game.m]), _project(u[game.m :])])


def _g(game: _Game, u: FloatArray, p: FloatArray) -> FloatArray:
    """``G(u) = u - P(u) + γ M P(u)``, with ``p = P(u)`` given."""
    out: FloatArray = u - p + game.gm @ p
    return out


def _residual(game: _Game, u: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``(R(u), P(u))`` with ``R(u) = W G(u) = (I + γM)^{-1} G(u)``."""
    p = _proj_c(game, u)
    r: FloatArray = scipy.linalg.lu_solve(game.lu, _g(game, u, p))
    return r, p


def _lift(game: _Game, z: FloatArray) -> FloatArray:
    """``L(z) = (I - γM) z``."""
    out: FloatArray = z - game.gm @ z
    return out


def _gap_at(game: _Game, p: FloatArray) -> float:
    return _gap(game.a, p[: game.m], p[game.m :])


def _times_jacobian(mat: FloatArray, s: FloatArray) -> FloatArray:
    """``mat @ D(s) = mat diag(s) - (mat s) sᵀ / (1ᵀs)`` without forming ``D``."""
    out: FloatArray = mat * s - np.outer(mat @ s, s) / float(s.sum())
    return out


def _newton_matrix(game: _Game, u: FloatArray, mu: float) -> FloatArray:
    """``K = (1+μ)I - D + γM(D + μI)``, the W-free Newton matrix (spec 01, Section 3.4)."""
    m = game.m
    sx, sy = _support(u[:m]), _support(u[m:])
    d = scipy.linalg.block_diag(_jacobian_from_support(sx), _jacobian_from_support(sy))
    gm_d = np.hstack([_times_jacobian(game.gm[:, :m], sx), _times_jacobian(game.gm[:, m:], sy)])
    out: FloatArray = (1.0 + mu) * np.eye(u.size) - d + gm_d + mu * game.gm
    return out


def _solve(k: FloatArray, rhs: FloatArray) -> FloatArray:
    """``k⁻¹ rhs`` by dense LU; least squares where ``k`` is singular to working precision.

    ``μ = λ||R(u)||`` can fall below rounding of ``1 + μ``, and then ``K`` is the singular
    unregularised matrix (e.g. on ``[[5, 4], [0, 1e-9]]``).  The minimum-norm least-squares
    direction is then used instead (our default); the line search and the safeguard judge it
    as any other direction.
    """
    try:
        d = np.asarray(np.linalg.solve(k, rhs), dtype=np.float64)
    except np.linalg.LinAlgError:  # an exactly zero pivot
        d = np.full(rhs.shape, np.nan)
    if not np.all(np.isfinite(d)):
        d = np.asarray(np.linalg.lstsq(k, rhs, rcond=None)[0], dtype=np.float64)
    return d


def _direction(game: _Game, u: FloatArray, mu: float, p: FloatArray) -> FloatArray:
    """Solve ``(J(u) + μI) d = -R(u)`` as ``K d = -G(u)`` by dense LU (``K`` is not symmetric)."""
    return _solve(_newton_matrix(game, u, mu), -_g(game, u, p))


def default_step_size(payoff: ArrayLike) -> float:
    """Our default Douglas–Rachford step size ``γ = 1/||A||_2`` (``1`` for the zero matrix).

    Internally only ``γA`` is formed (``A/||A||_2`` for the default), so tiny or huge
    payoffs do not overflow.

    Raises:
        TypeError: non-numeric payoff.
        ValueError: payoff not 2-D, empty or non-finite.

    Example:
        >>> default_step_size([[2.0, 0.0], [0.0, 1.0]])
        0.5
    """
    norm = float(np.linalg.norm(_payoff(payoff), 2))
    return min(1.0 / norm, sys.float_info.max) if norm > 0.0 else 1.0


def _context(payoff: object, step_size: object) -> _Game:
    matrix = _payoff(payoff)
    return _prepare(matrix, None if step_size is None else require_positive("step_size", step_size))


def _point(game: _Game, name: str, value: object) -> FloatArray:
    return as_float_array(name, value, shape=(game.a.shape[0] + game.a.shape[1],))


def drs_residual_g(
    payoff: ArrayLike, u: ArrayLike, *, step_size: float | None = None
) -> FloatArray:
    """The inverse-free residual ``G(u) = u - P(u) + γ M P(u) = (I + γM) R(u)``.

    ``G(u) = 0`` iff ``R(u) = 0``.  Shapes: ``payoff (m, n)``, ``u (m + n,)``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, ``step_size <= 0``.
    """
    game = _context(payoff, step_size)
    point = _point(game, "u", u)
    return _g(game, point, _proj_c(game, point))


def drs_residual(payoff: ArrayLike, u: object, *, step_size: float | None = None) -> FloatArray:
    """The lifted DRS residual ``R(u) = P(u) - W(2P(u) - u) = u - T(u)``.

    Here ``P = Π_{Δ_m x Δ_n}``, ``W = (I + γM)^{-1}``, ``M = [[0, A], [-Aᵀ, 0]]``.
    ``R(u) = 0`` iff ``u = L(z*)`` for an equilibrium ``z* = P(u)`` (spec 01, 3.3).

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        u: ``(m + n,)`` lifted point.
        step_size: the Douglas–Rachford step ``γ > 0``; default ``1/||A||_2`` (our default).

    Returns:
        ``(m + n,)`` float64 ``R(u)``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, ``step_size <= 0``.

    Example:
        >>> a = [[1.0, -1.0], [-1.0, 1.0]]
        >>> float(abs(drs_residual(a, lift(a, [0.5, 0.5], [0.5, 0.5]))).max())
        0.0

    References:
        spec 01, Section 3.3 (reconstruction of the paper's lifted DRS residual).
    """
    game = _context(payoff, step_size)
    return _residual(game, _point(game, "u", u))[0]


def drs_operator(payoff: ArrayLike, u: ArrayLike, *, step_size: float | None = None) -> FloatArray:
    """The DRS operator ``T(u) = u + W(2P(u) - u) - P(u) = u - R(u)``.

    Firmly nonexpansive (``W``'s reflection ``2W - I`` is orthogonal).  Shapes as in
    :func:`drs_residual`.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, ``step_size <= 0``.
    """
    game = _context(payoff, step_size)
    point = _point(game, "u", u)
    out: FloatArray = point - _residual(game, point)[0]
    return out


def lift(payoff: ArrayLike, x: object, y: object, *, step_size: float | None = None) -> FloatArray:
    """The lifting map ``L(z) = z - γ M z = (x - γ A y, y + γ Aᵀ x)``.

    ``L`` is injective and maps the equilibria onto the fixed points of ``T``.

    Args:
        payoff: ``(m, n)`` finite matrix.
        x: ``(m,)`` point of the simplex (tolerance 1e-9).
        y: ``(n,)`` point of the simplex.
        step_size: the Douglas–Rachford step ``γ > 0``; default ``1/||A||_2``.

    Returns:
        ``(m + n,)`` float64 lifted point ``u``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite, off the simplex, ``step_size <= 0``.

    Example:
        >>> lift([[1.0, 0.0], [0.0, 1.0]], [1.0, 0.0], [1.0, 0.0], step_size=0.5).tolist()
        [0.5, 0.0, 1.5, 0.0]
    """
    game = _context(payoff, step_size)
    m, n = game.a.shape
    xs = as_simplex_point("x", x, size=m, atol=SIMPLEX_ATOL)
    ys = as_simplex_point("y", y, size=n, atol=SIMPLEX_ATOL)
    return _lift(game, np.concatenate([xs, ys]))


def recover(payoff: ArrayLike, u: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """The strategy profile of a lifted point: ``z = P(u) = (Π(u_x), Π(u_y))``.

    Raises:
        TypeError: non-numeric input.
        ValueError: payoff not 2-D/empty/non-finite, ``u`` not ``(m + n,)`` finite.
    """
    matrix = _payoff(payoff)
    m, n = matrix.shape
    point = as_float_array("u", u, shape=(m + n,))
    return _project(point[:m]), _project(point[m:])


def residual_jacobian(
    payoff: ArrayLike, u: object, *, step_size: float | None = None
) -> FloatArray:
    """The generalized-Jacobian element ``J(u) = D - W(2D - I)`` of the residual.

    ``D = blockdiag(D(u_x), D(u_y))`` (:func:`simplex_jacobian`).  ``J = (I - Q)/2``
    with ``Q = (2W - I)(2D - I)`` orthogonal, so every eigenvalue lies in the disc
    ``|λ - 1/2| <= 1/2``.  ``J`` is not symmetric.  Dense, for checks and small games.

    Returns:
        ``(m + n, m + n)`` float64 matrix.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, ``step_size <= 0``.
    """
    game = _context(payoff, step_size)
    point = _point(game, "u", u)
    m = game.m
    d = scipy.linalg.block_diag(
        _jacobian_from_support(_support(point[:m])), _jacobian_from_support(_support(point[m:]))
    )
    eye = np.eye(point.size)
    w = scipy.linalg.lu_solve(game.lu, eye)
    out: FloatArray = d - w @ (2.0 * d - eye)
    return out


def newton_direction(
    payoff: ArrayLike, u: ArrayLike, mu: float, *, step_size: float | None = None
) -> FloatArray:
    """The regularised Newton direction: solve ``(J(u) + μI) d = -R(u)``.

    Solved in the W-free form ``K d = -G(u)``, ``K = (1+μ)I - D + γM(D + μI)``
    (spec 01, Section 3.4; multiply the first form by ``I + γM``), by dense LU of the
    ``(m+n) x (m+n)`` matrix ``K``.  :func:`reference.games.fast.newton_direction` gives
    the same ``d`` through a system of size ``|S_x| + |S_y|``.

    Args:
        payoff: ``(m, n)`` finite matrix.
        u: ``(m + n,)`` lifted point.
        mu: regulariser ``μ > 0``.
        step_size: the Douglas–Rachford step ``γ > 0``; default ``1/||A||_2``.

    Returns:
        ``(m + n,)`` float64 direction ``d``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, ``mu <= 0`` or ``step_size <= 0``.

    Example:
        >>> a, u = [[3.0, -1.0], [-2.0, 1.0]], [0.9, -0.2, 0.1, 0.6]
        >>> d = newton_direction(a, u, 0.5)
        >>> j = residual_jacobian(a, u)
        >>> bool(abs((j + 0.5 * np.eye(4)) @ d + drs_residual(a, u)).max() < 1e-12)
        True

    References:
        spec 01, Section 3.4 and Algorithm 2, step 3.
    """
    game = _context(payoff, step_size)
    point = _point(game, "u", u)
    reg = require_positive("mu", mu)
    return _direction(game, point, reg, _proj_c(game, point))


# ------------------------------------------------------------------ solvers
def _start(game: _Game, u0: object) -> FloatArray:
    if u0 is None:
        m, n = game.a.shape
        return _lift(game, np.concatenate([_uniform(m), _uniform(n)]))
    return _point(game, "u0", u0)


def _tol_res(gamma_payoff: FloatArray, tol_res: float | None) -> float:
    """The residual floor: ``tol_res``, default ``1e-14 · max(1, max|γ a_ij|)``.

    ``R(u)`` lives in the lifted space, whose points ``u = z - γMz`` have entries of order
    ``max(1, max|γ a_ij|)`` (``<= 1`` for the default ``γ = 1/||A||_2``), so the floor is in
    those units, not in payoff units (a floor of ``1e-14 · max|a_ij|`` stopped a ``1e6``-scale
    game at gap ``3e-4``).  ``gamma_payoff`` is ``γA`` or ``γM``.
    """
    if tol_res is not None:
        return tol_res
    return 1e-14 * max(1.0, float(np.max(np.abs(gamma_payoff))))


def _stop_reason(gap: float, eps: float, norm: float, res_tol: float) -> str:
    """``"tol"`` if ``gap <= eps``, else ``"residual_floor"`` if ``norm <= res_tol``, else ``"max_iter"``."""
    if gap <= eps:
        return "tol"
    return "residual_floor" if norm <= res_tol else "max_iter"


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class _NewtonRun:
    """What one run of Algorithm 1 or 2 from a given ``u0`` returns (internal).

    ``x``, ``y`` are ``P(u)`` of the last iterate; ``gaps``/``residuals`` hold one entry per
    iterate (entry 0: the start); ``iterations`` counts DRS steps or Newton linear solves;
    ``converged`` is ``gap(x, y) <= eps``, ``stop_reason`` as in
    :data:`~reference.games.base.STOP_REASONS`.
    """

    u: FloatArray
    x: FloatArray
    y: FloatArray
    converged: bool
    stop_reason: str
    iterations: int
    safeguards: int
    gaps: list[float]
    residuals: list[float]


def _result(
    method: str, game: _Game, run: _NewtonRun, *, first_order: int, start: float
) -> EquilibriumResult:
    newton = run.iterations - first_order
    return EquilibriumResult(
        method=method,
        x=readonly(np.array(run.x)),
        y=readonly(np.array(run.y)),
        gap=_gap(game.a, run.x, run.y),
        converged=run.converged,
        stop_reason=run.stop_reason,
        iterations=run.iterations,
        first_order_iterations=first_order,
        newton_iterations=newton,
        gap_history=readonly(np.array(run.gaps)),
        residual_history=readonly(np.array(run.residuals)),
        residual=run.residuals[-1],
        u=readonly(np.array(run.u)),
        ssn_runs=1 if method == "SSN" else 0,
        safeguard_steps=run.safeguards,
        wall_time=time.perf_counter() - start,
    )


def _finish(
    game: _Game,
    u: FloatArray,
    p: FloatArray,
    *,
    stop_reason: str,
    iterations: int,
    safeguards: int,
    gaps: list[float],
    residuals: list[float],
) -> _NewtonRun:
    return _NewtonRun(
        u=u,
        x=p[: game.m],
        y=p[game.m :],
        converged=stop_reason == "tol",
        stop_reason=stop_reason,
        iterations=iterations,
        safeguards=safeguards,
        gaps=gaps,
        residuals=residuals,
    )


def drs(
    payoff: ArrayLike,
    *,
    tol: float = 1e-10,
    max_iter: int = 10_000,
    u0: ArrayLike | None = None,
    step_size: float | None = None,
    tol_res: float | None = None,
) -> EquilibriumResult:
    """Plain Douglas–Rachford splitting: ``u_{k+1} = T(u_k) = u_k - R(u_k)``.

    Starts at ``u_0 = L(uniform, uniform)`` unless ``u0`` is given; reports
    ``z_k = P(u_k)``; stops when ``||R(u_k)|| <= tol_res`` or ``gap(z_k) <= tol``.
    ``converged`` means exactly ``gap(z_k) <= tol``; a stop at the residual floor with a
    larger gap has ``converged=False``, ``stop_reason="residual_floor"``.
    Sublinear/linear; the baseline and sanity reference of spec 01 (Algorithm 1).

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        tol: target duality gap ``eps > 0`` (absolute, payoff units).
        max_iter: iteration cap ``>= 1`` (default 10 000; not a promise of convergence: a
            3 x 6 game with entries up to 10 and tied entries, found under the thorough
            profile, needs 21 112 iterations at ``tol=5e-3``).
        u0: ``(m + n,)`` starting lifted point (default ``L(uniform)``).
        step_size: the Douglas–Rachford step ``γ > 0``; default ``1/||A||_2``.
        tol_res: residual floor (lifted-space units); default ``1e-14 * max(1, max|γ a_ij|)``.

    Returns:
        An :class:`~reference.games.base.EquilibriumResult` (``method="DRS"``, ``u`` set;
        ``stop_reason`` ``"tol"``, ``"residual_floor"`` or ``"max_iter"``).

    Raises:
        TypeError: non-numeric input.
        ValueError: bad payoff or ``u0``, ``tol``/``step_size``/``tol_res <= 0``, ``max_iter < 1``.

    Example:
        >>> res = drs([[3.0, -1.0], [-2.0, 1.0]], tol=1e-9)
        >>> res.converged, [round(float(v), 6) for v in res.x]
        (True, [0.428571, 0.571429])

    References:
        J. Douglas, H. Rachford (1956); P.-L. Lions, B. Mercier (1979); spec 01, Algorithm 1.
    """
    start = time.perf_counter()
    game = _context(payoff, step_size)
    eps = _tol("tol", tol)
    cap = _max_iter(max_iter)
    res_tol = _tol_res(game.gm, None if tol_res is None else _tol("tol_res", tol_res))
    u = _start(game, u0)
    r, p = _residual(game, u)
    gaps, residuals = [_gap_at(game, p)], [float(np.linalg.norm(r))]
    k = 0
    while not (residuals[-1] <= res_tol or gaps[-1] <= eps) and k < cap:
        u = u - r  # Alg. 1: u_{k+1} = T(u_k)
        k += 1
        r, p = _residual(game, u)
        gaps.append(_gap_at(game, p))
        residuals.append(float(np.linalg.norm(r)))
    run = _finish(
        game,
        u,
        p,
        stop_reason=_stop_reason(gaps[-1], eps, residuals[-1], res_tol),
        iterations=k,
        safeguards=0,
        gaps=gaps,
        residuals=residuals,
    )
    return _result("DRS", game, run, first_order=k, start=start)


@dataclass(frozen=True, slots=True, kw_only=True)
class SSNConfig:
    """Parameters of the regularised semi-smooth Newton method (all our defaults, spec 01).

    Attributes:
        step_size: the Douglas–Rachford step ``γ > 0``; ``None`` means ``1/||A||_2``.
        lambda0: initial regularisation factor ``λ_0`` (``μ_k = λ_k ||R(u_k)||``).
        lambda_min: lower clamp of ``λ``.
        lambda_max: upper clamp of ``λ`` (10; with 1e8 a 60 x 90 game stalled, spec 01).
        sigma: Armijo constant ``σ ∈ (0, 1)``.
        beta: backtracking factor ``β ∈ (0, 1)``.
        max_backtracks: line-search trials before the safeguard step.
        acceptance: ``"armijo"`` (default) or ``"ratio"`` (Xiao–Li–Wen–Zhang style test
            ``||R(u + d)|| <= ν ||R(u_ref)||``).
        nu: ``ν ∈ (0, 1)`` of the ratio test.
        tol_res: residual floor in lifted-space units; ``None`` means
            ``1e-14 * max(1, max|γ a_ij|)`` (``1e-14`` for the default ``γ``).  Reaching it
            stops the run with ``stop_reason="residual_floor"``, never as convergence.
        watchdog: (not in the spec's Algorithm 2; off by default) when the line search fails,
            try the full step followed by one more Newton step (``μ = λ_min ||R||``) and accept
            the pair if ``||R||`` drops by ``(1 - σ)``.  Near-tied payoffs make ``R`` flat
            along the Newton direction inside one affine piece, so no damped step decreases
            ``||R||``, while the full step crosses the kink into the piece where Newton is
            exact; without it cold SSN stalls on ``[[1.00001, 1.0]]`` until ``max_iter``
            (honestly unconverged).
        kink_search: (not in the spec's Algorithm 2; off by default) when the line search
            (and the watchdog, if on) fails and the first kink of ``R`` along the direction lies
            before the full step, search the affine pieces after it (up to
            :data:`KINK_PIECES`): each one's least-``||R||`` point under the Armijo test, else
            the watchdog pair from its middle.  Where the supports' Newton system is
            inconsistent (e.g. ``[[1e-6, 0, 0], [0, 1, 0]]``) ``R`` is flat up to that kink
            and the safeguard's DRS steps crawl; without it SSN stops there at ``max_iter``
            (honestly unconverged).

    With ``watchdog`` and ``kink_search`` off (the defaults) the loop is the spec's
    Algorithm 2 exactly: Armijo backtracking, else the Solodov–Svaiter / DRS safeguard step.

    The reference solves step 3 by dense LU; the choice of linear solver
    (``linear_solver="reduced"`` or ``"dense"``) is a keyword of
    :func:`reference.games.fast.ssn` and :func:`reference.games.fast.hybrid`.
    """

    step_size: float | None = None
    lambda0: float = 1.0
    lambda_min: float = 1e-6
    lambda_max: float = 10.0
    sigma: float = 1e-4
    beta: float = 0.5
    max_backtracks: int = 20
    acceptance: Literal["armijo", "ratio"] = "armijo"
    nu: float = 0.9
    tol_res: float | None = None
    watchdog: bool = False
    kink_search: bool = False

    def __post_init__(self) -> None:
        if self.step_size is not None:
            require_positive("step_size", self.step_size)
        for name in ("lambda0", "lambda_min", "lambda_max"):
            require_positive(name, getattr(self, name))
        if not self.lambda_min <= self.lambda0 <= self.lambda_max:
            raise ValueError(
                "lambda0: expected lambda_min <= lambda0 <= lambda_max, got "
                f"{self.lambda_min!r} <= {self.lambda0!r} <= {self.lambda_max!r}"
            )
        require_probability("sigma", self.sigma, open_low=True, open_high=True)
        require_probability("beta", self.beta, open_low=True, open_high=True)
        require_probability("nu", self.nu, open_low=True, open_high=True)
        if isinstance(self.max_backtracks, bool) or not isinstance(self.max_backtracks, int):
            raise TypeError(f"max_backtracks: expected an integer, got {self.max_backtracks!r}")
        if self.max_backtracks < 1:
            raise ValueError(f"max_backtracks: expected an integer >= 1, got {self.max_backtracks}")
        if self.acceptance not in ("armijo", "ratio"):
            raise ValueError(f"acceptance: expected 'armijo' or 'ratio', got {self.acceptance!r}")
        if self.tol_res is not None:
            require_positive("tol_res", self.tol_res)
        for name in ("watchdog", "kink_search"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(
                    f"{name}: expected a bool, got {type(getattr(self, name)).__name__}"
                )


@dataclass(frozen=True, slots=True, eq=False)
class _Iterate:
    """A lifted point ``u`` with ``R(u)``, ``P(u)`` and ``||R(u)||`` (internal)."""

    u: FloatArray
    r: FloatArray
    p: FloatArray
    norm: float


def _evaluate(game: _Game, u: FloatArray) -> _Iterate:
    r, p = _residual(game, u)
    return _Iterate(u, r, p, float(np.linalg.norm(r)))


def _armijo(
    game: _Game, it: _Iterate, d: FloatArray, cfg: SSNConfig
) -> tuple[_Iterate | None, float]:
    """Alg. 2 step 4: ``s <- βs`` until ``||R(u + s d)|| <= (1 - σs) ||R(u)||``; ``(trial, s)``."""
    s = 1.0
    for _ in range(cfg.max_backtracks):
        trial = _evaluate(game, it.u + s * d)
        if trial.norm <= (1.0 - cfg.sigma * s) * it.norm:
            return trial, s
        s *= cfg.beta
    return None, s


def _watchdog(
    game: _Game, it: _Iterate, d: FloatArray, cfg: SSNConfig
) -> tuple[_Iterate, _Iterate] | None:
    """(``SSNConfig.watchdog``) Full step ``w = u + d``, then a nearly exact Newton step from ``w``;
    the pair ``(w, trial)`` is accepted if ``||R||`` drops by ``(1 - σ)`` (see SSNConfig)."""
    w = _evaluate(game, it.u + d)
    mu_w = cfg.lambda_min * w.norm
    if mu_w <= 0.0:
        return None
    trial = _evaluate(game, w.u + _direction(game, w.u, mu_w, w.p))
    return (w, trial) if trial.norm <= (1.0 - cfg.sigma) * it.norm else None


def _first_kink(v: FloatArray, e: FloatArray, s: FloatArray, after: float) -> tuple[float, int]:
    """``(t, i)``: the smallest ``t > after`` where ``Π(v + t e)`` leaves the support ``s``.

    On the affine piece of support ``s``, ``v_i + t e_i - τ(t) = a_i + t b_i`` with the piece's
    threshold ``τ(t) = (sᵀ(v + t e) - 1)/1ᵀs``; index ``i`` of ``s`` leaves where this falls to
    0, one outside enters where it rises to 0.  ``(inf, -1)`` if none does.
    """
    count = float(s.sum())
    a = v - (float(v @ s) - 1.0) / count
    b = e - float(e @ s) / count
    moving = np.where(s > 0.0, b < 0.0, b > 0.0)
    t = np.full(v.size, np.inf)
    t[moving] = -a[moving] / b[moving]
    t[t <= after] = np.inf
    i = int(np.argmin(t))
    return (float(t[i]), i) if np.isfinite(t[i]) else (np.inf, -1)


#: How many affine pieces of ``R`` after the first kink along a Newton direction the kink
#: search visits (see :class:`SSNConfig`, ``kink_search``; our choice).
KINK_PIECES = 4


def _pieces(m: int, u: FloatArray, d: FloatArray) -> list[tuple[float, float]]:
    """The affine pieces ``(t_a, t_b)`` of ``R`` along ``u + t d`` (``m`` rows) after its first
    kink, up to ``t = 1``, at most :data:`KINK_PIECES` of them (none if no kink before 1)."""
    blocks = (slice(0, m), slice(m, None))
    supports = [_support(u[b]) for b in blocks]
    out: list[tuple[float, float]] = []
    t = 0.0
    while len(out) < KINK_PIECES:
        kinks = [_first_kink(u[b], d[b], s, t) for b, s in zip(blocks, supports, strict=True)]
        which = 0 if kinks[0][0] <= kinks[1][0] else 1
        t_next, index = kinks[which]
        if t > 0.0:
            out.append((t, min(t_next, 1.0)))
        if not t_next < 1.0:
            break
        supports[which][index] = 1.0 - supports[which][index]  # the index leaves or enters
        if not supports[which].any():
            break
        t = t_next
    return out


def _kink_search(
    game: _Game, it: _Iterate, d: FloatArray, cfg: SSNConfig
) -> tuple[_Iterate | None, _Iterate | None]:
    """(``SSNConfig.kink_search``) Search the pieces of ``R`` beyond the first kink.

    Where the Newton system of the current supports is inconsistent (an index must leave, e.g.
    a column whose margin is tiny against the scale), ``R`` is flat along ``d`` up to the
    first kink, the full step overshoots, and no backtracked step decreases ``||R||``.  On
    each piece ``[t_a, t_b]`` after that kink (:func:`_pieces`) ``R(u + t d)`` is affine in
    ``t``: its least-norm point ``t*`` (from two evaluations, kept off the kinks) is accepted
    under the Armijo test with ``s = t*``; else the watchdog pair from the piece's middle.
    The first piece that passes wins.  Returns ``(w, trial)``, ``w`` set only for a pair (two
    linear solves), ``(None, None)`` if nothing passes.
    """
    for t1, t2 in _pieces(game.m, it.u, d):
        a, b = t1 + 0.25 * (t2 - t1), t1 + 0.75 * (t2 - t1)
        r_a, r_b = _evaluate(game, it.u + a * d).r, _evaluate(game, it.u + b * d).r
        slope = (r_b - r_a) / (b - a)
        denom = float(slope @ slope)
        edge = 1e-6 * (t2 - t1)  # stay off the kinks, where the support is a matter of rounding
        t = min(max(a - float(r_a @ slope) / denom, t1 + edge), t2 - edge) if denom > 0.0 else a
        trial = _evaluate(game, it.u + t * d)
        if trial.norm <= (1.0 - cfg.sigma * t) * it.norm:
            return None, trial
        pair = _watchdog(game, it, 0.5 * (t1 + t2) * d, cfg)
        if pair is not None:
            return pair
    return None, None


def _safeguard(game: _Game, it: _Iterate, d: FloatArray) -> FloatArray:
    """Alg. 2 step 6: Solodov–Svaiter projection along ``R(u + d)`` if ``ρ > 0``, else DRS."""
    r_w = _residual(game, it.u + d)[0]
    rho = -float(r_w @ d)
    norm_w = float(r_w @ r_w)
    if rho > 0.0 and norm_w > 0.0:
        out: FloatArray = it.u - (rho / norm_w) * r_w
        return out
    return it.u - it.r


def _ssn_run(
    game: _Game, u0: FloatArray, *, eps: float, max_iter: int, cfg: SSNConfig
) -> _NewtonRun:
    """Algorithm 2 of spec 01 from ``u0``, at most ``max_iter`` linear solves."""
    res_tol = _tol_res(game.gm, cfg.tol_res)
    it = _evaluate(game, u0)
    gaps, residuals = [_gap_at(game, it.p)], [it.norm]
    lam = cfg.lambda0
    ref_norm = it.norm  # ratio rule: ||R|| at the last accepted Newton point
    k = safeguards = 0
    while not (it.norm <= res_tol or gaps[-1] <= eps) and k < max_iter:  # Alg. 2, step 1
        k += 1
        d = _direction(game, it.u, lam * it.norm, it.p)  # steps 2-3, μ = λ ||R(u)||
        trial: _Iterate | None
        if cfg.acceptance == "armijo":
            trial, s = _armijo(game, it, d, cfg)  # step 4
            if trial is not None:  # step 5
                lam = max(lam / 2.0, cfg.lambda_min) if s == 1.0 else min(2.0 * lam, cfg.lambda_max)
        else:  # ratio rule (Xiao, Li, Wen, Zhang 2018 style)
            trial = _evaluate(game, it.u + d)
            if trial.norm <= cfg.nu * ref_norm:
                ref_norm, lam = trial.norm, max(lam / 2.0, cfg.lambda_min)
            else:
                trial = None
        if trial is None and cfg.watchdog and k < max_iter:
            pair = _watchdog(game, it, d, cfg)
            if pair is not None:
                w, trial = pair
                k += 1  # two linear solves: count both Newton iterations
                gaps.append(_gap_at(game, w.p))
                residuals.append(w.norm)
        if trial is None and cfg.kink_search and k < max_iter:
            w_kink, trial = _kink_search(game, it, d, cfg)
            if w_kink is not None:
                k += 1  # two linear solves: count both Newton iterations
                gaps.append(_gap_at(game, w_kink.p))
                residuals.append(w_kink.norm)
        if trial is None:  # step 6: safeguard step
            safeguards += 1
            trial = _evaluate(game, _safeguard(game, it, d))
            lam = min(4.0 * lam, cfg.lambda_max)
        it = trial
        gaps.append(_gap_at(game, it.p))
        residuals.append(it.norm)
    return _finish(
        game,
        it.u,
        it.p,
        stop_reason=_stop_reason(gaps[-1], eps, it.norm, res_tol),
        iterations=k,
        safeguards=safeguards,
        gaps=gaps,
        residuals=residuals,
    )


def ssn(
    payoff: ArrayLike,
    *,
    tol: float = 1e-10,
    max_iter: int = 300,
    u0: ArrayLike | None = None,
    config: SSNConfig | None = None,
) -> EquilibriumResult:
    """Regularised semi-smooth Newton on the DRS residual (spec 01, Algorithm 2).

    For ``k = 0, 1, ...``: stop when ``||R(u_k)|| <= tol_res`` or
    ``gap(P(u_k)) <= tol`` (only the second is ``converged``); else ``μ_k = λ_k ||R(u_k)||``, solve
    ``(J(u_k) + μ_k I) d_k = -R(u_k)`` (W-free form, dense LU: :func:`newton_direction`),
    backtrack ``s <- β s`` until ``||R(u_k + s d_k)|| <= (1 - σ s) ||R(u_k)||`` (at most
    ``max_backtracks`` trials); a full step halves ``λ``, a shortened one doubles it.
    If no trial passes, take the Solodov–Svaiter projection step along ``R(u_k + d_k)``
    when ``ρ = -<R(u_k + d_k), d_k> > 0``, else a DRS step, and set ``λ <- 4λ``
    (``λ`` clamped to ``[λ_min, λ_max]``).  Symbols: ``γ`` is ``config.step_size``,
    ``λ_0`` ``config.lambda0``, ``σ`` ``config.sigma``, ``β`` ``config.beta``.
    :func:`reference.games.fast.ssn` computes the same iterates faster.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        tol: target duality gap ``eps > 0`` (default 1e-10, absolute, payoff units).
        max_iter: Newton iteration cap ``>= 1`` (default 300, enough on the spec's random
            60 x 90 games; a 6 x 2 game with entries from 8e-3 to 8 needs 511, mostly
            safeguard steps, or 16 with ``config.kink_search``).
        u0: ``(m + n,)`` starting lifted point; default ``L(uniform, uniform)``.
        config: :class:`SSNConfig` (our defaults; its ``watchdog`` and ``kink_search``,
            both beyond the spec's Algorithm 2, are off).

    Returns:
        An :class:`~reference.games.base.EquilibriumResult` (``method="SSN"``; ``u``,
        ``residual``, ``residual_history`` and ``safeguard_steps`` set); ``converged`` iff
        the returned pair's gap is ``<= tol``; ``stop_reason`` ``"tol"``,
        ``"residual_floor"`` or ``"max_iter"``.

    Domain: the convergence promise (local quadratic, Theorem 4; spec 01 Thm D) is for
    non-degenerate games (``properties`` domain ``generic``); exact ties, saddles, rank-one and
    ``1 x n`` games are solved too.  On a game whose equilibrium margins are tiny against its
    scale (e.g. ``[[1e-6, 0, 0], [0, 1, 0]]``) the Newton system of the current supports is
    inconsistent and ``R`` is flat along its direction: Algorithm 2 as written (the default)
    crawls through safeguard DRS steps and stops at ``max_iter`` with ``converged=False``
    (gap ~6e-8); ``config.kink_search`` steps past the first kink (22 iterations there).  The
    same holds on tied columns next to a small margin, and on a near tie such as
    ``[[1.00001, 1.0]]``, where ``config.watchdog`` solves it in 2 steps and
    ``config.kink_search`` in 1: the step crosses the kink into the affine piece where Newton
    is exact.

    Raises:
        TypeError: non-numeric input or a config of the wrong type.
        ValueError: bad payoff or ``u0``, ``tol <= 0``, ``max_iter < 1``.

    Example:
        >>> res = ssn([[3.0, -1.0], [-2.0, 1.0]])
        >>> res.converged, res.gap < 1e-10, [round(float(v), 6) for v in res.y]
        (True, True, [0.285714, 0.714286])

    References:
        Yang, Gao, Lin, Kroer, "A direct second-order method for solving two-player zero-sum
        games", arXiv:2512.12910 — regularised SSN [paper], local quadratic convergence
        (Theorem 4) [paper]; globalisation and constants (reconstruction, spec 01 Alg. 2).
        Xiao, Li, Wen, Zhang (2018) for the projection safeguard and the ratio rule.

    Variant:
        ``config.acceptance = "armijo"`` (default, our choice) or ``"ratio"`` (possibly the
        paper's rule; stalls more often far from a solution).
    """
    start = time.perf_counter()
    cfg = SSNConfig() if config is None else config
    if not isinstance(cfg, SSNConfig):
        raise TypeError(f"config: expected an SSNConfig, got {type(cfg).__name__}")
    game = _context(payoff, cfg.step_size)
    eps = _tol("tol", tol)
    cap = _max_iter(max_iter)
    run = _ssn_run(game, _start(game, u0), eps=eps, max_iter=cap, cfg=cfg)
    return _result("SSN", game, run, first_order=0, start=start)
