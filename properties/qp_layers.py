"""Conformance suites for differentiable QP layers (spec 03, FFOLayer).

Three contracts, numpy in / numpy out:

* ``qp_layers.solver`` — a forward QP solver ``fn(Q, q, G, h, A, b) -> (x, lam, nu)``
  (a result with ``.x``/``.lam``/``.nu`` or a mapping also works);
* ``qp_layers.hypergradient`` — an *exact* layer gradient
  ``fn(Q, q, G, h, A, b, grad_x) -> (gQ, gq, gG, gh, gA, gb)`` (or an object with those
  attributes; ``None`` for absent blocks), e.g. OptNet/KKT implicit differentiation;
* ``qp_layers.ffo`` — an FFO-type gradient ``fn(..., grad_x, *, alpha)`` that is exact
  for ``q, h, b`` and ``O(1/α)``-accurate for ``Q, G, A``.

Instances are built by construction with a *planted* KKT point (spec 03 T1): draw
``y₀``, an active subset ``S`` (``|S| + p < n``), ``λ_S ∈ U(0.5, 2)``, inactive
slacks in ``U(0.1, 1)``, ``ν₀``; then ``h``, ``b`` and ``q`` make ``(y₀, λ, ν₀)`` the
exact KKT point.  Strict complementarity and LICQ hold with margin, so the solution
and its derivative are unique and the checks may compare values.  The gradient
oracle is independent of every implementation in :mod:`reference.qp_layers`: the
null-space formula ``d_z = −N(NᵀQN)⁻¹Nᵀd`` on the planted active set (``N`` a basis
of ``null([G_S; A])``) and least-squares multiplier derivatives; finite differences
use the brute-force active-set solver.  Tolerances are ``caps.tolerance`` relative
to the instance scale, or ``256·u`` of the declared ``--precision`` when larger.

Declarable conventions: ``--variant unsymmetrised_q`` (``∇_Q = d_z y*ᵀ`` as
autograd through ``½yᵀQy`` gives it; judged by its symmetric part, i.e. along symmetric
directions), ``qp_layers.ffo --variant exact_limit`` (the ``α → ∞`` limit, judged against the
exact gradient instead of the ``O(1/α)`` law), ``--domain constrained`` (only QPs with an
inequality row; shrinking stays inside) and ``--returns q,h`` (a layer that returns only some
gradient blocks: the others are not judged, and checks on them alone are skipped, named).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Protocol

import numpy as np
import scipy.linalg
from hypothesis import strategies as st

from properties._runner import (
    Capabilities,
    CheckFailure,
    Suite,
    expect,
    expect_le,
    expect_raises,
)
from properties._suite import PrecisionTooCoarse, check
from properties.adapters import (
    TorchModuleCall,
    adapt_output,
    as_torch_module,
    is_torch_module,
    to_numpy,
)
from properties.strategies import float_arrays, sign_arrays
from reference import qp_layers
from reference._arrays import FloatArray
from reference.qp_layers.instances import QPInstance, planted_qp

__all__ = [
    "FFO_GRADIENT",
    "FFO_VARIANTS",
    "GRADIENT_VARIANTS",
    "HYPERGRADIENT",
    "MAX_M",
    "MAX_N",
    "QP_DOMAINS",
    "QP_SOLVER",
    "SUITES",
    "FFOGradient",
    "QPGradient",
    "QPInstance",
    "QPSolver",
    "as_grads",
    "as_solution",
    "oracle_grads",
    "planted_qp",
    "qp_instances",
    "recover_multipliers",
]

#: Largest ``n`` and ``m`` drawn by the suites (small: every example runs several solves).
MAX_N = 8
MAX_M = 8
#: Cosine similarity the FFO gradient must reach at α = 100 (spec 03 §6: ≥ 0.999).
COSINE_AT_100 = 0.999
#: Relative accuracy of the rank-one error terms α(ĝ − ∇) (spec 03 T2: 1e-7), valid for
#: α ≤ 1e3 where the α²·u roundoff of the difference stays below it.
RANK_ONE_RTOL = 1e-7

Grads = tuple[FloatArray | None, ...]
_NAMES = ("Q", "q", "G", "h", "A", "b")

#: Input domains of the three suites (``--domain``); the first is the default.
QP_DOMAINS: dict[str, str] = {
    "all": "planted QPs with or without inequality rows (m >= 0)",
    "constrained": "planted QPs with at least one inequality row (m >= 1), for layers with no "
    "path for QPs without inequalities (FFOLayer's FFOQPLayer); shrinking stays inside",
}
#: Conventions of ``qp_layers.hypergradient`` (``--variant``); the first is the default.
GRADIENT_VARIANTS: dict[str, str] = {
    "symmetric": "∇_Q symmetrised, ½(d_z y*ᵀ + y* d_zᵀ) (Zhao et al., FFOLayer, ICML 2026 A1)",
    "unsymmetrised_q": "∇_Q = d_z y*ᵀ (autograd through ½yᵀQy, e.g. FFOLayer); judged by its "
    "symmetric part, i.e. along symmetric directions of Q",
}
#: Conventions of ``qp_layers.ffo`` (``--variant``); the first is the default.
FFO_VARIANTS: dict[str, str] = {
    "finite_alpha": "FFO at the given α: exact q, h, b; O(1/α) rank-one error on Q, G, A "
    "(Zhao et al., FFOLayer, ICML 2026 A2, T2); ∇_Q symmetrised",
    "unsymmetrised_q": "as finite_alpha with ∇_Q unsymmetrised (judged by its symmetric part)",
    "exact_limit": "the α → ∞ limit (FFOLayer's exact_bwd_sol=True): every block judged against "
    "the exact hypergradient instead of the O(1/α) law; ∇_Q symmetrised",
    "exact_limit_unsymmetrised_q": "as exact_limit with ∇_Q unsymmetrised",
}
#: Relative slack of the rounding model at a declared precision (``256·u``); float64 keeps
#: the default ``tolerance`` (1e-6), which is larger.
_ROUNDING = 256.0


# ------------------------------------------------------------------------------- protocols
class QPSolver(Protocol):
    """Forward QP solver ``(Q, q, G, h, A, b) -> (x, lam, nu)`` (``None`` for absent blocks).

    Problem: minimise ``½ xᵀQx + qᵀx`` subject to ``Gx <= h`` and ``Ax = b`` with ``Q``
    symmetric positive definite.  Call shape: float64 ``numpy`` arrays ``Q (n, n)``, ``q
    (n,)``, ``G (m, n)``, ``h (m,)``, ``A (p, n)``, ``b (p,)``, ``None`` for an absent block;
    one QP per call (a leading batch axis only with capability ``batched``).  Returns the
    solution ``x (n,)`` and the multipliers ``lam (m,) >= 0`` of ``Gx <= h`` and ``nu (p,)``
    of ``Ax = b`` in the Lagrangian ``½ xᵀQx + qᵀx + lamᵀ(Gx - h) + nuᵀ(Ax - b)``.  With
    capability ``primal_only`` (qpth's and cvxpylayers' public APIs) ``x`` alone (or
    ``(x, None, None)``) is returned; the checks then recover the multipliers from ``x``
    (bounded least squares on the KKT stationarity equation over the active rows) or
    compare ``x`` only.
    """

    def __call__(
        self,
        Q: FloatArray,
        q: FloatArray,
        G: FloatArray | None,
        h: FloatArray | None,
        A: FloatArray | None,
        b: FloatArray | None,
        /,
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Return the primal solution and the multipliers of ``Gy <= h`` and ``Ay = b``."""
        ...


