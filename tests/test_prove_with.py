"""``verifiedref prove --with``: the registry puts another implementation in place of ours."""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import numpy as np
import pytest

from proofs_numeric import impl, substituted
from properties._cli import main
from reference.games import EquilibriumResult, hybrid, ssn


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def uniform_hybrid(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    """A wrong hybrid: it returns the uniform pair and claims a zero gap and convergence."""
    res = hybrid(payoff, **kwargs)
    m, n = np.shape(payoff)
    x, y = np.full(m, 1.0 / m), np.full(n, 1.0 / n)
    return dataclasses.replace(res, x=x, y=y, gap=0.0, converged=True)


def test_impl_is_the_library_function_outside_a_substitution() -> None:
    assert impl(hybrid) is hybrid


def test_substituted_records_what_a_check_called() -> None:
    with substituted({"reference.games:hybrid": uniform_hybrid}) as sub:
        assert impl(hybrid) is uniform_hybrid
        assert impl(ssn) is ssn  # not replaced
    assert sub.used_names() == {"reference.games:hybrid"}
    assert impl(hybrid) is hybrid  # restored on exit


def test_substituted_rejects_names_that_do_not_resolve() -> None:
    with pytest.raises(ValueError, match="with"), substituted({"reference.games:nope": hybrid}):
        pass


def test_prove_with_the_library_itself_holds() -> None:
    code, out, err = _run(
        "prove", "--only", "games", "--report", "",
        "--with", "reference.games:hybrid=reference.games:hybrid",
    )  # fmt: skip
    assert code == 0, out + err
    assert "games.hybrid_global" in out
    assert "games.von_neumann" not in out.split("theorem checks hold")[0]
    assert "do not exercise reference.games:hybrid" in out


def test_prove_with_a_wrong_implementation_fails_by_a_measured_violation() -> None:
    code, out, err = _run(
        "prove", "--only", "games", "--report", "",
        "--with", f"reference.games:hybrid={__name__}:uniform_hybrid",
    )  # fmt: skip
    assert code == 1, out + err
    row = next(line for line in out.splitlines() if "games.hybrid_global" in line)
    assert "FAILS" in row.upper()
    assert "ERROR" not in row


def test_prove_with_an_algorithm_no_check_exercises_is_a_usage_error() -> None:
    code, _, err = _run(
        "prove", "--report", "", "--with", "reference.games:no_such=reference.games:hybrid"
    )
    assert code == 2
    assert "no theorem check exercises reference.games:no_such" in err


@pytest.mark.parametrize("pair", ["reference.games:hybrid", "=x:y", "a:b="])
def test_prove_with_malformed_pairs_are_usage_errors(pair: str) -> None:
    code, _, err = _run("prove", "--report", "", "--with", pair)
    assert code == 2
    assert "--with" in err


def test_list_checks_shows_evidence_per_check() -> None:
    code, out, _ = _run("list", "--checks", "--wide")
    assert code == 0
    rows = {line.split()[0]: line for line in out.splitlines() if "." in line.split(" ")[0]}
    assert "mutant" in rows["games.hybrid_global"]
    assert "sanity" in rows["hierarchical.parity"]
    assert "checks:" in out.splitlines()[-1]


def test_prove_with_outside_implementations_from_the_readme() -> None:
    """README: nashpy's LP passes games.von_neumann; networkx's Christofides (heatmap ignored)
    meets 1.5 OPT but fails OPT + 2η and Corollary C by measured violations."""
    pytest.importorskip("nashpy")
    pytest.importorskip("networkx")
    code, out, err = _run(
        "prove", "--only", "games", "--report", "",
        "--with", "reference.games:solve_lp=tests.outside_adapters:nashpy_solve_lp",
    )  # fmt: skip
    assert code == 0, out + err
    assert "games.von_neumann" in out
    code, out, err = _run(
        "prove", "--only", "tsp", "--report", "",
        "--with", "reference.tsp:sweep_decode=tests.outside_adapters:networkx_christofides",
    )  # fmt: skip
    assert code == 1, out + err
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("tsp.")}
    assert "holds" in rows["tsp.one_and_a_half_opt"]
    assert "FAILS" in rows["tsp.opt_plus_two_eta"]
    assert "FAILS" in rows["tsp.corollary_c"]
