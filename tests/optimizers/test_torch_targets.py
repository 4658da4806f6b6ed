"""Issue 18: torch optimizers as targets of the optimizer suites (``properties.adapters``)."""

from __future__ import annotations

import io

import pytest

from properties import Capabilities, run_suite
from properties._cli import main
from properties.adapters import as_torch_optimizer, is_torch_optimizer

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)


def test_torch_adam_class_passes_first_order() -> None:
    assert is_torch_optimizer(torch.optim.Adam)
    report = run_suite(torch.optim.Adam, "optimizers.first_order", profile="smoke")
    assert report.ok, report.format()


def test_our_torch_lion_factory_passes_lion() -> None:
    from reference.optimizers import fast_torch

    report = run_suite(fast_torch.lion, "optimizers.lion", profile="smoke")
    assert report.ok, report.format()


def test_torch_adamw_is_textbook_adam_and_not_s_adam() -> None:
    textbook = Capabilities(variant="eps_after_correction")
    report = run_suite(
        torch.optim.AdamW, "optimizers.s_adam", capabilities=textbook, profile="smoke"
    )
    assert report.ok, report.format()  # AdamW has no lgi_lambda: pure_rescaling cannot run
    skipped = {r.name: r.message for r in report.results if r.status == "skipped"}
    assert list(skipped) == ["pure_rescaling"]
    assert skipped["pure_rescaling"].startswith("skipped: requires lgi_lambda: AdamW takes no")
    ours = run_suite(torch.optim.AdamW, "optimizers.s_adam", profile="smoke")
    assert "reduces_to_adam" in {r.name for r in ours.failed}


def test_overrides_reach_the_torch_constructor() -> None:
    pair = as_torch_optimizer(torch.optim.SGD, overrides={"lr": 0.25})(learning_rate=1.0)
    assert pair.kwargs == {"lr": 0.25}
    assert not is_torch_optimizer(as_torch_optimizer(torch.optim.SGD))


def test_cli_hyper_rejects_non_callable_targets() -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = ["crosscheck", "optimizers.lion", "reference.optimizers:NS_STEPS", "--hyper", "a=1"]
    assert main(argv, out=out, err=err) == 2
    assert "--hyper applies to callable targets" in err.getvalue()


def test_adagrad_on_adam_is_skipped_by_name_not_garbled() -> None:
    report = run_suite(torch.optim.Adagrad, "optimizers.adam", profile="smoke")
    messages = [r.message for r in report.results]
    assert not any("tried 'b1' and 'b1'" in m for m in messages)
    skipped = [r for r in report.results if r.status == "skipped"]
    assert skipped, report.format()
    assert all(
        r.message.startswith("skipped: requires b1: Adagrad takes no keyword b1 (nor betas)")
        for r in skipped
    )
