"""Hand-made broken constrained MAP solvers: the constrained_map suites must reject each."""

from __future__ import annotations

import numpy as np

from reference import constrained_map as cm
from reference._arrays import FloatArray
from reference.constrained_map.pa import _chebyshev

Out = tuple[FloatArray, bool]


def _factors(problem: cm.MapProblem) -> tuple[cm.PiecewisePolynomial, ...]:
    assert isinstance(problem.density, cm.ProductPP)
    return problem.density.factors


def tree_ignores_constraints(problem: cm.MapProblem) -> Out:
    """Mutant: the unconstrained mode (per-factor argmax), always reported feasible."""
    x = np.array(
        [f.argmax_on_intervals(((f.lo, f.hi),))[1] for f in _factors(problem)], dtype=np.float64
    )
    return x, True


def tree_first_feasible_point(problem: cm.MapProblem) -> Out:
    """Mutant: a feasible point (Chebyshev centre of the first cell) without optimising."""
    cells = cm.pa_cells(problem, max_cells=1)
    if not cells:
        return np.zeros(0), False
    A, b = cells[0]
    centre = _chebyshev(A, b, problem.lo, problem.hi)
    assert centre is not None
    return centre[0], True


def tree_additive_prior(problem: cm.MapProblem) -> Out:
    """Mutant: an additive prior ``w(x) − 0.1‖x‖²`` instead of a multiplicative one, maximised
    by brute force over a feasible grid — its argmax moves when ``w`` is rescaled."""
    axes = [np.linspace(lo, hi, 41) for lo, hi in zip(problem.lo, problem.hi, strict=True)]
    X = np.stack(np.meshgrid(*axes, indexing="ij"), -1).reshape(-1, problem.n)
    X = X[problem.formula.holds_many(X)]
    if X.shape[0] == 0:
        return np.zeros(0), False
    score = problem.density.value_many(X) - 0.1 * np.sum(X**2, axis=1)
    return np.asarray(X[int(np.argmax(score))], dtype=np.float64), True


def tree_greedy_in_index_order(problem: cm.MapProblem) -> Out:
    """Mutant: fixes variables one at a time in index order, each at the best value that
    keeps the clauses among the already fixed variables satisfiable (no look-ahead)."""
    n = problem.n
    x = np.zeros(n)
    f = problem.formula
    for i, fac in enumerate(_factors(problem)):
        grid = np.union1d(np.linspace(problem.lo[i], problem.hi[i], 201), fac.critical_points())
        best, arg = -1.0, None
        for v in grid:
            x[i] = v
            ok = True
            for j in range(len(f.clauses)):
                if max(f.clause_vars(j), default=-1) <= i and not _clause_ok(f, j, x):
                    ok = False
                    break
            if ok and fac(float(v)) > best:
                best, arg = fac(float(v)), float(v)
        if arg is None:
            return np.zeros(0), False
        x[i] = arg
    return x, True


def _clause_ok(f: cm.Formula, j: int, x: FloatArray) -> bool:
    return any(float(f.literal(lit)[0] @ x) <= f.literal(lit)[1] + 1e-12 for lit in f.clauses[j])


def tree_drops_last_clause(problem: cm.MapProblem) -> Out:
    """Mutant (off-by-one): iterates over ``clauses[:-1]``."""
    f = problem.formula
    short = cm.Formula(A=f.A, c=f.c, clauses=f.clauses[:-1])
    r = cm.mp_map(cm.make_problem(problem.lo, problem.hi, short, problem.density))
    return np.array(r.x), r.feasible


def general_agnostic(problem: cm.MapProblem) -> Out:
    """Mutant: B1, the constraint-agnostic mode, claimed feasible."""
    return np.array(cm.agnostic_map(problem, rng=np.random.default_rng(0), starts=3).x), True


def general_penalty(problem: cm.MapProblem) -> Out:
    """Mutant: B3 with a single moderate penalty (leaves a small violation)."""
    r = cm.penalty_map(problem, rng=np.random.default_rng(0), starts=3, rhos=(10.0,))
    return np.array(r.x), True


def general_first_cell(problem: cm.MapProblem) -> Out:
    """Mutant: PaMap that stops after the first emitted cell."""
    r = cm.pa_map(problem, rng=np.random.default_rng(0), config=cm.PaMapConfig(max_cells=1))
    return np.array(r.x), r.feasible


# ------------------------------------------------ mutants of the paper-fact checks (spec 04 §8)
def _tabulate(
    f: cm.PiecewisePolynomial, lo: float, hi: float, cells: int
) -> cm.PiecewisePolynomial:
    breaks = np.linspace(lo, hi, cells + 1)
    mids = 0.5 * (breaks[:-1] + breaks[1:])
    return cm.pp_from_pieces(breaks, [[f(float(m))] for m in mids])


def max_out_tabulated(
    q: cm.PiecewisePolynomial,
    lower: tuple[float, float],
    upper: tuple[float, float],
    *,
    lo: float,
    hi: float,
) -> cm.PiecewisePolynomial:
    """Mutant: the symbolic max replaced by a 64-cell piecewise-constant table."""
    return _tabulate(cm.max_out(q, lower, upper, lo=lo, hi=hi), lo, hi, 64)


def messages_tabulated(problem: cm.MapProblem) -> dict[tuple[int, int], cm.PiecewisePolynomial]:
    """Mutant: every message tabulated on 256 constant cells (a grid approximation)."""
    return {k: _tabulate(m, m.lo, m.hi, 256) for k, m in cm.mp_messages(problem).items()}


def mp_map_without_pairwise(problem: cm.MapProblem) -> cm.MapResult:
    """Mutant: MpMap that drops the pairwise factors ``A(x_i) B(x_j)`` (univariate only)."""
    dens = problem.density
    assert isinstance(dens, cm.ProductPP)
    plain = cm.make_problem(
        problem.lo, problem.hi, problem.formula, cm.ProductPP(factors=dens.factors)
    )
    return cm.mp_map(plain)


def mp_map_drops_last_literal(problem: cm.MapProblem) -> cm.MapResult:
    """Mutant (off-by-one): every clause read without its last literal."""
    f = problem.formula
    short = cm.Formula(A=f.A, c=f.c, clauses=tuple(c[:-1] if len(c) > 1 else c for c in f.clauses))
    return cm.mp_map(cm.make_problem(problem.lo, problem.hi, short, problem.density))
