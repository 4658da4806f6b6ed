"""Hand-made broken invariant-subspace code: the invariance suites must reject each one."""

from __future__ import annotations

from typing import Any

import numpy as np

from reference._arrays import FloatArray


def distance_no_orthonormalisation(U: FloatArray, V: FloatArray) -> float:
    """Mutant: treats the raw bases as orthonormal (P = U Uᵀ)."""
    diff = U @ U.T - V @ V.T
    return float(np.sum(diff * diff))


def distance_not_squared(U: FloatArray, V: FloatArray) -> float:
    """Mutant: returns dist instead of dist²."""
    qu, qv = np.linalg.qr(U)[0], np.linalg.qr(V)[0]
    return float(np.linalg.norm(qu @ qu.T - qv @ qv.T))


def distance_one_sided(U: FloatArray, V: FloatArray) -> float:
    """Mutant: ‖(I - P_V) U‖² without orthonormalising U (asymmetric)."""
    qv = np.linalg.qr(V)[0]
    r = U - qv @ (qv.T @ U)
    return float(np.sum(r * r))


def _f_hat(envs: list[tuple[FloatArray, FloatArray]], centre: bool) -> FloatArray:
    means = np.array([x.mean(axis=0) for x, _ in envs])
    cross = np.array([((x - x.mean(axis=0)) if centre else x).T @ y / len(y) for x, y in envs])
    out: FloatArray = (means - means.mean(0)).T @ (means - means.mean(0)) + (
        cross - cross.mean(0)
    ).T @ (cross - cross.mean(0))
    return out


def estimator_largest(envs: Any, k: int) -> FloatArray:
    """Mutant: takes the k eigenvectors with the LARGEST eigenvalues (the spurious directions)."""
    out: FloatArray = np.linalg.eigh(_f_hat(envs, True))[1][:, -k:]
    return out


def estimator_uncentred(envs: Any, k: int) -> FloatArray:
    """Mutant: uncentred cross moments and no normalisation (not shift/scale invariant)."""
    out: FloatArray = np.linalg.eigh(_f_hat(envs, False))[1][:, :k]
    return out


def estimator_first_env_only(envs: Any, k: int) -> FloatArray:
    """Mutant: PCA of the first environment's X (ignores the between-environment structure)."""
    x = envs[0][0]
    out: FloatArray = np.linalg.eigh(np.cov(x, rowvar=False))[1][:, :k]
    return out
