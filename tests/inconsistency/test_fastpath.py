"""IAM-D, IAM-S, SAM and ASAM torch wrappers against the numpy reference, over trajectories."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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


SGD = inc.SGDConfig(learning_rate=LR, momentum=MOMENTUM, weight_decay=WD)


@dataclass(frozen=True, slots=True, kw_only=True)
class StepRecord:
    """One torch optimizer factory paired with the reference step of the same name.

    ``reference(model, theta, x, y, xu, rng, buffer, delta)`` runs one reference step;
    ``fast(net, rng)`` builds the torch optimizer from the same configuration;
    ``unlabeled`` says which batch the torch step gets as ``inputs`` (None: no inputs).
    """

    name: str
    reference: Callable[..., Any]
    fast: Callable[[nn.Module, np.random.Generator], Any]
    unlabeled: bool | None
    rtol64: float = 1e-10
    atol64: float = 1e-12


def _de_config(beta: float = 0.7, ema: float = 0.0) -> inc.IAMDEConfig:
    return inc.IAMDEConfig(rho=0.1, beta=beta, noise_scale=0.1, delta_ema=ema)


def _iam_s_record(name: str, cfg: inc.IAMConfig) -> StepRecord:
    def reference(m: Any, th: Any, x: Any, y: Any, xu: Any, rng: Any, buf: Any, d: Any) -> Any:
        return inc.iam_s(m, th, x, y, rng=rng, config=cfg, optimizer=SGD, buffer=buf)

    def make(net: nn.Module, rng: np.random.Generator) -> Any:
        return fast.iam_s(net, config=cfg, optimizer=SGD, rng=rng)

    return StepRecord(name=name, reference=reference, fast=make, unlabeled=False)


def _iam_de_record(name: str, cfg: inc.IAMDEConfig) -> StepRecord:
    def reference(m: Any, th: Any, x: Any, y: Any, xu: Any, rng: Any, buf: Any, d: Any) -> Any:
        return inc.iam_de(m, th, x, y, xu, rng=rng, config=cfg, optimizer=SGD, buffer=buf, delta=d)

    def make(net: nn.Module, rng: np.random.Generator) -> Any:
        return fast.iam_de(net, config=cfg, optimizer=SGD, rng=rng)

    return StepRecord(name=name, reference=reference, fast=make, unlabeled=True)


SAM_CFG = inc.SAMConfig(rho=0.1, shift=0.01)
IAMS_CFG = inc.IAMConfig(rho=0.1, steps=2, noise_scale=1e-2)
IAMS0_CFG = inc.IAMConfig(rho=0.0, steps=2, noise_scale=1e-2)
IAMD_CFG = inc.IAMConfig(rho=0.1, beta=0.7, steps=2, noise_scale=1e-2)
STEP_RECORDS = (
    StepRecord(
        name="sam",
        reference=lambda m, th, x, y, xu, rng, buf, d: inc.sam(
            m, th, x, y, config=SAM_CFG, optimizer=SGD, buffer=buf
        ),
        fast=lambda net, rng: fast.sam(net, config=SAM_CFG, optimizer=SGD),
        unlabeled=None,
    ),
    StepRecord(
        name="asam",
        reference=lambda m, th, x, y, xu, rng, buf, d: inc.asam(
            m, th, x, y, config=SAM_CFG, optimizer=SGD, buffer=buf
        ),
        fast=lambda net, rng: fast.asam(net, config=SAM_CFG, optimizer=SGD),
        unlabeled=None,
    ),
    *(_iam_s_record(name, cfg) for name, cfg in (("iam_s", IAMS_CFG), ("iam_s_rho0", IAMS0_CFG))),
    StepRecord(
        name="iam_d",
        reference=lambda m, th, x, y, xu, rng, buf, d: inc.iam_d(
            m, th, x, y, xu, rng=rng, config=IAMD_CFG, optimizer=SGD, buffer=buf
        ),
        fast=lambda net, rng: fast.iam_d(net, config=IAMD_CFG, optimizer=SGD, rng=rng),
        unlabeled=True,
    ),
    *(
        _iam_de_record(name, cfg)
        for name, cfg in (
            ("iam_de", _de_config()),
            ("iam_de_ema", _de_config(ema=0.9)),
            ("iam_de_beta0", _de_config(beta=0.0)),
        )
    ),
)


@pytest.mark.parametrize("kind", ["linear", "mlp"])
@pytest.mark.parametrize("record", STEP_RECORDS, ids=[r.name for r in STEP_RECORDS])
def test_trajectory_matches_reference(device: str, kind: str, record: StepRecord) -> None:
    model, theta, x, y, xu = _setup(kind, 7)
    rng_ref = np.random.default_rng(11)
    net = _net(model, theta, device)
    xt = torch.as_tensor(x, device=device)
    yt = torch.as_tensor(y, device=device)
    inputs = {None: {}, False: {"inputs": xt}, True: {"inputs": torch.as_tensor(xu, device=device)}}
    opt = record.fast(net, np.random.default_rng(11))
    th = theta.copy()
    buf: FloatArray | None = None
    delta: FloatArray | None = None
    for _ in range(STEPS):
        ref = record.reference(model, th, x, y, xu, rng_ref, buf, delta)
        loss = opt.step(_closure(net, xt, yt), **inputs[record.unlabeled])
        if isinstance(ref, inc.IAMDEStepResult):
            delta = np.array(ref.next_delta)
            assert opt.last_sign == ref.sign
            assert opt.delta is not None
            np.testing.assert_allclose(opt.delta.cpu().numpy(), delta, rtol=1e-10, atol=1e-14)
            assert abs(opt.last_inconsistency - ref.inconsistency) <= 1e-10 * ref.inconsistency
            assert opt.delta.dtype == torch.float64
            assert opt.delta.device.type == torch.device(device).type
        th, buf = np.array(ref.theta), np.array(ref.buffer)
        np.testing.assert_allclose(_flat(net), th, rtol=record.rtol64, atol=record.atol64)
        assert abs(float(loss) - ref.loss) <= 1e-10
        assert loss.dtype == torch.float64
        assert loss.device.type == torch.device(device).type
    for p in net.parameters():
        assert p.dtype == torch.float64
        assert p.device.type == torch.device(device).type


@pytest.mark.parametrize("kind", ["linear", "mlp"])
def test_batch_kl_matches_reference(device: str, kind: str) -> None:
    model, theta, x, _, _ = _setup(kind, 4)
    delta = np.random.default_rng(6).standard_normal(model.n_params) * 0.3
    want = inc.batch_kl(model, theta, delta, x)
    net = _net(model, theta, device)
    got = fast.batch_kl(
        net, torch.as_tensor(delta, device=device), torch.as_tensor(x, device=device)
    )
    assert got.dtype == torch.float64
    assert got.device.type == torch.device(device).type
    assert abs(float(got.detach()) - want) <= 1e-12 * want + 1e-15
    zero = fast.batch_kl(net, np.zeros(model.n_params), torch.as_tensor(x, device=device))
    assert float(zero.detach()) == 0.0


def test_local_inconsistency_matches_reference(device: str) -> None:
    model, theta, x, _, _ = _setup("mlp", 3)
    xi = np.random.default_rng(5).standard_normal(model.n_params)
    ref = inc.inconsistency_ascent(model, theta, x, xi, rho=0.05, steps=5)
    net = _net(model, theta, device)
    value, deltas = fast.local_inconsistency(
        net, torch.as_tensor(x, device=device), rho=0.05, steps=5, noise=lambda p: xi
    )
    flat = torch.cat([d.reshape(-1) for d in deltas]).cpu().numpy()
    np.testing.assert_allclose(flat, ref.delta, rtol=1e-9, atol=1e-12)
    assert abs(float(value) - ref.value) <= 1e-10 * ref.value + 1e-15
    assert value.device.type == torch.device(device).type
    # the reference's own entry point, with its rng draw reproduced by ``noise``
    want = inc.local_inconsistency(
        model, theta, x, rho=0.05, rng=np.random.default_rng(8), steps=5, noise_scale=1e-3
    )
    draw = np.random.default_rng(8)
    value, deltas = fast.local_inconsistency(
        net,
        torch.as_tensor(x, device=device),
        rho=0.05,
        steps=5,
        noise_scale=1e-3,
        noise=draw.standard_normal,
    )
    flat = torch.cat([d.reshape(-1) for d in deltas]).cpu().numpy()
    np.testing.assert_allclose(flat, want.delta, rtol=1e-9, atol=1e-12)
    assert abs(float(value) - want.value) <= 1e-10 * want.value + 1e-15


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
    cfg = inc.IAMConfig()
    with pytest.raises(TypeError, match="rng"):
        fast.iam_d(net, config=cfg, optimizer=inc.SGDConfig(), rng=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="delta"):
        fast.batch_kl(net, torch.zeros(5, dtype=torch.float64), torch.ones(1, 2).double())
