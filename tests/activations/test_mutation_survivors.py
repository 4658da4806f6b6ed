"""Tests written for the mutants mutmut left alive in reference/activations (issue 17, point 8).

Expected values come from the definitions (Halley's map iterated in exact arithmetic, the exact
GELU with ``math.erf``, the DWH step's fixed point ``f(1) = 1`` and oddness, the documented
domains), never from the library's output.  The triage of every survivor is in
benchmarks/results/mutation_activations.md.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from reference import activations as act


def _halley_count(lower: Fraction, tol: Fraction) -> int:
    """Steps of ``h(v) = v (3 + v²) / (1 + 3 v²)`` from ``lower`` until ``v >= 1 - tol``."""
    value, count = lower, 0
    while value < 1 - tol:
        value = value * (3 + value * value) / (1 + 3 * value * value)
        count += 1
    return count


@pytest.mark.parametrize("lower", ["1/100", "1/3", "9/10"])
def test_halley_steps_counts_exact_halley_iterations(lower: str) -> None:
    start = Fraction(lower)
    expected = _halley_count(start, Fraction(1, 10**12))
    assert act.halley_steps(float(start), tol=1e-12) == expected


def test_halley_abs_is_close_to_abs() -> None:
    """``x h^K(x)`` with ``0 <= x h^K(x) <= |x|`` on [-1, 1], and 8 steps reach |x| from 1/4."""
    x = np.array([-0.5, -0.25, 0.0, 0.25, 1.0])
    out = act.halley_abs(x, 8)
    assert np.all(out >= 0.0)
    assert np.all(out <= np.abs(x) + 1e-15)
    np.testing.assert_allclose(out, np.abs(x), atol=1e-12)


@pytest.mark.parametrize("lower", [1e-3, 0.1, 0.5])
def test_dwh_step_is_odd_and_fixes_one(lower: float) -> None:
    """``f(x) = x (a + b x²)/(1 + c x²)`` with ``c = a + b - 1``: ``f(1) = 1`` and ``f`` is odd."""
    step = act.dwh_step_map(lower)
    x = np.array([0.3, 0.7, 1.0])
    np.testing.assert_allclose(step(np.array([1.0])), [1.0], rtol=1e-12)
    np.testing.assert_allclose(step(-x), -step(x), rtol=1e-12)


@pytest.mark.parametrize("l0", [1e-6, 0.1])
def test_dwh_residual_is_one_minus_the_last_bound(l0: float) -> None:
    """``residual = 1 - l_K`` with ``l_K = s_K(l_0)`` evaluated through the composite itself;
    a converged composite has ``residual <= tol``."""
    comp = act.dwh_sign(l0, tol=1e-12)
    last = float(comp(np.array([l0]))[0])
    assert comp.converged
    assert comp.residual <= 1e-12
    assert comp.residual == pytest.approx(1.0 - last, abs=1e-12)


def test_gelu_fit_targets_the_exact_gelu() -> None:
    """The reported max error equals the error against GELU(x) = x Φ(x) recomputed with math.erf."""
    fit = act.fit_rational("gelu")
    xs = np.linspace(-3.0, 3.0, 2001)
    gelu = np.array([0.5 * v * (1.0 + math.erf(v / math.sqrt(2.0))) for v in xs])
    err = float(np.max(np.abs(act.rational(xs, fit.p, fit.q) - gelu)))
    assert err == pytest.approx(fit.max_error, abs=1e-12)


def test_fit_respects_the_evaluation_budget() -> None:
    assert act.fit_rational("tanh", max_iter=3).iterations <= 3


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: act.dwh_params(0.0), "lower"),
        (lambda: act.dwh_sign(0.1, tol=0.0), "tol"),
        (lambda: act.halley_steps(0.1, tol=0.0), "tol"),
        (lambda: act.fit_rational("tanh", degrees=(2, -1)), "degrees"),
        (lambda: act.fit_rational("tanh", max_iter=0), "max_iter"),
        (lambda: act.fit_rational("tanh", interval=(-1.0, 0.0, 1.0)), "interval"),  # type: ignore[arg-type]
    ],
)
def test_out_of_domain_arguments_raise_value_error(call: object, name: str) -> None:
    assert callable(call)
    with pytest.raises(ValueError, match=name):
        call()


def test_version_c_takes_a_constant_denominator() -> None:
    """Version C with ``q = (b_0,)``: ``σ(x) = P(x) / (0.1 + |b_0|)``, here ``(1 + 2x)/2.1``."""
    x = np.array([-1.0, 0.0, 0.5])
    out = act.rational(x, [1.0, 2.0], [-2.0], version="C")
    np.testing.assert_allclose(out, (1.0 + 2.0 * x) / 2.1, rtol=1e-15)
