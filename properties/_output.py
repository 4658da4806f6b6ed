"""Terminal output of the command line: the width to fit."""

from __future__ import annotations

import re
import shutil
import textwrap

__all__ = ["DEFAULT_WIDTH", "fit_report", "terminal_width"]

#: Columns used when the terminal's width is unknown (output piped to a file).
DEFAULT_WIDTH = 100


def terminal_width() -> int:
    """``$COLUMNS``, else the terminal's width, else :data:`DEFAULT_WIDTH` (at least 60).

    >>> import os
    >>> os.environ["COLUMNS"] = "120"; terminal_width()
    120
    >>> del os.environ["COLUMNS"]
    """
    return max(60, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)


_CHECK_LINE = re.compile(r"^(  [A-Z]+ +\S+)  \[(.*)\]  (.*)$")


def fit_report(text: str, width: int) -> str:
    """A suite report with its check lines fitted to ``width``: a line too long keeps status,
    name, bounds and time, and its anchor moves to the next lines.  Messages, draws and
    snippets are left as they are (a snippet must stay pasteable).

    >>> line = "  FAILED   gap  [" + "an anchor " * 8 + "]  bound 1e-06  0.21s"
    >>> print(fit_report(line, 60))
      FAILED   gap  bound 1e-06  0.21s
          [an anchor an anchor an anchor an anchor an anchor an
          anchor an anchor an anchor ]
    """
    out = []
    for line in text.splitlines():
        found = _CHECK_LINE.match(line)
        if found is None or len(line) <= width:
            out.append(line)
            continue
        head, anchor, tail = found.groups()
        out.append(f"{head}  {tail}")
        out.extend(
            textwrap.wrap(f"[{anchor}]", width, initial_indent="      ", subsequent_indent="      ")
        )
    return "\n".join(out)
