"""Distributions are dense vectors over the days: a support at day 1e9 must be refused with the
documented ValueError, not allocated (7.45 GiB: the hard-input suite's huge scale of ``days``
once made ``from_atoms`` take 8-16 GB, enough to run a 24 GiB CI machine out of memory)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from reference.ski_rental import MAX_LENGTH, from_atoms, point_mass


def test_from_atoms_refuses_a_support_beyond_max_length() -> None:
    days = np.array([5e8, 6e8, 9e8, 1e9])
    with pytest.raises(ValueError, match=r"^days: .*MAX_LENGTH"):
        from_atoms(days, np.full(4, 0.25))
    with pytest.raises(ValueError, match=r"^length: .*MAX_LENGTH"):
        from_atoms([1, 3], [0.5, 0.5], length=MAX_LENGTH + 1)


def test_point_mass_refuses_a_day_beyond_max_length() -> None:
    with pytest.raises(ValueError, match=r"^t: .*MAX_LENGTH"):
        point_mass(MAX_LENGTH)
    with pytest.raises(ValueError, match=r"^length: .*MAX_LENGTH"):
        point_mass(3, length=MAX_LENGTH + 1)


def test_the_longest_allowed_vector_is_still_built() -> None:
    p = point_mass(MAX_LENGTH - 1)
    assert p.shape == (MAX_LENGTH,)
    assert p[-1] == 1.0
    assert float(p.sum()) == 1.0
    exact = from_atoms([0, 2], [Fraction(1, 3), Fraction(2, 3)], length=4)
    assert exact == (Fraction(1, 3), Fraction(0), Fraction(2, 3), Fraction(0))
