"""Public Hypothesis strategies shared by the suites (STYLE.md B6).

Valid inputs are built by construction (no ``filter``/``assume``); floats are
finite, bounded and free of subnormals; sizes are capped by named constants that
the environment can raise (``VERIFIEDREF_MAX_SIDE``) for the ``thorough`` profile.
"""

from __future__ import annotations

import math
import os

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.sparse.csgraph import shortest_path

from reference import extensive as efg
from reference._arrays import FloatArray, IntArray

__all__ = [
    "GENERIC_PERTURBATION",
    "MAX_PAYOFF",
    "MAX_SIDE",
    "degenerate_games",
    "distinct_float_arrays",
    "float_arrays",
    "generic_payoff_matrices",
    "grid_points",
    "metric_matrices",
    "nonzero_float_arrays",
    "orthogonal_matrices",
    "payoff_matrices",
    "permutations",
    "realization_plans",
    "seeds",
    "sign_arrays",
    "simplex_points",
    "symmetric_upper",
]

#: Largest side of a drawn matrix (raise with VERIFIEDREF_MAX_SIDE for thorough runs).
MAX_SIDE = int(os.environ.get("VERIFIEDREF_MAX_SIDE", "6"))
#: Entries of drawn payoff matrices lie in [-MAX_PAYOFF, MAX_PAYOFF].
MAX_PAYOFF = 10.0


def seeds() -> st.SearchStrategy[int]:
    """Seeds for ``numpy.random.default_rng`` (shrinkable and replayable)."""
    return st.integers(0, 2**32 - 1)


def _entries(bound: float) -> st.SearchStrategy[float]:
    return st.floats(-bound, bound, allow_nan=False, allow_infinity=False, allow_subnormal=False)


def float_arrays(
    shape: int | tuple[int, ...],
    *,
    low: float = -MAX_PAYOFF,
    high: float = MAX_PAYOFF,
) -> st.SearchStrategy[FloatArray]:
    """float64 arrays of ``shape`` with finite entries in ``[low, high]`` (no subnormals).

    Drawn entry by entry with ``hypothesis.extra.numpy``, so a failing array shrinks towards
    zeros (or ``low`` when 0 is outside the range) rather than to a seed.

    Example:
        >>> from hypothesis import find
        >>> find(float_arrays((2, 3), low=1.0, high=2.0), lambda a: True).tolist()
        [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    """
    if not (math.isfinite(low) and math.isfinite(high) and low <= high):
        raise ValueError(f"low, high: expected finite low <= high, got {low!r}, {high!r}")
    elements = st.floats(
        low, high, allow_nan=False, allow_infinity=False, allow_subnormal=False, width=64
    )
    return hnp.arrays(np.float64, shape, elements=elements)


@st.composite
def nonzero_float_arrays(draw: st.DrawFn, size: int, *, bound: float = 3.0) -> FloatArray:
    """Vectors of length ``size >= 1`` with entries in ``[-bound, bound]`` and norm >= 1.

    An entry-wise :func:`float_arrays` draw whose entry at a drawn ``pivot`` is replaced by
    ``+-m`` with ``m`` in ``[1, bound]``: never the zero vector (callers may normalise), and a
    failure shrinks to the first unit vector.

    Example:
        >>> from hypothesis import find
        >>> find(nonzero_float_arrays(3), lambda a: True).tolist()
        [1.0, 0.0, 0.0]
    """
    if size < 1:
        raise ValueError(f"size: expected an int >= 1, got {size!r}")
    if not (math.isfinite(bound) and bound >= 1.0):
        raise ValueError(f"bound: expected a finite float >= 1, got {bound!r}")
    out = draw(float_arrays((size,), low=-bound, high=bound), label="entries")
    pivot = draw(st.integers(0, size - 1), label="pivot")
    magnitude = draw(st.floats(1.0, bound), label="pivot magnitude")
    out[pivot] = -magnitude if draw(st.booleans(), label="pivot negative") else magnitude
    return out


def permutations(n: int) -> st.SearchStrategy[IntArray]:
    """Permutations of ``range(n)`` as int64 arrays (shrink towards the identity)."""
    if n < 0:
        raise ValueError(f"n: expected an int >= 0, got {n!r}")
    return st.permutations(range(n)).map(lambda p: np.array(p, dtype=np.int64))


