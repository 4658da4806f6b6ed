"""Unit tests of reference.activations.composite (spec 16 §8.2 constructions)."""

from __future__ import annotations

import math

import mpmath  # type: ignore[import-untyped]  # sympy's dependency
import numpy as np
import pytest

from reference import activations as act


def test_pth_root_layer_zero_and_p2_closed_form() -> None:
    # layers = 0 is the constant 2 alpha_0 / (1 + alpha_0)
    x = np.geomspace(0.25**3, 1.0, 7)
    np.testing.assert_allclose(act.pth_root(x, 3, alpha0=0.25, layers=0), 0.4, rtol=1e-15)
    # p = 2: mu_0 = sqrt(alpha_0), alpha_1 = 2 sqrt(alpha_0) / (1 + alpha_0)
    a = act.pth_root_alphas(2, 0.09, 2)
    assert float(a[1]) == pytest.approx(2 * 0.3 / 1.09, rel=1e-15)
    f1 = (0.3 + x / 0.3) / 2  # ((p-1) mu f_0 + x / (mu f_0)) / p with f_0 = 1
    np.testing.assert_allclose(
        act.pth_root(x, 2, alpha0=0.09, layers=1), 2 * a[1] / (1 + a[1]) * f1, rtol=1e-15
    )


def test_pth_root_equioscillates_with_delta_k() -> None:
    p, a0 = 4, 0.1
    x = np.geomspace(a0**p, 1.0, 100_001)
    for k in range(4):
        alpha = float(act.pth_root_alphas(p, a0, k)[-1])
        delta = (1 - alpha) / (1 + alpha)
        rel = act.pth_root(x, p, alpha0=a0, layers=k) / x ** (1 / p) - 1
        assert float(np.max(rel)) == pytest.approx(delta, rel=1e-8)
        assert float(-np.min(rel)) == pytest.approx(delta, rel=1e-6)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: act.pth_root(0.5, 1, alpha0=0.5, layers=1), "p"),
        (lambda: act.pth_root(0.5, 2, alpha0=1.0, layers=1), "alpha0"),
        (lambda: act.pth_root(0.5, 2, alpha0=0.5, layers=-1), "layers"),
        (lambda: act.pth_root(-0.5, 2, alpha0=0.5, layers=1), "x"),
        (lambda: act.log_agm(0.0, layers=3), "x"),
        (lambda: act.log_agm(1e200, layers=3), "x"),
        (lambda: act.tanh_halley(1.0, layers=1), "s"),
        (lambda: act.tanh_halley(0.1, layers=-2), "layers"),
        (lambda: act.gelu_pole(branches=0), "branches"),
    ],
)
def test_validation(call: object, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        call()  # type: ignore[operator]


def test_log_agm_values_and_reduction() -> None:
    x = np.array([1e-100, 0.3, 0.5, 0.9, 1.0, 1.7, 2.0, 10.0, 1e100])
    got = act.log_agm(x, layers=16)
    want = np.array([float(mpmath.log(v)) for v in x])
    assert float(np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want)))) < 2e-15
    # layers = 0: pi / (4 theta_3(q^4)^2) at q = 1/10, theta_3 by mpmath
    theta3 = float(mpmath.jtheta(3, 0, mpmath.mpf(10) ** -4))
    assert float(act.log_agm(10.0, layers=0)) == pytest.approx(math.pi / (4 * theta3**2), rel=1e-15)


def test_tanh_halley_converges_cubically_and_keeps_shape() -> None:
    s = np.linspace(-0.125, 0.125, 11).reshape(11, 1)
    out = act.tanh_halley(s, layers=2)
    assert out.shape == s.shape
    np.testing.assert_allclose(out, np.tanh(s), rtol=0, atol=2e-17)
    np.testing.assert_array_equal(act.tanh_halley(s, layers=0), s)


def test_gelu_pole_is_a_pole_of_the_tanh_argument() -> None:
    pole = act.gelu_pole()
    z = pole.pole
    arg = math.sqrt(2 / math.pi) * (z + act.GELU_CUBIC * z**3)
    assert abs(arg - 1j * math.pi / 2) < 1e-13  # cosh(arg) = 0: tanh has a pole there
    # the ellipse with foci ±1 through z: semi-major axis (|z - 1| + |z + 1|) / 2
    semi = (abs(z - 1) + abs(z + 1)) / 2
    assert pole.rho == pytest.approx(semi + math.sqrt(semi * semi - 1), rel=1e-13)
    assert 5.0 < pole.rho < 6.5
    assert float(act.gelu_tanh(1.0)) == pytest.approx(
        0.5 * (1 + math.tanh(math.sqrt(2 / math.pi) * 1.044715)), rel=1e-15
    )


def test_gelu_composite_is_x_sigmoid_of_the_pade_exp_and_counts_its_maps() -> None:
    x = np.linspace(-1.0, 1.0, 101).reshape(101, 1)
    # q = 0: R_{0,0} = 1, so E = 1 and the composite is x/2 whatever the squarings
    np.testing.assert_array_equal(act.gelu_composite(x, q=0, squarings=2), x / 2.0)
    # q = 1: R_{1,1}(h) = (2 + h)/(2 - h); written out here
    h = 2 * math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)
    big_e = (2 + h) / (2 - h)
    np.testing.assert_allclose(
        act.gelu_composite(x, q=1, squarings=0), x * big_e / (1 + big_e), rtol=1e-15, atol=1e-17
    )
    assert act.gelu_composite(x, q=2, squarings=1).shape == (101, 1)
    # against 40-digit GELU: the error falls with q and with the squarings
    with mpmath.workdps(40):
        pts = [mpmath.mpf(float(v)) for v in np.linspace(-1.0, 1.0, 41)]
        exact = np.array(
            [
                float(
                    t
                    / 2
                    * (
                        1
                        + mpmath.tanh(
                            mpmath.sqrt(2 / mpmath.pi) * (t + mpmath.mpf("0.044715") * t**3)
                        )
                    )
                )
                for t in pts
            ]
        )
    grid = np.linspace(-1.0, 1.0, 41)
    errs = {
        (q, k): float(np.max(np.abs(act.gelu_composite(grid, q=q, squarings=k) - exact)))
        for q in (1, 2, 3)
        for k in (0, 2)
    }
    assert errs[(3, 0)] < errs[(2, 0)] < errs[(1, 0)]
    for q in (1, 2, 3):
        assert errs[(q, 2)] < errs[(q, 0)]
    # N = sum over the maps of m + n + 1: cubic 4, Padé 2q+1, squarings 3 each, Möbius 3, product 1
    assert act.gelu_composite_params(0, 0) == 9
    assert act.gelu_composite_params(5, 2) == 4 + 11 + 6 + 3 + 1
    with pytest.raises(ValueError, match="q"):
        act.gelu_composite(0.5, q=-1, squarings=0)
    with pytest.raises(TypeError, match="squarings"):
        act.gelu_composite_params(1, 1.5)  # type: ignore[arg-type]
