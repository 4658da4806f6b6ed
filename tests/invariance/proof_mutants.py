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


def estimate_within_environment_centred(envs: Any, k: int) -> Any:
    """Centres ``X`` within each environment first (the environment means discarded as if a
    nuisance): under mean drift nothing identifies ``V_inv`` any more."""
    items = envs.environments if hasattr(envs, "environments") else envs
    centred = [(np.asarray(x) - np.asarray(x).mean(axis=0), np.asarray(y)) for x, y in items]
    return inv.estimate_invariant_subspace(centred, k)


def drift_matrix_without_env_factor(instance: Any) -> FloatArray:
    """``Σ_e (m_e - m̄)(m_e - m̄)ᵀ``: the factor ``|E|`` of the pairwise identity dropped (same
    rank, another matrix)."""
    m = np.asarray(instance.drifts, dtype=np.float64)
    centred = m - m.mean(axis=0)
    out: FloatArray = centred.T @ centred
    return out


def exhaustive_first_batch(envs: Any, candidates: Any, *, lam: float = 10.0) -> FloatArray:
    """Searches only the first 1% of the candidates (the loop stops after its first batch)."""
    cands = np.asarray(candidates, dtype=np.float64)
    return inv.exhaustive_search_k1(envs, cands[: max(1, cands.shape[0] // 100)], lam=lam)


def support_search_too_small(envs: Any, s: int, *, lam: float = 10.0) -> FloatArray:
    """Searches supports of size ``s - 1`` (off by one)."""
    return inv.support_search(envs, max(s - 1, 1), lam=lam)


# ------------------------------------------------------------------ issue 36: audit mutants
def _e2(envs: Any, k: int, *, centred: bool = True, means: bool = True, pooled: bool = True) -> Any:
    """E2 with switchable defects (the shipped estimator: centred, both terms, pooled scale)."""
    data = [
        (np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64))
        for x, y in (envs.environments if hasattr(envs, "environments") else envs)
    ]
    out = []
    for x, y in data:
        if pooled:
            out.append((x, y))
        else:  # each environment scaled by its own spread
            out.append((x / float(np.std(x)), y / float(np.std(y))))
    if pooled:
        px = np.vstack([x for x, _ in data])
        py = np.concatenate([y for _, y in data])
        sx = float(np.sqrt(np.mean(np.sum((px - px.mean(axis=0)) ** 2, axis=1)))) or 1.0
        sy = float(np.std(py)) or 1.0
        out = [(x / sx, y / sy) for x, y in out]
    mu = np.array([x.mean(axis=0) for x, _ in out])
    if centred:
        cross = np.array([(x - x.mean(axis=0)).T @ (y - y.mean()) / x.shape[0] for x, y in out])
    else:
        cross = np.array([x.T @ y / x.shape[0] for x, y in out])
    f = (cross - cross.mean(axis=0)).T @ (cross - cross.mean(axis=0))
    if means:
        f = f + (mu - mu.mean(axis=0)).T @ (mu - mu.mean(axis=0))
    values, vectors = np.linalg.eigh(len(out) * f)
    gap = float(values[k] / values[k - 1]) if values[k - 1] > 0 else float("inf")
    return inv.SubspaceEstimate(
        basis=vectors[:, :k], eigenvalues=values, eigengap=gap, identifiable=len(out) >= 2
    )


def e2_uncentred(envs: Any, k: int) -> Any:
    """The spec's literal ``X_eᵀy_e/n`` (uncentred) for the documented ``Cov_e(X, y)``."""
    return _e2(envs, k, centred=False)


def e2_no_mean_term(envs: Any, k: int) -> Any:
    """Only the cross-moment term (the between-environment spread of ``E_e[X]`` dropped)."""
    return _e2(envs, k, means=False)


def e2_per_environment_scale(envs: Any, k: int) -> Any:
    """Each environment normalised by its own spread (the pooled scale forgotten)."""
    return _e2(envs, k, pooled=False)


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
        "estimator: centred per environment",
        "environment means discarded (mean drift invisible)",
        "estimate_invariant_subspace",
        "estimate_within_environment_centred",
        ("invariance.rate_n",),
    ),
    _m(
        "drift matrix: no |E| factor",
        "Σ_e (m_e - m̄)(m_e - m̄)ᵀ for the pairwise sum",
        "population_drift_matrix",
        "drift_matrix_without_env_factor",
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
    # issue 36 audit: 0 of 3 caught before (every check held), 3 of 3 after
    _m(
        "estimate_invariant_subspace: uncentred cross moments",
        "the spec's literal X_eᵀy_e/n for the documented Cov_e(X, y)",
        "estimate_invariant_subspace",
        "e2_uncentred",
        ("invariance.e2_formula",),
    ),
    _m(
        "estimate_invariant_subspace: no mean term",
        "the spread of E_e[X] across environments dropped",
        "estimate_invariant_subspace",
        "e2_no_mean_term",
        ("invariance.e2_formula",),
    ),
    _m(
        "estimate_invariant_subspace: per-environment scale",
        "each environment normalised by its own spread",
        "estimate_invariant_subspace",
        "e2_per_environment_scale",
        ("invariance.e2_formula",),
    ),
)
