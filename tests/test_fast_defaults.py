"""Every fast path defaults its keywords as its reference does.

For each family package and each of its fast modules (``fast``, ``fast_torch``, ...), every
public callable that the package also exports under the same name (the reference) must give
each keyword they share the reference's default (``repr`` equal: ``1`` is not ``1.0``).  A fast
path that re-types a default would otherwise drift from its reference unnoticed.  The
optimizers and inconsistency families go further (``tests/*/test_defaults_declared_once.py``):
there no default is re-typed at all, each is read from its one declaration.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterator

import pytest

from reference._families import FAMILIES

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
