"""Tests written for the mutants mutmut left alive in reference/games (issue 17, point 8).

Expected values come from the documented contracts (the DRS residual recomputed from the
returned lifted point with the configured ``γ``; counts are non-negative; argument domains),
never from the library's output.  The triage of every survivor is in
benchmarks/results/mutation_games.md.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from reference import games
from reference.games.hybrid import HybridConfig
from reference.games.ssn import (
    KINK_PIECES,
    SSNConfig,
    _context,
    _evaluate,
    _first_kink,
    _kink_search,
    _pieces,
    _solve,
    drs_operator,
    drs_residual,
    simplex_jacobian,
)


def test_hybrid_newton_phase_uses_the_configured_gamma() -> None:
    """The reported residual is ``||R_γ(u)||`` for the configured ``γ = 0.3``, recomputed here
    from the returned ``u`` (with the default ``γ = 1/||A||_2`` it is about 0.17 on this game)."""
    payoff = np.random.default_rng(1).uniform(-1.0, 1.0, (6, 5))
    result = games.hybrid(payoff, config=HybridConfig(ssn=SSNConfig(step_size=0.3)))
    assert result.u is not None
    assert result.residual is not None
    recomputed = float(np.linalg.norm(drs_residual(payoff, result.u, step_size=0.3)))
    assert abs(result.residual - recomputed) <= 1e-12


def test_hybrid_counts_safeguard_steps_upwards() -> None:
    """A game whose Newton phases take safeguarded steps (without the watchdog and its kink
    search, which avoid them here): the count is a positive number."""
    payoff = np.random.default_rng(19).uniform(-1.0, 1.0, (8, 7))
    ssn_cfg = SSNConfig(step_size=5.0, watchdog=False)
    result = games.hybrid(payoff, mode="PSSN", config=HybridConfig(ssn=ssn_cfg))
    assert result.safeguard_steps > 0


def test_hybrid_config_rejects_zero_newton_iterations() -> None:
    with pytest.raises(ValueError, match="ssn_max_iter"):
        HybridConfig(ssn_max_iter=0)


def test_simplex_jacobian_rejects_a_matrix() -> None:
    with pytest.raises(ValueError, match="v"):
        simplex_jacobian(np.ones((2, 2)))


def test_ssn_config_accepts_lambda0_at_its_lower_limit() -> None:
    """``lambda_min <= lambda0 <= lambda_max`` is inclusive on both sides."""
    cfg = SSNConfig(lambda0=0.5, lambda_min=0.5, lambda_max=2.0)
    assert cfg.lambda0 == cfg.lambda_min


def _project_simplex(v: np.ndarray) -> np.ndarray:
    """Euclidean projection onto the simplex by sorting (Held, Wolfe, Crowder 1974)."""
    s = np.sort(v)[::-1]
    cums = np.cumsum(s) - 1.0
    k = np.flatnonzero(s - cums / np.arange(1, v.size + 1) > 0)[-1]
    out: np.ndarray = np.maximum(v - cums[k] / (k + 1), 0.0)
    return out


def test_drs_operator_uses_the_given_gamma() -> None:
    """``T(u) = u - (I + γM)^{-1}(u - P(u) + γ M P(u))`` with ``M = [[0, A], [-Aᵀ, 0]]``,
    recomputed here with numpy for ``γ = 0.7`` (not the default ``1/||A||_2``)."""
    rng = np.random.default_rng(4)
    payoff = rng.uniform(-1.0, 1.0, (3, 4))
    u = rng.normal(size=7)
    step_size = 0.7
    m = np.block([[np.zeros((3, 3)), payoff], [-payoff.T, np.zeros((4, 4))]])
    p = np.concatenate([_project_simplex(u[:3]), _project_simplex(u[3:])])
    expected = u - np.linalg.solve(np.eye(7) + step_size * m, u - p + step_size * m @ p)
    np.testing.assert_allclose(drs_operator(payoff, u, step_size=step_size), expected, atol=1e-12)


def test_ssn_reports_its_safeguard_steps() -> None:
    """With ``γ = 20`` and no watchdog on this game the Newton steps need the safeguard."""
    payoff = np.random.default_rng(19).uniform(-1.0, 1.0, (8, 7))
    assert games.ssn(payoff, config=SSNConfig(step_size=20.0, watchdog=False)).safeguard_steps > 0


@pytest.mark.parametrize(("tol", "max_iter"), [(5e-2, 5_000), (1e-12, 3)])
def test_rm_plus_stop_reason_matches_the_recomputed_gap(tol: float, max_iter: int) -> None:
    """``stop_reason`` is "tol" exactly when the duality gap of the returned pair, recomputed as
    ``max_j (xᵀA)_j - min_i (Ay)_i``, is at most ``tol``; otherwise "max_iter"."""
    payoff = np.array([[2.0, -1.0], [-1.0, 1.0]])  # equilibrium (2/5, 3/5) twice: not uniform
    result = games.rm_plus(payoff, tol=tol, max_iter=max_iter)
    gap = float(np.max(result.x @ payoff) - np.min(payoff @ result.y))
    expected = "tol" if gap <= tol else "max_iter"
    assert expected == ("tol" if tol > 1e-6 else "max_iter")  # both branches are exercised
    assert result.stop_reason == expected


def test_ssn_config_rejects_nu_equal_to_one() -> None:
    with pytest.raises(ValueError, match="nu"):
        SSNConfig(nu=1.0)


# ----------------------------------------------------------------- issue 36, item 6: full run
RECT = np.array([[1.0, -1.0, 0.5], [-0.5, 1.0, -1.0]])  # 2 x 3: x has 2 entries, y has 3
# calls with ill-typed arguments, on purpose
ANY_GAMES: Any = games
ANY_HC: Any = HybridConfig
ANY_SC: Any = SSNConfig
U5 = np.array([0.3, 0.7, 0.2, 0.5, 0.3])  # a lifted point of RECT (m + n = 5)

_BAD_INPUT: list[tuple[str, Callable[[], object], type[Exception], str]] = [
    ("project v", lambda: games.project_simplex(np.ones((2, 2))), ValueError, "v"),
    ("threshold v", lambda: games.simplex_threshold([np.nan, 1.0]), ValueError, "v"),
    ("threshold 2-D", lambda: games.simplex_threshold(np.ones((2, 2))), ValueError, "v"),
    ("jacobian v", lambda: simplex_jacobian(np.ones((2, 2))), ValueError, "v"),
    ("lp payoff", lambda: games.solve_lp([1.0, 2.0]), ValueError, "payoff"),
    ("lp payoff nan", lambda: games.solve_lp([[np.nan]]), ValueError, "payoff"),
    ("br payoff", lambda: games.best_response_values([1.0], [1.0], [1.0]), ValueError, "payoff"),
    ("br x size", lambda: games.best_response_values(RECT, [1.0], [1, 0, 0]), ValueError, "x"),
    ("br x off", lambda: games.best_response_values(RECT, [0.7, 0.7], [1, 0, 0]), ValueError, "x"),
    ("br y size", lambda: games.best_response_values(RECT, [1, 0], [0.5, 0.5]), ValueError, "y"),
    ("br y off", lambda: games.best_response_values(RECT, [1, 0], [1, 1, 0]), ValueError, "y"),
    ("gap payoff", lambda: games.duality_gap([[np.inf]], [1.0], [1.0]), ValueError, "payoff"),
    ("gap payoff 1-D", lambda: games.duality_gap([1.0], [1.0], [1.0]), ValueError, "payoff"),
    ("gap x size", lambda: games.duality_gap(RECT, [1.0], [1, 0, 0]), ValueError, "x"),
    ("gap x off", lambda: games.duality_gap(RECT, [0.7, 0.7], [1, 0, 0]), ValueError, "x"),
    ("gap y size", lambda: games.duality_gap(RECT, [1, 0], [0.5, 0.5]), ValueError, "y"),
    ("gap y off", lambda: games.duality_gap(RECT, [1, 0], [1, 1, 0]), ValueError, "y"),
    *[
        (f"{fn.__name__} {label}", (lambda fn=fn, kw=kw: fn(RECT, **kw)), err, name)
        for fn in (games.rm_plus, games.prm_plus)
        for label, kw, err, name in [
            ("tol", {"tol": 0.0}, ValueError, "tol"),
            ("max_iter", {"max_iter": 0}, ValueError, "max_iter"),
            ("alternating", {"alternating": 1}, TypeError, "alternating"),
            ("averaging", {"averaging": "mean"}, ValueError, "averaging"),
        ]
    ],
    ("rm payoff", lambda: games.rm_plus([[np.nan, 1.0]]), ValueError, "payoff"),
    (
        "traj iterations",
        lambda: games.regret_trajectory(RECT, iterations=0),
        ValueError,
        "iterations",
    ),
    (
        "traj predictive",
        lambda: ANY_GAMES.regret_trajectory(RECT, iterations=1, predictive=1),
        TypeError,
        "predictive",
    ),
    (
        "traj alternating",
        lambda: ANY_GAMES.regret_trajectory(RECT, iterations=1, alternating=0),
        TypeError,
        "alternating",
    ),
    (
        "rm traj iterations",
        lambda: games.rm_plus_trajectory(RECT, iterations=0),
        ValueError,
        "iterations",
    ),
    (
        "prm traj iterations",
        lambda: games.prm_plus_trajectory(RECT, iterations=0),
        ValueError,
        "iterations",
    ),
    ("hc tau_switch", lambda: HybridConfig(tau_switch=0.0), ValueError, "tau_switch"),
    ("hc tau0", lambda: HybridConfig(tau0=0.0), ValueError, "tau0"),
    ("hc theta", lambda: HybridConfig(theta=1.0), ValueError, "theta"),
    ("hc theta zero", lambda: HybridConfig(theta=0.0), ValueError, "theta"),
    ("hc newton_rounds", lambda: HybridConfig(newton_rounds=0), ValueError, "newton_rounds"),
    ("hc ssn_max_iter", lambda: HybridConfig(ssn_max_iter=0), ValueError, "ssn_max_iter"),
    ("hc alternating", lambda: ANY_HC(alternating=1), TypeError, "alternating"),
    ("hc ssn", lambda: ANY_HC(ssn=1), TypeError, "ssn"),
    ("hybrid tol", lambda: games.hybrid(RECT, tol=0.0), ValueError, "tol"),
    ("hybrid mode type", lambda: ANY_GAMES.hybrid(RECT, mode=1), TypeError, "mode"),
    ("hybrid mode", lambda: games.hybrid(RECT, mode="SSN"), ValueError, "mode"),
    ("hybrid max_iter", lambda: games.hybrid(RECT, max_iter=0), ValueError, "max_iter"),
    ("hybrid config", lambda: ANY_GAMES.hybrid(RECT, config=ANY_SC()), TypeError, "config"),
    ("sc step_size", lambda: SSNConfig(step_size=0.0), ValueError, "step_size"),
    ("sc lambda0", lambda: SSNConfig(lambda0=0.0), ValueError, "lambda0"),
    ("sc lambda_min", lambda: SSNConfig(lambda_min=0.0), ValueError, "lambda_min"),
    ("sc lambda_max", lambda: SSNConfig(lambda_max=-1.0), ValueError, "lambda_max"),
    ("sc lambda0 above", lambda: SSNConfig(lambda0=20.0), ValueError, "lambda0"),
    ("sc lambda0 below", lambda: SSNConfig(lambda0=1e-7), ValueError, "lambda0"),
    ("sc sigma", lambda: SSNConfig(sigma=1.0), ValueError, "sigma"),
    ("sc sigma zero", lambda: SSNConfig(sigma=0.0), ValueError, "sigma"),
    ("sc beta", lambda: SSNConfig(beta=0.0), ValueError, "beta"),
    ("sc beta one", lambda: SSNConfig(beta=1.0), ValueError, "beta"),
    ("sc nu", lambda: SSNConfig(nu=0.0), ValueError, "nu"),
    ("sc max_backtracks", lambda: SSNConfig(max_backtracks=0), ValueError, "max_backtracks"),
    ("sc max_backtracks type", lambda: ANY_SC(max_backtracks=2.0), TypeError, "max_backtracks"),
    ("sc max_backtracks bool", lambda: SSNConfig(max_backtracks=True), TypeError, "max_backtracks"),
    ("sc acceptance", lambda: ANY_SC(acceptance="wolfe"), ValueError, "acceptance"),
    ("sc tol_res", lambda: SSNConfig(tol_res=0.0), ValueError, "tol_res"),
    ("sc watchdog", lambda: ANY_SC(watchdog=1), TypeError, "watchdog"),
    ("sc kink_search", lambda: ANY_SC(kink_search=1), TypeError, "kink_search"),
    ("step_size payoff", lambda: games.default_step_size([[np.nan]]), ValueError, "payoff"),
    ("g u", lambda: games.drs_residual_g(RECT, U5[:4]), ValueError, "u"),
    ("g step_size", lambda: games.drs_residual_g(RECT, U5, step_size=0.0), ValueError, "step_size"),
    ("residual u", lambda: games.drs_residual(RECT, U5[:4]), ValueError, "u"),
    (
        "residual step_size",
        lambda: games.drs_residual(RECT, U5, step_size=-1.0),
        ValueError,
        "step_size",
    ),
    ("operator u", lambda: drs_operator(RECT, U5[:4]), ValueError, "u"),
    ("operator payoff", lambda: drs_operator([[np.nan]], [0.5, 0.5]), ValueError, "payoff"),
    ("lift x size", lambda: games.lift(RECT, [1.0], [1, 0, 0]), ValueError, "x"),
    ("lift x off", lambda: games.lift(RECT, [0.7, 0.7], [1, 0, 0]), ValueError, "x"),
    ("lift y size", lambda: games.lift(RECT, [1, 0], [1, 0]), ValueError, "y"),
    ("lift y off", lambda: games.lift(RECT, [1, 0], [1, 1, 0]), ValueError, "y"),
    ("recover u", lambda: games.recover(RECT, U5[:4]), ValueError, "u"),
    ("recover payoff", lambda: games.recover([[np.nan]], [0.5, 0.5]), ValueError, "payoff"),
    ("jac u", lambda: games.residual_jacobian(RECT, U5[:4]), ValueError, "u"),
    ("newton u", lambda: games.newton_direction(RECT, U5[:4], 0.1), ValueError, "u"),
    ("newton mu", lambda: games.newton_direction(RECT, U5, 0.0), ValueError, "mu"),
    ("drs tol", lambda: games.drs(RECT, tol=0.0), ValueError, "tol"),
    ("drs max_iter", lambda: games.drs(RECT, max_iter=0), ValueError, "max_iter"),
    ("drs u0", lambda: games.drs(RECT, u0=U5[:4]), ValueError, "u0"),
    ("drs step_size", lambda: games.drs(RECT, step_size=0.0), ValueError, "step_size"),
    ("drs tol_res", lambda: games.drs(RECT, tol_res=0.0), ValueError, "tol_res"),
    ("ssn tol", lambda: games.ssn(RECT, tol=0.0), ValueError, "tol"),
    ("ssn max_iter", lambda: games.ssn(RECT, max_iter=0), ValueError, "max_iter"),
    ("ssn u0", lambda: games.ssn(RECT, u0=U5[:4]), ValueError, "u0"),
    ("ssn config", lambda: ANY_GAMES.ssn(RECT, config=ANY_HC()), TypeError, "config"),
]


@pytest.mark.parametrize(
    ("call", "error", "name"),
    [pytest.param(call, error, name, id=label) for label, call, error, name in _BAD_INPUT],
)
def test_bad_input_names_the_argument(
    call: Callable[[], object], error: type[Exception], name: str
) -> None:
    """The documented error, and its message starts with the argument's name (``name: ...``)."""
    with pytest.raises(error, match=rf"^{name}: "):
        call()


