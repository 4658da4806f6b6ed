"""The generic bad-input suite (``bad_input``): every public function, every bad argument.

Each family registers its public reference functions as :class:`BadInputCase`
records (``BAD_INPUT_CASES`` in ``properties/catalogue/<family>.py``): the function, a
factory of *valid* arguments, which arguments are arrays and which are scalar
parameters.  The suite corrupts one argument at a time — NaN, ±inf, one
dimension too many or too few, an empty axis, a complex/string/object dtype, a
``None`` — and requires that only :class:`ValueError` or :class:`TypeError`
comes out, within the case's timeout.  The valid arguments must be accepted,
return within the timeout and produce no NaN.

Run it on your own function with the same signature as one of ours:
``verifiedref crosscheck bad_input mypkg.mod:fn --like reference.games:duality_gap``.
"""

from __future__ import annotations

import dataclasses
import math
import threading
from collections.abc import Mapping
from typing import Any

import numpy as np
from hypothesis import strategies as st

from properties._records import (
    ARRAY_CORRUPTIONS,
    ArgKey,
    Args,
    BadInputCase,
    CallableUnderTest,
)
from properties._runner import declared_rejections, format_snippet
from properties._suite import Capabilities, Check, CheckFailure, Suite, check

__all__ = [
    "ARRAY_CORRUPTIONS",
    "BAD_INPUT",
    "SUITES",
    "BadInputCase",
    "contains_nan",
    "corrupt_array",
]

_ALLOWED = (ValueError, TypeError)


def corrupt_array(array: np.ndarray[Any, Any], kind: str, rng: np.random.Generator) -> object:
    """Return a corrupted version of ``array`` (never modifies it).

    Raises:
        ValueError: unknown ``kind``.
    """
    a = np.array(array, dtype=np.float64, copy=True)
    if kind in ("nan", "inf"):
        if a.size == 0:
            return a
        flat = a.reshape(-1)
        position = int(rng.integers(flat.size))
        flat[position] = (
            math.nan if kind == "nan" else (math.inf if rng.random() < 0.5 else -math.inf)
        )
        return flat.reshape(a.shape)
    if kind == "ndim_up":
        return np.stack([a, a])
    if kind == "ndim_down":
        return a[0] if a.ndim >= 1 else a.reshape(1, 1)
    if kind == "empty":
        return a[:0] if a.ndim >= 1 else np.zeros((0,))
    if kind == "complex":
        return a + 1j
    if kind == "string":
        return a.astype(str)
    if kind == "object":
        return np.full(a.shape, None, dtype=object) if a.size else np.array([None], dtype=object)
    if kind == "none":
        return None
    raise ValueError(f"kind: expected one of {ARRAY_CORRUPTIONS}, got {kind!r}")


def contains_nan(value: object, _depth: int = 0) -> bool:
    """True if ``value`` (a float, array, sequence, mapping or dataclass) holds a NaN."""
    if _depth > 6:
        return False
    if isinstance(value, float | np.floating):
        return math.isnan(float(value))
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "fc" and bool(np.isnan(value).any())
    if isinstance(value, tuple | list):
        return any(contains_nan(v, _depth + 1) for v in value)
    if isinstance(value, Mapping):
        return any(contains_nan(v, _depth + 1) for v in value.values())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(
            contains_nan(getattr(value, f.name), _depth + 1) for f in dataclasses.fields(value)
        )
    return False


def _call(case: BadInputCase, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[bool, object]:
    """Run ``case.fn`` in a daemon thread; ``(finished, result or exception)``."""
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["result"] = case.fn(*args, **kwargs)
        except BaseException as exc:  # reported, never swallowed
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True, name=f"bad-input {case.name}")
    thread.start()
    thread.join(case.timeout)
    if thread.is_alive():
        return False, None
    return True, box.get("error", box.get("result"))


def _replace(args: Args, key: ArgKey, value: object) -> Args:
    pos, kw = list(args[0]), dict(args[1])
    if isinstance(key, int):
        pos[key] = value
    else:
        kw[key] = value
    return tuple(pos), kw


def _get(args: Args, key: ArgKey) -> object:
    return args[0][key] if isinstance(key, int) else args[1][key]


def _arg_label(key: ArgKey) -> str:
    return f"positional argument {key}" if isinstance(key, int) else f"argument {key!r}"


