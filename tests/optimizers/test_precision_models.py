"""Issue 29 item 9: precision models that can fail.

``optimizers.newton_schulz`` under ``precision="bfloat16"``: our NS5 run in torch bfloat16 passes;
the same code with wrong coefficients (the cubic Newton-Schulz, a typo in ``c``) or one step
fewer fails.  The committed table ``benchmarks/results/rounding_models.md`` is the one the models
give, and no Newton-Schulz bound reaches the scale of the quantity it judges.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from benchmarks.rounding_models import OUT, rows, table
from properties import Capabilities, run_suite
from reference._arrays import FloatArray
from reference.optimizers import NS_COEFFICIENTS

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

BF16 = Capabilities(precision="bfloat16")


def _ns_bf16(
    coefficients: tuple[float, float, float] = NS_COEFFICIENTS, steps: int = 5
) -> Callable[[FloatArray], FloatArray]:
    from reference.optimizers import fast_torch

    def ns(g: FloatArray) -> FloatArray:
        t = torch.from_numpy(np.asarray(g)).to(torch.bfloat16)
        out = fast_torch.newton_schulz(t, steps=steps, coefficients=coefficients)
        return np.asarray(out.float().numpy(), dtype=np.float64)

    return ns


def test_correct_bfloat16_newton_schulz_passes() -> None:
    report = run_suite(_ns_bf16(), "optimizers.newton_schulz", capabilities=BF16)
    assert report.ok, report.format()
    # and the float64 models reject it: the precision declaration is what lets it pass
    strict = run_suite(_ns_bf16(), "optimizers.newton_schulz", profile="smoke")
    assert {"spectral_identity", "transpose"} <= {r.name for r in strict.failed}


@pytest.mark.parametrize(
    ("name", "impl"),
    [
        ("one step fewer", _ns_bf16(steps=4)),
        ("cubic Newton-Schulz (1.5, -0.5, 0)", _ns_bf16((1.5, -0.5, 0.0))),
        ("typo in c (2.2315)", _ns_bf16((3.4445, -4.7750, 2.2315))),
    ],
)
def test_wrong_bfloat16_newton_schulz_fails(name: str, impl: Callable[..., FloatArray]) -> None:
    report = run_suite(impl, "optimizers.newton_schulz", capabilities=BF16)
    assert "spectral_identity" in {r.name for r in report.failed}, (name, report.format())


def test_committed_table_is_current() -> None:
    committed = Path(OUT).read_text(encoding="utf-8").splitlines(keepends=True)
    # write_table adds the machine's environment (and a blank line) under the title: not part of
    # the model, so it is left out of the comparison
    (at,) = [i for i, line in enumerate(committed) if line.startswith("Environment (at write")]
    assert "".join(committed[:at] + committed[at + 2 :]) == table()


def test_no_newton_schulz_bound_is_vacuous() -> None:
    for check, precision, _, bound, scale in rows():
        if check.startswith("newton_schulz."):
            assert bound < scale, (check, precision, bound, scale)
