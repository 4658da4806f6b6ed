"""Slack of every theorem check on the reference (issue 36, item 1).

The *slack* of one single-instance check is how far the reference's measurement sits inside
its bound, as a factor: ``bound / measured`` for ``<=`` and ``measured / bound`` for ``>=``
(both of the same sign; ``inf`` when the measurement is on the safe side of 0 and the bound
is not, e.g. a gap of exactly 0 under a positive bound).  ``==`` checks and checks whose
bound is 0 have no slack (they are exact).  A slack of 1 means the reference attains the
bound; a slack of 6000 means an implementation 6000 times worse would pass.

A driver's row records, over all the sub-checks it summarises with
:func:`~proofs_numeric.worst` (seen through :func:`~proofs_numeric._registry.recording`):

* ``slack`` — the smallest slack (its tightest part: a wrong implementation that is worse
  by more than this factor on that instance fails);
* ``loosest`` — the largest finite slack (the instance where a bug has the most room);
* ``subchecks``, ``loose`` — how many sub-checks, and how many of them have slack above
  :data:`LIMIT`.

A row whose ``slack`` exceeds :data:`LIMIT` must say in :data:`REASONS` why the theorem cannot
be tightened there (``tests/test_slack.py`` enforces it).  Regenerate the shipped record
``proofs_numeric/_slack.json`` (read by ``verifiedref list --checks`` and the report) with::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python -m proofs_numeric._slack --write
"""

from __future__ import annotations

import json
import math
import os
import platform
import sys
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from proofs_numeric._registry import ProveProfile, TheoremEntry, all_theorems, recording
from proofs_numeric._result import BoundCheck

__all__ = ["LIMIT", "REASONS", "SlackRow", "measure", "slack_factor", "slack_record"]

#: A slack above this needs a tight part, a fitted rate, or a reason (issue 36).
LIMIT = 10.0

RECORD = Path(__file__).resolve().parent / "_slack.json"

#: check -> one sentence: why its tightest part cannot be brought within :data:`LIMIT`.
REASONS: dict[str, str] = {}


def slack_factor(check: BoundCheck) -> float:
    """How far ``check.measured`` sits inside ``check.bound``, as a factor (``nan``: no slack).

    ``nan`` for ``==`` checks, bound 0, non-finite values, and measurements on the wrong side
    of 0 (a violated check, whose slack is not defined).
    """
    m, b = float(check.measured), float(check.bound)
    if check.sense == "==" or b == 0.0 or not (math.isfinite(m) and math.isfinite(b)):
        return math.nan
    if check.sense == ">=":
        m, b = b, m  # measured >= bound  <=>  bound <= measured: the same factor, mirrored
    if b > 0.0:
        if m > 0.0:
            return b / m
        return math.inf  # measured <= 0 < bound
    if m < 0.0:
        return m / b  # both negative: measured is |m|/|b| times further below 0
    return math.nan


@dataclass(frozen=True, slots=True, kw_only=True)
class SlackRow:
    """The slack of one registered check on the reference (see the module docstring)."""

    check: str
    slack: float
    loosest: float
    subchecks: int
    loose: int
    seconds: float

    def as_json(self) -> dict[str, object]:
        """The row as the record stores it (``inf``/``nan`` as strings)."""
        return {
            "slack": _num(self.slack),
            "loosest": _num(self.loosest),
            "subchecks": self.subchecks,
            "loose": self.loose,
            "reason": REASONS.get(self.check, ""),
        }


def _num(value: float) -> float | str:
    return value if math.isfinite(value) else str(value)


def measure(entry: TheoremEntry, profile: ProveProfile) -> SlackRow:
    """Run ``entry`` on the reference and measure the slack of each of its sub-checks."""
    start = time.perf_counter()
    with recording() as leaves:
        result = entry.driver(profile)
    seconds = time.perf_counter() - start
    if result.subchecks == 1 and not leaves:
        leaves.append(result)
    seen: set[tuple[str, float, float, str]] = set()
    factors: list[float] = []
    for leaf in leaves:
        key = (leaf.claim, float(leaf.measured), float(leaf.bound), leaf.sense)
        if key in seen:
            continue
        seen.add(key)
        factors.append(slack_factor(leaf))
    defined = [f for f in factors if not math.isnan(f)]
    finite = [f for f in defined if math.isfinite(f)]
    return SlackRow(
        check=entry.name,
        slack=min(defined, default=math.nan),
        loosest=max(finite, default=math.nan),
        subchecks=len(factors),
        loose=sum(f > LIMIT for f in defined),
        seconds=seconds,
    )


def slack_record() -> dict[str, dict[str, object]]:
    """check -> its recorded row (``proofs_numeric/_slack.json``); empty if not shipped."""
    try:
        text = resources.files("proofs_numeric").joinpath("_slack.json").read_text("utf-8")
    except FileNotFoundError:
        return {}
    raw: dict[str, dict[str, object]] = json.loads(text)["checks"]
    return raw


def _write(only: str | None) -> None:
    profile = ProveProfile.named("quick")
    old = json.loads(RECORD.read_text()) if RECORD.exists() else {"checks": {}}
    rows = dict(old["checks"])
    for entry in all_theorems(only, profile="quick"):
        row = measure(entry, profile)
        rows[entry.name] = row.as_json()
        print(
            f"{entry.name:45s} slack {row.slack:10.3g} loosest {row.loosest:10.3g} "
            f"{row.loose}/{row.subchecks} loose  {row.seconds:.1f}s",
            flush=True,
        )
    for name, row in rows.items():
        row["reason"] = REASONS.get(name, "")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    record = {
        "profile": "quick",
        "seed": profile.seed,
        "python": platform.python_version(),
        "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "unset"),
        "load_1min": round(load, 2),
        "checks": dict(sorted(rows.items())),
    }
    RECORD.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {RECORD}")


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args or args[0] != "--write" or len(args) > 2:
        sys.exit("usage: python -m proofs_numeric._slack --write [FAMILY]")
    _write(args[1] if len(args) == 2 else None)
