"""Two-player zero-sum extensive-form games in sequence form, and AsymP-DGDA.

A game is built from its rules as a tree of :class:`Terminal`, :class:`Chance` and
:class:`Decision` nodes (:func:`game_from_tree`); Kuhn poker (:func:`kuhn_poker`) and Leduc
poker (:func:`leduc_poker`) are constructed here, nothing is downloaded.  The builder turns
the tree into the sequence form (Koller, Megiddo, von Stengel 1996; spec 19 §3.6):

* for each player a *treeplex* (:class:`Treeplex`): the empty sequence (index 0) plus one
  sequence per (information set ``j``, action ``a``); ``p_j`` is the parent sequence of ``j``;
* realization plans ``X = {x >= 0 : x_∅ = 1, Σ_a x_(j,a) = x_{p_j}}`` (``E x = e``), same for Y;
* the payoff matrix ``A[s1, s2] = -Σ_z chance(z)·u_1(z)`` over the terminal nodes ``z``
  reached by ``(s1, s2)``: player 1 (``x``) *minimises* ``xᵀAy``, and the game value from
  player 1's view is ``-min_x max_y xᵀAy``.

Algorithms (spec 19 §3.6): the sequence-form LP (:func:`solve_lp`), NashConv by best response
on the tree (:func:`nash_conv`), the dilated Euclidean regulariser and its exact prox
(:func:`dilated_prox`), AsymP-DGDA (:func:`asymp_dgda`) and the baselines :func:`dgda`,
:func:`symp_dgda`, :func:`dogda`, :func:`dmwu` (and DOMWU via ``optimistic=True``).

References:
    K. Abe, M. Sakamoto, K. Ariu, A. Iwasaki, "Asymmetric Perturbation in Solving Bilinear
    Saddle-Point Optimization", ICML 2026, arXiv:2506.05747, Section 5 (extensive-form games).
    D. Koller, N. Megiddo, B. von Stengel, "Efficient computation of equilibria for extensive
    two-person games", Games and Economic Behavior 14 (1996).
    S. Hoda, A. Gilpin, J. Peña, T. Sandholm, "Smoothing techniques for computing Nash
    equilibria of sequential games", Math. of OR 35 (2010) (dilated regularisers).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy.optimize import linprog

from reference._arrays import (
    FloatArray,
    IntArray,
    as_float_array,
    describe,
    readonly,
    require_int,
    require_positive,
)

__all__ = [
    "Chance",
    "Decision",
    "EFGResult",
    "EFGSolution",
    "Node",
    "SequenceFormGame",
    "Terminal",
    "Treeplex",
    "asymp_dgda",
    "behavioural_to_plan",
    "best_response_value",
    "bregman_divergence",
    "dgda",
    "dilated_gradient",
    "dilated_prox",
    "dilated_regulariser",
    "dmwu",
    "dogda",
    "game_from_tree",
    "kuhn_poker",
    "leduc_poker",
    "nash_conv",
    "plan_to_behavioural",
    "plan_violation",
    "solve_lp",
    "symp_dgda",
    "uniform_behavioural",
]

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


# ------------------------------------------------------------------------------ validation
def _require_game(game: object) -> SequenceFormGame:
    if not isinstance(game, SequenceFormGame):
        raise TypeError(f"game: expected a SequenceFormGame, got {describe(game)}")
    return game


def _require_space(space: object) -> Treeplex:
    if not isinstance(space, Treeplex):
        raise TypeError(f"space: expected a Treeplex, got {describe(space)}")
    return space


def _plan_residual(space: Treeplex, x: FloatArray) -> float:
    """``max |E x - e|`` without forming ``E``."""
    residual = abs(float(x[0]) - 1.0)
    if space.n_infosets:
        sums = np.add.reduceat(x[1:], space.start - 1)
        residual = max(residual, float(np.max(np.abs(sums - x[space.parent]))))
    return residual


def plan_violation(space: object, x: object) -> float:
    """Largest violation of the realization-plan constraints: ``max(|Ex - e|_∞, -min x, 0)``.

    Args:
        space: a :class:`Treeplex`.
        x: ``(space.n_sequences,)`` vector.

    Returns:
        The violation (0 for a realization plan).

    Raises:
        TypeError: ``space`` is not a Treeplex, non-numeric ``x``.
        ValueError: wrong shape or non-finite ``x``.

    Example:
        >>> g = kuhn_poker()
        >>> plan_violation(g.x_space, behavioural_to_plan(g.x_space, uniform_behavioural(g.x_space)))
        0.0
    """
    sp_ = _require_space(space)
    vec = as_float_array("x", x, shape=(sp_.n_sequences,))
    return max(_plan_residual(sp_, vec), -float(np.min(vec)), 0.0)


def _require_plan(name: str, space: Treeplex, value: object) -> FloatArray:
    vec = as_float_array(name, value, shape=(space.n_sequences,))
    low = float(np.min(vec))
    if low < -PLAN_ATOL:
        raise ValueError(f"{name}: expected a realization plan (entries >= 0), got min {low!r}")
    residual = _plan_residual(space, vec)
    if residual > PLAN_ATOL:
        raise ValueError(
            f"{name}: expected a realization plan (E x = e within {PLAN_ATOL}), got residual "
            f"{residual!r}"
        )
    return np.maximum(vec, 0.0)


def _require_behavioural(name: str, space: Treeplex, value: object) -> FloatArray:
    vec = as_float_array(name, value, shape=(space.n_sequences,))
    if float(np.min(vec)) < -PLAN_ATOL:
        raise ValueError(f"{name}: expected behavioural probabilities >= 0, got {vec.min()!r}")
    sums = np.add.reduceat(vec[1:], space.start - 1) if space.n_infosets else np.zeros(0)
    if sums.size and float(np.max(np.abs(sums - 1.0))) > PLAN_ATOL:
        raise ValueError(
            f"{name}: expected each information set's probabilities to sum to 1, got sums "
            f"off by {float(np.max(np.abs(sums - 1.0)))!r}"
        )
    out = np.maximum(vec, 0.0)
    out[0] = 1.0
    return out


# ------------------------------------------------------------------------------ plans
def uniform_behavioural(space: object) -> FloatArray:
    """The uniform behavioural strategy as a vector over sequences (entry 0 is 1).

    Raises:
        TypeError: ``space`` is not a :class:`Treeplex`.
    """
    sp_ = _require_space(space)
    b = np.ones(sp_.n_sequences)
    for j in range(sp_.n_infosets):
        s, k = int(sp_.start[j]), int(sp_.size[j])
        b[s : s + k] = 1.0 / k
    return b


def _to_plan(space: Treeplex, b: FloatArray) -> FloatArray:
    bl = b.tolist()
    x = [1.0] * space.n_sequences
    for s, k, p in space.layout:  # top-down
        mass = x[p]
        for i in range(s, s + k):
            x[i] = mass * bl[i]
    return np.array(x)


def behavioural_to_plan(space: object, b: object) -> FloatArray:
    """Realization plan of a behavioural strategy: ``x_(j,a) = x_{p_j}·b_j[a]``, ``x_∅ = 1``.

    Args:
        space: a :class:`Treeplex`.
        b: ``(n_sequences,)`` behavioural vector (each infoset's slice on its simplex).

    Returns:
        ``(n_sequences,)`` realization plan.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shape, non-finite, or slices off their simplices.
    """
    sp_ = _require_space(space)
    return _to_plan(sp_, _require_behavioural("b", sp_, b))


def _to_behavioural(space: Treeplex, x: FloatArray, fallback: FloatArray) -> FloatArray:
    b = fallback.copy()
    b[0] = 1.0
    for j in range(space.n_infosets):
        s, k = int(space.start[j]), int(space.size[j])
        mass = x[space.parent[j]]
        if mass > 0.0:
            local = np.maximum(x[s : s + k], 0.0)
            total = float(local.sum())
            if total > 0.0:
                b[s : s + k] = local / total
    return b


def plan_to_behavioural(space: object, x: object) -> FloatArray:
    """Behavioural strategy ``b_j = x_j / x_{p_j}`` (uniform where ``x_{p_j} = 0``).

    Args:
        space: a :class:`Treeplex`.
        x: ``(n_sequences,)`` realization plan.

    Returns:
        ``(n_sequences,)`` behavioural vector.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shape, non-finite, or not a realization plan (atol 1e-8).
    """
    sp_ = _require_space(space)
    return _to_behavioural(sp_, _require_plan("x", sp_, x), uniform_behavioural(sp_))


# ------------------------------------------------------------------------------ best response
def _br_value(space: Treeplex, c: FloatArray, maximise: bool) -> float:
    acc = c.tolist()
    pick = max if maximise else min
    for s, k, p in reversed(space.layout):  # bottom-up
        acc[p] += pick(acc[s : s + k])
    return float(acc[0])


def best_response_value(space: object, c: object, *, maximise: bool) -> float:
    """``min_{x∈X} cᵀx`` (or ``max``) by the bottom-up recursion ``V_j = min_a(c_(j,a) +
    Σ_{k child of (j,a)} V_k)`` (spec 19 §3.6).

    Args:
        space: a :class:`Treeplex`.
        c: ``(n_sequences,)`` linear cost.
        maximise: maximise instead of minimise.

    Returns:
        The optimal value.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shape or non-finite ``c``.
    """
    sp_ = _require_space(space)
    if not isinstance(maximise, bool):
        raise TypeError(f"maximise: expected a bool, got {describe(maximise)}")
    return _br_value(sp_, as_float_array("c", c, shape=(sp_.n_sequences,)), maximise)


def _nash_conv(game: SequenceFormGame, x: FloatArray, y: FloatArray) -> float:
    upper = _br_value(game.y_space, game.payoff.T @ x, True)  # g(x) = max_y xᵀAy
    lower = _br_value(game.x_space, game.payoff @ y, False)  # h(y) = min_x xᵀAy
    return upper - lower


def nash_conv(game: object, x: object, y: object) -> float:
    """NashConv ``g(x) - h(y)`` of realization plans, by best response on the tree.

    ``g(x) = max_{y∈Y} xᵀAy`` and ``h(y) = min_{x∈X} xᵀAy`` are computed by the bottom-up
    recursion (spec 19 §3.6); NashConv is ``>= 0`` and ``0`` exactly at equilibria.  It
    equals the sum of both players' exploitabilities.

    Args:
        game: a :class:`SequenceFormGame`.
        x: ``(n1,)`` realization plan of player 1.
        y: ``(n2,)`` realization plan of player 2.

    Returns:
        NashConv as a float.

    Raises:
        TypeError: ``game`` is not a SequenceFormGame; non-numeric plans.
        ValueError: wrong shapes, non-finite, or not realization plans (atol 1e-8).

    Example:
        >>> g = kuhn_poker()
        >>> sol = solve_lp(g)
        >>> abs(nash_conv(g, sol.x, sol.y)) < 1e-8
        True
    """
    g = _require_game(game)
    xs = _require_plan("x", g.x_space, x)
    ys = _require_plan("y", g.y_space, y)
    return _nash_conv(g, xs, ys)


# ------------------------------------------------------------------------------ LP
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class EFGSolution:
    """An equilibrium of a sequence-form game computed by linear programming.

    Attributes:
        x: ``(n1,)`` read-only realization plan of player 1.
        y: ``(n2,)`` read-only realization plan of player 2.
        value: the game value from player 1's view (``-min_x max_y xᵀAy``), from x's LP.
        dual_value: the same value from player 2's LP (equal to ``value`` by LP duality).
    """

    x: FloatArray
    y: FloatArray
    value: float
    dual_value: float


def _solve_side(a: FloatArray, mine: Treeplex, other: Treeplex) -> tuple[FloatArray, float]:
    """``min_x max_y xᵀAy`` as ``min fᵀv`` s.t. ``Aᵀx - Fᵀv <= 0, Ex = e, x >= 0``."""
    e_mat, e_rhs = mine.constraints()
    f_mat, f_rhs = other.constraints()
    n, k = mine.n_sequences, f_mat.shape[0]
    cost = np.concatenate([np.zeros(n), f_rhs])
    a_ub = np.hstack([a.T, -f_mat.T])
    a_eq = np.hstack([e_mat, np.zeros((e_mat.shape[0], k))])
    result = linprog(
        cost,
        A_ub=a_ub,
        b_ub=np.zeros(a.shape[1]),
        A_eq=a_eq,
        b_eq=e_rhs,
        bounds=[(0.0, None)] * n + [(None, None)] * k,
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    if result.status != 0 or result.x is None or result.fun is None:  # pragma: no cover
        raise RuntimeError(f"HiGHS failed on a sequence-form LP: {result.message}")
    x = np.maximum(np.asarray(result.x[:n], dtype=np.float64), 0.0)
    return x, float(result.fun)


def solve_lp(game: object) -> EFGSolution:
    """Solve a sequence-form game exactly (to LP tolerance) with two linear programs.

    Player 1: ``min fᵀv`` s.t. ``Aᵀx - Fᵀv <= 0``, ``Ex = e``, ``x >= 0`` (``v`` free), whose
    value is ``v* = min_x max_y xᵀAy`` (spec 19 §4); player 2: the same LP for ``-Aᵀ`` with the
    treeplexes swapped.  Solved independently by HiGHS (tolerances 1e-10).

    Args:
        game: a :class:`SequenceFormGame`.

    Returns:
        An :class:`EFGSolution` with ``value = -v*`` (player 1's view).

    Raises:
        TypeError: ``game`` is not a SequenceFormGame.

    Example:
        >>> round(solve_lp(kuhn_poker()).value * 18, 9)
        -1.0

    References:
        Koller, Megiddo, von Stengel (1996); B. von Stengel, "Efficient computation of
        behavior strategies", Games and Economic Behavior 14 (1996).
    """
    g = _require_game(game)
    a = np.asarray(g.payoff)
    x, v_star = _solve_side(a, g.x_space, g.y_space)
    y, w = _solve_side(-a.T, g.y_space, g.x_space)
    return EFGSolution(x=readonly(x), y=readonly(y), value=-v_star, dual_value=w)


# ------------------------------------------------------------------------------ regulariser
def _infoset_sq_norms(space: Treeplex, b: FloatArray) -> FloatArray:
    if not space.n_infosets:
        return np.zeros(0)
    out: FloatArray = np.add.reduceat(b[1:] ** 2, space.start - 1)
    return out


def dilated_regulariser(space: object, x: object) -> float:
    """Dilated Euclidean regulariser ``ψ(x) = Σ_j x_{p_j}·½||x_j/x_{p_j}||²`` (weights 1, anchor 0).

    (our default weights and anchor; the paper cites Hoda et al. 2010, spec 19 §3.6.)

    Args:
        space: a :class:`Treeplex`.
        x: ``(n_sequences,)`` realization plan.

    Returns:
        ``ψ(x)``.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shape, non-finite or not a realization plan.
    """
    sp_ = _require_space(space)
    plan = _require_plan("x", sp_, x)
    b = _to_behavioural(sp_, plan, uniform_behavioural(sp_))
    return float(0.5 * np.sum(plan[sp_.parent] * _infoset_sq_norms(sp_, b)))


def _grad_psi(space: Treeplex, b: FloatArray) -> FloatArray:
    grad = b.copy()
    grad[0] = 0.0
    norms = _infoset_sq_norms(space, b)
    grad -= np.bincount(space.parent, weights=0.5 * norms, minlength=space.n_sequences)
    return grad


def dilated_gradient(space: object, b: object) -> FloatArray:
    """Gradient of ``ψ`` in behavioural terms: ``∂ψ/∂x_(j,a) = b_j[a] - ½Σ_{k child of (j,a)}
    ||b_k||²`` and ``∂ψ/∂x_∅ = -½Σ_{root k}||b_k||²`` [derived, spec 19 §3.6].

    Args:
        space: a :class:`Treeplex`.
        b: ``(n_sequences,)`` behavioural vector.

    Returns:
        ``(n_sequences,)`` gradient.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shape, non-finite, or slices off their simplices.
    """
    sp_ = _require_space(space)
    return _grad_psi(sp_, _require_behavioural("b", sp_, b))


def bregman_divergence(space: object, x: object, x_hat: object) -> float:
    """``D_ψ(x, x̂) = ψ(x) - ψ(x̂) - <∇ψ(x̂), x - x̂>`` computed from the definition.

    It equals ``Σ_j x_{p_j}·½||b_j - b̂_j||²`` (the decomposition of spec 19 §3.6, checked in
    the tests).  Where ``x̂_{p_j} = 0`` the behavioural ``b̂_j`` is taken uniform.

    Args:
        space: a :class:`Treeplex`.
        x: ``(n,)`` realization plan.
        x_hat: ``(n,)`` realization plan.

    Returns:
        The divergence.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shapes, non-finite or not realization plans.
    """
    sp_ = _require_space(space)
    p = _require_plan("x", sp_, x)
    q = _require_plan("x_hat", sp_, x_hat)
    uniform = uniform_behavioural(sp_)
    bp = _to_behavioural(sp_, p, uniform)
    bq = _to_behavioural(sp_, q, uniform)
    psi_p = float(0.5 * np.sum(p[sp_.parent] * _infoset_sq_norms(sp_, bp)))
    psi_q = float(0.5 * np.sum(q[sp_.parent] * _infoset_sq_norms(sp_, bq)))
    return psi_p - psi_q - float(_grad_psi(sp_, bq) @ (p - q))


Local = Callable[[list[float], list[float]], tuple[list[float], float]]


def _proj_list(v: list[float]) -> list[float]:
    """Sort-based simplex projection on a short Python list."""
    if len(v) == 1:
        return [1.0]
    if len(v) == 2:
        p = min(1.0, max(0.0, 0.5 * (v[0] - v[1] + 1.0)))
        return [p, 1.0 - p]
    u = sorted(v, reverse=True)
    total = 0.0
    theta = 0.0
    for i, ui in enumerate(u, start=1):
        total += ui
        candidate = (total - 1.0) / i
        if ui - candidate > 0.0:
            theta = candidate
    return [max(vi - theta, 0.0) for vi in v]


def _euclid_local(kappa: float) -> Local:
    scale = 1.0 / (1.0 + kappa)

    def local(c_hat: list[float], b_hat: list[float]) -> tuple[list[float], float]:
        b = _proj_list([(bh - ch) * scale for bh, ch in zip(b_hat, c_hat, strict=True)])
        value = 0.0
        for bi, bh, ch in zip(b, b_hat, c_hat, strict=True):
            value += ch * bi + 0.5 * (bi - bh) ** 2 + 0.5 * kappa * bi * bi
        return b, value

    return local


def _entropy_local(c_hat: list[float], b_hat: list[float]) -> tuple[list[float], float]:
    logits = [
        math.log(bh) - ch if bh > 0.0 else -math.inf for bh, ch in zip(b_hat, c_hat, strict=True)
    ]
    top = max(logits)
    weights = [math.exp(v - top) for v in logits]
    total = sum(weights)
    return [w / total for w in weights], -(top + math.log(total))


def _prox(space: Treeplex, c: FloatArray, anchor: FloatArray, local: Local) -> FloatArray:
    """Bottom-up local steps (spec 19 §3.6 step 1); returns the new behavioural vector."""
    acc = c.tolist()
    b_hat = anchor.tolist()
    b = list(b_hat)
    for s, k, p in reversed(space.layout):
        b[s : s + k], value = local(acc[s : s + k], b_hat[s : s + k])
        acc[p] += value
    return np.array(b)


def dilated_prox(
    space: object, c: object, anchor: object, *, kappa: float = 0.0
) -> tuple[FloatArray, FloatArray]:
    """Exact dilated Euclidean prox step on a treeplex.

    Computes ``argmin_{x∈X} <c, x> + Σ_j x_{p_j}[½||b_j - b̂_j||² + (κ/2)||b_j||²]``
    (spec 19 §3.6): bottom-up, ``ĉ_j[a] = c_(j,a) + Σ_{k child of (j,a)} V_k``,
    ``b_j = Π_Δ((b̂_j - ĉ_j)/(1 + κ))``, ``V_j = <ĉ_j, b_j> + ½||b_j - b̂_j||² + (κ/2)||b_j||²``;
    then top-down ``x_(j,a) = x_{p_j} b_j[a]``.  Symbol map: ``c`` is ``c``, ``b̂`` is
    ``anchor`` (behavioural), ``κ`` is ``kappa``.

    Args:
        space: a :class:`Treeplex`.
        c: ``(n_sequences,)`` linear cost.
        anchor: ``(n_sequences,)`` behavioural anchor ``b̂``.
        kappa: extra regularisation ``κ >= 0``.

    Returns:
        ``(x, b)``: the realization plan and its behavioural strategy.

    Raises:
        TypeError: bad kinds.
        ValueError: wrong shapes, non-finite, anchor off its simplices, ``kappa < 0``.

    Example:
        >>> g = kuhn_poker()
        >>> b0 = uniform_behavioural(g.x_space)
        >>> x, b = dilated_prox(g.x_space, np.zeros(13), b0)
        >>> bool(np.allclose(b, b0))
        True
    """
    sp_ = _require_space(space)
    cost = as_float_array("c", c, shape=(sp_.n_sequences,))
    b_hat = _require_behavioural("anchor", sp_, anchor)
    k = require_positive("kappa", kappa, allow_zero=True)
    b = _prox(sp_, cost, b_hat, _euclid_local(k))
    return _to_plan(sp_, b), b


# ------------------------------------------------------------------------------ dynamics
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class EFGResult:
    """Last iterate and NashConv history of a sequence-form dynamics run.

    Attributes:
        x: ``(n1,)`` read-only realization plan of player 1 (last iterate).
        y: ``(n2,)`` read-only realization plan of player 2 (last iterate).
        nash_conv: NashConv of ``(x, y)`` (the stopping quantity).
        iterations: iterations performed (each updates every run's two players once).
        converged: ``nash_conv <= tol`` within ``max_iter`` (``False`` when ``tol`` is None).
        history: ``(iterations + 1,)`` read-only NashConv per iteration.
        mu: perturbation strength (0 for unperturbed methods).
        eta: step size.
    """

    x: FloatArray
    y: FloatArray
    nash_conv: float
    iterations: int
    converged: bool
    history: FloatArray
    mu: float
    eta: float


Variant = Literal["explicit", "implicit"]


def _default_eta(game: SequenceFormGame, eta: float | None) -> float:
    if eta is None:
        norm = float(np.linalg.norm(game.payoff, 2))
        return 1.0 / norm if norm > 0.0 else 1.0
    return require_positive("eta", eta)


def _setup(
    game: object, max_iter: object, tol: object | None
) -> tuple[SequenceFormGame, int, float]:
    g = _require_game(game)
    iters = require_int("max_iter", max_iter, minimum=0)
    tolerance = -math.inf if tol is None else require_positive("tol", tol)
    return g, iters, tolerance


def _result(
    g: SequenceFormGame,
    x: FloatArray,
    y: FloatArray,
    history: list[float],
    tolerance: float,
    mu: float,
    eta: float,
) -> EFGResult:
    value = history[-1]
    return EFGResult(
        x=readonly(x.copy()),
        y=readonly(y.copy()),
        nash_conv=value,
        iterations=len(history) - 1,
        converged=value <= tolerance,
        history=readonly(np.array(history, dtype=np.float64)),
        mu=mu,
        eta=eta,
    )


class _Side:
    """State of one alternating perturbed run: the perturbed player minimises ``pᵀ M q``."""

    def __init__(self, m: FloatArray, space_p: Treeplex, space_q: Treeplex) -> None:
        self.m = m
        self.space_p = space_p
        self.space_q = space_q
        self.bp = uniform_behavioural(space_p)
        self.bq = uniform_behavioural(space_q)
        self.p = _to_plan(space_p, self.bp)
        self.q = _to_plan(space_q, self.bq)

    def step(self, mu_p: float, mu_q: float, eta: float, variant: Variant) -> None:
        euclid = _euclid_local(0.0)
        grad = self.m @ self.q
        if variant == "implicit" and mu_p > 0.0:
            self.bp = _prox(self.space_p, eta * grad, self.bp, _euclid_local(eta * mu_p))
        else:
            if mu_p > 0.0:
                grad = grad + mu_p * _grad_psi(self.space_p, self.bp)
            self.bp = _prox(self.space_p, eta * grad, self.bp, euclid)
        self.p = _to_plan(self.space_p, self.bp)
        grad_q = self.m.T @ self.p  # the other player maximises pᵀMq
        if mu_q > 0.0:
            grad_q = grad_q - mu_q * _grad_psi(self.space_q, self.bq)
        self.bq = _prox(self.space_q, -eta * grad_q, self.bq, euclid)
        self.q = _to_plan(self.space_q, self.bq)


def _check_variant(variant: object) -> Variant:
    if variant == "explicit":
        return "explicit"
    if variant == "implicit":
        return "implicit"
    raise ValueError(f"variant: expected 'explicit' or 'implicit', got {variant!r}")


def asymp_dgda(
    game: object,
    *,
    mu: float,
    eta: float | None = None,
    max_iter: int = 10_000,
    tol: float | None = 1e-12,
    variant: Variant = "explicit",
) -> EFGResult:
    """AsymP-DGDA: asymmetrically perturbed dilated GDA, x from the x run, y from the y run.

    x-side run, explicit form (our default, the analogue of spec 19 §3.1)::

        x^{t+1} = prox_X(c = η(A y^t + μ ∇ψ(x^t)), κ = 0)
        y^{t+1} = prox_Y(c = -η Aᵀ x^{t+1}, κ = 0)

    (``variant="implicit"``: ``x^{t+1} = prox_X(c = ηAy^t, κ = ημ)``, same fixed points).  The
    y-side run mirrors it (``y`` perturbed, y first), as the x run on ``-Aᵀ`` with the
    treeplexes swapped.  Both start from the uniform behavioural strategies; the output is
    ``(x from the x run, y from the y run)`` [paper, Section 5].  ``prox`` is
    :func:`dilated_prox`, ``ψ`` :func:`dilated_regulariser`.  The stopping quantity is
    NashConv of the output pair.  Symbol map: ``μ`` is ``mu``, ``η`` is ``eta`` (default
    ``1/||A||_2``, our default).  No global convergence proof exists for the dilated
    regulariser [paper]; on Kuhn poker μ = 0.01 reaches NashConv ~1e-14 (spec 19 §3.6).

    Args:
        game: a :class:`SequenceFormGame`.
        mu: perturbation strength ``μ > 0``.
        eta: step size ``η > 0`` or ``None``.
        max_iter: iteration cap (``>= 0``).
        tol: NashConv tolerance (``> 0``) or ``None`` to run ``max_iter`` iterations.
        variant: ``"explicit"`` or ``"implicit"`` perturbation step.

    Returns:
        An :class:`EFGResult`.

    Raises:
        TypeError: ``game`` is not a SequenceFormGame; non-numeric parameters.
        ValueError: ``mu <= 0``, ``eta <= 0``, ``tol <= 0``, ``max_iter < 0``, unknown variant.

    Example:
        >>> r = asymp_dgda(kuhn_poker(), mu=0.01, max_iter=6000, tol=1e-10)
        >>> r.converged
        True

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Section 5 (AsymP-DGDA).

    Variant:
        Explicit perturbation gradient by default; dilated weights 1 and anchor 0.
    """
    g, iters, tolerance = _setup(game, max_iter, tol)
    m = require_positive("mu", mu)
    step = _default_eta(g, eta)
    form = _check_variant(variant)
    a = np.asarray(g.payoff)
    xs = _Side(a, g.x_space, g.y_space)
    ys = _Side(-a.T, g.y_space, g.x_space)
    history = [_nash_conv(g, xs.p, ys.p)]
    while history[-1] > tolerance and len(history) <= iters:
        xs.step(m, 0.0, step, form)
        ys.step(m, 0.0, step, form)
        history.append(_nash_conv(g, xs.p, ys.p))
    return _result(g, xs.p, ys.p, history, tolerance, m, step)


def symp_dgda(
    game: object,
    *,
    mu: float,
    eta: float | None = None,
    max_iter: int = 10_000,
    tol: float | None = 1e-12,
) -> EFGResult:
    """SymP-DGDA baseline: both players perturbed by ``μψ``, alternating (spec 19 §3.6).

    ``x^{t+1} = prox_X(η(Ay^t + μ∇ψ(x^t)))``, ``y^{t+1} = prox_Y(-η(Aᵀx^{t+1} - μ∇ψ(y^t)))``.
    It converges to a shifted point in general.

    Args:
        game: a :class:`SequenceFormGame`.
        mu: perturbation strength ``μ > 0``.
        eta: step size ``η > 0`` or ``None`` (``1/||A||_2``).
        max_iter: iteration cap.
        tol: NashConv tolerance or ``None``.

    Returns:
        An :class:`EFGResult`.

    Raises:
        TypeError: bad kinds.
        ValueError: ``mu <= 0``, ``eta <= 0``, ``tol <= 0``, ``max_iter < 0``.
    """
    g, iters, tolerance = _setup(game, max_iter, tol)
    m = require_positive("mu", mu)
    step = _default_eta(g, eta)
    run = _Side(np.asarray(g.payoff), g.x_space, g.y_space)
    history = [_nash_conv(g, run.p, run.q)]
    while history[-1] > tolerance and len(history) <= iters:
        run.step(m, m, step, "explicit")
        history.append(_nash_conv(g, run.p, run.q))
    return _result(g, run.p, run.q, history, tolerance, m, step)


def dgda(
    game: object, *, eta: float | None = None, max_iter: int = 10_000, tol: float | None = 1e-12
) -> EFGResult:
    """Alternating dilated GDA (AsymP-DGDA with ``μ = 0``), a baseline whose last iterate
    does not converge in general (spec 19 §3.6).

    ``x^{t+1} = prox_X(c = ηAy^t)``, ``y^{t+1} = prox_Y(c = -ηAᵀx^{t+1})``.

    Args:
        game: a :class:`SequenceFormGame`.
        eta: step size ``η > 0`` or ``None`` (``1/||A||_2``).
        max_iter: iteration cap.
        tol: NashConv tolerance or ``None``.

    Returns:
        An :class:`EFGResult` with ``mu = 0``.

    Raises:
        TypeError: bad kinds.
        ValueError: ``eta <= 0``, ``tol <= 0``, ``max_iter < 0``.
    """
    g, iters, tolerance = _setup(game, max_iter, tol)
    step = _default_eta(g, eta)
    run = _Side(np.asarray(g.payoff), g.x_space, g.y_space)
    history = [_nash_conv(g, run.p, run.q)]
    while history[-1] > tolerance and len(history) <= iters:
        run.step(0.0, 0.0, step, "explicit")
        history.append(_nash_conv(g, run.p, run.q))
    return _result(g, run.p, run.q, history, tolerance, 0.0, step)


def _optimistic(
    game: object,
    eta: float | None,
    max_iter: object,
    tol: object | None,
    local: Local,
    optimistic: bool,
) -> EFGResult:
    g, iters, tolerance = _setup(game, max_iter, tol)
    step = _default_eta(g, eta)
    a = np.asarray(g.payoff)
    bx = uniform_behavioural(g.x_space)
    by = uniform_behavioural(g.y_space)
    x = _to_plan(g.x_space, bx)
    y = _to_plan(g.y_space, by)
    gx_prev, gy_prev = a @ y, a.T @ x
    history = [_nash_conv(g, x, y)]
    while history[-1] > tolerance and len(history) <= iters:
        gx, gy = a @ y, a.T @ x
        cx = 2.0 * gx - gx_prev if optimistic else gx
        cy = 2.0 * gy - gy_prev if optimistic else gy
        bx = _prox(g.x_space, step * cx, bx, local)  # simultaneous updates
        by = _prox(g.y_space, -step * cy, by, local)
        x, y = _to_plan(g.x_space, bx), _to_plan(g.y_space, by)
        gx_prev, gy_prev = gx, gy
        history.append(_nash_conv(g, x, y))
    return _result(g, x, y, history, tolerance, 0.0, step)


def dogda(
    game: object, *, eta: float | None = None, max_iter: int = 10_000, tol: float | None = 1e-12
) -> EFGResult:
    """Dilated optimistic GDA (simultaneous, gradient ``2g^t - g^{t-1}``), a baseline.

    (our default form, spec 19 §3.6; Lee, Kroer, Luo 2021 analyse DOGDA.)

    Args:
        game: a :class:`SequenceFormGame`.
        eta: step size ``η > 0`` or ``None`` (``1/||A||_2``).
        max_iter: iteration cap.
        tol: NashConv tolerance or ``None``.

    Returns:
        An :class:`EFGResult`.

    Raises:
        TypeError: bad kinds.
        ValueError: ``eta <= 0``, ``tol <= 0``, ``max_iter < 0``.

    References:
        C.-W. Lee, C. Kroer, H. Luo, "Last-iterate convergence in extensive-form games",
        NeurIPS 2021.
    """
    return _optimistic(game, eta, max_iter, tol, _euclid_local(0.0), True)


def dmwu(
    game: object,
    *,
    eta: float | None = None,
    max_iter: int = 10_000,
    tol: float | None = 1e-12,
    optimistic: bool = False,
) -> EFGResult:
    """Dilated multiplicative weights (dilated entropy), simultaneous; DOMWU if ``optimistic``.

    Local step ``b_j ∝ b̂_j exp(-ĉ_j)`` with value ``V_j = -log Σ_a b̂_j[a] exp(-ĉ_j[a])``
    (spec 19 §3.6; weights 1, our default); the optimistic variant uses ``2g^t - g^{t-1}``.

    Args:
        game: a :class:`SequenceFormGame`.
        eta: step size ``η > 0`` or ``None`` (``1/||A||_2``).
        max_iter: iteration cap.
        tol: NashConv tolerance or ``None``.
        optimistic: DOMWU instead of DMWU.

    Returns:
        An :class:`EFGResult`.

    Raises:
        TypeError: bad kinds.
        ValueError: ``eta <= 0``, ``tol <= 0``, ``max_iter < 0``.

    References:
        Lee, Kroer, Luo, NeurIPS 2021 (DOMWU); baselines of Abe et al., ICML 2026, Section 6.
    """
    if not isinstance(optimistic, bool):
        raise TypeError(f"optimistic: expected a bool, got {describe(optimistic)}")
    return _optimistic(game, eta, max_iter, tol, _entropy_local, optimistic)
