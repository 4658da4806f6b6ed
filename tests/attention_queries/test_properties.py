"""The attention_queries suites pass on the reference implementations."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from properties import Capabilities, Suite, run_suite
from properties.attention_queries import LEARNER, MODEL, NOISY_LEARNER, NUCLEAR_NORM
from reference import attention_queries as aq

CAPS = Capabilities(raises_on_invalid=True)

#: The suite asks for a solution; the default cap of 5000 is no promise (see
#: :func:`test_admm_needs_more_than_the_default_cap_near_a_determined_system`).
ADMM_BUDGET = 100_000


def _admm(a: Any, b: Any, t: Any) -> aq.NuclearNormResult:
    return aq.nuclear_norm_admm(a, b, t, max_iter=ADMM_BUDGET)


@pytest.mark.parametrize(
    ("impl", "suite"),
    [
        (aq.attention_output, MODEL),
        (aq.recover_exact, LEARNER),
        (aq.recover_noisy, NOISY_LEARNER),
        (_admm, NUCLEAR_NORM),
    ],
    ids=["attention_output", "recover_exact", "recover_noisy", "nuclear_norm_admm"],
)
def test_reference_passes(impl: Any, suite: Suite[Any]) -> None:
    report = run_suite(impl, suite, capabilities=CAPS, profile="smoke")
    assert report.ok, report.format()
    assert report.counts() == {"passed": len(suite.checks)}


def test_gaussian_probes_also_pass() -> None:
    def gaussian(oracle: aq.AttentionOracle) -> aq.AttentionRecovery:
        return aq.recover_exact(oracle, rng=np.random.default_rng(0))

    report = run_suite(gaussian, LEARNER, profile="smoke", skip=["query_budget"])
    assert report.ok, report.format()


#: A problem drawn by a thorough run of `feasible` (issue 22): 10 measurements of a 4 x 3 matrix.
_NEAR_DETERMINED = (
np.array([[-0.367345251977869, -0.33111998926686304, 0.4613902181738186, 0.8167049048671919], [0.3582147956553884, 1.9288522386922382, -2.2254846252869265, -1.0681540248258228], [-1.8377255850967793, -0.34969259965942096, 0.966283400772072, -0.574399367374685], [0.5423597678573198, 1.3064949919882294, -1.2216513000783955, 0.8336121438183229], [-0.4528150133373096, 0.6994177919249702, 2.1534155613662005, 0.4948177034312702], [0.12240618920923632, 0.1500778420308963, -0.3743954737716751, -2.0918836576831445], [-1.5774177459734582, -0.15749860023116274, 0.859347923777008, -1.6117321470503894], [-0.3069460909842042, 0.21101770330925224, -0.24393941905348587, -0.6496795059374095], [-0.572419676365078, -0.6021202989443919, 0.31478298718558007, 0.06878237658497488], [-0.08116594618576033, 0.41240384076143977, -0.5720883026678041, 0.9649714441180978]], dtype=np.float64), np.array([[0.8202975637064107, 0.7642994259998633, -0.42001273444603565], [1.8192757195589393, 0.3888197892031627, -0.7349217413861849], [1.210311581966212, -0.26924914734934646, 1.1890881401997917], [1.314712604899251, -0.13089913976047332, -0.4042050000960715], [-1.046954954323466, -1.6607130953913762, 2.293054416666933], [0.3485119280602075, -0.2513556089064325, 0.3382621491122073], [0.37210524005481505, 0.4909226837566107, 0.6633430434966455], [1.0292389282353342, -0.19477093538921375, -0.23343001106312958], [-0.9155486540006842, -0.0793690916451855, 0.30660548605197185], [0.20096887069101527, 0.7042515750827487, 0.14198096033272406]], dtype=np.float64), np.array([0.23255834324537172, -3.466776352823383, 4.759609977312238, -0.6151347035893489, 6.394428082820702, -1.8470020426832163, 0.5862508567940454, -0.5417287099552999, -0.3959499155693371, 0.0070078951445128115], dtype=np.float64)
)  # fmt: skip


def test_admm_needs_more_than_the_default_cap_near_a_determined_system() -> None:
    a, b, t = _NEAR_DETERMINED

    def residual(w: Any) -> float:
        return float(np.linalg.norm(np.sum((a @ w) * b, axis=1) - t) / np.linalg.norm(t))

    capped = aq.nuclear_norm_admm(a, b, t)  # 5000 iterations: an honest "not converged"
    assert not capped.converged
    assert capped.iterations == 5000
    assert residual(capped.W) > 1e-7  # the suite's `feasible` bound: it failed here
    enough = aq.nuclear_norm_admm(a, b, t, max_iter=ADMM_BUDGET)  # 11 348 iterations
    assert enough.converged
    assert 5000 < enough.iterations < ADMM_BUDGET
    assert residual(enough.W) <= 1e-9