def _expect_rejected(case: BadInputCase, args: Args, what: str) -> None:
    finished, outcome = _call(case, *args)
    snippet = "re-run:\n" + format_snippet(case.name, [args])
    kinds: tuple[type[Exception], ...] = (*_ALLOWED, *declared_rejections())
    allowed = "raises " + " or ".join(e.__name__ for e in kinds)
    if not finished:
        raise CheckFailure(
            what,
            measured=f"no return after {case.timeout}s (hangs)",
            allowed=allowed,
            detail=snippet,
        )
    if isinstance(outcome, kinds):
        return
    if isinstance(outcome, BaseException):
        raise CheckFailure(
            what,
            measured=f"raised {type(outcome).__name__}: {outcome}",
            allowed=allowed,
            detail=snippet,
        )
    text = repr(outcome)
    raise CheckFailure(
        what,
        measured=f"returned {text[:160]}",
        allowed=allowed,
        detail=snippet,
    )


def _make_corruption_check(kind: str) -> Check[BadInputCase]:
    def corruption_check(case: BadInputCase, data: st.DataObject, caps: Capabilities) -> None:
        if kind in case.skip or not case.arrays:
            return
        seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
        rng = np.random.default_rng(seed)
        key = data.draw(st.sampled_from(case.arrays), label="argument")
        args = case.make_args(rng)
        bad = corrupt_array(np.asarray(_get(args, key)), kind, rng)
        _expect_rejected(
            case, _replace(args, key, bad), f"{case.name} with {kind} in {_arg_label(key)}"
        )

    corruption_check.__name__ = f"check_rejects_{kind}"
    return check(anchor="input contract: invalid input raises ValueError or TypeError")(
        corruption_check
    )


@check(anchor="input contract: out-of-range parameters raise ValueError or TypeError")
def check_rejects_bad_scalars(case: BadInputCase, data: st.DataObject, caps: Capabilities) -> None:
    """Every declared invalid scalar value is rejected with ValueError/TypeError."""
    if not case.scalars:
        return
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    index = data.draw(st.integers(0, len(case.scalars) - 1), label="scalar index")
    key, values = case.scalars[index]
    value = data.draw(st.sampled_from(values), label="bad value")
    args = case.make_args(np.random.default_rng(seed))
    _expect_rejected(
        case, _replace(args, key, value), f"{case.name} with {_arg_label(key)} = {value!r}"
    )


@check(anchor="input contract: valid input returns a result")
def check_accepts_valid(case: BadInputCase, data: st.DataObject, caps: Capabilities) -> None:
    """The valid arguments are accepted, return in time and produce no NaN."""
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    args = case.make_args(np.random.default_rng(seed))
    finished, outcome = _call(case, *args)
    what = f"{case.name} on valid input"
    snippet = "re-run:\n" + format_snippet(case.name, [args])
    if not finished:
        raise CheckFailure(
            what, measured=f"no return after {case.timeout}s", allowed="returns", detail=snippet
        )
    if isinstance(outcome, BaseException):
        raise CheckFailure(
            what,
            measured=f"raised {type(outcome).__name__}: {outcome}",
            allowed="returns a result",
            detail=snippet,
        )
    if contains_nan(outcome):
        raise CheckFailure(
            what, measured="a result holding NaN", allowed="no NaN in the result", detail=snippet
        )


def _adapt(obj: object) -> BadInputCase:
    if isinstance(obj, BadInputCase):
        return obj
    raise TypeError(
        "bad_input: expected a BadInputCase (use --like CASE on the command line, or "
        f"case.with_fn(your_function) from Python), got {type(obj).__name__}"
    )


def _cases_by_name() -> dict[str, BadInputCase]:
    """The registered bad-input cases by name (``crosscheck bad_input --like CASE``)."""
    from properties._registry import bad_input_cases

    return {case.name: case for case in bad_input_cases()}


BAD_INPUT: Suite[BadInputCase] = Suite(
    name="bad_input",
    protocol=CallableUnderTest,
    checks=(
        check_accepts_valid,
        *(_make_corruption_check(kind) for kind in ARRAY_CORRUPTIONS),
        check_rejects_bad_scalars,
    ),
    adapt=_adapt,
    description="Bad input (NaN, inf, wrong rank, empty, wrong dtype kind, None, bad parameters) "
    "gives ValueError/TypeError naming the argument; nothing hangs; valid input yields no NaN.",
    record_calls=False,
    cases=_cases_by_name,
)

SUITES = (BAD_INPUT,)
