"""Tests written to kill surviving mutants of reference/spectral (issue 36 item 6).

Every expected value is recomputed independently of the implementation: closed forms on
diagonal matrices, numpy's own SVD (the reference uses scipy's), brute-force loops written
from the docstrings' definitions.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference import spectral as sp


def _sd(w: np.ndarray) -> np.ndarray:
    """Trace-normalised singular values by numpy's SVD (descending)."""
    s = np.linalg.svd(w, compute_uv=False)
    return np.asarray(s / s.sum())


def test_normalized_spectrum_closed_forms_and_errors() -> None:
    # diag(3, -1) in a 2x3 frame: sigma = (3, 1)
    w = np.array([[0.0, 3.0, 0.0], [-1.0, 0.0, 0.0]])
    assert sp.normalized_spectrum(w).tolist() == [0.75, 0.25]
    assert sp.normalized_spectrum(w, normalization="energy").tolist() == [0.9, 0.1]
    assert sp.normalized_spectrum(w.T).tolist() == [0.75, 0.25]
    with pytest.raises(ValueError, match=r"^normalization: "):
        sp.normalized_spectrum(w, normalization="frobenius")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^matrix: expected a nonzero"):
        sp.normalized_spectrum(np.zeros((2, 3)), normalization="energy")
    # sigma^2 overflows: the energy normalisation must refuse, not return nan
    with (
        np.errstate(over="ignore"),
        pytest.raises(ValueError, match=r"^matrix: expected a nonzero"),
    ):
        sp.normalized_spectrum(np.diag([1e200, 1e200]), normalization="energy")


def test_variation_closed_form_padding_and_shapes() -> None:
    a, b = np.diag([1.0, 1.0]), np.diag([3.0, 1.0])
    want = math.hypot(0.25, 0.25)  # (0.75, 0.25) - (0.5, 0.5)
    assert abs(sp.spectrum_variation(a, b) - want) < 1e-15
    assert abs(sp.spectrum_variation(b, a) - want) < 1e-15
    pad_want = float(np.linalg.norm(np.array([0.5, 0.5, 0.0]) - np.full(3, 1 / 3)))
    assert abs(sp.spectrum_variation(np.eye(3), np.eye(2), pad=True) - pad_want) < 1e-15
    assert abs(sp.spectrum_variation(np.eye(2), np.eye(3), pad=True) - pad_want) < 1e-15
    w = np.array([[1.0, 2.0, 0.0], [0.0, 1.0, 3.0]])
    with pytest.raises(ValueError, match=r"^after: expected the shape"):
        sp.spectrum_variation(w, w.T)  # same spectrum length, different shapes
    assert sp.spectrum_variation(w, w.T, pad=True) < 1e-15
    with pytest.raises(ValueError, match=r"^before: "):
        sp.spectrum_variation(np.zeros((2, 2)), np.eye(2))
    with pytest.raises(ValueError, match=r"^after: "):
        sp.spectrum_variation(np.eye(2), np.zeros((2, 2)))


def test_cosine_closed_form_cap_and_shapes() -> None:
    want = 0.5 / (math.sqrt(0.625) * math.sqrt(0.5))  # (0.75, 0.25) . (0.5, 0.5)
    assert abs(sp.spectrum_cosine(np.diag([3.0, 1.0]), np.eye(2)) - want) < 1e-15
    rng = np.random.default_rng(0)
    raw_above_one = 0
    for _ in range(40):
        w = rng.standard_normal((3, 4))
        s, t = _sd(w), _sd(3.0 * w)
        raw_above_one += int(float(s @ t) / float(np.linalg.norm(s) * np.linalg.norm(t)) > 1.0)
        c = sp.spectrum_cosine(w, 3.0 * w)
        assert c <= 1.0  # documented range (0, 1]
        assert c > 1.0 - 1e-15
    assert raw_above_one > 0  # the instance does reach the rounding the cap is for
    with pytest.raises(ValueError, match=r"^final: "):
        sp.spectrum_cosine(np.ones((2, 3)), np.ones((3, 2)))
    with pytest.raises(ValueError, match=r"^current: "):
        sp.spectrum_cosine(np.zeros((2, 2)), np.eye(2))


