"""Exact minimum-weight perfect matching on a complete graph (the parity step of the repair).

Part of :mod:`reference.tsp`; the reference, written to be obviously exact rather than fast.
The spec (10, §3.1 step 3) names ``networkx.min_weight_matching``; networkx is only an optional
(dev) dependency, so the reference solves the textbook formulation instead:

* ``k <= BRUTE_FORCE_MAX_K`` vertices: enumerate all ``(k-1)!!`` perfect matchings.
* larger: the integer program over the edge variables ``x_ab ∈ {0, 1}``, ``a < b``:
  minimise ``Σ w_ab x_ab`` subject to ``Σ_b x_ab = 1`` for every vertex ``a`` (degree-1
  equality constraints), solved by ``scipy.optimize.milp`` (HiGHS branch and bound, relative gap
  0; costs rescaled so that the largest weight is ``MIP_COST_SCALE``, which makes HiGHS'
  absolute gap of ``1e-6`` a relative ``1e-12`` of ``max w``).

Why exactness matters: Lemma A (ii) of the spec needs ``w(M) <= w(J)`` for the unknown
``O``-join ``J = (H ∪ F) Δ T*``; only a minimum-weight matching is guaranteed to be that light.
The fast path (:mod:`reference.tsp.fast_matching`: a warm-started Edmonds blossom algorithm with
an optimality certificate) returns the same matching whenever the optimum is unique.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import csr_matrix

from reference._arrays import FloatArray, IntArray, as_float_array

__all__ = ["BRUTE_FORCE_MAX_K", "MIP_COST_SCALE", "min_weight_perfect_matching"]

#: Largest vertex count solved by enumeration ((8-1)!! = 105 matchings).
BRUTE_FORCE_MAX_K = 8
#: The integer program's costs are rescaled so that the largest weight equals this value.
MIP_COST_SCALE = 1e6


def as_matching_weights(name: str, value: object) -> FloatArray:
    """Validate a ``(k, k)`` symmetric non-negative weight matrix with ``k`` even.

    Raises:
        TypeError: non-numeric input.
        ValueError: not square, ``k`` odd, non-finite, negative or asymmetric.
    """
    w = as_float_array(name, value, ndim=2, min_size=0)
    if w.shape[0] != w.shape[1] or w.shape[0] % 2:
        raise ValueError(f"{name}: expected a (k, k) matrix with k even, got shape {w.shape}")
    if w.size and float(w.min()) < 0.0:
        raise ValueError(f"{name}: expected non-negative weights, got min {float(w.min())!r}")
    if not np.array_equal(w, w.T):
        raise ValueError(f"{name}: expected a symmetric matrix")
    return w


def min_weight_perfect_matching(w: ArrayLike) -> IntArray:
    """Minimum-weight perfect matching of the complete graph with weights ``w`` (``k`` even).

    Args:
        w: ``(k, k)`` symmetric, finite, non-negative weights, ``k`` even (the diagonal is
            ignored).

    Returns:
        A ``(k/2, 2)`` array of vertex pairs ``(a, b)`` with ``a < b``, rows sorted.  Among
        several minimum-weight matchings, enumeration returns the first in lexicographic order;
        the integer program returns whichever optimum HiGHS finds.

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid weights.
        RuntimeError: HiGHS fails (not expected: a perfect matching always exists).

    Example:
        >>> w = np.array([[0, 1, 5, 5], [1, 0, 5, 5], [5, 5, 0, 1], [5, 5, 1, 0]], float)
        >>> min_weight_perfect_matching(w).tolist()
        [[0, 1], [2, 3]]
    """
    weights = as_matching_weights("w", w)
    if weights.shape[0] <= BRUTE_FORCE_MAX_K:
        pairs = _by_enumeration(weights)
    else:
        pairs = _by_integer_program(weights)
    return np.array(sorted(pairs), dtype=np.int64).reshape(-1, 2)


def _perfect_matchings(vertices: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of ``vertices``: pair the first with each other one, recurse."""
    if not vertices:
        yield []
        return
    first, rest = vertices[0], vertices[1:]
    for index, partner in enumerate(rest):
        for tail in _perfect_matchings(rest[:index] + rest[index + 1 :]):
            yield [(first, partner), *tail]


def _by_enumeration(w: FloatArray) -> list[tuple[int, int]]:
    """The lightest of all perfect matchings (ties: the first enumerated)."""
    matchings = _perfect_matchings(list(range(w.shape[0])))
    return min(matchings, key=lambda pairs: sum(float(w[a, b]) for a, b in pairs))


def _by_integer_program(w: FloatArray) -> list[tuple[int, int]]:
    """Solve ``min Σ w_ab x_ab`` s.t. every vertex has exactly one chosen edge, ``x`` binary."""
    k = w.shape[0]
    iu, ju = np.triu_indices(k, 1)  # one variable per edge a < b
    weights = w[iu, ju]
    top = float(weights.max())
    cost = weights * (MIP_COST_SCALE / top) if top > 0.0 else weights
    m = iu.shape[0]
    edge = np.arange(m)
    incidence = csr_matrix(  # incidence[a, e] = 1 if vertex a is an end of edge e
        (np.ones(2 * m), (np.concatenate([iu, ju]), np.concatenate([edge, edge]))), shape=(k, m)
    )
    for presolve in (True, False):  # HiGHS' presolve occasionally ends in "Solve error"
        result = milp(
            cost,
            integrality=np.ones(m, dtype=np.int64),
            bounds=Bounds(0.0, 1.0),
            constraints=LinearConstraint(incidence, 1.0, 1.0),  # degree 1 at every vertex
            options={"mip_rel_gap": 0.0, "presolve": presolve},
        )
        if result.x is not None:
            chosen = np.flatnonzero(np.asarray(result.x) > 0.5)
            return [(int(iu[e]), int(ju[e])) for e in chosen]
    raise RuntimeError(f"matching integer program failed: {result.message}")  # pragma: no cover
