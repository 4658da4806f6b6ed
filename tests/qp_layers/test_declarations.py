"""Declared conventions of the qp_layers suites (issue 35, issue 29 item 7).

Each declaration is shown to matter both ways: a target following the convention fails
without the declaration and passes with it, and a target with a real defect still fails
with the declaration.  The targets are built from ``reference.qp_layers.kkt_grads`` (exact
gradients) with one convention changed.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from properties import Capabilities, run_suite
from properties.qp_layers import FFO_GRADIENT, HYPERGRADIENT, QP_SOLVER
from reference import qp_layers as ql

_SMOKE = "smoke"


def _unsymmetrised(*args: Any) -> tuple[Any, ...]:
    """Exact gradients with ``∇_Q = d_z y*ᵀ`` (autograd through ``½yᵀQy``), not symmetrised."""
    Q, q, G, h, A, b, d = args
    out = list(ql.kkt_grads(Q, q, G, h, A, b, d).as_tuple())
    gq = np.asarray(out[1])
    y = ql.solve_qp_active_set(Q, q, G, h, A, b).x
    out[0] = np.outer(gq, y)
    return tuple(out)


def _exact_limit(*args: Any, alpha: float) -> tuple[Any, ...]:
    """An FFO layer that returns the α → ∞ limit: the exact gradient for every α, with the
    rows of inactive constraints masked to exactly 0 as FFO masks them."""
    Q, q, G, h, A, b, d = args
    out = list(ql.kkt_grads(Q, q, G, h, A, b, d).as_tuple())
    if G is not None and np.asarray(G).shape[0]:
        y = ql.solve_qp_active_set(Q, q, G, h, A, b).x
        off = np.asarray(h) - np.asarray(G) @ y > 1e-9
        out[2] = np.where(off[:, None], 0.0, np.asarray(out[2]))
        out[3] = np.where(off, 0.0, np.asarray(out[3]))
    return tuple(out)


def _missing_g_term(*args: Any, alpha: float) -> tuple[Any, ...]:
    """The exact limit with ``∇_G`` missing ``λ d_zᵀ`` (FFOLayer's official backward)."""
    Q, q, G, h, A, b, _ = args
    out = list(_exact_limit(*args, alpha=alpha))
    if G is not None and out[2] is not None:
        sol = ql.solve_qp_active_set(Q, q, G, h, A, b)
        out[2] = np.asarray(out[2]) - np.outer(sol.lam, np.asarray(out[1]))
    return tuple(out)


def _constrained_only(*args: Any, alpha: float) -> tuple[Any, ...]:
    """The exact limit, with no path for QPs without inequality rows (as FFOQPLayer)."""
    G = args[2]
    if G is None or np.asarray(G).shape[0] == 0:
        raise NotImplementedError("no inequality rows")
    return _exact_limit(*args, alpha=alpha)


def _q_only(*args: Any) -> dict[str, Any]:
    """A partial layer: only the gradient of ``q``."""
    return {"q": ql.kkt_grads(*args).q}


def _statuses(report: Any) -> dict[str, str]:
    return {r.name: r.status for r in report.results}


def test_unsymmetrised_q_fails_undeclared_and_passes_declared() -> None:
    plain = run_suite(_unsymmetrised, HYPERGRADIENT, profile=_SMOKE)
    assert _statuses(plain)["matches_implicit_differentiation"] == "failed"
    declared = Capabilities(variant="unsymmetrised_q")
    report = run_suite(_unsymmetrised, HYPERGRADIENT, profile=_SMOKE, capabilities=declared)
    assert report.ok, report.format()


def test_exact_limit_fails_the_rate_law_and_passes_declared() -> None:
    plain = run_suite(_exact_limit, FFO_GRADIENT, profile=_SMOKE)
    assert _statuses(plain)["rank_one_error"] == "failed"
    declared = Capabilities(variant="exact_limit")
    report = run_suite(_exact_limit, FFO_GRADIENT, profile=_SMOKE, capabilities=declared)
    assert report.ok, report.format()


def test_a_missing_g_term_still_fails_under_every_declaration() -> None:
    caps = Capabilities(variant="exact_limit", domain="constrained")
    report = run_suite(_missing_g_term, FFO_GRADIENT, profile=_SMOKE, capabilities=caps)
    assert _statuses(report)["rank_one_error"] == "failed", report.format()


def test_constrained_domain_never_draws_a_qp_without_inequalities() -> None:
    caps = Capabilities(variant="exact_limit")
    plain = run_suite(_constrained_only, FFO_GRADIENT, profile=_SMOKE, capabilities=caps)
    assert not plain.ok
    inside = Capabilities(variant="exact_limit", domain="constrained")
    report = run_suite(_constrained_only, FFO_GRADIENT, profile=_SMOKE, capabilities=inside)
    assert report.ok, report.format()
    skipped = {r.name for r in report.results if r.status == "skipped"}
    assert skipped == {"unconstrained", "equality_only"}


def test_constrained_domain_is_declared_by_every_qp_suite() -> None:
    for suite in (QP_SOLVER, HYPERGRADIENT, FFO_GRADIENT):
        assert tuple(suite.domains) == ("all", "constrained")


def test_partial_output_skips_the_checks_on_other_blocks_by_name() -> None:
    plain = run_suite(_q_only, HYPERGRADIENT, profile=_SMOKE)
    failed = next(r for r in plain.results if r.name == "matches_implicit_differentiation")
    assert failed.status == "failed"
    assert "--returns" in failed.message
    caps = Capabilities(returns=frozenset({"q"}))
    report = run_suite(_q_only, HYPERGRADIENT, profile=_SMOKE, capabilities=caps)
    assert report.ok, report.format()
    skipped = {r.name: r.message for r in report.results if r.status == "skipped"}
    assert set(skipped) == {"inactive_rows_zero"}
    assert "judges G, h" in skipped["inactive_rows_zero"]


def test_partial_output_still_catches_a_wrong_returned_block() -> None:
    def wrong_q(*args: Any) -> dict[str, Any]:
        return {"q": 1.01 * np.asarray(ql.kkt_grads(*args).q)}

    caps = Capabilities(returns=frozenset({"q"}))
    report = run_suite(wrong_q, HYPERGRADIENT, profile=_SMOKE, capabilities=caps)
    assert _statuses(report)["matches_implicit_differentiation"] == "failed"


def _scaled(factor: float) -> Any:
    def grads(*args: Any) -> tuple[Any, ...]:
        return tuple(None if g is None else factor * g for g in ql.kkt_grads(*args).as_tuple())

    return grads


def test_precision_float32_allows_its_rounding_scale_and_no_more() -> None:
    """A relative error of 5e-6 (float32 rounding amplified: 256·u32 = 1.5e-5) fails the
    float64 default (1e-6) and passes ``--precision float32``; 1e-3 fails both."""
    near = _scaled(1.0 + 5e-6)
    assert not run_suite(near, HYPERGRADIENT, profile=_SMOKE).ok
    caps = Capabilities(precision="float32")
    report = run_suite(near, HYPERGRADIENT, profile=_SMOKE, capabilities=caps)
    assert report.ok, report.format()
    far = run_suite(_scaled(1.0 + 1e-3), HYPERGRADIENT, profile=_SMOKE, capabilities=caps)
    assert _statuses(far)["matches_implicit_differentiation"] == "failed"


def _limit_ffo(*args: Any, alpha: float, solution: Any = None) -> Any:
    """The α → ∞ limit as the theorem checks call an FFO implementation (declared)."""
    return ql.kkt_grads(*args, solution=solution)


def test_theorem_checks_judge_a_declared_exact_limit_against_the_exact_gradient() -> None:
    from proofs_numeric import qp_layers as pq
    from proofs_numeric._registry import substituted

    inst = pq.instance(1, n=4, m=3, p=1, k=1)
    d = np.asarray(np.random.default_rng(1).standard_normal(inst.Q.shape[0]), dtype=np.float64)
    setattr(_limit_ffo, "exact_limit", False)  # noqa: B010  (undeclared: the O(1/α) law)
    with substituted({"reference.qp_layers:ffo_grads": _limit_ffo}):
        assert not pq.rank_one_error(inst, d).holds
        assert not pq.error_rate(inst, d).holds
    setattr(_limit_ffo, "exact_limit", True)  # noqa: B010  (declared)
    with substituted({"reference.qp_layers:ffo_grads": _limit_ffo}):
        assert pq.rank_one_error(inst, d).holds
        assert pq.error_rate(inst, d).holds
    wrong = _missing_g_term

    def wrong_limit(*args: Any, alpha: float, solution: Any = None) -> Any:
        Q, q, G, h, A, b = wrong(*args, alpha=alpha)
        return SimpleNamespace(Q=Q, q=q, G=G, h=h, A=A, b=b)

    setattr(wrong_limit, "exact_limit", True)  # noqa: B010
    with substituted({"reference.qp_layers:ffo_grads": wrong_limit}):
        assert not pq.rank_one_error(inst, d).holds


def test_cli_returns_option_declares_a_partial_output() -> None:
    import io

    from properties._cli import main

    out, err = io.StringIO(), io.StringIO()
    target = "tests.qp_layers.test_declarations:_q_only"
    argv = ["crosscheck", "qp_layers.hypergradient", target, "--profile", "smoke"]
    assert main([*argv, "--returns", "q"], out=out, err=err) == 0, out.getvalue()
    text = out.getvalue()
    assert "returns q" in text
    assert "judges G, h, which the target does not return" in text
    assert main(argv, out=io.StringIO(), err=io.StringIO()) == 1
