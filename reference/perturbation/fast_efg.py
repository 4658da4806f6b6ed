"""Fast path of the sequence-form dynamics (spec 19 §3.6, §8) for the long extensive-form runs.

:func:`run` does what :mod:`reference.extensive`'s ``asymp_dgda`` / ``symp_dgda``
(``variant="official"``), ``dgda``, ``dmwu`` (DMWU, DOMWU) and ``dogda`` do with ``tol=None``:
the same per-information-set steps in the same order, the NashConv of the output pair after every
iteration, the same result type (:class:`reference.extensive.EFGResult`).  The differences, all
of the arithmetic kind:

* the payoff is held sparse (CSR of ``A`` and of ``Aᵀ``; Leduc's 337 x 337 ``A`` has 966
  non-zeros, Liar's Dice's 24571 x 24571 about 1.5e5), so a product sums its row's non-zeros in
  index order where the reference calls BLAS on the dense matrix: the sums may round differently
  by a few ulps;
* the loops over information sets run compiled (numba, the optional ``[fast]`` extra) when numba
  imports, else as the same Python source (slow; it exists so that the check below runs without
  numba).

:func:`run_cfr` runs the CFR-family baselines of spec 19 §8 (CFR, CFR+, DCFR, LCFR; average
plans) on the same :class:`FastGame`, in OpenSpiel's update order or in
:mod:`reference.extensive.cfr`'s (the ``convention`` argument); its result is a
:class:`reference.extensive.CFRResult`.  Regret matching divides by the sum of the positive
regrets, so on some games (Goofspiel-4 under CFR and LCFR) ulp-level differences in the sums
grow over the iterations: two correct implementations that sum in other orders drift apart
slowly (measured: NashConv of the average 8e-10 apart after 200 CFR iterations).

A :class:`FastGame` can be built from a :class:`reference.extensive.SequenceFormGame`
(:func:`from_game`) or directly from treeplex arrays and sparse entries (:func:`from_arrays`),
for games whose dense ``A`` would not fit in memory (Liar's Dice).
``tests/perturbation/test_fast_efg.py`` runs every method against the reference on Kuhn and
Leduc poker, and the CFR family against the reference's CFR / CFR+, a history-walking
implementation in the test, and OpenSpiel's solvers (where installed).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np

from reference._arrays import (
    FloatArray,
    IntArray,
    _real_scalar,
    readonly,
    require_int,
    require_positive,
)
from reference._repr import summary_repr
from reference.extensive.cfr import CFRResult
from reference.extensive.solvers import EFGResult
from reference.extensive.tree import SequenceFormGame, Treeplex

__all__ = [
    "CFR_METHODS",
    "CONVENTIONS",
    "METHODS",
    "FastCFRResult",
    "FastGame",
    "compiled",
    "from_arrays",
    "from_game",
    "run",
    "run_cfr",
]

#: Method names of :func:`run` (the reference function each mirrors in brackets):
#: AsymP-DGDA [asymp_dgda, official], SymP-DGDA [symp_dgda, official], DGDA [dgda],
#: DMWU [dmwu], DOMWU [dmwu(optimistic=True)], DOGDA [dogda].
METHODS = ("AsymP-DGDA", "SymP-DGDA", "DGDA", "DMWU", "DOMWU", "DOGDA")

#: Method names of :func:`run_cfr`: CFR (Zinkevich et al. 2007), CFR+ (Tammelin et al. 2015),
#: DCFR and LCFR (Brown and Sandholm 2019).
CFR_METHODS = ("CFR", "CFR+", "DCFR", "LCFR")

#: Conventions of :func:`run_cfr`: the update order and averaging of OpenSpiel's solvers, or of
#: :mod:`reference.extensive.cfr`.
CONVENTIONS = ("openspiel", "reference")

_numba: ModuleType | None
try:
    _numba = importlib.import_module("numba")
except ImportError:  # pragma: no cover - depends on the environment
    _numba = None

#: The run loop is compiled on the next call (numba imports and tests did not switch it off).
ENABLED: bool = _numba is not None


def compiled() -> bool:
    """Whether :func:`run` uses the numba-compiled loop."""
    return _numba is not None and ENABLED


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class FastGame:
    """Treeplexes as arrays and the payoff as CSR of ``A`` and ``Aᵀ``.

    Attributes:
        n1, n2: number of sequences of player 1 (``x``, minimiser) and player 2.
        x_tree, y_tree: ``(J, 3)`` read-only int arrays, rows ``(start, size, parent)`` per
            information set in topological order (a parent's infoset first).
        a_ptr, a_idx, a_val: CSR of ``A`` (``n1`` rows).
        at_ptr, at_idx, at_val: CSR of ``Aᵀ`` (``n2`` rows).
    """

    n1: int
    n2: int
    x_tree: IntArray
    y_tree: IntArray
    a_ptr: IntArray
    a_idx: IntArray
    a_val: FloatArray
    at_ptr: IntArray
    at_idx: IntArray
    at_val: FloatArray


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class FastCFRResult(CFRResult):
    """Average plans of a CFR-family run, and NashConv of the average at checkpoints.

    Besides :class:`reference.extensive.CFRResult`'s ``x``, ``y``, ``nash_conv`` of ``(x, y)``
    and ``iterations``:

    Attributes:
        checkpoints: increasing iteration counts ``t`` (the last is ``iterations``).
        history: NashConv of the average plans after ``t`` iterations, per checkpoint.
        method, convention: what ran.
        alpha, beta, gamma: the discount parameters DCFR ran with (LCFR: 1, 1, 1; CFR and
            CFR+: no discounting, reported as 0, 0, 0 and 0, 0, 1).
    """

    checkpoints: IntArray
    history: FloatArray
    method: str
    convention: str
    alpha: float
    beta: float
    gamma: float


def _tree_array(space: Treeplex) -> IntArray:
    rows = np.array(space.layout, dtype=np.int64).reshape(-1, 3)
    return readonly(rows)


def _csr(
    rows: IntArray, cols: IntArray, vals: FloatArray, n_rows: int
) -> tuple[IntArray, IntArray, FloatArray]:
    order = np.lexsort((cols, rows))
    r, c, v = rows[order], cols[order], vals[order]
    ptr = np.zeros(n_rows + 1, dtype=np.int64)
    np.add.at(ptr, r + 1, 1)
    return (
        readonly(np.cumsum(ptr).astype(np.int64)),
        readonly(c.astype(np.int64)),
        readonly(v.astype(np.float64)),
    )


def _check_tree(name: str, tree: object, n: int) -> IntArray:
    arr = np.asarray(tree)
    if arr.ndim != 2 or arr.shape[1] != 3 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name}: expected a (J, 3) integer array of (start, size, parent) rows")
    out = arr.astype(np.int64)
    if out.size and (
        out[:, 0].min() < 1 or (out[:, 0] + out[:, 1]).max() > n or out[:, 1].min() < 1
    ):
        raise ValueError(f"{name}: sequences outside 1..{n - 1} or an empty information set")
    if out.size and np.any(out[:, 2] >= out[:, 0]):
        raise ValueError(f"{name}: a parent sequence must come before its information set")
    return readonly(out)


def from_arrays(
    n1: int,
    n2: int,
    x_tree: object,
    y_tree: object,
    rows: object,
    cols: object,
    vals: object,
) -> FastGame:
    """A :class:`FastGame` from ``(start, size, parent)`` rows and the non-zeros of ``A``
    (``A[rows[i], cols[i]] += vals[i]``; repeated pairs are kept as separate terms).

    Raises:
        TypeError: ``n1`` or ``n2`` not an int.
        ValueError: sizes < 1, malformed trees, entries out of range or non-finite.
    """
    m1 = require_int("n1", n1, minimum=1)
    m2 = require_int("n2", n2, minimum=1)
    xt = _check_tree("x_tree", x_tree, m1)
    yt = _check_tree("y_tree", y_tree, m2)
    r = np.asarray(rows, dtype=np.int64).ravel()
    c = np.asarray(cols, dtype=np.int64).ravel()
    v = np.asarray(vals, dtype=np.float64).ravel()
    if not (r.size == c.size == v.size):
        raise ValueError("rows, cols, vals: expected equal lengths")
    if r.size and (r.min() < 0 or r.max() >= m1 or c.min() < 0 or c.max() >= m2):
        raise ValueError("rows, cols: an entry lies outside A's shape")
    if not np.all(np.isfinite(v)):
        raise ValueError("vals: expected finite numbers")
    a_ptr, a_idx, a_val = _csr(r, c, v, m1)
    at_ptr, at_idx, at_val = _csr(c, r, v, m2)
    return FastGame(
        n1=m1,
        n2=m2,
        x_tree=xt,
        y_tree=yt,
        a_ptr=a_ptr,
        a_idx=a_idx,
        a_val=a_val,
        at_ptr=at_ptr,
        at_idx=at_idx,
        at_val=at_val,
    )


def from_game(game: SequenceFormGame) -> FastGame:
    """The :class:`FastGame` of a :class:`reference.extensive.SequenceFormGame`.

    Raises:
        TypeError: ``game`` is not a SequenceFormGame.
    """
    if not isinstance(game, SequenceFormGame):
        raise TypeError(f"game: expected a SequenceFormGame, got {type(game).__name__}")
    a = np.asarray(game.payoff)
    r, c = np.nonzero(a)
    return from_arrays(
        a.shape[0],
        a.shape[1],
        _tree_array(game.x_space),
        _tree_array(game.y_space),
        r,
        c,
        a[r, c],
    )


# ------------------------------------------------------------------------------ kernels
def _build(jit: Callable[[Any], Any]) -> SimpleNamespace:
    """The loops, each passed through ``jit`` (numba's ``njit`` or the identity)."""

    @jit
    def matvec(
        ptr: IntArray, idx: IntArray, val: FloatArray, v: FloatArray, out: FloatArray
    ) -> None:
        for i in range(ptr.size - 1):
            s = 0.0
            for k in range(ptr[i], ptr[i + 1]):
                s += val[k] * v[idx[k]]
            out[i] = s

    @jit
    def to_plan(tree: IntArray, b: FloatArray, x: FloatArray) -> None:
        x[0] = 1.0
        for j in range(tree.shape[0]):
            s, k, p = tree[j, 0], tree[j, 1], tree[j, 2]
            mass = x[p]
            for i in range(s, s + k):
                x[i] = mass * b[i]

    @jit
    def br_value(tree: IntArray, c: FloatArray, acc: FloatArray, maximise: bool) -> float:
        for i in range(c.size):
            acc[i] = c[i]
        for j in range(tree.shape[0] - 1, -1, -1):
            s, k, p = tree[j, 0], tree[j, 1], tree[j, 2]
            best = acc[s]
            for i in range(s + 1, s + k):
                if (acc[i] > best) if maximise else (acc[i] < best):
                    best = acc[i]
            acc[p] += best
        return float(acc[0])

    @jit
    def prox(
        tree: IntArray,
        c: FloatArray,
        b_hat: FloatArray,
        b: FloatArray,
        acc: FloatArray,
        vbuf: FloatArray,
        ubuf: FloatArray,
        entropy: bool,
    ) -> None:
        # the bottom-up local steps of reference.extensive.dilated._prox (kappa = 0)
        for i in range(c.size):
            acc[i] = c[i]
        b[0] = b_hat[0]
        for j in range(tree.shape[0] - 1, -1, -1):
            s, k, p = tree[j, 0], tree[j, 1], tree[j, 2]
            value = 0.0
            if entropy:
                top = -math.inf
                for i in range(k):
                    bh = b_hat[s + i]
                    vbuf[i] = math.log(bh) - acc[s + i] if bh > 0.0 else -math.inf
                    if vbuf[i] > top:
                        top = vbuf[i]
                total = 0.0
                for i in range(k):
                    vbuf[i] = math.exp(vbuf[i] - top)
                    total += vbuf[i]
                for i in range(k):
                    b[s + i] = vbuf[i] / total
                value = -(top + math.log(total))
            else:
                for i in range(k):
                    vbuf[i] = (b_hat[s + i] - acc[s + i]) * 1.0
                if k == 1:
                    b[s] = 1.0
                elif k == 2:
                    q = min(1.0, max(0.0, 0.5 * (vbuf[0] - vbuf[1] + 1.0)))
                    b[s] = q
                    b[s + 1] = 1.0 - q
                else:
                    for i in range(k):  # insertion sort, decreasing
                        u = vbuf[i]
                        m = i
                        while m > 0 and ubuf[m - 1] < u:
                            ubuf[m] = ubuf[m - 1]
                            m -= 1
                        ubuf[m] = u
                    total = 0.0
                    theta = 0.0
                    for i in range(k):
                        total += ubuf[i]
                        candidate = (total - 1.0) / (i + 1)
                        if ubuf[i] - candidate > 0.0:
                            theta = candidate
                    for i in range(k):
                        b[s + i] = max(vbuf[i] - theta, 0.0)
                for i in range(k):
                    bi, bh, ch = b[s + i], b_hat[s + i], acc[s + i]
                    value += ch * bi + 0.5 * (bi - bh) ** 2 + 0.5 * 0.0 * bi * bi
            acc[p] += value

    @jit
    def nash_conv(
        g: tuple[Any, ...],
        x: FloatArray,
        y: FloatArray,
        cx: FloatArray,
        cy: FloatArray,
        ax: FloatArray,
        ay: FloatArray,
    ) -> float:
        a_ptr, a_idx, a_val, at_ptr, at_idx, at_val, xt, yt = g
        matvec(at_ptr, at_idx, at_val, x, cy)
        upper = br_value(yt, cy, ay, True)
        matvec(a_ptr, a_idx, a_val, y, cx)
        lower = br_value(xt, cx, ax, False)
        return float(upper - lower)

    @jit
    def side_step(
        g: tuple[Any, ...],
        bp: FloatArray,
        p: FloatArray,
        bq: FloatArray,
        q: FloatArray,
        mu_p: float,
        mu_q: float,
        step_size: float,
        w: tuple[Any, ...],
    ) -> None:
        # reference.extensive.solvers._Side.step, variant "official" (mu = 0: plain DGDA)
        a_ptr, a_idx, a_val, at_ptr, at_idx, at_val, xt, yt = g
        gx, gy, cx, cy, nbx, nby, ax, ay, vbuf, ubuf = w
        matvec(a_ptr, a_idx, a_val, q, gx)
        for i in range(gx.size):
            cx[i] = step_size * (gx[i] + mu_p * bp[i])
        prox(xt, cx, bp, nbx, ax, vbuf, ubuf, False)
        bp[:] = nbx
        to_plan(xt, bp, p)
        matvec(at_ptr, at_idx, at_val, p, gy)
        for i in range(gy.size):
            cy[i] = -step_size * (gy[i] - mu_q * bq[i])
        prox(yt, cy, bq, nby, ay, vbuf, ubuf, False)
        bq[:] = nby
        to_plan(yt, bq, q)

    @jit
    def run_alternating(
        g: tuple[Any, ...],
        two: bool,
        mu_a: float,
        mu_b: float,
        step_size: float,
        iters: int,
        bx0: FloatArray,
        by0: FloatArray,
        w: tuple[Any, ...],
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        # two = True: AsymP (x run perturbs x by mu_a, y run perturbs y by mu_a); else one run
        # with (mu_a, mu_b) on (x, y)
        n1, n2 = bx0.size, by0.size
        bxa, bya, bxb, byb = bx0.copy(), by0.copy(), bx0.copy(), by0.copy()
        xa, ya, xb, yb = np.empty(n1), np.empty(n2), np.empty(n1), np.empty(n2)
        to_plan(g[6], bxa, xa)
        to_plan(g[7], bya, ya)
        to_plan(g[6], bxb, xb)
        to_plan(g[7], byb, yb)
        hist = np.empty(iters + 1)
        cx, cy = w[2], w[3]
        ax, ay = w[6], w[7]
        hist[0] = nash_conv(g, xa, yb if two else ya, cx, cy, ax, ay)
        for t in range(iters):
            if two:
                side_step(g, bxa, xa, bya, ya, mu_a, 0.0, step_size, w)
                side_step(g, bxb, xb, byb, yb, 0.0, mu_a, step_size, w)
                hist[t + 1] = nash_conv(g, xa, yb, cx, cy, ax, ay)
            else:
                side_step(g, bxa, xa, bya, ya, mu_a, mu_b, step_size, w)
                hist[t + 1] = nash_conv(g, xa, ya, cx, cy, ax, ay)
        if two:
            return xa, yb, hist
        return xa, ya, hist

    @jit
    def run_simultaneous(
        g: tuple[Any, ...],
        entropy: bool,
        optimistic: bool,
        step_size: float,
        iters: int,
        bx0: FloatArray,
        by0: FloatArray,
        w: tuple[Any, ...],
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        # reference.extensive.solvers._optimistic
        a_ptr, a_idx, a_val, at_ptr, at_idx, at_val, xt, yt = g
        gx, gy, cx, cy, nbx, nby, ax, ay, vbuf, ubuf = w
        bx, by = bx0.copy(), by0.copy()
        x, y = np.empty(bx.size), np.empty(by.size)
        to_plan(xt, bx, x)
        to_plan(yt, by, y)
        gx_prev, gy_prev = np.empty(bx.size), np.empty(by.size)
        matvec(a_ptr, a_idx, a_val, y, gx_prev)
        matvec(at_ptr, at_idx, at_val, x, gy_prev)
        hist = np.empty(iters + 1)
        hist[0] = nash_conv(g, x, y, cx, cy, ax, ay)
        for t in range(iters):
            matvec(a_ptr, a_idx, a_val, y, gx)
            matvec(at_ptr, at_idx, at_val, x, gy)
            for i in range(gx.size):
                cx[i] = step_size * (2.0 * gx[i] - gx_prev[i] if optimistic else gx[i])
            for i in range(gy.size):
                cy[i] = -step_size * (2.0 * gy[i] - gy_prev[i] if optimistic else gy[i])
            prox(xt, cx, bx, nbx, ax, vbuf, ubuf, entropy)
            prox(yt, cy, by, nby, ay, vbuf, ubuf, entropy)
            bx[:] = nbx
            by[:] = nby
            to_plan(xt, bx, x)
            to_plan(yt, by, y)
            gx_prev[:] = gx
            gy_prev[:] = gy
            hist[t + 1] = nash_conv(g, x, y, cx, cy, ax, ay)
        return x, y, hist

    @jit
    def regret_match(tree: IntArray, r: FloatArray, b: FloatArray) -> None:
        # b_j proportional to max(R_j, 0), uniform when that is zero (regret matching)
        for j in range(tree.shape[0]):
            s, k = tree[j, 0], tree[j, 1]
            total = 0.0
            for i in range(s, s + k):
                if r[i] > 0.0:
                    total += r[i]
            for i in range(s, s + k):
                if total > 0.0:
                    b[i] = r[i] / total if r[i] > 0.0 else 0.0
                else:
                    b[i] = 1.0 / k

    @jit
    def cf_regrets(
        tree: IntArray, b: FloatArray, loss: FloatArray, below: FloatArray, out: FloatArray
    ) -> None:
        # reference.extensive.cfr._regrets: bottom-up values, regret = value - action loss
        for i in range(below.size):
            below[i] = 0.0
        for j in range(tree.shape[0] - 1, -1, -1):
            s, k, p = tree[j, 0], tree[j, 1], tree[j, 2]
            value = 0.0
            for i in range(s, s + k):
                value += b[i] * (loss[i] + below[i])
            for i in range(s, s + k):
                out[i] = value - (loss[i] + below[i])
            below[p] += value

    @jit
    def add_regrets(
        r: FloatArray, inst: FloatArray, plus: bool, discount: bool, d_pos: float, d_neg: float
    ) -> None:
        for i in range(r.size):
            v = r[i] + inst[i]
            if plus and v < 0.0:
                v = 0.0
            if discount:
                v *= d_pos if v >= 0.0 else d_neg
            r[i] = v

    @jit
    def run_cfr(
        g: tuple[Any, ...],
        scheme: int,
        plus: bool,
        discount: bool,
        alpha: float,
        beta: float,
        power: float,
        iters: int,
        checks: IntArray,
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        # scheme 0: simultaneous; 1: alternating, each average takes the plan played in the
        # iteration; 2: alternating, x's average takes x after its update (reference CFR+)
        a_ptr, a_idx, a_val, at_ptr, at_idx, at_val, xt, yt = g
        n1, n2 = a_ptr.size - 1, at_ptr.size - 1
        rx, ry = np.zeros(n1), np.zeros(n2)
        ix, iy = np.zeros(n1), np.zeros(n2)
        bx, by = np.empty(n1), np.empty(n2)
        x, y = np.empty(n1), np.empty(n2)
        sx, sy = np.zeros(n1), np.zeros(n2)
        lx, ly = np.empty(n1), np.empty(n2)
        ux, uy = np.empty(n1), np.empty(n2)
        ax, ay = np.empty(n1), np.empty(n2)
        regret_match(xt, rx, bx)
        regret_match(yt, ry, by)
        to_plan(xt, bx, x)
        to_plan(yt, by, y)
        hist = np.empty(checks.size)
        weights = 0.0
        c = 0
        for t in range(1, iters + 1):
            w = float(t) ** power
            d_pos, d_neg = 1.0, 1.0
            if discount:
                d_pos = float(t) ** alpha / (float(t) ** alpha + 1.0)
                d_neg = float(t) ** beta / (float(t) ** beta + 1.0)
            matvec(a_ptr, a_idx, a_val, y, lx)
            cf_regrets(xt, bx, lx, ux, ix)
            if scheme == 0:
                matvec(at_ptr, at_idx, at_val, x, ly)
                for i in range(n2):
                    ly[i] = -ly[i]
                cf_regrets(yt, by, ly, uy, iy)
                add_regrets(rx, ix, plus, discount, d_pos, d_neg)
                add_regrets(ry, iy, plus, discount, d_pos, d_neg)
                for i in range(n1):
                    sx[i] += w * x[i]
                for i in range(n2):
                    sy[i] += w * y[i]
                regret_match(xt, rx, bx)
                regret_match(yt, ry, by)
                to_plan(xt, bx, x)
                to_plan(yt, by, y)
            else:
                add_regrets(rx, ix, plus, discount, d_pos, d_neg)
                if scheme == 1:
                    for i in range(n1):
                        sx[i] += w * x[i]
                regret_match(xt, rx, bx)
                to_plan(xt, bx, x)
                if scheme == 2:
                    for i in range(n1):
                        sx[i] += w * x[i]
                matvec(at_ptr, at_idx, at_val, x, ly)
                for i in range(n2):
                    ly[i] = -ly[i]
                cf_regrets(yt, by, ly, uy, iy)
                add_regrets(ry, iy, plus, discount, d_pos, d_neg)
                for i in range(n2):
                    sy[i] += w * y[i]
                regret_match(yt, ry, by)
                to_plan(yt, by, y)
            weights += w
            if c < checks.size and checks[c] == t:
                hist[c] = nash_conv(g, sx / weights, sy / weights, lx, ly, ax, ay)
                c += 1
        return sx / weights, sy / weights, hist

    return SimpleNamespace(
        run_alternating=run_alternating, run_simultaneous=run_simultaneous, run_cfr=run_cfr
    )


def _identity(function: Any) -> Any:
    return function


_PLAIN = _build(_identity)
_compiled: SimpleNamespace | None = None


def _kernels() -> SimpleNamespace:
    global _compiled
    if not compiled() or _numba is None:
        return _PLAIN
    if _compiled is None:
        _compiled = _build(_numba.njit(nogil=True))
    return _compiled


def _uniform(tree: IntArray, n: int) -> FloatArray:
    b = np.ones(n)
    for s, k, _ in tree.tolist():
        b[s : s + k] = 1.0 / k
    return b


def _kernel_arrays(game: FastGame) -> tuple[Any, ...]:
    """The game's arrays in the order every kernel takes them (A and Aᵀ in CSR, the two trees)."""
    return (
        game.a_ptr,
        game.a_idx,
        game.a_val,
        game.at_ptr,
        game.at_idx,
        game.at_val,
        game.x_tree,
        game.y_tree,
    )


def run(
    game: FastGame, method: str, *, step_size: float, mu: float = 0.0, iterations: int
) -> EFGResult:
    """Run ``method`` (one of :data:`METHODS`) for ``iterations`` iterations from the uniform
    behavioural strategies; NashConv of the output pair after each.

    The reference's ``step_size`` and ``mu`` (``mu`` only for AsymP-DGDA and SymP-DGDA, where it must
    be ``> 0``; the other methods ignore it and report 0).  Each iteration of AsymP-DGDA advances
    its two runs once, as the reference does.

    Returns:
        The reference's :class:`reference.extensive.EFGResult`, as its function returns it with
        ``tol=None``: ``x``, ``y`` the output pair (AsymP-DGDA: ``x`` of the x run, ``y`` of the
        y run); ``history`` the ``(iterations + 1,)`` NashConv of the output pair from the uniform
        start; ``nash_conv`` its last entry (the NashConv of ``(x, y)``, computed on the sparse
        payoff); ``iterations``; ``mu`` and ``step_size`` as run.  There is no stopping test, so
        ``converged`` is always ``False`` and ``stop_reason`` always ``"max_iter"``.

    Raises:
        TypeError: ``game`` is not a FastGame; non-numeric parameters.
        ValueError: unknown method, ``step_size <= 0``, ``mu <= 0`` for a perturbed method,
            ``iterations < 0``.
    """
    if not isinstance(game, FastGame):
        raise TypeError(f"game: expected a FastGame, got {type(game).__name__}")
    if method not in METHODS:
        raise ValueError(f"method: expected one of {METHODS}, got {method!r}")
    step = require_positive("step_size", step_size)
    iters = require_int("iterations", iterations, minimum=0)
    perturbed = method in ("AsymP-DGDA", "SymP-DGDA")
    m = require_positive("mu", mu) if perturbed else 0.0
    g = _kernel_arrays(game)
    widest = max(int(game.x_tree[:, 1].max(initial=1)), int(game.y_tree[:, 1].max(initial=1)))
    n1, n2 = game.n1, game.n2
    w = (
        np.empty(n1),
        np.empty(n2),
        np.empty(n1),
        np.empty(n2),
        np.empty(n1),
        np.empty(n2),
        np.empty(n1),
        np.empty(n2),
        np.empty(widest),
        np.empty(widest),
    )
    bx0, by0 = _uniform(game.x_tree, n1), _uniform(game.y_tree, n2)
    k = _kernels()
    if method == "AsymP-DGDA":
        x, y, hist = k.run_alternating(g, True, m, 0.0, step, iters, bx0, by0, w)
    elif method == "SymP-DGDA":
        x, y, hist = k.run_alternating(g, False, m, m, step, iters, bx0, by0, w)
    elif method == "DGDA":
        x, y, hist = k.run_alternating(g, False, 0.0, 0.0, step, iters, bx0, by0, w)
    else:
        entropy = method in ("DMWU", "DOMWU")
        optimistic = method in ("DOMWU", "DOGDA")
        x, y, hist = k.run_simultaneous(g, entropy, optimistic, step, iters, bx0, by0, w)
    history = np.asarray(hist)
    return EFGResult(
        x=readonly(np.asarray(x)),
        y=readonly(np.asarray(y)),
        nash_conv=float(history[-1]),
        iterations=iters,
        converged=False,
        stop_reason="max_iter",
        history=readonly(history),
        mu=m,
        step_size=step,
    )


def _checkpoints(checkpoints: object, iters: int) -> IntArray:
    if checkpoints is None:
        return np.array([iters], dtype=np.int64)
    raw = np.asarray(checkpoints)
    if raw.ndim != 1 or (raw.size and not np.issubdtype(raw.dtype, np.integer)):
        raise ValueError("checkpoints: expected a 1-D sequence of ints")
    c = raw.astype(np.int64)
    if c.size and (c.min() < 1 or c.max() > iters):
        raise ValueError(f"checkpoints: expected values in 1..{iters}, got {c.min()}..{c.max()}")
    return np.unique(np.r_[c, iters]).astype(np.int64)


def run_cfr(
    game: FastGame,
    method: str,
    *,
    iterations: int,
    convention: str,
    checkpoints: object = None,
    alpha: float = 1.5,
    beta: float = 0.0,
    gamma: float = 2.0,
) -> FastCFRResult:
    """Run the CFR-family ``method`` (one of :data:`CFR_METHODS`) for ``iterations`` iterations
    on the sequence form; average plans and their NashConv.

    Counterfactual regrets per information set as in :mod:`reference.extensive.cfr` (player 1,
    ``x``, against the sequence losses ``A y``; player 2 against ``-Aᵀ x``), regret matching
    ``b_j ∝ max(R_j, 0)`` (uniform when all are ``<= 0``); uniform start.

    * CFR (Zinkevich et al., 2007): cumulative regrets, average weight 1.
    * CFR+ (Tammelin et al., 2015): regret matching+ (cumulative regrets clipped at 0 after each
      update), average weight ``t``.
    * DCFR(α, β, γ) (Brown and Sandholm, 2019): after each update the cumulative regrets are
      multiplied by ``t^α / (t^α + 1)`` where ``>= 0`` and by ``t^β / (t^β + 1)`` where
      negative; average weight ``t^γ``.  Defaults: the paper's α = 3/2, β = 0, γ = 2.
    * LCFR: DCFR(1, 1, 1) (regrets and average weighted by ``t``).

    ``convention`` (no default: the two differ and both are in use):

    * ``"openspiel"``: OpenSpiel's solvers (C++ ``CFRSolver``, ``CFRPlusSolver``, Python
      ``DCFRSolver``, ``LCFRSolver``): alternating updates for every method, player 1 first,
      player 2's regrets against player 1's updated strategy; each player's average takes the
      plan it played in iteration ``t`` (before its update).
    * ``"reference"``: :func:`reference.extensive.cfr` / :func:`~reference.extensive.cfr_plus`:
      CFR, DCFR and LCFR with simultaneous updates (both players' regrets against the same
      pair); CFR+ alternating as OpenSpiel's, but ``x``'s average takes ``x`` after its update
      in iteration ``t``.

    Args:
        game: a :class:`FastGame`.
        method: ``"CFR"``, ``"CFR+"``, ``"DCFR"`` or ``"LCFR"``.
        iterations: ``T >= 1``.
        convention: ``"openspiel"`` or ``"reference"``.
        checkpoints: iteration counts (ints in ``1..T``) at which the NashConv of the average
            so far is recorded; ``T`` is always added.  Default: ``T`` only.
        alpha, beta, gamma: DCFR's parameters (used by DCFR only; ``alpha, gamma >= 0``).

    Returns:
        A :class:`FastCFRResult` (a :class:`reference.extensive.CFRResult`).

    Raises:
        TypeError: ``game`` is not a FastGame; non-integer ``iterations``; non-numeric
            discount parameters.
        ValueError: unknown method or convention, ``iterations < 1``, checkpoints out of range,
            negative ``alpha`` or ``gamma``.
    """
    if not isinstance(game, FastGame):
        raise TypeError(f"game: expected a FastGame, got {type(game).__name__}")
    if method not in CFR_METHODS:
        raise ValueError(f"method: expected one of {CFR_METHODS}, got {method!r}")
    if convention not in CONVENTIONS:
        raise ValueError(f"convention: expected one of {CONVENTIONS}, got {convention!r}")
    iters = require_int("iterations", iterations, minimum=1)
    checks = _checkpoints(checkpoints, iters)
    a = require_positive("alpha", alpha, allow_zero=True)
    g_ = require_positive("gamma", gamma, allow_zero=True)
    b = _real_scalar("beta", beta)
    if method == "DCFR":
        params = (a, b, g_)
    elif method == "LCFR":
        params = (1.0, 1.0, 1.0)
    else:
        params = (0.0, 0.0, 1.0 if method == "CFR+" else 0.0)
    # the kernel's update order: 1 alternating (OpenSpiel), 2 reference CFR+, 0 simultaneous
    scheme = 1 if convention == "openspiel" else (2 if method == "CFR+" else 0)
    g = _kernel_arrays(game)
    x, y, hist = _kernels().run_cfr(
        g,
        scheme,
        method == "CFR+",
        method in ("DCFR", "LCFR"),
        params[0],
        params[1],
        params[2],
        iters,
        checks,
    )
    h = np.asarray(hist)
    return FastCFRResult(
        x=readonly(np.asarray(x)),
        y=readonly(np.asarray(y)),
        nash_conv=float(h[-1]),
        iterations=iters,
        checkpoints=readonly(checks),
        history=readonly(h),
        method=method,
        convention=convention,
        alpha=params[0],
        beta=params[1],
        gamma=params[2],
    )
