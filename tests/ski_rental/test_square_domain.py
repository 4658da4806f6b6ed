"""Issue 29 item 8: the ``square_b`` domain of the ski-rental suites.

A reproduction of the paper's code asserts that ``b`` is a perfect square; run on the default
domain it fails on ``b = 2``, declared ``--domain square_b`` it is judged on the squares only
(and still fails where it is wrong), and ``describe`` lists the domains.
"""

from __future__ import annotations

import io
import math
from typing import Any

import pytest

from properties import Capabilities, run_suite
from properties import ski_rental as props
from properties._cli import main
from reference import ski_rental as sr


def square_only_main(p_hat: Any, b: float, *args: Any, **kwargs: Any) -> Any:
    """Our main algorithm behind the reproduction's precondition ``b`` a perfect square."""
    root = math.isqrt(int(b))
    assert root * root == b, f"b must be a perfect square, got {b}"
    return sr.main_algorithm(p_hat, b, *args, **kwargs)


def square_only_wrong(p_hat: Any, b: float, *args: Any, **kwargs: Any) -> Any:
    """The same, but buying one day late on every threshold (a real defect to be found)."""
    root = math.isqrt(int(b))
    assert root * root == b, f"b must be a perfect square, got {b}"
    return sr.base_algorithm(p_hat, b, *args, **kwargs)


def test_precondition_fails_on_the_default_domain() -> None:
    report = run_suite(square_only_main, props.MAIN_ALGORITHM, profile="smoke")
    assert not report.ok
    assert any("b must be a perfect square" in r.message for r in report.failed)


def test_square_domain_draws_squares_only_and_passes() -> None:
    caps = Capabilities(domain="square_b")
    report = run_suite(square_only_main, props.MAIN_ALGORITHM, capabilities=caps, profile="smoke")
    assert report.ok, report.format()
    assert report.domain == "square_b"


def test_square_domain_still_finds_a_different_method() -> None:
    caps = Capabilities(domain="square_b")
    report = run_suite(square_only_wrong, props.MAIN_ALGORITHM, capabilities=caps, profile="smoke")
    assert not report.ok
    assert not any("perfect square" in r.message for r in report.failed)


@pytest.mark.parametrize("suite", [s.name for s in props.SUITES])
def test_every_ski_suite_lists_its_domains(suite: str) -> None:
    out = io.StringIO()
    assert main(["describe", suite], out=out, err=io.StringIO()) == 0
    text = out.getvalue()
    assert "domains (--domain NAME; the first is the default)" in text
    assert "square_b: b a perfect square" in text


def test_describe_says_when_a_suite_declares_no_domain() -> None:
    from properties._registry import all_suites

    for suite in all_suites().values():
        out = io.StringIO()
        assert main(["describe", suite.name], out=out, err=io.StringIO()) == 0
        text = out.getvalue()
        if suite.domains:
            assert "domains (--domain NAME" in text, suite.name
        else:
            assert "domains: one, every input the checks draw" in text, suite.name
