"""How much of the games fast path's time is LU factorisation: the most that reusing factorisations
across Newton steps (low-rank updates when the supports change by a few indices) could save.

    .venv/bin/python -m benchmarks.games_lu_share [--size 1000x1000] [--seeds 0 1 2 3 4]

Runs ``reference.games.fast.hybrid`` with ``FAST_HYBRID_CONFIG``, timed by process CPU time,
single-threaded BLAS, on the instances of ``benchmarks.games_fastpath`` (U[-1,1] and
N(0,1)), checks the recomputed duality gap of every returned pair, and reports the CPU seconds
inside dense factorisations (``scipy.linalg.lu_factor``, and ``numpy.linalg.solve``, an LU and
two triangular solves) split by caller: the Newton directions (``ssn._solve`` and
``_Partition.refined_solve``) and the support polish (``_support_equilibrium``).  If every
factorisation were free, the run would take ``total - LU``; the last column is that bound on the
speed-up (issue 20, lever "reuse of the factorization across Newton steps").  The two
functions are wrapped by a timer for the run (the caller read from the stack); the wrapper adds
microseconds per call.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks._env import environment_table, pin_blas

BLAS = pin_blas(1)

import numpy as np  # noqa: E402
import scipy.linalg  # noqa: E402

from benchmarks.games_ssn import _game  # noqa: E402
from reference.games import duality_gap, fast  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
DISTS = ("U[-1,1]", "N(0,1)")
NEWTON_CALLERS = ("_solve", "refined_solve")
POLISH_CALLERS = ("_support_equilibrium",)

Share = tuple[str, int, float, float, float, int, int, int]


@contextmanager
def timed_factorisations() -> Iterator[dict[str, list[float]]]:
    """Wrap ``scipy.linalg.lu_factor`` and ``numpy.linalg.solve``; yield ``{caller: [seconds]}``."""
    seconds: dict[str, list[float]] = {}
    originals = (scipy.linalg.lu_factor, np.linalg.solve)

    def timer(fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            caller = sys._getframe(1).f_code.co_name
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                seconds.setdefault(caller, []).append(time.process_time() - start)

        return wrapped

    scipy.linalg.lu_factor = timer(originals[0])
    np.linalg.solve = timer(originals[1])
    try:
        yield seconds
    finally:
        scipy.linalg.lu_factor, np.linalg.solve = originals


def measure(dist: str, size: str, seed: int, tol: float) -> Share:
    a = _game(dist, size, seed)
    with timed_factorisations() as seconds:
        start = time.process_time()
        res = fast.hybrid(a, tol=tol, config=fast.FAST_HYBRID_CONFIG)
        total = time.process_time() - start
    gap = duality_gap(a, res.x, res.y)  # recomputed from the pair
    if gap > tol:
        raise RuntimeError(f"gap {gap:.3g} > {tol:g} on {dist} seed {seed}")
    newton = sum(sum(seconds.get(c, [])) for c in NEWTON_CALLERS)
    polish = sum(sum(seconds.get(c, [])) for c in POLISH_CALLERS)
    calls = sum(len(v) for v in seconds.values())
    return (
        dist,
        seed,
        total,
        newton,
        polish,
        calls,
        res.first_order_iterations,
        res.newton_iterations,
    )


def row(share: Share) -> str:
    dist, seed, total, newton, polish, calls, first, newton_its = share
    lu = newton + polish
    return (
        f"| {dist} | {seed} | {total:.2f} | {newton:.3f} | {polish:.3f} | {calls} | "
        f"{100.0 * lu / total:.0f}% | {total / (total - lu):.2f}x | {first} / {newton_its} |"
    )


def instances(seeds: list[int]) -> list[tuple[str, int]]:
    """The (distribution, seed) pairs of a run, in table order."""
    return [(dist, seed) for dist in DISTS for seed in seeds]


def cli(
    argv: list[str] | None, doc: str | None, out: Path, run: Callable[[str, list[int], float], str]
) -> None:
    """``--size``, ``--seeds``, ``--tol``, ``--out`` (default ``out``): run and write the table."""
    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("--size", default="1000x1000")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--tol", type=float, default=1e-8)
    parser.add_argument("--out", type=Path, default=out)
    args = parser.parse_args(argv)
    text = run(args.size, args.seeds, args.tol)
    args.out.write_text(text, encoding="utf-8")
    print(text)


def run(size: str, seeds: list[int], tol: float) -> str:
    intro = [
        f"# Games fast path: CPU time in LU factorisations at {size}, gap {tol:g} (issue 20)",
        "",
        f"`python -m benchmarks.games_lu_share --size {size} --seeds "
        f"{' '.join(map(str, seeds))}`.  `FAST_HYBRID_CONFIG`, process CPU seconds, "
        "`lu_factor` and `numpy.linalg.solve` wrapped by a timer; every pair's duality gap "
        "recomputed <= tol.  *bound* = total / (total - LU): the speed-up if every "
        "factorisation cost nothing.",
    ]
    header = (
        "| dist | seed | total CPU s | LU in Newton s | LU in polish s | LU calls | "
        "LU share | bound | PRM+ / Newton its |"
    )
    rows = (row(measure(d, size, s, tol)) for d, s in instances(seeds))
    return environment_table(intro, header, rows)


def main(argv: list[str] | None = None) -> None:
    cli(argv, __doc__, RESULTS / "games_lu_share.md", run)


if __name__ == "__main__":
    main()
