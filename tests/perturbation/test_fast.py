"""The perturbation fast path against its reference (issue 31), table-driven.

Every function of :mod:`reference.perturbation.fast` runs beside its reference on the same
fresh inputs, on both builds of the loops: plain numpy (always) and numba-compiled (skipped
cleanly where numba, the ``[fast]`` extra, is not installed).  The kernels do the reference's
arithmetic (the numpy build the reference's very calls; the compiled build its products as
loops, which may round differently from BLAS), so iteration counts are equal and iterates and
histories agree to ``ATOL``; the same for the batched form over many starts, numpy and torch (CPU here; the
``gpu``-marked test repeats the torch cross-check on a CUDA device).  No timing is asserted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from reference import perturbation as pert
from reference._arrays import FloatArray
from reference.perturbation import fast, fast_kernels

#: Iterates and histories agree to this (measured: 0.0 for the numpy build; compiled <= 1.3e-15
#: on iterates, <= 9.3e-15 on histories (gda on brps); <= 6e-16 for the batches).
ATOL = 1e-13

BUILDS = [
    "numpy",
    pytest.param(
        "compiled",
        marks=pytest.mark.skipif(not fast_kernels.AVAILABLE, reason="numba not installed"),
    ),
]


@pytest.fixture(params=BUILDS)
def build(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the fast path on one build of its loops."""
    old = fast_kernels.ENABLED
    fast_kernels.ENABLED = request.param == "compiled"
    assert fast.compiled() == (request.param == "compiled")
    yield str(request.param)
    fast_kernels.ENABLED = old


def _games() -> dict[str, FloatArray]:
    rng = np.random.default_rng(31)
    return {
        "brps": np.array(pert.biased_rps()),
        "m_ne": np.array(pert.m_ne()),
        "pennies": np.array(pert.biased_matching_pennies()),
        "uniform_4x6": rng.uniform(-1.0, 1.0, (4, 6)),
        "normal_7x3": rng.standard_normal((7, 3)),
        "one_row": rng.uniform(-1.0, 1.0, (1, 4)),
        "issue_31": np.array(
            [[0, 0, 0, 0, 0], [0, 0, 0, 0, 1e-4], [0, 0, 8.404647236959661, 0, 0]]
        ),
        # 20 x 20: the compiled projection's warm-started sort reorders more entries per step
        "normal_20x20": rng.standard_normal((20, 20)),
    }


GAMES = _games()
_START = np.random.default_rng(7)

#: (function, keyword arguments): every option of every fast function at least once.
ROWS: list[tuple[str, dict[str, Any]]] = [
    ("asymp_gda_side", {"mu": 0.3, "max_iter": 300, "tol": None}),
    ("asymp_gda_side", {"mu": 0.3, "side": "y", "max_iter": 400, "tol": 1e-10}),
    (
        "asymp_gda_side",
        {"mu": 0.3, "side": "y", "variant": "y_first", "stop": "frank_wolfe", "max_iter": 2000},
    ),
    ("asymp_gda", {"mu": 0.5, "max_iter": 2000, "tol": 1e-11}),
    ("asymp_gda", {"mu": 0.5, "max_iter": 500, "variant": "y_first", "tol": None}),
    (
        "asymp_gda",
        {"mu": 1.0, "step_size": 0.01, "max_iter": 1500, "tol": 1e-13, "stop": "frank_wolfe"},
    ),
    ("symp_gda", {"mu": 0.4, "max_iter": 600}),
    ("symp_gda", {"mu": 0.4, "max_iter": 600, "stop": "frank_wolfe"}),
    ("gda", {"max_iter": 300}),
    ("ogda", {"max_iter": 800, "tol": 1e-10}),
    ("ogda", {"max_iter": 400, "variant": "simultaneous", "step_size": 0.05}),
]


