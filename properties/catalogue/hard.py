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
from numpy.typing import ArrayLike

from properties._records import Args, HardExtra, HardInstance, StopRule

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
            label="20 x 20 entries of order 1e6, tol 1e-9",
            make_args=lambda r: call(_uniform(r, 20, 20, 1e6), 1e-9),
        ),
        HardInstance(
            label="2 x 2 [[5, 4], [0, 1e-9]] (singular Newton system)",
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
            label="14 x 17 uniform [-1, 1], default caps",
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
            label="q of order 1e-310 (subnormal), box |y| <= 0.5 (an overflow in the step rule)",
            make_args=lambda r: _qp(
                np.eye(2), [0.0, -1e-310], np.vstack([np.eye(2), -np.eye(2)]), 0.5 * np.ones(4)
            ),
        ),
        HardInstance(
            label="Q of order 1e-8 (solution far away), box |y| <= 1e3",
            make_args=lambda r: _qp(
                1e-8 * np.eye(2), [1.0, -1.0], np.vstack([np.eye(2), -np.eye(2)]), 1e3 * np.ones(4)
            ),
        ),
    )


# ------------------------------------------------------ functions without a bad-input case
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


# ---------------------------------------------------- inverse optimization: online learners
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


# ------------------------------------------------------------- torch fast paths (a few steps)
def _divergence_samples(
    r: np.random.Generator, n: int = 24, d: int = 2, scale: float = 1.0, same: bool = False
) -> tuple[FloatArray, FloatArray]:
    x = scale * r.normal(size=(n, d))
    y = x.copy() if same else scale * r.normal(0.5, 1.0, size=(n, d))
    return x, y


def _rff_args(**kw: Any) -> Callable[[np.random.Generator], Args]:
    def make(r: np.random.Generator) -> Args:
        import reference.divergence as dv

        x, y = _divergence_samples(r, **kw)
        features = dv.make_rff(x.shape[1], 8, sigma=1.0, rng=np.random.default_rng(3))
        config = dv.ArmijoConfig(max_iter=4, batch_size=None)
        return (x, y, 0.5), {
            "features": features,
            "rng": np.random.default_rng(1),
            "config": config,
        }

    return make


def _critic_args(**kw: Any) -> Callable[[np.random.Generator], Args]:
    def make(r: np.random.Generator) -> Args:
        x, y = _divergence_samples(r, **{"n": 8, **kw})
        return (x, y, 0.5), {"generator": 0, "hidden": 4, "iterations": 3, "batch_size": 4}

    return make


def _tree_args(d: int = 4, n: int = 32, **config: Any) -> Callable[[np.random.Generator], Args]:
    def make(r: np.random.Generator) -> Args:
        import reference.hierarchical as hl

        tree = hl.make_xor_tree(d, n, rng=r)
        cfg = hl.LayerwiseConfig(**{"width": 4, "epochs": 1, "batch_size": 8, **config})
        return (np.array(tree.x), [np.array(y) for y in tree.levels]), {
            "rng": np.random.default_rng(1),
            "config": cfg,
        }

    return make


def _torch_extras() -> tuple[HardExtra, ...]:
    """The four torch fast paths, when torch is installed (it is in the gate's dev setup)."""
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        return ()
    divergence = (
        HardInstance(label="n = 2 samples each, d = 1", make_args=_rff_args(n=2, d=1)),
        HardInstance(label="samples of order 1e8", make_args=_rff_args(scale=1e8)),
        HardInstance(label="samples of order 1e-8", make_args=_rff_args(scale=1e-8)),
        HardInstance(label="identical samples (D = 0)", make_args=_rff_args(same=True)),
    )
    critic = (
        HardInstance(label="n = 4 (the smallest split), d = 1", make_args=_critic_args(n=4, d=1)),
        HardInstance(label="samples of order 1e6", make_args=_critic_args(scale=1e6)),
        HardInstance(label="identical samples (D = 0)", make_args=_critic_args(same=True)),
    )
    trees = (
        HardInstance(label="d = 2, one sample", make_args=_tree_args(2, 1)),
        HardInstance(label="batch larger than n", make_args=_tree_args(batch_size=100)),
        HardInstance(label="width 1", make_args=_tree_args(width=1)),
    )
    return (
        HardExtra(
            name="reference.divergence.fast_torch:estimate_alpha_divergence",
            make_args=_rff_args(),
            arrays=(0, 1),
            instances=divergence,
        ),
        HardExtra(
            name="reference.divergence.fast_torch:neural_critic_estimate",
            make_args=_critic_args(),
            arrays=(0, 1),
            instances=critic,
        ),
        *(
            HardExtra(
                name=f"reference.hierarchical.fast_torch:{name}",
                make_args=_tree_args(),
                arrays=(0,),
                instances=trees,
            )
            for name in ("train_layerwise", "train_end_to_end")
        ),
    )


