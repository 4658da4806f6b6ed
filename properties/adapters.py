"""Adapters from richer implementations to the suites' minimal protocols.

Checks only ever see the minimal contract (numpy in, numpy out); whatever a
user's function returns — a tuple, a result object with ``x``/``y`` fields, a
mapping, torch tensors — is converted here, never inside a check.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from properties._runner import CheckFailure
from reference._arrays import FloatArray

__all__ = ["as_game_solver", "require_callable", "to_numpy"]


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


def _pair(result: object) -> tuple[object, object]:
    if isinstance(result, Mapping) and "x" in result and "y" in result:
        return result["x"], result["y"]
    if hasattr(result, "x") and hasattr(result, "y"):
        return result.x, result.y
    if isinstance(result, tuple | list) and len(result) == 2:
        return result[0], result[1]
    raise CheckFailure(
        "solver output",
        measured=f"{type(result).__name__}",
        allowed="a pair (x, y), an object with x and y attributes, or a mapping with keys x, y",
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

    def solver(payoff: FloatArray) -> tuple[FloatArray, FloatArray]:
        x, y = _pair(fn(payoff))
        return to_numpy(x, what="x returned by the solver"), to_numpy(
            y, what="y returned by the solver"
        )

    solver.__wrapped__ = fn  # type: ignore[attr-defined]
    return solver
