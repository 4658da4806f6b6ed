"""Which documented keywords of the public algorithms the parameter-effect tables leave out.

Every catalogued algorithm (``verifiedref list``) is inspected with :func:`inspect.signature`;
its *keywords* are the parameters that have a default or are keyword-only (the options a caller
may set; positional inputs without a default are the problem's data).  Each keyword must sit in
exactly one table of ``tests/_param_mutants.py``: a generated mutant (:data:`PARAM_EFFECTS`),
documented as not changing the result (:data:`NEUTRAL`), or not checked yet with the reason
(:data:`UNCHECKED`).  A keyword in none of them is *silent*; ``tests/test_param_mutants.py``
asserts there are none.

``python -m tests._param_scan`` prints the counts and the silent keywords.
"""

from __future__ import annotations

import inspect
from pkgutil import resolve_name

from properties._registry import all_algorithms
from tests._param_mutants import NEUTRAL, PARAM_EFFECTS, UNCHECKED

__all__ = ["keywords", "silent"]


def keywords() -> tuple[tuple[str, str], ...]:
    """(algorithm, keyword) for every catalogued algorithm and each of its keywords, in
    catalogue order then signature order."""
    out: list[tuple[str, str]] = []
    for algorithm in all_algorithms():
        function = resolve_name(algorithm.function)
        for name, parameter in inspect.signature(function).parameters.items():
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                continue
            if (
                parameter.default is not inspect.Parameter.empty
                or parameter.kind is parameter.KEYWORD_ONLY
            ):
                out.append((algorithm.function, name))
    return tuple(dict.fromkeys(out))


def silent() -> tuple[tuple[str, str], ...]:
    """The keywords in none of the three tables."""
    listed = {(e.algorithm, e.keyword) for e in PARAM_EFFECTS}
    listed |= {(a, k) for a, k, _ in NEUTRAL}
    listed |= {(a, k) for a, k, _ in UNCHECKED}
    return tuple(pair for pair in keywords() if pair not in listed)


def counts() -> dict[str, int]:
    """Algorithms and keywords scanned, and how the tables classify them."""
    scanned = keywords()
    effects = {(e.algorithm, e.keyword) for e in PARAM_EFFECTS}
    return {
        "algorithms": len({a for a, _ in scanned}),
        "keywords": len(scanned),
        "keywords with a mutant": len(effects),
        "mutants": len(PARAM_EFFECTS),
        "neutral": len(NEUTRAL),
        "unchecked": len(UNCHECKED),
        "silent": len(silent()),
    }


if __name__ == "__main__":
    for name, value in counts().items():
        print(f"{name}: {value}")
    for algorithm, keyword in silent():
        print(f"silent: {algorithm} {keyword}")
