"""The parameter-effect table (issue 36, item 2) is consistent with the library: every row names
a real keyword of a real algorithm, and no keyword is both caught and listed as neutral or
unchecked, and every catalogued keyword is in one of the tables.  (Whether each generated
mutant is caught runs in ``tests/test_proof_mutants.py``.)"""

from __future__ import annotations

import inspect
from pathlib import Path
from pkgutil import resolve_name

from tests._param_mutants import NEUTRAL, PARAM_EFFECTS, UNCHECKED
from tests._param_scan import silent


def test_every_row_names_a_documented_keyword() -> None:
    rows = [(e.algorithm, e.keyword) for e in PARAM_EFFECTS]
    rows += [(a, k) for a, k, _ in NEUTRAL] + [(a, k) for a, k, _ in UNCHECKED]
    for algorithm, keyword in rows:
        function = resolve_name(algorithm)
        assert keyword in inspect.signature(function).parameters, (algorithm, keyword)
        assert keyword in (function.__doc__ or ""), f"{algorithm}: {keyword} is not documented"


def test_caught_neutral_and_unchecked_are_disjoint() -> None:
    caught = {(e.algorithm, e.keyword) for e in PARAM_EFFECTS}
    neutral = {(a, k) for a, k, _ in NEUTRAL}
    unchecked = {(a, k) for a, k, _ in UNCHECKED}
    assert not caught & neutral
    assert not caught & unchecked
    assert not neutral & unchecked
    assert len(unchecked) == len(UNCHECKED)


def test_no_keyword_is_silent() -> None:
    """Every keyword of every catalogued algorithm (a parameter with a default, or
    keyword-only) is in exactly one table: a generated mutant, neutral with the reason, or
    unchecked with the reason (``python -m tests._param_scan`` lists the silent ones)."""
    assert silent() == ()


def test_every_unclassified_reason_is_given() -> None:
    for algorithm, keyword, reason in (*NEUTRAL, *UNCHECKED):
        assert len(reason.split()) >= 5, (algorithm, keyword, reason)


def test_shipped_markdown_matches_the_tables() -> None:
    """``benchmarks/results/param_effects.md`` is ``python -m tests._param_mutants``'s output."""
    from tests._param_mutants import _markdown

    shipped = Path(__file__).resolve().parents[1] / "benchmarks/results/param_effects.md"
    assert shipped.read_text(encoding="utf-8") == _markdown(), (
        "regenerate: python -m tests._param_mutants > benchmarks/results/param_effects.md"
    )
