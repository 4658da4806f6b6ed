"""Spec 16 theorem checks hold, can fail, and are tight where the spec gives an extremal case."""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
import pytest
from hypothesis import given, settings, target
from hypothesis import strategies as st
from numpy.typing import ArrayLike

from proofs_numeric import ProveProfile, all_theorems
from proofs_numeric import activations as ra
from reference import activations as act
from reference._arrays import FloatArray

GRID = ra.spec_grid()


#: Drivers cheap enough for the default gate; the grid-heavy ones are run by `verifiedref prove`
#: and their theorem functions are tested one by one below.
CHEAP = (
    "activations.newman_rate",
    "activations.halley_identities",
    "activations.halley_steps",
    "activations.dwh_steps",
    "activations.gradients",
    "activations.near_pole",
)


def test_drivers_registered_and_cheap_ones_hold() -> None:
    from proofs_numeric._registry import _REGISTRY  # no import of the other families' modules

    entries = {k: e for k, e in _REGISTRY.items() if e.family == "activations"}
    assert len(entries) >= 11
    for name in CHEAP:
        result = entries[name].driver(ProveProfile.named("quick"))
        assert result.holds, (name, result)


@pytest.mark.slow
def test_all_drivers_hold_quick() -> None:
    for entry in all_theorems("activations"):
        result = entry.driver(ProveProfile.named("quick"))
        assert result.holds, (entry.name, result)


@settings(max_examples=10)
@given(n=st.integers(1, 60))
def test_newman_bound_holds(n: int) -> None:
    check = ra.newman_bound(n, GRID)
    target(check.ratio, label="error / Newman bound")
    assert check.holds, check


