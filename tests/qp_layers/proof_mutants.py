"""Mutant table of the qp_layers theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from reference import qp_layers as ql
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def half_alpha_ffo(*args: Any, alpha: float = 100.0, **kwargs: Any) -> Any:
    """FFO that perturbs with ``2/α`` but rescales by ``α`` (the tilt's factor 2 dropped)."""
    grads = ql.ffo_grads(*args, alpha=alpha / 2.0, **kwargs)
    return dataclasses.replace(grads, **{k: 2.0 * v for k, v in _fields(grads)})


def _fields(grads: Any) -> list[tuple[str, Any]]:
    """The float-array blocks of a gradient result (masks and scalars left alone)."""
    out = []
    for f in dataclasses.fields(grads):
        value = getattr(grads, f.name)
        if isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.floating):
            out.append((f.name, value))
    return out


def first_order_kkt(*args: Any, **kwargs: Any) -> Any:
    """KKT gradients with the sign of every block flipped (``-K⁻¹`` for ``K⁻¹``)."""
    grads = ql.kkt_grads(*args, **kwargs)
    return dataclasses.replace(grads, **{k: -v for k, v in _fields(grads)})


def unprojected_pgd(Q: Any, q: Any, C: Any, c: Any, grad_x: Any, y0: Any, **kwargs: Any) -> Any:
    """Ghost PGD with the tilt ``d/α`` applied as ``d`` (the 1/α forgotten in the step)."""
    alpha = kwargs.pop("alpha")
    return ql.ghost_pgd(Q, q, C, c, np.asarray(grad_x) * alpha, y0, alpha=alpha, **kwargs)


def sqrt_penalty(*args: Any, penalty: float = 100.0, **kwargs: Any) -> Any:
    """Penalty gradients computed with ``sqrt(λ_p)`` (the weight's square root)."""
    return ql.penalty_grads(*args, penalty=float(np.sqrt(penalty)), **kwargs)


def loose_solve_qp(*args: Any, **kwargs: Any) -> Any:
    """A forward solve that returns the unconstrained minimiser ``-Q⁻¹q`` (constraints lost)."""
    sol = ql.solve_qp(*args, **kwargs)
    x = -np.linalg.solve(
        np.asarray(args[0], dtype=np.float64), np.asarray(args[1], dtype=np.float64)
    )
    return dataclasses.replace(sol, x=x)


def unpolished_solve_qp(*args: Any, **kwargs: Any) -> Any:
    """The interior point's own solution (no active-set polish): ``s_i ≈ μ/λ_i`` on thin rows."""
    return ql.solve_qp(*args, config=ql.QPSolverConfig(polish=False))


def unpolished_kkt(*args: Any, solution: Any = None, **kwargs: Any) -> Any:
    """KKT gradients that, when no ``solution=`` is given, differentiate at the interior
    point's solution (the active set read off ``λ_i > s_i`` once, nothing repaired)."""
    if solution is None:
        solution = ql.solve_qp(*args[:6], config=ql.QPSolverConfig(polish=False))
    return ql.kkt_grads(*args, solution=solution, **kwargs)


def strict_active_set(
    slack: Any, lam: Any, *, slack_tol: float = 1e-8, dual_cutoff: float = 0.0
) -> Any:
    """The frozen set with strict inequalities ``s < slack_tol`` and ``λ > dual_cutoff``."""
    return (np.asarray(slack) < slack_tol) & (np.asarray(lam) > dual_cutoff)


def cutoff_ignored_ffo(*args: Any, config: Any = None, **kwargs: Any) -> Any:
    """FFO whose frozen set ignores ``config.dual_cutoff`` (slack rule only)."""
    cfg = config if config is not None else ql.FFOConfig()
    return ql.ffo_grads(*args, config=dataclasses.replace(cfg, dual_cutoff=0.0), **kwargs)


def _m(name: str, why: str, algorithm: str, target: str, *catches: str) -> ProofMutant:
    return ProofMutant(
        family="qp_layers",
        name=name,
        why=why,
        algorithm=f"reference.qp_layers:{algorithm}",
        target=f"{__name__}:{target}",
        catches=tuple(f"qp_layers.{c}" for c in catches),
    )


MUTANTS: tuple[ProofMutant, ...] = (
    _m(
        "ffo_grads: factor 2",
        "tilt 2/α rescaled by α",
        "ffo_grads",
        "half_alpha_ffo",
        "ghost_equivalence",
        "exact_blocks",
        "rank_one_error",
        "error_rate",
    ),
    _m(
        "kkt_grads: sign",
        "every block negated",
        "kkt_grads",
        "first_order_kkt",
        "ghost_equivalence",
        "exact_blocks",
    ),
    _m(
        "ghost_pgd: tilt d",
        "the 1/α of the tilt forgotten",
        "ghost_pgd",
        "unprojected_pgd",
        "pgd_contraction",
        "pgd_alpha_independence",
        "pgd_rate",
    ),
    _m(
        "penalty_grads: sqrt weight",
        "penalty sqrt(λ_p)",
        "penalty_grads",
        "sqrt_penalty",
        "penalty_rate",
        "penalty_condition",
    ),
    _m(
        "solve_qp: unconstrained", "constraints dropped", "solve_qp", "loose_solve_qp", "active_set"
    ),
    _m(
        "solve_qp: no polish",
        "interior point returned as is (s ≈ μ/λ on a row with λ = 1e-6)",
        "solve_qp",
        "unpolished_solve_qp",
        "thin_margins",
    ),
    _m(
        "kkt_grads: unpolished forward",
        "solves the QP itself without repairing the active set",
        "kkt_grads",
        "unpolished_kkt",
        "thin_margins",
    ),
    _m(
        "active_set: strict",
        "s < slack_tol and λ > dual_cutoff (ties left out)",
        "active_set",
        "strict_active_set",
        "active_set_rule",
    ),
    _m(
        "ffo_grads: cutoff ignored",
        "frozen set by slack only, config.dual_cutoff dropped",
        "ffo_grads",
        "cutoff_ignored_ffo",
        "active_set_rule",
    ),
)
