"""Hand-made broken QP solvers and layer gradients: the qp_layers suites must reject each.

Importable (``tests.qp_layers.mutants:solver_ignores_inequalities``) for the CLI tests.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from reference import qp_layers as ql
from reference._arrays import FloatArray

Triple = tuple[FloatArray, FloatArray, FloatArray]
Six = tuple[FloatArray | None, ...]


# ------------------------------------------------------------------------------- solvers
def solver_ignores_inequalities(Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any) -> Triple:
    """Mutant: solves the equality QP by one unchecked KKT solve, ignoring ``Gy <= h``
    (no validation either: indefinite Q and infeasible rows pass silently)."""
    Qa = np.asarray(Q, dtype=np.float64)
    n = Qa.shape[0]
    m = 0 if G is None else np.shape(G)[0]
    if A is None:
        x = np.linalg.solve(Qa, -np.asarray(q))
        return x, np.zeros(m), np.zeros(0)
    Aa = np.asarray(A, dtype=np.float64)
    p = Aa.shape[0]
    K = np.block([[Qa, Aa.T], [Aa, np.zeros((p, p))]])
    sol = np.linalg.solve(K, np.concatenate([-np.asarray(q), np.asarray(b)]))
    return sol[:n], np.zeros(m), sol[n:]


def solver_drops_last_row(Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any) -> Triple:
    """Mutant (off-by-one): forgets the last inequality row."""
    if G is None or np.shape(G)[0] <= 1:
        sol = ql.solve_qp(Q, q, G, h, A, b)
        return np.array(sol.x), np.array(sol.lam), np.array(sol.nu)
    sol = ql.solve_qp(Q, q, np.asarray(G)[:-1], np.asarray(h)[:-1], A, b)
    return np.array(sol.x), np.append(np.array(sol.lam), 0.0), np.array(sol.nu)


def solver_lambda_sign(Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any) -> Triple:
    """Mutant: returns the multipliers with the opposite sign convention."""
    sol = ql.solve_qp(Q, q, G, h, A, b)
    return np.array(sol.x), -np.array(sol.lam), -np.array(sol.nu)


def solver_normalises_q_matrix(Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any) -> Triple:
    """Mutant: rescales ``Q`` by its largest entry "for stability" but not ``q``."""
    Qa = np.asarray(Q, dtype=np.float64)
    sol = ql.solve_qp(Qa / np.max(np.abs(Qa)), q, G, h, A, b)
    return np.array(sol.x), np.array(sol.lam), np.array(sol.nu)


def solver_batch_first_only(Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any) -> Triple:
    """Batched mutant: solves the first QP of a batch and broadcasts it."""
    Qa = np.asarray(Q, dtype=np.float64)
    if Qa.ndim == 2:
        sol = ql.solve_qp(Q, q, G, h, A, b)
        return np.array(sol.x), np.array(sol.lam), np.array(sol.nu)
    size = Qa.shape[0]
    first = ql.solve_qp(
        Qa[0],
        np.asarray(q)[0],
        None if G is None else np.asarray(G)[0],
        None if h is None else np.asarray(h)[0],
        None if A is None else np.asarray(A)[0],
        None if b is None else np.asarray(b)[0],
    )
    rep = (size, 1)
    return np.tile(first.x, rep), np.tile(first.lam, rep), np.tile(first.nu, rep)


# ------------------------------------------------------------------- exact hypergradients
def kkt_sign_flip(*args: Any) -> Six:
    """Mutant: returns ``−(∂y*/∂θ)ᵀ d`` (a descent/ascent mix-up)."""
    g = ql.kkt_grads(*args)
    return tuple(None if v is None else -np.array(v) for v in g.as_tuple())


def kkt_unsymmetrised_q_matrix(*args: Any) -> Six:
    """Mutant: ``∇_Q = d_z y*ᵀ`` (the public FFOQPLayer convention), not symmetrised.

    Invisible to finite differences along symmetric directions; caught by the oracle."""
    g = ql.kkt_grads(*args)
    sol = ql.solve_qp(*args[:6])
    gQ = np.outer(np.array(g.q), np.array(sol.x))
    return (gQ, *g.as_tuple()[1:])


def kkt_drops_lambda_dz(*args: Any) -> Six:
    """Mutant: ``∇_G`` without the ``λ* d_zᵀ`` term (public-code deviation (a))."""
    g = ql.kkt_grads(*args)
    sol = ql.solve_qp(*args[:6])
    parts = list(g.as_tuple())
    if parts[2] is not None:
        parts[2] = np.array(parts[2]) - np.outer(np.array(sol.lam), np.array(g.q))
    return tuple(parts)


def kkt_all_rows_active(*args: Any) -> Six:
    """Mutant: freezes every inequality row as active (ignores the slack test)."""
    Q, q, G, h, A, b, d = args
    if G is None:
        return ql.kkt_grads(*args).as_tuple()
    cfg = ql.FFOConfig(slack_tol=1e9, difference="central")
    with warnings.catch_warnings():  # the frozen set is degenerate by design: stay quiet
        warnings.simplefilter("ignore")
        return ql.ffo_grads(Q, q, G, h, A, b, d, alpha=100.0, config=cfg).as_tuple()


def kkt_normalised_q_matrix(*args: Any) -> Six:
    """Mutant: differentiates the QP with ``(Q, q)/‖Q‖∞``: right ``y*``, wrong scale of ``∇``."""
    Q, q, G, h, A, b, d = args
    Qa = np.asarray(Q, dtype=np.float64)
    scale = float(np.max(np.abs(Qa)))
    return ql.kkt_grads(Qa / scale, np.asarray(q) / scale, G, h, A, b, d).as_tuple()


def ffo_used_as_exact(*args: Any) -> Six:
    """Mutant: the forward-difference FFO gradient at α = 10 passed off as exact."""
    return ql.ffo_grads(*args, alpha=10.0).as_tuple()


# --------------------------------------------------------------------------- FFO gradients
def ffo_sign_flip(*args: Any, alpha: float) -> Six:
    """Mutant: ``−ĝ``."""
    g = ql.ffo_grads(*args, alpha=alpha)
    return tuple(None if v is None else -np.array(v) for v in g.as_tuple())


def ffo_missing_alpha(*args: Any, alpha: float) -> Six:
    """Mutant: forgets to multiply the difference by ``α``."""
    g = ql.ffo_grads(*args, alpha=alpha)
    return tuple(None if v is None else np.array(v) / alpha for v in g.as_tuple())


def ffo_constraints_at_ystar(*args: Any, alpha: float) -> Six:
    """Mutant: public-code deviation (a): constraint terms at ``y*`` (drops ``λ* d_zᵀ``,
    ``ν* d_zᵀ``); the G and A blocks are then off by O(1), not O(1/α)."""
    g = ql.ffo_grads(*args, alpha=alpha)
    sol = ql.solve_qp(*args[:6])
    parts = list(g.as_tuple())
    dz = np.array(g.q)
    if parts[2] is not None:
        parts[2] = np.array(parts[2]) - np.outer(np.array(sol.lam), dz)
    if parts[4] is not None:
        parts[4] = np.array(parts[4]) - np.outer(np.array(sol.nu), dz)
    return tuple(parts)


def ffo_all_rows_active(*args: Any, alpha: float) -> Six:
    """Mutant: every inequality row in the ghost problem (no active-set test)."""
    cfg = ql.FFOConfig(slack_tol=1e9)
    with warnings.catch_warnings():  # the frozen set is degenerate by design: stay quiet
        warnings.simplefilter("ignore")
        return ql.ffo_grads(*args, alpha=alpha, config=cfg).as_tuple()


def ffo_normalised_upstream(*args: Any, alpha: float) -> Six:
    """Mutant: normalises ``d`` to unit length for stability and never undoes it."""
    Q, q, G, h, A, b, d = args
    unit = np.asarray(d, dtype=np.float64) / max(float(np.linalg.norm(d)), 1e-300)
    return ql.ffo_grads(Q, q, G, h, A, b, unit, alpha=alpha).as_tuple()


def ffo_trace_scaled_tilt(*args: Any, alpha: float) -> Six:
    """Mutant: tilts by ``d·tr(Q)/n`` ("relative" tilt): wrong by a factor tr(Q)/n and
    blind to rescaling the objective."""
    Q, q, G, h, A, b, d = args
    Qa = np.asarray(Q, dtype=np.float64)
    tilt = np.asarray(d, dtype=np.float64) * np.trace(Qa) / Qa.shape[0]
    return ql.ffo_grads(Q, q, G, h, A, b, tilt, alpha=alpha).as_tuple()


def ffo_unsymmetrised_q_matrix(*args: Any, alpha: float) -> Six:
    """Mutant: public-code deviation (c): ``ĝ_Q = α(y_α − y*) y*ᵀ``."""
    g = ql.ffo_grads(*args, alpha=alpha)
    sol = ql.solve_qp(*args[:6])
    return (np.outer(np.array(g.q), np.array(sol.x)), *g.as_tuple()[1:])