#: Scale of the fixed tie-breaking term of :func:`generic_payoff_matrices`, relative to
#: ``bound``: entry ``k`` (row-major) gets ``GENERIC_PERTURBATION * bound * frac(sqrt(p_k))``
#: with ``p_k`` the ``k``-th prime.
GENERIC_PERTURBATION = 1e-2


def _primes(count: int) -> list[int]:
    found: list[int] = []
    candidate = 2
    while len(found) < count:
        if all(candidate % p for p in found if p * p <= candidate):
            found.append(candidate)
        candidate += 1
    return found


def _irrational_offsets(count: int) -> FloatArray:
    """``frac(sqrt(p_k))`` for the first ``count`` primes: linearly independent over Q."""
    roots = np.sqrt(np.array(_primes(count), dtype=np.float64))
    out: FloatArray = roots - np.floor(roots)
    return out


@st.composite
def distinct_float_arrays(
    draw: st.DrawFn,
    shape: tuple[int, ...],
    *,
    low: float,
    high: float,
    spread: float = GENERIC_PERTURBATION,
) -> FloatArray:
    """Tie-free float64 arrays in ``[low, high]``: an entry-wise draw in ``[low, high - w]``
    plus the fixed offset ``w frac(sqrt(p_k))`` for entry ``k`` (``w = spread (high - low)``).

    The draw shrinks to small round values while the offsets keep every entry distinct and no
    linear relation with small rational coefficients exact, so checks whose exactness needs a
    continuous input (no ties, no degenerate supports) still see a small shrunk array.

    Example:
        >>> from hypothesis import find
        >>> a = find(distinct_float_arrays((2, 2), low=-5.0, high=5.0), lambda a: True)
        >>> len(set(a.ravel().tolist())), bool(a.min() >= -5.0 and a.max() <= 5.0)
        (4, True)
    """
    if not (math.isfinite(low) and math.isfinite(high) and low < high and 0 < spread < 1):
        raise ValueError(
            f"low, high, spread: expected finite low < high and 0 < spread < 1, got "
            f"{low!r}, {high!r}, {spread!r}"
        )
    width = spread * (high - low)
    size = int(np.prod(shape))
    base = draw(float_arrays(shape, low=low, high=high - width), label="base (before offsets)")
    out: FloatArray = base + width * _irrational_offsets(size).reshape(shape)
    return out


def sign_arrays(shape: int | tuple[int, ...]) -> st.SearchStrategy[FloatArray]:
    """float64 arrays of ``+1.0`` / ``-1.0`` (shrinking to all ``-1``).

    Example:
        >>> from hypothesis import find
        >>> find(sign_arrays(3), lambda a: True).tolist()
        [-1.0, -1.0, -1.0]
    """
    return hnp.arrays(np.float64, shape, elements=st.sampled_from([-1.0, 1.0]))


def symmetric_upper(values: FloatArray, n: int) -> FloatArray:
    """The symmetric ``(n, n)`` matrix with zero diagonal whose strict upper triangle is
    ``values`` (row-major, length ``n (n - 1) / 2``).

    Example:
        >>> symmetric_upper(np.array([1.0, 2.0, 3.0]), 3).tolist()
        [[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [2.0, 3.0, 0.0]]
    """
    out = np.zeros((n, n))
    iu, ju = np.triu_indices(n, 1)
    out[iu, ju] = values
    sym: FloatArray = out + out.T
    return sym


@st.composite
def metric_matrices(draw: st.DrawFn, n: int, *, low: float = 0.01) -> FloatArray:
    """``(n, n)`` metrics: the shortest-path closure of symmetric edge weights drawn in
    ``[low, 1]`` (``0 < low < 1``), as ``reference.tsp.random_metric_instance`` builds from
    ``U(0, 1]`` weights; the weights are :func:`distinct_float_arrays` (no two equal, no round
    values), shrinking towards ``low``.

    Example:
        >>> from hypothesis import find
        >>> d = find(metric_matrices(4), lambda d: True)
        >>> bool(np.all(d[:, :, None] <= d[:, None, :] + d.T[None, :, :] + 1e-12))  # triangle
        True
    """
    if not 0 < low < 1:
        raise ValueError(f"low: expected a number in (0, 1), got {low!r}")
    count = n * (n - 1) // 2
    weights = draw(distinct_float_arrays((count,), low=low, high=1.0), label="edge weights")
    closure = np.asarray(
        shortest_path(symmetric_upper(weights, n), method="FW", directed=False), dtype=np.float64
    )
    upper = np.triu(closure, 1)
    out: FloatArray = upper + upper.T
    return out


