"""Conformance suites of the stability family (spec 05).

* ``stability.clip`` — truncation operators ``clip(u, tau)``: Lemma L1 (norm bound,
  identity inside the ball, Euclidean projection, 1-Lipschitz, idempotent).
* ``stability.coupling_bound`` — clipped-SGD stability bounds
  ``bound(n=, steps=, learning_rate=, tau=, smoothness=)``: the S1 recursion, value 0 at
  ``T = 0`` and the monotonicity of spec 05 §5.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import numpy as np
from hypothesis import strategies as st

from properties._registry import Algorithm
from properties._runner import Capabilities, Check, Suite, expect, expect_close, expect_le
from properties.adapters import to_numpy
from properties.bad_input import BadInputCase
from properties.strategies import seeds
from reference import stability as ref
from reference._arrays import FloatArray

__all__ = [
    "ALGORITHMS",
    "BAD_INPUT_CASES",
    "SUITES",
    "ClipFn",
    "CouplingBoundFn",
]


class ClipFn(Protocol):
    """``clip(u, tau) -> array`` of the shape of ``u``."""

    def __call__(self, vector: FloatArray, tau: float, /) -> FloatArray:
        """The truncated vector."""
        ...


class CouplingBoundFn(Protocol):
    """``bound(*, n, steps, learning_rate, tau, smoothness) -> float``."""

    def __call__(
        self, *, n: int, steps: int, learning_rate: float, tau: float, smoothness: float
    ) -> float:
        """The bound on ``E ||x_T - x_T'||``."""
        ...


def _callable(obj: object) -> Any:
    if not callable(obj):
        raise TypeError(f"expected a callable, got {type(obj).__name__}")
    return obj


@st.composite
def _vectors(draw: st.DrawFn) -> tuple[FloatArray, FloatArray, float]:
    rng = np.random.default_rng(draw(seeds(), label="seed"))
    d = draw(st.integers(1, 6), label="d")
    scale = float(10.0 ** draw(st.floats(-2.0, 2.0), label="log10 scale"))
    tau = float(10.0 ** draw(st.floats(-1.0, 1.0), label="log10 tau"))
    return rng.normal(size=d) * scale, rng.normal(size=d) * scale, tau


def _clip(impl: ClipFn, u: FloatArray, tau: float) -> FloatArray:
    out = to_numpy(impl(u.copy(), tau), what="clip(u, tau)")
    expect(out.shape == u.shape, what="shape of clip(u, tau)", measured=out.shape, allowed=u.shape)
    return out


def check_clip_norm_bound(impl: ClipFn, data: st.DataObject, caps: Capabilities) -> None:
    """L1: ``||clip_tau(u)|| <= tau``."""
    u, _, tau = data.draw(_vectors(), label="u, v, tau")
    expect_le(float(np.linalg.norm(_clip(impl, u, tau))), tau * (1 + 1e-12), what="||clip(u)||")


def check_clip_identity_inside(impl: ClipFn, data: st.DataObject, caps: Capabilities) -> None:
    """L1: ``clip_tau(u) = u`` when ``||u|| <= tau`` (bitwise)."""
    u, _, tau = data.draw(_vectors(), label="u, v, tau")
    inside = u / float(np.linalg.norm(u)) * tau * data.draw(st.floats(0.0, 1.0), label="fraction")
    out = _clip(impl, inside, tau)
    expect(
        bool(np.array_equal(out, inside)),
        what="clip(u) for ||u|| <= tau",
        measured=f"max change {float(np.max(np.abs(out - inside)))!r}",
        allowed="u unchanged",
    )


