"""Re-run snippets and full draws for failure reports: Python that runs as pasted.

A snippet imports what it uses (``numpy`` for ``nan``/``inf``, ``Fraction``, ``torch``, the
classes of dataclass arguments), prints every float to the last bit, and loads an input too
large to print from a file written beside the report (``.npy`` for arrays, ``.json`` for long
lists), so that it runs in a fresh interpreter in the user's folder and calls the user's
callable on exactly the failing input.  :class:`Tracer` records the calls made to a factory
*and* to the objects it returns (``init``/``update`` of an optax-style pair), following which
result each later call was given (the state), so that optimizer failures replay too.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import hashlib
import json
import math
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "PRINT_MAX_ENTRIES",
    "InputStore",
    "Tracer",
    "format_draw",
    "format_snippet",
    "format_trace",
    "inputs_at",
]

#: Arrays and lists with more entries than this are saved to a file, not printed.
PRINT_MAX_ENTRIES = 200


class InputStore:
    """Where inputs too large to print go: a folder made on first use (a temporary one if unset)."""

    def __init__(self, folder: Path | None = None) -> None:
        self._folder = folder
        self._count = 0
        self._saved: dict[str, Path] = {}  # content -> file: one file per distinct input

    @property
    def folder(self) -> Path:
        """The folder, created now if needed."""
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="verifiedref-inputs-"))
        self._folder.mkdir(parents=True, exist_ok=True)
        return self._folder.resolve()

    def save(self, value: Any, suffix: str) -> Path:
        """Write ``value`` (an array for ``.npy``, JSON data for ``.json``); returns the path.

        The same content saved twice (a draw and the snippet's argument) gives the same file.
        """
        if suffix == ".npy":
            array = np.ascontiguousarray(value)
            key = f"{array.dtype.str}{array.shape}" + hashlib.sha256(array.tobytes()).hexdigest()
        else:
            key = hashlib.sha256(json.dumps(value).encode()).hexdigest()
        if key in self._saved and self._saved[key].exists():
            return self._saved[key]
        self._count += 1
        path = self.folder / f"input_{self._count:03d}{suffix}"
        while path.exists():
            self._count += 1
            path = self.folder / f"input_{self._count:03d}{suffix}"
        if suffix == ".npy":
            np.save(path, value, allow_pickle=False)
        else:
            path.write_text(json.dumps(value), encoding="utf-8")
        self._saved[key] = path
        return path


_STORE: ContextVar[InputStore | None] = ContextVar("verifiedref_inputs", default=None)


@contextlib.contextmanager
def inputs_at(store: InputStore) -> Iterator[InputStore]:
    """Within the block, snippets save large inputs through ``store``."""
    token = _STORE.set(store)
    try:
        yield store
    finally:
        _STORE.reset(token)


def _store() -> InputStore:
    store = _STORE.get()
    if store is None:
        store = InputStore()
        _STORE.set(store)
    return store


def _entries(value: Any) -> int:
    if isinstance(value, list | tuple):
        return sum(_entries(v) for v in value)
    return 1


class _Writer:
    """Turns values into Python source, collecting the imports and helpers it needs."""

    def __init__(self) -> None:
        self.imports: set[str] = {"import numpy as np"}
        self.helpers: dict[str, str] = {}
        self.placeholders = 0

    def header(self) -> list[str]:
        return [*sorted(self.imports), *self.helpers.values()]

    def float_(self, x: float) -> str:
        if math.isnan(x):
            return "np.nan"
        if math.isinf(x):
            return "np.inf" if x > 0 else "-np.inf"
        return repr(x)

    def plain(self, value: Any) -> str:
        """Python scalars and nested lists (what ``ndarray.tolist`` returns)."""
        if isinstance(value, bool) or value is None or isinstance(value, int | str | bytes):
            return repr(value)
        if isinstance(value, float):
            return self.float_(value)
        if isinstance(value, complex):
            return f"complex({self.float_(value.real)}, {self.float_(value.imag)})"
        if isinstance(value, list):
            return "[" + ", ".join(self.plain(v) for v in value) + "]"
        return self.literal(value)

    def array(self, value: np.ndarray[Any, Any]) -> str:
        if value.dtype == object:
            items = self.literal(value.tolist())
            return f"np.array({items}, dtype=object)"
        if value.size > PRINT_MAX_ENTRIES and value.dtype.kind in "biufc":
            path = _store().save(np.ascontiguousarray(value), ".npy")
            return f"np.load({str(path)!r})"
        text = f"np.array({self.plain(value.tolist())}, dtype={value.dtype.name!r})"
        if value.size == 0:
            text += f".reshape({value.shape!r})"
        return text

    def literal(self, value: Any) -> str:
        if isinstance(value, np.ndarray):
            return self.array(value)
        if isinstance(value, np.generic):
            return f"np.dtype({value.dtype.name!r}).type({self.plain(value.item())})"
        if isinstance(value, Fraction):
            self.imports.add("from fractions import Fraction")
            return f"Fraction({value.numerator}, {value.denominator})"
        if isinstance(value, Decimal):
            self.imports.add("from decimal import Decimal")
            return f"Decimal({str(value)!r})"
        if isinstance(value, bool | int | float | complex | str | bytes) or value is None:
            return self.plain(value)
        if isinstance(value, np.random.Generator):
            self.helpers["_generator"] = (
                "def _generator(state):\n"
                "    rng = np.random.Generator(getattr(np.random, state['bit_generator'])())\n"
                "    rng.bit_generator.state = state\n"
                "    return rng"
            )
            return f"_generator({self.plain_state(value.bit_generator.state)})"
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(value, torch.Tensor):
            self.imports.add("import torch")
            data = self.array(value.detach().cpu().numpy())
            return f"torch.from_numpy({data}).to({value.dtype!s})"
        if isinstance(value, list | tuple) and not hasattr(value, "_fields"):
            if _entries(value) > PRINT_MAX_ENTRIES and _is_json(value):
                path = _store().save(value, ".json")
                self.imports.add("import json")
                load = f"json.load(open({str(path)!r}))"
                return load if isinstance(value, list) else f"tuple({load})"
            inner = ", ".join(self.literal(v) for v in value)
            if isinstance(value, list):
                return f"[{inner}]"
            return f"({inner},)" if len(value) == 1 else f"({inner})"
        if isinstance(value, dict):
            return (
                "{"
                + ", ".join(f"{self.literal(k)}: {self.literal(v)}" for k, v in value.items())
                + "}"
            )
        cls = type(value)
        if hasattr(value, "_fields") or dataclasses.is_dataclass(value):
            name = self.importable(cls)
            if name:
                if hasattr(value, "_fields"):
                    fields = {f: getattr(value, f) for f in value._fields}
                else:
                    fields = {
                        f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.init
                    }
                args = ", ".join(f"{k}={self.literal(v)}" for k, v in fields.items())
                return f"{name}({args})"
        if callable(value):
            name = self.importable(value)
            if name:
                return name
        return self.placeholder(value)

    def plain_state(self, state: Mapping[str, Any]) -> str:
        return self.literal(dict(state))

    def importable(self, obj: Any) -> str:
        """``from module import name`` for a module-level class or function; its name, or ""."""
        module = getattr(obj, "__module__", None)
        qualname = getattr(obj, "__qualname__", "")
        if not module or not qualname or "<" in qualname or module == "__main__":
            return ""
        head = qualname.split(".")[0]
        self.imports.add(f"from {module} import {head}")
        return qualname

    def placeholder(self, value: Any) -> str:
        """A value with no source form (a closure, a lambda): a stand-in that says so when used."""
        self.placeholders += 1
        name = f"_not_reproducible_{self.placeholders}"
        shown = repr(value)[:80].replace("\n", " ")
        self.helpers[name] = (
            f"def {name}(*args, **kwargs):  # stands for {shown}\n"
            f"    raise NotImplementedError('the check passed {type(value).__name__} "
            "here, which has no source form')"
        )
        return name


def _is_json(value: Any) -> bool:
    if isinstance(value, list | tuple):
        return all(_is_json(v) for v in value)
    return isinstance(value, bool | int | float | str) or value is None


def _impl_line(target: str, writer: _Writer, var: str = "impl") -> str:
    importable = ("." in target or ":" in target) and not any(c in target for c in "<> ")
    if importable:
        writer.imports.add("from pkgutil import resolve_name")
        return f"{var} = resolve_name({target!r})"
    writer.helpers.setdefault(
        "_your_callable",
        f"def _your_callable(*args, **kwargs):  # stands for {target}\n"
        "    raise NotImplementedError('put your callable here (it has no import path)')",
    )
    return f"{var} = _your_callable"


def format_snippet(target: str, calls: Sequence[tuple[tuple[Any, ...], Mapping[str, Any]]]) -> str:
    """Python that re-runs ``target`` on the recorded calls (the last three), as pasted.

    >>> print(format_snippet("mypkg.m:f", [((np.array([np.nan, 1.0]),), {"k": Fraction(1, 3)})]))
    from fractions import Fraction
    from pkgutil import resolve_name
    import numpy as np
    <BLANKLINE>
    impl = resolve_name('mypkg.m:f')
    print(impl(np.array([np.nan, 1.0], dtype='float64'), k=Fraction(1, 3)))
    """
    if not calls:
        return ""
    writer = _Writer()
    lines = [_impl_line(target, writer)]
    for args, kwargs in calls[-3:]:
        parts = [writer.literal(a) for a in args]
        parts += [f"{k}={writer.literal(v)}" for k, v in kwargs.items()]
        lines.append(f"print(impl({', '.join(parts)}))")
    return "\n".join([*writer.header(), "", *lines])


def format_draw(index: int, label: str | None, value: Any) -> str:
    """``Draw i (label): value`` in full: every entry, every float to the last bit.

    An array larger than :data:`PRINT_MAX_ENTRIES` is saved (``.npy``) and its path shown.

    >>> print(format_draw(1, "x", np.array([[1.0], [0.1]])))
    Draw 1 (x): array([[1. ],
                       [0.1]])
    """
    head = f"Draw {index} ({label}): " if label else f"Draw {index}: "
    if isinstance(value, np.ndarray) and value.size > PRINT_MAX_ENTRIES and value.dtype != object:
        path = _store().save(np.ascontiguousarray(value), ".npy")
        return f"{head}{value.dtype} array of shape {value.shape}, saved to {path}"
    with np.printoptions(threshold=sys.maxsize, floatmode="unique", linewidth=100):
        text = repr(value)
    pad = " " * len(head)
    return head + text.replace("\n", "\n" + pad)


# ---------------------------------------------------------------------------------- tracing
@dataclass
class _Call:
    owner: int  # -1: the target itself; else the index of the call whose result it is a method of
    method: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    arg_ids: list[int]
    kwarg_ids: dict[str, int]
    result: Any = None
    done: bool = False


@dataclass
class Tracer:
    """Callable stand-in for the target recording its calls and the calls to what it returns.

    ``init``/``update`` (any method) of an object returned by the target are recorded as
    well, and an argument that *is* an earlier result, or an item of one (a state), is
    written as a reference to it, so :func:`format_trace` replays the sequence.
    """

    target: Any
    calls: list[_Call] = field(default_factory=list)
    #: calls made before the first example (a factory called once when the suite adapts the
    #: target): every example's calls build on them, so :meth:`reset` keeps them
    kept: int | None = None

    def __post_init__(self) -> None:
        self.__wrapped__ = self.target

    def reset(self) -> None:
        """Forget the calls of the previous example, keeping those made before the first one."""
        if self.kept is None:
            self.kept = len(self.calls)
        self.calls = self.calls[: self.kept]

    def record(self, owner: int, method: str, fn: Any, args: Any, kwargs: Any) -> Any:
        """Call ``fn`` and record the call; wraps the target's own results for method tracing."""

        def snapshot(value: Any) -> Any:
            try:
                return copy.deepcopy(value)
            except Exception:  # not copyable: keep the object itself
                return value

        call = _Call(
            owner,
            method,
            tuple(snapshot(a) for a in args),
            {k: snapshot(v) for k, v in kwargs.items()},
            [id(a) for a in args],
            {k: id(v) for k, v in kwargs.items()},
        )
        self.calls.append(call)
        index = len(self.calls) - 1
        result = fn(*args, **kwargs)
        call.result, call.done = result, True
        if owner == -1 and not isinstance(result, np.ndarray | float | int | str | list | dict):
            return _Returned(self, index, result)
        return result

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.record(-1, "", self.target, args, kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        attr = getattr(self.target, name)
        if not callable(attr):
            return attr
        return _method(self, -2, name, attr)


def _method(tracer: Tracer, owner: int, name: str, attr: Any) -> Any:
    @functools.wraps(attr)
    def traced(*args: Any, **kwargs: Any) -> Any:
        return tracer.record(owner, name, attr, args, kwargs)

    return traced


class _Returned:
    """An object the target returned: its methods are traced, everything else passes through."""

    def __init__(self, tracer: Tracer, index: int, value: Any) -> None:
        self._tracer, self._index, self._value = tracer, index, value

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._value, name)
        if name.startswith("_") or not callable(attr):
            return attr
        return _method(self._tracer, self._index, name, attr)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._value)

    def __getitem__(self, key: Any) -> Any:
        return self._value[key]

    def __len__(self) -> int:
        return len(self._value)


