"""Spec 14 (Lions and Muons as stochastic Frank-Wolfe, ICML 2026): the derived identities of §4-5.

The paper's rates were not retrieved (spec 14 §4.3): they are benchmark figures, not
asserted here.  Checked, on real runs:

* :func:`lion_sfw_equivalence` (E1) and :func:`muon_sfw_equivalence` (E2);
* :func:`lmo_optimality` — ``<d, LMO(d)> = -r ||d||_*`` and ``<= <d, v>`` for v in C;
* :func:`gap_kkt_split` — the gap equals the sum of two non-negative KKT residuals;
* :func:`sfw_feasibility` — the geometric pull into the ball;
* :func:`sfw_gap_bound` — the descent-lemma bound on ``min_t gap`` (constant and adaptive
  step sizes) against the exact box-constrained minimum (3^d enumeration);
* :func:`ns_spectral_identity` — NS5 acts on singular values by ``phi^(5)``.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Literal

import numpy as np

from proofs_numeric._registry import ProveProfile, register, worst
from proofs_numeric._result import BoundCheck
from reference._arrays import FloatArray
from reference.optimizers import (
    Optimizer,
    apply_updates,
    dual_norm,
    fw_gap,
    fw_gap_split,
    lion,
    lmo,
    muon,
    newton_schulz,
    norm,
    ns_scalar_map,
    sfw,
)
from reference.optimizers_fw import LionConfig, MuonConfig, make_sfw

__all__ = [
    "PAPER",
    "box_qp_minimum",
    "gap_kkt_split",
    "lion_sfw_equivalence",
    "lmo_optimality",
    "muon_sfw_equivalence",
    "ns_spectral_identity",
    "sfw_feasibility",
    "sfw_gap_bound",
]

PAPER = "Sfyraki & Wang, Lions and Muons (ICML 2026; spec 14)"


def _trajectory(opt: Optimizer[Any], x0: FloatArray, grads: list[FloatArray]) -> list[FloatArray]:
    x, state, out = x0, opt.init(x0), [x0]
    for g in grads:
        u, state = opt.update(g, state, x)
        x = apply_updates(x, np.asarray(u))
        out.append(x)
    return out


def lion_sfw_equivalence(*, d: int, steps: int, lr: float, wd: float, seed: int) -> BoundCheck:
    """E1: Lion with weight decay = SFW on ``{||x||_inf <= 1/lambda}``, ``gamma = eta lambda``.

    Random gradient stream, same betas; measured max |x_t(Lion) - x_t(SFW)|; atol 1e-12.
    """
    rng = np.random.default_rng(seed)
    grads = [rng.normal(size=d) * rng.uniform(0.1, 3.0) for _ in range(steps)]
    x0 = rng.normal(size=d)
    a = _trajectory(lion(learning_rate=lr, weight_decay=wd), x0, grads)
    b = _trajectory(make_sfw(LionConfig(learning_rate=lr, weight_decay=wd).to_sfw()), x0, grads)
    diff = max(float(np.max(np.abs(p - q))) for p, q in zip(a, b, strict=True))
    return BoundCheck(
        claim="Lion(eta, lambda) iterates = SFW iterates on the l_inf ball of radius 1/lambda",
        paper=PAPER,
        theorem="§4.1 E1 (Theorem 1 in spirit)",
        measured=diff,
        bound=0.0,
        sense="==",
        atol=1e-12,
        params={"d": d, "T": steps, "eta": lr, "lambda": wd, "seed": seed},
    )


def muon_sfw_equivalence(
    *, m: int, n: int, steps: int, lr: float, wd: float, nesterov: bool, seed: int
) -> BoundCheck:
    """E2: exact-polar Muon = SFW on ``{||W||_2 <= s/lambda}`` (beta1 = mu^2 with Nesterov).

    Measured max |W_t(Muon) - W_t(SFW)|; atol 1e-10 (spec 14 E2, float64).
    """
    rng = np.random.default_rng(seed)
    grads = [rng.normal(size=(m, n)) for _ in range(steps)]
    w0 = rng.normal(size=(m, n))
    config = MuonConfig(learning_rate=lr, weight_decay=wd, nesterov=nesterov, exact_polar=True)
    a = _trajectory(
        muon(learning_rate=lr, weight_decay=wd, nesterov=nesterov, exact_polar=True), w0, grads
    )
    b = _trajectory(make_sfw(config.to_sfw()), w0, grads)
    diff = max(float(np.max(np.abs(p - q))) for p, q in zip(a, b, strict=True))
    return BoundCheck(
        claim="exact-polar Muon iterates = SFW iterates on the spectral ball of radius s/lambda",
        paper=PAPER,
        theorem="§4.1 E2 (Theorem 2 in spirit)",
        measured=diff,
        bound=0.0,
        sense="==",
        atol=1e-10,
        params={"m": m, "n": n, "T": steps, "nesterov": nesterov, "seed": seed},
    )


Which = Literal["linf", "spectral", "l2", "l1"]


def _ball_points(
    rng: np.random.Generator, shape: tuple[int, ...], r: float, which: Which, count: int
) -> list[FloatArray]:
    out = []
    for _ in range(count):
        v = rng.normal(size=shape)
        if rng.random() < 0.3 and which == "linf":
            v = np.sign(v)  # a vertex
        nv = norm(v, which)
        out.append(v * (r * rng.uniform(0.2, 1.0) / nv) if nv > 0 else v)
    return out


def lmo_optimality(*, which: Which, shape: tuple[int, ...], radius: float, seed: int) -> BoundCheck:
    """LMO optimality: ``<d, LMO(d)> = -r ||d||_*`` and ``<d, LMO(d)> <= <d, v>`` for v in C.

    Measured: ``max(|<d, LMO> + r||d||_*|, max_v <d, LMO> - <d, v>)``, which must be <= 0
    up to ``atol = 1e-10 * r ||d||_*``.
    """
    rng = np.random.default_rng(seed)
    d = rng.normal(size=shape)
    v_star = lmo(d, radius=radius, which=which)
    value = float(np.vdot(d, v_star))
    dual = dual_norm(d, which)
    excess = max(float(value - np.vdot(d, v)) for v in _ball_points(rng, shape, radius, which, 50))
    measured = max(abs(value + radius * dual), excess)
    return BoundCheck(
        claim="<d, LMO(d)> = -r ||d||_* <= <d, v> for all v in C",
        paper=PAPER,
        theorem="§4.2 LMO optimality",
        measured=measured,
        bound=0.0,
        sense="<=",
        atol=1e-10 * max(1.0, radius * dual),
        params={"norm": which, "shape": shape, "radius": radius, "seed": seed},
    )


def gap_kkt_split(*, which: Which, shape: tuple[int, ...], radius: float, seed: int) -> BoundCheck:
    """Gap formula and KKT split: ``gap = ||g||_*(r - ||x||) + (<g,x> + ||g||_* ||x||)``, both >= 0.

    Also ``gap >= <g, x - v>`` for sampled ``v in C``.  Measured: the most negative of the
    two terms, ``|gap - sum|`` and ``max_v <g, x - v> - gap`` (sign-flipped so that the
    claim is ``>= 0``); ``atol = 1e-10 * scale``.
    """
    rng = np.random.default_rng(seed)
    g = rng.normal(size=shape)
    (x,) = _ball_points(rng, shape, radius, which, 1)
    gap = fw_gap(g, x, radius, which)
    slack, align = fw_gap_split(g, x, radius, which)
    lower = max(float(np.vdot(g, x - v)) for v in _ball_points(rng, shape, radius, which, 50))
    measured = min(slack, align, -abs(gap - slack - align), gap - lower)
    scale = max(1.0, radius * dual_norm(g, which))
    return BoundCheck(
        claim="FW gap = slackness + alignment residuals, both >= 0; gap >= <g, x - v>",
        paper=PAPER,
        theorem="§4.2 gap formula and KKT split",
        measured=measured,
        bound=0.0,
        sense=">=",
        atol=1e-10 * scale,
        params={"norm": which, "shape": shape, "radius": radius, "seed": seed},
    )


def sfw_feasibility(*, d: int, steps: int, gamma: float, radius: float, seed: int) -> BoundCheck:
    """Feasibility / geometric pull: ``||x_t|| <= (1-gamma)^t ||x_0|| + (1 - (1-gamma)^t) r``.

    SFW on the l_inf ball with a random gradient stream, from a start outside (or inside) C;
    measured ``max_t ||x_t||_inf - bound_t``; ``atol = 1e-12 * max(r, ||x_0||)``.
    """
    rng = np.random.default_rng(seed)
    x0 = rng.normal(size=d) * radius * rng.choice([0.5, 3.0])
    grads = [rng.normal(size=d) for _ in range(steps)]
    xs = _trajectory(sfw(which="linf", radius=radius, step_size=gamma, b1=0.5, b2=0.9), x0, grads)
    n0 = norm(x0, "linf")
    excess = max(
        norm(x, "linf") - ((1 - gamma) ** t * n0 + (1 - (1 - gamma) ** t) * radius)
        for t, x in enumerate(xs)
    )
    return BoundCheck(
        claim="||x_t|| <= (1-gamma)^t ||x_0|| + (1 - (1-gamma)^t) r (x_t in C once x_0 in C)",
        paper=PAPER,
        theorem="§4.2 feasibility",
        measured=excess,
        bound=0.0,
        sense="<=",
        atol=1e-12 * max(radius, n0),
        params={"d": d, "T": steps, "gamma": gamma, "r": radius, "seed": seed},
    )


def box_qp_minimum(q: FloatArray, c: FloatArray, radius: float) -> float:
    """``min_{||x||_inf <= r} x^T Q x / 2 + c^T x`` by enumerating all 3^d active-set patterns.

    Each coordinate is at ``-r``, at ``+r`` or free; the free block solves its linear system
    (skipped when singular); infeasible candidates are discarded.  Exact for ``d <= 8``.
    """
    d = c.size
    best = math.inf
    for pattern in itertools.product((-1, 0, 1), repeat=d):
        x = np.array([p * radius for p in pattern], dtype=np.float64)
        free = [i for i, p in enumerate(pattern) if p == 0]
        if free:
            fixed = [i for i, p in enumerate(pattern) if p != 0]
            a = q[np.ix_(free, free)]
            rhs = -(c[free] + q[np.ix_(free, fixed)] @ x[fixed])
            try:
                sol = np.linalg.solve(a, rhs)
            except np.linalg.LinAlgError:
                continue
            if np.max(np.abs(sol)) > radius * (1 + 1e-12):
                continue
            x[free] = sol
        best = min(best, float(0.5 * x @ q @ x + c @ x))
    return best


def sfw_gap_bound(*, d: int, steps: int, radius: float, seed: int, adaptive: bool) -> BoundCheck:
    """Descent-lemma bound for deterministic SFW on an indefinite box-constrained quadratic.

    With ``L = ||Q||_2`` and ``D = 2 r sqrt(d)`` (both Euclidean), ``h_0 = f(x_0) - min_C f``
    (exact by 3^d enumeration):

    * ``gamma = 1/sqrt(T + 1)``: ``min_{t <= T} gap_t <= (h_0 + L D^2/2) / sqrt(T + 1)``;
    * ``gamma_t = min(gap_t / (L D^2), 1)``: ``min_t gap <= max(2 h_0, L D^2) / sqrt(T + 1)``.

    Error budget ``rtol = 1e-9``.
    """
    rng = np.random.default_rng(seed)
    b = rng.normal(size=(d, d))
    q = (b + b.T) / 2.0  # indefinite
    c = rng.normal(size=d)
    lip = float(np.linalg.norm(q, 2))
    diam = 2.0 * radius * math.sqrt(d)
    x = rng.uniform(-radius, radius, size=d)
    h0 = float(0.5 * x @ q @ x + c @ x) - box_qp_minimum(q, c, radius)
    gaps = []
    for _ in range(steps + 1):
        g = q @ x + c
        gap = fw_gap(g, x, radius, "linf")
        gaps.append(gap)
        gamma = min(gap / (lip * diam**2), 1.0) if adaptive else 1.0 / math.sqrt(steps + 1)
        v = lmo(g, radius=radius, which="linf") if np.any(g != 0) else x
        x = x + gamma * (v - x)
    if adaptive:
        bound = max(2.0 * h0, lip * diam**2) / math.sqrt(steps + 1)
    else:
        bound = (h0 + lip * diam**2 / 2.0) / math.sqrt(steps + 1)
    return BoundCheck(
        claim=("adaptive" if adaptive else "constant")
        + " step SFW: min_t gap_t <= "
        + ("max(2 h0, L D^2)" if adaptive else "(h0 + L D^2/2)")
        + " / sqrt(T + 1)",
        paper=PAPER + "; Lacoste-Julien (2016)",
        theorem="§4.2 descent lemma",
        measured=min(gaps),
        bound=bound,
        sense="<=",
        rtol=1e-9,
        params={"d": d, "T": steps, "r": radius, "h0": h0, "L": lip, "seed": seed},
        series={"gap": (tuple(float(t) for t in range(len(gaps))), tuple(gaps))},
    )


def ns_spectral_identity(*, m: int, n: int, seed: int) -> BoundCheck:
    """NS5(U) = P diag(phi^(5)(sigma / (||U||_F + 1e-7))) Q^T; measured max error, atol 1e-10."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=(m, n)) * 10.0 ** rng.uniform(-3, 3)
    p, s, qt = np.linalg.svd(u, full_matrices=False)
    expected = (p * ns_scalar_map(s / (float(np.linalg.norm(u)) + 1e-7))) @ qt
    err = float(np.max(np.abs(newton_schulz(u) - expected)))
    return BoundCheck(
        claim="NS5 applies phi^(5) to the normalised singular values",
        paper=PAPER + "; KellerJordan/Muon",
        theorem="§5 NS5 spectral identity",
        measured=err,
        bound=0.0,
        sense="==",
        atol=1e-10,
        params={"m": m, "n": n, "seed": seed},
    )


