"""Numeric and symbolic checks of the papers' theorems.

One module per paper; each registers its checks with
:func:`proofs_numeric.register`.  Every check runs the algorithm, measures the
quantity, computes the bound from the same instance and returns a frozen
:class:`proofs_numeric.BoundCheck`.  ``verifiedref prove`` runs them all.
"""

from proofs_numeric._registry import (
    ProveProfile,
    TheoremEntry,
    all_theorems,
    allowance,
    impl,
    register,
    substituted,
    worst,
)
from proofs_numeric._result import BoundCheck, Sense

__all__ = [
    "BoundCheck",
    "ProveProfile",
    "Sense",
    "TheoremEntry",
    "all_theorems",
    "allowance",
    "impl",
    "register",
    "substituted",
    "worst",
]
