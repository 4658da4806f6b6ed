"""Unit tests of reference.hierarchical: gates, generators, residual stream, layerwise training."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import pytest

from reference import hierarchical as hl
from reference._arrays import FloatArray


@pytest.mark.parametrize("name", sorted(hl.GATES))
def test_gates_are_exact_with_margin_one(name: str) -> None:
    q = hl.GATES[name]
    cube = np.array(list(itertools.product([-1.0, 1.0], repeat=q)))
    values = hl.gate_polynomial(name, cube)
    assert np.all(np.abs(values) == 1.0)
    boolean: Callable[[FloatArray], float] = {
        "xor2": lambda z: float(np.prod(z)),
        "and2": lambda z: 1.0 if np.all(z == 1) else -1.0,
        "or2": lambda z: 1.0 if np.any(z == 1) else -1.0,
        "maj3": lambda z: float(np.sign(np.sum(z))),
    }[name]
    assert values.tolist() == [boolean(z) for z in cube]


def test_negations() -> None:
    gate = hl.Gate(kind="and2", inputs=(1, 0), in_signs=(-1, 1), out_sign=-1)
    vals = np.array([[1.0, -1.0], [1.0, 1.0]])
    # z = (-x1, x0): row 0 -> (1, 1) -> AND = 1 -> negated -1; row 1 -> (-1, 1) -> -1 -> 1
    assert hl.evaluate_gate(gate, vals).tolist() == [-1.0, 1.0]
    with pytest.raises(ValueError, match="inputs"):
        hl.Gate(kind="maj3", inputs=(0, 1), in_signs=(1, 1), out_sign=1)


def test_random_circuit_consistency_and_bias() -> None:
    h = hl.make_random_circuit(12, 3, 6, 3000, rng=np.random.default_rng(0), probe=2000)
    again = hl.evaluate_circuit(h.circuit, h.x)
    for a, b in zip(h.levels, again, strict=True):
        assert np.array_equal(a, b)
    for lv in h.levels:
        assert np.max(np.abs(lv.mean(axis=0))) < 0.85
    with pytest.raises(ValueError, match="fan-in"):
        hl.make_random_circuit(2, 1, 1, 5, rng=np.random.default_rng(0), gates=("maj3",))


def test_xor_tree_dependencies() -> None:
    tree = hl.make_xor_tree(8, 64, rng=np.random.default_rng(1))
    for i, lv in enumerate(tree.levels, start=1):
        block = 2**i
        for j in range(lv.shape[1]):
            assert np.array_equal(lv[:, j], np.prod(tree.x[:, j * block : (j + 1) * block], axis=1))


def test_stream_blocks_write_only_their_columns_and_freeze() -> None:
    rng = np.random.default_rng(2)
    tree = hl.make_xor_tree(8, 512, rng=rng)
    cfg = hl.LayerwiseConfig(width=16, epochs=2)
    full = hl.train_layerwise(tree.x, tree.levels, rng=np.random.default_rng(3), config=cfg)
    other_top = [*tree.levels[:2], -np.asarray(tree.levels[2])]
    other = hl.train_layerwise(tree.x, other_top, rng=np.random.default_rng(3), config=cfg)
    for a, b in zip(other.net.blocks[:2], full.net.blocks[:2], strict=True):
        # blocks 1, 2 are frozen before block 3 trains: bit-identical whatever level 3's labels
        assert np.array_equal(a.W1, b.W1)
        assert np.array_equal(a.W2, b.W2)
    assert not np.array_equal(other.net.blocks[2].W2, full.net.blocks[2].W2)
    h = full.net.stream(tree.x)
    assert np.array_equal(h[:, :8], tree.x)  # inputs never modified
    h1 = full.net.stream(tree.x, upto=1)
    assert np.all(h1[:, 8 + 4 :] == 0.0)  # block 1 writes only B_1
    assert np.all(np.abs(h1[:, 8 : 8 + 4]) <= 1.0)


def test_layerwise_learns_and_flat_fails_small() -> None:
    rng = np.random.default_rng(4)
    tree = hl.make_xor_tree(16, 3000, rng=rng)
    x_test = hl.sample_inputs(16, 2000, rng=rng)
    truth = hl.evaluate_circuit(tree.circuit, x_test)
    res = hl.train_layerwise(
        tree.x, tree.levels, rng=np.random.default_rng(5), config=hl.LayerwiseConfig(width=64)
    )
    assert np.min(hl.level_accuracies(res.net, x_test, truth)) >= 0.99
    flat = hl.train_flat(tree.x, tree.levels[-1], rng=np.random.default_rng(6), epochs=5)
    assert float(np.mean(flat.predict(x_test) == truth[-1])) <= 0.58


def test_validation_messages() -> None:
    with pytest.raises(ValueError, match="power of two"):
        hl.make_xor_tree(6, 3, rng=np.random.default_rng(0))
    x = np.ones((4, 2))
    with pytest.raises(ValueError, match="rows"):
        hl.train_layerwise(x, [np.ones((3, 1))], rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="-1, \\+1"):
        hl.train_layerwise(x, [np.zeros((4, 1))], rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="max_bias"):
        hl.make_random_circuit(4, 1, 1, 3, rng=np.random.default_rng(0), max_bias=1.0)
