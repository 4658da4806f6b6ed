"""Benchmark hygiene (issue 20): every benchmark pins BLAS threads and records the kernel."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import _env

# Tools under benchmarks/ that run no numerics and write no timed table.
NOT_TIMED = {"count_object_params.py": "counts annotations of the public API"}

BENCHMARKS = sorted(
    p
    for p in (Path(__file__).resolve().parent.parent / "benchmarks").glob("*.py")
    if p.name not in ("__init__.py", "_env.py", *NOT_TIMED)
)


def _imports_env(tree: ast.Module) -> set[str]:
    return {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "benchmarks._env"
        for alias in node.names
    }


def _called(tree: ast.Module, name: str) -> bool:
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
        for node in ast.walk(tree)
    )


@pytest.mark.parametrize("path", BENCHMARKS, ids=[p.stem for p in BENCHMARKS])
def test_every_benchmark_pins_blas(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert "pin_blas" in _imports_env(tree), (
        f"{path.name}: no `from benchmarks._env import pin_blas`"
    )
    assert _called(tree, "pin_blas"), f"{path.name}: pin_blas is imported but never called"


@pytest.mark.parametrize("path", BENCHMARKS, ids=[p.stem for p in BENCHMARKS])
def test_markdown_tables_record_the_environment(path: Path) -> None:
    """A module writing a ``.md`` table writes it through write_table or environment_line."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    if ".md" not in text:
        pytest.skip(f"{path.name} writes no markdown table")
    names = _imports_env(tree)
    writers = ("write_table", "environment_line", "environment_table")
    assert names & set(writers), path.name
    assert any(_called(tree, name) for name in writers), path.name


def test_write_table_puts_the_environment_under_the_title(tmp_path: Path) -> None:
    out = tmp_path / "t.md"
    _env.write_table(out, "# Title\n\n| a |\n|---|\n| 1 |\n")
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# Title"
    assert lines[2].startswith("Environment")
    assert "OPENBLAS_CORETYPE=" in lines[2]
    assert "load average" in lines[2]
    assert "cores" in lines[2]
    assert lines[-1] == "| 1 |"
    untitled = tmp_path / "u.md"
    _env.write_table(untitled, "| a |\n")
    assert untitled.read_text(encoding="utf-8").splitlines()[0].startswith("Environment")


def test_pin_blas_limits_every_blas_to_the_count() -> None:
    threadpoolctl = pytest.importorskip("threadpoolctl")
    summary = _env.pin_blas(1)
    try:
        infos = [d for d in threadpoolctl.threadpool_info() if d.get("user_api") == "blas"]
        assert infos, "no BLAS loaded after importing numpy and scipy.linalg"
        assert all(d["num_threads"] == 1 for d in infos), infos
        assert "kernel" in summary
        assert "1 thread(s)" in summary
    finally:
        _env._LIMITER.pop().restore_original_limits()


def _summary_in_subprocess(env: dict[str, str]) -> str:
    code = (
        "import benchmarks, numpy, scipy.linalg, os\n"
        "from benchmarks._env import blas_summary\n"
        "print(os.environ.get('OPENBLAS_CORETYPE', 'absent'))\n"
        "print(blas_summary())\n"
    )
    root = Path(__file__).resolve().parent.parent
    full = {**os.environ, **env, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=full, capture_output=True, text=True, check=True, cwd=root
    )
    return out.stdout


def test_forced_kernel_is_removed_before_numpy_loads_unless_kept() -> None:
    """``OPENBLAS_CORETYPE`` is dropped (native kernel) and the summary says so; with
    ``BENCH_KEEP_CORETYPE=1`` it stays and the summary names it."""
    pytest.importorskip("threadpoolctl")
    removed = _summary_in_subprocess({"OPENBLAS_CORETYPE": "Haswell", "BENCH_KEEP_CORETYPE": ""})
    env_line, summary = removed.splitlines()[:2]
    assert env_line == "absent"
    assert "Haswell removed before numpy loaded" in summary
    kept = _summary_in_subprocess({"OPENBLAS_CORETYPE": "Haswell", "BENCH_KEEP_CORETYPE": "1"})
    env_line, summary = kept.splitlines()[:2]
    assert env_line == "Haswell"
    assert "OPENBLAS_CORETYPE=Haswell" in summary
    assert "kernel Haswell" in summary, "OpenBLAS did not take the forced kernel"
