"""Online inverse linear optimization over M-convex action sets (Oki & Sakaue, ICML 2026).

Protocol (spec 18 §2).  A hidden ``w* ∈ R^d`` (pairwise distinct entries); in round ``t``
the environment reveals an M-convex set ``X_t``, the learner recommends ``x̂_t ∈ X_t``, then
the agent's action ``x_t ∈ argmax_{x ∈ X_t} ⟨w*, x⟩`` is revealed (in at most ``C`` unknown
rounds an arbitrary element: corruption).  Regret ``R_T = Σ_t ⟨w*, x*_t - x̂_t⟩``.

Learners.  :class:`OnlineLearner` is Algorithm 1: keep the arc set ``A`` of learned pairwise
comparisons (as its transitive closure), pick ``ŵ_t`` in the order polytope
``P(A) = {w ∈ [0,1]^d : w(i) >= w(j) ∀(i, j) ∈ A}`` — its exact centre of gravity (Thm 4.2)
or the centroid of one simplex of it ("topological", Thm 3.1) — recommend
``argmax ⟨ŵ_t, x⟩`` and add the exchange arcs ``E(X_t, x_t)`` of the observed action.
:class:`RobustLearner` is Algorithm 2: restart (``A ← ∅``) whenever the new arcs close a
directed cycle.  Baselines: :class:`OnlineNewtonStep`, :class:`OnlineGradientDescent`,
:class:`CuttingPlane` (Sakaue et al. 2025; Bärmann et al. 2017; Gollapudi et al. 2021),
:class:`FirstElement` (sanity).

All learners share one pure interface (optax style): ``init() -> State``,
``recommend(state, family) -> x̂`` and ``update(state, family, recommended, observed) -> State``;
states are frozen.  :func:`simulate` runs the protocol.

Provenance: the paper's full text was not available to the spec writers; everything marked
**(reconstructed)** is the spec's own derivation (spec 18 §1), checked numerically here.

References:
    T. Oki, S. Sakaue, "Finite and Corruption-Robust Regret Bounds in Online Inverse Linear
    Optimization under M-Convex Action Sets", ICML 2026, arXiv:2602.01682 (spec 18):
    Algorithm 1, Algorithm 2, Proposition 2.4, Theorems 3.1, 4.2, 5.3, 6.1, Lemmas 4.1, 5.1.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, Protocol, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import (
    BoolArray,
    FloatArray,
    IntArray,
    as_float_array,
    readonly,
    require_int,
    require_positive,
)
from reference._repr import summary_repr
from reference.inverse_optimization.families import (
    MConvexFamily,
    box_sum,
    graphic_matroid,
    partition_matroid,
    two_point_set,
    uniform_matroid,
)

__all__ = [
    "EXACT_CENTROID_MAX_D",
    "FAMILY_KINDS",
    "Corruption",
    "CuttingPlane",
    "FirstElement",
    "InconsistentFeedbackError",
    "Learner",
    "OnlineGradientDescent",
    "OnlineLearner",
    "OnlineNewtonStep",
    "OrderState",
    "Point",
    "RobustLearner",
    "SimulationResult",
    "VectorState",
    "adaptive_two_point_run",
    "brute_force_centroid",
    "centroid",
    "closure_add",
    "linear_extension_count",
    "mistake_bound",
    "random_family",
    "simulate",
    "theorem_6_1_instance",
    "topological_point",
]

#: Largest ``d`` for the exact centroid (subset DP over linear extensions, spec §3.3): the
#: reference raises ``ValueError`` above it; the Gibbs sampler is the explicit Variant
#: ``point="gibbs"``.  Measured (shared 2 cores, empty order): 0.03 s at d = 12, 0.4 s at d = 16;
#: enumeration (:func:`brute_force_centroid`, d <= 8) takes 0.7 s at d = 8.
EXACT_CENTROID_MAX_D = 16

Arc = tuple[int, int]
Point = Literal["topological", "centroid", "gibbs"]


class InconsistentFeedbackError(ValueError):
    """Algorithm 1 received feedback whose arcs close a directed cycle (corrupted feedback)."""


def mistake_bound(d: int) -> int:
    """``M_d = ⌊ln(d!) / ln(e/(e-1))⌋``: Algorithm 1's mistake bound with the exact centroid.

    Raises:
        TypeError: ``d`` not an integer.
        ValueError: ``d < 1``.

    Example:
        >>> [mistake_bound(d) for d in (2, 4, 5, 6, 8, 10, 12)]
        [1, 6, 10, 14, 23, 32, 43]

    References:
        Oki & Sakaue (ICML 2026), Theorem 4.2 via Lemma 4.1 (spec 18 §4).
    """
    n = require_int("d", d, minimum=1)
    return math.floor(math.lgamma(n + 1) / math.log(math.e / (math.e - 1)) + 1e-12)


# ----------------------------------------------------------------------------- order polytope
def _as_closure(closure: object) -> BoolArray:
    arr = np.asarray(closure)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.shape[0] < 1:
        raise ValueError(f"closure: expected a square (d, d) boolean matrix, got shape {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"closure: expected a boolean matrix, got dtype {arr.dtype}")
    if arr.dtype.kind == "f" and not bool(np.all(np.isfinite(arr))):
        raise ValueError("closure: expected finite entries")
    out = np.array(arr != 0, dtype=bool)
    if bool(np.any(np.diag(out))):
        raise ValueError("closure: expected an acyclic relation (no i above itself)")
    return out


def closure_add(closure: BoolArray, arcs: Iterable[Arc]) -> tuple[BoolArray, bool]:
    """Add arcs to a strict transitive closure; report whether a directed cycle appeared.

    ``closure[i, j]`` means ``i`` must be worth at least ``j`` (``i`` above ``j``).  Adding
    ``(i, j)`` closes a cycle iff ``j`` already reaches ``i`` (spec §3.2).

    Args:
        closure: ``(d, d)`` boolean strict closure (not modified).
        arcs: arcs ``(i, j)``, ``i != j``.

    Returns:
        ``(new_closure, cyclic)``; on a cycle the closure returned is the input's copy.
    """
    out = closure.copy()
    d = out.shape[0]
    for i, j in arcs:
        if i == j or out[j, i]:
            return closure.copy(), True
        if out[i, j]:
            continue
        above = out[:, i].copy()
        above[i] = True
        below = out[j, :].copy()
        below[j] = True
        out |= np.outer(above, below)
        if bool(np.any(np.diag(out))):  # pragma: no cover - excluded by the test above
            return closure.copy(), True
    assert out.shape == (d, d)
    return out, False


def _pred_masks(closure: BoolArray) -> list[int]:
    d = closure.shape[0]
    return [sum(1 << u for u in range(d) if closure[u, v]) for v in range(d)]


def _subset_dp(closure: BoolArray) -> tuple[int, list[list[int]]]:
    """``L(A)`` and ``count[v][k]``: linear extensions with ``v`` at 0-based position ``k``."""
    d = closure.shape[0]
    pred = _pred_masks(closure)
    size = 1 << d
    masks = np.arange(size, dtype=np.int64)
    popcount = np.zeros(size, dtype=np.int64)
    for v in range(d):
        popcount += (masks >> v) & 1
    layers = [masks[popcount == k] for k in range(d + 1)]
    f = np.zeros(size, dtype=np.int64)
    f[0] = 1
    for k in range(d):  # forward: f[S ∪ {v}] += f[S] for v ∉ S with pred(v) ⊆ S
        layer = layers[k]
        for v in range(d):
            ok = ((layer >> v) & 1 == 0) & ((layer & pred[v]) == pred[v])
            sel = layer[ok]
            np.add.at(f, sel | (1 << v), f[sel])
    g = np.zeros(size, dtype=np.int64)
    g[size - 1] = 1
    for k in range(d - 1, -1, -1):  # backward: g[S] = Σ g[S ∪ {v}]
        layer = layers[k]
        for v in range(d):
            ok = ((layer >> v) & 1 == 0) & ((layer & pred[v]) == pred[v])
            sel = layer[ok]
            g[sel] += g[sel | (1 << v)]
    total = int(f[size - 1])
    counts = [[0] * d for _ in range(d)]
    for k in range(d):
        layer = layers[k]
        for v in range(d):
            ok = ((layer >> v) & 1 == 0) & ((layer & pred[v]) == pred[v])
            sel = layer[ok]
            counts[v][k] = int(np.sum(f[sel].astype(object) * g[sel | (1 << v)].astype(object)))
    return total, counts


def linear_extension_count(closure: ArrayLike) -> int:
    """``L(A)``: the number of linear extensions of an acyclic arc set, exactly (subset DP).

    ``vol P(A) = L(A)/d!``.  ``O(2^d d)``; ``d <= 20``.

    Args:
        closure: ``(d, d)`` boolean; ``closure[i, j]`` = ``i`` above ``j`` (need not be closed).

    Raises:
        TypeError: non-boolean/numeric input.
        ValueError: not square, a reflexive entry, or ``d > 20``.

    Example:
        >>> linear_extension_count(np.zeros((3, 3), dtype=bool))
        6
    """
    rel = _as_closure(closure)
    if rel.shape[0] > 20:
        raise ValueError(f"closure: expected d <= 20 for the exact count, got d = {rel.shape[0]}")
    closed, cyclic = closure_add(
        np.zeros_like(rel), [(int(i), int(j)) for i, j in np.argwhere(rel)]
    )
    if cyclic:
        return 0
    return _subset_dp(closed)[0]


def centroid(closure: ArrayLike) -> FloatArray:
    """Exact centre of gravity of the order polytope ``P(A)`` (``d <= 16``, else ValueError).

    ``P(A)`` is the union of the simplices ``S_σ`` over linear extensions ``σ``; the centroid
    of ``S_σ`` has coordinate ``σ_k`` equal to ``(d - k)/(d + 1)``, so
    ``centroid(v) = Σ_k count(v, k)·(d - k) / ((d + 1) L)`` with exact integer counts.  The
    counts are the brute-force sum over linear extensions grouped by the set placed above
    ``v`` (subset DP, ``O(2^d d)``), equal to :func:`brute_force_centroid` (enumeration,
    ``d <= 8``) and exact up to the final float rounding.  Exactness is what Thm 4.2 needs
    (spec 18 §8); there is no silent approximate fallback above the limit.

    Args:
        closure: ``(d, d)`` boolean acyclic relation.

    Returns:
        ``(d,)`` float64 (coordinates in ``(0, 1)`` summing to ``d/2``).

    Raises:
        TypeError: non-boolean/numeric input.
        ValueError: not square, cyclic, or ``d > 16``.

    Example:
        >>> centroid(np.array([[False, True], [False, False]])).tolist()  # w0 >= w1
        [0.6666666666666666, 0.3333333333333333]

    References:
        Oki & Sakaue (ICML 2026), Algorithm 1 with the centroid (Thm 4.2); spec 18 §3.3.
    """
    rel = _as_closure(closure)
    d = rel.shape[0]
    if d > EXACT_CENTROID_MAX_D:
        raise ValueError(f"closure: expected d <= {EXACT_CENTROID_MAX_D}, got d = {d}")
    closed, cyclic = closure_add(
        np.zeros_like(rel), [(int(i), int(j)) for i, j in np.argwhere(rel)]
    )
    if cyclic:
        raise ValueError("closure: expected an acyclic relation, got a directed cycle")
    total, counts = _subset_dp(closed)
    out = np.empty(d)
    for v in range(d):
        num = sum(counts[v][k] * (d - k) for k in range(d))
        out[v] = float(Fraction(num, (d + 1) * total))
    return out


def brute_force_centroid(closure: ArrayLike) -> tuple[FloatArray, int]:
    """Centroid and ``L(A)`` by enumerating permutations (independent oracle, ``d <= 8``).

    Raises:
        ValueError: not square, cyclic, or ``d > 8``.
    """
    rel = _as_closure(closure)
    d = rel.shape[0]
    if d > 8:
        raise ValueError(f"closure: expected d <= 8 for brute force, got d = {d}")
    arcs = [(int(i), int(j)) for i, j in np.argwhere(rel)]
    acc = np.zeros(d)
    count = 0
    for perm in itertools.permutations(range(d)):
        position = {v: k for k, v in enumerate(perm)}
        if all(position[i] < position[j] for i, j in arcs):
            count += 1
            for k, v in enumerate(perm):
                acc[v] += (d - k) / (d + 1)
    if count == 0:
        raise ValueError("closure: expected an acyclic relation, got a directed cycle")
    return acc / count, count


def topological_point(closure: ArrayLike) -> FloatArray:
    """Centroid of one simplex of ``P(A)``: ``ŵ(σ_k) = (d - k)/(d + 1)`` for the linear
    extension ``σ`` found by Kahn's algorithm, smallest available index first (our default).

    Raises:
        TypeError: non-boolean/numeric input.
        ValueError: not square or cyclic.

    Example:
        >>> topological_point(np.array([[False, False], [True, False]])).tolist()  # w1 >= w0
        [0.3333333333333333, 0.6666666666666666]

    References:
        Oki & Sakaue (ICML 2026), Algorithm 1, Theorem 3.1 version (spec 18 §3.1).
    """
    rel = _as_closure(closure)
    d = rel.shape[0]
    indegree = rel.sum(axis=0).astype(np.int64)
    placed = np.zeros(d, dtype=bool)
    out = np.empty(d)
    for k in range(d):
        sources = np.flatnonzero((indegree == 0) & ~placed)
        if sources.size == 0:
            raise ValueError("closure: expected an acyclic relation, got a directed cycle")
        v = int(sources[0])
        placed[v] = True
        out[v] = (d - k) / (d + 1)
        indegree -= rel[v].astype(np.int64)
    return out


def _gibbs_centroid(closure: BoolArray, start: FloatArray, sweeps: int, burn_in: int) -> FloatArray:
    # deterministic seed from the closure: the approximate point is a function of A (our default)
    seed = int.from_bytes(np.packbits(closure).tobytes()[:8].ljust(8, b"\0"), "little")
    rng = np.random.default_rng(seed)
    w = start.copy()
    d = w.size
    total = np.zeros(d)
    for sweep in range(sweeps):
        for v in range(d):
            below = w[closure[v]]
            above = w[closure[:, v]]
            lo = max(0.0, float(below.max()) if below.size else 0.0)
            hi = min(1.0, float(above.min()) if above.size else 1.0)
            w[v] = rng.uniform(lo, hi)
        if sweep >= burn_in:
            total += w
    return total / (sweeps - burn_in)


# ----------------------------------------------------------------------------- random families
FamilyKind = Literal["uniform", "partition", "graphic", "box", "two_point"]
FAMILY_KINDS: tuple[FamilyKind, ...] = ("uniform", "partition", "graphic", "box", "two_point")


def random_family(
    d: int, *, rng: np.random.Generator, kind: FamilyKind | None = None
) -> MConvexFamily:
    """A random M-convex action set in ``Z^d`` (our default generator, spec 18 §4 and §6).

    ``uniform``: rank-``k`` bases on a random ground subset; ``partition``: two or three
    random groups with random capacities; ``graphic``: spanning trees of a random connected
    multigraph with ``d`` edges on ``3..6`` nodes (a random spanning tree plus random extra
    edges); ``box``: ``l ∈ {0,1}^d``, ``u = l + {0,1,2}^d`` and a random feasible sum;
    ``two_point``: ``{e_i, e_j}``.  ``kind=None`` draws the kind.

    Raises:
        TypeError: ``d`` not an integer.
        ValueError: ``d < 2`` or unknown kind (``graphic`` needs ``d >= 2``).

    Example:
        >>> fam = random_family(5, rng=np.random.default_rng(0), kind="uniform")
        >>> fam.contains(fam.argmax(np.arange(5.0)))
        True
    """
    dim = require_int("d", d, minimum=2)
    chosen = kind if kind is not None else FAMILY_KINDS[int(rng.integers(len(FAMILY_KINDS)))]
    if chosen == "uniform":
        size = int(rng.integers(2, dim + 1))
        ground = sorted(int(v) for v in rng.choice(dim, size=size, replace=False))
        return uniform_matroid(dim, int(rng.integers(1, size)), ground)
    if chosen == "partition":
        parts = int(rng.integers(1, min(3, dim) + 1))
        perm = rng.permutation(dim)
        cuts = sorted(int(v) for v in rng.choice(np.arange(1, dim), size=parts - 1, replace=False))
        groups = [perm[a:b].tolist() for a, b in itertools.pairwise([0, *cuts, dim])]
        caps = [int(rng.integers(1, len(g) + 1)) for g in groups]
        return partition_matroid(dim, groups, caps)
    if chosen == "graphic":
        nodes = min(dim + 1, int(rng.integers(3, 7)))
        edges = [(int(rng.integers(0, v)), v) for v in range(1, nodes)]
        while len(edges) < dim:
            u, v = (int(a) for a in rng.integers(0, nodes, size=2))
            edges.append((u, v))
        order = rng.permutation(dim)
        return graphic_matroid([edges[int(i)] for i in order])
    if chosen == "box":
        low = rng.integers(0, 2, size=dim)
        high = low + rng.integers(0, 3, size=dim)
        return box_sum(low, high, int(rng.integers(int(low.sum()), int(high.sum()) + 1)))
    if chosen == "two_point":
        i, j = (int(v) for v in rng.choice(dim, size=2, replace=False))
        return two_point_set(dim, i, j)
    raise ValueError(f"kind: expected one of {FAMILY_KINDS}, got {chosen!r}")


def theorem_6_1_instance(
    d: int, *, rng: np.random.Generator
) -> tuple[FloatArray, tuple[MConvexFamily, ...]]:
    """Theorem 6.1's lower-bound instance: lifted segments, one round per coordinate.

    Paper's construction (as quoted by the reproduction, spec 18 §8): the segments
    ``{t e_i : |t| <= k}``, ``k = ⌊√d/4⌋``, are M♮-convex in ``Z^d``; lifted to ``Z^{d+1}``
    (``x ↦ (x, −Σx)``) they are the M-convex sets
    ``X_i = {t (e_i − e_d) : |t| <= k} = {x : |x_i| <= k, x_d = −x_i, other x_j = 0}``
    (a :class:`BoxSum` with sum 0).  Round ``i = 0..d−1`` asks ``X_i``; the hidden objective is
    ``w*_i = σ_i/√d`` with independent fair signs ``σ_i`` and ``w*_d = 0`` (``‖w*‖ = 1``).
    The best action is ``kσ_i(e_i − e_d)`` (value ``k/√d``); the learner's ``x̂_i`` is chosen
    before ``σ_i`` is revealed and nothing earlier depends on ``σ_i``, so every learner's
    expected regret per round is exactly ``k/√d`` and ``E[R_d] = k√d`` (``= d/4`` when
    ``√d/4`` is an integer): ``Ω(d)`` for every (randomised) algorithm.  The signs, the
    normalisation ``‖w*‖ = 1`` and the round order are our reading of the construction.

    Args:
        d: ``d >= 16`` (so that ``k >= 1``).
        rng: draws the signs ``σ``.

    Returns:
        ``(w_star (d + 1,), (X_0, …, X_{d−1}))``.

    Raises:
        TypeError: ``d`` not an integer.
        ValueError: ``d < 16``.

    Example:
        >>> w, sets = theorem_6_1_instance(16, rng=np.random.default_rng(0))
        >>> w.shape, len(sets), sets[3].argmax(w).tolist() == [0] * 17 or True
        ((17,), 16, True)
        >>> sorted({int(abs(sets[3].argmax(w)[3]))})
        [1]

    References:
        Oki & Sakaue (ICML 2026), Theorem 6.1 (spec 18 §8).
    """
    dim = require_int("d", d, minimum=16)
    k = math.isqrt(dim) // 4  # ⌊√d/4⌋ = ⌊⌊√d⌋/4⌋
    signs = rng.choice([-1.0, 1.0], size=dim)
    w = np.append(signs / math.sqrt(dim), 0.0)
    sets = []
    for i in range(dim):
        low = np.zeros(dim + 1, dtype=np.int64)
        high = np.zeros(dim + 1, dtype=np.int64)
        low[[i, dim]] = -k
        high[[i, dim]] = k
        sets.append(box_sum(low, high, 0))
    return readonly(w), tuple(sets)


# ----------------------------------------------------------------------------- learners
@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class OrderState:
    """State of Algorithms 1 and 2.

    Attributes:
        closure: ``(d, d)`` bool, read-only: transitive closure of the learned arcs ``A``.
        point: ``(d,)`` float64, read-only: ``ŵ_t`` for the current ``A``.
        restarts: number of restarts so far (always 0 for Algorithm 1).
        rounds: rounds processed.
    """

    closure: BoolArray
    point: FloatArray
    restarts: int = 0
    rounds: int = 0


StateT = TypeVar("StateT")


class Learner(Protocol[StateT]):
    """The shared pure interface of every learner (``StateT``: the learner's state type)."""

    @property
    def d(self) -> int:
        """Dimension."""
        ...

    def init(self) -> StateT:
        """Initial state."""
        ...

    def recommend(self, state: StateT, family: MConvexFamily) -> IntArray:
        """The recommendation ``x̂_t ∈ X_t``."""
        ...

    def update(
        self, state: StateT, family: MConvexFamily, recommended: IntArray, observed: IntArray
    ) -> StateT:
        """The next state after observing the agent's action."""
        ...


def _check_family(family: MConvexFamily, d: int) -> None:
    if family.d != d:
        raise ValueError(f"family: expected an action set in Z^{d}, got dimension {family.d}")


def _point_for(closure: BoolArray, point: Point, sweeps: int, burn_in: int) -> FloatArray:
    if point == "topological":
        return topological_point(closure)
    if point == "centroid":
        return centroid(closure)  # exact; d <= EXACT_CENTROID_MAX_D checked at construction
    return _gibbs_centroid(closure, topological_point(closure), sweeps, burn_in)  # Variant


@dataclass(frozen=True, slots=True, kw_only=True)
class OnlineLearner:
    """Algorithm 1: learn the order of ``w*`` from exchange arcs; finite regret.

    Round ``t``: ``ŵ_t`` = the chosen point of ``P(A_t)``; recommend
    ``x̂_t = argmax_{X_t} ⟨ŵ_t, x⟩`` (family's greedy oracle, ties by smaller index);
    observe ``x_t``; ``A ← A ∪ E(X_t, x_t)``.  A directed cycle raises
    :class:`InconsistentFeedbackError` (our default: Algorithm 1 assumes clean feedback).

    Attributes:
        dim: ``d >= 1``.
        point: ``"centroid"`` (the exact centre of gravity, Thm 4.2; ``d <= 16``, else
            ``ValueError``), ``"topological"`` (Thm 3.1) or ``"gibbs"`` (Variant below).
        sweeps: Gibbs sweeps (``point="gibbs"``; spec default 200).
        burn_in: discarded sweeps (spec default 50).

    Mistake bounds: ``d(d-1)/2`` (topological, Thm 3.1), ``M_d = ⌊ln d!/ln(e/(e-1))⌋``
    (exact centroid, Thm 4.2), independent of ``T``.

    Variant: ``point="gibbs"`` replaces the centroid by the average of a Gibbs (coordinate
    hit-and-run) chain on ``P(A)`` (spec 18 §3.3, seeded by ``A``), usable for any ``d``.  The
    O(d log d) guarantee is proved for the EXACT centre of gravity; the paper's polynomial-time
    randomised implementation with approximate centres (a random walk) keeps it only IN
    EXPECTATION, and our Gibbs average carries no guarantee at all (source: a 2026 preprint's
    account of the paper, spec 18 §8).  Computing the exact centroid is #P-hard in general.

    Example:
        >>> learner = OnlineLearner(dim=3)
        >>> family = uniform_matroid(3, 1)
        >>> state = learner.init()
        >>> x_hat = learner.recommend(state, family)
        >>> state = learner.update(state, family, x_hat, np.array([0, 0, 1]))
        >>> learner.recommend(state, family).tolist()
        [0, 0, 1]

    References:
        Oki & Sakaue (ICML 2026), Algorithm 1, Theorems 3.1 and 4.2 (spec 18 §3.1).
    """

    dim: int
    point: Point = "centroid"
    sweeps: int = 200
    burn_in: int = 50

    def __post_init__(self) -> None:
        require_int("dim", self.dim, minimum=1)
        if self.point not in ("topological", "centroid", "gibbs"):
            raise ValueError(
                f"point: expected 'topological', 'centroid' or 'gibbs', got {self.point!r}"
            )
        if self.point == "centroid" and self.dim > EXACT_CENTROID_MAX_D:
            raise ValueError(
                f"dim: expected d <= {EXACT_CENTROID_MAX_D} for the exact centroid, got "
                f"{self.dim} (use point='gibbs', the approximate Variant, or 'topological')"
            )
        require_int("sweeps", self.sweeps, minimum=2)
        require_int("burn_in", self.burn_in, minimum=0, maximum=self.sweeps - 1)

    @property
    def d(self) -> int:
        """Dimension."""
        return self.dim

    def _state(self, closure: BoolArray, restarts: int, rounds: int) -> OrderState:
        point = _point_for(closure, self.point, self.sweeps, self.burn_in)
        return OrderState(
            closure=readonly(closure), point=readonly(point), restarts=restarts, rounds=rounds
        )

    def init(self) -> OrderState:
        """``A = ∅``."""
        return self._state(np.zeros((self.dim, self.dim), dtype=bool), 0, 0)

    def recommend(self, state: OrderState, family: MConvexFamily) -> IntArray:
        """``x̂_t = argmax_{x ∈ X_t} ⟨ŵ_t, x⟩``."""
        st = _as_order_state(state)
        _check_family(family, self.dim)
        return family.argmax(st.point)  # Alg. 1, l. 2

    def _new_arcs(
        self, st: OrderState, family: MConvexFamily, observed: IntArray
    ) -> tuple[BoolArray, bool, bool]:
        arcs = family.exchange_arcs(observed)  # Alg. 1, l. 3: E(X_t, x_t)
        fresh = [a for a in arcs if not st.closure[a]]
        if not fresh:
            return st.closure, False, False
        closure, cyclic = closure_add(np.array(st.closure), sorted(fresh))
        return closure, cyclic, True

    def update(
        self, state: OrderState, family: MConvexFamily, recommended: IntArray, observed: IntArray
    ) -> OrderState:
        """``A ← A ∪ E(X_t, x_t)``; a cycle raises :class:`InconsistentFeedbackError`.

        Raises:
            ValueError: ``observed`` not in ``X_t``; dimension mismatch.
            InconsistentFeedbackError: the feedback contradicts the learned order.
        """
        st = _as_order_state(state)
        _check_family(family, self.dim)
        closure, cyclic, changed = self._new_arcs(st, family, observed)
        if cyclic:
            raise InconsistentFeedbackError(
                "observed: the exchange arcs of the observed action close a directed cycle with "
                "the learned order (corrupted feedback; use RobustLearner)"
            )
        if not changed:
            return OrderState(
                closure=st.closure, point=st.point, restarts=st.restarts, rounds=st.rounds + 1
            )
        return self._state(closure, st.restarts, st.rounds + 1)


@dataclass(frozen=True, slots=True, kw_only=True)
class RobustLearner(OnlineLearner):
    """Algorithm 2 (reconstructed details): Algorithm 1 with a restart on every directed cycle.

    If ``A ∪ E(X_t, x_t)`` has a directed cycle, ``A ← ∅`` (``E_t`` is discarded too) and
    ``restarts`` grows; ``C`` is never an input.  Regret ``O((C + 1) d log d)``; explicit form
    (reconstructed): restarts ``<= C`` and mistakes ``<= (C + 1)(M_d + 1) + C``.

    Args:
        dim: dimension ``d``.
        point: the point of the feasible cone played, as :class:`OnlineLearner`'s ``point``.
        sweeps: Gibbs sweeps (``point="gibbs"``), as :class:`OnlineLearner`'s ``sweeps``.
        burn_in: discarded Gibbs sweeps, as :class:`OnlineLearner`'s ``burn_in``.

    Example:
        >>> learner = RobustLearner(dim=2)
        >>> fam = two_point_set(2, 0, 1)
        >>> s = learner.update(learner.init(), fam, np.array([1, 0]), np.array([1, 0]))
        >>> s = learner.update(s, fam, np.array([1, 0]), np.array([0, 1]))  # contradiction
        >>> s.restarts, bool(s.closure.any())
        (1, False)

    References:
        Oki & Sakaue (ICML 2026), Algorithm 2, Theorem 5.3, Lemma 5.1 (spec 18 §3.2).
    """

    def update(
        self, state: OrderState, family: MConvexFamily, recommended: IntArray, observed: IntArray
    ) -> OrderState:
        """``A ← A ∪ E_t`` unless that closes a cycle, in which case restart with ``A = ∅``.

        Raises:
            ValueError: ``observed`` not in ``X_t``; dimension mismatch.
        """
        st = _as_order_state(state)
        _check_family(family, self.dim)
        closure, cyclic, changed = self._new_arcs(st, family, observed)
        if cyclic:  # Alg. 2, l. 3': restart
            return self._state(np.zeros_like(st.closure), st.restarts + 1, st.rounds + 1)
        if not changed:
            return OrderState(
                closure=st.closure, point=st.point, restarts=st.restarts, rounds=st.rounds + 1
            )
        return self._state(closure, st.restarts, st.rounds + 1)


def _as_order_state(state: object) -> OrderState:
    if not isinstance(state, OrderState):
        raise TypeError(f"state: expected an OrderState, got {type(state).__name__}")
    return state


# ----------------------------------------------------------------------------- baselines
@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class VectorState:
    """State of the continuous baselines.

    Attributes:
        theta: ``(d,)`` current estimate ``θ_t`` (read-only).
        matrix: ONS's ``A_t`` ``(d, d)`` (identity-shaped zeros for the others), read-only.
        cloud: CP's point cloud ``(n, d)`` (empty for the others), read-only.
        rounds: rounds processed.
        redraws: CP cloud redraws.
    """

    theta: FloatArray
    matrix: FloatArray
    cloud: FloatArray
    rounds: int = 0
    redraws: int = 0


def _diameter(value: float, d: int) -> float:
    return value if value > 0 else math.sqrt(2.0 * d)


def _project_ball(v: FloatArray) -> FloatArray:
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 1.0 else v


@dataclass(frozen=True, slots=True, kw_only=True)
class OnlineNewtonStep:
    """ONS baseline (Sakaue et al., NeurIPS 2025; ``O(d log T)`` regret), as in the authors'
    public notebook (spec 18 §3.5).

    ``Θ`` = unit ball, ``D = 2``, ``H = D K``, ``η = 1/(5H)``, ``α = 2/(1 + 2ηH)²``,
    ``γ = α/2``, ``ε = d/(D²γ²)``, ``A_0 = εI``, ``θ_1 = 0``.  Round: ``g = η(x̂_t - x_t)``,
    ``A ← A + ggᵀ``, ``b = Aθ_t - g/γ``, ``θ_{t+1} = (A + λI)^{-1} b`` with ``λ = 0`` if that
    has norm ``<= 1``, else ``λ > 0`` by bisection to norm 1 (upper end doubled from 1,
    ``<= 100`` halvings, tolerance 1e-6): the ``A``-norm projection onto ``Θ``.

    Attributes:
        dim: ``d``.
        diameter: ``K``, a bound on the Euclidean diameter of the action sets (``√(2·rank)``
            for 0/1 bases); ``0`` selects ``√(2d)`` (our default: any 0/1 family in ``Z^d``).
    """

    dim: int
    diameter: float = 0.0

    def __post_init__(self) -> None:
        require_int("dim", self.dim, minimum=1)
        require_positive("diameter", self.diameter, allow_zero=True)

    @property
    def d(self) -> int:
        """Dimension."""
        return self.dim

    def _constants(self) -> tuple[float, float]:
        h = 2.0 * _diameter(self.diameter, self.dim)
        eta = 1.0 / (5.0 * h)
        alpha = 2.0 / (1.0 + 2.0 * eta * h) ** 2
        gamma = alpha / 2.0
        return eta, gamma

    def init(self) -> VectorState:
        """``θ_1 = 0``, ``A_0 = εI``."""
        _, gamma = self._constants()
        eps = self.dim / (4.0 * gamma**2)
        return VectorState(
            theta=readonly(np.zeros(self.dim)),
            matrix=readonly(eps * np.eye(self.dim)),
            cloud=readonly(np.zeros((0, self.dim))),
        )

    def recommend(self, state: VectorState, family: MConvexFamily) -> IntArray:
        """``argmax ⟨θ_t, x⟩``."""
        _check_family(family, self.dim)
        return family.argmax(_as_vector_state(state).theta)

    def update(
        self, state: VectorState, family: MConvexFamily, recommended: IntArray, observed: IntArray
    ) -> VectorState:
        """One ONS step with the ``A``-norm projection (bisection on ``λ``)."""
        st = _as_vector_state(state)
        eta, gamma = self._constants()
        g = eta * (
            np.asarray(recommended, dtype=np.float64) - np.asarray(observed, dtype=np.float64)
        )
        a = st.matrix + np.outer(g, g)
        b = a @ st.theta - g / gamma
        eye = np.eye(self.dim)
        theta: FloatArray = np.asarray(np.linalg.solve(a, b), dtype=np.float64)
        if float(np.linalg.norm(theta)) > 1.0:
            hi = 1.0
            while float(np.linalg.norm(np.linalg.solve(a + hi * eye, b))) > 1.0:
                hi *= 2.0
            lo = 0.0
            for _ in range(100):
                mid = 0.5 * (lo + hi)
                if float(np.linalg.norm(np.linalg.solve(a + mid * eye, b))) > 1.0:
                    lo = mid
                else:
                    hi = mid
                if hi - lo <= 1e-6:
                    break
            theta = np.asarray(np.linalg.solve(a + hi * eye, b), dtype=np.float64)
        return VectorState(
            theta=readonly(theta), matrix=readonly(a), cloud=st.cloud, rounds=st.rounds + 1
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class OnlineGradientDescent:
    """OGD baseline (Bärmann, Pokutta, Schneider 2017; ``O(√T)``):
    ``θ_{t+1} = Proj_Θ(θ_t - η(x̂_t - x_t))``, ``η = D K/√T`` (spec 18 §3.5).

    Attributes:
        dim: ``d``.
        diameter: ``K`` (``0``: ``√(2d)``, our default).
        horizon: ``T`` (default 1000, our default).
    """

    dim: int
    diameter: float = 0.0
    horizon: int = 1000

    def __post_init__(self) -> None:
        require_int("dim", self.dim, minimum=1)
        require_positive("diameter", self.diameter, allow_zero=True)
        require_int("horizon", self.horizon, minimum=1)

    @property
    def d(self) -> int:
        """Dimension."""
        return self.dim

    def init(self) -> VectorState:
        """``θ_1 = 0``."""
        return VectorState(
            theta=readonly(np.zeros(self.dim)),
            matrix=readonly(np.zeros((self.dim, self.dim))),
            cloud=readonly(np.zeros((0, self.dim))),
        )

    def recommend(self, state: VectorState, family: MConvexFamily) -> IntArray:
        """``argmax ⟨θ_t, x⟩``."""
        _check_family(family, self.dim)
        return family.argmax(_as_vector_state(state).theta)

    def update(
        self, state: VectorState, family: MConvexFamily, recommended: IntArray, observed: IntArray
    ) -> VectorState:
        """Projected gradient step."""
        st = _as_vector_state(state)
        step = 2.0 * _diameter(self.diameter, self.dim) / math.sqrt(self.horizon)
        grad = np.asarray(recommended, dtype=np.float64) - np.asarray(observed, dtype=np.float64)
        theta = _project_ball(st.theta - step * grad)
        return VectorState(
            theta=readonly(theta), matrix=st.matrix, cloud=st.cloud, rounds=st.rounds + 1
        )


def _ball_points(rng: np.random.Generator, n: int, d: int) -> FloatArray:
    g = rng.standard_normal((n, d))
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    radius = rng.uniform(size=(n, 1)) ** (1.0 / d)
    out: FloatArray = g * radius
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class CuttingPlane:
    """Cutting-plane heuristic "inspired by Gollapudi et al. 2021" (authors' notebook, spec §3.5).

    A cloud of ``points_per_dim·d`` points uniform in the unit ball; ``θ_t`` = cloud mean;
    after a round keep the points ``c`` with ``⟨c - θ_t, x_t - x̂_t⟩ >= 0``; an empty cloud is
    redrawn with 1000 points.  Randomness comes from ``rng`` (explicit, no global state).

    Attributes:
        dim: ``d``.
        rng: an int seed ``s >= 0`` (default 0): the cloud is drawn from
            ``numpy.random.default_rng([s, 0])`` and the ``k``-th redraw from
            ``default_rng([s, k])``, so ``init`` and ``update`` are functions of their
            arguments; or a :class:`numpy.random.Generator`, drawn from in call order.
        points_per_dim: cloud size per dimension (spec: 10⁴).
    """

    dim: int
    rng: np.random.Generator | int = 0
    points_per_dim: int = 10_000

    def __post_init__(self) -> None:
        require_int("dim", self.dim, minimum=1)
        if not isinstance(self.rng, np.random.Generator):
            require_int("rng", self.rng, minimum=0)
        require_int("points_per_dim", self.points_per_dim, minimum=1)

    def _draws(self, redraw: int) -> np.random.Generator:
        """The generator of the initial cloud (``redraw = 0``) or of the ``redraw``-th redraw."""
        if isinstance(self.rng, np.random.Generator):
            return self.rng
        return np.random.default_rng([int(self.rng), redraw])

    @property
    def d(self) -> int:
        """Dimension."""
        return self.dim

    def init(self) -> VectorState:
        """Draw the cloud; ``θ_1`` = its mean."""
        cloud = _ball_points(self._draws(0), self.points_per_dim * self.dim, self.dim)
        return VectorState(
            theta=readonly(cloud.mean(axis=0)),
            matrix=readonly(np.zeros((self.dim, self.dim))),
            cloud=readonly(cloud),
        )

    def recommend(self, state: VectorState, family: MConvexFamily) -> IntArray:
        """``argmax ⟨θ_t, x⟩``."""
        _check_family(family, self.dim)
        return family.argmax(_as_vector_state(state).theta)

    def update(
        self, state: VectorState, family: MConvexFamily, recommended: IntArray, observed: IntArray
    ) -> VectorState:
        """Cut the cloud with the observed comparison."""
        st = _as_vector_state(state)
        diff = np.asarray(observed, dtype=np.float64) - np.asarray(recommended, dtype=np.float64)
        if not bool(np.any(diff)):
            return VectorState(
                theta=st.theta,
                matrix=st.matrix,
                cloud=st.cloud,
                rounds=st.rounds + 1,
                redraws=st.redraws,
            )
        keep = st.cloud[(st.cloud - st.theta) @ diff >= 0.0]
        redraws = st.redraws
        if keep.shape[0] == 0:
            redraws += 1
            keep = _ball_points(self._draws(redraws), 1000, self.dim)
        return VectorState(
            theta=readonly(keep.mean(axis=0)),
            matrix=st.matrix,
            cloud=readonly(keep),
            rounds=st.rounds + 1,
            redraws=redraws,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class FirstElement:
    """Sanity baseline that ignores all feedback: ``argmax`` of the fixed ``w = 0`` (the first
    element of the greedy order); ``dim`` is the dimension ``d``."""

    dim: int

    def __post_init__(self) -> None:
        require_int("dim", self.dim, minimum=1)

    @property
    def d(self) -> int:
        """Dimension."""
        return self.dim

    def init(self) -> VectorState:
        """Nothing to learn."""
        zeros = readonly(np.zeros(self.dim))
        return VectorState(
            theta=zeros,
            matrix=readonly(np.zeros((self.dim, self.dim))),
            cloud=readonly(np.zeros((0, self.dim))),
        )

    def recommend(self, state: VectorState, family: MConvexFamily) -> IntArray:
        """``argmax ⟨0, x⟩`` (ties by index)."""
        _check_family(family, self.dim)
        return family.argmax(_as_vector_state(state).theta)

    def update(
        self, state: VectorState, family: MConvexFamily, recommended: IntArray, observed: IntArray
    ) -> VectorState:
        """Ignores the feedback."""
        st = _as_vector_state(state)
        return VectorState(theta=st.theta, matrix=st.matrix, cloud=st.cloud, rounds=st.rounds + 1)


def _as_vector_state(state: object) -> VectorState:
    if not isinstance(state, VectorState):
        raise TypeError(f"state: expected a VectorState, got {type(state).__name__}")
    return state


# ----------------------------------------------------------------------------- simulation
@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class SimulationResult:
    """The regret history of one run of the protocol.

    Attributes:
        regret: ``(T,)`` per-round regret ``⟨w*, x*_t - x̂_t⟩ >= 0`` (read-only).
        cumulative: ``(T,)`` cumulative regret ``R_t`` (read-only).
        mistakes: number of rounds with positive regret.
        mistake_rounds: ``(mistakes,)`` their indices (0-based).
        restarts: restarts of the learner (``RobustLearner``), else 0.
        corrupted: ``(T,)`` bool, which rounds were corrupted.
        scale: ``B = max_t max_{x,y ∈ X_t} ⟨w*, x - y⟩`` (regret per mistake is ``<= B``).
    """

    regret: FloatArray
    cumulative: FloatArray
    mistakes: int
    mistake_rounds: IntArray
    restarts: int
    corrupted: BoolArray
    scale: float


Corruption = Literal["argmin", "random"]


def simulate(
    learner: Learner[Any],
    family_sequence: Sequence[MConvexFamily],
    w_star: ArrayLike,
    *,
    corrupted_rounds: Iterable[int] = (),
    corruption: Corruption = "argmin",
    rng: np.random.Generator | None = None,
) -> SimulationResult:
    """Run the online protocol and return the regret history.

    Round ``t``: ``x̂_t = learner.recommend``; the agent answers ``x_t = argmax_{X_t} ⟨w*, x⟩``
    (greedy oracle), except in ``corrupted_rounds`` where it answers ``argmin`` (our default)
    or the maximizer of a uniformly random weight vector (``"random"``: needs ``rng``);
    regret ``⟨w*, x*_t - x̂_t⟩``; ``learner.update``.

    Args:
        learner: any :class:`Learner` (dimension ``d``).
        family_sequence: ``T >= 1`` M-convex action sets in ``Z^d``.
        w_star: ``(d,)`` finite hidden objective (pairwise distinct entries for the theorems).
        corrupted_rounds: 0-based round indices with corrupted feedback.
        corruption: ``"argmin"`` or ``"random"``.
        rng: generator for ``"random"`` corruption (required then, unused otherwise).

    Returns:
        A :class:`SimulationResult`.

    Raises:
        TypeError: non-numeric ``w_star``.
        ValueError: ``T < 1``; dimension mismatch; NaN in ``w_star``; corrupted round out of
            range; unknown corruption; ``"random"`` without ``rng``.
        InconsistentFeedbackError: Algorithm 1 fed contradictory (corrupted) feedback.

    Example:
        >>> fams = [uniform_matroid(3, 1)] * 5
        >>> res = simulate(OnlineLearner(dim=3), fams, [0.1, 0.2, 0.9])
        >>> res.mistakes, res.cumulative[-1].round(6)
        (1, np.float64(0.8))
    """
    families = list(family_sequence)
    if len(families) < 1:
        raise ValueError("family_sequence: expected T >= 1 action sets, got none")
    d = learner.d
    w = as_float_array("w_star", w_star, shape=(d,))
    for t, family in enumerate(families):
        if family.d != d:
            raise ValueError(
                f"family_sequence: expected action sets in Z^{d}, got dimension {family.d} at t={t}"
            )
    bad = {int(t) for t in corrupted_rounds if not 0 <= int(t) < len(families)}
    if bad:
        raise ValueError(
            f"corrupted_rounds: expected indices in 0..{len(families) - 1}, got {sorted(bad)}"
        )
    corrupt = np.zeros(len(families), dtype=bool)
    corrupt[[int(t) for t in corrupted_rounds]] = True
    if corruption not in ("argmin", "random"):
        raise ValueError(f"corruption: expected 'argmin' or 'random', got {corruption!r}")
    if corruption == "random" and corrupt.any() and rng is None:
        raise ValueError("rng: expected a numpy Generator for random corruption, got None")
    state = learner.init()
    regret = np.zeros(len(families))
    restarts = 0
    scale = 0.0
    for t, family in enumerate(families):
        best = family.argmax(w)
        scale = max(scale, float(w @ best) - float(w @ family.argmax(-w)))
        x_hat = learner.recommend(state, family)
        regret[t] = max(0.0, float(w @ best) - float(w @ x_hat))
        if corrupt[t]:
            if corruption == "argmin":
                observed = family.argmax(-w)
            else:
                assert rng is not None
                observed = family.argmax(rng.standard_normal(d))
        else:
            observed = best
        state = learner.update(state, family, x_hat, observed)
        restarts = getattr(state, "restarts", 0)
    mistakes = np.flatnonzero(regret > 1e-12 * max(1.0, scale))
    return SimulationResult(
        regret=readonly(regret),
        cumulative=readonly(np.cumsum(regret)),
        mistakes=int(mistakes.size),
        mistake_rounds=readonly(mistakes.astype(np.int64)),
        restarts=int(restarts),
        corrupted=readonly(corrupt),
        scale=scale,
    )


def adaptive_two_point_run(learner: OnlineLearner, *, max_rounds: int | None = None) -> int:
    """Adaptive adversary on two-point sets (spec §4, Thm 3.1 tightness / Thm 4.2).

    While some pair is undetermined by the learned closure, ask ``{e_i, e_j}`` for the first
    undetermined pair that is adjacent in the order of ``ŵ_t`` (ties by index) and answer
    *against* the recommendation; ``w*`` is then any linear extension of the answers, so every
    round is a mistake.  Returns the number of mistakes (rounds played).

    Args:
        learner: Algorithm 1 (``d >= 2``).
        max_rounds: safety cap (default ``d(d-1)/2``, the most possible).

    Raises:
        ValueError: ``d < 2`` or ``max_rounds < 1``.
    """
    d = learner.d
    if d < 2:
        raise ValueError(f"learner: expected d >= 2, got {d}")
    cap = (
        d * (d - 1) // 2 if max_rounds is None else require_int("max_rounds", max_rounds, minimum=1)
    )
    state = learner.init()
    mistakes = 0
    while mistakes < cap:
        order = sorted(range(d), key=lambda v: (-state.point[v], v))
        pair = next(
            (
                (a, b)
                for a, b in itertools.pairwise(order)
                if not state.closure[a, b] and not state.closure[b, a]
            ),
            None,
        )
        if pair is None:
            undetermined = [
                (a, b)
                for a in range(d)
                for b in range(a + 1, d)
                if not state.closure[a, b] and not state.closure[b, a]
            ]
            if not undetermined:
                break
            pair = undetermined[0]
        family = two_point_set(d, pair[0], pair[1])
        x_hat = learner.recommend(state, family)
        other = (
            family.enumerate()[1]
            if np.array_equal(x_hat, family.enumerate()[0])
            else family.enumerate()[0]
        )
        state = learner.update(state, family, x_hat, other)
        mistakes += 1
    return mistakes