class QPGradient(Protocol):
    """Exact layer gradient ``(Q, q, G, h, A, b, grad_x) -> (gQ, gq, gG, gh, gA, gb)``."""

    def __call__(
        self,
        Q: FloatArray,
        q: FloatArray,
        G: FloatArray | None,
        h: FloatArray | None,
        A: FloatArray | None,
        b: FloatArray | None,
        grad_x: FloatArray,
        /,
    ) -> Grads:
        """Return ``(∂y*/∂θ)ᵀ grad_x`` for every parameter (``None`` for absent blocks)."""
        ...


class FFOGradient(Protocol):
    """FFO-type gradient ``(Q, q, G, h, A, b, grad_x, *, alpha) -> (gQ, gq, gG, gh, gA, gb)``."""

    def __call__(
        self,
        Q: FloatArray,
        q: FloatArray,
        G: FloatArray | None,
        h: FloatArray | None,
        A: FloatArray | None,
        b: FloatArray | None,
        grad_x: FloatArray,
        /,
        *,
        alpha: float,
    ) -> Grads:
        """Return the FFO hypergradient at ``alpha`` for every parameter."""
        ...


# ------------------------------------------------------------------------------- instances


@st.composite
def qp_instances(
    draw: st.DrawFn,
    *,
    max_n: int = MAX_N,
    max_m: int = MAX_M,
    inequalities: bool | None = None,
    equalities: bool | None = None,
) -> QPInstance:
    """Planted QPs: ``n ∈ [2, max_n]``, ``m ∈ [0, max_m]``, ``p ∈ [0, min(3, n − 1)]``.

    Args:
        draw: Hypothesis draw function.
        max_n: largest ``n``.
        max_m: largest ``m``.
        inequalities: force ``m >= 1`` (True) or ``m = 0`` (False); drawn when ``None``.
        equalities: force ``p >= 1`` (True) or ``p = 0`` (False); drawn when ``None``.
    """
    n = draw(st.integers(2, max_n), label="n")
    lo_m = 1 if inequalities else 0
    hi_m = 0 if inequalities is False else max_m
    m = draw(st.integers(lo_m, hi_m), label="m")
    hi_p = 0 if equalities is False else min(3, n - 1)
    lo_p = 1 if equalities else 0
    p = draw(st.integers(lo_p, hi_p), label="p")
    k = draw(st.integers(0, min(m, n - p - 1)), label="active rows k")
    # seeded on purpose: planted_qp builds the SPD Q, the planted active set and its margins
    # from a generator (the conditioning the tolerances assume); shapes and k are drawn above
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    return planted_qp(np.random.default_rng(seed), n=n, m=m, p=p, k=k)


def _upstream(draw_data: st.DataObject, n: int, label: str = "grad_x d") -> FloatArray:
    """An upstream gradient with every entry ``0.1 <= |d_i| <= 3`` (cosines need ``d != 0``)."""
    sizes = draw_data.draw(float_arrays((n,), low=0.1, high=3.0), label=f"|{label}|")
    out: FloatArray = sizes * draw_data.draw(sign_arrays((n,)), label=f"signs of {label}")
    return out


# ---------------------------------------------------------------------------------- oracle
def oracle_grads(inst: QPInstance, grad_x: FloatArray) -> dict[str, FloatArray]:
    """Exact ``(∂y*/∂θ)ᵀ d`` on the planted active set, by the null-space formula.

    ``C = [G_S; A]``, ``N`` an orthonormal basis of ``null(C)``;
    ``d_z = −N(NᵀQN)⁻¹Nᵀd``; ``d_w`` solves ``Cᵀ d_w = −d − Q d_z`` (consistent);
    ``d̃_λ`` is ``d_w`` on ``S`` (0 elsewhere), ``d_ν`` the rest.  Gradients as spec 03 A1
    (``∇_Q`` symmetrised).  Independent of :mod:`reference.qp_layers`.
    """
    n = inst.Q.shape[0]
    rows = []
    if inst.G is not None:
        rows.append(inst.G[inst.active])
    if inst.A is not None:
        rows.append(inst.A)
    C = np.concatenate(rows, axis=0) if rows else np.zeros((0, n))
    N = scipy.linalg.null_space(C) if C.shape[0] else np.eye(n)
    dz = np.zeros(n)
    if N.shape[1]:
        dz = -N @ _f64(np.linalg.solve(N.T @ inst.Q @ N, N.T @ grad_x))
    dw = np.zeros(0)
    if C.shape[0]:
        dw = _f64(np.linalg.lstsq(C.T, -grad_x - inst.Q @ dz, rcond=None)[0])
    k = int(inst.active.sum())
    y = inst.y
    out = {"Q": 0.5 * (np.outer(dz, y) + np.outer(y, dz)), "q": dz}
    if inst.G is not None:
        dlam = np.zeros(inst.G.shape[0])
        dlam[inst.active] = dw[:k]
        out["G"] = np.outer(dlam, y) + np.outer(inst.lam, dz)
        out["h"] = -dlam
    if inst.A is not None:
        dnu = dw[k:]
        out["A"] = np.outer(dnu, y) + np.outer(inst.nu, dz)
        out["b"] = -dnu
    return out


def _f64(value: object) -> FloatArray:
    return np.asarray(value, dtype=np.float64)


def _rank_one_terms(inst: QPInstance, exact: Mapping[str, FloatArray]) -> dict[str, FloatArray]:
    """``α(ĝ − ∇)`` of the forward-difference FFO gradient (Zhao et al., FFOLayer, ICML 2026 A2, exact for QPs)."""
    dz = exact["q"]
    out = {"Q": 0.5 * np.outer(dz, dz)}
    if "G" in exact:
        out["G"] = np.outer(-exact["h"], dz)
    if "A" in exact:
        out["A"] = np.outer(-exact["b"], dz)
    return out


