"""Helpers of the "each hyper-parameter default declared once" tests of a family.

A family's test lists, for every public callable with keyword defaults, where those defaults
are declared (:class:`Decl`: a reference configuration's fields, a reference factory's
signature, module constants) and asks three things, each with a helper here:

* :func:`public_with_defaults`: the callables to list, walked from the package (so a new
  factory cannot slip by unlisted);
* :func:`mismatches`: each default equals its declaration's (``repr`` equal: ``1`` is not
  ``1.0``);
* :func:`literal_copies`: in the source, no default that is declared elsewhere is written as a
  literal (a copy equal today drifts tomorrow);
* :func:`docstring_mismatches`: a configuration's docstring states its fields' defaults, in
  parentheses (``b1: ... (0.9).``), correctly.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import math
import pkgutil
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from reference._defaults import defaults_of


def fields_of(config: Any) -> dict[str, Any]:
    """``field -> value`` of a dataclass instance."""
    return {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}


@dataclass(frozen=True)
class Decl:
    """Where the defaults of one callable are declared.

    ``source``: the declaring defaults (a configuration's fields, a reference factory's
    signature); ``other``: keyword -> (defaults, name there), for a keyword declared elsewhere
    or under another name; ``own``: keywords declared in this very signature (a literal is
    allowed there: it is the declaration); ``rename``: the callable's name -> the source's
    (torch's ``lr`` -> ``learning_rate``); a ``betas`` keyword is the pair ``(b1, b2)``.
    """

    source: Mapping[str, Any]
    other: Mapping[str, tuple[Mapping[str, Any], str]] = field(default_factory=dict)
    own: frozenset[str] = frozenset()
    rename: Mapping[str, str] = field(default_factory=lambda: {"lr": "learning_rate"})

    def expected(self, keyword: str) -> Any:
        """The declared default of ``keyword``."""
        if keyword in self.other:
            source, name = self.other[keyword]
            return source[name]
        if keyword == "betas":
            return (self.source["b1"], self.source["b2"])
        return self.source[self.rename.get(keyword, keyword)]


def modules_of(package: ModuleType, *, skip: Callable[[str], None]) -> Iterator[ModuleType]:
    """The package's modules; ``skip(name)`` is called first (it may skip a torch module)."""
    for info in pkgutil.iter_modules(package.__path__):
        skip(info.name)
        yield importlib.import_module(f"{package.__name__}.{info.name}")


def public_with_defaults(modules: Iterator[ModuleType]) -> dict[str, Callable[..., object]]:
    """``module:name`` -> callable, for every public callable with keyword defaults."""
    out: dict[str, Callable[..., object]] = {}
    for module in modules:
        short = module.__name__.rsplit(".", 1)[1]
        for name in module.__all__:
            obj = getattr(module, name)
            if not callable(obj) or getattr(obj, "__module__", None) != module.__name__:
                continue
            try:
                defaults = defaults_of(obj)
            except (TypeError, ValueError):  # an exception class: no signature of its own
                continue
            if defaults:
                out[f"{short}:{name}"] = obj
    return out


def mismatches(where: str, obj: Callable[..., object], decl: Decl) -> list[str]:
    """The keywords of ``obj`` whose default differs from the declaration's."""
    bad = []
    for keyword, default in defaults_of(obj).items():
        if keyword in decl.own:
            continue
        expected = decl.expected(keyword)
        if repr(default) != repr(expected):
            bad.append(f"{where}: {keyword}={default!r}, declared {expected!r}")
    return bad


# ------------------------------------------------------------------------------- source walk
def is_literal(node: ast.expr) -> bool:
    """A written value: a constant (``None`` too), ``-c``, ``math.inf``, a tuple holding one."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return True
    if isinstance(node, ast.Attribute) and ast.unparse(node) in ("math.inf", "math.nan"):
        return True
    if isinstance(node, ast.Tuple | ast.List):
        return any(is_literal(e) for e in node.elts)
    return False


def _defaults_in_source(fn: ast.FunctionDef) -> Iterator[tuple[str, ast.expr]]:
    args = fn.args
    positional = args.posonlyargs + args.args
    yield from zip(
        [a.arg for a in positional[len(positional) - len(args.defaults) :]],
        args.defaults,
        strict=True,
    )
    for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if d is not None:
            yield a.arg, d


def _signatures_in_source(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef]]:
    """Module-level functions by name, classes by their ``__init__``."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    yield node.name, item


def literal_copies(source: str, module: str, declared: Mapping[str, Decl]) -> list[str]:
    """``module:name(keyword=literal)`` for each declared-elsewhere default written as a literal."""
    bad = []
    for name, fn in _signatures_in_source(ast.parse(source)):
        decl = declared.get(f"{module}:{name}")
        if decl is None:
            continue
        for keyword, node in _defaults_in_source(fn):
            if keyword not in decl.own and is_literal(node):
                bad.append(f"{module}:{name}({keyword}={ast.unparse(node)})")
    return bad


def module_source(package: ModuleType, module: str) -> str:
    """The text of ``package/module.py``."""
    assert package.__file__ is not None
    return (Path(package.__file__).parent / f"{module}.py").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- config docstrings
_STATED = re.compile(r"(?<=\s)\(((?:\([^()]*\))|[^()]*)\)")


def stated_value(text: str) -> tuple[bool, Any]:
    """The value a parenthesis states first: ``(0.9)``, ``(1.0; inf: off)``, ``(``"linf"``)``.

    A trailing citation ``[code]`` is dropped; ``(False, None)`` when no value is stated.
    """
    head = text if text.startswith("(") else re.split(r"[;:,]", text, maxsplit=1)[0]
    head = re.sub(r"\s*\[.*$", "", head.strip()).removeprefix("``").removesuffix("``")
    if head == "inf":
        return True, math.inf
    try:
        value = ast.literal_eval(head)
    except (ValueError, SyntaxError):
        return False, None
    return isinstance(value, bool | int | float | str | tuple), value


def attribute_entries(doc: str) -> dict[str, str]:
    """``name -> text`` of a docstring's ``Attributes:`` section (continuation lines joined)."""
    entries: dict[str, str] = {}
    inside, current = False, None
    for line in doc.splitlines():
        stripped = line.strip()
        if stripped == "Attributes:":
            inside = True
            continue
        if not inside:
            continue
        if not stripped:
            break
        match = re.match(r"(\w+): (.*)", stripped)
        if match and len(line) - len(line.lstrip()) == 4:  # an entry; continuations: 8
            current = match.group(1)
            entries[current] = match.group(2)
        elif current is not None:
            entries[current] += " " + stripped
    return entries


def stated_values(config: type) -> dict[str, list[Any]]:
    """``field -> values its docstring entry states`` (fields that state none left out)."""
    out: dict[str, list[Any]] = {}
    for name, text in attribute_entries(inspect.getdoc(config) or "").items():
        values = [v for ok, v in map(stated_value, _STATED.findall(text)) if ok]
        if values:
            out[name] = values
    return out


def docstring_mismatches(config: type) -> list[str]:
    """The fields whose docstring states a value other than their default."""
    defaults = fields_of(config())
    return [
        f"{config.__name__}.{name}: docstring states {value!r}, default is {defaults[name]!r}"
        for name, values in stated_values(config).items()
        for value in values
        if name in defaults and value != defaults[name]
    ]