def _regret_recursion(a: np.ndarray, steps: int, predictive: bool) -> tuple[np.ndarray, ...]:
    """Simultaneous RM+ / PRM+ written out from spec 01 Algorithm 3 (R = 0, m = 0 at the
    start; play normalize(max(R + m, 0)) for PRM+, normalize(R) for RM+, uniform on 0)."""

    def play(state: np.ndarray, pred: np.ndarray) -> np.ndarray:
        w = np.maximum(state + pred, 0.0) if predictive else state
        return w / w.sum() if w.sum() > 0 else np.full(w.size, 1.0 / w.size)

    rx, ry = np.zeros(a.shape[0]), np.zeros(a.shape[1])
    mx, my = np.zeros_like(rx), np.zeros_like(ry)
    xs, ys = [], []
    for _ in range(steps):
        x, y = play(rx, mx), play(ry, my)
        loss, gain = a @ y, a.T @ x
        inst_x, inst_y = float(loss @ x) - loss, gain - float(gain @ y)
        rx, ry = np.maximum(rx + inst_x, 0.0), np.maximum(ry + inst_y, 0.0)
        mx, my = inst_x, inst_y
        xs.append(x)
        ys.append(y)
    return np.array(xs), np.array(ys)


@pytest.mark.parametrize("predictive", [False, True])
def test_trajectories_follow_their_own_recursion(predictive: bool) -> None:
    """rm_plus_trajectory is RM+ and prm_plus_trajectory is PRM+, iterate by iterate
    (the two differ from step 2 on this game)."""
    a = np.array([[0.0, 1.0, -3.0, 0.5], [-1.0, 0.0, 1.0, -0.5], [3.0, -1.0, 0.0, 0.2]])
    xs, ys = _regret_recursion(a, 20, predictive)
    other_xs, _ = _regret_recursion(a, 20, not predictive)
    assert np.max(np.abs(xs - other_xs)) > 1e-3  # the instance tells the two apart
    fn = games.prm_plus_trajectory if predictive else games.rm_plus_trajectory
    tr = fn(a, iterations=20)
    assert tr.predictive is predictive
    np.testing.assert_allclose(tr.xs, xs, atol=1e-12)
    np.testing.assert_allclose(tr.ys, ys, atol=1e-12)


