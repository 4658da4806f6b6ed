"""Suites, algorithms and bad-input cases, found by family name.

The families are listed once, in :data:`reference._families.FAMILIES`; ``bad_input`` is the
one suite module that is not a family.  For each family:

* ``properties/<family>.py`` defines ``SUITES``, the :class:`~properties.Suite` objects whose
  names start with ``<family>.``;
* ``properties/catalogue/<family>.py`` defines ``ALGORITHMS`` (:class:`Algorithm` records for
  ``verifiedref list``), ``BAD_INPUT_CASES`` (:class:`~properties.bad_input.BadInputCase`
  records, one per public reference function, run by the generic bad-input suite) and may
  define ``HARD_EXTRAS`` (:class:`~properties._records.HardExtra` records: hard instances and
  stopping rules for the generic hard-input suite) and ``UNCOVERED`` (its algorithms that no
  theorem check exercises, with their kind, a key of
  :data:`~properties._records.UNCOVERED_KINDS`).

A suite name says which module to import (``games.solver`` -> ``properties.games``), so
:func:`get_suite` imports that family only, and a family module that fails to import breaks
its own suites only: :func:`all_suites` skips it and :func:`import_errors` reports it.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from properties._records import UNCOVERED_KINDS, Algorithm, BadInputCase, HardExtra
from properties._suite import Suite
from reference._families import FAMILIES

__all__ = [
    "SUITE_MODULES",
    "Algorithm",
    "all_algorithms",
    "all_suites",
    "bad_input_cases",
    "get_suite",
    "hard_input_extras",
    "import_errors",
    "uncovered_algorithms",
]

#: Every module that defines ``SUITES``, in listing order: the generic suite, then the families.
SUITE_MODULES: tuple[str, ...] = ("bad_input", "hard_input", *FAMILIES)


def _load(module: str) -> ModuleType:
    return importlib.import_module(module)


def _try_load(modules: tuple[str, ...]) -> tuple[list[ModuleType], dict[str, str]]:
    loaded: list[ModuleType] = []
    errors: dict[str, str] = {}
    for name in modules:
        try:
            loaded.append(_load(name))
        except Exception as exc:  # one broken family must not hide the others
            errors[name] = f"{type(exc).__name__}: {exc}"
    return loaded, errors


def _suite_modules() -> tuple[list[ModuleType], dict[str, str]]:
    return _try_load(tuple(f"properties.{name}" for name in SUITE_MODULES))


def _catalogue_modules() -> tuple[list[ModuleType], dict[str, str]]:
    return _try_load(tuple(f"properties.catalogue.{name}" for name in FAMILIES))


def import_errors() -> dict[str, str]:
    """Suite and catalogue modules that fail to import (module -> error)."""
    _, suite_errors = _suite_modules()
    _, catalogue_errors = _catalogue_modules()
    return {**suite_errors, **catalogue_errors}


def all_suites() -> dict[str, Suite[Any]]:
    """Every registered suite by name (families that fail to import are left out).

    Raises:
        ValueError: two modules register the same suite name.
    """
    out: dict[str, Suite[Any]] = {}
    modules, _ = _suite_modules()
    for module in modules:
        for suite in getattr(module, "SUITES", ()):
            if suite.name in out:
                raise ValueError(f"suite name {suite.name!r} is registered twice")
            out[suite.name] = suite
    return out


def get_suite(name: str) -> Suite[Any]:
    """The suite called ``name``, importing only the module its prefix names.

    Raises:
        ValueError: no such suite (the message lists the known ones).
    """
    prefix = name.split(".", 1)[0]
    if prefix in SUITE_MODULES:
        for suite in getattr(_load(f"properties.{prefix}"), "SUITES", ()):
            if suite.name == name:
                found: Suite[Any] = suite
                return found
    known = ", ".join(sorted(all_suites()))
    raise ValueError(f"suite: expected one of {known}, got {name!r}")


def all_algorithms() -> tuple[Algorithm, ...]:
    """Every catalogued algorithm, sorted by family then name."""
    items: list[Algorithm] = []
    modules, _ = _catalogue_modules()
    for module in modules:
        items.extend(getattr(module, "ALGORITHMS", ()))
    return tuple(sorted(items, key=lambda a: (a.family, a.name)))


def bad_input_cases() -> tuple[BadInputCase, ...]:
    """Every registered bad-input case, sorted by name.

    Raises:
        ValueError: two cases share a name.
    """
    cases: dict[str, BadInputCase] = {}
    modules, _ = _catalogue_modules()
    for module in modules:
        for case in getattr(module, "BAD_INPUT_CASES", ()):
            if case.name in cases:
                raise ValueError(f"bad-input case {case.name!r} is registered twice")
            cases[case.name] = case
    return tuple(cases[k] for k in sorted(cases))


def hard_input_extras() -> tuple[HardExtra, ...]:
    """Every registered hard-input extra (``HARD_EXTRAS`` of the catalogue modules), by name.

    Raises:
        ValueError: two extras share a name.
    """
    extras: dict[str, HardExtra] = {}
    modules, _ = _catalogue_modules()
    for module in modules:
        for extra in getattr(module, "HARD_EXTRAS", ()):
            if extra.name in extras:
                raise ValueError(f"hard-input extra {extra.name!r} is registered twice")
            extras[extra.name] = extra
    return tuple(extras[k] for k in sorted(extras))


def uncovered_algorithms() -> dict[str, str]:
    """The catalogued algorithms that no theorem check exercises (``UNCOVERED`` of the
    catalogue modules): ``module:function`` -> kind, sorted by name.

    Raises:
        ValueError: an algorithm is listed twice, or with a kind not in ``UNCOVERED_KINDS``.
    """
    table: dict[str, str] = {}
    modules, _ = _catalogue_modules()
    for module in modules:
        for name, kind in getattr(module, "UNCOVERED", {}).items():
            if name in table:
                raise ValueError(f"uncovered algorithm {name!r} is listed twice")
            if kind not in UNCOVERED_KINDS:
                raise ValueError(
                    f"uncovered algorithm {name!r}: expected a kind of {sorted(UNCOVERED_KINDS)}, "
                    f"got {kind!r}"
                )
            table[name] = kind
    return dict(sorted(table.items()))
