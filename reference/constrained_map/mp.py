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
    as_float_array,
    readonly,
    require_int,
)
from reference.constrained_map.model import (
    Formula,
    MapProblem,
    MapResult,
    ProductPP,
    _check_nonnegative,
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
    breaks, coeffs, at = _merge_equal_neighbours(breaks, coeffs, at)
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


def _same_poly(p: FloatArray, q: FloatArray) -> bool:
    a = np.trim_zeros(np.asarray(p, dtype=np.float64), "b")
    b = np.trim_zeros(np.asarray(q, dtype=np.float64), "b")
    return a.shape == b.shape and bool(np.array_equal(a, b))


def _merge_equal_neighbours(
    breaks: list[float], coeffs: list[FloatArray], at: list[float]
) -> tuple[list[float], list[FloatArray], list[float]]:
    """Drop an interior breakpoint whose two pieces carry the same polynomial and whose value
    is that polynomial's (spec 04 §3.1 step d, "merge neighbours with identical polynomials")."""
    out_b, out_c, out_at = [breaks[0]], [coeffs[0]], [at[0]]
    for k in range(1, len(coeffs)):
        t = breaks[k]
        same = _same_poly(out_c[-1], coeffs[k])
        if same and abs(at[k] - float(npoly.polyval(t, coeffs[k]))) <= INSIDE_TOL * abs(at[k]):
            continue
        out_b.append(t)
        out_at.append(at[k])
        out_c.append(coeffs[k])
    out_b.append(breaks[-1])
    out_at.append(at[-1])
    return out_b, out_c, out_at


def _structure(
    problem: MapProblem,
) -> tuple[dict[int, list[int]], dict[tuple[int, int], list[int]]]:
    """Unary clause ids per variable and binary clause ids per edge (pairwise density factors
    are edges too, possibly without clauses); checks the fragment."""
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
    density = problem.density
    for k, pf in enumerate(density.pairwise if isinstance(density, ProductPP) else ()):
        key = (min(pf.i, pf.j), max(pf.i, pf.j))
        if key not in binary:
            ra, rb = find(key[0]), find(key[1])
            if ra == rb:
                raise NotImplementedError(
                    f"mp_map: pairwise factor {k} on variables {list(key)} closes a cycle in "
                    "the global graph; the MpMap fragment needs treewidth one (a forest)"
                )
            parent[ra] = rb
            binary[key] = []
    return unary, binary


def mp_map(problem: MapProblem) -> MapResult:
    """**MpMap**: exact max-product message passing on the tractable fragment.

    Fragment (``NotImplementedError`` otherwise): every clause mentions ≤ 2 variables, the
    global graph (clause edges and pairwise-factor edges) has treewidth one (a forest), and
    the density is in Ω^PP, ``w = Π_i w_i(x_i) · Π_(i,j) A_ij(x_i) B_ij(x_j)``
    (:class:`ProductPP` with optional :class:`PairwiseFactor`).  For each tree (root: smallest
    index) the variable→factor message ``b_j = w_j · 1[U_j] · Π_children m_{k→j}`` (Eq. 4) is
    computed in post-order; the factor→variable message (Eq. 5)
    ``m_{j→i}(x_i) = max{A(x_i) B(x_j) b_j(x_j) : Φ_ij(x_i, x_j)} = A(x_i) · maxout(B b_j)(x_i)``
    is an exact piecewise polynomial: for fixed ``x_i`` the feasible ``x_j`` form intervals
    with affine bounds in ``x_i``, maximised symbolically (:func:`max_out`, the paper's
    max-outPP, Thm A.5).  The root is maximised and the argmax decoded top-down (ties:
    smallest ``x``).

    Tractability (paper, Thm 4.5, as quoted by the reproduction; spec 04 §8): MAP under LRA
    constraints is exact and tractable when the global graph has treewidth ONE AND BOUNDED
    DIAMETER and the density satisfies the Tractable MAP Conditions (closed under product,
    tractable symbolic supremum over LRA bounds, tractable pointwise max of univariate members),
    which Ω^PP does.  MpMap is exact on every forest; its messages can grow exponentially in
    the diameter (Thm A.8; Prop. A.6 bounds one maximisation by ``8mq + 4m + 4`` pieces), so
    the cost is polynomial only for bounded diameter (:func:`message_piece_bound`).

    Args:
        problem: a :class:`MapProblem` with a :class:`ProductPP` density.

    Returns:
        :class:`MapResult`; ``feasible=False`` when Δ is unsatisfiable.  ``certified=True``
        unless the max-product pass returned 0 (``w = 0`` on ``F(Δ)``, or the beliefs fell below
        float64's range, about ``1e-308``): the point is then feasible but not certified as the
        argmax.  Value comparisons are relative, so scaling ``w`` keeps the argmax.

    Raises:
        TypeError: ``problem`` is not a :class:`MapProblem`.
        NotImplementedError: a clause over ≥ 3 variables, a cycle, or a non-PP density.

    Example:
        >>> from reference.constrained_map import worked_example
        >>> r = mp_map(worked_example())
        >>> [round(float(v), 12) for v in r.x], round(r.value, 12)
        ([1.0, 0.5], 0.6)

    References:
        Kurscheidt, Masina, Sebastiani, Vergari, "The Theory and Practice of MAP Inference over
        Non-Convex Constraints", ICML 2026, arXiv:2602.08681: MpMap (Alg. 1–3, Eqs. 4–6),
        Thm 4.5, Prop. A.6, Thm A.8 — known to us through the third-party reproduction
        ``Sahil170595/icml2026-paper-reproductions`` (spec 04 §8); the message construction is
        spec 04 §3.1 (our design after MP-WMI, Zeng et al.).
    """
    problem = _check_problem(problem)
    density = problem.density
    if not isinstance(density, ProductPP):
        raise NotImplementedError(
            "mp_map: expected a ProductPP density (product of univariate piecewise polynomials)"
        )
    x, value = _mp_pass(problem, density.factors, density=density)
    if value == 0.0:
        # A zero pass is not a verdict: Δ unsatisfiable, w = 0 on F(Δ), or beliefs below float64's
        # range.  Unit weights decide satisfiability (§5.9) and decode a feasible point; the point
        # is then not certified as the argmax.
        ones = tuple(
            _pp_constant(1.0, float(lo), float(hi))
            for lo, hi in zip(problem.lo, problem.hi, strict=True)
        )
        x, _ = _mp_pass(problem, ones)
    res = _result(problem, x, "MpMap", certified=value > 0.0)
    if x is not None and not res.feasible:  # pragma: no cover - would be a bug in the decoder
        raise RuntimeError(
            f"mp_map: decoded point violates Δ by {problem.formula.violation(res.x)}"
        )
    return res


def _pair_parts(
    density: ProductPP | None, parent: int, child: int
) -> tuple[PiecewisePolynomial | None, PiecewisePolynomial | None]:
    """Product of the pairwise parts on the edge: ``(Π A(x_parent), Π B(x_child))``."""
    outer: PiecewisePolynomial | None = None
    inner: PiecewisePolynomial | None = None
    for pf in density.pairwise if density is not None else ():
        if {pf.i, pf.j} == {parent, child}:
            a, b = pf.part(parent), pf.part(child)
            outer = a if outer is None else outer.multiply(a)
            inner = b if inner is None else inner.multiply(b)
    return outer, inner


def _mp_pass(
    problem: MapProblem,
    factors: Sequence[PiecewisePolynomial],
    keep: dict[int, PiecewisePolynomial] | None = None,
    messages: dict[tuple[int, int], PiecewisePolynomial] | None = None,
    density: ProductPP | None = None,
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
        sent: dict[int, PiecewisePolynomial] = {}  # B(x_v) · b_v, maximised out by the parent
        beliefs: dict[int, PiecewisePolynomial] = {}
        edges: dict[int, _Edge] = {}
        for v in reversed(order):  # post-order: children first
            lo_v, hi_v = float(problem.lo[v]), float(problem.hi[v])
            bel = factors[v].multiply(_pp_indicator(base[v], lo_v, hi_v))  # Eq. 4
            for u in adj[v]:
                if par.get(u) == v:
                    # Eq. 5: m(x_v) = max_{x_u} A(x_v) B(x_u) b_u(x_u) = A(x_v) · maxout(B b_u)
                    msg = _message(edges[u], sent[u], base[u], lo_v, hi_v)
                    outer, _ = _pair_parts(density, v, u)
                    if outer is not None:
                        msg = msg.multiply(outer)
                    if messages is not None:
                        messages[(u, v)] = msg
                    bel = bel.multiply(msg)
            beliefs[v] = bel
            if keep is not None:
                keep[v] = bel
            if par[v] >= 0:
                edges[v] = _make_edge(problem.formula, binary, par[v], v)
                _, inner = _pair_parts(density, par[v], v)
                sent[v] = bel if inner is None else bel.multiply(inner)
        value, arg = beliefs[root].argmax_on_intervals(base[root])
        if arg is None:
            return None, 0.0
        total *= value
        x[root] = arg
        for v in order[1:]:  # top-down decoding
            feas = edges[v].feasible_child(float(x[par[v]]), base[v])
            _, arg_v = sent[v].argmax_on_intervals(feas)
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
    _mp_pass(problem, problem.density.factors, keep, density=problem.density)
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


# ------------------------------------------------------------------ symbolic max and sizes
def prop_a6_bound(pieces: int, degree: int) -> int:
    """Prop. A.6's bound ``8mq + 4m + 4`` on the pieces of a symbolic maximum.

    The symbolic maximum of a degree-``q``, ``m``-piece polynomial over affine bounds has at
    most ``8mq + 4m + 4`` pieces (Kurscheidt et al., ICML 2026, Prop. A.6, as quoted by the
    reproduction; spec 04 §8).

    Args:
        pieces: ``m >= 1``.
        degree: ``q >= 0``.

    Returns:
        ``8mq + 4m + 4``.

    Raises:
        TypeError: non-integer arguments.
        ValueError: ``pieces < 1`` or ``degree < 0``.

    Example:
        >>> prop_a6_bound(3, 2)
        64
    """
    m = require_int("pieces", pieces, minimum=1)
    q = require_int("degree", degree, minimum=0)
    return 8 * m * q + 4 * m + 4


def max_out(
    q: PiecewisePolynomial,
    lower: tuple[float, float],
    upper: tuple[float, float],
    *,
    lo: float,
    hi: float,
) -> PiecewisePolynomial:
    """The paper's max-outPP: ``y ↦ max{q(x) : l(y) <= x <= u(y)}`` as a piecewise polynomial.

    ``l(y) = l₀ + l₁ y`` and ``u(y) = u₀ + u₁ y`` are affine; the result lives on
    ``[lo, hi]`` and is 0 where the interval is empty (message convention; ``q >= 0`` is
    0 outside its support).  Built by MpMap's message routine (spec 04 §3.1 step 3): critical
    values of ``y`` where a bound crosses a breakpoint or stationary point of ``q`` or the
    bounds cross, candidates ``q∘l``, ``q∘u`` and interior critical values per cell, upper
    envelope, equal neighbours merged.  Prop. A.6 bounds its pieces by ``8mq + 4m + 4``.

    Args:
        q: a non-negative :class:`PiecewisePolynomial` (``m`` pieces, degree ``q``).
        lower: ``(l₀, l₁)``.
        upper: ``(u₀, u₁)``.
        lo: left end of the ``y`` range.
        hi: right end (``> lo``).

    Returns:
        The maximum as a :class:`PiecewisePolynomial` in ``y`` on ``[lo, hi]``.

    Raises:
        TypeError: ``q`` is not a :class:`PiecewisePolynomial`.
        ValueError: non-finite bounds, ``hi <= lo``, or a negative ``q``.

    Example:
        >>> from reference.constrained_map import pp_from_pieces
        >>> q = pp_from_pieces([0.0, 1.0], [[0.0, 0.0, 1.0]])  # x² on [0, 1]
        >>> m = max_out(q, (0.0, 0.0), (0.0, 1.0), lo=0.0, hi=1.0)  # max of x² on [0, y]
        >>> round(m(0.5), 12), round(m(1.0), 12)
        (0.25, 1.0)

    References:
        Kurscheidt et al., ICML 2026: max-outPP (Thm A.5), Prop. A.6 (through the reproduction,
        spec 04 §8); construction: spec 04 §3.1 (our design).
    """
    if not isinstance(q, PiecewisePolynomial):
        raise TypeError(f"q: expected a PiecewisePolynomial, got {type(q).__name__}")
    vals = as_float_array("lower/upper/lo/hi", [*lower, *upper, lo, hi], shape=(6,))
    l0, l1, u0, u1, y_lo, y_hi = (float(v) for v in vals)
    if not y_hi > y_lo:
        raise ValueError(f"hi: expected hi > lo, got lo={y_lo}, hi={y_hi}")
    _check_nonnegative(q, -1, name="q")
    # x >= l0 + l1 y  ⟺  l1 y − x <= −l0 ;  x <= u0 + u1 y  ⟺  −u1 y + x <= u0
    edge = _Edge(0, 1, (((l1, -1.0, -l0),), ((-u1, 1.0, u0),)))
    return _message(edge, q, ((q.lo, q.hi),), y_lo, y_hi)


def mp_messages(problem: MapProblem) -> dict[tuple[int, int], PiecewisePolynomial]:
    """MpMap's factor→variable messages ``m_{j→i}`` keyed ``(child j, parent i)`` (roots: the
    smallest index of each tree), for inspecting their sizes (Thm A.8).

    Args:
        problem: as :func:`mp_map`.

    Returns:
        One :class:`PiecewisePolynomial` per tree edge.

    Raises:
        TypeError: ``problem`` is not a :class:`MapProblem`.
        NotImplementedError: outside the MpMap fragment.

    Example:
        >>> from reference.constrained_map import worked_example
        >>> m = mp_messages(worked_example())[(1, 0)]
        >>> round(m(0.25), 12), round(m(1.0), 12)
        (1.1, 0.6)
    """
    problem = _check_problem(problem)
    if not isinstance(problem.density, ProductPP):
        raise NotImplementedError("mp_messages: expected a ProductPP density")
    out: dict[tuple[int, int], PiecewisePolynomial] = {}
    _mp_pass(problem, problem.density.factors, messages=out, density=problem.density)
    return out


def _pieces_degree(f: PiecewisePolynomial) -> tuple[int, int]:
    return len(f.coeffs), max(f.degree, 0)


def _product_size(*sizes: tuple[int, int]) -> tuple[int, int]:
    """Pieces and degree of a product: breakpoints unite (``≤ Σ (m_f + 1) − 1`` pieces), degrees
    add."""
    return sum(m + 1 for m, _ in sizes) - 1, sum(q for _, q in sizes)


def message_piece_bound(problem: MapProblem) -> dict[tuple[int, int], int]:
    """Thm A.8-style bound on every MpMap message's pieces, by recursion over the tree.

    Our derivation (the theorem's statement is known to us only as "the worst case is
    exponential in the graph's diameter", spec 04 §8): a product has at most
    ``Σ (m_f + 1) − 1`` pieces and degree ``Σ q_f``; one symbolic maximum of an ``m``-piece,
    degree-``q`` belief over affine bounds has at most ``8mq + 4m + 4`` pieces (Prop. A.6) and
    degree ``q``.  Applied from the leaves up, the bound multiplies by ``≈ 8q`` per level and
    degrees add along paths, so it grows exponentially with the depth (the diameter) and only
    polynomially with the number of children (stars).

    Applies when every edge's constraint is one band, ``l(x_i) <= x_j <= u(x_i)`` with affine
    ``l``, ``u``: each clause on the edge is a single literal with ``a_j != 0``, at most one of
    each sign (Prop. A.6's setting).

    Args:
        problem: as :func:`mp_map`.

    Returns:
        The bound per message, keyed ``(child, parent)`` like :func:`mp_messages`.

    Raises:
        TypeError: ``problem`` is not a :class:`MapProblem`.
        NotImplementedError: outside the MpMap fragment.
        ValueError: an edge whose constraint is not a single affine band.

    Example:
        >>> from reference.constrained_map import make_formula, make_problem, pp_from_pieces
        >>> f = pp_from_pieces([0.0, 1.0], [[1.0]])
        >>> band = make_formula(2, [[([-1.0, 1.0], 0.2)], [([1.0, -1.0], 0.2)]])  # |x0−x1| <= .2
        >>> p = make_problem([0.0, 0.0], [1.0, 1.0], band, ProductPP(factors=(f, f)))
        >>> message_piece_bound(p)
        {(1, 0): 16}
    """
    problem = _check_problem(problem)
    density = problem.density
    if not isinstance(density, ProductPP):
        raise NotImplementedError("message_piece_bound: expected a ProductPP density")
    unary, binary = _structure(problem)
    for key, cids in binary.items():
        signs = []
        for cid in cids:
            clause = problem.formula.clauses[cid]
            lits = [problem.formula.literal(lit) for lit in clause]
            if len(lits) != 1 or any(
                float(a[key[0]]) == 0 or float(a[key[1]]) == 0 for a, _ in lits
            ):
                raise ValueError(
                    f"problem: edge {list(key)} clause {cid} is not a single literal on both "
                    "variables (Prop. A.6 needs one affine band per edge)"
                )
            signs.append(float(lits[0][0][key[1]]) > 0)
        if signs.count(True) > 1 or signs.count(False) > 1:
            raise ValueError(
                f"problem: edge {list(key)} has more than one lower or upper bound "
                "(Prop. A.6 needs one affine band per edge)"
            )
    n = problem.n
    adj: dict[int, list[int]] = {i: [] for i in range(n)}
    for a, b in binary:
        adj[a].append(b)
        adj[b].append(a)
    out: dict[tuple[int, int], int] = {}
    sizes: dict[tuple[int, int], tuple[int, int]] = {}
    seen = [False] * n
    for root in range(n):
        if seen[root]:
            continue
        order, par = [root], {root: -1}
        seen[root] = True
        for v in order:
            for u in sorted(adj[v]):
                if not seen[u]:
                    seen[u] = True
                    par[u] = v
                    order.append(u)
        for v in reversed(order):
            if par[v] < 0:
                continue
            base = _unary_set(
                problem.formula, unary[v], v, float(problem.lo[v]), float(problem.hi[v])
            )
            ind = _pp_indicator(base, float(problem.lo[v]), float(problem.hi[v]))
            parts = [_pieces_degree(density.factors[v]), _pieces_degree(ind)]
            parts += [sizes[(u, v)] for u in adj[v] if par.get(u) == v]
            outer, inner = _pair_parts(density, par[v], v)
            if inner is not None:
                parts.append(_pieces_degree(inner))
            m, q = _product_size(*parts)
            size = (prop_a6_bound(max(m, 1), q), q)  # Prop. A.6
            if outer is not None:
                size = _product_size(size, _pieces_degree(outer))
            sizes[(v, par[v])] = size
            out[(v, par[v])] = size[0]
    return out
