"""Hypothesis profiles: the single source of truth (STYLE.md B9).

========== ======== =============================================== ==========================
profile    examples other settings                                  used by
========== ======== =============================================== ==========================
dev        25       deadline None                                   local default
ci         200      deadline None, print_blob, database None        CI (``CI`` set)
thorough   2000     larger size caps (``VERIFIEDREF_MAX_SIDE``)      nightly / before release
conformance 100     derandomize, database None, deadline None       ``run_suite``, CLI, users
smoke      25       derandomize, database None, deadline None       our tests' suite verdicts
========== ======== =============================================== ==========================

``smoke`` exists so that the tests which assert a suite's verdict (reference passes, each mutant
fails) are deterministic and cheap: the same 25 examples on every run and every machine.

The profile is chosen by ``--hypothesis-profile`` (pytest), ``--profile`` (CLI),
or the environment variable ``VERIFIEDREF_HYPOTHESIS_PROFILE``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

__all__ = ["ENV_VAR", "PROFILES", "default_profile", "load_profile", "register_profiles"]

ENV_VAR = "VERIFIEDREF_HYPOTHESIS_PROFILE"
PROFILES = ("dev", "ci", "thorough", "conformance", "smoke")

# Users' implementations may be slow (an LP per call): never fail on speed.
_SUPPRESS = (HealthCheck.too_slow, HealthCheck.data_too_large)
_registered = False


def register_profiles() -> None:
    """Register the four profiles with Hypothesis (idempotent)."""
    global _registered
    if _registered:
        return
    settings.register_profile(
        "dev", max_examples=25, deadline=None, suppress_health_check=_SUPPRESS
    )
    settings.register_profile(
        "ci",
        max_examples=200,
        deadline=None,
        print_blob=True,
        database=None,
        suppress_health_check=_SUPPRESS,
    )
    settings.register_profile(
        "thorough", max_examples=2000, deadline=None, suppress_health_check=_SUPPRESS
    )
    settings.register_profile(
        "conformance",
        max_examples=100,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=_SUPPRESS,
    )
    settings.register_profile(
        "smoke",
        max_examples=25,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=_SUPPRESS,
    )
    _registered = True


def default_profile() -> str:
    """The profile named by the environment: ``VERIFIEDREF_HYPOTHESIS_PROFILE``, else ``ci`` if
    ``CI`` is set, else ``dev``.

    Raises:
        ValueError: the environment names an unknown profile.
    """
    name = os.environ.get(ENV_VAR)
    if name is None:
        return "ci" if os.environ.get("CI") else "dev"
    if name not in PROFILES:
        raise ValueError(f"{ENV_VAR}: expected one of {', '.join(PROFILES)}, got {name!r}")
    return name


def load_profile(name: str | None = None) -> str:
    """Register the profiles, load ``name`` (or :func:`default_profile`) and return its name.

    Raises:
        ValueError: unknown profile name.
    """
    register_profiles()
    chosen = default_profile() if name is None else name
    if chosen not in PROFILES:
        raise ValueError(f"profile: expected one of {', '.join(PROFILES)}, got {chosen!r}")
    settings.load_profile(chosen)
    return chosen
