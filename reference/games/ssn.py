"""Douglas–Rachford residual of a zero-sum game and its regularised semi-smooth Newton solver.

Notation map (spec 01 -> code): ``z = (x, y)``; ``C = Δ_m x Δ_n``;
``M = [[0, A], [-Aᵀ, 0]]`` so ``Mz = (Ay, -Aᵀx)``; ``γ`` is ``gamma`` (our default
``1/||A||_2``); ``P = Π_C``; ``W = (I + γM)^{-1}``; ``T(u) = u + W(2P(u) - u) - P(u)``;
``R(u) = u - T(u)``; ``G(u) = (I + γM) R(u) = u - P(u) + γ M P(u)``;
``L(z) = (I - γM) z``; ``D`` the HS-Jacobian of ``P``; ``J = D - W(2D - I)``.

The spec's size convention is ``A`` in R^{n x m}; ours is ``(m, n)`` (rows first,
as in :mod:`reference.games`), with the same roles: the row player minimises.

[paper]: a DRS splitting of ``0 ∈ Mz + N_C(z)``, fixed points in a lifted space that
project to equilibria, a regularised SSN on the DRS residual with local quadratic
convergence (Theorem 4).  (reconstruction): the exact operator, residual, lifting,
Jacobian element and the globalisation below (spec 01, Sections 3-4).

Newton linear algebra [derived]: ``D = E Π Eᵀ`` has rank ``|S_x| + |S_y| - 2`` (``E`` selects
the supports, ``Π`` centres each block), so the ``(m+n) x (m+n)`` W-free Newton matrix is
"``B`` minus a rank-``|S|`` term" with ``B = (1+μ)I + μγM``; Sherman–Morrison–Woodbury reduces
each Newton step to one LU of size ``|S_x| + |S_y|``, and ``B^{-1}`` for every ``μ`` comes from
one eigen-decomposition of the smaller Gram matrix of ``γA`` (``SSNConfig.linear_solver``;
``"dense"`` keeps the spec's literal dense LU, same iterates up to rounding).

Every public name here is re-exported by :mod:`reference.games`.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Literal

import numpy as np
import scipy.linalg

from reference._arrays import (
    FloatArray,
    as_float_array,
    as_simplex_point,
    readonly,
    require_positive,
    require_probability,
)
from reference.games.base import EquilibriumResult, _gap, _max_iter, _payoff, _tol, _uniform

__all__ = [
    "LINEAR_SOLVERS",
    "LinearSolver",
    "SSNConfig",
    "default_gamma",
    "drs",
    "drs_operator",
    "drs_residual",
    "drs_residual_g",
    "lift",
    "newton_direction",
    "project_simplex",
    "recover",
    "residual_jacobian",
    "simplex_jacobian",
    "ssn",
]

#: Membership tolerance for warm-start strategy profiles (spec 01, Section 6).
SIMPLEX_ATOL = 1e-9


# ------------------------------------------------------------------ simplex projection
def _project(v: FloatArray) -> tuple[FloatArray, float]:
    """Algorithm P without validation: ``(Π(v), τ)``."""
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - 1.0
    j = np.arange(1, v.size + 1)
    positive = np.nonzero(u - css / j > 0.0)[0]
    rho = int(positive[-1]) + 1 if positive.size else 1
    tau = float(css[rho - 1] / rho)
    return np.maximum(v - tau, 0.0), tau


def _support(v: FloatArray) -> FloatArray:
    """Support indicator ``s`` of ``Π(v)`` (ties ``v_i == τ`` inactive); never all zero."""
    _, tau = _project(v)
    s = (v - tau > 0.0).astype(np.float64)
    if not s.any():  # pragma: no cover - impossible: the largest entry exceeds τ
        s[int(np.argmax(v))] = 1.0
    return s


def _jacobian_from_support(s: FloatArray) -> FloatArray:
    out: FloatArray = np.diag(s) - np.outer(s, s) / float(s.sum())
    return out


def project_simplex(v: object) -> tuple[FloatArray, float]:
    """Euclidean projection onto the probability simplex, and its threshold ``τ``.

    Sort ``v`` decreasingly into ``u``; ``ρ`` = the largest ``j`` with
    ``u_j - (Σ_{i<=j} u_i - 1)/j > 0``; ``τ = (Σ_{i<=ρ} u_i - 1)/ρ``;
    ``Π(v) = max(v - τ, 0)``.  Cost ``O(k log k)``.

    Args:
        v: ``(k,)`` finite real vector, ``k >= 1``.

    Returns:
        ``(Π(v), τ)``: a fresh ``(k,)`` float64 point of the simplex and the threshold.

    Raises:
        TypeError: non-numeric input.
        ValueError: not 1-D, empty or non-finite.

    Example:
        >>> p, tau = project_simplex([0.5, 1.5, -1.0])
        >>> p.tolist(), tau
        ([0.0, 1.0, 0.0], 0.5)

    References:
        Held, Wolfe, Crowder (1974); Duchi, Shalev-Shwartz, Singer, Chandra, ICML 2008;
        Condat (2016); spec 01, Section 3.1 (Algorithm P).
    """
    vec = as_float_array("v", v, ndim=1)
    return _project(vec)


def simplex_jacobian(v: object) -> FloatArray:
    """The HS-Jacobian element ``D(v) = diag(s) - s sᵀ / (1ᵀs)`` of the simplex projection.

    ``s_i = 1`` iff ``v_i - τ > 0`` strictly (ties count as inactive), with ``τ``
    from :func:`project_simplex`.  ``D`` is the Jacobian of the affine piece of
    ``Π`` with support ``S = {i: s_i = 1}``: symmetric, idempotent, ``D 1 = 0``.

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


