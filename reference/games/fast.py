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

One rule is the fast path's own (off unless a :class:`FastHybridConfig` asks for it, as
:data:`FAST_HYBRID_CONFIG` does), the support polish of :func:`hybrid`'s Newton phases: before
each Newton direction, square the supports read off the iterate, solve the payoff equalities
on them (and a few simplex pivots or re-reads), and if that profile's recomputed gap is
``<= tol`` step onto its lift ``L(z)``, a fixed point of ``T``; SSN's own acceptance test and
stopping rule judge the step.  Near a solution SSN fixes the last wrong support indices a few
per step, or cycles one index away from it; the polish ends the phase there.
"""

from __future__ import annotations

import dataclasses
import time
import warnings
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt
import scipy.linalg

from reference._arrays import FloatArray, as_float_array, readonly, require_int, require_positive
from reference._defaults import defaults_of
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
from reference.games.hybrid import HybridConfig, _check_arguments, _hybrid_loop
from reference.games.hybrid import hybrid as _reference_hybrid
from reference.games.regret import _check_flag
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
from reference.games.ssn import drs as _reference_drs
from reference.games.ssn import ssn as _reference_ssn

__all__ = [
    "FAST_HYBRID_CONFIG",
    "LINEAR_SOLVERS",
    "FastHybridConfig",
    "LinearSolver",
    "drs",
    "hybrid",
    "newton_direction",
    "ssn",
]

# The keyword defaults each solver shares with its reference, read from the reference's signature.
_DRS = defaults_of(_reference_drs)
_SSN = defaults_of(_reference_ssn)
_HYBRID = defaults_of(_reference_hybrid)


@dataclass(frozen=True, slots=True, kw_only=True)
class FastHybridConfig(HybridConfig):
    """:class:`~reference.games.HybridConfig` plus the fast path's support polish.

    Attributes:
        support_polish: before each Newton direction, try :func:`_polish`: square the
            supports read off the iterate, solve the payoff equalities on them (a few simplex
            pivots or re-reads) and step onto the lifted profile if its recomputed gap is
            ``<= tol`` (default ``True``).  ``False`` gives the reference's loop.
        small_tau_switch: ``tau_switch`` used instead on games with ``max(m, n) <=
            small_size`` (``None``, the default: ``tau_switch`` at every size).  Small games
            switch to Newton earlier: there a Newton step is cheap next to the PRM+ phase's
            per-iteration overhead (benchmarks/results/size_sweep_games.md).
        small_size: the largest side that counts as small (``>= 1``).

    Example:
        >>> FastHybridConfig(tau_switch=1e-4).support_polish
        True
        >>> FAST_HYBRID_CONFIG.switch_for((100, 100)), FAST_HYBRID_CONFIG.switch_for((1000, 1000))
        (0.001, 2e-05)
    """

    support_polish: bool = True
    small_tau_switch: float | None = None
    small_size: int = 400

    def __post_init__(self) -> None:
        HybridConfig.__post_init__(self)
        _check_flag("support_polish", self.support_polish)
        if self.small_tau_switch is not None:
            require_positive("small_tau_switch", self.small_tau_switch)
        require_int("small_size", self.small_size, minimum=1)

    def switch_for(self, shape: tuple[int, ...]) -> float:
        """The ``tau_switch`` in force on a game of this shape."""
        if self.small_tau_switch is not None and max(shape) <= self.small_size:
            return self.small_tau_switch
        return self.tau_switch


#: The rule measured fastest at 1000 x 1000 (benchmarks/results/games_fastpath.md):
#: alternating PRM+ to ``gap <= 2e-5`` before the Newton phase, plus the support polish.  At
#: ``1e-3`` ~80 of ~1020 support indices are still wrong and SSN spends 40-60 steps; at ``1e-5``
#: without the polish SSN can cycle for ~100 steps one index away from the solution.  Pass it
#: as ``hybrid(payoff, config=FAST_HYBRID_CONFIG)``; the default stays the reference's.
#: Its Newton phases run with both safeguards beyond Algorithm 2 (``SSNConfig.watchdog`` and
#: ``kink_search``, off in the reference's default), as when it was measured.
#: Games with ``max(m, n) <= 400`` switch at ``1e-3`` instead (HiGHS IPM / ours, CPU
#: time, 3 seeds U and N: 0.40 -> 1.00 (median) at 100 x 100, 1.21 -> 2.08 at 200, 1.66 -> 2.45
#: at 300; at 500 ``2e-5`` stays faster, 3.31 vs 2.45; benchmarks/results/size_sweep_games.md).
FAST_HYBRID_CONFIG = FastHybridConfig(
    tau_switch=2e-5,
    alternating=True,
    small_tau_switch=1e-3,
    small_size=400,
    ssn=SSNConfig(watchdog=True, kink_search=True),
)


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

    def __init__(self, payoff: FloatArray, step_size: float | None) -> None:
        self.a = payoff
        self.m, self.n = payoff.shape
        self.small_x = self.m <= self.n
        self.ga: FloatArray
        self._gram: _Gram | None = None  # factor of the reduced Newton solve, built on demand
        # Only γA enters the operator: form it without squaring γ (no overflow for tiny A).
        if step_size is None:
            small = self._default_scaling(payoff)
        else:
            self.ga = step_size * payoff
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


#: Support solves :func:`_polish` tries per Newton step before giving the step back to SSN.
_POLISH_TRIES = 3
#: :func:`_polish` hands the step back to Newton when a support profile contradicts more
#: indices than this (the iterate is still far from the solution's supports).
_POLISH_AMBIGUOUS = 8


_LU = tuple[FloatArray, npt.NDArray[np.int32]]


def _support_equilibrium(
    payoff: FloatArray, ix: IndexArray, iy: IndexArray
) -> tuple[FloatArray, FloatArray, _LU] | None:
    """The profile that equalises payoffs on the square support ``(ix, iy)`` (internal).

    With ``B = A[ix, iy]`` (``k x k``): ``B y_S = v 1``, ``x_Sᵀ B = v 1ᵀ``, ``1ᵀx_S = 1ᵀy_S = 1``,
    so ``y_S ∝ B^{-1} 1`` and ``x_S ∝ B^{-ᵀ} 1``; returns ``(x_S, y_S, LU of B)``.  Entries
    may be negative (a wrong support); ``None`` if ``B`` is singular to working precision or a
    player's sum vanishes.
    """
    with warnings.catch_warnings():  # a singular block: judged by the pivots below
        warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)
        lu = scipy.linalg.lu_factor(payoff[np.ix_(ix, iy)], check_finite=False)
    pivots = np.abs(np.diag(lu[0]))
    if not np.all(np.isfinite(lu[0])) or pivots.min() <= 1e-13 * pivots.max():
        return None
    ones = np.ones(ix.size)
    ys = scipy.linalg.lu_solve(lu, ones, check_finite=False)
    xs = scipy.linalg.lu_solve(lu, ones, trans=1, check_finite=False)
    sy, sx = float(ys.sum()), float(xs.sum())
    if not (np.isfinite(sx) and np.isfinite(sy)) or sx == 0.0 or sy == 0.0:
        return None
    return xs / sx, ys / sy, lu


def _balance(score_x: FloatArray, score_y: FloatArray) -> tuple[IndexArray, IndexArray]:
    """Supports ``{score > 0}`` made square by flipping the least certain indices (internal).

    A non-degenerate equilibrium has ``|S_x| = |S_y|``; while the larger support has more
    indices, flip whichever is closer to zero: its smallest in-support score (drop) or the
    other player's largest out-of-support score (add).
    """
    sx, sy = score_x > 0.0, score_y > 0.0
    while sx.sum() != sy.sum():
        big, small = (score_x, score_y) if sx.sum() > sy.sum() else (score_y, score_x)
        in_big, in_small = big > 0.0, small > 0.0
        drop = int(np.flatnonzero(in_big)[np.argmin(big[in_big])])
        out = np.flatnonzero(~in_small)
        add = int(out[np.argmax(small[out])]) if out.size else -1
        if add < 0 or abs(big[drop]) <= abs(small[add]):
            big[drop] = -np.inf
        else:
            small[add] = np.inf
        sx, sy = score_x > 0.0, score_y > 0.0
    return np.flatnonzero(sx), np.flatnonzero(sy)


def _edge(lu: _LU, column: FloatArray, trans: Literal[0, 1]) -> tuple[FloatArray, float] | None:
    """Direction ``δ`` on the support and value rate ``ω`` of one simplex edge (internal).

    The entering strategy (weight 1 along the edge) has payoffs ``column`` against the other
    support; keeping the other player indifferent on its support and the weights summing to
    one: ``Bᵀδ = ω1 - column`` (``B δ`` for ``trans=0``) with ``1ᵀδ = -1``, so ``δ = ωp - q``
    with ``p = B^{-ᵀ}1``, ``q = B^{-ᵀ}column`` and ``ω = (1ᵀq - 1)/1ᵀp``.
    """
    p = scipy.linalg.lu_solve(lu, np.ones(column.size), trans=trans, check_finite=False)
    q = scipy.linalg.lu_solve(lu, column, trans=trans, check_finite=False)
    if float(p.sum()) == 0.0:
        return None
    omega = (float(q.sum()) - 1.0) / float(p.sum())
    return omega * p - q, omega


def _pivot(
    payoff: FloatArray,
    ix: IndexArray,
    iy: IndexArray,
    xs: FloatArray,
    ys: FloatArray,
    lu: _LU,
) -> tuple[IndexArray, IndexArray] | None:
    """One simplex pivot from a feasible support profile with a profitable deviation (internal).

    The most profitable pure deviation enters its player's support; moving along the edge
    that keeps the other player indifferent on its support, the first of (a weight of the
    entering player's support reaching zero: it leaves; an off-support strategy of the other
    player becoming a best response: it enters) ends the edge (the ratio test).
    """
    m, n = payoff.shape
    x, y = np.zeros(m), np.zeros(n)
    x[ix], y[iy] = xs, ys
    loss, gain = payoff @ y, x @ payoff
    value = float(loss[ix].mean())
    out_x, out_y = np.setdiff1d(np.arange(m), ix), np.setdiff1d(np.arange(n), iy)
    row_gain = value - float(loss[out_x].min(initial=np.inf))  # what a row deviation saves
    col_gain = float(gain[out_y].max(initial=-np.inf)) - value
    if max(row_gain, col_gain) <= 0.0:
        return None
    if row_gain >= col_gain:  # row i0 enters; the columns iy stay indifferent
        i0 = int(out_x[np.argmin(loss[out_x])])
        edge = _edge(lu, payoff[i0, iy], 1)
        if edge is None:
            return None
        delta, omega = edge
        weight, slack = xs, value - gain[out_y]  # slack of the off-support columns
        rate = delta @ payoff[np.ix_(ix, out_y)] + payoff[i0, out_y] - omega
        own, other, grow = ix, iy, (i0, out_y)
    else:  # column j0 enters; the rows ix stay indifferent
        j0 = int(out_y[np.argmax(gain[out_y])])
        edge = _edge(lu, payoff[ix, j0], 0)
        if edge is None:
            return None
        delta, omega = edge
        weight, slack = ys, loss[out_x] - value
        rate = omega - (payoff[np.ix_(out_x, iy)] @ delta + payoff[out_x, j0])
        own, other, grow = iy, ix, (j0, out_x)
    shrink = delta < 0.0
    t_own = weight[shrink] / -delta[shrink]
    closing = (rate > 0.0) & (slack >= 0.0)
    t_other = slack[closing] / rate[closing]
    if t_own.size == 0 and t_other.size == 0:
        return None
    entering, candidates = grow
    if t_other.size == 0 or (t_own.size and t_own.min() <= t_other.min()):
        leave = own[np.flatnonzero(shrink)[np.argmin(t_own)]]
        new_own = np.sort(np.append(own[own != leave], entering))
        new_other = other
    else:
        new_own = np.sort(np.append(own, entering))
        joining = candidates[np.flatnonzero(closing)[np.argmin(t_other)]]
        new_other = np.sort(np.append(other, joining))
    return (new_own, new_other) if row_gain >= col_gain else (new_other, new_own)


def _polish(ctx: _Drs, u: FloatArray, eps: float) -> FloatArray | None:
    """Support identification from a Newton iterate: an ``eps``-equilibrium or ``None`` (internal).

    The scores ``u - τ`` (``τ`` the projection threshold of each block) are ``x_i`` on the
    support of ``P(u)`` and ``-γ`` times the payoff slack off it; near a solution only few
    signs are wrong.  Square the supports (:func:`_balance`), then up to
    :data:`_POLISH_TRIES` times: solve the payoff equalities on them
    (:func:`_support_equilibrium`) and accept the profile, clipped onto the simplex, if its
    recomputed duality gap is ``<= eps``.  Otherwise, if the profile is non-negative, take one
    simplex pivot (:func:`_pivot`); if not, re-read the supports from the profile's own scores
    (``x_i`` on its support, ``-γ·slack`` off it) and square them again, unless it contradicts
    the supports on more than :data:`_POLISH_AMBIGUOUS` indices (still far from a solution).
    """
    a, ga, m = ctx.a, ctx.ga, ctx.m
    ux, uy = ctx.split(u)
    score = np.concatenate([ux - _threshold(ux), uy - _threshold(uy)])
    ix, iy = _balance(score[:m].copy(), score[m:].copy())
    for _ in range(_POLISH_TRIES):
        solved = None if ix.size == 0 else _support_equilibrium(a, ix, iy)
        if solved is None:
            return None
        xs, ys, lu = solved
        x, y = np.zeros(m), np.zeros(ctx.n)
        x[ix], y[iy] = xs, ys
        zx, zy = np.maximum(x, 0.0), np.maximum(y, 0.0)
        if zx.sum() > 0.0 and zy.sum() > 0.0 and _gap(a, zx / zx.sum(), zy / zy.sum()) <= eps:
            return np.concatenate([zx / zx.sum(), zy / zy.sum()])
        if xs.min() >= 0.0 and ys.min() >= 0.0:
            step = _pivot(a, ix, iy, xs, ys, lu)
            if step is None:
                return None
            ix, iy = step
            continue
        loss, gain = ga @ y, x @ ga  # γAy, γAᵀx of the support profile
        verdict = np.concatenate([float(loss[ix].mean()) - loss, gain - float(gain[iy].mean())])
        verdict[ix] = xs
        verdict[m + iy] = ys
        inside = np.zeros(score.size, dtype=bool)
        inside[ix] = True
        inside[m + iy] = True
        flip = np.flatnonzero((verdict > 0.0) != inside)
        if flip.size == 0 or flip.size > _POLISH_AMBIGUOUS:  # far from a solution: Newton
            return None
        ix, iy = _balance(verdict[:m], verdict[m:])
    return None


class _PolishedDrs(_Drs):
    """A context whose Newton direction first tries :func:`_polish` (internal).

    When the support solve from ``u`` gives an ``eps``-equilibrium ``z``, the direction is
    ``L(z) - u``: the step lands on the lifted profile, a fixed point of ``T`` up to rounding
    when ``z`` is an exact equilibrium, and SSN's own acceptance test and stopping rule judge
    it.  Otherwise the ordinary Newton direction.  ``polished`` counts the accepted profiles.
    """

    def __init__(self, payoff: FloatArray, step_size: float | None, eps: float) -> None:
        super().__init__(payoff, step_size)
        self.eps = eps
        self.polished = 0

    def direction(
        self, u: FloatArray, mu: float, g_u: FloatArray, solver: LinearSolver = "reduced"
    ) -> FloatArray:
        # One landing only: had it not ended the Newton phase (it ends it whenever `z` is an
        # exact equilibrium), repeating it could not help; plain Newton from then on.
        z = _polish(self, u, self.eps) if self.polished == 0 else None
        if z is None:
            return super().direction(u, mu, g_u, solver)
        self.polished += 1
        out: FloatArray = self.lift(z) - u
        return out


def _context(payoff: object, step_size: object) -> _Drs:
    matrix = _payoff(payoff)
    return _Drs(matrix, None if step_size is None else require_positive("step_size", step_size))


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
    payoff: npt.ArrayLike,
    u: npt.ArrayLike,
    mu: float,
    *,
    step_size: float | None = None,
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
        step_size: the Douglas–Rachford step ``γ > 0``; default ``1/||A||_2``.
        linear_solver: ``"reduced"`` (default) or ``"dense"``; the same ``d`` up to rounding.

    Returns:
        ``(m + n,)`` float64 direction ``d``.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite entries, ``mu <= 0``, ``step_size <= 0`` or an
            unknown ``linear_solver``.

    Example:
        >>> from reference.games import newton_direction as reference_direction
        >>> a, u = [[3.0, -1.0], [-2.0, 1.0]], [0.9, -0.2, 0.1, 0.6]
        >>> d_red = newton_direction(a, u, 0.5)
        >>> d_lu = newton_direction(a, u, 0.5, linear_solver="dense")
        >>> bool(abs(d_red - d_lu).max() < 1e-12), bool(abs(d_red - reference_direction(a, u, 0.5)).max() < 1e-12)
        (True, True)
    """
    ctx = _context(payoff, step_size)
    point = _point(ctx, "u", u)
    reg = require_positive("mu", mu)
    solver = _check_solver(linear_solver)
    return ctx.direction(point, reg, ctx.g_of(point, ctx.project(point)), solver)


