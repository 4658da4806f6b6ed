"""The README's quick examples run as written."""

from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_quick_examples_run() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Quick examples per family") :]
    start = section.index("```python") + len("```python")
    code = section[start : section.index("```", start)]
    namespace: dict[str, object] = {}
    exec(compile(code, "README quick examples", "exec"), namespace)
    assert "res" in namespace
