"""Every optimizer hyper-parameter's default is declared once.

The declaration is the reference configuration dataclass (``SAdamConfig``, ``LionConfig``, ...),
or, for an optimizer without one (``lion_vr``, ``muon_vr``), the reference factory's signature;
the Newton-Schulz constants live in :mod:`reference.optimizers.polar`.  Factories, the LGI
helpers and the torch classes and factories of :mod:`reference.optimizers.fast_torch` read
their defaults from there.  Three checks keep it so (helpers in ``tests/_defaults_once.py``):

* every public callable of the family with keyword defaults is listed in :data:`DECLARED`
  (walked from the package, so a new factory cannot slip by), and each default equals its
  declaration's (``repr`` equal: ``1`` and ``1.0`` differ);
* in the source of those callables no default that has a declaration elsewhere is written as
  a literal (so a copy cannot come back, even one equal today);
* the values a configuration's docstring states in parentheses, ``b1: ... (0.9).``, are its
  fields' defaults (the only docstrings that state them: the others refer to the configuration).
"""

from __future__ import annotations

import importlib

import pytest

import reference.optimizers as family
from reference._defaults import defaults_of
from reference.optimizers import fw, sadam, sgd
from reference.optimizers.polar import NS_COEFFICIENTS, NS_EPS, NS_STEPS
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

S_ADAM = fields_of(sadam.SAdamConfig())
ADAM = fields_of(sadam.AdamConfig())
LION = fields_of(fw.LionConfig())
MUON = fields_of(fw.MuonConfig())
SFW_VR = fields_of(fw.SFWVRConfig())
NS = {"steps": NS_STEPS, "coefficients": NS_COEFFICIENTS, "eps": NS_EPS}
LION_VR = defaults_of(fw.lion_vr)
MUON_VR = defaults_of(fw.muon_vr)
_LGI = {"zeta": (S_ADAM, "stabilize_eps")}

#: ``module:qualname`` of every public callable with keyword defaults -> its declaration.
DECLARED: dict[str, Decl] = {
    # reference factories and helpers
    "sadam:adam": Decl(ADAM),
    "sadam:adamw": Decl(fields_of(sadam._ADAMW)),  # AdamConfig with torch's AdamW decay
    "sadam:s_adam": Decl(S_ADAM),
    "sadam:lgi": Decl(S_ADAM, other=_LGI, own=frozenset({"directions"})),
    "sadam:lgi_details": Decl(S_ADAM, other=_LGI, own=frozenset({"directions"})),
    "sadam:damping": Decl(S_ADAM, other={"cap": (S_ADAM, "lgi_cap")}),
    "sadam:prox_sgd": Decl(fields_of(sadam.ProxSGDConfig())),
    "sadam:goldstein_stationarity": Decl({}, own=frozenset({"samples"})),
    "sgd:clipped_sgd": Decl(fields_of(sgd.ClippedSGDConfig())),
    "sgd:normalized_sgd": Decl(fields_of(sgd.NormalizedSGDConfig())),
    "fw:sfw": Decl(fields_of(fw.SFWConfig())),
    "fw:lion": Decl(LION),
    "fw:muon": Decl(MUON),
    "fw:sfw_vr": Decl(SFW_VR),
    "fw:lion_vr": Decl(
        SFW_VR, other={"learning_rate": (LION, "learning_rate")}, own=frozenset({"weight_decay"})
    ),
    "fw:muon_vr": Decl(
        SFW_VR,
        other={
            "learning_rate": (MUON, "learning_rate"),
            "exact_polar": (MUON, "exact_polar"),
            "ns_steps": (MUON, "ns_steps"),
        },
        own=frozenset({"weight_decay"}),
    ),
    "polar:newton_schulz": Decl(NS),
    "polar:ns_scalar_map": Decl(NS),
    "polar:polar": Decl({}, own=frozenset({"rtol"})),  # None: the rank rule of the dtype
    "base:as_blocks": Decl({}, own=frozenset({"like"})),
    # torch fast paths: the reference's declarations
    "fast_torch:Lion": Decl(LION),
    "fast_torch:LionClip": Decl(LION, own=frozenset({"clip_tau"})),  # the clipped variant's tau
    "fast_torch:lion": Decl(LION),
    "fast_torch:Muon": Decl(MUON),
    "fast_torch:MuonClip": Decl(MUON, own=frozenset({"clip_tau"})),
    "fast_torch:muon": Decl(MUON),
    "fast_torch:SFWVR": Decl(SFW_VR),
    "fast_torch:sfw_vr": Decl(SFW_VR),
    "fast_torch:LionVR": Decl(LION_VR),
    "fast_torch:lion_vr": Decl(LION_VR),
    "fast_torch:MuonVR": Decl(MUON_VR),
    "fast_torch:muon_vr": Decl(MUON_VR),
    "fast_torch:SAdam": Decl(S_ADAM, own=frozenset({"direction_rng"})),
    "fast_torch:s_adam": Decl(S_ADAM, own=frozenset({"direction_rng"})),
    "fast_torch:newton_schulz": Decl(NS),
    "fast_torch:polar": Decl({}, own=frozenset({"rtol"})),
}

