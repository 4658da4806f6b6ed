"""The shared validators: each bad input gives the right exception naming the argument."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference._arrays import (
    as_float_array,
    as_simplex_point,
    readonly,
    require_int,
    require_positive,
    require_probability,
    require_square,
)


def test_as_float_array_copies_and_coerces() -> None:
    source = np.array([[1, 2], [3, 4]], dtype=np.int32)
    out = as_float_array("payoff", source, ndim=2)
    assert out.dtype == np.float64
    out[0, 0] = 99.0
    assert source[0, 0] == 1


@pytest.mark.parametrize(
    ("value", "exc", "fragment"),
    [
        ([[1.0, math.nan]], ValueError, "finite"),
        ([[1.0, math.inf]], ValueError, "finite"),
        ([1.0, 2.0], ValueError, "2-D"),
        (np.zeros((0, 3)), ValueError, "length >= 1"),
        ([["a", "b"]], TypeError, "real numeric"),
        (np.ones((2, 2)) + 1j, TypeError, "real numeric"),
        ([[1.0], [1.0, 2.0]], TypeError, "real numeric"),
        (None, TypeError, "real numeric"),
        ("12", TypeError, "real numeric"),
    ],
)
def test_as_float_array_rejects(value: object, exc: type[Exception], fragment: str) -> None:
    with pytest.raises(exc, match="payoff") as info:
        as_float_array("payoff", value, ndim=2)
    assert fragment in str(info.value)


def test_shape_wildcards_and_message() -> None:
    assert as_float_array("x", np.ones((3, 2)), shape=(None, 2)).shape == (3, 2)
    with pytest.raises(ValueError, match=r"x: expected shape \(\*, 2\), got shape \(3, 4\)"):
        as_float_array("x", np.ones((3, 4)), shape=(None, 2))


def test_simplex_point() -> None:
    np.testing.assert_array_equal(as_simplex_point("x", [0.25, 0.75]), [0.25, 0.75])
    np.testing.assert_array_equal(as_simplex_point("x", [1.0 + 5e-9, -5e-9]), [1.0 + 5e-9, 0.0])
    with pytest.raises(ValueError, match="x: expected a point of the simplex \\(sum 1\\)"):
        as_simplex_point("x", [0.5, 0.6])
    with pytest.raises(ValueError, match="entries >= 0"):
        as_simplex_point("x", [1.5, -0.5])
    with pytest.raises(ValueError, match="shape"):
        as_simplex_point("x", [0.5, 0.5], size=3)


@pytest.mark.parametrize(
    ("value", "exc"),
    [
        (0.0, ValueError),
        (-1.0, ValueError),
        (math.nan, ValueError),
        (math.inf, ValueError),
        (True, TypeError),
        ("1", TypeError),
        (None, TypeError),
    ],
)
def test_require_positive_rejects(value: object, exc: type[Exception]) -> None:
    with pytest.raises(exc, match="step_size"):
        require_positive("step_size", value)


def test_scalar_validators_accept() -> None:
    assert require_positive("eta", 2) == 2.0
    assert require_positive("eta", 0.0, allow_zero=True) == 0.0
    assert require_probability("p", 1.0) == 1.0
    assert require_int("max_iter", np.int64(5), minimum=1) == 5
    with pytest.raises(ValueError, match=r"p: expected a number in \(0, 1\)"):
        require_probability("p", 1.0, open_low=True, open_high=True)
    with pytest.raises(TypeError, match="max_iter"):
        require_int("max_iter", 5.0)
    with pytest.raises(ValueError, match="max_iter: expected an integer >= 1, got 0"):
        require_int("max_iter", 0, minimum=1)
    with pytest.raises(ValueError, match="square"):
        require_square("Q", np.ones((2, 3)))


def test_readonly() -> None:
    array = readonly(np.zeros(3))
    with pytest.raises(ValueError, match="read-only"):
        array[0] = 1.0
