"""Issue 29 item 10, ski rental: ``ski_rental.classical`` tells the break-even rule (competitive
ratio ``2 - 1/b``) from rules that miss it by one day or only for large ``b``.

``ratio_profile`` scans every ``T`` in ``1..3b`` for the drawn ``b``, so a rule is separated as soon
as one ``b`` where it is wrong is drawn (``b`` up to ``MAX_B`` = 100).  A threshold ``k`` means buy
after renting ``k`` days: ``k = b - 1`` is break-even.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from properties import run_suite
from properties.ski_rental import CLASSICAL


def break_even(b: float) -> int:
    return int(b) - 1


def one_day_early(b: float) -> int:  # worst ratio (2b - 2)/(b - 1) = 2 > 2 - 1/b
    return int(b) - 2


def late_for_large_b(b: float) -> int:  # break-even below 40, one day late (ratio 2) from 40 on
    return int(b) - 1 if b < 40 else int(b)


def test_break_even_passes() -> None:
    report = run_suite(break_even, CLASSICAL, profile="smoke")
    assert report.ok, report.format()


@pytest.mark.parametrize("rule", [one_day_early, late_for_large_b], ids=["early", "late>=40"])
def test_off_by_one_rules_fail_the_ratio_profile(rule: Callable[[float], int]) -> None:
    report = run_suite(rule, CLASSICAL, profile="smoke")
    assert "ratio_profile" in {r.name for r in report.failed}, report.format()
