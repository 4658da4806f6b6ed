"""The fast path ``reference.tsp.fast`` against the reference ``reference.tsp.decode``, OpInfo style.

One frozen record per public function: its name, the reference function, the fast function, the
instances it runs on, and an input factory that builds fresh arguments (new arrays, a new seeded
``rng``) and is called separately for each side, so neither side can see what the other did to
its inputs.  Tours must be bit-identical: both sides use the same documented tie rules (Kruskal
order ``(w, i, j)``, Hierholzer from 0 to the smallest neighbour, ties to the largest ``τ`` / the
earliest draw), and the instances have generic random weights, so the minimum-weight matching
is unique and the reference's integer program and the fast blossom algorithm must agree.

Generic weights: Euclidean points, and random metrics ``w_ij = 1 + U[0, 1)`` (every such matrix
is metric: ``w_ij < 2 <= w_ik + w_kj``).  Shortest-path closures
(:func:`reference.tsp.random_metric_instance`) are *not* generic: ``w_ij = w_ik + w_kj`` holds
exactly for many triples, which makes different matchings exactly as light (seen at ``n = 30``),
so there only the matching weights are compared.

A record checks agreement, not correctness: the behaviour tests of the reference stay in
``test_reference.py`` and ``test_proofs.py``.  The reference solves every matching by an integer
program, so the sizes are small (``n <= 30``, a few ``n = 50`` where the reference is cheap).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from reference import tsp
from reference._arrays import FloatArray
from reference.tsp import decode, fast, fast_matching, matching

Args = tuple[tuple[Any, ...], dict[str, Any]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Instance:
    """A seeded instance: ``n`` cities, Euclidean or a random shortest-path metric, a heatmap."""

    n: int
    metric: str  # "euclid", "metric" (1 + U[0, 1)) or "closure" (shortest paths, ties)
    heat: str  # "G1" .. "G4" (spec §3.6) or "uniform"
    seed: int

    @property
    def id(self) -> str:
        return f"{self.metric}-n{self.n}-{self.heat}-s{self.seed}"

    def build(self) -> tuple[FloatArray, FloatArray, np.random.Generator]:
        """Fresh ``(D, X, rng)``: a new call gives new, equal arrays."""
        rng = np.random.default_rng([self.seed, self.n])
        if self.metric == "euclid":
            distances = tsp.euclidean_instance(self.n, rng=rng)[1]
        elif self.metric == "metric":
            upper = np.triu(1.0 + rng.uniform(size=(self.n, self.n)), 1)
            distances = upper + upper.T
        else:
            distances = tsp.random_metric_instance(self.n, rng=rng)
        tour = rng.permutation(self.n)
        heat = {
            "G1": lambda: tsp.perturbed_optimum(tour, sigma=0.3, rng=rng),
            "G2": lambda: tsp.edge_flips(tour, k=max(1, self.n // 5), rng=rng),
            "G3": lambda: tsp.mixture_heatmap(tour, lam=0.4, rng=rng),
            "G4": lambda: tsp.soft_dist(distances, temperature=0.05),
            "uniform": lambda: tsp.prepare_heatmap(
                rng.uniform(size=(self.n, self.n)), symmetrize="mean"
            ),
        }[self.heat]()
        return distances, heat, rng


def _instances(
    sizes: tuple[int, ...], heats: tuple[str, ...], seeds: int = 1
) -> tuple[Instance, ...]:
    return tuple(
        Instance(n=n, metric=metric, heat=heat, seed=seed)
        for n in sizes
        for heat in heats
        for metric in ("euclid", "metric")
        for seed in range(seeds)
    )


ALL_HEATS = ("G1", "G2", "G3", "G4", "uniform")
#: Cheap for the reference whatever the heatmap (the sweep repairs up to n(n-1)/2 + 1 sets).
SMALL = _instances((5, 8, 12), ALL_HEATS, seeds=2)
#: Sweeps at moderate n: about 0.5-3 s each for the reference (one integer program per repair).
MEDIUM = (
    Instance(n=20, metric="euclid", heat="G1", seed=0),
    Instance(n=20, metric="metric", heat="G3", seed=0),
    Instance(n=20, metric="euclid", heat="G4", seed=0),
    Instance(n=30, metric="euclid", heat="G1", seed=1),
    Instance(n=30, metric="metric", heat="G2", seed=1),
    Instance(n=30, metric="metric", heat="G3", seed=1),
    Instance(n=30, metric="metric", heat="uniform", seed=1),
)
#: Single repairs (a few integer programs) at larger n.
LARGE = (
    *_instances((30,), ("G1", "G3", "G4")),
    Instance(n=50, metric="euclid", heat="G1", seed=2),
    Instance(n=50, metric="metric", heat="G4", seed=2),
    Instance(n=50, metric="euclid", heat="G2", seed=2),
)


# ------------------------------------------------------------------------ input factories
def _repair_args(case: Instance) -> Args:
    distances, heat, _ = case.build()
    rows, cols = np.nonzero(np.triu(heat >= 0.5, 1))
    return (distances, np.stack([rows, cols], axis=1)), {}


def _d_x(case: Instance) -> Args:
    distances, heat, _ = case.build()
    return (distances, heat), {}


def _d_x_two_opt(case: Instance) -> Args:
    distances, heat, _ = case.build()
    return (distances, heat), {"with_two_opt": True}


def _threshold_args(case: Instance) -> Args:
    distances, heat, rng = case.build()
    return (distances, heat, float(1.0 - rng.uniform())), {}


def _sampled_args(case: Instance) -> Args:
    distances, heat, _ = case.build()
    return (distances, heat), {"k": 8, "rng": np.random.default_rng([case.seed, 7])}


def _matching_args(case: Instance) -> Args:
    """Generic weights on the first ``k`` (even) cities, so the optimum is unique."""
    distances, _, _ = case.build()
    k = case.n - case.n % 2
    return (distances[:k, :k],), {}


# ----------------------------------------------------------------------------- comparisons
def _same_array(ref: Any, got: Any) -> None:
    assert isinstance(got, np.ndarray)
    assert got.dtype == np.int64
    assert np.array_equal(ref, got), f"reference {np.asarray(ref).tolist()} != fast {got.tolist()}"


def _same_weight(ref: Any, got: Any, weights: FloatArray) -> None:
    """Matchings on a metric with exact ties: perfect, and equally light (to rounding)."""
    assert sorted(np.ravel(got).tolist()) == list(range(weights.shape[0]))
    light = float(sum(weights[a, b] for a, b in ref.tolist()))
    assert float(sum(weights[a, b] for a, b in got.tolist())) == pytest.approx(light, abs=1e-12)


def _same_float(ref: Any, got: Any) -> None:
    assert isinstance(got, float)
    assert got == ref, f"reference {ref!r} != fast {got!r}"


def _same_repair(ref: Any, got: Any) -> None:
    assert isinstance(ref, decode.RepairResult)
    assert isinstance(got, decode.RepairResult)
    for field in ("tour", "heat_edges", "connect_edges", "odd_vertices", "matching_edges"):
        assert np.array_equal(getattr(ref, field), getattr(got, field)), field
    assert got.cost == ref.cost
    assert got.multigraph_weight == ref.multigraph_weight


def _same_sweep(ref: Any, got: Any) -> None:
    assert isinstance(ref, decode.SweepResult)
    assert isinstance(got, decode.SweepResult)
    assert np.array_equal(ref.thresholds, got.thresholds)
    assert np.array_equal(ref.costs, got.costs), "candidate costs differ"
    assert (ref.best_index, ref.cost) == (got.best_index, got.cost)
    assert np.array_equal(ref.tour, got.tour)


@dataclass(frozen=True, slots=True, kw_only=True)
class FastRecord:
    """One reference/fast pair: same name in ``reference.tsp.decode`` (or ``.matching``) and
    ``reference.tsp.fast`` (or ``.fast_matching``)."""

    name: str
    reference: Callable[..., Any]
    fast: Callable[..., Any]
    make_args: Callable[[Instance], Args]
    compare: Callable[[Any, Any], None]
    instances: tuple[Instance, ...]


RECORDS = (
    FastRecord(
        name="repair",
        reference=decode.repair,
        fast=fast.repair,
        make_args=_repair_args,
        compare=_same_array,
        instances=SMALL + LARGE,
    ),
    FastRecord(
        name="repair_steps",
        reference=decode.repair_steps,
        fast=fast.repair_steps,
        make_args=_repair_args,
        compare=_same_repair,
        instances=SMALL + LARGE,
    ),
    FastRecord(
        name="threshold_decode",
        reference=decode.threshold_decode,
        fast=fast.threshold_decode,
        make_args=_threshold_args,
        compare=_same_array,
        instances=SMALL + LARGE,
    ),
    FastRecord(
        name="sweep_candidates",
        reference=decode.sweep_candidates,
        fast=fast.sweep_candidates,
        make_args=_d_x,
        compare=_same_sweep,
        instances=SMALL + MEDIUM,
    ),
    FastRecord(
        name="sweep_decode",
        reference=decode.sweep_decode,
        fast=fast.sweep_decode,
        make_args=_d_x_two_opt,
        compare=_same_array,
        instances=SMALL,
    ),
    FastRecord(
        name="sampled_decode",
        reference=decode.sampled_decode,
        fast=fast.sampled_decode,
        make_args=_sampled_args,
        compare=_same_array,
        instances=SMALL + LARGE,
    ),
    FastRecord(
        name="expected_threshold_cost",
        reference=decode.expected_threshold_cost,
        fast=fast.expected_threshold_cost,
        make_args=_d_x,
        compare=_same_float,
        instances=SMALL,
    ),
    FastRecord(
        name="min_weight_perfect_matching",
        reference=matching.min_weight_perfect_matching,
        fast=fast_matching.min_weight_perfect_matching,
        make_args=_matching_args,
        compare=_same_array,
        instances=SMALL + LARGE,
    ),
)

CASES = [
    pytest.param(record, case, id=f"{record.name}-{case.id}")
    for record in RECORDS
    for case in record.instances
]


def test_every_public_decoder_has_a_record() -> None:
    names = {record.name for record in RECORDS}
    assert set(decode.__all__) - {"RepairResult", "SweepResult"} <= names
    assert set(fast.__all__) == names
    for record in RECORDS:  # same name on both sides (jax lax_reference style)
        assert record.reference.__name__ == record.fast.__name__ == record.name


def test_reference_never_imports_its_fast_path() -> None:
    """STYLE B1: the fast path may use the reference's small pieces, never the other way."""
    package = Path(decode.__file__).parent
    for path in sorted(package.glob("*.py")):
        if path.name.startswith("fast"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                assert not (
                    parts[:2] == ["reference", "tsp"] and any(p.startswith("fast") for p in parts)
                ), f"{path.name} imports {name}"


@pytest.mark.parametrize(("record", "case"), CASES)
def test_fast_equals_reference(record: FastRecord, case: Instance) -> None:
    ref_args, ref_kwargs = record.make_args(case)
    fast_args, fast_kwargs = record.make_args(case)  # fresh inputs for the fast side
    expected = record.reference(*ref_args, **ref_kwargs)
    got = record.fast(*fast_args, **fast_kwargs)
    record.compare(expected, got)


@pytest.mark.parametrize("n", [12, 20, 30, 50])
def test_matchings_equally_light_on_shortest_path_metrics(n: int) -> None:
    """Shortest-path closures have exactly tied matchings: compare weights, not pairs."""
    for seed in range(3):
        case = Instance(n=n, metric="closure", heat="G2", seed=seed)
        (weights,), _ = _matching_args(case)
        ref = matching.min_weight_perfect_matching(weights)
        got = fast_matching.min_weight_perfect_matching(_matching_args(case)[0][0])
        _same_weight(ref, got, weights)


@pytest.mark.parametrize("record", RECORDS, ids=[r.name for r in RECORDS])
def test_fast_leaves_its_inputs_alone(record: FastRecord) -> None:
    args, kwargs = record.make_args(SMALL[0])
    copies = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args]
    record.fast(*args, **kwargs)
    for before, after in zip(copies, args, strict=True):
        if isinstance(after, np.ndarray):
            assert np.array_equal(before, after)


@pytest.mark.parametrize("name", ["D", "heatmap", "tau"])
def test_fast_and_reference_reject_the_same_bad_input(name: str) -> None:
    distances, heat, _ = SMALL[0].build()
    bad = {
        "D": (np.ones((3, 4)), heat, 0.5),
        "heatmap": (distances, 2.0 * heat + 2.0, 0.5),
        "tau": (distances, heat, 0.0),
    }[name]
    for threshold_decode in (decode.threshold_decode, fast.threshold_decode):
        with pytest.raises(ValueError, match=name):
            threshold_decode(*bad)
