"""The registries find families by name: one suite imports one family, layers do not cycle."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
from pathlib import Path

import pytest

from properties._cli import main
from properties._registry import SUITE_MODULES, all_suites, get_suite, import_errors
from reference._families import FAMILIES

ROOT = Path(__file__).resolve().parents[1]
SUPPORT = {"adapters", "bad_input", "hard_input", "pytest_support", "strategies"}

_ISOLATION = """
import sys
import properties
from reference.games import solve_lp

def solver(payoff):
    result = solve_lp(payoff)
    return result.x, result.y

suite = properties.get_suite("games.solver")
skip = [name for name in suite.check_names() if name != "duality_gap"]
report = properties.run_suite(solver, "games.solver", profile="smoke", skip=skip)
assert report.ok, report.format()
for name in sorted(sys.modules):
    print(name)
"""


def test_running_one_suite_imports_its_family_only() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _ISOLATION], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    loaded = set(result.stdout.split())
    assert "properties.games" in loaded
    others = {f"properties.{f}" for f in FAMILIES if f != "games"} | {"properties.bad_input"}
    assert not loaded & others, sorted(loaded & others)
    assert not {m for m in loaded if m.startswith(("properties.catalogue", "proofs_numeric"))}
    assert "sympy" not in loaded


def test_a_broken_family_breaks_only_its_own_suites(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "properties.divergence", None)  # import now fails
    assert get_suite("games.solver").name == "games.solver"
    suites = all_suites()
    assert "games.solver" in suites
    assert not [name for name in suites if name.startswith("divergence.")]
    assert "properties.divergence" in import_errors()
    with pytest.raises(ImportError):
        get_suite("divergence.gaussian")
    out, err = io.StringIO(), io.StringIO()
    assert main(["list"], out=out, err=err) == 2
    assert "cannot import properties.divergence" in err.getvalue()
    assert "games.solver" in out.getvalue()


def test_unknown_suite_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"games\.solver"):
        get_suite("games.no_such_suite")
    with pytest.raises(ValueError, match=r"games\.solver"):
        get_suite("nosuchfamily.solver")


def test_every_suite_is_named_after_its_module() -> None:
    for module in SUITE_MODULES:
        for suite in __import__(f"properties.{module}", fromlist=["SUITES"]).SUITES:
            assert suite.name == module or suite.name.startswith(module + "."), suite.name
            assert get_suite(suite.name) is suite


def test_the_family_tuple_matches_the_files() -> None:
    modules = {p.stem for p in (ROOT / "properties").glob("*.py") if not p.stem.startswith("_")}
    assert modules - SUPPORT == set(FAMILIES)
    for family in FAMILIES:
        assert (ROOT / "properties" / "catalogue" / f"{family}.py").is_file(), family
        assert (ROOT / "proofs_numeric" / f"{family}.py").is_file(), family
        reference = ROOT / "reference" / family
        assert reference.is_dir() or reference.with_suffix(".py").is_file(), family
    assert import_errors() == {}


def _imports(path: Path) -> set[str]:
    """Absolute module names imported by ``path`` (at any depth, TYPE_CHECKING included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _package_files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def test_properties_and_proofs_numeric_do_not_import_each_other() -> None:
    for path in _package_files("properties"):
        if path.parent.name == "_cli":  # the command-line face may use both
            continue
        bad = {m for m in _imports(path) if m.split(".")[0] == "proofs_numeric"}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"
    for path in _package_files("proofs_numeric"):
        bad = {m for m in _imports(path) if m.split(".")[0] == "properties"}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"
    for path in _package_files("reference"):
        bad = {m for m in _imports(path) if m.split(".")[0] in ("properties", "proofs_numeric")}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_properties_modules_import_without_cycles() -> None:
    files = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
        for p in _package_files("properties")
    }
    graph = {
        module: {m for m in _imports(path) if m in files and m != "properties"}
        for module, path in files.items()
    }
    state: dict[str, int] = {}

    def visit(module: str, trail: tuple[str, ...]) -> None:
        if state.get(module) == 2:
            return
        assert state.get(module) != 1, f"import cycle: {' -> '.join((*trail, module))}"
        state[module] = 1
        for target in sorted(graph[module]):
            visit(target, (*trail, module))
        state[module] = 2

    for module in sorted(graph):
        visit(module, ())


def test_theorem_checks_that_call_no_library_code_are_labelled_sanity() -> None:
    # issue 17 / STYLE B7: a check that exercises no library code is "sanity", not evidence
    from proofs_numeric._registry import all_theorems, register

    entries = all_theorems()
    assert {e.name for e in entries if e.sanity} == {"activations.near_pole", "hierarchical.parity"}
    assert all(e.algorithms for e in entries if not e.sanity)
    with pytest.raises(ValueError, match="sanity"):
        register(name="games.unlabelled", family="games", paper="p", theorem="t")
    with pytest.raises(ValueError, match="sanity"):
        register(
            name="games.mislabelled",
            family="games",
            paper="p",
            theorem="t",
            algorithms=("reference.games:solve_lp",),
            sanity=True,
        )


def test_a_familys_own_hard_extras_are_collected(monkeypatch: pytest.MonkeyPatch) -> None:
    """``HARD_EXTRAS`` in a family's catalogue module reach the hard-input suite: a new family
    needs no row in a shared table."""
    import numpy as np

    import properties.catalogue.games as games_catalogue
    from properties._records import HardExtra, HardInstance
    from properties.hard_input import hard_input_cases

    identity = HardInstance(label="2 x 2 identity", make_args=lambda rng: ((np.eye(2),), {}))
    extra = HardExtra(name="reference.games:solve_lp", instances=(identity,))
    monkeypatch.setattr(games_catalogue, "HARD_EXTRAS", (extra,), raising=False)
    (case,) = [c for c in hard_input_cases() if c.name == "reference.games:solve_lp"]
    assert case.instances == (identity,)
    # a row the perturbation catalogue already registers, registered again by games
    twice = HardExtra(name="reference.perturbation:gda")
    monkeypatch.setattr(games_catalogue, "HARD_EXTRAS", (twice,), raising=False)
    with pytest.raises(ValueError, match="registered twice"):
        hard_input_cases()
