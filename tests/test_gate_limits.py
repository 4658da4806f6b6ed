"""The gate never judges speed (issue 31): its limits are in force and no test compares a time.

See ``tests/_gate.py`` for the limit and how it was measured.
"""

from __future__ import annotations

import re
from pathlib import Path

import properties._cli.parser as cli_parser
import properties._runner as runner
from tests._gate import GATE_TIMEOUT_S

TESTS = Path(__file__).resolve().parent

#: A wall-clock reading on the left of a ``<`` / ``<=`` (an upper bound on elapsed time) or a
#: Hypothesis deadline given in milliseconds / a timedelta.
_SPEED_JUDGEMENTS = (
    re.compile(r"(perf_counter|monotonic|time\.time|process_time)\(\)\s*-\s*\w+\s*<"),
    re.compile(r"\b(elapsed|seconds|wall|took)\w*\s*<=?\s*\d"),
    re.compile(r"deadline\s*=\s*(?!None)"),
)
#: Upper bounds measured against a mutant's own sleep (``SLEEP_S``): a slower machine cannot
#: break them (the mutant only gets later).
_ALLOWED = ("< SLEEP_S",)


def test_run_suite_and_crosscheck_default_to_the_gate_limit() -> None:
    assert runner.run_suite.__kwdefaults__ is not None
    assert runner.run_suite.__kwdefaults__["timeout"] == GATE_TIMEOUT_S
    args = cli_parser.build_parser().parse_args(["crosscheck", "games.solver", "pkg:fn"])
    assert args.timeout == GATE_TIMEOUT_S
    assert GATE_TIMEOUT_S >= 10 * runner.DEFAULT_TIMEOUT


def test_no_test_compares_elapsed_time_with_an_upper_bound() -> None:
    offenders = []
    for path in sorted(TESTS.rglob("*.py")):
        if path.name == Path(__file__).name:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if any(p.search(code) for p in _SPEED_JUDGEMENTS) and not any(
                a in code for a in _ALLOWED
            ):
                offenders.append(f"{path.relative_to(TESTS)}:{number}: {line.strip()}")
    assert not offenders, "tests judging speed:\n" + "\n".join(offenders)
