"""The documentation site's inputs are complete: every family has its paper and its example.

The site itself (``docs/``) is built with warnings as errors and its examples run by
``python3 dev.py test`` (``dev.py docs`` alone); these tests need no Sphinx.
"""

from __future__ import annotations

from pathlib import Path

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
