"""Invariant-subspace references, suites with teeth, and the spec 08 checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from scipy.linalg import subspace_angles

from proofs_numeric import BoundCheck, ProveProfile, all_theorems
from proofs_numeric import invariance as ir
from properties import run_suite
from properties.invariance import DISTANCE, ESTIMATOR, reference_estimator
from reference import invariance as inv
from tests.invariance import mutants as mut


def test_distance_against_principal_angles_and_complements() -> None:
    rng = np.random.default_rng(0)
    u, v = rng.standard_normal((2, 7, 3))
    want = 2 * np.sum(np.sin(subspace_angles(u, v)) ** 2)
    assert inv.subspace_distance(u, v) == pytest.approx(want, abs=1e-10)
    comp_u = np.linalg.svd(u, full_matrices=True)[0][:, 3:]
    comp_v = np.linalg.svd(v, full_matrices=True)[0][:, 3:]
    assert inv.subspace_distance(comp_u, comp_v) == pytest.approx(
        inv.subspace_distance(u, v), abs=1e-10
    )
    with pytest.raises(ValueError, match="independent"):
        inv.subspace_distance(np.ones((3, 2)), np.eye(3)[:, :2])


def test_generator_design_and_gamma() -> None:
    inst = inv.make_instance(6, 2, 8, 50, 2.0, rng=np.random.default_rng(1))
    assert inst.gamma == pytest.approx(2.0)
    np.testing.assert_allclose(inv.population_drift_matrix(inst), 8**2 * 2.0**2 / 4 * np.eye(4))
    np.testing.assert_allclose(inst.basis.T @ inst.basis, np.eye(2), atol=1e-12)
    # C1: the invariant regression is the same in every environment (population: same w*, same noise)
    slopes = [np.linalg.lstsq(x @ inst.basis, y, rcond=None)[0] for x, y in inst.environments]
    assert np.ptp(np.array(slopes), axis=0).max() < 0.6


def test_estimator_result_and_identifiability_flag() -> None:
    inst = inv.make_instance(6, 2, 8, 2000, 2.0, rng=np.random.default_rng(2))
    est = inv.estimate_invariant_subspace(inst, 2)
    assert inv.subspace_distance(est.basis, inst.basis) < 0.01
    assert est.identifiable
    assert est.eigengap > 2
    few = inv.make_instance(6, 2, 3, 200, 2.0, rng=np.random.default_rng(3))
    assert not inv.estimate_invariant_subspace(few, 2).identifiable
    with pytest.raises(ValueError, match="at least 2 environments"):
        inv.estimate_invariant_subspace(inst.environments[:1], 2)
    with pytest.raises(ValueError, match="k: expected an integer <= 5"):
        inv.estimate_invariant_subspace(inst, 6)


def test_gamma_hat_diagnostic() -> None:
    inst = inv.make_instance(5, 1, 8, 3000, 2.0, rng=np.random.default_rng(4), rotate=False)
    assert inv.gamma_hat(inst) > 0.2
    same = [inst.environments[0]] * 3  # identical environments: no diversity
    assert inv.gamma_hat(same) == 0.0
    flags = inv.drift_flags(inst)
    assert flags[0] == 0.0
    assert flags[1:].sum() == 4


def test_exhaustive_search_matches_score() -> None:
    inst = inv.make_instance(3, 1, 4, 500, 2.0, rng=np.random.default_rng(5))
    cands = inv.fibonacci_sphere(300)
    best = inv.exhaustive_search_k1(inst.environments, cands)
    scores = [inv.score_s(c, inst.environments) for c in cands]
    np.testing.assert_allclose(
        best, cands[int(np.argmax(scores))] / np.linalg.norm(cands[int(np.argmax(scores))])
    )


def test_reference_suites_pass() -> None:
    assert run_suite(inv.subspace_distance, DISTANCE, profile="smoke").ok
    report = run_suite(reference_estimator, ESTIMATOR, profile="smoke")
    assert report.ok, report.format(verbose=False)


@pytest.mark.parametrize(
    ("mutant", "suite", "must_fail"),
    [
        (mut.distance_no_orthonormalisation, DISTANCE, {"principal_angles"}),
        (mut.distance_not_squared, DISTANCE, {"principal_angles"}),
        (mut.distance_one_sided, DISTANCE, {"principal_angles"}),
        (mut.estimator_largest, ESTIMATOR, {"consistent"}),
        (mut.estimator_uncentred, ESTIMATOR, {"scale_shift_invariance"}),
        (mut.estimator_first_env_only, ESTIMATOR, {"consistent"}),
    ],
    ids=lambda v: getattr(v, "__name__", None) or getattr(v, "name", None) or "set",
)
def test_mutants_fail(mutant: Callable[..., Any], suite: Any, must_fail: set[str]) -> None:
    report = run_suite(mutant, suite, profile="smoke")
    assert must_fail <= {r.name for r in report.failed}, report.format(verbose=False)


def test_quick_checks_hold() -> None:
    for entry in all_theorems("invariance", profile="quick"):
        if entry.name == "invariance.e3_vs_e2":
            continue  # covered below at a smaller net
        result = entry.driver(ProveProfile.named("quick"))
        assert result.holds, (entry.name, result)
    assert ir.e3_agrees_with_e2(1, net=2000).holds


def test_checks_can_fail() -> None:
    # the minimax slope check rejects a wrong exponent; γ = 0 identifiability check rejects γ > 0
    slope = ir.rate_slope("n", (500, 2000), target=-0.5, atol=0.1, reps=10, seed=1)
    assert not slope.holds
    informative = BoundCheck(
        claim="",
        paper="",
        theorem="",
        measured=ir.mean_error(6, 2, 16, 500, 2.0, reps=10, seed=1),
        bound=8 / 3,
        sense="==",
        rtol=0.25,
    )
    assert not informative.holds


@pytest.mark.slow
def test_full_profile_rates() -> None:
    for name in (
        "invariance.rate_envs",
        "invariance.rate_width",
        "invariance.rate_k",
        "invariance.transition",
    ):
        (entry,) = [e for e in all_theorems("invariance") if e.name == name]
        result = entry.driver(ProveProfile.named("full"))
        assert result.holds, (name, result)
