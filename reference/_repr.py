"""Readable ``repr`` for the result objects of the reference.

A result holds arrays of any size; printing each in full buries the few numbers a user looks at
(``converged``, ``stop_reason``, the objective) under hundreds of lines.  :func:`summary_repr`
replaces the ``repr`` a dataclass generates with a summary of one line per field: scalars as they
are, arrays numpy-style abbreviated with their shape and dtype, long sequences by their length.
The full arrays stay attributes; only the printout is shortened.  Under
``numpy.printoptions(threshold=sys.maxsize)`` (numpy's own "print everything" setting) every field
prints in full, so a failure report that shows an input in full still does.

>>> import numpy as np
>>> from dataclasses import dataclass
>>> @summary_repr
... @dataclass(frozen=True)
... class Fit:
...     x: np.ndarray
...     grid: np.ndarray
...     converged: bool
...     stop_reason: str
>>> Fit(x=np.arange(100.0), grid=np.zeros((50, 60)), converged=True, stop_reason="tol")
Fit(
    x=array([ 0.,  1., ..., 98., 99.], shape=(100,), dtype=float64),
    grid=array(shape=(50, 60), dtype=float64),
    converged=True,
    stop_reason='tol',
)
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping
from typing import TypeVar

import numpy as np

__all__ = ["summarize", "summary_repr"]

_T = TypeVar("_T", bound=type)

#: Arrays of at most this many entries print in full; larger ones print their first and last
#: ``_EDGE`` entries (1-D) or only their shape and dtype (2-D and up).
_SMALL = 6
_EDGE = 2
#: Longest one-line text kept for anything else (reprs of nested objects, strings).
_WIDTH = 120


def _array(value: np.ndarray) -> str:
    if value.ndim == 0:
        return repr(value.item())
    if value.size <= _SMALL and value.ndim == 1:
        return repr(value.tolist()) if value.dtype == object else np.array_repr(value)
    if value.ndim == 1 and value.dtype != object:
        body = np.array2string(
            value, threshold=_SMALL, edgeitems=_EDGE, precision=4, separator=", "
        )
        return f"array({body}, shape={value.shape}, dtype={value.dtype})"
    return f"array(shape={value.shape}, dtype={value.dtype})"


def _clip(text: str) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= _WIDTH else one_line[: _WIDTH - 3] + "..."


def summarize(value: object) -> str:
    """One-line (or, for a nested result, indented multi-line) summary of a field's value."""
    if getattr(type(value), "__repr__", None) is _summary_repr:
        return repr(value).replace("\n", "\n    ")
    if np.get_printoptions()["threshold"] >= sys.maxsize:  # numpy's "print everything"
        return repr(value).replace("\n", "\n    ")
    if isinstance(value, np.ndarray):
        return _array(value)
    if isinstance(value, np.generic):
        return repr(value.item())
    if isinstance(value, bool | int | float | complex) or value is None:
        return repr(value)
    if isinstance(value, str):
        return _clip(repr(value))
    shape = getattr(value, "shape", None)
    dtype = getattr(value, "dtype", None)
    if shape is not None and dtype is not None:  # a torch tensor or another array type
        return f"{type(value).__name__}(shape={tuple(shape)}, dtype={dtype})"
    if isinstance(value, list | tuple):
        parts = [summarize(v) for v in value[: _SMALL + 1]]
        if len(value) <= _SMALL and all("\n" not in p for p in parts):
            text = ", ".join(parts)
            text = f"[{text}]" if isinstance(value, list) else f"({text}{',' * (len(value) == 1)})"
            if len(text) <= _WIDTH:
                return text
        kinds = sorted({type(v).__name__ for v in value})
        return f"<{type(value).__name__} of {len(value)} {'/'.join(kinds)}>"
    if isinstance(value, Mapping):
        text = repr(value)
        if len(text) <= _WIDTH and "\n" not in text:
            return text
        return f"<{type(value).__name__} of {len(value)} entries>"
    return _clip(repr(value))


def _summary_repr(self: object) -> str:
    lines = [f"{type(self).__name__}("]
    for field in dataclasses.fields(self):  # type: ignore[arg-type]
        if field.repr:
            lines.append(f"    {field.name}={summarize(getattr(self, field.name))},")
    lines.append(")")
    return "\n".join(lines)


def summary_repr(cls: _T) -> _T:
    """Class decorator: give a dataclass the summary ``repr`` (and ``str``) of this module.

    Apply it above ``@dataclass``.  Only the printout changes: equality, hashing, pickling and
    the attributes are the dataclass's own.
    """
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"cls: expected a dataclass, got {cls.__name__}")
    cls.__repr__ = _summary_repr  # type: ignore[method-assign]
    return cls
