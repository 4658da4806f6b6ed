"""Theorem checks for TSP with predictions (spec 10; Eliáš, Grandoni, Polak, Vercesi, ICML 2026).

The paper's theorem statements could not be read; the statements checked here are the
(reconstruction) of spec 10 §4, which proves the abstract's guarantee for our decoders:

* :func:`lemma_a` — ``repair(H)``: ``w(F) <= w(T*∖H)``, ``w(M) <= w((H ∪ F) Δ T*)`` and
  ``cost <= OPT + 2w(H∖T*) + 2w(F) - 2w(F ∩ T*)`` (<= ``OPT + 2w(H Δ T*)``).
* :func:`theorem_b` — the sweep: ``ALG <= OPT + 2η`` and :func:`theorem_b_approx`:
  ``ALG <= 1.5·OPT``.
* :func:`corollary_c` — a tour ``T`` given as heatmap gives ``ALG <= w(T)``.
* :func:`proposition_d` — threshold ``τ``: ``ALG <= OPT + 2·max(1/τ, 1/(1-τ))·η``.
* :func:`proposition_e` — ``E_τ[cost(repair(H_τ))] <= OPT + 2η`` (computed exactly).
* :func:`held_karp_oracle` — Held-Karp equals brute force (``n <= 8``): the OPT oracle is right.

OPT is exact (Held-Karp, ``n <= 12``); η uses the Held-Karp tour, a valid upper bound on
``η(X)`` since the guarantees hold for every optimal tour.  Error budget of every inequality:
``atol = TSP_ATOL·max(1, OPT)`` (float64 sums of at most ~100 terms; the checks call the
reference decoders, whose matching is exact: enumeration for at most 8 odd vertices, else an
integer program solved by HiGHS to a relative ``1e-12`` of ``max w``, see
:mod:`reference.tsp.matching`).  No tightness instance is given in the spec; tightness is
checked on η = 0, where ``OPT + 2η = OPT`` is attained with equality.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from proofs_numeric._registry import ProveProfile, register, worst
from proofs_numeric._result import BoundCheck
from reference import tsp
from reference._arrays import FloatArray, IntArray

__all__ = [
    "GENERATORS",
    "TSP_ATOL",
    "corollary_c",
    "held_karp_oracle",
    "lemma_a",
    "make_heatmap",
    "proposition_d",
    "proposition_e",
    "prove_corollary_c",
    "prove_held_karp_oracle",
    "prove_lemma_a",
    "prove_proposition_d",
    "prove_proposition_e",
    "prove_theorem_b",
    "prove_theorem_b_approx",
    "random_cases",
    "theorem_b",
    "theorem_b_approx",
]

#: Relative error budget of every inequality (times ``max(1, OPT)``), spec §4: 1e-9.
TSP_ATOL = 1e-9
#: Heatmap generators drawn by the drivers (spec §3.6 G1-G4, plus uniform noise).
GENERATORS = ("G1", "G2", "G3", "G4", "uniform")

_PAPER = "Eliáš, Grandoni, Polak, Vercesi, ICML 2026 (spec 10, reconstruction)"
Decoder = Callable[[FloatArray, FloatArray], IntArray]


def _budget(opt: float) -> float:
    return TSP_ATOL * max(1.0, abs(opt))


def _weight(w: FloatArray, edges: set[tuple[int, int]]) -> float:
    return float(sum(w[a, b] for a, b in edges))


def _edge_set(pairs: object) -> set[tuple[int, int]]:
    arr = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    return {(min(int(a), int(b)), max(int(a), int(b))) for a, b in arr.tolist()}


def make_heatmap(
    kind: str, distances: FloatArray, optimal_tour: IntArray, rng: np.random.Generator
) -> FloatArray:
    """A heatmap of generator ``kind`` (one of :data:`GENERATORS`) around ``optimal_tour``.

    Raises:
        ValueError: unknown ``kind``.
    """
    n = distances.shape[0]
    if kind == "G1":
        sigma = float(rng.choice([0.0, 0.1, 0.2, 0.4]))
        return tsp.perturbed_optimum(optimal_tour, sigma=sigma, rng=rng)
    if kind == "G2":
        flips = int(rng.integers(0, min(n, n * (n - 1) // 2 - n) + 1))
        return tsp.edge_flips(optimal_tour, k=flips, rng=rng)
    if kind == "G3":
        return tsp.mixture_heatmap(optimal_tour, lam=float(rng.uniform()), rng=rng)
    if kind == "G4":
        return tsp.soft_dist(distances, temperature=float(rng.choice([0.02, 0.05, 0.2])))
    if kind == "uniform":
        upper = np.triu(rng.uniform(size=(n, n)), 1)
        out: FloatArray = upper + upper.T
        return out
    raise ValueError(f"kind: expected one of {GENERATORS}, got {kind!r}")


def random_cases(
    profile: ProveProfile, *, max_n: int | None = None
) -> Iterator[tuple[FloatArray, float, IntArray, FloatArray, str]]:
    """``(D, OPT, T*, X, generator)`` for random instances ``n ∈ [4, 12]`` and every generator.

    ``quick``: ``profile.instances`` instances per generator with ``n <= 9``; ``full``:
    ``n <= 12``.  Euclidean points and random shortest-path metrics alternate.
    """
    rng = np.random.default_rng(profile.seed)
    top = max_n if max_n is not None else (12 if profile.is_full else 9)
    for index in range(profile.instances):
        for kind in GENERATORS:
            n = int(rng.integers(4, top + 1))
            if index % 2 == 0:
                _, distances = tsp.euclidean_instance(n, rng=rng)
            else:
                distances = tsp.random_metric_instance(n, rng=rng)
            opt, best = tsp.held_karp(distances)
            yield distances, opt, best, make_heatmap(kind, distances, best, rng), kind


# ------------------------------------------------------------------------------ checks
def lemma_a(
    distances: FloatArray, edges: object, opt: float, optimal_tour: IntArray
) -> tuple[BoundCheck, BoundCheck, BoundCheck]:
    """Lemma A on one edge set ``H``: its three inequalities, measured on ``repair_steps``.

    Returns ``(connect, matching, final)``:

    * ``w(F) <= w(T*∖H)`` (the tour edges leaving H-components connect them);
    * ``w(M) <= w(J)``, ``J = (H ∪ F) Δ T*`` (an O-join shortcuts to a matching on O);
    * ``cost <= OPT + 2w(H∖T*) + 2w(F) - 2w(F ∩ T*)``.
    """
    steps = tsp.repair_steps(distances, edges)
    heat = _edge_set(steps.heat_edges)
    connect = _edge_set(steps.connect_edges)
    matching_weight = _weight(distances, _edge_set(steps.matching_edges))
    star = _edge_set(tsp.tour_edges(optimal_tour))
    budget = _budget(opt)
    params = {"n": distances.shape[0], "|H|": len(heat), "OPT": opt}
    first = BoundCheck(
        claim="w(F) <= w(T* \\ H)",
        paper=_PAPER,
        theorem="Lemma A (i)",
        measured=_weight(distances, connect),
        bound=_weight(distances, star - heat),
        sense="<=",
        atol=budget,
        params=params,
    )
    join = (heat | connect) ^ star
    second = BoundCheck(
        claim="w(M) <= w((H ∪ F) Δ T*)",
        paper=_PAPER,
        theorem="Lemma A (ii)",
        measured=matching_weight,
        bound=_weight(distances, join),
        sense="<=",
        atol=budget,
        params=params,
    )
    bound = (
        opt
        + 2.0 * _weight(distances, heat - star)
        + 2.0 * _weight(distances, connect)
        - 2.0 * _weight(distances, connect & star)
    )
    third = BoundCheck(
        claim="cost(repair(H)) <= OPT + 2w(H \\ T*) + 2w(F) - 2w(F ∩ T*)",
        paper=_PAPER,
        theorem="Lemma A",
        measured=steps.cost,
        bound=bound,
        sense="<=",
        atol=budget,
        params=params,
    )
    return first, second, third


def theorem_b(
    distances: FloatArray,
    heatmap: FloatArray,
    opt: float,
    optimal_tour: IntArray,
    *,
    decoder: Decoder = tsp.sweep_decode,
) -> BoundCheck:
    """Theorem B: ``cost(decoder(D, X)) <= OPT + 2η(X, T*)`` on one instance."""
    cost = tsp.tour_length(distances, decoder(distances, heatmap))
    error = tsp.eta(distances, heatmap, optimal_tour)
    return BoundCheck(
        claim="ALG <= OPT + 2η",
        paper=_PAPER,
        theorem="Theorem B",
        measured=cost,
        bound=opt + 2.0 * error,
        sense="<=",
        atol=_budget(opt),
        params={"n": distances.shape[0], "OPT": opt, "eta": error},
    )


def theorem_b_approx(
    distances: FloatArray,
    heatmap: FloatArray,
    opt: float,
    *,
    decoder: Decoder = tsp.sweep_decode,
) -> BoundCheck:
    """Theorem B, second bound: ``cost(decoder(D, X)) <= 1.5·OPT`` on one instance."""
    cost = tsp.tour_length(distances, decoder(distances, heatmap))
    return BoundCheck(
        claim="ALG <= 1.5·OPT",
        paper=_PAPER,
        theorem="Theorem B",
        measured=cost,
        bound=1.5 * opt,
        sense="<=",
        atol=_budget(opt),
        params={"n": distances.shape[0], "OPT": opt},
    )


def corollary_c(
    distances: FloatArray, tour: IntArray, *, decoder: Decoder = tsp.sweep_decode
) -> BoundCheck:
    """Corollary C: with ``X = Y_T`` the decoder's tour costs at most ``w(T)``."""
    given = tsp.tour_length(distances, tour)
    cost = tsp.tour_length(distances, decoder(distances, tsp.tour_indicator(tour)))
    return BoundCheck(
        claim="ALG(Y_T) <= w(T)",
        paper=_PAPER,
        theorem="Corollary C",
        measured=cost,
        bound=given,
        sense="<=",
        atol=_budget(given),
        params={"n": distances.shape[0]},
    )


