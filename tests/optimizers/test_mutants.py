"""The optimizer and stability suites have teeth: the reference passes, every mutant fails."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from properties import Capabilities, run_suite
from reference import optimizers as ref
from reference import stability
from reference.optimizers.base import Optimizer
from tests._mutants import assert_measured_kill
from tests.optimizers import mutants as mut

CAPS = Capabilities(raises_on_invalid=True)

REFERENCE_RUNS: list[tuple[Callable[..., Any], str]] = [
    (ref.adam, "optimizers.first_order"),
    (ref.s_adam, "optimizers.first_order"),
    (ref.lion, "optimizers.first_order"),
    (ref.muon, "optimizers.first_order"),
    (ref.clipped_sgd, "optimizers.first_order"),
    (ref.normalized_sgd, "optimizers.first_order"),
    (ref.lion, "optimizers.lion"),
    (ref.muon, "optimizers.muon"),
    (ref.fw_gap, "optimizers.fw_gap"),
    (ref.newton_schulz, "optimizers.newton_schulz"),
    (ref.polar, "optimizers.polar"),
    (ref.lgi, "optimizers.lgi"),
    (ref.s_adam, "optimizers.s_adam"),
    (stability.clip, "stability.clip"),
    (stability.clipped_sgd_stability_bound, "stability.coupling_bound"),
]


@pytest.mark.parametrize(
    ("impl", "suite"), REFERENCE_RUNS, ids=[f"{s}::{f.__name__}" for f, s in REFERENCE_RUNS]
)
def test_reference_passes(impl: Callable[..., Any], suite: str) -> None:
    report = run_suite(impl, suite, capabilities=CAPS, profile="smoke")
    assert report.ok, report.format()


MUTANTS: list[tuple[Callable[..., Any], str, set[str]]] = [
    (mut.ascent_adam, "optimizers.first_order", {"descent_on_quadratic"}),
    (mut.inplace_sgd, "optimizers.first_order", {"pure_and_deterministic"}),
    (mut.counting_sgd, "optimizers.first_order", {"pure_and_deterministic"}),
    (mut.float32_lion, "optimizers.first_order", {"structure_and_dtype"}),
    (mut.unvalidated_sgd, "optimizers.first_order", {"rejects_non_finite_grads"}),
    (mut.lion_decay_after, "optimizers.lion", {"sign_steps", "matches_sfw"}),
    (mut.lion_no_decay, "optimizers.lion", {"stays_in_ball", "matches_sfw"}),
    (mut.lion_soft_sign, "optimizers.lion", {"sign_steps", "scale_invariance"}),
    (mut.lion_momentum_first, "optimizers.lion", {"matches_sfw"}),
    (mut.muon_no_decay, "optimizers.muon", {"stays_in_ball"}),
    (mut.muon_spectral_normalised, "optimizers.muon", {"first_step_band"}),
    (mut.muon_elementwise_sign, "optimizers.muon", {"first_step_band", "orthogonal_equivariance"}),
    (mut.muon_big_guard, "optimizers.muon", {"scale_invariance"}),
    (mut.muon_heavy_ball, "optimizers.muon", {"matches_recursion"}),
    (mut.gap_no_radius, "optimizers.fw_gap", {"matches_oracle", "zero_at_kkt"}),
    (mut.gap_sign_flip, "optimizers.fw_gap", {"nonnegative"}),
    (mut.gap_wrong_dual, "optimizers.fw_gap", {"matches_oracle", "zero_at_kkt"}),
    (mut.ns_cubic, "optimizers.newton_schulz", {"spectral_identity", "band"}),
    (mut.ns_four_steps, "optimizers.newton_schulz", {"spectral_identity"}),
    (
        mut.ns_no_normalisation,
        "optimizers.newton_schulz",
        {"spectral_identity", "scale_invariance"},
    ),
    (mut.ns_row_normalised, "optimizers.newton_schulz", {"transpose"}),
    (mut.polar_via_ns, "optimizers.polar", {"partial_isometry", "matches_scipy"}),
    (mut.polar_negated, "optimizers.polar", {"partial_isometry", "matches_scipy"}),
    (mut.polar_full_rank, "optimizers.polar", {"rank"}),
    (mut.polar_spectral_scaled, "optimizers.polar", {"partial_isometry"}),
    (mut.lgi_k1_one, "optimizers.lgi", {"k1_zero"}),
    (mut.lgi_mean_denominator, "optimizers.lgi", {"range", "affine"}),
    (mut.lgi_no_base, "optimizers.lgi", {"shift_invariance"}),
    (mut.lgi_gaussian_directions, "optimizers.lgi", {"equal_slopes"}),
    (mut.lgi_in_place, "optimizers.lgi", {"probes"}),
    (mut.lgi_ddof0, "optimizers.lgi", {"matches_estimator"}),
    (mut.lgi_global_directions, "optimizers.lgi", {"matches_estimator"}),
    (mut.lgi_central, "optimizers.lgi", {"probes"}),
    (mut.sadam_eps_outside, "optimizers.s_adam", {"reduces_to_adam"}),
    (mut.sadam_brake_on_moments, "optimizers.s_adam", {"pure_rescaling"}),
    (mut.sadam_accelerator, "optimizers.s_adam", {"pure_rescaling"}),
    (mut.clip_coordinates, "stability.clip", {"projection"}),
    (mut.clip_always_normalise, "stability.clip", {"identity_inside"}),
    (mut.clip_drop_large, "stability.clip", {"lipschitz", "projection"}),
    (mut.clip_shrink, "stability.clip", {"identity_inside", "idempotent"}),
    (mut.clip_overshoot, "stability.clip", {"norm_bound"}),
    (mut.bound_missing_two, "stability.coupling_bound", {"recursion"}),
    (mut.bound_no_minus_one, "stability.coupling_bound", {"zero_at_start"}),
    (mut.bound_times_n, "stability.coupling_bound", {"monotone"}),
]


@pytest.mark.parametrize(
    ("mutant", "suite", "expected"),
    MUTANTS,
    ids=[m.__name__ if hasattr(m, "__name__") else str(i) for i, (m, _, _) in enumerate(MUTANTS)],
)
def test_mutant_fails(mutant: Callable[..., Any], suite: str, expected: set[str]) -> None:
    report = run_suite(mutant, suite, capabilities=CAPS, profile="smoke")
    failed = {r.name for r in report.failed}
    assert expected <= failed, report.format()
    for result in report.failed:
        assert_measured_kill(result)


def test_every_check_is_killed_by_some_mutant() -> None:
    from properties._registry import get_suite

    killed: dict[str, set[str]] = {}
    for _, suite, expected in MUTANTS:
        killed.setdefault(suite, set()).update(expected)
    for suite, names in killed.items():
        assert set(get_suite(suite).check_names()) == names, suite


def test_s_adam_eps_conventions_are_declared_variants() -> None:
    """Issue 18: textbook (torch) Adam passes once it declares ``eps_after_correction``; each
    convention fails under the other's declaration."""
    after = Capabilities(variant="eps_after_correction")
    assert run_suite(
        mut.sadam_eps_outside, "optimizers.s_adam", capabilities=after, profile="smoke"
    ).ok
    ours = run_suite(ref.s_adam, "optimizers.s_adam", capabilities=after, profile="smoke")
    assert [r.name for r in ours.failed] == ["reduces_to_adam"]
    assert "AdamW(eps_after_correction)" in ours.failed[0].message
    assert "--variant eps_before_correction" in ours.failed[0].message
    with pytest.raises(ValueError, match="variant"):
        run_suite(ref.s_adam, "optimizers.s_adam", capabilities=Capabilities(variant="inside"))
    with pytest.raises(ValueError, match="variant"):
        run_suite(ref.lion, "optimizers.lion", capabilities=Capabilities(variant="x"))


