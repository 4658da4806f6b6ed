"""extensive.cfr: reference CFR and CFR+ pass; mutants fail."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from properties import Capabilities, run_suite
from properties.extensive import EFG_CFR
from reference import extensive as efg
from reference._arrays import FloatArray
from reference.extensive.cfr import _regrets, _strategy
from reference.extensive.plans import _to_plan
from tests._mutants import assert_measured_kill


def _self_play(
    game: efg.SequenceFormGame, iterations: int, *, sign: float, last: bool, plans: bool
) -> tuple[FloatArray, FloatArray]:
    """Simultaneous regret matching with switches: regret sign, last iterate, what is averaged."""
    a = np.asarray(game.payoff)
    xs, ys = game.x_space, game.y_space
    rx, ry = np.zeros(xs.n_sequences), np.zeros(ys.n_sequences)
    sum_x, sum_y = np.zeros(xs.n_sequences), np.zeros(ys.n_sequences)
    x_t, y_t = sum_x, sum_y
    for _ in range(iterations):
        bx, by = _strategy(xs, rx), _strategy(ys, ry)
        px, py = _to_plan(xs, bx), _to_plan(ys, by)
        rx = rx + sign * _regrets(xs, bx, a @ py)
        ry = ry + sign * _regrets(ys, by, -(a.T @ px))
        x_t, y_t = (px, py) if plans else (bx, by)
        sum_x, sum_y = sum_x + x_t, sum_y + y_t
    if last:
        return x_t, y_t
    return sum_x / iterations, sum_y / iterations


def last_iterate(game: Any, *, iterations: int) -> tuple[FloatArray, FloatArray]:
    """Mutant: returns the last iterate of CFR instead of the average."""
    return _self_play(game, iterations, sign=1.0, last=True, plans=True)


def regret_ascent(game: Any, *, iterations: int) -> tuple[FloatArray, FloatArray]:
    """Mutant: regrets with the wrong sign (plays the actions it regrets least)."""
    return _self_play(game, iterations, sign=-1.0, last=False, plans=True)


def behavioural_average(game: Any, *, iterations: int) -> tuple[FloatArray, FloatArray]:
    """Mutant: averages the behavioural vectors, which are not realization plans."""
    return _self_play(game, iterations, sign=1.0, last=False, plans=False)


def cfr_plus_uniform_average(game: Any, *, iterations: int) -> tuple[FloatArray, FloatArray]:
    """Mutant: plain CFR whose averaging is right but whose regret matching floors the regrets
    at 0 after every step (half of CFR+ planted in CFR)."""
    a = np.asarray(game.payoff)
    xs, ys = game.x_space, game.y_space
    rx, ry = np.zeros(xs.n_sequences), np.zeros(ys.n_sequences)
    sum_x, sum_y = np.zeros(xs.n_sequences), np.zeros(ys.n_sequences)
    for _ in range(iterations):
        bx, by = _strategy(xs, rx), _strategy(ys, ry)
        px, py = _to_plan(xs, bx), _to_plan(ys, by)
        rx = np.maximum(rx + _regrets(xs, bx, a @ py), 0.0)
        ry = np.maximum(ry + _regrets(ys, by, -(a.T @ px)), 0.0)
        sum_x, sum_y = sum_x + px, sum_y + py
    return sum_x / iterations, sum_y / iterations


MUTANTS: list[tuple[Callable[..., Any], set[str]]] = [
    (last_iterate, {"kuhn_equilibrium", "matches_recursion"}),
    (regret_ascent, {"exploitability_decreases", "kuhn_equilibrium", "matches_recursion"}),
    (
        behavioural_average,
        {"average_is_plan", "exploitability_decreases", "kuhn_equilibrium", "matches_recursion"},
    ),
    (cfr_plus_uniform_average, {"matches_recursion"}),
]


@pytest.mark.parametrize(("mutant", "expected"), MUTANTS, ids=[m.__name__ for m, _ in MUTANTS])
def test_mutant_fails(mutant: Callable[..., Any], expected: set[str]) -> None:
    report = run_suite(mutant, EFG_CFR, profile="smoke")
    failed = {r.name for r in report.failed}
    assert expected <= failed, report.format()
    for result in report.failed:
        assert_measured_kill(result)


def test_every_check_is_killed() -> None:
    assert set().union(*(e for _, e in MUTANTS)) == set(EFG_CFR.check_names())


@pytest.mark.parametrize(
    ("solver", "variant"), [(efg.cfr, "CFR"), (efg.cfr_plus, "CFR+")], ids=["cfr", "cfr_plus"]
)
def test_reference_passes(solver: Callable[..., Any], variant: str) -> None:
    report = run_suite(solver, EFG_CFR, capabilities=Capabilities(variant=variant), profile="smoke")
    assert report.ok, report.format()


@pytest.mark.parametrize(
    ("solver", "variant"), [(efg.cfr, "CFR+"), (efg.cfr_plus, "CFR")], ids=["cfr", "cfr_plus"]
)
def test_one_recursion_per_run(solver: Callable[..., Any], variant: str) -> None:
    """Issue 36 item 3: the suite no longer accepts whichever of CFR and CFR+ converges; the
    other variant's run fails its recursion check, and only that one."""
    report = run_suite(solver, EFG_CFR, capabilities=Capabilities(variant=variant), profile="smoke")
    assert {r.name for r in report.failed} == {"matches_recursion"}, report.format()
    (failure,) = report.failed
    assert "declare --variant" in str(failure.message), failure.message


def test_simultaneous_mutant_without_switches_is_cfr() -> None:
    game = efg.kuhn_poker()
    x, y = _self_play(game, 50, sign=1.0, last=False, plans=True)
    ours = efg.cfr(game, iterations=50)
    assert np.allclose(x, ours.x, atol=1e-12)
    assert np.allclose(y, ours.y, atol=1e-12)


def test_cfr_plus_converges_faster_on_kuhn() -> None:
    game = efg.kuhn_poker()
    plain = efg.cfr(game, iterations=300).nash_conv
    plus = efg.cfr_plus(game, iterations=300)
    assert plus.nash_conv < plain / 5
    assert abs(-float(plus.x @ game.payoff @ plus.y) + 1 / 18) <= plus.nash_conv


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match="game"):
        efg.cfr("kuhn", iterations=5)  # type: ignore[arg-type]  # not a game, on purpose
    with pytest.raises(ValueError, match="iterations"):
        efg.cfr_plus(efg.kuhn_poker(), iterations=0)
