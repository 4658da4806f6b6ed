"""IAM-D, IAM-S, SAM and ASAM torch wrappers against the numpy reference, over trajectories."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from reference import inconsistency as inc
from reference._arrays import FloatArray, IntArray

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from torch import nn  # noqa: E402

from reference.inconsistency import fast_torch as fast  # noqa: E402

STEPS = 4
LR, MOMENTUM, WD = 0.2, 0.9, 1e-3


def _net(model: inc.SoftmaxModel, theta: FloatArray, device: str) -> nn.Module:
    if model.kind == "linear":
        net: nn.Module = nn.Linear(model.n_inputs, model.n_classes)
    else:
        net = nn.Sequential(
            nn.Linear(model.n_inputs, model.n_hidden),
            nn.Tanh(),
            nn.Linear(model.n_hidden, model.n_classes),
        )
    net = net.to(device=device, dtype=torch.float64)
    torch.nn.utils.vector_to_parameters(torch.as_tensor(theta, device=device), net.parameters())
    return net


def _flat(net: nn.Module) -> FloatArray:
    out: FloatArray = torch.nn.utils.parameters_to_vector(net.parameters()).detach().cpu().numpy()
    return out


def _setup(
    kind: str, seed: int
) -> tuple[inc.SoftmaxModel, FloatArray, FloatArray, IntArray, FloatArray]:
    rng = np.random.default_rng(seed)
    model = inc.SoftmaxModel(
        kind="mlp" if kind == "mlp" else "linear", n_inputs=3, n_classes=4, n_hidden=5
    )
    theta = rng.standard_normal(model.n_params) * 0.5
    x = rng.standard_normal((12, 3))
    y = rng.integers(0, 4, size=12).astype(np.int64)
    xu = rng.standard_normal((9, 3))
    return model, theta, x, y, xu


def _closure(net: nn.Module, x: Any, y: Any) -> Callable[[], Any]:
    return lambda: nn.functional.cross_entropy(net(x), y)


@pytest.mark.parametrize("kind", ["linear", "mlp"])
@pytest.mark.parametrize(
    "method",
    ["sam", "asam", "iam_s", "iam_d", "iam_s_rho0", "iam_de", "iam_de_ema", "iam_de_beta0"],
)
def test_trajectory_matches_reference(device: str, kind: str, method: str) -> None:
    model, theta, x, y, xu = _setup(kind, 7)
    sgd = inc.SGDConfig(lr=LR, momentum=MOMENTUM, weight_decay=WD)
    rng_ref = np.random.default_rng(11)
    rng_fast = np.random.default_rng(11)
    net = _net(model, theta, device)
    xt = torch.as_tensor(x, device=device)
    yt = torch.as_tensor(y, device=device)
    xut = torch.as_tensor(xu, device=device)
    base: dict[str, Any] = {"lr": LR, "momentum": MOMENTUM, "weight_decay": WD}
    noise = lambda p: rng_fast.standard_normal(p)  # noqa: E731
    coin = lambda: rng_fast.integers(0, 2)  # noqa: E731
    de_cfg = inc.IAMDEConfig(
        rho=0.1,
        beta=0.0 if method.endswith("beta0") else 0.7,
        noise_scale=0.1,
        delta_ema=0.9 if method.endswith("ema") else 0.0,
    )
    state: FloatArray | None = None
    opt: Any
    if method in ("sam", "asam"):
        opt = fast.SAM(net, torch.optim.SGD, rho=0.1, adaptive=method == "asam", eta=0.01, **base)
    elif method.startswith("iam_de"):
        opt = fast.IAMDE(
            net,
            torch.optim.SGD,
            rho=de_cfg.rho,
            beta=de_cfg.beta,
            noise_scale=de_cfg.noise_scale,
            delta_ema=de_cfg.delta_ema,
            noise=noise,
            coin=coin,
            **base,
        )
    elif method.startswith("iam_s"):
        rho = 0.0 if method.endswith("rho0") else 0.1
        opt = fast.IAMS(
            net, torch.optim.SGD, rho=rho, steps=2, noise_scale=1e-2, noise=noise, **base
        )
    else:
        opt = fast.IAMD(
            net, torch.optim.SGD, rho=0.1, beta=0.7, steps=2, noise_scale=1e-2, noise=noise, **base
        )
    th = theta.copy()
    buf: FloatArray | None = None
    ref: Any
    for _ in range(STEPS):
        if method in ("sam", "asam"):
            cfg = inc.SAMConfig(rho=0.1, eta=0.01)
            fn = inc.asam if method == "asam" else inc.sam
            ref = fn(model, th, x, y, config=cfg, optimizer=sgd, buffer=buf)
            loss = opt.step(_closure(net, xt, yt))
        elif method.startswith("iam_de"):
            ref = inc.iam_de(
                model,
                th,
                x,
                y,
                xu,
                rng=rng_ref,
                config=de_cfg,
                optimizer=sgd,
                buffer=buf,
                delta=state,
            )
            loss = opt.step(_closure(net, xt, yt), inputs=xut)
            state = np.array(ref.next_delta)
            assert opt.last_sign == ref.sign
            assert opt.delta is not None
            np.testing.assert_allclose(opt.delta.cpu().numpy(), state, rtol=1e-10, atol=1e-14)
            assert abs(opt.last_inconsistency - ref.inconsistency) <= 1e-10 * ref.inconsistency
            assert opt.delta.dtype == torch.float64
            assert opt.delta.device.type == torch.device(device).type
        elif method.startswith("iam_s"):
            rho = 0.0 if method.endswith("rho0") else 0.1
            ref = inc.iam_s(
                model,
                th,
                x,
                y,
                rng=rng_ref,
                config=inc.IAMConfig(rho=rho, steps=2, noise_scale=1e-2),
                optimizer=sgd,
                buffer=buf,
            )
            loss = opt.step(_closure(net, xt, yt), inputs=xt)
        else:
            ref = inc.iam_d(
                model,
                th,
                x,
                y,
                xu,
                rng=rng_ref,
                config=inc.IAMConfig(rho=0.1, beta=0.7, steps=2, noise_scale=1e-2),
                optimizer=sgd,
                buffer=buf,
            )
            loss = opt.step(_closure(net, xt, yt), inputs=xut)
        th, buf = np.array(ref.theta), np.array(ref.buffer)
        np.testing.assert_allclose(_flat(net), th, rtol=1e-10, atol=1e-12)
        assert abs(float(loss) - ref.loss) <= 1e-10
        assert loss.dtype == torch.float64
        assert loss.device.type == torch.device(device).type
    for p in net.parameters():
        assert p.dtype == torch.float64
        assert p.device.type == torch.device(device).type


def test_local_inconsistency_matches_reference(device: str) -> None:
    model, theta, x, _, _ = _setup("mlp", 3)
    xi = np.random.default_rng(5).standard_normal(model.n_params)
    ref = inc.inconsistency_ascent(model, theta, x, xi, rho=0.05, steps=5)
    net = _net(model, theta, device)
    value, deltas = fast.local_inconsistency_torch(
        net, torch.as_tensor(x, device=device), rho=0.05, steps=5, noise=lambda p: xi
    )
    flat = torch.cat([d.reshape(-1) for d in deltas]).cpu().numpy()
    np.testing.assert_allclose(flat, ref.delta, rtol=1e-9, atol=1e-12)
    assert abs(float(value) - ref.value) <= 1e-10 * ref.value + 1e-15
    assert value.device.type == torch.device(device).type


def test_batchnorm_statistics_frozen_in_perturbed_passes(device: str) -> None:
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 6), nn.BatchNorm1d(6), nn.Tanh(), nn.Linear(6, 3)).to(
        device=device, dtype=torch.float64
    )
    x = torch.randn(16, 3, dtype=torch.float64, device=device)
    y = torch.randint(0, 3, (16,), device=device)
    bn = net[1]
    assert isinstance(bn, nn.BatchNorm1d)
    opt = fast.IAMS(
        net, torch.optim.SGD, rho=0.05, steps=3, generator=torch.Generator().manual_seed(1), lr=0.1
    )
    opt.step(_closure(net, x, y), inputs=x)
    # exactly one ordinary forward updated the running mean: compare with a fresh copy
    torch.manual_seed(0)
    twin = nn.Sequential(nn.Linear(3, 6), nn.BatchNorm1d(6), nn.Tanh(), nn.Linear(6, 3)).to(
        device=device, dtype=torch.float64
    )
    twin.train()
    with torch.no_grad():
        twin(x)
    twin_bn = twin[1]
    assert isinstance(twin_bn, nn.BatchNorm1d)
    assert bn.running_mean is not None
    assert twin_bn.running_mean is not None
    torch.testing.assert_close(bn.running_mean, twin_bn.running_mean)
    assert bn.momentum == 0.1  # restored


def test_iam_de_freezes_batchnorm_in_the_perturbed_pass(device: str) -> None:
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 6), nn.BatchNorm1d(6), nn.Tanh(), nn.Linear(6, 3)).to(
        device=device, dtype=torch.float64
    )
    x = torch.randn(16, 3, dtype=torch.float64, device=device)
    y = torch.randint(0, 3, (16,), device=device)
    xu = torch.randn(10, 3, dtype=torch.float64, device=device)
    bn = net[1]
    assert isinstance(bn, nn.BatchNorm1d)
    opt = fast.IAMDE(net, torch.optim.SGD, generator=torch.Generator().manual_seed(2), lr=0.1)
    opt.step(_closure(net, x, y), inputs=xu)
    torch.manual_seed(0)
    twin = nn.Sequential(nn.Linear(3, 6), nn.BatchNorm1d(6), nn.Tanh(), nn.Linear(6, 3)).to(
        device=device, dtype=torch.float64
    )
    twin.train()
    with torch.no_grad():
        twin(xu)  # only the ordinary pass on the unlabeled batch moves the statistics
    twin_bn = twin[1]
    assert isinstance(twin_bn, nn.BatchNorm1d)
    assert bn.running_mean is not None
    assert twin_bn.running_mean is not None
    torch.testing.assert_close(bn.running_mean, twin_bn.running_mean)
    assert bn.momentum == 0.1


def test_bad_configuration() -> None:
    net = nn.Linear(2, 2).double()
    with pytest.raises(ValueError, match="rho"):
        fast.IAMD(net, torch.optim.SGD, rho=0.0, lr=0.1)
    with pytest.raises(ValueError, match="rho"):
        fast.SAM(net, torch.optim.SGD, rho=-1.0, lr=0.1)
    with pytest.raises(ValueError, match="beta"):
        fast.IAMD(net, torch.optim.SGD, beta=-1.0, lr=0.1)
    with pytest.raises(ValueError, match="rho"):
        fast.IAMDE(net, torch.optim.SGD, rho=0.0, lr=0.1)
    with pytest.raises(ValueError, match="delta_ema"):
        fast.IAMDE(net, torch.optim.SGD, delta_ema=1.0, lr=0.1)
    frozen = nn.Linear(2, 2).double().requires_grad_(False)
    with pytest.raises(ValueError, match="no trainable parameters"):
        fast.SAM(frozen, torch.optim.SGD, lr=0.1)
    opt = fast.IAMS(net, torch.optim.SGD, lr=0.1)
    with pytest.raises(ValueError, match="closure"):
        opt.step(None)
