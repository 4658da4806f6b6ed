"""Conformance suites for mirror descent under l*-smoothness (spec 06).

* ``mirror_descent.simplex_prox`` — the entropic prox step ``(x, g, η) -> u`` on the simplex:
  feasibility (no NaN for ``|g|`` up to 1e3), the closed form (unique answer), invariance to
  ``g + c·1`` (adding ``c Σ x_i``, a constant on the simplex, to ``f``), the semigroup property.
* ``mirror_descent.solver`` — a mirror-descent solver ``(grad, x0, *, step_size, max_iter,
  mirror) -> x_T`` for ``mirror in {"euclidean", "entropic"}``: Euclidean MD is gradient descent,
  entropic MD is exponentiated gradient (unique answers), it stays on the simplex, is invariant to
  adding a constant to ``f`` on the simplex, decreases ``f`` and meets Theorem 3.5's bound
  ``f(x_T) - f* <= D(x*, x0)/(ηT)`` with ``η = 1/l(2G)`` on the cosh ridge.
* ``mirror_descent.effective_constants`` — ``G(L0, L1, Δ0)`` for affine ``l``: ``G`` solves
  ``a² = 2 l(2a) Δ0`` and is the largest root, is monotone, ``G(0) = 0``, and bounds the gradient
  of the ridge instances (Lemma 3.4 with the unconstrained infimum).
* ``mirror_descent.composite`` — composite mirror descent ``(grad, x0, *, step_size, max_iter,
  mirror, regularizer) -> x_T`` for ``F = f + h`` (algorithm 6): ``h = 0`` is mirror descent,
  Euclidean steps are proximal gradient (soft thresholding / shrinkage / clipping), entropic steps
  with ``h = λ Σ x log x`` have the closed form ``u ∝ exp((log x - ηg)/(1 + ηλ))``, a minimiser of
  ``F`` is a fixed point, iterates stay in the domain, and with ``η = 1/l(2G)`` each step decreases
  ``F`` by ``(η/2)||G_t||²`` (the step of Theorem 5.1's proof), also for nonconvex ``f``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
from hypothesis import strategies as st

from properties._runner import (
    Capabilities,
    CheckFailure,
    Suite,
    expect,
    expect_close,
    expect_le,
)
from properties._suite import check
from properties.adapters import to_numpy
from properties.strategies import float_arrays, nonzero_float_arrays, seeds, simplex_points
from reference import mirror_descent as md
from reference._arrays import FloatArray
from reference.mirror_descent import composite as mdc
from reference.mirror_descent.instances import (
    CompositeProblem,
    composite_constants,
    composite_instances,
    minimiser,
)

__all__ = [
    "COMPOSITE",
    "EFFECTIVE_CONSTANTS",
    "SIMPLEX_PROX",
    "SOLVER",
    "SUITES",
    "CompositeSolver",
    "EffectiveG",
    "MirrorSolver",
    "SimplexProx",
    "cosh_instances",
]

MAX_DIM = 6


class SimplexProx(Protocol):
    """Entropic prox step: ``(x (n,), g (n,), η) -> u (n,)`` on the simplex."""

    def __call__(self, x: FloatArray, gradient: FloatArray, step_size: float, /) -> FloatArray:
        """Return ``argmin_u η<g, u> + KL(u, x)`` over the simplex."""
        ...


class MirrorSolver(Protocol):
    """Mirror descent: ``(grad, x0, *, step_size, max_iter, mirror) -> x_T``."""

    def __call__(
        self,
        grad: Callable[[FloatArray], FloatArray],
        x0: FloatArray,
        /,
        *,
        step_size: float,
        max_iter: int,
        mirror: str,
    ) -> FloatArray:
        """Return the last iterate ``x_T``."""
        ...


class CompositeSolver(Protocol):
    """Composite MD: ``(grad, x0, *, step_size, max_iter, mirror, regularizer) -> x_T``."""

    def __call__(
        self,
        grad: Callable[[FloatArray], FloatArray],
        x0: FloatArray,
        /,
        *,
        step_size: float,
        max_iter: int,
        mirror: str,
        regularizer: mdc.Regularizer,
    ) -> FloatArray:
        """Return the last iterate ``x_T`` for ``F = f + h``, ``h`` = ``regularizer``."""
        ...


class EffectiveG(Protocol):
    """``G`` of Yu et al. (ICML 2026) for ``l(a) = L0 + L1 a``: ``(L0, L1, Δ0) -> G``."""

    def __call__(self, l0: float, l1: float, delta0: float, /) -> float:
        """Return ``G``."""
        ...


# --------------------------------------------------------------------------------------------
# strategies and helpers


def _positive_simplex(draw: st.DrawFn, size: int) -> FloatArray:
    point = draw(simplex_points(size), label="x on the simplex")
    mixed: FloatArray = 0.9 * point + 0.1 / size  # strictly positive (KL finite)
    return mixed


@st.composite
def cosh_instances(draw: st.DrawFn) -> tuple[md.RidgeProblem, FloatArray]:
    """Cosh ridges on the simplex with ``min c < b < max c`` (f* = 2 attained inside)."""
    n = draw(st.integers(2, MAX_DIM), label="dimension n")
    c = draw(float_arrays((n,), low=-1.0, high=1.0), label="ridge direction c")
    c[0], c[1] = -1.0, 1.0
    b = draw(st.floats(-0.9, 0.9, allow_subnormal=False), label="offset b")
    return md.cosh_ridge(c, b), _positive_simplex(draw, n)


def _expect_simplex(u: FloatArray, n: int, atol: float, what: str) -> None:
    expect(u.shape == (n,), what=f"shape of {what}", measured=u.shape, allowed=(n,))
    expect(
        bool(np.all(np.isfinite(u))),
        what=f"{what} is finite",
        measured=u.tolist(),
        allowed="finite",
    )
    expect_le(-float(np.min(u)), atol, what=f"negative entries of {what}")
    expect_close(float(np.sum(u)), 1.0, atol=atol, what=f"sum of {what}")


def _prox(impl: SimplexProx, x: FloatArray, g: FloatArray, eta: float) -> FloatArray:
    return to_numpy(impl(x.copy(), g.copy(), eta), what="prox output")


def _max_diff(a: FloatArray, b: FloatArray) -> float:
    return float(np.max(np.abs(a - b)))


# --------------------------------------------------------------------------------------------
# suite: simplex_prox


def _prox_inputs(data: st.DataObject, bound: float = 10.0) -> tuple[FloatArray, FloatArray, float]:
    n = data.draw(st.integers(1, MAX_DIM), label="dimension n")
    x = data.draw(simplex_points(n), label="x")
    g = data.draw(float_arrays((n,), low=-bound, high=bound), label="gradient g")
    eta = data.draw(st.floats(1e-3, 10.0, allow_subnormal=False), label="step η")
    return x, g, eta


_PAPER_ANCHOR = "Yu et al., ICML 2026"


@check("on_simplex", anchor=_PAPER_ANCHOR + " section 5: prox steps stay in X (log-sum-exp shift)")
def check_prox_on_simplex(impl: SimplexProx, data: st.DataObject, caps: Capabilities) -> None:
    """Outputs are nonnegative, sum to one and finite, also for gradients up to 1e3."""
    x, g, eta = _prox_inputs(data, bound=1e3)
    u = _prox(impl, x, g, eta)
    _expect_simplex(u, x.size, caps.tolerance, "P(x, g, η)")
    expect(
        bool(np.all(u[x == 0.0] <= caps.tolerance)),
        what="zero entries of x stay zero",
        measured=u[x == 0.0].tolist(),
        allowed="zeros",
    )


@check(anchor=_PAPER_ANCHOR + " section 2: entropic prox closed form (b)")
def check_closed_form(impl: SimplexProx, data: st.DataObject, caps: Capabilities) -> None:
    """``u_i = x_i exp(-η g_i) / Σ_j x_j exp(-η g_j)`` (the minimiser is unique)."""
    x, g, eta = _prox_inputs(data)
    u = _prox(impl, x, g, eta)
    want = md.prox_step(x, g, eta, mirror="entropic")
    expect_le(_max_diff(u, want), caps.tolerance, what="max |P(x, g, η) - closed form|")


@check(anchor="constants on the simplex do not move the entropic step")
def check_shift_invariance(impl: SimplexProx, data: st.DataObject, caps: Capabilities) -> None:
    """``P(x, g + c·1, η) = P(x, g, η)``: a constant on the simplex does not move the step."""
    x, g, eta = _prox_inputs(data)
    c = data.draw(st.floats(-50.0, 50.0, allow_subnormal=False), label="shift c")
    a = _prox(impl, x, g, eta)
    b = _prox(impl, x, g + c, eta)
    expect_le(_max_diff(a, b), caps.tolerance, what="max |P(x, g + c1, η) - P(x, g, η)|")


@check(anchor="entropic steps with a fixed gradient compose additively")
def check_semigroup(impl: SimplexProx, data: st.DataObject, caps: Capabilities) -> None:
    """``P(P(x, g, a), g, b) = P(x, g, a + b)`` (two entropic steps with one gradient add up)."""
    x, g, eta = _prox_inputs(data)
    second = data.draw(st.floats(1e-3, 10.0, allow_subnormal=False), label="second step")
    two = _prox(impl, _prox(impl, x, g, eta), g, second)
    one = _prox(impl, x, g, eta + second)
    expect_le(_max_diff(two, one), caps.tolerance, what="max |P(P(x,g,a),g,b) - P(x,g,a+b)|")


# --------------------------------------------------------------------------------------------
# suite: solver


def _solve(
    impl: MirrorSolver,
    grad: Callable[[FloatArray], FloatArray],
    x0: FloatArray,
    eta: float,
    t: int,
    mirror: str,
) -> FloatArray:
    return to_numpy(
        impl(grad, x0.copy(), step_size=eta, max_iter=t, mirror=mirror), what="solver output"
    )


@check(anchor=_PAPER_ANCHOR + " section 5: Euclidean MD = GD")
def check_euclidean_is_gradient_descent(
    impl: MirrorSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """Euclidean MD on ``f = ½xᵀQx - bᵀx`` equals ``x <- x - η(Qx - b)`` run ``T`` times."""
    n = data.draw(st.integers(1, MAX_DIM), label="dimension n")
    a = data.draw(float_arrays((n, n), low=-3.0, high=3.0), label="A (Q = A Aᵀ / n + I)")
    q = a @ a.T / n + np.eye(n)
    b = data.draw(float_arrays((n,), low=-3.0, high=3.0), label="b")
    x0 = data.draw(float_arrays((n,), low=-3.0, high=3.0), label="x0")
    t = data.draw(st.integers(1, 20), label="iterations T")
    eta = 1.0 / float(np.linalg.eigvalsh(q)[-1])
    x = x0.copy()
    for _ in range(t):
        x = x - eta * (q @ x - b)
    got = _solve(impl, lambda z: q @ z - b, x0, eta, t, "euclidean")
    scale = 1.0 + float(np.max(np.abs(x)))
    expect_le(_max_diff(got, x) / scale, caps.tolerance, what="|MD(euclidean) - GD| / scale")


@check(anchor=_PAPER_ANCHOR + " section 5: entropic MD = exponentiated gradient")
def check_entropic_is_exponentiated_gradient(
    impl: MirrorSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """Entropic MD on the cosh ridge equals exponentiated gradient run ``T`` times."""
    problem, x0 = data.draw(cosh_instances(), label="cosh ridge on the simplex")
    t = data.draw(st.integers(1, 20), label="iterations T")
    eta = data.draw(st.floats(0.01, 0.5, allow_subnormal=False), label="step η")
    x = x0.copy()
    for _ in range(t):
        w = x * np.exp(-eta * (problem.grad(x) - float(np.max(problem.grad(x)))))
        x = w / w.sum()
    got = _solve(impl, problem.grad, x0, eta, t, "entropic")
    expect_le(_max_diff(got, x), caps.tolerance, what="|MD(entropic) - exponentiated gradient|")


@check("stays_on_simplex", anchor=_PAPER_ANCHOR + " section 5: iterates stay in X")
def check_solver_on_simplex(impl: MirrorSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Entropic MD stays on the simplex, also with large steps."""
    problem, x0 = data.draw(cosh_instances(), label="cosh ridge on the simplex")
    eta = data.draw(st.floats(0.01, 100.0, allow_subnormal=False), label="step η")
    t = data.draw(st.integers(1, 20), label="iterations T")
    _expect_simplex(
        _solve(impl, problem.grad, x0, eta, t, "entropic"), x0.size, caps.tolerance, "x_T"
    )


