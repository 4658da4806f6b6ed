"""Optional packages: which extra of ``verifiedref`` installs a module a target needs."""

from __future__ import annotations

__all__ = ["EXTRA_OF", "MissingPackage", "install_hint"]

#: Top-level module -> the ``verifiedref`` extra that installs it (pyproject.toml).
EXTRA_OF = {
    "torch": "torch",
    "matplotlib": "plot",
    "numba": "fast",
    "dask": "dask",
    "distributed": "dask",
    "pyspiel": "openspiel",
    "open_spiel": "openspiel",
    "networkx": "crosscheck",
    "nashpy": "crosscheck",
    "cvxopt": "crosscheck",
    "ecos": "crosscheck",
    "cvxpy": "crosscheck",
    "cvxpylayers": "crosscheck",
    "elkai": "crosscheck",
    "threadpoolctl": "dev",
}


class MissingPackage(Exception):
    """A check could not judge the target: the target (or the check) needs an absent module."""

    def __init__(self, module: str) -> None:
        super().__init__(module)
        self.module = module

    def __str__(self) -> str:
        return f"needs the optional package {self.module} ({install_hint(self.module)})"


def install_hint(module: str) -> str:
    """How to install ``module``: the extra naming it, else pip.

    >>> install_hint("networkx")
    "pip install 'verifiedref[crosscheck]'"
    >>> install_hint("somethingelse")
    'pip install somethingelse'
    """
    top = module.split(".")[0]
    extra = EXTRA_OF.get(top)
    return f"pip install 'verifiedref[{extra}]'" if extra else f"pip install {top}"
