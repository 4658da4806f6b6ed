"""Extensive-form game trees, the sequence-form builder, and Kuhn and Leduc poker.

Part of :mod:`reference.extensive`, which re-exports every public name defined here and
documents the conventions (who minimises, the payoff matrix) and the references.  A game is
a tree of :class:`Terminal`, :class:`Chance` and :class:`Decision` nodes; :func:`game_from_tree`
turns it into the sequence form of Koller, Megiddo and von Stengel (1996), spec 19 §3.6.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from reference._arrays import (
    FloatArray,
    IntArray,
    describe,
    readonly,
)
from reference._repr import summary_repr

#: Tolerance of the realization-plan membership test at the public boundary.
PLAN_ATOL = 1e-8


# ------------------------------------------------------------------------------ game trees
@dataclass(frozen=True, slots=True, kw_only=True)
class Terminal:
    """A leaf; ``payoff`` is player 1's utility (player 2 gets ``-payoff``)."""

    payoff: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Chance:
    """A chance node: ``outcomes`` is a tuple of ``(probability, child)`` pairs."""

    outcomes: tuple[tuple[float, Node], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """A decision of ``player`` (0 or 1) at information set ``infoset`` (a key unique per
    player); ``children[i]`` follows ``actions[i]``."""

    player: int
    infoset: str
    actions: tuple[str, ...]
    children: tuple[Node, ...]


Node = Terminal | Chance | Decision


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class Treeplex:
    """One player's sequence-form strategy space.

    Information sets are numbered in topological order (a parent's infoset comes first);
    infoset ``j`` owns the contiguous sequences ``start[j] .. start[j] + size[j] - 1``;
    sequence 0 is the empty sequence.

    Attributes:
        n_sequences: number of sequences (``1 + Σ_j size[j]``).
        parent: ``(J,)`` read-only parent sequence ``p_j`` of each infoset.
        start: ``(J,)`` read-only first sequence of each infoset.
        size: ``(J,)`` read-only number of actions of each infoset.
        names: infoset keys, in order.
        actions: action labels per infoset.
        layout: ``(start, size, parent)`` per infoset as Python ints (for the loops).
    """

    n_sequences: int
    parent: IntArray
    start: IntArray
    size: IntArray
    names: tuple[str, ...]
    actions: tuple[tuple[str, ...], ...]
    layout: tuple[tuple[int, int, int], ...]

    @property
    def n_infosets(self) -> int:
        """Number of information sets ``J``."""
        return len(self.names)

    def constraints(self) -> tuple[FloatArray, FloatArray]:
        """``(E, e)`` with ``E x = e`` the realization-plan equalities (``J + 1`` rows)."""
        matrix = np.zeros((self.n_infosets + 1, self.n_sequences))
        matrix[0, 0] = 1.0
        for j, (s, k, p) in enumerate(self.layout):
            matrix[j + 1, s : s + k] = 1.0
            matrix[j + 1, p] = -1.0
        rhs = np.zeros(self.n_infosets + 1)
        rhs[0] = 1.0
        return matrix, rhs


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class SequenceFormGame:
    """A two-player zero-sum game in sequence form (build it with :func:`game_from_tree`).

    Attributes:
        name: a label.
        payoff: ``(n1, n2)`` read-only ``A``; player 1 (``x``) minimises ``xᵀAy``.
        x_space: player 1's :class:`Treeplex`.
        y_space: player 2's :class:`Treeplex`.
        n_terminals: number of leaves of the tree.
    """

    name: str
    payoff: FloatArray
    x_space: Treeplex
    y_space: Treeplex
    n_terminals: int


class _Builder:
    """Depth-first conversion of a game tree into the sequence form."""

    def __init__(self) -> None:
        self.keys: list[dict[str, int]] = [{}, {}]
        self.parent: list[list[int]] = [[], []]
        self.start: list[list[int]] = [[], []]
        self.actions: list[list[tuple[str, ...]]] = [[], []]
        self.names: list[list[str]] = [[], []]
        self.next_seq = [1, 1]
        self.entries: dict[tuple[int, int], float] = {}
        self.terminals = 0

    def infoset(self, node: Decision, seqs: tuple[int, int]) -> int:
        p = node.player
        key = node.infoset
        known = self.keys[p].get(key)
        if known is None:
            j = len(self.parent[p])
            self.keys[p][key] = j
            self.parent[p].append(seqs[p])
            self.start[p].append(self.next_seq[p])
            self.actions[p].append(node.actions)
            self.names[p].append(key)
            self.next_seq[p] += len(node.actions)
            return j
        if self.actions[p][known] != node.actions:
            raise ValueError(
                f"root: information set {key!r} of player {p} has actions "
                f"{self.actions[p][known]} at one node and {node.actions} at another"
            )
        if self.parent[p][known] != seqs[p]:
            raise ValueError(
                f"root: information set {key!r} of player {p} is reached after different own "
                "sequences (the tree violates perfect recall)"
            )
        return known

    def visit(self, node: object, seqs: tuple[int, int], reach: float) -> None:
        stack: list[tuple[object, tuple[int, int], float]] = [(node, seqs, reach)]
        while stack:
            current, here, prob = stack.pop()
            if isinstance(current, Terminal):
                value = _finite_number(current.payoff, "root: terminal payoff")
                key = (here[0], here[1])
                self.entries[key] = self.entries.get(key, 0.0) - prob * value
                self.terminals += 1
            elif isinstance(current, Chance):
                if not current.outcomes:
                    raise ValueError("root: expected a chance node with >= 1 outcome, got none")
                probs = [_finite_number(q, "root: chance probability") for q, _ in current.outcomes]
                if min(probs) < 0.0 or abs(sum(probs) - 1.0) > 1e-9:
                    raise ValueError(
                        f"root: expected chance probabilities >= 0 summing to 1, got {probs}"
                    )
                for q, (_, child) in reversed(list(zip(probs, current.outcomes, strict=True))):
                    stack.append((child, here, prob * q))
            elif isinstance(current, Decision):
                self._check_decision(current)
                j = self.infoset(current, here)
                first = self.start[current.player][j]
                for i in reversed(range(len(current.actions))):
                    nxt = list(here)
                    nxt[current.player] = first + i
                    stack.append((current.children[i], (nxt[0], nxt[1]), prob))
            else:
                raise TypeError(
                    f"root: expected Terminal, Chance or Decision nodes, got {describe(current)}"
                )

    @staticmethod
    def _check_decision(node: Decision) -> None:
        if not isinstance(node.actions, tuple | list) or not isinstance(
            node.children, tuple | list
        ):
            raise TypeError(
                f"root: information set {node.infoset!r} needs tuples of actions and children"
            )
        if node.player not in (0, 1) or isinstance(node.player, bool):
            raise ValueError(f"root: expected player 0 or 1, got {node.player!r}")
        if not node.actions:
            raise ValueError(f"root: information set {node.infoset!r} has no actions")
        if len(set(node.actions)) != len(node.actions):
            raise ValueError(
                f"root: information set {node.infoset!r} repeats an action: {node.actions}"
            )
        if len(node.children) != len(node.actions):
            raise ValueError(
                f"root: information set {node.infoset!r} has {len(node.actions)} actions but "
                f"{len(node.children)} children"
            )

    def space(self, p: int) -> Treeplex:
        return Treeplex(
            n_sequences=self.next_seq[p],
            parent=readonly(np.array(self.parent[p], dtype=np.int64)),
            start=readonly(np.array(self.start[p], dtype=np.int64)),
            size=readonly(np.array([len(a) for a in self.actions[p]], dtype=np.int64)),
            names=tuple(self.names[p]),
            actions=tuple(self.actions[p]),
            layout=tuple(
                (s, len(a), q)
                for s, a, q in zip(self.start[p], self.actions[p], self.parent[p], strict=True)
            ),
        )


def _finite_number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"{what}: expected a real number, got {describe(value)}")
    out = float(value)
    if not math.isfinite(out):
        raise ValueError(f"{what}: expected a finite number, got {out!r}")
    return out


