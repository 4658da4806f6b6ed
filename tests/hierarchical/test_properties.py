"""The hierarchical suites pass on the reference implementations (numpy and torch)."""

from __future__ import annotations

from properties import run_suite
from properties.hierarchical import LAYERWISE, XOR_TREE, small_layerwise
from reference import hierarchical as hl


def test_xor_tree_generator_passes() -> None:
    report = run_suite(hl.make_xor_tree, XOR_TREE, profile="smoke")
    assert report.ok, report.format()


def test_layerwise_trainer_passes() -> None:
    report = run_suite(small_layerwise, LAYERWISE, profile="smoke")
    assert report.ok, report.format()[:3000]
