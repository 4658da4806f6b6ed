"""Regression tests: payoffs whose spectral norm is subnormal.

Found by a full mutmut run of reference/perturbation (issue 36, item 6): with
``0 < ||A||_2 < 1/DBL_MAX`` (about ``5.6e-309``) ``default_step_size`` returned ``inf``, ``gda``
with its default step returned NaN strategies, and ``parameter_free`` returned NaN strategies
and a NaN NashConv with ``stop_reason="max_iter"`` -- a silent NaN where the contract allows
only a finite result or a documented ValueError.  Now every default step that would overflow
is rejected with a ValueError naming the payoff; a payoff just above the threshold, or a
subnormal payoff with a large enough ``mu`` or an explicit ``step_size``, still runs.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

from reference import perturbation as pert
from reference.perturbation import fast

RPS = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])  # ||RPS||_2 = sqrt(3)
TINY = RPS * 1e-309  # ||A||_2 ~ 1.7e-309: subnormal, 1/||A||_2 overflows
SMALL = RPS * 1e-300  # ||A||_2 ~ 1.7e-300: normal, 1/||A||_2 ~ 5.8e299 is finite


def _norm(a: np.ndarray) -> float:
    """Spectral norm from the singular values, recomputed here."""
    return float(np.max(np.linalg.svd(a, compute_uv=False)))


def test_the_instances_sit_on_either_side_of_the_threshold() -> None:
    assert 0.0 < _norm(TINY) < sys.float_info.min  # subnormal
    assert _norm(SMALL) > sys.float_info.min
    assert np.isfinite(1.0 / _norm(SMALL))


def test_default_step_size_rejects_a_norm_whose_reciprocal_overflows() -> None:
    with pytest.raises(ValueError, match="payoff"):
        pert.default_step_size(TINY)
    with pytest.raises(ValueError, match="payoff"):
        pert.default_step_size(np.zeros((2, 2)), mu=1e-320)  # μ + ||A||_2 = μ, subnormal


def test_default_step_size_is_finite_next_to_the_threshold() -> None:
    step = pert.default_step_size(SMALL)
    assert np.isfinite(step)
    assert step == pytest.approx(1.0 / _norm(SMALL), rel=1e-12)
    # a subnormal payoff with a normal μ: η = 1/(μ + ||A||_2) ~ 1/μ
    assert pert.default_step_size(TINY, mu=0.5) == pytest.approx(2.0, rel=1e-12)


@pytest.mark.parametrize(
    "call",
    [
        lambda a: pert.parameter_free(a),
        lambda a: pert.parameter_free(a, mu_init=1.0),  # η_k -> 1/||A||_2 as μ_k is halved
        lambda a: pert.gda(a),
        lambda a: pert.ogda(a),
        lambda a: pert.asymp_gda(a, mu=1e-320),
        lambda a: pert.symp_gda(a, mu=1e-320),
        lambda a: pert.asymp_gda_side(a, mu=1e-320),
        lambda a: fast.parameter_free(a),
        lambda a: fast.ogda(a),
    ],
    ids=[
        "parameter_free",
        "parameter_free mu_init",
        "gda",
        "ogda",
        "asymp_gda",
        "symp_gda",
        "asymp_gda_side",
        "fast parameter_free",
        "fast ogda",
    ],
)
def test_methods_reject_a_subnormal_payoff_with_a_default_step(call: object) -> None:
    assert callable(call)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning on the way to the ValueError
        with pytest.raises(ValueError, match="payoff"):
            call(TINY)


CLOSED = np.array([[2.0, -1.0], [-1.0, 1.0]])  # interior equilibrium x = (0.4, 0.6)
SCALE = 1e-300  # ||SCALE · CLOSED||_2 ~ 2.6e-300: normal, its reciprocal finite


@pytest.mark.parametrize("method", [pert.gda, pert.ogda], ids=["gda", "ogda"])
def test_default_step_runs_are_scale_invariant_just_above_the_threshold(method: object) -> None:
    # η = c/||A||_2 makes η·(sA) = η·A: the run on s·A with tolerance s·ε visits the same
    # strategies as the run on A with ε (up to rounding), however small s is while 1/||sA||_2
    # stays finite
    assert callable(method)
    unit = method(CLOSED, tol=1e-12, max_iter=500)
    tiny = method(SCALE * CLOSED, tol=SCALE * 1e-12, max_iter=500)
    assert np.all(np.isfinite(tiny.x))
    assert np.all(np.isfinite(tiny.y))
    np.testing.assert_allclose(tiny.x, unit.x, rtol=0, atol=1e-9)
    np.testing.assert_allclose(tiny.y, unit.y, rtol=0, atol=1e-9)
    assert tiny.converged == unit.converged


def test_parameter_free_result_is_finite_just_above_the_threshold() -> None:
    a = SCALE * CLOSED
    res = pert.parameter_free(a, tol=SCALE * 1e-12, max_iter=5000)
    assert np.all(np.isfinite(res.x))
    assert np.all(np.isfinite(res.y))
    value = float(np.max(res.x @ a) - np.min(a @ res.y))  # NashConv recomputed here
    assert np.isfinite(res.nash_conv)
    assert res.converged == (value <= SCALE * 1e-12)


def test_a_subnormal_payoff_runs_with_an_explicit_step() -> None:
    # the rejection is about the default step only: with η given, the run is finite
    a = np.array([[3e-309, 1e-309], [0.0, 2e-309]])
    res = pert.gda(a, step_size=1.0, max_iter=50)
    assert np.all(np.isfinite(res.x))
    assert np.all(np.isfinite(res.y))
    assert np.isfinite(res.nash_conv)
