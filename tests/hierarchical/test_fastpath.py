"""Torch layerwise trainer: whole loss trajectories equal the numpy reference (float64)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from reference import hierarchical as hl

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from reference.hierarchical import fast_torch as ft  # noqa: E402


@pytest.fixture(autouse=True)
def _one_thread() -> Iterator[None]:
    """Tiny matrices: one intra-op thread avoids oversubscription under pytest-xdist."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One torch function paired with its numpy reference (OpInfo style)."""

    name: str
    reference: Callable[..., Any]
    fast: Callable[..., Any]
    make: Callable[[], tuple[tuple[Any, ...], dict[str, Any]]]
    rtol64: float = 1e-6
    atol64: float = 1e-12


def _layerwise_inputs(
    depth: int, n: int, config: hl.LayerwiseConfig
) -> Callable[[], tuple[tuple[Any, ...], dict[str, Any]]]:
    def make() -> tuple[tuple[Any, ...], dict[str, Any]]:
        tree = hl.make_xor_tree(depth, n, rng=np.random.default_rng(0))
        return (tree.x, tree.levels), {"rng": np.random.default_rng(7), "config": config}

    return make


RECORDS = (
    Record(
        name="train_layerwise",
        reference=hl.train_layerwise,
        fast=ft.train_layerwise,
        make=_layerwise_inputs(8, 256, hl.LayerwiseConfig(width=16, epochs=2)),
    ),
    Record(
        name="train_layerwise[small_batches]",
        reference=hl.train_layerwise,
        fast=ft.train_layerwise,
        make=_layerwise_inputs(4, 120, hl.LayerwiseConfig(width=8, epochs=2, batch_size=25)),
    ),
)


@pytest.mark.parametrize("record", RECORDS, ids=[r.name for r in RECORDS])
def test_trajectories_match_reference(record: Record, device: str) -> None:
    args, kw = record.make()
    ref = record.reference(*args, **kw)
    args, kw = record.make()  # a fresh input (and generator) for the fast side
    fast = record.fast(*args, **kw, device=device)
    assert len(fast.batch_losses) == len(ref.batch_losses)
    for a, b in zip(ref.batch_losses, fast.batch_losses, strict=True):
        np.testing.assert_allclose(b, a, rtol=record.rtol64)
    for block_ref, block_fast in zip(ref.net.blocks, fast.net.blocks, strict=True):
        for key in ("W1", "c1", "W2", "c2"):
            np.testing.assert_allclose(
                getattr(block_fast, key),
                getattr(block_ref, key),
                rtol=record.rtol64,
                atol=record.atol64,
                err_msg=key,
            )
    assert fast.net.blocks[0].W1.dtype == np.float64


def test_end_to_end_baseline_runs(device: str) -> None:
    tree = hl.make_xor_tree(4, 256, rng=np.random.default_rng(1))
    res = ft.train_end_to_end(
        tree.x,
        tree.levels,
        rng=np.random.default_rng(2),
        config=hl.LayerwiseConfig(width=16, epochs=3),
        device=device,
    )
    assert res.losses.shape == (3,)
    assert len(res.predict(tree.x)) == 2
