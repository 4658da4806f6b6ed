"""The OpenSpiel importer against our own Kuhn poker and the sizes of Leduc and Goofspiel-4."""

from __future__ import annotations

import numpy as np
import pytest

from reference.extensive import from_openspiel, kuhn_poker, leduc_poker, solve_lp

pyspiel = pytest.importorskip("pyspiel", exc_type=ModuleNotFoundError)

GOOFSPIEL_4 = (
    "turn_based_simultaneous_game(game=goofspiel(imp_info=True,num_cards=4,"
    "points_order=descending))"
)


def test_kuhn_matches_our_kuhn() -> None:
    ours, theirs = kuhn_poker(), from_openspiel("kuhn_poker")
    for a, b in ((ours.x_space, theirs.x_space), (ours.y_space, theirs.y_space)):
        assert (a.n_sequences, a.n_infosets) == (b.n_sequences, b.n_infosets) == (13, 6)
        assert sorted(a.size.tolist()) == sorted(b.size.tolist())
    assert ours.n_terminals == theirs.n_terminals == 30
    assert abs(solve_lp(theirs).value - (-1.0 / 18.0)) <= 1e-9
    # same multiset of payoff entries (the sequences are numbered differently)
    assert np.allclose(np.sort(theirs.payoff.ravel()), np.sort(ours.payoff.ravel()))


def test_leduc_sizes_and_value_match_our_leduc() -> None:
    ours, theirs = leduc_poker(), from_openspiel(pyspiel.load_game("leduc_poker"))
    # OpenSpiel keys information sets by card id (suits distinct): 936 in all, 468 per player;
    # ours keys them by rank (suit-isomorphic), 144 per player; the game value is the same
    assert theirs.x_space.n_infosets == theirs.y_space.n_infosets == 468
    assert ours.x_space.n_infosets == ours.y_space.n_infosets == 144
    assert abs(solve_lp(theirs).value - solve_lp(ours).value) <= 1e-7


def test_goofspiel_4_sizes_and_symmetric_value() -> None:
    g = from_openspiel(GOOFSPIEL_4)
    assert g.n_terminals == (4 * 3 * 2 * 1) ** 2
    # player 1 has 1 + 4 + 4·3·4... infosets: one per (own hand, bids seen, win sequence)
    assert g.x_space.n_infosets == g.y_space.n_infosets
    assert abs(solve_lp(g).value) <= 1e-9  # symmetric game (win/loss returns): value 0


def test_rejects_non_games_and_simultaneous_games() -> None:
    with pytest.raises(TypeError, match="game"):
        from_openspiel(3)
    with pytest.raises(ValueError, match="simultaneous"):
        from_openspiel("goofspiel(num_cards=3)")
    with pytest.raises(ValueError, match="two-player"):
        from_openspiel("kuhn_poker(players=3)")
