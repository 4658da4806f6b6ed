"""Mutant table of the tsp theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from reference import tsp
from reference._arrays import IntArray
from reference.tsp.decode import RepairResult, _repair, _threshold_edges, _thresholds
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def top_three_sweep(D: Any, X: Any, *, with_two_opt: bool = False) -> IntArray:
    """The sweep that tries only ``H = ∅`` and the three largest thresholds (a "top-k" cap)."""
    w, heat = np.asarray(D, dtype=np.float64), np.asarray(X, dtype=np.float64)
    levels = _thresholds(heat).tolist()[:4]
    best = min((_repair(w, _threshold_edges(heat, tau)) for tau in levels), key=lambda r: r.cost)
    tour = np.array(best.tour, dtype=np.int64)
    return np.array(tsp.two_opt(w, tour).tour) if with_two_opt else tour


def label_order_sweep(D: Any, X: Any, *, with_two_opt: bool = False) -> IntArray:
    """A decoder that returns the cities in label order (the heatmap and distances unused)."""
    del X, with_two_opt
    return np.arange(np.shape(D)[0], dtype=np.int64)


def worst_candidate_sweep(D: Any, X: Any, *, with_two_opt: bool = False) -> IntArray:
    """The sweep keeping its most expensive candidate (``max`` for ``min``)."""
    del with_two_opt
    w, heat = np.asarray(D, dtype=np.float64), np.asarray(X, dtype=np.float64)
    results = [_repair(w, _threshold_edges(heat, tau)) for tau in _thresholds(heat).tolist()]
    return np.array(max(results, key=lambda r: r.cost).tour, dtype=np.int64)


def unshortcut_repair_steps(D: Any, edges: Any) -> RepairResult:
    """``repair_steps`` whose tour is the label order (the Euler/shortcut step lost); every
    other field, including the reported ``cost``, is the right one."""
    steps = tsp.repair_steps(D, edges)
    return dataclasses.replace(steps, tour=np.arange(np.shape(D)[0], dtype=np.int64))


def christofides_threshold(D: Any, X: Any, tau: float, **kwargs: Any) -> IntArray:
    """The threshold decoder that drops the predicted edges (``H = ∅``: plain Christofides)."""
    del tau
    return tsp.threshold_decode(D, np.zeros_like(np.asarray(X, dtype=np.float64)), 1.0, **kwargs)


def wide_support_expectation(D: Any, X: Any) -> float:
    """``E_τ`` for ``τ ~ U(0, 2]`` instead of ``U(0, 1]``: half the mass on ``H = ∅``."""
    empty = tsp.tour_length(D, tsp.repair(D, np.zeros((0, 2), dtype=np.int64)))
    return 0.5 * tsp.expected_threshold_cost(D, X) + 0.5 * empty


def christofides_repair(D: Any, edges: Any) -> IntArray:
    """``repair`` that drops the given edges (always ``H = ∅``: plain Christofides)."""
    del edges
    return tsp.repair(D, np.zeros((0, 2), dtype=np.int64))


def wide_sampled_decode(
    D: Any, heatmap: Any, *, k: int, rng: np.random.Generator, with_two_opt: bool = False
) -> IntArray:
    """Best of ``k`` thresholds drawn from ``U(0, 2]`` (a scale slip: half the draws give
    ``H = ∅``)."""
    del with_two_opt
    w, heat = np.asarray(D, dtype=np.float64), np.asarray(heatmap, dtype=np.float64)
    taus = 2.0 * (1.0 - rng.uniform(0.0, 1.0, size=k))
    results = [_repair(w, _threshold_edges(heat, float(t))) for t in taus]
    return np.array(min(results, key=lambda r: r.cost).tour, dtype=np.int64)


def open_path_held_karp(D: Any) -> tuple[float, IntArray]:
    """Held-Karp reporting the best Hamiltonian *path* length (closing edge forgotten)."""
    length, tour = tsp.held_karp(D)
    w = np.asarray(D, dtype=np.float64)
    return length - float(w[tour[-1], tour[0]]), tour


def first_improvement_threshold_decode(
    D: Any, X: Any, tau: float = 0.5, *, with_two_opt: bool = False
) -> IntArray:
    """The 2-opt post-processing with first-improvement moves (the first gaining pair in
    row-major order) instead of the best move."""
    tour = [int(v) for v in tsp.threshold_decode(D, X, tau)]
    if not with_two_opt:
        return np.array(tour, dtype=np.int64)
    w, n = np.asarray(D, dtype=np.float64), len(tour)
    for _ in range(1000):
        move = next(
            (
                (i, j)
                for i in range(n)
                for j in range(i + 2, n)
                if w[tour[i], tour[j]]
                + w[tour[i + 1], tour[(j + 1) % n]]
                - w[tour[i], tour[i + 1]]
                - w[tour[j], tour[(j + 1) % n]]
                < -1e-6
            ),
            None,
        )
        if move is None:
            break
        i, j = move
        tour[i + 1 : j + 1] = tour[i + 1 : j + 1][::-1]
    return np.array(tour, dtype=np.int64)


def uniform_tau_sampled_decode(
    D: Any, X: Any, *, k: int, rng: np.random.Generator, with_two_opt: bool = False
) -> IntArray:
    """Best of ``k`` thresholds ``τ = U`` (in ``[0, 1)``) instead of ``τ = 1 - U``."""
    taus = rng.uniform(0.0, 1.0, size=k)
    tours = [tsp.threshold_decode(D, X, float(t), with_two_opt=with_two_opt) for t in taus]
    costs = [float(tsp.tour_length(D, t)) for t in tours]
    return np.asarray(tours[int(np.argmin(costs))], dtype=np.int64)


def _m(name: str, why: str, algorithm: str, target: str, *catches: str) -> ProofMutant:
    return ProofMutant(
        family="tsp",
        name=name,
        why=why,
        algorithm=f"reference.tsp:{algorithm}",
        target=f"{__name__}:{target}",
        catches=catches,
    )


MUTANTS = (
    _m(
        "sweep: three largest thresholds",
        "a sweep capped at the three largest thresholds (plus H = ∅)",
        "sweep_decode",
        "top_three_sweep",
        "tsp.opt_plus_two_eta",
    ),
    _m(
        "sweep: label order",
        "a decoder returning the cities in label order",
        "sweep_decode",
        "label_order_sweep",
        "tsp.opt_plus_two_eta",
        "tsp.one_and_a_half_opt",
        "tsp.corollary_c",
    ),
    _m(
        "sweep: worst candidate",
        "the sweep keeping the most expensive candidate (max for min)",
        "sweep_decode",
        "worst_candidate_sweep",
        "tsp.corollary_c",
    ),
    _m(
        "repair_steps: no shortcut",
        "repair returning the label order as tour while reporting the right cost",
        "repair_steps",
        "unshortcut_repair_steps",
        "tsp.lemma_a",
    ),
    _m(
        "threshold_decode: H = ∅",
        "the threshold decoder dropping the predicted edges (plain Christofides)",
        "threshold_decode",
        "christofides_threshold",
        "tsp.proposition_d",
    ),
    _m(
        "expected_threshold_cost: U(0, 2]",
        "the expectation taken over τ ~ U(0, 2] (half the mass on H = ∅)",
        "expected_threshold_cost",
        "wide_support_expectation",
        "tsp.proposition_e",
    ),
    _m(
        "repair: H dropped",
        "repair ignoring the predicted edges (Christofides on every input)",
        "repair",
        "christofides_repair",
        "tsp.repair",
    ),
    _m(
        "sampled_decode: τ ~ U(0, 2]",
        "best-of-k thresholds drawn from U(0, 2] (half the draws repair H = ∅)",
        "sampled_decode",
        "wide_sampled_decode",
        "tsp.sampled_decode",
    ),
    _m(
        "held_karp: open path",
        "Held-Karp forgetting the closing edge in the reported length",
        "held_karp",
        "open_path_held_karp",
        "tsp.held_karp_oracle",
    ),
    _m(
        "threshold_decode: first-improvement 2-opt",
        "with_two_opt polishing by first-improvement moves instead of DIFUSCO's best move",
        "threshold_decode",
        "first_improvement_threshold_decode",
        "tsp.two_opt_option",
    ),
    _m(
        "sampled_decode: tau = U",
        "the thresholds drawn as U instead of 1 - U (the same law, another stream)",
        "sampled_decode",
        "uniform_tau_sampled_decode",
        "tsp.sampled_replay",
    ),
)
