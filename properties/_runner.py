"""The suite machinery's front: :func:`run_suite` and the names checks and callers use.

A *suite* is a typed ``Protocol`` for the implementation plus a tuple of named
:class:`Check` objects.  :func:`run_suite` runs every check under Hypothesis
(the ``conformance`` profile by default: derandomised, no database, so the
verdict is the same on every run) and returns a :class:`SuiteReport`.  It does
not import pytest.

A check is a function ``check_<property>(impl, data, caps)`` made a :class:`Check` by the
:func:`~properties._suite.check` decorator, which records its name and anchor: ``impl`` is the
adapted implementation, ``data`` Hypothesis' draw object (label every draw), and ``caps`` the
:class:`Capabilities` the user declared (flags and the tolerance).  Checks signal failure
through :func:`expect` and friends, which raise
:class:`CheckFailure` carrying the measured and the allowed quantity.

The parts live in their own modules: the records in :mod:`properties._suite`, the assertion
helpers in :mod:`properties._expect`, timeouts and check budgets in :mod:`properties._limits`
(read there how a timeout abandons a call), one check under Hypothesis in
:mod:`properties._run_check`, and the report in :mod:`properties._report`; this module runs a
whole suite and re-exports the names the suites and the command line use.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from properties._expect import (
    bounds_seen,
    declare_rejections,
    declared_rejections,
    expect,
    expect_close,
    expect_le,
    expect_raises,
    reset_bounds,
)
from properties._extras import MissingPackage
from properties._limits import (
    CHECK_BUDGET_ENV,
    DEFAULT_CHECK_BUDGETS,
    DEFAULT_TIMEOUT,
    BudgetExhausted,
    CallTimeout,
    ThreadTimed,
    alarm_available,
    resolve_check_budget,
    time_limit,
)
from properties._registry import get_suite
from properties._report import CheckResult, Status, SuiteReport
from properties._run_check import SUITE_PROFILE_ENV, describe_target, run_check, settings_for
from properties._snippets import InputStore, format_snippet, inputs_at
from properties._suite import Capabilities, Check, CheckFailure, Suite

__all__ = [
    "CHECK_BUDGET_ENV",
    "DEFAULT_CHECK_BUDGETS",
    "DEFAULT_TIMEOUT",
    "SUITE_PROFILE_ENV",
    "BudgetExhausted",
    "CallTimeout",
    "Capabilities",
    "Check",
    "CheckFailure",
    "CheckResult",
    "Suite",
    "SuiteReport",
    "ThreadTimed",
    "alarm_available",
    "declared_rejections",
    "describe_target",
    "expect",
    "expect_close",
    "expect_le",
    "expect_raises",
    "format_snippet",
    "resolve_check_budget",
    "run_suite",
    "time_limit",
]


def run_suite(
    impl: object,
    suite: Suite[Any] | str,
    *,
    capabilities: Capabilities | None = None,
    skip: Sequence[str] = (),
    expected_failures: Mapping[str, str] | None = None,
    profile: str = "conformance",
    strict: bool = True,
    target: str | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    progress: TextIO | None = None,
    check_budget: float | str | None = "auto",
    inputs: str | os.PathLike[str] | None = None,
) -> SuiteReport:
    """Run every check of ``suite`` against ``impl`` and return the report (no pytest needed).

    Args:
        impl: the implementation (for ``games.solver``: any callable ``fn(A) -> (x, y)``).
        suite: a :class:`Suite` or its registered name.
        capabilities: what ``impl`` supports; defaults to :class:`Capabilities()`.
        skip: check names not to run.
        expected_failures: check name -> reason; such a failure is ``xfailed``, a pass
            is ``xpassed`` (a failure of the run under ``strict``).
        profile: Hypothesis profile (``conformance`` gives the same verdict every run).
        strict: count unexpected passes as failures.
        target: name used in the reproduction snippet (defaults to ``module:qualname``).
        timeout: seconds one example of a check may take (``None``: no limit); a timeout
            fails that check at once, unshrunk, with the input and a re-run snippet.
        progress: where to write one line per check as it starts and ends (the CLI
            passes stderr); ``None`` writes nothing.
        check_budget: seconds each check may spend, generating and shrinking together;
            when they run out the check fails with the smallest counterexample found so far,
            labelled "not fully shrunk", or, if no example failed yet, as "incomplete" (a
            pass needs every example of the profile).  ``"auto"`` (default): the
            ``VERIFIEDREF_CHECK_BUDGET`` environment variable, else the profile's entry of
            :data:`DEFAULT_CHECK_BUDGETS`; ``None``: no budget.
        inputs: the folder where a failing input too large to print is saved (``.npy``,
            ``.json``) for the snippet to load; ``None``: a new temporary folder, made only
            when needed.  Nothing is written to the current folder.

    Returns:
        A :class:`SuiteReport`; ``report.ok`` tells whether the implementation conforms.

    Raises:
        ValueError: unknown suite, check name or profile, or a bad ``check_budget``.
        TypeError: ``check_budget`` is neither a number, ``None`` nor ``"auto"``.
    """
    the_suite = get_suite(suite) if isinstance(suite, str) else suite
    budget = resolve_check_budget(check_budget, profile)
    if timeout is not None and not (math.isfinite(timeout) and timeout > 0):
        raise ValueError(
            f"timeout: expected a finite number of seconds > 0 or None, got {timeout!r}"
        )
    caps = capabilities if capabilities is not None else Capabilities()
    caps.variant_of(the_suite)  # an undeclared variant is a usage error, before any check runs
    domain = caps.domain_of(the_suite)  # so is an undeclared domain
    xfails = dict(expected_failures or {})
    known = set(the_suite.check_names())
    for name in [*skip, *xfails]:
        if name not in known:
            raise ValueError(
                f"check name: expected one of {sorted(known)} for suite {the_suite.name}, got {name!r}"
            )
    hyp_settings = settings_for(profile)
    if inputs is not None:
        with inputs_at(InputStore(Path(inputs))):
            return run_suite(
                impl,
                the_suite,
                capabilities=caps,
                skip=skip,
                expected_failures=xfails,
                profile=profile,
                strict=strict,
                target=target,
                timeout=timeout,
                progress=progress,
                check_budget=check_budget,
            )
    label = target or describe_target(impl)
    declare_rejections(caps.raises)
    results: list[CheckResult] = []
    total = len(the_suite.checks)
    for index, check in enumerate(the_suite.checks, start=1):
        missing = check.requires - caps.flags()
        if check.name in skip:
            results.append(
                CheckResult(
                    name=check.name,
                    anchor=check.anchor,
                    status="skipped",
                    message="skipped: by request",
                )
            )
            continue
        if check.domains and domain not in check.domains:
            results.append(
                CheckResult(
                    name=check.name,
                    anchor=check.anchor,
                    status="skipped",
                    message=f"skipped: its inputs lie outside domain {domain} "
                    f"(runs in {', '.join(sorted(check.domains))})",
                )
            )
            continue
        if missing:
            results.append(
                CheckResult(
                    name=check.name,
                    anchor=check.anchor,
                    status="skipped",
                    message=f"skipped: requires {', '.join(sorted(missing))}",
                )
            )
            continue
        if caps.returns is not None and check.judges and not check.judges & caps.returns:
            results.append(
                CheckResult(
                    name=check.name,
                    anchor=check.anchor,
                    status="skipped",
                    message=f"skipped: judges {', '.join(sorted(check.judges))}, which the "
                    f"target does not return (returns {', '.join(sorted(caps.returns))})",
                )
            )
            continue
        if progress is not None:
            print(f"[{index}/{total}] {the_suite.name} {check.name} ...", file=progress, flush=True)
        start = time.perf_counter()
        reset_bounds()
        try:
            passed, message, snippet = run_check(
                the_suite, check, impl, caps, hyp_settings, label, timeout, budget
            )
        except MissingPackage as exc:
            results.append(
                CheckResult(
                    name=check.name,
                    anchor=check.anchor,
                    status="skipped",
                    message=f"skipped: {exc}",
                    seconds=time.perf_counter() - start,
                )
            )
            continue
        seconds = time.perf_counter() - start
        status: Status
        if passed is None:
            status = "skipped"
        elif check.name in xfails:
            status = "xpassed" if passed else "xfailed"
            message = (
                f"expected failure ({xfails[check.name]})"
                + ("" if not passed else ": but it passed")
                + ("\n" + message if message else "")
            )
        else:
            status = "passed" if passed else "failed"
        if progress is not None:
            print(
                f"[{index}/{total}] {the_suite.name} {check.name} {status} ({seconds:.1f}s)",
                file=progress,
                flush=True,
            )
        results.append(
            CheckResult(
                name=check.name,
                anchor=check.anchor,
                status=status,
                message=message,
                snippet=snippet,
                seconds=seconds,
                bounds=bounds_seen(),
            )
        )
    declare_rejections(())
    return SuiteReport(
        suite=the_suite.name,
        target=label,
        profile=profile,
        strict=strict,
        results=tuple(results),
        domain=domain,
    )
