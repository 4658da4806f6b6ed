"""Registry of theorem checks, one module per family of :data:`reference._families.FAMILIES`.

A paper module (``proofs_numeric/<family>.py``) registers a *driver*: a function of a :class:`ProveProfile` that
builds its instances from the profile's seed, runs the theorem check on each
and returns one :class:`~proofs_numeric.BoundCheck` (usually the worst one, see
:func:`worst`).  Adding a family is adding its module and its name to ``FAMILIES``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from importlib import resources
from pkgutil import resolve_name
from typing import Any, Literal, TypeVar

from proofs_numeric._result import BoundCheck
from reference._families import FAMILIES

__all__ = [
    "Declared",
    "ProveProfile",
    "Substitution",
    "TheoremEntry",
    "all_theorems",
    "allowance",
    "declared",
    "declaring",
    "impl",
    "import_errors",
    "recording",
    "register",
    "substituted",
    "teeth",
    "worst",
]

ProfileName = Literal["quick", "full"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ProveProfile:
    """How much work a driver does.

    Attributes:
        name: ``"quick"`` (seconds per check, the default job) or ``"full"`` (the papers' sizes).
        seed: root seed; drivers derive their generators from it (same seed, same bits).
        instances: number of random instances a driver should draw.
    """

    name: ProfileName = "quick"
    seed: int = 20260
    instances: int = 5

    @classmethod
    def named(cls, name: str, *, seed: int = 20260) -> ProveProfile:
        """The standard profile called ``name`` (``quick``: 5 instances, ``full``: 40)."""
        if name == "quick":
            return cls(name="quick", seed=seed, instances=5)
        if name == "full":
            return cls(name="full", seed=seed, instances=40)
        raise ValueError(f"profile: expected 'quick' or 'full', got {name!r}")

    @property
    def is_full(self) -> bool:
        """True for the ``full`` profile."""
        return self.name == "full"


Driver = Callable[[ProveProfile], BoundCheck]


@dataclass(frozen=True, slots=True, kw_only=True)
class TheoremEntry:
    """A registered theorem check.

    Attributes:
        name: unique dotted name, ``<family>.<short>``.
        family: the algorithm family (``games``, ``tsp``, ...), used by ``prove --only``.
        paper: citation of the source.
        theorem: anchor in the source (``"Theorem 4"``).
        algorithms: dotted names of the functions the check exercises.
        driver: the function run by ``verifiedref prove``.
        profiles: the profiles that run it (long sweeps: ``("full",)`` only).
        sanity: the check calls no library code (a fact about the mathematics, not about the
            implementation); it does not count as evidence for the family.
    """

    name: str
    family: str
    paper: str
    theorem: str
    algorithms: tuple[str, ...]
    driver: Driver
    profiles: tuple[ProfileName, ...] = ("quick", "full")
    sanity: bool = False


_REGISTRY: dict[str, TheoremEntry] = {}
_IMPORT_ERRORS: dict[str, str] = {}


def register(
    *,
    name: str,
    family: str,
    paper: str,
    theorem: str,
    algorithms: Iterable[str] = (),
    profiles: tuple[ProfileName, ...] = ("quick", "full"),
    sanity: bool = False,
) -> Callable[[Driver], Driver]:
    """Decorator registering a driver under ``name``; returns the driver unchanged.

    Args:
        name: unique ``<family>.<short>`` name.
        family: family name (``prove --only``).
        paper: citation.
        theorem: anchor in the paper.
        algorithms: ``module:function`` names the check exercises (``verifiedref list``).
        profiles: profiles that run the check; a sweep too long for ``quick`` registers
            ``("full",)`` and is listed as skipped by ``prove --profile quick``.
        sanity: the check exercises no library code (STYLE B7: labelled "sanity", not
            evidence); required exactly when ``algorithms`` is empty.

    Raises:
        ValueError: ``name`` is already registered by another function, does not start
            with ``family + "."``, ``profiles`` names an unknown profile, or ``sanity`` does
            not match an empty ``algorithms``.
    """
    if not name.startswith(family + "."):
        raise ValueError(f"name: expected a name starting with {family + '.'!r}, got {name!r}")
    if not profiles or any(p not in ("quick", "full") for p in profiles):
        raise ValueError(
            f"profiles: expected a non-empty subset of ('quick', 'full'), got {profiles!r}"
        )

    exercised = tuple(algorithms)
    if sanity != (not exercised):
        raise ValueError(
            f"sanity: expected sanity=True exactly when no algorithms are named, got "
            f"sanity={sanity!r} with algorithms={exercised!r}"
        )

    def decorate(driver: Driver) -> Driver:
        previous = _REGISTRY.get(name)
        if previous is not None and previous.driver.__qualname__ != driver.__qualname__:
            raise ValueError(f"name: theorem check {name!r} is registered twice")
        _REGISTRY[name] = TheoremEntry(
            name=name,
            family=family,
            paper=paper,
            theorem=theorem,
            algorithms=exercised,
            driver=driver,
            profiles=profiles,
            sanity=sanity,
        )
        return driver

    return decorate


def _import_families(families: Iterable[str] = FAMILIES) -> None:
    for family in families:
        module = f"proofs_numeric.{family}"
        try:
            importlib.import_module(module)
        except Exception as exc:  # one broken paper module must not hide the others' checks
            _IMPORT_ERRORS[module] = f"{type(exc).__name__}: {exc}"


def import_errors() -> dict[str, str]:
    """Paper modules that failed to import (module -> error), after :func:`all_theorems` ran.

    ``verifiedref prove`` reports each as a failing row, so a broken module fails the run.
    """
    _import_families()
    return dict(_IMPORT_ERRORS)


def all_theorems(
    family: str | None = None, *, profile: str | None = None
) -> tuple[TheoremEntry, ...]:
    """Every registered check, sorted by name (imports the family's paper module, or all).

    Args:
        family: keep only this family (``None`` keeps all); only its module is imported.
        profile: keep only checks run by this profile (``None`` keeps all).
    """
    _import_families(FAMILIES if family is None or family not in FAMILIES else (family,))
    entries = sorted(_REGISTRY.values(), key=lambda e: e.name)
    if family is not None:
        entries = [e for e in entries if e.family == family]
    if profile is not None:
        entries = [e for e in entries if profile in e.profiles]
    return tuple(entries)


_RECORDING: ContextVar[list[BoundCheck] | None] = ContextVar("verifiedref_recording", default=None)


@contextlib.contextmanager
def recording() -> Iterator[list[BoundCheck]]:
    """Collect the single-instance checks that :func:`worst` summarises during the block.

    The slack table (``python -m proofs_numeric._slack``) uses it to see every sub-check of
    a driver, not only the reported one: a bound that is tight on one instance and loose on
    the others lets a bug through on the others.

    Yields:
        The list the sub-checks are appended to (single-instance checks only, in call order).
    """
    collected: list[BoundCheck] = []
    token = _RECORDING.set(collected)
    try:
        yield collected
    finally:
        _RECORDING.reset(token)


def worst(checks: Iterable[BoundCheck]) -> BoundCheck:
    """The check to report from several instances: the first failing one, else the tightest.

    "Tightest" is the ratio closest to 1 (``min(r, 1/r)``: the largest ``ratio`` for ``<=``
    and the smallest for ``>=`` when the bound is positive, the reverse when it is negative);
    for ``==`` it is the largest ``|measured - bound|``.

    Raises:
        ValueError: ``checks`` is empty.
    """
    items = [widened(item) for item in checks]
    if not items:
        raise ValueError("checks: expected at least one BoundCheck, got none")
    collected = _RECORDING.get()
    if collected is not None:
        collected.extend(item for item in items if item.subchecks == 1)
    for item in items:
        if not item.holds:
            return item

    def tightness(c: BoundCheck) -> float:
        if c.sense == "==":
            return abs(c.measured - c.bound)
        return _tightness_of_ratio(c.sense, c.ratio)

    return _summarised(max(items, key=tightness), items)


def _tightness_of_ratio(sense: str, ratio: float) -> float:
    """How close a ratio is to its bound, comparable across senses (larger: tighter)."""
    if math.isnan(ratio):
        return -math.inf
    if sense == "==":
        return 1.0 - abs(ratio - 1.0)
    # A holding inequality with a positive bound has ratio <= 1 (<=) or >= 1 (>=); with a
    # negative bound (a fitted slope <= -0.9) the ratio is on the other side of 1, and a
    # ratio of 2 is as loose as one of 1/2: min(r, 1/r) orders both cases (so a slope of
    # -2.02 against -0.9 counts as looser than one of -1.00).
    if ratio > 0.0:
        return min(ratio, 1.0 / ratio) if math.isfinite(ratio) else 0.0
    return -1.0 if ratio == 0.0 else -2.0  # measured at 0 or beyond: looser than any ratio


def _summarised(chosen: BoundCheck, items: list[BoundCheck]) -> BoundCheck:
    """``chosen`` with ``subchecks``, ``degenerate`` and ``tightest`` counted over ``items``
    (nested summaries add up; a single item's own ratio counts unless its bound is 0)."""
    subchecks = sum(item.subchecks for item in items)
    degenerate = 0
    candidates: list[tuple[str, float]] = []
    for item in items:
        if item.subchecks > 1:
            degenerate += item.degenerate
            if not math.isnan(item.tightest):
                candidates.append((item.sense, item.tightest))
        elif item.is_degenerate:
            degenerate += 1
        else:
            candidates.append((item.sense, item.ratio))
    best = max(candidates, key=lambda c: _tightness_of_ratio(*c), default=None)
    return replace(
        chosen,
        subchecks=subchecks,
        degenerate=degenerate,
        tightest=math.nan if best is None else best[1],
    )


# ------------------------------------------------------------------- declared numerics
#: Unit roundoff of the precisions ``prove --precision`` accepts (the same as crosscheck's).
PRECISIONS: dict[str, float] = {"float64": 2.0**-53, "float32": 2.0**-24, "bfloat16": 2.0**-8}
#: ``prove --precision P`` allows ``ROUNDING_CONSTANT * u_P`` relative error on every compared
#: number (float32: 3.8e-6, bfloat16: 0.25); float64 adds nothing to a check's own budget.
ROUNDING_CONSTANT = 64.0


@dataclass(frozen=True, slots=True)
class Declared:
    """What the implementation under test declares about its numbers (``prove --precision``,
    ``--tolerance``); the default declares nothing and changes no check.

    Attributes:
        precision: its working precision, a key of :data:`PRECISIONS`.
        tolerance: the relative accuracy it promises, or ``None``.
    """

    precision: str = "float64"
    tolerance: float | None = None

    def __post_init__(self) -> None:
        if self.precision not in PRECISIONS:
            raise ValueError(
                f"precision: expected one of {', '.join(PRECISIONS)}, got {self.precision!r}"
            )
        if self.tolerance is not None and not (
            math.isfinite(self.tolerance) and self.tolerance > 0
        ):
            raise ValueError(f"tolerance: expected a finite number > 0, got {self.tolerance!r}")

    @property
    def relative(self) -> float:
        """The relative allowance declared: ``max(64 u_P, tolerance)``, 0 for plain float64."""
        model = (
            0.0 if self.precision == "float64" else ROUNDING_CONSTANT * PRECISIONS[self.precision]
        )
        return max(model, self.tolerance or 0.0)


_DECLARED: ContextVar[Declared | None] = ContextVar("verifiedref_declared", default=None)


def declared() -> Declared:
    """The :class:`Declared` numerics of the running check (``Declared()`` outside ``prove``)."""
    return _DECLARED.get() or Declared()


@contextlib.contextmanager
def declaring(numerics: Declared) -> Iterator[Declared]:
    """Run checks under the declared precision and tolerance (the engine of ``prove
    --precision/--tolerance``): :func:`worst` and the CLI widen every result's budget by
    :meth:`Declared.relative` times the bound's size, and drivers' own comparison tolerances
    go through :func:`allowance`."""
    token = _DECLARED.set(numerics)
    try:
        yield numerics
    finally:
        _DECLARED.reset(token)


def allowance(default: float) -> float:
    """A relative tolerance a driver uses in its own comparisons (a feasibility margin
    ``1e-9``): ``default``, or the declared relative allowance when that is larger.

    Example:
        >>> allowance(1e-9)
        1e-09
        >>> with declaring(Declared(precision="float32")):
        ...     allowance(1e-9) == 64 * 2.0**-24
        True
    """
    return max(default, declared().relative)


def widened(check: BoundCheck) -> BoundCheck:
    """``check`` with its error budget at least the declared relative allowance times
    ``|bound|`` (absolute when the bound is 0); unchanged when nothing is declared."""
    relative = declared().relative
    if relative == 0.0:
        return check
    scale = abs(float(check.bound)) or 1.0
    need = relative * scale
    if not math.isfinite(need) or need <= check.slack:
        return check
    return replace(check, atol=check.atol + (need - check.slack))


# ------------------------------------------------------------------------------ substitution
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(slots=True)
class Substitution:
    """Implementations put in place of library functions for one run (``prove --with``).

    Attributes:
        replacements: library function -> the callable to use instead.
        names: library function -> its ``module:function`` name (as ``verifiedref list`` shows it).
        used: the library functions a check looked up through :func:`impl` during the run.
    """

    replacements: dict[Callable[..., Any], Callable[..., Any]]
    names: dict[Callable[..., Any], str]
    used: set[Callable[..., Any]] = field(default_factory=set)

    def used_names(self) -> set[str]:
        """``module:function`` names of the replaced functions a check actually called."""
        return {self.names[fn] for fn in self.used}


_ACTIVE: ContextVar[Substitution | None] = ContextVar("verifiedref_substitution", default=None)


def impl(default: F) -> F:
    """The implementation of the library function ``default`` that checks must call.

    A theorem check calls the algorithm it exercises as ``impl(ssn)(payoff, ...)``, never
    ``ssn(...)`` directly, so that ``verifiedref prove --with reference.games:ssn=mod:fn``
    (or :func:`substituted`) can put another implementation in its place without
    monkeypatching.  Outside a substitution this returns ``default`` itself.
    """
    active = _ACTIVE.get()
    if active is None or default not in active.replacements:
        return default
    active.used.add(default)
    replacement: F = active.replacements[default]  # type: ignore[assignment]
    return replacement


@contextlib.contextmanager
def substituted(
    replacements: Mapping[str, Callable[..., Any] | str],
) -> Iterator[Substitution]:
    """Run checks with some library functions replaced (the engine of ``prove --with``).

    Args:
        replacements: ``"module:function"`` of a library function (as ``verifiedref list``
            shows it) -> the callable to use instead, or its ``module:callable`` name.

    Yields:
        The active :class:`Substitution`; its ``used`` set tells which replacements a check
        really called.

    Raises:
        ValueError: a name does not resolve, or its left side is not callable.

    Example:
        >>> from reference.games import ssn
        >>> with substituted({"reference.games:ssn": "reference.games:hybrid"}) as sub:
        ...     impl(ssn).__name__
        'hybrid'
    """
    table: dict[Callable[..., Any], Callable[..., Any]] = {}
    names: dict[Callable[..., Any], str] = {}
    for name, replacement in replacements.items():
        original = _resolve_callable("with", name)
        table[original] = (
            _resolve_callable("with", replacement) if isinstance(replacement, str) else replacement
        )
        names[original] = name
    substitution = Substitution(replacements=table, names=names)
    token = _ACTIVE.set(substitution)
    try:
        yield substitution
    finally:
        _ACTIVE.reset(token)


def _resolve_callable(argument: str, name: str) -> Callable[..., Any]:
    try:
        obj = resolve_name(name)
    except (ImportError, AttributeError, ValueError) as exc:
        raise ValueError(f"{argument}: cannot resolve {name!r}: {exc}") from exc
    if not callable(obj):
        raise ValueError(f"{argument}: expected a callable at {name!r}, got {type(obj).__name__}")
    return obj  # type: ignore[no-any-return]


# ------------------------------------------------------------------------------ teeth record
def teeth() -> dict[str, tuple[str, ...]]:
    """check name -> the mutants (``family/name``) its family's mutant table says it catches.

    Read from ``proofs_numeric/_teeth.json``, which the test suite keeps equal to the tables
    in ``tests/<family>/proof_mutants.py`` and whose every entry it verifies by running the
    mutant through :func:`substituted`.  A registered check absent from the record has no
    known mutant it catches: ``verifiedref list --checks`` shows it as "no teeth".
    """
    text = resources.files("proofs_numeric").joinpath("_teeth.json").read_text(encoding="utf-8")
    raw: dict[str, list[str]] = json.loads(text)
    return {check: tuple(keys) for check, keys in raw.items()}
