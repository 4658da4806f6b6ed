"""The hybrid PRM+ -> semi-smooth Newton solvers PSSN and HPSSN (spec 01, Algorithm 4).

[paper]: "Algorithm 1" (Hybrid SSN) warm-starts SSN from PRM+ through the lifting
map, in two variants named PSSN and HPSSN.  (reconstruction): the switching rules,
thresholds and the fallback below (spec 01, Section 4, Algorithm 4).

Notation map: ``τ_switch`` is ``config.tau_switch``; ``τ_0`` ``config.tau0``;
``θ`` ``config.theta``; ``K`` ``config.newton_rounds``; ``eps`` is ``tol``.
The public name :func:`hybrid` is re-exported by :mod:`reference.games`.  The loop
(:func:`_hybrid_loop`) takes its Newton phase as an argument, so that
:func:`reference.games.fast.hybrid` runs the same loop with the fast SSN.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import (
    FloatArray,
    readonly,
    require_int,
    require_positive,
    require_probability,
)
from reference.games.base import EquilibriumResult, _gap, _max_iter, _payoff, _tol
from reference.games.regret import _check_flag, _RegretRunner
from reference.games.ssn import SSNConfig, _lift, _NewtonRun, _prepare, _ssn_run

__all__ = ["HYBRID_MODES", "HybridConfig", "hybrid"]

#: A Newton phase ``(x, y, k) -> run``: at most ``k`` SSN iterations from ``u_0 = L(x, y)``.
NewtonPhase = Callable[[FloatArray, FloatArray, int], _NewtonRun]

#: The two hybrid variants of the paper.
HYBRID_MODES = ("PSSN", "HPSSN")


@dataclass(frozen=True, slots=True, kw_only=True)
class HybridConfig:
    """Switching parameters of the hybrids (all our defaults, spec 01 Algorithm 4).

    Attributes:
        tau_switch: PSSN switches to SSN once the PRM+ candidate's gap is
            ``<= τ_switch · max(1, max|a_ij|)`` (1e-3).
        tau0: HPSSN's first switching threshold ``τ_0`` (1e-2), in the same units.
        theta: HPSSN's threshold factor ``θ ∈ (0, 1)`` after a failed Newton phase (0.1).
        newton_rounds: HPSSN's Newton iterations per phase ``K`` (100).
        ssn_max_iter: PSSN's Newton iteration cap before it falls back to HPSSN (300).
        alternating: use alternating PRM+ for the first-order phase (default simultaneous).
        ssn: the :class:`~reference.games.ssn.SSNConfig` of the Newton phases.
    """

    tau_switch: float = 1e-3
    tau0: float = 1e-2
    theta: float = 0.1
    newton_rounds: int = 100
    ssn_max_iter: int = 300
    alternating: bool = False
    ssn: SSNConfig = field(default_factory=SSNConfig)

    def __post_init__(self) -> None:
        require_positive("tau_switch", self.tau_switch)
        require_positive("tau0", self.tau0)
        require_probability("theta", self.theta, open_low=True, open_high=True)
        require_int("newton_rounds", self.newton_rounds, minimum=1)
        require_int("ssn_max_iter", self.ssn_max_iter, minimum=1)
        _check_flag("alternating", self.alternating)
        if not isinstance(self.ssn, SSNConfig):
            raise TypeError(f"ssn: expected an SSNConfig, got {type(self.ssn).__name__}")


def hybrid(
    payoff: ArrayLike,
    *,
    tol: float = 1e-10,
    mode: str = "PSSN",
    max_iter: int = 100_000,
    config: HybridConfig | None = None,
) -> EquilibriumResult:
    """PRM+ warm start, then regularised SSN on the DRS residual (PSSN / HPSSN).

    * **PSSN** (one-way switch): run PRM+; once the candidate (the last iterate or
      the linear average, whichever has the smaller gap) has ``gap <= τ_switch``,
      lift it, ``u_0 = L(z)``, and run SSN until ``gap <= eps``.  If that SSN phase
      hits ``ssn_max_iter``, fall back to HPSSN behaviour with ``τ = θ min(τ_switch, gap)``
      (``fallback=True`` in the result).
    * **HPSSN** (repeated switching): ``τ = τ_0``; loop: continue PRM+ from its saved
      state (never restarted) until ``gap(candidate) <= τ`` or ``<= eps``; stop if
      ``<= eps``; run at most ``K`` SSN iterations from ``L(candidate)``; stop if SSN
      reaches ``eps``; else ``τ <- θ min(τ, gap(candidate))`` (the ``min`` is our default:
      it keeps a failed Newton phase from being repeated from the same candidate).

    The switching thresholds ``τ`` (gaps, so payoff units) are multiplied by
    ``max(1, max|a_ij|)`` (our default; the spec's numbers are for ``|a_ij| <= 1``-scale games,
    where the two coincide); ``tol`` itself is absolute and never rescaled.  The best profile ever seen (smallest gap) is returned.  ``max_iter`` caps PRM+
    plus Newton iterations together, so the solver always stops.  ``converged`` means exactly
    that the returned pair's duality gap, recomputed, is ``<= tol``; a Newton phase that ends
    at the residual floor (``config.ssn.tol_res``) with a larger gap stops the solver with
    ``converged=False`` and ``stop_reason="residual_floor"``.

    Args:
        payoff: ``(m, n)`` finite matrix ``A`` (the row player minimises ``xᵀAy``).
        tol: target duality gap ``eps > 0`` (absolute, payoff units, as in the whole family).
        mode: ``"PSSN"`` or ``"HPSSN"``.
        max_iter: cap on PRM+ plus Newton iterations (``>= 1``).
        config: :class:`HybridConfig` (our defaults).

    Returns:
        An :class:`~reference.games.base.EquilibriumResult` with ``method=mode``; PRM+ and
        Newton iterations are counted separately; ``ssn_runs`` counts Newton phases;
        ``u``/``residual`` are set when the returned profile came from a Newton phase;
        ``stop_reason`` is ``"tol"``, ``"residual_floor"`` or ``"max_iter"``.

    Domain: as :func:`~reference.games.ssn.ssn` (non-degenerate games; on equilibrium margins
    tiny against the scale, e.g. ``[[1e-6, 0, 0], [0, 1, 0]]``, PRM+ crawls and the Newton
    phases need ``config.ssn.kink_search`` of :class:`~reference.games.ssn.SSNConfig`, off by
    default: without it the run stops at ``max_iter``, honestly unconverged).

    Raises:
        TypeError: non-numeric payoff, non-string ``mode`` or a config of the wrong type.
        ValueError: bad payoff, ``tol <= 0``, ``max_iter < 1`` or unknown ``mode``.

    Example:
        >>> res = hybrid([[3.0, -1.0, 0.5], [-2.0, 1.0, 0.0]], tol=1e-12)
        >>> res.converged, res.gap <= 1e-12
        (True, True)

    References:
        Yang, Gao, Lin, Kroer, arXiv:2512.12910, Algorithm 1 (Hybrid SSN; variants PSSN and
        HPSSN) [paper]; switching rules and thresholds (reconstruction, spec 01 Algorithm 4).

    Variant:
        The warm-start candidate is the better of the last iterate and the linear average
        (our default); PRM+ is simultaneous unless ``config.alternating``.
    """
    start = time.perf_counter()
    matrix, eps, cap, cfg = _check_arguments(payoff, tol, mode, max_iter, config)
    game = _prepare(matrix, cfg.ssn.step_size)

    def newton(x: FloatArray, y: FloatArray, rounds: int) -> _NewtonRun:
        u0 = _lift(game, np.concatenate([x, y]))
        return _ssn_run(game, u0, eps=eps, max_iter=rounds, cfg=cfg.ssn)

    return _hybrid_loop(matrix, eps=eps, mode=mode, cap=cap, cfg=cfg, newton=newton, start=start)


def _check_arguments(
    payoff: object, tol: object, mode: object, max_iter: object, config: object
) -> tuple[FloatArray, float, int, HybridConfig]:
    """Validate :func:`hybrid`'s arguments: ``(payoff, eps, max_iter, config)``."""
    matrix = _payoff(payoff)
    eps = _tol("tol", tol)
    if not isinstance(mode, str):
        raise TypeError(f"mode: expected a string, got {type(mode).__name__}")
    if mode not in HYBRID_MODES:
        raise ValueError(f"mode: expected one of {HYBRID_MODES}, got {mode!r}")
    cap = _max_iter(max_iter)
    cfg = HybridConfig() if config is None else config
    if not isinstance(cfg, HybridConfig):
        raise TypeError(f"config: expected a HybridConfig, got {type(cfg).__name__}")
    return matrix, eps, cap, cfg


