"""How much code a reader needs to check ``sweep_decode`` against spec 10 (issue 16).

    .venv/bin/python -m benchmarks.tsp_reader_lines [--root DIR]

Counts code lines (no docstrings, comments or blank lines) of

* ``files``: the whole of ``reference/tsp/decode.py`` and ``reference/tsp/matching.py`` plus the
  definitions of ``reference/tsp/base.py`` they use (transitively);
* ``closure``: only the top-level definitions reachable from ``decode.sweep_decode`` by name
  (functions, classes, constants; across decode, matching and base), without imports.

``--root`` points at another checkout (e.g. ``git archive`` of an older commit) to measure it.
"""

from __future__ import annotations

import argparse
import ast
import io
import tokenize
from pathlib import Path

from benchmarks._env import pin_blas

MODULES = ("decode", "matching", "base")
_SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}


def _docstring_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                end = body[0].end_lineno or body[0].lineno
                lines.update(range(body[0].lineno, end + 1))
    return lines


def _code_lines(source: str, tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in _SKIP and token.type != tokenize.ENDMARKER:
            lines.update(range(token.start[0], token.end[0] + 1))
    return lines - _docstring_lines(tree)


def _definitions(tree: ast.Module) -> dict[str, ast.stmt]:
    out: dict[str, ast.stmt] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            out[node.name] = node
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node
    return out


def _imports(tree: ast.Module) -> dict[str, tuple[str, str]]:
    """Local name -> (module among MODULES, name there)."""
    out: dict[str, tuple[str, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            module = node.module.rsplit(".", 1)[-1]
            if node.module.startswith("reference.tsp.") and module in MODULES:
                for alias in node.names:
                    out[alias.asname or alias.name] = (module, alias.name)
    return out


def measure(root: Path) -> dict[str, int]:
    sources = {m: (root / "reference" / "tsp" / f"{m}.py").read_text() for m in MODULES}
    trees = {m: ast.parse(src) for m, src in sources.items()}
    code = {m: _code_lines(sources[m], trees[m]) for m in MODULES}
    defs = {m: _definitions(trees[m]) for m in MODULES}
    imports = {m: _imports(trees[m]) for m in MODULES}

    def closure(start: list[tuple[str, str]]) -> set[tuple[str, str]]:
        seen: set[tuple[str, str]] = set()
        todo = list(start)
        while todo:
            module, name = todo.pop()
            if (module, name) in seen or name not in defs[module]:
                continue
            seen.add((module, name))
            for node in ast.walk(defs[module][name]):
                if isinstance(node, ast.Name):
                    if node.id in imports[module]:
                        todo.append(imports[module][node.id])
                    else:
                        todo.append((module, node.id))
        return seen

    def lines_of(items: set[tuple[str, str]]) -> int:
        total: set[tuple[str, int]] = set()
        for module, name in items:
            node = defs[module][name]
            span = range(node.lineno, (node.end_lineno or node.lineno) + 1)
            decorators = getattr(node, "decorator_list", [])
            first = min([node.lineno, *(d.lineno for d in decorators)])
            span = range(first, span.stop)
            total.update((module, line) for line in span if line in code[module])
        return len(total)

    whole = [(m, name) for m in ("decode", "matching") for name in defs[m]]
    base_used = {item for item in closure(whole) if item[0] == "base"}
    files = len(code["decode"]) + len(code["matching"]) + lines_of(base_used)
    needed = closure([("decode", "sweep_decode")])
    return {
        "decode.py": len(code["decode"]),
        "matching.py": len(code["matching"]),
        "base (used)": lines_of(base_used),
        "files": files,
        "closure": lines_of(needed),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args(argv)
    for key, value in measure(args.root).items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    pin_blas(1)
    main()
