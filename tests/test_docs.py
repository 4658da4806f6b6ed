"""The documentation site's inputs are complete: every family has its paper and its example.

The site itself (``docs/``) is built with warnings as errors and its examples run by
``python3 dev.py test`` (``dev.py docs`` alone); these tests need no Sphinx.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from reference._families import FAMILIES
from reference._papers import FAMILY_PAPERS, PAPERS

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_family_has_its_papers() -> None:
    assert set(FAMILY_PAPERS) == set(FAMILIES)
    used = {spec for specs in FAMILY_PAPERS.values() for spec in specs}
    assert used == set(PAPERS) == set(range(1, 20))
    for spec, paper in PAPERS.items():
        assert paper.spec == spec
        assert paper.title
        assert paper.authors
        assert paper.sources
        assert paper.venue.startswith("ICML 2026")


def test_every_family_has_a_worked_example_that_is_a_doctest() -> None:
    for family in FAMILIES:
        text = (DOCS / "examples" / f"{family}.rst").read_text(encoding="utf-8")
        assert ".. doctest::" in text, family
        assert f"from reference.{family} import" in text or f"from reference import {family}" in (
            text
        ), family


def test_no_generated_file_is_committed_in_the_sources() -> None:
    """The generated pages live in docs/generated/, which git ignores."""
    ignored = (DOCS.parent / ".gitignore").read_text(encoding="utf-8").split()
    assert "docs/generated/" in ignored
    assert "docs/_build/" in ignored


def _pages() -> Any:
    """The site's page generator (docs/_ext/vr_pages.py); skipped without the docs extra."""
    pytest.importorskip("sphinx")
    spec = importlib.util.spec_from_file_location("vr_pages", DOCS / "_ext" / "vr_pages.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_family_pages_hold_every_suite_and_theorem_check_with_its_evidence() -> None:
    from proofs_numeric._registry import all_theorems, teeth
    from properties._registry import all_suites

    pages = _pages()
    reg = pages.Registry()
    api = pages.Api(pages.api_groups(FAMILIES))
    record = teeth()
    for family in ("games", "tsp"):
        text = pages.family_page(family, reg, api, DOCS / "examples")
        suites = [s for s in all_suites() if s.startswith(family + ".")]
        assert suites
        for suite in suites:
            assert f".. _{pages.label('suite', suite)}:" in text
        for entry in all_theorems(family):
            assert f".. _{pages.label('check', entry.name)}:" in text
            for mutant in record.get(entry.name, ()):
                assert pages.code(mutant) in text
        assert f".. include:: /examples/{family}.rst" in text
        assert PAPERS[FAMILY_PAPERS[family][0]].authors[0] in text


def test_api_documents_each_public_object_once_under_its_shortest_path() -> None:
    from reference.games import solve_lp

    pages = _pages()
    api = pages.Api(pages.api_groups(FAMILIES))
    assert api.path_of(solve_lp) == "reference.games.solve_lp"  # not reference.games.lp
    documented = [name for members in api.members.values() for name, _ in members]
    assert len(documented) > 1000
    text = pages.algorithms_page(pages.Registry(), api)
    from properties._registry import all_algorithms

    assert text.count("   * - :ref:`") == len(all_algorithms())
