"""Mutant table of the mirror_descent theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from reference import mirror_descent as md
from reference._arrays import FloatArray
from reference.mirror_descent import composite as mdc
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class _DoubledHessian(md.RidgeProblem):
    """A ridge whose Hessian is that of ``2f`` (φ'' doubled)."""

    def hessian(self, x: FloatArray) -> FloatArray:
        return 2.0 * md.RidgeProblem.hessian(self, x)

    def hessian_operator_norm(
        self, x: FloatArray, norm: md.NormName = "l2", *, p: float = 2.0
    ) -> float:
        return 2.0 * md.RidgeProblem.hessian_operator_norm(self, x, norm, p=p)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class _DoubledGradient(md.RidgeProblem):
    """A ridge whose gradient is that of ``2f`` (φ' doubled)."""

    def grad(self, x: FloatArray) -> FloatArray:
        return 2.0 * md.RidgeProblem.grad(self, x)


def doubled_hessian_quartic(c: Any) -> md.RidgeProblem:
    """``quartic_ridge`` with φ'' = 6u² (the Hessian of 2f)."""
    r = md.quartic_ridge(c)
    return _DoubledHessian(kind=r.kind, c=r.c, b=r.b)


def doubled_gradient_quartic(c: Any) -> md.RidgeProblem:
    """``quartic_ridge`` with φ' = 2u³ (the gradient of 2f)."""
    r = md.quartic_ridge(c)
    return _DoubledGradient(kind=r.kind, c=r.c, b=r.b)


def lazy_md(grad: Any, x0: Any, **kwargs: Any) -> md.MirrorDescentResult:
    """Mirror descent that stops after 2 steps whatever ``max_iter`` says."""
    kwargs["max_iter"] = 2
    return md.mirror_descent(grad, x0, **kwargs)


def plain_accelerated(
    grad: Any, x0: Any, *, lipschitz: float, max_iter: int, **kwargs: Any
) -> md.MirrorDescentResult:
    """ "Accelerated" MD that runs plain MD with ``η = 1/L`` (no momentum)."""
    kwargs.pop("step_size", None)
    return md.mirror_descent(
        grad,
        x0,
        step_size=1.0 / lipschitz,
        max_iter=max_iter,
        mirror=kwargs.get("mirror", "euclidean"),
    )


def ascent_mirror_prox(grad: Any, x0: Any, **kwargs: Any) -> md.MirrorDescentResult:
    """Mirror prox with the gradient's sign flipped."""
    return md.mirror_prox(lambda x: -np.asarray(grad(x)), x0, **kwargs)


def ascent_optimistic(grad: Any, x0: Any, **kwargs: Any) -> md.MirrorDescentResult:
    """Optimistic MD with the gradient's sign flipped."""
    return md.optimistic_mirror_descent(lambda x: -np.asarray(grad(x)), x0, **kwargs)


def plain_factor_constants(l_fn: Any, delta0: float, *, accelerated: bool = False) -> Any:
    """``effective_constants`` forgetting the accelerated factor (``l(2G)`` for ``l(4G)``)."""
    return md.effective_constants(l_fn, delta0, accelerated=False)


def composite_ignoring_h(grad: Any, x0: Any, **kwargs: Any) -> mdc.CompositeResult:
    """Composite MD that drops the regulariser (plain MD on ``f``)."""
    kwargs["regularizer"] = mdc.Regularizer()
    return mdc.composite_mirror_descent(grad, x0, **kwargs)


def _m(name: str, why: str, algorithm: str, target: str, *catches: str) -> ProofMutant:
    return ProofMutant(
        family="mirror_descent",
        name=name,
        why=why,
        algorithm=algorithm if ":" in algorithm else f"reference.mirror_descent:{algorithm}",
        target=f"{__name__}:{target}",
        catches=tuple(f"mirror_descent.{c}" for c in catches),
    )


MUTANTS: tuple[ProofMutant, ...] = (
    _m(
        "quartic_ridge: Hessian of 2f",
        "φ'' doubled",
        "quartic_ridge",
        "doubled_hessian_quartic",
        "definition_1",
    ),
    _m(
        "quartic_ridge: gradient of 2f",
        "φ' doubled",
        "quartic_ridge",
        "doubled_gradient_quartic",
        "self_bounding",
    ),
    _m(
        "mirror_descent: 2 steps",
        "the iteration budget ignored (stops after 2 steps)",
        "mirror_descent",
        "lazy_md",
        "md_rate",
    ),
    _m(
        "accelerated_mirror_descent: no momentum",
        "plain MD with η = 1/L",
        "accelerated_mirror_descent",
        "plain_accelerated",
        "accelerated_rate",
    ),
    _m(
        "mirror_prox: ascent",
        "gradient sign flipped",
        "mirror_prox",
        "ascent_mirror_prox",
        "mirror_prox_rate",
    ),
    _m(
        "optimistic_mirror_descent: ascent",
        "gradient sign flipped",
        "optimistic_mirror_descent",
        "ascent_optimistic",
        "optimistic_rate",
    ),
    _m(
        "effective_constants: l(2G) when accelerated",
        "accelerated factor forgotten",
        "effective_constants",
        "plain_factor_constants",
        "sympy_identities",
    ),
    _m(
        "composite_mirror_descent: h dropped",
        "the regulariser ignored",
        "reference.mirror_descent.composite:composite_mirror_descent",
        "composite_ignoring_h",
        "composite_rate",
    ),
)
