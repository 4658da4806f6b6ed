"""The gate never judges speed (issue 31): the per-example limits our own tests run under.

A user's ``run_suite`` / ``verifiedref crosscheck`` keeps its per-example limit
(:data:`properties._runner.DEFAULT_TIMEOUT`, 60 s) and the bad-/hard-input cases keep their
per-call budgets (20-120 s): there a limit catches an implementation that hangs.  In our gate
the implementations under test are the references, every one bounded by an iteration cap, so a
limit can only turn a slow machine into a failure: the verdict would depend on how fast the
machine is.  Measured (issue 31): the slowest single example of the default gate is
``parameter_free`` on the 3 x 5 game of the issue (706 290 steps to its tolerance), 51 s on a
quiet core per the issue; measured here 25.8 s CPU / 69.6 s wall at load 8, and 26.6 s CPU /
278.7 s wall with two extra busy loops (``python3 -c "while True: pass"``, one per core) running
beside it at load 13 (/tmp script: the game, ``tol=1e-6 * scale``, ``time.perf_counter`` and
``time.process_time``, BLAS pinned to one thread).  The gate's limit,
:data:`GATE_TIMEOUT_S`, sits far above it: it fails a reference that truly hangs, with the
input, instead of hanging the gate, and never fails one that is merely slow.

Tests that check the timeout machinery itself (``tests/test_crosscheck_timeout.py``,
``tests/games/test_mutants.py``) pass their own small limits to mutants that loop forever or
sleep far past them: a slower machine can only make those mutants later, never earlier.
"""

from __future__ import annotations

import dataclasses
from typing import TypeVar

#: Seconds one example (or one bad-/hard-input call) may take in our gate.
GATE_TIMEOUT_S = 1800.0

_C = TypeVar("_C")


def gate_limits() -> None:
    """Make :data:`GATE_TIMEOUT_S` the default limit of ``run_suite`` and ``crosscheck``.

    Called once by ``tests/conftest.py``; an explicit ``timeout=`` / ``--timeout`` still wins.
    """
    import properties._cli.parser as cli_parser
    import properties._runner as runner

    defaults = runner.run_suite.__kwdefaults__
    if defaults is None or "timeout" not in defaults:
        raise RuntimeError("run_suite lost its timeout keyword: update tests/_gate.py")
    defaults["timeout"] = GATE_TIMEOUT_S
    setattr(cli_parser, "DEFAULT_TIMEOUT", GATE_TIMEOUT_S)  # noqa: B010 - read when main() builds its parser


def with_gate_limit(case: _C) -> _C:
    """A bad-/hard-input case with its per-call budget raised to :data:`GATE_TIMEOUT_S`."""
    return dataclasses.replace(case, timeout=GATE_TIMEOUT_S)  # type: ignore[type-var]
