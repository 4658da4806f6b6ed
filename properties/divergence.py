"""Conformance suites for alpha-divergence code (spec 13).

* ``divergence.gaussian``: closed forms ``fn(mu1, S1, mu2, S2, alpha) -> float`` for
  ``D_α(N(mu1, S1) ‖ N(mu2, S2))`` in the library's convention (``alpha`` in (0, 1), α -> 1 is
  KL(P‖Q)).  The answer is unique, so it is compared with :func:`reference.divergence.
  alpha_divergence_gaussian`, plus the defining properties (spec 13, Section 5.1).
* ``divergence.estimator``: sample estimators ``fn(X, Y, alpha) -> float`` (spec 13, Section
  5.2-5.3): zero on identical samples, non-negative, the (X, Y, α) -> (Y, X, 1 - α) symmetry,
  invariance to reordering the samples, and detection of a clear shift.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
from hypothesis import strategies as st

from properties._runner import Capabilities, Suite, expect, expect_close, expect_le
from properties._suite import check
from properties.adapters import require_callable, to_numpy
from properties.strategies import (
    float_arrays,
    orthogonal_matrices,
    permutations,
    seeds,
    sign_arrays,
)
from reference import divergence as dv
from reference._arrays import FloatArray

__all__ = [
    "DIVERGENCE_ESTIMATOR",
    "DIVERGENCE_GAUSSIAN",
    "SUITES",
    "DivergenceEstimator",
    "GaussianDivergence",
    "reference_estimator",
]

#: Data sizes drawn by the estimator suite (small: each call runs an optimiser).
MAX_SAMPLES = 40
MAX_DIM = 3


class GaussianDivergence(Protocol):
    """``(mu1 (d,), S1 (d, d), mu2 (d,), S2 (d, d), alpha) -> D_α(N(mu1,S1) ‖ N(mu2,S2))``."""

    def __call__(
        self, mu1: FloatArray, S1: FloatArray, mu2: FloatArray, S2: FloatArray, alpha: float, /
    ) -> float:
        """Return the divergence."""
        ...


class DivergenceEstimator(Protocol):
    """``(X (n, d), Y (m, d), alpha) -> estimate of D_α(P‖Q)``."""

    def __call__(self, X: FloatArray, Y: FloatArray, alpha: float, /) -> float:
        """Return the estimate."""
        ...


# ------------------------------------------------------------------------------ strategies
@st.composite
def gaussian_pairs(draw: st.DrawFn) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Two Gaussians in d <= 3 with well-conditioned covariances built as ``B Bᵀ + 0.2 I``."""
    d = draw(st.integers(1, MAX_DIM), label="dimension d")
    b1 = draw(float_arrays((d, d), low=-1.0, high=1.0), label="B1 (Σ1 = B1 B1ᵀ + 0.2 I)")
    b2 = draw(float_arrays((d, d), low=-1.0, high=1.0), label="B2 (Σ2 = B2 B2ᵀ + 0.2 I)")
    mu1 = draw(float_arrays((d,), low=-2.0, high=2.0), label="mu1")
    mu2 = draw(float_arrays((d,), low=-2.0, high=2.0), label="mu2")
    return mu1, b1 @ b1.T + 0.2 * np.eye(d), mu2, b2 @ b2.T + 0.2 * np.eye(d)


def _alphas() -> st.SearchStrategy[float]:
    return st.floats(0.05, 0.95, allow_subnormal=False)


def _value(fn: Callable[..., Any], *args: Any) -> float:
    out = fn(*args)
    value = (
        float(to_numpy(out, what="divergence returned").reshape(-1)[0])
        if not isinstance(out, float)
        else out
    )
    expect(
        np.isfinite(value), what="returned divergence is finite", measured=value, allowed="finite"
    )
    return value


