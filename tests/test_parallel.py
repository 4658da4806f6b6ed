"""properties._parallel: the same results, in the same order, serially, over a process pool and
on a Dask LocalCluster."""

from __future__ import annotations

import numpy as np
import pytest

from properties._parallel import Executor, describe_executor, map_ordered


def _draw(seed: int) -> float:
    """A task whose result depends only on its argument (as the prove and crosscheck tasks)."""
    return float(np.random.default_rng(seed).standard_normal(3) @ np.arange(3.0))


SEEDS = [11, 3, 7, 5, 2]


def test_pool_gives_the_serial_results_in_order() -> None:
    serial = map_ordered(_draw, SEEDS, Executor(jobs=1))
    assert serial == [_draw(s) for s in SEEDS]
    assert map_ordered(_draw, SEEDS, Executor(jobs=2)) == serial


def test_dask_local_cluster_gives_the_serial_results_in_order() -> None:
    pytest.importorskip("distributed", exc_type=ModuleNotFoundError)
    serial = map_ordered(_draw, SEEDS, Executor(jobs=1))
    assert map_ordered(_draw, SEEDS, Executor(scheduler="local:2")) == serial


@pytest.mark.parametrize("jobs", [0, -1, True, 1.5])
def test_bad_jobs_is_a_value_error_naming_jobs(jobs: object) -> None:
    with pytest.raises(ValueError, match="jobs"):
        Executor(jobs=jobs)  # type: ignore[arg-type]


def test_unreachable_scheduler_is_a_value_error_naming_scheduler() -> None:
    pytest.importorskip("distributed", exc_type=ModuleNotFoundError)
    with pytest.raises(ValueError, match="scheduler"):
        map_ordered(_draw, SEEDS, Executor(scheduler="tcp://127.0.0.1:1", connect_timeout=2.0))


def test_description_says_where_it_ran() -> None:
    assert describe_executor(Executor()).startswith("serial")
    assert "2 workers" in describe_executor(Executor(jobs=2))
    assert "dask" in describe_executor(Executor(scheduler="local:2"))
