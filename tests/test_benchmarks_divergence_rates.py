"""Spec 13 §4 rate checks (``benchmarks/divergence_rates.py``): a toy run, recomputed independently."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from benchmarks import divergence_rates as dr
from reference import divergence as dv

TOY = dr.Settings(
    sizes=(100, 200, 400), draws=3, proxy_n=1600, features=16, iterations=60, radii=(0.5, 2.0, 8.0)
)


def test_truth_is_the_spec_d1_example() -> None:
    """Spec 13 G1: N(0, 1) vs N(1, 1), α = 1/2: D = 4(1 - e^{-1/8}) = 0.470012."""
    expected = 4.0 * (1.0 - np.exp(-1.0 / 8.0))
    assert abs(dr.TRUTH - expected) <= 1e-12


def test_standard_error_matches_a_bootstrap() -> None:
    """The SE of Ĵ(θ̂) (two-sample mean formula) against a direct bootstrap of the same θ̂."""
    rng = np.random.default_rng(3)
    x, y = dr.sample(400, rng)
    feats = dv.make_rff(1, 16, sigma=1.0, rng=rng)
    zx, zy = feats.transform(x), feats.transform(y)
    value, se, wnorm = dr.fit_value(zx, zy, 2.0, 80)
    assert wnorm <= 2.0 * (1 + 1e-12)
    theta = np.asarray(dv.armijo_ascent(zx, zy, 0.5, dv.ArmijoConfig(radius=2.0, max_iter=80, batch_size=None)).theta)
    assert value == pytest.approx(dv.alpha_objective(zx, zy, theta, 0.5), abs=1e-12)
    boot = []
    for _ in range(600):
        ix, iy = rng.integers(0, 400, 400), rng.integers(0, 400, 400)
        boot.append(dv.alpha_objective(zx[ix], zy[iy], theta, 0.5))
    assert se == pytest.approx(float(np.std(boot)), rel=0.2)


def test_toy_run_slopes_and_flags_recompute(tmp_path: Path) -> None:
    outcome, text = dr.run(TOY, command="toy", out=tmp_path)
    assert outcome.deviations.shape == (3, 3)
    assert np.all(outcome.deviations >= 0)
    fit = stats.linregress(np.log(TOY.sizes), np.log(outcome.deviations.mean(axis=1)))
    assert outcome.slope == pytest.approx(fit.slope, abs=1e-10)
    assert outcome.ci[0] <= outcome.ci[1]
    # the proxy is the R = 3 fit on the proxy sample, which is not one of the reported radii
    assert [r for r, *_ in outcome.radius_rows] == [0.5, 2.0, 8.0]
    values = [v for _, v, _, _ in outcome.radius_rows]
    monotone = all(b >= a - 1e-12 for a, b in itertools.pairwise(values))
    assert (f"non-decreasing in R: {'yes' if monotone else 'NO'}") in text
    inside = -0.7 <= fit.slope <= -0.3
    assert ("point estimate inside the band" in text) == inside
    assert "**reduced**" in text
    assert (tmp_path / "divergence_rates.md").exists()
    assert (tmp_path / "divergence_rates.png").stat().st_size > 0


@pytest.mark.slow
def test_committed_run_meets_the_spec_statements() -> None:
    """Spec 13 §4 at the committed settings: n-rate slope in [−0.7, −0.3]; D_R non-decreasing in R and
    at most D_α + 3 SE."""
    outcome = dr.measure(dr.Settings())
    assert -0.7 <= outcome.slope <= -0.3, outcome.slope
    values = [v for _, v, _, _ in outcome.radius_rows]
    assert all(b >= a - 1e-12 for a, b in itertools.pairwise(values)), values
    assert all(v <= dr.TRUTH + 3.0 * se for _, v, se, _ in outcome.radius_rows)
