"""Time limits of a suite run: the per-example ``timeout`` and the per-check budget.

Timeouts (``run_suite(..., timeout=60.0)``, ``verifiedref crosscheck --timeout``): every
Hypothesis example of a check (the calls it makes to the implementation plus the check's own
arithmetic) must finish within ``timeout`` seconds.  On the main thread of a POSIX process the
example runs under a ``SIGALRM`` interval timer (:func:`time_limit`) whose handler raises
:class:`CallTimeout` inside the running call, so the call is really abandoned: its stack unwinds
(``finally`` blocks run) and nothing keeps running afterwards.  Elsewhere (a worker thread,
Windows) each call to a callable target runs in a daemon worker thread joined with the timeout
(:class:`ThreadTimed`); a thread cannot be killed, so an abandoned call keeps running in the
background until it returns or the process exits (the CLI exits when the report is printed).
Neither mechanism can interrupt native code that holds the GIL and never returns to the
interpreter; only running the target in a separate process could.  A timeout is a failure of
that check: the report shows the labelled draws of the example and the re-run snippet, and
Hypothesis stops at once (:class:`CallTimeout` is a ``BaseException``, which Hypothesis neither
replays nor shrinks, and which an implementation's own ``except Exception`` does not swallow).

Check budgets (``check_budget=``, ``--check-budget``): the seconds one check may spend
generating and shrinking together (:func:`resolve_check_budget`); when they run out,
:class:`BudgetExhausted` stops Hypothesis between examples, or inside a running example through
the same timer.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

__all__ = [
    "CHECK_BUDGET_ENV",
    "DEFAULT_CHECK_BUDGETS",
    "DEFAULT_TIMEOUT",
    "BudgetExhausted",
    "CallTimeout",
    "ThreadTimed",
    "alarm_available",
    "resolve_check_budget",
    "time_limit",
]

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
