"""The command as a user meets it in their own project: the version, the user's folder searched
after the library, shadowing refused, and usage errors (exit 2, one line) kept apart from a
failed check (exit 1)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from properties._cli import main
from properties._registry import all_algorithms, get_suite
from properties._targets import call_shape_problem, resolve_target

ROOT = Path(__file__).resolve().parents[1]

SOLVERS = """\
import numpy as np

def uniform(A):
    m, n = np.shape(A)
    return np.full(m, 1.0 / m), np.full(n, 1.0 / n)

def two_inputs(A, B):
    return A, B

def needs_absent_package(A):
    import verifiedref_no_such_package  # noqa: F401
"""


def _project(folder: Path) -> Path:
    (folder / "mypkg").mkdir()
    (folder / "mypkg" / "__init__.py").write_text("")
    (folder / "mypkg" / "solvers.py").write_text(SOLVERS)
    return folder


def _cli(folder: Path, *argv: str, pythonpath: str = str(ROOT)) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": pythonpath}
    return subprocess.run(
        [sys.executable, "-m", "verifiedref", *argv],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def in_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current folder is a user's project; sys.path is restored afterwards."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.chdir(_project(tmp_path))
    return tmp_path


def test_version_matches_pyproject(tmp_path: Path) -> None:
    import verifiedref

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert verifiedref.__version__ == declared
    done = _cli(tmp_path, "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"verifiedref {declared}"


def test_user_folder_is_searched_and_a_wrong_solver_is_judged(tmp_path: Path) -> None:
    _project(tmp_path)
    done = _cli(
        tmp_path, "crosscheck", "games.solver", "mypkg.solvers:uniform", "--profile", "smoke"
    )
    assert done.returncode == 1, done.stderr  # found, run, and found wrong
    assert "FAILED" in done.stdout


def test_a_users_properties_module_is_named_not_used(tmp_path: Path) -> None:
    (tmp_path / "properties.py").write_text("raise SystemExit('the user module was imported')\n")
    shadowed = _cli(
        tmp_path, "describe", "games.solver", pythonpath=f"{tmp_path}{os.pathsep}{ROOT}"
    )
    assert shadowed.returncode == 2
    assert shadowed.stderr.count("\n") == 1
    assert str(tmp_path / "properties.py") in shadowed.stderr
    # without PYTHONPATH=., python -m puts the folder first; the command moves it last
    plain = _cli(tmp_path, "describe", "games.solver")
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.startswith("suite games.solver")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (("crosscheck", "games.solvr", "mypkg.solvers:uniform"), "closest: games.solver"),
        (("crosscheck", "games.solver", "nopkg.solvers:uniform"), "no module named 'nopkg'"),
        (("crosscheck", "games.solver", "mypkg.solvers:absent"), "has no attribute 'absent'"),
        (("crosscheck", "games.solver", "mypkg.solvers:two_inputs"), "requires 2 positional"),
        (("crosscheck", "games.solver", "mypkg.solvers:uniform", "--variant", "x"), "no variants"),
        (("describe", "optimizers.sadam"), "closest: optimizers.s_adam"),
        (
            (
                "prove",
                "--only",
                "games",
                "--report",
                "",
                "--with",
                "reference.games:solve_lp=x.y:z",
            ),
            "no module named 'x'",
        ),
        (
            (
                "crosscheck",
                "games.solver",
                "mypkg.solvers:needs_absent_package",
                "--profile",
                "smoke",
            ),
            "verifiedref_no_such_package",
        ),
    ],
)
def test_usage_errors_exit_2_with_one_line(
    in_project: Path, argv: tuple[str, ...], needle: str
) -> None:
    code, _, err = _run(*argv)
    assert code == 2
    assert needle in err
    said = [line for line in err.splitlines() if not line.startswith("[")]  # not progress
    assert len(said) == 1, err


def test_unimportable_target_names_the_folder_searched(in_project: Path) -> None:
    with pytest.raises(ValueError, match="run the command in the folder that holds nopkg/") as info:
        resolve_target("nopkg.solvers:uniform")
    assert str(in_project.resolve()) in str(info.value)


#: Catalogued functions that are not themselves targets of the suite listed beside them (a link
#: builder, a loss table, decoders and estimators needing an ``rng`` the suite does not pass):
#: each fails its suite on the old code as well, so refusing it up front is right.
NOT_TARGETS = {
    ("reference.constrained_map:pa_map", "constrained_map.general"),
    ("reference.divergence:estimate_alpha_divergence", "divergence.estimator"),
    ("reference.preference:choice_matrix", "preference.choice_link"),
    ("reference.preference:expected_loss", "preference.proper_loss"),
    ("reference.tsp:mcts_decode", "tsp.decoder"),
}


def test_call_shape_check_accepts_the_catalogued_references() -> None:
    refused = set()
    for algorithm in all_algorithms():
        for suite in algorithm.suites:
            if suite in ("bad_input", "hard_input"):  # the target is wrapped by --like
                continue
            target = resolve_target(algorithm.function)
            if call_shape_problem(target, get_suite(suite).protocol):
                refused.add((algorithm.function, suite))
    assert refused == NOT_TARGETS
