"""Catalogue of the ``invariance`` family: ``ALGORITHMS`` (rows of ``verifiedref list``),
``BAD_INPUT_CASES`` (its public functions under the ``bad_input`` suite) and ``HARD_EXTRAS``
(hard instances and stopping rules that the ``hard_input`` suite adds to them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from properties._records import Algorithm, Args, BadInputCase, HardExtra, HardInstance
from properties.invariance import _envs
from reference import invariance as inv

__all__ = ["ALGORITHMS", "BAD_INPUT_CASES", "HARD_EXTRAS", "UNCOVERED"]


_P = "Zhou et al., Is Spurious Correlation Removal Always Learnable? (ICML 2026)"
ALGORITHMS = (
    Algorithm(
        name="spectral moment estimator (E2)",
        function="reference.invariance:estimate_invariant_subspace",
        family="invariance",
        paper=_P,
        suites=("invariance.estimator", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="subspace distance",
        function="reference.invariance:subspace_distance",
        family="invariance",
        paper=_P,
        suites=("invariance.distance", "bad_input", "hard_input"),
    ),
    Algorithm(
        name="multi-environment generator (E1)",
        function="reference.invariance:make_instance",
        family="invariance",
        paper=_P,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="score S and exhaustive search (E3)",
        function="reference.invariance:exhaustive_search_k1",
        family="invariance",
        paper=_P,
        suites=("bad_input", "hard_input"),
    ),
    Algorithm(
        name="toy Construction 3.3 and support search",
        function="reference.invariance:support_search",
        family="invariance",
        paper=_P,
        suites=("hard_input",),
    ),
    Algorithm(
        name="diversity diagnostic γ̂ (E5)",
        function="reference.invariance:gamma_hat",
        family="invariance",
        paper=_P,
        suites=("bad_input", "hard_input"),
    ),
)

#: Catalogued algorithms that no theorem check exercises, with their kind (the reasons
#: are :data:`properties._records.UNCOVERED_KINDS`).
UNCOVERED: dict[str, str] = {
    "reference.invariance:gamma_hat": "utility",
    "reference.invariance:subspace_distance": "utility",
}


def _dist_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (rng.standard_normal((4, 2)), rng.standard_normal((4, 2))), {}


def _wrap_first_env(fn: Any) -> Any:
    """Bad-input wrapper: corrupt the first environment's X (the suite corrupts positional arrays)."""

    def call(x0: Any, y0: Any, *rest: Any, **kw: Any) -> Any:
        instance = inv.make_instance(4, 1, 3, 20, 2.0, rng=np.random.default_rng(0))
        envs = [(x0, y0), *_envs(instance)[1:]]
        return fn(envs, *rest, **kw)

    call.__name__ = getattr(fn, "__name__", "call")
    return call


def _first_env_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    x = rng.standard_normal((20, 4))
    return (x, x[:, 0] + 0.1 * rng.standard_normal(20), 1), {}


def _gamma_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    x = rng.standard_normal((20, 4))
    return (x, x[:, 0] + 0.1 * rng.standard_normal(20)), {}


def _make_args(rng: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (4, 2, 4, 10, 1.0), {"rng": np.random.default_rng(0)}


BAD_INPUT_CASES = (
    BadInputCase(
        name="reference.invariance:subspace_distance",
        fn=inv.subspace_distance,
        make_args=_dist_args,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.invariance:estimate_invariant_subspace[env 0]",
        fn=_wrap_first_env(inv.estimate_invariant_subspace),
        make_args=_first_env_args,
        arrays=(0, 1),
        scalars=((2, (0, 4, -1, 1.5, None)),),
    ),
    BadInputCase(
        name="reference.invariance:gamma_hat[env 0]",
        fn=_wrap_first_env(inv.gamma_hat),
        make_args=_gamma_args,
        arrays=(0, 1),
    ),
    BadInputCase(
        name="reference.invariance:make_instance",
        fn=inv.make_instance,
        make_args=_make_args,
        arrays=(),
        scalars=(
            (0, (1, 0, 2.5)),
            (1, (0, 4, 7)),
            (2, (1, 0)),
            (3, (1, -5)),
            (4, (-1.0, float("nan"))),
            ("kind", ("both",)),
            ("drift", ("gauss",)),
        ),
    ),
)


# ----------------------------------------------------------------- hard-input rows
# Valid instances that are hard in a way a generic transform cannot make (smallest sizes,
# extreme scales, near-singular systems, the default caps), results documented to hold
# +-inf, and stopping rules that recompute the stopping quantity from the returned output
# with a routine of their own (never the result's fields).
def _invariance_args(rng: np.random.Generator) -> Args:
    from reference.invariance import make_instance

    inst = make_instance(4, 1, 3, 20, 2.0, rng=np.random.default_rng(int(rng.integers(2**32))))
    d = inst.environments[0][0].shape[1]
    return (inst.environments, rng.normal(size=(12, d))), {}


def _support_args(m: int, s: int, n: int) -> Callable[[np.random.Generator], Args]:
    from reference.invariance import make_toy_hard_instance

    def make(r: np.random.Generator) -> Args:
        inst = make_toy_hard_instance(m, s, n, rng=np.random.default_rng(int(r.integers(2**32))))
        return (inst.environments, s), {}

    return make


HARD_EXTRAS: tuple[HardExtra, ...] = (
    HardExtra(
        name="reference.invariance:exhaustive_search_k1",
        make_args=_invariance_args,
        arrays=(1,),
    ),
    HardExtra(
        name="reference.invariance:support_search",
        make_args=_support_args(4, 2, 50),
        instances=(
            HardInstance(label="m = 2, s = 1, n = 2", make_args=_support_args(2, 1, 2)),
            HardInstance(label="s = m = 5 (full support)", make_args=_support_args(5, 5, 40)),
        ),
    ),
)
