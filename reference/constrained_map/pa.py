"""PaMap: lazy convex-cell partition of the feasible set with per-cell SLSQP (spec 04 §3.2).

Part of :mod:`reference.constrained_map`, which re-exports :class:`PaMapConfig`,
:func:`pa_cells` and :func:`pa_map`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.optimize import LinearConstraint, OptimizeResult, linprog, minimize

from reference._arrays import (
    FloatArray,
    readonly,
    require_generator,
    require_int,
    require_positive,
)
from reference.constrained_map.model import (
    _LOG_FLOOR,
    FEASIBILITY_TOL,
    MapProblem,
    MapResult,
    _check_problem,
    _result,
    gaussian_mixture,
)


# ------------------------------------------------------------------------------------- PaMap
@dataclass(frozen=True, slots=True, kw_only=True)
class PaMapConfig:
    """Settings of :func:`pa_map` (spec 04 §3.2 defaults).

    Attributes:
        starts: SLSQP starts per cell (Chebyshev centre, projected modes, hit-and-run points).
        use_bounds: prune cells/subtrees whose upper bound cannot beat the incumbent.
        prune_tol: prune when ``UB <= incumbent + prune_tol``.
        inner_tol: the per-cell SLSQP's stopping tolerance (its ``ftol``).
        max_inner: the per-cell SLSQP's iteration cap (its ``maxiter``).
        max_cells: stop the enumeration after this many emitted cells; a search stopped
            there with nodes left to visit is not ``certified``.
    """

    starts: int = 5
    use_bounds: bool = True
    prune_tol: float = 1e-9
    inner_tol: float = 1e-12
    max_inner: int = 500
    max_cells: int = 100_000

    def __post_init__(self) -> None:
        require_int("starts", self.starts, minimum=1)
        require_positive("prune_tol", self.prune_tol, allow_zero=True)
        require_positive("inner_tol", self.inner_tol)
        require_int("max_inner", self.max_inner, minimum=1)
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
                options={"ftol": cfg.inner_tol, "maxiter": cfg.max_inner},
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
) -> tuple[int, bool]:
    """Lazy AllSMT-style partition of ``F(Δ)`` (spec 04 §3.2 step 1).

    Returns ``(cells emitted, complete)``; ``complete`` is false when a node was left unvisited
    because ``max_cells`` cells had been emitted (the partition then misses part of ``F(Δ)``).
    """
    formula = problem.formula
    K = formula.A.shape[0]
    emitted = [0]
    complete = [True]

    def rows(assign: dict[int, bool]) -> tuple[FloatArray, FloatArray]:
        if not assign:
            return np.zeros((0, problem.n)), np.zeros(0)
        ks = sorted(assign)
        A = np.array([formula.A[k] if assign[k] else -formula.A[k] for k in ks])
        b = np.array([formula.c[k] if assign[k] else -formula.c[k] for k in ks])
        return A, b

    def visit(assign: dict[int, bool]) -> None:
        if emitted[0] >= max_cells:
            complete[0] = False
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
    return emitted[0], complete[0]


_PA_MAP = PaMapConfig()


def pa_cells(
    problem: MapProblem, *, max_cells: int = _PA_MAP.max_cells
) -> tuple[tuple[FloatArray, FloatArray], ...]:
    """The convex cells ``{x in box : A x <= b}`` of PaMap's partition of ``F(Δ)`` (no pruning).

    Cells are pairwise interior-disjoint and their union is ``F(Δ)`` (spec 04 C4).

    Args:
        problem: a :class:`MapProblem`.
        max_cells: enumeration cap (default: :class:`PaMapConfig`'s).

    Returns:
        ``((A, b), ...)``, one pair per cell (``A`` may have 0 rows: the whole box).

    Raises:
        TypeError: ``problem`` is not a :class:`MapProblem`.
        ValueError: ``max_cells < 1``.

    Example:
        >>> from reference.constrained_map import obstacle_gaussian_problem
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
        :class:`MapResult` with the cell counts and ``certified``: the density is log-concave,
        every SLSQP run converged and the search covered ``F(Δ)`` (it did not stop at
        ``max_cells`` with nodes left to visit).

    Raises:
        TypeError: ``problem`` or ``rng`` of the wrong kind.
        ValueError: invalid ``config`` values.

    Example:
        >>> from reference.constrained_map import obstacle_gaussian_problem
        >>> r = pa_map(obstacle_gaussian_problem(), rng=np.random.default_rng(0))
        >>> [round(float(v), 6) for v in r.x], r.certified
        ([1.0, 0.1], True)

    References:
        Spec 04 §3.2 (our design); Kurscheidt et al., ICML 2026.
    """
    problem = _check_problem(problem)
    require_generator("rng", rng)
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

    _, complete = _dfs(problem, prune, emit, cfg.max_cells)
    certified = (
        complete and bool(getattr(problem.density, "log_concave", False)) and bool(best["ok"])
    )
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
