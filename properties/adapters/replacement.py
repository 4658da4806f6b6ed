"""``prove --with ALGORITHM=module:callable``: the user's callable shaped like a library function,
its output read by the library function's return annotation."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from properties._suite import CheckFailure
from properties.adapters.arrays import adapt_output, to_numpy, to_scalar
from properties.adapters.factories import target_name, with_hyper
from properties.adapters.torch_optim import as_torch_optimizer, is_torch_optimizer

__all__ = ["PartialResult", "as_replacement"]


class PartialResult:
    """A user's output standing in for a library result type that it fills only in part.

    Reading a field the user's output did not provide raises ``AttributeError`` naming the
    field and what was returned, so a theorem check that needs it fails with that message
    while checks that read only the provided fields run.
    """

    def __init__(self, kind: str, fields: Mapping[str, Any], source: str) -> None:
        self._kind = kind
        self._fields = dict(fields)
        self._source = source

    def __getattr__(self, name: str) -> Any:
        fields = self.__dict__.get("_fields", {})
        if name in fields:
            return fields[name]
        raise AttributeError(
            f"{self.__dict__.get('_source', '?')} returned no {name!r} (this check reads "
            f"{self.__dict__.get('_kind', '?')}.{name}); it returned only "
            f"{', '.join(fields) or 'nothing readable'}"
        )

    def __repr__(self) -> str:
        return f"PartialResult({self._kind}: {', '.join(self._fields)})"


def _is_array_type(tp: object) -> bool:
    return tp is np.ndarray or getattr(tp, "__origin__", None) is np.ndarray


def _output_converter(tp: object, source: str, what: str) -> Callable[[Any], Any] | None:
    """How to read a user's output as the annotated library return type ``tp``;
    ``None`` where the output is passed on unchanged."""
    import dataclasses
    import typing

    origin = typing.get_origin(tp)
    if _is_array_type(tp):
        return lambda value: value if isinstance(value, np.ndarray) else to_numpy(value, what=what)
    if tp is float:
        return lambda value: value if isinstance(value, float) else to_scalar(value, what=what)
    if origin is tuple:
        args = typing.get_args(tp)
        if not args or (len(args) == 2 and args[1] is Ellipsis):
            return None
        parts = [_output_converter(a, source, f"item {i} of {what}") for i, a in enumerate(args)]

        def tuple_of(value: Any) -> Any:
            if isinstance(value, Mapping) or not isinstance(value, tuple | list):
                raise CheckFailure(
                    what, measured=type(value).__name__, allowed=f"a tuple of {len(args)}"
                )
            if len(value) != len(args):
                raise CheckFailure(
                    f"length of {what}", measured=len(value), allowed=f"{len(args)} items"
                )
            return tuple(p(v) if p else v for p, v in zip(parts, value, strict=True))

        return tuple_of
    if isinstance(tp, type) and (dataclasses.is_dataclass(tp) or hasattr(tp, "_fields")):
        return _record_converter(tp, source)
    return None


def _record_converter(cls: type, source: str) -> Callable[[Any], Any]:
    """Read a result object, a mapping or a tuple (fields in order) as the record type
    ``cls`` (a dataclass or NamedTuple); fields are converted by their annotations."""
    import dataclasses
    import typing

    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # unresolvable annotations: fields pass unchanged
        hints = {}
    if dataclasses.is_dataclass(cls):
        names = [f.name for f in dataclasses.fields(cls) if f.init]
        required = {
            f.name
            for f in dataclasses.fields(cls)
            if f.init
            and f.default is dataclasses.MISSING
            and f.default_factory is dataclasses.MISSING
        }
    else:
        names = list(cls._fields)  # type: ignore[attr-defined]
        defaults = getattr(cls, "_field_defaults", {})
        required = {n for n in names if n not in defaults}
    convert = {
        n: _output_converter(hints.get(n), source, f"{n} returned by {source}") for n in names
    }

    def read(value: Any) -> Any:
        if isinstance(value, cls):
            return value
        if isinstance(value, Mapping):
            found = {n: value[n] for n in names if n in value}
        elif isinstance(value, tuple | list) and not hasattr(value, "_fields"):
            if len(value) > len(names):
                raise CheckFailure(
                    f"output of {source}",
                    measured=f"a {type(value).__name__} of {len(value)} items",
                    allowed=f"at most {len(names)} ({', '.join(names)}, in this order)",
                )
            found = dict(zip(names, value, strict=False))
        elif any(hasattr(value, n) for n in names):
            found = {n: getattr(value, n) for n in names if hasattr(value, n)}
        else:
            raise CheckFailure(
                f"output of {source}",
                measured=type(value).__name__,
                allowed=f"a {cls.__name__}, an object or mapping with fields "
                f"{', '.join(names)}, or a tuple of them in this order",
            )
        for n, c in convert.items():
            if c is not None and n in found and found[n] is not None:
                found[n] = c(found[n])
        if required <= set(found):
            try:
                return cls(**found)
            except (TypeError, ValueError):
                pass  # the user's values do not validate as ours: read them as given
        return PartialResult(cls.__name__, found, source)

    return read


def as_replacement(
    original: Callable[..., Any],
    user: Any,
    *,
    overrides: Mapping[str, Any] | None = None,
    source: str = "",
) -> Callable[..., Any]:
    """The user's callable shaped like the library function ``original`` (``prove --with``).

    Accepts what ``crosscheck`` accepts: outputs are read by ``original``'s return annotation
    (a result object, a mapping or a tuple for a record type; any array-protocol object for an
    array; a scalar-like for a float); a torch optimizer class or factory ``(params, **hyper)``
    stands in for an optimizer factory (:func:`as_torch_optimizer`); ``overrides`` are the
    ``--hyper`` keywords fixed on every call.  A record type the output fills only in part is
    a :class:`PartialResult`: checks that read a missing field fail naming it.

    Raises:
        TypeError: ``user`` is not callable.

    Example:
        >>> from reference.games import solve_lp
        >>> fn = as_replacement(solve_lp, lambda a: {"x": [1, 0], "y": [0, 1], "value": 0.0})
        >>> out = fn([[0.0]])
        >>> out.x.dtype, out.value
        (dtype('float64'), 0.0)
    """
    import typing

    if not callable(user):
        raise TypeError(f"expected a callable, got {type(user).__name__}")
    label = source or target_name(user)
    try:
        returns = typing.get_type_hints(original).get("return")
    except Exception:  # unresolvable annotations: no output conversion
        returns = None
    record = getattr(returns, "__origin__", returns)
    if isinstance(record, type) and record.__name__ == "Optimizer" and is_torch_optimizer(user):
        return as_torch_optimizer(user, overrides=overrides)
    fn: Callable[..., Any] = with_hyper(user, overrides) if overrides else user
    convert = _output_converter(returns, label, f"output of {label}")
    return fn if convert is None else adapt_output(fn, convert)
