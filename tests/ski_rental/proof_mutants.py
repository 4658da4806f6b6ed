"""Mutant table of the ski_rental theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any

import numpy as np

from reference import ski_rental as sr
from reference._arrays import FloatArray
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def _deterministic(k: float, name: str) -> sr.Policy:
    if k == math.inf:
        return sr.Policy(weights=np.ones(1), threshold=math.inf, name=name)
    w = np.zeros(int(k) + 2)
    w[int(k)] = 1.0
    return sr.Policy(weights=w, threshold=int(k), name=name)


def halved_emd(p: Any, q: Any) -> Any:
    """EMD with a spurious factor 1/2 (the "mass moved twice" double count divided out)."""
    return sr.emd(p, q) / 2


def untruncated_main_threshold(p_hat: Any, b: Any) -> sr.MainDecision:
    """``K* = U + r``: the ``min`` with ``K̂ + r`` dropped (line 3 of Algorithm 1)."""
    d = sr.main_threshold(p_hat, b)
    return dataclasses.replace(d, k_star=d.u + d.r)


def follow_prediction_main(p_hat: Any, b: Any) -> sr.Policy:
    """Algorithm 1 without the shift and the truncation: runs ``K̂`` (follow the prediction)."""
    return _deterministic(sr.main_threshold(p_hat, b).k_hat, "follow")


def shift_b_main(p_hat: Any, b: Any) -> sr.Policy:
    """Algorithm 1 with the shift ``r = b`` instead of ``⌊√b⌋``."""
    d = sr.main_threshold(p_hat, b)
    return _deterministic(min(d.k_hat, d.u) + math.floor(b), "shift b")


def shift_b_main_threshold(p_hat: Any, b: Any) -> sr.MainDecision:
    """``main_threshold`` with the shift ``r = b`` instead of ``⌊√b⌋``."""
    d = sr.main_threshold(p_hat, b)
    return dataclasses.replace(d, k_star=min(d.k_hat, d.u) + math.floor(b))


def off_by_one_threshold(p: Any, b: Any) -> Any:
    """The p̂-optimal threshold one day late."""
    k = sr.optimal_threshold(p, b)
    return k if k == math.inf else k + 1


def unrobust(p_hat: Any, b: Any, lam: Any) -> sr.Policy:
    """λ-robustification that ignores λ (returns Algorithm 1's rule)."""
    del lam
    return sr.main_algorithm(p_hat, b)


def follow_prediction_point(p_hat: Any, b: Any) -> sr.Policy:
    """The point-truth algorithm without its mass tests: runs ``K̂``."""
    return _deterministic(sr.optimal_threshold(p_hat, b), "follow")


def algorithm_one_point(p_hat: Any, b: Any) -> sr.Policy:
    """Algorithm 1 (shift ``⌊√b⌋``) used where the point-truth rule belongs."""
    return sr.main_algorithm(p_hat, b)


def per_unit_cost_curve(p: Any, b: Any) -> FloatArray:
    """The cost curve in units of the buy price (``c(A_K)/b``)."""
    return sr.cost_curve(p, b) / float(b)


def hindsight_opt(p: Any, b: Any) -> Any:
    """``OPT_p`` taken as the hindsight benchmark ``E[min(T, b)]``."""
    entries = [Fraction(v) if not isinstance(v, float) else v for v in np.asarray(p, dtype=object)]
    return sum((t if t <= b else b) * v for t, v in enumerate(entries))


def cheap_buy_threshold_cost(k: Any, p: Any, b: Any) -> Any:
    """``threshold_cost`` with the buy price ``b - 1`` (rent on the buying day counted)."""
    return sr.threshold_cost(k, p, b - 1)


def _m(name: str, why: str, algorithm: str, target: str, *catches: str) -> ProofMutant:
    return ProofMutant(
        family="ski_rental",
        name=name,
        why=why,
        algorithm=f"reference.ski_rental:{algorithm}",
        target=f"{__name__}:{target}",
        catches=tuple(f"ski_rental.{c}" for c in catches),
    )


#: Tried and not caught by any check (kept out of the table, listed in the issue's note):
#: ``cost_curve`` one day late (``c(A_{K+1})`` for ``A_K``: the lower-bound families' min-max
#: is shift-invariant up to one day) and ``base_algorithm`` following the prediction (loss 2
#: against the bound 12 on the drawn instances: the constant 6 is loose).
MUTANTS: tuple[ProofMutant, ...] = (
    _m(
        "emd: halved",
        "EMD off by a factor 2",
        "emd",
        "halved_emd",
        "tail_transport",
        "centroid_and_benchmark",
    ),
    _m(
        "main_threshold: no truncation",
        "K* = U + r (min with K̂ + r dropped)",
        "main_threshold",
        "untruncated_main_threshold",
        "truncation",
    ),
    _m(
        "main_threshold: shift b",
        "shift r = b instead of ⌊√b⌋",
        "main_threshold",
        "shift_b_main_threshold",
        "truncation",
        "rates",
    ),
    _m(
        "main_algorithm: follow the prediction",
        "runs K̂ (no shift, no truncation)",
        "main_algorithm",
        "follow_prediction_main",
        "robustness",
        "rates",
    ),
    _m(
        "main_algorithm: shift b",
        "shift r = b instead of ⌊√b⌋",
        "main_algorithm",
        "shift_b_main",
        "consistency",
        "prediction_bound",
    ),
    _m(
        "optimal_threshold: one day late",
        "K̂ + 1",
        "optimal_threshold",
        "off_by_one_threshold",
        "structure",
    ),
    _m(
        "robust_algorithm: λ ignored",
        "returns Algorithm 1's rule",
        "robust_algorithm",
        "unrobust",
        "lambda_robust",
    ),
    _m(
        "point_truth_algorithm: follow the prediction",
        "runs K̂ without the mass tests",
        "point_truth_algorithm",
        "follow_prediction_point",
    ),
    _m(
        "opt_cost: hindsight",
        "OPT taken as E[min(T, b)]",
        "opt_cost",
        "hindsight_opt",
        "centroid_and_benchmark",
    ),
    _m(
        "cost_curve: per unit of b",
        "costs divided by the buy price",
        "cost_curve",
        "per_unit_cost_curve",
        "lower_bound_power",
        "lower_bound_sqrt_eta",
    ),
    _m(
        "point_truth_algorithm: Algorithm 1",
        "Algorithm 1's shifted rule used for point truths",
        "point_truth_algorithm",
        "algorithm_one_point",
        "point_truth",
    ),
    _m(
        "threshold_cost: buy at b - 1",
        "the buy price b - 1",
        "threshold_cost",
        "cheap_buy_threshold_cost",
        "lower_bound_linear_eta",
        "pareto",
    ),
)
