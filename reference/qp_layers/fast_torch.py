"""Torch fast path of :mod:`reference.qp_layers`: a batched QP layer with the FFO backward.

``FFOQPLayer`` is an ``nn.Module`` called like qpth's ``QPFunction``:
``layer(Q, q, G, h, A, b) -> x`` (``G``/``h`` and ``A``/``b`` may be ``None``; every
argument may carry a leading batch axis, unbatched ones broadcast).  Its forward is a
batched float64 port of the reference interior point (same initialisation, same
Mehrotra steps, same active-set polish), its backward is either the FFO hypergradient
(spec 03 A2: frozen active set, one tilted ghost solve by Cholesky of ``Q`` and a
Schur complement on the active rows, forward difference × ``α``) or the exact dense
KKT solve (spec 03 A1).  In float32 the active-set slack threshold is raised to
``64·eps·(1 + ‖h‖∞)`` (float32 rounds an active slack to ~1e-7; a no-op in float64), and
the spec's floating-point note applies: the FFO difference loses ``α·u·‖y*‖``, so use
``α ≲ 1e3`` in float32.  Elements the batched code cannot handle (non-convergence,
infeasibility, rank-deficient active sets) fall back to the numpy reference, which
raises or warns exactly as documented there.

The functional doors :func:`solve_qp`, :func:`kkt_grads`, :func:`ffo_grads` and
:func:`ghost_pgd` carry the reference's names and take the reference's arguments (arrays or tensors), an
explicit ``device`` and ``dtype`` (float64 default) and return tensors; the suites
of :mod:`properties.qp_layers` run on them unchanged.

References:
    Z. Zhao, K.-C. Mo, S.-H. Ho, B. Amos, K. Wang, "A Fully First-Order Layer for
    Differentiable Optimization", ICML 2026, arXiv:2512.02494 (spec 03, A0-A2).
    B. Amos, J. Z. Kolter, "OptNet", ICML 2017 (qpth calling convention).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import torch
from numpy.typing import ArrayLike

from reference import qp_layers as _ref
from reference._arrays import as_float_array, require_positive
from reference._defaults import defaults_of
from reference._repr import summary_repr
from reference.qp_layers.model import SYMMETRY_RTOL

__all__ = [
    "FFOQPLayer",
    "QPGradsTorch",
    "QPSolutionTorch",
    "ffo_grads",
    "ghost_pgd",
    "kkt_grads",
    "qp_layer",
    "solve_qp",
]

Tensor = torch.Tensor
_NAMES = ("Q", "q", "G", "h", "A", "b")
# The keyword defaults each function shares with its reference, read from the reference's signature.
_KKT_GRADS = defaults_of(_ref.kkt_grads)
_FFO_GRADS = defaults_of(_ref.ffo_grads)
_GHOST_PGD = defaults_of(_ref.ghost_pgd)


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class QPSolutionTorch:
    """Batched primal–dual solution (tensors on the requested device): the fields of
    :class:`reference.qp_layers.QPSolution`, the counters and flags per element.

    Attributes:
        x: ``(n,)`` or ``(B, n)`` primal solution.
        lam: ``(m,)`` or ``(B, m)`` inequality multipliers (``(0,)`` without ``G``).
        nu: ``(p,)`` or ``(B, p)`` equality multipliers (``(0,)`` without ``A``).
        slack: like ``lam``: ``h − G x``.
        iterations: ``(B,)`` int64 interior-point iterations per element.
        converged: ``(B,)`` bool per element.
        residual: ``(B,)`` :func:`reference.qp_layers.kkt_residual` of each returned point.
        polished: ``(B,)`` bool, the element's solution came from the active-set polish.
    """

    x: Tensor
    lam: Tensor
    nu: Tensor
    slack: Tensor
    iterations: Tensor
    converged: Tensor
    residual: Tensor
    polished: Tensor


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class QPGradsTorch:
    """The fields of :class:`reference.qp_layers.QPGrads` as tensors on the requested device.

    Attributes:
        Q, q, G, h, A, b: gradients, each with its parameter's shape (``None`` for absent
            blocks).
        active: ``(m,)``/``(B, m)`` bool mask of the rows treated as active (``None`` without
            ``G``): for :func:`kkt_grads` the rows with ``λ*_i > 0`` or weakly active, for
            :func:`ffo_grads` the frozen set ``I`` after rank repair.
        iterations: inner-solver iterations (0 for direct solves; max over the batch).
        converged: the inner solver met its tolerance (true for direct solves).
    """

    Q: Tensor
    q: Tensor
    G: Tensor | None
    h: Tensor | None
    A: Tensor | None
    b: Tensor | None
    active: Tensor | None
    iterations: int = 0
    converged: bool = True

    def as_tuple(self) -> tuple[Tensor | None, ...]:
        """``(Q, q, G, h, A, b)``."""
        return (self.Q, self.q, self.G, self.h, self.A, self.b)


# ------------------------------------------------------------------------------ parsing
@dataclass(frozen=True, slots=True)
class _Batch:
    Q: Tensor  # (B, n, n)
    q: Tensor  # (B, n)
    G: Tensor | None  # (B, m, n)
    h: Tensor | None
    A: Tensor | None
    b: Tensor | None
    batched: bool
    flags: dict[str, bool]
    n: int
    m: int
    p: int


def _tensor(name: str, value: object, base: int, device: Any, dtype: torch.dtype) -> Tensor:
    if isinstance(value, Tensor):
        t = value.to(device=device, dtype=dtype)
    else:
        t = torch.as_tensor(as_float_array(name, value), device=device, dtype=dtype)
    if t.dim() not in (base, base + 1) or t.numel() == 0:
        raise ValueError(
            f"{name}: expected a non-empty {base}-D tensor or a batch of them, "
            f"got shape {tuple(t.shape)}"
        )
    if not bool(torch.isfinite(t).all()):
        raise ValueError(f"{name}: expected finite values, got NaN/inf entries")
    return t


def _parse(
    Q: object,
    q: object,
    G: object,
    h: object,
    A: object,
    b: object,
    device: Any,
    dtype: torch.dtype,
) -> _Batch:
    raw: dict[str, Tensor | None] = {}
    for name, value, base in (
        ("Q", Q, 2),
        ("q", q, 1),
        ("G", G, 2),
        ("h", h, 1),
        ("A", A, 2),
        ("b", b, 1),
    ):
        raw[name] = None if value is None else _tensor(name, value, base, device, dtype)
    for mat, vec in (("G", "h"), ("A", "b")):
        if (raw[mat] is None) != (raw[vec] is None):
            raise ValueError(f"{mat}, {vec}: expected both or neither")
    base_dims = {"Q": 2, "q": 1, "G": 2, "h": 1, "A": 2, "b": 1}
    flags = {k: v is not None and v.dim() == base_dims[k] + 1 for k, v in raw.items()}
    sizes = {k: int(v.shape[0]) for k, v in raw.items() if v is not None and flags[k]}
    if len(set(sizes.values())) > 1:
        raise ValueError(f"batch sizes: expected one common leading size, got {sizes}")
    size = next(iter(sizes.values())) if sizes else 1
    Qt = raw["Q"]
    qt = raw["q"]
    assert Qt is not None
    assert qt is not None
    n = int(Qt.shape[-1])
    if Qt.shape[-2] != n or qt.shape[-1] != n:
        raise ValueError(
            f"Q, q: expected (n, n) and (n,), got {tuple(Qt.shape)}, {tuple(qt.shape)}"
        )

    def expand(t: Tensor | None, name: str) -> Tensor | None:
        if t is None:
            return None
        return t if flags[name] else t.unsqueeze(0).expand(size, *t.shape)

    out = {k: expand(v, k) for k, v in raw.items()}
    m = p = 0
    for mat, vec in (("G", "h"), ("A", "b")):
        M, v = out[mat], out[vec]
        if M is None or v is None:
            continue
        if M.shape[-1] != n or v.shape[-1] != M.shape[-2]:
            raise ValueError(
                f"{mat}, {vec}: expected shapes (rows, {n}) and (rows,), got "
                f"{tuple(M.shape)}, {tuple(v.shape)}"
            )
        if mat == "G":
            m = int(M.shape[-2])
        else:
            p = int(M.shape[-2])
    Qe = out["Q"]
    assert Qe is not None
    asym = (Qe - Qe.mT).abs().amax()
    if float(asym) > SYMMETRY_RTOL * max(float(Qe.abs().amax()), 1e-300):
        raise ValueError(
            f"Q must be symmetric positive definite: max asymmetry {float(asym)!r} exceeds "
            "1e-10 |Q|"
        )
    _, info = torch.linalg.cholesky_ex(Qe)
    if bool((info != 0).any()):
        raise ValueError("Q must be symmetric positive definite: the Cholesky factorisation failed")
    qe = out["q"]
    assert qe is not None
    return _Batch(Qe, qe, out["G"], out["h"], out["A"], out["b"], bool(sizes), flags, n, m, p)


def _mv(M: Tensor, v: Tensor) -> Tensor:
    return (M @ v.unsqueeze(-1)).squeeze(-1)


def _amax(v: Tensor) -> Tensor:
    """Row-wise max |v| (0 for an empty last axis)."""
    if v.shape[-1] == 0:
        return torch.zeros(v.shape[:-1], dtype=v.dtype, device=v.device)
    return v.abs().amax(-1)


# ------------------------------------------------------------------------ forward solve
def _max_step(v: Tensor, dv: Tensor) -> Tensor:
    ratio = torch.where(dv < 0, -v / torch.where(dv < 0, dv, -1.0), torch.inf)
    return ratio.amin(-1).clamp(max=1.0)


def _residual(bt: _Batch, x: Tensor, lam: Tensor, nu: Tensor) -> Tensor:
    """Batched :func:`reference.qp_layers.kkt_residual`."""
    grad = _mv(bt.Q, x) + bt.q
    parts = []
    if bt.G is not None and bt.h is not None:
        grad = grad + _mv(bt.G.mT, lam)
        slack = bt.h - _mv(bt.G, x)
        hn = 1.0 + _amax(bt.h)
        parts.append((-slack.amin(-1)).clamp(min=0.0) / hn)
        parts.append((-lam.amin(-1)).clamp(min=0.0))
        parts.append(_amax(lam * slack) / (1.0 + _amax(lam)))
    if bt.A is not None and bt.b is not None:
        grad = grad + _mv(bt.A.mT, nu)
        parts.append(_amax(_mv(bt.A, x) - bt.b) / (1.0 + _amax(bt.b)))
    parts.append(_amax(grad) / (1.0 + _amax(bt.q)))
    return torch.stack(parts, -1).amax(-1)


def _ghost_solve(
    bt: _Batch, L: Tensor, rhs: Tensor, mask: Tensor
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Solve ``[Q Cᵀ; C 0][y; w] = [rhs; c]`` with ``C = [G_mask; A]`` for every element.

    Active rows are gathered first and padded to the largest count (pad rows get an
    identity block in the Schur complement).  Returns ``(y, mu (B, m), nu (B, p), ok)``.
    """
    B, n = rhs.shape
    base = torch.cholesky_solve(rhs.unsqueeze(-1), L).squeeze(-1)
    rows: list[Tensor] = []
    rhs_c: list[Tensor] = []
    pad: list[Tensor] = []
    kmax = 0
    order = torch.zeros((B, 0), dtype=torch.long, device=rhs.device)
    valid = torch.zeros((B, 0), dtype=torch.bool, device=rhs.device)
    if bt.G is not None and bt.h is not None:
        counts = mask.sum(-1)
        kmax = int(counts.max()) if B else 0
        order = torch.argsort((~mask).to(torch.int8), dim=-1, stable=True)[:, :kmax]
        valid = torch.arange(kmax, device=rhs.device).unsqueeze(0) < counts.unsqueeze(-1)
        Gs = torch.gather(bt.G, 1, order.unsqueeze(-1).expand(-1, -1, n)) * valid.unsqueeze(-1)
        hs = torch.gather(bt.h, 1, order) * valid
        rows.append(Gs)
        rhs_c.append(hs)
        pad.append(~valid)
    if bt.A is not None and bt.b is not None:
        rows.append(bt.A)
        rhs_c.append(bt.b)
        pad.append(torch.zeros((B, bt.p), dtype=torch.bool, device=rhs.device))
    mu = torch.zeros((B, bt.m), dtype=rhs.dtype, device=rhs.device)
    nu = torch.zeros((B, bt.p), dtype=rhs.dtype, device=rhs.device)
    ok = torch.ones(B, dtype=torch.bool, device=rhs.device)
    if not rows or sum(int(r.shape[1]) for r in rows) == 0:
        return base, mu, nu, ok
    C = torch.cat(rows, 1)
    c = torch.cat(rhs_c, 1)
    padm = torch.cat(pad, 1).to(rhs.dtype)
    QiCt = torch.cholesky_solve(C.mT, L)
    S = C @ QiCt + torch.diag_embed(padm)
    LS, info = torch.linalg.cholesky_ex(S)
    ok = info == 0
    w = torch.cholesky_solve((_mv(C, base) - c).unsqueeze(-1), LS).squeeze(-1)
    w = torch.where(ok.unsqueeze(-1), w, torch.zeros_like(w))
    y = base - _mv(QiCt, w)
    if kmax:
        mu = mu.scatter(1, order, w[:, :kmax] * valid)
    if bt.p:
        nu = w[:, kmax:]
    return y, mu, nu, ok


