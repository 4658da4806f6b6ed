"""Hard-input catalogue: named hard instances and stopping rules (run by ``hard_input``).

Every function registered with ``bad_input`` is a hard-input case through the generic
transforms; the records here add, per function, valid instances that are hard in a way a
transform cannot make (smallest sizes, aspect ratios, near-singular systems, the default caps,
instances of past defects) and a stopping rule that recomputes the function's stopping
quantity from the returned output with a routine of its own (never the result's fields).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from properties._records import Args
from properties.hard_input import HardExtra, HardInstance, StopRule

if TYPE_CHECKING:
    from reference.mirror_descent import RegularizerKind

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


# ------------------------------------------- functions without a bad-input case (issue 22)
def _cfr_extra(name: str) -> HardExtra:
    """CFR / CFR+ on the two poker trees: one iteration, and a long run at the default cap."""

    def kuhn(iterations: int) -> Callable[[np.random.Generator], Args]:
        from reference.extensive import kuhn_poker

        return lambda r: ((kuhn_poker(),), {"iterations": iterations})

    def leduc(iterations: int) -> Callable[[np.random.Generator], Args]:
        from reference.extensive import leduc_poker

        return lambda r: ((leduc_poker(),), {"iterations": iterations})

    return HardExtra(
        name=name,
        make_args=kuhn(50),
        instances=(
            HardInstance(label="Kuhn poker, a single iteration", make_args=kuhn(1)),
            HardInstance(label="Kuhn poker, the default 1000 iterations", make_args=kuhn(1000)),
            HardInstance(label="Leduc poker, 3 iterations", make_args=leduc(3)),
        ),
        timeout=60.0,
    )


def _quadratic_grad(c: FloatArray) -> Callable[[FloatArray], FloatArray]:
    """Gradient ``x - c`` of ``||x - c||² / 2``."""

    def grad(x: FloatArray) -> FloatArray:
        out: FloatArray = x - c
        return out

    return grad


def _composite_args(
    mirror: str,
    kind: RegularizerKind,
    *,
    n: int = 4,
    scale: float = 1.0,
    tol: float = 0.0,
    cap: int = 200,
) -> Callable[[np.random.Generator], Args]:
    from reference.mirror_descent import Regularizer

    def make(r: np.random.Generator) -> Args:
        c = scale * r.uniform(-1.0, 1.0, size=n)
        x0 = np.full(n, 1.0 / n) if mirror == "entropic" else r.uniform(-1.0, 1.0, size=n)
        reg = Regularizer(kind=kind, weight=0.3)
        kwargs: dict[str, Any] = {"step_size": 0.4 / max(1.0, scale), "max_iter": cap}
        kwargs |= {"regularizer": reg, "mirror": mirror, "tol": tol}
        return (_quadratic_grad(c), x0), kwargs

    return make


def _composite_rule(args: Args, result: object) -> tuple[bool, float, float] | None:
    """``converged`` iff ``min_t ||x_t - x_(t+1)|| / η <= tol``, from the returned iterates
    (l1 norm for the entropic map, l2 otherwise); ``tol = 0`` means no stopping test."""
    tol = float(args[1].get("tol", 0.0))
    if tol == 0.0:
        return None
    it = np.asarray(getattr(result, "iterates"), dtype=np.float64)  # noqa: B009
    order = 1 if args[1].get("mirror") == "entropic" else 2
    eta = float(args[1]["step_size"])
    best = min(float(np.linalg.norm(it[t] - it[t + 1], ord=order)) for t in range(len(it) - 1))
    return bool(getattr(result, "converged")), best / eta, tol  # noqa: B009


def _prox_step_args(
    kind: RegularizerKind, scale: float = 1.0
) -> Callable[[np.random.Generator], Args]:
    from reference.mirror_descent import Regularizer

    def make(r: np.random.Generator) -> Args:
        reg = Regularizer(kind=kind, weight=0.5)
        x, g = r.uniform(-1.0, 1.0, size=5), scale * r.normal(size=5)
        return (x, g, 0.5), {"regularizer": reg}

    return make


def _invariance_args(rng: np.random.Generator) -> Args:
    from reference.invariance import make_instance

    inst = make_instance(4, 1, 3, 20, 2.0, rng=np.random.default_rng(int(rng.integers(2**32))))
    d = inst.environments[0][0].shape[1]
    return (inst.environments, rng.normal(size=(12, d))), {}


def _support_args(m: int, s: int, n: int) -> Callable[[np.random.Generator], Args]:
    from reference.invariance import make_toy_hard_instance

    def make(r: np.random.Generator) -> Args:
        inst = make_toy_hard_instance(m, s, n, rng=np.random.default_rng(int(r.integers(2**32))))
        return (inst.environments, s), {}

    return make


def _link_values(psi_name: str, z: object) -> FloatArray:
    """``implied_link(ψ)(z)`` for a named ψ of :mod:`reference.preference`."""
    import reference.preference as pref

    values = pref.implied_link(getattr(pref, psi_name))(np.asarray(z, dtype=np.float64))
    out: FloatArray = np.asarray(values, dtype=np.float64)
    return out


def _link_args(z: FloatArray, psi: str = "SOFTPLUS") -> Args:
    return (psi, z), {}


def _mp_args(which: str) -> Callable[[np.random.Generator], Args]:
    def make(r: np.random.Generator) -> Args:
        import reference.constrained_map as cm

        return ((cm.worked_example() if which == "worked" else cm.example_2_2()),), {}

    return make


STANDALONE: tuple[HardExtra, ...] = (
    _cfr_extra("reference.extensive:cfr"),
    _cfr_extra("reference.extensive:cfr_plus"),
    HardExtra(
        name="reference.mirror_descent.composite:composite_mirror_descent",
        stop_rule=_composite_rule,
        instances=(
            HardInstance(label="n = 1, l1", make_args=_composite_args("euclidean", "l1", n=1)),
            HardInstance(
                label="entropic on the simplex, n = 2, entropy regulariser, tol 1e-9",
                make_args=_composite_args("entropic", "entropy", n=2, tol=1e-9),
            ),
            HardInstance(
                label="gradient of order 1e6, box, tol 1e-6",
                make_args=_composite_args("euclidean", "box", scale=1e6, tol=1e-6),
            ),
            HardInstance(
                label="unreachable tol 1e-300 at 5000 steps, l2sq",
                make_args=_composite_args("euclidean", "l2sq", tol=1e-300, cap=5000),
            ),
        ),
    ),
    HardExtra(
        name="reference.mirror_descent.composite:composite_prox_step",
        instances=(
            HardInstance(label="gradient of order 1e8, l1", make_args=_prox_step_args("l1", 1e8)),
            HardInstance(
                label="gradient of order 1e-8, l2sq", make_args=_prox_step_args("l2sq", 1e-8)
            ),
        ),
    ),
    HardExtra(
        name="reference.invariance:exhaustive_search_k1",
        make_args=_invariance_args,
        arrays=(1,),
    ),
    HardExtra(
        name="reference.invariance:support_search",
        make_args=_support_args(4, 2, 50),
        instances=(
            HardInstance(label="m = 2, s = 1, n = 2", make_args=_support_args(2, 1, 2)),
            HardInstance(label="s = m = 5 (full support)", make_args=_support_args(5, 5, 40)),
        ),
    ),
    HardExtra(
        name="reference.preference:implied_link",
        fn=_link_values,
        make_args=lambda r: _link_args(r.normal(size=7)),
        arrays=(1,),
        instances=(
            HardInstance(
                label="|z| up to 1e300, softplus",
                make_args=lambda r: _link_args(np.array([-1e300, -1e3, 0.0, 1e3, 1e300])),
            ),
            HardInstance(
                label="logistic ψ = σ (F ≡ 1/2), z of order 1e3",
                make_args=lambda r: _link_args(1e3 * r.normal(size=5), "SIGMOID"),
            ),
        ),
    ),
    HardExtra(
        name="reference.constrained_map:mp_messages",
        make_args=_mp_args("worked"),
        instances=(HardInstance(label="Example 2.2 of the paper", make_args=_mp_args("2.2")),),
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
    *STANDALONE,
)
