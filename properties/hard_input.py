"""The generic hard-input suite (``hard_input``): valid input that is numerically hard.

``bad_input`` feeds malformed input; this suite feeds *valid* input a user meets on real data:
scales from ``1e-8`` to ``1e8``, exact and near ties, all-equal and all-zero arrays (rank
deficiency, degenerate heatmaps), and per function the instances the catalogue modules
register (``HARD_EXTRAS``, collected by :func:`properties._registry.hard_input_extras`): the
smallest sizes (``1 x n``, ``n x 1``, ``n = 2, 3``), extreme aspect ratios, nearly singular or
nearly infeasible QPs, long runs at the default caps, and the instances of past defects.
Every public function registered with ``bad_input`` is a case (its valid arguments are the
starting point of the generic transforms); the hard catalogue adds instances and a *stopping
rule* that recomputes the function's stopping quantity independently from the returned output.

Invariants, for every call:

* nothing but the documented :class:`ValueError` / :class:`TypeError` escapes (a transform may
  make an argument invalid, e.g. a scaled probability vector: rejecting it is correct);
  ``IndexError``, ``ZeroDivisionError``, ``LinAlgError``, ``FloatingPointError`` ... never;
  the registered valid arguments and the catalogue's instances are valid by construction:
  there no exception at all;
* no NaN and no ±inf anywhere in the result, except ±inf in the fields a case declares in
  ``inf_fields`` (documented infinite outputs, e.g. ``log_value = -inf`` of an infeasible
  problem; ``"*"``: the whole result, for a function documented to return ``inf``);
* ``converged`` is honest: when the case has a stopping rule, ``converged`` is exactly
  "recomputed stopping quantity <= tol" (up to the rounding of the recomputation,
  ``1e-9`` relative);
* the call returns within the case's time budget (``timeout`` seconds: bounded through
  ``max_iter``, the budget is measured, not assumed);
* the same arguments (same seed) give the same bits.

Floating-point state: calls run under NumPy's default ``errstate`` (warn, never raise), as a
user's would.  A benign underflow or an overflow that the function handles (``exp`` of a large
negative number, an intermediate ``inf`` masked later) is not a defect; what escapes is:
exceptions and non-finite outputs.  Running under ``errstate(all="raise")`` would turn those
benign events into ``FloatingPointError`` and count the user's environment, not the function.

Run it on your own function with the same signature as one of ours:
``verifiedref crosscheck hard_input mypkg.mod:fn --like reference.games:ssn``.
"""

from __future__ import annotations

import dataclasses
import importlib
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

from properties._records import (
    ArgKey,
    Args,
    ArgsFactory,
    CallableUnderTest,
    HardExtra,
    HardInstance,
    StopRule,
)
from properties._registry import bad_input_cases, hard_input_extras
from properties._runner import format_snippet
from properties._suite import Capabilities, Check, CheckFailure, Suite, check

__all__ = [
    "HARD_INPUT",
    "HARD_TRANSFORMS",
    "SUITES",
    "HardExtra",
    "HardInputCase",
    "HardInstance",
    "StopRule",
    "hard_input_cases",
    "hard_transform",
    "leaves",
    "sweep",
]

_ALLOWED = (ValueError, TypeError)

#: Generic transforms of a valid float array argument (the values; shapes never change).
HARD_TRANSFORMS = ("tiny", "huge", "all_equal", "all_zero", "ties", "near_ties")

#: Relative rounding allowed between the function's own stopping test and the recomputation.
HONESTY_ROUNDING = 1e-9


@dataclass(frozen=True, slots=True, kw_only=True)
class HardInputCase:
    """A public function registered with the hard-input suite.

    Attributes:
        name: ``module:function`` of the function under test.
        fn: the function.
        make_args: ``rng -> (args, kwargs)``, valid arguments (the generic transforms' base).
        arrays: the array arguments the generic transforms rewrite.
        instances: named hard instances (the catalogue's ``HARD_EXTRAS``).
        stop_rule: independent recomputation of the stopping quantity, or ``None``.
        inf_fields: result fields documented to hold ±inf (``"*"``: the whole result).
        timeout: seconds one call may take.
    """

    name: str
    fn: CallableUnderTest
    make_args: ArgsFactory
    arrays: tuple[ArgKey, ...]
    instances: tuple[HardInstance, ...] = ()
    stop_rule: StopRule | None = None
    inf_fields: tuple[str, ...] = ()
    timeout: float = 20.0

    def with_fn(self, fn: CallableUnderTest, *, name: str | None = None) -> HardInputCase:
        """The same case run against another function (a user's implementation)."""
        return dataclasses.replace(self, fn=fn, name=name or self.name)