def format_trace(
    target: str, tracer: Tracer, *, expression: str = "", imports: Sequence[str] = ()
) -> str:
    """Python replaying the traced calls: the failing (last) call and the calls it depends on.

    ``expression`` replaces ``resolve_name(target)`` when the target was adapted before the
    trace (a torch optimizer class: ``as_torch_optimizer(resolve_name(...))``).
    """
    calls = tracer.calls
    if not calls:
        return ""
    writer = _Writer()
    writer.imports.update(imports)
    if expression:
        writer.imports.add("from pkgutil import resolve_name")
        head = f"impl = {expression}"
    else:
        head = _impl_line(target, writer)
    produced: dict[int, str] = {}  # id of a result (or of an item of one) -> its source
    needed = {len(calls) - 1}
    for i in range(len(calls) - 1, -1, -1):  # keep the calls a kept call uses
        if i not in needed:
            continue
        call = calls[i]
        if call.owner >= 0:
            needed.add(call.owner)
        used = {*call.arg_ids, *call.kwarg_ids.values()}
        for j in range(i):
            if calls[j].done and used & _ids(calls[j].result):
                needed.add(j)
    lines = [head]
    for i in sorted(needed):
        call = calls[i]
        where = "impl" if call.owner < 0 else f"r{call.owner}"
        callee = where if call.owner == -1 else f"{where}.{call.method}"

        def source(value: Any, ident: int) -> str:
            return produced.get(ident) or writer.literal(value)

        parts = [source(a, ident) for a, ident in zip(call.args, call.arg_ids, strict=True)]
        parts += [f"{k}={source(v, call.kwarg_ids[k])}" for k, v in call.kwargs.items()]
        lines.append(f"r{i} = {callee}({', '.join(parts)})")
        if call.done:
            produced[id(call.result)] = f"r{i}"
            if isinstance(call.result, tuple):
                for k, item in enumerate(call.result):
                    produced.setdefault(id(item), f"r{i}[{k}]")
    lines.append(f"print(r{len(calls) - 1})")
    return "\n".join([*writer.header(), "", *lines])


def _ids(value: Any) -> set[int]:
    out = {id(value)}
    if isinstance(value, tuple):
        out |= {id(v) for v in value}
    return out
