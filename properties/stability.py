"""Conformance suites of the stability family (spec 05).

* ``stability.clip`` — truncation operators ``clip(u, tau)``: Lemma L1 (norm bound,
  identity inside the ball, Euclidean projection, 1-Lipschitz, idempotent).
* ``stability.coupling_bound`` — clipped-SGD stability bounds
  ``bound(n=, steps=, learning_rate=, tau=, smoothness=)``: the S1 recursion, value 0 at
  ``T = 0`` and the monotonicity of spec 05 §5.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from hypothesis import strategies as st

from properties._runner import Capabilities, Suite, expect, expect_close, expect_le
from properties._suite import check
from properties.adapters import to_numpy
from properties.strategies import nonzero_float_arrays
from reference._arrays import FloatArray

__all__ = [
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
    d = draw(st.integers(1, 6), label="d")
    scale = float(10.0 ** draw(st.floats(-2.0, 2.0), label="log10 scale"))
    tau = float(10.0 ** draw(st.floats(-1.0, 1.0), label="log10 tau"))
    # norm >= 1 before scaling: the checks normalise u and a
    u = draw(nonzero_float_arrays(d), label="u / scale")
    v = draw(nonzero_float_arrays(d), label="v / scale")
    return u * scale, v * scale, tau


def _clip(impl: ClipFn, u: FloatArray, tau: float) -> FloatArray:
    out = to_numpy(impl(u.copy(), tau), what="clip(u, tau)")
    expect(out.shape == u.shape, what="shape of clip(u, tau)", measured=out.shape, allowed=u.shape)
    return out


@check("norm_bound", anchor="Chen et al. (ICML 2026) L1")
def check_clip_norm_bound(impl: ClipFn, data: st.DataObject, caps: Capabilities) -> None:
    """L1: ``||clip_tau(u)|| <= tau``."""
    u, _, tau = data.draw(_vectors(), label="u, v, tau")
    expect_le(float(np.linalg.norm(_clip(impl, u, tau))), tau * (1 + 1e-12), what="||clip(u)||")


@check("identity_inside", anchor="Chen et al. (ICML 2026) L1")
def check_clip_identity_inside(impl: ClipFn, data: st.DataObject, caps: Capabilities) -> None:
    """L1: ``clip_tau(u) = u`` when ``||u|| <= tau`` (bitwise)."""
    u, _, tau = data.draw(_vectors(), label="u, v, tau")
    # fraction < 1 - 1e-12: at fraction 1 the rounded ||u|| / ||u|| * tau can exceed tau by an ulp
    fraction = data.draw(st.floats(0.0, 1.0 - 1e-12), label="fraction")
    inside = u / float(np.linalg.norm(u)) * tau * fraction
    out = _clip(impl, inside, tau)
    expect(
        bool(np.array_equal(out, inside)),
        what="clip(u) for ||u|| <= tau",
        measured=f"max change {float(np.max(np.abs(out - inside)))!r}",
        allowed="u unchanged",
    )


@check("projection", anchor="Chen et al. (ICML 2026): clip is the projection onto the ball")
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


@check("lipschitz", anchor="Chen et al. (ICML 2026) L1")
def check_clip_lipschitz(impl: ClipFn, data: st.DataObject, caps: Capabilities) -> None:
    """L1: ``||clip(a) - clip(b)|| <= ||a - b||``, also for nearby points across the sphere."""
    a, b, tau = data.draw(_vectors(), label="a, b, tau")
    if data.draw(st.booleans(), label="straddle the sphere"):
        a = a / float(np.linalg.norm(a)) * tau * 0.999
        b = a * (1.002 / 0.999)
    lhs = float(np.linalg.norm(_clip(impl, a, tau) - _clip(impl, b, tau)))
    rhs = float(np.linalg.norm(a - b))
    expect_le(lhs, rhs * (1 + 1e-12) + 1e-15, what="||clip(a) - clip(b)|| / ||a - b|| <= 1")


@check("idempotent", anchor="Chen et al. (ICML 2026) L1")
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
        check_clip_norm_bound,
        check_clip_identity_inside,
        check_clip_projection,
        check_clip_lipschitz,
        check_clip_idempotent,
    ),
    adapt=_callable,
    description="Truncation operators clip(u, tau): norm <= tau, identity inside the ball, "
    "Euclidean projection, 1-Lipschitz, idempotent (Chen et al., ICML 2026 L1).",
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


@check("recursion", anchor="Chen et al. (ICML 2026) S1")
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


@check("zero_at_start", anchor="Chen et al. (ICML 2026) coupling")
def check_bound_zero_at_start(
    impl: CouplingBoundFn, data: st.DataObject, caps: Capabilities
) -> None:
    """Coupled runs start at the same ``x_0``: the bound is 0 for ``T = 0``."""
    p = data.draw(_bound_params(), label="parameters")
    p["steps"] = 0
    expect_close(float(impl(**p)), 0.0, atol=1e-15, what="bound at T = 0")


@check("monotone", anchor="Chen et al. (ICML 2026) monotonicity")
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
        check_bound_recursion,
        check_bound_zero_at_start,
        check_bound_monotone,
    ),
    adapt=_callable,
    description="Clipped-SGD coupling bounds bound(n=, steps=, learning_rate=, tau=, smoothness=): "
    "the S1 recursion, 0 at T = 0, monotone in T, eta, tau, L and n.",
)

SUITES = (CLIP, COUPLING_BOUND)