def hard_transform(array: np.ndarray[Any, Any], kind: str, rng: np.random.Generator) -> object:
    """A valid-looking but numerically hard version of ``array`` (never modifies it).

    Integer and boolean arrays (indices, tours, masks) are returned unchanged.

    Raises:
        ValueError: unknown ``kind``.

    Example:
        >>> a = np.array([0.25, -1.5])
        >>> hard_transform(a, "ties", np.random.default_rng(0)).tolist()
        [0.0, -2.0]
    """
    if kind not in HARD_TRANSFORMS:
        raise ValueError(f"kind: expected one of {HARD_TRANSFORMS}, got {kind!r}")
    a = np.array(array, copy=True)
    if a.dtype.kind != "f" or a.size == 0:
        return a
    if kind == "tiny":
        return a * 1e-8
    if kind == "huge":
        return a * 1e8
    if kind == "all_equal":
        return np.full_like(a, a.reshape(-1)[0])
    if kind == "all_zero":
        return np.zeros_like(a)
    if kind == "ties":
        return np.round(a)
    return np.round(a) + 1e-12 * rng.standard_normal(a.shape)


def _is_timing(field: str) -> bool:
    return "time" in field or field in ("seconds", "elapsed")


def leaves(value: object, _depth: int = 0, *, timings: bool = True) -> list[object]:
    """The numbers and arrays inside ``value`` (floats, arrays, sequences, mappings, dataclasses).

    ``timings=False`` leaves out dataclass fields that measure time (``wall_time``, ...).

    Example:
        >>> [type(v).__name__ for v in leaves((1.5, [np.zeros(2)], {"k": 3}))]
        ['float', 'ndarray', 'int']
    """
    if _depth > 6:
        return []
    if isinstance(value, bool | int | float | complex | np.generic | np.ndarray):
        return [value]
    if isinstance(value, tuple | list):
        return [leaf for v in value for leaf in leaves(v, _depth + 1, timings=timings)]
    if isinstance(value, Mapping):
        return [leaf for v in value.values() for leaf in leaves(v, _depth + 1, timings=timings)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [
            leaf
            for f in dataclasses.fields(value)
            if timings or not _is_timing(f.name)
            for leaf in leaves(getattr(value, f.name), _depth + 1, timings=timings)
        ]
    return []


def _nonfinite(value: object, *, inf_fields: tuple[str, ...]) -> str | None:
    for leaf in leaves(value):
        arr = np.asarray(leaf)
        if arr.dtype.kind in "fc" and np.isnan(arr).any():
            return "NaN"
    if "*" in inf_fields:
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.name in inf_fields:
                continue
            for leaf in leaves(getattr(value, f.name)):
                arr = np.asarray(leaf)
                if arr.dtype.kind in "fc" and np.isinf(arr).any():
                    return f"inf (field {f.name!r})"
        return None
    for leaf in leaves(value):
        arr = np.asarray(leaf)
        if arr.dtype.kind in "fc" and np.isinf(arr).any():
            return "inf"
    return None


def _same_bits(a: object, b: object) -> bool:
    la, lb = leaves(a, timings=False), leaves(b, timings=False)
    if len(la) != len(lb):
        return False
    for x, y in zip(la, lb, strict=True):
        ax, ay = np.asarray(x), np.asarray(y)
        if ax.shape != ay.shape or ax.dtype != ay.dtype:
            return False
        if ax.dtype.kind in "fc":
            if ax.tobytes() != ay.tobytes():
                return False
        elif not np.array_equal(ax, ay):
            return False
    return True


def _call(case: HardInputCase, args: Args) -> tuple[bool, object, float]:
    """Run ``case.fn`` in a daemon thread: ``(finished, result or exception, seconds)``."""
    box: dict[str, object] = {}

    def target() -> None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # numpy's default errstate warns; outputs decide
                box["result"] = case.fn(*args[0], **args[1])
        except BaseException as exc:  # reported, never swallowed
            box["error"] = exc

    start = time.perf_counter()
    thread = threading.Thread(target=target, daemon=True, name=f"hard-input {case.name}")
    thread.start()
    thread.join(case.timeout)
    seconds = time.perf_counter() - start
    if thread.is_alive():
        return False, None, seconds
    return True, box.get("error", box.get("result")), seconds


def _replace(args: Args, key: ArgKey, value: object) -> Args:
    pos, kw = list(args[0]), dict(args[1])
    if isinstance(key, int):
        pos[key] = value
    else:
        kw[key] = value
    return tuple(pos), kw


def _get(args: Args, key: ArgKey) -> object:
    return args[0][key] if isinstance(key, int) else args[1][key]


def _expect_sound(
    case: HardInputCase, make: Callable[[], Args], what: str, *, may_reject: bool = True
) -> None:
    """Call on ``make()``; the invariants of the module docstring must hold.

    ``may_reject=False`` for arguments valid by construction (the registered valid arguments
    and the catalogue's instances): then ValueError/TypeError is a failure too.
    """
    args = make()
    snippet = "re-run:\n" + format_snippet(case.name, [args])
    finished, outcome, seconds = _call(case, args)
    if not finished:
        raise CheckFailure(
            what,
            measured=f"no return after {case.timeout}s",
            allowed=f"returns within the budget ({case.timeout}s, bounded through max_iter)",
            detail=snippet,
        )
    if may_reject and isinstance(outcome, _ALLOWED):
        return
    if isinstance(outcome, BaseException):
        raise CheckFailure(
            what,
            measured=f"raised {type(outcome).__name__}: {outcome}",
            allowed="a result, or the documented ValueError/TypeError"
            if may_reject
            else "a result (the arguments are valid)",
            detail=snippet,
        )
    bad = _nonfinite(outcome, inf_fields=case.inf_fields)
    if bad is not None:
        raise CheckFailure(
            what, measured=f"a result holding {bad}", allowed="finite outputs", detail=snippet
        )
    if case.stop_rule is not None:
        verdict = case.stop_rule(make(), outcome)
        if verdict is not None:
            flag, quantity, tol = verdict
            slack = HONESTY_ROUNDING * max(tol, abs(quantity))
            if flag and not quantity <= tol + slack:
                raise CheckFailure(
                    what,
                    measured=f"converged=True with recomputed stopping quantity {quantity:.6g}",
                    allowed=f"<= tol = {tol:.6g}",
                    detail=snippet,
                )
            if not flag and quantity < tol - slack:
                raise CheckFailure(
                    what,
                    measured=f"converged=False with recomputed stopping quantity {quantity:.6g}",
                    allowed=f"converged=True whenever it is <= tol = {tol:.6g}",
                    detail=snippet,
                )
    again_args = make()
    finished, again, _ = _call(case, again_args)
    if finished and not isinstance(again, BaseException) and not _same_bits(outcome, again):
        raise CheckFailure(
            what,
            measured="a second call with the same arguments returned different bits",
            allowed="the same seed gives the same bits",
            detail=snippet,
        )
    del seconds


def _make_transform_check(kind: str) -> Check[HardInputCase]:
    def transform_check(case: HardInputCase, data: st.DataObject, caps: Capabilities) -> None:
        if not case.arrays:
            return
        seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
        which = data.draw(st.sampled_from(("all", *case.arrays)), label="argument")
        keys = case.arrays if which == "all" else (which,)
        make = _transform_maker(case, kind, keys, seed)
        label = "every array argument" if which == "all" else f"argument {which!r}"
        _expect_sound(case, make, f"{case.name} with {label} {kind}")

    transform_check.__name__ = f"check_survives_{kind}"
    return check(anchor="hard input: valid but hard input (scales, ties, degenerate values)")(
        transform_check
    )


@check(anchor="hard input: the catalogue's hard instances (sizes, aspect ratios, near-singular)")
def check_hard_instances(case: HardInputCase, data: st.DataObject, caps: Capabilities) -> None:
    """Every named hard instance satisfies the invariants."""
    if not case.instances:
        return
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    instance = data.draw(st.sampled_from(case.instances), label="instance")
    _expect_sound(
        case, _instance_maker(instance, seed), f"{case.name} on {instance.label}", may_reject=False
    )


@check(anchor="hard input: valid input, same seed same bits, honest flags")
def check_valid_input(case: HardInputCase, data: st.DataObject, caps: Capabilities) -> None:
    """The registered valid arguments satisfy the invariants (the base of the transforms)."""
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    _expect_sound(
        case,
        lambda: case.make_args(np.random.default_rng(seed)),
        f"{case.name} on valid input",
        may_reject=False,
    )


def sweep(case: HardInputCase, *, seed: int = 0) -> list[str]:
    """Every instance and every transform once (all array arguments at once), on ``seed``.

    The deterministic pass the default test gate runs; the suite draws more.

    Returns:
        One message per invariant that failed (empty: all hold).
    """
    failures: list[str] = []

    def attempt(make: Callable[[], Args], what: str, may_reject: bool = True) -> None:
        try:
            _expect_sound(case, make, what, may_reject=may_reject)
        except CheckFailure as exc:
            failures.append(str(exc).splitlines()[0])

    attempt(
        lambda: case.make_args(np.random.default_rng(seed)), f"{case.name} on valid input", False
    )
    for instance in case.instances:
        attempt(_instance_maker(instance, seed), f"{case.name} on {instance.label}", False)
    for kind in HARD_TRANSFORMS if case.arrays else ():
        attempt(
            _transform_maker(case, kind, case.arrays, seed),
            f"{case.name} with every array argument {kind}",
        )
    return failures


def _instance_maker(instance: HardInstance, seed: int) -> Callable[[], Args]:
    return lambda: instance.make_args(np.random.default_rng(seed))


def _transform_maker(
    case: HardInputCase, kind: str, keys: tuple[ArgKey, ...], seed: int
) -> Callable[[], Args]:
    def make() -> Args:
        rng = np.random.default_rng(seed)
        args = case.make_args(rng)
        for key in keys:
            args = _replace(args, key, hard_transform(np.asarray(_get(args, key)), kind, rng))
        return args

    return make


def _resolve(name: str) -> CallableUnderTest:
    module, _, attr = name.partition(":")
    fn: CallableUnderTest = getattr(importlib.import_module(module), attr)
    return fn


def hard_input_cases() -> tuple[HardInputCase, ...]:
    """Every registered hard-input case, sorted by name: one per bad-input case, plus the
    extras that bring their own valid arguments (``HardExtra.make_args``).

    Raises:
        ValueError: an extra names no registered function and has no ``make_args``, or
            is registered twice.
    """
    bad = bad_input_cases()
    extras = {extra.name: extra for extra in hard_input_extras()}
    registered = {c.name for c in bad}
    unknown = {n for n, e in extras.items() if n not in registered and e.make_args is None}
    if unknown:
        raise ValueError(f"hard-input extras for unregistered functions: {sorted(unknown)}")
    cases = [
        HardInputCase(
            name=extra.name,
            fn=extra.fn if extra.fn is not None else _resolve(extra.name),
            make_args=extra.make_args,
            arrays=extra.arrays,
            instances=extra.instances,
            stop_rule=extra.stop_rule,
            inf_fields=extra.inf_fields,
            timeout=extra.timeout if extra.timeout is not None else 20.0,
        )
        for extra in extras.values()
        if extra.name not in registered and extra.make_args is not None
    ]
    for base in bad:
        extra = extras.get(base.name, HardExtra(name=base.name))
        cases.append(
            HardInputCase(
                name=base.name,
                fn=base.fn,
                make_args=base.make_args,
                arrays=base.arrays,
                instances=extra.instances,
                stop_rule=extra.stop_rule,
                inf_fields=extra.inf_fields,
                timeout=extra.timeout if extra.timeout is not None else base.timeout,
            )
        )
    return tuple(sorted(cases, key=lambda c: c.name))


def _adapt(obj: object) -> HardInputCase:
    if isinstance(obj, HardInputCase):
        return obj
    raise TypeError(
        "hard_input: expected a HardInputCase (use --like CASE on the command line, or "
        f"case.with_fn(your_function) from Python), got {type(obj).__name__}"
    )


HARD_INPUT: Suite[HardInputCase] = Suite(
    name="hard_input",
    protocol=CallableUnderTest,
    checks=(
        check_valid_input,
        check_hard_instances,
        *(_make_transform_check(kind) for kind in HARD_TRANSFORMS),
    ),
    adapt=_adapt,
    description="Valid but hard input (scales 1e-8..1e8, ties, all-equal/all-zero, smallest "
    "sizes, aspect ratios, near-singular): only ValueError/TypeError escape, outputs finite, "
    "converged honest, time bounded, same seed same bits.",
    record_calls=False,
    cases=lambda: {case.name: case for case in hard_input_cases()},
)

SUITES = (HARD_INPUT,)
