"""Theorem checks of the extensive-form family: Kuhn poker's value and AsymP-DGDA's last iterate."""

from __future__ import annotations

from proofs_numeric import extensive as ext


def test_kuhn_checks_hold_and_can_fail() -> None:
    assert ext.kuhn_value().holds
    assert ext.kuhn_asymp_dgda().holds
    assert not ext.kuhn_asymp_dgda(mu=0.05, iterations=2000).holds  # shifted point
