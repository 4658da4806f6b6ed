"""The agreement part of ``benchmarks/fast_vs_reference.py`` (``--check``) on tiny sizes.

No timing is asserted (a test is never a timer): every row of the table must agree, i.e. the
fast function returns what its reference returns on fresh, equal inputs.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from benchmarks import fast_vs_reference as fvr


def _failures(with_torch: bool) -> list[str]:
    return [
        f"{case.family}.{case.function} ({case.inputs}): {agreed.text}"
        for case, agreed in fvr.check(fvr.TINY, with_torch=with_torch)
        if not agreed.ok
    ]


def test_numpy_rows_agree() -> None:
    rows = fvr.cases(fvr.TINY, with_torch=False)
    names = {(case.family, case.function) for case in rows}
    required = {
        ("games", "ssn"),
        ("games", "hybrid"),
        ("games", "newton_direction"),
        ("tsp", "sweep_decode"),
        ("tsp", "threshold_decode"),
        ("tsp", "sampled_decode"),
        ("tsp", "min_weight_perfect_matching"),
    }
    assert required <= names, required - names
    assert _failures(with_torch=False) == []


def test_torch_rows_agree() -> None:
    pytest.importorskip("torch", exc_type=ModuleNotFoundError)
    torch_rows = [case for case in fvr.cases(fvr.TINY, with_torch=True) if case.torch]
    families = {case.family for case in torch_rows}
    assert families == {
        "activations",
        "divergence",
        "games",
        "hierarchical",
        "inconsistency",
        "mirror_descent",
        "optimizers",
        "qp_layers",
        "spectral",
        "tsp",
    }
    assert _failures(with_torch=True) == []


def test_check_mode_exits_1_on_a_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--check`` exits 0 when every row agrees and 1 as soon as one does not."""
    good = fvr.cases(fvr.TINY, with_torch=False)[2]  # games.newton_direction
    assert good.function == "newton_direction"
    off_by_one = dataclasses.replace(good, fast=lambda *a, **kw: good.fast(*a, **kw) + 1e-6)
    monkeypatch.setattr(fvr, "cases", lambda sizes, with_torch: [good])
    assert fvr.main(["--check"]) == 0
    monkeypatch.setattr(fvr, "cases", lambda sizes, with_torch: [good, off_by_one])
    assert fvr.main(["--check"]) == 1


def test_result_rows_compare_every_field() -> None:
    """A row whose fast path returns the reference's result type fails on any one field."""
    from reference import tsp

    d = np.array(
        [[0.0, 1.0, 2.0, 1.0], [1.0, 0.0, 1.0, 2.0], [2.0, 1.0, 0.0, 1.0], [1.0, 2.0, 1.0, 0.0]]
    )
    want = tsp.two_opt(d, [0, 2, 1, 3])
    agree = fvr._same_fields(1e-12)
    assert agree(want, tsp.two_opt(d, [0, 2, 1, 3])).ok
    changes: tuple[tuple[str, object], ...] = (
        ("iterations", want.iterations + 1),
        ("converged", not want.converged),
        ("length", want.length + 1e-9),
        ("best_delta", want.best_delta - 1e-9),
        ("tour", want.tour[::-1].copy()),
    )
    for name, value in changes:
        bad = dataclasses.replace(want, **{name: value})  # type: ignore[arg-type]
        verdict = agree(want, bad)
        assert not verdict.ok, name
        assert name in verdict.text or "max abs diff 1.0e-09" in verdict.text, verdict.text
    # the batched comparison: one row off in one field fails, the rest equal passes
    rows = fvr._batched_rows(1e-12)
    batch = _Batch(
        tour=np.stack([want.tour, want.tour]),
        length=np.array([want.length, want.length]),
        iterations=np.array([want.iterations, want.iterations]),
        converged=np.array([want.converged, want.converged]),
        best_delta=np.array([want.best_delta, want.best_delta]),
    )
    assert rows([want, want], batch).ok
    off = dataclasses.replace(batch, iterations=np.array([want.iterations, 0]))
    assert not rows([want, want], off).ok


@dataclasses.dataclass(frozen=True)
class _Batch:
    tour: np.ndarray
    length: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray
    best_delta: np.ndarray