@pytest.mark.parametrize(
    ("payoff", "option"),
    [([[1.00001, 1.0]], "watchdog"), ([[1e-6, 0.0, 0.0], [0.0, 1.0, 0.0]], "kink_search")],
)
def test_ssn_safeguard_games_of_the_config_docstring(
    payoff: list[list[float]], option: str
) -> None:
    """SSNConfig documents one game per safeguard: with the default (Algorithm 2 as written,
    both off) cold SSN stalls (the cap is reached), with that one option on it converges; the
    gap is recomputed here."""
    a = np.array(payoff)
    cfg = SSNConfig(watchdog=True) if option == "watchdog" else SSNConfig(kink_search=True)
    on = games.ssn(a, config=cfg)
    off = games.ssn(a)
    gap_on = float(np.max(on.x @ a) - np.min(a @ on.y))
    gap_off = float(np.max(off.x @ a) - np.min(a @ off.y))
    assert gap_on <= 1e-10
    assert on.converged
    assert gap_off > 1e-10
    assert off.stop_reason == "max_iter"


BIASED = np.array([[0.0, 1.0, -3.0, 0.5], [-1.0, 0.0, 1.0, -0.5], [3.0, -1.0, 0.0, 0.2]])


def test_regret_trajectory_defaults_to_simultaneous_prm_plus() -> None:
    """``predictive`` defaults to PRM+ and ``alternating`` to simultaneous play."""
    xs, ys = _regret_recursion(BIASED, 12, predictive=True)
    tr = games.regret_trajectory(BIASED, iterations=12)
    np.testing.assert_allclose(tr.xs, xs, atol=1e-12)
    np.testing.assert_allclose(tr.ys, ys, atol=1e-12)


@pytest.mark.parametrize("predictive", [False, True])
def test_rm_plus_and_prm_plus_report_their_documented_candidates(predictive: bool) -> None:
    """rm_plus is simultaneous RM+ reporting the uniform average by default; prm_plus is
    simultaneous PRM+ reporting the linear average; ``averaging="last"`` gives the last
    iterate.  Iterates from the recursion written out above (no stop: the gap stays > tol)."""
    steps = 15
    xs, ys = _regret_recursion(BIASED, steps, predictive)
    fn = games.prm_plus if predictive else games.rm_plus
    weights = np.arange(1.0, steps + 1) if predictive else np.ones(steps)
    default = fn(BIASED, tol=1e-12, max_iter=steps)
    last = fn(BIASED, tol=1e-12, max_iter=steps, averaging="last")
    assert default.method == last.method == ("PRM+" if predictive else "RM+")
    assert default.iterations == steps
    np.testing.assert_allclose(default.x, weights @ xs / weights.sum(), atol=1e-12)
    np.testing.assert_allclose(default.y, weights @ ys / weights.sum(), atol=1e-12)
    np.testing.assert_allclose(last.x, xs[-1], atol=1e-12)
    np.testing.assert_allclose(last.y, ys[-1], atol=1e-12)


@pytest.mark.parametrize("alternating", [False, True])
def test_regret_trajectory_records_its_averages_and_flags(alternating: bool) -> None:
    """``x_bar``/``y_bar`` are the uniform averages of the recorded iterates (recomputed here
    from ``xs``/``ys``), and the flags are the ones passed."""
    tr = games.regret_trajectory(BIASED, iterations=9, predictive=False, alternating=alternating)
    assert tr.xs.shape == (9, 3)
    np.testing.assert_allclose(tr.x_bar, tr.xs.sum(axis=0) / 9, atol=1e-15)
    np.testing.assert_allclose(tr.y_bar, tr.ys.sum(axis=0) / 9, atol=1e-15)
    assert tr.alternating is alternating
    assert tr.predictive is False


@pytest.mark.parametrize(("scale", "expected"), [(0.0, 1.0), (0.5, 2.0), (4.0, 0.25)])
def test_default_step_size_is_the_inverse_spectral_norm(scale: float, expected: float) -> None:
    """``γ = 1/||A||_2`` (``1`` for the zero matrix); ``A = scale·Q`` with ``Q`` orthogonal, so
    ``||A||_2 = scale`` exactly up to rounding, including norms below 1."""
    q, _ = np.linalg.qr(np.random.default_rng(2).normal(size=(3, 3)))
    assert games.default_step_size(scale * q) == pytest.approx(expected, rel=1e-12)


