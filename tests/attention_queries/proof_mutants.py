"""Mutant table of the attention_queries theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from reference.attention_queries import (
    MultiHeadParams,
    multihead_witnesses,
    recover_exact,
    recover_low_rank,
    recover_noisy,
    recover_one_layer,
)
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def _transposed(rec: Any) -> Any:
    return dataclasses.replace(rec, W=np.asarray(rec.W).T.copy())


def recover_exact_transposed(*args: Any, **kwargs: Any) -> Any:
    """Returns ``Wᵀ``: the score read as ``x_Nᵀ W x_i`` instead of ``x_iᵀ W x_N``."""
    return _transposed(recover_exact(*args, **kwargs))


def recover_low_rank_transposed(*args: Any, **kwargs: Any) -> Any:
    """``vec(W)`` reshaped in the other (column-major) order."""
    return _transposed(recover_low_rank(*args, **kwargs))


def recover_noisy_transposed(*args: Any, **kwargs: Any) -> Any:
    """Returns ``Wᵀ`` (query and key roles swapped)."""
    return _transposed(recover_noisy(*args, **kwargs))


def recover_noisy_unscaled_v(*args: Any, **kwargs: Any) -> Any:
    """``v̂`` off by the noise level on every entry (the noisy single-token answers doubled)."""
    rec = recover_noisy(*args, **kwargs)
    tau = float(args[1]) if len(args) > 1 else float(kwargs["tau"])
    return dataclasses.replace(rec, v=np.asarray(rec.v) + 2.0 * tau)


def recover_one_layer_transposed(*args: Any, **kwargs: Any) -> Any:
    """Returns ``Wᵀ`` from Algorithm D."""
    rec, rest = recover_one_layer(*args, **kwargs)
    return _transposed(rec), rest


def witnesses_wrong_sign(*args: Any, **kwargs: Any) -> Any:
    """The compensating value shift of the shared-scores pair applied with the same sign."""
    pairs = list(multihead_witnesses(*args, **kwargs))
    kind, first, second = pairs[0]
    vs = np.asarray(second.vs).copy()
    vs[1] = 2.0 * np.asarray(first.vs)[1] - vs[1]  # vec + c instead of vec - c
    pairs[0] = (kind, first, MultiHeadParams(Ws=second.Ws, vs=vs))
    return tuple(pairs)


# ------------------------------------------------------------------ issue 36: audit mutants
def _bounds(d: int, tau: float, wb: float, mu: float, *, strict: bool = True) -> Any:
    if (tau >= mu / 2.0) if strict else (tau > mu / 2.0):
        raise ValueError(f"tau: expected tau < mu/2, got {tau!r}")
    return math.sqrt(d) * tau, 10.0 * d * wb * (1.5 * wb + 1.0) * tau / (mu - tau)


def bounds_d_for_sqrt_d(d: int, tau: float, w_bound: float, mu: float) -> Any:
    """``d tau`` for ``sqrt(d) tau`` (a dropped square root; equal at d = 1)."""
    _, bw = _bounds(d, tau, w_bound, mu)
    return d * tau, bw


def bounds_mu_for_mu_minus_tau(d: int, tau: float, w_bound: float, mu: float) -> Any:
    """``/ mu`` for ``/ (mu - tau)`` (a smaller, still plausible bound)."""
    bv, _ = _bounds(d, tau, w_bound, mu)
    return bv, 10.0 * d * w_bound * (1.5 * w_bound + 1.0) * tau / mu


def bounds_non_strict(d: int, tau: float, w_bound: float, mu: float) -> Any:
    """Accepts ``tau = mu/2`` (``>`` for ``>=`` in the threshold)."""
    return _bounds(d, tau, w_bound, mu, strict=False)


def bounds_wb_squared(d: int, tau: float, w_bound: float, mu: float) -> Any:
    """``Wb (Wb + 1)`` for ``Wb (1.5 Wb + 1)`` (a dropped factor; equal at Wb = 0)."""
    bv, _ = _bounds(d, tau, w_bound, mu)
    return bv, 10.0 * d * w_bound * (w_bound + 1.0) * tau / (mu - tau)


def _m(name: str, why: str, algorithm: str, target: str, catches: tuple[str, ...]) -> ProofMutant:
    return ProofMutant(
        family="attention_queries",
        name=name,
        why=why,
        algorithm=f"reference.attention_queries:{algorithm}",
        target=f"{__name__}:{target}",
        catches=catches,
    )


MUTANTS = (
    _m(
        "recover_exact: W transposed",
        "query and key roles swapped",
        "recover_exact",
        "recover_exact_transposed",
        ("attention_queries.theorem_4_1",),
    ),
    _m(
        "recover_low_rank: W transposed",
        "vec(W) reshaped column-major",
        "recover_low_rank",
        "recover_low_rank_transposed",
        ("attention_queries.theorem_5_1",),
    ),
    _m(
        "recover_noisy: W transposed",
        "query and key roles swapped",
        "recover_noisy",
        "recover_noisy_transposed",
        ("attention_queries.theorem_6_1",),
    ),
    _m(
        "recover_noisy: v off by 2 tau",
        "noise counted twice in the value estimate",
        "recover_noisy",
        "recover_noisy_unscaled_v",
        ("attention_queries.theorem_6_1",),
    ),
    _m(
        "recover_one_layer: W transposed",
        "query and key roles swapped",
        "recover_one_layer",
        "recover_one_layer_transposed",
        ("attention_queries.one_layer",),
    ),
    _m(
        "witnesses: shift sign",
        "the compensating shift applied with the same sign",
        "multihead_witnesses",
        "witnesses_wrong_sign",
        ("attention_queries.proposition_7_1",),
    ),
    # issue 36 audit: noisy_error_bounds had no check (0 of 4 caught before, 4 after)
    _m(
        "noisy_error_bounds: d tau",
        "a dropped square root",
        "noisy_error_bounds",
        "bounds_d_for_sqrt_d",
        ("attention_queries.noisy_bounds_formula",),
    ),
    _m(
        "noisy_error_bounds: / mu",
        "mu for mu - tau in the denominator",
        "noisy_error_bounds",
        "bounds_mu_for_mu_minus_tau",
        ("attention_queries.noisy_bounds_formula",),
    ),
    _m(
        "noisy_error_bounds: tau = mu/2 accepted",
        "a non-strict threshold",
        "noisy_error_bounds",
        "bounds_non_strict",
        ("attention_queries.noisy_bounds_formula",),
    ),
    _m(
        "noisy_error_bounds: Wb (Wb + 1)",
        "a dropped factor 1.5",
        "noisy_error_bounds",
        "bounds_wb_squared",
        ("attention_queries.noisy_bounds_formula",),
    ),
)
