"""Issue 36 item 3, LGI: ``optimizers.lgi`` pins Algorithm A per declared variant.

Before ``matches_estimator`` the suite's checks (P1, P2, P4, P5, P9) held for every direction
normalisation and either ``ddof``; now each of the four variants is checked exactly and an
estimator of another variant fails, naming the one that fits.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import pytest

from properties import Capabilities, SuiteReport, run_suite
from properties.optimizers import LGI, LGI_VARIANTS
from reference import optimizers as ref

_OTHERS = ("k1_zero", "range", "shift_invariance", "equal_slopes", "affine", "probes")


def _as(mode: Literal["per_block", "global"], ddof: int) -> Any:
    def lgi(f: Any, theta: Any, base: float, *, k: int, sigma: float, rng: Any) -> float:
        return ref.lgi(f, theta, base, k=k, sigma=sigma, rng=rng, ddof=ddof, direction_mode=mode)

    lgi.__name__ = f"lgi_{mode}_ddof{ddof}"
    return lgi


_IMPLS = {
    "per_block": _as("per_block", 1),
    "per_block_ddof0": _as("per_block", 0),
    "global": _as("global", 1),
    "global_ddof0": _as("global", 0),
}


def _report(impl: Any, variant: str) -> SuiteReport:
    caps = Capabilities(variant=variant)
    return run_suite(impl, LGI, capabilities=caps, skip=_OTHERS, profile="smoke")


def test_variants_are_the_four_combinations() -> None:
    assert set(LGI_VARIANTS) == set(_IMPLS)
    assert next(iter(LGI_VARIANTS)) == "per_block"  # the reference's defaults


@pytest.mark.parametrize("variant", list(_IMPLS))
def test_each_variant_passes_its_own_check(variant: str) -> None:
    report = _report(_IMPLS[variant], variant)
    assert report.ok, report.format()


@pytest.mark.parametrize(
    ("impl", "declared"),
    [(i, d) for i in _IMPLS for d in _IMPLS if i != d],
)
def test_each_variant_fails_every_other(impl: str, declared: str) -> None:
    report = _report(_IMPLS[impl], declared)
    assert "matches_estimator" in {r.name for r in report.failed}, report.format()


def test_the_reference_default_is_per_block_ddof1() -> None:
    assert _report(ref.lgi, "per_block").ok


def test_gaussian_unnormalised_directions_fail_every_variant() -> None:
    def lgi(f: Any, theta: Any, base: float, *, k: int, sigma: float, rng: Any) -> float:
        blocks = theta if isinstance(theta, tuple) else (theta,)
        directions = [tuple(rng.standard_normal(b.shape) for b in blocks) for _ in range(k)]
        if not isinstance(theta, tuple):
            directions = [u[0] for u in directions]
        return ref.lgi(f, theta, base, k=k, sigma=sigma, rng=rng, directions=directions)

    for variant in _IMPLS:
        assert not _report(lgi, variant).ok, variant


def test_a_hint_names_the_fitting_ddof() -> None:
    text = _report(_IMPLS["per_block_ddof0"], "per_block").format()
    assert "ddof=0" in text
    assert "declare that variant" in text


def test_numpy_rng_seeded_directions_are_not_required() -> None:
    """Any rng use is accepted: the check reads the directions from the probes."""

    def lgi(f: Any, theta: Any, base: float, *, k: int, sigma: float, rng: Any) -> float:
        return ref.lgi(f, theta, base, k=k, sigma=sigma, rng=np.random.default_rng(123))

    assert _report(lgi, "per_block").ok
