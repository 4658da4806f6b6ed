"""The records a suite is made of: :class:`Check`, :class:`Suite`, :class:`Capabilities`.

A leaf module (no other ``properties`` import) so that the runner, the registry, the
bad-input suite and every family module can share these types without import cycles.

A check is written once, as a decorated function; its name is the function's name without
the ``check_`` prefix::

    @check(anchor="zero-sum games: von Neumann (1928) minimax theorem")
    def check_duality_gap(impl: GameSolver, data: st.DataObject, caps: Capabilities) -> None:
        ...

    GAME_SOLVER = Suite(name="games.solver", checks=(check_duality_gap, ...), ...)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from hypothesis import strategies as st

__all__ = [
    "PRECISIONS",
    "Capabilities",
    "Check",
    "CheckFailure",
    "CheckFn",
    "MissingHyper",
    "Suite",
    "check",
]

#: Unit roundoff ``u`` of each declarable working precision (round to nearest).
PRECISIONS: dict[str, float] = {"float64": 2.0**-53, "float32": 2.0**-24, "bfloat16": 2.0**-8}


class _DefaultTolerance(float):
    """The default ``tolerance``: a float that remembers it was not declared."""


_DEFAULT_TOLERANCE = _DefaultTolerance(1e-6)

ImplT = TypeVar("ImplT")


class CheckFailure(AssertionError):
    """A property did not hold: carries what was measured and what was allowed."""

    def __init__(self, what: str, *, measured: object, allowed: object, detail: str = "") -> None:
        self.what = what
        self.measured = measured
        self.allowed = allowed
        self.detail = detail
        text = f"{what}: measured {measured}, allowed {allowed}"
        super().__init__(text + (f"\n{detail}" if detail else ""))


class MissingHyper(KeyboardInterrupt):
    """A check needs a hyper-parameter the target does not take: the check is *skipped*.

    Raised by the factory adapters when a suite asks for ``name=value`` (a value that changes
    the method, not 0) and the target's signature has no such keyword.  The runner reports the
    check as "skipped: requires NAME".  A ``KeyboardInterrupt`` so that Hypothesis stops at
    once without shrinking or recording the example (see ``_runner.BudgetExhausted``).
    """

    def __init__(self, name: str, target: str, tried: tuple[str, ...] = ()) -> None:
        self.name = name
        self.target = target
        alias = [t for t in tried if t != name]
        also = f" (nor {' or '.join(alias)})" if alias else ""
        super().__init__(f"requires {name}: {target} takes no keyword {name}{also}")


class PrecisionTooCoarse(MissingHyper):
    """At the declared precision the check's rounding model reaches the scale of what it
    judges (nothing could fail it): the check is *skipped*, saying so, not passed vacuously.
    Raised by a check mid-run; reported as "skipped: cannot judge ...".
    """

    def __init__(self, what: str, precision: str, bound: float, scale: float) -> None:
        self.name = "precision"
        self.target = ""
        KeyboardInterrupt.__init__(
            self,
            f"cannot judge {what} at --precision {precision}: its rounding bound {bound:.3g} "
            f"reaches the scale {scale:.3g} of the quantity judged (nothing could fail it); "
            "run at a finer precision or declare --tolerance",
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Capabilities:
    """What an implementation declares it supports; checks that need more are skipped.

    Attributes:
        float32: accepts float32 input and returns float32.
        batched: accepts a leading batch axis.
        raises_on_invalid: rejects bad input with ValueError/TypeError (enables the
            ``rejects_invalid_input`` checks).
        primal_only: returns the primal solution only, no multipliers (``qp_layers.solver``:
            qpth's and cvxpylayers' public APIs); checks recover the multipliers from the
            primal or compare it alone, and checks that need returned multipliers are
            skipped ("requires multipliers").
        tolerance: the accuracy the implementation promises, in the suite's own
            measure (duality gap, KKT residual, ...), relative to the instance scale.
        variant: which of a suite's declared conventions the implementation follows (see
            :attr:`Suite.variants`, e.g. where Adam adds ``eps``); ``None`` is the suite's first.
        precision: the working precision of the implementation (``float64``, ``float32`` or
            ``bfloat16``); checks whose bound is a rounding-error model ``c * u * scale`` use
            its unit roundoff ``u`` (:data:`PRECISIONS`).
        domain: the input domain the implementation is documented for (see
            :attr:`Suite.domains`, e.g. ``generic`` games: non-degenerate, sides >= 2); checks
            draw only inputs of that domain and checks outside it are skipped; ``None`` is
            the suite's first (its widest).
        min_size: smallest problem size to draw (game sides, TSP cities, ...), at least the
            domain's own minimum; ``None`` keeps the suite's.
        max_size: largest problem size to draw; ``None`` keeps the suite's.
        returns: the output blocks a partial implementation returns (``qp_layers``: a
            subset of ``Q, q, G, h, A, b``); blocks outside it are not judged and checks that
            judge only such blocks are skipped, named; ``None``: every block.
        raises: the target's own exception classes that count as rejecting bad input, beside
            ValueError and TypeError, in every bad-input check (a library's ``ProblemError``;
            ``crosscheck --raises module:Class``).

    Checks with a rounding-error model allow :meth:`rounding_bound`: the model's bound, or
    the declared ``tolerance`` times the scale when one was declared and is larger.
    """

    float32: bool = False
    batched: bool = False
    raises_on_invalid: bool = False
    primal_only: bool = False
    tolerance: float = _DEFAULT_TOLERANCE
    variant: str | None = None
    precision: str = "float64"
    domain: str | None = None
    min_size: int | None = None
    max_size: int | None = None
    returns: frozenset[str] | None = None
    raises: tuple[type[Exception], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.raises, tuple) or not all(
            isinstance(e, type) and issubclass(e, Exception) for e in self.raises
        ):
            raise TypeError(
                f"raises: expected a tuple of Exception subclasses, got {self.raises!r}"
            )
        if not (math.isfinite(self.tolerance) and self.tolerance > 0):
            raise ValueError(f"tolerance: expected a finite number > 0, got {self.tolerance!r}")
        if self.precision not in PRECISIONS:
            raise ValueError(
                f"precision: expected one of {', '.join(PRECISIONS)}, got {self.precision!r}"
            )
        for name in ("min_size", "max_size"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"{name}: expected an int or None, got {type(value).__name__}")
            if value is not None and value < 1:
                raise ValueError(f"{name}: expected an int >= 1, got {value!r}")
        if (
            self.min_size is not None
            and self.max_size is not None
            and self.min_size > self.max_size
        ):
            raise ValueError(
                f"max_size: expected >= min_size = {self.min_size}, got {self.max_size!r}"
            )

    @property
    def tolerance_declared(self) -> bool:
        """Whether ``tolerance`` was given (rather than left at its default 1e-6)."""
        return not isinstance(self.tolerance, _DefaultTolerance)

    @property
    def unit_roundoff(self) -> float:
        """``u`` of the declared precision: 2^-53, 2^-24 or 2^-8."""
        return PRECISIONS[self.precision]

    def rounding_bound(self, constant: float, scale: float = 1.0) -> float:
        """``constant * u * scale``, or ``tolerance * scale`` if declared and larger.

        Example:
            >>> Capabilities().rounding_bound(2.0**40) == 2.0**-13
            True
            >>> Capabilities(precision="bfloat16", tolerance=0.5).rounding_bound(4.0, scale=2.0)
            1.0
        """
        model = constant * self.unit_roundoff * scale
        return max(model, self.tolerance * scale) if self.tolerance_declared else model

    def variant_of(self, suite: Suite[Any]) -> str:
        """The declared variant, or ``suite``'s default (its first) when none was declared.

        Raises:
            ValueError: the declared variant is not one of ``suite.variants``.
        """
        names = tuple(suite.variants)
        if self.variant is None:
            return names[0] if names else ""
        if self.variant not in names:
            raise ValueError(
                f"variant: expected one of {list(names)} for suite {suite.name}, got {self.variant!r}"
            )
        return self.variant

    def domain_of(self, suite: Suite[Any]) -> str:
        """The declared domain, or ``suite``'s default (its first) when none was declared.

        Raises:
            ValueError: the declared domain is not one of ``suite.domains``.

        Example:
            >>> Capabilities().domain_of(Suite(name="s", protocol=object, checks=(),
            ...     adapt=lambda f: f, description="", domains={"all": "every input"}))
            'all'
        """
        limit = suite.largest_size
        if limit is not None and self.min_size is not None and self.min_size > limit:
            raise ValueError(
                f"min_size: suite {suite.name} judges sizes up to {limit} (its exact oracle is "
                f"exponential in the size), got {self.min_size}"
            )
        names = tuple(suite.domains)
        if self.domain is None:
            return names[0] if names else ""
        if self.domain not in names:
            raise ValueError(
                f"domain: expected one of {list(names)} for suite {suite.name}, got {self.domain!r}"
            )
        return self.domain

    def sizes(self, low: int, high: int) -> tuple[int, int]:
        """The size range ``(low, high)`` of a draw narrowed by ``min_size``/``max_size``.

        The declared bounds replace the suite's where given: a declared ``min_size`` above the
        suite's largest size draws at that size (it is never silently lowered).

        Example:
            >>> Capabilities(min_size=3).sizes(1, 6)
            (3, 6)
            >>> Capabilities(max_size=2).sizes(1, 6)
            (1, 2)
            >>> Capabilities(min_size=15).sizes(1, 6)
            (15, 15)
        """
        lo = low if self.min_size is None else max(low, self.min_size)
        hi = max(lo, high if self.max_size is None else self.max_size)
        return lo, hi

    def flags(self) -> frozenset[str]:
        """Names of the boolean capabilities that are switched on."""
        return frozenset(
            f.name
            for f in dataclasses.fields(self)
            if f.type in ("bool", bool) and getattr(self, f.name)
        )

    @classmethod
    def flag_names(cls) -> tuple[str, ...]:
        """All boolean capability names."""
        return tuple(f.name for f in dataclasses.fields(cls) if f.type in ("bool", bool))


CheckFn = Callable[[ImplT, st.DataObject, Capabilities], None]


@dataclass(frozen=True, slots=True, kw_only=True)
class Check(Generic[ImplT]):
    """One named property of a suite.

    Attributes:
        name: short identifier, unique in its suite.
        fn: ``fn(impl, data, caps)``; raises :class:`CheckFailure` when the property fails.
        anchor: where the property comes from (paper and theorem, or textbook fact).
        requires: capability flags the check needs (see :class:`Capabilities`).
        domains: the suite domains the check runs in (empty: all); in any other domain it
            is skipped, since its inputs lie outside the declared preconditions.
        judges: the output blocks the check judges (empty: all); when the implementation
            declares ``Capabilities.returns`` without any of them, the check is skipped.
    """

    name: str
    fn: CheckFn[ImplT]
    anchor: str
    requires: frozenset[str] = frozenset()
    domains: frozenset[str] = frozenset()
    judges: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True, kw_only=True)
class Suite(Generic[ImplT]):
    """A conformance suite: a protocol, an adapter and checks.

    Attributes:
        name: dotted suite name used by the CLI, e.g. ``games.solver``.
        protocol: the ``typing.Protocol`` an implementation must satisfy.
        checks: the checks, run in order.
        adapt: turns what the user passes (a callable, an object) into ``ImplT``.
        description: one paragraph for ``verifiedref list`` and reports.
        record_calls: record the calls made to the user's callable so that a failure
            can print a snippet reproducing it.
        trace_calls: record as well the calls to the methods of what the callable returns
            (``init``/``update`` of the pair a factory makes) and of the target itself, so
            that the snippet replays the whole sequence; for factories and stateful pairs.
        variants: conventions the suite accepts (name -> what it means), the first being the
            default; an implementation declares its own with ``Capabilities(variant=...)``.
        domains: input domains the suite can restrict its draws to (name -> what it means),
            the first being the default; declared with ``Capabilities(domain=...)``.
        largest_size: the largest problem size the suite's own oracles can judge (an exact
            solver exponential in the size); a declared ``min_size`` above it is a usage error.
        cases: for suites that run one of their registered cases on the target (``bad_input``,
            ``hard_input``): the cases by name; the command line then requires ``--like CASE``
            and binds the target with ``case.with_fn(target, name=...)``.
        foreign: how a ``torch.optim`` optimizer class or factory becomes a target of this suite,
            called as ``foreign(make, overrides=...)`` (``--hyper`` keywords in ``overrides``);
            ``None``: such targets are taken as they are.
        notes: further lines for ``verifiedref describe``: what else the suite accepts.
    """

    name: str
    protocol: type
    checks: tuple[Check[ImplT], ...]
    adapt: Callable[[Any], ImplT]
    description: str
    record_calls: bool = True
    trace_calls: bool = False
    variants: Mapping[str, str] = dataclasses.field(default_factory=dict)
    domains: Mapping[str, str] = dataclasses.field(default_factory=dict)
    largest_size: int | None = None
    cases: Callable[[], Mapping[str, Any]] | None = None
    foreign: Callable[..., Any] | None = None
    notes: tuple[str, ...] = ()

    def check_names(self) -> tuple[str, ...]:
        """Names of the checks, in order."""
        return tuple(c.name for c in self.checks)


def check(
    name: str | None = None,
    *,
    anchor: str,
    requires: Iterable[str] = (),
    domains: Iterable[str] = (),
    judges: Iterable[str] = (),
) -> Callable[[CheckFn[ImplT]], Check[ImplT]]:
    """Decorator making ``check_<name>(impl, data, caps)`` a :class:`Check` named ``<name>``.

    Args:
        name: the check's name when it is not the function's name without ``check_``.
        anchor: where the property comes from (paper and theorem, or textbook fact).
        requires: capability flags the check needs (see :class:`Capabilities`).
        domains: the suite domains the check runs in (empty: all).
        judges: the output blocks the check judges (empty: all; see ``Check.judges``).

    Returns:
        A decorator returning the :class:`Check` (its ``fn`` is the undecorated function).

    Example:
        >>> @check(anchor="textbook", requires=("float32",))
        ... def check_finite(impl: object, data: st.DataObject, caps: Capabilities) -> None:
        ...     pass
        >>> check_finite.name, check_finite.anchor, sorted(check_finite.requires)
        ('finite', 'textbook', ['float32'])
    """

    def decorate(fn: CheckFn[ImplT]) -> Check[ImplT]:
        label = name if name is not None else fn.__name__.removeprefix("check_")
        return Check(
            name=label,
            fn=fn,
            anchor=anchor,
            requires=frozenset(requires),
            domains=frozenset(domains),
            judges=frozenset(judges),
        )

    return decorate
