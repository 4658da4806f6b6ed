"""Issue 36 item 3, Muon: ``optimizers.muon`` pins the recursion of one declared variant.

The four older checks (spectral ball, first-step band, equivariance, scale invariance) pass Muon
with any momentum rule, either orthogonaliser and any step scale.  ``matches_recursion`` compares
every step's direction with the declared variant's (twelve: momentum x combination x scale).
The implementations here are written from the formulas (NS5 as the matrix iteration of
KellerJordan/Muon, in float64), not from the check's oracle (SVD and scalar map).

``C_NS5_STEP`` (128), the bound per entry of a step's direction in units of ``u``, was measured
by drawing 200 instances of the check (Hypothesis, derandomized), running torch.optim.Muon and
KellerJordan/Muon's SingleDeviceMuon (a checkout outside the repository) on each, and taking the
largest ``(|O_t(impl) - O_t(nesterov)| - guard - bookkeeping) / u`` with ``u = 2^-8``: 28.7 and
78.9 (medians 6.0 and 11.8).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from properties import Capabilities, SuiteReport, run_suite
from properties.optimizers import MUON, MUON_VARIANTS
from reference import optimizers as ref
from reference.optimizers.base import Optimizer

_OTHERS = ("stays_in_ball", "first_step_band", "orthogonal_equivariance", "scale_invariance")
_ABC = (3.4445, -4.7750, 2.0315)


def _ns5(g: Any) -> Any:
    """KellerJordan/Muon's iteration, float64: normalise, five quintic steps on ``X X^T``."""
    x = np.asarray(g, dtype=np.float64)
    tall = x.shape[0] > x.shape[1]
    x = x.T if tall else x
    x = x / (float(np.linalg.norm(x)) + 1e-7)
    a, b, c = _ABC
    for _ in range(5):
        gram = x @ x.T
        x = a * x + (b * gram + c * gram @ gram) @ x
    return x.T if tall else x


def _polar(g: Any) -> Any:
    p, _, qt = np.linalg.svd(np.asarray(g, dtype=np.float64), full_matrices=False)
    return p @ qt


def muon_like(variant: str, *, sum_form: bool = False) -> Callable[..., Optimizer[Any, Any]]:
    """A numpy Muon of ``variant`` (``sum_form``: ``B <- mu B + G``, ``U = G + mu B``)."""
    nesterov = variant.startswith("nesterov")
    orth = _polar if "_polar" in variant else _ns5
    first = "_ortho_first" in variant

    def factory(
        *, learning_rate: float = 0.02, weight_decay: float = 0.0, momentum: float = 0.95
    ) -> Optimizer[Any, Any]:
        eta, lam, mu = learning_rate, weight_decay, momentum

        def init(params: Any) -> Any:
            return np.zeros_like(np.asarray(params, dtype=np.float64))

        def update(grads: Any, state: Any, params: Any = None) -> tuple[Any, Any]:
            g = np.asarray(grads, dtype=np.float64)
            w = np.asarray(params, dtype=np.float64)
            m, n = w.shape
            if first:
                og = orth(g)
                buf = mu * state + (1 - mu) * og
                o = (1 - mu) * og + mu * buf if nesterov else buf
            elif sum_form:
                buf = mu * state + g
                o = orth(g + mu * buf if nesterov else buf)
            else:
                buf = mu * state + (1 - mu) * g
                o = orth((1 - mu) * g + mu * buf if nesterov else buf)
            s = 0.2 * math.sqrt(max(m, n)) if variant.endswith("_rms") else math.sqrt(max(1, m / n))
            return -eta * lam * w - eta * s * o, buf

        return Optimizer(init=init, update=update)

    factory.__name__ = f"muon_{variant}"
    return factory


def _report(impl: Any, variant: str, precision: str = "float64") -> SuiteReport:
    caps = Capabilities(variant=variant, precision=precision)
    report = run_suite(impl, MUON, capabilities=caps, skip=_OTHERS, profile="smoke")
    (result,) = [r for r in report.results if r.name == "matches_recursion"]
    assert result.status in ("passed", "failed"), result.message  # it ran, not skipped
    return report


def _parts(variant: str) -> tuple[str, str, str]:
    """``(momentum, combination, scale)`` of a variant name."""
    momentum = "heavy_ball" if variant.startswith("heavy_ball") else "nesterov"
    combination = next((c for c in ("_ortho_first", "_polar") if c in variant), "")
    return momentum, combination, "_rms" if variant.endswith("_rms") else ""


def _neighbours(variant: str) -> list[str]:
    """The four variants that differ from ``variant`` in exactly one part."""
    mine = _parts(variant)
    return [
        v for v in MUON_VARIANTS if sum(a != b for a, b in zip(_parts(v), mine, strict=True)) == 1
    ]


def test_twelve_variants_named_by_their_parts() -> None:
    assert next(iter(MUON_VARIANTS)) == "nesterov"  # the reference's default
    assert sorted(MUON_VARIANTS) == sorted("".join(_parts(v)) for v in MUON_VARIANTS)
    assert len({_parts(v) for v in MUON_VARIANTS}) == 12
    assert all(len(_neighbours(v)) == 4 for v in MUON_VARIANTS)


@pytest.mark.parametrize("variant", list(MUON_VARIANTS))
def test_each_variant_passes_its_own_and_fails_its_neighbours(variant: str) -> None:
    impl = muon_like(variant)
    report = _report(impl, variant)
    assert report.ok, report.format()
    for other in _neighbours(variant):
        failed = _report(impl, other).failed
        assert "matches_recursion" in {r.name for r in failed}, (variant, other)


def test_the_reference_declares_three_variants() -> None:
    assert _report(ref.muon, "nesterov").ok

    def heavy(**hyper: Any) -> Any:
        return ref.muon(nesterov=False, **hyper)

    def exact(**hyper: Any) -> Any:
        return ref.muon(exact_polar=True, **hyper)

    assert _report(heavy, "heavy_ball").ok
    assert _report(exact, "nesterov_polar").ok
    assert not _report(heavy, "nesterov").ok


def test_the_older_sum_form_is_the_same_variant() -> None:
    """``B <- mu B + G``, ``U = G + mu B`` (spec 14 §3.2): the direction times ``1/(1 - mu)``."""
    assert _report(muon_like("nesterov", sum_form=True), "nesterov").ok
    assert _report(muon_like("heavy_ball", sum_form=True), "heavy_ball").ok


def test_a_failure_names_the_fitting_variant() -> None:
    text = _report(muon_like("heavy_ball_rms"), "nesterov").format()
    assert "--variant heavy_ball_rms" in text


def test_torch_muon_is_nesterov_in_bfloat16() -> None:
    """torch.optim.Muon passes as ``nesterov`` (``adjust_lr_fn="match_rms_adamw"`` as
    ``nesterov_rms``) at its declared precision, bfloat16, and fails the other scale and
    heavy ball there too."""
    torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)
    muon = getattr(torch.optim, "Muon", None)
    if muon is None:
        pytest.skip("this torch has no torch.optim.Muon")

    def rms(
        params: Any, lr: float = 1e-3, weight_decay: float = 0.1, momentum: float = 0.95
    ) -> Any:
        return muon(
            params,
            lr=lr,
            weight_decay=weight_decay,
            momentum=momentum,
            adjust_lr_fn="match_rms_adamw",
        )

    assert _report(muon, "nesterov", "bfloat16").ok
    assert _report(rms, "nesterov_rms", "bfloat16").ok
    assert not _report(rms, "nesterov", "bfloat16").ok
    assert not _report(muon, "nesterov_rms", "bfloat16").ok
