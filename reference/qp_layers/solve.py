"""Forward QP solves: primal-dual interior point with active-set polish, the active-set and
brute-force oracles, and the KKT residual (spec 03).

Part of :mod:`reference.qp_layers`, which re-exports :func:`solve_qp`,
:func:`solve_qp_active_set` and :func:`kkt_residual`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike
from scipy.optimize import linprog

from reference._arrays import (
    FloatArray,
    as_float_array,
    readonly,
)
from reference.qp_layers.model import (
    _QP,
    MAX_BRUTE_FORCE_ROWS,
    QPSolution,
    QPSolverConfig,
    _Batch,
    _parse,
)


# ------------------------------------------------------------------------------ forward solve
def _empty() -> FloatArray:
    return np.zeros(0)


def _f64(value: object) -> FloatArray:
    return np.asarray(value, dtype=np.float64)


def kkt_residual(
    Q: ArrayLike,
    q: ArrayLike,
    G: ArrayLike | None,
    h: ArrayLike | None,
    A: ArrayLike | None,
    b: ArrayLike | None,
    x: ArrayLike,
    lam: ArrayLike | None,
    nu: ArrayLike | None,
) -> float:
    """Scaled KKT residual of a candidate primal–dual point (unbatched).

    The maximum of: stationarity ``‖Qx + q + Gᵀλ + Aᵀν‖∞ / (1 + ‖q‖∞)``; primal
    infeasibility ``max(0, max(Gx − h)) / (1 + ‖h‖∞)`` and ``‖Ax − b‖∞ / (1 + ‖b‖∞)``;
    dual infeasibility ``max(0, −min λ)``; complementarity ``max_i |λ_i (h_i − G_i x)|
    / (1 + ‖λ‖∞)``.  It is 0 exactly at the (unique) KKT point when ``Q ≻ 0``.

    Args:
        Q: ``(n, n)`` symmetric positive definite.
        q: ``(n,)``.
        G, h: ``(m, n)``, ``(m,)`` or both ``None``.
        A, b: ``(p, n)``, ``(p,)`` or both ``None``.
        x: ``(n,)`` candidate ``y``.
        lam: ``(m,)`` candidate ``λ`` (``(0,)`` or ``None`` without ``G``).
        nu: ``(p,)`` candidate ``ν`` (``(0,)`` or ``None`` without ``A``).

    Returns:
        The residual (a float ``>= 0``).

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite values, batched input, or ``Q`` not SPD.

    Example:
        >>> kkt_residual([[1.0]], [-1.0], None, None, None, None, [1.0], None, None)
        0.0
    """
    batch = _parse(Q, q, G, h, A, b)
    if batch.batched:
        raise ValueError("Q: expected an unbatched QP for kkt_residual, got a batch")
    (item,) = batch.items
    xa = as_float_array("x", x, shape=(batch.n,))
    la = (
        _empty()
        if lam is None and batch.m == 0
        else as_float_array("lam", lam, shape=(batch.m,), min_size=0)
    )
    na = (
        _empty()
        if nu is None and batch.p == 0
        else as_float_array("nu", nu, shape=(batch.p,), min_size=0)
    )
    return _residual(item, xa, la, na)


def _residual(item: _QP, x: FloatArray, lam: FloatArray, nu: FloatArray) -> float:
    grad = item.Q @ x + item.q
    parts = []
    if item.G is not None and item.h is not None:
        grad = grad + item.G.T @ lam
        slack = item.h - item.G @ x
        hn = 1.0 + float(np.max(np.abs(item.h)))
        parts.append(max(0.0, float(-np.min(slack))) / hn)
        parts.append(max(0.0, float(-np.min(lam))))
        parts.append(float(np.max(np.abs(lam * slack))) / (1.0 + float(np.max(np.abs(lam)))))
    if item.A is not None and item.b is not None:
        grad = grad + item.A.T @ nu
        parts.append(
            float(np.max(np.abs(item.A @ x - item.b))) / (1.0 + float(np.max(np.abs(item.b))))
        )
    parts.append(float(np.max(np.abs(grad))) / (1.0 + float(np.max(np.abs(item.q)))))
    return max(parts)


def _equality_qp(
    Q: FloatArray, rhs: FloatArray, C: FloatArray | None, c: FloatArray | None
) -> tuple[FloatArray, FloatArray]:
    """Solve ``[Q Cᵀ; C 0][y; w] = [rhs; c]`` by a dense LU solve (raises LinAlgError)."""
    n = Q.shape[0]
    if C is None or c is None or C.shape[0] == 0:
        return _f64(np.linalg.solve(Q, rhs)), _empty()
    k = C.shape[0]
    kkt = np.zeros((n + k, n + k))
    kkt[:n, :n] = Q
    kkt[:n, n:] = C.T
    kkt[n:, :n] = C
    sol = np.linalg.solve(kkt, np.concatenate([rhs, c]))
    return sol[:n], sol[n:]


def _check_feasible(item: _QP, cfg: QPSolverConfig) -> None:
    if item.G is None or item.h is None:
        return
    n = item.Q.shape[0]
    h_scale = 1.0 + float(np.max(np.abs(item.h)))
    result = linprog(
        np.zeros(n),
        A_ub=item.G,
        b_ub=item.h + 0.1 * cfg.feasibility_tol * h_scale,
        A_eq=item.A,
        b_eq=item.b,
        bounds=[(None, None)] * n,
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10},
    )
    if result.status == 2:
        raise ValueError(
            "QP is infeasible: no y satisfies G y <= h and A y = b "
            f"(HiGHS phase-1 LP: {result.message})"
        )


def _max_step(v: FloatArray, dv: FloatArray) -> float:
    """``min(1, min_{dv_i < 0} -v_i / dv_i)``, dividing only where the ratio is below 1 (a
    ratio above 1 cannot bind, and ``v_i / dv_i`` overflows for ``dv_i`` near 1e-308)."""
    blocking = (dv < 0) & (v < -dv)
    if not bool(np.any(blocking)):
        return 1.0
    return float(np.min(-v[blocking] / dv[blocking]))


def _pdipm(item: _QP, cfg: QPSolverConfig) -> tuple[FloatArray, FloatArray, FloatArray, int, bool]:
    """Mehrotra predictor–corrector on the reduced system ``(Q + Gᵀ diag(z/s) G)``.

    Safeguard (our addition, ``cfg.mu_safeguard``): when the corrected step does not decrease
    ``μ = sᵀz/m`` by at least ``1%`` of the step, it is replaced by a plain path-following step
    with ``σ >= 0.1`` whose length is halved until it does (without it ``μ`` can 2-cycle and
    the method stalls)."""
    Q, q, G, h = item.Q, item.q, item.G, item.h
    assert G is not None
    assert h is not None
    A, b = item.A, item.b
    m = G.shape[0]
    p = 0 if A is None else A.shape[0]

    def reduced_solve(
        D: FloatArray, rhs1: FloatArray, rhs2: FloatArray
    ) -> tuple[FloatArray, FloatArray]:
        H = Q + G.T @ (D[:, None] * G)
        factor = scipy.linalg.cho_factor(H)
        if A is None or p == 0:
            return scipy.linalg.cho_solve(factor, rhs1), _empty()
        Hinv_At = scipy.linalg.cho_solve(factor, A.T)
        Hinv_r = scipy.linalg.cho_solve(factor, rhs1)
        dy = np.linalg.solve(A @ Hinv_At, A @ Hinv_r - rhs2)
        return Hinv_r - Hinv_At @ _f64(dy), _f64(dy)

    # initial point (CVXOPT coneqp): least squares ½‖Gx − h‖² + the objective, then shift
    x, y = reduced_solve(np.ones(m), -q + G.T @ h, b if b is not None else _empty())
    z = G @ x - h
    s = -z.copy()
    shift_s = -float(np.min(s))
    if shift_s >= 0:
        s = s + 1.0 + shift_s
    shift_z = -float(np.min(z))
    if shift_z >= 0:
        z = z + 1.0 + shift_z
    h_scale = 1.0 + float(np.max(np.abs(h)))
    q_scale = 1.0 + float(np.max(np.abs(q)))
    b_scale = 1.0 + (float(np.max(np.abs(b))) if b is not None and p else 0.0)
    converged = False
    it = 0
    for it in range(cfg.max_iter + 1):
        rd = Q @ x + q + G.T @ z
        if A is not None and p:
            rd = rd + A.T @ y
        rp = G @ x + s - h
        re = A @ x - b if A is not None and b is not None and p else _empty()
        mu = float(s @ z) / m
        res = max(
            float(np.max(np.abs(rd))) / q_scale,
            float(np.max(np.abs(rp))) / h_scale,
            float(np.max(np.abs(re))) / b_scale if p else 0.0,
            mu,
        )
        if res <= cfg.tol:
            converged = True
            break
        if it == cfg.max_iter:
            break
        D = z / s

        def newton(
            rc: FloatArray,
            D: FloatArray = D,
            rd: FloatArray = rd,
            rp: FloatArray = rp,
            re: FloatArray = re,
            s: FloatArray = s,
        ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
            rhs1 = -rd - G.T @ (rc / s + D * rp)
            dx, dy = reduced_solve(D, rhs1, -re)
            dz = rc / s + D * (rp + G @ dx)
            ds = -rp - G @ dx
            return dx, ds, dz, dy

        try:
            dx, ds, dz, dy = newton(-s * z)  # predictor (affine scaling)
            a_aff = min(_max_step(s, ds), _max_step(z, dz))
            mu_aff = float((s + a_aff * ds) @ (z + a_aff * dz)) / m
            sigma = (mu_aff / mu) ** 3 if mu > 0 else 0.0
            cx, cs, cz, cy = newton(-s * z + sigma * mu - ds * dz)  # corrector
            step = min(1.0, 0.99 * min(_max_step(s, cs), _max_step(z, cz)))
            mu_new = float((s + step * cs) @ (z + step * cz)) / m
            if cfg.mu_safeguard and mu_new > (1.0 - 0.01 * step) * mu:
                # safeguard: the second-order term made no progress (μ can 2-cycle), so take
                # a plain path-following step with σ >= 0.1, halved until μ decreases
                cx, cs, cz, cy = newton(-s * z + max(sigma, 0.1) * mu)
                step = min(1.0, 0.99 * min(_max_step(s, cs), _max_step(z, cz)))
                for _ in range(30):
                    mu_new = float((s + step * cs) @ (z + step * cz)) / m
                    if mu_new <= (1.0 - 0.01 * step) * mu:
                        break
                    step *= 0.5
            dx, ds, dz, dy = cx, cs, cz, cy
        except (np.linalg.LinAlgError, ValueError):
            break
        x = x + step * dx
        s = s + step * ds
        z = z + step * dz
        if p:
            y = y + step * dy
    return x, z, y, it, converged


def _polish(
    item: _QP, x: FloatArray, lam: FloatArray, cfg: QPSolverConfig
) -> tuple[FloatArray, FloatArray, FloatArray] | None:
    """Re-solve the equality QP on a guessed active set; ``None`` if no guess is consistent.

    The first guess is ``{i : λ_i > s_i}`` at the interior point.  When its solution
    violates a row outside the set, or gives a row inside it a negative multiplier, those
    rows are added or removed and the equality QP is solved again (at most ``m`` more
    times).  A row whose multiplier is small against ``√μ`` (``λ_i ≈ 1e-6``) is still on
    the slack side of the first guess; the second guess adds it back.
    """
    assert item.G is not None
    assert item.h is not None
    m = item.G.shape[0]
    h_scale = 1.0 + float(np.max(np.abs(item.h)))
    act = lam > item.h - item.G @ x
    for _ in range(m + 1):
        rows = [item.G[act]]
        rhs = [item.h[act]]
        if item.A is not None and item.b is not None:
            rows.append(item.A)
            rhs.append(item.b)
        try:
            yp, w = _equality_qp(item.Q, -item.q, np.concatenate(rows), np.concatenate(rhs))
        except np.linalg.LinAlgError:
            return None
        if not bool(np.all(np.isfinite(yp))) or not bool(np.all(np.isfinite(w))):
            return None
        k = int(act.sum())
        lam_new = np.zeros_like(lam)
        lam_new[act] = w[:k]
        violated = ~act & (item.G @ yp - item.h > cfg.feasibility_tol * h_scale)
        negative = act & (
            lam_new < -cfg.feasibility_tol * (1.0 + float(np.max(np.abs(w[:k]), initial=0.0)))
        )
        if not bool(np.any(violated)) and not bool(np.any(negative)):
            return yp, lam_new, w[k:]
        act = (act | violated) & ~negative
    return None


def _solve_one(
    item: _QP, cfg: QPSolverConfig
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, int, bool, float, bool]:
    """Solve one QP: ``(x, lam, nu, slack, iterations, converged, residual, polished)``."""
    if item.G is None or item.h is None:
        x, nu = _equality_qp(item.Q, -item.q, item.A, item.b)
        res = _residual(item, x, _empty(), nu)
        return x, _empty(), nu, _empty(), 0, res <= cfg.tol, res, True
    if cfg.check_feasibility:
        _check_feasible(item, cfg)
    x, lam, nu, iterations, _ = _pdipm(item, cfg)
    res = _residual(item, x, lam, nu)
    polished = False
    if cfg.polish:
        cand = _polish(item, x, lam, cfg)
        if cand is not None:
            xp, lp, npol = cand
            h_scale = 1.0 + float(np.max(np.abs(item.h)))
            feasible = float(np.max(item.G @ xp - item.h)) <= cfg.feasibility_tol * h_scale
            dual_ok = float(np.min(lp, initial=0.0)) >= -cfg.feasibility_tol * (
                1.0 + float(np.max(np.abs(lp), initial=0.0))
            )
            if feasible and dual_ok:
                lp = np.maximum(lp, 0.0)
                res_p = _residual(item, xp, lp, npol)
                if res_p <= max(res, cfg.tol):
                    x, lam, nu, res, polished = xp, lp, npol, res_p, True
    slack = item.h - item.G @ x
    return x, lam, nu, slack, iterations, res <= cfg.tol, res, polished


def _stack_solutions(
    batch: _Batch,
    sols: Sequence[tuple[FloatArray, FloatArray, FloatArray, FloatArray, int, bool, float, bool]],
) -> QPSolution:
    def stack(k: int) -> FloatArray:
        arrays = [s[k] for s in sols]
        return readonly(np.stack(arrays) if batch.batched else np.array(arrays[0]))

    return QPSolution(
        x=stack(0),
        lam=stack(1),
        nu=stack(2),
        slack=stack(3),
        iterations=max(s[4] for s in sols),
        converged=all(s[5] for s in sols),
        residual=max(s[6] for s in sols),
        polished=all(s[7] for s in sols),
    )


def solve_qp(
    Q: ArrayLike,
    q: ArrayLike,
    G: ArrayLike | None = None,
    h: ArrayLike | None = None,
    A: ArrayLike | None = None,
    b: ArrayLike | None = None,
    *,
    config: QPSolverConfig | None = None,
) -> QPSolution:
    """Solve ``min ½yᵀQy + qᵀy  s.t.  Gy ≤ h, Ay = b`` (batched) to about 1e-10 KKT residual.

    Method (spec 03 A0, our default): an LP phase 1 (HiGHS) decides feasibility; a
    dense primal–dual interior point (Mehrotra predictor–corrector, float64, CVXOPT
    initialisation) solves the reduced Newton system ``(Q + Gᵀ diag(λ/s) G) Δy + Aᵀ Δν``
    by Cholesky and a Schur complement on ``A``; then the active-set *polish*
    re-solves the equality QP with rows ``{i : λ_i > s_i}`` (adding rows the re-solved
    point violates and dropping rows with ``λ_i < 0``, then re-solving, at most ``m``
    times) and keeps it when it is feasible with ``λ >= 0`` and has a smaller residual.  Without ``G`` the QP is an
    equality QP solved by one KKT solve.

    Args:
        Q: ``(n, n)`` or ``(B, n, n)`` symmetric positive definite.
        q: ``(n,)`` or ``(B, n)``.
        G: ``(m, n)`` or ``(B, m, n)``, with ``h`` ``(m,)`` or ``(B, m)``; or both ``None``.
        h: see ``G``.
        A: ``(p, n)`` or ``(B, p, n)`` of full row rank, with ``b`` ``(p,)``/``(B, p)``; or
            both ``None``.
        b: see ``A``.
        config: solver settings (:class:`QPSolverConfig`).

    Returns:
        A :class:`QPSolution` (``x``, ``lam``, ``nu``, ``slack``; batched when any input is).
        Non-convergence is reported by ``converged=False``, not raised.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes or batch sizes, non-finite values, ``Q`` not symmetric
            positive definite, ``A`` rank deficient, or an infeasible QP.

    Example:
        >>> sol = solve_qp([[1.0, 0.0], [0.0, 1.0]], [-2.0, -2.0], [[1.0, 1.0]], [1.0])
        >>> [round(float(v), 9) for v in sol.x], round(float(sol.lam[0]), 9)
        ([0.5, 0.5], 1.5)

    References:
        Spec 03 (FFOLayer, ICML 2026) Section 3, A0; S. Mehrotra, "On the implementation
        of a primal-dual interior point method", SIAM J. Optim. 2(4), 1992.
    """
    cfg = config if config is not None else QPSolverConfig()
    if not isinstance(cfg, QPSolverConfig):
        raise TypeError(f"config: expected a QPSolverConfig, got {type(cfg).__name__}")
    batch = _parse(Q, q, G, h, A, b)
    return _stack_solutions(batch, [_solve_one(item, cfg) for item in batch.items])


def solve_qp_active_set(
    Q: ArrayLike,
    q: ArrayLike,
    G: ArrayLike | None = None,
    h: ArrayLike | None = None,
    A: ArrayLike | None = None,
    b: ArrayLike | None = None,
) -> QPSolution:
    """Brute-force active-set oracle: try every subset of inequality rows (small ``m``).

    For subsets ``S`` in order of size, solve the equality QP with rows ``[G_S; A]``
    (one KKT linear solve) and accept the first whose solution is primal feasible
    (``Gy <= h + 1e-9``) with ``λ_S >= −1e-12``.  Because ``Q ≻ 0`` the accepted ``y``
    is the unique solution (spec 03 A0, the test oracle).

    Args:
        Q, q, G, h, A, b: as :func:`solve_qp` (``m <= 14``).

    Returns:
        A :class:`QPSolution`; ``iterations`` is the number of subsets tried.

    Raises:
        TypeError: non-numeric input.
        ValueError: as :func:`solve_qp`, ``m > 14``, or no subset is accepted (infeasible).

    Example:
        >>> sol = solve_qp_active_set([[1.0, 0.0], [0.0, 1.0]], [-2.0, -2.0], [[1.0, 1.0]], [1.0])
        >>> [round(float(v), 12) for v in sol.x]
        [0.5, 0.5]
    """
    batch = _parse(Q, q, G, h, A, b)
    if batch.m > MAX_BRUTE_FORCE_ROWS:
        raise ValueError(
            f"G: expected at most {MAX_BRUTE_FORCE_ROWS} rows for brute-force enumeration, "
            f"got {batch.m}"
        )
    return _stack_solutions(batch, [_brute_force_one(item) for item in batch.items])


def _brute_force_one(
    item: _QP,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, int, bool, float, bool]:
    m = 0 if item.G is None else item.G.shape[0]
    tried = 0
    for size in range(m + 1):
        for subset in itertools.combinations(range(m), size):
            tried += 1
            rows: list[FloatArray] = []
            rhs: list[FloatArray] = []
            if item.G is not None and item.h is not None and size:
                idx = list(subset)
                rows.append(item.G[idx])
                rhs.append(item.h[idx])
            if item.A is not None and item.b is not None:
                rows.append(item.A)
                rhs.append(item.b)
            C = np.concatenate(rows, axis=0) if rows else None
            c = np.concatenate(rhs) if rhs else None
            if C is not None and np.linalg.matrix_rank(C) < C.shape[0]:
                continue
            try:
                y, w = _equality_qp(item.Q, -item.q, C, c)
            except np.linalg.LinAlgError:
                continue
            lam = np.zeros(m)
            lam[list(subset)] = w[:size]
            if size and float(np.min(w[:size])) < -1e-12:
                continue
            if item.G is not None and item.h is not None:
                if float(np.max(item.G @ y - item.h)) > 1e-9:
                    continue
                slack = item.h - item.G @ y
            else:
                slack = _empty()
            lam = np.maximum(lam, 0.0)
            nu = w[size:]
            res = _residual(item, y, lam, nu)
            return y, lam, nu, slack, tried, True, res, True
    raise ValueError(
        "QP is infeasible: no subset of active rows gives a feasible point (brute force)"
    )


def _parse_solution(
    solution: QPSolution | None, batch: _Batch, cfg: QPSolverConfig
) -> list[tuple[FloatArray, FloatArray, FloatArray, FloatArray]]:
    if solution is None:
        sols = [_solve_one(item, cfg) for item in batch.items]
        return [(s[0], s[1], s[2], s[3]) for s in sols]
    if not isinstance(solution, QPSolution):
        raise TypeError(f"solution: expected a QPSolution or None, got {type(solution).__name__}")
    size = len(batch.items)
    want_x = (size, batch.n) if batch.batched else (batch.n,)
    if solution.x.shape != want_x:
        raise ValueError(f"solution: expected x of shape {want_x}, got {solution.x.shape}")
    out = []
    for i in range(size):
        if batch.batched:
            out.append((solution.x[i], solution.lam[i], solution.nu[i], solution.slack[i]))
        else:
            out.append((solution.x, solution.lam, solution.nu, solution.slack))
    for x, lam, nu, slack in out:
        for name, arr in (("x", x), ("lam", lam), ("nu", nu), ("slack", slack)):
            if not bool(np.all(np.isfinite(arr))):
                raise ValueError(f"solution.{name}: expected finite values, got NaN/inf")
        if lam.shape != (batch.m,) or nu.shape != (batch.p,):
            raise ValueError(
                f"solution: expected lam ({batch.m},) and nu ({batch.p},), "
                f"got {lam.shape} and {nu.shape}"
            )
    return out
