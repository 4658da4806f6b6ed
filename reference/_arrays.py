"""Array aliases and the input validators every public function uses.

Every public function of :mod:`reference` validates its arguments on entry with
these helpers, so bad input always surfaces as :class:`ValueError` (wrong shape,
empty, non-finite, out of domain) or :class:`TypeError` (wrong kind: strings,
complex numbers, objects, booleans where a number is needed).  Messages follow
one pattern: ``<argument>: expected <what>, got <what>``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

__all__ = [
    "BoolArray",
    "FloatArray",
    "IntArray",
    "as_float_array",
    "as_simplex_point",
    "describe",
    "readonly",
    "require_finite",
    "require_generator",
    "require_int",
    "require_positive",
    "require_probability",
    "require_shape",
    "require_square",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

_T = TypeVar("_T", bound=np.generic)

_NUMERIC_KINDS = frozenset("biuf")  # bool, signed int, unsigned int, float


def describe(value: object) -> str:
    """Short description of a value for error messages (type, shape, dtype)."""
    if isinstance(value, np.ndarray):
        return f"array of shape {value.shape} and dtype {value.dtype}"
    return f"{type(value).__name__} {value!r}"[:120]


def _shape_text(shape: Sequence[int | None]) -> str:
    inner = ", ".join("*" if s is None else str(s) for s in shape)
    return f"({inner},)" if len(shape) == 1 else f"({inner})"


def require_shape(
    name: str,
    array: npt.NDArray[np.generic],
    *,
    ndim: int | None = None,
    shape: Sequence[int | None] | None = None,
    min_size: int = 1,
) -> None:
    """Check the rank and shape of an array; ``None`` in ``shape`` is a wildcard.

    Args:
        name: argument name used in the message.
        array: the array to check.
        ndim: required number of dimensions (implied by ``shape`` when given).
        shape: required shape; ``None`` entries match any length.
        min_size: every axis must have at least this many entries (1 = not empty).

    Raises:
        ValueError: on any mismatch, naming ``name``, the expectation and the actual shape.
    """
    if shape is not None:
        ndim = len(shape)
    if ndim is not None and array.ndim != ndim:
        want = _shape_text(shape) if shape is not None else f"a {ndim}-D array"
        raise ValueError(f"{name}: expected {want}, got shape {array.shape}")
    if shape is not None:
        for axis, (want_len, got_len) in enumerate(zip(shape, array.shape, strict=True)):
            if want_len is not None and want_len != got_len:
                raise ValueError(
                    f"{name}: expected shape {_shape_text(shape)}, got shape {array.shape}"
                    f" (axis {axis})"
                )
    if min_size > 0 and any(n < min_size for n in array.shape):
        raise ValueError(
            f"{name}: expected every axis to have length >= {min_size}, got shape {array.shape}"
        )


def require_finite(name: str, array: npt.NDArray[np.generic]) -> None:
    """Raise :class:`ValueError` if ``array`` holds NaN or an infinity."""
    if not bool(np.all(np.isfinite(array))):
        bad = int(np.size(array) - np.count_nonzero(np.isfinite(array)))
        raise ValueError(f"{name}: expected finite values, got {bad} NaN/inf entries")


def as_float_array(
    name: str,
    value: object,
    *,
    ndim: int | None = None,
    shape: Sequence[int | None] | None = None,
    min_size: int = 1,
    finite: bool = True,
) -> FloatArray:
    """Coerce ``value`` to a new float64 array after checking its kind, shape and values.

    Accepts Python sequences and arrays of bool/int/float kind.  The result is a
    fresh copy, so callers may modify it without touching the argument.

    Args:
        name: argument name used in error messages.
        value: array-like input.
        ndim: required rank.
        shape: required shape (``None`` entries are wildcards).
        min_size: minimum length of each axis (1 rejects empty input).
        finite: reject NaN and infinities.

    Returns:
        A float64 copy of ``value``.

    Raises:
        TypeError: ``value`` is not a real numeric array (strings, complex, objects, ragged).
        ValueError: wrong shape, empty, or non-finite.

    Example:
        >>> as_float_array("payoff", [[1, 2], [3, 4]], ndim=2).dtype
        dtype('float64')
    """
    if isinstance(value, str | bytes):
        raise TypeError(f"{name}: expected a real numeric array, got {describe(value)}")
    try:
        raw = np.asarray(value)
    except (ValueError, TypeError) as exc:  # ragged nested sequences
        raise TypeError(f"{name}: expected a real numeric array, got {describe(value)}") from exc
    if raw.dtype.kind not in _NUMERIC_KINDS:
        raise TypeError(
            f"{name}: expected a real numeric array (bool/int/float), got dtype {raw.dtype}"
        )
    array = np.array(raw, dtype=np.float64, copy=True)
    require_shape(name, array, ndim=ndim, shape=shape, min_size=min_size)
    if finite:
        require_finite(name, array)
    return array


def as_simplex_point(
    name: str, value: object, *, size: int | None = None, atol: float = 1e-8
) -> FloatArray:
    """Validate a point of the probability simplex and return it as float64.

    Entries must be ``>= -atol`` and sum to one within ``atol``.  Tiny negative
    entries are clipped to zero (no renormalisation: the sum is checked, not fixed).

    Args:
        name: argument name used in messages.
        value: 1-D array-like of length ``size`` (any length >= 1 when ``None``).
        size: required length.
        atol: absolute tolerance of the membership test.

    Returns:
        A float64 copy with entries clipped at zero.

    Raises:
        TypeError: non-numeric input.
        ValueError: wrong shape, non-finite, negative beyond ``atol``, or sum off by more than ``atol``.
    """
    point = as_float_array(name, value, shape=(size,))
    low = float(np.min(point))
    if low < -atol:
        raise ValueError(f"{name}: expected a point of the simplex (entries >= 0), got min {low!r}")
    total = float(np.sum(point))
    if abs(total - 1.0) > atol:
        raise ValueError(f"{name}: expected a point of the simplex (sum 1), got sum {total!r}")
    return np.maximum(point, 0.0)


def _real_scalar(name: str, value: object) -> float:
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a real number, got {describe(value)}")
    result = float(value)
    if not math.isfinite(result):
        raise ValueError(f"{name}: expected a finite number, got {result!r}")
    return result


def require_positive(name: str, value: object, *, allow_zero: bool = False) -> float:
    """Return ``value`` as a float after checking it is a finite positive real.

    Raises:
        TypeError: not a real number (booleans are rejected).
        ValueError: non-finite, or ``<= 0`` (``< 0`` with ``allow_zero``).
    """
    result = _real_scalar(name, value)
    if result < 0.0 or (result == 0.0 and not allow_zero):
        want = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name}: expected a finite number {want}, got {result!r}")
    return result


def require_probability(
    name: str, value: object, *, open_low: bool = False, open_high: bool = False
) -> float:
    """Return ``value`` as a float after checking it lies in [0, 1] (ends optionally open).

    Raises:
        TypeError: not a real number.
        ValueError: outside the interval.
    """
    result = _real_scalar(name, value)
    low_bad = result <= 0.0 if open_low else result < 0.0
    high_bad = result >= 1.0 if open_high else result > 1.0
    if low_bad or high_bad:
        interval = ("(" if open_low else "[") + "0, 1" + (")" if open_high else "]")
        raise ValueError(f"{name}: expected a number in {interval}, got {result!r}")
    return result


def require_int(
    name: str, value: object, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """Return ``value`` as an ``int`` after checking kind and range.

    Raises:
        TypeError: not an integer (booleans and floats are rejected).
        ValueError: outside ``[minimum, maximum]``.
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}: expected an integer, got {describe(value)}")
    result = int(value)
    if minimum is not None and result < minimum:
        raise ValueError(f"{name}: expected an integer >= {minimum}, got {result}")
    if maximum is not None and result > maximum:
        raise ValueError(f"{name}: expected an integer <= {maximum}, got {result}")
    return result


def require_generator(name: str, value: object) -> np.random.Generator:
    """Return ``value`` if it is a :class:`numpy.random.Generator`; else raise ``TypeError``."""
    if not isinstance(value, np.random.Generator):
        raise TypeError(f"{name}: expected a numpy.random.Generator, got {describe(value)}")
    return value


def require_square(name: str, value: object) -> FloatArray:
    """Coerce to a finite, non-empty, square float64 matrix.

    Raises:
        TypeError: non-numeric input.
        ValueError: not 2-D, not square, empty or non-finite.
    """
    matrix = as_float_array(name, value, ndim=2)
    if matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"{name}: expected a square matrix, got shape {matrix.shape}")
    return matrix


def readonly(array: npt.NDArray[_T]) -> npt.NDArray[_T]:
    """Mark ``array`` read-only in place and return it (frozen results store such arrays)."""
    array.setflags(write=False)
    return array