def proposition_d(
    distances: FloatArray, heatmap: FloatArray, tau: float, opt: float, optimal_tour: IntArray
) -> BoundCheck:
    """Proposition D: ``cost(threshold_decode(X, τ)) <= OPT + 2·max(1/τ, 1/(1-τ))·η``
    (``OPT + 2η`` for a 0/1 heatmap, any ``τ``)."""
    cost = tsp.tour_length(distances, tsp.threshold_decode(distances, heatmap, tau))
    error = tsp.eta(distances, heatmap, optimal_tour)
    binary = bool(np.all((heatmap == 0.0) | (heatmap == 1.0)))
    factor = 1.0 if binary else max(1.0 / tau, 1.0 / (1.0 - tau) if tau < 1.0 else np.inf)
    return BoundCheck(
        claim="ALG_τ <= OPT + 2·max(1/τ, 1/(1-τ))·η",
        paper=_PAPER,
        theorem="Proposition D",
        measured=cost,
        bound=opt + 2.0 * factor * error if error > 0 else opt,
        sense="<=",
        atol=_budget(opt),
        params={"n": distances.shape[0], "tau": tau, "eta": error, "binary": binary},
    )


def proposition_e(
    distances: FloatArray, heatmap: FloatArray, opt: float, optimal_tour: IntArray
) -> BoundCheck:
    """Proposition E: ``E_τ[cost(repair(H_τ))] <= OPT + 2η`` (the expectation in closed form)."""
    expected = tsp.expected_threshold_cost(distances, heatmap)
    error = tsp.eta(distances, heatmap, optimal_tour)
    return BoundCheck(
        claim="E_τ[cost(repair(H_τ))] <= OPT + 2η",
        paper=_PAPER,
        theorem="Proposition E",
        measured=expected,
        bound=opt + 2.0 * error,
        sense="<=",
        atol=_budget(opt),
        params={"n": distances.shape[0], "eta": error},
    )


