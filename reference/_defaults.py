"""The keyword defaults a callable declares, for a fast path to take its reference's.

A fast path repeats its reference's signature; rather than writing each default again (a copy
that agrees today and drifts tomorrow) it reads them from the reference's declaration:

>>> def solve(a, *, tol=1e-10, max_iter=300):
...     return a
>>> declared = defaults_of(solve)
>>> declared
{'tol': 1e-10, 'max_iter': 300}
>>> def fast_solve(a, *, tol=declared["tol"], max_iter=declared["max_iter"]):
...     return a
>>> import inspect
>>> str(inspect.signature(fast_solve))
'(a, *, tol=1e-10, max_iter=300)'

A class's defaults are its ``__init__``'s (a dataclass: its fields' defaults).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

__all__ = ["defaults_of"]


def defaults_of(declaration: Callable[..., object]) -> dict[str, Any]:
    """``keyword -> default`` for each keyword of ``declaration``'s signature that has one."""
    return {
        name: p.default
        for name, p in inspect.signature(declaration).parameters.items()
        if p.default is not inspect.Parameter.empty
    }
