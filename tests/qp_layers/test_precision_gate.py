"""Issue 29 item 9 for ``qp_layers``: the relative accuracy ``256·u`` is 1 in bfloat16, a bound
nothing fails, so the checks built on it are skipped saying why (not passed); in float32
(``1.5e-5``) a correct rounded gradient passes and a wrong one fails
(``test_declarations.test_precision_float32_allows_its_rounding_scale_and_no_more``)."""

from __future__ import annotations

from typing import Any

from properties import Capabilities, run_suite
from properties.qp_layers import HYPERGRADIENT
from reference import qp_layers as ql


def _scaled(factor: float) -> Any:
    def grads(*args: Any) -> tuple[Any, ...]:
        return tuple(None if g is None else factor * g for g in ql.kkt_grads(*args).as_tuple())

    return grads


def test_bfloat16_skips_the_256u_checks_saying_why() -> None:
    bf16 = Capabilities(precision="bfloat16")
    report = run_suite(_scaled(1.0 + 2.0**-8), HYPERGRADIENT, profile="smoke", capabilities=bf16)
    status = {r.name: (r.status, r.message) for r in report.results}
    skipped, message = status["matches_implicit_differentiation"]
    assert skipped == "skipped", report.format()
    assert "cannot judge" in message, message
    assert "--precision bfloat16" in message, message
    # a 50% error is not "passed" either: nothing at bfloat16 is judged by the 256·u bound
    wrong = run_suite(_scaled(1.5), HYPERGRADIENT, profile="smoke", capabilities=bf16)
    assert not any(
        r.status == "passed" and r.name == "matches_implicit_differentiation" for r in wrong.results
    )
    # with a declared tolerance the user's own bound judges again: 50% off fails 1e-2
    declared = Capabilities(precision="bfloat16", tolerance=1e-2)
    judged = run_suite(_scaled(1.5), HYPERGRADIENT, profile="smoke", capabilities=declared)
    assert "matches_implicit_differentiation" in {r.name for r in judged.failed}, judged.format()
