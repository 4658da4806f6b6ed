"""Import an outside library by name, typed ``Any``: these libraries are optional, mostly
untyped, and not installed in the default gate."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["load"]


def load(module: str) -> Any:
    """``importlib.import_module(module)`` (raises ``ModuleNotFoundError`` when absent)."""
    return importlib.import_module(module)
