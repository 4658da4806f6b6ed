"""Our references pass our suites at scale (issue 22, point 4): every test module that runs a
suite on a reference (under the 25-example ``smoke`` or the 100-example ``conformance``
profile) is rerun with :data:`properties._runner.SUITE_PROFILE_ENV` set to ``thorough``
(2000 examples per check).  Mutant tests are left out (a mutant failing at 25 examples fails at
2000).  One command, slow (hours on 2 cores):

    pytest -m slow tests/test_thorough_pairs.py            # or one family: -k games

or a single module by hand: ``VERIFIEDREF_SUITE_PROFILE=thorough pytest tests/games/test_properties.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from properties._runner import SUITE_PROFILE_ENV

ROOT = Path(__file__).resolve().parents[1]

#: Test modules that run a suite on a reference implementation (the first test below checks
#: that every module calling run_suite / a Conformance class / run_check outside the mutant,
#: bad-input and hard-input tests is listed).
MODULES = (
    "tests/activations/test_properties.py",
    "tests/attention_queries/test_properties.py",
    "tests/constrained_map/test_properties.py",
    "tests/divergence/test_properties.py",
    "tests/extensive/test_properties.py",
    "tests/games/test_properties.py",
    "tests/games/test_properties_domain.py",
    "tests/games/test_properties_regret.py",
    "tests/hierarchical/test_properties.py",
    "tests/invariance/test_reference.py",
    "tests/inverse_optimization/test_properties.py",
    "tests/optimizers/test_torch_targets.py",
    "tests/perturbation/test_properties.py",
    "tests/preference/test_properties.py",
    "tests/qp_layers/test_properties.py",
    "tests/qp_layers/test_properties_primal.py",
    "tests/ski_rental/test_properties.py",
    "tests/tsp/test_properties.py",
    "tests/test_adapters.py",
    "tests/test_outside.py",
)


def test_every_suite_running_module_is_listed() -> None:
    found = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        rel = path.relative_to(ROOT).as_posix()
        if any(
            k in rel
            for k in (
                "mutant",
                "bad_input",
                "hard_input",
                "registry",
                "cli",
                "crosscheck",
                "thorough",
            )
        ):
            continue
        text = path.read_text(encoding="utf-8")
        if "run_suite(" in text or "Conformance" in text or "run_check(" in text:
            found.add(rel)
    assert found == set(MODULES)


@pytest.mark.slow
@pytest.mark.parametrize("module", MODULES)
def test_reference_passes_its_suites_under_thorough(module: str) -> None:
    env = {**os.environ, SUITE_PROFILE_ENV: "thorough"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            module,
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            "not gpu and not slow",
            "-k",
            "not mutant",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode in (0, 5), result.stdout[-4000:] + result.stderr[-2000:]
