"""Fast numpy path of the games family: SSN with the support-reduced Newton solve.

Same public names and signatures as the reference (:func:`ssn`, :func:`newton_direction`,
:func:`hybrid`, :func:`drs`), plus a keyword ``linear_solver``: ``"reduced"`` (default) or
``"dense"``.  The iterates agree with the reference to rounding; the table-driven test
``tests/games/test_fast_vs_reference.py`` checks it (1e-10).  This module may import the
reference; the reference never imports it.

What is faster than :mod:`reference.games.ssn`:

* ``W = (I + γM)^{-1}`` is applied through the Schur complement on the smaller side,
  one Cholesky factor of ``I + γ²AAᵀ`` (or ``I + γ²AᵀA``) per game, instead of an LU of
  the ``(m+n) x (m+n)`` matrix ``I + γM``.
* Newton linear algebra [derived]: ``D = E Π Eᵀ`` has rank ``|S_x| + |S_y| - 2`` (``E``
  selects the supports, ``Π`` centres each block), so the ``(m+n) x (m+n)`` W-free Newton
  matrix is "``B`` minus a rank-``|S|`` term" with ``B = (1+μ)I + μγM``;
  Sherman–Morrison–Woodbury reduces each Newton step to one LU of size ``|S_x| + |S_y|``,
  and ``B^{-1}`` for every ``μ`` comes from one eigen-decomposition of the smaller Gram
  matrix of ``γA`` (``linear_solver="dense"`` keeps the spec's dense LU of ``K``).

The SSN loop below is the reference's Algorithm 2 (same branches, same counters) written on
the cached context; :func:`hybrid` runs the reference's Algorithm 4 loop with this SSN.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt
import scipy.linalg

from reference._arrays import FloatArray, as_float_array, readonly, require_positive
from reference.games.base import (
    EquilibriumResult,
    _gap,
    _max_iter,
    _payoff,
    _project,
    _tol,
    _uniform,
)
from reference.games.hybrid import HybridConfig, _check_arguments, _hybrid_loop
from reference.games.ssn import (
    SSNConfig,
    _jacobian_from_support,
    _NewtonRun,
    _pieces,
    _solve,
    _stop_reason,
    _support,
    _tol_res,
)

__all__ = [
    "FAST_HYBRID_CONFIG",
    "LINEAR_SOLVERS",
    "LinearSolver",
    "drs",
    "hybrid",
    "newton_direction",
    "ssn",
]

#: The switch rule measured fastest at 1000 x 1000 (issue 20, benchmarks/results/
#: games_fastpath.md): alternating PRM+ run to ``gap <= 1e-5`` before the Newton phase (the
#: default ``1e-3`` leaves ~80 of ~1020 support indices wrong and costs 40-60 Newton steps).
#: Pass it as ``hybrid(payoff, config=FAST_HYBRID_CONFIG)``; the default stays the reference's.
FAST_HYBRID_CONFIG = HybridConfig(tau_switch=1e-5, alternating=True)

# ------------------------------------------------------------------ DRS operator
IndexArray = npt.NDArray[np.intp]
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


#: Use the refined capacitance solve while ``μ²λ_max(γ²AAᵀ) <= 1e-2 (1+μ)²`` (near a solution,
#: where ``μ = λ||R||`` is small); above it the exact matrix is formed (the first steps of a
#: cold start).  Tuned on 1000 x 1000 games (benchmarks/results/games_fastpath_levers.md).
_REFINE_BELOW = 1e-2
#: Iterative-refinement steps before the exact capacitance matrix is formed instead.
_REFINE_STEPS = 8


class _Capacitance:
    """The support system ``(I - ΠZ) w = Π Eᵀ b`` of :meth:`_Drs.direction_reduced` (internal).

    ``Z`` needs ``O(|S|² min(m, n))`` flops from the eigen-factor.  With ``ψ = 1/(a² + c²λ)
    = 1/a² - O(c²)``, ``Z = Z₀ + O(c²)`` where [derived] ``Z₀`` is read off precomputed
    Gram blocks: ``Z₀_xx = I/a - (κ/a²)(GGᵀ)_SS``, ``Z₀_yy = I/a - (κ/a²)(GᵀG)_SS``,
    ``Z₀_xy = -((a+c)/a²) G_SS``.  :meth:`refined_solve` factors ``I - ΠZ₀`` and corrects by
    iterative refinement against the exact ``Z`` (applied in ``O(|S| min(m, n))``), so the
    solve is exact to rounding; it gives up (``None``) when refinement does not converge.
    """

    def __init__(
        self, f: _Gram, lxs: FloatArray, lys: FloatArray, a: float, c: float, psi: FloatArray
    ) -> None:
        self.f, self.lxs, self.lys, self.a, self.c, self.psi = f, lxs, lys, a, c, psi
        self.kappa = c * (a + c) / a
        self.kx = lxs.shape[0]

    def _close(self, zxx: FloatArray, zxy: FloatArray, zyy: FloatArray) -> FloatArray:
        """``I - ΠZ`` from the blocks of ``Z`` (``Z_yx = -Z_xyᵀ``)."""
        kx = self.kx
        zxx[np.diag_indices_from(zxx)] += 1.0 / self.a
        zyy[np.diag_indices_from(zyy)] += 1.0 / self.a
        cap = np.block([[zxx, zxy], [-zxy.T, zyy]])
        cap[:kx] -= cap[:kx].mean(axis=0)  # Π from the left: subtract the block column means
        cap[kx:] -= cap[kx:].mean(axis=0)
        cap *= -1.0
        cap[np.diag_indices_from(cap)] += 1.0
        return cap

    def matrix(self) -> FloatArray:
        """The exact ``I - ΠZ`` (``O(|S|² min(m, n))``)."""
        f, lxs, lys, psi = self.f, self.lxs, self.lys, self.psi
        zxx = (-self.kappa) * ((lxs * (f.wx * psi)) @ lxs.T)
        zyy = (-self.kappa) * ((lys * (f.wy * psi)) @ lys.T)
        zxy = (-(self.a + self.c)) * ((lxs * psi) @ lys.T)
        return self._close(zxx, zxy, zyy)

    def apply(self, w: FloatArray) -> FloatArray:
        """``(I - ΠZ) w`` with the exact ``Z``, without forming it."""
        f, lxs, lys, psi, kx = self.f, self.lxs, self.lys, self.psi, self.kx
        wx, wy = w[:kx], w[kx:]
        tx, ty = wx @ lxs, wy @ lys
        s = self.a + self.c
        zx = -self.kappa * (lxs @ ((f.wx * psi) * tx)) - s * (lxs @ (psi * ty)) + wx / self.a
        zy = -self.kappa * (lys @ ((f.wy * psi) * ty)) + s * (lys @ (psi * tx)) + wy / self.a
        zx -= zx.mean()
        zy -= zy.mean()
        out: FloatArray = w - np.concatenate([zx, zy])
        return out

    def refined_solve(
        self,
        grams: tuple[FloatArray, FloatArray],
        ix: IndexArray,
        iy: IndexArray,
        ga: FloatArray,
        rhs: FloatArray,
    ) -> FloatArray | None:
        """Solve with ``I - ΠZ₀`` plus refinement; ``None`` if it does not converge."""
        a, inv = self.a, 1.0 / (self.a * self.a)
        gxx, gyy = grams
        zxx = (-self.kappa * inv) * gxx[np.ix_(ix, ix)]
        zyy = (-self.kappa * inv) * gyy[np.ix_(iy, iy)]
        zxy = (-(a + self.c) * inv) * ga[np.ix_(ix, iy)]
        with warnings.catch_warnings():  # an exactly singular Z₀: judged by the pivots below
            warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)
            lu, piv = scipy.linalg.lu_factor(self._close(zxx, zxy, zyy), check_finite=False)
        pivots = np.abs(np.diag(lu))
        if not np.all(np.isfinite(lu)) or pivots.min(initial=1.0) <= 1e-13 * pivots.max(
            initial=1.0
        ):
            return None  # singular to working precision: the exact path and its fallback
        w: FloatArray = scipy.linalg.lu_solve((lu, piv), rhs, check_finite=False)
        floor = 4.0 * np.finfo(np.float64).eps
        previous = np.inf
        for _ in range(_REFINE_STEPS):
            res = rhs - self.apply(w)
            size = float(np.max(np.abs(res), initial=0.0))
            if size <= floor * (float(np.max(np.abs(rhs), initial=0.0)) + float(np.max(np.abs(w)))):
                return w
            if not size < 0.5 * previous:  # stagnates above rounding: give up
                return None
            previous = size
            w = w + scipy.linalg.lu_solve((lu, piv), res, check_finite=False)
        return None


class _Drs:
    """Pre-factored DRS pieces for one game and one ``γ`` (internal)."""

    def __init__(self, payoff: FloatArray, gamma: float | None) -> None:
        self.a = payoff
        self.m, self.n = payoff.shape
        self.small_x = self.m <= self.n
        self.ga: FloatArray
        self._gram: _Gram | None = None  # factor of the reduced Newton solve, built on demand
        # Only γA enters the operator: form it without squaring γ (no overflow for tiny A).
        if gamma is None:
            small = self._default_scaling(payoff)
        else:
            self.ga = gamma * payoff
            small = self.ga @ self.ga.T if self.small_x else self.ga.T @ self.ga
        # (I + γM) R = G is solved through the Schur complement on the smaller side.
        self.small: FloatArray = small  # γ²AAᵀ if m <= n, else γ²AᵀA
        self.chol = scipy.linalg.cho_factor(np.eye(small.shape[0]) + small)
        self._blocks: tuple[FloatArray, FloatArray] | None = None

    def _default_scaling(self, payoff: FloatArray) -> FloatArray:
        """Set ``γA = A/||A||_2`` and the eigen-factor; return the smaller Gram matrix of ``γA``.

        One eigen-decomposition of the smaller Gram matrix of ``B = A/max|a_ij|`` gives
        ``||A||_2 = max|a_ij| sqrt(λ_max(BBᵀ))`` and the factor :meth:`gram` needs (instead of
        an SVD for the norm and a second decomposition later).
        """
        peak = float(np.max(np.abs(payoff)))
        if peak == 0.0:
            self.ga = payoff.copy()
            return np.zeros((min(self.m, self.n),) * 2)
        b = payoff / peak
        gram_b = b @ b.T if self.small_x else b.T @ b
        lam, vec = np.linalg.eigh(gram_b)
        top = float(lam[-1])
        self.ga = payoff / (peak * float(np.sqrt(top)))
        lam = np.maximum(lam / top, 0.0)
        other = self.ga.T @ vec if self.small_x else self.ga @ vec
        if self.small_x:
            self._gram = _Gram(lx=vec, ly=other, wx=lam, wy=np.ones_like(lam), lam=lam)
        else:
            self._gram = _Gram(lx=other, ly=vec, wx=np.ones_like(lam), wy=lam, lam=lam)
        small: FloatArray = gram_b / top
        return small

    def split(self, v: FloatArray) -> tuple[FloatArray, FloatArray]:
        return v[: self.m], v[self.m :]

    def project(self, u: FloatArray) -> FloatArray:
        ux, uy = self.split(u)
        return np.concatenate([_project(ux), _project(uy)])

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
        return _solve(self.newton_matrix(u, mu), -g_u)  # the reference's solve and fallback

    def gram(self) -> _Gram:
        """The eigen-factor of the smaller Gram matrix of ``γA`` (computed once per context)."""
        if self._gram is None:
            self._gram = _gram_factor(self.ga)
        return self._gram

    def gram_blocks(self) -> tuple[FloatArray, FloatArray]:
        """``(γ²AAᵀ, γ²AᵀA)``, formed once per context (the refined support solve)."""
        if self._blocks is None:
            other = self.ga.T @ self.ga if self.small_x else self.ga @ self.ga.T
            self._blocks = (self.small, other) if self.small_x else (other, self.small)
        return self._blocks

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
        kx = ix.size
        rhs = np.concatenate([b[: self.m][ix], b[self.m :][iy]])
        rhs[:kx] -= rhs[:kx].mean()  # Π Eᵀ b
        rhs[kx:] -= rhs[kx:].mean()
        part = _Capacitance(f, lxs, lys, a, c, psi)
        w = None
        if (c * c) * float(f.lam.max(initial=0.0)) <= _REFINE_BELOW * (a * a):
            w = part.refined_solve(self.gram_blocks(), ix, iy, self.ga, rhs)
        if w is None:
            w = _solve(part.matrix(), rhs)  # LU; least squares if singular (the reference's)
        wx, wy = w[:kx], w[kx:]
        # d = b + B^{-1}(I - γM) E w, the same blocks on all rows
        tx, ty = wx @ lxs, wy @ lys
        dx = -kappa * (f.lx @ ((f.wx * psi) * tx)) - (a + c) * (f.lx @ (psi * ty))
        dy = -kappa * (f.ly @ ((f.wy * psi) * ty)) + (a + c) * (f.ly @ (psi * tx))
        dx[ix] += wx / a
        dy[iy] += wy / a
        out: FloatArray = b + np.concatenate([dx, dy])
        return out


def _context(payoff: object, gamma: object) -> _Drs:
    matrix = _payoff(payoff)
    return _Drs(matrix, None if gamma is None else require_positive("gamma", gamma))


def _point(ctx: _Drs, name: str, value: object) -> FloatArray:
    return as_float_array(name, value, shape=(ctx.m + ctx.n,))


def _start(ctx: _Drs, u0: object) -> FloatArray:
    if u0 is None:
        return ctx.lift(np.concatenate([_uniform(ctx.m), _uniform(ctx.n)]))
    return _point(ctx, "u0", u0)


def _result(
    method: str, ctx: _Drs, run: _NewtonRun, *, first_order: int, start: float
) -> EquilibriumResult:
    return EquilibriumResult(
        method=method,
        x=readonly(np.array(run.x)),
        y=readonly(np.array(run.y)),
        gap=_gap(ctx.a, run.x, run.y),
        converged=run.converged,
        stop_reason=run.stop_reason,
        iterations=run.iterations,
        first_order_iterations=first_order,
        newton_iterations=run.iterations - first_order,
        gap_history=readonly(np.array(run.gaps)),
        residual_history=readonly(np.array(run.residuals)),
        residual=run.residuals[-1],
        u=readonly(np.array(run.u)),
        ssn_runs=1 if method == "SSN" else 0,
        safeguard_steps=run.safeguards,
        wall_time=time.perf_counter() - start,
    )


def newton_direction(
    payoff: object,
    u: object,
    mu: float,
    *,
    gamma: float | None = None,
    linear_solver: LinearSolver = "reduced",
) -> FloatArray:
    """Fast :func:`reference.games.newton_direction`: solve ``(J(u) + μI) d = -R(u)``.

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
        >>> from reference.games import newton_direction as reference_direction
        >>> a, u = [[3.0, -1.0], [-2.0, 1.0]], [0.9, -0.2, 0.1, 0.6]
        >>> d_red = newton_direction(a, u, 0.5)
        >>> d_lu = newton_direction(a, u, 0.5, linear_solver="dense")
        >>> bool(abs(d_red - d_lu).max() < 1e-12), bool(abs(d_red - reference_direction(a, u, 0.5)).max() < 1e-12)
        (True, True)
    """
    ctx = _context(payoff, gamma)
    point = _point(ctx, "u", u)
    reg = require_positive("mu", mu)
    solver = _check_solver(linear_solver)
    return ctx.direction(point, reg, ctx.g_of(point, ctx.project(point)), solver)


def drs(
    payoff: object,
    *,
    tol: float = 1e-10,
    max_iter: int = 10_000,
    u0: object = None,
    gamma: float | None = None,
    tol_res: float | None = None,
) -> EquilibriumResult:
    """Fast :func:`reference.games.drs` (``W`` by the Schur complement); same arguments.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad payoff or ``u0``, ``tol``/``gamma``/``tol_res <= 0``, ``max_iter < 1``.

    Example:
        >>> res = drs([[3.0, -1.0], [-2.0, 1.0]], tol=1e-9)
        >>> res.converged, [round(float(v), 6) for v in res.x]
        (True, [0.428571, 0.571429])
    """
    start = time.perf_counter()
    ctx = _context(payoff, gamma)
    eps = _tol("tol", tol)
    cap = _max_iter(max_iter)
    res_tol = _tol_res(ctx.ga, None if tol_res is None else _tol("tol_res", tol_res))
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
    x, y = ctx.split(p)
    run = _NewtonRun(
        u=u,
        x=x,
        y=y,
        converged=gaps[-1] <= eps,
        stop_reason=_stop_reason(gaps[-1], eps, residuals[-1], res_tol),
        iterations=k,
        safeguards=0,
        gaps=gaps,
        residuals=residuals,
    )
    return _result("DRS", ctx, run, first_order=k, start=start)


def _kink_search(
    ctx: _Drs, u: FloatArray, d: FloatArray, rn: float, cfg: SSNConfig, solver: LinearSolver
) -> tuple[FloatArray, tuple[FloatArray, float] | None] | None:
    """:func:`reference.games.ssn._kink_search` on a prepared context: ``(trial, w)`` with
    ``w = (P(w), ||R(w)||)`` for a watchdog pair, ``None`` if nothing passes."""
    for t1, t2 in _pieces(ctx.m, u, d):
        a, b = t1 + 0.25 * (t2 - t1), t1 + 0.75 * (t2 - t1)
        r_a, r_b = ctx.residual(u + a * d)[0], ctx.residual(u + b * d)[0]
        slope = (r_b - r_a) / (b - a)
        denom = float(slope @ slope)
        edge = 1e-6 * (t2 - t1)  # stay off the kinks, where the support is a matter of rounding
        t = min(max(a - float(r_a @ slope) / denom, t1 + edge), t2 - edge) if denom > 0.0 else a
        if float(np.linalg.norm(ctx.residual(u + t * d)[0])) <= (1.0 - cfg.sigma * t) * rn:
            return u + t * d, None
        w = u + 0.5 * (t1 + t2) * d  # the watchdog pair from the piece's middle
        r_w, p_w = ctx.residual(w)
        mu_w = cfg.lambda_min * float(np.linalg.norm(r_w))
        if mu_w <= 0.0:
            continue
        trial = w + ctx.direction(w, mu_w, ctx.g_of(w, p_w), solver)
        if float(np.linalg.norm(ctx.residual(trial)[0])) <= (1.0 - cfg.sigma) * rn:
            return trial, (p_w, float(np.linalg.norm(r_w)))
    return None


def _ssn_core(
    ctx: _Drs,
    u0: FloatArray,
    *,
    eps: float,
    max_iter: int,
    cfg: SSNConfig,
    solver: LinearSolver,
) -> _NewtonRun:
    """Algorithm 2 of spec 01 from ``u0`` on a prepared context."""
    res_tol = _tol_res(ctx.ga, cfg.tol_res)
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
        d = ctx.direction(u, mu, ctx.g_of(u, p), solver)  # step 3
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
                trial = w + ctx.direction(w, mu_w, ctx.g_of(w, p_w), solver)
                r_t, p_t = ctx.residual(trial)
                rn_t = float(np.linalg.norm(r_t))
                if rn_t <= (1.0 - cfg.sigma) * rn:
                    accepted = True
                    k += 1  # two linear solves: count both Newton iterations
                    gaps.append(ctx.gap(p_w))
                    residuals.append(float(np.linalg.norm(r_w)))
        if not accepted and cfg.watchdog and k < max_iter:  # the piece beyond the first kink
            found = _kink_search(ctx, u, d, rn, cfg, solver)
            if found is not None:
                accepted, (trial, kink_w) = True, found
                r_t, p_t = ctx.residual(trial)
                rn_t = float(np.linalg.norm(r_t))
                if kink_w is not None:
                    k += 1  # two linear solves: count both Newton iterations
                    gaps.append(ctx.gap(kink_w[0]))
                    residuals.append(kink_w[1])
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
    x, y = ctx.split(ctx.project(u))
    return _NewtonRun(
        u=u,
        x=x,
        y=y,
        converged=gaps[-1] <= eps,
        stop_reason=_stop_reason(gaps[-1], eps, rn, res_tol),
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
    linear_solver: LinearSolver = "reduced",
) -> EquilibriumResult:
    """Fast :func:`reference.games.ssn` (spec 01, Algorithm 2); same arguments and result.

    ``linear_solver`` picks how step 3's system ``(J + μI) d = -R`` is solved (both exact;
    the iterates agree to rounding): ``"reduced"`` (default) eliminates everything off the
    supports by Sherman–Morrison–Woodbury and factors a system of size ``|S_x| + |S_y|``
    (plus a one-off eigen-decomposition of the smaller Gram matrix ``γ²AAᵀ`` or ``γ²AᵀA``);
    ``"dense"`` forms the ``(m+n) x (m+n)`` W-free matrix and runs dense LU.

    Raises:
        TypeError: non-numeric input or a config of the wrong type.
        ValueError: bad payoff or ``u0``, ``tol <= 0``, ``max_iter < 1``, unknown
            ``linear_solver``.

    Example:
        >>> res = ssn([[3.0, -1.0], [-2.0, 1.0]])
        >>> res.converged, res.gap < 1e-10, [round(float(v), 6) for v in res.y]
        (True, True, [0.285714, 0.714286])
    """
    start = time.perf_counter()
    cfg = SSNConfig() if config is None else config
    if not isinstance(cfg, SSNConfig):
        raise TypeError(f"config: expected an SSNConfig, got {type(cfg).__name__}")
    solver = _check_solver(linear_solver)
    ctx = _context(payoff, cfg.gamma)
    eps = _tol("tol", tol)
    cap = _max_iter(max_iter)
    run = _ssn_core(ctx, _start(ctx, u0), eps=eps, max_iter=cap, cfg=cfg, solver=solver)
    return _result("SSN", ctx, run, first_order=0, start=start)


class _LazyNewton:
    """Newton phases of :func:`hybrid` on a context built at the first call (internal)."""

    def __init__(
        self, matrix: FloatArray, eps: float, cfg: SSNConfig, solver: LinearSolver
    ) -> None:
        self.matrix, self.eps, self.cfg, self.solver = matrix, eps, cfg, solver
        self.ctx: _Drs | None = None

    def __call__(self, x: FloatArray, y: FloatArray, rounds: int) -> _NewtonRun:
        if self.ctx is None:
            self.ctx = _Drs(self.matrix, self.cfg.gamma)
        u0 = self.ctx.lift(np.concatenate([x, y]))
        return _ssn_core(
            self.ctx, u0, eps=self.eps, max_iter=rounds, cfg=self.cfg, solver=self.solver
        )


def hybrid(
    payoff: object,
    *,
    tol: float = 1e-10,
    mode: str = "PSSN",
    max_iter: int = 100_000,
    config: HybridConfig | None = None,
    linear_solver: LinearSolver = "reduced",
) -> EquilibriumResult:
    """Fast :func:`reference.games.hybrid` (PSSN / HPSSN): the same loop with the fast SSN.

    Args and result as the reference; ``linear_solver`` as in :func:`ssn`.

    Raises:
        TypeError: non-numeric payoff, non-string ``mode`` or a config of the wrong type.
        ValueError: bad payoff, ``tol <= 0``, ``max_iter < 1``, unknown ``mode`` or
            ``linear_solver``.

    Example:
        >>> res = hybrid([[3.0, -1.0, 0.5], [-2.0, 1.0, 0.0]], tol=1e-12)
        >>> res.converged, res.gap <= 1e-12
        (True, True)
    """
    start = time.perf_counter()
    matrix, eps, cap, cfg = _check_arguments(payoff, tol, mode, max_iter, config)
    newton = _LazyNewton(matrix, eps, cfg.ssn, _check_solver(linear_solver))
    return _hybrid_loop(matrix, eps=eps, mode=mode, cap=cap, cfg=cfg, newton=newton, start=start)