def test_newman_checks_fail_for_a_broken_construction() -> None:
    def bad(n: int) -> Any:
        return act.newman_abs(max(1, n // 8))  # far too few nodes

    assert not ra.newman_bound(49, GRID, construct=bad).holds

    def polynomial(n: int) -> Any:
        return act.minimax_poly_abs_lp(2 * (n // 2), grid_size=2001)

    assert not ra.newman_rate((16, 36, 64), GRID, construct=polynomial).holds


def test_halley_and_dwh_counts_can_fail() -> None:
    def loglog(lower: float) -> int:
        return act.dwh_sign(lower).iterations

    assert not ra.halley_step_rate(counter=loglog).holds
    check = ra.dwh_step_count()
    assert check.holds
    assert check.ratio == 1.0  # tight: l0 = 1e-16 needs exactly 6 steps


def test_dwh_abs_accuracy_and_failure() -> None:
    for eps in (1e-2, 1e-8):
        assert ra.dwh_abs_accuracy(eps, GRID).holds

    def short(eps: float) -> act.DWHAbs:
        return act.DWHAbs(eps=eps, sign=act.dwh_sign(eps, tol=eps, max_iter=1))

    assert not ra.dwh_abs_accuracy(1e-8, GRID, construct=short).holds


def test_yarotsky_is_exact_and_a_broken_sawtooth_fails() -> None:
    check = ra.yarotsky_error(4, points=100_001)
    assert check.holds
    assert check.ratio == pytest.approx(1.0, rel=1e-6)  # the bound is attained exactly

    def skip_layer(x: FloatArray, m: int) -> FloatArray:
        return act.yarotsky_square(x, m - 1)

    assert not ra.yarotsky_error(4, points=100_001, square=skip_layer).holds


def test_bernstein_exact_quadratic_and_coarse_grid_fails() -> None:
    assert ra.bernstein_polynomial(degrees=(4, 8)).holds
    # 1000 points of [0, 1] miss the extremal point 1/2: E_2 is underestimated beyond 1e-9
    assert not ra.bernstein_polynomial(degrees=(4, 8), grid_size=1000).holds


def test_relu_init_and_perturbed_init() -> None:
    assert ra.relu_init_quality(GRID).holds
    p, q = act.relu_init()
    assert not ra.relu_init_quality(GRID, init=(p + 0.05, q)).holds


def test_gradient_checks_and_a_sign_error() -> None:
    rng = np.random.default_rng(0)
    versions: tuple[Literal["A", "B"], ...] = ("A", "B")
    for version in versions:
        assert ra.gradient_formulas(rng, 8, version=version).holds
    assert ra.gradient_identities().holds

    def wrong(x: float, p: FloatArray, q: FloatArray, *, version: str) -> act.RationalGrad:
        g = act.rational_grad(x, p, q, version=version)  # type: ignore[arg-type]
        return act.RationalGrad(value=g.value, dx=g.dx, dp=g.dp, dq=-np.asarray(g.dq))

    for version in versions:
        assert not ra.gradient_formulas(rng, 8, grad=wrong, version=version).holds
    # version B's formulas are not version A's gradients
    b_for_a = lambda x, p, q, *, version: act.rational_grad(x, p, q, version="B")  # noqa: E731
    assert not ra.gradient_formulas(rng, 8, grad=b_for_a, version="A").holds


def test_symbolic_identities() -> None:
    assert ra.halley_identities(2).holds
    assert ra.dwh_identities().holds


def test_near_pole_curvature_needs_small_eta() -> None:
    assert ra.near_pole_curvature(1e-4).holds
    assert not ra.near_pole_curvature(1e-4, eta_factor=2.0).holds
    assert math.isfinite(ra.near_pole_curvature(1e-8).measured)


def test_halley_identities_use_the_library_coefficients(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 17: the sympy identities were proved for a re-typed h; they are now built from
    # halley_map()'s coefficients, and halley_sign is compared with the exact composite
    assert ra.halley_identities(2).measured == 0.0

    def wrong_denominator() -> act.RationalFunction:
        return act.RationalFunction(
            num=np.array([0.0, 3.0, 0.0, 1.0]), den=np.array([1.0, 0.0, 2.0])
        )

    monkeypatch.setattr(ra, "halley_map", wrong_denominator)
    wrong = ra.halley_identities(2)
    assert not wrong.holds
    assert wrong.measured >= 3  # 1 - h, h(1) = 1 and the halley_sign comparisons fail
    monkeypatch.undo()

    def two_steps_in_one(x: ArrayLike, steps: int) -> FloatArray:
        return act.halley_sign(x, steps + 1)  # off by one in the loop

    monkeypatch.setattr(ra, "halley_sign", two_steps_in_one)
    off_by_one = ra.halley_identities(2)
    assert not off_by_one.holds
    assert off_by_one.measured == 6  # 3 points x 2 depths


# ----------------------------------------------------------------------------- §8.2 checks


@settings(max_examples=8, deadline=None)
@given(p=st.integers(2, 6), alpha0=st.floats(0.02, 0.9))
def test_pth_root_checks_hold_on_drawn_instances(p: int, alpha0: float) -> None:
    exact = ra.pth_root_exact_error(p, alpha0, layers=4)
    assert exact.holds, exact
    quad = ra.pth_root_quadratic(p, alpha0, layers=5)
    assert quad.holds, quad
    target(float(quad.ratio), label="delta_{k+1} / (C delta_k^2)")


@settings(max_examples=8, deadline=None)
@given(x=st.floats(2.0, 1e100))
def test_log_agm_quadratic_on_drawn_points(x: float) -> None:
    check = ra.log_agm_quadratic(x, layers=14)
    assert check.holds, check
    target(float(check.ratio), label="e_{k+1} / (C_k e_k^2)")


@settings(max_examples=10, deadline=None)
@given(s=st.floats(0.06, 0.125), sign=st.sampled_from([-1.0, 1.0]))
def test_tanh_halley_cubic_on_drawn_points(s: float, sign: float) -> None:
    check = ra.tanh_halley_cubic((sign * s,))
    assert check.holds, check


def test_rate_checks_are_tight_on_the_extremal_instances() -> None:
    """Slack near 1 where the theorem is tight: the exact error delta_k (equality), the
    asymptotic p-th root ratio (p - 1)/4 = 1 at p = 5, Halley's constant at s = 1/8."""
    assert ra.pth_root_quadratic(5, 0.2).ratio == pytest.approx(1.0, abs=1e-4)
    cubic = ra.tanh_halley_cubic((0.125,))
    assert cubic.holds
    assert cubic.ratio == pytest.approx(1.0, abs=1e-3)


def test_gelu_composite_check_holds_both_ways() -> None:
    """E3: the polynomial wins at N <= 23 (measured in float64), the composite at N >= 30."""
    check = ra.gelu_composite_vs_polynomial()
    assert check.holds, check
    assert check.subchecks >= 20
