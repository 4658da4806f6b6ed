"""Speed comparisons against baselines, run side by side in one process.

The scripts and their headline figures: docs/guides/development.md, "Benchmarks and experiments".

Benchmark hygiene (issue 20): benchmarks run with numpy's native OpenBLAS kernel unless told
otherwise.  Some environments force a kernel through ``OPENBLAS_CORETYPE`` (this machine's sets
``Haswell``, which made the games benchmark 1.4x slower than the native ``SkylakeX`` kernel);
OpenBLAS reads the variable once, when numpy loads it, so this package removes it from the
environment before any benchmark imports numpy (``python -m benchmarks.<name>`` imports this
package first).  Set ``BENCH_KEEP_CORETYPE=1`` to keep a forced kernel.
:func:`benchmarks._env.blas_summary` records what happened and the kernel OpenBLAS chose
(threadpoolctl), so every table says which kernel it ran with.
"""

from __future__ import annotations

import os
import sys

#: The ``OPENBLAS_CORETYPE`` removed from the environment before numpy loaded (``None``: none).
REMOVED_CORETYPE: str | None = None

if (
    "OPENBLAS_CORETYPE" in os.environ
    and not os.environ.get("BENCH_KEEP_CORETYPE")
    and "numpy" not in sys.modules
):
    REMOVED_CORETYPE = os.environ.pop("OPENBLAS_CORETYPE")
