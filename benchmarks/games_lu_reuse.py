"""How often the games fast path's Newton support system repeats: the most that reusing the last
LU factorisation across Newton steps could save (issue 20, lever "reuse of the factorization").

    .venv/bin/python -m benchmarks.games_lu_reuse [--size 1000x1000] [--seeds 0 1 2 3 4]

Runs ``reference.games.fast.hybrid`` with ``FAST_HYBRID_CONFIG`` (single-threaded BLAS, process
CPU time) on the instances of ``benchmarks.games_lu_share`` (U[-1,1] and N(0,1)), checks the
recomputed duality gap of every returned pair and records every refined support solve
(``_Capacitance.refined_solve``): its supports ``(ix, iy)``, its ``μ`` and the CPU seconds of its
factorisation.  Per instance: how many solves have the same supports as the previous solve of
the run (*same*: the most an LU cache could reuse) and how many differ from it in at most
:data:`NEAR` indices (*near*: the reach of a low-rank update), the relative change of ``μ`` at
the repeats (a stale factor of ``I - ΠZ₀`` converges under refinement only if ``μ`` barely moved,
see the note in the results), and *bound* = total / (total - LU seconds of the repeated solves):
the speed-up if every repeated factorisation were free.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks._env import environment_table, pin_blas

BLAS = pin_blas(1)

import numpy as np  # noqa: E402

from benchmarks.games_lu_share import cli, instances, timed_factorisations  # noqa: E402
from benchmarks.games_ssn import _game  # noqa: E402
from reference.games import duality_gap, fast  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
#: Support changes a low-rank update of the factor could absorb (counted as *near*).
NEAR = 4

Solve = tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], float]


@dataclass(frozen=True, slots=True)
class Repeats:
    """Support repeats of the refined solves of one run."""

    dist: str
    seed: int
    total: float  # CPU s of the run
    solves: int  # refined support solves
    same: int  # solves with the previous solve's supports
    near: int  # solves within NEAR indices of the previous solve's supports
    changes: tuple[int, ...]  # indices changed from one solve to the next
    mu_changes: tuple[float, ...]  # |μ/μ_prev - 1| at the repeats
    lu_repeated: float  # CPU s of the factorisations of the repeated solves
    newton: int  # Newton iterations

    @property
    def bound(self) -> float:
        return self.total / (self.total - self.lu_repeated)


@contextmanager
def recorded_solves() -> Iterator[list[Solve]]:
    """Record ``(ix, iy, μ)`` of every ``_Capacitance.refined_solve`` call; restore it after."""
    solves: list[Solve] = []
    original = fast._Capacitance.refined_solve

    def spy(self: fast._Capacitance, *args: Any, **kwargs: Any) -> Any:
        _, ix, iy = args[:3]
        solves.append((ix.copy(), iy.copy(), float(self.c)))
        return original(self, *args, **kwargs)

    fast._Capacitance.refined_solve = spy  # type: ignore[method-assign]
    try:
        yield solves
    finally:
        fast._Capacitance.refined_solve = original  # type: ignore[method-assign]


def changed(previous: Solve, current: Solve) -> int:
    """Support indices that enter or leave between two solves."""
    return int(
        np.setxor1d(previous[0], current[0]).size + np.setxor1d(previous[1], current[1]).size
    )


def measure(dist: str, size: str, seed: int, tol: float) -> Repeats:
    a = _game(dist, size, seed)
    with recorded_solves() as solves, timed_factorisations() as seconds:
        start = time.process_time()
        res = fast.hybrid(a, tol=tol, config=fast.FAST_HYBRID_CONFIG)
        total = time.process_time() - start
    gap = duality_gap(a, res.x, res.y)  # recomputed from the pair
    if gap > tol:
        raise RuntimeError(f"gap {gap:.3g} > {tol:g} on {dist} seed {seed}")
    lu = seconds.get("refined_solve", [])
    if len(lu) != len(solves):  # one factorisation per refined solve
        raise RuntimeError(f"{len(lu)} factorisations for {len(solves)} refined solves")
    changes = tuple(changed(p, c) for p, c in itertools.pairwise(solves))
    repeats = [i + 1 for i, k in enumerate(changes) if k == 0]
    return Repeats(
        dist=dist,
        seed=seed,
        total=total,
        solves=len(solves),
        same=len(repeats),
        near=sum(k <= NEAR for k in changes),
        changes=changes,
        mu_changes=tuple(abs(solves[i][2] / solves[i - 1][2] - 1.0) for i in repeats),
        lu_repeated=sum(lu[i] for i in repeats),
        newton=res.newton_iterations,
    )


def row(r: Repeats) -> str:
    mu = ", ".join(f"{v:.2f}" for v in r.mu_changes) or "-"
    return (
        f"| {r.dist} | {r.seed} | {r.total:.2f} | {r.newton} | {r.solves} | {r.same} | "
        f"{r.near} | {mu} | {r.lu_repeated:.3f} | {r.bound:.3f}x | "
        f"{' '.join(map(str, r.changes))} |"
    )


def run(size: str, seeds: list[int], tol: float) -> str:
    intro = [
        f"# Games fast path: support repeats of the Newton solves at {size}, gap {tol:g} "
        "(issue 20)",
        "",
        f"`python -m benchmarks.games_lu_reuse --size {size} --seeds "
        f"{' '.join(map(str, seeds))}`.  `FAST_HYBRID_CONFIG`, process CPU seconds; every "
        "pair's duality gap recomputed <= tol.  *same*: refined support solves with the "
        f"previous solve's supports; *near*: within {NEAR} indices of them; *Δμ/μ*: relative "
        "change of μ at the repeats; *bound* = total / (total - LU s of the repeated solves).",
    ]
    header = (
        "| dist | seed | total CPU s | Newton its | refined solves | same | near | "
        "Δμ/μ at repeats | LU s at repeats | bound | indices changed, solve to solve |"
    )
    rows = (row(measure(d, size, s, tol)) for d, s in instances(seeds))
    return environment_table(intro, header, rows)


def main(argv: list[str] | None = None) -> None:
    cli(argv, __doc__, RESULTS / "games_lu_reuse.md", run)


if __name__ == "__main__":
    main()