# ----------------------------------------------------------------------- gaussian checks
@check(anchor="Wang, Zhang, Wang (ICML 2026), G1 [verified]")
def check_matches_closed_form(
    impl: GaussianDivergence, data: st.DataObject, caps: Capabilities
) -> None:
    """Equals the log-determinant closed form G1 (the value is unique)."""
    mu1, s1, mu2, s2 = data.draw(gaussian_pairs(), label="gaussians")
    alpha = data.draw(_alphas(), label="alpha")
    want = dv.alpha_divergence_gaussian(mu1, s1, mu2, s2, alpha)
    got = _value(impl, mu1, s1, mu2, s2, alpha)
    expect_close(
        got, want, atol=caps.tolerance * max(1.0, abs(want)), what="D_α against closed form G1"
    )


@check(anchor="Wang, Zhang, Wang (ICML 2026)")
def check_zero_iff_equal(impl: GaussianDivergence, data: st.DataObject, caps: Capabilities) -> None:
    """``D_α(P‖P) = 0`` and ``D_α(P‖Q) > 0`` when the means differ by at least 0.5."""
    mu1, s1, _, _ = data.draw(gaussian_pairs(), label="gaussians")
    alpha = data.draw(_alphas(), label="alpha")
    same = _value(impl, mu1, s1, mu1.copy(), s1.copy(), alpha)
    expect_le(abs(same), caps.tolerance, what="D_α(P‖P)")
    shifted = mu1 + 0.5 / np.sqrt(mu1.size)
    positive = _value(impl, mu1, s1, shifted, s1.copy(), alpha)
    want = dv.alpha_divergence_gaussian(mu1, s1, shifted, s1, alpha)
    expect(
        positive >= want * 0.5,
        what="D_α of a mean shift is positive",
        measured=positive,
        allowed=f">= {want * 0.5!r}",
    )


@check(anchor="Wang, Zhang, Wang (ICML 2026)")
def check_swap_symmetry(impl: GaussianDivergence, data: st.DataObject, caps: Capabilities) -> None:
    """``D_α(P‖Q) = D_{1-α}(Q‖P)`` (Wang, Zhang, Wang, ICML 2026)."""
    mu1, s1, mu2, s2 = data.draw(gaussian_pairs(), label="gaussians")
    alpha = data.draw(_alphas(), label="alpha")
    forward = _value(impl, mu1, s1, mu2, s2, alpha)
    backward = _value(impl, mu2, s2, mu1, s1, 1.0 - alpha)
    expect_close(
        forward,
        backward,
        atol=caps.tolerance * max(1.0, abs(forward)),
        what="D_α(P‖Q) against D_{1-α}(Q‖P)",
    )


@check(anchor="Wang, Zhang, Wang (ICML 2026)")
def check_affine_invariance(
    impl: GaussianDivergence, data: st.DataObject, caps: Capabilities
) -> None:
    """Invariant under a common change of variables ``x -> Mx + v`` with M invertible."""
    mu1, s1, mu2, s2 = data.draw(gaussian_pairs(), label="gaussians")
    alpha = data.draw(_alphas(), label="alpha")
    d = mu1.size
    q = data.draw(orthogonal_matrices(d), label="Q") * data.draw(sign_arrays(d), label="signs")
    m = q @ np.diag(data.draw(float_arrays((d,), low=0.5, high=2.0), label="stretches"))
    v = data.draw(float_arrays((d,), low=-1.0, high=1.0), label="v")
    base = _value(impl, mu1, s1, mu2, s2, alpha)
    moved = _value(impl, m @ mu1 + v, m @ s1 @ m.T, m @ mu2 + v, m @ s2 @ m.T, alpha)
    expect_close(
        moved,
        base,
        atol=caps.tolerance * max(1.0, abs(base)) * 10,
        what="D_α after a common affine change of variables",
    )