# ------------------------------------------------------------------ DRS operator
LinearSolver = Literal["reduced", "dense"]
#: The Newton linear solvers: the support-reduced Woodbury solve (default) and dense LU.
LINEAR_SOLVERS: tuple[str, ...] = ("reduced", "dense")


def _check_solver(value: object) -> LinearSolver:
    if value == "reduced":
        return "reduced"
    if value == "dense":
        return "dense"
    raise ValueError(f"linear_solver: expected one of {LINEAR_SOLVERS}, got {value!r}")


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class _Gram:
    """``γ²AAᵀ``/``γ²AᵀA`` in one eigenbasis (internal; ``k = min(m, n)``).

    With ``G = γA``, ``N_x = a²I + c²GGᵀ``, ``N_y = a²I + c²GᵀG`` and ``ψ = 1/(a² + c²λ)``:
    ``G N_y^{-1} Gᵀ = L_x diag(w_x ψ) L_xᵀ``, ``Gᵀ N_x^{-1} G = L_y diag(w_y ψ) L_yᵀ`` and
    ``G N_y^{-1} = L_x diag(ψ) L_yᵀ``.  For ``m <= n``: ``GGᵀ = P diag(λ) Pᵀ``, ``L_x = P``,
    ``L_y = GᵀP``, ``w_x = λ``, ``w_y = 1``; for ``m > n`` the roles swap.
    """

    lx: FloatArray  # (m, k)
    ly: FloatArray  # (n, k)
    wx: FloatArray  # (k,)
    wy: FloatArray  # (k,)
    lam: FloatArray  # (k,) eigenvalues of the smaller Gram matrix, clipped at 0


def _gram_factor(ga: FloatArray) -> _Gram:
    m, n = ga.shape
    if m <= n:
        lam, p = np.linalg.eigh(ga @ ga.T)
        lam = np.maximum(lam, 0.0)
        return _Gram(lx=p, ly=ga.T @ p, wx=lam, wy=np.ones_like(lam), lam=lam)
    lam, q = np.linalg.eigh(ga.T @ ga)
    lam = np.maximum(lam, 0.0)
    return _Gram(lx=ga @ q, ly=q, wx=np.ones_like(lam), wy=lam, lam=lam)


