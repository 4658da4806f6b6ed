"""Catalogue of the ``inverse_optimization`` family: ``ALGORITHMS`` (rows of ``verifiedref list``),
``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite) and ``HARD_EXTRAS``
(hard instances and stopping rules that the ``hard_input`` suite adds to them)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase, HardExtra, HardInstance
from properties.inverse_optimization import _generic_w
from reference import inverse_optimization as io

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "HARD_EXTRAS", "UNCOVERED"]


_PAPER = "Oki & Sakaue, inverse linear optimization over M-convex sets (ICML 2026)"


def _alg(name: str, fn: str, paper: str, suites: tuple[str, ...]) -> Algorithm:
    return Algorithm(
        name=name,
        function=f"reference.inverse_optimization:{fn}",
        family="inverse_optimization",
        paper=paper,
        suites=(*suites, "bad_input", "hard_input"),
    )


ALGORITHMS = (
    _alg(
        "Algorithm 1 (exact centroid / topological point; Gibbs Variant) ‡",
        "OnlineLearner",
        _PAPER,
        (
            "inverse_optimization.recommender",
            "inverse_optimization.learner",
            "inverse_optimization.centroid_learner",
        ),
    ),
    _alg(
        "Algorithm 2 (restart on cycles; exact centroid) ‡",
        "RobustLearner",
        _PAPER,
        (
            "inverse_optimization.recommender",
            "inverse_optimization.robust_learner",
            "inverse_optimization.centroid_learner",
        ),
    ),
    _alg(
        "ONS baseline (A-norm projection)",
        "OnlineNewtonStep",
        "Sakaue, Bennouna, ... (NeurIPS 2025) notebook",
        ("inverse_optimization.recommender",),
    ),
    _alg(
        "OGD baseline",
        "OnlineGradientDescent",
        "Bärmann, Pokutta, Schneider (ICML 2017)",
        ("inverse_optimization.recommender",),
    ),
    _alg(
        "cutting-plane baseline",
        "CuttingPlane",
        "after Gollapudi et al. (2021), Sakaue et al. notebook",
        ("inverse_optimization.recommender",),
    ),
    _alg(
        "first-element sanity baseline",
        "FirstElement",
        "sanity",
        ("inverse_optimization.recommender",),
    ),
    _alg("random M-convex families", "random_family", _PAPER, ("inverse_optimization.family",)),
    _alg("exact centroid of P(A) (subset DP, d <= 16) ‡", "centroid", _PAPER, ()),
    Algorithm(
        name="Theorem 6.1 instance (lifted segments) ‡",
        function="reference.inverse_optimization:theorem_6_1_instance",
        family="inverse_optimization",
        paper=_PAPER + ", §8 (paper's construction via the reproduction)",
        suites=(),
    ),
    _alg("linear extension count L(A)", "linear_extension_count", _PAPER, ()),
    _alg("topological point", "topological_point", _PAPER, ()),
    _alg("regret simulation", "simulate", _PAPER, ()),
    _alg("uniform matroid bases", "uniform_matroid", _PAPER, ()),
    _alg("partition matroid bases", "partition_matroid", _PAPER, ()),
    _alg("graphic matroid (spanning trees)", "graphic_matroid", _PAPER, ()),
    _alg("box with sum", "box_sum", _PAPER, ()),
    _alg("M-convexity validator", "is_m_convex", _PAPER, ()),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.inverse_optimization:is_m_convex": "utility",
    "reference.inverse_optimization:OnlineGradientDescent": "baseline",
    "reference.inverse_optimization:box_sum": "generator",
    "reference.inverse_optimization:CuttingPlane": "baseline",
    "reference.inverse_optimization:centroid": "oracle",
    "reference.inverse_optimization:FirstElement": "baseline",
    "reference.inverse_optimization:graphic_matroid": "generator",
    "reference.inverse_optimization:linear_extension_count": "utility",
    "reference.inverse_optimization:partition_matroid": "generator",
    "reference.inverse_optimization:simulate": "utility",
    "reference.inverse_optimization:uniform_matroid": "generator",
}


# ----------------------------------------------------------------------------- bad input
Args = tuple[tuple[Any, ...], dict[str, Any]]


def _case(
    fn_name: str,
    make_args: Callable[[np.random.Generator], Args],
    arrays: tuple[int | str, ...],
    scalars: tuple[tuple[int | str, tuple[object, ...]], ...] = (),
) -> BadInputCase:
    return BadInputCase(
        name=f"reference.inverse_optimization:{fn_name}",
        fn=getattr(io, fn_name),
        make_args=make_args,
        arrays=arrays,
        scalars=scalars,
    )


def _closure_args(rng: np.random.Generator) -> Args:
    d = int(rng.integers(2, 6))
    return (np.triu(rng.random((d, d)) < 0.4, 1).astype(np.float64),), {}


def _simulate_args(rng: np.random.Generator) -> Args:
    d = int(rng.integers(2, 5))
    fams = [io.random_family(d, rng=rng) for _ in range(4)]
    return (io.OnlineLearner(dim=d), fams, _generic_w(rng, d)), {}


_BAD_D = (1, 0, -3, 2.5, math.nan, "4", None)
BAD_INPUT_CASES = (
    _case("centroid", _closure_args, (0,)),
    _case("topological_point", _closure_args, (0,)),
    _case("linear_extension_count", _closure_args, (0,)),
    _case("simulate", _simulate_args, (2,), ((1, ([], None, 3)),)),
    _case(
        "box_sum",
        lambda rng: ((np.zeros(3), np.full(3, 2.0), int(rng.integers(0, 7))), {}),
        (0, 1),
        ((2, (-1, 7, 2.5, None)),),
    ),
    _case(
        "graphic_matroid",
        lambda rng: ((np.array([[0, 1], [1, 2], [0, 2], [2, 3]], dtype=np.float64),), {}),
        (0,),
    ),
    _case(
        "is_m_convex",
        lambda rng: ((np.eye(int(rng.integers(2, 5))),), {}),
        (0,),
    ),
    _case(
        "uniform_matroid",
        lambda rng: ((5, int(rng.integers(1, 5))), {}),
        (),
        ((0, (0, -1, 2.5, "5", None)), (1, (0, 6, 2.5, None))),
    ),
    _case(
        "partition_matroid",
        lambda rng: ((4, [[0, 1], [2, 3]], [1, 2]), {}),
        (),
        ((1, ([], [[0, 1], [1, 2]], [[0, 9]], None)), (2, ([0, 1], [3, 1], [1], None))),
    ),
    _case(
        "two_point_set",
        lambda rng: ((4, 0, int(rng.integers(1, 4))), {}),
        (),
        ((0, (1, 0, 2.5, None)), (2, (0, 4, -1, None))),
    ),
    _case("mistake_bound", lambda rng: ((int(rng.integers(1, 20)),), {}), (), ((0, _BAD_D[1:]),)),
    _case(
        "random_family",
        lambda rng: ((int(rng.integers(2, 6)),), {"rng": rng}),
        (),
        ((0, _BAD_D), ("kind", ("matroid", 3))),
    ),
)


# ----------------------------------------------------------------- hard-input rows
# Valid instances that are hard in a way a generic transform cannot make (smallest sizes,
# extreme scales, near-singular systems, the default caps), results documented to hold
# +-inf, and stopping rules that recompute the stopping quantity from the returned output
# with a routine of their own (never the result's fields).
_LEARNERS = (
    "CuttingPlane",
    "FirstElement",
    "OnlineGradientDescent",
    "OnlineLearner",
    "OnlineNewtonStep",
    "RobustLearner",
)


def _learner_run(cls_name: str) -> Callable[..., object]:
    """Drive a learner class through the protocol: ``run(w_star, families, *, corrupted=(),
    **options) -> (recommendations (T, d), regret (T,), final state)``; the agent answers
    ``argmax ⟨w*, x⟩`` (``argmin`` in ``corrupted`` rounds)."""

    def run(
        w_star: object, families: object, *, corrupted: tuple[int, ...] = (), **options: Any
    ) -> object:
        import reference.inverse_optimization as io

        w = np.asarray(w_star, dtype=np.float64)
        learner = getattr(io, cls_name)(dim=w.shape[0], **options)
        state = learner.init()
        picks, regret = [], []
        for t, family in enumerate(list(families)):  # type: ignore[call-overload]
            x_hat = learner.recommend(state, family)
            best = family.argmax(w)
            observed = family.argmax(-w) if t in corrupted else best
            state = learner.update(state, family, x_hat, observed)
            picks.append(np.asarray(x_hat))
            regret.append(float(w @ (best - x_hat)))
        return np.array(picks), np.array(regret), state

    run.__name__ = f"run_{cls_name}"
    return run


def _families(rng: np.random.Generator, d: int, rounds: int) -> list[object]:
    """Uniform matroids, two-point sets and box sums in ``Z^d``, drawn by ``rng``."""
    import reference.inverse_optimization as io

    out: list[object] = []
    for _ in range(rounds):
        kind = int(rng.integers(0, 3)) if d > 1 else 0
        if kind == 0:
            out.append(io.uniform_matroid(d, int(rng.integers(1, d + 1))))
        elif kind == 1:
            i, j = (int(v) for v in rng.choice(d, size=2, replace=False))
            out.append(io.two_point_set(d, i, j))
        else:
            out.append(io.box_sum(np.zeros(d), np.full(d, 2.0), int(rng.integers(0, 2 * d + 1))))
    return out


def _learner_args(
    w: object = None, *, d: int = 3, rounds: int = 20, **options: Any
) -> Callable[[np.random.Generator], Args]:
    def make(r: np.random.Generator) -> Args:
        ws = r.permutation(d).astype(np.float64) + r.uniform(0.0, 0.5, size=d) if w is None else w
        families = _families(r, len(np.asarray(ws)), rounds)
        return (np.array(ws, dtype=np.float64), families), dict(options)

    return make


def _same_pair(d: int, rounds: int) -> Callable[[np.random.Generator], Args]:
    """Rank-deficient features: every ``X_t = {e_0, e_1}`` (the other coordinates never move)."""

    def make(r: np.random.Generator) -> Args:
        import reference.inverse_optimization as io

        w = r.permutation(d).astype(np.float64)
        return (w, [io.two_point_set(d, 0, 1)] * rounds), {}

    return make


def _learner_instances(cls_name: str) -> tuple[HardInstance, ...]:
    common = (
        HardInstance(label="d = 1", make_args=_learner_args([0.3], rounds=4)),
        HardInstance(label="d = 2, exact tie w* = (1, 1)", make_args=_learner_args([1.0, 1.0])),
        HardInstance(
            label="d = 3, entries 1e-12 apart (near ties)",
            make_args=_learner_args([1.0, 1.0 + 1e-12, 1.0 - 1e-12]),
        ),
        HardInstance(
            label="d = 3, entries from 1e-8 to 1e8", make_args=_learner_args([1e8, 1e-8, -1e8])
        ),
        HardInstance(
            label="rank-deficient features: X_t = {e_0, e_1} in d = 3, 30 rounds",
            make_args=_same_pair(3, 30),
        ),
        HardInstance(label="long run: 200 rounds, d = 4", make_args=_learner_args(d=4, rounds=200)),
    )
    extra: dict[str, tuple[HardInstance, ...]] = {
        "OnlineNewtonStep": (
            HardInstance(
                label="diameter 1e-8 (steps of 1e7: A nearly rank one)",
                make_args=_learner_args(diameter=1e-8),
            ),
            HardInstance(
                label="diameter 1e8 (steps of 1e-9)", make_args=_learner_args(diameter=1e8)
            ),
        ),
        "OnlineGradientDescent": (
            HardInstance(
                label="horizon 1 and diameter 1e8 (one huge step, projected)",
                make_args=_learner_args(horizon=1, diameter=1e8),
            ),
            HardInstance(
                label="horizon 1e9 (steps of 1e-4)", make_args=_learner_args(horizon=10**9)
            ),
        ),
        "CuttingPlane": (
            HardInstance(
                label="one point per dimension (the cloud empties and is redrawn)",
                make_args=_learner_args(points_per_dim=1, rounds=40),
            ),
        ),
        "OnlineLearner": (
            HardInstance(label="point = topological", make_args=_learner_args(point="topological")),
            HardInstance(
                label="point = gibbs, 2 sweeps",
                make_args=_learner_args(point="gibbs", sweeps=2, burn_in=0),
            ),
        ),
        "RobustLearner": (
            HardInstance(
                label="corrupted rounds 0-5 of 30 (restarts)",
                make_args=_learner_args(rounds=30, corrupted=(0, 1, 2, 3, 4, 5)),
            ),
            HardInstance(
                label="every round corrupted, d = 2",
                make_args=_learner_args([0.0, 1.0], rounds=10, corrupted=tuple(range(10))),
            ),
        ),
    }
    return common + extra.get(cls_name, ())


LEARNER_EXTRAS: tuple[HardExtra, ...] = tuple(
    HardExtra(
        name=f"reference.inverse_optimization:{cls_name}",
        fn=_learner_run(cls_name),
        make_args=_learner_args(),
        arrays=(0,),
        instances=_learner_instances(cls_name),
    )
    for cls_name in _LEARNERS
)


HARD_EXTRAS: tuple[HardExtra, ...] = LEARNER_EXTRAS
