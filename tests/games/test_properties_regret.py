"""games.regret on our RM+/PRM+, and games.solver on every iterative solver of spec 01."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from properties import Capabilities, all_algorithms, run_suite
from properties._cli import main
from properties.games import GAME_REGRET, GAME_SOLVER, as_regret_dynamics
from reference._arrays import FloatArray
from reference.games import (
    EquilibriumResult,
    HybridConfig,
    SSNConfig,
    drs,
    duality_gap,
    hybrid,
    prm_plus,
    prm_plus_trajectory,
    rm_plus,
    rm_plus_trajectory,
    ssn,
)
from tests.games import mutants_regret as mut


def _scale(payoff: FloatArray) -> float:
    return max(1.0, float(np.max(np.abs(payoff))))


# Solver wrappers: an absolute tol of half the promised (relative) accuracy times the scale.
def prm_linear(payoff: FloatArray) -> EquilibriumResult:
    return prm_plus(payoff, tol=5e-4 * _scale(payoff), max_iter=20_000)


def prm_alternating_best(payoff: FloatArray) -> EquilibriumResult:
    return prm_plus(
        payoff, tol=5e-4 * _scale(payoff), max_iter=20_000, alternating=True, averaging="best"
    )


def rm_uniform(payoff: FloatArray) -> EquilibriumResult:
    # rm_plus's own default cap (100 000): the uniform average converges like 1/sqrt(T), and
    # under thorough [[0,0,1,0],[0,-8,8,0],[0,0,1,1],[0,8,-7,0]] needed 21 652 steps, where an
    # earlier cap of 20 000 here stopped it at gap 0.083 (honest flag; tol unchanged)
    return rm_plus(payoff, tol=5e-3 * _scale(payoff))


def test_rm_plus_needs_more_than_20000_steps_on_a_drawn_game() -> None:
    a = np.array(
        [[0.0, 0.0, 1.0, 0.0], [0.0, -8.0, 8.0, 0.0], [0.0, 0.0, 1.0, 1.0], [0.0, 8.0, -7.0, 0.0]]
    )
    capped = rm_plus(a, tol=5e-3 * 8.0, max_iter=20_000)
    assert not capped.converged
    assert duality_gap(a, capped.x, capped.y) > 5e-3 * 8.0
    result = rm_uniform(a)
    assert result.converged
    assert 20_000 < result.iterations < 100_000
    assert duality_gap(a, result.x, result.y) <= 5e-3 * 8.0


def plain_drs(payoff: FloatArray) -> EquilibriumResult:
    # DRS converges linearly at a rate set by payoff differences: a near-tie of size δ needs
    # ~1/(γδ) steps, so it is judged at 1e-3 (near-ties below that are harmless).  The budget
    # is the adapter's: a 3 x 6 game with tied entries needs 21 112 steps (drs's docstring;
    # found under thorough, tests/test_hard_input_regressions.py).
    return drs(payoff, tol=5e-4 * _scale(payoff), max_iter=100_000)


#: Both safeguards beyond the spec's Algorithm 2 (off by default): the suite's domain ``all``
#: and the thorough profile's draws need them (see NEWTON below).
SAFEGUARDED = SSNConfig(watchdog=True, kink_search=True)


def ssn_safeguarded(payoff: FloatArray) -> EquilibriumResult:
    return ssn(payoff, config=SAFEGUARDED)


def pssn(payoff: FloatArray) -> EquilibriumResult:
    return hybrid(payoff, config=HybridConfig(ssn=SAFEGUARDED))


def hpssn(payoff: FloatArray) -> EquilibriumResult:
    return hybrid(payoff, mode="HPSSN", config=HybridConfig(ssn=SAFEGUARDED))


def ssn_algorithm_2(payoff: FloatArray) -> EquilibriumResult:
    # the default SSNConfig (Algorithm 2 as written): on generic games it converges, but can
    # need more than the default cap 300 (511 steps on the 6 x 2 game of
    # tests/test_hard_input_regressions.py, mostly safeguard steps): the adapter's budget is 3000
    return ssn(payoff, max_iter=3000)


SOLVERS: dict[str, tuple[Callable[[FloatArray], Any], float]] = {
    "ssn": (ssn_safeguarded, 1e-8),
    "ssn_algorithm_2": (ssn_algorithm_2, 1e-8),
    "pssn": (pssn, 1e-8),
    "hpssn": (hpssn, 1e-8),
    "drs": (plain_drs, 1e-3),
    "prm_plus": (prm_linear, 1e-3),
    "prm_plus_alternating_best": (prm_alternating_best, 1e-3),
    "rm_plus": (rm_uniform, 1e-2),
}


#: The Newton solvers' documented domain (ssn's docstring; spec 01 Thm D: local quadratic
#: convergence at a non-degenerate solution) is ``generic`` games.  Under the thorough profile
#: they stopped unconverged (honestly) on games whose equilibrium margin is tiny against the
#: scale, e.g. [[1e-6, 0, 0], [0, 1, 0]]; with the kink search (SSNConfig, off by default) SSN
#: solves those (tests/test_hard_input_regressions.py) and passed the whole suite in domain
#: ``all`` at 2000 examples with its default cap, so it runs there.  PSSN, HPSSN and SSN as
#: Algorithm 2 is written (no watchdog, no kink search) run in ``generic``; the exactly
#: degenerate families (ties, saddles, rank one, 1 x n) run for all four below.
NEWTON = ("hpssn", "pssn", "ssn", "ssn_algorithm_2")
GENERIC_ONLY = ("hpssn", "pssn", "ssn_algorithm_2")


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_solver_passes_games_solver(name: str) -> None:
    fn, tol = SOLVERS[name]
    domain = "generic" if name in GENERIC_ONLY else None
    caps = Capabilities(tolerance=tol, raises_on_invalid=True, domain=domain)
    report = run_suite(fn, GAME_SOLVER, capabilities=caps, profile="smoke")
    assert report.ok, report.format()


@pytest.mark.parametrize("name", NEWTON)
def test_newton_solvers_pass_degenerate_games_in_domain_all(name: str) -> None:
    fn, tol = SOLVERS[name]
    only = [c for c in GAME_SOLVER.check_names() if c != "degenerate_games"]
    report = run_suite(
        fn, GAME_SOLVER, capabilities=Capabilities(tolerance=tol), profile="smoke", skip=only
    )
    assert report.ok, report.format()
    assert report.counts() == {"passed": 1, "skipped": len(only)}


@pytest.mark.parametrize(
    ("fn", "variant"),
    [(rm_plus_trajectory, "RM+"), (prm_plus_trajectory, "PRM+")],
    ids=["rm+", "prm+"],
)
def test_reference_passes_games_regret(fn: Callable[..., Any], variant: str) -> None:
    report = run_suite(fn, GAME_REGRET, capabilities=Capabilities(variant=variant), profile="smoke")
    assert report.ok, report.format()
    assert report.counts() == {"passed": len(GAME_REGRET.checks)}


@pytest.mark.parametrize(
    ("fn", "variant"),
    [(rm_plus_trajectory, "PRM+"), (prm_plus_trajectory, "RM+")],
    ids=["rm+ declared prm+", "prm+ declared rm+"],
)
def test_games_regret_accepts_one_recursion_per_variant(
    fn: Callable[..., Any], variant: str
) -> None:
    """Issue 36 item 3: the suite once accepted either strategy rule in one run, so an RM+
    trajectory passed as PRM+; now each variant is checked exactly."""
    skip = [c for c in GAME_REGRET.check_names() if c != "strategy_from_state"]
    report = run_suite(
        fn, GAME_REGRET, capabilities=Capabilities(variant=variant), profile="smoke", skip=skip
    )
    (result,) = report.failed
    assert f"the {variant} rule" in result.message
    assert "declare --variant" in result.message


#: The 5 x 6 game of a thorough failure of `shift_scale_invariance` (entries 4.66-4.71 in most
#: cells: near ties, so PRM+ amplifies rounding by about 1.7x per step).
_NEAR_TIED = np.array(
    [
        [4.680452552131731, 4.71223627665131, 4.662637993644401, 4.70360632700088,
         4.670693674929962, -4.726527747952633],
        [4.651341758456188, 4.674921090248489, -4.6190064765754535, 3.977536671483406,
         4.695807632177424, 4.647307448924243],
        [1.8989380046858721, 4.694775048324622, 4.571426709791702, 4.667042184822473,
         4.707145770681283, 4.720056163485087],
        [4.657566473081666, 0.04261497731763591, 1.187441034747009, 4.727850637625981,
         -0.02874555742245164, 4.682429309100082],
        [4.723916976074032, 2.7759717214043533, -1.731110909795283, 4.673439239173282,
         4.683061846785477, 4.7020457771678865],
    ]
)  # fmt: skip


def test_invariance_bound_follows_the_runs_rounding_sensitivity() -> None:
    from properties import games as g

    steps = 32
    base = as_regret_dynamics(prm_plus_trajectory)(_NEAR_TIED, iterations=steps)
    scaled = as_regret_dynamics(prm_plus_trajectory)(3.0 * _NEAR_TIED, iterations=steps)
    top = float(np.abs(_NEAR_TIED).max())
    sensitivity = g._rounding_sensitivity(
        as_regret_dynamics(prm_plus_trajectory), _NEAR_TIED, steps, base, top
    )
    distances = g._step_distances((base.xs, base.ys), (scaled.xs, scaled.ys))
    # the flat 1e-9 bound failed here: exact arithmetic would give 0, float64 gives 1.5e-9 ...
    assert distances[-1] > 1e-9
    # ... because a one-ulp nudge of A drifts as far (measured 2.0e-9 at the last step)
    assert np.all(distances <= 1e-9 + g.ROUNDING_FACTOR * sensitivity)
    assert sensitivity[:4].max() < 1e-13  # the early steps are still held to 1e-9
    # and a wrong rule on the same game is caught at the first steps by a wide margin
    eps_base = as_regret_dynamics(mut.epsilon_floor)(_NEAR_TIED, iterations=steps)
    eps_scaled = as_regret_dynamics(mut.epsilon_floor)(3.0 * _NEAR_TIED, iterations=steps)
    eps_sens = g._rounding_sensitivity(
        as_regret_dynamics(mut.epsilon_floor), _NEAR_TIED, steps, eps_base, top
    )
    eps_dist = g._step_distances((eps_base.xs, eps_base.ys), (eps_scaled.xs, eps_scaled.ys))
    assert np.any(eps_dist > 1e3 * (1e-9 + g.ROUNDING_FACTOR * eps_sens))


def test_adapter_accepts_mappings_and_rejects_bad_shapes() -> None:
    def as_mapping(payoff: Any, *, iterations: int) -> dict[str, Any]:
        tr = prm_plus_trajectory(payoff, iterations=iterations)
        return {
            k: getattr(tr, k)
            for k in (
                "xs",
                "ys",
                "regrets_x",
                "regrets_y",
                "states_x",
                "states_y",
                "x_bar",
                "y_bar",
            )
        }

    report = run_suite(
        as_mapping,
        GAME_REGRET,
        capabilities=Capabilities(variant="PRM+"),
        profile="smoke",
        skip=["shift_scale_invariance"],
    )
    assert report.ok, report.format()

    def truncated(payoff: Any, *, iterations: int) -> Any:
        tr = as_mapping(payoff, iterations=iterations)
        tr["xs"] = tr["xs"][:-1]
        return tr

    report = run_suite(
        truncated,
        GAME_REGRET,
        profile="smoke",
        skip=[c for c in GAME_REGRET.check_names() if c != "iterates_on_simplices"],
    )
    (result,) = report.failed
    assert "shape of xs" in result.message
    with pytest.raises(TypeError, match="callable"):
        as_regret_dynamics(3)  # type: ignore[arg-type]


def test_drs_is_slow_on_near_ties_where_ssn_is_not() -> None:
    near_tie = np.array([[1.00001, 1.0]])
    assert not drs(near_tie, tol=1e-8, max_iter=2_000).converged
    # the watchdog (SSNConfig, off by default) is what SSN needs here: Algorithm 2 as written
    # takes only safeguard steps on this game and stops at its cap (test_mutation_survivors.py)
    res = ssn(near_tie, tol=1e-12, config=SSNConfig(watchdog=True))
    assert res.converged
    assert res.y[0] > 1.0 - 1e-9


def test_every_new_algorithm_is_catalogued() -> None:
    functions = {a.function for a in all_algorithms() if a.family == "games"}
    for name in (
        "rm_plus",
        "prm_plus",
        "drs",
        "ssn",
        "hybrid",
        "rm_plus_trajectory",
        "prm_plus_trajectory",
    ):
        assert f"reference.games:{name}" in functions


def test_cli_crosscheck_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    ok = main(
        [
            "crosscheck",
            "games.regret",
            "reference.games:prm_plus_trajectory",
            "--variant",
            "PRM+",
            "--profile",
            "dev",
        ]
    )
    assert ok == 0, capsys.readouterr().out
    bad = main(
        [
            "crosscheck",
            "games.regret",
            "tests.games.mutants_regret:no_clipping",
            "--profile",
            "dev",
            "--skip",
            "shift_scale_invariance",
            "--skip",
            "permutation_equivariance",
        ]
    )
    assert bad == 1
    assert "states_nonnegative" in capsys.readouterr().out
