"""No import cycle anywhere in the library (contract (f) of ``pyproject.toml``, run here too):
an import by literal name (``importlib.import_module("properties.catalogue.games")``) counts."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest

from tests._contracts import import_cycles, import_edges

ROOTS = ("reference", "properties", "proofs_numeric", "verifiedref")


def test_the_library_has_no_import_cycle() -> None:
    graph = grimp.build_graph(*ROOTS, cache_dir=None)
    edges = import_edges(graph, ROOTS)
    assert "properties._registry" in edges["properties.hard_input"]
    assert import_cycles(edges) == []


def test_cycles_are_found_through_function_level_and_named_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "cyclepkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "a.py").write_text("def f():\n    from cyclepkg import b\n", encoding="utf-8")
    (package / "b.py").write_text(
        "import importlib\n\nTABLE = importlib.import_module('cyclepkg.a')\n", encoding="utf-8"
    )
    (package / "c.py").write_text("import cyclepkg.a\n", encoding="utf-8")
    (package / "d.py").write_text(
        "import importlib\n\nNAME = 'a'\nm = importlib.import_module(f'cyclepkg.{NAME}')\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("cyclepkg", cache_dir=None)
    edges = import_edges(graph, ["cyclepkg"])
    assert edges["cyclepkg.d"] == set()  # a name built at run time is discovery, not an import
    assert import_cycles(edges) == [["cyclepkg.a", "cyclepkg.b"]]


def test_cycle_finder_on_a_small_graph() -> None:
    graph = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": [], "e": ["e"], "f": ["g"]}
    graph["g"] = ["f", "a"]
    assert import_cycles(graph) == [["a", "b", "c"], ["e"], ["f", "g"]]
    assert import_cycles({"a": ["b"], "b": []}) == []
