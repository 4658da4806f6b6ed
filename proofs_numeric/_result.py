"""The frozen record every theorem check returns."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["BoundCheck", "Sense", "Series"]

Sense = Literal["<=", ">=", "=="]

# A named curve for the report: (x values, y values), e.g. gap against iteration.
Series = tuple[tuple[float, ...], tuple[float, ...]]


@dataclass(frozen=True, slots=True, kw_only=True)
class BoundCheck:
    """One measured quantity compared with the bound a theorem gives for the same instance.

    ``holds`` is decided from ``measured``, ``bound``, ``sense`` and the error
    budget ``rtol``/``atol`` (documented where the check is defined):

    * ``"<="``: ``measured <= bound + rtol*|bound| + atol``
    * ``">="``: ``measured >= bound - rtol*|bound| - atol``
    * ``"=="``: ``|measured - bound| <= rtol*|bound| + atol``

    A NaN on either side never holds.  ``ratio = measured / bound`` (``inf`` when
    the bound is 0 and the measurement is not; 1 when both are 0): tests and the
    ``thorough`` profile use it to see how tight the bound is.

    Attributes:
        claim: the statement checked, in words.
        paper: short citation of the source, e.g. ``"von Neumann (1928)"``.
        theorem: the anchor in that source, e.g. ``"Theorem 3.2"``.
        measured: the quantity measured on a run of the algorithm.
        bound: the bound computed from the same instance.
        sense: direction of the inequality.
        rtol: relative error budget.
        atol: absolute error budget.
        params: instance description (sizes, seeds, constants) for the report.
        series: optional curves (name -> (xs, ys)) drawn in the report.
        subchecks: how many single-instance checks this result summarises (``worst`` sets it).
        degenerate: how many of them have ``bound == 0`` (ratio 1 or inf by convention: they
            say nothing about tightness).
        tightest: the tightest ratio among the non-degenerate ones (``nan``: none), so a row
            whose reported worst case is a degenerate ``0 <= 0`` still shows how tight the
            bound is elsewhere.
        xlabel: label of the plot's x axis (the report requires labelled axes).
        ylabel: label of the plot's y axis.
        scatter: the series are paired points (drawn as markers, not joined by lines).
        slope: theoretical slope of ``log y`` against ``log x`` (rate plots: drawn with the
            fitted slope on log-log axes).
        guide: a bound drawn with the series, ``(xs, ys)`` (e.g. the diagonal ``y = x``).
    """

    claim: str
    paper: str
    theorem: str
    measured: float
    bound: float
    sense: Sense
    rtol: float = 0.0
    atol: float = 0.0
    params: Mapping[str, object] = field(default_factory=dict)
    series: Mapping[str, Series] = field(default_factory=dict)
    subchecks: int = 1
    degenerate: int = 0
    tightest: float = math.nan
    xlabel: str = ""
    ylabel: str = ""
    scatter: bool = False
    slope: float | None = None
    guide: Series | None = None

    def __post_init__(self) -> None:
        if self.sense not in ("<=", ">=", "=="):
            raise ValueError(f"sense: expected one of '<=', '>=', '==', got {self.sense!r}")
        for name in ("rtol", "atol"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value >= 0):
                raise ValueError(f"{name}: expected a finite number >= 0, got {value!r}")

    @property
    def slack(self) -> float:
        """The error budget ``rtol*|bound| + atol`` added to the bound."""
        return self.rtol * abs(self.bound) + self.atol

    @property
    def holds(self) -> bool:
        """Whether the inequality (or equality) holds within the error budget."""
        m, b = float(self.measured), float(self.bound)
        if math.isnan(m) or math.isnan(b):
            return False
        if self.sense == "<=":
            return m <= b + self.slack
        if self.sense == ">=":
            return m >= b - self.slack
        return abs(m - b) <= self.slack

    @property
    def ratio(self) -> float:
        """``measured / bound`` (see the class docstring for the zero cases)."""
        m, b = float(self.measured), float(self.bound)
        if b == 0.0:
            return 1.0 if m == 0.0 else math.inf
        return m / b

    @property
    def is_degenerate(self) -> bool:
        """``bound == 0``: the ratio is a convention (1 or inf), not a measure of tightness."""
        return float(self.bound) == 0.0

    @property
    def verdict(self) -> str:
        """``"holds"`` or ``"FAILS"``."""
        return "holds" if self.holds else "FAILS"
