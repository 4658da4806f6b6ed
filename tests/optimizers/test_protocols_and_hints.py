"""Issue 29 items 2-4 without JAX: array protocols, ``--hyper`` on any factory, "requires NAME"
skips, and hints computed on the same draw.

The targets wrap our reference Adam so that only the feature under test differs: results
returned through ``__array__`` / ``__dlpack__`` only, results rounded to float32, an Adam factory
without a ``weight_decay`` keyword (optax's ``adam``), NAdam-like momentum (a different method).
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

from properties import Capabilities, run_suite
from properties._cli import main
from properties.adapters import host_array, to_numpy
from reference import optimizers as ref


class ArrayOnly:
    """Exposes a numpy array through ``__array__`` only (as JAX and CuPy arrays do)."""

    def __init__(self, a: np.ndarray[Any, Any]) -> None:
        self._a = a

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        return self._a if dtype is None else self._a.astype(dtype)


class DlpackOnly:
    """Exposes a numpy array through ``__dlpack__`` only (array-API libraries)."""

    def __init__(self, a: np.ndarray[Any, Any]) -> None:
        self._a = a

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self._a.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> Any:
        return self._a.__dlpack_device__()


def _wrapping(wrap: Any, *, dtype: Any = np.float64) -> Any:
    base = ref.adam(learning_rate=0.1)

    class Pair:
        def init(self, params: Any) -> Any:
            return base.init(params)

        def update(self, grads: Any, state: Any, params: Any = None) -> Any:
            updates, new = base.update(grads, state, params)
            if isinstance(updates, tuple):
                return tuple(wrap(np.asarray(u).astype(dtype)) for u in updates), new
            return wrap(np.asarray(updates).astype(dtype)), new

    return Pair()


def test_host_array_reads_both_protocols_keeping_dtype() -> None:
    a = np.arange(3.0, dtype=np.float32)
    assert host_array(ArrayOnly(a), what="x").dtype == np.float32
    assert host_array(DlpackOnly(a), what="x").dtype == np.float32
    assert to_numpy(DlpackOnly(a), what="x").dtype == np.float64
    assert to_numpy(DlpackOnly(a), what="x").tolist() == [0.0, 1.0, 2.0]


def test_protocol_results_are_converted_and_judged() -> None:
    for wrap in (ArrayOnly, DlpackOnly):
        report = run_suite(_wrapping(wrap), "optimizers.first_order", profile="smoke")
        assert report.ok, report.format()


def test_float32_result_fails_with_the_precision_hint_and_passes_when_declared() -> None:
    f32 = _wrapping(ArrayOnly, dtype=np.float32)
    report = run_suite(f32, "optimizers.first_order", profile="smoke")
    (failed,) = report.failed
    assert failed.name == "structure_and_dtype"
    assert "read as float32" in failed.message
    assert "declare --precision float32" in failed.message
    declared = Capabilities(precision="float32")
    report32 = run_suite(f32, "optimizers.first_order", capabilities=declared, profile="smoke")
    assert report32.ok, report32.format()


def adam_without_decay(
    learning_rate: float, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8
) -> Any:
    """An Adam factory with no ``weight_decay`` keyword (optax.adam's signature)."""
    return ref.adam(learning_rate=learning_rate, b1=b1, b2=b2, eps=eps)


def test_factory_without_weight_decay_skips_only_the_decay_check() -> None:
    report = run_suite(adam_without_decay, "optimizers.adam", profile="smoke")
    status = {r.name: (r.status, r.message) for r in report.results}
    assert status["weight_decay"] == (
        "skipped",
        "skipped: requires weight_decay: adam_without_decay takes no keyword weight_decay",
    )
    assert {n for n, (s, _) in status.items() if s == "passed"} == {
        "matches_recursion",
        "constant_gradient",
        "first_step_sign",
    }


def test_cli_hyper_fixes_a_keyword_of_a_plain_factory() -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["crosscheck", "optimizers.first_order", "reference.optimizers:adam", "--profile"]
    code = main([*argv, "smoke", "--hyper", "learning_rate=0.1"], out=out, err=err)
    assert code == 0, out.getvalue() + err.getvalue()
    # without it the zero-argument factory uses lr 1e-3 and still descends; a negative rate must
    # reach the factory and fail descent, which shows the keyword is really passed
    out2 = io.StringIO()
    bad = main([*argv, "smoke", "--hyper", "learning_rate=-0.1"], out=out2, err=io.StringIO())
    assert bad in (1, 2)
    assert "learning_rate" in out2.getvalue() or bad == 2


def nadam_like(learning_rate: float, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8) -> Any:
    """Nesterov momentum on top of Adam's moments: a different method (NAdam's idea)."""
    base = ref.adam(learning_rate=learning_rate, b1=b1, b2=b2, eps=eps)

    class Pair:
        def init(self, params: Any) -> Any:
            return base.init(params)

        def update(self, grads: Any, state: Any, params: Any = None) -> Any:
            _, new = base.update(grads, state, params)
            again, _ = base.update(grads, new, params)  # look-ahead: a second moment update
            return again, new

    return Pair()


def test_hint_names_no_variant_for_a_different_method() -> None:
    report = run_suite(nadam_like, "optimizers.adam", profile="smoke")
    failed = {r.name: r.message for r in report.failed}
    assert "matches_recursion" in failed
    message = failed["matches_recursion"]
    assert "the target computes a different method" in message
    assert "--variant" not in message.split("the target computes")[0].split("\n", 2)[-1]


def test_hint_names_the_variant_that_matches_on_the_same_draw() -> None:
    declared = Capabilities(variant="eps_before_correction")
    report = run_suite(adam_without_decay, "optimizers.adam", capabilities=declared)
    failed = {r.name: r.message for r in report.failed}
    assert "matches_recursion" in failed, report.format()
    assert (
        "it matches when declared: --variant eps_after_correction (off by"
        in (failed["matches_recursion"])
    )
