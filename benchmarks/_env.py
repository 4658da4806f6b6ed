"""Shared benchmark environment: BLAS threads pinned, kernel and load recorded (issue 20).

Every benchmark module imports this helper.  :func:`pin_blas` limits every BLAS that
threadpoolctl sees (numpy's and scipy's OpenBLAS) to ``threads`` threads; it imports
``scipy.linalg`` first, because threadpoolctl only limits libraries already loaded.
:func:`environment_line` is the line a results table starts with: BLAS library, kernel
(threadpoolctl's ``architecture``) and threads, ``OPENBLAS_CORETYPE`` (unset means numpy's
native kernel; :mod:`benchmarks` removes a forced one before numpy loads unless
``BENCH_KEEP_CORETYPE=1``) and the load average.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = [
    "blas_summary",
    "environment_line",
    "environment_table",
    "load_average",
    "pin_blas",
]

_LIMITER: list[Any] = []  # keeps the threadpoolctl limiter alive for the process


def pin_blas(threads: int = 1) -> str:
    """Limit BLAS to ``threads`` threads (numpy and scipy) and return :func:`blas_summary`."""
    importlib.import_module("numpy")
    importlib.import_module("scipy.linalg")
    try:
        threadpoolctl = importlib.import_module("threadpoolctl")
    except ImportError:  # pragma: no cover - threadpoolctl is in the dev environment
        return blas_summary()
    _LIMITER.append(threadpoolctl.threadpool_limits(limits=threads, user_api="blas"))
    return blas_summary()


def blas_summary() -> str:
    """``lib version kernel K, N thread(s)`` for each BLAS threadpoolctl reports."""
    core = os.environ.get("OPENBLAS_CORETYPE", "unset")
    removed = importlib.import_module("benchmarks").REMOVED_CORETYPE
    if removed is not None:
        core = f"unset (the environment's {removed} removed before numpy loaded: native kernel)"
    try:
        threadpoolctl = importlib.import_module("threadpoolctl")
    except ImportError:  # pragma: no cover
        return f"threadpoolctl unavailable; OPENBLAS_CORETYPE={core}"
    libs = [
        f"{d.get('internal_api')} {d.get('version')} kernel {d.get('architecture')} "
        f"{d.get('num_threads')} thread(s) ({Path(str(d.get('filepath'))).name})"
        for d in threadpoolctl.threadpool_info()
        if d.get("user_api") == "blas"
    ]
    return f"BLAS: {'; '.join(libs) or 'none loaded'}; OPENBLAS_CORETYPE={core}"


def load_average() -> str:
    """``load average a b c`` (1, 5, 15 minutes) or a note that it is unavailable."""
    try:
        return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:  # pragma: no cover - not on Linux
        return "load average unavailable"


def environment_line() -> str:
    """One line for a results table header: BLAS, kernel, threads, cores and load."""
    return f"{blas_summary()}; {os.cpu_count()} cores; {load_average()}"


def write_table(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write a results table with :func:`environment_line` after its first line.

    The first line is usually the ``# title``; a table without one gets the line on top.
    """
    head, sep, rest = text.partition("\n")
    line = (
        f"Environment ({os.environ.get('BENCH_ENV_NOTE', 'at write time')}): {environment_line()}"
    )
    out = f"{head}\n\n{line}\n{sep and rest}" if head.startswith("#") else f"{line}\n\n{text}"
    Path(path).write_text(out, encoding=encoding)


def environment_table(intro: list[str], header: str, rows: Iterable[str]) -> str:
    """``intro``, :func:`environment_line` before the run, ``header`` (a markdown header row)
    with its rule, each of ``rows`` (printed as it is computed: pass a generator), and the
    environment again after the run with its wall seconds."""
    env0, t0 = environment_line(), time.perf_counter()
    columns = header.count("|") - 1
    lines = [*intro, "", f"Before the run: {env0}.", "", header, "|---" * columns + "|"]
    for row in rows:
        lines.append(row)
        print(row, flush=True)
    lines += ["", f"After the run ({time.perf_counter() - t0:.0f} s wall): {environment_line()}."]
    return "\n".join(lines) + "\n"
