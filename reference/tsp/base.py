"""TSP with predictions — validation, instances, tour utilities and the prediction error η.

Part of :mod:`reference.tsp` (import the public names from there).  Conventions:

* ``D`` is an ``(n, n)`` symmetric matrix of non-negative finite weights ``w_ij`` with zero
  diagonal, ``n >= 3``.  Repair-based decoders additionally need the triangle inequality
  (metric); it is checked in ``O(n³)`` for ``n <= METRIC_CHECK_MAX_N``.
* A heatmap ``X`` is an ``(n, n)`` symmetric matrix with entries in ``[0, 1]``; its diagonal is
  ignored.  Raw model outputs are normalised with :func:`prepare_heatmap`.
* A tour is a 1-D ``int64`` array holding a permutation of ``range(n)``; the closing edge
  ``tour[-1] -> tour[0]`` is implicit.

References:
    M. Eliáš, F. Grandoni, A. Polak, E. Vercesi, "TSP with Predictions: Heatmap to Tour with
    Provable Guarantees", ICML 2026 (PMLR 306).  Only the abstract was readable: everything
    beyond the definitions of the abstract is our reconstruction (spec 10, §2).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt
from numpy.typing import ArrayLike
from scipy.sparse.csgraph import shortest_path

from reference._arrays import (
    FloatArray,
    IntArray,
    as_float_array,
    describe,
    require_generator,
    require_int,
    require_square,
)

__all__ = [
    "HEATMAP_SYMMETRY_ATOL",
    "METRIC_CHECK_MAX_N",
    "METRIC_RTOL",
    "canonical_tour",
    "distance_matrix",
    "eta",
    "euclidean_instance",
    "is_tour",
    "prepare_heatmap",
    "random_metric_instance",
    "tour_edges",
    "tour_indicator",
    "tour_length",
]

#: Largest ``n`` for which the ``O(n³)`` triangle-inequality check runs by default (spec §4).
METRIC_CHECK_MAX_N = 200
#: Allowed triangle-inequality violation, relative to ``max(1, max w)`` (spec §5: 1e-9).
METRIC_RTOL = 1e-9
#: Allowed asymmetry of distance matrices, relative to ``max(1, max w)``.
SYMMETRY_RTOL = 1e-12
#: Allowed asymmetry of heatmaps (absolute; heatmaps live in [0, 1]).
HEATMAP_SYMMETRY_ATOL = 1e-12


# ----------------------------------------------------------------------------- validation
def as_distances(name: str, value: object, *, metric: bool | None = None) -> FloatArray:
    """Validate a distance matrix and return a symmetric float64 copy with zero diagonal.

    Args:
        name: argument name for messages.
        value: ``(n, n)`` array-like, ``n >= 3``.
        metric: check the triangle inequality; ``None`` means "when ``n <= METRIC_CHECK_MAX_N``".

    Raises:
        TypeError: non-numeric input.
        ValueError: not square, ``n < 3``, non-finite, negative, asymmetric, nonzero diagonal,
            or (with the metric check) a triangle-inequality violation.
    """
    matrix = require_square(name, value)
    n = matrix.shape[0]
    if n < 3:
        raise ValueError(f"{name}: expected an (n, n) matrix with n >= 3, got shape {matrix.shape}")
    low = float(matrix.min())
    if low < 0.0:
        raise ValueError(f"{name}: expected non-negative distances, got min {low!r}")
    scale = max(1.0, float(matrix.max()))
    asym = float(np.max(np.abs(matrix - matrix.T)))
    if asym > SYMMETRY_RTOL * scale:
        raise ValueError(f"{name}: expected a symmetric matrix, got max |w_ij - w_ji| = {asym!r}")
    diag = float(np.max(np.abs(np.diag(matrix))))
    if diag > SYMMETRY_RTOL * scale:
        raise ValueError(f"{name}: expected a zero diagonal, got max |w_ii| = {diag!r}")
    upper = np.triu(matrix, 1)
    out: FloatArray = upper + upper.T
    if metric is None:
        metric = n <= METRIC_CHECK_MAX_N
    if metric:
        worst = _worst_triangle_violation(out)
        if worst > METRIC_RTOL * scale:
            raise ValueError(
                f"{name}: expected metric distances (triangle inequality), got a violation "
                f"w_ij - (w_ik + w_kj) = {worst!r}"
            )
    return out


def _worst_triangle_violation(w: FloatArray) -> float:
    """``max_{i < j, k} w_ij - w_ik - w_kj`` of a symmetric ``w`` (``>= 0``: ``k = i`` gives 0).

    ``O(n³)``: for each row ``i`` one pass over the ``(n, n - i - 1)`` block of ``(k, j > i)``
    (symmetry makes ``j < i`` redundant), in one reused buffer.
    """
    n = w.shape[0]
    flat = np.empty(n * n)
    worst = 0.0
    for i in range(n - 1):
        block = flat[: n * (n - i - 1)].reshape(n, n - i - 1)
        np.subtract(w[i, None, i + 1 :], w[i][:, None], out=block)  # w_ij - w_ik
        np.subtract(block, w[:, i + 1 :], out=block)  # - w_kj
        worst = max(worst, float(block.max()))
    return worst


def as_heatmap(name: str, value: object, n: int) -> FloatArray:
    """Validate an ``(n, n)`` heatmap in ``[0, 1]``, symmetric; return a copy with zero diagonal.

    Raises:
        TypeError: non-numeric input.
        ValueError: wrong shape, non-finite, negative, above 1, or asymmetric.
    """
    heat = as_float_array(name, value, shape=(n, n))
    np.fill_diagonal(heat, 0.0)
    low, high = float(heat.min()), float(heat.max())
    if low < 0.0:
        raise ValueError(f"{name}: expected heatmap values >= 0, got min {low!r}")
    if high > 1.0:
        raise ValueError(
            f"{name}: expected heatmap values <= 1 (use prepare_heatmap(normalize=...)), "
            f"got max {high!r}"
        )
    asym = float(np.max(np.abs(heat - heat.T)))
    if asym > HEATMAP_SYMMETRY_ATOL:
        raise ValueError(
            f"{name}: expected a symmetric heatmap (use prepare_heatmap(symmetrize=...)), "
            f"got max |X_ij - X_ji| = {asym!r}"
        )
    upper = np.triu(heat, 1)
    out: FloatArray = upper + upper.T
    return out


def as_tour(name: str, value: object, n: int) -> IntArray:
    """Validate a tour (a permutation of ``range(n)``) and return it as ``int64``.

    Raises:
        TypeError: non-numeric or non-integer values.
        ValueError: wrong shape or not a permutation of ``range(n)``.
    """
    raw = as_float_array(name, value, ndim=1)
    if raw.shape != (n,):
        raise ValueError(f"{name}: expected a permutation of range({n}), got shape {raw.shape}")
    if not bool(np.all(raw == np.round(raw))):
        raise TypeError(f"{name}: expected integer vertex labels, got {describe(value)}")
    tour = raw.astype(np.int64)
    if not is_tour(tour, n):
        raise ValueError(
            f"{name}: expected a permutation of range({n}), got {tour.tolist()[:20]!r}"
        )
    return tour


# -------------------------------------------------------------------------------- instances
def distance_matrix(points: ArrayLike) -> FloatArray:
    """Euclidean distance matrix of points in the plane (or any dimension).

    ``w_ij = ||p_i - p_j||_2``, exactly symmetric with zero diagonal.

    Args:
        points: ``(n, d)`` finite coordinates, ``n >= 3``.

    Returns:
        ``(n, n)`` float64 distances.

    Raises:
        TypeError: non-numeric input.
        ValueError: wrong shape, ``n < 3`` or non-finite coordinates.

    Example:
        >>> distance_matrix([[0, 0], [3, 0], [3, 4]])[0, 2]
        np.float64(5.0)
    """
    pts = as_float_array("points", points, ndim=2)
    if pts.shape[0] < 3:
        raise ValueError(f"points: expected at least 3 points, got shape {pts.shape}")
    diff = pts[:, None, :] - pts[None, :, :]
    out: FloatArray = np.sqrt(np.sum(diff * diff, axis=-1))
    return out


def euclidean_instance(n: int, *, rng: np.random.Generator) -> tuple[FloatArray, FloatArray]:
    """``n`` uniform random points in ``[0, 1]²`` and their Euclidean distance matrix.

    Args:
        n: number of cities, ``n >= 3``.
        rng: the random generator.

    Returns:
        ``(points (n, 2), D (n, n))``.

    Raises:
        TypeError: ``n`` not an integer or ``rng`` not a generator.
        ValueError: ``n < 3``.

    Example:
        >>> pts, D = euclidean_instance(5, rng=np.random.default_rng(0))
        >>> D.shape, bool(np.allclose(D, D.T))
        ((5, 5), True)
    """
    count = require_int("n", n, minimum=3)
    _require_rng(rng)
    points = rng.uniform(0.0, 1.0, size=(count, 2))
    return points, distance_matrix(points)


def random_metric_instance(n: int, *, rng: np.random.Generator) -> FloatArray:
    """A general (non-Euclidean) metric: shortest-path closure of random edge weights.

    Edge weights ``u_ij ~ U(0, 1]`` on the complete graph; ``w`` = all-pairs shortest-path
    distances (``scipy.sparse.csgraph.shortest_path``), which satisfy the triangle inequality.

    Args:
        n: number of cities, ``n >= 3``.
        rng: the random generator.

    Returns:
        ``(n, n)`` metric distance matrix.

    Raises:
        TypeError: ``n`` not an integer or ``rng`` not a generator.
        ValueError: ``n < 3``.
    """
    count = require_int("n", n, minimum=3)
    _require_rng(rng)
    raw = 1.0 - rng.uniform(0.0, 1.0, size=(count, count))
    upper = np.triu(raw, 1)
    weights = upper + upper.T
    closure = np.asarray(shortest_path(weights, method="FW", directed=False), dtype=np.float64)
    sym = np.triu(closure, 1)
    out: FloatArray = sym + sym.T
    return out


def _require_rng(rng: object) -> None:
    require_generator("rng", rng)


# ---------------------------------------------------------------------------- tour utilities
def is_tour(tour: npt.ArrayLike, n: int) -> bool:
    """True if ``tour`` is a 1-D integer permutation of ``range(n)`` (a Hamiltonian cycle).

    A predicate: any ``tour`` (wrong shape, NaN, strings) gives ``False``; only a bad ``n``
    raises.

    Raises:
        TypeError: ``n`` is not an integer.
        ValueError: ``n < 1``.

    Example:
        >>> is_tour([2, 0, 1], 3), is_tour([0, 0, 1], 3)
        (True, False)
    """
    size = require_int("n", n, minimum=1)
    arr = np.asarray(tour)
    if arr.ndim != 1 or arr.shape[0] != size or arr.dtype.kind not in "iu":
        return False
    return bool(np.array_equal(np.sort(arr), np.arange(size)))


def tour_length(D: ArrayLike, tour: ArrayLike) -> float:
    """Length of the closed tour: ``Σ_k w(tour[k], tour[(k + 1) mod n])``.

    Args:
        D: ``(n, n)`` distances (symmetric, non-negative; the metric check is not needed).
        tour: permutation of ``range(n)``.

    Returns:
        The cost of the Hamiltonian cycle.

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid distances or tour.

    Example:
        >>> D = distance_matrix([[0, 0], [1, 0], [1, 1], [0, 1]])
        >>> tour_length(D, [0, 1, 2, 3])
        4.0
    """
    w = as_distances("D", D, metric=False)
    t = as_tour("tour", tour, w.shape[0])
    return _length(w, t)


def _length(w: FloatArray, tour: IntArray) -> float:
    return float(np.sum(w[tour, np.roll(tour, -1)]))


def canonical_tour(tour: ArrayLike) -> IntArray:
    """Canonical form of a cycle: rotate to start at 0, orient so that ``tour[1] < tour[-1]``.

    Two tours describe the same Hamiltonian cycle iff their canonical forms are equal.

    Args:
        tour: permutation of ``range(n)``, ``n >= 3``.

    Raises:
        TypeError: non-integer input.
        ValueError: not a permutation, or ``n < 3``.

    Example:
        >>> canonical_tour([2, 1, 0, 3]).tolist()
        [0, 1, 2, 3]
    """
    arr = as_float_array("tour", tour, ndim=1)
    n = arr.shape[0]
    if n < 3:
        raise ValueError(f"tour: expected a permutation of range(n) with n >= 3, got {n} entries")
    t = as_tour("tour", tour, n)
    return _canonical(t)


def _canonical(tour: IntArray) -> IntArray:
    start = int(np.flatnonzero(tour == 0)[0])
    rotated = np.roll(tour, -start)
    if rotated[1] > rotated[-1]:
        rotated = np.concatenate([rotated[:1], rotated[1:][::-1]])
    return rotated.astype(np.int64)


def tour_edges(tour: ArrayLike) -> IntArray:
    """The ``n`` edges of the cycle as an ``(n, 2)`` array with ``i < j`` per row, sorted.

    Raises:
        TypeError: non-integer input.
        ValueError: not a permutation of ``range(n)``, ``n >= 3``.

    Example:
        >>> tour_edges([0, 2, 1]).tolist()
        [[0, 1], [0, 2], [1, 2]]
    """
    t = canonical_tour(tour)
    return _edges_of(t)


def _edges_of(tour: IntArray) -> IntArray:
    a, b = tour, np.roll(tour, -1)
    pairs = np.stack([np.minimum(a, b), np.maximum(a, b)], axis=1)
    order = np.lexsort((pairs[:, 1], pairs[:, 0]))
    out: IntArray = pairs[order].astype(np.int64)
    return out


def tour_indicator(tour: ArrayLike, n: int | None = None) -> FloatArray:
    """The edge-indicator matrix ``Y_T`` (symmetric, 0/1, row sums 2) of a tour.

    Args:
        tour: permutation of ``range(n)``.
        n: number of cities (defaults to ``len(tour)``; must match it).

    Raises:
        TypeError: non-integer input.
        ValueError: not a permutation of ``range(n)``.

    Example:
        >>> tour_indicator([0, 1, 2, 3]).sum(axis=1).tolist()
        [2.0, 2.0, 2.0, 2.0]
    """
    raw = as_float_array("tour", tour, ndim=1)
    size = raw.shape[0] if n is None else require_int("n", n, minimum=3)
    if size < 3:
        raise ValueError(f"tour: expected a permutation of range(n) with n >= 3, got {size}")
    t = as_tour("tour", tour, size)
    return _indicator(t)


def _indicator(tour: IntArray) -> FloatArray:
    n = tour.shape[0]
    y = np.zeros((n, n))
    nxt = np.roll(tour, -1)
    y[tour, nxt] = 1.0
    y[nxt, tour] = 1.0
    return y


# ----------------------------------------------------------------------------------- eta
def eta(D: ArrayLike, heatmap: ArrayLike, tour: ArrayLike) -> float:
    """Prediction error ``η(X, T) = Σ_{i<j} w_ij |X_ij - Y_T,ij|`` (weighted L1 distance).

    With ``T`` an optimal tour this is the η of the guarantee ``ALG <= OPT + 2η``; any optimal
    tour gives an upper bound on ``η(X) = min_{T*} η(X, T*)`` (spec §2).  For a 0/1 heatmap
    ``H`` it equals ``w(H Δ T)``.

    Symbols: ``w`` is ``D``, ``X`` is ``heatmap``, ``T`` is ``tour``.

    Args:
        D: ``(n, n)`` distances.
        heatmap: ``(n, n)`` symmetric heatmap in ``[0, 1]``.
        tour: permutation of ``range(n)``.

    Returns:
        ``η >= 0``.

    Raises:
        TypeError: non-numeric input.
        ValueError: invalid distances, heatmap or tour.

    Example:
        >>> D = distance_matrix([[0, 0], [1, 0], [1, 1], [0, 1]])
        >>> eta(D, tour_indicator([0, 1, 2, 3]), [0, 1, 2, 3])
        0.0

    References:
        Eliáš, Grandoni, Polak, Vercesi, ICML 2026, abstract (η = L1 distance between heatmap
        and an optimal tour); the *weighted* L1 form is (reconstruction), spec 10 §2.
    """
    w = as_distances("D", D, metric=False)
    n = w.shape[0]
    x = as_heatmap("heatmap", heatmap, n)
    t = as_tour("tour", tour, n)
    return _eta(w, x, t)


def _eta(w: FloatArray, x: FloatArray, tour: IntArray) -> float:
    diff = np.abs(x - _indicator(tour))
    return float(np.sum(np.triu(w * diff, 1)))


# ------------------------------------------------------------------------- heatmap prep
def prepare_heatmap(
    raw: ArrayLike,
    *,
    symmetrize: Literal["none", "directed", "mean"] = "none",
    normalize: Literal["none", "clip", "max"] = "none",
) -> FloatArray:
    """Normalise a raw model heatmap to a symmetric ``[0, 1]`` matrix with zero diagonal.

    * ``symmetrize="directed"``: ``X = clip(A + Aᵀ, 0, 1)`` (DIFUSCO stores one direction).
    * ``symmetrize="mean"``: ``X = (A + Aᵀ) / 2`` (row-softmax heatmaps: SoftDist, Att-GCN).
    * ``normalize="clip"``: clip to ``[0, 1]``; ``"max"``: divide by the largest entry (if > 0).
    * ``"none"``: the value must already be symmetric / inside ``[0, 1]``, else ``ValueError``.

    Args:
        raw: ``(n, n)`` finite non-negative array.
        symmetrize: symmetrisation mode (our default, spec §2).
        normalize: range normalisation (our default, spec §2).

    Returns:
        The heatmap, validated as the decoders require.

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shape, non-finite or negative entries, unknown mode, or a heatmap
            that is still asymmetric / outside ``[0, 1]`` under mode ``"none"``.

    Example:
        >>> prepare_heatmap([[0, 1, 0], [0, 0, 1], [1, 0, 0]], symmetrize="directed").tolist()
        [[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]]
    """
    a = require_square("raw", raw)
    if symmetrize not in ("none", "directed", "mean"):
        raise ValueError(f"symmetrize: expected 'none', 'directed' or 'mean', got {symmetrize!r}")
    if normalize not in ("none", "clip", "max"):
        raise ValueError(f"normalize: expected 'none', 'clip' or 'max', got {normalize!r}")
    low = float(a.min())
    if low < 0.0:
        raise ValueError(f"raw: expected non-negative heatmap values, got min {low!r}")
    np.fill_diagonal(a, 0.0)
    if symmetrize == "directed":
        a = np.clip(a + a.T, 0.0, 1.0)
    elif symmetrize == "mean":
        a = (a + a.T) / 2.0
    if normalize == "clip":
        a = np.clip(a, 0.0, 1.0)
    elif normalize == "max":
        top = float(a.max())
        if top > 0.0:
            a = a / top
    return as_heatmap("raw", a, a.shape[0])
