"""tsp.christofides: our Christofides and networkx's pass; mutants fail."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from properties import Capabilities, run_suite
from properties.tsp import CHRISTOFIDES
from reference import tsp
from reference._arrays import IntArray
from tests._mutants import assert_measured_kill
from tests.tsp.test_separating_instances import nearest_neighbour


def index_order(D: Any) -> IntArray:
    """Mutant: the cities in index order (no optimisation at all)."""
    return np.arange(np.asarray(D).shape[0], dtype=np.int64)


def drops_a_city(D: Any) -> IntArray:
    """Mutant: Christofides' tour with the last city visited twice instead of once."""
    tour = tsp.christofides(D).copy()
    tour[-1] = tour[0]
    return tour


def index_order_above_scale_one(D: Any) -> IntArray:
    """Mutant: Christofides below scale 1, cities in index order above it."""
    w = np.asarray(D, dtype=np.float64)
    return tsp.christofides(w) if float(w.max()) <= 1.0 else index_order(w)


MUTANTS: list[tuple[Callable[..., Any], set[str]]] = [
    (index_order, {"one_and_a_half_opt"}),
    (drops_a_city, {"hamiltonian_cycle", "one_and_a_half_opt", "scale_covariance"}),
    (index_order_above_scale_one, {"scale_covariance", "one_and_a_half_opt"}),
    # within 1.5 OPT on every small drawn instance; 1.64 OPT on a fixed separating one
    (nearest_neighbour, {"separating_instances"}),
]


@pytest.mark.parametrize(("mutant", "expected"), MUTANTS, ids=[m.__name__ for m, _ in MUTANTS])
def test_mutant_fails(mutant: Callable[..., Any], expected: set[str]) -> None:
    report = run_suite(mutant, CHRISTOFIDES, profile="smoke")
    failed = {r.name for r in report.failed}
    assert expected <= failed, report.format()
    for result in report.failed:
        assert_measured_kill(result)


def test_every_check_is_killed() -> None:
    assert set().union(*(e for _, e in MUTANTS)) == set(CHRISTOFIDES.check_names())


def test_reference_christofides_passes_in_every_domain() -> None:
    for domain in ("all", "metric"):
        report = run_suite(
            tsp.christofides,
            CHRISTOFIDES,
            capabilities=Capabilities(domain=domain),
            profile="smoke",
        )
        assert report.ok, report.format()


def test_networkx_christofides_passes() -> None:
    pytest.importorskip("networkx")
    report = run_suite(tsp.christofides_networkx, CHRISTOFIDES, profile="smoke")
    assert report.ok, report.format()


def test_christofides_is_within_its_guarantee_on_larger_instances() -> None:
    rng = np.random.default_rng(7)
    for _ in range(5):
        _, D = tsp.euclidean_instance(9, rng=rng)
        opt, _ = tsp.held_karp(D)
        assert tsp.tour_length(D, tsp.christofides(D)) <= 1.5 * opt + 1e-12
