"""The recorded verdicts of public implementations (issue 19), re-run: ``pytest -m outside``.

Each pair of ``benchmarks/outside/pairs.py`` is run through ``verifiedref crosscheck --json`` and
every check's status must equal the one recorded in
``benchmarks/results/crosscheck_outside.json`` (regenerate with
``python -m benchmarks.crosscheck_outside``).  A pair whose library is not installed is skipped.
The tests are marked ``slow`` too, so the default gate (``-m "not gpu and not slow"``) leaves
them out; every recorded failure must carry a classification.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from benchmarks.crosscheck_outside import JSON_PATH, library_version, run_pair
from benchmarks.outside.pairs import CLASSIFICATION, PAIRS, OutsidePair

RECORDED: dict[str, Any] = {r["key"]: r for r in json.loads(JSON_PATH.read_text())["pairs"]}
PROFILE: str = json.loads(JSON_PATH.read_text())["profile"]


def test_every_recorded_failure_is_classified() -> None:
    """Cheap, in the default gate: the report never shows an unclassified failure."""
    for key, record in RECORDED.items():
        for check, result in record.get("checks", {}).items():
            if result["status"] == "failed":
                assert (key, check) in CLASSIFICATION, (key, check)


def test_every_pair_has_a_record() -> None:
    assert {p.key for p in PAIRS} == set(RECORDED)


@pytest.mark.slow
@pytest.mark.outside
@pytest.mark.parametrize("pair", PAIRS, ids=[p.key for p in PAIRS])
def test_outside_pair_keeps_its_recorded_verdicts(pair: OutsidePair) -> None:
    if library_version(pair) is None:
        pytest.skip(f"{pair.library} is not installed (pip install verifiedref[crosscheck])")
    record = run_pair((pair, PROFILE))
    expected = {c: r["status"] for c, r in RECORDED[pair.key]["checks"].items()}
    measured = {c: r["status"] for c, r in record["checks"].items()}
    assert measured == expected
