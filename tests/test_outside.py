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
from benchmarks.outside.pairs import CLASSIFICATION, PAIRS, UNRECORDED, OutsidePair

RECORDED: dict[str, Any] = {r["key"]: r for r in json.loads(JSON_PATH.read_text())["pairs"]}
PROFILE: str = json.loads(JSON_PATH.read_text())["profile"]


def test_every_recorded_failure_is_classified() -> None:
    """Cheap, in the default gate: the report never shows an unclassified failure."""
    for key, record in RECORDED.items():
        for check, result in record.get("checks", {}).items():
            if result["status"] == "failed":
                assert (key, check) in CLASSIFICATION, (key, check)


def test_every_pair_has_a_record() -> None:
    """Every pair is recorded, except those listed as added since the last report run."""
    assert {p.key for p in PAIRS} == set(RECORDED) | UNRECORDED
    assert UNRECORDED.isdisjoint(RECORDED), "recorded now: empty UNRECORDED in pairs.py"


@pytest.mark.slow
@pytest.mark.outside
@pytest.mark.parametrize("pair", PAIRS, ids=[p.key for p in PAIRS])
def test_outside_pair_keeps_its_recorded_verdicts(pair: OutsidePair) -> None:
    if library_version(pair) is None:
        pytest.skip(f"{pair.library} is not installed (pip install verifiedref[crosscheck])")
    if pair.key in UNRECORDED:
        pytest.skip(f"{pair.key} has no recorded verdict yet (run benchmarks.crosscheck_outside)")
    record = run_pair((pair, PROFILE))
    expected = {c: r["status"] for c, r in RECORDED[pair.key]["checks"].items()}
    measured = {c: r["status"] for c, r in record["checks"].items()}
    assert measured == expected


@pytest.mark.outside
def test_openspiel_cfr_adapter_keeps_the_sequence_form() -> None:
    """OpenSpiel's CFR on the game built from our Kuhn sequence form follows the same averages as
    on OpenSpiel's own C++ ``kuhn_poker``: equal NashConv after 50 iterations (recomputed by LP
    best responses), which also equals OpenSpiel's ``exploitability.nash_conv`` of its policy."""
    pytest.importorskip("pyspiel")
    from benchmarks.outside import openspiel_cfr
    from properties.extensive import lp_nash_conv
    from reference import extensive as efg

    kuhn = efg.kuhn_poker()
    for plus in (False, True):
        native = openspiel_cfr.kuhn_comparison(50, plus=plus)
        x, y = (openspiel_cfr.cfr_plus if plus else openspiel_cfr.cfr)(kuhn, iterations=50)
        derived = lp_nash_conv(kuhn, x, y)
        assert derived == pytest.approx(native["theirs_nash_conv_lp"], abs=1e-9), (plus, derived)
        assert native["theirs_nash_conv_lp"] == pytest.approx(
            native["theirs_nash_conv_openspiel"], abs=1e-9
        )


@pytest.mark.slow
@pytest.mark.outside
@pytest.mark.parametrize("name", ["cfr", "cfr_plus"])
def test_openspiel_cfr_passes_extensive_cfr(name: str) -> None:
    pytest.importorskip("pyspiel")
    from benchmarks.outside import openspiel_cfr
    from properties import run_suite

    report = run_suite(getattr(openspiel_cfr, name), "extensive.cfr", profile="smoke")
    assert report.ok, report.format()
