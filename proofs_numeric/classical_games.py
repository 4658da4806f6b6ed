"""Classical facts about zero-sum matrix games checked numerically.

Theorem checks:

* :func:`von_neumann` — the minimax theorem, ``min_x max_y xᵀAy = max_y min_x xᵀAy``,
  measured on the strategies the LP oracle returns.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from proofs_numeric._registry import ProveProfile, register, worst
from proofs_numeric._result import BoundCheck
from reference._arrays import FloatArray, as_float_array
from reference.games import GameSolution, solve_lp

__all__ = ["MINIMAX_ATOL", "prove_von_neumann", "von_neumann"]

#: Error budget of the minimax equality, relative to ``max(1, max|A|)``: HiGHS is run with
#: feasibility tolerances 1e-10, and the strategies are renormalised after clipping.
MINIMAX_ATOL = 1e-9


def von_neumann(
    payoff: object, *, solver: Callable[[FloatArray], GameSolution] = solve_lp
) -> BoundCheck:
    """Minimax theorem on one instance: ``max_j (xᵀA)_j == min_i (Ay)_i`` for the solver's pair.

    ``x`` comes from the row player's LP and ``y`` from the column player's LP,
    solved separately; the measured quantity is the row player's guaranteed
    upper value ``max_j (xᵀA)_j`` and the bound the column player's lower value
    ``min_i (Ay)_i``, both recomputed from the strategies.  Weak duality gives
    ``measured >= bound`` for any pair; the theorem says equality is attained.

    Args:
        payoff: ``(m, n)`` finite matrix.
        solver: the equilibrium solver under test (default: the LP oracle).

    Returns:
        A :class:`BoundCheck` with sense ``==`` and ``atol = MINIMAX_ATOL * max(1, max|A|)``.

    References:
        J. von Neumann, "Zur Theorie der Gesellschaftsspiele", Math. Ann. 100 (1928), minimax theorem.
    """
    matrix = as_float_array("payoff", payoff, ndim=2)
    solution = solver(matrix)
    upper = float(np.max(solution.x @ matrix))
    lower = float(np.min(matrix @ solution.y))
    scale = max(1.0, float(np.max(np.abs(matrix))))
    return BoundCheck(
        claim="min_x max_y xᵀAy = max_y min_x xᵀAy (upper value of x equals lower value of y)",
        paper="von Neumann (1928)",
        theorem="minimax theorem",
        measured=upper,
        bound=lower,
        sense="==",
        atol=MINIMAX_ATOL * scale,
        params={"m": matrix.shape[0], "n": matrix.shape[1], "scale": scale},
    )


@register(
    name="games.von_neumann",
    family="games",
    paper="von Neumann (1928)",
    theorem="minimax theorem",
    algorithms=("reference.games:solve_lp",),
)
def prove_von_neumann(profile: ProveProfile) -> BoundCheck:
    """Random Gaussian and integer games (sizes up to 40, or 200 in ``full``) plus textbook games."""
    rng = np.random.default_rng(profile.seed)
    top = 200 if profile.is_full else 40
    instances: list[FloatArray] = [
        np.array([[1.0, -1.0], [-1.0, 1.0]]),  # matching pennies
        np.array([[0.0, 1.0, -1.0], [-1.0, 0.0, 1.0], [1.0, -1.0, 0.0]]),  # rock-paper-scissors
    ]
    for _ in range(profile.instances):
        m, n = (int(v) for v in rng.integers(1, top + 1, size=2))
        instances.append(rng.standard_normal((m, n)) * 10.0)
        instances.append(rng.integers(-5, 6, size=(m, n)).astype(np.float64))
    return worst(von_neumann(a) for a in instances)
