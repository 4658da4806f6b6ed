"""Torch mini-batch estimator against the numpy reference, trajectory for trajectory."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from reference import divergence as dv
from reference.divergence.estimators import PHI_CLIP

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from reference.divergence import fast_torch as ft  # noqa: E402

TOLERANCES = {torch.float64: 1e-10, torch.float32: 2e-4}


def _problem(seed: int) -> tuple[np.ndarray, np.ndarray, dv.RandomFourierFeatures]:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((120, 2))
    y = rng.standard_normal((90, 2)) + np.array([1.0, 0.0])
    return x, y, dv.make_rff(2, 24, sigma=1.0, rng=rng)


def _armijo_inputs(
    seed: int, batch_size: int | None, start: bool
) -> Callable[[Any, Any], tuple[tuple[Any, ...], dict[str, Any]]]:
    """Input factory: numpy features (``device is None``) or tensors, a fresh rng per call."""

    def make(device: Any, dtype: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        x, y, feats = _problem(seed)
        cfg = dv.ArmijoConfig(radius=2.0, max_iter=40, batch_size=batch_size)
        kw: dict[str, Any] = {"rng": np.random.default_rng(7)}
        if start:
            kw["theta0"] = np.linspace(-1.0, 1.0, feats.num_features + 1)
        if device is None:
            return (feats.transform(x), feats.transform(y), 0.4, cfg), kw
        zx = ft.rff_transform(feats, torch.as_tensor(x, dtype=dtype, device=device))
        zy = ft.rff_transform(feats, torch.as_tensor(y, dtype=dtype, device=device))
        return (zx, zy, 0.4, cfg), kw

    return make


def _compare_armijo(
    fast: dv.ArmijoResult, ref: dv.ArmijoResult, tol: float, exact_steps: bool
) -> None:
    """Every field of :class:`~reference.divergence.ArmijoResult`, field by field."""
    assert type(fast) is dv.ArmijoResult  # the reference's own type, no fast-path twin
    assert [f.name for f in dataclasses.fields(fast)] == [
        "theta",
        "value",
        "values",
        "step_sizes",
        "grad_map_norm",
        "iterations",
        "converged",
        "previous_theta",
    ]
    assert fast.iterations == ref.iterations
    assert fast.converged == ref.converged
    for name in ("theta", "values", "step_sizes", "previous_theta"):
        got, want = getattr(fast, name), getattr(ref, name)
        assert isinstance(got, np.ndarray), name
        assert got.dtype == np.float64, name
        assert not got.flags.writeable, name
        assert got.shape == want.shape, name
    if exact_steps:  # float64; in float32 a near-tie may take one more backtrack
        np.testing.assert_allclose(fast.step_sizes, ref.step_sizes, rtol=0)
    np.testing.assert_allclose(fast.values, ref.values, rtol=tol, atol=tol)
    assert fast.value == fast.values[-1]
    assert fast.value == pytest.approx(ref.value, rel=tol, abs=tol)
    np.testing.assert_allclose(fast.theta, ref.theta, rtol=tol * 10, atol=tol * 10)
    assert fast.previous_theta is not None  # at least one step was taken
    assert ref.previous_theta is not None
    np.testing.assert_allclose(
        fast.previous_theta, ref.previous_theta, rtol=tol * 10, atol=tol * 10
    )
    assert fast.grad_map_norm == pytest.approx(ref.grad_map_norm, rel=tol * 10, abs=tol * 10)
    # the documented identity ‖G‖ = ‖theta - previous_theta‖ / step_sizes[-1], recomputed
    step = np.linalg.norm(fast.theta - fast.previous_theta) / fast.step_sizes[-1]
    assert fast.grad_map_norm == pytest.approx(step, rel=tol * 10, abs=tol * 10)


def _rff_inputs(device: Any, dtype: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    x, _, feats = _problem(4)
    if device is None:
        return (x,), {}
    return (feats, torch.as_tensor(x, dtype=dtype, device=device)), {}


def _estimator_inputs(device: Any, dtype: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    x, y, feats = _problem(5)
    cfg = dv.ArmijoConfig(radius=3.0, max_iter=60, batch_size=16)
    kw: dict[str, Any] = {"features": feats, "rng": np.random.default_rng(1), "config": cfg}
    if device is None:
        return (x, y, 0.5), {**kw, "heldout": False}
    return (x, y, 0.5), {**kw, "device": device, "dtype": dtype}


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One torch function paired with its numpy reference (OpInfo style)."""

    name: str
    reference: Callable[..., Any]
    fast: Callable[..., Any]
    make: Callable[[Any, Any], tuple[tuple[Any, ...], dict[str, Any]]]
    compare: Callable[[Any, Any, float, bool], None]
    tolerances: dict[Any, float] = field(default_factory=lambda: dict(TOLERANCES))
    dtypes: tuple[Any, ...] = (torch.float64, torch.float32)


def _compare_arrays(fast: Any, ref: Any, tol: float, exact: bool) -> None:
    assert isinstance(fast, torch.Tensor)
    np.testing.assert_allclose(fast.cpu().double().numpy(), ref, rtol=tol, atol=tol)


def _compare_estimates(fast: Any, ref: Any, tol: float, exact: bool) -> None:
    assert fast == pytest.approx(ref.value, rel=tol, abs=tol * 1e-2)


