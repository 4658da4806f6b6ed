"""Torch fast path of the QP layer against the numpy reference (CPU; CUDA marked gpu)."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from properties.qp_layers import QPInstance, oracle_grads, planted_qp  # noqa: E402
from reference import qp_layers as ql  # noqa: E402
from reference.qp_layers import fast_torch as qt  # noqa: E402


@pytest.fixture(autouse=True)
def _one_thread() -> Iterator[None]:
    # tiny LAPACK calls spin-wait with 2 intra-op threads on a loaded 2-core machine
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def _instance(seed: int, n: int = 6, m: int = 5, p: int = 1, k: int = 2) -> QPInstance:
    return planted_qp(np.random.default_rng(seed), n=n, m=m, p=p, k=k)


@dataclass(frozen=True, slots=True)
class Pair:
    """One reference/fast pair (OpInfo style): both sides get fresh inputs."""

    name: str
    reference: Callable[..., Any]
    fast: Callable[..., Any]
    atol64: float
    atol32: float


PAIRS = (
    Pair(
        "solve_qp",
        lambda *a: ql.solve_qp(*a[:6]),
        lambda *a, **kw: qt.solve_qp(*a[:6], **kw),
        1e-10,
        1e-3,
    ),
    Pair("kkt_grads", ql.kkt_grads, qt.kkt_grads, 1e-9, 1e-3),
    Pair(
        "ffo_grads",
        lambda *a: ql.ffo_grads(*a, alpha=100.0),
        lambda *a, **kw: qt.ffo_grads(*a, alpha=100.0, **kw),
        1e-9,
        2e-3,
    ),
)


def _fields(result: Any, pair: Pair) -> dict[str, Any]:
    keys = ("x", "lam", "nu") if pair.name == "solve_qp" else ("Q", "q", "G", "h", "A", "b")
    return {k: getattr(result, k) for k in keys}


@pytest.mark.parametrize("pair", PAIRS, ids=[p.name for p in PAIRS])
@pytest.mark.parametrize("dtype_name", ["float64", "float32"])
def test_fast_path_matches_reference(pair: Pair, dtype_name: str, device: str) -> None:
    dtype = getattr(torch, dtype_name)
    for seed in range(3):
        inst = _instance(seed)
        d = np.random.default_rng(seed + 100).standard_normal(6)
        ref = _fields(pair.reference(*_instance(seed).args(), d.copy()), pair)
        fast = _fields(pair.fast(*inst.args(), d.copy(), device=device, dtype=dtype), pair)
        atol = pair.atol64 if dtype_name == "float64" else pair.atol32
        for key, want in ref.items():
            got = fast[key]
            if want is None:
                assert got is None
                continue
            assert isinstance(got, torch.Tensor)
            assert got.dtype == dtype
            assert got.device.type == device
            np.testing.assert_allclose(got.cpu().double().numpy(), want, atol=atol, err_msg=key)


def test_solution_matches_the_reference_field_by_field(device: str) -> None:
    """Every field of :class:`QPSolution`; the batched type carries exactly its names."""
    names = [f.name for f in dataclasses.fields(ql.QPSolution)]
    for seed in range(4):
        inst = _instance(seed, n=7, m=6, p=1, k=3)
        ref = ql.solve_qp(*inst.args())
        fast = qt.solve_qp(*inst.args(), device=device)
        assert [f.name for f in dataclasses.fields(fast)] == names
        for key in ("x", "lam", "nu", "slack"):
            got = getattr(fast, key).cpu().numpy()
            np.testing.assert_allclose(got, getattr(ref, key), atol=1e-10, err_msg=key)
        assert int(fast.iterations[0]) == ref.iterations
        assert bool(fast.converged[0]) == ref.converged
        assert bool(fast.converged[0])
        assert bool(fast.polished[0]) == ref.polished
        assert abs(float(fast.residual[0]) - ref.residual) <= 1e-12
        # the residual is the reference's kkt_residual of the returned point, recomputed
        got = [getattr(fast, k).cpu().numpy() for k in ("x", "lam", "nu")]
        direct = ql.kkt_residual(*inst.args(), *got)
        assert abs(float(fast.residual[0]) - direct) <= 1e-15


def test_pgd_trajectory_matches_the_reference(device: str) -> None:
    inst = _instance(3, n=6, m=4, p=1, k=2)
    assert inst.G is not None
    assert inst.A is not None
    C = np.concatenate([inst.G[inst.active], inst.A])
    d = np.random.default_rng(9).standard_normal(6)
    ref = ql.ghost_pgd(
        inst.Q, inst.q, C, C @ inst.y, d, inst.y, alpha=100.0, max_iter=25, tol=1e-300, record=True
    )
    fast = qt.ghost_pgd(
        inst.Q, inst.q, C, C @ inst.y, d, inst.y, alpha=100.0, max_iter=25, device=device
    )
    assert fast.shape == (26, 6)
    assert fast.device.type == device
    np.testing.assert_allclose(fast.cpu().numpy(), ref.history, atol=1e-12)


def _layer_inputs(seed: int, device: str, batch: int | None = None) -> tuple[Any, ...]:
    insts = [_instance(seed + i) for i in range(batch or 1)]

    def stack(name: str) -> Any:
        arrays = [getattr(i, name) for i in insts]
        value = np.stack(arrays) if batch else arrays[0]
        return torch.tensor(value, dtype=torch.float64, device=device, requires_grad=True)

    return tuple(stack(k) for k in ("Q", "q", "G", "h", "A", "b"))


def test_gradcheck_on_the_exact_baseline(device: str) -> None:
    inst = planted_qp(np.random.default_rng(11), n=4, m=3, p=1, k=1)
    inputs = tuple(
        torch.tensor(v, dtype=torch.float64, device=device, requires_grad=True) for v in inst.args()
    )

    def layer(Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any) -> Any:
        return qt.qp_layer(0.5 * (Q + Q.mT), q, G, h, A, b, backward="kkt")

    assert torch.autograd.gradcheck(layer, inputs, eps=1e-6, atol=1e-6, rtol=1e-4)


def test_ffo_layer_backward_within_the_alpha_bound(device: str) -> None:
    # batched call: FFO gradients of q exact, of Q within the rank-one O(1/α) bound
    Q, q, G, h, A, b = _layer_inputs(20, device, batch=3)
    insts = [_instance(20 + i) for i in range(3)]
    d = torch.tensor(np.random.default_rng(21).standard_normal((3, 6)), device=device)
    for alpha in (10.0, 1e3):
        x = qt.FFOQPLayer(alpha=alpha)(Q, q, G, h, A, b)
        assert x.shape == (3, 6)
        (x * d).sum().backward()
        assert q.grad is not None
        assert Q.grad is not None
        for i, inst in enumerate(insts):
            exact = oracle_grads(inst, d[i].cpu().numpy())
            np.testing.assert_allclose(q.grad[i].cpu().numpy(), exact["q"], atol=1e-8)
            bound = 1.01 * np.linalg.norm(0.5 * np.outer(exact["q"], exact["q"])) / alpha
            assert np.linalg.norm(Q.grad[i].cpu().numpy() - exact["Q"]) <= bound + 1e-9
        for t in (Q, q, G, h, A, b):
            t.grad = None


def test_unbatched_parameter_gets_the_summed_gradient(device: str) -> None:
    inst = _instance(30)
    Q = torch.tensor(inst.Q, device=device, requires_grad=True)
    q2 = torch.tensor(np.stack([inst.q, inst.q]), device=device)
    rest = [torch.tensor(v, device=device) for v in inst.args()[2:]]
    x = qt.qp_layer(Q, q2, *rest, backward="kkt")
    torch.autograd.backward(x.sum())
    single = ql.kkt_grads(*inst.args(), np.ones(6))
    assert Q.grad is not None
    assert Q.grad.shape == (6, 6)
    np.testing.assert_allclose(Q.grad.cpu().numpy(), 2 * single.Q, atol=1e-9)


def test_layer_bad_input_and_infeasible(device: str) -> None:
    eye = torch.eye(2, dtype=torch.float64, device=device)
    zero = torch.zeros(2, dtype=torch.float64, device=device)
    with pytest.raises(ValueError, match="symmetric positive definite"):
        qt.qp_layer(-eye, zero)
    with pytest.raises(ValueError, match="alpha"):
        qt.FFOQPLayer(alpha=0.0)
    G = torch.tensor([[1.0, 0.0], [-1.0, 0.0]], dtype=torch.float64, device=device)
    h = torch.tensor([0.0, -1.0], dtype=torch.float64, device=device)
    with pytest.raises(ValueError, match="infeasible"):
        qt.qp_layer(eye, zero, G, h)
    with pytest.raises(ValueError, match="finite"):
        qt.qp_layer(eye, torch.tensor([float("nan"), 0.0], dtype=torch.float64, device=device))


def test_polish_repairs_thin_margins_like_the_reference(device: str) -> None:
    """Regression: with an active row at λ* = 1e-6, an inactive row at slack 1e-6 and a weakly
    active row, the batched polish kept the interior point (x off by about 5e-6) on 10 of 20
    such QPs while reporting converged; it now repairs its active-set guess as the reference."""
    from proofs_numeric.qp_layers import thin_instance

    insts = [thin_instance(seed, n=8, m=6, p=1, k=2) for seed in range(8)]
    stacked = [
        np.stack([getattr(i, name) for i in insts]) for name in ("Q", "q", "G", "h", "A", "b")
    ]
    fast = qt.solve_qp(*stacked, device=device)
    for j, inst in enumerate(insts):
        ref = ql.solve_qp(*inst.args())
        np.testing.assert_allclose(fast.x[j].cpu().numpy(), inst.y, atol=1e-10)
        np.testing.assert_allclose(fast.lam[j].cpu().numpy(), ref.lam, atol=1e-9)


# ------------------------------------------------------------- active, iterations, converged
QPArgs = tuple[Any, Any, Any, Any, Any, Any]


def _stacked(insts: list[QPInstance]) -> QPArgs:
    Q, q, G, h, A, b = (
        None if getattr(insts[0], k) is None else np.stack([getattr(i, k) for i in insts])
        for k in ("Q", "q", "G", "h", "A", "b")
    )
    return Q, q, G, h, A, b


def _assert_same_report(ref: ql.QPGrads, fast: qt.QPGradsTorch, device: str) -> None:
    """``active``, ``iterations``, ``converged`` of the torch result are the reference's."""
    assert type(fast.iterations) is int
    assert fast.iterations == ref.iterations
    assert type(fast.converged) is bool
    assert fast.converged == ref.converged
    if ref.active is None:
        assert fast.active is None
        return
    assert isinstance(fast.active, torch.Tensor)
    assert fast.active.dtype == torch.bool
    assert fast.active.device.type == device
    assert tuple(fast.active.shape) == ref.active.shape
    assert np.array_equal(fast.active.cpu().numpy(), ref.active)


