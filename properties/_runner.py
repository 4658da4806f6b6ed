"""The suite machinery: checks, capabilities, assertion helpers and ``run_suite``.

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

Timeouts (``run_suite(..., timeout=60.0)``, ``verifiedref crosscheck --timeout``): every
Hypothesis example of a check (the calls it makes to the implementation plus the check's own
arithmetic) must finish within ``timeout`` seconds.  On the main thread of a POSIX process the
example runs under a ``SIGALRM`` interval timer whose handler raises :class:`CallTimeout` inside
the running call, so the call is really abandoned: its stack unwinds (``finally`` blocks run)
and nothing keeps running afterwards.  Elsewhere (a worker thread, Windows) each call to a
callable target runs in a daemon worker thread joined with the timeout; a thread cannot be
killed, so an abandoned call keeps running in the background until it returns or the process
exits (the CLI exits when the report is printed).  Neither mechanism can interrupt native code
that holds the GIL and never returns to the interpreter; only running the target in a separate
process could.  A timeout is a failure of that check: the report shows the labelled draws of
the example and the re-run snippet, and Hypothesis stops at once (:class:`CallTimeout` is a
``BaseException``, which Hypothesis neither replays nor shrinks, and which an implementation's
own ``except Exception`` does not swallow).
"""

from __future__ import annotations

import contextlib
import copy
import math
import os
import signal
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, Literal, TextIO, TypeVar, cast

from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisWarning
from hypothesis.reporting import with_reporter

from properties._extras import MissingPackage
from properties._profiles import PROFILES, register_profiles
from properties._registry import get_suite
from properties._snippets import (
    InputStore,
    Tracer,
    format_draw,
    format_snippet,
    format_trace,
    inputs_at,
)
from properties._suite import Capabilities, Check, CheckFailure, MissingHyper, Suite

__all__ = [
    "CHECK_BUDGET_ENV",
    "DEFAULT_CHECK_BUDGETS",
    "DEFAULT_TIMEOUT",
    "BudgetExhausted",
    "CallTimeout",
    "Capabilities",
    "Check",
    "CheckFailure",
    "CheckResult",
    "Suite",
    "SuiteReport",
    "declared_rejections",
    "describe_target",
    "expect",
    "expect_close",
    "expect_le",
    "expect_raises",
    "format_snippet",
    "resolve_check_budget",
    "run_suite",
]

ImplT = TypeVar("ImplT")
Status = Literal["passed", "failed", "skipped", "xfailed", "xpassed"]

#: Seconds one example of a check may take before it counts as a timeout failure.
DEFAULT_TIMEOUT = 60.0


class CallTimeout(BaseException):
    """An example of a check ran past the ``timeout`` given to :func:`run_suite`.

    Derived from ``BaseException`` on purpose: Hypothesis stops on it without replaying or
    shrinking, and neither the implementation's nor a check's ``except Exception`` swallows it.
    """


#: Default seconds per check (generation *and* shrinking) by profile, when ``run_suite`` is
#: called with ``check_budget="auto"`` (the CLI's default): a ``smoke`` run of a 10-check suite
#: stays within about 5 minutes whatever the target; ``None`` means no budget.
DEFAULT_CHECK_BUDGETS: dict[str, float | None] = {
    "smoke": 30.0,
    "dev": 60.0,
    "conformance": 120.0,
    "ci": 300.0,
    "thorough": None,
}

#: Environment variable overriding the ``auto`` budget: a number of seconds, or ``none``.  The
#: test suite sets it to ``none`` so that no gate verdict depends on the machine's speed.
CHECK_BUDGET_ENV = "VERIFIEDREF_CHECK_BUDGET"


class BudgetExhausted(KeyboardInterrupt):
    """A check ran past its ``check_budget`` (generation and shrinking together).

    Raised between examples, before the next one draws anything; a ``KeyboardInterrupt``
    because that is the one exception Hypothesis' engine lets through without recording the
    interrupted example (any other would contradict the draws it recorded for that input and
    surface as ``FlakyStrategyDefinition``), and no ``except Exception`` swallows it.
    """


#: The clock the budget is measured on (tests replace it by a counting clock, so that no
#: test verdict depends on the machine's speed).
_clock: Callable[[], float] = time.monotonic


