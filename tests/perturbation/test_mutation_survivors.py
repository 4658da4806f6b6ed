"""Tests written for the mutants mutmut left alive in reference/perturbation (issue 36, item 6).

Each test checks documented behaviour that a surviving mutant broke: an argument's domain and
the argument its error names (STYLE: only documented ValueError/TypeError escape, naming the
argument), the paper's game matrices as spec 19 §8 writes them, the official settings.
Expected values come from the spec's text or from independent computations written here,
never from the library's output.  The triage of every survivor is in
benchmarks/results/mutation_perturbation.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
    ("settings eta", lambda: pert.RunnerSettings(eta=0.0), ValueError, "eta"),
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
            ("eta", {**base, "eta": 0.0}, ValueError, "eta"),
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
    assert (s.eta, s.mu, s.iterations, s.trials, s.gap_tol) == (0.01, 1.0, 100_000, 100, 1e-13)
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
