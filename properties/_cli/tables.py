"""Plain-text tables for the command line: cells wrapped to the terminal's width."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence

__all__ = ["fmt", "plain_table", "wrapped_table"]


def fmt(value: float) -> str:
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return str(value)
    if value == 0:
        return "0"
    if 1e-3 <= abs(value) < 1e5:
        return f"{value:.6g}"
    return f"{value:.3e}"


def plain_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)
    ]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(out)


def wrapped_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    width: int,
    *,
    fixed: dict[int, int] | None = None,
    breakable: frozenset[int] = frozenset(),
) -> str:
    """:func:`plain_table` with cells wrapped so that no line is longer than ``width``.

    The widest column gives up one character at a time until the table fits, never below its
    header or its longest word (identifiers stay whole); cells then wrap at spaces.  Columns in
    ``fixed`` (index -> width) keep that width whatever they hold (times: the layout must not
    depend on how long a run took).  Columns in ``breakable`` (prose) may break long words when
    nothing else can give.
    """
    fixed = fixed or {}
    widths = [
        fixed.get(i) or (max(len(h), *(len(r[i]) for r in rows)) if rows else len(h))
        for i, h in enumerate(headers)
    ]
    floor = [
        fixed.get(i) or max([len(h), *(len(word) for r in rows for word in r[i].split())])
        for i, h in enumerate(headers)
    ]
    budget = width - 2 * (len(headers) - 1)
    while sum(widths) > budget:
        shrinkable = [i for i, w in enumerate(widths) if w > floor[i]]
        for least in (8, 0):  # prose gives way to 8 columns, then to its header's width
            if shrinkable:
                break
            shrinkable = [i for i in breakable if widths[i] > max(len(headers[i]), least)]
            for i in shrinkable:
                floor[i] = max(len(headers[i]), least)
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: widths[i])
        widths[widest] -= 1
    out = [
        "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip(),
        "  ".join("-" * w for w in widths),
    ]
    for row in rows:
        cells = [
            textwrap.wrap(c, w, break_on_hyphens=False, break_long_words=i in breakable) or [""]
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        for k in range(max(len(c) for c in cells)):
            parts = [
                (c[k] if k < len(c) else "").ljust(w) for c, w in zip(cells, widths, strict=True)
            ]
            out.append("  ".join(parts).rstrip())
    return "\n".join(out)