class _Drs:
    """Pre-factored DRS pieces for one game and one ``γ`` (internal)."""

    def __init__(self, payoff: FloatArray, gamma: float | None) -> None:
        self.a = payoff
        self.m, self.n = payoff.shape
        # Only γA enters the operator: form it without squaring γ (no overflow for tiny A).
        if gamma is None:
            norm = float(np.linalg.norm(payoff, 2))
            self.ga: FloatArray = payoff / norm if norm > 0.0 else payoff.copy()
        else:
            self.ga = gamma * payoff
        ga = self.ga
        # (I + γM) R = G is solved through the Schur complement on the smaller side.
        if self.m <= self.n:
            self.small_x = True
            self.chol = scipy.linalg.cho_factor(np.eye(self.m) + ga @ ga.T)
        else:
            self.small_x = False
            self.chol = scipy.linalg.cho_factor(np.eye(self.n) + ga.T @ ga)
        self._gram: _Gram | None = None  # factor of the reduced Newton solve, built on demand

    def split(self, v: FloatArray) -> tuple[FloatArray, FloatArray]:
        return v[: self.m], v[self.m :]

    def project(self, u: FloatArray) -> FloatArray:
        ux, uy = self.split(u)
        return np.concatenate([_project(ux)[0], _project(uy)[0]])

    def gmul_m(self, z: FloatArray) -> FloatArray:
        """``γ M z = (γ A z_y, -γ Aᵀ z_x)``."""
        zx, zy = self.split(z)
        return np.concatenate([self.ga @ zy, -(zx @ self.ga)])

    def g_of(self, u: FloatArray, p: FloatArray) -> FloatArray:
        out: FloatArray = u - p + self.gmul_m(p)
        return out

    def solve_w(self, rhs: FloatArray) -> FloatArray:
        """``W rhs = (I + γM)^{-1} rhs`` by the Schur complement (Cholesky, SPD)."""
        gx, gy = self.split(rhs)
        ga = self.ga
        if self.small_x:
            rx = scipy.linalg.cho_solve(self.chol, gx - ga @ gy)
            ry = gy + rx @ ga
        else:
            ry = scipy.linalg.cho_solve(self.chol, gy + gx @ ga)
            rx = gx - ga @ ry
        return np.concatenate([rx, ry])

    def residual(self, u: FloatArray) -> tuple[FloatArray, FloatArray]:
        """``(R(u), P(u))``."""
        p = self.project(u)
        return self.solve_w(self.g_of(u, p)), p

    def lift(self, z: FloatArray) -> FloatArray:
        out: FloatArray = z - self.gmul_m(z)
        return out

    def gap(self, p: FloatArray) -> float:
        px, py = self.split(p)
        return _gap(self.a, px, py)

    def supports(self, u: FloatArray) -> tuple[FloatArray, FloatArray]:
        ux, uy = self.split(u)
        return _support(ux), _support(uy)

    def newton_matrix(self, u: FloatArray, mu: float) -> FloatArray:
        """``K = (1+μ)I - D + γM(D + μI)`` (spec 01, Section 3.4, the W-free system)."""
        sx, sy = self.supports(u)
        dx, dy = _jacobian_from_support(sx), _jacobian_from_support(sy)
        m, n, ga = self.m, self.n, self.ga
        k = np.empty((m + n, m + n))
        k[:m, :m] = (1.0 + mu) * np.eye(m) - dx
        k[m:, m:] = (1.0 + mu) * np.eye(n) - dy
        # γ A (D_y + μ I) and -γ Aᵀ (D_x + μ I), with A D_y = A diag(s) - (A s) sᵀ / |S|
        ga_dy = ga * sy - np.outer(ga @ sy, sy) / float(sy.sum())
        gat_dx = ga.T * sx - np.outer(sx @ ga, sx) / float(sx.sum())
        k[:m, m:] = ga_dy + mu * ga
        k[m:, :m] = -(gat_dx + mu * ga.T)
        return k

    def direction(
        self, u: FloatArray, mu: float, g_u: FloatArray, solver: LinearSolver = "reduced"
    ) -> FloatArray:
        """Solve ``K d = -G(u)``: reduced to the supports (default) or by dense LU."""
        if solver == "dense":
            return self.direction_dense(u, mu, g_u)
        return self.direction_reduced(u, mu, g_u)

    def direction_dense(self, u: FloatArray, mu: float, g_u: FloatArray) -> FloatArray:
        """Solve ``K d = -G(u)`` by dense LU of the ``(m+n) x (m+n)`` matrix (not symmetric)."""
        d: FloatArray = np.linalg.solve(self.newton_matrix(u, mu), -g_u).astype(np.float64)
        return d

    def gram(self) -> _Gram:
        """The eigen-factor of the smaller Gram matrix of ``γA`` (computed once per context)."""
        if self._gram is None:
            self._gram = _gram_factor(self.ga)
        return self._gram

    def solve_b(self, rhs: FloatArray, a: float, c: float, psi: FloatArray) -> FloatArray:
        """``B^{-1} rhs`` for ``B = aI + cγM``, through ``B^{-1} = (aI - cγM)(a²I - c²γ²M²)^{-1}``."""
        f = self.gram()
        rx, ry = self.split(rhs)
        c2 = c * c
        nx = (rx - c2 * (f.lx @ ((f.wx * psi) * (rx @ f.lx)))) / (a * a)
        ny = (ry - c2 * (f.ly @ ((f.wy * psi) * (ry @ f.ly)))) / (a * a)
        return np.concatenate([a * nx - c * (self.ga @ ny), a * ny + c * (nx @ self.ga)])

    def direction_reduced(self, u: FloatArray, mu: float, g_u: FloatArray) -> FloatArray:
        """Solve ``K d = -G(u)`` through a system of size ``|S_x| + |S_y|`` (Woodbury).

        ``K = B - (I - γM) E Π Eᵀ`` with ``B = (1+μ)I + μγM`` and ``D = E Π Eᵀ``
        (``E`` selects the supports, ``Π = blockdiag(I - 11ᵀ/|S_x|, I - 11ᵀ/|S_y|)``).
        With ``b = B^{-1}(-G)`` and ``Z = Eᵀ B^{-1}(I - γM) E``, solve
        ``(I - ΠZ) w = Π Eᵀ b`` and return ``d = b + B^{-1}(I - γM) E w``.  With
        ``G = γA``, ``a = 1 + μ``, ``c = μ``, ``κ = c(a + c)/a`` and ``N_x``, ``N_y`` as in
        :class:`_Gram` [derived: ``B^{-1} = (aI - cγM)(a²I - c²γ²M²)^{-1}``]::

            B^{-1}(I - γM) = [[I/a - κ G N_y^{-1} Gᵀ,  -(a+c) G N_y^{-1}     ],
                              [(a+c) Gᵀ N_x^{-1},       I/a - κ Gᵀ N_x^{-1} G]]

        so ``Z`` costs ``O((|S_x| + |S_y|)² min(m, n))`` from the eigen-factor and the LU is
        of size ``|S_x| + |S_y|`` (dense LU: ``(m + n)³``).
        """
        f = self.gram()
        sx, sy = self.supports(u)
        ix, iy = np.flatnonzero(sx), np.flatnonzero(sy)
        a, c = 1.0 + mu, mu
        psi = 1.0 / (a * a + (c * c) * f.lam)
        b = self.solve_b(-g_u, a, c, psi)
        kappa = c * (a + c) / a
        lxs, lys = f.lx[ix], f.ly[iy]
        # Z = [[Z_xx, Z_xy], [Z_yx, Z_yy]] restricted to the supports (see the docstring)
        zxx = (-kappa) * ((lxs * (f.wx * psi)) @ lxs.T)
        zyy = (-kappa) * ((lys * (f.wy * psi)) @ lys.T)
        zxy = (-(a + c)) * ((lxs * psi) @ lys.T)
        zxx[np.diag_indices_from(zxx)] += 1.0 / a
        zyy[np.diag_indices_from(zyy)] += 1.0 / a
        kx = ix.size
        cap = np.block([[zxx, zxy], [-zxy.T, zyy]])
        rhs = np.concatenate([b[: self.m][ix], b[self.m :][iy]])
        # Π applied from the left (subtract the per-block column means); cap = I - ΠZ
        cap[:kx] -= cap[:kx].mean(axis=0)
        cap[kx:] -= cap[kx:].mean(axis=0)
        cap *= -1.0
        cap[np.diag_indices_from(cap)] += 1.0
        rhs[:kx] -= rhs[:kx].mean()
        rhs[kx:] -= rhs[kx:].mean()
        w = scipy.linalg.lu_solve(
            scipy.linalg.lu_factor(cap, overwrite_a=True, check_finite=False),
            rhs,
            check_finite=False,
        )
        wx, wy = w[:kx], w[kx:]
        # d = b + B^{-1}(I - γM) E w, the same blocks on all rows
        tx, ty = wx @ lxs, wy @ lys
        dx = -kappa * (f.lx @ ((f.wx * psi) * tx)) - (a + c) * (f.lx @ (psi * ty))
        dy = -kappa * (f.ly @ ((f.wy * psi) * ty)) + (a + c) * (f.ly @ (psi * tx))
        dx[ix] += wx / a
        dy[iy] += wy / a
        out: FloatArray = b + np.concatenate([dx, dy])
        return out