def game_from_tree(root: object, *, name: str = "game") -> SequenceFormGame:
    """Build the sequence form of a two-player zero-sum game tree with perfect recall.

    Information sets are identified by ``(player, Decision.infoset)``; every node of an
    information set must offer the same actions and be reached after the same own sequence
    (perfect recall).  Chance probabilities multiply into the payoff matrix
    ``A[s1, s2] = -Σ chance(z)·u_1(z)`` (spec 19 §3.6).

    Args:
        root: the root :class:`Terminal`, :class:`Chance` or :class:`Decision` node.
        name: a label for the game.

    Returns:
        The :class:`SequenceFormGame`.

    Raises:
        TypeError: a node of an unknown kind, or a non-numeric payoff/probability.
        ValueError: non-finite payoffs, chance probabilities not summing to one, a player
            other than 0/1, an information set whose nodes disagree on actions or on the
            player's own history (imperfect recall), repeated actions.

    Example:
        >>> mp = Decision(player=0, infoset="p1", actions=("H", "T"), children=tuple(
        ...     Decision(player=1, infoset="p2", actions=("H", "T"), children=tuple(
        ...         Terminal(payoff=1.0 if a == b else -1.0) for b in "HT"))
        ...     for a in "HT"))
        >>> g = game_from_tree(mp, name="matching pennies")
        >>> g.payoff.tolist()
        [[0.0, 0.0, 0.0], [0.0, -1.0, 1.0], [0.0, 1.0, -1.0]]
    """
    builder = _Builder()
    builder.visit(root, (0, 0), 1.0)
    x_space, y_space = builder.space(0), builder.space(1)
    a = np.zeros((x_space.n_sequences, y_space.n_sequences))
    for (s1, s2), v in builder.entries.items():
        a[s1, s2] += v
    return SequenceFormGame(
        name=name,
        payoff=readonly(a),
        x_space=x_space,
        y_space=y_space,
        n_terminals=builder.terminals,
    )


