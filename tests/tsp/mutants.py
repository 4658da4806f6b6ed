"""Hand-made broken TSP decoders, 2-opt and exact solvers: the tsp.* suites must reject each.

Importable (``tests.tsp.mutants:identity_decoder``) so the CLI tests can target them.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from reference import tsp
from reference._arrays import FloatArray, IntArray
from reference.tsp.baselines import merge_in_order, two_opt_deltas
from reference.tsp.decode import _repair, _threshold_edges, _thresholds


def _arrays(D: Any, X: Any) -> tuple[FloatArray, FloatArray]:
    return np.asarray(D, dtype=np.float64), np.asarray(X, dtype=np.float64)


# ----------------------------------------------------------------------------- decoders
def identity_decoder(D: Any, X: Any) -> IntArray:
    """Mutant: ignores the heatmap and returns ``0, 1, …, n-1``."""
    return np.arange(np.shape(D)[0], dtype=np.int64)


def repeated_vertex(D: Any, X: Any) -> IntArray:
    """Mutant: the sweep's tour with its last city replaced by its first (not a cycle)."""
    tour = tsp.sweep_decode(D, X)
    tour[-1] = tour[0]
    return tour


def worst_candidate_sweep(D: Any, X: Any) -> IntArray:
    """Mutant: the sweep returning its most expensive candidate (argmax instead of argmin)."""
    w, heat = _arrays(D, X)
    levels = _thresholds(heat).tolist()
    results = [_repair(w, _threshold_edges(heat, tau)) for tau in levels]
    worst = max(results, key=lambda r: r.cost)
    return np.array(worst.tour, dtype=np.int64)


def rounded_distances(D: Any, X: Any) -> IntArray:
    """Mutant: greedy merge on distances rounded to one decimal (not scale-equivariant)."""
    w, heat = _arrays(D, X)
    return tsp.greedy_merge(np.round(w, 1), heat)


def no_validation(D: Any, X: Any) -> IntArray:
    """Mutant: repairs its input silently (NaN -> 0, |.|, symmetrised) instead of raising."""
    w, heat = _arrays(D, X)
    n = w.shape[0]
    if n < 3 or heat.shape != w.shape:
        return np.arange(max(n, 1), dtype=np.int64)
    w = np.nan_to_num(np.abs(w))
    w = np.maximum(w, w.T)
    return tsp.greedy_merge(w, np.clip(heat, 0.0, 1.0))


def nearest_neighbour_decoder(D: Any, X: Any) -> IntArray:
    """Mutant: ignores the heatmap (nearest neighbour from city 0)."""
    return tsp.nearest_neighbour(D)


def coarse_score_greedy(D: Any, X: Any) -> IntArray:
    """Mutant: greedy merge whose scores are rounded (ties then follow the city labels)."""
    w, heat = _arrays(D, X)
    n = w.shape[0]
    s = heat + heat.T
    with np.errstate(divide="ignore", invalid="ignore"):
        score = np.where(s > 0.0, s / w, 0.0)
    score = np.round(score)
    order = np.argsort(-score.ravel(), kind="stable")
    order = order[(order // n) != (order % n)]
    return merge_in_order(n, order.astype(np.int64))


def christofides_only(D: Any, X: Any) -> IntArray:
    """Mutant: ignores the heatmap and returns ``repair(∅)`` (Christofides): 1.5·OPT, not OPT + 2η."""
    return tsp.repair(D, np.zeros((0, 2), dtype=np.int64))


# ------------------------------------------------------------------------------- 2-opt
def two_opt_no_op(D: Any, tour: Any) -> IntArray:
    """Mutant: returns the input tour unchanged."""
    return np.asarray(tour, dtype=np.int64).copy()


def two_opt_worst_move(D: Any, tour: Any) -> IntArray:
    """Mutant: applies the *largest* Δ (a worsening move) once."""
    w = np.asarray(D, dtype=np.float64)
    t = np.asarray(tour, dtype=np.int64).copy()
    delta = two_opt_deltas(w, t)
    i, j = divmod(int(np.argmax(delta)), t.shape[0])
    t[i + 1 : j + 1] = t[i + 1 : j + 1][::-1].copy()
    return t


def two_opt_off_by_one(D: Any, tour: Any) -> IntArray:
    """Mutant: best-improvement 2-opt that reverses ``t[i .. j-1]`` instead of ``t[i+1 .. j]``."""
    w = np.asarray(D, dtype=np.float64)
    t = np.asarray(tour, dtype=np.int64).copy()
    for _ in range(50):
        delta = two_opt_deltas(w, t)
        flat = int(np.argmin(delta))
        if float(delta.flat[flat]) >= -1e-6:
            break
        i, j = divmod(flat, t.shape[0])
        t[i:j] = t[i:j][::-1].copy()
    return t


def two_opt_drops_city(D: Any, tour: Any) -> IntArray:
    """Mutant: 2-opt result with the last city duplicated over the first."""
    t = np.array(tsp.two_opt(D, tour).tour, dtype=np.int64)
    t[0] = t[-1]
    return t


# ------------------------------------------------------------------------- exact solvers
def nearest_neighbour_solver(D: Any) -> tuple[float, IntArray]:
    """Mutant: nearest neighbour presented as an exact solver."""
    tour = tsp.nearest_neighbour(D)
    return tsp.tour_length(D, tour), tour


def open_path_length(D: Any) -> tuple[float, IntArray]:
    """Mutant: Held-Karp tour, but the reported length omits the closing edge."""
    w = np.asarray(D, dtype=np.float64)
    _, tour = tsp.held_karp(w)
    return float(np.sum(w[tour[:-1], tour[1:]])), tour


def fixed_first_edge(D: Any) -> tuple[float, IntArray]:
    """Mutant: the best tour among those using the edge (0, 1) (label-dependent, not optimal)."""
    w = np.asarray(D, dtype=np.float64)
    n = w.shape[0]
    best: tuple[float, IntArray] | None = None
    for rest in itertools.permutations(range(2, n)):
        tour = np.array([0, 1, *rest], dtype=np.int64)
        length = float(np.sum(w[tour, np.roll(tour, -1)]))
        if best is None or length < best[0]:
            best = (length, tour)
    assert best is not None
    return best
