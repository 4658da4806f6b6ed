"""Input domains of games.solver: a solver documented for non-degenerate games only.

``support_enumeration`` below is written from the textbook method (equal-size supports,
indifference systems) and, as documented, rejects games with a side of 1 and finds no
equilibrium on many degenerate (tied) games.  It fails the suite in the default domain
``all`` and passes it in domain ``generic``.
"""

from __future__ import annotations

import io
import itertools

import numpy as np
import pytest

from properties import Capabilities, run_suite
from properties._cli import main
from properties.games import GAME_SOLVER
from properties.strategies import generic_payoff_matrices
from reference._arrays import FloatArray
from reference.games import solve_lp

#: Sizes kept small: support enumeration is exponential in the side.
SMALL = Capabilities(max_size=4)
#: Slack of the best-response test of a candidate support pair.
SLACK = 1e-9


def support_enumeration(payoff: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Equilibrium of a non-degenerate zero-sum game (row player minimises) by supports.

    Documented domain: ``m, n >= 2`` and non-degenerate ``A``; anything else raises.

    Raises:
        ValueError: a side is smaller than 2, or no equal-size support pair is an
            equilibrium (the game is degenerate).
    """
    a = np.asarray(payoff, dtype=np.float64)
    m, n = a.shape
    if m < 2 or n < 2:
        raise ValueError(f"payoff: expected a non-degenerate game with m, n >= 2, got {a.shape}")
    for k in range(1, min(m, n) + 1):
        for rows in itertools.combinations(range(m), k):
            for cols in itertools.combinations(range(n), k):
                sub = a[np.ix_(rows, cols)]
                system = np.block([[sub, -np.ones((k, 1))], [np.ones((1, k)), np.zeros((1, 1))]])
                rhs = np.concatenate([np.zeros(k), [1.0]])
                try:
                    y_v = np.linalg.solve(system, rhs)
                    x_v = np.linalg.solve(
                        np.block([[sub.T, -np.ones((k, 1))], [np.ones((1, k)), np.zeros((1, 1))]]),
                        rhs,
                    )
                except np.linalg.LinAlgError:
                    continue
                if np.min(y_v[:k]) < -SLACK or np.min(x_v[:k]) < -SLACK:
                    continue
                x, y = np.zeros(m), np.zeros(n)
                x[list(rows)], y[list(cols)] = x_v[:k], y_v[:k]
                value = float(x @ a @ y)
                if np.min(a @ y) >= value - SLACK and np.max(x @ a) <= value + SLACK:
                    return x, y
    raise ValueError("payoff: no equal-size support pair is an equilibrium (degenerate game)")


def test_support_enumeration_solves_generic_games() -> None:
    from hypothesis import find

    game = find(generic_payoff_matrices(min_side=3), lambda a: a.shape == (3, 4))
    x, y = support_enumeration(game)
    assert float(x @ game @ y) == pytest.approx(solve_lp(game).value, abs=1e-9)


def test_fails_in_domain_all_passes_in_domain_generic() -> None:
    wide = run_suite(support_enumeration, GAME_SOLVER, profile="smoke", capabilities=SMALL)
    assert wide.domain == "all"
    assert not wide.ok
    failed = {r.name for r in wide.failed}
    assert "degenerate_games" in failed
    assert "duality_gap" in failed  # 1 x n and tied games raise on the first shrink
    generic = run_suite(
        support_enumeration,
        GAME_SOLVER,
        profile="smoke",
        capabilities=Capabilities(domain="generic", max_size=4),
    )
    assert generic.ok, generic.format()
    statuses = {r.name: r.status for r in generic.results}
    assert statuses["degenerate_games"] == "skipped"
    assert statuses["duality_gap"] == "passed"
    assert "domain generic" in generic.format().splitlines()[0]


def test_reference_passes_in_both_domains() -> None:
    for domain in ("all", "generic"):
        report = run_suite(
            solve_lp, GAME_SOLVER, profile="smoke", capabilities=Capabilities(domain=domain)
        )
        assert report.ok, report.format()


def test_sizes_narrow_the_draws() -> None:
    seen: list[tuple[int, int]] = []

    def recording(payoff: FloatArray) -> tuple[FloatArray, FloatArray]:
        seen.append(payoff.shape)
        result = solve_lp(payoff)
        return result.x, result.y

    caps = Capabilities(domain="generic", min_size=3, max_size=4)
    report = run_suite(
        recording, GAME_SOLVER, profile="smoke", capabilities=caps, skip=["player_swap"]
    )
    assert report.ok, report.format()
    assert seen
    assert all(3 <= s <= 4 for shape in seen for s in shape)


def test_min_size_above_the_suites_largest_draws_at_that_size() -> None:
    """``--min-size 15`` on games.solver (largest side 6 by default) draws 15 x 15 games; it was
    silently lowered to 6 x 6, so a user's large-input run never reached large inputs."""
    from properties.strategies import MAX_SIDE

    seen: list[tuple[int, int]] = []

    def recording(payoff: FloatArray) -> tuple[FloatArray, FloatArray]:
        seen.append(payoff.shape)
        result = solve_lp(payoff)
        return result.x, result.y

    big = MAX_SIDE + 3
    report = run_suite(
        recording,
        GAME_SOLVER,
        profile="smoke",
        capabilities=Capabilities(domain="generic", min_size=big),
        skip=["player_swap", "affine_invariance", "permutation_invariance"],
    )
    assert report.ok, report.format()
    assert seen
    assert all(s == big for shape in seen for s in shape)


def test_min_size_beyond_an_exact_oracle_is_a_usage_error() -> None:
    from properties.tsp import CHRISTOFIDES, EXACT_MAX_N
    from reference import tsp

    with pytest.raises(ValueError, match=r"min_size: suite tsp\.christofides judges sizes up to"):
        run_suite(
            tsp.christofides, CHRISTOFIDES, capabilities=Capabilities(min_size=EXACT_MAX_N + 1)
        )


def test_unknown_domain_and_bad_sizes_are_usage_errors() -> None:
    with pytest.raises(ValueError, match="domain"):
        run_suite(solve_lp, GAME_SOLVER, capabilities=Capabilities(domain="nope"))
    with pytest.raises(ValueError, match="max_size"):
        Capabilities(min_size=4, max_size=2)
    with pytest.raises(ValueError, match="min_size"):
        Capabilities(min_size=0)


def test_cli_domain_in_header_and_describe() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        [
            "crosscheck",
            "games.solver",
            "tests.games.test_properties_domain:support_enumeration",
            "--domain",
            "generic",
            "--max-size",
            "3",
            "--profile",
            "smoke",
        ],
        out=out,
        err=err,
    )
    assert code == 0, out.getvalue()
    lines = out.getvalue().splitlines()
    # the header is its first line and the lines wrapped under it (indented) to fit the terminal
    wrapped = [lines[0]]
    for line in lines[1:]:
        if not line.startswith("  "):
            break
        wrapped.append(line)
    header = " ".join(" ".join(wrapped).split())
    assert "domain generic" in header
    out = io.StringIO()
    assert main(["describe", "games.solver"], out=out, err=err) == 0
    assert "generic: non-degenerate games only" in out.getvalue()
    assert "minimises" in out.getvalue()
    out = io.StringIO()
    code = main(
        ["crosscheck", "games.solver", "reference.games:solve_lp", "--domain", "nope"],
        out=out,
        err=err,
    )
    assert code == 2
