"""Torch mini-batch estimator against the numpy reference, trajectory for trajectory."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from reference import divergence as dv

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from reference.divergence.fast_torch import (  # noqa: E402
    armijo_ascent_torch,
    estimate_alpha_divergence_torch,
    rff_transform_torch,
)

TOLERANCES = {torch.float64: 1e-10, torch.float32: 2e-4}


def _problem(seed: int) -> tuple[np.ndarray, np.ndarray, dv.RandomFourierFeatures]:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((120, 2))
    y = rng.standard_normal((90, 2)) + np.array([1.0, 0.0])
    return x, y, dv.make_rff(2, 24, sigma=1.0, rng=rng)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("batch_size", [None, 32], ids=["full", "minibatch"])
def test_trajectory_matches_reference(device: str, dtype: Any, batch_size: int | None) -> None:
    x, y, feats = _problem(3)
    cfg = dv.ArmijoConfig(radius=2.0, max_iter=40, batch_size=batch_size)
    ref = dv.armijo_ascent(
        feats.transform(x), feats.transform(y), 0.4, cfg, rng=np.random.default_rng(7)
    )
    zx = rff_transform_torch(feats, torch.as_tensor(x, dtype=dtype, device=device))
    zy = rff_transform_torch(feats, torch.as_tensor(y, dtype=dtype, device=device))
    fast = armijo_ascent_torch(zx, zy, 0.4, cfg, rng=np.random.default_rng(7))
    assert fast.theta.dtype == dtype
    assert fast.theta.device.type == device
    tol = TOLERANCES[dtype]
    assert fast.iterations == ref.iterations
    if dtype == torch.float64:
        np.testing.assert_allclose(fast.steps, ref.steps, rtol=0)
    np.testing.assert_allclose(fast.values, ref.values, rtol=tol, atol=tol)
    np.testing.assert_allclose(fast.theta.cpu().numpy(), ref.theta, rtol=tol * 10, atol=tol * 10)


def test_estimator_matches_reference(device: str) -> None:
    x, y, feats = _problem(5)
    cfg = dv.ArmijoConfig(radius=3.0, max_iter=60, batch_size=16)
    want = dv.estimate_alpha_divergence(
        x, y, 0.5, rng=np.random.default_rng(1), features=feats, config=cfg, heldout=False
    ).value
    got = estimate_alpha_divergence_torch(
        x, y, 0.5, features=feats, rng=np.random.default_rng(1), config=cfg, device=device
    )
    assert got == pytest.approx(want, rel=1e-10, abs=1e-12)


def test_bad_input() -> None:
    _, _, feats = _problem(0)
    with pytest.raises(ValueError, match="x: expected shape"):
        rff_transform_torch(feats, torch.zeros(3, 5, dtype=torch.float64))
    z = torch.zeros(4, 3, dtype=torch.float64)
    with pytest.raises(TypeError, match="zx"):
        armijo_ascent_torch(torch.zeros(4, 3, dtype=torch.int64), z, 0.5)
    with pytest.raises(ValueError, match="alpha"):
        armijo_ascent_torch(z, z, 1.5)
    with pytest.raises(ValueError, match="rng"):
        armijo_ascent_torch(z, z, 0.5, dv.ArmijoConfig(batch_size=2))


def test_neural_critic_baseline_runs_and_validates() -> None:
    from reference.divergence.fast_torch import neural_critic_estimate

    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((60, 1)), rng.standard_normal((60, 1)) + 1.0
    result = neural_critic_estimate(x, y, 0.5, seed=1, iterations=30, batch_size=16)
    assert result.curve.shape == (30,)
    assert np.isfinite(result.value)
    again = neural_critic_estimate(x, y, 0.5, seed=1, iterations=30, batch_size=16)
    assert again.value == result.value  # seeded: same bits
    with pytest.raises(ValueError, match="alpha"):
        neural_critic_estimate(x, y, 1.0, seed=1)
