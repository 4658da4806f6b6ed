"""optimizers.adam: our Adam/AdamW and torch.optim pass in their variants; mutants fail."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from properties import Capabilities, run_suite
from properties.optimizers import ADAM
from reference import optimizers as ref
from reference.optimizers.base import Optimizer
from tests._mutants import assert_measured_kill


def _adam_like(
    *,
    bias_correction: bool = True,
    eps_inside_root: bool = False,
    coupled_decay: bool = False,
    b1_for_v: bool = False,
) -> Callable[..., Optimizer[Any, Any]]:
    """An Adam written here with one switch flipped (the defaults give correct AdamW)."""

    def factory(
        *,
        learning_rate: float = 1e-3,
        b1: float = 0.9,
        b2: float = 0.999,
        eps: float = 1e-8,
        weight_decay: float = 0.0,
    ) -> Optimizer[Any, Any]:
        beta2 = b1 if b1_for_v else b2

        def init(params: Any) -> tuple[int, Any, Any]:
            x = np.asarray(params, dtype=np.float64)
            return 0, np.zeros_like(x), np.zeros_like(x)

        def update(grads: Any, state: Any, params: Any = None) -> tuple[Any, Any]:
            t, m, v = state
            t += 1
            x = np.asarray(params, dtype=np.float64)
            g = np.asarray(grads, dtype=np.float64) + (weight_decay * x if coupled_decay else 0.0)
            m = b1 * m + (1 - b1) * g
            v = beta2 * v + (1 - beta2) * g * g
            bc1 = 1 - b1**t if bias_correction else 1.0
            bc2 = 1 - beta2**t if bias_correction else 1.0
            root = np.sqrt(v / bc2 + eps) if eps_inside_root else np.sqrt(v / bc2) + eps
            step = -learning_rate * (m / bc1) / root
            decay = 0.0 if coupled_decay else -learning_rate * weight_decay * x
            return step + decay, (t, m, v)

        return Optimizer(init=init, update=update)

    return factory


MUTANTS: list[tuple[str, Callable[..., Any], set[str]]] = [
    (
        "no_bias_correction",
        _adam_like(bias_correction=False),
        {"matches_recursion", "weight_decay", "constant_gradient", "first_step_sign"},
    ),
    (
        "eps_inside_root",
        _adam_like(eps_inside_root=True),
        {"matches_recursion", "constant_gradient"},
    ),
    ("coupled_decay", _adam_like(coupled_decay=True), {"weight_decay"}),
    ("b1_for_v", _adam_like(b1_for_v=True), {"matches_recursion", "weight_decay"}),
]


def test_correct_local_adam_passes() -> None:
    report = run_suite(_adam_like(), ADAM, profile="smoke")
    assert report.ok, report.format()


@pytest.mark.parametrize(("name", "mutant", "expected"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_mutant_fails(name: str, mutant: Callable[..., Any], expected: set[str]) -> None:
    report = run_suite(mutant, ADAM, profile="smoke")
    failed = {r.name for r in report.failed}
    assert expected <= failed, report.format()
    for result in report.failed:
        assert_measured_kill(result)


def test_every_check_is_killed() -> None:
    killed = set().union(*(expected for _, _, expected in MUTANTS))
    assert killed == set(ADAM.check_names())


@pytest.mark.parametrize("impl", [ref.adam, ref.adamw], ids=["adam", "adamw"])
def test_reference_passes(impl: Callable[..., Any]) -> None:
    report = run_suite(impl, ADAM, profile="smoke")
    assert report.ok, report.format()


def test_variants_are_told_apart() -> None:
    before = Capabilities(variant="eps_before_correction")
    ours = run_suite(ref.adam, ADAM, capabilities=before, profile="smoke")
    assert "matches_recursion" in {r.name for r in ours.failed}
    assert "--variant eps_after_correction" in ours.failed[0].message
    l2 = run_suite(ref.adam, ADAM, capabilities=Capabilities(variant="l2_weight_decay"))
    assert {r.name for r in l2.failed} == {"weight_decay"}


def test_torch_adam_and_adamw_directly() -> None:
    torch = pytest.importorskip("torch")
    adamw = run_suite(torch.optim.AdamW, ADAM, profile="smoke")
    assert adamw.ok, adamw.format()
    adam_l2 = run_suite(
        torch.optim.Adam,
        ADAM,
        capabilities=Capabilities(variant="l2_weight_decay"),
        profile="smoke",
    )
    assert adam_l2.ok, adam_l2.format()
    adam_as_adamw = run_suite(torch.optim.Adam, ADAM, profile="smoke")
    assert {r.name for r in adam_as_adamw.failed} == {"weight_decay"}
