"""``verifiedref list``: the algorithms, their suites and theorem checks, and the checks' evidence."""

from __future__ import annotations

import argparse
import json
import textwrap
from collections.abc import Sequence
from typing import Any, TextIO

from properties._cli.tables import plain_table, wrapped_table
from properties._registry import (
    all_algorithms,
    all_suites,
    bad_input_cases,
    import_errors,
    uncovered_algorithms,
)

__all__ = ["cmd_list", "evidence"]


def _list_import_errors(err: TextIO) -> int:
    """Report family modules that failed to import (their rows are missing); 2 if any."""
    from proofs_numeric._registry import import_errors as theorem_import_errors

    errors = {**import_errors(), **theorem_import_errors()}
    for module, error in errors.items():
        print(f"verifiedref list: cannot import {module}: {error}", file=err)
    return 2 if errors else 0


def evidence(entry: Any, record: dict[str, tuple[str, ...]]) -> str:
    """What a theorem check is worth as evidence: "sanity" (calls no library code), "no teeth"
    (no mutant in its family's table is known to fail it), else the number of mutants it catches."""
    if entry.sanity:
        return "sanity"
    caught = len(record.get(entry.name, ()))
    if not caught:
        return "no teeth"
    return f"{caught} mutant{'s' if caught > 1 else ''}"


def _slack_summary(slacks: dict[str, dict[str, object]], names: Sequence[str]) -> str:
    """One line on the slack column: what it means and how many rows exceed the limit."""
    from proofs_numeric._slack import LIMIT, slack_value

    above = [n for n in names if slack_value(slacks, n) > LIMIT]
    unexplained = [n for n in above if not slacks[n].get("reason")]
    return (
        "slack: bound/measured of the tightest sub-check on the reference (quick profile;\n"
        f"  'exact': an identity, '*': reason recorded): {len(above)} above {LIMIT:g}, "
        f"{len(unexplained)} without a reason"
    )


def _uncovered_summary() -> str:
    """One line on the algorithms no theorem check exercises, by kind."""
    from collections import Counter

    uncovered = uncovered_algorithms()
    kinds = Counter(uncovered.values())
    parts = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
    return (
        f"algorithms without a theorem check: {len(uncovered)}, by kind (UNCOVERED in "
        f"properties/catalogue/<family>.py):\n  {parts}"
    )


def cmd_list(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from proofs_numeric import all_theorems
    from proofs_numeric._registry import teeth

    theorems = all_theorems()
    record = teeth()
    if args.checks:
        from proofs_numeric._slack import slack_cell, slack_record

        slacks = slack_record()
        rows = [
            [t.name, evidence(t, record), slack_cell(slacks, t.name), t.theorem] for t in theorems
        ]
        headers = ["theorem check", "evidence", "slack", "anchor"]
        print(
            plain_table(headers, rows) if args.wide else wrapped_table(headers, rows, args.width),
            file=out,
        )
        print("", file=out)
        print(_slack_summary(slacks, [t.name for t in theorems]), file=out)
        print(_uncovered_summary(), file=out)
        toothless = [t.name for t in theorems if evidence(t, record) == "no teeth"]
        sanity = [t.name for t in theorems if t.sanity]
        print(
            f"{len(theorems)} checks: {len(theorems) - len(toothless) - len(sanity)} catch at least "
            f"one mutant, {len(toothless)} no teeth, {len(sanity)} sanity (not evidence)",
            file=out,
        )
        return _list_import_errors(err)
    if args.markdown:
        print("| family | algorithm | entry point | suites | theorem checks |", file=out)
        print("|---|---|---|---|---|", file=out)
        for algo in all_algorithms():
            checks = [t.name for t in theorems if algo.function in t.algorithms]
            print(
                f"| {algo.family} | {algo.name} | `{algo.function}` | "
                f"{', '.join(f'`{s}`' for s in algo.suites) or '—'} | "
                f"{', '.join(f'`{c}`' for c in checks) or '—'} |",
                file=out,
            )
        return _list_import_errors(err)
    rows = []
    for algo in all_algorithms():
        checks = [t.name for t in theorems if algo.function in t.algorithms]
        rows.append(
            [
                algo.family,
                algo.name,
                algo.function,
                ", ".join(algo.suites) or "-",
                ", ".join(checks) or "-",
            ]
        )
    suites = all_suites()
    if args.json:
        listing = {
            "algorithms": [
                {
                    "family": algo.family,
                    "algorithm": algo.name,
                    "function": algo.function,
                    "suites": list(algo.suites),
                    "theorem_checks": [t.name for t in theorems if algo.function in t.algorithms],
                }
                for algo in all_algorithms()
            ],
            "suites": [
                {"suite": s.name, "checks": list(s.check_names()), "description": s.description}
                for s in suites.values()
            ],
            "theorem_checks": [
                {
                    "name": t.name,
                    "paper": t.paper,
                    "anchor": t.theorem,
                    "evidence": evidence(t, record),
                    "mutants_caught": list(record.get(t.name, ())),
                }
                for t in theorems
            ],
            "bad_input_cases": [c.name for c in bad_input_cases()],
        }
        print(json.dumps(listing, indent=1), file=out)
        return _list_import_errors(err)

    def table(headers: Sequence[str], body: Sequence[Sequence[str]]) -> str:
        return plain_table(headers, body) if args.wide else wrapped_table(headers, body, args.width)

    if args.wide:
        print(
            plain_table(
                ["family", "algorithm", "module:function", "suites", "theorem checks"], rows
            ),
            file=out,
        )
    else:  # one record per algorithm: identifiers whole, lists wrapped under a hanging indent
        print("algorithms (module:function  name; suites; theorem checks)", file=out)
        for _family, name, function, suite_names, theorem_names in rows:
            print(textwrap.shorten(f"{function}  {name}", args.width, placeholder="..."), file=out)
            for key, value in (("suites", suite_names), ("theorem checks", theorem_names)):
                if value != "-":
                    print(
                        textwrap.fill(
                            f"{key}: {value}",
                            args.width,
                            initial_indent="    ",
                            subsequent_indent="      ",
                            break_long_words=False,
                            break_on_hyphens=False,
                        ),
                        file=out,
                    )
    print(file=out)
    print(
        table(
            ["suite", "checks", "description"],
            [[s.name, str(len(s.checks)), s.description] for s in suites.values()],
        ),
        file=out,
    )
    print(file=out)
    print(
        table(
            ["theorem check", "evidence", "paper", "anchor"],
            [[t.name, evidence(t, record), t.paper, t.theorem] for t in theorems],
        ),
        file=out,
    )
    print(file=out)
    print(f"bad-input cases: {len(bad_input_cases())} public functions registered", file=out)
    return _list_import_errors(err)
