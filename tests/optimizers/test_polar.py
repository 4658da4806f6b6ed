"""reference.optimizers.polar: Newton-Schulz quintic and exact polar factor (the helpers issue 8 imports)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import scipy.linalg
from hypothesis import given
from hypothesis import strategies as st

from reference.optimizers.polar import (
    NS_COEFFICIENTS,
    NS_STEPS,
    newton_schulz,
    ns_scalar_map,
    polar,
)


def test_public_signatures_are_stable() -> None:
    ns = inspect.signature(newton_schulz)
    assert list(ns.parameters)[:4] == ["matrix", "steps", "coefficients", "eps"]
    assert ns.parameters["steps"].default == 5
    assert ns.parameters["coefficients"].default == (3.4445, -4.7750, 2.0315)
    assert ns.parameters["eps"].default == 1e-7
    assert next(iter(inspect.signature(polar).parameters)) == "matrix"
    assert (NS_STEPS, NS_COEFFICIENTS) == (5, (3.4445, -4.7750, 2.0315))


def test_scalar_map_facts() -> None:
    # spec 14 §5: phi'(0) = a, phi(1) = 0.701, zero stays zero
    assert float(ns_scalar_map(1.0, steps=1)) == pytest.approx(0.701, abs=1e-12)
    assert float(ns_scalar_map(1e-9, steps=1)) == pytest.approx(3.4445e-9, rel=1e-9)
    assert float(ns_scalar_map(0.0)) == 0.0


@given(seed=st.integers(0, 2**32 - 1), m=st.integers(1, 7), n=st.integers(1, 7))
def test_newton_schulz_spectral_identity(seed: int, m: int, n: int) -> None:
    g = np.random.default_rng(seed).normal(size=(m, n))
    p, s, qt = np.linalg.svd(g, full_matrices=False)
    expected = (p * ns_scalar_map(s / (np.linalg.norm(g) + 1e-7))) @ qt
    out = newton_schulz(g)
    assert out.shape == (m, n)
    assert np.max(np.abs(out - expected)) < 1e-10
    assert np.max(np.abs(newton_schulz(g.T) - out.T)) < 1e-12


def test_newton_schulz_keeps_zero_singular_values_and_zero_matrix() -> None:
    rng = np.random.default_rng(0)
    g = np.outer(rng.normal(size=4), rng.normal(size=3))  # rank one
    sv = np.linalg.svd(newton_schulz(g), compute_uv=False)
    assert sv[1] < 1e-12
    assert not np.any(newton_schulz(np.zeros((2, 3))))
    assert not np.any(newton_schulz(np.zeros((2, 3)), eps=0.0))


def test_polar_matches_scipy_and_is_partial_isometry() -> None:
    rng = np.random.default_rng(1)
    g = rng.normal(size=(4, 4))
    assert np.allclose(polar(g), scipy.linalg.polar(g)[0], atol=1e-12)
    h = rng.normal(size=(5, 2)) @ rng.normal(size=(2, 3))  # rank 2
    o = polar(h)
    assert np.allclose(o @ o.T @ o, o, atol=1e-12)
    assert np.allclose(np.linalg.svd(o, compute_uv=False), [1.0, 1.0, 0.0], atol=1e-10)
    assert float(np.vdot(h, o)) == pytest.approx(float(np.sum(np.linalg.svd(h, compute_uv=False))))


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: newton_schulz(np.ones(3)), "matrix"),
        (lambda: newton_schulz(np.ones((2, 2)), steps=0), "steps"),
        (lambda: newton_schulz(np.ones((2, 2)), eps=-1.0), "eps"),
        (lambda: newton_schulz(np.ones((2, 2)), coefficients=(1.0, 2.0)), "coefficients"),  # type: ignore[arg-type]
        (lambda: newton_schulz(np.full((2, 2), np.nan)), "matrix"),
        (lambda: polar(np.ones((2, 2)), rtol=1.0), "rtol"),
        (lambda: polar(np.ones((0, 2))), "matrix"),
    ],
)
def test_bad_input_names_the_argument(call: object, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        call()  # type: ignore[operator]