def default_gamma(payoff: object) -> float:
    """Our default step ``γ = 1/||A||_2`` (``1`` for the zero matrix).

    Internally only ``γA`` is formed (``A/||A||_2`` for the default), so tiny or huge
    payoffs do not overflow.

    Raises:
        TypeError: non-numeric payoff.
        ValueError: payoff not 2-D, empty or non-finite.

    Example:
        >>> default_gamma([[2.0, 0.0], [0.0, 1.0]])
        0.5
    """
    return _gamma_of(_payoff(payoff))


def _gamma_of(payoff: FloatArray) -> float:
    norm = float(np.linalg.norm(payoff, 2))
    return min(1.0 / norm, sys.float_info.max) if norm > 0.0 else 1.0


def _context(payoff: object, gamma: object) -> _Drs:
    matrix = _payoff(payoff)
    return _Drs(matrix, None if gamma is None else require_positive("gamma", gamma))


def _point(ctx: _Drs, name: str, value: object) -> FloatArray:
    return as_float_array(name, value, shape=(ctx.m + ctx.n,))


def drs_residual_g(payoff: object, u: object, *, gamma: float | None = None) -> FloatArray:
    """The inverse-free residual ``G(u) = u - P(u) + γ M P(u) = (I + γM) R(u)``.

    ``G(u) = 0`` iff ``R(u) = 0``.  Shapes: ``payoff (m, n)``, ``u (m + n,)``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, ``gamma <= 0``.
    """
    ctx = _context(payoff, gamma)
    point = _point(ctx, "u", u)
    return ctx.g_of(point, ctx.project(point))