def resolve_check_budget(budget: float | str | None, profile: str) -> float | None:
    """Seconds of budget for each check: ``budget`` itself, or for ``"auto"`` the environment
    (:data:`CHECK_BUDGET_ENV`) or the profile's default (:data:`DEFAULT_CHECK_BUDGETS`).

    Raises:
        ValueError: ``check_budget`` is not a finite number > 0, ``None`` or ``"auto"``, or the
            environment variable holds something else than a number or ``none``.

    Example:
        >>> resolve_check_budget(5.0, "smoke"), resolve_check_budget(None, "smoke")
        (5.0, None)
    """
    if budget == "auto":
        raw = os.environ.get(CHECK_BUDGET_ENV, "").strip().lower()
        if raw in ("none", "0", "off"):
            return None
        if raw:
            try:
                value = float(raw)
            except ValueError:
                raise ValueError(
                    f"check_budget: expected seconds or 'none' in {CHECK_BUDGET_ENV}, got {raw!r}"
                ) from None
            return resolve_check_budget(value, profile)
        return DEFAULT_CHECK_BUDGETS.get(profile)
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, int | float):
        raise TypeError(
            f"check_budget: expected seconds (a number), None or 'auto', got {type(budget).__name__}"
        )
    if not (math.isfinite(budget) and budget > 0):
        raise ValueError(
            f"check_budget: expected a finite number of seconds > 0, None or 'auto', got {budget!r}"
        )
    return float(budget)


def alarm_available() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def time_limit(seconds: float | None, budget_left: float | None = None) -> Iterator[None]:
    """Raise :class:`CallTimeout` in the running code once ``seconds`` have passed (SIGALRM),
    or :class:`BudgetExhausted` once ``budget_left`` (the check's remaining budget) has, if
    that comes first."""
    if (seconds is None and budget_left is None) or not alarm_available():
        yield
        return
    by_budget = budget_left is not None and (seconds is None or budget_left < seconds)
    limit = max(1e-3, budget_left) if by_budget and budget_left is not None else seconds
    assert limit is not None

    def _on_alarm(signum: int, frame: FrameType | None) -> None:
        if by_budget:
            raise BudgetExhausted()
        raise CallTimeout(f"no result within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)
        signal.signal(signal.SIGALRM, previous)


class ThreadTimed:
    """Callable proxy running each call in a daemon thread joined with a timeout.

    The fallback where no ``SIGALRM`` timer can be used; an abandoned call keeps running in
    its thread (threads cannot be killed) until it returns or the process exits.
    """

    def __init__(self, target: Callable[..., Any], seconds: float) -> None:
        self.target = target
        self.seconds = seconds
        self.__wrapped__ = target

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        box: dict[str, Any] = {}

        def work() -> None:
            try:
                box["value"] = self.target(*args, **kwargs)
            except BaseException as exc:  # handed to the caller's thread below
                box["error"] = exc

        worker = threading.Thread(target=work, name="verifiedref-call", daemon=True)
        worker.start()
        worker.join(self.seconds)
        if worker.is_alive():
            raise CallTimeout(f"no result within {self.seconds:g} s (the call is left running)")
        if "error" in box:
            raise box["error"]
        return box["value"]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.target, name)


class _DrawLog:
    """Proxy of Hypothesis' draw object keeping each labelled draw, to report a timeout."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        self.draws: list[tuple[str | None, object]] = []

    def draw(self, strategy: st.SearchStrategy[Any], label: Any = None) -> Any:
        value = self.data.draw(strategy, label=label)
        self.draws.append((None if label is None else str(label), value))
        return value

    def __getattr__(self, name: str) -> Any:
        return getattr(self.data, name)


def expect(
    condition: bool, *, what: str, measured: object, allowed: object, detail: str = ""
) -> None:
    """Raise :class:`CheckFailure` unless ``condition`` is true."""
    if not condition:
        raise CheckFailure(what, measured=measured, allowed=allowed, detail=detail)


#: Bounds passed to :func:`expect_le` / :func:`expect_close` while a check runs (for reports).
_BOUNDS_SEEN: list[float] = []


def expect_le(measured: float, allowed: float, *, what: str, detail: str = "") -> None:
    """Require ``measured <= allowed`` (NaN fails)."""
    _BOUNDS_SEEN.append(float(allowed))
    ok = bool(measured <= allowed) and not math.isnan(measured)
    expect(ok, what=what, measured=f"{measured!r}", allowed=f"<= {allowed!r}", detail=detail)


def expect_close(
    measured: float, expected: float, *, atol: float, what: str, detail: str = ""
) -> None:
    """Require ``|measured - expected| <= atol`` (NaN fails)."""
    _BOUNDS_SEEN.append(float(atol))
    ok = bool(abs(measured - expected) <= atol)
    expect(
        ok,
        what=what,
        measured=f"{measured!r}",
        allowed=f"{expected!r} ± {atol!r} (off by {abs(measured - expected)!r})",
        detail=detail,
    )


#: The target's own rejection exceptions declared for the running suite (``Capabilities.raises``,
#: ``crosscheck --raises``); :func:`expect_raises` accepts them beside the check's own.
_DECLARED_RAISES: list[type[Exception]] = []


def declared_rejections() -> tuple[type[Exception], ...]:
    """The exception classes the running suite's target declared as rejections."""
    return tuple(_DECLARED_RAISES)


