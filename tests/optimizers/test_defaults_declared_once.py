"""Every optimizer hyper-parameter's default is declared once.

The declaration is the reference configuration dataclass (``SAdamConfig``, ``LionConfig``, ...),
or, for an optimizer without one (``lion_vr``, ``muon_vr``), the reference factory's signature;
the Newton-Schulz constants live in :mod:`reference.optimizers.polar`.  Factories, the LGI
helpers and the torch classes and factories of :mod:`reference.optimizers.fast_torch` read
their defaults from there.  Three checks keep it so:

* every public callable of the family with keyword defaults is listed in :data:`DECLARED`
  (walked from the package, so a new factory cannot slip by), and each default equals its
  declaration's (``repr`` equal: ``1`` and ``1.0`` differ);
* in the source of those callables no default that has a declaration elsewhere is written as
  a literal (so a copy cannot come back, even one equal today);
* the values a configuration's docstring states in parentheses, ``b1: ... (0.9).``, are its
  fields' defaults (the only docstrings that state them: the others refer to the configuration).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import math
import pkgutil
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import reference.optimizers as family
from reference.optimizers import fw, sadam, sgd
from reference.optimizers.polar import NS_COEFFICIENTS, NS_EPS, NS_STEPS


def _signature_defaults(factory: Callable[..., object]) -> dict[str, Any]:
    return {
        name: p.default
        for name, p in inspect.signature(factory).parameters.items()
        if p.default is not inspect.Parameter.empty
    }


def _fields(config: object) -> dict[str, Any]:
    return {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}  # type: ignore[arg-type]


@dataclass(frozen=True)
class Decl:
    """Where the defaults of one callable are declared.

    ``source``: the declaring object's defaults (a configuration's fields or a reference
    factory's signature); ``other``: keyword -> (defaults, name there) where a keyword is
    declared elsewhere or under another name; ``own``: keywords declared in this very
    signature (a literal is allowed there: it is the declaration).
    """

    source: Mapping[str, Any]
    other: Mapping[str, tuple[Mapping[str, Any], str]] = field(default_factory=dict)
    own: frozenset[str] = frozenset()


S_ADAM = _fields(sadam.SAdamConfig())
ADAM = _fields(sadam.AdamConfig())
LION = _fields(fw.LionConfig())
MUON = _fields(fw.MuonConfig())
SFW_VR = _fields(fw.SFWVRConfig())
NS = {"steps": NS_STEPS, "coefficients": NS_COEFFICIENTS, "eps": NS_EPS}
LION_VR = _signature_defaults(fw.lion_vr)
MUON_VR = _signature_defaults(fw.muon_vr)
#: the torch classes' names for the reference's keywords
TORCH_NAMES = {"lr": "learning_rate"}
_LGI = {"zeta": (S_ADAM, "stabilize_eps")}

#: ``module:qualname`` of every public callable with keyword defaults -> its declaration.
DECLARED: dict[str, Decl] = {
    # reference factories and helpers
    "sadam:adam": Decl(ADAM),
    "sadam:adamw": Decl(_fields(sadam._ADAMW)),  # AdamConfig with torch's AdamW decay
    "sadam:s_adam": Decl(S_ADAM),
    "sadam:lgi": Decl(S_ADAM, other=_LGI, own=frozenset({"directions"})),
    "sadam:lgi_details": Decl(S_ADAM, other=_LGI, own=frozenset({"directions"})),
    "sadam:damping": Decl(S_ADAM, other={"cap": (S_ADAM, "lgi_cap")}),
    "sadam:prox_sgd": Decl(_fields(sadam.ProxSGDConfig())),
    "sadam:goldstein_stationarity": Decl({}, own=frozenset({"samples"})),
    "sgd:clipped_sgd": Decl(_fields(sgd.ClippedSGDConfig())),
    "sgd:normalized_sgd": Decl(_fields(sgd.NormalizedSGDConfig())),
    "fw:sfw": Decl(_fields(fw.SFWConfig())),
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


def _modules() -> Iterator[ModuleType]:
    for info in pkgutil.iter_modules(family.__path__):
        if info.name == "fast_torch":
            pytest.importorskip("torch", exc_type=ModuleNotFoundError)
        yield importlib.import_module(f"{family.__name__}.{info.name}")


def _public_with_defaults() -> dict[str, Callable[..., object]]:
    """``module:name`` -> callable, for every public callable defined in the family."""
    out: dict[str, Callable[..., object]] = {}
    for module in _modules():
        short = module.__name__.rsplit(".", 1)[1]
        for name in module.__all__:
            obj = getattr(module, name)
            if not callable(obj) or getattr(obj, "__module__", None) != module.__name__:
                continue
            try:
                defaults = _signature_defaults(obj)
            except (TypeError, ValueError):  # an exception class: no signature of its own
                continue
            if defaults:
                out[f"{short}:{name}"] = obj
    return out


def _expected(decl: Decl, keyword: str) -> Any:
    if keyword in decl.other:
        source, name = decl.other[keyword]
        return source[name]
    if keyword == "betas":  # torch's pair for (b1, b2)
        return (decl.source["b1"], decl.source["b2"])
    return decl.source[TORCH_NAMES.get(keyword, keyword)]


def test_every_public_callable_with_defaults_is_declared() -> None:
    found = _public_with_defaults()
    configs = {f"{c.__module__.rsplit('.', 1)[1]}:{c.__name__}" for c in CONFIGS}
    assert sorted(set(found) - set(DECLARED) - configs) == [], (
        "public callables with keyword defaults that DECLARED does not list: say where "
        "their defaults are declared"
    )
    assert sorted(set(DECLARED) - set(found)) == [], "DECLARED lists callables that are gone"


@pytest.mark.parametrize("where", sorted(DECLARED))
def test_defaults_equal_their_declaration(where: str) -> None:
    module, name = where.split(":")
    if module == "fast_torch":
        pytest.importorskip("torch", exc_type=ModuleNotFoundError)
    obj = getattr(importlib.import_module(f"{family.__name__}.{module}"), name)
    decl = DECLARED[where]
    for keyword, default in _signature_defaults(obj).items():
        if keyword in decl.own:
            continue
        expected = _expected(decl, keyword)
        assert repr(default) == repr(expected), (
            f"{where}: default of {keyword!r} is {default!r}, its declaration says {expected!r}"
        )


# ------------------------------------------------------------------------------- source walk
def _is_literal(node: ast.expr) -> bool:
    """A written value: a constant (``None`` too), ``-c``, ``math.inf``, a tuple holding one."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return True
    if isinstance(node, ast.Attribute) and ast.unparse(node) in ("math.inf", "math.nan"):
        return True
    if isinstance(node, ast.Tuple | ast.List):
        return any(_is_literal(e) for e in node.elts)
    return False


