"""Issue 36 item 3: ``activations.sign_composite`` is named after the DWH composite, yet its
three property checks (odd and bounded, lower bound on ``[l0, 1]``, ``|x|`` accuracy) hold for
any good sign approximant, ``np.sign`` itself included.  ``matches_dwh`` pins the composite."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from properties import run_suite
from properties.activations import SIGN_COMPOSITE
from reference import activations
from tests.activations import mutants as m


def exact_sign(l0: float, *, tol: float) -> Callable[[Any], Any]:
    return lambda x: np.sign(np.asarray(x, dtype=np.float64))


def test_np_sign_meets_every_bound_but_is_not_the_composite() -> None:
    report = run_suite(exact_sign, SIGN_COMPOSITE, profile="smoke")
    assert [r.name for r in report.failed] == ["matches_dwh"], report.format()


def test_halley_to_convergence_fails_only_matches_dwh() -> None:
    report = run_suite(m.dwh_halley_to_convergence, SIGN_COMPOSITE, profile="smoke")
    assert [r.name for r in report.failed] == ["matches_dwh"], report.format()


def test_the_reference_passes() -> None:
    assert run_suite(activations.dwh_sign, SIGN_COMPOSITE, profile="smoke").ok
