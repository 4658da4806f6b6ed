"""Conformance suites of the optimizer family (specs 02, 14; optax-style contract tests).

Suites (run any of them with ``run_suite(impl, "<name>")``):

* ``optimizers.first_order`` — any optax-style ``(init, update)`` pair (or a zero-argument
  factory of one): descent on convex quadratics, purity/determinism, structure and dtype.
* ``optimizers.lion`` — Lion factories ``impl(learning_rate=, weight_decay=)``: sign steps,
  the l_inf ball of radius ``1/lambda``, the SFW trajectory (spec 14 E1), scale invariance.
* ``optimizers.muon`` — Muon factories ``impl(learning_rate=, weight_decay=, momentum=)``: the
  spectral ball, the NS band of the first step, orthogonal equivariance, scale invariance, and
  the declared variant's recursion (momentum, orthogonalisation, scale) step by step.
* ``optimizers.fw_gap`` — ``fw_gap(grad, x, radius, which)``: non-negativity, zero at KKT
  points, brute-force oracle.
* ``optimizers.newton_schulz`` — ``ns(G)``: the spectral identity, the band, symmetries.
* ``optimizers.polar`` — ``polar(G)``: partial isometry, nuclear pairing, scipy, rank.
* ``optimizers.lgi`` — ``lgi(f, theta, base, *, k, sigma, rng)``: spec 02 P1, P2, P4, P5, P9 and
  Algorithm A recomputed from the recorded probes (declared normalisation and ``ddof``).
* ``optimizers.s_adam`` — S-Adam factories: P7 (reduction to Adam) and P8 (pure rescaling).
* ``optimizers.adam`` — Adam/AdamW factories in a declared eps/decay variant.
* ``optimizers.sam`` — full SAM steps ``impl(rho=, learning_rate=, momentum=, weight_decay=)``
  around SGD: the radius, the closed form on quadratics, ``rho = 0``, loss scale and
  rotations, weights restored before the base step, zero gradients (or a torch wrapper).

Tolerances are ``caps.tolerance`` times the instance scale unless a check says otherwise.
The Lion, Muon and S-Adam checks compare quantities that are equal in exact arithmetic; each
states a rounding-error model ``c * u * scale`` (``u`` the unit roundoff of the declared
``Capabilities.precision``: 2^-53, 2^-24 or 2^-8) and allows
``_model(caps, c, scale)``: the model, or a declared ``--tolerance`` if larger.  The
constants ``c`` reproduce the former float64 bounds (``9e3 u`` is 1e-12, ``9e6 u`` is 1e-9).
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import math
from collections.abc import Callable
from typing import Any, Protocol, cast

import numpy as np
import scipy.linalg
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from properties._runner import (
    Capabilities,
    CheckFailure,
    Suite,
    expect,
    expect_close,
    expect_le,
    expect_raises,
)
from properties._suite import PRECISIONS, PrecisionTooCoarse, check
from properties.adapters import (
    adapt_output,
    as_torch_optimizer,
    as_torch_sam,
    dtype_hint,
    host_array,
    is_torch_optimizer,
    keyword_filter,
    to_numpy,
)
from properties.strategies import float_arrays, orthogonal_matrices, seeds, sign_arrays
from reference import optimizers as ref
from reference._arrays import FloatArray

__all__ = [
    "ADAM",
    "ADAM_VARIANTS",
    "C_NS5_STEP",
    "LGI_VARIANTS",
    "MUON_VARIANTS",
    "NS_BAND",
    "NS_BAND_MIN_RATIO",
    "SAM",
    "SAM_NORM_EPS",
    "SUITES",
    "FirstOrderStep",
    "FwGapFn",
    "LgiFn",
    "MatrixFn",
    "OptimizerFactory",
    "SamFactory",
    "as_first_order",
    "muon_recursion_errors",
    "ns_bound",
]

#: Band of NS5's output singular values for inputs whose normalised singular values
#: ``sigma_i / ||G||_F`` are ``>= NS_BAND_MIN_RATIO`` (derived numerically from
#: ``phi^(5)`` with the spec-14 coefficients on [0.01, 1]: min 0.68183, max 1.13436).
NS_BAND = (0.6818, 1.1344)
NS_BAND_MIN_RATIO = 0.01
#: ``c`` with ``c u = 1e-12`` in float64: a few dozen roundings of O(1) numbers, with margin.
C_EXACT = 9.0e3
#: ``c`` with ``c u = 1e-9`` in float64: an SVD or an NS5 call (iterative, O(k) per entry).
C_SVD = 9.0e6
#: NS5 forward error per entry of its (normalised, O(1)) output is taken as ``C_NS5 k u``
#: (``k`` terms per inner product; 5 iterations with ``|a| + |b| + |c| = 10.25``, the band map
#: contracting earlier errors).  A stated, empirical constant, not a proof: torch's bfloat16
#: Muon measures below ``2 u`` (0.0073 on the band).
C_NS5 = 16.0
#: float64 bookkeeping done by the checks and the parameter update itself (``u = 2^-53``).
U64 = 2.0**-53


def _model(caps: Capabilities, c: float, scale: float = 1.0) -> float:
    """``caps.rounding_bound(c, scale)``, a bound judged relative to ``scale``.

    Raises:
        PrecisionTooCoarse: ``c·u >= 1`` and no tolerance declared (``C_EXACT`` and ``C_SVD``
            in bfloat16, ``C_SVD`` in float32): the bound reaches the scale of the quantity it
            judges, nothing could fail it, so the check is skipped and the report names why.
            With a declared tolerance the bound is that tolerance alone (the user's promise).
    """
    if c * caps.unit_roundoff >= 1.0:
        if caps.tolerance_declared:
            return caps.tolerance * scale
        raise PrecisionTooCoarse(f"a {c:g}·u model", caps.precision, c * caps.unit_roundoff, 1.0)
    return caps.rounding_bound(c, scale)


# --------------------------------------------------------------------------------- protocols
class FirstOrderStep(Protocol):
    """Adapted optimizer: ``init(params)`` and ``step(grads, state, params, loss, rng)``."""

    def init(self, params: Any, /) -> Any:
        """Initial state."""
        ...

    def step(
        self,
        grads: Any,
        state: Any,
        params: Any,
        loss: Callable[[Any], float],
        rng: np.random.Generator,
        /,
    ) -> tuple[Any, Any]:
        """``(updates, new_state)``."""
        ...


class OptimizerFactory(Protocol):
    """A factory of optax-style pairs taking keyword hyper-parameters.

    Call shape: ``factory(**hyper)`` (the suite's hyper-parameter names, e.g. ``lr``,
    ``b1``) returns an object with ``init(params) -> state`` and ``update(grads, state,
    params) -> (updates, new_state)`` (keywords ``loss``, ``rng`` passed when its signature
    names them); the new parameters are ``params +
    updates`` (the loss is minimised).  ``params`` and ``grads`` are a float64 ``numpy``
    array or a tuple of them (blocks), no batch axis; ``updates`` has the same structure,
    shapes and dtype.  A ``torch.optim.Optimizer`` class or factory ``(params, **hyper)`` is
    accepted as well (see :func:`properties.adapters.as_torch_optimizer`).
    """

    def __call__(self, **kwargs: Any) -> Any:
        """Return an object with ``init`` and ``update``."""
        ...


class FwGapFn(Protocol):
    """``fw_gap(grad, x, radius, which) -> float``."""

    def __call__(self, grad: FloatArray, x: FloatArray, radius: float, which: str, /) -> float:
        """The Frank-Wolfe gap."""
        ...


class MatrixFn(Protocol):
    """``fn(G (m, n)) -> (m, n)`` (Newton-Schulz or polar factor)."""

    def __call__(self, matrix: FloatArray, /) -> FloatArray:
        """The transformed matrix."""
        ...


class LgiFn(Protocol):
    """``lgi(f, theta, base, *, k, sigma, rng) -> float``."""

    def __call__(
        self,
        f: Callable[[Any], float],
        theta: Any,
        base: float,
        /,
        *,
        k: int,
        sigma: float,
        rng: np.random.Generator,
    ) -> float:
        """The LGI score."""
        ...


# ---------------------------------------------------------------------------------- adapters
class _Adapted:
    """Wraps a pair so checks call ``step(grads, state, params, loss, rng)`` uniformly."""

    def __init__(self, pair: Any) -> None:
        self.pair = pair
        params = inspect.signature(pair.update).parameters
        self.wants_loss = "loss" in params
        self.wants_rng = "rng" in params

    def init(self, params: Any) -> Any:
        return self.pair.init(params)

    def step(
        self,
        grads: Any,
        state: Any,
        params: Any,
        loss: Callable[[Any], float],
        rng: np.random.Generator,
    ) -> tuple[Any, Any]:
        kwargs: dict[str, Any] = {}
        if self.wants_loss:
            kwargs["loss"] = loss
        if self.wants_rng:
            kwargs["rng"] = rng
        out = self.pair.update(grads, state, params, **kwargs)
        if not (isinstance(out, tuple) and len(out) == 2):
            raise CheckFailure(
                "update output", measured=type(out).__name__, allowed="a pair (updates, state)"
            )
        return out[0], out[1]


def as_first_order(obj: object) -> FirstOrderStep:
    """Adapt an ``(init, update)`` pair, or a zero-argument factory of one, to :class:`FirstOrderStep`.

    A ``torch.optim.Optimizer`` class or factory ``(params, **hyper)`` is accepted too, with its
    default hyper-parameters (see :func:`properties.adapters.as_torch_optimizer`).

    Raises:
        TypeError: ``obj`` is neither.
    """
    pair: Any = obj
    if is_torch_optimizer(obj):  # torch.optim class or factory (params, **hyper): defaults
        pair = as_torch_optimizer(cast(Callable[..., Any], obj))()
    elif not (hasattr(pair, "init") and hasattr(pair, "update")) and callable(obj):
        pair = obj()
    if not (hasattr(pair, "init") and hasattr(pair, "update")):
        raise TypeError(
            "optimizers.first_order: expected an (init, update) pair or a zero-argument factory "
            f"of one, got {type(obj).__name__}"
        )
    return _Adapted(pair)


def _factory(obj: object) -> Callable[..., _Adapted]:
    if is_torch_optimizer(obj):  # a torch.optim.Optimizer class or factory (params, **hyper)
        obj = as_torch_optimizer(cast(Callable[..., Any], obj))
    if not callable(obj):
        raise TypeError(f"expected a factory of (init, update) pairs, got {type(obj).__name__}")
    if not getattr(obj, "verifiedref_torch_adapter", False):
        # only the keywords the factory takes; a check needing another is skipped (requires NAME)
        obj = keyword_filter(obj)

    return adapt_output(obj, _Adapted)


def _callable(obj: object) -> Any:
    if not callable(obj):
        raise TypeError(f"expected a callable, got {type(obj).__name__}")
    return obj


def _blocks_of(value: Any, like: tuple[FloatArray, ...], what: str) -> tuple[FloatArray, ...]:
    items = value if isinstance(value, tuple | list) else (value,)
    expect(
        len(items) == len(like),
        what=f"number of blocks of {what}",
        measured=len(items),
        allowed=len(like),
    )
    out = tuple(to_numpy(v, what=what) for v in items)
    for i, (b, r) in enumerate(zip(out, like, strict=True)):
        expect(b.shape == r.shape, what=f"shape of {what}[{i}]", measured=b.shape, allowed=r.shape)
        expect(
            bool(np.all(np.isfinite(b))),
            what=f"{what}[{i}] is finite",
            measured=b.tolist(),
            allowed="finite",
        )
    return out


def _rng_from(data: st.DataObject, label: str = "seed") -> np.random.Generator:
    return np.random.default_rng(data.draw(seeds(), label=label))


#: Gradient entries: 0 or ``0.01 <= |g| <= 3`` (no tiny nonzero gradients: an optimizer's
#: norm guard ``eps`` would make exact invariances approximate there).
_GRAD_ENTRIES = st.one_of(
    st.just(0.0),
    st.floats(0.01, 3.0, allow_subnormal=False),
    st.floats(-3.0, -0.01, allow_subnormal=False),
)


def _grad_arrays(shape: tuple[int, ...]) -> st.SearchStrategy[FloatArray]:
    return hnp.arrays(np.float64, shape, elements=_GRAD_ENTRIES)


# -------------------------------------------------------------------------- first-order suite
def _quadratic(
    data: st.DataObject, shape: tuple[int, ...]
) -> tuple[Callable[[FloatArray], float], Callable[[FloatArray], FloatArray], FloatArray]:
    q = data.draw(float_arrays(shape, low=0.5, high=2.0), label="curvatures q")
    w = data.draw(float_arrays(shape, low=-0.5, high=0.5), label="rank-one direction w")
    centre = data.draw(float_arrays(shape, low=-0.5, high=0.5), label="centre")

    def f(x: FloatArray) -> float:
        d = x - centre
        return float(0.5 * np.sum(q * d * d) + 0.5 * np.sum(w * d) ** 2)

    def grad(x: FloatArray) -> FloatArray:
        d = x - centre
        out: FloatArray = q * d + np.sum(w * d) * w
        return out

    return f, grad, centre


@check(anchor="optax contract tests: convergence on a parabola")
def check_descent_on_quadratic(
    impl: FirstOrderStep, data: st.DataObject, caps: Capabilities
) -> None:
    """30 steps with exact gradients on a convex quadratic (2-D parameters) lower the loss."""
    m = data.draw(st.integers(1, 4), label="rows")
    n = data.draw(st.integers(1, 4), label="columns")
    f, grad, centre = _quadratic(data, (m, n))
    signs = data.draw(sign_arrays((m, n)), label="signs of x0 - centre")
    x = centre + signs * data.draw(float_arrays((m, n), low=0.5, high=2.0), label="|x0 - centre|")
    # the rng argument of update (stochastic optimizers draw from it): a generator is needed
    rng = _rng_from(data, "seed of the rng passed to update")
    start = f(x)
    state = impl.init(x.copy())
    for t in range(30):
        updates, state = impl.step(grad(x), state, x.copy(), f, rng)
        (u,) = _blocks_of(updates, (x,), f"updates at step {t}")
        x = x + u
    end = f(x)
    expect(
        end < start,
        what="loss after 30 steps on a convex quadratic",
        measured=f"{end!r} (start {start!r})",
        allowed=f"< {start!r}",
    )


@check(anchor="optax-style contract: init and update are pure functions")
def check_pure_and_deterministic(
    impl: FirstOrderStep, data: st.DataObject, caps: Capabilities
) -> None:
    """``update`` never modifies its arguments and is a function of them (optax contract)."""
    f, grad, centre = _quadratic(data, (3, 2))
    x = centre + data.draw(float_arrays((3, 2), low=-2.0, high=2.0), label="x0 - centre")
    state = impl.init(x.copy())
    for _ in range(2):  # leave the initial state
        updates, state = impl.step(grad(x), state, x.copy(), f, np.random.default_rng(1))
        x = x + to_numpy(updates, what="updates")
    g = grad(x)
    g_copy, x_copy = g.copy(), x.copy()
    u1, _ = impl.step(g, state, x, f, np.random.default_rng(7))
    expect(
        bool(np.array_equal(g, g_copy) and np.array_equal(x, x_copy)),
        what="grads and params after update",
        measured="modified in place",
        allowed="unchanged",
    )
    u2, _ = impl.step(g_copy.copy(), state, x_copy.copy(), f, np.random.default_rng(7))
    a1, a2 = to_numpy(u1, what="updates"), to_numpy(u2, what="updates")
    expect(
        bool(np.array_equal(a1, a2)),
        what="updates of two identical calls (same state, grads, params, rng)",
        measured=f"max difference {float(np.max(np.abs(a1 - a2)))!r}",
        allowed="identical",
    )


@check(anchor="optax contract tests: structure and dtype preserved")
def check_structure_and_dtype(
    impl: FirstOrderStep, data: st.DataObject, caps: Capabilities
) -> None:
    """Block structure, shapes and float64 dtype are preserved; a single array stays an array.

    Results are read through the array protocols (torch tensors, ``__array__`` such as JAX,
    ``__dlpack__``) and their dtype judged after conversion; with a declared ``precision``
    (float32, bfloat16) that dtype is allowed too.
    """
    shapes = [
        (
            data.draw(st.integers(1, 4), label=f"rows {i}"),
            data.draw(st.integers(1, 4), label=f"cols {i}"),
        )
        for i in range(2)
    ]
    params = tuple(
        data.draw(float_arrays(s, low=-3.0, high=3.0), label=f"params {i}")
        for i, s in enumerate(shapes)
    )
    grads = tuple(data.draw(_grad_arrays(s), label=f"grads {i}") for i, s in enumerate(shapes))
    rng = _rng_from(data, "seed of the rng passed to update")

    def loss(p: Any) -> float:
        return float(sum(0.5 * np.sum(np.asarray(b) ** 2) for b in p))

    state = impl.init(params)
    updates, _ = impl.step(grads, state, params, loss, rng)
    expect(
        isinstance(updates, tuple | list) and len(updates) == 2,
        what="updates for a tuple of 2 blocks",
        measured=type(updates).__name__,
        allowed="a tuple of 2 arrays",
    )
    allowed = _allowed_dtypes(caps)
    for i, (u, s) in enumerate(zip(updates, shapes, strict=True)):
        a = host_array(u, what=f"updates[{i}]")  # ndarray, torch, __array__, __dlpack__
        expect(
            a.dtype.name in allowed and a.shape == s,
            what=f"updates[{i}]",
            measured=f"{type(u).__name__} read as {a.dtype} {a.shape}",
            allowed=f"{' or '.join(allowed)} of shape {s}",
            detail=dtype_hint(a.dtype) if a.dtype.name not in allowed else "",
        )
    single, _ = impl.step(grads[0], impl.init(params[0]), params[0], lambda p: loss((p,)), rng)
    expect(
        not isinstance(single, tuple | list),
        what="updates for a single array",
        measured=type(single).__name__,
        allowed="one array (not a sequence of blocks)",
    )
    b = host_array(single, what="updates for a single array")
    expect(
        b.dtype.name in allowed and b.shape == shapes[0],
        what="updates for a single array",
        measured=f"{type(single).__name__} read as {b.dtype} {b.shape}",
        allowed=f"{' or '.join(allowed)} of shape {shapes[0]}",
        detail=dtype_hint(b.dtype) if b.dtype.name not in allowed else "",
    )


def _allowed_dtypes(caps: Capabilities) -> tuple[str, ...]:
    """float64, and the declared working precision's dtype when it is lower."""
    return ("float64",) if caps.precision == "float64" else ("float64", caps.precision)


@check(
    anchor="input contract: invalid input raises ValueError or TypeError",
    requires=frozenset({"raises_on_invalid"}),
)
def check_rejects_non_finite_grads(
    impl: FirstOrderStep, data: st.DataObject, caps: Capabilities
) -> None:
    """NaN/inf gradients and mismatched gradient shapes raise ValueError/TypeError."""
    x = data.draw(float_arrays((2, 3), low=-3.0, high=3.0), label="params")
    kind = data.draw(st.sampled_from(["nan", "inf", "shape"]), label="corruption")
    g = data.draw(_grad_arrays((2, 3)), label="grads")
    if kind == "shape":
        g = g[:, :2]
    else:
        i = data.draw(st.integers(0, 1), label="row of the bad entry")
        j = data.draw(st.integers(0, 2), label="column of the bad entry")
        g[i, j] = np.nan if kind == "nan" else np.inf
    rng = _rng_from(data, "seed of the rng passed to update")

    def loss(p: Any) -> float:
        return float(np.sum(np.asarray(p) ** 2))

    state = impl.init(x.copy())
    expect_raises(
        lambda: impl.step(g, state, x, loss, rng),
        (ValueError, TypeError),
        what=f"update with {kind} grads",
    )


TORCH_OPTIMIZER_NOTE = (
    "torch: a torch.optim.Optimizer class or factory (params, **hyper) is accepted; suite names "
    "map to torch keywords by properties.adapters.TORCH_HYPER_NAMES; --hyper NAME=VALUE fixes a "
    "torch keyword"
)
TORCH_SAM_NOTE = (
    "torch: a SAM wrapper class in the davda54/sam style is accepted (e.g. pytorch_optimizer:SAM): "
    "make(params, torch.optim.SGD, rho=, lr=, momentum=, weight_decay=), first_step/second_step or "
    "step(closure), the adapter computing the first gradient (properties.adapters.as_torch_sam); "
    "--hyper NAME=VALUE fixes a wrapper keyword (e.g. adaptive=False)"
)


FIRST_ORDER: Suite[FirstOrderStep] = Suite(
    name="optimizers.first_order",
    protocol=FirstOrderStep,
    checks=(
        check_descent_on_quadratic,
        check_pure_and_deterministic,
        check_structure_and_dtype,
        check_rejects_non_finite_grads,
    ),
    adapt=as_first_order,
    description="Any optax-style (init, update) pair: descent on convex quadratics, purity and "
    "determinism, block structure and float64 dtype, rejection of non-finite gradients.",
    record_calls=False,
    trace_calls=True,
    foreign=as_torch_optimizer,
    notes=(TORCH_OPTIMIZER_NOTE,),
)


# -------------------------------------------------------------------------------- Lion suite
def _run(opt: _Adapted, x0: FloatArray, grads: list[FloatArray]) -> list[FloatArray]:
    x = x0.copy()
    state = opt.init(x.copy())
    out = [x.copy()]
    for t, g in enumerate(grads):
        updates, state = opt.step(g, state, x.copy(), lambda p: 0.0, np.random.default_rng(t))
        (u,) = _blocks_of(updates, (x,), f"updates at step {t}")
        x = x + u
        out.append(x.copy())
    return out


def _grad_stream(data: st.DataObject, shape: tuple[int, ...], steps: int) -> list[FloatArray]:
    """``steps`` gradients ``drift + scale * noise_t`` (a common drift, so momentum matters)."""
    drift = data.draw(_grad_arrays(shape), label="gradient drift")
    noise = data.draw(_grad_arrays((steps, *shape)), label="gradient noise")
    scale = data.draw(st.floats(0.1, 2.0, allow_subnormal=False), label="noise scale")
    return [drift + scale * noise[t] for t in range(steps)]


@check("sign_steps", anchor="Sfyraki & Wang (ICML 2026): Lion update")
def check_lion_sign_steps(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """Every coordinate of ``x_{t+1} - (1 - eta lambda) x_t`` lies in ``{-eta, 0, +eta}``."""
    eta = data.draw(st.sampled_from([1e-3, 0.01, 0.1]), label="learning_rate")
    lam = data.draw(st.sampled_from([0.0, 0.1, 1.0]), label="weight_decay")
    d = data.draw(st.integers(1, 6), label="d")
    grads = _grad_stream(data, (d,), 8)
    grads[3][0] = 0.0  # exercise sign(0) only through the momentum mix
    x0 = data.draw(float_arrays((d,), low=-3.0, high=3.0), label="x0")
    xs = _run(impl(learning_rate=eta, weight_decay=lam), x0, grads)
    worst = 0.0
    for a, b in itertools.pairwise(xs):
        step = b - (1.0 - eta * lam) * a
        nearest = np.clip(np.round(step / eta), -1.0, 1.0) * eta
        worst = max(worst, float(np.max(np.abs(step - nearest))))
    expect_le(
        worst,
        _model(caps, C_SVD, eta) + _model(caps, C_EXACT),
        what="distance of a Lion step to {-eta, 0, eta} (C_SVD u eta + C_EXACT u)",
    )


@check("stays_in_ball", anchor="Sfyraki & Wang (ICML 2026): feasibility of SFW iterates")
def check_lion_stays_in_ball(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """From inside ``{||x||_inf <= 1/lambda}`` with ``eta lambda <= 1`` Lion never leaves it."""
    lam = data.draw(st.sampled_from([0.5, 1.0, 4.0]), label="weight_decay")
    eta = data.draw(st.sampled_from([0.05, 0.2, 0.25]), label="learning_rate") / lam
    d = data.draw(st.integers(1, 6), label="d")
    r = 1.0 / lam
    x0 = data.draw(float_arrays((d,), low=-r, high=r), label="x0")
    push = -data.draw(sign_arrays((d,)), label="outward signs")  # gradients pushing outwards
    noise = data.draw(float_arrays((40, d), low=-1.0, high=1.0), label="gradient noise")
    grads = [push + 0.3 * noise[t] for t in range(40)]
    xs = _run(impl(learning_rate=eta, weight_decay=lam), x0, grads)
    worst = max(float(np.max(np.abs(x))) for x in xs)
    expect_le(
        worst,
        r + _model(caps, C_EXACT, r),
        what="max ||x_t||_inf along the run (radius 1/lambda, + C_EXACT u r)",
    )


@check("matches_sfw", anchor="Sfyraki & Wang (ICML 2026) E1")
def check_lion_matches_sfw(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """Spec 14 E1: the Lion trajectory equals SFW on the l_inf ball (gamma = eta lambda)."""
    lam = data.draw(st.sampled_from([0.1, 1.0, 3.0]), label="weight_decay")
    eta = data.draw(st.sampled_from([0.01, 0.1, 0.3]), label="learning_rate")
    d = data.draw(st.integers(1, 6), label="d")
    grads = _grad_stream(data, (d,), 12)
    x0 = data.draw(float_arrays((d,), low=-3.0, high=3.0), label="x0")
    lion_xs = _run(impl(learning_rate=eta, weight_decay=lam), x0, grads)
    fw = _Adapted(ref.sfw(which="linf", radius=1.0 / lam, step_size=eta * lam, b1=0.9, b2=0.99))
    sfw_xs = _run(fw, x0, grads)
    diff = max(float(np.max(np.abs(a - b))) for a, b in zip(lion_xs, sfw_xs, strict=True))
    expect_le(
        diff,
        _model(caps, C_SVD / 10.0),
        what="max |x_t(Lion) - x_t(SFW)| (betas 0.9, 0.99; C_SVD u / 10)",
    )


@check("scale_invariance", anchor="Sfyraki & Wang (ICML 2026): scale invariance")
def check_lion_scale_invariance(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """Multiplying every gradient by a power of two leaves the iterates unchanged."""
    c = 2.0 ** data.draw(st.integers(-20, 20), label="log2 scale")
    d = data.draw(st.integers(1, 6), label="d")
    grads = _grad_stream(data, (d,), 10)
    x0 = data.draw(float_arrays((d,), low=-3.0, high=3.0), label="x0")
    make = impl(learning_rate=0.01, weight_decay=0.1)
    a = _run(make, x0, grads)
    b = _run(impl(learning_rate=0.01, weight_decay=0.1), x0, [c * g for g in grads])
    diff = max(float(np.max(np.abs(p - q))) for p, q in zip(a, b, strict=True))
    expect_le(
        diff,
        _model(caps, C_EXACT),
        what=f"iterate difference after scaling gradients by {c!r} (C_EXACT u)",
    )


LION: Suite[Callable[..., _Adapted]] = Suite(
    name="optimizers.lion",
    protocol=OptimizerFactory,
    checks=(
        check_lion_sign_steps,
        check_lion_stays_in_ball,
        check_lion_matches_sfw,
        check_lion_scale_invariance,
    ),
    adapt=_factory,
    description="Lion factories impl(learning_rate=, weight_decay=) -> (init, update): sign steps, "
    "the l_inf ball of radius 1/lambda, equality with SFW (E1), gradient-scale invariance.",
    record_calls=False,
    trace_calls=True,
    foreign=as_torch_optimizer,
    notes=(TORCH_OPTIMIZER_NOTE,),
)


# -------------------------------------------------------------------------------- Muon suite
def _matrix(draw: Callable[..., Any], m: int, n: int, cond: float = 20.0) -> FloatArray:
    """``U diag(s) V^T`` with ``U, V`` orthogonal and singular values in ``[1, cond]``
    (``draw`` is a composite's ``draw`` or ``data.draw``)."""
    u = draw(orthogonal_matrices(m), label="left factor U")
    v = draw(orthogonal_matrices(n), label="right factor V")
    k = min(m, n)
    logs = draw(float_arrays((k,), low=0.0, high=math.log(cond)), label="log singular values")
    out: FloatArray = (u[:, :k] * np.exp(logs)) @ v[:, :k].T
    return out


@check("stays_in_ball", anchor="Sfyraki & Wang (ICML 2026) E2-E3: spectral ball of radius s/lambda")
def check_muon_stays_in_ball(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """From inside ``||W||_2 <= s/lambda`` the iterates stay within ``NS_BAND[1] s/lambda``."""
    m = data.draw(st.integers(1, 5), label="rows")
    n = data.draw(st.integers(1, 5), label="columns")
    lam = data.draw(st.sampled_from([0.5, 2.0]), label="weight_decay")
    eta = data.draw(st.sampled_from([0.1, 0.4]), label="learning_rate") / lam
    s = math.sqrt(max(1.0, m / n))
    w0 = _matrix(data.draw, m, n)
    radius = data.draw(st.floats(0.1, 1.0), label="||W0||_2 lambda / s")
    w0 *= radius * (s / lam) / float(np.linalg.norm(w0, 2))
    direction = -w0 / float(np.linalg.norm(w0, 2))  # pushes outwards
    noise = data.draw(float_arrays((25, m, n), low=-2.0, high=2.0), label="gradient noise")
    grads = [direction + 0.1 * noise[t] for t in range(25)]
    ws = _run(impl(learning_rate=eta, weight_decay=lam), w0, grads)
    worst = max(float(np.linalg.norm(w, 2)) for w in ws)
    expect_le(
        worst,
        # a step's NS5 error (C_NS5 k u, times eta s) decays by (1 - eta lambda) per step:
        # at most C_NS5 k u s / lambda in all; float64 bookkeeping 64 T u64 on top
        NS_BAND[1] * s / lam
        + _model(caps, C_NS5 * max(m, n), s / lam)
        + 64.0 * len(grads) * U64 * s / lam,
        what="max ||W_t||_2 (band * s/lambda + C_NS5 k u s/lambda + 64 T u64 s/lambda)",
    )


@check("first_step_band", anchor="Sfyraki & Wang (ICML 2026) step 3: NS5 band")
def check_muon_first_step_band(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """The first step is ``-eta s NS5(G)``: its singular values lie in ``eta s NS_BAND``."""
    m = data.draw(st.integers(1, 5), label="rows")
    n = data.draw(st.integers(1, 5), label="columns")
    g = _matrix(data.draw, m, n, cond=5.0)
    s = math.sqrt(max(1.0, m / n))
    eta = 0.1
    w_start = data.draw(float_arrays((m, n), low=-3.0, high=3.0), label="W0")
    ws = _run(impl(learning_rate=eta, weight_decay=0.0), w_start, [g])
    w0 = ws[0]
    sv = np.linalg.svd((ws[1] - w0) / (eta * s), compute_uv=False)
    low, high = float(sv.min()), float(sv.max())
    # NS5 at the declared precision, plus float64 cancellation in (W_1 - W_0) / (eta s)
    cancel = 1.0 + float(np.max(np.abs(w0))) / (eta * s)
    slack = _model(caps, C_NS5 * max(m, n)) + 64.0 * U64 * cancel
    expect(
        NS_BAND[0] - slack <= low and high <= NS_BAND[1] + slack,
        what="singular values of -(W_1 - W_0) / (eta s)",
        measured=f"[{low!r}, {high!r}]",
        allowed=f"within {NS_BAND} ± {slack!r} (C_NS5 k u + 64 u64 (1 + |W_0|/(eta s)))",
    )


@check("orthogonal_equivariance", anchor="NS5 / polar factor commute with rotations")
def check_muon_orthogonal_equivariance(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """Running on ``P W Q`` with gradients ``P G Q`` (``P, Q`` orthogonal) gives ``P W_t Q``.

    Error model (exact arithmetic gives 0): each of the ``T`` steps moves ``W`` by
    ``lr s NS5(.)`` whose entries carry at most ``C_NS5 k u`` error at the declared precision
    (``k = max(m, n)``), so ``_model(caps, C_NS5 k, T lr s)``; the float64 products
    ``P W Q``, ``P G Q`` add ``64 k T u64 (1 + max |W_t|)``.  About 7e-13 in float64 here; the
    former absolute 1e-9 is gone (a float64 Newton-Schulz measured 1.1e-9 against it).
    """
    m = data.draw(st.integers(1, 4), label="rows")
    n = data.draw(st.integers(1, 4), label="columns")
    p = data.draw(orthogonal_matrices(m), label="P")
    q = data.draw(orthogonal_matrices(n), label="Q")
    grads = _grad_stream(data, (m, n), 6)
    w0 = data.draw(float_arrays((m, n), low=-3.0, high=3.0), label="W0")
    a = _run(impl(learning_rate=0.05, weight_decay=0.1), w0, grads)
    b = _run(impl(learning_rate=0.05, weight_decay=0.1), p @ w0 @ q, [p @ g @ q for g in grads])
    diff = max(float(np.max(np.abs(p @ x @ q - y))) for x, y in zip(a, b, strict=True))
    size = 1.0 + max(float(np.max(np.abs(x))) for x in a)
    k, steps, move = max(m, n), len(grads), 0.05 * math.sqrt(max(1.0, m / n))
    expect_le(
        diff,
        _model(caps, C_NS5 * k, steps * move) + 64.0 * k * steps * U64 * size,
        what="max |P W_t Q - W_t(rotated run)| (C_NS5 k u T lr s + 64 k T u64 (1 + max |W_t|))",
    )


@check("scale_invariance", anchor="Sfyraki & Wang (ICML 2026): scale invariance")
def check_muon_scale_invariance(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """Scaling every gradient by ``c in [1, 1e2]`` changes the iterates by < 1e-4 (NS guard)."""
    m = data.draw(st.integers(1, 4), label="rows")
    n = data.draw(st.integers(1, 4), label="columns")
    c = 10.0 ** data.draw(st.floats(0.0, 2.0), label="log10 scale")
    grads = _grad_stream(data, (m, n), 6)
    w0 = data.draw(float_arrays((m, n), low=-3.0, high=3.0), label="W0")
    a = _run(impl(learning_rate=0.05, weight_decay=0.0), w0, grads)
    b = _run(impl(learning_rate=0.05, weight_decay=0.0), w0, [c * g for g in grads])
    diff = max(float(np.max(np.abs(x - y))) for x, y in zip(a, b, strict=True))
    move = 0.05 * math.sqrt(max(1.0, m / n)) * len(grads)
    expect_le(
        diff,
        max(1e-4, 2.0 * _model(caps, C_NS5 * max(m, n), move)),
        what=f"iterate difference after scaling gradients by {c!r} "
        "(1e-4 for the NS guard, or the NS5 rounding model if larger)",
    )


#: ``optimizers.muon`` variants, named ``<momentum>[<combination>][<scale>]`` (per step, ``m x n``
#: block, ``B_0 = 0``, decoupled decay ``W <- (1 - eta lambda) W - eta s O``):
#:
#: * momentum ``nesterov``: ``U = (1 - mu) G + mu B``; ``heavy_ball``: ``U = B``; with
#:   ``B <- mu B + (1 - mu) G`` (KellerJordan/Muon's lerp form; the older form ``B <- mu B + G``,
#:   ``U = G + mu B`` is the same direction times ``1/(1 - mu)``, which NS5's normalisation
#:   removes: spec 14 §3.2, so it is the same variant);
#: * combination: none: ``O = NS5(U)``; ``_polar``: ``O = U_k V_k^T``, the exact polar factor
#:   of ``U`` (spec 14 ``exact_polar``, E2); ``_ortho_first``: orthogonalise each gradient
#:   first and average after, ``B <- mu B + (1 - mu) NS5(G)``, ``O = (1 - mu) NS5(G) + mu B``
#:   (nesterov) or ``B`` (heavy ball);
#: * scale: none: ``s = max(1, m/n)^(1/2)`` (KellerJordan/Muon, torch ``adjust_lr_fn=None``);
#:   ``_rms``: ``s = 0.2 max(m, n)^(1/2)`` (Moonlight's RMS matching, torch
#:   ``"match_rms_adamw"``).
MUON_VARIANTS = {
    f"{mom}{comb}{scale}": f"{mom_text}; {comb_text}; {scale_text}"
    for comb, comb_text in (
        ("", "O = NS5(U)"),
        ("_ortho_first", "B averages NS5(G), O from B"),
        ("_polar", "O = exact polar factor of U"),
    )
    for scale, scale_text in (("", "s = max(1, m/n)^(1/2)"), ("_rms", "s = 0.2 max(m, n)^(1/2)"))
    for mom, mom_text in (
        ("nesterov", "U = (1 - mu) G + mu B"),
        ("heavy_ball", "U = B"),
    )
}
#: Rounding error of one step's direction ``O_t`` (its largest entry), in units of ``u`` of the
#: declared precision.  Measured, not proven: the largest ``(|O_t(impl) - O_t(nesterov)| -
#: guard - bookkeeping) / u`` over 200 draws of ``matches_recursion``'s instances is 28.7 for
#: torch.optim.Muon and 78.9 for KellerJordan/Muon's SingleDeviceMuon (both NS5 in bfloat16;
#: the second rounds every product to bfloat16), medians 6.0 and 11.8; 128 leaves a margin of
#: 1.6 over the worse.  In bfloat16 the bound (0.5 per entry) separates the ``_rms`` variants
#: on every draw, ``_ortho_first`` on most and heavy ball from Nesterov on some; NS5 and the
#: exact polar factor differ by less than bfloat16 NS5's own error, so ``_polar`` is told from
#: NS5 only at float32 and float64, where every variant fails its neighbours on every run.
C_NS5_STEP = 128.0
#: Muon's NS guard: ``X / (||X||_F + eps)`` (KellerJordan/Muon; torch clamps the norm at ``eps``).
MUON_NS_EPS = 1e-7
_NS_ABC = (3.4445, -4.7750, 2.0315)  # spec 14 §3.2


def _phi5(x: FloatArray) -> FloatArray:
    """The quintic ``phi(x) = a x + b x^3 + c x^5`` applied 5 times (spec 14 §5)."""
    a, b, c = _NS_ABC
    for _ in range(5):
        x = a * x + b * x**3 + c * x**5
    return x


def _scalar_map(sv: FloatArray, how: str, eps: float) -> FloatArray:
    """The map applied to the singular values: NS5's ``phi^(5)`` of ``sv / (||sv||_2 + eps)``,
    or ``1`` on the non-zero ones (above ``1e-12`` of the largest) for the exact polar factor."""
    if how == "polar":
        return (sv > 1e-12 * max(float(sv.max()), 1e-300)).astype(np.float64)
    return _phi5(sv / (float(np.sqrt(np.sum(sv * sv))) + eps))


def _orthogonalise(u: FloatArray, how: str, eps: float) -> FloatArray:
    """NS5 through the SVD and the scalar map (normalised by ``||U||_F + eps``), or the exact
    polar factor (``how == "polar"``: singular values above ``1e-12 sigma_max`` set to 1)."""
    p, sv, qt = np.linalg.svd(u, full_matrices=False)
    values = _scalar_map(np.asarray(sv, dtype=np.float64), how, eps)
    out: FloatArray = (p * values) @ qt
    return out


def _muon_directions(
    grads: list[FloatArray], mu: float, variant: str
) -> tuple[list[FloatArray], float]:
    """The directions ``O_t`` of ``variant`` (float64), and the largest change of an ``O_t``
    when the NS guard ``eps`` is dropped (0 for ``_polar``)."""
    how = "polar" if "_polar" in variant else "ns5"
    nesterov = variant.startswith("nesterov")
    buf = np.zeros_like(grads[0])
    out, guard = [], 0.0

    def orth(x: FloatArray) -> FloatArray:
        nonlocal guard
        o = _orthogonalise(x, how, MUON_NS_EPS)
        if how == "ns5":
            guard = max(guard, float(np.max(np.abs(o - _orthogonalise(x, how, 0.0)))))
        return o

    for g in grads:
        if "_ortho_first" in variant:
            o_g = orth(g)
            buf = mu * buf + (1.0 - mu) * o_g
            out.append((1.0 - mu) * o_g + mu * buf if nesterov else buf.copy())
        else:
            buf = mu * buf + (1.0 - mu) * g
            out.append(orth((1.0 - mu) * g + mu * buf if nesterov else buf))
    return out, guard


def _muon_scale(variant: str, m: int, n: int) -> float:
    return 0.2 * math.sqrt(max(m, n)) if variant.endswith("_rms") else math.sqrt(max(1.0, m / n))


#: Steps of ``matches_recursion``'s runs.
MUON_STEPS = 6


def _muon_recursion_run(
    impl: Callable[..., _Adapted], data: st.DataObject
) -> tuple[list[FloatArray], list[FloatArray], dict[str, float]]:
    """Draw an instance, run ``impl`` on it; return the iterates, the gradients and the
    hyper-parameters.  The gradients are independent ``U diag(s) V^T`` (singular values in
    ``[1, 3]``, random singular vectors), so the momentum rules give directions that differ
    by O(1)."""
    m = data.draw(st.integers(1, 5), label="rows")
    n = data.draw(st.integers(1, 5), label="columns")
    mu = data.draw(st.sampled_from([0.5, 0.8, 0.95]), label="momentum")
    lr = data.draw(st.sampled_from([0.02, 0.1]), label="learning_rate")
    wd = data.draw(st.sampled_from([0.0, 0.1]), label="weight_decay")
    grads = [_matrix(data.draw, m, n, cond=3.0) for _ in range(MUON_STEPS)]
    w0 = data.draw(float_arrays((m, n), low=-3.0, high=3.0), label="W0")
    ws = _run(impl(learning_rate=lr, weight_decay=wd, momentum=mu), w0, grads)
    return ws, grads, {"momentum": mu, "learning_rate": lr, "weight_decay": wd}


def muon_recursion_errors(
    ws: list[FloatArray], grads: list[FloatArray], hyper: dict[str, float], variant: str
) -> tuple[float, float]:
    """``(excess, guard)``: the largest over steps and entries of ``|O_t(impl) - O_t(variant)|``
    less ``2 guard + 64 u64 (1 + max |W|) / (eta s)`` (the NS guard allowance and float64
    bookkeeping), with ``O_t(impl) = -(W_{t+1} - (1 - eta lambda) W_t) / (eta s)``; and the
    guard allowance (twice the largest change of an ``O_t`` when ``eps`` is dropped)."""
    lr, wd, mu = hyper["learning_rate"], hyper["weight_decay"], hyper["momentum"]
    m, n = grads[0].shape
    s = _muon_scale(variant, m, n)
    want, guard = _muon_directions(grads, mu, variant)
    size = 1.0 + max(float(np.max(np.abs(w))) for w in ws)
    allowed = 64.0 * U64 * size / (lr * s) + 2.0 * guard
    excess = 0.0
    for t, o in enumerate(want):
        got = -(ws[t + 1] - (1.0 - lr * wd) * ws[t]) / (lr * s)
        excess = max(excess, float(np.max(np.abs(got - o))) - allowed)
    return excess, 2.0 * guard


def _muon_fits(
    ws: list[FloatArray], grads: list[FloatArray], hyper: dict[str, float], caps: Capabilities
) -> list[str]:
    return [
        name
        for name in MUON_VARIANTS
        if muon_recursion_errors(ws, grads, hyper, name)[0] <= _model(caps, C_NS5_STEP)
    ]


@check("matches_recursion", anchor="KellerJordan/Muon muon.py; spec 14 §3.2: the declared variant")
def check_muon_matches_recursion(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """Each step's direction ``O_t = -(W_{t+1} - (1 - eta lambda) W_t) / (eta s)`` equals the
    declared variant's (:data:`MUON_VARIANTS`), recomputed here from the gradients: the
    momentum in float64, NS5 through the SVD and the quintic scalar map (or the exact polar
    factor).  Allowed per entry: ``C_NS5_STEP u`` at the declared precision, plus the NS guard (twice the change of ``O_t`` when ``eps = 1e-7`` is dropped: the guard's
    convention, added or clamped, and the scale of ``U`` move ``O_t`` within it) and float64
    bookkeeping.  Six steps on independent gradients, momentum 0.5 to 0.95; one variant per
    run, and a failure names the variants that fit."""
    variant = caps.variant_of(MUON)
    ws, grads, hyper = _muon_recursion_run(impl, data)
    excess, _ = muon_recursion_errors(ws, grads, hyper, variant)
    bound = _model(caps, C_NS5_STEP)
    hint = ""
    if excess > bound:
        fits = _muon_fits(ws, grads, hyper, caps)
        hint = (
            "; fits " + ", ".join(f"--variant {f}" for f in fits) if fits else "; no variant fits"
        )
    expect_le(
        excess,
        bound,
        what=f"max_t |O_t(impl) - O_t({variant})| - guard - float64 bookkeeping, over "
        f"{MUON_STEPS} steps (C_NS5_STEP u){hint}",
    )


MUON: Suite[Callable[..., _Adapted]] = Suite(
    name="optimizers.muon",
    protocol=OptimizerFactory,
    checks=(
        check_muon_stays_in_ball,
        check_muon_first_step_band,
        check_muon_orthogonal_equivariance,
        check_muon_scale_invariance,
        check_muon_matches_recursion,
    ),
    adapt=_factory,
    description="Muon factories impl(learning_rate=, weight_decay=, momentum=) on 2-D "
    "parameters: spectral ball, NS5 band of the first step, rotation equivariance, gradient-scale "
    "invariance, the declared variant's recursion step by step.",
    variants=MUON_VARIANTS,
    record_calls=False,
    trace_calls=True,
    foreign=as_torch_optimizer,
    notes=(TORCH_OPTIMIZER_NOTE,),
)


# ------------------------------------------------------------------------------ FW gap suite
@st.composite
def _gap_instance(draw: st.DrawFn) -> tuple[str, FloatArray, FloatArray, float]:
    which = draw(st.sampled_from(["linf", "spectral", "l2", "l1"]), label="norm")
    radius = draw(st.sampled_from([0.5, 1.0, 3.0]), label="radius")
    if which == "spectral":
        shape: tuple[int, ...] = (
            draw(st.integers(1, 4), label="rows"),
            draw(st.integers(1, 4), label="columns"),
        )
    else:
        shape = (draw(st.integers(1, 6), label="d"),)
    g = draw(float_arrays(shape, low=-3.0, high=3.0), label="gradient g")
    x = draw(float_arrays(shape, low=-3.0, high=3.0), label="direction of x")
    nx = ref.norm(x, which)  # type: ignore[arg-type]
    fraction = draw(st.floats(0.0, 1.0), label="||x|| / radius")
    x = x * (radius * fraction / nx) if nx > 0 else x
    return which, g, x, radius


def _gap_oracle(g: FloatArray, x: FloatArray, r: float, which: str) -> float:
    """Independent computation: vertices (linf, l1) or closed-form dual norms (l2, spectral)."""
    if which == "linf":
        d = g.size
        best = -math.inf
        for bits in range(2**d):
            v = np.array([r if (bits >> j) & 1 else -r for j in range(d)])
            best = max(best, float(g @ (x - v)))
        return best
    if which == "l1":
        verts = [s * r * np.eye(g.size)[j] for j in range(g.size) for s in (-1.0, 1.0)]
        return max(float(g @ (x - v)) for v in verts)
    if which == "l2":
        return float(np.vdot(g, x)) + r * float(np.sqrt(np.sum(g * g)))
    gram = g @ g.T if g.shape[0] <= g.shape[1] else g.T @ g  # the smaller Gram matrix
    eig = np.linalg.eigvalsh(gram)
    return float(np.vdot(g, x)) + r * float(np.sum(np.sqrt(np.maximum(eig, 0.0))))


@check("nonnegative", anchor="Sfyraki & Wang (ICML 2026): Hoelder")
def check_gap_nonnegative(impl: FwGapFn, data: st.DataObject, caps: Capabilities) -> None:
    """For ``x`` in the ball the FW gap is ``>= 0``."""
    which, g, x, r = data.draw(_gap_instance(), label="instance")
    gap = float(impl(g.copy(), x.copy(), r, which))
    expect(
        gap >= -1e-12 * max(1.0, r * float(np.sum(np.abs(g)))),
        what=f"FW gap on the {which} ball",
        measured=repr(gap),
        allowed=">= 0",
    )


@check("matches_oracle", anchor="Sfyraki & Wang (ICML 2026): gap = <g, x> + r ||g||_*")
def check_gap_matches_oracle(impl: FwGapFn, data: st.DataObject, caps: Capabilities) -> None:
    """The gap equals ``max_v <g, x - v>`` computed by enumerating vertices / closed forms."""
    which, g, x, r = data.draw(_gap_instance(), label="instance")
    gap = float(impl(g.copy(), x.copy(), r, which))
    oracle = _gap_oracle(g, x, r, which)
    # 1e-7: the spectral oracle takes square roots of Gram eigenvalues (loses half the digits
    # of tiny singular values)
    expect_close(
        gap, oracle, atol=1e-7 * max(1.0, abs(oracle)), what=f"FW gap on the {which} ball vs oracle"
    )


@check("zero_at_kkt", anchor="Sfyraki & Wang (ICML 2026): KKT split")
def check_gap_zero_at_kkt(impl: FwGapFn, data: st.DataObject, caps: Capabilities) -> None:
    """At a KKT point (``x = LMO(g)`` on the boundary, or ``g = 0``) the gap is 0."""
    which, g, _, r = data.draw(_gap_instance(), label="instance")
    if data.draw(st.booleans(), label="zero gradient"):
        x = ref.lmo(g, radius=r, which=which) * 0.5  # type: ignore[arg-type]
        g = np.zeros_like(g)
    else:
        x = ref.lmo(g, radius=r, which=which)  # type: ignore[arg-type]
    gap = float(impl(g.copy(), x.copy(), r, which))
    expect_close(
        gap, 0.0, atol=1e-9 * max(1.0, r * float(np.sum(np.abs(g)))), what="FW gap at a KKT point"
    )


FW_GAP: Suite[FwGapFn] = Suite(
    name="optimizers.fw_gap",
    protocol=FwGapFn,
    checks=(
        check_gap_nonnegative,
        check_gap_matches_oracle,
        check_gap_zero_at_kkt,
    ),
    adapt=_callable,
    description="Frank-Wolfe gaps fw_gap(grad, x, radius, which) on l_inf / spectral / l2 / l1 "
    "balls: >= 0 in the ball, equal to a brute-force oracle, 0 at KKT points.",
)


# ---------------------------------------------------------------------- Newton-Schulz suite
@st.composite
def _matrices(draw: st.DrawFn, *, cond: float = 1e3) -> FloatArray:
    m = draw(st.integers(1, 6), label="rows")
    n = draw(st.integers(1, 6), label="columns")
    scale = float(10.0 ** draw(st.floats(-3.0, 3.0), label="log10 scale"))
    out: FloatArray = _matrix(draw, m, n, cond) * scale
    return out


def _out(impl: MatrixFn, g: FloatArray, what: str) -> FloatArray:
    out = to_numpy(impl(g.copy()), what=what)
    expect(out.shape == g.shape, what=f"shape of {what}", measured=out.shape, allowed=g.shape)
    return out


#: float64 error of the suite's own measurements, added to each NS bound: the SVD of ``G`` or
#: of the output (``1e-10`` and ``1e-9`` on the drawn condition numbers <= 1e3), and the effect of
#: the ``1e-7`` norm guard on ``NS5(cG) - NS5(G)`` for ``||G||_F >= 1`` (``1e-5``).
NS_REF_ERR = {"spectral_identity": 1e-10, "band": 1e-9, "transpose": 1e-10, "scale": 1e-5}
#: Largest condition number drawn by ``spectral_identity``, ``transpose`` and
#: ``scale_invariance`` below float64.  NS5 amplifies a perturbation of a singular value
#: ``x = sigma / ||G||_F`` by ``|d phi^(5) / dx|``: <= 14 for ``x >= 0.03`` but 45 at 0.01 and 440
#: at 0.001, so a correct bfloat16 NS5, whose input and first iterate are rounded (``u = 2^-8``),
#: misses the identity by O(1) on ill-conditioned ``G`` (0.22 measured at ``x = 0.003``): no
#: rounding model below 1 holds there.  Condition <= 10 keeps ``x >= 1 / (10 sqrt 6) = 0.04``.
NS_LOW_PRECISION_COND = 10.0


def _ns_cond(caps: Capabilities) -> float:
    """The condition numbers the Newton-Schulz identity checks draw at ``caps.precision``."""
    return 1e3 if caps.precision == "float64" else NS_LOW_PRECISION_COND


def ns_bound(check: str, caps: Capabilities, k: int) -> float:
    """The Newton-Schulz checks' rounding model at the declared precision.

    The target's NS5 output (O(1) entries, singular values in the band) carries an error of
    ``C_NS5 k u`` per entry (``k = max(m, n)`` terms per inner product); a check comparing two
    outputs (``transpose``, ``scale``) allows twice that; each adds the float64 error of our
    own measurement (:data:`NS_REF_ERR`).  At bfloat16 a correct NS5 measures at most 9.9 k u
    (identity), 2.5 k u (band), 2.3 k u (transpose), 12 k u (scale) over the conformance draws;
    one step fewer and the cubic iteration measure 87 k u and 78 k u on the identity.

    Example:
        >>> round(ns_bound("spectral_identity", Capabilities(precision="bfloat16"), 6), 4)
        0.375
    """
    factor = 2.0 if check in ("transpose", "scale") else 1.0
    return _model(caps, factor * C_NS5, float(k)) + NS_REF_ERR[check]


@check("spectral_identity", anchor="Sfyraki & Wang (ICML 2026): NS5 spectral identity")
def check_ns_spectral_identity(impl: MatrixFn, data: st.DataObject, caps: Capabilities) -> None:
    """``NS5(G) = P diag(phi^(5)(sigma_i / (||G||_F + 1e-7))) Q^T`` (spec 14 §5), within
    :func:`ns_bound` (1e-10 in float64)."""
    g = data.draw(_matrices(cond=_ns_cond(caps)), label="G")
    out = _out(impl, g, "NS5(G)")
    p, s, qt = np.linalg.svd(g, full_matrices=False)
    expected = (p * ref.ns_scalar_map(s / (float(np.linalg.norm(g)) + 1e-7))) @ qt
    err = float(np.max(np.abs(out - expected)))
    expect_le(
        err,
        ns_bound("spectral_identity", caps, max(g.shape)),
        what="max |NS5(G) - SVD spectral identity| (C_NS5 k u + 1e-10)",
    )


@check("band", anchor="Sfyraki & Wang (ICML 2026): band around 1")
def check_ns_band(impl: MatrixFn, data: st.DataObject, caps: Capabilities) -> None:
    """If every ``sigma_i / ||G||_F >= 0.01`` the output's singular values lie in :data:`NS_BAND`.

    Condition numbers up to 40 with at most 6 singular values guarantee the ratio.
    """
    g = data.draw(_matrices(cond=40.0), label="G")
    sv = np.linalg.svd(_out(impl, g, "NS5(G)"), compute_uv=False)
    slack = ns_bound("band", caps, max(g.shape))
    expect(
        NS_BAND[0] - slack <= float(sv.min()) and float(sv.max()) <= NS_BAND[1] + slack,
        what="singular values of NS5(G)",
        measured=f"[{float(sv.min())!r}, {float(sv.max())!r}]",
        allowed=f"within {NS_BAND} ± {slack!r} (C_NS5 k u + 1e-9)",
    )


@check("transpose", anchor="Sfyraki & Wang (ICML 2026): transposition")
def check_ns_transpose(impl: MatrixFn, data: st.DataObject, caps: Capabilities) -> None:
    """``NS5(G^T) = NS5(G)^T``."""
    g = data.draw(_matrices(cond=_ns_cond(caps)), label="G")
    a = _out(impl, g, "NS5(G)")
    b = _out(impl, np.ascontiguousarray(g.T), "NS5(G^T)")
    expect_le(
        float(np.max(np.abs(a.T - b))),
        ns_bound("transpose", caps, max(g.shape)),
        what="max |NS5(G)^T - NS5(G^T)| (2 C_NS5 k u + 1e-10)",
    )


@check("scale_invariance", anchor="Sfyraki & Wang (ICML 2026): positive scaling")
def check_ns_scale_invariance(impl: MatrixFn, data: st.DataObject, caps: Capabilities) -> None:
    """``NS5(c G) = NS5(G)`` for ``c >= 1`` up to the 1e-7 guard (``||G||_F >= 1``) and the
    rounding of two NS5 evaluations (``2 C_NS5 k u + 1e-5``)."""
    g = data.draw(_matrices(cond=_ns_cond(caps)), label="G")
    g = g / float(np.linalg.norm(g)) * data.draw(st.floats(1.0, 10.0), label="norm")
    c = 10.0 ** data.draw(st.floats(0.0, 3.0), label="log10 c")
    diff = float(np.max(np.abs(_out(impl, g, "NS5(G)") - _out(impl, c * g, "NS5(cG)"))))
    expect_le(
        diff,
        ns_bound("scale", caps, max(g.shape)),
        what=f"max |NS5(G) - NS5(cG)| for c = {c!r} (2 C_NS5 k u + 1e-5)",
    )


NEWTON_SCHULZ: Suite[MatrixFn] = Suite(
    name="optimizers.newton_schulz",
    protocol=MatrixFn,
    checks=(
        check_ns_spectral_identity,
        check_ns_band,
        check_ns_transpose,
        check_ns_scale_invariance,
    ),
    adapt=_callable,
    description="Muon's quintic Newton-Schulz ns(G) with (3.4445, -4.7750, 2.0315) and 5 steps: "
    "spectral identity against an SVD, output band, transposition, scale invariance.",
)


# ------------------------------------------------------------------------------ polar suite
@st.composite
def _rank_deficient(draw: st.DrawFn) -> tuple[FloatArray, int]:
    m = draw(st.integers(1, 6), label="rows")
    n = draw(st.integers(1, 6), label="columns")
    k = draw(st.integers(0, min(m, n)), label="rank")
    left = _matrix(draw, m, k, cond=10.0) if k else np.zeros((m, 0))
    g = left @ draw(orthogonal_matrices(n), label="row space")[:k] if k else np.zeros((m, n))
    return np.asarray(g, dtype=np.float64), k


@check("partial_isometry", anchor="Sfyraki & Wang (ICML 2026): O O^T O = O, <U, O> = ||U||_*")
def check_polar_partial_isometry(impl: MatrixFn, data: st.DataObject, caps: Capabilities) -> None:
    """``O O^T O = O`` and ``<G, O> = ||G||_nuclear``."""
    g = data.draw(_matrices(), label="G")
    o = _out(impl, g, "polar(G)")
    scale = max(1.0, float(np.max(np.abs(g))))
    expect_le(float(np.max(np.abs(o @ o.T @ o - o))), 1e-9, what="max |O O^T O - O|")
    nuclear = float(np.sum(np.linalg.svd(g, compute_uv=False)))
    expect_close(
        float(np.vdot(g, o)), nuclear, atol=1e-9 * scale * g.size, what="<G, O> vs ||G||_*"
    )


@check("matches_scipy", anchor="scipy.linalg.polar")
def check_polar_matches_scipy(impl: MatrixFn, data: st.DataObject, caps: Capabilities) -> None:
    """For full-rank square ``G`` the factor equals ``scipy.linalg.polar(G)[0]``."""
    n = data.draw(st.integers(1, 6), label="n")
    g = _matrix(data.draw, n, n, cond=100.0)
    expected = scipy.linalg.polar(g)[0]
    expect_le(
        float(np.max(np.abs(_out(impl, g, "polar(G)") - expected))),
        1e-8,
        what="max |polar(G) - scipy.linalg.polar(G)[0]|",
    )


@check("rank", anchor="Sfyraki & Wang (ICML 2026): keep the rank(d) factors")
def check_polar_rank(impl: MatrixFn, data: st.DataObject, caps: Capabilities) -> None:
    """For rank-``k`` ``G`` the factor has exactly ``k`` unit singular values (0 for ``G = 0``)."""
    g, k = data.draw(_rank_deficient(), label="G, rank")
    sv = np.linalg.svd(_out(impl, g, "polar(G)"), compute_uv=False)
    expected = np.zeros_like(sv)
    expected[:k] = 1.0
    expect_le(
        float(np.max(np.abs(sv - expected))), 1e-8, what=f"singular values of polar(G), rank {k}"
    )


POLAR: Suite[MatrixFn] = Suite(
    name="optimizers.polar",
    protocol=MatrixFn,
    checks=(
        check_polar_partial_isometry,
        check_polar_matches_scipy,
        check_polar_rank,
    ),
    adapt=_callable,
    description="Exact orthogonal polar factors polar(G) = U_k V_k^T: partial isometry, nuclear "
    "pairing, scipy.linalg.polar on full-rank squares, rank of rank-deficient inputs.",
)


# -------------------------------------------------------------------------------- LGI suite
@st.composite
def _lgi_problem(draw: st.DrawFn) -> tuple[Callable[[Any], float], FloatArray]:
    # seeded on purpose: the LGI checks are statistical (random probes) and their bounds were
    # measured on these Gaussian problems; a shrunk theta = 0 sits on the kink of |x|
    rng = np.random.default_rng(draw(seeds(), label="seed"))
    d = draw(st.integers(1, 5), label="d")
    kind = draw(st.sampled_from(["quadratic", "abs", "max"]), label="f")
    q = rng.uniform(0.1, 2.0, size=d)
    a = rng.normal(size=(3, d))

    def f(x: Any) -> float:
        v = np.asarray(x, dtype=np.float64)
        if kind == "quadratic":
            return float(np.sum(q * v * v))
        if kind == "abs":
            return float(np.sum(q * np.abs(v)))
        return float(np.max(a @ v))

    return f, rng.normal(size=d)


@check("k1_zero", anchor="Xu et al. (ICML 2026) P1")
def check_lgi_k1_zero(impl: LgiFn, data: st.DataObject, caps: Capabilities) -> None:
    """Spec 02 P1: with ``k = 1`` the LGI is exactly 0."""
    f, theta = data.draw(_lgi_problem(), label="problem")
    rho = float(impl(f, theta.copy(), f(theta), k=1, sigma=0.01, rng=_rng_from(data, "rng seed")))
    expect(rho == 0.0, what="LGI with k = 1", measured=repr(rho), allowed="0.0")


@check("range", anchor="Xu et al. (ICML 2026) P1: rho < k/(k-1)")
def check_lgi_range(impl: LgiFn, data: st.DataObject, caps: Capabilities) -> None:
    """Spec 02 P1: ``0 <= rho < k/(k-1)`` for ``k >= 2`` (zeta = 1e-6)."""
    f, theta = data.draw(_lgi_problem(), label="problem")
    k = data.draw(st.integers(2, 12), label="k")
    sigma = data.draw(st.sampled_from([1e-3, 0.01, 0.5]), label="sigma")
    rho = float(impl(f, theta.copy(), f(theta), k=k, sigma=sigma, rng=_rng_from(data, "rng seed")))
    expect(
        0.0 <= rho < k / (k - 1),
        what=f"LGI with k = {k}",
        measured=repr(rho),
        allowed=f"in [0, {k / (k - 1)!r})",
    )


@check("shift_invariance", anchor="Xu et al. (ICML 2026) P2")
def check_lgi_shift_invariance(impl: LgiFn, data: st.DataObject, caps: Capabilities) -> None:
    """Spec 02 P2: ``f -> f + c`` leaves ``rho`` unchanged (same seed; rtol 1e-9)."""
    f, theta = data.draw(_lgi_problem(), label="problem")
    c = data.draw(st.floats(-100.0, 100.0), label="shift c")
    k = data.draw(st.integers(2, 8), label="k")
    seed = data.draw(seeds(), label="rng seed")

    def g(x: Any) -> float:
        return f(x) + c

    a = float(impl(f, theta.copy(), f(theta), k=k, sigma=0.1, rng=np.random.default_rng(seed)))
    b = float(impl(g, theta.copy(), g(theta), k=k, sigma=0.1, rng=np.random.default_rng(seed)))
    expect_close(b, a, atol=1e-7 * max(1.0, abs(a)), what="LGI of f + c vs LGI of f")


@check("equal_slopes", anchor="Xu et al. (ICML 2026) P4")
def check_lgi_equal_slopes(impl: LgiFn, data: st.DataObject, caps: Capabilities) -> None:
    """Spec 02 P4: at a V-shaped kink (``||theta||_2`` or ``|x|`` at 0) all slopes agree: rho = 0."""
    d = data.draw(st.integers(1, 5), label="d")
    k = data.draw(st.integers(2, 8), label="k")

    def f(x: Any) -> float:
        return float(np.linalg.norm(np.asarray(x, dtype=np.float64)))

    rho = float(impl(f, np.zeros(d), 0.0, k=k, sigma=0.01, rng=_rng_from(data, "rng seed")))
    expect_le(abs(rho), 1e-9, what="|LGI| at the kink of ||theta||_2")


@check("affine", anchor="Xu et al. (ICML 2026) P5")
def check_lgi_affine(impl: LgiFn, data: st.DataObject, caps: Capabilities) -> None:
    """Spec 02 P5: for affine ``f`` with many probes (k = 1500) ``|rho - 1| <= 0.1``."""
    # seeded on purpose (statistical check, see _lgi_problem)
    rng = _rng_from(data)
    d = data.draw(st.integers(1, 5), label="d")
    w = rng.normal(size=d)
    w = w / float(np.linalg.norm(w)) * data.draw(st.floats(0.1, 10.0), label="||g||")
    c = float(rng.normal())

    def f(x: Any) -> float:
        return c + float(w @ np.asarray(x, dtype=np.float64))

    theta = rng.normal(size=d)
    rho = float(impl(f, theta, f(theta), k=1500, sigma=0.05, rng=_rng_from(data, "rng seed")))
    expect_close(rho, 1.0, atol=0.1, what="LGI of an affine function (k = 1500)")


@check("probes", anchor="Xu et al. (ICML 2026) P9")
def check_lgi_probes(impl: LgiFn, data: st.DataObject, caps: Capabilities) -> None:
    """Spec 02 P9 and §5: exactly ``k`` loss evaluations and ``theta`` left bit-for-bit unchanged."""
    f, theta = data.draw(_lgi_problem(), label="problem")
    k = data.draw(st.integers(1, 8), label="k")
    calls: list[int] = []

    def counted(x: Any) -> float:
        calls.append(1)
        return f(x)

    copy = theta.copy()
    impl(counted, theta, f(theta), k=k, sigma=0.1, rng=_rng_from(data, "rng seed"))
    expect(len(calls) == k, what="loss evaluations", measured=len(calls), allowed=k)
    expect(
        bool(np.array_equal(theta, copy)),
        what="theta after the probes",
        measured=f"max change {float(np.max(np.abs(theta - copy)))!r}",
        allowed="unchanged",
    )


#: ``optimizers.lgi`` variants: how the probe directions are normalised, and the variance's
#: ``ddof`` (spec 02 §3.1; ``reference.optimizers.lgi`` ``direction_mode`` and ``ddof``).
LGI_VARIANTS = {
    "per_block": "every block of each direction u_i has norm 1 (a Gaussian normalised per block), "
    "s2 = var(D, ddof=1): Algorithm A in the authors' final code",
    "per_block_ddof0": "directions normalised per block, s2 = var(D, ddof=0) (the authors' "
    "earlier demo)",
    "global": "each direction u_i has norm 1 over all blocks together (uniform on the unit "
    "sphere of R^d), s2 = var(D, ddof=1)",
    "global_ddof0": "directions of norm 1 over all blocks, s2 = var(D, ddof=0)",
}
#: The stabiliser the ``LgiFn`` protocol leaves at its default (spec 02: ``stabilize_eps``).
LGI_ZETA = 1e-6


def _lgi_blocks(x: Any) -> tuple[FloatArray, ...]:
    items = x if isinstance(x, tuple | list) else (x,)
    return tuple(np.array(to_numpy(v, what="LGI probe"), dtype=np.float64) for v in items)


def _lgi_rho(slopes: FloatArray, ddof: int) -> float:
    """``rho = var(D; ddof) / (mean(D^2) + zeta)`` (spec 02 Algorithm A, l. 2-4)."""
    k = slopes.size
    s2 = float(np.sum((slopes - np.mean(slopes)) ** 2)) / (k - ddof)
    q = float(np.mean(slopes * slopes))
    return 0.0 if q + LGI_ZETA == 0.0 else s2 / (q + LGI_ZETA)


@check("matches_estimator", anchor="Xu et al. (ICML 2026) Algorithm A (spec 02 §3.1)")
def check_lgi_matches_estimator(impl: LgiFn, data: st.DataObject, caps: Capabilities) -> None:
    """The score is Algorithm A of the declared variant (:data:`LGI_VARIANTS`) on the probes
    the implementation made: the loss is wrapped to record each probe ``theta + sigma u_i``;
    ``u_i`` is recovered, its norm checked (each block 1, or 1 over all blocks), and
    ``rho = var(D; ddof) / (mean(D^2) + 1e-6)`` recomputed from ``D_i = (f(probe_i) - base) /
    sigma`` (rtol 1e-9).  ``theta`` has 1-3 blocks (``per_block`` and ``global`` coincide on
    one block only)."""
    variant = caps.variant_of(LGI)
    mode = "global" if variant.startswith("global") else "per_block"
    ddof = 0 if variant.endswith("ddof0") else 1
    rng = _rng_from(data)  # seeded on purpose: the test function's coefficients (see _lgi_problem)
    n_blocks = data.draw(st.integers(1, 3), label="blocks")
    sizes = [data.draw(st.integers(1, 4), label=f"size of block {b}") for b in range(n_blocks)]
    blocks = tuple(rng.normal(size=n) for n in sizes)
    d = sum(sizes)
    kind = data.draw(st.sampled_from(["quadratic", "max"]), label="f")
    q_diag, a = rng.uniform(0.1, 2.0, size=d), rng.normal(size=(3, d))

    def f(x: Any) -> float:
        v = np.concatenate(_lgi_blocks(x))
        return float(np.sum(q_diag * v * v)) if kind == "quadratic" else float(np.max(a @ v))

    probes: list[tuple[tuple[FloatArray, ...], float]] = []

    def recorded(x: Any) -> float:
        value = f(x)
        probes.append((_lgi_blocks(x), value))
        return value

    theta: Any = blocks if n_blocks > 1 else blocks[0]
    k = data.draw(st.integers(2, 8), label="k")
    sigma = data.draw(st.sampled_from([0.05, 0.3, 1.0]), label="sigma")
    base = f(theta)
    rho = float(impl(recorded, theta, base, k=k, sigma=sigma, rng=_rng_from(data, "rng seed")))
    expect(len(probes) == k, what="loss evaluations", measured=len(probes), allowed=k)
    worst = {"per_block": 0.0, "global": 0.0}
    for probe, _ in probes:
        expect(
            [p.shape for p in probe] == [b.shape for b in blocks],
            what="structure of a probe",
            measured=[p.shape for p in probe],
            allowed=[b.shape for b in blocks],
        )
        norms = np.array(
            [float(np.linalg.norm((p - b) / sigma)) for p, b in zip(probe, blocks, strict=True)]
        )
        worst["per_block"] = max(worst["per_block"], float(np.max(np.abs(norms - 1.0))))
        worst["global"] = max(worst["global"], abs(float(np.linalg.norm(norms)) - 1.0))
    hint = ""
    if worst[mode] > 1e-9:
        other = "global" if mode == "per_block" else "per_block"
        if worst[other] <= 1e-9:
            hint = (
                f": the directions are normalised {other.replace('_', ' ')}; declare that variant"
            )
    expect_le(
        worst[mode],
        1e-9,
        what=f"max | ||u_i|| - 1 | ({'per block' if mode == 'per_block' else 'over all blocks'}, "
        f"u_i = (probe_i - theta) / sigma){hint}",
    )
    slopes = np.array([(value - base) / sigma for _, value in probes])
    want, alt = _lgi_rho(slopes, ddof), _lgi_rho(slopes, 1 - ddof)
    hint = ""
    if abs(rho - alt) <= 1e-9 * max(1.0, abs(alt)):
        hint = f" (ddof={1 - ddof} gives {alt!r}: declare that variant)"
    expect_le(
        abs(rho - want),
        1e-9 * max(1.0, abs(want)),
        what=f"|rho - var(D; ddof={ddof}) / (mean(D^2) + 1e-6)| on the recorded probes{hint}",
    )


LGI: Suite[LgiFn] = Suite(
    name="optimizers.lgi",
    protocol=LgiFn,
    checks=(
        check_lgi_k1_zero,
        check_lgi_range,
        check_lgi_shift_invariance,
        check_lgi_equal_slopes,
        check_lgi_affine,
        check_lgi_probes,
        check_lgi_matches_estimator,
    ),
    adapt=_callable,
    description="LGI estimators lgi(f, theta, base, *, k, sigma, rng): 0 for k = 1, range "
    "[0, k/(k-1)), shift invariance, 0 at V-kinks, about 1 for affine f, k probes, theta intact, "
    "Algorithm A recomputed from the probes (declared direction normalisation and ddof).",
    variants=LGI_VARIANTS,
)


# ----------------------------------------------------------------------------- S-Adam suite
def _sadam_run(
    opt: _Adapted, x0: FloatArray, grads: list[FloatArray], f: Callable[[Any], float], seed: int
) -> list[FloatArray]:
    x = x0.copy()
    state = opt.init(x.copy())
    rng = np.random.default_rng(seed)
    out = []
    for t, g in enumerate(grads):
        updates, state = opt.step(g, state, x.copy(), f, rng)
        (u,) = _blocks_of(updates, (x,), f"updates at step {t}")
        out.append(u)
        x = x + u
    return out


#: ``optimizers.s_adam`` variants: where Adam adds ``eps`` (both exist in the wild).
SADAM_VARIANTS = {
    "eps_before_correction": "step lr sqrt(1-b2^t)/(1-b1^t) m / (sqrt(v) + eps): eps added to the "
    "uncorrected root (Kingma & Ba 2015, Alg. 1 efficient form; our reference)",
    "eps_after_correction": "step lr m_hat / (sqrt(v_hat) + eps): eps added to the bias-corrected "
    "root (textbook Adam/AdamW: torch.optim.Adam, optax.adam)",
}


@check("reduces_to_adam", anchor="Xu et al. (ICML 2026) P7")
def check_sadam_reduces_to_adam(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """Spec 02 P7: with ``lgi_lambda = 0`` the step is AdamW (decoupled decay) in the declared
    ``eps`` variant (:data:`SADAM_VARIANTS`; default ``eps_before_correction``).

    The two conventions differ by up to ``lr`` per step when ``sqrt(v_hat) << eps``, far
    above the bound ``C_EXACT u`` (1e-12 in float64; steps are ``O(lr) = 0.05``).
    """
    variant = caps.variant_of(S_ADAM)
    d = data.draw(st.integers(1, 5), label="d")
    lr, wd, eps = 0.05, 0.1, 1e-3
    grads = _grad_stream(data, (d,), 8)
    x0 = data.draw(float_arrays((d,), low=-3.0, high=3.0), label="x0")
    steps = _sadam_run(
        impl(learning_rate=lr, weight_decay=wd, eps=eps, lgi_lambda=0.0),
        x0,
        grads,
        lambda p: float(np.sum(np.abs(p))),
        0,
    )

    def off_by(name: str) -> float:
        """max |target step - AdamW(name) step| along the target's own trajectory."""
        x, m, v = x0.copy(), np.zeros(d), np.zeros(d)
        worst = 0.0
        for t, (g, u) in enumerate(zip(grads, steps, strict=True), start=1):
            m = 0.9 * m + 0.1 * g
            v = 0.999 * v + 0.001 * g * g
            bc1, bc2 = 1.0 - 0.9**t, 1.0 - 0.999**t
            if name == "eps_before_correction":
                adam = lr * math.sqrt(bc2) / bc1 * m / (np.sqrt(v) + eps)
            else:
                adam = lr * (m / bc1) / (np.sqrt(v / bc2) + eps)
            worst = max(worst, float(np.max(np.abs(u - (-lr * wd * x - adam)))))
            x = x + u
        return worst

    worst, bound = off_by(variant), _model(caps, C_EXACT)
    expect_le(
        worst,
        bound,
        what=f"max |S-Adam(lambda = 0) step - AdamW({variant}) step| (C_EXACT u)",
        detail="" if worst <= bound else _sadam_hint(off_by, caps, variant, lr),
    )


def _sadam_hint(
    off_by: Callable[[str], float], caps: Capabilities, declared: str, lr: float
) -> str:
    """What explains a ``reduces_to_adam`` mismatch, computed on the same draw: another eps
    convention only if its steps match within ``C_EXACT u``; a lower precision
    only if the error is within its ``C_EXACT u`` and that bound is below half the step
    (``lr``); otherwise plainly a different method."""
    fits: list[str] = []
    lower = [p for p in PRECISIONS if PRECISIONS[p] > caps.unit_roundoff]
    for precisions in ([caps.precision], lower):
        for name in [declared, *(v for v in SADAM_VARIANTS if v != declared)]:
            err = off_by(name)
            for precision in precisions:
                if name == declared and precision == caps.precision:
                    continue
                bound = C_EXACT * PRECISIONS[precision]
                if err <= bound and bound < 0.5 * lr:
                    flags = ([f"--variant {name}"] if name != declared else []) + (
                        [f"--precision {precision}"] if precision != caps.precision else []
                    )
                    fits.append(" ".join(flags) + f" (off by {err:.3g} <= {bound:.3g} then)")
                    break
            if fits and name == declared:
                break  # the precision alone explains it: no convention to change as well
        if fits:
            return "computed on this input, it matches when declared: " + "; or ".join(fits)
    return (
        f"no eps convention ({', '.join(SADAM_VARIANTS)}) at any precision explains these "
        "steps on this input: the target computes a different method"
    )


@check("pure_rescaling", anchor="Xu et al. (ICML 2026) P8")
def check_sadam_pure_rescaling(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """Spec 02 P8: for one gradient sequence each step is ``alpha_t`` in (0, 1] times the undamped one."""
    d = data.draw(st.integers(1, 5), label="d")
    lam = data.draw(st.sampled_from([0.5, 2.0, 8.0]), label="lgi_lambda")
    # every entry nonzero: the damping alpha_t is read off as a ratio of steps
    sizes = data.draw(float_arrays((6, d), low=0.01, high=3.0), label="|gradients|")
    grads = list(sizes * data.draw(sign_arrays((6, d)), label="gradient signs"))
    x0 = data.draw(float_arrays((d,), low=-3.0, high=3.0), label="x0")

    def f(p: Any) -> float:
        return float(np.sum(np.abs(np.asarray(p)) * (1.0 + np.arange(d))))

    damped = _sadam_run(impl(lgi_lambda=lam, weight_decay=0.0), x0, grads, f, 3)
    plain = _sadam_run(impl(lgi_lambda=0.0, weight_decay=0.0), x0, grads, f, 3)
    for t, (a, b) in enumerate(zip(damped, plain, strict=True)):
        ratio = a / b
        alpha = float(ratio[0])
        expect(
            0.0 < alpha <= 1.0 + _model(caps, C_EXACT),
            what=f"damping alpha at step {t}",
            measured=repr(alpha),
            allowed="in (0, 1]",
        )
        expect_le(
            float(np.max(np.abs(a - alpha * b))),
            _model(caps, C_EXACT, max(1.0, float(np.max(np.abs(b))))),
            what=f"max |step - alpha step(undamped)| at step {t}",
        )


S_ADAM: Suite[Callable[..., _Adapted]] = Suite(
    name="optimizers.s_adam",
    protocol=OptimizerFactory,
    checks=(
        check_sadam_reduces_to_adam,
        check_sadam_pure_rescaling,
    ),
    adapt=_factory,
    description="S-Adam factories impl(learning_rate=, weight_decay=, eps=, lgi_lambda=) with "
    "update(grads, state, params, *, loss, rng): reduction to AdamW (declared eps variant) at "
    "lambda = 0, steps are alpha in (0, 1] times the undamped steps.",
    record_calls=False,
    trace_calls=True,
    variants=SADAM_VARIANTS,
    foreign=as_torch_optimizer,
    notes=(TORCH_OPTIMIZER_NOTE,),
)


# ------------------------------------------------------------------------------- Adam suite
#: ``optimizers.adam`` variants: where ``eps`` goes, and how weight decay enters.
ADAM_VARIANTS = {
    "eps_after_correction": "AdamW: step lr m_hat / (sqrt(v_hat) + eps), eps added to the "
    "bias-corrected root; decoupled decay theta (1 - lr w) (torch.optim.AdamW, optax.adamw, "
    "reference.optimizers.adam)",
    "eps_before_correction": "AdamW with step lr sqrt(1-b2^t)/(1-b1^t) m / (sqrt(v) + eps): eps "
    "added to the uncorrected root (Kingma & Ba 2015, Alg. 1 efficient form); decoupled decay",
    "l2_weight_decay": "Adam with L2 decay: g + w theta enters the moments, eps after the "
    "correction (torch.optim.Adam with weight_decay > 0)",
}
#: Choices drawn by the Adam checks (sampled, so a failure names the hyper-parameters).
ADAM_EPS = (1e-8, 1e-3, 0.1)
ADAM_LR = (1e-3, 0.05)
ADAM_BETAS = ((0.9, 0.999), (0.5, 0.9), (0.0, 0.99))
#: Steps of every Adam run.
ADAM_STEPS = 6


def _adam_steps_by_formula(
    variant: str,
    x0: FloatArray,
    grads: FloatArray,
    *,
    lr: float,
    b1: float,
    b2: float,
    eps: float,
    wd: float,
) -> list[FloatArray]:
    """The updates of ``len(grads)`` Adam steps written out from the formulas (``variant``)."""
    x, m, v = x0.copy(), np.zeros_like(x0), np.zeros_like(x0)
    out = []
    for t, g in enumerate(grads, start=1):
        g_eff = g + wd * x if variant == "l2_weight_decay" else g
        m = b1 * m + (1.0 - b1) * g_eff
        v = b2 * v + (1.0 - b2) * g_eff * g_eff
        bc1, bc2 = 1.0 - b1**t, 1.0 - b2**t
        if variant == "eps_before_correction":
            step = lr * math.sqrt(bc2) / bc1 * m / (np.sqrt(v) + eps)
        else:
            step = lr * (m / bc1) / (np.sqrt(v / bc2) + eps)
        decay = 0.0 if variant == "l2_weight_decay" else lr * wd * x
        u = -decay - step
        out.append(u)
        x = x + u
    return out


def _adam_updates(opt: _Adapted, x0: FloatArray, grads: FloatArray) -> list[FloatArray]:
    x = x0.copy()
    state = opt.init(x.copy())
    out = []
    for t, g in enumerate(grads):
        updates, state = opt.step(
            g.copy(), state, x.copy(), lambda p: 0.0, np.random.default_rng(t)
        )
        (u,) = _blocks_of(updates, (x,), f"updates at step {t + 1}")
        out.append(u)
        x = x + u
    return out


def _adam_hyper(data: st.DataObject) -> tuple[float, float, float, float]:
    lr = data.draw(st.sampled_from(ADAM_LR), label="learning_rate")
    b1, b2 = data.draw(st.sampled_from(ADAM_BETAS), label="(b1, b2)")
    eps = data.draw(st.sampled_from(ADAM_EPS), label="eps")
    return lr, b1, b2, eps


#: Adam's rounding model: ``|step - formula| <= C_ADAM u (|x|_max + |step|_max / (1 - b2))``.
#: The update ``new - params`` is formed next to parameters of size ``|x|`` (one rounding of
#: ``x`` each); the step takes a dozen roundings of ``O(|step|)`` numbers, and the bias
#: correction ``1 - b2^t`` cancels, amplifying the rounding of ``b2`` by ``1 / (1 - b2)`` (optax's
#: float32 Adam: 1e-8 on steps of 1e-3 with ``b2 = 0.999``).  A precision is suggested as the
#: explanation of a mismatch only where this bound is below half the step it judges.
C_ADAM = 16.0


def _worst(
    got: list[FloatArray], want: list[FloatArray], x0: FloatArray, kappa: float
) -> tuple[float, int, float]:
    """``(max |got - want|, the step where it is, |x|_max + kappa |step|_max)`` along the run."""
    worst, at = 0.0, 0
    for t, (u, w) in enumerate(zip(got, want, strict=True), start=1):
        err = float(np.max(np.abs(u - w))) if u.size else 0.0
        if err > worst:
            worst, at = err, t
    steps = [float(np.max(np.abs(w))) for w in want if w.size]
    x_max = float(np.max(np.abs(x0))) + sum(steps) if x0.size else 0.0
    # 1e-30: an absolute floor for subnormal gradients (steps that matter are >= 1e-12)
    return worst, at, x_max + kappa * max([0.0, *steps]) + 1e-30


def _adam_hint(
    got: list[FloatArray],
    formula: Callable[[str], list[FloatArray]],
    caps: Capabilities,
    x0: FloatArray,
    kappa: float,
) -> str:
    """What would explain a mismatch, computed on the same draw.

    Reruns each variant's formula (``formula(variant)``) on the same input and names a variant
    only if the target's steps match it within the bound, and a lower precision only if the
    error is within that precision's rounding bound; otherwise says plainly that no declared
    convention explains the steps.
    """
    declared = caps.variant_of(ADAM)
    lower = [p for p in PRECISIONS if PRECISIONS[p] > caps.unit_roundoff]
    errors = {}
    for variant in ADAM_VARIANTS:
        want = formula(variant)
        err, _, scale = _worst(got, want, x0, kappa)
        step = max([0.0, *(float(np.max(np.abs(w))) for w in want if w.size)])
        errors[variant] = (err, scale, step)
    fits: list[str] = []
    # first another convention at the declared precision; only if none fits, a lower precision
    for precisions in ([caps.precision], lower):
        for variant in [declared, *(v for v in ADAM_VARIANTS if v != declared)]:
            err, scale, step = errors[variant]
            for precision in precisions:
                if variant == declared and precision == caps.precision:
                    continue  # the declaration that just failed
                bound = dataclasses.replace(caps, precision=precision).rounding_bound(C_ADAM, scale)
                if err <= bound and bound < 0.5 * step:  # a bound as large as the step: no fit
                    flags = ([f"--variant {variant}"] if variant != declared else []) + (
                        [f"--precision {precision}"] if precision != caps.precision else []
                    )
                    fits.append(" ".join(flags) + f" (off by {err:.3g} <= {bound:.3g} then)")
                    break
        if fits:
            break
    if fits:
        return "computed on this input, it matches when declared: " + "; or ".join(fits)
    return (
        f"no variant ({', '.join(ADAM_VARIANTS)}) at any precision explains these steps on "
        "this input: the target computes a different method"
    )


def _compare_adam(
    got: list[FloatArray],
    want: list[FloatArray],
    caps: Capabilities,
    what: str,
    formula: Callable[[str], list[FloatArray]],
    x0: FloatArray,
    b2: float,
    lr: float,
) -> None:
    kappa = 1.0 / (1.0 - b2)
    worst, at, scale = _worst(got, want, x0, kappa)
    bound = _model(caps, C_ADAM, scale)
    # a step with |g| above eps moves by about lr; a model at that size judges nothing
    # (bfloat16: b2 = 0.999 rounds to 1, the bias correction is lost, the model is 0.25 on
    # steps of 1e-3): skipped, and the report says why
    typical = C_ADAM * caps.unit_roundoff * (float(np.max(np.abs(x0), initial=0.0)) + kappa * lr)
    if typical >= lr:
        if not caps.tolerance_declared:
            raise PrecisionTooCoarse(f"{what} (steps of size lr)", caps.precision, typical, lr)
        bound = caps.tolerance * scale  # the declared promise alone: the model judges nothing
    expect_le(
        worst,
        bound,
        what=f"{what}: max |step - formula| (at step {at}; C_ADAM u (|x| + |step| / (1 - b2)))",
        detail="" if worst <= bound else _adam_hint(got, formula, caps, x0, kappa),
    )


@check("matches_recursion", anchor="Kingma & Ba, ICLR 2015, Algorithm 1")
def check_adam_matches_recursion(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """Without weight decay, ``T`` steps on a drawn gradient sequence equal the moment
    recursion ``m <- b1 m + (1-b1) g``, ``v <- b2 v + (1-b2) g²`` and the declared ``eps``
    variant's step, recomputed here (bound ``C_ADAM u (|x| + |step| / (1 - b2))``)."""
    variant = caps.variant_of(ADAM)
    d = data.draw(st.integers(1, 4), label="d")
    x0 = data.draw(float_arrays((d,), low=-3.0, high=3.0), label="x0")
    grads = data.draw(float_arrays((ADAM_STEPS, d), low=-3.0, high=3.0), label="gradients")
    lr, b1, b2, eps = _adam_hyper(data)
    got = _adam_updates(impl(learning_rate=lr, b1=b1, b2=b2, eps=eps, weight_decay=0.0), x0, grads)

    def formula(name: str) -> list[FloatArray]:
        return _adam_steps_by_formula(name, x0, grads, lr=lr, b1=b1, b2=b2, eps=eps, wd=0.0)

    _compare_adam(
        got, formula(variant), caps, f"Adam({variant}) without decay", formula, x0, b2, lr
    )


@check("weight_decay", anchor="Loshchilov & Hutter, ICLR 2019 (AdamW) / L2-regularised Adam")
def check_adam_weight_decay(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """With ``weight_decay = w > 0`` the steps follow the declared variant: decoupled decay
    ``theta (1 - lr w)`` outside the moments (AdamW, the default) or ``g + w theta`` inside
    them (``l2_weight_decay``, torch.optim.Adam)."""
    variant = caps.variant_of(ADAM)
    d = data.draw(st.integers(1, 4), label="d")
    x0 = data.draw(float_arrays((d,), low=-3.0, high=3.0), label="x0")
    grads = data.draw(float_arrays((ADAM_STEPS, d), low=-3.0, high=3.0), label="gradients")
    lr, b1, b2, eps = _adam_hyper(data)
    wd = data.draw(st.sampled_from([0.1, 0.5]), label="weight_decay")
    got = _adam_updates(impl(learning_rate=lr, b1=b1, b2=b2, eps=eps, weight_decay=wd), x0, grads)

    def formula(name: str) -> list[FloatArray]:
        return _adam_steps_by_formula(name, x0, grads, lr=lr, b1=b1, b2=b2, eps=eps, wd=wd)

    what = f"Adam({variant}) with weight_decay {wd}"
    _compare_adam(got, formula(variant), caps, what, formula, x0, b2, lr)


@check("constant_gradient", anchor="Kingma & Ba 2015 §3: bias correction makes m_hat = g")
def check_adam_constant_gradient(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """For a constant gradient ``g`` the bias-corrected moments are exactly ``g`` and ``g²``,
    so every step is ``-lr g / (|g| + eps_t)`` with ``eps_t = eps`` (eps after the
    correction) or ``eps / sqrt(1 - b2^t)`` (before): a closed form, no recursion."""
    variant = caps.variant_of(ADAM)
    d = data.draw(st.integers(1, 4), label="d")
    g = data.draw(float_arrays((d,), low=-3.0, high=3.0), label="gradient g")
    x0 = data.draw(float_arrays((d,), low=-3.0, high=3.0), label="x0")
    lr, b1, b2, eps = _adam_hyper(data)
    got = _adam_updates(
        impl(learning_rate=lr, b1=b1, b2=b2, eps=eps, weight_decay=0.0),
        x0,
        np.tile(g, (ADAM_STEPS, 1)),
    )

    def formula(name: str) -> list[FloatArray]:
        want = []
        for t in range(1, ADAM_STEPS + 1):
            eps_t = eps / math.sqrt(1.0 - b2**t) if name == "eps_before_correction" else eps
            want.append(-lr * g / (np.abs(g) + eps_t))
        return want

    # the recursion's m_t = (1 - b1^t) g holds to a few roundings per step: C_ADAM u
    what = f"Adam({variant}) on a constant gradient"
    _compare_adam(got, formula(variant), caps, what, formula, x0, b2, lr)


@check("first_step_sign", anchor="Kingma & Ba 2015 §2.1: |first step| ~ lr")
def check_adam_first_step_sign(
    impl: Callable[..., _Adapted], data: st.DataObject, caps: Capabilities
) -> None:
    """The first step is ``-lr sign(g)`` up to ``eps``: ``|u + lr sign(g)| <= lr eps_1 / |g|``
    with ``eps_1 = eps`` or ``eps / sqrt(1 - b2)``, whatever ``b1``, ``b2`` (``|g| >= 0.01``)."""
    variant = caps.variant_of(ADAM)
    d = data.draw(st.integers(1, 4), label="d")
    size = data.draw(float_arrays((d,), low=0.01, high=3.0), label="|g|")
    signs = data.draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=d, max_size=d), label="signs")
    g = size * np.array(signs)
    lr, b1, b2, eps = _adam_hyper(data)
    (u,) = _adam_updates(
        impl(learning_rate=lr, b1=b1, b2=b2, eps=eps, weight_decay=0.0),
        np.zeros(d),
        g[None, :],
    )
    eps_1 = eps / math.sqrt(1.0 - b2) if variant == "eps_before_correction" else eps
    err = np.abs(u + lr * np.sign(g))
    model = _model(caps, C_ADAM, lr / (1.0 - b2))
    if C_ADAM * caps.unit_roundoff / (1.0 - b2) >= 1.0:  # bfloat16: 62 lr on a step of lr
        if not caps.tolerance_declared:
            raise PrecisionTooCoarse("the first step (size lr)", caps.precision, model, lr)
        model = caps.tolerance * lr  # the declared promise alone
    allowed = lr * eps_1 / size + model
    worst = int(np.argmax(err - allowed))
    expect_le(
        float(err[worst]),
        float(allowed[worst]),
        what=f"|first step + lr sign(g)| at coordinate {worst} (g = {g[worst]!r})",
    )


ADAM: Suite[Callable[..., _Adapted]] = Suite(
    name="optimizers.adam",
    protocol=OptimizerFactory,
    checks=(
        check_adam_matches_recursion,
        check_adam_weight_decay,
        check_adam_constant_gradient,
        check_adam_first_step_sign,
    ),
    adapt=_factory,
    description="Adam/AdamW factories impl(learning_rate=, b1=, b2=, eps=, weight_decay=) (or a "
    "torch.optim class): the moment recursion, weight decay, the constant-gradient closed form "
    "and the sign-like first step, in the declared eps/decay variant.",
    record_calls=False,
    trace_calls=True,
    variants=ADAM_VARIANTS,
    foreign=as_torch_optimizer,
    notes=(TORCH_OPTIMIZER_NOTE,),
)


# -------------------------------------------------------------------------------- SAM suite
#: ``g / (||g|| + SAM_NORM_EPS)``: davda54/sam, pytorch_optimizer and spec 09 add 1e-12 to
#: the norm, so the radius may fall short of ``rho`` by ``rho * SAM_NORM_EPS / ||g||``.
SAM_NORM_EPS = 1e-12
#: Choices drawn by the SAM checks (sampled, so a failure names the hyper-parameters).
SAM_RHO = (0.01, 0.1, 0.5, 2.0)
SAM_LR = (0.01, 0.1)
SAM_MOMENTUM = (0.0, 0.9)
SAM_WEIGHT_DECAY = (0.0, 0.1)
#: Steps of every SAM run (three, so the momentum buffer enters twice).
SAM_STEPS = 3


class SamFactory(Protocol):
    """A factory of SAM optimizers around SGD, taking keyword hyper-parameters.

    Call shape: ``factory(rho=, learning_rate=, momentum=, weight_decay=)`` returns an object
    with ``init(params) -> state`` and ``update(grad_fn, state, params) -> (updates,
    new_state)``; ``grad_fn(point) -> gradient`` is the gradient oracle of the loss (the loss
    is minimised).  One SAM step (Foret et al., ICLR 2021; spec 09 "Baselines"):
    ``g = grad_fn(w)``; ``e = rho g / ||g||_2`` (``1e-12`` added to the norm is tolerated);
    ``g' = grad_fn(w + e)``; then the base step from ``w`` itself (the weights are restored):
    SGD with momentum in PyTorch's convention, ``b <- momentum b + g' + weight_decay w``,
    ``w <- w - learning_rate b`` (``b = 0`` before the first step).  The new parameters are
    ``params + updates``; the base gradient is the one at the last point asked.
    ``params``, points and gradients are 1-D float64 ``numpy`` arrays, no batch axis.

    A torch SAM wrapper in the ``davda54/sam`` style is accepted as well (a
    ``torch.optim.Optimizer`` class or factory ``(params, base_optimizer, **hyper)``):
    built as ``make(params, torch.optim.SGD, rho=, lr=, momentum=, weight_decay=)``; the
    adapter computes the gradient at ``w``, then calls ``first_step(zero_grad=True)``, the
    closure and ``second_step(zero_grad=True)`` when present, else ``step(closure)``
    (``pytorch_optimizer.SAM``, davda54 ``SAM``; see
    :func:`properties.adapters.as_torch_sam`; ``--hyper k=v`` fixes a wrapper keyword).
    """

    def __call__(self, **kwargs: Any) -> Any:
        """Return an object with ``init`` and ``update``."""
        ...


class _SamOracle:
    """Gradient of ``f(w) = (w - c)^T A (w - c) / 2``, recording every point it is asked at."""

    def __init__(self, a: FloatArray, c: FloatArray) -> None:
        self.a, self.c = a, c
        self.points: list[FloatArray] = []

    def grad(self, point: FloatArray) -> FloatArray:
        out: FloatArray = self.a @ (point - self.c)
        return out

    def __call__(self, point: Any) -> FloatArray:
        p = to_numpy(point, what="point passed to grad_fn")
        expect(
            p.shape == self.c.shape,
            what="shape of the point passed to grad_fn",
            measured=p.shape,
            allowed=self.c.shape,
        )
        expect(
            bool(np.all(np.isfinite(p))),
            what="point passed to grad_fn is finite",
            measured=p.tolist(),
            allowed="finite entries",
        )
        self.points.append(p.copy())
        return self.grad(p)


def _sam_factory(obj: object) -> Callable[..., Any]:
    if is_torch_optimizer(obj):  # a davda54-style torch wrapper (params, base_optimizer, ...)
        return as_torch_sam(cast(Callable[..., Any], obj))
    if not callable(obj):
        raise TypeError(f"expected a factory of SAM (init, update) pairs, got {type(obj).__name__}")
    return cast(Callable[..., Any], obj)


@st.composite
def _sam_problem(draw: st.DrawFn) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(A, c, w0)``: SPD ``A = Q diag(lam) Q^T`` (``lam`` in [0.5, 4]), ``||w0 - c|| >= 0.5``."""
    d = draw(st.integers(1, 5), label="d")
    lam = draw(float_arrays((d,), low=0.5, high=4.0), label="eigenvalues of A")
    q = _orthogonal(draw(float_arrays((d, d), low=-1.0, high=1.0), label="rotation seed"))
    c = draw(float_arrays((d,), low=-2.0, high=2.0), label="minimiser c")
    v = draw(float_arrays((d,), low=-1.0, high=1.0), label="direction w0 - c")
    r = draw(st.sampled_from([0.5, 1.0, 3.0]), label="||w0 - c||")
    norm = float(np.linalg.norm(v))
    v = v / norm if norm > 0.1 else np.eye(d)[0]
    a: FloatArray = (q * lam) @ q.T
    a = (a + a.T) / 2.0
    return a, c, c + r * v


def _orthogonal(m: FloatArray) -> FloatArray:
    """An orthogonal matrix from any square ``m`` (QR, signs fixed; identity-like when singular)."""
    q, r = np.linalg.qr(m + 2.0 * np.eye(m.shape[0]))
    signs = np.where(np.diag(r) < 0, -1.0, 1.0)
    out: FloatArray = q * signs
    return out


def _sam_hyper(data: st.DataObject) -> dict[str, float]:
    return {
        "rho": data.draw(st.sampled_from(SAM_RHO), label="rho"),
        "learning_rate": data.draw(st.sampled_from(SAM_LR), label="learning_rate"),
        "momentum": data.draw(st.sampled_from(SAM_MOMENTUM), label="momentum"),
        "weight_decay": data.draw(st.sampled_from(SAM_WEIGHT_DECAY), label="weight_decay"),
    }


def _sam_run(
    impl: Callable[..., Any], hyper: dict[str, float], oracle: _SamOracle, w0: FloatArray
) -> list[tuple[FloatArray, FloatArray, list[FloatArray]]]:
    """``SAM_STEPS`` steps: ``(w_t, w_{t+1}, points asked during step t)`` per step."""
    pair = impl(**hyper)
    w = w0.copy()
    state = pair.init(w.copy())
    out = []
    for t in range(SAM_STEPS):
        oracle.points = []
        result = pair.update(oracle, state, w.copy())
        if not (isinstance(result, tuple) and len(result) == 2):
            raise CheckFailure(
                "update output", measured=type(result).__name__, allowed="a pair (updates, state)"
            )
        (u,) = _blocks_of(result[0], (w,), f"updates at step {t + 1}")
        state = result[1]
        expect(
            len(oracle.points) >= 1,
            what=f"gradient calls at step {t + 1}",
            measured=0,
            allowed=">= 1 (SAM needs the gradient at w and at w + e)",
        )
        out.append((w, w + u, list(oracle.points)))
        w = w + u
    return out


def _sam_formula(oracle: _SamOracle, w0: FloatArray, hyper: dict[str, float]) -> list[FloatArray]:
    """The iterates ``w_1..w_T`` of SAM around SGD-momentum, written out here."""
    rho, lr = hyper["rho"], hyper["learning_rate"]
    mu, wd = hyper["momentum"], hyper["weight_decay"]
    w, b, out = w0.copy(), np.zeros_like(w0), []
    for _ in range(SAM_STEPS):
        g = oracle.grad(w)
        size = float(np.linalg.norm(g))
        e = rho * g / size if size > 0 else np.zeros_like(w)
        b = mu * b + oracle.grad(w + e) + wd * w
        w = w - lr * b
        out.append(w)
    return out


def _sam_scale(oracle: _SamOracle, *arrays: FloatArray) -> float:
    """``max(1, |entries|, ||A||_2 max|w|)``: the size of the numbers a step adds up."""
    big = max([1.0, *(float(np.max(np.abs(a))) for a in arrays if a.size)])
    return big * max(1.0, float(np.linalg.norm(oracle.a, 2)))


def _norm_slack(oracle: _SamOracle, ws: list[FloatArray], hyper: dict[str, float]) -> float:
    """How far ``1e-12`` in ``||g|| + 1e-12`` may move the iterates: ``e`` moves by
    ``rho SAM_NORM_EPS / ||g||``, ``w`` by ``lr ||A||`` times that, the buffer sums it."""
    gmin = min(float(np.linalg.norm(oracle.grad(w))) for w in ws)
    if gmin == 0.0:
        return 0.0
    lr, mu = hyper["learning_rate"], hyper["momentum"]
    shift = hyper["rho"] * SAM_NORM_EPS / gmin
    return SAM_STEPS * shift * lr * float(np.linalg.norm(oracle.a, 2)) / (1.0 - mu)


def _sam_compare(
    got: list[FloatArray],
    want: list[FloatArray],
    caps: Capabilities,
    scale: float,
    what: str,
    slack: float = 0.0,
) -> None:
    errs = [float(np.max(np.abs(g - w))) for g, w in zip(got, want, strict=True)]
    worst = int(np.argmax(errs))
    expect_le(
        errs[worst],
        _model(caps, C_EXACT, scale) + slack,
        what=f"{what}: max |w_t - formula| (at step {worst + 1}; C_EXACT u scale + the 1e-12 "
        "of the norm)",
    )


@check("radius", anchor="Foret et al., ICLR 2021, Eq. (2): e = rho g/||g||_2")
def check_sam_radius(impl: Callable[..., Any], data: st.DataObject, caps: Capabilities) -> None:
    """Every step asks for the gradient at ``w`` and then at ``w + e`` with ``||e||_2 = rho``
    (recomputed from the points asked) and ``e`` along ``+g`` (ascent): ``||e - rho
    g/||g|| || <= bound``, the bound allowing the ``1e-12`` in the norm."""
    a, c, w0 = data.draw(_sam_problem(), label="quadratic (A, c, w0)")
    hyper = _sam_hyper(data)
    oracle = _SamOracle(a, c)
    for t, (w, _, points) in enumerate(_sam_run(impl, hyper, oracle, w0), start=1):
        expect(
            len(points) == 2,
            what=f"gradient calls at step {t}",
            measured=len(points),
            allowed="2 (at w, then at w + e)",
        )
        scale = _sam_scale(oracle, w, points[1])
        first = float(np.max(np.abs(points[0] - w)))
        expect_le(first, _model(caps, C_EXACT, scale), what=f"|first point - w| at step {t}")
        g = oracle.grad(w)
        size = float(np.linalg.norm(g))
        e = points[1] - w
        slack = hyper["rho"] * SAM_NORM_EPS / size + _model(caps, C_EXACT, scale)
        expect_close(
            float(np.linalg.norm(e)),
            hyper["rho"],
            atol=slack,
            what=f"||e||_2 = ||second point - w|| at step {t} (||g|| = {size:.3g})",
        )
        off = float(np.linalg.norm(e - hyper["rho"] * g / size))
        expect_le(off, slack, what=f"||e - rho g/||g|| || at step {t} (direction of ascent)")


@check(
    "closed_form",
    anchor="Foret et al., ICLR 2021, Alg. 1; Kim, Kim, Lee (ICML 2026) baselines (SGD base)",
)
def check_sam_closed_form(
    impl: Callable[..., Any], data: st.DataObject, caps: Capabilities
) -> None:
    """On ``f = (w - c)^T A (w - c)/2`` (exact gradient ``A (w - c)``) ``SAM_STEPS`` steps equal
    ``b <- mu b + A (w + rho g/||g|| - c) + wd w``, ``w <- w - lr b`` written out here."""
    a, c, w0 = data.draw(_sam_problem(), label="quadratic (A, c, w0)")
    hyper = _sam_hyper(data)
    oracle = _SamOracle(a, c)
    got = [after for _, after, _ in _sam_run(impl, hyper, oracle, w0)]
    want = _sam_formula(oracle, w0, hyper)
    scale = _sam_scale(oracle, w0, *want) * (1.0 + hyper["rho"])
    _sam_compare(got, want, caps, scale, "SAM", _norm_slack(oracle, [w0, *want], hyper))


@check(
    "rho_zero_is_base", anchor="Kim, Kim, Lee (ICML 2026) P8: SAM with rho = 0 equals the base step"
)
def check_sam_rho_zero_is_base(
    impl: Callable[..., Any], data: st.DataObject, caps: Capabilities
) -> None:
    """``rho = 0``: every gradient is asked at ``w`` itself and the iterates are SGD with
    momentum's, ``b <- mu b + A (w - c) + wd w``, ``w <- w - lr b``."""
    a, c, w0 = data.draw(_sam_problem(), label="quadratic (A, c, w0)")
    hyper = {**_sam_hyper(data), "rho": 0.0}
    oracle = _SamOracle(a, c)
    run = _sam_run(impl, hyper, oracle, w0)
    for t, (w, _, points) in enumerate(run, start=1):
        off = max(float(np.max(np.abs(p - w))) for p in points)
        expect_le(
            off,
            _model(caps, C_EXACT, _sam_scale(oracle, w)),
            what=f"max |point asked - w| at step {t} with rho = 0",
        )
    want = _sam_formula(oracle, w0, hyper)
    _sam_compare([r[1] for r in run], want, caps, _sam_scale(oracle, w0, *want), "rho = 0")


@check("scale_invariance", anchor="Foret et al. 2021: e depends on the direction of g only")
def check_sam_scale_invariance(
    impl: Callable[..., Any], data: st.DataObject, caps: Capabilities
) -> None:
    """Loss ``s f`` with learning rate ``lr / s`` (no weight decay) gives the same iterates as
    ``f`` with ``lr``: the perturbation ignores the gradient's scale, the base step is linear."""
    a, c, w0 = data.draw(_sam_problem(), label="quadratic (A, c, w0)")
    hyper = {**_sam_hyper(data), "weight_decay": 0.0}
    s = data.draw(st.sampled_from([1e-3, 10.0, 1e3]), label="loss scale s")
    plain = [r[1] for r in _sam_run(impl, hyper, _SamOracle(a, c), w0)]
    scaled_hyper = {**hyper, "learning_rate": hyper["learning_rate"] / s}
    scaled = [r[1] for r in _sam_run(impl, scaled_hyper, _SamOracle(s * a, c), w0)]
    oracle, small = _SamOracle(a, c), _SamOracle(s * a, c)
    scale = _sam_scale(oracle, w0, *plain) * (1.0 + hyper["rho"])
    slack = _norm_slack(small, [w0, *scaled], scaled_hyper) + _norm_slack(
        oracle, [w0, *plain], hyper
    )
    _sam_compare(scaled, plain, caps, scale, f"loss x{s:g}, lr / {s:g} vs loss, lr", slack)


@check("rotation_equivariance", anchor="SAM's l2 ball and SGD commute with rotations")
def check_sam_rotation_equivariance(
    impl: Callable[..., Any], data: st.DataObject, caps: Capabilities
) -> None:
    """Rotating the problem (``A -> Q A Q^T``, ``c -> Q c``, ``w0 -> Q w0``, ``Q`` orthogonal)
    rotates the iterates: ``w_t' = Q w_t`` (an elementwise rule such as ASAM's breaks it)."""
    a, c, w0 = data.draw(_sam_problem(), label="quadratic (A, c, w0)")
    hyper = _sam_hyper(data)
    q = _orthogonal(
        data.draw(float_arrays(a.shape, low=-1.0, high=1.0), label="rotation Q (seed matrix)")
    )
    plain = [r[1] for r in _sam_run(impl, hyper, _SamOracle(a, c), w0)]
    rotated = [r[1] for r in _sam_run(impl, hyper, _SamOracle(q @ a @ q.T, q @ c), q @ w0)]
    oracle = _SamOracle(a, c)
    scale = _sam_scale(oracle, w0, *plain) * (1.0 + hyper["rho"]) * a.shape[0]
    slack = 2.0 * _norm_slack(oracle, [w0, *plain], hyper)
    _sam_compare(rotated, [q @ w for w in plain], caps, scale, "rotated problem vs Q w_t", slack)


def _base_step_from_points(
    oracle: _SamOracle,
    run: list[tuple[FloatArray, FloatArray, list[FloatArray]]],
    hyper: dict[str, float],
    caps: Capabilities,
    what: str,
) -> None:
    """``w_{t+1} = w_t - lr (mu b + grad(last point asked) + wd w_t)``: the base step from the
    restored ``w_t``, whatever perturbation the implementation chose."""
    lr, mu, wd = hyper["learning_rate"], hyper["momentum"], hyper["weight_decay"]
    b = np.zeros_like(run[0][0])
    for t, (w, after, points) in enumerate(run, start=1):
        b = mu * b + oracle.grad(points[-1]) + wd * w
        want = w - lr * b
        scale = _sam_scale(oracle, w, points[-1], b)
        expect_le(
            float(np.max(np.abs(after - want))),
            _model(caps, C_EXACT, scale),
            what=f"{what}: |w_{t} - (w_{t - 1} - lr b_{t})| with b from the gradient the step "
            "asked for last (weights restored to w before the base step)",
        )


@check("restores_weights", anchor="Foret et al. 2021, Alg. 1: the update is applied at w")
def check_sam_restores_weights(
    impl: Callable[..., Any], data: st.DataObject, caps: Capabilities
) -> None:
    """The base step starts from ``w``, not from ``w + e``: ``w_{t+1} = w_t - lr (mu b +
    g(p_t) + wd w_t)`` with ``p_t`` the last point the step asked about (recorded), whatever
    the perturbation rule; a wrapper that forgets to restore is off by ``e``."""
    a, c, w0 = data.draw(_sam_problem(), label="quadratic (A, c, w0)")
    hyper = _sam_hyper(data)
    oracle = _SamOracle(a, c)
    _base_step_from_points(oracle, _sam_run(impl, hyper, oracle, w0), hyper, caps, "restored")


@check(
    "zero_gradient",
    anchor="Kim, Kim, Lee (ICML 2026) baselines: e = rho g/(||g|| + 1e-12) is 0 at g = 0",
)
def check_sam_zero_gradient(
    impl: Callable[..., Any], data: st.DataObject, caps: Capabilities
) -> None:
    """Starting at the minimiser (``g = 0`` exactly) the step stays finite (no 0/0), asks only
    within ``rho`` of ``w`` and takes the base step there (weight decay and momentum only)."""
    a, c, _ = data.draw(_sam_problem(), label="quadratic (A, c, w0)")
    hyper = _sam_hyper(data)
    oracle = _SamOracle(a, c)
    run = _sam_run(impl, hyper, oracle, c.copy())
    w, _, points = run[0]
    far = max(float(np.linalg.norm(p - w)) for p in points)
    expect_le(
        far,
        hyper["rho"] * (1.0 + _model(caps, C_EXACT)),
        what="max ||point asked - w|| at g = 0 (at most rho)",
    )
    _base_step_from_points(oracle, run[:1], hyper, caps, "at g = 0")


SAM: Suite[Callable[..., Any]] = Suite(
    name="optimizers.sam",
    protocol=SamFactory,
    checks=(
        check_sam_radius,
        check_sam_closed_form,
        check_sam_rho_zero_is_base,
        check_sam_scale_invariance,
        check_sam_rotation_equivariance,
        check_sam_restores_weights,
        check_sam_zero_gradient,
    ),
    adapt=_sam_factory,
    description="Full SAM steps around SGD-momentum, impl(rho=, learning_rate=, momentum=, "
    "weight_decay=) with update(grad_fn, state, params) (or a davda54-style torch wrapper such "
    "as pytorch_optimizer.SAM): radius rho, closed form on quadratics, rho = 0 is SGD, loss "
    "scale and rotations, weights restored, zero gradient.",
    record_calls=False,
    trace_calls=True,
    foreign=as_torch_sam,
    notes=(TORCH_SAM_NOTE,),
)

SUITES = (FIRST_ORDER, LION, MUON, FW_GAP, NEWTON_SCHULZ, POLAR, LGI, S_ADAM, ADAM, SAM)