def _defaults_in_source(fn: ast.FunctionDef) -> Iterator[tuple[str, ast.expr]]:
    args = fn.args
    positional = args.posonlyargs + args.args
    yield from zip(
        [a.arg for a in positional[len(positional) - len(args.defaults) :]],
        args.defaults,
        strict=True,
    )
    for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if d is not None:
            yield a.arg, d


def _signatures_in_source(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef]]:
    """Module-level functions by name, classes by their ``__init__``."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    yield node.name, item


def _literal_copies(source: str, module: str) -> list[str]:
    bad = []
    for name, fn in _signatures_in_source(ast.parse(source)):
        decl = DECLARED.get(f"{module}:{name}")
        if decl is None:
            continue
        for keyword, node in _defaults_in_source(fn):
            if keyword not in decl.own and _is_literal(node):
                bad.append(f"{module}:{name}({keyword}={ast.unparse(node)})")
    return bad


def _source(module: str) -> str:
    return (Path(family.__file__).parent / f"{module}.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("module", sorted({where.split(":")[0] for where in DECLARED}))
def test_no_default_is_written_twice(module: str) -> None:
    """A default declared elsewhere is read from there, never re-typed (even when equal)."""
    assert _literal_copies(_source(module), module) == []


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
    assert _literal_copies(source, "fast_torch") == [
        "fast_torch:Lion(lr=0.0001)",
        "fast_torch:Lion(betas=(_LION.b1, 0.99))",
        "fast_torch:Lion(clip_tau=math.inf)",
        "fast_torch:lion(b2=-0.5)",
        "fast_torch:lion_vr(a=None)",
        "fast_torch:lion_vr(weight_decay=1.0)",
    ]


# --------------------------------------------------------------------------- config docstrings
_STATED = re.compile(r"(?<=\s)\(((?:\([^()]*\))|[^()]*)\)")


def _stated_value(text: str) -> tuple[bool, Any]:
    """The value a parenthesis states first: ``(0.9)``, ``(1.0; inf: off)``, ``(``"linf"``)``."""
    head = text if text.startswith("(") else re.split(r"[;:,]", text, maxsplit=1)[0].strip()
    head = head.removeprefix("``").removesuffix("``")
    if head == "inf":
        return True, math.inf
    try:
        value = ast.literal_eval(head)
    except (ValueError, SyntaxError):
        return False, None
    return isinstance(value, bool | int | float | str | tuple), value


def _attribute_entries(doc: str) -> dict[str, str]:
    """``name -> text`` of the ``Attributes:`` section (continuation lines joined)."""
    entries: dict[str, str] = {}
    inside, current = False, None
    for line in doc.splitlines():
        stripped = line.strip()
        if stripped == "Attributes:":
            inside = True
            continue
        if not inside:
            continue
        if not stripped:
            break
        match = re.match(r"(\w+): (.*)", stripped)
        if match and len(line) - len(line.lstrip()) == 4:  # an entry; continuations: 8
            current = match.group(1)
            entries[current] = match.group(2)
        elif current is not None:
            entries[current] += " " + stripped
    return entries


def _docstring_mismatches(config: type) -> list[str]:
    defaults = _fields(config())
    bad = []
    for name, text in _attribute_entries(inspect.getdoc(config) or "").items():
        for stated in _STATED.findall(text):
            ok, value = _stated_value(stated)
            if ok and name in defaults and value != defaults[name]:
                bad.append(
                    f"{config.__name__}.{name}: docstring says {stated!r}, default is {defaults[name]!r}"
                )
    return bad


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.__name__)
def test_config_docstring_states_the_field_defaults(config: type) -> None:
    assert _docstring_mismatches(config) == []
    stated = [
        name
        for name, text in _attribute_entries(inspect.getdoc(config) or "").items()
        if any(_stated_value(s)[0] for s in _STATED.findall(text))
    ]
    assert stated, f"{config.__name__}: the docstring parser read no value (format changed?)"
