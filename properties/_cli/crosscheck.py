"""``verifiedref crosscheck``: run conformance suites against the user's implementation.

Nothing here knows a suite by name: what a suite accepts beyond its protocol (registered cases
named by ``--like``, foreign targets such as ``torch.optim`` classes) is declared on the
:class:`~properties._suite.Suite` itself.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import textwrap
from pathlib import Path
from typing import Any, TextIO

from properties._cli.options import budget_text, parse_hyper, resolve_raises
from properties._output import fit_report, terminal_width
from properties._parallel import Executor, describe_executor, map_ordered, single_threaded_blas
from properties._registry import all_suites, get_suite
from properties._runner import Capabilities, run_suite
from properties._targets import call_shape_problem, closest, resolve_target

__all__ = ["cmd_crosscheck", "suite_named"]


def suite_named(name: str) -> Any:
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


def cmd_crosscheck(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
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


def _crosscheck_suite(
    args: argparse.Namespace, out: TextIO, err: TextIO, records: list[dict[str, Any]]
) -> int:
    try:
        suite = suite_named(args.suite)
        target: Any = resolve_target(args.target)
    except ValueError as exc:
        print(f"verifiedref crosscheck: {exc}", file=err)
        return 2
    if suite.cases is not None:  # a suite of registered cases: the target takes one's place
        cases = suite.cases()
        if args.like not in cases:
            print(
                f"verifiedref crosscheck {suite.name}: --like CASE is required, one of "
                f"{', '.join(sorted(cases))}; got {args.like!r}",
                file=err,
            )
            return 2
        target = cases[args.like].with_fn(target, name=args.target)
    if args.hyper:
        from properties.adapters import is_torch_optimizer, with_hyper

        if not callable(target):
            print(
                f"verifiedref crosscheck: --hyper applies to callable targets; {args.target} "
                f"is a {type(target).__name__}",
                file=err,
            )
            return 2
        try:
            overrides = parse_hyper(args.hyper, target, args.target)
        except ValueError as exc:
            print(f"verifiedref crosscheck: {exc}", file=err)
            return 2
        if suite.foreign is not None and is_torch_optimizer(target):
            target = suite.foreign(target, overrides=overrides)
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
    declared_raises = resolve_raises(args.raises, err)
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
            f"check budget {budget_text(args.check_budget, args.profile)}, "
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
