"""S1 (spec 16, optional): AAA-Lawson brackets of E_nn(|x|) against Stahl's 8 exp(-pi sqrt n)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from proofs_numeric import activations as pr


def test_bracket_is_ordered_and_the_upper_end_is_an_achieved_error() -> None:
    k = 3
    support, num, den = pr.aaa_lawson_sqrt(k)
    # independent evaluation in x on [-1, 1]: r(x) = s(x^2), away from the support points
    xs = np.concatenate([np.linspace(-1, 1, 20001), np.logspace(-9, 0, 5001)])
    ys = xs**2
    keep = np.min(np.abs(ys[:, None] - support[None, :]), axis=1) > 1e-14
    c = 1.0 / (ys[keep, None] - support[None, :])
    err = float(np.max(np.abs(np.abs(xs[keep]) - (c @ num) / (c @ den))))
    lower, upper = pr.minimax_abs_bracket(2 * k)
    assert 0.0 < lower <= upper
    assert err <= upper * (1 + 1e-6)


def test_spec_window_fails_at_n10() -> None:
    """Finding: at n = 10 the certified ratio E_nn exp(pi sqrt n)/8 is about 0.70, below the
    spec's window [0.8, 1.25] (Stahl's limit 8 is approached from below)."""
    check = pr.stahl_constant((10,))
    brackets = check.params["ratio_brackets"]
    assert isinstance(brackets, dict)
    lo, up = brackets["10"]
    assert 0.6 < lo <= up < 0.8
    assert not check.holds
    assert math.isclose(check.measured, up)


def test_odd_or_small_orders_are_rejected() -> None:
    for bad in (0, 1, 11, -4):
        with pytest.raises(ValueError, match="n"):
            pr.minimax_abs_bracket(bad)