def held_karp_oracle(distances: FloatArray) -> BoundCheck:
    """The OPT oracle: Held-Karp's length equals brute force over all tours (``n <= 9``)."""
    opt, tour = tsp.held_karp(distances)
    brute, _ = tsp.brute_force_tsp(distances)
    return BoundCheck(
        claim="Held-Karp OPT == brute-force OPT (and == length of its tour)",
        paper="Held & Karp (1962)",
        theorem="dynamic program",
        measured=max(opt, tsp.tour_length(distances, tour)),
        bound=brute,
        sense="==",
        atol=_budget(brute),
        params={"n": distances.shape[0]},
    )


# ----------------------------------------------------------------------------- drivers
_ALG = "reference.tsp:sweep_decode"


@register(
    name="tsp.opt_plus_two_eta",
    family="tsp",
    paper=_PAPER,
    theorem="Theorem B: ALG <= OPT + 2η",
    algorithms=(_ALG, "reference.tsp:held_karp"),
)
def prove_theorem_b(profile: ProveProfile) -> BoundCheck:
    """The sweep on random instances (every generator); the worst ratio is reported, with the
    gap ``(ALG - OPT)/OPT`` against ``2η/OPT`` as a series (every point below the diagonal)."""
    checks: list[BoundCheck] = []
    xs: list[float] = []
    ys: list[float] = []
    for distances, opt, best, heat, _ in random_cases(profile):
        check = theorem_b(distances, heat, opt, best)
        checks.append(check)
        xs.append((check.bound - opt) / opt)
        ys.append((check.measured - opt) / opt)
        two_opt = theorem_b(
            distances,
            heat,
            opt,
            best,
            decoder=lambda d, x: tsp.sweep_decode(d, x, with_two_opt=True),
        )
        checks.append(two_opt)
    result = worst(checks)
    return BoundCheck(
        claim=result.claim,
        paper=result.paper,
        theorem=result.theorem,
        measured=result.measured,
        bound=result.bound,
        sense=result.sense,
        atol=result.atol,
        params={**result.params, "instances": len(checks)},
        series={"gap vs 2η/OPT": (tuple(xs), tuple(ys))},
    )


