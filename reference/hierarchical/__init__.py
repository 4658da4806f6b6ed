"""Hierarchical label models and layerwise SGD on a residual network (spec 11).

The family's public API. The code lives in:

* :mod:`reference.hierarchical.learning` — Hierarchical label models and layerwise SGD on a residual network (spec 11).

The torch fast path :mod:`reference.hierarchical.fast_torch` is not imported here.
"""

from __future__ import annotations

from reference.hierarchical.learning import (
    GATES,
    FlatResult,
    Gate,
    LabelHierarchy,
    LayerwiseConfig,
    LayerwiseResult,
    ResidualBlock,
    ResidualLabelNet,
    evaluate_circuit,
    evaluate_gate,
    gate_polynomial,
    level_accuracies,
    make_random_circuit,
    make_xor_tree,
    sample_inputs,
    train_flat,
    train_layerwise,
)

__all__ = [
    "GATES",
    "FlatResult",
    "Gate",
    "LabelHierarchy",
    "LayerwiseConfig",
    "LayerwiseResult",
    "ResidualBlock",
    "ResidualLabelNet",
    "evaluate_circuit",
    "evaluate_gate",
    "gate_polynomial",
    "level_accuracies",
    "make_random_circuit",
    "make_xor_tree",
    "sample_inputs",
    "train_flat",
    "train_layerwise",
]
