"""Theorem checks of spec 05: hold on real runs, fail when the hypothesis is violated."""

from __future__ import annotations

import pytest
import sympy

from proofs_numeric import ProveProfile
from proofs_numeric import stability as hs
from proofs_numeric._registry import _REGISTRY
from reference import stability as reference_stability

QUICK = ProveProfile.named("quick")


def test_drivers_registered_and_hold() -> None:
    # read the registry directly: all_theorems() imports every family (some may be mid-edit)
    entries = {n: e for n, e in _REGISTRY.items() if e.family == "stability"}
    assert {
        "stability.pareto_closed_forms",
        "stability.truncation_lemma",
        "stability.student_t_moment",
        "stability.heavy_tailed_mean",
        "stability.clipped_sgd_coupling",
    } <= set(entries)
    for name in ("stability.truncation_lemma", "stability.heavy_tailed_mean"):
        assert entries[name].driver(QUICK).holds


def test_closed_forms_sympy() -> None:
    r = sympy.Rational
    assert hs.pareto_closed_forms(r(3, 2), r(1), r(2), r(6, 5)).holds


def test_truncation_lemma_tight_at_tau_equal_scale() -> None:
    # at tau = x_m the second-moment bound M tau^(2-p) vs E min(R, tau)^2 = x_m^2: ratio -> 1 as p -> 2
    check = hs.truncation_lemma(a=3.0, p=2.0, tau=1.0)
    assert check.holds
    assert check.ratio > 0.3


def test_truncation_lemma_fails_outside_its_hypothesis() -> None:
    # p > 2 is outside the lemma: min(r, tau)^2 <= r^p tau^(2-p) no longer bounds the second
    # moment for large tau; reproduce the inequality by hand with p = 3 (a = 4)
    from reference.stability import pareto_clipped_second_moment, pareto_moment

    m = pareto_moment(3.0, tail=4.0)
    assert pareto_clipped_second_moment(100.0, tail=4.0) > m * 100.0 ** (2.0 - 3.0)


def test_student_t_and_mean_bound() -> None:
    assert hs.student_t_moment(nu=3.0, p=1.2).holds
    check = hs.mean_bound(a=1.8, p=1.4, n=50, d=3, reps=100, seed=0)
    assert check.holds
    assert check.ratio < 1


def test_coupling_bound_holds_and_fails_for_a_wrong_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    ok = hs.coupling_bound(variant="S1", n=20, steps=100, runs=40, seed=0)
    assert ok.holds
    assert 0.1 < ok.ratio <= 1.0  # spec 05: measured about 0.062 vs bound 0.170
    monkeypatch.setattr(hs, "clipped_sgd_stability_bound", lambda **kw: 1e-4)
    assert not hs.coupling_bound(variant="S1", n=20, steps=100, runs=40, seed=0).holds


def test_closed_forms_catch_a_wrong_library_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 17: the sympy check used to re-type the formulas; it now calls the library, so a
    # doubled moment (or a wrong exponent in the tail excess) is a measured relative error
    r = sympy.Rational
    grid = (r(3, 2), r(1), r(2), r(6, 5))
    ok = hs.pareto_closed_forms(*grid)
    assert ok.holds
    assert ok.measured < 1e-14
    real_moment, real_excess = (
        reference_stability.pareto_moment,
        reference_stability.pareto_tail_excess,
    )
    monkeypatch.setattr(hs, "pareto_moment", lambda p, **kw: 2.0 * real_moment(p, **kw))
    doubled = hs.pareto_closed_forms(*grid)
    assert not doubled.holds
    assert doubled.measured == pytest.approx(1.0)  # relative error of a doubled moment
    monkeypatch.setattr(hs, "pareto_moment", real_moment)
    monkeypatch.setattr(
        hs,
        "pareto_tail_excess",
        lambda tau, *, tail, scale=1.0: real_excess(tau, tail=tail + 0.1, scale=scale),
    )
    assert hs.pareto_closed_forms(*grid).measured > 1e-3
