"""The parameter-effect table (issue 36, item 2) is consistent with the library: every row names
a real keyword of a real algorithm, and no keyword is both caught and listed as neutral or
unchecked, and every catalogued keyword is in one of the tables.  (Whether each generated
mutant is caught runs in ``tests/test_proof_mutants.py``.)"""

from __future__ import annotations

import inspect
import sys
import types
from pathlib import Path
from pkgutil import resolve_name

import pytest

import tests._param_mutants as param_module
from tests._param_mutants import NEUTRAL, PARAM_EFFECTS, UNCHECKED, family_tables
from tests._param_rows import ParamEffect, constant
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


def test_each_row_sits_in_its_familys_file() -> None:
    """A family's rows are in ``tests/<family>/param_effects.py``: each ``PARAM_EFFECTS`` row
    names that family, each ``NEUTRAL`` or ``UNCHECKED`` row an algorithm of its module, and the
    assembled tables hold every file's rows, in family order."""
    tables = family_tables()
    assert tables, "no family has a param_effects.py"
    for family, module in tables.items():
        for effect in getattr(module, "PARAM_EFFECTS", ()):
            assert effect.family == family, (family, effect.algorithm, effect.keyword)
        for algorithm, keyword, _ in (
            *getattr(module, "NEUTRAL", ()),
            *getattr(module, "UNCHECKED", ()),
        ):
            assert algorithm.split(":")[0].split(".")[1] == family, (family, algorithm, keyword)
    for table, assembled in (
        ("PARAM_EFFECTS", PARAM_EFFECTS),
        ("NEUTRAL", NEUTRAL),
        ("UNCHECKED", UNCHECKED),
    ):
        in_files = tuple(row for m in tables.values() for row in getattr(m, table, ()))
        assert assembled == in_files, table


def test_a_new_familys_file_is_discovered(monkeypatch: pytest.MonkeyPatch) -> None:
    """A family added to ``FAMILIES`` with its own ``param_effects.py`` reaches the tables with no
    shared edit; a family without the file (or without a ``tests/<family>/``) adds nothing."""
    effect = ParamEffect(
        family="newfamily",
        algorithm="reference.games:prm_plus",
        keyword="averaging",
        label="'last'",
        replace=constant("last"),
        where="a stand-in row",
        catches=(),
    )
    module = types.ModuleType("tests.newfamily.param_effects")
    module.PARAM_EFFECTS = (effect,)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tests.newfamily.param_effects", module)
    monkeypatch.setitem(sys.modules, "tests.nofile.param_effects", None)  # found no file
    monkeypatch.setattr(param_module, "FAMILIES", ("games", "nofolder", "nofile", "newfamily"))
    tables = family_tables()
    assert list(tables) == ["games", "newfamily"]
    assert tables["newfamily"] is module
