"""What the command prints and writes: tables that fit the terminal, one line per finished
check, nothing written unasked, and an interrupted run that keeps what finished."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

import properties._cli.prove as cli_prove
from properties._cli import main


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def user_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    return tmp_path


def test_prove_fits_100_columns_reports_each_check_and_writes_only_what_is_asked(
    user_folder: Path,
) -> None:
    code, out, err = _run("prove", "--only", "ski_rental", "--json", "r.json")
    assert code == 0, out + err
    assert max(len(line) for line in out.splitlines()) <= 100
    rows = json.loads((user_folder / "r.json").read_text())["checks"]
    for row in rows:  # one line per finished check, with its verdict
        assert re.search(rf"^\[\d+/{len(rows)}\] {row['check']} {row['verdict']} \(", err, re.M)
        if row["atol"]:  # a bound with an absolute allowance shows it
            assert re.search(rf"^{row['check']}\s.*\s\+(\s|$)", out, re.M), row
    assert any(row["atol"] for row in rows)
    assert [p.name for p in user_folder.iterdir()] == ["r.json"]  # no report, plots, .hypothesis


def test_list_fits_100_columns(user_folder: Path) -> None:
    code, out, _ = _run("list")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 100


def test_an_interrupted_prove_keeps_what_finished(
    user_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = cli_prove.prove_one
    calls: list[str] = []

    def interrupted_second(task: Any) -> Any:
        calls.append(task[0])
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(cli_prove, "prove_one", interrupted_second)
    code, out, err = _run("prove", "--only", "ski_rental", "--json", "partial.json")
    assert code == 130
    assert "interrupted; 1 of" in err
    document = json.loads((user_folder / "partial.json").read_text())
    assert [row["check"] for row in document["checks"]] == calls[:1]
    assert document["complete"] is False
    assert calls[0] in out
    assert calls[1] not in out
