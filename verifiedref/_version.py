"""The distribution's version, read from the installed metadata (no import of the library)."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

__all__ = ["distribution_version"]


def distribution_version() -> str:
    """``verifiedref``'s version: the installed metadata, else the checkout's ``pyproject.toml``.

    A checkout used from ``PYTHONPATH`` without being installed has no metadata; its
    ``pyproject.toml`` (one folder above this package) states the version instead.

    >>> distribution_version().count(".") >= 1
    True
    """
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    if pyproject.is_file():  # a checkout: its own pyproject wins over any installed copy
        found = re.search(
            r'^version\s*=\s*"([^"]+)"', pyproject.read_text(encoding="utf-8"), re.MULTILINE
        )
        if found:
            return found.group(1)
    try:
        return metadata.version("verifiedref")
    except metadata.PackageNotFoundError:
        return "unknown"
