"""The LU-share benchmark attributes factorisation time to its callers and restores the solvers
(issue 20: the bound on what reusing factorisations could save)."""

from __future__ import annotations

import numpy as np
import scipy.linalg

from benchmarks import games_lu_share


def test_factorisations_are_attributed_and_bounded_by_the_total() -> None:
    dist, seed, total, newton, polish, calls, _, newton_its = games_lu_share.measure(
        "N(0,1)", "150x150", 0, 1e-8
    )
    assert (dist, seed) == ("N(0,1)", 0)
    assert newton_its >= 1
    assert calls >= newton_its
    assert 0.0 < newton + polish <= total


def test_the_wrapped_solvers_are_restored() -> None:
    before = (scipy.linalg.lu_factor, np.linalg.solve)
    with games_lu_share.timed_factorisations() as seconds:
        np.linalg.solve(np.eye(2), np.ones(2))
        scipy.linalg.lu_factor(np.eye(2))
    assert set(seconds) == {"test_the_wrapped_solvers_are_restored"}
    assert len(seconds["test_the_wrapped_solvers_are_restored"]) == 2
    assert (scipy.linalg.lu_factor, np.linalg.solve) == before
