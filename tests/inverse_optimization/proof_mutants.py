"""Mutant table of the inverse_optimization theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from reference import inverse_optimization as io
from reference._arrays import IntArray
from tests._proof_mutants import ProofMutant
from tests.inverse_optimization import mutants as hand

__all__ = ["MUTANTS"]


def reversed_arcs_family(d: int, *, rng: np.random.Generator, kind: Any = None) -> Any:
    """A family whose exchange arcs ``E(X, x)`` point the wrong way (``(j, i)`` for ``(i, j)``)."""
    del kind
    return hand.fam_reversed_arcs(d, rng=rng)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Forgetful(io.OnlineLearner):
    def update(self, state: Any, family: Any, recommended: Any, observed: Any) -> io.OrderState:
        return self.init()


def forgetful_learner(**kwargs: Any) -> io.OnlineLearner:
    """Algorithm 1 that resets ``A`` to the empty set after every round (learns nothing)."""
    return _Forgetful(**kwargs)


@dataclass(frozen=True, slots=True, kw_only=True)
class _StalePoint(io.OnlineLearner):
    def recommend(self, state: object, family: io.MConvexFamily) -> IntArray:
        return io.OnlineLearner.recommend(self, self.init(), family)


def stale_point_learner(**kwargs: Any) -> io.OnlineLearner:
    """Algorithm 1 that recommends with ``ŵ_1`` (the point is never refreshed after updates)."""
    return _StalePoint(**kwargs)


def topological_learner(**kwargs: Any) -> io.OnlineLearner:
    """Algorithm 1 with the topological point wherever the centroid is asked for."""
    kwargs["point"] = "topological"
    return io.OnlineLearner(**kwargs)


@dataclass(frozen=True, slots=True, kw_only=True)
class _RestartOnMistake(io.RobustLearner):
    def update(self, state: Any, family: Any, recommended: Any, observed: Any) -> io.OrderState:
        if not np.array_equal(np.asarray(recommended), np.asarray(observed)):
            return self._state(np.zeros_like(state.closure), state.restarts + 1, state.rounds + 1)
        return io.RobustLearner.update(self, state, family, recommended, observed)


def restart_on_mistake(**kwargs: Any) -> io.RobustLearner:
    """Algorithm 2 that restarts on every disagreement, not only on a directed cycle."""
    return _RestartOnMistake(**kwargs)


@dataclass(frozen=True, slots=True, kw_only=True)
class _KeepsCorruption(io.RobustLearner):
    def update(self, state: Any, family: Any, recommended: Any, observed: Any) -> io.OrderState:
        closure, cyclic = io.closure_add(
            np.array(state.closure), sorted(family.exchange_arcs(observed))
        )
        if cyclic:
            return io.OrderState(
                closure=state.closure,
                point=state.point,
                restarts=state.restarts,
                rounds=state.rounds + 1,
            )
        return self._state(closure, state.restarts, state.rounds + 1)


def keeps_corruption(**kwargs: Any) -> io.RobustLearner:
    """Algorithm 2 that drops contradicting feedback instead of restarting (keeps corrupted arcs)."""
    return _KeepsCorruption(**kwargs)


_FAM = "inverse_optimization"
_ALG1 = "reference.inverse_optimization:OnlineLearner"
_ALG2 = "reference.inverse_optimization:RobustLearner"


def label_order_point(closure: Any) -> Any:
    """``(d - k)/(d + 1)`` assigned in label order (the closure's order ignored)."""
    d = np.shape(closure)[0]
    return (d - np.arange(d)) / (d + 1)


def vertex_point(closure: Any) -> Any:
    """``(d - k)/d`` along the extension: a boundary point (the values 1 ... 1/d, not the
    centroid)."""
    point = io.topological_point(closure)
    d = point.size
    return point * (d + 1) / d


MUTANTS = (
    ProofMutant(
        family=_FAM,
        name="topological_point: label order",
        why="the simplex values assigned in label order, not along a linear extension",
        algorithm="reference.inverse_optimization:topological_point",
        target=f"{__name__}:label_order_point",
        catches=("inverse_optimization.topological_point",),
    ),
    ProofMutant(
        family=_FAM,
        name="topological_point: (d - k)/d",
        why="the denominator d for d + 1 (a point on the boundary of P(A))",
        algorithm="reference.inverse_optimization:topological_point",
        target=f"{__name__}:vertex_point",
        catches=("inverse_optimization.topological_point",),
    ),
    ProofMutant(
        family=_FAM,
        name="reversed exchange arcs",
        why="the family's exchange arcs E(X, x) are returned reversed",
        algorithm="reference.inverse_optimization:random_family",
        target=f"{__name__}:reversed_arcs_family",
        catches=("inverse_optimization.prop_2_4",),
    ),
    ProofMutant(
        family=_FAM,
        name="forgetful",
        why="Algorithm 1 resets its learned order after every round",
        algorithm=_ALG1,
        target=f"{__name__}:forgetful_learner",
        catches=(
            "inverse_optimization.theorem_3_1",
            "inverse_optimization.lemma_4_1",
            "inverse_optimization.theorem_4_2",
            "inverse_optimization.plateau",
            "inverse_optimization.d_log_d",
        ),
    ),
    ProofMutant(
        family=_FAM,
        name="stale point",
        why="Algorithm 1 recommends with the initial point ŵ_1 (never refreshed)",
        algorithm=_ALG1,
        target=f"{__name__}:stale_point_learner",
        catches=("inverse_optimization.key_lemma", "inverse_optimization.theorem_3_1"),
    ),
    ProofMutant(
        family=_FAM,
        name="topological for centroid",
        why="Algorithm 1 uses the topological point instead of the centroid",
        algorithm=_ALG1,
        target=f"{__name__}:topological_learner",
        catches=(
            "inverse_optimization.lemma_4_1",
            "inverse_optimization.theorem_4_2",
            "inverse_optimization.d_log_d",
        ),
    ),
    ProofMutant(
        family=_FAM,
        name="restart on mistake",
        why="Algorithm 2 restarts on every disagreement, not only on a directed cycle",
        algorithm=_ALG2,
        target=f"{__name__}:restart_on_mistake",
        catches=("inverse_optimization.lemma_5_1", "inverse_optimization.theorem_5_3"),
    ),
    ProofMutant(
        family=_FAM,
        name="keeps corruption",
        why="Algorithm 2 drops contradicting feedback instead of restarting",
        algorithm=_ALG2,
        target=f"{__name__}:keeps_corruption",
        catches=("inverse_optimization.theorem_5_3",),
    ),
    ProofMutant(
        family=_FAM,
        name="one-coordinate instance",
        why="Thm 6.1's instance asks the segment on coordinate 0 every round (index bug)",
        algorithm="reference.inverse_optimization:theorem_6_1_instance",
        target="tests.inverse_optimization.mutants:lower_bound_one_coordinate",
        catches=("inverse_optimization.theorem_6_1",),
    ),
)