def test_entropy_with_zero_singular_values_and_rank_one() -> None:
    w = np.diag([2.0, 1.0, 1.0, 0.0])  # sigma-hat = (1/2, 1/4, 1/4, 0)
    h = 0.5 * math.log(2.0) + 0.5 * math.log(4.0)
    assert abs(sp.spectral_entropy(w) - h) < 1e-15
    assert abs(sp.effective_rank(w) - math.exp(h)) < 1e-14
    for rank_one in (np.ones((3, 3)), np.outer([1.0, 2.0], [3.0, -1.0, 2.0])):
        h1 = sp.spectral_entropy(rank_one)
        assert 0.0 <= h1 < 1e-12
        assert 1.0 <= sp.effective_rank(rank_one) < 1.0 + 1e-12
    # rank one in exact arithmetic: the entropy is exactly 0, never negative
    assert sp.spectral_entropy(np.diag([5.0, 0.0])) == 0.0


def test_series_closed_forms_and_errors() -> None:
    stack = np.stack([np.eye(2), np.diag([3.0, 1.0]), np.diag([1.0, 0.0])])
    v = sp.variation_series(stack)
    assert v.shape == (2,)
    assert abs(v[0] - math.hypot(0.25, 0.25)) < 1e-15
    assert abs(v[1] - math.hypot(0.25, 0.25)) < 1e-15
    with pytest.raises(ValueError, match=r"^matrices: expected at least 2"):
        sp.variation_series(np.eye(2)[None])
    assert sp.variation_series(np.stack([np.eye(2), np.eye(2)])).tolist() == [0.0]
    for series in (sp.variation_series, sp.cosine_series):
        with pytest.raises(ValueError, match=r"^matrices: expected a 3-D"):
            series(np.eye(2))
    c = sp.cosine_series(stack)
    last = np.array([1.0, 0.0])
    for i, w in enumerate(stack):
        s = _sd(w)
        assert abs(c[i] - float(s @ last) / float(np.linalg.norm(s))) < 1e-15
    assert sp.cosine_series(np.diag([2.0, 1.0])[None]).tolist() == [1.0]
    with pytest.raises(ValueError, match=r"^matrices\[1\]: "):
        sp.cosine_series(np.stack([np.eye(2), np.zeros((2, 2))]))


def test_variation_bound_closed_form_and_errors() -> None:
    w, d = np.eye(2), np.diag([1.0, -2.0])  # W + D = diag(2, -1): nuclear norm 3
    want = (math.sqrt(5.0) + 3.0) / 3.0
    assert abs(sp.variation_bound(w, d) - want) < 1e-15
    with pytest.raises(ValueError, match=r"^update: "):
        sp.variation_bound(np.eye(2), -np.eye(2))
    with pytest.raises(ValueError, match=r"^update: "):
        sp.variation_bound(np.eye(2), np.zeros((2, 3)))


