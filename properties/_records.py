"""Catalogue records: :class:`Algorithm` (``verifiedref list``), :class:`BadInputCase` and the
hard-input records :class:`HardExtra` / :class:`HardInstance`.

A leaf module (no other ``properties`` import): ``properties/catalogue/<family>.py`` builds
these records, the registry collects them, the bad-input and hard-input suites run the cases.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

__all__ = [
    "ARRAY_CORRUPTIONS",
    "UNCOVERED_KINDS",
    "Algorithm",
    "ArgKey",
    "Args",
    "ArgsFactory",
    "BadInputCase",
    "CallableUnderTest",
    "HardExtra",
    "HardInstance",
    "StopRule",
]

Args = tuple[tuple[Any, ...], dict[str, Any]]
ArgsFactory = Callable[[np.random.Generator], Args]
ArgKey = int | str

ARRAY_CORRUPTIONS = (
    "nan",
    "inf",
    "ndim_up",
    "ndim_down",
    "empty",
    "complex",
    "string",
    "object",
    "none",
)


class CallableUnderTest(Protocol):
    """Any function: what a bad-input case calls."""

    def __call__(self, *args: Any, **kwargs: Any) -> object: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class BadInputCase:
    """A public function registered with the bad-input suite.

    Attributes:
        name: ``module:function`` of the function under test.
        fn: the function.
        make_args: ``rng -> (args, kwargs)``, a call with *valid* arguments (arrays as ndarrays).
        arrays: the array arguments to corrupt: positional indices or keyword names.
        scalars: scalar arguments and the invalid values to try for each, e.g.
            ``(("step_size", (0.0, -1.0, math.nan)),)``.
        skip: array corruptions that are legitimately accepted by this function
            (e.g. ``"ndim_up"`` for a function that takes a batch).
        timeout: seconds a single call may take before it counts as hanging.
    """

    name: str
    fn: CallableUnderTest
    make_args: ArgsFactory
    arrays: tuple[ArgKey, ...]
    scalars: tuple[tuple[ArgKey, tuple[object, ...]], ...] = ()
    skip: frozenset[str] = frozenset()
    timeout: float = 20.0

    def __post_init__(self) -> None:
        unknown = self.skip - set(ARRAY_CORRUPTIONS)
        if unknown:
            raise ValueError(
                f"skip: expected names from {ARRAY_CORRUPTIONS}, got {sorted(unknown)}"
            )
        if not self.arrays and not self.scalars:
            raise ValueError("arrays: expected at least one array or scalar argument to corrupt")

    def with_fn(self, fn: CallableUnderTest, *, name: str | None = None) -> BadInputCase:
        """The same case run against another function (a user's implementation)."""
        return dataclasses.replace(self, fn=fn, name=name or self.name)


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


#: Why a catalogued algorithm has no theorem check: kind -> the reason, in one sentence.  A
#: family's catalogue module lists its such algorithms in ``UNCOVERED`` (``module:function`` ->
#: kind); ``tests/test_slack.py`` keeps those lists equal to what no registered check exercises.
UNCOVERED_KINDS: dict[str, str] = {
    "utility": "a norm, distance, metric, schedule or evaluation with no theorem of its own; its definition is checked by the reference tests and the suites",
    "inner": "a step of a checked algorithm, exercised (not substituted) inside its checks",
    "generator": "builds instances; the checks use its output as data",
    "baseline": "a method the papers compare against and prove nothing about",
    "oracle": "an exact or brute-force reference that the checks themselves use",
    "fast path": "a torch twin of a reference, checked against it by the fast-vs-reference tests",
    "gap": "a paper algorithm with a claim but no numeric theorem check yet",
}


#: ``rule(args, result) -> (converged flag, recomputed stopping quantity, tol)``, or ``None``
#: when the call has no tolerance (e.g. ``tol=None``: a fixed number of steps).
StopRule = Callable[[Args, object], "tuple[bool, float, float] | None"]


@dataclass(frozen=True, slots=True, kw_only=True)
class HardInstance:
    """One named hard instance of a function.

    Attributes:
        label: what makes it hard, e.g. ``"1 x n game"``.
        make_args: ``rng -> (args, kwargs)``, valid arguments.
    """

    label: str
    make_args: ArgsFactory


@dataclass(frozen=True, slots=True, kw_only=True)
class HardExtra:
    """What a catalogue module's ``HARD_EXTRAS`` adds to a registered function (run by the
    ``hard_input`` suite).

    Attributes:
        name: the bad-input case name (``module:function``) it extends.
        instances: named hard instances.
        stop_rule: recomputes the stopping quantity (see :data:`StopRule`).
        inf_fields: result fields documented to hold ±inf (``"*"``: the whole result); NaN
            is never allowed.
        timeout: seconds one call may take (the measured budget).
        make_args: for a public function with no bad-input case (e.g. one taking a game
            object, or a callable): ``rng -> (args, kwargs)``, valid arguments, which makes
            the extra a case of its own; ``None`` extends the bad-input case ``name``.
        arrays: with ``make_args``: the float array arguments the generic transforms rewrite.
        fn: with ``make_args``: the callable to run when ``name`` itself returns no numbers
            (e.g. a function that returns a function: a wrapper evaluating it); ``None``: the
            function ``name`` names.
    """

    name: str
    instances: tuple[HardInstance, ...] = ()
    stop_rule: StopRule | None = None
    inf_fields: tuple[str, ...] = ()
    timeout: float | None = None
    make_args: ArgsFactory | None = None
    arrays: tuple[ArgKey, ...] = ()
    fn: CallableUnderTest | None = None
