"""Tests written for the mutants mutmut left alive in reference/perturbation (issue 36, item 6).

Each test checks documented behaviour that a surviving mutant broke: an argument's domain and
the argument its error names (STYLE: only documented ValueError/TypeError escape, naming the
argument), the paper's game matrices as spec 19 §8 writes them, the official settings.
Expected values come from the spec's text or from independent computations written here,
never from the library's output.  The triage of every survivor is in
benchmarks/results/mutation_perturbation.md.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
import pytest

from reference import perturbation as pert

CLOSED = np.array([[2.0, -1.0], [-1.0, 1.0]])
RECT = np.array([[1.0, -1.0, 0.5], [-0.5, 1.0, -1.0]])  # 2 x 3: x has 2 entries, y has 3
RNG = np.random.default_rng(0)
ANY_PERT: Any = pert  # calls with ill-typed arguments, on purpose

#: spec 19 §8: M-Ne is ``P = -M`` with this ``M``; our min-form loss is ``A = -P = M``.
M_NE_SPEC = [
    [0, -1, 1, 0, 0],
    [1, 0, -1, 0, 0],
    [-1, 1, 0, 0, 0],
    [-1, 1, 0, 2, -1],
    [-1, 1, 0, -1, 2],
]

_BAD_INPUT: list[tuple[str, Callable[[], object], type[Exception], str]] = [
    # measures
    ("step payoff", lambda: pert.default_step_size([[np.nan]]), ValueError, "payoff"),
    ("step mu", lambda: pert.default_step_size(CLOSED, mu=-1.0), ValueError, "mu"),
    ("pgap x size", lambda: pert.perturbed_gap(RECT, [1.0], [1, 0, 0], mu=1.0), ValueError, "x"),
    (
        "pgap x off",
        lambda: pert.perturbed_gap(RECT, [0.7, 0.7], [1, 0, 0], mu=1.0),
        ValueError,
        "x",
    ),
    ("pgap y size", lambda: pert.perturbed_gap(RECT, [1, 0], [0.5, 0.5], mu=1.0), ValueError, "y"),
    ("pgap y off", lambda: pert.perturbed_gap(RECT, [1, 0], [1, 1, 0], mu=1.0), ValueError, "y"),
    ("pgap mu", lambda: pert.perturbed_gap(RECT, [1, 0], [1, 0, 0], mu=0.0), ValueError, "mu"),
    ("fw x size", lambda: pert.frank_wolfe_gap(RECT, [1.0], [1, 0, 0]), ValueError, "x"),
    ("fw x off", lambda: pert.frank_wolfe_gap(RECT, [0.7, 0.7], [1, 0, 0]), ValueError, "x"),
    ("fw y size", lambda: pert.frank_wolfe_gap(RECT, [1, 0], [0.5, 0.5]), ValueError, "y"),
    ("fw y off", lambda: pert.frank_wolfe_gap(RECT, [1, 0], [1, 1, 0]), ValueError, "y"),
    (
        "fw mu_x",
        lambda: pert.frank_wolfe_gap(RECT, [1, 0], [1, 0, 0], mu_x=-1.0),
        ValueError,
        "mu_x",
    ),
    (
        "fw mu_y",
        lambda: pert.frank_wolfe_gap(RECT, [1, 0], [1, 0, 0], mu_y=-1.0),
        ValueError,
        "mu_y",
    ),
    ("qp mu", lambda: pert.perturbed_minimiser(CLOSED, mu=0.0), ValueError, "mu"),
    ("qp payoff", lambda: pert.perturbed_minimiser([[np.inf, 0.0]], mu=1.0), ValueError, "payoff"),
    # the official settings
    ("settings step_size", lambda: pert.RunnerSettings(step_size=0.0), ValueError, "step_size"),
    ("settings mu", lambda: pert.RunnerSettings(mu=0.0), ValueError, "mu"),
    ("settings iterations", lambda: pert.RunnerSettings(iterations=-1), ValueError, "iterations"),
    (
        "settings iterations type",
        lambda: ANY_PERT.RunnerSettings(iterations=1.5),
        TypeError,
        "iterations",
    ),
    ("settings trials", lambda: pert.RunnerSettings(trials=0), ValueError, "trials"),
    ("settings gap_tol", lambda: pert.RunnerSettings(gap_tol=0.0), ValueError, "gap_tol"),
    # random starts
    (
        "starts shape",
        lambda: ANY_PERT.dirichlet_starts([2, 3], trials=1, rng=RNG),
        TypeError,
        "shape",
    ),
    (
        "starts m",
        lambda: pert.dirichlet_starts((0, 3), trials=1, rng=RNG),
        ValueError,
        r"shape\[0\]",
    ),
    (
        "starts n",
        lambda: pert.dirichlet_starts((2, 0), trials=1, rng=RNG),
        ValueError,
        r"shape\[1\]",
    ),
    (
        "starts trials",
        lambda: pert.dirichlet_starts((2, 3), trials=0, rng=RNG),
        ValueError,
        "trials",
    ),
    ("starts rng", lambda: ANY_PERT.dirichlet_starts((2, 3), trials=1, rng=0), TypeError, "rng"),
    # the algorithms: every validated argument
    *[
        (f"{fn.__name__} {arg}", (lambda fn=fn, kw=kw: fn(CLOSED, **kw)), err, name)
        for fn, base in [
            (pert.asymp_gda_side, {"mu": 1.0}),
            (pert.asymp_gda, {"mu": 1.0}),
            (pert.symp_gda, {"mu": 1.0}),
            (pert.gda, {}),
            (pert.ogda, {}),
            (pert.omwu, {}),
        ]
        for arg, kw, err, name in [
            ("step_size", {**base, "step_size": 0.0}, ValueError, "step_size"),
            ("max_iter", {**base, "max_iter": -1}, ValueError, "max_iter"),
            ("max_iter type", {**base, "max_iter": 2.5}, TypeError, "max_iter"),
            ("tol", {**base, "tol": 0.0}, ValueError, "tol"),
            ("x0 size", {**base, "x0": [1.0, 0.0, 0.0]}, ValueError, "x0"),
            ("x0 off", {**base, "x0": [0.7, 0.7]}, ValueError, "x0"),
            ("y0 size", {**base, "y0": [1.0]}, ValueError, "y0"),
            ("y0 off", {**base, "y0": [1.5, -0.5]}, ValueError, "y0"),
        ]
    ],
    ("payoff", lambda: pert.asymp_gda([[np.nan, 1.0]], mu=1.0), ValueError, "payoff"),
    ("side mu", lambda: pert.asymp_gda_side(CLOSED, mu=0.0), ValueError, "mu"),
    ("side side", lambda: ANY_PERT.asymp_gda_side(CLOSED, mu=1.0, side="z"), ValueError, "side"),
    (
        "side variant",
        lambda: ANY_PERT.asymp_gda_side(CLOSED, mu=1.0, variant="v"),
        ValueError,
        "variant",
    ),
    ("side stop", lambda: ANY_PERT.asymp_gda_side(CLOSED, mu=1.0, stop="s"), ValueError, "stop"),
    ("asymp mu", lambda: pert.asymp_gda(CLOSED, mu=-1.0), ValueError, "mu"),
    (
        "asymp variant",
        lambda: ANY_PERT.asymp_gda(CLOSED, mu=1.0, variant="v"),
        ValueError,
        "variant",
    ),
    ("asymp stop", lambda: ANY_PERT.asymp_gda(CLOSED, mu=1.0, stop="s"), ValueError, "stop"),
    ("symp mu", lambda: pert.symp_gda(CLOSED, mu=0.0), ValueError, "mu"),
    ("symp stop", lambda: ANY_PERT.symp_gda(CLOSED, mu=1.0, stop="s"), ValueError, "stop"),
    ("ogda variant", lambda: ANY_PERT.ogda(CLOSED, variant="v"), ValueError, "variant"),
    ("pf payoff", lambda: pert.parameter_free([[np.nan]]), ValueError, "payoff"),
    ("pf tol", lambda: pert.parameter_free(CLOSED, tol=0.0), ValueError, "tol"),
    ("pf max_iter", lambda: pert.parameter_free(CLOSED, max_iter=-1), ValueError, "max_iter"),
    ("pf max_inner", lambda: pert.parameter_free(CLOSED, max_inner=0), ValueError, "max_inner"),
    (
        "pf check_every",
        lambda: pert.parameter_free(CLOSED, check_every=0),
        ValueError,
        "check_every",
    ),
    ("pf patience", lambda: pert.parameter_free(CLOSED, patience=-1), ValueError, "patience"),
    ("pf mu_init", lambda: pert.parameter_free(CLOSED, mu_init=0.0), ValueError, "mu_init"),
    (
        "pf mu_init floor",
        lambda: pert.parameter_free(CLOSED, mu_init=1e-300),
        ValueError,
        "mu_init",
    ),
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


def test_m_ne_is_the_spec_matrix() -> None:
    """spec 19 §8 writes M-Ne as ``P = -M``; the min-form loss is ``A = -P = M``, entry by entry
    (rows 4-5 do not move the value or ``x*``, so only the matrix itself pins them)."""
    assert np.array_equal(pert.m_ne(), np.array(M_NE_SPEC, dtype=float))


def test_fresh_runner_settings_are_the_official_ones() -> None:
    """A newly built :class:`RunnerSettings` (not the import-time ``OFFICIAL``) validates its
    fields and holds spec 19 §8's values; a zero iteration cap is a valid cap (as ``max_iter``)."""
    s = pert.RunnerSettings()
    assert (s.step_size, s.mu, s.iterations, s.trials, s.gap_tol) == (
        0.01,
        1.0,
        100_000,
        100,
        1e-13,
    )
    assert pert.RunnerSettings(iterations=0).iterations == 0
    assert pert.RunnerSettings(trials=1).trials == 1


