"""The fixed-step methods replay their update rules from spec 19, variant by variant.

Each method is rerun here from its update rule (spec 19 §3.1, §3.2, §3.5 and the official
runner's order of §8), with our own simplex projection and gaps: the returned pair, the
NashConv history, and the stopping rule (the run ends at the first ``t`` whose stopping
quantity is ``<= tol``).  Several games, random starts, a step below the default.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from reference import perturbation as pert

Vec = np.ndarray[Any, np.dtype[np.float64]]
RNG = np.random.default_rng(19)
GAMES = [
    np.array(pert.biased_rps()),
    RNG.uniform(-1.0, 1.0, (3, 5)),
    RNG.uniform(-2.0, 2.0, (6, 4)),
]
MU = 0.6
STEPS = 40


def _proj(v: Vec) -> Vec:
    """Euclidean projection onto the simplex (sort and threshold)."""
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - 1.0
    k = np.nonzero(u - css / np.arange(1, v.size + 1) > 0)[0][-1]
    out: Vec = np.maximum(v - css[k] / (k + 1), 0.0)
    return out


def _nash(a: Vec, x: Vec, y: Vec) -> float:
    return float(np.max(x @ a) - np.min(a @ y))


def _pgap(a: Vec, x: Vec, y: Vec, mu: float) -> float:
    """Gap of the game with ``x`` perturbed by ``(μ/2)||x||²`` (x minimises ``xᵀAy``)."""
    best = _proj(-(a @ y) / mu)
    inner = float(best @ a @ y) + 0.5 * mu * float(best @ best)
    return float(np.max(x @ a)) + 0.5 * mu * float(x @ x) - inner


def _sym_gap(a: Vec, x: Vec, y: Vec, mu: float) -> float:
    """Gap of ``xᵀAy + (μ/2)||x||² - (μ/2)||y||²``."""
    bx, by = _proj(-(a @ y) / mu), _proj((a.T @ x) / mu)
    upper = float(x @ a @ by) - 0.5 * mu * float(by @ by) + 0.5 * mu * float(x @ x)
    lower = float(bx @ a @ y) + 0.5 * mu * float(bx @ bx) - 0.5 * mu * float(y @ y)
    return upper - lower


Replay = Callable[[Vec, Vec, Vec, float, int], tuple[list[tuple[Vec, Vec]], list[float]]]


def _side(side: str, order: str) -> Replay:
    def replay(a: Vec, x: Vec, y: Vec, eta: float, steps: int) -> Any:
        pairs, stops = [], []
        for t in range(steps + 1):
            if t:
                if side == "x":  # §3.1
                    x = _proj(x - eta * (a @ y + MU * x))
                    y = _proj(y + eta * (a.T @ x))
                elif order == "official":  # §8: plain x first, then the perturbed y
                    x = _proj(x - eta * (a @ y))
                    y = _proj(y + eta * (a.T @ x - MU * y))
                else:  # §3.2: the perturbed y first
                    y = _proj(y + eta * (a.T @ x - MU * y))
                    x = _proj(x - eta * (a @ y))
            pairs.append((x, y))
            stops.append(_pgap(a, x, y, MU) if side == "x" else _pgap(-a.T, y, x, MU))
        return pairs, stops

    return replay


def _both(order: str) -> Replay:
    x_run, y_run = _side("x", order), _side("y", order)

    def replay(a: Vec, x: Vec, y: Vec, eta: float, steps: int) -> Any:
        (pa, sa), (pb, sb) = x_run(a, x, y, eta, steps), y_run(a, x, y, eta, steps)  # §3.3
        return [(p[0], q[1]) for p, q in zip(pa, pb, strict=True)], np.maximum(sa, sb).tolist()

    return replay


def _symp(a: Vec, x: Vec, y: Vec, eta: float, steps: int) -> Any:
    pairs, stops = [(x, y)], [_sym_gap(a, x, y, MU)]
    for _ in range(steps):  # §3.5, alternating as §8
        x = _proj(x - eta * (a @ y + MU * x))
        y = _proj(y + eta * (a.T @ x - MU * y))
        pairs.append((x, y))
        stops.append(_sym_gap(a, x, y, MU))
    return pairs, stops


def _gda(a: Vec, x: Vec, y: Vec, eta: float, steps: int) -> Any:
    pairs = [(x, y)]
    for _ in range(steps):  # §3.5: §3.1 with μ = 0
        x = _proj(x - eta * (a @ y))
        y = _proj(y + eta * (a.T @ x))
        pairs.append((x, y))
    return pairs, [_nash(a, *p) for p in pairs]


def _ogda(form: str) -> Replay:
    def replay(a: Vec, x: Vec, y: Vec, eta: float, steps: int) -> Any:
        pairs, xh, yh = [(x, y)], x, y
        gx_prev, gy_prev = a @ y, a.T @ x
        for _ in range(steps):
            if form == "official":  # §8: two sequences per player, alternating
                xh = _proj(xh - eta * (a @ y))
                x = _proj(xh - eta * (a @ y))
                yh = _proj(yh + eta * (a.T @ x))
                y = _proj(yh + eta * (a.T @ x))
            else:  # §3.5: 2g^t - g^{t-1}, simultaneous
                gx, gy = a @ y, a.T @ x
                x = _proj(x - eta * (2.0 * gx - gx_prev))
                y = _proj(y + eta * (2.0 * gy - gy_prev))
                gx_prev, gy_prev = gx, gy
            pairs.append((x, y))
        return pairs, [_nash(a, *p) for p in pairs]

    return replay


def _omwu(a: Vec, x: Vec, y: Vec, eta: float, steps: int) -> Any:
    pairs = [(x, y)]
    gx_prev, gy_prev = a @ y, a.T @ x
    for _ in range(steps):
        gx, gy = a @ y, a.T @ x
        x = x * np.exp(-eta * (2.0 * gx - gx_prev))
        y = y * np.exp(eta * (2.0 * gy - gy_prev))
        x, y = x / x.sum(), y / y.sum()
        gx_prev, gy_prev = gx, gy
        pairs.append((x, y))
    return pairs, [_nash(a, *p) for p in pairs]


CASES: list[tuple[str, dict[str, Any], Replay]] = [
    ("asymp_gda_side", {"mu": MU, "side": "x"}, _side("x", "official")),
    ("asymp_gda_side", {"mu": MU, "side": "y"}, _side("y", "official")),
    ("asymp_gda_side", {"mu": MU, "side": "y", "variant": "y_first"}, _side("y", "y_first")),
    ("asymp_gda", {"mu": MU}, _both("official")),
    ("asymp_gda", {"mu": MU, "variant": "y_first"}, _both("y_first")),
    ("symp_gda", {"mu": MU}, _symp),
    ("gda", {}, _gda),
    ("ogda", {}, _ogda("official")),
    ("ogda", {"variant": "simultaneous"}, _ogda("simultaneous")),
    ("omwu", {}, _omwu),
]
IDS = [
    f"{name}-{'-'.join(str(v) for k, v in kw.items() if k != 'mu') or 'default'}"
    for name, kw, _ in CASES
]


def _setup(game: int) -> tuple[Vec, Vec, Vec, float]:
    a = GAMES[game]
    rng = np.random.default_rng(game)
    x0, y0 = rng.dirichlet(np.ones(a.shape[0])), rng.dirichlet(np.ones(a.shape[1]))
    return a, x0, y0, 0.7 / (MU + float(np.linalg.norm(a, 2)))


@pytest.mark.parametrize("game", range(len(GAMES)))
@pytest.mark.parametrize(("name", "kwargs", "replay"), CASES, ids=IDS)
def test_fixed_length_run_is_the_recursion(
    game: int, name: str, kwargs: dict[str, Any], replay: Replay
) -> None:
    a, x0, y0, eta = _setup(game)
    pairs, _ = replay(a, x0, y0, eta, STEPS)
    r = getattr(pert, name)(a, step_size=eta, max_iter=STEPS, tol=None, x0=x0, y0=y0, **kwargs)
    assert r.iterations == STEPS
    assert r.step_size == eta
    np.testing.assert_allclose(r.x, pairs[-1][0], atol=1e-12)
    np.testing.assert_allclose(r.y, pairs[-1][1], atol=1e-12)
    np.testing.assert_allclose(r.history, [_nash(a, *p) for p in pairs], atol=1e-12)


@pytest.mark.parametrize("game", range(len(GAMES)))
@pytest.mark.parametrize(("name", "kwargs", "replay"), CASES, ids=IDS)
def test_run_stops_at_the_first_step_within_tol(
    game: int, name: str, kwargs: dict[str, Any], replay: Replay
) -> None:
    a, x0, y0, eta = _setup(game)
    _, stops = replay(a, x0, y0, eta, STEPS)
    tol = stops[12] * (1.0 + 1e-9)
    first = next(t for t, q in enumerate(stops) if q <= tol)
    r = getattr(pert, name)(a, step_size=eta, max_iter=STEPS, tol=tol, x0=x0, y0=y0, **kwargs)
    assert (r.iterations, r.converged, r.stop_reason) == (first, True, "tol")
    np.testing.assert_allclose(r.stopping_history, stops[: first + 1], atol=1e-12)
