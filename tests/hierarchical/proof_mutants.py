"""Mutant table of the hierarchical theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from reference._arrays import FloatArray
from reference.hierarchical import (
    Gate,
    LabelHierarchy,
    LayerwiseConfig,
    evaluate_circuit,
    gate_polynomial,
    make_random_circuit,
    sample_inputs,
    train_flat,
    train_layerwise,
)
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def gate_and_wrong_constant(name: str, z: FloatArray) -> FloatArray:
    """AND2 as ``(z1 + z2 + z1 z2 + 1)/2`` (the constant's sign flipped)."""
    if name == "and2":
        zs = np.asarray(z, dtype=np.float64)
        out: FloatArray = (zs[:, 0] + zs[:, 1] + zs[:, 0] * zs[:, 1] + 1.0) / 2.0
        return out
    return gate_polynomial(name, z)


def xor_tree_strided(d: int, n_samples: int, *, rng: np.random.Generator) -> LabelHierarchy:
    """Pairs ``(j, j + size/2)`` at each level instead of neighbours ``(2j, 2j + 1)``."""
    circuit: list[tuple[Gate, ...]] = []
    size = d
    while size > 1:
        half = size // 2
        circuit.append(
            tuple(
                Gate(kind="xor2", inputs=(j, j + half), in_signs=(1, 1), out_sign=1)
                for j in range(half)
            )
        )
        size = half
    x = sample_inputs(d, n_samples, rng=rng)
    return LabelHierarchy(x=x, levels=evaluate_circuit(circuit, x), circuit=tuple(circuit))


def random_circuit_relabelled(*args: Any, rng: np.random.Generator, **kwargs: Any) -> Any:
    """Returns labels of one input draw with a fresh draw of the inputs (x resampled after)."""
    res = make_random_circuit(*args, rng=rng, **kwargs)
    x = sample_inputs(res.x.shape[1], res.x.shape[0], rng=rng)
    return dataclasses.replace(res, x=x)


def train_layerwise_one_epoch(
    *args: Any, config: LayerwiseConfig | None = None, **kwargs: Any
) -> Any:
    """One epoch per block (the configured epochs ignored)."""
    base = LayerwiseConfig() if config is None else config
    return train_layerwise(*args, config=dataclasses.replace(base, epochs=1), **kwargs)


def train_flat_no_steps(*args: Any, **kwargs: Any) -> Any:
    """A step size of 1e-9: the network stays at its initialisation."""
    return train_flat(*args, **{**kwargs, "learning_rate": 1e-9})


# ------------------------------------------------------------------ issue 36: audit mutants
# Plausible wrong implementations of G2 written before the checks were tightened (item 5).


def random_circuit_no_bias_filter(*args: Any, **kwargs: Any) -> Any:
    """G2 whose rejection test is never met (``max_bias`` read as 1 - 1e-12)."""
    kwargs["max_bias"] = 1.0 - 1e-12
    return make_random_circuit(*args, **kwargs)


def random_circuit_all_gates(*args: Any, **kwargs: Any) -> Any:
    """G2 drawing from the whole gate library whatever ``gates`` asks."""
    kwargs.pop("gates", None)
    return make_random_circuit(*args, **kwargs)


def random_circuit_narrow(d: int, r: int, width: int, *args: Any, **kwargs: Any) -> Any:
    """G2 stopping one gate short on every level (``while len(chosen) < width - 1``)."""
    return make_random_circuit(d, r, max(1, width - 1), *args, **kwargs)


def random_circuit_shallow(d: int, r: int, *args: Any, **kwargs: Any) -> Any:
    """G2 with ``range(r - 1)`` levels (an off-by-one in the depth loop)."""
    return make_random_circuit(d, max(1, r - 1), *args, **kwargs)


def train_layerwise_shifted(x: Any, levels: Any, **kwargs: Any) -> Any:
    """Block ``i`` trained on the labels of level ``i + 1`` (the last level reused at the top)."""
    lv = list(levels)
    return train_layerwise(x, [*lv[1:], lv[-1]], **kwargs)


def train_layerwise_top_only(x: Any, levels: Any, **kwargs: Any) -> Any:
    """Every block trained on the top label (the hints of the lower levels dropped)."""
    lv = list(levels)
    return train_layerwise(x, [lv[-1]] * len(lv), **kwargs)


def _m(name: str, why: str, algorithm: str, target: str, catches: tuple[str, ...]) -> ProofMutant:
    return ProofMutant(
        family="hierarchical",
        name=name,
        why=why,
        algorithm=f"reference.hierarchical:{algorithm}",
        target=f"{__name__}:{target}",
        catches=catches,
    )


MUTANTS = (
    _m(
        "gate_polynomial: AND2 constant",
        "the constant term's sign flipped",
        "gate_polynomial",
        "gate_and_wrong_constant",
        ("hierarchical.gates",),
    ),
    _m(
        "make_xor_tree: strided pairs",
        "pairs (j, j + size/2) instead of neighbours",
        "make_xor_tree",
        "xor_tree_strided",
        ("hierarchical.generators",),
    ),
    _m(
        "make_random_circuit: x resampled",
        "labels of another input draw",
        "make_random_circuit",
        "random_circuit_relabelled",
        ("hierarchical.generators", "hierarchical.random_circuit"),
    ),
    _m(
        "train_layerwise: one epoch",
        "the configured epochs ignored",
        "train_layerwise",
        "train_layerwise_one_epoch",
        ("hierarchical.layerwise",),
    ),
    _m(
        "train_flat: no steps",
        "a step size that does not move the network",
        "train_flat",
        "train_flat_no_steps",
        ("hierarchical.flat_baseline",),
    ),
    _m(
        "make_random_circuit: no bias filter",
        "the |mean| <= max_bias rejection never triggers",
        "make_random_circuit",
        "random_circuit_no_bias_filter",
        ("hierarchical.random_circuit",),
    ),
    _m(
        "make_random_circuit: gates ignored",
        "draws from every gate kind whatever gates asks",
        "make_random_circuit",
        "random_circuit_all_gates",
        ("hierarchical.random_circuit",),
    ),
    _m(
        "make_random_circuit: width - 1",
        "one gate short on every level",
        "make_random_circuit",
        "random_circuit_narrow",
        ("hierarchical.random_circuit",),
    ),
    _m(
        "make_random_circuit: r - 1 levels",
        "the depth loop one level short",
        "make_random_circuit",
        "random_circuit_shallow",
        ("hierarchical.random_circuit",),
    ),
    _m(
        "train_layerwise: levels shifted",
        "block i trained on level i + 1 (an off-by-one in the level index)",
        "train_layerwise",
        "train_layerwise_shifted",
        ("hierarchical.layerwise",),
    ),
    _m(
        "train_layerwise: top label only",
        "the hints dropped: every block fitted to the top label",
        "train_layerwise",
        "train_layerwise_top_only",
        ("hierarchical.layerwise",),
    ),
)
