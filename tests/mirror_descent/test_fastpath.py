"""Simplex mirror-descent optimizer and functional MD in torch against the numpy reference."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from reference import mirror_descent as md

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from torch import Tensor  # noqa: E402

from reference.mirror_descent import fast_torch as fast  # noqa: E402

T = 25


def _instance(seed: int) -> tuple[md.RidgeProblem, np.ndarray]:
    rng = np.random.default_rng(seed)
    c = rng.uniform(-1.0, 1.0, size=6)
    c[0], c[1] = -1.0, 1.0
    x0 = rng.dirichlet(np.ones(6))
    return md.cosh_ridge(c, 0.2), x0


def _md_inputs(mirror: md.MirrorName) -> Callable[[int, str | None], tuple[Any, ...]]:
    """Input factory for mirror descent: (grad, x0, step size); torch side when ``device``."""

    def make(seed: int, device: str | None) -> tuple[Any, ...]:
        problem, x0 = _instance(seed)
        norm: md.NormName = "l1" if mirror == "entropic" else "l2"
        lip = md.effective_constants(problem.smoothness(norm), problem.value(x0) - 2.0).lipschitz
        if device is None:
            return problem.grad, x0, 1.0 / lip
        c = torch.tensor(np.array(problem.c), device=device)

        def grad(x: Tensor) -> Tensor:
            out: Tensor = 2.0 * torch.sinh(x @ c - problem.b) * c
            return out

        return grad, torch.as_tensor(x0), 1.0 / lip

    return make


def _step_inputs(seed: int, device: str | None) -> tuple[Any, ...]:
    rng = np.random.default_rng(seed)
    x, g, eta = rng.dirichlet(np.ones(7)), rng.standard_normal(7), float(rng.uniform(0.1, 3.0))
    x[2] = 0.0
    x /= x.sum()
    if device is None:
        return x, g, eta
    return torch.as_tensor(x, device=device), torch.as_tensor(g, device=device), eta


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One torch function paired with its numpy reference (OpInfo style)."""

    name: str
    reference: Callable[..., Any]
    fast: Callable[..., Tensor]
    make: Callable[[int, str | None], tuple[Any, ...]]
    rtol64: float = 1e-12
    atol64: float = 1e-14


RECORDS = (
    Record(
        name="entropic_step",
        reference=md.entropic_step,
        fast=fast.entropic_step,
        make=_step_inputs,
    ),
    *(
        Record(
            name=f"mirror_descent[{mirror}]",
            reference=lambda g, x0, eta, m=mirror: (
                md.mirror_descent(g, x0, step_size=eta, max_iter=T, mirror=m).iterates
            ),
            fast=lambda g, x0, eta, m=mirror, **kw: fast.mirror_descent(
                g, x0, step_size=eta, max_iter=T, mirror=m, **kw
            ),
            make=_md_inputs(mirror),
        )
        for mirror in ("entropic", "euclidean")
    ),
)


@pytest.mark.parametrize("record", RECORDS, ids=[r.name for r in RECORDS])
@pytest.mark.parametrize("seed", [1, 3])
def test_fast_path_matches_reference(record: Record, seed: int, device: str) -> None:
    args = record.make(seed, device)
    kwargs = {"device": device} if record.name.startswith("mirror_descent") else {}
    out = record.fast(*args, **kwargs)
    assert out.dtype == torch.float64
    assert out.device.type == torch.device(device).type
    want = record.reference(*record.make(seed, None))  # a fresh input for the reference side
    np.testing.assert_allclose(out.cpu().numpy(), want, rtol=record.rtol64, atol=record.atol64)


def test_optimizer_trajectory_matches(device: str) -> None:
    problem, x0 = _instance(2)
    c = torch.tensor(np.array(problem.c), device=device)
    x = torch.nn.Parameter(torch.as_tensor(x0, device=device))
    lip = md.effective_constants(problem.smoothness("l1"), problem.value(x0) - 2.0).lipschitz
    opt = fast.SimplexMirrorDescent([x], lr=1.0 / lip)
    ref = md.mirror_descent(problem.grad, x0, step_size=1.0 / lip, max_iter=T, mirror="entropic")
    for t in range(T):
        opt.zero_grad()
        torch.autograd.backward(2.0 * torch.cosh(x @ c - problem.b))
        opt.step()
        np.testing.assert_allclose(
            x.detach().cpu().numpy(), ref.iterates[t + 1], rtol=1e-12, atol=1e-14
        )
    assert x.dtype == torch.float64
    assert x.device.type == torch.device(device).type


def test_rows_of_a_matrix_are_separate_simplices(device: str) -> None:
    w = torch.nn.Parameter(torch.full((3, 4), 0.25, dtype=torch.float64, device=device))
    opt = fast.SimplexMirrorDescent([w], lr=0.5)
    target = torch.arange(12, dtype=torch.float64, device=device).reshape(3, 4)
    (w * target).sum().backward()
    opt.step()
    torch.testing.assert_close(w.sum(dim=1), torch.ones(3, dtype=torch.float64, device=device))
    for row in range(3):
        want = md.entropic_step(np.full(4, 0.25), target[row].cpu().numpy(), 0.5)
        np.testing.assert_allclose(w[row].detach().cpu().numpy(), want, rtol=1e-12)


def test_large_gradients_stay_finite() -> None:
    x = torch.full((3,), 1 / 3, dtype=torch.float64)
    out = fast.entropic_step(x, torch.tensor([1e6, -1e6, 0.0], dtype=torch.float64), 10.0)
    assert bool(torch.isfinite(out).all())
    assert out.tolist() == [0.0, 1.0, 0.0]


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="lr"):
        fast.SimplexMirrorDescent([torch.nn.Parameter(torch.ones(2) / 2)], lr=0.0)
    with pytest.raises(ValueError, match="simplex"):
        fast.SimplexMirrorDescent([torch.nn.Parameter(torch.ones(2))], lr=0.1)
    for mirror in ("kl", "lp"):  # unknown, and the reference's lp mirror (not ported)
        with pytest.raises(ValueError, match="mirror"):
            fast.mirror_descent(
                lambda x: x,
                torch.ones(2) / 2,
                step_size=0.1,
                max_iter=1,
                mirror=mirror,  # type: ignore[arg-type]
            )
    with pytest.raises(ValueError, match="step_size"):
        fast.mirror_descent(lambda x: x, torch.ones(2) / 2, step_size=-1.0, max_iter=1)