def _lion_rounded_to_float32(**hyper: float) -> Any:
    """Lion whose updates are rounded to float32: correct, at float32 precision."""
    base = ref.lion(**hyper)

    def update(grads: Any, state: Any, params: Any = None) -> tuple[Any, Any]:
        u, s = base.update(grads, state, params)
        return np.asarray(u).astype(np.float32).astype(np.float64), s

    return Optimizer(init=base.init, update=update)


def test_declared_precision_and_tolerance_scale_the_rounding_bounds() -> None:
    """Issue 18: a float32 Lion fails the float64 rounding models, passes once it declares
    ``precision="float32"`` or a tolerance, and the report prints the bound each check used."""
    suite = "optimizers.lion"
    strict = run_suite(_lion_rounded_to_float32, suite, profile="smoke")
    assert {"sign_steps", "matches_sfw"} <= {r.name for r in strict.failed}
    f32 = Capabilities(precision="float32")
    assert run_suite(_lion_rounded_to_float32, suite, capabilities=f32, profile="smoke").ok
    declared = Capabilities(tolerance=1e-5)
    report = run_suite(_lion_rounded_to_float32, suite, capabilities=declared, profile="smoke")
    assert report.ok, report.format()
    assert "bound" in report.format()
    assert Capabilities(precision="bfloat16").unit_roundoff == 2.0**-8
    with pytest.raises(ValueError, match="precision"):
        Capabilities(precision="float16")
