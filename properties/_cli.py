"""The ``verifiedref`` command line: ``list``, ``prove``, ``describe`` and ``crosscheck``.

Exit codes: 0 success, 1 a check or theorem failed, 2 usage or import error.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import datetime as _dt
import io
import json
import math
import platform
import signal
import sys
import textwrap
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from properties._output import fit_report, terminal_width
from properties._parallel import (
    Executor,
    blas_note,
    describe_executor,
    map_ordered,
    single_threaded_blas,
)
from properties._profiles import PROFILES
from properties._registry import (
    all_algorithms,
    all_suites,
    bad_input_cases,
    get_suite,
    import_errors,
)
from properties._runner import (
    DEFAULT_CHECK_BUDGETS,
    DEFAULT_TIMEOUT,
    BudgetExhausted,
    CallTimeout,
    Capabilities,
    _alarm_available,
    _ThreadTimed,
    _time_limit,
    resolve_check_budget,
    run_suite,
)
from properties._suite import PRECISIONS, MissingHyper
from properties._targets import TargetError, call_shape_problem, closest, resolve_target

__all__ = ["main"]


def _fmt(value: float) -> str:
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return str(value)
    if value == 0:
        return "0"
    if 1e-3 <= abs(value) < 1e5:
        return f"{value:.6g}"
    return f"{value:.3e}"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)
    ]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(out)


def _wrapped_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    width: int,
    *,
    fixed: dict[int, int] | None = None,
    breakable: frozenset[int] = frozenset(),
) -> str:
    """:func:`_table` with cells wrapped so that no line is longer than ``width``.

    The widest column gives up one character at a time until the table fits, never below its
    header or its longest word (identifiers stay whole); cells then wrap at spaces.  Columns in
    ``fixed`` (index -> width) keep that width whatever they hold (times: the layout must not
    depend on how long a run took).  Columns in ``breakable`` (prose) may break long words when
    nothing else can give.
    """
    fixed = fixed or {}
    widths = [
        fixed.get(i) or (max(len(h), *(len(r[i]) for r in rows)) if rows else len(h))
        for i, h in enumerate(headers)
    ]
    floor = [
        fixed.get(i) or max([len(h), *(len(word) for r in rows for word in r[i].split())])
        for i, h in enumerate(headers)
    ]
    budget = width - 2 * (len(headers) - 1)
    while sum(widths) > budget:
        shrinkable = [i for i, w in enumerate(widths) if w > floor[i]]
        for least in (8, 0):  # prose gives way to 8 columns, then to its header's width
            if shrinkable:
                break
            shrinkable = [i for i in breakable if widths[i] > max(len(headers[i]), least)]
            for i in shrinkable:
                floor[i] = max(len(headers[i]), least)
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: widths[i])
        widths[widest] -= 1
    out = [
        "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip(),
        "  ".join("-" * w for w in widths),
    ]
    for row in rows:
        cells = [
            textwrap.wrap(c, w, break_on_hyphens=False, break_long_words=i in breakable) or [""]
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        for k in range(max(len(c) for c in cells)):
            parts = [
                (c[k] if k < len(c) else "").ljust(w) for c, w in zip(cells, widths, strict=True)
            ]
            out.append("  ".join(parts).rstrip())
    return "\n".join(out)


# ---------------------------------------------------------------------------------------- list
def _list_import_errors(err: TextIO) -> int:
    """Report family modules that failed to import (their rows are missing); 2 if any."""
    from proofs_numeric._registry import import_errors as theorem_import_errors

    errors = {**import_errors(), **theorem_import_errors()}
    for module, error in errors.items():
        print(f"verifiedref list: cannot import {module}: {error}", file=err)
    return 2 if errors else 0


def _evidence(entry: Any, record: dict[str, tuple[str, ...]]) -> str:
    """What a theorem check is worth as evidence: "sanity" (calls no library code), "no teeth"
    (no mutant in its family's table is known to fail it), else the number of mutants it catches."""
    if entry.sanity:
        return "sanity"
    caught = len(record.get(entry.name, ()))
    if not caught:
        return "no teeth"
    return f"{caught} mutant{'s' if caught > 1 else ''}"


def _slack_summary(slacks: dict[str, dict[str, object]], names: Sequence[str]) -> str:
    """One line on the slack column (issue 36): what it means and how many rows exceed 10."""
    from proofs_numeric._slack import LIMIT, slack_value

    above = [n for n in names if slack_value(slacks, n) > LIMIT]
    unexplained = [n for n in above if not slacks[n].get("reason")]
    return (
        "slack: bound/measured of the tightest sub-check on the reference (quick profile;\n"
        f"  'exact': an identity, '*': reason recorded): {len(above)} above {LIMIT:g}, "
        f"{len(unexplained)} without a reason"
    )


def _uncovered_summary() -> str:
    """One line on the algorithms no theorem check exercises, by kind (issue 36, item 4)."""
    from collections import Counter

    from proofs_numeric._uncovered import UNCOVERED

    kinds = Counter(UNCOVERED.values())
    parts = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
    return (
        f"algorithms without a theorem check: {len(UNCOVERED)}, by kind (reasons in "
        f"proofs_numeric/_uncovered.py):\n  {parts}"
    )


def _cmd_list(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from proofs_numeric import all_theorems
    from proofs_numeric._registry import teeth

    theorems = all_theorems()
    record = teeth()
    if args.checks:
        from proofs_numeric._slack import slack_cell, slack_record

        slacks = slack_record()
        rows = [
            [t.name, _evidence(t, record), slack_cell(slacks, t.name), t.theorem] for t in theorems
        ]
        headers = ["theorem check", "evidence", "slack", "anchor"]
        print(
            _table(headers, rows) if args.wide else _wrapped_table(headers, rows, args.width),
            file=out,
        )
        print("", file=out)
        print(_slack_summary(slacks, [t.name for t in theorems]), file=out)
        print(_uncovered_summary(), file=out)
        toothless = [t.name for t in theorems if _evidence(t, record) == "no teeth"]
        sanity = [t.name for t in theorems if t.sanity]
        print(
            f"{len(theorems)} checks: {len(theorems) - len(toothless) - len(sanity)} catch at least "
            f"one mutant, {len(toothless)} no teeth, {len(sanity)} sanity (not evidence)",
            file=out,
        )
        return _list_import_errors(err)
    if args.markdown:
        print("| family | algorithm | entry point | suites | theorem checks |", file=out)
        print("|---|---|---|---|---|", file=out)
        for algo in all_algorithms():
            checks = [t.name for t in theorems if algo.function in t.algorithms]
            print(
                f"| {algo.family} | {algo.name} | `{algo.function}` | "
                f"{', '.join(f'`{s}`' for s in algo.suites) or '—'} | "
                f"{', '.join(f'`{c}`' for c in checks) or '—'} |",
                file=out,
            )
        return _list_import_errors(err)
    rows = []
    for algo in all_algorithms():
        checks = [t.name for t in theorems if algo.function in t.algorithms]
        rows.append(
            [
                algo.family,
                algo.name,
                algo.function,
                ", ".join(algo.suites) or "-",
                ", ".join(checks) or "-",
            ]
        )
    suites = all_suites()
    if args.json:
        listing = {
            "algorithms": [
                {
                    "family": algo.family,
                    "algorithm": algo.name,
                    "function": algo.function,
                    "suites": list(algo.suites),
                    "theorem_checks": [t.name for t in theorems if algo.function in t.algorithms],
                }
                for algo in all_algorithms()
            ],
            "suites": [
                {"suite": s.name, "checks": list(s.check_names()), "description": s.description}
                for s in suites.values()
            ],
            "theorem_checks": [
                {
                    "name": t.name,
                    "paper": t.paper,
                    "anchor": t.theorem,
                    "evidence": _evidence(t, record),
                    "mutants_caught": list(record.get(t.name, ())),
                }
                for t in theorems
            ],
            "bad_input_cases": [c.name for c in bad_input_cases()],
        }
        print(json.dumps(listing, indent=1), file=out)
        return _list_import_errors(err)

    def table(headers: Sequence[str], body: Sequence[Sequence[str]]) -> str:
        return _table(headers, body) if args.wide else _wrapped_table(headers, body, args.width)

    if args.wide:
        print(
            _table(["family", "algorithm", "module:function", "suites", "theorem checks"], rows),
            file=out,
        )
    else:  # one record per algorithm: identifiers whole, lists wrapped under a hanging indent
        print("algorithms (module:function  name; suites; theorem checks)", file=out)
        for _family, name, function, suite_names, theorem_names in rows:
            print(textwrap.shorten(f"{function}  {name}", args.width, placeholder="..."), file=out)
            for key, value in (("suites", suite_names), ("theorem checks", theorem_names)):
                if value != "-":
                    print(
                        textwrap.fill(
                            f"{key}: {value}",
                            args.width,
                            initial_indent="    ",
                            subsequent_indent="      ",
                            break_long_words=False,
                            break_on_hyphens=False,
                        ),
                        file=out,
                    )
    print(file=out)
    print(
        table(
            ["suite", "checks", "description"],
            [[s.name, str(len(s.checks)), s.description] for s in suites.values()],
        ),
        file=out,
    )
    print(file=out)
    print(
        table(
            ["theorem check", "evidence", "paper", "anchor"],
            [[t.name, _evidence(t, record), t.paper, t.theorem] for t in theorems],
        ),
        file=out,
    )
    print(file=out)
    print(f"bad-input cases: {len(bad_input_cases())} public functions registered", file=out)
    return _list_import_errors(err)


# --------------------------------------------------------------------------------------- prove
def _plots_note() -> str:
    """Whether the report draws plots, and why not."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        return "off (matplotlib is not installed: pip install 'verifiedref[plot]')"
    return "on (in the folder beside the report)"


def _plot(name: str, result: Any, folder: Path) -> Path | None:
    """Draw ``result.series``: labelled axes, the bound (``guide`` curve, or the theoretical
    ``slope`` with the fitted one on log-log axes for rates), markers for paired points."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(5.0, 3.6))
    series = result.series
    scatter = bool(getattr(result, "scatter", False))
    positive = True
    for label, (xs, ys) in series.items():
        if scatter:
            ax.scatter(xs, ys, s=12, label=label)
        else:
            ax.plot(xs, ys, marker=".", markersize=3, label=label)
        positive = positive and all(v > 0 for v in ys)
    slope = getattr(result, "slope", None)
    if slope is not None:
        xs, ys = next(iter(series.values()))
        pts = [(x, y) for x, y in zip(xs, ys, strict=True) if x > 0 and y > 0]
        if len(pts) >= 2:
            lx = np.log([p[0] for p in pts])
            ly = np.log([p[1] for p in pts])
            fitted, intercept = np.polyfit(lx, ly, 1)
            grid = np.array([lx.min(), lx.max()])
            ax.plot(
                np.exp(grid),
                np.exp(intercept + fitted * grid),
                "--",
                label=f"fit: slope {fitted:.3g}",
            )
            ax.plot(
                np.exp(grid),
                np.exp(ly[0] + slope * (grid - lx[0])),
                ":",
                color="black",
                label=f"bound: slope {slope:g}",
            )
            ax.set_xscale("log")
    guide = getattr(result, "guide", None)
    if guide is not None:
        ax.plot(guide[0], guide[1], "-", color="black", linewidth=0.8, label="bound")
    if positive and (slope is not None or not scatter):
        ax.set_yscale("log")
    ax.set_xlabel(getattr(result, "xlabel", "") or "x")
    ax.set_ylabel(getattr(result, "ylabel", "") or next(iter(series)))
    ax.set_title(name, fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    path = folder / f"{name}.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _add_executor_arguments(parser: argparse.ArgumentParser) -> None:
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


def _resolve_raises(names: Sequence[str], err: TextIO) -> tuple[type[Exception], ...] | None:
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


def _budget(text: str) -> float | str | None:
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


def _budget_text(budget: float | str | None, profile: str) -> str:
    seconds = resolve_check_budget(budget, profile)
    return "none" if seconds is None else f"{seconds:g}s"


def _add_budget_argument(parser: argparse.ArgumentParser, *, prove: bool = False) -> None:
    defaults = (
        "quick none, full none"
        if prove
        else ", ".join(
            f"{k} {'none' if v is None else f'{v:g}'}" for k, v in DEFAULT_CHECK_BUDGETS.items()
        )
    )
    parser.add_argument(
        "--check-budget",
        type=_budget,
        default="auto",
        metavar="SECONDS",
        help="seconds each check may spend generating and shrinking; when they run out the check "
        "fails with the smallest counterexample so far ('not fully shrunk'), or as 'incomplete' "
        f"if none failed yet; 'none': no budget; default auto = by profile ({defaults}), "
        "or $VERIFIEDREF_CHECK_BUDGET",
    )


def _parse_with(pairs: Sequence[str]) -> dict[str, str]:
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


@dataclasses.dataclass(frozen=True, slots=True)
class ProveOptions:
    """What ``prove`` declares about the implementations given with ``--with`` (picklable,
    shipped to ``--jobs`` workers with each check)."""

    precision: str = "float64"
    tolerance: float | None = None
    hyper: tuple[tuple[str, Any], ...] = ()
    timeout: float | None = None
    check_budget: float | None = None


ProveTask = tuple[str, str, int, dict[str, str], ProveOptions]
_ERROR_CELL = 60  # longer error messages go below the prove table, in full


def _prove_replacements(replacements: dict[str, str], options: ProveOptions) -> dict[str, Any]:
    """``--with`` targets resolved and shaped like the library functions they replace
    (:func:`properties.adapters.as_replacement`: tuples, mappings, result objects, array
    protocols, torch optimizers, ``--hyper``), each call under ``--timeout``."""
    from pkgutil import resolve_name

    from properties.adapters import as_replacement

    table: dict[str, Any] = {}
    for algorithm, target in replacements.items():
        fn = as_replacement(
            resolve_name(algorithm),
            resolve_target(target, option=f"--with {algorithm}"),
            overrides=dict(options.hyper),
            source=target,
        )
        table[algorithm] = _timed_call(fn, options.timeout) if options.timeout else fn
    return table


_DEADLINE: list[float] = []  # the running check's --check-budget deadline (perf_counter)


def _rearm_budget() -> None:
    """After a timed call, restart the check's budget timer (one SIGALRM timer is shared)."""
    if _DEADLINE and _alarm_available():
        left = max(1e-3, _DEADLINE[-1] - time.perf_counter())

        def _on_alarm(signum: int, frame: Any) -> None:
            raise BudgetExhausted()

        signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, left)


def _timed_call(fn: Any, seconds: float) -> Any:
    """``fn`` with every call limited to ``seconds`` (``prove --timeout``), as crosscheck
    limits an example: SIGALRM on the main thread, else a daemon thread."""
    import functools

    if not _alarm_available():
        return _ThreadTimed(fn, seconds)

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        left = _DEADLINE[-1] - time.perf_counter() if _DEADLINE else None
        try:
            with _time_limit(seconds, left):
                return fn(*args, **kwargs)
        finally:
            _rearm_budget()

    return call


def _prove_one(task: ProveTask) -> tuple[str, Any, str, float]:
    """Run one registered check, ``(name, profile, seed, --with replacements, options)`` ->
    ``(name, BoundCheck or None, error, seconds)``: a module-level function, so that
    ``prove --jobs`` / ``--scheduler`` can ship it to worker processes.  Every driver derives
    its randomness from the profile's seed, so where it runs does not change its result."""
    from proofs_numeric import ProveProfile, all_theorems
    from proofs_numeric._registry import Declared, declaring, substituted, widened

    name, profile_name, seed, replacements, options = task
    entry = next(e for e in all_theorems() if e.name == name)
    profile = ProveProfile.named(profile_name, seed=seed)
    start = time.perf_counter()
    result: Any
    budget = options.check_budget
    try:
        table = _prove_replacements(replacements, options)
        with (
            single_threaded_blas(),
            declaring(Declared(options.precision, options.tolerance)),
            substituted(table) as substitution,
        ):
            if budget is not None and _alarm_available():
                _DEADLINE.append(start + budget)
                try:
                    with _time_limit(None, budget):
                        result = widened(entry.driver(profile))
                finally:
                    _DEADLINE.pop()
            else:
                result = widened(entry.driver(profile))
        error = ""
        expected = set(entry.algorithms) & set(replacements)
        if replacements and not expected & substitution.used_names():
            result = None
            error = (
                f"check did not call {', '.join(sorted(expected))} through the registry "
                "(proofs_numeric.impl); it cannot test the given implementation"
            )
    except BudgetExhausted:
        result = None
        error = (
            f"incomplete: the check budget of {budget:g} s ran out (--check-budget) before "
            "the check finished"
        )
    except MissingHyper as exc:
        result = None
        error = f"skipped: {exc}"
    except CallTimeout as exc:
        result = None
        error = f"timeout: {exc} (--timeout {options.timeout:g})"
    except Exception as exc:  # reported as an error row; the run fails
        result = None
        error = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return name, result, error, time.perf_counter() - start


def _cmd_prove(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from proofs_numeric import BoundCheck, ProveProfile, all_theorems
    from proofs_numeric._registry import import_errors

    profile = ProveProfile.named(args.profile, seed=args.seed)
    if not all_theorems(args.only):
        print(f"--only: no theorem checks registered for family {args.only!r}", file=err)
        return 2
    try:
        replacements = _parse_with(args.with_)
    except ValueError as exc:
        print(f"verifiedref prove: {exc}", file=err)
        return 2
    exercised = {a for e in all_theorems(args.only) for a in e.algorithms}
    unknown = sorted(set(replacements) - exercised)
    if unknown:
        print(
            f"verifiedref prove: --with: no theorem check exercises {', '.join(unknown)} "
            "(the ALGORITHM is a module:function shown by 'verifiedref list')",
            file=err,
        )
        return 2
    for algorithm, target in replacements.items():
        try:
            _parse_hyper(args.hyper, resolve_target(target, option=f"--with {algorithm}"), target)
        except ValueError as exc:  # TargetError included
            print(f"verifiedref prove: {exc}", file=err)
            return 2
    if args.hyper and not replacements:
        print(
            "verifiedref prove: --hyper applies to the --with implementations; none given", file=err
        )
        return 2
    try:
        options = ProveOptions(
            precision=args.precision,
            tolerance=args.tolerance,
            hyper=tuple(_parse_hyper(args.hyper, None, "").items()),
            timeout=args.timeout,
            check_budget=resolve_check_budget(args.check_budget, args.profile),
        )
        if args.tolerance is not None and not (
            math.isfinite(args.tolerance) and args.tolerance > 0
        ):
            raise ValueError(f"--tolerance: expected a finite number > 0, got {args.tolerance!r}")
        if args.timeout is not None and not (math.isfinite(args.timeout) and args.timeout > 0):
            raise ValueError(f"--timeout: expected seconds > 0, got {args.timeout!r}")
    except ValueError as exc:
        print(f"verifiedref prove: {exc}", file=err)
        return 2
    entries = all_theorems(args.only, profile=profile.name)
    skipped = [e.name for e in all_theorems(args.only) if profile.name not in e.profiles]
    not_exercising: list[str] = []
    if replacements:
        not_exercising = [e.name for e in entries if not set(e.algorithms) & set(replacements)]
        entries = tuple(e for e in entries if set(e.algorithms) & set(replacements))
        for algorithm, target in replacements.items():
            print(f"with {algorithm} = {target}", file=out)
    declared = [
        f"precision {options.precision}" if options.precision != "float64" else "",
        f"tolerance {options.tolerance:g}" if options.tolerance is not None else "",
        f"hyper {', '.join(args.hyper)}" if args.hyper else "",
        f"timeout {options.timeout:g}s per call" if options.timeout else "",
        f"check budget {options.check_budget:g}s" if options.check_budget else "",
    ]
    if any(declared):
        print("declared: " + "; ".join(d for d in declared if d), file=out)
    try:
        executor = Executor(jobs=args.jobs, scheduler=args.scheduler)
    except ValueError as exc:
        print(f"verifiedref prove: --{exc}", file=err)
        return 2
    tasks = [(entry.name, profile.name, profile.seed, replacements, options) for entry in entries]
    where = f"{describe_executor(executor)}; {blas_note()}"
    finished: dict[int, tuple[str, BoundCheck | None, str, float]] = {}

    def arrived(index: int, outcome: tuple[str, BoundCheck | None, str, float]) -> None:
        """One line per finished check, whatever runs it; --json rewritten with it."""
        finished[index] = outcome
        name, result, _error, seconds = outcome
        verdict = "ERROR" if result is None else result.verdict
        print(
            f"[{len(finished)}/{len(tasks)}] {name} {verdict} ({seconds:.1f}s)",
            file=err,
            flush=True,
        )
        if args.json:
            done = [finished[i] for i in sorted(finished)]
            _write_prove_json(
                Path(args.json), profile.name, profile.seed, done, where, planned=len(tasks)
            )

    print(f"running {len(tasks)} checks: {describe_executor(executor)}", file=err)
    stopped = ""
    try:
        map_ordered(_prove_one, tasks, executor, on_result=arrived)
    except ValueError as exc:
        print(f"verifiedref prove: {exc}", file=err)
        return 2
    except KeyboardInterrupt:
        stopped = "interrupted"
    except Exception as exc:  # a worker died: report what finished, then the crash
        stopped = f"stopped by {type(exc).__name__}: {exc}"
    outcomes = [finished[i] for i in sorted(finished)]
    if stopped:
        print(
            f"verifiedref prove: {stopped}; {len(outcomes)} of {len(tasks)} checks finished "
            "(their table follows)",
            file=err,
        )
    else:
        for module, error in import_errors().items():
            outcomes.append((module, None, f"import failed: {error}", 0.0))

    rows = []
    failed = 0
    long_errors: list[tuple[str, str]] = []
    for name, result, error, seconds in outcomes:
        if result is None:
            failed += 1
            if len(error) > _ERROR_CELL or "\n" in error:  # printed in full below the table
                long_errors.append((name, error))
                error = f"in full below [{len(long_errors)}]"
            rows.append([name, "-", error, "-", "-", "ERROR", f"{seconds:.1f}s"])
            continue
        failed += not result.holds
        allowance = f" + {result.atol:g}" if result.atol > 0 else ""
        rows.append(
            [
                name,
                f"{result.paper}, {result.theorem}",
                _fmt(result.measured),
                f"{result.sense} {_fmt(result.bound)}{allowance}",
                _fmt(result.ratio),
                result.verdict,
                f"{seconds:.1f}s",
            ]
        )
    headers = ["check", "paper", "measured", "bound", "ratio", "verdict", "time"]
    table = (
        _table(headers, rows)
        if args.wide
        else _wrapped_table(
            headers, rows, args.width, fixed={len(headers) - 1: 7}, breakable=frozenset({1, 2})
        )
    )
    print(table, file=out)
    if long_errors:
        print("\nerrors:", file=out)
        for k, (name, error) in enumerate(long_errors, 1):
            print(f"[{k}] {name}: {error}", file=out)
    print(
        f"\n{len(outcomes) - failed} of {len(outcomes)} theorem checks hold "
        f"(profile {profile.name}, seed {profile.seed})",
        file=out,
    )
    notes = []
    if skipped:
        notes.append(f"not run in profile {profile.name} (full only): {', '.join(skipped)}")
    if not_exercising:
        notes.append(
            f"not run ({len(not_exercising)} checks do not exercise "
            f"{', '.join(sorted(replacements))})"
        )
    for note in notes:
        print(
            note
            if args.wide
            else textwrap.fill(note, args.width, subsequent_indent="    ", break_on_hyphens=False),
            file=out,
        )
    if args.report:
        _write_report(Path(args.report), profile.name, profile.seed, outcomes, where)
        print(f"report written to {args.report}", file=out)
    if args.json:
        _write_prove_json(
            Path(args.json), profile.name, profile.seed, outcomes, where, planned=len(tasks)
        )
        print(f"results written to {args.json}", file=out)
    if stopped:
        return 130 if stopped == "interrupted" else 2
    return 1 if failed else 0


def _exact(value: Any) -> Any:
    """A float as JSON keeps it (repr round-trips every bit); nan and inf become strings."""
    if isinstance(value, float | np.floating):
        number = float(value)
        return number if math.isfinite(number) else str(number)
    return value


def _write_prove_json(
    path: Path,
    profile: str,
    seed: int,
    outcomes: Sequence[tuple[str, Any, str, float]],
    where: str,
    *,
    planned: int | None = None,
) -> None:
    """``prove --json``: every row with its numbers to the last bit, for CI and for diffing runs.

    Written again as each check finishes, so an interrupted run keeps what finished:
    ``complete`` says whether all ``planned`` checks are in.
    """
    rows = []
    for name, result, error, seconds in outcomes:
        row: dict[str, Any] = {"check": name, "seconds": round(seconds, 3), "error": error}
        if result is not None:
            row |= {
                "paper": result.paper,
                "theorem": result.theorem,
                "claim": result.claim,
                "measured": _exact(result.measured),
                "bound": _exact(result.bound),
                "sense": result.sense,
                "rtol": _exact(result.rtol),
                "atol": _exact(result.atol),
                "ratio": _exact(result.ratio),
                "tightest": _exact(result.tightest),
                "subchecks": result.subchecks,
                "degenerate": result.degenerate,
                "holds": bool(result.holds),
                "verdict": result.verdict,
            }
        else:
            row |= {"holds": False, "verdict": "ERROR"}
        rows.append(row)
    document = {
        "profile": profile,
        "seed": seed,
        "ran": where,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "checks": rows,
        "hold": sum(row["holds"] for row in rows),
        "total": len(rows),
        "complete": planned is None or len(rows) >= planned,
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def _write_report(
    path: Path,
    profile: str,
    seed: int,
    outcomes: Sequence[tuple[str, Any, str, float]],
    where: str = "",
) -> None:
    plots = path.parent / f"{path.stem}_plots"
    lines = [
        "# verifiedref theorem checks",
        "",
        f"- date: {_dt.datetime.now(_dt.UTC).isoformat(timespec='seconds')}",
        f"- profile: {profile}, seed: {seed}",
        f"- ran: {where or 'serial'}",
        f"- python {platform.python_version()}, numpy {np.__version__}",
        f"- plots: {_plots_note()}",
        "",
        "evidence: 'sanity' = calls no library code (not evidence); 'no teeth' = no known wrong "
        "implementation fails it; else the number of mutants it is known to catch.",
        "",
        "ratio: of the reported (worst) sub-check; tightest: the tightest ratio among the "
        "sub-checks whose bound is not 0; degenerate: sub-checks with bound 0 (ratio 1 or inf by "
        "convention) out of all.",
        "",
        "slack (ref): bound/measured of the tightest sub-check on the reference, recorded in "
        "proofs_numeric/_slack.json ('*': the reason it exceeds 10 is recorded there).",
        "",
        "| check | evidence | paper, anchor | claim | measured | bound | ratio | tightest | "
        "degenerate | slack (ref) | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    from proofs_numeric import all_theorems
    from proofs_numeric._registry import teeth
    from proofs_numeric._slack import slack_cell, slack_record

    record = teeth()
    slacks = slack_record()
    entries = {e.name: e for e in all_theorems()}
    details = []
    for name, result, error, seconds in outcomes:
        evidence = _evidence(entries[name], record) if name in entries else "-"
        if result is None:
            lines.append(f"| {name} | {evidence} | | | | | | | | | ERROR: {error} |")
            continue
        lines.append(
            f"| {name} | {evidence} | {result.paper}, {result.theorem} | {result.claim} | "
            f"{_fmt(result.measured)} | "
            f"{result.sense} {_fmt(result.bound)} (rtol {result.rtol:g}, atol {result.atol:g}) | "
            f"{_fmt(result.ratio)} | {_fmt(getattr(result, 'tightest', math.nan))} | "
            f"{getattr(result, 'degenerate', 0)}/{getattr(result, 'subchecks', 1)} | "
            f"{slack_cell(slacks, name)} | {result.verdict} |"
        )
        params = ", ".join(f"{k}={v}" for k, v in result.params.items())
        details.append(
            f"### {name}\n\n{result.claim}\n\nparameters: {params or '-'}; time {seconds:.2f}s\n"
        )
        if result.series:
            image = _plot(name, result, plots)
            if image is not None:
                details.append(f"![{name}]({plots.name}/{image.name})\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([*lines, "", "## Details", "", *details]) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------------------- crosscheck
def _suite_named(name: str) -> Any:
    """The registered suite ``name``; ValueError with the closest names otherwise."""
    try:
        return get_suite(name)
    except ValueError:
        known = all_suites()
        raise ValueError(
            f"suite: no suite named {name!r}{closest(name, known)}; 'verifiedref list' shows "
            f"all {len(known)}"
        ) from None


CrossTask = tuple[dict[str, Any], str]


def _crosscheck_task(task: CrossTask) -> tuple[int, str, str, list[dict[str, Any]]]:
    """One suite of a ``crosscheck`` run in a worker: ``(arguments, suite)`` ->
    ``(exit code, stdout, stderr, [report as data])``."""
    options, suite = task
    args = argparse.Namespace(**{**options, "suite": suite})
    out, err = io.StringIO(), io.StringIO()
    records: list[dict[str, Any]] = []
    with single_threaded_blas():
        code = _crosscheck_suite(args, out, err, records)
    return code, out.getvalue(), err.getvalue(), records


def _cmd_crosscheck(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    suites = [s.strip() for s in args.suite.split(",") if s.strip()]
    if not suites:
        print("verifiedref crosscheck: suite: expected a suite name or a comma list", file=err)
        return 2
    try:
        executor = Executor(jobs=args.jobs, scheduler=args.scheduler)
    except ValueError as exc:
        print(f"verifiedref crosscheck: --{exc}", file=err)
        return 2
    records: list[dict[str, Any]] = []
    codes: list[int] = []
    if len(suites) == 1 or (executor.jobs == 1 and executor.scheduler is None):
        for suite in suites:
            with single_threaded_blas():
                codes.append(
                    _crosscheck_suite(
                        argparse.Namespace(**{**vars(args), "suite": suite}), out, err, records
                    )
                )
    else:
        options = {k: v for k, v in vars(args).items() if k not in ("func", "suite")}
        print(f"running {len(suites)} suites: {describe_executor(executor)}", file=err)

        def arrived(index: int, result: tuple[int, str, str, list[dict[str, Any]]]) -> None:
            err.write(result[2])  # the suite's per-check lines, as soon as it finishes
            err.flush()

        try:
            results = map_ordered(
                _crosscheck_task, [(options, s) for s in suites], executor, on_result=arrived
            )
        except ValueError as exc:
            print(f"verifiedref crosscheck: {exc}", file=err)
            return 2
        for code, text, _errors, recs in results:
            out.write(text)
            codes.append(code)
            records.extend(recs)
    if len(suites) > 1:
        print(
            f"{sum(c == 0 for c in codes)} of {len(suites)} suites pass "
            f"({describe_executor(executor)})",
            file=out,
        )
    if args.json:
        payload: dict[str, Any] = (
            records[0] if len(suites) == 1 and records else {"suites": records}
        )
        payload["where"] = describe_executor(executor)
        Path(args.json).write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n")
    return 2 if 2 in codes else (1 if 1 in codes else 0)


def _inputs_folder(args: argparse.Namespace) -> Path | None:
    """Beside ``--json PATH``: ``PATH_inputs/`` for failing inputs too large to print; without
    ``--json`` a temporary folder (never the current one)."""
    if not args.json:
        return None
    path = Path(args.json)
    return path.parent / f"{path.stem}_inputs"


def _parse_hyper(items: Sequence[str], target: Any, name: str) -> dict[str, Any]:
    """``--hyper NAME=VALUE`` items as keywords (values read as Python literals, else text);
    ValueError for a malformed item or a keyword ``target`` does not take."""
    overrides: dict[str, Any] = {}
    accepted = _keywords_of(target)
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


def _keywords_of(target: Any) -> set[str] | None:
    """The keyword names ``target`` (a class or function) accepts; ``None`` when any is."""
    import inspect

    try:
        params = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _crosscheck_suite(
    args: argparse.Namespace, out: TextIO, err: TextIO, records: list[dict[str, Any]]
) -> int:
    try:
        suite = _suite_named(args.suite)
        target: Any = resolve_target(args.target)
    except ValueError as exc:
        print(f"verifiedref crosscheck: {exc}", file=err)
        return 2
    if suite.name == "bad_input":
        if not args.like:
            print(
                "verifiedref crosscheck bad_input: --like CASE is required; cases: "
                + ", ".join(c.name for c in bad_input_cases()),
                file=err,
            )
            return 2
        cases = {c.name: c for c in bad_input_cases()}
        if args.like not in cases:
            print(
                f"--like: expected one of {', '.join(sorted(cases))}, got {args.like!r}", file=err
            )
            return 2
        target = cases[args.like].with_fn(target, name=args.target)
    if suite.name == "hard_input":
        from properties.hard_input import hard_input_cases

        hard = {c.name: c for c in hard_input_cases()}
        if args.like not in hard:
            print(
                "verifiedref crosscheck hard_input: --like CASE is required; expected one of "
                f"{', '.join(sorted(hard))}, got {args.like!r}",
                file=err,
            )
            return 2
        target = hard[args.like].with_fn(target, name=args.target)
    if args.hyper:
        from properties.adapters import as_torch_optimizer, is_torch_optimizer, with_hyper

        if not callable(target):
            print(
                f"verifiedref crosscheck: --hyper applies to callable targets; {args.target} "
                f"is a {type(target).__name__}",
                file=err,
            )
            return 2
        try:
            overrides = _parse_hyper(args.hyper, target, args.target)
        except ValueError as exc:
            print(f"verifiedref crosscheck: {exc}", file=err)
            return 2
        torch_target = suite.name.startswith("optimizers.") and is_torch_optimizer(target)
        if torch_target and suite.name == "optimizers.sam":  # (params, base_optimizer, **hyper)
            from properties.adapters import as_torch_sam

            target = as_torch_sam(target, overrides=overrides)
        elif torch_target:
            target = as_torch_optimizer(target, overrides=overrides)
        else:  # any other factory or function: the keywords are fixed on every call
            target = with_hyper(target, overrides)
    if args.variant is not None and not suite.variants:
        print(
            f"verifiedref crosscheck: --variant: suite {suite.name} has no variants (one "
            "convention only; 'verifiedref describe SUITE' lists a suite's variants)",
            file=err,
        )
        return 2
    problem = call_shape_problem(target, suite.protocol)
    if problem:
        print(
            f"verifiedref crosscheck: {args.target} cannot be called as suite {suite.name} calls "
            f"its target: {problem} (see 'verifiedref describe {suite.name}')",
            file=err,
        )
        return 2
    declared_raises = _resolve_raises(args.raises, err)
    if declared_raises is None:
        return 2
    expected: dict[str, str] = {}
    for item in args.expect_fail:
        name, _, reason = item.partition("=")
        expected[name] = reason or "expected failure"
    try:
        declared: dict[str, Any] = dict.fromkeys(args.capability, True)
        if args.tolerance is not None:
            declared["tolerance"] = args.tolerance
        caps = Capabilities(
            **declared,
            variant=args.variant,
            precision=args.precision,
            domain=args.domain,
            min_size=args.min_size,
            max_size=args.max_size,
            returns=frozenset(args.returns.split(",")) if args.returns else None,
            raises=declared_raises,
        )
        domain = caps.domain_of(suite)
        sizes = ""
        if caps.min_size is not None or caps.max_size is not None:
            sizes = f", sizes {caps.min_size or '-'}..{caps.max_size or '-'}"
        module_name = args.target.split(":")[0]
        version = getattr(sys.modules.get(module_name.split(".")[0]), "__version__", "unknown")
        header = (
            f"target {args.target} (version {version}), suite {suite.name}, profile {args.profile}, "
            f"tolerance {caps.tolerance:g}{'' if caps.tolerance_declared else ' (default)'}, "
            f"precision {caps.precision} (u = {caps.unit_roundoff:.3g}), timeout {args.timeout:g}s, "
            f"check budget {_budget_text(args.check_budget, args.profile)}, "
            f"capabilities {sorted(caps.flags()) or 'none'}"
            + (f", rejections also {[e.__name__ for e in caps.raises]}" if caps.raises else "")
            + (f", variant {caps.variant_of(suite)}" if suite.variants else "")
            + (f", domain {domain}" if domain else "")
            + (f", returns {','.join(sorted(caps.returns))}" if caps.returns is not None else "")
            + sizes
        )
        wrap = not getattr(args, "wide", False)
        width = terminal_width()
        print(
            textwrap.fill(header, width, subsequent_indent="  ", break_on_hyphens=False)
            if wrap
            else header,
            file=out,
        )
        report = run_suite(
            target,
            suite,
            capabilities=caps,
            skip=args.skip,
            expected_failures=expected,
            profile=args.profile,
            strict=not args.non_strict,
            target=args.target,
            timeout=args.timeout,
            progress=err,
            check_budget=args.check_budget,
            inputs=_inputs_folder(args),
        )
    except (ValueError, TypeError) as exc:
        print(f"verifiedref crosscheck: {exc}", file=err)
        return 2
    text = report.format()
    print(text if getattr(args, "wide", False) else fit_report(text, terminal_width()), file=out)
    records.append(report.to_dict())
    missing = sorted(
        {r.message for r in report.results if r.message.startswith("skipped: needs the optional")}
    )
    if missing:  # not judged: a usage problem, whatever the other checks said
        print(
            f"verifiedref crosscheck: {args.target} was not judged by every check: "
            + "; ".join(m.removeprefix("skipped: ") for m in missing),
            file=err,
        )
        return 2
    return 0 if report.ok else 1


# ------------------------------------------------------------------------------------ describe
def _cmd_describe(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import inspect

    try:
        suite = _suite_named(args.suite)
    except ValueError as exc:
        print(f"verifiedref describe: {exc}", file=err)
        return 2
    width = terminal_width()

    def fill(text: str, indent: str = "", hanging: str = "    ") -> str:
        return textwrap.fill(
            " ".join(text.split()),
            width,
            initial_indent=indent,
            subsequent_indent=hanging,
            break_on_hyphens=False,
        )

    print(f"suite {suite.name}", file=out)
    print(fill(suite.description, "  ", "  "), file=out)
    protocol = suite.protocol
    call = protocol.__dict__.get("__call__")
    signature = ""
    if call is not None:
        try:
            signature = str(inspect.signature(call)).replace("(self, ", "(").replace("(self)", "()")
        except (TypeError, ValueError):
            signature = ""
    signature = signature.replace("'", "")
    print(file=out)
    print(fill(f"protocol {protocol.__module__}.{protocol.__qualname__}{signature}"), file=out)
    doc = inspect.getdoc(protocol) or ""
    for paragraph in doc.split("\n\n"):
        print(fill(paragraph, "  ", "  "), file=out)
    print(f"\nchecks ({len(suite.checks)})", file=out)
    for c in suite.checks:
        needs = f"  requires {', '.join(sorted(c.requires))}" if c.requires else ""
        where = f"  domains {', '.join(sorted(c.domains))}" if c.domains else ""
        print(fill(f"{c.name}  [{c.anchor}]{needs}{where}", "  ", "      "), file=out)
        summary = (inspect.getdoc(c.fn) or "").split("\n\n")[0]
        if summary:
            print(fill(summary, "      ", "      "), file=out)
    if suite.variants:
        print("\nvariants (--variant NAME; the first is the default)", file=out)
        for name, meaning in suite.variants.items():
            print(
                textwrap.fill(
                    f"{name}: {meaning}", width, initial_indent="  ", subsequent_indent="      "
                ),
                file=out,
            )
    if not suite.domains:
        print(
            "\ndomains: one, every input the checks draw (this suite declares no --domain)",
            file=out,
        )
    if suite.domains:
        print("\ndomains (--domain NAME; the first is the default)", file=out)
        for name, meaning in suite.domains.items():
            print(
                textwrap.fill(
                    f"{name}: {meaning}", width, initial_indent="  ", subsequent_indent="      "
                ),
                file=out,
            )
    notes = [
        "sizes (--min-size N, --max-size N): narrow the problem sizes the checks draw",
        "capabilities (--capability FLAG): " + ", ".join(Capabilities.flag_names()),
        "tolerance (--tolerance, default 1e-6): promised accuracy relative to the instance "
        "scale; checks with a rounding-error model c*u*scale allow the larger of the two",
        "precision (--precision): "
        + ", ".join(f"{k} (u = {v:.3g})" for k, v in PRECISIONS.items()),
        "timeout (--timeout SECONDS, default 60): per example; a timeout fails the check unshrunk",
    ]
    if suite.name == "optimizers.sam":
        notes.append(
            "torch: a SAM wrapper class in the davda54/sam style is accepted (e.g. "
            "pytorch_optimizer:SAM): make(params, torch.optim.SGD, rho=, lr=, momentum=, "
            "weight_decay=), first_step/second_step or step(closure), the adapter computing the "
            "first gradient (properties.adapters.as_torch_sam); --hyper NAME=VALUE fixes a "
            "wrapper keyword (e.g. adaptive=False)"
        )
    elif suite.name.startswith("optimizers."):
        notes.append(
            "torch: a torch.optim.Optimizer class or factory (params, **hyper) is accepted; suite "
            "names map to torch keywords by properties.adapters.TORCH_HYPER_NAMES; --hyper "
            "NAME=VALUE fixes a torch keyword"
        )
    from properties.adapters import TORCH_MODULE_CALLS

    if suite.name in TORCH_MODULE_CALLS:
        notes.append(
            "torch: a torch.nn.Module class (or instance) is accepted: "
            + TORCH_MODULE_CALLS[suite.name]
            + " (float64 CPU tensors in, numpy out; properties.adapters.as_torch_module)"
        )
    print(file=out)
    for note in notes:
        print(textwrap.fill(note, width, subsequent_indent="    "), file=out)
    print(f"\nrun: verifiedref crosscheck {suite.name} yourpkg.module:callable", file=out)
    return 0


# ------------------------------------------------------------------------------------- parsing
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="verifiedref",
        description="Reference algorithms of 19 ICML 2026 papers: conformance suites and theorem checks.",
    )
    from verifiedref._version import distribution_version

    parser.add_argument(
        "--version", action="version", version=f"verifiedref {distribution_version()}"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    listing = sub.add_parser(
        "list", help="every algorithm with its module, suites and theorem checks"
    )
    listing.add_argument(
        "--markdown", action="store_true", help="print the README's algorithm table"
    )
    listing.add_argument(
        "--wide", action="store_true", help="one line per row, however long (no wrapping)"
    )
    listing.add_argument(
        "--json", action="store_true", help="algorithms, suites and theorem checks as JSON"
    )
    listing.add_argument(
        "--checks",
        action="store_true",
        help="only the theorem checks, with their evidence: mutants caught, 'no teeth', 'sanity'",
    )
    listing.add_argument(
        "--width",
        type=int,
        default=None,
        metavar="COLUMNS",
        help="wrap the tables to this many columns (default: the terminal's, else 100)",
    )

    prove = sub.add_parser("prove", help="run the registered theorem checks")
    prove.add_argument("--only", metavar="FAMILY", default=None, help="run one family only")
    prove.add_argument("--profile", choices=["quick", "full"], default="quick")
    prove.add_argument("--seed", type=int, default=20260)
    prove.add_argument(
        "--wide", action="store_true", help="one line per row, however long (no wrapping)"
    )
    prove.add_argument(
        "--width",
        type=int,
        default=None,
        metavar="COLUMNS",
        help="wrap the table to this many columns (default: the terminal's, else 100)",
    )
    _add_executor_arguments(prove)
    prove.add_argument(
        "--with",
        dest="with_",
        action="append",
        default=[],
        metavar="ALGORITHM=module:callable",
        help="run the checks that exercise ALGORITHM (a module:function from 'verifiedref list') "
        "with your callable in its place; repeatable; checks that do not exercise it are not run",
    )
    prove.add_argument(
        "--precision",
        choices=tuple(PRECISIONS),
        default="float64",
        help="working precision of the --with implementations: every compared number is "
        "allowed 64 u relative error (float32: 3.8e-6, bfloat16: 0.25), checks' own margins "
        "included; float64 changes nothing",
    )
    prove.add_argument(
        "--tolerance",
        type=float,
        default=None,
        help="promised relative accuracy of the --with implementations: every compared number "
        "is allowed this much relative error if it is more than the check's own budget",
    )
    prove.add_argument(
        "--hyper",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a keyword passed to the --with implementations on every call, whatever the "
        "check asks (torch optimizers take torch names, e.g. nesterov=False)",
    )
    prove.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="seconds one call of a --with implementation may take; a timeout is an ERROR row "
        "(default: no limit)",
    )
    _add_budget_argument(prove, prove=True)
    prove.add_argument(
        "--report",
        metavar="PATH",
        default="",
        help="also write a Markdown report (plots beside it, in PATH_plots/, with matplotlib)",
    )
    prove.add_argument(
        "--json",
        metavar="PATH",
        default=None,
        help="also write every result as JSON, numbers to the last bit (for CI and diffs)",
    )

    describe = sub.add_parser(
        "describe", help="a suite's call shape, conventions, checks, variants and tolerances"
    )
    describe.add_argument("suite", help="suite name, e.g. optimizers.s_adam")

    cross = sub.add_parser("crosscheck", help="run a conformance suite against your implementation")
    cross.add_argument(
        "suite",
        help="suite name, e.g. games.solver (see 'verifiedref list'), or a comma list of suites",
    )
    cross.add_argument("target", help="package.module:callable (or package.module.callable)")
    cross.add_argument(
        "--json",
        metavar="PATH",
        default=None,
        help="also write the verdicts as JSON (per check: status, anchor, time, bounds, message, "
        "re-run snippet), for CI",
    )
    _add_executor_arguments(cross)
    cross.add_argument("--profile", choices=PROFILES, default="conformance")
    cross.add_argument("--skip", action="append", default=[], metavar="CHECK")
    cross.add_argument("--expect-fail", action="append", default=[], metavar="CHECK=REASON")
    cross.add_argument(
        "--capability", action="append", default=[], choices=Capabilities.flag_names()
    )
    cross.add_argument(
        "--tolerance",
        type=float,
        default=None,
        help="promised accuracy in the suite's measure, relative to the instance scale (default "
        "1e-6); checks with a rounding-error model allow the larger of the model and this",
    )
    cross.add_argument(
        "--precision",
        choices=tuple(PRECISIONS),
        default="float64",
        help="working precision of the target: scales the rounding-error models of the checks "
        "that state one (unit roundoff 2^-53, 2^-24, 2^-8)",
    )
    cross.add_argument(
        "--variant",
        default=None,
        metavar="NAME",
        help="the suite's convention the target follows, e.g. optimizers.s_adam: "
        "eps_before_correction (default) or eps_after_correction (torch.optim.Adam)",
    )
    cross.add_argument(
        "--domain",
        default=None,
        metavar="NAME",
        help="the input domain the target is documented for (see 'verifiedref describe "
        "SUITE'), e.g. games.solver: all (default) or generic (non-degenerate, sides >= 2); "
        "checks draw only such inputs",
    )
    cross.add_argument(
        "--min-size",
        type=int,
        default=None,
        metavar="N",
        help="smallest problem size drawn (game sides, TSP cities, ...)",
    )
    cross.add_argument(
        "--max-size",
        type=int,
        default=None,
        metavar="N",
        help="largest problem size drawn (game sides, TSP cities, ...)",
    )
    cross.add_argument(
        "--returns",
        default=None,
        metavar="BLOCKS",
        help="a partial output: the comma list of blocks the target returns (qp_layers: of Q, q, "
        "G, h, A, b); the others are not judged and checks on them alone are skipped, named",
    )
    cross.add_argument(
        "--hyper",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a keyword passed to the target whatever the suite asks, on any callable target "
        "(a factory such as optax.adam: learning_rate=0.1; torch optimizers take torch names, "
        "e.g. nesterov=False, betas=(0.9,0.99), suite names being mapped by "
        "properties.adapters.TORCH_HYPER_NAMES)",
    )
    cross.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help="seconds one example of a check may take; a timeout fails that check, unshrunk "
        f"(default {DEFAULT_TIMEOUT:g})",
    )
    _add_budget_argument(cross)
    cross.add_argument(
        "--raises",
        action="append",
        default=[],
        metavar="MODULE:CLASS",
        help="an exception class of the target that counts as rejecting bad input, beside "
        "ValueError and TypeError, in every bad-input check and in bad_input (repeatable), "
        "e.g. qpsolvers.exceptions:ProblemError",
    )
    cross.add_argument(
        "--like",
        metavar="CASE",
        default=None,
        help="bad_input and hard_input only: the registered function whose signature the target shares",
    )
    cross.add_argument(
        "--non-strict", action="store_true", help="an unexpected pass is not a failure"
    )
    cross.add_argument(
        "--wide", action="store_true", help="check lines as long as they are (no fitting)"
    )
    return parser


def main(
    argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Entry point of the ``verifiedref`` console script; returns the exit code."""
    stdout = out if out is not None else sys.stdout
    stderr = err if err is not None else sys.stderr
    try:
        args = _parser().parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # argparse: usage error (2) or --help (0)
        return int(exc.code) if isinstance(exc.code, int) else 2
    if getattr(args, "width", 0) is None:
        args.width = terminal_width()
    if args.command == "list":
        return _cmd_list(args, stdout, stderr)
    if args.command == "prove":
        return _cmd_prove(args, stdout, stderr)
    if args.command == "describe":
        return _cmd_describe(args, stdout, stderr)
    return _cmd_crosscheck(args, stdout, stderr)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
