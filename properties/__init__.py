"""Reusable conformance suites that run against any implementation.

Three doors into the same checks:

* Python: ``run_suite(my_solver, "games.solver")`` returns a :class:`SuiteReport`.
* pytest: ``pytest_plugins = ["properties.pytest_support"]`` then
  :func:`properties.pytest_support.checks_for` or a ``*Conformance`` base class.
* shell: ``verifiedref crosscheck games.solver mypkg.mod:fn`` (exit 0 pass, 1 fail, 2 usage).
"""

from properties._profiles import load_profile
from properties._registry import Algorithm, all_algorithms, all_suites, bad_input_cases, get_suite
from properties._runner import (
    Capabilities,
    Check,
    CheckFailure,
    CheckResult,
    Suite,
    SuiteReport,
    expect,
    expect_close,
    expect_le,
    expect_raises,
    run_suite,
)
from properties._suite import check

__all__ = [
    "Algorithm",
    "Capabilities",
    "Check",
    "CheckFailure",
    "CheckResult",
    "Suite",
    "SuiteReport",
    "all_algorithms",
    "all_suites",
    "bad_input_cases",
    "check",
    "expect",
    "expect_close",
    "expect_le",
    "expect_raises",
    "get_suite",
    "load_profile",
    "run_suite",
]