def _same(name: str, got: Any, want: Any) -> None:
    assert got.iterations == want.iterations, name
    assert got.converged == want.converged, name
    assert got.stop_reason == want.stop_reason, name
    assert got.mu == want.mu, name
    for field in ("x", "y", "history"):
        np.testing.assert_allclose(getattr(got, field), getattr(want, field), rtol=0, atol=ATOL)
    np.testing.assert_allclose(got.nash_conv, want.nash_conv, rtol=0, atol=ATOL)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize(
    ("function", "kwargs"), ROWS, ids=[f"{f}-{i}" for i, (f, _) in enumerate(ROWS)]
)
def test_fast_function_returns_what_its_reference_returns(
    build: str, game: str, function: str, kwargs: dict[str, Any]
) -> None:
    payoff = GAMES[game]
    m, n = payoff.shape
    starts = {"x0": _START.dirichlet(np.ones(m)), "y0": _START.dirichlet(np.ones(n))}
    want = getattr(pert, function)(payoff.copy(), **starts, **kwargs)
    got = getattr(fast, function)(payoff.copy(), **starts, **kwargs)
    _same(f"{function} on {game}", got, want)
    assert type(got) is type(want)
    assert got.step_size == want.step_size
    np.testing.assert_allclose(got.stopping_history, want.stopping_history, rtol=0, atol=ATOL)
    if want.partners is None:
        assert got.partners is None
    else:
        for g, w in zip(got.partners, want.partners, strict=True):
            np.testing.assert_allclose(g, w, rtol=0, atol=ATOL)
    assert not got.x.flags.writeable


@pytest.mark.parametrize(
    ("game", "kwargs"),
    [
        ("brps", {"tol": 1e-10}),
        ("uniform_4x6", {"tol": 1e-9}),
        ("normal_7x3", {"tol": 1e-8, "check_every": 7, "patience": 0}),
        ("m_ne", {"tol": 1e-9, "max_iter": 3000}),  # stops at the cap
        ("issue_31", {"tol": 8.4e-6, "max_iter": 12_000}),  # slow rounds, at the cap
        ("pennies", {"tol": 1e-12, "mu_init": 0.25, "max_inner": 50}),
        ("normal_20x20", {"tol": 1e-8, "max_iter": 4000}),
    ],
)
def test_fast_parameter_free_returns_what_the_reference_returns(
    build: str, game: str, kwargs: dict[str, Any]
) -> None:
    want = pert.parameter_free(GAMES[game], **kwargs)
    got = fast.parameter_free(GAMES[game], **kwargs)
    _same(f"parameter_free on {game}", got, want)
    assert got.halvings == want.halvings
    np.testing.assert_array_equal(got.check_iterations, want.check_iterations)
    np.testing.assert_array_equal(got.mu_history, want.mu_history)


def test_the_mu_floor_stop_is_reproduced(build: str) -> None:
    # a game whose gap cannot reach 1e-300: μ is halved down to the floor
    payoff = GAMES["uniform_4x6"]
    kwargs: dict[str, Any] = {"tol": 1e-300, "max_inner": 20, "patience": 0}
    want = pert.parameter_free(payoff, **kwargs)
    got = fast.parameter_free(payoff, **kwargs)
    assert want.stop_reason == "mu_floor"
    _same("parameter_free to the floor", got, want)


BAD: list[tuple[Callable[..., object], dict[str, Any], str]] = [
    (fast.asymp_gda, {"payoff": [[1.0, np.nan]], "mu": 1.0}, "payoff"),
    (fast.asymp_gda, {"payoff": [[1.0, 0.0]], "mu": 0.0}, "mu"),
    (fast.asymp_gda_side, {"payoff": [[1.0, 0.0]], "mu": 1.0, "side": "z"}, "side"),
    (fast.asymp_gda, {"payoff": [[1.0, 0.0]], "mu": 1.0, "variant": "other"}, "variant"),
    (fast.symp_gda, {"payoff": [[1.0, 0.0]], "mu": 1.0, "stop": "other"}, "stop"),
    (fast.gda, {"payoff": [[1.0, 0.0]], "x0": [0.5, 0.5]}, "x0"),
    (fast.ogda, {"payoff": [[1.0, 0.0]], "variant": "other"}, "variant"),
    (fast.ogda, {"payoff": [[1.0, 0.0]], "max_iter": -1}, "max_iter"),
    (fast.parameter_free, {"payoff": [[1.0, 0.0]], "tol": 0.0}, "tol"),
    (fast.parameter_free, {"payoff": [[1.0, 0.0]], "check_every": 0}, "check_every"),
    (fast.parameter_free, {"payoff": "a"}, "payoff"),
]


