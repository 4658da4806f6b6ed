"""Constrained MAP problems: CNF formulas over linear atoms, densities, problems and results.

Part of :mod:`reference.constrained_map` (which re-exports every public name here and holds
the overview, semantics and references of spec 04): :class:`Formula` / :func:`make_formula`,
the density classes (:class:`ProductPP`, :class:`GaussianMixture`), :class:`MapProblem` /
:func:`make_problem` and the shared :class:`MapResult`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from numpy.polynomial import polynomial as npoly
from numpy.typing import ArrayLike
from scipy.optimize import linprog

from reference._arrays import (
    FloatArray,
    as_float_array,
    readonly,
    require_int,
)
from reference._repr import summary_repr
from reference.constrained_map.pp import (
    INSIDE_TOL,
    PiecewisePolynomial,
)

#: A returned point must satisfy Δ and the box to this tolerance (spec 04 §5.1: 1e-9).
FEASIBILITY_TOL = 1e-9
_LOG_FLOOR = -1e300

Literal = tuple[int, bool]  # (atom index, positive)
Clause = tuple[Literal, ...]


# ----------------------------------------------------------------------------------- formula
@summary_repr
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


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class PairwiseFactor:
    """A factorised pairwise factor ``F_ij(x_i, x_j) = A(x_i) B(x_j)`` (the paper's Ω^PP).

    The paper's tractable density class Ω^PP (Kurscheidt et al., ICML 2026, Sec. 4, as read by
    the third-party reproduction ``Sahil170595/icml2026-paper-reproductions``, spec 04 §8) is
    the piecewise polynomials whose pairwise factors factorise into univariate parts; a general
    bivariate polynomial breaks the Tractable MAP Conditions (its supremum over ``x_j`` need not
    be a polynomial in ``x_i``).

    Attributes:
        i: first variable (``i != j``).
        j: second variable.
        A: non-negative :class:`PiecewisePolynomial` in ``x_i``.
        B: non-negative :class:`PiecewisePolynomial` in ``x_j``.
    """

    i: int
    j: int
    A: PiecewisePolynomial
    B: PiecewisePolynomial

    def part(self, var: int) -> PiecewisePolynomial:
        """The univariate part on ``var`` (``A`` for ``i``, ``B`` for ``j``)."""
        return self.A if var == self.i else self.B


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class ProductPP:
    """``w(x) = Π_i w_i(x_i) · Π_(i,j) A_ij(x_i) B_ij(x_j)``: MpMap's density family Ω^PP.

    Univariate non-negative piecewise polynomials ``w_i`` and factorised pairwise factors
    (:class:`PairwiseFactor`, the paper's Ω^PP; source: the paper as read by the reproduction,
    spec 04 §8).  Each pairwise factor is an edge of the global graph MpMap runs on.

    Attributes:
        factors: one :class:`PiecewisePolynomial` per variable.
        pairwise: factorised pairwise factors (default none).
    """

    factors: tuple[PiecewisePolynomial, ...]
    pairwise: tuple[PairwiseFactor, ...] = ()

    log_concave = False

    def univariate(self, var: int) -> PiecewisePolynomial:
        """``w_var`` times every pairwise part on ``var`` (``w`` is their product over ``var``)."""
        out = self.factors[var]
        for pf in self.pairwise:
            if var in (pf.i, pf.j):
                out = out.multiply(pf.part(var))
        return out

    def value(self, x: FloatArray) -> float:
        """``w(x)``."""
        out = float(np.prod([f(float(v)) for f, v in zip(self.factors, x, strict=True)]))
        for pf in self.pairwise:
            out *= pf.A(float(x[pf.i])) * pf.B(float(x[pf.j]))
        return out

    def value_many(self, X: FloatArray) -> FloatArray:
        """``w`` at the rows of ``X`` (vectorised per factor)."""
        out = np.ones(X.shape[0])
        for i, f in enumerate(self.factors):
            out *= _pp_many(f, X[:, i])
        for pf in self.pairwise:
            out *= _pp_many(pf.A, X[:, pf.i]) * _pp_many(pf.B, X[:, pf.j])
        return out

    def log_value(self, x: FloatArray) -> float:
        """``log w(x)`` as a sum of factor logs (no underflow of the product; ``-inf`` where
        ``w = 0``)."""
        vals = [f(float(v)) for f, v in zip(self.factors, x, strict=True)]
        for pf in self.pairwise:
            vals += [pf.A(float(x[pf.i])), pf.B(float(x[pf.j]))]
        return math.fsum(math.log(v) for v in vals) if min(vals) > 0 else -math.inf

    def grad_log(self, x: FloatArray) -> FloatArray:
        """``∂_i log w = w_i′(x_i)/w_i(x_i)`` (0 where ``w_i = 0``)."""
        g = np.zeros(len(self.factors))
        for i in range(len(self.factors)):
            f = self.univariate(i)
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
        for i, (l_i, u_i) in enumerate(box):
            v, _ = self.univariate(i).argmax_on_intervals(((l_i, u_i),))
            if v <= 0:
                return -math.inf
            total += math.log(v)
        return total

    def modes(self) -> list[FloatArray]:
        """The unconstrained mode: every factor at its argmax (projected onto cells as a start)."""
        parts = [self.univariate(i) for i in range(len(self.factors))]
        point = [f.argmax_on_intervals(((f.lo, f.hi),))[1] for f in parts]
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


@summary_repr
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


def gaussian_mixture(weights: ArrayLike, means: ArrayLike, covs: ArrayLike) -> GaussianMixture:
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
@summary_repr
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
    lo: ArrayLike, hi: ArrayLike, formula: Formula, density: ProductPP | GaussianMixture
) -> MapProblem:
    """Validated :class:`MapProblem`.

    Raises:
        TypeError: non-numeric bounds or wrong kinds.
        ValueError: unbounded/inverted box, size mismatches, a negative PP factor.

    Example:
        >>> from reference.constrained_map import worked_example
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
        for k, pf in enumerate(density.pairwise):
            if not isinstance(pf, PairwiseFactor):
                raise TypeError(
                    f"density.pairwise[{k}]: expected a PairwiseFactor, got {type(pf).__name__}"
                )
            n = lo_a.shape[0]
            if not (0 <= pf.i < n and 0 <= pf.j < n and pf.i != pf.j):
                raise ValueError(
                    f"density.pairwise[{k}]: expected two distinct variables in [0, {n}), "
                    f"got ({pf.i}, {pf.j})"
                )
            _check_nonnegative(pf.A, i=-1, name=f"density.pairwise[{k}].A")
            _check_nonnegative(pf.B, i=-1, name=f"density.pairwise[{k}].B")
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


def _check_nonnegative(f: PiecewisePolynomial, i: int, name: str = "") -> None:
    for k, c in enumerate(f.coeffs):
        a, b = float(f.breaks[k]), float(f.breaks[k + 1])
        pts = [a, b] + [t for t in f.critical_points() if a < t < b]
        low = min(float(npoly.polyval(t, c)) for t in pts)
        if low < -1e-12:
            raise ValueError(
                f"{name or f'density.factors[{i}]'}: expected a non-negative weight, got "
                f"{low!r} on piece "
                f"[{a}, {b}]"
            )


@summary_repr
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
        certified: PaMap: the search covered ``F(Δ)`` (not stopped at its cell cap) and every
            non-pruned cell was solved by a method exact for it; MpMap: the max-product pass
            returned a positive value (see :func:`mp_map`).
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
