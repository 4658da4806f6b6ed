"""Every hyper-parameter default of the inconsistency family is declared once.

The declarations are the reference configurations (:class:`~reference.inconsistency.IAMConfig`,
:class:`~reference.inconsistency.IAMDEConfig`, :class:`~reference.inconsistency.SAMConfig`,
:class:`~reference.inconsistency.SGDConfig`); the A1 functions
(:func:`~reference.inconsistency.local_inconsistency`, ``inconsistency_ascent``),
``sam_perturbation`` and the torch classes read their defaults from them.  The checks are those
of ``tests/optimizers/test_defaults_declared_once.py`` (helpers in ``tests/_defaults_once.py``).
"""

from __future__ import annotations

import importlib

import pytest

import reference.inconsistency as family
from reference.inconsistency import iam
from tests._defaults_once import (
    Decl,
    docstring_mismatches,
    fields_of,
    literal_copies,
    mismatches,
    module_source,
    modules_of,
    public_with_defaults,
    stated_values,
)

IAM = fields_of(iam.IAMConfig())
IAM_DE = fields_of(iam.IAMDEConfig())
SAM = fields_of(iam.SAMConfig())
#: keywords that are not hyper-parameters: state passed along, test hooks, generators
STATE = frozenset({"buffer", "delta", "noise", "coin", "generator", "rng"})

#: ``module:qualname`` of every public callable with keyword defaults -> its declaration.
DECLARED: dict[str, Decl] = {
    "iam:inconsistency_ascent": Decl(IAM),
    "iam:local_inconsistency": Decl(IAM),
    "iam:sam_perturbation": Decl(SAM, own=frozenset({"adaptive"})),  # SAM or ASAM: no config
    "iam:init_params": Decl({}, own=frozenset({"scale"})),
    "iam:InconsistencyResult": Decl({}, own=frozenset({"previous_delta"})),
    "iam:SoftmaxModel": Decl({}, own=frozenset({"n_hidden"})),
    **{f"iam:{name}": Decl({}, own=STATE) for name in ("sgd_step", "iam_d", "iam_s", "sam")},
    **{f"iam:{name}": Decl({}, own=STATE) for name in ("asam", "iam_de", "iam_de_step")},
    "fast_torch:local_inconsistency": Decl(IAM, own=STATE),
    "fast_torch:SAM": Decl(SAM, own=frozenset({"adaptive"})),
    "fast_torch:IAMS": Decl(IAM, own=STATE),
    "fast_torch:IAMD": Decl(IAM, own=STATE),
    "fast_torch:IAMDE": Decl(IAM_DE, own=STATE),
    **{f"fast_torch:{name}": Decl({}, own=STATE) for name in ("iam_s", "iam_d", "iam_de")},
}

CONFIGS = (iam.SGDConfig, iam.IAMConfig, iam.SAMConfig, iam.IAMDEConfig)


def _skip_torch(module: str) -> None:
    if module == "fast_torch":
        pytest.importorskip("torch", exc_type=ModuleNotFoundError)


def test_every_public_callable_with_defaults_is_declared() -> None:
    found = public_with_defaults(modules_of(family, skip=_skip_torch))
    configs = {f"{c.__module__.rsplit('.', 1)[1]}:{c.__name__}" for c in CONFIGS}
    assert sorted(set(found) - set(DECLARED) - configs) == []
    assert sorted(set(DECLARED) - set(found)) == []


@pytest.mark.parametrize("where", sorted(DECLARED))
def test_defaults_equal_their_declaration(where: str) -> None:
    module, name = where.split(":")
    _skip_torch(module)
    obj = getattr(importlib.import_module(f"{family.__name__}.{module}"), name)
    assert mismatches(where, obj, DECLARED[where]) == []


@pytest.mark.parametrize("module", ["fast_torch", "iam"])
def test_no_default_is_written_twice(module: str) -> None:
    assert literal_copies(module_source(family, module), module, DECLARED) == []


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.__name__)
def test_config_docstring_states_the_field_defaults(config: type) -> None:
    assert stated_values(config), f"{config.__name__}: no value read (docstring format changed?)"
    assert docstring_mismatches(config) == []
