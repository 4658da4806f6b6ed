"""Where long runs execute: in this process, over a local process pool, or on a Dask cluster.

``verifiedref prove --jobs N`` / ``--scheduler ADDRESS`` and ``crosscheck`` over several
suites map one module-level task function over a list of picklable work items.  The map
keeps the input order and every task derives its randomness from its own arguments (the
profile seed, the suite's seeds), so a parallel run gives the same verdicts, the same
numbers and the same report as a serial run.

Bits, not just verdicts: a multi-threaded BLAS sums in an order that depends on its thread
count, and Dask's workers start with one BLAS thread while this process may have several
(a 2-core machine's serial run and a ``LocalCluster`` run then differed in the 16th digit).
Every task therefore runs inside :func:`single_threaded_blas`, in every mode, so that serial,
process-pool and Dask runs on machines with the same BLAS build and kernel give the same bits.
The pin needs ``threadpoolctl`` (in the ``dask`` and ``dev`` extras); without it the run is
not pinned and :func:`blas_note` says so in the report.
"""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["Executor", "blas_note", "describe_executor", "map_ordered", "single_threaded_blas"]

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


def _threadpoolctl() -> Any:
    """The threadpoolctl module, or None (imported by name: an optional, untyped package)."""
    try:
        return importlib.import_module("threadpoolctl")
    except ImportError:
        return None


@contextlib.contextmanager
def single_threaded_blas() -> Iterator[bool]:
    """Run the body with every BLAS library limited to one thread; yields whether it could.

    Example:
        >>> with single_threaded_blas() as pinned:
        ...     isinstance(pinned, bool)
        True
    """
    module = _threadpoolctl()
    if module is None:
        yield False
        return
    with module.threadpool_limits(limits=1, user_api="blas"):
        yield True


def blas_note() -> str:
    """One line for reports: the BLAS libraries and kernels of this process, and the pin."""
    module = _threadpoolctl()
    if module is None:
        return "BLAS threads not pinned (threadpoolctl not installed): bits may vary by mode"
    libraries = sorted(
        {
            f"{info.get('internal_api', '?')} {info.get('version', '?')} "
            f"({info.get('architecture', '?')})"
            for info in module.threadpool_info()
            if info.get("user_api") == "blas"
        }
    )
    return f"BLAS pinned to 1 thread in every task: {', '.join(libraries) or 'none found'}"


def describe_executor(executor: Executor) -> str:
    """One line for reports: where the run executed."""
    if executor.scheduler is not None:
        return f"dask scheduler {executor.scheduler}"
    if executor.jobs == 1:
        return "serial, 1 process"
    return f"process pool, {executor.jobs} workers on {os.cpu_count()} CPUs"


def map_ordered(
    fn: Callable[[T], R],
    items: Sequence[T],
    executor: Executor,
    *,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """``[fn(item) for item in items]``, run as ``executor`` says, results in input order.

    ``fn`` must be a module-level function and the items picklable when ``jobs > 1`` or a
    scheduler is given.  ``on_result(index, result)`` is called as each result arrives (in
    the order they finish), so a caller can report progress and keep what finished when the
    run is interrupted.

    Raises:
        ValueError: ``executor.scheduler`` is set but dask.distributed is not installed
            (``pip install verifiedref[dask]``) or the address cannot be reached.

    Example:
        >>> map_ordered(abs, [-2, 3, -1], Executor(jobs=1))
        [2, 3, 1]
    """
    report = on_result if on_result is not None else (lambda index, result: None)
    if executor.scheduler is not None:
        return _map_dask(fn, items, executor.scheduler, executor.connect_timeout, report)
    if executor.jobs == 1 or len(items) <= 1:
        out: list[R] = []
        for index, item in enumerate(items):
            out.append(fn(item))
            report(index, out[-1])
        return out
    workers = min(executor.jobs, len(items))
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        futures = {pool.submit(fn, item): index for index, item in enumerate(items)}
        done: dict[int, R] = {}
        for future in as_completed(futures):
            done[futures[future]] = future.result()
            report(futures[future], done[futures[future]])
    except BaseException:  # an interrupt or a crash: drop what has not started, do not wait
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return [done[i] for i in range(len(items))]


def _map_dask(
    fn: Callable[[T], R],
    items: Sequence[T],
    scheduler: str,
    timeout: float,
    report: Callable[[int, R], None],
) -> list[R]:
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
        index = {future.key: i for i, future in enumerate(futures)}
        done: dict[int, R] = {}
        for future in distributed.as_completed(futures):
            done[index[future.key]] = future.result()
            report(index[future.key], done[index[future.key]])
        return [done[i] for i in range(len(items))]
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
