"""Conformance suites for constrained MAP solvers (spec 04).

An implementation is any callable ``fn(problem) -> result`` taking a
:class:`reference.constrained_map.MapProblem` and returning the MAP point: a result with
``.x`` and ``.feasible`` (like :class:`~reference.constrained_map.MapResult`), a pair
``(x, feasible)``, or just ``x`` (an empty ``x`` means "Δ is unsatisfiable").

* ``constrained_map.tree`` — exact solvers on the MpMap fragment (forest of ≤ 2-variable
  clauses, product of univariate piecewise polynomials), instances from the spec's C1
  generator with *continuous* factors so that the dense-grid oracle O1 is exact;
* ``constrained_map.general`` — any solver on Gaussian densities with box obstacles
  ("outside every obstacle", a non-convex feasible set).

Checks test defining properties (feasibility; ``w(x̂) >=`` any feasible point; closed forms;
invariances) and compare values with the oracles only where the MAP value is unique.
Tolerances: ``caps.tolerance`` relative to ``max(1, value)``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import numpy as np
from hypothesis import strategies as st

from properties._runner import Capabilities, Suite, expect, expect_le
from properties._suite import check
from properties.adapters import to_numpy
from properties.strategies import distinct_float_arrays, float_arrays
from reference import constrained_map as cm
from reference._arrays import FloatArray

__all__ = [
    "GENERAL",
    "SUITES",
    "TREE",
    "MapSolver",
    "as_map_output",
    "feasible_samples",
    "obstacle_instances",
    "tree_instances",
]

#: Grid resolution of the O1 oracle per dimension (spec: 401; n = 3 uses 41 to stay fast —
#: factor breakpoints/stationary points are added to every axis and the best grid points are
#: refined by SLSQP, and the check is one-sided: an exact solver must reach the oracle).
GRID_POINTS = {1: 401, 2: 201, 3: 41}


class MapSolver(Protocol):
    """A constrained MAP solver ``problem -> (x, feasible)``."""

    def __call__(self, problem: cm.MapProblem, /) -> tuple[FloatArray, bool]:
        """Return the MAP point and whether Δ is satisfiable."""
        ...


def as_map_output(result: object, n: int) -> tuple[FloatArray, bool]:
    """``(x, feasible)`` from a result object, a pair, a mapping, or a bare point.

    Raises:
        CheckFailure: the output has none of these forms or ``x`` has the wrong shape.
    """
    if isinstance(result, Mapping) and "x" in result:
        x_raw, feas = result["x"], result.get("feasible")
    elif hasattr(result, "x"):
        x_raw, feas = result.x, getattr(result, "feasible", None)
    elif isinstance(result, tuple) and len(result) == 2:
        x_raw, feas = result
    else:
        x_raw, feas = result, None
    x = to_numpy(x_raw, what="x returned by the solver").reshape(-1)
    feasible = bool(x.size) if feas is None else bool(feas)
    if feasible:
        expect(x.shape == (n,), what="shape of x", measured=x.shape, allowed=(n,))
        expect(
            bool(np.all(np.isfinite(x))), what="x is finite", measured=x.tolist(), allowed="finite"
        )
    return x, feasible


def _adapt(obj: object) -> MapSolver:
    if not callable(obj):
        raise TypeError(f"constrained_map: expected a callable, got {type(obj).__name__}")
    fn: Callable[..., Any] = obj

    @functools.wraps(fn)
    def solver(problem: cm.MapProblem, /) -> tuple[FloatArray, bool]:
        return as_map_output(fn(problem), problem.n)

    return solver


# ------------------------------------------------------------------------------- strategies
@st.composite
def tree_instances(draw: st.DrawFn, *, max_n: int = 3, feasible: bool = True) -> cm.MapProblem:
    """Spec 04 C1 chains/stars on ``[0, 1]^n`` with continuous PP factors (``n <= max_n``);
    with ``feasible`` an instance whose Δ is unsatisfiable is replaced by the next seed."""
    n = draw(st.integers(2, max_n), label="n")
    shape = draw(st.sampled_from(["chain", "star"]), label="shape")
    # cm.random_tree_problem samples the factors from a generator
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    rng = np.random.default_rng(seed)
    for _ in range(50):
        prob = cm.random_tree_problem(rng, n_vars=n, shape=shape, continuous=True)
        if not feasible or cm.pa_cells(prob, max_cells=1):
            return prob
    return cm.worked_example()  # pragma: no cover - 50 infeasible draws in a row


@st.composite
def obstacle_instances(
    draw: st.DrawFn, *, max_obstacles: int = 3
) -> tuple[cm.MapProblem, FloatArray]:
    """``N(μ, I)`` on ``[−4, 4]²`` outside 1–3 axis-aligned boxes, the first containing ``μ``;
    returns ``(problem, closed-form MAP)`` — the MAP is the nearest point of the feasible set
    to ``μ`` (isotropic Gaussian), found by projecting ``μ`` onto each face of the first box
    and keeping feasible candidates (exact because the other boxes are disjoint from it)."""
    k = draw(st.integers(1, max_obstacles), label="obstacles")
    # any float mean in [-0.5, 0.5], tiny ones included (a mean of ~1e-300 is a hard case for a
    # step rule that divides by the mean)
    mu = draw(float_arrays((2,), low=-0.5, high=0.5), label="mean mu")
    # tie-free distances from mu to the four faces of the first box: the MAP is unique
    gaps = draw(distinct_float_arrays((4,), low=0.3, high=1.0), label="mu - lo, hi - mu")
    boxes = [(mu - gaps[:2], mu + gaps[2:])]
    for j in range(k - 1):
        centre = draw(float_arrays((2,), low=-3.0, high=3.0), label=f"centre of box {j + 2}")
        half = draw(float_arrays((2,), low=0.1, high=0.4), label=f"half-widths of box {j + 2}")
        lo_b, hi_b = centre - half, centre + half
        first_lo, first_hi = boxes[0]
        if np.all(lo_b < first_hi + 0.2) and np.all(hi_b > first_lo - 0.2):
            continue  # keep the extra boxes away from the first one
        boxes.append((lo_b, hi_b))
    clauses = []
    for lo_b, hi_b in boxes:
        clauses.append(
            [
                ([1.0, 0.0], float(lo_b[0])),
                ([-1.0, 0.0], -float(hi_b[0])),
                ([0.0, 1.0], float(lo_b[1])),
                ([0.0, -1.0], -float(hi_b[1])),
            ]
        )
    formula = cm.make_formula(2, clauses)
    dens = cm.gaussian_mixture([1.0], [mu], [np.eye(2)])
    prob = cm.make_problem([-4.0, -4.0], [4.0, 4.0], formula, dens)
    lo0, hi0 = boxes[0]
    cands = []
    for d in range(2):
        for face in (lo0[d], hi0[d]):
            p = mu.copy()
            p[d] = face
            if prob.feasible(p):
                cands.append(p)
    best = min(cands, key=lambda p: float(np.linalg.norm(p - mu)))
    return prob, best


def feasible_samples(problem: cm.MapProblem, rng: np.random.Generator, count: int) -> FloatArray:
    """Up to ``count`` uniform feasible points (rejection from the box, 20 000 proposals)."""
    X = rng.uniform(problem.lo, problem.hi, size=(20_000, problem.n))
    ok = problem.formula.holds_many(X)
    return np.asarray(X[ok][:count], dtype=np.float64)


# ------------------------------------------------------------------------------------- checks
def _tol(value: float, caps: Capabilities) -> float:
    return caps.tolerance * max(1.0, abs(value))


def _feasible_point(problem: cm.MapProblem, x: FloatArray, what: str) -> float:
    viol = problem.formula.violation(x)
    box = float(max(np.max(problem.lo - x), np.max(x - problem.hi), 0.0))
    expect_le(max(viol, box), cm.FEASIBILITY_TOL, what=f"{what}: violation of Δ and the box")
    return problem.value(x)


# -------------------------------------------------------------------------------------- suites
_C1 = "Kurscheidt et al. (ICML 2026) / C1 (MpMap exact on its fragment)"


@check(anchor="Kurscheidt et al. (ICML 2026)")
def check_returns_feasible_point(impl: MapSolver, data: st.DataObject, caps: Capabilities) -> None:
    """The returned point satisfies Δ and the box (1e-9); "infeasible" only when the grid
    oracle finds no feasible point (spec 04 §5.1)."""
    problem = data.draw(tree_instances(feasible=False), label="tree instance")
    x, feasible = impl(problem)
    if feasible:
        _feasible_point(problem, x, "returned point")
    else:
        grid = cm.grid_map(problem, points=GRID_POINTS[problem.n], refine=0)
        expect(
            not grid.feasible,
            what="solver reports Δ unsatisfiable",
            measured="the grid oracle found a feasible point",
            allowed="no feasible point",
        )


@check(anchor="Kurscheidt et al. (ICML 2026)")
def check_beats_feasible_samples(impl: MapSolver, data: st.DataObject, caps: Capabilities) -> None:
    """``w(z) <= w(x̂) + tol`` for 50 random feasible points ``z`` (Kurscheidt et al., ICML 2026)."""
    problem = data.draw(tree_instances(), label="tree instance")
    # feasible_samples rejection-samples 20 000 proposals from a generator
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="sample seed"))
    x, feasible = impl(problem)
    expect(feasible, what="feasibility verdict", measured="infeasible", allowed="feasible")
    v = _feasible_point(problem, x, "returned point")
    Z = feasible_samples(problem, rng, 50)
    if Z.shape[0]:
        best = float(np.max(problem.density.value_many(Z)))
        expect_le(best, v + _tol(v, caps), what="max w over 50 feasible samples vs w(x̂)")


@check(anchor=_C1 + ", O1")
def check_matches_grid_oracle(impl: MapSolver, data: st.DataObject, caps: Capabilities) -> None:
    """``w(x̂)`` reaches the dense-grid oracle O1 (grid + SLSQP refinement; continuous
    factors, ``n <= 3``; spec 04 C1 / §5.7).  One-sided: a feasible ``x̂`` can never beat
    the true MAP, while the oracle can only fall short of it."""
    problem = data.draw(tree_instances(), label="tree instance")
    x, feasible = impl(problem)
    expect(feasible, what="feasibility verdict", measured="infeasible", allowed="feasible")
    v = _feasible_point(problem, x, "returned point")
    oracle = cm.grid_map(problem, points=GRID_POINTS[problem.n], refine=5).value
    expect_le(
        oracle - v,
        max(_tol(oracle, caps), 1e-6 * max(1.0, oracle)),
        what="grid oracle − w(x̂)",
    )


def _scaled(problem: cm.MapProblem, s: float) -> cm.MapProblem:
    dens = problem.density
    assert isinstance(dens, cm.ProductPP)
    f0 = dens.factors[0]
    first = cm.PiecewisePolynomial(
        breaks=f0.breaks, coeffs=tuple(s * c for c in f0.coeffs), at_breaks=s * f0.at_breaks
    )
    return cm.make_problem(
        problem.lo, problem.hi, problem.formula, cm.ProductPP(factors=(first, *dens.factors[1:]))
    )


@check(anchor="Kurscheidt et al. (ICML 2026)")
def check_scale_invariance(impl: MapSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Multiplying ``w`` by ``s > 0`` multiplies the MAP value by ``s`` (Kurscheidt et al., ICML 2026)."""
    problem = data.draw(tree_instances(), label="tree instance")
    # log-uniform over 22 decades: a tie rule with an absolute tolerance reads every candidate
    # as tied once the weights fall below it (MpMap did, at s < 1e-12)
    s = 10.0 ** data.draw(st.floats(-20.0, 2.0), label="log10 of the scale s")
    x, _ = impl(problem)
    xs, feasible = impl(_scaled(problem, s))
    expect(
        feasible,
        what="feasibility of the scaled problem",
        measured="infeasible",
        allowed="feasible",
    )
    v = _feasible_point(problem, x, "returned point")
    vs = _feasible_point(problem, xs, "point for s·w")
    expect_le(abs(vs - v), _tol(v, caps), what="w(x̂(s·w)) − w(x̂(w)) (argmax unchanged)")


