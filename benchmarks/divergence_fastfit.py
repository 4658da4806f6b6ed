"""Benchmark fast paths for spec 13's E1 grid: the reference estimators' exact rules, cheaper.

* :func:`rff_radii_estimate` is :func:`reference.divergence.estimate_alpha_divergence` run once per
  radius with the same generator seed (the E1 grid's way: every radius gets ``default_rng([seed,
  1])``, hence the same bandwidth, features, split and batches), done in one pass: the batches are
  gathered once for all radii, the Armijo trial points reuse ``z_B w`` and ``z_B g`` (φ is linear in
  θ, and the projection only rescales w), and the full-sample objective is evaluated only over the
  last ``tail`` iterations (the reference evaluates it every iteration, but E1 reads only the tail,
  for the oscillation, and the final value).
* :func:`gram_estimate` is :func:`reference.divergence.gram_alpha_divergence` through the same loop.
* :func:`neural_critic_batch` is :func:`reference.divergence.fast_torch.neural_critic_estimate` for
  several seeds at once: the MLPs are stacked (batched matmuls), initialised from the same
  ``torch.manual_seed(seed)`` modules and fed the same batches from each seed's generator; Adam is
  elementwise, so the stack is the separate runs.

Equality with the references (to rounding, at toy size) is the gate test
``tests/test_benchmarks_divergence_e1_grid.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from reference import divergence as dv
from reference.divergence.estimators import PHI_CLIP, ArmijoConfig

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class MultiFit:
    """Outcome of :func:`armijo_multi` for S runs x K radii: w ``(S, W, K)``, c ``(S, K)``, tail
    values ``(tail, S, K)``."""

    w: FloatArray
    c: FloatArray
    tail_values: FloatArray


def _objective(px: FloatArray, py: FloatArray, a: float) -> FloatArray:
    """Ĵ per (run, radius) from unclipped φ ``(S, n, K)`` and ``(S, m, K)`` on the two samples."""
    cx = np.clip(px, -PHI_CLIP, PHI_CLIP)
    cy = np.clip(py, -PHI_CLIP, PHI_CLIP)
    out: FloatArray = np.mean(np.expm1((a - 1.0) * cx), axis=1) / (a - 1.0) - np.mean(
        np.expm1(a * cy), axis=1
    ) / a
    return out


def armijo_multi(
    zx: FloatArray,
    zy: FloatArray,
    alpha: float,
    radii: tuple[float, ...],
    *,
    config: ArmijoConfig,
    rngs: list[np.random.Generator],
    tail: int,
) -> MultiFit:
    """Mini-batch projected Armijo-SGD (spec 13, §3.2) for S runs x K radii at once.

    ``zx`` ``(S, n, W)`` and ``zy`` ``(S, m, W)``: run s's features; its batches come from
    ``rngs[s]`` in the reference's order (x batch, then y batch), shared by the K radii, which is
    what each radius's own reference run draws (the draws do not depend on θ).  Per (run, radius)
    the rule is :func:`reference.divergence.armijo_ascent`'s.
    """
    if config.batch_size is None:
        raise ValueError("config: expected a mini-batch configuration")
    a = float(alpha)
    runs, nx, width = zx.shape
    ny = zy.shape[1]
    k = len(radii)
    r = np.asarray(radii, dtype=np.float64)[None, :]
    w = np.zeros((runs, width, k))
    c = np.zeros((runs, k))
    eta_prev = np.full((runs, k), config.max_step_size)
    tail_values: list[FloatArray] = []
    bx_size, by_size = min(config.batch_size, nx), min(config.batch_size, ny)
    rows = np.arange(runs)[:, None]
    ix = np.empty((runs, bx_size), dtype=np.intp)
    iy = np.empty((runs, by_size), dtype=np.intp)
    for t in range(config.max_iter):
        for s, rng in enumerate(rngs):
            ix[s] = rng.choice(nx, size=bx_size, replace=False)
            iy[s] = rng.choice(ny, size=by_size, replace=False)
        bx, by = zx[rows, ix], zy[rows, iy]
        zwx, zwy = bx @ w, by @ w
        px, py = zwx + c[:, None, :], zwy + c[:, None, :]
        ex = np.exp((a - 1.0) * np.clip(px, -PHI_CLIP, PHI_CLIP)) / bx_size
        ey = np.exp(a * np.clip(py, -PHI_CLIP, PHI_CLIP)) / by_size
        gw = bx.transpose(0, 2, 1) @ ex - by.transpose(0, 2, 1) @ ey
        gc = ex.sum(axis=1) - ey.sum(axis=1)
        base = _objective(px, py, a)
        ux, uy = bx @ gw, by @ gw
        eta = np.minimum(config.max_step_size, 2.0 * eta_prev)
        done = np.zeros((runs, k), dtype=bool)
        new_w, new_c = w.copy(), c.copy()
        for attempt in range(config.max_backtracks + 1):
            trial = w + eta[:, None, :] * gw
            norm = np.linalg.norm(trial, axis=1)
            scale = np.where(norm > r, r / np.where(norm > 0, norm, 1.0), 1.0)
            cand_w = trial * scale[:, None, :]
            cand_c = c + eta * gc
            value = _objective(
                scale[:, None, :] * (zwx + eta[:, None, :] * ux) + cand_c[:, None, :],
                scale[:, None, :] * (zwy + eta[:, None, :] * uy) + cand_c[:, None, :],
                a,
            )
            step_sq = (np.sum((cand_w - w) ** 2, axis=1) + (cand_c - c) ** 2) / eta**2
            accept = (value >= base + config.armijo_c * eta * step_sq) & ~done
            take = accept | (~done & (attempt == config.max_backtracks))
            new_w = np.where(take[:, None, :], cand_w, new_w)
            new_c = np.where(take, cand_c, new_c)
            done |= take
            if done.all():
                break
            eta = np.where(done, eta, eta * config.backtrack)
        w, c, eta_prev = new_w, new_c, eta
        if t >= config.max_iter - tail:
            tail_values.append(_objective(zx @ w + c[:, None, :], zy @ w + c[:, None, :], a))
    return MultiFit(w=w, c=c, tail_values=np.array(tail_values))


@dataclass(frozen=True)
class RadiusResult:
    """One (seed, radius): held-out Ĵ, final in-sample Ĵ, sd of the in-sample Ĵ over the tail."""

    radius: float
    value_heldout: float
    value: float
    oscillation: float


def _split(
    xs: FloatArray, ys: FloatArray, rng: np.random.Generator
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    px, py = rng.permutation(xs.shape[0]), rng.permutation(ys.shape[0])
    hx, hy = xs.shape[0] // 2, ys.shape[0] // 2
    return xs[px[:hx]], xs[px[hx:]], ys[py[:hy]], ys[py[hy:]]


def _results(
    fit: MultiFit, radii: tuple[float, ...], tx: FloatArray, ty: FloatArray, a: float
) -> list[list[RadiusResult]]:
    held = _objective(tx @ fit.w + fit.c[:, None, :], ty @ fit.w + fit.c[:, None, :], a)
    return [
        [
            RadiusResult(
                radius=radius,
                value_heldout=float(held[s, i]),
                value=float(fit.tail_values[-1, s, i]),
                oscillation=float(np.std(fit.tail_values[:, s, i])),
            )
            for i, radius in enumerate(radii)
        ]
        for s in range(held.shape[0])
    ]


def rff_radii_estimate(
    pairs: list[tuple[FloatArray, FloatArray]],
    alpha: float,
    *,
    seed_rngs: list[tuple[int, ...]],
    radii: tuple[float, ...],
    num_features: int,
    iterations: int,
    tail: int,
    batch_size: int = 256,
) -> list[list[RadiusResult]]:
    """For each run s and radius R: ``estimate_alpha_divergence(x_s, y_s, alpha,
    rng=default_rng(seed_rngs[s]), num_features=D, config=ArmijoConfig(radius=R, max_iter=T,
    batch_size=256))``; result ``[s][radius index]``."""
    rngs = [np.random.default_rng(list(seed)) for seed in seed_rngs]
    fx, fy, tx, ty = [], [], [], []
    for (x, y), rng in zip(pairs, rngs, strict=True):
        sigma = dv.median_heuristic(x, y, rng=rng)
        feats = dv.make_rff(x.shape[1], num_features, sigma=sigma, rng=rng)
        fit_x, test_x, fit_y, test_y = _split(x, y, rng)
        fx.append(feats.transform(fit_x))
        fy.append(feats.transform(fit_y))
        tx.append(feats.transform(test_x))
        ty.append(feats.transform(test_y))
    cfg = ArmijoConfig(radius=max(radii), max_iter=iterations, batch_size=batch_size)
    fit = armijo_multi(np.stack(fx), np.stack(fy), alpha, radii, config=cfg, rngs=rngs, tail=tail)
    return _results(fit, radii, np.stack(tx), np.stack(ty), alpha)


def gram_estimate(
    pairs: list[tuple[FloatArray, FloatArray]],
    alpha: float,
    *,
    seed_rngs: list[tuple[int, ...]],
    radius: float,
    iterations: int,
    tail: int,
    batch_size: int = 256,
) -> list[RadiusResult]:
    """For each run s: ``gram_alpha_divergence(x_s, y_s, alpha, rng=default_rng(seed_rngs[s]),
    config=ArmijoConfig(radius=R, max_iter=T, batch_size=256))``."""
    rngs = [np.random.default_rng(list(seed)) for seed in seed_rngs]
    fx, fy, tx, ty = [], [], [], []
    for (x, y), rng in zip(pairs, rngs, strict=True):
        sigma = dv.median_heuristic(x, y, rng=rng)
        fit_x, test_x, fit_y, test_y = _split(x, y, rng)
        feats = dv.make_gram_features(np.vstack([fit_x, fit_y]), sigma=sigma)
        fx.append(feats.transform(fit_x))
        fy.append(feats.transform(fit_y))
        tx.append(feats.transform(test_x))
        ty.append(feats.transform(test_y))
    cfg = ArmijoConfig(radius=radius, max_iter=iterations, batch_size=batch_size)
    fit = armijo_multi(np.stack(fx), np.stack(fy), alpha, (radius,), config=cfg, rngs=rngs, tail=tail)
    return [row[0] for row in _results(fit, (radius,), np.stack(tx), np.stack(ty), alpha)]


@dataclass(frozen=True)
class NeuralBatch:
    """:func:`neural_critic_batch`: held-out Ĵ ``(S,)`` and mini-batch curves ``(S, steps)``."""

    value_heldout: FloatArray
    curves: FloatArray


def neural_critic_batch(
    xs: list[FloatArray],
    ys: list[FloatArray],
    alpha: float,
    *,
    seeds: list[int],
    iterations: int,
    hidden: int = 64,
    batch_size: int = 256,
    learning_rate: float = 1e-3,
) -> NeuralBatch:
    """``neural_critic_estimate(xs[s], ys[s], alpha, generator=seeds[s], ...)`` for every s, stacked."""
    import torch

    a = float(alpha)
    count = len(seeds)
    n, d = xs[0].shape
    m = ys[0].shape[0]
    hx, hy = n // 2, m // 2
    rngs = [np.random.default_rng(seed) for seed in seeds]
    fit_x, test_x, fit_y, test_y = [], [], [], []
    weights: list[list[torch.Tensor]] = [[] for _ in range(6)]
    for s, seed in enumerate(seeds):
        torch.manual_seed(seed)
        px, py = rngs[s].permutation(n), rngs[s].permutation(m)
        fit_x.append(xs[s][px[:hx]])
        test_x.append(xs[s][px[hx:]])
        fit_y.append(ys[s][py[:hy]])
        test_y.append(ys[s][py[hy:]])
        net = torch.nn.Sequential(
            torch.nn.Linear(d, hidden), torch.nn.Tanh(), torch.nn.Linear(hidden, hidden),
            torch.nn.Tanh(), torch.nn.Linear(hidden, 1),
        ).double()
        layers = [net[0], net[2], net[4]]
        for i, layer in enumerate(layers):
            assert isinstance(layer, torch.nn.Linear)
            weights[2 * i].append(layer.weight.detach().T.clone())
            weights[2 * i + 1].append(layer.bias.detach().clone())
    params = [torch.stack(p).requires_grad_(True) for p in weights]
    tfx = torch.tensor(np.stack(fit_x))
    tfy = torch.tensor(np.stack(fit_y))
    optimizer = torch.optim.Adam(params, lr=learning_rate)

    def critic(z: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(torch.baddbmm(params[1][:, None, :], z, params[0]))
        h = torch.tanh(torch.baddbmm(params[3][:, None, :], h, params[2]))
        out: torch.Tensor = torch.baddbmm(params[5][:, None, :], h, params[4]).squeeze(-1)
        return out

    def objective(bx: torch.Tensor, by: torch.Tensor) -> torch.Tensor:
        phx = torch.clamp(critic(bx), -PHI_CLIP, PHI_CLIP)
        phy = torch.clamp(critic(by), -PHI_CLIP, PHI_CLIP)
        return torch.expm1((a - 1.0) * phx).mean(dim=1) / (a - 1.0) - torch.expm1(a * phy).mean(dim=1) / a

    rows = torch.arange(count)[:, None]
    curves = np.empty((count, iterations))
    bsx, bsy = min(batch_size, hx), min(batch_size, hy)
    for t in range(iterations):
        ix = np.empty((count, bsx), dtype=np.int64)
        iy = np.empty((count, bsy), dtype=np.int64)
        for s in range(count):
            ix[s] = rngs[s].choice(hx, size=bsx, replace=False)
            iy[s] = rngs[s].choice(hy, size=bsy, replace=False)
        value = objective(tfx[rows, torch.as_tensor(ix)], tfy[rows, torch.as_tensor(iy)])
        optimizer.zero_grad()
        (-value.sum()).backward()  # type: ignore[no-untyped-call]
        optimizer.step()
        curves[:, t] = value.detach().numpy()
    with torch.no_grad():
        held = objective(torch.tensor(np.stack(test_x)), torch.tensor(np.stack(test_y)))
    return NeuralBatch(value_heldout=held.numpy().astype(np.float64), curves=curves)


def relative_gap(a: float, b: float) -> float:
    """|a - b| / max(1, |b|): the comparison scale of the gate test."""
    return abs(a - b) / max(1.0, math.fabs(b))


def main() -> None:
    """Print CPU seconds of the fast path vs the reference runs it replaces (one E1 cell, 2 seeds)."""
    import time

    from benchmarks._env import environment_line

    rng = np.random.default_rng(0)
    cov = np.diag([2.0, 0.5])
    pairs = [(rng.standard_normal((2000, 2)), rng.multivariate_normal([1.0, 0.0], cov, size=2000))
             for _ in range(2)]
    radii = (1.0, 3.0, 10.0)
    c0 = time.process_time()
    rff_radii_estimate(pairs, 0.5, seed_rngs=[(s, 1) for s in range(2)], radii=radii, num_features=512,
                       iterations=500, tail=250)
    fast = time.process_time() - c0
    c0 = time.process_time()
    for s, (x, y) in enumerate(pairs):
        for radius in radii:
            dv.estimate_alpha_divergence(x, y, 0.5, rng=np.random.default_rng([s, 1]), num_features=512,
                                         config=ArmijoConfig(radius=radius, max_iter=500, batch_size=256))
    print(f"{environment_line()}\nn = 2000, D = 512, T = 500, 2 seeds x 3 radii: fast {fast:.2f} s CPU, "
          f"reference {time.process_time() - c0:.2f} s CPU")


if __name__ == "__main__":
    from benchmarks._env import pin_blas

    pin_blas(1)
    main()
