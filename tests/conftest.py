"""Shared pytest configuration: Hypothesis profile, report header, torch device fixture."""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import pytest

from properties._profiles import load_profile
from tests._gate import gate_limits

pytest_plugins = ["properties.pytest_support"]

PROFILE = load_profile()

# No gate verdict may depend on the machine's speed: the default per-check budget of
# ``run_suite``/``crosscheck`` (properties._runner.DEFAULT_CHECK_BUDGETS) is switched off here and
# in every subprocess the tests start; tests of the budget pass ``check_budget=`` and a counting
# clock explicitly.
os.environ.setdefault("VERIFIEDREF_CHECK_BUDGET", "none")


def pytest_configure(config: pytest.Config) -> None:
    """One torch thread per pytest worker: with xdist on 2 cores, more threads oversubscribe the CPU
    and tiny LAPACK calls spin-wait (seen: a 6 x 6 Cholesky taking 30 ms instead of 2 µs).

    Per-example limits far above any measured example (``tests/_gate.py``, issue 31): the
    gate's verdict never depends on the machine's speed."""
    gate_limits()
    try:
        import torch
    except ModuleNotFoundError:
        return
    torch.set_num_threads(1)


def pytest_report_header(config: pytest.Config) -> list[str]:
    try:
        import torch

        torch_text = f"torch {torch.__version__}, cuda available: {torch.cuda.is_available()}"
    except ModuleNotFoundError:
        torch_text = "torch not installed (fast-path tests skip)"
    return [
        f"verifiedref: hypothesis profile {PROFILE} "
        f"(VERIFIEDREF_HYPOTHESIS_PROFILE={os.environ.get('VERIFIEDREF_HYPOTHESIS_PROFILE')})",
        f"numpy {np.__version__}; {torch_text}",
    ]


def _devices() -> list[object]:
    params: list[object] = ["cpu"]
    try:
        import torch

        has_cuda = torch.cuda.is_available()
    except ModuleNotFoundError:
        has_cuda = False
    params.append(
        pytest.param(
            "cuda",
            marks=[
                pytest.mark.gpu,
                pytest.mark.skipif(not has_cuda, reason="no CUDA device available"),
            ],
        )
    )
    return params


@pytest.fixture(params=_devices())
def device(request: pytest.FixtureRequest) -> Iterator[str]:
    """Torch device for fast-path tests: ``cpu`` always, ``cuda`` (marked gpu) when present.

    TF32 is disabled and deterministic algorithms are requested for the duration.
    """
    torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)
    name = str(request.param)
    old_tf32 = torch.backends.cuda.matmul.allow_tf32
    old_cudnn = torch.backends.cudnn.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    yield name
    torch.backends.cuda.matmul.allow_tf32 = old_tf32
    torch.backends.cudnn.allow_tf32 = old_cudnn
