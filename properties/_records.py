"""Catalogue records: :class:`Algorithm` (``verifiedref list``) and :class:`BadInputCase`.

A leaf module (no other ``properties`` import): ``properties/catalogue/<family>.py`` builds
these records, the registry collects them, the bad-input suite runs the cases.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

__all__ = [
    "ARRAY_CORRUPTIONS",
    "Algorithm",
    "ArgKey",
    "Args",
    "ArgsFactory",
    "BadInputCase",
    "CallableUnderTest",
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
