"""Unit tests of reference.spectral: summaries, detectors and the elbow fit."""

from __future__ import annotations

import itertools
import math
from typing import Literal

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference import spectral as sp

SHAPES: tuple[Literal["linear", "sqrt"], ...] = ("linear", "sqrt")


def test_entropy_and_effective_rank_bounds() -> None:
    rng = np.random.default_rng(0)
    for _ in range(20):
        w = rng.standard_normal((int(rng.integers(1, 6)), int(rng.integers(1, 6))))
        r = min(w.shape)
        h = sp.spectral_entropy(w)
        assert -1e-15 <= h <= math.log(r) + 1e-12
        assert 1.0 - 1e-12 <= sp.effective_rank(w) <= r + 1e-9
    assert abs(sp.spectral_entropy(3.0 * np.eye(4)) - math.log(4.0)) < 1e-12


def test_energy_normalisation_and_padding() -> None:
    w = np.diag([3.0, 1.0])
    assert sp.normalized_spectrum(w, normalization="energy").tolist() == [0.9, 0.1]
    v = sp.spectrum_variation(np.eye(2), np.eye(3), pad=True)
    want = float(np.linalg.norm(np.array([1 / 2, 1 / 2, 0.0]) - np.full(3, 1 / 3)))
    assert abs(v - want) < 1e-12
    with pytest.raises(ValueError, match="pad"):
        sp.spectrum_variation(np.eye(2), np.eye(3))
    with pytest.raises(ValueError, match="nonzero"):
        sp.normalized_spectrum(np.zeros((2, 2)))


def test_threshold_detects_the_drop() -> None:
    rng = np.random.default_rng(1)
    d = np.concatenate([np.full(100, 1e-2), np.full(300, 1e-4)]) * rng.uniform(0.5, 1.5, 400)
    res = sp.sosd_threshold(d)
    assert res.found
    assert 90 <= res.index <= 115
    assert 0.5e-4 < res.floor < 2e-4
    cos = sp.cosine_threshold(np.concatenate([np.linspace(0.5, 0.98, 50), np.full(50, 0.995)]))
    assert cos.index == 50


def test_loss_elbow_on_a_two_phase_curve() -> None:
    t = np.arange(1.0, 1001.0)
    loss = np.where(t < 200, 5.0 * (t / 200) ** -0.5, 5.0 * (t / 200) ** -0.02)
    res = sp.loss_elbow(t, loss, stride=5)
    assert 180 <= res.step <= 220
    assert res.slope_before < res.slope_after
    assert sp.sync_ratio(res.step, 200.0) == res.step / 200.0


def test_series_helpers_match_pairwise_functions() -> None:
    rng = np.random.default_rng(2)
    stack = rng.standard_normal((5, 3, 4))
    v = sp.variation_series(stack)
    assert v.tolist() == [sp.spectrum_variation(stack[i], stack[i + 1]) for i in range(4)]
    c = sp.cosine_series(stack)
    assert abs(c[-1] - 1.0) < 1e-15
    assert abs(c[0] - sp.spectrum_cosine(stack[0], stack[-1])) < 1e-15


@given(
    total=st.integers(2, 400),
    warm=st.floats(0.0, 0.5),
    decay=st.floats(0.0, 0.5),
    shape=st.sampled_from(SHAPES),
)
def test_schedules_bounds_and_monotonicity(
    total: int, warm: float, decay: float, shape: Literal["linear", "sqrt"]
) -> None:
    """Spec 15 property 9: values in [η_min, η_max] after warm-up; monotone phases."""
    peak, floor = 0.3, 0.1
    t_w = int(warm * total)
    cos = [sp.cosine_schedule(t, total=total, peak=peak, warmup=t_w) for t in range(total)]
    assert all(floor * peak - 1e-15 <= v <= peak + 1e-15 for v in cos[t_w:])
    assert all(a >= b - 1e-15 for a, b in itertools.pairwise(cos[t_w:]))
    wsd = [
        sp.wsd_schedule(
            t, total=total, peak=peak, warmup=t_w, decay_fraction=decay * (1 - warm), shape=shape
        )
        for t in range(total)
    ]
    assert all(floor * peak - 1e-15 <= v <= peak + 1e-15 for v in wsd[t_w:])
    assert all(a >= b - 1e-15 for a, b in itertools.pairwise(wsd[t_w:]))
    steps = {sp.step_schedule(t, total=total, peak=peak) for t in range(total)}
    assert steps <= {peak * 0.1**j for j in range(3)}
    assert sp.cosine_schedule(3 % total, total=total, peak=peak) == sp.cosine_schedule(
        3 % total, total=total, peak=peak
    )


def test_schedule_bad_input() -> None:
    with pytest.raises(ValueError, match="warmup"):
        sp.wsd_schedule(0, total=10, peak=1.0, warmup=9, decay_fraction=0.2)
    with pytest.raises(ValueError, match="step"):
        sp.cosine_schedule(10, total=10, peak=1.0)
    with pytest.raises(ValueError, match="peak"):
        sp.step_schedule(0, total=10, peak=0.0)
    with pytest.raises(ValueError, match="milestones"):
        sp.step_schedule(0, total=10, peak=1.0, milestones=(0.7, 0.2))
