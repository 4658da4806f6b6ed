"""The shared output adapters: conversion, failure messages and the user's name kept."""

from __future__ import annotations

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
