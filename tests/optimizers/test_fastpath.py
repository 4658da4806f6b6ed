"""Torch fast paths match the numpy references over whole trajectories (STYLE.md B8)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from reference import optimizers as ref

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from reference.optimizers import fast_torch as fast  # noqa: E402

STEPS = 12


def _loss_np(p: Any) -> float:
    w, b = p
    return float(np.sum(np.abs(w - 0.3)) + 0.5 * np.sum(b**2) + abs(float(np.sum(w)) - 1.0))


def _grad_np(p: Any) -> tuple[np.ndarray, np.ndarray]:
    w, b = p
    return np.sign(w - 0.3) + np.sign(float(np.sum(w)) - 1.0), b.copy()


@dataclass(frozen=True)
class Record:
    """One fast-path / reference pair (OpInfo-style)."""

    name: str
    reference: Callable[[], Any]
    fast: Callable[[list[Any]], Any]
    needs_loss: bool = False


RECORDS = [
    Record(  # the torch factory under the reference's name, same hyper-parameter names
        "lion",
        lambda: ref.lion(learning_rate=0.05, weight_decay=0.3),
        lambda ps: fast.lion(ps, learning_rate=0.05, weight_decay=0.3),
    ),
    Record(
        "lion_betas",
        lambda: ref.lion(learning_rate=0.05, b1=0.5, b2=0.8),
        lambda ps: fast.lion(ps, learning_rate=0.05, b1=0.5, b2=0.8),
    ),
    Record(  # the class (torch names), R1 variant
        "lion_clip",
        lambda: ref.lion(learning_rate=0.05, weight_decay=0.3, clip_tau=0.5),
        lambda ps: fast.LionClip(ps, lr=0.05, weight_decay=0.3, clip_tau=0.5),
    ),
    Record(
        "muon",
        lambda: ref.muon(learning_rate=0.05, weight_decay=0.2),
        lambda ps: fast.muon(ps, learning_rate=0.05, weight_decay=0.2),
    ),
    Record(
        "muon_coefficients",
        lambda: ref.muon(learning_rate=0.05, coefficients=(2.0, -1.5, 0.5), ns_eps=1e-5),
        lambda ps: fast.muon(ps, learning_rate=0.05, coefficients=(2.0, -1.5, 0.5), ns_eps=1e-5),
    ),
    Record(
        "muon_exact_clip",
        lambda: ref.muon(learning_rate=0.05, exact_polar=True, nesterov=False, clip_tau=0.7),
        lambda ps: fast.MuonClip(ps, lr=0.05, exact_polar=True, nesterov=False, clip_tau=0.7),
    ),
]


def _params(device: str) -> list[Any]:
    rng = np.random.default_rng(0)
    return [
        torch.tensor(
            rng.normal(size=(4, 3)), dtype=torch.float64, device=device, requires_grad=True
        ),
        torch.tensor(
            rng.normal(size=(2, 5)), dtype=torch.float64, device=device, requires_grad=True
        ),
    ]


def _np_params() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return rng.normal(size=(4, 3)), rng.normal(size=(2, 5))


@pytest.mark.parametrize("record", RECORDS, ids=[r.name for r in RECORDS])
def test_trajectory_matches_reference(record: Record, device: str) -> None:
    x: Any = _np_params()
    opt = record.reference()
    state = opt.init(x)
    ps = _params(device)
    topt = record.fast(ps)
    for t in range(STEPS):
        g = tuple(np.asarray(v) * (1.0 + 0.1 * t) for v in _grad_np(x))
        u, state = opt.update(g, state, x)
        x = ref.apply_updates(x, u)
        for p, gb in zip(ps, g, strict=True):
            p.grad = torch.tensor(gb, dtype=torch.float64, device=device)
        topt.step()
        for p, xb in zip(ps, x, strict=True):
            assert p.dtype == torch.float64
            assert p.device.type == device
            assert np.max(np.abs(p.detach().cpu().numpy() - xb)) < 1e-10, (record.name, t)


def _torch_loss(ps: list[Any]) -> Any:
    w, b = ps
    return torch.sum(torch.abs(w - 0.3)) + 0.5 * torch.sum(b**2) + torch.abs(torch.sum(w) - 1.0)


def test_s_adam_trajectory_matches_reference(device: str) -> None:
    x: Any = (
        np.random.default_rng(0).normal(size=(4, 3)),
        np.random.default_rng(1).normal(size=(2, 5)),
    )

    def loss(p: Any) -> float:
        w, b = p
        return float(np.sum(np.abs(w - 0.3)) + 0.5 * np.sum(b**2) + abs(float(np.sum(w)) - 1.0))

    opt = ref.s_adam(learning_rate=0.05, lgi_lambda=2.0, k_directions=3, sigma=0.05)
    state = opt.init(x)
    ps = [torch.tensor(v, dtype=torch.float64, device=device, requires_grad=True) for v in x]
    topt = fast.s_adam(
        ps,
        learning_rate=0.05,
        lgi_lambda=2.0,
        k_directions=3,
        sigma=0.05,
        direction_rng=np.random.default_rng(9),
    )
    np_rng = np.random.default_rng(9)

    def closure(backward: bool) -> Any:
        if backward:
            topt.zero_grad()
            out = _torch_loss(ps)
            out.backward()
            return out
        return _torch_loss(ps)

    for t in range(STEPS):
        w, b = x
        g = (np.sign(w - 0.3) + np.sign(float(np.sum(w)) - 1.0), b.copy())
        u, state = opt.update(g, state, x, loss=loss, rng=np_rng)
        x = ref.apply_updates(x, u)
        topt.step(closure)
        assert topt.lgi_history[-1] == pytest.approx(state.rho, rel=1e-9, abs=1e-12)
        for p, xb in zip(ps, x, strict=True):
            assert p.device.type == device
            assert np.max(np.abs(p.detach().cpu().numpy() - xb)) < 1e-10, t


def test_s_adam_without_brake_is_adamw(device: str) -> None:
    torch.manual_seed(0)
    a = torch.randn(5, 3, dtype=torch.float64, device=device, requires_grad=True)
    b = a.detach().clone().requires_grad_(True)
    s_opt = fast.SAdam([a], lr=0.01, eps=0.0, lgi_lambda=0.0)
    w_opt = torch.optim.AdamW([b], lr=0.01, eps=0.0, weight_decay=1e-2)
    target = torch.randn(5, 3, dtype=torch.float64, device=device)

    def closure(backward: bool) -> Any:
        s_opt.zero_grad()
        out = torch.sum((a - target) ** 4)
        if backward:
            out.backward()
        return out

    for _ in range(30):
        s_opt.step(closure)
        w_opt.zero_grad()
        torch.sum((b - target) ** 4).backward()
        w_opt.step()
        assert float(torch.max(torch.abs(a - b)).detach()) < 1e-12


def test_state_dict_round_trip_and_param_groups() -> None:
    ps = _params("cpu")
    opt = fast.Lion([{"params": [ps[0]], "lr": 0.1}, {"params": [ps[1]], "weight_decay": 0.5}])
    for p in ps:
        p.grad = torch.ones_like(p)
    opt.step()
    copies = [p.detach().clone().requires_grad_(True) for p in ps]
    clone = fast.Lion([{"params": [copies[0]]}, {"params": [copies[1]]}])
    clone.load_state_dict(opt.state_dict())
    assert clone.param_groups[0]["lr"] == 0.1
    assert clone.param_groups[1]["weight_decay"] == 0.5
    assert torch.equal(
        clone.state_dict()["state"][0]["exp_avg"], opt.state_dict()["state"][0]["exp_avg"]
    )


def test_s_adam_probes_restore_params_and_report_nan() -> None:
    p = torch.ones(3, dtype=torch.float64, requires_grad=True)
    opt = fast.SAdam([p], lr=0.0, weight_decay=0.0, k_directions=4)
    before = p.detach().clone()

    def closure(backward: bool) -> Any:
        opt.zero_grad()
        out = torch.sum(torch.abs(p))
        if backward:
            out.backward()
        return out

    opt.step(closure)
    assert torch.equal(p.detach(), before)
    assert len(opt.lgi_history) == 1
    calls = iter([1.0, math.nan])

    def bad(backward: bool) -> Any:
        if backward:
            opt.zero_grad()
            out = torch.sum(p**2)
            out.backward()
            return out
        return next(calls)

    with pytest.raises(FloatingPointError):
        opt.step(bad)
    assert torch.equal(p.detach(), before)


def test_bad_hyper_parameters_and_shapes() -> None:
    p = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    with pytest.raises(ValueError, match="sigma"):
        fast.SAdam([p], sigma=0.0)
    with pytest.raises(ValueError, match="b1"):
        fast.Lion([p], betas=(1.0, 0.9))
    with pytest.raises(ValueError, match="2-D"):
        fast.Muon([p])
    q = torch.zeros(2, 2, dtype=torch.float64, requires_grad=True)
    opt = fast.Muon([q])
    q.grad = torch.full((2, 2), math.nan, dtype=torch.float64)
    with pytest.raises(ValueError, match="grads"):
        opt.step()
    with pytest.raises(ValueError, match="closure"):
        fast.SAdam([p]).step()


@dataclass(frozen=True)
class FunctionRecord:
    """One torch function and its numpy reference, called on the same input (OpInfo-style)."""

    name: str
    reference: Callable[[np.ndarray], np.ndarray]
    fast: Callable[[Any], Any]
    shape: tuple[int, int]
    atol64: float = 1e-12


def _rank_two(shape: tuple[int, int]) -> np.ndarray:
    rng = np.random.default_rng(4)
    return rng.normal(size=(shape[0], 2)) @ rng.normal(size=(2, shape[1]))


FUNCTION_RECORDS = [
    FunctionRecord("newton_schulz", ref.newton_schulz, fast.newton_schulz, (5, 3)),
    FunctionRecord(
        "newton_schulz_steps",
        lambda g: ref.newton_schulz(g, steps=3, coefficients=(2.0, -1.5, 0.5), eps=1e-5),
        lambda g: fast.newton_schulz(g, steps=3, coefficients=(2.0, -1.5, 0.5), eps=1e-5),
        (3, 6),
    ),
    FunctionRecord("polar", ref.polar, fast.polar, (5, 3)),
    FunctionRecord("polar_wide", ref.polar, fast.polar, (2, 7)),
    FunctionRecord(
        "polar_rtol",
        lambda g: ref.polar(_rank_two(g.shape), rtol=1e-6),
        lambda g: fast.polar(
            torch.as_tensor(_rank_two(tuple(g.shape)), device=g.device), rtol=1e-6
        ),
        (5, 4),
    ),
]


@pytest.mark.parametrize("record", FUNCTION_RECORDS, ids=[r.name for r in FUNCTION_RECORDS])
def test_function_matches_reference(record: FunctionRecord, device: str) -> None:
    out = record.fast(
        torch.tensor(np.random.default_rng(0).normal(size=record.shape), device=device)
    )
    assert out.dtype == torch.float64
    assert out.device.type == device
    want = record.reference(np.random.default_rng(0).normal(size=record.shape))  # fresh input
    assert np.max(np.abs(out.cpu().numpy() - want)) < record.atol64


def test_factories_reject_what_the_torch_classes_do_not_implement() -> None:
    p = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    with pytest.raises(ValueError, match="variant"):
        fast.s_adam([p], variant="paper_plain")
    with pytest.raises(ValueError, match="direction_mode"):
        fast.s_adam([p], direction_mode="global")
    with pytest.raises(ValueError, match="ddof"):
        fast.s_adam([p], ddof=0)
    with pytest.raises(ValueError, match="rtol"):
        fast.polar(torch.ones(2, 2, dtype=torch.float64), rtol=1.0)


# --------------------------------------------------------------------- R2 (clipped STORM SFW)
@dataclass(frozen=True)
class VRRecord:
    """One R2 fast-path / reference pair."""

    name: str
    reference: Callable[[], Any]
    fast: Callable[[list[Any]], Any]


VR_RECORDS = [
    VRRecord(
        "lion_vr",
        lambda: ref.lion_vr(learning_rate=0.05, weight_decay=0.5, clip_tau=1.0),
        lambda ps: fast.lion_vr(ps, learning_rate=0.05, weight_decay=0.5, clip_tau=1.0),
    ),
    VRRecord(
        "lion_vr_estimator_clip",
        lambda: ref.lion_vr(learning_rate=0.05, weight_decay=0.5, a=0.3, clip="estimator"),
        lambda ps: fast.LionVR(ps, lr=0.05, weight_decay=0.5, a=0.3, clip="estimator"),
    ),
    VRRecord(
        "muon_vr_ns5",
        lambda: ref.muon_vr(learning_rate=0.05, weight_decay=0.5, clip_tau=2.0),
        lambda ps: fast.muon_vr(ps, learning_rate=0.05, weight_decay=0.5, clip_tau=2.0),
    ),
    VRRecord(
        "muon_vr_exact_estimator_clip",
        lambda: ref.muon_vr(
            learning_rate=0.05, weight_decay=0.5, exact_polar=True, clip="estimator"
        ),
        lambda ps: fast.MuonVR(ps, lr=0.05, weight_decay=0.5, exact_polar=True, clip="estimator"),
    ),
    VRRecord(
        "sfw_vr_l2_schedules",
        lambda: ref.sfw_vr(which="l2", radius=2.0),
        lambda ps: fast.sfw_vr(ps, which="l2", radius=2.0),
    ),
    VRRecord(
        "sfw_vr_l1_unclipped",
        lambda: ref.sfw_vr(which="l1", radius=1.5, clip_tau=math.inf, step_size=0.2),
        lambda ps: fast.SFWVR(ps, which="l1", radius=1.5, clip_tau=math.inf, step_size=0.2),
    ),
]


def _noise(t: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(100 + t)  # heavy-tailed sample xi_t (Student t, 1.5 dof)
    return rng.standard_t(1.5, size=(4, 3)), rng.standard_t(1.5, size=(2, 5))


def _stoch_grad_np(p: Any, xi: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    g = _grad_np(p)
    return g[0] + xi[0], g[1] + xi[1]


def _stoch_loss_torch(ps: list[Any], xi: tuple[np.ndarray, np.ndarray]) -> Any:
    out = _torch_loss(ps)
    for p, x in zip(ps, xi, strict=True):
        out = out + torch.sum(p * torch.as_tensor(x, dtype=p.dtype, device=p.device))
    return out


def _vr_closure(opt: Any, ps: list[Any], t: int) -> Callable[[], Any]:
    xi = _noise(t)

    def closure() -> Any:
        opt.zero_grad()
        out = _stoch_loss_torch(ps, xi)
        out.backward()
        return out

    return closure


@pytest.mark.parametrize("record", VR_RECORDS, ids=[r.name for r in VR_RECORDS])
def test_vr_trajectory_matches_reference(record: VRRecord, device: str) -> None:
    x: Any = _np_params()
    prev = x
    opt = record.reference()
    state = opt.init(x)
    ps = _params(device)
    topt = record.fast(ps)
    for t in range(STEPS):
        xi = _noise(t)
        g = _stoch_grad_np(x, xi)
        u, state = opt.update(g, state, x, prev_grads=_stoch_grad_np(prev, xi))
        prev, x = x, ref.apply_updates(x, u)
        loss = topt.step(_vr_closure(topt, ps, t))
        assert loss.dtype == torch.float64
        for p, xb, gb in zip(ps, x, g, strict=True):
            assert p.dtype == torch.float64
            assert p.device.type == device
            assert np.max(np.abs(p.detach().cpu().numpy() - xb)) < 1e-10, (record.name, t)
            # after the step .grad holds g(x_t; xi_t), the current-point gradient
            assert np.max(np.abs(p.grad.cpu().numpy() - gb)) < 1e-12, (record.name, t)
    for m_np, p in zip(state.estimator, ps, strict=True):
        m_t = topt.state[p]["estimator"].cpu().numpy()
        assert np.max(np.abs(m_t - m_np)) < 1e-10


def test_vr_state_dict_round_trip_resumes_the_trajectory() -> None:
    ps = _params("cpu")
    opt = fast.LionVR(ps, lr=0.05, weight_decay=0.5)
    for t in range(3):
        opt.step(_vr_closure(opt, ps, t))
    copies = [p.detach().clone().requires_grad_(True) for p in ps]
    clone = fast.LionVR(copies, lr=0.05, weight_decay=0.5)
    clone.load_state_dict(opt.state_dict())
    assert clone.state_dict()["state"][0]["step"] == 3
    for t in range(3, 8):
        opt.step(_vr_closure(opt, ps, t))
        clone.step(_vr_closure(clone, copies, t))
        for p, q in zip(ps, copies, strict=True):
            assert torch.equal(p.detach(), q.detach()), t


def test_vr_param_groups_match_separate_references() -> None:
    ps = _params("cpu")
    opt = fast.SFWVR(
        [
            {"params": [ps[0]], "which": "linf", "radius": 0.5, "step_size": 0.3},
            {"params": [ps[1]], "which": "spectral", "radius": 2.0, "clip": "estimator"},
        ]
    )
    refs = [
        ref.sfw_vr(which="linf", radius=0.5, step_size=0.3),
        ref.sfw_vr(which="spectral", radius=2.0, clip="estimator"),
    ]
    x = list(_np_params())
    prev = list(x)
    states = [r.init(b) for r, b in zip(refs, x, strict=True)]
    for t in range(6):
        xi = _noise(t)
        g = _stoch_grad_np(tuple(x), xi)
        gp = _stoch_grad_np(tuple(prev), xi)
        new = []
        for i, r in enumerate(refs):
            u, states[i] = r.update(g[i], states[i], x[i], prev_grads=gp[i])
            new.append(x[i] + np.asarray(u))
        prev, x = x, new
        opt.step(_vr_closure(opt, ps, t))
        for p, xb in zip(ps, x, strict=True):
            assert np.max(np.abs(p.detach().numpy() - xb)) < 1e-10, t


def test_vr_bad_input() -> None:
    ps = _params("cpu")
    with pytest.raises(ValueError, match="closure"):
        fast.LionVR(ps, lr=0.05).step()
    with pytest.raises(ValueError, match="learning_rate"):
        fast.LionVR(ps, lr=0.5, weight_decay=3.0)
    with pytest.raises(ValueError, match="weight_decay"):
        fast.MuonVR(ps, weight_decay=0.0)
    with pytest.raises(ValueError, match="2-D"):
        fast.MuonVR([torch.zeros(3, dtype=torch.float64, requires_grad=True)])
    with pytest.raises(ValueError, match="clip"):
        fast.SFWVR(ps, clip="after")
    with pytest.raises(ValueError, match="norm"):
        fast.SFWVR(ps, which="l3")
    opt = fast.SFWVR(ps)

    def nan_closure() -> Any:
        opt.zero_grad()
        out = torch.sum(ps[0] * math.nan) + torch.sum(ps[1])
        out.backward()
        return out

    before = [p.detach().clone() for p in ps]
    with pytest.raises(ValueError, match="grads"):
        opt.step(nan_closure)
    assert all(torch.equal(p.detach(), b) for p, b in zip(ps, before, strict=True))


# ---------------------------------------------------------------- S-Adam probe directions
@pytest.mark.parametrize("rng_kind", ["numpy", "torch", "default"])
def test_s_adam_probes_have_per_block_norm_sigma(rng_kind: str) -> None:
    """Every probe point is theta + sigma u with ||u_b|| = 1 per block (Algorithm A l. 1a)."""
    rng: Any = {
        "numpy": np.random.default_rng(3),
        "torch": torch.Generator().manual_seed(3),
        "default": None,
    }[rng_kind]
    ps = _params("cpu")
    theta = [p.detach().clone() for p in ps]
    opt = fast.SAdam(ps, lr=0.01, k_directions=3, sigma=0.05, direction_rng=rng)
    seen: list[list[Any]] = []

    def closure(backward: bool) -> Any:
        if backward:
            opt.zero_grad()
            out = _torch_loss(ps)
            out.backward()
            return out
        seen.append([p.detach().clone() for p in ps])
        return _torch_loss(ps)

    opt.step(closure)
    assert len(seen) == 3
    for probe in seen:
        for q, th in zip(probe, theta, strict=True):
            assert float(torch.linalg.vector_norm(q - th)) == pytest.approx(0.05, rel=1e-9)
    assert not torch.equal(seen[0][0], seen[1][0])


def test_s_adam_default_directions_are_seeded_and_leave_the_global_stream() -> None:
    def run() -> tuple[list[float], Any]:
        torch.manual_seed(11)
        ps = _params("cpu")
        opt = fast.SAdam(ps, lr=0.05, k_directions=3, sigma=0.05)

        def closure(backward: bool) -> Any:
            if backward:
                opt.zero_grad()
                out = _torch_loss(ps)
                out.backward()
                return out
            return _torch_loss(ps)

        for _ in range(4):
            opt.step(closure)
        return opt.lgi_history, torch.rand(1)

    (h1, r1), (h2, r2) = run(), run()
    assert h1 == h2
    torch.manual_seed(11)
    assert torch.equal(r1, torch.rand(1))  # the probes did not consume torch's global stream
    assert torch.equal(r1, r2)
