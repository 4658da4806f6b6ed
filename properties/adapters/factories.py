"""Targets that take keywords: the suite's keywords filtered to those a target accepts, and
``--hyper`` keywords fixed on every call."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from properties._suite import MissingHyper

__all__ = ["is_neutral", "keyword_filter", "target_name", "with_hyper"]

R = TypeVar("R")


def target_name(obj: object) -> str:
    """The user's callable's ``__qualname__`` through recording/adapting wrappers
    (``__wrapped__`` chains), for messages."""
    seen = 0
    while not hasattr(obj, "__qualname__") and hasattr(obj, "__wrapped__") and seen < 20:
        obj, seen = obj.__wrapped__, seen + 1
    return str(getattr(obj, "__qualname__", obj))


def is_neutral(value: object) -> bool:
    """A suite hyper-parameter value that switches its feature off (0: no decay, no LGI)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and value == 0


def keyword_filter(make: Callable[..., R]) -> Callable[..., R]:
    """``make`` called with only the suite keywords its signature accepts.

    A keyword the target does not take is dropped when its value is 0 (the feature is off:
    ``weight_decay=0.0`` for an Adam without decay) and otherwise raises
    :class:`~properties._suite.MissingHyper`, which skips that check as "requires NAME".
    Targets taking ``**kwargs`` or without a readable signature receive every keyword.

    Example:
        >>> def adam(learning_rate, b1=0.9):
        ...     return learning_rate, b1
        >>> keyword_filter(adam)(learning_rate=0.1, weight_decay=0.0)
        (0.1, 0.9)
    """
    try:
        params = inspect.signature(make).parameters
    except (TypeError, ValueError):
        return make
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return make
    named = {
        n
        for n, p in params.items()
        if p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    }
    label = target_name(make)

    @functools.wraps(make)
    def call(*args: Any, **kwargs: Any) -> R:
        kept: dict[str, Any] = {}
        for key, value in kwargs.items():
            if key in named:
                kept[key] = value
            elif not is_neutral(value):
                raise MissingHyper(key, label)
        return make(*args, **kept)

    return call


def with_hyper(make: Callable[..., R], overrides: Mapping[str, Any]) -> Callable[..., R]:
    """``make`` with keywords fixed whatever the suite asks (``crosscheck --hyper NAME=VALUE``).

    Works for any callable target: a factory (``optax.adam`` with ``--hyper learning_rate=0.1``),
    or a function whose every call then receives the keywords.  ``__wrapped__`` is ``make``, so
    its signature and name are what the suite and the report see.

    Example:
        >>> def scale(x, *, by=1.0):
        ...     return x * by
        >>> with_hyper(scale, {"by": 3.0})(2.0, by=5.0)
        6.0
    """
    fixed = dict(overrides)

    @functools.wraps(make)
    def call(*args: Any, **kwargs: Any) -> R:
        return make(*args, **{**kwargs, **fixed})

    return call