def drs_residual(payoff: object, u: object, *, gamma: float | None = None) -> FloatArray:
    """The lifted DRS residual ``R(u) = P(u) - W(2P(u) - u) = u - T(u)``.

    Here ``P = Π_{Δ_m x Δ_n}``, ``W = (I + γM)^{-1}``, ``M = [[0, A], [-Aᵀ, 0]]``.
    ``R(u) = 0`` iff ``u = L(z*)`` for an equilibrium ``z* = P(u)`` (spec 01, 3.3).

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        u: ``(m + n,)`` lifted point.
        gamma: ``γ > 0``; default ``1/||A||_2`` (our default).

    Returns:
        ``(m + n,)`` float64 ``R(u)``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, ``gamma <= 0``.

    Example:
        >>> a = [[1.0, -1.0], [-1.0, 1.0]]
        >>> float(abs(drs_residual(a, lift(a, [0.5, 0.5], [0.5, 0.5]))).max())
        0.0

    References:
        spec 01, Section 3.3 (reconstruction of the paper's lifted DRS residual).
    """
    ctx = _context(payoff, gamma)
    return ctx.residual(_point(ctx, "u", u))[0]


def drs_operator(payoff: object, u: object, *, gamma: float | None = None) -> FloatArray:
    """The DRS operator ``T(u) = u + W(2P(u) - u) - P(u) = u - R(u)``.

    Firmly nonexpansive (``W``'s reflection ``2W - I`` is orthogonal).  Shapes as in
    :func:`drs_residual`.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, ``gamma <= 0``.
    """
    ctx = _context(payoff, gamma)
    point = _point(ctx, "u", u)
    out: FloatArray = point - ctx.residual(point)[0]
    return out


def lift(payoff: object, x: object, y: object, *, gamma: float | None = None) -> FloatArray:
    """The lifting map ``L(z) = z - γ M z = (x - γ A y, y + γ Aᵀ x)``.

    ``L`` is injective and maps the equilibria onto the fixed points of ``T``.

    Args:
        payoff: ``(m, n)`` finite matrix.
        x: ``(m,)`` point of the simplex (tolerance 1e-9).
        y: ``(n,)`` point of the simplex.
        gamma: ``γ > 0``; default ``1/||A||_2``.

    Returns:
        ``(m + n,)`` float64 lifted point ``u``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite, off the simplex, ``gamma <= 0``.

    Example:
        >>> lift([[1.0, 0.0], [0.0, 1.0]], [1.0, 0.0], [1.0, 0.0], gamma=0.5).tolist()
        [0.5, 0.0, 1.5, 0.0]
    """
    ctx = _context(payoff, gamma)
    xs = as_simplex_point("x", x, size=ctx.m, atol=SIMPLEX_ATOL)
    ys = as_simplex_point("y", y, size=ctx.n, atol=SIMPLEX_ATOL)
    return ctx.lift(np.concatenate([xs, ys]))


def recover(payoff: object, u: object) -> tuple[FloatArray, FloatArray]:
    """The strategy profile of a lifted point: ``z = P(u) = (Π(u_x), Π(u_y))``.

    Raises:
        TypeError: non-numeric input.
        ValueError: payoff not 2-D/empty/non-finite, ``u`` not ``(m + n,)`` finite.
    """
    matrix = _payoff(payoff)
    m, n = matrix.shape
    point = as_float_array("u", u, shape=(m + n,))
    return _project(point[:m])[0], _project(point[m:])[0]


def residual_jacobian(payoff: object, u: object, *, gamma: float | None = None) -> FloatArray:
    """The generalized-Jacobian element ``J(u) = D - W(2D - I)`` of the residual.

    ``D = blockdiag(D(u_x), D(u_y))`` (:func:`simplex_jacobian`).  ``J = (I - Q)/2``
    with ``Q = (2W - I)(2D - I)`` orthogonal, so every eigenvalue lies in the disc
    ``|λ - 1/2| <= 1/2``.  ``J`` is not symmetric.  Dense, for checks and small games.

    Returns:
        ``(m + n, m + n)`` float64 matrix.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, ``gamma <= 0``.
    """
    ctx = _context(payoff, gamma)
    point = _point(ctx, "u", u)
    sx, sy = ctx.supports(point)
    d = scipy.linalg.block_diag(_jacobian_from_support(sx), _jacobian_from_support(sy))
    size = ctx.m + ctx.n
    w = np.column_stack([ctx.solve_w(col) for col in np.eye(size)])
    out: FloatArray = d - w @ (2.0 * d - np.eye(size))
    return out


