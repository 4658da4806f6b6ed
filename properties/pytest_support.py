"""Opt-in pytest doors into the suites (the only module of the package importing pytest).

Enable it in your ``conftest.py`` (nothing is registered automatically)::

    pytest_plugins = ["properties.pytest_support"]

Then either parametrize a test over a suite's checks::

    from properties.pytest_support import checks_for, run_check

    @checks_for(my_solver, "games.solver")
    def test_my_solver(implementation, check_name):
        run_check(implementation, "games.solver", check_name)

or subclass a conformance base class (fsspec style)::

    class TestMySolver(GameSolverConformance):
        @pytest.fixture
        def implementation(self):
            return my_solver
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import pytest

from properties._registry import get_suite
from properties._runner import Capabilities, Suite, describe_target, run_suite

__all__ = ["GameSolverConformance", "SuiteConformance", "checks_for", "run_check"]


def _suite(suite: Suite[Any] | str) -> Suite[Any]:
    return get_suite(suite) if isinstance(suite, str) else suite


def checks_for(
    impl: object, suite: Suite[Any] | str, *, name: str | None = None
) -> pytest.MarkDecorator:
    """A ``parametrize`` mark over ``(implementation, check_name)`` with ids ``<impl>::<check>``."""
    the_suite = _suite(suite)
    label = name or describe_target(impl)
    params = [pytest.param(impl, c.name, id=f"{label}::{c.name}") for c in the_suite.checks]
    return pytest.mark.parametrize(("implementation", "check_name"), params)


def run_check(
    impl: object,
    suite: Suite[Any] | str,
    check_name: str,
    *,
    capabilities: Capabilities | None = None,
    expected_failures: Mapping[str, str] | None = None,
    profile: str = "conformance",
) -> None:
    """Run one check and turn its outcome into a pytest outcome (fail, skip, xfail).

    Raises:
        ValueError: unknown check name.
    """
    the_suite = _suite(suite)
    names = the_suite.check_names()
    if check_name not in names:
        raise ValueError(f"check_name: expected one of {list(names)}, got {check_name!r}")
    xfails = {k: v for k, v in (expected_failures or {}).items() if k == check_name}
    report = run_suite(
        impl,
        the_suite,
        capabilities=capabilities,
        skip=[n for n in names if n != check_name],
        expected_failures=xfails,
        profile=profile,
    )
    (result,) = [r for r in report.results if r.name == check_name]
    if result.status == "skipped":
        pytest.skip(result.message)
    if result.status == "xfailed":
        pytest.xfail(result.message)
    if result.status in ("failed", "xpassed"):
        text = result.message
        if result.snippet:
            text += "\nre-run the shrunk failing input:\n" + result.snippet
        pytest.fail(text, pytrace=False)


class SuiteConformance:
    """Base class: subclass it, set ``suite`` and override the ``implementation`` fixture.

    Class attributes ``capabilities``, ``expected_failures`` and ``profile`` are
    passed to :func:`run_check`.  Subclasses are collected by pytest; classes that
    set ``_abstract = True`` in their body (like :class:`GameSolverConformance`) are not.
    """

    __test__: ClassVar[bool] = False
    _abstract: ClassVar[bool] = True
    suite: ClassVar[str] = ""
    capabilities: ClassVar[Capabilities] = Capabilities()
    expected_failures: ClassVar[Mapping[str, str]] = {}
    profile: ClassVar[str] = "conformance"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.__test__ = not cls.__dict__.get("_abstract", False)

    @pytest.fixture
    def implementation(self) -> Any:
        """The implementation under test: override this fixture."""
        raise NotImplementedError("override the 'implementation' fixture")

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        """Parametrize ``check_name`` over the suite's checks."""
        if "check_name" in metafunc.fixturenames:
            names = list(get_suite(self.suite).check_names())
            metafunc.parametrize("check_name", names, ids=names)

    def test_conformance(self, implementation: Any, check_name: str) -> None:
        """One test per check of the suite."""
        run_check(
            implementation,
            self.suite,
            check_name,
            capabilities=self.capabilities,
            expected_failures=self.expected_failures,
            profile=self.profile,
        )


class GameSolverConformance(SuiteConformance):
    """Conformance base class for ``games.solver`` implementations."""

    _abstract = True
    suite = "games.solver"
