"""Result objects print a summary, not every array in full (issue 28, item 9)."""

from __future__ import annotations

import ast
import pathlib
import sys
from dataclasses import dataclass

import numpy as np
import pytest

from reference._repr import summarize, summary_repr
from reference.divergence import ArmijoConfig, estimate_alpha_divergence
from reference.games import hybrid

_REFERENCE = pathlib.Path(__file__).resolve().parents[1] / "reference"


def test_hybrid_result_prints_a_summary_and_keeps_the_arrays() -> None:
    rng = np.random.default_rng(3)
    result = hybrid(rng.standard_normal((100, 200)))
    text = repr(result)
    lines = text.splitlines()
    # one line per field plus the two brackets; the full printout was ~200 lines
    assert len(lines) <= 25, text
    assert max(len(line) for line in lines) <= 130, text
    assert f"converged={result.converged!r}" in text
    assert f"stop_reason={result.stop_reason!r}" in text
    assert "shape=(100,)" in text
    assert "shape=(200,)" in text
    assert str(result) == text
    # the attributes are the full arrays, not the abbreviation
    assert result.x.shape == (100,)
    assert result.y.shape == (200,)
    assert np.isclose(result.x.sum(), 1.0)
    assert np.isclose(result.y.sum(), 1.0)


def test_divergence_estimate_prints_a_summary() -> None:
    rng = np.random.default_rng(4)
    x = rng.standard_normal((200, 2))
    y = rng.standard_normal((200, 2)) + 0.5
    est = estimate_alpha_divergence(
        x, y, 0.5, rng=rng, num_features=64, config=ArmijoConfig(max_iter=200)
    )
    text = repr(est)
    assert len(text.splitlines()) <= 30, text
    assert "converged=" in text
    assert "shape=(64, 2)" in text  # the feature frequencies, by shape only
    assert est.features.omegas.shape == (64, 2)
    assert est.fit.values.shape[0] == est.fit.iterations + 1


def test_small_arrays_print_in_full_and_large_ones_abbreviated() -> None:
    assert summarize(np.array([1.0, 2.0])) == "array([1., 2.])"
    long = summarize(np.arange(1000.0))
    assert long.startswith("array([")
    assert "..." in long
    assert "shape=(1000,)" in long
    assert "999." in long  # the last entries are kept
    assert summarize(np.zeros((3, 4), dtype=np.int64)) == "array(shape=(3, 4), dtype=int64)"
    assert summarize(np.float64(0.5)) == "0.5"
    assert summarize(list(range(100))) == "<list of 100 int>"
    assert summarize((1, 2)) == "(1, 2)"


def test_numpy_print_everything_prints_every_entry() -> None:
    """Failure reports print draws under ``threshold=sys.maxsize``: a result drawn as an input
    must then show every entry, not the abbreviation."""

    @summary_repr
    @dataclass(frozen=True)
    class Holder:
        x: np.ndarray
        counts: list[int]

    value = Holder(x=np.arange(50.0), counts=list(range(30)))
    assert "..." in repr(value)
    with np.printoptions(threshold=sys.maxsize):
        text = repr(value)
    assert "..." not in text
    assert "49." in text
    assert "25." in text
    assert "29]" in text


def test_summary_repr_rejects_a_class_that_is_not_a_dataclass() -> None:
    class Plain:
        pass

    with pytest.raises(TypeError, match="dataclass"):
        summary_repr(Plain)


def test_summary_repr_leaves_equality_and_fields_alone() -> None:
    @summary_repr
    @dataclass(frozen=True)
    class Pair:
        a: int
        b: float

    assert Pair(1, 2.0) == Pair(1, 2.0)
    assert repr(Pair(1, 2.0)) == "Pair(\n    a=1,\n    b=2.0,\n)"


def _decorator_names(node: ast.ClassDef) -> list[str]:
    names = []
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if isinstance(target, ast.Name):
            names.append(target.id)
    return names


def _holds_arrays(node: ast.ClassDef) -> bool:
    for dec in node.decorator_list:
        if isinstance(dec, ast.Call) and getattr(dec.func, "id", "") == "dataclass":
            for kw in dec.keywords:
                if (
                    kw.arg == "eq"
                    and isinstance(kw.value, ast.Constant)
                    and kw.value.value is False
                ):
                    return True
    return False


def test_every_public_array_dataclass_uses_the_summary_repr() -> None:
    missing = []
    for path in sorted(_REFERENCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.ClassDef)
                and not node.name.startswith("_")
                and _holds_arrays(node)
                and "summary_repr" not in _decorator_names(node)
            ):
                missing.append(f"{path.relative_to(_REFERENCE.parent)}:{node.name}")
    assert not missing, missing
