"""Parameter-effect rows of the invariance family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import RANDOM_SOURCE, UTILITY, ParamEffect, Row, kw, rows, scaled

__all__ = ["NEUTRAL", "PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    kw(
        "invariance",
        "invariance:make_instance",
        "sigma_eta",
        "2 sigma_eta",
        scaled(2.0),
        "gamma_zero and below_threshold use the spurious noise sd they passed",
        "invariance.gamma_zero",
        "invariance.below_threshold",
    ),
)

NEUTRAL: tuple[Row, ...] = (*rows(RANDOM_SOURCE, "reference.invariance:make_instance", "rng"),)

UNCHECKED: tuple[Row, ...] = (
    (
        "reference.invariance:exhaustive_search_k1",
        "lam",
        "e3_vs_e2 compares two searches at the same lam; both ignoring it agree",
    ),
    (
        "reference.invariance:make_instance",
        "kind",
        "the checks build instances with the generator; a different kind is still a valid "
        "instance, on which the rates hold",
    ),
    (
        "reference.invariance:make_instance",
        "rotate",
        "the checks' claims are rotation-invariant: a rotated or unrotated instance passes",
    ),
    *rows(UTILITY, "reference.invariance:subspace_distance", "squared"),
    (
        "reference.invariance:make_instance",
        "sigma_eps",
        "the checks' claims hold at any label-noise level: twice and half pass (measured)",
    ),
    (
        "reference.invariance:make_instance",
        "drift",
        "the checks draw the default 'design' drift only",
    ),
    (
        "reference.invariance:support_search",
        "lam",
        "construction_3_3 checks the support found, which twice and half lambda also find "
        "(measured)",
    ),
)
