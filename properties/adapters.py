"""Adapters from richer implementations to the suites' minimal protocols.

Checks only ever see the minimal contract (numpy in, numpy out); whatever a
user's function returns — a tuple, a result object with ``x``/``y`` fields, a
mapping, torch tensors — is converted here, never inside a check.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, ParamSpec, TypeVar

import numpy as np

from properties._runner import CheckFailure
from reference._arrays import FloatArray

__all__ = [
    "adapt_output",
    "array_pair",
    "as_game_solver",
    "require_callable",
    "to_numpy",
    "to_scalar",
]

P = ParamSpec("P")
R = TypeVar("R")


def adapt_output(obj: Callable[P, Any], convert: Callable[[Any], R]) -> Callable[P, R]:
    """``obj`` with its return value passed through ``convert`` (arguments unchanged).

    The wrapper is made by :func:`functools.wraps`, so ``__wrapped__`` is ``obj``: a failure
    report names the user's callable, not the adapter.

    Args:
        obj: the user's callable.
        convert: turns what ``obj`` returns into the suite's minimal contract; raises
            :class:`~properties.CheckFailure` on output it cannot read.

    Returns:
        A callable with ``obj``'s arguments returning ``convert(obj(...))``.

    Example:
        >>> halve = adapt_output(len, lambda n: n / 2)
        >>> halve("abcd"), halve.__wrapped__ is len
        (2.0, True)
    """

    @functools.wraps(obj)
    def adapted(*args: P.args, **kwargs: P.kwargs) -> R:
        return convert(obj(*args, **kwargs))

    return adapted


def to_numpy(value: object, *, what: str) -> FloatArray:
    """Convert an array-like (ndarray, list, CPU/GPU torch tensor) to a float64 ndarray.

    Raises:
        CheckFailure: the value cannot be read as a real array.
    """
    detach = getattr(value, "detach", None)
    if callable(detach):  # torch tensors: move to host first
        value = detach().cpu().numpy()
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise CheckFailure(
            what, measured=f"{type(value).__name__} that is not an array", allowed="a real array"
        ) from exc
    if array.dtype.kind not in "biuf":
        raise CheckFailure(what, measured=f"array of dtype {array.dtype}", allowed="a real array")
    return np.array(array, dtype=np.float64)


def to_scalar(value: object, *, what: str) -> float:
    """Read a real number: a Python/numpy number, or an array-like with exactly one entry.

    Raises:
        CheckFailure: the value is not real or holds more than one entry.

    Example:
        >>> to_scalar(np.array([[2.5]]), what="f(x)"), to_scalar(3, what="f(x)")
        (2.5, 3.0)
    """
    if isinstance(value, Fraction | int | float | np.integer | np.floating):
        return float(value)
    array = to_numpy(value, what=what)
    if array.size != 1:
        raise CheckFailure(what, measured=array.shape, allowed="a scalar")
    return float(array.reshape(-1)[0])


def array_pair(
    result: object, names: tuple[str, str], *, source: str
) -> tuple[FloatArray, FloatArray]:
    """Read two named arrays from a pair, an object with both attributes or a mapping.

    Args:
        result: what the user's callable returned.
        names: the two field names, e.g. ``("x", "y")``.
        source: what returned it, for messages (``"solver"``).

    Raises:
        CheckFailure: ``result`` has neither form, or a field is not a real array.

    Example:
        >>> x, y = array_pair({"x": [1, 0], "y": (0.5, 0.5)}, ("x", "y"), source="solver")
        >>> x.tolist(), y.dtype
        ([1.0, 0.0], dtype('float64'))
    """
    a, b = names
    if isinstance(result, Mapping) and a in result and b in result:
        first, second = result[a], result[b]
    elif hasattr(result, a) and hasattr(result, b):
        first, second = getattr(result, a), getattr(result, b)
    elif isinstance(result, tuple | list) and len(result) == 2:
        first, second = result[0], result[1]
    else:
        raise CheckFailure(
            f"{source} output",
            measured=f"{type(result).__name__}",
            allowed=f"a pair ({a}, {b}), an object with {a} and {b} attributes, "
            f"or a mapping with keys {a}, {b}",
        )
    return to_numpy(first, what=f"{a} returned by the {source}"), to_numpy(
        second, what=f"{b} returned by the {source}"
    )


def require_callable(obj: object) -> Any:
    """The adapter of suites whose protocol is a plain callable: return ``obj`` unchanged.

    Raises:
        TypeError: ``obj`` is not callable.
    """
    if not callable(obj):
        raise TypeError(f"expected a callable, got {type(obj).__name__}")
    return obj


def as_game_solver(fn: Callable[..., Any]) -> Callable[[FloatArray], tuple[FloatArray, FloatArray]]:
    """Wrap ``fn(A, **kw)`` returning a pair, a result with ``.x``/``.y`` or a mapping
    into the minimal ``games.solver`` protocol ``A -> (x, y)`` of float64 arrays.

    Raises:
        TypeError: ``fn`` is not callable.
    """
    if not callable(fn):
        raise TypeError(f"fn: expected a callable A -> (x, y), got {type(fn).__name__}")

    return adapt_output(fn, lambda result: array_pair(result, ("x", "y"), source="solver"))
