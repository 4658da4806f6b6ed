"""Batched torch PRM+/RM+ against the numpy reference, iterate for iterate (CPU; GPU marked)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from reference.games import (  # noqa: E402
    EquilibriumResult,
    duality_gap,
    prm_plus,
    regret_trajectory,
    rm_plus,
)
from reference.games import fast_torch as ft  # noqa: E402


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One fast/reference pair (OpInfo style)."""

    name: str
    predictive: bool
    alternating: bool
    make: Callable[[np.random.Generator], np.ndarray]
    atol64: float = 1e-10
    atol32: float = 1e-3


RECORDS = (
    Record(
        name="prm+", predictive=True, alternating=False, make=lambda r: r.uniform(-1, 1, (3, 5, 7))
    ),
    Record(
        name="rm+", predictive=False, alternating=False, make=lambda r: r.standard_normal((2, 6, 4))
    ),
    Record(
        name="prm+alt",
        predictive=True,
        alternating=True,
        make=lambda r: r.uniform(-1, 1, (2, 4, 4)),
    ),
    Record(
        name="rm+alt",
        predictive=False,
        alternating=True,
        make=lambda r: r.standard_normal((2, 3, 5)),
    ),
)
STEPS = 60


@pytest.mark.parametrize("record", RECORDS, ids=[r.name for r in RECORDS])
@pytest.mark.parametrize("dtype_name", ["float64", "float32"])
def test_trajectory_matches_reference(record: Record, dtype_name: str, device: str) -> None:
    dtype = getattr(torch, dtype_name)
    payoffs = record.make(np.random.default_rng(0))
    fast = ft.regret_trajectory(
        torch.as_tensor(payoffs),
        iterations=STEPS,
        predictive=record.predictive,
        alternating=record.alternating,
        record=True,
        device=device,
        dtype=dtype,
    )
    assert fast.xs is not None
    assert fast.xs.dtype == dtype
    assert fast.xs.device.type == device
    assert fast.gap_linear.shape == (payoffs.shape[0], STEPS)
    atol = record.atol64 if dtype_name == "float64" else record.atol32
    for b in range(payoffs.shape[0]):
        ref = regret_trajectory(
            record.make(np.random.default_rng(0))[b],  # a fresh input for the reference side
            iterations=STEPS,
            predictive=record.predictive,
            alternating=record.alternating,
        )
        np.testing.assert_allclose(fast.xs[b].cpu().double().numpy(), ref.xs, atol=atol)
        np.testing.assert_allclose(fast.ys[b].cpu().double().numpy(), ref.ys, atol=atol)  # type: ignore[index]
        np.testing.assert_allclose(
            fast.states_x[b].cpu().double().numpy(), ref.states_x[-1], atol=atol * 10
        )
        np.testing.assert_allclose(fast.x_bar[b].cpu().double().numpy(), ref.x_bar, atol=atol)
        np.testing.assert_allclose(fast.y_bar[b].cpu().double().numpy(), ref.y_bar, atol=atol)


def test_gap_histories_match_the_solver(device: str) -> None:
    payoffs = np.random.default_rng(1).uniform(-1, 1, (2, 5, 6))
    fast = ft.regret_trajectory(payoffs, iterations=40, device=device)
    for b in range(2):
        ref = prm_plus(payoffs[b], tol=1e-300, max_iter=40, averaging="linear")
        np.testing.assert_allclose(
            fast.gap_linear[b].cpu().numpy(), ref.gap_history[1:], atol=1e-10
        )
        x = fast.x_linear[b].cpu().numpy()
        np.testing.assert_allclose(x, ref.x, atol=1e-10)
    gaps = (
        ft.duality_gap(torch.as_tensor(payoffs, device=device), fast.x_last, fast.y_last)
        .cpu()
        .numpy()
    )
    for b in range(2):
        want = duality_gap(payoffs[b], fast.x_last[b].cpu().numpy(), fast.y_last[b].cpu().numpy())
        assert abs(gaps[b] - want) <= 1e-12


@dataclass(frozen=True, slots=True, kw_only=True)
class SolverRecord:
    """One batched torch solver and its reference, run with the same keyword arguments."""

    name: str
    reference: Callable[..., Any]
    fast: Callable[..., Any]
    kwargs: dict[str, Any]
    make: Callable[[np.random.Generator], np.ndarray]
    atol64: float = 1e-10
    atol32: float = 1e-3  # as the trajectory records: float32 drifts over ~100 steps


