"""TSP with predictions: heatmap-to-tour decoders with the ``ALG <= OPT + 2η`` guarantee.

The public face of the family (re-exports only); the code lives beside it in ``reference/tsp/``:

* :mod:`reference.tsp.base` — validation, instances (:func:`euclidean_instance`,
  :func:`random_metric_instance`), tour utilities (:func:`tour_length`, :func:`is_tour`,
  :func:`canonical_tour`, :func:`tour_indicator`), the prediction error :func:`eta` and
  :func:`prepare_heatmap`.
* :mod:`reference.tsp.decode` — :func:`repair` (connect, parity matching, Euler circuit,
  shortcut), :func:`threshold_decode`, :func:`sweep_decode` (the full threshold sweep,
  ``ALG <= OPT + 2η`` and ``<= 1.5·OPT``), :func:`sampled_decode` (best of ``k`` random
  thresholds), :func:`expected_threshold_cost`; the exact matching in
  :mod:`reference.tsp.matching`.  Plain loops, to be read beside the spec.
* :mod:`reference.tsp.exact` — :func:`held_karp` (``n <= 13``), :func:`brute_force_tsp`.
* :mod:`reference.tsp.baselines` — :func:`greedy_merge` (DIFUSCO/DIMES greedy), :func:`two_opt`,
  :func:`christofides_networkx` (needs the optional ``networkx``), :func:`nearest_neighbour`.
* :mod:`reference.tsp.mcts` — :func:`mcts_decode` / :func:`mcts_search` (B3: heatmap-guided
  MCTS with sampled k-opt moves, Att-GCN/DIMES/UTSP style; seeded, budget in simulations).
* :mod:`reference.tsp.heatmaps` — generators G1-G4: :func:`perturbed_optimum`,
  :func:`edge_flips`, :func:`mixture_heatmap`, :func:`soft_dist`.

Runtime dependencies are numpy and scipy only; :func:`christofides_networkx` imports networkx
when called.  The NumPy fast path of the decoders (same names, signatures and tours) is
:mod:`reference.tsp.fast` with :mod:`reference.tsp.fast_matching`; torch fast paths live in
:mod:`reference.tsp.fast_torch`.  Neither is imported here.

**Provenance:** only the abstract of the paper was readable; the decoders are the
(reconstruction) of spec 10 (``shared/papers/10_tsp_heatmap_tours.md``), which provably meets the
abstract's guarantee.

Example:
    >>> import numpy as np
    >>> from reference.tsp import euclidean_instance, held_karp, perturbed_optimum, sweep_decode
    >>> from reference.tsp import eta, tour_length
    >>> rng = np.random.default_rng(0)
    >>> _, D = euclidean_instance(8, rng=rng)
    >>> opt, best = held_karp(D)
    >>> X = perturbed_optimum(best, sigma=0.3, rng=rng)
    >>> tour_length(D, sweep_decode(D, X)) <= opt + 2 * eta(D, X, best) + 1e-9
    True

References:
    M. Eliáš, F. Grandoni, A. Polak, E. Vercesi, "TSP with Predictions: Heatmap to Tour with
    Provable Guarantees", ICML 2026 (PMLR 306, ``elias26a``).
"""

from __future__ import annotations

from reference.tsp.base import (
    canonical_tour,
    distance_matrix,
    eta,
    euclidean_instance,
    is_tour,
    prepare_heatmap,
    random_metric_instance,
    tour_edges,
    tour_indicator,
    tour_length,
)
from reference.tsp.baselines import (
    TwoOptResult,
    christofides,
    christofides_networkx,
    greedy_merge,
    nearest_neighbour,
    two_opt,
)
from reference.tsp.decode import (
    RepairResult,
    SweepResult,
    expected_threshold_cost,
    repair,
    repair_steps,
    sampled_decode,
    sweep_candidates,
    sweep_decode,
    threshold_decode,
)
from reference.tsp.exact import brute_force_tsp, held_karp
from reference.tsp.heatmaps import edge_flips, mixture_heatmap, perturbed_optimum, soft_dist
from reference.tsp.mcts import MctsConfig, MctsResult, mcts_decode, mcts_search

__all__ = [
    "MctsConfig",
    "MctsResult",
    "RepairResult",
    "SweepResult",
    "TwoOptResult",
    "brute_force_tsp",
    "canonical_tour",
    "christofides",
    "christofides_networkx",
    "distance_matrix",
    "edge_flips",
    "eta",
    "euclidean_instance",
    "expected_threshold_cost",
    "greedy_merge",
    "held_karp",
    "is_tour",
    "mcts_decode",
    "mcts_search",
    "mixture_heatmap",
    "nearest_neighbour",
    "perturbed_optimum",
    "prepare_heatmap",
    "random_metric_instance",
    "repair",
    "repair_steps",
    "sampled_decode",
    "soft_dist",
    "sweep_candidates",
    "sweep_decode",
    "threshold_decode",
    "tour_edges",
    "tour_indicator",
    "tour_length",
    "two_opt",
]
