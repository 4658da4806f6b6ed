"""The ``verifiedref`` console script: make sure the library is the one installed, then run it.

Three top-level packages make up the library: ``reference``, ``properties`` and
``proofs_numeric``.  Their names are generic, so a user's own ``properties.py`` or
``reference/`` folder could be imported in their place.  Before anything of the library is
imported, :func:`main` checks that each of the three resolves to the folder this package was
installed in (true of a wheel, an editable install and a checkout on ``PYTHONPATH``) and
otherwise stops with exit code 2, naming the file that would have been used.  Then the current
folder is put at the *end* of ``sys.path``, so that ``mypkg.solvers:my_solver`` is found in the
user's project while the library's own packages keep precedence.  Hypothesis' caches go to the
user's cache folder (``$XDG_CACHE_HOME/verifiedref/hypothesis``), not to ``./.hypothesis``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["LIBRARY_PACKAGES", "find_shadowing", "main"]

#: The library's top-level packages, installed beside this one.
LIBRARY_PACKAGES = ("reference", "properties", "proofs_numeric")


def _home() -> Path:
    """The folder holding ``verifiedref/`` and, beside it, the library's packages."""
    return Path(__file__).resolve().parent.parent


def _location(name: str) -> Path | None:
    """Where ``import name`` would load from (a file or a package's folder), without importing."""
    module = sys.modules.get(name)
    if module is not None:
        file = getattr(module, "__file__", None)
        if file:
            return Path(file).resolve()
        paths = list(getattr(module, "__path__", []))
        return Path(paths[0]).resolve() if paths else None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.origin and spec.origin not in ("namespace", "built-in", "frozen"):
        return Path(spec.origin).resolve()
    locations = list(spec.submodule_search_locations or [])
    return Path(locations[0]).resolve() if locations else None


def find_shadowing() -> str:
    """One line describing a library package that would not load from the library; ``""`` if none.

    >>> find_shadowing()
    ''
    """
    home = _home()
    for name in LIBRARY_PACKAGES:
        where = _location(name)
        expected = home / name / "__init__.py"
        if where is None:
            return (
                f"verifiedref: the library's package {name!r} cannot be found (expected "
                f"{expected}); reinstall verifiedref"
            )
        if where not in (expected, expected.parent):
            return (
                f"verifiedref: {where} shadows the library's package {name!r} (expected "
                f"{expected}); rename your {where.name} or remove its folder from PYTHONPATH"
            )
    return ""


def _user_folder_last(*, from_module: bool) -> None:
    """Put the current folder at the end of ``sys.path``, moving the entry ``python -m`` adds."""
    cwd = Path.cwd().resolve()
    if cwd == _home():
        return  # the library's own checkout: its packages are in this folder
    if from_module and sys.path and Path(sys.path[0] or os.curdir).resolve() == cwd:
        sys.path.pop(0)
    if not any(Path(p or os.curdir).resolve() == cwd for p in sys.path):
        sys.path.append(str(cwd))


def main(argv: Sequence[str] | None = None, *, from_module: bool = False) -> int:
    """Run the ``verifiedref`` command line; returns its exit code.

    ``from_module`` is true for ``python -m verifiedref``, where Python has put the current
    folder first on ``sys.path``: it is moved to the end before the shadowing check.
    """
    _user_folder_last(from_module=from_module)
    # Hypothesis keeps caches under ./.hypothesis unless told otherwise: not in the user's folder
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(cache / "verifiedref" / "hypothesis"))
    problem = find_shadowing()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    from properties._cli import main as cli_main

    try:
        return cli_main(argv)
    except BrokenPipeError:  # `verifiedref list | head`: the reader left; say nothing more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
