"""Hand-made broken families and learners: each inverse_optimization suite must reject them.

Importable (``tests.inverse_optimization.mutants:fam_argmin``) so the CLI can target them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from reference import inverse_optimization as io
from reference._arrays import FloatArray, IntArray

# ------------------------------------------------------------------------------- families


@dataclass(frozen=True)
class _Wrapped:
    base: Any
    mode: str

    @property
    def d(self) -> int:
        return int(self.base.d)

    def argmax(self, w: Any) -> IntArray:
        ww = np.asarray(w, dtype=np.float64)
        if self.mode == "argmin":
            return self.base.argmax(-ww)  # type: ignore[no-any-return]
        if self.mode == "scale" and float(np.max(np.abs(ww))) > 10.0:
            return self.base.argmax(-ww)  # type: ignore[no-any-return]
        return self.base.argmax(ww)  # type: ignore[no-any-return]

    def contains(self, x: Any) -> bool:
        if self.mode == "hole":
            return bool(self.base.contains(x)) and not np.array_equal(np.asarray(x), self._hole())
        return bool(self.base.contains(x))

    def _hole(self) -> IntArray:
        return self.base.enumerate()[len(self.base.enumerate()) // 2]  # type: ignore[no-any-return]

    def exchange_arcs(self, x: Any) -> frozenset[tuple[int, int]]:
        arcs = self.base.exchange_arcs(x)
        if self.mode == "reversed":
            return frozenset((j, i) for i, j in arcs)
        return frozenset(arcs)

    def enumerate(self) -> list[IntArray]:
        points = list(self.base.enumerate())
        if self.mode == "hole" and len(points) >= 3:
            hole = self._hole()
            return [p for p in points if not np.array_equal(p, hole)]
        return points


def fam_argmin(d: int, *, rng: np.random.Generator) -> _Wrapped:
    """Family mutant 1: the oracle minimises."""
    return _Wrapped(io.random_family(d, rng=rng), "argmin")


def fam_reversed_arcs(d: int, *, rng: np.random.Generator) -> _Wrapped:
    """Family mutant 2: exchange arcs point the wrong way."""
    return _Wrapped(io.random_family(d, rng=rng), "reversed")


def fam_hole(d: int, *, rng: np.random.Generator) -> _Wrapped:
    """Family mutant 3: a box-with-sum set with one point removed (not M-convex)."""
    return _Wrapped(io.random_family(max(d, 3), rng=rng, kind="box"), "hole")


def fam_scale_dependent(d: int, *, rng: np.random.Generator) -> _Wrapped:
    """Family mutant 4: the oracle misbehaves for large weights (not scale invariant)."""
    return _Wrapped(io.random_family(d, rng=rng), "scale")


# ------------------------------------------------------------------------------- recommenders


@dataclass(frozen=True)
class _Zero:
    dim: int

    @property
    def d(self) -> int:
        return self.dim

    def init(self) -> int:
        return 0

    def recommend(self, state: Any, family: Any) -> IntArray:
        return np.zeros(self.dim, dtype=np.int64)

    def update(self, state: Any, family: Any, recommended: Any, observed: Any) -> int:
        return 0


def rec_infeasible(*, dim: int) -> _Zero:
    """Recommender mutant 1: recommends the zero vector (not in X_t)."""
    return _Zero(dim)


_GLOBAL = np.random.default_rng()


@dataclass(frozen=True)
class _Random:
    dim: int

    @property
    def d(self) -> int:
        return self.dim

    def init(self) -> int:
        return 0

    def recommend(self, state: Any, family: Any) -> IntArray:
        return family.argmax(_GLOBAL.standard_normal(self.dim))  # type: ignore[no-any-return]

    def update(self, state: Any, family: Any, recommended: Any, observed: Any) -> int:
        return 0


def rec_global_random(*, dim: int) -> _Random:
    """Recommender mutant 2: draws from a module-level generator (impure, not reproducible)."""
    return _Random(dim)


@dataclass(frozen=True)
class _Previous:
    dim: int

    @property
    def d(self) -> int:
        return self.dim

    def init(self) -> Any:
        return None

    def recommend(self, state: Any, family: Any) -> IntArray:
        return family.argmax(np.zeros(self.dim)) if state is None else state  # type: ignore[no-any-return]

    def update(self, state: Any, family: Any, recommended: Any, observed: Any) -> Any:
        return np.asarray(observed) + 1  # off by one: shifted copy of the last action


def rec_previous(*, dim: int) -> _Previous:
    """Recommender mutant 3: recommends (a shifted copy of) the last observed action."""
    return _Previous(dim)


# ------------------------------------------------------------------------------- learners


def never_learns(*, dim: int) -> io.FirstElement:
    """Learner mutant 1: ignores feedback."""
    return io.FirstElement(dim=dim)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Reversed(io.OnlineLearner):
    def update(self, state: Any, family: Any, recommended: Any, observed: Any) -> io.OrderState:
        arcs = [(j, i) for i, j in family.exchange_arcs(observed)]
        closure, cyclic = io.closure_add(np.array(state.closure), sorted(arcs))
        if cyclic:
            return state  # type: ignore[no-any-return]
        return self._state(closure, 0, state.rounds + 1)


def reversed_arcs(*, dim: int) -> io.OnlineLearner:
    """Learner mutant 2: adds the exchange arcs reversed."""
    return _Reversed(dim=dim)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Forgetful(io.OnlineLearner):
    def update(self, state: Any, family: Any, recommended: Any, observed: Any) -> io.OrderState:
        return self.init()


def forgetful(*, dim: int) -> io.OnlineLearner:
    """Learner mutant 3: forgets everything after each round."""
    return _Forgetful(dim=dim)


@dataclass(frozen=True, slots=True, kw_only=True)
class _NoCycleCheck(io.OnlineLearner):
    def update(self, state: Any, family: Any, recommended: Any, observed: Any) -> io.OrderState:
        closure, cyclic = io.closure_add(
            np.array(state.closure), sorted(family.exchange_arcs(observed))
        )
        if cyclic:
            return state  # type: ignore[no-any-return]
        return self._state(closure, 0, state.rounds + 1)


def no_cycle_check(*, dim: int) -> io.OnlineLearner:
    """Learner mutant 4: silently drops contradicting feedback (no error, no restart)."""
    return _NoCycleCheck(dim=dim)


def topological(*, dim: int) -> io.OnlineLearner:
    """Centroid mutant: the topological point (only the d(d-1)/2 bound)."""
    return io.OnlineLearner(dim=dim, point="topological")


def robust_topological(*, dim: int) -> io.RobustLearner:
    """Robust mutant: Algorithm 2 with the topological point."""
    return io.RobustLearner(dim=dim, point="topological")


def algorithm_one(*, dim: int) -> io.OnlineLearner:
    """Robust mutant: Algorithm 1 (raises on corrupted feedback)."""
    return io.OnlineLearner(dim=dim)


def lower_bound_one_coordinate(
    d: int, *, rng: np.random.Generator
) -> tuple[FloatArray, tuple[io.MConvexFamily, ...]]:
    """Mutant of Thm 6.1's instance (off-by-one index): every round asks the segment on
    coordinate 0, so a learner knows the answer after one round."""
    w, sets = io.theorem_6_1_instance(d, rng=rng)
    return w, tuple(sets[0] for _ in sets)
