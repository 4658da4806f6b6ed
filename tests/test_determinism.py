"""A derandomised suite run draws the same examples whatever else the process imported.

Hypothesis mixes literal constants of loaded local modules into its draws; ``run_suite`` switches
that off for derandomised profiles (:mod:`properties._determinism`).  Each run here is a fresh
interpreter that records the instances the ``tsp.guaranteed_decoder`` suite hands to a decoder,
with and without first importing a module full of constants Hypothesis has never seen.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from properties._determinism import hook_present

ROOT = Path(__file__).resolve().parents[1]

_SCRIPT = textwrap.dedent(
    """
    import hashlib, json, sys
    sys.path.insert(0, sys.argv[1])
    if sys.argv[2] == "with-constants":
        import many_constants  # noqa: F401
    if sys.argv[3] == "hook-off":
        import contextlib
        import properties._run_check as rc
        rc.code_constants_off = contextlib.nullcontext
    from properties import Capabilities, run_suite
    from properties.tsp import GUARANTEED_DECODER
    from reference import tsp

    seen = []

    def decoder(distances, heat):
        seen.append(hashlib.sha256(distances.tobytes()).hexdigest()[:12])
        return tsp.sweep_decode(distances, heat)

    skip = [n for n in GUARANTEED_DECODER.check_names() if n != "opt_plus_two_eta"]
    run_suite(decoder, GUARANTEED_DECODER, capabilities=Capabilities(raises_on_invalid=True),
              profile="smoke", skip=skip)
    print(json.dumps(seen))
    """
)


def _draws(folder: Path, imports: str, hook: str) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(folder), imports, hook],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
    )
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


@pytest.fixture(scope="module")
def constants_module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("userproject")
    values = [f"X{i} = {0.5 + i / 997:.12f}\nN{i} = {3 + 7 * i}" for i in range(400)]
    (folder / "many_constants.py").write_text("\n".join(values) + "\n")
    return folder


def test_hook_present_in_this_hypothesis() -> None:
    import importlib.util

    if importlib.util.find_spec("hypothesis.internal.constants_ast") is not None:
        assert hook_present(), "Hypothesis collects local constants but the hook moved"


def test_same_draws_whatever_is_imported(constants_module: Path) -> None:
    plain = _draws(constants_module, "plain", "hook-on")
    other = _draws(constants_module, "with-constants", "hook-on")
    assert len(plain) >= 20
    assert plain == other


def test_without_the_switch_the_draws_move(constants_module: Path) -> None:
    """The test above has teeth: with the switch replaced by a no-op, the imported module's
    constants change what is drawn."""
    if not hook_present():
        pytest.skip("this Hypothesis draws no local constants")
    plain = _draws(constants_module, "plain", "hook-off")
    other = _draws(constants_module, "with-constants", "hook-off")
    assert plain != other


def test_nested_switch_restores_hypothesis() -> None:
    from properties._determinism import _providers, code_constants_off

    p = _providers()
    before = p._get_local_constants
    with code_constants_off():
        inner = p._get_local_constants
        with code_constants_off():
            assert p._get_local_constants is inner
        assert p._get_local_constants is inner
        if hook_present():
            assert inner is not before
            assert len(inner()) == 0
    assert p._get_local_constants is before
