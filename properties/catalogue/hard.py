"""Hard-input catalogue: named hard instances and stopping rules (run by ``hard_input``).

Every function registered with ``bad_input`` is a hard-input case through the generic
transforms; the records here add, per function, valid instances that are hard in a way a
transform cannot make (smallest sizes, aspect ratios, near-singular systems, the default caps,
instances of past defects) and a stopping rule that recomputes the function's stopping
quantity from the returned output with a routine of its own (never the result's fields).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from properties._records import Args
from properties.hard_input import HardExtra, HardInstance, StopRule

__all__ = ["HARD_EXTRAS", "matrix_game_gap"]

FloatArray = np.ndarray[Any, np.dtype[np.float64]]


def matrix_game_gap(payoff: object, x: object, y: object) -> float:
    """Duality gap ``max_j (xᵀA)_j - min_i (Ay)_i``, written again for the checks.

    Example:
        >>> matrix_game_gap([[0.0, 1.0], [1.0, 0.0]], [0.5, 0.5], [0.5, 0.5])
        0.0
    """
    a = np.asarray(payoff, dtype=np.float64)
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    column_values = [float(np.dot(xs, a[:, j])) for j in range(a.shape[1])]
    row_values = [float(np.dot(a[i, :], ys)) for i in range(a.shape[0])]
    return max(column_values) - min(row_values)


def _tol_of(args: Args, default: float) -> float | None:
    value = args[1].get("tol", default)
    return None if value is None else float(value)


def _games_rule(default_tol: float) -> StopRule:
    """``converged`` iff the recomputed gap of ``(x, y)`` is at most ``tol`` (absolute)."""

    def rule(args: Args, result: object) -> tuple[bool, float, float] | None:
        tol = _tol_of(args, default_tol)
        if tol is None:
            return None
        gap = matrix_game_gap(args[0][0], getattr(result, "x"), getattr(result, "y"))  # noqa: B009
        return bool(getattr(result, "converged")), gap, tol  # noqa: B009

    return rule


def _efg_rule(default_tol: float) -> StopRule:
    """``converged`` iff NashConv of the returned plans, by tree best response, is <= tol."""

    def rule(args: Args, result: object) -> tuple[bool, float, float] | None:
        from reference.extensive import nash_conv

        tol = _tol_of(args, default_tol)
        if tol is None:
            return None
        value = nash_conv(args[0][0], getattr(result, "x"), getattr(result, "y"))  # noqa: B009
        return bool(getattr(result, "converged")), value, float(tol)  # noqa: B009

    return rule


# ------------------------------------------------------------------------ matrix games
def _uniform(rng: np.random.Generator, m: int, n: int, scale: float = 1.0) -> FloatArray:
    return scale * rng.uniform(-1.0, 1.0, size=(m, n))


def _shapes_game(rng: np.random.Generator) -> FloatArray:
    m, n = [(1, 1), (1, 7), (7, 1), (2, 2), (3, 3), (2, 40), (40, 2)][int(rng.integers(7))]
    return _uniform(rng, m, n)


def _game_instances(tol: float, cap: int | None) -> tuple[HardInstance, ...]:
    """Hard matrix games for a solver called as ``fn(A, tol=tol[, max_iter=cap])``."""

    def call(a: FloatArray, t: float = tol) -> Args:
        kwargs: dict[str, Any] = {"tol": t}
        if cap is not None:
            kwargs["max_iter"] = cap
        return (a,), kwargs

    return (
        HardInstance(
            label="smallest sizes and aspect ratios", make_args=lambda r: call(_shapes_game(r))
        ),
        HardInstance(
            label="20 x 20 entries of order 1e6, tol 1e-9 (issue 22 #1)",
            make_args=lambda r: call(_uniform(r, 20, 20, 1e6), 1e-9),
        ),
        HardInstance(
            label="2 x 2 [[5, 4], [0, 1e-9]] (issue 22 #3: singular Newton system)",
            make_args=lambda r: call(np.array([[5.0, 4.0], [0.0, 1e-9]])),
        ),
        HardInstance(
            label="entries of order 1e-8", make_args=lambda r: call(_uniform(r, 5, 6, 1e-8))
        ),
        HardInstance(
            label="integer entries in {-1, 0, 1} (exact ties)",
            make_args=lambda r: call(r.integers(-1, 2, size=(6, 5)).astype(np.float64)),
        ),
        HardInstance(
            label="rank one A = u vᵀ",
            make_args=lambda r: call(np.outer(r.normal(size=6), r.normal(size=4))),
        ),
        HardInstance(
            label="near-degenerate 6 x 6 (rows equal up to 1e-12)",
            make_args=lambda r: call(
                np.repeat(_uniform(r, 2, 6), 3, axis=0) + 1e-12 * r.normal(size=(6, 6))
            ),
        ),
    )


def _solver_extra(name: str, tol: float, cap: int | None, timeout: float = 60.0) -> HardExtra:
    return HardExtra(
        name=name,
        instances=_game_instances(tol, cap),
        stop_rule=_games_rule(tol),
        timeout=timeout,
    )


# ----------------------------------------------------------------------- perturbation
def _nash_conv_rule(default_tol: float) -> StopRule:
    """GDA / OGDA / OMWU: ``stopping`` is NashConv of the returned pair."""

    def rule(args: Args, result: object) -> tuple[bool, float, float] | None:
        tol = _tol_of(args, default_tol)
        if tol is None:
            return None
        gap = matrix_game_gap(args[0][0], getattr(result, "x"), getattr(result, "y"))  # noqa: B009
        return bool(getattr(result, "converged")), gap, tol  # noqa: B009

    return rule


def _pf_instances() -> tuple[HardInstance, ...]:
    return (
        HardInstance(
            label="14 x 17 uniform [-1, 1], default caps (issue 22 #2)",
            make_args=lambda r: ((_uniform(r, 14, 17),), {"tol": 1e-6}),
        ),
        HardInstance(
            label="smallest sizes and aspect ratios",
            make_args=lambda r: ((_shapes_game(r),), {"tol": 1e-6, "max_iter": 20_000}),
        ),
        HardInstance(
            label="entries of order 1e6",
            make_args=lambda r: ((_uniform(r, 4, 5, 1e6),), {"tol": 1e-3, "max_iter": 20_000}),
        ),
    )


def _gda_instances() -> tuple[HardInstance, ...]:
    return (
        HardInstance(
            label="smallest sizes and aspect ratios",
            make_args=lambda r: ((_shapes_game(r),), {"tol": 1e-6, "max_iter": 2000}),
        ),
        HardInstance(
            label="entries of order 1e8",
            make_args=lambda r: ((_uniform(r, 4, 3, 1e8),), {"tol": 1e-2, "max_iter": 2000}),
        ),
        HardInstance(
            label="entries of order 1e-8",
            make_args=lambda r: ((_uniform(r, 4, 3, 1e-8),), {"tol": 1e-12, "max_iter": 2000}),
        ),
    )


# ---------------------------------------------------------------------- extensive form
def _efg_instances(perturbed: bool) -> tuple[HardInstance, ...]:
    from reference.extensive import kuhn_poker

    extra: dict[str, Any] = {"mu": 0.05} if perturbed else {}
    return (
        HardInstance(
            label="Kuhn poker, tol 1e-3, 2000 steps",
            make_args=lambda r: ((kuhn_poker(),), {"tol": 1e-3, "max_iter": 2000, **extra}),
        ),
        HardInstance(
            label="Kuhn poker, unreachable tol 1e-14, 300 steps",
            make_args=lambda r: ((kuhn_poker(),), {"tol": 1e-14, "max_iter": 300, **extra}),
        ),
    )


def _efg_extra(name: str, perturbed: bool) -> HardExtra:
    return HardExtra(
        name=name, instances=_efg_instances(perturbed), stop_rule=_efg_rule(1e-12), timeout=60.0
    )


# --------------------------------------------------------------------------- QP layers
def _qp(q_mat: Any, q: Any, g: Any, h: Any) -> Args:
    return tuple(np.asarray(v, dtype=np.float64) for v in (q_mat, q, g, h)), {}


def _qp_instances() -> tuple[HardInstance, ...]:
    return (
        HardInstance(label="n = 1", make_args=lambda r: _qp([[2.0]], [1.0], [[-1.0]], [-0.5])),
        HardInstance(
            label="nearly singular Q = diag(1, 1e-10)",
            make_args=lambda r: _qp(
                np.diag([1.0, 1e-10]), [-1.0, -1.0], np.vstack([np.eye(2), -np.eye(2)]), np.ones(4)
            ),
        ),
        HardInstance(
            label="nearly infeasible: 0 <= y_0 <= 1e-12",
            make_args=lambda r: _qp(
                np.eye(3), r.normal(size=3), [[1.0, 0, 0], [-1.0, 0, 0]], [1e-12, 0.0]
            ),
        ),
        HardInstance(
            label="duplicated (rank-deficient) inequality rows, active",
            make_args=lambda r: _qp(np.eye(2), [-2.0, -2.0], [[1.0, 1.0]] * 3, [1.0] * 3),
        ),
        HardInstance(
            label="Q of order 1e8, q of order 1",
            make_args=lambda r: _qp(1e8 * np.eye(3), r.normal(size=3), -np.eye(3), np.ones(3)),
        ),
        HardInstance(
            label="Q of order 1e-8 (solution far away), box |y| <= 1e3",
            make_args=lambda r: _qp(
                1e-8 * np.eye(2), [1.0, -1.0], np.vstack([np.eye(2), -np.eye(2)]), 1e3 * np.ones(4)
            ),
        ),
    )


# ---------------------------------------------------------- documented infinite outputs
#: constrained_map: ``log_value = log w(x)`` is ``-inf`` when infeasible or ``w(x) = 0``.
_MAP_SOLVERS = (
    "agnostic_map",
    "agnostic_repair_map",
    "grid_map",
    "mp_map",
    "pa_map",
    "penalty_map",
    "sample_filter_map",
)

HARD_EXTRAS: tuple[HardExtra, ...] = (
    HardExtra(name="reference.qp_layers:solve_qp", instances=_qp_instances()),
    HardExtra(name="reference.qp_layers:solve_qp_active_set", instances=_qp_instances()),
    *(
        HardExtra(name=f"reference.constrained_map:{name}", inf_fields=("log_value",))
        for name in _MAP_SOLVERS
    ),
    # f*_α(t) = +inf for t >= 1/(1-α) (documented).
    HardExtra(name="reference.divergence:f_alpha_conjugate", inf_fields=("*",)),
    # ski rental: the threshold K = math.inf is the documented "never buy" policy A_∞.
    *(
        HardExtra(name=f"reference.ski_rental:{name}", inf_fields=("threshold",))
        for name in (
            "base_algorithm",
            "follow_the_prediction",
            "point_truth_algorithm",
            "prediction_plugin_rule",
        )
    ),
    HardExtra(name="reference.ski_rental:main_threshold", inf_fields=("k_hat",)),
    HardExtra(name="reference.ski_rental:optimal_threshold", inf_fields=("*",)),
    # TSP sweep: the candidate thresholds start with +inf (documented: the empty edge set).
    HardExtra(name="reference.tsp:sweep_candidates", inf_fields=("thresholds",)),
    # -inf when a^α b^(1-α) overflows float64 (critic values ~1e3 and beyond; documented).
    HardExtra(name="reference.divergence:profiled_value", inf_fields=("*",)),
    _solver_extra("reference.games:rm_plus", 1e-6, 20_000),
    _solver_extra("reference.games:prm_plus", 1e-6, 20_000),
    _solver_extra("reference.games:drs", 1e-10, None),
    _solver_extra("reference.games:ssn", 1e-10, None),
    _solver_extra("reference.games:hybrid", 1e-10, None),
    HardExtra(
        name="reference.perturbation:parameter_free",
        instances=_pf_instances(),
        stop_rule=_games_rule(1e-9),
        timeout=120.0,
    ),
    HardExtra(
        name="reference.perturbation:gda",
        instances=_gda_instances(),
        stop_rule=_nash_conv_rule(1e-12),
    ),
    HardExtra(
        name="reference.perturbation:ogda",
        instances=_gda_instances(),
        stop_rule=_nash_conv_rule(1e-12),
    ),
    HardExtra(
        name="reference.perturbation:omwu",
        instances=_gda_instances(),
        stop_rule=_nash_conv_rule(1e-12),
    ),
    _efg_extra("reference.extensive:dgda", False),
    _efg_extra("reference.extensive:dogda", False),
    _efg_extra("reference.extensive:dmwu", False),
    _efg_extra("reference.extensive:asymp_dgda", True),
    _efg_extra("reference.extensive:symp_dgda", True),
)
