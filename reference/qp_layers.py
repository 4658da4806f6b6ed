"""Differentiable quadratic-programming layers: forward solve, KKT and FFO hypergradients.

The layer maps parameters ``θ = (Q, q, G, h, A, b)`` to the solution ``y*(θ)`` of

    min_y ½ yᵀQy + qᵀy   s.t.   G y ≤ h,   A y = b                      (qpth convention)

and training needs the *layer part* of the hypergradient, ``(∂y*/∂θ)ᵀ d`` for an
upstream gradient ``d = ∇_y ℓ`` (``grad_x`` below).  This module holds

* :func:`solve_qp` — dense primal–dual interior point (Mehrotra predictor–corrector,
  float64) with an infeasibility check by LP and an active-set polish (our default);
* :func:`solve_qp_active_set` — the brute-force active-set oracle for small ``m``;
* :func:`kkt_grads` — the exact implicit-differentiation baseline (OptNet / KKT, spec A1);
* :func:`ffo_grads` — the FFOLayer hypergradient (frozen active set, tilted ghost
  problem, finite difference scaled by ``α``; spec A2) with an exact or a fully
  first-order inner solver (:func:`ghost_pgd`, spec A2-FO);
* :func:`penalty_grads` — the older penalty-based first-order baseline (spec A4);
* :func:`kkt_residual`, :func:`active_set` — the defining quantities used by the suites.

Notation map (paper → argument): ``y`` → ``x`` of the result (the primal solution),
``λ*`` → ``lam``, ``ν*`` → ``nu``, ``s`` → ``slack = h − G y*``, ``d`` → ``grad_x``,
``α`` → ``alpha``, ``I`` → ``active``, ``C = [G_I; A]``, ``λ_p`` → ``penalty``.

Batching: every array may carry a leading batch axis ``B`` (``Q (B, n, n)``, ``q (B, n)``,
``G (B, m, n)``, ...); unbatched arguments broadcast over the batch.  Results are
batched when any input is; the gradient of a broadcast (unbatched) parameter is the
sum over the batch (the gradient of ``Σ_b d_bᵀ y*_b``), so every gradient has exactly
its parameter's shape.  Absent constraints are passed as ``None`` (``G``/``h`` and
``A``/``b`` together), never as empty arrays.

References:
    Z. Zhao, K.-C. Mo, S.-H. Ho, B. Amos, K. Wang, "A Fully First-Order Layer for
    Differentiable Optimization", ICML 2026, arXiv:2512.02494 (spec 03, Sections 2-3;
    public code ``ffolayer`` v0.1.1, ``ffoqp_eq.py``).
    B. Amos, J. Z. Kolter, "OptNet: Differentiable Optimization as a Layer in Neural
    Networks", ICML 2017, Section 3 (the KKT baseline).
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import scipy.linalg
from scipy.optimize import linprog

from reference._arrays import (
    BoolArray,
    FloatArray,
    as_float_array,
    readonly,
    require_int,
    require_positive,
)

__all__ = [
    "DegenerateQPWarning",
    "FFOConfig",
    "GhostPGDResult",
    "PenaltyConfig",
    "QPGrads",
    "QPSolution",
    "QPSolverConfig",
    "RankDeficientWarning",
    "active_set",
    "ffo_grads",
    "ghost_pgd",
    "kkt_grads",
    "kkt_residual",
    "penalty_grads",
    "solve_qp",
    "solve_qp_active_set",
]

#: Relative symmetry tolerance for ``Q`` (spec 03 §5: ``‖Q − Qᵀ‖ > 1e-10‖Q‖`` is rejected).
SYMMETRY_RTOL = 1e-10
#: Largest ``m`` the brute-force oracle accepts (``2^m`` subsets).
MAX_BRUTE_FORCE_ROWS = 14


class DegenerateQPWarning(UserWarning):
    """A constraint is weakly active (``s_i ≈ 0`` and ``λ*_i ≈ 0``): ``y*`` is not
    differentiable there and the returned gradient is a one-sided choice."""


class RankDeficientWarning(UserWarning):
    """The frozen-active-set matrix ``C = [G_I; A]`` is rank deficient; rows with the
    smallest multipliers were dropped (spec 03 A2 step 1)."""


# ----------------------------------------------------------------------------------- configs
@dataclass(frozen=True, slots=True, kw_only=True)
class QPSolverConfig:
    """Settings of the forward solve :func:`solve_qp`.

    Attributes:
        tol: stop when the scaled primal, dual and complementarity residuals are all
            ``<= tol`` (spec 03 A0: 1e-10, our default).
        max_iter: interior-point iteration cap (spec 03 A0: 100).
        polish: re-solve the equality QP on the interior point's active set and keep
            it when it is feasible with ``λ >= 0`` (our default; gives machine-precision
            solutions, which the finite difference of :func:`ffo_grads` needs).
        feasibility_tol: primal feasibility tolerance of the LP infeasibility test
            and of the polish acceptance (scaled by ``1 + ‖h‖∞``).
        check_feasibility: run the LP phase 1 that reports an infeasible QP as such; callers
            that know the QP is feasible may skip it (an infeasible QP then comes back with
            ``converged=False`` instead of a ``ValueError``).
    """

    tol: float = 1e-10
    max_iter: int = 100
    polish: bool = True
    feasibility_tol: float = 1e-9
    check_feasibility: bool = True

    def __post_init__(self) -> None:
        require_positive("tol", self.tol)
        require_int("max_iter", self.max_iter, minimum=1)
        require_positive("feasibility_tol", self.feasibility_tol)


@dataclass(frozen=True, slots=True, kw_only=True)
class FFOConfig:
    """Settings of :func:`ffo_grads` (defaults of the public ``FFOQPLayer``).

    Attributes:
        slack_tol: row ``i`` may be active when ``s_i <= slack_tol`` (public: 1e-8).
        dual_cutoff: and ``λ*_i >= dual_cutoff`` (public QP layer: slack only, i.e. 0;
            the general ``FFOLayer`` uses 1e-3).
        degenerate_tol: ``s_i <= slack_tol`` and ``λ*_i <= degenerate_tol`` is reported
            by :class:`DegenerateQPWarning`.
        inner: ``"exact"`` (one KKT solve of the ghost problem via a Cholesky of ``Q`` and
            the Schur complement, public ``exact_bwd_sol=True``) or ``"first_order"``
            (warm-started projected gradient descent, spec A2-FO).
        difference: ``"forward"`` (the paper, error ``O(1/α)``) or ``"central"`` (our
            extension, exact for QPs).
        inner_tol: stop PGD when ``‖Π(Qy + q + d/α)‖ <= inner_tol / α`` (spec: 1e-10).
        inner_max_iter: PGD iteration cap (spec: 10 000).
    """

    slack_tol: float = 1e-8
    dual_cutoff: float = 0.0
    degenerate_tol: float = 1e-9
    inner: Literal["exact", "first_order"] = "exact"
    difference: Literal["forward", "central"] = "forward"
    inner_tol: float = 1e-10
    inner_max_iter: int = 10_000

    def __post_init__(self) -> None:
        require_positive("slack_tol", self.slack_tol, allow_zero=True)
        require_positive("dual_cutoff", self.dual_cutoff, allow_zero=True)
        require_positive("degenerate_tol", self.degenerate_tol, allow_zero=True)
        if self.inner not in ("exact", "first_order"):
            raise ValueError(f"inner: expected 'exact' or 'first_order', got {self.inner!r}")
        if self.difference not in ("forward", "central"):
            raise ValueError(
                f"difference: expected 'forward' or 'central', got {self.difference!r}"
            )
        require_positive("inner_tol", self.inner_tol)
        require_int("inner_max_iter", self.inner_max_iter, minimum=1)


@dataclass(frozen=True, slots=True, kw_only=True)
class PenaltyConfig:
    """Settings of :func:`penalty_grads` (older ``ffoqp.py``; Kornowski et al. 2024).

    Attributes:
        slack_tol: active-set threshold on the slack (as :class:`FFOConfig`).
        active_weight: ``"mask"`` (0/1 weight on active rows, our default) or ``"tanh"``
            (the public code's soft weight ``tanh(10 λ*_i)``).
    """

    slack_tol: float = 1e-8
    active_weight: Literal["mask", "tanh"] = "mask"

    def __post_init__(self) -> None:
        require_positive("slack_tol", self.slack_tol, allow_zero=True)
        if self.active_weight not in ("mask", "tanh"):
            raise ValueError(
                f"active_weight: expected 'mask' or 'tanh', got {self.active_weight!r}"
            )


# ----------------------------------------------------------------------------------- results
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class QPSolution:
    """Primal–dual solution of the QP (batched when any input was).

    Attributes:
        x: ``(n,)`` or ``(B, n)``: the primal solution ``y*``.
        lam: ``(m,)`` or ``(B, m)``: inequality multipliers ``λ* >= 0`` (``(0,)`` without ``G``).
        nu: ``(p,)`` or ``(B, p)``: equality multipliers ``ν*`` (``(0,)`` without ``A``).
        slack: like ``lam``: ``s = h − G y*`` (not clipped; ``≈ 0`` on active rows).
        iterations: interior-point iterations (max over the batch; subsets tried by
            :func:`solve_qp_active_set`).
        converged: every element met the tolerance.
        residual: :func:`kkt_residual` of the returned point (max over the batch).
        polished: every element's solution came from the active-set polish.
    """

    x: FloatArray
    lam: FloatArray
    nu: FloatArray
    slack: FloatArray
    iterations: int
    converged: bool
    residual: float
    polished: bool


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class QPGrads:
    """``(∂y*/∂θ)ᵀ d`` for every parameter; each has its parameter's shape.

    Attributes:
        Q, q, G, h, A, b: gradients (``None`` where the constraint block was absent).
        active: ``(m,)``/``(B, m)`` mask of the rows treated as active (``None`` without ``G``).
        iterations: inner-solver iterations (0 for direct solves; max over the batch).
        converged: the inner solver met its tolerance (always true for direct solves).
    """

    Q: FloatArray
    q: FloatArray
    G: FloatArray | None
    h: FloatArray | None
    A: FloatArray | None
    b: FloatArray | None
    active: BoolArray | None
    iterations: int = 0
    converged: bool = True

    def as_tuple(self) -> tuple[FloatArray | None, ...]:
        """``(Q, q, G, h, A, b)`` in the qpth argument order."""
        return (self.Q, self.q, self.G, self.h, self.A, self.b)


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class GhostPGDResult:
    """Output of :func:`ghost_pgd`.

    Attributes:
        y: ``(n,)`` last iterate ``y^K``.
        multipliers: ``(k,)`` least-squares multipliers ``w`` of ``C y = c`` at ``y^K``.
        iterations: ``K``, the number of gradient steps taken.
        converged: the stopping rule ``‖Π ∇‖ <= tol/α`` was met.
        residual: ``α ‖Π(Q y^K + q + d/α)‖`` (the stopping quantity times ``α``).
        history: ``(K + 1, n)`` iterates ``y^0..y^K`` when requested, else ``(0, n)``.
    """

    y: FloatArray
    multipliers: FloatArray
    iterations: int
    converged: bool
    residual: float
    history: FloatArray


# ------------------------------------------------------------------------------ input parsing
@dataclass(frozen=True, slots=True)
class _QP:
    Q: FloatArray
    q: FloatArray
    G: FloatArray | None
    h: FloatArray | None
    A: FloatArray | None
    b: FloatArray | None


@dataclass(frozen=True, slots=True)
class _Batch:
    items: tuple[_QP, ...]
    batched: bool
    batched_params: dict[str, bool]
    n: int
    m: int
    p: int


def _array(name: str, value: object, base_ndim: int) -> tuple[FloatArray, bool]:
    array = as_float_array(name, value)
    if array.ndim not in (base_ndim, base_ndim + 1):
        raise ValueError(
            f"{name}: expected a {base_ndim}-D array or a batch of them "
            f"({base_ndim + 1}-D), got shape {array.shape}"
        )
    return array, array.ndim == base_ndim + 1


def _check_spd(Q: FloatArray) -> None:
    scale = max(float(np.max(np.abs(Q))), 1e-300)
    asym = float(np.max(np.abs(Q - Q.T)))
    if asym > SYMMETRY_RTOL * scale:
        raise ValueError(
            "Q must be symmetric positive definite: expected |Q - Qᵀ| <= 1e-10 |Q|, "
            f"got max asymmetry {asym!r} (max |Q| = {scale!r})"
        )
    try:
        np.linalg.cholesky(0.5 * (Q + Q.T))
    except np.linalg.LinAlgError as exc:
        raise ValueError(
            "Q must be symmetric positive definite: the Cholesky factorisation failed "
            f"(smallest eigenvalue {float(np.linalg.eigvalsh(0.5 * (Q + Q.T))[0])!r})"
        ) from exc


def _parse(Q: object, q: object, G: object, h: object, A: object, b: object) -> _Batch:
    Qa, bq = _array("Q", Q, 2)
    if Qa.shape[-1] != Qa.shape[-2]:
        raise ValueError(f"Q: expected a square (n, n) matrix, got shape {Qa.shape}")
    n = Qa.shape[-1]
    qa, bqq = _array("q", q, 1)
    if qa.shape[-1] != n:
        raise ValueError(f"q: expected shape (n,) = ({n},) (or (B, {n})), got shape {qa.shape}")
    arrays: dict[str, FloatArray | None] = {"Q": Qa, "q": qa, "G": None, "h": None}
    arrays["A"] = None
    arrays["b"] = None
    flags = {"Q": bq, "q": bqq, "G": False, "h": False, "A": False, "b": False}
    m = p = 0
    for mat_name, vec_name, mat, vec in (("G", "h", G, h), ("A", "b", A, b)):
        if (mat is None) != (vec is None):
            raise ValueError(
                f"{mat_name}, {vec_name}: expected both or neither, got "
                f"{mat_name}={'None' if mat is None else 'array'}, "
                f"{vec_name}={'None' if vec is None else 'array'}"
            )
        if mat is None:
            continue
        Ma, bm = _array(mat_name, mat, 2)
        if Ma.shape[-1] != n:
            raise ValueError(
                f"{mat_name}: expected shape (rows, n) with n = {n}, got shape {Ma.shape}"
            )
        rows = Ma.shape[-2]
        va, bv = _array(vec_name, vec, 1)
        if va.shape[-1] != rows:
            raise ValueError(
                f"{vec_name}: expected shape ({rows},) to match {mat_name} (or a batch), "
                f"got shape {va.shape}"
            )
        arrays[mat_name], arrays[vec_name] = Ma, va
        flags[mat_name], flags[vec_name] = bm, bv
        if mat_name == "G":
            m = rows
        else:
            p = rows
    sizes = {name: arr.shape[0] for name, arr in arrays.items() if arr is not None and flags[name]}
    if len(set(sizes.values())) > 1:
        raise ValueError(f"batch sizes: expected one common leading size, got {sizes}")
    batched = bool(sizes)
    size = next(iter(sizes.values())) if sizes else 1

    def pick(name: str, i: int) -> FloatArray | None:
        arr = arrays[name]
        if arr is None:
            return None
        return arr[i] if flags[name] else arr

    items = []
    checked_Q: set[int] = set()
    for i in range(size):
        Qi = pick("Q", i)
        assert Qi is not None
        key = i if flags["Q"] else 0
        if key not in checked_Q:
            _check_spd(Qi)
            checked_Q.add(key)
        Ai = pick("A", i)
        if Ai is not None and (p > n or np.linalg.matrix_rank(Ai) < p):
            raise ValueError(
                f"A: expected full row rank (p <= n and independent rows), got shape {Ai.shape} "
                f"with rank {np.linalg.matrix_rank(Ai)}"
            )
        qi = pick("q", i)
        assert qi is not None
        items.append(_QP(Qi, qi, pick("G", i), pick("h", i), Ai, pick("b", i)))
    return _Batch(tuple(items), batched, flags, n, m, p)


def _parse_grad(grad_x: object, batch: _Batch) -> list[FloatArray]:
    d, bd = _array("grad_x", grad_x, 1)
    if d.shape[-1] != batch.n:
        raise ValueError(f"grad_x: expected shape ({batch.n},) or (B, {batch.n}), got {d.shape}")
    size = len(batch.items)
    if bd and not batch.batched:
        raise ValueError(
            f"grad_x: expected shape ({batch.n},) for an unbatched QP, got shape {d.shape}"
        )
    if bd and d.shape[0] != size:
        raise ValueError(f"grad_x: expected batch size {size}, got shape {d.shape}")
    return [d[i] if bd else d for i in range(size)]


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


# ------------------------------------------------------------------------------ forward solve
def _empty() -> FloatArray:
    return np.zeros(0)


def _f64(value: object) -> FloatArray:
    return np.asarray(value, dtype=np.float64)


def kkt_residual(
    Q: object,
    q: object,
    G: object,
    h: object,
    A: object,
    b: object,
    x: object,
    lam: object,
    nu: object,
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
    neg = dv < 0
    if not bool(np.any(neg)):
        return 1.0
    return min(1.0, float(np.min(-v[neg] / dv[neg])))


def _pdipm(item: _QP, cfg: QPSolverConfig) -> tuple[FloatArray, FloatArray, FloatArray, int, bool]:
    """Mehrotra predictor–corrector on the reduced system ``(Q + Gᵀ diag(z/s) G)``.

    Safeguard (our addition): when the corrected step does not decrease ``μ = sᵀz/m`` by at
    least ``1%`` of the step, it is replaced by a plain path-following step with ``σ >= 0.1``
    whose length is halved until it does (without it ``μ`` can 2-cycle and the method
    stalls; found by the conformance suite)."""
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
            if mu_new > (1.0 - 0.01 * step) * mu:
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
    item: _QP, x: FloatArray, lam: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray] | None:
    """Re-solve the equality QP on the active set ``{λ_i > s_i}``; ``None`` if not better."""
    assert item.G is not None
    assert item.h is not None
    slack = item.h - item.G @ x
    act = lam > slack
    rows = [item.G[act]]
    rhs = [item.h[act]]
    if item.A is not None and item.b is not None:
        rows.append(item.A)
        rhs.append(item.b)
    C = np.concatenate(rows, axis=0)
    c = np.concatenate(rhs)
    try:
        yp, w = _equality_qp(item.Q, -item.q, C, c)
    except np.linalg.LinAlgError:
        return None
    k = int(act.sum())
    lam_new = np.zeros_like(lam)
    lam_new[act] = w[:k]
    nu_new = w[k:]
    if not bool(np.all(np.isfinite(yp))) or not bool(np.all(np.isfinite(w))):
        return None
    return yp, lam_new, nu_new


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
        cand = _polish(item, x, lam)
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
    Q: object,
    q: object,
    G: object = None,
    h: object = None,
    A: object = None,
    b: object = None,
    *,
    config: QPSolverConfig | None = None,
) -> QPSolution:
    """Solve ``min ½yᵀQy + qᵀy  s.t.  Gy ≤ h, Ay = b`` (batched) to about 1e-10 KKT residual.

    Method (spec 03 A0, our default): an LP phase 1 (HiGHS) decides feasibility; a
    dense primal–dual interior point (Mehrotra predictor–corrector, float64, CVXOPT
    initialisation) solves the reduced Newton system ``(Q + Gᵀ diag(λ/s) G) Δy + Aᵀ Δν``
    by Cholesky and a Schur complement on ``A``; then the active-set *polish*
    re-solves the equality QP with rows ``{i : λ_i > s_i}`` and keeps it when it is
    feasible with ``λ >= 0`` and has a smaller residual.  Without ``G`` the QP is an
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
    Q: object,
    q: object,
    G: object = None,
    h: object = None,
    A: object = None,
    b: object = None,
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


# ------------------------------------------------------------------------- gradient assembly
def _assemble(
    batch: _Batch,
    per_item: Sequence[dict[str, FloatArray]],
    masks: Sequence[BoolArray],
    iterations: int = 0,
    converged: bool = True,
) -> QPGrads:
    out: dict[str, FloatArray | None] = {}
    for name in ("Q", "q", "G", "h", "A", "b"):
        if name not in per_item[0]:
            out[name] = None
            continue
        arrays = [g[name] for g in per_item]
        if batch.batched and batch.batched_params[name]:
            value = np.stack(arrays)
        elif batch.batched:
            value = np.sum(np.stack(arrays), axis=0)
        else:
            value = arrays[0]
        if not bool(np.all(np.isfinite(value))):  # never hand back silent NaN
            raise ValueError(f"gradient of {name} is not finite (ill-conditioned KKT system)")
        out[name] = readonly(np.array(value))
    active: BoolArray | None = None
    if batch.m:
        active = readonly(np.stack(list(masks)) if batch.batched else np.array(masks[0]))
    Qg, qg = out["Q"], out["q"]
    assert Qg is not None
    assert qg is not None
    return QPGrads(
        Q=Qg,
        q=qg,
        G=out["G"],
        h=out["h"],
        A=out["A"],
        b=out["b"],
        active=active,
        iterations=iterations,
        converged=converged,
    )


def _lagrangian_grads(
    item: _QP, y: FloatArray, mu_full: FloatArray, nu: FloatArray
) -> dict[str, FloatArray]:
    """``∇_θ 𝓛(θ; y, μ, ν)`` for ``𝓛 = ½yᵀQy + qᵀy + μᵀ(Gy − h) + νᵀ(Ay − b)``."""
    grads = {"Q": 0.5 * np.outer(y, y), "q": y.copy()}
    if item.G is not None:
        grads["G"] = np.outer(mu_full, y)
        grads["h"] = -mu_full
    if item.A is not None:
        grads["A"] = np.outer(nu, y)
        grads["b"] = -nu
    return grads


def _degenerate_rows(
    slack: FloatArray, lam: FloatArray, slack_tol: float, dtol: float
) -> BoolArray:
    return (slack <= slack_tol) & (lam <= dtol)


# -------------------------------------------------------------------------------- A1: KKT
def kkt_grads(
    Q: object,
    q: object,
    G: object,
    h: object,
    A: object,
    b: object,
    grad_x: object,
    *,
    solution: QPSolution | None = None,
    slack_tol: float = 1e-8,
    degenerate_tol: float = 1e-9,
) -> QPGrads:
    """Exact ``(∂y*/∂θ)ᵀ d`` by implicit differentiation of the KKT conditions (spec 03 A1).

    Solves the transposed differentiated-KKT system (``n + m + p`` unknowns)

        [ Q        Gᵀ·diag(λ*)   Aᵀ ] [d_z]     [ d ]
        [ G        diag(Gy* − h) 0  ] [d_λ] = − [ 0 ]
        [ A        0             0  ] [d_ν]     [ 0 ]

    in the scaled unknowns ``d̃_λ = diag(λ*) d_λ`` (row ``i`` of the middle block
    multiplied by ``λ*_i``: ``λ*_i G_i d_z − s_i d̃_λ,i = 0``), which is the same linear
    system after a diagonal change of variables and stays well posed when ``λ*_i = 0``.
    Then ``∇_q = d_z``, ``∇_Q = ½(d_z y*ᵀ + y* d_zᵀ)`` (symmetrised convention),
    ``∇_G = d̃_λ y*ᵀ + λ* d_zᵀ``, ``∇_h = −d̃_λ``, ``∇_A = d_ν y*ᵀ + ν* d_zᵀ``, ``∇_b = −d_ν``.

    Args:
        Q, q, G, h, A, b: the QP (see :func:`solve_qp`; batched allowed).
        grad_x: ``(n,)`` or ``(B, n)``: the upstream gradient ``d = ∇_y ℓ``.
        solution: a :class:`QPSolution` of this QP (solved here when ``None``).
        slack_tol: rows with ``s_i <= slack_tol`` and ``λ*_i <= degenerate_tol`` are weakly
            active: a :class:`DegenerateQPWarning` is issued and they are treated as
            active (one-sided choice, row ``G_i d_z = 0``).
        degenerate_tol: see ``slack_tol``.

    Returns:
        :class:`QPGrads` (each gradient with its parameter's shape; ``active`` marks
        the rows with ``λ*_i > 0`` or treated as active).

    Raises:
        TypeError: non-numeric input.
        ValueError: as :func:`solve_qp`; bad ``grad_x``; singular KKT matrix (LICQ fails).

    Example:
        >>> g = kkt_grads([[2.0]], [-2.0], None, None, None, None, [1.0])
        >>> float(g.q[0]), float(g.Q[0, 0])
        (-0.5, -0.5)

    References:
        Spec 03 A1; B. Amos, J. Z. Kolter, OptNet (ICML 2017), Section 3.
    """
    slack_tol = require_positive("slack_tol", slack_tol, allow_zero=True)
    degenerate_tol = require_positive("degenerate_tol", degenerate_tol, allow_zero=True)
    batch = _parse(Q, q, G, h, A, b)
    ds = _parse_grad(grad_x, batch)
    sols = _parse_solution(solution, batch, QPSolverConfig())
    per_item = []
    masks = []
    for item, d, (y, lam, nu, slack) in zip(batch.items, ds, sols, strict=True):
        n, m, p = batch.n, batch.m, batch.p
        size = n + m + p
        K = np.zeros((size, size))
        K[:n, :n] = item.Q
        degenerate = np.zeros(m, dtype=bool)
        if item.G is not None:
            K[:n, n : n + m] = item.G.T
            degenerate = _degenerate_rows(slack, lam, slack_tol, degenerate_tol)
            if bool(np.any(degenerate)):
                warnings.warn(
                    f"rows {np.flatnonzero(degenerate).tolist()} are weakly active "
                    "(slack and multiplier ~ 0): y* is not differentiable there; "
                    "treating them as active (one-sided gradient)",
                    DegenerateQPWarning,
                    stacklevel=2,
                )
            for i in range(m):
                if degenerate[i]:
                    K[n + i, :n] = item.G[i]
                else:
                    K[n + i, :n] = lam[i] * item.G[i]
                    K[n + i, n + i] = -slack[i]
        if item.A is not None:
            K[:n, n + m :] = item.A.T
            K[n + m :, :n] = item.A
        rhs = np.zeros(size)
        rhs[:n] = -d
        try:
            sol = _f64(np.linalg.solve(K, rhs))
        except np.linalg.LinAlgError as exc:
            raise ValueError(
                "KKT matrix is singular: the active constraints are linearly dependent (LICQ fails)"
            ) from exc
        dz, dlam_s, dnu = sol[:n], sol[n : n + m], sol[n + m :]
        grads = {"Q": 0.5 * (np.outer(dz, y) + np.outer(y, dz)), "q": dz}
        if item.G is not None:
            grads["G"] = np.outer(dlam_s, y) + np.outer(lam, dz)
            grads["h"] = -dlam_s
        if item.A is not None:
            grads["A"] = np.outer(dnu, y) + np.outer(nu, dz)
            grads["b"] = -dnu
        per_item.append(grads)
        masks.append((lam > 0) | degenerate)
    return _assemble(batch, per_item, masks)


# -------------------------------------------------------------------- A2: active set, ghost
def active_set(
    slack: object, lam: object, *, slack_tol: float = 1e-8, dual_cutoff: float = 0.0
) -> BoolArray:
    """The frozen active set ``I = {i : s_i <= slack_tol and λ*_i >= dual_cutoff}``.

    Args:
        slack: ``(m,)`` or ``(B, m)`` slacks ``h − G y*``.
        lam: same shape: multipliers ``λ*``.
        slack_tol: slack threshold (public code: 1e-8).
        dual_cutoff: multiplier threshold (public QP layer: 0, general layer: 1e-3).

    Returns:
        Boolean mask of the shape of ``slack``.

    Raises:
        TypeError: non-numeric input.
        ValueError: shape mismatch, empty or non-finite input, negative thresholds.

    Example:
        >>> active_set([0.0, 0.5], [1.0, 0.0]).tolist()
        [True, False]

    References:
        Spec 03 Section 2 ("Active set").
    """
    s = as_float_array("slack", slack)
    la = as_float_array("lam", lam, shape=s.shape)
    if s.ndim not in (1, 2):
        raise ValueError(f"slack: expected shape (m,) or (B, m), got {s.shape}")
    st = require_positive("slack_tol", slack_tol, allow_zero=True)
    dc = require_positive("dual_cutoff", dual_cutoff, allow_zero=True)
    mask: BoolArray = (s <= st) & (la >= dc)
    return mask


def _ghost_rows(
    item: _QP, lam: FloatArray, slack: FloatArray, cfg: FFOConfig
) -> tuple[FloatArray | None, FloatArray | None, BoolArray]:
    """``C = [G_I; A]``, ``c = [h_I; b]`` and the mask of ``I`` after rank repair."""
    n = item.Q.shape[0]
    m = 0 if item.G is None else item.G.shape[0]
    mask = np.zeros(m, dtype=bool)
    if item.G is not None and item.h is not None:
        mask = (slack <= cfg.slack_tol) & (lam >= cfg.dual_cutoff)
        degenerate = _degenerate_rows(slack, lam, cfg.slack_tol, cfg.degenerate_tol) & mask
        if bool(np.any(degenerate)):
            warnings.warn(
                f"rows {np.flatnonzero(degenerate).tolist()} are weakly active (slack and "
                "multiplier ~ 0): y* is not differentiable there; the gradient is one-sided",
                DegenerateQPWarning,
                stacklevel=3,
            )

    def stacked(msk: BoolArray) -> tuple[FloatArray | None, FloatArray | None]:
        rows: list[FloatArray] = []
        rhs: list[FloatArray] = []
        if item.G is not None and item.h is not None and bool(np.any(msk)):
            rows.append(item.G[msk])
            rhs.append(item.h[msk])
        if item.A is not None and item.b is not None:
            rows.append(item.A)
            rhs.append(item.b)
        if not rows:
            return None, None
        return np.concatenate(rows, axis=0), np.concatenate(rhs)

    def full_rank(C: FloatArray | None) -> bool:
        if C is None:
            return True
        if C.shape[0] > n:
            return False
        sv = np.linalg.svd(C, compute_uv=False)
        return bool(sv[-1] > 1e-10 * max(1.0, float(sv[0])))

    def surely_full_rank(C: FloatArray | None) -> bool:
        # cheap test first (Cholesky of C Cᵀ, pivots well away from 0); SVD only if it fails
        if C is None:
            return True
        if C.shape[0] > n:
            return False
        try:
            d = np.diag(np.linalg.cholesky(C @ C.T))
        except np.linalg.LinAlgError:
            return False
        return bool(float(np.min(d)) > 1e-6 * max(1.0, float(np.max(d))))

    C, c = stacked(mask)
    if not surely_full_rank(C) and not full_rank(C):
        dropped = []
        while not full_rank(C) and bool(np.any(mask)):
            idx = np.flatnonzero(mask)
            worst_row = int(idx[np.argmin(lam[idx])])
            mask[worst_row] = False
            dropped.append(worst_row)
            C, c = stacked(mask)
        warnings.warn(
            f"C = [G_I; A] is rank deficient; dropped rows {dropped} (smallest λ*)",
            RankDeficientWarning,
            stacklevel=3,
        )
    return C, c, mask


class _GhostSolver:
    """Exact solves of the ghost problem ``P(t)`` via Cholesky of ``Q`` and the Schur
    complement ``C Q⁻¹ Cᵀ`` (both factored once)."""

    def __init__(self, Q: FloatArray, C: FloatArray | None) -> None:
        self.factor = scipy.linalg.cho_factor(Q)
        self.C = C
        if C is not None:
            self.QinvCt = scipy.linalg.cho_solve(self.factor, C.T)
            self.schur = scipy.linalg.cho_factor(C @ self.QinvCt)

    def solve(self, rhs: FloatArray, c: FloatArray | None) -> tuple[FloatArray, FloatArray]:
        """Solve ``[Q Cᵀ; C 0][y; w] = [rhs; c]``."""
        base = scipy.linalg.cho_solve(self.factor, rhs)
        if self.C is None or c is None:
            return base, _empty()
        w = scipy.linalg.cho_solve(self.schur, self.C @ base - c)
        return base - self.QinvCt @ w, w


def ghost_pgd(
    Q: object,
    q: object,
    C: object,
    c: object,
    grad_x: object,
    y0: object,
    *,
    alpha: float,
    max_iter: int = 10_000,
    tol: float = 1e-10,
    record: bool = False,
) -> GhostPGDResult:
    """Warm-started projected gradient descent on the tilted ghost problem (spec 03 A2-FO).

    Minimises ``½yᵀQy + qᵀy + (1/α) dᵀy`` over the affine set ``{C y = c}``:

        Π = I − C⁺C,  η = 1/L_g,  y^{k+1} = y^k − η Π(Q y^k + q + d/α),

    stopping when ``‖Π(Q y^k + q + d/α)‖ <= tol/α`` or after ``max_iter`` steps; the
    multipliers are ``w = −argmin_w ‖Cᵀw + (Q y^K + q + d/α)‖₂``.  Started at ``y* = y_0``
    (the untilted solution) the error obeys ``α‖y^K − y_α‖ <= (1 − μ_P/L_g)^K ‖d_z‖``,
    independent of ``α`` (spec 03 T3).

    Args:
        Q: ``(n, n)`` symmetric positive definite (``L_g = λ_max(Q)``).
        q: ``(n,)``.
        C: ``(k, n)`` constraint matrix (``None`` for no constraints).
        c: ``(k,)`` right-hand side (``None`` with ``C``).
        grad_x: ``(n,)`` tilt direction ``d``.
        y0: ``(n,)`` warm start (``C y0 = c`` expected; the iterates stay in ``y0 + null(C)``).
        alpha: ``α > 0``.
        max_iter: step cap ``K_max >= 0``.
        tol: stopping tolerance ``> 0``.
        record: keep every iterate in ``history``.

    Returns:
        :class:`GhostPGDResult`.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite values, ``Q`` not SPD, ``alpha <= 0``.

    Example:
        >>> r = ghost_pgd([[1.0, 0.0], [0.0, 1.0]], [0.0, 0.0], [[1.0, 0.0]], [0.0],
        ...               [0.0, 1.0], [0.0, 0.0], alpha=10.0)
        >>> [round(float(v), 9) for v in r.y], r.converged
        ([0.0, -0.1], True)
    """
    a = require_positive("alpha", alpha)
    max_iter = require_int("max_iter", max_iter, minimum=0)
    tol = require_positive("tol", tol)
    Qa = as_float_array("Q", Q, ndim=2)
    if Qa.shape[0] != Qa.shape[1]:
        raise ValueError(f"Q: expected a square (n, n) matrix, got shape {Qa.shape}")
    _check_spd(Qa)
    n = Qa.shape[0]
    qa = as_float_array("q", q, shape=(n,))
    d = as_float_array("grad_x", grad_x, shape=(n,))
    y = as_float_array("y0", y0, shape=(n,))
    if (C is None) != (c is None):
        raise ValueError("C, c: expected both or neither")
    if C is not None:
        Ca = as_float_array("C", C, ndim=2)
        if Ca.shape[1] != n:
            raise ValueError(f"C: expected shape (k, {n}), got shape {Ca.shape}")
        as_float_array("c", c, shape=(Ca.shape[0],))
        proj = np.eye(n) - np.linalg.pinv(Ca) @ Ca
    else:
        Ca = np.zeros((0, n))
        proj = np.eye(n)
    eta = 1.0 / float(np.linalg.eigvalsh(0.5 * (Qa + Qa.T))[-1])
    tilt = qa + d / a
    history = [y.copy()] if record else []
    converged = False
    k = 0
    for k in range(max_iter + 1):
        g = proj @ (Qa @ y + tilt)
        if float(np.linalg.norm(g)) <= tol / a:
            converged = True
            break
        if k == max_iter:
            break
        y = y - eta * g  # spec A2-FO: y^{k+1} = y^k − η Π(Q y^k + q + d/α)
        if record:
            history.append(y.copy())
    grad = Qa @ y + tilt
    residual = a * float(np.linalg.norm(proj @ grad))
    w = _f64(-np.linalg.lstsq(Ca.T, grad, rcond=None)[0]) if Ca.shape[0] else _empty()
    hist = np.array(history) if record else np.zeros((0, n))
    return GhostPGDResult(
        y=readonly(y),
        multipliers=readonly(w),
        iterations=k,
        converged=converged,
        residual=residual,
        history=readonly(hist),
    )


def _ffo_one(
    item: _QP,
    d: FloatArray,
    y: FloatArray,
    lam: FloatArray,
    nu: FloatArray,
    slack: FloatArray,
    a: float,
    cfg: FFOConfig,
) -> tuple[dict[str, FloatArray], BoolArray, int, bool]:
    """FFO gradient of one (unbatched) QP: ``(grads, mask of I, inner iterations, converged)``."""
    C, c, mask = _ghost_rows(item, lam, slack, cfg)
    k_in = int(mask.sum())
    m = mask.shape[0]
    need_exact = cfg.inner == "exact" or cfg.difference == "central"
    exact = _GhostSolver(item.Q, C) if need_exact else None

    def tilted(t: float) -> tuple[FloatArray, FloatArray, FloatArray, int, bool]:
        # ghost problem P(t): min ½yᵀQy + qᵀy + t dᵀy  s.t.  C y = c   (spec A2 step 2-3)
        if exact is None:
            r = ghost_pgd(
                item.Q,
                item.q,
                C,
                c,
                d,
                y,
                alpha=1.0 / t,
                max_iter=cfg.inner_max_iter,
                tol=cfg.inner_tol,
            )
            yt = np.array(r.y, dtype=np.float64)
            w = np.array(r.multipliers, dtype=np.float64)
            it, ok = r.iterations, r.converged
        else:
            yt, w = exact.solve(-item.q - t * d, c)
            it, ok = 0, True
        mu_full = np.zeros(m)
        mu_full[mask] = w[:k_in]
        return yt, mu_full, w[k_in:], it, ok

    if cfg.difference == "forward":
        y1, mu1, nu1, it, ok = tilted(1.0 / a)
        lam_I = np.where(mask, lam, 0.0)
        g1 = _lagrangian_grads(item, y1, mu1, nu1)
        g0 = _lagrangian_grads(item, y, lam_I, nu)  # spec A2 step 4: base point (y*, λ*_I, ν*)
        return {key: a * (g1[key] - g0[key]) for key in g1}, mask, it, ok
    y1, mu1, nu1, _, _ = tilted(1.0 / a)
    ym, mum, num, _, _ = tilted(-1.0 / a)
    g1 = _lagrangian_grads(item, y1, mu1, nu1)
    gm = _lagrangian_grads(item, ym, mum, num)
    return {key: 0.5 * a * (g1[key] - gm[key]) for key in g1}, mask, 0, True


def ffo_grads(
    Q: object,
    q: object,
    G: object,
    h: object,
    A: object,
    b: object,
    grad_x: object,
    *,
    alpha: float = 100.0,
    config: FFOConfig | None = None,
    solution: QPSolution | None = None,
) -> QPGrads:
    """FFOLayer hypergradient: frozen active set, tilted ghost problem, difference × ``α``.

    With ``I`` the active set (:func:`active_set`; rows dropped if ``C = [G_I; A]`` is
    rank deficient), the ghost problem at tilt ``t`` is
    ``P(t) = min ½yᵀQy + qᵀy + t·dᵀy  s.t.  C y = c`` with solution ``(y_t, μ_t, ν_t)``.
    Solve ``P(1/α)`` and return the forward difference of the envelope gradients of
    ``𝓛 = ½yᵀQy + qᵀy + μᵀ(G_I y − h_I) + νᵀ(Ay − b)``:

        ĝ_q = α(y_α − y*),   ĝ_Q = (α/2)(y_α y_αᵀ − y* y*ᵀ),
        ĝ_{G_I} = α(μ_α y_αᵀ − λ*_I y*ᵀ),  ĝ_{h_I} = −α(μ_α − λ*_I)  (0 on rows ∉ I),
        ĝ_A = α(ν_α y_αᵀ − ν* y*ᵀ),        ĝ_b = −α(ν_α − ν*).

    ``ĝ_q, ĝ_h, ĝ_b`` are exact for every ``α``; ``ĝ_Q − ∇_Q = d_z d_zᵀ/(2α)``,
    ``ĝ_{G_I} − ∇_{G_I} = d_μ d_zᵀ/α``, ``ĝ_A − ∇_A = d_ν d_zᵀ/α`` (spec 03 A2, verified).

    Args:
        Q, q, G, h, A, b: the QP (see :func:`solve_qp`; batched allowed).
        grad_x: ``(n,)`` or ``(B, n)``: upstream gradient ``d``.
        alpha: ``α > 0`` (public default 100).
        config: :class:`FFOConfig` (active-set thresholds, inner solver, difference).
        solution: a :class:`QPSolution` of this QP (solved here when ``None``); its
            ``(y*, λ*, ν*)`` is the base point of the difference.

    Returns:
        :class:`QPGrads`; ``active`` is the frozen set ``I``; ``iterations``/``converged``
        report the first-order inner solver (0 / True for the exact one).

    Raises:
        TypeError: non-numeric input.
        ValueError: as :func:`solve_qp`; bad ``grad_x``; ``alpha <= 0`` or non-finite.

    Warns:
        DegenerateQPWarning: a row of ``I`` has ``λ*_i ≈ 0`` (one-sided gradient).
        RankDeficientWarning: rows were dropped from ``C``.

    Example:
        >>> g = ffo_grads([[2.0]], [-2.0], None, None, None, None, [1.0], alpha=100.0)
        >>> round(float(g.q[0]), 12), round(float(g.Q[0, 0]), 12)
        (-0.5, -0.49875)

    Variant:
        ``config.difference="central"`` returns ``(α/2)[∇𝓛(t = 1/α) − ∇𝓛(t = −1/α)]``
        (our extension, exact for QPs); ``config.inner="first_order"`` replaces the KKT
        solve of ``P(1/α)`` by :func:`ghost_pgd`.  Unlike the public ``FFOQPLayer`` we
        evaluate the constraint terms at ``y_α`` (keeping ``λ* d_zᵀ`` and ``ν* d_zᵀ``) and
        symmetrise nothing: ``ĝ_Q`` is symmetric by construction (spec 03 A3 (a), (c)).

    References:
        Spec 03 Section 3, A2 and A2-FO; Zhao et al., "A Fully First-Order Layer for
        Differentiable Optimization", ICML 2026, arXiv:2512.02494.
    """
    a = require_positive("alpha", alpha)
    cfg = config if config is not None else FFOConfig()
    if not isinstance(cfg, FFOConfig):
        raise TypeError(f"config: expected an FFOConfig, got {type(cfg).__name__}")
    batch = _parse(Q, q, G, h, A, b)
    ds = _parse_grad(grad_x, batch)
    sols = _parse_solution(solution, batch, QPSolverConfig())
    per_item: list[dict[str, FloatArray]] = []
    masks: list[BoolArray] = []
    iters = 0
    conv = True
    for item, d, (y, lam, nu, slack) in zip(batch.items, ds, sols, strict=True):
        grads, mask, it, ok = _ffo_one(item, d, y, lam, nu, slack, a, cfg)
        iters = max(iters, it)
        conv = conv and ok
        per_item.append(grads)
        masks.append(mask)
    return _assemble(batch, per_item, masks, iterations=iters, converged=conv)


# ----------------------------------------------------------------------------- A4: penalty
def penalty_grads(
    Q: object,
    q: object,
    G: object,
    h: object,
    A: object,
    b: object,
    grad_x: object,
    *,
    penalty: float = 100.0,
    config: PenaltyConfig | None = None,
    solution: QPSolution | None = None,
) -> QPGrads:
    """Penalty-based first-order hypergradient (spec 03 A4; older ``ffoqp.py``).

    With weights ``ω_i`` (1 on active rows, or ``tanh(10 λ*_i)``), solve the
    unconstrained strongly convex problem

        y_p = argmin (1/λ_p) dᵀy + ½yᵀQy + qᵀy + λ*ᵀ(Gy − h) + ν*ᵀ(Ay − b)
                      + (λ_p/2) Σ_i ω_i (G_i y − h_i)² + (λ_p/2)‖Ay − b‖²

    and return ``∇_θ`` of ``λ_p·[Φ_p(θ; y_p) − 𝓛(θ; y*, λ*, ν*)]`` with ``y_p, y*, λ*,
    ν*`` held fixed (envelope theorem), ``Φ_p`` the objective above.  Error
    ``‖λ_p(y_p − y*) − d_z‖ = O(1/λ_p)``; the inner Hessian ``Q + λ_p CᵀC`` has
    condition number ``Θ(λ_p)`` (spec 03 T5).

    Args:
        Q, q, G, h, A, b: the QP (see :func:`solve_qp`; batched allowed).
        grad_x: ``(n,)`` or ``(B, n)`` upstream gradient ``d``.
        penalty: ``λ_p > 0`` (public default 100).
        config: :class:`PenaltyConfig`.
        solution: a :class:`QPSolution` (solved here when ``None``).

    Returns:
        :class:`QPGrads` (``active`` = rows with weight 1 under the mask rule).

    Raises:
        TypeError: non-numeric input.
        ValueError: as :func:`solve_qp`; bad ``grad_x``; ``penalty <= 0``.

    Example:
        >>> g = penalty_grads([[2.0]], [-2.0], None, None, None, None, [1.0], penalty=100.0)
        >>> round(float(g.q[0]), 12)
        -0.5

    Variant:
        We subtract the full Lagrangian ``𝓛(θ; y*, λ*, ν*)`` at the base point (its value
        equals ``g(θ, y*)`` but its θ-gradient cancels the ``−λ_p λ*`` term that
        the literal ``g(θ, y_p) − g(θ, y*)`` form leaves in ``∇_h``, ``∇_G``, ``∇_b``, ``∇_A``).

    References:
        Spec 03 A4; G. Kornowski, S. Padmanabhan, K. Wang, Z. Zhang, S. Sra,
        "First-order methods for linearly constrained bilevel optimization" (2024).
    """
    lp = require_positive("penalty", penalty)
    cfg = config if config is not None else PenaltyConfig()
    if not isinstance(cfg, PenaltyConfig):
        raise TypeError(f"config: expected a PenaltyConfig, got {type(cfg).__name__}")
    batch = _parse(Q, q, G, h, A, b)
    ds = _parse_grad(grad_x, batch)
    sols = _parse_solution(solution, batch, QPSolverConfig())
    per_item = []
    masks = []
    for item, d, (y, lam, nu, slack) in zip(batch.items, ds, sols, strict=True):
        H = item.Q.copy()
        rhs = -item.q - d / lp
        mask = np.zeros(batch.m, dtype=bool)
        omega = np.zeros(batch.m)
        if item.G is not None and item.h is not None:
            mask = slack <= cfg.slack_tol
            omega = mask.astype(np.float64) if cfg.active_weight == "mask" else np.tanh(10.0 * lam)
            H = H + lp * item.G.T @ (omega[:, None] * item.G)
            rhs = rhs - item.G.T @ lam + lp * item.G.T @ (omega * item.h)
        if item.A is not None and item.b is not None:
            H = H + lp * item.A.T @ item.A
            rhs = rhs - item.A.T @ nu + lp * item.A.T @ item.b
        yp = scipy.linalg.cho_solve(scipy.linalg.cho_factor(H), rhs)
        grads = {"Q": lp * 0.5 * (np.outer(yp, yp) - np.outer(y, y)), "q": lp * (yp - y)}
        if item.G is not None and item.h is not None:
            viol = omega * (item.G @ yp - item.h)
            grads["G"] = lp * (np.outer(lam, yp - y) + lp * np.outer(viol, yp))
            grads["h"] = -lp * lp * viol
        if item.A is not None and item.b is not None:
            eviol = item.A @ yp - item.b
            grads["A"] = lp * (np.outer(nu, yp - y) + lp * np.outer(eviol, yp))
            grads["b"] = -lp * lp * eviol
        per_item.append(grads)
        masks.append(mask)
    return _assemble(batch, per_item, masks)
