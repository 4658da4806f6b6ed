"""Every theorem check has teeth: each mutant of the tables in ``tests/<family>/proof_mutants.py``
is put in place of a library function through the registry (``prove --with``) and every check
it lists must fail by a measured violation (``holds`` false), not by an exception."""

from __future__ import annotations

import json

import pytest

from proofs_numeric import ProveProfile, all_theorems, substituted
from proofs_numeric._registry import teeth
from tests._proof_mutants import RECORD, ProofMutant, all_proof_mutants, teeth_record

#: (mutant key, check) pairs whose run takes more than ~5 s on the CI's two cores: run by the
#: slow job only (each check keeps at least one fast pair unless listed here).
SLOW_PAIRS = {
    ("ski_rental/emd: halved", "ski_rental.tail_transport"),  # 182-distribution grid, exact
    # generated keyword mutants whose wrong fit or run makes the check's solver work longer
    # (10-60 s each on two busy cores); the check's hand-written mutants stay in the fast job
    *(
        (f"activations/param: fit_rational({change})", "activations.fit_rational")
        for change in (
            "degrees -> default (5, 4)",
            "version -> default 'A'",
            "points -> default 2001",
            "interval -> default (-3, 3)",
            "tol -> 100 tol",
        )
    ),
    ("activations/param: minimax_poly_abs_lp(grid_size -> 2 grid_size)", "activations.bernstein"),
    ("activations/param: gelu_composite(q -> q + 1)", "activations.gelu_composite"),
    ("activations/param: gelu_composite(squarings -> k + 1)", "activations.gelu_composite"),
}

_PAIRS = [(m, check) for m in all_proof_mutants() for check in m.catches]
_PARAMS = [
    pytest.param(
        m,
        check,
        id=f"{m.key}->{check}",
        marks=[pytest.mark.slow] if (m.key, check) in SLOW_PAIRS else [],
    )
    for m, check in _PAIRS
]


@pytest.mark.parametrize(("mutant", "check"), _PARAMS)
def test_mutant_is_caught_by_a_measured_violation(mutant: ProofMutant, check: str) -> None:
    entries = {e.name: e for e in all_theorems()}
    assert check in entries, f"{mutant.key}: unknown check {check!r}"
    entry = entries[check]
    assert mutant.algorithm in entry.algorithms, f"{check} does not exercise {mutant.algorithm}"
    profile = ProveProfile.named("quick")
    with substituted({mutant.algorithm: mutant.target}) as sub:
        result = entry.driver(profile)
    assert mutant.algorithm in sub.used_names(), f"{check} never called {mutant.algorithm}"
    assert not result.holds, (
        f"{mutant.key} survives {check}: measured {result.measured!r} {result.sense} "
        f"bound {result.bound!r}"
    )


def test_mutant_keys_are_unique() -> None:
    keys = [m.key for m in all_proof_mutants()]
    assert len(keys) == len(set(keys))


def test_shipped_record_matches_the_tables() -> None:
    """``proofs_numeric/_teeth.json`` (read by ``verifiedref list --checks``) is generated from
    the tables: ``python -m tests._proof_mutants --write``."""
    assert json.loads(RECORD.read_text()) == teeth_record()
    assert {k: list(v) for k, v in teeth().items()} == teeth_record()
