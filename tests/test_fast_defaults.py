"""Every fast path defaults its keywords as its reference does, and reads them from it.

For each family package and each of its fast modules (``fast``, ``fast_torch``, ...), every
public callable that the package also exports under the same name (the reference) must give
each keyword they share the reference's default (``repr`` equal: ``1`` is not ``1.0``).  A fast
path that re-types a default would otherwise drift from its reference unnoticed; so, in the
source, no such default is written as a literal either: it is read from the reference's
declaration (``reference._defaults.defaults_of``), and a copy equal today cannot come back.
``None`` ("not given") is the one literal allowed where the reference's default is ``None``.
A fast-only callable whose keyword is declared by a reference configuration is listed in
:data:`ELSEWHERE` and held to the same rule.  The optimizers and inconsistency families go
further (``tests/*/test_defaults_declared_once.py``): every default of theirs, fast or not, is
read from its one declaration.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from reference._defaults import defaults_of
from reference._families import FAMILIES
from reference.divergence import ArmijoConfig
from tests._defaults_once import Decl, _signatures_in_source, literal_copies

#: the families whose reference is a package (a single-module family has no fast module)
PACKAGES = tuple(
    f for f in FAMILIES if hasattr(importlib.import_module(f"reference.{f}"), "__path__")
)


def _shared_defaults(
    fast: Callable[..., object], ref: Callable[..., object]
) -> Iterator[tuple[str, object, object]]:
    try:
        fast_sig, ref_sig = inspect.signature(fast), inspect.signature(ref)
    except (TypeError, ValueError):  # an exception class: no signature of its own
        return
    for name, p in fast_sig.parameters.items():
        q = ref_sig.parameters.get(name)
        if p.default is not p.empty and q is not None and q.default is not q.empty:
            yield name, p.default, q.default


def _pairs(family: str) -> Iterator[tuple[str, Callable[..., object], Callable[..., object]]]:
    package = importlib.import_module(f"reference.{family}")
    for info in pkgutil.iter_modules(package.__path__):
        if "fast" not in info.name:
            continue
        if "torch" in info.name:
            pytest.importorskip("torch", exc_type=ModuleNotFoundError)
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name in module.__all__:
            fast, ref = getattr(module, name), getattr(package, name, None)
            if callable(fast) and callable(ref) and fast is not ref:
                yield f"{info.name}.{name}", fast, ref


@pytest.mark.parametrize("family", PACKAGES)
def test_fast_paths_default_as_their_reference(family: str) -> None:
    differ = [
        f"{family}.{where}({name}): fast {a!r}, reference {b!r}"
        for where, fast, ref in _pairs(family)
        for name, a, b in _shared_defaults(fast, ref)
        if repr(a) != repr(b)
    ]
    assert differ == []


def test_the_comparison_is_not_empty() -> None:
    """The walk finds the fast paths (144 shared keyword defaults when this test was written)."""
    pytest.importorskip("torch", exc_type=ModuleNotFoundError)
    shared = [
        name
        for family in PACKAGES
        for _, fast, ref in _pairs(family)
        for name, _, _ in _shared_defaults(fast, ref)
    ]
    assert len(shared) >= 100


# ----------------------------------------------------------------- no literal copy in the source
#: ``family.module.name`` of a fast-only callable -> keyword -> (declaring callable, its keyword)
ELSEWHERE: dict[str, dict[str, tuple[Callable[..., object], str]]] = {
    # spec 13 B1: the neural critic's batches are the Armijo ascent's (256)
    "divergence.fast_torch.neural_critic_estimate": {"batch_size": (ArmijoConfig, "batch_size")},
}


def _source_of(fast: Callable[..., object]) -> tuple[str, str]:
    """``(module short name, source)`` of the module that defines ``fast``."""
    module = sys.modules[fast.__module__]
    assert module.__file__ is not None
    return module.__name__.rsplit(".", 1)[1], Path(module.__file__).read_text(encoding="utf-8")


def _declared(fast: Callable[..., object], source: Mapping[str, Any]) -> Decl:
    """``fast``'s keywords whose default ``source`` declares (not ``None``); the rest are own."""
    mine = defaults_of(fast)
    return Decl(source, own=frozenset(k for k in mine if source.get(k) is None))


def _held(family: str) -> Iterator[tuple[Callable[..., object], Mapping[str, Any]]]:
    """Each fast callable of ``family`` with the defaults declared for it elsewhere."""
    for _, fast, ref in _pairs(family):
        yield fast, defaults_of(ref)
    for where, keywords in ELSEWHERE.items():
        if where.startswith(f"{family}."):
            _, module, name = where.split(".")
            fast = getattr(importlib.import_module(f"reference.{family}.{module}"), name)
            yield fast, {k: defaults_of(owner)[there] for k, (owner, there) in keywords.items()}


def _copies(family: str) -> list[str]:
    bad = []
    for fast, declared in _held(family):
        module, text = _source_of(fast)
        decl = {f"{module}:{fast.__name__}": _declared(fast, declared)}
        bad += [f"{family}.{copy}" for copy in literal_copies(text, module, decl)]
    return bad


@pytest.mark.parametrize("family", PACKAGES)
def test_fast_paths_read_their_defaults_from_the_reference(family: str) -> None:
    """No keyword default the reference declares is re-typed as a literal in a fast module."""
    assert _copies(family) == []


@pytest.mark.parametrize("where", sorted(ELSEWHERE))
def test_elsewhere_defaults_equal_their_declaration(where: str) -> None:
    """A fast-only callable listed in :data:`ELSEWHERE` defaults as the declaration it names."""
    family, module, name = where.split(".")
    if "torch" in module:
        pytest.importorskip("torch", exc_type=ModuleNotFoundError)
    fast = getattr(importlib.import_module(f"reference.{family}.{module}"), name)
    mine = defaults_of(fast)
    for keyword, (owner, there) in ELSEWHERE[where].items():
        assert repr(mine[keyword]) == repr(defaults_of(owner)[there])


def test_the_source_walk_sees_a_copied_default() -> None:
    """A re-typed value is flagged, a read is not, ``None`` only where the reference has one."""

    def fast(a: int, *, tol: float = 1e-10, mode: str = "x", u0: None = None) -> None:
        """A fast path whose reference declares ``tol``, ``mode`` and ``u0``."""

    declared = {"tol": 1e-10, "mode": "x", "u0": None}
    source = (
        "def fast(a, *, tol=1e-10, mode=_REF['mode'], u0=None):\n"
        "    pass\n"
        "def other(a, *, tol=1e-10):\n"
        "    pass\n"
    )
    decl = {"fast_torch:fast": _declared(fast, declared)}
    assert literal_copies(source, "fast_torch", decl) == ["fast_torch:fast(tol=1e-10)"]
    decl = {"fast_torch:fast": _declared(fast, {**declared, "u0": 0.0})}
    assert literal_copies(source, "fast_torch", decl) == [
        "fast_torch:fast(tol=1e-10)",
        "fast_torch:fast(u0=None)",
    ]


def test_the_source_walk_is_not_empty() -> None:
    """The walk finds each checked callable in its source (106 keywords held when written)."""
    pytest.importorskip("torch", exc_type=ModuleNotFoundError)
    held = 0
    for family in PACKAGES:
        for fast, declared in _held(family):
            _, text = _source_of(fast)
            assert fast.__name__ in dict(_signatures_in_source(ast.parse(text)))
            held += len(set(defaults_of(fast)) - _declared(fast, declared).own)
    assert held >= 100
