"""``verifiedref prove``: run the registered theorem checks, optionally on the user's own
implementations (``--with``), and print, report or write them as JSON."""

from __future__ import annotations

import argparse
import dataclasses
import math
import signal
import textwrap
import time
import traceback
from pathlib import Path
from typing import Any, TextIO

from properties._cli.options import parse_hyper, parse_with
from properties._cli.records import write_prove_json, write_report
from properties._cli.tables import fmt, plain_table, wrapped_table
from properties._parallel import (
    Executor,
    blas_note,
    describe_executor,
    map_ordered,
    single_threaded_blas,
)
from properties._runner import (
    BudgetExhausted,
    CallTimeout,
    ThreadTimed,
    alarm_available,
    resolve_check_budget,
    time_limit,
)
from properties._suite import MissingHyper
from properties._targets import resolve_target

__all__ = ["ProveOptions", "cmd_prove", "prove_one"]


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
    if _DEADLINE and alarm_available():
        left = max(1e-3, _DEADLINE[-1] - time.perf_counter())

        def _on_alarm(signum: int, frame: Any) -> None:
            raise BudgetExhausted()

        signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, left)


def _timed_call(fn: Any, seconds: float) -> Any:
    """``fn`` with every call limited to ``seconds`` (``prove --timeout``), as crosscheck
    limits an example: SIGALRM on the main thread, else a daemon thread."""
    import functools

    if not alarm_available():
        return ThreadTimed(fn, seconds)

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        left = _DEADLINE[-1] - time.perf_counter() if _DEADLINE else None
        try:
            with time_limit(seconds, left):
                return fn(*args, **kwargs)
        finally:
            _rearm_budget()

    return call


def prove_one(task: ProveTask) -> tuple[str, Any, str, float]:
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
            if budget is not None and alarm_available():
                _DEADLINE.append(start + budget)
                try:
                    with time_limit(None, budget):
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


def cmd_prove(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from proofs_numeric import BoundCheck, ProveProfile, all_theorems
    from proofs_numeric._registry import import_errors

    profile = ProveProfile.named(args.profile, seed=args.seed)
    if not all_theorems(args.only):
        print(f"--only: no theorem checks registered for family {args.only!r}", file=err)
        return 2
    try:
        replacements = parse_with(args.with_)
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
            parse_hyper(args.hyper, resolve_target(target, option=f"--with {algorithm}"), target)
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
            hyper=tuple(parse_hyper(args.hyper, None, "").items()),
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
            write_prove_json(
                Path(args.json), profile.name, profile.seed, done, where, planned=len(tasks)
            )

    print(f"running {len(tasks)} checks: {describe_executor(executor)}", file=err)
    stopped = ""
    try:
        map_ordered(prove_one, tasks, executor, on_result=arrived)
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
                fmt(result.measured),
                f"{result.sense} {fmt(result.bound)}{allowance}",
                fmt(result.ratio),
                result.verdict,
                f"{seconds:.1f}s",
            ]
        )
    headers = ["check", "paper", "measured", "bound", "ratio", "verdict", "time"]
    table = (
        plain_table(headers, rows)
        if args.wide
        else wrapped_table(
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
        write_report(Path(args.report), profile.name, profile.seed, outcomes, where)
        print(f"report written to {args.report}", file=out)
    if args.json:
        write_prove_json(
            Path(args.json), profile.name, profile.seed, outcomes, where, planned=len(tasks)
        )
        print(f"results written to {args.json}", file=out)
    if stopped:
        return 130 if stopped == "interrupted" else 2
    return 1 if failed else 0
