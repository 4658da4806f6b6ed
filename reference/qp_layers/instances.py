"""Instances shared by the ``qp_layers.*`` suites and the spec 03 theorem checks.

:func:`planted_qp` draws a convex QP with a planted, strictly complementary KKT point
(:class:`QPInstance`): its solution, multipliers and active set are known exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from reference._arrays import FloatArray
from reference._repr import summary_repr

__all__ = ["QPInstance", "planted_qp"]


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class QPInstance:
    """A QP with a planted, strictly complementary KKT point.

    Attributes:
        Q, q, G, h, A, b: the QP (``G``/``h``, ``A``/``b`` are ``None`` when absent).
        y: ``(n,)`` the solution.
        lam: ``(m,)`` inequality multipliers (``> 0.5`` on ``active``, 0 elsewhere).
        nu: ``(p,)`` equality multipliers.
        active: ``(m,)`` mask of the active rows.
    """

    Q: FloatArray
    q: FloatArray
    G: FloatArray | None
    h: FloatArray | None
    A: FloatArray | None
    b: FloatArray | None
    y: FloatArray
    lam: FloatArray
    nu: FloatArray
    active: np.ndarray[Any, np.dtype[np.bool_]]

    def args(
        self,
    ) -> tuple[
        FloatArray,
        FloatArray,
        FloatArray | None,
        FloatArray | None,
        FloatArray | None,
        FloatArray | None,
    ]:
        """Fresh copies of ``(Q, q, G, h, A, b)``."""

        def cp(a: FloatArray | None) -> FloatArray | None:
            return None if a is None else a.copy()

        return self.Q.copy(), self.q.copy(), cp(self.G), cp(self.h), cp(self.A), cp(self.b)


def planted_qp(
    rng: np.random.Generator,
    *,
    n: int,
    m: int,
    p: int,
    k: int,
    q_scale: float = 1.0,
    Q: FloatArray | None = None,
    row_scale: float | None = None,
) -> QPInstance:
    """A random QP with planted KKT point ``(y₀, λ, ν₀)`` (spec 03 T1 generator).

    ``Q = MᵀM/n + ½I``; ``G``, ``A`` Gaussian; ``y₀`` entries ``±U(0.5, 2)``; ``k`` active
    rows with ``λ ∈ U(0.5, 2)``; inactive slacks ``U(0.1, 1)``; ``ν₀ ~ N(0, I)``;
    ``h_i = G_i y₀`` (+ slack), ``b = A y₀``, ``q = −Q y₀ − G_Sᵀ λ_S − Aᵀ ν₀``.

    Args:
        rng: generator.
        n: variables (``>= 1``).
        m: inequality rows (0 for none).
        p: equality rows (0 for none; ``k + p < n`` keeps LICQ generic).
        k: active inequality rows (``<= m``).
        q_scale: multiplies ``Q`` and ``q`` (the solution is unchanged; multipliers scale).
        Q: use this symmetric positive definite ``(n, n)`` matrix instead of drawing one.
        row_scale: if given, the active rows of ``G`` and the rows of ``A`` are orthogonal
            with norm ``row_scale`` (``σ(C) = row_scale``: a well-conditioned active set).

    Raises:
        ValueError: inconsistent sizes.

    Example:
        >>> inst = planted_qp(np.random.default_rng(0), n=4, m=3, p=1, k=2)
        >>> int(inst.active.sum()), inst.G.shape, inst.A.shape
        (2, (3, 4), (1, 4))
        >>> residual = inst.Q @ inst.y + inst.q + inst.G.T @ inst.lam + inst.A.T @ inst.nu
        >>> bool(np.abs(residual).max() < 1e-12)
        True
    """
    if not (n >= 1 and 0 <= k <= m and p >= 0 and (k + p < n or k + p == 0)):
        raise ValueError(f"sizes: expected 0 <= k <= m and k + p < n, got n={n} m={m} p={p} k={k}")
    M = rng.standard_normal((n, n))
    if Q is None:
        Q = M.T @ M / n + 0.5 * np.eye(n)
    Q = 0.5 * (Q + Q.T)
    y0 = rng.uniform(0.5, 2.0, n) * rng.choice([-1.0, 1.0], n)
    G = rng.standard_normal((m, n)) if m else None
    A = rng.standard_normal((p, n)) if p else None
    lam = np.zeros(m)
    active = np.zeros(m, dtype=bool)
    h = None
    grad = Q @ y0
    if G is not None:
        idx = rng.choice(m, size=k, replace=False)
        active[idx] = True
    if row_scale is not None and k + p:
        rows = row_scale * np.linalg.qr(rng.standard_normal((n, k + p)))[0].T
        if G is not None:
            G[idx] = rows[:k]
        if A is not None:
            A = rows[k:]
    if G is not None:
        lam[idx] = rng.uniform(0.5, 2.0, k)
        h = G @ y0 + np.where(active, 0.0, rng.uniform(0.1, 1.0, m))
        grad = grad + G.T @ lam
    nu = rng.standard_normal(p)
    b = None
    if A is not None:
        b = A @ y0
        grad = grad + A.T @ nu
    q = -grad
    return QPInstance(
        Q=q_scale * Q,
        q=q_scale * q,
        G=G,
        h=h,
        A=A,
        b=b,
        y=y0,
        lam=q_scale * lam,
        nu=q_scale * nu,
        active=active,
    )