def _hybrid_loop(
    matrix: FloatArray,
    *,
    eps: float,
    mode: str,
    cap: int,
    cfg: HybridConfig,
    newton: NewtonPhase,
    start: float,
) -> EquilibriumResult:
    """Algorithm 4 of spec 01: PRM+ phases and Newton phases until ``gap <= eps`` or ``cap``.

    PSSN is the HPSSN loop whose first round uses ``τ_switch`` and ``ssn_max_iter``
    Newton iterations; later rounds (PSSN's fallback) use ``θ`` and ``K``.
    """
    runner = _RegretRunner(matrix, predictive=True, alternating=cfg.alternating)
    best_x, best_y = runner.x, runner.y  # the best profile seen so far (smallest gap)
    best_gap = _gap(matrix, best_x, best_y)
    best_run: _NewtonRun | None = None  # the Newton run that produced it, if any
    gaps: list[float] = [best_gap]
    residuals: list[float] = []
    newton_iterations = safeguards = ssn_runs = 0
    fallback = False
    converged = best_gap <= eps
    reason = "max_iter"  # why the loop ends unless a gap <= eps is found
    scale = max(1.0, float(np.max(np.abs(matrix))))  # thresholds in payoff units
    tau = (cfg.tau_switch if mode == "PSSN" else cfg.tau0) * scale
    rounds = cfg.ssn_max_iter if mode == "PSSN" else cfg.newton_rounds
    while not converged and runner.t + newton_iterations < cap:
        # Alg. 4 (i): continue PRM+ (never restarted) until gap(candidate) <= max(τ, eps)
        x, y, gap = runner.candidate("best") if runner.t else (best_x, best_y, best_gap)
        while gap > max(tau, eps) and runner.t + newton_iterations < cap:
            runner.step()
            x, y, gap = runner.candidate("best")
            if gap <= max(tau, eps):  # confirm the incremental gap directly
                gap = _gap(matrix, x, y)
            gaps.append(gap)
            if gap < best_gap:
                best_x, best_y, best_gap, best_run = x, y, gap, None
        if gap <= eps:  # Alg. 4 (ii)
            converged = True
            break
        if runner.t + newton_iterations >= cap:
            break
        # Alg. 4 (iii): at most `rounds` SSN iterations from L(candidate)
        run = newton(x, y, min(rounds, cap - runner.t - newton_iterations))
        ssn_runs += 1
        newton_iterations += run.iterations
        safeguards += run.safeguards
        gaps.extend(run.gaps[1:])
        residuals.extend(run.residuals)
        if run.converged or run.gaps[-1] < best_gap:
            best_x, best_y, best_gap, best_run = run.x, run.y, run.gaps[-1], run
        if run.converged:
            converged = True
            break
        if run.stop_reason == "residual_floor":  # a fixed point to working precision: no
            reason = "residual_floor"  # later phase improves on it (never convergence)
            break
        # Alg. 4 (iv): a failed phase: PSSN falls back to HPSSN; tighten τ (the min is our default:
        # it never re-lifts a candidate that already met τ)
        if mode == "PSSN" and ssn_runs == 1:
            fallback = runner.t + newton_iterations < cap
        tau = cfg.theta * min(tau, gap)
        rounds = cfg.newton_rounds
    final_gap = _gap(matrix, best_x, best_y)  # `converged` is decided on the returned pair
    return EquilibriumResult(
        method=mode,
        x=readonly(np.array(best_x)),
        y=readonly(np.array(best_y)),
        gap=final_gap,
        converged=final_gap <= eps,
        stop_reason="tol" if final_gap <= eps else reason,
        iterations=runner.t + newton_iterations,
        first_order_iterations=runner.t,
        newton_iterations=newton_iterations,
        gap_history=readonly(np.array(gaps)),
        residual_history=readonly(np.array(residuals)),
        residual=None if best_run is None else best_run.residuals[-1],
        u=None if best_run is None else readonly(np.array(best_run.u)),
        ssn_runs=ssn_runs,
        safeguard_steps=safeguards,
        fallback=fallback,
        wall_time=time.perf_counter() - start,
    )
