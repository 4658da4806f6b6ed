"""The command line is small modules that know no suite: what a suite needs from the command
line (registered cases for ``--like``, foreign targets, describe notes) is declared on the suite."""

from __future__ import annotations

import ast
from pathlib import Path

from properties._registry import all_suites

CLI = Path(__file__).resolve().parents[1] / "properties" / "_cli"
LONGEST = 500


def _string_literals(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def test_no_command_line_module_names_a_suite() -> None:
    names = set(all_suites())
    families = {name.split(".")[0] + "." for name in names if "." in name}
    for path in sorted(CLI.glob("*.py")):
        named = {s for s in _string_literals(path) if s in names or s in families}
        assert not named, (
            f"{path.name} branches on suite names {sorted(named)}: declare it on the suite"
        )


def test_command_line_modules_stay_small() -> None:
    sizes = {
        path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in CLI.glob("*.py")
    }
    assert len(sizes) >= 5
    assert max(sizes.values()) <= LONGEST, sizes


def test_the_layout_test_would_notice_a_suite_name(tmp_path: Path) -> None:
    module = tmp_path / "branchy.py"
    module.write_text(
        'def f(suite):\n    return suite.name == "optimizers.sam"\n', encoding="utf-8"
    )
    assert "optimizers.sam" in _string_literals(module) & set(all_suites())
