"""Issue 36 item 3, ski rental: ``matches_rule`` pins Algorithm 1's threshold and the λ-robust
clamp exactly, one declared tie-break at a time.

Before it, ``ski_rental.main_algorithm`` and ``robust_algorithm`` were bound-based: any policy
meeting the guarantees passed, e.g. Algorithm 1 without its tail cap or with ``r = ⌈√b⌉``.
The wrong implementations here are written from the spec, not from the reference.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest

from properties import Capabilities, SuiteReport, run_suite
from properties.ski_rental import MAIN_ALGORITHM, POINT_TRUTH, ROBUST_ALGORITHM, robust_clamp
from reference import ski_rental as sr

_MAIN_OTHERS = ("consistency", "robustness", "emd_bound", "point_mass_cases", "delay")
_ROBUST_OTHERS = ("ratio", "lambda_zero", "two_competitive", "consistency")


def _costs(p: Sequence[Fraction], b: Fraction) -> list[Fraction]:
    """``c(A_K)`` for ``K = 0..N-1`` then ``c(A_∞)`` (last)."""
    out = []
    for k in [*range(len(p)), len(p)]:
        out.append(sum((m * (t if t <= k else k + b) for t, m in enumerate(p)), Fraction(0)))
    return out


def _k_star(p: Sequence[Fraction], b: Fraction, *, largest: bool, r: int, strict: bool) -> int:
    costs = _costs(p, b)
    best = min(costs)
    hits = [k for k, c in enumerate(costs) if c == best]
    k_hat = hits[-1] if largest else hits[0]
    level = Fraction(1, r)
    tail, u = Fraction(1), len(p)
    for t, mass in enumerate(p):
        tail -= mass
        if tail < level or (not strict and tail == level):
            u = t
            break
    return min(k_hat + r, u + r)


def _main(
    *, largest: bool = False, ceil_root: bool = False, strict: bool = False
) -> Callable[..., int]:
    def rule(p_hat: Sequence[Fraction | float], b: Fraction | float) -> int:
        p = [Fraction(v) for v in p_hat]
        bq = Fraction(b)
        r = math.isqrt(math.floor(bq))
        if ceil_root and r * r != math.floor(bq):
            r += 1
        return _k_star(p, bq, largest=largest, r=r, strict=strict)

    return rule


def _robust(main: Callable[..., int], *, floor_plus_one: bool = False) -> Callable[..., int]:
    def rule(p_hat: Sequence[Fraction | float], b: Fraction | float, lam: float) -> int:
        k = main(p_hat, b)
        bq, lq = Fraction(b), Fraction(lam)
        if floor_plus_one and lq > 0 and k <= bq:
            low = math.floor(lq * bq) + 1  # ⌊λb⌋ + 1 instead of ⌈λb⌉
            return low - 1 if k < low else k
        return robust_clamp(k, bq, lq)

    return rule


def _main_report(impl: object, variant: str) -> SuiteReport:
    caps = Capabilities(variant=variant)
    return run_suite(impl, MAIN_ALGORITHM, capabilities=caps, skip=_MAIN_OTHERS, profile="smoke")


def _robust_report(impl: object, variant: str) -> SuiteReport:
    caps = Capabilities(variant=variant)
    return run_suite(
        impl, ROBUST_ALGORITHM, capabilities=caps, skip=_ROBUST_OTHERS, profile="smoke"
    )


@pytest.mark.parametrize("variant", ["smallest_minimizer", "any_minimizer"])
def test_reference_passes_both_tie_breaks(variant: str) -> None:
    assert _main_report(sr.main_algorithm, variant).ok
    assert _robust_report(sr.robust_algorithm, variant).ok


def test_largest_minimiser_is_another_declared_variant() -> None:
    main = _main(largest=True)
    report = _main_report(main, "smallest_minimizer")
    assert "matches_rule" in {r.name for r in report.failed}, report.format()
    assert "--variant any_minimizer" in report.format()
    assert _main_report(main, "any_minimizer").ok
    robust = _robust(main)
    failed = _robust_report(robust, "smallest_minimizer").failed
    assert "matches_rule" in {r.name for r in failed}
    assert _robust_report(robust, "any_minimizer").ok


@pytest.mark.parametrize(
    "wrong",
    [_main(ceil_root=True), _main(strict=True)],
    ids=["r = ceil(sqrt b)", "U with Q < 1/r"],
)
@pytest.mark.parametrize("variant", ["smallest_minimizer", "any_minimizer"])
def test_wrong_main_rules_fail_every_variant(wrong: Callable[..., int], variant: str) -> None:
    report = _main_report(wrong, variant)
    assert "matches_rule" in {r.name for r in report.failed}, report.format()


@pytest.mark.parametrize("variant", ["smallest_minimizer", "any_minimizer"])
def test_robust_clamp_with_floor_plus_one_fails(variant: str) -> None:
    wrong = _robust(_main(), floor_plus_one=True)
    report = _robust_report(wrong, variant)
    assert "matches_rule" in {r.name for r in report.failed}, report.format()


def test_without_the_tail_cap_fails() -> None:
    def base(p_hat: Sequence[Fraction | float], b: Fraction | float) -> object:
        return sr.base_algorithm([Fraction(v) for v in p_hat], Fraction(b))

    report = _main_report(base, "any_minimizer")
    assert "matches_rule" in {r.name for r in report.failed}, report.format()


def _point_truth(
    *, largest: bool = False, fortieth: Fraction = Fraction(1, 40)
) -> Callable[..., float]:
    """Spec §3.4 written out, with the minimiser and the 1/40 constant as parameters."""

    def rule(p_hat: Sequence[Fraction | float], b: Fraction | float) -> float:
        p = [Fraction(v) for v in p_hat]
        bq = Fraction(b)
        s = max((t for t, m in enumerate(p) if m > 0), default=0)
        costs = _costs(p[: s + 1], bq)  # K = 0..s, then ∞ (K = s costs what ∞ costs)
        best = min(costs)
        hits: list[float] = [k for k in range(s) if costs[k] == best]
        if costs[-1] == best or not hits:
            hits.append(math.inf)
        k = hits[-1] if largest else hits[0]
        if s == 0:
            k = math.inf if largest else 0
        if k == 0 or k == math.inf:
            return k
        if k >= bq:
            return math.inf if sum(p[: math.floor(bq) + 1]) >= Fraction(1, 3) else 0
        return math.inf if sum(p[: int(k) + 1]) >= fortieth else k

    return rule


def _point_report(impl: object, variant: str) -> SuiteReport:
    caps = Capabilities(variant=variant)
    skip = ("bound", "exact_prediction", "far_mass")
    return run_suite(impl, POINT_TRUTH, capabilities=caps, skip=skip, profile="smoke")


def test_point_truth_rule_is_pinned() -> None:
    for variant in ("smallest_minimizer", "any_minimizer"):
        assert _point_report(sr.point_truth_algorithm, variant).ok, variant
        assert _point_report(_point_truth(), variant).ok, variant
        wrong = _point_report(_point_truth(fortieth=Fraction(1, 20)), variant)
        assert "matches_rule" in {r.name for r in wrong.failed}, wrong.format()
    largest = _point_truth(largest=True)
    failed = _point_report(largest, "smallest_minimizer").failed
    assert "matches_rule" in {r.name for r in failed}
    assert _point_report(largest, "any_minimizer").ok