@pytest.mark.parametrize(("function", "kwargs", "name"), BAD)
def test_fast_functions_reject_what_the_reference_rejects(
    function: Callable[..., object], kwargs: dict[str, Any], name: str
) -> None:
    reference = getattr(pert, function.__name__)
    args = dict(kwargs)
    payoff = args.pop("payoff")
    with pytest.raises((ValueError, TypeError), match=name) as want:
        reference(payoff, **args)
    with pytest.raises(want.type, match=name):
        function(payoff, **args)


# ------------------------------------------------------------------------------ many starts
def _batch_cases() -> list[tuple[str, dict[str, Any]]]:
    return [
        ("brps", {"mu": 0.5, "max_iter": 300, "tol": None}),
        ("m_ne", {"mu": 0.5, "max_iter": 3000, "tol": 1e-10}),
        ("uniform_4x6", {"mu": 0.5, "max_iter": 3000, "tol": 1e-10, "variant": "y_first"}),
        (
            "brps",
            {"mu": 1.0, "step_size": 0.01, "max_iter": 800, "tol": 1e-13, "stop": "frank_wolfe"},
        ),
    ]


def _check_batch(batch: fast.BatchResult, payoff: FloatArray, x0: Any, y0: Any, kw: Any) -> None:
    for i in range(x0.shape[0]):
        want = pert.asymp_gda(payoff, x0=x0[i], y0=y0[i], **kw)
        # row i, field by field against the reference's GDAResult
        assert int(batch.iterations[i]) == want.iterations
        assert bool(batch.converged[i]) == want.converged
        assert batch.stop_reason[i] == want.stop_reason
        assert (batch.mu, batch.step_size) == (want.mu, want.step_size)
        np.testing.assert_allclose(batch.nash_conv[i], want.nash_conv, rtol=0, atol=ATOL)
        np.testing.assert_allclose(batch.x[i], want.x, rtol=0, atol=ATOL)
        np.testing.assert_allclose(batch.y[i], want.y, rtol=0, atol=ATOL)
        np.testing.assert_allclose(batch.stopping[i], want.stopping, rtol=0, atol=ATOL)
        # NashConv recomputed from the returned rows, not read from the batch
        gap = float(np.max(batch.x[i] @ payoff) - np.min(payoff @ batch.y[i]))
        np.testing.assert_allclose(batch.nash_conv[i], gap, rtol=0, atol=1e-15)


@pytest.mark.parametrize(("game", "kwargs"), _batch_cases())
def test_batch_rows_are_the_reference_runs_from_each_start(
    build: str, game: str, kwargs: dict[str, Any]
) -> None:
    payoff = GAMES[game]
    x0, y0 = pert.dirichlet_starts(payoff.shape, trials=6, rng=np.random.default_rng(3))
    batch = fast.asymp_gda_batch(payoff, x0s=x0, y0s=y0, **kwargs)
    _check_batch(batch, payoff, x0, y0, kwargs)


def test_batch_rejects_mismatched_starts() -> None:
    x0, y0 = pert.dirichlet_starts((3, 3), trials=4, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="x0s, y0s"):
        fast.asymp_gda_batch(pert.biased_rps(), mu=1.0, x0s=x0, y0s=y0[:3])
    with pytest.raises(ValueError, match=r"x0s\[1\]"):
        fast.asymp_gda_batch(pert.biased_rps(), mu=1.0, x0s=x0 * [[1], [2], [1], [1]], y0s=y0)


def _torch_batch(device: str) -> None:
    from reference.perturbation import fast_torch

    for game, kwargs in _batch_cases():
        payoff = GAMES[game]
        x0, y0 = pert.dirichlet_starts(payoff.shape, trials=5, rng=np.random.default_rng(5))
        batch = fast_torch.asymp_gda_batch(payoff, x0s=x0, y0s=y0, device=device, **kwargs)
        _check_batch(batch, payoff, x0, y0, kwargs)


def test_torch_batch_on_cpu_is_the_reference_runs() -> None:
    pytest.importorskip("torch", exc_type=ModuleNotFoundError)
    _torch_batch("cpu")


@pytest.mark.gpu
def test_torch_batch_on_cuda_is_the_reference_runs() -> None:
    torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device available")
    _torch_batch("cuda")