_CUTOFF = ql.FFOConfig(dual_cutoff=1e-3)  # the general layer's multiplier threshold
REPORT_PAIRS: tuple[tuple[str, Any, Any, dict[str, Any]], ...] = (
    ("kkt", ql.kkt_grads, qt.kkt_grads, {}),
    ("ffo", ql.ffo_grads, qt.ffo_grads, {"alpha": 100.0}),
    ("ffo_cutoff", ql.ffo_grads, qt.ffo_grads, {"alpha": 100.0, "config": _CUTOFF}),
)


@pytest.mark.parametrize(("name", "ref_fn", "fast_fn", "kw"), REPORT_PAIRS, ids=lambda v: v)
def test_grads_report_the_reference_active_set_and_inner_solver(
    name: str, ref_fn: Any, fast_fn: Any, kw: dict[str, Any], device: str
) -> None:
    """Unbatched and batched, with and without ``G``, float64 and float32: the mask (shape,
    dtype, device, entries) and the inner solver's counters equal the reference's."""
    insts = [_instance(seed, n=6, m=5, p=1, k=2) for seed in range(3)]
    d = np.random.default_rng(7).standard_normal((3, 6))
    for dtype in (torch.float64, torch.float32):
        for j, inst in enumerate(insts):  # unbatched, G and A
            ref = ref_fn(*inst.args(), d[j], **kw)
            fast = fast_fn(*inst.args(), d[j], device=device, dtype=dtype, **kw)
            assert ref.active is not None
            assert 0 < int(ref.active.sum()) < 5  # the instance has both kinds of rows
            _assert_same_report(ref, fast, device)
        ref = ref_fn(*_stacked(insts), d, **kw)  # batched
        fast = fast_fn(*_stacked(insts), d, device=device, dtype=dtype, **kw)
        assert ref.active is not None
        assert ref.active.shape == (3, 5)
        _assert_same_report(ref, fast, device)
        no_g = (insts[0].Q, insts[0].q, None, None, insts[0].A, insts[0].b)  # no G: None
        _assert_same_report(
            ref_fn(*no_g, d[0], **kw),
            fast_fn(*no_g, d[0], device=device, dtype=dtype, **kw),
            device,
        )
        no_g_b = (*_stacked(insts)[:2], None, None, *_stacked(insts)[4:])
        _assert_same_report(
            ref_fn(*no_g_b, d, **kw), fast_fn(*no_g_b, d, device=device, dtype=dtype, **kw), device
        )