def _drs_step(a: np.ndarray, u: np.ndarray, step_size: float) -> np.ndarray:
    """``T(u) = u - (I + γM)^{-1}(u - P(u) + γ M P(u))``, ``M = [[0, A], [-Aᵀ, 0]]``."""
    m, n = a.shape
    big = np.block([[np.zeros((m, m)), a], [-a.T, np.zeros((n, n))]])
    p = np.concatenate([_project_simplex(u[:m]), _project_simplex(u[m:])])
    return u - np.linalg.solve(np.eye(m + n) + step_size * big, u - p + step_size * big @ p)


def test_drs_runs_exactly_max_iter_steps_of_the_operator() -> None:
    """Plain DRS from a given ``u0``: after ``k`` steps ``u = T^k(u0)`` (operator written out
    here), ``iterations = k`` and ``k + 1`` recorded gaps (the start included)."""
    a = RECT
    u = np.array([0.9, -0.2, 0.4, 0.1, 0.6])
    result = games.drs(a, u0=u, step_size=0.7, max_iter=6, tol=1e-14)
    for _ in range(6):
        u = _drs_step(a, u, 0.7)
    assert result.u is not None
    np.testing.assert_allclose(result.u, u, atol=1e-12)
    assert (result.iterations, result.first_order_iterations) == (6, 6)
    assert result.gap_history.shape == (7,)
    assert result.stop_reason == "max_iter"


def test_drs_stop_tests_are_non_strict_and_either_one_stops() -> None:
    """``stops when ||R(u_k)|| <= tol_res or gap(z_k) <= tol``: at a pure start of an integer
    game with ``γ = 1`` the gap is exactly 1, so ``tol = 1`` stops at once (converged), and
    ``tol_res`` equal to the start's residual stops at once at the residual floor."""
    a = np.array([[1.0, 0.0], [0.0, 0.0]])
    u0 = np.array([1.0, 0.0, 0.0, 1.0])  # z0 = ((1, 0), (0, 1)): gap max(1, 0) - min(0, 0) = 1
    at_tol = games.drs(a, u0=u0, step_size=1.0, tol=1.0)
    assert (at_tol.iterations, at_tol.converged, at_tol.stop_reason) == (0, True, "tol")
    floor = float(np.linalg.norm(games.drs_residual(a, u0, step_size=1.0)))
    assert floor > 0.0  # z0 is no equilibrium
    at_floor = games.drs(a, u0=u0, step_size=1.0, tol=1e-12, tol_res=floor)
    assert (at_floor.iterations, at_floor.converged) == (0, False)
    assert at_floor.stop_reason == "residual_floor"


def test_lift_is_its_formula_with_the_given_gamma_and_a_tight_simplex_test() -> None:
    """``L(z) = (x - γAy, y + γAᵀx)`` for ``γ = 0.7``, written out; the simplex membership
    tolerance of ``lift`` is 1e-9 (documented), so a sum off by 1e-8 is rejected."""
    x, y = np.array([0.25, 0.75]), np.array([0.2, 0.3, 0.5])
    expected = np.concatenate([x - 0.7 * RECT @ y, y + 0.7 * RECT.T @ x])
    np.testing.assert_allclose(games.lift(RECT, x, y, step_size=0.7), expected, atol=1e-15)
    with pytest.raises(ValueError, match=r"^x: "):
        games.lift(RECT, [0.25, 0.75 + 1e-8], y)
    with pytest.raises(ValueError, match=r"^y: "):
        games.lift(RECT, x, [0.2, 0.3, 0.5 + 1e-8])


def test_drs_reports_its_method_and_no_safeguards() -> None:
    """A DRS run is labelled "DRS" and takes no safeguard (Newton) steps."""
    result = games.drs(RECT, max_iter=3, tol=1e-14)
    assert result.method == "DRS"
    assert (result.safeguard_steps, result.newton_iterations, result.ssn_runs) == (0, 0, 0)


def _support_of(v: np.ndarray) -> np.ndarray:
    return (_project_simplex(v) > 0.0).astype(float)


def _first_change(v: np.ndarray, e: np.ndarray, after: float, horizon: float) -> float:
    """Brute force: the first ``t > after`` where the support of ``Π(v + t e)`` changes, on a
    grid of ``horizon`` with step 1e-3, then bisection to 1e-13."""
    s0 = _support_of(v + (after + 1e-9) * e)
    grid = np.arange(after + 1e-3, horizon, 1e-3)
    hit = next(t for t in grid if not np.array_equal(_support_of(v + t * e), s0))
    lo, hi = hit - 1e-3, hit
    while hi - lo > 1e-13:
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if np.array_equal(_support_of(v + mid * e), s0) else (lo, mid)
    return hi


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_first_kink_is_where_the_support_changes(seed: int) -> None:
    """``_first_kink(v, e, s, after)`` (SSNConfig's kink search) is the smallest ``t > after``
    where ``Π(v + t e)`` leaves the support ``s``, found here by a grid and bisection; and
    ``(inf, -1)`` along ``e = c·1`` (the projection never changes)."""
    rng = np.random.default_rng(seed)
    v, e = rng.normal(size=5), rng.normal(size=5)
    t, i = _first_kink(v, e, _support_of(v), 0.0)
    expected = _first_change(v, e, 0.0, 50.0)
    assert t == pytest.approx(expected, abs=1e-9)
    assert _support_of(v + (t + 1e-7) * e)[i] != _support_of(v)[i]
    t2, _ = _first_kink(v, e, _support_of(v + (t + 1e-7) * e), t)  # the next one, after t
    assert t2 == pytest.approx(_first_change(v, e, t, 100.0), abs=1e-9)
    assert _first_kink(v, np.full(5, 0.3), _support_of(v), 0.0) == (np.inf, -1)


def test_pieces_follow_the_kinks_of_both_blocks() -> None:
    """``_pieces(m, u, d)``: consecutive intervals between the kinks of ``P(u + t d)`` (either
    block), from the first kink up to ``t = 1``, at most KINK_PIECES of them; the kinks are
    found here by brute force on each block."""
    rng = np.random.default_rng(8)
    m = 3
    u, d = rng.normal(size=7), 6.0 * rng.normal(size=7)
    kinks: list[float] = []
    for block in (slice(0, m), slice(m, None)):
        t = 0.0
        while True:
            try:
                t = _first_change(u[block], d[block], t, 1.0)
            except StopIteration:
                break
            kinks.append(t)
    kinks = sorted(k for k in kinks if k < 1.0)
    assert len(kinks) > KINK_PIECES  # more kinks before t = 1 than the search visits
    edges = [*kinks, 1.0][: KINK_PIECES + 1]
    expected = list(itertools.pairwise(edges))
    got = _pieces(m, u, d)
    assert len(got) == len(expected)
    np.testing.assert_allclose(np.array(got), np.array(expected), atol=1e-9)


