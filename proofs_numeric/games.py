r"""Numeric checks of spec 01 (Yang, Gao, Lin, Kroer, arXiv:2512.12910): DRS + SSN for games.

Theorem checks (spec 01, Section 5; the letters are the spec's, the paper's own
numbers are given where the spec confirms them):

* :func:`lemma_equilibria_lift_to_fixed_points` / :func:`lemma_fixed_points_are_equilibria`
  — Thm A (the lifted fixed-point set ``\hat Z^*``): ``R(L(z*)) = 0`` for LP equilibria,
  and an SSN point with ``||R(u)|| <= 1e-12`` projects to an equilibrium.
* :func:`theorem_b1_gap_bound` — Thm B1 (the paper's "Theorem 3" type):
  ``gap(P(u)) <= diam(C) (1/γ + ||A||_2) ||R(u)||`` with ``diam(C) = 2`` [derived].
* :func:`theorem_b2_lift_identity` / :func:`theorem_b2_sqrt_gap` — Thm B2:
  ``||R(L(z))|| = ||z - Π_C(z - γMz)|| <= sqrt(γ gap(z))`` [derived].
* :func:`theorem_c_firm_nonexpansive`, :func:`theorem_c_jacobian_spectrum`,
  :func:`theorem_c_newton_forms`, :func:`theorem_c_drs_monotone` — Thm C (operator facts).
* :func:`theorem_4_quadratic_tail` — the paper's Theorem 4 (local quadratic convergence),
  measured as the fitted slope of ``log r_{k+1}`` on ``log r_k`` over the tail (``>= 1.5``).
* :func:`rm_plus_regret_bound`, :func:`averaging_identity`, :func:`prm_plus_rate` — the
  regret facts of Section 5 (standard / derivable).
* :func:`hybrid_global_convergence` — PSSN and HPSSN reach ``eps`` on every generator.

Error budgets are module constants, each with the reason for its size.

Classical facts about zero-sum matrix games checked numerically.

Theorem checks:

* :func:`von_neumann` — the minimax theorem, ``min_x max_y xᵀAy = max_y min_x xᵀAy``,
  measured on the strategies the LP oracle returns.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from proofs_numeric._independent import matrix_game_gap, simplex_violation
from proofs_numeric._registry import ProveProfile, impl, register, worst
from proofs_numeric._result import BoundCheck
from reference._arrays import FloatArray, as_float_array
from reference.games import (
    EquilibriumResult,
    GameSolution,
    default_step_size,
    drs,
    drs_residual,
    hybrid,
    lift,
    newton_direction,
    prm_plus,
    prm_plus_trajectory,
    project_simplex,
    residual_jacobian,
    rm_plus,
    rm_plus_trajectory,
    solve_lp,
    ssn,
)
from reference.games.regret import Averaging

__all__ = [
    "AVERAGE_WEIGHTS",
    "FIXED_POINT_ATOL",
    "HISTORY_ROUNDING",
    "MINIMAX_ATOL",
    "QUADRATIC_SLOPE",
    "RATE_SLOPE",
    "averaging_identity",
    "averaging_rules",
    "game_generators",
    "hybrid_global_convergence",
    "lemma_equilibria_lift_to_fixed_points",
    "lemma_fixed_points_are_equilibria",
    "prm_plus_rate",
    "prove_averaging_rules",
    "prove_drs_operator_facts",
    "prove_fixed_points",
    "prove_hybrid_global",
    "prove_prm_plus_rate",
    "prove_quadratic_tail",
    "prove_regret_facts",
    "prove_residual_gap",
    "prove_von_neumann",
    "rm_plus_regret_bound",
    "tail_slope",
    "theorem_4_quadratic_tail",
    "theorem_b1_gap_bound",
    "theorem_b2_lift_identity",
    "theorem_b2_sqrt_gap",
    "theorem_c_drs_monotone",
    "theorem_c_firm_nonexpansive",
    "theorem_c_jacobian_spectrum",
    "theorem_c_newton_forms",
    "von_neumann",
    "weighted_rps",
]

PAPER = "Yang, Gao, Lin, Kroer, arXiv:2512.12910"
#: Thm A: ``||R(L(z*))||`` at an LP equilibrium, relative to ``max(1, max|a|)``.  HiGHS solves
#: to feasibility 1e-10 and the strategies are clipped and renormalised (spec: 1e-9).
FIXED_POINT_ATOL = 1e-9
#: Relative budget of the derived inequalities B1/B2 and of the exact identities (spec: 1e-10).
IDENTITY_RTOL = 1e-10
#: Absolute floor of the identity budgets: a few hundred ulps of the quantities involved.
IDENTITY_ATOL = 1e-13
#: Theorem 4: the fitted tail slope must be at least this (quadratic = 2; spec: >= 1.5).
QUADRATIC_SLOPE = 1.5
#: Rounding budget (times max|a|) when the reported last residual and the one recomputed at
#: the returned point are compared: both are ~1e-16 there and two correct ways of computing
#: ||R(u)|| (the fast path's refined solve, the reference's dense one) differ by ~1e-17.
HISTORY_ROUNDING = 1e-14
#: PRM+ linear-average gap must decay at least like T^-0.9 (spec 01, Section 5).
RATE_SLOPE = -0.9


def _scale(payoff: FloatArray) -> float:
    return max(1.0, float(np.max(np.abs(payoff))))


def _gap(payoff: FloatArray, x: FloatArray, y: FloatArray) -> float:
    return float(np.max(x @ payoff) - np.min(payoff @ y))


def _proj_c(payoff: FloatArray, z: FloatArray) -> FloatArray:
    m = payoff.shape[0]
    return np.concatenate([project_simplex(z[:m]), project_simplex(z[m:])])


def _mul_m(payoff: FloatArray, z: FloatArray) -> FloatArray:
    m = payoff.shape[0]
    return np.concatenate([payoff @ z[m:], -(z[:m] @ payoff)])


def _params(payoff: FloatArray, **extra: object) -> dict[str, object]:
    return {"m": payoff.shape[0], "n": payoff.shape[1], **extra}


# ------------------------------------------------------------------------------- Thm A
def lemma_equilibria_lift_to_fixed_points(payoff: object) -> BoundCheck:
    """Thm A (->): for the LP equilibrium ``z*``, ``||R(L(z*))|| <= 1e-9 · max(1, max|a|)``.

    Args:
        payoff: ``(m, n)`` finite matrix.

    Returns:
        ``measured = ||R(L(z*))||``, ``bound = 0``, ``atol = FIXED_POINT_ATOL · scale``.
    """
    a = as_float_array("payoff", payoff, ndim=2)
    sol = solve_lp(a)  # the LP oracle, not routed
    u = impl(lift)(a, sol.x, sol.y)
    return BoundCheck(
        claim="equilibria lift to fixed points: ||R(L(z*))|| = 0",
        paper=PAPER,
        theorem="Thm A (lifted fixed-point set; exact form reconstructed)",
        measured=float(np.linalg.norm(impl(drs_residual)(a, u))),
        bound=0.0,
        sense="<=",
        atol=FIXED_POINT_ATOL * _scale(a),
        params=_params(a),
    )


def lemma_fixed_points_are_equilibria(
    payoff: object, *, solver: Callable[..., EquilibriumResult] | None = None
) -> BoundCheck:
    """Thm A (<-): a point with ``||R(u)|| <= 1e-12`` projects to an equilibrium.

    Runs ``solver`` (SSN) with ``tol_res``-driven stopping (``tol = 1e-300`` so only the
    residual test stops it), then measures ``max(gap(x, y), |max_j (Aᵀx)_j - v*|)`` of the
    returned pair, the gap recomputed by :func:`~proofs_numeric._independent.matrix_game_gap`
    (the result's own ``gap`` is not read), against ``1e-9 · scale`` (LP oracle for ``v*``).  A run may also stop with
    ``gap(P(u)) == 0`` exactly (degenerate games) before ``||R||`` is tiny; the
    conclusion is then met directly.  The final residual is reported in ``params``.
    """
    a = as_float_array("payoff", payoff, ndim=2)
    res = (impl(ssn) if solver is None else solver)(a, tol=1e-300)
    residual = float("inf") if res.residual is None else res.residual
    value = solve_lp(a).value
    gap = matrix_game_gap(a, res.x, res.y)
    measured = max(gap, abs(float(np.max(np.asarray(res.x) @ a)) - value))
    return BoundCheck(
        claim="||R(u)|| <= 1e-12 implies gap(P(u)) ~ 0 and the LP value",
        paper=PAPER,
        theorem="Thm A (fixed points project to equilibria)",
        measured=measured,
        bound=0.0,
        sense="<=",
        atol=FIXED_POINT_ATOL * _scale(a),
        params=_params(a, residual=residual, newton_iterations=res.newton_iterations),
    )


# ------------------------------------------------------------------------------- Thm B
def theorem_b1_gap_bound(payoff: object, u: object) -> BoundCheck:
    """Thm B1: ``gap(P(u)) <= 2 (1/γ + ||A||_2) ||R(u)||`` for every ``u`` (γ = default).

    Proof sketch (spec): ``ξ = (u - z)/γ ∈ N_C(z)`` and ``Mz + ξ = R/γ + MR``; take the
    max over ``z' ∈ C`` and use Cauchy–Schwarz with ``diam(C) = 2``.
    """
    a = as_float_array("payoff", payoff, ndim=2)
    point = as_float_array("u", u, shape=(sum(a.shape),))
    step_size = default_step_size(a)
    r = impl(drs_residual)(a, point, step_size=step_size)
    z = _proj_c(a, point)
    m = a.shape[0]
    bound = 2.0 * (1.0 / step_size + float(np.linalg.norm(a, 2))) * float(np.linalg.norm(r))
    return BoundCheck(
        claim="gap(P(u)) <= diam(C) (1/γ + ||A||) ||R(u)||",
        paper=PAPER,
        theorem='Thm B1 ("Theorem 3" type; constants derived)',
        measured=_gap(a, z[:m], z[m:]),
        bound=bound,
        sense="<=",
        rtol=IDENTITY_RTOL,
        atol=IDENTITY_ATOL * _scale(a),
        params=_params(a, step_size=step_size, residual=float(np.linalg.norm(r))),
    )


def theorem_b2_lift_identity(payoff: object, x: object, y: object) -> BoundCheck:
    """Thm B2 identity: ``||R(L(z))|| == ||z - Π_C(z - γMz)||`` for ``z ∈ C`` (exact)."""
    a = as_float_array("payoff", payoff, ndim=2)
    z = np.concatenate([as_float_array("x", x, ndim=1), as_float_array("y", y, ndim=1)])
    step_size = default_step_size(a)
    lifted = impl(lift)(a, x, y, step_size=step_size)
    lhs = float(np.linalg.norm(impl(drs_residual)(a, lifted, step_size=step_size)))
    rhs = float(np.linalg.norm(z - _proj_c(a, z - step_size * _mul_m(a, z))))
    return BoundCheck(
        claim="||R(L(z))|| = ||z - Π_C(z - γ M z)||",
        paper=PAPER,
        theorem="Thm B2 (identity, derived)",
        measured=lhs,
        bound=rhs,
        sense="==",
        rtol=1e-9,
        atol=IDENTITY_ATOL * _scale(a),
        params=_params(a, step_size=step_size),
    )


def theorem_b2_sqrt_gap(payoff: object, x: object, y: object) -> BoundCheck:
    """Thm B2 bound: ``||R(L(z))|| <= sqrt(γ gap(z))`` for ``z ∈ C``."""
    a = as_float_array("payoff", payoff, ndim=2)
    xs = as_float_array("x", x, ndim=1)
    ys = as_float_array("y", y, ndim=1)
    step_size = default_step_size(a)
    lifted = impl(lift)(a, xs, ys, step_size=step_size)
    lhs = float(np.linalg.norm(impl(drs_residual)(a, lifted, step_size=step_size)))
    gap = max(_gap(a, xs, ys), 0.0)
    return BoundCheck(
        claim="||R(L(z))|| <= sqrt(γ gap(z))",
        paper=PAPER,
        theorem="Thm B2 (bound, derived)",
        measured=lhs,
        bound=float(np.sqrt(step_size * gap)),
        sense="<=",
        rtol=IDENTITY_RTOL,
        atol=1e-7 * np.sqrt(_scale(a) * step_size),  # sqrt of a rounding-level gap (~1e-14)
        params=_params(a, step_size=step_size, gap=gap),
    )


# ------------------------------------------------------------------------------- Thm C
def theorem_c_firm_nonexpansive(payoff: object, u: object, v: object) -> BoundCheck:
    """Thm C: ``<R(u) - R(v), u - v> >= ||R(u) - R(v)||²`` (T firmly nonexpansive)."""
    a = as_float_array("payoff", payoff, ndim=2)
    pu = as_float_array("u", u, ndim=1)
    pv = as_float_array("v", v, ndim=1)
    residual = impl(drs_residual)
    diff = residual(a, pu) - residual(a, pv)
    inner = float(diff @ (pu - pv))
    sq = float(diff @ diff)
    return BoundCheck(
        claim="<R(u) - R(v), u - v> >= ||R(u) - R(v)||²",
        paper=PAPER,
        theorem="Thm C (firm nonexpansiveness of T)",
        measured=inner,
        bound=sq,
        sense=">=",
        rtol=IDENTITY_RTOL,
        atol=IDENTITY_ATOL * float(1.0 + (pu - pv) @ (pu - pv)),
        params=_params(a),
    )


def theorem_c_jacobian_spectrum(payoff: object, u: object) -> BoundCheck:
    """Thm C: every eigenvalue of ``J(u)`` satisfies ``|λ - 1/2| <= 1/2`` (budget 1e-9)."""
    a = as_float_array("payoff", payoff, ndim=2)
    eig = np.linalg.eigvals(impl(residual_jacobian)(a, u))
    return BoundCheck(
        claim="max |λ(J) - 1/2| <= 1/2",
        paper=PAPER,
        theorem="Thm C (J = (I - Q)/2, Q orthogonal)",
        measured=float(np.max(np.abs(eig - 0.5))),
        bound=0.5,
        sense="<=",
        atol=1e-9,
        params=_params(a),
    )


def theorem_c_newton_forms(payoff: object, u: object, mu: float) -> BoundCheck:
    """Thm C: the W-free Newton system gives the same ``d`` as ``(J + μI) d = -R``."""
    a = as_float_array("payoff", payoff, ndim=2)
    point = as_float_array("u", u, ndim=1)
    d_free = impl(newton_direction)(a, point, mu)
    jac = impl(residual_jacobian)(a, point)
    d_w = np.linalg.solve(jac + mu * np.eye(point.size), -impl(drs_residual)(a, point))
    scale = max(1.0, float(np.linalg.norm(d_w)))
    return BoundCheck(
        claim="W-free Newton direction equals the W-form direction",
        paper=PAPER,
        theorem="Thm C (Section 3.4 equivalence)",
        measured=float(np.max(np.abs(d_free - d_w))) / scale,
        bound=0.0,
        sense="<=",
        atol=1e-9,
        params=_params(a, mu=mu),
    )


def theorem_c_drs_monotone(payoff: object, *, iterations: int = 200) -> BoundCheck:
    """Thm C: along plain DRS, ``||R(u_k)||`` is nonincreasing (largest increase <= 1e-12).

    The DRS iterates are not returned, so the history is recomputed from runs of
    ``k = 1, ..., iterations`` steps (cheap at these sizes): ``||R(u_k)||`` is evaluated at
    each run's returned ``u`` with the residual of spec 01 (``drs_residual``), not read from
    ``residual_history``.
    """
    a = as_float_array("payoff", payoff, ndim=2)
    run = impl(drs)
    hist = np.array(
        [
            float(np.linalg.norm(drs_residual(a, run(a, tol=1e-300, max_iter=k).u)))
            for k in range(1, iterations + 1)
        ]
    )
    increase = float(np.max(np.diff(hist), initial=0.0))
    return BoundCheck(
        claim="||R(u_{k+1})|| <= ||R(u_k)|| along DRS",
        paper=PAPER,
        theorem="Thm C (Fejér monotonicity of DRS)",
        measured=increase,
        bound=0.0,
        sense="<=",
        atol=1e-12 * _scale(a),
        params=_params(a, iterations=iterations),
    )


# ------------------------------------------------------------------------------- Thm 4
def tail_slope(residuals: FloatArray, *, floor: float = 1e-15, points: int = 4) -> float:
    """Least-squares slope of ``log r_{k+1}`` on ``log r_k`` over the last ``points``
    residuals above ``floor`` (``nan`` when fewer than 3 such residuals exist)."""
    r = np.asarray(residuals, dtype=np.float64)
    r = r[r > floor][-points:]
    if r.size < 3:
        return float("nan")
    xs, ys = np.log(r[:-1]), np.log(r[1:])
    slope = np.polyfit(xs, ys, 1)[0]
    return float(slope)


def theorem_4_quadratic_tail(
    payoff: object, *, solver: Callable[..., EquilibriumResult] | None = None
) -> BoundCheck:
    """Theorem 4 (local quadratic convergence), measured: SSN from ``L(uniform)`` with
    ``max_iter = 300`` must reach ``||R|| <= 1e-12`` at the point it returns (recomputed as
    ``||drs_residual(A, u)||`` from the returned ``u``, and the returned pair's recomputed gap
    must be below ``1e-9 · scale``), and the fitted tail slope of
    ``log r_{k+1}`` on ``log r_k`` (last 3-4 residuals above 1e-15) must be ``>= 1.5``.

    A run that never reaches ``1e-12`` reports ``measured = -inf``.  SSN returns no
    iterates, so the slope is fitted to ``residual_history``; the history's last entry must
    agree with the residual recomputed at the returned ``u`` (relative 1e-6, plus
    ``HISTORY_ROUNDING · max|a|`` for rounding near 1e-16), so a history
    that does not belong to the returned point also reports ``-inf``.  The ratios
    ``r_{k+1}/r_k²`` are reported in ``params`` (not asserted, spec 01).
    """
    a = as_float_array("payoff", payoff, ndim=2)
    res = (impl(ssn) if solver is None else solver)(a, tol=1e-300, max_iter=300)
    hist = np.asarray(res.residual_history, dtype=np.float64)
    final = (
        float("inf")
        if res.u is None
        else float(np.linalg.norm(drs_residual(a, np.asarray(res.u, dtype=np.float64))))
    )
    reached = (
        bool(hist.size)
        and final <= 1e-12 * _scale(a)
        and abs(float(hist[-1]) - final) <= 1e-6 * final + HISTORY_ROUNDING * _scale(a)
        and matrix_game_gap(a, res.x, res.y) <= 1e-9 * _scale(a)
    )
    slope = tail_slope(hist) if reached else float("-inf")
    tail = hist[hist > 1e-15][-4:]
    ratios = [float(tail[i + 1] / tail[i] ** 2) for i in range(tail.size - 1)]
    return BoundCheck(
        claim="tail slope of log r_{k+1} vs log r_k >= 1.5 (quadratic: 2)",
        paper=PAPER,
        theorem="Theorem 4 (local quadratic convergence) [paper]",
        measured=slope,
        bound=QUADRATIC_SLOPE,
        sense=">=",
        params=_params(
            a,
            newton_iterations=res.newton_iterations,
            final_residual=final,
            ratios=ratios,
        ),
        series={"r_{k+1} against r_k": (tuple(tail[:-1].tolist()), tuple(tail[1:].tolist()))},
        xlabel="||R(u_k)||",
        ylabel="||R(u_{k+1})||",
        scatter=True,
        slope=QUADRATIC_SLOPE,
    )


# ------------------------------------------------------------------------------- regret facts
def _played_regrets(a: FloatArray, xs: object, ys: object) -> tuple[FloatArray, FloatArray]:
    """Instantaneous regret vectors recomputed from the played strategies (row minimises):
    ``r^t_x = x_tᵀAy_t - Ay_t`` and ``r^t_y = (x_tᵀA) - x_tᵀAy_t``."""
    px = np.asarray(xs, dtype=np.float64)
    py = np.asarray(ys, dtype=np.float64)
    if (
        px.ndim != 2
        or py.ndim != 2
        or px.shape[1:] != (a.shape[0],)
        or py.shape[1:] != (a.shape[1],)
    ):
        nan = np.full((1, 1), np.inf)
        return nan, nan
    value = np.einsum("ti,ij,tj->t", px, a, py)
    return value[:, None] - py @ a.T, px @ a - value[:, None]


def rm_plus_regret_bound(payoff: object, *, iterations: int = 200) -> BoundCheck:
    """RM+ (any losses): ``Reg_T = max_i Σ_t r^t_i <= sqrt(Σ_t ||r^t||²)`` for both players,
    with the regrets recomputed from the *played* strategies ``xs``, ``ys`` (the trajectory's
    own ``regrets``/``states`` fields are only cross-checked: ``Reg <= ||R^T||`` with the
    returned state).  The worst inequality is reported, budget 1e-9 relative."""
    a = as_float_array("payoff", payoff, ndim=2)
    tr = impl(rm_plus_trajectory)(a, iterations=iterations)
    rx, ry = _played_regrets(a, tr.xs, tr.ys)
    checks: list[BoundCheck] = []
    for regrets, states in ((rx, tr.states_x), (ry, tr.states_y)):
        reg = float(regrets.sum(axis=0).max())
        state = float(np.linalg.norm(np.asarray(states)[-1]))
        energy = float(np.sqrt(np.sum(regrets**2)))
        for measured, bound, what in (
            (reg, energy, "Reg <= sqrt(Σ||r||²) (played regrets)"),
            (reg, state, "Reg <= ||R^T|| (returned state)"),
        ):
            checks.append(
                BoundCheck(
                    claim=f"RM+ regret bound: {what}",
                    paper="Tammelin (2014); Farina, Kroer, Sandholm (2021); Yang, Gao, Lin, Kroer (arXiv:2512.12910)",
                    theorem="RM+ regret bound (standard)",
                    measured=measured,
                    bound=bound,
                    sense="<=",
                    rtol=1e-9,
                    atol=1e-12 * _scale(a),
                    params=_params(a, iterations=iterations),
                )
            )
    return worst(checks)


def averaging_identity(
    payoff: object, *, iterations: int = 200, predictive: bool = True
) -> BoundCheck:
    """``T · gap(x̄, ȳ) == Reg_x(T) + Reg_y(T)`` for simultaneous play (budget 1e-9 T max|a|).

    ``x̄, ȳ`` are recomputed from the played strategies; ``Reg`` is read from the regret
    vectors the trajectory *reports* (``regrets_x``, ``regrets_y``), so the identity checks
    that the reported regrets belong to the played strategies (with both sides recomputed
    from ``xs, ys`` it would hold for any sequence).
    """
    a = as_float_array("payoff", payoff, ndim=2)
    run = impl(prm_plus_trajectory) if predictive else impl(rm_plus_trajectory)
    tr = run(a, iterations=iterations)
    x_bar, y_bar = np.asarray(tr.xs).mean(axis=0), np.asarray(tr.ys).mean(axis=0)
    reg_x = float(np.asarray(tr.regrets_x).sum(axis=0).max())
    reg_y = float(np.asarray(tr.regrets_y).sum(axis=0).max())
    return BoundCheck(
        claim="T gap(x̄, ȳ) = Reg_x + Reg_y (uniform averages, simultaneous play)",
        paper="Yang, Gao, Lin, Kroer (arXiv:2512.12910) (standard)",
        theorem="averaging identity",
        measured=iterations * _gap(a, x_bar, y_bar),
        bound=reg_x + reg_y,
        sense="==",
        atol=1e-9 * iterations * _scale(a),
        params=_params(a, iterations=iterations),
    )


def prm_plus_rate(payoff: object, *, t_min: int = 100, t_max: int = 10_000) -> BoundCheck:
    """PRM+ linear-average gap decays like ``T^-1`` or faster: the fitted slope of
    ``log gap`` on ``log T`` over ``T ∈ [t_min, t_max]`` must be ``<= -0.9``.

    The gap is recomputed (:func:`~proofs_numeric._independent.matrix_game_gap`) from the
    pair returned by separate runs with ``max_iter = T`` at 8 geometrically spaced ``T``, not
    read from ``gap_history``.  Gaps that reach exactly 0 count as faster than any power."""
    a = as_float_array("payoff", payoff, ndim=2)
    run = impl(prm_plus)
    ts = np.unique(np.geomspace(t_min, t_max, 8).astype(int))
    gaps = np.array(
        [
            matrix_game_gap(
                a, (r := run(a, tol=1e-300, max_iter=int(t), averaging="linear")).x, r.y
            )
            for t in ts
        ]
    )
    hist = gaps
    if np.any(gaps <= 0.0):
        slope = float("-inf")
    else:
        slope = float(np.polyfit(np.log(ts), np.log(gaps), 1)[0])
    return BoundCheck(
        claim="slope of log gap(linear average) vs log T <= -0.9",
        paper=PAPER + "; Farina, Kroer, Sandholm (2021)",
        theorem="PRM+ rate (empirical, Yang, Gao, Lin, Kroer, arXiv:2512.12910)",
        measured=slope,
        bound=RATE_SLOPE,
        sense="<=",
        params=_params(a, t_min=t_min, t_max=t_max, final_gap=float(hist[-1])),
        series={"gap": (tuple(float(t) for t in ts), tuple(float(g) for g in gaps))},
        xlabel="iterations T",
        ylabel="gap of the linear average",
        scatter=True,
        slope=RATE_SLOPE,
    )


# ------------------------------------------------------------------------------- hybrid
def game_generators() -> dict[str, Callable[[np.random.Generator, int, int], FloatArray]]:
    """The instance generators of Yang, Gao, Lin, Kroer (arXiv:2512.12910): random and degenerate games."""

    def skew(rng: np.random.Generator, m: int, n: int) -> FloatArray:
        b = rng.uniform(-1.0, 1.0, size=(m, m))
        out: FloatArray = b - b.T
        return out

    def duplicated(rng: np.random.Generator, m: int, n: int) -> FloatArray:
        base = rng.uniform(-1.0, 1.0, size=(max(1, m // 2), n))
        out: FloatArray = base[rng.integers(base.shape[0], size=m)]
        return out

    return {
        "uniform": lambda rng, m, n: rng.uniform(-1.0, 1.0, size=(m, n)),
        "normal": lambda rng, m, n: rng.standard_normal((m, n)),
        "integer": lambda rng, m, n: rng.integers(-2, 3, size=(m, n)).astype(np.float64),
        "rank_one": lambda rng, m, n: np.outer(rng.uniform(-1, 1, m), rng.uniform(-1, 1, n)),
        "duplicated_rows": duplicated,
        "skew_symmetric": skew,
    }


def hybrid_global_convergence(
    payoff: object, *, mode: str = "PSSN", tol: float = 1e-10
) -> BoundCheck:
    """The hybrid reaches ``gap <= tol`` (and the LP value within ``tol + 1e-9``) from the
    default start, within its default iteration cap: global convergence, measured."""
    a = as_float_array("payoff", payoff, ndim=2)
    res = impl(hybrid)(a, tol=tol, mode=mode)
    value = solve_lp(a).value
    gap = matrix_game_gap(a, res.x, res.y)  # recomputed: the result's own gap is not read
    err = max(gap, abs(float(np.asarray(res.x) @ a @ np.asarray(res.y)) - value) - 1e-9 * _scale(a))
    return BoundCheck(
        claim=f"{mode} reaches gap <= eps with the LP value",
        paper=PAPER,
        theorem="Algorithm 1 (Hybrid SSN) [paper]; global convergence (empirical)",
        measured=err,
        bound=tol,
        sense="<=",
        params=_params(
            a,
            mode=mode,
            prm_iterations=res.first_order_iterations,
            newton_iterations=res.newton_iterations,
            fallback=res.fallback,
        ),
    )


# ------------------------------------------------------------------------------- drivers
def _random_games(rng: np.random.Generator, count: int, top: int) -> list[FloatArray]:
    gens = list(game_generators().values())
    out = []
    for i in range(count):
        m, n = (int(v) for v in rng.integers(2, top + 1, size=2))
        out.append(gens[i % len(gens)](rng, m, n))
    return out


@register(
    name="games.ssn_fixed_points",
    family="games",
    paper=PAPER,
    theorem="Thm A (lifted fixed points <-> equilibria)",
    algorithms=("reference.games:ssn", "reference.games:lift", "reference.games:drs_residual"),
)
def prove_fixed_points(profile: ProveProfile) -> BoundCheck:
    """LP equilibria lift to zeros of ``R``; SSN zeros of ``R`` project to equilibria."""
    rng = np.random.default_rng(profile.seed)
    games = _random_games(rng, 6 * profile.instances, 60 if profile.is_full else 12)
    checks = [lemma_equilibria_lift_to_fixed_points(a) for a in games]
    checks += [lemma_fixed_points_are_equilibria(a) for a in games]
    return worst(checks)


@register(
    name="games.ssn_residual_gap",
    family="games",
    paper=PAPER,
    theorem='Thm B1/B2 ("Theorem 3": residual vs gap)',
    algorithms=("reference.games:drs_residual", "reference.games:lift"),
)
def prove_residual_gap(profile: ProveProfile) -> BoundCheck:
    """B1 on random ``u`` (scales 0.01..5), B2 on Dirichlet(0.05) and Dirichlet(1) profiles."""
    rng = np.random.default_rng(profile.seed)
    count = 1000 if profile.is_full else 120
    checks: list[BoundCheck] = []
    for i in range(count):
        m, n = (int(v) for v in rng.integers(1, 9, size=2))
        a = rng.standard_normal((m, n)) * float(rng.choice([0.1, 1.0, 10.0]))
        u = rng.standard_normal(m + n) * float(np.exp(rng.uniform(np.log(0.01), np.log(5.0))))
        checks.append(theorem_b1_gap_bound(a, u))
        alpha = 0.05 if i % 2 else 1.0
        x, y = rng.dirichlet(np.full(m, alpha)), rng.dirichlet(np.full(n, alpha))
        checks.append(theorem_b2_lift_identity(a, x, y))
        checks.append(theorem_b2_sqrt_gap(a, x, y))
    return worst(checks)


@register(
    name="games.drs_operator",
    family="games",
    paper=PAPER,
    theorem="Thm C (firm nonexpansiveness, spectrum of J, Newton forms, DRS monotone)",
    algorithms=(
        "reference.games:drs_residual",
        "reference.games:drs",
        "reference.games:newton_direction",
        "reference.games:residual_jacobian",
    ),
)
def prove_drs_operator_facts(profile: ProveProfile) -> BoundCheck:
    """Firm nonexpansiveness and ``J``'s spectrum at random points; W-free = W form; DRS."""
    rng = np.random.default_rng(profile.seed)
    checks: list[BoundCheck] = []
    for a in _random_games(rng, 6 * profile.instances, 40 if profile.is_full else 10):
        size = sum(a.shape)
        u, v = rng.standard_normal(size), rng.standard_normal(size) * 2.0
        checks.append(theorem_c_firm_nonexpansive(a, u, v))
        checks.append(theorem_c_jacobian_spectrum(a, u))
        checks.append(theorem_c_newton_forms(a, u, float(rng.uniform(1e-4, 1.0))))
        checks.append(theorem_c_drs_monotone(a, iterations=12))
    return worst(checks)


@register(
    name="games.ssn_quadratic",
    family="games",
    paper=PAPER,
    theorem="Theorem 4 (local quadratic convergence)",
    algorithms=("reference.games:ssn",),
)
def prove_quadratic_tail(profile: ProveProfile) -> BoundCheck:
    """20 random 60 x 90 games (full) or 6 of 20 x 30 (quick), U[-1,1] and N(0,1)."""
    rng = np.random.default_rng(profile.seed)
    count, (m, n) = (20, (60, 90)) if profile.is_full else (6, (20, 30))
    games = [
        rng.uniform(-1.0, 1.0, size=(m, n)) if i % 2 == 0 else rng.standard_normal((m, n))
        for i in range(count)
    ]
    return worst(theorem_4_quadratic_tail(a) for a in games)


@register(
    name="games.regret_facts",
    family="games",
    paper="Tammelin (2014); Farina, Kroer, Sandholm (2021); Yang, Gao, Lin, Kroer (arXiv:2512.12910)",
    theorem="RM+ regret bound and the averaging identity",
    algorithms=("reference.games:rm_plus_trajectory", "reference.games:prm_plus_trajectory"),
)
def prove_regret_facts(profile: ProveProfile) -> BoundCheck:
    """RM+ regret bound and ``T gap = Reg_x + Reg_y`` (RM+ and PRM+) on random games."""
    rng = np.random.default_rng(profile.seed)
    checks: list[BoundCheck] = []
    for a in _random_games(rng, 6 * profile.instances, 30 if profile.is_full else 10):
        checks.append(rm_plus_regret_bound(a))
        checks.append(averaging_identity(a, predictive=True))
        checks.append(averaging_identity(a, predictive=False))
    return worst(checks)


@register(
    name="games.prm_plus_rate",
    family="games",
    paper=PAPER,
    theorem="PRM+ average-iterate rate (empirical, slope <= -0.9)",
    algorithms=("reference.games:prm_plus",),
)
def prove_prm_plus_rate(profile: ProveProfile) -> BoundCheck:
    """Random U[-1,1] / N(0,1) games, ``T ∈ [100, 10000]`` (full: more and larger games)."""
    rng = np.random.default_rng(profile.seed)
    count, (m, n) = (10, (60, 90)) if profile.is_full else (3, (15, 20))
    games = [
        rng.uniform(-1.0, 1.0, size=(m, n)) if i % 2 == 0 else rng.standard_normal((m, n))
        for i in range(count)
    ]
    t_max = 10_000 if profile.is_full else 3_000
    # cyclic games where the O(1/T) rate is nearly attained (fitted slope -1.00 .. -1.09 on the
    # reference, slack about 1.1-1.2); on the random games above it reaches about -2
    games += [weighted_rps(2.0, 1.0, 1.0)]
    games += [weighted_rps(*rng.uniform(0.5, 2.0, size=3)) for _ in range(2)]
    return worst(prm_plus_rate(a, t_max=t_max) for a in games)


def weighted_rps(a: float, b: float, c: float) -> FloatArray:
    """Rock-paper-scissors with unequal stakes ``[[0, a, -b], [-a, 0, c], [b, -c, 0]]``: a
    cyclic game whose interior equilibrium PRM+ circles, so the average's gap decays like
    ``1/T`` (the rate the theorem states), not faster as on generic random games."""
    out: FloatArray = np.array([[0.0, a, -b], [-a, 0.0, c], [b, -c, 0.0]])
    return out


#: Averaging rules of :func:`reference.games.prm_plus` / ``rm_plus`` and their weights.
AVERAGE_WEIGHTS: dict[Averaging, Callable[[FloatArray], FloatArray]] = {
    "uniform": lambda t: np.ones_like(t),
    "linear": lambda t: t,
    "quadratic": lambda t: t * t,
}


def averaging_rules(payoff: object, *, iterations: int, predictive: bool) -> BoundCheck:
    """``prm_plus`` (``rm_plus``) with ``averaging=rule`` returns the documented average of
    the strategies it played: ``Σ w_t x_t / Σ w_t`` with ``w_t = 1, t, t²`` (uniform, linear,
    quadratic), ``x_T`` (last), and whichever of last / linear has the smaller gap (best).

    The played strategies come from the reference trajectory (``prm_plus_trajectory``, itself
    checked by ``games.regret_facts`` and the ``games.regret`` suite); the weights, sums and
    gaps are recomputed here.  Measured: the largest ``|returned - formula|`` over the rules
    and both players (``== 0`` within ``1e-12``: sums of ``T <= 200`` terms in [0, 1]).
    """
    a = as_float_array("payoff", payoff, ndim=2)
    run = impl(prm_plus) if predictive else impl(rm_plus)
    trajectory = prm_plus_trajectory if predictive else rm_plus_trajectory
    tr = trajectory(a, iterations=iterations)
    xs, ys = np.asarray(tr.xs), np.asarray(tr.ys)
    t = np.arange(1.0, iterations + 1.0)
    expected: dict[Averaging, tuple[FloatArray, FloatArray]] = {}
    for rule, weight in AVERAGE_WEIGHTS.items():
        w = weight(t)
        expected[rule] = (w @ xs / w.sum(), w @ ys / w.sum())
    expected["last"] = (xs[-1], ys[-1])
    last_gap = matrix_game_gap(a, *expected["last"])
    linear_gap = matrix_game_gap(a, *expected["linear"])
    expected["best"] = expected["last"] if last_gap <= linear_gap else expected["linear"]
    errors = {}
    for rule, (x, y) in expected.items():
        res = run(a, tol=1e-300, max_iter=iterations, averaging=rule)
        errors[rule] = max(
            float(np.max(np.abs(np.asarray(res.x) - x))),
            float(np.max(np.abs(np.asarray(res.y) - y))),
        )
    return BoundCheck(
        claim=f"{'PRM+' if predictive else 'RM+'}: averaging=rule returns that rule's average",
        paper=PAPER + "; Farina, Kroer, Sandholm (2021)",
        theorem="Yang, Gao, Lin, Kroer (arXiv:2512.12910) (averaging rules of the regret dynamics)",
        measured=max(errors.values()),
        bound=0.0,
        sense="==",
        atol=1e-12,
        params=_params(a, iterations=iterations, predictive=predictive, errors=errors),
    )


@register(
    name="games.averaging_rules",
    family="games",
    paper=PAPER,
    theorem="Yang, Gao, Lin, Kroer (arXiv:2512.12910): last / uniform / linear / quadratic / best averages",
    algorithms=("reference.games:prm_plus", "reference.games:rm_plus"),
)
def prove_averaging_rules(profile: ProveProfile) -> BoundCheck:
    """Every averaging rule of PRM+ and RM+ on random games of every generator (sizes 2..9),
    ``T`` between 23 and 200 (odd and even, so a t-1 weight or a dropped last iterate shows)."""
    rng = np.random.default_rng(profile.seed + 5)
    checks = []
    for i, a in enumerate(_random_games(rng, 2 * profile.instances, 9)):
        steps = int(rng.integers(23, 201))
        checks.append(averaging_rules(a, iterations=steps, predictive=i % 2 == 0))
    return worst(checks)


@register(
    name="games.hybrid_global",
    family="games",
    paper=PAPER,
    theorem="Algorithm 1 (Hybrid SSN): global convergence on every generator",
    algorithms=("reference.games:hybrid",),
)
def prove_hybrid_global(profile: ProveProfile) -> BoundCheck:
    """PSSN and HPSSN on every generator of :func:`game_generators`."""
    rng = np.random.default_rng(profile.seed)
    top = 80 if profile.is_full else 20
    checks: list[BoundCheck] = []
    for gen in game_generators().values():
        for _ in range(max(1, profile.instances // 2)):
            m, n = (int(v) for v in rng.integers(2, top + 1, size=2))
            a = gen(rng, m, n)
            checks.extend(hybrid_global_convergence(a, mode=mode) for mode in ("PSSN", "HPSSN"))
    return worst(checks)


MINIMAX_ATOL = 1e-9


def von_neumann(
    payoff: object, *, solver: Callable[[FloatArray], GameSolution] | None = None
) -> BoundCheck:
    """Minimax theorem on one instance: ``max_j (xᵀA)_j == min_i (Ay)_i`` for the solver's pair.

    ``x`` comes from the row player's LP and ``y`` from the column player's LP,
    solved separately; the measured quantity is the row player's guaranteed
    upper value ``max_j (xᵀA)_j`` and the bound the column player's lower value
    ``min_i (Ay)_i``, both recomputed from the strategies.  Weak duality gives
    ``measured >= bound`` for any pair; the theorem says equality is attained.

    Args:
        payoff: ``(m, n)`` finite matrix.
        solver: the equilibrium solver under test (default: ``impl(solve_lp)``).

    Returns:
        A :class:`BoundCheck` with sense ``==`` and ``atol = MINIMAX_ATOL * max(1, max|A|)``.

    References:
        J. von Neumann, "Zur Theorie der Gesellschaftsspiele", Math. Ann. 100 (1928), minimax theorem.
    """
    matrix = as_float_array("payoff", payoff, ndim=2)
    solution = (impl(solve_lp) if solver is None else solver)(matrix)
    xs, ys = np.asarray(solution.x, dtype=np.float64), np.asarray(solution.y, dtype=np.float64)
    violation = simplex_violation(xs) + simplex_violation(ys)  # off-simplex pairs cannot pass
    upper = float(np.max(xs @ matrix)) + violation
    lower = float(np.min(matrix @ ys))
    scale = max(1.0, float(np.max(np.abs(matrix))))
    return BoundCheck(
        claim="min_x max_y xᵀAy = max_y min_x xᵀAy (upper value of x equals lower value of y)",
        paper="von Neumann (1928)",
        theorem="minimax theorem",
        measured=upper,
        bound=lower,
        sense="==",
        atol=MINIMAX_ATOL * scale,
        params={"m": matrix.shape[0], "n": matrix.shape[1], "scale": scale},
    )


@register(
    name="games.von_neumann",
    family="games",
    paper="von Neumann (1928)",
    theorem="minimax theorem",
    algorithms=("reference.games:solve_lp",),
)
def prove_von_neumann(profile: ProveProfile) -> BoundCheck:
    """Random Gaussian and integer games (sizes up to 40, or 200 in ``full``) plus textbook games."""
    rng = np.random.default_rng(profile.seed)
    top = 200 if profile.is_full else 40
    instances: list[FloatArray] = [
        np.array([[1.0, -1.0], [-1.0, 1.0]]),  # matching pennies
        np.array([[0.0, 1.0, -1.0], [-1.0, 0.0, 1.0], [1.0, -1.0, 0.0]]),  # rock-paper-scissors
    ]
    for _ in range(profile.instances):
        m, n = (int(v) for v in rng.integers(1, top + 1, size=2))
        instances.append(rng.standard_normal((m, n)) * 10.0)
        instances.append(rng.integers(-5, 6, size=(m, n)).astype(np.float64))
    return worst(von_neumann(a) for a in instances)


def _simplex_projection(v: FloatArray) -> FloatArray:
    """Euclidean projection onto the probability simplex (sort and threshold)."""
    s = np.sort(v)[::-1]
    cumulative = np.cumsum(s) - 1.0
    ranks = np.arange(1, v.size + 1)
    last = int(np.nonzero(s - cumulative / ranks > 0.0)[0][-1])
    out: FloatArray = np.maximum(v - cumulative[last] / (last + 1), 0.0)
    return out


def drs_replay(payoff: FloatArray, *, seed: int) -> BoundCheck:
    """Plain DRS replayed from its documented recursion (spec 01, Algorithm 1): from
    ``u_0``, ``u_{k+1} = u_k - R(u_k)`` with ``R(u) = P(u) - W(2P(u) - u)``,
    ``P = Π_{Δ_m x Δ_n}``, ``W = (I + γM)^{-1}``, ``M = [[0, A], [-Aᵀ, 0]]``, stopping at the
    first ``k`` with ``||R(u_k)|| <= tol_res`` or ``gap(P(u_k)) <= tol``, else at ``max_iter``.

    Three runs with a given ``u_0`` and ``γ = 0.37/||A||_2`` (not the default): a fixed length
    (``max_iter = 9``), a stop at the residual floor (``tol_res`` just above ``||R(u_5)||``)
    and a stop on the gap (``tol`` just above the gap at step 6), each with ``max_iter = 40``
    otherwise.  Projection, ``W`` and the gap are recomputed here.  Measured: the largest
    absolute difference between the returned ``u`` and the replay's, over the scale
    ``max(1, ||u_0||)``; ``atol = 1e-10``.
    """
    rng = np.random.default_rng(seed)
    m, n = payoff.shape
    step_size = 0.37 / float(np.linalg.norm(payoff, 2))
    big_m = np.block([[np.zeros((m, m)), payoff], [-payoff.T, np.zeros((n, n))]])
    w = np.linalg.inv(np.eye(m + n) + step_size * big_m)
    z0 = np.concatenate([rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(n))])
    u0 = z0 - step_size * big_m @ z0 + 0.3 * rng.standard_normal(m + n)

    def project(u: FloatArray) -> FloatArray:
        return np.concatenate([_simplex_projection(u[:m]), _simplex_projection(u[m:])])

    def residual(u: FloatArray) -> FloatArray:
        p = project(u)
        out: FloatArray = p - w @ (2.0 * p - u)
        return out

    def gap(u: FloatArray) -> float:
        p = project(u)
        return float(np.max(p[:m] @ payoff) - np.min(payoff @ p[m:]))

    path = [u0]
    for _ in range(40):
        path.append(path[-1] - residual(path[-1]))
    norms = [float(np.linalg.norm(residual(u))) for u in path]
    gaps = [gap(u) for u in path]
    floor, target = norms[5] * (1.0 + 1e-6), gaps[6] * (1.0 + 1e-6)
    # (tol, max_iter, tol_res, the replay's stopping step)
    runs: dict[str, tuple[float, int, float, int]] = {
        "max_iter": (1e-300, 9, 1e-300, 9),
        "tol_res": (1e-300, 40, floor, next(k for k, r in enumerate(norms) if r <= floor)),
        "tol": (target, 40, 1e-300, next(k for k, g in enumerate(gaps) if g <= target)),
    }
    errors: dict[str, float] = {}
    scale = max(1.0, float(np.linalg.norm(u0)))
    for name, (tol, max_iter, tol_res, stop) in runs.items():
        result = impl(drs)(
            payoff, tol=tol, max_iter=max_iter, u0=u0.copy(), step_size=step_size, tol_res=tol_res
        )
        got = np.asarray(result.u, dtype=np.float64)
        errors[name] = float(np.max(np.abs(got - path[stop]))) / scale
    worst_run = max(errors, key=lambda k: errors[k])
    return BoundCheck(
        claim="DRS = u_{k+1} = u_k - R(u_k) from u0 with step_size, stopped by tol, tol_res or "
        "max_iter",
        paper=PAPER,
        theorem="Algorithm 1 (plain DRS): documented recursion and stopping rule",
        measured=errors[worst_run],
        bound=0.0,
        sense="==",
        atol=1e-10,
        params={**_params(payoff), "seed": seed, "worst": worst_run},
    )


@register(
    name="games.drs_replay",
    family="games",
    paper=PAPER,
    theorem="Algorithm 1 (plain DRS): documented recursion and stopping rule",
    algorithms=("reference.games:drs",),
)
def prove_drs_replay(profile: ProveProfile) -> BoundCheck:
    """Two random games, 4 x 6 and 5 x 3, entries U[-1, 1]."""
    rng = np.random.default_rng(profile.seed + 90)
    return worst(
        drs_replay(rng.uniform(-1.0, 1.0, size=shape), seed=profile.seed + 91 + i)
        for i, shape in enumerate(((4, 6), (5, 3)))
    )
