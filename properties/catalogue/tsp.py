"""Catalogue of the ``tsp`` family: ``ALGORITHMS`` (rows of ``verifiedref list``),
``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite) and ``HARD_EXTRAS``
(hard instances and stopping rules that the ``hard_input`` suite adds to them)."""

from __future__ import annotations

import importlib.util
import math
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase, HardExtra
from reference import tsp
from reference._arrays import FloatArray, IntArray

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "HARD_EXTRAS", "UNCOVERED"]


_PAPER = "Eliáš, Grandoni, Polak, Vercesi, TSP with Predictions, ICML 2026"
ALGORITHMS = (
    Algorithm(
        name="full threshold sweep (OPT + 2η)",
        function="reference.tsp:sweep_decode",
        family="tsp",
        paper=_PAPER + " (reconstruction)",
        suites=("tsp.guaranteed_decoder", "tsp.decoder", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="threshold decode (τ = 1/2)",
        function="reference.tsp:threshold_decode",
        family="tsp",
        paper=_PAPER + " (reconstruction)",
        suites=("tsp.decoder", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="best of K random thresholds (tsp.decoder with k, rng bound)",
        function="reference.tsp:sampled_decode",
        family="tsp",
        paper=_PAPER + " (reconstruction)",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="heatmap-guided MCTS, sampled k-opt (tsp.decoder with rng bound; no OPT + 2η claim)",
        function="reference.tsp:mcts_decode",
        family="tsp",
        paper="Fu, Qiu, Zha, AAAI 2021; C++ code of Xia et al., ICML 2024 (Eliáš, Grandoni, Polak, Vercesi, ICML 2026 B3)",
        suites=("tsp.decoder", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="repair (connect, parity matching, Euler, shortcut)",
        function="reference.tsp:repair",
        family="tsp",
        paper=_PAPER + " (reconstruction)",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="greedy edge merge (DIFUSCO/DIMES)",
        function="reference.tsp:greedy_merge",
        family="tsp",
        paper="Sun & Yang, DIFUSCO, NeurIPS 2023 (numpy_merge)",
        suites=("tsp.label_invariant_decoder", "tsp.decoder", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="2-opt (best improvement)",
        function="reference.tsp:two_opt",
        family="tsp",
        paper="Croes (1958); DIFUSCO batched_two_opt_torch",
        suites=("tsp.two_opt", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="Held-Karp dynamic program",
        function="reference.tsp:held_karp",
        family="tsp",
        paper="Held & Karp (1962)",
        suites=("tsp.exact", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="brute force (n <= 9)",
        function="reference.tsp:brute_force_tsp",
        family="tsp",
        paper="enumeration",
        suites=("tsp.exact", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="Christofides (numpy/scipy)",
        function="reference.tsp:christofides",
        family="tsp",
        paper="Christofides (1976)",
        suites=("tsp.christofides", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="Christofides (networkx)",
        function="reference.tsp:christofides_networkx",
        family="tsp",
        paper="Christofides (1976)",
        suites=("tsp.christofides", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="nearest neighbour",
        function="reference.tsp:nearest_neighbour",
        family="tsp",
        paper="classical",
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="SoftDist heatmap (G4)",
        function="reference.tsp:soft_dist",
        family="tsp",
        paper="Xia et al., ICML 2024",
        suites=("bad_input", "hard_input"),
    ),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.tsp:two_opt": "baseline",
    "reference.tsp:christofides_networkx": "baseline",
    "reference.tsp:christofides": "baseline",
    "reference.tsp:soft_dist": "generator",
    "reference.tsp:brute_force_tsp": "oracle",
    "reference.tsp:greedy_merge": "baseline",
    "reference.tsp:mcts_decode": "baseline",
    "reference.tsp:nearest_neighbour": "baseline",
}


# ------------------------------------------------------------------------- bad input
Args = tuple[tuple[Any, ...], dict[str, Any]]


def _dist(rng: np.random.Generator) -> FloatArray:
    _, distances = tsp.euclidean_instance(int(rng.integers(4, 7)), rng=rng)
    return distances


def _heat(rng: np.random.Generator, n: int) -> FloatArray:
    upper = np.triu(rng.uniform(0.0, 1.0, size=(n, n)), 1)
    out: FloatArray = upper + upper.T
    return out


def _perm(rng: np.random.Generator, n: int) -> IntArray:
    return rng.permutation(n).astype(np.int64)


def _d_args(rng: np.random.Generator) -> Args:
    return (_dist(rng),), {}


def _d_x_args(rng: np.random.Generator) -> Args:
    d = _dist(rng)
    return (d, _heat(rng, d.shape[0])), {}


def _d_tour_args(rng: np.random.Generator) -> Args:
    d = _dist(rng)
    return (d, _perm(rng, d.shape[0])), {}


def _d_x_tour_args(rng: np.random.Generator) -> Args:
    d = _dist(rng)
    n = d.shape[0]
    return (d, _heat(rng, n), _perm(rng, n)), {}


def _threshold_args(rng: np.random.Generator) -> Args:
    d = _dist(rng)
    return (d, _heat(rng, d.shape[0])), {"tau": 0.5}


def _sampled_args(rng: np.random.Generator) -> Args:
    d = _dist(rng)
    return (d, _heat(rng, d.shape[0])), {"k": 3, "rng": np.random.default_rng(0)}


def _mcts_args(rng: np.random.Generator) -> Args:
    d = _dist(rng)
    config = tsp.MctsConfig(max_simulations=8)
    return (d, _heat(rng, d.shape[0])), {"rng": np.random.default_rng(0), "config": config}


def _repair_args(rng: np.random.Generator) -> Args:
    d = _dist(rng)
    n = d.shape[0]
    edges = np.array([[i, (i + 1) % n] for i in range(0, n - 1, 2)], dtype=np.int64)
    return (d, edges), {}


def _tour_args(rng: np.random.Generator) -> Args:
    return (_perm(rng, int(rng.integers(3, 7))),), {}


def _indicator_args(rng: np.random.Generator) -> Args:
    n = int(rng.integers(3, 7))
    return (_perm(rng, n), n), {}


def _points_args(rng: np.random.Generator) -> Args:
    return (rng.uniform(size=(int(rng.integers(3, 7)), 2)),), {}


def _n_args(rng: np.random.Generator) -> Args:
    return (int(rng.integers(3, 7)),), {"rng": np.random.default_rng(0)}


def _prepare_args(rng: np.random.Generator) -> Args:
    n = int(rng.integers(3, 7))
    return (rng.uniform(size=(n, n)),), {"symmetrize": "mean"}


def _g1_args(rng: np.random.Generator) -> Args:
    return (_perm(rng, int(rng.integers(3, 7))),), {"sigma": 0.2, "rng": np.random.default_rng(0)}


def _g2_args(rng: np.random.Generator) -> Args:
    return (_perm(rng, int(rng.integers(5, 8))),), {"k": 1, "rng": np.random.default_rng(0)}


def _g3_args(rng: np.random.Generator) -> Args:
    return (_perm(rng, int(rng.integers(3, 7))),), {"lam": 0.5, "rng": np.random.default_rng(0)}


def _soft_args(rng: np.random.Generator) -> Args:
    return (_dist(rng),), {"temperature": 0.1}


def _is_tour_args(rng: np.random.Generator) -> Args:
    n = int(rng.integers(3, 7))
    return (_perm(rng, n), n), {}


_BAD_INT = (-1, 1.5, None, "3")
_BAD_RNG = (None, 0, "seed")
BAD_INPUT_CASES: tuple[BadInputCase, ...] = (
    BadInputCase(
        name="reference.tsp:tour_length", fn=tsp.tour_length, make_args=_d_tour_args, arrays=(0, 1)
    ),
    BadInputCase(name="reference.tsp:eta", fn=tsp.eta, make_args=_d_x_tour_args, arrays=(0, 1, 2)),
    BadInputCase(name="reference.tsp:held_karp", fn=tsp.held_karp, make_args=_d_args, arrays=(0,)),
    BadInputCase(
        name="reference.tsp:brute_force_tsp", fn=tsp.brute_force_tsp, make_args=_d_args, arrays=(0,)
    ),
    BadInputCase(
        name="reference.tsp:repair",
        fn=tsp.repair,
        make_args=_repair_args,
        arrays=(0, 1),
        skip=frozenset({"empty"}),  # an empty edge set is valid (H = ∅: Christofides)
    ),
    BadInputCase(
        name="reference.tsp:repair_steps",
        fn=tsp.repair_steps,
        make_args=_repair_args,
        arrays=(0, 1),
        skip=frozenset({"empty"}),
    ),
    BadInputCase(
        name="reference.tsp:sweep_decode", fn=tsp.sweep_decode, make_args=_d_x_args, arrays=(0, 1)
    ),
    BadInputCase(
        name="reference.tsp:sweep_candidates",
        fn=tsp.sweep_candidates,
        make_args=_d_x_args,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.tsp:expected_threshold_cost",
        fn=tsp.expected_threshold_cost,
        make_args=_d_x_args,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.tsp:threshold_decode",
        fn=tsp.threshold_decode,
        make_args=_threshold_args,
        arrays=(0, 1),
        scalars=(("tau", (0.0, -0.5, 1.5, math.nan, None, "0.5")),),
    ),
    BadInputCase(
        name="reference.tsp:sampled_decode",
        fn=tsp.sampled_decode,
        make_args=_sampled_args,
        arrays=(0, 1),
        scalars=(("k", (0, *_BAD_INT)), ("rng", _BAD_RNG)),
    ),
    BadInputCase(
        name="reference.tsp:greedy_merge", fn=tsp.greedy_merge, make_args=_d_x_args, arrays=(0, 1)
    ),
    BadInputCase(
        name="reference.tsp:mcts_decode",
        fn=tsp.mcts_decode,
        make_args=_mcts_args,
        arrays=(0, 1),
        scalars=(("rng", _BAD_RNG), ("config", ("fast", 1))),
    ),
    BadInputCase(
        name="reference.tsp:mcts_search",
        fn=tsp.mcts_search,
        make_args=_mcts_args,
        arrays=(0, 1),
        scalars=(("rng", _BAD_RNG), ("config", ("fast", 1))),
    ),
    BadInputCase(
        name="reference.tsp:two_opt",
        fn=tsp.two_opt,
        make_args=_d_tour_args,
        arrays=(0, 1),
        scalars=(
            ("max_iter", (-1, 1.5, None)),
            ("min_improvement", (-1e-6, math.nan, math.inf, None)),
        ),
    ),
    BadInputCase(
        name="reference.tsp:nearest_neighbour",
        fn=tsp.nearest_neighbour,
        make_args=_d_args,
        arrays=(0,),
    ),
    BadInputCase(
        name="reference.tsp:canonical_tour",
        fn=tsp.canonical_tour,
        make_args=_tour_args,
        arrays=(0,),
    ),
    BadInputCase(
        name="reference.tsp:tour_edges", fn=tsp.tour_edges, make_args=_tour_args, arrays=(0,)
    ),
    BadInputCase(
        name="reference.tsp:tour_indicator",
        fn=tsp.tour_indicator,
        make_args=_indicator_args,
        arrays=(0,),
        scalars=((1, (2, -1, 1.5, "3")),),
    ),
    BadInputCase(
        name="reference.tsp:is_tour",
        fn=tsp.is_tour,
        make_args=_is_tour_args,
        arrays=(),
        scalars=((1, (-1, 1.5, None, "3")),),
    ),
    BadInputCase(
        name="reference.tsp:distance_matrix",
        fn=tsp.distance_matrix,
        make_args=_points_args,
        arrays=(0,),
    ),
    BadInputCase(
        name="reference.tsp:euclidean_instance",
        fn=tsp.euclidean_instance,
        make_args=_n_args,
        arrays=(),
        scalars=((0, (2, *_BAD_INT)), ("rng", _BAD_RNG)),
    ),
    BadInputCase(
        name="reference.tsp:random_metric_instance",
        fn=tsp.random_metric_instance,
        make_args=_n_args,
        arrays=(),
        scalars=((0, (2, *_BAD_INT)), ("rng", _BAD_RNG)),
    ),
    BadInputCase(
        name="reference.tsp:prepare_heatmap",
        fn=tsp.prepare_heatmap,
        make_args=_prepare_args,
        arrays=(0,),
        scalars=(("symmetrize", ("both", None)), ("normalize", ("none!", 1))),
    ),
    BadInputCase(
        name="reference.tsp:perturbed_optimum",
        fn=tsp.perturbed_optimum,
        make_args=_g1_args,
        arrays=(0,),
        scalars=(("sigma", (-0.1, math.nan, None)), ("rng", _BAD_RNG)),
    ),
    BadInputCase(
        name="reference.tsp:edge_flips",
        fn=tsp.edge_flips,
        make_args=_g2_args,
        arrays=(0,),
        scalars=(("k", (-1, 100, 1.5, None)), ("rng", _BAD_RNG)),
    ),
    BadInputCase(
        name="reference.tsp:mixture_heatmap",
        fn=tsp.mixture_heatmap,
        make_args=_g3_args,
        arrays=(0,),
        scalars=(("lam", (-0.1, 1.5, math.nan, None)), ("rng", _BAD_RNG)),
    ),
    BadInputCase(
        name="reference.tsp:soft_dist",
        fn=tsp.soft_dist,
        make_args=_soft_args,
        arrays=(0,),
        scalars=(("temperature", (0.0, -1.0, math.inf, None)),),
    ),
    BadInputCase(
        name="reference.tsp:christofides",
        fn=tsp.christofides,
        make_args=_d_args,
        arrays=(0,),
    ),
    *(
        (
            BadInputCase(
                name="reference.tsp:christofides_networkx",
                fn=tsp.christofides_networkx,
                make_args=_d_args,
                arrays=(0,),
            ),
        )
        if importlib.util.find_spec("networkx") is not None
        else ()
    ),
)


# ----------------------------------------------------------------- hard-input rows
# Valid instances that are hard in a way a generic transform cannot make (smallest sizes,
# extreme scales, near-singular systems, the default caps), results documented to hold
# +-inf, and stopping rules that recompute the stopping quantity from the returned output
# with a routine of their own (never the result's fields).
HARD_EXTRAS: tuple[HardExtra, ...] = (
    # the sweep's candidate thresholds start with +inf (documented: the empty edge set).
    HardExtra(name="reference.tsp:sweep_candidates", inf_fields=("thresholds",)),
)
