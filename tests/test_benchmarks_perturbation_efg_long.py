"""Spec 19 Table 4 at 1e6 iterations (``benchmarks/perturbation_efg_long.py``): toy runs.

The toy run uses our Kuhn and Leduc (no OpenSpiel); every last iterate's NashConv from the fast
path, and the CFR family's average's, is recomputed by the reference's ``nash_conv`` on the
dense payoff; the fast CFR and CFR+ in the reference's order match our CFR and CFR+.  The OpenSpiel part
(conversion, NashConv against OpenSpiel's ``nash_conv`` / ``exploitability``) is skipped where
OpenSpiel is not installed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks import perturbation_efg_long as pl
from reference import extensive as efg


def test_defaults_are_the_committed_run() -> None:
    games = {g.title: g for g in pl.Settings().games}
    assert set(games) == {"Kuhn poker", "Leduc poker", "Goofspiel-4", "Leduc (ours)"}
    assert games["Kuhn poker"].iterations == 1_000_000  # the paper's count
    assert games["Goofspiel-4"].iterations == 1_000_000
    assert games["Leduc poker"].iterations == 1_000_000
    for g in games.values():  # the CFR family at the spec's 1e6 through the fast path
        assert g.fast_cfr_iterations == 1_000_000
    assert games["Kuhn poker"].methods["AsymP-DGDA"] == (0.1, 0.01)  # Table 4
    assert games["Kuhn poker"].methods["SymP-DGDA"] == (0.05, 0.001)
    assert games["Goofspiel-4"].methods["AsymP-DGDA"] == (0.1, 0.05)
    assert games["Goofspiel-4"].methods["SymP-DGDA"] == (0.1, 1e-4)
    assert {k: v[0] for k, v in pl.KUHN.items() if v[1] == 0.0} == {
        "DGDA": 0.01,
        "DMWU": 0.01,
        "DOMWU": 0.1,
        "DOGDA": 0.1,
    }


def test_toy_run_without_openspiel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pl, "openspiel", lambda: None)
    games = (
        pl.GameRun("Kuhn poker", "kuhn_poker", "kuhn", pl.KUHN, 200, 10, 0, "", 300),
        pl.GameRun("Goofspiel-4", pl.GOOFSPIEL.format(n=4), None, pl.GOOF4, 10, 5, 5, "", 5),
        pl.GameRun("Leduc (ours)", None, "leduc", pl.KUHN, 4, 2, 0, "", 3),
    )
    res = pl.run(pl.Settings(games=games, plot_points=20), out=tmp_path)
    assert set(res) == {"Kuhn poker", "Leduc (ours)"}  # Goofspiel-4 needs OpenSpiel
    for title, per in res.items():
        assert {"AsymP-DGDA", "DOGDA", "CFR", "CFR+"} <= set(per)
        for name in pl.KUHN:
            assert per[f"{name} check"] < 1e-12, (title, name)  # reference NashConv, dense A
        for name in ("CFR", "CFR+", "DCFR", "LCFR"):
            assert per[f"{name} (fast) check"] < 1e-12, (title, name)  # reference NashConv
        for name in ("CFR", "CFR+"):  # the fast path in the reference's order = our CFR, CFR+
            assert per[f"{name} fast vs baseline"] < 1e-12, (title, name)
    # CFR+'s average after 300 iterations on Kuhn: measured 8.7e-4 (uniform: 11/12)
    assert res["Kuhn poker"]["CFR+ (fast)"] < 0.01
    # AsymP-DGDA moves away from the uniform profile's 11/12 on Kuhn within 200 iterations
    assert res["Kuhn poker"]["AsymP-DGDA"] < 11 / 12 / 2
    table = (tmp_path / "perturbation_efg_long.md").read_text(encoding="utf-8")
    assert "Skipped: needs OpenSpiel" in table
    assert "| AsymP-DGDA (last iterate) | 0.1, 0.01 | 200 |" in table
    assert "| DCFR (fast path, OpenSpiel's order, average) | — | 300 |" in table
    assert "| CFR+ | reference | 10 |" in table  # the cross-check against our CFR+
    for slug in ("kuhn_poker", "leduc_ours"):
        assert (tmp_path / f"perturbation_efg_long_{slug}.png").stat().st_size > 0


def test_openspiel_conversion_and_nash_conv_agree_with_openspiel() -> None:
    pytest.importorskip("pyspiel")
    expl = pytest.importorskip("open_spiel.python.algorithms.exploitability")
    conv = pl.convert("kuhn_poker")
    assert conv.dense is not None
    assert abs(efg.solve_lp(conv.dense).value + 1 / 18) < 1e-9  # Kuhn: player 1 gets -1/18
    rng = np.random.default_rng(5)
    for _ in range(3):  # random behavioural profiles
        plans = []
        for space in (conv.x_space, conv.y_space):
            b = np.ones(space.n_sequences)
            for s, k, _p in space.layout:
                b[s : s + k] = rng.dirichlet(np.ones(k))
            plans.append(efg.behavioural_to_plan(space, b))
        ours = efg.nash_conv(conv.dense, plans[0], plans[1])
        pol = pl.tabular_policy(conv, plans[0], plans[1])
        assert abs(ours - expl.nash_conv(conv.pyspiel_game, pol)) < 1e-12
        assert abs(ours - 2 * expl.exploitability(conv.pyspiel_game, pol)) < 1e-12


def test_fast_cfr_iterations_option() -> None:
    assert pl.settings_from_args([]) == pl.Settings()  # defaults: the committed run
    s = pl.settings_from_args(["--fast-cfr-iterations", "7"])
    assert [g.fast_cfr_iterations for g in s.games] == [7, 7, 7, 7]
    assert [g.iterations for g in s.games] == [g.iterations for g in pl.Settings().games]
    with pytest.raises(SystemExit):
        pl.settings_from_args(["--fast-cfr-iterations", "-1"])
    assert pl.settings_from_args(["--workers", "2"]).workers == 2
    with pytest.raises(SystemExit):
        pl.settings_from_args(["--workers", "0"])


def test_two_workers_give_the_same_figures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pl, "openspiel", lambda: None)
    games = (
        pl.GameRun("Kuhn poker", "kuhn_poker", "kuhn", pl.KUHN, 30, 10, 0, "", 40),
        pl.GameRun("Leduc (ours)", None, "leduc", pl.KUHN, 3, 2, 0, "", 3),
    )
    one = pl.run(pl.Settings(games=games, plot_points=10), out=tmp_path / "one")
    two = pl.run(pl.Settings(games=games, plot_points=10, workers=2), out=tmp_path / "two")
    assert one == two
    table = (tmp_path / "two" / "perturbation_efg_long.md").read_text(encoding="utf-8")
    assert "--workers 2" in table
    assert table.index("## Kuhn poker") < table.index("## Leduc (ours)")