@register(
    name="tsp.one_and_a_half_opt",
    family="tsp",
    paper=_PAPER,
    theorem="Theorem B: ALG <= 1.5·OPT",
    algorithms=(_ALG,),
)
def prove_theorem_b_approx(profile: ProveProfile) -> BoundCheck:
    """The sweep is a 1.5-approximation whatever the heatmap (also adversarial uniform noise)."""
    return worst(theorem_b_approx(d, x, opt) for d, opt, _, x, _ in random_cases(profile))


@register(
    name="tsp.lemma_a",
    family="tsp",
    paper=_PAPER,
    theorem="Lemma A (three steps)",
    algorithms=("reference.tsp:repair",),
)
def prove_lemma_a(profile: ProveProfile) -> BoundCheck:
    """Every step of Lemma A on ``H = H_τ`` for three thresholds per instance and ``H = ∅``."""
    checks: list[BoundCheck] = []
    for distances, opt, best, heat, _ in random_cases(profile):
        for tau in (0.25, 0.5, 0.9, 2.0):
            iu, ju = np.nonzero(np.triu(heat >= tau, 1))
            checks.extend(lemma_a(distances, np.stack([iu, ju], axis=1), opt, best))
    return worst(checks)


@register(
    name="tsp.corollary_c",
    family="tsp",
    paper=_PAPER,
    theorem="Corollary C: X = Y_T gives ALG <= w(T)",
    algorithms=(_ALG,),
)
def prove_corollary_c(profile: ProveProfile) -> BoundCheck:
    """Random tours and the optimal tour as heatmaps (the optimal one: equality, ratio 1)."""
    rng = np.random.default_rng(profile.seed + 1)
    checks: list[BoundCheck] = []
    for distances, _, best, _, _ in random_cases(profile):
        checks.append(corollary_c(distances, rng.permutation(distances.shape[0])))
        checks.append(corollary_c(distances, best))
    return worst(checks)


@register(
    name="tsp.proposition_d",
    family="tsp",
    paper=_PAPER,
    theorem="Proposition D: fixed threshold",
    algorithms=("reference.tsp:threshold_decode",),
)
def prove_proposition_d(profile: ProveProfile) -> BoundCheck:
    """Thresholds ``τ ∈ {0.25, 0.5, 0.75}`` on every generator."""
    return worst(
        proposition_d(d, x, tau, opt, best)
        for d, opt, best, x, _ in random_cases(profile)
        for tau in (0.25, 0.5, 0.75)
    )


@register(
    name="tsp.proposition_e",
    family="tsp",
    paper=_PAPER,
    theorem="Proposition E: randomized threshold",
    algorithms=("reference.tsp:expected_threshold_cost", "reference.tsp:sampled_decode"),
)
def prove_proposition_e(profile: ProveProfile) -> BoundCheck:
    """The exact expectation over ``τ ~ U(0, 1]`` on every generator."""
    return worst(proposition_e(d, x, opt, best) for d, opt, best, x, _ in random_cases(profile))


@register(
    name="tsp.held_karp_oracle",
    family="tsp",
    paper="Held & Karp (1962)",
    theorem="exact DP equals enumeration",
    algorithms=("reference.tsp:held_karp", "reference.tsp:brute_force_tsp"),
)
def prove_held_karp_oracle(profile: ProveProfile) -> BoundCheck:
    """Euclidean, metric and integer-grid instances ``n ∈ [3, 8]`` (ties included)."""
    rng = np.random.default_rng(profile.seed + 2)
    checks: list[BoundCheck] = []
    for _ in range(4 * profile.instances):
        n = int(rng.integers(3, 9))
        _, euclid = tsp.euclidean_instance(n, rng=rng)
        grid = tsp.distance_matrix(rng.integers(0, 3, size=(n, 2)).astype(np.float64))
        checks.extend(
            held_karp_oracle(d) for d in (euclid, tsp.random_metric_instance(n, rng=rng), grid)
        )
    return worst(checks)
