"""The verifiedref command line: list, prove, crosscheck and their exit codes."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from properties._cli import main


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_list_shows_algorithms_suites_and_checks() -> None:
    code, out, _ = _run("list")
    assert code == 0
    assert "reference.games:solve_lp" in out
    assert "games.solver" in out
    assert "games.von_neumann" in out


def test_prove_writes_report(tmp_path: Path) -> None:
    report = tmp_path / "report.md"
    code, out, err = _run("prove", "--only", "games", "--profile", "quick", "--report", str(report))
    assert code == 0, out + err
    assert "games.von_neumann" in out
    assert "holds" in out
    text = report.read_text()
    assert "| games.von_neumann |" in text


def test_prove_unknown_family_is_usage_error() -> None:
    code, _, err = _run("prove", "--only", "no_such_family", "--report", "")
    assert code == 2
    assert "no_such_family" in err


def test_crosscheck_reference_passes() -> None:
    code, out, _ = _run(
        "crosscheck",
        "games.solver",
        "reference.games:solve_lp",
        "--capability",
        "raises_on_invalid",
    )
    assert code == 0, out
    assert "PASS" in out


def test_crosscheck_mutant_fails_with_snippet() -> None:
    code, out, _ = _run("crosscheck", "games.solver", "tests.games.mutants:sign_error")
    assert code == 1
    assert "FAILED   duality_gap" in out
    assert "measured" in out
    assert "allowed" in out
    assert "resolve_name('tests.games.mutants:sign_error')" in out


def test_crosscheck_usage_errors() -> None:
    assert _run("crosscheck", "games.solver", "no.such.module:fn")[0] == 2
    assert _run("crosscheck", "no.suite", "reference.games:solve_lp")[0] == 2
    assert _run("crosscheck", "bad_input", "reference.games:solve_lp")[0] == 2
    assert _run("crosscheck", "games.solver", "reference.games:solve_lp", "--skip", "nope")[0] == 2
    assert _run("frobnicate")[0] == 2


def test_crosscheck_bad_input_like() -> None:
    code, out, _ = _run(
        "crosscheck",
        "bad_input",
        "tests.games.mutants:gap_index_error",
        "--like",
        "reference.games:duality_gap",
        "--profile",
        "smoke",
    )
    assert code == 1, out
    code, out, _ = _run(
        "crosscheck",
        "bad_input",
        "reference.games:duality_gap",
        "--like",
        "reference.games:duality_gap",
        "--profile",
        "smoke",
    )
    assert code == 0, out


def test_console_script_and_module_entry_points() -> None:
    exe = Path(sys.executable).with_name("verifiedref")
    result = subprocess.run([str(exe), "list"], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "properties",
            "games.solver",
            "tests.games.mutants:uniform",
            "--skip",
            "degenerate_games",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "FAILED" in result.stdout


def test_report_draws_series_plots(tmp_path: Path) -> None:
    from proofs_numeric import BoundCheck
    from properties._cli.records import write_report

    check = BoundCheck(
        claim="gap decreases",
        paper="p",
        theorem="Thm 1",
        measured=1e-6,
        bound=1e-3,
        sense="<=",
        series={"gap": ((1.0, 2.0, 3.0), (1e-1, 1e-3, 1e-6))},
    )
    report = tmp_path / "r.md"
    write_report(
        report, "quick", 1, [("fam.check", check, "", 0.1), ("fam.broken", None, "boom", 0.0)]
    )
    text = report.read_text()
    assert "ERROR: boom" in text
    assert (tmp_path / "r_plots" / "fam.check.png").stat().st_size > 1000
    assert "![fam.check](r_plots/fam.check.png)" in text


def test_list_markdown_is_one_row_per_algorithm() -> None:
    """The Markdown table (the documentation site generates its own from the same registries
    at every build, so no committed copy can go stale)."""
    from properties._registry import all_algorithms

    code, out, _ = _run("list", "--markdown")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "| family | algorithm | entry point | suites | theorem checks |"
    assert any(
        "`reference.games:solve_lp`" in line and "`games.von_neumann`" in line for line in lines
    )
    assert len(lines) == 2 + len(all_algorithms())


def test_list_fits_100_columns_and_keeps_identifiers_whole() -> None:
    code, out, _ = _run("list")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 100
    assert "reference.games:solve_lp" in out  # identifiers are never broken across lines
    code, wide, _ = _run("list", "--wide")
    assert code == 0
    assert max(len(line) for line in wide.splitlines()) > 100  # today's one-line rows


def test_list_json_is_machine_readable() -> None:
    import json

    code, out, _ = _run("list", "--json")
    assert code == 0
    listing = json.loads(out)
    assert set(listing) == {"algorithms", "suites", "theorem_checks", "bad_input_cases"}
    solver = {s["suite"]: s for s in listing["suites"]}["games.solver"]
    assert "duality_gap" in solver["checks"]
    lp = [a for a in listing["algorithms"] if a["function"] == "reference.games:solve_lp"]
    assert len(lp) == 1
    assert "games.solver" in lp[0]["suites"]


def test_describe_states_call_shape_variants_and_tolerances() -> None:
    code, out, _ = _run("describe", "optimizers.s_adam")
    assert code == 0
    assert "protocol properties.optimizers.OptimizerFactory" in out
    assert "eps_after_correction" in out
    assert "precision (--precision)" in out
    assert max(len(line) for line in out.splitlines()) <= 100
    code, _, err = _run("describe", "no.such_suite")
    assert code == 2
    assert "no.such_suite" in err


def test_describe_fits_100_columns_for_every_suite() -> None:
    from properties._registry import all_suites

    for name in all_suites():
        code, out, _ = _run("describe", name)
        assert code == 0, name
        widest = max(out.splitlines(), key=len)
        assert len(widest) <= 100, (name, widest)
