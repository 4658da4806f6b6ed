"""Conformance suite ``games.solver`` for zero-sum matrix-game solvers.

Convention: ``A`` is ``(m, n)``; the row player (``x`` in the simplex of R^m)
minimises ``xᵀAy``, the column player (``y`` in the simplex of R^n) maximises.
An implementation is any callable ``fn(A) -> (x, y)`` (a result object with
``.x``/``.y`` or a mapping also works, see :func:`properties.adapters.as_game_solver`).

Equilibria need not be unique, so no check compares strategies with ours: each
checks the defining property (the duality gap) and the value, which is unique,
against the LP oracle :func:`reference.games.solve_lp`.  All tolerances are
``caps.tolerance * max(1, max|A|)``: the promised accuracy in payoff units.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from hypothesis import strategies as st

from properties._registry import Algorithm
from properties._runner import (
    Capabilities,
    Check,
    Suite,
    expect,
    expect_close,
    expect_le,
    expect_raises,
)
from properties.adapters import as_game_solver
from properties.bad_input import BadInputCase
from properties.strategies import degenerate_games, payoff_matrices
from reference import games
from reference._arrays import FloatArray

__all__ = [
    "ALGORITHMS",
    "BAD_INPUT_CASES",
    "GAME_SOLVER",
    "SUITES",
    "GameSolver",
    "check_affine_invariance",
    "check_degenerate_games",
    "check_duality_gap",
    "check_permutation_invariance",
    "check_player_swap",
    "check_rejects_invalid_input",
    "check_strategies_on_simplices",
    "check_value_matches_lp",
    "equilibrium_gap",
]

#: Extra slack for the LP oracle's own error, relative to the instance scale.
LP_SLACK = 1e-9


class GameSolver(Protocol):
    """A zero-sum game solver: ``A (m, n) -> (x (m,), y (n,))`` on the simplices."""

    def __call__(self, payoff: FloatArray, /) -> tuple[FloatArray, FloatArray]:
        """Return an equilibrium ``(x, y)`` of the game ``payoff``."""
        ...


def _scale(payoff: FloatArray) -> float:
    return max(1.0, float(np.max(np.abs(payoff))))


def _tol(payoff: FloatArray, caps: Capabilities) -> float:
    return caps.tolerance * _scale(payoff)


def _on_simplex(name: str, p: FloatArray, size: int, atol: float) -> FloatArray:
    expect(p.shape == (size,), what=f"shape of {name}", measured=p.shape, allowed=(size,))
    expect(
        bool(np.all(np.isfinite(p))),
        what=f"{name} is finite",
        measured=p.tolist(),
        allowed="finite entries",
    )
    low = float(np.min(p))
    expect(low >= -atol, what=f"smallest entry of {name}", measured=low, allowed=f">= {-atol!r}")
    total = float(np.sum(p))
    expect(
        abs(total - 1.0) <= atol,
        what=f"sum of {name}",
        measured=repr(total),
        allowed=f"1 ± {atol!r}",
    )
    clipped: FloatArray = np.maximum(p, 0.0)
    normalised: FloatArray = clipped / clipped.sum()
    return normalised


def equilibrium_gap(payoff: FloatArray, x: FloatArray, y: FloatArray, atol: float) -> float:
    """Duality gap of ``(x, y)`` after checking both lie on their simplices within ``atol``.

    Raises:
        CheckFailure: ``x`` or ``y`` has the wrong shape or is off its simplex.
    """
    m, n = payoff.shape
    xs = _on_simplex("x", x, m, atol)
    ys = _on_simplex("y", y, n, atol)
    return float(np.max(xs @ payoff) - np.min(payoff @ ys))


def _solve(
    impl: GameSolver, payoff: FloatArray, caps: Capabilities
) -> tuple[FloatArray, FloatArray, float]:
    x, y = impl(payoff.copy())
    gap = equilibrium_gap(payoff, x, y, _tol(payoff, caps))
    return x, y, gap


def check_strategies_on_simplices(
    impl: GameSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """``x`` and ``y`` have shapes ``(m,)``, ``(n,)``, are finite, ``>= 0`` and sum to 1."""
    payoff = data.draw(payoff_matrices(), label="payoff A")
    x, y = impl(payoff.copy())
    m, n = payoff.shape
    _on_simplex("x", x, m, _tol(payoff, caps))
    _on_simplex("y", y, n, _tol(payoff, caps))


def check_duality_gap(impl: GameSolver, data: st.DataObject, caps: Capabilities) -> None:
    """The returned pair is an equilibrium: ``max_j (xᵀA)_j - min_i (Ay)_i <= tol``."""
    payoff = data.draw(payoff_matrices(), label="payoff A")
    _, _, gap = _solve(impl, payoff, caps)
    expect_le(gap, _tol(payoff, caps), what="duality gap of the returned pair")


def check_value_matches_lp(impl: GameSolver, data: st.DataObject, caps: Capabilities) -> None:
    """``xᵀAy`` equals the game value computed by the LP oracle (value is unique)."""
    payoff = data.draw(payoff_matrices(), label="payoff A")
    x, y, _ = _solve(impl, payoff, caps)
    value = games.solve_lp(payoff).value
    tol = _tol(payoff, caps) + LP_SLACK * _scale(payoff)
    expect_close(float(x @ payoff @ y), value, atol=tol, what="xᵀAy against the LP value")


def check_affine_invariance(impl: GameSolver, data: st.DataObject, caps: Capabilities) -> None:
    """For ``A' = aA + c`` (``a > 0``) the output is an equilibrium of ``A'`` and the value
    maps as ``v(A') = a v(A) + c``."""
    payoff = data.draw(payoff_matrices(), label="payoff A")
    a = data.draw(st.floats(0.1, 10.0, allow_subnormal=False), label="scale a")
    c = data.draw(st.floats(-10.0, 10.0, allow_subnormal=False), label="shift c")
    transformed = a * payoff + c
    x, y, gap = _solve(impl, transformed, caps)
    tol = _tol(transformed, caps)
    expect_le(gap, tol, what="duality gap on aA + c")
    value = games.solve_lp(payoff).value
    expect_close(
        float(x @ transformed @ y),
        a * value + c,
        atol=tol + LP_SLACK * _scale(transformed),
        what="value of aA + c against a v(A) + c",
    )


def check_permutation_invariance(impl: GameSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Solving ``A[p][:, q]`` and undoing the permutations gives an equilibrium of ``A``."""
    payoff = data.draw(payoff_matrices(), label="payoff A")
    m, n = payoff.shape
    rows = np.array(data.draw(st.permutations(range(m)), label="row permutation"), dtype=np.intp)
    cols = np.array(data.draw(st.permutations(range(n)), label="column permutation"), dtype=np.intp)
    permuted = payoff[rows][:, cols]
    x_p, y_p = impl(permuted.copy())
    tol = _tol(payoff, caps)
    _on_simplex("x", x_p, m, tol)
    _on_simplex("y", y_p, n, tol)
    x = np.empty(m)
    y = np.empty(n)
    x[rows] = x_p
    y[cols] = y_p
    expect_le(
        equilibrium_gap(payoff, x, y, tol),
        tol,
        what="duality gap on A of the un-permuted solution of the permuted game",
    )


def check_player_swap(impl: GameSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Solving ``B = -Aᵀ`` gives ``(x', y')`` with ``(y', x')`` an equilibrium of ``A``
    and value ``v(B) = -v(A)``."""
    payoff = data.draw(payoff_matrices(), label="payoff A")
    swapped = -payoff.T
    x_b, y_b, gap_b = _solve(impl, swapped, caps)
    tol = _tol(payoff, caps)
    expect_le(gap_b, tol, what="duality gap on -Aᵀ")
    expect_le(
        equilibrium_gap(payoff, y_b, x_b, tol), tol, what="duality gap on A of the swapped pair"
    )
    value = games.solve_lp(payoff).value
    expect_close(
        float(x_b @ swapped @ y_b),
        -value,
        atol=tol + LP_SLACK * _scale(payoff),
        what="value of -Aᵀ against -v(A)",
    )


def check_degenerate_games(impl: GameSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Pure saddle points, constant matrices, duplicated rows, ``1 x n``, ``m x 1`` and
    rank-one games are solved to the tolerance, with the LP value."""
    kind, payoff = data.draw(degenerate_games(), label="degenerate game")
    x, y, gap = _solve(impl, payoff, caps)
    tol = _tol(payoff, caps)
    expect_le(gap, tol, what=f"duality gap on a {kind} game")
    value = games.solve_lp(payoff).value
    expect_close(
        float(x @ payoff @ y),
        value,
        atol=tol + LP_SLACK * _scale(payoff),
        what=f"value on a {kind} game against the LP value",
    )


def check_rejects_invalid_input(impl: GameSolver, data: st.DataObject, caps: Capabilities) -> None:
    """NaN/inf payoffs, empty and non-2-D arrays raise ``ValueError``/``TypeError``."""
    payoff = data.draw(payoff_matrices(min_side=1), label="payoff A")
    kind = data.draw(st.sampled_from(["nan", "inf", "empty", "1-D", "3-D"]), label="corruption")
    bad: Any
    if kind in ("nan", "inf"):
        bad = payoff.copy()
        bad.flat[data.draw(st.integers(0, bad.size - 1), label="position")] = (
            np.nan if kind == "nan" else np.inf
        )
    elif kind == "empty":
        bad = payoff[:0]
    elif kind == "1-D":
        bad = payoff[0]
    else:
        bad = payoff[None]
    expect_raises(lambda: impl(bad), (ValueError, TypeError), what=f"solver on {kind} payoff")


def _adapt(obj: object) -> GameSolver:
    if not callable(obj):
        raise TypeError(f"games.solver: expected a callable A -> (x, y), got {type(obj).__name__}")
    return as_game_solver(obj)


_ANCHOR = "zero-sum games: von Neumann (1928) minimax theorem"

GAME_SOLVER: Suite[GameSolver] = Suite(
    name="games.solver",
    protocol=GameSolver,
    checks=(
        Check(
            name="strategies_on_simplices",
            fn=check_strategies_on_simplices,
            anchor="feasibility: x, y in the simplices",
        ),
        Check(name="duality_gap", fn=check_duality_gap, anchor=_ANCHOR + "; gap = NashConv"),
        Check(name="value_matches_lp", fn=check_value_matches_lp, anchor=_ANCHOR + "; LP duality"),
        Check(
            name="affine_invariance",
            fn=check_affine_invariance,
            anchor="v(aA + c) = a v(A) + c for a > 0",
        ),
        Check(
            name="permutation_invariance",
            fn=check_permutation_invariance,
            anchor="relabelling pure strategies",
        ),
        Check(name="player_swap", fn=check_player_swap, anchor="v(-Aᵀ) = -v(A)"),
        Check(
            name="degenerate_games",
            fn=check_degenerate_games,
            anchor="saddle, constant, duplicated rows, 1 x n, m x 1, rank one",
        ),
        Check(
            name="rejects_invalid_input",
            fn=check_rejects_invalid_input,
            anchor="STYLE.md B3: bad input",
            requires=frozenset({"raises_on_invalid"}),
        ),
    ),
    adapt=_adapt,
    description="Zero-sum matrix-game solvers fn(A) -> (x, y): simplex feasibility, duality gap "
    "<= tol, LP value, invariance under aA + c, permutations and -Aᵀ, degenerate games.",
)

SUITES = (GAME_SOLVER,)

ALGORITHMS = (
    Algorithm(
        name="LP oracle (HiGHS, two LPs)",
        function="reference.games:solve_lp",
        family="games",
        paper="von Neumann (1928); Dantzig (1951)",
        suites=("games.solver", "bad_input"),
    ),
    Algorithm(
        name="duality gap / NashConv",
        function="reference.games:duality_gap",
        family="games",
        paper="standard",
        suites=("bad_input",),
    ),
)


def _payoff_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    m, n = (int(v) for v in rng.integers(1, 5, size=2))
    return (rng.uniform(-3.0, 3.0, size=(m, n)),), {}


def _gap_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    m, n = (int(v) for v in rng.integers(1, 5, size=2))
    return (
        rng.uniform(-3.0, 3.0, size=(m, n)),
        rng.dirichlet(np.ones(m)),
        rng.dirichlet(np.ones(n)),
    ), {}


BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.games:solve_lp", fn=games.solve_lp, make_args=_payoff_args, arrays=(0,)
    ),
    BadInputCase(
        name="reference.games:duality_gap",
        fn=games.duality_gap,
        make_args=_gap_args,
        arrays=(0, 1, 2),
    ),
    BadInputCase(
        name="reference.games:best_response_values",
        fn=games.best_response_values,
        make_args=_gap_args,
        arrays=(0, 1, 2),
    ),
)