def check_clip_projection(impl: ClipFn, data: st.DataObject, caps: Capabilities) -> None:
    """L1: ``clip_tau(u)`` is parallel to ``u`` and no point of the ball is closer to ``u``."""
    u, v, tau = data.draw(_vectors(), label="u, v, tau")
    out = _clip(impl, u, tau)
    nu = float(np.linalg.norm(u))
    expected = u if nu <= tau else u * (tau / nu)
    expect_le(
        float(np.max(np.abs(out - expected))),
        1e-12 * max(1.0, nu),
        what="distance of clip(u) to the projection u min(1, tau/||u||)",
    )
    nv = float(np.linalg.norm(v))
    w = v if nv <= tau else v * (tau / nv)  # any point of the ball
    expect_le(
        float(np.linalg.norm(u - out)),
        float(np.linalg.norm(u - w)) + 1e-12 * max(1.0, nu),
        what="||u - clip(u)|| against ||u - w|| for w in the ball",
    )


def check_clip_lipschitz(impl: ClipFn, data: st.DataObject, caps: Capabilities) -> None:
    """L1: ``||clip(a) - clip(b)|| <= ||a - b||``, also for nearby points across the sphere."""
    a, b, tau = data.draw(_vectors(), label="a, b, tau")
    if data.draw(st.booleans(), label="straddle the sphere"):
        a = a / float(np.linalg.norm(a)) * tau * 0.999
        b = a * (1.002 / 0.999)
    lhs = float(np.linalg.norm(_clip(impl, a, tau) - _clip(impl, b, tau)))
    rhs = float(np.linalg.norm(a - b))
    expect_le(lhs, rhs * (1 + 1e-12) + 1e-15, what="||clip(a) - clip(b)|| / ||a - b|| <= 1")


def check_clip_idempotent(impl: ClipFn, data: st.DataObject, caps: Capabilities) -> None:
    """L1: ``clip(clip(u)) = clip(u)``."""
    u, _, tau = data.draw(_vectors(), label="u, v, tau")
    once = _clip(impl, u, tau)
    twice = _clip(impl, once, tau)
    expect_le(
        float(np.max(np.abs(twice - once))),
        1e-12 * max(1.0, tau),
        what="max |clip(clip(u)) - clip(u)|",
    )


CLIP: Suite[ClipFn] = Suite(
    name="stability.clip",
    protocol=ClipFn,
    checks=(
        Check(name="norm_bound", fn=check_clip_norm_bound, anchor="spec 05 §4.1 L1"),
        Check(name="identity_inside", fn=check_clip_identity_inside, anchor="spec 05 §4.1 L1"),
        Check(
            name="projection",
            fn=check_clip_projection,
            anchor="spec 05 §2: clip is the projection onto the ball",
        ),
        Check(name="lipschitz", fn=check_clip_lipschitz, anchor="spec 05 §4.1 L1"),
        Check(name="idempotent", fn=check_clip_idempotent, anchor="spec 05 §4.1 L1"),
    ),
    adapt=_callable,
    description="Truncation operators clip(u, tau): norm <= tau, identity inside the ball, "
    "Euclidean projection, 1-Lipschitz, idempotent (spec 05 L1).",
)


@st.composite
def _bound_params(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "n": draw(st.integers(1, 500), label="n"),
        "steps": draw(st.integers(0, 300), label="steps"),
        "learning_rate": draw(st.sampled_from([0.0, 1e-3, 0.01, 0.1]), label="learning_rate"),
        "tau": draw(st.sampled_from([0.1, 1.0, 10.0]), label="tau"),
        "smoothness": draw(st.sampled_from([0.0, 0.5, 1.0, 2.0]), label="smoothness"),
    }


def check_bound_recursion(impl: CouplingBoundFn, data: st.DataObject, caps: Capabilities) -> None:
    """S1: the bound equals the iterated recursion ``B_{t+1} = (1 + eta L) B_t + 2 eta tau / n``."""
    p = data.draw(_bound_params(), label="parameters")
    value = float(impl(**p))
    b = 0.0
    for _ in range(p["steps"]):
        b = (1.0 + p["learning_rate"] * p["smoothness"]) * b + 2.0 * p["learning_rate"] * p[
            "tau"
        ] / p["n"]
    expect_close(value, b, atol=1e-9 * max(1.0, b), what="bound vs the S1 recursion")


