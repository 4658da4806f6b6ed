"""Batched PRM+ / RM+ and the batched duality gap in PyTorch (fast path of spec 01, Alg. 3).

Names mirror the reference, every function batched over a leading dimension ``B`` (a batch
of games of one shape at once): :func:`prm_plus` and :func:`rm_plus` are the solvers
:func:`reference.games.prm_plus` / :func:`reference.games.rm_plus` (same stopping test and
averaging, applied per game); :func:`regret_trajectory` runs the dynamics of
:func:`reference.games.regret_trajectory` (exactly ``iterations`` steps, no stopping
test); :func:`duality_gap` is :func:`reference.games.duality_gap`.  One runner,
:class:`_Runner`, mirrors the reference's ``_RegretRunner`` step for step (simultaneous or
alternating play, prediction = last instantaneous regret).  float64 by default (float32
allowed), explicit ``device``.  Cross-checked iterate for iterate against the numpy reference in
``tests/games/test_fastpath.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from numpy.typing import ArrayLike

from reference._arrays import require_int, require_positive
from reference._defaults import defaults_of
from reference._repr import summary_repr
from reference.games.regret import AVERAGING, Averaging
from reference.games.regret import prm_plus as _reference_prm_plus
from reference.games.regret import regret_trajectory as _reference_regret_trajectory
from reference.games.regret import rm_plus as _reference_rm_plus

__all__ = [
    "BatchedEquilibriumResult",
    "BatchedRegretResult",
    "duality_gap",
    "prm_plus",
    "regret_trajectory",
    "rm_plus",
]

# The keyword defaults each function shares with its reference, read from the reference's signature.
_RM_PLUS = defaults_of(_reference_rm_plus)
_PRM_PLUS = defaults_of(_reference_prm_plus)
_TRAJECTORY = defaults_of(_reference_regret_trajectory)


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class BatchedRegretResult:
    """Result of :func:`regret_trajectory` (tensors on the requested device and dtype).

    Attributes:
        x_last: ``(B, m)`` last row strategies.
        y_last: ``(B, n)`` last column strategies.
        x_linear: ``(B, m)`` linear averages (weights ``t``).
        y_linear: ``(B, n)`` linear averages.
        x_bar: ``(B, m)`` uniform averages (the reference's ``x_bar``).
        y_bar: ``(B, n)`` uniform averages.
        states_x: ``(B, m)`` final clipped states.
        states_y: ``(B, n)`` final clipped states.
        gap_last: ``(B, T)`` gap of the last iterate after each step.
        gap_linear: ``(B, T)`` gap of the linear average after each step.
        xs: ``(B, T, m)`` every row iterate when ``record=True``, else ``None``.
        ys: ``(B, T, n)`` every column iterate when ``record=True``, else ``None``.
    """

    x_last: torch.Tensor
    y_last: torch.Tensor
    x_linear: torch.Tensor
    y_linear: torch.Tensor
    x_bar: torch.Tensor
    y_bar: torch.Tensor
    states_x: torch.Tensor
    states_y: torch.Tensor
    gap_last: torch.Tensor
    gap_linear: torch.Tensor
    xs: torch.Tensor | None
    ys: torch.Tensor | None


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class BatchedEquilibriumResult:
    """Result of :func:`prm_plus` / :func:`rm_plus`: the reference's fields, one row per game.

    Attributes:
        method: ``"PRM+"`` or ``"RM+"``.
        x: ``(B, m)`` row strategies of the reported candidate.
        y: ``(B, n)`` column strategies.
        gap: ``(B,)`` duality gap of ``(x, y)``, evaluated directly.
        converged: ``(B,)`` bool, the stopping test ``gap <= tol`` was met (``tol`` absolute,
            payoff units, as in the reference).
        stop_reason: per game ``"tol"`` (iff ``converged``) or ``"max_iter"``, as the
            reference's :data:`~reference.games.STOP_REASONS`.
        iterations: ``(B,)`` int64 iterations run per game.
        gap_history: ``(B, T + 1)`` gap of the candidate after each iteration (entry 0 is the
            uniform start), ``T`` the largest ``iterations``; NaN after a game stopped.
    """

    method: str
    x: torch.Tensor
    y: torch.Tensor
    gap: torch.Tensor
    converged: torch.Tensor
    stop_reason: tuple[str, ...]
    iterations: torch.Tensor
    gap_history: torch.Tensor


def _as_batch(payoff: object, *, device: str | torch.device, dtype: torch.dtype) -> torch.Tensor:
    if dtype not in (torch.float64, torch.float32):
        raise ValueError(f"dtype: expected torch.float64 or torch.float32, got {dtype}")
    if isinstance(payoff, torch.Tensor):
        if payoff.is_complex() or not (
            payoff.is_floating_point() or payoff.dtype in (torch.int32, torch.int64, torch.bool)
        ):
            raise TypeError(f"payoff: expected a real tensor, got dtype {payoff.dtype}")
        tensor = payoff.detach().to(device=device, dtype=dtype).clone()
    else:
        raw = np.asarray(payoff)
        if raw.dtype.kind not in "biuf":
            raise TypeError(f"payoff: expected a real numeric array, got dtype {raw.dtype}")
        tensor = torch.as_tensor(np.array(raw, dtype=np.float64), device=device).to(dtype)
    if tensor.ndim != 3 or min(tensor.shape) < 1:
        raise ValueError(
            f"payoff: expected a (B, m, n) batch with B, m, n >= 1, got shape {tuple(tensor.shape)}"
        )
    if not bool(torch.isfinite(tensor).all()):
        raise ValueError("payoff: expected finite values, got NaN/inf entries")
    return tensor


def _normalize(v: torch.Tensor) -> torch.Tensor:
    total = v.sum(dim=-1, keepdim=True)
    uniform = torch.full_like(v, 1.0 / v.shape[-1])
    safe = torch.where(total > 0, total, torch.ones_like(total))
    return torch.where(total > 0, v / safe, uniform)


def duality_gap(payoff: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Duality gap ``max_j (xᵀA)_j - min_i (Ay)_i``, batched over a leading dimension ``B``.

    The torch counterpart of :func:`reference.games.duality_gap` for a batch of games.

    Args:
        payoff: ``(B, m, n)`` real tensor (a batch of matrices ``A``).
        x: ``(B, m)`` row strategies.
        y: ``(B, n)`` column strategies.

    Returns:
        ``(B,)`` gaps, same dtype and device as ``payoff``.

    Raises:
        ValueError: mismatched shapes.

    Example:
        >>> a = torch.tensor([[[1.0, -1.0], [-1.0, 1.0]]], dtype=torch.float64)
        >>> duality_gap(a, torch.tensor([[1.0, 0.0]]).double(), torch.full((1, 2), 0.5).double())
        tensor([1.], dtype=torch.float64)
    """
    if (
        payoff.ndim != 3
        or x.shape != payoff.shape[:2]
        or y.shape != (payoff.shape[0], payoff.shape[2])
    ):
        raise ValueError(
            f"x, y: expected shapes {tuple(payoff.shape[:2])} and "
            f"{(payoff.shape[0], payoff.shape[2])}, got {tuple(x.shape)} and {tuple(y.shape)}"
        )
    upper = torch.einsum("bi,bij->bj", x, payoff).amax(dim=-1)
    lower = torch.einsum("bij,bj->bi", payoff, y).amin(dim=-1)
    return upper - lower


class _Runner:
    """RM+ / PRM+ state of a batch of games; :meth:`step` is one iteration of Algorithm 3.

    The batched twin of ``reference.games.regret._RegretRunner`` (same update order, same
    weighted sums: index 0 uniform, 1 linear, 2 quadratic).
    """

    def __init__(self, a: torch.Tensor, *, predictive: bool, alternating: bool) -> None:
        b, m, n = a.shape
        kw: dict[str, Any] = {"device": a.device, "dtype": a.dtype}
        self.a, self.predictive, self.alternating = a, predictive, alternating
        self.state_x, self.state_y = torch.zeros(b, m, **kw), torch.zeros(b, n, **kw)
        self.pred_x, self.pred_y = torch.zeros(b, m, **kw), torch.zeros(b, n, **kw)
        self.x, self.y = torch.full((b, m), 1.0 / m, **kw), torch.full((b, n), 1.0 / n, **kw)
        self.t = 0
        self.loss_next = torch.einsum("bij,bj->bi", a, self.y)  # A y^{t-1} (alternating)
        self.gain, self.loss = torch.zeros(b, n, **kw), torch.zeros(b, m, **kw)
        self.weight = [0.0, 0.0, 0.0]
        self.sum_x, self.sum_y = torch.zeros(3, b, m, **kw), torch.zeros(3, b, n, **kw)
        self.sum_gain, self.sum_loss = torch.zeros(3, b, n, **kw), torch.zeros(3, b, m, **kw)

    def _strategy(self, state: torch.Tensor, pred: torch.Tensor) -> torch.Tensor:
        return _normalize(torch.clamp(state + pred, min=0.0) if self.predictive else state)

    def step(self) -> None:
        """One iteration (simultaneous or alternating), spec 01 Algorithm 3."""
        a = self.a
        self.t += 1
        if not self.alternating:
            x = self._strategy(self.state_x, self.pred_x)
            y = self._strategy(self.state_y, self.pred_y)
            loss = torch.einsum("bij,bj->bi", a, y)  # l = A y^t
            gain = torch.einsum("bi,bij->bj", x, a)  # g = Aᵀ x^t
            r_x = (loss * x).sum(-1, keepdim=True) - loss
            r_y = gain - (gain * y).sum(-1, keepdim=True)
            self.state_x = torch.clamp(self.state_x + r_x, min=0.0)
            self.state_y = torch.clamp(self.state_y + r_y, min=0.0)
            if self.predictive:
                self.pred_x, self.pred_y = r_x, r_y
        else:
            r_x = (self.loss_next * self.x).sum(-1, keepdim=True) - self.loss_next
            self.state_x = torch.clamp(self.state_x + r_x, min=0.0)
            if self.predictive:
                self.pred_x = r_x
            x = self._strategy(self.state_x, self.pred_x)
            gain = torch.einsum("bi,bij->bj", x, a)
            r_y = gain - (gain * self.y).sum(-1, keepdim=True)
            self.state_y = torch.clamp(self.state_y + r_y, min=0.0)
            if self.predictive:
                self.pred_y = r_y
            y = self._strategy(self.state_y, self.pred_y)
            loss = torch.einsum("bij,bj->bi", a, y)
            self.loss_next = loss
        self.x, self.y, self.gain, self.loss = x, y, gain, loss
        t = float(self.t)
        for k, w in enumerate((1.0, t, t * t)):
            self.weight[k] += w
            self.sum_x[k] = self.sum_x[k] + w * x
            self.sum_y[k] = self.sum_y[k] + w * y
            self.sum_gain[k] = self.sum_gain[k] + w * gain
            self.sum_loss[k] = self.sum_loss[k] + w * loss

    def last_gap(self) -> torch.Tensor:
        """``(B,)`` gap of the last iterate from the stored products."""
        return self.gain.amax(-1) - self.loss.amin(-1)

    def average(self, index: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Average ``index`` (0 uniform, 1 linear, 2 quadratic) and its incremental gap."""
        w = self.weight[index]
        gap = (self.sum_gain[index].amax(-1) - self.sum_loss[index].amin(-1)) / w
        return self.sum_x[index] / w, self.sum_y[index] / w, gap

    def candidate(self, averaging: str) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The reported pair for ``averaging`` and its incremental gap, per game."""
        if averaging == "last":
            return self.x, self.y, self.last_gap()
        if averaging == "best":
            lin_x, lin_y, lin_gap = self.average(1)
            last_gap = self.last_gap()
            take = lin_gap < last_gap
            return (
                torch.where(take[:, None], lin_x, self.x),
                torch.where(take[:, None], lin_y, self.y),
                torch.where(take, lin_gap, last_gap),
            )
        return self.average({"uniform": 0, "linear": 1, "quadratic": 2}[averaging])


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name}: expected a bool, got {type(value).__name__}")
    return value


def regret_trajectory(
    payoff: ArrayLike | torch.Tensor,
    *,
    iterations: int,
    predictive: bool = _TRAJECTORY["predictive"],
    alternating: bool = _TRAJECTORY["alternating"],
    record: bool = False,
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float64,
) -> BatchedRegretResult:
    """PRM+ (or RM+) self-play for ``iterations`` steps, batched over a leading dimension ``B``.

    The torch counterpart of :func:`reference.games.regret_trajectory` (same arguments
    plus ``record``, ``device`` and ``dtype``): no early stop, every game of the batch
    runs the same number of steps.  It returns the batch's final states, averages and
    gap histories, and every iterate only when ``record=True``.

    Per game and player: state ``R >= 0``, prediction ``m`` (the last instantaneous
    regret), strategy ``normalize(max(R + m, 0))`` (PRM+) or ``normalize(R)`` (RM+),
    update ``R <- max(R + r, 0)`` (spec 01, Algorithm 3).

    Args:
        payoff: ``(B, m, n)`` finite real batch of matrices ``A`` (array or tensor).
        iterations: number of steps ``T >= 1``.
        predictive: PRM+ (default) or RM+.
        alternating: alternating instead of simultaneous play.
        record: also return every iterate (``(B, T, m)``, ``(B, T, n)``).
        device: torch device.
        dtype: ``torch.float64`` (default) or ``torch.float32``.

    Returns:
        A :class:`BatchedRegretResult`.

    Raises:
        TypeError: non-numeric payoff, non-integer ``iterations`` or non-bool flags.
        ValueError: wrong shape, empty, non-finite, ``iterations < 1`` or unsupported dtype.

    Example:
        >>> a = torch.tensor([[[3.0, -1.0], [-2.0, 1.0]]], dtype=torch.float64)
        >>> res = regret_trajectory(a, iterations=500)
        >>> res.gap_linear.shape, bool(res.gap_linear[0, -1] < res.gap_linear[0, 0])
        (torch.Size([1, 500]), True)

    References:
        Farina, Kroer, Sandholm, AAAI 2021 (PRM+); spec 01 Algorithm 3 and Section 8
        (batched fast path).
    """
    for name, flag in (
        ("predictive", predictive),
        ("alternating", alternating),
        ("record", record),
    ):
        _flag(name, flag)
    steps = require_int("iterations", iterations, minimum=1)
    a = _as_batch(payoff, device=device, dtype=dtype)
    b, m, n = a.shape
    runner = _Runner(a, predictive=predictive, alternating=alternating)
    gap_last = torch.zeros(b, steps, device=a.device, dtype=a.dtype)
    gap_linear = torch.zeros(b, steps, device=a.device, dtype=a.dtype)
    xs = torch.zeros(b, steps, m, device=a.device, dtype=a.dtype) if record else None
    ys = torch.zeros(b, steps, n, device=a.device, dtype=a.dtype) if record else None
    for t in range(steps):
        runner.step()
        gap_last[:, t] = runner.last_gap()
        gap_linear[:, t] = runner.average(1)[2]
        if xs is not None and ys is not None:
            xs[:, t], ys[:, t] = runner.x, runner.y
    x_linear, y_linear, _ = runner.average(1)
    x_bar, y_bar, _ = runner.average(0)
    return BatchedRegretResult(
        x_last=runner.x,
        y_last=runner.y,
        x_linear=x_linear,
        y_linear=y_linear,
        x_bar=x_bar,
        y_bar=y_bar,
        states_x=runner.state_x,
        states_y=runner.state_y,
        gap_last=gap_last,
        gap_linear=gap_linear,
        xs=xs,
        ys=ys,
    )


def _run(
    payoff: object,
    *,
    tol: float,
    max_iter: int,
    predictive: bool,
    alternating: bool,
    averaging: str,
    device: str | torch.device,
    dtype: torch.dtype,
) -> BatchedEquilibriumResult:
    """The reference's ``_run_regret`` for a batch: each game stops at its own first success."""
    threshold = require_positive("tol", tol)
    limit = require_int("max_iter", max_iter, minimum=1)
    _flag("alternating", alternating)
    if not isinstance(averaging, str) or averaging not in AVERAGING:
        raise ValueError(f"averaging: expected one of {AVERAGING}, got {averaging!r}")
    a = _as_batch(payoff, device=device, dtype=dtype)
    runner = _Runner(a, predictive=predictive, alternating=alternating)
    x, y = runner.x.clone(), runner.y.clone()
    gap = duality_gap(a, x, y)
    history = [gap]
    converged = gap <= threshold
    active = ~converged
    iterations = torch.zeros(a.shape[0], dtype=torch.int64, device=a.device)
    while bool(active.any()) and runner.t < limit:
        runner.step()
        cx, cy, cgap = runner.candidate(averaging)
        hit = cgap <= threshold
        if bool(hit.any()):  # confirm the incremental gap by a direct evaluation
            cgap = torch.where(hit, duality_gap(a, cx, cy), cgap)
        x = torch.where(active[:, None], cx, x)
        y = torch.where(active[:, None], cy, y)
        history.append(torch.where(active, cgap, torch.full_like(cgap, torch.nan)))
        iterations = torch.where(active, torch.full_like(iterations, runner.t), iterations)
        done = active & (cgap <= threshold)
        converged = converged | done
        active = active & ~done
    return BatchedEquilibriumResult(
        method="PRM+" if predictive else "RM+",
        x=x,
        y=y,
        gap=duality_gap(a, x, y),
        converged=converged,
        stop_reason=tuple("tol" if bool(c) else "max_iter" for c in converged),
        iterations=iterations,
        gap_history=torch.stack(history, dim=1),
    )


def rm_plus(
    payoff: ArrayLike | torch.Tensor,
    *,
    tol: float = _RM_PLUS["tol"],
    max_iter: int = _RM_PLUS["max_iter"],
    alternating: bool = _RM_PLUS["alternating"],
    averaging: Averaging = _RM_PLUS["averaging"],
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float64,
) -> BatchedEquilibriumResult:
    """Regret matching+ self-play on a batch of games, each stopped by the reference's test.

    The torch counterpart of :func:`reference.games.rm_plus`, batched over a leading
    dimension ``B``: every game runs the reference's iteration, reports the candidate of
    ``averaging`` and stops at the first iteration whose gap is ``<= tol`` (confirmed by a
    direct evaluation) or at ``max_iter``; the batch runs until every game stopped.

    Args:
        payoff: ``(B, m, n)`` finite real batch of matrices ``A`` (array or tensor).
        tol: gap tolerance ``> 0``.
        max_iter: iteration cap ``>= 1``.
        alternating: alternating instead of simultaneous play.
        averaging: ``"last"``, ``"uniform"`` (default), ``"linear"``, ``"quadratic"``, ``"best"``.
        device: torch device.
        dtype: ``torch.float64`` (default) or ``torch.float32``.

    Returns:
        A :class:`BatchedEquilibriumResult`.

    Raises:
        TypeError: non-numeric payoff, non-integer ``max_iter`` or a non-bool flag.
        ValueError: wrong shape, empty, non-finite, bad ``tol``/``max_iter``/``averaging`` or
            unsupported dtype.

    Example:
        >>> a = torch.tensor([[[1.0, -1.0], [-1.0, 1.0]]], dtype=torch.float64)
        >>> res = rm_plus(a, tol=1e-8)
        >>> res.x.tolist(), res.converged.tolist()
        ([[0.5, 0.5]], [True])
    """
    return _run(
        payoff,
        tol=tol,
        max_iter=max_iter,
        predictive=False,
        alternating=alternating,
        averaging=averaging,
        device=device,
        dtype=dtype,
    )


def prm_plus(
    payoff: ArrayLike | torch.Tensor,
    *,
    tol: float = _PRM_PLUS["tol"],
    max_iter: int = _PRM_PLUS["max_iter"],
    alternating: bool = _PRM_PLUS["alternating"],
    averaging: Averaging = _PRM_PLUS["averaging"],
    device: str | torch.device = "cpu",
    dtype: torch.dtype = torch.float64,
) -> BatchedEquilibriumResult:
    """Predictive RM+ self-play on a batch of games, each stopped by the reference's test.

    The torch counterpart of :func:`reference.games.prm_plus`, batched over a leading
    dimension ``B`` (per-game stopping as :func:`rm_plus`; prediction = the last
    instantaneous regret, spec 01 Algorithm 3).

    Args:
        payoff: ``(B, m, n)`` finite real batch of matrices ``A`` (array or tensor).
        tol: gap tolerance ``> 0``.
        max_iter: iteration cap ``>= 1``.
        alternating: alternating instead of simultaneous play.
        averaging: ``"last"``, ``"uniform"``, ``"linear"`` (default), ``"quadratic"``, ``"best"``.
        device: torch device.
        dtype: ``torch.float64`` (default) or ``torch.float32``.

    Returns:
        A :class:`BatchedEquilibriumResult`.

    Raises:
        TypeError: non-numeric payoff, non-integer ``max_iter`` or a non-bool flag.
        ValueError: wrong shape, empty, non-finite, bad ``tol``/``max_iter``/``averaging`` or
            unsupported dtype.

    Example:
        >>> a = torch.tensor([[[3.0, -1.0], [-2.0, 1.0]]], dtype=torch.float64)
        >>> res = prm_plus(a, tol=1e-4)
        >>> bool(res.converged[0]), bool(res.gap[0] <= 1e-4)
        (True, True)

    References:
        Farina, Kroer, Sandholm, AAAI 2021 (PRM+); spec 01 Algorithm 3 and Section 8
        (batched fast path).
    """
    return _run(
        payoff,
        tol=tol,
        max_iter=max_iter,
        predictive=True,
        alternating=alternating,
        averaging=averaging,
        device=device,
        dtype=dtype,
    )
