"""Reading what a user's callable returns as the suites' minimal contract (numpy in, numpy out).

Arrays from numpy, lists, torch tensors (CPU or GPU) and any object implementing ``__array__``
or ``__dlpack__`` (JAX, CuPy, array-API libraries) become float64 ndarrays; pairs, result
objects with named fields and mappings are read by field name.  Output that cannot be read is a
:class:`~properties.CheckFailure` of the check that asked, never an exception of the runner.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, ParamSpec, TypeVar

import numpy as np
import numpy.typing as npt

from properties._suite import CheckFailure
from reference._arrays import FloatArray

__all__ = [
    "adapt_output",
    "array_pair",
    "as_game_solver",
    "dtype_hint",
    "host_array",
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


#: Low-precision float dtypes numpy knows only through ``ml_dtypes`` (JAX's bfloat16 ...).
_EXTENDED_FLOATS = ("bfloat16", "float8", "float16")


def host_array(value: object, *, what: str) -> npt.NDArray[Any]:
    """Read ``value`` as a numpy array on the host, keeping its dtype.

    Accepts an ndarray, a list or number, a CPU/GPU torch tensor, and any object implementing
    the array protocols ``__array__`` (JAX, CuPy via ``.get``, xarray ...) or ``__dlpack__``
    (array-API libraries); the dtype is the converted array's, so a float32 JAX result reads as
    float32.

    Raises:
        CheckFailure: the value cannot be read as an array.

    Example:
        >>> class Wrapped:
        ...     def __array__(self, dtype=None, copy=None):
        ...         return np.ones(2, dtype=np.float32)
        >>> host_array(Wrapped(), what="x").dtype
        dtype('float32')
    """
    detach = getattr(value, "detach", None)
    if callable(detach) and hasattr(value, "cpu"):  # torch tensors: move to host first
        tensor: Any = detach().cpu()
        if str(getattr(tensor, "dtype", "")) == "torch.bfloat16":  # numpy has no bfloat16
            tensor = tensor.float()
        value = tensor.numpy()
    get = getattr(value, "get", None)
    if type(value).__module__.startswith("cupy") and callable(get):  # CuPy: device -> host
        value = get()
    try:
        if not hasattr(value, "__array__") and hasattr(value, "__dlpack__"):
            return np.from_dlpack(value)
        return np.asarray(value)
    except (TypeError, ValueError, RuntimeError, BufferError) as exc:
        raise CheckFailure(
            what,
            measured=f"{type(value).__name__} that is not an array ({type(exc).__name__}: {exc})",
            allowed="a real array (ndarray, __array__ or __dlpack__)",
        ) from exc


def to_numpy(value: object, *, what: str) -> FloatArray:
    """Convert an array-like (ndarray, list, CPU/GPU torch tensor, any ``__array__`` or
    ``__dlpack__`` object such as a JAX array) to a float64 ndarray.

    Raises:
        CheckFailure: the value cannot be read as a real array.
    """
    array = host_array(value, what=what)
    if array.dtype.kind not in "biuf" and not array.dtype.name.startswith(_EXTENDED_FLOATS):
        raise CheckFailure(what, measured=f"array of dtype {array.dtype}", allowed="a real array")
    return np.array(array.astype(np.float64), dtype=np.float64)


def dtype_hint(dtype: object) -> str:
    """The advice for a result of ``dtype`` where float64 was expected ("" if none applies).

    Example:
        >>> dtype_hint(np.dtype(np.float32))
        'the target computes in float32: if that is its working precision, declare --precision float32 (Capabilities(precision="float32"))'
    """
    name = getattr(dtype, "name", str(dtype))
    if name in ("float32", "bfloat16"):
        return (
            f"the target computes in {name}: if that is its working precision, declare "
            f'--precision {name} (Capabilities(precision="{name}"))'
        )
    return ""


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
