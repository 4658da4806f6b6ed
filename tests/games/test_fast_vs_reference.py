"""Every function of the numpy fast path against its reference, OpInfo style (STYLE B1, B8).

One frozen record per fast function: its name, the reference function, the fast function, an
input factory (called separately for each side, so neither can see the other's arrays, as
jax's ``args_maker``), a comparison of the two results and its tolerance.  One generic test
sweeps records x instances.  The fast path is :mod:`reference.games.fast` (support-reduced
Newton solve, Cholesky Schur complement for ``W``); the reference is :mod:`reference.games`
(dense LU).  Iterative methods are compared over whole trajectories (every residual and gap
of the history, the final lifted point, every counter), so a different branch anywhere in
the line search shows up as a failure.  A record checks plumbing and agreement, not
correctness: the behaviour tests of the reference stay in ``test_reference_ssn.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from proofs_numeric.games import tail_slope, theorem_4_quadratic_tail
from reference import games as ref
from reference._arrays import FloatArray
from reference.games import EquilibriumResult, HybridConfig, SSNConfig, fast

Args = tuple[tuple[Any, ...], dict[str, Any]]


@dataclass(frozen=True, slots=True, kw_only=True)
class FastCase:
    """One fast function next to its reference."""

    name: str
    reference: Callable[..., Any]
    fast: Callable[..., Any]
    make_args: Callable[[FloatArray, np.random.Generator], Args]  # (payoff, rng) -> inputs
    atol: float = 1e-10  # on every float compared (histories, profiles, lifted points)


def _game_only(a: FloatArray, rng: np.random.Generator) -> Args:
    return (a.copy(),), {}


def _kwargs(**kw: Any) -> Callable[[FloatArray, np.random.Generator], Args]:
    def make(a: FloatArray, rng: np.random.Generator) -> Args:
        return (a.copy(),), dict(kw)

    return make


def _direction_args(a: FloatArray, rng: np.random.Generator) -> Args:
    m, n = a.shape
    u = rng.normal(size=m + n) * rng.choice([0.05, 0.5, 3.0])
    return (a.copy(), u, float(rng.uniform(1e-3, 2.0))), {}


def _warm_ssn_args(a: FloatArray, rng: np.random.Generator) -> Args:
    m, n = a.shape
    return (a.copy(),), {"u0": rng.normal(size=m + n), "max_iter": 60}


#: Both safeguards beyond the spec's Algorithm 2 (SSNConfig's defaults leave them off).
SAFEGUARDED = SSNConfig(watchdog=True, kink_search=True)

CASES = (
    FastCase(name="ssn", reference=ref.ssn, fast=fast.ssn, make_args=_game_only),
    FastCase(name="ssn (warm u0)", reference=ref.ssn, fast=fast.ssn, make_args=_warm_ssn_args),
    FastCase(
        name="ssn (ratio rule)",
        reference=ref.ssn,
        fast=fast.ssn,
        make_args=_kwargs(config=SSNConfig(acceptance="ratio"), max_iter=60),
    ),
    FastCase(
        name="ssn (watchdog)",
        reference=ref.ssn,
        fast=fast.ssn,
        make_args=_kwargs(config=SSNConfig(watchdog=True), max_iter=80),
    ),
    FastCase(
        name="ssn (kink search)",
        reference=ref.ssn,
        fast=fast.ssn,
        make_args=_kwargs(config=SSNConfig(kink_search=True), max_iter=80),
    ),
    FastCase(
        name="ssn (watchdog and kink search)",
        reference=ref.ssn,
        fast=fast.ssn,
        make_args=_kwargs(config=SAFEGUARDED, max_iter=80),
    ),
    FastCase(
        name="newton_direction",
        reference=ref.newton_direction,
        fast=fast.newton_direction,
        make_args=_direction_args,
    ),
    FastCase(name="drs", reference=ref.drs, fast=fast.drs, make_args=_kwargs(max_iter=300)),
    FastCase(name="hybrid PSSN", reference=ref.hybrid, fast=fast.hybrid, make_args=_game_only),
    FastCase(
        name="hybrid HPSSN",
        reference=ref.hybrid,
        fast=fast.hybrid,
        make_args=_kwargs(mode="HPSSN"),
    ),
    FastCase(
        name="hybrid PSSN (watchdog and kink search)",
        reference=ref.hybrid,
        fast=fast.hybrid,
        make_args=_kwargs(config=HybridConfig(ssn=SAFEGUARDED)),
    ),
    FastCase(
        name="hybrid PSSN fallback",
        reference=ref.hybrid,
        fast=fast.hybrid,
        make_args=_kwargs(config=HybridConfig(ssn_max_iter=2, newton_rounds=3), tol=1e-12),
    ),
)


def _instances() -> dict[str, FloatArray]:
    """Random games of several shapes plus the closed-form games of the reference tests."""
    out: dict[str, FloatArray] = {}
    shapes = [(1, 7), (7, 1), (1, 1), (2, 2), (5, 5), (12, 30), (30, 12), (40, 60)]
    for seed, (m, n) in enumerate(shapes):
        rng = np.random.default_rng(1000 + seed)
        a = rng.uniform(-1.0, 1.0, (m, n)) if seed % 2 else rng.standard_normal((m, n))
        out[f"random{m}x{n}"] = a
    for seed, (m, n) in enumerate([(20, 30), (30, 20), (25, 45), (45, 25), (1, 9), (9, 1)]):
        rng = np.random.default_rng(seed)  # the games of test_reference_ssn_linear_solver.py
        a = rng.uniform(-1.0, 1.0, (m, n)) if seed % 2 else rng.standard_normal((m, n))
        out[f"solver-test[{seed}]"] = a
    out["2x2 mixed"] = np.array([[3.0, -1.0], [-2.0, 1.0]])
    out["saddle"] = np.array([[1.0, 2.0], [0.0, 3.0]])
    out["rock-paper-scissors"] = np.array([[0.0, 1.0, -1.0], [-1.0, 0.0, 1.0], [1.0, -1.0, 0.0]])
    out["near tie"] = np.array([[1.00001, 1.0]])
    out["integer, duplicated rows"] = np.array([[2.0, -1.0, 0.0], [2.0, -1.0, 0.0], [-2, 1, 1]])
    out["scaled 1e3"] = 1e3 * np.random.default_rng(7).standard_normal((6, 9))
    return out


INSTANCES = _instances()
#: Games whose equilibrium margins are tiny against their scale, where the kink search acts
#: (tests/test_hard_input_regressions.py).  Compared only for the records with the kink search:
#: under Algorithm 2 as written SSN crawls through ~300 safeguard steps there, both paths stop
#: honestly unconverged, and their rounding drifts apart (measured: 3e-8 in ``y``).
KINK_INSTANCES: dict[str, FloatArray] = {
    "margin 1e-6": np.array([[1e-6, 0.0, 0.0], [0.0, 1.0, 0.0]]),
    "wide range 6x2": np.array(
        [
            [1.0414213562373096, 0.07320508075688772],
            [-7.976393202250021, 0.06457513110645907],
            [0.03166247903553998, 0.06055512754639891],
            [0.01231056256176606, 0.0358898943540674],
            [0.07958315233127192, 0.038516480713450374],
            [8.056776436283002, 0.008276253029821934],
        ]
    ),
}
KINK_CASES = tuple(c for c in CASES if "kink search" in c.name)
#: Games whose equilibrium strategies are not unique: with two identical rows, how the weight
#: splits between them lies in the null space of the limiting Newton system, and the two
#: paths' rounding picks different splits (measured: up to 3e-6 in ``x`` for PSSN), each an
#: exact equilibrium.  There the unique quantities are compared instead: the payoff vectors
#: ``xᵀA`` and ``Ay``, every gap and residual of the histories and every counter.
DEGENERATE = frozenset({"integer, duplicated rows"})


def _close(want: FloatArray, got: FloatArray, atol: float, what: str) -> None:
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    np.testing.assert_allclose(got, want, rtol=0.0, atol=atol, err_msg=what)


def _compare(case: FastCase, want: Any, got: Any, where: str, payoff: FloatArray) -> None:
    """Assert ``got`` (fast) equals ``want`` (reference) within ``case.atol``."""
    if not isinstance(want, EquilibriumResult):
        w, g = np.asarray(want), np.asarray(got)
        assert g.dtype == np.float64, where
        _close(w, g, case.atol * max(1.0, float(np.max(np.abs(w)))), where)
        return
    assert isinstance(got, EquilibriumResult), where
    for field in (
        "method",
        "converged",
        "stop_reason",
        "iterations",
        "first_order_iterations",
        "newton_iterations",
        "ssn_runs",
        "safeguard_steps",
        "fallback",
    ):
        assert getattr(got, field) == getattr(want, field), f"{where}: {field}"
    _close(want.gap_history, got.gap_history, case.atol, f"{where}: gap_history")
    _close(want.residual_history, got.residual_history, case.atol, f"{where}: residual_history")
    assert abs(got.gap - want.gap) <= case.atol, f"{where}: gap"
    assert (got.residual is None) == (want.residual is None), f"{where}: residual"
    if want.residual is not None and got.residual is not None:
        assert abs(got.residual - want.residual) <= case.atol, f"{where}: residual"
    if where.split(" on ")[1] in DEGENERATE:
        _close(want.x @ payoff, got.x @ payoff, case.atol, f"{where}: xᵀA")
        _close(payoff @ want.y, payoff @ got.y, case.atol, f"{where}: Ay")
        return
    _close(want.x, got.x, case.atol, f"{where}: x")
    _close(want.y, got.y, case.atol, f"{where}: y")
    assert (got.u is None) == (want.u is None), f"{where}: u"
    if want.u is not None and got.u is not None:
        _close(want.u, got.u, case.atol, f"{where}: u")


@pytest.mark.parametrize("instance", sorted(INSTANCES))
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fast_matches_reference(case: FastCase, instance: str) -> None:
    payoff = INSTANCES[instance]
    ref_args, ref_kwargs = case.make_args(payoff, np.random.default_rng(0))
    fast_args, fast_kwargs = case.make_args(payoff, np.random.default_rng(0))
    want = case.reference(*ref_args, **ref_kwargs)
    got = case.fast(*fast_args, **fast_kwargs)
    _compare(case, want, got, f"{case.name} on {instance}", payoff)


@pytest.mark.parametrize("instance", sorted(KINK_INSTANCES))
@pytest.mark.parametrize("case", KINK_CASES, ids=[c.name for c in KINK_CASES])
def test_fast_matches_reference_where_the_kink_search_acts(case: FastCase, instance: str) -> None:
    payoff = KINK_INSTANCES[instance]
    ref_args, ref_kwargs = case.make_args(payoff, np.random.default_rng(0))
    fast_args, fast_kwargs = case.make_args(payoff, np.random.default_rng(0))
    want = case.reference(*ref_args, **ref_kwargs)
    got = case.fast(*fast_args, **fast_kwargs)
    _compare(case, want, got, f"{case.name} on {instance}", payoff)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fast_validates_like_the_reference(case: FastCase) -> None:
    """Bad payoffs raise the same exception type naming the same argument on both sides."""
    for bad in (np.zeros((0, 3)), np.array([[np.nan, 1.0]]), np.ones(3)):
        args, kwargs = case.make_args(np.ones((2, 2)), np.random.default_rng(0))
        errors = []
        for fn in (case.reference, case.fast):
            with pytest.raises((ValueError, TypeError)) as info:
                fn(bad, *args[1:], **kwargs)
            errors.append((type(info.value), str(info.value).split(":")[0]))
        assert errors[0] == errors[1] == (ValueError, "payoff"), (case.name, errors)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("solver", [ref.ssn, fast.ssn], ids=["reference.ssn", "fast.ssn"])
def test_newton_phase_is_quadratic_on_both_paths(
    solver: Callable[..., EquilibriumResult], seed: int
) -> None:
    """Theorem 4 (spec 01 Section 5, Thm D): ``||R||`` reaches 1e-12 and the tail slope of
    ``log r_{k+1}`` on ``log r_k`` is ``>= 1.5``, for the reference and for the fast SSN."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1.0, 1.0, (20, 30)) if seed % 2 else rng.standard_normal((20, 30))
    check = theorem_4_quadratic_tail(a, solver=solver)
    assert check.holds, check


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("hybrid", [ref.hybrid, fast.hybrid], ids=["reference", "fast"])
def test_hybrid_newton_phase_is_quadratic_on_both_paths(
    hybrid: Callable[..., EquilibriumResult], seed: int
) -> None:
    """The last Newton phase of PSSN, run to the residual floor, has a quadratic tail."""
    a = np.random.default_rng(seed).standard_normal((30, 45))
    res = hybrid(a, tol=1e-300)
    assert res.residual is not None
    assert res.residual <= 1e-12
    assert tail_slope(res.residual_history) >= 1.5
