"""The official per-information-set AsymP-DGDA (spec 19 §8) on a one-shot matrix game is
the normal-form AsymP-GDA in the official order: same iterates (an independent algorithm)."""

from __future__ import annotations

import numpy as np
import pytest

from reference import perturbation as pert
from reference.extensive import Decision, Terminal, asymp_dgda, game_from_tree, symp_dgda


def _matrix_game_tree(a: np.ndarray) -> Decision:
    """x (player 0) picks a row, y (player 1, not seeing it) a column; u_1 = -A[i, j]."""
    m, n = a.shape
    return Decision(
        player=0,
        infoset="x",
        actions=tuple(f"r{i}" for i in range(m)),
        children=tuple(
            Decision(
                player=1,
                infoset="y",
                actions=tuple(f"c{j}" for j in range(n)),
                children=tuple(Terminal(payoff=-float(a[i, j])) for j in range(n)),
            )
            for i in range(m)
        ),
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_official_asymp_dgda_on_a_matrix_game_is_official_asymp_gda(seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1.0, 1.0, size=(3, 4))
    g = game_from_tree(_matrix_game_tree(a))
    for t in (1, 7, 40):
        r = asymp_dgda(g, mu=0.3, step_size=0.2, max_iter=t, tol=None, variant="official")
        ref = pert.asymp_gda(a, mu=0.3, step_size=0.2, max_iter=t, tol=None)
        assert np.max(np.abs(r.x[1:] - ref.x)) <= 1e-12
        assert np.max(np.abs(r.y[1:] - ref.y)) <= 1e-12
        # the reconstructed y-first mirrored order differs from the official one
        old = asymp_dgda(g, mu=0.3, step_size=0.2, max_iter=t, tol=None, variant="explicit")
        assert np.max(np.abs(old.y[1:] - ref.y)) > 1e-9


def test_official_symp_dgda_on_a_matrix_game_is_symp_gda() -> None:
    a = np.random.default_rng(4).uniform(-1.0, 1.0, size=(2, 3))
    g = game_from_tree(_matrix_game_tree(a))
    r = symp_dgda(g, mu=0.5, step_size=0.1, max_iter=30, tol=None, variant="official")
    ref = pert.symp_gda(a, mu=0.5, step_size=0.1, max_iter=30, tol=None)
    assert np.max(np.abs(r.x[1:] - ref.x)) <= 1e-12
    assert np.max(np.abs(r.y[1:] - ref.y)) <= 1e-12
