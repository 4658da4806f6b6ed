"""optimizers.sam: SAM composed from our reference pieces and pytorch_optimizer.SAM pass;
mutants fail by measured violations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from properties import run_suite
from properties.optimizers import SAM
from reference import inconsistency as inc
from reference.optimizers.base import Optimizer
from tests._mutants import assert_measured_kill


def _sam_like(
    *,
    normalise: bool = True,
    restore: bool = True,
    adaptive: bool = False,
    norm_eps: float = inc.NORM_EPS,
    descent: bool = False,
    base_at_w: bool = False,
) -> Callable[..., Optimizer[Any, Any]]:
    """SAM around SGD from ``reference.inconsistency`` (``sam_perturbation``, ``sgd_step``),
    with one switch flipped for a mutant (the defaults are the reference)."""

    def factory(
        *,
        rho: float = 0.05,
        learning_rate: float = 0.1,
        momentum: float = 0.0,
        weight_decay: float = 0.0,
    ) -> Optimizer[Any, Any]:
        config = inc.SGDConfig(
            learning_rate=learning_rate, momentum=momentum, weight_decay=weight_decay
        )

        def init(params: Any) -> Any:
            return np.zeros_like(np.asarray(params, dtype=np.float64))

        def update(grad_fn: Any, state: Any, params: Any) -> tuple[Any, Any]:
            w = np.asarray(params, dtype=np.float64)
            g = np.asarray(grad_fn(w))
            if not normalise:  # mutant: e = rho g (no division by ||g||)
                e = rho * g
            elif norm_eps == 0.0:  # mutant: 0/0 at g = 0
                with np.errstate(invalid="ignore", divide="ignore"):
                    e = rho * g / np.linalg.norm(g)
            else:
                e = inc.sam_perturbation(w, g, rho=rho, adaptive=adaptive, shift=0.01)
            if descent:  # mutant: w - e (descent instead of ascent)
                e = -e
            g2 = np.asarray(grad_fn(w + e))
            if base_at_w:  # mutant: base step with the gradient at w
                g2 = g
            start = w if restore else w + e  # mutant: weights not restored
            new, buffer = inc.sgd_step(start, g2, state, config=config)
            return new - w, buffer

        return Optimizer(init=init, update=update)

    return factory


MUTANTS: list[tuple[str, Callable[..., Any], set[str]]] = [
    ("unnormalised", _sam_like(normalise=False), {"radius", "closed_form", "scale_invariance"}),
    ("not_restored", _sam_like(restore=False), {"closed_form", "restores_weights"}),
    ("asam_as_sam", _sam_like(adaptive=True), {"radius", "rotation_equivariance"}),
    ("no_norm_eps", _sam_like(norm_eps=0.0), {"zero_gradient"}),
    ("descent", _sam_like(descent=True), {"radius", "closed_form"}),
    ("base_at_w", _sam_like(base_at_w=True), {"closed_form", "restores_weights"}),
]


def test_reference_composition_passes() -> None:
    report = run_suite(_sam_like(), SAM, profile="smoke")
    assert report.ok, report.format()


@pytest.mark.parametrize(("name", "mutant", "expected"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_mutant_fails(name: str, mutant: Callable[..., Any], expected: set[str]) -> None:
    report = run_suite(mutant, SAM, profile="smoke")
    failed = {r.name for r in report.failed}
    assert expected <= failed, report.format()
    for result in report.failed:
        assert_measured_kill(result)


def test_every_check_is_killed() -> None:
    killed = set().union(*(expected for _, _, expected in MUTANTS))
    assert killed >= set(SAM.check_names()) - {"rho_zero_is_base"}


def test_pytorch_optimizer_sam_directly() -> None:
    """pytorch_optimizer.SAM (davda54 style) passes when declared float32: it takes the
    gradient norm in float32 (``.float()`` in ``get_global_gradient_norm``) even for float64
    parameters, so float64 tolerances see a 2e-8 relative radius error."""
    pytest.importorskip("torch")
    psam = pytest.importorskip("pytorch_optimizer").SAM
    from properties import Capabilities

    as_float32 = run_suite(
        psam, SAM, capabilities=Capabilities(precision="float32"), profile="smoke"
    )
    assert as_float32.ok, as_float32.format()
    as_float64 = run_suite(psam, SAM, profile="smoke")
    assert "radius" in {r.name for r in as_float64.failed}, as_float64.format()
