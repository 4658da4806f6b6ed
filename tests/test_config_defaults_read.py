"""Reference functions outside the optimizer families that take defaults from a configuration.

Each listed keyword's default is the configuration field's (its one declaration), and the
function's source reads it rather than re-typing it.  The optimizers and inconsistency families
have their own, complete tests (``tests/*/test_defaults_declared_once.py``).
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest

from reference.constrained_map.pa import PaMapConfig
from reference.hierarchical.learning import LayerwiseConfig
from reference.qp_layers.model import FFOConfig
from tests._defaults_once import Decl, fields_of, literal_copies, mismatches

#: ``(module, function)`` -> the configuration whose fields declare the listed keywords
READERS: dict[tuple[str, str], tuple[object, frozenset[str]]] = {
    ("reference.constrained_map.pa", "pa_cells"): (PaMapConfig(), frozenset({"max_cells"})),
    # the flat baseline trains with the same SGD as the layer-wise learner
    ("reference.hierarchical.learning", "train_flat"): (
        LayerwiseConfig(),
        frozenset({"batch_size", "learning_rate"}),
    ),
    # the active set of FFO's backward pass (spec 03 A2)
    ("reference.qp_layers.layer", "active_set"): (
        FFOConfig(),
        frozenset({"slack_tol", "dual_cutoff"}),
    ),
}


def _decl(config: object, read: frozenset[str], function: object) -> Decl:
    assert callable(function)
    others = frozenset(inspect.signature(function).parameters) - read
    return Decl(fields_of(config), own=others)


@pytest.mark.parametrize("where", sorted(READERS), ids=lambda w: f"{w[0]}:{w[1]}")
def test_defaults_are_read_from_the_configuration(where: tuple[str, str]) -> None:
    module_name, name = where
    config, read = READERS[where]
    module = importlib.import_module(module_name)
    function = getattr(module, name)
    decl = _decl(config, read, function)
    short = module_name.rsplit(".", 1)[1]
    assert mismatches(f"{short}:{name}", function, decl) == []
    assert module.__file__ is not None
    source = Path(module.__file__).read_text(encoding="utf-8")
    assert literal_copies(source, short, {f"{short}:{name}": decl}) == []