def _moving_median(x: np.ndarray, w: int) -> np.ndarray:
    out = []
    for t in range(x.size):
        lo, hi = max(0, t - w // 2), min(x.size, t + w - w // 2)
        out.append(float(np.median(x[lo:hi])))
    return np.array(out)


def test_moving_median_against_the_definition() -> None:
    x = np.random.default_rng(3).standard_normal(9)
    for w in range(1, 12):
        assert np.array_equal(sp.moving_median(x, window=w), _moving_median(x, w))
    assert sp.moving_median([4.0], window=1).tolist() == [4.0]
    with pytest.raises(ValueError, match=r"^window: "):
        sp.moving_median(x, window=0)


def _settled(ok: np.ndarray) -> int:
    for t in range(ok.size + 1):
        if all(ok[t:]):
            return t
    raise AssertionError("unreachable")


@pytest.mark.parametrize("size", [11, 12])
def test_sosd_threshold_against_the_definition(size: int) -> None:
    rng = np.random.default_rng(size)
    for _ in range(30):
        d = np.abs(rng.standard_normal(size)) * np.geomspace(10.0, 1.0, size)
        for kappa, w in ((1.5, 1), (3.0, 3), (2.0, 4)):
            smooth = _moving_median(d, w)
            floor = float(np.median(smooth[size // 2 :]))  # last 50% of the logs
            index = _settled(smooth <= kappa * floor)
            res = sp.sosd_threshold(d, kappa=kappa, window=w)
            assert res.floor == floor
            assert res.index == index
            assert res.found == (index < size)
            assert np.array_equal(res.smoothed, smooth)
            assert not res.smoothed.flags.writeable


def test_sosd_threshold_ties_never_settling_and_errors() -> None:
    # floor = median(1, 1, 1) = 1; D = 3 equals kappa * f exactly: it counts as settled
    assert sp.sosd_threshold([6.0, 3.0, 1.0, 1.0, 1.0], window=1).index == 1
    res = sp.sosd_threshold([1.0, 1.0, 1.0, 1.0, 10.0], kappa=2.0, window=1)
    assert (res.index, res.found, res.floor) == (5, False, 1.0)
    assert sp.sosd_threshold([0.0, 0.0], window=1).index == 0
    with pytest.raises(ValueError, match=r"^variations: "):
        sp.sosd_threshold([1.0, -1e-9, 1.0])
    for bad in (1.0, 0.5):
        with pytest.raises(ValueError, match=r"^kappa: "):
            sp.sosd_threshold([1.0, 1.0], kappa=bad)
    with pytest.raises(ValueError, match=r"^window: "):
        sp.sosd_threshold([1.0, 1.0], window=0)


def test_cosine_threshold_ties_levels_and_errors() -> None:
    assert sp.cosine_threshold([0.99, 0.99]).index == 0  # c_s >= c0, ties included
    res = sp.cosine_threshold([0.5, 1.0, 1.0], c0=1.0)
    assert (res.index, res.found, res.floor) == (1, True, 1.0)
    never = sp.cosine_threshold([1.0, 0.2], c0=0.5)
    assert (never.index, never.found) == (2, False)
    series = np.array([0.3, 0.7, 0.6, 0.8])
    res = sp.cosine_threshold(series, c0=0.6)
    assert res.index == 1
    assert np.array_equal(res.smoothed, series)
    assert not res.smoothed.flags.writeable
    for bad in (1.0 + 1e-12, 0.0, -0.5):
        with pytest.raises(ValueError, match=r"^c0: "):
            sp.cosine_threshold(series, c0=bad)


def _elbow(t: np.ndarray, loss: np.ndarray, stride: int) -> tuple[float, float, float, float]:
    """Brute force: for each candidate breakpoint, least squares on log-log by normal equations."""
    u, y = np.log(t), np.log(loss)
    best: tuple[float, float, float, float] | None = None
    for k in range(1, t.size - 2, stride):
        x = np.column_stack([np.ones_like(u), u, np.maximum(0.0, u - u[k])])
        coef = np.linalg.solve(x.T @ x, x.T @ y)
        sse = float(np.sum((x @ coef - y) ** 2))
        if best is None or sse < best[3] - 1e-12:
            best = (float(t[k]), float(coef[1]), float(coef[1] + coef[2]), sse)
    assert best is not None
    return best


def test_loss_elbow_against_brute_force() -> None:
    rng = np.random.default_rng(5)
    t = np.arange(1.0, 61.0) * 3.0
    loss = np.where(t < 60, 8.0 * (t / 60) ** -0.7, 8.0 * (t / 60) ** -0.1)
    loss *= np.exp(0.02 * rng.standard_normal(t.size))
    steps = set()
    for stride in (1, 4, 7):
        res = sp.loss_elbow(t, loss, stride=stride)
        step, before, after, sse = _elbow(t, loss, stride)
        steps.add(res.step)
        assert res.step == step
        assert abs(res.slope_before - before) < 1e-8
        assert abs(res.slope_after - after) < 1e-8
        assert abs(res.sse - sse) < 1e-10
        assert before < -0.5
        assert -0.2 < after < 0.0
    assert len(steps) > 1  # the stride does change the candidates
    # the default stride is 5 (the spec's test): on this curve strides 5 and 6 disagree
    assert _elbow(t, loss, 5)[0] != _elbow(t, loss, 6)[0]
    assert sp.loss_elbow(t, loss).step == _elbow(t, loss, 5)[0]
    # the smallest admissible trajectory: 4 points, one candidate (the second step)
    four = sp.loss_elbow([1.0, 2.0, 4.0, 8.0], [1.0, 0.5, 0.4, 0.35])
    assert four.step == 2.0


def test_loss_elbow_errors() -> None:
    t = np.arange(1.0, 11.0)
    with pytest.raises(ValueError, match=r"^steps: expected at least 4"):
        sp.loss_elbow([1.0, 2.0, 3.0], [3.0, 2.0, 1.0])
    with pytest.raises(ValueError, match=r"^steps: expected positive, strictly increasing"):
        sp.loss_elbow(np.r_[t[:5], t[4:9]], np.ones(10))
    with pytest.raises(ValueError, match=r"^steps: expected positive, strictly increasing"):
        sp.loss_elbow(t - 1.0, np.ones(10))
    with pytest.raises(ValueError, match=r"^losses: "):
        sp.loss_elbow(t, np.r_[np.ones(9), 0.0])
    with pytest.raises(ValueError, match=r"^steps: expected a 1-D"):
        sp.loss_elbow(np.ones((5, 2)), np.ones((5, 2)))
    with pytest.raises(ValueError, match=r"^losses: expected shape"):
        sp.loss_elbow(t, np.ones(9))
    with pytest.raises(ValueError, match=r"^stride: "):
        sp.loss_elbow(t, np.ones(10), stride=0)


def test_sync_ratio_errors() -> None:
    assert sp.sync_ratio(300.0, 100.0) == 3.0
    with pytest.raises(ValueError, match=r"^sosd_step: "):
        sp.sync_ratio(0.0, 1.0)
    with pytest.raises(ValueError, match=r"^loss_step: "):
        sp.sync_ratio(1.0, 0.0)


def test_cosine_schedule_closed_form() -> None:
    peak, total, warm = 2.0, 12, 4
    for t in range(warm):
        assert sp.cosine_schedule(t, total=total, peak=peak, warmup=warm) == peak * (t + 1) / warm
    for ratio in (0.0, 0.1, 0.3, 1.0):
        low = ratio * peak
        for t in range(warm, total):
            s = (t - warm) / (total - warm)
            want = low + 0.5 * (peak - low) * (1.0 + math.cos(math.pi * s))
            got = sp.cosine_schedule(t, total=total, peak=peak, warmup=warm, floor_ratio=ratio)
            assert abs(got - want) < 1e-15
    default = sp.cosine_schedule(7, total=10, peak=1.0)
    assert abs(default - (0.1 + 0.45 * (1.0 + math.cos(0.7 * math.pi)))) < 1e-15
    assert sp.cosine_schedule(9, total=10, peak=1.0, warmup=9) == 1.0  # last warm-up step
    for bad in (1.5, -0.1):
        with pytest.raises(ValueError, match=r"^floor_ratio: "):
            sp.cosine_schedule(0, total=10, peak=1.0, floor_ratio=bad)


def test_schedule_argument_ranges() -> None:
    assert sp.cosine_schedule(0, total=1, peak=1.0) == 1.0
    for kwargs, name in (
        ({"step": -1, "total": 5}, "step"),
        ({"step": 5, "total": 5}, "step"),
        ({"step": 0, "total": 0}, "total"),
        ({"step": 0, "total": 5, "warmup": 6}, "warmup"),
        ({"step": 0, "total": 5, "warmup": -1}, "warmup"),
    ):
        with pytest.raises(ValueError, match=rf"^{name}: "):
            sp.cosine_schedule(peak=1.0, **kwargs)
    with pytest.raises(ValueError, match=r"^peak: "):
        sp.wsd_schedule(0, total=5, peak=-1.0)
    with pytest.raises(TypeError, match=r"^step: "):
        sp.cosine_schedule(1.5, total=5, peak=1.0)  # type: ignore[arg-type]


def test_step_schedule_milestones_and_gamma() -> None:
    # T = 8: milestones at 4 and 6 (ties m T <= t count)
    got = [sp.step_schedule(t, total=8, peak=2.0, gamma=0.5) for t in range(8)]
    assert got == [2.0, 2.0, 2.0, 2.0, 1.0, 1.0, 0.5, 0.5]
    one = [sp.step_schedule(t, total=8, peak=2.0, milestones=(0.25,)) for t in range(3)]
    assert one == [2.0, 2.0, 2.0 * 0.1]
    assert sp.step_schedule(7, total=8, peak=3.0, gamma=1.0) == 3.0
    for gamma in (1.5, 0.0):
        with pytest.raises(ValueError, match=r"^gamma: "):
            sp.step_schedule(0, total=8, peak=1.0, gamma=gamma)
    for marks in ((0.0, 0.5), (0.5, 1.0), (0.5, 0.5), (0.6, 0.4)):
        with pytest.raises(ValueError, match=r"^milestones: "):
            sp.step_schedule(0, total=8, peak=1.0, milestones=marks)


@pytest.mark.parametrize("shape", ["linear", "sqrt"])
def test_wsd_schedule_closed_form(shape: str) -> None:
    peak, total, warm, ratio = 2.0, 10, 2, 0.25
    t_d = 3  # round(0.26 * 10) = round(2.6)
    low = ratio * peak
    got = [
        sp.wsd_schedule(
            t,
            total=total,
            peak=peak,
            warmup=warm,
            decay_fraction=0.26,
            floor_ratio=ratio,
            shape=shape,  # type: ignore[arg-type]
        )
        for t in range(total)
    ]
    assert got[:2] == [1.0, 2.0]
    assert got[2 : total - t_d] == [peak] * (total - t_d - 2)
    for j in range(1, t_d + 1):
        s = j / t_d
        want = peak - (peak - low) * s if shape == "linear" else low + (peak - low) * (1 - s**0.5)
        assert abs(got[total - t_d - 1 + j] - want) < 1e-15
    assert abs(got[-1] - low) < 1e-15


def test_wsd_schedule_defaults_edges_and_errors() -> None:
    # defaults: T_d = round(0.2 * 10) = 2, eta_min = 0.1 eta_max, linear
    got = [sp.wsd_schedule(t, total=10, peak=1.0) for t in range(10)]
    assert got[:8] == [1.0] * 8
    assert abs(got[8] - 0.55) < 1e-15
    assert abs(got[9] - 0.1) < 1e-15
    assert [sp.wsd_schedule(t, total=4, peak=1.0, decay_fraction=0.0) for t in range(4)] == [
        1.0
    ] * 4
    # T_w + T_d = T is allowed: warm-up then decay straight away
    assert sp.wsd_schedule(2, total=4, peak=1.0, warmup=2, decay_fraction=0.5) == 0.55
    with pytest.raises(ValueError, match=r"^warmup: "):
        sp.wsd_schedule(0, total=4, peak=1.0, warmup=3, decay_fraction=0.5)
    with pytest.raises(ValueError, match=r"^decay_fraction: "):
        sp.wsd_schedule(0, total=4, peak=1.0, decay_fraction=1.5)
    with pytest.raises(ValueError, match=r"^decay_fraction: "):
        sp.wsd_schedule(0, total=4, peak=1.0, decay_fraction=-0.1)
    with pytest.raises(ValueError, match=r"^shape: "):
        sp.wsd_schedule(0, total=4, peak=1.0, shape="cosine")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^floor_ratio: "):
        sp.wsd_schedule(0, total=4, peak=1.0, floor_ratio=2.0)


def test_errors_name_the_offending_argument() -> None:
    with pytest.raises(ValueError, match=r"^final: expected a nonzero"):
        sp.spectrum_cosine(np.eye(2), np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"^current: expected a 2-D"):
        sp.spectrum_cosine(np.ones(2), np.eye(2))
    with pytest.raises(ValueError, match=r"^final: expected a 2-D"):
        sp.spectrum_cosine(np.eye(2), np.ones(2))
    with pytest.raises(ValueError, match=r"^matrix: expected a nonzero"):
        sp.spectral_entropy(np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"^matrix: expected a 2-D"):
        sp.spectral_entropy(np.ones(3))
    with pytest.raises(ValueError, match=r"^matrices\[1\]: expected a nonzero"):
        sp.variation_series(np.stack([np.eye(2), np.zeros((2, 2))]))
    for call, name in (
        (sp.moving_median, "values"),
        (sp.sosd_threshold, "variations"),
        (sp.cosine_threshold, "cosines"),
    ):
        with pytest.raises(ValueError, match=rf"^{name}: expected a 1-D"):
            call(np.ones((3, 2)))


def test_series_accept_single_row_matrices() -> None:
    stack = np.array([[[1.0, 0.0, 0.0]], [[0.0, 2.0, 0.0]]])  # T = 2 matrices of shape (1, 3)
    assert sp.variation_series(stack).tolist() == [0.0]  # each has the one singular value


def test_detector_defaults() -> None:
    """Defaults: window 25 for the moving median, kappa 3 and window 25 for the SoSD rule."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal(60)
    assert not np.array_equal(_moving_median(x, 25), _moving_median(x, 26))
    assert np.array_equal(sp.moving_median(x), _moving_median(x, 25))
    d = np.r_[np.full(100, 3.5), np.full(100, 1.0)] * rng.uniform(0.9, 1.1, 200)

    def index(kappa: float, w: int) -> int:
        smooth = _moving_median(d, w)
        return _settled(smooth <= kappa * float(np.median(smooth[100:])))

    assert index(3.0, 25) != index(4.0, 25)
    res = sp.sosd_threshold(d)
    assert res.index == index(3.0, 25)
    assert np.array_equal(res.smoothed, _moving_median(d, 25))
    assert not np.array_equal(_moving_median(d, 25), _moving_median(d, 26))


def test_more_errors_name_the_offending_argument() -> None:
    with pytest.raises(ValueError, match=r"^matrix: expected a 2-D"):
        sp.normalized_spectrum(np.ones(3))
    with pytest.raises(ValueError, match=r"^before: expected a 2-D"):
        sp.spectrum_variation(np.ones(3), np.eye(2))
    with pytest.raises(ValueError, match=r"^after: expected a 2-D"):
        sp.spectrum_variation(np.eye(2), np.ones(3), pad=True)
    with pytest.raises(ValueError, match=r"^matrix: expected a 2-D"):
        sp.variation_bound(np.ones(2), np.ones(2))
    for kappa in (0.0, -2.0, math.inf):
        with pytest.raises(ValueError, match=r"^kappa: "):
            sp.sosd_threshold([1.0, 1.0], kappa=kappa)
    with pytest.raises(ValueError, match=r"^milestones: expected a 1-D"):
        sp.step_schedule(0, total=8, peak=1.0, milestones=[[0.5], [0.75]])  # type: ignore[arg-type]


def test_wsd_schedule_pure_decay() -> None:
    """decay_fraction = 1 (allowed: [0, 1]) with the default warmup 0: T_d = T, decay from t = 0."""
    got = [sp.wsd_schedule(t, total=4, peak=1.0, decay_fraction=1.0) for t in range(4)]
    want = [1.0 - 0.9 * (t + 1) / 4 for t in range(4)]
    assert np.allclose(got, want, rtol=0.0, atol=1e-15)