def _gap(a: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    return float(np.max(x @ a) - np.min(a @ y))


@pytest.mark.parametrize(
    "call",
    [
        lambda **kw: pert.asymp_gda_side(CLOSED, mu=1.0, **kw),
        lambda **kw: pert.asymp_gda_side(CLOSED, mu=1.0, side="y", **kw),
        lambda **kw: pert.asymp_gda(CLOSED, mu=1.0, **kw),
        lambda **kw: pert.symp_gda(CLOSED, mu=1.0, **kw),
        lambda **kw: pert.gda(CLOSED, **kw),
        lambda **kw: pert.ogda(CLOSED, **kw),
        lambda **kw: pert.omwu(CLOSED, **kw),
    ],
)
def test_a_zero_iteration_cap_returns_the_start(call: Callable[..., pert.GDAResult]) -> None:
    """``max_iter >= 0`` is documented: a cap of 0 returns the start, with its NashConv
    recomputed here, one history entry, and ``stop_reason="max_iter"`` (the start is no
    equilibrium)."""
    x0, y0 = np.array([0.3, 0.7]), np.array([0.6, 0.4])
    r = call(max_iter=0, x0=x0, y0=y0)
    assert r.iterations == 0
    assert np.array_equal(r.x, x0)
    assert np.array_equal(r.y, y0)
    assert r.history.shape == (1,)
    assert r.nash_conv == pytest.approx(_gap(CLOSED, x0, y0), abs=1e-15)
    assert (r.converged, r.stop_reason) == (False, "max_iter")


def test_parameter_free_with_a_zero_cap_returns_the_uniform_start() -> None:
    """``max_iter >= 0`` and ``patience >= 0`` are documented domains."""
    r = pert.parameter_free(RECT, max_iter=0, patience=0)
    x, y = np.full(2, 0.5), np.full(3, 1 / 3)
    assert (r.iterations, r.halvings, r.converged, r.stop_reason) == (0, 0, False, "max_iter")
    assert np.allclose(r.x, x, rtol=0, atol=1e-15)
    assert np.allclose(r.y, y, rtol=0, atol=1e-15)
    assert r.nash_conv == pytest.approx(_gap(RECT, x, y), abs=1e-15)


# ------------------------------------------------------------ the recursions, written out
def _proj(v: np.ndarray) -> np.ndarray:
    """Euclidean projection onto the simplex by sorting (Held, Wolfe, Crowder 1974)."""
    s = np.sort(v)[::-1]
    cums = np.cumsum(s) - 1.0
    k = np.flatnonzero(s - cums / np.arange(1, v.size + 1) > 0)[-1]
    out: np.ndarray = np.maximum(v - cums[k] / (k + 1), 0.0)
    return out


def _pgap(a: np.ndarray, x: np.ndarray, y: np.ndarray, mu: float) -> float:
    """x-side perturbed gap: ``g(x) + (μ/2)|x|² - min_x' [x'ᵀAy + (μ/2)|x'|²]``, the inner
    minimum at ``Π(-Ay/μ)``."""
    best = _proj(-(a @ y) / mu)
    upper = float(np.max(x @ a)) + 0.5 * mu * float(x @ x)
    return upper - (float(best @ a @ y) + 0.5 * mu * float(best @ best))


GAME = np.array([[0.5, -1.0, 2.0], [-1.5, 1.0, 0.0], [1.0, 0.5, -2.0], [0.0, -0.5, 1.0]])
X0 = np.array([0.1, 0.2, 0.3, 0.4])
Y0 = np.array([0.5, 0.3, 0.2])
ETA, MU, STEPS = 0.15, 0.7, 7


#: Row 0 dominates by 5 > μ = 1, so ``x = e_0``, ``y = e_1`` is the equilibrium of the plain
#: and of every perturbed game here; from the uniform start one step with ``η = 10`` lands on
#: it exactly (every projection clips to a vertex), where every gap is exactly 0.
DOMINANT = np.array([[0.0, 1.0], [5.0, 6.0]])


def _stops_after_one_step() -> None:
    """Each method reaches ``tol`` on DOMINANT after exactly one step (OMWU after the number
    of steps its own recursion, written out here, needs); run first in the tests below, so a
    wrong step count or loop condition fails there rather than looping on ``tol=None``."""
    kw: dict[str, Any] = {"step_size": 10.0, "tol": 1e-12, "max_iter": 5}
    runs = [
        pert.asymp_gda_side(DOMINANT, mu=1.0, **kw),
        pert.asymp_gda_side(DOMINANT, mu=1.0, side="y", **kw),
        pert.asymp_gda_side(DOMINANT, mu=1.0, side="y", variant="y_first", **kw),
        pert.asymp_gda(DOMINANT, mu=1.0, **kw),
        pert.symp_gda(DOMINANT, mu=1.0, **kw),
        pert.gda(DOMINANT, **kw),
        pert.ogda(DOMINANT, **kw),
        pert.ogda(DOMINANT, variant="simultaneous", **kw),
    ]
    for r in runs:
        assert (r.iterations, r.converged, r.stopping) == (1, True, 0.0)
        assert np.array_equal(r.x, [1.0, 0.0])
        assert np.array_equal(r.y, [0.0, 1.0])
    x, y = np.full(2, 0.5), np.full(2, 0.5)
    gx_prev, gy_prev, steps = DOMINANT @ y, DOMINANT.T @ x, 0
    while float(np.max(x @ DOMINANT) - np.min(DOMINANT @ y)) > 1e-6:
        gx, gy = DOMINANT @ y, DOMINANT.T @ x
        x = x * np.exp(-0.1 * (2 * gx - gx_prev))
        y = y * np.exp(0.1 * (2 * gy - gy_prev))
        x, y = x / x.sum(), y / y.sum()
        gx_prev, gy_prev, steps = gx, gy, steps + 1
    r = pert.omwu(DOMINANT, step_size=0.1, tol=1e-6, max_iter=steps + 3)
    assert steps >= 2
    assert (r.iterations, r.converged) == (steps, True)


def test_the_dominant_game_stops_after_one_step() -> None:
    _stops_after_one_step()


def test_perturbed_and_frank_wolfe_gaps_match_their_formulas() -> None:
    fw_x_grad, fw_y_grad = -(GAME @ Y0) - 0.3 * X0, GAME.T @ X0 - 0.2 * Y0
    fw = float(np.max(fw_x_grad) - fw_x_grad @ X0) + float(np.max(fw_y_grad) - fw_y_grad @ Y0)
    assert pert.frank_wolfe_gap(GAME, X0, Y0, mu_x=0.3, mu_y=0.2) == pytest.approx(fw, abs=1e-14)
    assert pert.perturbed_gap(GAME, X0, Y0, mu=MU) == pytest.approx(
        _pgap(GAME, X0, Y0, MU), abs=1e-14
    )
    assert pert.default_step_size(GAME, mu=MU) == pytest.approx(
        1.0 / (MU + np.linalg.svd(GAME, compute_uv=False)[0]), rel=1e-14
    )


@pytest.mark.parametrize(
    ("side", "variant"), [("x", "official"), ("y", "official"), ("y", "y_first")]
)
def test_asymp_gda_side_is_its_recursion(side: str, variant: str) -> None:
    """``STEPS`` iterations from ``(X0, Y0)`` with a given ``η``: the iterates, NashConv history
    and perturbed-gap stopping history, recomputed with the update rules of the docstring."""
    _stops_after_one_step()
    x, y = X0.copy(), Y0.copy()
    stops = []
    for _ in range(STEPS):
        if side == "x":
            x = _proj(x - ETA * (GAME @ y + MU * x))
            y = _proj(y + ETA * (GAME.T @ x))
        elif variant == "official":
            x = _proj(x - ETA * (GAME @ y))
            y = _proj(y + ETA * (GAME.T @ x - MU * y))
        else:
            y = _proj(y + ETA * (GAME.T @ x - MU * y))
            x = _proj(x - ETA * (GAME @ y))
        stops.append(_pgap(GAME, x, y, MU) if side == "x" else _pgap(-GAME.T, y, x, MU))
    r = ANY_PERT.asymp_gda_side(
        GAME,
        mu=MU,
        side=side,
        step_size=ETA,
        max_iter=STEPS,
        tol=None,
        x0=X0,
        y0=Y0,
        variant=variant,
    )
    np.testing.assert_allclose(r.x, x, atol=1e-13)
    np.testing.assert_allclose(r.y, y, atol=1e-13)
    assert (r.iterations, r.mu, r.step_size, r.partners) == (STEPS, MU, ETA, None)
    np.testing.assert_allclose(r.stopping_history[1:], stops, atol=1e-12)
    assert r.stopping == pytest.approx(stops[-1], abs=1e-12)
    assert r.history[-1] == pytest.approx(r.nash_conv, abs=0)
    assert r.nash_conv == pytest.approx(float(np.max(x @ GAME) - np.min(GAME @ y)), abs=1e-12)


@pytest.mark.parametrize("stop", ["gap", "frank_wolfe"])
def test_asymp_gda_is_its_two_runs(stop: str) -> None:
    _stops_after_one_step()
    xa, ya, xb, yb = X0.copy(), Y0.copy(), X0.copy(), Y0.copy()
    for _ in range(STEPS):
        xa = _proj(xa - ETA * (GAME @ ya + MU * xa))
        ya = _proj(ya + ETA * (GAME.T @ xa))
        xb = _proj(xb - ETA * (GAME @ yb))
        yb = _proj(yb + ETA * (GAME.T @ xb - MU * yb))
    if stop == "gap":
        expected = max(_pgap(GAME, xa, ya, MU), _pgap(-GAME.T, yb, xb, MU))
    else:
        expected = max(
            pert.frank_wolfe_gap(GAME, xa, ya, mu_x=MU), pert.frank_wolfe_gap(GAME, xb, yb, mu_y=MU)
        )
    r = ANY_PERT.asymp_gda(
        GAME,
        mu=MU,
        step_size=ETA,
        max_iter=STEPS,
        tol=None,
        x0=X0,
        y0=Y0,
        stop=stop,
    )
    np.testing.assert_allclose(r.x, xa, atol=1e-13)
    np.testing.assert_allclose(r.y, yb, atol=1e-13)
    assert r.partners is not None
    np.testing.assert_allclose(r.partners[0], ya, atol=1e-13)
    np.testing.assert_allclose(r.partners[1], xb, atol=1e-13)
    assert r.stopping == pytest.approx(expected, abs=1e-12)
    assert r.iterations == STEPS
    assert r.history.shape == r.stopping_history.shape == (STEPS + 1,)


def test_symp_gda_gda_ogda_omwu_are_their_recursions() -> None:
    _stops_after_one_step()

    def gap(x: np.ndarray, y: np.ndarray) -> float:
        return float(np.max(x @ GAME) - np.min(GAME @ y))

    # SymP-GDA
    x, y = X0.copy(), Y0.copy()
    for _ in range(STEPS):
        x = _proj(x - ETA * (GAME @ y + MU * x))
        y = _proj(y + ETA * (GAME.T @ x - MU * y))
    bx, by = _proj(-(GAME @ y) / MU), _proj((GAME.T @ x) / MU)
    upper = float(x @ GAME @ by) - 0.5 * MU * float(by @ by) + 0.5 * MU * float(x @ x)
    lower = float(bx @ GAME @ y) + 0.5 * MU * float(bx @ bx) - 0.5 * MU * float(y @ y)
    r = pert.symp_gda(GAME, mu=MU, step_size=ETA, max_iter=STEPS, tol=None, x0=X0, y0=Y0)
    np.testing.assert_allclose(np.r_[r.x, r.y], np.r_[x, y], atol=1e-13)
    assert r.stopping == pytest.approx(upper - lower, abs=1e-12)
    # GDA
    x, y = X0.copy(), Y0.copy()
    for _ in range(STEPS):
        x = _proj(x - ETA * (GAME @ y))
        y = _proj(y + ETA * (GAME.T @ x))
    r = pert.gda(GAME, step_size=ETA, max_iter=STEPS, tol=None, x0=X0, y0=Y0)
    np.testing.assert_allclose(np.r_[r.x, r.y], np.r_[x, y], atol=1e-13)
    assert r.mu == 0.0
    assert r.stopping == pytest.approx(gap(x, y), abs=1e-12)
    # OGDA, both forms
    x, y, xh, yh = X0.copy(), Y0.copy(), X0.copy(), Y0.copy()
    for _ in range(STEPS):
        gx = -(GAME @ y)
        xh = _proj(xh + ETA * gx)
        x = _proj(xh + ETA * gx)
        gy = GAME.T @ x
        yh = _proj(yh + ETA * gy)
        y = _proj(yh + ETA * gy)
    r = pert.ogda(GAME, step_size=ETA, max_iter=STEPS, tol=None, x0=X0, y0=Y0)
    np.testing.assert_allclose(np.r_[r.x, r.y], np.r_[x, y], atol=1e-13)
    x, y = X0.copy(), Y0.copy()
    gx_prev, gy_prev = GAME @ y, GAME.T @ x
    for _ in range(STEPS):
        gx, gy = GAME @ y, GAME.T @ x
        x = _proj(x - ETA * (2 * gx - gx_prev))
        y = _proj(y + ETA * (2 * gy - gy_prev))
        gx_prev, gy_prev = gx, gy
    r = pert.ogda(
        GAME, step_size=ETA, max_iter=STEPS, tol=None, x0=X0, y0=Y0, variant="simultaneous"
    )
    np.testing.assert_allclose(np.r_[r.x, r.y], np.r_[x, y], atol=1e-13)
    # OMWU
    x, y = X0.copy(), Y0.copy()
    gx_prev, gy_prev = GAME @ y, GAME.T @ x
    for _ in range(STEPS):
        gx, gy = GAME @ y, GAME.T @ x
        x = x * np.exp(-ETA * (2 * gx - gx_prev))
        y = y * np.exp(ETA * (2 * gy - gy_prev))
        x, y = x / x.sum(), y / y.sum()
        gx_prev, gy_prev = gx, gy
    r = pert.omwu(GAME, step_size=ETA, max_iter=STEPS, tol=None, x0=X0, y0=Y0)
    np.testing.assert_allclose(np.r_[r.x, r.y], np.r_[x, y], atol=1e-13)
    assert r.history.shape == (STEPS + 1,)
    assert r.history[-1] == pytest.approx(gap(x, y), abs=1e-12)
    # the unperturbed methods: NashConv is the stopping quantity, mu = 0
    for method in (pert.gda, pert.ogda, pert.omwu):
        r = method(GAME, step_size=ETA, max_iter=STEPS, tol=None, x0=X0, y0=Y0)
        assert r.mu == 0.0
        assert r.stopping == pytest.approx(gap(r.x, r.y), abs=1e-12)
        np.testing.assert_array_equal(r.stopping_history, r.history)
        assert r.history[-1] == r.stopping  # NashConv of the last iterate, recorded


def test_default_steps_of_the_baselines() -> None:
    """``η`` defaults: ``1/(μ + ||A||_2)`` (AsymP, SymP), ``1/||A||_2`` (GDA),
    ``1/(2||A||_2)`` (OGDA), ``1/(8 max|a_ij|)`` (OMWU)."""
    _stops_after_one_step()
    s = float(np.linalg.svd(GAME, compute_uv=False)[0])
    kw: dict[str, Any] = {"max_iter": 1, "tol": None}
    assert pert.asymp_gda(GAME, mu=MU, **kw).step_size == pytest.approx(1 / (MU + s), rel=1e-14)
    assert pert.asymp_gda_side(GAME, mu=MU, **kw).step_size == pytest.approx(
        1 / (MU + s), rel=1e-14
    )
    assert pert.symp_gda(GAME, mu=MU, **kw).step_size == pytest.approx(1 / (MU + s), rel=1e-14)
    assert pert.gda(GAME, **kw).step_size == pytest.approx(1 / s, rel=1e-14)
    assert pert.ogda(GAME, **kw).step_size == pytest.approx(1 / (2 * s), rel=1e-14)
    assert pert.omwu(GAME, **kw).step_size == pytest.approx(1 / (8 * 2.0), rel=1e-14)


def test_parameter_free_reports_a_consistent_schedule() -> None:
    """Algorithm 1's record: ``μ = μ_init / 2^halvings`` with ``μ_init = ||A||_2``; the
    measured NashConv of the returned pair, recomputed here, is the reported one and at most
    ``tol``; the last check is at the last step and NashConv was measured every
    ``check_every`` steps of a round (all checks here fall on multiples of 5)."""
    s = float(np.linalg.svd(GAME, compute_uv=False)[0])
    r = pert.parameter_free(GAME, tol=1e-7, check_every=5)
    gap = float(np.max(r.x @ GAME) - np.min(GAME @ r.y))
    assert r.converged
    assert r.stop_reason == "tol"
    assert gap == pytest.approx(r.nash_conv, abs=1e-15)
    assert gap <= 1e-7
    assert r.halvings >= 1
    assert r.mu == pytest.approx(s / 2.0**r.halvings, rel=1e-14)
    assert r.mu_history[0] == pytest.approx(s, rel=1e-14)
    assert r.check_iterations[-1] == r.iterations
    assert np.all(r.check_iterations % 5 == 0)
    assert r.history[-1] == r.nash_conv
    assert set(np.round(np.log2(s / r.mu_history))) == set(range(r.halvings + 1))


def test_omwu_default_step_for_small_payoffs() -> None:
    """``η = 1/(8 max(1e-12, max|a_ij|))``: below 1 the scale is the payoffs' own (0.5 here);
    OGDA's ``1/(2||A||_2)`` and GDA's ``1/||A||_2`` likewise for a norm below 1."""
    _stops_after_one_step()
    assert pert.omwu(GAME / 4.0, max_iter=1, tol=None).step_size == pytest.approx(0.25, rel=1e-14)
    small = GAME / 8.0  # ||A||_2 below 1 too: the defaults use the norm, not a floor of 1
    s = float(np.linalg.svd(small, compute_uv=False)[0])
    assert s < 1.0
    assert pert.ogda(small, max_iter=1, tol=None).step_size == pytest.approx(1 / (2 * s), rel=1e-14)
    assert pert.gda(small, max_iter=1, tol=None).step_size == pytest.approx(1 / s, rel=1e-14)


@pytest.mark.parametrize("method", [pert.gda, pert.ogda, pert.omwu])
def test_nashconv_stop_is_non_strict(method: Callable[..., pert.GDAResult]) -> None:
    """``tol`` stops at NashConv ``<= tol``: a pure start of an integer game has NashConv
    exactly ``max_j (xᵀA)_j - min_i (Ay)_i = 2 - (-1) = 3``, so ``tol = 3`` stops at once.
    A start with zero entries is allowed (OMWU's log of 0 raises no warning)."""
    a = np.array([[2.0, -1.0], [-1.0, 1.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = method(a, tol=3.0, max_iter=5, x0=[1.0, 0.0], y0=[0.0, 1.0])
    assert (r.iterations, r.converged, r.nash_conv) == (0, True, 3.0)


@pytest.mark.parametrize(
    "call",
    [
        lambda a: pert.asymp_gda(a, mu=1.0),
        lambda a: pert.asymp_gda_side(a, mu=1.0, side="y"),
        lambda a: pert.symp_gda(a, mu=1.0),
        pert.gda,
        pert.ogda,
        pert.omwu,
    ],
)
def test_the_zero_game_is_solved_at_the_start(call: Callable[..., pert.GDAResult]) -> None:
    """``A = 0`` is a finite matrix: every pair is an equilibrium (NashConv 0), so each method
    stops before its first step, whatever its default step size does with ``||A||_2 = 0``."""
    r = call(np.zeros((2, 3)))
    assert (r.iterations, r.converged, r.nash_conv) == (0, True, 0.0)
    assert r.step_size > 0.0


@pytest.mark.parametrize("shape", [(1, 3), (3, 1), (1, 1)])
def test_dirichlet_starts_of_a_one_action_player_are_the_vertex(shape: tuple[int, int]) -> None:
    """Sizes ``>= 1`` are documented: a player with one action has the single point ``[1]`` of
    its simplex as every start; the other player's starts still lie on their simplex."""
    x0s, y0s = pert.dirichlet_starts(shape, trials=3, rng=np.random.default_rng(1))
    assert x0s.shape == (3, shape[0])
    assert y0s.shape == (3, shape[1])
    for rows in (x0s, y0s):
        assert np.all(rows >= 0.0)
        np.testing.assert_allclose(rows.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    if shape[0] == 1:
        assert np.array_equal(x0s, np.ones((3, 1)))
    if shape[1] == 1:
        assert np.array_equal(y0s, np.ones((3, 1)))


def test_gda_default_cap_on_matching_pennies() -> None:
    """GDA's signature caps a run at ``max_iter = 10_000`` steps; matching pennies has an
    interior equilibrium, where (docstring) alternating GDA does not converge: a run from a
    non-equilibrium start with the defaults uses exactly the cap, unconverged."""
    pennies = [[1.0, -1.0], [-1.0, 1.0]]
    r = pert.gda(pennies, x0=[0.9, 0.1])
    assert (r.iterations, r.converged, r.stop_reason) == (10_000, False, "max_iter")
    assert r.history.shape == (10_001,)
    assert r.nash_conv > 1e-3


def test_default_step_size_domain_and_zero_game() -> None:
    """``payoff`` is an ``(m, n)`` matrix (a vector is a bad shape, a documented ValueError
    naming it), and the docstring's ``η = 1`` when ``A = 0`` and ``μ = 0``."""
    with pytest.raises(ValueError, match=r"^payoff: "):
        pert.default_step_size([1.0, 2.0])
    with pytest.raises(ValueError, match=r"^payoff: "):
        pert.default_step_size(np.ones((2, 2, 2)))
    assert pert.default_step_size(np.zeros((2, 3))) == 1.0
    assert pert.default_step_size(np.zeros((2, 3)), mu=0.25) == pytest.approx(4.0, rel=1e-15)


def test_symp_gda_frank_wolfe_stop_is_the_official_sum() -> None:
    """``stop="frank_wolfe"``: the stopping quantity after each step is the sum of the two
    players' Frank-Wolfe gaps with ``μ_x = μ_y = μ``, written out here."""
    _stops_after_one_step()

    def fw(x: np.ndarray, y: np.ndarray) -> float:
        gx, gy = -(GAME @ y) - MU * x, GAME.T @ x - MU * y
        return float(np.max(gx) - gx @ x) + float(np.max(gy) - gy @ y)

    x, y = X0.copy(), Y0.copy()
    stops, nash = [fw(x, y)], [_gap(GAME, x, y)]
    for _ in range(STEPS):
        x = _proj(x - ETA * (GAME @ y + MU * x))
        y = _proj(y + ETA * (GAME.T @ x - MU * y))
        stops.append(fw(x, y))
        nash.append(_gap(GAME, x, y))
    r = pert.symp_gda(
        GAME, mu=MU, step_size=ETA, max_iter=STEPS, tol=None, x0=X0, y0=Y0, stop="frank_wolfe"
    )
    np.testing.assert_allclose(np.r_[r.x, r.y], np.r_[x, y], atol=1e-13)
    np.testing.assert_allclose(r.stopping_history, stops, rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.history, nash, rtol=0, atol=1e-12)
    assert r.stopping == pytest.approx(stops[-1], abs=1e-12)
    assert (r.mu, r.step_size, r.iterations) == (MU, ETA, STEPS)
    # a tolerance between two recorded values stops at the first step below it
    k = next(i for i, s in enumerate(stops) if s < 0.5 * stops[0])
    r = pert.symp_gda(
        GAME,
        mu=MU,
        step_size=ETA,
        max_iter=STEPS,
        tol=0.5 * stops[0],
        x0=X0,
        y0=Y0,
        stop="frank_wolfe",
    )
    assert (r.iterations, r.converged) == (k, True)


def test_symp_gda_stop_is_non_strict() -> None:
    """``tol`` stops at a stopping quantity ``<= tol`` and then reports ``converged``: from the
    pure start ``x = e_0``, ``y = e_1`` of CLOSED with ``μ = 1`` the Frank-Wolfe sum is exactly
    ``0 + 4`` (``g_x = -Ay - μx = (0, -1)``, ``g_y = Aᵀx - μy = (2, -2)``)."""
    r = pert.symp_gda(
        CLOSED, mu=1.0, tol=4.0, max_iter=5, x0=[1.0, 0.0], y0=[0.0, 1.0], stop="frank_wolfe"
    )
    assert (r.iterations, r.converged, r.stopping) == (0, True, 4.0)


@pytest.mark.parametrize(
    ("patience", "period", "eta_mu"),
    [(20, 10, 1.0), (20, 10, 1e-3), (2000, 10, 0.5), (7, 3, 0.0), (5, 10, 1.0), (30, 10, 0.2)],
)
def test_stall_window_follows_parameter_free_docstring(
    patience: int, period: int, eta_mu: float
) -> None:
    """parameter_free: the stall window is ``patience`` steps but at least ``4/(ημ)``, a
    multiple of ``check_every`` (the smallest such), and 0 (rule off) for ``patience = 0``."""
    window = pert.base._stall_window(patience, period, eta_mu)
    need = max(float(patience), 4.0 / eta_mu) if eta_mu > 0.0 else float(patience)
    assert window % period == 0
    assert window >= need
    assert window >= period
    assert window - period < need
    assert pert.base._stall_window(0, period, eta_mu) == 0


def _algorithm_1(
    a: np.ndarray, tol: float, max_iter: int, max_inner: int, period: int, patience: int = 0
) -> dict[str, Any]:
    """Algorithm 1 as parameter_free's docstring states it, with ``patience = 0`` (the spec's
    rule): rounds ``μ_k = ||A||_2 / 2^k``, ``η_k = 1/(μ_k + ||A||_2)``, the x-side run
    (§3.1, x first) and the y-side run (§3.2, perturbed y first), NashConv of ``(x_a, y_b)``
    every ``period`` steps of a round (and at the cap), a round ends at NashConv ``<= tol``,
    at both perturbed gaps ``<= δ_k = max(μ_k tol²/(8 L_g²), 1e-13 max(1, max|a_ij|))``
    (``L_g`` the largest row or column norm) or at ``max_inner`` steps; no halving below
    ``2^-52 ||A||_2``.  With ``patience > 0`` the stall rule: a round also ends when, at a
    multiple of the window (the smallest multiple of ``period`` that is ``>= patience`` and
    ``>= 4/(η_k μ_k)``), the larger perturbed gap is above half its value at the last look."""
    norm = float(np.linalg.svd(a, compute_uv=False)[0])
    lg = max(float(np.sqrt((a * a).sum(axis=0)).max()), float(np.sqrt((a * a).sum(axis=1)).max()))
    floor = 1e-13 * max(1.0, float(np.abs(a).max()))
    rows, cols = a.shape
    xa, xb = np.full(rows, 1.0 / rows), np.full(rows, 1.0 / rows)
    ya, yb = np.full(cols, 1.0 / cols), np.full(cols, 1.0 / cols)
    mu, total, halvings, reason = norm, 0, 0, "max_iter"
    value = _gap(a, xa, yb)
    checks, history, mus = [0], [value], [mu]
    while value > tol and total < max_iter:
        step_size = 1.0 / (mu + norm)
        delta = max(mu * tol * tol / (8.0 * lg * lg), floor)
        inner, milestone = 0, np.inf
        window = (
            period * math.ceil(max(patience, 4.0 / (step_size * mu)) / period) if patience else 0
        )
        while inner < max_inner and total < max_iter:
            xa = _proj(xa - step_size * (a @ ya + mu * xa))
            ya = _proj(ya + step_size * (a.T @ xa))
            yb = _proj(yb + step_size * (a.T @ xb - mu * yb))
            xb = _proj(xb - step_size * (a @ yb))
            inner, total = inner + 1, total + 1
            if inner % period != 0 and total < max_iter:
                continue
            value = _gap(a, xa, yb)
            checks.append(total)
            history.append(value)
            mus.append(mu)
            if value <= tol:
                break
            larger = max(_pgap(a, xa, ya, mu), _pgap(-a.T, yb, xb, mu))
            if larger <= delta:
                break
            if window and inner % window == 0:
                if larger > 0.5 * milestone:
                    break
                milestone = larger
        if value <= tol or total >= max_iter:
            break
        if mu / 2 < 2.0**-52 * norm:
            reason = "mu_floor"
            break
        mu, halvings = mu / 2, halvings + 1
    return {
        "x": xa,
        "y": yb,
        "iterations": total,
        "halvings": halvings,
        "mu": mu,
        "stop_reason": "tol" if value <= tol else reason,
        "checks": checks,
        "history": history,
        "mus": mus,
    }


@pytest.mark.parametrize(
    ("tol", "max_iter", "max_inner", "period", "scale", "patience"),
    [
        (1e-3, 3000, 200_000, 3, 1.0, 0),  # δ_k from μ_k tol²/(8 L_g²): tol large
        (1e-8, 3000, 200_000, 10, 1.0, 0),  # δ_k at the floor, several halvings
        (1e-9, 3000, 200_000, 10, 0.25, 0),  # max|a_ij| < 1: the floor is 1e-13
        (1e-14, 400, 1, 1, 1.0, 0),  # rounds of one step: halved down to the floor
        (1e-14, 47, 2, 5, 1.0, 0),  # the cap inside a round, off the check period
        (1e-13, 20_000, 200_000, 5, 1.0, 10),  # the stall rule ends a round (from ~10^4 steps)
    ],
)
def test_parameter_free_is_algorithm_1(
    tol: float, max_iter: int, max_inner: int, period: int, scale: float, patience: int
) -> None:
    game = scale * GAME
    expected = _algorithm_1(game, tol, max_iter, max_inner, period, patience)
    r = pert.parameter_free(
        game,
        tol=tol,
        max_iter=max_iter,
        max_inner=max_inner,
        check_every=period,
        patience=patience,
    )
    assert (r.iterations, r.halvings, r.stop_reason) == (
        expected["iterations"],
        expected["halvings"],
        expected["stop_reason"],
    )
    assert r.converged == (expected["stop_reason"] == "tol")
    np.testing.assert_array_equal(r.check_iterations, expected["checks"])
    np.testing.assert_allclose(r.history, expected["history"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.mu_history, expected["mus"], rtol=1e-14, atol=0)
    assert r.mu == pytest.approx(expected["mu"], rel=1e-14)
    np.testing.assert_allclose(r.x, expected["x"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.y, expected["y"], rtol=0, atol=1e-12)
    assert r.nash_conv == pytest.approx(_gap(game, r.x, r.y), abs=1e-14)


def test_parameter_free_defaults_and_small_domains() -> None:
    """Documented defaults and domain ends: ``μ_init = ||A||_2`` (also below 1), ``1`` for
    ``A = 0`` (solved at the start); ``check_every = 10`` (NashConv measured every 10 steps);
    ``max_inner = 1`` and ``check_every = 1`` are valid; ``μ_init`` exactly at the floor
    ``2^-52 ||A||_2`` is valid (``||diag(2, 1)||_2 = 2`` exactly)."""
    zero = pert.parameter_free(np.zeros((2, 3)))
    assert (zero.iterations, zero.converged, zero.nash_conv, zero.mu) == (0, True, 0.0, 1.0)
    small = GAME / 8.0
    s = float(np.linalg.svd(small, compute_uv=False)[0])
    assert s < 1.0
    r = pert.parameter_free(small, tol=1e-6, max_iter=200)
    assert r.mu_history[0] == pytest.approx(s, rel=1e-14)
    assert np.array_equal(r.check_iterations[:4], [0, 10, 20, 30])
    r = pert.parameter_free(GAME, tol=1e-14, max_iter=6, max_inner=1, check_every=1)
    assert (r.iterations, r.halvings) == (6, 5)
    assert np.array_equal(r.check_iterations, np.arange(7))
    diag = np.array([[2.0, 0.0], [0.0, 1.0]])
    r = pert.parameter_free(diag, mu_init=2.0**-51, max_iter=3)
    assert r.mu_history[0] == 2.0**-51
    # ||diag(2, 1)||_2 = 2 = μ_0: the halvings pass μ = 2, 1, 0.5, ... far above the floor;
    # the equilibrium x = (1/3, 2/3), y = (1/3, 2/3) is reached
    r = pert.parameter_free(diag, tol=1e-14)
    assert (r.converged, r.stop_reason) == (True, "tol")
    assert r.halvings >= 1
    assert _gap(diag, r.x, r.y) <= 1e-14
    # the uniform start of CLOSED has NashConv exactly max(0.5, 0) - min(0.5, 0) = 0.5:
    # tol = 0.5 is met at the start (the stop is NashConv <= tol)
    r = pert.parameter_free(CLOSED, tol=0.5)
    assert (r.iterations, r.converged, r.nash_conv, r.stop_reason) == (0, True, 0.5, "tol")


def test_parameter_free_records_are_float64() -> None:
    """``check_iterations``, ``history`` and ``mu_history`` are annotated ``FloatArray``
    (float64, as the fast path returns them): the step counts too, and they are whole, start
    at 0 and increase; the three records have one entry per measurement."""
    for game, tol in ((GAME, 1e-6), (np.zeros((2, 3)), 1e-9)):
        r = pert.parameter_free(game, tol=tol, max_iter=200)
        for record in (r.check_iterations, r.history, r.mu_history):
            assert record.dtype == np.float64
            assert record.shape == r.check_iterations.shape
        steps = r.check_iterations
        assert steps[0] == 0.0
        assert np.array_equal(steps, np.floor(steps))
        assert np.all(np.diff(steps) > 0)


@pytest.mark.parametrize("stop", ["gap", "frank_wolfe"])
def test_asymp_gda_stopping_is_the_larger_of_the_two_runs(stop: str) -> None:
    """The stopping quantity of :func:`asymp_gda` is the larger of the x-side run's quantity
    at ``(x, y_a)`` (x perturbed) and the y-side run's at ``(x_b, y)`` (y perturbed), from
    the returned pairs (``partners``); the y-side perturbed gap is the x-side gap of the
    mirrored game ``-Aᵀ`` with the roles swapped."""
    # 4 x 3; at 1 and 2 iterations the y-side run's quantity is the larger, for both stops
    game = -np.array([[0.3, -1.0, 0.8, 0.1], [-0.6, 0.9, -0.2, 0.5], [1.0, -0.4, -0.7, 0.2]]).T
    mu = 0.4
    for iters in (1, 2, 5):
        r = ANY_PERT.asymp_gda(game, mu=mu, max_iter=iters, tol=None, stop=stop)
        assert r.partners is not None
        ya, xb = r.partners
        if stop == "gap":
            side_x = pert.perturbed_gap(game, r.x, ya, mu=mu)
            side_y = pert.perturbed_gap(-game.T, r.y, xb, mu=mu)
        else:
            side_x = pert.frank_wolfe_gap(game, r.x, ya, mu_x=mu)
            side_y = pert.frank_wolfe_gap(game, xb, r.y, mu_y=mu)
        assert side_x != pytest.approx(side_y, rel=1e-3)  # the two sides differ here
        if iters < 5:
            assert side_y > side_x
        assert r.stopping == pytest.approx(max(side_x, side_y), rel=1e-12, abs=1e-15)


def test_asymp_gda_stops_when_the_stopping_quantity_equals_tol() -> None:
    """The stop is ``stopping <= tol``: with ``tol`` equal to the stopping quantity at the
    start (read from a run without a tolerance), the run ends at once, converged."""
    start = pert.asymp_gda(CLOSED, mu=0.3, max_iter=1, tol=None).stopping_history[0]
    assert start > 0.0
    r = pert.asymp_gda(CLOSED, mu=0.3, max_iter=50, tol=float(start))
    assert (r.iterations, r.converged, r.stop_reason) == (0, True, "tol")
    assert r.stopping == start


@pytest.mark.parametrize("stop", ["gap", "frank_wolfe"])
def test_asymp_gda_records_and_side_start(stop: str) -> None:
    """:func:`asymp_gda` returns ``mu``, a finite NashConv history ending at NashConv of the
    returned pair and a stopping history ending at ``stopping``; :func:`asymp_gda_side` with
    ``side="x"`` starts its stopping history with the x-side quantity at the uniform start
    (perturbed gap, or the Frank-Wolfe gap with ``mu_x``), and stops at once when ``tol``
    equals it (the stop is ``<= tol``)."""
    game = -np.array([[0.3, -1.0, 0.8, 0.1], [-0.6, 0.9, -0.2, 0.5], [1.0, -0.4, -0.7, 0.2]]).T
    mu = 0.4
    r = ANY_PERT.asymp_gda(game, mu=mu, max_iter=3, tol=None, stop=stop)
    assert r.mu == mu
    assert np.all(np.isfinite(r.history))
    assert np.all(np.isfinite(r.stopping_history))
    assert r.history[-1] == pytest.approx(pert.nash_conv(game, r.x, r.y), rel=1e-12, abs=1e-15)
    assert r.stopping_history[-1] == r.stopping
    x0, y0 = np.full(4, 0.25), np.full(3, 1.0 / 3.0)
    if stop == "gap":
        start = pert.perturbed_gap(game, x0, y0, mu=mu)
    else:
        start = pert.frank_wolfe_gap(game, x0, y0, mu_x=mu)
    s = ANY_PERT.asymp_gda_side(game, mu=mu, side="x", max_iter=2, tol=None, stop=stop)
    assert s.stopping_history[0] == pytest.approx(start, rel=1e-12, abs=1e-15)
    s = ANY_PERT.asymp_gda_side(game, mu=mu, side="x", max_iter=2, tol=float(start), stop=stop)
    assert (s.iterations, s.converged) == (0, True)


# ---- full-run survivors (mutants of the code of b10c0a4, killed on today's code)


def _fw_gap_by_hand(a: np.ndarray, x: np.ndarray, y: np.ndarray, mu_x: float, mu_y: float) -> float:
    """frank_wolfe_gap's documented formula: per player max(g - μp) - gᵀp + μ||p||², with the
    utility gradients g_x = -Ay, g_y = Aᵀx."""
    gx, gy = -(a @ y), a.T @ x
    part_x = float(np.max(gx - mu_x * x) - gx @ x + mu_x * (x @ x))
    part_y = float(np.max(gy - mu_y * y) - gy @ y + mu_y * (y @ y))
    return part_x + part_y


def test_payoff_must_be_a_matrix() -> None:
    """Raises: bad shape -- a ValueError naming ``payoff`` for a vector, a scalar, a 3-D array."""
    half = [0.5, 0.5]
    bads: list[Any] = [[1.0, -1.0], 3.0, np.ones((2, 2, 2))]
    for bad in bads:
        with pytest.raises(ValueError, match=r"^payoff:"):
            pert.perturbed_minimiser(bad, mu=1.0)
        with pytest.raises(ValueError, match=r"^payoff:"):
            pert.perturbed_gap(bad, half, half, mu=1.0)
        with pytest.raises(ValueError, match=r"^payoff:"):
            pert.frank_wolfe_gap(bad, half, half)
        with pytest.raises(ValueError, match=r"^payoff:"):
            pert.gda(bad, max_iter=1)
        with pytest.raises(ValueError, match=r"^payoff:"):
            pert.asymp_gda_side(bad, mu=1.0, max_iter=1)
        with pytest.raises(ValueError, match=r"^payoff:"):
            pert.parameter_free(bad, max_iter=1)


def test_zero_game_default_step_is_one() -> None:
    """default_step_size: ``1`` when ``A = 0`` and ``μ = 0`` -- the step plain GDA reports."""
    assert pert.default_step_size(np.zeros((2, 3))) == 1.0
    assert pert.gda(np.zeros((2, 3)), max_iter=2).step_size == 1.0


@pytest.mark.parametrize("side", ["x", "y"])
def test_side_run_frank_wolfe_stop_is_the_frank_wolfe_gap(side: Literal["x", "y"]) -> None:
    """stop="frank_wolfe": the recorded stopping quantity is the Frank-Wolfe-type gap of the
    run's iterate with the run's perturbation on its side, not the perturbed duality gap."""
    mu = 0.5
    run = pert.asymp_gda_side(RECT, mu=mu, side=side, stop="frank_wolfe", max_iter=4)
    mu_x, mu_y = (mu, 0.0) if side == "x" else (0.0, mu)
    expected = _fw_gap_by_hand(RECT, np.asarray(run.x), np.asarray(run.y), mu_x, mu_y)
    assert run.stopping == pytest.approx(expected, rel=1e-12, abs=1e-15)
    assert run.stopping_history[-1] == run.stopping
    gap = pert.asymp_gda_side(RECT, mu=mu, side=side, max_iter=4).stopping
    assert abs(gap - expected) > 1e-3  # the two quantities differ on this instance


def test_fast_side_run_follows_the_y_first_order() -> None:
    """The fast path takes the same arguments and gives the same result, for variant="y_first"
    too, which on this instance differs from the official order."""
    from reference.perturbation import fast

    kwargs: dict[str, Any] = {"mu": 0.5, "side": "y", "max_iter": 6}
    ref_y = pert.asymp_gda_side(RECT, variant="y_first", **kwargs)
    ref_o = pert.asymp_gda_side(RECT, variant="official", **kwargs)
    assert float(np.max(np.abs(ref_y.x - ref_o.x))) > 1e-6
    got = fast.asymp_gda_side(RECT, variant="y_first", **kwargs)
    np.testing.assert_allclose(got.x, ref_y.x, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(got.y, ref_y.y, rtol=1e-12, atol=1e-15)
    pair_y = pert.asymp_gda(RECT, mu=0.5, variant="y_first", max_iter=6)
    pair_o = pert.asymp_gda(RECT, mu=0.5, variant="official", max_iter=6)
    assert float(np.max(np.abs(pair_y.y - pair_o.y))) > 1e-6
    fast_pair = fast.asymp_gda(RECT, mu=0.5, variant="y_first", max_iter=6)
    np.testing.assert_allclose(fast_pair.y, pair_y.y, rtol=1e-12, atol=1e-15)