def newton_direction(
    payoff: object,
    u: object,
    mu: float,
    *,
    gamma: float | None = None,
    linear_solver: LinearSolver = "reduced",
) -> FloatArray:
    """The regularised Newton direction: solve ``(J(u) + μI) d = -R(u)``.

    Solved in the W-free form ``K d = -G(u)``, ``K = (1+μ)I - D + γM(D + μI)``
    (spec 01, Section 3.4), either by dense LU of ``K`` (``linear_solver="dense"``) or,
    by default, reduced to the supports [derived]: with ``D = E Π Eᵀ`` (``E`` selects
    ``S_x ∪ S_y``, ``Π`` centres each block), ``K = B - (I - γM) E Π Eᵀ`` where
    ``B = (1+μ)I + μγM``; Sherman–Morrison–Woodbury gives
    ``d = b + B^{-1}(I - γM) E w`` with ``b = B^{-1}(-G(u))`` and
    ``(I - Π Eᵀ B^{-1}(I - γM) E) w = Π Eᵀ b``, a system of size ``|S_x| + |S_y|``.
    ``B^{-1}`` and ``B^{-1}(I - γM)`` are functions of ``γ²AAᵀ``/``γ²AᵀA``, so one
    eigen-decomposition of the smaller Gram matrix serves every ``μ``.

    Args:
        payoff: ``(m, n)`` finite matrix.
        u: ``(m + n,)`` lifted point.
        mu: regulariser ``μ > 0``.
        gamma: ``γ > 0``; default ``1/||A||_2``.
        linear_solver: ``"reduced"`` (default) or ``"dense"``; the same ``d`` up to rounding.

    Returns:
        ``(m + n,)`` float64 direction ``d``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, ``mu <= 0``, ``gamma <= 0`` or an
            unknown ``linear_solver``.

    Example:
        >>> a, u = [[3.0, -1.0], [-2.0, 1.0]], [0.9, -0.2, 0.1, 0.6]
        >>> d_red = newton_direction(a, u, 0.5)
        >>> d_lu = newton_direction(a, u, 0.5, linear_solver="dense")
        >>> bool(abs(d_red - d_lu).max() < 1e-12)
        True
    """
    ctx = _context(payoff, gamma)
    point = _point(ctx, "u", u)
    reg = require_positive("mu", mu)
    solver = _check_solver(linear_solver)
    return ctx.direction(point, reg, ctx.g_of(point, ctx.project(point)), solver)


# ------------------------------------------------------------------ solvers
def _start(ctx: _Drs, u0: object) -> FloatArray:
    if u0 is None:
        return ctx.lift(np.concatenate([_uniform(ctx.m), _uniform(ctx.n)]))
    return _point(ctx, "u0", u0)


def _tol_res(payoff: FloatArray, tol_res: float | None) -> float:
    if tol_res is not None:
        return tol_res
    return 1e-14 * max(1.0, float(np.max(np.abs(payoff))))


def _result(
    method: str,
    ctx: _Drs,
    u: FloatArray,
    *,
    converged: bool,
    first_order: int,
    newton: int,
    gaps: list[float],
    residuals: list[float],
    safeguards: int,
    start: float,
) -> EquilibriumResult:
    p = ctx.project(u)
    x, y = ctx.split(p)
    return EquilibriumResult(
        method=method,
        x=readonly(np.array(x)),
        y=readonly(np.array(y)),
        gap=_gap(ctx.a, x, y),
        converged=converged,
        iterations=first_order + newton,
        first_order_iterations=first_order,
        newton_iterations=newton,
        gap_history=readonly(np.array(gaps)),
        residual_history=readonly(np.array(residuals)),
        residual=residuals[-1],
        u=readonly(np.array(u)),
        ssn_runs=1 if method == "SSN" else 0,
        safeguard_steps=safeguards,
        wall_time=time.perf_counter() - start,
    )