@pytest.mark.parametrize("seed", [0, 4, 7])
def test_kink_search_takes_the_least_residual_point_of_the_first_piece(seed: int) -> None:
    """SSNConfig's kink search along ``d = -3R(u)``: on the first piece ``[t1, t2]`` after
    the first kink ``||R(u + t d)||`` is the norm of an affine function, so convex; the search
    returns a single trial at its minimiser over the piece, kept strictly inside it (off the
    kinks, by at most 1e-6 of its length), and that trial passes the Armijo test.  The minimum
    is found here by golden-section search on ``||R||`` evaluated with :func:`drs_residual`."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1.0, 1.0, (3, 4))
    u = rng.normal(size=7)
    cfg = SSNConfig()
    it = _evaluate(_context(a, 0.8), u)
    d = -3.0 * it.r
    t1, t2 = _pieces(3, u, d)[0]
    w, trial = _kink_search(_context(a, 0.8), it, d, cfg)
    assert w is None
    assert trial is not None
    t = float(np.median((trial.u - u) / d))
    np.testing.assert_allclose(trial.u, u + t * d, atol=1e-12)

    def norm(s: float) -> float:
        return float(np.linalg.norm(drs_residual(a, u + s * d, step_size=0.8)))

    lo, hi = t1, t2
    golden = (np.sqrt(5.0) - 1.0) / 2.0
    for _ in range(80):
        m1, m2 = hi - golden * (hi - lo), lo + golden * (hi - lo)
        lo, hi = (lo, m2) if norm(m1) <= norm(m2) else (m1, hi)
    best = 0.5 * (lo + hi)
    edge = 1e-6 * (t2 - t1)
    assert t1 < t < t2
    assert abs(t - min(max(best, t1 + edge), t2 - edge)) <= 1e-7 * (t2 - t1)
    assert trial.norm <= (1.0 - cfg.sigma * t) * it.norm


def test_residual_jacobian_is_the_derivative_for_the_given_gamma() -> None:
    """``J(u)`` against central finite differences of ``R(u)`` with ``γ = 0.7`` (R is piecewise
    affine; this ``u`` sits off its kinks, so the differences are exact up to rounding)."""
    u = np.array([0.9, -0.2, 0.4, 0.1, 0.6])
    jac = games.residual_jacobian(RECT, u, step_size=0.7)
    h = 1e-7
    fd = np.column_stack(
        [
            (
                games.drs_residual(RECT, u + h * e, step_size=0.7)
                - games.drs_residual(RECT, u - h * e, step_size=0.7)
            )
            / (2 * h)
            for e in np.eye(5)
        ]
    )
    np.testing.assert_allclose(jac, fd, atol=1e-6)
    assert np.max(np.abs(jac - games.residual_jacobian(RECT, u))) > 1e-3  # γ matters here


HYB = np.array([[1.5, -1.0, 0.3], [-0.7, 0.9, -1.2], [0.2, -0.4, 1.1]])  # max|a_ij| = 1.5


@pytest.mark.parametrize(("mode", "tau"), [("PSSN", 1e-3), ("HPSSN", 1e-2)])
def test_hybrid_switches_at_tau_times_the_payoff_scale(mode: str, tau: float) -> None:
    """The PRM+ phase ends once the candidate (last iterate or linear average, whichever has
    the smaller gap: ``prm_plus(averaging="best")``) has ``gap <= τ · max(1, max|a_ij|)``
    (τ_switch for PSSN, τ_0 for HPSSN; scale 1.5 here); the Newton phase then converges at
    once, so the first-order count is exactly PRM+'s count to that threshold, and the run is
    no fallback."""
    r = games.hybrid(HYB, mode=mode)
    switch = games.prm_plus(HYB, tol=tau * 1.5, averaging="best").iterations
    assert r.converged
    assert r.fallback is False
    assert r.ssn_runs == 1
    assert r.first_order_iterations == switch
    assert switch != games.prm_plus(HYB, tol=tau * 2.0, averaging="best").iterations


def test_hybrid_stop_tests_at_the_start_and_at_the_cap() -> None:
    """At a start whose gap is exactly ``tol`` (uniform pair of ``[[1, 0], [0, 0]]``: gap
    ``1/2 - 0``) the hybrid stops at once, converged; with the cap reached first the reason
    is "max_iter"."""
    at_start = games.hybrid(np.array([[1.0, 0.0], [0.0, 0.0]]), tol=0.5)
    assert (at_start.converged, at_start.iterations, at_start.stop_reason) == (True, 0, "tol")
    capped = games.hybrid(HYB, tol=1e-300, max_iter=1)
    assert (capped.converged, capped.stop_reason) == (False, "max_iter")


def test_ssn_converges_through_its_safeguard_steps() -> None:
    """Without the watchdog on this game most Newton steps fail their line search and take the
    Solodov-Svaiter safeguard step (a projection that moves towards the solution set); SSN
    still reaches ``tol``, the gap recomputed here from the returned pair."""
    payoff = np.random.default_rng(19).uniform(-1.0, 1.0, (8, 7))
    r = games.ssn(payoff, config=SSNConfig(step_size=20.0, watchdog=False))
    gap = float(np.max(r.x @ payoff) - np.min(payoff @ r.y))
    assert r.safeguard_steps > 10
    assert gap <= 1e-10
    assert r.converged


# ----------------------------------------------------------------- the hybrid loop, phase by phase
def _hybrid_by_hand(
    a: np.ndarray, *, tol: float, mode: str, max_iter: int, cfg: HybridConfig
) -> dict[str, Any]:
    """Algorithm 4 of spec 01 (as :func:`games.hybrid` documents it) composed of public calls.

    PRM+ is deterministic and never restarted, so "continue PRM+ until gap(candidate) <= τ" is
    ``prm_plus(averaging="best", tol=max(τ, tol))`` from scratch; a Newton phase is
    ``ssn(u0=lift(candidate), max_iter=rounds)``; after a failed phase
    ``τ <- θ min(τ, gap(candidate))`` and the rounds become ``K``.  ``max_iter`` caps PRM+
    plus Newton iterations together.  Returns the counts, the concatenated histories, the
    phases' results and the stop reason."""
    scale = max(1.0, float(np.max(np.abs(a))))
    tau = (cfg.tau_switch if mode == "PSSN" else cfg.tau0) * scale
    rounds = cfg.ssn_max_iter if mode == "PSSN" else cfg.newton_rounds
    newton = safeguards = first_order = 0
    gaps: list[float] = []
    residuals: list[float] = []
    runs: list[Any] = []
    switch_at: list[int] = []  # iterations spent when each Newton phase starts
    fallback = False
    reason = "max_iter"
    while max_iter - newton >= 1:
        prm = games.prm_plus(a, tol=max(tau, tol), averaging="best", max_iter=max_iter - newton)
        if not gaps:
            gaps.append(float(prm.gap_history[0]))
        gaps.extend(float(g) for g in prm.gap_history[first_order + 1 :])
        first_order = prm.iterations
        if prm.gap <= tol or not prm.converged or first_order + newton >= max_iter:
            break  # reached tol, or the cap is spent
        switch_at.append(first_order + newton)
        u0 = games.lift(a, prm.x, prm.y, step_size=cfg.ssn.step_size)
        run = games.ssn(
            a, tol=tol, u0=u0, config=cfg.ssn, max_iter=min(rounds, max_iter - first_order - newton)
        )
        runs.append(run)
        newton += run.iterations
        safeguards += run.safeguard_steps
        gaps.extend(float(g) for g in run.gap_history[1:])
        residuals.extend(float(r) for r in run.residual_history)
        if run.converged:
            break
        if run.stop_reason == "residual_floor":
            reason = "residual_floor"
            break
        if mode == "PSSN" and len(runs) == 1:
            fallback = first_order + newton < max_iter
        tau = cfg.theta * min(tau, prm.gap)
        rounds = cfg.newton_rounds
    return {
        "first_order": first_order,
        "newton": newton,
        "safeguards": safeguards,
        "gaps": gaps,
        "residuals": residuals,
        "runs": runs,
        "switch_at": switch_at,
        "fallback": fallback,
        "reason": reason,
    }