# ---------------------------------------------------------------------------------- adapters
def as_solution(result: object) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(x, lam, nu)`` from a triple, an object with ``x``/``lam``/``nu`` or a mapping.

    A bare array (or an object/mapping with ``x`` only) is a primal-only answer: ``lam`` and
    ``nu`` come back empty, and only capability ``primal_only`` accepts that.

    Raises:
        CheckFailure: the result has none of these forms.
    """
    if _is_array_like(result):
        return to_numpy(result, what="x returned by the solver"), np.zeros(0), np.zeros(0)
    if isinstance(result, Mapping) and "x" in result and not ("lam" in result or "nu" in result):
        return to_numpy(result["x"], what="x returned by the solver"), np.zeros(0), np.zeros(0)
    if isinstance(result, Mapping) and all(k in result for k in ("x", "lam", "nu")):
        parts = (result["x"], result["lam"], result["nu"])
    elif all(hasattr(result, k) for k in ("x", "lam", "nu")):
        parts = (getattr(result, "x"), getattr(result, "lam"), getattr(result, "nu"))  # noqa: B009
    elif isinstance(result, tuple | list) and len(result) == 3:
        parts = (result[0], result[1], result[2])
    else:
        raise CheckFailure(
            "solver output",
            measured=type(result).__name__,
            allowed="(x, lam, nu), an object with x/lam/nu attributes, or a mapping",
        )
    x, lam, nu = (
        np.zeros(0) if v is None else to_numpy(v, what=f"{name} returned by the solver")
        for v, name in zip(parts, ("x", "lam", "nu"), strict=True)
    )
    return x, lam, nu


def _is_array_like(value: object) -> bool:
    """A numpy array or a torch tensor (not a tuple of blocks)."""
    return isinstance(value, np.ndarray) or type(value).__module__.startswith("torch")


def recover_multipliers(
    inst: QPInstance, x: FloatArray, *, active_tol: float = 1e-6
) -> tuple[FloatArray, FloatArray]:
    """Multipliers ``(lam, nu)`` that best explain ``x`` as a KKT point of ``inst``.

    The rows of ``Gx <= h`` within ``active_tol * (1 + |h|_inf)`` of equality are taken as
    active; ``lam`` (zero off them, ``>= 0`` on them) and the free ``nu`` solve the bounded
    least-squares problem ``min ||Qx + q + G_Sᵀlam_S + Aᵀnu||`` (scipy ``lsq_linear``).  At
    the unique KKT point of a strictly convex QP with LICQ the result is its multipliers.

    Example:
        >>> inst = planted_qp(np.random.default_rng(0), n=4, m=3, p=1, k=1)
        >>> lam, nu = recover_multipliers(inst, inst.y)
        >>> bool(np.allclose(lam, inst.lam) and np.allclose(nu, inst.nu))
        True
    """
    from scipy.optimize import lsq_linear

    m = 0 if inst.G is None else inst.G.shape[0]
    p = 0 if inst.A is None else inst.A.shape[0]
    lam = np.zeros(m)
    residual = -(inst.Q @ x + inst.q)
    columns: list[FloatArray] = []
    active = np.zeros(0, dtype=np.intp)
    if inst.G is not None and inst.h is not None:
        slack = inst.h - inst.G @ x
        active = np.flatnonzero(slack <= active_tol * (1.0 + float(np.max(np.abs(inst.h)))))
        columns.extend(inst.G[i] for i in active)
    if inst.A is not None:
        columns.extend(inst.A)
    if not columns:
        return lam, np.zeros(p)
    matrix = np.column_stack(columns)
    k = active.size
    lower = np.concatenate([np.zeros(k), np.full(p, -np.inf)])
    upper = np.full(k + p, np.inf)
    z = _f64(lsq_linear(matrix, residual, bounds=(lower, upper), method="bvls").x)
    lam[active] = z[:k]
    return lam, z[k:]


def as_grads(result: object) -> Grads:
    """``(gQ, gq, gG, gh, gA, gb)`` from a 6-sequence, an object with ``Q``..``b`` or a mapping.

    Raises:
        CheckFailure: the result has none of these forms.
    """
    if isinstance(result, Mapping):
        parts = tuple(result.get(k) for k in _NAMES)
    elif all(hasattr(result, k) for k in _NAMES):
        parts = tuple(getattr(result, k) for k in _NAMES)
    elif isinstance(result, tuple | list) and len(result) == 6:
        parts = tuple(result)
    else:
        raise CheckFailure(
            "gradient output",
            measured=type(result).__name__,
            allowed="(gQ, gq, gG, gh, gA, gb), an object with attributes Q..b, or a mapping",
        )
    return tuple(
        None if v is None else to_numpy(v, what=f"gradient of {k}")
        for v, k in zip(parts, _NAMES, strict=True)
    )


#: How ``qp_layers.solver`` calls a ``torch.nn.Module`` target: built with no arguments.
SOLVER_MODULE = TorchModuleCall(
    arguments=_NAMES,
    build=(),
    forward=_NAMES,
    returns="x (or (x, lam, nu)); first output is x",
)


def _adapt_solver(obj: object) -> QPSolver:
    inner = getattr(obj, "__wrapped__", obj)
    if is_torch_module(inner):  # an nn.Module class built with no arguments, or an instance
        obj = as_torch_module(inner, SOLVER_MODULE)
    if not callable(obj):
        raise TypeError(f"qp_layers.solver: expected a callable, got {type(obj).__name__}")
    return adapt_output(obj, as_solution)


def _adapt_gradient(obj: object) -> QPGradient:
    if not callable(obj):
        raise TypeError(f"qp_layers.hypergradient: expected a callable, got {type(obj).__name__}")
    return adapt_output(obj, as_grads)


def _adapt_ffo(obj: object) -> FFOGradient:
    if not callable(obj):
        raise TypeError(f"qp_layers.ffo: expected a callable, got {type(obj).__name__}")
    return adapt_output(obj, as_grads)


# ------------------------------------------------------------------------------ helpers
def _scale(*arrays: FloatArray | None) -> float:
    return 1.0 + max(
        (float(np.max(np.abs(a))) for a in arrays if a is not None and a.size), default=0.0
    )


def _max_abs(a: FloatArray) -> float:
    return float(np.max(np.abs(a))) if a.size else 0.0


def _tol(caps: Capabilities) -> float:
    """The relative accuracy checked: ``tolerance``, or ``256·u`` of ``precision`` if larger.

    Raises:
        PrecisionTooCoarse: ``256·u >= 1`` (bfloat16) and no tolerance declared: a relative
            bound of 1 passes anything, so the check is skipped and the report names why.
    """
    model = _ROUNDING * caps.unit_roundoff
    if model >= 1.0:
        if caps.tolerance_declared:
            return caps.tolerance  # the declared promise alone: the model judges nothing
        raise PrecisionTooCoarse("the relative accuracy (256·u)", caps.precision, model, 1.0)
    return max(caps.tolerance, model)


def _unsymmetrised_q(caps: Capabilities) -> bool:
    """Whether the target declared an unsymmetrised ``∇_Q`` (``--variant ...unsymmetrised_q``)."""
    return caps.variant is not None and caps.variant.endswith("unsymmetrised_q")


def _exact_limit(caps: Capabilities) -> bool:
    """Whether the FFO target declared the ``α → ∞`` limit (``--variant exact_limit...``)."""
    return caps.variant is not None and caps.variant.startswith("exact_limit")


def _inequalities(caps: Capabilities) -> bool | None:
    """``qp_instances(inequalities=...)`` of the declared domain (``constrained``: ``m >= 1``)."""
    return True if caps.domain == "constrained" else None


def _returned(caps: Capabilities, names: tuple[str, ...] = _NAMES) -> tuple[str, ...]:
    """The blocks among ``names`` that the target returns (all unless ``--returns``)."""
    if caps.returns is None:
        return names
    return tuple(n for n in names if n in caps.returns)


def _judged(got: Grads, name: str, shape: tuple[int, ...], caps: Capabilities) -> FloatArray:
    """The returned block ``name``; ``∇_Q`` by its symmetric part under ``unsymmetrised_q``."""
    value = _block(got, name, shape)
    if name == "Q" and _unsymmetrised_q(caps):
        return 0.5 * (value + value.T)
    return value


def _block(got: Grads, name: str, want_shape: tuple[int, ...]) -> FloatArray:
    value = got[_NAMES.index(name)]
    expect(
        value is not None,
        what=f"gradient of {name}",
        measured="None",
        allowed="an array (a layer that returns only some blocks declares them: --returns q,h)",
    )
    assert value is not None
    expect(
        value.shape == want_shape,
        what=f"shape of the gradient of {name}",
        measured=value.shape,
        allowed=want_shape,
    )
    expect(
        bool(np.all(np.isfinite(value))),
        what=f"gradient of {name} is finite",
        measured="NaN/inf entries",
        allowed="finite",
    )
    return value


def _shapes(inst: QPInstance) -> dict[str, tuple[int, ...]]:
    out: dict[str, tuple[int, ...]] = {"Q": inst.Q.shape, "q": inst.q.shape}
    for name in ("G", "h", "A", "b"):
        arr = getattr(inst, name)
        if arr is not None:
            out[name] = arr.shape
    return out


def _compare(
    got: Grads,
    want: Mapping[str, FloatArray],
    inst: QPInstance,
    caps: Capabilities,
    what: str,
    blocks: tuple[str, ...] = _NAMES,
) -> None:
    shapes = _shapes(inst)
    tol = _tol(caps)
    for name in _returned(caps, blocks):
        if name not in want:
            continue
        value = _judged(got, name, shapes[name], caps)
        err = _max_abs(value - want[name])
        allowed = tol * (1.0 + _max_abs(want[name]))
        expect_le(err, allowed, what=f"{what}: max |error| of the gradient of {name}")


# ------------------------------------------------------------------------- solver checks
def _solve(
    impl: QPSolver, inst: QPInstance, caps: Capabilities
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Solve ``inst``; under ``primal_only`` the multipliers are recovered from ``x``."""
    x, lam, nu = impl(*inst.args())
    n = inst.Q.shape[0]
    m = 0 if inst.G is None else inst.G.shape[0]
    p = 0 if inst.A is None else inst.A.shape[0]
    expect(x.shape == (n,), what="shape of x", measured=x.shape, allowed=(n,))
    if caps.primal_only:
        expect(
            bool(np.all(np.isfinite(x))), what="x is finite", measured="NaN/inf", allowed="finite"
        )
        lam, nu = recover_multipliers(inst, x)
        return x, lam, nu
    expect(
        (lam.size, nu.size) != (0, 0) or (m, p) == (0, 0),
        what="multipliers returned by the solver",
        measured="none (a primal-only answer)",
        allowed=f"lam of shape ({m},) and nu of shape ({p},); a solver that returns x alone "
        "declares capability primal_only (--capability primal_only)",
    )
    expect(lam.shape == (m,), what="shape of lam", measured=lam.shape, allowed=(m,))
    expect(nu.shape == (p,), what="shape of nu", measured=nu.shape, allowed=(p,))
    for name, v in (("x", x), ("lam", lam), ("nu", nu)):
        expect(
            bool(np.all(np.isfinite(v))),
            what=f"{name} is finite",
            measured="NaN/inf",
            allowed="finite",
        )
    return x, lam, nu


