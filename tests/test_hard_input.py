"""The hard-input suite (issue 22): registration, invariants, and our references passing it.

The default gate runs :func:`properties.hard_input.sweep` (every instance and every transform
once, seed 0) on every registered function; the full suite under the ``smoke`` profile runs
with ``pytest -m slow tests/test_hard_input.py``.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from numpy.typing import ArrayLike

from properties import bad_input_cases, run_suite
from properties._cli import main
from properties.hard_input import (
    HARD_INPUT,
    HARD_TRANSFORMS,
    HardInputCase,
    hard_input_cases,
    hard_transform,
    sweep,
)
from tests._gate import with_gate_limit

CASES = hard_input_cases()

#: The online learner classes of reference.inverse_optimization, run through the protocol.
LEARNERS = (
    "CuttingPlane",
    "FirstElement",
    "OnlineGradientDescent",
    "OnlineLearner",
    "OnlineNewtonStep",
    "RobustLearner",
)

#: The torch fast paths with cases of their own (registered when torch is installed).
TORCH_PATHS = (
    "reference.divergence.fast_torch:estimate_alpha_divergence",
    "reference.divergence.fast_torch:neural_critic_estimate",
    "reference.hierarchical.fast_torch:train_end_to_end",
    "reference.hierarchical.fast_torch:train_layerwise",
)


def torch_missing() -> bool:
    import importlib.util

    return importlib.util.find_spec("torch") is None


def test_every_bad_input_case_is_a_hard_input_case() -> None:
    standalone = {
        "reference.constrained_map:mp_messages",
        "reference.extensive:cfr",
        "reference.extensive:cfr_plus",
        "reference.invariance:exhaustive_search_k1",
        "reference.invariance:support_search",
        "reference.preference:implied_link",
        "reference.constrained_map:max_out",
        "reference.preference:embed_psi",
        *(f"reference.inverse_optimization:{name}" for name in LEARNERS),
        *(() if torch_missing() else TORCH_PATHS),
    }
    assert {c.name for c in CASES} == {c.name for c in bad_input_cases()} | standalone
    with_rules = {c.name for c in CASES if c.stop_rule is not None}
    assert {
        "reference.games:ssn",
        "reference.games:hybrid",
        "reference.perturbation:parameter_free",
        "reference.extensive:dgda",
    } <= with_rules


#: ``verifiedref list`` entries with no hard-input case, and why (issue 22, point 2).
NOT_HARD_INPUT: dict[str, str] = {
    **{
        f"reference.{name}": "takes no input: builds one fixed instance"
        for name in (
            "activations:relu_init",
            "constrained_map:example_2_2",
            "extensive:kuhn_poker",
            "extensive:leduc_poker",
            "inverse_optimization:theorem_6_1_instance",
        )
    },
    "reference.activations:gelu_pole": "takes no array: a fixed search of the pole of tanh-GELU "
    "(its only argument is an integer count of branches, checked by bad_input)",
    **dict.fromkeys(
        TORCH_PATHS if torch_missing() else (),
        "torch fast path: torch is not installed here (the gate installs it; the case is "
        "then registered)",
    ),
}


def _identity(name: str) -> object:
    from pkgutil import resolve_name

    try:
        return resolve_name(name.split("[")[0].strip())
    except (AttributeError, ImportError, ValueError):  # a wrapper's descriptive name
        return name


def test_hard_input_covers_every_listed_numerical_function() -> None:
    from properties import all_algorithms

    listed = {a.function for a in all_algorithms()}
    ids = {id(_identity(c.name)) for c in CASES}
    covered = {name for name in listed if id(_identity(name)) in ids}
    assert not covered & set(NOT_HARD_INPUT)
    assert covered | set(NOT_HARD_INPUT) == listed
    # the 6 that take no array input are in NOT_HARD_INPUT (10 without torch)
    assert len(covered) == (254 if torch_missing() else 258)


def test_the_catalogue_lists_hard_input_exactly_where_there_are_cases() -> None:
    """``verifiedref list`` (and the README table) name ``hard_input`` for an entry iff it has
    hard cases (the torch entries have them only when torch is installed)."""
    from properties import all_algorithms

    ids = {id(_identity(c.name)) for c in CASES}
    wrong = sorted(
        a.function
        for a in all_algorithms()
        if (id(_identity(a.function)) in ids) != ("hard_input" in a.suites)
        and not (torch_missing() and ".fast_torch:" in a.function)
    )
    assert wrong == []


def test_transforms_keep_shapes_and_leave_integers_alone() -> None:
    rng = np.random.default_rng(0)
    a = rng.normal(size=(3, 4))
    for kind in HARD_TRANSFORMS:
        out = np.asarray(hard_transform(a, kind, rng))
        assert out.shape == a.shape, kind
        assert np.isfinite(out).all(), kind
    assert np.array_equal(np.asarray(hard_transform(np.arange(4), "huge", rng)), np.arange(4))
    with pytest.raises(ValueError, match="kind"):
        hard_transform(a, "tremendous", rng)


def _liar(payoff: ArrayLike, **kwargs: object) -> object:
    """Claims convergence of the uniform pair whatever its gap."""
    from reference.games import rm_plus

    result = rm_plus(payoff, tol=1e-6, max_iter=1)
    import dataclasses

    return dataclasses.replace(result, converged=True, stop_reason="tol")


def _raiser(payoff: object, **kwargs: object) -> object:
    raise IndexError("index 3 is out of bounds")


def _case(name: str) -> HardInputCase:
    return next(c for c in CASES if c.name == name)


def test_the_suite_catches_a_lying_flag_and_an_escaping_index_error() -> None:
    base = _case("reference.games:ssn")
    liar = run_suite(base.with_fn(_liar, name="liar"), HARD_INPUT, profile="smoke")
    assert not liar.ok
    assert "converged=True" in liar.format()
    raiser = run_suite(base.with_fn(_raiser, name="raiser"), HARD_INPUT, profile="smoke")
    assert not raiser.ok
    assert "IndexError" in raiser.format()


def test_crosscheck_takes_like_for_hard_input() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["crosscheck", "hard_input", "reference.games:duality_gap"], out=out, err=err) == 2
    assert "--like" in err.getvalue()
    code = main(
        [
            "crosscheck",
            "hard_input",
            "reference.games:duality_gap",
            "--like",
            "reference.games:duality_gap",
            "--profile",
            "smoke",
        ],
        out=out,
        err=err,
    )
    assert code == 0, out.getvalue() + err.getvalue()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_registered_function_survives_hard_input(case: HardInputCase) -> None:
    # our references are bounded by iteration caps: the gate's limit, not the case's budget
    failures = sweep(with_gate_limit(case))
    assert not failures, "\n".join(failures)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_registered_function_passes_hard_input_suite(case: HardInputCase) -> None:
    report = run_suite(with_gate_limit(case), HARD_INPUT, profile="smoke")
    assert report.ok, report.format()
