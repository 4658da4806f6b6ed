"""The shared output adapters: conversion, failure messages and the user's name kept."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

from properties import CheckFailure
from properties._runner import describe_target
from properties.adapters import adapt_output, array_pair, as_game_solver, to_scalar


def _user_solver(payoff: np.ndarray) -> dict[str, list[float]]:
    m, n = payoff.shape
    return {"x": [1.0] + [0.0] * (m - 1), "y": [1.0] + [0.0] * (n - 1)}


def test_adapt_output_converts_and_names_the_user_callable() -> None:
    adapted = adapt_output(_user_solver, lambda r: array_pair(r, ("x", "y"), source="solver"))
    x, y = adapted(np.zeros((2, 3)))
    assert x.tolist() == [1.0, 0.0]
    assert y.dtype == np.float64
    assert y.shape == (3,)
    assert describe_target(adapted) == f"{__name__}:_user_solver"
    assert describe_target(as_game_solver(_user_solver)) == f"{__name__}:_user_solver"


def test_array_pair_reads_tuples_objects_and_mappings() -> None:
    class Result:
        W = np.eye(2)
        v = np.ones(2)

    for result in ((np.eye(2), np.ones(2)), Result(), {"W": np.eye(2), "v": [1, 1]}):
        w, v = array_pair(result, ("W", "v"), source="learner")
        assert w.tolist() == [[1.0, 0.0], [0.0, 1.0]]
        assert v.tolist() == [1.0, 1.0]
    with pytest.raises(CheckFailure, match=r"learner output: measured str"):
        array_pair("W", ("W", "v"), source="learner")


def test_to_scalar_rejects_vectors() -> None:
    assert to_scalar(np.float32(1.5), what="f") == 1.5
    with pytest.raises(CheckFailure, match=r"f: measured \(2,\), allowed a scalar"):
        to_scalar(np.ones(2), what="f")


def test_torch_module_targets_for_layer_suites() -> None:
    """An ``nn.Module`` class is a target of qp_layers.solver (primal_only) like a callable."""
    torch = pytest.importorskip("torch")
    from properties import Capabilities, all_suites, run_suite
    from properties.adapters import TorchModuleCall, as_torch_module, is_torch_module
    from reference import qp_layers

    class ReferenceQPLayer(torch.nn.Module):  # type: ignore[misc,name-defined]
        def forward(self, *blocks: Any) -> Any:
            arrays: list[Any] = [None if b is None else b.numpy() for b in blocks]
            return torch.as_tensor(qp_layers.solve_qp(*arrays).x.copy())

    class ShiftedQPLayer(ReferenceQPLayer):
        def forward(self, *blocks: Any) -> Any:
            return super().forward(*blocks) + 1e-3

    assert is_torch_module(ReferenceQPLayer)
    assert is_torch_module(ReferenceQPLayer())
    declaring = {
        name
        for name, suite in all_suites().items()
        if any(note.startswith("torch: a torch.nn.Module") for note in suite.notes)
    }
    assert declaring == {"qp_layers.solver", "activations.rational"}
    caps = Capabilities(primal_only=True)
    good = run_suite(ReferenceQPLayer, "qp_layers.solver", capabilities=caps, profile="smoke")
    assert good.ok, good.format()
    bad = run_suite(ShiftedQPLayer, "qp_layers.solver", capabilities=caps, profile="smoke")
    assert "matches_planted_solution" in {r.name for r in bad.failed}
    with pytest.raises(ValueError, match="build/forward"):
        TorchModuleCall(arguments=("A",), build=("B",), forward=("A",), returns="x")
    shifted = as_torch_module(
        ShiftedQPLayer,
        TorchModuleCall(arguments=("Q", "q"), build=(), forward=("Q", "q"), returns="x"),
    )
    assert list(inspect.signature(shifted).parameters) == ["Q", "q"]
