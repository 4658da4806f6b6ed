"""Where long runs execute: in this process, over a local process pool, or on a Dask cluster.

``verifiedref prove --jobs N`` / ``--scheduler ADDRESS`` and ``crosscheck`` over several
suites map one module-level task function over a list of picklable work items.  The map
keeps the input order and every task derives its randomness from its own arguments (the
profile seed, the suite's seeds), so a parallel run gives the same verdicts, the same
numbers and the same report as a serial run.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["Executor", "describe_executor", "map_ordered"]

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True, kw_only=True)
class Executor:
    """How to run a batch of tasks.

    Attributes:
        jobs: worker processes on this machine (1 = in this process, serially).
        scheduler: address of a Dask distributed scheduler (``tcp://host:8786``); when given,
            ``jobs`` is ignored and the cluster's workers run the tasks (needs the ``dask``
            extra).  The special value ``"local:N"`` starts a ``LocalCluster`` of ``N``
            single-threaded worker processes for this run.
        connect_timeout: seconds to wait for the scheduler before giving up.
    """

    jobs: int = 1
    scheduler: str | None = None
    connect_timeout: float = 30.0

    def __post_init__(self) -> None:
        if isinstance(self.jobs, bool) or not isinstance(self.jobs, int) or self.jobs < 1:
            raise ValueError(f"jobs: expected an integer >= 1, got {self.jobs!r}")
        if self.scheduler is not None and not self.scheduler.strip():
            raise ValueError("scheduler: expected an address such as tcp://host:8786, got ''")


def describe_executor(executor: Executor) -> str:
    """One line for reports: where the run executed."""
    if executor.scheduler is not None:
        return f"dask scheduler {executor.scheduler}"
    if executor.jobs == 1:
        return "serial, 1 process"
    return f"process pool, {executor.jobs} workers on {os.cpu_count()} CPUs"


def map_ordered(fn: Callable[[T], R], items: Sequence[T], executor: Executor) -> list[R]:
    """``[fn(item) for item in items]``, run as ``executor`` says, results in input order.

    ``fn`` must be a module-level function and the items picklable when ``jobs > 1`` or a
    scheduler is given.

    Raises:
        ValueError: ``executor.scheduler`` is set but dask.distributed is not installed
            (``pip install verifiedref[dask]``) or the address cannot be reached.

    Example:
        >>> map_ordered(abs, [-2, 3, -1], Executor(jobs=1))
        [2, 3, 1]
    """
    if executor.scheduler is not None:
        return _map_dask(fn, items, executor.scheduler, executor.connect_timeout)
    if executor.jobs == 1 or len(items) <= 1:
        return [fn(item) for item in items]
    workers = min(executor.jobs, len(items))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(fn, items, chunksize=1))


def _map_dask(fn: Callable[[T], R], items: Sequence[T], scheduler: str, timeout: float) -> list[R]:
    try:  # imported by name: distributed's API is untyped, and it is an optional extra
        distributed: Any = importlib.import_module("distributed")
    except ImportError as exc:
        raise ValueError(
            "scheduler: dask.distributed is not installed (pip install 'verifiedref[dask]')"
        ) from exc
    cluster: Any = None
    try:
        if scheduler.startswith("local:"):
            count = int(scheduler.split(":", 1)[1])
            cluster = distributed.LocalCluster(
                n_workers=count, threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(scheduler, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        raise ValueError(f"scheduler: cannot use {scheduler!r}: {exc}") from exc
    try:
        futures = client.map(fn, list(items), pure=False)
        results: list[R] = client.gather(futures)
        return results
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
