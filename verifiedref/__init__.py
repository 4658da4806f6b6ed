"""verifiedref: reference algorithms, conformance suites and numeric theorem checks.

The library lives in three top-level packages, ``reference`` (the algorithms), ``properties``
(the conformance suites) and ``proofs_numeric`` (one numeric check per theorem); this package
holds the distribution's version and the ``verifiedref`` command (``python -m verifiedref``).

>>> import verifiedref
>>> isinstance(verifiedref.__version__, str)
True
"""

from __future__ import annotations

from verifiedref._version import distribution_version

__all__ = ["__version__"]

#: The installed distribution's version (``pip show verifiedref``); in a checkout that is not
#: installed, the version written in its ``pyproject.toml``.
__version__: str = distribution_version()