def check_bound_zero_at_start(
    impl: CouplingBoundFn, data: st.DataObject, caps: Capabilities
) -> None:
    """Coupled runs start at the same ``x_0``: the bound is 0 for ``T = 0``."""
    p = data.draw(_bound_params(), label="parameters")
    p["steps"] = 0
    expect_close(float(impl(**p)), 0.0, atol=1e-15, what="bound at T = 0")


def check_bound_monotone(impl: CouplingBoundFn, data: st.DataObject, caps: Capabilities) -> None:
    """Spec 05 §5: non-decreasing in ``T, eta, tau, L`` and non-increasing in ``n``."""
    p = data.draw(_bound_params(), label="parameters")
    which = data.draw(
        st.sampled_from(["steps", "learning_rate", "tau", "smoothness", "n"]), label="argument"
    )
    q = dict(p)
    q[which] = p[which] + (1 if which in ("steps", "n") else 0.5)
    a, b = float(impl(**p)), float(impl(**q))
    if which == "n":
        expect_le(b, a * (1 + 1e-12), what="bound after increasing n")
    else:
        expect_le(a, b * (1 + 1e-12), what=f"bound after increasing {which}")


COUPLING_BOUND: Suite[CouplingBoundFn] = Suite(
    name="stability.coupling_bound",
    protocol=CouplingBoundFn,
    checks=(
        Check(name="recursion", fn=check_bound_recursion, anchor="spec 05 §4.3 S1"),
        Check(name="zero_at_start", fn=check_bound_zero_at_start, anchor="spec 05 §4.3 coupling"),
        Check(name="monotone", fn=check_bound_monotone, anchor="spec 05 §5 monotonicity"),
    ),
    adapt=_callable,
    description="Clipped-SGD coupling bounds bound(n=, steps=, learning_rate=, tau=, smoothness=): "
    "the S1 recursion, 0 at T = 0, monotone in T, eta, tau, L and n.",
)

SUITES = (CLIP, COUPLING_BOUND)

_S05 = "spec 05: Chen et al., heavy-tailed stability (ICML 2026)"


def _alg(name: str, fn: str, suites: tuple[str, ...] = ("bad_input",)) -> Algorithm:
    return Algorithm(
        name=name,
        function=f"reference.stability:{fn}",
        family="stability",
        paper=_S05,
        suites=suites,
    )


ALGORITHMS = (
    _alg("truncation operator clip_tau", "clip", ("stability.clip", "bad_input")),
    _alg(
        "S1 clipped-SGD stability bound",
        "clipped_sgd_stability_bound",
        ("stability.coupling_bound", "bad_input"),
    ),
    _alg("S3 clip-after-average bound", "clip_average_stability_bound"),
    _alg("S4 clipped-momentum bound", "momentum_stability_bound"),
    _alg("S5 normalized-SGD bound", "normalized_sgd_stability_bound"),
    _alg("coupled runs on neighbouring samples", "coupled_runs"),
    _alg("training loop on an index sequence", "train"),
    _alg("L2 truncation bounds", "truncation_bounds"),
    _alg("L3 heavy-tailed mean bound", "heavy_tailed_mean_bound"),
    _alg("symmetric Pareto noise", "symmetric_pareto"),
    _alg("Pareto radial vectors", "pareto_vectors"),
    _alg("Student-t noise", "student_t"),
    _alg("gradient stability (max over probes)", "gradient_stability"),
    _alg("gradient generalization gap (E2 instance)", "gradient_generalization_gap"),
)

Args = tuple[tuple[Any, ...], dict[str, Any]]


def _data(rng: np.random.Generator) -> tuple[FloatArray, FloatArray]:
    n, d = int(rng.integers(2, 5)), int(rng.integers(1, 4))
    a = rng.normal(size=(n, d))
    return a / np.linalg.norm(a, axis=1, keepdims=True), rng.normal(size=n)


def _grad_args(rng: np.random.Generator) -> Args:
    a, y = _data(rng)
    return (np.zeros(a.shape[1]), a, y), {}


