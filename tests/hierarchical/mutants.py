"""Hand-made broken generators and trainers: the hierarchical suites reject each one."""

from __future__ import annotations

from typing import Any

import numpy as np

from reference import hierarchical as hl
from reference._arrays import FloatArray

# ----------------------------------------------------------------------------- generators


def tree_overlapping_pairs(d: int, n: int, *, rng: np.random.Generator) -> tuple[Any, Any]:
    """Mutant: pairs neighbours cyclically (``x_j x_{j+1}``) instead of disjoint pairs."""
    x = hl.sample_inputs(d, n, rng=rng)
    levels, prev = [], x
    while prev.shape[1] > 1:
        w = prev.shape[1] // 2
        prev = prev[:, :w] * np.roll(prev, -1, axis=1)[:, :w]
        levels.append(prev)
    return x, levels


def tree_zero_one(d: int, n: int, *, rng: np.random.Generator) -> tuple[Any, Any]:
    """Mutant: labels in {0, 1} instead of {-1, +1}."""
    tree = hl.make_xor_tree(d, n, rng=rng)
    return tree.x, [(np.asarray(y) + 1.0) / 2.0 for y in tree.levels]


def tree_global_rng(d: int, n: int, *, rng: np.random.Generator) -> tuple[Any, Any]:
    """Mutant: ignores the given generator (fresh OS entropy: not reproducible)."""
    tree = hl.make_xor_tree(d, n, rng=np.random.default_rng())
    return tree.x, tree.levels


def tree_no_top(d: int, n: int, *, rng: np.random.Generator) -> tuple[Any, Any]:
    """Mutant: off-by-one, drops the top level (the parity of all bits)."""
    tree = hl.make_xor_tree(d, n, rng=rng)
    return tree.x, tree.levels[:-1]


def tree_biased_inputs(d: int, n: int, *, rng: np.random.Generator) -> tuple[Any, Any]:
    """Mutant: inputs drawn with P(+1) = 0.9 (labels no longer balanced)."""
    x = np.where(rng.random((n, d)) < 0.9, 1.0, -1.0)
    tree = hl.make_xor_tree(d, 1, rng=rng)
    return x, list(hl.evaluate_circuit(tree.circuit, x))


# ----------------------------------------------------------------------------- trainers

_CFG = hl.LayerwiseConfig(width=32)


def trainer_no_hints(x: Any, levels: Any, *, rng: np.random.Generator) -> Any:
    """Mutant: trains every block on the top labels only (no intermediate hints)."""
    top = np.asarray(levels[-1])
    fake = [np.repeat(top, np.asarray(y).shape[1], axis=1) for y in levels]
    return hl.train_layerwise(x, fake, rng=rng, config=_CFG)


def trainer_flipped(x: Any, levels: Any, *, rng: np.random.Generator) -> Any:
    """Mutant: predicts ``-sign(o)``."""
    res = hl.train_layerwise(x, levels, rng=rng, config=_CFG)
    return lambda xs: tuple(-p for p in res.net.predict(xs))


def trainer_centred_labels(x: Any, levels: Any, *, rng: np.random.Generator) -> Any:
    """Mutant: centres the labels before predicting (a constant level becomes sign(0) = 0)."""
    res = hl.train_layerwise(x, levels, rng=rng, config=_CFG)
    means = [float(np.mean(y)) for y in levels]

    def predict(xs: FloatArray) -> tuple[FloatArray, ...]:
        return tuple(np.sign(p - m) for p, m in zip(res.net.predict(xs), means, strict=True))

    return predict


def trainer_global_rng(x: Any, levels: Any, *, rng: np.random.Generator) -> Any:
    """Mutant: ignores the given generator."""
    return hl.train_layerwise(
        x, levels, rng=np.random.default_rng(), config=hl.LayerwiseConfig(width=32, epochs=1)
    )
