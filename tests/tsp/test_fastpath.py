"""Torch fast paths of the TSP family against the NumPy reference, tour for tour."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from reference import tsp
from reference._arrays import FloatArray
from reference.tsp.baselines import greedy_merge_order as greedy_merge_order_reference

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from reference.tsp import fast_torch as tsp_torch  # noqa: E402  (after the importorskip guard)


def _batch(seed: int, batch: int, n: int) -> tuple[FloatArray, FloatArray, np.ndarray[Any, Any]]:
    rng = np.random.default_rng(seed)
    ds, xs, ts = [], [], []
    for b in range(batch):
        if b % 3 == 2:
            distances = tsp.random_metric_instance(n, rng=rng)
        else:
            _, distances = tsp.euclidean_instance(n, rng=rng)
        start = rng.permutation(n)
        heat = (
            tsp.soft_dist(distances, temperature=0.05)
            if b % 2
            else tsp.mixture_heatmap(start, lam=0.6, rng=rng)
        )
        ds.append(distances)
        xs.append(heat)
        ts.append(start)
    return np.stack(ds), np.stack(xs), np.stack(ts)


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One fast path paired with its reference (OpInfo style)."""

    name: str
    fast: Callable[[FloatArray, FloatArray, Any, str], Any]
    reference: Callable[[FloatArray, FloatArray, Any], Any]


RECORDS = (
    Record(
        name="greedy_merge",
        fast=lambda d, x, t, dev: tsp_torch.greedy_merge(d, x, device=dev),
        reference=lambda d, x, t: tsp.greedy_merge(d, x),
    ),
    Record(
        name="greedy_merge_order",
        fast=lambda d, x, t, dev: tsp_torch.greedy_merge_order(d, x, device=dev),
        reference=lambda d, x, t: greedy_merge_order_reference(d, x),
    ),
    Record(
        name="two_opt",
        fast=lambda d, x, t, dev: tsp_torch.two_opt(d, t, device=dev).tour,
        reference=lambda d, x, t: tsp.two_opt(d, t).tour,
    ),
    Record(
        name="symmetrize_directed",
        fast=lambda d, x, t, dev: tsp_torch.symmetrize_heatmaps(x / 2, mode="directed", device=dev),
        reference=lambda d, x, t: tsp.prepare_heatmap(x / 2, symmetrize="directed"),
    ),
    Record(
        name="symmetrize_mean",
        fast=lambda d, x, t, dev: tsp_torch.symmetrize_heatmaps(
            np.triu(x), mode="mean", device=dev
        ),
        reference=lambda d, x, t: tsp.prepare_heatmap(np.triu(x), symmetrize="mean"),
    ),
)


@pytest.mark.parametrize("record", RECORDS, ids=[r.name for r in RECORDS])
@pytest.mark.parametrize("seed", [0, 1])
def test_fast_path_matches_reference(record: Record, seed: int, device: str) -> None:
    distances, heat, starts = _batch(seed, batch=5, n=14 + 3 * seed)
    out = record.fast(distances, heat, starts, device)
    assert isinstance(out, torch.Tensor)
    assert out.device.type == device
    for b in range(distances.shape[0]):
        expected = np.asarray(record.reference(distances[b], heat[b], starts[b]))
        got = out[b].cpu().numpy()
        if expected.dtype.kind == "f":
            assert out.dtype == torch.float64
            np.testing.assert_array_equal(got, expected)
        else:
            assert out.dtype == torch.int64
            assert np.array_equal(got, expected), (record.name, b)


def test_two_opt_trajectory_and_fields(device: str) -> None:
    distances, _, starts = _batch(3, batch=4, n=20)
    for cap in (0, 1, 3, 1000):
        result = tsp_torch.two_opt(distances, starts, max_iter=cap, device=device)
        # the batched type carries every field of the reference's TwoOptResult, nothing else
        names = [f.name for f in dataclasses.fields(tsp.TwoOptResult)]
        assert [f.name for f in dataclasses.fields(result)] == names
        assert result.tour.device.type == device
        assert result.length.dtype == torch.float64
        assert result.best_delta.dtype == torch.float64
        for b in range(4):
            ref = tsp.two_opt(distances[b], starts[b], max_iter=cap)
            assert np.array_equal(result.tour[b].cpu().numpy(), ref.tour)
            assert int(result.iterations[b]) == ref.iterations
            assert bool(result.converged[b]) == ref.converged
            assert float(result.length[b]) == pytest.approx(ref.length, abs=1e-12)
            assert float(result.best_delta[b]) == pytest.approx(ref.best_delta, abs=1e-12)


def test_float32_gives_valid_tours(device: str) -> None:
    distances, heat, starts = _batch(4, batch=3, n=15)
    tours = tsp_torch.two_opt(distances, starts, device=device, dtype=torch.float32).tour
    for b in range(3):
        tour = tours[b].cpu().numpy()
        assert tsp.is_tour(tour, 15)
        assert (
            tsp.tour_length(distances[b], tour) <= tsp.tour_length(distances[b], starts[b]) + 1e-4
        )
    merged = tsp_torch.greedy_merge(distances, heat, device=device, dtype=torch.float32)
    assert all(tsp.is_tour(merged[b].cpu().numpy(), 15) for b in range(3))


def test_bad_input_raises() -> None:
    distances, heat, starts = _batch(5, batch=2, n=6)
    bad = distances.copy()
    bad[0, 0, 1] = np.nan
    with pytest.raises(ValueError, match="finite"):
        tsp_torch.two_opt(bad, starts)
    with pytest.raises(ValueError, match="permutations"):
        tsp_torch.two_opt(distances, np.zeros((2, 6), dtype=np.int64))
    with pytest.raises(ValueError, match="heatmap"):
        tsp_torch.greedy_merge_order(distances, heat[:, :5, :5])
    with pytest.raises(ValueError, match="mode"):
        tsp_torch.symmetrize_heatmaps(heat, mode="max")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="raw"):
        tsp_torch.symmetrize_heatmaps("heat")