def _neigh_args(rng: np.random.Generator) -> Args:
    a, y = _data(rng)
    return (a, y, 0, a[1], 1.0), {}


def _train_args(rng: np.random.Generator) -> Args:
    from reference.optimizers import clipped_sgd

    a, y = _data(rng)
    return (clipped_sgd(), a, y, np.zeros(a.shape[1]), np.array([0, 1, 0])), {}


def _coupled_args(rng: np.random.Generator) -> Args:
    from reference.optimizers import clipped_sgd

    a, y = _data(rng)
    a2, y2 = ref.neighbouring_dataset(a, y, 0, a[1], 5.0)
    return (clipped_sgd(), a, y, a2, y2, np.zeros(a.shape[1])), {
        "steps": 3,
        "runs": 2,
        "rng": np.random.default_rng(0),
    }


def _probe_args(rng: np.random.Generator) -> Args:
    a, y = _data(rng)
    d = a.shape[1]
    return (rng.normal(size=d), rng.normal(size=d), a, y), {}


def _gen_args(rng: np.random.Generator) -> Args:
    a, y = _data(rng)
    d = a.shape[1]
    return (rng.normal(size=d), a, y, rng.normal(size=d)), {}


_BOUND_KW = {"n": 20, "steps": 10, "learning_rate": 0.01, "tau": 1.0, "smoothness": 1.0}
_BOUND_BAD: tuple[tuple[Any, tuple[object, ...]], ...] = (
    ("n", (0, 1.5)),
    ("steps", (-1,)),
    ("learning_rate", (-1.0, math.nan)),
    ("tau", (0.0, -1.0)),
    ("smoothness", (-1.0,)),
)

BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.stability:clip",
        fn=ref.clip,
        make_args=lambda rng: ((rng.normal(size=3), 1.0), {}),
        arrays=(0,),
        scalars=((1, (0.0, -1.0, math.nan, "1")),),
        skip=frozenset({"ndim_up", "ndim_down"}),
    ),
    BadInputCase(
        name="reference.stability:clipped_sgd_stability_bound",
        fn=ref.clipped_sgd_stability_bound,
        make_args=lambda rng: ((), dict(_BOUND_KW)),
        arrays=(),
        scalars=_BOUND_BAD,
    ),
    BadInputCase(
        name="reference.stability:clip_average_stability_bound",
        fn=ref.clip_average_stability_bound,
        make_args=lambda rng: ((), {**_BOUND_KW, "batch": 4}),
        arrays=(),
        scalars=(*_BOUND_BAD, ("batch", (0,))),
    ),
    BadInputCase(
        name="reference.stability:momentum_stability_bound",
        fn=ref.momentum_stability_bound,
        make_args=lambda rng: ((), {**_BOUND_KW, "beta": 0.9}),
        arrays=(),
        scalars=(*_BOUND_BAD, ("beta", (1.0, -0.1, "0.9"))),
    ),
    BadInputCase(
        name="reference.stability:normalized_sgd_stability_bound",
        fn=ref.normalized_sgd_stability_bound,
        make_args=lambda rng: (
            (),
            {"n": 20, "steps": 10, "learning_rate": 0.01, "smoothness": 1.0, "grad_lower": 0.5},
        ),
        arrays=(),
        scalars=(("grad_lower", (0.0, -1.0)), ("n", (0,))),
    ),
    BadInputCase(
        name="reference.stability:truncation_bounds",
        fn=ref.truncation_bounds,
        make_args=lambda rng: ((1.0, 1.5, 2.0), {}),
        arrays=(),
        scalars=((0, (-1.0,)), (1, (1.0, 2.5, math.nan)), (2, (0.0,))),
    ),
    BadInputCase(
        name="reference.stability:heavy_tailed_mean_bound",
        fn=ref.heavy_tailed_mean_bound,
        make_args=lambda rng: ((1.0, 1.5, 10), {}),
        arrays=(),
        scalars=((1, (1.0, 3.0)), (2, (0,)), ("tau", (0.0,))),
    ),
    BadInputCase(
        name="reference.stability:pareto_moment",
        fn=ref.pareto_moment,
        make_args=lambda rng: ((1.0,), {"tail": 1.5}),
        arrays=(),
        scalars=((0, (2.0, -1.0)), ("tail", (0.0,))),
    ),
    BadInputCase(
        name="reference.stability:pareto_tail_excess",
        fn=ref.pareto_tail_excess,
        make_args=lambda rng: ((2.0,), {"tail": 1.5}),
        arrays=(),
        scalars=((0, (0.5,)), ("tail", (1.0, 0.5))),
    ),
    BadInputCase(
        name="reference.stability:pareto_clipped_second_moment",
        fn=ref.pareto_clipped_second_moment,
        make_args=lambda rng: ((2.0,), {"tail": 1.5}),
        arrays=(),
        scalars=((0, (0.5, -1.0)), ("scale", (0.0,))),
    ),
    BadInputCase(
        name="reference.stability:student_t_abs_moment",
        fn=ref.student_t_abs_moment,
        make_args=lambda rng: ((1.2,), {"nu": 3.0}),
        arrays=(),
        scalars=((0, (3.0, -1.0)), ("nu", (0.0,))),
    ),
    BadInputCase(
        name="reference.stability:symmetric_pareto",
        fn=ref.symmetric_pareto,
        make_args=lambda rng: ((3,), {"tail": 1.5, "rng": np.random.default_rng(0)}),
        arrays=(),
        scalars=((0, (0, 1.5)), ("tail", (0.0,)), ("rng", (None, 3))),
    ),
    BadInputCase(
        name="reference.stability:pareto_vectors",
        fn=ref.pareto_vectors,
        make_args=lambda rng: ((3, 2), {"tail": 1.5, "rng": np.random.default_rng(0)}),
        arrays=(),
        scalars=((1, (0,)), ("scale", (-1.0,))),
    ),
    BadInputCase(
        name="reference.stability:student_t",
        fn=ref.student_t,
        make_args=lambda rng: ((3,), {"nu": 1.5, "rng": np.random.default_rng(0)}),
        arrays=(),
        scalars=(("nu", (0.0, math.inf)),),
    ),
    BadInputCase(
        name="reference.stability:example_gradients",
        fn=ref.example_gradients,
        make_args=_grad_args,
        arrays=(0, 1, 2),
        scalars=(("loss", ("hinge",)),),
    ),
    BadInputCase(
        name="reference.stability:neighbouring_dataset",
        fn=ref.neighbouring_dataset,
        make_args=_neigh_args,
        arrays=(0, 1, 3),
        scalars=((2, (-1, 99, 0.5)), (4, (math.nan,))),
    ),
    BadInputCase(
        name="reference.stability:sample_indices",
        fn=ref.sample_indices,
        make_args=lambda rng: ((5, 3), {"batch": 2, "rng": np.random.default_rng(0)}),
        arrays=(),
        scalars=((0, (0,)), (1, (-1,)), ("batch", (0,)), ("sampling", ("bootstrap",))),
    ),
    BadInputCase(
        name="reference.stability:train",
        fn=ref.train,
        make_args=_train_args,
        arrays=(1, 2, 3),
        scalars=((4, (np.array([0, 9]), np.array([0.5]))), ("loss", ("l1",))),
    ),
    BadInputCase(
        name="reference.stability:coupled_runs",
        fn=ref.coupled_runs,
        make_args=_coupled_args,
        arrays=(1, 2, 3, 4, 5),
        scalars=(("steps", (-1,)), ("runs", (0,))),
    ),
    BadInputCase(
        name="reference.stability:gradient_stability",
        fn=ref.gradient_stability,
        make_args=_probe_args,
        arrays=(0, 1, 2, 3),
    ),
    BadInputCase(
        name="reference.stability:gradient_generalization_gap",
        fn=ref.gradient_generalization_gap,
        make_args=_gen_args,
        arrays=(0, 1, 2, 3),
    ),
)
