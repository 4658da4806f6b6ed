"""The README's examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def test_quick_example_runs() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Quick example") :]
    start = section.index("```python") + len("```python")
    code = section[start : section.index("```", start)]
    namespace: dict[str, object] = {}
    exec(compile(code, "README quick example", "exec"), namespace)
    assert "res" in namespace


def test_every_self_contained_python_block_runs() -> None:
    """Every python block that needs no code of the reader's (``my_solver``) runs; the import
    example's LP value of matching pennies is 0."""
    blocks = [b for b in _BLOCK.findall(README.read_text(encoding="utf-8")) if "my_" not in b]
    assert len(blocks) >= 2
    namespaces = []
    for i, code in enumerate(blocks):
        namespace: dict[str, object] = {}
        exec(compile(code, f"README python block {i}", "exec"), namespace)
        namespaces.append(namespace)
    solution = next(ns["sol"] for ns in namespaces if "sol" in ns)
    assert abs(solution.value) < 1e-12  # type: ignore[attr-defined]