_ALG_FW = ("reference.optimizers:sfw", "reference.optimizers:lion", "reference.optimizers:muon")


@register(
    name="optimizers.lion_sfw",
    family="optimizers",
    paper=PAPER,
    theorem="§4.1 E1",
    algorithms=("reference.optimizers:lion", "reference.optimizers:sfw"),
)
def prove_lion_sfw(profile: ProveProfile) -> BoundCheck:
    """E1 on random gradient streams (T = 50)."""
    rng = np.random.default_rng(profile.seed)
    return worst(
        lion_sfw_equivalence(
            d=int(rng.integers(1, 20)),
            steps=50,
            lr=float(rng.choice([1e-4, 1e-2, 0.3])),
            wd=float(rng.choice([0.1, 1.0, 3.0])),
            seed=profile.seed + i,
        )
        for i in range(profile.instances)
    )


@register(
    name="optimizers.muon_sfw",
    family="optimizers",
    paper=PAPER,
    theorem="§4.1 E2",
    algorithms=("reference.optimizers:muon", "reference.optimizers:sfw"),
)
def prove_muon_sfw(profile: ProveProfile) -> BoundCheck:
    """E2 with and without Nesterov on tall, wide and square matrices."""
    rng = np.random.default_rng(profile.seed)
    return worst(
        muon_sfw_equivalence(
            m=int(rng.integers(1, 7)),
            n=int(rng.integers(1, 7)),
            steps=30,
            lr=0.05,
            wd=float(rng.choice([0.1, 2.0])),
            nesterov=nest,
            seed=profile.seed + i,
        )
        for i in range(profile.instances)
        for nest in (True, False)
    )


