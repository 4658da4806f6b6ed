"""Mutant table of the invariance theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from reference import invariance as inv
from reference._arrays import FloatArray
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def estimate_top_eigenvectors(envs: Any, k: int) -> Any:
    """Takes the top-``k`` eigenvectors of the drift matrix (``eigh``'s ascending order forgotten)."""
    est = inv.estimate_invariant_subspace(envs, k)
    d = np.asarray(est.eigenvalues).size
    basis = np.zeros((d, k))
    # the eigenvectors are not returned for the top of the spectrum: rebuild them from the
    # complement of the returned bottom-k span (any orthonormal basis of it spans the top d - k)
    q, _ = np.linalg.qr(np.concatenate([np.asarray(est.basis), np.eye(d)], axis=1))
    basis[:, :] = q[:, d - k : d]
    return dataclasses.replace(est, basis=basis)


def estimate_one_short(envs: Any, k: int) -> Any:
    """Returns ``k - 1`` basis vectors (``vectors[:, :k - 1]``: off by one in the slice)."""
    est = inv.estimate_invariant_subspace(envs, k)
    return dataclasses.replace(est, basis=np.asarray(est.basis)[:, : k - 1].copy())


def make_instance_gamma_ignored(*args: Any, **kwargs: Any) -> Any:
    """The diversity ``γ`` not passed on (the default 2.0 always used)."""
    d, k, n_envs, n = args[:4]
    kwargs.pop("gamma", None)
    return inv.make_instance(d, k, n_envs, n, 2.0, **kwargs)


def make_instance_envs_ignored(*args: Any, **kwargs: Any) -> Any:
    """The number of environments not passed on (16 always used)."""
    d, k, _, n, gamma = args[:5]
    return inv.make_instance(d, k, 16, n, gamma, **kwargs)


def drift_matrix_one_env_short(instance: Any) -> FloatArray:
    """Drops the last environment's drift (an off-by-one in the environment loop)."""
    m = np.asarray(instance.drifts, dtype=np.float64)[:-1]
    centred = m - m.mean(axis=0)
    out: FloatArray = m.shape[0] * centred.T @ centred
    return out


def exhaustive_first_batch(envs: Any, candidates: Any, *, lam: float = 10.0) -> FloatArray:
    """Searches only the first 1% of the candidates (the loop stops after its first batch)."""
    cands = np.asarray(candidates, dtype=np.float64)
    return inv.exhaustive_search_k1(envs, cands[: max(1, cands.shape[0] // 100)], lam=lam)


def support_search_too_small(envs: Any, s: int, *, lam: float = 10.0) -> FloatArray:
    """Searches supports of size ``s - 1`` (off by one)."""
    return inv.support_search(envs, max(s - 1, 1), lam=lam)


def _m(name: str, why: str, algorithm: str, target: str, catches: tuple[str, ...]) -> ProofMutant:
    return ProofMutant(
        family="invariance",
        name=name,
        why=why,
        algorithm=f"reference.invariance:{algorithm}",
        target=f"{__name__}:{target}",
        catches=catches,
    )


MUTANTS = (
    _m(
        "estimator: top eigenvectors",
        "eigh's ascending order forgotten",
        "estimate_invariant_subspace",
        "estimate_top_eigenvectors",
        (
            "invariance.rate_n",
            "invariance.gamma_scaling",
            "invariance.e3_vs_e2",
            "invariance.rate_width",
        ),
    ),
    _m(
        "estimator: k - 1 vectors",
        "off by one in the eigenvector slice",
        "estimate_invariant_subspace",
        "estimate_one_short",
        ("invariance.rate_k", "invariance.rate_n"),
    ),
    _m(
        "make_instance: envs ignored",
        "the number of environments not passed on",
        "make_instance",
        "make_instance_envs_ignored",
        ("invariance.rate_envs",),
    ),
    _m(
        "make_instance: gamma ignored",
        "the diversity parameter not passed on",
        "make_instance",
        "make_instance_gamma_ignored",
        (
            "invariance.gamma_scaling",
            "invariance.gamma_zero",
            "invariance.below_threshold",
            "invariance.transition",
        ),
    ),
    _m(
        "drift matrix: one env short",
        "off by one in the environment loop",
        "population_drift_matrix",
        "drift_matrix_one_env_short",
        ("invariance.rank_condition",),
    ),
    _m(
        "exhaustive search: first 1%",
        "the search stops after its first batch",
        "exhaustive_search_k1",
        "exhaustive_first_batch",
        ("invariance.e3_vs_e2",),
    ),
    _m(
        "support_search: s - 1",
        "support size off by one",
        "support_search",
        "support_search_too_small",
        ("invariance.construction_3_3",),
    ),
)
