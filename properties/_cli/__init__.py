"""The ``verifiedref`` command line: ``list``, ``prove``, ``describe`` and ``crosscheck``.

Exit codes: 0 success, 1 a check or theorem failed, 2 usage or import error.  One module per
command; none of them knows a suite by name (suites declare what the command line needs).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from properties._cli.crosscheck import cmd_crosscheck
from properties._cli.describe import cmd_describe
from properties._cli.listing import cmd_list
from properties._cli.parser import build_parser
from properties._cli.prove import cmd_prove
from properties._output import terminal_width

__all__ = ["main"]


def main(
    argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Entry point of the ``verifiedref`` console script; returns the exit code."""
    stdout = out if out is not None else sys.stdout
    stderr = err if err is not None else sys.stderr
    try:
        args = build_parser().parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # argparse: usage error (2) or --help (0)
        return int(exc.code) if isinstance(exc.code, int) else 2
    if getattr(args, "width", 0) is None:
        args.width = terminal_width()
    if args.command == "list":
        return cmd_list(args, stdout, stderr)
    if args.command == "prove":
        return cmd_prove(args, stdout, stderr)
    if args.command == "describe":
        return cmd_describe(args, stdout, stderr)
    return cmd_crosscheck(args, stdout, stderr)
