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
    """The theorem-checks guide: nashpy's LP passes games.von_neumann; networkx's Christofides
    (heatmap ignored) meets 1.5 OPT but fails OPT + 2η and Corollary C by measured violations."""
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


# ------------------------------------------------- issue 29 item 5: what crosscheck accepts
class _Boxed:
    """An array-protocol object (as JAX or CuPy arrays are), not an ndarray."""

    def __init__(self, value: Any) -> None:
        self.value = np.asarray(value)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        return self.value if dtype is None else self.value.astype(dtype)


def mapping_hybrid(payoff: Any, **kwargs: Any) -> dict[str, Any]:
    """Our hybrid, returned as a mapping of array-protocol objects (no EquilibriumResult)."""
    res = hybrid(payoff, **kwargs)
    fields = {f.name: getattr(res, f.name) for f in dataclasses.fields(res)}
    return {k: _Boxed(v) if isinstance(v, np.ndarray) else v for k, v in fields.items()}


def pair_hybrid(payoff: Any, **kwargs: Any) -> tuple[Any, Any]:
    """Only ``(method, x)``: the checks that read ``gap`` cannot run on it."""
    res = hybrid(payoff, **kwargs)
    return res.method, res.x


def noisy_hybrid(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    raise ValueError("hybrid refused this payoff: " + "a long explanation " * 12 + "END")


def test_prove_with_accepts_a_mapping_of_array_protocol_objects() -> None:
    code, out, err = _run(
        "prove", "--only", "games", "--report", "",
        "--with", f"reference.games:hybrid={__name__}:mapping_hybrid",
    )  # fmt: skip
    assert code == 0, out + err
    assert "games.hybrid_global" in out


def test_prove_with_a_partial_tuple_names_the_missing_field_in_full() -> None:
    code, out, err = _run(
        "prove", "--only", "games", "--report", "", "--width", "80",
        "--with", f"reference.games:hybrid={__name__}:pair_hybrid",
    )  # fmt: skip
    assert code == 1, out + err
    assert "returned only method, x" in out  # the full message, below the table
    assert "errors:" in out


def test_prove_with_long_errors_are_printed_in_full_below_the_table() -> None:
    code, out, _ = _run(
        "prove", "--only", "games", "--report", "", "--width", "80",
        "--with", f"reference.games:hybrid={__name__}:noisy_hybrid",
    )  # fmt: skip
    assert code == 1
    table, _, below = out.partition("\nerrors:\n")
    assert "in full below [1]" in table
    assert "a long explanation " * 12 + "END" in below


def test_prove_with_a_torch_optimizer_class_for_an_optimizer_factory() -> None:
    """AdamW's decoupled decay is our adam's (P7 holds); torch's Adam couples it (fails)."""
    pytest.importorskip("torch")
    code, out, err = _run(
        "prove", "--only", "optimizers", "--report", "",
        "--with", "reference.optimizers:adam=torch.optim.AdamW",
    )  # fmt: skip
    assert code == 0, out + err
    assert "optimizers.s_adam_reduction" in out
    code, out, err = _run(
        "prove", "--only", "optimizers", "--report", "",
        "--with", "reference.optimizers:adam=torch.optim.Adam",
    )  # fmt: skip
    assert code == 1, out + err
    row = next(line for line in out.splitlines() if "s_adam_reduction" in line)
    assert "FAILS" in row


def _longer(factor: float) -> Any:
    from reference.inconsistency import inconsistency_ascent

    def ascent(*args: Any, **kwargs: Any) -> Any:
        res = inconsistency_ascent(*args, **kwargs)
        return dataclasses.replace(res, delta=np.asarray(res.delta) * factor)

    return ascent


ascent_1e7 = _longer(1.0 + 1e-7)  # float32-size error on ||δ*|| = ρ
ascent_1e3 = _longer(1.0 + 1e-3)  # beyond float32, within bfloat16


@pytest.mark.parametrize(
    ("target", "precision", "holds"),
    [
        ("ascent_1e7", "float64", False),
        ("ascent_1e7", "float32", True),
        ("ascent_1e3", "float32", False),
        ("ascent_1e3", "bfloat16", True),
    ],
)
def test_prove_precision_sets_the_feasibility_margin_of_top_eigenvalue(
    target: str, precision: str, holds: bool
) -> None:
    code, out, err = _run(
        "prove", "--only", "inconsistency", "--report", "", "--precision", precision,
        "--with", f"reference.inconsistency:inconsistency_ascent={__name__}:{target}",
    )  # fmt: skip
    row = next(line for line in out.splitlines() if "inconsistency.top_eigenvalue" in line)
    assert ("holds" in row) is holds, out + err
    assert code in (0, 1)


def test_prove_tolerance_widens_every_compared_number_by_its_declared_size() -> None:
    from proofs_numeric import BoundCheck
    from proofs_numeric._registry import Declared, declaring, widened

    check = BoundCheck(claim="c", paper="p", theorem="t", measured=1.01, bound=1.0, sense="<=")
    assert not widened(check).holds
    with declaring(Declared(tolerance=0.02)):
        assert widened(check).holds
    with declaring(Declared(tolerance=0.005)):
        assert not widened(check).holds
    with declaring(Declared(precision="bfloat16")):  # 64 * 2^-8 = 0.25 relative
        assert widened(check).holds
        assert not widened(dataclasses.replace(check, measured=1.3)).holds


def slow_hybrid(payoff: Any, **kwargs: Any) -> EquilibriumResult:
    import time

    time.sleep(30)
    return hybrid(payoff, **kwargs)


def test_prove_timeout_and_check_budget_end_a_slow_implementation() -> None:
    code, out, _ = _run(
        "prove", "--only", "games", "--report", "", "--timeout", "0.5", "--wide",
        "--with", f"reference.games:hybrid={__name__}:slow_hybrid",
    )  # fmt: skip
    assert code == 1
    assert "timeout: no result within 0.5 s (--timeout 0.5)" in out
    code, out, _ = _run(
        "prove", "--only", "games", "--report", "", "--check-budget", "0.5", "--wide",
        "--with", f"reference.games:hybrid={__name__}:slow_hybrid",
    )  # fmt: skip
    assert code == 1
    assert "the check budget of 0.5 s ran out (--check-budget)" in out


def keyword_hybrid(payoff: Any, *, mode: str = "PSSN", flip: bool = False, **kw: Any) -> Any:
    """Our hybrid; ``flip=True`` swaps to the uniform (wrong) answer."""
    if flip:
        return uniform_hybrid(payoff, mode=mode, **kw)
    return hybrid(payoff, mode=mode, **kw)


def strict_hybrid(payoff: Any, *, tol: float = 1e-10, flip: bool = False) -> Any:
    return keyword_hybrid(payoff, tol=tol, flip=flip)


def test_prove_hyper_is_passed_on_every_call() -> None:
    code, out, err = _run(
        "prove", "--only", "games", "--report", "", "--hyper", "flip=True",
        "--with", f"reference.games:hybrid={__name__}:keyword_hybrid",
    )  # fmt: skip
    assert code == 1, out + err
    assert "declared: hyper flip=True" in out
    code, _, err = _run(
        "prove", "--only", "games", "--report", "", "--hyper", "flipp=True",
        "--with", f"reference.games:hybrid={__name__}:strict_hybrid",
    )  # fmt: skip
    assert code == 2
    assert "takes no keyword 'flipp' (did you mean 'flip'?)" in err or "'flipp'" in err
