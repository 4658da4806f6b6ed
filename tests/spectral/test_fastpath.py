"""SoSD tracker and torch spectra against the numpy reference over trajectories."""

from __future__ import annotations

import numpy as np
import pytest

from reference import spectral as sp

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from torch import nn  # noqa: E402

from reference.spectral.fast_torch import SpectrumTracker, normalized_spectrum_torch  # noqa: E402


def test_spectrum_matches_reference(device: str) -> None:
    rng = np.random.default_rng(0)
    for shape in [(1, 1), (3, 5), (6, 2), (4, 4)]:
        w = rng.standard_normal(shape)
        out = normalized_spectrum_torch(torch.as_tensor(w, device=device))
        assert out.dtype == torch.float64
        assert out.device.type == torch.device(device).type
        np.testing.assert_allclose(
            out.cpu().numpy(), sp.normalized_spectrum(w), rtol=1e-12, atol=1e-15
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
        normalized_spectrum_torch(torch.zeros(2, 2))
    tracker = SpectrumTracker({"z": torch.zeros(2, 2)})
    with pytest.raises(ValueError, match="nonzero"):
        tracker(0)