@check(anchor="Wang, Zhang, Wang (ICML 2026), G4")
def check_product_factorisation(
    impl: GaussianDivergence, data: st.DataObject, caps: Capabilities
) -> None:
    """For diagonal Gaussians ``A_α`` is the product of the coordinates' coefficients (G4)."""
    d = data.draw(st.integers(2, MAX_DIM), label="dimension d")
    alpha = data.draw(_alphas(), label="alpha")
    mu1, mu2 = data.draw(float_arrays((2, d), low=-1.0, high=1.0), label="means")
    v1, v2 = data.draw(float_arrays((2, d), low=0.3, high=2.0), label="variances")
    whole = _value(impl, mu1, np.diag(v1), mu2, np.diag(v2), alpha)
    scale = alpha * (1.0 - alpha)
    coefficient = 1.0
    for i in range(d):
        part = _value(
            impl,
            mu1[i : i + 1],
            np.diag(v1[i : i + 1]),
            mu2[i : i + 1],
            np.diag(v2[i : i + 1]),
            alpha,
        )
        coefficient *= 1.0 - scale * part
    expect_close(
        whole,
        (1.0 - coefficient) / scale,
        atol=caps.tolerance * max(1.0, whole) * 10,
        what="D_α of a product against the product of coordinate coefficients",
    )


# ---------------------------------------------------------------------- estimator checks
@st.composite
def sample_pairs(draw: st.DrawFn, *, shift: float | None = None) -> tuple[FloatArray, FloatArray]:
    """Two Gaussian samples of sizes 8..40 in d <= 3, the second shifted by ``shift`` (drawn if None)."""
    # the estimator checks need genuine Gaussian samples (V2: a 4-sigma shift is detected)
    rng = np.random.default_rng(draw(seeds(), label="sample seed"))
    d = draw(st.integers(1, MAX_DIM), label="dimension d")
    n = draw(st.integers(8, MAX_SAMPLES), label="n")
    m = draw(st.integers(8, MAX_SAMPLES), label="m")
    delta = draw(st.floats(0.0, 2.0), label="shift") if shift is None else shift
    return rng.standard_normal((n, d)), rng.standard_normal((m, d)) + delta


@check(anchor="Wang, Zhang, Wang (ICML 2026)")
def check_zero_on_identical_samples(
    impl: DivergenceEstimator, data: st.DataObject, caps: Capabilities
) -> None:
    """Identical samples (Y a permutation of X) give D̂ = 0 (Wang, Zhang, Wang, ICML 2026)."""
    x, _ = data.draw(sample_pairs(), label="samples")
    order = data.draw(permutations(x.shape[0]), label="order of Y = X[order]")
    alpha = data.draw(_alphas(), label="alpha")
    value = _value(impl, x, x[order], alpha)
    expect_le(abs(value), caps.tolerance, what="|D̂| on identical samples")


@check(anchor="Wang, Zhang, Wang (ICML 2026)")
def check_nonnegative(impl: DivergenceEstimator, data: st.DataObject, caps: Capabilities) -> None:
    """D̂ >= 0: θ = 0 is feasible and gives Ĵ = 0 (Wang, Zhang, Wang, ICML 2026)."""
    x, y = data.draw(sample_pairs(), label="samples")
    alpha = data.draw(_alphas(), label="alpha")
    value = _value(impl, x, y, alpha)
    expect(value >= -caps.tolerance, what="D̂", measured=value, allowed=f">= {-caps.tolerance!r}")


@check("swap_symmetry", anchor="Wang, Zhang, Wang (ICML 2026)")
def check_swap_symmetry_estimator(
    impl: DivergenceEstimator, data: st.DataObject, caps: Capabilities
) -> None:
    """``D̂(X, Y, α) = D̂(Y, X, 1 - α)`` (Wang, Zhang, Wang, ICML 2026: J is symmetric with φ -> -φ)."""
    x, y = data.draw(sample_pairs(), label="samples")
    alpha = data.draw(_alphas(), label="alpha")
    forward = _value(impl, x, y, alpha)
    backward = _value(impl, y, x, 1.0 - alpha)
    expect_close(
        forward,
        backward,
        atol=caps.tolerance * max(1.0, abs(forward)),
        what="D̂(X, Y, α) against D̂(Y, X, 1 - α)",
    )


