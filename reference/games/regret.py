"""Regret matching plus (RM+) and predictive RM+ (PRM+) for zero-sum matrix games.

Notation map (spec 01, Algorithm 3 -> code): ``R`` (regret-like state) is
``state_x``/``state_y``; ``m`` (prediction) is the last instantaneous regret;
``l = A y`` is the row player's loss, ``g = Aᵀx`` the column player's gain;
``r = <l, x> 1 - l`` and ``r = g - <g, y> 1`` are the instantaneous regrets.

Every public name here is re-exported by :mod:`reference.games`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import FloatArray, readonly, require_int
from reference._repr import summary_repr
from reference.games.base import (
    EquilibriumResult,
    _gap,
    _max_iter,
    _payoff,
    _tol,
    _uniform,
)

__all__ = [
    "AVERAGING",
    "Averaging",
    "RegretTrajectory",
    "prm_plus",
    "prm_plus_trajectory",
    "regret_trajectory",
    "rm_plus",
    "rm_plus_trajectory",
]

Averaging = Literal["last", "uniform", "linear", "quadratic", "best"]
#: The accepted ``averaging`` values: the last iterate, weights ``1``, ``t``, ``t²``, or
#: ``"best"`` = whichever of the last iterate and the linear average has the smaller gap.
AVERAGING: tuple[str, ...] = ("last", "uniform", "linear", "quadratic", "best")


def _normalize(v: FloatArray) -> FloatArray:
    """``v / sum(v)`` if the sum is positive, else uniform (spec 01, Alg. 3)."""
    total = float(v.sum())
    if total > 0.0:
        out: FloatArray = v / total
        return out
    return _uniform(v.size)


class _RegretRunner:
    """Internal mutable RM+/PRM+ state; never escapes a public function.

    It keeps the states, predictions, current iterates and the weighted sums
    of the iterates and of their best-response vectors (so the gap of every
    average costs no extra mat-vec).
    """

    def __init__(self, payoff: FloatArray, *, predictive: bool, alternating: bool) -> None:
        m, n = payoff.shape
        self.payoff = payoff
        self.predictive = predictive
        self.alternating = alternating
        self.state_x = np.zeros(m)
        self.state_y = np.zeros(n)
        self.pred_x = np.zeros(m)
        self.pred_y = np.zeros(n)
        self.x = _uniform(m)
        self.y = _uniform(n)
        self.t = 0
        self.r_x = np.zeros(m)
        self.r_y = np.zeros(n)
        # alternating play needs l = A y^{t-1} at the start of iteration t
        self.loss_next: FloatArray = payoff @ self.y
        self.gain = np.zeros(n)  # Aᵀ x^t
        self.loss = np.zeros(m)  # A y^t
        # weighted sums: index 0 uniform, 1 linear, 2 quadratic
        self.weight = np.zeros(3)
        self.sum_x = np.zeros((3, m))
        self.sum_y = np.zeros((3, n))
        self.sum_gain = np.zeros((3, n))
        self.sum_loss = np.zeros((3, m))

    def _strategy(self, state: FloatArray, pred: FloatArray) -> FloatArray:
        if self.predictive:
            return _normalize(np.maximum(state + pred, 0.0))
        return _normalize(state)

    def step(self) -> None:
        """One iteration (simultaneous or alternating), spec 01 Algorithm 3."""
        a = self.payoff
        self.t += 1
        if not self.alternating:
            x = self._strategy(self.state_x, self.pred_x)  # Alg. 3: x^t from state
            y = self._strategy(self.state_y, self.pred_y)
            loss = a @ y  # l = A y^t
            gain = x @ a  # g = Aᵀ x^t
            r_x = float(loss @ x) - loss
            r_y = gain - float(gain @ y)
        else:
            loss_prev = self.loss_next  # l = A y^{t-1}
            r_x = float(loss_prev @ self.x) - loss_prev  # regret of x^{t-1}
            self.state_x = np.maximum(self.state_x + r_x, 0.0)
            if self.predictive:
                self.pred_x = r_x
            x = self._strategy(self.state_x, self.pred_x)  # new x^t
            gain = x @ a  # g = Aᵀ x^t
            r_y = gain - float(gain @ self.y)  # regret of y^{t-1}
            self.state_y = np.maximum(self.state_y + r_y, 0.0)
            if self.predictive:
                self.pred_y = r_y
            y = self._strategy(self.state_y, self.pred_y)  # new y^t
            loss = a @ y
            self.loss_next = loss
        if not self.alternating:
            self.state_x = np.maximum(self.state_x + r_x, 0.0)  # R <- max(R + r, 0)
            self.state_y = np.maximum(self.state_y + r_y, 0.0)
            if self.predictive:
                self.pred_x = r_x  # m <- r
                self.pred_y = r_y
        self.x, self.y, self.r_x, self.r_y = x, y, r_x, r_y
        self.gain, self.loss = gain, loss
        t = float(self.t)
        w = np.array([1.0, t, t * t])
        self.weight += w
        self.sum_x += w[:, None] * x
        self.sum_y += w[:, None] * y
        self.sum_gain += w[:, None] * gain
        self.sum_loss += w[:, None] * loss

    def last_gap(self) -> float:
        """Gap of the last iterate ``(x^t, y^t)`` from the stored products."""
        return float(np.max(self.gain) - np.min(self.loss))

    def average(self, index: int) -> tuple[FloatArray, FloatArray, float]:
        """Average ``index`` (0 uniform, 1 linear, 2 quadratic) and its incremental gap."""
        w = float(self.weight[index])
        x: FloatArray = self.sum_x[index] / w
        y: FloatArray = self.sum_y[index] / w
        gap = float(np.max(self.sum_gain[index]) - np.min(self.sum_loss[index])) / w
        return x, y, gap

    def candidate(self, averaging: str) -> tuple[FloatArray, FloatArray, float]:
        """The reported pair for ``averaging`` and its (incrementally computed) gap."""
        if averaging == "last":
            return self.x, self.y, self.last_gap()
        if averaging == "best":
            lin = self.average(1)
            last = (self.x, self.y, self.last_gap())
            return lin if lin[2] < last[2] else last
        return self.average({"uniform": 0, "linear": 1, "quadratic": 2}[averaging])


def _check_averaging(averaging: object) -> str:
    if not isinstance(averaging, str) or averaging not in AVERAGING:
        raise ValueError(f"averaging: expected one of {AVERAGING}, got {averaging!r}")
    return averaging


def _check_flag(name: str, value: object) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name}: expected a bool, got {type(value).__name__} {value!r}")
    return bool(value)


def _run_regret(
    payoff: FloatArray,
    *,
    tol: float,
    max_iter: int,
    predictive: bool,
    alternating: bool,
    averaging: str,
) -> EquilibriumResult:
    start = time.perf_counter()
    runner = _RegretRunner(payoff, predictive=predictive, alternating=alternating)
    history = [_gap(payoff, runner.x, runner.y)]
    x, y, gap = runner.x, runner.y, history[0]
    converged = gap <= tol
    while not converged and runner.t < max_iter:
        runner.step()
        x, y, gap = runner.candidate(averaging)
        if gap <= tol:  # confirm the incremental gap by a direct evaluation
            gap = _gap(payoff, x, y)
            converged = gap <= tol
        history.append(gap)
    gap = _gap(payoff, x, y)  # the returned pair's gap decides `converged`
    return EquilibriumResult(
        method="PRM+" if predictive else "RM+",
        x=readonly(np.array(x)),
        y=readonly(np.array(y)),
        gap=gap,
        converged=gap <= tol,
        stop_reason="tol" if gap <= tol else "max_iter",
        iterations=runner.t,
        first_order_iterations=runner.t,
        newton_iterations=0,
        gap_history=readonly(np.array(history)),
        residual_history=readonly(np.zeros(0)),
        wall_time=time.perf_counter() - start,
    )


def rm_plus(
    payoff: ArrayLike,
    *,
    tol: float = 1e-6,
    max_iter: int = 100_000,
    alternating: bool = False,
    averaging: Averaging = "uniform",
) -> EquilibriumResult:
    """Regret matching plus (RM+) self-play until the duality gap is at most ``tol``.

    Each player keeps ``R ∈ R^k_{>=0}`` (``R = 0`` at the start), plays
    ``normalize(R)`` (uniform when ``R = 0``) and updates ``R <- max(R + r, 0)``
    with the instantaneous regret ``r = <l, x> 1 - l`` (row player, loss
    ``l = Ay``) or ``r = g - <g, y> 1`` (column player, gain ``g = Aᵀx``).

    Args:
        payoff: ``(m, n)`` finite matrix ``A``; the row player minimises ``xᵀAy``.
        tol: target duality gap (absolute, payoff units), ``> 0``.
        max_iter: iteration cap ``>= 1``; the loop never runs past it.
        alternating: alternating updates (x first, then y against the new x) instead of
            simultaneous ones.
        averaging: reported pair: ``"last"``, ``"uniform"``, ``"linear"``,
            ``"quadratic"`` averages, or ``"best"`` (smaller gap of last / linear).

    Returns:
        An :class:`~reference.games.base.EquilibriumResult` (``method="RM+"``);
        ``converged`` iff the returned pair's gap is ``<= tol``, ``stop_reason`` is
        ``"tol"`` or ``"max_iter"``.

    Raises:
        TypeError: non-numeric payoff or non-bool ``alternating``.
        ValueError: payoff not 2-D, empty or non-finite; ``tol <= 0``; ``max_iter < 1``;
            unknown ``averaging``.

    Example:
        >>> res = rm_plus([[1.0, -1.0], [-1.0, 1.0]], tol=1e-8)
        >>> res.converged, [round(float(v), 6) for v in res.x]
        (True, [0.5, 0.5])

    References:
        O. Tammelin, "Solving large imperfect information games using CFR+", arXiv:1407.5042
        (2014); spec 01 (Yang, Gao, Lin, Kroer, arXiv:2512.12910), Algorithm 3 [standard].

    Variant:
        Uniform averaging by default (the classical RM+ guarantee is for the average);
        all averaging schemes and alternation are behind flags.
    """
    matrix = _payoff(payoff)
    return _run_regret(
        matrix,
        tol=_tol("tol", tol),
        max_iter=_max_iter(max_iter),
        predictive=False,
        alternating=_check_flag("alternating", alternating),
        averaging=_check_averaging(averaging),
    )


def prm_plus(
    payoff: ArrayLike,
    *,
    tol: float = 1e-6,
    max_iter: int = 100_000,
    alternating: bool = False,
    averaging: Averaging = "linear",
) -> EquilibriumResult:
    """Predictive regret matching plus (PRM+) self-play until the gap is at most ``tol``.

    As :func:`rm_plus`, but each player plays ``normalize(max(R + m, 0))`` where
    the prediction ``m`` is the last observed instantaneous regret (``m = 0`` at
    the start), and sets ``m <- r`` after each update.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``; the row player minimises ``xᵀAy``.
        tol: target duality gap (absolute, payoff units), ``> 0``.
        max_iter: iteration cap ``>= 1``.
        alternating: alternating instead of simultaneous updates.
        averaging: ``"last"`` (the paper's "PCFR" baseline), ``"uniform"``, ``"linear"``
            (default), ``"quadratic"`` or ``"best"``.

    Returns:
        An :class:`~reference.games.base.EquilibriumResult` (``method="PRM+"``);
        ``converged`` iff the returned pair's gap is ``<= tol``, ``stop_reason`` is
        ``"tol"`` or ``"max_iter"``.

    Raises:
        TypeError: non-numeric payoff or non-bool ``alternating``.
        ValueError: bad payoff, ``tol <= 0``, ``max_iter < 1`` or unknown ``averaging``.

    Example:
        >>> res = prm_plus([[3.0, -1.0], [-2.0, 1.0]], tol=1e-4)
        >>> res.converged, [round(float(v), 3) for v in res.x]
        (True, [0.429, 0.571])

    References:
        G. Farina, C. Kroer, T. Sandholm, "Faster game solving via predictive Blackwell
        approachability: connecting regret matching and mirror descent", AAAI 2021;
        spec 01 Algorithm 3 (prediction = previous instantaneous regret).

    Variant:
        The paper's baseline is simultaneous PRM+ with the last iterate [paper, per
        reviewers]; our default reports the linear average (spec 01, our default).
    """
    matrix = _payoff(payoff)
    return _run_regret(
        matrix,
        tol=_tol("tol", tol),
        max_iter=_max_iter(max_iter),
        predictive=True,
        alternating=_check_flag("alternating", alternating),
        averaging=_check_averaging(averaging),
    )


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class RegretTrajectory:
    """Every iterate of an RM+/PRM+ run (all arrays read-only float64).

    Attributes:
        xs: ``(T, m)`` strategies ``x^1..x^T``.
        ys: ``(T, n)`` strategies ``y^1..y^T``.
        regrets_x: ``(T, m)`` instantaneous regrets the row player observed at each step.
        regrets_y: ``(T, n)`` instantaneous regrets of the column player.
        states_x: ``(T, m)`` clipped states ``R_x`` after each update (``>= 0``).
        states_y: ``(T, n)`` clipped states ``R_y`` after each update.
        x_bar: ``(m,)`` uniform average of ``xs``.
        y_bar: ``(n,)`` uniform average of ``ys``.
        predictive: PRM+ (``True``) or RM+.
        alternating: alternating (``True``) or simultaneous play.
    """

    xs: FloatArray
    ys: FloatArray
    regrets_x: FloatArray
    regrets_y: FloatArray
    states_x: FloatArray
    states_y: FloatArray
    x_bar: FloatArray
    y_bar: FloatArray
    predictive: bool
    alternating: bool


def regret_trajectory(
    payoff: ArrayLike, *, iterations: int, predictive: bool = True, alternating: bool = False
) -> RegretTrajectory:
    """Run RM+/PRM+ for exactly ``iterations`` steps and return every iterate and state.

    The same dynamics as :func:`rm_plus` / :func:`prm_plus` (spec 01 Algorithm 3),
    without a stopping test; used by the ``games.regret`` suite and by the torch
    fast path's trajectory cross-check.

    Args:
        payoff: ``(m, n)`` finite matrix ``A``.
        iterations: number of steps ``T >= 1``.
        predictive: PRM+ (default) or RM+.
        alternating: alternating instead of simultaneous play.

    Returns:
        A :class:`RegretTrajectory`.

    Raises:
        TypeError: non-numeric payoff, non-integer ``iterations`` or non-bool flags.
        ValueError: bad payoff or ``iterations < 1``.

    Example:
        >>> tr = regret_trajectory([[1.0, -1.0], [-1.0, 1.0]], iterations=3)
        >>> tr.xs.shape, bool((tr.states_x >= 0).all())
        ((3, 2), True)
    """
    matrix = _payoff(payoff)
    steps = require_int("iterations", iterations, minimum=1)
    runner = _RegretRunner(
        matrix,
        predictive=_check_flag("predictive", predictive),
        alternating=_check_flag("alternating", alternating),
    )
    m, n = matrix.shape
    out = {k: np.zeros((steps, m)) for k in ("xs", "regrets_x", "states_x")}
    out.update({k: np.zeros((steps, n)) for k in ("ys", "regrets_y", "states_y")})
    for t in range(steps):
        runner.step()
        out["xs"][t], out["ys"][t] = runner.x, runner.y
        out["regrets_x"][t], out["regrets_y"][t] = runner.r_x, runner.r_y
        out["states_x"][t], out["states_y"][t] = runner.state_x, runner.state_y
    return RegretTrajectory(
        **{k: readonly(v) for k, v in out.items()},
        x_bar=readonly(out["xs"].mean(axis=0)),
        y_bar=readonly(out["ys"].mean(axis=0)),
        predictive=runner.predictive,
        alternating=runner.alternating,
    )


def rm_plus_trajectory(payoff: ArrayLike, *, iterations: int) -> RegretTrajectory:
    """Simultaneous RM+ for ``iterations`` steps (:func:`regret_trajectory` with RM+).

    Raises:
        TypeError: non-numeric payoff or non-integer ``iterations``.
        ValueError: bad payoff or ``iterations < 1``.
    """
    return regret_trajectory(payoff, iterations=iterations, predictive=False)


def prm_plus_trajectory(payoff: ArrayLike, *, iterations: int) -> RegretTrajectory:
    """Simultaneous PRM+ for ``iterations`` steps (:func:`regret_trajectory` with PRM+).

    Raises:
        TypeError: non-numeric payoff or non-integer ``iterations``.
        ValueError: bad payoff or ``iterations < 1``.
    """
    return regret_trajectory(payoff, iterations=iterations, predictive=True)
