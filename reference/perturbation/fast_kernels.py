"""Loops of the perturbation fast path: compiled with numba (the ``[fast]`` extra) or plain numpy.

Part of :mod:`reference.perturbation` (used by :mod:`reference.perturbation.fast`).  Every
kernel does the arithmetic of the reference (:mod:`reference.perturbation.base`) in the same
order on the same vectors: the alternating step ``x ← Π(x - η(Ay + μ_x x))``,
``y ← Π(y + η(Aᵀx - μ_y y))`` (``μ_y = 0``: the x-side run of AsymP-GDA; ``μ_x = 0``: the
mirrored run; both: SymP-GDA; neither: GDA), the simplex projection of Algorithm P (sort,
cumulative sum, threshold), and the stopping quantities.  What the fast path saves is the
reference's per-step overhead: validation, Python floats and lists, one result record per
run; compiled, the whole loop runs without the interpreter.

Two builds of the same source (:func:`_build`):

* ``NUMPY``: the functions as written, with the reference's own products (``A @ y``,
  ``A.T @ x``, ``x @ A``) and projection (:func:`reference.games.base._project`): a plain numpy
  loop (no compiler needed) whose results are the reference's to the bit (measured);
* compiled (only when numba imports): each function ``njit``-compiled, the products written as
  loops in index order and the projection as one pass over the sorted vector
  (:func:`_project_loop`, the reference's threshold to the bit); a product's sum may round
  differently from BLAS's, so results agree with the reference to a few ulps (measured:
  <= 1.3e-15 on iterates, <= 9.3e-15 on histories on the tests' games, same iteration
  counts).  The first call compiles (seconds).
  Its run loops (``run``, ``run_pair``, ``run_ogda``, ``parameter_free``) are those of
  :func:`_build_fused`: the same arithmetic in the same order, but allocation-free, each
  product ``A y``, ``Aᵀx`` computed once per point and shared by the step and the stopping
  quantity, and the projection's sort an insertion sort started from the call site's last
  order (the same sorted values; nearly linear since iterates move little per step).
  Measured: results bitwise equal to the unfused compiled loops on every test case (iterates,
  histories, iteration counts); at 20x20 the compiled build went from 13-17x to 27-48x the
  reference per step (profile: the sort was ~330 ns of a ~1.2 µs GDA step, the recomputed
  products most of the rest).

Stopping quantities (``kind``): :data:`NASH` NashConv, :data:`PGAP_X` / :data:`PGAP_Y` the
perturbed gap of the x-side / mirrored game, :data:`FRANK_WOLFE` the official Frank-Wolfe-type
gaps with ``(μ_x, μ_y)``, :data:`SYMMETRIC` the gap of the symmetric perturbed game.  No
validation here: :mod:`reference.perturbation.fast` checks every argument as the reference does.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from types import ModuleType, SimpleNamespace
from typing import Any, Protocol, TypeVar

import numpy as np

from reference._arrays import FloatArray, IntArray
from reference.games.base import _project

__all__ = [
    "AVAILABLE",
    "ENABLED",
    "FRANK_WOLFE",
    "NASH",
    "PGAP_X",
    "PGAP_Y",
    "SYMMETRIC",
    "kernels",
]

_F = TypeVar("_F", bound=Callable[..., Any])


class _Jit(Protocol):
    def __call__(self, function: _F, /) -> _F: ...


NASH, PGAP_X, PGAP_Y, FRANK_WOLFE, SYMMETRIC = 0, 1, 2, 3, 4

_numba: ModuleType | None
try:
    _numba = importlib.import_module("numba")
except ImportError:  # pragma: no cover - depends on the environment
    _numba = None

#: numba is importable.
AVAILABLE: bool = _numba is not None
#: The fast path uses the compiled kernels (only when :data:`AVAILABLE`; tests flip this).
ENABLED: bool = AVAILABLE


def _project_loop(v: FloatArray) -> FloatArray:
    """Algorithm P as :func:`reference.games.base._project`, as one pass over the sorted vector.

    The running sum over the decreasing entries and ``(Σ - 1)/j`` are the reference's
    ``cumsum`` and ``css / j`` term by term, so the threshold is the reference's to the bit.
    """
    k = v.size
    if k == 1:
        return np.ones(1)
    u = np.sort(v)
    running = 0.0
    tau = 0.0
    for j in range(k):
        uj = u[k - 1 - j]
        running += uj
        css = running - 1.0
        if j == 0 or uj - css / (j + 1) > 0.0:
            tau = css / (j + 1)
    out = np.empty(k)
    for i in range(k):
        out[i] = max(v[i] - tau, 0.0)
    return out


def _build(jit: _Jit, proj: Callable[[FloatArray], FloatArray], loops: bool) -> SimpleNamespace:
    """The kernels over the projection ``proj``, each passed through ``jit``.

    ``loops``: products as explicit loops (the compiled build: no BLAS call, no temporary per
    product; sums in index order, so they may differ from BLAS's in the last bits) or as the
    reference's numpy products ``A @ y``, ``A.T @ x``, ``x @ A``, ``u @ v`` (the numpy build:
    the reference's very calls).
    """
    if loops:

        @jit
        def mv(a: FloatArray, y: FloatArray) -> FloatArray:
            rows, cols = a.shape
            out = np.zeros(rows)
            for i in range(rows):
                acc = 0.0
                for j in range(cols):
                    acc += a[i, j] * y[j]
                out[i] = acc
            return out

        @jit
        def xv(x: FloatArray, a: FloatArray) -> FloatArray:
            rows, cols = a.shape
            out = np.zeros(cols)
            for i in range(rows):
                xi = x[i]
                for j in range(cols):
                    out[j] += xi * a[i, j]
            return out

        @jit
        def dot(u: FloatArray, v: FloatArray) -> float:
            acc = 0.0
            for i in range(u.size):
                acc += u[i] * v[i]
            return acc

        @jit
        def tv(a: FloatArray, x: FloatArray) -> FloatArray:  # Aᵀx, the loop of x @ A
            rows, cols = a.shape
            out = np.zeros(cols)
            for i in range(rows):
                xi = x[i]
                for j in range(cols):
                    out[j] += xi * a[i, j]
            return out
    else:

        def mv(a: FloatArray, y: FloatArray) -> FloatArray:
            out: FloatArray = a @ y
            return out

        def xv(x: FloatArray, a: FloatArray) -> FloatArray:
            out: FloatArray = x @ a
            return out

        def tv(a: FloatArray, x: FloatArray) -> FloatArray:
            out: FloatArray = a.T @ x
            return out

        def dot(u: FloatArray, v: FloatArray) -> float:
            return float(u @ v)

    @jit
    def nash(a: FloatArray, x: FloatArray, y: FloatArray) -> float:
        return float(np.max(xv(x, a)) - np.min(mv(a, y)))

    @jit
    def pgap(a: FloatArray, x: FloatArray, y: FloatArray, mu: float) -> float:
        # reference.perturbation.base._perturbed_gap (the mirrored game: called on (-Aᵀ, y, x))
        ay = mv(a, y)
        best = proj(-ay / mu)
        upper = float(np.max(xv(x, a))) + 0.5 * mu * float(dot(x, x))
        lower = float(dot(best, ay)) + 0.5 * mu * float(dot(best, best))
        return upper - lower

    @jit
    def fw(a: FloatArray, x: FloatArray, y: FloatArray, mu_x: float, mu_y: float) -> float:
        gx = -mv(a, y) - mu_x * x
        gy = tv(a, x) - mu_y * y
        return float(np.max(gx) - dot(gx, x)) + float(np.max(gy) - dot(gy, y))

    @jit
    def symmetric(a: FloatArray, p: FloatArray, q: FloatArray, m: float) -> float:
        bx = proj(-mv(a, q) / m)
        by = proj(tv(a, p) / m)
        upper = float(dot(xv(p, a), by)) - 0.5 * m * float(dot(by, by)) + 0.5 * m * float(dot(p, p))
        lower = float(dot(xv(bx, a), q)) + 0.5 * m * float(dot(bx, bx)) - 0.5 * m * float(dot(q, q))
        return upper - lower

    @jit
    def quantity(
        a: FloatArray,
        b: FloatArray,
        x: FloatArray,
        y: FloatArray,
        kind: int,
        mu_x: float,
        mu_y: float,
    ) -> float:
        if kind == 1:
            return pgap(a, x, y, mu_x)
        if kind == 2:
            return pgap(b, y, x, mu_y)
        if kind == 3:
            return fw(a, x, y, mu_x, mu_y)
        if kind == 4:
            return symmetric(a, x, y, mu_x)
        return nash(a, x, y)

    @jit
    def step(
        a: FloatArray,
        x: FloatArray,
        y: FloatArray,
        mu_x: float,
        mu_y: float,
        eta: float,
        y_first: bool,
    ) -> tuple[FloatArray, FloatArray]:
        if y_first:  # §3.1 on -Aᵀ with the roles swapped (same values, see the module doc)
            y_new = proj(y + eta * (tv(a, x) - mu_y * y))
            x_new = proj(x - eta * (mv(a, y_new) + mu_x * x))
            return x_new, y_new
        x_new = proj(x - eta * (mv(a, y) + mu_x * x))
        y_new = proj(y + eta * (tv(a, x_new) - mu_y * y))
        return x_new, y_new

    @jit
    def grow(buffer: FloatArray, need: int) -> FloatArray:
        if need < buffer.size:
            return buffer
        bigger = np.empty(2 * buffer.size + 1)
        bigger[: buffer.size] = buffer
        return bigger

    @jit
    def run(
        a: FloatArray,
        x: FloatArray,
        y: FloatArray,
        mu_x: float,
        mu_y: float,
        eta: float,
        iters: int,
        tol: float,
        y_first: bool,
        kind: int,
        q_mu_x: float,
        q_mu_y: float,
    ) -> tuple[FloatArray, FloatArray, int, FloatArray, FloatArray]:
        """One alternating run; ``(x, y, t, NashConv history, stopping history)``."""
        b = -a.T
        size = min(iters, 1023) + 1
        hist = np.empty(size)
        stops = np.empty(size)
        gap = quantity(a, b, x, y, kind, q_mu_x, q_mu_y)
        hist[0] = gap if kind == 0 else nash(a, x, y)
        stops[0] = gap
        t = 0
        while gap > tol and t < iters:
            x, y = step(a, x, y, mu_x, mu_y, eta, y_first)
            t += 1
            gap = quantity(a, b, x, y, kind, q_mu_x, q_mu_y)
            hist = grow(hist, t)
            stops = grow(stops, t)
            hist[t] = gap if kind == 0 else nash(a, x, y)
            stops[t] = gap
        return x, y, t, hist[: t + 1], stops[: t + 1]

    @jit
    def run_pair(
        a: FloatArray,
        x: FloatArray,
        y: FloatArray,
        mu: float,
        eta: float,
        iters: int,
        tol: float,
        y_first: bool,
        frank_wolfe: bool,
    ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, int, FloatArray, FloatArray]:
        """AsymP-GDA's two runs in lockstep; ``(xa, ya, xb, yb, t, history, stopping)``."""
        b = -a.T
        kind_a = 3 if frank_wolfe else 1
        kind_b = 3 if frank_wolfe else 2
        xa, ya, xb, yb = x, y, x.copy(), y.copy()
        size = min(iters, 1023) + 1
        hist = np.empty(size)
        stops = np.empty(size)
        gap = max(
            quantity(a, b, xa, ya, kind_a, mu, 0.0),
            quantity(a, b, xb, yb, kind_b, 0.0, mu),
        )
        hist[0] = nash(a, xa, yb)
        stops[0] = gap
        t = 0
        while gap > tol and t < iters:
            xa, ya = step(a, xa, ya, mu, 0.0, eta, False)
            xb, yb = step(a, xb, yb, 0.0, mu, eta, y_first)
            t += 1
            gap = max(
                quantity(a, b, xa, ya, kind_a, mu, 0.0),
                quantity(a, b, xb, yb, kind_b, 0.0, mu),
            )
            hist = grow(hist, t)
            stops = grow(stops, t)
            hist[t] = nash(a, xa, yb)
            stops[t] = gap
        return xa, ya, xb, yb, t, hist[: t + 1], stops[: t + 1]

    @jit
    def run_ogda(
        a: FloatArray,
        x: FloatArray,
        y: FloatArray,
        eta: float,
        iters: int,
        tol: float,
        official: bool,
    ) -> tuple[FloatArray, FloatArray, int, FloatArray]:
        """OGDA as :func:`reference.perturbation.base.ogda`; ``(x, y, t, NashConv history)``."""
        x_hat, y_hat = x.copy(), y.copy()
        gx_prev = mv(a, y)
        gy_prev = tv(a, x)
        size = min(iters, 1023) + 1
        hist = np.empty(size)
        value = nash(a, x, y)
        hist[0] = value
        t = 0
        while value > tol and t < iters:
            if official:
                gx = -mv(a, y)
                x_hat = proj(x_hat + eta * gx)
                x = proj(x_hat + eta * gx)
                gy = tv(a, x)
                y_hat = proj(y_hat + eta * gy)
                y = proj(y_hat + eta * gy)
            else:
                gx = mv(a, y)
                gy = tv(a, x)
                x = proj(x - eta * (2.0 * gx - gx_prev))
                y = proj(y + eta * (2.0 * gy - gy_prev))
                gx_prev, gy_prev = gx, gy
            t += 1
            value = nash(a, x, y)
            hist = grow(hist, t)
            hist[t] = value
        return x, y, t, hist[: t + 1]

    @jit
    def stall_window(patience: int, period: int, eta_mu: float) -> int:
        # reference.perturbation.base._stall_window
        if patience == 0:
            return 0
        steps = max(float(patience), 4.0 / eta_mu) if eta_mu > 0.0 else float(patience)
        return period * max(1, math.ceil(min(steps, 1e15) / period))

    @jit
    def parameter_free(
        a: FloatArray,
        norm: float,
        mu: float,
        mu_floor: float,
        eps: float,
        total_cap: int,
        inner_cap: int,
        period: int,
        stall: int,
        lipschitz: float,
        floor: float,
    ) -> tuple[FloatArray, FloatArray, float, int, int, float, int, FloatArray]:
        """Algorithm 1 as :func:`reference.perturbation.base.parameter_free`.

        Returns ``(x, y, value, total, halvings, mu, reason, records)``; ``reason`` 0
        ``max_iter``, 1 ``mu_floor``; ``records`` ``(k, 3)``: step, NashConv, ``μ`` per check.
        """
        b = -a.T
        rows, cols = a.shape
        xa = np.full(rows, 1.0 / rows)
        xb = xa.copy()
        ya = np.full(cols, 1.0 / cols)
        yb = ya.copy()
        total = 0
        halvings = 0
        value = nash(a, xa, yb)
        records = np.empty((1024, 3))
        count = 1
        records[0, 0] = 0.0
        records[0, 1] = value
        records[0, 2] = mu
        reason = 0
        while value > eps and total < total_cap:
            eta = 1.0 / (mu + norm)
            if lipschitz != 0.0:
                delta = max(mu * eps * eps / (8.0 * lipschitz * lipschitz), floor)
            else:
                delta = floor
            inner = 0
            milestone = math.inf
            window = stall_window(stall, period, eta * mu)
            while inner < inner_cap and total < total_cap:
                xa, ya = step(a, xa, ya, mu, 0.0, eta, False)
                yb, xb = step(b, yb, xb, mu, 0.0, eta, False)
                inner += 1
                total += 1
                if inner % period != 0 and total < total_cap:
                    continue
                value = nash(a, xa, yb)
                if count == records.shape[0]:
                    bigger = np.empty((2 * count, 3))
                    bigger[:count] = records
                    records = bigger
                records[count, 0] = total
                records[count, 1] = value
                records[count, 2] = mu
                count += 1
                if value <= eps:
                    break
                gap = max(pgap(a, xa, ya, mu), pgap(b, yb, xb, mu))
                if gap <= delta:
                    break
                if window != 0 and inner % window == 0:
                    if gap > 0.5 * milestone:
                        break
                    milestone = gap
            if value <= eps or total >= total_cap:
                break
            if 0.5 * mu < mu_floor or 0.5 * mu == 0.0:
                reason = 1
                break
            mu *= 0.5
            halvings += 1
        return xa, yb, value, total, halvings, mu, reason, records[:count]

    return SimpleNamespace(
        nash=nash,
        pgap=pgap,
        fw=fw,
        symmetric=symmetric,
        step=step,
        run=run,
        run_pair=run_pair,
        run_ogda=run_ogda,
        parameter_free=parameter_free,
        proj=proj,
    )


def _build_fused(jit: _Jit) -> SimpleNamespace:
    """The compiled build's loops, allocation-free, each product computed once per point.

    The arithmetic of :func:`_build` with ``loops=True`` in the same order; what changes is
    where vectors live (buffers allocated once per call and updated in place; the projection
    sorts a scratch copy) and that a run keeps ``A y`` and ``Aᵀ x`` of its current point.  The
    step needs them anyway (``x ← Π(x - η(Ay + μ_x x))`` reads ``A y``, the ``y`` update reads
    ``Aᵀ x`` of the new ``x``), and the stopping quantities of that same point read the same
    products (NashConv ``max(xᵀA) - min(Ay)``, the perturbed and Frank-Wolfe gaps).  ``xᵀA``
    and ``Aᵀx`` are the same loop (``xv`` and ``tv`` of :func:`_build`), and a product with
    ``B = -Aᵀ`` is the product with ``A`` negated term by term (negation is exact, rounding
    symmetric), so every reused value is the one the unfused loop computes (up to the sign of
    an exact zero).  Per step a run computes two products instead of four to six.
    """

    @jit
    def mv_into(a: FloatArray, y: FloatArray, out: FloatArray) -> None:
        rows, cols = a.shape
        for i in range(rows):
            acc = 0.0
            for j in range(cols):
                acc += a[i, j] * y[j]
            out[i] = acc

    @jit
    def tv_into(a: FloatArray, x: FloatArray, out: FloatArray) -> None:  # x @ A, Aᵀx
        rows, cols = a.shape
        for j in range(cols):
            out[j] = 0.0
        for i in range(rows):
            xi = x[i]
            for j in range(cols):
                out[j] += xi * a[i, j]

    @jit
    def dot(u: FloatArray, v: FloatArray) -> float:
        acc = 0.0
        for i in range(u.size):
            acc += u[i] * v[i]
        return acc

    @jit
    def proj_into(v: FloatArray, out: FloatArray, buf: FloatArray, perm: IntArray) -> None:
        # _project_loop into ``out`` (not ``v``): ``buf`` gets v sorted (the same values as
        # np.sort's) by insertion sort started from ``perm``, the order this call site sorted
        # its last vector into (a permutation, kept up to date): iterates move little per
        # step, so the order is nearly right and the sort nearly linear
        k = v.size
        if k == 1:
            out[0] = 1.0
            return
        for i in range(k):
            buf[i] = v[perm[i]]
        for i in range(1, k):
            val = buf[i]
            idx = perm[i]
            j = i - 1
            while j >= 0 and buf[j] > val:
                buf[j + 1] = buf[j]
                perm[j + 1] = perm[j]
                j -= 1
            buf[j + 1] = val
            perm[j + 1] = idx
        running = 0.0
        tau = 0.0
        for j in range(k):
            uj = buf[k - 1 - j]
            running += uj
            css = running - 1.0
            if j == 0 or uj - css / (j + 1) > 0.0:
                tau = css / (j + 1)
        for i in range(k):
            out[i] = max(v[i] - tau, 0.0)

    @jit
    def pgap(
        ay: FloatArray,
        top: float,
        x: FloatArray,
        mu: float,
        w: FloatArray,
        best: FloatArray,
        buf: FloatArray,
        perm: IntArray,
    ) -> float:
        # _build's pgap given ay = A y and top = max(xᵀA); w, best, buf scratch of ay's size
        for i in range(ay.size):
            w[i] = -ay[i] / mu
        proj_into(w, best, buf, perm)
        upper = top + 0.5 * mu * dot(x, x)
        lower = dot(best, ay) + 0.5 * mu * dot(best, best)
        return upper - lower

    @jit
    def quantity(
        a: FloatArray,
        x: FloatArray,
        y: FloatArray,
        ay: FloatArray,
        atx: FloatArray,
        kind: int,
        mu_x: float,
        mu_y: float,
        scratch_x: FloatArray,
        scratch_y: FloatArray,
        perm_x: IntArray,
        perm_y: IntArray,
    ) -> float:
        """_build's ``quantity`` of ``(x, y)`` from ``ay = A y``, ``atx = Aᵀx``.

        ``scratch_x``: ``(3, m)``, ``scratch_y``: ``(4, n)``, overwritten.
        """
        sx, px, bufx = scratch_x[0], scratch_x[1], scratch_x[2]
        sy, py, bufy, ny = scratch_y[0], scratch_y[1], scratch_y[2], scratch_y[3]
        if kind == 1:
            return pgap(ay, float(np.max(atx)), x, mu_x, sx, px, bufx, perm_x[1])
        if kind == 2:  # pgap(B, y, x): B x = -Aᵀx, max(yᵀB) = -min(A y)
            for j in range(atx.size):
                ny[j] = -atx[j]
            return pgap(ny, -float(np.min(ay)), y, mu_y, sy, py, bufy, perm_y[1])
        if kind == 3:  # fw
            for i in range(x.size):
                sx[i] = -ay[i] - mu_x * x[i]
            for j in range(y.size):
                sy[j] = atx[j] - mu_y * y[j]
            return float(np.max(sx) - dot(sx, x)) + float(np.max(sy) - dot(sy, y))
        if kind == 4:  # symmetric(a, x, y, mu_x)
            m = mu_x
            for i in range(x.size):
                sx[i] = -ay[i] / m
            proj_into(sx, px, bufx, perm_x[1])
            for j in range(y.size):
                sy[j] = atx[j] / m
            proj_into(sy, py, bufy, perm_y[1])
            upper = dot(atx, py) - 0.5 * m * dot(py, py) + 0.5 * m * dot(x, x)
            tv_into(a, px, ny)
            lower = dot(ny, y) + 0.5 * m * dot(px, px) - 0.5 * m * dot(y, y)
            return upper - lower
        return float(np.max(atx) - np.min(ay))

    @jit
    def step(
        a: FloatArray,
        x: FloatArray,
        y: FloatArray,
        ay: FloatArray,
        atx: FloatArray,
        mu_x: float,
        mu_y: float,
        eta: float,
        y_first: bool,
        scratch_x: FloatArray,
        scratch_y: FloatArray,
        perm_x: IntArray,
        perm_y: IntArray,
    ) -> None:
        """_build's ``step`` in place; ``ay``, ``atx`` read for the old point, left for the new."""
        wx, bufx = scratch_x[0], scratch_x[2]
        wy, bufy = scratch_y[0], scratch_y[2]
        if y_first:
            for j in range(y.size):
                wy[j] = y[j] + eta * (atx[j] - mu_y * y[j])
            proj_into(wy, y, bufy, perm_y[0])
            mv_into(a, y, ay)
            for i in range(x.size):
                wx[i] = x[i] - eta * (ay[i] + mu_x * x[i])
            proj_into(wx, x, bufx, perm_x[0])
            tv_into(a, x, atx)
            return
        for i in range(x.size):
            wx[i] = x[i] - eta * (ay[i] + mu_x * x[i])
        proj_into(wx, x, bufx, perm_x[0])
        tv_into(a, x, atx)
        for j in range(y.size):
            wy[j] = y[j] + eta * (atx[j] - mu_y * y[j])
        proj_into(wy, y, bufy, perm_y[0])
        mv_into(a, y, ay)

    @jit
    def grow(buffer: FloatArray, need: int) -> FloatArray:
        if need < buffer.size:
            return buffer
        bigger = np.empty(2 * buffer.size + 1)
        bigger[: buffer.size] = buffer
        return bigger

    @jit
    def orders(k: int) -> IntArray:
        # two identity permutations of range(k): a call site's last sorting order
        out = np.empty((2, k), dtype=np.int64)
        for r in range(2):
            for i in range(k):
                out[r, i] = i
        return out

    @jit
    def products(a: FloatArray, x: FloatArray, y: FloatArray) -> tuple[FloatArray, FloatArray]:
        rows, cols = a.shape
        ay = np.empty(rows)
        atx = np.empty(cols)
        mv_into(a, y, ay)
        tv_into(a, x, atx)
        return ay, atx

    @jit
    def run(
        a: FloatArray,
        x: FloatArray,
        y: FloatArray,
        mu_x: float,
        mu_y: float,
        eta: float,
        iters: int,
        tol: float,
        y_first: bool,
        kind: int,
        q_mu_x: float,
        q_mu_y: float,
    ) -> tuple[FloatArray, FloatArray, int, FloatArray, FloatArray]:
        """_build's ``run``."""
        rows, cols = a.shape
        x = x.copy()
        y = y.copy()
        ay, atx = products(a, x, y)
        scratch_x = np.empty((3, rows))
        scratch_y = np.empty((4, cols))
        perm_x, perm_y = orders(rows), orders(cols)
        size = min(iters, 1023) + 1
        hist = np.empty(size)
        stops = np.empty(size)
        gap = quantity(a, x, y, ay, atx, kind, q_mu_x, q_mu_y, scratch_x, scratch_y, perm_x, perm_y)
        hist[0] = gap if kind == 0 else float(np.max(atx) - np.min(ay))
        stops[0] = gap
        t = 0
        while gap > tol and t < iters:
            step(a, x, y, ay, atx, mu_x, mu_y, eta, y_first, scratch_x, scratch_y, perm_x, perm_y)
            t += 1
            gap = quantity(
                a, x, y, ay, atx, kind, q_mu_x, q_mu_y, scratch_x, scratch_y, perm_x, perm_y
            )
            hist = grow(hist, t)
            stops = grow(stops, t)
            hist[t] = gap if kind == 0 else float(np.max(atx) - np.min(ay))
            stops[t] = gap
        return x, y, t, hist[: t + 1], stops[: t + 1]

    @jit
    def run_pair(
        a: FloatArray,
        x: FloatArray,
        y: FloatArray,
        mu: float,
        eta: float,
        iters: int,
        tol: float,
        y_first: bool,
        frank_wolfe: bool,
    ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, int, FloatArray, FloatArray]:
        """_build's ``run_pair``."""
        rows, cols = a.shape
        kind_a = 3 if frank_wolfe else 1
        kind_b = 3 if frank_wolfe else 2
        xa, ya, xb, yb = x.copy(), y.copy(), x.copy(), y.copy()
        ay_a, atx_a = products(a, xa, ya)
        ay_b, atx_b = ay_a.copy(), atx_a.copy()
        scratch_x = np.empty((3, rows))
        scratch_y = np.empty((4, cols))
        pa_x, pa_y, pb_x, pb_y = orders(rows), orders(cols), orders(rows), orders(cols)
        size = min(iters, 1023) + 1
        hist = np.empty(size)
        stops = np.empty(size)
        gap = max(
            quantity(a, xa, ya, ay_a, atx_a, kind_a, mu, 0.0, scratch_x, scratch_y, pa_x, pa_y),
            quantity(a, xb, yb, ay_b, atx_b, kind_b, 0.0, mu, scratch_x, scratch_y, pb_x, pb_y),
        )
        hist[0] = float(np.max(atx_a) - np.min(ay_b))
        stops[0] = gap
        t = 0
        while gap > tol and t < iters:
            step(a, xa, ya, ay_a, atx_a, mu, 0.0, eta, False, scratch_x, scratch_y, pa_x, pa_y)
            step(a, xb, yb, ay_b, atx_b, 0.0, mu, eta, y_first, scratch_x, scratch_y, pb_x, pb_y)
            t += 1
            gap = max(
                quantity(a, xa, ya, ay_a, atx_a, kind_a, mu, 0.0, scratch_x, scratch_y, pa_x, pa_y),
                quantity(a, xb, yb, ay_b, atx_b, kind_b, 0.0, mu, scratch_x, scratch_y, pb_x, pb_y),
            )
            hist = grow(hist, t)
            stops = grow(stops, t)
            hist[t] = float(np.max(atx_a) - np.min(ay_b))
            stops[t] = gap
        return xa, ya, xb, yb, t, hist[: t + 1], stops[: t + 1]

    @jit
    def parameter_free(
        a: FloatArray,
        norm: float,
        mu: float,
        mu_floor: float,
        eps: float,
        total_cap: int,
        inner_cap: int,
        period: int,
        stall: int,
        lipschitz: float,
        floor: float,
    ) -> tuple[FloatArray, FloatArray, float, int, int, float, int, FloatArray]:
        """_build's ``parameter_free``; the mirrored run on ``B = -Aᵀ`` keeps ``B x_b``, ``Bᵀ y_b``."""
        b = -a.T
        rows, cols = a.shape
        xa = np.full(rows, 1.0 / rows)
        xb = xa.copy()
        ya = np.full(cols, 1.0 / cols)
        yb = ya.copy()
        ay_a, atx_a = products(a, xa, ya)
        ay_b, atx_b = products(b, yb, xb)  # B x_b (n), Bᵀ y_b = -(A y_b) (m)
        scratch_a = np.empty((4, max(rows, cols)))
        scratch_b = np.empty((4, max(rows, cols)))
        sa_x, sa_y = scratch_a[:3, :rows], scratch_a[:, :cols]
        sb_x, sb_y = scratch_b[:3, :cols], scratch_b[:, :rows]
        pa_x, pa_y, pb_x, pb_y = orders(rows), orders(cols), orders(cols), orders(rows)
        total = 0
        halvings = 0
        # nash(a, xa, yb) = max(xaᵀA) - min(A yb), min(A yb) = -max(Bᵀ yb)
        value = float(np.max(atx_a) - -np.max(atx_b))
        records = np.empty((1024, 3))
        count = 1
        records[0, 0] = 0.0
        records[0, 1] = value
        records[0, 2] = mu
        reason = 0
        while value > eps and total < total_cap:
            eta = 1.0 / (mu + norm)
            if lipschitz != 0.0:
                delta = max(mu * eps * eps / (8.0 * lipschitz * lipschitz), floor)
            else:
                delta = floor
            inner = 0
            milestone = math.inf
            if stall == 0:
                window = 0
            else:
                eta_mu = eta * mu
                steps = max(float(stall), 4.0 / eta_mu) if eta_mu > 0.0 else float(stall)
                window = period * max(1, math.ceil(min(steps, 1e15) / period))
            while inner < inner_cap and total < total_cap:
                step(a, xa, ya, ay_a, atx_a, mu, 0.0, eta, False, sa_x, sa_y, pa_x, pa_y)
                step(b, yb, xb, ay_b, atx_b, mu, 0.0, eta, False, sb_x, sb_y, pb_x, pb_y)
                inner += 1
                total += 1
                if inner % period != 0 and total < total_cap:
                    continue
                value = float(np.max(atx_a) - -np.max(atx_b))
                if count == records.shape[0]:
                    bigger = np.empty((2 * count, 3))
                    bigger[:count] = records
                    records = bigger
                records[count, 0] = total
                records[count, 1] = value
                records[count, 2] = mu
                count += 1
                if value <= eps:
                    break
                gap = max(
                    quantity(a, xa, ya, ay_a, atx_a, 1, mu, 0.0, sa_x, sa_y, pa_x, pa_y),
                    quantity(b, yb, xb, ay_b, atx_b, 1, mu, 0.0, sb_x, sb_y, pb_x, pb_y),
                )
                if gap <= delta:
                    break
                if window != 0 and inner % window == 0:
                    if gap > 0.5 * milestone:
                        break
                    milestone = gap
            if value <= eps or total >= total_cap:
                break
            if 0.5 * mu < mu_floor or 0.5 * mu == 0.0:
                reason = 1
                break
            mu *= 0.5
            halvings += 1
        return xa, yb, value, total, halvings, mu, reason, records[:count]

    @jit
    def run_ogda(
        a: FloatArray,
        x: FloatArray,
        y: FloatArray,
        eta: float,
        iters: int,
        tol: float,
        official: bool,
    ) -> tuple[FloatArray, FloatArray, int, FloatArray]:
        """_build's ``run_ogda``: the gradients are ``A y`` and ``Aᵀx`` of the current point."""
        rows, cols = a.shape
        x = x.copy()
        y = y.copy()
        x_hat, y_hat = x.copy(), y.copy()
        ay, atx = products(a, x, y)
        gx_prev, gy_prev = ay.copy(), atx.copy()
        wx, bufx = np.empty(rows), np.empty(rows)
        wy, bufy = np.empty(cols), np.empty(cols)
        perm_x, perm_y = orders(rows), orders(cols)
        size = min(iters, 1023) + 1
        hist = np.empty(size)
        value = float(np.max(atx) - np.min(ay))
        hist[0] = value
        t = 0
        while value > tol and t < iters:
            if official:
                for i in range(rows):
                    wx[i] = x_hat[i] + eta * -ay[i]
                proj_into(wx, x_hat, bufx, perm_x[0])
                for i in range(rows):
                    wx[i] = x_hat[i] + eta * -ay[i]
                proj_into(wx, x, bufx, perm_x[1])
                tv_into(a, x, atx)
                for j in range(cols):
                    wy[j] = y_hat[j] + eta * atx[j]
                proj_into(wy, y_hat, bufy, perm_y[0])
                for j in range(cols):
                    wy[j] = y_hat[j] + eta * atx[j]
                proj_into(wy, y, bufy, perm_y[1])
                mv_into(a, y, ay)
            else:
                for i in range(rows):
                    wx[i] = x[i] - eta * (2.0 * ay[i] - gx_prev[i])
                    gx_prev[i] = ay[i]
                for j in range(cols):
                    wy[j] = y[j] + eta * (2.0 * atx[j] - gy_prev[j])
                    gy_prev[j] = atx[j]
                proj_into(wx, x, bufx, perm_x[0])
                proj_into(wy, y, bufy, perm_y[0])
                mv_into(a, y, ay)
                tv_into(a, x, atx)
            t += 1
            value = float(np.max(atx) - np.min(ay))
            hist = grow(hist, t)
            hist[t] = value
        return x, y, t, hist[: t + 1]

    return SimpleNamespace(
        run=run, run_pair=run_pair, run_ogda=run_ogda, parameter_free=parameter_free
    )


def _identity(function: Any) -> Any:
    return function


#: The plain numpy build (always there).
NUMPY = _build(_identity, _project, loops=False)
_compiled: SimpleNamespace | None = None


def kernels() -> SimpleNamespace:
    """The build the fast path uses now: compiled when :data:`AVAILABLE` and :data:`ENABLED`."""
    global _compiled
    if not (AVAILABLE and ENABLED) or _numba is None:
        return NUMPY
    if _compiled is None:
        njit = _numba.njit(nogil=True)
        built = _build(njit, njit(_project_loop), loops=True)
        fused = _build_fused(njit)
        for name in ("run", "run_pair", "run_ogda", "parameter_free"):
            setattr(built, name, getattr(fused, name))
        _compiled = built
    return _compiled
