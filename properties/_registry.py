"""Discovery of suites, algorithms and bad-input cases from the family modules.

Each ``properties/<family>.py`` may define three module-level tuples:

* ``SUITES``: the :class:`~properties.Suite` objects it provides;
* ``ALGORITHMS``: :class:`Algorithm` records for ``verifiedref list``;
* ``BAD_INPUT_CASES``: :class:`~properties.bad_input.BadInputCase` records, one per
  public reference function, run by the generic bad-input suite.

Adding a family is adding that module; nothing here changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from properties._runner import Suite
    from properties.bad_input import BadInputCase

__all__ = [
    "Algorithm",
    "all_algorithms",
    "all_suites",
    "bad_input_cases",
    "family_modules",
    "get_suite",
]

# Support modules that are not families (pytest_support imports pytest: never auto-import it).
_NOT_FAMILIES = frozenset({"adapters", "strategies", "pytest_support", "bad_input"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Algorithm:
    """A catalogue entry for ``verifiedref list`` and the README table.

    Attributes:
        name: human name, e.g. ``"LP oracle (HiGHS)"``.
        function: dotted path ``module:function`` of the reference implementation.
        family: family name shared with the theorem checks (``games``).
        paper: citation (spec number and short title, or a classical source).
        suites: names of the suites it passes.
    """

    name: str
    function: str
    family: str
    paper: str
    suites: tuple[str, ...]


def family_modules() -> tuple[ModuleType, ...]:
    """Import and return every family module of :mod:`properties` (sorted by name)."""
    import properties

    modules = [importlib.import_module("properties.bad_input")]
    for info in sorted(pkgutil.iter_modules(properties.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or info.name in _NOT_FAMILIES:
            continue
        modules.append(importlib.import_module(f"properties.{info.name}"))
    return tuple(modules)


def all_suites() -> dict[str, Suite[Any]]:
    """Every registered suite by name.

    Raises:
        ValueError: two modules register the same suite name.
    """
    out: dict[str, Suite[Any]] = {}
    for module in family_modules():
        for suite in getattr(module, "SUITES", ()):
            if suite.name in out:
                raise ValueError(f"suite name {suite.name!r} is registered twice")
            out[suite.name] = suite
    return out


def get_suite(name: str) -> Suite[Any]:
    """The suite called ``name``.

    Raises:
        ValueError: no such suite (the message lists the known ones).
    """
    suites = all_suites()
    if name not in suites:
        raise ValueError(f"suite: expected one of {', '.join(sorted(suites))}, got {name!r}")
    return suites[name]


def all_algorithms() -> tuple[Algorithm, ...]:
    """Every catalogued algorithm, sorted by family then name."""
    items: list[Algorithm] = []
    for module in family_modules():
        items.extend(getattr(module, "ALGORITHMS", ()))
    return tuple(sorted(items, key=lambda a: (a.family, a.name)))


def bad_input_cases() -> tuple[BadInputCase, ...]:
    """Every registered bad-input case, sorted by name.

    Raises:
        ValueError: two cases share a name.
    """
    cases: dict[str, BadInputCase] = {}
    for module in family_modules():
        for case in getattr(module, "BAD_INPUT_CASES", ()):
            if case.name in cases:
                raise ValueError(f"bad-input case {case.name!r} is registered twice")
            cases[case.name] = case
    return tuple(cases[k] for k in sorted(cases))