def grid_points(n: int, *, side: int = 3) -> st.SearchStrategy[FloatArray]:
    """``(n, 2)`` float64 points of the ``side x side`` integer grid (coincident points and many
    ties; shrinks to all points at the origin).

    Example:
        >>> from hypothesis import find
        >>> find(grid_points(2), lambda p: bool(p.sum() > 0)).tolist()
        [[0.0, 0.0], [0.0, 1.0]]
    """
    return hnp.arrays(np.float64, (n, 2), elements=st.integers(0, side - 1).map(float))


@st.composite
def orthogonal_matrices(draw: st.DrawFn, n: int) -> FloatArray:
    """``(n, n)`` orthogonal matrices: the QR factor of ``M + 2 I`` for a drawn ``M`` with entries
    in ``[-1, 1]`` (signs fixed so that ``R`` has a positive diagonal); shrinks to the identity.

    Example:
        >>> from hypothesis import find
        >>> q = find(orthogonal_matrices(3), lambda q: True)
        >>> bool(np.allclose(q, np.eye(3)))
        True
    """
    m = draw(float_arrays((n, n), low=-1.0, high=1.0), label="matrix M of Q = qr(M + 2I)")
    q, r = np.linalg.qr(m + 2.0 * np.eye(n))
    out: FloatArray = q * np.where(np.diag(r) < 0, -1.0, 1.0)
    return out


@st.composite
def generic_payoff_matrices(
    draw: st.DrawFn,
    *,
    min_side: int = 2,
    max_side: int | None = None,
    bound: float = MAX_PAYOFF,
) -> FloatArray:
    """Generic (non-degenerate) ``(m, n)`` payoff matrices, ``m, n >= min_side >= 2``.

    An entry-wise draw in ``[-bound, (1 - GENERIC_PERTURBATION) bound]`` (shrinking to small, round values) plus the
    fixed term ``GENERIC_PERTURBATION * bound * frac(sqrt(p_k))`` for entry ``k`` with
    ``p_k`` the ``k``-th prime: the square roots of distinct primes are linearly independent
    over the rationals, so on the round bases Hypothesis shrinks to no two entries tie and
    no indifference system of a mixed strategy holds by accident -- the game is
    non-degenerate (every mixed strategy with support size ``k`` has at most ``k`` pure best
    responses), as support enumeration and Lemke-Howson require.

    Example:
        >>> from hypothesis import find
        >>> a = find(generic_payoff_matrices(), lambda a: True)
        >>> a.shape, len(set(a.ravel().tolist())) == a.size
        ((2, 2), True)
    """
    if min_side < 2:
        raise ValueError(f"min_side: expected an int >= 2 for generic games, got {min_side!r}")
    top = max(min_side, MAX_SIDE if max_side is None else max_side)
    m = draw(st.integers(min_side, top), label="rows m")
    n = draw(st.integers(min_side, top), label="columns n")
    shift = GENERIC_PERTURBATION * bound
    base = draw(float_arrays((m, n), low=-bound, high=bound - shift), label="base entries")
    matrix: FloatArray = base + shift * _irrational_offsets(m * n).reshape(m, n)
    return matrix


@st.composite
def payoff_matrices(
    draw: st.DrawFn,
    *,
    min_side: int = 1,
    max_side: int | None = None,
    bound: float = MAX_PAYOFF,
    integer: bool | None = None,
) -> FloatArray:
    """Finite ``(m, n)`` float64 payoff matrices with entries in ``[-bound, bound]``.

    Args:
        draw: Hypothesis draw function (supplied by ``@st.composite``).
        min_side: smallest ``m`` and ``n``.
        max_side: largest ``m`` and ``n`` (default :data:`MAX_SIDE`).
        bound: entry bound.
        integer: integer-valued entries (nice shrinks, many ties); drawn when ``None``.
    """
    top = MAX_SIDE if max_side is None else max_side
    m = draw(st.integers(min_side, top), label="rows m")
    n = draw(st.integers(min_side, top), label="columns n")
    use_int = draw(st.booleans(), label="integer entries") if integer is None else integer
    if use_int:
        elements: st.SearchStrategy[float] = st.integers(-int(bound), int(bound)).map(float)
    else:
        elements = _entries(bound)
    matrix = draw(hnp.arrays(np.float64, (m, n), elements=elements), label="payoff A")
    return matrix