def expect_raises(
    call: Callable[[], object],
    exceptions: tuple[type[BaseException], ...],
    *,
    what: str,
) -> None:
    """Require ``call()`` to raise one of ``exceptions`` (or a declared rejection class of the
    target, ``Capabilities.raises``); anything else is a failure."""
    exceptions = (*exceptions, *(e for e in _DECLARED_RAISES if e not in exceptions))
    names = " or ".join(e.__name__ for e in exceptions)
    try:
        result = call()
    except exceptions:
        return
    except Exception as exc:  # the wrong kind of error is a finding, not a crash
        raise CheckFailure(
            what, measured=f"raised {type(exc).__name__}: {exc}", allowed=f"raises {names}"
        ) from exc
    raise CheckFailure(what, measured=f"returned {_short(result)}", allowed=f"raises {names}")


def _short(value: object, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckResult:
    """Outcome of one check.

    Attributes:
        name: check name.
        anchor: the check's source.
        status: ``passed``, ``failed``, ``skipped``, ``xfailed`` or ``xpassed``.
        message: why it failed or was skipped (empty when it passed).
        snippet: Python code re-running the implementation on the shrunk failing input.
        seconds: wall time of the check.
        bounds: smallest and largest bound the check allowed through :func:`expect_le` /
            :func:`expect_close` over its examples (``None`` when it used neither).
    """

    name: str
    anchor: str
    status: Status
    message: str = ""
    snippet: str = ""
    seconds: float = 0.0
    bounds: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SuiteReport:
    """All check outcomes of one :func:`run_suite` call.

    Attributes:
        suite: suite name.
        target: the implementation's name.
        profile: the Hypothesis profile used.
        strict: whether an unexpected pass (``xpassed``) counts as a failure.
        results: one :class:`CheckResult` per check.
        domain: the input domain the checks drew from (empty when the suite declares none).
    """

    suite: str
    target: str
    profile: str
    strict: bool
    results: tuple[CheckResult, ...]
    domain: str = ""

    @property
    def failed(self) -> tuple[CheckResult, ...]:
        """Results that make the run fail (``failed``, and ``xpassed`` under ``strict``)."""
        bad: tuple[Status, ...] = ("failed", "xpassed") if self.strict else ("failed",)
        return tuple(r for r in self.results if r.status in bad)

    @property
    def ok(self) -> bool:
        """True when no check failed."""
        return not self.failed

    def counts(self) -> dict[str, int]:
        """Number of results per status."""
        out: dict[str, int] = {}
        for r in self.results:
            out[r.status] = out.get(r.status, 0) + 1
        return out

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data (``crosscheck --json``): one record per check with its
        status, anchor, time, the bounds it allowed, and for failures the message and the
        snippet that re-runs the shrunk input."""
        return {
            "suite": self.suite,
            "target": self.target,
            "profile": self.profile,
            "domain": self.domain,
            "strict": self.strict,
            "ok": self.ok,
            "counts": self.counts(),
            "results": [
                {
                    "check": r.name,
                    "anchor": r.anchor,
                    "status": r.status,
                    "seconds": round(r.seconds, 3),
                    "bounds": list(r.bounds) if r.bounds is not None else None,
                    "message": r.message,
                    "snippet": r.snippet,
                }
                for r in self.results
            ],
        }

    def format(self, *, verbose: bool = True) -> str:
        """Human-readable report; failures carry message and snippet."""
        where = f", domain {self.domain}" if self.domain else ""
        lines = [f"suite {self.suite} on {self.target} (profile {self.profile}{where})"]
        for r in self.results:
            used = ""
            if r.bounds is not None:
                low, high = r.bounds
                used = f"bound {low:.3g}  " if low == high else f"bounds {low:.3g}..{high:.3g}  "
            # the time stays last: callers strip timing lines by their trailing "s"
            lines.append(f"  {r.status.upper():8s} {r.name}  [{r.anchor}]  {used}{r.seconds:.2f}s")
            if verbose and r.status in ("failed", "xpassed", "skipped", "xfailed") and r.message:
                lines.extend("      " + line for line in r.message.splitlines())
            if verbose and r.status == "failed" and r.snippet:
                timed_out = r.message.startswith(f"check {r.name} timed out")
                partly = "\nnot fully shrunk:" in r.message
                lines.append(
                    "      re-run the failing input (not shrunk: it timed out):"
                    if timed_out
                    else "      re-run the failing input (not fully shrunk: budget ran out):"
                    if partly
                    else "      re-run the shrunk failing input:"
                )
                lines.extend("        " + line for line in r.snippet.splitlines())
        summary = ", ".join(f"{n} {s}" for s, n in sorted(self.counts().items()))
        judged = any(r.status != "skipped" for r in self.results)
        verdict = ("PASS" if self.ok else "FAIL") if judged else "NO VERDICT: every check skipped"
        lines.append(f"  => {verdict} ({summary})")
        return "\n".join(lines)


class _Recorder:
    """Callable proxy that records the arguments of every call made in one example."""

    def __init__(self, target: Callable[..., Any]) -> None:
        self.target = target
        self.calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
        self.__wrapped__ = target

    def reset(self) -> None:
        self.calls = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append((copy.deepcopy(args), copy.deepcopy(kwargs)))
        return self.target(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.target, name)


def describe_target(obj: object) -> str:
    """``module:qualname`` of ``obj`` when it has one, else its repr."""
    wrapped = getattr(obj, "__wrapped__", obj)
    module = getattr(wrapped, "__module__", None)
    qualname = getattr(wrapped, "__qualname__", None)
    if module and qualname and "<" not in qualname:
        return f"{module}:{qualname}"
    return _short(wrapped, 80)


#: When set (e.g. to ``thorough``), replaces the deterministic verdict profiles ``smoke`` and
#: ``conformance`` in every :func:`run_suite` of the process: how the slow test
#: ``tests/test_thorough_pairs.py`` reruns every (reference, suite) pair of the tests at scale.
SUITE_PROFILE_ENV = "VERIFIEDREF_SUITE_PROFILE"


def _settings_for(profile: str) -> settings:
    register_profiles()
    override = os.environ.get(SUITE_PROFILE_ENV)
    if override and profile in ("smoke", "conformance"):
        profile = override
    if profile not in PROFILES:
        raise ValueError(f"profile: expected one of {', '.join(PROFILES)}, got {profile!r}")
    base = settings.get_profile(profile)
    phases = tuple(p for p in base.phases if p is not Phase.explain)
    return settings(base, report_multiple_bugs=False, phases=phases)


def _draws(log: list[_DrawLog]) -> list[str]:
    """The labelled draws of the last example run (the shrunk one), in full."""
    return [
        format_draw(i, label, value)
        for i, (label, value) in enumerate(log[0].draws if log else [], start=1)
    ]


def _failure_text(check: Check[Any], exc: BaseException, draws: list[str]) -> str:
    if isinstance(exc, CheckFailure):
        head = f"check {check.name} failed [{check.anchor}]\n{exc}"
    else:
        tb = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
        where = f" (at {tb[0].filename}:{tb[0].lineno})" if tb else ""
        head = (
            f"check {check.name} failed [{check.anchor}]\n"
            f"the implementation raised {type(exc).__name__}: {exc}{where}"
        )
    return "\n".join([head, *draws])


@dataclass(slots=True)
class _Seen:
    """The last (so smallest: the shrinker only tries smaller inputs) failing example."""

    exc: BaseException
    draws: list[tuple[str | None, object]]
    calls: list[Any]  # recorded calls: (args, kwargs) pairs, or a Tracer's calls


class _Guarded:
    """Stands for a check inside :func:`_body`: logs the draws, applies the time limit and the
    check's budget, and keeps the smallest failing example seen so far."""

    def __init__(
        self,
        check: Check[Any],
        timeout: float | None,
        log: list[_DrawLog],
        *,
        deadline: float | None = None,
        recorder: _Recorder | Tracer | None = None,
    ) -> None:
        self.check = check
        self.timeout = timeout
        self.log = log
        self.deadline = deadline
        self.recorder = recorder
        self.examples = 0
        self.failing = 0
        self.best: _Seen | None = None

    def fn(self, adapted: Any, data: st.DataObject, caps: Capabilities) -> None:
        left = None
        if self.deadline is not None:
            left = self.deadline - _clock()
            if left <= 0:
                raise BudgetExhausted()
        drawn = _DrawLog(data)
        self.log[:] = [drawn]
        try:
            with time_limit(self.timeout, left):  # an example stops when the budget does
                self.check.fn(adapted, cast(st.DataObject, drawn), caps)
        except Exception as exc:
            self.examples += 1
            self.failing += 1
            calls = list(self.recorder.calls) if self.recorder is not None else []
            self.best = _Seen(exc=exc, draws=list(drawn.draws), calls=calls)
            raise
        self.examples += 1


def _body(
    check: _Guarded,
    adapted: Any,
    caps: Capabilities,
    recorder: _Recorder | Tracer | None,
    hyp_settings: settings,
) -> Callable[[], None]:
    # The text of ``body`` must not change: derandomised profiles seed Hypothesis from the
    # test function's source, so editing it would change every suite's examples.
    @hyp_settings
    @given(data=st.data())
    def body(data: st.DataObject) -> None:
        if recorder is not None:
            recorder.reset()
        check.fn(adapted, data, caps)

    return body


def _draw_lines(draws: Sequence[tuple[str | None, object]]) -> list[str]:
    return [format_draw(i, label, value) for i, (label, value) in enumerate(draws, start=1)]


def _hypothesis_line(reported: Sequence[str], caught: Sequence[warnings.WarningMessage]) -> str:
    """Hypothesis' own reports and warnings during a check, as one line of ours (or "")."""
    texts = [t for t in reported if "WARNING" in t or "PLEASE REPORT" in t]
    texts += [str(w.message) for w in caught]
    if not texts:
        return ""
    first = " ".join(texts[0].split())
    if "shrink" in first and ("five minutes" in first or "slow" in first):
        first = "Hypothesis stopped shrinking after 5 minutes of slow progress"
    else:
        first = first.split(". ")[0][:160]
    more = f" (and {len(texts) - 1} more)" if len(texts) > 1 else ""
    return f"note: {first}{more}; bound the check with --check-budget SECONDS"


def _own_snippet(message: str) -> tuple[str, str]:
    """Move a snippet a check put in its message (after ``re-run:``) to the snippet field, so
    the report prints it last and whole: what follows it (the draws, notes) stays in the
    message."""
    head, _, rest = message.partition("\nre-run:\n")
    lines = rest.splitlines()
    end = next(
        (i for i, line in enumerate(lines) if line.startswith(("Draw ", "note: "))), len(lines)
    )
    return "\n".join([head, *lines[end:]]), "\n".join(lines[:end]).strip("\n")


def _imports(expression: str) -> tuple[str, ...]:
    """What a snippet rebuilding a torch target with ``expression`` must import."""
    if not expression:
        return ()
    return ("import torch", f"from properties.adapters import {expression.split('(')[0]}")


def _torch_adapted(suite: Suite[Any], impl: object) -> tuple[object, str]:
    """A torch optimizer target made a suite factory before tracing, and the snippet's
    expression rebuilding it (``as_torch_optimizer(resolve_name(...), overrides=...)``)."""
    from properties.adapters import is_torch_optimizer

    replay = getattr(impl, "verifiedref_replay", None)
    if replay is None:
        if suite.foreign is None or not is_torch_optimizer(impl):
            return impl, ""
        impl = suite.foreign(cast(Callable[..., Any], impl))
        replay = getattr(impl, "verifiedref_replay", None)
        if replay is None:
            return impl, ""
    adapter, make, overrides = replay
    extra = f", overrides={overrides!r}" if overrides else ""
    return impl, f"{adapter}(resolve_name({describe_target(make)!r}){extra})"


def _run_one(
    suite: Suite[ImplT],
    check: Check[ImplT],
    impl: object,
    caps: Capabilities,
    hyp_settings: settings,
    target: str,
    timeout: float | None,
    budget: float | None = None,
) -> tuple[bool | None, str, str]:
    if timeout is not None and not alarm_available() and callable(impl):
        impl = ThreadTimed(impl, timeout)
    recorder: _Recorder | Tracer | None = None
    expression = ""
    if suite.trace_calls:
        impl, expression = _torch_adapted(suite, impl)
        recorder = Tracer(impl)
    elif suite.record_calls and callable(impl):
        recorder = _Recorder(impl)
    try:
        adapted = suite.adapt(recorder if recorder is not None else impl)
    except TypeError:  # not the kind of object the suite takes: a usage error
        raise
    except Exception as exc:  # the target itself raised while being adapted (a factory called)
        adapting: Any = recorder.calls if recorder is not None else []
        snippet = (
            format_trace(target, recorder, expression=expression, imports=_imports(expression))
            if isinstance(recorder, Tracer)
            else format_snippet(target, adapting)
        )
        return False, _failure_text(check, exc, []), snippet

    def snippet_of(calls: list[Any] | None = None) -> str:
        """The snippet of the recorded calls (of ``calls``: a budget's best example)."""
        if isinstance(recorder, Tracer):
            traced = recorder if calls is None else Tracer(recorder.target, calls=calls)
            return format_trace(target, traced, expression=expression, imports=_imports(expression))
        if recorder is None:
            return ""
        return format_snippet(target, recorder.calls if calls is None else calls)

    log: list[_DrawLog] = []
    deadline = None if budget is None else _clock() + budget
    guard = _Guarded(check, timeout, log, deadline=deadline, recorder=recorder)
    body = _body(guard, adapted, caps, recorder, hyp_settings)
    reported: list[str] = []

    def attempt() -> tuple[bool | None, str, str]:
        try:
            body()
        except CallTimeout as exc:
            snippet = snippet_of()
            draws = _draws(log)
            head = (
                f"check {check.name} timed out [{check.anchor}]\n"
                f"timeout: {exc} (--timeout {timeout:g}); this input was not shrunk "
                "and no further examples were run"
            )
            return (False, "\n".join([head, *draws]), snippet)
        except MissingHyper as exc:  # the check needs a keyword the target does not take
            return None, f"skipped: {exc}", ""
        except BudgetExhausted:
            assert budget is not None  # raised only under a budget
            best = guard.best
            if best is None:
                head = (
                    f"check {check.name} incomplete [{check.anchor}]\n"
                    f"check budget: {budget:g} s ran out after {guard.examples} examples of "
                    f"{hyp_settings.max_examples}, none failing; the verdict needs them all: "
                    "raise --check-budget (check_budget=) or use a smaller --profile"
                )
                return (False, head, "")
            snippet = snippet_of(best.calls)
            text = _failure_text(check, best.exc, [])
            head = (
                f"{text}\nnot fully shrunk: the check budget of {budget:g} s ran out while "
                f"shrinking ({guard.failing} failing examples tried); this is the smallest "
                "counterexample found so far"
            )
            return (False, "\n".join([head, *_draw_lines(best.draws)]), snippet)
        except ModuleNotFoundError as exc:  # not a verdict on the implementation
            raise MissingPackage(exc.name or str(exc)) from exc
        except Exception as exc:
            return (False, _failure_text(check, exc, _draws(log)), snippet_of())
        return True, "", ""

    ours: list[warnings.WarningMessage] = []
    with warnings.catch_warnings(), with_reporter(lambda text: reported.append(str(text))):
        shown = warnings.showwarning

        def show(
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: TextIO | None = None,
            line: str | None = None,
        ) -> None:
            if issubclass(category, HypothesisWarning):  # ours to summarise in one line
                ours.append(warnings.WarningMessage(message, category, filename, lineno))
            else:  # the implementation's own warnings are shown as ever
                shown(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        warnings.simplefilter("always", HypothesisWarning)
        passed, message, snippet = attempt()
    line = _hypothesis_line(reported, ours) if passed is not None else ""
    if line:
        message = message + ("\n" if message else "") + line
    return passed, message, snippet


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
    hyp_settings = _settings_for(profile)
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
    _DECLARED_RAISES[:] = list(caps.raises)
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
        _BOUNDS_SEEN.clear()
        try:
            passed, message, snippet = _run_one(
                the_suite, check, impl, caps, hyp_settings, label, timeout, budget
            )
            if not snippet and "\nre-run:\n" in message:  # a check that wrote its own snippet
                message, snippet = _own_snippet(message)
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
                bounds=(min(_BOUNDS_SEEN), max(_BOUNDS_SEEN)) if _BOUNDS_SEEN else None,
            )
        )
    _DECLARED_RAISES.clear()
    return SuiteReport(
        suite=the_suite.name,
        target=label,
        profile=profile,
        strict=strict,
        results=tuple(results),
        domain=domain,
    )
