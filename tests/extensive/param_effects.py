"""Parameter-effect rows of the extensive family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import BASELINE, INNER, Row, rows

__all__ = ["UNCHECKED"]


UNCHECKED: tuple[Row, ...] = (
    *rows(INNER, "reference.extensive:dilated_prox", "kappa"),
    *rows(BASELINE, "reference.extensive:cfr", "iterations"),
    *rows(BASELINE, "reference.extensive:cfr_plus", "iterations"),
    *rows(BASELINE, "reference.extensive:dgda", "step_size", "max_iter", "tol"),
    *rows(BASELINE, "reference.extensive:dmwu", "step_size", "max_iter", "tol", "optimistic"),
    *rows(BASELINE, "reference.extensive:dogda", "step_size", "max_iter", "tol"),
    *rows(
        BASELINE, "reference.extensive:symp_dgda", "mu", "step_size", "max_iter", "tol", "variant"
    ),
    (
        "reference.extensive:asymp_dgda",
        "mu",
        "kuhn_asymp_dgda checks the perturbed equilibrium's NashConv against a budget that "
        "twice and half mu also meet (measured)",
    ),
    (
        "reference.extensive:asymp_dgda",
        "step_size",
        "kuhn_asymp_dgda passes the default step (None) only",
    ),
    (
        "reference.extensive:asymp_dgda",
        "max_iter",
        "the run stops on tol long before the cap (twice or one less passes, measured)",
    ),
    (
        "reference.extensive:asymp_dgda",
        "tol",
        "kuhn_asymp_dgda's budget is above what twice or half the tolerance reach (measured)",
    ),
    (
        "reference.extensive:asymp_dgda",
        "variant",
        "kuhn_asymp_dgda runs the default explicit step only",
    ),
)
