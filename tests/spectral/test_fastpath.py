"""SoSD tracker and torch spectra against the numpy reference over trajectories."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pytest

from reference import spectral as sp

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from torch import nn  # noqa: E402

from reference.spectral import fast_torch as ft  # noqa: E402
from reference.spectral.fast_torch import SpectrumTracker  # noqa: E402


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One torch function paired with its numpy reference (OpInfo style)."""

    name: str
    reference: Callable[[np.ndarray], Any]
    fast: Callable[[Any], Any]
    shapes: tuple[tuple[int, int], ...] = ((1, 1), (3, 5), (6, 2), (4, 4))
    tol64: tuple[float, float] = (1e-12, 1e-15)  # (rtol, atol)
    tol32: tuple[float, float] = (1e-5, 1e-7)


MODES: tuple[sp.Normalization, ...] = ("trace", "energy")
RECORDS = tuple(
    Record(
        name=f"normalized_spectrum[{mode}]",
        reference=partial(sp.normalized_spectrum, normalization=mode),
        fast=partial(ft.normalized_spectrum, normalization=mode),
    )
    for mode in MODES
)


@pytest.mark.parametrize("record", RECORDS, ids=[r.name for r in RECORDS])
@pytest.mark.parametrize("dtype_name", ["float64", "float32"])
def test_fast_path_matches_reference(record: Record, dtype_name: str, device: str) -> None:
    dtype = getattr(torch, dtype_name)
    rtol, atol = record.tol64 if dtype_name == "float64" else record.tol32
    for k, shape in enumerate(record.shapes):
        out = record.fast(
            torch.as_tensor(np.random.default_rng(k).standard_normal(shape), device=device).to(
                dtype
            )
        )
        assert out.dtype == dtype
        assert out.device.type == torch.device(device).type
        want = record.reference(np.random.default_rng(k).standard_normal(shape))  # fresh input
        np.testing.assert_allclose(out.cpu().double().numpy(), want, rtol=rtol, atol=atol)


def test_spectrum_is_batched_over_leading_axes(device: str) -> None:
    w = np.random.default_rng(5).standard_normal((2, 3, 4, 5))
    out = ft.normalized_spectrum(torch.as_tensor(w, device=device)).cpu().numpy()
    for i in range(2):
        for j in range(3):
            np.testing.assert_allclose(
                out[i, j], sp.normalized_spectrum(w[i, j]), rtol=1e-12, atol=1e-15
            )


def test_tracker_on_a_training_run_matches_reference(device: str) -> None:
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 3)).to(
        device=device, dtype=torch.float64
    )
    tracker = SpectrumTracker(net, ["0.weight", "2.weight"])
    opt = torch.optim.Adam(net.parameters(), lr=0.05)
    x = torch.randn(32, 5, dtype=torch.float64, device=device)
    y = torch.randint(0, 3, (32,), device=device)
    snapshots: dict[str, list[np.ndarray]] = {n: [] for n in tracker.names}
    params = dict(net.named_parameters())
    for step in range(12):
        tracker(step)
        for name in tracker.names:
            snapshots[name].append(params[name].detach().cpu().numpy().copy())
        opt.zero_grad()
        torch.autograd.backward(nn.functional.cross_entropy(net(x), y))
        opt.step()
    for name in tracker.names:
        stack = np.array(snapshots[name])
        np.testing.assert_allclose(
            tracker.variations(name), sp.variation_series(stack), rtol=1e-9, atol=1e-15
        )
        np.testing.assert_allclose(
            tracker.cosines_to_final(name), sp.cosine_series(stack), rtol=1e-12
        )
        np.testing.assert_allclose(
            tracker.nuclear_norms[name],
            [float(np.linalg.norm(w, "nuc")) for w in stack],
            rtol=1e-12,
        )
    mean = tracker.mean_variation()
    assert mean.shape == (11,)
    assert tracker.steps == list(range(12))


def test_tracker_defaults_and_errors() -> None:
    net = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2))
    assert SpectrumTracker(net).names == ("0.weight", "1.weight")
    with pytest.raises(ValueError, match="names"):
        SpectrumTracker(net, ["nope"])
    with pytest.raises(ValueError, match="2-D"):
        SpectrumTracker({"b": torch.ones(3)})
    with pytest.raises(ValueError, match="nonzero"):
        ft.normalized_spectrum(torch.zeros(2, 2))
    with pytest.raises(ValueError, match="normalization"):
        ft.normalized_spectrum(torch.ones(2, 2), normalization="max")  # type: ignore[arg-type]
    tracker = SpectrumTracker({"z": torch.zeros(2, 2)})
    with pytest.raises(ValueError, match="nonzero"):
        tracker(0)