@register(
    name="optimizers.lmo_optimality",
    family="optimizers",
    paper=PAPER,
    theorem="§4.2 LMO optimality and gap split",
    algorithms=("reference.optimizers:lmo", "reference.optimizers:fw_gap"),
)
def prove_lmo_and_gap(profile: ProveProfile) -> BoundCheck:
    """LMO optimality and the gap/KKT split for all four norms."""
    rng = np.random.default_rng(profile.seed)
    checks = []
    norms: tuple[Which, ...] = ("linf", "spectral", "l2", "l1")
    for i in range(profile.instances):
        for which in norms:
            shape = (
                (int(rng.integers(1, 5)), int(rng.integers(1, 5)))
                if which == "spectral"
                else (int(rng.integers(1, 9)),)
            )
            r = float(rng.choice([0.5, 1.0, 4.0]))
            checks.append(lmo_optimality(which=which, shape=shape, radius=r, seed=profile.seed + i))
            checks.append(gap_kkt_split(which=which, shape=shape, radius=r, seed=profile.seed + i))
    return worst(checks)


@register(
    name="optimizers.sfw_feasibility",
    family="optimizers",
    paper=PAPER,
    theorem="§4.2 feasibility",
    algorithms=("reference.optimizers:sfw",),
)
def prove_sfw_feasibility(profile: ProveProfile) -> BoundCheck:
    """Geometric pull into the ball for gamma in {0.01, 0.1, 0.5, 1}."""
    rng = np.random.default_rng(profile.seed)
    return worst(
        sfw_feasibility(
            d=int(rng.integers(1, 10)),
            steps=60,
            gamma=g,
            radius=float(rng.choice([0.5, 2.0])),
            seed=profile.seed + i,
        )
        for i in range(profile.instances)
        for g in (0.01, 0.1, 0.5, 1.0)
    )