@check(anchor="adding a constant to f (c Σx on the simplex) changes nothing")
def check_constant_invariance(impl: MirrorSolver, data: st.DataObject, caps: Capabilities) -> None:
    """On the simplex, ``f + c Σ_i x_i`` (= ``f + c`` there) gives the same iterates."""
    problem, x0 = data.draw(cosh_instances(), label="cosh ridge on the simplex")
    c = data.draw(st.floats(-20.0, 20.0, allow_subnormal=False), label="constant c")
    t = data.draw(st.integers(1, 15), label="iterations T")
    eta = (
        1.0
        / md.effective_constants(
            problem.smoothness("l1"), problem.value(x0) - problem.f_star
        ).lipschitz
    )
    a = _solve(impl, problem.grad, x0, eta, t, "entropic")
    b = _solve(impl, lambda z: problem.grad(z) + c, x0, eta, t, "entropic")
    expect_le(_max_diff(a, b), caps.tolerance, what="|x_T(f + c Σx) - x_T(f)|")


def _l_step(problem: md.RidgeProblem, x0: FloatArray) -> tuple[float, md.EffectiveConstants]:
    consts = md.effective_constants(problem.smoothness("l1"), problem.value(x0) - problem.f_star)
    return 1.0 / consts.lipschitz, consts


