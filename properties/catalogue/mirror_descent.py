"""Catalogue of the ``mirror_descent`` family: ``ALGORITHMS`` (rows of ``verifiedref list``),
``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite) and ``HARD_EXTRAS``
(hard instances and stopping rules that the ``hard_input`` suite adds to them)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from properties._records import Algorithm, BadInputCase, HardExtra, HardInstance
from reference import mirror_descent as md
from reference._arrays import FloatArray
from reference.mirror_descent import RegularizerKind
from reference.mirror_descent import composite as mdc

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "HARD_EXTRAS", "UNCOVERED"]


_PAPER = "Yu, Jiang, Tao, Wan, Zhang, Mirror Descent Under Generalized Smoothness (ICML 2026)"


def _algo(name: str, fn: str, suites: tuple[str, ...], module: str = "mirror_descent") -> Algorithm:
    return Algorithm(
        name=name,
        function=f"reference.{module}:{fn}",
        family="mirror_descent",
        paper=_PAPER,
        suites=(*suites, "bad_input", "hard_input"),
    )


ALGORITHMS = (
    _algo(
        "Mirror descent (Euclidean / entropic / lp)", "mirror_descent", ("mirror_descent.solver",)
    ),
    _algo("Accelerated mirror descent (Tseng-type)", "accelerated_mirror_descent", ()),
    _algo("Optimistic mirror descent", "optimistic_mirror_descent", ()),
    _algo("Mirror prox", "mirror_prox", ()),
    _algo("Stochastic mirror descent", "stochastic_mirror_descent", ()),
    _algo(
        "Composite mirror descent (F = f + h)",
        "composite_mirror_descent",
        ("mirror_descent.composite",),
    ),
    _algo(
        "Composite prox step (l1 / l2sq / box / entropy)",
        "composite_prox_step",
        (),
    ),
    _algo("Euclidean / entropic / lp prox step", "prox_step", ()),
    _algo("Entropic prox step (simplex)", "entropic_step", ("mirror_descent.simplex_prox",)),
    _algo("Bregman divergence", "bregman_divergence", ()),
    _algo("Effective constants G, L = l(2G)", "effective_constants", ()),
    _algo("G for l(a) = L0 + L1 a^alpha", "effective_g", ("mirror_descent.effective_constants",)),
    _algo("Step-size limits 1/L, 1/(2L), 1/(3L)", "step_size_limit", ()),
    _algo("Dual norm", "dual_norm", ()),
    _algo("Dual-norm maximiser", "dual_maximizer", ()),
    _algo("Primal norm", "primal_norm", ()),
    _algo("Local smoothness along a path", "local_smoothness_estimates", ()),
    _algo("Affine (L0, L1) fit (NNLS)", "fit_affine_smoothness", ()),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.mirror_descent:fit_affine_smoothness": "utility",
    "reference.mirror_descent:bregman_divergence": "utility",
    "reference.mirror_descent:composite_prox_step": "inner",
    "reference.mirror_descent:dual_norm": "utility",
    "reference.mirror_descent:dual_maximizer": "utility",
    "reference.mirror_descent:entropic_step": "inner",
    "reference.mirror_descent:prox_step": "inner",
    "reference.mirror_descent:local_smoothness_estimates": "utility",
    "reference.mirror_descent:primal_norm": "utility",
    "reference.mirror_descent:step_size_limit": "utility",
}


Args = tuple[tuple[Any, ...], dict[str, Any]]


def _quad_grad(x: FloatArray) -> FloatArray:
    return np.asarray(x, dtype=np.float64)


def _solver_args(rng: np.random.Generator) -> Args:
    n = int(rng.integers(1, 5))
    return (_quad_grad, rng.dirichlet(np.ones(n))), {
        "step_size": 0.5,
        "max_iter": 5,
        "mirror": "entropic",
    }


def _solver_case(fn: Callable[..., Any], name: str, **extra: Any) -> BadInputCase:
    def make(rng: np.random.Generator) -> Args:
        args, kwargs = _solver_args(rng)
        kwargs.update(extra)
        if name in ("accelerated_mirror_descent",):
            kwargs.pop("step_size")
            kwargs["lipschitz"] = 1.0
        return args, kwargs

    scalars: tuple[tuple[int | str, tuple[object, ...]], ...] = (
        ("max_iter", (0, -1, 2.5, "3")),
        ("mirror", ("l3", None)),
    )
    if name != "accelerated_mirror_descent":
        scalars = (*scalars, ("step_size", (0.0, -1.0, math.nan, math.inf)))
    else:
        scalars = (*scalars, ("lipschitz", (0.0, -1.0, math.nan)))
    return BadInputCase(
        name=f"reference.mirror_descent:{name}",
        fn=fn,
        make_args=make,
        arrays=(1,),
        scalars=scalars,
    )


def _prox_args(rng: np.random.Generator) -> Args:
    n = int(rng.integers(1, 5))
    return (rng.dirichlet(np.ones(n)), rng.standard_normal(n), 0.3), {"mirror": "entropic"}


def _two_points(rng: np.random.Generator) -> Args:
    n = int(rng.integers(1, 5))
    return (rng.dirichlet(np.ones(n)) * 0.5 + 0.5 / n, rng.dirichlet(np.ones(n)) * 0.5 + 0.5 / n), {
        "mirror": "entropic"
    }


def _vector(rng: np.random.Generator) -> Args:
    return (rng.standard_normal(int(rng.integers(1, 5))),), {"norm": "lp", "p": 1.5}


def _path(rng: np.random.Generator) -> Args:
    xs = np.cumsum(rng.standard_normal((4, 3)), axis=0)
    return (xs, 2.0 * xs), {}


def _fit(rng: np.random.Generator) -> Args:
    a = rng.uniform(0.0, 2.0, size=5)
    return (a, 1.0 + 2.0 * a), {}


def _stochastic(rng: np.random.Generator) -> Args:
    args, kwargs = _solver_args(rng)
    kwargs.update(sigma0=0.1, rng=np.random.default_rng(0))
    return args, kwargs


def _effective(rng: np.random.Generator) -> Args:
    return (md.SmoothnessFunction(l0=1.0, l1=2.0), float(rng.uniform(0.0, 3.0))), {}


def _ridge(rng: np.random.Generator) -> Args:
    return (rng.uniform(0.5, 1.0, size=int(rng.integers(1, 5))),), {}


def _cosh(rng: np.random.Generator) -> Args:
    return (rng.uniform(0.5, 1.0, size=int(rng.integers(1, 5))), 0.2), {}


def _entropic(rng: np.random.Generator) -> Args:
    args, _ = _prox_args(rng)
    return args, {}


def _g_args(rng: np.random.Generator) -> Args:
    return (float(rng.uniform(0.1, 2.0)), float(rng.uniform(0.0, 2.0)), float(rng.uniform())), {}


def _limit_args(rng: np.random.Generator) -> Args:
    return ("mirror_prox", float(rng.uniform(0.1, 5.0))), {}


def _composite_args(rng: np.random.Generator) -> Args:
    n = int(rng.integers(1, 5))
    return (_quad_grad, rng.uniform(-0.5, 0.5, size=n)), {
        "step_size": 0.5,
        "max_iter": 5,
        "regularizer": mdc.Regularizer(kind="l1", weight=0.1),
    }


def _composite_prox_args(rng: np.random.Generator) -> Args:
    n = int(rng.integers(1, 5))
    return (rng.dirichlet(np.ones(n)), rng.standard_normal(n), 0.3), {
        "mirror": "entropic",
        "regularizer": mdc.Regularizer(kind="entropy", weight=0.2),
    }


_BAD_REGS: tuple[object, ...] = (None, "l1", mdc.Regularizer(kind="entropy", weight=1.0))
BAD_INPUT_CASES = (
    _solver_case(md.mirror_descent, "mirror_descent"),
    BadInputCase(
        name="reference.mirror_descent.composite:composite_mirror_descent",
        fn=mdc.composite_mirror_descent,
        make_args=_composite_args,
        arrays=(1,),
        scalars=(
            ("step_size", (0.0, -1.0, math.nan, math.inf)),
            ("max_iter", (0, -1, 2.5)),
            ("regularizer", _BAD_REGS),
            ("mirror", ("l3", None)),
            ("tol", (-1.0, math.nan)),
        ),
    ),
    BadInputCase(
        name="reference.mirror_descent.composite:composite_prox_step",
        fn=mdc.composite_prox_step,
        make_args=_composite_prox_args,
        arrays=(0, 1),
        scalars=(
            (2, (0.0, -1.0, math.nan, math.inf)),
            ("regularizer", (None, mdc.Regularizer(kind="l1", weight=1.0))),
            ("p", (0.5, 3.0)),
        ),
    ),
    _solver_case(md.accelerated_mirror_descent, "accelerated_mirror_descent"),
    _solver_case(md.optimistic_mirror_descent, "optimistic_mirror_descent"),
    _solver_case(md.mirror_prox, "mirror_prox"),
    BadInputCase(
        name="reference.mirror_descent:stochastic_mirror_descent",
        fn=md.stochastic_mirror_descent,
        make_args=_stochastic,
        arrays=(1,),
        scalars=(
            ("sigma0", (-1.0, math.nan)),
            ("step_size", (0.0, -1.0)),
            ("max_iter", (0, 1.5)),
            ("rng", (None, 3)),
        ),
    ),
    BadInputCase(
        name="reference.mirror_descent:prox_step",
        fn=md.prox_step,
        make_args=_prox_args,
        arrays=(0, 1),
        scalars=((2, (0.0, -1.0, math.nan, math.inf)), ("p", (0.5, 3.0))),
    ),
    BadInputCase(
        name="reference.mirror_descent:entropic_step",
        fn=md.entropic_step,
        make_args=_entropic,
        arrays=(0, 1),
        scalars=((2, (0.0, -1.0, math.nan, math.inf)),),
    ),
    BadInputCase(
        name="reference.mirror_descent:effective_g",
        fn=md.effective_g,
        make_args=_g_args,
        arrays=(),
        scalars=(
            (0, (0.0, -1.0, math.nan)),
            (1, (-1.0, math.inf)),
            (2, (-1.0, math.nan)),
            ("alpha", (2.0, -0.5)),
        ),
    ),
    BadInputCase(
        name="reference.mirror_descent:step_size_limit",
        fn=md.step_size_limit,
        make_args=_limit_args,
        arrays=(),
        scalars=((0, ("adam", None)), (1, (0.0, -1.0, math.nan))),
    ),
    BadInputCase(
        name="reference.mirror_descent:bregman_divergence",
        fn=md.bregman_divergence,
        make_args=_two_points,
        arrays=(0, 1),
        scalars=(("mirror", ("kl", 3)),),
    ),
    BadInputCase(
        name="reference.mirror_descent:dual_norm",
        fn=md.dual_norm,
        make_args=_vector,
        arrays=(0,),
        scalars=(("p", (1.0, 0.5, -2.0, math.nan)), ("norm", ("l7",))),
    ),
    BadInputCase(
        name="reference.mirror_descent:primal_norm",
        fn=md.primal_norm,
        make_args=_vector,
        arrays=(0,),
        scalars=(("p", (1.0, 0.5, math.nan)),),
    ),
    BadInputCase(
        name="reference.mirror_descent:dual_maximizer",
        fn=md.dual_maximizer,
        make_args=_vector,
        arrays=(0,),
        scalars=(("p", (1.0, 0.5, math.nan)),),
    ),
    BadInputCase(
        name="reference.mirror_descent:effective_constants",
        fn=md.effective_constants,
        make_args=_effective,
        arrays=(),
        scalars=((1, (-1.0, math.nan, math.inf)), (0, (None, lambda a: 1.0 / (1.0 + a)))),
    ),
    BadInputCase(
        name="reference.mirror_descent:local_smoothness_estimates",
        fn=md.local_smoothness_estimates,
        make_args=_path,
        arrays=(0, 1),
        scalars=(("norm", ("spectral", "l9")),),
    ),
    BadInputCase(
        name="reference.mirror_descent:fit_affine_smoothness",
        fn=md.fit_affine_smoothness,
        make_args=_fit,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.mirror_descent:quartic_ridge",
        fn=md.quartic_ridge,
        make_args=_ridge,
        arrays=(0,),
    ),
    BadInputCase(
        name="reference.mirror_descent:cosh_ridge",
        fn=md.cosh_ridge,
        make_args=_cosh,
        arrays=(0,),
        scalars=((1, (math.nan, math.inf)),),
    ),
)


# ----------------------------------------------------------------- hard-input rows
# Valid instances that are hard in a way a generic transform cannot make (smallest sizes,
# extreme scales, near-singular systems, the default caps), results documented to hold
# +-inf, and stopping rules that recompute the stopping quantity from the returned output
# with a routine of their own (never the result's fields).
def _quadratic_grad(c: FloatArray) -> Callable[[FloatArray], FloatArray]:
    """Gradient ``x - c`` of ``||x - c||² / 2``."""

    def grad(x: FloatArray) -> FloatArray:
        out: FloatArray = x - c
        return out

    return grad


def _hard_composite_args(
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


HARD_EXTRAS: tuple[HardExtra, ...] = (
    HardExtra(
        name="reference.mirror_descent.composite:composite_mirror_descent",
        stop_rule=_composite_rule,
        instances=(
            HardInstance(label="n = 1, l1", make_args=_hard_composite_args("euclidean", "l1", n=1)),
            HardInstance(
                label="entropic on the simplex, n = 2, entropy regulariser, tol 1e-9",
                make_args=_hard_composite_args("entropic", "entropy", n=2, tol=1e-9),
            ),
            HardInstance(
                label="gradient of order 1e6, box, tol 1e-6",
                make_args=_hard_composite_args("euclidean", "box", scale=1e6, tol=1e-6),
            ),
            HardInstance(
                label="unreachable tol 1e-300 at 5000 steps, l2sq",
                make_args=_hard_composite_args("euclidean", "l2sq", tol=1e-300, cap=5000),
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
    # entropic D(x, y) = KL(x || y) = +inf when y_i = 0 < x_i (documented; ties make such pairs).
    HardExtra(name="reference.mirror_descent:bregman_divergence", inf_fields=("*",)),
)
