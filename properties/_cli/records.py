"""What ``prove`` writes: ``--json`` (every number to the last bit) and ``--report`` (Markdown
with plots)."""

from __future__ import annotations

import datetime as _dt
import json
import math
import platform
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from properties._cli.listing import evidence
from properties._cli.plots import plot, plots_note
from properties._cli.tables import fmt

__all__ = ["write_prove_json", "write_report"]


def _exact(value: Any) -> Any:
    """A float as JSON keeps it (repr round-trips every bit); nan and inf become strings."""
    if isinstance(value, float | np.floating):
        number = float(value)
        return number if math.isfinite(number) else str(number)
    return value


def write_prove_json(
    path: Path,
    profile: str,
    seed: int,
    outcomes: Sequence[tuple[str, Any, str, float]],
    where: str,
    *,
    planned: int | None = None,
) -> None:
    """``prove --json``: every row with its numbers to the last bit, for CI and for diffing runs.

    Written again as each check finishes, so an interrupted run keeps what finished:
    ``complete`` says whether all ``planned`` checks are in.
    """
    rows = []
    for name, result, error, seconds in outcomes:
        row: dict[str, Any] = {"check": name, "seconds": round(seconds, 3), "error": error}
        if result is not None:
            row |= {
                "paper": result.paper,
                "theorem": result.theorem,
                "claim": result.claim,
                "measured": _exact(result.measured),
                "bound": _exact(result.bound),
                "sense": result.sense,
                "rtol": _exact(result.rtol),
                "atol": _exact(result.atol),
                "ratio": _exact(result.ratio),
                "tightest": _exact(result.tightest),
                "subchecks": result.subchecks,
                "degenerate": result.degenerate,
                "holds": bool(result.holds),
                "verdict": result.verdict,
            }
        else:
            row |= {"holds": False, "verdict": "ERROR"}
        rows.append(row)
    document = {
        "profile": profile,
        "seed": seed,
        "ran": where,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "checks": rows,
        "hold": sum(row["holds"] for row in rows),
        "total": len(rows),
        "complete": planned is None or len(rows) >= planned,
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def write_report(
    path: Path,
    profile: str,
    seed: int,
    outcomes: Sequence[tuple[str, Any, str, float]],
    where: str = "",
) -> None:
    plots = path.parent / f"{path.stem}_plots"
    lines = [
        "# verifiedref theorem checks",
        "",
        f"- date: {_dt.datetime.now(_dt.UTC).isoformat(timespec='seconds')}",
        f"- profile: {profile}, seed: {seed}",
        f"- ran: {where or 'serial'}",
        f"- python {platform.python_version()}, numpy {np.__version__}",
        f"- plots: {plots_note()}",
        "",
        "evidence: 'sanity' = calls no library code (not evidence); 'no teeth' = no known wrong "
        "implementation fails it; else the number of mutants it is known to catch.",
        "",
        "ratio: of the reported (worst) sub-check; tightest: the tightest ratio among the "
        "sub-checks whose bound is not 0; degenerate: sub-checks with bound 0 (ratio 1 or inf by "
        "convention) out of all.",
        "",
        "slack (ref): bound/measured of the tightest sub-check on the reference, recorded in "
        "proofs_numeric/_slack.json ('*': the reason it exceeds 10 is recorded there).",
        "",
        "| check | evidence | paper, anchor | claim | measured | bound | ratio | tightest | "
        "degenerate | slack (ref) | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    from proofs_numeric import all_theorems
    from proofs_numeric._registry import teeth
    from proofs_numeric._slack import slack_cell, slack_record

    record = teeth()
    slacks = slack_record()
    entries = {e.name: e for e in all_theorems()}
    details = []
    for name, result, error, seconds in outcomes:
        worth = evidence(entries[name], record) if name in entries else "-"
        if result is None:
            lines.append(f"| {name} | {worth} | | | | | | | | | ERROR: {error} |")
            continue
        lines.append(
            f"| {name} | {worth} | {result.paper}, {result.theorem} | {result.claim} | "
            f"{fmt(result.measured)} | "
            f"{result.sense} {fmt(result.bound)} (rtol {result.rtol:g}, atol {result.atol:g}) | "
            f"{fmt(result.ratio)} | {fmt(getattr(result, 'tightest', math.nan))} | "
            f"{getattr(result, 'degenerate', 0)}/{getattr(result, 'subchecks', 1)} | "
            f"{slack_cell(slacks, name)} | {result.verdict} |"
        )
        params = ", ".join(f"{k}={v}" for k, v in result.params.items())
        details.append(
            f"### {name}\n\n{result.claim}\n\nparameters: {params or '-'}; time {seconds:.2f}s\n"
        )
        if result.series:
            image = plot(name, result, plots)
            if image is not None:
                details.append(f"![{name}]({plots.name}/{image.name})\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([*lines, "", "## Details", "", *details]) + "\n", encoding="utf-8")
