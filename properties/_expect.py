"""Assertion helpers of checks: :func:`expect` and friends raise :class:`CheckFailure` carrying
the measured and the allowed quantity.

While a suite runs, the helpers keep two pieces of state for the runner: the bounds that
:func:`expect_le` / :func:`expect_close` allowed (shown in the report) and the target's own
rejection classes (``Capabilities.raises``) that :func:`expect_raises` accepts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from properties._suite import CheckFailure

__all__ = [
    "bounds_seen",
    "declare_rejections",
    "declared_rejections",
    "expect",
    "expect_close",
    "expect_le",
    "expect_raises",
    "reset_bounds",
    "short_repr",
]


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
    raise CheckFailure(what, measured=f"returned {short_repr(result)}", allowed=f"raises {names}")


def short_repr(value: object, limit: int = 200) -> str:
    """``repr(value)``, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def reset_bounds() -> None:
    """Forget the bounds seen so far (the runner calls it before each check)."""
    _BOUNDS_SEEN.clear()


def bounds_seen() -> tuple[float, float] | None:
    """Smallest and largest bound allowed since :func:`reset_bounds`; ``None`` if none."""
    return (min(_BOUNDS_SEEN), max(_BOUNDS_SEEN)) if _BOUNDS_SEEN else None


def declare_rejections(exceptions: Sequence[type[Exception]]) -> None:
    """Make ``exceptions`` the running target's declared rejections (``()``: none)."""
    _DECLARED_RAISES[:] = list(exceptions)
