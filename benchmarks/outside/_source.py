"""Load code from a local checkout of a public repository (issue 35).

The official code of several papers is not on PyPI.  ``python -m benchmarks.crosscheck_outside
--source NAME=PATH`` (or the environment variable ``VERIFIEDREF_SOURCE_<NAME>``, upper case,
``-`` as ``_``) names a checkout; the ``official_*`` adapters import from it and nothing of
it is copied into this repository.  Without a checkout the adapters raise
``ModuleNotFoundError`` and the report lists the pair as "no checkout".
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["checkout", "commit_of", "env_name", "load_file", "load_module"]


def env_name(name: str) -> str:
    """``VERIFIEDREF_SOURCE_<NAME>`` for a source name (``IAM`` -> ``VERIFIEDREF_SOURCE_IAM``)."""
    return "VERIFIEDREF_SOURCE_" + name.upper().replace("-", "_")


def checkout(name: str) -> Path:
    """The declared checkout of source ``name``.

    Raises:
        ModuleNotFoundError: no checkout declared, or the path does not exist.
    """
    value = os.environ.get(env_name(name))
    if not value:
        raise ModuleNotFoundError(
            f"no checkout of {name}: pass --source {name}=PATH (or set {env_name(name)})"
        )
    path = Path(value).expanduser().resolve()
    if not path.is_dir():
        raise ModuleNotFoundError(f"checkout of {name}: {path} is not a directory")
    return path


def load_module(name: str, module: str, *, under: str = ".") -> ModuleType:
    """Import ``module`` with ``<checkout of name>/<under>`` first on ``sys.path``."""
    root = str(checkout(name) / under)
    if root not in sys.path:
        sys.path.insert(0, root)
    return importlib.import_module(module)


def load_file(name: str, relative: str, module: str) -> ModuleType:
    """Import the single file ``<checkout of name>/<relative>`` as ``module`` (any extension)."""
    if module in sys.modules:
        return sys.modules[module]
    path = checkout(name) / relative
    if not path.is_file():
        raise ModuleNotFoundError(f"checkout of {name}: no file {relative}")
    loader = importlib.machinery.SourceFileLoader(module, str(path))
    spec = importlib.util.spec_from_loader(module, loader)
    assert spec is not None
    out = importlib.util.module_from_spec(spec)
    sys.modules[module] = out
    loader.exec_module(out)
    return out


def commit_of(path: Path) -> str | None:
    """The commit checked out at ``path`` (``git rev-parse HEAD``), or ``None``."""
    try:
        done = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None
