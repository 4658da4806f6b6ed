"""Hand-made broken regret dynamics and Newton solvers: the games suites must reject each one.

Importable (``tests.games.mutants_regret:no_clipping``) so the CLI can target them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from reference._arrays import FloatArray
from reference.games import prm_plus_trajectory, recover, rm_plus_trajectory, ssn


def _uniform(k: int) -> FloatArray:
    return np.full(k, 1.0 / k)


def _normalize(v: FloatArray) -> FloatArray:
    total = float(v.sum())
    return v / total if total > 0 else _uniform(v.size)


def _normalize_by_max(v: FloatArray) -> FloatArray:
    top = float(v.max())
    return v / top if top > 0 else _uniform(v.size)


def _normalize_first(v: FloatArray) -> FloatArray:
    total = float(v.sum())
    if total > 0:
        return v / total
    out = np.zeros(v.size)
    out[0] = 1.0
    return out


def _simulate(
    payoff: Any,
    iterations: int,
    *,
    clip: bool = True,
    sign: float = 1.0,
    floor: float = 0.0,
    alternating: bool = False,
    normalize: Any = _normalize,
    discount: float = 1.0,
) -> dict[str, Any]:
    """RM+ with switchable defects (shared by the mutants below)."""
    a = np.asarray(payoff, dtype=np.float64)
    m, n = a.shape
    rx, ry = np.zeros(m), np.zeros(n)
    x, y = _uniform(m), _uniform(n)
    out: dict[str, list[FloatArray]] = {k: [] for k in ("xs", "ys", "rx", "ry", "sx", "sy")}
    for _ in range(iterations):
        if not alternating:
            x = normalize(np.maximum(rx, 0.0) + floor)
            y = normalize(np.maximum(ry, 0.0) + floor)
            loss, gain = a @ y, x @ a
            r_x = sign * (float(loss @ x) - loss)
            r_y = sign * (gain - float(gain @ y))
        else:
            loss = a @ y
            r_x = float(loss @ x) - loss
            rx = np.maximum(rx + r_x, 0.0)
            x = _normalize(rx)
            gain = x @ a
            r_y = gain - float(gain @ y)
            ry = np.maximum(ry + r_y, 0.0)
            y = _normalize(ry)
        if not alternating:
            rx = np.maximum(discount * rx + r_x, 0.0) if clip else rx + r_x
            ry = np.maximum(discount * ry + r_y, 0.0) if clip else ry + r_y
        for key, val in (("xs", x), ("ys", y), ("rx", r_x), ("ry", r_y), ("sx", rx), ("sy", ry)):
            out[key].append(val)
    xs, ys = np.array(out["xs"]), np.array(out["ys"])
    return {
        "xs": xs,
        "ys": ys,
        "regrets_x": np.array(out["rx"]),
        "regrets_y": np.array(out["ry"]),
        "states_x": np.array(out["sx"]),
        "states_y": np.array(out["sy"]),
        "x_bar": xs.mean(axis=0),
        "y_bar": ys.mean(axis=0),
    }


def no_clipping(payoff: Any, *, iterations: int) -> dict[str, Any]:
    """Mutant 1: plain regret matching state (``R <- R + r``, no clipping) labelled RM+."""
    return _simulate(payoff, iterations, clip=False)


def sign_flip(payoff: Any, *, iterations: int) -> dict[str, Any]:
    """Mutant 2: regrets with the wrong sign (``r = l - <l, x> 1``)."""
    return _simulate(payoff, iterations, sign=-1.0)


def epsilon_floor(payoff: Any, *, iterations: int) -> dict[str, Any]:
    """Mutant 3: strategies ``normalize(R + 1e-3)`` ("numerical safety" that breaks the rule)."""
    return _simulate(payoff, iterations, floor=1e-3)


def linear_average(payoff: Any, *, iterations: int) -> dict[str, Any]:
    """Mutant 4: reports linear averages where uniform ones are promised."""
    tr = prm_plus_trajectory(payoff, iterations=iterations)
    w = np.arange(1, iterations + 1, dtype=np.float64)
    return {
        "xs": tr.xs,
        "ys": tr.ys,
        "regrets_x": tr.regrets_x,
        "regrets_y": tr.regrets_y,
        "states_x": tr.states_x,
        "states_y": tr.states_y,
        "x_bar": w @ tr.xs / w.sum(),
        "y_bar": w @ tr.ys / w.sum(),
    }


def alternating(payoff: Any, *, iterations: int) -> dict[str, Any]:
    """Mutant 5: alternating play submitted as simultaneous play."""
    return _simulate(payoff, iterations, alternating=True)


def max_normalised(payoff: Any, *, iterations: int) -> dict[str, Any]:
    """Mutant 6: divides the state by its largest entry instead of its sum."""
    return _simulate(payoff, iterations, normalize=_normalize_by_max)


def first_action_on_zero(payoff: Any, *, iterations: int) -> dict[str, Any]:
    """Mutant 7: plays the first action (not uniform) when the state is zero."""
    return _simulate(payoff, iterations, normalize=_normalize_first)


def discounted(payoff: Any, *, iterations: int) -> dict[str, Any]:
    """Mutant 8: discounts the state (``R <- max(0.5 R + r, 0)``) while claiming RM+."""
    return _simulate(payoff, iterations, discount=0.5)


def rm_plus_reference(payoff: Any, *, iterations: int) -> Any:
    """Not a mutant: our RM+ (for the CLI tests of the suite)."""
    return rm_plus_trajectory(payoff, iterations=iterations)


# ------------------------------------------------------------------ Newton solver mutants
def ssn_returns_lifted_point(payoff: Any) -> tuple[FloatArray, FloatArray]:
    """SSN mutant 1: returns the lifted ``u`` instead of ``P(u)`` (forgets the recovery)."""
    a = np.asarray(payoff, dtype=np.float64)
    res = ssn(a, tol=1e-10)
    assert res.u is not None
    m = a.shape[0]
    return np.array(res.u[:m]), np.array(res.u[m:])


def ssn_wrong_lift_sign(payoff: Any) -> tuple[FloatArray, FloatArray]:
    """SSN mutant 2: the game of ``-A`` (``M`` with the wrong sign), i.e. the players' roles
    swapped inside the operator."""
    a = np.asarray(payoff, dtype=np.float64)
    res = ssn(-a, tol=1e-10)
    return np.array(res.x), np.array(res.y)


def ssn_too_few_steps(payoff: Any) -> tuple[FloatArray, FloatArray]:
    """SSN mutant 3: stops after two Newton steps whatever the gap."""
    a = np.asarray(payoff, dtype=np.float64)
    res = ssn(a, tol=1e-10, max_iter=2)
    assert res.u is not None
    return recover(a, res.u)
