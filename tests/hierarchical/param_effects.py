"""Parameter-effect rows of the hierarchical family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import (
    BASELINE,
    FAST_PATH,
    RANDOM_SOURCE,
    ParamEffect,
    Row,
    constant,
    one_less,
    rows,
    scaled,
)

__all__ = ["NEUTRAL", "PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    ParamEffect(
        family="hierarchical",
        algorithm="reference.hierarchical:make_random_circuit",
        keyword="max_bias",
        label="default 0.8",
        replace=constant(0.8),
        where="random_circuit asks max_bias 0.3, 0.4, 0.6; AND/OR/MAJ chains reach |mean| 0.5+",
        catches=("hierarchical.random_circuit",),
    ),
    ParamEffect(
        family="hierarchical",
        algorithm="reference.hierarchical:make_random_circuit",
        keyword="gates",
        label="default (all four)",
        replace=constant(("xor2", "and2", "or2", "maj3")),
        where="random_circuit asks the subsets (and2, maj3) and (or2,)",
        catches=("hierarchical.random_circuit",),
    ),
    ParamEffect(
        family="hierarchical",
        algorithm="reference.hierarchical:make_random_circuit",
        keyword="width",
        label="width - 1",
        replace=one_less,
        where="random_circuit counts the gates of every level",
        catches=("hierarchical.random_circuit",),
    ),
    ParamEffect(
        family="hierarchical",
        algorithm="reference.hierarchical:make_random_circuit",
        keyword="r",
        label="r - 1",
        replace=one_less,
        where="random_circuit counts the levels",
        catches=("hierarchical.random_circuit",),
    ),
    ParamEffect(
        family="hierarchical",
        algorithm="reference.hierarchical:train_flat",
        keyword="epochs",
        label="1",
        replace=constant(1),
        where="the positive control (first level of G1) needs the configured epochs",
        catches=("hierarchical.flat_baseline",),
    ),
    ParamEffect(
        family="hierarchical",
        algorithm="reference.hierarchical:train_flat",
        keyword="learning_rate",
        label="learning_rate/20",
        replace=scaled(0.05),
        where="the positive control (first level of G1) needs the configured step",
        catches=("hierarchical.flat_baseline",),
    ),
)

NEUTRAL: tuple[Row, ...] = (
    *rows(RANDOM_SOURCE, "reference.hierarchical:make_xor_tree", "rng"),
    *rows(RANDOM_SOURCE, "reference.hierarchical:make_random_circuit", "rng"),
    *rows(RANDOM_SOURCE, "reference.hierarchical:train_flat", "rng"),
    *rows(RANDOM_SOURCE, "reference.hierarchical:train_layerwise", "rng"),
)

UNCHECKED: tuple[Row, ...] = (
    *rows(
        BASELINE,
        "reference.hierarchical.fast_torch:train_end_to_end",
        "rng",
        "config",
        "device",
        "dtype",
    ),
    *rows(
        FAST_PATH,
        "reference.hierarchical.fast_torch:train_layerwise",
        "rng",
        "config",
        "device",
        "dtype",
    ),
    (
        "reference.hierarchical:make_random_circuit",
        "probe",
        "the probe sample estimates the biases the rejection step tests; the circuits' "
        "properties random_circuit counts hold for any probe size (measured)",
    ),
    (
        "reference.hierarchical:make_random_circuit",
        "max_tries",
        "a cap on rejected draws the checks' instances never reach (measured)",
    ),
    (
        "reference.hierarchical:train_flat",
        "width",
        "flat_baseline's positive control learns the first level at the default width, twice "
        "it and one less (measured)",
    ),
    (
        "reference.hierarchical:train_flat",
        "batch_size",
        "flat_baseline's positive control learns the first level at twice or one less batch "
        "size (measured)",
    ),
    (
        "reference.hierarchical:train_layerwise",
        "config",
        "the layerwise check passes the default LayerwiseConfig only",
    ),
)
