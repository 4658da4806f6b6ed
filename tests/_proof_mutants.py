"""Mutant tables of the theorem checks (STYLE B7; issue 17): plausible wrong implementations,
each put in place of a library function with ``prove --with`` (:func:`proofs_numeric.substituted`),
and the registered checks that must catch it by a measured violation.

A family's table is ``tests/<family>/proof_mutants.py`` with ``MUTANTS: tuple[ProofMutant, ...]``.
``tests/test_proof_mutants.py`` runs every (mutant, check) pair and keeps the shipped record
``proofs_numeric/_teeth.json`` (what ``verifiedref list --checks`` shows) equal to the tables.
Regenerate the record after editing a table::

    python -m tests._proof_mutants --write
"""

from __future__ import annotations

import importlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from reference._families import FAMILIES

__all__ = ["RECORD", "ProofMutant", "all_proof_mutants", "teeth_record"]

RECORD = Path(__file__).resolve().parents[1] / "proofs_numeric" / "_teeth.json"


@dataclass(frozen=True, slots=True, kw_only=True)
class ProofMutant:
    """A wrong implementation and the checks that must catch it.

    Attributes:
        family: the family whose table holds it.
        name: short unique name within the family (``"uniform pair"``).
        why: the plausible bug, in one line (what a real implementation could get wrong).
        algorithm: the library function it replaces, ``module:function`` as ``verifiedref list``
            shows it.
        target: ``module:callable`` of the mutant (usually in the table's own module).
        catches: registered check names that must report ``holds=False`` (not raise) with it.
    """

    family: str
    name: str
    why: str
    algorithm: str
    target: str
    catches: tuple[str, ...]

    @property
    def key(self) -> str:
        """``family/name``, unique over all tables."""
        return f"{self.family}/{self.name}"


def all_proof_mutants() -> tuple[ProofMutant, ...]:
    """Every family's table, in family order (families without a table contribute nothing),
    then the generated parameter-effect mutants of ``tests/_param_mutants.py``."""
    out: list[ProofMutant] = []
    for family in FAMILIES:
        try:
            module = importlib.import_module(f"tests.{family}.proof_mutants")
        except ModuleNotFoundError as exc:
            if exc.name != f"tests.{family}.proof_mutants":
                raise
            continue
        out.extend(module.MUTANTS)
    from tests._param_mutants import param_mutants  # generated from the reference (issue 36)

    out.extend(param_mutants())
    return tuple(out)


def teeth_record() -> dict[str, list[str]]:
    """check name -> sorted keys of the mutants it catches, as the tables declare."""
    record: dict[str, list[str]] = {}
    for mutant in all_proof_mutants():
        for check in mutant.catches:
            record.setdefault(check, []).append(mutant.key)
    return {check: sorted(keys) for check, keys in sorted(record.items())}


def _write() -> None:
    RECORD.write_text(json.dumps(teeth_record(), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {RECORD}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests._proof_mutants --write")
    _write()
