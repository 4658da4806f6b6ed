"""Constrained MAP inference over non-convex linear-arithmetic constraints (spec 04).

Problem: given an unnormalised density ``w(x) >= 0`` on a box ``lo <= x <= hi`` and a
CNF formula ``Δ`` over linear atoms ``aᵀx <= c`` (so the feasible set ``F(Δ)`` is a finite
union of polytopes, typically non-convex), find ``x̂ ∈ argmax_{x ∈ F(Δ)} w(x)``.

* :func:`mp_map` — **MpMap**, exact max-product message passing on the tractable fragment
  (clauses over ≤ 2 variables, forest-shaped primal graph, product of univariate
  piecewise-polynomial factors), spec 04 §3.1 (our design; the paper's fragment may be wider);
* :func:`pa_map` — **PaMap**, lazy partition of ``F(Δ)`` into convex cells by DFS over atom
  truth values, SLSQP in each cell, pruning by upper bounds, spec 04 §3.2 (our design);
* baselines :func:`agnostic_map` (B1), :func:`agnostic_repair_map` (B2),
  :func:`penalty_map` (B3), :func:`sample_filter_map` (B4), and the dense-grid oracle
  :func:`grid_map` (O1);
* builders: :func:`make_formula`, :func:`worked_example`, :func:`random_tree_problem`,
  :func:`obstacle_gaussian_problem`, :func:`trajectory_problem`, :func:`random_3sat_problem`.

Semantics (our design, spec 04 §2): strict inequalities are read as non-strict (a negated
atom ``¬(aᵀx <= c)`` is ``aᵀx >= c``) and piecewise functions take their upper-semicontinuous
envelope, so the supremum is attained.  An infeasible ``Δ`` is data: the result has
``feasible=False``, ``value = 0``, ``log_value = -inf`` and an empty ``x``.

References:
    L. Kurscheidt, G. Masina, R. Sebastiani, A. Vergari, "The Theory and Practice of MAP
    Inference over Non-Convex Constraints", ICML 2026, arXiv:2602.08681 (spec 04; only the
    abstract was retrievable: MpMap and PaMap below are the spec's designs).
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from numpy.polynomial import polynomial as npoly
from scipy.optimize import LinearConstraint, OptimizeResult, linprog, minimize

from reference._arrays import (
    FloatArray,
    as_float_array,
    readonly,
    require_int,
    require_positive,
)
from reference.constrained_map_pp import (
    INSIDE_TOL,
    Intervals,
    PiecewisePolynomial,
    _intersect_intervals,
    _pp_constant,
    _pp_indicator,
    _union_intervals,
    pp_from_pieces,
)

__all__ = [
    "FEASIBILITY_TOL",
    "Formula",
    "GaussianMixture",
    "MapProblem",
    "MapResult",
    "PaMapConfig",
    "PiecewisePolynomial",
    "ProductPP",
    "agnostic_map",
    "agnostic_repair_map",
    "gaussian_mixture",
    "grid_map",
    "make_formula",
    "make_problem",
    "mp_beliefs",
    "mp_map",
    "obstacle_gaussian_problem",
    "pa_cells",
    "pa_map",
    "penalty_map",
    "pp_from_pieces",
    "random_3sat_problem",
    "random_tree_problem",
    "sample_filter_map",
    "trajectory_problem",
    "worked_example",
]

#: A returned point must satisfy Δ and the box to this tolerance (spec 04 §5.1: 1e-9).
FEASIBILITY_TOL = 1e-9
_LOG_FLOOR = -1e300

Literal = tuple[int, bool]  # (atom index, positive)
Clause = tuple[Literal, ...]


# ----------------------------------------------------------------------------------- formula
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class Formula:
    """A CNF over linear atoms ``A_k x <= c_k``.

    Attributes:
        A: ``(K, n)`` atom coefficients.
        c: ``(K,)`` atom thresholds.
        clauses: each clause is a tuple of literals ``(k, positive)``: ``A_k x <= c_k`` when
            positive, ``A_k x >= c_k`` (closure of the negation) otherwise.
    """

    A: FloatArray
    c: FloatArray
    clauses: tuple[Clause, ...]

    @property
    def n(self) -> int:
        """Number of variables."""
        return int(self.A.shape[1])

    def literal(self, lit: Literal) -> tuple[FloatArray, float]:
        """``(a, b)`` with the literal read as ``aᵀx <= b``."""
        k, pos = lit
        return (self.A[k], float(self.c[k])) if pos else (-self.A[k], -float(self.c[k]))

    def clause_vars(self, j: int) -> tuple[int, ...]:
        """Variables mentioned by clause ``j`` (non-zero coefficients)."""
        out: set[int] = set()
        for k, _ in self.clauses[j]:
            out.update(int(i) for i in np.flatnonzero(self.A[k]))
        return tuple(sorted(out))

    def violation(self, x: FloatArray) -> float:
        """``max_clauses min_literals max(0, aᵀx − b)`` (0 iff Δ holds)."""
        worst = 0.0
        for clause in self.clauses:
            best = math.inf
            for lit in clause:
                a, b = self.literal(lit)
                best = min(best, max(0.0, float(a @ x) - b))
            worst = max(worst, best)
        return worst

    def holds(self, x: FloatArray, tol: float = FEASIBILITY_TOL) -> bool:
        """Whether ``x`` satisfies every clause (to ``tol``)."""
        return self.violation(x) <= tol

    def holds_many(self, X: FloatArray, tol: float = FEASIBILITY_TOL) -> np.ndarray:
        """Vectorised :meth:`holds` for the rows of ``X``."""
        ok = np.ones(X.shape[0], dtype=bool)
        for clause in self.clauses:
            sat = np.zeros(X.shape[0], dtype=bool)
            for lit in clause:
                a, b = self.literal(lit)
                sat |= X @ a <= b + tol
            ok &= sat
        return ok


def make_formula(n: int, clauses: Sequence[Sequence[tuple[object, float]]]) -> Formula:
    """Build a CNF from literals given as ``(a, b)`` meaning ``aᵀx <= b``.

    Literals that are negations of each other (``(a, b)`` and ``(−a, −b)``) share one atom.

    Args:
        n: number of variables (``>= 1``).
        clauses: a sequence of clauses, each a non-empty sequence of ``(a (n,), b)``.

    Returns:
        The :class:`Formula`.

    Raises:
        TypeError: non-numeric coefficients.
        ValueError: wrong lengths, non-finite values, an empty clause, or an atom with
            ``a = 0`` (a constant: drop the literal or the clause instead).

    Example:
        >>> f = make_formula(2, [[([1.0, -1.0], -0.5), ([-1.0, 1.0], -0.5)]])
        >>> f.holds(np.array([1.0, 0.5])), f.holds(np.array([1.0, 1.0]))
        (True, False)
    """
    n = require_int("n", n, minimum=1)
    atoms: dict[tuple[float, ...], int] = {}
    rows: list[FloatArray] = []
    rhs: list[float] = []
    out: list[Clause] = []
    for j, clause in enumerate(clauses):
        if len(clause) == 0:
            raise ValueError(f"clauses[{j}]: expected at least one literal, got an empty clause")
        lits: list[Literal] = []
        for t, lit in enumerate(clause):
            a = as_float_array(f"clauses[{j}][{t}] coefficients", lit[0], shape=(n,))
            b = float(as_float_array(f"clauses[{j}][{t}] bound", [lit[1]], shape=(1,))[0])
            nz = np.flatnonzero(a)
            if nz.size == 0:
                raise ValueError(
                    f"clauses[{j}][{t}]: expected a non-zero atom, got a = 0 "
                    "(a constant truth value: drop it or the clause)"
                )
            positive = bool(a[nz[0]] > 0)
            key_a, key_b = (a, b) if positive else (-a, -b)
            key = (*key_a.tolist(), key_b)
            if key not in atoms:
                atoms[key] = len(rows)
                rows.append(key_a)
                rhs.append(key_b)
            lits.append((atoms[key], positive))
        out.append(tuple(lits))
    A = np.array(rows) if rows else np.zeros((0, n))
    return Formula(A=readonly(A), c=readonly(np.array(rhs)), clauses=tuple(out))


# --------------------------------------------------------------------------------- densities
class Density(Protocol):
    """An unnormalised density on R^n."""

    def log_value(self, x: FloatArray) -> float:
        """``log w(x)`` (``-inf`` where ``w = 0``)."""
        ...

    def grad_log(self, x: FloatArray) -> FloatArray:
        """``∇ log w(x)``."""
        ...


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class ProductPP:
    """``w(x) = Π_i w_i(x_i)`` with non-negative univariate piecewise polynomials (MpMap's family).

    Attributes:
        factors: one :class:`PiecewisePolynomial` per variable.
    """

    factors: tuple[PiecewisePolynomial, ...]

    log_concave = False

    def value(self, x: FloatArray) -> float:
        """``w(x)``."""
        return float(np.prod([f(float(v)) for f, v in zip(self.factors, x, strict=True)]))

    def value_many(self, X: FloatArray) -> FloatArray:
        """``w`` at the rows of ``X`` (vectorised per factor)."""
        out = np.ones(X.shape[0])
        for i, f in enumerate(self.factors):
            out *= _pp_many(f, X[:, i])
        return out

    def log_value(self, x: FloatArray) -> float:
        """``log w(x)`` (``-inf`` where ``w = 0``)."""
        v = self.value(x)
        return math.log(v) if v > 0 else -math.inf

    def grad_log(self, x: FloatArray) -> FloatArray:
        """``∂_i log w = w_i′(x_i)/w_i(x_i)`` (0 where ``w_i = 0``)."""
        g = np.zeros(len(self.factors))
        for i, f in enumerate(self.factors):
            xi = float(x[i])
            v = f(xi)
            if v > 0 and f.lo <= xi <= f.hi:
                k = f.piece_of(xi)
                g[i] = float(npoly.polyval(xi, npoly.polyder(f.coeffs[k]))) / v
        return g

    def upper_bound(
        self, A: FloatArray, b: FloatArray, lo: FloatArray, hi: FloatArray
    ) -> float | None:
        """``Σ_i log max_{[l_i, u_i]} w_i`` over the bounding box of ``P`` (2n LPs)."""
        box = _bounding_box(A, b, lo, hi)
        if box is None:
            return None
        total = 0.0
        for f, (l_i, u_i) in zip(self.factors, box, strict=True):
            v, _ = f.argmax_on_intervals(((l_i, u_i),))
            if v <= 0:
                return -math.inf
            total += math.log(v)
        return total

    def modes(self) -> list[FloatArray]:
        """The unconstrained mode: every factor at its argmax (projected onto cells as a start)."""
        point = [f.argmax_on_intervals(((f.lo, f.hi),))[1] for f in self.factors]
        return [np.array([0.0 if v is None else v for v in point], dtype=np.float64)]


def _pp_many(f: PiecewisePolynomial, xs: FloatArray) -> FloatArray:
    out = np.zeros(xs.shape[0])
    inside = (xs >= f.lo - INSIDE_TOL) & (xs <= f.hi + INSIDE_TOL)
    k = np.clip(np.searchsorted(f.breaks, xs) - 1, 0, len(f.coeffs) - 1)
    for piece in range(len(f.coeffs)):
        sel = inside & (k == piece)
        out[sel] = npoly.polyval(xs[sel], f.coeffs[piece])
    for j, t in enumerate(f.breaks):
        out[np.abs(xs - t) <= INSIDE_TOL] = f.at_breaks[j]
    return out


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class GaussianMixture:
    """``w(x) = Σ_k π_k N(x; μ_k, Σ_k)`` (normalised components).

    Attributes:
        weights: ``(K,)`` positive mixture weights.
        means: ``(K, n)``.
        covs: ``(K, n, n)`` symmetric positive definite.
    """

    weights: FloatArray
    means: FloatArray
    covs: FloatArray
    precisions: FloatArray = field(init=False)
    log_norms: FloatArray = field(init=False)

    def __post_init__(self) -> None:
        prec = np.linalg.inv(self.covs)
        n = self.means.shape[1]
        logdet = np.linalg.slogdet(self.covs)[1]
        object.__setattr__(self, "precisions", readonly(prec))
        object.__setattr__(
            self,
            "log_norms",
            readonly(np.log(self.weights) - 0.5 * (n * math.log(2 * math.pi) + logdet)),
        )

    @property
    def log_concave(self) -> bool:
        """A single Gaussian is log-concave (PaMap is then exact per cell)."""
        return bool(self.weights.shape[0] == 1)

    def _terms(self, x: FloatArray) -> FloatArray:
        diff = x[None, :] - self.means
        quad = np.einsum("ki,kij,kj->k", diff, self.precisions, diff)
        return np.asarray(self.log_norms - 0.5 * quad, dtype=np.float64)

    def log_value(self, x: FloatArray) -> float:
        """``log w(x)`` by log-sum-exp."""
        t = self._terms(x)
        top = float(np.max(t))
        return top + math.log(float(np.sum(np.exp(t - top))))

    def value_many(self, X: FloatArray) -> FloatArray:
        """``w`` at the rows of ``X``."""
        diff = X[:, None, :] - self.means[None]
        quad = np.einsum("mki,kij,mkj->mk", diff, self.precisions, diff)
        return np.asarray(np.exp(self.log_norms[None] - 0.5 * quad).sum(1), dtype=np.float64)

    def grad_log(self, x: FloatArray) -> FloatArray:
        """``∇ log w(x) = Σ_k r_k(x) Σ_k⁻¹(μ_k − x)`` with responsibilities ``r_k``."""
        t = self._terms(x)
        r = np.exp(t - np.max(t))
        r /= r.sum()
        return np.asarray(
            np.einsum("k,kij,kj->i", r, self.precisions, self.means - x[None]), dtype=np.float64
        )

    def modes(self) -> list[FloatArray]:
        """The component means (projected onto a cell as start points)."""
        return [self.means[k] for k in range(self.means.shape[0])]

    def upper_bound(
        self, A: FloatArray, b: FloatArray, lo: FloatArray, hi: FloatArray
    ) -> float | None:
        """``log Σ_k π_k N(x̃_k; μ_k, Σ_k)``, ``x̃_k`` the Mahalanobis projection of ``μ_k``
        onto ``P`` (a convex QP; exact for one component).  ``None`` when a QP fails."""
        from reference.qp_layers import QPSolverConfig, solve_qp

        _KNOWN_FEASIBLE = QPSolverConfig(check_feasibility=False)
        n = lo.shape[0]
        G = (
            np.concatenate([A, np.eye(n), -np.eye(n)])
            if A.size
            else np.concatenate([np.eye(n), -np.eye(n)])
        )
        h = np.concatenate([b, hi, -lo]) if A.size else np.concatenate([hi, -lo])
        total = []
        for k in range(self.weights.shape[0]):
            P = self.precisions[k]
            try:
                sol = solve_qp(0.5 * (P + P.T), -P @ self.means[k], G, h, config=_KNOWN_FEASIBLE)
            except ValueError:
                return None
            if not sol.converged:
                return None
            total.append(self._terms(np.array(sol.x))[k])
        t = np.array(total)
        top = float(np.max(t))
        return top + math.log(float(np.sum(np.exp(t - top)))) + 1e-9 * max(1.0, abs(top))

    def sample(self, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` samples from the mixture."""
        ks = rng.choice(self.weights.shape[0], size=size, p=self.weights / self.weights.sum())
        L = np.linalg.cholesky(self.covs)
        z = rng.standard_normal((size, self.means.shape[1]))
        return np.asarray(self.means[ks] + np.einsum("mij,mj->mi", L[ks], z), dtype=np.float64)


def gaussian_mixture(weights: object, means: object, covs: object) -> GaussianMixture:
    """Validated :class:`GaussianMixture` (weights > 0, SPD covariances).

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite values, non-positive weights, non-SPD covariances.
    """
    w = as_float_array("weights", weights, ndim=1)
    mu = as_float_array("means", means, shape=(w.shape[0], None))
    S = as_float_array("covs", covs, shape=(w.shape[0], mu.shape[1], mu.shape[1]))
    if not bool(np.all(w > 0)):
        raise ValueError(f"weights: expected positive mixture weights, got {w.tolist()}")
    for k in range(w.shape[0]):
        if not np.allclose(S[k], S[k].T, atol=1e-12) or np.linalg.eigvalsh(S[k])[0] <= 0:
            raise ValueError(f"covs[{k}]: expected a symmetric positive definite matrix")
    return GaussianMixture(weights=readonly(w), means=readonly(mu), covs=readonly(S))


# ----------------------------------------------------------------------------------- problem
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class MapProblem:
    """A constrained MAP instance.

    Attributes:
        lo: ``(n,)`` box lower bounds.
        hi: ``(n,)`` box upper bounds (``> lo``).
        formula: the CNF ``Δ``.
        density: :class:`ProductPP` or :class:`GaussianMixture`.
    """

    lo: FloatArray
    hi: FloatArray
    formula: Formula
    density: ProductPP | GaussianMixture

    @property
    def n(self) -> int:
        """Number of variables."""
        return int(self.lo.shape[0])

    def feasible(self, x: FloatArray, tol: float = FEASIBILITY_TOL) -> bool:
        """``x`` in the box and satisfying Δ (to ``tol``)."""
        return bool(
            np.all(x >= self.lo - tol) and np.all(x <= self.hi + tol) and self.formula.holds(x, tol)
        )

    def value(self, x: FloatArray) -> float:
        """``w(x)``."""
        if isinstance(self.density, ProductPP):
            return self.density.value(x)
        return math.exp(self.density.log_value(x))

    def log_value(self, x: FloatArray) -> float:
        """``log w(x)``."""
        return self.density.log_value(x)


def make_problem(
    lo: object, hi: object, formula: Formula, density: ProductPP | GaussianMixture
) -> MapProblem:
    """Validated :class:`MapProblem`.

    Raises:
        TypeError: non-numeric bounds or wrong kinds.
        ValueError: unbounded/inverted box, size mismatches, a negative PP factor.

    Example:
        >>> p = worked_example()
        >>> p.n, len(p.formula.clauses)
        (2, 1)
    """
    lo_a = as_float_array("lo", lo, ndim=1)
    hi_a = as_float_array("hi", hi, shape=lo_a.shape)
    if not bool(np.all(hi_a > lo_a)):
        raise ValueError(
            f"hi: expected hi > lo entrywise, got lo={lo_a.tolist()}, hi={hi_a.tolist()}"
        )
    if not isinstance(formula, Formula):
        raise TypeError(f"formula: expected a Formula, got {type(formula).__name__}")
    if formula.n != lo_a.shape[0]:
        raise ValueError(f"formula: expected {lo_a.shape[0]} variables, got {formula.n}")
    if isinstance(density, ProductPP):
        if len(density.factors) != lo_a.shape[0]:
            raise ValueError(
                f"density: expected {lo_a.shape[0]} factors, got {len(density.factors)}"
            )
        for i, f in enumerate(density.factors):
            _check_nonnegative(f, i)
    elif isinstance(density, GaussianMixture):
        if density.means.shape[1] != lo_a.shape[0]:
            raise ValueError(
                f"density: expected dimension {lo_a.shape[0]}, got {density.means.shape[1]}"
            )
    else:
        raise TypeError(
            f"density: expected ProductPP or GaussianMixture, got {type(density).__name__}"
        )
    return MapProblem(lo=readonly(lo_a), hi=readonly(hi_a), formula=formula, density=density)


def _check_nonnegative(f: PiecewisePolynomial, i: int) -> None:
    for k, c in enumerate(f.coeffs):
        a, b = float(f.breaks[k]), float(f.breaks[k + 1])
        pts = [a, b] + [t for t in f.critical_points() if a < t < b]
        low = min(float(npoly.polyval(t, c)) for t in pts)
        if low < -1e-12:
            raise ValueError(
                f"density.factors[{i}]: expected a non-negative weight, got {low!r} on piece "
                f"[{a}, {b}]"
            )


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class MapResult:
    """Output of the MAP solvers.

    Attributes:
        x: ``(n,)`` the returned point (``(0,)`` when ``feasible`` is false).
        value: ``w(x)`` (0 when infeasible).
        log_value: ``log w(x)`` (``-inf`` when infeasible or ``w(x) = 0``).
        feasible: the returned point satisfies Δ and the box (to ``FEASIBILITY_TOL``);
            for the exact solvers also "Δ is satisfiable".
        method: short name of the algorithm.
        cells_emitted: PaMap: convex cells emitted by the DFS.
        cells_pruned: PaMap: subtrees/cells skipped by the upper bound.
        cells_optimised: PaMap: cells where SLSQP ran.
        certified: PaMap: every non-pruned cell was solved by a method exact for it;
            MpMap: always true (exact on its fragment).
    """

    x: FloatArray
    value: float
    log_value: float
    feasible: bool
    method: str
    cells_emitted: int = 0
    cells_pruned: int = 0
    cells_optimised: int = 0
    certified: bool = False


def _result(
    problem: MapProblem,
    x: FloatArray | None,
    method: str,
    *,
    cells_emitted: int = 0,
    cells_pruned: int = 0,
    cells_optimised: int = 0,
    certified: bool = False,
) -> MapResult:
    counts = {
        "cells_emitted": cells_emitted,
        "cells_pruned": cells_pruned,
        "cells_optimised": cells_optimised,
    }
    if x is None:
        return MapResult(
            x=readonly(np.zeros(0)),
            value=0.0,
            log_value=-math.inf,
            feasible=False,
            method=method,
            certified=certified,
            **counts,
        )
    x = np.clip(np.asarray(x, dtype=np.float64), problem.lo, problem.hi)
    lv = problem.log_value(x)
    return MapResult(
        x=readonly(x),
        value=math.exp(lv) if lv > -math.inf else 0.0,
        log_value=lv,
        feasible=problem.feasible(x),
        method=method,
        certified=certified,
        **counts,
    )


def _check_problem(problem: object) -> MapProblem:
    if not isinstance(problem, MapProblem):
        raise TypeError(f"problem: expected a MapProblem, got {type(problem).__name__}")
    return problem


# -------------------------------------------------------------------------------- MpMap core
def _half_line(a_j: float, rest: float, tol: float = 0.0) -> Intervals:
    """``{x_j : a_j x_j <= rest}`` as intervals (all/none when ``a_j = 0``)."""
    if a_j > 0:
        return ((-math.inf, rest / a_j),)
    if a_j < 0:
        return ((rest / a_j, math.inf),)
    return ((-math.inf, math.inf),) if rest + tol >= 0.0 else ()


@dataclass(frozen=True, slots=True)
class _Edge:
    """Clauses linking variables ``i`` (parent) and ``j`` (child)."""

    i: int
    j: int
    clauses: tuple[tuple[tuple[float, float, float], ...], ...]  # (a_i, a_j, b) per literal

    def feasible_child(self, xi: float, base: Intervals) -> Intervals:
        """``Φ_ij(x_i, ·) ∩ base`` as a union of closed intervals."""
        out = base
        for clause in self.clauses:
            parts: list[tuple[float, float]] = []
            for a_i, a_j, b in clause:
                parts.extend(_half_line(a_j, b - a_i * xi, 1e-12))
            out = _intersect_intervals(out, _union_intervals(parts))
            if not out:
                return ()
        return out


def _unary_set(
    formula: Formula, clause_ids: Sequence[int], var: int, lo: float, hi: float
) -> Intervals:
    out: Intervals = ((lo, hi),)
    for j in clause_ids:
        parts: list[tuple[float, float]] = []
        for lit in formula.clauses[j]:
            a, b = formula.literal(lit)
            parts.extend(_half_line(float(a[var]), b))
        out = _intersect_intervals(out, _union_intervals(parts))
    return out


def _envelope(cands: list[FloatArray], a: float, b: float) -> list[tuple[float, float, FloatArray]]:
    """Upper envelope of polynomials on ``(a, b)``: ``[(lo, hi, coeffs), ...]``."""
    if not cands:
        return [(a, b, np.zeros(1))]
    cuts = {a, b}
    for p in range(len(cands)):
        for q in range(p + 1, len(cands)):
            diff = npoly.polysub(cands[p], cands[q])
            c = np.trim_zeros(np.asarray(diff, dtype=np.float64), "b")
            if c.size <= 1:
                continue
            scale = float(np.max(np.abs(c)))
            for r in npoly.polyroots(c / scale):
                if abs(r.imag) <= 1e-9 and a + INSIDE_TOL < r.real < b - INSIDE_TOL:
                    cuts.add(float(r.real))
    pts = sorted(cuts)
    out = []
    for lo_s, hi_s in itertools.pairwise(pts):
        mid = 0.5 * (lo_s + hi_s)
        vals = [float(npoly.polyval(mid, c)) for c in cands]
        out.append((lo_s, hi_s, cands[int(np.argmax(vals))]))
    return out


def _message(
    edge: _Edge, belief: PiecewisePolynomial, base_j: Intervals, lo_i: float, hi_i: float
) -> PiecewisePolynomial:
    """``m_{j→i}(x_i) = max{b_j(x_j) : Φ_ij(x_i, x_j), x_j ∈ U_j}`` as a PP (spec 04 §3.1 step 3)."""
    # a. boundary functions x_j = intercept + slope * x_i
    lines: list[tuple[float, float]] = []
    thresholds: list[float] = [lo_i, hi_i]
    for clause in edge.clauses:
        for a_i, a_j, b in clause:
            if a_j != 0:
                lines.append((-a_i / a_j, b / a_j))
            elif a_i != 0:
                thresholds.append(b / a_i)
    consts = set(belief.critical_points())
    consts.update(v for iv in base_j for v in iv if math.isfinite(v))
    lines.extend((0.0, t) for t in sorted(consts))
    # b. critical values of x_i
    crit = list(thresholds)
    for p in range(len(lines)):
        for q in range(p + 1, len(lines)):
            s1, c1 = lines[p]
            s2, c2 = lines[q]
            if abs(s1 - s2) > 1e-15:
                crit.append((c2 - c1) / (s1 - s2))
    crit = [v for v in crit if lo_i <= v <= hi_i]
    pts: list[float] = []
    for v in sorted(crit):
        if not pts or v > pts[-1] + INSIDE_TOL:
            pts.append(v)
    if len(pts) == 1:
        pts.append(pts[0] + 10 * INSIDE_TOL)
    crit_pts = belief.critical_points()
    breaks: list[float] = [pts[0]]
    coeffs: list[FloatArray] = []
    for a, b in itertools.pairwise(pts):
        mid = 0.5 * (a + b)
        cands: list[FloatArray] = []
        for lo_iv, hi_iv in edge.feasible_child(mid, base_j):  # c. candidates on the cell
            for e in (lo_iv, hi_iv):
                slope, icpt = min(lines, key=lambda ln: abs(ln[1] + ln[0] * mid - e))
                if slope == 0.0:
                    cands.append(np.array([belief(e)]))
                else:
                    k = belief.piece_of(e)
                    inside = belief.lo < e < belief.hi
                    cands.append(belief.compose_affine(k, icpt, slope) if inside else np.zeros(1))
            for t in crit_pts:
                if lo_iv + INSIDE_TOL < t < hi_iv - INSIDE_TOL:
                    cands.append(np.array([belief(t)]))
        for lo_s, hi_s, c in _envelope(cands, a, b):  # d. upper envelope on the cell
            coeffs.append(c)
            breaks.append(hi_s)
            del lo_s
    # e. values at every breakpoint, evaluated directly (usc rule at the critical values)
    at = [belief.argmax_on_intervals(edge.feasible_child(t, base_j))[0] for t in breaks]
    # usc rule: the value at a breakpoint is at least both one-sided limits (closure semantics
    # imply it; enforcing it guards against intervals that rounding shrinks to nothing)
    for k in range(len(breaks)):
        if k > 0:
            at[k] = max(at[k], float(npoly.polyval(breaks[k], coeffs[k - 1])))
        if k < len(coeffs):
            at[k] = max(at[k], float(npoly.polyval(breaks[k], coeffs[k])))
    return PiecewisePolynomial(
        breaks=readonly(np.array(breaks)),
        coeffs=tuple(readonly(np.asarray(c, dtype=np.float64)) for c in coeffs),
        at_breaks=readonly(np.array(at)),
    )


def _structure(
    problem: MapProblem,
) -> tuple[dict[int, list[int]], dict[tuple[int, int], list[int]]]:
    """Unary clause ids per variable and binary clause ids per edge; checks the fragment."""
    formula = problem.formula
    unary: dict[int, list[int]] = {i: [] for i in range(problem.n)}
    binary: dict[tuple[int, int], list[int]] = {}
    parent = list(range(problem.n))

    def find(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for j in range(len(formula.clauses)):
        vs = formula.clause_vars(j)
        if len(vs) >= 3:
            raise NotImplementedError(
                f"mp_map: clause {j} mentions {len(vs)} variables {list(vs)}; the MpMap "
                "fragment allows at most 2 per clause"
            )
        if len(vs) == 1:
            unary[vs[0]].append(j)
        elif len(vs) == 2:
            key = (vs[0], vs[1])
            if key not in binary:
                ra, rb = find(vs[0]), find(vs[1])
                if ra == rb:
                    raise NotImplementedError(
                        f"mp_map: clause {j} on variables {list(vs)} closes a cycle in the "
                        "primal graph; the MpMap fragment needs a forest"
                    )
                parent[ra] = rb
                binary[key] = []
            binary[key].append(j)
    return unary, binary


def mp_map(problem: MapProblem) -> MapResult:
    """**MpMap**: exact max-product message passing on the tractable fragment (spec 04 §3.1).

    Fragment (``NotImplementedError`` otherwise): every clause mentions ≤ 2 variables, the
    primal graph is a forest, and ``w = Π_i w_i(x_i)`` (:class:`ProductPP`).  For each tree
    (root: smallest index) beliefs ``b_j = w_j · 1[U_j] · Π_children m_{k→j}`` are computed in
    post-order, the message ``m_{j→i}(x_i) = max{b_j(x_j) : Φ_ij(x_i, x_j)}`` is an exact
    piecewise polynomial (critical values of ``x_i``, candidate polynomials per cell, upper
    envelope), the root is maximised and the argmax decoded top-down (ties: smallest ``x``).

    Args:
        problem: a :class:`MapProblem` with a :class:`ProductPP` density.

    Returns:
        :class:`MapResult` (``certified=True``); ``feasible=False`` when Δ is unsatisfiable.

    Raises:
        TypeError: ``problem`` is not a :class:`MapProblem`.
        NotImplementedError: a clause over ≥ 3 variables, a cycle, or a non-PP density.

    Example:
        >>> r = mp_map(worked_example())
        >>> [round(float(v), 12) for v in r.x], round(r.value, 12)
        ([1.0, 0.5], 0.6)

    References:
        Spec 04 §3.1 (our design after MP-WMI, Zeng et al.); Kurscheidt et al., ICML 2026.
    """
    problem = _check_problem(problem)
    density = problem.density
    if not isinstance(density, ProductPP):
        raise NotImplementedError(
            "mp_map: expected a ProductPP density (product of univariate piecewise polynomials)"
        )
    x, value = _mp_pass(problem, density.factors)
    if x is None and value == 0.0:
        return _result(problem, None, "MpMap", certified=True)
    if value == 0.0:  # feasible but w = 0 on F(Δ): decode a feasible point with unit weights
        ones = tuple(
            _pp_constant(1.0, float(lo), float(hi))
            for lo, hi in zip(problem.lo, problem.hi, strict=True)
        )
        x, _ = _mp_pass(problem, ones)
    res = _result(problem, x, "MpMap", certified=True)
    if x is not None and not res.feasible:  # pragma: no cover - would be a bug in the decoder
        raise RuntimeError(
            f"mp_map: decoded point violates Δ by {problem.formula.violation(res.x)}"
        )
    return res


def _mp_pass(
    problem: MapProblem,
    factors: Sequence[PiecewisePolynomial],
    keep: dict[int, PiecewisePolynomial] | None = None,
) -> tuple[FloatArray | None, float]:
    unary, binary = _structure(problem)
    n = problem.n
    adj: dict[int, list[int]] = {i: [] for i in range(n)}
    for a, b in binary:
        adj[a].append(b)
        adj[b].append(a)
    base = [
        _unary_set(problem.formula, unary[i], i, float(problem.lo[i]), float(problem.hi[i]))
        for i in range(n)
    ]
    seen = [False] * n
    x = np.zeros(n)
    total = 1.0
    for root in range(n):
        if seen[root]:
            continue
        order, par = [root], {root: -1}
        seen[root] = True
        for v in order:  # BFS: parents before children
            for u in sorted(adj[v]):
                if not seen[u]:
                    seen[u] = True
                    par[u] = v
                    order.append(u)
        beliefs: dict[int, PiecewisePolynomial] = {}
        edges: dict[int, _Edge] = {}
        for v in reversed(order):  # post-order: children first
            lo_v, hi_v = float(problem.lo[v]), float(problem.hi[v])
            bel = factors[v].multiply(_pp_indicator(base[v], lo_v, hi_v))
            for u in adj[v]:
                if par.get(u) == v:
                    bel = bel.multiply(_message(edges[u], beliefs[u], base[u], lo_v, hi_v))
            beliefs[v] = bel
            if keep is not None:
                keep[v] = bel
            if par[v] >= 0:
                edges[v] = _make_edge(problem.formula, binary, par[v], v)
        value, arg = beliefs[root].argmax_on_intervals(base[root])
        if arg is None:
            return None, 0.0
        total *= value
        x[root] = arg
        for v in order[1:]:  # top-down decoding
            feas = edges[v].feasible_child(float(x[par[v]]), base[v])
            _, arg_v = beliefs[v].argmax_on_intervals(feas)
            if arg_v is None:
                return None, 0.0
            x[v] = arg_v
    return x, total


def mp_beliefs(problem: MapProblem) -> tuple[PiecewisePolynomial, ...]:
    """MpMap's beliefs ``b_j = w_j · 1[U_j] · Π_children m_{k→j}`` (one per variable, rooted at
    the smallest index of each tree): ``max b_root`` is the component's MAP value.

    Args:
        problem: as :func:`mp_map`.

    Returns:
        One :class:`PiecewisePolynomial` per variable (all pieces, for inspection).

    Raises:
        TypeError: ``problem`` is not a :class:`MapProblem`.
        NotImplementedError: outside the MpMap fragment.

    Example:
        >>> b = mp_beliefs(worked_example())
        >>> round(b[0](1.0), 12), round(b[0](0.5), 12)
        (0.6, 0.55)
    """
    problem = _check_problem(problem)
    if not isinstance(problem.density, ProductPP):
        raise NotImplementedError("mp_beliefs: expected a ProductPP density")
    keep: dict[int, PiecewisePolynomial] = {}
    _mp_pass(problem, problem.density.factors, keep)
    return (
        tuple(keep[i] for i in range(problem.n))
        if len(keep) == problem.n
        else tuple(
            keep.get(i, _pp_constant(0.0, float(problem.lo[i]), float(problem.hi[i])))
            for i in range(problem.n)
        )
    )


def _make_edge(formula: Formula, binary: dict[tuple[int, int], list[int]], i: int, j: int) -> _Edge:
    key = (min(i, j), max(i, j))
    clauses = []
    for cid in binary[key]:
        lits = []
        for lit in formula.clauses[cid]:
            a, b = formula.literal(lit)
            lits.append((float(a[i]), float(a[j]), b))
        clauses.append(tuple(lits))
    return _Edge(i, j, tuple(clauses))


# ------------------------------------------------------------------------------------- PaMap
@dataclass(frozen=True, slots=True, kw_only=True)
class PaMapConfig:
    """Settings of :func:`pa_map` (spec 04 §3.2 defaults).

    Attributes:
        starts: SLSQP starts per cell (Chebyshev centre, projected modes, hit-and-run points).
        use_bounds: prune cells/subtrees whose upper bound cannot beat the incumbent.
        prune_tol: prune when ``UB <= incumbent + prune_tol``.
        ftol: SLSQP ``ftol``.
        maxiter: SLSQP iteration cap.
        max_cells: stop the enumeration after this many emitted cells.
    """

    starts: int = 5
    use_bounds: bool = True
    prune_tol: float = 1e-9
    ftol: float = 1e-12
    maxiter: int = 500
    max_cells: int = 100_000

    def __post_init__(self) -> None:
        require_int("starts", self.starts, minimum=1)
        require_positive("prune_tol", self.prune_tol, allow_zero=True)
        require_positive("ftol", self.ftol)
        require_int("maxiter", self.maxiter, minimum=1)
        require_int("max_cells", self.max_cells, minimum=1)


def _chebyshev(
    A: FloatArray, b: FloatArray, lo: FloatArray, hi: FloatArray
) -> tuple[FloatArray, float] | None:
    """Chebyshev centre and radius of ``{Ax <= b} ∩ box`` (``None`` if empty)."""
    n = lo.shape[0]
    rows = (
        np.concatenate([A, np.eye(n), -np.eye(n)])
        if A.size
        else np.concatenate([np.eye(n), -np.eye(n)])
    )
    rhs = np.concatenate([b, hi, -lo]) if A.size else np.concatenate([hi, -lo])
    norms = np.linalg.norm(rows, axis=1)
    r_max = float(np.max(hi - lo))
    res = linprog(
        np.concatenate([np.zeros(n), [-1.0]]),
        A_ub=np.hstack([rows, norms[:, None]]),
        b_ub=rhs,
        bounds=[(None, None)] * n + [(0.0, r_max)],
        method="highs",
    )
    if res.status != 0:
        return None
    sol = np.asarray(res.x, dtype=np.float64)
    return sol[:n], float(sol[n])


def _bounding_box(
    A: FloatArray, b: FloatArray, lo: FloatArray, hi: FloatArray
) -> list[tuple[float, float]] | None:
    n = lo.shape[0]
    out = []
    bounds = list(zip(lo.tolist(), hi.tolist(), strict=True))
    for i in range(n):
        ends = []
        for sign in (1.0, -1.0):
            cost = np.zeros(n)
            cost[i] = sign
            res = linprog(
                cost,
                A_ub=A if A.size else None,
                b_ub=b if A.size else None,
                bounds=bounds,
                method="highs",
            )
            if res.status != 0:
                return None
            ends.append(float(np.asarray(res.x, dtype=np.float64)[i]))
        out.append((min(ends), max(ends)))
    return out


def _hit_and_run(
    A: FloatArray,
    b: FloatArray,
    lo: FloatArray,
    hi: FloatArray,
    x0: FloatArray,
    rng: np.random.Generator,
    steps: int = 10,
) -> FloatArray:
    x = x0.copy()
    rows = (
        np.concatenate([A, np.eye(x.size), -np.eye(x.size)])
        if A.size
        else np.concatenate([np.eye(x.size), -np.eye(x.size)])
    )
    rhs = np.concatenate([b, hi, -lo]) if A.size else np.concatenate([hi, -lo])
    for _ in range(steps):
        d = rng.standard_normal(x.size)
        d /= np.linalg.norm(d)
        ad = rows @ d
        slack = rhs - rows @ x
        with np.errstate(divide="ignore"):
            t = slack / ad
        t_hi = float(np.min(t[ad > 1e-15], initial=math.inf))
        t_lo = float(np.max(t[ad < -1e-15], initial=-math.inf))
        if not (math.isfinite(t_hi) and math.isfinite(t_lo)) or t_hi <= t_lo:
            continue
        x = x + rng.uniform(t_lo, t_hi) * d
    return x


def _local_max(
    problem: MapProblem,
    A: FloatArray,
    b: FloatArray,
    starts: list[FloatArray],
    cfg: PaMapConfig,
) -> tuple[FloatArray | None, float, bool]:
    """Best feasible point of SLSQP runs on ``-log w`` over ``P``; ``(x, log w, all ok)``."""
    dens = problem.density
    lo, hi = problem.lo, problem.hi

    def fun(x: FloatArray) -> float:
        v = dens.log_value(x)
        return -v if v > _LOG_FLOOR else 1e300

    def jac(x: FloatArray) -> FloatArray:
        return -dens.grad_log(x)

    cons = [LinearConstraint(A, -np.inf, b)] if A.size else []
    best_x: FloatArray | None = None
    best = -math.inf
    all_ok = True
    for x0 in starts:
        candidates = [x0]
        with warnings.catch_warnings():  # SLSQP warns on bound clipping: non-convergence is data
            warnings.simplefilter("ignore")
            res: OptimizeResult = minimize(
                fun,
                x0,
                jac=jac,
                method="SLSQP",
                bounds=list(zip(lo, hi, strict=True)),
                constraints=cons,
                options={"ftol": cfg.ftol, "maxiter": cfg.maxiter},
            )
        all_ok = all_ok and bool(res.success)
        candidates.append(np.asarray(res.x, dtype=np.float64))
        for x in candidates:
            x = np.clip(x, lo, hi)
            if A.size and float(np.max(A @ x - b)) > FEASIBILITY_TOL:
                continue
            v = dens.log_value(x)
            if v > best:
                best, best_x = v, x
    return best_x, best, all_ok


def _dfs(
    problem: MapProblem,
    prune: Callable[[FloatArray, FloatArray], bool],
    emit: Callable[[FloatArray, FloatArray, FloatArray, tuple[int, ...]], None],
    max_cells: int,
) -> int:
    """Lazy AllSMT-style partition of ``F(Δ)`` (spec 04 §3.2 step 1); returns cells emitted."""
    formula = problem.formula
    K = formula.A.shape[0]
    emitted = [0]

    def rows(assign: dict[int, bool]) -> tuple[FloatArray, FloatArray]:
        if not assign:
            return np.zeros((0, problem.n)), np.zeros(0)
        ks = sorted(assign)
        A = np.array([formula.A[k] if assign[k] else -formula.A[k] for k in ks])
        b = np.array([formula.c[k] if assign[k] else -formula.c[k] for k in ks])
        return A, b

    def visit(assign: dict[int, bool]) -> None:
        if emitted[0] >= max_cells:
            return
        unsat = []
        for clause in formula.clauses:
            if any(assign.get(k) == pos for k, pos in clause):
                continue
            if all(k in assign for k, _ in clause):
                return  # a falsified clause
            unsat.append(clause)
        A, b = rows(assign)
        cheb = _chebyshev(A, b, problem.lo, problem.hi)  # keeps r = 0 (lower-dimensional) cells
        if cheb is None or prune(A, b):
            return
        if not unsat:
            emitted[0] += 1
            emit(A, b, cheb[0], tuple(2 * k + int(v) for k, v in sorted(assign.items())))
            return
        counts = np.zeros(K)
        for clause in unsat:
            for k, _ in clause:
                if k not in assign:
                    counts[k] += 1
        atom = int(np.argmax(counts))  # most unsatisfied clauses, ties: lowest index
        for value in (True, False):
            visit({**assign, atom: value})

    visit({})
    return emitted[0]


def pa_cells(
    problem: MapProblem, *, max_cells: int = 100_000
) -> tuple[tuple[FloatArray, FloatArray], ...]:
    """The convex cells ``{x in box : A x <= b}`` of PaMap's partition of ``F(Δ)`` (no pruning).

    Cells are pairwise interior-disjoint and their union is ``F(Δ)`` (spec 04 C4).

    Args:
        problem: a :class:`MapProblem`.
        max_cells: enumeration cap.

    Returns:
        ``((A, b), ...)``, one pair per cell (``A`` may have 0 rows: the whole box).

    Raises:
        TypeError: ``problem`` is not a :class:`MapProblem`.
        ValueError: ``max_cells < 1``.

    Example:
        >>> len(pa_cells(obstacle_gaussian_problem()))
        4
    """
    problem = _check_problem(problem)
    max_cells = require_int("max_cells", max_cells, minimum=1)
    out: list[tuple[FloatArray, FloatArray]] = []

    def emit(A: FloatArray, b: FloatArray, centre: FloatArray, key: tuple[int, ...]) -> None:
        out.append((readonly(A), readonly(b)))

    _dfs(problem, lambda A, b: False, emit, max_cells)
    return tuple(out)


def pa_map(
    problem: MapProblem, *, rng: np.random.Generator, config: PaMapConfig | None = None
) -> MapResult:
    """**PaMap**: partition ``F(Δ)`` into convex cells, optimise in each, prune (spec 04 §3.2).

    Depth-first search over atom truth values: a node's polytope is the box intersected
    with the assigned atoms (false atoms negated); a node is pruned when a clause is
    falsified, when its Chebyshev LP is infeasible, or when the density's upper bound
    ``UB(P) <= incumbent + prune_tol``; when every clause has a true literal the node is
    emitted as a cell (unassigned atoms free, so cells are interior-disjoint and cover
    ``F(Δ)``) and optimised at once by SLSQP on ``−log w`` from ``starts`` points (Chebyshev
    centre, the projections of the density's modes, hit-and-run points).  Branching atom:
    the unassigned atom in most unsatisfied clauses (ties: lowest index), True first.

    Args:
        problem: :class:`MapProblem` (any density with ``log_value``/``grad_log``).
        rng: generator for the hit-and-run starts.
        config: :class:`PaMapConfig`.

    Returns:
        :class:`MapResult` with the cell counts and ``certified`` (log-concave density and
        every SLSQP run converged).

    Raises:
        TypeError: ``problem`` or ``rng`` of the wrong kind.
        ValueError: invalid ``config`` values.

    Example:
        >>> r = pa_map(obstacle_gaussian_problem(), rng=np.random.default_rng(0))
        >>> [round(float(v), 6) for v in r.x], r.certified
        ([1.0, 0.1], True)

    References:
        Spec 04 §3.2 (our design); Kurscheidt et al., ICML 2026.
    """
    problem = _check_problem(problem)
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng: expected a numpy Generator, got {type(rng).__name__}")
    cfg = config if config is not None else PaMapConfig()
    if not isinstance(cfg, PaMapConfig):
        raise TypeError(f"config: expected a PaMapConfig, got {type(cfg).__name__}")
    state = {"emitted": 0, "pruned": 0, "optimised": 0}
    best: dict[str, object] = {"x": None, "v": -math.inf, "ok": True}
    ub_fn: Callable[..., float | None] | None = (
        problem.density.upper_bound if cfg.use_bounds else None
    )
    base_seed = int(rng.integers(2**32))

    def prune(A: FloatArray, b: FloatArray) -> bool:
        incumbent = float(best["v"])  # type: ignore[arg-type]
        if ub_fn is None or incumbent == -math.inf:
            return False
        ub = ub_fn(A, b, problem.lo, problem.hi)
        if ub is not None and ub <= incumbent + cfg.prune_tol:
            state["pruned"] += 1
            return True
        return False

    def emit(A: FloatArray, b: FloatArray, centre: FloatArray, key: tuple[int, ...]) -> None:
        state["emitted"] += 1
        state["optimised"] += 1
        cell_rng = np.random.default_rng([base_seed, *key])  # same starts whatever was pruned
        starts = [centre]
        for mode in problem.density.modes():
            starts.append(_project(mode, A, b, problem.lo, problem.hi))
        while len(starts) < cfg.starts:
            starts.append(_hit_and_run(A, b, problem.lo, problem.hi, centre, cell_rng))
        x, v, ok = _local_max(problem, A, b, starts, cfg)
        best["ok"] = bool(best["ok"]) and ok
        if x is not None and v > float(best["v"]):  # type: ignore[arg-type]
            best["x"], best["v"] = x, v

    _dfs(problem, prune, emit, cfg.max_cells)
    certified = bool(getattr(problem.density, "log_concave", False)) and bool(best["ok"])
    x_best = best["x"]
    if x_best is None and state["emitted"] == 0:
        return _result(
            problem,
            None,
            "PaMap",
            cells_emitted=0,
            cells_pruned=state["pruned"],
            cells_optimised=0,
            certified=certified,
        )
    if x_best is None:  # feasible cells, but w = 0 on all: return a feasible point
        x_best = _any_feasible(problem)
    return _result(
        problem,
        np.asarray(x_best),
        "PaMap",
        cells_emitted=state["emitted"],
        cells_pruned=state["pruned"],
        cells_optimised=state["optimised"],
        certified=certified,
    )


def _any_feasible(problem: MapProblem) -> FloatArray | None:
    """A feasible point of Δ (first DFS cell of a unit density), ``None`` if unsatisfiable."""
    unit = MapProblem(
        lo=problem.lo,
        hi=problem.hi,
        formula=problem.formula,
        density=gaussian_mixture([1.0], [0.5 * (problem.lo + problem.hi)], [np.eye(problem.n)]),
    )
    r = pa_map(unit, rng=np.random.default_rng(0), config=PaMapConfig(starts=1, max_cells=1))
    return np.array(r.x) if r.feasible else None


def _project(
    point: FloatArray, A: FloatArray, b: FloatArray, lo: FloatArray, hi: FloatArray
) -> FloatArray:
    """Euclidean projection onto the non-empty ``{Ax <= b} ∩ box`` (a small QP)."""
    from reference.qp_layers import QPSolverConfig, solve_qp

    n = lo.shape[0]
    G = (
        np.concatenate([A, np.eye(n), -np.eye(n)])
        if A.size
        else np.concatenate([np.eye(n), -np.eye(n)])
    )
    h = np.concatenate([b, hi, -lo]) if A.size else np.concatenate([hi, -lo])
    try:
        return np.clip(
            np.array(
                solve_qp(np.eye(n), -point, G, h, config=QPSolverConfig(check_feasibility=False)).x
            ),
            lo,
            hi,
        )
    except ValueError:
        return np.clip(point, lo, hi)


# ----------------------------------------------------------------------------------- baselines
def _multistart(
    problem: MapProblem,
    fun: Callable[[FloatArray], float],
    jac: Callable[[FloatArray], FloatArray],
    starts: int,
    rng: np.random.Generator,
    x0s: Sequence[FloatArray] = (),
) -> FloatArray:
    best_x = None
    best = math.inf
    points = list(x0s) + [rng.uniform(problem.lo, problem.hi) for _ in range(starts)]
    for x0 in points:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = minimize(
                fun,
                x0,
                jac=jac,
                method="L-BFGS-B",
                bounds=list(zip(problem.lo, problem.hi, strict=True)),
            )
        if float(res.fun) < best:
            best, best_x = float(res.fun), np.asarray(res.x, dtype=np.float64)
    assert best_x is not None
    return best_x


def _neg_log(
    problem: MapProblem,
) -> tuple[Callable[[FloatArray], float], Callable[[FloatArray], FloatArray]]:
    def fun(x: FloatArray) -> float:
        v = problem.log_value(x)
        return -v if v > _LOG_FLOOR else 1e300

    def jac(x: FloatArray) -> FloatArray:
        return -problem.density.grad_log(x)

    return fun, jac


def agnostic_map(problem: MapProblem, *, rng: np.random.Generator, starts: int = 20) -> MapResult:
    """B1: constraint-agnostic MAP, multi-start L-BFGS-B on ``−log w`` over the box (ignores Δ).

    ``feasible`` reports whether the point happens to satisfy Δ (spec 04 §3.3, C6).

    Raises:
        TypeError: wrong argument kinds.
        ValueError: ``starts < 1``.
    """
    problem = _check_problem(problem)
    starts = require_int("starts", starts, minimum=1)
    fun, jac = _neg_log(problem)
    return _result(problem, _multistart(problem, fun, jac, starts, rng), "agnostic (B1)")


def agnostic_repair_map(
    problem: MapProblem, *, rng: np.random.Generator, starts: int = 20
) -> MapResult:
    """B2: B1's point projected onto ``F(Δ)`` (PaMap with ``ℓ(x) = −‖x − x_B1‖²``).

    Raises:
        TypeError: wrong argument kinds.
        ValueError: ``starts < 1``.
    """
    problem = _check_problem(problem)
    b1 = agnostic_map(problem, rng=rng, starts=starts)
    n = problem.n
    proj = MapProblem(
        lo=problem.lo,
        hi=problem.hi,
        formula=problem.formula,
        density=gaussian_mixture([1.0], [b1.x], [0.5 * np.eye(n)]),
    )
    r = pa_map(proj, rng=rng)
    return _result(problem, r.x if r.feasible else None, "agnostic + repair (B2)")


def penalty_map(
    problem: MapProblem,
    *,
    rng: np.random.Generator,
    starts: int = 20,
    rhos: Sequence[float] = (1.0, 10.0, 100.0, 1000.0),
) -> MapResult:
    """B3: maximise ``log w(x) − ρ Σ_clauses (min_literal violation)²`` with continuation in ρ.

    Raises:
        TypeError: wrong argument kinds.
        ValueError: ``starts < 1`` or a non-positive ρ.
    """
    problem = _check_problem(problem)
    starts = require_int("starts", starts, minimum=1)
    for r in rhos:
        require_positive("rhos", r)
    f = problem.formula
    base_fun, base_jac = _neg_log(problem)
    best_x: FloatArray | None = None
    best = math.inf
    for x0 in [rng.uniform(problem.lo, problem.hi) for _ in range(starts)]:
        x = x0
        for rho in rhos:

            def fun(x: FloatArray, rho: float = rho) -> float:
                pen = 0.0
                for clause in f.clauses:
                    pen += (
                        min(
                            max(0.0, float(f.literal(lit)[0] @ x) - f.literal(lit)[1])
                            for lit in clause
                        )
                        ** 2
                    )
                return base_fun(x) + rho * pen

            def jac(x: FloatArray, rho: float = rho) -> FloatArray:
                g = base_jac(x)
                for clause in f.clauses:
                    vals = [
                        max(0.0, float(f.literal(lit)[0] @ x) - f.literal(lit)[1]) for lit in clause
                    ]
                    t = int(np.argmin(vals))
                    if vals[t] > 0:
                        g = g + 2 * rho * vals[t] * f.literal(clause[t])[0]
                return g

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                x = np.asarray(
                    minimize(
                        fun,
                        x,
                        jac=jac,
                        method="L-BFGS-B",
                        bounds=list(zip(problem.lo, problem.hi, strict=True)),
                    ).x
                )
        score = base_fun(x) + 1e6 * f.violation(x)
        if score < best:
            best, best_x = score, x
    return _result(problem, best_x, "penalty (B3)")


def sample_filter_map(
    problem: MapProblem, *, rng: np.random.Generator, samples: int = 10_000
) -> MapResult:
    """B4: draw samples from ``p`` (Gaussian mixtures), keep the feasible ones, return the best.

    Raises:
        TypeError: wrong argument kinds.
        ValueError: ``samples < 1``.
        NotImplementedError: the density has no sampler (PP products).
    """
    problem = _check_problem(problem)
    samples = require_int("samples", samples, minimum=1)
    if not isinstance(problem.density, GaussianMixture):
        raise NotImplementedError("sample_filter_map: needs a density with a sampler")
    X = problem.density.sample(rng, samples)
    inside = np.all((problem.lo <= X) & (problem.hi >= X), axis=1)
    ok = inside & problem.formula.holds_many(X)
    if not bool(np.any(ok)):
        return _result(problem, None, "sample + filter (B4)")
    vals = problem.density.value_many(X[ok])
    return _result(problem, X[ok][int(np.argmax(vals))], "sample + filter (B4)")


def grid_map(problem: MapProblem, *, points: int = 401, refine: int = 10) -> MapResult:
    """O1: dense-grid oracle for ``n <= 3``: best feasible grid point, then the best ``refine``
    points polished by SLSQP inside their full-assignment cell (spec 04 §4).

    Raises:
        TypeError: wrong argument kinds.
        ValueError: ``n > 3`` or ``points < 2``.
    """
    problem = _check_problem(problem)
    points = require_int("points", points, minimum=2)
    refine = require_int("refine", refine, minimum=0)
    if problem.n > 3:
        raise ValueError(f"problem: expected n <= 3 for the grid oracle, got n = {problem.n}")
    axes = [np.linspace(lo, hi, points) for lo, hi in zip(problem.lo, problem.hi, strict=True)]
    if isinstance(problem.density, ProductPP):  # put every factor's critical points on the grid
        axes = [
            np.union1d(ax, [t for t in f.critical_points() if lo <= t <= hi])
            for ax, f, lo, hi in zip(
                axes, problem.density.factors, problem.lo, problem.hi, strict=True
            )
        ]
    X = np.stack(np.meshgrid(*axes, indexing="ij"), -1).reshape(-1, problem.n)
    ok = problem.formula.holds_many(X)
    if not bool(np.any(ok)):
        return _result(problem, None, "grid (O1)")
    Xf = X[ok]
    vals = problem.density.value_many(Xf)
    order = np.argsort(-vals, kind="stable")
    best_x, best_v = Xf[order[0]], float(vals[order[0]])
    f = problem.formula
    cfg = PaMapConfig()
    for idx in order[:refine]:
        x0 = Xf[idx]
        signs = f.A @ x0 <= f.c
        A = np.where(signs[:, None], f.A, -f.A)
        b = np.where(signs, f.c, -f.c)
        x, v, _ = _local_max(problem, A, b, [x0], cfg)
        if x is not None and problem.feasible(x) and math.exp(v) > best_v:
            best_x, best_v = x, math.exp(v)
    return _result(problem, best_x, "grid (O1)")


# ------------------------------------------------------------------------------------ builders
def worked_example() -> MapProblem:
    """Spec 04 §3.1 worked example: ``w₁ = x₁``, ``w₂ = x₂ + 0.1`` on ``[0, 1]²``,
    ``Δ = (x₁ − x₂ >= 0.5) ∨ (x₂ − x₁ >= 0.5)``; MAP 0.6 at ``(1, 0.5)``."""
    f = make_formula(2, [[([-1.0, 1.0], -0.5), ([1.0, -1.0], -0.5)]])
    dens = ProductPP(
        factors=(pp_from_pieces([0.0, 1.0], [[0.0, 1.0]]), pp_from_pieces([0.0, 1.0], [[0.1, 1.0]]))
    )
    return make_problem([0.0, 0.0], [1.0, 1.0], f, dens)


def obstacle_gaussian_problem() -> MapProblem:
    """Spec 04 C2 closed form: ``N((0.2, 0.1), I)`` outside the obstacle ``[−1, 1]²`` in the box
    ``[−4, 4]²``: MAP ``(1, 0.1)``, ``log w = −0.32 − log(2π)``."""
    f = make_formula(
        2, [[([1.0, 0.0], -1.0), ([-1.0, 0.0], -1.0), ([0.0, 1.0], -1.0), ([0.0, -1.0], -1.0)]]
    )
    dens = gaussian_mixture([1.0], [[0.2, 0.1]], [np.eye(2)])
    return make_problem([-4.0, -4.0], [4.0, 4.0], f, dens)


def _random_factor(
    rng: np.random.Generator, lo: float, hi: float, *, continuous: bool = False
) -> PiecewisePolynomial:
    """``(random polynomial of degree <= 2)² + 0.05`` on 1–3 pieces (spec 04 C1); with
    ``continuous`` each later piece is ``(q(x) − q(t))² + p_prev(t)``, continuous at ``t``."""
    pieces = int(rng.integers(1, 4))
    inner = np.sort(rng.uniform(lo, hi, pieces - 1))
    breaks = np.concatenate([[lo], inner, [hi]])
    coeffs: list[FloatArray] = []
    for k in range(pieces):
        p = rng.uniform(-1.0, 1.0, int(rng.integers(1, 4)))  # degree <= 2
        if continuous and k > 0:
            t = float(breaks[k])
            shifted = npoly.polysub(p, [float(npoly.polyval(t, p))])
            left = float(npoly.polyval(t, coeffs[-1]))
            coeffs.append(np.asarray(npoly.polyadd(npoly.polymul(shifted, shifted), [left])))
        else:
            coeffs.append(np.asarray(npoly.polyadd(npoly.polymul(p, p), [0.05])))
    return pp_from_pieces(breaks, coeffs)


def random_tree_problem(
    rng: np.random.Generator, *, n_vars: int, shape: str = "chain", continuous: bool = False
) -> MapProblem:
    """Spec 04 C1 generator: chains or stars on ``[0, 1]^n``, ``w_i = (random poly, deg <= 2)² +
    0.05`` on 1–3 pieces, each edge 1–2 clauses of 1–3 bivariate literals with coefficients in
    ``{−1, 1, 2}`` and thresholds ``U(−0.5, 0.5)`` (may be infeasible: data).  ``continuous``
    makes every factor continuous (then the grid oracle converges to the exact MAP; with
    jumps the MAP may sit exactly on a breakpoint, which grids and SLSQP miss).

    Raises:
        ValueError: ``n_vars < 1`` or an unknown shape.
    """
    n = require_int("n_vars", n_vars, minimum=1)
    if shape not in ("chain", "star"):
        raise ValueError(f"shape: expected 'chain' or 'star', got {shape!r}")
    edges = (
        [(k, k + 1) for k in range(n - 1)] if shape == "chain" else [(0, k) for k in range(1, n)]
    )
    clauses = []
    for i, j in edges:
        for _ in range(int(rng.integers(1, 3))):
            lits = []
            for _ in range(int(rng.integers(1, 4))):
                a = np.zeros(n)
                a[i] = rng.choice([-1.0, 1.0, 2.0])
                a[j] = rng.choice([-1.0, 1.0, 2.0])
                lits.append((a, float(rng.uniform(-0.5, 0.5))))
            clauses.append(lits)
    dens = ProductPP(
        factors=tuple(_random_factor(rng, 0.0, 1.0, continuous=continuous) for _ in range(n))
    )
    return make_problem(np.zeros(n), np.ones(n), make_formula(n, clauses), dens)


def _bump(mu: float, s: float, lo: float, hi: float) -> PiecewisePolynomial:
    """``(1 − ((u − μ)/s)²)²`` on ``[μ − s, μ + s]``, 0 elsewhere in ``[lo, hi]``."""
    a, b = max(lo, mu - s), min(hi, mu + s)
    inner = npoly.polymul(
        *(2 * [npoly.polysub([1.0], npoly.polymul([-mu / s, 1 / s], [-mu / s, 1 / s]))])
    )
    pts = [lo, a, b, hi]
    breaks, coeffs = [lo], []
    for p, q in itertools.pairwise(pts):
        if q > p + 1e-12:
            breaks.append(q)
            coeffs.append(inner if (p >= a - 1e-12 and q <= b + 1e-12) else np.zeros(1))
    return pp_from_pieces(breaks, coeffs)


def trajectory_problem(
    rng: np.random.Generator,
    *,
    steps: int,
    obstacles: int = 3,
    kind: str = "pp",
    smoothness: float = 1.0,
) -> MapProblem:
    """Spec 04 §6 toy: ``steps`` waypoints ``(x_t, y_t)`` in ``[0, 10]²``, each with
    ``obstacles`` axis-aligned boxes (clause ``x <= a ∨ x >= b ∨ y <= c ∨ y >= d``) around the
    waypoint's preferred position, so the unconstrained mode is blocked.

    ``kind="pp"``: independent polynomial bumps ``(1 − ((u − μ)/s)²)²`` per coordinate (MpMap
    fragment: the primal graph is disjoint edges).  ``kind="gaussian"``: a Gaussian with
    independent coordinates plus the smoothness term ``−(κ/2) Σ ‖p_{t+1} − p_t‖²`` (one
    Gaussian with a chain precision; leaves the fragment, PaMap only).

    Raises:
        ValueError: bad sizes or kind.
    """
    T = require_int("steps", steps, minimum=1)
    n_obs = require_int("obstacles", obstacles, minimum=0)
    kappa = require_positive("smoothness", smoothness, allow_zero=True)
    if kind not in ("pp", "gaussian"):
        raise ValueError(f"kind: expected 'pp' or 'gaussian', got {kind!r}")
    n = 2 * T
    base = np.linspace(1.5, 8.5, T)
    mus = np.stack([base, base + rng.uniform(-0.5, 0.5, T)], 1)  # preferred positions
    clauses = []
    for t in range(T):
        for o in range(n_obs):
            cx, cy = mus[t] + rng.uniform(-0.4, 0.4, 2) * (o > 0)
            half = rng.uniform(0.3, 0.8, 2)
            ex, ey = np.zeros(n), np.zeros(n)
            ex[2 * t] = 1.0
            ey[2 * t + 1] = 1.0
            clauses.append(
                [
                    (ex, cx - half[0]),
                    (-ex, -(cx + half[0])),
                    (ey, cy - half[1]),
                    (-ey, -(cy + half[1])),
                ]
            )
    formula = make_formula(n, clauses)
    lo, hi = np.zeros(n), np.full(n, 10.0)
    if kind == "pp":
        factors = []
        for t in range(T):
            factors.append(_bump(float(mus[t, 0]), 2.0, 0.0, 10.0))
            factors.append(_bump(float(mus[t, 1]), 2.0, 0.0, 10.0))
        return make_problem(lo, hi, formula, ProductPP(factors=tuple(factors)))
    prec = np.eye(n)
    for t in range(T - 1):
        for d in range(2):
            a, b = 2 * t + d, 2 * (t + 1) + d
            prec[a, a] += kappa
            prec[b, b] += kappa
            prec[a, b] -= kappa
            prec[b, a] -= kappa
    cov = np.linalg.inv(prec)
    cov = 0.5 * (cov + cov.T)
    return make_problem(lo, hi, formula, gaussian_mixture([1.0], [mus.reshape(-1)], [cov]))


def random_3sat_problem(
    rng: np.random.Generator, *, n_bool: int, n_clauses: int
) -> tuple[MapProblem, tuple[tuple[tuple[int, bool], ...], ...]]:
    """Spec 04 C5: random 3-SAT encoded over ``x ∈ [0, 1]^k`` (``x_i <= 0`` ∨ ``x_i >= 1`` makes
    each variable Boolean; a Boolean literal ``v_i`` is ``x_i >= 1``, ``¬v_i`` is ``x_i <= 0``).

    Returns:
        ``(problem, boolean clauses)`` with clauses as ``(variable, positive)`` triples.

    Raises:
        ValueError: ``n_bool < 3`` or ``n_clauses < 1``.
    """
    k = require_int("n_bool", n_bool, minimum=3)
    m = require_int("n_clauses", n_clauses, minimum=1)
    clauses: list[list[tuple[FloatArray, float]]] = []
    boolean = []
    for i in range(k):
        e = np.zeros(k)
        e[i] = 1.0
        clauses.append([(e, 0.0), (-e, -1.0)])
    for _ in range(m):
        vs = rng.choice(k, size=3, replace=False)
        signs = rng.random(3) < 0.5
        lits = []
        for v, s in zip(vs, signs, strict=True):
            e = np.zeros(k)
            e[int(v)] = 1.0
            lits.append((-e, -1.0) if s else (e, 0.0))
        clauses.append(lits)
        boolean.append(tuple((int(v), bool(s)) for v, s in zip(vs, signs, strict=True)))
    dens = gaussian_mixture([1.0], [np.full(k, 0.5)], [np.eye(k)])
    return make_problem(np.zeros(k), np.ones(k), make_formula(k, clauses), dens), tuple(boolean)