@register(
    name="optimizers.sfw_gap_rate",
    family="optimizers",
    paper=PAPER + "; Lacoste-Julien (2016)",
    theorem="§4.2 descent lemma",
    algorithms=_ALG_FW[:1],
)
def prove_sfw_gap_rate(profile: ProveProfile) -> BoundCheck:
    """Both step-size rules on indefinite box QPs, d <= 6 quick (8 full), T in {10, 100, 1000}."""
    rng = np.random.default_rng(profile.seed)
    top = 8 if profile.is_full else 6
    horizons = (10, 100, 1000) if profile.is_full else (10, 100)
    return worst(
        sfw_gap_bound(
            d=int(rng.integers(1, top + 1)), steps=t, radius=1.0, seed=profile.seed + i, adaptive=ad
        )
        for i in range(max(2, profile.instances // 2))
        for t in horizons
        for ad in (False, True)
    )


@register(
    name="optimizers.ns_spectral_identity",
    family="optimizers",
    paper=PAPER + "; KellerJordan/Muon",
    theorem="§5 NS5 spectral identity",
    algorithms=("reference.polar:newton_schulz",),
)
def prove_ns_identity(profile: ProveProfile) -> BoundCheck:
    """Spectral identity on random tall, wide and square matrices, scales 1e-3..1e3."""
    rng = np.random.default_rng(profile.seed)
    return worst(
        ns_spectral_identity(
            m=int(rng.integers(1, 12)), n=int(rng.integers(1, 12)), seed=profile.seed + i
        )
        for i in range(profile.instances * 4)
    )