@check("permutation_invariance", anchor="Wang, Zhang, Wang (ICML 2026)")
def check_permutation_invariance_estimator(
    impl: DivergenceEstimator, data: st.DataObject, caps: Capabilities
) -> None:
    """Reordering the rows of X and of Y leaves D̂ unchanged (Wang, Zhang, Wang, ICML 2026)."""
    x, y = data.draw(sample_pairs(), label="samples")
    alpha = data.draw(_alphas(), label="alpha")
    x_order = data.draw(permutations(x.shape[0]), label="order of X")
    y_order = data.draw(permutations(y.shape[0]), label="order of Y")
    base = _value(impl, x, y, alpha)
    moved = _value(impl, x[x_order], y[y_order], alpha)
    expect_close(
        moved,
        base,
        atol=caps.tolerance * max(1.0, abs(base)),
        what="D̂ after reordering the samples",
    )


@check(anchor="Wang, Zhang, Wang (ICML 2026), V2: Ĵ approaches D_α")
def check_detects_shift(impl: DivergenceEstimator, data: st.DataObject, caps: Capabilities) -> None:
    """A shift of 4 standard deviations along one axis gives D̂ >= 0.5 (true D_α >= 3.3 here)."""
    x, y = data.draw(sample_pairs(shift=0.0), label="samples")
    alpha = data.draw(st.floats(0.25, 0.75), label="alpha")
    y = y.copy()
    y[:, 0] += 4.0
    value = _value(impl, x, y, alpha)
    expect(value >= 0.5, what="D̂ for a 4-sigma shift", measured=value, allowed=">= 0.5")


def reference_estimator(X: FloatArray, Y: FloatArray, alpha: float) -> float:
    """Our estimator as a deterministic ``fn(X, Y, alpha)``: D = 32 fixed features (σ = 1,
    seed 0), full-batch projected Armijo ascent (R = 3, T = 300), in-sample value."""
    d = np.asarray(X).shape[1]
    features = dv.make_rff(d, 32, sigma=1.0, rng=np.random.default_rng(0))
    config = dv.ArmijoConfig(radius=3.0, max_iter=300, batch_size=None)
    return dv.estimate_alpha_divergence(
        X, Y, alpha, rng=np.random.default_rng(0), features=features, config=config, heldout=False
    ).value


DIVERGENCE_GAUSSIAN: Suite[GaussianDivergence] = Suite(
    name="divergence.gaussian",
    protocol=GaussianDivergence,
    checks=(
        check_matches_closed_form,
        check_zero_iff_equal,
        check_swap_symmetry,
        check_affine_invariance,
        check_product_factorisation,
    ),
    adapt=require_callable,
    description="Closed-form Gaussian alpha-divergence fn(mu1, S1, mu2, S2, alpha): G1 value, zero iff "
    "equal, (P, Q, α) -> (Q, P, 1 - α), affine invariance, product factorisation.",
)

DIVERGENCE_ESTIMATOR: Suite[DivergenceEstimator] = Suite(
    name="divergence.estimator",
    protocol=DivergenceEstimator,
    checks=(
        check_zero_on_identical_samples,
        check_nonnegative,
        check_swap_symmetry_estimator,
        check_permutation_invariance_estimator,
        check_detects_shift,
    ),
    adapt=require_callable,
    description="Alpha-divergence estimators fn(X, Y, alpha): 0 on identical samples, >= 0, "
    "(X, Y, α) -> (Y, X, 1 - α) symmetry, sample-order invariance, detects a clear shift.",
)

SUITES = (DIVERGENCE_GAUSSIAN, DIVERGENCE_ESTIMATOR)
