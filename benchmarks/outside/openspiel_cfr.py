"""OpenSpiel's CFR and CFR+ (``open_spiel.python.algorithms.cfr``) as ``extensive.cfr`` targets.

The suite hands a :class:`reference.extensive.SequenceFormGame` (payoff ``A`` over sequence pairs,
two treeplexes); OpenSpiel's solvers walk a ``pyspiel`` game tree.  :func:`as_openspiel_game`
builds a Python ``pyspiel`` game with the same sequence form:

* chance picks one of the ``K`` sequence pairs ``(s1, s2)`` with ``A[s1, s2] != 0``, uniformly;
* player 0 (our ``x``) then walks the infosets on the path to ``s1`` (information state
  ``x<j>``: the infoset only, chance's pick is hidden); leaving the path ends the game at 0;
* player 1 (our ``y``) walks to ``s2`` the same way (``y<j>``), without seeing player 0;
* reaching both pays player 0 ``-K A[s1, s2]`` (our ``x`` minimises ``xᵀAy``; OpenSpiel's
  players maximise their returns) and player 1 ``+K A[s1, s2]``.

A player's infoset ``j`` is met only after its own actions on the path to ``j``'s parent
sequence (perfect recall), and the expected return of player 1 is ``Σ x_s1 A[s1, s2] y_s2``:
the sequence form, and so CFR's regrets and averages, are those of the suite's game.  The
averages OpenSpiel returns (action probabilities per information state) become realization
plans by ``x_(j,a) = x_{p_j} π_j(a)``; an infoset the tree never visits (no nonzero payoff
below it) gets the uniform policy, as OpenSpiel's default.

:func:`kuhn_comparison` runs OpenSpiel's solvers on its own C++ ``kuhn_poker`` instead,
imported with :func:`reference.extensive.from_openspiel`, and compares NashConv (recomputed by
``properties.extensive.lp_nash_conv``) with ours after the same number of iterations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks.outside._load import load
from reference import extensive as efg
from reference._arrays import FloatArray

__all__ = ["as_openspiel_game", "cfr", "cfr_plus", "kuhn_comparison", "plan_from_policy"]


def _path(space: efg.Treeplex, sequence: int) -> list[tuple[int, int]]:
    """``(infoset, action)`` pairs from the root to ``sequence`` (empty for sequence 0)."""
    owner = {}
    for j, (s, k, _) in enumerate(space.layout):
        for a in range(k):
            owner[s + a] = (j, a)
    out: list[tuple[int, int]] = []
    while sequence != 0:
        j, a = owner[sequence]
        out.append((j, a))
        sequence = int(space.parent[j])
    return out[::-1]


def as_openspiel_game(game: efg.SequenceFormGame) -> Any:
    """A Python ``pyspiel.Game`` whose sequence form is ``game``'s (see the module docstring)."""
    pyspiel = load("pyspiel")
    a = np.asarray(game.payoff, dtype=np.float64)
    pairs = [(int(i), int(j)) for i, j in zip(*np.nonzero(a), strict=True)] or [(0, 0)]
    count = len(pairs)
    paths = [
        (_path(game.x_space, s1), _path(game.y_space, s2), count * float(a[s1, s2]))
        for s1, s2 in pairs
    ]
    widest = max(
        [1, *(k for _, k, _ in game.x_space.layout), *(k for _, k, _ in game.y_space.layout)]
    )
    bound = max(1.0, float(np.max(np.abs(a))) * count)
    game_type = pyspiel.GameType(
        short_name="python_verifiedref_sequence_form",
        long_name="verifiedref sequence-form game",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        provides_factored_observation_string=False,
    )
    longest = max(len(px) + len(py) for px, py, _ in paths) + 1
    game_info = pyspiel.GameInfo(
        num_distinct_actions=widest,
        max_chance_outcomes=count,
        num_players=2,
        min_utility=-bound,
        max_utility=bound,
        utility_sum=0.0,
        max_game_length=longest,
    )

    class Observer:
        """Information state strings ``x<j>`` / ``y<j>`` (no tensors)."""

        def __init__(self) -> None:
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict[str, Any] = {}

        def set_from(self, state: Any, player: int) -> None:
            del state, player

        def string_from(self, state: Any, player: int) -> str:
            return str(state.infoset_key(player))

    state_base: Any = pyspiel.State
    game_base: Any = pyspiel.Game

    class State(state_base):  # type: ignore[misc]  # pyspiel is untyped (loaded as Any)
        def __init__(self, owner: Any) -> None:
            super().__init__(owner)
            self.pick: int | None = None
            self.moves: list[int] = []
            self.off_path = False

        def _where(self) -> tuple[int, int] | None:
            """``(player, infoset)`` to move, or ``None`` at a terminal."""
            assert self.pick is not None
            px, py, _ = paths[self.pick]
            t = len(self.moves)
            if self.off_path or t >= len(px) + len(py):
                return None
            return (0, px[t][0]) if t < len(px) else (1, py[t - len(px)][0])

        def current_player(self) -> int:
            if self.pick is None:
                return int(pyspiel.PlayerId.CHANCE)
            where = self._where()
            return int(pyspiel.PlayerId.TERMINAL) if where is None else where[0]

        def infoset_key(self, player: int) -> str:
            where = self._where() if self.pick is not None else None
            if where is None or where[0] != player:
                return f"p{player}:none"
            return ("x" if player == 0 else "y") + str(where[1])

        def _legal_actions(self, player: int) -> list[int]:
            where = self._where()
            assert where is not None
            space = game.x_space if where[0] == 0 else game.y_space
            return list(range(int(space.size[where[1]])))

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return [(k, 1.0 / count) for k in range(count)]

        def _apply_action(self, action: int) -> None:
            if self.pick is None:
                self.pick = int(action)
                return
            px, py, _ = paths[self.pick]
            t = len(self.moves)
            want = px[t][1] if t < len(px) else py[t - len(px)][1]
            self.moves.append(int(action))
            self.off_path = int(action) != want

        def _action_to_string(self, player: int, action: int) -> str:
            return f"pick{action}" if player == int(pyspiel.PlayerId.CHANCE) else f"a{action}"

        def is_terminal(self) -> bool:
            return self.pick is not None and self._where() is None

        def returns(self) -> list[float]:
            if not self.is_terminal() or self.off_path:
                return [0.0, 0.0]
            assert self.pick is not None
            value = paths[self.pick][2]
            return [-value, value]

        def __str__(self) -> str:
            return f"{self.pick}:{','.join(map(str, self.moves))}"

    class Game(game_base):  # type: ignore[misc]  # pyspiel is untyped (loaded as Any)
        def __init__(self) -> None:
            super().__init__(game_type, game_info, {})

        def new_initial_state(self) -> State:
            return State(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
            return Observer()

    return Game()


def plan_from_policy(
    space: efg.Treeplex, probabilities: Callable[[int], FloatArray | None]
) -> FloatArray:
    """Realization plan ``x_(j,a) = x_{p_j} π_j(a)`` from per-infoset action probabilities
    (``None``: an infoset the solver never saw, played uniformly)."""
    x = np.zeros(space.n_sequences)
    x[0] = 1.0
    for j, (s, k, parent) in enumerate(space.layout):
        local = probabilities(j)
        pi = np.full(k, 1.0 / k) if local is None else np.asarray(local, dtype=np.float64)[:k]
        x[s : s + k] = x[parent] * pi
    return x


def _solve(
    game: efg.SequenceFormGame, iterations: int, plus: bool
) -> tuple[FloatArray, FloatArray]:
    cfr_module = load("open_spiel.python.algorithms.cfr")
    spiel_game = as_openspiel_game(game)
    solver = cfr_module.CFRPlusSolver(spiel_game) if plus else cfr_module.CFRSolver(spiel_game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()

    def lookup(prefix: str) -> Callable[[int], FloatArray | None]:
        def probabilities(j: int) -> FloatArray | None:
            key = f"{prefix}{j}"
            if key not in average.state_lookup:
                return None
            return np.asarray(average.policy_for_key(key), dtype=np.float64)

        return probabilities

    return (
        plan_from_policy(game.x_space, lookup("x")),
        plan_from_policy(game.y_space, lookup("y")),
    )


def cfr(game: efg.SequenceFormGame, /, *, iterations: int) -> tuple[FloatArray, FloatArray]:
    """Average plans after ``iterations`` of OpenSpiel's (Python) ``CFRSolver``."""
    return _solve(game, iterations, plus=False)


def cfr_plus(game: efg.SequenceFormGame, /, *, iterations: int) -> tuple[FloatArray, FloatArray]:
    """Average plans after ``iterations`` of OpenSpiel's (Python) ``CFRPlusSolver``."""
    return _solve(game, iterations, plus=True)


def kuhn_comparison(iterations: int, *, plus: bool = False) -> dict[str, float]:
    """NashConv on OpenSpiel's own ``kuhn_poker`` after ``iterations``: theirs against ours.

    OpenSpiel's C++ game is imported by :func:`reference.extensive.from_openspiel`; their
    solver's average policy (keyed by their information state strings, actions by id) becomes
    plans of that sequence form; both NashConvs are recomputed by LP best responses
    (``properties.extensive.lp_nash_conv``), and OpenSpiel's own ``exploitability.nash_conv``
    of their policy is reported beside them (a different scale: the sum over both players of
    the best-response gains in OpenSpiel's chips, equal to ours).
    """
    pyspiel = load("pyspiel")
    cfr_module = load("open_spiel.python.algorithms.cfr")
    exploitability = load("open_spiel.python.algorithms.exploitability")
    from properties.extensive import lp_nash_conv

    spiel_game = pyspiel.load_game("kuhn_poker")
    game = efg.from_openspiel(spiel_game)
    solver = cfr_module.CFRPlusSolver(spiel_game) if plus else cfr_module.CFRSolver(spiel_game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()

    def lookup(space: efg.Treeplex) -> Callable[[int], FloatArray | None]:
        def probabilities(j: int) -> FloatArray | None:
            key = space.names[j]
            if key not in average.state_lookup:
                return None
            full = np.asarray(average.policy_for_key(key), dtype=np.float64)
            return full[[int(label) for label in space.actions[j]]]

        return probabilities

    x = plan_from_policy(game.x_space, lookup(game.x_space))
    y = plan_from_policy(game.y_space, lookup(game.y_space))
    ours = (efg.cfr_plus if plus else efg.cfr)(game, iterations=iterations)
    return {
        "iterations": float(iterations),
        "theirs_nash_conv_lp": lp_nash_conv(game, x, y),
        "theirs_nash_conv_openspiel": float(exploitability.nash_conv(spiel_game, average)),
        "ours_nash_conv_lp": lp_nash_conv(game, np.asarray(ours.x), np.asarray(ours.y)),
        "theirs_value": -float(x @ np.asarray(game.payoff) @ y),
        "ours_value": -float(np.asarray(ours.x) @ np.asarray(game.payoff) @ np.asarray(ours.y)),
    }
