"""Conformance suites for invariant-subspace code (spec 08, Section 5).

* ``invariance.distance``: ``fn(U (d, k), V (d, k)) -> dist²`` with ``dist = ‖P_U - P_V‖_F``.
* ``invariance.estimator``: ``fn(envs, k) -> (d, k)`` basis of the estimated invariant subspace,
  ``envs`` a list of ``(X_e (n, d), y_e (n,))``.  Subspaces are compared through projectors, never by
  basis vectors (signs and rotations within the subspace are free).
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

import numpy as np
from hypothesis import strategies as st
from scipy.linalg import subspace_angles

from properties._runner import Capabilities, Suite, expect, expect_close, expect_le
from properties._suite import check
from properties.adapters import require_callable, to_numpy
from properties.strategies import (
    distinct_float_arrays,
    float_arrays,
    orthogonal_matrices,
    permutations,
    seeds,
    sign_arrays,
)
from reference import invariance as inv
from reference._arrays import FloatArray

__all__ = [
    "DISTANCE",
    "ESTIMATOR",
    "SUITES",
    "DistanceImpl",
    "EstimatorImpl",
    "reference_estimator",
]

Envs = list[tuple[FloatArray, FloatArray]]


class DistanceImpl(Protocol):
    """``(U (d, k), V (d, k)) -> ‖P_U - P_V‖_F²``."""

    def __call__(self, U: FloatArray, V: FloatArray, /) -> float:
        """Return the squared distance."""
        ...


class EstimatorImpl(Protocol):
    """``(envs, k) -> (d, k)`` basis of V̂_inv."""

    def __call__(self, envs: Envs, k: int, /) -> FloatArray:
        """Return a basis."""
        ...


def reference_estimator(envs: Envs, k: int) -> FloatArray:
    """The spectral estimator E2 as ``fn(envs, k) -> basis``."""
    return np.asarray(inv.estimate_invariant_subspace(envs, k).basis)


def _projector(basis: FloatArray) -> FloatArray:
    q, _ = np.linalg.qr(basis)
    out: FloatArray = q @ q.T
    return out


@st.composite
def basis_pairs(draw: st.DrawFn) -> tuple[FloatArray, FloatArray]:
    """Two random ``(d, k)`` bases with 1 <= k < d <= 6 (generic, not orthonormal)."""
    d = draw(st.integers(2, 6), label="d")
    k = draw(st.integers(1, d - 1), label="k")
    # tie-free entries (fixed irrational offsets) keep both bases of full column rank; V's
    # rows are reversed so that two shrunk (equal-base) draws still span different subspaces
    u = draw(distinct_float_arrays((d, k), low=-3.0, high=3.0), label="U")
    v = draw(distinct_float_arrays((d, k), low=-3.0, high=3.0), label="V (rows reversed)")
    return u, v[::-1].copy()


def _dist(impl: DistanceImpl, u: FloatArray, v: FloatArray) -> float:
    value = float(to_numpy(impl(u.copy(), v.copy()), what="distance").reshape(-1)[0])
    expect(bool(np.isfinite(value)), what="distance is finite", measured=value, allowed="finite")
    return value


_S = "Zhou et al. (ICML 2026)"


@check("principal_angles", anchor="Zhou et al. (ICML 2026)")
def check_matches_principal_angles(
    impl: DistanceImpl, data: st.DataObject, caps: Capabilities
) -> None:
    """dist² = 2 Σ sin²θ_i over the principal angles (scipy.linalg.subspace_angles)."""
    u, v = data.draw(basis_pairs(), label="bases")
    want = float(2.0 * np.sum(np.sin(subspace_angles(u, v)) ** 2))
    expect_close(
        _dist(impl, u, v), want, atol=1e-10 * max(1.0, want), what="dist² against 2 Σ sin² θ"
    )


@check("symmetric_bounded", anchor=_S)
def check_symmetric_and_bounded(
    impl: DistanceImpl, data: st.DataObject, caps: Capabilities
) -> None:
    """Symmetric and in [0, 2k]."""
    u, v = data.draw(basis_pairs(), label="bases")
    forward, backward = _dist(impl, u, v), _dist(impl, v, u)
    expect_close(forward, backward, atol=1e-12, what="dist²(U, V) against dist²(V, U)")
    k = u.shape[1]
    expect(
        -1e-12 <= forward <= 2 * k + 1e-12,
        what="dist²",
        measured=forward,
        allowed=f"in [0, {2 * k}]",
    )


@check(anchor=_S)
def check_basis_invariance(impl: DistanceImpl, data: st.DataObject, caps: Capabilities) -> None:
    """``U -> U R`` (R invertible) changes nothing; the same span has distance 0."""
    u, v = data.draw(basis_pairs(), label="bases")
    k = u.shape[1]
    # |off-diagonal row sums| < 2 <= diagonal: R is strictly diagonally dominant, invertible
    r = data.draw(float_arrays((k, k), low=-2.0 / k, high=2.0 / k), label="R - 3I") + 3.0 * np.eye(
        k
    )
    expect_close(_dist(impl, u @ r, v), _dist(impl, u, v), atol=1e-9, what="dist² after U -> U R")
    expect_le(abs(_dist(impl, u, u @ r)), 1e-10, what="dist² between two bases of one span")


@check("orthonormal", anchor=_S)
def check_estimator_shape_and_orthonormal(
    impl: EstimatorImpl, data: st.DataObject, caps: Capabilities
) -> None:
    """Returns ``(d, k)`` with orthonormal columns."""
    instance, k = data.draw(instances(), label="instance")
    basis = to_numpy(impl(_envs(instance), k), what="basis")
    d = instance.basis.shape[0]
    expect(basis.shape == (d, k), what="basis shape", measured=basis.shape, allowed=(d, k))
    expect_le(float(np.max(np.abs(basis.T @ basis - np.eye(k)))), 1e-8, what="max |BᵀB - I|")


_SHIFT_KINDS: tuple[Literal["label", "mean"], ...] = ("label", "mean")
_DRIFTS: tuple[Literal["design", "uniform"], ...] = ("design", "uniform")


@st.composite
def instances(draw: st.DrawFn, *, n: int = 400) -> tuple[inv.InvariantInstance, int]:
    """Instances of every kind the generator offers: label-induced or mean shift, Hadamard
    design or uniform drifts, rotated or axis-aligned; d <= 6, |E| = 8 (identifiable),
    γ in [1.5, 3]."""
    # make_instance samples n rows per environment from a generator
    rng = np.random.default_rng(draw(seeds(), label="instance seed"))
    d = draw(st.integers(2, 6), label="d")
    k = draw(st.integers(1, d - 1), label="k")
    gamma = draw(st.floats(1.5, 3.0), label="gamma")
    kind = draw(st.sampled_from(_SHIFT_KINDS), label="shift kind")
    drift = draw(st.sampled_from(_DRIFTS), label="drift")
    rotate = draw(st.booleans(), label="rotate")
    instance = inv.make_instance(d, k, 8, n, gamma, rng=rng, kind=kind, drift=drift, rotate=rotate)
    return instance, k


def _envs(instance: inv.InvariantInstance) -> Envs:
    return [(np.array(x), np.array(y)) for x, y in instance.environments]


def _estimate(impl: EstimatorImpl, envs: Envs, k: int) -> FloatArray:
    return _projector(to_numpy(impl(envs, k), what="basis"))


@check(anchor="Zhou et al. (ICML 2026), Thm 4.11 (E2 upper bound)")
def check_consistent(impl: EstimatorImpl, data: st.DataObject, caps: Capabilities) -> None:
    """With |E| = 8, n = 4000, γ >= 1.5 the estimate is close: dist² <= 0.05 (E2 reaches ~1e-3)."""
    instance, k = data.draw(instances(n=4000), label="instance")
    p_hat = _estimate(impl, _envs(instance), k)
    error = float(np.sum((p_hat - _projector(np.asarray(instance.basis))) ** 2))
    expect_le(error, 0.05, what="dist²(V̂, V_inv)")


@check(anchor=_S)
def check_permutation_invariance(
    impl: EstimatorImpl, data: st.DataObject, caps: Capabilities
) -> None:
    """Permuting environments and samples within each leaves V̂ unchanged (projector error < 1e-8)."""
    instance, k = data.draw(instances(), label="instance")
    envs = _envs(instance)
    env_order = data.draw(permutations(len(envs)), label="environment order")
    # the sample orders permute hundreds of rows per environment: seeded, not shrunk
    rng = np.random.default_rng(data.draw(seeds(), label="seed for the sample orders"))
    moved = []
    for i in env_order:
        x, y = envs[i]
        order = rng.permutation(x.shape[0])
        moved.append((x[order], y[order]))
    error = float(np.max(np.abs(_estimate(impl, envs, k) - _estimate(impl, moved, k))))
    expect_le(error, 1e-8, what="max projector change after permutations")


@check(anchor=_S)
def check_rotation_equivariance(
    impl: EstimatorImpl, data: st.DataObject, caps: Capabilities
) -> None:
    """``X -> X Rᵀ`` (R orthogonal) maps V̂ to R V̂."""
    instance, k = data.draw(instances(), label="instance")
    d = instance.basis.shape[0]
    r = data.draw(orthogonal_matrices(d), label="R0") * data.draw(sign_arrays(d), label="signs")
    envs = _envs(instance)
    p = _estimate(impl, envs, k)
    p_rot = _estimate(impl, [(x @ r.T, y) for x, y in envs], k)
    expect_le(float(np.max(np.abs(p_rot - r @ p @ r.T))), 1e-8, what="max |P(XRᵀ) - R P(X) Rᵀ|")


@check("scale_shift_invariance", anchor=_S)
def check_scale_and_shift_invariance(
    impl: EstimatorImpl, data: st.DataObject, caps: Capabilities
) -> None:
    """``(X, y) -> (cX, cy)`` and ``X -> X + b`` (same b everywhere) leave V̂ unchanged."""
    instance, k = data.draw(instances(), label="instance")
    c = data.draw(st.floats(0.2, 5.0), label="scale c")
    envs = _envs(instance)
    shift = data.draw(float_arrays((instance.basis.shape[0],), low=-3.0, high=3.0), label="b")
    p = _estimate(impl, envs, k)
    scaled = _estimate(impl, [(c * x, c * y) for x, y in envs], k)
    shifted = _estimate(impl, [(x + shift, y) for x, y in envs], k)
    expect_le(float(np.max(np.abs(scaled - p))), 1e-8, what="max projector change after scaling")
    expect_le(
        float(np.max(np.abs(shifted - p))), 1e-6, what="max projector change after a common shift"
    )


DISTANCE: Suite[DistanceImpl] = Suite(
    name="invariance.distance",
    protocol=DistanceImpl,
    checks=(
        check_matches_principal_angles,
        check_symmetric_and_bounded,
        check_basis_invariance,
    ),
    adapt=require_callable,
    description="Subspace distance fn(U, V) -> ‖P_U - P_V‖_F²: principal angles, symmetry, [0, 2k], "
    "invariance to the choice of basis.",
)
ESTIMATOR: Suite[EstimatorImpl] = Suite(
    name="invariance.estimator",
    protocol=EstimatorImpl,
    checks=(
        check_estimator_shape_and_orthonormal,
        check_consistent,
        check_permutation_invariance,
        check_rotation_equivariance,
        check_scale_and_shift_invariance,
    ),
    adapt=require_callable,
    description="Invariant-subspace estimators fn(envs, k) -> basis: orthonormal, consistent on identifiable "
    "label- and mean-shift instances, permutation invariant, rotation equivariant, scale/shift invariant.",
)
SUITES = (DISTANCE, ESTIMATOR)


def _est_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    instance = inv.make_instance(4, 1, 4, 20, 2.0, rng=rng)
    return (_envs(instance), 1), {}