def drs(
    payoff: npt.ArrayLike,
    *,
    tol: float = _DRS["tol"],
    max_iter: int = _DRS["max_iter"],
    u0: npt.ArrayLike | None = None,
    step_size: float | None = None,
    tol_res: float | None = None,
) -> EquilibriumResult:
    """Fast :func:`reference.games.drs` (``W`` by the Schur complement); same arguments.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad payoff or ``u0``, ``tol``/``step_size``/``tol_res <= 0``, ``max_iter < 1``.

    Example:
        >>> res = drs([[3.0, -1.0], [-2.0, 1.0]], tol=1e-9)
        >>> res.converged, [round(float(v), 6) for v in res.x]
        (True, [0.428571, 0.571429])
    """
    start = time.perf_counter()
    ctx = _context(payoff, step_size)
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
            # SSNConfig.watchdog: the full step may cross a kink of the piecewise-affine R
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
        if not accepted and cfg.kink_search and k < max_iter:  # pieces beyond the first kink
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
    payoff: npt.ArrayLike,
    *,
    tol: float = _SSN["tol"],
    max_iter: int = _SSN["max_iter"],
    u0: npt.ArrayLike | None = None,
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
    ctx = _context(payoff, cfg.step_size)
    eps = _tol("tol", tol)
    cap = _max_iter(max_iter)
    run = _ssn_core(ctx, _start(ctx, u0), eps=eps, max_iter=cap, cfg=cfg, solver=solver)
    return _result("SSN", ctx, run, first_order=0, start=start)


