"""Spec 19's optional games (``benchmarks/perturbation_efg_optional.py``): toy checks.

Without OpenSpiel both games are skipped and the table says so; with it (``importorskip``),
Goofspiel-5 is converted and the fast path's NashConv of a random profile equals OpenSpiel's
``nash_conv`` (an independent best response on OpenSpiel's own tree).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks import perturbation_efg_long as pl
from benchmarks import perturbation_efg_optional as po
from reference import extensive as efg
from reference.perturbation import fast_efg


def test_defaults_name_the_games_and_their_reduced_counts() -> None:
    s = po.Settings().long()
    assert [g.title for g in s.games] == ["Goofspiel-5", "Liar's Dice"]
    assert s.games[0].openspiel == pl.GOOFSPIEL.format(n=5)
    assert s.games[1].openspiel == "liars_dice"
    assert all(g.iterations < 1_000_000 for g in s.games)  # reduced; the header says so
    assert s.name == "perturbation_efg_optional"


def test_without_openspiel_both_games_are_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pl, "openspiel", lambda: None)
    res = pl.run(po.Settings(goofspiel5_iters=2, liars_dice_iters=2).long(), out=tmp_path)
    assert res == {}
    table = (tmp_path / "perturbation_efg_optional.md").read_text(encoding="utf-8")
    assert table.count("Skipped: needs OpenSpiel") == 2


def test_goofspiel5_nash_conv_agrees_with_openspiel() -> None:
    pytest.importorskip("pyspiel")
    expl = pytest.importorskip("open_spiel.python.algorithms.exploitability")
    conv = pl.convert(pl.GOOFSPIEL.format(n=5))
    assert (conv.fast.n1, conv.fast.n2, conv.n_terminals) == (2284, 2284, 14400)
    rng = np.random.default_rng(7)
    plans = []
    for space in (conv.x_space, conv.y_space):
        b = np.ones(space.n_sequences)
        for s, k, _p in space.layout:
            b[s : s + k] = rng.dirichlet(np.ones(k))
        plans.append(efg.behavioural_to_plan(space, b))
    # ours: the reference's treeplex best responses on A densified from the fast path's CSR
    a = np.zeros((conv.fast.n1, conv.fast.n2))
    rows = np.repeat(np.arange(conv.fast.n1), np.diff(conv.fast.a_ptr))
    np.add.at(a, (rows, conv.fast.a_idx), conv.fast.a_val)
    game = efg.SequenceFormGame(
        name="g5", payoff=a, x_space=conv.x_space, y_space=conv.y_space, n_terminals=14400
    )
    ours = efg.nash_conv(game, plans[0], plans[1])
    theirs = expl.nash_conv(conv.pyspiel_game, pl.tabular_policy(conv, plans[0], plans[1]))
    assert abs(ours - theirs) < 1e-10
    first = fast_efg.run(conv.fast, "DGDA", step_size=0.01, iterations=0).history[0]
    uniform = [
        efg.behavioural_to_plan(sp, efg.uniform_behavioural(sp))
        for sp in (conv.x_space, conv.y_space)
    ]
    assert abs(first - efg.nash_conv(game, uniform[0], uniform[1])) < 1e-12
