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

Spec 02 (S-Adam, ICML 2026): the exact LGI and step properties of §4.2, checked numerically.

The paper's convergence theorem (almost-sure convergence to (delta, epsilon)-Clarke
stationary points at an O(1/sqrt(T)) rate) was not retrieved, so no constant of it is
encoded; its empirical counterpart is a benchmark.  The checks here are the derived,
exact properties P1 (range), P5/P6 (affine functions, injected directions), P7
(reduction to AdamW) and P8 (pure rescaling), each measured on real runs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from proofs_numeric._registry import ProveProfile, impl, register, worst
from proofs_numeric._result import BoundCheck
from reference._arrays import FloatArray
from reference.optimizers import (
    Optimizer,
    adam,
    apply_updates,
    damping,
    dual_norm,
    fw_gap,
    fw_gap_split,
    lgi,
    lgi_details,
    lion,
    lion_vr,
    lmo,
    muon,
    muon_vr,
    newton_schulz,
    norm,
    ns_scalar_map,
    prox_sgd,
    s_adam,
    sfw,
    sfw_vr,
)
from reference.optimizers.fw import LionConfig, MuonConfig, make_sfw

__all__ = [
    "PAPER",
    "box_qp_minimum",
    "gap_kkt_split",
    "lgi_affine",
    "lgi_injected",
    "lgi_range",
    "lion_sfw_equivalence",
    "lion_vr_recursion",
    "lmo_optimality",
    "muon_sfw_equivalence",
    "ns_spectral_identity",
    "prove_lgi_affine",
    "prove_lgi_range",
    "prove_s_adam_reduction",
    "prove_s_adam_rescaling",
    "prox_sgd_optimality",
    "s_adam_reduction",
    "s_adam_rescaling",
    "sfw_feasibility",
    "sfw_gap_bound",
    "vr_ball_recursion",
]

PAPER = "Sfyraki & Wang, Lions and Muons (ICML 2026)"


def _trajectory(
    opt: Optimizer[Any, Any], x0: FloatArray, grads: list[FloatArray]
) -> list[FloatArray]:
    x, state, out = x0, opt.init(x0), [x0]
    for g in grads:
        u, state = opt.update(g, state, x)
        x = apply_updates(x, np.asarray(u))
        out.append(x)
    return out


def lion_sfw_equivalence(
    *, d: int, steps: int, lr: float, wd: float, seed: int, b1: float = 0.9, b2: float = 0.99
) -> BoundCheck:
    """E1: Lion with weight decay = SFW on ``{||x||_inf <= 1/lambda}``, ``gamma = eta lambda``.

    Random gradient stream, same betas (the defaults and others, so that a Lion ignoring its
    betas departs from SFW); measured max |x_t(Lion) - x_t(SFW)|; atol 1e-12.
    """
    rng = np.random.default_rng(seed)
    grads = [rng.normal(size=d) * rng.uniform(0.1, 3.0) for _ in range(steps)]
    x0 = rng.normal(size=d)
    a = _trajectory(impl(lion)(learning_rate=lr, b1=b1, b2=b2, weight_decay=wd), x0, grads)
    b = _trajectory(
        impl(make_sfw)(LionConfig(learning_rate=lr, b1=b1, b2=b2, weight_decay=wd).to_sfw()),
        x0,
        grads,
    )
    diff = max(float(np.max(np.abs(p - q))) for p, q in zip(a, b, strict=True))
    return BoundCheck(
        claim="Lion(eta, lambda) iterates = SFW iterates on the l_inf ball of radius 1/lambda",
        paper=PAPER,
        theorem="E1 (Theorem 1 in spirit)",
        measured=diff,
        bound=0.0,
        sense="==",
        atol=1e-12,
        params={"d": d, "T": steps, "eta": lr, "lambda": wd, "b1": b1, "b2": b2, "seed": seed},
    )