class _LazyNewton:
    """Newton phases of :func:`hybrid` on a context built at the first call (internal)."""

    def __init__(
        self,
        matrix: FloatArray,
        eps: float,
        cfg: SSNConfig,
        solver: LinearSolver,
        *,
        polish: bool = False,
    ) -> None:
        self.matrix, self.eps, self.cfg, self.solver = matrix, eps, cfg, solver
        self.polish = polish
        self.ctx: _Drs | None = None

    def __call__(self, x: FloatArray, y: FloatArray, rounds: int) -> _NewtonRun:
        if self.ctx is None:
            self.ctx = (
                _PolishedDrs(self.matrix, self.cfg.step_size, self.eps)
                if self.polish
                else _Drs(self.matrix, self.cfg.step_size)
            )
        u0 = self.ctx.lift(np.concatenate([x, y]))
        return _ssn_core(
            self.ctx, u0, eps=self.eps, max_iter=rounds, cfg=self.cfg, solver=self.solver
        )


def hybrid(
    payoff: npt.ArrayLike,
    *,
    tol: float = _HYBRID["tol"],
    mode: str = _HYBRID["mode"],
    max_iter: int = _HYBRID["max_iter"],
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
    polish = isinstance(cfg, FastHybridConfig) and cfg.support_polish
    if isinstance(cfg, FastHybridConfig) and cfg.switch_for(matrix.shape) != cfg.tau_switch:
        cfg = dataclasses.replace(cfg, tau_switch=cfg.switch_for(matrix.shape))
    newton = _LazyNewton(matrix, eps, cfg.ssn, _check_solver(linear_solver), polish=polish)
    return _hybrid_loop(matrix, eps=eps, mode=mode, cap=cap, cfg=cfg, newton=newton, start=start)