def _pdipm(bt: _Batch, tol: float, max_iter: int, mu_safeguard: bool = True) -> tuple[Tensor, ...]:
    """Batched port of the reference Mehrotra predictor–corrector (same steps)."""
    Q, q, G, h, A, b = bt.Q, bt.q, bt.G, bt.h, bt.A, bt.b
    assert G is not None
    assert h is not None
    B, m, p = q.shape[0], bt.m, bt.p

    def reduced_solve(D: Tensor, rhs1: Tensor, rhs2: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        H = Q + G.mT @ (D.unsqueeze(-1) * G)
        L, info = torch.linalg.cholesky_ex(H)
        bad = info != 0
        r1 = torch.cholesky_solve(rhs1.unsqueeze(-1), L).squeeze(-1)
        if A is None or p == 0:
            return r1, torch.zeros((B, 0), dtype=q.dtype, device=q.device), bad
        HiAt = torch.cholesky_solve(A.mT, L)
        dy = torch.linalg.solve(A @ HiAt, _mv(A, r1) - rhs2)
        return r1 - _mv(HiAt, dy), dy, bad

    zero_b = b if b is not None else torch.zeros((B, 0), dtype=q.dtype, device=q.device)
    x, y, _ = reduced_solve(
        torch.ones((B, m), dtype=q.dtype, device=q.device), -q + _mv(G.mT, h), zero_b
    )
    z = _mv(G, x) - h
    s = -z
    shift_s = -s.amin(-1, keepdim=True)
    s = torch.where(shift_s >= 0, s + 1.0 + shift_s, s)
    shift_z = -z.amin(-1, keepdim=True)
    z = torch.where(shift_z >= 0, z + 1.0 + shift_z, z)
    h_scale = 1.0 + _amax(h)
    q_scale = 1.0 + _amax(q)
    b_scale = 1.0 + _amax(zero_b)
    done = torch.zeros(B, dtype=torch.bool, device=q.device)
    converged = torch.zeros_like(done)
    iterations = torch.zeros(B, dtype=torch.long, device=q.device)
    for it in range(max_iter + 1):
        rd = _mv(Q, x) + q + _mv(G.mT, z)
        if A is not None and p:
            rd = rd + _mv(A.mT, y)
        rp = _mv(G, x) + s - h
        re = _mv(A, x) - zero_b if A is not None and p else torch.zeros_like(zero_b)
        mu = (s * z).sum(-1) / m
        res = torch.stack(
            [_amax(rd) / q_scale, _amax(rp) / h_scale, _amax(re) / b_scale, mu], -1
        ).amax(-1)
        newly = (~done) & (res <= tol)
        converged |= newly
        iterations = torch.where(~done, torch.full_like(iterations, it), iterations)
        done |= newly
        if bool(done.all()) or it == max_iter:
            break
        D = z / s

        def newton(
            rc: Tensor,
            D: Tensor = D,
            rd: Tensor = rd,
            rp: Tensor = rp,
            re: Tensor = re,
            s: Tensor = s,
        ) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
            rhs1 = -rd - _mv(G.mT, rc / s + D * rp)
            dx, dy, bad = reduced_solve(D, rhs1, -re)
            dz = rc / s + D * (rp + _mv(G, dx))
            ds = -rp - _mv(G, dx)
            return dx, ds, dz, dy, bad

        dx, ds, dz, dy, bad1 = newton(-s * z)
        a_aff = torch.minimum(_max_step(s, ds), _max_step(z, dz)).unsqueeze(-1)
        mu_aff = ((s + a_aff * ds) * (z + a_aff * dz)).sum(-1) / m
        sigma = torch.where(mu > 0, (mu_aff / torch.where(mu > 0, mu, 1.0)) ** 3, 0.0)
        cx, cs, cz, cy, bad2 = newton(-s * z + (sigma * mu).unsqueeze(-1) - ds * dz)
        step = (0.99 * torch.minimum(_max_step(s, cs), _max_step(z, cz))).clamp(max=1.0)
        mu_new = ((s + step.unsqueeze(-1) * cs) * (z + step.unsqueeze(-1) * cz)).sum(-1) / m
        retry = mu_new > (1.0 - 0.01 * step) * mu  # the reference's safeguard, per element
        if not mu_safeguard:
            retry = torch.zeros_like(retry)
        bad3 = torch.zeros_like(bad2)
        if bool(retry.any()):
            px, ps, pz, py, bad3 = newton(-s * z + (torch.clamp(sigma, min=0.1) * mu).unsqueeze(-1))
            pstep = (0.99 * torch.minimum(_max_step(s, ps), _max_step(z, pz))).clamp(max=1.0)
            r = retry.unsqueeze(-1)
            cx, cs, cz = torch.where(r, px, cx), torch.where(r, ps, cs), torch.where(r, pz, cz)
            cy = torch.where(r, py, cy) if p else cy
            step = torch.where(retry, pstep, step)
            for _ in range(30):  # halve until μ decreases (the reference's backtracking)
                st = step.unsqueeze(-1)
                mu_try = ((s + st * cs) * (z + st * cz)).sum(-1) / m
                still = retry & (mu_try > (1.0 - 0.01 * step) * mu)
                if not bool(still.any()):
                    break
                step = torch.where(still, 0.5 * step, step)
            bad3 = bad3 & retry
        dx, ds, dz, dy = cx, cs, cz, cy
        stalled = (bad1 | bad2 | bad3) & ~done
        done |= stalled  # like the reference: a failed factorisation ends the element's run
        step = torch.where(done, 0.0, step).unsqueeze(-1)

        def upd(v: Tensor, dv: Tensor, step: Tensor = step) -> Tensor:
            return torch.where(step > 0, v + step * dv, v)

        x, s, z = upd(x, dx), upd(s, ds), upd(z, dz)
        if p:
            y = upd(y, dy)
    return x, z, y, iterations, converged


def _solve(
    bt: _Batch, cfg: _ref.QPSolverConfig
) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
    """``(x, lam, nu, iterations, converged, polished)`` for every element, shape ``(B, ...)``
    (``polished``: the element's solution came from the active-set polish, as the reference's
    per-element flag; an equality-only QP is solved directly and counts as polished)."""
    B = bt.q.shape[0]
    dev, dt = bt.q.device, bt.q.dtype
    if bt.G is None or bt.h is None:
        L = torch.linalg.cholesky(bt.Q)
        x, _, nu, _ = _ghost_solve(bt, L, -bt.q, torch.zeros((B, 0), dtype=torch.bool, device=dev))
        lam = torch.zeros((B, 0), dtype=dt, device=dev)
        res = _residual(bt, x, lam, nu)
        zero = torch.zeros(B, dtype=torch.long, device=dev)
        return x, lam, nu, zero, res <= cfg.tol, torch.ones(B, dtype=torch.bool, device=dev)
    x, lam, nu, iterations, converged = _pdipm(bt, cfg.tol, cfg.max_iter, cfg.mu_safeguard)
    res = _residual(bt, x, lam, nu)
    polished = torch.zeros(B, dtype=torch.bool, device=dev)
    if cfg.polish:
        slack = bt.h - _mv(bt.G, x)
        mask = lam > slack
        L = torch.linalg.cholesky(bt.Q)
        h_scale = 1.0 + _amax(bt.h)
        # the reference's repair rounds: add violated rows, drop negative multipliers, re-solve
        for _ in range(bt.m + 1):
            xp, lp, npol, ok = _ghost_solve(bt, L, -bt.q, mask)
            violated = ~mask & (
                _mv(bt.G, xp) - bt.h > (cfg.feasibility_tol * h_scale).unsqueeze(-1)
            )
            negative = mask & (lp < -(cfg.feasibility_tol * (1.0 + _amax(lp))).unsqueeze(-1))
            change = (violated | negative) & ok.unsqueeze(-1)
            if not bool(change.any()):
                break
            mask = (mask | change & violated) & ~(change & negative)
        feasible = (_mv(bt.G, xp) - bt.h).amax(-1) <= cfg.feasibility_tol * h_scale
        lp_min = lp.amin(-1) if bt.m else torch.zeros(B, dtype=dt, device=dev)
        dual_ok = lp_min >= -cfg.feasibility_tol * (1.0 + _amax(lp))
        lp = lp.clamp(min=0.0)
        res_p = _residual(bt, xp, lp, npol)
        take = ok & feasible & dual_ok & (res_p <= torch.clamp(res, min=cfg.tol))
        take &= torch.isfinite(xp).all(-1)
        x = torch.where(take.unsqueeze(-1), xp, x)
        lam = torch.where(take.unsqueeze(-1), lp, lam)
        nu = torch.where(take.unsqueeze(-1), npol, nu)
        res = torch.where(take, res_p, res)
        polished = take
    converged = res <= cfg.tol
    return x, lam, nu, iterations, converged, polished


def _element(bt: _Batch, i: int) -> tuple[Any, Any, Any, Any, Any, Any]:
    def np_(t: Tensor | None) -> Any:
        return None if t is None else t[i].detach().cpu().numpy()

    return (np_(bt.Q), np_(bt.q), np_(bt.G), np_(bt.h), np_(bt.A), np_(bt.b))


def _fallback_solutions(
    bt: _Batch,
    cfg: _ref.QPSolverConfig,
    x: Tensor,
    lam: Tensor,
    nu: Tensor,
    converged: Tensor,
    polished: Tensor | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """Re-solve non-converged elements with the reference (raises on infeasibility); their
    entries of ``polished`` (when given) become the reference's flag."""
    bad = torch.nonzero(~converged).flatten().tolist()
    if not bad:
        return x, lam, nu
    x, lam, nu = x.clone(), lam.clone(), nu.clone()
    for i in bad:
        sol = _ref.solve_qp(*_element(bt, i), config=cfg)
        x[i] = torch.as_tensor(np.array(sol.x), dtype=x.dtype, device=x.device)
        lam[i] = torch.as_tensor(np.array(sol.lam), dtype=x.dtype, device=x.device)
        nu[i] = torch.as_tensor(np.array(sol.nu), dtype=x.dtype, device=x.device)
        if polished is not None:
            polished[i] = sol.polished
    return x, lam, nu


def solve_qp(
    Q: ArrayLike | torch.Tensor,
    q: ArrayLike | torch.Tensor,
    G: ArrayLike | torch.Tensor | None = None,
    h: ArrayLike | torch.Tensor | None = None,
    A: ArrayLike | torch.Tensor | None = None,
    b: ArrayLike | torch.Tensor | None = None,
    *,
    config: _ref.QPSolverConfig | None = None,
    device: torch.device | str | None = None,
    dtype: torch.dtype = torch.float64,
) -> QPSolutionTorch:
    """Batched torch port of :func:`reference.qp_layers.solve_qp` (same iterates, polish).

    Elements that do not converge are re-solved by the numpy reference, which raises
    ``ValueError`` for an infeasible QP.

    Args:
        Q, q, G, h, A, b: as the reference (arrays or tensors; batched or not).
        config: :class:`reference.qp_layers.QPSolverConfig`.
        device: torch device of the outputs (default: CPU).
        dtype: computation dtype (float64 default).

    Returns:
        :class:`QPSolutionTorch` (``iterations``/``converged`` of the batched run).

    Raises:
        TypeError: non-numeric input.
        ValueError: bad shapes, non-finite values, ``Q`` not SPD, infeasible QP.

    Example:
        >>> sol = solve_qp([[1.0, 0.0], [0.0, 1.0]], [-2.0, -2.0], [[1.0, 1.0]], [1.0])
        >>> [round(v, 9) for v in sol.x.tolist()]
        [0.5, 0.5]
    """
    cfg = config if config is not None else _ref.QPSolverConfig()
    bt = _parse(Q, q, G, h, A, b, device, dtype)
    with torch.no_grad():
        x, lam, nu, iterations, converged, polished = _solve(bt, cfg)
        polished = polished.clone()
        x, lam, nu = _fallback_solutions(bt, cfg, x, lam, nu, converged, polished)
        slack = bt.h - _mv(bt.G, x) if bt.G is not None and bt.h is not None else lam
        residual = _residual(bt, x, lam, nu)  # of the returned point, as the reference
    if not bt.batched:
        x, lam, nu, slack = x[0], lam[0], nu[0], slack[0]
    return QPSolutionTorch(
        x=x,
        lam=lam,
        nu=nu,
        slack=slack,
        iterations=iterations,
        converged=converged,
        residual=residual,
        polished=polished,
    )


# ----------------------------------------------------------------------------- backward
def _lagrangian(bt: _Batch, y: Tensor, mu: Tensor, nu: Tensor) -> dict[str, Tensor]:
    out = {"Q": 0.5 * y.unsqueeze(-1) * y.unsqueeze(-2), "q": y}
    if bt.G is not None:
        out["G"] = mu.unsqueeze(-1) * y.unsqueeze(-2)
        out["h"] = -mu
    if bt.A is not None:
        out["A"] = nu.unsqueeze(-1) * y.unsqueeze(-2)
        out["b"] = -nu
    return out


def _slack_tol(bt: _Batch, slack_tol: float) -> Tensor:
    """``max(slack_tol, 64·eps(dtype)·(1 + ‖h‖∞))`` per element: in float32 the computed slack
    of an active row is ~1e-7, far above the float64 default 1e-8 (a no-op in float64)."""
    assert bt.h is not None
    eps = float(torch.finfo(bt.h.dtype).eps)
    return torch.clamp(64.0 * eps * (1.0 + _amax(bt.h)), min=slack_tol).unsqueeze(-1)


def _rank_deficient(bt: _Batch, mask: Tensor) -> Tensor:
    """``(B,)``: ``C = [G_mask; A]`` has more rows than ``n`` or its ``k``-th singular value
    (``k`` its row count) is ``<= tol·max(1, σ_1)``, the reference's rank test with
    ``tol = max(1e-10, 16·eps(dtype))`` (zeroed rows of ``G`` add only zero singular values)."""
    B = mask.shape[0]
    rows = []
    if bt.G is not None:
        rows.append(bt.G * mask.unsqueeze(-1))
    if bt.A is not None:
        rows.append(bt.A)
    if not rows:
        return torch.zeros(B, dtype=torch.bool, device=mask.device)
    C = torch.cat(rows, 1)
    k = mask.sum(-1) + bt.p
    sv = torch.linalg.svdvals(C)
    kth = sv.gather(-1, (k - 1).clamp(min=0, max=sv.shape[-1] - 1).unsqueeze(-1)).squeeze(-1)
    tol = max(1e-10, 16.0 * float(torch.finfo(C.dtype).eps))
    deficient: Tensor = (k > bt.n) | ((k > 0) & (kth <= tol * sv[:, 0].clamp(min=1.0)))
    return deficient


def _ffo_batched(
    bt: _Batch,
    x: Tensor,
    lam: Tensor,
    nu: Tensor,
    d: Tensor,
    alpha: float,
    cfg: _ref.FFOConfig,
) -> tuple[dict[str, Tensor], Tensor, int, bool]:
    """Spec 03 A2 (exact inner solve, forward or central difference), batched:
    ``(grads, frozen set I (B, m), inner iterations, inner solver converged)``."""
    B = x.shape[0]
    if bt.G is not None and bt.h is not None:
        slack = bt.h - _mv(bt.G, x)
        mask = (slack <= _slack_tol(bt, cfg.slack_tol)) & (lam >= cfg.dual_cutoff)
        degenerate = mask & (lam <= cfg.degenerate_tol)
    else:
        mask = torch.zeros((B, 0), dtype=torch.bool, device=x.device)
        degenerate = mask
    L = torch.linalg.cholesky(bt.Q)
    y1, mu1, nu1, ok = _ghost_solve(bt, L, -bt.q - d / alpha, mask)
    if cfg.difference == "central":
        y0, mu0, nu0, ok0 = _ghost_solve(bt, L, -bt.q + d / alpha, mask)
        ok = ok & ok0
        scale = 0.5 * alpha
    else:
        y0, mu0, nu0 = x, torch.where(mask, lam, torch.zeros_like(lam)), nu
        scale = alpha
    g1 = _lagrangian(bt, y1, mu1, nu1)
    g0 = _lagrangian(bt, y0, mu0, nu0)
    grads = {k: scale * (g1[k] - g0[k]) for k in g1}
    redo = (~ok) | degenerate.any(-1) | _rank_deficient(bt, mask)
    iterations, converged = 0, True  # the exact ghost solve: no inner iterations
    for i in torch.nonzero(redo).flatten().tolist():  # rank repair / warnings: the reference
        ref = _ref.ffo_grads(*_element(bt, i), d[i].detach().cpu().numpy(), alpha=alpha, config=cfg)
        for k, v in zip(_NAMES, ref.as_tuple(), strict=True):
            if v is not None:
                grads[k][i] = torch.as_tensor(np.array(v), dtype=x.dtype, device=x.device)
        if ref.active is not None:  # the rows kept after the reference's rank repair
            mask[i] = torch.as_tensor(np.array(ref.active), device=x.device)
        iterations = max(iterations, ref.iterations)
        converged = converged and ref.converged
    return grads, mask, iterations, converged


def _kkt_batched(
    bt: _Batch,
    x: Tensor,
    lam: Tensor,
    nu: Tensor,
    d: Tensor,
    slack_tol: float,
    degenerate_tol: float,
) -> tuple[dict[str, Tensor], Tensor]:
    """Spec 03 A1 in scaled unknowns ``d̃_λ = diag(λ) d_λ``: one dense batched solve.

    Returns ``(grads, active)``, ``active (B, m)`` the rows with ``λ*_i > 0`` or weakly active
    (treated as active)."""
    B, n = x.shape
    m, p = bt.m, bt.p
    size = n + m + p
    K = torch.zeros((B, size, size), dtype=x.dtype, device=x.device)
    K[:, :n, :n] = bt.Q
    active = torch.zeros((B, m), dtype=torch.bool, device=x.device)
    if bt.G is not None and bt.h is not None:
        slack = bt.h - _mv(bt.G, x)
        degenerate = (slack <= _slack_tol(bt, slack_tol)) & (lam <= degenerate_tol)
        active = (lam > 0) | degenerate
        if bool(degenerate.any()):
            warnings.warn(
                "weakly active rows (slack and multiplier ~ 0): y* is not differentiable "
                "there; treating them as active (one-sided gradient)",
                _ref.DegenerateQPWarning,
                stacklevel=3,
            )
        K[:, :n, n : n + m] = bt.G.mT
        weight = torch.where(degenerate, torch.ones_like(lam), lam)
        K[:, n : n + m, :n] = weight.unsqueeze(-1) * bt.G
        K[:, n : n + m, n : n + m] = torch.diag_embed(
            torch.where(degenerate, torch.zeros_like(slack), -slack)
        )
    if bt.A is not None:
        K[:, :n, n + m :] = bt.A.mT
        K[:, n + m :, :n] = bt.A
    rhs = torch.zeros((B, size), dtype=x.dtype, device=x.device)
    rhs[:, :n] = -d
    sol, info = torch.linalg.solve_ex(K, rhs)
    if bool((info != 0).any()):
        raise ValueError("KKT matrix is singular: the active constraints are linearly dependent")
    dz, dls, dnu = sol[:, :n], sol[:, n : n + m], sol[:, n + m :]
    dzx = dz.unsqueeze(-1) * x.unsqueeze(-2)
    grads = {"Q": 0.5 * (dzx + dzx.mT), "q": dz}
    if bt.G is not None:
        grads["G"] = dls.unsqueeze(-1) * x.unsqueeze(-2) + lam.unsqueeze(-1) * dz.unsqueeze(-2)
        grads["h"] = -dls
    if bt.A is not None:
        grads["A"] = dnu.unsqueeze(-1) * x.unsqueeze(-2) + nu.unsqueeze(-1) * dz.unsqueeze(-2)
        grads["b"] = -dnu
    return grads, active


def _reduce(bt: _Batch, grads: dict[str, Tensor]) -> dict[str, Tensor | None]:
    """Gradient of each parameter with its own shape (sum over a broadcast batch)."""
    out: dict[str, Tensor | None] = {}
    for k in _NAMES:
        if k not in grads:
            out[k] = None
            continue
        g = grads[k]
        if not bool(torch.isfinite(g).all()):
            raise ValueError(f"gradient of {k} is not finite (ill-conditioned KKT system)")
        out[k] = g if bt.flags[k] else g.sum(0)
    return out


def _as_grads(
    bt: _Batch,
    out: dict[str, Tensor | None],
    active: Tensor,
    iterations: int = 0,
    converged: bool = True,
) -> QPGradsTorch:
    """:class:`QPGradsTorch` of the reduced gradients; ``active (B, m)`` becomes the
    reference's ``(m,)`` for an unbatched call and ``None`` without ``G``."""
    Qg, qg = out["Q"], out["q"]
    assert Qg is not None
    assert qg is not None
    mask: Tensor | None = None
    if bt.m:
        mask = active if bt.batched else active[0]
    return QPGradsTorch(
        Q=Qg,
        q=qg,
        G=out["G"],
        h=out["h"],
        A=out["A"],
        b=out["b"],
        active=mask,
        iterations=iterations,
        converged=converged,
    )


def _grad_tensor(bt: _Batch, grad_x: object, device: Any, dtype: torch.dtype) -> Tensor:
    d = _tensor("grad_x", grad_x, 1, device, dtype)
    B = bt.q.shape[0]
    if d.shape[-1] != bt.n:
        raise ValueError(f"grad_x: expected last axis {bt.n}, got shape {tuple(d.shape)}")
    if d.dim() == 2 and (not bt.batched or d.shape[0] != B):
        raise ValueError(f"grad_x: expected shape ({bt.n},) or ({B}, {bt.n}), got {tuple(d.shape)}")
    return d if d.dim() == 2 else d.unsqueeze(0).expand(B, bt.n)


def kkt_grads(
    Q: ArrayLike | torch.Tensor,
    q: ArrayLike | torch.Tensor,
    G: ArrayLike | torch.Tensor | None,
    h: ArrayLike | torch.Tensor | None,
    A: ArrayLike | torch.Tensor | None,
    b: ArrayLike | torch.Tensor | None,
    grad_x: ArrayLike | torch.Tensor,
    *,
    slack_tol: float = _KKT_GRADS["slack_tol"],
    degenerate_tol: float = _KKT_GRADS["degenerate_tol"],
    device: torch.device | str | None = None,
    dtype: torch.dtype = torch.float64,
) -> QPGradsTorch:
    """Batched torch port of :func:`reference.qp_layers.kkt_grads` (forward solve included).

    The reference's ``solution`` keyword (a precomputed forward solve) is not taken: the
    forward solve always runs here, batched.

    Args:
        Q, q, G, h, A, b: as the reference (arrays or tensors; batched or not).
        grad_x: ``(n,)`` or ``(B, n)`` upstream gradient ``dL/dx``.
        slack_tol: slack threshold of the active set (default: the reference's).
        degenerate_tol: multiplier threshold of a degenerate active constraint (default: the
            reference's).
        device: torch device of the outputs (default: CPU).
        dtype: computation dtype (float64 default).

    Returns:
        :class:`QPGradsTorch` (each gradient with its parameter's shape; ``active`` marks the
        rows with ``λ*_i > 0`` or treated as active; ``iterations`` 0, ``converged`` true:
        the KKT system is solved directly).

    Raises:
        TypeError, ValueError: as the reference.
    """
    bt = _parse(Q, q, G, h, A, b, device, dtype)
    d = _grad_tensor(bt, grad_x, device, dtype)
    with torch.no_grad():
        cfg = _ref.QPSolverConfig()
        x, lam, nu, _, conv, _ = _solve(bt, cfg)
        x, lam, nu = _fallback_solutions(bt, cfg, x, lam, nu, conv)
        grads, active = _kkt_batched(
            bt, x, lam, nu, d, slack_tol=slack_tol, degenerate_tol=degenerate_tol
        )
        return _as_grads(bt, _reduce(bt, grads), active)


def ffo_grads(
    Q: ArrayLike | torch.Tensor,
    q: ArrayLike | torch.Tensor,
    G: ArrayLike | torch.Tensor | None,
    h: ArrayLike | torch.Tensor | None,
    A: ArrayLike | torch.Tensor | None,
    b: ArrayLike | torch.Tensor | None,
    grad_x: ArrayLike | torch.Tensor,
    *,
    alpha: float = _FFO_GRADS["alpha"],
    config: _ref.FFOConfig | None = None,
    device: torch.device | str | None = None,
    dtype: torch.dtype = torch.float64,
) -> QPGradsTorch:
    """Batched torch port of :func:`reference.qp_layers.ffo_grads` (exact inner solve).

    The reference's ``solution`` keyword is not taken (the forward solve always runs).

    ``config.inner="first_order"`` is not batched here: use :func:`ghost_pgd`.

    Returns:
        :class:`QPGradsTorch` (each gradient with its parameter's shape; ``active`` is the
        frozen set ``I``; ``iterations``/``converged`` report the inner solver: 0 / true for
        the exact ghost solve).

    Raises:
        TypeError, ValueError: as the reference (``alpha <= 0`` included).
    """
    a = require_positive("alpha", alpha)
    cfg = config if config is not None else _ref.FFOConfig()
    if cfg.inner != "exact":
        raise ValueError("config.inner: the torch path implements 'exact' only")
    bt = _parse(Q, q, G, h, A, b, device, dtype)
    d = _grad_tensor(bt, grad_x, device, dtype)
    with torch.no_grad():
        scfg = _ref.QPSolverConfig()
        x, lam, nu, _, conv, _ = _solve(bt, scfg)
        x, lam, nu = _fallback_solutions(bt, scfg, x, lam, nu, conv)
        grads, active, iterations, converged = _ffo_batched(bt, x, lam, nu, d, a, cfg)
        return _as_grads(bt, _reduce(bt, grads), active, iterations, converged)


def ghost_pgd(
    Q: ArrayLike | torch.Tensor,
    q: ArrayLike | torch.Tensor,
    C: object,
    c: object,
    grad_x: ArrayLike | torch.Tensor,
    y0: object,
    *,
    alpha: float,
    max_iter: int = _GHOST_PGD["max_iter"],
    device: torch.device | str | None = None,
    dtype: torch.dtype = torch.float64,
) -> Tensor:
    """The first ``max_iter`` PGD iterates of spec 03 A2-FO (torch), shape ``(K + 1, n)``.

    The torch counterpart of :func:`reference.qp_layers.ghost_pgd` with its stopping rule
    disabled (``tol = 0``: exactly ``max_iter`` steps) and ``record=True``: the returned
    tensor is the reference's ``history``.

    Args:
        Q, q, C, c, grad_x, y0: as the reference.
        alpha: ``α > 0``.
        max_iter: number of steps ``K >= 0``.
        device: torch device of the output (default: CPU).
        dtype: computation dtype (float64 default).

    Returns:
        ``(K + 1, n)`` tensor of iterates ``y_0..y_K``.

    Raises:
        ValueError: non-positive ``alpha`` or negative ``max_iter``.
    """
    a = require_positive("alpha", alpha)
    if max_iter < 0:
        raise ValueError(f"max_iter: expected an integer >= 0, got {max_iter}")

    def t(name: str, v: object) -> Tensor:
        return torch.as_tensor(as_float_array(name, v), device=device, dtype=dtype)

    Qt, qt, dt, y = t("Q", Q), t("q", q), t("grad_x", grad_x), t("y0", y0)
    n = qt.shape[0]
    eye = torch.eye(n, dtype=dtype, device=Qt.device)
    proj = eye - torch.linalg.pinv(t("C", C)) @ t("C", C) if C is not None else eye
    eta = 1.0 / torch.linalg.eigvalsh(0.5 * (Qt + Qt.mT))[-1]
    tilt = qt + dt / a
    out = [y]
    for _ in range(max_iter):
        y = y - eta * (proj @ (Qt @ y + tilt))
        out.append(y)
    del c
    return torch.stack(out)


# -------------------------------------------------------------------------- autograd layer
@dataclass(frozen=True, slots=True, kw_only=True)
class _Settings:
    alpha: float
    backward: Literal["ffo", "kkt"]
    ffo: _ref.FFOConfig
    solver: _ref.QPSolverConfig


class _QPFunction(torch.autograd.Function):
    """Forward: batched PDIPM; backward: FFO (spec 03 A2) or dense KKT (A1)."""

    @staticmethod
    def forward(
        ctx: Any,
        settings: _Settings,
        Q: Tensor,
        q: Tensor,
        G: Tensor | None,
        h: Tensor | None,
        A: Tensor | None,
        b: Tensor | None,
    ) -> Tensor:
        bt = _parse(Q, q, G, h, A, b, Q.device, Q.dtype)
        x, lam, nu, _, conv, _ = _solve(bt, settings.solver)
        x, lam, nu = _fallback_solutions(bt, settings.solver, x, lam, nu, conv)
        ctx.settings = settings
        ctx.bt = bt
        ctx.save_for_backward(x, lam, nu)
        return x if bt.batched else x[0]

    @staticmethod
    def backward(ctx: Any, grad_out: Tensor) -> tuple[Tensor | None, ...]:
        settings: _Settings = ctx.settings
        bt: _Batch = ctx.bt
        x, lam, nu = ctx.saved_tensors
        d = grad_out if grad_out.dim() == 2 else grad_out.unsqueeze(0)
        d = d.expand(x.shape[0], bt.n)
        if settings.backward == "ffo":
            grads = _ffo_batched(bt, x, lam, nu, d, settings.alpha, settings.ffo)[0]
        else:
            grads, _ = _kkt_batched(
                bt, x, lam, nu, d, settings.ffo.slack_tol, settings.ffo.degenerate_tol
            )
        out = _reduce(bt, grads)
        return (None, *(out[k] for k in _NAMES))


def qp_layer(
    Q: Tensor,
    q: Tensor,
    G: Tensor | None = None,
    h: Tensor | None = None,
    A: Tensor | None = None,
    b: Tensor | None = None,
    *,
    alpha: float = 100.0,
    backward: Literal["ffo", "kkt"] = "ffo",
    ffo_config: _ref.FFOConfig | None = None,
    solver_config: _ref.QPSolverConfig | None = None,
) -> Tensor:
    """Differentiable QP solution ``x*(Q, q, G, h, A, b)`` (functional form of the layer).

    Args:
        Q, q, G, h, A, b: tensors (qpth convention; ``None`` for absent blocks).
        alpha: FFO ``α > 0`` (public default 100).
        backward: ``"ffo"`` (spec 03 A2) or ``"kkt"`` (exact, spec 03 A1).
        ffo_config: active-set thresholds and difference scheme (exact inner solve).
        solver_config: forward-solve settings.

    Returns:
        ``(n,)`` or ``(B, n)`` tensor with the dtype/device of ``Q``.

    Raises:
        ValueError: bad input, infeasible QP, ``alpha <= 0``, unknown ``backward``.
    """
    a = require_positive("alpha", alpha)
    if backward not in ("ffo", "kkt"):
        raise ValueError(f"backward: expected 'ffo' or 'kkt', got {backward!r}")
    fcfg = ffo_config if ffo_config is not None else _ref.FFOConfig()
    if fcfg.inner != "exact":
        raise ValueError("ffo_config.inner: the torch layer implements 'exact' only")
    settings = _Settings(
        alpha=a,
        backward=backward,
        ffo=fcfg,
        solver=solver_config if solver_config is not None else _ref.QPSolverConfig(),
    )
    out: Tensor = _QPFunction.apply(settings, Q, q, G, h, A, b)  # type: ignore[no-untyped-call]
    return out


class FFOQPLayer(torch.nn.Module):
    """QP layer ``x*(Q, q, G, h, A, b)`` with the FFOLayer backward (qpth-style call).

    Example:
        >>> layer = FFOQPLayer(alpha=100.0)
        >>> Q = torch.eye(2, dtype=torch.float64)
        >>> q = torch.tensor([-2.0, -2.0], dtype=torch.float64, requires_grad=True)
        >>> G = torch.tensor([[1.0, 1.0]], dtype=torch.float64)
        >>> h = torch.tensor([1.0], dtype=torch.float64)
        >>> x = layer(Q, q, G, h)
        >>> x.sum().backward()
        >>> [round(v, 9) for v in q.grad.tolist()]
        [0.0, 0.0]

    Args:
        alpha: FFO ``α`` (public default 100).
        backward: ``"ffo"`` (default) or ``"kkt"`` (exact implicit differentiation).
        ffo_config: :class:`reference.qp_layers.FFOConfig` (exact inner solve).
        solver_config: :class:`reference.qp_layers.QPSolverConfig`.
    """

    def __init__(
        self,
        alpha: float = 100.0,
        *,
        backward: Literal["ffo", "kkt"] = "ffo",
        ffo_config: _ref.FFOConfig | None = None,
        solver_config: _ref.QPSolverConfig | None = None,
    ) -> None:
        super().__init__()
        self.alpha = require_positive("alpha", alpha)
        if backward not in ("ffo", "kkt"):
            raise ValueError(f"backward: expected 'ffo' or 'kkt', got {backward!r}")
        self.backward_mode: Literal["ffo", "kkt"] = backward
        self.ffo_config = ffo_config
        self.solver_config = solver_config

    def forward(
        self,
        Q: Tensor,
        q: Tensor,
        G: Tensor | None = None,
        h: Tensor | None = None,
        A: Tensor | None = None,
        b: Tensor | None = None,
    ) -> Tensor:
        """Solve the (batched) QP; gradients flow to every tensor argument."""
        return qp_layer(
            Q,
            q,
            G,
            h,
            A,
            b,
            alpha=self.alpha,
            backward=self.backward_mode,
            ffo_config=self.ffo_config,
            solver_config=self.solver_config,
        )
