"""Torch layerwise trainer: whole loss trajectories equal the numpy reference (float64)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from reference import hierarchical as hl

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from reference.hierarchical.fast_torch import train_end_to_end_torch, train_layerwise_torch  # noqa: E402


@pytest.fixture(autouse=True)
def _one_thread() -> Iterator[None]:
    """Tiny matrices: one intra-op thread avoids oversubscription under pytest-xdist."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def test_trajectories_match_reference(device: str) -> None:
    tree = hl.make_xor_tree(8, 256, rng=np.random.default_rng(0))
    cfg = hl.LayerwiseConfig(width=16, epochs=2)
    ref = hl.train_layerwise(tree.x, tree.levels, rng=np.random.default_rng(7), config=cfg)
    fast = train_layerwise_torch(
        tree.x, tree.levels, rng=np.random.default_rng(7), config=cfg, device=device
    )
    for a, b in zip(ref.batch_losses, fast.batch_losses, strict=True):
        np.testing.assert_allclose(b, a, rtol=1e-6)
    for block_ref, block_fast in zip(ref.net.blocks, fast.net.blocks, strict=True):
        np.testing.assert_allclose(block_fast.W1, block_ref.W1, rtol=1e-6, atol=1e-12)
    assert fast.net.blocks[0].W1.dtype == np.float64


def test_end_to_end_baseline_runs(device: str) -> None:
    tree = hl.make_xor_tree(4, 256, rng=np.random.default_rng(1))
    res = train_end_to_end_torch(
        tree.x,
        tree.levels,
        rng=np.random.default_rng(2),
        config=hl.LayerwiseConfig(width=16, epochs=3),
        device=device,
    )
    assert res.losses.shape == (3,)
    assert len(res.predict(tree.x)) == 2
