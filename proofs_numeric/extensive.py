"""Numeric checks for two-player zero-sum extensive-form games in sequence form.

* :func:`kuhn_value` — Kuhn poker's value ``-1/18`` from our sequence-form LP;
* :func:`kuhn_asymp_dgda` — AsymP-DGDA's last iterate on Kuhn poker (Abe et al., ICML 2026,
  spec 19 §6).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog

from proofs_numeric._registry import ProveProfile, impl, register
from proofs_numeric._result import BoundCheck
from reference import extensive as efg

__all__ = ["KUHN_VALUE", "kuhn_asymp_dgda", "kuhn_value", "lp_nash_conv"]

PAPER = "Abe et al. (ICML 2026)"
KUHN_VALUE = -1.0 / 18.0


def kuhn_value() -> BoundCheck:
    """Kuhn poker's value for player 1 is ``-1/18`` (Kuhn 1950), from our sequence-form LP.

    The value is recomputed from the returned plans as ``-xᵀAy`` (never read from the
    solution's ``value`` field), and the plans must be an equilibrium: NashConv ``<= 1e-9``
    by :func:`lp_nash_conv` (so plans that happen to score ``-1/18`` without being optimal
    fail).  Budget ``atol = 1e-9`` (HiGHS feasibility tolerances 1e-10).  Returns the value
    check, or the NashConv check where only that one fails."""
    game = impl(efg.kuhn_poker)()
    solution = impl(efg.solve_lp)(game)
    x = np.asarray(solution.x, dtype=np.float64)
    y = np.asarray(solution.y, dtype=np.float64)
    value = -float(x @ np.asarray(game.payoff, dtype=np.float64) @ y)
    nash_conv = lp_nash_conv(game, x, y)
    params = {
        "NashConv": nash_conv,
        "reported value": solution.value,
        "dual_value": solution.dual_value,
    }
    checks = (
        BoundCheck(
            claim="sequence-form LP value of Kuhn poker = -1/18 (player 1), as -xᵀAy",
            paper="Kuhn (1950); sequence form: Koller, Megiddo, von Stengel (1996)",
            theorem="game value",
            measured=value,
            bound=KUHN_VALUE,
            sense="==",
            atol=1e-9,
            params=params,
        ),
        BoundCheck(
            claim="the LP's plans are an equilibrium of Kuhn poker (NashConv <= 1e-9)",
            paper="Kuhn (1950); sequence form: Koller, Megiddo, von Stengel (1996)",
            theorem="game value (equilibrium plans)",
            measured=nash_conv,
            bound=1e-9,
            sense="<=",
            atol=1e-12,
            params=params,
        ),
    )
    return next((c for c in checks if not c.holds), checks[0])


def _plan_equalities(space: efg.Treeplex) -> tuple[np.ndarray, np.ndarray]:
    """``E x = e`` rebuilt from the treeplex's parent/start/size arrays: ``x_0 = 1`` and, per
    infoset ``j``, ``sum of its sequences = x_(parent j)`` (Koller, Megiddo, von Stengel 1996)."""
    rows = [np.eye(1, space.n_sequences, 0)[0]]
    for p, s, k in zip(space.parent, space.start, space.size, strict=True):
        row = np.zeros(space.n_sequences)
        row[int(s) : int(s) + int(k)] = 1.0
        row[int(p)] -= 1.0
        rows.append(row)
    rhs = np.zeros(len(rows))
    rhs[0] = 1.0
    return np.array(rows), rhs


def _lp_best_response(space: efg.Treeplex, c: np.ndarray, *, maximise: bool) -> float:
    """``min`` (or ``max``) of ``cᵀz`` over the realization plans of ``space``, by HiGHS' dual
    simplex; the value is re-evaluated at the returned vertex."""
    eq, rhs = _plan_equalities(space)
    sign = -1.0 if maximise else 1.0
    res = linprog(sign * c, A_eq=eq, b_eq=rhs, bounds=(0, None), method="highs-ds")
    if res.status != 0:
        return float("nan")
    return float(c @ res.x)


def lp_nash_conv(game: efg.SequenceFormGame, x: np.ndarray, y: np.ndarray) -> float:
    """NashConv ``max_y' xᵀAy' - min_x' x'ᵀAy`` by two sequence-form LPs, plus the plans'
    violation of ``E x = e``, ``x >= 0`` (so an invalid plan cannot score 0).

    Independent of :func:`reference.extensive.nash_conv` (bottom-up recursion): only the
    payoff matrix and the treeplex arrays are shared.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    A = np.asarray(game.payoff, dtype=np.float64)
    violation = 0.0
    for space, plan in ((game.x_space, x), (game.y_space, y)):
        eq, rhs = _plan_equalities(space)
        violation += float(np.max(np.abs(eq @ plan - rhs))) + max(0.0, -float(np.min(plan)))
    g = _lp_best_response(game.y_space, A.T @ x, maximise=True)
    h = _lp_best_response(game.x_space, A @ y, maximise=False)
    return g - h + violation


def kuhn_asymp_dgda(*, iterations: int = 10_000, mu: float = 0.01) -> BoundCheck:
    """AsymP-DGDA's last iterate on Kuhn reaches NashConv ``<= 1e-10`` within ``iterations``
    (spec 19 §3.6/§6: about 4,000 iterations to ~1e-14 with μ = 0.01, η = 1/||A||_2).  This is
    an empirical claim (no global proof for the dilated regulariser).

    NashConv is recomputed from the returned ``(x, y)`` by :func:`lp_nash_conv` (two LP best
    responses and the plans' feasibility), never read from the result; budget ``atol = 1e-12``
    for the LP vertices' rounding."""
    game = efg.kuhn_poker()
    res = impl(efg.asymp_dgda)(game, mu=mu, max_iter=iterations, tol=1e-12)
    measured = lp_nash_conv(game, np.asarray(res.x), np.asarray(res.y))
    return BoundCheck(
        claim="AsymP-DGDA last-iterate NashConv on Kuhn <= 1e-10 within 1e4 iterations",
        paper=PAPER,
        theorem="Section 6 (Kuhn poker)",
        measured=measured,
        bound=1e-10,
        sense="<=",
        atol=1e-12,
        params={"iterations": res.iterations, "mu": mu, "reported NashConv": res.nash_conv},
        series={"NashConv (reported)": (tuple(range(len(res.history))), tuple(res.history))},
    )


@register(
    name="extensive.kuhn_value",
    family="extensive",
    paper="Kuhn (1950)",
    theorem="game value -1/18",
    algorithms=("reference.extensive:solve_lp", "reference.extensive:kuhn_poker"),
)
def prove_kuhn_value(profile: ProveProfile) -> BoundCheck:
    """Kuhn poker's value from the sequence-form LP."""
    return kuhn_value()


@register(
    name="extensive.kuhn_asymp_dgda",
    family="extensive",
    paper=PAPER,
    theorem="Section 6 (Kuhn poker, last iterate)",
    algorithms=("reference.extensive:asymp_dgda",),
)
def prove_kuhn_asymp_dgda(profile: ProveProfile) -> BoundCheck:
    """AsymP-DGDA on Kuhn, μ = 0.01, default η."""
    return kuhn_asymp_dgda()