RECORDS = (
    Record(
        name="rff_transform",
        reference=lambda x: _problem(4)[2].transform(x),
        fast=ft.rff_transform,
        make=_rff_inputs,
        compare=_compare_arrays,
        tolerances={torch.float64: 1e-14, torch.float32: 1e-6},
    ),
    *(
        Record(
            name=f"armijo_ascent[{label}]",
            reference=dv.armijo_ascent,
            fast=ft.armijo_ascent,
            make=_armijo_inputs(3, batch_size, start),
            compare=_compare_armijo,
        )
        for label, batch_size, start in (
            ("full", None, False),
            ("minibatch", 32, False),
            ("theta0", 32, True),
        )
    ),
    Record(
        name="estimate_alpha_divergence",
        reference=dv.estimate_alpha_divergence,
        fast=ft.estimate_alpha_divergence,
        make=_estimator_inputs,
        compare=_compare_estimates,
        dtypes=(torch.float64,),
    ),
)
CASES = [
    pytest.param(r, d, id=f"{r.name}-{str(d).removeprefix('torch.')}")
    for r in RECORDS
    for d in r.dtypes
]


@pytest.mark.parametrize(("record", "dtype"), CASES)
def test_fast_path_matches_reference(record: Record, dtype: Any, device: str) -> None:
    args, kw = record.make(device, dtype)
    fast = record.fast(*args, **kw)
    if isinstance(fast, torch.Tensor):  # rff_transform; armijo_ascent returns numpy fields
        assert fast.dtype == dtype
        assert fast.device.type == device
    ref_args, ref_kw = record.make(None, None)  # a fresh input for the reference side
    ref = record.reference(*ref_args, **ref_kw)
    record.compare(fast, ref, record.tolerances[dtype], dtype == torch.float64)


def test_bad_input() -> None:
    _, _, feats = _problem(0)
    with pytest.raises(ValueError, match="x: expected shape"):
        ft.rff_transform(feats, torch.zeros(3, 5, dtype=torch.float64))
    z = torch.zeros(4, 3, dtype=torch.float64)
    with pytest.raises(TypeError, match="zx"):
        ft.armijo_ascent(torch.zeros(4, 3, dtype=torch.int64), z, 0.5)
    with pytest.raises(ValueError, match="alpha"):
        ft.armijo_ascent(z, z, 1.5)
    with pytest.raises(ValueError, match="rng"):
        ft.armijo_ascent(z, z, 0.5, dv.ArmijoConfig(batch_size=2))
    with pytest.raises(ValueError, match="theta0"):
        ft.armijo_ascent(z, z, 0.5, dv.ArmijoConfig(batch_size=None), theta0=np.zeros(3))


def test_neural_critic_baseline_runs_and_validates() -> None:
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((60, 1)), rng.standard_normal((60, 1)) + 1.0
    result = ft.neural_critic_estimate(x, y, 0.5, generator=1, iterations=30, batch_size=16)
    assert result.curve.shape == (30,)
    assert np.isfinite(result.value)
    again = ft.neural_critic_estimate(x, y, 0.5, generator=1, iterations=30, batch_size=16)
    assert again.value == result.value  # seeded: same bits
    with pytest.raises(ValueError, match="alpha"):
        ft.neural_critic_estimate(x, y, 1.0, generator=1)
    with pytest.raises(ValueError, match=r"^generator:"):
        ft.neural_critic_estimate(x, y, 0.5, generator=-1)
    with pytest.raises(TypeError, match=r"^generator:"):
        ft.neural_critic_estimate(x, y, 0.5, generator=1.0)  # type: ignore[arg-type]


def test_neural_critic_int_seed_is_torch_manual_seed_and_leaves_global_state() -> None:
    """An int seed s: the initial critic is the MLP torch builds after ``torch.manual_seed(s)``
    and the split is ``default_rng(s)``'s (a step of 1e-300 leaves the critic as it is, so the
    final Ĵ on the fitting half is that critic's); the global torch state is neither read nor
    changed; a Generator is drawn from (two calls differ, twin generators agree)."""
    import torch

    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((20, 2)), rng.standard_normal((20, 2)) + 0.5
    torch.manual_seed(4)
    net = torch.nn.Sequential(
        torch.nn.Linear(2, 3),
        torch.nn.Tanh(),
        torch.nn.Linear(3, 3),
        torch.nn.Tanh(),
        torch.nn.Linear(3, 1),
    ).double()
    split = np.random.default_rng(4)
    px, py = split.permutation(20), split.permutation(20)
    with torch.no_grad():
        phx = torch.clamp(net(torch.tensor(x[px[:10]])).squeeze(-1), -PHI_CLIP, PHI_CLIP)
        phy = torch.clamp(net(torch.tensor(y[py[:10]])).squeeze(-1), -PHI_CLIP, PHI_CLIP)
    want = float(torch.expm1(-0.5 * phx).mean() / -0.5 - torch.expm1(0.5 * phy).mean() / 0.5)
    torch.manual_seed(123)
    before = torch.get_rng_state()
    got = ft.neural_critic_estimate(
        x, y, 0.5, generator=4, hidden=3, iterations=1, batch_size=5, learning_rate=1e-300
    )
    assert torch.equal(before, torch.get_rng_state())
    assert got.value == pytest.approx(want, rel=1e-12, abs=1e-15)
    g = torch.Generator().manual_seed(7)
    first = ft.neural_critic_estimate(x, y, 0.5, generator=g, hidden=3, iterations=2)
    second = ft.neural_critic_estimate(x, y, 0.5, generator=g, hidden=3, iterations=2)
    assert first.value != second.value
    twin = torch.Generator().manual_seed(7)
    assert ft.neural_critic_estimate(x, y, 0.5, generator=twin, hidden=3, iterations=2).value == (
        first.value
    )
