"""Terminal output of the command line: the width to fit."""

from __future__ import annotations

import shutil

__all__ = ["DEFAULT_WIDTH", "terminal_width"]

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
