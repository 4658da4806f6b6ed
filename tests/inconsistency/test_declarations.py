"""Declared conventions of the inconsistency suites (issue 35).

Each declaration is shown to matter both ways: a target following the official code's
convention fails without the declaration and passes with it, and a target that departs
from the declared convention still fails.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from properties import Capabilities, run_suite
from properties.inconsistency import ESTIMATOR, IAM_DE
from reference import inconsistency as inc

_SMOKE = "smoke"


def _statuses(report: Any) -> dict[str, str]:
    return {r.name: r.status for r in report.results}


def _root_ascent(
    model: inc.SoftmaxModel,
    theta: np.ndarray,
    inputs: np.ndarray,
    noise: np.ndarray,
    *,
    rho: float,
    steps: int,
    noise_scale: float,
) -> tuple[float, np.ndarray]:
    """A1 normalised by ``sqrt(||g||² + 1e-12)`` (as IAM_D.step), written out by hand."""
    delta = noise_scale * noise / math.sqrt(model.n_params)
    for _ in range(steps):
        g = inc.batch_kl_gradient(model, theta, delta, inputs)
        delta = rho * g / math.sqrt(float(g @ g) + 1e-12)
    return inc.batch_kl(model, theta, delta, inputs), delta


def test_estimator_eps_in_root_fails_undeclared_and_passes_declared() -> None:
    plain = run_suite(_root_ascent, ESTIMATOR, profile=_SMOKE)
    assert _statuses(plain)["feasible_nonnegative"] == "failed"
    caps = Capabilities(variant="eps_in_root")
    report = run_suite(_root_ascent, ESTIMATOR, profile=_SMOKE, capabilities=caps)
    assert report.ok, report.format()


def test_estimator_exact_norm_fails_the_eps_in_root_declaration() -> None:
    """Declaring the code's normaliser for a target that does not use it is caught."""
    caps = Capabilities(variant="eps_in_root")
    report = run_suite(inc.inconsistency_ascent, ESTIMATOR, profile=_SMOKE, capabilities=caps)
    assert _statuses(report)["feasible_nonnegative"] == "failed"


def _ema_step(mu: float) -> Any:
    def step(*args: Any, config: inc.IAMDEConfig, **kwargs: Any) -> Any:
        return inc.iam_de_step(*args, config=dataclasses.replace(config, delta_ema=mu), **kwargs)

    return step


def test_iam_de_ema_fails_undeclared_and_passes_declared() -> None:
    plain = run_suite(_ema_step(0.9), IAM_DE, profile=_SMOKE)
    assert {"feasible", "matches_reference"} <= {
        r.name for r in plain.results if r.status == "failed"
    }
    caps = Capabilities(variant="ema")
    report = run_suite(_ema_step(0.9), IAM_DE, profile=_SMOKE, capabilities=caps)
    assert report.ok, report.format()


def test_iam_de_wrong_ema_weight_fails_the_declaration() -> None:
    caps = Capabilities(variant="ema")
    report = run_suite(_ema_step(0.8), IAM_DE, profile=_SMOKE, capabilities=caps)
    assert _statuses(report)["feasible"] == "failed"
    assert _statuses(report)["matches_reference"] == "failed"


def test_float32_precision_is_honoured_by_the_feasibility_bound() -> None:
    """A state rounded to float32 fails the float64 bound (1e-9) and passes
    ``--precision float32`` (64·u32 = 3.8e-6); the exact-norm reference passes both."""

    def rounded(*args: Any, **kwargs: Any) -> Any:
        out = inc.iam_de_step(*args, **kwargs)
        return out.theta, np.asarray(out.next_delta, dtype=np.float32).astype(np.float64)

    plain = run_suite(rounded, IAM_DE, profile=_SMOKE)
    assert _statuses(plain)["feasible"] == "failed"
    caps = Capabilities(precision="float32")
    report = run_suite(rounded, IAM_DE, profile=_SMOKE, capabilities=caps)
    assert _statuses(report)["feasible"] == "passed", report.format()
