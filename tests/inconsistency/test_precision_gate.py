"""Issue 29 item 9 for ``inconsistency``: in bfloat16 the ``64·u`` models (0.25 relative) still
judge, so a state rounded to bfloat16 passes ``feasible`` and a radius 1.5 times too long fails
it; the ``256·u`` and ``1024·u`` models (1 and 4: vacuous) skip their checks saying why."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from properties import Capabilities, run_suite
from properties.inconsistency import IAM_DE
from reference import inconsistency as inc

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

BF16 = Capabilities(precision="bfloat16")


def _iam_de(factor: float) -> Any:
    def step(*args: Any, **kwargs: Any) -> Any:
        out = inc.iam_de_step(*args, **kwargs)
        delta = torch.from_numpy(np.asarray(out.next_delta, dtype=np.float64) * factor)
        return out.theta, delta.to(torch.bfloat16).double().numpy()

    return step


def test_bfloat16_correct_passes_wrong_fails_vacuous_skipped() -> None:
    good = run_suite(_iam_de(1.0), IAM_DE, profile="smoke", capabilities=BF16)
    status = {r.name: (r.status, r.message) for r in good.results}
    assert status["feasible"][0] == "passed", good.format()
    assert not good.failed, good.format()
    bad = run_suite(_iam_de(1.5), IAM_DE, profile="smoke", capabilities=BF16)
    assert "feasible" in {r.name for r in bad.failed}, bad.format()
    for r in good.results:
        if "cannot judge" in r.message:
            assert r.status == "skipped", r.message
            assert "--precision bfloat16" in r.message, r.message