def test_weakly_active_rows_in_the_reported_active_set(device: str) -> None:
    """A weakly active row (slack 0, λ* = 0) is in KKT's ``active`` (treated as active) and in
    FFO's frozen set with ``dual_cutoff = 0``, and out of it with ``dual_cutoff = 1e-3`` (as
    is the active row at λ* = 1e-6): a mask of ``λ* > 0`` alone, or one ignoring the cutoff,
    differs from the reference here."""
    from proofs_numeric.qp_layers import thin_instance

    insts = [thin_instance(seed, n=8, m=6, p=1, k=2) for seed in range(3)]
    d = np.random.default_rng(5).standard_normal((3, 8))
    # the weakly active row of each instance: listed active with λ* = 0
    weak = np.stack([i.active & (i.lam == 0.0) for i in insts])
    assert (weak.sum(-1) == 1).all()
    calls = [(inst.args(), d[j], weak[j : j + 1]) for j, inst in enumerate(insts)]
    for args, dd, wk in [*calls, (_stacked(insts), d, weak)]:
        with pytest.warns(ql.DegenerateQPWarning):
            ref = ql.kkt_grads(*args, dd)
        with pytest.warns(ql.DegenerateQPWarning):
            fast = qt.kkt_grads(*args, dd, device=device)
        _assert_same_report(ref, fast, device)
        assert ref.active is not None
        assert np.atleast_2d(ref.active)[wk].all()
        with pytest.warns(ql.DegenerateQPWarning):
            ref = ql.ffo_grads(*args, dd)
        with pytest.warns(ql.DegenerateQPWarning):
            fast = qt.ffo_grads(*args, dd, device=device)
        _assert_same_report(ref, fast, device)
        ref = ql.ffo_grads(*args, dd, config=_CUTOFF)
        fast = qt.ffo_grads(*args, dd, config=_CUTOFF, device=device)
        _assert_same_report(ref, fast, device)
        assert ref.active is not None
        assert not np.atleast_2d(ref.active)[wk].any()


