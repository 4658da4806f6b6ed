"""reference.stability: noise generators, closed-form moments, coupled runs and bounds (spec 05)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from reference import stability as s
from reference.optimizers import clipped_sgd, normalized_sgd


def test_pareto_generators_match_closed_forms() -> None:
    rng = np.random.default_rng(0)
    r = np.abs(s.symmetric_pareto(200_000, tail=2.5, scale=1.0, rng=rng))
    assert r.min() >= 1.0
    assert float(np.mean(r)) == pytest.approx(s.pareto_moment(1.0, tail=2.5), rel=0.02)
    assert float(np.mean(np.maximum(r - 2.0, 0.0))) == pytest.approx(
        s.pareto_tail_excess(2.0, tail=2.5), rel=0.05
    )
    assert float(np.mean(np.minimum(r, 3.0) ** 2)) == pytest.approx(
        s.pareto_clipped_second_moment(3.0, tail=2.5), rel=0.02
    )
    v = s.pareto_vectors(1000, 3, tail=1.5, rng=rng)
    assert np.all(np.linalg.norm(v, axis=1) >= 1.0 - 1e-12)
    assert s.pareto_clipped_second_moment(np.e, tail=2.0) == pytest.approx(3.0)


def test_student_t_moment() -> None:
    assert s.student_t_abs_moment(1.0, nu=1.5) > 0
    draws = np.abs(s.student_t(400_000, nu=5.0, rng=np.random.default_rng(1)))
    assert float(np.mean(draws)) == pytest.approx(s.student_t_abs_moment(1.0, nu=5.0), rel=0.02)
    with pytest.raises(ValueError, match="p"):
        s.student_t_abs_moment(2.0, nu=1.5)


def test_truncation_and_mean_bounds() -> None:
    assert s.heavy_tailed_mean_bound(2.0, 1.5, 8) == pytest.approx(3 * 2.0 * 8 ** (-1 / 3))
    assert s.heavy_tailed_mean_bound(0.0, 1.5, 8) == 0.0
    with pytest.raises(ValueError, match="p"):
        s.truncation_bounds(1.0, 1.0, 1.0)


def test_sample_indices() -> None:
    rng = np.random.default_rng(0)
    idx = s.sample_indices(6, 5, batch=2, sampling="epoch_shuffle", rng=rng)
    assert idx.shape == (5, 2)
    assert sorted(idx[:3].ravel().tolist()) == list(range(6))
    with pytest.raises(ValueError, match="batch"):
        s.sample_indices(3, 2, batch=4, sampling="epoch_shuffle", rng=rng)


def _data(n: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(n, d))
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    return a, a @ rng.normal(size=d) + s.symmetric_pareto(n, tail=1.5, rng=rng)


def test_coupling_sanity_and_permutation_equivariance() -> None:
    a, y = _data(10, 3, 0)
    res = s.coupled_runs(
        clipped_sgd(), a, y, a, y, np.zeros(3), steps=20, runs=3, rng=np.random.default_rng(1)
    )
    assert not np.any(res.deltas)
    idx = s.sample_indices(10, 30, rng=np.random.default_rng(2))
    perm = np.random.default_rng(3).permutation(10)
    inverse = np.argsort(perm)
    x1 = s.train(clipped_sgd(), a, y, np.zeros(3), idx)
    x2 = s.train(clipped_sgd(), a[perm], y[perm], np.zeros(3), inverse[idx])
    assert np.array_equal(x1, x2)


def test_clipped_sgd_stability_within_s1() -> None:
    a, y = _data(20, 5, 4)
    a2, y2 = s.neighbouring_dataset(a, y, 0, a[1], 1e6)
    res = s.coupled_runs(
        clipped_sgd(learning_rate=0.01),
        a,
        y,
        a2,
        y2,
        np.zeros(5),
        steps=100,
        runs=40,
        rng=np.random.default_rng(5),
    )
    bound = s.clipped_sgd_stability_bound(
        n=20, steps=100, learning_rate=0.01, tau=1.0, smoothness=1.0
    )
    assert res.mean <= bound + 3 * res.stderr
    assert bound == pytest.approx(0.1705, abs=1e-3)  # spec 05 §4.3: "for n = 20 the bound is 0.170"


def test_per_sample_and_normalized_training() -> None:
    a, y = _data(8, 2, 6)
    idx = s.sample_indices(8, 10, batch=3, rng=np.random.default_rng(0))
    traj = s.train(clipped_sgd(placement="per_sample"), a, y, np.zeros(2), idx, per_sample=True)
    assert traj.shape == (11, 2)
    steps = np.linalg.norm(
        np.diff(s.train(normalized_sgd(), a, y, np.zeros(2), idx), axis=0), axis=1
    )
    assert np.allclose(steps[steps > 0], 0.01)
    g = s.example_gradients(np.ones(2), a, y, loss="log")
    assert g.shape == (8, 2)


def test_bounds_monotone_and_reductions() -> None:
    kw: dict[str, Any] = {
        "n": 50,
        "steps": 80,
        "learning_rate": 0.02,
        "tau": 1.0,
        "smoothness": 1.0,
    }
    s1 = s.clipped_sgd_stability_bound(**kw)
    assert s.momentum_stability_bound(**kw, beta=0.0) == pytest.approx(s1, rel=1e-12)
    assert s.clip_average_stability_bound(**kw, batch=1) == pytest.approx(s1, rel=1e-12)
    assert s.momentum_stability_bound(**kw, beta=0.9) <= s1
    zero_l = dict(kw, smoothness=0.0)
    assert s.clipped_sgd_stability_bound(**zero_l) == pytest.approx(2 * 0.02 * 80 / 50)
    assert s.clipped_sgd_stability_bound(
        **kw,
    ) < s.clipped_sgd_stability_bound(**dict(kw, steps=81))
    nb = s.normalized_sgd_stability_bound(
        n=50, steps=80, learning_rate=0.02, smoothness=1.0, grad_lower=0.5
    )
    assert 0 < nb <= 2 * 0.02 * 80
    assert math.isinf(
        s.clipped_sgd_stability_bound(n=5, steps=3, learning_rate=0.1, tau=math.inf, smoothness=1.0)
    )


def test_generalization_gap_instance() -> None:
    rng = np.random.default_rng(0)
    d, n = 4, 200_000
    a = rng.choice([-1.0, 1.0], size=(n, d)) / math.sqrt(d)
    x_star = np.ones(d) / 2
    y = a @ x_star + rng.normal(size=n)
    assert s.gradient_generalization_gap(np.zeros(d), a, y, x_star) < 0.02
