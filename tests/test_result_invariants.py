"""``converged`` is honest for every iterative algorithm of ``verifiedref list`` (issue 22, point 3).

One row per iterative algorithm (a catalogued function whose result has a ``converged`` field):
run it on a sample of valid instances, recompute the stopping quantity from the returned output
with a routine of this file (or another public function, never the result's own fields), and
require ``converged == (quantity <= tol)`` up to the recomputation's rounding.  Algorithms whose
stopping quantity cannot be recomputed from the output are listed in ``NOT_COVERED`` with the
reason; a test keeps the two lists equal to the catalogue's iterative algorithms.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pkgutil import resolve_name
from typing import Any

import numpy as np
import pytest

from properties import all_algorithms
from properties.catalogue.hard import matrix_game_gap
from reference._arrays import FloatArray

Instance = tuple[tuple[Any, ...], dict[str, Any]]
ROUNDING = 1e-9  # relative: the function's own test and ours round differently


@dataclass(frozen=True)
class Row:
    function: str
    instances: Callable[[np.random.Generator], list[Instance]]
    quantity: Callable[[Instance, Any], float]  # recomputed stopping quantity
    tol: Callable[[Instance], float]


def _games(rng: np.random.Generator) -> list[Instance]:
    out: list[Instance] = []
    for tol in (1e-2, 1e-6, 1e-10):
        m, n = (int(v) for v in rng.integers(1, 7, size=2))
        out.append(((rng.uniform(-1, 1, size=(m, n)),), {"tol": tol, "max_iter": 200}))
    out.append(((1e6 * rng.uniform(-1, 1, size=(8, 8)),), {"tol": 1e-9, "max_iter": 200}))
    return out


def _gda_games(rng: np.random.Generator) -> list[Instance]:
    return [((a,), {**kw, "max_iter": 300}) for (a,), kw in _games(rng)]


def _gda_side(rng: np.random.Generator) -> list[Instance]:
    return [((a,), {**kw, "mu": 0.3}) for (a,), kw in _gda_games(rng)]


def _pf(rng: np.random.Generator) -> list[Instance]:
    return [((a,), {"tol": kw["tol"], "max_iter": 3000}) for (a,), kw in _games(rng)]


def _efg(perturbed: bool) -> Callable[[np.random.Generator], list[Instance]]:
    def make(rng: np.random.Generator) -> list[Instance]:
        from reference.extensive import kuhn_poker

        extra: dict[str, Any] = {"mu": 0.05} if perturbed else {}
        return [
            ((kuhn_poker(),), {"tol": tol, "max_iter": 400, **extra}) for tol in (1e-1, 1e-3, 1e-9)
        ]

    return make


def _gap(inst: Instance, result: Any) -> float:
    return matrix_game_gap(inst[0][0], result.x, result.y)


def _efg_nash_conv(inst: Instance, result: Any) -> float:
    from reference.extensive import nash_conv

    return nash_conv(inst[0][0], result.x, result.y)


def _x_side_gap(inst: Instance, result: Any) -> float:
    from reference.perturbation import perturbed_gap

    return perturbed_gap(inst[0][0], result.x, result.y, mu=inst[1]["mu"])


def _tours(rng: np.random.Generator) -> list[Instance]:
    out: list[Instance] = []
    for n, cap in ((5, 1), (8, 2), (9, 10_000), (12, 10_000)):
        pts = rng.uniform(size=(n, 2))
        d = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1))
        out.append(((d, rng.permutation(n)), {"max_iterations": cap, "min_improvement": 1e-9}))
    return out


def _best_two_opt_delta(inst: Instance, result: Any) -> float:
    """Most negative 2-opt change over all pairs of non-adjacent tour edges, by loops."""
    d = inst[0][0]
    t = [int(c) for c in result.tour]
    n = len(t)
    best = 0.0
    for i in range(n):
        for j in range(i + 2, n):
            a, b, c, e = t[i], t[(i + 1) % n], t[j], t[(j + 1) % n]
            if a == e:
                continue
            best = min(best, d[a, c] + d[b, e] - d[a, b] - d[c, e])
    return -best  # converged iff -best <= min_improvement


def _mirror(with_lipschitz: bool, mirrors: tuple[str, ...]) -> Callable[..., list[Instance]]:
    """Quadratics ``f(x) = ||x - c||² / 2`` (gradient ``x - c``) on R^n or the simplex."""

    def make(rng: np.random.Generator) -> list[Instance]:
        out: list[Instance] = []
        for mirror in mirrors:
            for tol, cap in ((1e-1, 500), (1e-5, 60), (1e-9, 40), (1e-12, 4000)):
                n = int(rng.integers(2, 6))
                c = rng.uniform(-1, 1, size=n)
                x0 = np.full(n, 1.0 / n) if mirror == "entropic" else rng.uniform(-1, 1, n)
                kw: dict[str, Any] = {"tol": tol, "max_iter": cap, "mirror": mirror}
                if with_lipschitz:
                    kw |= {"lipschitz": 3.0, "step_size": 1.0}
                else:
                    kw |= {"step_size": 0.4}
                out.append(((lambda x, c=c: x - c, x0), kw))
        return out

    return make


def _primal_norm(inst: Instance, v: Any) -> float:
    """l1 for the entropic map (simplex), l2 otherwise; by explicit sums."""
    d = np.asarray(v, dtype=np.float64)
    if inst[1]["mirror"] == "entropic":
        return float(sum(abs(float(e)) for e in d))
    return float(np.sqrt(sum(float(e) ** 2 for e in d)))


def _last_step(inst: Instance, result: Any) -> float:
    """``||x_{T-1} - x_T|| / η`` from the returned iterates (times ``2L`` for accelerated MD)."""
    it = result.iterates
    scale = 2.0 * float(inst[1]["lipschitz"]) if "lipschitz" in inst[1] else 1.0
    return _primal_norm(inst, it[-2] - it[-1]) * scale / float(inst[1]["step_size"])


def _best_step(inst: Instance, result: Any) -> float:
    """``min_t ||x_t - x_(t+1)|| / η`` over the returned iterates (composite MD)."""
    it = result.iterates
    eta = float(inst[1]["step_size"])
    return min(_primal_norm(inst, it[t] - it[t + 1]) / eta for t in range(len(it) - 1))


def _optimistic_step(inst: Instance, result: Any) -> float:
    """Euclidean optimistic MD: ``y_(T-1) - y_T = η ∇f(x_T)``, so the stopping quantity
    ``||y_(T-1) - y_T|| / η`` is ``||∇f(x_T)||``, from the returned last iterate."""
    return _primal_norm(inst, inst[0][0](np.array(result.x_last)))


def _composite(rng: np.random.Generator) -> list[Instance]:
    from reference.mirror_descent import Regularizer

    out: list[Instance] = []
    for (grad, x0), kw in _mirror(False, ("euclidean", "entropic"))(rng):
        reg = Regularizer(kind="entropy" if kw["mirror"] == "entropic" else "l1", weight=0.3)
        out.append(((grad, x0), {**kw, "regularizer": reg}))
    return out


def _simplex_projection_by_bisection(v: FloatArray) -> FloatArray:
    """Euclidean projection on the simplex: ``max(v - τ, 0)`` with ``τ`` by bisection
    (independent of the library's sort-based projection)."""
    lo, hi = float(np.min(v)) - 1.0, float(np.max(v))
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if float(np.sum(np.maximum(v - mid, 0.0))) > 1.0:
            lo = mid
        else:
            hi = mid
    out: FloatArray = np.maximum(v - 0.5 * (lo + hi), 0.0)
    return out / float(out.sum())


def _x_perturbed_gap(a: FloatArray, x: FloatArray, y: FloatArray, mu: float) -> float:
    """``max_j (xᵀA)_j + μ/2 ||x||² - min_x' [x'ᵀAy + μ/2 ||x'||²]`` (spec 19 §2)."""
    best = _simplex_projection_by_bisection(-(a @ y) / mu)
    upper = max(float(x @ a[:, j]) for j in range(a.shape[1])) + mu / 2 * float(x @ x)
    return upper - (float(best @ a @ y) + mu / 2 * float(best @ best))


def _asymp_stopping(inst: Instance, result: Any) -> float:
    """AsymP-GDA: the larger of the two runs' perturbed gaps, from ``(x, y)`` and the returned
    partners ``(y_a, x_b)``; the y-side game is ``-Aᵀ`` with the roles swapped."""
    a, mu = inst[0][0], inst[1]["mu"]
    y_a, x_b = (np.asarray(p) for p in result.partners)
    x, y = np.asarray(result.x), np.asarray(result.y)
    return max(_x_perturbed_gap(a, x, y_a, mu), _x_perturbed_gap(-a.T, y, x_b, mu))


def _dwh(rng: np.random.Generator) -> list[Instance]:
    del rng
    return [
        ((l0,), {"tol": tol, "max_steps": cap})
        for l0, tol, cap in (
            (1e-16, 1e-15, 50),
            (1e-16, 1e-15, 3),
            (1e-3, 1e-6, 1),
            (0.5, 1e-3, 50),
            (1e-8, 0.5, 2),
        )
    ]


def _dwh_gap(inst: Instance, result: Any) -> float:
    """``1 - s_K(l_0)``: the returned steps ``x (a + b x²)/(1 + c x²)`` applied to ``l_0``
    (``s_K`` maps ``[l_0, 1]`` into ``[l_K, 1]`` with ``l_K = s_K(l_0)``), clipped at 1."""
    x = float(inst[0][0])
    for a, b, c in np.asarray(result.params).tolist():
        x = min(1.0, x * (a + b * x * x) / (1.0 + c * x * x))
    return 1.0 - x


def _qps(rng: np.random.Generator) -> list[Instance]:
    from reference.qp_layers import QPSolverConfig

    out: list[Instance] = []
    settings: tuple[dict[str, Any], ...] = (
        {},
        {"max_iter": 1, "polish": False},
        {"max_iter": 3, "polish": False},
        {"tol": 1e-4, "polish": False},
        {"tol": 1e-14},
    )
    for kw in settings:
        n, m = 4, 6
        root = rng.normal(size=(n, n))
        q_mat = root @ root.T + 0.1 * np.eye(n)
        g = rng.normal(size=(m, n))
        h = g @ rng.normal(size=n) + rng.uniform(0.0, 1.0, size=m)  # strictly feasible
        out.append(((q_mat, rng.normal(size=n), g, h), {"config": QPSolverConfig(**kw)}))
    return out


def _kkt(inst: Instance, result: Any) -> float:
    """The documented scaled KKT residual (``kkt_residual``'s formula) of the returned
    ``(x, λ)``: stationarity, primal and dual infeasibility, complementarity, by loops."""
    q_mat, q, g, h = inst[0]
    x, lam = np.asarray(result.x), np.asarray(result.lam)
    n, m = len(q), len(h)
    grad = [
        sum(q_mat[i, j] * x[j] for j in range(n)) + q[i] + sum(g[k, i] * lam[k] for k in range(m))
        for i in range(n)
    ]
    slack = [h[k] - sum(g[k, j] * x[j] for j in range(n)) for k in range(m)]
    return float(
        max(
            max(abs(v) for v in grad) / (1.0 + max(abs(v) for v in q)),
            max(0.0, -min(slack)) / (1.0 + max(abs(v) for v in h)),
            max(0.0, -min(lam)),
            max(abs(lam[k] * slack[k]) for k in range(m)) / (1.0 + max(abs(v) for v in lam)),
        )
    )


def _armijo(rng: np.random.Generator) -> list[Instance]:
    from reference.divergence import ArmijoConfig

    out: list[Instance] = []
    for tol, cap in ((1e-3, 500), (1e-7, 30), (1e-9, 3000), (1e-12, 1)):
        zx, zy = rng.normal(size=(40, 5)), rng.normal(0.5, 1.0, size=(30, 5))
        cfg = ArmijoConfig(batch_size=None, max_iter=cap, tol=tol)
        out.append(((zx, zy, 0.5), {"config": cfg}))
    return out


def _armijo_mapping(inst: Instance, result: Any) -> float:
    """``||θ_T - θ_(T-1)|| / η_T`` from the returned last two points and last step size."""
    step = np.asarray(result.theta) - np.asarray(result.previous_theta)
    return float(np.sqrt(sum(float(v) ** 2 for v in step))) / float(result.steps[-1])


def _ascent(with_rng: bool) -> Callable[[np.random.Generator], list[Instance]]:
    def make(rng: np.random.Generator) -> list[Instance]:
        from reference.inconsistency import SoftmaxModel, init_params

        model = SoftmaxModel(kind="linear", n_inputs=3, n_classes=3)
        out: list[Instance] = []
        for steps in (1, 2, 8, 60):
            theta = init_params(model, rng=rng)
            x = rng.normal(size=(5, 3))
            kw: dict[str, Any] = {"rho": 0.1, "steps": steps}
            if with_rng:
                out.append(((model, theta, x), {**kw, "rng": np.random.default_rng(steps)}))
            else:
                noise = rng.normal(size=theta.shape)
                out.append(((model, theta, x, noise), kw))
        return out

    return make


def _one_minus_alignment(inst: Instance, result: Any) -> float:
    """``1 - |cos(δ_K, δ_(K-1))|`` from the returned ``delta`` and ``previous_delta``."""
    a, b = np.asarray(result.delta), np.asarray(result.previous_delta)
    na, nb = float(np.sqrt(sum(v * v for v in a))), float(np.sqrt(sum(v * v for v in b)))
    return 1.0 - (abs(float(sum(a * b))) / (na * nb) if na * nb > 0.0 else 0.0)


def _ghost(rng: np.random.Generator) -> list[Instance]:
    out: list[Instance] = []
    for alpha, cap, tol in ((10.0, 500, 1e-6), (1e3, 5, 1e-10), (0.5, 2000, 1e-12), (1.0, 0, 1e-3)):
        n = 4
        root = rng.normal(size=(n, n))
        q_mat = root @ root.T + 0.5 * np.eye(n)
        c_mat = rng.normal(size=(2, n))
        y0 = rng.normal(size=n)
        args = (q_mat, rng.normal(size=n), c_mat, c_mat @ y0, rng.normal(size=n), y0)
        out.append((args, {"alpha": alpha, "max_iter": cap, "tol": tol}))
    return out


def _ghost_projected_gradient(inst: Instance, result: Any) -> float:
    """``||Π(Q y + q + d/α)||`` with ``Π = N Nᵀ`` from an SVD null-space basis ``N`` of ``C``
    (the function uses ``I - C⁺C``)."""
    from scipy.linalg import null_space

    q_mat, q, c_mat, _, d, _ = inst[0]
    alpha = float(inst[1]["alpha"])
    basis = null_space(c_mat)
    grad = q_mat @ np.asarray(result.y) + q + d / alpha
    return float(np.linalg.norm(basis @ (basis.T @ grad)))


def _symmetric_gap(inst: Instance, result: Any) -> float:
    """Gap of ``f(x, y) = xᵀAy + μ/2 ||x||² - μ/2 ||y||²``: ``max_y' f(x, y') - min_x' f(x', y)``."""
    a, mu = inst[0][0], inst[1]["mu"]
    x, y = np.asarray(result.x), np.asarray(result.y)
    by = _simplex_projection_by_bisection(a.T @ x / mu)
    bx = _simplex_projection_by_bisection(-(a @ y) / mu)
    upper = x @ a @ by + mu / 2 * (x @ x) - mu / 2 * (by @ by)
    lower = bx @ a @ y + mu / 2 * (bx @ bx) - mu / 2 * (y @ y)
    return float(upper - lower)


def _tol(default: float) -> Callable[[Instance], float]:
    return lambda inst: float(inst[1].get("tol", default))


ROWS = (
    *(
        Row(f"reference.games:{name}", _games, _gap, _tol(0.0))
        for name in ("rm_plus", "prm_plus", "drs", "ssn", "hybrid")
    ),
    Row("reference.perturbation:parameter_free", _pf, _gap, _tol(0.0)),
    *(
        Row(f"reference.perturbation:{name}", _gda_games, _gap, _tol(0.0))
        for name in ("gda", "ogda", "omwu")
    ),
    Row("reference.perturbation:asymp_gda_side", _gda_side, _x_side_gap, _tol(0.0)),
    *(
        Row(f"reference.extensive:{name}", _efg(False), _efg_nash_conv, _tol(0.0))
        for name in ("dgda", "dogda", "dmwu")
    ),
    *(
        Row(f"reference.extensive:{name}", _efg(True), _efg_nash_conv, _tol(0.0))
        for name in ("asymp_dgda", "symp_dgda")
    ),
    Row("reference.perturbation:symp_gda", _gda_side, _symmetric_gap, _tol(0.0)),
    Row("reference.perturbation:asymp_gda", _gda_side, _asymp_stopping, _tol(0.0)),
    Row("reference.activations:dwh_sign", _dwh, _dwh_gap, _tol(1e-15)),
    Row(
        "reference.divergence:armijo_ascent",
        _armijo,
        _armijo_mapping,
        lambda inst: float(inst[1]["config"].tol),
    ),
    *(
        Row(f"reference.inconsistency:{name}", _ascent(rng), _one_minus_alignment, _tol(1e-8))
        for name, rng in (("inconsistency_ascent", False), ("local_inconsistency", True))
    ),
    Row(
        "reference.qp_layers:ghost_pgd",
        _ghost,
        _ghost_projected_gradient,
        lambda inst: float(inst[1]["tol"]) / float(inst[1]["alpha"]),
    ),
    Row("reference.qp_layers:solve_qp", _qps, _kkt, lambda inst: float(inst[1]["config"].tol)),
    *(
        Row(f"reference.mirror_descent:{name}", _mirror(lip, mirrors), _last_step, _tol(0.0))
        for name, lip, mirrors in (
            ("mirror_descent", False, ("euclidean", "entropic")),
            ("mirror_prox", False, ("euclidean", "entropic")),
            ("accelerated_mirror_descent", True, ("euclidean", "entropic")),
        )
    ),
    Row(
        "reference.mirror_descent:optimistic_mirror_descent",
        _mirror(False, ("euclidean",)),
        _optimistic_step,
        _tol(0.0),
    ),
    Row("reference.mirror_descent:composite_mirror_descent", _composite, _best_step, _tol(0.0)),
    Row(
        "reference.tsp:two_opt",
        _tours,
        _best_two_opt_delta,
        lambda inst: float(inst[1]["min_improvement"]),
    ),
)

#: Iterative algorithms whose stopping quantity is not recomputable from the returned output.
NOT_COVERED: dict[str, str] = {
    "reference.activations:fit_rational": "converged is scipy least_squares' status > 0 (its "
    "ftol/xtol/gtol tests on internally scaled variables): no stopping quantity of ours",
    "reference.attention_queries:recover_low_rank": "flag of the inner nuclear_norm_admm solve "
    "(see there)",
    "reference.attention_queries:nuclear_norm_admm": "only the constraint half (||A(W) - t|| / "
    "||t||) is recomputable; the fixed-point half needs the last x, z_(k-1) and the scaled "
    "dual u, not returned",
    "reference.attention_queries:passive_fit": "converged is scipy L-BFGS-B's success flag "
    "(tests on its own iterates)",
    "reference.mirror_descent:stochastic_mirror_descent": "no tol argument: converged is "
    "always False (a noisy gradient-mapping norm is no stopping test)",
    "reference.qp_layers:solve_qp_active_set": "no tolerance: a subset is accepted by fixed "
    "tests (Gy <= h + 1e-9, λ_S >= -1e-12) or ValueError is raised; converged is always True",
    "reference.qp_layers:ffo_grads": "conjunction of the inner solve_qp flags on QPs built "
    "internally; their solutions are not returned",
    "reference.qp_layers:kkt_grads": "one direct KKT linear solve, no tolerance: converged is "
    "always True",
    "reference.qp_layers:penalty_grads": "conjunction of the inner solve_qp flags on the "
    "penalised QPs built internally; their solutions are not returned",
}


def _iterative_algorithms() -> set[str]:
    found: set[str] = set()
    for algo in all_algorithms():
        fn = resolve_name(algo.function)
        if inspect.isclass(fn):
            continue
        result = typing.get_type_hints(fn).get("return")
        if dataclasses.is_dataclass(result) and "converged" in {
            f.name for f in dataclasses.fields(result)
        }:
            found.add(algo.function)
    return found


def test_rows_and_exclusions_cover_every_iterative_algorithm() -> None:
    covered = {row.function for row in ROWS}
    assert not covered & set(NOT_COVERED)
    assert covered | set(NOT_COVERED) == _iterative_algorithms()
    assert len(covered) == 29  # of 38 iterative algorithms; NOT_COVERED says why for the rest


@pytest.mark.parametrize("row", ROWS, ids=[row.function for row in ROWS])
def test_converged_is_the_recomputed_stopping_test(row: Row) -> None:
    fn = resolve_name(row.function)
    outcomes = []
    for inst in row.instances(np.random.default_rng(22)):
        result = fn(*inst[0], **inst[1])
        quantity, tol = row.quantity(inst, result), row.tol(inst)
        slack = ROUNDING * max(abs(tol), abs(quantity), 1e-300)
        assert isinstance(result.converged, bool)
        if result.converged:
            assert quantity <= tol + slack, (row.function, inst[1], quantity, tol)
        else:
            assert quantity >= tol - slack, (row.function, inst[1], quantity, tol)
        outcomes.append(result.converged)
    assert outcomes, row.function


#: The games family: one convention for ``tol`` (issue 22): absolute, in payoff units.
GAMES_FAMILY = (
    *(f"reference.games:{n}" for n in ("rm_plus", "prm_plus", "drs", "ssn", "hybrid")),
    *(
        f"reference.perturbation:{n}"
        for n in (
            "parameter_free",
            "asymp_gda",
            "asymp_gda_side",
            "symp_gda",
            "gda",
            "ogda",
            "omwu",
        )
    ),
    *(f"reference.extensive:{n}" for n in ("asymp_dgda", "symp_dgda", "dgda", "dogda", "dmwu")),
)


@pytest.mark.parametrize("function", GAMES_FAMILY)
def test_games_family_documents_tol_as_absolute_payoff_units(function: str) -> None:
    doc = inspect.getdoc(resolve_name(function)) or ""
    lines = doc.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("tol:"))
    entry = " ".join(lines[start : start + 3])
    assert "absolute" in entry, (function, entry)
    assert "payoff units" in entry, (function, entry)


def test_ssn_tol_is_absolute_at_scale_1e6() -> None:
    # tol = 1e-3 on a game of scale 1e6 is a relative 1e-9: converged means the absolute gap
    from reference.games import ssn

    a = np.array([[3.0, -1.0], [-2.0, 4.0]]) / 10.0
    small, large = ssn(a, tol=1e-3), ssn(1e6 * a, tol=1e-3)
    assert small.converged
    assert matrix_game_gap(1e6 * a, large.x, large.y) <= 1e-3
    assert large.converged
