"""The papers' own code in the outside report (issue 35).

The rows of ``benchmarks/outside/official_pairs.py`` need a local checkout of a public
repository (``python -m benchmarks.crosscheck_outside --source NAME=PATH``); the gate never
has one, so it checks the recorded report (every row has a commit, a before and an after
run, every failure left after the declarations is classified) and the plumbing
(``--source`` parsing, adapters that name the missing checkout).  With
``VERIFIEDREF_SOURCE_<NAME>`` set, ``pytest -m outside`` re-runs the rows.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from benchmarks.crosscheck_outside import OFFICIAL_JSON, parse_sources, run_official
from benchmarks.outside._source import checkout, env_name
from benchmarks.outside.official_pairs import (
    OFFICIAL_CLASSIFICATION,
    OFFICIAL_PAIRS,
    SOURCES,
    OfficialPair,
)

RECORDED: dict[str, Any] = {r["key"]: r for r in json.loads(OFFICIAL_JSON.read_text())["pairs"]}
PROFILE: str = json.loads(OFFICIAL_JSON.read_text())["profile"]


def test_every_official_row_is_recorded_with_its_commit() -> None:
    assert {p.key for p in OFFICIAL_PAIRS} == set(RECORDED)
    for key, record in RECORDED.items():
        assert len(record["commit"] or "") == 40, key
        assert record["repository"] in SOURCES.values(), key
        assert record["before"]["checks"], key
        assert record["after"]["checks"], key


def test_every_failure_after_the_declarations_is_classified() -> None:
    for key, record in RECORDED.items():
        for check, result in record["after"]["checks"].items():
            if result["status"] == "failed":
                assert (key, check) in OFFICIAL_CLASSIFICATION, (key, check)


def test_parse_sources_names_what_is_wrong(tmp_path: Path) -> None:
    assert parse_sources([f"IAM={tmp_path}"]) == {"IAM": tmp_path.resolve()}
    with pytest.raises(ValueError, match="NAME=PATH"):
        parse_sources(["IAM"])
    with pytest.raises(ValueError, match="expected a name"):
        parse_sources([f"nosuch={tmp_path}"])
    with pytest.raises(ValueError, match="not a directory"):
        parse_sources([f"IAM={tmp_path / 'absent'}"])


def test_an_adapter_without_a_checkout_names_the_option(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(env_name("FFOLayer"), raising=False)
    with pytest.raises(ModuleNotFoundError, match="--source FFOLayer=PATH"):
        checkout("FFOLayer")


@pytest.mark.slow
@pytest.mark.outside
@pytest.mark.parametrize("pair", OFFICIAL_PAIRS, ids=[p.key for p in OFFICIAL_PAIRS])
def test_official_row_keeps_its_recorded_verdicts(pair: OfficialPair) -> None:
    path = os.environ.get(env_name(pair.source))
    if not path:
        pytest.skip(f"no checkout of {SOURCES[pair.source]} (set {env_name(pair.source)})")
    record = run_official((pair, PROFILE, Path(path)))
    for run in ("before", "after"):
        expected = {c: r["status"] for c, r in RECORDED[pair.key][run]["checks"].items()}
        assert {c: r["status"] for c, r in record[run]["checks"].items()} == expected, run
