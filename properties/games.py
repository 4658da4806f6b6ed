"""Conformance suites ``games.solver`` (any zero-sum matrix-game solver) and
``games.regret`` (simultaneous RM+ self-play, or PRM+ with ``--variant PRM+``).

Convention: ``A`` is ``(m, n)``; the row player (``x`` in the simplex of R^m)
minimises ``xᵀAy``, the column player (``y`` in the simplex of R^n) maximises.
An implementation is any callable ``fn(A) -> (x, y)`` (a result object with
``.x``/``.y`` or a mapping also works, see :func:`properties.adapters.as_game_solver`).

Equilibria need not be unique, so no check compares strategies with ours: each
checks the defining property (the duality gap) and the value, which is unique,
against the LP oracle :func:`reference.games.solve_lp`.  All tolerances are
``caps.tolerance * max(1, max|A|)``: the promised accuracy in payoff units.

``games.regret`` reads a whole trajectory (:class:`RegretTrace`) of simultaneous
self-play and checks the defining properties of regret matching plus or (declared with
``Capabilities(variant="PRM+")``) its predictive variant, each exactly: a trajectory of
one is not accepted as the other (spec 01, Algorithm 3 and Sections 5-6): iterates on the
simplices, clipped states ``>= 0`` following ``R <- max(R + r, 0)``, regrets by
their definition, the averaging identity ``T gap(x̄, ȳ) = Reg_x + Reg_y``, and the
exact invariances of the dynamics (shift, scale, permutation).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from hypothesis import strategies as st

from properties._runner import (
    Capabilities,
    CheckFailure,
    Suite,
    expect,
    expect_close,
    expect_le,
    expect_raises,
)
from properties._suite import check
from properties.adapters import as_game_solver, to_numpy
from properties.strategies import (
    MAX_SIDE,
    degenerate_games,
    distinct_float_arrays,
    generic_payoff_matrices,
    payoff_matrices,
    permutations,
)
from reference import games
from reference._arrays import FloatArray

__all__ = [
    "GAME_REGRET",
    "GAME_SOLVER",
    "REGRET_VARIANTS",
    "SUITES",
    "GameSolver",
    "RegretDynamics",
    "RegretTrace",
    "as_regret_dynamics",
    "equilibrium_gap",
]

#: Extra slack for the LP oracle's own error, relative to the instance scale.
LP_SLACK = 1e-9


class GameSolver(Protocol):
    """A zero-sum game solver: ``A (m, n) -> (x (m,), y (n,))`` on the simplices.

    Call shape: ``fn(A)`` with ``A`` a float64 ``numpy`` array of shape ``(m, n)``, one game
    per call (no batch axis), ``m, n >= 1`` (``>= 2`` in domain ``generic``).  The row player
    picks ``x`` in the simplex of R^m and minimises ``xᵀAy``; the column player picks ``y``
    in the simplex of R^n and maximises it, so the value is ``min_x max_y xᵀAy``.  (A solver
    whose row player maximises is checked on ``-A``: wrap it as ``lambda A: f(-A)``.)
    Returns ``(x, y)`` as 1-D float arrays (lists, torch tensors, a mapping or an object with
    ``.x``/``.y`` are converted); the input must not be modified.
    """

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


#: Input domains of ``games.solver`` (the first is the default).
GAME_DOMAINS = {
    "all": f"every finite payoff matrix, 1 x 1 to {MAX_SIDE} x {MAX_SIDE}: integer entries "
    "with ties, saddle points, constant, duplicated-row and rank-one games",
    "generic": "non-degenerate games only: m, n >= 2, continuous entries with a fixed "
    "tie-breaking term (properties.strategies.generic_payoff_matrices), no degenerate_games "
    "check; for methods documented for non-degenerate games (support enumeration, "
    "Lemke-Howson)",
}


def _game(data: st.DataObject, caps: Capabilities) -> FloatArray:
    """A payoff matrix of the declared domain and sizes."""
    if caps.domain == "generic":
        low, high = caps.sizes(2, MAX_SIDE)
        drawn: FloatArray = data.draw(
            generic_payoff_matrices(min_side=max(2, low), max_side=high), label="payoff A"
        )
        return drawn
    low, high = caps.sizes(1, MAX_SIDE)
    drawn = data.draw(payoff_matrices(min_side=low, max_side=high), label="payoff A")
    return drawn


def _solve(
    impl: GameSolver, payoff: FloatArray, caps: Capabilities
) -> tuple[FloatArray, FloatArray, float]:
    x, y = impl(payoff.copy())
    gap = equilibrium_gap(payoff, x, y, _tol(payoff, caps))
    return x, y, gap


_ANCHOR = "zero-sum games: von Neumann (1928) minimax theorem"
_RM_ANCHOR = (
    "Yang, Gao, Lin, Kroer (arXiv:2512.12910) Alg. 3 (RM+/PRM+; Farina, Kroer, Sandholm AAAI 2021)"
)


@check(anchor="feasibility: x, y in the simplices")
def check_strategies_on_simplices(
    impl: GameSolver, data: st.DataObject, caps: Capabilities
) -> None:
    """``x`` and ``y`` have shapes ``(m,)``, ``(n,)``, are finite, ``>= 0`` and sum to 1."""
    payoff = _game(data, caps)
    x, y = impl(payoff.copy())
    m, n = payoff.shape
    _on_simplex("x", x, m, _tol(payoff, caps))
    _on_simplex("y", y, n, _tol(payoff, caps))


@check(anchor=_ANCHOR + "; gap = NashConv")
def check_duality_gap(impl: GameSolver, data: st.DataObject, caps: Capabilities) -> None:
    """The returned pair is an equilibrium: ``max_j (xᵀA)_j - min_i (Ay)_i <= tol``."""
    payoff = _game(data, caps)
    _, _, gap = _solve(impl, payoff, caps)
    expect_le(gap, _tol(payoff, caps), what="duality gap of the returned pair")


@check(anchor=_ANCHOR + "; LP duality")
def check_value_matches_lp(impl: GameSolver, data: st.DataObject, caps: Capabilities) -> None:
    """``xᵀAy`` equals the game value computed by the LP oracle (value is unique)."""
    payoff = _game(data, caps)
    x, y, _ = _solve(impl, payoff, caps)
    value = games.solve_lp(payoff).value
    tol = _tol(payoff, caps) + LP_SLACK * _scale(payoff)
    expect_close(float(x @ payoff @ y), value, atol=tol, what="xᵀAy against the LP value")


@check(anchor="v(aA + c) = a v(A) + c for a > 0")
def check_affine_invariance(impl: GameSolver, data: st.DataObject, caps: Capabilities) -> None:
    """For ``A' = aA + c`` (``a > 0``) the output is an equilibrium of ``A'`` and the value
    maps as ``v(A') = a v(A) + c``."""
    payoff = _game(data, caps)
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


@check(anchor="relabelling pure strategies")
def check_permutation_invariance(impl: GameSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Solving ``A[p][:, q]`` and undoing the permutations gives an equilibrium of ``A``."""
    payoff = _game(data, caps)
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


@check(anchor="v(-Aᵀ) = -v(A)")
def check_player_swap(impl: GameSolver, data: st.DataObject, caps: Capabilities) -> None:
    """Solving ``B = -Aᵀ`` gives ``(x', y')`` with ``(y', x')`` an equilibrium of ``A``
    and value ``v(B) = -v(A)``."""
    payoff = _game(data, caps)
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


@check(anchor="saddle, constant, duplicated rows, 1 x n, m x 1, rank one", domains=("all",))
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


@check(
    anchor="input contract: invalid input raises ValueError or TypeError",
    requires=frozenset({"raises_on_invalid"}),
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


GAME_SOLVER: Suite[GameSolver] = Suite(
    name="games.solver",
    protocol=GameSolver,
    checks=(
        check_strategies_on_simplices,
        check_duality_gap,
        check_value_matches_lp,
        check_affine_invariance,
        check_permutation_invariance,
        check_player_swap,
        check_degenerate_games,
        check_rejects_invalid_input,
    ),
    adapt=_adapt,
    description="Zero-sum matrix-game solvers fn(A) -> (x, y): simplex feasibility, duality gap "
    "<= tol, LP value, invariance under aA + c, permutations and -Aᵀ, degenerate games.",
    domains=GAME_DOMAINS,
)

# ------------------------------------------------------------------ games.regret
#: Simplex membership tolerance for every iterate of a regret dynamic (spec 01, Section 6.1).
SIMPLEX_ATOL = 1e-12
#: Relative tolerance of the exact identities (spec 01, Section 5: 1e-9 * T * max|a|).
IDENTITY_RTOL = 1e-9
#: Largest number of iterations drawn by the games.regret checks.
MAX_REGRET_STEPS = 40


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class RegretTrace:
    """What the ``games.regret`` checks read from a run of simultaneous regret dynamics.

    Attributes:
        xs: ``(T, m)`` row strategies ``x^1..x^T``.
        ys: ``(T, n)`` column strategies ``y^1..y^T``.
        regrets_x: ``(T, m)`` instantaneous regrets ``r^t = <Ay^t, x^t> 1 - Ay^t``.
        regrets_y: ``(T, n)`` instantaneous regrets ``r^t = Aᵀx^t - <Aᵀx^t, y^t> 1``.
        states_x: ``(T, m)`` the clipped regret states after each update.
        states_y: ``(T, n)`` the same for the column player.
        x_bar: ``(m,)`` the reported uniform average of ``xs``.
        y_bar: ``(n,)`` the reported uniform average of ``ys``.
    """

    xs: FloatArray
    ys: FloatArray
    regrets_x: FloatArray
    regrets_y: FloatArray
    states_x: FloatArray
    states_y: FloatArray
    x_bar: FloatArray
    y_bar: FloatArray


class RegretDynamics(Protocol):
    """Simultaneous RM+-type self-play: ``(A (m, n), iterations T) -> RegretTrace``.

    A richer return value (our :class:`reference.games.RegretTrajectory`, any object
    or mapping with the eight fields of :class:`RegretTrace`) is adapted.
    """

    def __call__(self, payoff: FloatArray, /, *, iterations: int) -> RegretTrace:
        """Run ``iterations`` steps of self-play on ``payoff`` and return the trace."""
        ...


_TRACE_FIELDS = ("xs", "ys", "regrets_x", "regrets_y", "states_x", "states_y", "x_bar", "y_bar")


def _field(result: object, name: str) -> object:
    if isinstance(result, Mapping) and name in result:
        return result[name]
    if hasattr(result, name):
        return getattr(result, name)
    raise CheckFailure(
        "regret dynamics output",
        measured=f"{type(result).__name__} without {name!r}",
        allowed=f"an object or mapping with fields {', '.join(_TRACE_FIELDS)}",
    )


def as_regret_dynamics(fn: Callable[..., Any]) -> RegretDynamics:
    """Wrap ``fn(A, iterations=T)`` returning an object/mapping with the fields of
    :class:`RegretTrace` into the :class:`RegretDynamics` protocol (float64 arrays).

    Raises:
        TypeError: ``fn`` is not callable.
    """
    if not callable(fn):
        raise TypeError(f"fn: expected a callable (A, iterations=T) -> trace, got {fn!r}")

    @functools.wraps(fn)
    def dynamics(payoff: FloatArray, /, *, iterations: int) -> RegretTrace:
        result = fn(payoff, iterations=iterations)
        arrays = {k: to_numpy(_field(result, k), what=k) for k in _TRACE_FIELDS}
        m, n = payoff.shape
        want = {
            "xs": (iterations, m),
            "ys": (iterations, n),
            "regrets_x": (iterations, m),
            "regrets_y": (iterations, n),
            "states_x": (iterations, m),
            "states_y": (iterations, n),
            "x_bar": (m,),
            "y_bar": (n,),
        }
        for key, shape in want.items():
            expect(
                arrays[key].shape == shape,
                what=f"shape of {key}",
                measured=arrays[key].shape,
                allowed=shape,
            )
            expect(
                bool(np.all(np.isfinite(arrays[key]))),
                what=f"{key} is finite",
                measured="NaN/inf entries",
                allowed="finite",
            )
        return RegretTrace(**arrays)

    return dynamics


def _regret_game(data: st.DataObject) -> tuple[FloatArray, int]:
    payoff = data.draw(payoff_matrices(), label="payoff A")
    steps = data.draw(st.integers(1, MAX_REGRET_STEPS), label="iterations T")
    return payoff, steps


def _generic_game(data: st.DataObject) -> tuple[FloatArray, int]:
    """A tie-free game in [-5, 5] (so exact invariances are numerically stable)."""
    m = data.draw(st.integers(1, MAX_SIDE), label="rows m")
    n = data.draw(st.integers(1, MAX_SIDE), label="columns n")
    payoff = data.draw(distinct_float_arrays((m, n), low=-5.0, high=5.0), label="payoff A")
    steps = data.draw(st.integers(1, MAX_REGRET_STEPS), label="iterations T")
    return payoff, steps


@check(anchor="Yang, Gao, Lin, Kroer (arXiv:2512.12910): every iterate on the simplex")
def check_iterates_on_simplices(
    impl: RegretDynamics, data: st.DataObject, caps: Capabilities
) -> None:
    """Every iterate ``x^t``, ``y^t`` has entries ``>= -1e-12`` summing to 1 within 1e-12."""
    payoff, steps = _regret_game(data)
    trace = impl(payoff.copy(), iterations=steps)
    for name, arr in (("x^t", trace.xs), ("y^t", trace.ys)):
        low = float(arr.min())
        expect(
            low >= -SIMPLEX_ATOL,
            what=f"smallest entry of {name}",
            measured=low,
            allowed=f">= {-SIMPLEX_ATOL!r}",
        )
        sums = arr.sum(axis=1)
        worst = int(np.argmax(np.abs(sums - 1.0)))
        expect(
            abs(float(sums[worst]) - 1.0) <= SIMPLEX_ATOL,
            what=f"sum of {name} at t = {worst + 1}",
            measured=repr(float(sums[worst])),
            allowed=f"1 ± {SIMPLEX_ATOL!r}",
        )


@check(anchor=_RM_ANCHOR + ": R <- max(R + r, 0)")
def check_states_nonnegative(impl: RegretDynamics, data: st.DataObject, caps: Capabilities) -> None:
    """The clipped regret states stay ``>= 0`` at every iterate (RM+/PRM+ clip them)."""
    payoff, steps = _regret_game(data)
    trace = impl(payoff.copy(), iterations=steps)
    for name, arr in (("R_x", trace.states_x), ("R_y", trace.states_y)):
        low = float(arr.min())
        expect(low >= 0.0, what=f"smallest entry of the state {name}", measured=low, allowed=">= 0")


def _expected_regrets(payoff: FloatArray, trace: RegretTrace) -> tuple[FloatArray, FloatArray]:
    loss = trace.ys @ payoff.T  # (T, m): rows A y^t
    gain = trace.xs @ payoff  # (T, n): rows Aᵀ x^t
    r_x = np.sum(loss * trace.xs, axis=1, keepdims=True) - loss
    r_y = gain - np.sum(gain * trace.ys, axis=1, keepdims=True)
    return r_x, r_y


@check(anchor=_RM_ANCHOR + ": r = <l, x>1 - l, r = g - <g, y>1")
def check_instantaneous_regrets(
    impl: RegretDynamics, data: st.DataObject, caps: Capabilities
) -> None:
    """Reported regrets are ``<Ay^t, x^t> 1 - Ay^t`` and ``Aᵀx^t - <Aᵀx^t, y^t> 1``
    (simultaneous play: both players observe the same profile ``(x^t, y^t)``)."""
    payoff, steps = _regret_game(data)
    trace = impl(payoff.copy(), iterations=steps)
    r_x, r_y = _expected_regrets(payoff, trace)
    tol = IDENTITY_RTOL * _scale(payoff)
    for name, got, want in (("row", trace.regrets_x, r_x), ("column", trace.regrets_y, r_y)):
        err = np.abs(got - want)
        t, i = np.unravel_index(int(np.argmax(err)), err.shape)
        expect_le(
            float(err[t, i]),
            tol,
            what=f"{name} player's regret at t = {int(t) + 1}, action {int(i)} against the "
            "definition",
        )


@check(anchor=_RM_ANCHOR + ": clipping rule")
def check_state_update(impl: RegretDynamics, data: st.DataObject, caps: Capabilities) -> None:
    """The states follow the RM+ rule ``R^t = max(R^{t-1} + r^t, 0)``, ``R^0 = 0``."""
    payoff, steps = _regret_game(data)
    trace = impl(payoff.copy(), iterations=steps)
    tol = IDENTITY_RTOL * _scale(payoff)
    for name, states, regrets in (
        ("R_x", trace.states_x, trace.regrets_x),
        ("R_y", trace.states_y, trace.regrets_y),
    ):
        previous = np.vstack([np.zeros((1, states.shape[1])), states[:-1]])
        err = np.abs(states - np.maximum(previous + regrets, 0.0))
        t = int(np.argmax(err.max(axis=1)))
        expect_le(
            float(err[t].max()),
            tol * (t + 1),
            what=f"{name}^t - max(R^(t-1) + r^t, 0) at t = {t + 1}",
        )


def _normalize_rows(v: FloatArray) -> FloatArray:
    sums = v.sum(axis=1, keepdims=True)
    uniform = np.full_like(v, 1.0 / v.shape[1])
    out: FloatArray = np.where(sums > 0.0, v / np.where(sums > 0.0, sums, 1.0), uniform)
    return out


#: The two recursions ``games.regret`` checks, each exactly (``--variant``; the first is the
#: default).  They share the state update ``R <- max(R + r, 0)`` and differ in the strategy.
REGRET_VARIANTS: Mapping[str, str] = {
    "RM+": "x^t = normalize(R^{t-1}) (regret matching plus, Tammelin 2014)",
    "PRM+": "x^t = normalize(max(R^{t-1} + r^{t-1}, 0)) (predictive RM+ with the last regret "
    "as prediction, Farina, Kroer, Sandholm 2021)",
}


def _strategy_distance(trace: RegretTrace, payoff: FloatArray, rule: str) -> float:
    """Largest ``|x^t - normalize(base^t)|`` over both players for ``rule`` (RM+ or PRM+)."""
    worst = 0.0
    for xs, states, regrets in (
        (trace.xs, trace.states_x, trace.regrets_x),
        (trace.ys, trace.states_y, trace.regrets_y),
    ):
        zero = np.zeros((1, xs.shape[1]))
        prev_state = np.vstack([zero, states[:-1]])
        prev_regret = np.vstack([zero, regrets[:-1]])
        base = prev_state if rule == "RM+" else np.maximum(prev_state + prev_regret, 0.0)
        expected = _normalize_rows(base)
        # near-zero vectors make normalisation ill-conditioned: skip those rows
        sums = base.sum(axis=1)
        good = (sums == 0.0) | (sums > 1e-6 * _scale(payoff))
        if good.any():
            worst = max(worst, float(np.abs(xs[good] - expected[good]).max()))
    return worst


@check(anchor=_RM_ANCHOR + ": x = normalize(R) (RM+) / normalize((R + r)^+) (PRM+)")
def check_strategy_from_state(
    impl: RegretDynamics, data: st.DataObject, caps: Capabilities
) -> None:
    """The declared variant's strategy rule at every ``t`` for both players (uniform when the
    vector is zero): ``x^t = normalize(R^{t-1})`` for ``RM+`` (the default),
    ``normalize(max(R^{t-1} + r^{t-1}, 0))`` for ``PRM+``.  One suite, one recursion per run:
    a PRM+ trajectory submitted as RM+ (or the reverse) fails."""
    rule = caps.variant_of(GAME_REGRET)
    payoff, steps = _regret_game(data)
    trace = impl(payoff.copy(), iterations=steps)
    other = next(v for v in REGRET_VARIANTS if v != rule)
    to_other = _strategy_distance(trace, payoff, other)
    # name the other rule only when it, on this same trace, would have held
    hint = (
        f"declare --variant {other}: the {other} rule holds on this trace"
        if to_other <= 1e-9
        else "neither rule holds on this trace: the target computes a different method"
    )
    expect_le(
        _strategy_distance(trace, payoff, rule),
        1e-9,
        what=f"distance of x^t, y^t to the {rule} rule {REGRET_VARIANTS[rule].split(' (')[0]} "
        f"(distance to the {other} rule: {to_other:.3g}; {hint})",
    )


@check(
    anchor="Yang, Gao, Lin, Kroer (arXiv:2512.12910): T gap(x̄, ȳ) = Reg_x + Reg_y (simultaneous play)"
)
def check_averaging_identity(impl: RegretDynamics, data: st.DataObject, caps: Capabilities) -> None:
    """``T · gap(x̄, ȳ) = Reg_x(T) + Reg_y(T)`` with ``Reg = max_i Σ_t r^t_i`` and the
    reported uniform averages (exact for simultaneous play)."""
    payoff, steps = _regret_game(data)
    trace = impl(payoff.copy(), iterations=steps)
    tol = IDENTITY_RTOL * steps * _scale(payoff)
    x_bar = _on_simplex("x_bar", trace.x_bar, payoff.shape[0], 1e-9)
    y_bar = _on_simplex("y_bar", trace.y_bar, payoff.shape[1], 1e-9)
    lhs = steps * float(np.max(x_bar @ payoff) - np.min(payoff @ y_bar))
    rhs = float(trace.regrets_x.sum(axis=0).max() + trace.regrets_y.sum(axis=0).max())
    expect_close(lhs, rhs, atol=tol, what="T·gap(x̄, ȳ) against Reg_x + Reg_y")


@check(anchor=_RM_ANCHOR + ": cumulative regret <= clipped state")
def check_regret_below_state(impl: RegretDynamics, data: st.DataObject, caps: Capabilities) -> None:
    """Clipping only raises the state, so ``Σ_t r^t_i <= R^T_i`` for every action, and
    ``T · gap(x̄, ȳ) <= max R_x^T + max R_y^T``."""
    payoff, steps = _regret_game(data)
    trace = impl(payoff.copy(), iterations=steps)
    tol = IDENTITY_RTOL * steps * _scale(payoff)
    for name, regrets, states in (
        ("row", trace.regrets_x, trace.states_x),
        ("column", trace.regrets_y, trace.states_y),
    ):
        excess = regrets.sum(axis=0) - states[-1]
        expect_le(
            float(excess.max()),
            tol,
            what=f"{name} player's cumulative regret minus its final state (largest action)",
        )
    x_bar = trace.xs.mean(axis=0)
    y_bar = trace.ys.mean(axis=0)
    lhs = steps * float(np.max(x_bar @ payoff) - np.min(payoff @ y_bar))
    rhs = float(trace.states_x[-1].max() + trace.states_y[-1].max())
    expect_le(lhs, rhs + tol, what="T·gap(x̄, ȳ) against max R_x^T + max R_y^T")


def _step_distances(
    a: tuple[FloatArray, FloatArray], b: tuple[FloatArray, FloatArray]
) -> FloatArray:
    """``max(|x^t_a - x^t_b|_∞, |y^t_a - y^t_b|_∞)`` for every step ``t`` of two ``(xs, ys)``."""
    out: FloatArray = np.maximum(np.abs(a[0] - b[0]).max(axis=1), np.abs(a[1] - b[1]).max(axis=1))
    return out


#: How far a transformed run may drift beyond the run's own rounding sensitivity (see below).
ROUNDING_FACTOR = 16.0


def _rounding_sensitivity(
    impl: RegretDynamics, payoff: FloatArray, steps: int, base: RegretTrace, size: float
) -> FloatArray:
    """Per-step distance between the run on ``A`` and on ``A`` moved by ``±eps · size`` in
    every entry (fixed signs; ``size`` the magnitude the transformed entries are rounded at).

    RM+/PRM+ are nonlinear maps: on near-tied games a rounding error of the input can grow by a
    factor of about 2 per step (measured: from 1e-16 to 1.5e-9 in 31 steps on a 5 x 6 game with
    entries 4.66-4.71).  ``A + c``, ``sA`` and a permuted ``A`` are rounded (or summed) differently
    from ``A``, so their runs drift from the base run by that amplified rounding however exact
    the implementation; this measures the amplification on the implementation's own run.
    """
    signs = np.where(np.random.default_rng(0).random(payoff.shape) < 0.5, -1.0, 1.0)
    nudge = signs * np.finfo(np.float64).eps * size
    nudged = impl(payoff + nudge, iterations=steps)
    return _step_distances((base.xs, base.ys), (nudged.xs, nudged.ys))


def _expect_same_run(
    expected: tuple[FloatArray, FloatArray],
    got: tuple[FloatArray, FloatArray],
    sensitivity: FloatArray,
    what: str,
) -> None:
    """Every step ``t`` within ``1e-9 + ROUNDING_FACTOR · sensitivity_t``: 1e-9 where the run is
    stable (a wrong rule differs by far more from the first step on), wider only at steps
    where the run's own one-ulp sensitivity has grown."""
    distances = _step_distances(expected, got)
    allowed = 1e-9 + ROUNDING_FACTOR * sensitivity
    t = int(np.argmax(distances - allowed))
    expect_le(
        float(distances[t]),
        float(allowed[t]),
        what=f"{what} at step {t} (one-ulp sensitivity of the run there: {sensitivity[t]:.3g})",
    )


@check(anchor="Yang, Gao, Lin, Kroer (arXiv:2512.12910): same iterates for A + c11ᵀ and cA")
def check_shift_scale_invariance(
    impl: RegretDynamics, data: st.DataObject, caps: Capabilities
) -> None:
    """The iterates are the same for ``A``, ``A + c 11ᵀ`` (``|c| <= 10``) and ``sA``
    (``s ∈ [0.1, 10]``): RM+-type dynamics depend on regrets only up to a positive scale.
    Step ``t`` may differ by ``1e-9`` plus 16 times the run's measured one-ulp sensitivity at
    ``t`` (:func:`_rounding_sensitivity`)."""
    payoff, steps = _generic_game(data)
    c = data.draw(st.floats(-10.0, 10.0, allow_subnormal=False), label="shift c")
    s = data.draw(st.floats(0.1, 10.0, allow_subnormal=False), label="scale s")
    base = impl(payoff.copy(), iterations=steps)
    top = float(np.max(np.abs(payoff)))
    for run, what, size in (
        (impl(payoff + c, iterations=steps), "A + c", top + abs(c)),  # A + c rounds at |A| + |c|
        (impl(s * payoff, iterations=steps), "sA", top),
    ):
        _expect_same_run(
            (base.xs, base.ys),
            (run.xs, run.ys),
            _rounding_sensitivity(impl, payoff, steps, base, size),
            f"max |iterates({what}) - iterates(A)|",
        )


@check(anchor="Yang, Gao, Lin, Kroer (arXiv:2512.12910): permuting A permutes the iterates")
def check_permutation_equivariance(
    impl: RegretDynamics, data: st.DataObject, caps: Capabilities
) -> None:
    """Permuting the rows/columns of ``A`` permutes the iterates the same way (step ``t``
    within ``1e-9`` plus 16 times the run's one-ulp sensitivity, as for shifts)."""
    payoff, steps = _generic_game(data)
    m, n = payoff.shape
    rows = data.draw(permutations(m), label="row permutation")
    cols = data.draw(permutations(n), label="column permutation")
    base = impl(payoff.copy(), iterations=steps)
    perm = impl(payoff[rows][:, cols].copy(), iterations=steps)
    _expect_same_run(
        (base.xs[:, rows], base.ys[:, cols]),
        (perm.xs, perm.ys),
        _rounding_sensitivity(impl, payoff, steps, base, float(np.max(np.abs(payoff)))),
        "max |iterates(A[p][:, q]) - permuted iterates(A)|",
    )


def _adapt_regret(obj: object) -> RegretDynamics:
    if not callable(obj):
        raise TypeError(
            f"games.regret: expected a callable (A, iterations=T) -> trace, got {type(obj).__name__}"
        )
    return as_regret_dynamics(obj)


GAME_REGRET: Suite[RegretDynamics] = Suite(
    name="games.regret",
    protocol=RegretDynamics,
    checks=(
        check_iterates_on_simplices,
        check_states_nonnegative,
        check_instantaneous_regrets,
        check_state_update,
        check_strategy_from_state,
        check_averaging_identity,
        check_regret_below_state,
        check_shift_scale_invariance,
        check_permutation_equivariance,
    ),
    adapt=_adapt_regret,
    variants=REGRET_VARIANTS,
    description="Simultaneous RM+ (default) or PRM+ (--variant PRM+) self-play fn(A, iterations=T) -> trace: iterates on "
    "the simplices, clipped states >= 0 following R <- max(R + r, 0), regrets by definition, "
    "T gap(x̄, ȳ) = Reg_x + Reg_y, invariance under A + c, sA and permutations.",
)


SUITES = (GAME_SOLVER, GAME_REGRET)
