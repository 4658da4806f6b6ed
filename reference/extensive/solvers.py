"""Two-player zero-sum extensive-form games in sequence form, and AsymP-DGDA.

A game is built from its rules as a tree of :class:`Terminal`, :class:`Chance` and
:class:`Decision` nodes (:func:`game_from_tree`); Kuhn poker (:func:`kuhn_poker`) and Leduc
poker (:func:`leduc_poker`) are constructed here, nothing is downloaded.  The builder turns
the tree into the sequence form (Koller, Megiddo, von Stengel 1996; spec 19 §3.6):

* for each player a *treeplex* (:class:`Treeplex`): the empty sequence (index 0) plus one
  sequence per (information set ``j``, action ``a``); ``p_j`` is the parent sequence of ``j``;
* realization plans ``X = {x >= 0 : x_∅ = 1, Σ_a x_(j,a) = x_{p_j}}`` (``E x = e``), same for Y;
* the payoff matrix ``A[s1, s2] = -Σ_z chance(z)·u_1(z)`` over the terminal nodes ``z``
  reached by ``(s1, s2)``: player 1 (``x``) *minimises* ``xᵀAy``, and the game value from
  player 1's view is ``-min_x max_y xᵀAy``.

Algorithms (spec 19 §3.6): the sequence-form LP (:func:`solve_lp`), NashConv by best response
on the tree (:func:`nash_conv`), the dilated Euclidean regulariser and its exact prox
(:func:`dilated_prox`), AsymP-DGDA (:func:`asymp_dgda`) and the baselines :func:`dgda`,
:func:`symp_dgda`, :func:`dogda`, :func:`dmwu` (and DOMWU via ``optimistic=True``).

Layout: trees, the builder and poker live in :mod:`reference.extensive.tree`; plans, best
responses, NashConv and the LP in :mod:`reference.extensive.plans`; the dilated regulariser and
its prox in :mod:`reference.extensive.dilated`; the dynamics here.  Every public name is
re-exported by this module, which is the documented import path.

References:
    K. Abe, M. Sakamoto, K. Ariu, A. Iwasaki, "Asymmetric Perturbation in Solving Bilinear
    Saddle-Point Optimization", ICML 2026, arXiv:2506.05747, Section 5 (extensive-form games).
    D. Koller, N. Megiddo, B. von Stengel, "Efficient computation of equilibria for extensive
    two-person games", Games and Economic Behavior 14 (1996).
    S. Hoda, A. Gilpin, J. Peña, T. Sandholm, "Smoothing techniques for computing Nash
    equilibria of sequential games", Math. of OR 35 (2010) (dilated regularisers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from reference._arrays import (
    FloatArray,
    describe,
    readonly,
    require_int,
    require_positive,
)
from reference._repr import summary_repr
from reference.extensive.dilated import (
    Local,
    _entropy_local,
    _euclid_local,
    _grad_psi,
    _prox,
)
from reference.extensive.plans import (
    _nash_conv,
    _require_game,
    _to_plan,
    uniform_behavioural,
)
from reference.extensive.tree import (
    SequenceFormGame,
    Treeplex,
)

__all__ = [
    "EFGResult",
    "asymp_dgda",
    "dgda",
    "dmwu",
    "dogda",
    "symp_dgda",
]


# ------------------------------------------------------------------------------ dynamics
@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class EFGResult:
    """Last iterate and NashConv history of a sequence-form dynamics run.

    Attributes:
        x: ``(n1,)`` read-only realization plan of player 1 (last iterate).
        y: ``(n2,)`` read-only realization plan of player 2 (last iterate).
        nash_conv: NashConv of ``(x, y)`` (the stopping quantity).
        iterations: iterations performed (each updates every run's two players once).
        converged: exactly ``nash_conv <= tol`` (absolute) for the returned ``(x, y)``
            (``False`` when ``tol`` is None).
        stop_reason: ``"tol"`` (iff ``converged``) or ``"max_iter"``.
        history: ``(iterations + 1,)`` read-only NashConv per iteration.
        mu: perturbation strength (0 for unperturbed methods).
        step_size: step size.
    """

    x: FloatArray
    y: FloatArray
    nash_conv: float
    iterations: int
    converged: bool
    stop_reason: str
    history: FloatArray
    mu: float
    step_size: float


Variant = Literal["explicit", "implicit", "official"]


def _default_step_size(game: SequenceFormGame, step_size: float | None) -> float:
    if step_size is None:
        norm = float(np.linalg.norm(game.payoff, 2))
        return 1.0 / norm if norm > 0.0 else 1.0
    return require_positive("step_size", step_size)


def _setup(
    game: object, max_iter: object, tol: object | None
) -> tuple[SequenceFormGame, int, float]:
    g = _require_game(game)
    iters = require_int("max_iter", max_iter, minimum=0)
    tolerance = -math.inf if tol is None else require_positive("tol", tol)
    return g, iters, tolerance


def _result(
    g: SequenceFormGame,
    x: FloatArray,
    y: FloatArray,
    history: list[float],
    tolerance: float,
    mu: float,
    step_size: float,
) -> EFGResult:
    value = history[-1]
    return EFGResult(
        x=readonly(x.copy()),
        y=readonly(y.copy()),
        nash_conv=value,
        iterations=len(history) - 1,
        converged=value <= tolerance,
        stop_reason="tol" if value <= tolerance else "max_iter",
        history=readonly(np.array(history, dtype=np.float64)),
        mu=mu,
        step_size=step_size,
    )


class _Side:
    """State of one alternating perturbed run: the perturbed player minimises ``pᵀ M q``."""

    def __init__(self, m: FloatArray, space_p: Treeplex, space_q: Treeplex) -> None:
        self.m = m
        self.space_p = space_p
        self.space_q = space_q
        self.bp = uniform_behavioural(space_p)
        self.bq = uniform_behavioural(space_q)
        self.p = _to_plan(space_p, self.bp)
        self.q = _to_plan(space_q, self.bq)

    def step(self, mu_p: float, mu_q: float, step_size: float, variant: Variant) -> None:
        euclid = _euclid_local(0.0)
        grad = self.m @ self.q
        if variant == "official":  # per information set: g_j - μ û_j (official code)
            self.bp = _prox(self.space_p, step_size * (grad + mu_p * self.bp), self.bp, euclid)
            self.p = _to_plan(self.space_p, self.bp)
            grad_q = self.m.T @ self.p - mu_q * self.bq
            self.bq = _prox(self.space_q, -step_size * grad_q, self.bq, euclid)
            self.q = _to_plan(self.space_q, self.bq)
            return
        if variant == "implicit" and mu_p > 0.0:
            self.bp = _prox(
                self.space_p, step_size * grad, self.bp, _euclid_local(step_size * mu_p)
            )
        else:
            if mu_p > 0.0:
                grad = grad + mu_p * _grad_psi(self.space_p, self.bp)
            self.bp = _prox(self.space_p, step_size * grad, self.bp, euclid)
        self.p = _to_plan(self.space_p, self.bp)
        grad_q = self.m.T @ self.p  # the other player maximises pᵀMq
        if mu_q > 0.0:
            grad_q = grad_q - mu_q * _grad_psi(self.space_q, self.bq)
        self.bq = _prox(self.space_q, -step_size * grad_q, self.bq, euclid)
        self.q = _to_plan(self.space_q, self.bq)


def _check_variant(variant: object) -> Variant:
    if variant == "explicit":
        return "explicit"
    if variant == "implicit":
        return "implicit"
    if variant == "official":
        return "official"
    raise ValueError(f"variant: expected 'explicit', 'implicit' or 'official', got {variant!r}")


def asymp_dgda(
    game: SequenceFormGame,
    *,
    mu: float,
    step_size: float | None = None,
    max_iter: int = 10_000,
    tol: float | None = 1e-12,
    variant: Variant = "explicit",
) -> EFGResult:
    """AsymP-DGDA: asymmetrically perturbed dilated GDA, x from the x run, y from the y run.

    x-side run, explicit form (our default, the analogue of spec 19 §3.1)::

        x^{t+1} = prox_X(c = η(A y^t + μ ∇ψ(x^t)), κ = 0)
        y^{t+1} = prox_Y(c = -η Aᵀ x^{t+1}, κ = 0)

    (``variant="implicit"``: ``x^{t+1} = prox_X(c = ηAy^t, κ = ημ)``, same fixed points).  The
    y-side run mirrors it (``y`` perturbed, y first), as the x run on ``-Aᵀ`` with the
    treeplexes swapped.  ``variant="official"`` follows the authors' code [official code,
    spec 19 §8]: per information set ``j`` the perturbed player's counterfactual gradient is
    ``g_j - μ b̂_j`` (``b̂_j`` its current behavioural strategy at ``j``, not the dilated
    ``∇ψ``), ``b_j = Π_Δ(b̂_j + η(g_j - μ b̂_j))``, the value passed up
    ``<g_j - μb̂_j, b_j> - ||b_j - b̂_j||²/(2η)`` (this is :func:`dilated_prox` with
    ``c = η(Ay + μb̂)``); and both runs update x first (the y run: plain x, then perturbed y).  Both start from the uniform behavioural strategies; the output is
    ``(x from the x run, y from the y run)`` [paper, Section 5].  ``prox`` is
    :func:`dilated_prox`, ``ψ`` :func:`dilated_regulariser`.  The stopping quantity is
    NashConv of the output pair.  Symbol map: ``μ`` is ``mu``, ``η`` is ``step_size`` (default
    ``1/||A||_2``, our default).  No global convergence proof exists for the dilated
    regulariser [paper]; on Kuhn poker μ = 0.01 reaches NashConv ~1e-14 (spec 19 §3.6).

    Args:
        game: a :class:`SequenceFormGame`.
        mu: perturbation strength ``μ > 0``.
        step_size: step size ``η > 0`` or ``None``.
        max_iter: iteration cap (``>= 0``).
        tol: NashConv tolerance (``> 0``, absolute, payoff units) or ``None`` to run ``max_iter`` iterations.
        variant: ``"explicit"``, ``"implicit"`` or ``"official"`` perturbation step.

    Returns:
        An :class:`EFGResult`.

    Raises:
        TypeError: ``game`` is not a SequenceFormGame; non-numeric parameters.
        ValueError: ``mu <= 0``, ``step_size <= 0``, ``tol <= 0``, ``max_iter < 0``, unknown variant.

    Example:
        >>> from reference.extensive import asymp_dgda, kuhn_poker
        >>> r = asymp_dgda(kuhn_poker(), mu=0.01, max_iter=6000, tol=1e-10)
        >>> r.converged
        True

    References:
        Abe et al., ICML 2026, arXiv:2506.05747, Section 5 (AsymP-DGDA).

    Variant:
        Explicit perturbation gradient by default (our reconstruction, spec 19 §3.6); dilated
        weights 1 and anchor 0.  ``"official"`` is the authors' per-information-set update
        and order (spec 19 §8), used by ``benchmarks/perturbation_paper.py`` with the paper's
        Table 4 settings.
    """
    g, iters, tolerance = _setup(game, max_iter, tol)
    m = require_positive("mu", mu)
    step = _default_step_size(g, step_size)
    form = _check_variant(variant)
    a = np.asarray(g.payoff)
    xs = _Side(a, g.x_space, g.y_space)
    if form == "official":  # x first in both runs: the y run perturbs its second player
        ys = _Side(a, g.x_space, g.y_space)
        history = [_nash_conv(g, xs.p, ys.q)]
        while history[-1] > tolerance and len(history) <= iters:
            xs.step(m, 0.0, step, form)
            ys.step(0.0, m, step, form)
            history.append(_nash_conv(g, xs.p, ys.q))
        return _result(g, xs.p, ys.q, history, tolerance, m, step)
    ys = _Side(-a.T, g.y_space, g.x_space)
    history = [_nash_conv(g, xs.p, ys.p)]
    while history[-1] > tolerance and len(history) <= iters:
        xs.step(m, 0.0, step, form)
        ys.step(m, 0.0, step, form)
        history.append(_nash_conv(g, xs.p, ys.p))
    return _result(g, xs.p, ys.p, history, tolerance, m, step)


def symp_dgda(
    game: SequenceFormGame,
    *,
    mu: float,
    step_size: float | None = None,
    max_iter: int = 10_000,
    tol: float | None = 1e-12,
    variant: Variant = "explicit",
) -> EFGResult:
    """SymP-DGDA baseline: both players perturbed by ``μψ``, alternating (spec 19 §3.6).

    ``x^{t+1} = prox_X(η(Ay^t + μ∇ψ(x^t)))``, ``y^{t+1} = prox_Y(-η(Aᵀx^{t+1} - μ∇ψ(y^t)))``.
    It converges to a shifted point in general.  ``variant="official"``: the authors'
    per-information-set perturbation ``g_j - μb̂_j`` for both players (spec 19 §8, see
    :func:`asymp_dgda`); ``"explicit"``/``"implicit"`` perturb by ``μ∇ψ`` (our
    reconstruction; both use the explicit gradient for y).

    Args:
        game: a :class:`SequenceFormGame`.
        mu: perturbation strength ``μ > 0``.
        step_size: step size ``η > 0`` or ``None`` (``1/||A||_2``).
        max_iter: iteration cap.
        tol: NashConv tolerance (``> 0``, absolute, payoff units) or ``None``.
        variant: ``"explicit"`` (default), ``"implicit"`` or ``"official"``.

    Returns:
        An :class:`EFGResult`.

    Raises:
        TypeError: bad kinds.
        ValueError: ``mu <= 0``, ``step_size <= 0``, ``tol <= 0``, ``max_iter < 0``, unknown variant.
    """
    g, iters, tolerance = _setup(game, max_iter, tol)
    m = require_positive("mu", mu)
    step = _default_step_size(g, step_size)
    form = _check_variant(variant)
    run = _Side(np.asarray(g.payoff), g.x_space, g.y_space)
    history = [_nash_conv(g, run.p, run.q)]
    while history[-1] > tolerance and len(history) <= iters:
        run.step(m, m, step, form)
        history.append(_nash_conv(g, run.p, run.q))
    return _result(g, run.p, run.q, history, tolerance, m, step)


def dgda(
    game: SequenceFormGame,
    *,
    step_size: float | None = None,
    max_iter: int = 10_000,
    tol: float | None = 1e-12,
) -> EFGResult:
    """Alternating dilated GDA (AsymP-DGDA with ``μ = 0``), a baseline whose last iterate
    does not converge in general (spec 19 §3.6).

    ``x^{t+1} = prox_X(c = ηAy^t)``, ``y^{t+1} = prox_Y(c = -ηAᵀx^{t+1})``.

    Args:
        game: a :class:`SequenceFormGame`.
        step_size: step size ``η > 0`` or ``None`` (``1/||A||_2``).
        max_iter: iteration cap.
        tol: NashConv tolerance (``> 0``, absolute, payoff units) or ``None``.

    Returns:
        An :class:`EFGResult` with ``mu = 0``.

    Raises:
        TypeError: bad kinds.
        ValueError: ``step_size <= 0``, ``tol <= 0``, ``max_iter < 0``.
    """
    g, iters, tolerance = _setup(game, max_iter, tol)
    step = _default_step_size(g, step_size)
    run = _Side(np.asarray(g.payoff), g.x_space, g.y_space)
    history = [_nash_conv(g, run.p, run.q)]
    while history[-1] > tolerance and len(history) <= iters:
        run.step(0.0, 0.0, step, "explicit")
        history.append(_nash_conv(g, run.p, run.q))
    return _result(g, run.p, run.q, history, tolerance, 0.0, step)


def _optimistic(
    game: object,
    step_size: float | None,
    max_iter: object,
    tol: object | None,
    local: Local,
    optimistic: bool,
) -> EFGResult:
    g, iters, tolerance = _setup(game, max_iter, tol)
    step = _default_step_size(g, step_size)
    a = np.asarray(g.payoff)
    bx = uniform_behavioural(g.x_space)
    by = uniform_behavioural(g.y_space)
    x = _to_plan(g.x_space, bx)
    y = _to_plan(g.y_space, by)
    gx_prev, gy_prev = a @ y, a.T @ x
    history = [_nash_conv(g, x, y)]
    while history[-1] > tolerance and len(history) <= iters:
        gx, gy = a @ y, a.T @ x
        cx = 2.0 * gx - gx_prev if optimistic else gx
        cy = 2.0 * gy - gy_prev if optimistic else gy
        bx = _prox(g.x_space, step * cx, bx, local)  # simultaneous updates
        by = _prox(g.y_space, -step * cy, by, local)
        x, y = _to_plan(g.x_space, bx), _to_plan(g.y_space, by)
        gx_prev, gy_prev = gx, gy
        history.append(_nash_conv(g, x, y))
    return _result(g, x, y, history, tolerance, 0.0, step)


def dogda(
    game: SequenceFormGame,
    *,
    step_size: float | None = None,
    max_iter: int = 10_000,
    tol: float | None = 1e-12,
) -> EFGResult:
    """Dilated optimistic GDA (simultaneous, gradient ``2g^t - g^{t-1}``), a baseline.

    (our default form, spec 19 §3.6; Lee, Kroer, Luo 2021 analyse DOGDA.)

    Args:
        game: a :class:`SequenceFormGame`.
        step_size: step size ``η > 0`` or ``None`` (``1/||A||_2``).
        max_iter: iteration cap.
        tol: NashConv tolerance (``> 0``, absolute, payoff units) or ``None``.

    Returns:
        An :class:`EFGResult`.

    Raises:
        TypeError: bad kinds.
        ValueError: ``step_size <= 0``, ``tol <= 0``, ``max_iter < 0``.

    References:
        C.-W. Lee, C. Kroer, H. Luo, "Last-iterate convergence in extensive-form games",
        NeurIPS 2021.
    """
    return _optimistic(game, step_size, max_iter, tol, _euclid_local(0.0), True)


def dmwu(
    game: SequenceFormGame,
    *,
    step_size: float | None = None,
    max_iter: int = 10_000,
    tol: float | None = 1e-12,
    optimistic: bool = False,
) -> EFGResult:
    """Dilated multiplicative weights (dilated entropy), simultaneous; DOMWU if ``optimistic``.

    Local step ``b_j ∝ b̂_j exp(-ĉ_j)`` with value ``V_j = -log Σ_a b̂_j[a] exp(-ĉ_j[a])``
    (spec 19 §3.6; weights 1, our default); the optimistic variant uses ``2g^t - g^{t-1}``.

    Args:
        game: a :class:`SequenceFormGame`.
        step_size: step size ``η > 0`` or ``None`` (``1/||A||_2``).
        max_iter: iteration cap.
        tol: NashConv tolerance (``> 0``, absolute, payoff units) or ``None``.
        optimistic: DOMWU instead of DMWU.

    Returns:
        An :class:`EFGResult`.

    Raises:
        TypeError: bad kinds.
        ValueError: ``step_size <= 0``, ``tol <= 0``, ``max_iter < 0``.

    References:
        Lee, Kroer, Luo, NeurIPS 2021 (DOMWU); baselines of Abe et al., ICML 2026, Section 6.
    """
    if not isinstance(optimistic, bool):
        raise TypeError(f"optimistic: expected a bool, got {describe(optimistic)}")
    return _optimistic(game, step_size, max_iter, tol, _entropy_local, optimistic)