def _check_hybrid_against_by_hand(
    a: np.ndarray, *, tol: float, mode: str, max_iter: int, cfg: HybridConfig
) -> dict[str, Any]:
    start = time.perf_counter()
    r = games.hybrid(a, tol=tol, mode=mode, max_iter=max_iter, config=cfg)
    elapsed = time.perf_counter() - start
    assert r.method == mode
    assert 0.0 < r.wall_time <= elapsed
    want = _hybrid_by_hand(a, tol=tol, mode=mode, max_iter=max_iter, cfg=cfg)
    assert r.ssn_runs == len(want["runs"])
    assert (r.first_order_iterations, r.newton_iterations) == (want["first_order"], want["newton"])
    assert r.iterations == want["first_order"] + want["newton"] <= max_iter
    assert r.safeguard_steps == want["safeguards"]
    assert r.fallback is want["fallback"]
    np.testing.assert_allclose(r.gap_history, want["gaps"], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(r.residual_history, want["residuals"], rtol=1e-12, atol=1e-15)
    # the best profile ever seen is returned: its gap, recomputed, is the least one seen
    gap = float(np.max(r.x @ a) - np.min(a @ r.y))
    assert gap == pytest.approx(min(want["gaps"]), rel=1e-9, abs=1e-15)
    assert r.converged is (gap <= tol)
    assert r.stop_reason == ("tol" if gap <= tol else want["reason"])
    return want


# (seed, shape, mode, newton_rounds, ssn_max_iter): HPSSN with 2 and 3 Newton phases, and PSSN
# whose first phase (1 Newton iteration) fails and falls back to HPSSN.
_PHASED = [
    (5, (8, 7), "HPSSN", 2, 300),
    (2, (6, 5), "HPSSN", 2, 300),
    (5, (6, 5), "PSSN", 2, 1),
]


@pytest.mark.parametrize(("seed", "shape", "mode", "rounds", "ssn_cap"), _PHASED)
def test_hybrid_phases_match_the_algorithm_composed_by_hand(
    seed: int, shape: tuple[int, int], mode: str, rounds: int, ssn_cap: int
) -> None:
    """Several PRM+ and Newton phases: counts, histories, fallback and the returned (best)
    profile agree with spec 01 Algorithm 4 written out with prm_plus, lift and ssn."""
    a = np.random.default_rng(seed).uniform(-1.0, 1.0, shape)
    cfg = HybridConfig(newton_rounds=rounds, ssn_max_iter=ssn_cap)
    want = _check_hybrid_against_by_hand(a, tol=1e-10, mode=mode, max_iter=100_000, cfg=cfg)
    assert len(want["runs"]) >= 2  # the instance has failed Newton phases
    assert want["runs"][-1].converged
    assert want["fallback"] is (mode == "PSSN")


def test_hybrid_sums_the_safeguard_steps_of_all_its_newton_phases() -> None:
    """HPSSN (K = 3) with the ratio rule and no watchdog: safeguard steps in more than one
    Newton phase; the reported count is their sum (Algorithm 4 written out by hand)."""
    a = np.random.default_rng(1).uniform(-1.0, 1.0, (5, 4))
    cfg = HybridConfig(newton_rounds=3, ssn=SSNConfig(acceptance="ratio", watchdog=False))
    want = _check_hybrid_against_by_hand(a, tol=1e-10, mode="HPSSN", max_iter=100_000, cfg=cfg)
    per_phase = [run.safeguard_steps for run in want["runs"]]
    assert sum(per_phase) > max(per_phase)  # the instance tells a sum from one phase's count


@pytest.mark.parametrize(("seed", "shape", "mode", "rounds", "ssn_cap"), _PHASED)
def test_hybrid_cap_counts_prm_plus_and_newton_iterations_together(
    seed: int, shape: tuple[int, int], mode: str, rounds: int, ssn_cap: int
) -> None:
    """``max_iter`` at, one and two past each switch to Newton: the run stops within the cap,
    a phase is cut to the iterations left (none is started with none left), PSSN reports a
    fallback only when it can continue, and the best profile seen so far (a failed Newton
    phase's, when it beats PRM+) is returned; all as Algorithm 4 written out by hand."""
    a = np.random.default_rng(seed).uniform(-1.0, 1.0, shape)
    cfg = HybridConfig(newton_rounds=rounds, ssn_max_iter=ssn_cap)
    full = _hybrid_by_hand(a, tol=1e-10, mode=mode, max_iter=100_000, cfg=cfg)
    caps = sorted({c + k for c in full["switch_at"] for k in (0, 1, 2)})
    for cap in caps:
        want = _check_hybrid_against_by_hand(a, tol=1e-10, mode=mode, max_iter=cap, cfg=cfg)
        assert want["first_order"] + want["newton"] == cap  # the cap was reached
    assert any(
        len(w["runs"]) > 0 and not w["runs"][-1].converged
        for w in (_hybrid_by_hand(a, tol=1e-10, mode=mode, max_iter=c, cfg=cfg) for c in caps)
    )  # some capped run ends on a failed Newton phase


def test_hybrid_stops_at_a_newton_phase_that_reaches_the_residual_floor() -> None:
    """With a residual floor ``tol_res = 1e-7`` far above what ``tol = 1e-14`` needs, the first
    Newton phase ends at the floor with the gap above ``tol``: the hybrid stops there (no
    later phase), ``converged=False``, ``stop_reason="residual_floor"``."""
    a = np.random.default_rng(5).uniform(-1.0, 1.0, (8, 7))
    cfg = HybridConfig(ssn=SSNConfig(tol_res=1e-7))
    want = _check_hybrid_against_by_hand(a, tol=1e-14, mode="HPSSN", max_iter=5_000, cfg=cfg)
    assert want["reason"] == "residual_floor"
    assert len(want["runs"]) == 1
    assert want["runs"][0].gap > 1e-14


def test_hybrid_config_accepts_one_newton_round() -> None:
    """``newton_rounds`` is an integer ``>= 1``: ``K = 1`` is allowed."""
    assert HybridConfig(newton_rounds=1).newton_rounds == 1


# ----------------------------------------------------------------- RM+ / PRM+ results
@pytest.mark.parametrize("fn", [games.rm_plus, games.prm_plus])
def test_regret_solvers_stop_at_once_at_a_start_within_tol(fn: Callable[..., Any]) -> None:
    """The uniform start of ``[[1, 0], [0, 0]]`` has gap exactly ``1/2 - 0``: with ``tol = 1/2``
    (non-strict) and with ``tol = 1`` the run stops before any step, converged; with
    ``tol = 1/4`` it steps (the same start is not within tol)."""
    a = np.array([[1.0, 0.0], [0.0, 0.0]])
    for tol in (0.5, 1.0):
        r = fn(a, tol=tol, max_iter=50)
        assert (r.iterations, r.converged, r.stop_reason) == (0, True, "tol")
        assert r.gap_history.tolist() == [0.5]
    assert fn(a, tol=0.25, max_iter=50).iterations > 0


@pytest.mark.parametrize("fn", [games.rm_plus, games.prm_plus])
def test_regret_solver_result_fields(fn: Callable[..., Any]) -> None:
    """On a game solved within the cap: ``converged`` is the bool ``True``, the gap history is
    float with one entry per iteration plus the start and ends at the returned pair's gap
    (recomputed here), there is no residual history, and the wall time is positive and at most
    the time measured around the call."""
    a = np.array([[2.0, -1.0], [-1.0, 1.0]])
    start = time.perf_counter()
    r = fn(a, tol=5e-2, max_iter=5_000)
    elapsed = time.perf_counter() - start
    gap = float(np.max(r.x @ a) - np.min(a @ r.y))
    assert r.converged is True
    assert r.gap_history.dtype == np.float64
    assert r.gap_history.shape == (r.iterations + 1,)
    assert r.gap_history[-1] == pytest.approx(gap, rel=1e-9, abs=1e-15)
    assert r.residual_history.shape == (0,)
    assert 0.0 < r.wall_time <= elapsed


@pytest.mark.parametrize("predictive", [False, True])
def test_regret_solvers_honour_alternating(predictive: bool) -> None:
    """``alternating=True`` runs the alternating dynamics: the last iterate after 7 steps is
    the one regret_trajectory records for the same flags (documented as the same dynamics),
    which differs from the simultaneous one on this game."""
    fn = games.prm_plus if predictive else games.rm_plus
    alt = games.regret_trajectory(BIASED, iterations=7, predictive=predictive, alternating=True)
    sim = games.regret_trajectory(BIASED, iterations=7, predictive=predictive)
    assert np.max(np.abs(alt.xs[-1] - sim.xs[-1])) > 1e-3
    r = fn(BIASED, tol=1e-12, max_iter=7, alternating=True, averaging="last")
    np.testing.assert_allclose(r.x, alt.xs[-1], atol=1e-12)
    np.testing.assert_allclose(r.y, alt.ys[-1], atol=1e-12)


# ----------------------------------------------------------------- SSN
def test_ssn_stop_tests_are_non_strict_and_either_one_stops() -> None:
    """As for DRS: at a pure start of an integer game with ``γ = 1`` the gap is exactly 1, so
    ``tol = 1`` stops at once (converged), and ``tol_res`` equal to the start's residual stops at
    once at the residual floor."""
    a = np.array([[1.0, 0.0], [0.0, 0.0]])
    u0 = np.array([1.0, 0.0, 0.0, 1.0])
    at_tol = games.ssn(a, u0=u0, tol=1.0, config=SSNConfig(step_size=1.0))
    assert (at_tol.iterations, at_tol.converged, at_tol.stop_reason) == (0, True, "tol")
    floor = float(np.linalg.norm(games.drs_residual(a, u0, step_size=1.0)))
    at_floor = games.ssn(a, u0=u0, tol=1e-12, config=SSNConfig(step_size=1.0, tol_res=floor))
    assert (at_floor.iterations, at_floor.converged) == (0, False)
    assert at_floor.stop_reason == "residual_floor"


def test_ssn_default_cap_is_300_newton_iterations() -> None:
    """``max_iter`` defaults to 300: on ``[[1.00001, 1.0]]`` without the watchdog cold SSN
    stalls (SSNConfig's docstring), so it stops at exactly 300 iterations."""
    r = games.ssn(np.array([[1.00001, 1.0]]), config=SSNConfig(watchdog=False))
    assert (r.iterations, r.stop_reason) == (300, "max_iter")


@pytest.mark.parametrize("payoff", [[[1.00001, 1.0]], [[1e-6, 0.0, 0.0], [0.0, 1.0, 0.0]]])
def test_ssn_watchdog_respects_the_cap(payoff: list[list[float]]) -> None:
    """On the two safeguard games of SSNConfig's docstring, with the watchdog and the kink
    search on, ``max_iter`` from 1 to 6 is never exceeded (a watchdog pair is two linear
    solves, so it is tried only with two left); the wall time is positive and at most the
    time measured around the call."""
    a = np.array(payoff)
    cfg = SSNConfig(watchdog=True, kink_search=True)
    for cap in range(1, 7):
        start = time.perf_counter()
        r = games.ssn(a, max_iter=cap, config=cfg)
        elapsed = time.perf_counter() - start
        assert r.iterations <= cap
        assert r.newton_iterations == r.iterations
        assert 0.0 < r.wall_time <= elapsed


def _ssn_ratio_by_hand(a: np.ndarray, steps: int, cfg: SSNConfig) -> tuple[np.ndarray, int, int]:
    """Spec 01 Algorithm 2 with the ratio rule and no watchdog, from ``L(uniform)``, written
    out with the public newton_direction and drs_residual: ``μ = λ||R(u)||``; the full step is
    accepted if ``||R(u + d)|| <= ν||R(u_ref)||`` (then ``u_ref`` moves there and ``λ`` halves,
    clamped); else the Solodov-Svaiter step along ``R(u + d)`` if ``ρ = -<R(u + d), d> > 0``,
    else a DRS step, and ``λ <- min(4λ, λ_max)``.  Returns ``(u, steps, safeguards)``."""
    m, n = a.shape
    g = cfg.step_size
    u = games.lift(a, np.full(m, 1.0 / m), np.full(n, 1.0 / n), step_size=g)
    lam, safeguards = cfg.lambda0, 0
    ref = float(np.linalg.norm(games.drs_residual(a, u, step_size=g)))
    for _ in range(steps):
        r = games.drs_residual(a, u, step_size=g)
        d = games.newton_direction(a, u, lam * float(np.linalg.norm(r)), step_size=g)
        r_w = games.drs_residual(a, u + d, step_size=g)
        if float(np.linalg.norm(r_w)) <= cfg.nu * ref:
            u, ref, lam = u + d, float(np.linalg.norm(r_w)), max(lam / 2.0, cfg.lambda_min)
            continue
        safeguards += 1
        rho = -float(r_w @ d)
        u = u - (rho / float(r_w @ r_w)) * r_w if rho > 0.0 else u - r
        lam = min(4.0 * lam, cfg.lambda_max)
    return u, steps, safeguards


def test_ssn_ratio_rule_follows_algorithm_2_by_hand() -> None:
    """``acceptance="ratio"`` without the watchdog: after each of the first 7 iterations the
    lifted point and the safeguard count are those of Algorithm 2 written out by hand (the
    instance has accepted and rejected steps: gap stays above ``tol`` throughout)."""
    a = np.random.default_rng(0).uniform(-1.0, 1.0, (5, 4))
    cfg = SSNConfig(step_size=0.8, acceptance="ratio", watchdog=False)
    counts = []
    for steps in range(1, 8):
        r = games.ssn(a, tol=1e-14, max_iter=steps, config=cfg)
        u, k, safeguards = _ssn_ratio_by_hand(a, steps, cfg)
        assert r.u is not None
        np.testing.assert_allclose(r.u, u, atol=1e-12)
        assert (r.iterations, r.safeguard_steps) == (k, safeguards)
        counts.append(safeguards)
    assert 0 < counts[-1] < 7  # both branches are taken


def test_newton_direction_uses_the_given_gamma() -> None:
    """``(J(u) + μI) d = -R(u)`` with ``J`` and ``R`` for ``γ = 0.7`` (not the default)."""
    u = np.array([0.9, -0.2, 0.4, 0.1, 0.6])
    d = games.newton_direction(RECT, u, 0.3, step_size=0.7)
    jac = games.residual_jacobian(RECT, u, step_size=0.7)
    rhs = -games.drs_residual(RECT, u, step_size=0.7)
    np.testing.assert_allclose((jac + 0.3 * np.eye(5)) @ d, rhs, atol=1e-12)
    other = games.newton_direction(RECT, u, 0.3)
    assert np.max(np.abs(d - other)) > 1e-3  # γ matters here


def test_prm_plus_best_is_the_better_of_last_and_linear_average() -> None:
    """``averaging="best"``: whichever of the last iterate and the linear average has the smaller
    gap, both from the recursion written out above and their gaps recomputed; the instance
    picks each of the two at some step count."""
    a = np.random.default_rng(3).uniform(-1.0, 1.0, (3, 4))
    xs, ys = _regret_recursion(a, 15, predictive=True)
    picked = set()
    for steps in range(1, 16):
        w = np.arange(1.0, steps + 1)
        lin = (w @ xs[:steps] / w.sum(), w @ ys[:steps] / w.sum())
        last = (xs[steps - 1], ys[steps - 1])

        def gap(pair: tuple[np.ndarray, np.ndarray]) -> float:
            return float(np.max(pair[0] @ a) - np.min(a @ pair[1]))

        if abs(gap(lin) - gap(last)) < 1e-9:
            continue  # too close to call by recomputation
        want, which = (lin, "linear") if gap(lin) < gap(last) else (last, "last")
        picked.add(which)
        r = games.prm_plus(a, tol=1e-12, max_iter=steps, averaging="best")
        np.testing.assert_allclose(r.x, want[0], atol=1e-12)
        np.testing.assert_allclose(r.y, want[1], atol=1e-12)
    assert picked == {"linear", "last"}


def test_default_residual_floor_scales_with_max_gamma_a() -> None:
    """The default floor is ``1e-14 · max(1, max|γ a_ij|)`` (here ``1.5e-14``: ``γ = 1``,
    ``max|a_ij| = 1.5``): a start near ``L(z*)`` with ``||R|| = 1.25e-14`` stops at once at the
    floor, one with ``||R|| = 1.75e-14`` takes a step (``tol`` is far below every gap)."""
    a = 0.5 * np.array([[3.0, -1.0], [-2.0, 1.0]])  # equilibrium x = (3/7, 4/7), y = (2/7, 5/7)
    base = games.lift(a, [3 / 7, 4 / 7], [2 / 7, 5 / 7], step_size=1.0)
    v = np.array([0.3, -0.1, 0.2, 0.4])
    slope = float(np.linalg.norm(games.drs_residual(a, base + 1e-6 * v, step_size=1.0))) / 1e-6
    for target, stops in ((1.25e-14, True), (1.75e-14, False)):
        u0 = base + (target / slope) * v
        norm = float(np.linalg.norm(games.drs_residual(a, u0, step_size=1.0)))
        assert abs(norm - target) <= 0.05 * target  # R is affine here: the scaling is exact
        r = games.drs(a, u0=u0, step_size=1.0, tol=1e-300, max_iter=1)
        assert (r.iterations == 0) is stops
        if stops:
            assert r.stop_reason == "residual_floor"


def test_ssn_config_accepts_its_inclusive_limits() -> None:
    """``lambda0 <= lambda_max`` is inclusive and ``max_backtracks >= 1`` allows one trial."""
    assert SSNConfig(lambda0=2.0, lambda_max=2.0).lambda0 == 2.0
    assert SSNConfig(max_backtracks=1).max_backtracks == 1


@pytest.mark.parametrize("predictive", [False, True])
def test_regret_solvers_quadratic_average_weights_t_squared(predictive: bool) -> None:
    """``averaging="quadratic"`` reports ``Σ t² x^t / Σ t²`` (and the same for ``y``), from the
    recursion written out above."""
    steps = 12
    xs, ys = _regret_recursion(BIASED, steps, predictive)
    w = np.arange(1.0, steps + 1) ** 2
    fn = games.prm_plus if predictive else games.rm_plus
    r = fn(BIASED, tol=1e-12, max_iter=steps, averaging="quadratic")
    np.testing.assert_allclose(r.x, w @ xs / w.sum(), atol=1e-12)
    np.testing.assert_allclose(r.y, w @ ys / w.sum(), atol=1e-12)
    assert np.max(np.abs(w @ xs / w.sum() - xs.mean(axis=0))) > 1e-3  # not the uniform one


def test_simplex_jacobian_counts_ties_as_inactive() -> None:
    """Coordinates with ``v_i = τ`` exactly are outside the support (spec 01, Section 3.2):
    ``(1, 0)`` has ``τ = 0``, support ``{0}`` and ``D = 1 - 1 = 0``; ``(0.5, 0.5, 0)`` has
    ``τ = 0`` and support ``{0, 1}``, so ``D = diag(1, 1, 0) - s sᵀ / 2``, written out here."""
    np.testing.assert_array_equal(simplex_jacobian([1.0, 0.0]), np.zeros((2, 2)))
    expected = np.array([[0.5, -0.5, 0.0], [-0.5, 0.5, 0.0], [0.0, 0.0, 0.0]])
    np.testing.assert_array_equal(simplex_jacobian([0.5, 0.5, 0.0]), expected)


def test_simplex_jacobian_of_huge_entries_is_a_finite_projector() -> None:
    """At ``(1e20, 1e20)`` every ``v_i - τ`` rounds to 0; the support is still non-empty, so
    ``D`` is finite, symmetric, idempotent, kills ``1``, and its trace ``|S| - 1`` is a whole
    number in ``[0, k - 1]``."""
    d = simplex_jacobian([1e20, 1e20])
    assert np.all(np.isfinite(d))
    np.testing.assert_array_equal(d, d.T)
    np.testing.assert_allclose(d @ d, d, atol=1e-15)
    np.testing.assert_allclose(d @ np.ones(2), 0.0, atol=1e-15)
    trace = float(np.trace(d))
    assert trace in (0.0, 1.0)


def test_dense_solve_of_a_singular_system_is_the_minimum_norm_solution() -> None:
    """``K = [[1, 2], [2, 4]]`` is exactly singular (the LU solve fails); for the consistent
    right side ``(1, 2)`` the solutions are ``x + 2y = 1`` and the one of least norm is
    ``(1, 2) / 5`` (orthogonal to the null vector ``(2, -1)``), worked out by hand."""
    k = np.array([[1.0, 2.0], [2.0, 4.0]])
    d = _solve(k, np.array([1.0, 2.0]))
    assert d.shape == (2,)
    np.testing.assert_allclose(d, [0.2, 0.4], rtol=0.0, atol=1e-14)
    np.testing.assert_allclose(k @ d, [1.0, 2.0], rtol=0.0, atol=1e-14)


def test_default_step_size_rejects_payoffs_that_are_not_matrices() -> None:
    """The payoff must be 2-D (a vector or a 3-D array has no operator norm ``||A||_2``)."""
    for bad in (np.array([1.0, 2.0]), np.ones((2, 2, 2))):
        with pytest.raises(ValueError, match="payoff"):
            games.default_step_size(bad)


def test_simplex_threshold_where_the_largest_entry_dominates_huge_ones() -> None:
    """``ρ = 1`` when ``u_2 - (u_1 + u_2 - 1)/2 = (u_2 - u_1 + 1)/2 < 0``, so ``τ = u_1 - 1``;
    with entries near ``1e20`` every test quantity rounds to ``<= 0`` and ``ρ = 1`` must
    still be the answer (Algorithm P's ``ρ >= 1``)."""
    assert games.simplex_threshold([3e20, 1e20]) == 3e20 - 1.0
    assert games.simplex_threshold([1e20]) == 1e20 - 1.0
