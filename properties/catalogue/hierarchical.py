"""Catalogue of the ``hierarchical`` family: ``ALGORITHMS`` (rows of ``verifiedref list``),
``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite) and ``HARD_EXTRAS``
(hard instances and stopping rules that the ``hard_input`` suite adds to them)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase, HardExtra, HardInstance
from properties.hierarchical import _S11
from reference import hierarchical as hl

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "HARD_EXTRAS", "UNCOVERED"]


def _alg(name: str, fn: str, suites: tuple[str, ...]) -> Algorithm:
    return Algorithm(name=name, function=fn, family="hierarchical", paper=_S11, suites=suites)


ALGORITHMS = (
    _alg(
        "G1 XOR-tree generator",
        "reference.hierarchical:make_xor_tree",
        ("hierarchical.xor_tree", "bad_input", "hard_input"),
    ),
    _alg(
        "G2 random layered circuit",
        "reference.hierarchical:make_random_circuit",
        ("bad_input", "hard_input"),
    ),
    _alg(
        "circuit evaluation", "reference.hierarchical:evaluate_circuit", ("bad_input", "hard_input")
    ),
    _alg("gate polynomials", "reference.hierarchical:gate_polynomial", ("bad_input", "hard_input")),
    _alg(
        "layerwise SGD on the residual network",
        "reference.hierarchical:train_layerwise",
        ("hierarchical.layerwise", "bad_input", "hard_input"),
    ),
    _alg("flat baseline B1", "reference.hierarchical:train_flat", ("bad_input", "hard_input")),
    _alg(
        "layerwise SGD (torch fast path)",
        "reference.hierarchical.fast_torch:train_layerwise",
        ("hierarchical.layerwise", "hard_input"),
    ),
    _alg(
        "end-to-end baseline B2 (torch)",
        "reference.hierarchical.fast_torch:train_end_to_end",
        ("hard_input",),
    ),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.hierarchical:evaluate_circuit": "utility",
    "reference.hierarchical.fast_torch:train_end_to_end": "baseline",
    "reference.hierarchical.fast_torch:train_layerwise": "fast path",
}


Args = tuple[tuple[Any, ...], dict[str, Any]]


def _tree_levels(rng: np.random.Generator) -> Args:
    tree = hl.make_xor_tree(4, 32, rng=rng)
    return (np.array(tree.x), [np.array(y) for y in tree.levels]), {
        "rng": rng,
        "config": hl.LayerwiseConfig(width=4, epochs=1),
    }


def _flat_args(rng: np.random.Generator) -> Args:
    tree = hl.make_xor_tree(4, 32, rng=rng)
    return (np.array(tree.x), np.array(tree.levels[-1])), {"rng": rng, "epochs": 1, "width": 4}


def _circuit_args(rng: np.random.Generator) -> Args:
    tree = hl.make_xor_tree(4, 8, rng=rng)
    return (tree.circuit, np.array(tree.x)), {}


_BAD_INTS = (0, -1, 2.5, None)
BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.hierarchical:make_xor_tree",
        fn=hl.make_xor_tree,
        make_args=lambda rng: ((8, 16), {"rng": rng}),
        arrays=(),
        scalars=((0, (0, 1, 3, 6, -4, 2.0)), (1, _BAD_INTS)),
    ),
    BadInputCase(
        name="reference.hierarchical:make_random_circuit",
        fn=hl.make_random_circuit,
        make_args=lambda rng: ((6, 2, 3, 8), {"rng": rng, "probe": 100}),
        arrays=(),
        scalars=(
            (0, (0, 1, -2)),
            (1, _BAD_INTS),
            (2, _BAD_INTS),
            (3, _BAD_INTS),
            ("max_bias", (0.0, 1.0, 1.5)),
            ("gates", (("nand2",), (), "xor2")),
        ),
    ),
    BadInputCase(
        name="reference.hierarchical:gate_polynomial",
        fn=hl.gate_polynomial,
        make_args=lambda rng: (("maj3", rng.choice([-1.0, 1.0], size=(4, 3))), {}),
        arrays=(1,),
        scalars=((0, ("nand", None, 3)),),
    ),
    BadInputCase(
        name="reference.hierarchical:evaluate_circuit",
        fn=hl.evaluate_circuit,
        make_args=_circuit_args,
        arrays=(1,),
        scalars=((0, ((), ((),))), (1, (np.zeros((8, 4)), np.full((8, 4), 2.0)))),
    ),
    BadInputCase(
        name="reference.hierarchical:sample_inputs",
        fn=hl.sample_inputs,
        make_args=lambda rng: ((3, 4), {"rng": rng}),
        arrays=(),
        scalars=((0, _BAD_INTS), (1, _BAD_INTS)),
    ),
    BadInputCase(
        name="reference.hierarchical:train_layerwise",
        fn=hl.train_layerwise,
        make_args=_tree_levels,
        arrays=(0,),
        scalars=((1, ([], [np.zeros((32, 2))], [np.ones((31, 2))], np.ones((2, 32, 2)))),),
    ),
    BadInputCase(
        name="reference.hierarchical:train_flat",
        fn=hl.train_flat,
        make_args=_flat_args,
        arrays=(0, 1),
        scalars=(("epochs", (-1, 1.5)), ("width", (0,)), ("learning_rate", (0.0, -1.0))),
    ),
    BadInputCase(
        name="reference.hierarchical:level_accuracies",
        fn=hl.level_accuracies,
        make_args=lambda rng: (
            (hl.ResidualLabelNet(d=4, blocks=(), level_sizes=(2, 1)), *(_tree_levels(rng)[0])),
            {},
        ),
        arrays=(1,),
    ),
)


# ----------------------------------------------------------------- hard-input rows
# Valid instances that are hard in a way a generic transform cannot make (smallest sizes,
# extreme scales, near-singular systems, the default caps), results documented to hold
# +-inf, and stopping rules that recompute the stopping quantity from the returned output
# with a routine of their own (never the result's fields).
def _tree_args(d: int = 4, n: int = 32, **config: Any) -> Callable[[np.random.Generator], Args]:
    def make(r: np.random.Generator) -> Args:
        import reference.hierarchical as hl

        tree = hl.make_xor_tree(d, n, rng=r)
        cfg = hl.LayerwiseConfig(**{"width": 4, "epochs": 1, "batch_size": 8, **config})
        return (np.array(tree.x), [np.array(y) for y in tree.levels]), {
            "rng": np.random.default_rng(1),
            "config": cfg,
        }

    return make


def _torch_extras() -> tuple[HardExtra, ...]:
    """The torch fast path's rows, when torch is installed (it is in the gate's dev setup)."""
    if importlib.util.find_spec("torch") is None:
        return ()
    trees = (
        HardInstance(label="d = 2, one sample", make_args=_tree_args(2, 1)),
        HardInstance(label="batch larger than n", make_args=_tree_args(batch_size=100)),
        HardInstance(label="width 1", make_args=_tree_args(width=1)),
    )
    return tuple(
        HardExtra(
            name=f"reference.hierarchical.fast_torch:{name}",
            make_args=_tree_args(),
            arrays=(0,),
            instances=trees,
        )
        for name in ("train_layerwise", "train_end_to_end")
    )


HARD_EXTRAS: tuple[HardExtra, ...] = _torch_extras()