# ------------------------------------------------------------- constrained_map: max_out
def _max_out_values(
    breaks: ArrayLike, coeffs: object, lower: object, upper: object, lo: float, hi: float
) -> object:
    """``max_out(pp_from_pieces(breaks, rows of coeffs), lower, upper, lo=lo, hi=hi)``: the
    resulting piecewise polynomial and its values on 33 points of ``[lo, hi]``."""
    import reference.constrained_map as cm

    rows = [np.asarray(c, dtype=np.float64) for c in np.asarray(coeffs, dtype=np.float64)]
    q = cm.pp_from_pieces(breaks, rows)
    low, up = (tuple(float(v) for v in np.asarray(b, dtype=np.float64)) for b in (lower, upper))
    out = cm.max_out(q, (low[0], low[1]), (up[0], up[1]), lo=lo, hi=hi)
    values = np.array([out(float(y)) for y in np.linspace(lo, hi, 33)])
    return out, values


def _max_out_args(
    breaks: list[float],
    coeffs: list[list[float]],
    lower: tuple[float, float] = (0.0, 0.0),
    upper: tuple[float, float] = (0.0, 1.0),
    span: tuple[float, float] = (0.0, 1.0),
) -> Callable[[np.random.Generator], Args]:
    def make(r: np.random.Generator) -> Args:
        arrays = (np.array(breaks), np.array(coeffs), np.array(lower), np.array(upper))
        return (*arrays, *span), {}

    return make


#: ``q = x² + 1`` on ``[0, 1]`` then ``2 - x`` on ``[1, 2]``; max over ``[0, y]``.
_MAX_OUT_BASE = ([0.0, 1.0, 2.0], [[1.0, 0.0, 1.0], [2.0, -1.0, 0.0]])

MAX_OUT_EXTRA = HardExtra(
    name="reference.constrained_map:max_out",
    fn=_max_out_values,
    make_args=_max_out_args(*_MAX_OUT_BASE, span=(0.0, 2.0)),
    arrays=(1,),
    instances=(
        HardInstance(label="one constant piece", make_args=_max_out_args([0.0, 1.0], [[0.5]])),
        HardInstance(
            label="coefficients of order 1e8",
            make_args=_max_out_args([0.0, 1.0], [[1e8, 0.0, 1e8]]),
        ),
        HardInstance(
            label="coefficients of order 1e-8",
            make_args=_max_out_args([0.0, 1.0], [[1e-8, -1e-8, 1e-8]]),
        ),
        HardInstance(
            label="pieces 1e-9 wide",
            make_args=_max_out_args([0.0, 1e-9, 1.0], [[1.0, 0.0], [0.0, 1.0]]),
        ),
        HardInstance(
            label="bounds that cross (empty interval on part of the range)",
            make_args=_max_out_args(*_MAX_OUT_BASE, (0.5, 1.0), (1.5, -1.0), (0.0, 2.0)),
        ),
        HardInstance(
            label="degenerate interval l(y) = u(y) = y",
            make_args=_max_out_args(*_MAX_OUT_BASE, (0.0, 1.0), (0.0, 1.0), (0.0, 2.0)),
        ),
        HardInstance(
            label="q = 0 (all-zero message)",
            make_args=_max_out_args([0.0, 1.0], [[0.0, 0.0]]),
        ),
    ),
)


# ------------------------------------------------------------- preference: embed_psi
def _embedded_values(psi_name: str, link_name: str, qs: object, closed: bool) -> FloatArray:
    """``(ℓ_0(q), ℓ_1(q))`` for each ``q`` of the loss ``embed_psi(ψ, F̃)`` built from a named
    ψ of :mod:`reference.preference` (with its derivative) and the link σ or Φ."""
    import math

    import reference.preference as pref

    psi = getattr(pref, psi_name)
    links: dict[str, Callable[[float], float]] = {
        "sigmoid": lambda z: (
            1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))
        ),
        "probit": lambda z: 0.5 * math.erfc(-z / math.sqrt(2.0)),
    }
    loss = pref.embed_psi(
        lambda z: float(psi.fn(z)),
        links[link_name],
        psi_prime=lambda z: float(psi.derivative(z)),
        closed=closed,
    )
    points = [float(q) for q in np.asarray(qs, dtype=np.float64).ravel()]
    out: FloatArray = np.array([[loss.ell0(q), loss.ell1(q)] for q in points])
    return out


