"""Every failure can be replayed as printed: a known-wrong target fails every suite, and every
snippet the reports print runs in a fresh interpreter up to the target's own error; literals
(NaN, Fraction, large arrays saved beside the report, random generators, torch tensors)
rebuild the recorded arguments exactly."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from properties._registry import all_suites
from properties._runner import run_suite
from properties._snippets import InputStore, format_draw, format_snippet, inputs_at

ROOT = Path(__file__).resolve().parents[1]

WRONG = """\
import os, pickle

def known_wrong(*args, **kwargs):
    raise RuntimeError("known wrong")

def echo(*args, **kwargs):
    with open(os.environ["ECHO_TO"], "wb") as f:
        pickle.dump((args, kwargs), f)

class _Pair:
    def __init__(self, init, update):
        self.init, self.update = init, update

def ascending_sgd(learning_rate=0.1, **_):  # an optax-style factory that ascends (sign error)
    def init(params):
        return {"count": 0}
    def update(grads, state, params=None):
        return [learning_rate * g for g in grads] if isinstance(grads, list | tuple) else (
            learning_rate * grads), {"count": state["count"] + 1}
    return _Pair(init, update)
"""

#: Runs each snippet given on stdin (a JSON list) in a fresh namespace; prints what each raised.
RUNNER = """\
import json, sys, traceback
out = []
for code in json.load(sys.stdin):
    try:
        exec(compile(code, "<snippet>", "exec"), {"__name__": "__main__"})
        out.append("ran")
    except BaseException as exc:
        out.append(f"{type(exc).__name__}: {exc}")
print(json.dumps(out))
"""


def _user_folder(tmp_path: Path) -> Path:
    (tmp_path / "gatewrong.py").write_text(WRONG)
    return tmp_path


def _run_snippets(folder: Path, snippets: list[str], **env: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps(snippets),
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        check=True,
    )
    outcome: list[str] = json.loads(done.stdout.splitlines()[-1])  # after what snippets print
    return outcome


#: Every suite but bad_input and hard_input (they run a registered case named by --like).
SUITES = sorted(n for n in all_suites() if n not in ("bad_input", "hard_input"))
FAMILIES = sorted({n.split(".")[0] for n in SUITES})


@pytest.mark.parametrize("family", FAMILIES)
def test_a_wrong_target_fails_every_suite_and_every_snippet_replays(
    family: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _user_folder(tmp_path)
    monkeypatch.syspath_prepend(str(folder))
    from gatewrong import known_wrong  # type: ignore[import-not-found]

    snippets: list[tuple[str, str, str]] = []
    everything = all_suites()
    suites = {n: everything[n] for n in SUITES if n.split(".")[0] == family}
    with inputs_at(InputStore(folder / "inputs")):
        for name, suite in suites.items():
            report = run_suite(known_wrong, suite, profile="smoke", target="gatewrong:known_wrong")
            failed = [r for r in report.results if r.status == "failed"]
            assert failed, f"{name}: a target that always raises passed every check"
            text = report.format()
            for result in failed:
                assert result.snippet, f"{name}.{result.name}: no re-run snippet"
                assert result.snippet.splitlines()[-1] in text
                snippets.append((name, result.name, result.snippet))
    outcomes = _run_snippets(folder, [s for _, _, s in snippets])
    wrong = [
        f"{suite}.{check}: {outcome}"
        for (suite, check, _), outcome in zip(snippets, outcomes, strict=True)
        if outcome != "RuntimeError: known wrong"
    ]
    assert not wrong, "\n".join(wrong)


def test_a_factory_called_once_is_replayed_before_its_pair(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The suite calls a working factory once, when it adapts the target, before any example:
    every example's snippet must still start from that call (``r0 = impl(...)``), or its
    ``r0.init(...)`` names a value nobody defined."""
    folder = _user_folder(tmp_path)
    monkeypatch.syspath_prepend(str(folder))
    from gatewrong import ascending_sgd

    report = run_suite(
        ascending_sgd, "optimizers.first_order", profile="smoke", target="gatewrong:ascending_sgd"
    )
    failed = [r for r in report.results if r.status == "failed"]
    assert "descent_on_quadratic" in {r.name for r in failed}, report.format()
    snippets = [r.snippet for r in failed]
    assert all(s.splitlines()[4].startswith("r0 = impl(") for s in snippets), snippets
    assert _run_snippets(folder, snippets) == ["ran"] * len(snippets)


def _replayed(folder: Path, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    with inputs_at(InputStore(folder / "inputs")):
        snippet = format_snippet("gatewrong:echo", [(args, kwargs)])
    echo = folder / "echo.pkl"
    assert _run_snippets(folder, [snippet], ECHO_TO=str(echo)) == ["ran"], snippet
    with echo.open("rb") as f:
        return pickle.load(f)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return (
            isinstance(b, np.ndarray)
            and a.dtype == b.dtype
            and a.shape == b.shape
            and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
        )
    if isinstance(a, list | tuple):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float) and np.isnan(a):
        return isinstance(b, float) and bool(np.isnan(b))
    return type(a) is type(b) and bool(a == b)


def test_literals_rebuild_the_arguments_exactly(tmp_path: Path) -> None:
    folder = _user_folder(tmp_path)
    rng = np.random.default_rng(7)
    big = rng.standard_normal((30, 40))
    big[3, 4] = np.nan
    args = (
        np.array([[np.nan, np.inf], [-np.inf, 0.1 + 0.2]]),
        np.array([Fraction(1, 3), Fraction(-2, 7)], dtype=object),
        big,
        [float(x) for x in rng.standard_normal(500)],
        np.float32(1.0) / np.float32(3.0),
        np.zeros((0, 3)),
        (1, "a", None, float("nan")),
    )
    kwargs = {"k": Fraction(5, 9), "ints": np.arange(6, dtype=np.int32).reshape(2, 3)}
    got_args, got_kwargs = _replayed(folder, args, kwargs)
    for a, b in zip(args, got_args, strict=True):
        assert _same(a, b), (a, b)
    assert got_kwargs["k"] == Fraction(5, 9)
    assert _same(kwargs["ints"], got_kwargs["ints"])
    saved = sorted(p.suffix for p in (folder / "inputs").iterdir())
    assert saved == [".json", ".npy"]  # the 1200-entry array and the 500-entry list


def test_a_generator_replays_its_stream(tmp_path: Path) -> None:
    folder = _user_folder(tmp_path)
    rng = np.random.default_rng(11)
    rng.standard_normal(3)  # a state that is not the seed's
    expected = np.random.default_rng(11)
    expected.standard_normal(3)
    (got,), _ = _replayed(folder, (rng,), {})
    assert np.array_equal(got.standard_normal(5), expected.standard_normal(5))


def test_a_torch_tensor_replays_with_its_dtype(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)
    folder = _user_folder(tmp_path)
    tensor = torch.tensor([[1.5, float("nan")]], dtype=torch.float32)
    (got,), _ = _replayed(folder, (tensor,), {})
    assert got.dtype == torch.float32
    assert torch.equal(torch.isnan(got), torch.isnan(tensor))
    assert got[0, 0].item() == 1.5


def test_a_multi_line_draw_is_printed_whole() -> None:
    value = np.arange(12.0).reshape(6, 2) / 7.0
    text = format_draw(3, "gradients", value)
    assert text.startswith("Draw 3 (gradients): array([[")
    assert len(text.splitlines()) == 6
    rebuilt = eval(text.split(": ", 1)[1], {"array": np.array})  # every bit printed
    assert np.array_equal(rebuilt, value)