@check("descent", anchor=_PAPER_ANCHOR + " bound (i): f(x_{t+1}) <= f(x_t) with eta = 1/l(2G)")
def check_solver_descent(impl: MirrorSolver, data: st.DataObject, caps: Capabilities) -> None:
    """With ``η = 1/l(2G)``: ``f(x_{T+1}) <= f(x_T)`` (the paper's monotonicity)."""
    problem, x0 = data.draw(cosh_instances(), label="cosh ridge on the simplex")
    t = data.draw(st.integers(1, 15), label="iterations T")
    eta, _ = _l_step(problem, x0)
    before = problem.value(_solve(impl, problem.grad, x0, eta, t, "entropic"))
    after = problem.value(_solve(impl, problem.grad, x0, eta, t + 1, "entropic"))
    expect_le(after - before, caps.tolerance * abs(before), what="f(x_{T+1}) - f(x_T)")


@check(anchor=_PAPER_ANCHOR + " Theorem 3.5 / bound (i): f(x_T) - f* <= D/(eta T)")
def check_theorem_3_5_bound(impl: MirrorSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Theorem 3.5 with ``η = 1/l(2G)``: ``f(x_T) - 2 <= KL(x*, x0) / (η T)`` (cosh ridge)."""
    problem, x0 = data.draw(cosh_instances(), label="cosh ridge on the simplex")
    t = data.draw(st.integers(1, 40), label="iterations T")
    eta, _ = _l_step(problem, x0)
    x_t = _solve(impl, problem.grad, x0, eta, t, "entropic")
    _expect_simplex(x_t, x0.size, caps.tolerance, "x_T")
    dist = md.bregman_divergence(minimiser(problem, x0, "entropic"), x0, mirror="entropic")
    gap = problem.value(np.clip(x_t, 0.0, None) / np.clip(x_t, 0.0, None).sum()) - problem.f_star
    expect_le(gap, dist / (eta * t) * (1.0 + 1e-10) + caps.tolerance, what="f(x_T) - f*")


# --------------------------------------------------------------------------------------------
# suite: effective_constants


def _affine(data: st.DataObject) -> tuple[float, float, float]:
    l0 = data.draw(st.floats(1e-3, 1e3, allow_subnormal=False), label="L0")
    l1 = data.draw(st.floats(0.0, 1e2, allow_subnormal=False), label="L1")
    d0 = data.draw(st.floats(1e-6, 1e3, allow_subnormal=False), label="Δ0")
    return l0, l1, d0


def _g(impl: EffectiveG, l0: float, l1: float, d0: float) -> float:
    value = float(to_numpy(impl(l0, l1, d0), what="G"))
    expect(math.isfinite(value), what="G is finite", measured=value, allowed="finite")
    return value


@check("solves_equation", anchor=_PAPER_ANCHOR + " section 2: G = largest root of a² = 2 l(2a) Δ0")
def check_g_solves_equation(impl: EffectiveG, data: st.DataObject, caps: Capabilities) -> None:
    """``G² = 2 (L0 + 2 L1 G) Δ0`` (relative residual) and ``G`` is the largest root
    (``a² > 2 l(2a) Δ0`` just above it)."""
    l0, l1, d0 = _affine(data)
    g = _g(impl, l0, l1, d0)
    rhs = 2.0 * (l0 + 2.0 * l1 * g) * d0
    expect_le(abs(g * g - rhs) / max(rhs, 1e-300), caps.tolerance, what="|G² - 2 l(2G) Δ0| / rhs")
    above = g * (1.0 + 1e-3)
    expect(
        above * above > 2.0 * (l0 + 2.0 * l1 * above) * d0,
        what="a² > 2 l(2a) Δ0 just above G (G is the largest root)",
        measured=f"G = {g!r}",
        allowed="the largest root",
    )


@check("monotone", anchor=_PAPER_ANCHOR + " section 5: G non-decreasing in Δ0 and l; G(0) = 0")
def check_g_monotone(impl: EffectiveG, data: st.DataObject, caps: Capabilities) -> None:
    """``G`` is non-decreasing in ``Δ0``, ``L0`` and ``L1``; ``G = 0`` when ``Δ0 = 0``."""
    l0, l1, d0 = _affine(data)
    factor = data.draw(st.floats(1.0, 10.0, allow_subnormal=False), label="factor >= 1")
    g = _g(impl, l0, l1, d0)
    slack = caps.tolerance * g
    expect_le(g, _g(impl, l0, l1, d0 * factor) + slack, what="G(Δ0) <= G(kΔ0)")
    expect_le(g, _g(impl, l0 * factor, l1, d0) + slack, what="G(L0) <= G(kL0)")
    expect_le(g, _g(impl, l0, l1 * factor, d0) + slack, what="G(L1) <= G(kL1)")
    expect_close(_g(impl, l0, l1, 0.0), 0.0, atol=0.0, what="G at Δ0 = 0")


@check(
    "bounds_ridge_gradients", anchor=_PAPER_ANCHOR + " Lemma 3.4 (unconstrained f*): ||∇f||_* <= G"
)
def check_g_bounds_ridge_gradients(
    impl: EffectiveG, data: st.DataObject, caps: Capabilities
) -> None:
    """Lemma 3.4 with the unconstrained ``f*``: for ridge ``f`` and ``Δ0 = f(x) - f*``,
    ``||∇f(x)||_* <= G(l, Δ0)`` (quartic and cosh ridges, norms l1/l2/linf)."""
    n = data.draw(st.integers(1, MAX_DIM), label="dimension n")
    c = data.draw(float_arrays((n,), low=-1.0, high=1.0), label="ridge direction c")
    c[0] = 1.0
    kind = data.draw(st.sampled_from(["quartic", "cosh"]), label="ridge")
    offset = data.draw(st.floats(0.0, 1.0, exclude_max=True), label="cosh offset b")
    problem = md.quartic_ridge(c) if kind == "quartic" else md.cosh_ridge(c, offset)
    norms: tuple[md.NormName, ...] = ("l1", "l2", "linf")
    norm = data.draw(st.sampled_from(norms), label="norm")
    x = data.draw(float_arrays((n,), low=-3.0, high=3.0), label="x / scale") * data.draw(
        st.sampled_from([0.1, 1.0, 2.0]), label="scale"
    )
    l_fn = problem.smoothness(norm)
    # Δ0 = f(x) - f* in closed form: f(x) - 2 for cosh loses the digits of a small gap to
    # cancellation, and near the minimiser the lemma is tight (||∇f||_* / G -> 1)
    u = float(np.dot(c, x)) - (0.0 if kind == "quartic" else offset)
    gap = u**4 / 4.0 if kind == "quartic" else 4.0 * math.sinh(u / 2.0) ** 2
    g = _g(impl, l_fn.l0, l_fn.l1, gap)
    grad_norm = md.dual_norm(problem.grad(x), norm)
    expect_le(grad_norm, g * (1.0 + caps.tolerance) + 1e-12, what="||∇f(x)||_* against G")


# --------------------------------------------------------------------------------------------
# suite: composite


def _composite(
    impl: CompositeSolver,
    grad: Callable[[FloatArray], FloatArray],
    x0: FloatArray,
    eta: float,
    t: int,
    mirror: str,
    reg: mdc.Regularizer,
) -> FloatArray:
    out = to_numpy(
        impl(grad, x0.copy(), step_size=eta, max_iter=t, mirror=mirror, regularizer=reg),
        what="composite solver output",
    )
    expect(out.shape == x0.shape, what="shape of x_T", measured=out.shape, allowed=x0.shape)
    return out


def _quadratic(data: st.DataObject) -> tuple[FloatArray, FloatArray, FloatArray, float]:
    n = data.draw(st.integers(1, MAX_DIM), label="dimension n")
    a = data.draw(float_arrays((n, n), low=-3.0, high=3.0), label="A (Q = A Aᵀ / n + 0.1 I)")
    q = a @ a.T / n + 0.1 * np.eye(n)
    return (
        q,
        # ||b|| >= 1: callers build the ridge quartic_ridge(b + 0.1), which needs b + 0.1 != 0
        data.draw(nonzero_float_arrays(n), label="b"),
        data.draw(float_arrays((n,), low=-1.0, high=1.0), label="x0"),
        1.0 / float(np.linalg.eigvalsh(q)[-1]),
    )


@check("none_is_mirror_descent", anchor=_PAPER_ANCHOR + " algorithm 6 with h = 0 is algorithm 1")
def check_composite_none_is_md(
    impl: CompositeSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """``h = 0`` (kind ``none``, or ``l1`` with ``λ = 0``) gives mirror descent (Euclidean on a
    quadratic, entropic on the cosh ridge)."""
    reg = data.draw(
        st.sampled_from([mdc.Regularizer(), mdc.Regularizer(kind="l1", weight=0.0)]),
        label="h = 0",
    )
    t = data.draw(st.integers(1, 15), label="iterations T")
    if data.draw(st.booleans(), label="entropic"):
        problem, x0 = data.draw(cosh_instances(), label="cosh ridge on the simplex")
        eta = data.draw(st.floats(0.01, 0.5, allow_subnormal=False), label="step η")
        got = _composite(impl, problem.grad, x0, eta, t, "entropic", mdc.Regularizer())
        want = np.asarray(
            md.mirror_descent(problem.grad, x0, step_size=eta, max_iter=t, mirror="entropic").x
        )
    else:
        q, b, x0, eta = _quadratic(data)
        got = _composite(impl, lambda z: q @ z - b, x0, eta, t, "euclidean", reg)
        want = np.asarray(md.mirror_descent(lambda z: q @ z - b, x0, step_size=eta, max_iter=t).x)
    expect_le(
        _max_diff(got, want) / (1.0 + float(np.max(np.abs(want)))),
        caps.tolerance,
        what="|composite(h = 0) - MD| / scale",
    )


@check(anchor=_PAPER_ANCHOR + " algorithm 6, Euclidean D: proximal gradient (closed forms)")
def check_euclidean_proximal_gradient(
    impl: CompositeSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """Euclidean composite MD on ``½xᵀQx - bᵀx + h`` is proximal gradient: soft thresholding at
    ``ηλ`` (l1), ``v/(1 + ηλ)`` (l2sq), clipping (box), run ``T`` times (unique answer)."""
    q, b, x0, eta = _quadratic(data)
    kinds: tuple[mdc.RegularizerKind, ...] = ("l1", "l2sq", "box")
    kind = data.draw(st.sampled_from(kinds), label="regulariser")
    lam = data.draw(st.floats(0.01, 2.0, allow_subnormal=False), label="weight λ")
    reg = mdc.Regularizer(kind=kind, weight=lam, lower=-1.0, upper=1.0)
    t = data.draw(st.integers(1, 20), label="iterations T")
    x = x0.copy()
    for _ in range(t):
        v = x - eta * (q @ x - b)
        if kind == "l1":
            x = np.sign(v) * np.maximum(np.abs(v) - eta * lam, 0.0)
        elif kind == "l2sq":
            x = v / (1.0 + eta * lam)
        else:
            x = np.clip(v, -1.0, 1.0)
    got = _composite(impl, lambda z: q @ z - b, x0, eta, t, "euclidean", reg)
    expect_le(
        _max_diff(got, x) / (1.0 + float(np.max(np.abs(x)))),
        caps.tolerance,
        what=f"|composite({kind}) - proximal gradient| / scale",
    )


@check(anchor=_PAPER_ANCHOR + " algorithm 6, KL D, h = λ Σ x log x (closed form)")
def check_entropic_entropy_closed_form(
    impl: CompositeSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """Entropic composite MD with ``h = λ Σ x log x`` on the cosh ridge:
    ``x <- normalise(exp((log x - η ∇f(x)) / (1 + ηλ)))`` run ``T`` times."""
    problem, x0 = data.draw(cosh_instances(), label="cosh ridge on the simplex")
    eta = data.draw(st.floats(0.01, 0.5, allow_subnormal=False), label="step η")
    lam = data.draw(st.floats(0.01, 2.0, allow_subnormal=False), label="weight λ")
    t = data.draw(st.integers(1, 20), label="iterations T")
    x = x0.copy()
    for _ in range(t):
        logits = (np.log(x) - eta * problem.grad(x)) / (1.0 + eta * lam)
        w = np.exp(logits - logits.max())
        x = w / w.sum()
    reg = mdc.Regularizer(kind="entropy", weight=lam)
    got = _composite(impl, problem.grad, x0, eta, t, "entropic", reg)
    expect_le(_max_diff(got, x), caps.tolerance, what="|composite(entropy) - closed form|")


@check(anchor="a minimiser of F = f + h is a fixed point of the composite step")
def check_minimiser_is_fixed_point(
    impl: CompositeSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """A minimiser of ``F`` is a fixed point: ``x* = 0`` for ``(cᵀx)⁴/4 + λ||x||_1`` and
    ``x* = (Q + λI)⁻¹ b`` for ``½xᵀQx - bᵀx + (λ/2)||x||²``."""
    q, b, _, eta = _quadratic(data)
    lam = data.draw(st.floats(0.01, 2.0, allow_subnormal=False), label="weight λ")
    t = data.draw(st.integers(1, 10), label="iterations T")
    if data.draw(st.booleans(), label="quartic + l1"):
        ridge = md.quartic_ridge(b + 0.1)
        x_star: FloatArray = np.zeros(b.size)
        got = _composite(
            impl, ridge.grad, x_star, 0.5, t, "euclidean", mdc.Regularizer(kind="l1", weight=lam)
        )
    else:
        x_star = np.asarray(np.linalg.solve(q + lam * np.eye(b.size), b), dtype=np.float64)
        reg = mdc.Regularizer(kind="l2sq", weight=lam)
        got = _composite(impl, lambda z: q @ z - b, x_star, eta, t, "euclidean", reg)
    expect_le(
        _max_diff(got, x_star) / (1.0 + float(np.max(np.abs(x_star)))),
        caps.tolerance,
        what="|x_T - x*| / scale from x0 = x*",
    )


@check("stays_in_domain", anchor=_PAPER_ANCHOR + " section 5: iterates stay in X (simplex, box)")
def check_composite_in_domain(
    impl: CompositeSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """Entropic iterates stay on the simplex; box iterates stay in the box (large steps too)."""
    t = data.draw(st.integers(1, 15), label="iterations T")
    eta = data.draw(st.floats(0.01, 100.0, allow_subnormal=False), label="step η")
    if data.draw(st.booleans(), label="entropic"):
        problem, x0 = data.draw(cosh_instances(), label="cosh ridge on the simplex")
        lam = data.draw(st.floats(0.0, 2.0, allow_subnormal=False), label="weight λ")
        reg = mdc.Regularizer(kind="entropy", weight=lam)
        x_t = _composite(impl, problem.grad, x0, eta, t, "entropic", reg)
        _expect_simplex(x_t, x0.size, caps.tolerance, "x_T")
        return
    q, b, x0, _ = _quadratic(data)
    box = mdc.Regularizer(kind="box", lower=-1.0, upper=1.0)
    x_t = _composite(impl, lambda z: q @ z - b, x0, eta, t, "euclidean", box)
    expect_le(float(np.max(np.abs(x_t))) - 1.0, caps.tolerance, what="max |x_T| - 1 (box)")


@check(
    "sufficient_decrease",
    anchor=_PAPER_ANCHOR
    + " Theorem 5.1 / bound (v): F(x_{t+1}) <= F(x_t) - (eta/2)||G_t||², eta = 1/l(2G)",
)
def check_composite_descent(impl: CompositeSolver, data: st.DataObject, caps: Capabilities) -> None:
    """With ``η = 1/l(2G)`` (``Δ0 = F(x0) - inf f - inf h``):
    ``F(x_{T+1}) <= F(x_T) - (η/2) ||G(x_T)||²`` on the composite instances (quartic+l1,
    cosh+l2sq, nonconvex cos+l1, cosh+entropy on the simplex); ``G`` is the reference gradient
    mapping at ``x_T``."""
    n = data.draw(st.integers(2, MAX_DIM), label="dimension n")
    # composite_instances builds its four instances from a generator
    rng = np.random.default_rng(data.draw(seeds(), label="seed"))
    index = data.draw(st.integers(0, 3), label="instance")
    problem, x0 = composite_instances(rng, n)[index]
    t = data.draw(st.integers(0, 10), label="iterations T")
    eta = 1.0 / composite_constants(problem, x0).lipschitz
    x_t = x0 if t == 0 else _composite_run(impl, problem, x0, eta, t)
    x_next = _composite_run(impl, problem, x0, eta, t + 1)
    step = mdc.composite_prox_step(
        x_t, problem.grad(x_t), eta, regularizer=problem.regularizer, mirror=problem.mirror
    )
    diff = x_t - step
    mapping = (
        float(np.sum(np.abs(diff))) if problem.mirror == "entropic" else float(np.linalg.norm(diff))
    )
    mapping /= eta
    f_t, f_next = problem.objective(x_t), problem.objective(x_next)
    expect_le(
        f_next - f_t + 0.5 * eta * mapping**2,
        caps.tolerance * (1.0 + abs(f_t)),
        what=f"F(x_(T+1)) - F(x_T) + (η/2)||G(x_T)||² on {problem.name}",
    )


def _composite_run(
    impl: CompositeSolver, problem: CompositeProblem, x0: FloatArray, eta: float, t: int
) -> FloatArray:
    return _composite(impl, problem.grad, x0, eta, t, problem.mirror, problem.regularizer)


# --------------------------------------------------------------------------------------------
# suites


def _callable(name: str) -> Callable[[Any], Any]:
    def adapt(obj: Any) -> Any:
        if not callable(obj):
            raise TypeError(f"{name}: expected a callable, got {type(obj).__name__}")
        return obj

    return adapt


def _adapt_solver(obj: Any) -> MirrorSolver:
    if not callable(obj):
        raise TypeError(f"mirror_descent.solver: expected a callable, got {type(obj).__name__}")

    def solver(
        grad: Callable[[FloatArray], FloatArray],
        x0: FloatArray,
        /,
        *,
        step_size: float,
        max_iter: int,
        mirror: str,
    ) -> FloatArray:
        out = obj(grad, x0, step_size=step_size, max_iter=max_iter, mirror=mirror)
        value = getattr(out, "x", out)
        if value is None:
            raise CheckFailure("solver output", measured="None", allowed="x_T or a result with .x")
        return to_numpy(value, what="solver output")

    return solver


def _adapt_composite(obj: Any) -> CompositeSolver:
    if not callable(obj):
        raise TypeError(f"mirror_descent.composite: expected a callable, got {type(obj).__name__}")

    def solver(
        grad: Callable[[FloatArray], FloatArray],
        x0: FloatArray,
        /,
        *,
        step_size: float,
        max_iter: int,
        mirror: str,
        regularizer: mdc.Regularizer,
    ) -> FloatArray:
        out = obj(
            grad,
            x0,
            step_size=step_size,
            max_iter=max_iter,
            mirror=mirror,
            regularizer=regularizer,
        )
        value = getattr(out, "x", out)
        if value is None:
            raise CheckFailure("solver output", measured="None", allowed="x_T or a result with .x")
        return to_numpy(value, what="composite solver output")

    return solver


SIMPLEX_PROX: Suite[SimplexProx] = Suite(
    name="mirror_descent.simplex_prox",
    protocol=SimplexProx,
    checks=(
        check_prox_on_simplex,
        check_closed_form,
        check_shift_invariance,
        check_semigroup,
    ),
    adapt=_callable("mirror_descent.simplex_prox"),
    description="Entropic prox step (x, g, eta) -> u on the simplex: feasibility for |g| <= 1e3, "
    "closed form, invariance to g + c1, semigroup.",
)

SOLVER: Suite[MirrorSolver] = Suite(
    name="mirror_descent.solver",
    protocol=MirrorSolver,
    checks=(
        check_euclidean_is_gradient_descent,
        check_entropic_is_exponentiated_gradient,
        check_solver_on_simplex,
        check_constant_invariance,
        check_solver_descent,
        check_theorem_3_5_bound,
    ),
    adapt=_adapt_solver,
    description="Mirror descent (grad, x0, *, step_size, max_iter, mirror) -> x_T: Euclidean = "
    "GD, entropic = EG, simplex feasibility, invariance, descent and Theorem 3.5's bound.",
)

EFFECTIVE_CONSTANTS: Suite[EffectiveG] = Suite(
    name="mirror_descent.effective_constants",
    protocol=EffectiveG,
    checks=(
        check_g_solves_equation,
        check_g_monotone,
        check_g_bounds_ridge_gradients,
    ),
    adapt=_callable("mirror_descent.effective_constants"),
    description="G(L0, L1, Δ0) for affine l: solves a² = 2 l(2a) Δ0 as the largest root, "
    "monotone, bounds the ridge gradients (Lemma 3.4).",
)

COMPOSITE: Suite[CompositeSolver] = Suite(
    name="mirror_descent.composite",
    protocol=CompositeSolver,
    checks=(
        check_composite_none_is_md,
        check_euclidean_proximal_gradient,
        check_entropic_entropy_closed_form,
        check_minimiser_is_fixed_point,
        check_composite_in_domain,
        check_composite_descent,
    ),
    adapt=_adapt_composite,
    description="Composite mirror descent (grad, x0, *, step_size, max_iter, mirror, regularizer) "
    "-> x_T for F = f + h: h = 0 is MD, proximal-gradient and entropic closed forms, fixed "
    "points, domain, sufficient decrease (Theorem 5.1).",
)

SUITES = (SIMPLEX_PROX, SOLVER, EFFECTIVE_CONSTANTS, COMPOSITE)
