"""B3: heatmap-guided Monte-Carlo tree search with sampled k-opt moves (Att-GCN/DIMES/UTSP style).

Part of :mod:`reference.tsp` (spec 10 §3.5 B3).  A simple, seeded NumPy port of the decoder of
Fu, Qiu, Zha (AAAI 2021) in the form of the public C++ code used by the ICML 2024 "rethinking
MCTS" study (``xyfffff/rethink_mcts_for_tsp``, ``TSP_MCTS.h``, ``TSP_Init.h``,
``TSP_Markov_Decision.h``).  No approximation guarantee: it is a baseline (the ``OPT + 2η``
bound of the paper is not claimed, so it is registered for ``tsp.decoder`` only).

Notation map (spec §3.5 B3 → code): ``W`` = ``weight`` (initialised ``100·X``), ``Ω_i`` = mean
of row ``i`` of ``W`` off the diagonal, ``Q`` = ``chosen`` (times an edge was chosen),
``M`` = ``simulations`` so far, ``α`` = ``config.alpha``, ``β`` = ``config.beta``,
``H`` = ``config.param_h``, depth cap = ``config.max_depth``.

Procedure (one *restart*; the weights ``W``, counts ``Q`` and ``M`` persist over restarts):

1. Initial tour: from vertex 0, the next city is sampled among the unvisited ones with
   probability ``∝ exp(W_ij)``; then 2-opt (:func:`reference.tsp.baselines.two_opt_core`).
2. MCTS phase, repeated while it improves: ``H·n`` simulations; each picks a random city
   ``a_1``, removes the edge ``(a_1, b_1 = next(a_1))`` and extends a sampled k-opt move on the
   Hamiltonian path: at ``b_i`` the next city ``a_{i+1}`` is sampled among the candidates of
   ``b_i`` (cities by decreasing heatmap, at most ``max_candidates``), excluding ``a_1``, the
   current path neighbour of ``b_i`` and those with potential
   ``Z_ij = W_ij/Ω_i + α·sqrt(ln(M+1) / (ln(2.718)·(Q_ij+1)))`` below 1, with probability
   ``∝ Z``; ``b_{i+1}`` is the path predecessor of ``a_{i+1}``, the sub-path ``b_i..b_{i+1}`` is
   reversed.  The move stops at a closing gain ``> ε`` or at depth ``max_depth``; its value is
   the best closing gain over its depths.  The phase stops at the first simulation with a
   gain ``> ε``; that move is applied and each of its new edges ``(b_i, a_{i+1})`` (and
   ``(b_k, a_1)``) gets ``W += β·(exp(Δ/L_before) - 1)``.  A phase without such a gain ends
   the restart.  ``ε = IMPROVEMENT_RTOL·L_before`` (our default; the C++ code compares integer
   gains with 0).
3. Restarts repeat while fewer than ``max_simulations`` simulations were run; the best tour
   ever seen is returned.

Variant (our defaults, documented): the C++ budget is CPU time (``T·n`` seconds, ``T = 0.1``);
here it is a number of simulations (``max_simulations``, default ``30·n``), so the output is a
deterministic function of ``rng``.  Probabilities are exact floating-point ratios, not the C++
code's integer thousandths.  The 2-opt step is DIFUSCO's best-improvement 2-opt (the C++ code
uses a candidate-restricted 2-opt), with the k-opt moves' relative threshold
``IMPROVEMENT_RTOL·L_start`` instead of DIFUSCO's absolute 1e-6, so that the search is exactly
scale-covariant (``D -> cD`` for ``c`` a power of two gives the same tours): with 1e-6 a 2-opt
move of gain 8.3e-7 would be skipped on ``D`` and taken on ``2D`` (the ``distance_scaling``
property of the tsp.decoder suite).  A row of ``W`` with mean 0 (an all-zero heatmap row) uses
``W_ij/Ω_i := 0`` (the C++ code divides by zero).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import FloatArray, IntArray, readonly, require_int, require_positive
from reference._repr import summary_repr
from reference.tsp.base import _canonical, _length, _require_rng, as_distances, as_heatmap
from reference.tsp.baselines import TWO_OPT_MAX_ITERATIONS, two_opt_core

__all__ = ["IMPROVEMENT_RTOL", "MctsConfig", "MctsResult", "mcts_decode", "mcts_search"]

_LN_E = math.log(2.718)  # the C++ code's log(2.718)
#: A move counts as improving only if its gain exceeds this fraction of the tour length (the C++
#: code has integer distances; in floating point a rounding-level "gain" could loop forever).
IMPROVEMENT_RTOL = 1e-9


@dataclass(frozen=True, slots=True, kw_only=True)
class MctsConfig:
    """Parameters of the heatmap-guided MCTS (defaults: spec 10 §3.5 B3 / the public C++ code).

    Attributes:
        alpha: exploration weight ``α`` of the potential (1).
        beta: back-propagation rate ``β`` (10).
        param_h: simulations per MCTS phase are ``H·n`` (``H = 10``).
        max_depth: largest k of a sampled k-opt move (10).
        max_candidates: candidate cities per city, by decreasing heatmap value (1000).
        weight_scale: initial weights ``W = weight_scale·X`` (100).
        max_simulations: budget in simulations; ``None`` means ``30·n`` (our default; the C++
            code uses ``0.1·n`` CPU seconds).  Restarts stop once it is reached (the running
            phase finishes).
    """

    alpha: float = 1.0
    beta: float = 10.0
    param_h: int = 10
    max_depth: int = 10
    max_candidates: int = 1000
    weight_scale: float = 100.0
    max_simulations: int | None = None

    def __post_init__(self) -> None:
        require_positive("alpha", self.alpha, allow_zero=True)
        require_positive("beta", self.beta, allow_zero=True)
        require_int("param_h", self.param_h, minimum=1)
        require_int("max_depth", self.max_depth, minimum=1)
        require_int("max_candidates", self.max_candidates, minimum=1)
        require_positive("weight_scale", self.weight_scale, allow_zero=True)
        if self.max_simulations is not None:
            require_int("max_simulations", self.max_simulations, minimum=0)


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class MctsResult:
    """Outcome of :func:`mcts_search`.

    Attributes:
        tour: the best tour found (canonical form, read-only).
        length: its cost.
        simulations: simulations run (the budget's stopping quantity).
        restarts: initial tours sampled (the first one included).
        improvements: k-opt moves applied over all restarts.
        converged: True when the budget was used up (the search always stops; a budget of 0
            still returns the first 2-opt tour).
    """

    tour: IntArray
    length: float
    simulations: int
    restarts: int
    improvements: int
    converged: bool


class _Search:
    """Mutable search state (weights, counts, current tour)."""

    def __init__(
        self, w: FloatArray, heat: FloatArray, config: MctsConfig, rng: np.random.Generator
    ) -> None:
        n = w.shape[0]
        self.w = w
        self.n = n
        self.config = config
        self.rng = rng
        self.weight = config.weight_scale * heat.copy()
        np.fill_diagonal(self.weight, 0.0)
        self.chosen = np.zeros((n, n))
        self.simulations = 0
        order = np.argsort(-heat, axis=1, kind="stable")
        cap = min(config.max_candidates, n - 1)
        self.candidates = [row[row != i][:cap] for i, row in enumerate(order)]

    # ------------------------------------------------------------------ initial solution
    def initial_tour(self) -> IntArray:
        n = self.n
        visited = np.zeros(n, dtype=bool)
        tour = [0]
        visited[0] = True
        cur = 0
        for _ in range(n - 1):
            options = np.flatnonzero(~visited)
            logits = self.weight[cur, options]
            p = np.exp(logits - logits.max())
            cur = int(options[self._sample(p)])
            tour.append(cur)
            visited[cur] = True
        return np.array(tour, dtype=np.int64)

    def _sample(self, p: FloatArray) -> int:
        cumulative = np.cumsum(p)
        u = float(self.rng.random()) * float(cumulative[-1])
        index = int(np.searchsorted(cumulative, u, side="right"))
        return min(index, int(p.shape[0]) - 1)

    # ----------------------------------------------------------------------- simulation
    def _choose(self, cur: int, begin: int, neighbour: int) -> int:
        cand = self.candidates[cur]
        cand = cand[(cand != begin) & (cand != neighbour)]
        if cand.size == 0:
            return -1
        row = self.weight[cur]
        mean = float(row.sum()) / (self.n - 1)
        exploit = row[cand] / mean if mean > 0.0 else np.zeros(cand.shape[0])
        explore = self.config.alpha * np.sqrt(
            math.log(self.simulations + 1) / (_LN_E * (self.chosen[cur, cand] + 1.0))
        )
        z = exploit + explore
        keep = z >= 1.0
        if not bool(keep.any()):
            return -1
        return int(cand[keep][self._sample(z[keep])])

    def simulate(self, tour: IntArray, eps: float) -> tuple[float, IntArray, list[tuple[int, int]]]:
        """One sampled k-opt move from a random city: (best gain, its tour, new edges)."""
        n, w = self.n, self.w
        begin = int(self.rng.integers(n))
        start = (int(np.flatnonzero(tour == begin)[0]) + 1) % n
        path = np.roll(tour, -start)  # path[0] = b_1, path[-1] = a_1 = begin
        pos = np.empty(n, dtype=np.int64)
        pos[path] = np.arange(n)
        cur = int(path[0])
        gain = float(w[begin, cur])
        best_gain, best_path, best_edges = -math.inf, path, []
        edges: list[tuple[int, int]] = []
        for _ in range(self.config.max_depth):
            nxt = self._choose(cur, begin, int(path[1]))
            if nxt < 0:
                break
            self.chosen[cur, nxt] += 1.0
            self.chosen[nxt, cur] += 1.0
            cut = int(pos[nxt])
            drop = int(path[cut - 1])  # b_{i+1}: predecessor of a_{i+1} on the path
            gain = gain - float(w[cur, nxt]) + float(w[nxt, drop])
            real = gain - float(w[drop, begin])
            path = path.copy()
            path[:cut] = path[:cut][::-1]
            pos[path[:cut]] = np.arange(cut)
            edges.append((cur, nxt))
            cur = drop
            if real > best_gain:
                best_gain, best_path, best_edges = real, path, [*edges, (cur, begin)]
            if real > eps:
                break
        return best_gain, best_path, best_edges

    def phase(self, tour: IntArray) -> tuple[IntArray, int]:
        """MCTS on one tour until a phase of ``H·n`` simulations finds no improvement."""
        improvements = 0
        while True:
            before = _length(self.w, tour)
            eps = IMPROVEMENT_RTOL * before
            best_gain, best_tour, best_edges = -math.inf, tour, []
            for _ in range(self.config.param_h * self.n):
                gain, candidate, edges = self.simulate(tour, eps)
                self.simulations += 1
                if gain > best_gain:
                    best_gain, best_tour, best_edges = gain, candidate, edges
                if best_gain > eps:
                    break
            if best_gain <= eps:
                return tour, improvements
            rate = self.config.beta * (math.exp(best_gain / before) - 1.0) if before > 0 else 0.0
            for a, b in best_edges:
                self.weight[a, b] += rate
                self.weight[b, a] += rate
            tour = best_tour
            improvements += 1


def mcts_search(
    D: ArrayLike, heatmap: ArrayLike, *, rng: np.random.Generator, config: MctsConfig | None = None
) -> MctsResult:
    """B3: heatmap-guided MCTS with sampled k-opt moves; returns the search statistics.

    See the module docstring for the procedure, the potential
    ``Z_ij = W_ij/Ω_i + α·sqrt(ln(M+1)/(ln(2.718)·(Q_ij+1)))`` and the back-propagation
    ``W += β(exp(Δ/L) - 1)``.  No approximation guarantee (a baseline).

    Complexity: each simulation costs ``O(max_depth · n)``; the budget bounds the number of
    simulations up to one final phase (``H·n``); each restart adds a 2-opt run (``O(n²)`` per
    move, at most 1000 moves).

    Args:
        D: ``(n, n)`` symmetric non-negative distances (metric not required).
        heatmap: ``(n, n)`` symmetric heatmap in ``[0, 1]``.
        rng: the random generator (initial tours, begin cities, sampled moves).
        config: parameters (:class:`MctsConfig`; ``None`` = defaults).

    Returns:
        An :class:`MctsResult`.

    Raises:
        TypeError: non-numeric input, ``rng`` not a generator or ``config`` of the wrong type.
        ValueError: invalid distances or heatmap.

    Example:
        >>> from reference.tsp.base import distance_matrix, tour_indicator
        >>> D = distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1]])
        >>> out = mcts_search(D, tour_indicator([0, 2, 1, 3]), rng=np.random.default_rng(0))
        >>> out.tour.tolist(), out.length
        ([0, 2, 1, 3], 4.0)

    References:
        Z.-H. Fu, K.-B. Qiu, H. Zha, "Generalize a Small Pre-trained Model to Arbitrarily Large
        TSP Instances", AAAI 2021; Y. Xia et al., "Position: Rethinking Post-Hoc Search-Based
        Neural Approaches for Solving Large-Scale Traveling Salesman Problems", ICML 2024
        (code ``xyfffff/rethink_mcts_for_tsp``); spec 10 §3.5 B3.
    """
    w = as_distances("D", D, metric=False)
    heat = as_heatmap("heatmap", heatmap, w.shape[0])
    _require_rng(rng)
    if config is None:
        config = MctsConfig()
    if not isinstance(config, MctsConfig):
        raise TypeError(f"config: expected an MctsConfig, got {type(config).__name__}")
    n = w.shape[0]
    budget = 30 * n if config.max_simulations is None else config.max_simulations
    search = _Search(w, heat, config, rng)
    best_tour: IntArray | None = None
    best_length = math.inf
    restarts = 0
    improvements = 0
    while True:
        start = search.initial_tour()
        local = two_opt_core(
            w,
            start,
            max_iter=TWO_OPT_MAX_ITERATIONS,
            min_improvement=IMPROVEMENT_RTOL * _length(w, start),
        )
        restarts += 1
        tour = np.array(local.tour, dtype=np.int64)
        if search.simulations < budget and n >= 4:
            tour, count = search.phase(tour)
            improvements += count
        length = _length(w, tour)
        if length < best_length:
            best_tour, best_length = tour, length
        if search.simulations >= budget or n < 4:
            break
    assert best_tour is not None
    return MctsResult(
        tour=readonly(_canonical(best_tour)),
        length=best_length,
        simulations=search.simulations,
        restarts=restarts,
        improvements=improvements,
        converged=True,
    )


def mcts_decode(
    D: ArrayLike, heatmap: ArrayLike, *, rng: np.random.Generator, config: MctsConfig | None = None
) -> IntArray:
    """B3: heatmap-guided MCTS decoder, returning only the tour (see :func:`mcts_search`).

    Args:
        D: ``(n, n)`` symmetric non-negative distances.
        heatmap: ``(n, n)`` symmetric heatmap in ``[0, 1]``.
        rng: the random generator.
        config: parameters (:class:`MctsConfig`; ``None`` = defaults).

    Returns:
        The tour (canonical form).

    Raises:
        TypeError: non-numeric input, ``rng`` not a generator or ``config`` of the wrong type.
        ValueError: invalid distances or heatmap.

    Example:
        >>> from reference.tsp.base import distance_matrix
        >>> D = distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1]])
        >>> X = np.full((4, 4), 0.5) - 0.5 * np.eye(4)
        >>> mcts_decode(D, X, rng=np.random.default_rng(1)).tolist()
        [0, 2, 1, 3]

    References:
        Spec 10 §3.5 B3 (Fu, Qiu, Zha, AAAI 2021; public C++ code of Xia et al., ICML 2024).
    """
    return np.array(mcts_search(D, heatmap, rng=rng, config=config).tour, dtype=np.int64)
