"""Derandomised runs draw the same examples wherever they run.

Hypothesis (6.13x and later) mixes into its draws literal constants collected from the source of
every *local* module loaded in the process (not site-packages, not tests).  A derandomised run
(profiles ``conformance`` and ``smoke``) would then draw different examples depending on which
modules happen to be imported (a CLI import, a pytest-xdist worker's earlier tests, the user's
own project) and on every literal anywhere in that code, so the same command could give a
different verdict on another machine or after an unrelated edit.

:func:`code_constants_off` switches that source of draws off for the duration of a derandomised
check: the examples then depend only on the check's text and the profile.  It reaches into
Hypothesis' private provider module (there is no public setting); where that module has no such
hook (older Hypothesis, which collected no local constants) it does nothing, and
``tests/test_determinism.py`` fails if a newer Hypothesis moves the hook.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

__all__ = ["code_constants_off", "hook_present"]

_MARK = "_verifiedref_constants_off"


def _providers() -> Any:
    from hypothesis.internal.conjecture import providers

    return providers


def hook_present() -> bool:
    """Whether this Hypothesis collects local constants through the hook we switch off."""
    p = _providers()
    return all(
        hasattr(p, name) for name in ("_get_local_constants", "Constants", "CONSTANTS_CACHE")
    )


@contextlib.contextmanager
def code_constants_off() -> Iterator[None]:
    """Within the block Hypothesis draws no constants from local modules' source (nested or
    concurrent blocks leave the switch to the outermost one)."""
    p = _providers()
    if not hook_present() or getattr(p._get_local_constants, _MARK, False):
        yield
        return
    original = p._get_local_constants
    empty = p.Constants()

    def no_constants() -> Any:
        return empty

    setattr(no_constants, _MARK, True)
    p.CONSTANTS_CACHE.cache.clear()  # it holds pools built with the local constants
    p._get_local_constants = no_constants
    try:
        yield
    finally:
        p._get_local_constants = original
        p.CONSTANTS_CACHE.cache.clear()