def test_ffo_dual_cutoff_in_the_reported_active_set(device: str) -> None:
    """The thin instances without their weakly active row: the active row at λ* = 1e-6 is in
    the frozen set with ``dual_cutoff = 0`` and out of it with ``dual_cutoff = 1e-3``, with no
    degenerate row to send the element to the reference."""
    from proofs_numeric.qp_layers import THIN_MARGIN, thin_instance

    for seed in range(3):
        inst = thin_instance(seed, n=8, m=6, p=1, k=2)
        assert inst.G is not None
        assert inst.h is not None
        keep = ~(inst.active & (inst.lam == 0.0))
        thin = int(np.flatnonzero((inst.lam == THIN_MARGIN)[keep])[0])
        args = (inst.Q, inst.q, inst.G[keep], inst.h[keep], inst.A, inst.b)
        d = np.random.default_rng(seed).standard_normal(8)
        for config, inside in ((ql.FFOConfig(), True), (_CUTOFF, False)):
            ref = ql.ffo_grads(*args, d, config=config)
            fast = qt.ffo_grads(*args, d, config=config, device=device)
            _assert_same_report(ref, fast, device)
            assert ref.active is not None
            assert bool(ref.active[thin]) is inside


def test_ffo_active_set_after_rank_repair(device: str) -> None:
    """An active row repeated in ``G``: the reference drops one copy from ``C = [G_I; A]`` and
    so does the torch path's ``active`` (a mask read before the repair keeps both)."""
    inst = _instance(11, n=6, m=5, p=1, k=2)
    assert inst.G is not None
    assert inst.h is not None
    row = int(np.flatnonzero(inst.active)[0])
    G = np.vstack([inst.G, inst.G[row]])
    h = np.append(inst.h, inst.h[row])
    d = np.random.default_rng(2).standard_normal(6)
    args = (inst.Q, inst.q, G, h, inst.A, inst.b)
    with warnings.catch_warnings(record=True) as caught:  # the copy left at λ* = 0 warns too
        warnings.simplefilter("always")
        ref = ql.ffo_grads(*args, d)
        assert ql.RankDeficientWarning in [w.category for w in caught]
        caught.clear()
        fast = qt.ffo_grads(*args, d, device=device)
        assert ql.RankDeficientWarning in [w.category for w in caught]
    _assert_same_report(ref, fast, device)
    assert ref.active is not None
    assert int(ref.active[row]) + int(ref.active[-1]) == 1
