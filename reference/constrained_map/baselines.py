"""Constrained MAP baselines B1-B4, the grid oracle O1 and the instance builders (spec 04).

Part of :mod:`reference.constrained_map`, which re-exports every public name here.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Sequence

import numpy as np
from numpy.polynomial import polynomial as npoly
from scipy.optimize import minimize

from reference._arrays import (
    FloatArray,
    require_int,
    require_positive,
)
from reference.constrained_map.model import (
    _LOG_FLOOR,
    GaussianMixture,
    MapProblem,
    MapResult,
    PairwiseFactor,
    ProductPP,
    _check_problem,
    _result,
    gaussian_mixture,
    make_formula,
    make_problem,
)
from reference.constrained_map.pa import (
    PaMapConfig,
    _local_max,
    pa_map,
)
from reference.constrained_map.pp import (
    PiecewisePolynomial,
    pp_from_pieces,
)


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

    Args:
        problem: the MAP problem.
        rng: draws the ``starts`` starting points in the box.
        starts: number of L-BFGS-B starts, ``>= 1``.

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

    Args:
        problem: the MAP problem.
        rng: draws B1's starting points.
        starts: number of B1 starts, ``>= 1``.

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

    Args:
        problem: the MAP problem.
        rng: draws the starting points.
        starts: number of starts, ``>= 1``.
        rhos: the penalty weights ρ of the continuation, in order, each ``> 0``.

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

    Args:
        problem: the MAP problem.
        rng: draws the samples.
        samples: number of samples, ``>= 1``.

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
                axes,
                [problem.density.univariate(i) for i in range(problem.n)],
                problem.lo,
                problem.hi,
                strict=True,
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
    rng: np.random.Generator,
    *,
    n_vars: int,
    shape: str = "chain",
    continuous: bool = False,
    pairwise: bool = False,
) -> MapProblem:
    """Spec 04 C1 generator: chains or stars on ``[0, 1]^n``, ``w_i = (random poly, deg <= 2)² +
    0.05`` on 1–3 pieces, each edge 1–2 clauses of 1–3 bivariate literals with coefficients in
    ``{−1, 1, 2}`` and thresholds ``U(−0.5, 0.5)`` (may be infeasible: data).  ``continuous``
    makes every factor continuous (then the grid oracle converges to the exact MAP; with
    jumps the MAP may sit exactly on a breakpoint, which grids and SLSQP miss).  ``pairwise``
    adds a factorised pairwise factor ``A(x_i) B(x_j)`` on every edge (the paper's Ω^PP;
    ``A``, ``B`` drawn like the ``w_i``), drawn after everything else so the rest of the
    instance is the same as without it.

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
    factors = tuple(_random_factor(rng, 0.0, 1.0, continuous=continuous) for _ in range(n))
    pairs = tuple(
        PairwiseFactor(
            i=i,
            j=j,
            A=_random_factor(rng, 0.0, 1.0, continuous=continuous),
            B=_random_factor(rng, 0.0, 1.0, continuous=continuous),
        )
        for i, j in (edges if pairwise else [])
    )
    dens = ProductPP(factors=factors, pairwise=pairs)
    return make_problem(np.zeros(n), np.ones(n), make_formula(n, clauses), dens)