#: the configuration classes: the declarations themselves
CONFIGS = (
    sadam.AdamConfig,
    sadam.SAdamConfig,
    sadam.ProxSGDConfig,
    sgd.ClippedSGDConfig,
    sgd.NormalizedSGDConfig,
    fw.SFWConfig,
    fw.LionConfig,
    fw.MuonConfig,
    fw.SFWVRConfig,
)


def _skip_torch(module: str) -> None:
    if module == "fast_torch":
        pytest.importorskip("torch", exc_type=ModuleNotFoundError)


def test_every_public_callable_with_defaults_is_declared() -> None:
    found = public_with_defaults(modules_of(family, skip=_skip_torch))
    configs = {f"{c.__module__.rsplit('.', 1)[1]}:{c.__name__}" for c in CONFIGS}
    assert sorted(set(found) - set(DECLARED) - configs) == [], (
        "public callables with keyword defaults that DECLARED does not list: say where "
        "their defaults are declared"
    )
    assert sorted(set(DECLARED) - set(found)) == [], "DECLARED lists callables that are gone"


@pytest.mark.parametrize("where", sorted(DECLARED))
def test_defaults_equal_their_declaration(where: str) -> None:
    module, name = where.split(":")
    _skip_torch(module)
    obj = getattr(importlib.import_module(f"{family.__name__}.{module}"), name)
    assert mismatches(where, obj, DECLARED[where]) == []


@pytest.mark.parametrize("module", sorted({where.split(":")[0] for where in DECLARED}))
def test_no_default_is_written_twice(module: str) -> None:
    """A default declared elsewhere is read from there, never re-typed (even when equal)."""
    assert literal_copies(module_source(family, module), module, DECLARED) == []


def test_the_source_walk_sees_a_copied_default() -> None:
    """The walk flags a re-typed value, a torch pair, ``math.inf`` and ``None``; not a read."""
    source = (
        "class Lion:\n"
        "    def __init__(self, params, lr=1e-4, betas=(_LION.b1, 0.99), clip_tau=math.inf):\n"
        "        pass\n"
        "def lion(params, *, learning_rate=_LION.learning_rate, b1=_LION.b1, b2=-0.5):\n"
        "    pass\n"
        "def lion_vr(params, *, a=None, weight_decay=1.0, clip=_LION_VR['clip']):\n"
        "    pass\n"
    )
    assert literal_copies(source, "fast_torch", DECLARED) == [
        "fast_torch:Lion(lr=0.0001)",
        "fast_torch:Lion(betas=(_LION.b1, 0.99))",
        "fast_torch:Lion(clip_tau=math.inf)",
        "fast_torch:lion(b2=-0.5)",
        "fast_torch:lion_vr(a=None)",
        "fast_torch:lion_vr(weight_decay=1.0)",
    ]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.__name__)
def test_config_docstring_states_the_field_defaults(config: type) -> None:
    assert stated_values(config), f"{config.__name__}: no value read (docstring format changed?)"
    assert docstring_mismatches(config) == []
