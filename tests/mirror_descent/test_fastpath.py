"""Simplex mirror-descent optimizer and functional MD in torch against the numpy reference."""

from __future__ import annotations

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


@pytest.mark.parametrize("mirror", ["entropic", "euclidean"])
def test_functional_trajectory_matches(device: str, mirror: md.MirrorName) -> None:
    problem, x0 = _instance(1)
    c = torch.tensor(np.array(problem.c), device=device)

    def grad(x: Tensor) -> Tensor:
        out: Tensor = 2.0 * torch.sinh(x @ c - problem.b) * c
        return out

    norm: md.NormName = "l1" if mirror == "entropic" else "l2"
    eta = 1.0 / md.effective_constants(problem.smoothness(norm), problem.value(x0) - 2.0).lipschitz
    ref = md.mirror_descent(problem.grad, x0, step_size=eta, max_iter=T, mirror=mirror)
    traj = fast.mirror_descent_torch(
        grad, torch.as_tensor(x0), step_size=eta, max_iter=T, mirror=mirror, device=device
    )
    assert traj.dtype == torch.float64
    assert traj.device.type == torch.device(device).type
    np.testing.assert_allclose(traj.cpu().numpy(), ref.iterates, rtol=1e-12, atol=1e-14)


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
    out = fast.entropic_step_torch(x, torch.tensor([1e6, -1e6, 0.0], dtype=torch.float64), 10.0)
    assert bool(torch.isfinite(out).all())
    assert out.tolist() == [0.0, 1.0, 0.0]


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="lr"):
        fast.SimplexMirrorDescent([torch.nn.Parameter(torch.ones(2) / 2)], lr=0.0)
    with pytest.raises(ValueError, match="simplex"):
        fast.SimplexMirrorDescent([torch.nn.Parameter(torch.ones(2))], lr=0.1)
    with pytest.raises(ValueError, match="mirror"):
        fast.mirror_descent_torch(
            lambda x: x, torch.ones(2) / 2, step_size=0.1, max_iter=1, mirror="kl"
        )
    with pytest.raises(ValueError, match="step_size"):
        fast.mirror_descent_torch(lambda x: x, torch.ones(2) / 2, step_size=-1.0, max_iter=1)