def _games(r: np.random.Generator) -> np.ndarray:
    """Five games: one with a pure saddle point (stops at once under ``last``), four random."""
    out = r.uniform(-1, 1, (5, 3, 4))
    out[0] = [[2.0, 3.0, 4.0, 5.0], [1.0, 0.5, 3.0, 2.0], [3.0, 4.0, 5.0, 6.0]]
    return out


SOLVER_RECORDS = (
    *(
        SolverRecord(
            name=f"{name}[{averaging}{'-alt' if alternating else ''}]",
            reference=ref,
            fast=fast,
            kwargs={
                "tol": 2e-3,
                "max_iter": 150,
                "alternating": alternating,
                "averaging": averaging,
            },
            make=_games,
        )
        for name, ref, fast in (
            ("prm_plus", prm_plus, ft.prm_plus),
            ("rm_plus", rm_plus, ft.rm_plus),
        )
        for averaging, alternating in (
            ("linear", False),
            ("uniform", True),
            ("last", False),
            ("quadratic", False),
            ("best", True),
        )
    ),
)


@pytest.mark.parametrize("record", SOLVER_RECORDS, ids=[r.name for r in SOLVER_RECORDS])
@pytest.mark.parametrize("dtype_name", ["float64", "float32"])
def test_solver_matches_reference(record: SolverRecord, dtype_name: str, device: str) -> None:
    dtype = getattr(torch, dtype_name)
    payoffs = record.make(np.random.default_rng(3))
    fast = record.fast(torch.as_tensor(payoffs), **record.kwargs, device=device, dtype=dtype)
    assert fast.x.dtype == dtype
    assert fast.x.device.type == device
    assert fast.method == ("PRM+" if record.name.startswith("prm") else "RM+")
    shared = {f.name for f in dataclasses.fields(EquilibriumResult)}
    assert {f.name for f in dataclasses.fields(fast)} <= shared  # the reference's names only
    atol = record.atol64 if dtype_name == "float64" else record.atol32
    fresh = record.make(np.random.default_rng(3))  # a fresh input for the reference side
    for b in range(payoffs.shape[0]):
        ref = record.reference(fresh[b], **record.kwargs)
        history = fast.gap_history[b].cpu().double().numpy()
        x, y = fast.x[b].cpu().double().numpy(), fast.y[b].cpu().double().numpy()
        direct = float(np.max(x @ fresh[b]) - np.min(fresh[b] @ y))  # gap of the reported pair
        assert abs(float(fast.gap[b]) - direct) <= atol
        if dtype_name == "float32":
            # float32 follows the reference over the first STEPS iterations (as the trajectory
            # records); later the last iterate drifts and the tol crossing may move a step
            k = min(STEPS, ref.iterations) + 1
            np.testing.assert_allclose(history[:k], ref.gap_history[:k], atol=atol)
            assert abs(int(fast.iterations[b]) - ref.iterations) <= 2
            continue
        # field by field: every field of the batched type is a field of EquilibriumResult
        assert fast.method == ref.method
        assert int(fast.iterations[b]) == ref.iterations
        assert bool(fast.converged[b]) == ref.converged
        assert fast.stop_reason[b] == ref.stop_reason
        np.testing.assert_allclose(x, ref.x, atol=atol)
        np.testing.assert_allclose(y, ref.y, atol=atol)
        assert abs(float(fast.gap[b]) - ref.gap) <= atol
        np.testing.assert_allclose(history[: ref.iterations + 1], ref.gap_history, atol=atol)
        assert np.isnan(history[ref.iterations + 1 :]).all()


def test_bad_input_is_rejected() -> None:
    good = np.zeros((1, 2, 2))
    with pytest.raises(ValueError, match="payoff"):
        ft.regret_trajectory(np.zeros((2, 2)), iterations=3)
    with pytest.raises(ValueError, match="payoff"):
        ft.regret_trajectory(np.full((1, 2, 2), np.nan), iterations=3)
    with pytest.raises(ValueError, match="iterations"):
        ft.regret_trajectory(good, iterations=0)
    with pytest.raises(TypeError, match="payoff"):
        ft.regret_trajectory(np.array([[["a"]]]), iterations=3)
    with pytest.raises(ValueError, match="dtype"):
        ft.regret_trajectory(good, iterations=3, dtype=torch.int64)
    with pytest.raises(ValueError, match="averaging"):
        ft.prm_plus(good, averaging="mean")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tol"):
        ft.rm_plus(good, tol=0.0)
    with pytest.raises(ValueError, match="max_iter"):
        ft.prm_plus(good, max_iter=0)
    with pytest.raises(TypeError, match="alternating"):
        ft.rm_plus(good, alternating=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="x, y"):
        ft.duality_gap(torch.zeros(1, 2, 2), torch.zeros(1, 3), torch.zeros(1, 2))
