"""Torch Rational module: value and gradient parity with the numpy reference, gradcheck, drop-in."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from reference import activations as act

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from reference.activations import fast_torch as ft  # noqa: E402
from reference.activations.fast_torch import Rational  # noqa: E402


@pytest.fixture(autouse=True)
def _one_thread() -> Iterator[None]:
    """Tiny tensors: one intra-op thread avoids oversubscription under pytest-xdist."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One torch function paired with its numpy reference (OpInfo style)."""

    name: str
    reference: Callable[..., Any]
    fast: Callable[..., Any]
    make: Callable[[np.random.Generator], tuple[np.ndarray, ...]]
    tol64: tuple[float, float] = (1e-13, 1e-15)  # (rtol, atol)
    tol32: tuple[float, float] = (1e-5, 1e-6)


def _rational_args(n_q: int) -> Callable[[np.random.Generator], tuple[np.ndarray, ...]]:
    def make(rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        return rng.uniform(-3, 3, size=64), rng.uniform(-1, 1, size=4), rng.uniform(-1, 1, n_q)

    return make


RECORDS = tuple(
    Record(
        name=f"rational[{version}]",
        reference=lambda x, p, q, v=version: act.rational(x, p, q, version=v),
        fast=lambda x, p, q, v=version: ft.rational(x, p, q, version=v),
        make=_rational_args(n_q),
    )
    for version, n_q in (("A", 2), ("B", 2), ("B", 0), ("C", 3))
)


@pytest.mark.parametrize("record", RECORDS, ids=[r.name for r in RECORDS])
@pytest.mark.parametrize("dtype_name", ["float64", "float32"])
def test_fast_path_matches_reference(record: Record, dtype_name: str, device: str) -> None:
    dtype = getattr(torch, dtype_name)
    args = record.make(np.random.default_rng(11))
    out = record.fast(*(torch.tensor(a, dtype=dtype, device=device) for a in args))
    assert isinstance(out, torch.Tensor)
    assert out.dtype == dtype
    assert out.device.type == device
    expected = record.reference(*record.make(np.random.default_rng(11)))  # a fresh input
    rtol, atol = record.tol64 if dtype_name == "float64" else record.tol32
    np.testing.assert_allclose(out.cpu().double().numpy(), expected, rtol=rtol, atol=atol)


@pytest.mark.parametrize(("version", "n_q"), [("A", 4), ("B", 2), ("C", 4)])
def test_value_and_gradients_match_reference(device: str, version: str, n_q: int) -> None:
    rng = np.random.default_rng(3)
    x_np = rng.uniform(-3, 3, size=64)
    p_np, q_np = rng.uniform(-1, 1, size=6), rng.uniform(-1, 1, size=n_q)
    x = torch.tensor(x_np, device=device, requires_grad=True)
    p = torch.tensor(p_np, device=device, requires_grad=True)
    q = torch.tensor(q_np, device=device, requires_grad=True)
    out = ft.rational(x, p, q, version=version)  # type: ignore[arg-type]
    assert out.dtype == torch.float64
    assert out.device.type == device
    ref = act.rational_grad(x_np, p_np, q_np, version=version)  # type: ignore[arg-type]
    np.testing.assert_allclose(out.detach().cpu().numpy(), ref.value, rtol=1e-13, atol=1e-15)
    gx, gp, gq = torch.autograd.grad(out.sum(), (x, p, q))
    np.testing.assert_allclose(gx.cpu().numpy(), ref.dx, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gp.cpu().numpy(), ref.dp.sum(axis=0), rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(gq.cpu().numpy(), ref.dq.sum(axis=0), rtol=1e-12, atol=1e-13)


def test_gradcheck(device: str) -> None:
    gen = torch.Generator().manual_seed(0)
    x = (torch.rand(7, generator=gen, dtype=torch.float64) + 0.2).to(device).requires_grad_()
    p = torch.rand(4, generator=gen, dtype=torch.float64).to(device).requires_grad_()
    q = (torch.rand(2, generator=gen, dtype=torch.float64) + 0.1).to(device).requires_grad_()
    assert torch.autograd.gradcheck(ft.rational, (x, p, q))
    for version in ("B", "C"):
        assert torch.autograd.gradcheck(
            lambda a, b, c, v=version: ft.rational(a, b, c, version=v), (x, p, q)
        )


def test_module_init_and_per_channel(device: str) -> None:
    shared = Rational(device=device)
    assert shared.numerator.dtype == torch.float64
    assert (shared.degrees, shared.version) == ((5, 4), "A")  # the experiments' activation
    x = torch.linspace(-1, 1, 11, dtype=torch.float64, device=device)
    p, q = act.rational_init("leaky_relu", degrees=(5, 4), version="A")
    np.testing.assert_allclose(
        shared(x).detach().cpu().numpy(), act.rational(x.cpu().numpy(), p, q, version="A")
    )
    # the default differs from version B on the same coefficients (q has b_1 != 0)
    assert abs(q[0]) > 0.1
    with torch.no_grad():
        as_b = ft.rational(x, shared.numerator, shared.denominator, version="B")
    assert float((as_b - shared(x)).abs().max().detach()) > 1e-3
    predecessor = Rational((3, 2), init="relu", version="B", device=device)
    p32, q32 = act.relu_init()
    np.testing.assert_allclose(
        predecessor(x).detach().cpu().numpy(),
        act.rational(x.cpu().numpy(), p32, q32, version="B"),
    )
    per = Rational(channels=3, device=device)
    batch = torch.randn(2, 3, 4, 5, dtype=torch.float64, device=device)
    np.testing.assert_allclose(
        per(batch).detach().cpu().numpy(), shared(batch).detach().cpu().numpy(), rtol=1e-15
    )
    with torch.no_grad():
        per.numerator[1].mul_(2.0)
    doubled = per(batch)
    np.testing.assert_allclose(
        doubled[:, 1].detach().cpu().numpy(), 2 * shared(batch)[:, 1].detach().cpu().numpy()
    )
    with pytest.raises(ValueError, match="channels"):
        per(torch.zeros(2, 4, dtype=torch.float64, device=device))


def test_fitted_inits_and_validation() -> None:
    tanh = Rational(init="tanh")
    x = torch.linspace(-3, 3, 101, dtype=torch.float64)
    assert float((tanh(x) - torch.tanh(x)).abs().max().detach()) < 0.01
    custom = Rational((1, 1), init=([0.0, 1.0], [1.0]))
    assert float(custom(torch.tensor(1.0, dtype=torch.float64)).detach()) == 0.5
    swish = Rational(init="swish")
    silu = torch.nn.functional.silu(x)
    assert float((swish(x) - silu).abs().max().detach()) < 1e-4
    c_form = Rational((5, 4), init=([0.0, 1.0, 0, 0, 0, 0], [1.0, 0, 0, 0]), version="C")
    assert c_form.denominator.shape == (4,)  # n coefficients b_0..b_{n-1}
    np.testing.assert_allclose(c_form(x).detach().numpy(), x.numpy() / 1.1, rtol=1e-15)
    with pytest.raises(ValueError, match="init"):
        Rational(init="sigmoid")
    with pytest.raises(ValueError, match="init"):
        Rational(init="gelu", version="C")
    with pytest.raises(ValueError, match="version"):
        Rational(version="D")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="init p"):
        Rational((3, 2), init=([1.0], [1.0, 2.0]))
    with pytest.raises(ValueError, match="degrees"):
        Rational((-1, 2))


def test_drop_in_for_relu_trains(device: str) -> None:
    torch.manual_seed(0)
    xs = torch.linspace(-1, 1, 64, dtype=torch.float64, device=device)[:, None]
    ys = xs.abs()
    model = torch.nn.Sequential(
        torch.nn.Linear(1, 8, dtype=torch.float64),
        Rational(),
        torch.nn.Linear(8, 1, dtype=torch.float64),
    ).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    first = float(((model(xs) - ys) ** 2).mean().detach())
    for _ in range(60):
        opt.zero_grad()
        loss = ((model(xs) - ys) ** 2).mean()
        loss.backward()
        opt.step()
    assert float(loss.detach()) < 0.5 * first
    rational_params = next(m for m in model.modules() if isinstance(m, Rational)).numerator
    assert rational_params.grad is not None


def test_float32_model() -> None:
    act32 = Rational(dtype=torch.float32)
    out = act32(torch.ones(3))
    assert out.dtype == torch.float32


def test_rational_rejects_bad_input() -> None:
    x = torch.ones(3, dtype=torch.float64)
    with pytest.raises(ValueError, match="version"):
        ft.rational(x, torch.ones(2), torch.ones(1), version="D")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="p"):
        ft.rational(x, torch.ones(0), torch.ones(1))
    with pytest.raises(ValueError, match="q"):
        ft.rational(x, torch.ones(2), torch.ones(0), version="C")