# ------------------------------------------------------------------------------ poker
def kuhn_poker() -> SequenceFormGame:
    """Kuhn poker (3 cards J < Q < K, ante 1, one bet of 1), player 1 acts first.

    Each player has 6 information sets and 13 sequences; the value for player 1 is
    ``-1/18`` (Kuhn 1950).

    Returns:
        The :class:`SequenceFormGame` ``"kuhn_poker"``.

    Example:
        >>> g = kuhn_poker()
        >>> g.x_space.n_sequences, g.y_space.n_sequences, g.x_space.n_infosets
        (13, 13, 6)

    References:
        H. W. Kuhn, "A simplified two-person poker", Contributions to the Theory of Games I
        (1950).
    """
    names = "JQK"

    def showdown(c1: int, c2: int, stake: float) -> Terminal:
        return Terminal(payoff=stake if c1 > c2 else -stake)

    deals: list[tuple[float, Node]] = []
    for c1 in range(3):
        inner: list[tuple[float, Node]] = []
        for c2 in range(3):
            if c2 == c1:
                continue
            k1, k2 = names[c1], names[c2]
            after_check = Decision(
                player=1,
                infoset=f"{k2}:c",
                actions=("c", "b"),
                children=(
                    showdown(c1, c2, 1.0),
                    Decision(
                        player=0,
                        infoset=f"{k1}:cb",
                        actions=("f", "c"),
                        children=(Terminal(payoff=-1.0), showdown(c1, c2, 2.0)),
                    ),
                ),
            )
            after_bet = Decision(
                player=1,
                infoset=f"{k2}:b",
                actions=("f", "c"),
                children=(Terminal(payoff=1.0), showdown(c1, c2, 2.0)),
            )
            root = Decision(
                player=0, infoset=f"{k1}:", actions=("c", "b"), children=(after_check, after_bet)
            )
            inner.append((0.5, root))
        deals.append((1.0 / 3.0, Chance(outcomes=tuple(inner))))
    return game_from_tree(Chance(outcomes=tuple(deals)), name="kuhn_poker")


