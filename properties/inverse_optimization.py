"""Conformance suites for online inverse linear optimization over M-convex sets (spec 18).

Suites:

* ``inverse_optimization.family`` — an action-set factory ``fn(d, *, rng) -> family`` whose
  object has ``d``, ``argmax(w)``, ``contains(x)``, ``exchange_arcs(x)``, ``enumerate()``:
  M-convexity, exact argmax, invariances, exchange arcs, Proposition 2.4.
* ``inverse_optimization.recommender`` — a learner factory ``fn(*, dim) -> learner`` with
  ``init()``, ``recommend(state, family)``, ``update(state, family, recommended, observed)``:
  feasibility, invariance to positive scaling of ``w*``, determinism (any learner, baselines too).
* ``inverse_optimization.learner`` — Algorithm 1 behaviour: consistency with all feedback,
  ``<= d(d-1)/2`` mistakes (Thm 3.1), one mistake for ``d = 2``, contradiction rejected.
* ``inverse_optimization.centroid_learner`` — ``<= M_d`` mistakes (Thm 4.2), random and adaptive.
* ``inverse_optimization.robust_learner`` — Algorithm 2: ``<= (C+1)(M_d+1) + C`` mistakes with
  ``C`` corrupted rounds (Thm 5.3, reconstructed form), never raises on contradictions.

The adaptive adversary (:func:`adversarial_run`) only *probes* ``recommend`` on two-point
sets (learners are pure), so it works for any implementation of the interface.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from properties._runner import Capabilities, CheckFailure, Suite, expect, expect_le
from properties._suite import check
from properties.strategies import distinct_float_arrays, permutations, seeds
from reference import inverse_optimization as io
from reference._arrays import FloatArray, IntArray

__all__ = [
    "CENTROID_LEARNER",
    "FAMILY",
    "LEARNER",
    "RECOMMENDER",
    "ROBUST_LEARNER",
    "SUITES",
    "adversarial_run",
    "run_rounds",
]


class FamilyFactory(Protocol):
    """``(d, *, rng) -> family`` (an M-convex action set with its oracles)."""

    def __call__(self, d: int, /, *, rng: np.random.Generator) -> Any:
        """Return a random action set in ``Z^d``."""
        ...


class LearnerFactory(Protocol):
    """``(*, dim) -> learner`` with ``init``/``recommend``/``update``."""

    def __call__(self, *, dim: int) -> Any:
        """Return a learner for dimension ``dim``."""
        ...


# ----------------------------------------------------------------------------- helpers
def _point(value: object, d: int, what: str) -> IntArray:
    arr = np.asarray(value)
    expect(arr.shape == (d,), what=f"shape of {what}", measured=arr.shape, allowed=(d,))
    expect(
        arr.dtype.kind in "biuf" and bool(np.all(arr == np.round(arr))),
        what=f"{what} is an integer vector",
        measured=arr.tolist(),
        allowed="integers",
    )
    return arr.astype(np.int64)


def _generic_w(rng: np.random.Generator, d: int) -> FloatArray:
    return rng.permutation(d).astype(np.float64) + rng.uniform(0.0, 0.5, size=d)


def _draw_generic_w(data: st.DataObject, d: int, label: str = "w*") -> FloatArray:
    """Tie-free weights as :func:`_generic_w` draws them: a permutation of ``0..d-1`` plus
    offsets in ``[0, 0.5]`` with fixed irrational parts, so no two sums of entries tie."""
    order = data.draw(permutations(d), label=f"{label} order")
    offsets = data.draw(distinct_float_arrays((d,), low=0.0, high=0.5), label=f"{label} offsets")
    out: FloatArray = order.astype(np.float64) + offsets
    return out


def run_rounds(
    learner: Any,
    families: list[Any],
    w_star: FloatArray,
    *,
    corrupted: frozenset[int] = frozenset(),
    state: Any = None,
) -> tuple[int, Any, list[IntArray]]:
    """Play the protocol; ``(mistakes, final state, recommendations)``.

    The agent answers with the reference greedy oracle (``io``'s families) or the family's
    own ``argmax``; corrupted rounds answer ``argmax(-w*)``.

    Raises:
        CheckFailure: a recommendation is not in the action set.
    """
    st_ = learner.init() if state is None else state
    mistakes = 0
    recs: list[IntArray] = []
    for t, family in enumerate(families):
        x_hat = _point(learner.recommend(st_, family), family.d, "recommendation")
        expect(
            bool(family.contains(x_hat)),
            what=f"recommendation at round {t} is a member of X_t",
            measured=x_hat.tolist(),
            allowed="a member of X_t",
        )
        recs.append(x_hat)
        best = family.argmax(w_star)
        if float(w_star @ best) - float(w_star @ x_hat) > 1e-9:
            mistakes += 1
        observed = family.argmax(-w_star) if t in corrupted else best
        st_ = learner.update(st_, family, x_hat, observed)
    return mistakes, st_, recs


def adversarial_run(learner: Any, d: int, *, max_rounds: int) -> int:
    """Adaptive two-point adversary that probes ``recommend`` (spec §4, Thm 3.1 / 4.2).

    Ranks coordinates by the learner's pairwise preferences (Copeland score of probing every
    two-point set), asks the first pair adjacent in that ranking that its own answers leave
    undetermined, and answers against the recommendation; ``w*`` is any linear extension of
    the answers, so every round is a mistake.  Returns the mistakes (rounds played).
    """
    state = learner.init()
    answered = np.zeros((d, d), dtype=bool)
    mistakes = 0
    for _ in range(max_rounds):
        wins = np.zeros(d)
        for i, j in itertools.combinations(range(d), 2):
            x_hat = np.asarray(learner.recommend(state, io.two_point_set(d, i, j)))
            wins[i if x_hat[i] == 1 else j] += 1
        order = sorted(range(d), key=lambda v: (-wins[v], v))
        pair = next(
            ((a, b) for a, b in itertools.pairwise(order) if not answered[a, b] | answered[b, a]),
            None,
        )
        if pair is None:
            rest = [
                (a, b)
                for a, b in itertools.combinations(range(d), 2)
                if not answered[a, b] | answered[b, a]
            ]
            if not rest:
                break
            pair = rest[0]
        family = io.two_point_set(d, pair[0], pair[1])
        x_hat = np.asarray(learner.recommend(state, family))
        loser = pair[0] if x_hat[pair[0]] == 1 else pair[1]
        winner = pair[1] if loser == pair[0] else pair[0]
        answered, _ = io.closure_add(answered, [(winner, loser)])
        state = learner.update(state, family, x_hat, np.eye(d, dtype=np.int64)[winner])
        mistakes += 1
    return mistakes


def _families(data: st.DataObject, d: int, count: int, label: str = "families") -> list[Any]:
    # io.random_family samples each family from a generator
    rng = np.random.default_rng(data.draw(seeds(), label=f"{label} seed"))
    return [io.random_family(d, rng=rng) for _ in range(count)]


# ----------------------------------------------------------------------------- family suite
def _draw_family(impl: FamilyFactory, data: st.DataObject) -> tuple[Any, list[IntArray]]:
    d = data.draw(st.integers(2, 6), label="d")
    rng = np.random.default_rng(data.draw(seeds(), label="family seed"))
    family = impl(d, rng=rng)
    points = [_point(p, d, "enumerated point") for p in family.enumerate()]
    expect(len(points) >= 1, what="enumerate() is non-empty", measured=0, allowed=">= 1")
    return family, points


def _weights(data: st.DataObject, d: int, *, ties: bool) -> FloatArray:
    if ties and data.draw(st.booleans(), label="integer weights (ties)"):
        integers = hnp.arrays(np.int64, (d,), elements=st.integers(-2, 2))
        return data.draw(integers, label="integer weights").astype(np.float64)
    return _draw_generic_w(data, d, "weights") - d / 2


_P = "Oki & Sakaue (ICML 2026)"
_S = "Oki & Sakaue (ICML 2026)"


@check("m_convex", anchor=f"{_P}, Def. 2.3")
def check_family_m_convex(impl: FamilyFactory, data: st.DataObject, caps: Capabilities) -> None:
    """The enumerated set satisfies the M-convex exchange axiom (Def. 2.3) and ``contains``."""
    family, points = _draw_family(impl, data)
    if len(points) > 60:  # the brute-force axiom check is O(n² d²) in Python
        points = points[:0]
    expect(
        not points or io.is_m_convex(np.array(points)),
        what="enumerate() is M-convex (Def. 2.3)",
        measured=[p.tolist() for p in points][:12],
        allowed="an M-convex set",
    )
    for p in points:
        expect(
            bool(family.contains(p)),
            what="contains(x) for enumerated x",
            measured=p.tolist(),
            allowed=True,
        )


@check("argmax", anchor=f"{_S}: greedy oracle")
def check_family_argmax(impl: FamilyFactory, data: st.DataObject, caps: Capabilities) -> None:
    """``argmax(w)`` is a member attaining the brute-force maximum (ties allowed)."""
    family, points = _draw_family(impl, data)
    w = _weights(data, family.d, ties=True)
    x = _point(family.argmax(w), family.d, "argmax(w)")
    expect(
        bool(family.contains(x)), what="argmax(w) is a member", measured=x.tolist(), allowed=True
    )
    best = max(float(w @ p) for p in points)
    expect_le(best - float(w @ x), 1e-9, what="max value minus the value of argmax(w)")


@check("invariance", anchor=f"{_S}: invariances")
def check_family_invariance(impl: FamilyFactory, data: st.DataObject, caps: Capabilities) -> None:
    """For generic ``w``: ``argmax(a w + c 1)`` (``a > 0``) and ``argmax(φ(w))`` (``φ`` strictly
    increasing) equal ``argmax(w)`` (the maximizer depends only on the order of ``w``)."""
    family, _ = _draw_family(impl, data)
    w = _weights(data, family.d, ties=False)
    a = data.draw(st.floats(0.01, 100.0), label="scale a")
    c = data.draw(st.floats(-10.0, 10.0), label="shift c")
    base = _point(family.argmax(w), family.d, "argmax(w)")
    for name, other in (
        ("a w + c", a * w + c),
        ("exp(w)", np.exp(w / max(1.0, float(np.max(np.abs(w)))))),
    ):
        got = _point(family.argmax(other), family.d, f"argmax({name})")
        expect(
            bool(np.array_equal(got, base)),
            what=f"argmax({name}) = argmax(w)",
            measured=got.tolist(),
            allowed=base.tolist(),
        )


@check("exchange_arcs", anchor=f"{_S}: E(X, x)")
def check_family_exchange_arcs(
    impl: FamilyFactory, data: st.DataObject, caps: Capabilities
) -> None:
    """``exchange_arcs(x) = {(i, j) : x - e_i + e_j ∈ X}`` (brute force) for every member."""
    family, points = _draw_family(impl, data)
    for x in points[:30]:
        got = frozenset((int(i), int(j)) for i, j in family.exchange_arcs(x))
        want = io.brute_force_arcs(points, x)
        expect(
            got == want,
            what=f"exchange_arcs({x.tolist()})",
            measured=sorted(got),
            allowed=sorted(want),
        )


@check("certificate", anchor=f"{_P}, Prop. 2.4")
def check_family_certificate(impl: FamilyFactory, data: st.DataObject, caps: Capabilities) -> None:
    """Prop. 2.4: ``x`` maximizes ``⟨w, ·⟩`` ⟺ ``w(i) >= w(j)`` on every exchange arc of ``x``."""
    family, points = _draw_family(impl, data)
    w = _weights(data, family.d, ties=True)
    best = max(float(w @ p) for p in points)
    for x in points[:30]:
        optimal = float(w @ x) >= best - 1e-9
        local = all(w[i] >= w[j] for i, j in family.exchange_arcs(x))
        expect(
            optimal == local,
            what=f"x = {x.tolist()} optimal ⟺ local condition",
            measured=f"optimal={optimal}, local={local}",
            allowed="equal",
        )


# ----------------------------------------------------------------------------- recommender suite
def _make(impl: LearnerFactory, d: int) -> Any:
    return impl(dim=d)


@check("feasible", anchor=f"{_S}: x̂_t ∈ X_t")
def check_recommender_feasible(
    impl: LearnerFactory, data: st.DataObject, caps: Capabilities
) -> None:
    """Every recommendation is a member of ``X_t`` (random M-convex families, ``T = 25``)."""
    d = data.draw(st.integers(2, 6), label="d")
    w = _draw_generic_w(data, d)
    run_rounds(_make(impl, d), _families(data, d, 15), w)


@check("scaling", anchor=f"{_S}: scaling of w*")
def check_recommender_scaling(
    impl: LearnerFactory, data: st.DataObject, caps: Capabilities
) -> None:
    """Invariance to positive scaling of ``w*``: ``a w* + c 1`` gives the same recommendations."""
    d = data.draw(st.integers(2, 6), label="d")
    w = _draw_generic_w(data, d)
    a = data.draw(st.floats(0.1, 10.0), label="scale a")
    c = data.draw(st.floats(-5.0, 5.0), label="shift c")
    fams = _families(data, d, 12)
    _, _, first = run_rounds(_make(impl, d), fams, w)
    _, _, second = run_rounds(_make(impl, d), fams, a * w + c)
    for t, (x1, x2) in enumerate(zip(first, second, strict=True)):
        expect(
            bool(np.array_equal(x1, x2)),
            what=f"recommendation at round {t} under a w* + c",
            measured=x2.tolist(),
            allowed=x1.tolist(),
        )


@check("deterministic", anchor="pure learner")
def check_recommender_deterministic(
    impl: LearnerFactory, data: st.DataObject, caps: Capabilities
) -> None:
    """Two runs on the same instance give the same recommendations (pure learner)."""
    d = data.draw(st.integers(2, 6), label="d")
    w = _draw_generic_w(data, d)
    fams = _families(data, d, 10)
    _, _, first = run_rounds(_make(impl, d), fams, w)
    _, _, second = run_rounds(_make(impl, d), fams, w)
    same = all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
    expect(same, what="recommendations of two identical runs", measured="differ", allowed="equal")


# ----------------------------------------------------------------------------- learner suite
@check("repeat_consistency", anchor=f"{_S}: consistency with all uncorrupted feedback")
def check_learner_repeat_consistency(
    impl: LearnerFactory, data: st.DataObject, caps: Capabilities
) -> None:
    """Consistency with all uncorrupted feedback: after the run, every seen ``X_t`` gets an
    optimal recommendation (its observed arcs certify ``x_t``, Prop. 2.4)."""
    d = data.draw(st.integers(2, 7), label="d")
    w = _draw_generic_w(data, d)
    fams = _families(data, d, 20)
    learner = _make(impl, d)
    _, state, _ = run_rounds(learner, fams, w)
    for t, family in enumerate(fams):
        x_hat = np.asarray(learner.recommend(state, family))
        gap = float(w @ family.argmax(w)) - float(w @ x_hat)
        expect_le(gap, 1e-9, what=f"regret on the already-seen set of round {t}")


@check("two_dim", anchor=f"{_S}: d = 2: one mistake")
def check_learner_two_dim(impl: LearnerFactory, data: st.DataObject, caps: Capabilities) -> None:
    """``d = 2`` with two-point sets: at most one mistake, ever."""
    w = np.array(data.draw(st.permutations([0.0, 1.0]), label="w*"))
    fams = [io.two_point_set(2, 0, 1)] * data.draw(st.integers(2, 30), label="T")
    mistakes, _, _ = run_rounds(_make(impl, 2), fams, w)
    expect_le(float(mistakes), 1.0, what="mistakes for d = 2")


@check("pairwise_bound", anchor=f"{_P}, Thm 3.1")
def check_learner_pairwise_bound(
    impl: LearnerFactory, data: st.DataObject, caps: Capabilities
) -> None:
    """Thm 3.1: ``<= d(d-1)/2`` mistakes, on random families and against the adaptive adversary."""
    d = data.draw(st.integers(2, 6), label="d")
    w = _draw_generic_w(data, d)
    bound = d * (d - 1) / 2
    mistakes, _, _ = run_rounds(_make(impl, d), _families(data, d, 40), w)
    expect_le(float(mistakes), bound, what="mistakes on random families <= d(d-1)/2")
    forced = adversarial_run(_make(impl, d), d, max_rounds=int(bound) + 3)
    expect_le(float(forced), bound, what="mistakes forced by the adaptive adversary <= d(d-1)/2")


@check(
    "rejects_contradiction",
    anchor=f"{_S}: InconsistentFeedbackError",
    requires=frozenset({"raises_on_invalid"}),
)
def check_learner_rejects_contradiction(
    impl: LearnerFactory, data: st.DataObject, caps: Capabilities
) -> None:
    """Algorithm 1 fed a contradiction (``e_0`` then ``e_1`` on ``{e_0, e_1}``) raises ValueError."""
    d = data.draw(st.integers(2, 5), label="d")
    learner = _make(impl, d)
    fam = io.two_point_set(d, 0, 1)
    eye = np.eye(d, dtype=np.int64)
    state = learner.update(learner.init(), fam, eye[0], eye[0])
    try:
        learner.update(state, fam, eye[0], eye[1])
    except ValueError:
        return
    raise CheckFailure(
        "Algorithm 1 on contradictory feedback", measured="no error", allowed="raises ValueError"
    )


# ----------------------------------------------------------------------------- centroid suite
@check("random_bound", anchor=f"{_P}, Thm 4.2")
def check_centroid_random_bound(
    impl: LearnerFactory, data: st.DataObject, caps: Capabilities
) -> None:
    """Thm 4.2: ``<= M_d`` mistakes on random M-convex families (``d <= 7``, ``T = 40``)."""
    d = data.draw(st.integers(2, 7), label="d")
    w = _draw_generic_w(data, d)
    mistakes, _, _ = run_rounds(_make(impl, d), _families(data, d, 40), w)
    expect_le(float(mistakes), float(io.mistake_bound(d)), what=f"mistakes <= M_{d}")


@check("adversarial_bound", anchor=f"{_P}, Thm 4.2 (adaptive two-point adversary)")
def check_centroid_adversarial_bound(
    impl: LearnerFactory, data: st.DataObject, caps: Capabilities
) -> None:
    """Thm 4.2 against the adaptive two-point adversary: ``<= M_d`` mistakes (``d = 6..8``)."""
    d = data.draw(st.integers(6, 8), label="d")
    bound = io.mistake_bound(d)
    forced = adversarial_run(_make(impl, d), d, max_rounds=bound + 2)
    expect_le(float(forced), float(bound), what=f"adversarial mistakes <= M_{d}")


@check("plateau", anchor=f"{_P}, Thm 4.2 (T-free regret)")
def check_centroid_plateau(impl: LearnerFactory, data: st.DataObject, caps: Capabilities) -> None:
    """Regret independent of ``T``: replaying the same sequence three more times adds no mistake."""
    d = data.draw(st.integers(2, 7), label="d")
    w = _draw_generic_w(data, d)
    fams = _families(data, d, 20)
    learner = _make(impl, d)
    _, state, _ = run_rounds(learner, fams, w)
    extra, _, _ = run_rounds(learner, fams * 3, w, state=state)
    expect_le(float(extra), 0.0, what="mistakes when the sequence is replayed")


# ----------------------------------------------------------------------------- robust suite
@check("corruption_bound", anchor=f"{_P}, Thm 5.3 (reconstructed explicit form)")
def check_robust_corruption_bound(
    impl: LearnerFactory, data: st.DataObject, caps: Capabilities
) -> None:
    """Thm 5.3 (reconstructed): ``C`` corrupted rounds (argmin answers, at random rounds or
    the first ``C``) give ``<= (C + 1)(M_d + 1) + C`` mistakes; ``d ∈ 3..6``, ``C <= 4``,
    ``T = 100``."""
    d = data.draw(st.integers(3, 6), label="d")
    c = data.draw(st.integers(0, 4), label="C")
    early = data.draw(st.booleans(), label="corrupt the first C rounds")
    w = _draw_generic_w(data, d)
    later = st.lists(st.integers(0, 99), min_size=c, max_size=c, unique=True)
    picked = range(c) if early else data.draw(later, label="corrupted rounds")
    rounds = frozenset(int(t) for t in picked)
    mistakes, _, _ = run_rounds(_make(impl, d), _families(data, d, 100), w, corrupted=rounds)
    bound = (c + 1) * (io.mistake_bound(d) + 1) + c
    expect_le(float(mistakes), float(bound), what=f"mistakes with C = {c} <= (C+1)(M_d+1)+C")


@check("never_raises", anchor=f"{_S}: nothing hangs")
def check_robust_never_raises(
    impl: LearnerFactory, data: st.DataObject, caps: Capabilities
) -> None:
    """Arbitrary (adversarial) feedback: members of ``X_t`` chosen at random never raise, and
    recommendations stay feasible."""
    d = data.draw(st.integers(2, 6), label="d")
    # 30 rounds of random adversarial feedback: a long trajectory, seeded
    rng = np.random.default_rng(data.draw(seeds(), label="feedback seed"))
    learner = _make(impl, d)
    state = learner.init()
    for t, family in enumerate(_families(data, d, 30)):
        try:  # the property itself: an exception here is the measured violation
            recommended = learner.recommend(state, family)
        except Exception as exc:  # any exception violates "never raises": a measurement
            raise _raised(f"recommend in round {t}", exc) from exc
        x_hat = _point(recommended, d, "recommendation")
        expect(
            bool(family.contains(x_hat)),
            what="recommendation is a member",
            measured=x_hat.tolist(),
            allowed=True,
        )
        observed = family.argmax(rng.standard_normal(d))
        try:
            state = learner.update(state, family, x_hat, observed)
        except Exception as exc:  # any exception violates "never raises": a measurement
            raise _raised(f"update in round {t}", exc) from exc


def _raised(what: str, exc: Exception) -> CheckFailure:
    return CheckFailure(what, measured=f"raised {type(exc).__name__}: {exc}", allowed="no raise")


@check("clean_bound", anchor=f"{_P}, Thm 5.3 with C = 0")
def check_robust_clean_bound(impl: LearnerFactory, data: st.DataObject, caps: Capabilities) -> None:
    """``C = 0``: Algorithm 2 is Algorithm 1 with the centroid: ``<= M_d`` adversarial mistakes."""
    d = data.draw(st.integers(6, 8), label="d")
    bound = io.mistake_bound(d)
    forced = adversarial_run(_make(impl, d), d, max_rounds=bound + 2)
    expect_le(float(forced), float(bound), what=f"clean adversarial mistakes <= M_{d}")


# ----------------------------------------------------------------------------- suites
def _callable(name: str) -> Callable[[Any], Any]:
    def adapt(obj: object) -> Any:
        if not callable(obj):
            raise TypeError(f"{name}: expected a callable factory, got {type(obj).__name__}")
        return obj

    return adapt


FAMILY: Suite[FamilyFactory] = Suite(
    name="inverse_optimization.family",
    protocol=FamilyFactory,
    checks=(
        check_family_m_convex,
        check_family_argmax,
        check_family_invariance,
        check_family_exchange_arcs,
        check_family_certificate,
    ),
    adapt=_callable("inverse_optimization.family"),
    description="M-convex action-set factories (d, *, rng) -> family with exact oracles.",
    record_calls=False,
    trace_calls=True,
)

RECOMMENDER: Suite[LearnerFactory] = Suite(
    name="inverse_optimization.recommender",
    protocol=LearnerFactory,
    checks=(
        check_recommender_feasible,
        check_recommender_scaling,
        check_recommender_deterministic,
    ),
    adapt=_callable("inverse_optimization.recommender"),
    description="Any online learner (*, dim) -> learner: feasible, invariant, deterministic.",
    record_calls=False,
    trace_calls=True,
)

LEARNER: Suite[LearnerFactory] = Suite(
    name="inverse_optimization.learner",
    protocol=LearnerFactory,
    checks=(
        check_learner_repeat_consistency,
        check_learner_two_dim,
        check_learner_pairwise_bound,
        check_learner_rejects_contradiction,
    ),
    adapt=_callable("inverse_optimization.learner"),
    description="Algorithm 1 (either point): <= d(d-1)/2 mistakes, consistent with feedback.",
    record_calls=False,
    trace_calls=True,
)

CENTROID_LEARNER: Suite[LearnerFactory] = Suite(
    name="inverse_optimization.centroid_learner",
    protocol=LearnerFactory,
    checks=(
        check_centroid_random_bound,
        check_centroid_adversarial_bound,
        check_centroid_plateau,
    ),
    adapt=_callable("inverse_optimization.centroid_learner"),
    description="Algorithm 1 with the centroid: <= M_d = ⌊ln d!/ln(e/(e-1))⌋ mistakes.",
    record_calls=False,
    trace_calls=True,
)

ROBUST_LEARNER: Suite[LearnerFactory] = Suite(
    name="inverse_optimization.robust_learner",
    protocol=LearnerFactory,
    checks=(
        check_robust_corruption_bound,
        check_robust_never_raises,
        check_robust_clean_bound,
    ),
    adapt=_callable("inverse_optimization.robust_learner"),
    description="Algorithm 2: <= (C+1)(M_d+1)+C mistakes under C corruptions, never raises.",
    record_calls=False,
    trace_calls=True,
)

SUITES = (FAMILY, RECOMMENDER, LEARNER, CENTROID_LEARNER, ROBUST_LEARNER)
