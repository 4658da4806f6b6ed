"""The shared loop helper (``_iterate``) against the six loops it replaced, bit for bit.

``_base_before_loop`` is ``reference/perturbation/base.py`` as it was before the six fixed-step
methods shared one loop; every field of every result must be identical (same floats, same
iteration counts, same histories), on several games, starts, step sizes and options.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from reference.perturbation import base as new
from tests.perturbation import _base_before_loop as old

RNG = np.random.default_rng(7)
GAMES = {
    "brps": np.array(new.biased_rps()),
    "m_ne": np.array(new.m_ne()),
    "pennies": np.array(new.biased_matching_pennies()),
    "rand_3x5": RNG.uniform(-1.0, 1.0, (3, 5)),
    "rand_6x4": RNG.uniform(-2.0, 2.0, (6, 4)),
    "rank_one": np.outer([1.0, -2.0, 0.5], [0.3, 1.0]),
}
STARTS = {
    name: (RNG.dirichlet(np.ones(a.shape[0])), RNG.dirichlet(np.ones(a.shape[1])))
    for name, a in GAMES.items()
}

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("asymp_gda", {"mu": 0.7, "max_iter": 300, "tol": None}),
    ("asymp_gda", {"mu": 1.0, "step_size": 0.05, "max_iter": 2000, "tol": 1e-10}),
    ("asymp_gda", {"mu": 0.3, "max_iter": 300, "tol": None, "variant": "y_first"}),
    (
        "asymp_gda",
        {"mu": 1.0, "step_size": 0.01, "max_iter": 500, "tol": 1e-13, "stop": "frank_wolfe"},
    ),
    ("asymp_gda_side", {"mu": 0.7, "max_iter": 300, "tol": None}),
    ("asymp_gda_side", {"mu": 0.7, "side": "y", "max_iter": 300, "tol": 1e-9}),
    (
        "asymp_gda_side",
        {"mu": 0.7, "side": "y", "variant": "y_first", "max_iter": 300, "tol": None},
    ),
    (
        "asymp_gda_side",
        {"mu": 2.0, "side": "x", "stop": "frank_wolfe", "max_iter": 300, "tol": 1e-12},
    ),
    ("symp_gda", {"mu": 0.5, "max_iter": 300, "tol": None}),
    ("symp_gda", {"mu": 0.5, "max_iter": 3000, "tol": 1e-11}),
    ("symp_gda", {"mu": 0.5, "max_iter": 300, "tol": None, "stop": "frank_wolfe"}),
    ("gda", {"max_iter": 300, "tol": None}),
    ("gda", {"step_size": 0.3, "max_iter": 300, "tol": 1e-3}),
    ("ogda", {"max_iter": 300, "tol": None}),
    ("ogda", {"max_iter": 3000, "tol": 1e-10}),
    ("ogda", {"max_iter": 300, "tol": None, "variant": "simultaneous", "step_size": 0.1}),
    ("omwu", {"max_iter": 300, "tol": None}),
    ("omwu", {"max_iter": 3000, "tol": 1e-9, "step_size": 0.2}),
]


def _same(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        x, y = np.asarray(a), np.asarray(b)
        return x.shape == y.shape and x.dtype == y.dtype and x.tobytes() == y.tobytes()
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(p, q) for p, q in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize(
    ("method", "kwargs"), CALLS, ids=[f"{m}-{i}" for i, (m, _) in enumerate(CALLS)]
)
@pytest.mark.parametrize("start", ["uniform", "random"])
def test_loop_helper_gives_the_old_loops_results(
    game: str, method: str, kwargs: dict[str, Any], start: str
) -> None:
    a = GAMES[game]
    kw = dict(kwargs)
    if start == "random":
        kw["x0"], kw["y0"] = STARTS[game]
    want = getattr(old, method)(a, **kw)
    got = getattr(new, method)(a, **kw)
    for field in new.GDAResult.__slots__:
        assert _same(getattr(got, field), getattr(want, field)), (method, field)
        if isinstance(getattr(got, field), np.ndarray):
            assert not getattr(got, field).flags.writeable