def _permuted(problem: cm.MapProblem, perm: np.ndarray) -> cm.MapProblem:
    f = problem.formula
    formula = cm.Formula(A=f.A[:, perm], c=f.c, clauses=f.clauses)
    dens = problem.density
    assert isinstance(dens, cm.ProductPP)
    factors = tuple(dens.factors[int(i)] for i in perm)
    return cm.make_problem(
        problem.lo[perm], problem.hi[perm], formula, cm.ProductPP(factors=factors)
    )


@check(anchor="Kurscheidt et al. (ICML 2026)")
def check_permutation_equivariance(
    impl: MapSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """Relabelling variables permutes the MAP point (same value; Kurscheidt et al., ICML 2026)."""
    problem = data.draw(tree_instances(), label="tree instance")
    perm = np.array(data.draw(st.permutations(range(problem.n)), label="permutation"))
    x, _ = impl(problem)
    permuted = _permuted(problem, perm)
    xp, feasible = impl(permuted)
    expect(
        feasible,
        what="feasibility of the relabelled problem",
        measured="infeasible",
        allowed="feasible",
    )
    v = _feasible_point(problem, x, "returned point")
    vp = _feasible_point(permuted, xp, "point of the relabelled problem")
    expect_le(abs(vp - v), _tol(v, caps), what="|MAP value after relabelling − before|")


@check(anchor="Kurscheidt et al. (ICML 2026)")
def check_redundant_clause(impl: MapSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Adding a clause implied by the box (``x_i >= lo_i − 1``) changes nothing (§5.6)."""
    problem = data.draw(tree_instances(), label="tree instance")
    i = data.draw(st.integers(0, problem.n - 1), label="variable")
    f = problem.formula
    a = np.zeros(problem.n)
    a[i] = -1.0
    A = np.concatenate([f.A, a[None]])
    c = np.concatenate([f.c, [-(problem.lo[i] - 1.0)]])
    formula = cm.Formula(A=A, c=c, clauses=(*f.clauses, ((A.shape[0] - 1, True),)))
    more = cm.make_problem(problem.lo, problem.hi, formula, problem.density)
    x, _ = impl(problem)
    xr, feasible = impl(more)
    expect(
        feasible,
        what="feasibility with the redundant clause",
        measured="infeasible",
        allowed="feasible",
    )
    v = _feasible_point(problem, x, "returned point")
    vr = _feasible_point(more, xr, "point with the redundant clause")
    expect_le(abs(vr - v), _tol(v, caps), what="|MAP value with a redundant clause − without|")


@check(anchor="Kurscheidt et al. (ICML 2026)")
def check_monotone_in_constraints(impl: MapSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Dropping every clause gives the unconstrained maximum ``Π_i max w_i`` and never a
    smaller value than with the clauses (spec 04 §5.3)."""
    problem = data.draw(tree_instances(), label="tree instance")
    free = cm.make_problem(problem.lo, problem.hi, cm.make_formula(problem.n, []), problem.density)
    x, _ = impl(problem)
    xf, _ = impl(free)
    dens = problem.density
    assert isinstance(dens, cm.ProductPP)
    unconstrained = float(
        np.prod([f.argmax_on_intervals(((f.lo, f.hi),))[0] for f in dens.factors])
    )
    vf = _feasible_point(free, xf, "point without clauses")
    v = _feasible_point(problem, x, "returned point")
    expect_le(
        abs(vf - unconstrained),
        _tol(unconstrained, caps),
        what="|value without clauses − Π max w_i|",
    )
    expect_le(v, vf + _tol(vf, caps), what="value with clauses vs without")


@check(anchor="Kurscheidt et al. (ICML 2026) worked example")
def check_worked_example(impl: MapSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Spec 04 §3.1 worked example: MAP value 0.6 at ``(1, 0.5)``; the mode (1, 1) is infeasible."""
    problem = cm.worked_example()
    x, feasible = impl(problem)
    expect(feasible, what="feasibility verdict", measured="infeasible", allowed="feasible")
    v = _feasible_point(problem, x, "returned point")
    expect_le(abs(v - 0.6), _tol(0.6, caps), what="|w(x̂) − 0.6|")
    expect_le(
        float(np.max(np.abs(x - np.array([1.0, 0.5])))),
        max(caps.tolerance, 1e-6),
        what="max |x̂ − (1, 0.5)|",
    )


@check(anchor="Kurscheidt et al. (ICML 2026)")
def check_constant_weights_decide_feasibility(
    impl: MapSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """Constant factors ``w_i = c_i``: the value is ``Π c_i`` iff Δ is satisfiable (§5.9)."""
    problem = data.draw(tree_instances(feasible=False), label="tree instance")
    consts = [
        10.0 ** data.draw(st.floats(-8.0, 0.5), label=f"log10 c_{i}")
        for i in range(problem.n)
    ]
    dens = cm.ProductPP(
        factors=tuple(
            cm.pp_from_pieces([float(lo), float(hi)], [[c]])
            for c, lo, hi in zip(consts, problem.lo, problem.hi, strict=True)
        )
    )
    const = cm.make_problem(problem.lo, problem.hi, problem.formula, dens)
    x, feasible = impl(const)
    truth = bool(cm.pa_cells(problem, max_cells=1))
    expect(
        feasible == truth,
        what="feasibility verdict with constant weights",
        measured=feasible,
        allowed=truth,
    )
    if truth:
        v = _feasible_point(const, x, "returned point")
        want = float(np.prod(consts))
        expect_le(abs(v - want), _tol(want, caps), what="|value − Π c_i|")


@check("returns_feasible_point", anchor="Kurscheidt et al. (ICML 2026), C6")
def check_general_feasible(impl: MapSolver, data: st.DataObject, caps: Capabilities) -> None:
    """The returned point avoids every obstacle and stays in the box (Kurscheidt et al., ICML 2026, C6)."""
    problem, _ = data.draw(obstacle_instances(), label="obstacle instance")
    x, feasible = impl(problem)
    expect(feasible, what="feasibility verdict", measured="infeasible", allowed="feasible")
    _feasible_point(problem, x, "returned point")


@check("closed_form", anchor="Kurscheidt et al. (ICML 2026) C2")
def check_general_closed_form(impl: MapSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Isotropic Gaussian whose mean sits in an obstacle: the MAP is the nearest feasible point
    (closed form; spec 04 C2 generalised)."""
    problem, want = data.draw(obstacle_instances(), label="obstacle instance")
    x, _ = impl(problem)
    v = problem.log_value(_clip_feasible(problem, x))
    best = problem.log_value(want)
    expect_le(
        abs(v - best),
        caps.tolerance * max(1.0, abs(best)),
        what="|log w(x̂) − log w(closed-form MAP)|",
    )


def _clip_feasible(problem: cm.MapProblem, x: FloatArray) -> FloatArray:
    _feasible_point(problem, x, "returned point")
    return x


@check("beats_baselines", anchor="Kurscheidt et al. (ICML 2026)")
def check_general_beats_baselines(impl: MapSolver, data: st.DataObject, caps: Capabilities) -> None:
    """``w(x̂) >=`` the density of every feasible baseline point (B2 repair, B3 penalty,
    B4 sample-and-filter) on the same instance (spec 04 §3.3)."""
    problem, _ = data.draw(obstacle_instances(), label="obstacle instance")
    seed = data.draw(st.integers(0, 2**32 - 1), label="baseline seed")
    x, _ = impl(problem)
    v = problem.log_value(_clip_feasible(problem, x))
    for base in (
        cm.agnostic_repair_map(problem, rng=np.random.default_rng(seed), starts=5),
        cm.penalty_map(problem, rng=np.random.default_rng(seed), starts=5),
        cm.sample_filter_map(problem, rng=np.random.default_rng(seed), samples=2000),
    ):
        if base.feasible:
            expect_le(
                base.log_value,
                v + caps.tolerance * max(1.0, abs(v)),
                what=f"log w of {base.method} vs log w(x̂)",
            )


TREE: Suite[MapSolver] = Suite(
    name="constrained_map.tree",
    protocol=MapSolver,
    checks=(
        check_returns_feasible_point,
        check_beats_feasible_samples,
        check_matches_grid_oracle,
        check_scale_invariance,
        check_permutation_equivariance,
        check_redundant_clause,
        check_monotone_in_constraints,
        check_worked_example,
        check_constant_weights_decide_feasibility,
    ),
    adapt=_adapt,
    description="Exact constrained MAP on forest-shaped 2-variable-clause formulas with "
    "piecewise-polynomial factors: feasibility, optimality vs samples and the grid oracle, "
    "invariances, worked example, feasibility decision.",
)

GENERAL: Suite[MapSolver] = Suite(
    name="constrained_map.general",
    protocol=MapSolver,
    checks=(
        check_general_feasible,
        check_general_closed_form,
        check_general_beats_baselines,
    ),
    adapt=_adapt,
    description="Constrained MAP of Gaussians outside box obstacles: feasibility, closed-form "
    "MAP, no worse than the constraint-agnostic baselines.",
)

SUITES = (TREE, GENERAL)