def muon_sfw_equivalence(
    *,
    m: int,
    n: int,
    steps: int,
    lr: float,
    wd: float,
    nesterov: bool,
    seed: int,
    momentum: float = 0.95,
) -> BoundCheck:
    """E2: exact-polar Muon = SFW on ``{||W||_2 <= s/lambda}`` (beta1 = mu^2 with Nesterov).

    Momentum ``mu`` at the default 0.95 and away from it; measured max |W_t(Muon) - W_t(SFW)|;
    atol 1e-10 (spec 14 E2, float64).
    """
    rng = np.random.default_rng(seed)
    grads = [rng.normal(size=(m, n)) for _ in range(steps)]
    w0 = rng.normal(size=(m, n))
    config = MuonConfig(
        learning_rate=lr,
        momentum=momentum,
        weight_decay=wd,
        nesterov=nesterov,
        exact_polar=True,
    )
    a = _trajectory(
        impl(muon)(
            learning_rate=lr,
            momentum=momentum,
            weight_decay=wd,
            nesterov=nesterov,
            exact_polar=True,
        ),
        w0,
        grads,
    )
    b = _trajectory(impl(make_sfw)(config.to_sfw()), w0, grads)
    diff = max(float(np.max(np.abs(p - q))) for p, q in zip(a, b, strict=True))
    return BoundCheck(
        claim="exact-polar Muon iterates = SFW iterates on the spectral ball of radius s/lambda",
        paper=PAPER,
        theorem="E2 (Theorem 2 in spirit)",
        measured=diff,
        bound=0.0,
        sense="==",
        atol=1e-10,
        params={
            "m": m,
            "n": n,
            "T": steps,
            "nesterov": nesterov,
            "momentum": momentum,
            "seed": seed,
        },
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
    v_star = impl(lmo)(d, radius=radius, which=which)
    value = float(np.vdot(d, v_star))
    dual = dual_norm(d, which)
    excess = max(float(value - np.vdot(d, v)) for v in _ball_points(rng, shape, radius, which, 50))
    measured = max(abs(value + radius * dual), excess)
    return BoundCheck(
        claim="<d, LMO(d)> = -r ||d||_* <= <d, v> for all v in C",
        paper=PAPER,
        theorem="LMO optimality",
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
    gap = impl(fw_gap)(g, x, radius, which)
    slack, align = fw_gap_split(g, x, radius, which)
    lower = max(float(np.vdot(g, x - v)) for v in _ball_points(rng, shape, radius, which, 50))
    measured = min(slack, align, -abs(gap - slack - align), gap - lower)
    scale = max(1.0, radius * dual_norm(g, which))
    return BoundCheck(
        claim="FW gap = slackness + alignment residuals, both >= 0; gap >= <g, x - v>",
        paper=PAPER,
        theorem="gap formula and KKT split",
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
    xs = _trajectory(
        impl(sfw)(which="linf", radius=radius, step_size=gamma, b1=0.5, b2=0.9), x0, grads
    )
    n0 = norm(x0, "linf")
    excess = max(
        norm(x, "linf") - ((1 - gamma) ** t * n0 + (1 - (1 - gamma) ** t) * radius)
        for t, x in enumerate(xs)
    )
    return BoundCheck(
        claim="||x_t|| <= (1-gamma)^t ||x_0|| + (1 - (1-gamma)^t) r (x_t in C once x_0 in C)",
        paper=PAPER,
        theorem="feasibility",
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
        gap = float(g @ x) + radius * float(np.sum(np.abs(g)))  # max_v <g, x - v> over the box
        gaps.append(gap)
        gamma = min(gap / (lip * diam**2), 1.0) if adaptive else 1.0 / math.sqrt(steps + 1)
        v = np.asarray(impl(lmo)(g, radius=radius, which="linf")) if np.any(g != 0) else x
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
        theorem="descent lemma",
        measured=min(gaps),
        bound=bound,
        sense="<=",
        rtol=1e-9,
        params={"d": d, "T": steps, "r": radius, "h0": h0, "L": lip, "seed": seed},
        series={"gap": (tuple(float(t) for t in range(len(gaps))), tuple(gaps))},
        xlabel="iteration t",
        ylabel="Frank-Wolfe gap",
        guide=((0.0, float(len(gaps) - 1)), (bound, bound)),
    )


def ns_spectral_identity(*, m: int, n: int, seed: int) -> BoundCheck:
    """NS5(U) = P diag(phi^(5)(sigma / (||U||_F + 1e-7))) Q^T; measured max error, atol 1e-10."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=(m, n)) * 10.0 ** rng.uniform(-3, 3)
    p, s, qt = np.linalg.svd(u, full_matrices=False)
    expected = (p * ns_scalar_map(s / (float(np.linalg.norm(u)) + 1e-7))) @ qt
    err = float(np.max(np.abs(np.asarray(impl(newton_schulz)(u)) - expected)))
    return BoundCheck(
        claim="NS5 applies phi^(5) to the normalised singular values",
        paper=PAPER + "; KellerJordan/Muon",
        theorem="NS5 spectral identity",
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
    theorem="E1",
    algorithms=("reference.optimizers:lion", "reference.optimizers.fw:make_sfw"),
)
def prove_lion_sfw(profile: ProveProfile) -> BoundCheck:
    """E1 on random gradient streams (T = 50), betas (0.9, 0.99) (the defaults), (0.8, 0.95)
    and (0.95, 0.999) in turn."""
    rng = np.random.default_rng(profile.seed)
    betas = ((0.9, 0.99), (0.8, 0.95), (0.95, 0.999))
    return worst(
        lion_sfw_equivalence(
            d=int(rng.integers(1, 20)),
            steps=50,
            lr=float(rng.choice([1e-4, 1e-2, 0.3])),
            wd=float(rng.choice([0.1, 1.0, 3.0])),
            seed=profile.seed + i,
            b1=betas[i % 3][0],
            b2=betas[i % 3][1],
        )
        for i in range(profile.instances)
    )


@register(
    name="optimizers.muon_sfw",
    family="optimizers",
    paper=PAPER,
    theorem="E2",
    algorithms=("reference.optimizers:muon", "reference.optimizers.fw:make_sfw"),
)
def prove_muon_sfw(profile: ProveProfile) -> BoundCheck:
    """E2 with and without Nesterov on tall, wide and square matrices, momentum 0.95 (the
    default) and 0.8 in turn."""
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
            momentum=(0.95, 0.8)[i % 2],
        )
        for i in range(profile.instances)
        for nest in (True, False)
    )


@register(
    name="optimizers.lmo_optimality",
    family="optimizers",
    paper=PAPER,
    theorem="LMO optimality and gap split",
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
    theorem="feasibility",
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
    theorem="descent lemma",
    algorithms=("reference.optimizers:lmo",),
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
    theorem="NS5 spectral identity",
    algorithms=("reference.optimizers.polar:newton_schulz",),
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


SADAM_PAPER = "Xu et al., S-Adam (ICML 2026)"


def lgi_range(
    f: Callable[[Any], float],
    theta: FloatArray,
    *,
    k: int,
    sigma: float,
    zeta: float,
    seed: int,
    ddof: int = 1,
    directions: list[FloatArray] | None = None,
) -> BoundCheck:
    """P1: ``rho <= (k/(k-ddof)) q/(q + zeta)`` (for ``ddof = 1``: ``< k/(k-1)``) on one instance.

    ``s2 = var(D; ddof) = (k/(k-ddof)) (q - mean(D)^2)``, hence the bound, attained when the
    slopes average 0 (injected directions ``(+1, -1)`` on a linear ``f``).

    ``q`` (the mean square slope) is not read from the result: the loss is wrapped to record
    the probe values :func:`lgi_details` asks for, and ``q = mean(((f(probe) - f(theta)) /
    sigma)²)`` is recomputed from them (spec 02 Algorithm A, l. 1b and 3).  Error budget
    ``rtol = 1e-12`` (spec 02: "floating tolerance 1e-12 relative").
    """
    base = f(theta)
    probes: list[float] = []

    def recorded(x: Any) -> float:
        value = f(x)
        probes.append(value)
        return value

    extra: dict[str, Any] = {} if directions is None else {"directions": directions}
    res = impl(lgi_details)(
        recorded,
        theta,
        base,
        k=k,
        sigma=sigma,
        rng=np.random.default_rng(seed),
        zeta=zeta,
        ddof=ddof,
        **extra,
    )
    slopes = (np.asarray(probes, dtype=np.float64) - base) / sigma
    q = float(np.mean(slopes**2)) if probes else 0.0
    bound = (k / (k - ddof)) * (q / (q + zeta)) if q + zeta > 0 else 0.0
    return BoundCheck(
        claim="0 <= rho <= (k/(k-ddof)) q/(q + zeta), q from the probe values",
        paper=SADAM_PAPER,
        theorem="P1",
        measured=res.rho,
        bound=bound,
        sense="<=",
        rtol=1e-12,
        params={
            "k": k,
            "sigma": sigma,
            "zeta": zeta,
            "d": theta.size,
            "seed": seed,
            "ddof": ddof,
            "probes": len(probes),
        },
    )


def lgi_affine(*, k: int, d: int, seed: int, direction_mode: str = "per_block") -> BoundCheck:
    """P5: for affine ``f`` the LGI is about 1 (population ratio Var(D)/E[D^2] = 1).

    Error budget ``atol = 0.1`` at ``k >= 1000`` (spec 02 P5 uses k = 4000 and 0.1; the
    deviation is O(1/k) because ``rho = (k/(k-1))(1 - mean(D)^2/q)``).
    """
    rng = np.random.default_rng(seed)
    g = rng.normal(size=d)
    c = float(rng.normal())

    def f(x: Any) -> float:
        return c + float(g @ np.asarray(x))

    theta = rng.normal(size=d)
    rho = impl(lgi)(
        f,
        theta,
        f(theta),
        k=k,
        sigma=0.05,
        rng=rng,
        direction_mode="global" if direction_mode == "global" else "per_block",
    )
    return BoundCheck(
        claim="affine f: rho -> Var(D)/E[D^2] = 1",
        paper=SADAM_PAPER,
        theorem="P5",
        measured=rho,
        bound=1.0,
        sense="==",
        atol=0.1,
        params={"k": k, "d": d, "seed": seed, "direction_mode": direction_mode},
    )


def lgi_injected(zeta: float, ddof: int = 1) -> BoundCheck:
    """P6: ``f(x) = x``, ``k = 2``, directions ``(+1, -1)``: slopes ``(1, -1)``, so
    ``rho = var(D; ddof) / (1 + zeta)``, ``2/(1 + zeta)`` for ``ddof = 1`` and ``1/(1 + zeta)``
    for ``ddof = 0`` (rtol 1e-12)."""
    rho = impl(lgi)(
        lambda x: float(np.asarray(x)[0]),
        np.zeros(1),
        0.0,
        k=2,
        sigma=0.1,
        rng=np.random.default_rng(0),
        zeta=zeta,
        ddof=ddof,
        directions=[np.array([1.0]), np.array([-1.0])],
    )
    return BoundCheck(
        claim=f"injected directions (+1, -1) on f(x) = x give rho = {2 // (2 - ddof)}/(1 + zeta) "
        f"(ddof {ddof})",
        paper=SADAM_PAPER,
        theorem="P6",
        measured=rho,
        bound=2.0 / ((2.0 - ddof) * (1.0 + zeta)),
        sense="==",
        rtol=1e-12,
        params={"zeta": zeta, "ddof": ddof},
    )


def _grads(rng: np.random.Generator, d: int, steps: int) -> list[FloatArray]:
    drift = rng.normal(size=d)
    return [drift + rng.normal(size=d) for _ in range(steps)]


def s_adam_reduction(
    *,
    d: int,
    steps: int,
    seed: int,
    k: int = 2,
    lam: float = 0.0,
    betas: tuple[float, float] = (0.9, 0.999),
) -> BoundCheck:
    """P7: with ``lgi_lambda = 0`` (or ``k = 1``) and ``eps = 0`` S-Adam's trajectory equals AdamW's.

    Both get the same ``(b1, b2)``: the defaults and ``(0.8, 0.99)`` (so a side that ignores
    its betas departs).  Measured: max |x_t(S-Adam) - x_t(AdamW)| over the run; error budget
    ``atol = 1e-12``.
    """
    rng = np.random.default_rng(seed)
    grads = _grads(rng, d, steps)
    x_s = x_a = rng.normal(size=d)
    b1, b2 = betas
    sa = impl(s_adam)(learning_rate=0.01, b1=b1, b2=b2, eps=0.0, lgi_lambda=lam, k_directions=k)
    aw = impl(adam)(learning_rate=0.01, b1=b1, b2=b2, eps=0.0, weight_decay=1e-2)
    st_s, st_a = sa.init(x_s), aw.init(x_a)
    worst_diff = 0.0
    for g in grads:
        u, st_s = sa.update(
            g, st_s, x_s, loss=lambda p: float(np.sum(np.abs(p))), rng=np.random.default_rng(1)
        )
        x_s = apply_updates(x_s, u)
        v, st_a = aw.update(g, st_a, x_a)
        x_a = apply_updates(x_a, v)
        worst_diff = max(worst_diff, float(np.max(np.abs(x_s - x_a))))
    return BoundCheck(
        claim="S-Adam with lambda = 0 or k = 1 and eps = 0 equals AdamW step for step",
        paper=SADAM_PAPER,
        theorem="P7",
        measured=worst_diff,
        bound=0.0,
        sense="==",
        atol=1e-12,
        params={"d": d, "steps": steps, "seed": seed, "k": k, "lgi_lambda": lam, "betas": betas},
    )


#: S-Adam constants of the P8 check (spec 02 defaults, k = 4 probes), passed explicitly so that
#: the brake is recomputed here from the same numbers.
_P8_SIGMA, _P8_ZETA, _P8_CAP, _P8_K = 0.01, 1e-6, 10.0, 4


def _brake_from_probes(
    points: list[tuple[FloatArray, float]], theta: FloatArray, *, lam: float
) -> float:
    """``alpha = exp(-lambda min(rho, cap))`` recomputed from the loss evaluations of one step.

    ``points`` are the (point, value) pairs the optimizer asked for: the base ``f(theta)`` and
    the probes ``f(theta + sigma u_i)``.  Slopes ``(f(probe) - f(theta)) / sigma``,
    ``rho = var(slopes, ddof=1) / (mean(slopes²) + zeta)`` (spec 02 Algorithm A, l. 1b-4).
    """
    base = [v for x, v in points if np.array_equal(x, theta)]
    probes = [v for x, v in points if not np.array_equal(x, theta)]
    if not base or len(probes) < 2:
        return 1.0  # no probes: no brake
    slopes = (np.asarray(probes) - base[0]) / _P8_SIGMA
    q = float(np.mean(slopes**2))
    rho = float(np.var(slopes, ddof=1)) / (q + _P8_ZETA)
    return math.exp(-lam * min(rho, _P8_CAP))


def s_adam_rescaling(*, d: int, steps: int, seed: int, lam: float) -> BoundCheck:
    """P8: for one gradient sequence the S-Adam step is ``alpha_t`` times the undamped step.

    ``alpha_t`` is not read from the optimizer's state: the loss is wrapped to record every
    evaluation the damped optimizer makes, and :func:`_brake_from_probes` recomputes the brake
    from those values (spec 02 Algorithms A and B).  Measured:
    ``max_t |u_t - alpha_t u_t^0| / max|u_t^0|``; error budget ``atol = 1e-12``.
    """
    rng = np.random.default_rng(seed)
    grads = _grads(rng, d, steps)
    calls: list[tuple[FloatArray, float]] = []

    def f(p: Any) -> float:
        point = np.array(p, dtype=np.float64)
        value = float(np.sum(np.abs(point) * np.arange(1, d + 1)))
        calls.append((point, value))
        return value

    damped = impl(s_adam)(
        lgi_lambda=lam,
        weight_decay=0.0,
        k_directions=_P8_K,
        sigma=_P8_SIGMA,
        stabilize_eps=_P8_ZETA,
        lgi_cap=_P8_CAP,
        ddof=1,
    )
    plain = impl(s_adam)(lgi_lambda=0.0, weight_decay=0.0)
    x1 = x2 = rng.normal(size=d)
    s1, s2 = damped.init(x1), plain.init(x2)
    worst_diff = 0.0
    probe = np.random.default_rng(seed + 1)
    for g in grads:
        calls.clear()
        u1, s1 = damped.update(g, s1, x1, loss=f, rng=probe)
        alpha = _brake_from_probes(list(calls), np.asarray(x1, dtype=np.float64), lam=lam)
        u2, s2 = plain.update(g, s2, x2, loss=f, rng=probe)
        a1, a2 = np.asarray(u1), np.asarray(u2)
        worst_diff = max(
            worst_diff, float(np.max(np.abs(a1 - alpha * a2))) / float(np.max(np.abs(a2)))
        )
        x1, x2 = apply_updates(x1, a1), apply_updates(x2, a2)
    return BoundCheck(
        claim="S-Adam displacement = alpha_t x undamped displacement, alpha_t from the probes",
        paper=SADAM_PAPER,
        theorem="P8",
        measured=worst_diff,
        bound=0.0,
        sense="==",
        atol=1e-12,
        params={"d": d, "steps": steps, "seed": seed, "lgi_lambda": lam, "k": _P8_K},
    )


def _test_functions(rng: np.random.Generator, d: int) -> list[Callable[[Any], float]]:
    q = rng.uniform(0.1, 2.0, size=d)
    a = rng.normal(size=(4, d))
    return [
        lambda x: float(np.sum(q * np.asarray(x) ** 2)),
        lambda x: float(np.sum(q * np.abs(x))),
        lambda x: float(np.max(a @ np.asarray(x))),
        lambda x: (
            10.0 * abs(float(np.asarray(x)[-1]) - float(np.asarray(x)[0]) ** 2)
            + abs(1.0 - float(np.asarray(x)[0]))
        ),
    ]


@register(
    name="optimizers.lgi_range",
    family="optimizers",
    paper=SADAM_PAPER,
    theorem="P1 (and P6)",
    algorithms=("reference.optimizers:lgi_details", "reference.optimizers:lgi"),
)
def prove_lgi_range(profile: ProveProfile) -> BoundCheck:
    """P1 on smooth, kinked and piecewise-linear test functions; P6 at zeta in {0, 1e-6, 0.5};
    both at ``ddof = 0`` too, where P1's bound is attained by injected directions ``(+1, -1)``
    (an estimator that ignores ``ddof`` and keeps 1 doubles ``rho`` there)."""
    rng = np.random.default_rng(profile.seed)
    checks = [lgi_injected(z) for z in (0.0, 1e-6, 0.5)] + [lgi_injected(0.5, ddof=0)]
    checks.append(
        lgi_range(
            lambda x: float(np.asarray(x)[0]),
            np.zeros(1),
            k=2,
            sigma=0.1,
            zeta=1e-2,
            seed=profile.seed,
            ddof=0,
            directions=[np.array([1.0]), np.array([-1.0])],
        )
    )
    for i in range(profile.instances * (4 if profile.is_full else 1)):
        d = int(rng.integers(2, 8))
        theta = rng.normal(size=d) * rng.choice([1e-3, 1.0])
        for f in _test_functions(rng, d):
            k = int(rng.integers(2, 10))
            zeta = float(rng.choice([0.0, 1e-6, 1e-2]))
            sigma = float(rng.choice([1e-3, 0.01, 0.3]))
            checks.append(lgi_range(f, theta, k=k, sigma=sigma, zeta=zeta, seed=profile.seed + i))
    return worst(checks)


@register(
    name="optimizers.lgi_affine",
    family="optimizers",
    paper=SADAM_PAPER,
    theorem="P5",
    algorithms=("reference.optimizers:lgi",),
)
def prove_lgi_affine(profile: ProveProfile) -> BoundCheck:
    """P5 for both direction modes (k = 1000 quick, 4000 full)."""
    k = 4000 if profile.is_full else 1000
    rng = np.random.default_rng(profile.seed)
    return worst(
        lgi_affine(k=k, d=int(rng.integers(1, 6)), seed=profile.seed + i, direction_mode=mode)
        for i in range(2)
        for mode in ("per_block", "global")
    )


@register(
    name="optimizers.s_adam_reduction",
    family="optimizers",
    paper=SADAM_PAPER,
    theorem="P7",
    algorithms=("reference.optimizers:s_adam", "reference.optimizers:adam"),
)
def prove_s_adam_reduction(profile: ProveProfile) -> BoundCheck:
    """P7 with lambda = 0 and with k = 1 (lambda = 2), default betas and (0.8, 0.99)."""
    steps = 200 if profile.is_full else 40
    return worst(
        [
            s_adam_reduction(d=5, steps=steps, seed=profile.seed + i, k=k, lam=lam, betas=betas)
            for i in range(max(1, profile.instances // 2))
            for k, lam in ((2, 0.0), (1, 2.0))
            for betas in ((0.9, 0.999), (0.8, 0.99))
        ]
    )


@register(
    name="optimizers.s_adam_rescaling",
    family="optimizers",
    paper=SADAM_PAPER,
    theorem="P8",
    algorithms=("reference.optimizers:s_adam",),
)
def prove_s_adam_rescaling(profile: ProveProfile) -> BoundCheck:
    """P8 with lambda in {0.5, 2, 8}."""
    steps = 200 if profile.is_full else 30
    return worst(
        s_adam_rescaling(d=4, steps=steps, seed=profile.seed + i, lam=lam)
        for i in range(max(1, profile.instances // 2))
        for lam in (0.5, 2.0, 8.0)
    )


def lion_vr_recursion(
    *, d: int, steps: int, lr: float, wd: float, a: float | None, tau: float, seed: int
) -> BoundCheck:
    """Lion-VR (spec 14 §3.4, R2 on ``{||x||_inf <= 1/lambda}``) against the recursion written
    out here: ``m_0 = clip(g_0)``, ``m_t = clip(g_t) + (1 - a_t)(m_{t-1} - clip(g'_t))``
    (``a_t = (t+1)^(-2/3)`` when ``a`` is ``None``), ``clip(u) = u min(1, tau/||u||_2)``,
    ``x_{t+1} = (1 - eta lambda) x_t - eta sign(m_t)``; ``g'_t`` is the gradient at
    ``x_{t-1}`` with the same sample (an independent random stream here).  Also every iterate
    must stay in the ball when ``x_0`` is in it (R2's feasibility).  Measured: the largest
    ``|x_t - x_t(recursion)|`` plus the largest excess ``lambda ||x_t||_inf - 1`` (floored
    at 0); ``atol`` 1e-12.
    """
    rng = np.random.default_rng(seed)
    grads = [rng.normal(size=d) * rng.uniform(0.1, 3.0) for _ in range(steps)]
    prevs = [g + 0.3 * rng.normal(size=d) for g in grads]
    x0 = rng.uniform(-1.0, 1.0, size=d) / wd

    def clip(u: FloatArray) -> FloatArray:
        n = float(np.linalg.norm(u))
        return u if n <= tau else u * (tau / n)

    opt = impl(lion_vr)(learning_rate=lr, weight_decay=wd, a=a, clip_tau=tau)
    x, state, mine = x0, opt.init(x0), x0
    m = np.zeros(d)
    diff, excess = 0.0, 0.0
    for t, (g, gp) in enumerate(zip(grads, prevs, strict=True)):
        u, state = opt.update(g, state, x, prev_grads=None if t == 0 else gp)
        x = apply_updates(x, np.asarray(u))
        weight = (t + 1) ** (-2.0 / 3.0) if a is None else a
        m = clip(g) if t == 0 else clip(g) + (1.0 - weight) * (m - clip(gp))
        mine = (1.0 - lr * wd) * mine - lr * np.sign(m)
        diff = max(diff, float(np.max(np.abs(np.asarray(x) - mine))))
        excess = max(excess, wd * float(np.max(np.abs(np.asarray(x)))) - 1.0)
    return BoundCheck(
        claim="Lion-VR iterates = (1 - eta lambda) x - eta sign(clipped STORM m), in the box",
        paper=PAPER,
        theorem="R2 (Lion variant, reconstructed)",
        measured=diff + max(excess, 0.0),
        bound=0.0,
        sense="==",
        atol=1e-12,
        params={"d": d, "T": steps, "eta": lr, "lambda": wd, "a": a, "tau": tau, "seed": seed},
    )


@register(
    name="optimizers.lion_vr",
    family="optimizers",
    paper=PAPER,
    theorem="R2 (Lion variant): clipped STORM estimator, sign step with decoupled decay",
    algorithms=("reference.optimizers:lion_vr",),
)
def prove_lion_vr(profile: ProveProfile) -> BoundCheck:
    """Random gradient streams (T = 40), ``a`` scheduled and fixed at 0.3, ``tau`` from 0.5
    (clipping active) to ``inf``, ``eta lambda`` from 1e-3 to 0.9."""
    rng = np.random.default_rng(profile.seed + 5)
    return worst(
        lion_vr_recursion(
            d=int(rng.integers(1, 12)),
            steps=40,
            lr=float(rng.choice([1e-3, 0.05, 0.3])),
            wd=float(rng.choice([0.5, 1.0, 3.0])),
            a=a,
            tau=tau,
            seed=profile.seed + 50 + i,
        )
        for i in range(profile.instances)
        for a in (None, 0.3)
        for tau in (0.5, 5.0, math.inf)
    )


def vr_ball_recursion(
    *, which: str, shape: tuple[int, ...], steps: int, a: float | None, tau: float, seed: int
) -> BoundCheck:
    """R2 (spec 14 §3.4) on the l2 ball (:func:`reference.optimizers.sfw_vr`, radius 2,
    ``gamma_t`` scheduled ``(t+1)^(-2/3)``) or the spectral ball (:func:`muon_vr`, exact polar,
    ``eta = 0.05``, ``lambda = 2``, radius ``s/lambda`` with ``s = max(1, m/n)^(1/2)``) against
    the recursion written out here: the clipped STORM estimator of :func:`lion_vr_recursion`,
    ``v_t`` = ``-r m_t/||m_t||_2`` (l2) or ``-r U V^T`` from ``numpy.linalg.svd`` (spectral),
    ``x_{t+1} = (1 - gamma_t) x_t + gamma_t v_t``; plus feasibility (``||x_t|| <= r``).
    Measured: largest ``|x_t - x_t(recursion)|`` plus the feasibility excess; ``atol`` 1e-10.
    """
    rng = np.random.default_rng(seed)
    grads = [rng.normal(size=shape) * rng.uniform(0.1, 3.0) for _ in range(steps)]
    prevs = [g + 0.3 * rng.normal(size=shape) for g in grads]
    if which == "l2":
        radius = 2.0
        opt = impl(sfw_vr)(which="l2", radius=radius, a=a, clip_tau=tau)
    else:
        m_rows, n_cols = shape
        radius = math.sqrt(max(1.0, m_rows / n_cols)) / 2.0
        opt = impl(muon_vr)(
            learning_rate=0.05, weight_decay=2.0, a=a, clip_tau=tau, exact_polar=True
        )

    def size(u: FloatArray) -> float:
        return float(np.linalg.norm(u)) if which == "l2" else float(np.linalg.norm(u, 2))

    x0 = rng.normal(size=shape)
    x0 *= 0.9 * radius / size(x0)

    def clip(u: FloatArray) -> FloatArray:
        n = float(np.linalg.norm(u))
        return u if n <= tau else u * (tau / n)

    x, state, mine = x0, opt.init(x0), x0
    m = np.zeros(shape)
    diff, excess = 0.0, 0.0
    for t, (g, gp) in enumerate(zip(grads, prevs, strict=True)):
        u, state = opt.update(g, state, x, prev_grads=None if t == 0 else gp)
        x = apply_updates(x, np.asarray(u))
        weight = (t + 1) ** (-2.0 / 3.0) if a is None else a
        m = clip(g) if t == 0 else clip(g) + (1.0 - weight) * (m - clip(gp))
        if which == "l2":
            v, gamma = -radius * m / float(np.linalg.norm(m)), (t + 1) ** (-2.0 / 3.0)
        else:
            left, _, right = np.linalg.svd(m, full_matrices=False)
            v, gamma = -radius * (left @ right), 0.05 * 2.0
        mine = (1.0 - gamma) * mine + gamma * v
        diff = max(diff, float(np.max(np.abs(np.asarray(x) - mine))))
        excess = max(excess, size(np.asarray(x)) / radius - 1.0)
    return BoundCheck(
        claim=f"R2 on the {which} ball: clipped STORM estimator, LMO step, feasibility",
        paper=PAPER,
        theorem="R2 (reconstructed)",
        measured=diff + max(excess, 0.0),
        bound=0.0,
        sense="==",
        atol=1e-10,
        params={"which": which, "shape": shape, "T": steps, "a": a, "tau": tau, "seed": seed},
    )


@register(
    name="optimizers.vr_balls",
    family="optimizers",
    paper=PAPER,
    theorem="R2 on the l2 ball (SFW-VR) and the spectral ball (Muon-VR)",
    algorithms=("reference.optimizers:sfw_vr", "reference.optimizers:muon_vr"),
)
def prove_vr_balls(profile: ProveProfile) -> BoundCheck:
    """Vectors (l2) and tall, wide and square matrices (spectral), ``T = 30``, ``a``
    scheduled and 0.3, ``tau`` 0.5 and ``inf``."""
    rng = np.random.default_rng(profile.seed + 6)
    checks: list[BoundCheck] = []
    for i in range(profile.instances):
        m_rows, n_cols = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        for a in (None, 0.3):
            for tau in (0.5, math.inf):
                seed = profile.seed + 60 + i
                checks.append(
                    vr_ball_recursion(
                        which="l2",
                        shape=(int(rng.integers(1, 9)),),
                        steps=30,
                        a=a,
                        tau=tau,
                        seed=seed,
                    )
                )
                checks.append(
                    vr_ball_recursion(
                        which="spectral",
                        shape=(m_rows, n_cols),
                        steps=30,
                        a=a,
                        tau=tau,
                        seed=seed,
                    )
                )
    return worst(checks)


def prox_sgd_optimality(
    *, d: int, steps: int, lr: float, mu: float, l1: float, seed: int
) -> BoundCheck:
    """Prox-SGD's l1 step is the proximal operator of ``lr l1 ||.||_1`` after heavy ball.

    The heavy-ball point ``y_t = theta_t - lr buf_t`` (``buf_0 = g_0``, ``buf_t = mu buf_{t-1}
    + g_t``) is recomputed here; the returned ``theta_{t+1} = z`` must satisfy the optimality
    condition of ``min_z ||z - y||²/2 + lr l1 ||z||_1``: ``y_i - z_i = lr l1 sign(z_i)`` where
    ``z_i != 0`` and ``|y_i| <= lr l1`` where ``z_i = 0``.  Measured: the largest violation over
    the trajectory (each step starts from the returned iterate); ``atol`` 1e-12 (relative to
    ``1 + |y|``).
    """
    rng = np.random.default_rng(seed)
    opt = impl(prox_sgd)(learning_rate=lr, momentum=mu, l1=l1)
    theta = rng.normal(size=d) * 0.5
    state = opt.init(theta)
    buf = np.zeros(d)
    worst_violation = 0.0
    for t in range(steps):
        g = rng.normal(size=d)
        u, state = opt.update(g, state, theta)
        z = np.asarray(apply_updates(theta, np.asarray(u)), dtype=np.float64)
        buf = g if t == 0 else mu * buf + g
        y = theta - lr * buf
        k = lr * l1
        on = z != 0.0
        viol = np.where(on, np.abs(y - z - k * np.sign(z)), np.maximum(np.abs(y) - k, 0.0))
        worst_violation = max(worst_violation, float(np.max(viol / (1.0 + np.abs(y)))))
        theta = z
    return BoundCheck(
        claim="Prox-SGD: theta_{t+1} = prox_{lr l1 ||.||_1}(theta_t - lr buf_t) (optimality)",
        paper="Xu et al., S-Adam (ICML 2026), Prox-SGD baseline",
        theorem="proximal step (soft threshold) after heavy ball",
        measured=worst_violation,
        bound=0.0,
        sense="==",
        atol=1e-12,
        params={"d": d, "T": steps, "lr": lr, "mu": mu, "l1": l1, "seed": seed},
    )


def damping_formula(rho: float, lam: float, cap: float) -> BoundCheck:
    """The brake ``alpha = exp(-lambda min(rho, cap))`` (spec 02 §3.2 step 3), via ``math.exp``
    on the formula here; relative error ``<= 1e-15`` and ``alpha ∈ (0, 1]``."""
    value = float(impl(damping)(rho, lgi_lambda=lam, cap=cap))
    want = math.exp(-lam * min(rho, cap))
    ok = 0.0 < value <= 1.0
    return BoundCheck(
        claim="damping = exp(-lambda min(rho, cap)) in (0, 1]",
        paper="Xu et al., S-Adam (ICML 2026)",
        theorem="§3.2 step 3 (brake)",
        measured=abs(value - want) / want if ok else math.inf,
        bound=0.0,
        sense="==",
        atol=1e-15,
        params={"rho": rho, "lambda": lam, "cap": cap},
    )


@register(
    name="optimizers.prox_sgd",
    family="optimizers",
    paper="Xu et al., S-Adam (ICML 2026)",
    theorem="Prox-SGD baseline: heavy ball then the l1 proximal step",
    algorithms=("reference.optimizers:prox_sgd",),
)
def prove_prox_sgd(profile: ProveProfile) -> BoundCheck:
    """``T = 30``, momentum 0 and 0.9, ``lr l1`` from small to larger than typical ``|y|``."""
    return worst(
        prox_sgd_optimality(d=8, steps=30, lr=lr, mu=mu, l1=l1, seed=profile.seed + 70 + i)
        for i, (lr, mu, l1) in enumerate(
            [(0.05, 0.9, 1e-4), (0.1, 0.0, 2.0), (0.3, 0.9, 1.0), (0.02, 0.5, 20.0)]
        )
    )


@register(
    name="optimizers.damping",
    family="optimizers",
    paper="Xu et al., S-Adam (ICML 2026)",
    theorem="§3.2 step 3: alpha = exp(-lambda min(rho, cap))",
    algorithms=("reference.optimizers:damping",),
)
def prove_damping(profile: ProveProfile) -> BoundCheck:
    """``rho`` below, at and above ``cap``; ``lambda`` 0, 0.3, 2, 7; caps 0.5, 10, 40."""
    return worst(
        damping_formula(rho, lam, cap)
        for cap in (0.5, 10.0, 40.0)
        for rho in (0.0, 0.3 * cap, cap, 3.0 * cap)
        for lam in (0.0, 0.3, 2.0, 7.0)
    )


def _ns_quintic(d: FloatArray, steps: int) -> FloatArray:
    """Muon's NS5 recomputed: ``X_0 = D / (||D||_F + 1e-7)`` on the wide orientation, ``steps``
    times ``X <- a X + (b A + c A²) X`` with ``A = X Xᵀ`` and the reference coefficients."""
    a, b, c = 3.4445, -4.7750, 2.0315
    wide = d.T if d.shape[0] > d.shape[1] else d
    x = wide / (math.sqrt(float(np.sum(wide * wide))) + 1e-7)
    for _ in range(steps):
        gram = x @ x.T
        x = a * x + (b * gram + c * gram @ gram) @ x
    return x.T if d.shape[0] > d.shape[1] else x


def _ball_lmo(
    d: FloatArray, radius: float, which: str, polar_method: str, steps: int
) -> FloatArray:
    """``argmin_{||v|| <= r} <d, v>`` for the four balls, recomputed here (ties of the l1 ball:
    the first largest ``|d_ij|`` in row-major order; the spectral ball by an SVD or NS5)."""
    if which == "linf":
        return -radius * np.sign(d)
    if which == "l2":
        size = math.sqrt(float(np.sum(d * d)))
        return -radius * d / size if size > 0.0 else np.zeros_like(d)
    if which == "l1":
        out = np.zeros_like(d)
        flat = np.abs(d).ravel()
        j = int(np.argmax(flat))
        if flat[j] > 0.0:
            out.flat[j] = -radius * math.copysign(1.0, float(d.flat[j]))
        return out
    if polar_method == "newton_schulz":
        return -radius * _ns_quintic(d, steps)
    u, _, vt = np.linalg.svd(d, full_matrices=False)
    polar_factor: FloatArray = u @ vt
    return -radius * polar_factor


def sfw_replay(
    *,
    which: Literal["linf", "spectral", "l2", "l1"],
    shape: tuple[int, int],
    steps: int,
    radius: float,
    step_size: float,
    b1: float,
    b2: float,
    clip_tau: float,
    shape_scaled: bool,
    polar_method: Literal["exact", "newton_schulz"],
    ns_steps: int,
    seed: int,
) -> BoundCheck:
    """SFW's documented recursion replayed (spec 14 §3.3, R1 of §3.4), per block::

        g <- clip_tau(g) (Frobenius);  d_t = b1 m_{t-1} + (1 - b1) g_t;  v_t = LMO(d_t)
        x_{t+1} = (1 - gamma) x_t + gamma v_t;   m_t = b2 m_{t-1} + (1 - b2) g_t

    with the ball's radius times ``max(1, m/n)^(1/2)`` when ``shape_scaled``.  The LMO of each
    ball (and NS5 for ``polar="newton_schulz"``) is recomputed here, the iterates from the
    returned updates.  Gradients have Frobenius norms from ``0.2 tau`` to ``5 tau`` (some are
    clipped), ``b1 != b2``, tall blocks (the shape scale is not 1).  Measured: the largest
    absolute difference of the iterates; ``atol = 1e-10`` (NS5 amplifies rounding).
    """
    rng = np.random.default_rng(seed)
    opt = impl(sfw)(
        which=which,
        radius=radius,
        step_size=step_size,
        b1=b1,
        b2=b2,
        clip_tau=clip_tau,
        shape_scaled=shape_scaled,
        polar=polar_method,
        ns_steps=ns_steps,
    )
    x = rng.normal(size=shape) * 0.1
    state = opt.init(x)
    mine, m = x.copy(), np.zeros(shape)
    r = radius * math.sqrt(max(1.0, shape[0] / shape[1])) if shape_scaled else radius
    level = clip_tau if math.isfinite(clip_tau) else 1.0
    error = 0.0
    for _ in range(steps):
        g = rng.normal(size=shape)
        g *= rng.uniform(0.2, 5.0) * level / math.sqrt(float(np.sum(g * g)))
        update, state = opt.update(g.copy(), state, x)
        x = x + np.asarray(update, dtype=np.float64)
        size = math.sqrt(float(np.sum(g * g)))
        gc = g * (clip_tau / size) if size > clip_tau else g
        d = b1 * m + (1.0 - b1) * gc
        v = _ball_lmo(d, r, which, polar_method, ns_steps)
        mine = (1.0 - step_size) * mine + step_size * v
        m = b2 * m + (1.0 - b2) * gc
        error = max(error, float(np.max(np.abs(x - mine))))
    return BoundCheck(
        claim=f"SFW ({which}, polar {polar_method}) = the documented recursion",
        paper=PAPER,
        theorem="generalized SFW (spec 14 §3.3, R1 §3.4): documented recursion",
        measured=error,
        bound=0.0,
        sense="==",
        atol=1e-10,
        params={
            "which": which,
            "shape": shape,
            "radius": radius,
            "step_size": step_size,
            "b1": b1,
            "b2": b2,
            "clip_tau": clip_tau,
            "shape_scaled": shape_scaled,
            "polar": polar_method,
            "ns_steps": ns_steps,
            "seed": seed,
        },
    )


@register(
    name="optimizers.sfw_replay",
    family="optimizers",
    paper=PAPER,
    theorem="generalized SFW (spec 14 §3.3, R1 §3.4): documented recursion",
    algorithms=("reference.optimizers:sfw",),
)
def prove_sfw_replay(profile: ProveProfile) -> BoundCheck:
    """Every ball, the exact and the NS5 spectral LMO (3 steps, not the default 5), clipping on
    and off, shape scaling on a 5 x 3 block; constant ``gamma = 0.3``, ``b1 = 0.6``,
    ``b2 = 0.85``."""
    configs: tuple[
        tuple[Literal["linf", "spectral", "l2", "l1"], bool, Literal["exact", "newton_schulz"]],
        ...,
    ] = (
        ("linf", True, "exact"),
        ("l2", False, "exact"),
        ("l1", True, "exact"),
        ("spectral", True, "exact"),
        ("spectral", False, "newton_schulz"),
    )
    return worst(
        sfw_replay(
            which=which,
            shape=(5, 3),
            steps=12,
            radius=0.7,
            step_size=0.3,
            b1=0.6,
            b2=0.85,
            clip_tau=0.8 if i % 2 == 0 else math.inf,
            shape_scaled=scaled,
            polar_method=method,
            ns_steps=3,
            seed=profile.seed + 40 + i,
        )
        for i, (which, scaled, method) in enumerate(configs)
    )


def _vr_replay_error(
    opt: Optimizer[Any, Any],
    *,
    which: str,
    radius: float,
    gamma: float,
    a: float,
    tau: float,
    clip: str,
    polar_method: str,
    ns_steps: int,
    seed: int,
) -> float:
    """Largest iterate difference between ``opt`` and the R2 recursion replayed here on a
    5 x 3 block (gradient norms from ``0.2 tau`` to ``5 tau``, 10 steps)::

        m_0 = clip(g_0);  m_t = clip(g_t) + (1 - a)(m_{t-1} - clip(g'_t))  (per_gradient)
                          m_t = clip(g_t + (1 - a)(m_{t-1} - g'_t))        (estimator)
        x_{t+1} = (1 - gamma) x_t + gamma LMO(m_t)   (ball of ``radius``)
    """
    rng = np.random.default_rng(seed)
    shape = (5, 3)

    def clipped(u: FloatArray) -> FloatArray:
        size = math.sqrt(float(np.sum(u * u)))
        return u * (tau / size) if size > tau else u

    def draw() -> FloatArray:
        g = rng.normal(size=shape)
        out: FloatArray = g * (rng.uniform(0.2, 5.0) * tau / math.sqrt(float(np.sum(g * g))))
        return out

    x = rng.normal(size=shape) * 0.1
    state = opt.init(x)
    mine, m = x.copy(), np.zeros(shape)
    error = 0.0
    for t in range(10):
        g, gp = draw(), draw()
        update, state = opt.update(g.copy(), state, x, prev_grads=gp.copy())
        x = x + np.asarray(update, dtype=np.float64)
        if t == 0:
            m = clipped(g)
        elif clip == "per_gradient":
            m = clipped(g) + (1.0 - a) * (m - clipped(gp))
        else:
            m = clipped(g + (1.0 - a) * (m - gp))
        mine = (1.0 - gamma) * mine + gamma * _ball_lmo(m, radius, which, polar_method, ns_steps)
        error = max(error, float(np.max(np.abs(x - mine))))
    return error


def sfw_vr_replay(
    *,
    which: Literal["linf", "spectral", "l2", "l1"],
    clip: Literal["per_gradient", "estimator"],
    shape_scaled: bool,
    polar_method: Literal["exact", "newton_schulz"],
    seed: int,
) -> BoundCheck:
    """The clipped STORM-type SFW (R2, spec 14 §3.4) replayed from its documented recursion
    (:func:`_vr_replay_error`) on a 5 x 3 block (radius times ``(5/3)^(1/2)`` when
    ``shape_scaled``), constant ``gamma = 0.3``, ``a = 0.4``, ``tau = 0.8``, NS5 with 3 steps
    for ``polar="newton_schulz"``.  The LMOs are recomputed here.  Measured: the largest
    absolute difference of the iterates; ``atol = 1e-10``.
    """
    radius, gamma, a, tau = 0.7, 0.3, 0.4, 0.8
    opt = impl(sfw_vr)(
        which=which,
        radius=radius,
        step_size=gamma,
        a=a,
        clip_tau=tau,
        clip=clip,
        shape_scaled=shape_scaled,
        polar=polar_method,
        ns_steps=3,
    )
    error = _vr_replay_error(
        opt,
        which=which,
        radius=radius * math.sqrt(5.0 / 3.0) if shape_scaled else radius,
        gamma=gamma,
        a=a,
        tau=tau,
        clip=clip,
        polar_method=polar_method,
        ns_steps=3,
        seed=seed,
    )
    return BoundCheck(
        claim=f"clipped VR SFW ({which}, clip {clip}, polar {polar_method}) = its recursion",
        paper=PAPER,
        theorem="R2 (spec 14 §3.4): documented recursion",
        measured=error,
        bound=0.0,
        sense="==",
        atol=1e-10,
        params={
            "which": which,
            "clip": clip,
            "shape_scaled": shape_scaled,
            "polar": polar_method,
            "seed": seed,
        },
    )


@register(
    name="optimizers.sfw_vr_replay",
    family="optimizers",
    paper=PAPER,
    theorem="R2 (spec 14 §3.4): documented recursion",
    algorithms=("reference.optimizers:sfw_vr",),
)
def prove_sfw_vr_replay(profile: ProveProfile) -> BoundCheck:
    """Both clip placements, shape scaling, the exact and the NS5 spectral LMO, the l1 ball."""
    configs: tuple[
        tuple[
            Literal["linf", "spectral", "l2", "l1"],
            Literal["per_gradient", "estimator"],
            bool,
            Literal["exact", "newton_schulz"],
        ],
        ...,
    ] = (
        ("spectral", "estimator", True, "newton_schulz"),
        ("l1", "per_gradient", True, "exact"),
        ("spectral", "per_gradient", False, "exact"),
        ("l2", "estimator", False, "exact"),
    )
    return worst(
        sfw_vr_replay(which=w, clip=c, shape_scaled=s, polar_method=p, seed=profile.seed + 50 + i)
        for i, (w, c, s, p) in enumerate(configs)
    )


def vr_variants_replay(*, clip: Literal["per_gradient", "estimator"], seed: int) -> BoundCheck:
    """Lion-VR and Muon-VR are R2 on their balls (spec 14 §3.4), replayed with
    :func:`_vr_replay_error`: Lion-VR on ``{||x||_inf <= 1/lambda}``, Muon-VR on the spectral
    ball of radius ``(5/3)^(1/2)/lambda`` (a 5 x 3 block) with NS5 of 3 steps, both with
    ``gamma = eta lambda``; ``eta = 0.15``, ``lambda = 2``, ``a = 0.4``, ``tau = 0.8``.
    Measured: the larger of the two iterate differences; ``atol = 1e-10``.
    """
    eta, lam, a, tau = 0.15, 2.0, 0.4, 0.8
    lion_error = _vr_replay_error(
        impl(lion_vr)(learning_rate=eta, weight_decay=lam, a=a, clip_tau=tau, clip=clip),
        which="linf",
        radius=1.0 / lam,
        gamma=eta * lam,
        a=a,
        tau=tau,
        clip=clip,
        polar_method="exact",
        ns_steps=3,
        seed=seed,
    )
    muon_error = _vr_replay_error(
        impl(muon_vr)(
            learning_rate=eta,
            weight_decay=lam,
            a=a,
            clip_tau=tau,
            clip=clip,
            exact_polar=False,
            ns_steps=3,
        ),
        which="spectral",
        radius=math.sqrt(5.0 / 3.0) / lam,
        gamma=eta * lam,
        a=a,
        tau=tau,
        clip=clip,
        polar_method="newton_schulz",
        ns_steps=3,
        seed=seed,
    )
    return BoundCheck(
        claim=f"Lion-VR and Muon-VR (clip {clip}) = R2 on their balls",
        paper=PAPER,
        theorem="R2 (spec 14 §3.4): the Lion and Muon variants it induces",
        measured=max(lion_error, muon_error),
        bound=0.0,
        sense="==",
        atol=1e-10,
        params={"clip": clip, "seed": seed, "lion": lion_error, "muon": muon_error},
    )


@register(
    name="optimizers.vr_variants_replay",
    family="optimizers",
    paper=PAPER,
    theorem="R2 (spec 14 §3.4): the Lion and Muon variants it induces",
    algorithms=("reference.optimizers:lion_vr", "reference.optimizers:muon_vr"),
)
def prove_vr_variants_replay(profile: ProveProfile) -> BoundCheck:
    """Both clip placements."""
    placements: tuple[Literal["per_gradient", "estimator"], ...] = ("per_gradient", "estimator")
    return worst(
        vr_variants_replay(clip=c, seed=profile.seed + 55 + i) for i, c in enumerate(placements)
    )
