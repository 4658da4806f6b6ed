"""The LU-reuse benchmark counts support repeats of the refined Newton solves and restores the
solver it spies on (issue 20: how much an LU cache across Newton steps could reuse)."""

from __future__ import annotations

import numpy as np

from benchmarks import games_lu_reuse
from reference.games import fast


def test_changed_counts_entering_and_leaving_indices() -> None:
    a = (np.array([0, 2, 5]), np.array([1, 3]), 0.1)
    b = (np.array([0, 2, 6]), np.array([1, 3, 4]), 0.2)
    assert games_lu_reuse.changed(a, a) == 0
    assert games_lu_reuse.changed(a, b) == 3  # 5 leaves and 6 enters S_x, 4 enters S_y


def test_repeats_are_counted_on_a_game_whose_supports_repeat() -> None:
    r = games_lu_reuse.measure("N(0,1)", "150x150", 2, 1e-8)
    assert r.solves >= 2
    assert len(r.changes) == r.solves - 1
    assert r.same == sum(k == 0 for k in r.changes) >= 1  # this instance repeats its supports
    assert r.same <= r.near == sum(k <= games_lu_reuse.NEAR for k in r.changes)
    assert len(r.mu_changes) == r.same
    assert all(v >= 0.0 for v in r.mu_changes)
    assert 0.0 <= r.lu_repeated < r.total
    assert r.bound >= 1.0


def test_the_spied_solver_is_restored() -> None:
    before = fast._Capacitance.refined_solve
    with games_lu_reuse.recorded_solves() as solves:
        fast.newton_direction([[3.0, -1.0], [-2.0, 1.0]], [0.9, -0.2, 0.1, 0.6], 1e-3)
    assert fast._Capacitance.refined_solve is before
    # one refined solve, on the supports of P(u) and with c = μ
    assert [(ix.tolist(), iy.tolist(), mu) for ix, iy, mu in solves] == [([0], [0, 1], 1e-3)]
