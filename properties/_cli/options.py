"""Options shared by ``prove`` and ``crosscheck``: executors, check budgets, ``--raises``,
``--with`` and ``--hyper``."""

from __future__ import annotations

import argparse
import ast
import math
from collections.abc import Sequence
from typing import Any, TextIO

from properties._runner import DEFAULT_CHECK_BUDGETS, resolve_check_budget
from properties._targets import TargetError, closest, resolve_target

__all__ = [
    "add_budget_argument",
    "add_executor_arguments",
    "budget_text",
    "keywords_of",
    "parse_budget",
    "parse_hyper",
    "parse_with",
    "resolve_raises",
]


def add_executor_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="run the checks in N worker processes (same verdicts and report as serial)",
    )
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run on a Dask distributed cluster (tcp://host:8786; 'local:N' starts a "
        "LocalCluster of N workers); needs the dask extra",
    )


def resolve_raises(names: Sequence[str], err: TextIO) -> tuple[type[Exception], ...] | None:
    """``--raises module:Class`` values as exception classes (None after a usage error)."""
    out: list[type[Exception]] = []
    for name in names:
        try:
            obj = resolve_target(name, option="--raises")
        except TargetError as exc:
            print(f"verifiedref crosscheck: {exc}", file=err)
            return None
        if not (isinstance(obj, type) and issubclass(obj, Exception)):
            print(f"--raises: expected an Exception subclass, got {name!r} = {obj!r}", file=err)
            return None
        out.append(obj)
    return tuple(out)


def parse_budget(text: str) -> float | str | None:
    """``--check-budget``: seconds, ``none`` or ``auto``."""
    low = text.strip().lower()
    if low in ("auto", "none"):
        return None if low == "none" else "auto"
    try:
        value = float(low)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected seconds, 'none' or 'auto', got {text!r}"
        ) from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected seconds > 0, got {text!r}")
    return value


def budget_text(budget: float | str | None, profile: str) -> str:
    seconds = resolve_check_budget(budget, profile)
    return "none" if seconds is None else f"{seconds:g}s"


def add_budget_argument(parser: argparse.ArgumentParser, *, prove: bool = False) -> None:
    defaults = (
        "quick none, full none"
        if prove
        else ", ".join(
            f"{k} {'none' if v is None else f'{v:g}'}" for k, v in DEFAULT_CHECK_BUDGETS.items()
        )
    )
    parser.add_argument(
        "--check-budget",
        type=parse_budget,
        default="auto",
        metavar="SECONDS",
        help="seconds each check may spend generating and shrinking; when they run out the check "
        "fails with the smallest counterexample so far ('not fully shrunk'), or as 'incomplete' "
        f"if none failed yet; 'none': no budget; default auto = by profile ({defaults}), "
        "or $VERIFIEDREF_CHECK_BUDGET",
    )


def parse_with(pairs: Sequence[str]) -> dict[str, str]:
    """``ALGORITHM=module:callable`` pairs of ``prove --with`` (raises ValueError naming --with)."""
    table: dict[str, str] = {}
    for pair in pairs:
        algorithm, sep, target = pair.partition("=")
        if not sep or not algorithm.strip() or not target.strip():
            raise ValueError(f"--with: expected ALGORITHM=module:callable, got {pair!r}")
        if algorithm.strip() in table:
            raise ValueError(f"--with: {algorithm.strip()!r} is given twice")
        table[algorithm.strip()] = target.strip()
    return table


def parse_hyper(items: Sequence[str], target: Any, name: str) -> dict[str, Any]:
    """``--hyper NAME=VALUE`` items as keywords (values read as Python literals, else text);
    ValueError for a malformed item or a keyword ``target`` does not take."""
    overrides: dict[str, Any] = {}
    accepted = keywords_of(target)
    for item in items:
        key, sep, raw = item.partition("=")
        if not (key and sep):
            raise ValueError(f"--hyper: expected NAME=VALUE, got {item!r}")
        if accepted is not None and key not in accepted:
            raise ValueError(
                f"--hyper: {name} takes no keyword {key!r}{closest(key, accepted)}; it takes "
                f"{', '.join(sorted(accepted))}"
            )
        try:
            overrides[key] = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            overrides[key] = raw
    return overrides


def keywords_of(target: Any) -> set[str] | None:
    """The keyword names ``target`` (a class or function) accepts; ``None`` when any is."""
    import inspect

    try:
        params = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
