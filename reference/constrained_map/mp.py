"""MpMap: exact max-product message passing on the tractable fragment (spec 04 §3.1).

Part of :mod:`reference.constrained_map`, which re-exports :func:`mp_map` and
:func:`mp_beliefs` and documents the fragment and semantics.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.polynomial import polynomial as npoly

from reference._arrays import (
    FloatArray,
    readonly,
)
from reference.constrained_map.model import (
    Formula,
    MapProblem,
    MapResult,
    ProductPP,
    _check_problem,
    _result,
)
from reference.constrained_map.pp import (
    INSIDE_TOL,
    Intervals,
    PiecewisePolynomial,
    _intersect_intervals,
    _pp_constant,
    _pp_indicator,
    _union_intervals,
)


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
        >>> from reference.constrained_map import worked_example
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
        >>> from reference.constrained_map import worked_example
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