def drs(
    payoff: object,
    *,
    tol: float = 1e-10,
    max_iter: int = 10_000,
    u0: object = None,
    gamma: float | None = None,
    tol_res: float | None = None,
) -> EquilibriumResult:
    """Plain Douglas–Rachford splitting: ``u_{k+1} = T(u_k) = u_k - R(u_k)``.

    Starts at ``u_0 = L(uniform, uniform)`` unless ``u0`` is given; reports
    ``z_k = P(u_k)``; stops when ``||R(u_k)|| <= tol_res`` or ``gap(z_k) <= tol``.
    Sublinear/linear; the baseline and sanity reference of spec 01 (Algorithm 1).

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        tol: target duality gap ``eps > 0``.
        max_iter: iteration cap ``>= 1``.
        u0: ``(m + n,)`` starting lifted point (default ``L(uniform)``).
        gamma: ``γ > 0``; default ``1/||A||_2``.
        tol_res: residual tolerance; default ``1e-14 * max(1, max|a_ij|)``.

    Returns:
        An :class:`~reference.games.base.EquilibriumResult` (``method="DRS"``, ``u`` set).

    Raises:
        TypeError: non-numeric input.
        ValueError: bad payoff or ``u0``, ``tol``/``gamma``/``tol_res <= 0``, ``max_iter < 1``.

    Example:
        >>> res = drs([[3.0, -1.0], [-2.0, 1.0]], tol=1e-9)
        >>> res.converged, [round(float(v), 6) for v in res.x]
        (True, [0.428571, 0.571429])

    References:
        J. Douglas, H. Rachford (1956); P.-L. Lions, B. Mercier (1979); spec 01, Algorithm 1.
    """
    start = time.perf_counter()
    ctx = _context(payoff, gamma)
    eps = _tol("tol", tol)
    cap = _max_iter(max_iter)
    res_tol = _tol_res(ctx.a, None if tol_res is None else _tol("tol_res", tol_res))
    u = _start(ctx, u0)
    r, p = ctx.residual(u)
    gaps, residuals = [ctx.gap(p)], [float(np.linalg.norm(r))]
    k = 0
    while not (residuals[-1] <= res_tol or gaps[-1] <= eps) and k < cap:
        u = u - r  # Alg. 1: u_{k+1} = T(u_k)
        k += 1
        r, p = ctx.residual(u)
        gaps.append(ctx.gap(p))
        residuals.append(float(np.linalg.norm(r)))
    converged = residuals[-1] <= res_tol or gaps[-1] <= eps
    return _result(
        "DRS",
        ctx,
        u,
        converged=converged,
        first_order=k,
        newton=0,
        gaps=gaps,
        residuals=residuals,
        safeguards=0,
        start=start,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class SSNConfig:
    """Parameters of the regularised semi-smooth Newton method (all our defaults, spec 01).

    Attributes:
        gamma: DRS step ``γ > 0``; ``None`` means ``1/||A||_2``.
        lambda0: initial regularisation factor ``λ_0`` (``μ_k = λ_k ||R(u_k)||``).
        lambda_min: lower clamp of ``λ``.
        lambda_max: upper clamp of ``λ`` (10; with 1e8 a 60 x 90 game stalled, spec 01).
        sigma: Armijo constant ``σ ∈ (0, 1)``.
        beta: backtracking factor ``β ∈ (0, 1)``.
        max_backtracks: line-search trials before the safeguard step.
        acceptance: ``"armijo"`` (default) or ``"ratio"`` (Xiao–Li–Wen–Zhang style test
            ``||R(u + d)|| <= ν ||R(u_ref)||``).
        nu: ``ν ∈ (0, 1)`` of the ratio test.
        tol_res: residual tolerance; ``None`` means ``1e-14 * max(1, max|a_ij|)``.
        watchdog: (our default, not in the spec) when the line search fails, try the full
            step followed by one more Newton step and accept the pair if ``||R||`` drops by
            ``(1 - σ)``.  Near-tied payoffs make ``R`` flat along the Newton direction inside
            one affine piece, so no damped step decreases ``||R||``, while the full step
            crosses the kink into the piece where Newton is exact; without the watchdog the
            cold SSN stalls there (e.g. on ``[[1.00001, 1.0]]``).
        linear_solver: how step 3's system ``(J + μI) d = -R`` is solved (both exact; the
            iterates agree to rounding): ``"reduced"`` (our default) eliminates everything
            off the supports by Sherman–Morrison–Woodbury and factors a system of size
            ``|S_x| + |S_y|`` (plus a one-off eigen-decomposition of the smaller Gram
            matrix ``γ²AAᵀ`` or ``γ²AᵀA``); ``"dense"`` forms the ``(m+n) x (m+n)``
            W-free matrix and runs dense LU (the spec's literal step 3).
    """

    gamma: float | None = None
    lambda0: float = 1.0
    lambda_min: float = 1e-6
    lambda_max: float = 10.0
    sigma: float = 1e-4
    beta: float = 0.5
    max_backtracks: int = 20
    acceptance: Literal["armijo", "ratio"] = "armijo"
    nu: float = 0.9
    tol_res: float | None = None
    watchdog: bool = True
    linear_solver: LinearSolver = "reduced"

    def __post_init__(self) -> None:
        if self.gamma is not None:
            require_positive("gamma", self.gamma)
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
        if not isinstance(self.watchdog, bool):
            raise TypeError(f"watchdog: expected a bool, got {type(self.watchdog).__name__}")
        _check_solver(self.linear_solver)


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class _NewtonRun:
    u: FloatArray
    converged: bool
    iterations: int
    safeguards: int
    gaps: list[float]
    residuals: list[float]


def _ssn_core(
    ctx: _Drs, u0: FloatArray, *, eps: float, max_iter: int, cfg: SSNConfig
) -> _NewtonRun:
    """Algorithm 2 of spec 01 from ``u0`` on a prepared context."""
    res_tol = _tol_res(ctx.a, cfg.tol_res)
    u = u0
    r, p = ctx.residual(u)
    rn = float(np.linalg.norm(r))
    gaps, residuals = [ctx.gap(p)], [rn]
    lam = cfg.lambda0
    u_ref_norm = rn  # ratio rule: ||R|| at the last accepted Newton point
    k = safeguards = 0
    while not (rn <= res_tol or gaps[-1] <= eps) and k < max_iter:  # Alg. 2, step 1
        k += 1
        mu = lam * rn  # step 2
        d = ctx.direction(u, mu, ctx.g_of(u, p), cfg.linear_solver)  # step 3
        accepted = False
        if cfg.acceptance == "armijo":  # step 4: Armijo backtracking on ||R||
            s = 1.0
            for _ in range(cfg.max_backtracks):
                trial = u + s * d
                r_t, p_t = ctx.residual(trial)
                rn_t = float(np.linalg.norm(r_t))
                if rn_t <= (1.0 - cfg.sigma * s) * rn:
                    accepted = True
                    break
                s *= cfg.beta
            if accepted:  # step 5
                lam = max(lam / 2.0, cfg.lambda_min) if s == 1.0 else min(2.0 * lam, cfg.lambda_max)
        else:  # ratio rule (Xiao, Li, Wen, Zhang 2018 style)
            trial = u + d
            r_t, p_t = ctx.residual(trial)
            rn_t = float(np.linalg.norm(r_t))
            if rn_t <= cfg.nu * u_ref_norm:
                accepted = True
                u_ref_norm = rn_t
                lam = max(lam / 2.0, cfg.lambda_min)
        if not accepted and cfg.watchdog and k < max_iter:
            # watchdog (our default): the full step may cross a kink of the piecewise-affine R
            # and land where the next Newton step is exact; accept the pair if it decreases ||R||
            w = u + d
            r_w, p_w = ctx.residual(w)
            mu_w = cfg.lambda_min * float(np.linalg.norm(r_w))  # nearly exact Newton
            if mu_w > 0.0:
                trial = w + ctx.direction(w, mu_w, ctx.g_of(w, p_w), cfg.linear_solver)
                r_t, p_t = ctx.residual(trial)
                rn_t = float(np.linalg.norm(r_t))
                if rn_t <= (1.0 - cfg.sigma) * rn:
                    accepted = True
                    k += 1  # two linear solves: count both Newton iterations
                    gaps.append(ctx.gap(p_w))
                    residuals.append(float(np.linalg.norm(r_w)))
        if accepted:
            u, r, p, rn = trial, r_t, p_t, rn_t
        else:  # step 6: hyperplane projection (Solodov–Svaiter) or a DRS step
            safeguards += 1
            w = u + d
            r_w, _ = ctx.residual(w)
            rho = -float(r_w @ d)
            norm_w = float(r_w @ r_w)
            u = u - (rho / norm_w) * r_w if rho > 0.0 and norm_w > 0.0 else u - r
            lam = min(4.0 * lam, cfg.lambda_max)
            r, p = ctx.residual(u)
            rn = float(np.linalg.norm(r))
        gaps.append(ctx.gap(p))
        residuals.append(rn)
    return _NewtonRun(
        u=u,
        converged=rn <= res_tol or gaps[-1] <= eps,
        iterations=k,
        safeguards=safeguards,
        gaps=gaps,
        residuals=residuals,
    )


def ssn(
    payoff: object,
    *,
    tol: float = 1e-10,
    max_iter: int = 300,
    u0: object = None,
    config: SSNConfig | None = None,
) -> EquilibriumResult:
    """Regularised semi-smooth Newton on the DRS residual (spec 01, Algorithm 2).

    For ``k = 0, 1, ...``: stop when ``||R(u_k)|| <= tol_res`` or
    ``gap(P(u_k)) <= tol``; else ``μ_k = λ_k ||R(u_k)||``, solve
    ``(J(u_k) + μ_k I) d_k = -R(u_k)`` (W-free form; reduced to the supports by
    default, dense LU with ``config.linear_solver="dense"``), backtrack
    ``s <- β s`` until ``||R(u_k + s d_k)|| <= (1 - σ s) ||R(u_k)||`` (at most
    ``max_backtracks`` trials); a full step halves ``λ``, a shortened one doubles it.
    If no trial passes, take the Solodov–Svaiter projection step along ``R(u_k + d_k)``
    when ``ρ = -<R(u_k + d_k), d_k> > 0``, else a DRS step, and set ``λ <- 4λ``
    (``λ`` clamped to ``[λ_min, λ_max]``).  Symbols: ``γ`` is ``config.gamma``,
    ``λ_0`` ``config.lambda0``, ``σ`` ``config.sigma``, ``β`` ``config.beta``.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        tol: target duality gap ``eps > 0`` (default 1e-10, absolute).
        max_iter: Newton iteration cap ``>= 1`` (default 300).
        u0: ``(m + n,)`` starting lifted point; default ``L(uniform, uniform)``.
        config: :class:`SSNConfig` (our defaults).

    Returns:
        An :class:`~reference.games.base.EquilibriumResult` (``method="SSN"``; ``u``,
        ``residual``, ``residual_history`` and ``safeguard_steps`` set).

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
    ctx = _context(payoff, cfg.gamma)
    eps = _tol("tol", tol)
    cap = _max_iter(max_iter)
    run = _ssn_core(ctx, _start(ctx, u0), eps=eps, max_iter=cap, cfg=cfg)
    return _result(
        "SSN",
        ctx,
        run.u,
        converged=run.converged,
        first_order=0,
        newton=run.iterations,
        gaps=run.gaps,
        residuals=run.residuals,
        safeguards=run.safeguards,
        start=start,
    )
