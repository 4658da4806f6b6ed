"""Fast path of :mod:`reference.tsp.decode`: the same decoders, tuned for speed.

Part of :mod:`reference.tsp` (not re-exported by it: import ``reference.tsp.fast``).  Same
public names, signatures and tours as the reference :mod:`reference.tsp.decode`, which is the
one to read beside spec 10 §3; ``tests/tsp/test_fast_vs_reference.py`` checks that both return
bit-identical tours.  What makes it fast:

* ``_KruskalOrder``: the ``(w, i, j)`` Kruskal order, sorted lazily (the ``PREFIX`` cheapest
  pairs first, the rest only when a scan goes beyond them), scanned in doubling chunks.
* ``_nested_repairs``: the sets ``H_τ`` are nested, so the sweep and the sampled decoder grow
  one union-find and one parity vector edge by edge, recompute ``F`` only while ``H`` is
  disconnected, and share one matching between candidates with the same odd set (cache keyed
  by ``odd.tobytes()``); ``_edges_by_draw`` buckets the pairs by drawn level instead of sorting
  all heat values.
* ``_euler_shortcut``: an iterative Hierholzer over per-vertex stacks of half-edges sorted by a
  16-bit radix sort (``_stable_order``).
* the matching: :mod:`reference.tsp.fast_matching` (warm-started Edmonds blossom algorithm with
  an optimality certificate) instead of an integer program.

The helpers live in :mod:`reference.tsp.fast_repair` (shared with the torch batch decoder).
It uses the reference's validators and result types (:class:`~reference.tsp.decode.RepairResult`,
:class:`~reference.tsp.decode.SweepResult`); the reference never imports this module.

Notation map: ``w`` = ``D``, ``X`` = ``heatmap``, ``H_τ = {ij : X_ij >= τ}``, ``F`` = connecting
edges, ``O`` = odd-degree vertices of ``H ⊎ F``, ``M`` = minimum-weight perfect matching on ``O``.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import (
    FloatArray,
    IntArray,
    readonly,
    require_generator,
    require_int,
    require_probability,
)
from reference._defaults import defaults_of
from reference.tsp.base import as_distances, as_heatmap
from reference.tsp.decode import (
    RepairResult,
    SweepResult,
    _as_edges,
    _polish,
    _threshold_edges,
)
from reference.tsp.decode import sampled_decode as _reference_sampled_decode
from reference.tsp.decode import sweep_decode as _reference_sweep_decode
from reference.tsp.decode import threshold_decode as _reference_threshold_decode
from reference.tsp.fast_matching import min_weight_perfect_matching
from reference.tsp.fast_repair import (
    _edges_by_draw,
    _edges_by_heat,
    _KruskalOrder,
    _nested_repairs,
    _repair_from_edges,
)

__all__ = [
    "expected_threshold_cost",
    "min_weight_perfect_matching",
    "repair",
    "repair_steps",
    "sampled_decode",
    "sweep_candidates",
    "sweep_decode",
    "threshold_decode",
]

# The keyword defaults each decoder shares with its reference, read from the reference's signature.
_THRESHOLD_DECODE = defaults_of(_reference_threshold_decode)
_SWEEP_DECODE = defaults_of(_reference_sweep_decode)
_SAMPLED_DECODE = defaults_of(_reference_sampled_decode)


# ------------------------------------------------------------------------------ public API
def repair_steps(D: ArrayLike, edges: ArrayLike) -> RepairResult:
    """Fast path of :func:`reference.tsp.repair_steps`: same arguments, result and tie rules.

    Tuned: incremental union-find over a lazily sorted Kruskal order, blossom matching, radix-sorted Euler circuit.
    The method, guarantee, arguments, errors and references are
    documented on the reference; ``tests/tsp/test_fast_vs_reference.py`` checks the two agree.

    Example:
        >>> from reference.tsp.base import distance_matrix
        >>> D = distance_matrix([[0, 0], [1, 0], [1, 1], [0, 1]])
        >>> steps = repair_steps(D, [[0, 1], [2, 3]])
        >>> steps.connect_edges.tolist(), steps.cost
        ([[0, 3]], 4.0)
    """
    w = as_distances("D", D)
    heat_edges = _as_edges("edges", edges, w.shape[0])
    return _repair_from_edges(w, heat_edges, _KruskalOrder(w))


def repair(D: ArrayLike, edges: ArrayLike) -> IntArray:
    """Fast path of :func:`reference.tsp.repair`: same arguments, result and tie rules.

    Tuned: the tour of the fast :func:`repair_steps`.
    The method, guarantee, arguments, errors and references are
    documented on the reference; ``tests/tsp/test_fast_vs_reference.py`` checks the two agree.

    Example:
        >>> from reference.tsp.base import distance_matrix
        >>> D = distance_matrix([[0, 0], [1, 0], [1, 1], [0, 1]])
        >>> repair(D, np.zeros((0, 2), dtype=int)).tolist()
        [0, 1, 2, 3]
    """
    return np.array(repair_steps(D, edges).tour, dtype=np.int64)


def threshold_decode(
    D: ArrayLike,
    heatmap: ArrayLike,
    tau: float = _THRESHOLD_DECODE["tau"],
    *,
    with_two_opt: bool = _THRESHOLD_DECODE["with_two_opt"],
) -> IntArray:
    """Fast path of :func:`reference.tsp.threshold_decode`: same arguments, result and tie rules.

    Tuned: one fast repair of ``H_τ``.
    The method, guarantee, arguments, errors and references are
    documented on the reference; ``tests/tsp/test_fast_vs_reference.py`` checks the two agree.

    Example:
        >>> from reference.tsp.base import distance_matrix, tour_indicator
        >>> D = distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1]])
        >>> threshold_decode(D, tour_indicator([0, 2, 1, 3])).tolist()
        [0, 2, 1, 3]
    """
    w = as_distances("D", D)
    heat = as_heatmap("heatmap", heatmap, w.shape[0])
    level = require_probability("tau", tau, open_low=True)
    result = _repair_from_edges(w, _threshold_edges(heat, level), _KruskalOrder(w))
    return _polish(w, result.tour, with_two_opt)


def sweep_candidates(D: ArrayLike, heatmap: ArrayLike) -> SweepResult:
    """Fast path of :func:`reference.tsp.sweep_candidates`: same arguments, result and tie rules.

    Tuned: nested repairs shared across thresholds, cached matchings.
    The method, guarantee, arguments, errors and references are
    documented on the reference; ``tests/tsp/test_fast_vs_reference.py`` checks the two agree.
    """
    w = as_distances("D", D)
    heat = as_heatmap("heatmap", heatmap, w.shape[0])
    return _sweep(w, heat)


def _sweep(w: FloatArray, heat: FloatArray) -> SweepResult:
    iu, ju, values = _edges_by_heat(heat)
    levels, counts = np.unique(-values, return_counts=True)  # decreasing heat values
    sizes = [0, *np.cumsum(counts).tolist()]
    results = _nested_repairs(w, iu, ju, sizes)
    costs = np.array([cost for _, cost in results])
    best_index = int(np.argmin(costs))  # ties: the first, i.e. the largest τ
    return SweepResult(
        thresholds=readonly(np.concatenate([[math.inf], -levels])),
        costs=readonly(costs),
        best_index=best_index,
        tour=readonly(np.array(results[best_index][0], dtype=np.int64)),
        cost=float(costs[best_index]),
    )


def sweep_decode(
    D: ArrayLike, heatmap: ArrayLike, *, with_two_opt: bool = _SWEEP_DECODE["with_two_opt"]
) -> IntArray:
    """Fast path of :func:`reference.tsp.sweep_decode`: same arguments, result and tie rules.

    Tuned: nested repairs shared across thresholds, cached matchings.
    The method, guarantee, arguments, errors and references are
    documented on the reference; ``tests/tsp/test_fast_vs_reference.py`` checks the two agree.

    Example:
        >>> from reference.tsp.base import distance_matrix, tour_indicator
        >>> D = distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1], [0.5, -1]])
        >>> X = tour_indicator([0, 4, 2, 1, 3])
        >>> sweep_decode(D, X).tolist()
        [0, 3, 1, 2, 4]
    """
    w = as_distances("D", D)
    heat = as_heatmap("heatmap", heatmap, w.shape[0])
    return _polish(w, _sweep(w, heat).tour, with_two_opt)


def sampled_decode(
    D: ArrayLike,
    heatmap: ArrayLike,
    *,
    k: int,
    rng: np.random.Generator,
    with_two_opt: bool = _SAMPLED_DECODE["with_two_opt"],
) -> IntArray:
    """Fast path of :func:`reference.tsp.sampled_decode`: same arguments, result and tie rules.

    Tuned: drawn levels bucketed by a radix sort, nested repairs shared across draws.
    The method, guarantee, arguments, errors and references are
    documented on the reference; ``tests/tsp/test_fast_vs_reference.py`` checks the two agree.

    Example:
        >>> from reference.tsp.base import distance_matrix, tour_indicator
        >>> D = distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1]])
        >>> X = tour_indicator([0, 2, 1, 3])
        >>> sampled_decode(D, X, k=4, rng=np.random.default_rng(0)).tolist()
        [0, 2, 1, 3]
    """
    w = as_distances("D", D)
    heat = as_heatmap("heatmap", heatmap, w.shape[0])
    draws = require_int("k", k, minimum=1)
    require_generator("rng", rng)
    taus = 1.0 - rng.uniform(0.0, 1.0, size=draws)
    iu, ju, sizes = _edges_by_draw(heat, taus)
    distinct = sorted(set(sizes))
    results = dict(zip(distinct, _nested_repairs(w, iu, ju, distinct), strict=True))
    costs = [results[size][1] for size in sizes]
    best = int(np.argmin(np.array(costs)))  # ties: the earliest draw
    return _polish(w, results[sizes[best]][0], with_two_opt)


def expected_threshold_cost(D: ArrayLike, heatmap: ArrayLike) -> float:
    """Fast path of :func:`reference.tsp.expected_threshold_cost`: same arguments, result and tie rules.

    Tuned: the fast sweep candidates.
    The method, guarantee, arguments, errors and references are
    documented on the reference; ``tests/tsp/test_fast_vs_reference.py`` checks the two agree.
    """
    w = as_distances("D", D)
    heat = as_heatmap("heatmap", heatmap, w.shape[0])
    sweep = _sweep(w, heat)
    levels = np.concatenate([[1.0], sweep.thresholds[1:], [0.0]])
    weights = levels[:-1] - levels[1:]
    return float(np.dot(weights, sweep.costs))
