"""An import-linter contract of our own: no import cycle anywhere in the library.

The built-in ``acyclic_siblings`` contract looks at the siblings of each package; this one looks
at the whole graph of modules of the root packages (``reference``, ``properties``,
``proofs_numeric``, ``verifiedref``) and counts as an import, beside the ``import`` statements
grimp reads (module level or inside a function), every ``importlib.import_module("a.b")`` call
with a literal name: a module imported by name is a dependency all the same.  Names built at run
time (the registries' ``f"properties.{family}"``) are discovery, not counted.

Registered in ``pyproject.toml`` (``contract_types``) and run by ``lint-imports``;
``tests/test_import_cycles.py`` runs it in the test suite too.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterable, Mapping
from pathlib import Path

import grimp
from importlinter import Contract, ContractCheck, output

__all__ = ["AcyclicGraphContract", "import_cycles", "import_edges"]


def _module_file(module: str, homes: Mapping[str, Path]) -> Path | None:
    """The source file of ``module`` under its root package's folder (nothing is imported)."""
    root, *rest = module.split(".")
    base = homes[root].joinpath(*rest)
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def _named_imports(path: Path) -> set[str]:
    """Literal names passed to ``importlib.import_module`` / ``import_module`` in ``path``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        first = node.args[0]
        if (
            called == "import_module"
            and isinstance(first, ast.Constant)
            and isinstance(first.value, str)
        ):
            names.add(first.value)
    return names


def import_edges(graph: grimp.ImportGraph, roots: Iterable[str]) -> dict[str, set[str]]:
    """``importer -> imported`` among the modules of ``roots``: grimp's imports plus the
    imports by literal name."""
    roots = tuple(roots)
    homes: dict[str, Path] = {}
    for root in roots:
        spec = importlib.util.find_spec(root)  # a top-level name: found, not executed
        if spec is None or not spec.submodule_search_locations:
            raise ValueError(f"root_packages: {root!r} is not an importable package")
        homes[root] = Path(next(iter(spec.submodule_search_locations)))
    modules = {m for m in graph.modules if m.split(".")[0] in roots}
    edges = {m: set(graph.find_modules_directly_imported_by(m)) & modules for m in modules}
    for module in modules:
        path = _module_file(module, homes)
        if path is not None:
            edges[module] |= _named_imports(path) & modules
    return edges


def import_cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (or a module importing
    itself), each sorted, in sorted order (Tarjan's algorithm, iterative)."""
    succ = {m: sorted(set(v)) for m, v in edges.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(succ):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            recurse = False
            for j in range(i, len(succ.get(node, []))):
                nxt = succ[node][j]
                if nxt not in index:
                    work.append((node, j + 1))
                    work.append((nxt, 0))
                    recurse = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if recurse:
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in succ.get(node, []):
                    found.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(found)


class AcyclicGraphContract(Contract):
    """``type = "acyclic_graph"``: no cycle among the root packages' modules (see the module)."""

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        roots = self.session_options["root_packages"]
        edges = import_edges(graph, roots)
        cycles = import_cycles(edges)
        details = [
            [(a, b) for a in cycle for b in sorted(edges[a]) if b in cycle] for cycle in cycles
        ]
        return ContractCheck(kept=not cycles, warnings=[], metadata={"cycles": details})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for imports in check.metadata["cycles"]:
            output.print_error("Import cycle:")
            for importer, imported in imports:
                output.print_error(f"-   {importer} -> {imported}", bold=False)
            output.new_line()
