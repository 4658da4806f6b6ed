"""``torch.nn.Module`` classes (or instances) as targets of the suites that declare how they call
one (:class:`TorchModuleCall`): arrays go in as float64 CPU tensors, outputs come back as numpy
arrays, so the suite's own adapter then reads them as it reads any answer."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["TorchModuleCall", "as_torch_module", "is_torch_module"]


@dataclass(frozen=True, slots=True, kw_only=True)
class TorchModuleCall:
    """How a suite calls a ``torch.nn.Module`` target, declared by the suite.

    The suite calls its target as ``fn(*arguments)``; a module class is built with the
    arguments named in ``build`` and called on those named in ``forward`` (a module instance is
    only called).  ``None`` arguments stay ``None``.

    Attributes:
        arguments: the names of the suite's call, in order (``("x", "p", "q")``).
        build: the arguments passed to the module's constructor.
        forward: the arguments passed to the module's ``forward``.
        returns: what the module returns, for ``verifiedref describe``.

    Example:
        >>> call = TorchModuleCall(arguments=("x", "p", "q"), build=("p", "q"), forward=("x",),
        ...     returns="sigma(x)")
        >>> call.text()
        'make(p, q)(x) -> sigma(x)'
    """

    arguments: tuple[str, ...]
    build: tuple[str, ...]
    forward: tuple[str, ...]
    returns: str

    def __post_init__(self) -> None:
        unknown = sorted(set(self.build + self.forward) - set(self.arguments))
        if unknown:
            raise ValueError(f"build/forward: expected names of {self.arguments}, got {unknown}")

    def text(self) -> str:
        """The call in one line: ``make(<build>)(<forward>) -> <returns>``."""
        return f"make({', '.join(self.build)})({', '.join(self.forward)}) -> {self.returns}"

    def note(self) -> str:
        """The ``verifiedref describe`` line of a suite that accepts a module."""
        return (
            f"torch: a torch.nn.Module class (or instance) is accepted: {self.text()} "
            "(float64 CPU tensors in, numpy out; properties.adapters.as_torch_module)"
        )


def is_torch_module(obj: object) -> bool:
    """Whether ``obj`` is a ``torch.nn.Module`` subclass or instance (torch already imported)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    if isinstance(obj, type):
        return issubclass(obj, torch.nn.Module)
    return isinstance(obj, torch.nn.Module)


def _tensor(value: Any) -> Any:
    import torch

    return None if value is None else torch.as_tensor(np.array(value, dtype=np.float64))


def _array(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return type(value)(_array(v) for v in value)
    if hasattr(value, "detach"):
        return value.detach().cpu().numpy()
    return value


def as_torch_module(make: Any, call: TorchModuleCall) -> Callable[..., Any]:
    """Turn an ``nn.Module`` class (built as ``call`` says) or instance into the numpy callable
    ``fn(*call.arguments)`` a suite calls.

    Example:
        >>> import torch
        >>> class Scale(torch.nn.Module):
        ...     def __init__(self, p, q):
        ...         super().__init__()
        ...         self.p = p
        ...     def forward(self, x):
        ...         return self.p[0] * x
        >>> call = TorchModuleCall(arguments=("x", "p", "q"), build=("p", "q"), forward=("x",),
        ...     returns="sigma(x)")
        >>> f = as_torch_module(Scale, call)
        >>> f(np.array([1.0, 2.0]), np.array([3.0]), np.array([]))
        array([3., 6.])
    """
    built = None if isinstance(make, type) else make
    build = tuple(call.arguments.index(n) for n in call.build)
    forward = tuple(call.arguments.index(n) for n in call.forward)

    def module_call(*args: Any) -> Any:
        module = built if built is not None else make(*(_tensor(args[i]) for i in build))
        return _array(module(*(_tensor(args[i]) for i in forward)))

    module_call.__qualname__ = getattr(make, "__qualname__", type(make).__qualname__)
    module_call.__module__ = getattr(make, "__module__", __name__)
    module_call.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in call.arguments]
    )
    return module_call
