"""Unit tests of reference.activations: formulas, constructions, validation."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference import activations as act


def test_versions_agree_where_they_should() -> None:
    x = np.linspace(-2, 2, 41)
    p, q = np.array([0.1, 0.5, -0.3]), np.array([0.4, -0.7])
    b = act.rational(x, p, q, version="B")
    manual = np.polynomial.polynomial.polyval(x, p) / (1 + np.abs(0.4 * x - 0.7 * x * x))
    np.testing.assert_allclose(b, manual, rtol=1e-15)
    a = act.rational(x, p, q)  # the default is version A (the paper's experiments)
    want_a = np.polynomial.polynomial.polyval(x, p) / (1 + 0.4 * np.abs(x) + 0.7 * x * x)
    np.testing.assert_allclose(a, want_a, rtol=1e-15)
    assert np.max(np.abs(a - b)) > 0.05
    # version C for degrees (m, n) = (2, 3): n = 3 coefficients b_0, b_1, b_2 (powers 0..2)
    c = act.rational(x, p, np.array([1.0, 0.4, 0.7]), version="C")
    np.testing.assert_allclose(
        c, np.polynomial.polynomial.polyval(x, p) / (0.1 + np.abs(1 + 0.4 * x + 0.7 * x * x))
    )
    assert act.DEFAULT_VERSION == "A"
    assert act.DEFAULT_DEGREES == (5, 4)


def test_shapes_and_empty_denominator() -> None:
    assert act.rational(0.5, [1.0, 2.0], []).shape == ()
    assert act.rational(np.zeros((2, 3)), [1.0], [1.0]).shape == (2, 3)
    assert float(act.rational(0.5, [1.0, 2.0], [])) == 2.0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"x": [np.nan], "p": [1.0], "q": [1.0]}, "x"),
        ({"x": [1.0], "p": [], "q": [1.0]}, "p"),
        ({"x": [1.0], "p": [1.0], "q": [[1.0]]}, "q"),
        ({"x": [1.0], "p": [1.0], "q": [np.inf]}, "q"),
    ],
)
def test_rational_rejects(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        act.rational(kwargs["x"], kwargs["p"], kwargs["q"])


def test_version_is_validated() -> None:
    with pytest.raises(ValueError, match="version"):
        act.rational(1.0, [1.0], [1.0], version="D")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="q"):
        act.rational(1.0, [1.0], [], version="C")


def test_true_rational_rejects_real_poles() -> None:
    with pytest.raises(ValueError, match="real roots"):
        act.true_rational([0.0], [1.0], [1.0, 0.0, -1.0])
    with pytest.raises(ValueError, match="q"):
        act.true_rational([0.0], [1.0], [0.0, 0.0])
    assert float(act.true_rational(1.0, [1.0], [2.0])) == 0.5


def test_relu_init_is_exact_as_true_rational() -> None:
    p, q = act.relu_init()
    x = np.linspace(-3, 3, 101)
    for version in ("A", "B"):
        np.testing.assert_allclose(
            act.rational(x, p, q, version=version),
            act.true_rational(x, p, [1.0, *q]),
            rtol=0,
            atol=1e-15,
        )
    p0, q0 = act.rational_init("relu", degrees=(3, 2))
    np.testing.assert_array_equal(p0, p)
    np.testing.assert_array_equal(q0, q)


@given(
    x=st.floats(0.5, 3.0),
    p=st.lists(st.floats(-2, 2), min_size=1, max_size=5),
    q=st.lists(st.floats(0.0, 2.0), min_size=1, max_size=3),
    sign=st.sampled_from([-1.0, 1.0]),
    lead=st.floats(0.5, 2.0),
)
def test_gradient_matches_finite_differences(
    x: float, p: list[float], q: list[float], sign: float, lead: float
) -> None:
    # by construction |Q̃(x)| = x (lead + Σ q_j x^j) >= 0.25: away from the kink of |.|
    b = sign * np.array([lead, *q[1:]])
    h = 1e-6
    g = act.rational_grad(x, p, b, version="B")
    fd = (
        float(act.rational(x + h, p, b, version="B"))
        - float(act.rational(x - h, p, b, version="B"))
    ) / (2 * h)
    assert abs(fd - float(g.dx)) <= 1e-6 * (1 + abs(fd))
    want = float(act.rational(x, p, b, version="B"))
    assert float(g.value) == pytest.approx(want, rel=1e-14, abs=1e-300)
    assert g.dp.shape == (len(p),)
    assert g.dq.shape == (b.size,)


def test_fit_rational_targets() -> None:
    fit = act.fit_rational("tanh")
    assert fit.converged
    assert fit.max_error < 0.01
    assert fit.version == "A"
    assert fit.p.shape == (6,)
    assert fit.q.shape == (4,)
    gelu = act.fit_rational("gelu", degrees=(4, 3), version="B")
    assert gelu.max_error < 0.02
    assert gelu.p.shape == (5,)
    assert gelu.q.shape == (3,)
    with pytest.raises(ValueError, match="target"):
        act.fit_rational("sigmoid")
    with pytest.raises(ValueError, match="version"):
        act.fit_rational("tanh", version="C")
    with pytest.raises(ValueError, match="degrees"):
        act.fit_rational("tanh", degrees=(-1, 2))


def test_newman_small_orders_and_degrees() -> None:
    x = np.linspace(-1, 1, 11)
    np.testing.assert_allclose(act.newman_abs(1)(x), x * x, atol=1e-15)
    r = act.newman_abs(7)
    m, n = r.as_rational().degrees
    assert m <= 8
    assert n <= 7
    coeff = r.as_rational()
    np.testing.assert_allclose(coeff(x), r(x), atol=1e-9)
    with pytest.raises(ValueError, match="n"):
        act.newman_abs(0)


def test_halley_map_properties() -> None:
    h = act.halley_map()
    x = np.linspace(-1, 1, 2001)
    y = h(x)
    assert np.all(np.diff(y) > 0)
    np.testing.assert_allclose(1 - y, (1 - x) ** 3 / (1 + 3 * x**2), atol=1e-15)
    assert act.halley_sign(np.array([-1.0, 0.0, 1.0]), 5).tolist() == [-1.0, 0.0, 1.0]
    assert act.halley_steps(1.0) == 0


def test_dwh_parameters_and_composite() -> None:
    assert act.dwh_params(1.0) == (3.0, 1.0, 3.0)
    s = act.dwh_sign(1e-8)
    assert s.converged
    assert s.iterations <= 6
    assert np.all(np.diff(s.lower_bounds) > 0)
    maps = s.maps()
    comp = act.compose_rationals(list(maps[:2]))
    x = np.linspace(-1, 1, 5)
    two = act.dwh_sign(1e-8, max_iter=2)
    assert not two.converged
    assert two.iterations == 2
    np.testing.assert_allclose(comp(x), two(x), rtol=1e-10)
    assert comp.degrees == (9, 8)


def test_dwh_abs_error_and_relu() -> None:
    approx = act.dwh_abs(1e-6)
    x = np.concatenate([np.linspace(-1, 1, 20001), np.logspace(-12, 0, 2001)])
    assert np.max(np.abs(np.abs(x) - approx(x))) <= 1e-6
    relu = (x + approx(x)) / 2
    assert np.max(np.abs(relu - np.maximum(x, 0))) <= 0.5e-6


def test_compose_accepts_pairs_and_rejects_junk() -> None:
    out = act.compose_rationals([([0.0, 3.0, 0.0, 1.0], [1.0, 0.0, 3.0])] * 2)
    assert out.degrees == (9, 8)
    with pytest.raises(ValueError, match="maps"):
        act.compose_rationals([])
    with pytest.raises(TypeError, match="maps"):
        act.compose_rationals([1.0])
    with pytest.raises(ValueError, match="den"):
        act.rational_function([1.0], [0.0])


def test_yarotsky_and_product_and_exp() -> None:
    x = np.linspace(0, 1, 100001)
    for m in (1, 3, 5):
        err = np.max(np.abs(act.yarotsky_square(x, m) - x * x))
        assert err == pytest.approx(2.0 ** (-2 * m - 2), rel=1e-6)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        act.yarotsky_square([1.5], 2)
    assert float(act.product_gadget(1.5, -4.0)) == -6.0
    z = np.linspace(-3, 3, 13)
    np.testing.assert_allclose(act.exp_scaling_squaring(z, 4, 5), np.exp(z), rtol=1e-12)


def test_minimax_lp_quadratic_is_exact() -> None:
    fit = act.minimax_poly_abs_lp(2)
    assert abs(fit.error - 0.125) < 1e-9
    x = np.linspace(-1, 1, 101)
    # best quadratic is x^2 + 1/8
    np.testing.assert_allclose(fit(x), x * x + 0.125, atol=1e-8)
    with pytest.raises(ValueError, match="even"):
        act.minimax_poly_abs_lp(3)
    assert math.isclose(act.BERNSTEIN_BETA, 0.28016949902386913)


@pytest.mark.parametrize("target", ["leaky_relu", "gelu", "swish", "relu"])
def test_experiment_inits_fit_their_shapes(target: str) -> None:
    """The four shapes of the paper's runs, fitted as (5, 4) version A on [-3, 3]: the error is
    measured here against the target written out independently."""
    from scipy.special import erf

    p, q = act.rational_init(target)
    assert p.shape == (6,)
    assert q.shape == (4,)
    x = np.linspace(-3, 3, 6001)
    want = {
        "leaky_relu": np.where(x >= 0, x, 0.01 * x),
        "gelu": 0.5 * x * (1 + erf(x / np.sqrt(2))),
        "swish": x / (1 + np.exp(-x)),
        "relu": np.maximum(x, 0),
    }[target]
    got = act.rational(x, p, q, version="A")
    # kinked shapes: a (5, 4) rational cannot do much better than ~0.03 on [-3, 3]
    allowed = {"leaky_relu": 0.035, "relu": 0.035, "gelu": 0.005, "swish": 1e-5}[target]
    assert float(np.max(np.abs(got - want))) < allowed
    assert float(np.min(act.rational(x, np.ones(1), q, version="A"))) > 0  # D >= 1 > 0


def test_rational_grad_version_a_at_the_kink() -> None:
    """At ``x = 0`` the |x| terms contribute ``sign(0) = 0`` to ``dσ/dx`` and ``dσ/db_j``."""
    g = act.rational_grad(0.0, [0.5, 1.0], [2.0, -1.0])
    assert float(g.dx) == 1.0  # P'(0) D(0) / D(0)^2, D'(0) taken as 0
    assert g.dq.tolist() == [0.0, 0.0]
    g = act.rational_grad(0.5, [0.5, 1.0], [2.0, -1.0])
    d = 1 + 2 * 0.5 + 0.25
    assert g.dq.tolist() == pytest.approx([-1.0 * 0.5 / d**2, 1.0 * 0.25 / d**2])
