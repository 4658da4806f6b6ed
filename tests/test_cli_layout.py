"""The command line is small modules that know no suite: what a suite needs from the command
line (registered cases for ``--like``, foreign targets, torch modules, describe notes) is
declared on the suite, and the command line reads those declarations.

The *CLI layer* is ``properties/_cli/``, the runner (``properties/_runner*``), the catalogue
(``properties/catalogue/``), ``verifiedref/`` and every module of ``properties``/``verifiedref``
that these import (module-level or inside a function) to run suites.  Each is at most
:data:`LONGEST` lines, and none names a suite or a family in its code (docstrings may, as
examples): a family's own catalogue module declares its rows (which suites check an algorithm)
but never branches on a name.
"""

from __future__ import annotations

import ast
from pathlib import Path

from properties._registry import all_suites
from reference._families import FAMILIES

ROOT = Path(__file__).resolve().parents[1]
LONGEST = 500

#: Modules of the CLI layer allowed over :data:`LONGEST` lines, with the reason.
TOO_LONG_ALLOWED: dict[str, str] = {}

#: ``(module, name)`` literals of a suite or family that must stay, with the reason.
NAMES_ALLOWED: dict[tuple[str, str], str] = {
    ("properties/_registry.py", "bad_input"): "the registry lists the two generic suite "
    "modules beside the families (FAMILIES lists the families only)",
    ("properties/_registry.py", "hard_input"): "as bad_input",
}


def _module_path(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    return None


def _imported(path: Path, name: str) -> set[str]:
    """The ``properties``/``verifiedref`` modules ``path`` (module ``name``) imports, anywhere
    in its code, and the packages above them (importing a module runs its packages)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    modules: set[str] = set()
    for item in found:
        if item.split(".")[0] not in ("properties", "verifiedref"):
            continue
        while item and _module_path(item) is None:  # `from pkg import name`: name is no module
            item = item.rpartition(".")[0]
        while item:
            modules.add(item)
            item = item.rpartition(".")[0]
    return modules


def cli_layer() -> dict[str, Path]:
    """The CLI layer's modules: relative path -> path."""
    starts = {"verifiedref._launch", "properties._cli"}
    globs = ("properties/_cli/*.py", "properties/_runner*.py", "properties/catalogue/*.py")
    paths = {p for pattern in (*globs, "verifiedref/*.py") for p in ROOT.glob(pattern)}
    seen: set[str] = set()
    todo = sorted(starts)
    while todo:
        name = todo.pop()
        path = _module_path(name)
        if name in seen or path is None:
            continue
        seen.add(name)
        paths.add(path)
        todo.extend(_imported(path, name) - seen)
    return {p.relative_to(ROOT).as_posix(): p for p in sorted(paths)}


def _docstrings(tree: ast.Module) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _branching(tree: ast.Module) -> set[int]:
    """Constants that decide a branch: in a comparison, a test, a match pattern, a subscript,
    or as a key of a dict literal (a lookup table keyed by name)."""
    ids: set[int] = set()
    for node in ast.walk(tree):
        roots: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            roots = [node]
        elif isinstance(node, ast.If | ast.While | ast.IfExp):
            roots = [node.test]
        elif isinstance(node, ast.match_case):
            roots = [node.pattern]
        elif isinstance(node, ast.Subscript):
            roots = [node.slice]
        elif isinstance(node, ast.Dict):
            roots = [k for k in node.keys if k is not None]
        for root in roots:
            ids.update(id(n) for n in ast.walk(root) if isinstance(n, ast.Constant))
    return ids


def suite_literals(path: Path, names: set[str], *, declarations: bool) -> list[tuple[int, str]]:
    """``(line, literal)`` of the string constants of ``path`` naming a suite or family
    (``names``; a string ``"family."`` counts too), docstrings left out; with
    ``declarations`` only those that decide a branch."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    branching = _branching(tree)
    prefixes = {f"{name.split('.')[0]}." for name in names}
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        if id(node) in skip or (declarations and id(node) not in branching):
            continue
        if node.value in names or node.value in prefixes:
            out.append((node.lineno, node.value))
    return sorted(out)


def _names() -> set[str]:
    return {*all_suites(), *FAMILIES, "bad_input", "hard_input"}


def test_the_cli_layer_is_what_the_command_line_runs() -> None:
    layer = cli_layer()
    for expected in (
        "properties/_cli/crosscheck.py",
        "properties/_runner.py",
        "properties/_run_check.py",
        "properties/_registry.py",
        "properties/adapters/torch_optim.py",
        "properties/catalogue/games.py",
        "verifiedref/_launch.py",
    ):
        assert expected in layer
    assert not any(path.startswith("properties/games") for path in layer)  # suites are not


def test_no_cli_layer_module_is_over_500_lines() -> None:
    sizes = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, path in cli_layer().items()
    }
    over = {n: s for n, s in sizes.items() if s > LONGEST and n not in TOO_LONG_ALLOWED}
    assert not over, f"split these by concept (at most {LONGEST} lines): {over}"
    stale = {n for n in TOO_LONG_ALLOWED if sizes.get(n, 0) <= LONGEST}
    assert not stale, f"no longer over {LONGEST} lines: drop from TOO_LONG_ALLOWED: {stale}"


def test_no_cli_layer_module_names_a_suite() -> None:
    names = _names()
    found: dict[str, list[tuple[int, str]]] = {}
    used: set[tuple[str, str]] = set()
    for name, path in cli_layer().items():
        own_catalogue = name.startswith("properties/catalogue/") and path.stem in FAMILIES
        hits = suite_literals(path, names, declarations=own_catalogue)
        used.update((name, literal) for _, literal in hits)
        hits = [(line, lit) for line, lit in hits if (name, lit) not in NAMES_ALLOWED]
        if hits:
            found[name] = hits
    assert not found, f"suite or family names in code: declare them on the suite: {found}"
    assert set(NAMES_ALLOWED) <= used, set(NAMES_ALLOWED) - used


def test_the_layout_test_would_notice_a_suite_name(tmp_path: Path) -> None:
    names = _names()
    module = tmp_path / "branchy.py"
    module.write_text(
        '"""Docstrings may say games.solver."""\n\n'
        "def f(suite, table):\n"
        '    if suite.name == "optimizers.sam":\n'
        "        return 1\n"
        '    return {"tsp": 2}[table] + len(("games.solver",))\n',
        encoding="utf-8",
    )
    assert suite_literals(module, names, declarations=False) == [
        (4, "optimizers.sam"),
        (6, "games.solver"),
        (6, "tsp"),
    ]
    assert suite_literals(module, names, declarations=True) == [(4, "optimizers.sam"), (6, "tsp")]
