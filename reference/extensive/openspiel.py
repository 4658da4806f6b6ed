"""Import a two-player zero-sum OpenSpiel game into our sequence form.

Part of :mod:`reference.extensive`, which re-exports :func:`from_openspiel`.  OpenSpiel
(``pip install open_spiel``, the optional extra ``[openspiel]``) is imported lazily, only when
the function is called; nothing else in the library needs it.
"""

from __future__ import annotations

import importlib
from typing import Any

from reference._arrays import describe
from reference.extensive.tree import (
    Chance,
    Decision,
    Node,
    SequenceFormGame,
    Terminal,
    game_from_tree,
)

__all__ = ["from_openspiel"]


def _load_pyspiel() -> Any:
    try:
        return importlib.import_module("pyspiel")
    except ModuleNotFoundError as exc:  # pragma: no cover - depends on the environment
        raise ModuleNotFoundError(
            "from_openspiel needs OpenSpiel: pip install 'verifiedref[openspiel]' (open_spiel)"
        ) from exc


def _tree(state: Any) -> Node:
    """The game tree below ``state`` as our nodes (depth-first, one OpenSpiel state per node)."""
    if state.is_terminal():
        return Terminal(payoff=float(state.returns()[0]))
    if state.is_chance_node():
        return Chance(
            outcomes=tuple(
                (float(p), _tree(state.child(action))) for action, p in state.chance_outcomes()
            )
        )
    player = int(state.current_player())
    if player not in (0, 1):
        raise ValueError(
            f"game: expected a sequential game with players 0 and 1 to move, got player {player} "
            "(wrap simultaneous games in turn_based_simultaneous_game)"
        )
    actions = tuple(int(a) for a in state.legal_actions())
    return Decision(
        player=player,
        infoset=str(state.information_state_string(player)),
        actions=tuple(str(a) for a in actions),
        children=tuple(_tree(state.child(a)) for a in actions),
    )


def from_openspiel(game: object) -> SequenceFormGame:
    """Build the sequence form of a two-player zero-sum OpenSpiel game with perfect recall.

    The OpenSpiel game tree is walked from the initial state: terminal states become
    :class:`Terminal` with player 0's return, chance states :class:`Chance` with
    ``chance_outcomes()``, decision states :class:`Decision` keyed by the acting player's
    ``information_state_string`` with the legal action ids as labels; then
    :func:`game_from_tree` builds the treeplexes and ``A[s1, s2] = -Σ chance(z)·u_1(z)``
    (player 0 of OpenSpiel is our ``x``, who minimises ``xᵀAy``).  Perfect recall is checked
    by the builder.  Simultaneous-move games must be wrapped first, e.g.
    ``turn_based_simultaneous_game(game=goofspiel(...))``.  The tree is enumerated in full,
    so this is for small games (Kuhn, Leduc, Goofspiel with 4 cards, small Liar's Dice).

    Args:
        game: a ``pyspiel.Game`` or a game string for ``pyspiel.load_game``.

    Returns:
        The :class:`SequenceFormGame`, named by ``str(game)``.

    Raises:
        ModuleNotFoundError: OpenSpiel is not installed.
        TypeError: ``game`` is neither a string nor a ``pyspiel.Game``.
        ValueError: not a two-player zero-sum sequential game, or the builder's errors
            (imperfect recall, inconsistent information sets).

    Example:
        >>> from reference.extensive import from_openspiel, solve_lp
        >>> g = from_openspiel("kuhn_poker")  # doctest: +SKIP
        >>> g.x_space.n_sequences, round(solve_lp(g).value, 6)  # doctest: +SKIP
        (13, -0.055556)

    References:
        M. Lanctot et al., "OpenSpiel: A framework for reinforcement learning in games",
        arXiv:1908.09453 (2019); D. Koller, N. Megiddo, B. von Stengel, Games and Economic
        Behavior 14 (1996) (sequence form).
    """
    pyspiel = _load_pyspiel()
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    if not isinstance(game, pyspiel.Game):
        raise TypeError(f"game: expected a pyspiel.Game or a game string, got {describe(game)}")
    kind = game.get_type()
    if game.num_players() != 2:
        raise ValueError(f"game: expected a two-player game, got {game.num_players()} players")
    if kind.utility not in (pyspiel.GameType.Utility.ZERO_SUM,):
        raise ValueError(f"game: expected a zero-sum game, got utility {kind.utility}")
    if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError(
            "game: expected a sequential game, got simultaneous moves "
            "(wrap it in turn_based_simultaneous_game)"
        )
    return game_from_tree(_tree(game.new_initial_state()), name=str(game))
