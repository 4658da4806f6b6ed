"""Exact TSP oracles: Held-Karp dynamic programming (``n <= 13``) and brute force (``n <= 9``).

Part of :mod:`reference.tsp`.  These are the independent oracles for ``OPT`` in the theorem
checks and the conformance suites; neither needs the triangle inequality.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import FloatArray, IntArray
from reference.tsp.base import _canonical, as_distances

__all__ = ["BRUTE_FORCE_MAX_N", "HELD_KARP_MAX_N", "brute_force_tsp", "held_karp"]

#: Largest instance :func:`held_karp` accepts: 2^12·12 states, about 0.1 s and 0.4 MB.
HELD_KARP_MAX_N = 13
#: Largest instance :func:`brute_force_tsp` accepts: 8!/2 tours.
BRUTE_FORCE_MAX_N = 9


def held_karp(D: ArrayLike) -> tuple[float, IntArray]:
    """Exact optimum by the Held-Karp dynamic program.

    ``C(S, k)`` = cheapest path that starts at city 0, visits exactly the cities of
    ``S ⊆ {1..n-1}`` and ends at ``k ∈ S``:
    ``C({k}, k) = w_0k``, ``C(S, k) = min_{j ∈ S∖{k}} C(S∖{k}, j) + w_jk``, and
    ``OPT = min_k C({1..n-1}, k) + w_k0``.  Ties go to the smallest index.

    Time ``O(2ⁿ n²)``, memory ``O(2ⁿ n)`` (float64): for ``n = 13`` that is 4096 x 12 states.

    Args:
        D: ``(n, n)`` symmetric non-negative distances, ``3 <= n <= 13`` (metric not required).

    Returns:
        ``(length, tour)``: the optimal cost and an optimal tour in canonical form
        (starts at 0, ``tour[1] < tour[-1]``).

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid distances, or ``n > 13``.

    Example:
        >>> from reference.tsp.base import distance_matrix
        >>> length, tour = held_karp(distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1]]))
        >>> length, tour.tolist()
        (4.0, [0, 2, 1, 3])

    References:
        M. Held, R. M. Karp, "A dynamic programming approach to sequencing problems",
        J. SIAM 10(1), 1962.
    """
    w = as_distances("D", D, metric=False)
    n = w.shape[0]
    if n > HELD_KARP_MAX_N:
        raise ValueError(f"D: expected n <= {HELD_KARP_MAX_N} for Held-Karp, got n = {n}")
    m = n - 1  # cities 1..n-1 are bits 0..m-1
    sub = w[1:, 1:]
    full = (1 << m) - 1
    cost = np.full((1 << m, m), np.inf)
    bits = 1 << np.arange(m)
    cost[bits, np.arange(m)] = w[0, 1:]
    for mask in range(1, full):
        row = cost[mask]
        inside = (mask & bits) != 0
        if not np.any(np.isfinite(row)):
            continue
        outside = np.flatnonzero(~inside)
        best = np.min(row[:, None] + sub[:, outside], axis=0)  # extend by one city k
        targets = mask | bits[outside]
        cost[targets, outside] = np.minimum(cost[targets, outside], best)
    closing = cost[full] + w[1:, 0]
    last = int(np.argmin(closing))
    length = float(closing[last])
    path = [last]
    mask = full
    while mask != bits[last]:
        prev_mask = mask ^ int(bits[last])
        options = cost[prev_mask] + sub[:, last]
        options[(prev_mask & bits) == 0] = np.inf
        prev = int(np.argmin(options))
        path.append(prev)
        mask, last = prev_mask, prev
    tour = np.array([0, *[p + 1 for p in reversed(path)]], dtype=np.int64)
    return length, _canonical(tour)


def brute_force_tsp(D: ArrayLike) -> tuple[float, IntArray]:
    """Exact optimum by enumerating all ``(n-1)!/2`` tours (the oracle for :func:`held_karp`).

    Args:
        D: ``(n, n)`` symmetric non-negative distances, ``3 <= n <= 9``.

    Returns:
        ``(length, tour)`` with the tour in canonical form; ties go to the lexicographically
        first canonical tour.

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid distances, or ``n > 9``.

    Example:
        >>> from reference.tsp.base import distance_matrix
        >>> brute_force_tsp(distance_matrix([[0, 0], [1, 1], [1, 0], [0, 1]]))[0]
        4.0
    """
    w = as_distances("D", D, metric=False)
    n = w.shape[0]
    if n > BRUTE_FORCE_MAX_N:
        raise ValueError(f"D: expected n <= {BRUTE_FORCE_MAX_N} for brute force, got n = {n}")
    perms = np.array(list(itertools.permutations(range(1, n))), dtype=np.int64)
    perms = perms[perms[:, 0] < perms[:, -1]]  # one orientation per cycle
    tours = np.concatenate([np.zeros((perms.shape[0], 1), dtype=np.int64), perms], axis=1)
    lengths: FloatArray = np.sum(w[tours, np.roll(tours, -1, axis=1)], axis=1)
    best = int(np.argmin(lengths))
    return float(lengths[best]), tours[best].copy()
