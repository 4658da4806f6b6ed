"""What counts as a mutant kill, shared by the ``test_mutants_*`` files."""

from __future__ import annotations

from properties import CheckResult


def assert_measured_kill(result: CheckResult) -> None:
    """A failed check names its anchor and reports a measurement: a mutant crashing on valid
    input is not a kill (Hypothesis' Flaky* errors are: the replay detected nondeterminism)."""
    assert result.anchor in result.message
    assert "measured" in result.message or "raised" in result.message
    crashed = "the implementation raised" in result.message
    assert not crashed or "Flaky" in result.message, result.message
