"""The sequence-form fast path (:mod:`reference.perturbation.fast_efg`) against the reference.

Every method of :func:`fast_efg.run` runs beside its function in :mod:`reference.extensive`
(``tol=None``) on Kuhn poker and on Leduc poker, in the plain-Python build of the loops (always)
and the numba build (skipped where numba is absent).  The products are sparse (index order)
where the reference uses dense BLAS, so histories and iterates agree to ``ATOL``, not to the
bit.  The result is the reference's own type, compared with the reference's field by field.  The
last pair's NashConv is recomputed by the reference's ``nash_conv`` on the dense matrix (an
independent routine).  No timing is asserted.

The CFR family (:func:`fast_efg.run_cfr`): the ``"reference"`` convention against
:func:`reference.extensive.cfr` / ``cfr_plus``; both conventions against a history-walking
implementation written here (regrets summed over histories, as OpenSpiel's solvers do, not on
the sequence form) on a small poker-like tree; the ``"openspiel"`` convention against
OpenSpiel's C++ CFR / CFR+ and Python DCFR / LCFR on Kuhn poker (skipped without OpenSpiel).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from reference import extensive as efg
from reference._arrays import FloatArray
from reference.perturbation import fast_efg

#: Measured (numba build): <= 5.6e-16 on Kuhn (200 iterations), <= 1.8e-15 on Leduc (12).
ATOL = 1e-11

BUILDS = [
    "plain",
    pytest.param(
        "compiled",
        marks=pytest.mark.skipif(fast_efg._numba is None, reason="numba not installed"),
    ),
]

#: (step_size, mu) per method (Table 4, Kuhn).
SETTINGS = {
    "AsymP-DGDA": (0.1, 0.01),
    "SymP-DGDA": (0.05, 0.001),
    "DGDA": (0.01, 0.0),
    "DMWU": (0.01, 0.0),
    "DOMWU": (0.1, 0.0),
    "DOGDA": (0.1, 0.0),
}


@pytest.fixture(params=BUILDS)
def build(request: pytest.FixtureRequest) -> Iterator[str]:
    old = fast_efg.ENABLED
    fast_efg.ENABLED = request.param == "compiled"
    yield str(request.param)
    fast_efg.ENABLED = old


def _reference(game: efg.SequenceFormGame, method: str, iters: int) -> Any:
    step_size, mu = SETTINGS[method]
    if method == "AsymP-DGDA":
        return efg.asymp_dgda(
            game, mu=mu, step_size=step_size, max_iter=iters, tol=None, variant="official"
        )
    if method == "SymP-DGDA":
        return efg.symp_dgda(
            game, mu=mu, step_size=step_size, max_iter=iters, tol=None, variant="official"
        )
    if method == "DGDA":
        return efg.dgda(game, step_size=step_size, max_iter=iters, tol=None)
    if method == "DMWU":
        return efg.dmwu(game, step_size=step_size, max_iter=iters, tol=None)
    if method == "DOMWU":
        return efg.dmwu(game, step_size=step_size, max_iter=iters, tol=None, optimistic=True)
    return efg.dogda(game, step_size=step_size, max_iter=iters, tol=None)


def _assert_same_fields(fast: Any, ref: Any, atol: float) -> None:
    """Every field of the reference's result type, field by field: numbers and arrays to
    ``atol`` (sparse vs dense products), everything else exactly."""
    for f in dataclasses.fields(ref):
        got, want = getattr(fast, f.name), getattr(ref, f.name)
        if isinstance(want, np.ndarray):
            assert isinstance(got, np.ndarray), f.name
            assert got.shape == want.shape, f.name
            assert not got.flags.writeable, f.name
            np.testing.assert_allclose(got, want, rtol=0, atol=atol, err_msg=f.name)
        elif isinstance(want, float):
            assert isinstance(got, float), f.name
            assert abs(got - want) <= atol, (f.name, got, want)
        else:
            assert got == want, (f.name, got, want)


@pytest.mark.parametrize("method", fast_efg.METHODS)
@pytest.mark.parametrize(("name", "iters"), [("kuhn", 200), ("leduc", 12)])
def test_fast_matches_reference(build: str, method: str, name: str, iters: int) -> None:
    game = efg.kuhn_poker() if name == "kuhn" else efg.leduc_poker()
    step_size, mu = SETTINGS[method]
    r = fast_efg.run(fast_efg.from_game(game), method, step_size=step_size, mu=mu, iterations=iters)
    ref = _reference(game, method, iters)
    assert type(r) is efg.EFGResult  # the reference's own type, no fast-path twin
    assert r.history.shape == (iters + 1,)
    _assert_same_fields(r, ref, ATOL)
    assert (r.converged, r.stop_reason) == (False, "max_iter")  # tol=None on both sides
    assert efg.plan_violation(game.x_space, r.x) < 1e-12
    assert abs(efg.nash_conv(game, r.x, r.y) - r.history[-1]) < ATOL


def test_arrays_route_equals_the_game_route() -> None:
    game = efg.kuhn_poker()
    a = np.asarray(game.payoff)
    rows, cols = np.nonzero(a)
    # split every entry in two terms: repeated pairs are summed by the products
    fg = fast_efg.from_arrays(
        13,
        13,
        np.array(game.x_space.layout),
        np.array(game.y_space.layout),
        np.r_[rows, rows],
        np.r_[cols, cols],
        np.r_[a[rows, cols] * 0.25, a[rows, cols] * 0.75],
    )
    one = fast_efg.run(fg, "DOGDA", step_size=0.1, iterations=50)
    two = fast_efg.run(fast_efg.from_game(game), "DOGDA", step_size=0.1, iterations=50)
    np.testing.assert_allclose(one.history, two.history, rtol=0, atol=1e-13)


def test_bad_input_names_the_argument() -> None:
    fg = fast_efg.from_game(efg.kuhn_poker())
    with pytest.raises(ValueError, match="method"):
        fast_efg.run(fg, "CFR", step_size=0.1, iterations=1)
    with pytest.raises(ValueError, match="step_size"):
        fast_efg.run(fg, "DGDA", step_size=0.0, iterations=1)
    with pytest.raises(ValueError, match="mu"):
        fast_efg.run(fg, "AsymP-DGDA", step_size=0.1, mu=0.0, iterations=1)
    with pytest.raises(TypeError, match="game"):
        fast_efg.run("kuhn", "DGDA", step_size=0.1, iterations=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="x_tree"):
        fast_efg.from_arrays(3, 3, [[0, 2, 0]], [[1, 2, 0]], [0], [0], [1.0])
    with pytest.raises(ValueError, match="rows"):
        fast_efg.from_arrays(3, 3, [[1, 2, 0]], [[1, 2, 0]], [5], [0], [1.0])


# ------------------------------------------------------------------------------ CFR family
#: Measured: <= 4.5e-15 (plans) on Kuhn after 300 iterations of CFR / CFR+ against the
#: reference; <= 2.5e-12 (NashConv) against OpenSpiel's solvers on Kuhn after 300 iterations.
CFR_ATOL = 1e-11


@pytest.mark.parametrize("plus", [False, True])
@pytest.mark.parametrize(("name", "iters"), [("kuhn", 300), ("leduc", 25)])
def test_cfr_reference_convention_equals_the_reference(
    build: str, plus: bool, name: str, iters: int
) -> None:
    game = efg.kuhn_poker() if name == "kuhn" else efg.leduc_poker()
    ref = (efg.cfr_plus if plus else efg.cfr)(game, iterations=iters)
    r = fast_efg.run_cfr(
        fast_efg.from_game(game),
        "CFR+" if plus else "CFR",
        iterations=iters,
        convention="reference",
    )
    assert isinstance(r, efg.CFRResult)
    assert r.iterations == iters
    assert r.checkpoints.tolist() == [iters]
    _assert_same_fields(r, ref, CFR_ATOL)
    assert abs(efg.nash_conv(game, r.x, r.y) - r.nash_conv) < CFR_ATOL  # independent NashConv


def _small_game() -> efg.Node:
    """A perfect-recall poker-like tree: 3 cards dealt to two players with unequal chance
    probabilities, player 0 with 3 actions, player 1 with 2, a second decision of player 0
    after some answers; payoffs drawn once from a fixed seed."""
    rng = np.random.default_rng(11)
    cards = "JQK"
    deal_p = [0.5, 0.3, 0.2]
    deals: list[tuple[float, efg.Node]] = []
    for c1 in range(3):
        inner: list[tuple[float, efg.Node]] = []
        others = [c for c in range(3) if c != c1]
        for c2, q in zip(others, (0.6, 0.4), strict=True):
            first = []
            for a0 in "abc":
                answers: list[efg.Node] = []
                for a1 in "xy":
                    if a1 == "y" and a0 != "c":
                        answers.append(
                            efg.Decision(
                                player=0,
                                infoset=f"{cards[c1]}:{a0}y",
                                actions=("u", "v"),
                                children=tuple(
                                    efg.Terminal(payoff=float(rng.normal())) for _ in "uv"
                                ),
                            )
                        )
                    else:
                        answers.append(efg.Terminal(payoff=float(rng.normal())))
                first.append(
                    efg.Decision(
                        player=1,
                        infoset=f"{cards[c2]}:{a0}",
                        actions=("x", "y"),
                        children=tuple(answers),
                    )
                )
            root = efg.Decision(
                player=0, infoset=f"{cards[c1]}:", actions=("a", "b", "c"), children=tuple(first)
            )
            inner.append((q, root))
        deals.append((deal_p[c1], efg.Chance(outcomes=tuple(inner))))
    return efg.Chance(outcomes=tuple(deals))


def _walk_cfr(
    root: efg.Node, method: str, iters: int, simultaneous: bool
) -> dict[tuple[int, str], FloatArray]:
    """CFR-family average behavioural strategies by walking the histories (OpenSpiel's way:
    regrets ``cf_reach * (u(h·a) - u(h))`` summed over histories, average weight times own
    reach), independent of the sequence form; player 0 maximises ``Terminal.payoff``."""
    alpha, beta, gamma = {"DCFR": (1.5, 0.0, 2.0), "LCFR": (1.0, 1.0, 1.0)}.get(
        method, (0.0, 0.0, 1.0 if method == "CFR+" else 0.0)
    )
    regret: dict[tuple[int, str], FloatArray] = {}
    total: dict[tuple[int, str], FloatArray] = {}
    policy: dict[tuple[int, str], FloatArray] = {}

    def collect(node: efg.Node) -> None:
        if isinstance(node, efg.Chance):
            for _, child in node.outcomes:
                collect(child)
        elif isinstance(node, efg.Decision):
            key = (node.player, node.infoset)
            k = len(node.actions)
            regret[key], total[key] = np.zeros(k), np.zeros(k)
            policy[key] = np.full(k, 1.0 / k)
            for child in node.children:
                collect(child)

    def walk(node: efg.Node, reach: tuple[float, float, float], who: set[int], w: float) -> float:
        if isinstance(node, efg.Terminal):
            return node.payoff
        if isinstance(node, efg.Chance):
            return sum(
                q * walk(c, (reach[0], reach[1], reach[2] * q), who, w) for q, c in node.outcomes
            )
        key = (node.player, node.infoset)
        pi = policy[key]
        values = np.zeros(len(node.actions))
        for i, child in enumerate(node.children):
            nxt = list(reach)
            nxt[node.player] *= pi[i]
            values[i] = walk(child, (nxt[0], nxt[1], nxt[2]), who, w)
        value = float(pi @ values)
        if node.player in who:
            sign = 1.0 if node.player == 0 else -1.0
            cf = reach[1 - node.player] * reach[2]
            regret[key] += cf * sign * (values - value)
            total[key] += w * reach[node.player] * pi
        return value

    def finish(players: set[int], t: int) -> None:
        for key in regret:
            if key[0] not in players:
                continue
            r = regret[key]
            if method == "CFR+":
                r[:] = np.maximum(r, 0.0)
            if method in ("DCFR", "LCFR"):
                r[:] = np.where(r >= 0, r * t**alpha / (t**alpha + 1), r * t**beta / (t**beta + 1))
        for key in regret:
            if key[0] in players:
                pos = np.maximum(regret[key], 0.0)
                policy[key] = pos / pos.sum() if pos.sum() > 0 else np.full(pos.size, 1 / pos.size)

    collect(root)
    for t in range(1, iters + 1):
        w = float(t) ** gamma
        groups = [{0, 1}] if simultaneous else [{0}, {1}]
        for players in groups:
            walk(root, (1.0, 1.0, 1.0), players, w)
            finish(players, t)
    return {key: v / v.sum() for key, v in total.items()}


def _plan(space: efg.Treeplex, player: int, avg: dict[tuple[int, str], FloatArray]) -> Any:
    b = np.ones(space.n_sequences)
    for j, (s, k, _) in enumerate(space.layout):
        b[s : s + k] = avg[(player, space.names[j])]
    return efg.behavioural_to_plan(space, b)


#: The reference's CFR+ order is checked against the reference itself (above).
WALKED = [
    (m, c)
    for m in fast_efg.CFR_METHODS
    for c in fast_efg.CONVENTIONS
    if (m, c) != ("CFR+", "reference")
]


@pytest.mark.parametrize(("method", "convention"), WALKED)
def test_cfr_family_matches_a_walk_over_the_histories(
    build: str, method: str, convention: str
) -> None:
    root = _small_game()
    game = efg.game_from_tree(root)
    iters = 40
    r = fast_efg.run_cfr(
        fast_efg.from_game(game),
        method,
        iterations=iters,
        convention=convention,
        checkpoints=[1, 7, 20],
    )
    avg = _walk_cfr(root, method, iters, simultaneous=convention == "reference")
    x, y = _plan(game.x_space, 0, avg), _plan(game.y_space, 1, avg)
    np.testing.assert_allclose(r.x, x, rtol=0, atol=CFR_ATOL)
    np.testing.assert_allclose(r.y, y, rtol=0, atol=CFR_ATOL)
    assert r.checkpoints.tolist() == [1, 7, 20, iters]
    assert abs(r.history[-1] - efg.nash_conv(game, x, y)) < CFR_ATOL
    early = _walk_cfr(root, method, 7, simultaneous=convention == "reference")
    nc7 = efg.nash_conv(game, _plan(game.x_space, 0, early), _plan(game.y_space, 1, early))
    assert abs(r.history[1] - nc7) < CFR_ATOL


def test_the_conventions_differ_on_kuhn() -> None:
    fg = fast_efg.from_game(efg.kuhn_poker())
    for method in fast_efg.CFR_METHODS:
        one = fast_efg.run_cfr(fg, method, iterations=50, convention="openspiel")
        two = fast_efg.run_cfr(fg, method, iterations=50, convention="reference")
        assert abs(one.nash_conv - two.nash_conv) > 1e-4, method


def _average_row(policy: Any, key: str) -> dict[int, float]:
    """Action -> probability of an OpenSpiel average policy (Python or C++ tabular)."""
    if hasattr(policy, "policy_for_key"):
        row = policy.policy_for_key(key)
        return {a: float(row[a]) for a in range(len(row))}
    return {int(a): float(p) for a, p in policy.get_state_policy(key)}


def test_cfr_family_matches_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel", exc_type=ModuleNotFoundError)
    dcfr = pytest.importorskip("open_spiel.python.algorithms.discounted_cfr")
    expl = pytest.importorskip("open_spiel.python.algorithms.exploitability")
    game = pyspiel.load_game("kuhn_poker")
    seq = efg.from_openspiel(game)
    xs, ys = seq.x_space, seq.y_space
    fg = fast_efg.from_game(seq)
    checks = [1, 2, 5, 20, 100, 200]
    for method in fast_efg.CFR_METHODS:
        if method in ("CFR", "CFR+"):
            solver = (pyspiel.CFRSolver if method == "CFR" else pyspiel.CFRPlusSolver)(game)
        else:
            solver = (dcfr.DCFRSolver if method == "DCFR" else dcfr.LCFRSolver)(game)
        theirs = []
        for t in range(1, checks[-1] + 1):
            solver.evaluate_and_update_policy()
            if t in checks:
                theirs.append(float(expl.nash_conv(game, solver.average_policy())))
        r = fast_efg.run_cfr(
            fg, method, iterations=checks[-1], convention="openspiel", checkpoints=checks
        )
        np.testing.assert_allclose(r.history, theirs, rtol=0, atol=CFR_ATOL, err_msg=method)
        pol = solver.average_policy()
        for space, plan in ((xs, r.x), (ys, r.y)):
            b = efg.plan_to_behavioural(space, plan)
            for j, (s, k, _) in enumerate(space.layout):
                row = _average_row(pol, space.names[j])
                want = [row[int(label)] for label in space.actions[j]]
                np.testing.assert_allclose(b[s : s + k], want, rtol=0, atol=CFR_ATOL)


def test_run_cfr_bad_input_names_the_argument() -> None:
    fg = fast_efg.from_game(efg.kuhn_poker())
    with pytest.raises(ValueError, match="method"):
        fast_efg.run_cfr(fg, "DGDA", iterations=1, convention="openspiel")
    with pytest.raises(ValueError, match="convention"):
        fast_efg.run_cfr(fg, "CFR", iterations=1, convention="ours")
    with pytest.raises(ValueError, match="iterations"):
        fast_efg.run_cfr(fg, "CFR", iterations=0, convention="openspiel")
    with pytest.raises(ValueError, match="checkpoints"):
        fast_efg.run_cfr(fg, "CFR", iterations=5, convention="openspiel", checkpoints=[6])
    with pytest.raises(ValueError, match="alpha"):
        fast_efg.run_cfr(fg, "DCFR", iterations=5, convention="openspiel", alpha=-1.0)
    with pytest.raises(TypeError, match="beta"):
        fast_efg.run_cfr(fg, "DCFR", iterations=5, convention="openspiel", beta="0")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="game"):
        fast_efg.run_cfr("kuhn", "CFR", iterations=1, convention="openspiel")  # type: ignore[arg-type]
