"""Official optimizer code from local checkouts (issue 35), for the ``optimizers.*`` suites:
Lion (google/automl ``lion/lion_pytorch.py``, source ``automl``), Muon (KellerJordan/Muon
``muon.py``, source ``Muon``) and S-Adam (RuoranXu/S-Adam, the file ``s_adam``, source
``S-Adam``).  Each name resolves, on first use, to the repository's own class; nothing of it
is copied here (see :mod:`benchmarks.outside._source`).
"""

from __future__ import annotations

from typing import Any

import torch  # noqa: F401  (so that crosscheck recognises the targets as torch optimizers)

from benchmarks.outside._source import load_file

__all__: list[str] = []  # Lion, SingleDeviceMuon, SAdam resolve lazily (module __getattr__)

_FILES = {
    "Lion": ("automl", "lion/lion_pytorch.py", "_official_lion_pytorch"),
    "SingleDeviceMuon": ("Muon", "muon.py", "_official_muon"),
    "SAdam": ("S-Adam", "s_adam", "_official_s_adam"),
}


def __getattr__(name: str) -> Any:
    """The class ``name`` of its checkout (``ModuleNotFoundError`` without one)."""
    if name not in _FILES:
        raise AttributeError(name)
    source, relative, module = _FILES[name]
    return getattr(load_file(source, relative, module), name)
