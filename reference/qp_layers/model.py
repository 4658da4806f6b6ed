"""QP-layer configs, results, warnings and input parsing (spec 03).

Part of :mod:`reference.qp_layers`, which re-exports every public name here and documents the
problem, conventions and references: :class:`QPSolverConfig`, :class:`FFOConfig`,
:class:`PenaltyConfig`, :class:`QPSolution`, :class:`QPGrads`, :class:`GhostPGDResult`, and
the validation of (batched) ``Q, q, G, h, A, b``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from reference._arrays import (
    BoolArray,
    FloatArray,
    as_float_array,
    require_int,
    require_positive,
)
from reference._repr import summary_repr

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
        mu_safeguard: (not in spec 03 A0's Mehrotra predictor-corrector; off by default)
            when the corrected step does not decrease ``μ = sᵀz/m`` by ``1%`` of the step,
            take a plain path-following step with ``σ >= 0.1``, halved until it does.  It
            guards against a 2-cycle of ``μ``; on 400 random ill-scaled QPs it converged on
            fewer (268 against 330 without it, polish on), so the plain method is the default.
    """

    tol: float = 1e-10
    max_iter: int = 100
    polish: bool = True
    feasibility_tol: float = 1e-9
    check_feasibility: bool = True
    mu_safeguard: bool = False

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
        max_inner: PGD iteration cap (spec: 10 000).
    """

    slack_tol: float = 1e-8
    dual_cutoff: float = 0.0
    degenerate_tol: float = 1e-9
    inner: Literal["exact", "first_order"] = "exact"
    difference: Literal["forward", "central"] = "forward"
    inner_tol: float = 1e-10
    max_inner: int = 10_000

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
        require_int("max_inner", self.max_inner, minimum=1)


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
@summary_repr
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


@summary_repr
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


@summary_repr
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
