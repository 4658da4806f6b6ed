"""One check of a suite run under Hypothesis: :func:`run_check`.

The check runs on the adapted implementation with every example under the time limits of
:mod:`properties._limits`; the calls made to the target are recorded (or traced, for factories)
so that a failure comes with a snippet re-running the shrunk input, and the labelled draws of
the failing example are kept for the report.  Hypothesis' own warnings become one line of the
message; the target's warnings are shown as they are.
"""

from __future__ import annotations

import contextlib
import copy
import os
import time
import traceback
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO, TypeVar, cast

from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisWarning
from hypothesis.reporting import with_reporter

from properties._determinism import code_constants_off
from properties._expect import short_repr
from properties._extras import MissingPackage
from properties._limits import (
    BudgetExhausted,
    CallTimeout,
    ThreadTimed,
    alarm_available,
    time_limit,
)
from properties._profiles import PROFILES, register_profiles
from properties._snippets import Tracer, format_draw, format_snippet, format_trace
from properties._suite import Capabilities, Check, CheckFailure, MissingHyper, Suite

__all__ = ["SUITE_PROFILE_ENV", "describe_target", "run_check", "settings_for"]

ImplT = TypeVar("ImplT")

#: The clock the budget is measured on (tests replace it by a counting clock, so that no
#: test verdict depends on the machine's speed).
_clock: Callable[[], float] = time.monotonic


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
    return short_repr(wrapped, 80)


#: When set (e.g. to ``thorough``), replaces the deterministic verdict profiles ``smoke`` and
#: ``conformance`` in every :func:`run_suite` of the process: how the slow test
#: ``tests/test_thorough_pairs.py`` reruns every (reference, suite) pair of the tests at scale.
SUITE_PROFILE_ENV = "VERIFIEDREF_SUITE_PROFILE"


def settings_for(profile: str) -> settings:
    """Hypothesis settings of ``profile`` (or of :data:`SUITE_PROFILE_ENV`'s override), without
    the ``explain`` phase and reporting one bug per check."""
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


def run_check(
    suite: Suite[ImplT],
    check: Check[ImplT],
    impl: object,
    caps: Capabilities,
    hyp_settings: settings,
    target: str,
    timeout: float | None,
    budget: float | None = None,
) -> tuple[bool | None, str, str]:
    """Run ``check`` of ``suite`` on ``impl``: ``(passed, message, snippet)``, where ``passed``
    is ``None`` when the check was skipped (it needs a keyword the target does not take), and
    ``snippet`` re-runs the failing input (a check's own ``re-run:`` snippet moves there too).

    Raises:
        MissingPackage: the check needs an optional package that is not installed.
        TypeError: ``suite.adapt`` does not take ``impl`` (a usage error).
    """
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
        with code_constants_off() if hyp_settings.derandomize else contextlib.nullcontext():
            passed, message, snippet = attempt()
    line = _hypothesis_line(reported, ours) if passed is not None else ""
    if line:
        message = message + ("\n" if message else "") + line
    if not snippet and "\nre-run:\n" in message:  # a check that wrote its own snippet
        message, snippet = _own_snippet(message)
    return passed, message, snippet
