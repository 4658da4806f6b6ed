"""The torch batch threshold decoders against the NumPy reference decoder, tour for tour.

``reference.tsp.fast_torch.sampled_decode`` / ``threshold_decode`` form the threshold sets of a
whole batch on the device and repair each instance on the host; every returned tour must equal
the reference :func:`reference.tsp.sampled_decode` / :func:`reference.tsp.threshold_decode`
called on that instance (the batch draws its levels from one generator in instance order, so the
reference is called in the same order with an identically seeded generator).  Generic random
weights (Euclidean points), so the exact matchings are unique and the reference's integer
program and the fast path's blossom algorithm agree.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference import tsp
from reference._arrays import FloatArray

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from reference.tsp import fast_torch as tsp_torch  # noqa: E402  (after the importorskip guard)

HEATMAPS = ("G1", "G2", "G3", "G4")


def _heat(
    kind: str, tour: np.ndarray, distances: FloatArray, rng: np.random.Generator
) -> FloatArray:
    if kind == "G1":
        return tsp.perturbed_optimum(tour, sigma=0.3, rng=rng)
    if kind == "G2":
        return tsp.edge_flips(tour, k=max(1, tour.shape[0] // 5), rng=rng)
    if kind == "G3":
        return tsp.mixture_heatmap(tour, lam=0.4, rng=rng)
    return tsp.soft_dist(distances, temperature=0.05)


def _batch(seed: int, n: int, kinds: tuple[str, ...]) -> tuple[FloatArray, FloatArray]:
    """One Euclidean instance per heatmap kind (spec §3.6 generators)."""
    rng = np.random.default_rng([20, seed, n])
    ds, xs = [], []
    for kind in kinds:
        _, distances = tsp.euclidean_instance(n, rng=rng)
        ds.append(distances)
        xs.append(_heat(kind, rng.permutation(n), distances, rng))
    return np.stack(ds), np.stack(xs)


def _reference_sampled(
    ds: FloatArray, xs: FloatArray, k: int, seed: int, with_two_opt: bool
) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    return [
        tsp.sampled_decode(d, x, k=k, rng=rng, with_two_opt=with_two_opt).tolist()
        for d, x in zip(ds, xs, strict=True)
    ]


def _check_sampled(device: str, n: int, seed: int, with_two_opt: bool) -> None:
    ds, xs = _batch(seed, n, HEATMAPS)
    got = tsp_torch.sampled_decode(
        ds, xs, k=8, rng=np.random.default_rng(seed), with_two_opt=with_two_opt, device=device
    )
    assert got.dtype == torch.int64
    assert got.device.type == torch.device(device).type
    assert got.shape == (len(HEATMAPS), n)
    expected = _reference_sampled(ds, xs, 8, seed, with_two_opt)
    for b, kind in enumerate(HEATMAPS):
        assert got[b].tolist() == expected[b], f"instance {b} ({kind}) differs from the reference"


@pytest.mark.parametrize(("n", "seed"), [(12, 0), (20, 1), (30, 2)])
def test_sampled_decode_batch_equals_reference_on_cpu(n: int, seed: int) -> None:
    _check_sampled("cpu", n, seed, with_two_opt=False)


def test_sampled_decode_batch_with_two_opt_equals_reference_on_cpu() -> None:
    _check_sampled("cpu", 20, 3, with_two_opt=True)


@pytest.mark.parametrize("tau", [0.3, 0.5, 0.9])
def test_threshold_decode_batch_equals_reference_on_cpu(tau: float) -> None:
    ds, xs = _batch(4, 25, HEATMAPS)
    for with_two_opt in (False, True):
        got = tsp_torch.threshold_decode(ds, xs, tau, with_two_opt=with_two_opt)
        for b in range(len(HEATMAPS)):
            expected = tsp.threshold_decode(ds[b], xs[b], tau, with_two_opt=with_two_opt)
            assert got[b].tolist() == expected.tolist(), f"instance {b}, 2-opt {with_two_opt}"


def test_single_instance_gets_a_batch_axis() -> None:
    ds, xs = _batch(5, 10, ("G3",))
    got = tsp_torch.sampled_decode(ds[0], xs[0], k=4, rng=np.random.default_rng(5))
    assert got.shape == (1, 10)
    assert got[0].tolist() == _reference_sampled(ds, xs, 4, 5, False)[0]


def test_bad_input_is_rejected_like_the_reference() -> None:
    ds, xs = _batch(6, 8, ("G1", "G2"))
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="k"):
        tsp_torch.sampled_decode(ds, xs, k=0, rng=rng)
    with pytest.raises(TypeError, match="rng"):
        tsp_torch.sampled_decode(ds, xs, k=2, rng=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tau"):
        tsp_torch.threshold_decode(ds, xs, 0.0)
    with pytest.raises(ValueError, match="heatmap"):
        tsp_torch.threshold_decode(ds, xs[:1], 0.5)
    asymmetric = xs.copy()
    asymmetric[0, 0, 1] = 1.0 - asymmetric[0, 1, 0] / 2.0 + 0.25
    with pytest.raises(ValueError, match="heatmap"):
        tsp.sampled_decode(ds[0], asymmetric[0], k=2, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="heatmap"):
        tsp_torch.sampled_decode(ds, asymmetric, k=2, rng=np.random.default_rng(0))


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
@pytest.mark.parametrize("with_two_opt", [False, True])
def test_sampled_decode_batch_equals_reference_on_cuda(with_two_opt: bool) -> None:
    _check_sampled("cuda", 30, 7, with_two_opt=with_two_opt)
