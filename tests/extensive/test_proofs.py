"""Theorem checks of the extensive-form family: Kuhn poker's value and AsymP-DGDA's last iterate."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from proofs_numeric import extensive as ext
from reference import extensive as efg


def test_kuhn_checks_hold_and_can_fail() -> None:
    assert ext.kuhn_value().holds
    assert ext.kuhn_asymp_dgda().holds
    assert not ext.kuhn_asymp_dgda(mu=0.05, iterations=2000).holds  # shifted point


def test_kuhn_asymp_dgda_recomputes_nash_conv(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 17: the check read the result's own nash_conv field; a solver that returns a stale
    # y (here the 200th iterate) with the converged run's NashConv passed.  NashConv is now
    # recomputed by two sequence-form LP best responses
    real = efg.asymp_dgda
    game = efg.kuhn_poker()
    ok = ext.kuhn_asymp_dgda()
    assert ok.measured == pytest.approx(ok.params["reported NashConv"], abs=1e-12)

    def stale_y(g: efg.SequenceFormGame, **kw: Any) -> efg.EFGResult:
        res = real(g, **kw)
        early = real(g, **{**kw, "max_iter": 200})
        return dataclasses.replace(res, y=early.y)

    monkeypatch.setattr(efg, "asymp_dgda", stale_y)
    wrong = ext.kuhn_asymp_dgda()
    reported = wrong.params["reported NashConv"]
    assert isinstance(reported, float)
    assert reported <= 1e-10  # the field still claims convergence
    assert not wrong.holds
    assert wrong.measured > 1e-4
    # the LP NashConv agrees with the library's recursion on a non-equilibrium pair
    early = real(game, mu=0.01, max_iter=200, tol=1e-12)
    assert ext.lp_nash_conv(game, early.x, early.y) == pytest.approx(
        efg.nash_conv(game, early.x, early.y), rel=1e-9
    )
