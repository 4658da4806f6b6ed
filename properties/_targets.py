"""Resolving the user's ``package.module:callable`` and checking its call shape, for the CLI.

The current folder is searched *after* every other entry of ``sys.path`` (the library's own
packages first), so a user's project is found when the command runs in it and a user's file
can never replace the library.  Every problem here is a usage error: :class:`TargetError`
carries one line saying what was searched and what to do.
"""

from __future__ import annotations

import difflib
import importlib.util
import inspect
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from pkgutil import resolve_name
from typing import Any

__all__ = ["TargetError", "call_shape_problem", "closest", "resolve_target", "user_folder_last"]


class TargetError(ValueError):
    """A target that cannot be imported or cannot be called as the suite calls it (exit 2)."""


def user_folder_last() -> Path:
    """Append the current folder to the end of ``sys.path`` (once); returns it."""
    cwd = Path.cwd().resolve()
    if not any(Path(p or os.curdir).resolve() == cwd for p in sys.path):
        sys.path.append(str(cwd))
    return cwd


def closest(name: str, known: Iterable[str]) -> str:
    """``" (closest: a, b)"`` for the known names nearest to ``name``; ``""`` when none is near.

    >>> closest("games.solvr", ["games.solver", "games.regret", "tsp.exact"])
    ' (closest: games.solver, games.regret)'
    """
    near = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
    return f" (closest: {', '.join(near)})" if near else ""


def resolve_target(spec: str, *, option: str = "target") -> Any:
    """Import ``spec`` (``package.module:callable`` or ``package.module.callable``).

    Raises:
        TargetError: the module cannot be found or imported, or has no such attribute; the
            message names the folder searched and the fix.
    """
    folder = user_folder_last()
    module_name = spec.partition(":")[0] if ":" in spec else spec.rpartition(".")[0] or spec
    top = module_name.split(".")[0]
    try:
        return resolve_name(spec)
    except ModuleNotFoundError as exc:
        missing = exc.name or top
        if missing.split(".")[0] == top and importlib.util.find_spec(top) is None:
            raise TargetError(
                f"{option}: cannot import {spec!r}: no module named {top!r} in the current folder "
                f"{folder} nor on sys.path; run the command in the folder that holds {top}/ "
                f"(or {top}.py), or add that folder to PYTHONPATH"
            ) from exc
        if module_name == missing or module_name.startswith(missing + "."):
            found = importlib.util.find_spec(top)
            where = found.origin if found is not None and found.origin else "?"
            raise TargetError(
                f"{option}: cannot import {spec!r}: no module named {missing!r} ({top} was "
                f"found at {where})"
            ) from exc
        raise TargetError(
            f"{option}: cannot import {spec!r}: importing it needs the module {missing!r}, which "
            f"is not installed (pip install {missing.split('.')[0]})"
        ) from exc
    except AttributeError as exc:
        raise TargetError(f"{option}: cannot import {spec!r}: {exc}") from exc
    except ValueError as exc:
        raise TargetError(
            f"{option}: expected package.module:callable, got {spec!r} ({exc})"
        ) from exc
    except Exception as exc:  # the user's module raised while being imported
        raise TargetError(
            f"{option}: importing {module_name!r} raised {type(exc).__name__}: {exc}"
        ) from exc


def call_shape_problem(target: object, protocol: type) -> str:
    """Why ``target`` can never be called the way ``protocol.__call__`` is; ``""`` when it may be.

    Only plain Python functions are checked (classes, instances and factories are adapted by
    the suites), and only what no adapter can bridge: the target requires more positional
    arguments than the protocol has parameters, or requires a keyword the protocol never
    names.  (How many arguments go by position is not checked: adapters pass some by name.)

    >>> from typing import Protocol
    >>> class Solver(Protocol):
    ...     def __call__(self, payoff: object, /, *, iterations: int) -> object: ...
    >>> call_shape_problem(lambda A, *, iterations: A, Solver)
    ''
    >>> call_shape_problem(lambda A, B: A, Solver)
    'it requires 2 positional arguments (A, B); the suite passes at most 1 (payoff)'
    """
    call = protocol.__dict__.get("__call__")
    if call is None or not inspect.isfunction(target):
        return ""
    try:
        wanted = list(inspect.signature(call).parameters.values())[1:]  # without self
        given = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return ""
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in wanted):
        return ""
    names = [p.name for p in wanted]
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p.name for p in given if p.kind in positional and p.default is p.empty]
    passed = [p.name for p in wanted if p.kind is not p.KEYWORD_ONLY]
    if len(required) > len(passed):
        return (
            f"it requires {len(required)} positional arguments ({', '.join(required)}); the suite "
            f"passes at most {len(passed)} ({', '.join(passed)})"
        )
    unknown = [
        p.name
        for p in given
        if p.kind is p.KEYWORD_ONLY and p.default is p.empty and p.name not in names
    ]
    if unknown:
        return (
            f"it requires the keyword {', '.join(unknown)}, which the suite never passes (it "
            f"passes {', '.join(names) or 'nothing else'})"
        )
    return ""