def _embed_args(
    qs: list[float], psi: str = "SOFTPLUS", link: str = "sigmoid", closed: bool = False
) -> Callable[[np.random.Generator], Args]:
    return lambda r: ((psi, link, np.array(qs), closed), {})


EMBED_PSI_EXTRA = HardExtra(
    name="reference.preference:embed_psi",
    fn=_embedded_values,
    make_args=_embed_args([0.1, 0.5, 0.9]),
    arrays=(2,),
    instances=(
        HardInstance(
            label="q within 1e-8 of 0 and of 1", make_args=_embed_args([1e-8, 0.5, 1.0 - 1e-8])
        ),
        HardInstance(label="q = 1/2 exactly (ℓ_1 = 0)", make_args=_embed_args([0.5])),
        HardInstance(
            label="savage ψ with the probit link, near ties q = 0.5 ± 1e-12",
            make_args=_embed_args([0.5 - 1e-12, 0.5 + 1e-12], "SAVAGE", "probit"),
        ),
        HardInstance(
            label="closed interval (sigmoid ψ, finite end values)",
            make_args=_embed_args([1e-6, 0.3, 0.999], "SIGMOID", closed=True),
        ),
    ),
)


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
    MAX_OUT_EXTRA,
    EMBED_PSI_EXTRA,
    *LEARNER_EXTRAS,
    *_torch_extras(),
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


def _obstacle_args(mean: tuple[float, float], gaps: tuple[float, ...]) -> Args:
    """``N(μ, I)`` on ``[-4, 4]²`` outside the box ``[μ - gaps[:2], μ + gaps[2:]]``."""
    import reference.constrained_map as cm

    mu = np.array(mean)
    lo, hi = mu - np.array(gaps[:2]), mu + np.array(gaps[2:])
    box = [
        ([1.0, 0.0], float(lo[0])),
        ([-1.0, 0.0], -float(hi[0])),
        ([0.0, 1.0], float(lo[1])),
        ([0.0, -1.0], -float(hi[1])),
    ]
    density = cm.gaussian_mixture([1.0], [mu], [np.eye(2)])
    return (np.full(2, -4.0), np.full(2, 4.0), cm.make_formula(2, [box]), density), {}


#: PA-MAP: a mean of order 1e-300 can overflow its cell bounds' QPs.
_PA_MAP_INSTANCES = (
    HardInstance(
        label="obstacle box around a mean of 1e-300",
        make_args=lambda r: _obstacle_args((0.0, 1e-300), (0.3, 0.7, 0.9, 0.4)),
    ),
    HardInstance(
        label="obstacle box around a subnormal mean, equal gaps (ties)",
        make_args=lambda r: _obstacle_args((1e-310, 0.0), (0.5, 0.5, 0.5, 0.5)),
    ),
)

HARD_EXTRAS: tuple[HardExtra, ...] = (
    HardExtra(name="reference.qp_layers:solve_qp", instances=_qp_instances()),
    HardExtra(name="reference.qp_layers:solve_qp_active_set", instances=_qp_instances()),
    *(
        HardExtra(
            name=f"reference.constrained_map:{name}",
            inf_fields=("log_value",),
            instances=_PA_MAP_INSTANCES if name == "pa_map" else (),
        )
        for name in _MAP_SOLVERS
    ),
    # f*_α(t) = +inf for t >= 1/(1-α) (documented).
    HardExtra(name="reference.divergence:f_alpha_conjugate", inf_fields=("*",)),
    # entropic D(x, y) = KL(x || y) = +inf when y_i = 0 < x_i (documented; ties make such pairs).
    HardExtra(name="reference.mirror_descent:bregman_divergence", inf_fields=("*",)),
    # ski rental: the threshold K = math.inf is the documented "never buy" policy A_∞.
    *(
        HardExtra(name=f"reference.ski_rental:{name}", inf_fields=("threshold",))
        for name in (
            "base_algorithm",
            "follow_the_prediction",
            "point_prediction_rule",
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