# ---------------------------------------------------------------------------------- suites
_A0 = "Zhao et al., FFOLayer (ICML 2026) A0 / KKT conditions"
_A1 = "Zhao et al., FFOLayer (ICML 2026) A1 (OptNet implicit differentiation)"
_A2 = "Zhao et al., FFOLayer (ICML 2026) A2 (FFO hypergradient)"
_RAISES = frozenset({"raises_on_invalid"})


@check(anchor=_A0 + ": KKT residual")
def check_kkt_residual(impl: QPSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Feasibility, dual feasibility, stationarity and complementarity hold to ``tol``
    (under ``primal_only`` with the multipliers recovered from ``x``)."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    x, lam, nu = _solve(impl, inst, caps)
    res = qp_layers.kkt_residual(*inst.args(), x, lam, nu)
    expect_le(res, _tol(caps), what="scaled KKT residual of (x, lam, nu)")


@check(anchor=_A0 + ": unique KKT point (Q ≻ 0, LICQ)")
def check_matches_planted_solution(impl: QPSolver, data: st.DataObject, caps: Capabilities) -> None:
    """``(x, λ, ν)`` equals the planted KKT point (unique: ``Q ≻ 0``, LICQ); under
    ``primal_only`` ``x`` alone is compared."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    x, lam, nu = _solve(impl, inst, caps)
    pairs = (("x", x, inst.y), ("lam", lam, inst.lam), ("nu", nu, inst.nu))
    for name, got, want in pairs[:1] if caps.primal_only else pairs:
        err = _max_abs(got - want)
        expect_le(err, _tol(caps) * _scale(want), what=f"max |{name} − planted {name}|")


@check(anchor="Zhao et al., FFOLayer (ICML 2026): row permutations")
def check_row_permutation_equivariance(
    impl: QPSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """Permuting the rows of ``(G, h)`` leaves ``x`` unchanged and permutes ``λ`` (``x``
    only under ``primal_only``)."""
    inst = data.draw(qp_instances(inequalities=True), label="planted QP")
    assert inst.G is not None
    assert inst.h is not None
    m = inst.G.shape[0]
    perm = np.array(data.draw(st.permutations(range(m)), label="row permutation"), dtype=np.intp)
    x, lam, _ = _solve(impl, inst, caps)
    Q, q, G, h, A, b = inst.args()
    assert G is not None
    assert h is not None
    xp, lamp, _ = as_solution(impl(Q, q, G[perm], h[perm], A, b))
    tol = _tol(caps) * _scale(inst.y, inst.lam)
    expect_le(_max_abs(xp - x), tol, what="max |x(permuted rows) − x|")
    if caps.primal_only:
        return
    expect(lamp.shape == (m,), what="shape of lam", measured=lamp.shape, allowed=(m,))
    expect_le(_max_abs(lamp - lam[perm]), tol, what="max |λ(permuted rows) − λ[perm]|")


@check(anchor="Zhao et al., FFOLayer (ICML 2026): (sQ, sq) leaves y* unchanged")
def check_objective_scaling_invariance(
    impl: QPSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """``(sQ, sq)`` with ``s > 0`` gives the same ``x`` and multipliers ``s·(λ, ν)`` (``x``
    only under ``primal_only``)."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    s = data.draw(st.floats(0.01, 100.0, allow_subnormal=False), label="scale s")
    x, lam, nu = _solve(impl, inst, caps)
    Q, q, G, h, A, b = inst.args()
    xs, lams, nus = as_solution(impl(s * Q, s * q, G, h, A, b))
    tol = _tol(caps) * _scale(inst.y)
    expect_le(_max_abs(xs - x), tol, what="max |x(sQ, sq) − x(Q, q)|")
    if caps.primal_only:
        return
    mtol = _tol(caps) * s * _scale(inst.lam, inst.nu)
    expect_le(_max_abs(lams - s * lam), mtol, what="max |λ(sQ, sq) − s λ|")
    expect_le(_max_abs(nus - s * nu), mtol, what="max |ν(sQ, sq) − s ν|")


@check(anchor="equality-constrained QP closed form", domains=("all",))
def check_equality_only_closed_form(
    impl: QPSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """Without inequalities, ``x = x_p + N(NᵀQN)⁻¹Nᵀ(−q − Q x_p)`` (``N`` basis of null(A))."""
    inst = data.draw(qp_instances(inequalities=False), label="planted QP (m = 0)")
    x, _, _ = _solve(impl, inst, caps)
    n = inst.Q.shape[0]
    if inst.A is None or inst.b is None:
        xp = np.zeros(n)
        N = np.eye(n)
    else:
        xp = _f64(np.linalg.lstsq(inst.A, inst.b, rcond=None)[0])
        N = scipy.linalg.null_space(inst.A)
    want = xp + N @ np.linalg.solve(N.T @ inst.Q @ N, N.T @ (-inst.q - inst.Q @ xp))
    expect_le(_max_abs(x - want), _tol(caps) * _scale(want), what="max |x − closed form|")


@check(anchor="Zhao et al., FFOLayer (ICML 2026): infeasible QP -> ValueError", requires=_RAISES)
def check_rejects_infeasible(impl: QPSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Contradictory rows ``gᵀy <= c`` and ``−gᵀy <= −c − 1`` raise ``ValueError``."""
    inst = data.draw(qp_instances(inequalities=True), label="planted QP")
    Q, q, G, h, A, b = inst.args()
    assert G is not None
    assert h is not None
    row = data.draw(st.integers(0, G.shape[0] - 1), label="row")
    G_bad = np.concatenate([G, -G[row : row + 1]])
    h_bad = np.concatenate([h, [-h[row] - 1.0]])
    expect_raises(
        lambda: impl(Q, q, G_bad, h_bad, A, b), (ValueError,), what="solver on an infeasible QP"
    )


@check(
    anchor="Zhao et al., FFOLayer (ICML 2026): Q must be symmetric positive definite",
    requires=_RAISES,
)
def check_rejects_non_spd(impl: QPSolver, data: st.DataObject, caps: Capabilities) -> None:
    """An indefinite or non-symmetric ``Q`` raises ``ValueError`` (Zhao et al., FFOLayer, ICML 2026 bad input)."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    kind = data.draw(st.sampled_from(["indefinite", "non-symmetric"]), label="corruption")
    Q, q, G, h, A, b = inst.args()
    n = Q.shape[0]
    if kind == "indefinite":
        Q_bad = Q - (float(np.linalg.eigvalsh(Q)[-1]) + 1.0) * np.eye(n)
    else:
        E = np.zeros((n, n))
        E[0, 1] = 1.0
        Q_bad = Q + E
    expect_raises(lambda: impl(Q_bad, q, G, h, A, b), (ValueError,), what=f"solver on {kind} Q")


@check(
    anchor="Zhao et al., FFOLayer (ICML 2026): batched call = stack of calls",
    requires=frozenset({"batched"}),
)
def check_batched_equals_stacked(impl: QPSolver, data: st.DataObject, caps: Capabilities) -> None:
    """A batch of ``B`` QPs gives the stack of the individual solutions."""
    n = data.draw(st.integers(2, 6), label="n")
    m = data.draw(st.integers(1, 6), label="m")
    k = data.draw(st.integers(0, min(m, n - 1)), label="active rows k")
    size = data.draw(st.integers(2, 3), label="batch B")
    seeds = data.draw(
        st.lists(st.integers(0, 2**32 - 1), min_size=size, max_size=size), label="seeds"
    )
    insts = [planted_qp(np.random.default_rng(s), n=n, m=m, p=0, k=k) for s in seeds]
    Qb = np.stack([i.Q for i in insts])
    qb = np.stack([i.q for i in insts])
    Gb = np.stack([i.G for i in insts if i.G is not None])
    hb = np.stack([i.h for i in insts if i.h is not None])
    xb, lamb, _ = as_solution(impl(Qb, qb, Gb, hb, None, None))
    expect(xb.shape == (size, n), what="shape of batched x", measured=xb.shape, allowed=(size, n))
    for j, inst in enumerate(insts):
        tol = _tol(caps) * _scale(inst.y, inst.lam)
        expect_le(_max_abs(xb[j] - inst.y), tol, what=f"max |x[{j}] − solution of QP {j}|")
        if not caps.primal_only:
            expect_le(_max_abs(lamb[j] - inst.lam), tol, what=f"max |λ[{j}] − λ of QP {j}|")


# -------------------------------------------------------------------- hypergradient checks
@check(anchor=_A1)
def check_matches_implicit_differentiation(
    impl: QPGradient, data: st.DataObject, caps: Capabilities
) -> None:
    """Every block equals implicit differentiation of the KKT system (null-space oracle)."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    d = _upstream(data, inst.Q.shape[0])
    got = impl(*inst.args(), d.copy())
    _compare(got, oracle_grads(inst, d), inst, caps, "vs implicit differentiation")


def _fd_direction(inst: QPInstance, name: str, data: st.DataObject) -> FloatArray:
    arr = getattr(inst, name)
    D = data.draw(float_arrays(arr.shape, low=-2.0, high=2.0), label=f"direction for {name}")
    return 0.5 * (D + D.T) if name == "Q" else D


@check(
    anchor="Zhao et al., FFOLayer (ICML 2026) oracles: central differences of dᵀy*(θ), step 1e-6"
)
def check_matches_finite_differences(
    impl: QPGradient, data: st.DataObject, caps: Capabilities
) -> None:
    """``⟨∇_θ, Δ⟩`` equals the central difference of ``θ ↦ dᵀy*(θ)`` along random ``Δ``
    (step 1e-6, brute-force forward oracle; symmetric ``Δ`` for ``Q``)."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    d = _upstream(data, inst.Q.shape[0])
    got = impl(*inst.args(), d.copy())
    shapes = _shapes(inst)
    eps = 1e-6
    for name in _returned(caps, tuple(shapes)):
        value = _block(got, name, shapes[name])
        D = _fd_direction(inst, name, data)

        def f(t: float, name: str = name, D: FloatArray = D) -> float:
            args = dict(zip(_NAMES, inst.args(), strict=True))
            base = args[name]
            assert base is not None
            args[name] = base + t * D
            Q, q, G, h, A, b = (args[k] for k in _NAMES)
            assert Q is not None
            assert q is not None
            sol = qp_layers.solve_qp_active_set(Q, q, G, h, A, b)
            return float(d @ sol.x)

        fd = (f(eps) - f(-eps)) / (2 * eps)
        analytic = float(np.sum(value * D))
        # FD truncation + rounding (~1e-9 here) plus the promised accuracy
        allowed = max(_tol(caps), 1e-6) * (1.0 + abs(fd))
        expect_le(
            abs(analytic - fd), allowed, what=f"|⟨∇_{name}, Δ⟩ − central difference| (step 1e-6)"
        )


@check(anchor=_A1 + ": rows ∉ I of ∇_G, ∇_h vanish", judges=("G", "h"))
def check_inactive_rows_zero(impl: QPGradient, data: st.DataObject, caps: Capabilities) -> None:
    """Rows of ``∇_G`` and ``∇_h`` of inactive constraints vanish (strict complementarity)."""
    inst = data.draw(qp_instances(inequalities=True), label="planted QP")
    d = _upstream(data, inst.Q.shape[0])
    got = impl(*inst.args(), d.copy())
    shapes = _shapes(inst)
    off = ~inst.active
    scale = _scale(inst.y) * (1.0 + float(np.linalg.norm(d)))
    for name in _returned(caps, ("G", "h")):
        value = _block(got, name, shapes[name])
        expect_le(_max_abs(value[off]), _tol(caps) * scale, what=f"max |∇_{name}| on inactive rows")


@check(anchor="(∂y*/∂θ)ᵀ d is linear in d")
def check_linear_in_upstream(impl: QPGradient, data: st.DataObject, caps: Capabilities) -> None:
    """The exact gradient is linear in ``d``: ``g(d₁ + c d₂) = g(d₁) + c g(d₂)``."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    n = inst.Q.shape[0]
    d1 = _upstream(data, n, "d1")
    d2 = _upstream(data, n, "d2")
    c = data.draw(st.floats(-3.0, 3.0, allow_subnormal=False), label="c")
    g1 = impl(*inst.args(), d1.copy())
    g2 = impl(*inst.args(), d2.copy())
    g12 = impl(*inst.args(), d1 + c * d2)
    shapes = _shapes(inst)
    for name in _returned(caps, tuple(shapes)):
        a = _block(g12, name, shapes[name])
        want = _block(g1, name, shapes[name]) + c * _block(g2, name, shapes[name])
        expect_le(
            _max_abs(a - want),
            _tol(caps) * (1.0 + _max_abs(want)),
            what=f"linearity in d of the gradient of {name}",
        )


@check(anchor="Zhao et al., FFOLayer (ICML 2026): a redundant row changes nothing")
def check_redundant_constraint_invariance(
    impl: QPGradient, data: st.DataObject, caps: Capabilities
) -> None:
    """Appending a redundant row (``h_new = G_new y* + 1``) changes no other gradient and
    gets a zero gradient itself."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    n = inst.Q.shape[0]
    d = _upstream(data, n)
    row = data.draw(float_arrays((n,), low=-3.0, high=3.0), label="redundant row")
    Q, q, G, h, A, b = inst.args()
    G2 = row[None, :] if G is None else np.concatenate([G, row[None, :]])
    h2 = np.array([row @ inst.y + 1.0]) if h is None else np.concatenate([h, [row @ inst.y + 1.0]])
    base = impl(Q, q, G, h, A, b, d.copy())
    more = impl(Q.copy(), q.copy(), G2, h2, A, b, d.copy())
    shapes = _shapes(inst)
    for name in _returned(caps, ("Q", "q", "A", "b")):
        if name not in shapes:
            continue
        a = _block(more, name, shapes[name])
        want = _block(base, name, shapes[name])
        expect_le(
            _max_abs(a - want),
            _tol(caps) * (1.0 + _max_abs(want)),
            what=f"change of the gradient of {name} after a redundant row",
        )
    m2 = G2.shape[0]
    scale = _tol(caps) * _scale(inst.y) * (1.0 + float(np.linalg.norm(d)))
    if "h" in _returned(caps, ("h",)):
        gh = _block(more, "h", (m2,))
        expect_le(abs(float(gh[-1])), scale, what="|∇_h| of the redundant row")
    if "G" not in _returned(caps, ("G",)):
        return
    gG = _block(more, "G", (m2, n))
    expect_le(_max_abs(gG[-1]), scale, what="|∇_G| of the redundant row")
    if G is not None:
        expect_le(
            _max_abs(gG[:-1] - _block(base, "G", G.shape)),
            _tol(caps) * (1.0 + _max_abs(gG)),
            what="change of ∇_G on the old rows",
        )


@check(anchor="Zhao et al., FFOLayer (ICML 2026): ∇_q = −Q⁻¹d", domains=("all",), judges=("Q", "q"))
def check_unconstrained_closed_form(
    impl: QPGradient, data: st.DataObject, caps: Capabilities
) -> None:
    """``m = p = 0``: ``∇_q = −Q⁻¹d`` and ``∇_Q = −½(Q⁻¹d y*ᵀ + y* dᵀQ⁻¹)``."""
    inst = data.draw(qp_instances(inequalities=False, equalities=False), label="QP (m = p = 0)")
    d = _upstream(data, inst.Q.shape[0])
    got = impl(*inst.args(), d.copy())
    Qd = _f64(np.linalg.solve(inst.Q, d))
    want = {"q": -Qd, "Q": -0.5 * (np.outer(Qd, inst.y) + np.outer(inst.y, Qd))}
    _compare(got, want, inst, caps, "unconstrained closed form", ("Q", "q"))


@check(anchor="Zhao et al., FFOLayer (ICML 2026): ∇_q scales by 1/s", judges=("q",))
def check_scale_covariance(impl: QPGradient, data: st.DataObject, caps: Capabilities) -> None:
    """``(sQ, sq)`` leaves ``y*`` unchanged and scales ``∇_q`` by ``1/s``."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    s = data.draw(st.floats(0.05, 20.0, allow_subnormal=False), label="scale s")
    d = _upstream(data, inst.Q.shape[0])
    Q, q, G, h, A, b = inst.args()
    base = _block(impl(Q, q, G, h, A, b, d.copy()), "q", q.shape)
    scaled = _block(impl(s * Q, s * q, G, h, A, b, d.copy()), "q", q.shape)
    expect_le(
        _max_abs(scaled - base / s),
        _tol(caps) * (1.0 + _max_abs(base / s)),
        what="max |∇_q(sQ, sq) − ∇_q(Q, q)/s|",
    )


# ----------------------------------------------------------------------------- FFO checks
def _log_alpha(data: st.DataObject, lo: float, hi: float, label: str = "log10 alpha") -> float:
    return float(
        10.0
        ** data.draw(st.floats(math.log10(lo), math.log10(hi), allow_subnormal=False), label=label)
    )


@check("exact_blocks", anchor=_A2 + "; T2: q, h, b exact for every α", judges=("q", "h", "b"))
def check_ffo_exact_blocks(impl: FFOGradient, data: st.DataObject, caps: Capabilities) -> None:
    """``ĝ_q``, ``ĝ_h``, ``ĝ_b`` equal the exact gradient for every ``α ∈ [1, 1e4]`` (Zhao et al., FFOLayer, ICML 2026 T2)."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    d = _upstream(data, inst.Q.shape[0])
    alpha = _log_alpha(data, 1.0, 1e4)
    got = impl(*inst.args(), d.copy(), alpha=alpha)
    _compare(
        got,
        oracle_grads(inst, d),
        inst,
        caps,
        f"exact blocks at α={alpha:.4g}",
        ("q", "h", "b"),
    )


@check("rank_one_error", anchor=_A2 + ": exact error structure for QPs", judges=("Q", "G", "A"))
def check_ffo_rank_one_error(impl: FFOGradient, data: st.DataObject, caps: Capabilities) -> None:
    """``α(ĝ − ∇)`` equals ``½d_z d_zᵀ`` (Q), ``d_μ d_zᵀ`` (G), ``d_ν d_zᵀ`` (A) (spec 03 A2;
    α ∈ [10, 1e3] so that the α²·u roundoff stays below ``RANK_ONE_RTOL``).  Under
    ``--variant exact_limit`` the declared limit has no such term: ``ĝ = ∇`` on every block."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    d = _upstream(data, inst.Q.shape[0])
    alpha = _log_alpha(data, 10.0, 1e3)
    got = impl(*inst.args(), d.copy(), alpha=alpha)
    exact = oracle_grads(inst, d)
    terms = _rank_one_terms(inst, exact)
    shapes = _shapes(inst)
    if _exact_limit(caps):
        _compare(got, exact, inst, caps, f"exact limit at α={alpha:.4g}", ("Q", "G", "A"))
        return
    tol = max(_tol(caps), RANK_ONE_RTOL, alpha * min(_tol(caps), _ROUNDING * caps.unit_roundoff))
    for name, term in terms.items():
        if name not in _returned(caps):
            continue
        value = _judged(got, name, shapes[name], caps)
        scaled = alpha * (value - exact[name])
        err = _max_abs(scaled - term)
        expect_le(
            err,
            tol * (1.0 + _max_abs(term)),
            what=f"max |α(ĝ_{name} − ∇_{name}) − rank-one term| at α={alpha:.4g}",
        )


@check(
    "error_bound",
    anchor="Zhao et al., FFOLayer (ICML 2026) T2: error <= C/α",
    judges=("Q", "G", "A"),
)
def check_ffo_error_bound(impl: FFOGradient, data: st.DataObject, caps: Capabilities) -> None:
    """``‖ĝ − ∇‖_F <= 1.01·‖rank-one term‖_F / α + tol`` for Q, G, A (O(1/α) consistency)."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    d = _upstream(data, inst.Q.shape[0])
    alpha = _log_alpha(data, 10.0, 1e4)
    got = impl(*inst.args(), d.copy(), alpha=alpha)
    exact = oracle_grads(inst, d)
    shapes = _shapes(inst)
    for name, term in _rank_one_terms(inst, exact).items():
        if name not in _returned(caps):
            continue
        value = _judged(got, name, shapes[name], caps)
        err = float(np.linalg.norm(value - exact[name]))
        bound = 1.01 * float(np.linalg.norm(term)) / alpha
        expect_le(
            err,
            bound + _tol(caps) * (1.0 + _max_abs(exact[name])),
            what=f"‖ĝ_{name} − ∇_{name}‖_F against C/α at α={alpha:.4g}",
        )


@check("inactive_rows_exactly_zero", anchor="Zhao et al., FFOLayer (ICML 2026)", judges=("G", "h"))
def check_ffo_inactive_rows_exactly_zero(
    impl: FFOGradient, data: st.DataObject, caps: Capabilities
) -> None:
    """Rows ``i ∉ I`` of ``ĝ_G`` and ``ĝ_h`` are exactly 0 (Zhao et al., FFOLayer, ICML 2026)."""
    inst = data.draw(qp_instances(inequalities=True), label="planted QP")
    d = _upstream(data, inst.Q.shape[0])
    alpha = _log_alpha(data, 1.0, 1e4)
    got = impl(*inst.args(), d.copy(), alpha=alpha)
    shapes = _shapes(inst)
    off = ~inst.active
    for name in _returned(caps, ("G", "h")):
        value = _block(got, name, shapes[name])
        expect_le(_max_abs(value[off]), 0.0, what=f"max |ĝ_{name}| on inactive rows")


@check("linear_blocks", anchor="Zhao et al., FFOLayer (ICML 2026)", judges=("q", "h", "b"))
def check_ffo_linear_blocks(impl: FFOGradient, data: st.DataObject, caps: Capabilities) -> None:
    """``ĝ_q``, ``ĝ_h``, ``ĝ_b`` are linear in ``d`` (Zhao et al., FFOLayer, ICML 2026)."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    n = inst.Q.shape[0]
    d1 = _upstream(data, n, "d1")
    d2 = _upstream(data, n, "d2")
    c = data.draw(st.floats(-3.0, 3.0, allow_subnormal=False), label="c")
    alpha = _log_alpha(data, 1.0, 1e3)
    g1 = impl(*inst.args(), d1.copy(), alpha=alpha)
    g2 = impl(*inst.args(), d2.copy(), alpha=alpha)
    g12 = impl(*inst.args(), d1 + c * d2, alpha=alpha)
    shapes = _shapes(inst)
    for name in _returned(caps, ("q", "h", "b")):
        if name not in shapes:
            continue
        a = _block(g12, name, shapes[name])
        want = _block(g1, name, shapes[name]) + c * _block(g2, name, shapes[name])
        expect_le(
            _max_abs(a - want),
            _tol(caps) * (1.0 + _max_abs(want)),
            what=f"linearity in d of ĝ_{name}",
        )


@check(
    "unconstrained", anchor="Zhao et al., FFOLayer (ICML 2026)", domains=("all",), judges=("Q", "q")
)
def check_ffo_unconstrained(impl: FFOGradient, data: st.DataObject, caps: Capabilities) -> None:
    """``m = p = 0``: ``ĝ_q = −Q⁻¹d`` exactly and ``ĝ_Q → −½(Q⁻¹d y*ᵀ + y* dᵀQ⁻¹)`` (error
    ``(Q⁻¹d)(Q⁻¹d)ᵀ/(2α)``)."""
    inst = data.draw(qp_instances(inequalities=False, equalities=False), label="QP (m = p = 0)")
    d = _upstream(data, inst.Q.shape[0])
    alpha = _log_alpha(data, 1.0, 1e3)
    got = impl(*inst.args(), d.copy(), alpha=alpha)
    Qd = _f64(np.linalg.solve(inst.Q, d))
    want_Q = -0.5 * (np.outer(Qd, inst.y) + np.outer(inst.y, Qd))
    if not _exact_limit(caps):  # the FFO error term (Q⁻¹d)(Q⁻¹d)ᵀ/(2α); none in the limit
        want_Q = want_Q + np.outer(Qd, Qd) / (2 * alpha)
    _compare(
        got,
        {"q": -Qd, "Q": want_Q},
        inst,
        caps,
        f"unconstrained closed form at α={alpha:.4g}",
        ("Q", "q"),
    )


@check("equality_only", anchor="Zhao et al., FFOLayer (ICML 2026)", domains=("all",), judges=("q",))
def check_ffo_equality_only(impl: FFOGradient, data: st.DataObject, caps: Capabilities) -> None:
    """Equality-only QP: ``ĝ_q = d_z = −N(NᵀQN)⁻¹Nᵀd`` with ``N`` a basis of ``null(A)``."""
    inst = data.draw(qp_instances(inequalities=False, equalities=True), label="QP (m = 0)")
    d = _upstream(data, inst.Q.shape[0])
    alpha = _log_alpha(data, 1.0, 1e4)
    assert inst.A is not None
    N = scipy.linalg.null_space(inst.A)
    dz = -N @ np.linalg.solve(N.T @ inst.Q @ N, N.T @ d)
    got = impl(*inst.args(), d.copy(), alpha=alpha)
    _compare(got, {"q": dz}, inst, caps, "equality-only closed form", ("q",))


@check("scale", anchor="Zhao et al., FFOLayer (ICML 2026)", judges=("q",))
def check_ffo_scale(impl: FFOGradient, data: st.DataObject, caps: Capabilities) -> None:
    """``(sQ, sq)`` scales ``ĝ_q`` by ``1/s`` at any fixed ``α`` (Zhao et al., FFOLayer, ICML 2026)."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    s = data.draw(st.floats(0.05, 20.0, allow_subnormal=False), label="scale s")
    d = _upstream(data, inst.Q.shape[0])
    alpha = _log_alpha(data, 1.0, 1e3)
    Q, q, G, h, A, b = inst.args()
    base = _block(impl(Q, q, G, h, A, b, d.copy(), alpha=alpha), "q", q.shape)
    scaled = _block(impl(s * Q, s * q, G, h, A, b, d.copy(), alpha=alpha), "q", q.shape)
    expect_le(
        _max_abs(scaled - base / s),
        _tol(caps) * (1.0 + _max_abs(base / s)),
        what="max |ĝ_q(sQ, sq) − ĝ_q(Q, q)/s|",
    )


@check(
    "cosine_at_default_alpha",
    anchor="Zhao et al., FFOLayer (ICML 2026): cosine >= 0.999 at α = 100",
)
def check_ffo_cosine(impl: FFOGradient, data: st.DataObject, caps: Capabilities) -> None:
    """At ``α = 100`` the full gradient has cosine similarity ``>= 0.999`` with the exact one."""
    inst = data.draw(qp_instances(inequalities=_inequalities(caps)), label="planted QP")
    d = _upstream(data, inst.Q.shape[0])
    got = impl(*inst.args(), d.copy(), alpha=100.0)
    exact = oracle_grads(inst, d)
    shapes = _shapes(inst)
    names = _returned(caps, tuple(exact))
    a = np.concatenate([_judged(got, k, shapes[k], caps).ravel() for k in names])
    e = np.concatenate([exact[k].ravel() for k in names])
    cos = float(a @ e) / max(float(np.linalg.norm(a) * np.linalg.norm(e)), 1e-300)
    expect(
        cos >= COSINE_AT_100,
        what="cosine(ĝ, ∇) at α = 100",
        measured=repr(cos),
        allowed=f">= {COSINE_AT_100}",
    )


QP_SOLVER: Suite[QPSolver] = Suite(
    name="qp_layers.solver",
    protocol=QPSolver,
    checks=(
        check_kkt_residual,
        check_matches_planted_solution,
        check_row_permutation_equivariance,
        check_objective_scaling_invariance,
        check_equality_only_closed_form,
        check_rejects_infeasible,
        check_rejects_non_spd,
        check_batched_equals_stacked,
    ),
    adapt=_adapt_solver,
    domains=QP_DOMAINS,
    description="Forward QP solvers fn(Q, q, G, h, A, b) -> (x, lam, nu): KKT residual, planted "
    "solution, row permutations, objective scaling, equality-only closed form, bad input, batches.",
    notes=(SOLVER_MODULE.note(),),
)

HYPERGRADIENT: Suite[QPGradient] = Suite(
    name="qp_layers.hypergradient",
    protocol=QPGradient,
    checks=(
        check_matches_implicit_differentiation,
        check_matches_finite_differences,
        check_inactive_rows_zero,
        check_linear_in_upstream,
        check_redundant_constraint_invariance,
        check_unconstrained_closed_form,
        check_scale_covariance,
    ),
    adapt=_adapt_gradient,
    variants=GRADIENT_VARIANTS,
    domains=QP_DOMAINS,
    description="Exact QP-layer gradients fn(Q, q, G, h, A, b, grad_x) -> (gQ, ..., gb): implicit "
    "differentiation, finite differences, zero inactive rows, linearity, redundant rows, closed "
    "forms, scaling.",
)

FFO_GRADIENT: Suite[FFOGradient] = Suite(
    name="qp_layers.ffo",
    protocol=FFOGradient,
    checks=(
        check_ffo_exact_blocks,
        check_ffo_rank_one_error,
        check_ffo_error_bound,
        check_ffo_inactive_rows_exactly_zero,
        check_ffo_linear_blocks,
        check_ffo_unconstrained,
        check_ffo_equality_only,
        check_ffo_scale,
        check_ffo_cosine,
    ),
    adapt=_adapt_ffo,
    variants=FFO_VARIANTS,
    domains=QP_DOMAINS,
    description="FFO-type QP-layer gradients fn(..., grad_x, *, alpha): exact q/h/b blocks, "
    "rank-one O(1/α) error on Q/G/A, zero inactive rows, linearity, closed forms, cosine.",
)

SUITES = (QP_SOLVER, HYPERGRADIENT, FFO_GRADIENT)
