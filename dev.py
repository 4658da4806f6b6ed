#!/usr/bin/env python3
"""Set up the environment and run the project's jobs, with nothing but Python >= 3.11.

    python3 dev.py prove   # create .venv, install, run `verifiedref prove --profile quick`
    python3 dev.py test    # create .venv, install, run the gate: ruff, mypy --strict,
                           # lint-imports (import contracts), stubtest, pytest

The environment lives in ``.venv`` (re-used while pyproject.toml is unchanged).  torch is
installed first as the pinned CPU wheel (``torch==2.13.0``) so no CUDA build is ever pulled;
set ``VERIFIEDREF_TORCH=none`` to skip torch (its tests then skip).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
TORCH_PIN = "torch==2.13.0"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


def run(*cmd: str | Path) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], cwd=ROOT, check=True)


def ensure_env() -> None:
    if sys.version_info < (3, 11):
        sys.exit(f"dev.py: Python >= 3.11 is required, this is {sys.version.split()[0]}")
    torch = os.environ.get("VERIFIEDREF_TORCH", TORCH_PIN)
    stamp_text = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + torch.encode()).hexdigest()
    stamp = VENV / ".verifiedref-stamp"
    if stamp.exists() and stamp.read_text() == stamp_text:
        return
    if not (BIN / "python").exists():
        run(sys.executable, "-m", "venv", VENV)
    py = BIN / "python"
    run(py, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    extras = "plot,dev"
    if torch != "none":
        run(py, "-m", "pip", "install", "--quiet", torch)
        extras = "torch," + extras
    run(py, "-m", "pip", "install", "--quiet", "-e", f".[{extras}]")
    stamp.write_text(stamp_text)


def prove(extra: list[str]) -> None:
    run(BIN / "verifiedref", "prove", "--profile", "quick", *extra)


def test(extra: list[str]) -> None:
    folders = ["reference", "properties", "proofs_numeric", "tests", "benchmarks"]
    run(BIN / "ruff", "check", *folders, "dev.py")
    run(BIN / "mypy")
    run(BIN / "lint-imports")  # import contracts: [tool.importlinter] in pyproject.toml
    run(
        BIN / "python",
        "-m",
        "mypy.stubtest",
        "sympy",
        "--mypy-config-file",
        "pyproject.toml",
        "--ignore-missing-stub",
    )
    workers = os.environ.get("VERIFIEDREF_WORKERS", "auto")
    run(BIN / "python", "-m", "pytest", "-m", "not gpu and not slow", "-n", workers, "-q", *extra)


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in ("prove", "test", "setup"):
        sys.exit("usage: python3 dev.py {prove|test|setup} [extra arguments]")
    start = time.perf_counter()
    ensure_env()
    command, extra = sys.argv[1], sys.argv[2:]
    try:
        if command == "prove":
            prove(extra)
        elif command == "test":
            test(extra)
    except subprocess.CalledProcessError as exc:
        print(f"dev.py {command}: FAILED ({time.perf_counter() - start:.0f}s)", flush=True)
        sys.exit(exc.returncode or 1)
    print(f"dev.py {command}: OK ({time.perf_counter() - start:.0f}s)", flush=True)


if __name__ == "__main__":
    main()
