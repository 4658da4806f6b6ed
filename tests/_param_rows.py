"""What a family's parameter-effect rows are written with (``tests/<family>/param_effects.py``;
the tables are assembled, and the mutants generated, by ``tests/_param_mutants.py``):
:class:`ParamEffect`, the replacements (:func:`constant`, :func:`scaled`, :func:`one_less`,
:func:`use_default`), the short forms :func:`kw`, :func:`bound_effect` and :func:`rows`, and the
reasons several families share."""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "BASELINE",
    "FAST_PATH",
    "GENERATOR",
    "INNER",
    "ORACLE",
    "RANDOM_SOURCE",
    "UTILITY",
    "ParamEffect",
    "Row",
    "bound_effect",
    "constant",
    "kw",
    "one_less",
    "rows",
    "scaled",
    "use_default",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class ParamEffect:
    """One documented keyword replaced.

    Attributes:
        family: the family whose checks must fail it.
        algorithm: ``module:function`` as ``verifiedref list`` shows it.
        keyword: the documented keyword.
        label: the replacement, in words (``"default 'uniform'"``, ``"2 tau"``).
        replace: maps the value the check passed to the value the mutant uses.
        where: why the result must change on the checks' instances.
        catches: the registered checks that must fail it.
    """

    family: str
    algorithm: str
    keyword: str
    label: str
    replace: Callable[[Any], Any]
    where: str
    catches: tuple[str, ...]

    @property
    def target_name(self) -> str:
        """The generated callable's name in ``tests._param_mutants``."""
        function = self.algorithm.split(":")[1]
        return f"{function}__{self.keyword}__{zlib.crc32(self.label.encode()) % 10_000:04d}"


#: A row of ``NEUTRAL`` or ``UNCHECKED``: (algorithm, keyword, reason).
Row = tuple[str, str, str]


def constant(value: Any) -> Callable[[Any], Any]:
    return lambda _old: value


def use_default(_old: Any) -> Any:
    """Marker: replaced by the keyword's default from the signature (see ``tests._param_mutants``)."""
    raise AssertionError("resolved by tests._param_mutants")


def scaled(factor: float) -> Callable[[Any], Any]:
    return lambda old: old * factor


def one_less(old: Any) -> Any:
    """The neighbouring count below ``old`` (never below 1)."""
    return max(1, old - 1)


def bound_effect(
    function: str, keyword: str, label: str, replace: Callable[[Any], Any]
) -> ParamEffect:
    """A stability bound's argument replaced: ``stability.bound_formulas`` compares each bound
    with its formula at two points where every argument is away from 1 and from the others."""
    return ParamEffect(
        family="stability",
        algorithm=f"reference.stability:{function}",
        keyword=keyword,
        label=label,
        replace=replace,
        where="bound_formulas evaluates the documented formula at the arguments it passed",
        catches=("stability.bound_formulas",),
    )


def kw(
    family: str,
    algorithm: str,
    keyword: str,
    label: str,
    replace: Callable[[Any], Any],
    where: str,
    *catches: str,
) -> ParamEffect:
    """A :class:`ParamEffect` of ``reference.<algorithm>`` (the short form of a row)."""
    return ParamEffect(
        family=family,
        algorithm=f"reference.{algorithm}",
        keyword=keyword,
        label=label,
        replace=replace,
        where=where,
        catches=catches,
    )


def rows(reason: str, algorithm: str, *keywords: str) -> tuple[Row, ...]:
    """One table row per keyword of ``algorithm``, all with ``reason``."""
    return tuple((algorithm, keyword, reason) for keyword in keywords)


#: A random source: another generator is another equally valid run.
RANDOM_SOURCE = (
    "the random source: a run from another generator is an equally correct run, and every "
    "claim the checks make holds for each draw (none compares a draw with a fixed stream)"
)


#: Reasons shared by the keywords of algorithms no theorem check runs, by their kind in
#: ``UNCOVERED`` of ``properties/catalogue/<family>.py``: no check calls them, so none can notice a keyword ignored.
BASELINE = (
    "a baseline the papers prove nothing about: no theorem check runs it (its suites check "
    "the output's validity, which holds for any value)"
)
GENERATOR = (
    "a generator: the checks use its output as data and no theorem check runs it; every value "
    "gives a valid instance"
)
INNER = (
    "an inner step: exercised (not substituted) inside its algorithm's checks, which pass its "
    "keywords themselves"
)
ORACLE = "an exact or brute-force oracle the checks themselves use; no theorem check substitutes it"
FAST_PATH = (
    "a torch twin of a reference: the fast-vs-reference tests run it with the reference's "
    "keywords; no theorem check runs it"
)
UTILITY = (
    "a utility with no theorem of its own (a norm, schedule, metric or evaluation): its "
    "definition is tested by the reference tests, no theorem check runs it"
)