def band_tree_problem(
    rng: np.random.Generator, *, legs: int, depth: int, pairwise: bool = False
) -> MapProblem:
    """A spider on ``[0, 1]^n``: ``legs`` paths of ``depth`` edges from node 0 (``legs = 1``: a
    path of diameter ``depth``; ``legs >= 2``: diameter ``2·depth``), for Thm A.8's message
    sizes (our generator).

    Each edge is one affine band ``x_i − s + c <= x_j <= x_i + s + c`` (``s ~ U(0.15, 0.4)``,
    ``c ~ U(−0.2, 0.2)``: Prop. A.6's setting), each variable has a non-convex unary
    constraint ``x_v <= t ∨ x_v >= t + 0.15`` (``t ~ U(0.2, 0.7)``) and a continuous random
    factor as in :func:`random_tree_problem`; with ``pairwise`` every edge also carries a
    pairwise factor ``A(x_i) B(x_j)``.

    Raises:
        TypeError: non-integer sizes.
        ValueError: ``legs < 1`` or ``depth < 1``.

    Example:
        >>> p = band_tree_problem(np.random.default_rng(0), legs=2, depth=3)
        >>> p.n, len(p.formula.clauses)
        (7, 19)
    """
    legs = require_int("legs", legs, minimum=1)
    depth = require_int("depth", depth, minimum=1)
    n = 1 + legs * depth
    edges = []
    for leg in range(legs):
        prev = 0
        for k in range(depth):
            v = 1 + leg * depth + k
            edges.append((prev, v))
            prev = v
    clauses: list[list[tuple[FloatArray, float]]] = []
    for i, j in edges:
        s, c = float(rng.uniform(0.15, 0.4)), float(rng.uniform(-0.2, 0.2))
        up, down = np.zeros(n), np.zeros(n)
        up[i], up[j] = -1.0, 1.0  # x_j − x_i <= s + c
        down[i], down[j] = 1.0, -1.0  # x_i − x_j <= s − c
        clauses += [[(up, s + c)], [(down, s - c)]]
    for v in range(n):
        a = np.zeros(n)
        a[v] = 1.0
        t = float(rng.uniform(0.2, 0.7))
        clauses.append([(a, t), (-a, -(t + 0.15))])
    factors = tuple(_random_factor(rng, 0.0, 1.0, continuous=True) for _ in range(n))
    pairs = tuple(
        PairwiseFactor(
            i=i,
            j=j,
            A=_random_factor(rng, 0.0, 1.0, continuous=True),
            B=_random_factor(rng, 0.0, 1.0, continuous=True),
        )
        for i, j in (edges if pairwise else [])
    )
    dens = ProductPP(factors=factors, pairwise=pairs)
    return make_problem(np.zeros(n), np.ones(n), make_formula(n, clauses), dens)


def example_2_2() -> MapProblem:
    """The paper's Example 2.2 constraint region with a density of ours.

    Box ``[0, 2]²`` and ``Δ = x₂ <= 1 ∨ x₂ > 2x₁ ∨ x₂ > 4.75 − 2x₁`` (strict read as
    non-strict, spec 04 §2): the infeasible region is the open triangle-like hole above
    ``x₂ = 1`` between the two lines.  The paper's density is not known to us (its
    constrained optimum is about ``(1.83, 1.83)``; the reproduction uses a density of its
    own), so ours is Ω^PP: bumps ``w₁ = (1 − ((x₁ − 1.2)/1.2)²)²``,
    ``w₂ = (1 − ((x₂ − 1.5)/1.2)²)²`` (0 outside their supports in the box) times the
    pairwise factor ``A(x₁) B(x₂) = (x₁ + 0.5)(x₂ + 0.5)``.  Its unconstrained mode lies in the
    hole; the single clause links ``x₁`` and ``x₂``, so the instance is in MpMap's fragment.

    Example:
        >>> from reference.constrained_map import mp_map
        >>> p = example_2_2()
        >>> p.feasible(p.density.modes()[0]), mp_map(p).feasible
        (False, True)

    References:
        Kurscheidt et al., ICML 2026, Example 2.2 (region as quoted by the reproduction,
        spec 04 §8; density ours).
    """
    f = make_formula(2, [[([0.0, 1.0], 1.0), ([2.0, -1.0], 0.0), ([-2.0, -1.0], -4.75)]])
    line = pp_from_pieces([0.0, 2.0], [[0.5, 1.0]])
    dens = ProductPP(
        factors=(_bump(1.2, 1.2, 0.0, 2.0), _bump(1.5, 1.2, 0.0, 2.0)),
        pairwise=(PairwiseFactor(i=0, j=1, A=line, B=line),),
    )
    return make_problem([0.0, 0.0], [2.0, 2.0], f, dens)


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
