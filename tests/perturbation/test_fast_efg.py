"""The sequence-form fast path (:mod:`reference.perturbation.fast_efg`) against the reference.

Every method of :func:`fast_efg.run` runs beside its function in :mod:`reference.extensive`
(``tol=None``) on Kuhn poker and on Leduc poker, in the plain-Python build of the loops (always)
and the numba build (skipped where numba is absent).  The products are sparse (index order)
where the reference uses dense BLAS, so histories and iterates agree to ``ATOL``, not to the
bit.  The last pair's NashConv is recomputed by the reference's ``nash_conv`` on the dense
matrix (an independent routine).  No timing is asserted.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from reference import extensive as efg
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

#: (eta, mu) per method (Table 4, Kuhn).
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
    eta, mu = SETTINGS[method]
    if method == "AsymP-DGDA":
        return efg.asymp_dgda(game, mu=mu, eta=eta, max_iter=iters, tol=None, variant="official")
    if method == "SymP-DGDA":
        return efg.symp_dgda(game, mu=mu, eta=eta, max_iter=iters, tol=None, variant="official")
    if method == "DGDA":
        return efg.dgda(game, eta=eta, max_iter=iters, tol=None)
    if method == "DMWU":
        return efg.dmwu(game, eta=eta, max_iter=iters, tol=None)
    if method == "DOMWU":
        return efg.dmwu(game, eta=eta, max_iter=iters, tol=None, optimistic=True)
    return efg.dogda(game, eta=eta, max_iter=iters, tol=None)


@pytest.mark.parametrize("method", fast_efg.METHODS)
@pytest.mark.parametrize(("name", "iters"), [("kuhn", 200), ("leduc", 12)])
def test_fast_matches_reference(build: str, method: str, name: str, iters: int) -> None:
    game = efg.kuhn_poker() if name == "kuhn" else efg.leduc_poker()
    eta, mu = SETTINGS[method]
    r = fast_efg.run(fast_efg.from_game(game), method, eta=eta, mu=mu, iterations=iters)
    ref = _reference(game, method, iters)
    assert r.history.shape == (iters + 1,)
    np.testing.assert_allclose(r.history, ref.history, rtol=0, atol=ATOL)
    np.testing.assert_allclose(r.x, ref.x, rtol=0, atol=ATOL)
    np.testing.assert_allclose(r.y, ref.y, rtol=0, atol=ATOL)
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
    one = fast_efg.run(fg, "DOGDA", eta=0.1, iterations=50)
    two = fast_efg.run(fast_efg.from_game(game), "DOGDA", eta=0.1, iterations=50)
    np.testing.assert_allclose(one.history, two.history, rtol=0, atol=1e-13)


def test_bad_input_names_the_argument() -> None:
    fg = fast_efg.from_game(efg.kuhn_poker())
    with pytest.raises(ValueError, match="method"):
        fast_efg.run(fg, "CFR", eta=0.1, iterations=1)
    with pytest.raises(ValueError, match="eta"):
        fast_efg.run(fg, "DGDA", eta=0.0, iterations=1)
    with pytest.raises(ValueError, match="mu"):
        fast_efg.run(fg, "AsymP-DGDA", eta=0.1, mu=0.0, iterations=1)
    with pytest.raises(TypeError, match="game"):
        fast_efg.run("kuhn", "DGDA", eta=0.1, iterations=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="x_tree"):
        fast_efg.from_arrays(3, 3, [[0, 2, 0]], [[1, 2, 0]], [0], [0], [1.0])
    with pytest.raises(ValueError, match="rows"):
        fast_efg.from_arrays(3, 3, [[1, 2, 0]], [[1, 2, 0]], [5], [0], [1.0])