def _leduc_round(
    *,
    rnd: int,
    history: str,
    contrib: tuple[float, float],
    raises: int,
    to_act: int,
    facing: bool,
    checks: int,
    keys: tuple[str, str],
    finish: Callable[[str, tuple[float, float]], Node],
) -> Node:
    """One betting round of Leduc (raise size 2 then 4, at most 2 raises per round)."""
    size = 2.0 if rnd == 0 else 4.0
    actions: list[str] = []
    children: list[Node] = []
    other = 1 - to_act
    if facing:
        actions.append("f")
        children.append(Terminal(payoff=-contrib[0] if to_act == 0 else contrib[1]))
        called = (max(contrib), max(contrib))
        actions.append("c")
        children.append(finish(history + "c", called))
    else:
        actions.append("c")
        if checks == 1:
            children.append(finish(history + "c", contrib))
        else:
            children.append(
                _leduc_round(
                    rnd=rnd,
                    history=history + "c",
                    contrib=contrib,
                    raises=raises,
                    to_act=other,
                    facing=False,
                    checks=1,
                    keys=keys,
                    finish=finish,
                )
            )
    if raises < 2:
        new = list(contrib)
        new[to_act] = max(contrib) + size
        actions.append("r")
        children.append(
            _leduc_round(
                rnd=rnd,
                history=history + "r",
                contrib=(new[0], new[1]),
                raises=raises + 1,
                to_act=other,
                facing=True,
                checks=checks,
                keys=keys,
                finish=finish,
            )
        )
    return Decision(
        player=to_act,
        infoset=f"{keys[to_act]}{history}",
        actions=tuple(actions),
        children=tuple(children),
    )


def leduc_poker() -> SequenceFormGame:
    """Leduc hold'em: 6 cards (J, Q, K twice), ante 1, two betting rounds.

    Rules (Southey et al. 2005, as in OpenSpiel's ``leduc_poker``): each player gets one
    private card; round 1 (raise size 2), one public card, round 2 (raise size 4); at most
    two raises per round; player 1 acts first in both rounds; fold / call (check) / raise.
    At showdown a player pairing the public card wins, otherwise the higher card; equal
    ranks split.  Suits are strategically irrelevant, so information sets are keyed by rank.

    Returns:
        The :class:`SequenceFormGame` ``"leduc_poker"`` (its value for player 1 is about
        ``-0.0856``).

    References:
        F. Southey et al., "Bayes' bluff: opponent modelling in poker", UAI 2005.
    """
    ranks = "JQK"

    def showdown(r1: int, r2: int, pub: int, stake: float) -> Terminal:
        if r1 == pub:
            return Terminal(payoff=stake)
        if r2 == pub:
            return Terminal(payoff=-stake)
        if r1 == r2:
            return Terminal(payoff=0.0)
        return Terminal(payoff=stake if r1 > r2 else -stake)

    deals: list[tuple[float, Node]] = []
    for r1 in range(3):
        inner: list[tuple[float, Node]] = []
        for r2 in range(3):
            left = [2, 2, 2]
            left[r1] -= 1
            p2 = left[r2] / 5.0
            if p2 == 0.0:
                continue
            left2 = list(left)
            left2[r2] -= 1

            def second(
                history: str,
                contrib: tuple[float, float],
                r1: int = r1,
                r2: int = r2,
                left2: tuple[int, ...] = tuple(left2),
            ) -> Node:
                outs: list[tuple[float, Node]] = []
                for pub in range(3):
                    if left2[pub] == 0:
                        continue

                    def end(h: str, c: tuple[float, float], pub: int = pub) -> Node:
                        return showdown(r1, r2, pub, c[0])

                    outs.append(
                        (
                            left2[pub] / 4.0,
                            _leduc_round(
                                rnd=1,
                                history=f"{history}|{ranks[pub]}:",
                                contrib=contrib,
                                raises=0,
                                to_act=0,
                                facing=False,
                                checks=0,
                                keys=(f"{ranks[r1]}:", f"{ranks[r2]}:"),
                                finish=end,
                            ),
                        )
                    )
                return Chance(outcomes=tuple(outs))

            inner.append(
                (
                    p2,
                    _leduc_round(
                        rnd=0,
                        history="",
                        contrib=(1.0, 1.0),
                        raises=0,
                        to_act=0,
                        facing=False,
                        checks=0,
                        keys=(f"{ranks[r1]}:", f"{ranks[r2]}:"),
                        finish=second,
                    ),
                )
            )
        deals.append((2.0 / 6.0, Chance(outcomes=tuple(inner))))
    return game_from_tree(Chance(outcomes=tuple(deals)), name="leduc_poker")