@st.composite
def simplex_points(draw: st.DrawFn, size: int) -> FloatArray:
    """Points of the probability simplex of R^size (normalised positive draws, some zeros)."""
    weights = draw(
        hnp.arrays(np.float64, (size,), elements=st.floats(0.0, 1.0, allow_subnormal=False)),
        label="simplex weights",
    )
    if float(weights.sum()) <= 0.0:
        weights = np.ones(size)
    point: FloatArray = weights / weights.sum()
    return point


@st.composite
def degenerate_games(draw: st.DrawFn, *, max_side: int | None = None) -> tuple[str, FloatArray]:
    """Degenerate games: ``(kind, A)`` with kind one of ``saddle``, ``constant``,
    ``duplicated_rows``, ``single_row``, ``single_column``, ``rank_one``.

    * ``saddle``: a pure saddle point planted at a random cell ``(i, j)``: ``A[i, j]``
      is the largest entry of row ``i`` and the smallest of column ``j``.
    * ``constant``: every entry equal.
    * ``duplicated_rows``: some rows repeated (equilibria not unique).
    * ``single_row`` / ``single_column``: ``1 x n`` and ``m x 1`` games.
    * ``rank_one``: ``A = u vᵀ``.
    """
    top = MAX_SIDE if max_side is None else max_side
    kind = draw(
        st.sampled_from(
            ["saddle", "constant", "duplicated_rows", "single_row", "single_column", "rank_one"]
        ),
        label="degenerate kind",
    )
    rng = np.random.default_rng(draw(seeds(), label="seed"))
    m = draw(st.integers(1, top), label="rows m")
    n = draw(st.integers(1, top), label="columns n")
    if kind == "saddle":
        base = rng.uniform(-5.0, 5.0, size=(m, n))
        i, j = int(rng.integers(m)), int(rng.integers(n))
        value = float(rng.uniform(-1.0, 1.0))
        # entries of row i below the value, entries of column j above it: A[i, j] is a saddle.
        base[i, :] = value - np.abs(base[i, :]) - 1.0
        base[:, j] = value + np.abs(base[:, j]) + 1.0
        base[i, j] = value
        matrix = base
    elif kind == "constant":
        matrix = np.full((m, n), float(rng.integers(-5, 6)))
    elif kind == "duplicated_rows":
        rows = rng.uniform(-5.0, 5.0, size=(max(1, m // 2), n))
        matrix = rows[rng.integers(rows.shape[0], size=max(m, 2))]
    elif kind == "single_row":
        matrix = rng.uniform(-5.0, 5.0, size=(1, n))
    elif kind == "single_column":
        matrix = rng.uniform(-5.0, 5.0, size=(m, 1))
    else:
        matrix = np.outer(rng.uniform(-3.0, 3.0, size=m), rng.uniform(-3.0, 3.0, size=n))
    return kind, np.asarray(matrix, dtype=np.float64)


@st.composite
def realization_plans(draw: st.DrawFn, space: efg.Treeplex) -> FloatArray:
    """Realization plans of ``space`` (a :class:`reference.extensive.Treeplex`): one
    :func:`simplex_points` behavioural slice per information set (pure ones included),
    multiplied down the treeplex; shrinks towards pure plans.

    Example:
        >>> from hypothesis import find
        >>> space = efg.kuhn_poker().x_space
        >>> x = find(realization_plans(space), lambda x: True)
        >>> e, rhs = space.constraints()
        >>> bool(np.allclose(e @ x, rhs) and x.min() >= 0)
        True
    """
    b = np.ones(space.n_sequences)
    for j, (s, k, _) in enumerate(space.layout):
        b[s : s + k] = draw(simplex_points(k), label=f"behaviour at infoset {j}")
    return efg.behavioural_to_plan(space, b)
