"""Spec 17 targets (1), (3), (4) (``benchmarks/attention_queries_study.py``): a toy run."""

from __future__ import annotations

from pathlib import Path

from benchmarks import attention_queries_study as study


def test_toy_run_exact_queries_noise_slope_and_passive_rows(tmp_path: Path) -> None:
    s = study.Settings(
        exact_d=5, exact_seeds=2, noisy_d=3, taus=(1e-5, 1e-3), noisy_seeds=2,
        passive_d=2, passive_queries=(3, 12), passive_seeds=1, passive_iter=40,
    )  # fmt: skip
    out = study.run(s, out=tmp_path)
    exact = out["exact"]
    assert isinstance(exact, list)
    for queries, _, err_w, err_v in exact:
        assert queries == 5 * 5 + 5  # Algorithm A's d^2 + d queries (Theorem 4.1)
        assert err_w < 1e-9
        assert err_v < 1e-12
    noisy = out["noisy"]
    assert isinstance(noisy, dict)
    for err_w, err_v, bound_w, bound_v in noisy.values():
        assert err_w <= bound_w  # the explicit bounds of Algorithm C hold
        assert err_v <= bound_v
    assert abs(float(str(out["slope_w"])) - 1.0) < 0.2  # error linear in tau
    table = (tmp_path / "attention_queries_study.md").read_text(encoding="utf-8")
    assert "| 3 | " in table
    assert "| 12 | " in table
    assert (tmp_path / "attention_queries_study.png").stat().st_size > 0
